/* sq-encoding.c: Latin-1 text to UTF-8 and back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-encoding"

#include "config.h"

#include "sq-encoding.h"

char *
_sq_latin1_to_utf8 (const guint8 *data,
                    gsize         len)
{
  GString *s = g_string_sized_new (len + 1);

  for (gsize i = 0; i < len; i++)
    g_string_append_unichar (s, data[i]);
  return g_string_free (s, FALSE);
}

gboolean
_sq_utf8_to_latin1 (const char *utf8,
                    GByteArray *out)
{
  gboolean ok = TRUE;

  for (const char *p = utf8; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, -1);
      guint8 b;

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* not UTF-8: cannot happen for names the core made, but be safe */
          b = '?';
          ok = FALSE;
          g_byte_array_append (out, &b, 1);
          break;
        }
      if (c > 0xff)
        {
          b = '?';
          ok = FALSE;
        }
      else
        b = (guint8) c;
      g_byte_array_append (out, &b, 1);
    }
  return ok;
}
