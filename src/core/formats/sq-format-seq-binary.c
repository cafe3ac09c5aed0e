/* sq-format-seq-binary.c: ActiveWorlds / Lifeforms binary SEQ
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout (shared/specs/activeworlds-seq-binary-and-text.txt, formats.md 4),
 * all numbers big-endian:
 *   u32 magic (7F7F7F79 or 7F7F7F7A)   u16 total frames   u32 joint count
 *   u16 n + n bytes model name (with NUL)   u16 n + n bytes root name (with NUL)
 *   per joint: u16 n + name, u32 record size (16), u32 key count,
 *              keys of { i32 frame, f32 w, x, y, z }
 *   optional: u32 block count, per block: u32 record size, u32 count,
 *             records of { i32 frame, record size bytes }
 *   blocks 1-3 are the root's location X, Y, Z (f32, metres); the rest
 *   (facing quaternion, unknown floats, unknown quaternion) is kept as read.
 * Frames start at 1, 30 per second: frame n is at (n - 1) / 30 s.
 *
 * Exactness: floats go through NaN-preserving conversions, odd name fields
 * (bytes after the NUL, no NUL) and unknown blocks are kept raw, and the
 * root's location axes remember which frames each block had.
 */
#define G_LOG_DOMAIN "sq-seq-binary"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "sq-math.h"
#include "sq-parallel.h"
#include "sq-private.h"
#include "worlds/sq-world-aw.h"

#define SEQ_MAGIC_A   0x7f7f7f79u
#define SEQ_MAGIC_B   0x7f7f7f7au
#define SEQ_FPS       30.0
#define SEQ_ROT_SIZE  16u
#define SEQ_LOC_SIZE  4u
#define SEQ_MAX_RECORD (1u << 16)

static int
seq_binary_probe (const guint8 *data,
                  gsize         len)
{
  guint32 magic;

  if (len < 4)
    return 0;
  magic = sq_read_be32 (data);
  return magic == SEQ_MAGIC_A || magic == SEQ_MAGIC_B ? 100 : 0;
}

/* A length-prefixed name. The name is the bytes before the first NUL, in
 * Latin-1; the field is kept raw when it is anything but name + NUL. */
static gboolean
read_name_field (SqReader   *r,
                 const char *what,
                 char      **name,
                 GVariant  **raw,
                 GError    **error)
{
  guint16 n;
  const guint8 *p, *nul;
  gsize name_len;

  if (!sq_reader_be16 (r, &n, what, error) || !sq_reader_need (r, n, what, error))
    return FALSE;
  p = r->data + r->pos;
  nul = n > 0 ? memchr (p, 0, n) : NULL;
  name_len = nul ? (gsize) (nul - p) : n;
  *name = _sq_latin1_to_utf8 (p, name_len);
  *raw = NULL;
  if (!(n > 0 && name_len == (gsize) n - 1u))
    *raw = g_variant_ref_sink (g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, p, n, 1));
  r->pos += n;
  return TRUE;
}

static void
sort_or_fail_check (SqTrack  *track,
                    gboolean *unsorted,
                    gboolean *duplicate,
                    gsize    *dup_index)
{
  *unsorted = FALSE;
  *duplicate = FALSE;
  for (gsize i = 1; i < track->n_keys; i++)
    {
      if (track->keys[i].time == track->keys[i - 1].time)
        {
          *duplicate = TRUE;
          *dup_index = i;
          return;
        }
      if (track->keys[i].time < track->keys[i - 1].time)
        *unsorted = TRUE;
    }
}

/* Keys sorted and distinct, or an error naming the offset of the first
 * repeated frame (after sorting, repeats are neighbours). */
static gboolean
finish_track (SqClip     *clip,
              SqTrack    *track,
              const char *joint,
              const char *what,
              gsize       first_offset,
              gsize       record,
              GError    **error)
{
  gboolean unsorted, duplicate;
  gsize dup = 0;

  sort_or_fail_check (track, &unsorted, &duplicate, &dup);
  if (unsorted)
    {
      sq_clip_add_warning (clip, _("joint “%s”: %s keys are not in frame order; they are sorted"), joint, what);
      sq_track_sort (track);
      sort_or_fail_check (track, &unsorted, &duplicate, &dup);
      if (duplicate)
        record = 0;   /* sorted: the repeat's position in the file is lost; name the track */
    }
  if (duplicate)
    {
      sq_set_error_at_offset (error, SQ_ERROR_BAD_VALUE, first_offset + dup * record,
                              _("joint “%s”: two %s keys for frame %.0f"), joint, what,
                              track->keys[dup].time * SEQ_FPS + 1);
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  gint32 frame;
  double value;
} LocKey;

typedef struct
{
  LocKey *keys;
  gsize   n;
} LocAxis;

static double
loc_axis_at (const LocAxis *axis,
             gint32         frame)
{
  gsize lo = 0, hi = axis->n;

  if (axis->n == 0)
    return 0.0;
  if (frame <= axis->keys[0].frame)
    return axis->keys[0].value;
  if (frame >= axis->keys[axis->n - 1].frame)
    return axis->keys[axis->n - 1].value;
  while (hi - lo > 1)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (axis->keys[mid].frame <= frame)
        lo = mid;
      else
        hi = mid;
    }
  {
    const LocKey *a = &axis->keys[lo], *b = &axis->keys[hi];
    /* in 64 bits: frames span the whole int32 range (a fuzzer found 1 - -2147483647) */
    double t = (double) ((gint64) frame - a->frame) / (double) ((gint64) b->frame - a->frame);
    return a->value + (b->value - a->value) * t;
  }
}

