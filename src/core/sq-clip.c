/* sq-clip.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-clip"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sq-clip.h"
#include "sq-format.h"
#include "sq-math.h"
#include "sq-clip-private.h"
#include "sq-memory.h"

/* ---- property lists ---------------------------------------------------- */

typedef struct
{
  char     *key;
  GVariant *value;
} SqProp;

struct _SqProps
{
  GArray *items;   /* SqProp */
};

static void
sq_prop_clear (gpointer data)
{
  SqProp *p = data;

  g_free (p->key);
  g_variant_unref (p->value);
}

SqProps *
sq_props_new (void)
{
  SqProps *props = g_new0 (SqProps, 1);

  props->items = g_array_new (FALSE, FALSE, sizeof (SqProp));
  g_array_set_clear_func (props->items, sq_prop_clear);
  return props;
}

void
sq_props_free (SqProps *props)
{
  if (props == NULL)
    return;
  g_array_unref (props->items);
  g_free (props);
}

SqProps *
sq_props_copy (const SqProps *props)
{
  SqProps *copy = sq_props_new ();

  for (guint i = 0; i < props->items->len; i++)
    {
      const SqProp *p = &g_array_index (props->items, SqProp, i);
      sq_props_set (copy, p->key, p->value);
    }
  return copy;
}

gboolean
sq_props_equal (const SqProps *a,
                const SqProps *b)
{
  if (a->items->len != b->items->len)
    return FALSE;
  for (guint i = 0; i < a->items->len; i++)
    {
      const SqProp *pa = &g_array_index (a->items, SqProp, i);
      const SqProp *pb = &g_array_index (b->items, SqProp, i);

      if (strcmp (pa->key, pb->key) != 0 || !g_variant_equal (pa->value, pb->value))
        return FALSE;
    }
  return TRUE;
}

static gssize
sq_props_index (const SqProps *props,
                const char    *key)
{
  for (guint i = 0; i < props->items->len; i++)
    if (strcmp (g_array_index (props->items, SqProp, i).key, key) == 0)
      return i;
  return -1;
}

void
sq_props_set (SqProps    *props,
              const char *key,
              GVariant   *value)
{
  gssize i = sq_props_index (props, key);

  g_return_if_fail (value != NULL);

  g_variant_ref_sink (value);
  if (i >= 0)
    {
      SqProp *p = &g_array_index (props->items, SqProp, i);
      g_variant_unref (p->value);
      p->value = value;
    }
  else
    {
      SqProp p = { g_strdup (key), value };
      g_array_append_val (props->items, p);
    }
}

void
sq_props_remove (SqProps    *props,
                 const char *key)
{
  gssize i = sq_props_index (props, key);

  if (i >= 0)
    g_array_remove_index (props->items, i);
}

GVariant *
sq_props_get (const SqProps *props,
              const char    *key)
{
  gssize i = sq_props_index (props, key);

  return i >= 0 ? g_array_index (props->items, SqProp, i).value : NULL;
}

guint
sq_props_get_uint (const SqProps *props,
                   const char    *key,
                   guint          fallback)
{
  GVariant *v = sq_props_get (props, key);

  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_UINT32))
    return g_variant_get_uint32 (v);
  return fallback;
}

gboolean
sq_props_get_bool (const SqProps *props,
                   const char    *key,
                   gboolean       fallback)
{
  GVariant *v = sq_props_get (props, key);

  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_BOOLEAN))
    return g_variant_get_boolean (v);
  return fallback;
}

gint64
sq_props_get_int (const SqProps *props,
                  const char    *key,
                  gint64         fallback)
{
  GVariant *v = sq_props_get (props, key);

  if (v == NULL)
    return fallback;
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT32))
    return g_variant_get_int32 (v);
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT32))
    return g_variant_get_uint32 (v);
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT64))
    return g_variant_get_int64 (v);
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_BOOLEAN))
    return g_variant_get_boolean (v);
  return fallback;
}

double
sq_props_get_double (const SqProps *props,
                     const char    *key,
                     double         fallback)
{
  GVariant *v = sq_props_get (props, key);

  return v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE) ? g_variant_get_double (v) : fallback;
}

gsize
sq_props_size (const SqProps *props)
{
  return props->items->len;
}

const char *
sq_props_key_at (const SqProps *props,
                 gsize          i)
{
  return g_array_index (props->items, SqProp, i).key;
}

