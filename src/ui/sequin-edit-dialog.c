/* sequin-edit-dialog.c: the small dialogs that ask for an edit's value
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Input is checked as it is typed, so OK is only enabled for values the edit
 * can take, and the reason is shown when it is not. The core checks again
 * when the edit is applied and has the last word: its refusal is shown here.
 */
#define G_LOG_DOMAIN "sequin-edit-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "sequin-edit-dialog.h"
#include "sequin-utils.h"

#define N_FIELDS 3

struct _SequinEditDialog
{
  GtkWindow       parent_instance;

  /* Template widgets */
  GtkButton      *apply_button;
  GtkLabel       *description_label;
  GtkLabel       *label0;
  GtkLabel       *label1;
  GtkLabel       *label2;
  GtkEntry       *entry0;
  GtkEntry       *entry1;
  GtkEntry       *entry2;
  GtkLabel       *message_label;

  /* Owned references */
  SequinDocument *document;
  char           *joint_name;   /* the joint to rename; the root's name otherwise */

  SequinEditKind  kind;
  guint           n_fields;
  gboolean        valid;
  char           *message;
  gboolean        has_first;      /* set first frame: the root has a location at 0 */
  double          first[3];       /* ... and it is this */
};

G_DEFINE_FINAL_TYPE (SequinEditDialog, sequin_edit_dialog, GTK_TYPE_WINDOW)

static GtkEntry *
entry (SequinEditDialog *self,
       guint             field)
{
  GtkEntry *entries[N_FIELDS] = { self->entry0, self->entry1, self->entry2 };

  return field < N_FIELDS ? entries[field] : NULL;
}

static void
set_message (SequinEditDialog *self,
             const char       *message)
{
  g_free (self->message);
  self->message = g_strdup (message);
  gtk_label_set_text (self->message_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), message != NULL);
}

static const SqClip *
clip (SequinEditDialog *self)
{
  return sequin_document_get_clip (self->document);
}

/* Checks the entries; sets the message and OK's state. */
static void
validate (SequinEditDialog *self)
{
  g_autofree char *message = NULL;
  gboolean valid = TRUE;
  double value;

  switch (self->kind)
    {
    case SEQUIN_EDIT_RENAME_JOINT:
    case SEQUIN_EDIT_RENAME_ROOT:
      {
        const char *name = gtk_editable_get_text (GTK_EDITABLE (self->entry0));
        gssize target = self->kind == SEQUIN_EDIT_RENAME_JOINT
                        ? sq_clip_find_joint (clip (self), self->joint_name)
                        : sq_clip_get_root_index (clip (self));
        g_autoptr(GError) error = NULL;

        /* the core's own rule and words, which applying the edit checks again */
        if (!sq_edit_check_joint_name (clip (self), name, target, &error))
          {
            valid = FALSE;
            message = g_strdup (error->message);
          }
        else if (g_strcmp0 (name, self->kind == SEQUIN_EDIT_RENAME_ROOT ? clip (self)->root : self->joint_name) == 0)
          valid = FALSE; /* nothing to change, nothing to say */
      }
      break;

    case SEQUIN_EDIT_RESCALE:
      {
        gssize root = sq_clip_get_root_index (clip (self));

        if (root < 0 || clip (self)->joints[root].tracks[SQ_CHANNEL_TRANSLATION].n_keys == 0)
          {
            valid = FALSE;
            message = g_strdup_printf (_("The root joint “%s” has no locations to rescale."),
                                       sq_clip_get_effective_root (clip (self)));
          }
        else if (!sequin_parse_number (gtk_editable_get_text (GTK_EDITABLE (self->entry0)), &value))
          {
            valid = FALSE;
            message = g_strdup (_("The factor must be a finite number, such as 0.5 or 2."));
          }
        else
          {
            g_autoptr(GError) error = NULL;

            /* the core's own rule, which applying the edit checks again */
            if (!sq_edit_check_rescale_factor (value, &error))
              {
                valid = FALSE;
                message = g_strdup_printf ("%s.", error->message);
              }
          }
      }
      break;

    case SEQUIN_EDIT_SET_FIRST_FRAME:
      {
        const char *axes[N_FIELDS] = { "X", "Y", "Z" };

        for (guint i = 0; i < N_FIELDS && valid; i++)
          if (!sequin_parse_number (gtk_editable_get_text (GTK_EDITABLE (entry (self, i))), &value))
            {
              valid = FALSE;
              /* TRANSLATORS: %s is X, Y or Z */
              message = g_strdup_printf (_("%s must be a finite number, such as 0 or -1.5."), axes[i]);
            }
      }
      break;

    default:
      g_assert_not_reached ();
    }

  self->valid = valid;
  set_message (self, message);
  gtk_widget_set_sensitive (GTK_WIDGET (self->apply_button), valid);
}

