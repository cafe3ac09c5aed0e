/* sq-validate.h: invariants of the model, and what a target world accepts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"

G_BEGIN_DECLS

typedef enum
{
  SQ_SEVERITY_INFO,
  SQ_SEVERITY_WARNING,        /* the target ignores or changes it */
  SQ_SEVERITY_ERROR,          /* the target rejects it */
} SqSeverity;

typedef struct
{
  SqSeverity severity;
  gssize     joint;           /* index into clip->joints, or -1 */
  SqChannel  channel;
  gssize     key;             /* index into that joint's track, or -1 */
  char      *message;
} SqFinding;

/* Model invariants (sorted, distinct key times; finite times; consistent
 * side arrays). Every reader's result and every edit's result passes it. */
gboolean    sq_clip_check          (const SqClip *clip,
                                    GError      **error);

/* Target ids: the worlds' ids (sq-world.h): "aw" (ActiveWorlds), "sl"
 * (Second Life: the viewer's load checks and the upload limits, formats.md
 * 1.5-1.6), "sims". Each world's home validates; every target adds the
 * loop seam check. Returns SqFinding*s, NULL with an error for an unknown
 * target. */
GPtrArray  *sq_validate            (const SqClip *clip,
                                    const char   *target,
                                    GError      **error);
/* A looping clip whose pose at its loop-out point differs from the pose at
 * loop-in by more than this (degrees, per joint) gets a warning in every
 * target's validation */
#define SQ_LOOP_SEAM_DEGREES 2.0


/* TRUE when a finding is a warning or an error: the target would ignore or
 * reject part of the clip */
gboolean    sq_findings_have_errors (GPtrArray   *findings);
const char * const *sq_validate_targets (void);
/* An empty array of SqFinding*s that frees them (what sq_validate gives) */
GPtrArray  *sq_findings_new         (void);
/* For the worlds' validators: one finding appended to `findings` */
void        _sq_add_finding         (GPtrArray   *findings,
                                     SqSeverity   severity,
                                     gssize       joint,
                                     SqChannel    channel,
                                     gssize       key,
                                     const char  *format,
                                     ...) G_GNUC_PRINTF (6, 7);
G_END_DECLS
