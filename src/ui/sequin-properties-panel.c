/* sequin-properties-panel.c: the format fields of a document, editable
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rows come from the field descriptors of the core (sq-world.h): one
 * group per field set, a control per field by its type (a spin button for
 * numbers, a switch, a drop-down of choices, an entry for text, a list of
 * records that can be deleted). The document's format shows its own sets
 * (its SqFormat.field_set, and its world's set when it is the format that
 * saves them: Second Life's for .anim); the sets every clip keeps for
 * another world sit in an expander, since they are used when the clip is
 * saved there. A format with fields no set covers lists them read only.
 * Values are read through the descriptors (what the writer would write,
 * defaults included) and every change is the descriptor's core SqEdit on
 * the document's undo stack. A refused edit shows the core's message above
 * the groups and the controls go back to the clip's values. The frame is
 * sequin-properties-panel.ui; no format is named here.
 */
#define G_LOG_DOMAIN "sequin-properties-panel"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sequin-properties-panel.h"
#include "sequin-utils.h"

/* the upper end of a spin button whose field the clip bounds (loop
 * points by the duration) or nothing does */
#define SPIN_MAX 1e9

/* One field set's rows */
typedef struct
{
  const SqFieldSet *set;
  gboolean          kept;        /* a world's set, which every clip keeps */
  GtkWidget        *group;       /* heading and body, as the format's own */
  GtkWidget        *body;        /* the rows: in the group or the expander */
  GtkWidget        *expander;    /* kept sets: shown for other formats */
  GtkWidget        *expander_box;
  GtkWidget        *joint_name;  /* per-joint fields: names the joint */
} FieldGroup;

struct _SequinPropertiesPanel
{
  GtkWidget       parent_instance;

  GtkWidget      *scroller;
  GtkWidget      *content;
  GtkWidget      *own_groups;
  GtkWidget      *no_fields;
  GtkWidget      *file_fields;     /* other formats: their fields, read only */
  char           *file_fields_shown; /* the rows it shows, as one text */
  GtkWidget      *kept_groups;
  GtkWidget      *error_label;
  GPtrArray      *groups;          /* FieldGroup* */
  GHashTable     *controls;        /* field key → its control */
  gboolean        other_format;    /* no own set covers the format's fields */

  SequinDocument *document;
  const SqFormat *format;          /* the one the groups were laid out for */
  gssize          joint;
  char           *error;
  guint           updating : 1;
};

G_DEFINE_FINAL_TYPE (SequinPropertiesPanel, sequin_properties_panel, GTK_TYPE_WIDGET)

/* ---- Building -------------------------------------------------------------- */

static const SqClip *
current_clip (SequinPropertiesPanel *self)
{
  return self->document != NULL ? sequin_document_get_clip (self->document) : NULL;
}

static const SqField *
control_field (GtkWidget *control)
{
  return g_object_get_data (G_OBJECT (control), "sequin-field");
}

static FieldGroup *
control_group (GtkWidget *control)
{
  return g_object_get_data (G_OBJECT (control), "sequin-field-group");
}

/* The set is the format's own (its group shows) */
static gboolean
group_is_own (const FieldGroup *g,
              const SqFormat   *format)
{
  return format != NULL && (g->set == format->field_set || (g->set->format != NULL && g->set->format == format));
}

/* The group's fields mean something for the clip: its own set (that
 * applies to it), or a set every clip keeps */
static gboolean
group_is_active (SequinPropertiesPanel *self,
                 const FieldGroup      *g,
                 const SqClip          *clip)
{
  if (group_is_own (g, self->format))
    return g->set->applies == NULL || g->set->applies (clip);
  return g->kept;
}

/* ---- Edits ----------------------------------------------------------------- */

static void refresh (SequinPropertiesPanel *self);

static void
show_error (SequinPropertiesPanel *self,
            const char            *message)
{
  sequin_refusal_show (self->error_label, &self->error, message);
  /* the reason shows at the top of the panel: bring it into view, so a
   * refused value never just springs back */
  if (message != NULL)
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scroller)), 0);
}

static void
apply (SequinPropertiesPanel *self,
       SqEdit                *edit)
{
  /* after a refusal the controls show the clip again, not the refused value */
  if (!sequin_apply_or_explain (self->document, edit, self->error_label, &self->error))
    refresh (self);
}

/* TRUE when `a` and `b` show the same with `digits` decimals: a spin button
 * that loses the focus sets its rounded text as its value, which is no edit */
static gboolean
same_shown (double a,
            double b,
            guint  digits)
{
  return fabs (a - b) < 0.5 * pow (10.0, -(double) digits) * (1 + 1e-9);
}

