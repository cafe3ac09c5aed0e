/* sq-numbers.h: decimal numbers read and printed exactly, without the locale (sq-numbers.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

/* Scans one decimal number at `tok` (bit-identical to strtod, no locale);
 * returns where it ends, or NULL when there is none or it is not finite. */
const char *_sq_scan_double        (const char   *tok,
                                    const char   *end,
                                    double       *out);
/* The same, allowed to read (never to take digits) up to `limit`, the end
 * of the buffer the token lies in: eight bytes at a time. */
const char *_sq_scan_double_in     (const char   *tok,
                                    const char   *end,
                                    const char   *limit,
                                    double       *out);
/* The 128-bit product of a and b without compiler extensions: the high
 * half, the low one in *lo (the parser's fallback, exported for its test) */
guint64  _sq_mul_64_portable       (guint64       a,
                                    guint64       b,
                                    guint64      *lo);
extern const guint64 _sq_pow10_u64[20];
extern const double  _sq_pow10_exact[23];

#define SQ_POW5_MIN (-64)
#define SQ_POW5_MAX 64
typedef struct
{
  guint64 hi, lo;
  gint16  e2;
} SqPow5;
extern const SqPow5 _sq_pow5_128[SQ_POW5_MAX - SQ_POW5_MIN + 1];

static inline guint64
_sq_mul_64 (guint64  a,
            guint64  b,
            guint64 *lo)
{
#if defined(__SIZEOF_INT128__) && !defined(SQ_NO_INT128)
  unsigned __int128 p = (unsigned __int128) a * b;

  *lo = (guint64) p;
  return (guint64) (p >> 64);
#else
  return _sq_mul_64_portable (a, b, lo);
#endif
}

/* mant · 10^exp10 (mant > 0, any 64-bit value; SQ_POW5_MIN <= exp10 <=
 * SQ_POW5_MAX) correctly rounded to a double, or FALSE when that cannot be
 * told from 128 bits: then strtod decides. mant · 10^exp10 = mant · 5^exp10
 * · 2^exp10: the mantissa shifted to a top bit of 63 times the table's
 * 5^exp10 gives a 192-bit product whose top 128 bits are at most two units
 * of their last bit below the exact value's (the table's truncation and the
 * dropped low 64 bits each cost less than one). So the rounding of the top
 * 53 bits is certain unless the bits below them are exactly a midpoint, or
 * one unit below it, in those 128 bits (about one number in 2^60). The
 * result is a normal double: at least 1e-64, below 2^64 · 1e64. No division,
 * which costs more than the rest here. */
static inline gboolean
_sq_scale_128 (guint64  mant,
               int      exp10,
               double  *out)
{
  const SqPow5 *t = &_sq_pow5_128[exp10 - SQ_POW5_MIN];
  int lz = __builtin_clzll (mant);
  guint64 w = mant << lz;
  guint64 l1, l2, h1, h2, mid, hi, low, half, bits;
  int shift, e2;

  h1 = _sq_mul_64 (w, t->hi, &l1);
  h2 = _sq_mul_64 (w, t->lo, &l2);
  (void) l2;    /* below what the bound counts on */
  mid = l1 + h2;
  hi = h1 + (mid < l1);
  /* the product is in [2^190, 2^192): 53 bits from bit 63 or bit 62 of hi */
  shift = 10 + (int) (hi >> 63);
  low = hi & ((G_GUINT64_CONSTANT (1) << shift) - 1);
  half = G_GUINT64_CONSTANT (1) << (shift - 1);
  if (G_UNLIKELY ((low == half && mid == 0) || (low == half - 1 && mid == G_MAXUINT64)))
    return FALSE;
  bits = (hi >> shift) + (low >= half);
  e2 = shift + 1 + t->e2 - lz + exp10;
  /* bits is in [2^52, 2^53]: 2^53 when rounding carried into a 54th bit,
   * which the exponent field then absorbs as one more */
  bits = ((guint64) (e2 + 1075) << 52) + bits - (G_GUINT64_CONSTANT (1) << 52);
  memcpy (out, &bits, sizeof *out);
  return TRUE;
}

#if G_BYTE_ORDER == G_LITTLE_ENDIAN
#define SQ_SWAR_DIGITS 1
/* Eight ASCII bytes loaded as a little-endian word: how many of the first
 * ones are digits (0 to 8). Bytes up to the first non-digit are computed
 * without carries, so its high bit is exact. */
static inline int
_sq_lead_digits (guint64 w)
{
  guint64 m = ((w + G_GUINT64_CONSTANT (0x4646464646464646)) | (w - G_GUINT64_CONSTANT (0x3030303030303030)))
              & G_GUINT64_CONSTANT (0x8080808080808080);

  return m == 0 ? 8 : __builtin_ctzll (m) >> 3;
}

/* The value of the first n (1 to 8) digits of w: shifted so that the rest
 * falls out and zeros lead, then pairs, quads and the whole by
 * multiplications. */
static inline guint64
_sq_digits_value (guint64 w,
                  int     n)
{
  const guint64 mask = G_GUINT64_CONSTANT (0x000000ff000000ff);

  w = (w - G_GUINT64_CONSTANT (0x3030303030303030)) << (8 * (8 - n));
  w = w * 10 + (w >> 8);
  w = ((w & mask) * (100 + (G_GUINT64_CONSTANT (1000000) << 32))
       + ((w >> 16) & mask) * (1 + (G_GUINT64_CONSTANT (10000) << 32))) >> 32;
  return (guint32) w;
}

