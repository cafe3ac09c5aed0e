/* sq-util.c: text scanning, encodings and time grids shared by the formats
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-util"

#include "config.h"

#include <float.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>

#include "sq-math.h"
#include "sq-private.h"

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

void
_sq_clip_mark_source (SqClip         *clip,
                      const SqFormat *format,
                      GBytes         *bytes)
{
  clip->format = format;
  g_clear_pointer (&clip->source, g_bytes_unref);
  clip->source = g_bytes_ref (bytes);
  clip->source_generation = clip->generation;
}

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

GArray *
_sq_track_to_grid (const SqTrack *track,
                   double         rate,
                   gint64         base,
                   double         lossless_rate,
                   const char    *joint,
                   const char    *what,
                   GArray       **steps_out,
                   GPtrArray     *losses)
{
  GArray *kept = g_array_sized_new (FALSE, FALSE, sizeof (gsize), track->n_keys);
  GArray *steps = g_array_sized_new (FALSE, FALSE, sizeof (gint64), track->n_keys);
  gsize *k_out = (gsize *) (void *) kept->data;
  gint64 *s_out = (gint64 *) (void *) steps->data;
  gsize n = 0;
  guint rounded = 0, dropped = 0, outside = 0;
  double first_rounded = 0.0, first_dropped = 0.0;

  for (gsize i = 0; i < track->n_keys; i++)
    {
      double t = track->keys[i].time * rate;
      double r = floor (t + 0.5);
      gint64 step;

      if (!(r > -2e9 && r < 2e9))
        {
          outside++;
          continue;
        }
      if (G_UNLIKELY (fabs (t - r) > 1e-6)
          && !(lossless_rate > 0
               && fabs (track->keys[i].time * lossless_rate - floor (track->keys[i].time * lossless_rate + 0.5)) < 1e-6))
        {
          if (rounded++ == 0)
            first_rounded = track->keys[i].time;
        }
      step = (gint64) r + base;
      if (n > 0 && s_out[n - 1] == step)
        {
          /* two keys on one step: the first one stays */
          if (dropped++ == 0)
            first_dropped = track->keys[i].time;
          continue;
        }
      k_out[n] = i;
      s_out[n] = step;
      n++;
    }
  g_array_set_size (kept, n);
  g_array_set_size (steps, n);

  if (rounded > 0)
    _sq_loss (losses, _("joint “%s”: %u %s key times rounded to the nearest 1/%g s (first at %.6g s)"),
              joint, rounded, what, rate, first_rounded);
  if (dropped > 0)
    _sq_loss (losses, _("joint “%s”: %u %s keys dropped because they fall on the same step as another key (first at %.6g s)"),
              joint, dropped, what, first_dropped);
  if (outside > 0)
    _sq_loss (losses, _("joint “%s”: %u %s keys dropped because their time is out of range"),
              joint, outside, what);

  *steps_out = steps;
  return kept;
}

void
_sq_lines_init (SqLines    *lines,
                const char *data,
                gsize       len)
{
  memset (lines, 0, sizeof *lines);
  lines->data = data;
  lines->len = len;
}

/* Next line, accepting LF, CRLF and lone CR line ends. */
gboolean
_sq_lines_next (SqLines *lines)
{
  const char *start, *end, *nl, *cr;

  if (lines->pos >= lines->len)
    return FALSE;

  start = lines->data + lines->pos;
  end = lines->data + lines->len;
  /* the next LF is remembered, so files with lone CRs stay linear */
  if (lines->next_nl == NULL || lines->next_nl < start)
    {
      lines->next_nl = memchr (start, '\n', end - start);
      if (lines->next_nl == NULL)
        lines->next_nl = end;
    }
  nl = lines->next_nl < end ? lines->next_nl : NULL;
  cr = memchr (start, '\r', (nl ? nl : end) - start);
  lines->cur = start;
  if (cr != NULL)
    {
      /* CRLF, or a lone CR ending the line */
      lines->cur_len = cr - start;
      lines->pos = (cr + 1 == nl ? nl + 1 : cr + 1) - lines->data;
    }
  else if (nl != NULL)
    {
      lines->cur_len = nl - start;
      lines->pos = nl + 1 - lines->data;
    }
  else
    {
      lines->cur_len = end - start;
      lines->pos = lines->len;
    }
  lines->line++;
  return TRUE;
}

