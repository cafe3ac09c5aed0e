/* test-panels.c: the properties and validation panels beside the tree
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Real corpus files are opened in the window; the panel's controls are
 * changed as a user changes them (typing into a spin button and pressing
 * Enter, flipping the switch, picking from the drop-down), and the result is
 * read back through the core: the clip's fields, undo, a saved file.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "sequin-joint-item.h"
#include "sequin-test-ui.h"
#include "sequin-utils.h"
#include "sequin-window-private.h"

#define TOWER "sl-anim/Tower.anim"
/* 7 constraints */
#define CONSTRAINED "sl-anim/17c024cc-eef2-f6a0-3527-9869876d7752.dat"
/* a joint Second Life does not know: one warning */
#define ODD_JOINT "sl-anim/46bb4359-de38-4ed8-6a22-f1f52fe8f506.dat"
#define DX_FILE "dx-anim/anim_test.x"
#define BVH_FILE "bvh/Relaxed.bvh"
/* a run: saved as .anim, some joints move by more than the notes' threshold */
#define MOVING_BVH "bvh/131_01.bvh"

/* ---- Helpers --------------------------------------------------------------- */

/* Opens a corpus file in a new window (a missing file fails the test) */
static SequinWindow *
open_corpus (const char  *name,
             char       **path_out)
{
  g_autofree char *path = sequin_test_corpus_file (name);
  SequinWindow *window;

  window = sequin_test_window_new ();
  sequin_test_window_open (window, path);
  /* these checks count rows of the flat view */
  sequin_joint_tree_set_hierarchy (window->joint_tree, FALSE);
  sequin_test_flush ();
  if (path_out != NULL)
    *path_out = g_steal_pointer (&path);
  return window;
}

static GtkWidget *
control (SequinWindow   *window,
         SequinProperty  property)
{
  return sequin_properties_panel_get_control (window->properties_panel, property);
}

/* What a user does: type the text, press Enter */
static void
type_into (SequinWindow   *window,
           SequinProperty  property,
           const char     *text)
{
  GtkWidget *widget = control (window, property);

  GtkEditable *delegate = gtk_editable_get_delegate (GTK_EDITABLE (widget));

  gtk_editable_set_text (GTK_EDITABLE (widget), text);
  /* Enter in the text inside the entry or spin button */
  g_assert_true (GTK_IS_TEXT (delegate));
  g_signal_emit_by_name (delegate, "activate");
  sequin_test_flush ();
}

/* What a user does: activate the switch (it flips at the end of its animation) */
static void
flip_switch (SequinWindow *window)
{
  GtkSwitch *toggle = GTK_SWITCH (control (window, SEQUIN_PROPERTY_SL_LOOP));
  gboolean was = gtk_switch_get_active (toggle);

  g_assert_true (gtk_widget_activate (GTK_WIDGET (toggle)));
  SEQUIN_TEST_WAIT_UNTIL (gtk_switch_get_active (toggle) != was);
  sequin_test_flush ();
}

static double
spin_value (SequinWindow   *window,
            SequinProperty  property)
{
  return gtk_spin_button_get_value (GTK_SPIN_BUTTON (control (window, property)));
}

static void
undo (SequinWindow *window)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
  sequin_test_flush ();
}

static void
redo (SequinWindow *window)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL));
  sequin_test_flush ();
}

/* The panel shows `f` */
static void
assert_panel_shows (SequinWindow     *window,
                    const SqSlFields *f)
{
  g_assert_cmpfloat (spin_value (window, SEQUIN_PROPERTY_SL_PRIORITY), ==, f->priority);
  g_assert_cmpint (gtk_switch_get_active (GTK_SWITCH (control (window, SEQUIN_PROPERTY_SL_LOOP))), ==, f->loop);
  g_assert_cmpfloat_with_epsilon (spin_value (window, SEQUIN_PROPERTY_SL_LOOP_IN), f->loop_in, 1e-9);
  g_assert_cmpfloat_with_epsilon (spin_value (window, SEQUIN_PROPERTY_SL_LOOP_OUT), f->loop_out, 1e-9);
  g_assert_cmpfloat_with_epsilon (spin_value (window, SEQUIN_PROPERTY_SL_EASE_IN), f->ease_in, 1e-9);
  g_assert_cmpfloat_with_epsilon (spin_value (window, SEQUIN_PROPERTY_SL_EASE_OUT), f->ease_out, 1e-9);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (control (window, SEQUIN_PROPERTY_SL_HAND_POSE))),
                    ==, f->hand_pose);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (control (window, SEQUIN_PROPERTY_SL_EMOTE))), ==, f->emote);
}

/* Every label under `widget`, in order, joined by "\n" */
static void
collect_labels (GtkWidget *widget,
                GString   *out)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    g_string_append_printf (out, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_labels (c, out);
}

/* ---- Second Life fields ---------------------------------------------------- */

