/* sequin-timeline-draw.h: what the timeline's widget and its drawing share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * sequin-timeline.c is the widget (state, input, scrolling, the public
 * API); sequin-timeline-draw.c paints it. Both read the same state and
 * geometry, declared here; nothing outside those two files includes this.
 */
#pragma once

#include "sequin-timeline.h"

G_BEGIN_DECLS

#define LANE_H          24.0
#define RULER_H         40.0
#define RULER_SPLIT     20.0      /* seconds above, frames below */
#define PAD_X           10.0      /* space before time 0 */
#define PAD_END         40.0      /* space after the end, for the last labels */
#define NAME_INDENT     18.0      /* room for the root badge */
#define NAMES_W_MIN     96.0
#define NAMES_W_MAX     220.0
#define NAMES_MEASURED  2000      /* names measured for the column width */
#define RUN_GAP         2.0       /* marks this close (px) merge into a band */
#define HIT_SLOP        3.0       /* px added to a mark's radius for hits */
#define WHEEL_STEP      48.0      /* px per wheel click */
#define ZOOM_WHEEL      1.25      /* zoom factor per wheel click */
#define ZOOM_DEFAULT    120.0
#define ZOOM_FIT_MAX    1500.0    /* a new short clip is not blown up beyond this */

struct _SequinTimeline
{
  GtkWidget           parent_instance;

  /* Borrowed references */
  const SqClip       *clip;

  /* Owned references */
  GtkAdjustment      *hadjustment;
  GtkAdjustment      *vadjustment;

  GtkScrollablePolicy hscroll_policy;
  GtkScrollablePolicy vscroll_policy;

  double              time;
  double              zoom;
  double              extent;        /* max (duration, last key time) */
  gboolean            fit_pending;   /* zoom to fit once there is a size */

  gssize              sel_joint;     /* -1: no selection */
  SqChannel           sel_channel;
  gssize              sel_key;

  double              names_w;       /* 0: to be measured */
  guint               names_font_hash; /* of the font and the names measured */

  double              pointer_x;
  double              pointer_y;

  gboolean            scrubbing;
  double              drag_start_x;
  double              drag_start_y;

  /* the selected keys (sequin-timeline-keys.c): SequinTimelineKey, sorted
   * by joint, channel and index, each once; sel_joint/channel/key above is
   * the current one of them (the last clicked or reached by keyboard) */
  GArray             *selection;
  /* a rubber band (a drag on empty lane space): its corners, and the
   * selection before it (kept with Shift or Ctrl held, back on Escape) */
  gboolean            boxing;
  gboolean            box_add;
  double              box_x0, box_y0, box_x1, box_y1;
  GArray             *box_base;
  gboolean            drag_on_key;   /* the drag began on a key */
  /* a drag of the selected keys in time: the frames they are offset by
   * (within the limits), the frames the pointer asks for, the limits */
  gboolean            moving;
  int                 move_frames;
  int                 move_wanted;
  int                 move_min;
  int                 move_max;
  double              move_t0, move_t1;  /* the earliest and latest selected key's time */
  gboolean            collapse_on_release; /* a plain press on one of several selected keys */
  int                 shift_pending; /* frames the selected keys move by in the next clip change */
  GPtrArray          *moves;         /* the selections before and after each move made here, newest last:
                                      * undo and redo of a move select the keys where they went */
  gboolean            on_key;        /* the playhead snapped to a key off the frames */
  gssize              lane;          /* the selected joint's lane (no key selected), or -1 */
};

/* helpers of sequin-timeline.c the drawing uses too */
double   _sequin_timeline_clip_fps           (const SqClip   *clip);
int      _sequin_timeline_clip_frame_base    (const SqClip   *clip);
int      _sequin_timeline_frame_of           (const SqClip   *clip,
                                              double          time);
/* first index >= from whose time is >= t */
gsize    _sequin_timeline_lower_bound        (const SqTrack  *track,
                                              double          t,
                                              gsize           from);
/* the same, searching forward from `from` by doubling steps */
gsize    _sequin_timeline_gallop             (const SqTrack  *track,
                                              double          t,
                                              gsize           from);
