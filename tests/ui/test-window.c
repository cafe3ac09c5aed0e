/* test-window.c: the editor window: opening, the tree, edits, saving, questions
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Edits are made the way a user makes them: by activating the win.* actions
 * (and filling in the dialog they open). The result is compared with the
 * same SqEdit applied by the core to a separately loaded clip.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "sequin-joint-item.h"
#include "sequin-key-item.h"
#include "sequin-test-ui.h"
#include "sequin-window-private.h"

/* ---- Helpers --------------------------------------------------------------- */

static guint
n_rows (SequinWindow *window)
{
  return g_list_model_get_n_items (sequin_joint_tree_get_rows (window->joint_tree));
}

static gpointer
row_item (SequinWindow *window,
          guint         position)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (sequin_joint_tree_get_rows (window->joint_tree), position);

  g_assert_nonnull (row);
  return gtk_tree_list_row_get_item (row);
}

static guint
count_distinct_times (const SqJoint *joint)
{
  g_autoptr(GHashTable) times = g_hash_table_new_full (g_double_hash, g_double_equal, g_free, NULL);

  for (guint c = 0; c < SQ_N_CHANNELS; c++)
    for (gsize k = 0; k < joint->tracks[c].n_keys; k++)
      {
        double t = sq_track_time (&joint->tracks[c], k);
        if (!g_hash_table_contains (times, &t))
          g_hash_table_add (times, g_memdup2 (&t, sizeof t));
      }
  return g_hash_table_size (times);
}

static gboolean
action_enabled (SequinWindow *window,
                const char   *action)
{
  /* disabled widget actions refuse to activate; probe through a button */
  g_autoptr(GtkWidget) button = g_object_ref_sink (gtk_button_new ());
  GtkWidget *box = gtk_window_get_child (GTK_WINDOW (window));
  gboolean enabled;

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_parent (button, box);
  enabled = gtk_widget_get_sensitive (button);
  gtk_widget_unparent (button);
  return enabled;
}

/* The number of mapped labels under `widget` that show `text` */
static guint
count_labels (GtkWidget  *widget,
              const char *text)
{
  guint n = GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0
            && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    n += count_labels (child, text);
  return n;
}

/* ---- Tests ----------------------------------------------------------------- */

static void
test_empty (void)
{
  SequinWindow *window = sequin_test_window_new ();

  g_assert_true (sequin_window_is_empty (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->main_stack), ==, "empty");
  g_assert_false (action_enabled (window, "win.save"));
  g_assert_false (action_enabled (window, "win.undo"));
  g_assert_false (action_enabled (window, "win.rename-root"));
  g_assert_true (action_enabled (window, "win.open"));
  g_assert_true (action_enabled (window, "win.open-sample"));
  /* the shortcuts window comes from the resources */
  g_assert_true (action_enabled (window, "win.show-help-overlay"));
  g_assert_nonnull (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  sequin_test_window_destroy (window);
}

static void
test_about (void)
{
  SequinWindow *window = sequin_test_window_new ();
  GtkWidget *about = NULL;
  GListModel *toplevels = gtk_window_get_toplevels ();

  g_action_group_activate_action (G_ACTION_GROUP (sequin_test_application ()), "about", NULL);
  sequin_test_flush ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels) && about == NULL; i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);
      if (GTK_IS_ABOUT_DIALOG (toplevel))
        about = GTK_WIDGET (toplevel);
    }
  g_assert_nonnull (about);
  g_assert_cmpstr (gtk_about_dialog_get_version (GTK_ABOUT_DIALOG (about)), ==, PACKAGE_VERSION);
  gtk_window_destroy (GTK_WINDOW (about));
  sequin_test_window_destroy (window);
}

static void
test_settings (void)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;
  SequinWindow *window;
  int width, height;

  schema = g_settings_schema_source_lookup (g_settings_schema_source_get_default (), APP_ID, TRUE);
  if (schema == NULL)
    {
      g_test_fail_printf ("the GSettings schema %s is not compiled in this build", APP_ID);
      return;
    }
  settings = g_settings_new (APP_ID);
  g_settings_set_int (settings, "window-width", 900);
  g_settings_set_int (settings, "window-height", 600);
  g_settings_set_boolean (settings, "window-maximized", FALSE);

  /* a new window takes the remembered size */
  window = sequin_test_window_new ();
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 600);

  /* closing remembers the size it had */
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 650);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_close (GTK_WINDOW (window));
  sequin_test_flush ();
  g_assert_null (window);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1000);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 650);
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
}