static int
loc_key_compare (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data G_GNUC_UNUSED)
{
  gint32 fa = ((const LocKey *) a)->frame, fb = ((const LocKey *) b)->frame;
  return fa < fb ? -1 : fa > fb;
}

/* Blocks 1-3 become the root's translation track, keyed at the union of the
 * blocks' frames; an axis without a key at a frame takes the linear
 * interpolation of its neighbours and is marked as not present. */
static void
build_location_track (SqTrack       *track,
                      const LocAxis  axes[3],
                      guint          n_axes)
{
  gsize cursor[3] = { 0, 0, 0 };
  gsize total = 0;

  for (guint a = 0; a < n_axes; a++)
    total += axes[a].n;
  sq_track_reserve (track, total);
  sq_track_ensure_present (track);

  /* merge the axes' sorted frame lists */
  for (;;)
    {
      gint64 f = G_MAXINT64;
      SqKey *key;
      guint8 present = 0;

      for (guint a = 0; a < n_axes; a++)
        if (cursor[a] < axes[a].n)
          f = MIN (f, axes[a].keys[cursor[a]].frame);
      if (f == G_MAXINT64)
        break;
      key = sq_track_append (track, ((double) f - 1.0) / SEQ_FPS);
      for (guint a = 0; a < n_axes; a++)
        {
          if (cursor[a] < axes[a].n && axes[a].keys[cursor[a]].frame == f)
            {
              key->v[a] = axes[a].keys[cursor[a]].value;
              present |= 1u << a;
              cursor[a]++;
            }
          else
            key->v[a] = loc_axis_at (&axes[a], (gint32) f);
        }
      track->present[track->n_keys - 1] = present;
    }
}

static inline double
be_float (const guint8 *p)
{
  guint32 bits = sq_read_be32 (p);
  float f;

  if (G_UNLIKELY ((bits & 0x7f800000u) == 0x7f800000u))
    return sq_float_bits_to_double (bits);   /* NaN payloads and infinities, exactly */
  memcpy (&f, &bits, sizeof f);
  return f;
}

/* A rotation key record { i32 frame, f32 w, x, y, z }: how the reader
 * stores it, and how a packed track gives it (SqKeyCodec). */
static inline double
rotation_record_time (const SqTrack *track G_GNUC_UNUSED,
                      const guint8  *p)
{
  return ((double) (gint32) sq_read_be32 (p) - 1.0) / SEQ_FPS;
}

static inline void
rotation_record_key (const SqTrack *track,
                     const guint8  *p,
                     SqKey         *key)
{
  key->time = rotation_record_time (track, p);
  key->v[0] = be_float (p + 4);
  key->v[1] = be_float (p + 8);
  key->v[2] = be_float (p + 12);
  key->v[3] = be_float (p + 16);
}

static const SqKeyCodec rotation_codec = { 20, rotation_record_time, rotation_record_key, NULL };

/* One joint's rotation keys: the count is already checked against the
 * bytes left. */
typedef struct
{
  gsize         joint;
  SqTrack      *track;
  const guint8 *p;
  guint32       n_keys;
  gsize         offset;       /* of the first key in the file */
  gboolean      ordered;      /* out: frames strictly increase */
} RotationJob;

/* Run on several threads for a large file (sq-parallel.h). Keys whose
 * frames strictly increase stay in the file's records (the caller packs
 * the track: a key costs no memory and no decoding until it is
 * asked for); others are decoded into the track to be sorted. */
static void
read_rotation_keys (gsize    item,
                    gpointer data)
{
  RotationJob *job = &((RotationJob *) data)[item];
  const guint8 *p = job->p;
  gint32 prev = G_MININT32;
  gboolean ordered = TRUE;

  for (guint32 k = 0; k < job->n_keys; k++, p += 20)
    {
      gint32 frame = (gint32) sq_read_be32 (p);

      if (k > 0 && frame <= prev)
        {
          ordered = FALSE;
          break;
        }
      prev = frame;
    }
  job->ordered = ordered;
  if (ordered)
    return;
  sq_track_reserve (job->track, job->n_keys);
  p = job->p;
  for (guint32 k = 0; k < job->n_keys; k++, p += 20)
    rotation_record_key (job->track, p, &job->track->keys[k]);
  job->track->n_keys = job->n_keys;
}

/* The header: signature, frame count, joint count, model and root names.
 * Sets the clip's rate, duration, name, root and the fields kept for
 * writing back; *n_joints is checked against the bytes left and the
 * limit. */