const guint8 _sq_sep_table[256] = {
  [' '] = 1, ['\t'] = 1, [','] = 1, [';'] = 1, ['\v'] = 1, ['\f'] = 1,
};

static const guint64 pow10_u64[] = {
  G_GUINT64_CONSTANT (1), G_GUINT64_CONSTANT (10), G_GUINT64_CONSTANT (100), G_GUINT64_CONSTANT (1000),
  G_GUINT64_CONSTANT (10000), G_GUINT64_CONSTANT (100000), G_GUINT64_CONSTANT (1000000),
  G_GUINT64_CONSTANT (10000000), G_GUINT64_CONSTANT (100000000), G_GUINT64_CONSTANT (1000000000),
  G_GUINT64_CONSTANT (10000000000), G_GUINT64_CONSTANT (100000000000), G_GUINT64_CONSTANT (1000000000000),
  G_GUINT64_CONSTANT (10000000000000), G_GUINT64_CONSTANT (100000000000000),
  G_GUINT64_CONSTANT (1000000000000000), G_GUINT64_CONSTANT (10000000000000000),
  G_GUINT64_CONSTANT (100000000000000000), G_GUINT64_CONSTANT (1000000000000000000),
  G_GUINT64_CONSTANT (10000000000000000000),
};

/* Exact powers of ten a double holds */
static const double pow10_exact[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

#if defined(__x86_64__) && LDBL_MANT_DIG == 64 && !defined(SQ_NO_EXTENDED_FAST_PATH)
/* x87 extended precision: a 64-bit significand holds any integer below
 * 2^64 and 10^k exactly up to 10^27 (5^27 < 2^64). One multiplication or
 * division of two such values is correctly rounded to 64 bits; rounding that
 * again to 53 bits gives the correctly rounded double unless the 64-bit
 * result sits exactly on a midpoint between two doubles (rounding is
 * monotonic and those midpoints are themselves 64-bit values, so the exact
 * result and its 64-bit rounding are never on opposite sides of one). */
#define SQ_HAVE_EXTENDED 1
#define SQ_POW10_LD_MAX 27
static const long double pow10_ld[] = {
  1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L,
  1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L,
  1e26L, 1e27L,
};

static inline guint64
ld_significand (long double x)
{
  guint64 m;

  memcpy (&m, &x, sizeof m);      /* the x87 format stores it first, explicit top bit */
  return m;
}

/* mant · 10^exp10 correctly rounded, or FALSE when the extended result is
 * a midpoint between two doubles (then strtod decides). The result is a
 * normal double here: at least 1e-27, at most 2^64 · 1e27. */
static inline gboolean
extended_scale (guint64 mant,
                int     exp10,
                double *out)
{
  long double x = exp10 < 0 ? (long double) mant / pow10_ld[-exp10] : (long double) mant * pow10_ld[exp10];

  if ((ld_significand (x) & 0x7ff) == 0x400)
    return FALSE;
  *out = (double) x;
  return TRUE;
}
#endif

/* Any decimal number, bit-identical to strtod in the C locale. Numbers
 * whose digits fit in 53 bits with a power of ten up to 22 are exact by
 * Clinger's fast path: one correctly rounded multiplication or division of
 * two exact values; up to 19 digits with a power of ten up to 27, by the
 * extended-precision path; anything else goes to g_ascii_strtod. No
 * allocation, no locale. */
static const char *
scan_double_general (const char *tok,
                     const char *end,
                     double     *out)
{
  const char *p = tok;
  gsize len;
  gboolean neg = FALSE, any_digit = FALSE;
  guint64 mant = 0;
  int sig = 0, exp10 = 0;
  gboolean truncated = FALSE;
  double v;

  if (p >= end)
    return NULL;
  if (*p == '+' || *p == '-')
    neg = *p++ == '-';
  while (p < end && *p == '0')
    {
      p++;
      any_digit = TRUE;
    }
  for (; p < end && g_ascii_isdigit (*p); p++)
    {
      any_digit = TRUE;
      if (sig < 19)
        mant = mant * 10 + (guint64) (*p - '0'), sig++;
      else
        {
          exp10++;
          truncated |= *p != '0';
        }
    }
  if (p < end && *p == '.')
    {
      p++;
      for (; p < end && g_ascii_isdigit (*p); p++)
        {
          any_digit = TRUE;
          if (mant == 0 && *p == '0')
            exp10--;                  /* leading zeros of the fraction */
          else if (sig < 19)
            {
              mant = mant * 10 + (guint64) (*p - '0');
              sig++;
              exp10--;
            }
          else
            truncated |= *p != '0';
        }
    }
  if (!any_digit)
    return NULL;
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean eneg = FALSE;
      int e = 0;

      p++;
      if (p < end && (*p == '+' || *p == '-'))
        eneg = *p++ == '-';
      if (p >= end || !g_ascii_isdigit (*p))
        return NULL;
      for (; p < end && g_ascii_isdigit (*p); p++)
        if (e < 100000)
          e = e * 10 + (*p - '0');
      exp10 += eneg ? -e : e;
    }
  len = p - tok;

  if (!truncated && mant <= (G_GUINT64_CONSTANT (1) << 53) && exp10 >= -22 && exp10 <= 22)
    {
      v = (double) mant;
      v = exp10 < 0 ? v / pow10_exact[-exp10] : v * pow10_exact[exp10];
    }
  else if (mant == 0 && !truncated)
    v = 0.0;
#ifdef SQ_HAVE_EXTENDED
  else if (!truncated && exp10 >= -SQ_POW10_LD_MAX && exp10 <= SQ_POW10_LD_MAX
           && extended_scale (mant, exp10, &v))
    ;       /* 17-19 digit numbers: the shortest round-trip text of any double */
#endif
  else
    {
      char buf[128];
      char *copy = len < sizeof buf ? buf : g_malloc (len + 1);
      char *stop = NULL;

      memcpy (copy, tok, len);
      copy[len] = '\0';
      v = g_ascii_strtod (copy, &stop);
      v = fabs (v);
      if (copy != buf)
        g_free (copy);
    }
  if (!isfinite (v))
    return NULL;
  *out = neg ? -v : v;
  return p;
}