static void
test_open_shows_joints_and_keys (void)
{
  g_autofree char *path = sequin_test_corpus_file ("seq-binary/maca.seq");
  g_autoptr(SqClip) expected = NULL;
  g_autoptr(GObject) first = NULL;
  g_autoptr(GObject) key = NULL;
  SequinWindow *window;
  guint n_pelvis;

  expected = sequin_test_load_clip (path);
  window = sequin_test_window_new ();
  sequin_test_window_open (window, path);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();

  g_assert_true (sq_clip_equal (sequin_test_window_clip (window), expected));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->main_stack), ==, "document");
  g_assert_cmpstr (gtk_label_get_text (window->title_label), ==, "maca.seq");
  g_assert_cmpstr (gtk_label_get_text (window->joints_value), ==, "27");
  g_assert_cmpstr (gtk_label_get_text (window->model_value), ==, "lmarsha");
  g_assert_cmpstr (gtk_label_get_text (window->root_value), ==, "pelvis");
  g_assert_nonnull (strstr (gtk_label_get_text (window->keys_value), "2464"));

  /* one row per joint, collapsed */
  g_assert_cmpuint (n_rows (window), ==, 27);
  for (guint i = 0; i < 27; i++)
    {
      g_autoptr(GObject) item = row_item (window, i);
      g_assert_true (SEQUIN_IS_JOINT_ITEM (item));
      g_assert_cmpstr (sequin_joint_item_get_name (SEQUIN_JOINT_ITEM (item)), ==, expected->joints[i].name);
    }
  first = row_item (window, 0);
  g_assert_true (sequin_joint_item_is_root (SEQUIN_JOINT_ITEM (first)));
  /* the root joint's row, and only it, is marked */
  g_assert_cmpuint (count_labels (GTK_WIDGET (window->joint_tree), "root"), ==, 1);
  g_assert_cmpuint (count_labels (GTK_WIDGET (window->joint_tree), "back"), ==, 1);

  /* expanding the root shows its keys, rotation and translation merged by time */
  n_pelvis = count_distinct_times (&expected->joints[0]);
  g_assert_cmpuint (n_pelvis, ==, 88);
  g_assert_true (sequin_joint_tree_expand_joint (window->joint_tree, 0, TRUE));
  g_assert_cmpuint (n_rows (window), ==, 27 + n_pelvis);
  key = row_item (window, 1);
  g_assert_true (SEQUIN_IS_KEY_ITEM (key));
  g_assert_cmpfloat (sequin_key_item_get_data (SEQUIN_KEY_ITEM (key))->time, ==,
                     sq_track_time (&expected->joints[0].tracks[SQ_CHANNEL_ROTATION], 0));
  {
    SqKey got, want = sq_track_key (&sequin_test_window_clip (window)->joints[0].tracks[SQ_CHANNEL_ROTATION], 0);

    g_assert_true (sequin_key_item_get_key (SEQUIN_KEY_ITEM (key), SQ_CHANNEL_ROTATION, &got));
    g_assert_cmpmem (&got, sizeof got, &want, sizeof want);
    g_assert_true (sequin_key_item_get_key (SEQUIN_KEY_ITEM (key), SQ_CHANNEL_TRANSLATION, &got));
  }
  g_clear_object (&key);
  key = row_item (window, n_pelvis + 1);
  g_assert_true (SEQUIN_IS_JOINT_ITEM (key));
  g_assert_cmpstr (sequin_joint_item_get_name (SEQUIN_JOINT_ITEM (key)), ==, "back");

  g_assert_true (sequin_joint_tree_expand_joint (window->joint_tree, 0, FALSE));
  g_assert_cmpuint (n_rows (window), ==, 27);

  /* the structure view shows the core's dump */
  gtk_stack_set_visible_child_name (window->view_stack, "structure");
  {
    g_autofree char *dump = sq_dump_text (sequin_test_window_clip (window));
    GListModel *lines = G_LIST_MODEL (window->structure_lines);
    g_autoptr(GtkStringObject) second = g_list_model_get_item (lines, 1);
    g_auto(GStrv) dump_lines = g_strsplit (dump, "\n", -1);

    g_assert_cmpstr (sequin_line_model_get_text (window->structure_lines), ==, dump);
    /* one row per line (the last newline ends a line) */
    g_assert_cmpuint (g_list_model_get_n_items (lines), ==, g_strv_length (dump_lines) - 1);
    g_assert_cmpstr (gtk_string_object_get_string (second), ==, dump_lines[1]);
  }
  sequin_test_window_destroy (window);
}

typedef enum
{
  EDIT_INVERT_ALL,
  EDIT_INVERT_SELECTED,
  EDIT_RENAME_JOINT,
  EDIT_DELETE_JOINT,
  EDIT_RENAME_ROOT,
  EDIT_RESCALE,
  EDIT_SET_FIRST_FRAME,
} EditCase;

static SqEdit *
reference_edit (EditCase which)
{
  const char *selected[] = { "neck", NULL };

  switch (which)
    {
    case EDIT_INVERT_ALL: return sq_edit_invert_xz_new (NULL);
    case EDIT_INVERT_SELECTED: return sq_edit_invert_xz_new (selected);
    case EDIT_RENAME_JOINT: return sq_edit_rename_joint_new ("neck", "nape");
    case EDIT_DELETE_JOINT: return sq_edit_delete_joint_new ("neck");
    case EDIT_RENAME_ROOT: return sq_edit_rename_root_new ("hips");
    case EDIT_RESCALE: return sq_edit_rescale_new (2.5);
    case EDIT_SET_FIRST_FRAME: return sq_edit_set_first_frame_new (0.25, -1, 3);
    default: g_assert_not_reached ();
    }
}