static void
entry_changed_cb (SequinEditDialog *self)
{
  validate (self);
}

static SqEdit *
build_edit (SequinEditDialog *self)
{
  double v[N_FIELDS] = { 0, 0, 0 };

  switch (self->kind)
    {
    case SEQUIN_EDIT_RENAME_JOINT:
      return sq_edit_rename_joint_new (self->joint_name, gtk_editable_get_text (GTK_EDITABLE (self->entry0)));
    case SEQUIN_EDIT_RENAME_ROOT:
      return sq_edit_rename_root_new (gtk_editable_get_text (GTK_EDITABLE (self->entry0)));
    case SEQUIN_EDIT_RESCALE:
      sequin_parse_number (gtk_editable_get_text (GTK_EDITABLE (self->entry0)), &v[0]);
      return sq_edit_rescale_new (v[0]);
    case SEQUIN_EDIT_SET_FIRST_FRAME:
      for (guint i = 0; i < N_FIELDS; i++)
        sequin_parse_number (gtk_editable_get_text (GTK_EDITABLE (entry (self, i))), &v[i]);
      return sq_edit_set_first_frame_new (v[0], v[1], v[2]);
    default:
      g_assert_not_reached ();
    }
}

/* The values typed are what the clip has already: a factor of 1, the first
 * frame's location as it is */
static gboolean
is_unchanged (SequinEditDialog *self)
{
  double v;

  switch (self->kind)
    {
    case SEQUIN_EDIT_RESCALE:
      return sequin_parse_number (gtk_editable_get_text (GTK_EDITABLE (self->entry0)), &v) && v == 1.0;
    case SEQUIN_EDIT_SET_FIRST_FRAME:
      if (!self->has_first)
        return FALSE;
      for (guint i = 0; i < N_FIELDS; i++)
        if (!sequin_parse_number (gtk_editable_get_text (GTK_EDITABLE (entry (self, i))), &v)
            || v != self->first[i])
          return FALSE;
      return TRUE;
    case SEQUIN_EDIT_RENAME_JOINT:
    case SEQUIN_EDIT_RENAME_ROOT:
    default:
      return FALSE;
    }
}

gboolean
sequin_edit_dialog_apply (SequinEditDialog  *self,
                          GError           **error)
{
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (SEQUIN_IS_EDIT_DIALOG (self), FALSE);

  if (!self->valid)
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                           self->message != NULL ? self->message : _("Nothing to change"));
      return FALSE;
    }
  /* confirmed as it was: nothing changes, and there is nothing to undo */
  if (is_unchanged (self))
    {
      gtk_window_destroy (GTK_WINDOW (self));
      return TRUE;
    }
  if (!sequin_document_apply (self->document, build_edit (self), &local))
    {
      set_message (self, local->message);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  gtk_window_destroy (GTK_WINDOW (self));
  return TRUE;
}

static void
apply_clicked_cb (SequinEditDialog *self)
{
  sequin_edit_dialog_apply (self, NULL);
}