#if G_BYTE_ORDER == G_LITTLE_ENDIAN
#define SQ_SWAR_DIGITS 1
/* Eight ASCII bytes loaded as a little-endian word: how many of the first
 * ones are digits (0 to 8). Bytes up to the first non-digit are computed
 * without carries, so its high bit is exact. */
static inline int
lead_digits (guint64 w)
{
  guint64 m = ((w + G_GUINT64_CONSTANT (0x4646464646464646)) | (w - G_GUINT64_CONSTANT (0x3030303030303030)))
              & G_GUINT64_CONSTANT (0x8080808080808080);

  return m == 0 ? 8 : __builtin_ctzll (m) >> 3;
}

/* The value of the first n (1 to 8) digits of w: shifted so that the rest
 * falls out and zeros lead, then pairs, quads and the whole by
 * multiplications. */
static inline guint64
digits_value (guint64 w,
              int     n)
{
  const guint64 mask = G_GUINT64_CONSTANT (0x000000ff000000ff);

  w = (w - G_GUINT64_CONSTANT (0x3030303030303030)) << (8 * (8 - n));
  w = w * 10 + (w >> 8);
  w = ((w & mask) * (100 + (G_GUINT64_CONSTANT (1000000) << 32))
       + ((w >> 16) & mask) * (1 + (G_GUINT64_CONSTANT (10000) << 32))) >> 32;
  return (guint32) w;
}

/* Up to eight digits at p, p + 8 <= limit, none past end */
static inline int
take_digits (const char *p,
             const char *end,
             guint64    *value)
{
  guint64 w;
  int n;

  memcpy (&w, p, sizeof w);
  n = lead_digits (w);
  if (n > end - p)
    n = (int) (end - p);
  *value = n > 0 ? digits_value (w, n) : 0;
  return n;
}
#endif

