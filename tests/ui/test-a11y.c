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
#include <string.h>

#include "sequin-compare-window.h"
#include "sequin-motion-dialog.h"
#include "sequin-take-dialog.h"
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

/* A widget a person operates (GTK's own buttons inside a drop-down or a
 * menu button included: those are what a screen reader lands on) */
static gboolean
is_control (GtkWidget *widget)
{
  return GTK_IS_BUTTON (widget) || GTK_IS_CHECK_BUTTON (widget) || GTK_IS_ENTRY (widget)
         || GTK_IS_SPIN_BUTTON (widget) || GTK_IS_SWITCH (widget) || GTK_IS_DROP_DOWN (widget)
         || GTK_IS_MENU_BUTTON (widget) || GTK_IS_SCALE (widget) || GTK_IS_EXPANDER (widget);
}

/* Whether `widget` shows when `root` does (a stack's other pages do not) */
static gboolean
shown (GtkWidget *widget)
{
  for (GtkWidget *p = widget; p != NULL; p = gtk_widget_get_parent (p))
    if (!gtk_widget_get_visible (p) || !gtk_widget_get_child_visible (p))
      return FALSE;
  return TRUE;
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
      /* every control has a name: a label of its own, or a labelling widget */
      if (is_control (widget) && shown (widget)
          && !gtk_test_accessible_has_property (a, GTK_ACCESSIBLE_PROPERTY_LABEL)
          && !gtk_test_accessible_has_relation (a, GTK_ACCESSIBLE_RELATION_LABELLED_BY))
        {
          g_string_append (problems, "\n  no name (a screen reader says its type): ");
          describe (widget, problems);
        }
      /* a check button or expander is named without its underline */
      if ((GTK_IS_CHECK_BUTTON (widget) && gtk_check_button_get_use_underline (GTK_CHECK_BUTTON (widget))
           && gtk_check_button_get_label (GTK_CHECK_BUTTON (widget)) != NULL)
          || (GTK_IS_EXPANDER (widget) && gtk_expander_get_use_underline (GTK_EXPANDER (widget))))
        {
          const char *label = GTK_IS_EXPANDER (widget) ? gtk_expander_get_label (GTK_EXPANDER (widget))
                                                       : gtk_check_button_get_label (GTK_CHECK_BUTTON (widget));
          g_autofree char *diff = gtk_test_accessible_check_property (a, GTK_ACCESSIBLE_PROPERTY_LABEL, label);

          if (strchr (label, '_') != NULL && diff == NULL)
            {
              g_string_append (problems, "\n  named with its underline: ");
              describe (widget, problems);
            }
        }
      /* a check button has an action assistive technologies can run */
      if (GTK_IS_CHECK_BUTTON (widget) && shown (widget))
        {
          gboolean before = gtk_check_button_get_active (GTK_CHECK_BUTTON (widget));

          if (!gtk_widget_activate_action (widget, "check.toggle", NULL)
              || gtk_check_button_get_active (GTK_CHECK_BUTTON (widget)) == before)
            {
              g_string_append (problems, "\n  check button without an action: ");
              describe (widget, problems);
            }
          gtk_check_button_set_active (GTK_CHECK_BUTTON (widget), before);
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

  /* the animation dialogs, each before and after it applies (its report
   * turns Cancel into Close) */
  for (guint k = 0; k < SEQUIN_MOTION_N_KINDS; k++)
    {
      SequinMotionDialog *dialog = sequin_motion_dialog_new (GTK_WINDOW (window), window->document, k);
      g_autofree char *what = g_strdup_printf ("motion dialog %u", k);

      g_object_ref_sink (dialog);
      gtk_window_present (GTK_WINDOW (dialog));
      sequin_test_flush ();
      assert_single_names (GTK_WIDGET (dialog), what);
      if (k == SEQUIN_MOTION_REDUCE && sequin_motion_dialog_apply (dialog, NULL))
        {
          assert_single_names (GTK_WIDGET (dialog), "the reduce dialog's report");
          sequin_document_undo (window->document);
        }
      gtk_window_destroy (GTK_WINDOW (dialog));
      g_object_unref (dialog);
      sequin_test_flush ();
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

  /* the About window */
  {
    GListModel *toplevels = gtk_window_get_toplevels ();
    GtkWidget *about = NULL;

    g_action_group_activate_action (G_ACTION_GROUP (gtk_window_get_application (GTK_WINDOW (window))), "about", NULL);
    sequin_test_flush ();
    for (guint i = 0; i < g_list_model_get_n_items (toplevels) && about == NULL; i++)
      {
        g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

        if (GTK_IS_ABOUT_DIALOG (w))
          about = GTK_WIDGET (w);
      }
    g_assert_nonnull (about);
    assert_single_names (about, "the About window");
    gtk_window_destroy (GTK_WINDOW (about));
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

  /* the chooser of a .x's animation sets */
  {
    g_autofree char *x = sequin_test_corpus_path ("dx-anim/Testwuson.X");
    SequinTakeDialog *take;

    window = sequin_test_window_new ();
    sequin_test_window_open (window, x);
    take = sequin_take_dialog_new (GTK_WINDOW (window), sequin_test_window_clip (window), "Testwuson.X");
    g_object_ref_sink (take);
    gtk_window_present (GTK_WINDOW (take));
    sequin_test_flush ();
    assert_single_names (GTK_WIDGET (take), "the animation set chooser");
    gtk_window_destroy (GTK_WINDOW (take));
    g_object_unref (take);
    sequin_test_window_destroy (window);
  }
}

/* ---- A keyboard path to every action -------------------------------------- */

static void
collect_shortcuts (GtkWidget *widget,
                   GString   *accels,
                   GString   *actions)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (widget))
    {
      g_autofree char *accel = NULL, *action = NULL;

      g_object_get (widget, "accelerator", &accel, "action-name", &action, NULL);
      if (accel != NULL)
        {
          g_auto(GStrv) keys = g_strsplit (accel, " ", -1);

          g_string_append_printf (accels, " %s ", accel);
          /* each key also as GTK names it (<Shift><Control>s) */
          for (guint k = 0; keys[k] != NULL; k++)
            {
              guint key;
              GdkModifierType mods;

              if (gtk_accelerator_parse (keys[k], &key, &mods))
                {
                  g_autofree char *name = gtk_accelerator_name (key, mods);

                  g_string_append_printf (accels, " %s ", name);
                }
            }
        }
      g_string_append_printf (actions, " %s ", action != NULL ? action : "");
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_shortcuts (c, accels, actions);
}

/* Every accelerator of the application is in the Shortcuts window (by its
 * action or its keys), and so are F10 (the main menu, with Save As in
 * every format), the Edit menu and the preview's keys; Alt+E's action
 * opens the labelled Edit menu */
static void
test_shortcuts_listed (void)
{
  g_autofree char *path = sequin_test_corpus_path ("seq-binary/walk.seq");
  SequinWindow *window = sequin_test_window_new ();
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (window));
  GtkWidget *overlay = GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_autoptr(GString) accels = g_string_new (NULL);
  g_autoptr(GString) actions = g_string_new (NULL);
  g_auto(GStrv) described = gtk_application_list_action_descriptions (app);
  const char *also[] = { " F10 ", " o ", " t ", " Left Right ", " Home End " };
  GtkPopover *popover;
  GMenuModel *primary;
  gboolean save_as = FALSE;

  collect_shortcuts (overlay, accels, actions);
  g_assert_cmpuint (g_strv_length (described), >, 10);
  for (guint i = 0; described[i] != NULL; i++)
    {
      g_auto(GStrv) keys = gtk_application_get_accels_for_action (app, described[i]);
      g_autofree char *name = NULL;
      g_autoptr(GVariant) target = NULL;
      g_autofree char *spaced = NULL;

      g_assert_true (g_action_parse_detailed_name (described[i], &name, &target, NULL));
      spaced = g_strdup_printf (" %s ", name);
      for (guint k = 0; keys[k] != NULL; k++)
        {
          g_autofree char *key = g_strdup_printf (" %s ", keys[k]);

          if (strstr (actions->str, spaced) == NULL && strstr (accels->str, key) == NULL)
            g_error ("%s (%s) is not in the Shortcuts window", described[i], key);
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (also); i++)
    if (strstr (accels->str, also[i]) == NULL)
      g_error ("“%s” is not in the Shortcuts window", also[i]);
  g_assert_nonnull (strstr (actions->str, " win.edit-menu "));
  g_assert_nonnull (strstr (actions->str, " win.redo "));

  /* Alt+E: the labelled Edit menu opens */
  sequin_test_window_open (window, path);
  g_assert_cmpstr (gtk_menu_button_get_label (window->edit_menu_button), ==, "Edit");
  popover = gtk_menu_button_get_popover (window->edit_menu_button);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (popover)));
  sequin_test_activate (window, "win.edit-menu");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
  gtk_popover_popdown (popover);

  /* F10's menu has Save As with every format that can be written */
  primary = G_MENU_MODEL (window->primary_menu);
  for (int i = 0; i < g_menu_model_get_n_items (primary); i++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (primary, i, G_MENU_LINK_SECTION);

      for (int j = 0; section != NULL && j < g_menu_model_get_n_items (section); j++)
        {
          g_autoptr(GMenuModel) sub = g_menu_model_get_item_link (section, j, G_MENU_LINK_SUBMENU);

          if (sub != NULL && g_menu_model_get_n_items (sub) >= 5)
            save_as = TRUE;
        }
    }
  g_assert_true (save_as);
  sequin_test_window_destroy (window);
}

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  sequin_test_application ();

  g_test_add_func ("/a11y/single-names", test_single_names);
  g_test_add_func ("/a11y/shortcuts-listed", test_shortcuts_listed);
  return g_test_run ();
}
