/* test-keys.c: keys in the timeline: selecting them (click, Shift/Ctrl
 * click, a rubber band, the keyboard), deleting them, dragging them in
 * time (whole frames, never past a key that stays nor out of the clip,
 * Escape), copying and pasting them (flipped too); each edit the same
 * bytes as the core's, and undo and redo give the bytes back exactly
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sequin-test-ui.h"
#include "sequin-timeline-private.h"
#include "sequin-window-private.h"

#define FPS 30.0

typedef struct
{
  SequinWindow   *window;
  SequinTimeline *tl;
  gsize           left;    /* mShoulderLeft */
  gsize           right;   /* mShoulderRight */
} Fixture;

static const SqClip *
clip_of (Fixture *f)
{
  return sequin_test_window_clip (f->window);
}

static SequinDocument *
doc_of (Fixture *f)
{
  return sequin_window_get_document (f->window);
}

static GBytes *
bytes_of (const SqClip *clip)
{
  return sq_save_bytes (clip, sq_format_by_id ("sl-anim"), NULL, NULL, NULL);
}

static gboolean
same_bytes (const SqClip *a,
            const SqClip *b)
{
  g_autoptr(GBytes) x = bytes_of (a);
  g_autoptr(GBytes) y = bytes_of (b);

  return g_bytes_equal (x, y);
}

#define assert_same_bytes(a, b) g_assert_true (same_bytes (a, b))

static void
turn (double degrees,
      double q[4])
{
  q[0] = cos (degrees * G_PI / 360);
  q[1] = 0;
  q[2] = 0;
  q[3] = sin (degrees * G_PI / 360);
}

/* A new Second Life clip of 2 s at 30 fps; mShoulderLeft keyed at 0, 0.5,
 * 1, 1.5 and 2 s (keys 0 to 4, turned 0°, 10°, 20°, 30°, 0° about Z) before
 * it becomes the document (so nothing is to be undone) */
static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  SqClip *clip = sq_clip_new_for_world ("sl", 2.0, FPS, &error);
  g_autoptr(SequinDocument) doc = NULL;

  g_assert_no_error (error);
  f->left = (gsize) sq_clip_find_joint (clip, "mShoulderLeft");
  f->right = (gsize) sq_clip_find_joint (clip, "mShoulderRight");
  for (guint i = 1; i <= 3; i++)
    {
      double q[4];
      g_autoptr(SqEdit) edit = NULL;

      turn (10.0 * i, q);
      edit = sq_edit_set_rotation_new ("mShoulderLeft", 0.5 * i, q);
      g_assert_true (sq_edit_apply (edit, clip, NULL));
    }
  g_assert_cmpuint (clip->joints[f->left].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 5);
  f->window = sequin_test_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1200, 900);
  doc = sequin_document_new_for_clip (clip, "Keys");
  sequin_window_set_document (f->window, doc);
  f->tl = SEQUIN_TIMELINE (f->window->timeline);
  sequin_test_settle (100);
  sequin_timeline_zoom_to_fit (f->tl);
  sequin_timeline_select_joint (f->tl, (gssize) f->left);
  sequin_test_flush ();
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  sequin_test_window_destroy (f->window);
}

/* the widget point of key `index` of mShoulderLeft's rotation */
static void
key_point (Fixture *f,
           gsize    joint,
           gsize    index,
           double  *x,
           double  *y)
{
  const SqTrack *track = &clip_of (f)->joints[joint].tracks[SQ_CHANNEL_ROTATION];

  *x = _sequin_timeline_x_for_time (f->tl, sq_track_time (track, index));
  *y = _sequin_timeline_y_for_key (f->tl, joint, SQ_CHANNEL_ROTATION);
  g_assert_cmpfloat (*y, >, 40);
  g_assert_cmpfloat (*y, <, gtk_widget_get_height (GTK_WIDGET (f->tl)));
}