/* Decimal text to the nearest double, bit-identical to strtod in the C
 * locale. The common shape (sign, at most 19 digits around an optional
 * point, no exponent, the value exact by Clinger's test) is read here in
 * one pass, eight digits at a time where `limit` (the end of the readable
 * bytes, at or after `end`) allows; anything else by scan_double_general. */
const char *
_sq_scan_double_in (const char *tok,
                    const char *end,
                    const char *limit,
                    double     *out)
{
  const char *p = tok, *digits;
  gboolean neg = FALSE;
  guint64 mant = 0;
  gsize n_int, n_frac = 0;

  if (p < end && (*p == '+' || *p == '-'))
    neg = *p++ == '-';
  digits = p;
#ifdef SQ_SWAR_DIGITS
  if (limit - p >= 8)
    p += take_digits (p, end, &mant);
  if (p - digits == 8 || limit - p < 8)
#endif
    while (p < end && (guint) (*p - '0') < 10)
      mant = mant * 10 + (guint) (*p++ - '0');
  n_int = p - digits;
  if (n_int > 19)
    return scan_double_general (tok, end, out);
  if (p < end && *p == '.')
    {
      const char *frac = ++p;

#ifdef SQ_SWAR_DIGITS
      if (limit - p >= 8 && n_int <= 11)
        {
          guint64 chunk;
          int n = take_digits (p, end, &chunk);

          mant = mant * pow10_u64[n] + chunk;
          p += n;
          if (n == 8)
            while (p < end && (guint) (*p - '0') < 10 && p - frac < 20)
              mant = mant * 10 + (guint) (*p++ - '0');
        }
      else
#endif
        while (p < end && (guint) (*p - '0') < 10 && p - frac < 20)
          mant = mant * 10 + (guint) (*p++ - '0');
      n_frac = p - frac;
    }
  if (n_int + n_frac == 0 || n_int + n_frac > 19 || n_frac > 22
      || (p < end && ((guint) (*p - '0') < 10 || *p == 'e' || *p == 'E')))
    return scan_double_general (tok, end, out);
  {
    double v = (double) mant;

    if (mant <= (G_GUINT64_CONSTANT (1) << 53))
      v = n_frac > 0 ? v / pow10_exact[n_frac] : v;
#ifdef SQ_HAVE_EXTENDED
    else if (!extended_scale (mant, -(int) n_frac, &v))
      return scan_double_general (tok, end, out);
#else
    else
      return scan_double_general (tok, end, out);
#endif
    *out = neg ? -v : v;
  }
  return p;
}

const char *
_sq_scan_double (const char *tok,
                 const char *end,
                 double     *out)
{
  return _sq_scan_double_in (tok, end, end, out);
}

gboolean
_sq_parse_double (const char *tok,
                  gsize       len,
                  double     *out)
{
  return len > 0 && _sq_scan_double (tok, tok + len, out) == tok + len;
}

gboolean
_sq_parse_double_in (const char *tok,
                     gsize       len,
                     const char *limit,
                     double     *out)
{
  return len > 0 && _sq_scan_double_in (tok, tok + len, limit, out) == tok + len;
}

static const char digit_pairs[] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";


/* Writes `v`'s decimal digits ending just before `end`, at least `width` of
 * them (zeros in front); returns where they start. */
static inline char *
put_digits (char    *end,
            guint64  v,
            int      width)
{
  char *q = end;

  while (v >= 100)
    {
      guint r = (guint) (v % 100);
      v /= 100;
      q -= 2;
      memcpy (q, digit_pairs + 2 * r, 2);
    }
  if (v >= 10)
    {
      q -= 2;
      memcpy (q, digit_pairs + 2 * v, 2);
    }
  else
    *--q = (char) ('0' + v);
  while (end - q < width)
    *--q = '0';
  return q;
}

