/* sq-losses.c: the list of what a conversion or a writer loses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-losses"

#include "config.h"

#include <stdarg.h>

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
