/* sq-clip.h: the document every format reads into and writes from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A clip is a list of joints; each joint has up to three tracks (rotation,
 * translation, scale) of keys at times in seconds. Whatever a format carries
 * that this model does not interpret is kept in `extra` property lists so that
 * it is written back untouched. The structs are public for reading (views and
 * writers walk them directly, with no copying); they are changed only through
 * the functions here and the edits of sq-edit.h. One owner, one free:
 * sq_clip_free() releases everything a clip holds.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SqFormat SqFormat;

typedef enum
{
  SQ_CHANNEL_ROTATION,        /* quaternion w, x, y, z */
  SQ_CHANNEL_TRANSLATION,     /* x, y, z in the file's units */
  SQ_CHANNEL_SCALE,           /* x, y, z */
  SQ_N_CHANNELS
} SqChannel;

typedef struct
{
  double time;                /* seconds from the start of the clip */
  double v[4];                /* rotation: w, x, y, z; translation and scale: x, y, z, 0 */
} SqKey;

/* Bits of SqTrack.present: which components of a key the file itself gave
 * (binary SEQ keeps its location axes in separate blocks). */
#define SQ_PRESENT_X   (1u << 0)
#define SQ_PRESENT_Y   (1u << 1)
#define SQ_PRESENT_Z   (1u << 2)
#define SQ_PRESENT_ALL (SQ_PRESENT_X | SQ_PRESENT_Y | SQ_PRESENT_Z)

/* A clip field (boolean): the clip has a hierarchy of its own, and its
 * translation keys add to the rest offsets rather than replace them (an
 * ActiveWorlds clip read back from glTF; posed so by sq-pose.c) */
#define SQ_TRANSLATIONS_ADD "translations-add"

typedef struct _SqKeyCodec SqKeyCodec;

typedef struct
{
  SqKey  *keys;              /* sorted by time, no two at the same time; NULL while
                               * the track is packed */
  gsize   n_keys;
  gsize   alloc;
  guint8 *present;            /* NULL, or one SQ_PRESENT_* mask per key */
  double *alt;                /* NULL, or 4 doubles per key: the format's own notation of
                               * the value (text SEQ axis-angle); a writer uses it while it
                               * still converts to exactly the key's value */
  /* A packed track keeps its keys as the file's own records (see
   * SqKeyCodec): n_keys records at `packed`, inside `packed_bytes`. */
  const SqKeyCodec *codec;    /* NULL unless packed */
  const guint8     *packed;
  GBytes           *packed_bytes;
  double            packed_param; /* what the codec needs besides the record (the
                                   * .anim duration the times scale by) */
} SqTrack;

/* How the keys of a packed track decode. A reader whose format stores keys
 * as fixed-size records (binary SEQ, .anim) may leave a track in that form:
 * the track then costs no memory beyond the file's bytes, and each key is
 * decoded when it is asked for (sq_track_key). The first change to the track
 * decodes all of its keys into `keys` (sq_track_unpack). Decoding must give
 * exactly what the reader would have stored, and times must strictly
 * increase. */
struct _SqKeyCodec
{
  gsize   stride;             /* bytes of a record */
  double (*time)     (const SqTrack *track,
                      const guint8  *record);
  void   (*key)      (const SqTrack *track,
                      const guint8  *record,
                      SqKey         *key);
  /* Optional: called once the keys are decoded into `keys` (the track is
   * no longer packed), with the track as it was (its records and their
   * bytes still held), to keep in `alt` what the keys do not give back. */
  void   (*unpacked) (SqTrack       *track,
                      const SqTrack *packed);
  /* Optional, instead of key and unpacked for the whole track: decodes
   * every key into `keys` (n_keys of them, allocated) and keeps in `alt`
   * what they do not give back, in one pass over the records */
  void   (*unpack)   (SqTrack       *track,
                      const SqTrack *packed);
  /* Optional: writes rotation or value `v` (not the time) into `record` as
   * the format holds it, so that a posing edit changes one record and the
   * track stays packed; FALSE when the record cannot hold it (the track
   * is then unpacked). Decoding the record afterwards gives the key. */
  gboolean (*encode) (const SqTrack *track,
                      const double   v[4],
                      guint8        *record);
};