/* Appends the text right-aligned at `end` (up to 48 bytes, with 48 bytes
 * readable from `q`): a fixed-size copy into room made beforehand. */
static inline void
append_tail (GString    *s,
             const char *q,
             const char *end)
{
  gsize n = end - q;

  if (G_UNLIKELY (s->allocated_len - s->len <= 48))
    {
      gsize len = s->len;
      g_string_set_size (s, len + 49);
      g_string_truncate (s, len);
    }
  memcpy (s->str + s->len, q, 48);
  s->len += n;
  s->str[s->len] = '\0';
}

static void
append_scaled (GString *s,
               gboolean neg,
               guint64  digits,
               int      decimals,
               int      min_decimals)
{
  char buf[112];
  char *end = buf + 56, *q = end;

  /* trailing zeros go, but never below min_decimals, so that the text
   * reads back to a number that is written the same way again */
  while (decimals > min_decimals && digits % 10 == 0)
    {
      digits /= 10;
      decimals--;
    }
  if (decimals > 0 && decimals < (int) G_N_ELEMENTS (pow10_u64))
    {
      q = put_digits (q, digits % pow10_u64[decimals], decimals);
      *--q = '.';
      q = put_digits (q, digits / pow10_u64[decimals], 1);
    }
  else if (decimals > 0)
    {
      /* more decimals than a 64-bit integer has digits */
      q = put_digits (q, digits, decimals);
      *--q = '.';
      *--q = '0';
    }
  else
    q = put_digits (q, digits, 1);
  if (neg)
    *--q = '-';
  append_tail (s, q, end);
}

/* floor (log10 (a)) or one less, never more, for a normal positive a: from
 * the binary exponent alone (a in [2^(b-1), 2^b) puts log10 (a) in
 * [(b-1) log10 2, b log10 2), an interval narrower than 1) */
static inline int
decimal_exponent_floor (double a)
{
  guint64 bits;
  int b;

  memcpy (&bits, &a, sizeof bits);
  b = (int) ((bits >> 52) & 0x7ff) - 1022;
  return (int) floor ((b - 1) * 0.30102999566398120);
}

/* Appends a whole number in decimal, as "%" G_GINT64_FORMAT would. */
void
_sq_append_int64 (GString *s,
                  gint64   v)
{
  char buf[112];
  char *end = buf + 56, *q;
  guint64 u = v < 0 ? -(guint64) v : (guint64) v;

  q = put_digits (end, u, 1);
  if (v < 0)
    *--q = '-';
  append_tail (s, q, end);
}

/* `decimals` fixed decimals when that text reads back as exactly `v`
 * (Clinger: an integer below 2^53 over an exact power of ten is correctly
 * rounded, so the check is one division); otherwise nine significant
 * digits, which carry any 32-bit float exactly. Same text as
 * "%.*f" / "%.9g" would give, without printf. */
static gboolean
append_number (GString  *s,
               double    v,
               int       decimals,
               gboolean  exact_only)
{
  double a = fabs (v);

  if (decimals >= 0 && decimals <= 22 && a * pow10_exact[decimals] < 9007199254740992.0)
    {
      double r = floor (a * pow10_exact[decimals] + 0.5);
      if (r / pow10_exact[decimals] == a)
        {
          append_scaled (s, signbit (v) != 0, (guint64) r, decimals, decimals);
          return TRUE;
        }
    }
  if (isfinite (v) && a >= 1e-13 && a < 1e30)
    {
      int e = decimal_exponent_floor (a);
      int d = 8 - e;
      double r = 0;

      /* a third try when the exponent guess was one low and rounding carries */
      for (guint tries = 0; tries < 3; tries++)
        {
          r = d >= 0 ? floor (a * pow10_exact[MIN (d, 22)] + 0.5) : floor (a / pow10_exact[MIN (-d, 22)] + 0.5);
          if (r < 1e9)
            break;
          d--;          /* rounding carried into a tenth digit */
        }
      /* the text's value is r · 10^-d: one exact operation of two exact
       * values, as the parser would compute it */
      if (exact_only && d >= -22 && d <= 22
          && (d >= 0 ? r / pow10_exact[d] : r * pow10_exact[-d]) != a)
        return FALSE;
      if (d >= 0 && d <= 22)
        {
          for (; d < decimals; d++)
            r *= 10;
          append_scaled (s, signbit (v) != 0, (guint64) r, d, MAX (decimals, 0));
          return TRUE;
        }
      if (d < 0 && d >= -22)
        {
          /* nine digits, then zeros up to the point, then the format's decimals */
          append_scaled (s, signbit (v) != 0, (guint64) r, 0, 0);
          for (int z = 0; z < -d; z++)
            g_string_append_c (s, '0');
          if (decimals > 0)
            {
              g_string_append_c (s, '.');
              for (int z = 0; z < decimals; z++)
                g_string_append_c (s, '0');
            }
          return TRUE;
        }
    }
  {
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    double back;

    g_ascii_formatd (buf, sizeof buf, "%.9g", v);
    if (exact_only && (!_sq_parse_double (buf, strlen (buf), &back) || memcmp (&back, &v, sizeof v) != 0))
      return FALSE;
    g_string_append (s, buf);
  }
  return TRUE;
}