/* The same for n from 0 to 8 without a branch: 0 when n is 0 */
static inline guint64
_sq_digits_value0 (guint64 w,
                   int     n)
{
  const guint64 mask = G_GUINT64_CONSTANT (0x000000ff000000ff);

  w = (w - G_GUINT64_CONSTANT (0x3030303030303030)) << ((8 * (8 - n)) & 63);
  w = w * 10 + (w >> 8);
  w = ((w & mask) * (100 + (G_GUINT64_CONSTANT (1000000) << 32))
       + ((w >> 16) & mask) * (1 + (G_GUINT64_CONSTANT (10000) << 32))) >> 32;
  return (guint32) w & -(guint64) (n != 0);
}
#endif

/* The usual number (a sign, up to 7 digits, an optional point and up to 16
 * decimals, 19 digits at most, no exponent) when 32 bytes can be read from
 * `tok`, as _sq_scan_double_in reads it: inline, so that a reader's loop
 * keeps its constants in registers. NULL for any other shape:
 * then _sq_scan_double_in decides. */
static inline const char *
_sq_scan_double_short (const char *tok,
                       const char *end,
                       const char *limit,
                       double     *out)
{
#ifdef SQ_SWAR_DIGITS
  const char *p = tok, *digits;
  guint64 mant = 0, w, bits;
  guint d;
  int nf = 0;
  gboolean neg;
  double v;

  if (G_UNLIKELY (limit - tok < 32 || tok >= end))
    return NULL;
  neg = *p == '-';
  p += neg | (*p == '+');
  /* the integer part: mostly one to three digits, taken one by one */
  digits = p;
  while (p < end && (d = (guint) (guint8) *p - '0') < 10 && p - digits < 7)
    {
      mant = mant * 10 + d;
      p++;
    }
  if (p < end && *p == '.')
    {
      const char *f = p + 1;

      /* the decimals eight at a time */
      memcpy (&w, f, sizeof w);
      nf = _sq_lead_digits (w);
      if (nf > end - f)
        nf = (int) (end - f);
      mant = mant * _sq_pow10_u64[nf] + _sq_digits_value0 (w, nf);
      if (nf == 8)
        {
          int n2;

          memcpy (&w, f + 8, sizeof w);
          n2 = _sq_lead_digits (w);
          if (n2 > end - (f + 8))
            n2 = (int) (end - (f + 8));
          /* 19 digits in all at most */
          if (G_UNLIKELY ((p - digits) + 8 + n2 > 19))
            return NULL;
          mant = mant * _sq_pow10_u64[n2] + _sq_digits_value0 (w, n2);
          nf += n2;
          /* the 17th and 18th decimals (the shortest text of a double has
           * up to 17 digits) */
          while (n2 == 8 && f + nf < end && (guint) (f[nf] - '0') < 10 && (p - digits) + nf < 19)
            mant = mant * 10 + (guint) (f[nf++] - '0');
        }
      p = f + nf;
      /* "." alone is no number */
      if (G_UNLIKELY (nf == 0 && p - 1 == digits))
        return NULL;
    }
  else if (G_UNLIKELY (p == digits))
    return NULL;
  /* more digits than were taken, or an exponent: another shape */
  if (G_UNLIKELY (p < end && ((guint) (*p - '0') < 10 || (*p | 0x20) == 'e')))
    return NULL;
  /* Clinger (exact over exact) for the shorter numbers; chosen by the
   * number of decimals, which numbers of one file share, rather than by
   * whether the mantissa fits in 53 bits, which 17-digit numbers toss */
  if (nf < 16 && mant <= (G_GUINT64_CONSTANT (1) << 53))
    v = (double) mant / _sq_pow10_exact[nf];
  else if (G_UNLIKELY (mant == 0))
    v = 0.0;
  else if (G_UNLIKELY (!_sq_scale_128 (mant, -nf, &v)))
    return NULL;
  memcpy (&bits, &v, sizeof bits);
  bits ^= (guint64) neg << 63;
  memcpy (out, &bits, sizeof bits);
  return p;
#else
  return NULL;
#endif
}

/* The usual number inline, anything else by _sq_scan_double_in */
static inline const char *
_sq_scan_double_fast (const char *tok,
                      const char *end,
                      const char *limit,
                      double     *out)
{
  const char *p = _sq_scan_double_short (tok, end, limit, out);

  return G_LIKELY (p != NULL) ? p : _sq_scan_double_in (tok, end, limit, out);
}
gboolean _sq_parse_double_in       (const char   *tok,
                                    gsize         len,
                                    const char   *limit,
                                    double       *out);
/* Parses a whole token as a finite decimal number, locale-independent. */
gboolean _sq_parse_double          (const char   *tok,
                                    gsize         len,
                                    double       *out);
void     _sq_append_number         (GString      *s,
                                    double        value,
                                    int           decimals);
/* The same text, appended only when it reads back as exactly `value`:
 * FALSE, and nothing appended, otherwise. */
gboolean _sq_append_number_exact   (GString      *s,
                                    double        value,
                                    int           decimals);
/* The text sq_format_double gives (shortest of %.15g … %.17g that reads
 * back exactly), mostly without printf. */
void     _sq_append_shortest       (GString      *s,
                                    double        value);
/* _sq_append_number's text when it reads back as exactly `value` (as
 * _sq_append_number_exact), else _sq_append_shortest's text. */
void     _sq_append_fixed_or_shortest (GString   *s,
                                       double     value,
                                       int        decimals);
/* "%.*f" exactly (printf's rounding), mostly without printf */
void     _sq_append_fixed          (GString      *s,
                                    double        value,
                                    int           decimals);
/* "%" G_GINT64_FORMAT without printf */
void     _sq_append_int64          (GString      *s,
                                    gint64        value);
gboolean _sq_parse_int64           (const char   *tok,
                                    gsize         len,
                                    gint64       *out);

G_END_DECLS