static void
click_key (Fixture         *f,
           gsize            index,
           GdkModifierType  state)
{
  double x, y;

  key_point (f, f->left, index, &x, &y);
  _sequin_timeline_press_full (f->tl, 1, x, y, state);
  _sequin_timeline_drag_begin_full (f->tl, x, y, state);
  _sequin_timeline_drag_end (f->tl, 0, 0);
}

/* the selected keys' indices (all of mShoulderLeft's rotation) as "1,2" */
static char *
selected (Fixture *f)
{
  gsize n;
  const SequinTimelineKey *keys = sequin_timeline_get_selected_keys (f->tl, &n);
  GString *out = g_string_new (NULL);

  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpuint (keys[i].joint, ==, f->left);
      g_assert_cmpint (keys[i].channel, ==, SQ_CHANNEL_ROTATION);
      g_assert_cmpfloat (keys[i].time, ==, sq_track_time (&clip_of (f)->joints[f->left].tracks[SQ_CHANNEL_ROTATION],
                                                          keys[i].index));
      g_string_append_printf (out, "%s%zu", i > 0 ? "," : "", keys[i].index);
    }
  return g_string_free (out, FALSE);
}

#define assert_selected(f, want) \
  G_STMT_START { g_autofree char *_got = selected (f); g_assert_cmpstr (_got, ==, want); } G_STMT_END

/* the two selected keys' times */
static void
assert_selected_times (Fixture *f,
                       double   first,
                       double   second)
{
  gsize n;
  const SequinTimelineKey *keys = sequin_timeline_get_selected_keys (f->tl, &n);

  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpfloat_with_epsilon (keys[0].time, first, 1e-9);
  g_assert_cmpfloat_with_epsilon (keys[1].time, second, 1e-9);
}

/* a rubber band from (x0, y0) to (x1, y1) */
static void
box (Fixture         *f,
     double           x0,
     double           y0,
     double           x1,
     double           y1,
     GdkModifierType  state)
{
  _sequin_timeline_press_full (f->tl, 1, x0, y0, state);
  _sequin_timeline_drag_begin_full (f->tl, x0, y0, state);
  _sequin_timeline_drag_update (f->tl, (x1 - x0) / 2, (y1 - y0) / 2);
  _sequin_timeline_drag_update (f->tl, x1 - x0, y1 - y0);
}

static void
test_select (Fixture       *f,
             gconstpointer  data)
{
  double x1, x3, y;
  g_autofree char *description = NULL;

  /* a click selects one key; Shift adds; Ctrl toggles */
  click_key (f, 1, 0);
  assert_selected (f, "1");
  click_key (f, 2, GDK_SHIFT_MASK);
  assert_selected (f, "1,2");
  click_key (f, 3, GDK_CONTROL_MASK);
  assert_selected (f, "1,2,3");
  click_key (f, 2, GDK_CONTROL_MASK);
  assert_selected (f, "1,3");
  /* a plain click on one of them keeps only it */
  click_key (f, 3, 0);
  assert_selected (f, "3");

  /* a rubber band from between keys 0 and 1 to between 3 and 4, over the
   * lane's row only: keys 1 to 3 */
  key_point (f, f->left, 1, &x1, &y);
  key_point (f, f->left, 3, &x3, &y);
  box (f, x1 - 10, y - 4, x3 + 10, y + 4, 0);
  assert_selected (f, "1,2,3");
  _sequin_timeline_drag_end (f->tl, 0, 0);
  /* Escape during a band puts the selection back as it was */
  click_key (f, 0, 0);
  box (f, x1 - 10, y - 4, x3 + 10, y + 4, GDK_SHIFT_MASK);
  assert_selected (f, "0,1,2,3");
  g_assert_true (_sequin_timeline_cancel_drag (f->tl));
  assert_selected (f, "0");
  _sequin_timeline_drag_end (f->tl, 0, 0);
  assert_selected (f, "0");

  /* the accessible description counts them; zoom and scrolling keep them */
  box (f, x1 - 10, y - 4, x3 + 10, y + 4, 0);
  _sequin_timeline_drag_end (f->tl, 0, 0);
  _sequin_timeline_zoom_at (f->tl, x1, 3.0);
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (f->tl)), 200);
  sequin_test_flush ();
  assert_selected (f, "1,2,3");
  description = gtk_test_accessible_check_property (GTK_ACCESSIBLE (f->tl), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "");
  g_assert_nonnull (strstr (description, "3 keys selected"));

  /* the keyboard: Ctrl+Right from key 3 to 4, Ctrl+Shift+Left adds 3,
   * Ctrl+A: every key of the joint */
  sequin_timeline_select_key (f->tl, (gssize) f->left, SQ_CHANNEL_ROTATION, 3);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->tl), "timeline.step-key", "i", 1));
  assert_selected (f, "4");
  g_assert_cmpfloat (sequin_timeline_get_time (f->tl), ==, 2.0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->tl), "timeline.extend-key", "i", -1));
  assert_selected (f, "3,4");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->tl), "timeline.select-all", NULL));
  assert_selected (f, "0,1,2,3,4");
  /* Escape lets them go */
  sequin_timeline_select_key (f->tl, -1, SQ_CHANNEL_ROTATION, -1);
  assert_selected (f, "");
}