/* The clip and the joint name a control's edit is for; FALSE when it has
 * none to edit (no document, a per-joint field without a joint) */
static gboolean
edit_target (SequinPropertiesPanel *self,
             GtkWidget             *control,
             const SqClip         **clip,
             const char           **joint)
{
  const SqField *field = control_field (control);

  *clip = current_clip (self);
  *joint = NULL;
  if (self->updating || *clip == NULL || !group_is_active (self, control_group (control), *clip))
    return FALSE;
  if (field->flags & SQ_FIELD_PER_JOINT)
    {
      if (self->joint < 0 || (gsize) self->joint >= (*clip)->n_joints)
        return FALSE;
      *joint = (*clip)->joints[self->joint].name;
    }
  return TRUE;
}

/* A number the user set: the field's edit when it differs from the clip's
 * value as the control shows it */
static void
number_changed (SequinPropertiesPanel *self,
                GtkWidget             *control,
                double                 value,
                guint                  digits)
{
  const SqField *field = control_field (control);
  const SqClip *clip;
  const char *joint;
  SqFieldValue current = { 0 };
  SqFieldValue wanted = { 0 };

  if (!edit_target (self, control, &clip, &joint))
    return;
  field->get (clip, self->joint, &current);
  if (field->type == SQ_FIELD_DOUBLE)
    {
      if (same_shown (value, current.number, digits))
        return;
      wanted.number = value;
    }
  else
    {
      if (lround (value) == lround (current.number))
        return;
      wanted.number = (double) lround (value);
    }
  apply (self, field->edit (clip, joint, &wanted));
}

static void
spin_changed_cb (GtkSpinButton         *spin,
                 SequinPropertiesPanel *self)
{
  number_changed (self, GTK_WIDGET (spin), gtk_spin_button_get_value (spin), gtk_spin_button_get_digits (spin));
}

static void
switch_changed_cb (GtkSwitch             *toggle,
                   GParamSpec            *pspec,
                   SequinPropertiesPanel *self)
{
  number_changed (self, GTK_WIDGET (toggle), gtk_switch_get_active (toggle) ? 1 : 0, 0);
}

static void
choice_changed_cb (GtkDropDown           *drop_down,
                   GParamSpec            *pspec,
                   SequinPropertiesPanel *self)
{
  guint selected = gtk_drop_down_get_selected (drop_down);

  if (selected != GTK_INVALID_LIST_POSITION)
    number_changed (self, GTK_WIDGET (drop_down), control_field (GTK_WIDGET (drop_down))->min + selected, 0);
}

/* An entry's text is applied when Enter is pressed or the focus leaves it */
static void
entry_commit (SequinPropertiesPanel *self,
              GtkWidget             *entry)
{
  const SqField *field = control_field (entry);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  const SqClip *clip;
  const char *joint;
  SqFieldValue current = { 0 };
  SqFieldValue wanted = { 0 };

  if (!edit_target (self, entry, &clip, &joint))
    return;
  field->get (clip, self->joint, &current);
  if (g_strcmp0 (text, current.text) != 0)
    {
      wanted.text = (char *) text;
      apply (self, field->edit (clip, joint, &wanted));
    }
  sq_field_value_clear (&current);
}

static void
entry_activate_cb (GtkEntry              *entry,
                   SequinPropertiesPanel *self)
{
  entry_commit (self, GTK_WIDGET (entry));
}

static void
entry_leave_cb (GtkEventControllerFocus *controller,
                SequinPropertiesPanel   *self)
{
  entry_commit (self, gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller)));
}

static void
delete_item_cb (GtkButton             *button,
                SequinPropertiesPanel *self)
{
  GtkWidget *list = g_object_get_data (G_OBJECT (button), "sequin-list");
  const SqField *field = control_field (list);
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "sequin-item"));
  const SqClip *clip;
  const char *joint;

  if (edit_target (self, list, &clip, &joint))
    apply (self, field->delete_item (clip, index));
}

/* ---- Controls, made from the descriptors ------------------------------------ */

static GtkWidget *
heading_new (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "heading");
  return label;
}

static GtkWidget *
note_new (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  return label;
}

static GtkWidget *
grid_new (void)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  return grid;
}

/* A row of `grid`: the label, and the control it names (its accessible
 * name, with `tooltip` as its description) */
