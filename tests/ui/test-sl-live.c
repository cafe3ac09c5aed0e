/* test-sl-live.c: Second Life end to end in the editor: Play Over… (the
 * combined motion in the preview, the winners strip under the timeline),
 * Skip First Frames…, and Export Continuously To… watched by a reader that
 * reads every version written and finds each complete and valid
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sequin-layer-strip.h"
#include "sequin-live-export.h"
#include "sequin-motion-dialog.h"
#include "sequin-play-over.h"
#include "sequin-test-ui.h"
#include "sequin-window-private.h"

#define KNEEL "sl-anim/Kneel 1.anim"

/* An AO stand written as a .anim by the core: mHead and mShoulderLeft at
 * priority 3, mTail1 too */
static char *
write_stand (void)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  const char *joints[] = { "mHead", "mShoulderLeft", "mTail1" };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (sequin_test_tmpdir (), "stand.anim", NULL);

  clip->duration = 2.0;
  for (guint i = 0; i < G_N_ELEMENTS (joints); i++)
    {
      SqJoint *joint = sq_clip_add_joint (clip, joints[i]);

      sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 0.0)->v[0] = 1;
      sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 2.0)->v[0] = 1;
    }
  sq_props_set (clip->extra, "priority", g_variant_new_int32 (3));
  sq_props_set (clip->extra, "ease-in", g_variant_new_double (0));
  bytes = sq_save_bytes (clip, sq_format_by_id ("sl-anim"), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  return path;
}

/* The strip's cell for `joint`, NULL when it has none */
static const char *
strip_cell (SequinWindow *window, const char *joint, const char **reason)
{
  GtkWidget *strip = sequin_play_over_get_strip (window);
  g_autofree char *prefix = g_strconcat (joint, ":", NULL);
  const char *text;

  for (guint i = 0; (text = sequin_layer_strip_get_cell (SEQUIN_LAYER_STRIP (strip), i, reason)) != NULL; i++)
    if (g_str_has_prefix (text, prefix))
      return text;
  return NULL;
}

/* A label of `widget` starts with `prefix` */
static gboolean
shows_prefix (GtkWidget  *widget,
              const char *prefix)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

  sequin_test_collect_labels (widget, texts);
  for (guint i = 0; i < texts->len; i++)
    if (g_str_has_prefix (texts->pdata[i], prefix))
      return TRUE;
  return FALSE;
}

