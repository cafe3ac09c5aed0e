/* sq-diff.h: how far apart two clips are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For each joint in either clip: the largest rotation difference (degrees)
 * and translation difference (the first clip's units) over the union of
 * both joints' key times, the values interpolated as the clips play them;
 * the joints one clip has and the other has not; the two durations. Clips
 * of two formats are both converted into Second Life's conventions first
 * (sq_convert: joint names through the joint map, metres, its axes, the
 * viewer's BVH import), so the differences are in its bones and metres.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"

G_BEGIN_DECLS

typedef struct
{
  char    *name;              /* the joint's name (in Second Life's names across formats) */
  gboolean in_a, in_b;
  double   rotation;          /* degrees; 0 for a joint in one clip only */
  double   rotation_time;     /* seconds, where the largest one is */
  double   translation;       /* file units (metres across formats) */
  double   translation_time;
  double  *peaks;             /* NULL, or SqDiff's n_peaks values: the largest rotation
                               * difference (degrees) in each of n_peaks equal spans of
                               * [0, MAX (duration_a, duration_b)] (joints in both only) */
} SqJointDiff;

typedef struct
{
  GArray *joints;             /* SqJointDiff: the first clip's joints in order, then the second's others */
  double  duration_a, duration_b;
  double  rotation;           /* the largest over the joints */
  double  translation;
  gsize   n_peaks;            /* the joints' peaks, 0 for none */
  char   *label_a, *label_b;  /* NULL, or what the JSON calls the clips ("a", "b") */
} SqDiff;

/* durations this close (seconds) are the same (F32 fields round) */
#define SQ_DIFF_DURATION_EPSILON 1e-6

SqDiff   *sq_diff_clips   (const SqClip *a,
                           const SqClip *b,
                           GError      **error);

/* Two clips made comparable once (within one format as they are, else
 * both converted into Second Life's conventions), for several questions:
 * the comparison of sq_diff_clips, a joint's curve. It borrows `a` and
 * `b`, which must outlive it and not change. */
typedef struct _SqDiffPair SqDiffPair;

SqDiffPair *sq_diff_pair_new   (const SqClip     *a,
                                const SqClip     *b,
                                GError          **error);
/* sq_diff_clips's result; with `n_peaks` > 0, every joint in both also
 * gets its peaks (its largest rotation difference in each of `n_peaks`
 * equal spans of time: at the key times within and at the span's middle),
 * a heat map of where the clips part, in the same pass */
SqDiff     *sq_diff_pair_diff  (const SqDiffPair *pair,
                                gsize             n_peaks);
/* How far apart joint `name` (a SqJointDiff's name) of the two clips is
 * at each of `n` times, as the comparison measures it: `rotation` (may be
 * NULL) gets degrees, `translation` (may be NULL) the distance. Its
 * largest value over the union of both joints' key times is the
 * SqJointDiff's. FALSE with an error when the joint is not in both. */
gboolean    sq_diff_pair_curve (const SqDiffPair *pair,
                                const char       *name,
                                const double     *times,
                                gsize             n,
                                double           *rotation,
                                double           *translation,
                                GError          **error);
/* The times to draw joint `name`'s curve at, ascending, without repeats:
 * `n_grid` (at least 2) equal steps over [0, `end`] and the joint's key
 * times in both clips as compared (where the comparison finds its largest
 * value), at most `max_keys` of each track; *n gets how many */
double     *sq_diff_pair_curve_times (const SqDiffPair *pair,
                                      const char       *name,
                                      double            end,
                                      gsize             n_grid,
                                      gsize             max_keys,
                                      gsize            *n);
void        sq_diff_pair_free  (SqDiffPair       *pair);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqDiffPair, sq_diff_pair_free)
/* The joint of `clip` (one of the two compared) that a SqJointDiff's
 * `name` stands for: the same name, or across formats the joint whose
 * Second Life name it is (through the joint maps); -1 when none */
gssize    sq_diff_find_joint  (const SqClip *clip,
                               const char   *name);
/* TRUE when no joint is in one clip only, the durations agree and every
 * joint is within `degrees` and `distance` */
gboolean  sq_diff_within  (const SqDiff *diff,
                           double        degrees,
                           double        distance);
/* What saving `clip` as a Second Life .anim does to its motion: the clip
 * against the .anim written from it and read back (U16 keys, F32 times; a
 * clip of another format converted as the viewer imports it). `losses`
 * (may be NULL) receives the conversion's lines (the importer's key
 * reduction among them); `notes` (may be NULL: they go to `losses`) the
 * lines that are no loss (the file's size against the upload limit);
 * `size` (may be NULL) the .anim's bytes. Second Life's home measures it
 * (worlds/sq-world-sl.c). */
SqDiff   *sq_diff_sl_loss (const SqClip *clip,
                           GPtrArray    *losses,
                           GPtrArray    *notes,
                           gsize        *size,
                           GError      **error);
char     *sq_diff_to_text (const SqDiff *diff);
char     *sq_diff_to_json (const SqDiff *diff);
void      sq_diff_free    (SqDiff       *diff);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqDiff, sq_diff_free)

G_END_DECLS