GVariant *
sq_props_value_at (const SqProps *props,
                   gsize          i)
{
  return g_array_index (props->items, SqProp, i).value;
}

/* ---- tracks ------------------------------------------------------------- */

static SqKey *
sq_keys_alloc (SqKey *old,
               gsize  old_n,
               gsize  want)
{
  gsize bytes;

  if (!g_size_checked_mul (&bytes, want, sizeof (SqKey)))
    g_error ("%s: %" G_GSIZE_FORMAT " keys overflow the address space", G_STRFUNC, want);
  return _sq_huge_realloc (old, old_n * sizeof (SqKey), bytes);
}

/* ---- packed tracks ---- */

void
sq_track_pack (SqTrack          *track,
               const SqKeyCodec *codec,
               GBytes           *bytes,
               const guint8     *records,
               gsize             n,
               double            param)
{
  sq_track_clear (track);
  track->codec = codec;
  track->packed = records;
  track->packed_bytes = g_bytes_ref (bytes);
  track->packed_param = param;
  track->n_keys = n;
}

static void
sq_track_decode (const SqTrack *track,
                 SqKey         *out)
{
  const guint8 *rec = track->packed;

  for (gsize i = 0; i < track->n_keys; i++, rec += track->codec->stride)
    track->codec->key (track, rec, &out[i]);
}

SqKey *
sq_track_unpack (SqTrack *track)
{
  gsize n = track->n_keys;
  const SqTrack packed = *track;   /* its bytes held until the end */

  if (packed.codec == NULL)
    return track->keys;
  track->keys = sq_keys_alloc (NULL, 0, MAX (n, 1));
  track->alloc = MAX (n, 1);
  if (packed.codec->unpack == NULL)
    sq_track_decode (track, track->keys);
  track->codec = NULL;
  track->packed = NULL;
  track->packed_bytes = NULL;
  track->packed_param = 0.0;
  if (packed.codec->unpack != NULL)
    packed.codec->unpack (track, &packed);
  else if (packed.codec->unpacked != NULL)
    packed.codec->unpacked (track, &packed);
  g_bytes_unref (packed.packed_bytes);
  return track->keys;
}

const SqKey *
sq_track_peek (const SqTrack *track,
               SqKey        **tmp)
{
  *tmp = NULL;
  if (track->codec == NULL)
    return track->keys;
  *tmp = sq_keys_alloc (NULL, 0, MAX (track->n_keys, 1));
  sq_track_decode (track, *tmp);
  return *tmp;
}

static void
sq_track_grow (SqTrack *track,
               gsize    n)
{
  gsize want;

  sq_track_unpack (track);
  if (n <= track->alloc)
    return;
  want = MAX (n, track->alloc < 8 ? 8 : track->alloc * 2);
  track->keys = sq_keys_alloc (track->keys, track->n_keys, want);
  if (track->present != NULL)
    track->present = g_renew (guint8, track->present, want);
  if (track->alt != NULL)    /* 4 doubles a key: less than a key, no overflow */
    track->alt = _sq_huge_realloc (track->alt, track->n_keys * 4 * sizeof (double), want * 4 * sizeof (double));
  track->alloc = want;
}

void
sq_track_reserve (SqTrack *track,
                  gsize    n)
{
  sq_track_grow (track, n);
}

SqKey *
sq_track_append (SqTrack *track,
                 double   time)
{
  sq_track_grow (track, track->n_keys + 1);
  return _sq_track_push (track, time);
}

