/* test-numbers.c: the text formats' decimal parser is bit-identical to
 * strtod (C locale) and rejects what is not a plain decimal number
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <string.h>

#include "sq-math.h"
#include "sq-private.h"

static void
check_one (const char *text)
{
  double mine = 0, ref;
  char *end = NULL;
  gboolean ok = _sq_parse_double (text, strlen (text), &mine);

  ref = g_ascii_strtod (text, &end);
  g_assert_true (*end == '\0');
  if (!isfinite (ref))
    {
      g_assert_false (ok);
      return;
    }
  if (!ok || memcmp (&mine, &ref, sizeof ref) != 0)
    g_error ("“%s”: parsed %.17g (ok=%d), strtod gives %.17g", text, mine, ok, ref);

  /* the same token inside a larger buffer, digits or text after it: the
   * reader may look past the token eight bytes at a time but never takes
   * what lies beyond it */
  {
    static const char *after[] = { "12345678901234567890", " 1.5 2.5 3.5 4.5 5.5", "e+0512345678", ".1234567890123456789" };
    char buf[128];
    gsize len = strlen (text);

    for (guint a = 0; a < G_N_ELEMENTS (after) && len < 64; a++)
      {
        double in = 0;

        memcpy (buf, text, len);
        strcpy (buf + len, after[a]);
        if (!_sq_parse_double_in (buf, len, buf + strlen (buf), &in) || memcmp (&in, &ref, sizeof ref) != 0)
          g_error ("“%s” followed by “%s”: parsed %.17g, strtod gives %.17g", text, after[a], in, ref);
      }
  }
}

static void
test_fixed_cases (void)
{
  const char *good[] = {
    "0", "-0", "+0", "0.0", "-0.000", "1", "-1", "1.", ".5", "-.5", "+3", "007", "1e5", "1E-5", "1e+5",
    "0.005932", "-0.999982", "349.1282", "4633", "0.0153", "1.7976931348623157e308", "2.2250738585072014e-308",
    "4.9406564584124654e-324", "1e-400", "123456789012345678901234567890", "0.1", "0.3", "9007199254740993",
    "9007199254740992", "1e22", "1e23", "3.14159265358979323846264338327950288",
    "0.000000000000000000000000000001", "1.00000000000000011102230246251565404236316680908203125",
    "1.00000000000000011102230246251565404236316680908203124", "8.98846567431158e307",
  };
  const char *bad[] = {
    "", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "--1", "0x10", "inf", "-inf", "nan", "1,5", " 1", "1 ",
    "1e400", "-1e999", "1f", "1.5d",
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    check_one (good[i]);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      double v;
      char buf[64];

      g_assert_false (_sq_parse_double (bad[i], strlen (bad[i]), &v));
      g_snprintf (buf, sizeof buf, "%s12345678 9", bad[i]);
      g_assert_false (_sq_parse_double_in (buf, strlen (bad[i]), buf + strlen (buf), &v));
    }
}

