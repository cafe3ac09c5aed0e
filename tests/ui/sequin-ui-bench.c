/* sequin-ui-bench.c: how fast the editor opens a large file and how long
 * each frame of timeline scrubbing, timeline zooming and tree scrolling
 * takes, and what Compare With… costs the window: an edit while comparing,
 * the frames while the comparison runs, a joint's curve (not a test: run
 * it by hand under Xvfb, see bench/README section of the top-level README)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: sequin-ui-bench [--open-only] FILE
 * --open-only: the open's figures alone (time and the editor's peak
 * resident memory over what it had before), for files as large as 500 MB
 * (bench/sequin-bench --sizes 500m --write-dir DIR makes them).
 * Frame work is the time from the frame clock's "before-paint" to its
 * "after-paint": update, layout, snapshot and render of one frame. 60 fps
 * needs it under 16.7 ms.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sequin-compare-window.h"
#include "sequin-posing.h"
#include "sequin-test-ui.h"
#include "sequin-timeline.h"
#include "sequin-window-private.h"

/* A field of /proc/self/status in kB, -1 when not there */
static long
status_kb (const char *field)
{
  g_autofree char *status = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) || (p = strstr (status, field)) == NULL)
    return -1;
  return strtol (p + strlen (field), NULL, 10);
}

/* The peak resident size (VmHWM) starts again from the resident size now */
static void
reset_peak (void)
{
  FILE *f = fopen ("/proc/self/clear_refs", "w");

  if (f != NULL)
    {
      fputs ("5", f);
      fclose (f);
    }
}

static gint64 paint_start;
static double paint_start_cpu;
static guint  n_painted;
static GArray *frame_work;   /* double, ms */
static GArray *frame_cpu;    /* double, ms: the window thread's CPU time in the same frames */

/* The CPU time of this (the window's) thread, ms: what a frame costs
 * whatever else runs on the machine */
static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
before_paint_cb (GdkFrameClock *clock,
                 gpointer       user_data)
{
  paint_start = g_get_monotonic_time ();
  paint_start_cpu = thread_cpu_ms ();
}

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       user_data)
{
  double ms = (g_get_monotonic_time () - paint_start) / 1000.0;
  double cpu = thread_cpu_ms () - paint_start_cpu;

  n_painted++;
  if (frame_work != NULL)
    g_array_append_val (frame_work, ms);
  if (frame_cpu != NULL)
    g_array_append_val (frame_cpu, cpu);
}

static void
next_frame (GtkWidget *widget)
{
  guint target = n_painted + 1;

  gtk_widget_queue_draw (widget);
  SEQUIN_TEST_WAIT_UNTIL (n_painted >= target);
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static void
report (const char *what)
{
  double *v = (double *) (void *) frame_work->data;
  guint n = frame_work->len;

  double *c = (double *) (void *) frame_cpu->data;

  qsort (v, n, sizeof (double), compare_double);
  qsort (c, frame_cpu->len, sizeof (double), compare_double);
  g_print ("%-34s %4u frames: median %6.2f ms, 95%% %6.2f ms, max %6.2f ms; the window thread's CPU: "
           "median %.2f, 95%% %.2f ms\n",
           what, n, v[n / 2], v[(n * 95) / 100], v[n - 1], c[frame_cpu->len / 2], c[(frame_cpu->len * 95) / 100]);
  g_array_set_size (frame_work, 0);
  g_array_set_size (frame_cpu, 0);
}

static GtkScrolledWindow *
find_scrolled (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkScrolledWindow *s = GTK_IS_SCROLLED_WINDOW (c) ? GTK_SCROLLED_WINDOW (c) : find_scrolled (c);
      if (s != NULL)
        return s;
    }
  return NULL;
}

/* Compare With… against the clip mirrored: the first comparison, then
 * edits while comparing (the window's work per edit, and each frame's
 * while the worker runs), then the selected joint's curve */
