/* test-motion-dialog.c: the Animation menu's dialogs check what is typed,
 * apply the core's motion edits through the document (undoable), and the
 * window's win.motion action opens them
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sequin-compare-window.h"
#include "sequin-motion-dialog.h"
#include "sequin-test-ui.h"
#include "sequin-timeline.h"
#include "sequin-window-private.h"

#define WALK "seq-binary/walk.seq"

static SequinDocument *
load_document (const char *name)
{
  SequinDocument *doc = sequin_test_load_document (name);

  if (doc == NULL)
    g_error ("corpus file %s not found (SEQUIN_CORPUS=%s)", name, g_getenv ("SEQUIN_CORPUS"));
  return doc;
}

static SequinMotionDialog *
dialog_new (SequinDocument  *doc,
            SequinMotionKind kind)
{
  SequinMotionDialog *dialog = sequin_motion_dialog_new (NULL, doc, kind);

  g_object_ref_sink (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static void
dialog_free (SequinMotionDialog *dialog)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_object_unref (dialog);
}

/* Each dialog with the values typed gives the core's edit; Undo reverts it */
static void
test_each_edit (void)
{
  static const struct
  {
    SequinMotionKind kind;
    const char      *text[2];
  } cases[] = {
    { SEQUIN_MOTION_MIRROR, { NULL, NULL } },
    { SEQUIN_MOTION_RESAMPLE, { "10", NULL } },
    { SEQUIN_MOTION_SPEED, { "2", NULL } },
    { SEQUIN_MOTION_TRIM, { "0.2", "0.8" } },
    { SEQUIN_MOTION_REVERSE, { NULL, NULL } },
    { SEQUIN_MOTION_REDUCE, { "1", "0.01" } },
    { SEQUIN_MOTION_CLOSE_LOOP, { NULL, NULL } },
  };
  g_autoptr(SequinDocument) doc = load_document (WALK);
  g_autoptr(SqClip) original = sq_clip_copy (sequin_document_get_clip (doc));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      SequinMotionDialog *dialog = dialog_new (doc, cases[i].kind);
      g_autoptr(SqClip) expect = sq_clip_copy (original);
      g_autoptr(GError) error = NULL;
      SqEdit *edits[] = {
        sq_edit_mirror_new (), sq_edit_resample_new (10), sq_edit_speed_new (2), sq_edit_trim_new (0.2, 0.8),
        sq_edit_reverse_new (), sq_edit_reduce_new (1, 0.01), sq_edit_close_loop_new (),
      };
      guint n = sequin_motion_dialog_get_n_fields (dialog);

      g_assert_cmpuint (n, ==, (cases[i].text[0] != NULL) + (cases[i].text[1] != NULL));
      for (guint f = 0; f < n; f++)
        sequin_motion_dialog_set_text (dialog, f, cases[i].text[f]);
      g_assert_true (sequin_motion_dialog_can_apply (dialog));
      g_assert_true (sequin_motion_dialog_apply (dialog, &error));
      g_assert_no_error (error);
      g_assert_true (sq_edit_apply (edits[cases[i].kind], expect, NULL));
      g_assert_true (sq_clip_equal (expect, sequin_document_get_clip (doc)));
      g_assert_cmpfloat (expect->duration, ==, sequin_document_get_clip (doc)->duration);
      if (cases[i].kind == SEQUIN_MOTION_REDUCE)
        {
          /* the dialog stays to tell the keys before and after */
          g_assert_cmpstr (sequin_motion_dialog_get_message (dialog), ==, sq_edit_get_report (edits[cases[i].kind]));
          g_assert_nonnull (strstr (sequin_motion_dialog_get_message (dialog), " keys before, "));
          g_assert_false (sequin_motion_dialog_can_apply (dialog));
        }
      g_assert_true (sequin_document_undo (doc));
      g_assert_true (sq_clip_equal (original, sequin_document_get_clip (doc)));
      g_assert_false (sequin_document_get_modified (doc));
      for (guint e = 0; e < G_N_ELEMENTS (edits); e++)
        sq_edit_free (edits[e]);
      dialog_free (dialog);
    }
}