static void
test_random (void)
{
  GRand *rand = g_rand_new_with_seed (42);
  char buf[64];
  guint n = g_test_slow () ? 3000000 : 300000;

  for (guint i = 0; i < n; i++)
    {
      double v;
      guint kind = g_rand_int_range (rand, 0, 5);

      switch (kind)
        {
        case 0:   /* typical animation values, fixed decimals */
          v = g_rand_double_range (rand, -400, 400);
          g_snprintf (buf, sizeof buf, "%.*f", g_rand_int_range (rand, 0, 12), v);
          break;
        case 1:   /* any double, shortest-ish */
          {
            guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
            memcpy (&v, &bits, sizeof v);
            if (!isfinite (v))
              v = 1.5;
            g_snprintf (buf, sizeof buf, "%.*g", g_rand_int_range (rand, 1, 18), v);
          }
          break;
        case 2:   /* exponent forms */
          v = g_rand_double_range (rand, -1, 1) * pow (10, g_rand_int_range (rand, -30, 30));
          g_snprintf (buf, sizeof buf, "%.*e", g_rand_int_range (rand, 0, 20), v);
          break;
        case 3:   /* random digit strings */
          {
            guint n_digits = g_rand_int_range (rand, 1, 25), dot = g_rand_int_range (rand, 0, n_digits + 1);
            gsize k = 0;
            if (g_rand_boolean (rand))
              buf[k++] = '-';
            for (guint d = 0; d < n_digits; d++)
              {
                if (d == dot)
                  buf[k++] = '.';
                buf[k++] = '0' + g_rand_int_range (rand, 0, 10);
              }
            buf[k] = '\0';
          }
          break;
        default:  /* halfway cases near 2^53 */
          g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT "%s",
                      (G_GUINT64_CONSTANT (1) << 53) + g_rand_int_range (rand, -5, 5),
                      g_rand_boolean (rand) ? ".5" : "");
          break;
        }
      check_one (buf);
    }
  g_rand_free (rand);
}

