/* sq-losses.c: the list of what a conversion or a writer loses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-losses"

#include "config.h"

#include <stdarg.h>

#include "sq-convert.h"
#include "sq-losses.h"

void
_sq_loss (GPtrArray  *losses,
          const char *format,
          ...)
{
  va_list args;

  if (losses == NULL)
    return;
  va_start (args, format);
  g_ptr_array_add (losses, g_strdup_vprintf (format, args));
  va_end (args);
}

void
_sq_note (GPtrArray  *losses,
          const char *format,
          ...)
{
  va_list args;
  g_autofree char *text = NULL;

  if (losses == NULL)
    return;
  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (losses, g_strconcat (SQ_LOSS_NOTE, text, NULL));
}