static void
bench_compare (SequinWindow *window,
               const SqClip *clip)
{
  g_autoptr(SqClip) other = sq_clip_copy (clip);
  g_autoptr(SqEdit) mirror = sq_edit_mirror_new ();
  SequinCompareWindow *compare;
  double edit_ms[5], most = 0, duration = clip->duration;
  gint64 t0;
  guint frames = 0;

  if (!sq_edit_apply (mirror, other, NULL))
    return;
  /* the same edits without a comparison, for reference */
  for (guint i = 0; i < 3; i++)
    {
      t0 = g_get_monotonic_time ();
      gtk_widget_activate_action (GTK_WIDGET (window), "win.invert-xz-all", NULL);
      g_print ("edit %u without comparing: %.1f ms in the window\n", i + 1, (g_get_monotonic_time () - t0) / 1000.0);
      next_frame (window->timeline);
    }
  for (guint i = 0; i < 3; i++)
    {
      SqClip *copy;

      t0 = g_get_monotonic_time ();
      copy = sq_clip_copy (clip);
      g_print ("a copy of the clip (what each comparison starts from): %.1f ms\n",
               (g_get_monotonic_time () - t0) / 1000.0);
      sq_clip_free (copy);
    }
  t0 = g_get_monotonic_time ();
  compare = sequin_compare_window_new (window, other, "mirrored");
  g_print ("compare: window up in %.1f ms; ", (g_get_monotonic_time () - t0) / 1000.0);
  while (!sequin_compare_window_is_current (compare))
    next_frame (window->timeline);
  g_print ("first comparison shown after %.0f ms (%zu keys)\n", (g_get_monotonic_time () - t0) / 1000.0,
           sq_clip_count_keys (clip));
  g_array_set_size (frame_work, 0);
  g_array_set_size (frame_cpu, 0);
  for (guint i = 0; i < G_N_ELEMENTS (edit_ms); i++)
    {
      t0 = g_get_monotonic_time ();
      gtk_widget_activate_action (GTK_WIDGET (window), "win.invert-xz-all", NULL);
      edit_ms[i] = (g_get_monotonic_time () - t0) / 1000.0;
      most = MAX (most, edit_ms[i]);
      /* scrub while the worker compares */
      t0 = g_get_monotonic_time ();
      while (!sequin_compare_window_is_current (compare))
        {
          sequin_timeline_set_time (SEQUIN_TIMELINE (window->timeline), duration * (frames++ % 120) / 120.0);
          next_frame (window->timeline);
        }
      g_print ("compare: edit %u: %.1f ms in the window, comparison shown %.0f ms later\n", i + 1, edit_ms[i],
               (g_get_monotonic_time () - t0) / 1000.0);
    }
  report ("frames while comparing");
  /* the selected joint's curve, drawn from the shown comparison */
  for (gsize j = 0; j < MIN (clip->n_joints, 20); j++)
    {
      t0 = g_get_monotonic_time ();
      sequin_joint_tree_select_joint (window->joint_tree, j);
      edit_ms[0] = (g_get_monotonic_time () - t0) / 1000.0;
      most = MAX (most, edit_ms[0]);
      next_frame (window->timeline);
    }
  report ("frames selecting joints (curve)");
  g_print ("compare: longest single step in the window %.1f ms\n", most);
  gtk_window_destroy (GTK_WINDOW (compare));
}

/* the times in `times` (ms): median, 95th percentile, max */
static void
report_times (const char *what,
              GArray     *times)
{
  double *v = (double *) (void *) times->data;
  guint n = times->len;

  qsort (v, n, sizeof (double), compare_double);
  g_print ("%-34s %4u steps: median %6.2f ms, 95%% %6.2f ms, max %6.2f ms\n",
           what, n, v[n / 2], v[(n * 95) / 100], v[n - 1]);
  g_array_set_size (times, 0);
}

/* Posing a joint in the middle of the clip at the playhead: the first edit
 * after opening (a packed track touched for the first time), then later
 * ones, each timed from the edit to the end of the frame that shows it;
 * then values typed into the Pose page, each to the end of its frame (what
 * dragging the joint's rotation does per step) */