static void
test_locale_independent (void)
{
  double v;

  /* a locale with a decimal comma changes nothing */
  if (setlocale (LC_NUMERIC, "nl_NL.UTF-8") == NULL && setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    g_test_message ("no comma locale installed; checking in C");
  g_assert_true (_sq_parse_double ("0.5", 3, &v));
  g_assert_cmpfloat (v, ==, 0.5);
  g_assert_false (_sq_parse_double ("0,5", 3, &v));
  setlocale (LC_NUMERIC, "C");
}

static void
test_format (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  const double fixed[] = { 0, -0.0, 1, -1, 0.5, 349.1282, 0.005932, -0.999982, 0.0153, 1e-20, 123456789.5,
                           2.04516014e-19, 1.99999989, 1e300, -3.4028234663852886e38, 5e-324 };

  for (guint i = 0; i < 400000 + G_N_ELEMENTS (fixed); i++)
    {
      g_autoptr(GString) s = g_string_new (NULL);
      double v;
      int decimals = g_rand_boolean (rand) ? 4 : 6;
      char ref[64];

      if (i < G_N_ELEMENTS (fixed))
        v = fixed[i];
      else if (i % 3 == 0)    /* a number as a text file holds it */
        v = g_ascii_strtod (g_ascii_formatd (ref, sizeof ref, decimals == 4 ? "%.4f" : "%.6f",
                                             g_rand_double_range (rand, -400, 400)), NULL);
      else if (i % 3 == 1)    /* a float, as binary SEQ holds it */
        v = (float) (g_rand_double_range (rand, -1, 1) * pow (10, g_rand_int_range (rand, -12, 8)));
      else
        v = g_rand_double_range (rand, -1, 1) * pow (10, g_rand_int_range (rand, -14, 9));

      _sq_append_number (s, v, decimals);
      /* the exact variant: the same text exactly when that reads back as v */
      {
        g_autoptr(GString) x = g_string_new (NULL);
        double back;
        gboolean reads_back = _sq_parse_double (s->str, s->len, &back) && memcmp (&back, &v, sizeof v) == 0;

        g_assert_cmpint (_sq_append_number_exact (x, v, decimals), ==, reads_back);
        g_assert_cmpstr (x->str, ==, reads_back ? s->str : "");
      }
      g_ascii_formatd (ref, sizeof ref, decimals == 4 ? "%.4f" : "%.6f", v);
      if (g_ascii_strtod (ref, NULL) == v && fabs (v) * pow (10, decimals) < 9007199254740992.0)
        {
          /* the fixed look, exactly as printf writes it */
          if (strcmp (s->str, ref) != 0)
            g_error ("%.17g: “%s”, printf “%s”", v, s->str, ref);
        }
      else
        {
          double back = g_ascii_strtod (s->str, NULL);
          g_assert_null (strchr (s->str, ','));
          /* floats come back exactly; any other double within half a unit
           * of the ninth significant digit */
          if (((double) (float) v == v && (float) back != (float) v) || fabs (back - v) > fabs (v) * 5.1e-9)
            g_error ("%.17g: “%s” reads back as %.17g", v, s->str, back);
        }
    }
  g_rand_free (rand);
}

/* Every number of decimals a BVH file may set (0 … 17): the fixed text
 * as printf writes it when it reads back, or when the format's decimals
 * hold more than nine significant digits (then rounded as printf rounds,
 * however many digits the integer part has);
 * nine significant digits otherwise, never fewer decimals than asked. The
 * digits are written in one go, so every length of integer part and of
 * decimals, and every count of trailing zeros, is met. */
static void
test_format_decimals (void)
{
  GRand *rand = g_rand_new_with_seed (17);
  const double fixed[] = { 994, -1491.5, 0.185185183518518505, 1e-13, 123456789012.25, 99999999.5,
                           0.000001, 100000000, 5e15, 0.1 };

  for (guint i = 0; i < 200000 + G_N_ELEMENTS (fixed) * 18; i++)
    {
      g_autoptr(GString) s = g_string_new ("x");
      int dec = (int) (i % 18);
      char ref[400], e9[64];
      double v, back;

      if (i < G_N_ELEMENTS (fixed) * 18)
        v = fixed[i / 18];
      else if (i % 3 == 0)      /* as a file with that many decimals has it */
        {
          g_snprintf (ref, sizeof ref, "%.*f", dec, g_rand_double_range (rand, -1, 1) * pow (10, g_rand_int_range (rand, 0, 6)));
          v = g_ascii_strtod (ref, NULL);
        }
      else if (i % 3 == 1)      /* an edited value */
        v = g_rand_double_range (rand, -1, 1) * pow (10, g_rand_int_range (rand, -12, 19));
      else                      /* digits ending in zeros */
        v = (double) g_rand_int_range (rand, 1, 1000000) * pow (10, g_rand_int_range (rand, -16, 6));

      _sq_append_number (s, v, dec);
      g_snprintf (ref, sizeof ref, "%.*f", dec, v);
      g_snprintf (e9, sizeof e9, "%.8e", v);
      g_assert_true (_sq_parse_double (s->str + 1, s->len - 1, &back));
      if (g_ascii_strtod (ref, NULL) == v && fabs (v) * pow (10, dec) < 9007199254740992.0)
        g_assert_cmpstr (s->str + 1, ==, ref);
      else if (8 - atoi (strchr (e9, 'e') + 1) < dec && (fabs (v) * pow (10, dec) < 1e19 || fabs (v) < 4503599627370496.0))
        g_assert_cmpstr (s->str + 1, ==, ref);
      else
        {
          const char *point = strchr (s->str, '.');

          if (fabs (back - v) > fabs (v) * 5.1e-9)
            g_error ("%.17g (%d decimals): “%s” reads back as %.17g", v, dec, s->str + 1, back);
          /* (below 1e-13, the exponent form of "%.9g") */
          if (dec > 0 && fabs (v) >= 1e-13 && (point == NULL || (int) strlen (point + 1) < dec))
            g_error ("%.17g: “%s” has fewer than %d decimals", v, s->str + 1, dec);
        }
    }
  g_rand_free (rand);
}

/* _sq_append_shortest gives exactly sq_format_double's text (printf's
 * shortest of %.15g … %.17g), and every 17-digit text it could try reads
 * back as strtod reads it */
static void
test_shortest (void)
{
  GRand *rand = g_rand_new_with_seed (11);
  const double fixed[] = { 0, -0.0, 1, -1, 0.1, 1e-5, 1e-4, 9.9999999999999995e-5, 123456789012345678.0, 1e15, 1e16,
                           1e17, 9.999999999999999e16, 0.30000000000000004, 5e-324, 1.7976931348623157e308, NAN, INFINITY,
                           -INFINITY, 2.2250738585072014e-308, 1e-12, 1e42, 7.0e-13, 3.4028234663852886e38,
                           /* exact ties at 16 digits: printf rounds them half to even */
                           -151.46856689453125, 104.23139953613281, 77.053497314453125, 0.1000000000000000055511151231257827 };
  guint n = g_test_slow () ? 4000000 : 600000;

  for (guint i = 0; i < n + G_N_ELEMENTS (fixed); i++)
    {
      g_autoptr(GString) s = g_string_new (NULL);
      char ref[SQ_DOUBLE_BUF], text[40];
      double v;

      if (i < G_N_ELEMENTS (fixed))
        v = fixed[i];
      else if (i % 4 == 0)      /* floats, as the benchmark's quaternions */
        v = (float) g_rand_double_range (rand, -1, 1);
      else if (i % 4 == 1)
        v = (float) (g_rand_double_range (rand, -1, 1) * pow (10, g_rand_int_range (rand, -12, 12)));
      else if (i % 4 == 2)      /* any double */
        {
          guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
          memcpy (&v, &bits, sizeof v);
        }
      else
        v = g_rand_double_range (rand, -1, 1) * pow (10, g_rand_int_range (rand, -30, 45));
      _sq_append_shortest (s, v);
      sq_format_double (ref, sizeof ref, v);
      if (strcmp (s->str, ref) != 0)
        g_error ("%a: “%s”, sq_format_double “%s”", v, s->str, ref);
      /* the 17 significant digits the parser's extended path handles */
      if (isfinite (v))
        {
          g_snprintf (text, sizeof text, "%.*e", (int) g_rand_int_range (rand, 15, 19), v);
          check_one (text);
        }
    }

  /* the edges of the exact path: every power of two it takes and of ten
   * around it (where the next double down is closer, and where a rounding
   * carries into another digit), with their neighbours, and sixteen- and
   * seventeen-digit integers that tie at fifteen or sixteen digits */
  for (int p = -40; p <= 56 + 30; p++)
      {
        /* 2^-40 … 2^56, then 10^-12 … 10^17 */
        double v = p <= 56 ? ldexp (1, p) : pow (10, p - 56 - 13);

        for (int step = 0; step < 4; step++)
          v = nextafter (v, 0);
        for (int step = 0; step < 9; step++, v = nextafter (v, INFINITY))
          for (int neg = 0; neg < 2; neg++)
            {
              g_autoptr(GString) s = g_string_new (NULL);
              char ref[SQ_DOUBLE_BUF];

              _sq_append_shortest (s, neg ? -v : v);
              sq_format_double (ref, sizeof ref, neg ? -v : v);
              if (strcmp (s->str, ref) != 0)
                g_error ("%a: “%s”, sq_format_double “%s”", v, s->str, ref);
            }
      }
  for (guint i = 0; i < 20000; i++)
    {
      g_autoptr(GString) s = g_string_new (NULL);
      char ref[SQ_DOUBLE_BUF];
      /* below 2^53 (exact), ending in 5 or 50 */
      guint64 w = (g_rand_int (rand) % 900000000 + 100000000) * G_GUINT64_CONSTANT (10000000) + g_rand_int (rand) % 1000000;
      double v;

      w = i % 2 ? w / 10 * 10 + 5 : w / 100 * 100 + 50;
      if (w >= (G_GUINT64_CONSTANT (1) << 53))
        w /= 2;
      v = (double) w * (i % 3 == 0 ? 1 : i % 3 == 1 ? 0.5 : 0.25);
      _sq_append_shortest (s, v);
      sq_format_double (ref, sizeof ref, v);
      if (strcmp (s->str, ref) != 0)
        g_error ("%a: “%s”, sq_format_double “%s”", v, s->str, ref);
    }
  /* fractions with a short binary expansion: their decimal expansion ends
   * after as many digits as they have binary ones, so that rounding to 15
   * or 16 digits often meets an exact tie (or a last digit just past one) */
  for (guint i = 0; i < 200000; i++)
    {
      g_autoptr(GString) s = g_string_new (NULL);
      char ref[SQ_DOUBLE_BUF];
      guint64 w = (((guint64) g_rand_int (rand) << 32) | g_rand_int (rand)) >> g_rand_int_range (rand, 11, 40);
      double v = ldexp ((double) w, -g_rand_int_range (rand, 8, 60));

      _sq_append_shortest (s, v);
      sq_format_double (ref, sizeof ref, v);
      if (strcmp (s->str, ref) != 0)
        g_error ("%a: “%s”, sq_format_double “%s”", v, s->str, ref);
    }
  g_rand_free (rand);
}

/* _sq_append_fixed_or_shortest gives _sq_append_number_exact's text when
 * there is one, else _sq_append_shortest's, for every number of decimals
 * it is asked for */
static void
test_fixed_or_shortest (void)
{
  GRand *rand = g_rand_new_with_seed (23);
  const double fixed[] = { 0, -0.0, 1, 0.5, 1e-6, 9.9999999999999995e-7, 1.5e-6, 1e-9, 999999999.5, 1e9, 123456.789,
                           0.30000000000000004, 8.5e-9, -3.56161491e-06, 1e15, 5e-324, NAN, INFINITY };
  guint n = g_test_slow () ? 3000000 : 400000;

  for (guint i = 0; i < n + G_N_ELEMENTS (fixed) * 16; i++)
    {
      g_autoptr(GString) s = g_string_new ("x");
      g_autoptr(GString) ref = g_string_new ("x");
      int dec = (int) (i % 16);
      char text[64];
      double v;

      if (i < G_N_ELEMENTS (fixed) * 16)
        v = fixed[i / 16];
      else if (i % 5 == 0)      /* floats, as .x files made from binary ones hold */
        v = (float) (g_rand_double_range (rand, -1, 1) * pow (10, g_rand_int_range (rand, -12, 17)));
      else if (i % 5 == 1)      /* any double of these magnitudes */
        {
          guint64 bits = ((guint64) g_rand_int_range (rand, 0x3c0, 0x434) << 52)
                         | ((((guint64) g_rand_int (rand) << 32) | g_rand_int (rand)) & G_GUINT64_CONSTANT (0xfffffffffffff));
          memcpy (&v, &bits, sizeof v);
        }
      else if (i % 5 == 2)      /* as a text file with some decimals holds it */
        {
          g_snprintf (text, sizeof text, "%.*f", g_rand_int_range (rand, 0, 10),
                      g_rand_double_range (rand, -1, 1) * pow (10, g_rand_int_range (rand, -3, 12)));
          v = g_ascii_strtod (text, NULL);
        }
      else if (i % 5 == 3)      /* nine significant digits, or a few more */
        {
          g_snprintf (text, sizeof text, "%.*e", g_rand_int_range (rand, 0, 12),
                      g_rand_double_range (rand, -10, 10) * pow (10, g_rand_int_range (rand, -10, 12)));
          v = g_ascii_strtod (text, NULL);
        }
      else                      /* powers of two and their neighbours */
        {
          v = ldexp (1, g_rand_int_range (rand, -40, 54));
          for (int k = g_rand_int_range (rand, 0, 4); k > 0; k--)
            v = nextafter (v, g_rand_boolean (rand) ? 0 : INFINITY);
        }
      if (g_rand_boolean (rand))
        v = -v;
      _sq_append_fixed_or_shortest (s, v, dec);
      if (!_sq_append_number_exact (ref, v, dec))
        _sq_append_shortest (ref, v);
      if (strcmp (s->str, ref->str) != 0)
        g_error ("%a (%d decimals): “%s”, expected “%s”", v, dec, s->str + 1, ref->str + 1);
    }
  g_rand_free (rand);
}

/* _sq_append_int64 writes what printf does: every count of digits, both
 * signs, the edges of the short path and of 64 bits, after any text */
static void
test_int64 (void)
{
  GRand *rand = g_rand_new_with_seed (29);
  const gint64 fixed[] = { 0, 1, -1, 9, 10, 99999999, 100000000, -99999999, -100000000, G_MAXINT32, G_MININT32,
                           G_MAXINT64, G_MININT64, G_MININT64 + 1 };

  for (guint i = 0; i < 300000 + G_N_ELEMENTS (fixed); i++)
    {
      g_autoptr(GString) s = g_string_new (NULL);
      char ref[32];
      gint64 v;
      guint lead = g_rand_int_range (rand, 0, 40);

      if (i < G_N_ELEMENTS (fixed))
        v = fixed[i];
      else
        {
          /* up to 1 … 19 digits, of either sign */
          guint64 u = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);

          v = (gint64) (u % _sq_pow10_u64[g_rand_int_range (rand, 1, 19)]);
          if (g_rand_boolean (rand))
            v = -v;
        }
      /* text before it, and a string just full, so that room is made */
      for (guint k = 0; k < lead; k++)
        g_string_append_c (s, 'x');
      _sq_append_int64 (s, v);
      g_snprintf (ref, sizeof ref, "%" G_GINT64_FORMAT, v);
      g_assert_cmpuint (s->len, ==, lead + strlen (ref));
      g_assert_cmpstr (s->str + lead, ==, ref);
    }
  g_rand_free (rand);
}