static gboolean
read_header (SqReader            *r,
             SqClip              *clip,
             const SqLoadOptions *options,
             guint32             *n_joints,
             GError             **error)
{
  g_autoptr(GVariant) model_raw = NULL, root_raw = NULL;
  guint32 magic;
  guint16 total_frames;
  gsize count_offset;
  guint max_joints = options->max_joints ? options->max_joints : 65536;

  if (!sq_reader_be32 (r, &magic, N_("the signature"), error))
    return FALSE;
  if (magic != SEQ_MAGIC_A && magic != SEQ_MAGIC_B)
    {
      sq_set_error_at_offset (error, SQ_ERROR_BAD_MAGIC, 0,
                              _("signature %08X is not a binary SEQ (7F7F7F79 or 7F7F7F7A)"), magic);
      return FALSE;
    }
  if (!sq_reader_be16 (r, &total_frames, N_("the frame count"), error))
    return FALSE;
  count_offset = r->pos;
  if (!sq_reader_be32 (r, n_joints, N_("the joint count"), error))
    return FALSE;
  {
    char *model = NULL, *root = NULL;

    if (!read_name_field (r, N_("the model name"), &model, &model_raw, error))
      return FALSE;
    g_free (clip->name);
    clip->name = model;
    if (!read_name_field (r, N_("the root joint name"), &root, &root_raw, error))
      return FALSE;
    g_free (clip->root);
    clip->root = root;
  }
  /* a joint takes at least 10 bytes: name length, record size, key count */
  if (!sq_reader_check_count (r, *n_joints, 10, count_offset, N_("joint"), error))
    return FALSE;
  if (*n_joints > max_joints)
    {
      sq_set_error_at_offset (error, SQ_ERROR_LIMIT_EXCEEDED, count_offset,
                              _("%u joints, more than the limit of %u"), *n_joints, max_joints);
      return FALSE;
    }

  clip->fps = SEQ_FPS;
  clip->frame_base = 1;
  clip->duration = total_frames > 0 ? (total_frames - 1) / SEQ_FPS : 0.0;
  if (total_frames == 0)
    sq_clip_add_warning (clip, _("the header gives 0 frames; the duration is taken as 0"));
  sq_props_set (clip->extra, "magic", g_variant_new_uint32 (magic));
  if (model_raw)
    sq_props_set (clip->extra, "model-field", model_raw);
  if (root_raw)
    sq_props_set (clip->extra, "root-field", root_raw);
  return TRUE;
}

/* The joint records: each joint's name and where its rotation keys lie;
 * then the keys of every joint checked for order and packed (or decoded
 * and sorted) on several threads when there are many. */
static gboolean
read_joints (SqReader *r,
             SqClip   *clip,
             GBytes   *bytes,
             guint32   n_joints,
             GError  **error)
{
  g_autoptr(GArray) jobs = g_array_new (FALSE, FALSE, sizeof (RotationJob));
  g_autoptr(GArray) costs = g_array_new (FALSE, FALSE, sizeof (gsize));

  for (guint32 j = 0; j < n_joints; j++)
    {
      g_autofree char *name = NULL;
      g_autoptr(GVariant) raw = NULL;
      guint32 size, n_keys;
      gsize size_offset, keys_offset, count_offset;
      SqJoint *joint;

      if (!read_name_field (r, N_("a joint name"), &name, &raw, error))
        return FALSE;
      size_offset = r->pos;
      if (!sq_reader_be32 (r, &size, N_("a joint's record size"), error))
        return FALSE;
      if (size != SEQ_ROT_SIZE)
        {
          sq_set_error_at_offset (error, SQ_ERROR_BAD_VALUE, size_offset,
                                  _("joint “%s”: record size %u, expected 16 (a quaternion)"), name, size);
          return FALSE;
        }
      count_offset = r->pos;
      if (!sq_reader_be32 (r, &n_keys, N_("a joint's key count"), error)
          || !sq_reader_check_count (r, n_keys, 4 + SEQ_ROT_SIZE, count_offset, N_("key"), error))
        return FALSE;

      if (sq_clip_find_joint (clip, name) >= 0)
        sq_clip_add_warning (clip, _("joint “%s” appears more than once; edits by name act on the first"), name);
      joint = sq_clip_add_joint (clip, name);
      if (raw)
        sq_props_set (joint->extra, "name-field", raw);
      keys_offset = r->pos;
      {
        RotationJob job = { clip->n_joints - 1, NULL, r->data + r->pos, n_keys, keys_offset, TRUE };
        gsize cost = (gsize) n_keys * 20;

        g_array_append_val (jobs, job);
        g_array_append_val (costs, cost);
      }
      r->pos += (gsize) n_keys * 20;
    }

  /* the joints are all there now (their array no longer moves): check
   * the keys' order, pack or decode them, then sort what needs it */
  for (guint i = 0; i < jobs->len; i++)
    {
      RotationJob *job = &g_array_index (jobs, RotationJob, i);
      job->track = &clip->joints[job->joint].tracks[SQ_CHANNEL_ROTATION];
    }
  _sq_parallel_items (jobs->len, (const gsize *) (gpointer) costs->data, read_rotation_keys, jobs->data);
  for (guint i = 0; i < jobs->len; i++)
    {
      const RotationJob *job = &g_array_index (jobs, RotationJob, i);
      SqJoint *joint = &clip->joints[job->joint];

      if (job->ordered)
        sq_track_pack (job->track, &rotation_codec, bytes, job->p, job->n_keys, 0.0);
      else if (!finish_track (clip, job->track, joint->name, _("rotation"), job->offset, 20, error))
        return FALSE;
    }
  return TRUE;
}

