/* sq-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-error"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sq-error.h"

G_DEFINE_QUARK (sq-error-quark, sq_error)

void
sq_set_error_at_offset (GError    **error,
                        SqErrorCode code,
                        gsize       offset,
                        const char *format,
                        ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  if (error == NULL)
    return;
  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  /* TRANSLATORS: the problem, then the byte offset in hex and decimal */
  g_set_error (error, SQ_ERROR, code, _("%s at offset 0x%zx (%zu)"),
               msg, offset, offset);
}

void
sq_set_error_at_line_valist (GError    **error,
                             SqErrorCode code,
                             guint       line,
                             guint       column,
                             const char *format,
                             va_list     args)
{
  g_autofree char *msg = NULL;

  if (error == NULL)
    return;
  msg = g_strdup_vprintf (format, args);
  /* TRANSLATORS: line and column in the file, then the problem */
  g_set_error (error, SQ_ERROR, code, _("line %u, column %u: %s"), line, column, msg);
}

void
sq_set_error_at_line (GError    **error,
                      SqErrorCode code,
                      guint       line,
                      guint       column,
                      const char *format,
                      ...)
{
  va_list args;

  va_start (args, format);
  sq_set_error_at_line_valist (error, code, line, column, format, args);
  va_end (args);
}

const char *
sq_error_plain_cause (const GError *error)
{
  if (error == NULL || error->domain != SQ_ERROR)
    return NULL;
  switch ((SqErrorCode) error->code)
    {
    case SQ_ERROR_TRUNCATED:
      return _("The file is cut short: it ends before the data it announces.");
    case SQ_ERROR_BAD_MAGIC:
      return _("The file is not an animation in a format Sequin reads.");
    case SQ_ERROR_BAD_VALUE:
      return _("The file holds a value its format does not allow.");
    case SQ_ERROR_SYNTAX:
      return _("The file's text does not follow its format.");
    case SQ_ERROR_LIMIT_EXCEEDED:
      return _("The file is cut short, or a count in it is wrong: it announces more than it holds.");
    case SQ_ERROR_UNSUPPORTED:
      return _("The file uses a version or variant of its format that Sequin does not read.");
    default:
      return NULL;
    }
}