static void
add_row (GtkWidget  *grid,
         int         row,
         const char *label_text,
         const char *tooltip,
         GtkWidget  *control)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (label_text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), control);
  g_object_set_data (G_OBJECT (control), "sequin-label", label);
  gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
  gtk_widget_set_hexpand (control, TRUE);
  gtk_grid_attach (GTK_GRID (grid), control, 1, row, 1, 1);
  if (tooltip != NULL)
    sequin_set_tooltip (control, tooltip);
  /* the mnemonic label names the control; a label property as well would
   * double the name (GTK 4.8 reads both) */
  if (tooltip != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (control),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, tooltip,
                                    -1);
}

/* Numbers are read as in the edit dialogs: a decimal comma too */
static int
spin_input_cb (GtkSpinButton *spin,
               double        *value)
{
  return sequin_parse_number (gtk_editable_get_text (GTK_EDITABLE (spin)), value) ? TRUE : GTK_INPUT_ERROR;
}

static GtkWidget *
spin_new (double lower,
          double upper,
          double step,
          guint  digits)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (lower, upper, step);

  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), digits);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), FALSE);
  gtk_editable_set_width_chars (GTK_EDITABLE (spin), 7);
  gtk_widget_add_css_class (spin, "numeric");
  g_signal_connect (spin, "input", G_CALLBACK (spin_input_cb), NULL);
  return spin;
}

static GtkWidget *
control_new (SequinPropertiesPanel *self,
             const SqField         *field)
{
  GtkWidget *control = NULL;

  switch (field->type)
    {
    case SQ_FIELD_INT:
    case SQ_FIELD_DOUBLE:
      control = spin_new (field->min, MIN (field->max, SPIN_MAX), field->step > 0 ? field->step : 1,
                          field->type == SQ_FIELD_INT ? 0 : field->digits);
      g_signal_connect (control, "value-changed", G_CALLBACK (spin_changed_cb), self);
      break;
    case SQ_FIELD_BOOL:
      control = gtk_switch_new ();
      gtk_widget_set_halign (control, GTK_ALIGN_START);
      gtk_widget_set_valign (control, GTK_ALIGN_CENTER);
      g_signal_connect (control, "notify::active", G_CALLBACK (switch_changed_cb), self);
      break;
    case SQ_FIELD_CHOICE:
      {
        g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

        for (guint i = (guint) field->min; i <= (guint) field->max; i++)
          gtk_string_list_append (names, field->choice_name (i));
        control = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&names)), NULL);
        g_signal_connect (control, "notify::selected", G_CALLBACK (choice_changed_cb), self);
      }
      break;
    case SQ_FIELD_TEXT:
    default:
      {
        GtkEventController *focus = gtk_event_controller_focus_new ();

        control = gtk_entry_new ();
        gtk_editable_set_width_chars (GTK_EDITABLE (control), 8);
        if (field->placeholder != NULL)
          gtk_entry_set_placeholder_text (GTK_ENTRY (control), _(field->placeholder));
        g_signal_connect (control, "activate", G_CALLBACK (entry_activate_cb), self);
        g_signal_connect (focus, "leave", G_CALLBACK (entry_leave_cb), self);
        gtk_widget_add_controller (control, focus);
      }
      break;
    }
  return control;
}

static void
remember_control (SequinPropertiesPanel *self,
                  FieldGroup            *g,
                  const SqField         *field,
                  GtkWidget             *control)
{
  g_object_set_data (G_OBJECT (control), "sequin-field", (gpointer) field);
  g_object_set_data (G_OBJECT (control), "sequin-field-group", g);
  g_hash_table_insert (self->controls, (gpointer) field->key, control);
}

static GtkWidget *
group_new (const char *title)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);

  if (title != NULL)
    gtk_box_append (GTK_BOX (box), heading_new (title));
  return box;
}

/* A list of records: its heading, a note when empty, the list in a frame */
static void
add_list (SequinPropertiesPanel *self,
          FieldGroup            *g,
          const SqField         *field)
{
  GtkWidget *heading = heading_new (_(field->label));
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *frame = gtk_frame_new (NULL);
  GtkWidget *empty = note_new (field->placeholder != NULL ? _(field->placeholder) : "");

  gtk_widget_set_margin_top (heading, 10);
  gtk_box_append (GTK_BOX (g->body), heading);
  gtk_box_append (GTK_BOX (g->body), empty);
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_list_box_set_show_separators (GTK_LIST_BOX (list), TRUE);
  gtk_widget_add_css_class (list, "constraints");
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL, _(field->label), -1);
  g_object_set_data (G_OBJECT (list), "sequin-empty", empty);
  gtk_frame_set_child (GTK_FRAME (frame), list);
  g_object_bind_property (list, "visible", frame, "visible", G_BINDING_SYNC_CREATE);
  gtk_box_append (GTK_BOX (g->body), frame);
  remember_control (self, g, field, list);
}

