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

/* sq-convert.c: the skeleton a clip without a hierarchy stands for */
gssize   _sq_skeleton_guess        (const SqClip *clip,
                                    gint32       *parent,
                                    double      (*offset)[3],
                                    GString      *loose,
                                    guint        *n_loose);

extern const SqFormat _sq_format_seq_binary;
extern const SqFormat _sq_format_seq_text;
extern const SqFormat _sq_format_bvh;
extern const SqFormat _sq_format_dx;
extern const SqFormat _sq_format_sl_anim;

G_END_DECLS