/* Location block b (one axis: frame and float of each key), sorted by
 * frame when it is not; two keys for one frame are an error. */
static gboolean
read_location_block (SqReader *r,
                     SqClip   *clip,
                     guint32   b,
                     guint32   size,
                     guint32   count,
                     gsize     size_offset,
                     gsize     count_offset,
                     LocAxis  *axis,
                     GError  **error)
{
  gboolean sorted = TRUE;

  if (size != SEQ_LOC_SIZE)
    {
      sq_set_error_at_offset (error, SQ_ERROR_BAD_VALUE, size_offset,
                              _("location block %u: record size %u, expected 4 (a float)"), b + 1, size);
      return FALSE;
    }
  axis->keys = g_new (LocKey, MAX (count, 1));
  axis->n = count;
  for (guint32 k = 0; k < count; k++)
    {
      const guint8 *p = r->data + r->pos;
      axis->keys[k].frame = (gint32) sq_read_be32 (p);
      axis->keys[k].value = sq_float_bits_to_double (sq_read_be32 (p + 4));
      if (k > 0 && axis->keys[k].frame <= axis->keys[k - 1].frame)
        sorted = FALSE;
      r->pos += 8;
    }
  if (!sorted)
    {
      sq_clip_add_warning (clip, _("location block %u is not in frame order; it is sorted"), b + 1);
      g_qsort_with_data (axis->keys, axis->n, sizeof (LocKey), loc_key_compare, NULL);
    }
  for (gsize k = 1; k < axis->n; k++)
    if (axis->keys[k].frame == axis->keys[k - 1].frame)
      {
        sq_set_error_at_offset (error, SQ_ERROR_BAD_VALUE, count_offset + 4,
                                _("location block %u has two keys for frame %d"), b + 1,
                                axis->keys[k].frame);
        return FALSE;
      }
  return TRUE;
}

/* A block past the three location blocks, kept as it is (frames and
 * payload) to be written back */
static void
read_raw_block (SqReader        *r,
                guint32          size,
                guint32          count,
                GVariantBuilder *blocks)
{
  g_autofree gint32 *frames = g_new (gint32, MAX (count, 1));
  GByteArray *payload = g_byte_array_sized_new (count * size);

  for (guint32 k = 0; k < count; k++)
    {
      frames[k] = (gint32) sq_read_be32 (r->data + r->pos);
      g_byte_array_append (payload, r->data + r->pos + 4, size);
      r->pos += 4 + size;
    }
  g_variant_builder_add (blocks, "(u@ai@ay)", size,
                         g_variant_new_fixed_array (G_VARIANT_TYPE_INT32, frames, count, sizeof (gint32)),
                         g_variant_new_from_data (G_VARIANT_TYPE_BYTESTRING, payload->data, payload->len,
                                                  TRUE, (GDestroyNotify) g_byte_array_unref, payload));
}

/* The blocks after the joints, when there are any: the first three are
 * the root's location axes (into axes, *n_loc of them), the others are
 * kept as they are. */
static gboolean
read_blocks (SqReader *r,
             SqClip   *clip,
             LocAxis   axes[3],
             guint    *n_loc,
             GError  **error)
{
  GVariantBuilder blocks;
  gboolean have_raw_blocks = FALSE, blocks_present;
  guint32 n_blocks = 0;
  gsize count_offset;

  blocks_present = sq_reader_left (r) > 0;
  if (blocks_present)
    {
      count_offset = r->pos;
      if (!sq_reader_be32 (r, &n_blocks, N_("the block count"), error)
          || !sq_reader_check_count (r, n_blocks, 8, count_offset, N_("block"), error))
        return FALSE;
    }
  else
    sq_props_set (clip->extra, "blocks-present", g_variant_new_boolean (FALSE));

  g_variant_builder_init (&blocks, G_VARIANT_TYPE ("a(uaiay)"));
  for (guint32 b = 0; b < n_blocks; b++)
    {
      guint32 size, count;
      gsize size_offset = r->pos;

      if (!sq_reader_be32 (r, &size, N_("a block's record size"), error))
        goto fail;
      count_offset = r->pos;
      if (!sq_reader_be32 (r, &count, N_("a block's record count"), error))
        goto fail;
      if (size > SEQ_MAX_RECORD)
        {
          sq_set_error_at_offset (error, SQ_ERROR_BAD_VALUE, size_offset,
                                  _("block %u: record size %u is larger than %u"), b + 1, size, SEQ_MAX_RECORD);
          goto fail;
        }
      if (!sq_reader_check_count (r, count, 4 + (gsize) size, count_offset, N_("block record"), error))
        goto fail;

      if (b < 3)
        {
          *n_loc = b + 1;
          if (!read_location_block (r, clip, b, size, count, size_offset, count_offset, &axes[b], error))
            goto fail;
        }
      else
        {
          read_raw_block (r, size, count, &blocks);
          have_raw_blocks = TRUE;
        }
    }

  if (blocks_present && *n_loc != 3)
    sq_props_set (clip->extra, "location-blocks", g_variant_new_uint32 (*n_loc));
  if (have_raw_blocks)
    sq_props_set (clip->extra, "blocks", g_variant_builder_end (&blocks));
  else
    g_variant_builder_clear (&blocks);
  return TRUE;

fail:
  g_variant_builder_clear (&blocks);
  return FALSE;
}