/* The edges of the 128-bit path and of the inline reader: halfway cases,
 * the 2^53 boundary, 19-digit maxima, the smallest and largest powers of ten
 * it takes, signed zeros, 16 to 19 decimals, and every token length against
 * every distance to the end of the readable bytes */
static void
test_edge_cases (void)
{
  const char *cases[] = {
    "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995", "9007199254740991.5",
    "0.9007199254740993", "9007199254740993e-16", "18014398509481985", "18014398509481987",
    "9999999999999999999", "0.9999999999999999999", "-9999999999999999999e-64", "9999999999999999999e64",
    "1844674407370955161", "1e-64", "1e64", "1e-65", "1e65", "12345678901234567e-64",
    "0.2699022889137268", "-0.11404472589492798", "0.38430896401405334", "0.0019766041077673435",
    "-0.013730786740779877", "0.10000000000000000555", "0.1000000000000000055511151231257827",
    "2.2250738585072011e-308", "4.9406564584124654e-324", "1.7976931348623157e308", "1.7976931348623159e308",
    "-0", "-0.0", "+0.000", "-0.0000000000000000000", "0e-999", "-0e999", "+.5", "-5.", "00000000000000000001.5",
    "0.000000000000000000000000000000000000001234", "1234567.1234567890123", "12345678.123456789",
    "1.00000000000000011102230246251565404236316680908203125", "4503599627370496.5", "4503599627370497.5",
    "1e23", "8.589973e9", "5e-324", "1.5e+0005", "1.5e-00005",
  };
  char buf[96];

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_one (cases[i]);

  /* the sign of zero survives every path */
  {
    double v = 1;
    g_assert_true (_sq_parse_double ("-0.000000", 9, &v));
    g_assert_true (v == 0 && signbit (v));
    g_assert_true (_sq_parse_double ("0.0000000000000000", 18, &v));
    g_assert_true (v == 0 && !signbit (v));
  }

  /* a token at every distance from the end of the readable bytes (the
   * inline reader wants 32 of them), followed by digits it must not take */
  for (guint len = 1; len <= 40; len++)
    for (guint pad = 0; pad <= 40; pad++)
      {
        static const char digits[] = "0.26990228891372681140447258927983843";
        double v = 0, ref;
        gsize n = MIN (len, sizeof digits - 1);
        const char *stop;

        memcpy (buf, digits, n);
        memset (buf + n, '7', pad);
        {
          g_autofree char *copy = g_strndup (buf, n);
          ref = g_ascii_strtod (copy, NULL);
        }
        stop = _sq_scan_double_in (buf, buf + n, buf + n + pad, &v);
        g_assert_true (stop == buf + n);
        g_assert_true (memcmp (&v, &ref, sizeof v) == 0);
        v = 0;
        stop = _sq_scan_double_fast (buf, buf + n, buf + n + pad, &v);
        g_assert_true (stop == buf + n);
        g_assert_true (memcmp (&v, &ref, sizeof v) == 0);
      }
}