static void
test_edit (gconstpointer data)
{
  EditCase which = GPOINTER_TO_INT (data);
  g_autofree char *path = sequin_test_corpus_file ("seq-binary/maca.seq");
  g_autoptr(SqClip) original = NULL;
  g_autoptr(SqClip) edited = NULL;
  g_autoptr(SqEdit) edit = NULL;
  SequinWindow *window;
  SequinDocument *doc;

  original = sequin_test_load_clip (path);
  edited = sequin_test_load_clip (path);
  edit = reference_edit (which);
  g_assert_true (sq_edit_apply (edit, edited, NULL));

  window = sequin_test_window_new ();
  sequin_test_window_open (window, path);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();
  doc = sequin_window_get_document (window);

  /* "neck" is joint 2: select its row (the joint actions work on the selection) */
  g_assert_cmpstr (sequin_test_window_clip (window)->joints[2].name, ==, "neck");
  sequin_joint_tree_select_joint (window->joint_tree, 2);
  sequin_test_flush ();
  g_assert_cmpint (sequin_joint_tree_get_current_joint (window->joint_tree), ==, 2);

  switch (which)
    {
    case EDIT_INVERT_ALL:
      sequin_test_activate (window, "win.invert-xz-all");
      break;
    case EDIT_INVERT_SELECTED:
      sequin_test_activate (window, "win.invert-xz-selected");
      break;
    case EDIT_DELETE_JOINT:
      sequin_test_activate (window, "win.delete-joint");
      break;
    case EDIT_RENAME_JOINT:
      sequin_test_activate (window, "win.rename-joint");
      g_assert_nonnull (window->edit_dialog);
      g_assert_cmpint (sequin_edit_dialog_get_kind (window->edit_dialog), ==, SEQUIN_EDIT_RENAME_JOINT);
      g_assert_cmpstr (sequin_edit_dialog_get_text (window->edit_dialog, 0), ==, "neck");
      /* a name that exists is refused, and the dialog says why */
      sequin_edit_dialog_set_text (window->edit_dialog, 0, "back");
      g_assert_false (sequin_edit_dialog_can_apply (window->edit_dialog));
      g_assert_nonnull (strstr (sequin_edit_dialog_get_message (window->edit_dialog), "“back”"));
      sequin_edit_dialog_set_text (window->edit_dialog, 0, "nape");
      g_assert_true (sequin_edit_dialog_can_apply (window->edit_dialog));
      g_assert_null (sequin_edit_dialog_get_message (window->edit_dialog));
      g_assert_true (sequin_edit_dialog_apply (window->edit_dialog, NULL));
      break;
    case EDIT_RENAME_ROOT:
      sequin_test_activate (window, "win.rename-root");
      g_assert_cmpstr (sequin_edit_dialog_get_text (window->edit_dialog, 0), ==, "pelvis");
      sequin_edit_dialog_set_text (window->edit_dialog, 0, "neck");
      g_assert_false (sequin_edit_dialog_can_apply (window->edit_dialog));
      sequin_edit_dialog_set_text (window->edit_dialog, 0, "");
      g_assert_false (sequin_edit_dialog_can_apply (window->edit_dialog));
      sequin_edit_dialog_set_text (window->edit_dialog, 0, "hips");
      g_assert_true (sequin_edit_dialog_apply (window->edit_dialog, NULL));
      break;
    case EDIT_RESCALE:
      sequin_test_activate (window, "win.rescale");
      for (guint i = 0; i < 4; i++)
        {
          const char *bad[] = { "abc", "inf", "nan", "1e999" };
          sequin_edit_dialog_set_text (window->edit_dialog, 0, bad[i]);
          g_assert_false (sequin_edit_dialog_can_apply (window->edit_dialog));
          g_assert_nonnull (sequin_edit_dialog_get_message (window->edit_dialog));
        }
      /* a decimal comma is read as a point */
      sequin_edit_dialog_set_text (window->edit_dialog, 0, " 2,5 ");
      g_assert_true (sequin_edit_dialog_can_apply (window->edit_dialog));
      g_assert_true (sequin_edit_dialog_apply (window->edit_dialog, NULL));
      break;
    case EDIT_SET_FIRST_FRAME:
      sequin_test_activate (window, "win.set-first-frame");
      g_assert_cmpuint (sequin_edit_dialog_get_n_fields (window->edit_dialog), ==, 3);
      sequin_edit_dialog_set_text (window->edit_dialog, 0, "0.25");
      sequin_edit_dialog_set_text (window->edit_dialog, 1, "-1");
      sequin_edit_dialog_set_text (window->edit_dialog, 2, "x");
      g_assert_false (sequin_edit_dialog_can_apply (window->edit_dialog));
      sequin_edit_dialog_set_text (window->edit_dialog, 2, "3");
      g_assert_true (sequin_edit_dialog_apply (window->edit_dialog, NULL));
      break;
    default:
      g_assert_not_reached ();
    }
  sequin_test_flush ();
  g_assert_null (window->edit_dialog);

  /* exactly what the core does */
  g_assert_true (sq_clip_equal (sequin_test_window_clip (window), edited));
  g_assert_true (sequin_document_get_modified (doc));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (window->title_label), "• "));
  g_assert_cmpuint (n_rows (window), ==, edited->n_joints);
  g_assert_true (action_enabled (window, "win.undo"));

  /* undo restores it exactly, redo does it again */
  sequin_test_activate (window, "win.undo");
  g_assert_true (sq_clip_equal (sequin_test_window_clip (window), original));
  g_assert_false (sequin_document_get_modified (doc));
  g_assert_cmpuint (n_rows (window), ==, original->n_joints);
  g_assert_cmpstr (gtk_label_get_text (window->title_label), ==, "maca.seq");
  sequin_test_activate (window, "win.redo");
  g_assert_true (sq_clip_equal (sequin_test_window_clip (window), edited));
  sequin_test_activate (window, "win.undo");
  g_assert_true (sq_clip_equal (sequin_test_window_clip (window), original));

  sequin_test_window_destroy (window);
}

static void
test_rename_keeps_expanded (void)
{
  g_autofree char *path = sequin_test_corpus_file ("seq-binary/maca.seq");
  SequinWindow *window;
  guint expanded;

  window = sequin_test_window_new ();
  sequin_test_window_open (window, path);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();
  sequin_joint_tree_expand_joint (window->joint_tree, 1, TRUE);
  expanded = n_rows (window);
  g_assert_cmpuint (expanded, >, 27);
  g_assert_true (sequin_document_apply (sequin_window_get_document (window),
                                        sq_edit_rename_joint_new ("back", "spine"), NULL));
  g_assert_cmpuint (n_rows (window), ==, expanded);
  {
    g_autoptr(GObject) item = row_item (window, 1);
    g_assert_cmpstr (sequin_joint_item_get_name (SEQUIN_JOINT_ITEM (item)), ==, "spine");
  }
  /* deleting a joint before it keeps it expanded too */
  g_assert_true (sequin_document_apply (sequin_window_get_document (window),
                                        sq_edit_delete_joint_new ("pelvis"), NULL));
  g_assert_cmpuint (n_rows (window), ==, expanded - 1);
  sequin_test_window_destroy (window);
}

static void
test_tree_and_timeline_follow (void)
{
  g_autofree char *path = sequin_test_corpus_file ("seq-binary/walk.seq");
  const SqClip *clip;
  SequinWindow *window;
  gssize joint, key;
  SqChannel channel;
  double time;

  window = sequin_test_window_new ();
  sequin_test_window_open (window, path);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();
  clip = sequin_test_window_clip (window);
  g_assert_cmpuint (clip->n_joints, ==, 44);

  /* a key clicked in the timeline: its joint expands, its row is selected */
  g_signal_emit_by_name (window->timeline, "key-selected", (gint64) 5, (int) SQ_CHANNEL_ROTATION, (gint64) 3);
  sequin_test_flush ();
  g_assert_true (sequin_joint_tree_get_selected_key (window->joint_tree, &joint, &channel, &key, &time));
  g_assert_cmpint (joint, ==, 5);
  g_assert_cmpint (channel, ==, SQ_CHANNEL_ROTATION);
  g_assert_cmpint (key, ==, 3);
  g_assert_cmpfloat (time, ==, sq_track_time (&clip->joints[5].tracks[SQ_CHANNEL_ROTATION], 3));
  g_assert_cmpuint (n_rows (window), >, 44);

  /* a key row selected in the tree: the timeline selects it and moves there */
  g_assert_true (sequin_joint_tree_select_key (window->joint_tree, 5, SQ_CHANNEL_ROTATION, 7));
  sequin_test_flush ();
  g_assert_true (sequin_timeline_get_selected_key (SEQUIN_TIMELINE (window->timeline), &joint, &channel, &key));
  g_assert_cmpint (joint, ==, 5);
  g_assert_cmpint (key, ==, 7);
  g_assert_cmpfloat_with_epsilon (sequin_timeline_get_time (SEQUIN_TIMELINE (window->timeline)),
                                  sq_track_time (&clip->joints[5].tracks[SQ_CHANNEL_ROTATION], 7), 1e-9);
  sequin_test_window_destroy (window);
}

/* Delete on a key row deletes that row's keys, not its joint; on a joint
 * row, the joint; Undo brings the keys back */