static SqClip *
seq_binary_read (GBytes              *bytes,
                 const SqLoadOptions *options,
                 GError             **error)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  SqReader r = { 0 };
  guint32 n_joints;
  LocAxis axes[3] = { { 0 } };
  guint n_loc = 0;
  gboolean ok = FALSE;

  r.data = g_bytes_get_data (bytes, &r.len);

  if (!read_header (&r, clip, options, &n_joints, error)
      || !read_joints (&r, clip, bytes, n_joints, error)
      || !read_blocks (&r, clip, axes, &n_loc, error))
    goto out;

  if (sq_reader_left (&r) > 0)
    {
      sq_clip_add_warning (clip, _("%zu bytes after the last block at offset %zu are kept as they are"),
                           sq_reader_left (&r), r.pos);
      sq_props_set (clip->extra, "trailing",
                    g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, r.data + r.pos, sq_reader_left (&r), 1));
    }

  if (axes[0].n + axes[1].n + axes[2].n > 0)
    {
      const char *root = sq_clip_get_effective_root (clip);
      gssize ri = sq_clip_find_joint (clip, root);
      SqJoint *joint;

      if (ri < 0)
        {
          joint = sq_clip_add_joint (clip, root);
          sq_props_set (joint->extra, "no-entry", g_variant_new_boolean (TRUE));
        }
      else
        joint = &clip->joints[ri];
      build_location_track (&joint->tracks[SQ_CHANNEL_TRANSLATION], axes, n_loc);
    }

  ok = TRUE;

out:
  for (guint a = 0; a < 3; a++)
    g_free (axes[a].keys);
  return ok ? g_steal_pointer (&clip) : NULL;
}

/* ---- writing ------------------------------------------------------------- */

static gboolean
put_name_field (GByteArray *out,
                const char *name,
                GVariant   *raw,
                const char *what,
                GPtrArray  *losses,
                GError    **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();

  if (raw != NULL)
    {
      gsize n;
      const guint8 *p = g_variant_get_fixed_array (raw, &n, 1);
      const guint8 *nul = n > 0 ? memchr (p, 0, n) : NULL;
      g_autofree char *decoded = _sq_latin1_to_utf8 (p, nul ? (gsize) (nul - p) : n);

      if (g_strcmp0 (decoded, name) == 0)
        {
          sq_put_be16 (out, (guint16) n);
          g_byte_array_append (out, p, n);
          return TRUE;
        }
    }

  if (!_sq_utf8_to_latin1 (name, bytes))
    _sq_loss (losses, _("%s “%s”: characters outside Latin-1 are written as “?”"), what, name);
  if (bytes->len + 1 > G_MAXUINT16)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE,
                   _("%s is %u bytes long; binary SEQ holds at most 65,534"), what, bytes->len);
      return FALSE;
    }
  sq_put_be16 (out, (guint16) (bytes->len + 1));
  g_byte_array_append (out, bytes->data, bytes->len);
  g_byte_array_append (out, (const guint8 *) "", 1);
  return TRUE;
}

static gboolean
track_has_nonzero (const SqTrack *track)
{
  for (gsize i = 0; i < track->n_keys; i++)
    {
      SqKey key = sq_track_key (track, i);
      if (key.v[0] != 0 || key.v[1] != 0 || key.v[2] != 0)
        return TRUE;
    }
  return FALSE;
}

/* Whether the frames of packed records are those _sq_track_to_grid gives
 * their times back as, with no loss: frames strictly increase, so the
 * first and the last bound them. */
static gboolean
rotation_records_on_grid (const SqTrack *track)
{
  gint32 first, last;

  if (track->n_keys == 0)
    return TRUE;
  first = (gint32) sq_read_be32 (track->packed);
  last = (gint32) sq_read_be32 (track->packed + (track->n_keys - 1) * 20);
  return first > -1000000000 && last < 1000000000;
}

/* Whether seq_binary_write gives a rotation track's records as they were
 * read: its keys are still those records, on the grid */
static gboolean
rotation_kept_as_read (const SqTrack *track)
{
  return track->codec == &rotation_codec && rotation_records_on_grid (track);
}

/* About the bytes seq_binary_write writes, so the output need not grow:
 * header, names, 20 bytes a rotation key (but for records kept as read),
 * 8 a location key, raw blocks */
