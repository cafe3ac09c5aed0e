/* sequin-properties-panel.c: the format fields of a document, editable
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One group per format that has fields of its own: Second Life .anim (base
 * and joint priorities, loop, ease, hand pose, emote, constraints), DirectX
 * .x (ticks per second, AnimationSet name), BVH (frame time), The Sims (a
 * KFD's bounce and start/end pose names, a CMX skill's name and duration;
 * their other fields are listed read only). The document's
 * own format comes first; the Second Life fields of any other clip sit in an
 * expander, since they are used when it is saved as .anim. Values are read
 * through sq-fields.h (what the writer would write, defaults included) and
 * every change is a core SqEdit on the document's undo stack. A refused edit
 * shows the core's message above the groups and the controls go back to the
 * clip's values.
 */
#define G_LOG_DOMAIN "sequin-properties-panel"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sequin-properties-panel.h"
#include "sequin-utils.h"

struct _SequinPropertiesPanel
{
  GtkWidget       parent_instance;

  GtkWidget      *scroller;
  GtkWidget      *error_label;
  GtkWidget      *groups[SEQUIN_N_PROPERTY_GROUPS];
  GtkWidget      *sl_body;         /* in the SL group or in the expander */
  GtkWidget      *sl_other_box;    /* the expander's child */
  GtkWidget      *controls[SEQUIN_N_PROPERTIES];
  GtkWidget      *joint_name;
  GtkWidget      *no_constraints;
  GtkWidget      *no_fields;
  GtkWidget      *file_fields;     /* other formats: their fields, read only */
  gboolean        other_format;    /* none of the groups is the document's format's */

  SequinDocument *document;
  const SqFormat *format;          /* the one the groups were laid out for */
  gssize          joint;
  char           *error;
  guint           updating : 1;
};

G_DEFINE_FINAL_TYPE (SequinPropertiesPanel, sequin_properties_panel, GTK_TYPE_WIDGET)

/* ---- Building -------------------------------------------------------------- */

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
    gtk_widget_set_tooltip_text (control, tooltip);
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

/* ---- Showing the clip ------------------------------------------------------ */

static const SqClip *
current_clip (SequinPropertiesPanel *self)
{
  return self->document != NULL ? sequin_document_get_clip (self->document) : NULL;
}

static void
set_spin (SequinPropertiesPanel *self,
          SequinProperty         property,
          double                 value)
{
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->controls[property]), value);
}

static void
set_entry (SequinPropertiesPanel *self,
           SequinProperty         property,
           const char            *text)
{
  GtkEditable *editable = GTK_EDITABLE (self->controls[property]);

  if (g_strcmp0 (gtk_editable_get_text (editable), text) != 0)
    gtk_editable_set_text (editable, text);
}

/* A number as short as it reads: 3 significant digits, no −0 */
static char *
short_number (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (v == 0)
    v = 0;
  g_ascii_formatd (buf, sizeof buf, "%.3g", v);
  return g_strdup (buf);
}

static char *
format_offset (const double v[3])
{
  g_autofree char *x = short_number (v[0]);
  g_autofree char *y = short_number (v[1]);
  g_autofree char *z = short_number (v[2]);

  /* TRANSLATORS: an offset in metres: x, y, z */
  return g_strdup_printf (_("(%s, %s, %s)"), x, y, z);
}

static void delete_constraint_cb (GtkButton *button, SequinPropertiesPanel *self);