static void
test_delete_keys (void)
{
  g_autofree char *path = NULL;
  SequinWindow *window;
  const SqClip *clip;
  gsize rot_keys, loc_keys, joints;
  gssize joint, key;
  SqChannel channel;
  double time;

  if (g_getenv ("SEQUIN_SAMPLE_DIR") == NULL)
    {
      g_test_fail_printf ("SEQUIN_SAMPLE_DIR is not set");
      return;
    }
  path = g_build_filename (g_getenv ("SEQUIN_SAMPLE_DIR"), "wave.seq", NULL);
  window = sequin_test_window_new ();
  sequin_test_window_open (window, path);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();
  clip = sequin_test_window_clip (window);
  joints = clip->n_joints;
  rot_keys = clip->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys;
  loc_keys = clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION].n_keys;
  g_assert_cmpuint (loc_keys, >, 0);
  g_assert_false (action_enabled (window, "win.delete-keys"));

  /* the root's first row holds a rotation and a location key at 0 s */
  g_assert_true (sequin_joint_tree_select_key (window->joint_tree, 0, SQ_CHANNEL_ROTATION, 0));
  sequin_test_flush ();
  g_assert_true (sequin_joint_tree_get_selected_key (window->joint_tree, &joint, &channel, &key, &time));
  g_assert_true (action_enabled (window, "win.delete-keys"));
  sequin_test_activate (window, "win.delete");
  clip = sequin_test_window_clip (window);
  g_assert_cmpuint (clip->n_joints, ==, joints);
  g_assert_cmpuint (clip->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, rot_keys - 1);
  g_assert_cmpuint (clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, loc_keys - 1);
  g_assert_cmpstr (sequin_document_get_undo_label (sequin_window_get_document (window)), ==, "Delete Keys");
  sequin_test_activate (window, "win.undo");
  clip = sequin_test_window_clip (window);
  g_assert_cmpuint (clip->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, rot_keys);
  g_assert_cmpuint (clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, loc_keys);
  g_assert_false (sequin_document_get_modified (sequin_window_get_document (window)));

  /* a joint row: Delete deletes the joint */
  sequin_joint_tree_select_joint (window->joint_tree, 1);
  sequin_test_flush ();
  g_assert_false (action_enabled (window, "win.delete-keys"));
  sequin_test_activate (window, "win.delete");
  g_assert_cmpuint (sequin_test_window_clip (window)->n_joints, ==, joints - 1);
  sequin_test_window_destroy (window);
}

static void
respond (SequinWindow *window,
         int           response)
{
  GtkWidget *dialog = window->message_dialog;

  g_assert_nonnull (dialog);
  g_assert_true (GTK_IS_MESSAGE_DIALOG (dialog));
  gtk_dialog_response (GTK_DIALOG (dialog), response);
  sequin_test_flush ();
}