static void
test_sl_fields (void)
{
  g_autofree char *path = NULL;
  g_autofree char *saved_path = NULL;
  g_autoptr(SqClip) original = NULL;
  g_autoptr(SqClip) reread = NULL;
  g_autoptr(GFile) saved = NULL;
  SequinWindow *window = open_corpus (TOWER, &path);
  SqSlFields before, after, f;
  SequinDocument *doc;
  const SqClip *clip;
  gssize mhip;

  doc = sequin_window_get_document (window);
  clip = sequin_test_window_clip (window);
  original = sequin_test_load_clip (path);
  sq_sl_fields_get (original, &before);

  /* Tower.anim: priority 4, looping from 1.208 to 2.875 s, ease 2 s, hand pose 1 */
  g_assert_true (sequin_properties_panel_group_visible (window->properties_panel, SEQUIN_PROPERTY_GROUP_SL));
  g_assert_false (sequin_properties_panel_group_visible (window->properties_panel, SEQUIN_PROPERTY_GROUP_SL_OTHER));
  g_assert_false (sequin_properties_panel_group_visible (window->properties_panel, SEQUIN_PROPERTY_GROUP_DX));
  g_assert_false (sequin_properties_panel_group_visible (window->properties_panel, SEQUIN_PROPERTY_GROUP_BVH));
  g_assert_cmpint (before.priority, ==, 4);
  g_assert_true (before.loop);
  g_assert_cmpfloat_with_epsilon (before.loop_in, 1.2083333730697632, 1e-12);
  g_assert_cmpfloat (before.loop_out, ==, 2.875);
  g_assert_cmpfloat (before.ease_in, ==, 2.0);
  g_assert_cmpfloat (before.ease_out, ==, 2.0);
  g_assert_cmpuint (before.hand_pose, ==, 1);
  assert_panel_shows (window, &before);
  g_assert_cmpstr (gtk_drop_down_get_selected_item (GTK_DROP_DOWN (control (window, SEQUIN_PROPERTY_SL_HAND_POSE))) != NULL
                   ? gtk_string_object_get_string (gtk_drop_down_get_selected_item (GTK_DROP_DOWN (control (window, SEQUIN_PROPERTY_SL_HAND_POSE))))
                   : NULL, ==, sq_sl_hand_pose_name (1));

  /* a spin button that loses the focus with its rounded text is no edit */
  gtk_spin_button_update (GTK_SPIN_BUTTON (control (window, SEQUIN_PROPERTY_SL_LOOP_IN)));
  sequin_test_flush ();
  g_assert_false (sequin_document_can_undo (doc));

  /* each field, through its control */
  type_into (window, SEQUIN_PROPERTY_SL_PRIORITY, "5");
  sq_sl_fields_get (clip, &f);
  g_assert_cmpint (f.priority, ==, 5);
  flip_switch (window);
  sq_sl_fields_get (clip, &f);
  g_assert_false (f.loop);
  g_assert_false (gtk_widget_get_sensitive (control (window, SEQUIN_PROPERTY_SL_LOOP_IN)));
  flip_switch (window);
  type_into (window, SEQUIN_PROPERTY_SL_LOOP_IN, "0.5");
  type_into (window, SEQUIN_PROPERTY_SL_LOOP_OUT, "2,25"); /* a decimal comma reads too */
  type_into (window, SEQUIN_PROPERTY_SL_EASE_IN, "1");
  type_into (window, SEQUIN_PROPERTY_SL_EASE_OUT, "0.75");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (control (window, SEQUIN_PROPERTY_SL_HAND_POSE)), 3);
  sequin_test_flush ();
  type_into (window, SEQUIN_PROPERTY_SL_EMOTE, "express_smile");
  sq_sl_fields_get (clip, &after);
  g_assert_cmpint (after.priority, ==, 5);
  g_assert_true (after.loop);
  g_assert_cmpfloat (after.loop_in, ==, 0.5);
  g_assert_cmpfloat (after.loop_out, ==, 2.25);
  g_assert_cmpfloat (after.ease_in, ==, 1.0);
  g_assert_cmpfloat (after.ease_out, ==, 0.75);
  g_assert_cmpuint (after.hand_pose, ==, 3);
  g_assert_cmpstr (after.emote, ==, "express_smile");
  assert_panel_shows (window, &after);

  /* one joint's priority: the joint selected in the tree */
  g_assert_false (gtk_widget_get_sensitive (control (window, SEQUIN_PROPERTY_SL_JOINT_PRIORITY)));
  mhip = sq_clip_find_joint (clip, "mHipLeft");
  g_assert_cmpint (mhip, >=, 0);
  sequin_joint_tree_select_joint (window->joint_tree, mhip);
  sequin_test_flush ();
  g_assert_true (gtk_widget_get_sensitive (control (window, SEQUIN_PROPERTY_SL_JOINT_PRIORITY)));
  g_assert_cmpfloat (spin_value (window, SEQUIN_PROPERTY_SL_JOINT_PRIORITY), ==, sq_sl_joint_priority (clip, mhip));
  type_into (window, SEQUIN_PROPERTY_SL_JOINT_PRIORITY, "6");
  g_assert_cmpint (sq_sl_joint_priority (clip, mhip), ==, 6);

  /* undo, all the way back: the panel follows */
  for (guint i = 0; i < 10; i++)
    {
      g_assert_true (sequin_document_can_undo (doc));
      undo (window);
    }
  g_assert_false (sequin_document_can_undo (doc));
  sq_sl_fields_get (clip, &f);
  g_assert_true (memcmp (&f, &before, sizeof f) == 0 || (f.priority == before.priority && f.loop == before.loop
                 && f.loop_in == before.loop_in && f.loop_out == before.loop_out && f.ease_in == before.ease_in
                 && f.ease_out == before.ease_out && f.hand_pose == before.hand_pose
                 && g_str_equal (f.emote, before.emote)));
  assert_panel_shows (window, &before);
  g_assert_cmpfloat (spin_value (window, SEQUIN_PROPERTY_SL_JOINT_PRIORITY), ==, sq_sl_joint_priority (original, mhip));
  g_assert_true (sq_clip_equal (clip, original));

  /* redo, then save as .anim and read it back with the core */
  for (guint i = 0; i < 10; i++)
    redo (window);
  assert_panel_shows (window, &after);
  saved_path = g_build_filename (sequin_test_tmpdir (), "panels-tower.anim", NULL);
  saved = g_file_new_for_path (saved_path);
  sequin_window_save_to (window, saved, sq_format_by_id ("sl-anim"));
  SEQUIN_TEST_WAIT_UNTIL (!sequin_document_get_busy (doc) && !sequin_document_get_modified (doc));
  g_assert_null (window->message_dialog);
  reread = sequin_test_load_clip (saved_path);
  sq_sl_fields_get (reread, &f);
  g_assert_cmpint (f.priority, ==, 5);
  g_assert_true (f.loop);
  /* the file keeps single-precision floats */
  g_assert_cmpfloat_with_epsilon (f.loop_in, 0.5, 1e-6);
  g_assert_cmpfloat_with_epsilon (f.loop_out, 2.25, 1e-6);
  g_assert_cmpfloat_with_epsilon (f.ease_in, 1.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (f.ease_out, 0.75, 1e-6);
  g_assert_cmpuint (f.hand_pose, ==, 3);
  g_assert_cmpstr (f.emote, ==, "express_smile");
  g_assert_cmpint (sq_sl_joint_priority (reread, sq_clip_find_joint (reread, "mHipLeft")), ==, 6);

  sequin_test_window_destroy (window);
}