static void
test_play_over (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *kneel = sequin_test_corpus_path (KNEEL);
  g_autofree char *stand = write_stand ();
  g_autoptr(GFile) stand_file = g_file_new_for_path (stand);
  g_autofree char *not_anim = g_build_filename (sequin_test_tmpdir (), "notes.anim", NULL);
  g_autoptr(GFile) not_anim_file = g_file_new_for_path (not_anim);
  g_autoptr(GError) error = NULL;
  const char *reason = NULL;
  const SqClip *clip;
  gsize n_figure = 0;
  gint32 kneel_priority;

  g_assert_true (g_file_set_contents (not_anim, "shopping list\n", -1, NULL));
  sequin_test_window_open (window, kneel);
  clip = sequin_test_window_clip (window);
  kneel_priority = sq_sl_joint_priority (clip, sq_clip_find_joint (clip, "mHead"));
  gtk_stack_set_visible_child_name (window->view_stack, "preview");
  sequin_test_flush ();
  sequin_preview_get_figure (window->preview, &n_figure, NULL);
  g_assert_cmpuint (n_figure, ==, clip->n_joints);

  /* the dialog through the window's action, then a file played over */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.motion", "s", "play-over"));
  sequin_test_flush ();
  g_assert_nonnull (sequin_play_over_get_dialog (window));
  /* read on a worker, as the dialog's Add… reads it; a file that is no
   * animation is said in the dialog */
  sequin_play_over_add_file_async (window, not_anim_file);
  sequin_play_over_add_file_async (window, stand_file);
  SEQUIN_TEST_WAIT_UNTIL (sequin_play_over_get_n (window) == 1);
  SEQUIN_TEST_WAIT_UNTIL (shows_prefix (sequin_play_over_get_dialog (window), "notes.anim: "));
  sequin_test_flush ();
  g_assert_cmpuint (sequin_play_over_get_n (window), ==, 1);
  g_assert_true (gtk_widget_get_visible (sequin_play_over_get_strip (window)));
  g_assert_true (sequin_test_shows (sequin_play_over_get_dialog (window), "stand.anim (priority 3)"));

  /* at 0 s Kneel 1 has not begun to ease in (0.1 s): the stand shows */
  g_assert_cmpstr (strip_cell (window, "mHead", &reason), ==, "mHead: stand.anim");
  g_assert_cmpstr (reason, ==, "(only it moves the joint)");
  /* at 1 s: Kneel 1 is at priority 4 on mHead: it wins there; mTail1 is the stand's */
  sequin_playback_set_position (window->playback, 1.0);
  sequin_test_flush ();
  g_assert_cmpint (kneel_priority, ==, 4);
  g_assert_cmpstr (strip_cell (window, "mHead", &reason), ==, "mHead: Kneel 1.anim");
  g_assert_cmpstr (reason, ==, "(priority 4 over stand.anim's 3)");
  g_assert_cmpstr (strip_cell (window, "mTail1", &reason), ==, "mTail1: stand.anim");
  g_assert_cmpstr (reason, ==, "(only it moves the joint)");
  /* the preview shows the combined motion: the kneel's joints and the tail */
  sequin_preview_get_figure (window->preview, &n_figure, NULL);
  g_assert_cmpuint (n_figure, ==, clip->n_joints + 1);

  /* an edit: the kneel's head down to priority 2, and the stand wins it */
  g_assert_true (sequin_document_apply (sequin_window_get_document (window),
                                        sq_edit_sl_joint_priority_new ("mHead", 2), &error));
  g_assert_no_error (error);
  sequin_test_flush ();
  g_assert_cmpstr (strip_cell (window, "mHead", &reason), ==, "mHead: stand.anim");
  g_assert_cmpstr (reason, ==, "(priority 3 over Kneel 1.anim's 2)");
  /* and back with Undo */
  sequin_test_activate (window, "win.undo");
  g_assert_cmpstr (strip_cell (window, "mHead", NULL), ==, "mHead: Kneel 1.anim");

  /* removed: the strip goes, the preview shows the clip alone again */
  sequin_play_over_remove (window, 0);
  sequin_test_flush ();
  g_assert_false (gtk_widget_get_visible (sequin_play_over_get_strip (window)));
  sequin_preview_get_figure (window->preview, &n_figure, NULL);
  g_assert_cmpuint (n_figure, ==, sequin_test_window_clip (window)->n_joints);
  sequin_test_window_destroy (window);
}

