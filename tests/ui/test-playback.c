/* test-playback.c: SequinPlayback, alone and as the window's playhead
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sequin-playback.h"
#include "sequin-test-ui.h"
#include "sequin-window-private.h"

#define WALK "seq-binary/walk.seq"
/* .anim files looping from 0 to 0.93 s, and holding the pose at 2.56 s */
#define LOOPING "sl-anim/05ddbff8-aaa9-92a1-2b74-8fe77a29b445.dat"
#define HELD    "sl-anim/038fcec9-5ebd-8a8e-0e2e-6e71a0a1ac53.dat"

/* advancing: rate times the time, around in a loop, else stopping at the end */
static void
test_advance (void)
{
  GtkWidget *widget = g_object_ref_sink (gtk_label_new (NULL));
  SequinPlayback *playback = sequin_playback_new (widget);

  g_assert_false (sequin_playback_get_playing (playback));
  /* nothing plays without a duration */
  sequin_playback_play (playback);
  g_assert_false (sequin_playback_get_playing (playback));

  sequin_playback_set_duration (playback, 2.0);
  sequin_playback_set_position (playback, 1.5);
  g_assert_true (sequin_playback_get_loop (playback));
  sequin_playback_advance (playback, 1.0);
  g_assert_cmpfloat_with_epsilon (sequin_playback_get_position (playback), 0.5, 1e-12);
  sequin_playback_set_rate (playback, 2.0);
  sequin_playback_advance (playback, 0.25);
  g_assert_cmpfloat_with_epsilon (sequin_playback_get_position (playback), 1.0, 1e-12);

  /* at the end: playing starts from 0; without a loop it stops at the end */
  sequin_playback_set_position (playback, 2.0);
  sequin_playback_play (playback);
  g_assert_true (sequin_playback_get_playing (playback));
  g_assert_cmpfloat (sequin_playback_get_position (playback), ==, 0.0);
  sequin_playback_set_loop (playback, FALSE);
  sequin_playback_advance (playback, 5.0);
  g_assert_cmpfloat (sequin_playback_get_position (playback), ==, 2.0);
  g_assert_false (sequin_playback_get_playing (playback));

  /* the animation's own loop: the part before it once, then around it */
  sequin_playback_set_loop (playback, TRUE);
  sequin_playback_set_rate (playback, 1.0);
  sequin_playback_set_loop_range (playback, 0.5, 1.5);
  g_assert_true (sequin_playback_get_loop_range (playback, NULL, NULL));
  sequin_playback_set_position (playback, 0.0);
  sequin_playback_play (playback);
  sequin_playback_advance (playback, 0.25);
  g_assert_cmpfloat_with_epsilon (sequin_playback_get_position (playback), 0.25, 1e-12);
  sequin_playback_advance (playback, 1.5);   /* 1.75: 0.25 past the loop's end */
  g_assert_cmpfloat_with_epsilon (sequin_playback_get_position (playback), 0.75, 1e-12);
  sequin_playback_advance (playback, 2.5);   /* 3.25: 1.75 past, around once and 0.75 */
  g_assert_cmpfloat_with_epsilon (sequin_playback_get_position (playback), 1.25, 1e-12);
  /* past the loop (the part after it, set by hand): to the end, then around the whole */
  sequin_playback_set_position (playback, 1.8);
  sequin_playback_advance (playback, 0.4);
  g_assert_cmpfloat_with_epsilon (sequin_playback_get_position (playback), 0.2, 1e-12);
  /* a loop of no length: the pose there is held */
  sequin_playback_set_loop_range (playback, 1.0, 1.0);
  sequin_playback_set_position (playback, 0.5);
  sequin_playback_play (playback);
  sequin_playback_advance (playback, 3.0);
  g_assert_cmpfloat (sequin_playback_get_position (playback), ==, 1.0);
  g_assert_false (sequin_playback_get_playing (playback));
  /* an invalid range is none */
  sequin_playback_set_loop_range (playback, 1.5, 0.5);
  g_assert_false (sequin_playback_get_loop_range (playback, NULL, NULL));
  sequin_playback_pause (playback);

  /* a duration of 0 (no animation) stops it */
  sequin_playback_set_position (playback, 0.0);
  sequin_playback_play (playback);
  g_assert_true (sequin_playback_get_playing (playback));
  sequin_playback_set_duration (playback, 0.0);
  g_assert_false (sequin_playback_get_playing (playback));

  g_object_unref (playback);
  g_object_unref (widget);
}

/* in the window: the timeline's playhead is the playback's position both
 * ways, win.play plays it with the frame clock, the preview follows */
static void
test_window (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *path = sequin_test_corpus_path (WALK);
  SequinTimeline *timeline;
  const SqClip *clip;
  gsize n;
  const double *figure;
  g_autofree double *before = NULL;

  sequin_test_window_open (window, path);
  clip = sequin_test_window_clip (window);
  timeline = SEQUIN_TIMELINE (window->timeline);
  g_assert_cmpfloat (sequin_playback_get_duration (window->playback), ==, clip->duration);

  sequin_timeline_set_time (timeline, clip->duration / 2);
  g_assert_cmpfloat (sequin_playback_get_position (window->playback), ==, clip->duration / 2);
  sequin_playback_set_position (window->playback, clip->duration / 4);
  g_assert_cmpfloat (sequin_timeline_get_time (timeline), ==, clip->duration / 4);

  gtk_stack_set_visible_child_name (window->view_stack, "preview");
  sequin_test_flush ();
  figure = sequin_preview_get_figure (window->preview, &n, NULL);
  g_assert_cmpuint (n, ==, clip->n_joints);
  before = g_memdup2 (figure, 3 * n * sizeof (double));

  /* not sequin_test_activate: while playing, the main loop is never idle */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.play", NULL));
  g_assert_true (sequin_playback_get_playing (window->playback));
  SEQUIN_TEST_WAIT_UNTIL (sequin_timeline_get_time (timeline) != clip->duration / 4);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.play", NULL));
  sequin_test_flush ();
  g_assert_false (sequin_playback_get_playing (window->playback));
  /* the preview shows the pose where the playhead now is */
  figure = sequin_preview_get_figure (window->preview, &n, NULL);
  g_assert_true (memcmp (figure, before, 3 * n * sizeof (double)) != 0);
  sequin_test_window_destroy (window);
}