/* the text of every label below `widget` (a list the dialog adds) */
static void
append_labels (GString   *out,
               GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (out, "\n%s", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    append_labels (out, c);
}

static char *
message_text (SequinWindow *window)
{
  g_autofree char *text = NULL;
  g_autofree char *secondary = NULL;
  GString *out;

  g_assert_nonnull (window->message_dialog);
  g_object_get (window->message_dialog, "text", &text, "secondary-text", &secondary, NULL);
  out = g_string_new (NULL);
  g_string_printf (out, "%s\n%s", text, secondary != NULL ? secondary : "");
  append_labels (out, gtk_message_dialog_get_message_area (GTK_MESSAGE_DIALOG (window->message_dialog)));
  return g_string_free (out, FALSE);
}

static void
test_save_binary_and_text (void)
{
  g_autofree char *corpus = sequin_test_corpus_file ("seq-binary/walk.seq");
  g_autofree char *path = NULL;
  g_autofree char *text_path = NULL;
  g_autofree char *message = NULL;
  g_autoptr(SqClip) original = NULL;
  g_autoptr(SqClip) reread = NULL;
  g_autoptr(SqClip) text = NULL;
  g_autoptr(GFile) binary_file = NULL;
  g_autoptr(GFile) text_file = NULL;
  SequinWindow *window;
  SequinDocument *doc;

  path = sequin_test_tmp_copy (corpus, "window-save.seq");
  text_path = g_build_filename (sequin_test_tmpdir (), "window-save-text.seq", NULL);
  binary_file = g_file_new_for_path (path);
  text_file = g_file_new_for_path (text_path);
  original = sequin_test_load_clip (corpus);

  window = sequin_test_window_new ();
  sequin_test_window_open (window, path);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();
  doc = sequin_window_get_document (window);

  /* binary, unedited: the same file back */
  sequin_window_save_to (window, binary_file, sq_format_by_id ("seq-binary"));
  SEQUIN_TEST_WAIT_UNTIL (!sequin_document_get_busy (doc));
  sequin_test_flush ();
  g_assert_null (window->message_dialog);
  reread = sequin_test_load_clip (path);
  g_assert_true (sq_clip_equal (reread, original));
  g_clear_pointer (&reread, sq_clip_free);

  /* edited, through Ctrl+S's action */
  sequin_test_activate (window, "win.invert-xz-all");
  g_assert_true (sequin_document_get_modified (doc));
  sequin_test_activate (window, "win.save");
  SEQUIN_TEST_WAIT_UNTIL (!sequin_document_get_modified (doc));
  reread = sequin_test_load_clip (path);
  g_assert_true (sq_clip_equal (reread, sequin_test_window_clip (window)));
  g_assert_false (sq_clip_equal (reread, original));
  g_assert_cmpstr (gtk_label_get_text (window->title_label), ==, "window-save.seq");

  /* text: first the list of what text SEQ cannot keep */
  sequin_window_save_to (window, text_file, sq_format_by_id ("seq-text"));
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
  message = message_text (window);
  g_assert_nonnull (strstr (message, "ActiveWorlds text SEQ"));
  g_assert_nonnull (strstr (message, "model name"));
  g_assert_false (g_file_test (text_path, G_FILE_TEST_EXISTS));
  respond (window, GTK_RESPONSE_ACCEPT);
  SEQUIN_TEST_WAIT_UNTIL (g_file_test (text_path, G_FILE_TEST_EXISTS) && !sequin_document_get_busy (doc));
  sequin_test_flush ();
  text = sequin_test_load_clip (text_path);
  g_assert_true (text->format == sq_format_by_id ("seq-text"));
  g_assert_true (sequin_test_clips_close (text, reread, 0.0005 + 1e-9, 1e-5));
  g_assert_cmpstr (gtk_label_get_text (window->title_label), ==, "window-save-text.seq");
  g_assert_cmpstr (gtk_label_get_text (window->format_value), ==, "ActiveWorlds text SEQ");

  sequin_test_window_destroy (window);
}

/* Save As into another world: the question lists every loss and every
 * renamed joint, in a list that scrolls rather than stopping at a count,
 * then the conversion's notes as the command line prints them (the
 * retarget from ActiveWorlds' rest pose onto Second Life's, the .anim's
 * size) */
static void
test_save_as_renames (void)
{
  g_autofree char *corpus = sequin_test_corpus_file ("seq-binary/walk.seq");
  g_autofree char *path = NULL;
  g_autofree char *anim_path = NULL;
  g_autofree char *message = NULL;
  g_autoptr(GFile) anim_file = NULL;
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SqClip) original = NULL;
  g_autoptr(GBytes) expected = NULL;
  guint n_renamed = 0;
  const char *notes_at;
  SequinWindow *window;

  if (corpus == NULL)
    g_error ("the corpus file seq-binary/walk.seq is missing (SEQUIN_CORPUS=%s)", g_getenv ("SEQUIN_CORPUS"));
  path = sequin_test_tmp_copy (corpus, "window-renames.seq");
  anim_path = g_build_filename (sequin_test_tmpdir (), "window-renames.anim", NULL);
  anim_file = g_file_new_for_path (anim_path);
  original = sequin_test_load_clip (corpus);
  /* the losses, without what is no loss (notes: the retarget from
   * ActiveWorlds' rest pose onto Second Life's, the .anim's size) */
  {
    SqSaveOptions options = { .notes = notes };

    expected = sq_save_bytes (original, sq_format_by_id ("sl-anim"), &options, losses, NULL);
    g_assert_cmpuint (notes->len, ==, 2);
  }
  g_assert_nonnull (expected);

  window = sequin_test_window_new ();
  sequin_test_window_open (window, path);
  sequin_window_save_to (window, anim_file, sq_format_by_id ("sl-anim"));
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
  message = message_text (window);
  g_assert_null (strstr (message, "more"));
  /* more than a screenful: every line of the core's report is there */
  g_assert_cmpuint (losses->len, >, 20);
  for (guint i = 0; i < losses->len; i++)
    {
      const char *line = losses->pdata[i];
      const char *rename = sq_loss_renamed (line);

      if (rename != NULL)
        n_renamed++;
      if (strstr (message, rename != NULL ? rename : line) == NULL)
        g_error ("the Save As question does not list “%s”:\n%s", line, message);
    }
  g_assert_cmpuint (n_renamed, >=, 18);
  g_assert_nonnull (strstr (message, "back → mTorso"));
  g_assert_nonnull (strstr (message, "Joints renamed:"));
  /* the notes come last, each as the command line says it after "note:" */
  notes_at = strstr (message, "Notes:");
  g_assert_nonnull (notes_at);
  for (guint i = 0; i < notes->len; i++)
    if (strstr (notes_at, notes->pdata[i]) == NULL)
      g_error ("the Save As question does not list the note “%s”:\n%s", (const char *) notes->pdata[i], message);
  g_assert_nonnull (strstr (notes_at, "joints retargeted from the rest pose of ActiveWorlds binary SEQ"));
  g_assert_nonnull (strstr (notes_at, "upload limit"));
  respond (window, GTK_RESPONSE_ACCEPT);
  SEQUIN_TEST_WAIT_UNTIL (g_file_test (anim_path, G_FILE_TEST_EXISTS)
                          && !sequin_document_get_busy (sequin_window_get_document (window)));
  {
    g_autoptr(GBytes) written = sequin_test_read_bytes (anim_path);
    g_assert_true (g_bytes_equal (written, expected));
  }
  /* told once, in the question: no second message after the save */
  g_assert_null (window->message_dialog);
  sequin_test_window_destroy (window);
}

static void
test_unsaved_changes_prompt (void)
{
  g_autofree char *corpus = sequin_test_corpus_file ("seq-binary/maca.seq");
  g_autofree char *path = NULL;
  g_autofree char *message = NULL;
  g_autoptr(SqClip) saved = NULL;
  SequinWindow *window;
  SequinWindow *watch;

  path = sequin_test_tmp_copy (corpus, "window-close.seq");

  window = sequin_test_window_new ();
  watch = window;
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &watch);
  sequin_test_window_open (window, path);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();

  /* unmodified: closes without a question */
  {
    SequinWindow *other = sequin_test_window_new ();
    SequinWindow *other_watch = other;

    g_object_add_weak_pointer (G_OBJECT (other), (gpointer *) &other_watch);
    sequin_test_window_open (other, path);
    /* these checks count rows of the flat view */
    sequin_joint_tree_set_hierarchy (other->joint_tree, FALSE);
    sequin_test_flush ();
    sequin_test_activate (other, "win.close");
    g_assert_null (other_watch);
  }

  sequin_test_activate (window, "win.delete-joint");   /* nothing selected: disabled */
  g_assert_false (sequin_document_get_modified (sequin_window_get_document (window)));
  sequin_test_activate (window, "win.invert-xz-all");
  g_assert_true (sequin_document_get_modified (sequin_window_get_document (window)));

  /* Cancel: nothing happens */
  gtk_window_close (GTK_WINDOW (window));
  sequin_test_flush ();
  g_assert_nonnull (watch);
  message = message_text (window);
  g_assert_nonnull (strstr (message, "Save Changes to “window-close.seq”?"));
  respond (window, GTK_RESPONSE_CANCEL);
  g_assert_nonnull (watch);
  g_assert_true (sequin_document_get_modified (sequin_window_get_document (window)));

  /* Save: saves, then closes */
  sequin_test_activate (window, "win.close");
  g_assert_nonnull (window->message_dialog);
  respond (window, GTK_RESPONSE_ACCEPT);
  SEQUIN_TEST_WAIT_UNTIL (watch == NULL);
  saved = sequin_test_load_clip (path);
  {
    g_autoptr(SqClip) expected = sequin_test_load_clip (corpus);
    g_autoptr(SqEdit) edit = sq_edit_invert_xz_new (NULL);

    g_assert_true (sq_edit_apply (edit, expected, NULL));
    g_assert_true (sq_clip_equal (saved, expected));
  }

  /* Discard: closes, the file stays as it was */
  window = sequin_test_window_new ();
  watch = window;
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &watch);
  sequin_test_window_open (window, path);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();
  sequin_test_activate (window, "win.invert-xz-all");
  sequin_test_activate (window, "win.close");
  respond (window, GTK_RESPONSE_REJECT);
  g_assert_null (watch);
  {
    g_autoptr(SqClip) unchanged = sequin_test_load_clip (path);
    g_assert_true (sq_clip_equal (unchanged, saved));
  }
}

