/* test-a11y.c: accessible names, and the keyboard (issue 17)
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK 4.8 names a widget with both its "label" property and the labels
 * that label it (a mnemonic label, or a button's own underlined label),
 * one after the other: "Name Name", "_Cancel Cancel". Every widget of the
 * window and of its dialogs must have one of them only.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "sequin-compare-window.h"
#include "sequin-test-ui.h"
#include "sequin-window-private.h"

/* ---- Single names ---------------------------------------------------------- */

static void
describe (GtkWidget *widget,
          GString   *out)
{
  g_string_append (out, G_OBJECT_TYPE_NAME (widget));
  if (GTK_IS_BUTTON (widget) && gtk_button_get_label (GTK_BUTTON (widget)) != NULL)
    g_string_append_printf (out, " “%s”", gtk_button_get_label (GTK_BUTTON (widget)));
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (out, " “%s”", gtk_label_get_label (GTK_LABEL (widget)));
  if (GTK_IS_ACTIONABLE (widget) && gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)) != NULL)
    g_string_append_printf (out, " (%s)", gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)));
  if (gtk_widget_get_tooltip_text (widget) != NULL)
    g_string_append_printf (out, " [%s]", gtk_widget_get_tooltip_text (widget));
  for (GtkWidget *p = gtk_widget_get_parent (widget); p != NULL; p = gtk_widget_get_parent (p))
    g_string_append_printf (out, " < %s", G_OBJECT_TYPE_NAME (p));
}

static void
collect_widgets (GtkWidget *widget,
                 GPtrArray *all)
{
  g_ptr_array_add (all, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_widgets (child, all);
}

/* The widget of `all` that alone labels `widget` (its labelled-by
 * relation), or NULL */
static GtkWidget *
labelled_by (GtkWidget *widget,
             GPtrArray *all)
{
  for (guint i = 0; i < all->len; i++)
    {
      g_autofree char *diff = gtk_test_accessible_check_relation (GTK_ACCESSIBLE (widget),
                                                                   GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                                                   all->pdata[i], NULL);
      if (diff == NULL)
        return all->pdata[i];
    }
  return NULL;
}

/* Adds to `problems` every widget under `root` (itself included) whose
 * name would be doubled: a label of its own and a labelling widget that
 * has a name (a label; an icon, which GTK makes the labeller of an icon
 * button, has none). Returns how many widgets it looked at. */
static guint
check_names (GtkWidget *root,
             GString   *problems)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  collect_widgets (root, all);
  for (guint i = 0; i < all->len; i++)
    {
      GtkWidget *widget = all->pdata[i];
      GtkAccessible *a = GTK_ACCESSIBLE (widget);

      if (gtk_test_accessible_has_property (a, GTK_ACCESSIBLE_PROPERTY_LABEL)
          && gtk_test_accessible_has_relation (a, GTK_ACCESSIBLE_RELATION_LABELLED_BY))
        {
          GtkWidget *by = labelled_by (widget, all);

          if (by == NULL || gtk_test_accessible_has_property (GTK_ACCESSIBLE (by), GTK_ACCESSIBLE_PROPERTY_LABEL))
            {
              g_string_append (problems, "\n  label and labelled-by: ");
              describe (widget, problems);
              if (by != NULL)
                {
                  g_string_append (problems, "\n    labelled by ");
                  describe (by, problems);
                }
            }
        }
      /* a button's underlined label is its name only without the underline */
      if (GTK_IS_BUTTON (widget) && gtk_button_get_use_underline (GTK_BUTTON (widget))
          && gtk_button_get_label (GTK_BUTTON (widget)) != NULL
          && gtk_test_accessible_has_property (a, GTK_ACCESSIBLE_PROPERTY_LABEL))
        {
          g_autofree char *diff = gtk_test_accessible_check_property (a, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                                       gtk_button_get_label (GTK_BUTTON (widget)));
          if (diff == NULL)
            {
              g_string_append (problems, "\n  named with its underline: ");
              describe (widget, problems);
            }
        }
    }
  return all->len;
}