static void
bench_posing (SequinWindow *window)
{
  SequinDocument *doc = sequin_window_get_document (window);
  const SqClip *clip = sequin_document_get_clip (doc);
  gsize joint = clip->n_joints / 2;
  double time = clip->duration / 2;
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  GtkWidget *spin;

  sequin_joint_tree_select_joint (window->joint_tree, joint);
  sequin_playback_set_position (window->playback, time);
  gtk_widget_set_visible (window->sidebar, TRUE);
  gtk_stack_set_visible_child_name (window->sidebar_stack, "properties");
  next_frame (GTK_WIDGET (window));
  g_array_set_size (frame_work, 0);
  g_array_set_size (frame_cpu, 0);
  for (guint i = 0; i < 31; i++)
    {
      double angles[3] = { 5.0 + i, 10, 0 }, q[4];
      int axes[3] = { 0, 1, 2 };
      gint64 t0 = g_get_monotonic_time ();
      double ms;

      sq_euler_to_quat (angles, axes, 3, q);
      g_assert_true (sequin_document_apply (doc, sq_edit_set_rotation_new (clip->joints[joint].name, time, q), NULL));
      /* the edit and everything the window does on it, before the frame */
      ms = (g_get_monotonic_time () - t0) / 1000.0;
      next_frame (GTK_WIDGET (window));
      if (i == 0)
        g_print ("%-34s %.2f ms in the window, then a frame of %.2f ms\n", "first posing edit", ms,
                 g_array_index (frame_work, double, frame_work->len - 1));
      else
        g_array_append_val (times, ms);
    }
  report_times ("later posing edits (in the window)", times);
  report ("frames after them");
  spin = sequin_posing_get_value_spin (window, 0);
  for (guint i = 0; i < 120; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double ms;

      gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), -60.0 + i);
      ms = (g_get_monotonic_time () - t0) / 1000.0;
      g_array_append_val (times, ms);
      next_frame (GTK_WIDGET (window));
    }
  report_times ("Pose page: a value (in the window)", times);
  report ("Pose page: its frames");
}

/* The preview's gizmo on a joint in the middle of the skeleton at the
 * middle of the clip: a drag about the world's Z (the pose shown live at
 * each pointer motion, no edit), each step timed from the motion to the
 * end of the frame that shows it (the motion's work plus the frame's);
 * then the release (the one edit and what the window does on it, then its
 * frame); then 30 more drags, each let go */
static void
bench_gizmo (SequinWindow *window)
{
  SequinDocument *doc = sequin_window_get_document (window);
  const SqClip *clip = sequin_document_get_clip (doc);
  SequinPreview *preview = window->preview;
  gsize joint = clip->n_joints / 2;
  g_autoptr(GArray) motion = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) step = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) releases = g_array_new (FALSE, FALSE, sizeof (double));
  double x0, y0, x, y;

  gtk_stack_set_visible_child_name (window->view_stack, "preview");
  sequin_joint_tree_select_joint (window->joint_tree, joint);
  sequin_playback_set_position (window->playback, clip->duration / 2);
  next_frame (GTK_WIDGET (window));
  SEQUIN_TEST_WAIT_UNTIL (gtk_widget_get_width (GTK_WIDGET (preview)) > 100);
  next_frame (GTK_WIDGET (window));
  g_print ("gizmo on %s at %.3f s (%s)\n", clip->joints[joint].name, clip->duration / 2,
           sequin_preview_has_rendered (preview) ? "OpenGL" : "cairo");
  for (guint drag = 0; drag < 31; drag++)
    {
      gint64 t0;
      double ms;

      /* a little way along (where it crosses no other ring) */
      if (!sequin_preview_gizmo_point (preview, 2, 0.06, &x0, &y0)
          || sequin_preview_gizmo_press (preview, x0, y0) != 2)
        g_error ("no gizmo to drag");
      g_array_set_size (frame_work, 0);
      for (guint i = 1; i <= (drag == 0 ? 120u : 6u); i++)
        {
          sequin_preview_gizmo_point (preview, 2, 0.06 + (drag == 0 ? 0.25 : 0.02) * i / (drag == 0 ? 120 : 6),
                                      &x, &y);
          t0 = g_get_monotonic_time ();
          sequin_preview_gizmo_motion (preview, x0, y0, x, y, FALSE);
          ms = (g_get_monotonic_time () - t0) / 1000.0;
          next_frame (GTK_WIDGET (preview));
          if (drag == 0)
            {
              g_array_append_val (motion, ms);
              ms += g_array_index (frame_work, double, frame_work->len - 1);
              g_array_append_val (step, ms);
            }
        }
      if (drag == 0)
        {
          report_times ("gizmo drag: the motion's work", motion);
          report ("gizmo drag: its frames");
          report_times ("gizmo drag: motion + frame", step);
        }
      t0 = g_get_monotonic_time ();
      sequin_preview_gizmo_release (preview);
      ms = (g_get_monotonic_time () - t0) / 1000.0;
      g_array_set_size (frame_work, 0);
      next_frame (GTK_WIDGET (window));
      if (drag == 0)
        g_print ("%-34s %.2f ms in the window, then a frame of %.2f ms\n", "gizmo release (first edit)", ms,
                 g_array_index (frame_work, double, frame_work->len - 1));
      else
        g_array_append_val (releases, ms);
    }
  report_times ("gizmo release (later edits)", releases);
  g_array_set_size (frame_work, 0);
}