void
_sq_append_number (GString *s,
                   double   v,
                   int      decimals)
{
  append_number (s, v, decimals, FALSE);
}

/* The same text, appended only when it reads back as exactly v (bit for
 * bit); FALSE, and nothing appended, otherwise. */
gboolean
_sq_append_number_exact (GString *s,
                         double   v,
                         int      decimals)
{
  return append_number (s, v, decimals, TRUE);
}

#ifdef SQ_HAVE_EXTENDED
/* a · 10^k rounded to an integer as printf rounds the exact value; FALSE
 * on a tie or when 10^k is not exact in the extended format */
static gboolean
round_digits (double   a,
              int      k,
              guint64 *out)
{
  long double x, f;
  guint64 d;

  if (k > SQ_POW10_LD_MAX || k < -SQ_POW10_LD_MAX)
    return FALSE;
  x = k >= 0 ? (long double) a * pow10_ld[k] : (long double) a / pow10_ld[-k];
  if (!(x < 1.8e19L))
    return FALSE;
  d = (guint64) x;
  f = x - (long double) d;
  if (f == 0.5L)
    {
      /* a tie, if the product was exact (a's significand times 5^k fits in
       * 64 bits): printf rounds it half to even; else strtod decides */
      guint64 bits, m, five = 1;
      int width;

      if (k < 0)
        return FALSE;
      memcpy (&bits, &a, sizeof bits);
      m = (bits & ((G_GUINT64_CONSTANT (1) << 52) - 1)) | (((bits >> 52) & 0x7ff) ? G_GUINT64_CONSTANT (1) << 52 : 0);
      if (m == 0)
        return FALSE;
      m >>= __builtin_ctzll (m);
      for (int i = 0; i < k; i++)
        five *= 5;
      width = (64 - __builtin_clzll (m)) + (64 - __builtin_clzll (five));
      if (width > 64)
        return FALSE;
      *out = d + (d & 1);
      return TRUE;
    }
  *out = d + (f > 0.5L);
  return TRUE;
}

/* "%.*g" of a finite nonzero double with `prec` (15..17) significant digits,
 * without printf, or "" when that text would not read back as v; FALSE
 * when the digits are not certain (an inexact rounding tie, or a power of
 * ten beyond what the extended format holds exactly). */