/* What makes no sense is refused as typed, with the reason */
static void
test_checks (void)
{
  g_autoptr(SequinDocument) doc = load_document (WALK);
  SequinMotionDialog *dialog = dialog_new (doc, SEQUIN_MOTION_SPEED);

  /* it starts at what changes nothing, and says so */
  g_assert_cmpstr (sequin_motion_dialog_get_text (dialog, 0), ==, "1");
  g_assert_false (sequin_motion_dialog_can_apply (dialog));
  g_assert_nonnull (strstr (sequin_motion_dialog_get_message (dialog), "nothing would change"));
  sequin_motion_dialog_set_text (dialog, 0, "0");
  g_assert_false (sequin_motion_dialog_can_apply (dialog));
  g_assert_nonnull (strstr (sequin_motion_dialog_get_message (dialog), "above 0"));
  sequin_motion_dialog_set_text (dialog, 0, "fast");
  g_assert_false (sequin_motion_dialog_can_apply (dialog));
  g_assert_cmpstr (sequin_motion_dialog_get_message (dialog), ==, "Factor is not a number");
  sequin_motion_dialog_set_text (dialog, 0, "1.5");
  g_assert_true (sequin_motion_dialog_can_apply (dialog));
  g_assert_null (sequin_motion_dialog_get_message (dialog));
  dialog_free (dialog);

  dialog = dialog_new (doc, SEQUIN_MOTION_TRIM);
  g_assert_cmpstr (sequin_motion_dialog_get_text (dialog, 0), ==, "0");
  /* walk.seq lasts 1.1 s: as the window shows it */
  g_assert_cmpstr (sequin_motion_dialog_get_text (dialog, 1), ==, "1.100");
  sequin_motion_dialog_set_text (dialog, 0, "0.5");
  sequin_motion_dialog_set_text (dialog, 1, "0.5");
  g_assert_false (sequin_motion_dialog_can_apply (dialog));
  g_assert_nonnull (strstr (sequin_motion_dialog_get_message (dialog), "before the end"));
  sequin_motion_dialog_set_text (dialog, 1, "3");
  g_assert_false (sequin_motion_dialog_can_apply (dialog));
  g_assert_nonnull (strstr (sequin_motion_dialog_get_message (dialog), "within the animation"));
  dialog_free (dialog);

  dialog = dialog_new (doc, SEQUIN_MOTION_RESAMPLE);
  g_assert_cmpstr (sequin_motion_dialog_get_text (dialog, 0), ==, "30");
  sequin_motion_dialog_set_text (dialog, 0, "-24");
  g_assert_false (sequin_motion_dialog_can_apply (dialog));
  dialog_free (dialog);

  dialog = dialog_new (doc, SEQUIN_MOTION_REDUCE);
  sequin_motion_dialog_set_text (dialog, 1, "-1");
  g_assert_false (sequin_motion_dialog_can_apply (dialog));
  g_assert_nonnull (strstr (sequin_motion_dialog_get_message (dialog), "0 or more"));
  dialog_free (dialog);
  g_assert_false (sequin_document_get_modified (doc));
}

/* Trim takes frames, and its start from the playhead; the end as shown
 * is the clip's end exactly; a frame grid's note stays in the dialog */