/* SqLoadOptions.companion: the file `name` in the folder the file is in;
 * its bytes count with the file's */
typedef struct
{
  char  *dir;
  gsize  bytes;
} Beside;

static GBytes *
read_beside (const char *name,
             gpointer    user_data,
             GError    **error)
{
  Beside *beside = user_data;
  g_autofree char *path = g_build_filename (beside->dir, name, NULL);
  char *data = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &data, &len, error))
    return NULL;
  beside->bytes += len;
  return g_bytes_new_take (data, len);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  SequinWindow *window;
  GdkFrameClock *clock;
  const SqClip *clip;
  gint64 t0, t_doc, t_frame, t_parse;
  gsize size, keys;
  double duration;
  gboolean open_only = FALSE;
  long rss0;

  gtk_init ();
  if (argc == 3 && g_str_equal (argv[1], "--open-only"))
    {
      open_only = TRUE;
      argv[1] = argv[2];
      argc = 2;
    }
  if (argc != 2)
    {
      g_printerr ("Usage: sequin-ui-bench [--open-only] FILE\n");
      return 2;
    }

  /* the parse alone, for reference */
  bytes = sequin_test_read_bytes (argv[1]);
  size = g_bytes_get_size (bytes);
  t0 = g_get_monotonic_time ();
  {
    Beside beside = { g_path_get_dirname (argv[1]), 0 };
    SqLoadOptions options = { 0 };
    SqClip *c;

    /* a skill's CFP beside its CMX, as the editor reads it */
    options.companion = read_beside;
    options.companion_data = &beside;
    c = sq_load_bytes (bytes, argv[1], NULL, &options, NULL);
    size += beside.bytes;
    g_free (beside.dir);
    t_parse = g_get_monotonic_time () - t0;
    if (c == NULL)
      {
        g_printerr ("cannot read %s\n", argv[1]);
        return 1;
      }
    sq_clip_free (c);
  }
  /* the editor's memory from here: the bytes of the parse alone let go */
  g_clear_pointer (&bytes, g_bytes_unref);
  malloc_trim (0);
  reset_peak ();
  rss0 = status_kb ("VmRSS:");

  /* what `sequin FILE` does, timed to the first frame that shows it */
  file = g_file_new_for_commandline_arg (argv[1]);
  t0 = g_get_monotonic_time ();
  g_application_open (G_APPLICATION (sequin_test_application ()), &file, 1, "");
  SEQUIN_TEST_WAIT_UNTIL ((window = sequin_test_app_window ()) != NULL && gtk_widget_get_mapped (GTK_WIDGET (window)));
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint_cb), NULL);
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), NULL);
  SEQUIN_TEST_WAIT_UNTIL (sequin_window_get_document (window) != NULL
                          && sequin_document_get_clip (sequin_window_get_document (window)) != NULL);
  t_doc = g_get_monotonic_time ();
  next_frame (GTK_WIDGET (window));
  t_frame = g_get_monotonic_time ();

  clip = sequin_document_get_clip (sequin_window_get_document (window));
  keys = sq_clip_count_keys (clip);
  duration = clip->duration;
  g_print ("%s: %.1f MB, %zu joints, %zu keys\n", argv[1], size / 1e6, clip->n_joints, keys);
  g_print ("parse alone %.0f ms; open to document %.0f ms; document to first frame with the tree %.0f ms\n",
           t_parse / 1000.0, (t_doc - t0) / 1000.0, (t_frame - t_doc) / 1000.0);
  {
    long hwm = status_kb ("VmHWM:");

    g_print ("memory: peak resident %.1f MB while opening and showing it, %.1f MB (%.2f× the file) over the "
             "%.1f MB before\n", hwm / 1024.0, (hwm - rss0) / 1024.0, (hwm - rss0) * 1024.0 / (double) size,
             rss0 / 1024.0);
  }
  if (open_only)
    return 0;

  frame_work = g_array_new (FALSE, FALSE, sizeof (double));
  frame_cpu = g_array_new (FALSE, FALSE, sizeof (double));

  /* timeline: scrub across the whole clip at the fitted zoom */
  for (guint i = 0; i <= 120; i++)
    {
      sequin_timeline_set_time (SEQUIN_TIMELINE (window->timeline), duration * i / 120.0);
      next_frame (window->timeline);
    }
  report ("timeline scrub (fitted)");

  /* timeline: zoom in and out around the middle */
  {
    double z0 = sequin_timeline_get_zoom (SEQUIN_TIMELINE (window->timeline));
    for (guint i = 0; i < 120; i++)
      {
        double f = i < 60 ? pow (1.15, i) : pow (1.15, 119 - i);
        sequin_timeline_set_zoom (SEQUIN_TIMELINE (window->timeline), z0 * f);
        sequin_timeline_set_time (SEQUIN_TIMELINE (window->timeline), duration / 2);
        next_frame (window->timeline);
      }
    report ("timeline zoom (1x to 4000x)");
    sequin_timeline_set_zoom (SEQUIN_TIMELINE (window->timeline), z0 * 50);
    for (guint i = 0; i <= 120; i++)
      {
        sequin_timeline_set_time (SEQUIN_TIMELINE (window->timeline), duration * i / 120.0);
        next_frame (window->timeline);
      }
    report ("timeline scrub (zoomed 50x)");
  }

  /* tree: expand the first joint and scroll through its keys */
  sequin_joint_tree_expand_joint (window->joint_tree, 0, TRUE);
  next_frame (GTK_WIDGET (window));
  g_array_set_size (frame_work, 0);
  g_array_set_size (frame_cpu, 0);
  {
    GtkScrolledWindow *sw = find_scrolled (GTK_WIDGET (window->joint_tree));
    GtkAdjustment *adj = sw ? gtk_scrolled_window_get_vadjustment (sw) : NULL;

    for (guint i = 0; adj != NULL && i < 240; i++)
      {
        double step = gtk_adjustment_get_page_size (adj) * 0.5;
        double v = gtk_adjustment_get_value (adj) + (i < 200 ? step : step * 400);
        gtk_adjustment_set_value (adj, MIN (v, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj)));
        next_frame (GTK_WIDGET (window->joint_tree));
      }
    if (adj != NULL)
      report ("tree scroll (half pages, then jumps)");
  }

  /* the gizmo first: its release is the first edit after opening */
  if (g_getenv ("BENCH_NO_GIZMO") == NULL)
    bench_gizmo (window);
  bench_posing (window);
  if (g_getenv ("BENCH_POSING_ONLY") != NULL)
    return 0;
  bench_compare (window, sequin_document_get_clip (sequin_window_get_document (window)));

  window->force_close = TRUE;
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