static void
sequin_edit_dialog_dispose (GObject *object)
{
  SequinEditDialog *self = (SequinEditDialog *)object;

  /* no gtk_widget_dispose_template (): GtkWindow unparents its own child and
   * titlebar, and would find them gone (GTK 4.8) */
  g_clear_object (&self->document);

  G_OBJECT_CLASS (sequin_edit_dialog_parent_class)->dispose (object);
}

static void
sequin_edit_dialog_finalize (GObject *object)
{
  SequinEditDialog *self = (SequinEditDialog *)object;

  g_free (self->joint_name);
  g_free (self->message);

  G_OBJECT_CLASS (sequin_edit_dialog_parent_class)->finalize (object);
}

static void
sequin_edit_dialog_class_init (SequinEditDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sequin_edit_dialog_dispose;
  object_class->finalize = sequin_edit_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sequin/Sequin/sequin-edit-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SequinEditDialog, apply_button);
  gtk_widget_class_bind_template_child (widget_class, SequinEditDialog, description_label);
  gtk_widget_class_bind_template_child (widget_class, SequinEditDialog, label0);
  gtk_widget_class_bind_template_child (widget_class, SequinEditDialog, label1);
  gtk_widget_class_bind_template_child (widget_class, SequinEditDialog, label2);
  gtk_widget_class_bind_template_child (widget_class, SequinEditDialog, entry0);
  gtk_widget_class_bind_template_child (widget_class, SequinEditDialog, entry1);
  gtk_widget_class_bind_template_child (widget_class, SequinEditDialog, entry2);
  gtk_widget_class_bind_template_child (widget_class, SequinEditDialog, message_label);
  gtk_widget_class_bind_template_callback (widget_class, entry_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, apply_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sequin_edit_dialog_init (SequinEditDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->apply_button));
}

static void
set_field (SequinEditDialog *self,
           guint             field,
           const char       *label,
           const char       *text)
{
  GtkLabel *labels[N_FIELDS] = { self->label0, self->label1, self->label2 };

  /* the mnemonic label names the entry (alone: see sequin_accessible_single_names) */
  gtk_label_set_text_with_mnemonic (labels[field], label);
  gtk_editable_set_text (GTK_EDITABLE (entry (self, field)), text);
}