static GtkWidget *
constraint_row_new (SequinPropertiesPanel *self,
                    guint                  index,
                    const SqSlConstraint  *c)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *button = gtk_button_new_from_icon_name ("user-trash-symbolic");
  const char *type = sq_sl_constraint_type_name (c->type);
  g_autofree char *type_text = type != NULL ? g_strdup (type) : g_strdup_printf (_("Type %u"), c->type);
  g_autofree char *title = NULL;
  g_autofree char *source_offset = format_offset (c->source_offset);
  g_autofree char *target_offset = format_offset (c->target_offset);
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *ease = NULL;
  g_autofree char *tip = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *in0 = short_number (c->ease_in_start);
  g_autofree char *in1 = short_number (c->ease_in_stop);
  g_autofree char *out0 = short_number (c->ease_out_start);
  g_autofree char *out1 = short_number (c->ease_out_stop);
  const char *lines[3];
  GtkWidget *label;

  /* TRANSLATORS: a constraint's title: its number, its type (Point or Plane)
   * and how many joints up the chain it moves */
  title = g_strdup_printf (_("%u. %s, chain of %u"), index + 1, type_text, (guint) c->chain_length);
  /* TRANSLATORS: a constraint's source: a collision volume and an offset */
  from = g_strdup_printf (_("From %s %s"), c->source_volume, source_offset);
  /* TRANSLATORS: a constraint's target: a collision volume (or GROUND) and an offset */
  to = g_strdup_printf (_("To %s %s"), c->target_volume, target_offset);
  /* TRANSLATORS: a constraint's ease times in seconds: in from–to, out from–to */
  ease = g_strdup_printf (_("Ease in %s–%s s, out %s–%s s"), in0, in1, out0, out1);

  /* the title, with the Delete button beside it; the details below, full width */
  label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (top), label);
  gtk_box_append (GTK_BOX (box), top);
  lines[0] = from;
  lines[1] = to;
  lines[2] = ease;
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      label = gtk_label_new (lines[i]);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (label), FALSE);
      gtk_widget_add_css_class (label, "caption");
      gtk_widget_add_css_class (label, "numeric");
      gtk_box_append (GTK_BOX (box), label);
    }

  /* TRANSLATORS: the tooltip of a constraint's delete button; %u is its number */
  tip = g_strdup_printf (_("Delete constraint %u"), index + 1);
  gtk_widget_set_tooltip_text (button, tip);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tip, -1);
  g_object_set_data (G_OBJECT (button), "sequin-constraint", GUINT_TO_POINTER (index));
  g_signal_connect (button, "clicked", G_CALLBACK (delete_constraint_cb), self);
  gtk_box_append (GTK_BOX (top), button);

  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 2);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  summary = g_strdup_printf ("%s; %s; %s; %s", title, from, to, ease);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, summary, -1);
  return row;
}

static void
update_constraints (SequinPropertiesPanel *self,
                    const SqClip          *clip)
{
  GtkListBox *list = GTK_LIST_BOX (self->controls[SEQUIN_PROPERTY_SL_CONSTRAINTS]);
  guint n = sq_sl_constraint_count (clip);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
  for (guint i = 0; i < n; i++)
    {
      SqSlConstraint c;

      if (sq_sl_constraint_get (clip, i, &c))
        gtk_list_box_append (list, constraint_row_new (self, i, &c));
    }
  gtk_widget_set_visible (GTK_WIDGET (list), n > 0);
  gtk_widget_set_visible (self->no_constraints, n == 0);
}

static void
update_joint (SequinPropertiesPanel *self,
              const SqClip          *clip)
{
  gboolean have = clip != NULL && self->joint >= 0 && (gsize) self->joint < clip->n_joints;
  GtkWidget *spin = self->controls[SEQUIN_PROPERTY_SL_JOINT_PRIORITY];

  /* no joint, no priority to show: the row goes, the note above says why */
  gtk_widget_set_sensitive (spin, have);
  gtk_widget_set_visible (spin, have);
  gtk_widget_set_visible (g_object_get_data (G_OBJECT (spin), "sequin-label"), have);
  if (have)
    {
      const char *name = clip->joints[self->joint].name;

      gtk_label_set_text (GTK_LABEL (self->joint_name), name[0] != '\0' ? name : _("(no name)"));
      gtk_widget_remove_css_class (self->joint_name, "dim-label");
      set_spin (self, SEQUIN_PROPERTY_SL_JOINT_PRIORITY, sq_sl_joint_priority (clip, self->joint));
    }
  else
    {
      gtk_label_set_text (GTK_LABEL (self->joint_name), _("Select one joint in the tree"));
      gtk_widget_add_css_class (self->joint_name, "dim-label");
    }
}

static void
move_sl_body (SequinPropertiesPanel *self,
              GtkWidget             *parent)
{
  if (gtk_widget_get_parent (self->sl_body) == parent)
    return;
  g_object_ref (self->sl_body);
  gtk_box_remove (GTK_BOX (gtk_widget_get_parent (self->sl_body)), self->sl_body);
  gtk_box_append (GTK_BOX (parent), self->sl_body);
  g_object_unref (self->sl_body);
}