/* The label and value naming the joint the per-joint fields below are for */
static void
add_joint_row (FieldGroup *g,
               GtkWidget  *grid,
               int         row)
{
  GtkWidget *label = gtk_label_new (_("Joint"));

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_top (label, 6);
  gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
  g->joint_name = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (g->joint_name), 0);
  gtk_label_set_wrap (GTK_LABEL (g->joint_name), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (g->joint_name), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_margin_top (g->joint_name, 6);
  gtk_grid_attach (GTK_GRID (grid), g->joint_name, 1, row, 1, 1);
}

static void
build_body (SequinPropertiesPanel *self,
            FieldGroup            *g)
{
  GtkWidget *grid = grid_new ();
  int row = 0;

  g->body = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_box_append (GTK_BOX (g->body), grid);
  for (gsize i = 0; i < g->set->n_fields; i++)
    {
      const SqField *field = &g->set->fields[i];
      GtkWidget *control;

      if (field->type == SQ_FIELD_LIST)
        {
          add_list (self, g, field);
          continue;
        }
      if ((field->flags & SQ_FIELD_PER_JOINT) && g->joint_name == NULL)
        add_joint_row (g, grid, row++);
      control = control_new (self, field);
      add_row (grid, row++, _(field->label), field->description != NULL ? _(field->description) : NULL, control);
      sequin_accessible_single_names (control);   /* a drop-down's button named by the row's label */
      remember_control (self, g, field, control);
    }
}

static FieldGroup *
build_group (SequinPropertiesPanel *self,
             const SqFieldSet      *set,
             gboolean               kept)
{
  FieldGroup *g = g_new0 (FieldGroup, 1);

  g->set = set;
  g->kept = kept;
  build_body (self, g);
  g->group = group_new (_(set->title));
  gtk_widget_set_visible (g->group, FALSE);
  gtk_box_append (GTK_BOX (self->own_groups), g->group);
  if (kept)
    {
      g->expander_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
      gtk_widget_set_margin_top (g->expander_box, 8);
      if (set->kept_note != NULL)
        gtk_box_append (GTK_BOX (g->expander_box), note_new (_(set->kept_note)));
      gtk_box_append (GTK_BOX (g->expander_box), g->body);
      g->expander = gtk_expander_new_with_mnemonic (_(set->kept_title));
      gtk_widget_add_css_class (gtk_expander_get_label_widget (GTK_EXPANDER (g->expander)), "heading");
      gtk_expander_set_child (GTK_EXPANDER (g->expander), g->expander_box);
      if (set->kept_description != NULL)
        sequin_set_tooltip (g->expander, _(set->kept_description));
      gtk_widget_set_visible (g->expander, FALSE);
      gtk_box_append (GTK_BOX (self->kept_groups), g->expander);
    }
  else
    gtk_box_append (GTK_BOX (g->group), g->body);
  return g;
}

/* A group for every field set of the worlds and formats */
static void
build_groups (SequinPropertiesPanel *self)
{
  g_autoptr(GPtrArray) sets = sq_field_sets ();
  gsize n_worlds;
  const SqWorldHome * const *worlds = sq_worlds (&n_worlds);

  for (guint i = 0; i < sets->len; i++)
    {
      gboolean kept = FALSE;

      for (gsize w = 0; w < n_worlds; w++)
        kept |= worlds[w]->fields == sets->pdata[i];
      g_ptr_array_add (self->groups, build_group (self, sets->pdata[i], kept));
    }
}

/* ---- Showing the clip ------------------------------------------------------ */

static GtkWidget *
list_row_new (SequinPropertiesPanel *self,
              GtkWidget             *list,
              const SqField         *field,
              const SqClip          *clip,
              guint                  index)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *button = gtk_button_new_from_icon_name ("user-trash-symbolic");
  g_auto(GStrv) details = NULL;
  g_autofree char *title = field->describe_item (clip, index, &details);
  g_autofree char *tip = field->delete_label (index);
  g_autoptr(GString) summary = g_string_new (title);
  GtkWidget *label;

  /* the title, with the Delete button beside it; the details below, full width */
  label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (top), label);
  gtk_box_append (GTK_BOX (box), top);
  for (guint i = 0; details != NULL && details[i] != NULL; i++)
    {
      label = gtk_label_new (details[i]);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (label, "caption");
      gtk_widget_add_css_class (label, "numeric");
      gtk_box_append (GTK_BOX (box), label);
      g_string_append_printf (summary, "; %s", details[i]);
    }

  sequin_set_tooltip (button, tip);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tip, -1);
  g_object_set_data (G_OBJECT (button), "sequin-item", GUINT_TO_POINTER (index));
  g_object_set_data (G_OBJECT (button), "sequin-list", list);
  g_signal_connect (button, "clicked", G_CALLBACK (delete_item_cb), self);
  gtk_box_append (GTK_BOX (top), button);

  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 2);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, summary->str, -1);
  return row;
}