static void
write_bad_file (const char *path)
{
  /* binary SEQ magic, then a joint count no 60-byte file can hold */
  guint8 data[60] = { 0x7F, 0x7F, 0x7F, 0x79, 0x00, 0x10, 0x7F, 0xFF, 0xFF, 0xFF };

  g_assert_true (g_file_set_contents (path, (const char *) data, sizeof data, NULL));
}

static guint
count_windows (void)
{
  guint n = 0;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (sequin_test_application ())); l; l = l->next)
    n += SEQUIN_IS_WINDOW (l->data);
  return n;
}

static void
test_bad_file (void)
{
  g_autofree char *corpus = sequin_test_corpus_file ("seq-binary/maca.seq");
  g_autofree char *bad = g_build_filename (sequin_test_tmpdir (), "bad.seq", NULL);
  g_autofree char *message = NULL;
  g_autoptr(GFile) bad_file = g_file_new_for_path (bad);
  g_autoptr(SqClip) before = NULL;
  SequinWindow *window;
  SequinDocument *doc;
  guint windows;

  write_bad_file (bad);

  /* an empty window stays empty */
  window = sequin_test_window_new ();
  windows = count_windows ();
  sequin_window_open_file (window, bad_file, FALSE);
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
  message = message_text (window);
  g_assert_nonnull (strstr (message, "bad.seq"));
  g_assert_nonnull (strstr (message, "offset"));
  g_assert_true (sequin_window_is_empty (window));
  g_assert_cmpuint (count_windows (), ==, windows);
  respond (window, GTK_RESPONSE_CLOSE);
  g_assert_null (window->message_dialog);

  if (corpus == NULL)
    {
      sequin_test_window_destroy (window);
      return;
    }

  /* a window with an animation keeps it, unchanged */
  sequin_test_window_open (window, corpus);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();
  doc = sequin_window_get_document (window);
  sequin_test_activate (window, "win.invert-xz-all");
  before = sq_clip_copy (sequin_test_window_clip (window));
  sequin_window_open_file (window, bad_file, FALSE);
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
  g_assert_true (sequin_window_get_document (window) == doc);
  g_assert_true (sq_clip_equal (sequin_test_window_clip (window), before));
  g_assert_true (sequin_document_get_modified (doc));
  g_assert_true (sequin_document_can_undo (doc));
  g_assert_cmpuint (n_rows (window), ==, 27);
  g_assert_cmpstr (gtk_label_get_text (window->title_label), ==, "• maca.seq");
  g_assert_cmpuint (count_windows (), ==, windows);
  respond (window, GTK_RESPONSE_CLOSE);

  /* a good file opened from a window with an animation gets a window of its own */
  sequin_window_open_file (window, bad_file, FALSE);
  {
    g_autoptr(GFile) good = g_file_new_for_path (corpus);

    SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
    respond (window, GTK_RESPONSE_CLOSE);
    sequin_window_open_file (window, good, FALSE);
    SEQUIN_TEST_WAIT_UNTIL (count_windows () == windows + 1);
    g_assert_true (sequin_window_get_document (window) == doc);
  }
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (sequin_test_application ())); l; l = l->next)
    if (l->data != window && SEQUIN_IS_WINDOW (l->data))
      {
        g_assert_false (sequin_window_is_empty (l->data));
        sequin_test_window_destroy (l->data);
        break;
      }
  sequin_test_window_destroy (window);
}

static void
test_changed_on_disk (void)
{
  g_autofree char *corpus = sequin_test_corpus_file ("seq-binary/maca.seq");
  g_autofree char *path = NULL;
  g_autofree char *message = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) on_disk = NULL;
  g_autoptr(SqClip) saved = NULL;
  SequinWindow *window;
  SequinDocument *doc;

  path = sequin_test_tmp_copy (corpus, "window-etag.seq");
  file = g_file_new_for_path (path);
  window = sequin_test_window_new ();
  sequin_test_window_open (window, path);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();
  doc = sequin_window_get_document (window);
  sequin_test_activate (window, "win.invert-xz-all");

  g_assert_true (g_file_set_contents (path, "another program", -1, NULL));
  g_assert_true (g_file_set_attribute_uint64 (file, G_FILE_ATTRIBUTE_TIME_MODIFIED,
                                              g_get_real_time () / G_USEC_PER_SEC + 100,
                                              G_FILE_QUERY_INFO_NONE, NULL, NULL));

  sequin_test_activate (window, "win.save");
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
  message = message_text (window);
  g_assert_nonnull (strstr (message, "Changed on Disk"));
  respond (window, GTK_RESPONSE_CANCEL);
  on_disk = sequin_test_read_bytes (path);
  g_assert_cmpmem (g_bytes_get_data (on_disk, NULL), g_bytes_get_size (on_disk), "another program", 15);
  g_assert_true (sequin_document_get_modified (doc));

  sequin_test_activate (window, "win.save");
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
  respond (window, GTK_RESPONSE_ACCEPT);
  SEQUIN_TEST_WAIT_UNTIL (!sequin_document_get_modified (doc));
  saved = sequin_test_load_clip (path);
  g_assert_true (sq_clip_equal (saved, sequin_test_window_clip (window)));
  sequin_test_window_destroy (window);
}

static void
test_failed_save (void)
{
  g_autofree char *corpus = sequin_test_corpus_file ("seq-binary/maca.seq");
  g_autofree char *path = NULL;
  g_autofree char *message = NULL;
  g_autoptr(GFile) nowhere = NULL;
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  SequinWindow *window;

  path = sequin_test_tmp_copy (corpus, "window-fail.seq");
  nowhere = g_file_new_build_filename (sequin_test_tmpdir (), "missing-folder", "x.seq", NULL);
  before = sequin_test_read_bytes (path);
  window = sequin_test_window_new ();
  sequin_test_window_open (window, path);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();
  sequin_test_activate (window, "win.invert-xz-all");
  sequin_window_save_to (window, nowhere, NULL);
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
  message = message_text (window);
  g_assert_nonnull (strstr (message, "Could Not Save “x.seq”"));
  g_assert_nonnull (strstr (message, "not changed"));
  respond (window, GTK_RESPONSE_CLOSE);
  g_assert_true (sequin_document_get_modified (sequin_window_get_document (window)));
  after = sequin_test_read_bytes (path);
  g_assert_true (g_bytes_equal (before, after));

  /* leave without the question */
  window->force_close = TRUE;
  sequin_test_window_destroy (window);
}