/* The core refuses: its message shows, the control goes back, nothing is on the undo stack */
static void
test_refusal (void)
{
  SequinWindow *window = open_corpus (TOWER, NULL);
  g_autofree char *expected = NULL;
  g_autoptr(SqEdit) edit = NULL;
  g_autoptr(SqClip) copy = NULL;
  g_autoptr(GError) error = NULL;
  SequinDocument *doc;
  SqSlFields f;

  doc = sequin_window_get_document (window);
  sq_sl_fields_get (sequin_test_window_clip (window), &f);

  /* the core's own message, for the same edit */
  copy = sq_clip_copy (sequin_test_window_clip (window));
  edit = sq_edit_sl_loop_new (TRUE, f.loop_in, 99);
  g_assert_false (sq_edit_apply (edit, copy, &error));

  type_into (window, SEQUIN_PROPERTY_SL_LOOP_OUT, "99");
  g_assert_false (sequin_document_can_undo (doc));
  g_assert_nonnull (sequin_properties_panel_get_error (window->properties_panel));
  g_assert_nonnull (strstr (sequin_properties_panel_get_error (window->properties_panel), error->message));
  g_assert_cmpfloat (spin_value (window, SEQUIN_PROPERTY_SL_LOOP_OUT), ==, f.loop_out);

  /* an emote the file cannot hold */
  type_into (window, SEQUIN_PROPERTY_SL_EMOTE, "笑顔");
  g_assert_false (sequin_document_can_undo (doc));
  g_assert_nonnull (sequin_properties_panel_get_error (window->properties_panel));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (control (window, SEQUIN_PROPERTY_SL_EMOTE))), ==, f.emote);

  /* the next good edit clears the message */
  type_into (window, SEQUIN_PROPERTY_SL_EASE_IN, "0.5");
  g_assert_true (sequin_document_can_undo (doc));
  g_assert_null (sequin_properties_panel_get_error (window->properties_panel));

  sequin_test_window_destroy (window);
}

/* ---- Constraints ----------------------------------------------------------- */

/* "(0 -1.5 0)" as the dump writes it → "(0, -1.5, 0)" as the panel does */
static char *
commas (const char *s)
{
  g_auto(GStrv) parts = g_strsplit (s, " ", -1);

  return g_strjoinv (", ", parts);
}

static void
test_constraints (void)
{
  g_autofree char *path = NULL;
  SequinWindow *window = open_corpus (CONSTRAINED, &path);
  g_autoptr(SqClip) clip = NULL;
  g_autofree char *dump = NULL;
  g_auto(GStrv) lines = NULL;
  GtkWidget *list;
  guint n_rows = 0, n_dump = 0;

  clip = sequin_test_load_clip (path);
  /* what `sequin-cli dump` prints */
  dump = sq_dump_text (clip);
  lines = g_strsplit (dump, "\n", -1);
  list = control (window, SEQUIN_PROPERTY_SL_CONSTRAINTS);
  g_assert_true (gtk_widget_get_visible (list));
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    n_rows++;
  g_assert_cmpuint (n_rows, ==, 7);
  g_assert_cmpuint (sq_sl_constraint_count (clip), ==, 7);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint index, chain;
      char type[16], source[32], sx[64], target[32], tx[64];
      const char *ease;
      g_autoptr(GString) text = g_string_new (NULL);
      g_autofree char *expected = NULL;
      g_autofree char *offset = NULL;
      GtkListBoxRow *row;

      if (sscanf (lines[i], " %u: %15s chain %u, %31s (%63[^)]) → %31s (%63[^)])",
                  &index, type, &chain, source, sx, target, tx) != 7)
        continue;
      n_dump++;
      row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), index - 1);
      g_assert_nonnull (row);
      collect_labels (GTK_WIDGET (row), text);
      expected = g_strdup_printf ("%u. %c%s, chain of %u\n", index, g_ascii_toupper (type[0]), type + 1, chain);
      g_assert_nonnull (strstr (text->str, expected));
      g_clear_pointer (&expected, g_free);
      offset = commas (sx);
      expected = g_strdup_printf ("From %s (%s)\n", source, offset);
      g_assert_nonnull (strstr (text->str, expected));
      g_clear_pointer (&expected, g_free);
      g_clear_pointer (&offset, g_free);
      offset = commas (tx);
      expected = g_strdup_printf ("To %s (%s)\n", target, offset);
      g_assert_nonnull (strstr (text->str, expected));
      g_clear_pointer (&expected, g_free);
      ease = strstr (lines[i], "ease in ");
      g_assert_nonnull (ease);
      expected = g_strdup_printf ("E%s\n", ease + 1);
      g_assert_nonnull (strstr (text->str, expected));
    }
  g_assert_cmpuint (n_dump, ==, 7);

  /* Delete on the first row; Undo brings it back */
  {
    GtkListBoxRow *row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0);
    GtkWidget *box = gtk_list_box_row_get_child (row);
    GtkWidget *button = gtk_widget_get_last_child (gtk_widget_get_first_child (box));

    g_assert_true (GTK_IS_BUTTON (button));
    g_signal_emit_by_name (button, "clicked");
    sequin_test_flush ();
    g_assert_cmpuint (sq_sl_constraint_count (sequin_test_window_clip (window)), ==, 6);
    g_assert_null (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 6));
    undo (window);
    g_assert_cmpuint (sq_sl_constraint_count (sequin_test_window_clip (window)), ==, 7);
    g_assert_nonnull (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 6));
    g_assert_true (sq_clip_equal (sequin_test_window_clip (window), clip));
  }

  sequin_test_window_destroy (window);
}