/* keys 1 and 2 (0.5 s, 1 s) dragged: frames only, up to key 3 (1.5 s:
 * frame 44 at most for key 2) and down to key 0 (frame 1 for key 1) */
static void
test_drag (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(SqClip) before = sq_clip_copy (clip_of (f));
  g_autoptr(SqClip) expect = sq_clip_copy (clip_of (f));
  SqKeyRef refs[] = { { "mShoulderLeft", 0.5, SQ_KEY_REF_CHANNEL (SQ_CHANNEL_ROTATION) },
                      { "mShoulderLeft", 1.0, SQ_KEY_REF_CHANNEL (SQ_CHANNEL_ROTATION) } };
  g_autoptr(SqEdit) move = sq_edit_move_keys_new (refs, 2, 6 / FPS);
  double zoom = sequin_timeline_get_zoom (f->tl);
  double x, y;
  int frames, lo, hi, wanted;
  g_autofree char *text = NULL;

  click_key (f, 1, 0);
  click_key (f, 2, GDK_SHIFT_MASK);
  key_point (f, f->left, 2, &x, &y);
  _sequin_timeline_press_full (f->tl, 1, x, y, 0);
  _sequin_timeline_drag_begin_full (f->tl, x, y, 0);
  /* 6.3 frames to the right: 6 */
  _sequin_timeline_drag_update (f->tl, 6.3 / FPS * zoom, 2);
  g_assert_true (_sequin_timeline_get_move (f->tl, &frames, &lo, &hi, &wanted));
  g_assert_cmpint (frames, ==, 6);
  g_assert_cmpint (lo, ==, -14);
  g_assert_cmpint (hi, ==, 14);
  /* a second to the right: stopped a frame before key 3, and it says so */
  _sequin_timeline_drag_update (f->tl, 1.0 * zoom, 0);
  g_assert_true (_sequin_timeline_get_move (f->tl, &frames, NULL, NULL, &wanted));
  g_assert_cmpint (frames, ==, 14);
  g_assert_cmpint (wanted, ==, 30);
  text = gtk_test_accessible_check_property (GTK_ACCESSIBLE (f->tl), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "");
  g_assert_nonnull (strstr (text, "+14 frames: stopped by a key that is not selected"));
  /* and to the left, a frame after key 0 */
  _sequin_timeline_drag_update (f->tl, -1.0 * zoom, 0);
  g_assert_true (_sequin_timeline_get_move (f->tl, &frames, NULL, NULL, NULL));
  g_assert_cmpint (frames, ==, -14);
  /* the clip does not change while dragging; Escape cancels */
  assert_same_bytes (clip_of (f), before);
  g_assert_true (_sequin_timeline_cancel_drag (f->tl));
  _sequin_timeline_drag_end (f->tl, -1.0 * zoom, 0);
  assert_same_bytes (clip_of (f), before);
  g_assert_false (sequin_document_can_undo (doc_of (f)));
  assert_selected (f, "1,2");

  /* released at +6: one edit, the core's move; the keys stay selected */
  _sequin_timeline_press_full (f->tl, 1, x, y, 0);
  _sequin_timeline_drag_begin_full (f->tl, x, y, 0);
  _sequin_timeline_drag_update (f->tl, 6.3 / FPS * zoom, 2);
  _sequin_timeline_drag_end (f->tl, 6.3 / FPS * zoom, 2);
  g_assert_true (sq_edit_apply (move, expect, NULL));
  assert_same_bytes (clip_of (f), expect);
  assert_selected (f, "1,2");
  g_assert_cmpfloat_with_epsilon (sq_track_time (&clip_of (f)->joints[f->left].tracks[SQ_CHANNEL_ROTATION], 1),
                                  21 / FPS, 1e-12);
  g_assert_cmpstr (sequin_document_get_undo_label (doc_of (f)), ==, "Move Keys");

  /* undo and redo: the bytes exactly, the selection following the keys
   * back to their times and out again */
  g_assert_true (sequin_document_undo (doc_of (f)));
  assert_same_bytes (clip_of (f), before);
  assert_selected (f, "1,2");
  assert_selected_times (f, 0.5, 1.0);
  g_assert_true (sequin_document_redo (doc_of (f)));
  assert_same_bytes (clip_of (f), expect);
  assert_selected (f, "1,2");
  assert_selected_times (f, 0.5 + 6 / FPS, 1.0 + 6 / FPS);

  /* by keyboard: Alt+Right moves them a frame (one edit), Alt+Left back */
  {
    SequinTimelineKey keys[2] = { { f->left, SQ_CHANNEL_ROTATION, 1, 0 }, { f->left, SQ_CHANNEL_ROTATION, 2, 0 } };
    sequin_timeline_set_selected_keys (f->tl, keys, 2);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->tl), "timeline.nudge-keys", "i", 1));
  g_assert_cmpfloat_with_epsilon (sq_track_time (&clip_of (f)->joints[f->left].tracks[SQ_CHANNEL_ROTATION], 1),
                                  22 / FPS, 1e-12);
  assert_selected (f, "1,2");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->tl), "timeline.nudge-keys", "i", -1));
  assert_same_bytes (clip_of (f), expect);
  g_assert_true (sequin_document_undo (doc_of (f)));
  g_assert_true (sequin_document_undo (doc_of (f)));
  assert_same_bytes (clip_of (f), expect);

  /* the last key cannot go past the end: no frame to the right */
  click_key (f, 4, 0);
  key_point (f, f->left, 4, &x, &y);
  _sequin_timeline_drag_begin_full (f->tl, x, y, 0);
  _sequin_timeline_drag_update (f->tl, 20, 0);
  g_assert_true (_sequin_timeline_get_move (f->tl, &frames, NULL, &hi, NULL));
  g_assert_cmpint (hi, ==, 0);
  g_assert_cmpint (frames, ==, 0);
  _sequin_timeline_drag_end (f->tl, 20, 0);
  assert_same_bytes (clip_of (f), expect);
  /* nor by keyboard */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->tl), "timeline.nudge-keys", "i", 1));
  assert_same_bytes (clip_of (f), expect);
}

