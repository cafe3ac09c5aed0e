/* sequin-layer-strip.c: which animation wins each joint at the playhead
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sequin-layer-strip"

#include "config.h"

#include <glib/gi18n.h>

#include "sequin-layer-strip.h"
#include "sequin-utils.h"

struct _SequinLayerStrip
{
  GtkWidget    parent_instance;

  GtkWidget   *box;       /* heading and cells */
  GtkLabel    *heading;
  GtkFlowBox  *cells;
  GPtrArray   *texts;     /* char *: each cell's text */
  GPtrArray   *reasons;   /* char *: each cell's reason */
};

G_DEFINE_FINAL_TYPE (SequinLayerStrip, sequin_layer_strip, GTK_TYPE_WIDGET)

/* a colour per animation, readable on light and dark themes */
static const char * const colours[] = { "#3584e4", "#e66100", "#2ec27e", "#c061cb", "#c64600", "#986a44" };

static void
sequin_layer_strip_dispose (GObject *object)
{
  SequinLayerStrip *self = SEQUIN_LAYER_STRIP (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->texts, g_ptr_array_unref);
  g_clear_pointer (&self->reasons, g_ptr_array_unref);
  G_OBJECT_CLASS (sequin_layer_strip_parent_class)->dispose (object);
}

static void
sequin_layer_strip_class_init (SequinLayerStripClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sequin_layer_strip_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sequin_layer_strip_init (SequinLayerStrip *self)
{
  GtkWidget *scroller;

  self->texts = g_ptr_array_new_with_free_func (g_free);
  self->reasons = g_ptr_array_new_with_free_func (g_free);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  self->heading = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->heading, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->heading), "heading");
  gtk_widget_set_margin_start (GTK_WIDGET (self->heading), 6);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->heading));
  self->cells = GTK_FLOW_BOX (gtk_flow_box_new ());
  gtk_flow_box_set_selection_mode (self->cells, GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (self->cells, 12);
  gtk_flow_box_set_column_spacing (self->cells, 12);
  gtk_flow_box_set_homogeneous (self->cells, TRUE);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 110);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->cells));
  gtk_box_append (GTK_BOX (self->box), scroller);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Animation shown on each joint"), -1);
  sequin_set_tooltip (GTK_WIDGET (self), NULL);
}

GtkWidget *
sequin_layer_strip_new (void)
{
  return g_object_new (SEQUIN_TYPE_LAYER_STRIP, NULL);
}

static const char *
winner_name (const SqLayers     *layers,
             const SqLayerJoint *j)
{
  return j->winner >= 0 ? sq_layers_get_name (layers, j->winner) : _("none");
}

/* A cell's text: the joint and the animation shown on it */
static char *
cell_text (const SqLayers     *layers,
           const SqLayerJoint *j)
{
  /* TRANSLATORS: a joint and the animation shown on it, in the Play Over strip */
  return g_strdup_printf (_("%s: %s"), j->joint, winner_name (layers, j));
}

/* A cell: a coloured mark, the joint, the winner */
static GtkWidget *
new_cell (const SqLayers     *layers,
          const SqLayerJoint *j,
          const char         *reason,
          const char         *text)
{
  const char *winner = winner_name (layers, j);
  g_autofree char *name = g_markup_escape_text (j->joint, -1);
  g_autofree char *who = g_markup_escape_text (winner, -1);
  g_autofree char *markup = NULL;
  GtkWidget *label;

  markup = g_strdup_printf ("<span foreground=\"%s\">■</span> %s <b>%s</b>",
                            j->winner >= 0 ? colours[j->winner % G_N_ELEMENTS (colours)] : "#888888", name, who);
  label = gtk_label_new (NULL);
  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  sequin_set_tooltip (label, reason);
  gtk_accessible_update_property (GTK_ACCESSIBLE (label), GTK_ACCESSIBLE_PROPERTY_LABEL, text,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, reason, -1);
  return label;
}

void
sequin_layer_strip_update (SequinLayerStrip *self,
                           const SqLayers   *layers,
                           double            time)
{
  g_autoptr(GArray) joints = NULL;
  g_autofree char *heading = NULL;
  GtkWidget *child;
  gboolean same = TRUE;

  g_return_if_fail (SEQUIN_IS_LAYER_STRIP (self));
  joints = layers != NULL ? sq_layers_resolve (layers, time) : g_array_new (FALSE, TRUE, sizeof (SqLayerJoint));
  /* TRANSLATORS: the heading of the Play Over strip; %.3f is the playhead's time */
  heading = g_strdup_printf (_("Shown on each joint at %.3f s"), time);
  gtk_label_set_text (self->heading, heading);
  /* the cells are made again only when a winner or a reason changes */
  {
    g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(GPtrArray) reasons = g_ptr_array_new_with_free_func (g_free);

    for (guint i = 0; i < joints->len; i++)
      {
        const SqLayerJoint *j = &g_array_index (joints, SqLayerJoint, i);

        g_ptr_array_add (texts, cell_text (layers, j));
        g_ptr_array_add (reasons, sq_layers_explain (layers, j));
      }
    same = texts->len == self->texts->len;
    for (guint i = 0; same && i < texts->len; i++)
      same = g_str_equal (texts->pdata[i], self->texts->pdata[i])
             && g_str_equal (reasons->pdata[i], self->reasons->pdata[i]);
    if (same)
      return;
    while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->cells))) != NULL)
      gtk_flow_box_remove (self->cells, child);
    g_ptr_array_set_size (self->texts, 0);
    g_ptr_array_set_size (self->reasons, 0);
    for (guint i = 0; i < joints->len; i++)
      {
        GtkWidget *cell = new_cell (layers, &g_array_index (joints, SqLayerJoint, i), reasons->pdata[i],
                                    texts->pdata[i]);

        gtk_flow_box_append (self->cells, cell);
        g_ptr_array_add (self->texts, g_strdup (texts->pdata[i]));
        g_ptr_array_add (self->reasons, g_strdup (reasons->pdata[i]));
      }
  }
}

const char *
sequin_layer_strip_get_cell (SequinLayerStrip *self,
                             guint             index,
                             const char      **reason)
{
  g_return_val_if_fail (SEQUIN_IS_LAYER_STRIP (self), NULL);
  if (index >= self->texts->len)
    return NULL;
  if (reason != NULL)
    *reason = self->reasons->pdata[index];
  return self->texts->pdata[index];
}