static void
test_open_sample (void)
{
  g_autoptr(GFile) sample = NULL;
  SequinWindow *window = sequin_test_window_new ();

  if (g_getenv ("SEQUIN_SAMPLE_DIR") == NULL)
    {
      g_test_fail_printf ("SEQUIN_SAMPLE_DIR is not set");
      sequin_test_window_destroy (window);
      return;
    }
  sample = g_file_new_build_filename (g_getenv ("SEQUIN_SAMPLE_DIR"), "wave.seq", NULL);
  if (!g_file_query_exists (sample, NULL))
    {
      g_test_fail_printf ("missing test input: %s", g_file_peek_path (sample));
      sequin_test_window_destroy (window);
      return;
    }
  sequin_test_activate (window, "win.open-sample");
  SEQUIN_TEST_WAIT_UNTIL (sequin_window_get_document (window) != NULL);
  /* a copy: the title names it, but saving asks where */
  g_assert_cmpstr (sequin_document_get_title (sequin_window_get_document (window)), ==, "wave.seq");
  g_assert_null (sequin_document_get_file (sequin_window_get_document (window)));
  g_assert_cmpuint (n_rows (window), >, 0);
  sequin_test_window_destroy (window);
}

static void
test_many_keys (void)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (sequin_test_tmpdir (), "many.seq", NULL);
  SequinWindow *window;
  SqJoint *joint;
  gint64 start;
  double elapsed;

  /* 100,000 rotation keys on one joint, 2 on another. The times are logged,
   * not asserted: speed is measured by tests/ui/sequin-ui-bench */
  clip->fps = 30;
  clip->duration = 99999 / 30.0;
  joint = sq_clip_add_joint (clip, "pelvis");
  sq_track_reserve (&joint->tracks[SQ_CHANNEL_ROTATION], 100000);
  for (guint i = 0; i < 100000; i++)
    {
      SqKey *key = sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], i / 30.0);
      key->v[0] = 1;
    }
  joint = sq_clip_add_joint (clip, "back");
  sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 0)->v[0] = 1;
  sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], clip->duration)->v[0] = 1;
  bytes = sq_save_bytes (clip, sq_format_by_id ("seq-text"), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));

  window = sequin_test_window_new ();
  sequin_test_window_open (window, path);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();
  g_assert_cmpuint (n_rows (window), ==, 2);

  start = g_get_monotonic_time ();
  g_assert_true (sequin_joint_tree_expand_joint (window->joint_tree, 0, TRUE));
  sequin_test_flush ();
  elapsed = (g_get_monotonic_time () - start) / 1e6;
  g_assert_cmpuint (n_rows (window), ==, 100002);
  g_test_message ("expanding 100,000 keys took %.3f s", elapsed);

  /* jump to the last key and back: only the rows in view are made */
  start = g_get_monotonic_time ();
  g_assert_true (sequin_joint_tree_select_key (window->joint_tree, 0, SQ_CHANNEL_ROTATION, 99999));
  sequin_test_flush ();
  g_assert_true (sequin_joint_tree_select_key (window->joint_tree, 0, SQ_CHANNEL_ROTATION, 0));
  sequin_test_flush ();
  elapsed = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("scrolling through 100,000 keys took %.3f s", elapsed);

  /* scrolling page by page through the middle of the rows */
  {
    GtkWidget *scroller = gtk_widget_get_ancestor (gtk_widget_get_first_child (GTK_WIDGET (window->joint_tree)),
                                                   GTK_TYPE_SCROLLED_WINDOW);
    GtkAdjustment *adj;
    double worst = 0;

    if (!GTK_IS_SCROLLED_WINDOW (scroller))
      scroller = gtk_widget_get_first_child (GTK_WIDGET (window->joint_tree));
    g_assert_true (GTK_IS_SCROLLED_WINDOW (scroller));
    adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
    g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >, 100000.0);
    for (guint i = 0; i < 20; i++)
      {
        gint64 t0 = g_get_monotonic_time ();
        double step;

        gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj) / 2 + i * gtk_adjustment_get_page_size (adj));
        while (g_main_context_pending (NULL))
          g_main_context_iteration (NULL, FALSE);
        step = (g_get_monotonic_time () - t0) / 1e6;
        worst = MAX (worst, step);
      }
    g_test_message ("scrolling a page of 100,000 rows: worst %.1f ms", worst * 1000);
  }

  /* the structure of 100,000 keys */
  start = g_get_monotonic_time ();
  gtk_stack_set_visible_child_name (window->view_stack, "structure");
  sequin_test_flush ();
  elapsed = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("showing the structure of 100,000 keys took %.3f s", elapsed);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->structure_lines)), >, 100000);
  gtk_stack_set_visible_child_name (window->view_stack, "tree");

  /* an edit of the whole joint keeps the rows */
  start = g_get_monotonic_time ();
  sequin_test_activate (window, "win.invert-xz-all");
  elapsed = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("inverting 100,000 keys took %.3f s", elapsed);
  g_assert_cmpuint (n_rows (window), ==, 100002);

  window->force_close = TRUE;
  sequin_test_window_destroy (window);
}

/* The preview poses the skeleton at the playhead; playing moves the
 * playhead in a loop; the camera turns from the keyboard's actions */