static gsize
output_size (const SqClip *clip)
{
  const char *raw[] = { "blocks", "model-field", "root-field" };
  gsize size = 1024 + 2 * strlen (clip->name) + 2 * strlen (clip->root);

  for (guint i = 0; i < G_N_ELEMENTS (raw); i++)
    if (sq_props_get (clip->extra, raw[i]) != NULL)
      size += g_variant_get_size (sq_props_get (clip->extra, raw[i]));
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      GVariant *field = sq_props_get (clip->joints[j].extra, "name-field");

      size += 64 + 2 * strlen (clip->joints[j].name) + (field != NULL ? g_variant_get_size (field) : 0)
              + (rotation_kept_as_read (&clip->joints[j].tracks[SQ_CHANNEL_ROTATION])
                 ? 0 : 20 * clip->joints[j].tracks[SQ_CHANNEL_ROTATION].n_keys)
              + 3 * 8 * clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION].n_keys;
    }
  return size;
}

static GPtrArray *
seq_binary_write (const SqClip        *clip,
                  const SqSaveOptions *options G_GNUC_UNUSED,
                  GPtrArray           *losses,
                  GError             **error)
{
  gsize reserved = output_size (clip);
  g_autoptr(GByteArray) out = _sq_byte_array_sized_new (reserved);
  /* a second thread makes the output's fresh pages present */
  g_autoptr(SqPrefault) prefault = _sq_prefault_start (reserved, (void * const *) &out->data, &reserved, 1);
  gssize root = sq_clip_get_root_index (clip);
  GVariant *v;
  guint32 magic = SEQ_MAGIC_A;
  double frames_d = floor (clip->duration * SEQ_FPS + 0.5) + 1;
  guint32 n_entries = 0, n_loc, n_raw = 0;
  gboolean blocks_present;
  const SqTrack *loc = NULL;
  g_autoptr(GArray) loc_kept = NULL, loc_frames = NULL;
  g_autoptr(GArray) refs = _sq_refs_new ();

  if ((v = sq_props_get (clip->extra, "magic")) != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_UINT32))
    magic = g_variant_get_uint32 (v);
  if (!(frames_d >= 1 && frames_d <= G_MAXUINT16))
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE,
                   _("The animation lasts %.3f s (%.0f frames); binary SEQ holds at most 65,535 frames"),
                   clip->duration, frames_d);
      return NULL;
    }
  if (fabs ((frames_d - 1) - clip->duration * SEQ_FPS) > 1e-6)
    _sq_loss (losses, _("duration %.4f s rounded to %.0f frames of 1/30 s"), clip->duration, frames_d);

  for (gsize j = 0; j < clip->n_joints; j++)
    if (!(clip->joints[j].tracks[SQ_CHANNEL_ROTATION].n_keys == 0
          && sq_props_get_bool (clip->joints[j].extra, "no-entry", FALSE)))
      n_entries++;

  sq_put_be32 (out, magic);
  sq_put_be16 (out, (guint16) frames_d);
  sq_put_be32 (out, n_entries);
  if (!put_name_field (out, clip->name, sq_props_get (clip->extra, "model-field"), _("the model name"), losses, error)
      || !put_name_field (out, clip->root, sq_props_get (clip->extra, "root-field"), _("the root joint name"), losses, error))
    return NULL;

  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];
      const SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];
      g_autoptr(GArray) kept = NULL, steps = NULL;

      if ((gssize) j != root && joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0
          && track_has_nonzero (&joint->tracks[SQ_CHANNEL_TRANSLATION]))
        _sq_loss (losses, _("joint “%s”: %zu translation keys dropped (binary SEQ moves only the root)"),
                  joint->name, joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys);
      if (joint->tracks[SQ_CHANNEL_SCALE].n_keys > 0)
        _sq_loss (losses, _("joint “%s”: %zu scale keys dropped (binary SEQ has no scale)"),
                  joint->name, joint->tracks[SQ_CHANNEL_SCALE].n_keys);

      if (rot->n_keys == 0 && sq_props_get_bool (joint->extra, "no-entry", FALSE))
        continue;

      if (!put_name_field (out, joint->name, sq_props_get (joint->extra, "name-field"), _("joint"), losses, error))
        return NULL;
      if (rotation_kept_as_read (rot))
        {
          /* the keys are still the records read: the output refers to
           * them as they are */
          sq_put_be32 (out, SEQ_ROT_SIZE);
          sq_put_be32 (out, rot->n_keys);
          _sq_refer (refs, out->len, rot->packed_bytes, rot->packed, rot->n_keys * 20);
          continue;
        }
      kept = _sq_track_to_grid (rot, SEQ_FPS, 1, 0, joint->name, _("rotation"), &steps, losses);
      sq_put_be32 (out, SEQ_ROT_SIZE);
      sq_put_be32 (out, kept->len);
      {
        guint8 *p = sq_grow (out, (gsize) kept->len * 20);
        const gsize *idx = (const gsize *) (void *) kept->data;
        const gint64 *frame = (const gint64 *) (void *) steps->data;

        for (guint k = 0; k < kept->len; k++, p += 20)
          {
            const SqKey key = sq_track_key (rot, idx[k]);
            sq_store_be32 (p, (guint32) (gint32) frame[k]);
            for (guint c = 0; c < 4; c++)
              sq_store_be32 (p + 4 + 4 * c, sq_double_to_float_bits (key.v[c]));
          }
      }
    }

  /* the block section */
  v = sq_props_get (clip->extra, "blocks");
  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE ("a(uaiay)")))
    n_raw = g_variant_n_children (v);
  blocks_present = sq_props_get_bool (clip->extra, "blocks-present", TRUE);
  n_loc = sq_props_get_uint (clip->extra, "location-blocks", blocks_present ? 3 : 0);
  if (root >= 0 && clip->joints[root].tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0)
    {
      loc = &clip->joints[root].tracks[SQ_CHANNEL_TRANSLATION];
      loc_kept = _sq_track_to_grid (loc, SEQ_FPS, 1, 0, clip->joints[root].name, _("location"), &loc_frames, losses);
      for (gsize k = 0; k < loc->n_keys; k++)
        {
          guint8 p = loc->present ? loc->present[k] : SQ_PRESENT_ALL;
          guint need = p & SQ_PRESENT_Z ? 3 : p & SQ_PRESENT_Y ? 2 : p & SQ_PRESENT_X ? 1 : 0;
          n_loc = MAX (n_loc, need);
        }
    }
  if (n_raw > 0)
    n_loc = 3;
  n_loc = MIN (n_loc, 3);

  if (blocks_present || n_loc > 0 || n_raw > 0)
    {
      sq_put_be32 (out, n_loc + n_raw);
      for (guint a = 0; a < n_loc; a++)
        {
          guint32 count = 0;
          gsize count_pos, n = loc != NULL ? loc_kept->len : 0;
          guint8 *w;

          sq_put_be32 (out, SEQ_LOC_SIZE);
          count_pos = out->len;
          sq_put_be32 (out, 0);
          /* room for every key at once; cut to what was written after */
          w = sq_grow (out, n * 8);
          for (gsize k = 0; k < n; k++)
            {
              gsize i = g_array_index (loc_kept, gsize, k);
              if (loc->present && !(loc->present[i] & (1u << a)))
                continue;
              sq_store_be32 (w, (guint32) (gint32) g_array_index (loc_frames, gint64, k));
              sq_store_be32 (w + 4, sq_double_to_float_bits (sq_track_key (loc, i).v[a]));
              w += 8;
              count++;
            }
          g_byte_array_set_size (out, (guint) (w - out->data));
          sq_store_be32 (out->data + count_pos, count);
        }
      for (guint b = 0; b < n_raw; b++)
        {
          g_autoptr(GVariant) block = g_variant_get_child_value (v, b);
          g_autoptr(GVariant) frames_v = g_variant_get_child_value (block, 1);
          g_autoptr(GVariant) payload_v = g_variant_get_child_value (block, 2);
          guint32 size;
          gsize n_frames, n_payload;
          const gint32 *frames;
          const guint8 *payload;

          g_variant_get_child (block, 0, "u", &size);
          frames = g_variant_get_fixed_array (frames_v, &n_frames, sizeof (gint32));
          payload = g_variant_get_fixed_array (payload_v, &n_payload, 1);
          if ((guint64) n_frames * size != n_payload)
            {
              g_set_error (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE,
                           _("Block %u is inconsistent (%zu records of %u bytes, %zu bytes)"),
                           b + 4, n_frames, size, n_payload);
              return NULL;
            }
          sq_put_be32 (out, size);
          sq_put_be32 (out, (guint32) n_frames);
          for (gsize k = 0; k < n_frames; k++)
            {
              sq_put_be32 (out, (guint32) frames[k]);
              if (size > 0)
                g_byte_array_append (out, payload + k * size, size);
            }
        }
    }

  if ((v = sq_props_get (clip->extra, "trailing")) != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_BYTESTRING))
    {
      gsize n;
      const guint8 *p = g_variant_get_fixed_array (v, &n, 1);
      g_byte_array_append (out, p, n);
    }

  g_clear_pointer (&prefault, _sq_prefault_finish);
  return _sq_pieces_take (g_byte_array_free_to_bytes (g_steal_pointer (&out)), g_steal_pointer (&refs));
}

