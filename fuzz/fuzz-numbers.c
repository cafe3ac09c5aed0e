/* fuzz-numbers.c: the text formats' number reader and writers against the C
 * library on arbitrary text: _sq_scan_double_in gives strtod's double bit
 * for bit, never takes bytes past the token however far it may look, and
 * _sq_append_shortest / _sq_append_number / _sq_append_fixed_or_shortest
 * write text that reads back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq-math.h"
#include "sq-private.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  char tok[80];
  gsize len;
  double mine = 0, ref;
  char *end = NULL;
  gboolean ok, ok_in;
  double in = 0;

  if (size < 1 || size > 64)
    return 0;
  /* the first byte says where the token ends; the rest of the input lies
   * after it in the same buffer, as a file's next bytes would */
  len = MIN ((gsize) data[0], size - 1);
  memcpy (tok, data + 1, size - 1);
  ok = _sq_parse_double (tok, len, &mine);
  ok_in = _sq_parse_double_in (tok, len, tok + size - 1, &in);
  if (ok != ok_in || (ok && memcmp (&mine, &in, sizeof in) != 0))
    {
      fprintf (stderr, "the bounded and the look-ahead readers disagree\n");
      abort ();
    }
  if (ok)
    {
      char copy[80];

      memcpy (copy, tok, len);
      copy[len] = '\0';
      ref = g_ascii_strtod (copy, &end);
      if (end != copy + len || memcmp (&mine, &ref, sizeof ref) != 0)
        {
          fprintf (stderr, "“%s”: %.17g, strtod %.17g\n", copy, mine, ref);
          abort ();
        }
    }

  /* eight bytes of the input as a double: the writers */
  if (size >= 9)
    {
      double v;
      char buf[SQ_DOUBLE_BUF];
      g_autoptr(GString) s = g_string_new (NULL);
      g_autoptr(GString) f = g_string_new (NULL);
      double back;

      memcpy (&v, data + 1, sizeof v);
      _sq_append_shortest (s, v);
      sq_format_double (buf, sizeof buf, v);
      if (strcmp (s->str, buf) != 0)
        {
          fprintf (stderr, "%a: “%s”, sq_format_double “%s”\n", v, s->str, buf);
          abort ();
        }
      if (isfinite (v))
        {
          g_autoptr(GString) x = g_string_new (NULL);
          gboolean exact;

          _sq_append_number (f, v, data[0] % 18);
          if (!_sq_parse_double (f->str, f->len, &back))
            {
              fprintf (stderr, "%a: “%s” does not read back\n", v, f->str);
              abort ();
            }
          /* the exact variant appends the same text exactly when it reads
           * back bit for bit */
          exact = memcmp (&back, &v, sizeof v) == 0;
          if (_sq_append_number_exact (x, v, data[0] % 18) != exact || strcmp (x->str, exact ? f->str : "") != 0)
            {
              fprintf (stderr, "%a: exact variant disagrees on “%s”\n", v, f->str);
              abort ();
            }
          /* the .x writer's choice: that text when exact, else the shortest */
          {
            g_autoptr(GString) y = g_string_new (NULL);

            _sq_append_fixed_or_shortest (y, v, data[0] % 15);
            g_string_truncate (x, 0);
            if (!_sq_append_number_exact (x, v, data[0] % 15))
              g_string_append (x, s->str);
            if (strcmp (y->str, x->str) != 0)
              {
                fprintf (stderr, "%a: fixed-or-shortest “%s”, expected “%s”\n", v, y->str, x->str);
                abort ();
              }
          }
        }
    }
  return 0;
}