SequinEditDialog *
sequin_edit_dialog_new (GtkWindow      *parent,
                        SequinDocument *document,
                        SequinEditKind  kind,
                        gssize          joint)
{
  SequinEditDialog *self;
  const SqClip *c;
  g_autofree char *description = NULL;
  const char *title = NULL;
  const char *apply = NULL;

  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (sequin_document_get_clip (document) != NULL, NULL);

  self = g_object_new (SEQUIN_TYPE_EDIT_DIALOG,
                       "transient-for", parent,
                       NULL);
  self->document = g_object_ref (document);
  self->kind = kind;
  c = sequin_document_get_clip (document);

  switch (kind)
    {
    case SEQUIN_EDIT_RENAME_JOINT:
      g_return_val_if_fail (joint >= 0 && (gsize) joint < c->n_joints, self);
      self->joint_name = g_strdup (c->joints[joint].name);
      title = _("Rename Joint");
      apply = _("_Rename");
      description = g_strdup_printf (_("Enter a new name for the joint “%s”."), self->joint_name);
      self->n_fields = 1;
      set_field (self, 0, _("_Name"), self->joint_name);
      break;

    case SEQUIN_EDIT_RENAME_ROOT:
      self->joint_name = g_strdup (sq_clip_get_effective_root (c));
      title = _("Rename Root Joint");
      apply = _("_Rename");
      description = g_strdup_printf (_("The root joint is “%s”. The new name is written in the file’s header "
                                       "and given to the root joint. ActiveWorlds expects “pelvis”."),
                                     self->joint_name);
      self->n_fields = 1;
      set_field (self, 0, _("_Name"), self->joint_name);
      break;

    case SEQUIN_EDIT_RESCALE:
      self->joint_name = g_strdup (sq_clip_get_effective_root (c));
      title = _("Rescale Distances");
      apply = _("_Rescale");
      description = g_strdup_printf (_("Every location of the root joint “%s” is multiplied by the factor. "
                                       "For example, 0.5 halves the distances the avatar moves."),
                                     self->joint_name);
      self->n_fields = 1;
      set_field (self, 0, _("_Factor"), "1");
      break;

    case SEQUIN_EDIT_SET_FIRST_FRAME:
      {
        gssize root = sq_clip_get_root_index (c);
        double v[N_FIELDS] = { 0, 0, 0 };
        const char *labels[N_FIELDS] = { N_("_X"), N_("_Y"), N_("_Z") };

        /* start from the location the first frame has now */
        if (root >= 0)
          {
            const SqTrack *t = &c->joints[root].tracks[SQ_CHANNEL_TRANSLATION];
            gssize k = sq_track_find (t, 0.0);
            if (k >= 0)
              {
                memcpy (v, sq_track_key (t, k).v, sizeof v);
                /* a key with only some axes given changes when all are set */
                self->has_first = t->present == NULL || t->present[k] == SQ_PRESENT_ALL;
                memcpy (self->first, v, sizeof v);
              }
          }
        self->joint_name = g_strdup (sq_clip_get_effective_root (c));
        title = _("Set First Frame");
        apply = _("_Set");
        description = g_strdup_printf (_("The location of the root joint “%s” at the first frame, in metres. "
                                         "It is normally 0, 0, 0."), self->joint_name);
        self->n_fields = N_FIELDS;
        for (guint i = 0; i < N_FIELDS; i++)
          {
            char buf[SQ_DOUBLE_BUF];

            /* every digit the value has (the text reads back as exactly it);
             * −0 shows as 0 and reads back as 0, which equals it */
            set_field (self, i, _(labels[i]), sq_format_double (buf, sizeof buf, v[i] == 0 ? 0 : v[i]));
          }
      }
      break;

    default:
      g_assert_not_reached ();
    }

  for (guint i = self->n_fields; i < N_FIELDS; i++)
    {
      GtkLabel *labels[N_FIELDS] = { self->label0, self->label1, self->label2 };
      gtk_widget_set_visible (GTK_WIDGET (entry (self, i)), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (labels[i]), FALSE);
    }

  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_button_set_label (self->apply_button, apply);
  gtk_label_set_text (self->description_label, description);
  sequin_accessible_single_names (GTK_WIDGET (self));
  validate (self);
  return self;
}

SequinEditKind
sequin_edit_dialog_get_kind (SequinEditDialog *self)
{
  g_return_val_if_fail (SEQUIN_IS_EDIT_DIALOG (self), 0);
  return self->kind;
}

guint
sequin_edit_dialog_get_n_fields (SequinEditDialog *self)
{
  g_return_val_if_fail (SEQUIN_IS_EDIT_DIALOG (self), 0);
  return self->n_fields;
}

void
sequin_edit_dialog_set_text (SequinEditDialog *self,
                             guint             field,
                             const char       *text)
{
  g_return_if_fail (SEQUIN_IS_EDIT_DIALOG (self));
  g_return_if_fail (field < self->n_fields);

  gtk_editable_set_text (GTK_EDITABLE (entry (self, field)), text);
}

const char *
sequin_edit_dialog_get_text (SequinEditDialog *self,
                             guint             field)
{
  g_return_val_if_fail (SEQUIN_IS_EDIT_DIALOG (self), NULL);
  g_return_val_if_fail (field < self->n_fields, NULL);

  return gtk_editable_get_text (GTK_EDITABLE (entry (self, field)));
}

gboolean
sequin_edit_dialog_can_apply (SequinEditDialog *self)
{
  g_return_val_if_fail (SEQUIN_IS_EDIT_DIALOG (self), FALSE);
  return self->valid;
}

const char *
sequin_edit_dialog_get_message (SequinEditDialog *self)
{
  g_return_val_if_fail (SEQUIN_IS_EDIT_DIALOG (self), NULL);
  return self->message;
}