static char *
seq_binary_describe_field (const char *key,
                           GVariant   *value)
{
  if (g_str_equal (key, "magic") && g_variant_is_of_type (value, G_VARIANT_TYPE_UINT32))
    return g_strdup_printf (_("the signature variant %08X"), g_variant_get_uint32 (value));
  if (g_str_equal (key, "blocks") && g_variant_is_of_type (value, G_VARIANT_TYPE ("a(uaiay)")))
    {
      gsize n = g_variant_n_children (value);
      if (n == 1)
        return g_strdup (_("block 4 after the location (facing)"));
      return g_strdup_printf (_("blocks 4–%zu after the location (facing and unknown data)"), 3 + n);
    }
  if (g_str_equal (key, "trailing"))
    return g_strdup_printf (_("%zu bytes after the last block"), g_variant_n_children (value));
  if (g_str_equal (key, "blocks-present"))
    return g_strdup (_("the absence of the block section"));
  if (g_str_equal (key, "location-blocks"))
    return g_strdup_printf (_("a location section of %u blocks"), g_variant_get_uint32 (value));
  if (g_str_equal (key, "model-field") || g_str_equal (key, "root-field") || g_str_equal (key, "name-field"))
    return g_strdup (_("the bytes after the end of a name"));
  if (g_str_equal (key, "no-entry"))
    return NULL;   /* structure only, nothing is lost */
  return NULL;
}