static gboolean
format_g (char   *buf,
          double  v,
          int     prec,
          int     e)
{
  double a = fabs (v);
  guint64 lo = 1, hi;
  guint64 d = 0;
  char digits[24];
  char *o = buf;
  int nd;

  for (int i = 1; i < prec; i++)
    lo *= 10;
  hi = lo * 10;
  /* e: the exponent of v rounded to prec digits. The first guess (from
   * log10) may be one off; d == lo can also be a value just below a power
   * of ten seen with one digit too few, so the exponent below is tried */
  for (guint tries = 0; tries < 4; tries++)
    {
      if (!round_digits (a, prec - 1 - e, &d))
        return FALSE;
      if (d >= hi)
        e++;
      else if (d < lo)
        e--;
      else if (d == lo)
        {
          guint64 below;

          if (!round_digits (a, prec - e, &below))
            return FALSE;
          if (below < hi)
            {
              d = below;
              e--;
            }
          break;
        }
      else
        break;
    }
  if (d < lo || d >= hi)
    return FALSE;
  /* does the text read back as v? Its value is d · 10^(e - prec + 1),
   * computed as the parser would (Clinger, or the extended path) */
  {
    int sc = e - prec + 1;
    double back;

    if (d <= (G_GUINT64_CONSTANT (1) << 53) && sc >= -22 && sc <= 22)
      back = sc < 0 ? (double) d / pow10_exact[-sc] : (double) d * pow10_exact[sc];
    else if (sc < -SQ_POW10_LD_MAX || sc > SQ_POW10_LD_MAX || !extended_scale (d, sc, &back))
      return FALSE;
    if (back != a)
      {
        *buf = '\0';         /* exact digits, but not the shortest: try more */
        return TRUE;
      }
  }
  for (nd = prec; nd > 0; nd--)
    {
      digits[nd - 1] = (char) ('0' + d % 10);
      d /= 10;
    }
  nd = prec;
  while (nd > 1 && digits[nd - 1] == '0')
    nd--;
  if (signbit (v))
    *o++ = '-';
  if (e < -4 || e >= prec)
    {
      int x = e < 0 ? -e : e;

      *o++ = digits[0];
      if (nd > 1)
        {
          *o++ = '.';
          memcpy (o, digits + 1, nd - 1);
          o += nd - 1;
        }
      *o++ = 'e';
      *o++ = e < 0 ? '-' : '+';
      if (x >= 100)
        *o++ = (char) ('0' + x / 100);
      *o++ = (char) ('0' + x / 10 % 10);
      *o++ = (char) ('0' + x % 10);
    }
  else if (e >= 0)
    {
      memcpy (o, digits, e + 1);
      o += e + 1;
      if (nd > e + 1)
        {
          *o++ = '.';
          memcpy (o, digits + e + 1, nd - e - 1);
          o += nd - e - 1;
        }
    }
  else
    {
      *o++ = '0';
      *o++ = '.';
      for (int z = 0; z < -e - 1; z++)
        *o++ = '0';
      memcpy (o, digits, nd);
      o += nd;
    }
  *o = '\0';
  return TRUE;
}
#endif

/* The same text as sq_format_double (the shortest of "%.15g" … "%.17g"
 * that reads back exactly), computed without printf when it can be. */
void
_sq_append_shortest (GString *s,
                     double   v)
{
  char buf[SQ_DOUBLE_BUF];

#ifdef SQ_HAVE_EXTENDED
  if (isfinite (v) && v != 0.0)
    {
      double a = fabs (v);
      int e = decimal_exponent_floor (a);

      for (int prec = 15; prec <= 17; prec++)
        {
          gsize len;

          if (!format_g (buf, v, prec, e))
            break;
          len = strlen (buf);
          /* "" when these digits do not read back (format_g checked the
           * digits' value as the parser computes it) */
          if (len > 0)
            {
              g_string_append_len (s, buf, len);
              return;
            }
        }
    }
#endif
  g_string_append (s, sq_format_double (buf, sizeof buf, v));
}

gboolean
_sq_parse_int64 (const char *tok,
                 gsize       len,
                 gint64     *out)
{
  gsize i = 0;
  gboolean neg = FALSE;
  guint64 v = 0;

  if (len > 0 && (tok[0] == '-' || tok[0] == '+'))
    {
      neg = tok[0] == '-';
      i = 1;
    }
  if (i >= len)
    return FALSE;
  for (; i < len; i++)
    {
      if (!g_ascii_isdigit (tok[i]))
        return FALSE;
      v = v * 10 + (guint64) (tok[i] - '0');
      if (v > G_MAXINT32)
        return FALSE;
    }
  *out = neg ? -(gint64) v : (gint64) v;
  return TRUE;
}