static void
test_preview_and_play (void)
{
  g_autofree char *path = sequin_test_corpus_file ("bvh/~walk_Male.bvh");
  g_autofree double *first = NULL;
  const double *points;
  const SqClip *clip;
  SequinWindow *window;
  double yaw, pitch, distance, yaw2, t0;
  gsize n;
  gssize selected;
  gboolean moved = FALSE;

  window = sequin_test_window_new ();
  sequin_test_window_open (window, path);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();
  clip = sequin_test_window_clip (window);

  /* hidden: nothing is posed */
  points = sequin_preview_get_figure (window->preview, &n, NULL);
  g_assert_cmpuint (n, ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s", "preview"));
  sequin_test_flush ();
  points = sequin_preview_get_figure (window->preview, &n, NULL);
  g_assert_cmpuint (n, ==, clip->n_joints);
  /* a figure standing on the floor: the head above the hip (Y up) */
  {
    gssize hip = sq_clip_find_joint (clip, "hip"), head = sq_clip_find_joint (clip, "head");
    g_assert_cmpint (hip, >=, 0);
    g_assert_cmpint (head, >=, 0);
    g_assert_cmpfloat (points[head * 3 + 1], >, points[hip * 3 + 1] + 0.3);
  }
  first = g_memdup2 (points, 3 * n * sizeof (double));

  /* the playhead moves: so does the figure */
  sequin_timeline_set_time (SEQUIN_TIMELINE (window->timeline), clip->duration / 3);
  sequin_test_flush ();
  points = sequin_preview_get_figure (window->preview, &n, NULL);
  for (gsize k = 0; k < 3 * n; k++)
    moved |= fabs (points[k] - first[k]) > 1e-4;
  g_assert_true (moved);

  /* the joint selected in the tree is highlighted */
  sequin_joint_tree_select_joint (window->joint_tree, 3);
  sequin_test_flush ();
  sequin_preview_get_figure (window->preview, &n, &selected);
  g_assert_cmpint (selected, ==, 3);

  /* play, in a loop, and pause */
  t0 = sequin_timeline_get_time (SEQUIN_TIMELINE (window->timeline));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.play", NULL));
  g_assert_true (gtk_toggle_button_get_active (window->play_button));
  SEQUIN_TEST_WAIT_UNTIL (fabs (sequin_timeline_get_time (SEQUIN_TIMELINE (window->timeline)) - t0) > 0.05);
  g_assert_cmpfloat (sequin_timeline_get_time (SEQUIN_TIMELINE (window->timeline)), <=, clip->duration);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.play", NULL));
  g_assert_false (gtk_toggle_button_get_active (window->play_button));
  t0 = sequin_timeline_get_time (SEQUIN_TIMELINE (window->timeline));
  sequin_test_flush ();
  g_assert_cmpfloat (sequin_timeline_get_time (SEQUIN_TIMELINE (window->timeline)), ==, t0);

  /* the camera, from its keyboard actions */
  sequin_preview_get_camera (window->preview, &yaw, &pitch, &distance);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window->preview), "preview.turn-left", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window->preview), "preview.zoom-in", NULL));
  sequin_preview_get_camera (window->preview, &yaw2, &pitch, &distance);
  g_assert_cmpfloat (fabs (yaw2 - yaw), >, 5);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window->preview), "preview.reset-view", NULL));
  sequin_preview_get_camera (window->preview, &yaw2, &pitch, &distance);
  g_assert_cmpfloat_with_epsilon (yaw2, 30, 1e-9);

  /* an edit is shown at once */
  g_assert_true (sequin_document_apply (sequin_window_get_document (window),
                                        sq_edit_delete_joint_new ("head"), NULL));
  sequin_test_flush ();
  sequin_preview_get_figure (window->preview, &n, NULL);
  g_assert_cmpuint (n, ==, sequin_test_window_clip (window)->n_joints);
  sequin_test_window_destroy (window);
}

static gboolean
names_every_family (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), "The Sims skill (CMX)") != NULL
      && strstr (gtk_label_get_text (GTK_LABEL (widget)), "SimPose-ium (PSL, KFD, SPS)") != NULL)
    return gtk_widget_get_visible (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (names_every_family (c))
      return TRUE;
  return FALSE;
}

/* A file cut short: the error leads with the plain cause, the reader's
 * detail (the byte offset) under it; the empty window names every family
 * of formats it opens */
static void
test_open_error_plain (void)
{
  g_autofree char *corpus = sequin_test_corpus_path ("seq-binary/walk.seq");
  g_autofree char *cut = g_build_filename (sequin_test_tmpdir (), "cut-short.seq", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (cut);
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *text = NULL, *secondary = NULL;
  gsize len;

  gtk_window_present (GTK_WINDOW (window));
  sequin_test_flush ();
  g_assert_true (names_every_family (GTK_WIDGET (window)));
  g_assert_true (g_file_get_contents (corpus, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (cut, contents, 60, NULL));
  sequin_window_open_file (window, file, FALSE);
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
  g_object_get (window->message_dialog, "text", &text, "secondary-text", &secondary, NULL);
  g_test_message ("%s\n%s", text, secondary);
  g_assert_cmpstr (text, ==, "Could Not Open “cut-short.seq”");
  g_assert_true (g_str_has_prefix (secondary, "The file is cut short"));
  g_assert_nonnull (strstr (secondary, "\n\n"));
  g_assert_nonnull (strstr (secondary, "offset 0x"));
  gtk_dialog_response (GTK_DIALOG (window->message_dialog), GTK_RESPONSE_CLOSE);
  sequin_test_flush ();
  sequin_test_window_destroy (window);
}

int
main (int   argc,
      char *argv[])
{
  static const struct { const char *path; EditCase which; } edits[] = {
    { "/window/edit/invert-xz-all", EDIT_INVERT_ALL },
    { "/window/edit/invert-xz-selected", EDIT_INVERT_SELECTED },
    { "/window/edit/rename-joint", EDIT_RENAME_JOINT },
    { "/window/edit/delete-joint", EDIT_DELETE_JOINT },
    { "/window/edit/rename-root", EDIT_RENAME_ROOT },
    { "/window/edit/rescale", EDIT_RESCALE },
    { "/window/edit/set-first-frame", EDIT_SET_FIRST_FRAME },
  };

  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/empty", test_empty);
  g_test_add_func ("/window/about", test_about);
  g_test_add_func ("/window/settings", test_settings);
  g_test_add_func ("/window/open", test_open_shows_joints_and_keys);
  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    g_test_add_data_func (edits[i].path, GINT_TO_POINTER (edits[i].which), test_edit);
  g_test_add_func ("/window/rename-keeps-expanded", test_rename_keeps_expanded);
  g_test_add_func ("/window/delete-keys", test_delete_keys);
  g_test_add_func ("/window/tree-and-timeline", test_tree_and_timeline_follow);
  g_test_add_func ("/window/save-binary-and-text", test_save_binary_and_text);
  g_test_add_func ("/window/save-as-renames", test_save_as_renames);
  g_test_add_func ("/window/unsaved-changes", test_unsaved_changes_prompt);
  g_test_add_func ("/window/bad-file", test_bad_file);
  g_test_add_func ("/window/changed-on-disk", test_changed_on_disk);
  g_test_add_func ("/window/failed-save", test_failed_save);
  g_test_add_func ("/window/open-sample", test_open_sample);
  g_test_add_func ("/window/many-keys", test_many_keys);
  g_test_add_func ("/window/preview-and-play", test_preview_and_play);

  g_test_add_func ("/window/open-error-plain", test_open_error_plain);
  return g_test_run ();
}