static const char *
block_title (guint n,
             guint32 size)
{
  if (n == 4 && size == 16)
    return _("facing quaternion W X Y Z");
  if (n == 9 && size == 16)
    return _("unknown quaternion W X Y Z");
  return _("unknown");
}

/* Blocks 4 and on, key by key, as the file holds them. */
static gboolean
seq_binary_dump_field (GString    *out,
                       const char *key,
                       GVariant   *value,
                       gboolean    json)
{
  if (g_str_equal (key, "magic") && g_variant_is_of_type (value, G_VARIANT_TYPE_UINT32))
    {
      if (json)
        g_string_append_printf (out, "\"%08X\"", g_variant_get_uint32 (value));
      else
        g_string_append_printf (out, _("Signature: %08X\n"), g_variant_get_uint32 (value));
      return TRUE;
    }
  if (g_str_equal (key, "blocks") && g_variant_is_of_type (value, G_VARIANT_TYPE ("a(uaiay)")))
    {
      gsize n_blocks = g_variant_n_children (value);

      if (json)
        g_string_append_c (out, '[');
      for (gsize b = 0; b < n_blocks; b++)
        {
          g_autoptr(GVariant) block = g_variant_get_child_value (value, b);
          g_autoptr(GVariant) frames_v = g_variant_get_child_value (block, 1);
          g_autoptr(GVariant) payload_v = g_variant_get_child_value (block, 2);
          guint32 size;
          gsize n, n_payload;
          const gint32 *frames;
          const guint8 *payload;
          guint n_floats;

          g_variant_get_child (block, 0, "u", &size);
          frames = g_variant_get_fixed_array (frames_v, &n, sizeof (gint32));
          payload = g_variant_get_fixed_array (payload_v, &n_payload, 1);
          n_floats = size % 4 == 0 ? size / 4 : 0;
          if (json)
            g_string_append_printf (out, "%s{\"block\":%zu,\"record_size\":%u,\"keys\":[",
                                    b > 0 ? "," : "", b + 4, size);
          else
            g_string_append_printf (out, _("Block %zu (%s): %zu keys of %u bytes\n"),
                                    b + 4, block_title (b + 4, size), n, size);
          for (gsize k = 0; k < n && (gsize) (k + 1) * size <= n_payload; k++)
            {
              const guint8 *rec = size > 0 ? payload + k * size : NULL;

              if (json)
                g_string_append_printf (out, "%s[", k > 0 ? "," : "");
              if (json)
                _sq_json_number (out, ((double) frames[k] - 1.0) / 30.0);
              else
                g_string_append_printf (out, "    %6d ", frames[k]);
              for (guint f = 0; f < n_floats; f++)
                {
                  double v = sq_float_bits_to_double (sq_read_be32 (rec + 4 * f));
                  if (json)
                    {
                      g_string_append_c (out, ',');
                      _sq_json_number (out, v);
                    }
                  else
                    {
                      char buf[G_ASCII_DTOSTR_BUF_SIZE];
                      g_string_append_printf (out, " %s", g_ascii_formatd (buf, sizeof buf, "%12.7g", v));
                    }
                }
              if (n_floats == 0)
                for (guint i = 0; i < size; i++)
                  g_string_append_printf (out, json ? ",%u" : " %02x", rec[i]);
              g_string_append (out, json ? "]" : "\n");
            }
          if (json)
            g_string_append (out, "]}");
        }
      if (json)
        g_string_append_c (out, ']');
      return TRUE;
    }
  return FALSE;
}

static const char * const seq_binary_extensions[] = { "seq", NULL };
static const char * const seq_binary_fields[] = {
  "magic", "model-field", "root-field", "blocks-present", "location-blocks", "blocks", "trailing",
  "name-field", "no-entry", NULL
};

const SqFormat _sq_format_seq_binary = {
  .id = "seq-binary",
  .name = N_("ActiveWorlds binary SEQ"),
  .extensions = seq_binary_extensions,
  .mime_type = "application/x-activeworlds-seq",
  .default_root = "pelvis",
  .flags = SQ_FORMAT_READ | SQ_FORMAT_WRITE | SQ_FORMAT_ROOT_APART,
  .fields = seq_binary_fields,
  .describe_field = seq_binary_describe_field,
  .dump_field = seq_binary_dump_field,
  .probe = seq_binary_probe,
  .read = seq_binary_read,
  .write = seq_binary_write,
  .space = &sq_space_aw_seq_binary,
  .world = &sq_world_aw,
};