/* the figure's points now (3 per joint), copied */
static GArray *
figure (Fixture *f)
{
  gsize n = 0;
  const double *points = sequin_preview_get_figure (f->window->preview, &n, NULL);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (double));

  g_assert_nonnull (points);
  g_array_append_vals (out, points, (guint) (3 * n));
  return out;
}

static gboolean
same_figure (GArray *a,
             GArray *b)
{
  return a->len == b->len && memcmp (a->data, b->data, a->len * sizeof (double)) == 0;
}

/* while key 2 (1 s, 20°) is dragged to 1.2 s, the preview at 1.2 s shows
 * the arm as the moved key gives it; Escape gives the figure back */
static void
test_drag_preview (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GArray) before = NULL;
  g_autoptr(GArray) dragged = NULL;
  g_autoptr(GArray) after = NULL;
  g_autoptr(GArray) moved = NULL;
  g_autoptr(SqClip) expect = sq_clip_copy (clip_of (f));
  SqKeyRef ref = { "mShoulderLeft", 1.0, SQ_KEY_REF_CHANNEL (SQ_CHANNEL_ROTATION) };
  g_autoptr(SqEdit) move = sq_edit_move_keys_new (&ref, 1, 6 / FPS);
  double zoom = sequin_timeline_get_zoom (f->tl);
  double x, y;

  gtk_stack_set_visible_child_name (f->window->view_stack, "preview");
  sequin_playback_set_position (f->window->playback, 1.2);
  sequin_test_settle (200);
  before = figure (f);
  click_key (f, 2, 0);
  sequin_playback_set_position (f->window->playback, 1.2);
  sequin_test_flush ();
  key_point (f, f->left, 2, &x, &y);
  _sequin_timeline_drag_begin_full (f->tl, x, y, 0);
  _sequin_timeline_drag_update (f->tl, 6.2 / FPS * zoom, 0);
  dragged = figure (f);
  g_assert_false (same_figure (before, dragged));
  /* what the move gives, shown by the same preview */
  g_assert_true (sq_edit_apply (move, expect, NULL));
  sequin_preview_set_clip (f->window->preview, expect, 1.2, (gssize) f->left);
  moved = figure (f);
  g_assert_true (same_figure (dragged, moved));
  /* Escape: the clip as it is */
  g_assert_true (_sequin_timeline_cancel_drag (f->tl));
  after = figure (f);
  g_assert_true (same_figure (before, after));
  _sequin_timeline_drag_end (f->tl, 0, 0);
}