static void
layout_groups (SequinPropertiesPanel *self,
               const SqFormat        *format)
{
  const char *id = format != NULL ? format->id : "";
  gboolean sl = g_strcmp0 (id, "sl-anim") == 0;

  self->format = format;
  move_sl_body (self, sl ? self->groups[SEQUIN_PROPERTY_GROUP_SL] : self->sl_other_box);
  gtk_widget_set_visible (self->groups[SEQUIN_PROPERTY_GROUP_SL], sl);
  gtk_widget_set_visible (self->groups[SEQUIN_PROPERTY_GROUP_SL_OTHER], !sl);
  gtk_widget_set_visible (self->groups[SEQUIN_PROPERTY_GROUP_DX], g_strcmp0 (id, "dx") == 0);
  gtk_widget_set_visible (self->groups[SEQUIN_PROPERTY_GROUP_BVH], g_strcmp0 (id, "bvh") == 0);
  gtk_widget_set_visible (self->no_fields, !sl && g_strcmp0 (id, "dx") != 0 && g_strcmp0 (id, "bvh") != 0);
  self->other_format = gtk_widget_get_visible (self->no_fields);
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

/* A field the Sims groups edit, so not listed again */
static gboolean
is_sims_control (const SqClip *clip,
                 const char   *key)
{
  static const char * const kfd[] = { "bounce", "start-pose", "end-pose", NULL };
  static const char * const skill[] = { "skill", "skill-duration", NULL };
  SqSimsFields f;

  sq_sims_fields_get (clip, &f);
  return (f.is_kfd && g_strv_contains (kfd, key)) || (f.is_skill && g_strv_contains (skill, key));
}

/* The fields of a format the groups above do not cover (the Sims' KFD,
 * PSL, CMX and SPS): each one a row, read only */
static void
update_file_fields (SequinPropertiesPanel *self,
                    const SqClip          *clip,
                    gboolean               shown)
{
  GtkWidget *grid = grid_new ();
  int row = 0;

  for (gsize i = 0; shown && i < sq_props_size (clip->extra); i++)
    {
      const char *key = sq_props_key_at (clip->extra, i);
      g_autofree char *text = NULL;
      g_autofree char *name = NULL;
      GtkWidget *label, *value;

      if (is_sims_control (clip, key) || !field_row (clip, key, sq_props_value_at (clip->extra, i), &name, &text))
        continue;
      label = gtk_label_new (name);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "dim-label");
      value = gtk_label_new (text);
      gtk_label_set_xalign (GTK_LABEL (value), 0);
      gtk_label_set_selectable (GTK_LABEL (value), TRUE);
      gtk_label_set_wrap (GTK_LABEL (value), TRUE);
      /* a label is named by its text: the row's name stands beside it */
      gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), value, 1, row, 1, 1);
      row++;
    }
  while (gtk_widget_get_first_child (self->file_fields) != NULL)
    gtk_box_remove (GTK_BOX (self->file_fields), gtk_widget_get_first_child (self->file_fields));
  if (row > 0)
    {
      gtk_box_append (GTK_BOX (self->file_fields), heading_new (sq_format_get_name (clip->format)));
      gtk_box_append (GTK_BOX (self->file_fields), grid);
    }
  else
    {
      g_object_ref_sink (grid);
      g_object_unref (grid);
    }
  gtk_widget_set_visible (self->file_fields, row > 0);
  gtk_widget_set_visible (self->no_fields, self->other_format && row == 0);
}

static void
update_sims (SequinPropertiesPanel *self,
             const SqClip          *clip)
{
  SqSimsFields f;

  sq_sims_fields_get (clip, &f);
  gtk_widget_set_visible (self->groups[SEQUIN_PROPERTY_GROUP_SIMS_KFD], f.is_kfd);
  gtk_widget_set_visible (self->groups[SEQUIN_PROPERTY_GROUP_SIMS_SKILL], f.is_skill);
  gtk_switch_set_active (GTK_SWITCH (self->controls[SEQUIN_PROPERTY_SIMS_BOUNCE]), f.bounce);
  set_entry (self, SEQUIN_PROPERTY_SIMS_START_POSE, f.start_pose);
  set_entry (self, SEQUIN_PROPERTY_SIMS_END_POSE, f.end_pose);
  set_entry (self, SEQUIN_PROPERTY_SIMS_SKILL_NAME, f.skill);
  set_spin (self, SEQUIN_PROPERTY_SIMS_SKILL_DURATION, f.skill_duration);
}