static void
test_trim_frames (void)
{
  g_autoptr(SequinDocument) doc = load_document (WALK);
  g_autoptr(SqClip) expect = sq_clip_copy (sequin_document_get_clip (doc));
  g_autoptr(SqEdit) trim = sq_edit_trim_new (0.5, 1.1);
  SequinMotionDialog *dialog = dialog_new (doc, SEQUIN_MOTION_TRIM);
  g_autoptr(GError) error = NULL;

  sequin_motion_dialog_set_in_frames (dialog, TRUE);
  /* 1.1 s at 30 a second: frame 33 */
  g_assert_cmpstr (sequin_motion_dialog_get_text (dialog, 0), ==, "0");
  g_assert_cmpstr (sequin_motion_dialog_get_text (dialog, 1), ==, "33");
  sequin_motion_dialog_set_playhead (dialog, 0.5);
  sequin_motion_dialog_start_at_playhead (dialog);
  g_assert_cmpstr (sequin_motion_dialog_get_text (dialog, 0), ==, "15");
  sequin_motion_dialog_set_text (dialog, 1, "34");
  g_assert_false (sequin_motion_dialog_can_apply (dialog));
  g_assert_nonnull (strstr (sequin_motion_dialog_get_message (dialog), "0 to 1.100 s"));
  sequin_motion_dialog_set_text (dialog, 1, "33");
  /* back in seconds: the same times */
  sequin_motion_dialog_set_in_frames (dialog, FALSE);
  g_assert_cmpstr (sequin_motion_dialog_get_text (dialog, 0), ==, "0.500");
  g_assert_cmpstr (sequin_motion_dialog_get_text (dialog, 1), ==, "1.100");
  g_assert_true (sequin_motion_dialog_apply (dialog, &error));
  g_assert_no_error (error);
  g_assert_true (sq_edit_apply (trim, expect, NULL));
  g_assert_true (sq_clip_equal (expect, sequin_document_get_clip (doc)));
  g_assert_true (sequin_document_undo (doc));
  dialog_free (dialog);

  /* a resample between binary SEQ's frames: the dialog stays with the note */
  dialog = dialog_new (doc, SEQUIN_MOTION_RESAMPLE);
  sequin_motion_dialog_set_text (dialog, 0, "7");
  g_assert_true (sequin_motion_dialog_apply (dialog, NULL));
  g_assert_nonnull (strstr (sequin_motion_dialog_get_message (dialog), "not evenly apart"));
  g_assert_nonnull (strstr (sequin_motion_dialog_get_message (dialog), "the last pose is held"));
  g_assert_false (sequin_motion_dialog_can_apply (dialog));
  dialog_free (dialog);
}

/* The core has the last word: a loop with no length cannot be closed */
static void
test_core_refuses (void)
{
  g_autoptr(SequinDocument) doc = load_document (WALK);
  g_autoptr(GError) error = NULL;
  SequinMotionDialog *dialog;

  g_assert_true (sequin_document_apply (doc, sq_edit_sl_loop_new (TRUE, 0.5, 0.5), NULL));
  dialog = dialog_new (doc, SEQUIN_MOTION_CLOSE_LOOP);
  g_assert_true (sequin_motion_dialog_can_apply (dialog));
  g_assert_false (sequin_motion_dialog_apply (dialog, &error));
  g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (sequin_motion_dialog_get_message (dialog), ==, error->message);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  g_assert_cmpstr (sequin_document_get_undo_label (doc), ==, "Set Loop");
  dialog_free (dialog);
}