/* Skip First Frames… on a BVH whose frame 0 is the reference */
static void
test_skip_frames (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *path = sequin_test_corpus_path ("bvh/~walk_Male.bvh");
  SequinMotionDialog *dialog;
  gsize before;

  sequin_test_window_open (window, path);
  g_assert_cmpint (sq_bvh_reference_frame (sequin_test_window_clip (window), NULL), ==, SQ_BVH_REFERENCE_FIRST);
  before = sq_bvh_frame_count (sequin_test_window_clip (window), NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.motion", "s", "skip-frames"));
  sequin_test_flush ();
  dialog = g_object_get_data (G_OBJECT (window), "sequin-motion-dialog");
  g_assert_nonnull (dialog);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Skip First Frames");
  sequin_motion_dialog_set_text (dialog, 0, "0");
  g_assert_false (sequin_motion_dialog_can_apply (dialog));
  sequin_motion_dialog_set_text (dialog, 0, "1");
  g_assert_true (sequin_motion_dialog_can_apply (dialog));
  g_assert_true (sequin_motion_dialog_apply (dialog, NULL));
  sequin_test_flush ();
  g_assert_cmpuint (sq_bvh_frame_count (sequin_test_window_clip (window), NULL), ==, before - 1);
  g_assert_cmpint (sq_bvh_reference_frame (sequin_test_window_clip (window), NULL), !=, SQ_BVH_REFERENCE_FIRST);
  sequin_test_activate (window, "win.undo");
  g_assert_cmpuint (sq_bvh_frame_count (sequin_test_window_clip (window), NULL), ==, before);
  sequin_test_window_destroy (window);
}

/* ---- the watcher: a thread that reads the file as fast as it can ---- */

typedef struct
{
  char       *path;
  GMutex      lock;
  GPtrArray  *versions;   /* GBytes: each distinct content read, in order */
  guint       bad;        /* versions that were incomplete or invalid */
  char       *first_bad;
  gboolean    stop;
} Watcher;

static gpointer
watch_thread (gpointer data)
{
  Watcher *w = data;

  for (;;)
    {
      char *contents = NULL;
      gsize len = 0;
      gboolean stop;

      g_mutex_lock (&w->lock);
      stop = w->stop;
      g_mutex_unlock (&w->lock);
      if (stop)
        break;
      if (g_file_get_contents (w->path, &contents, &len, NULL))
        {
          g_autoptr(GBytes) bytes = g_bytes_new_take (contents, len);
          gboolean seen;

          g_mutex_lock (&w->lock);
          seen = w->versions->len > 0 && g_bytes_equal (bytes, w->versions->pdata[w->versions->len - 1]);
          g_mutex_unlock (&w->lock);
          if (!seen)
            {
              g_autoptr(GError) error = NULL;
              g_autoptr(SqClip) clip = sq_load_bytes (bytes, w->path, sq_format_by_id ("sl-anim"), NULL, &error);
              g_autoptr(GPtrArray) findings = clip != NULL ? sq_validate (clip, "sl", NULL) : NULL;
              gboolean valid = clip != NULL && findings != NULL;

              for (guint i = 0; valid && i < findings->len; i++)
                valid = ((SqFinding *) findings->pdata[i])->severity != SQ_SEVERITY_ERROR;
              g_mutex_lock (&w->lock);
              g_ptr_array_add (w->versions, g_bytes_ref (bytes));
              if (!valid)
                {
                  w->bad++;
                  if (w->first_bad == NULL)
                    w->first_bad = g_strdup (error != NULL ? error->message : "not valid for Second Life");
                }
              g_mutex_unlock (&w->lock);
            }
        }
      g_usleep (200);
    }
  return NULL;
}

static guint
versions_seen (Watcher *w)
{
  guint n;

  g_mutex_lock (&w->lock);
  n = w->versions->len;
  g_mutex_unlock (&w->lock);
  return n;
}

/* the last version the reader saw (it keeps them all) */
static GBytes *
last_version (Watcher *w)
{
  GBytes *b;

  g_mutex_lock (&w->lock);
  b = w->versions->len > 0 ? w->versions->pdata[w->versions->len - 1] : NULL;
  g_mutex_unlock (&w->lock);
  return b;
}

/* The bytes the core writes for the window's clip now */
static GBytes *
expected_bytes (SequinWindow *window)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = sq_save_bytes (sequin_test_window_clip (window), sq_format_by_id ("sl-anim"), NULL, NULL, &error);

  g_assert_no_error (error);
  return bytes;
}

static void
wait_written (SequinWindow *window, guint count)
{
  SEQUIN_TEST_WAIT_UNTIL (sequin_live_export_get_count (window) >= count && !sequin_live_export_is_busy (window));
}