static void
test_delete (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(SqClip) before = sq_clip_copy (clip_of (f));
  g_autoptr(SqClip) expect = sq_clip_copy (clip_of (f));
  SqKeyRef refs[] = { { "mShoulderLeft", 0.5, SQ_KEY_REF_CHANNEL (SQ_CHANNEL_ROTATION) },
                      { "mShoulderLeft", 1.5, SQ_KEY_REF_CHANNEL (SQ_CHANNEL_ROTATION) } };
  g_autoptr(SqEdit) del = sq_edit_delete_key_list_new (refs, 2);

  click_key (f, 1, 0);
  click_key (f, 3, GDK_CONTROL_MASK);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (f->tl)));
  sequin_test_activate (f->window, "win.delete");
  g_assert_true (sq_edit_apply (del, expect, NULL));
  assert_same_bytes (clip_of (f), expect);
  g_assert_cmpuint (clip_of (f)->joints[f->left].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 3);
  /* the joint is still there, and the selection let its keys go */
  g_assert_cmpint (sq_clip_find_joint (clip_of (f), "mShoulderLeft"), ==, (gssize) f->left);
  assert_selected (f, "");
  g_assert_true (sequin_document_undo (doc_of (f)));
  assert_same_bytes (clip_of (f), before);
  g_assert_true (sequin_document_redo (doc_of (f)));
  assert_same_bytes (clip_of (f), expect);
}

/* keys 1 and 2 of the left shoulder copied; pasted at 1.5 s (onto keys 3
 * and 4) and flipped at 0 s onto the right shoulder */