static void
test_no_constraints (void)
{
  SequinWindow *window = open_corpus (TOWER, NULL);
  GString *text = g_string_new (NULL);

  g_assert_false (gtk_widget_get_visible (control (window, SEQUIN_PROPERTY_SL_CONSTRAINTS)));
  collect_labels (GTK_WIDGET (window->properties_panel), text);
  g_assert_nonnull (strstr (text->str, "No constraints\n"));
  g_string_free (text, TRUE);
  sequin_test_window_destroy (window);
}

/* ---- Validation ------------------------------------------------------------ */

static void
assert_findings_match (SequinWindow *window,
                       const char   *target)
{
  g_autoptr(GPtrArray) expected = sq_validate (sequin_test_window_clip (window), target, NULL);
  GPtrArray *shown = sequin_validation_panel_get_findings (window->validation_panel);
  GListModel *rows = G_LIST_MODEL (gtk_list_view_get_model (sequin_validation_panel_get_list (window->validation_panel)));

  g_assert_cmpstr (sequin_validation_panel_get_target (window->validation_panel), ==, target);
  g_assert_nonnull (expected);
  g_assert_cmpuint (expected->len, ==, shown != NULL ? shown->len : 0);
  /* a row per joint with findings, or per finding of the clip itself */
  {
    g_autoptr(GHashTable) joints = g_hash_table_new (NULL, NULL);
    guint top = 0;

    for (guint i = 0; i < expected->len; i++)
      {
        const SqFinding *f = expected->pdata[i];

        if (f->joint < 0)
          top++;
        else
          g_hash_table_add (joints, GSIZE_TO_POINTER ((gsize) f->joint + 1));
      }
    guint depth0 = 0;

    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
        depth0 += gtk_tree_list_row_get_depth (row) == 0;
      }
    g_assert_cmpuint (depth0, ==, top + g_hash_table_size (joints));
  }
  for (guint i = 0; i < expected->len; i++)
    {
      const SqFinding *a = expected->pdata[i], *b = shown->pdata[i];

      g_assert_cmpint (a->severity, ==, b->severity);
      g_assert_cmpint (a->joint, ==, b->joint);
      g_assert_cmpint (a->key, ==, b->key);
      g_assert_cmpstr (a->message, ==, b->message);
    }
}

static void
test_validation (void)
{
  SequinWindow *window = open_corpus (ODD_JOINT, NULL);
  GPtrArray *findings;
  const SqFinding *f;
  GtkDropDown *chooser;
  g_autofree char *joint_name = NULL;

  sequin_test_show_validation (window);

  /* a .anim is checked for Second Life first */
  assert_findings_match (window, "sl");
  findings = sequin_validation_panel_get_findings (window->validation_panel);
  /* the unknown joint, and a note on its hand pose (Fist) that Bento hands ignore */
  g_assert_cmpuint (findings->len, ==, 2);
  g_assert_cmpstr (sequin_validation_panel_get_summary (window->validation_panel), ==, "1 warning, 1 note");
  f = findings->pdata[0];
  g_assert_cmpint (f->joint, >=, 0);
  joint_name = g_strdup (sequin_test_window_clip (window)->joints[f->joint].name);
  g_assert_cmpstr (joint_name, ==, "bow_and_arrow");

  /* activating it (the row after the clip's own note) selects its joint's row in the tree */
  g_signal_emit_by_name (sequin_validation_panel_get_list (window->validation_panel), "activate", 1);
  sequin_test_flush ();
  g_assert_cmpint (sequin_joint_tree_get_current_joint (window->joint_tree), ==, f->joint);
  g_assert_true (gtk_selection_model_is_selected (sequin_joint_tree_get_selection (window->joint_tree), f->joint));

  /* after an edit, the panel checks again: without the joint, no problems */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.delete-joint", NULL));
  sequin_test_flush ();
  SEQUIN_TEST_WAIT_UNTIL (sequin_validation_panel_is_current (window->validation_panel));
  assert_findings_match (window, "sl");
  g_assert_cmpstr (sequin_validation_panel_get_summary (window->validation_panel), ==, "1 note");
  undo (window);
  SEQUIN_TEST_WAIT_UNTIL (sequin_validation_panel_is_current (window->validation_panel));
  assert_findings_match (window, "sl");
  g_assert_cmpstr (sequin_validation_panel_get_summary (window->validation_panel), ==, "1 warning, 1 note");

  /* another world, chosen in the drop-down */
  chooser = sequin_validation_panel_get_target_chooser (window->validation_panel);
  g_assert_cmpstr (gtk_string_object_get_string (gtk_drop_down_get_selected_item (chooser)), ==, "Second Life");
  for (guint i = 0; i < g_list_model_get_n_items (gtk_drop_down_get_model (chooser)); i++)
    {
      g_autoptr(GtkStringObject) name = g_list_model_get_item (gtk_drop_down_get_model (chooser), i);

      if (g_str_equal (gtk_string_object_get_string (name), "ActiveWorlds"))
        gtk_drop_down_set_selected (chooser, i);
    }
  sequin_test_flush ();
  SEQUIN_TEST_WAIT_UNTIL (sequin_validation_panel_is_current (window->validation_panel));
  assert_findings_match (window, "aw");
  g_assert_cmpuint (sequin_validation_panel_get_findings (window->validation_panel)->len, >, 1);

  sequin_test_window_destroy (window);
}