static void
refresh (SequinPropertiesPanel *self)
{
  const SqClip *clip = current_clip (self);
  const SqFormat *format;
  SqSlFields f;
  guint pose;

  gtk_widget_set_sensitive (self->scroller, clip != NULL);
  if (clip == NULL)
    return;

  format = sequin_document_get_format (self->document);
  self->updating = TRUE;
  if (format != self->format)
    layout_groups (self, format);

  sq_sl_fields_get (clip, &f);
  set_spin (self, SEQUIN_PROPERTY_SL_PRIORITY, f.priority);
  gtk_switch_set_active (GTK_SWITCH (self->controls[SEQUIN_PROPERTY_SL_LOOP]), f.loop);
  set_spin (self, SEQUIN_PROPERTY_SL_LOOP_IN, f.loop_in);
  set_spin (self, SEQUIN_PROPERTY_SL_LOOP_OUT, f.loop_out);
  gtk_widget_set_sensitive (self->controls[SEQUIN_PROPERTY_SL_LOOP_IN], f.loop);
  gtk_widget_set_sensitive (self->controls[SEQUIN_PROPERTY_SL_LOOP_OUT], f.loop);
  set_spin (self, SEQUIN_PROPERTY_SL_EASE_IN, f.ease_in);
  set_spin (self, SEQUIN_PROPERTY_SL_EASE_OUT, f.ease_out);
  pose = f.hand_pose < SQ_SL_N_HAND_POSES ? f.hand_pose : GTK_INVALID_LIST_POSITION;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->controls[SEQUIN_PROPERTY_SL_HAND_POSE]), pose);
  set_entry (self, SEQUIN_PROPERTY_SL_EMOTE, f.emote);
  update_joint (self, clip);
  update_constraints (self, clip);

  set_spin (self, SEQUIN_PROPERTY_DX_TICKS, clip->fps);
  set_entry (self, SEQUIN_PROPERTY_DX_SET_NAME, sq_dx_set_name (clip));
  set_spin (self, SEQUIN_PROPERTY_BVH_FRAME_TIME, sq_clip_frame_time (clip));
  update_sims (self, clip);
  update_file_fields (self, clip, clip->format != NULL && self->other_format);
  self->updating = FALSE;
}

/* ---- Edits ----------------------------------------------------------------- */

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

static void
spin_changed_cb (GtkSpinButton         *spin,
                 SequinPropertiesPanel *self)
{
  SequinProperty property = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (spin), "sequin-property"));
  const SqClip *clip = current_clip (self);
  double value = gtk_spin_button_get_value (spin);
  guint digits = gtk_spin_button_get_digits (spin);
  SqSlFields f;

  if (self->updating || clip == NULL)
    return;
  sq_sl_fields_get (clip, &f);
  switch (property)
    {
    case SEQUIN_PROPERTY_SL_PRIORITY:
      if ((gint32) lround (value) != f.priority)
        apply (self, sq_edit_sl_priority_new ((gint32) lround (value)));
      break;
    case SEQUIN_PROPERTY_SL_LOOP_IN:
      if (!same_shown (value, f.loop_in, digits))
        apply (self, sq_edit_sl_loop_new (f.loop, value, f.loop_out));
      break;
    case SEQUIN_PROPERTY_SL_LOOP_OUT:
      if (!same_shown (value, f.loop_out, digits))
        apply (self, sq_edit_sl_loop_new (f.loop, f.loop_in, value));
      break;
    case SEQUIN_PROPERTY_SL_EASE_IN:
      if (!same_shown (value, f.ease_in, digits))
        apply (self, sq_edit_sl_ease_new (value, f.ease_out));
      break;
    case SEQUIN_PROPERTY_SL_EASE_OUT:
      if (!same_shown (value, f.ease_out, digits))
        apply (self, sq_edit_sl_ease_new (f.ease_in, value));
      break;
    case SEQUIN_PROPERTY_SL_JOINT_PRIORITY:
      if (self->joint >= 0 && (gsize) self->joint < clip->n_joints
          && (gint32) lround (value) != sq_sl_joint_priority (clip, self->joint))
        apply (self, sq_edit_sl_joint_priority_new (clip->joints[self->joint].name, (gint32) lround (value)));
      break;
    case SEQUIN_PROPERTY_DX_TICKS:
      if (!same_shown (value, clip->fps, digits))
        apply (self, sq_edit_set_frame_rate_new (value));
      break;
    case SEQUIN_PROPERTY_BVH_FRAME_TIME:
      if (!same_shown (value, sq_clip_frame_time (clip), digits))
        apply (self, sq_edit_set_frame_time_new (value));
      break;
    case SEQUIN_PROPERTY_SIMS_SKILL_DURATION:
      {
        SqSimsFields sf;

        sq_sims_fields_get (clip, &sf);
        if (!same_shown (value, sf.skill_duration, digits))
          apply (self, sq_edit_sims_skill_duration_new (value));
      }
      break;
    default:
      break;
    }
}

static void
loop_changed_cb (GtkSwitch             *toggle,
                 GParamSpec            *pspec,
                 SequinPropertiesPanel *self)
{
  const SqClip *clip = current_clip (self);
  SqSlFields f;

  if (self->updating || clip == NULL)
    return;
  sq_sl_fields_get (clip, &f);
  if (gtk_switch_get_active (toggle) != f.loop)
    apply (self, sq_edit_sl_loop_new (gtk_switch_get_active (toggle), f.loop_in, f.loop_out));
}