static void
show_list (SequinPropertiesPanel *self,
           GtkWidget             *list,
           const SqField         *field,
           const SqClip          *clip)
{
  guint n = field->n_items (clip);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (list), child);
  for (guint i = 0; i < n; i++)
    gtk_list_box_append (GTK_LIST_BOX (list), list_row_new (self, list, field, clip, i));
  gtk_widget_set_visible (list, n > 0);
  gtk_widget_set_visible (g_object_get_data (G_OBJECT (list), "sequin-empty"), n == 0);
}

/* A per-joint control: shown with the joint's value while one joint is
 * selected; otherwise the row goes and the joint row says why */
static void
show_joint_field (SequinPropertiesPanel *self,
                  FieldGroup            *g,
                  GtkWidget             *control,
                  const SqClip          *clip)
{
  gboolean have = self->joint >= 0 && (gsize) self->joint < clip->n_joints;

  gtk_widget_set_sensitive (control, have);
  gtk_widget_set_visible (control, have);
  gtk_widget_set_visible (g_object_get_data (G_OBJECT (control), "sequin-label"), have);
  if (have)
    {
      const char *name = clip->joints[self->joint].name;

      gtk_label_set_text (GTK_LABEL (g->joint_name), name[0] != '\0' ? name : _("(no name)"));
      gtk_widget_remove_css_class (g->joint_name, "dim-label");
    }
  else
    {
      gtk_label_set_text (GTK_LABEL (g->joint_name), _("Select one joint in the tree"));
      gtk_widget_add_css_class (g->joint_name, "dim-label");
    }
}

/* The control of `field` shows its value for the clip */
static void
show_field (SequinPropertiesPanel *self,
            FieldGroup            *g,
            const SqField         *field,
            const SqClip          *clip)
{
  GtkWidget *control = g_hash_table_lookup (self->controls, field->key);
  SqFieldValue v = { 0 };

  if (field->type == SQ_FIELD_LIST)
    {
      show_list (self, control, field, clip);
      return;
    }
  if (field->flags & SQ_FIELD_PER_JOINT)
    {
      show_joint_field (self, g, control, clip);
      if (self->joint < 0 || (gsize) self->joint >= clip->n_joints)
        return;
    }
  field->get (clip, self->joint, &v);
  switch (field->type)
    {
    case SQ_FIELD_INT:
    case SQ_FIELD_DOUBLE:
      /* a file's value outside what the edit takes shows as it is */
      if (isfinite (v.number))
        gtk_spin_button_set_range (GTK_SPIN_BUTTON (control), MIN (field->min, v.number),
                                   MAX (MIN (field->max, SPIN_MAX), v.number));
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (control), v.number);
      break;
    case SQ_FIELD_BOOL:
      gtk_switch_set_active (GTK_SWITCH (control), v.number != 0);
      break;
    case SQ_FIELD_CHOICE:
      gtk_drop_down_set_selected (GTK_DROP_DOWN (control),
                                  v.number >= field->min && v.number <= field->max
                                  ? (guint) (v.number - field->min) : GTK_INVALID_LIST_POSITION);
      break;
    case SQ_FIELD_TEXT:
    default:
      if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (control)), v.text) != 0)
        gtk_editable_set_text (GTK_EDITABLE (control), v.text != NULL ? v.text : "");
      break;
    }
  if (field->enabled_by != NULL)
    {
      SqFieldValue on = { 0 };
      const SqField *by = sq_field_set_lookup (g->set, field->enabled_by);

      by->get (clip, self->joint, &on);
      gtk_widget_set_sensitive (control, on.number != 0);
    }
  sq_field_value_clear (&v);
}

static void
move_body (FieldGroup *g,
           GtkWidget  *parent)
{
  if (gtk_widget_get_parent (g->body) == parent)
    return;
  g_object_ref (g->body);
  gtk_box_remove (GTK_BOX (gtk_widget_get_parent (g->body)), g->body);
  gtk_box_append (GTK_BOX (parent), g->body);
  g_object_unref (g->body);
}

