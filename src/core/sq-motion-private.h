/* sq-motion-private.h: how the motion edits (sq-motion.c) use the edit
 * journal of sq-edit.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sq-edit.h"

G_BEGIN_DECLS

typedef enum
{
  SQ_MOTION_MIRROR,
  SQ_MOTION_RESAMPLE,
  SQ_MOTION_SPEED,
  SQ_MOTION_TRIM,
  SQ_MOTION_REVERSE,
  SQ_MOTION_REDUCE,
  SQ_MOTION_CLOSE_LOOP,
} SqMotionOp;

/* sq-edit.c: a motion edit with its two parameters */
SqEdit     *_sq_edit_motion_new      (SqMotionOp    op,
                                      double        a,
                                      double        b);
SqMotionOp  _sq_edit_motion_op       (const SqEdit *edit,
                                      double        params[2]);
/* journal, before the change: a joint (copied once), the clip's property
 * list, the duration and frame rate */
void        _sq_edit_journal_joint   (SqEdit       *edit,
                                      SqClip       *clip,
                                      gsize         index);
void        _sq_edit_journal_extra   (SqEdit       *edit,
                                      SqClip       *clip);
void        _sq_edit_journal_timing  (SqEdit       *edit,
                                      SqClip       *clip);
/* takes `report` */
void        _sq_edit_set_report      (SqEdit       *edit,
                                      char         *report);

/* sq-motion.c: check, then change the clip through the journal */
gboolean    _sq_motion_apply         (SqEdit       *edit,
                                      SqClip       *clip,
                                      GError      **error);
const char *_sq_motion_label         (SqMotionOp    op);
char       *_sq_motion_describe      (SqMotionOp    op,
                                      const double  params[2]);

/* ---- the Sims world's edits (worlds/sq-sims-edit.c) ---- */

/* sq-edit.c: a world edit of operation `op` with its parameters, and them */
SqEdit     *_sq_edit_world_new       (int           op,
                                      const char   *name,
                                      const char   *new_name,
                                      double        number);
int         _sq_edit_world_op        (const SqEdit *edit,
                                      const char  **name,
                                      const char  **new_name,
                                      double       *number);
/* worlds/sq-sims-edit.c */
gboolean    _sq_sims_edit_apply      (SqEdit       *edit,
                                      SqClip       *clip,
                                      GError      **error);
const char *_sq_sims_edit_label      (const SqEdit *edit);
char       *_sq_sims_edit_describe   (const SqEdit *edit);

G_END_DECLS