typedef struct _SqProps SqProps;

typedef struct
{
  char    *name;              /* UTF-8 */
  SqTrack  tracks[SQ_N_CHANNELS];
  SqProps *extra;             /* format fields of this joint, never NULL */
  /* changes whenever an edit or an undo may have changed the joint (views
   * that keep what they made of its keys compare it); 0 for a new joint */
  guint64  generation;
} SqJoint;

typedef struct
{
  const SqFormat *format;     /* what it was read from; NULL for a clip built in memory */
  char      *name;            /* model name, UTF-8, "" when the format has none */
  char      *root;            /* root joint name as the file's header gives it, may be "" */
  double     duration;        /* seconds */
  double     fps;             /* frame rate used to number frames (30 for ActiveWorlds) */
  int        frame_base;      /* number of the frame at time 0 (1 for binary SEQ) */
  SqJoint   *joints;
  gsize      n_joints;
  gsize      joints_alloc;
  SqProps   *extra;           /* format fields of the file, never NULL */
  GPtrArray *warnings;        /* char *: what the reader noticed and accepted */
  GBytes    *source;          /* the bytes read, for exact saves of an unedited clip */
  guint64    generation;      /* changes with every edit and undo */
  guint64    source_generation;
  /* The animations ("takes") the file holds when it can hold several (a
   * .x's AnimationSets): their names in file order, NULL-terminated; NULL
   * for a format with one animation a file. `take` is the one this clip
   * is (SqLoadOptions.take). Read through sq_clip_get_takes(). */
  char     **takes;
  guint      take;
} SqClip;

SqClip     *sq_clip_new                (void);
void        sq_clip_free               (SqClip       *clip);
SqClip     *sq_clip_copy               (const SqClip *clip);
gboolean    sq_clip_equal              (const SqClip *a,
                                        const SqClip *b);
gboolean    sq_clip_is_modified        (const SqClip *clip);
void        sq_clip_add_warning        (SqClip       *clip,
                                        const char   *format,
                                        ...) G_GNUC_PRINTF (2, 3);
/* The takes of the file the clip was read from (names, "" for an unnamed
 * one) and in *n_takes how many; NULL and 0 when its format has one
 * animation a file. *take (may be NULL) gets the index of the clip's own. */
const char * const *sq_clip_get_takes  (const SqClip *clip,
                                        gsize        *n_takes,
                                        guint        *take);
/* For readers: the file's takes and which one the clip is */
void        sq_clip_set_takes          (SqClip       *clip,
                                        const char * const *names,
                                        guint         take);

SqJoint    *sq_clip_add_joint          (SqClip       *clip,
                                        const char   *name);
/* a new joint held at `rotation` (and `position`, when not NULL), keyed
 * at 0 and at the clip's duration (a new animation's rest pose) */
SqJoint    *sq_clip_add_held_joint     (SqClip       *clip,
                                        const char   *name,
                                        const double  rotation[4],
                                        const double *position);
void        sq_clip_remove_joint       (SqClip       *clip,
                                        gsize         index);
gssize      sq_clip_find_joint         (const SqClip *clip,
                                        const char   *name);
const char *sq_clip_get_effective_root (const SqClip *clip);
gssize      sq_clip_get_root_index     (const SqClip *clip);
gsize       sq_clip_count_keys         (const SqClip *clip);
guint       sq_clip_get_frame_count    (const SqClip *clip);
int         sq_clip_time_to_frame      (const SqClip *clip,
                                        double        time);

/* Tracks. Keys are read through sq_track_key / sq_track_time (or a whole
 * array with sq_track_peek); `keys` may be written only after
 * sq_track_unpack, or on a track built in memory. */
static inline SqKey
sq_track_key (const SqTrack *track,
              gsize          i)
{
  SqKey key;

  if (G_LIKELY (track->codec == NULL))
    return track->keys[i];
  track->codec->key (track, track->packed + i * track->codec->stride, &key);
  return key;
}

static inline double
sq_track_time (const SqTrack *track,
               gsize          i)
{
  if (G_LIKELY (track->codec == NULL))
    return track->keys[i].time;
  return track->codec->time (track, track->packed + i * track->codec->stride);
}

