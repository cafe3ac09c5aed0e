/* test-sims.c: the editor's Sims pages: a pose library's poses, the KFD's
 * and the skill's fields
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The test writes its own SimPose-ium files (to the spec's grammar), opens
 * them in the window and drives the Poses page through its controls found
 * by their accessible names, as assistive technology finds them; what it
 * did is read back through the core: pose names, keys, the playhead, undo.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "sequin-test-ui.h"
#include "test-utils.h"
#include "sequin-window-private.h"

/* ---- Files ------------------------------------------------------------------- */

/* A pose: `seed` makes its values */
static void
put_pose (GString *s,
          gint64   time,
          int      seed)
{
  g_string_append_printf (s, "Time %" G_GINT64_FORMAT "\r\n", time);
  g_string_append_printf (s, "| %.6f %.6f %.6f |\r\n", 0.01 * seed, 3.0 + 0.001 * seed, -0.5);
  g_string_append_printf (s, "| %.6f %.6f %.6f |\r\n", -0.036678, 0.0, 0.002 * seed);
  for (int b = 0; b < 29; b++)
    {
      double a = 0.01 * (b + seed);
      g_string_append_printf (s, "| %.6f %.6f %.6f %.6f |\r\n", sin (a), 0.0, 0.0, cos (a));
    }
}

static char *
write_file (const char *name,
            GString    *text)
{
  char *path = g_build_filename (sequin_test_tmpdir (), name, NULL);

  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  g_string_free (text, TRUE);
  return path;
}

static char *
write_library (void)
{
  GString *s = g_string_new ("POSELIBRARY 3\r\n");

  g_string_append (s, "Stand\r\n");
  put_pose (s, 0, 1);
  g_string_append (s, "Sit down\r\n");
  put_pose (s, 0, 2);
  g_string_append (s, "Wave\r\n");
  put_pose (s, 0, 3);
  return write_file ("library.psl", s);
}

static char *
write_kfd (void)
{
  GString *s = g_string_new ("KeyFrame 2 10 20\r\ns Stand\r\ne\r\n");

  put_pose (s, 0, 1);
  put_pose (s, 9, 2);
  return write_file ("bounce.kfd", s);
}

/* ---- Finding controls by their accessible names ------------------------------ */

static gboolean
has_label (GtkWidget  *widget,
           const char *label)
{
  g_autofree char *error = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget),
                                                               GTK_ACCESSIBLE_PROPERTY_LABEL, label);
  return error == NULL;
}

static GtkWidget *
find_named (GtkWidget  *widget,
            const char *label)
{
  /* controls, not the labels beside them that show the same text; a
   * mnemonic label names its control */
  if (!GTK_IS_LABEL (widget) && has_label (widget, label))
    return widget;
  if (GTK_IS_LABEL (widget) && gtk_label_get_mnemonic_widget (GTK_LABEL (widget)) != NULL
      && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), label) == 0)
    return gtk_label_get_mnemonic_widget (GTK_LABEL (widget));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_named (c, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
named (SequinWindow *window,
       const char   *label)
{
  GtkWidget *w = find_named (GTK_WIDGET (window->pose_list), label);

  if (w == NULL)
    g_error ("no control named “%s” in the pose list", label);
  return w;
}

static void
click (SequinWindow *window,
       const char   *label)
{
  GtkWidget *button = named (window, label);

  g_assert_true (GTK_IS_BUTTON (button));
  g_assert_true (gtk_widget_get_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  sequin_test_flush ();
}

/* the row of the list showing `text`, found among the rows made (the
 * list view makes those in sight) */
static GtkWidget *
row_showing (GtkWidget  *widget,
             const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = row_showing (c, text);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* What a user does: the pose's row shown, and selected as a click selects
 * it (its place in the list's selection) */
static void
select_pose (SequinWindow *window,
             const char   *name)
{
  GtkWidget *list = named (window, "Poses");
  GtkSelectionModel *model = gtk_list_view_get_model (GTK_LIST_VIEW (list));
  g_auto(GStrv) names = sq_sims_pose_names (sequin_test_window_clip (window));
  gboolean frames = g_str_has_prefix (name, "Frame ");

  g_assert_nonnull (row_showing (list, name));
  for (guint i = 0; names[i] != NULL; i++)
    if (g_strcmp0 (names[i], frames ? name + strlen ("Frame ") : name) == 0)
      {
        g_assert_true (gtk_selection_model_select_item (model, i, TRUE));
        sequin_test_flush ();
        return;
      }
  g_error ("no pose “%s” in the list", name);
}

static void
assert_poses (SequinWindow *window,
              const char   *joined)
{
  g_auto(GStrv) names = sq_sims_pose_names (sequin_test_window_clip (window));
  g_autofree char *got = g_strjoinv ("|", names);

  g_assert_cmpstr (got, ==, joined);
}

static double
playhead (SequinWindow *window)
{
  return sequin_timeline_get_time (SEQUIN_TIMELINE (window->timeline));
}

/* The ROOT's rotation W at pose `index` (the seed's cos (0.01 × seed)) */
static double
root_w (SequinWindow *window,
        gsize         index)
{
  const SqClip *clip = sequin_test_window_clip (window);

  return sq_track_key (&clip->joints[0].tracks[SQ_CHANNEL_ROTATION], index).v[0];
}

static void
action (SequinWindow *window,
        const char   *name)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), name, NULL));
  sequin_test_flush ();
}

