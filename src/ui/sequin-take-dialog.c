/* sequin-take-dialog.c: choosing which animation of a file to show
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A file may hold several animations (a .x's AnimationSets, the core's
 * "takes"); the editor shows one at a time. The dialog lists them by
 * number and name, the one shown now marked; Show (or activating a row)
 * says which to show. Reading it is the window's work
 * (sequin-window-actions.c), which asks first when there are unsaved
 * changes.
 */
#define G_LOG_DOMAIN "sequin-take-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "sequin-take-dialog.h"
#include "sequin-utils.h"

struct _SequinTakeDialog
{
  GtkWindow   parent_instance;

  GtkLabel   *description_label;
  GtkListBox *takes_list;
  GtkButton  *show_button;

  guint       n_takes;
  guint       current;      /* the take shown now */
};

G_DEFINE_FINAL_TYPE (SequinTakeDialog, sequin_take_dialog, GTK_TYPE_WINDOW)

enum
{
  TAKE_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
sequin_take_dialog_confirm (SequinTakeDialog *self)
{
  g_return_if_fail (SEQUIN_IS_TAKE_DIALOG (self));

  g_object_ref (self);
  g_signal_emit (self, signals[TAKE_CHOSEN], 0, sequin_take_dialog_get_selected (self));
  gtk_window_destroy (GTK_WINDOW (self));
  g_object_unref (self);
}

static void
show_clicked_cb (SequinTakeDialog *self)
{
  sequin_take_dialog_confirm (self);
}

static void
row_activated_cb (SequinTakeDialog *self,
                  GtkListBoxRow    *row)
{
  gtk_list_box_select_row (self->takes_list, row);
  sequin_take_dialog_confirm (self);
}

/* One take's row: its number, its name and, for the one shown now, a
 * mark; named for assistive technologies as one sentence */
static GtkWidget *
take_row (guint       index,
          const char *name,
          gboolean    current)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  g_autofree char *number = g_strdup_printf ("%u", index + 1);
  GtkWidget *number_label = gtk_label_new (number);
  GtkWidget *name_label = gtk_label_new (name[0] != '\0' ? name : _("(no name)"));
  g_autofree char *accessible = NULL;

  gtk_widget_add_css_class (number_label, "dim-label");
  gtk_widget_add_css_class (number_label, "numeric");
  gtk_label_set_width_chars (GTK_LABEL (number_label), 3);
  gtk_label_set_xalign (GTK_LABEL (number_label), 1);
  gtk_label_set_xalign (GTK_LABEL (name_label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name_label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name_label, TRUE);
  gtk_box_append (GTK_BOX (box), number_label);
  gtk_box_append (GTK_BOX (box), name_label);
  if (current)
    {
      GtkWidget *mark = gtk_label_new (_("shown now"));

      gtk_widget_add_css_class (mark, "dim-label");
      gtk_box_append (GTK_BOX (box), mark);
    }
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);

  /* TRANSLATORS: an animation set in the list: its number, its name, and
   * whether the editor shows it now */
  accessible = current ? g_strdup_printf (_("Set %u, %s, shown now"), index + 1, name[0] ? name : _("(no name)"))
                       : g_strdup_printf (_("Set %u, %s"), index + 1, name[0] ? name : _("(no name)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible, -1);
  return row;
}

static void
sequin_take_dialog_class_init (SequinTakeDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  /* the take confirmed, from 0 */
  signals[TAKE_CHOSEN] = g_signal_new ("take-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                       NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sequin/Sequin/sequin-take-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SequinTakeDialog, description_label);
  gtk_widget_class_bind_template_child (widget_class, SequinTakeDialog, takes_list);
  gtk_widget_class_bind_template_child (widget_class, SequinTakeDialog, show_button);
  gtk_widget_class_bind_template_callback (widget_class, show_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sequin_take_dialog_init (SequinTakeDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

SequinTakeDialog *
sequin_take_dialog_new (GtkWindow    *parent,
                        const SqClip *clip,
                        const char   *file_name)
{
  SequinTakeDialog *self;
  g_autofree char *text = NULL;
  const char * const *takes;
  gsize n;
  guint current;

  g_return_val_if_fail (clip != NULL, NULL);

  self = g_object_new (SEQUIN_TYPE_TAKE_DIALOG, "transient-for", parent, NULL);
  takes = sq_clip_get_takes (clip, &n, &current);
  self->n_takes = (guint) n;
  self->current = current;
  /* TRANSLATORS: %s is a file name, %u how many animation sets it holds */
  text = g_strdup_printf (ngettext ("“%s” holds %u animation set. The editor shows one at a time; saving keeps the "
                                       "others as they are in the file.",
                                       "“%s” holds %u animation sets. The editor shows one at a time; saving keeps the "
                                       "others as they are in the file.", n),
                          file_name, (guint) n);
  gtk_label_set_text (self->description_label, text);
  for (gsize i = 0; i < n; i++)
    {
      GtkWidget *row = take_row ((guint) i, takes[i], i == current);

      gtk_list_box_append (self->takes_list, row);
      if (i == current)
        gtk_list_box_select_row (self->takes_list, GTK_LIST_BOX_ROW (row));
    }
  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->show_button));
  sequin_accessible_single_names (GTK_WIDGET (self));
  return self;
}

guint
sequin_take_dialog_get_n_takes (SequinTakeDialog *self)
{
  g_return_val_if_fail (SEQUIN_IS_TAKE_DIALOG (self), 0);
  return self->n_takes;
}

guint
sequin_take_dialog_get_selected (SequinTakeDialog *self)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (SEQUIN_IS_TAKE_DIALOG (self), 0);
  row = gtk_list_box_get_selected_row (self->takes_list);
  return row != NULL ? (guint) gtk_list_box_row_get_index (row) : self->current;
}

void
sequin_take_dialog_select (SequinTakeDialog *self,
                           guint             take)
{
  GtkListBoxRow *row;

  g_return_if_fail (SEQUIN_IS_TAKE_DIALOG (self));
  if ((row = gtk_list_box_get_row_at_index (self->takes_list, (int) take)) != NULL)
    gtk_list_box_select_row (self->takes_list, row);
}