gsize
sq_track_lower_bound (const SqTrack *track,
                      double         time,
                      gsize          from,
                      gsize          to)
{
  gsize lo = from, hi = MIN (to, track->n_keys);

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (sq_track_time (track, mid) < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gssize
sq_track_find (const SqTrack *track,
               double         time)
{
  gsize i = sq_track_lower_bound (track, time, 0, track->n_keys);

  return i < track->n_keys && sq_track_time (track, i) == time ? (gssize) i : -1;
}

/* The first key at or after `time`, searched from `*cursor` on when the
 * keys before it are earlier (galloping: 1, 2, 4 … keys ahead, then a
 * binary search), else over the whole track; `*cursor` gets the answer */
static gsize
lower_bound_near (const SqTrack *track,
                  double         time,
                  gsize         *cursor)
{
  gsize lo = cursor != NULL ? MIN (*cursor, track->n_keys) : 0, hi, step = 1;

  if (lo > 0 && !(sq_track_time (track, lo - 1) < time))
    lo = 0;
  hi = lo;
  while (hi < track->n_keys && sq_track_time (track, hi) < time)
    {
      lo = hi + 1;
      hi = lo + step;
      step *= 2;
    }
  lo = sq_track_lower_bound (track, time, lo, MIN (hi, track->n_keys));
  if (cursor != NULL)
    *cursor = lo;
  return lo;
}

static gsize
bracket_near (const SqTrack *track,
              double         time,
              gsize         *next,
              double        *frac,
              gsize         *cursor)
{
  gsize i = lower_bound_near (track, time, cursor);
  double t0, t1;

  g_return_val_if_fail (track->n_keys > 0, 0);

  if (i >= track->n_keys)
    {
      *next = track->n_keys - 1;
      *frac = 0.0;
      return track->n_keys - 1;
    }
  t1 = sq_track_time (track, i);
  if (i == 0 || t1 == time)
    {
      *next = i;
      *frac = 0.0;
      return i;
    }
  t0 = sq_track_time (track, i - 1);
  *next = i;
  *frac = (time - t0) / (t1 - t0);
  return i - 1;
}

gsize
sq_track_bracket (const SqTrack *track,
                  double         time,
                  gsize         *next,
                  double        *frac)
{
  return bracket_near (track, time, next, frac, NULL);
}

void
sq_track_sample_near (const SqTrack *track,
                      SqChannel      channel,
                      double         time,
                      double         out[4],
                      gsize         *cursor)
{
  gsize a, b;
  double f;
  SqKey ka, kb;

  if (track->n_keys == 0)
    {
      static const double rest[SQ_N_CHANNELS][4] = {
        [SQ_CHANNEL_ROTATION] = { 1, 0, 0, 0 },
        [SQ_CHANNEL_TRANSLATION] = { 0, 0, 0, 0 },
        [SQ_CHANNEL_SCALE] = { 1, 1, 1, 0 },
      };
      memcpy (out, rest[channel], sizeof rest[channel]);
      return;
    }
  a = bracket_near (track, time, &b, &f, cursor);
  ka = sq_track_key (track, a);
  if (a == b)
    {
      memcpy (out, ka.v, 4 * sizeof (double));
      return;
    }
  kb = sq_track_key (track, b);
  if (channel == SQ_CHANNEL_ROTATION)
    sq_quat_slerp (ka.v, kb.v, f, out);
  else
    for (guint c = 0; c < 4; c++)
      out[c] = ka.v[c] + (kb.v[c] - ka.v[c]) * f;
}

void
sq_track_sample (const SqTrack *track,
                 SqChannel      channel,
                 double         time,
                 double         out[4])
{
  sq_track_sample_near (track, channel, time, out, NULL);
}

/* Inserts a zeroed key at `time` in order and returns its index; an existing
 * key at that time is returned as it is. */
gsize
sq_track_insert (SqTrack *track,
                 double   time)
{
  gsize lo;

  sq_track_unpack (track);   /* the caller writes the key */
  lo = sq_track_lower_bound (track, time, 0, track->n_keys);
  if (lo < track->n_keys && track->keys[lo].time == time)
    return lo;

  sq_track_append (track, time);
  if (lo + 1 < track->n_keys)
    {
      gsize tail = track->n_keys - 1 - lo;
      SqKey k = track->keys[track->n_keys - 1];

      memmove (&track->keys[lo + 1], &track->keys[lo], tail * sizeof (SqKey));
      track->keys[lo] = k;
      if (track->present != NULL)
        {
          guint8 p = track->present[track->n_keys - 1];
          memmove (&track->present[lo + 1], &track->present[lo], tail);
          track->present[lo] = p;
        }
      if (track->alt != NULL)
        {
          double a[4];
          memcpy (a, &track->alt[(track->n_keys - 1) * 4], sizeof a);
          memmove (&track->alt[(lo + 1) * 4], &track->alt[lo * 4], tail * 4 * sizeof (double));
          memcpy (&track->alt[lo * 4], a, sizeof a);
        }
    }
  return lo;
}

void
sq_track_remove (SqTrack *track,
                 gsize    index)
{
  gsize tail;

  g_return_if_fail (index < track->n_keys);
  sq_track_unpack (track);
  tail = track->n_keys - index - 1;
  memmove (&track->keys[index], &track->keys[index + 1], tail * sizeof (SqKey));
  if (track->present != NULL)
    memmove (&track->present[index], &track->present[index + 1], tail);
  if (track->alt != NULL)
    memmove (&track->alt[index * 4], &track->alt[(index + 1) * 4], tail * 4 * sizeof (double));
  track->n_keys--;
}

typedef struct
{
  SqKey  key;
  guint8 present;
  double alt[4];
} SqKeyRecord;

static int
sq_key_record_compare (gconstpointer a,
                       gconstpointer b,
                       gpointer      user_data G_GNUC_UNUSED)
{
  double ta = ((const SqKeyRecord *) a)->key.time;
  double tb = ((const SqKeyRecord *) b)->key.time;

  return ta < tb ? -1 : ta > tb ? 1 : 0;
}

/* Stable sort of the keys (and their side arrays) by time. */
void
sq_track_sort (SqTrack *track)
{
  g_autofree SqKeyRecord *recs = NULL;
  gboolean sorted = TRUE;

  if (track->codec != NULL)   /* packed keys are in order */
    return;
  for (gsize i = 1; i < track->n_keys && sorted; i++)
    if (track->keys[i - 1].time > track->keys[i].time)
      sorted = FALSE;
  if (sorted)
    return;

  recs = g_new (SqKeyRecord, track->n_keys);
  for (gsize i = 0; i < track->n_keys; i++)
    {
      recs[i].key = track->keys[i];
      recs[i].present = track->present ? track->present[i] : SQ_PRESENT_ALL;
      if (track->alt)
        memcpy (recs[i].alt, &track->alt[i * 4], sizeof recs[i].alt);
    }
  g_qsort_with_data (recs, track->n_keys, sizeof *recs, sq_key_record_compare, NULL);
  for (gsize i = 0; i < track->n_keys; i++)
    {
      track->keys[i] = recs[i].key;
      if (track->present)
        track->present[i] = recs[i].present;
      if (track->alt)
        memcpy (&track->alt[i * 4], recs[i].alt, sizeof recs[i].alt);
    }
}

void
sq_track_ensure_present (SqTrack *track)
{
  if (track->present != NULL)
    return;
  sq_track_unpack (track);
  track->present = g_new (guint8, MAX (track->alloc, 1));
  memset (track->present, SQ_PRESENT_ALL, track->n_keys);
}

void
sq_track_ensure_alt (SqTrack *track)
{
  if (track->alt != NULL)
    return;
  sq_track_unpack (track);
  track->alt = _sq_huge_realloc (NULL, 0, MAX (track->alloc, 1) * 4 * sizeof (double));
  for (gsize i = 0; i < track->n_keys * 4; i++)
    track->alt[i] = NAN;
}

void
sq_track_clear (SqTrack *track)
{
  g_free (track->keys);
  g_free (track->present);
  g_free (track->alt);
  if (track->packed_bytes != NULL)
    g_bytes_unref (track->packed_bytes);
  memset (track, 0, sizeof *track);
}

void
sq_track_copy (SqTrack       *dest,
               const SqTrack *src)
{
  memset (dest, 0, sizeof *dest);
  if (src->codec != NULL)
    {
      *dest = *src;
      g_bytes_ref (dest->packed_bytes);
      return;
    }
  dest->n_keys = dest->alloc = src->n_keys;
  dest->keys = g_memdup2 (src->keys, src->n_keys * sizeof (SqKey));
  if (src->present)
    dest->present = g_memdup2 (src->present, MAX (src->n_keys, 1));
  if (src->alt)
    dest->alt = g_memdup2 (src->alt, MAX (src->n_keys, 1) * 4 * sizeof (double));
}

static gboolean
sq_track_equal (const SqTrack *a,
                const SqTrack *b)
{
  if (a->n_keys != b->n_keys)
    return FALSE;
  /* bitwise, so NaNs and signed zeros compare as stored */
  if (a->codec != NULL && a->codec == b->codec && a->packed == b->packed
      && memcmp (&a->packed_param, &b->packed_param, sizeof (double)) == 0)
    return TRUE;   /* the same records (a copy) */
  if (a->codec == NULL && b->codec == NULL)
    {
      if (a->n_keys > 0 && memcmp (a->keys, b->keys, a->n_keys * sizeof (SqKey)) != 0)
        return FALSE;
    }
  else
    for (gsize i = 0; i < a->n_keys; i++)
      {
        SqKey ka = sq_track_key (a, i), kb = sq_track_key (b, i);
        if (memcmp (&ka, &kb, sizeof ka) != 0)
          return FALSE;
      }
  for (gsize i = 0; i < a->n_keys; i++)
    {
      guint8 pa = a->present ? a->present[i] : SQ_PRESENT_ALL;
      guint8 pb = b->present ? b->present[i] : SQ_PRESENT_ALL;
      if (pa != pb)
        return FALSE;
    }
  return TRUE;
}

/* ---- joints -------------------------------------------------------------- */

void
sq_joint_clear (SqJoint *joint)
{
  g_clear_pointer (&joint->name, g_free);
  for (guint c = 0; c < SQ_N_CHANNELS; c++)
    sq_track_clear (&joint->tracks[c]);
  g_clear_pointer (&joint->extra, sq_props_free);
}

void
sq_joint_copy (SqJoint       *dest,
               const SqJoint *src)
{
  dest->name = g_strdup (src->name);
  for (guint c = 0; c < SQ_N_CHANNELS; c++)
    sq_track_copy (&dest->tracks[c], &src->tracks[c]);
  dest->extra = sq_props_copy (src->extra);
  dest->generation = src->generation;
}

/* ---- clips --------------------------------------------------------------- */

static guint64 next_generation = 1;
G_LOCK_DEFINE_STATIC (generation);

guint64
_sq_clip_new_generation (void)
{
  guint64 g;

  G_LOCK (generation);
  g = next_generation++;
  G_UNLOCK (generation);
  return g;
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

SqClip *
sq_clip_new (void)
{
  SqClip *clip = g_new0 (SqClip, 1);

  clip->name = g_strdup ("");
  clip->root = g_strdup ("");
  clip->fps = 30.0;
  clip->extra = sq_props_new ();
  clip->warnings = g_ptr_array_new_with_free_func (g_free);
  clip->generation = clip->source_generation = _sq_clip_new_generation ();
  return clip;
}

void
sq_clip_free (SqClip *clip)
{
  if (clip == NULL)
    return;
  for (gsize i = 0; i < clip->n_joints; i++)
    sq_joint_clear (&clip->joints[i]);
  g_free (clip->joints);
  g_free (clip->name);
  g_free (clip->root);
  sq_props_free (clip->extra);
  g_ptr_array_unref (clip->warnings);
  g_clear_pointer (&clip->source, g_bytes_unref);
  g_strfreev (clip->takes);
  g_free (clip);
}

SqClip *
sq_clip_copy (const SqClip *clip)
{
  SqClip *copy = g_new0 (SqClip, 1);

  copy->format = clip->format;
  copy->name = g_strdup (clip->name);
  copy->root = g_strdup (clip->root);
  copy->duration = clip->duration;
  copy->fps = clip->fps;
  copy->frame_base = clip->frame_base;
  copy->n_joints = copy->joints_alloc = clip->n_joints;
  copy->joints = g_new0 (SqJoint, MAX (clip->n_joints, 1));
  for (gsize i = 0; i < clip->n_joints; i++)
    sq_joint_copy (&copy->joints[i], &clip->joints[i]);
  copy->extra = sq_props_copy (clip->extra);
  copy->warnings = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < clip->warnings->len; i++)
    g_ptr_array_add (copy->warnings, g_strdup (clip->warnings->pdata[i]));
  copy->source = clip->source ? g_bytes_ref (clip->source) : NULL;
  copy->generation = clip->generation;
  copy->source_generation = clip->source_generation;
  copy->takes = g_strdupv (clip->takes);
  copy->take = clip->take;
  return copy;
}

/* Equal content: header, joints, keys (bitwise), format fields. Warnings,
 * source bytes, generations and the list of the file's takes are not
 * content. */
gboolean
sq_clip_equal (const SqClip *a,
               const SqClip *b)
{
  if (g_strcmp0 (a->name, b->name) != 0 || g_strcmp0 (a->root, b->root) != 0)
    return FALSE;
  if (memcmp (&a->duration, &b->duration, sizeof (double)) != 0 || a->n_joints != b->n_joints)
    return FALSE;
  if (!sq_props_equal (a->extra, b->extra))
    return FALSE;
  for (gsize i = 0; i < a->n_joints; i++)
    {
      const SqJoint *ja = &a->joints[i], *jb = &b->joints[i];

      if (strcmp (ja->name, jb->name) != 0 || !sq_props_equal (ja->extra, jb->extra))
        return FALSE;
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        if (!sq_track_equal (&ja->tracks[c], &jb->tracks[c]))
          return FALSE;
    }
  return TRUE;
}

const char * const *
sq_clip_get_takes (const SqClip *clip,
                   gsize        *n_takes,
                   guint        *take)
{
  if (n_takes != NULL)
    *n_takes = clip->takes != NULL ? g_strv_length (clip->takes) : 0;
  if (take != NULL)
    *take = clip->take;
  return (const char * const *) clip->takes;
}

void
sq_clip_set_takes (SqClip             *clip,
                   const char * const *names,
                   guint               take)
{
  g_strfreev (clip->takes);
  clip->takes = g_strdupv ((char **) names);
  clip->take = take;
}

gboolean
sq_clip_is_modified (const SqClip *clip)
{
  return clip->generation != clip->source_generation;
}

void
sq_clip_add_warning (SqClip     *clip,
                     const char *format,
                     ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (clip->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

SqJoint *
sq_clip_add_held_joint (SqClip       *clip,
                        const char   *name,
                        const double  rotation[4],
                        const double *position)
{
  SqJoint *joint = sq_clip_add_joint (clip, name);
  double times[2] = { 0.0, clip->duration };

  for (guint i = 0; i < 2; i++)
    {
      memcpy (sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], times[i])->v, rotation, 4 * sizeof (double));
      if (position != NULL)
        memcpy (sq_track_append (&joint->tracks[SQ_CHANNEL_TRANSLATION], times[i])->v, position, 3 * sizeof (double));
    }
  return joint;
}

SqJoint *
sq_clip_add_joint (SqClip     *clip,
                   const char *name)
{
  SqJoint *joint;

  if (clip->n_joints == clip->joints_alloc)
    {
      clip->joints_alloc = MAX (8, clip->joints_alloc * 2);
      clip->joints = g_renew (SqJoint, clip->joints, clip->joints_alloc);
    }
  joint = &clip->joints[clip->n_joints++];
  memset (joint, 0, sizeof *joint);
  joint->name = g_strdup (name);
  joint->extra = sq_props_new ();
  return joint;
}

void
sq_clip_remove_joint (SqClip *clip,
                      gsize   index)
{
  g_return_if_fail (index < clip->n_joints);

  sq_joint_clear (&clip->joints[index]);
  memmove (&clip->joints[index], &clip->joints[index + 1],
           (clip->n_joints - index - 1) * sizeof (SqJoint));
  clip->n_joints--;
}

gssize
sq_clip_find_joint (const SqClip *clip,
                    const char   *name)
{
  for (gsize i = 0; i < clip->n_joints; i++)
    if (strcmp (clip->joints[i].name, name) == 0)
      return i;
  return -1;
}

/* The joint the root's motion belongs to: the header's root; when the
 * header leaves it blank, the format's own default ("pelvis" for
 * ActiveWorlds SEQ, as ActiveWorlds does), else the first joint. */
const char *
sq_clip_get_effective_root (const SqClip *clip)
{
  if (clip->root[0] != '\0')
    return clip->root;
  if (clip->format == NULL || clip->format->default_root != NULL)
    return clip->format ? clip->format->default_root : "pelvis";
  return clip->n_joints > 0 ? clip->joints[0].name : "";
}

gssize
sq_clip_get_root_index (const SqClip *clip)
{
  return sq_clip_find_joint (clip, sq_clip_get_effective_root (clip));
}

gsize
sq_clip_count_keys (const SqClip *clip)
{
  gsize n = 0;

  for (gsize i = 0; i < clip->n_joints; i++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      n += clip->joints[i].tracks[c].n_keys;
  return n;
}

int
sq_clip_time_to_frame (const SqClip *clip,
                       double        time)
{
  double f = floor (time * clip->fps + 0.5);

  if (!(f > -1e9 && f < 1e9))
    return 0;
  return (int) f + clip->frame_base;
}

guint
sq_clip_get_frame_count (const SqClip *clip)
{
  double f;

  f = floor (clip->duration * clip->fps + 0.5) + 1;
  return f >= 1 && f < G_MAXUINT ? (guint) f : 1;
}