/* Which groups show, and where the kept sets' rows sit */
static void
layout_groups (SequinPropertiesPanel *self,
               const SqClip          *clip)
{
  gboolean covered = FALSE;

  for (guint i = 0; i < self->groups->len; i++)
    {
      FieldGroup *g = self->groups->pdata[i];
      gboolean own = group_is_own (g, self->format);
      gboolean shown = own && (g->set->applies == NULL || g->set->applies (clip));

      if (g->kept)
        {
          move_body (g, own ? g->group : g->expander_box);
          gtk_widget_set_visible (g->expander, !own);
        }
      gtk_widget_set_visible (g->group, shown);
      covered |= own && !g->set->partial;
    }
  self->other_format = !covered;
}

/* A readable line for a field value: scalars as they are, lists by their
 * length; kept text (byte strings) is left to the structure view */
static char *
field_text (GVariant *value)
{
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
    return NULL;
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    return g_variant_dup_string (value, NULL);
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN))
    return g_strdup (g_variant_get_boolean (value) ? _("yes") : _("no"));
  if (g_variant_is_container (value))
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu item", "%zu items", g_variant_n_children (value)),
                            g_variant_n_children (value));
  return g_variant_print (value, FALSE);
}

/* A field's row as the structure view words it (the format's own first
 * line, "Name: value"), else its key and value as they are; FALSE for
 * what is not shown (raw bytes, line ends) */
static gboolean
field_row (const SqClip *clip,
           const char   *key,
           GVariant     *value,
           char        **name,
           char        **text)
{
  g_autoptr(GString) line = g_string_new (NULL);
  const char *colon;

  if (g_str_equal (key, "line-ending"))
    return FALSE;
  if (clip->format->dump_field != NULL && clip->format->dump_field (line, key, value, FALSE)
      && (colon = strstr (line->str, ": ")) != NULL)
    {
      const char *end = strchr (colon, '\n');

      *name = g_strndup (line->str, colon - line->str);
      *text = g_strndup (colon + 2, end != NULL ? (gsize) (end - colon - 2) : strlen (colon + 2));
      g_strstrip (*name);
      return TRUE;
    }
  if ((*text = field_text (value)) == NULL)
    return FALSE;
  *name = g_strdelimit (g_strdup (key), "-", ' ');
  (*name)[0] = g_ascii_toupper ((*name)[0]);
  return TRUE;
}

/* A field one of the shown groups edits, so not listed again */
static gboolean
is_shown_field (SequinPropertiesPanel *self,
                const char            *key)
{
  GtkWidget *control = g_hash_table_lookup (self->controls, key);

  return control != NULL && gtk_widget_get_visible (control_group (control)->group);
}

/* The rows of the fields the groups do not cover: name, text, name, … */
static GPtrArray *
file_field_rows (SequinPropertiesPanel *self,
                 const SqClip          *clip,
                 gboolean               shown)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  for (gsize i = 0; shown && i < sq_props_size (clip->extra); i++)
    {
      const char *key = sq_props_key_at (clip->extra, i);
      char *name = NULL, *text = NULL;

      if (is_shown_field (self, key) || !field_row (clip, key, sq_props_value_at (clip->extra, i), &name, &text))
        continue;
      g_ptr_array_add (rows, name);
      g_ptr_array_add (rows, text);
    }
  return rows;
}

/* The fields of a format the groups do not cover (the Sims' KFD, PSL, CMX
 * and SPS): each one a row, read only. Made again only when a row changes
 * (not for every edit of the keys). */
static void
update_file_fields (SequinPropertiesPanel *self,
                    const SqClip          *clip,
                    gboolean               shown)
{
  g_autoptr(GPtrArray) rows = file_field_rows (self, clip, shown);
  g_autoptr(GString) all = g_string_new (sq_format_get_name (clip->format));
  GtkWidget *grid;

  for (guint i = 0; i < rows->len; i++)
    g_string_append_printf (all, "\x1f%s", (const char *) rows->pdata[i]);
  gtk_widget_set_visible (self->file_fields, rows->len > 0);
  gtk_widget_set_visible (self->no_fields, self->other_format && rows->len == 0);
  if (g_strcmp0 (all->str, self->file_fields_shown) == 0)
    return;
  g_free (self->file_fields_shown);
  self->file_fields_shown = g_string_free (g_steal_pointer (&all), FALSE);

  while (gtk_widget_get_first_child (self->file_fields) != NULL)
    gtk_box_remove (GTK_BOX (self->file_fields), gtk_widget_get_first_child (self->file_fields));
  if (rows->len > 0)
    {
      grid = grid_new ();
      for (guint i = 0; i + 1 < rows->len; i += 2)
        {
          GtkWidget *label = gtk_label_new (rows->pdata[i]);
          GtkWidget *value = gtk_label_new (rows->pdata[i + 1]);

          gtk_label_set_xalign (GTK_LABEL (label), 0);
          gtk_widget_add_css_class (label, "dim-label");
          gtk_label_set_xalign (GTK_LABEL (value), 0);
          gtk_label_set_selectable (GTK_LABEL (value), TRUE);
          gtk_label_set_wrap (GTK_LABEL (value), TRUE);
          /* a label is named by its text: the row's name stands beside it */
          gtk_grid_attach (GTK_GRID (grid), label, 0, i / 2, 1, 1);
          gtk_grid_attach (GTK_GRID (grid), value, 1, i / 2, 1, 1);
        }
      gtk_box_append (GTK_BOX (self->file_fields), heading_new (sq_format_get_name (clip->format)));
      gtk_box_append (GTK_BOX (self->file_fields), grid);
    }
}