/* ---- Tests --------------------------------------------------------------------- */

static void
test_pose_list (void)
{
  g_autofree char *path = write_library ();
  SequinWindow *window = sequin_test_window_new ();
  GtkStackPage *page;
  GtkEditable *entry;

  sequin_test_window_open (window, path);
  sequin_test_flush ();
  page = gtk_stack_get_page (GTK_STACK (window->sidebar_stack), GTK_WIDGET (window->pose_list));
  g_assert_true (gtk_stack_page_get_visible (page));
  assert_poses (window, "Stand|Sit down|Wave");

  /* selecting a pose moves the playhead (timeline, tree, preview) to it */
  select_pose (window, "Wave");
  g_assert_cmpfloat (fabs (playhead (window) - 2 / 30.0), <, 1e-9);
  select_pose (window, "Sit down");
  g_assert_cmpfloat (fabs (playhead (window) - 1 / 30.0), <, 1e-9);
  entry = GTK_EDITABLE (named (window, "Pose name"));
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "Sit down");

  /* duplicate: the copy after it, selected, the playhead on it */
  click (window, "Duplicate Pose");
  assert_poses (window, "Stand|Sit down|Sit down copy|Wave");
  g_assert_cmpint (sequin_pose_list_get_selected (window->pose_list), ==, 2);
  g_assert_cmpfloat (fabs (playhead (window) - 2 / 30.0), <, 1e-9);
  g_assert_cmpfloat (root_w (window, 2), ==, root_w (window, 1));
  g_assert_cmpfloat (root_w (window, 2), ==, 0.999800);  /* cos (0.02) to 6 decimals */

  /* move it up and down */
  click (window, "Move Pose Up");
  assert_poses (window, "Stand|Sit down copy|Sit down|Wave");
  g_assert_cmpint (sequin_pose_list_get_selected (window->pose_list), ==, 1);
  click (window, "Move Pose Down");
  click (window, "Move Pose Down");
  assert_poses (window, "Stand|Sit down|Wave|Sit down copy");
  g_assert_false (gtk_widget_get_sensitive (named (window, "Move Pose Down")));

  /* rename through the name entry */
  gtk_editable_set_text (entry, "Sitting");
  g_signal_emit_by_name (gtk_editable_get_delegate (entry), "activate");
  sequin_test_flush ();
  assert_poses (window, "Stand|Sit down|Wave|Sitting");
  /* a name another pose has: refused with the core's reason, nothing changed */
  gtk_editable_set_text (entry, "Stand");
  g_signal_emit_by_name (gtk_editable_get_delegate (entry), "activate");
  sequin_test_flush ();
  assert_poses (window, "Stand|Sit down|Wave|Sitting");
  g_assert_nonnull (sequin_pose_list_get_error (window->pose_list));
  g_assert_nonnull (strstr (sequin_pose_list_get_error (window->pose_list), "already named “Stand”"));

  /* delete, and every step undoes and redoes */
  select_pose (window, "Stand");
  click (window, "Delete Pose");
  assert_poses (window, "Sit down|Wave|Sitting");
  g_assert_cmpfloat (root_w (window, 0), ==, 0.999800);
  action (window, "win.undo");
  assert_poses (window, "Stand|Sit down|Wave|Sitting");
  action (window, "win.undo");
  assert_poses (window, "Stand|Sit down|Wave|Sit down copy");
  action (window, "win.undo");
  action (window, "win.undo");
  action (window, "win.undo");
  action (window, "win.undo");
  assert_poses (window, "Stand|Sit down|Wave");
  g_assert_false (sequin_document_get_modified (window->document));
  action (window, "win.redo");
  assert_poses (window, "Stand|Sit down|Sit down copy|Wave");

  /* a library keeps its last pose: the button is off */
  action (window, "win.undo");
  select_pose (window, "Wave");
  click (window, "Delete Pose");
  select_pose (window, "Sit down");
  click (window, "Delete Pose");
  assert_poses (window, "Stand");
  g_assert_false (gtk_widget_get_sensitive (named (window, "Delete Pose")));

  sequin_test_window_destroy (window);
}