/* A finding that names a key selects that key's row and moves the timeline there */
static void
test_validation_key (void)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (sequin_test_tmpdir (), "panels-flip.x", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  SequinWindow *window = sequin_test_window_new ();
  GPtrArray *findings;
  const SqFinding *f = NULL;
  guint position = 0;
  gssize joint, key;
  SqChannel channel;
  double time;
  SqJoint *j;
  SqKey *k;

  /* the neck's first key comes after tick 0: ActiveWorlds warns about that key */
  clip->fps = 30;
  clip->duration = 1;
  j = sq_clip_add_joint (clip, "pelvis");
  k = sq_track_append (&j->tracks[SQ_CHANNEL_ROTATION], 0);
  k->v[0] = 1;
  k = sq_track_append (&j->tracks[SQ_CHANNEL_ROTATION], 1);
  k->v[0] = 1;
  k = sq_track_append (&j->tracks[SQ_CHANNEL_TRANSLATION], 0);
  k = sq_track_append (&j->tracks[SQ_CHANNEL_TRANSLATION], 1);
  j = sq_clip_add_joint (clip, "neck");
  k = sq_track_append (&j->tracks[SQ_CHANNEL_ROTATION], 0.5);
  k->v[0] = cos (G_PI / 8);
  k->v[3] = sin (G_PI / 8);
  k = sq_track_append (&j->tracks[SQ_CHANNEL_ROTATION], 1);
  k->v[0] = 1;
  bytes = sq_save_bytes (clip, sq_format_by_id ("dx"), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));

  sequin_window_open_file (window, file, FALSE);
  SEQUIN_TEST_WAIT_UNTIL (sequin_window_get_document (window) != NULL);
  sequin_test_flush ();
  sequin_test_show_validation (window);
  assert_findings_match (window, "aw");
  findings = sequin_validation_panel_get_findings (window->validation_panel);
  for (guint i = 0; i < findings->len; i++)
    if (((SqFinding *) findings->pdata[i])->key >= 0)
      {
        f = findings->pdata[i];
        position = i;
        break;
      }
  if (f == NULL)
    for (guint i = 0; i < findings->len; i++)
      g_printerr ("# %s\n", ((SqFinding *) findings->pdata[i])->message);
  g_assert_nonnull (f);
  g_assert_cmpint (f->joint, ==, 1);
  g_assert_cmpint (f->key, ==, 0);

  sequin_validation_panel_activate (window->validation_panel, position);
  sequin_test_flush ();
  g_assert_true (sequin_joint_tree_get_selected_key (window->joint_tree, &joint, &channel, &key, &time));
  g_assert_cmpint (joint, ==, f->joint);
  g_assert_cmpint (channel, ==, f->channel);
  g_assert_cmpint (key, ==, f->key);
  g_assert_cmpfloat_with_epsilon (sequin_timeline_get_time (SEQUIN_TIMELINE (window->timeline)),
                                  0.5, 1e-9);

  sequin_test_window_destroy (window);
}

static double
turning (guint key)
{
  return key * 0.01;
}

/* A clip past SEQUIN_VALIDATION_THREAD_KEYS is validated in a worker, on a
 * copy: the findings are the same, and an edit meanwhile is not lost */
static void
test_validation_thread (void)
{
  g_autoptr(SqClip) clip = sequin_test_turning_clip (2, SEQUIN_VALIDATION_THREAD_KEYS / 2 + 1000, turning);
  SequinWindow *window = sequin_test_window_new ();

  sequin_test_window_open_clip (window, clip, "panels-big.seq");
  g_assert_cmpuint (sq_clip_count_keys (sequin_test_window_clip (window)), >, SEQUIN_VALIDATION_THREAD_KEYS);
  sequin_test_show_validation (window);
  assert_findings_match (window, "aw");

  /* an edit while a worker runs: the panel ends up with the edited clip's findings */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.invert-xz-all", NULL));
  sequin_test_flush ();
  SEQUIN_TEST_WAIT_UNTIL (sequin_validation_panel_is_current (window->validation_panel));
  assert_findings_match (window, "aw");
  sequin_test_window_destroy (window);
}

/* ---- DirectX and BVH ------------------------------------------------------- */

static void
test_dx_fields (void)
{
  g_autofree char *path = NULL;
  SequinWindow *window = open_corpus (DX_FILE, &path);
  g_autoptr(SqClip) original = NULL;
  g_autofree char *name = NULL;
  const SqClip *clip;
  double fps;

  clip = sequin_test_window_clip (window);
  original = sequin_test_load_clip (path);
  fps = original->fps;
  g_assert_true (sequin_properties_panel_group_visible (window->properties_panel, SEQUIN_PROPERTY_GROUP_DX));
  g_assert_true (sequin_properties_panel_group_visible (window->properties_panel, SEQUIN_PROPERTY_GROUP_SL_OTHER));
  g_assert_false (sequin_properties_panel_group_visible (window->properties_panel, SEQUIN_PROPERTY_GROUP_SL));
  g_assert_false (sequin_properties_panel_group_visible (window->properties_panel, SEQUIN_PROPERTY_GROUP_BVH));
  g_assert_cmpfloat (spin_value (window, SEQUIN_PROPERTY_DX_TICKS), ==, fps);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (control (window, SEQUIN_PROPERTY_DX_SET_NAME))),
                   ==, sq_dx_set_name (original));

  /* ticks per second */
  type_into (window, SEQUIN_PROPERTY_DX_TICKS, fps == 60 ? "30" : "60");
  g_assert_cmpfloat (clip->fps, ==, fps == 60 ? 30 : 60);
  undo (window);
  g_assert_cmpfloat (clip->fps, ==, fps);
  g_assert_cmpfloat (spin_value (window, SEQUIN_PROPERTY_DX_TICKS), ==, fps);

  /* the AnimationSet name */
  name = g_strdup_printf ("%s_renamed", sq_dx_set_name (original)[0] != '\0' ? sq_dx_set_name (original) : "set");
  type_into (window, SEQUIN_PROPERTY_DX_SET_NAME, name);
  g_assert_cmpstr (sq_dx_set_name (clip), ==, name);
  undo (window);
  g_assert_cmpstr (sq_dx_set_name (clip), ==, sq_dx_set_name (original));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (control (window, SEQUIN_PROPERTY_DX_SET_NAME))),
                   ==, sq_dx_set_name (original));
  g_assert_true (sq_clip_equal (clip, original));

  /* the Second Life fields of a .x: the .anim writer's defaults */
  {
    SqSlFields f;

    sq_sl_fields_get (clip, &f);
    g_assert_cmpint (f.priority, ==, SQ_SL_DEFAULT_PRIORITY);
    assert_panel_shows (window, &f);
  }

  sequin_test_window_destroy (window);
}