static void
refresh (SequinPropertiesPanel *self)
{
  const SqClip *clip = current_clip (self);

  gtk_widget_set_sensitive (self->scroller, clip != NULL);
  if (clip == NULL)
    return;

  self->updating = TRUE;
  self->format = sequin_document_get_format (self->document);
  layout_groups (self, clip);
  for (guint i = 0; i < self->groups->len; i++)
    {
      FieldGroup *g = self->groups->pdata[i];

      if (!group_is_active (self, g, clip))
        continue;
      for (gsize f = 0; f < g->set->n_fields; f++)
        show_field (self, g, &g->set->fields[f], clip);
    }
  update_file_fields (self, clip, clip->format != NULL && self->other_format);
  self->updating = FALSE;
}

static void
document_changed_cb (SequinPropertiesPanel *self)
{
  /* a refusal is about the clip as it was */
  show_error (self, NULL);
  refresh (self);
}

/* ---- Construction ---------------------------------------------------------- */

static void
field_group_free (gpointer data)
{
  g_free (data);
}

static void
sequin_properties_panel_init (SequinPropertiesPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->joint = -1;
  self->groups = g_ptr_array_new_with_free_func (field_group_free);
  self->controls = g_hash_table_new (g_str_hash, g_str_equal);
  self->error_label = sequin_refusal_label_new ();
  gtk_box_prepend (GTK_BOX (self->content), self->error_label);
  build_groups (self);
}

static void
sequin_properties_panel_dispose (GObject *object)
{
  SequinPropertiesPanel *self = SEQUIN_PROPERTIES_PANEL (object);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  gtk_widget_dispose_template (GTK_WIDGET (self), SEQUIN_TYPE_PROPERTIES_PANEL);
  self->scroller = NULL;

  G_OBJECT_CLASS (sequin_properties_panel_parent_class)->dispose (object);
}

static void
sequin_properties_panel_finalize (GObject *object)
{
  SequinPropertiesPanel *self = SEQUIN_PROPERTIES_PANEL (object);

  g_free (self->error);
  g_free (self->file_fields_shown);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_pointer (&self->controls, g_hash_table_unref);

  G_OBJECT_CLASS (sequin_properties_panel_parent_class)->finalize (object);
}

static void
sequin_properties_panel_class_init (SequinPropertiesPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sequin_properties_panel_dispose;
  object_class->finalize = sequin_properties_panel_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sequin/Sequin/sequin-properties-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SequinPropertiesPanel, scroller);
  gtk_widget_class_bind_template_child (widget_class, SequinPropertiesPanel, content);
  gtk_widget_class_bind_template_child (widget_class, SequinPropertiesPanel, own_groups);
  gtk_widget_class_bind_template_child (widget_class, SequinPropertiesPanel, no_fields);
  gtk_widget_class_bind_template_child (widget_class, SequinPropertiesPanel, file_fields);
  gtk_widget_class_bind_template_child (widget_class, SequinPropertiesPanel, kept_groups);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_set_css_name (widget_class, "propertiespanel");
}

GtkWidget *
sequin_properties_panel_new (void)
{
  return g_object_new (SEQUIN_TYPE_PROPERTIES_PANEL, NULL);
}