static void
bounce_changed_cb (GtkSwitch             *toggle,
                   GParamSpec            *pspec,
                   SequinPropertiesPanel *self)
{
  const SqClip *clip = current_clip (self);
  SqSimsFields f;

  if (self->updating || clip == NULL)
    return;
  sq_sims_fields_get (clip, &f);
  if (f.is_kfd && gtk_switch_get_active (toggle) != f.bounce)
    apply (self, sq_edit_sims_kfd_bounce_new (gtk_switch_get_active (toggle)));
}

static void
hand_pose_changed_cb (GtkDropDown           *drop_down,
                      GParamSpec            *pspec,
                      SequinPropertiesPanel *self)
{
  const SqClip *clip = current_clip (self);
  guint selected = gtk_drop_down_get_selected (drop_down);
  SqSlFields f;

  if (self->updating || clip == NULL || selected == GTK_INVALID_LIST_POSITION)
    return;
  sq_sl_fields_get (clip, &f);
  if (selected != f.hand_pose)
    apply (self, sq_edit_sl_hand_pose_new (selected));
}

/* An entry's text is applied when Enter is pressed or the focus leaves it */
static void
entry_commit (SequinPropertiesPanel *self,
              GtkWidget             *entry)
{
  SequinProperty property = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (entry), "sequin-property"));
  const SqClip *clip = current_clip (self);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  SqSlFields f;

  if (self->updating || clip == NULL)
    return;
  if (property == SEQUIN_PROPERTY_SL_EMOTE)
    {
      sq_sl_fields_get (clip, &f);
      if (g_strcmp0 (text, f.emote) != 0)
        apply (self, sq_edit_sl_emote_new (text));
    }
  else if (property == SEQUIN_PROPERTY_DX_SET_NAME)
    {
      if (g_strcmp0 (text, sq_dx_set_name (clip)) != 0)
        apply (self, sq_edit_dx_set_name_new (text));
    }
  else
    {
      SqSimsFields sf;
      gboolean end = property == SEQUIN_PROPERTY_SIMS_END_POSE;

      sq_sims_fields_get (clip, &sf);
      if (property == SEQUIN_PROPERTY_SIMS_SKILL_NAME && sf.is_skill && g_strcmp0 (text, sf.skill) != 0)
        apply (self, sq_edit_sims_skill_name_new (text));
      else if ((property == SEQUIN_PROPERTY_SIMS_START_POSE || end) && sf.is_kfd
               && g_strcmp0 (text, end ? sf.end_pose : sf.start_pose) != 0)
        apply (self, sq_edit_sims_kfd_pose_name_new (end, text));
    }
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
delete_constraint_cb (GtkButton             *button,
                      SequinPropertiesPanel *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "sequin-constraint"));

  if (current_clip (self) != NULL)
    apply (self, sq_edit_sl_delete_constraint_new (index));
}

static void
document_changed_cb (SequinPropertiesPanel *self)
{
  /* a refusal is about the clip as it was */
  show_error (self, NULL);
  refresh (self);
}

/* ---- Construction ---------------------------------------------------------- */

static GtkWidget *
add_spin (SequinPropertiesPanel *self,
          GtkWidget             *grid,
          int                    row,
          SequinProperty         property,
          const char            *label,
          const char            *tooltip,
          double                 lower,
          double                 upper,
          double                 step,
          guint                  digits)
{
  GtkWidget *spin = spin_new (lower, upper, step, digits);

  g_object_set_data (G_OBJECT (spin), "sequin-property", GINT_TO_POINTER (property));
  g_signal_connect (spin, "value-changed", G_CALLBACK (spin_changed_cb), self);
  add_row (grid, row, label, tooltip, spin);
  self->controls[property] = spin;
  return spin;
}

static GtkWidget *
add_entry (SequinPropertiesPanel *self,
           GtkWidget             *grid,
           int                    row,
           SequinProperty         property,
           const char            *label,
           const char            *tooltip)
{
  GtkWidget *entry = gtk_entry_new ();
  GtkEventController *focus = gtk_event_controller_focus_new ();

  g_object_set_data (G_OBJECT (entry), "sequin-property", GINT_TO_POINTER (property));
  gtk_editable_set_width_chars (GTK_EDITABLE (entry), 8);
  g_signal_connect (entry, "activate", G_CALLBACK (entry_activate_cb), self);
  g_signal_connect (focus, "leave", G_CALLBACK (entry_leave_cb), self);
  gtk_widget_add_controller (entry, focus);
  add_row (grid, row, label, tooltip, entry);
  self->controls[property] = entry;
  return entry;
}

static GtkWidget *
group_new (const char *title)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);

  if (title != NULL)
    gtk_box_append (GTK_BOX (box), heading_new (title));
  return box;
}

