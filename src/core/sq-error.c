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
