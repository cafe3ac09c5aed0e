/* test-takes.c: choosing another animation set of a .x in the editor
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sequin-take-dialog.h"
#include "sequin-test-ui.h"
#include "sequin-utils.h"
#include "sequin-window-private.h"

/* With SEQUIN_SCREENSHOT_DIR set: `widget` as it is drawn now, into that
 * folder as `name` (to look at; the test does not need it) */
static void
maybe_screenshot (GtkWidget  *widget,
                  const char *name)
{
  const char *dir = g_getenv ("SEQUIN_SCREENSHOT_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  GskRenderNode *node;
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);

  if (dir == NULL)
    return;
  sequin_test_settle (300);
  path = g_build_filename (dir, name, NULL);
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (node);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("wrote %s", path);
}

/* The take chooser open now, or NULL */
static SequinTakeDialog *
find_take_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (SEQUIN_IS_TAKE_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return SEQUIN_TAKE_DIALOG (w);
    }
  return NULL;
}

/* The button under `widget` whose label is `label`, or NULL */
static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_button (c, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_list_box (GtkWidget *widget)
{
  if (GTK_IS_LIST_BOX (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_list_box (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Each control of the chooser has one name: the list its heading (by
 * relation, no label of its own), each row its sentence, the buttons
 * their text without the underline */
static void
assert_names (SequinTakeDialog *dialog)
{
  GtkWidget *list = find_list_box (GTK_WIDGET (dialog));
  GtkWidget *show = find_button (GTK_WIDGET (dialog), "_Show");
  GtkWidget *cancel = find_button (GTK_WIDGET (dialog), "_Cancel");
  g_autofree char *diff = NULL;

  g_assert_nonnull (list);
  g_assert_nonnull (show);
  g_assert_nonnull (cancel);
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL));
  for (GtkWidget *button = show; button != NULL; button = button == show ? cancel : NULL)
    g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL)
                    && gtk_test_accessible_check_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                           gtk_button_get_label (GTK_BUTTON (button))) == NULL);
  diff = gtk_test_accessible_check_property (GTK_ACCESSIBLE (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0)),
                                             GTK_ACCESSIBLE_PROPERTY_LABEL, "Set 1, Wuson_Run, shown now");
  g_assert_null (diff);
  diff = gtk_test_accessible_check_property (GTK_ACCESSIBLE (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 1)),
                                             GTK_ACCESSIBLE_PROPERTY_LABEL, "Set 2, Wuson_Walk");
  g_assert_null (diff);
  g_assert_false (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0)),
                                                    GTK_ACCESSIBLE_RELATION_LABELLED_BY));
}