static void
build_sl_body (SequinPropertiesPanel *self)
{
  GtkWidget *grid = grid_new ();
  GtkWidget *pose = NULL;
  GtkWidget *loop;
  GtkWidget *label;
  GtkWidget *frame;
  g_autoptr(GtkStringList) poses = gtk_string_list_new (NULL);
  int row = 0;

  self->sl_body = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);

  add_spin (self, grid, row++, SEQUIN_PROPERTY_SL_PRIORITY, _("_Priority"),
            _("Base priority of the animation, −1 to 6: the higher one wins where two animations move a joint"),
            SQ_SL_MIN_PRIORITY, SQ_SL_MAX_PRIORITY, 1, 0);

  loop = gtk_switch_new ();
  gtk_widget_set_halign (loop, GTK_ALIGN_START);
  gtk_widget_set_valign (loop, GTK_ALIGN_CENTER);
  g_signal_connect (loop, "notify::active", G_CALLBACK (loop_changed_cb), self);
  self->controls[SEQUIN_PROPERTY_SL_LOOP] = loop;
  add_row (grid, row++, _("_Loop"), _("Play the part between loop in and loop out again and again"), loop);
  add_spin (self, grid, row++, SEQUIN_PROPERTY_SL_LOOP_IN, _("Loop _in (s)"),
            _("Where the loop starts, in seconds"), 0, 1e6, 0.1, 3);
  add_spin (self, grid, row++, SEQUIN_PROPERTY_SL_LOOP_OUT, _("Loop o_ut (s)"),
            _("Where the loop ends, in seconds"), 0, 1e6, 0.1, 3);
  add_spin (self, grid, row++, SEQUIN_PROPERTY_SL_EASE_IN, _("_Ease in (s)"),
            _("Time to blend in from the avatar’s pose, in seconds"), 0, 1e6, 0.1, 3);
  add_spin (self, grid, row++, SEQUIN_PROPERTY_SL_EASE_OUT, _("E_ase out (s)"),
            _("Time to blend out back to the avatar’s pose, in seconds"), 0, 1e6, 0.1, 3);

  for (guint i = 0; i < SQ_SL_N_HAND_POSES; i++)
    gtk_string_list_append (poses, sq_sl_hand_pose_name (i));
  pose = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&poses)), NULL);
  g_signal_connect (pose, "notify::selected", G_CALLBACK (hand_pose_changed_cb), self);
  self->controls[SEQUIN_PROPERTY_SL_HAND_POSE] = pose;
  add_row (grid, row++, _("_Hand pose"), _("The shape of the hands while the animation plays"), pose);

  add_entry (self, grid, row++, SEQUIN_PROPERTY_SL_EMOTE, _("E_mote"),
             _("Facial expression played with the animation, blank for none"));
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->controls[SEQUIN_PROPERTY_SL_EMOTE]), _("None"));

  label = gtk_label_new (_("Joint"));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_top (label, 6);
  gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
  self->joint_name = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->joint_name), 0);
  gtk_label_set_wrap (GTK_LABEL (self->joint_name), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->joint_name), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_margin_top (self->joint_name, 6);
  gtk_grid_attach (GTK_GRID (grid), self->joint_name, 1, row++, 1, 1);
  add_spin (self, grid, row++, SEQUIN_PROPERTY_SL_JOINT_PRIORITY, _("_Joint priority"),
            _("Priority of the joint selected in the tree, −1 to 6"),
            SQ_SL_MIN_PRIORITY, SQ_SL_MAX_PRIORITY, 1, 0);

  gtk_box_append (GTK_BOX (self->sl_body), grid);

  /* the constraints, read-only but for deleting */
  label = heading_new (_("Constraints"));
  gtk_widget_set_margin_top (label, 10);
  gtk_box_append (GTK_BOX (self->sl_body), label);
  self->no_constraints = note_new (_("No constraints"));
  gtk_box_append (GTK_BOX (self->sl_body), self->no_constraints);
  self->controls[SEQUIN_PROPERTY_SL_CONSTRAINTS] = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->controls[SEQUIN_PROPERTY_SL_CONSTRAINTS]), GTK_SELECTION_NONE);
  gtk_list_box_set_show_separators (GTK_LIST_BOX (self->controls[SEQUIN_PROPERTY_SL_CONSTRAINTS]), TRUE);
  gtk_widget_add_css_class (self->controls[SEQUIN_PROPERTY_SL_CONSTRAINTS], "constraints");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->controls[SEQUIN_PROPERTY_SL_CONSTRAINTS]),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Constraints"), -1);
  frame = gtk_frame_new (NULL);
  gtk_frame_set_child (GTK_FRAME (frame), self->controls[SEQUIN_PROPERTY_SL_CONSTRAINTS]);
  g_object_bind_property (self->controls[SEQUIN_PROPERTY_SL_CONSTRAINTS], "visible", frame, "visible",
                          G_BINDING_SYNC_CREATE);
  gtk_box_append (GTK_BOX (self->sl_body), frame);
}