static void
test_copy_paste (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(SqClip) before = sq_clip_copy (clip_of (f));
  g_autoptr(SqClip) expect = sq_clip_copy (clip_of (f));
  g_autoptr(SqPoseSequence) keys = sq_pose_sequence_new ("", "sl-anim");
  g_autoptr(SqEdit) paste = NULL;
  g_autoptr(SqEdit) flipped = NULL;
  g_autoptr(GBytes) pasted = NULL;
  const SqTrack *left, *right;
  SqKey a, b;

  g_assert_true (sq_pose_sequence_add_key (keys, 0, before, f->left, SQ_CHANNEL_ROTATION, 1));
  g_assert_true (sq_pose_sequence_add_key (keys, 0.5, before, f->left, SQ_CHANNEL_ROTATION, 2));
  paste = sq_edit_paste_keys_new (keys, 1.5, FALSE);
  flipped = sq_edit_paste_keys_new (keys, 0, TRUE);

  click_key (f, 1, 0);
  click_key (f, 2, GDK_SHIFT_MASK);
  sequin_test_activate (f->window, "win.copy");
  sequin_playback_set_position (f->window->playback, 1.5);
  sequin_test_activate (f->window, "win.paste");
  g_assert_true (sq_edit_apply (paste, expect, NULL));
  assert_same_bytes (clip_of (f), expect);
  left = &clip_of (f)->joints[f->left].tracks[SQ_CHANNEL_ROTATION];
  a = sq_track_key (left, 1);
  b = sq_track_key (left, 3);
  g_assert_cmpmem (a.v, sizeof a.v, b.v, sizeof b.v);
  a = sq_track_key (left, 2);
  b = sq_track_key (left, 4);
  g_assert_cmpmem (a.v, sizeof a.v, b.v, sizeof b.v);
  pasted = bytes_of (clip_of (f));

  /* flipped: the right shoulder gets them mirrored (Second Life's mirror
   * keeps w and y, negates x and z) */
  sequin_playback_set_position (f->window->playback, 0);
  sequin_test_activate (f->window, "win.paste-flipped");
  g_assert_true (sq_edit_apply (flipped, expect, NULL));
  assert_same_bytes (clip_of (f), expect);
  right = &clip_of (f)->joints[f->right].tracks[SQ_CHANNEL_ROTATION];
  left = &clip_of (f)->joints[f->left].tracks[SQ_CHANNEL_ROTATION];
  a = sq_track_key (left, 2);
  g_assert_cmpint (sq_track_find (right, 0.5), >=, 0);
  b = sq_track_key (right, (gsize) sq_track_find (right, 0.5));
  g_assert_cmpfloat_with_epsilon (b.v[0], a.v[0], 1e-12);
  g_assert_cmpfloat_with_epsilon (b.v[3], -a.v[3], 1e-12);
  g_assert_cmpfloat_with_epsilon (fabs (b.v[3]), sin (20 * G_PI / 360), 1e-9);

  /* undo, redo: bytes exactly */
  g_assert_true (sequin_document_undo (doc_of (f)));
  {
    g_autoptr(GBytes) now = bytes_of (clip_of (f));
    g_assert_true (g_bytes_equal (now, pasted));
  }
  g_assert_true (sequin_document_undo (doc_of (f)));
  assert_same_bytes (clip_of (f), before);
  g_assert_true (sequin_document_redo (doc_of (f)));
  g_assert_true (sequin_document_redo (doc_of (f)));
  assert_same_bytes (clip_of (f), expect);

  /* with no key selected, Ctrl+C copies the pose, and Ctrl+V pastes it */
  sequin_timeline_select_key (f->tl, -1, SQ_CHANNEL_ROTATION, -1);
  sequin_playback_set_position (f->window->playback, 0.5);
  sequin_test_activate (f->window, "win.copy");
  sequin_playback_set_position (f->window->playback, 1.0);
  sequin_test_activate (f->window, "win.paste");
  g_assert_cmpstr (sequin_document_get_undo_label (doc_of (f)), ==, "Paste Pose");
}