/* random 19-digit mantissas over the whole range of the 128-bit table, and
 * values next to midpoints between doubles */
static void
test_wide_mantissas (void)
{
  GRand *rand = g_rand_new_with_seed (1953);
  char buf[64];
  guint n = g_test_slow () ? 2000000 : 200000;

  for (guint i = 0; i < n; i++)
    {
      guint64 m = ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) % G_GUINT64_CONSTANT (10000000000000000000);
      int e = g_rand_int_range (rand, -70, 71);

      if (i % 3 == 0)
        {
          /* a midpoint between two doubles, written out with 17 to 21 digits */
          double a = g_rand_double_range (rand, 1, 2) * ldexp (1, g_rand_int_range (rand, -60, 60));
          double b = nextafter (a, INFINITY);
          long double mid = ((long double) a + b) / 2;

          g_snprintf (buf, sizeof buf, "%.*Le", g_rand_int_range (rand, 16, 21), mid);
        }
      else
        g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT "e%d", m, e);
      check_one (buf);
    }
  g_rand_free (rand);
}

/* the portable 128-bit product (the fallback where the compiler has no
 * 128-bit integers) agrees with the native one */
static void
test_mul_portable (void)
{
  GRand *rand = g_rand_new_with_seed (5);
  const guint64 edge[] = { 0, 1, G_MAXUINT32, (guint64) G_MAXUINT32 + 1, G_MAXUINT64, G_MAXUINT64 - 1,
                           G_GUINT64_CONSTANT (0x8000000000000000), G_GUINT64_CONSTANT (0xcccccccccccccccd) };

  for (guint i = 0; i < 100000 + G_N_ELEMENTS (edge) * G_N_ELEMENTS (edge); i++)
    {
      guint64 a, b, lo, hi;

      if (i < G_N_ELEMENTS (edge) * G_N_ELEMENTS (edge))
        {
          a = edge[i % G_N_ELEMENTS (edge)];
          b = edge[i / G_N_ELEMENTS (edge)];
        }
      else
        {
          a = (guint64) g_rand_int (rand) << 32 | g_rand_int (rand);
          b = (guint64) g_rand_int (rand) << 32 | g_rand_int (rand);
        }
      hi = _sq_mul_64_portable (a, b, &lo);
#ifdef __SIZEOF_INT128__
      {
        unsigned __int128 p = (unsigned __int128) a * b;
        g_assert_cmpuint (hi, ==, (guint64) (p >> 64));
        g_assert_cmpuint (lo, ==, (guint64) p);
      }
#else
      /* a · b mod 2^64 at least */
      g_assert_cmpuint (lo, ==, a * b);
#endif
    }
  g_rand_free (rand);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/numbers/fixed-cases", test_fixed_cases);
  g_test_add_func ("/numbers/random", test_random);
  g_test_add_func ("/numbers/locale-independent", test_locale_independent);
  g_test_add_func ("/numbers/format", test_format);
  g_test_add_func ("/numbers/format-decimals", test_format_decimals);
  g_test_add_func ("/numbers/shortest", test_shortest);
  g_test_add_func ("/numbers/fixed-or-shortest", test_fixed_or_shortest);
  g_test_add_func ("/numbers/int64", test_int64);
  g_test_add_func ("/numbers/edge-cases", test_edge_cases);
  g_test_add_func ("/numbers/wide-mantissas", test_wide_mantissas);
  g_test_add_func ("/numbers/mul-portable", test_mul_portable);
  return g_test_run ();
}