/* The window's action opens the dialog on its document */
static void
test_window_action (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *path = sequin_test_corpus_file (WALK);
  g_autoptr(SqClip) expect = NULL;
  g_autoptr(SqEdit) mirror = sq_edit_mirror_new ();
  SequinMotionDialog *dialog;

  g_assert_nonnull (path);
  sequin_test_window_open (window, path);
  expect = sq_clip_copy (sequin_test_window_clip (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.motion", "s", "mirror"));
  sequin_test_flush ();
  dialog = g_object_get_data (G_OBJECT (window), "sequin-motion-dialog");
  g_assert_nonnull (dialog);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Mirror");
  g_assert_true (sequin_motion_dialog_apply (dialog, NULL));
  sequin_test_flush ();
  g_assert_null (g_object_get_data (G_OBJECT (window), "sequin-motion-dialog"));
  g_assert_true (sq_edit_apply (mirror, expect, NULL));
  g_assert_true (sq_clip_equal (expect, sequin_test_window_clip (window)));
  g_assert_cmpstr (sequin_document_get_undo_label (sequin_window_get_document (window)), ==, "Mirror");

  /* the timeline fits the new length after Change Speed, its undo and redo */
  {
    SequinTimeline *timeline = SEQUIN_TIMELINE (window->timeline);
    SequinDocument *document = sequin_window_get_document (window);
    double fitted;

    gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    fitted = sequin_timeline_get_zoom (timeline);
    g_assert_cmpfloat (fitted, >, 0);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.motion", "s", "speed"));
    dialog = g_object_get_data (G_OBJECT (window), "sequin-motion-dialog");
    sequin_motion_dialog_set_text (dialog, 0, "2");
    g_assert_true (sequin_motion_dialog_apply (dialog, NULL));
    /* binary SEQ's frames: the keys between them moved, said in the dialog */
    g_assert_nonnull (strstr (sequin_motion_dialog_get_message (dialog), "nearest frame"));
    gtk_window_destroy (GTK_WINDOW (dialog));
    sequin_test_flush ();
    /* half as long: twice the pixels a second (the fit's cap allowing) */
    g_assert_cmpfloat (sequin_timeline_get_zoom (timeline), >, fitted * 1.5);
    g_assert_true (sequin_document_undo (document));
    sequin_test_flush ();
    g_assert_cmpfloat_with_epsilon (sequin_timeline_get_zoom (timeline), fitted, fitted * 1e-6);
    g_assert_true (sequin_document_redo (document));
    sequin_test_flush ();
    g_assert_cmpfloat (sequin_timeline_get_zoom (timeline), >, fitted * 1.5);
  }
  sequin_test_window_destroy (window);
}

/* Compare With…: the window's clip against its mirror image, a row per
 * joint, the largest first; a row selects its joint and time */
static void
test_compare (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *path = sequin_test_corpus_file (WALK);
  g_autoptr(SqClip) other = NULL;
  g_autoptr(SqEdit) mirror = sq_edit_mirror_new ();
  g_autoptr(SqDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *largest = NULL;
  SequinCompareWindow *compare;
  const SqJointDiff *worst = NULL;
  const SqClip *clip;

  g_assert_nonnull (path);
  sequin_test_window_open (window, path);
  clip = sequin_test_window_clip (window);
  other = sq_clip_copy (clip);
  g_assert_true (sq_edit_apply (mirror, other, NULL));
  diff = sq_diff_clips (clip, other, NULL);
  /* the largest rotation, then translation, then the first in file order */
  for (guint i = 0; i < diff->joints->len; i++)
    {
      const SqJointDiff *d = &g_array_index (diff->joints, SqJointDiff, i);

      if (worst == NULL || d->rotation > worst->rotation
          || (d->rotation == worst->rotation && d->translation > worst->translation))
        worst = d;
    }
  g_assert_cmpfloat (worst->rotation, >, 1.0);

  compare = sequin_compare_window_new (window, other, "mirrored.seq");
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
  g_object_ref_sink (compare);
  gtk_window_present (GTK_WINDOW (compare));
  g_assert_cmpuint (sequin_compare_window_get_n_rows (compare), ==, clip->n_joints);
  largest = g_strdup_printf ("Largest difference: rotation %.3g°", worst->rotation);
  g_assert_true (g_str_has_prefix (sequin_compare_window_get_summary (compare), largest));
  g_assert_true (g_str_has_prefix (sequin_compare_window_get_row_text (compare, 0), worst->name));
  sequin_compare_window_activate_row (compare, 0);
  sequin_test_flush ();
  g_assert_cmpint (sequin_joint_tree_get_current_joint (window->joint_tree), ==, sq_clip_find_joint (clip, worst->name));
  g_assert_cmpfloat_with_epsilon (sequin_timeline_get_time (SEQUIN_TIMELINE (window->timeline)), worst->rotation_time,
                                  1e-9);
  gtk_window_destroy (GTK_WINDOW (compare));
  g_object_unref (compare);

  /* against itself: nothing apart */
  compare = sequin_compare_window_new (window, clip, "itself");
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
  g_object_ref_sink (compare);
  g_assert_true (g_str_has_prefix (sequin_compare_window_get_summary (compare),
                                   "Largest difference: rotation 0°, translation 0."));
  gtk_window_destroy (GTK_WINDOW (compare));
  g_object_unref (compare);
  sequin_test_window_destroy (window);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/motion-dialog/each-edit", test_each_edit);
  g_test_add_func ("/motion-dialog/checks", test_checks);
  g_test_add_func ("/motion-dialog/trim-frames", test_trim_frames);
  g_test_add_func ("/motion-dialog/core-refuses", test_core_refuses);
  g_test_add_func ("/motion-dialog/window-action", test_window_action);
  g_test_add_func ("/motion-dialog/compare", test_compare);
  return g_test_run ();
}