static void
test_bvh_fields (void)
{
  g_autofree char *path = NULL;
  SequinWindow *window = open_corpus (BVH_FILE, &path);
  g_autoptr(SqClip) original = NULL;
  const SqClip *clip;
  double frame_time;

  clip = sequin_test_window_clip (window);
  original = sequin_test_load_clip (path);
  frame_time = sq_clip_frame_time (original);
  g_assert_true (sequin_properties_panel_group_visible (window->properties_panel, SEQUIN_PROPERTY_GROUP_BVH));
  g_assert_false (sequin_properties_panel_group_visible (window->properties_panel, SEQUIN_PROPERTY_GROUP_DX));
  g_assert_cmpfloat_with_epsilon (spin_value (window, SEQUIN_PROPERTY_BVH_FRAME_TIME), frame_time, 1e-12);

  type_into (window, SEQUIN_PROPERTY_BVH_FRAME_TIME, "0.05");
  g_assert_cmpfloat_with_epsilon (sq_clip_frame_time (clip), 0.05, 1e-12);
  g_assert_cmpfloat_with_epsilon (spin_value (window, SEQUIN_PROPERTY_BVH_FRAME_TIME), 0.05, 1e-12);
  undo (window);
  g_assert_cmpfloat_with_epsilon (sq_clip_frame_time (clip), frame_time, 1e-12);
  g_assert_cmpfloat_with_epsilon (spin_value (window, SEQUIN_PROPERTY_BVH_FRAME_TIME), frame_time, 1e-12);
  g_assert_true (sq_clip_equal (clip, original));

  /* the Second Life fields of any clip are there to edit, for saving as .anim */
  g_assert_true (sequin_properties_panel_group_visible (window->properties_panel, SEQUIN_PROPERTY_GROUP_SL_OTHER));
  {
    SqSlFields f;

    type_into (window, SEQUIN_PROPERTY_SL_PRIORITY, "5");
    sq_sl_fields_get (clip, &f);
    g_assert_cmpint (f.priority, ==, 5);
    undo (window);
    sq_sl_fields_get (clip, &f);
    g_assert_cmpint (f.priority, ==, SQ_SL_DEFAULT_PRIORITY);
    g_assert_cmpfloat (spin_value (window, SEQUIN_PROPERTY_SL_PRIORITY), ==, SQ_SL_DEFAULT_PRIORITY);
  }

  sequin_test_window_destroy (window);
}

/* ---- Accessibility --------------------------------------------------------- */

static GtkWidget *
find_css (GtkWidget  *widget,
          const char *css_name)
{
  if (g_strcmp0 (gtk_widget_get_css_name (widget), css_name) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_css (c, css_name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
check_label (GtkWidget  *widget,
             const char *label)
{
  g_autofree char *error = NULL;
  GList *labels;

  g_assert_nonnull (widget);
  /* named once: by its mnemonic label, or else by its label property */
  labels = gtk_widget_list_mnemonic_labels (widget);
  if (labels != NULL)
    {
      g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL));
      g_assert_cmpstr (gtk_label_get_text (labels->data), ==, label);
      g_list_free (labels);
      return;
    }
  error = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label);
  if (error != NULL)
    g_error ("%s: %s", gtk_widget_get_css_name (widget), error);
}

static void
test_accessible_names (void)
{
  SequinWindow *window = open_corpus (TOWER, NULL);
  GtkWidget *expander;
  const char *first;

  first = sequin_test_window_clip (window)->joints[0].name;

  /* the first row's expander arrow names its joint, and follows its state */
  expander = find_css (GTK_WIDGET (window->joint_tree), "expander");
  {
    g_autofree char *label = g_strdup_printf ("Expand %s", first);
    check_label (expander, label);
  }
  sequin_joint_tree_expand_joint (window->joint_tree, 0, TRUE);
  sequin_test_flush ();
  {
    g_autofree char *label = g_strdup_printf ("Collapse %s", first);
    check_label (find_css (GTK_WIDGET (window->joint_tree), "expander"), label);
  }

  /* the panels' controls */
  check_label (control (window, SEQUIN_PROPERTY_SL_PRIORITY), "Priority");
  check_label (control (window, SEQUIN_PROPERTY_SL_LOOP), "Loop");
  check_label (control (window, SEQUIN_PROPERTY_SL_LOOP_IN), "Loop in (s)");
  check_label (control (window, SEQUIN_PROPERTY_SL_HAND_POSE), "Hand pose");
  check_label (control (window, SEQUIN_PROPERTY_SL_EMOTE), "Emote");
  check_label (control (window, SEQUIN_PROPERTY_SL_JOINT_PRIORITY), "Joint priority");
  check_label (control (window, SEQUIN_PROPERTY_DX_TICKS), "Ticks per second");
  check_label (control (window, SEQUIN_PROPERTY_BVH_FRAME_TIME), "Frame time (s)");
  check_label (GTK_WIDGET (sequin_validation_panel_get_target_chooser (window->validation_panel)), "Target world");
  check_label (GTK_WIDGET (sequin_validation_panel_get_list (window->validation_panel)), "Validation findings");

  sequin_test_window_destroy (window);
}