void
sequin_properties_panel_set_document (SequinPropertiesPanel *self,
                                      SequinDocument        *document)
{
  g_return_if_fail (SEQUIN_IS_PROPERTIES_PANEL (self));
  g_return_if_fail (document == NULL || SEQUIN_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  self->format = NULL;
  self->joint = -1;
  show_error (self, NULL);
  if (document != NULL)
    {
      g_signal_connect_swapped (document, "changed", G_CALLBACK (document_changed_cb), self);
      g_signal_connect_swapped (document, "notify::file", G_CALLBACK (refresh), self);
      /* the kept fields open by themselves only where they are the file's */
      for (guint i = 0; i < self->groups->len; i++)
        {
          FieldGroup *g = self->groups->pdata[i];

          if (g->expander != NULL)
            gtk_expander_set_expanded (GTK_EXPANDER (g->expander), FALSE);
        }
    }
  refresh (self);
}

void
sequin_properties_panel_set_joint (SequinPropertiesPanel *self,
                                   gssize                 joint)
{
  g_return_if_fail (SEQUIN_IS_PROPERTIES_PANEL (self));

  /* the same joint again (the tree says so after every edit): the
   * document's change has refreshed the panel already */
  if (self->joint == joint)
    return;
  self->joint = joint;
  if (current_clip (self) != NULL)
    refresh (self);
}

/* The tests' names for the controls and groups: the field keys */
static const char * const property_keys[SEQUIN_N_PROPERTIES] = {
  [SEQUIN_PROPERTY_SL_PRIORITY] = "priority",
  [SEQUIN_PROPERTY_SL_LOOP] = "loop",
  [SEQUIN_PROPERTY_SL_LOOP_IN] = "loop-in",
  [SEQUIN_PROPERTY_SL_LOOP_OUT] = "loop-out",
  [SEQUIN_PROPERTY_SL_EASE_IN] = "ease-in",
  [SEQUIN_PROPERTY_SL_EASE_OUT] = "ease-out",
  [SEQUIN_PROPERTY_SL_HAND_POSE] = "hand-pose",
  [SEQUIN_PROPERTY_SL_EMOTE] = "emote",
  [SEQUIN_PROPERTY_SL_JOINT_PRIORITY] = "joint-priority",
  [SEQUIN_PROPERTY_SL_CONSTRAINTS] = "constraints",
  [SEQUIN_PROPERTY_DX_TICKS] = "ticks-per-second",
  [SEQUIN_PROPERTY_DX_SET_NAME] = "set-name",
  [SEQUIN_PROPERTY_BVH_FRAME_TIME] = "frame-time",
  [SEQUIN_PROPERTY_SIMS_BOUNCE] = "bounce",
  [SEQUIN_PROPERTY_SIMS_START_POSE] = "start-pose",
  [SEQUIN_PROPERTY_SIMS_END_POSE] = "end-pose",
  [SEQUIN_PROPERTY_SIMS_SKILL_NAME] = "skill",
  [SEQUIN_PROPERTY_SIMS_SKILL_DURATION] = "skill-duration",
};

/* each group by a key of its set; the kept group's expander by the same */
static const char * const group_keys[SEQUIN_N_PROPERTY_GROUPS] = {
  [SEQUIN_PROPERTY_GROUP_SL] = "priority",
  [SEQUIN_PROPERTY_GROUP_SL_OTHER] = "priority",
  [SEQUIN_PROPERTY_GROUP_DX] = "set-name",
  [SEQUIN_PROPERTY_GROUP_BVH] = "frame-time",
  [SEQUIN_PROPERTY_GROUP_SIMS_KFD] = "bounce",
  [SEQUIN_PROPERTY_GROUP_SIMS_SKILL] = "skill",
};

GtkWidget *
sequin_properties_panel_get_control (SequinPropertiesPanel *self,
                                     SequinProperty         property)
{
  g_return_val_if_fail (SEQUIN_IS_PROPERTIES_PANEL (self), NULL);
  g_return_val_if_fail (property < SEQUIN_N_PROPERTIES, NULL);
  return sequin_properties_panel_get_field_control (self, property_keys[property]);
}

GtkWidget *
sequin_properties_panel_get_field_control (SequinPropertiesPanel *self,
                                           const char            *key)
{
  g_return_val_if_fail (SEQUIN_IS_PROPERTIES_PANEL (self), NULL);
  return g_hash_table_lookup (self->controls, key);
}

gboolean
sequin_properties_panel_group_visible (SequinPropertiesPanel *self,
                                       SequinPropertyGroup    group)
{
  GtkWidget *control;
  FieldGroup *g;

  g_return_val_if_fail (SEQUIN_IS_PROPERTIES_PANEL (self), FALSE);
  g_return_val_if_fail (group < SEQUIN_N_PROPERTY_GROUPS, FALSE);
  control = g_hash_table_lookup (self->controls, group_keys[group]);
  g = control_group (control);
  if (group == SEQUIN_PROPERTY_GROUP_SL_OTHER)
    return g->expander != NULL && gtk_widget_get_visible (g->expander);
  return gtk_widget_get_visible (g->group);
}

const char *
sequin_properties_panel_get_error (SequinPropertiesPanel *self)
{
  g_return_val_if_fail (SEQUIN_IS_PROPERTIES_PANEL (self), NULL);
  return self->error;
}