static void
test_kfd_fields (void)
{
  g_autofree char *path = write_kfd ();
  SequinWindow *window = sequin_test_window_new ();
  GtkWidget *bounce, *start;
  GtkStackPage *page;
  SqSimsFields f;

  sequin_test_window_open (window, path);
  sequin_test_flush ();
  /* a KFD's poses are listed too */
  page = gtk_stack_get_page (GTK_STACK (window->sidebar_stack), GTK_WIDGET (window->pose_list));
  g_assert_true (gtk_stack_page_get_visible (page));
  g_assert_true (sequin_properties_panel_group_visible (window->properties_panel, SEQUIN_PROPERTY_GROUP_SIMS_KFD));
  g_assert_false (sequin_properties_panel_group_visible (window->properties_panel, SEQUIN_PROPERTY_GROUP_SIMS_SKILL));

  bounce = find_named (GTK_WIDGET (window->properties_panel), "Bounce");
  g_assert_true (bounce == sequin_properties_panel_get_control (window->properties_panel, SEQUIN_PROPERTY_SIMS_BOUNCE));
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (bounce)));
  g_assert_true (gtk_widget_activate (bounce));
  SEQUIN_TEST_WAIT_UNTIL (!gtk_switch_get_active (GTK_SWITCH (bounce)));
  sequin_test_flush ();
  sq_sims_fields_get (sequin_test_window_clip (window), &f);
  g_assert_false (f.bounce);
  g_assert_cmpint (f.sequence_length, ==, 10);

  start = find_named (GTK_WIDGET (window->properties_panel), "Start pose");
  g_assert_nonnull (start);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (start)), ==, "Stand");
  gtk_editable_set_text (GTK_EDITABLE (start), "Sit");
  g_signal_emit_by_name (gtk_editable_get_delegate (GTK_EDITABLE (start)), "activate");
  sequin_test_flush ();
  sq_sims_fields_get (sequin_test_window_clip (window), &f);
  g_assert_cmpstr (f.start_pose, ==, "Sit");

  action (window, "win.undo");
  action (window, "win.undo");
  sq_sims_fields_get (sequin_test_window_clip (window), &f);
  g_assert_true (f.bounce);
  g_assert_cmpint (f.sequence_length, ==, 20);
  g_assert_cmpstr (f.start_pose, ==, "Stand");
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (bounce)));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (start)), ==, "Stand");

  sequin_test_window_destroy (window);
}

/* A KFD's poses by their frames: selected, moved to another frame,
 * deleted (not the first or last), copied halfway to the next, reordered;
 * all undone */
