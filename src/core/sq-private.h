/* sq-private.h: helpers shared by the format core's own files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SqReader is the single chokepoint for reading binary input: every access
 * checks what is left, counts are compared against the bytes left before
 * anything is allocated, and failures name the byte offset.
 */
#pragma once

#include <glib.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "sq-clip.h"
#include "sq-convert.h"
#include "sq-error.h"
#include "sq-format.h"

G_BEGIN_DECLS

typedef struct
{
  const guint8 *data;
  gsize         len;
  gsize         pos;
} SqReader;

static inline gsize
sq_reader_left (const SqReader *r)
{
  return r->len - r->pos;
}

static inline gboolean
sq_reader_need (SqReader   *r,
                gsize       n,
                const char *what,
                GError    **error)
{
  if (sq_reader_left (r) < n)
    {
      sq_set_error_at_offset (error, SQ_ERROR_TRUNCATED, r->pos,
                              _("file ends inside %s (%zu bytes needed, %zu left)"),
                              g_dgettext (GETTEXT_PACKAGE, what), n, sq_reader_left (r));
      return FALSE;
    }
  return TRUE;
}

static inline guint32
sq_read_be32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return GUINT32_FROM_BE (v);
}

static inline guint16
sq_read_be16 (const guint8 *p)
{
  return (guint16) (((guint) p[0] << 8) | p[1]);
}

static inline gboolean
sq_reader_be32 (SqReader   *r,
                guint32    *out,
                const char *what,
                GError    **error)
{
  if (!sq_reader_need (r, 4, what, error))
    return FALSE;
  *out = sq_read_be32 (r->data + r->pos);
  r->pos += 4;
  return TRUE;
}

static inline gboolean
sq_reader_be16 (SqReader   *r,
                guint16    *out,
                const char *what,
                GError    **error)
{
  if (!sq_reader_need (r, 2, what, error))
    return FALSE;
  *out = sq_read_be16 (r->data + r->pos);
  r->pos += 2;
  return TRUE;
}

/* Checks that `count` records of at least `size` bytes each fit in what is
 * left, before anything is allocated for them. */
static inline gboolean
sq_reader_check_count (SqReader   *r,
                       guint64     count,
                       gsize       size,
                       gsize       count_offset,
                       const char *what,
                       GError    **error)
{
  if (size > 0 && count > sq_reader_left (r) / size)
    {
      sq_set_error_at_offset (error, SQ_ERROR_LIMIT_EXCEEDED, count_offset,
                              _("%s count %" PRIu64 " needs at least %" PRIu64 " bytes but only %zu are left"),
                              g_dgettext (GETTEXT_PACKAGE, what), count, (guint64) count * size, sq_reader_left (r));
      return FALSE;
    }
  return TRUE;
}

void       *_sq_huge_realloc          (void         *old,
                                       gsize         old_bytes,
                                       gsize         bytes);
GByteArray *_sq_byte_array_sized_new  (gsize         reserved);

/* Big-endian writer over a GByteArray */
static inline guint8 *
sq_grow (GByteArray *out,
         gsize       n)
{
  gsize old = out->len;

  g_byte_array_set_size (out, old + n);
  return out->data + old;
}

static inline void
sq_store_be32 (guint8  *p,
               guint32  v)
{
  v = GUINT32_TO_BE (v);
  memcpy (p, &v, sizeof v);
}

static inline void
sq_put_be32 (GByteArray *out,
             guint32     v)
{
  sq_store_be32 (sq_grow (out, 4), v);
}

static inline void
sq_put_be16 (GByteArray *out,
             guint16     v)
{
  guint8 b[2] = { v >> 8, v };
  g_byte_array_append (out, b, 2);
}

/* Latin-1 <-> UTF-8: every byte but NUL maps to one code point and back. */
char    *_sq_latin1_to_utf8        (const guint8 *data,
                                    gsize         len);
/* Returns FALSE (and '?' in place) when a character has no Latin-1 byte. */
gboolean _sq_utf8_to_latin1        (const char   *utf8,
                                    GByteArray   *out);