/* The Sims: a KFD's bounce and pose names, a CMX skill's name and duration */
static void
build_sims_groups (SequinPropertiesPanel *self,
                   GtkWidget             *content)
{
  GtkWidget *grid = grid_new ();
  GtkWidget *bounce = gtk_switch_new ();

  self->groups[SEQUIN_PROPERTY_GROUP_SIMS_KFD] = group_new (_("SimPose-ium Keyframe Animation"));
  gtk_widget_set_halign (bounce, GTK_ALIGN_START);
  gtk_widget_set_valign (bounce, GTK_ALIGN_CENTER);
  g_signal_connect (bounce, "notify::active", G_CALLBACK (bounce_changed_cb), self);
  self->controls[SEQUIN_PROPERTY_SIMS_BOUNCE] = bounce;
  add_row (grid, 0, _("_Bounce"), _("Play forward, then back: SequenceLength is twice Frames"), bounce);
  add_entry (self, grid, 1, SEQUIN_PROPERTY_SIMS_START_POSE, _("_Start pose"),
             _("The pose the animation starts from, blank for none"));
  add_entry (self, grid, 2, SEQUIN_PROPERTY_SIMS_END_POSE, _("E_nd pose"),
             _("The pose the animation ends on, blank for none"));
  gtk_box_append (GTK_BOX (self->groups[SEQUIN_PROPERTY_GROUP_SIMS_KFD]), grid);
  gtk_box_append (GTK_BOX (content), self->groups[SEQUIN_PROPERTY_GROUP_SIMS_KFD]);

  self->groups[SEQUIN_PROPERTY_GROUP_SIMS_SKILL] = group_new (_("The Sims Skill"));
  grid = grid_new ();
  add_entry (self, grid, 0, SEQUIN_PROPERTY_SIMS_SKILL_NAME, _("S_kill"), _("The skill’s name in the CMX file"));
  add_spin (self, grid, 1, SEQUIN_PROPERTY_SIMS_SKILL_DURATION, _("Du_ration (ms)"),
            _("The skill’s duration in milliseconds, as the CMX file gives it (edited keys write their own)"),
            0, 1e9, 1, 1);
  gtk_box_append (GTK_BOX (self->groups[SEQUIN_PROPERTY_GROUP_SIMS_SKILL]), grid);
  gtk_box_append (GTK_BOX (content), self->groups[SEQUIN_PROPERTY_GROUP_SIMS_SKILL]);
  gtk_widget_set_visible (self->groups[SEQUIN_PROPERTY_GROUP_SIMS_KFD], FALSE);
  gtk_widget_set_visible (self->groups[SEQUIN_PROPERTY_GROUP_SIMS_SKILL], FALSE);
}