static void
test_kfd_pose_list (void)
{
  GString *s = g_string_new ("KeyFrame 4 40 40\r\ns\r\ne\r\n");
  g_autofree char *path = NULL;
  SequinWindow *window = sequin_test_window_new ();
  GtkEditable *entry;
  double w1;

  put_pose (s, 0, 1);
  put_pose (s, 10, 2);
  put_pose (s, 25, 3);
  put_pose (s, 39, 4);
  path = write_file ("four.kfd", s);
  sequin_test_window_open (window, path);
  sequin_test_flush ();
  g_assert_true (gtk_stack_page_get_visible (gtk_stack_get_page (GTK_STACK (window->sidebar_stack),
                                                                  GTK_WIDGET (window->pose_list))));
  assert_poses (window, "0|10|25|39");

  select_pose (window, "Frame 25");
  g_assert_cmpfloat (fabs (playhead (window) - 25 / 30.0), <, 1e-9);
  entry = GTK_EDITABLE (named (window, "Pose frame"));
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "25");

  /* to another frame between its neighbours; the playhead follows */
  gtk_editable_set_text (entry, "30");
  g_signal_emit_by_name (gtk_editable_get_delegate (entry), "activate");
  sequin_test_flush ();
  assert_poses (window, "0|10|30|39");
  g_assert_cmpfloat (fabs (playhead (window) - 30 / 30.0), <, 1e-9);
  /* past a neighbour: refused with the core's reason */
  gtk_editable_set_text (entry, "5");
  g_signal_emit_by_name (gtk_editable_get_delegate (entry), "activate");
  sequin_test_flush ();
  assert_poses (window, "0|10|30|39");
  g_assert_nonnull (strstr (sequin_pose_list_get_error (window->pose_list), "not between frames 10 and 39"));

  /* the first and last stay */
  select_pose (window, "Frame 0");
  g_assert_false (gtk_widget_get_sensitive (named (window, "Delete Pose")));
  select_pose (window, "Frame 39");
  g_assert_false (gtk_widget_get_sensitive (named (window, "Delete Pose")));
  select_pose (window, "Frame 10");
  click (window, "Delete Pose");
  assert_poses (window, "0|30|39");

  /* a copy halfway to the next pose, selected */
  select_pose (window, "Frame 0");
  click (window, "Duplicate Pose");
  assert_poses (window, "0|15|30|39");
  g_assert_cmpint (sequin_pose_list_get_selected (window->pose_list), ==, 1);
  g_assert_cmpfloat (root_w (window, 1), ==, root_w (window, 0));

  /* reordered: the poses move, the frames stay */
  w1 = root_w (window, 1);
  click (window, "Move Pose Down");
  assert_poses (window, "0|15|30|39");
  g_assert_cmpfloat (root_w (window, 2), ==, w1);
  g_assert_cmpint (sequin_pose_list_get_selected (window->pose_list), ==, 2);

  for (int i = 0; i < 4; i++)
    action (window, "win.undo");
  assert_poses (window, "0|10|25|39");
  g_assert_false (sequin_document_get_modified (window->document));

  sequin_test_window_destroy (window);
}

/* ---- Save As beside another skill ---------------------------------------- */

/* A copy of the Sims test file `name` (tests/data/sims) in `dir` as `as`,
 * every "xskill-walk" in it made `cfp` when not NULL */
static void
copy_sims (const char *name,
           const char *dir,
           const char *as,
           const char *cfp)
{
  const char *data = g_getenv ("SEQUIN_SIMS_DATA");
  g_autofree char *from = NULL, *to = NULL;

  g_assert_nonnull (data);
  from = g_build_filename (data, name, NULL);
  to = g_build_filename (dir, as, NULL);
  tu_copy_renamed (from, to, "xskill-walk", cfp);
}

static void
save_as (SequinWindow *window,
         const char   *dir,
         const char   *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  sequin_window_save_to (window, file, NULL);
}