guint64  _sq_clip_new_generation   (void);
void     _sq_clip_mark_source      (SqClip       *clip,
                                    const SqFormat *format,
                                    GBytes       *bytes);
void     _sq_loss                  (GPtrArray    *losses,
                                    const char   *format,
                                    ...) G_GNUC_PRINTF (2, 3);

/* Keys of a track mapped onto a grid of `rate` steps per second (frame
 * numbers, milliseconds). Keys off the grid are rounded and reported (not
 * those on a grid of `lossless_rate` steps per second, which the rounding
 * keeps recoverable: 1/30 s frames written as whole milliseconds); keys
 * that land on an occupied step are dropped and reported. Returns the indices
 * of the kept keys; `steps` receives their step numbers. */
/* The next key of a track that has room for it (n_keys < alloc): zeroed,
 * at `time`, its side arrays filled as sq_track_append does. */
static inline SqKey *
_sq_track_push (SqTrack *track,
                double   time)
{
  SqKey *key = &track->keys[track->n_keys];

  memset (key, 0, sizeof *key);
  key->time = time;
  if (track->present != NULL)
    track->present[track->n_keys] = SQ_PRESENT_ALL;
  if (track->alt != NULL)
    for (guint i = 0; i < 4; i++)
      track->alt[track->n_keys * 4 + i] = NAN;
  track->n_keys++;
  return key;
}

GArray  *_sq_track_to_grid         (const SqTrack *track,
                                    double        rate,
                                    gint64        base,
                                    double        lossless_rate,
                                    const char   *joint,
                                    const char   *what,
                                    GArray      **steps,
                                    GPtrArray    *losses);

/* Text input: a cursor over lines with 1-based line and column numbers. */
typedef struct
{
  const char *data;
  gsize       len;
  gsize       pos;        /* start of the next line */
  guint       line;       /* number of the line last returned */
  const char *cur;        /* the line last returned, without its end */
  gsize       cur_len;
  const char *next_nl;    /* the next LF found, or the end */
} SqLines;

void     _sq_lines_init            (SqLines      *lines,
                                    const char   *data,
                                    gsize         len);
gboolean _sq_lines_next            (SqLines      *lines);

/* Scans one decimal number at `tok` (bit-identical to strtod, no locale);
 * returns where it ends, or NULL when there is none or it is not finite. */
const char *_sq_scan_double        (const char   *tok,
                                    const char   *end,
                                    double       *out);
extern const guint8 _sq_sep_table[256];
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
 * which costs more than the rest here (SQ_PERF). */
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
 * keeps its constants in registers (SQ_PERF). NULL for any other shape:
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
/* "%" G_GINT64_FORMAT without printf */
void     _sq_append_int64          (GString      *s,
                                    gint64        value);
gboolean _sq_parse_int64           (const char   *tok,
                                    gsize         len,
                                    gint64       *out);

/* JSON output */
void     _sq_json_string           (GString      *out,
                                    const char   *utf8);
void     _sq_json_number           (GString      *out,
                                    double        value);
void     _sq_json_variant          (GString      *out,
                                    GVariant     *value);

/* sq-convert.c: the rest skeleton of a clip without a hierarchy of its
 * own: parents and offsets (metres, Second Life axes) from the file's
 * frames (.x) or from the skeleton its joint names stand for; a joint no
 * source places gets the default bone. *from_frames (may be NULL): the
 * frames gave it. `losses` (may be NULL): what was guessed. Returns the
 * root. */
gssize   _sq_skeleton_rest         (const SqClip *clip,
                                    gint32       *parent,
                                    double      (*offset)[3],
                                    gboolean     *from_frames,
                                    GPtrArray    *losses);

extern const SqFormat _sq_format_seq_binary;
extern const SqFormat _sq_format_seq_text;
extern const SqFormat _sq_format_bvh;
extern const SqFormat _sq_format_dx;
extern const SqFormat _sq_format_sl_anim;

G_END_DECLS