static GtkListBox *
find_list (GtkWidget *widget)
{
  if (GTK_IS_LIST_BOX (widget))
    return GTK_LIST_BOX (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkListBox *found = find_list (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Set 2 of Testwuson.X chosen through the menu's action and the dialog's
 * Show button: the window shows its joints, keys and duration */
static void
test_choose_set (void)
{
  g_autofree char *corpus = sequin_test_corpus_path ("dx-anim/Testwuson.X");
  g_autofree char *path = sequin_test_tmp_copy (corpus, "wuson.x");
  SequinWindow *window = sequin_test_window_new ();
  SequinTakeDialog *dialog;
  const SqClip *clip;
  gsize n;
  guint take;
  gssize joint = -1;
  g_autofree char *first_key = NULL;

  sequin_test_window_open (window, path);
  clip = sequin_test_window_clip (window);
  g_assert_cmpstr (sq_clip_get_takes (clip, &n, &take)[0], ==, "Wuson_Run");
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (take, ==, 0);
  g_assert_cmpstr (gtk_label_get_text (window->duration_value), ==, "0.967 s");

  sequin_test_activate (window, "win.choose-take");
  dialog = find_take_dialog ();
  g_assert_nonnull (dialog);
  g_assert_cmpuint (sequin_take_dialog_get_n_takes (dialog), ==, 3);
  g_assert_cmpuint (sequin_take_dialog_get_selected (dialog), ==, 0);
  g_assert_true (sequin_test_shows (GTK_WIDGET (dialog), "Wuson_Walk"));
  g_assert_true (sequin_test_shows (GTK_WIDGET (dialog), "Wuson_Bind"));
  assert_names (dialog);
  /* a click selects a set; Show, a double click or Enter switches to it */
  g_assert_nonnull (find_list (GTK_WIDGET (dialog)));
  g_assert_false (gtk_list_box_get_activate_on_single_click (find_list (GTK_WIDGET (dialog))));

  /* Cancel: nothing changes (a button's activation clicks it after its
   * pressed look, a moment later) */
  g_assert_true (gtk_widget_activate (find_button (GTK_WIDGET (dialog), "_Cancel")));
  SEQUIN_TEST_WAIT_UNTIL (find_take_dialog () == NULL);
  g_assert_true (sequin_test_window_clip (window) == clip);

  /* set 2, shown */
  sequin_test_activate (window, "win.choose-take");
  dialog = find_take_dialog ();
  g_assert_nonnull (dialog);
  sequin_take_dialog_select (dialog, 1);
  maybe_screenshot (GTK_WIDGET (dialog), "take-dialog.png");
  gtk_widget_activate (find_button (GTK_WIDGET (dialog), "_Show"));
  SEQUIN_TEST_WAIT_UNTIL (sequin_test_window_clip (window)->take == 1);
  sequin_test_flush ();
  g_assert_null (find_take_dialog ());

  clip = sequin_test_window_clip (window);
  g_assert_cmpstr (sq_clip_get_takes (clip, NULL, NULL)[1], ==, "Wuson_Walk");
  g_assert_cmpuint (sq_clip_count_keys (clip), ==, 3435);
  g_assert_cmpstr (gtk_label_get_text (window->keys_value), ==, "3435 (3357 rotation, 39 translation, 39 scale)");
  g_assert_cmpstr (gtk_label_get_text (window->duration_value), ==, "3.600 s");
  /* the title says which set it is */
  g_assert_true (g_str_has_suffix (gtk_label_get_text (window->subtitle_label), " · Set 2 of 3: Wuson_Walk"));
  g_assert_true (g_str_has_suffix (gtk_window_get_title (GTK_WINDOW (window)), " (Set 2 of 3: Wuson_Walk) — Sequin"));
  g_assert_false (sequin_document_get_modified (sequin_window_get_document (window)));
  /* a joint of the set with many rotation keys: its rows show set 2's */
  for (gsize j = 0; j < clip->n_joints && joint < 0; j++)
    if (clip->joints[j].tracks[SQ_CHANNEL_ROTATION].n_keys > 50)
      joint = (gssize) j;
  g_assert_cmpint (joint, >=, 0);
  sequin_joint_tree_select_joint (window->joint_tree, joint);
  g_assert_true (sequin_joint_tree_expand_joint (window->joint_tree, joint, TRUE));
  sequin_test_settle (200);
  g_assert_true (sequin_test_shows (GTK_WIDGET (window->joint_tree), clip->joints[joint].name));
  {
    SqKey key = sq_track_key (&clip->joints[joint].tracks[SQ_CHANNEL_ROTATION], 1);

    first_key = sequin_format_vector (key.v, 4, 6);
  }
  g_assert_true (sequin_test_shows (GTK_WIDGET (window->joint_tree), first_key));
  maybe_screenshot (GTK_WIDGET (window), "take-2-window.png");

  /* unsaved changes: asked first; Cancel keeps them, Discard reads set 3 */
  sequin_test_activate (window, "win.invert-xz-all");
  g_assert_true (sequin_document_get_modified (sequin_window_get_document (window)));
  sequin_test_activate (window, "win.choose-take");
  dialog = find_take_dialog ();
  g_assert_nonnull (dialog);
  sequin_take_dialog_select (dialog, 2);
  gtk_widget_activate (find_button (GTK_WIDGET (dialog), "_Show"));
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
  gtk_dialog_response (GTK_DIALOG (window->message_dialog), GTK_RESPONSE_CANCEL);
  sequin_test_flush ();
  g_assert_cmpuint (sequin_test_window_clip (window)->take, ==, 1);
  g_assert_true (sequin_document_get_modified (sequin_window_get_document (window)));

  sequin_test_activate (window, "win.choose-take");
  dialog = find_take_dialog ();
  sequin_take_dialog_select (dialog, 2);
  gtk_widget_activate (find_button (GTK_WIDGET (dialog), "_Show"));
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
  gtk_dialog_response (GTK_DIALOG (window->message_dialog), GTK_RESPONSE_REJECT);
  SEQUIN_TEST_WAIT_UNTIL (sequin_test_window_clip (window)->take == 2);
  sequin_test_flush ();
  g_assert_false (sequin_document_get_modified (sequin_window_get_document (window)));
  g_assert_cmpstr (gtk_label_get_text (window->keys_value), ==, "117 (39 rotation, 39 translation, 39 scale)");

  sequin_test_window_destroy (window);
}

/* An edited set saved: the file keeps the other sets as they were, and the
 * window still shows the set it edited */
static void
test_save_set (void)
{
  g_autofree char *corpus = sequin_test_corpus_path ("dx-anim/Testwuson.X");
  g_autofree char *path = sequin_test_tmp_copy (corpus, "wuson-save.x");
  SequinWindow *window = sequin_test_window_new ();
  SequinTakeDialog *dialog;
  g_autoptr(GBytes) before = sequin_test_read_bytes (corpus);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(SqClip) run = NULL;
  g_autoptr(SqClip) run_after = NULL;
  const char *bind;

  sequin_test_window_open (window, path);
  sequin_test_activate (window, "win.choose-take");
  dialog = find_take_dialog ();
  sequin_take_dialog_select (dialog, 1);
  sequin_take_dialog_confirm (dialog);
  SEQUIN_TEST_WAIT_UNTIL (sequin_test_window_clip (window)->take == 1);
  sequin_test_flush ();
  sequin_test_activate (window, "win.invert-xz-all");
  sequin_test_activate (window, "win.save");
  /* frames and meshes are not written: the losses question, then saved */
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL
                          || !sequin_document_get_modified (sequin_window_get_document (window)));
  if (window->message_dialog != NULL)
    gtk_dialog_response (GTK_DIALOG (window->message_dialog), GTK_RESPONSE_ACCEPT);
  SEQUIN_TEST_WAIT_UNTIL (!sequin_document_get_modified (sequin_window_get_document (window)));
  sequin_test_flush ();
  g_assert_cmpuint (sequin_test_window_clip (window)->take, ==, 1);
  g_assert_cmpuint (sq_clip_count_keys (sequin_test_window_clip (window)), ==, 3435);

  after = sequin_test_read_bytes (path);
  bind = strstr (g_bytes_get_data (before, NULL), "AnimationSet Wuson_Bind {");
  g_assert_nonnull (bind);
  /* the last set, to the end of the file, is there as it was */
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (after, NULL), g_bytes_get_size (after), bind));
  {
    SqLoadOptions options = { 0 };

    run = sq_load_bytes (before, "a.x", NULL, &options, NULL);
    run_after = sq_load_bytes (after, "b.x", NULL, &options, NULL);
  }
  g_assert_nonnull (run_after);
  g_assert_cmpuint (sq_clip_count_keys (run), ==, sq_clip_count_keys (run_after));
  sequin_test_window_destroy (window);
}

/* A file of one animation: the action is off, a bad take refused */
static void
test_one_set (void)
{
  g_autofree char *path = sequin_test_corpus_path ("dx-anim/BCN_Epileptic.X");
  SequinWindow *window = sequin_test_window_new ();
  gsize n;

  sequin_test_window_open (window, path);
  sq_clip_get_takes (sequin_test_window_clip (window), &n, NULL);
  g_assert_cmpuint (n, ==, 1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.choose-take", NULL);
  sequin_test_flush ();
  g_assert_null (find_take_dialog ());
  sequin_test_window_destroy (window);
}

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  sequin_test_application ();

  g_test_add_func ("/takes/choose-set", test_choose_set);
  g_test_add_func ("/takes/save-set", test_save_set);
  g_test_add_func ("/takes/one-set", test_one_set);
  return g_test_run ();
}