/* A read .anim (key times in 16-bit steps, between frames): two keys of
 * its first joint dragged as far right as they go land a frame short of the
 * next key's frame, and the core takes the move (no refusal) */
static void
test_drag_read_anim (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *path = sequin_test_corpus_path ("sl-anim/Kneel 1.anim");
  SequinTimeline *tl = SEQUIN_TIMELINE (window->timeline);
  const SqClip *clip;
  g_autoptr(SqClip) expect = NULL;
  const SqTrack *track;
  SequinTimelineKey keys[2] = { { 0 } };
  double x, y, next;
  int frames, hi;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 900);
  sequin_test_window_open (window, path);
  clip = sequin_test_window_clip (window);
  expect = sq_clip_copy (clip);
  track = &clip->joints[0].tracks[SQ_CHANNEL_ROTATION];
  g_assert_cmpuint (track->n_keys, >, 12);
  for (guint i = 0; i < 2; i++)
    {
      keys[i].joint = 0;
      keys[i].channel = SQ_CHANNEL_ROTATION;
      keys[i].index = 10 + i;
    }
  sequin_test_settle (100);
  sequin_timeline_set_selected_keys (tl, keys, 2);
  x = _sequin_timeline_x_for_time (tl, sq_track_time (track, 11));
  y = _sequin_timeline_y_for_key (tl, 0, SQ_CHANNEL_ROTATION);
  _sequin_timeline_drag_begin_full (tl, x, y, 0);
  _sequin_timeline_drag_update (tl, 400, 0);
  g_assert_true (_sequin_timeline_get_move (tl, &frames, NULL, &hi, NULL));
  g_assert_cmpint (frames, ==, hi);
  g_assert_cmpfloat (clip->fps, ==, FPS);
  next = sq_track_time (track, 12) * FPS;
  g_assert_cmpfloat (floor (sq_track_time (track, 11) * FPS + 0.5) + hi, ==, floor (next + 0.5) - 1);
  _sequin_timeline_drag_end (tl, 400, 0);
  g_assert_cmpstr (sequin_document_get_undo_label (sequin_window_get_document (window)), ==, "Move Keys");
  {
    SqKeyRef refs[] = { { expect->joints[0].name, sq_track_time (&expect->joints[0].tracks[SQ_CHANNEL_ROTATION], 10),
                          SQ_KEY_REF_CHANNEL (SQ_CHANNEL_ROTATION) },
                        { expect->joints[0].name, sq_track_time (&expect->joints[0].tracks[SQ_CHANNEL_ROTATION], 11),
                          SQ_KEY_REF_CHANNEL (SQ_CHANNEL_ROTATION) } };
    g_autoptr(SqEdit) move = sq_edit_move_keys_new (refs, 2, hi / clip->fps);

    g_assert_true (sq_edit_apply (move, expect, NULL));
    assert_same_bytes (sequin_test_window_clip (window), expect);
  }
  sequin_test_window_destroy (window);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  sequin_test_application ();
  g_test_add ("/keys/select", Fixture, NULL, fixture_set_up, test_select, fixture_tear_down);
  g_test_add ("/keys/drag", Fixture, NULL, fixture_set_up, test_drag, fixture_tear_down);
  g_test_add ("/keys/drag-preview", Fixture, NULL, fixture_set_up, test_drag_preview, fixture_tear_down);
  g_test_add ("/keys/delete", Fixture, NULL, fixture_set_up, test_delete, fixture_tear_down);
  g_test_add ("/keys/copy-paste", Fixture, NULL, fixture_set_up, test_copy_paste, fixture_tear_down);
  g_test_add_func ("/keys/drag-read-anim", test_drag_read_anim);
  return g_test_run ();
}