/* ---- The sidebar ----------------------------------------------------------- */

static void
test_sidebar_toggle (void)
{
  SequinWindow *window = sequin_test_window_new ();
  gboolean visible;

  g_object_get (window, "sidebar-visible", &visible, NULL);
  g_assert_true (visible);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-sidebar", NULL));
  sequin_test_flush ();
  g_assert_false (gtk_widget_get_visible (window->sidebar));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-sidebar", NULL));
  sequin_test_flush ();
  g_assert_true (gtk_widget_get_visible (window->sidebar));
  sequin_test_window_destroy (window);
}

/* The Save As menu lists every format the registry can write */
static void
test_save_as_menu (void)
{
  SequinWindow *window = sequin_test_window_new ();
  GMenuModel *menu = gtk_menu_button_get_menu_model (window->save_as_button);
  GMenuModel *section;
  gsize n = 0, n_writable = 0;
  const SqFormat * const *formats = sq_formats (&n);
  guint item = 0;

  g_assert_nonnull (menu);
  section = g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION);
  g_assert_nonnull (section);
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) target = NULL;
      g_autofree char *action = NULL;

      if (!sq_format_can_write (formats[i]))
        continue;
      n_writable++;
      g_assert_true (g_menu_model_get_item_attribute (section, item, G_MENU_ATTRIBUTE_ACTION, "s", &action));
      g_assert_cmpstr (action, ==, "win.save-as");
      target = g_menu_model_get_item_attribute_value (section, item, G_MENU_ATTRIBUTE_TARGET, G_VARIANT_TYPE_STRING);
      g_assert_cmpstr (g_variant_get_string (target, NULL), ==, formats[i]->id);
      item++;
    }
  /* SEQ (binary, text), DirectX, Second Life, BVH */
  g_assert_cmpuint (n_writable, >=, 5);
  g_assert_cmpuint (g_menu_model_get_n_items (section), ==, n_writable);
  g_object_unref (section);
  sequin_test_window_destroy (window);
}

/* Save As with a name of another format's extension saves in that format */
static void
test_save_as_follows_extension (void)
{
  g_autofree char *corpus = sequin_test_corpus_file (TOWER);
  g_autofree char *path = g_build_filename (sequin_test_tmpdir (), "panels-save-as.anim", NULL);
  g_autofree char *bvh_path = g_build_filename (sequin_test_tmpdir (), "panels-save-as.bvh", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SqClip) reread = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *primary = NULL;
  SequinWindow *window;
  SequinDocument *doc;

#if defined(__SANITIZE_ADDRESS__)
  /* the chooser's folder monitor (GIO's inotify backend) leaves blocks that
   * LeakSanitizer reports, with no frame of Sequin's in them */
  g_test_skip ("the file chooser leaks inside GIO under LeakSanitizer");
  return;
#endif
  /* a copy in the test's folder: the chooser opens in the document's folder */
  bytes = sequin_test_read_bytes (corpus);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  g_clear_pointer (&bytes, g_bytes_unref);
  window = sequin_test_window_new ();
  file = g_file_new_for_path (path);
  sequin_window_open_file (window, file, FALSE);
  SEQUIN_TEST_WAIT_UNTIL (sequin_window_get_document (window) != NULL);
  sequin_test_flush ();
  doc = sequin_window_get_document (window);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.save-as", "s", "sl-anim"));
  sequin_test_flush ();
  g_assert_nonnull (window->file_chooser);
  /* one filter: the chosen format's */
  {
    g_autoptr(GListModel) filters = gtk_file_chooser_get_filters (GTK_FILE_CHOOSER (window->file_chooser));
    g_autoptr(GtkFileFilter) filter = g_list_model_get_item (filters, 0);

    g_assert_cmpuint (g_list_model_get_n_items (filters), ==, 1);
    g_assert_cmpstr (gtk_file_filter_get_name (filter), ==, sq_format_get_name (sq_format_by_id ("sl-anim")));
  }
  /* let the chooser finish reading the folder (a chooser closed while it
   * reads leaks inside GIO) */
  {
    gint64 end = g_get_monotonic_time () + G_USEC_PER_SEC;

    while (g_get_monotonic_time () < end)
      {
        g_main_context_iteration (NULL, FALSE);
        g_usleep (1000);
      }
  }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (window->file_chooser), "panels-save-as.bvh");
  g_signal_emit_by_name (window->file_chooser, "response", GTK_RESPONSE_ACCEPT);
  sequin_test_flush ();

  /* BVH cannot hold everything of a .anim: the question names BVH */
  SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
  g_object_get (window->message_dialog, "text", &primary, NULL);
  g_assert_nonnull (strstr (primary, "BVH"));
  g_assert_false (g_file_test (bvh_path, G_FILE_TEST_EXISTS));
  gtk_dialog_response (GTK_DIALOG (window->message_dialog), GTK_RESPONSE_ACCEPT);
  SEQUIN_TEST_WAIT_UNTIL (g_file_test (bvh_path, G_FILE_TEST_EXISTS) && !sequin_document_get_busy (doc));
  sequin_test_flush ();
  bytes = sequin_test_read_bytes (bvh_path);
  g_assert_true (g_str_has_prefix (g_bytes_get_data (bytes, NULL), "HIERARCHY"));
  reread = sequin_test_load_clip (bvh_path);
  g_assert_true (reread->format == sq_format_by_id ("bvh"));
  sequin_test_window_destroy (window);
}

