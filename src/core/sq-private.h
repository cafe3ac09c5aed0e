/* sq-private.h: what the format readers and writers share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The bounds-checked binary reader and the big-endian writer, and the
 * headers of the core's helpers (numbers, text lines, encodings, losses,
 * time grids, memory, clip internals), each implemented in its own file
 * that includes only what it uses, never this header.
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
#include "sq-clip-private.h"
#include "sq-encoding.h"
#include "sq-json.h"
#include "sq-losses.h"
#include "sq-memory.h"
#include "sq-numbers.h"
#include "sq-text-reader.h"
#include "sq-time-grid.h"

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
  /* a position past the end leaves nothing (not 2^64 - its distance) */
  return r->pos < r->len ? r->len - r->pos : 0;
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
/* The same from the joints' names only (the Second Life skeleton they
 * stand for), no report */
gssize   _sq_skeleton_by_names     (const SqClip *clip,
                                    gint32       *parent,
                                    double      (*offset)[3]);
/* The clip's own hierarchy ("parent" and "offset" extras, offsets in
 * `space`'s units and axes, turned into metres on Second Life's axes);
 * -1 when a joint has none */
gssize   _sq_skeleton_from_tree    (const SqClip  *clip,
                                    const SqSpace *space,
                                    gint32        *parent,
                                    double       (*offset)[3]);

extern const SqFormat _sq_format_seq_binary;
extern const SqFormat _sq_format_seq_text;
extern const SqFormat _sq_format_bvh;
extern const SqFormat _sq_format_dx;
extern const SqFormat _sq_format_sl_anim;
extern const SqFormat _sq_format_gltf;

G_END_DECLS