static inline gboolean
sq_track_is_packed (const SqTrack *track)
{
  return track->codec != NULL;
}

/* Leaves the track holding `n` records at `records` (inside `bytes`, which
 * it references) decoded by `codec`, replacing what it held. */
void        sq_track_pack              (SqTrack      *track,
                                        const SqKeyCodec *codec,
                                        GBytes       *bytes,
                                        const guint8 *records,
                                        gsize         n,
                                        double        param);
/* Decodes a packed track's keys into `keys`; returns `keys`. */
SqKey      *sq_track_unpack            (SqTrack      *track);
/* All keys as one array: the track's own, or, for a packed track, decoded
 * into a new array left in *tmp for the caller to free. */
const SqKey *sq_track_peek             (const SqTrack *track,
                                        SqKey       **tmp);
void        sq_track_reserve           (SqTrack      *track,
                                        gsize         n);
SqKey      *sq_track_append            (SqTrack      *track,
                                        double        time);
gsize       sq_track_insert            (SqTrack      *track,
                                        double        time);
/* Takes key `index` out, with its side arrays. */
void        sq_track_remove            (SqTrack      *track,
                                        gsize         index);
gssize      sq_track_find              (const SqTrack *track,
                                        double        time);
/* The first key in [from, to) whose time is at or after `time` (`to` when
 * none): binary search over the sorted keys. */
gsize       sq_track_lower_bound       (const SqTrack *track,
                                        double        time,
                                        gsize         from,
                                        gsize         to);
/* The keys around `time`: returns the one before (or at) it, `next` the one
 * after, `frac` how far between; both the same key beyond the ends. The
 * track must have keys. */
gsize       sq_track_bracket           (const SqTrack *track,
                                        double        time,
                                        gsize        *next,
                                        double       *frac);
/* The value at `time`: slerp for rotations, linear otherwise, held beyond
 * the ends; the rest value (identity, zero, one) for an empty track. */
void        sq_track_sample            (const SqTrack *track,
                                        SqChannel     channel,
                                        double        time,
                                        double        out[4]);
/* The same for times asked in order: `cursor` (0 at first) keeps where the
 * last one was, so that each search starts there (a curve over a track of
 * many keys costs a step per key, not a search per time) */
void        sq_track_sample_near       (const SqTrack *track,
                                        SqChannel     channel,
                                        double        time,
                                        double        out[4],
                                        gsize        *cursor);
void        sq_track_sort              (SqTrack      *track);
void        sq_track_ensure_present    (SqTrack      *track);
void        sq_track_ensure_alt        (SqTrack      *track);
void        sq_track_clear             (SqTrack      *track);
void        sq_track_copy              (SqTrack      *dest,
                                        const SqTrack *src);

void        sq_joint_clear             (SqJoint      *joint);
void        sq_joint_copy              (SqJoint      *dest,
                                        const SqJoint *src);

/* Property lists: an ordered key → GVariant map for format fields. */
SqProps    *sq_props_new               (void);
void        sq_props_free              (SqProps      *props);
SqProps    *sq_props_copy              (const SqProps *props);
gboolean    sq_props_equal             (const SqProps *a,
                                        const SqProps *b);
void        sq_props_set               (SqProps      *props,
                                        const char   *key,
                                        GVariant     *value);
void        sq_props_remove            (SqProps      *props,
                                        const char   *key);
GVariant   *sq_props_get               (const SqProps *props,
                                        const char   *key);
guint       sq_props_get_uint          (const SqProps *props,
                                        const char   *key,
                                        guint         fallback);
gboolean    sq_props_get_bool          (const SqProps *props,
                                        const char   *key,
                                        gboolean      fallback);
/* Whole numbers of any integer or boolean type, and doubles */
gint64      sq_props_get_int           (const SqProps *props,
                                        const char   *key,
                                        gint64        fallback);
double      sq_props_get_double        (const SqProps *props,
                                        const char   *key,
                                        double        fallback);
gsize       sq_props_size              (const SqProps *props);
const char *sq_props_key_at            (const SqProps *props,
                                        gsize         i);
GVariant   *sq_props_value_at          (const SqProps *props,
                                        gsize         i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqClip, sq_clip_free)

G_END_DECLS