/* row index of a channel in its joint's lane, and the number of rows */
guint    _sequin_timeline_channel_row        (const SqJoint  *joint,
                                              SqChannel       channel,
                                              guint          *n_rows);
double   _sequin_timeline_mark_radius        (guint           n_rows);
double   _sequin_timeline_mark_half_width    (SequinTimeline *self,
                                              double          r);
double   _sequin_timeline_voffset            (SequinTimeline *self);
void     _sequin_timeline_ensure_names_width (SequinTimeline *self);
gboolean _sequin_timeline_has_selection      (SequinTimeline *self);
char    *_sequin_timeline_position_text      (SequinTimeline *self);

void     _sequin_timeline_update_accessible  (SequinTimeline *self);
/* emits ::moving with `frames` in seconds */
void     _sequin_timeline_emit_moving        (SequinTimeline *self,
                                              int             frames);
/* emits ::selection-changed */
void     _sequin_timeline_selection_changed  (SequinTimeline *self);
/* the current key (the selection is not changed) */
void     _sequin_timeline_set_current        (SequinTimeline *self,
                                              gssize          joint,
                                              SqChannel       channel,
                                              gssize          key);
/* the current key, in view, the playhead on it, ::key-selected emitted */
void     _sequin_timeline_focus_key          (SequinTimeline *self,
                                              gsize           joint,
                                              SqChannel       channel,
                                              gsize           key);

/* sequin-timeline-keys.c: the selection of keys */
void     _sequin_timeline_keys_init          (SequinTimeline *self);
void     _sequin_timeline_keys_finalize      (SequinTimeline *self);
gboolean _sequin_timeline_key_is_selected    (SequinTimeline *self,
                                              gsize           joint,
                                              SqChannel       channel,
                                              gsize           index);
/* after a clip change: each selected key found again by its time in its
 * track (edits move indices), dropped when it is gone */
void     _sequin_timeline_keys_clip_changed  (SequinTimeline *self);
/* the first selected key of joint `joint` or later (index into selection) */
guint    _sequin_timeline_first_selected_of  (SequinTimeline *self,
                                              gsize           joint);
/* the first selected key at or after key `index` of that track (or of a
 * later track); an index into selection */
guint    _sequin_timeline_selected_from      (SequinTimeline *self,
                                              gsize           joint,
                                              SqChannel       channel,
                                              gsize           index);
/* what a press at a key does with the modifiers held (the key is current) */
void     _sequin_timeline_keys_press         (SequinTimeline *self,
                                              gsize           joint,
                                              SqChannel       channel,
                                              gsize           index,
                                              GdkModifierType state);
/* drags: a rubber band from an empty lane, or the selection in time */
void     _sequin_timeline_box_begin          (SequinTimeline *self,
                                              double          x,
                                              double          y,
                                              GdkModifierType state);
void     _sequin_timeline_box_update         (SequinTimeline *self,
                                              double          x,
                                              double          y);
void     _sequin_timeline_move_begin         (SequinTimeline *self);
void     _sequin_timeline_move_update        (SequinTimeline *self,
                                              double          dx);
/* Escape: a drag goes back to where it began; FALSE when none was on */
gboolean _sequin_timeline_keys_cancel        (SequinTimeline *self);
/* the selected keys' times after a move by `frames` (as the core snaps
 * them), so that they are found there after the edit */
void     _sequin_timeline_keys_shift         (SequinTimeline *self,
                                              int             frames);
/* the drag's text, drawn beside it ("+3 frames", "stopped by a key") */
char    *_sequin_timeline_move_text          (SequinTimeline *self);
/* the keyboard: the previous or next key of the current key's joint and
 * channel (or the highlighted lane's), extending the selection or not */
void     _sequin_timeline_step_key           (SequinTimeline *self,
                                              int             direction,
                                              gboolean        extend);

/* GtkWidget::snapshot (sequin-timeline-draw.c) */
void     _sequin_timeline_snapshot           (GtkWidget      *widget,
                                              GtkSnapshot    *snapshot);

G_END_DECLS