static void
sequin_properties_panel_init (SequinPropertiesPanel *self)
{
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  GtkWidget *grid;
  GtkWidget *expander;

  self->joint = -1;
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  gtk_widget_set_margin_top (content, 12);
  gtk_widget_set_margin_bottom (content, 12);
  gtk_widget_set_margin_start (content, 12);
  gtk_widget_set_margin_end (content, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), content);

  self->error_label = sequin_refusal_label_new ();
  gtk_box_append (GTK_BOX (content), self->error_label);

  build_sl_body (self);

  /* Second Life .anim documents */
  self->groups[SEQUIN_PROPERTY_GROUP_SL] = group_new (_("Second Life Animation"));
  gtk_box_append (GTK_BOX (content), self->groups[SEQUIN_PROPERTY_GROUP_SL]);

  /* DirectX .x */
  self->groups[SEQUIN_PROPERTY_GROUP_DX] = group_new (_("DirectX Animation"));
  grid = grid_new ();
  add_spin (self, grid, 0, SEQUIN_PROPERTY_DX_TICKS, _("_Ticks per second"),
            _("AnimTicksPerSecond: the key times count in these ticks"), 1, 100000, 1, 0);
  add_entry (self, grid, 1, SEQUIN_PROPERTY_DX_SET_NAME, _("A_nimation set"),
             _("The name of the AnimationSet, blank for none"));
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->controls[SEQUIN_PROPERTY_DX_SET_NAME]), _("No name"));
  gtk_box_append (GTK_BOX (self->groups[SEQUIN_PROPERTY_GROUP_DX]), grid);
  gtk_box_append (GTK_BOX (content), self->groups[SEQUIN_PROPERTY_GROUP_DX]);

  /* BVH */
  self->groups[SEQUIN_PROPERTY_GROUP_BVH] = group_new (_("BVH Motion"));
  grid = grid_new ();
  add_spin (self, grid, 0, SEQUIN_PROPERTY_BVH_FRAME_TIME, _("_Frame time (s)"),
            _("Seconds from one frame to the next"), 0.000001, 100, 0.001, 6);
  gtk_box_append (GTK_BOX (self->groups[SEQUIN_PROPERTY_GROUP_BVH]), grid);
  gtk_box_append (GTK_BOX (content), self->groups[SEQUIN_PROPERTY_GROUP_BVH]);

  build_sims_groups (self, content);

  self->no_fields = note_new (_("This format has no fields beyond the header."));
  gtk_box_append (GTK_BOX (content), self->no_fields);
  self->file_fields = group_new (NULL);
  gtk_box_append (GTK_BOX (content), self->file_fields);

  /* any other clip: its Second Life fields, for saving as .anim */
  self->sl_other_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_margin_top (self->sl_other_box, 8);
  gtk_box_append (GTK_BOX (self->sl_other_box),
                  note_new (_("Used when the animation is saved as Second Life .anim.")));
  gtk_box_append (GTK_BOX (self->sl_other_box), self->sl_body);
  expander = gtk_expander_new_with_mnemonic (_("Secon_d Life Fields"));
  gtk_widget_add_css_class (gtk_expander_get_label_widget (GTK_EXPANDER (expander)), "heading");
  gtk_expander_set_child (GTK_EXPANDER (expander), self->sl_other_box);
  gtk_widget_set_tooltip_text (expander, _("The Second Life fields this animation would be saved with"));
  self->groups[SEQUIN_PROPERTY_GROUP_SL_OTHER] = expander;
  gtk_box_append (GTK_BOX (content), expander);

  gtk_widget_set_visible (self->groups[SEQUIN_PROPERTY_GROUP_SL], FALSE);
  gtk_widget_set_visible (self->groups[SEQUIN_PROPERTY_GROUP_DX], FALSE);
  gtk_widget_set_visible (self->groups[SEQUIN_PROPERTY_GROUP_BVH], FALSE);
  gtk_widget_set_visible (self->no_fields, FALSE);
  gtk_widget_set_visible (self->file_fields, FALSE);
  gtk_widget_set_sensitive (self->scroller, FALSE);
}

static void
sequin_properties_panel_dispose (GObject *object)
{
  SequinPropertiesPanel *self = SEQUIN_PROPERTIES_PANEL (object);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);

  G_OBJECT_CLASS (sequin_properties_panel_parent_class)->dispose (object);
}

static void
sequin_properties_panel_finalize (GObject *object)
{
  SequinPropertiesPanel *self = SEQUIN_PROPERTIES_PANEL (object);

  g_free (self->error);

  G_OBJECT_CLASS (sequin_properties_panel_parent_class)->finalize (object);
}

static void
sequin_properties_panel_class_init (SequinPropertiesPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sequin_properties_panel_dispose;
  object_class->finalize = sequin_properties_panel_finalize;

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
      /* the .anim fields open by themselves only where they are the file's */
      gtk_expander_set_expanded (GTK_EXPANDER (self->groups[SEQUIN_PROPERTY_GROUP_SL_OTHER]), FALSE);
    }
  refresh (self);
}

void
sequin_properties_panel_set_joint (SequinPropertiesPanel *self,
                                   gssize                 joint)
{
  const SqClip *clip;

  g_return_if_fail (SEQUIN_IS_PROPERTIES_PANEL (self));

  self->joint = joint;
  if ((clip = current_clip (self)) == NULL)
    return;
  self->updating = TRUE;
  update_joint (self, clip);
  self->updating = FALSE;
}

GtkWidget *
sequin_properties_panel_get_control (SequinPropertiesPanel *self,
                                     SequinProperty         property)
{
  g_return_val_if_fail (SEQUIN_IS_PROPERTIES_PANEL (self), NULL);
  g_return_val_if_fail (property < SEQUIN_N_PROPERTIES, NULL);
  return self->controls[property];
}

gboolean
sequin_properties_panel_group_visible (SequinPropertiesPanel *self,
                                       SequinPropertyGroup    group)
{
  g_return_val_if_fail (SEQUIN_IS_PROPERTIES_PANEL (self), FALSE);
  g_return_val_if_fail (group < SEQUIN_N_PROPERTY_GROUPS, FALSE);
  return gtk_widget_get_visible (self->groups[group]);
}

const char *
sequin_properties_panel_get_error (SequinPropertiesPanel *self)
{
  g_return_val_if_fail (SEQUIN_IS_PROPERTIES_PANEL (self), NULL);
  return self->error;
}