static void
assert_single_names (GtkWidget  *root,
                     const char *what)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  guint n = check_names (root, problems);

  g_test_message ("%s: %u widgets", what, n);
  g_assert_cmpuint (n, >, 5);
  if (problems->len > 0)
    g_error ("doubled accessible names in %s:%s", what, problems->str);
}

static void
test_single_names (void)
{
  g_autofree char *path = sequin_test_corpus_path ("seq-binary/walk.seq");
  SequinWindow *window = sequin_test_window_new ();
  GtkWidget *overlay;

  sequin_test_window_open (window, path);
  g_object_set (window, "sidebar-visible", TRUE, NULL);
  for (guint page = 0; page < 2; page++)
    {
      gtk_stack_set_visible_child_name (window->sidebar_stack, page == 0 ? "properties" : "validation");
      sequin_test_flush ();
      assert_single_names (GTK_WIDGET (window), "the window");
    }

  /* the edit dialogs */
  {
    const char *actions[] = { "win.rename-root", "win.rescale", "win.set-first-frame", "win.rename-joint" };

    sequin_joint_tree_select_joint (window->joint_tree, 1);
    sequin_test_flush ();
    for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
      {
        sequin_test_activate (window, actions[i]);
        g_assert_nonnull (window->edit_dialog);
        assert_single_names (GTK_WIDGET (window->edit_dialog), actions[i]);
        gtk_window_destroy (GTK_WINDOW (window->edit_dialog));
        sequin_test_flush ();
      }
  }

  /* Compare With… (against the clip itself): its window, and the main
   * window with the difference lane under the timeline */
  {
    g_autoptr(GError) error = NULL;
    SequinCompareWindow *compare = sequin_compare_window_new (window, sequin_test_window_clip (window), "walk.seq");

    SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
    gtk_window_present (GTK_WINDOW (compare));
    sequin_test_flush ();
    assert_single_names (GTK_WIDGET (compare), "the comparison");
    g_assert_true (gtk_widget_get_visible (window->diff_lane));
    assert_single_names (GTK_WIDGET (window), "the window while comparing");
    gtk_window_destroy (GTK_WINDOW (compare));
    sequin_test_flush ();
  }

  /* the question before closing with changes */
  sequin_test_activate (window, "win.invert-xz-all");
  gtk_window_close (GTK_WINDOW (window));
  sequin_test_flush ();
  g_assert_nonnull (window->message_dialog);
  assert_single_names (window->message_dialog, "the unsaved changes question");
  gtk_dialog_response (GTK_DIALOG (window->message_dialog), GTK_RESPONSE_CANCEL);
  sequin_test_flush ();

  /* the list of losses before a Save As */
  {
    g_autofree char *out = g_build_filename (sequin_test_tmpdir (), "a11y.anim", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (out);

    sequin_window_save_to (window, file, sq_format_by_id ("sl-anim"));
    SEQUIN_TEST_WAIT_UNTIL (window->message_dialog != NULL);
    assert_single_names (window->message_dialog, "the losses question");
    gtk_dialog_response (GTK_DIALOG (window->message_dialog), GTK_RESPONSE_CANCEL);
    sequin_test_flush ();
  }

  /* the shortcuts window */
  overlay = GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_assert_nonnull (overlay);
  assert_single_names (overlay, "the shortcuts window");

  sequin_test_window_destroy (window);

  /* each format's properties */
  {
    const char *others[] = { "sl-anim/0eb702e2-cc5a-9a88-56a5-661a55c0676a.dat", "bvh/tower.bvh",
                             "dx-anim/anim_test.x" };

    for (guint i = 0; i < G_N_ELEMENTS (others); i++)
      {
        g_autofree char *other = sequin_test_corpus_path (others[i]);

        window = sequin_test_window_new ();
        sequin_test_window_open (window, other);
        g_object_set (window, "sidebar-visible", TRUE, NULL);
        sequin_test_flush ();
        assert_single_names (GTK_WIDGET (window), others[i]);
        sequin_test_window_destroy (window);
      }
  }
}

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  sequin_test_application ();

  g_test_add_func ("/a11y/single-names", test_single_names);
  return g_test_run ();
}