/* Pick a world in the validation panel's drop-down by its name */
static void
choose_world (SequinWindow *window,
              const char   *name)
{
  GtkDropDown *chooser = sequin_validation_panel_get_target_chooser (window->validation_panel);

  for (guint i = 0; i < g_list_model_get_n_items (gtk_drop_down_get_model (chooser)); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (gtk_drop_down_get_model (chooser), i);

      if (g_str_equal (gtk_string_object_get_string (item), name))
        gtk_drop_down_set_selected (chooser, i);
    }
  sequin_test_flush ();
  SEQUIN_TEST_WAIT_UNTIL (sequin_validation_panel_is_current (window->validation_panel));
}

/* The .anim encoding's loss per joint: a row for each joint the core's
 * sq_validate_add_sl_loss names, read by its text; shown for a .anim
 * whatever the target, and for another file only when the target is
 * Second Life; activating a row selects its joint */
static guint
check_loss_rows (SequinWindow *window)
{
  const SqClip *clip = sequin_test_window_clip (window);
  g_autoptr(GPtrArray) expected = sq_findings_new ();
  GtkListBox *list = sequin_validation_panel_get_loss_list (window->validation_panel);
  guint n_joints = 0, n_rows = 0;
  GtkListBoxRow *first = NULL;

  g_assert_nonnull (list);
  sq_validate_add_sl_loss (clip, expected);
  for (guint i = 0; i < expected->len; i++)
    {
      const SqFinding *f = expected->pdata[i];
      GtkListBoxRow *row;
      g_autofree char *error = NULL;

      if (f->joint < 0)
        continue;
      row = gtk_list_box_get_row_at_index (list, (int) n_joints++);
      g_assert_nonnull (row);
      g_assert_nonnull (strstr (f->message, clip->joints[f->joint].name));
      error = gtk_test_accessible_check_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, f->message);
      g_assert_null (error);
      first = first != NULL ? first : row;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (list)); c != NULL; c = gtk_widget_get_next_sibling (c))
    n_rows += GTK_IS_LIST_BOX_ROW (c);
  g_assert_cmpuint (n_rows, ==, n_joints);
  /* the list is named */
  g_assert_null (gtk_test_accessible_check_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                     "Quantisation loss per joint"));
  if (first != NULL)
    {
      const SqFinding *f = NULL;

      for (guint i = 0; f == NULL && i < expected->len; i++)
        if (((const SqFinding *) expected->pdata[i])->joint >= 0)
          f = expected->pdata[i];
      g_signal_emit_by_name (list, "row-activated", first);
      sequin_test_flush ();
      g_assert_cmpint (sequin_joint_tree_get_current_joint (window->joint_tree), ==, f->joint);
    }
  return n_joints;
}

static void
test_validation_loss (void)
{
  SequinWindow *window = open_corpus (TOWER, NULL);

  sequin_test_show_validation (window);
  SEQUIN_TEST_WAIT_UNTIL (sequin_validation_panel_is_current (window->validation_panel));
  g_assert_cmpstr (sequin_validation_panel_get_target (window->validation_panel), ==, "sl");
  check_loss_rows (window);
  /* a .anim file is saved as .anim whatever world it is checked for */
  choose_world (window, "ActiveWorlds");
  check_loss_rows (window);
  sequin_test_window_destroy (window);

  /* a BVH file, a run whose joints the encoding moves: the loss shows for
   * Second Life only */
  window = open_corpus (MOVING_BVH, NULL);
  sequin_test_show_validation (window);
  SEQUIN_TEST_WAIT_UNTIL (sequin_validation_panel_is_current (window->validation_panel));
  g_assert_cmpstr (sequin_validation_panel_get_target (window->validation_panel), ==, "sl");
  g_assert_cmpuint (check_loss_rows (window), >, 0);
  choose_world (window, "ActiveWorlds");
  g_assert_null (sequin_validation_panel_get_loss_list (window->validation_panel));
  sequin_test_window_destroy (window);
}

/* Times count in ticks for the format that says so (.x), frames elsewhere */
static void
test_ticks_flag (void)
{
  SequinWindow *window = open_corpus (DX_FILE, NULL);

  g_assert_true (sequin_clip_counts_ticks (sequin_test_window_clip (window)));
  sequin_test_window_destroy (window);
  window = open_corpus (BVH_FILE, NULL);
  g_assert_false (sequin_clip_counts_ticks (sequin_test_window_clip (window)));
  sequin_test_window_destroy (window);
  g_assert_false (sequin_clip_counts_ticks (NULL));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/panels/sl-fields", test_sl_fields);
  g_test_add_func ("/panels/refusal", test_refusal);
  g_test_add_func ("/panels/constraints", test_constraints);
  g_test_add_func ("/panels/no-constraints", test_no_constraints);
  g_test_add_func ("/panels/validation", test_validation);
  g_test_add_func ("/panels/validation-key", test_validation_key);
  g_test_add_func ("/panels/validation-thread", test_validation_thread);
  g_test_add_func ("/panels/validation-loss", test_validation_loss);
  g_test_add_func ("/panels/ticks-flag", test_ticks_flag);
  g_test_add_func ("/panels/dx-fields", test_dx_fields);
  g_test_add_func ("/panels/bvh-fields", test_bvh_fields);
  g_test_add_func ("/panels/accessible-names", test_accessible_names);
  g_test_add_func ("/panels/sidebar-toggle", test_sidebar_toggle);
  g_test_add_func ("/panels/save-as-menu", test_save_as_menu);
  g_test_add_func ("/panels/save-as-follows-extension", test_save_as_follows_extension);

  return g_test_run ();
}