static void
test_live_export (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *kneel = sequin_test_corpus_path (KNEEL);
  g_autofree char *target = g_build_filename (sequin_test_tmpdir (), "live", "kneel.anim", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (target);
  g_autoptr(GFile) bad_name = g_file_new_for_path ("/tmp/kneel.txt");
  g_autoptr(GError) error = NULL;
  SequinDocument *document;
  Watcher w = { .path = target };
  g_autofree char *dir = g_path_get_dirname (target);
  GThread *thread;
  const char *status;
  guint written;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_mutex_init (&w.lock);
  w.versions = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  thread = g_thread_new ("watcher", watch_thread, &w);
  sequin_test_window_open (window, kneel);
  document = sequin_window_get_document (window);

  g_assert_false (sequin_live_export_start (window, bad_name, &error));
  g_assert_nonnull (strstr (error->message, ".anim or .bvh"));
  g_clear_error (&error);
  g_assert_true (sequin_live_export_start (window, file, &error));
  g_assert_no_error (error);
  wait_written (window, 1);
  SEQUIN_TEST_WAIT_UNTIL (versions_seen (&w) >= 1);
  status = sequin_live_export_get_status (window);
  g_assert_true (g_str_has_prefix (status, "Exported "));
  g_assert_true (g_str_has_suffix (status, " to kneel.anim"));
  /* the indicator as assistive technology reads it */
  gtk_test_accessible_assert_property (sequin_live_export_get_indicator (window), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       status);

  /* edits one at a time: each one written, and read as written */
  for (gint32 p = 0; p <= 4; p++)
    {
      g_autoptr(GBytes) expect = NULL;

      g_assert_true (sequin_document_apply (document, sq_edit_sl_priority_new (p), &error));
      g_assert_no_error (error);
      wait_written (window, 2 + (guint) p);
      expect = expected_bytes (window);
      SEQUIN_TEST_WAIT_UNTIL (versions_seen (&w) > 0 && g_bytes_equal (last_version (&w), expect));
    }

  /* an edit Second Life rejects: the file stays, the indicator says why */
  written = sequin_live_export_get_count (window);
  {
    g_autoptr(GBytes) before = expected_bytes (window);
    g_autoptr(GBytes) now = NULL;

    g_assert_true (sequin_document_apply (document, sq_edit_rename_joint_new ("mHead", "mScreen"), &error));
    g_assert_no_error (error);
    SEQUIN_TEST_WAIT_UNTIL (!sequin_live_export_is_busy (window)
                            && strstr (sequin_live_export_get_status (window), "waits") != NULL);
    g_assert_nonnull (strstr (sequin_live_export_get_status (window), "mScreen"));
    g_assert_cmpuint (sequin_live_export_get_count (window), ==, written);
    now = sequin_test_read_bytes (target);
    g_assert_true (g_bytes_equal (now, before));
    sequin_test_activate (window, "win.undo");
    wait_written (window, written + 1);
    g_assert_true (g_str_has_prefix (sequin_live_export_get_status (window), "Exported "));
  }

  /* a burst of edits without waiting: writes never overlap, the last wins */
  for (guint i = 1; i <= 10; i++)
    g_assert_true (sequin_document_apply (document, sq_edit_sl_ease_new (0.05 * i, 0.2), &error));
  SEQUIN_TEST_WAIT_UNTIL (!sequin_live_export_is_busy (window));
  {
    g_autoptr(GBytes) expect = expected_bytes (window);
    g_autoptr(GBytes) now = sequin_test_read_bytes (target);

    g_assert_true (g_bytes_equal (now, expect));
    SEQUIN_TEST_WAIT_UNTIL (g_bytes_equal (last_version (&w), expect));
  }

  /* stopped: no more writes, no indicator */
  sequin_live_export_stop (window);
  written = sequin_live_export_get_count (window);
  g_assert_null (sequin_live_export_get_status (window));
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (sequin_live_export_get_indicator (window))));
  sequin_test_activate (window, "win.undo");
  sequin_test_settle (100);
  g_assert_cmpuint (sequin_live_export_get_count (window), ==, written);

  sequin_test_window_destroy (window);
  g_mutex_lock (&w.lock);
  w.stop = TRUE;
  g_mutex_unlock (&w.lock);
  g_thread_join (thread);
  /* every version the reader saw was a whole, valid .anim */
  g_test_message ("the reader saw %u versions", w.versions->len);
  g_assert_cmpuint (w.versions->len, >=, 8);
  g_assert_cmpstr (w.first_bad, ==, NULL);
  g_assert_cmpuint (w.bad, ==, 0);
  g_ptr_array_unref (w.versions);
  g_mutex_clear (&w.lock);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  sequin_test_application ();
  g_test_add_func ("/sl-live/play-over", test_play_over);
  g_test_add_func ("/sl-live/skip-frames", test_skip_frames);
  g_test_add_func ("/sl-live/live-export", test_live_export);
  return g_test_run ();
}