/* the line of `sums` for `name` */
static char *
sum_of (const char *sums,
        const char *name)
{
  g_auto(GStrv) lines = g_strsplit (sums, "\n", -1);
  g_autofree char *prefix = g_strconcat (name, " ", NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return g_strdup (lines[i]);
  return NULL;
}

/* Save As into a folder where another skill names the CFP the new name
 * would get: the editor asks (a warning with its accessible name and a
 * Replace button), Cancel changes no file; another name gets a CFP of its
 * own; Save keeps it; Replace writes only the output and that CFP */
static void
test_save_as_beside_another_skill (void)
{
  g_autofree char *dir = g_build_filename (sequin_test_tmpdir (), "skills", NULL);
  g_autofree char *walk = g_build_filename (dir, "walk.cmx", NULL);
  g_autofree char *before = NULL, *after = NULL, *text = NULL, *primary = NULL;
  g_autofree char *line = NULL;
  static const char *others[] = { "walk.cmx", "xskill-walk.cfp", "other.cmx", "xskill-mirrored.cfp" };
  g_autoptr(SqClip) mine = NULL;
  SequinWindow *window = sequin_test_window_new ();
  GtkWidget *dialog, *replace;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  copy_sims ("walk.cmx", dir, "walk.cmx", NULL);
  copy_sims ("xskill-walk.cfp", dir, "xskill-walk.cfp", NULL);
  /* another skill whose keys are in the CFP "mirrored.cmx" would get */
  copy_sims ("walk.cmx", dir, "other.cmx", "xskill-mirrored");
  copy_sims ("xskill-walk.cfp", dir, "xskill-mirrored.cfp", NULL);
  before = tu_folder_sums (dir);

  sequin_test_window_open (window, walk);
  sequin_test_activate (window, "win.invert-xz-all");
  save_as (window, dir, "mirrored.cmx");
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
  dialog = window->message_dialog;
  g_object_get (dialog, "text", &primary, "secondary-text", &text, NULL);
  g_assert_cmpstr (primary, ==, "Saving “mirrored.cmx” Replaces Another File’s Data");
  g_assert_nonnull (strstr (text, "“xskill-mirrored.cfp” belongs to “other.cmx”"));
  /* one accessible name, the question; Replace named by its label only */
  {
    g_autofree char *diff = gtk_test_accessible_check_property (GTK_ACCESSIBLE (dialog), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                                primary);
    g_assert_null (diff);
  }
  g_assert_false (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (dialog), GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  replace = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  g_assert_nonnull (replace);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (replace)), ==, "_Replace");
  g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (replace), GTK_ACCESSIBLE_PROPERTY_LABEL));
  g_assert_nonnull (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  sequin_test_flush ();
  after = tu_folder_sums (dir);
  g_assert_cmpstr (after, ==, before);
  g_assert_true (sequin_document_get_modified (window->document));

  /* a name of its own: its own CFP, every other file as it was */
  save_as (window, dir, "mine.cmx");
  SEQUIN_TEST_WAIT_UNTIL (!sequin_document_get_modified (window->document));
  g_assert_null (window->message_dialog);
  g_free (after);
  after = tu_folder_sums (dir);
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      g_autofree char *was = sum_of (before, others[i]);
      g_autofree char *is = sum_of (after, others[i]);
      g_assert_nonnull (was);
      g_assert_cmpstr (is, ==, was);
    }
  line = sum_of (after, "xskill-mine.cfp");
  g_assert_nonnull (line);
  {
    g_autofree char *path = g_build_filename (dir, "mine.cmx", NULL);
    g_autoptr(GBytes) bytes = sequin_test_read_bytes (path);

    g_assert_nonnull (g_strstr_len (g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), "\nxskill-mine\r\n"));
    mine = tu_load_in (dir, "mine.cmx");
    g_assert_true (sq_clip_equal (mine, sequin_test_window_clip (window)));
  }
  /* Save again: the same CFP */
  sequin_test_activate (window, "win.invert-xz-all");
  sequin_test_activate (window, "win.save");
  SEQUIN_TEST_WAIT_UNTIL (!sequin_document_get_modified (window->document));
  g_assert_null (window->message_dialog);
  g_free (before);
  before = g_steal_pointer (&after);
  after = tu_folder_sums (dir);
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      g_autofree char *was = sum_of (before, others[i]);
      g_autofree char *is = sum_of (after, others[i]);
      g_assert_cmpstr (is, ==, was);
    }
  {
    g_autofree char *is = sum_of (after, "xskill-mine.cfp");
    g_assert_cmpstr (is, !=, line);
    g_auto(GStrv) entries = g_strsplit (after, "\n", -1);

    /* and nothing left beside them: no temporary file, no old copy */
    g_assert_cmpuint (g_strv_length (entries), ==, 6);
  }

  /* Replace: the output and that CFP, nothing else */
  sequin_test_activate (window, "win.invert-xz-all");
  save_as (window, dir, "mirrored.cmx");
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
  gtk_dialog_response (GTK_DIALOG (window->message_dialog), GTK_RESPONSE_ACCEPT);
  SEQUIN_TEST_WAIT_UNTIL (!sequin_document_get_modified (window->document) && window->message_dialog == NULL);
  g_free (before);
  before = g_steal_pointer (&after);
  after = tu_folder_sums (dir);
  {
    g_autofree char *was = sum_of (before, "other.cmx"), *is = sum_of (after, "other.cmx");
    g_autofree char *cfp_was = sum_of (before, "xskill-mirrored.cfp"), *cfp_is = sum_of (after, "xskill-mirrored.cfp");
    g_autofree char *walk_was = sum_of (before, "xskill-walk.cfp"), *walk_is = sum_of (after, "xskill-walk.cfp");

    g_assert_cmpstr (is, ==, was);
    g_assert_cmpstr (walk_is, ==, walk_was);
    g_assert_cmpstr (cfp_is, !=, cfp_was);
  }
  sequin_test_window_destroy (window);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sims/pose-list", test_pose_list);
  g_test_add_func ("/sims/kfd-fields", test_kfd_fields);
  g_test_add_func ("/sims/kfd-pose-list", test_kfd_pose_list);
  g_test_add_func ("/sims/save-as-beside-another-skill", test_save_as_beside_another_skill);

  return g_test_run ();
}