/* the play bar's loop button and speed drop-down are the playback's */
static void
test_controls (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *path = sequin_test_corpus_path (WALK);
  const double rates[] = SEQUIN_WINDOW_RATES;
  GListModel *items;
  const SqClip *clip;

  sequin_test_window_open (window, path);
  clip = sequin_test_window_clip (window);

  /* the loop: on at first; off, playing stops at the end */
  g_assert_true (gtk_toggle_button_get_active (window->loop_button));
  g_assert_true (sequin_playback_get_loop (window->playback));
  g_signal_emit_by_name (window->loop_button, "clicked");   /* a click */
  g_assert_false (sequin_playback_get_loop (window->playback));
  sequin_playback_set_position (window->playback, clip->duration - 0.01);
  sequin_playback_play (window->playback);
  sequin_playback_advance (window->playback, 1.0);
  g_assert_false (sequin_playback_get_playing (window->playback));
  g_assert_cmpfloat (sequin_playback_get_position (window->playback), ==, clip->duration);
  sequin_playback_set_loop (window->playback, TRUE);
  g_assert_true (gtk_toggle_button_get_active (window->loop_button));

  /* the speed: each item its rate, the label saying it; 1× at first */
  items = gtk_drop_down_get_model (window->rate_dropdown);
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, G_N_ELEMENTS (rates));
  g_assert_cmpfloat (sequin_playback_get_rate (window->playback), ==, 1.0);
  g_assert_cmpfloat (rates[gtk_drop_down_get_selected (window->rate_dropdown)], ==, 1.0);
  for (guint i = 0; i < G_N_ELEMENTS (rates); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (items, i);
      g_autofree char *label = g_strdup_printf ("%g×", rates[i]);

      g_assert_cmpstr (gtk_string_object_get_string (item), ==, label);
      gtk_drop_down_set_selected (window->rate_dropdown, i);
      g_assert_cmpfloat (sequin_playback_get_rate (window->playback), ==, rates[i]);
    }
  /* half speed: a second of playing moves half a second */
  gtk_drop_down_set_selected (window->rate_dropdown, 2);
  sequin_playback_set_position (window->playback, 0);
  sequin_playback_play (window->playback);
  sequin_playback_advance (window->playback, 1.0);
  g_assert_cmpfloat_with_epsilon (sequin_playback_get_position (window->playback), 0.5, 1e-12);
  sequin_playback_pause (window->playback);
  /* a rate set elsewhere shows as the nearest listed */
  sequin_playback_set_rate (window->playback, 1.9);
  g_assert_cmpuint (gtk_drop_down_get_selected (window->rate_dropdown), ==, 4);
  /* a SEQ has no loop of its own: around the whole animation */
  g_assert_false (sequin_playback_get_loop_range (window->playback, NULL, NULL));
  sequin_test_window_destroy (window);
}

/* A looping .anim plays its loop as the timeline shows it, and follows an
 * edit of the loop points; a loop of no length holds the pose */
static void
test_anim_loop (void)
{
  g_autofree char *looping = sequin_test_corpus_path (LOOPING);
  g_autofree char *held = sequin_test_corpus_path (HELD);
  SequinWindow *window = sequin_test_window_new ();
  g_autoptr(GError) error = NULL;
  double in, out, shown_in, shown_out;

  sequin_test_window_open (window, looping);
  g_assert_true (sequin_timeline_get_loop (SEQUIN_TIMELINE (window->timeline), &shown_in, &shown_out));
  g_assert_true (sequin_playback_get_loop_range (window->playback, &in, &out));
  g_assert_cmpfloat (in, ==, shown_in);
  g_assert_cmpfloat (out, ==, shown_out);
  g_assert_cmpfloat (out, >, in);
  /* edited loop points: the playback follows */
  g_assert_true (sequin_document_apply (sequin_window_get_document (window),
                                        sq_edit_sl_loop_new (TRUE, in, (in + out) / 2), &error));
  g_assert_no_error (error);
  sequin_test_flush ();
  g_assert_true (sequin_playback_get_loop_range (window->playback, NULL, &out));
  g_assert_cmpfloat_with_epsilon (out, (in + shown_out) / 2, 1e-6);
  sequin_test_window_destroy (window);

  window = sequin_test_window_new ();
  sequin_test_window_open (window, held);
  g_assert_true (sequin_playback_get_loop_range (window->playback, &in, &out));
  g_assert_cmpfloat (in, ==, out);
  sequin_playback_set_position (window->playback, 0);
  sequin_playback_play (window->playback);
  sequin_playback_advance (window->playback, out + 1.0);
  g_assert_cmpfloat (sequin_playback_get_position (window->playback), ==, out);
  g_assert_false (sequin_playback_get_playing (window->playback));
  sequin_test_window_destroy (window);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/playback/advance", test_advance);
  g_test_add_func ("/playback/window", test_window);
  g_test_add_func ("/playback/controls", test_controls);
  g_test_add_func ("/playback/anim-loop", test_anim_loop);
  return g_test_run ();
}
