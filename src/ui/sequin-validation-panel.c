/* sequin-validation-panel.c: what a target world would say about the clip
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A chooser of target worlds (sq_validate_targets()), a summary line and the
 * findings of sq_validate(): the clip's own findings a row each, then one
 * row per joint with findings (its worst severity and their counts) that
 * expands into them. Activating a finding emits ::finding-activated with
 * the joint, channel and key it names, a joint's row with the joint; the
 * window selects them. The panel validates again after every change of the
 * document while it is shown (once, from an idle, however many changes came).
 * Small clips are validated on the main thread (the slowest corpus file,
 * 53,000 BVH keys, takes 22 ms for "sl"); a clip of more than
 * SEQUIN_VALIDATION_THREAD_KEYS keys is copied (26 ms for a million keys)
 * and validated in a worker thread (a million keys: 156 ms and more for
 * "sl"), so the window does not wait for it. A joint's findings get row
 * objects when it is expanded. For a clip that will be saved in a
 * quantised format (the open file's, or the target world's, as .anim for
 * Second Life), a list below says per joint how far the encoding moves the
 * motion (the world's add_save_loss), so a joint that will jitter shows
 * before the upload. The layout is sequin-validation-panel.ui.
 */
#define G_LOG_DOMAIN "sequin-validation-panel"

#include "config.h"

#include <glib/gi18n.h>

#include "sequin-validation-panel.h"
#include "sequin-utils.h"

/* ---- Findings as rows: one per joint, expanding into its findings ---------- */

#define SEQUIN_TYPE_FINDING_ITEM (sequin_finding_item_get_type ())
G_DECLARE_FINAL_TYPE (SequinFindingItem, sequin_finding_item, SEQUIN, FINDING_ITEM, GObject)

/* A finding (index ≥ 0), or the group of a joint's findings (index −1) */
struct _SequinFindingItem
{
  GObject    parent_instance;
  GPtrArray *findings;
  gssize     index;
  gssize     joint;       /* a group: its joint */
  GArray    *members;     /* a group: guint indices into findings */
};

G_DEFINE_FINAL_TYPE (SequinFindingItem, sequin_finding_item, G_TYPE_OBJECT)

static void
sequin_finding_item_finalize (GObject *object)
{
  SequinFindingItem *self = SEQUIN_FINDING_ITEM (object);

  g_clear_pointer (&self->findings, g_ptr_array_unref);
  g_clear_pointer (&self->members, g_array_unref);
  G_OBJECT_CLASS (sequin_finding_item_parent_class)->finalize (object);
}

static void
sequin_finding_item_class_init (SequinFindingItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sequin_finding_item_finalize;
}

static void
sequin_finding_item_init (SequinFindingItem *self)
{
}

static SequinFindingItem *
finding_item_new (GPtrArray *findings,
                  gssize     index,
                  gssize     joint)
{
  SequinFindingItem *item = g_object_new (SEQUIN_TYPE_FINDING_ITEM, NULL);

  item->findings = g_ptr_array_ref (findings);
  item->index = index;
  item->joint = joint;
  if (index < 0)
    item->members = g_array_new (FALSE, FALSE, sizeof (guint));
  return item;
}

static const SqFinding *
finding_item_get (SequinFindingItem *self)
{
  return g_ptr_array_index (self->findings, self->index >= 0 ? (guint) self->index
                                                              : g_array_index (self->members, guint, 0));
}

/* The worst severity of a group (or of the finding) */
static SqSeverity
finding_item_severity (SequinFindingItem *self)
{
  SqSeverity worst = SQ_SEVERITY_INFO;

  if (self->index >= 0)
    return finding_item_get (self)->severity;
  for (guint i = 0; i < self->members->len; i++)
    {
      const SqFinding *f = g_ptr_array_index (self->findings, g_array_index (self->members, guint, i));
      worst = MAX (worst, f->severity);
    }
  return worst;
}

/* The top rows of `findings`: the clip's own findings (no joint), each a
 * row, then a group per joint, in the order the joints first appear (a
 * finding of each joint in 137 would otherwise be 137 rows) */
static void
fill_groups (GListStore *store,
             GPtrArray  *findings)
{
  g_autoptr(GHashTable) groups = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) joint_rows = g_ptr_array_new ();

  for (guint i = 0; findings != NULL && i < findings->len; i++)
    {
      const SqFinding *f = g_ptr_array_index (findings, i);
      SequinFindingItem *group;

      if (f->joint < 0)
        {
          g_ptr_array_add (rows, finding_item_new (findings, i, -1));
          continue;
        }
      group = g_hash_table_lookup (groups, GSIZE_TO_POINTER ((gsize) f->joint + 1));
      if (group == NULL)
        {
          group = finding_item_new (findings, -1, f->joint);
          g_hash_table_insert (groups, GSIZE_TO_POINTER ((gsize) f->joint + 1), group);
          g_ptr_array_add (joint_rows, group);
        }
      g_array_append_val (group->members, i);
    }
  for (guint i = 0; i < joint_rows->len; i++)
    g_ptr_array_add (rows, joint_rows->pdata[i]);
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)), rows->pdata, rows->len);
}

/* A group's findings, made when it is expanded */
static GListModel *
create_group_children (gpointer item,
                       gpointer user_data)
{
  SequinFindingItem *group = item;
  GListStore *children;

  if (group->index >= 0)
    return NULL;
  children = g_list_store_new (SEQUIN_TYPE_FINDING_ITEM);
  for (guint i = 0; i < group->members->len; i++)
    {
      g_autoptr(SequinFindingItem) child = finding_item_new (group->findings,
                                                             g_array_index (group->members, guint, i),
                                                             group->joint);
      g_list_store_append (children, child);
    }
  return G_LIST_MODEL (children);
}

/* ---- The panel ------------------------------------------------------------- */

struct _SequinValidationPanel
{
  GtkWidget          parent_instance;

  GtkWidget         *box;
  GtkDropDown       *target_chooser;
  GtkWidget         *summary_icon;
  GtkLabel          *summary;
  GtkListView       *list;
  GtkWidget         *loss_box;
  GtkLabel          *loss_heading;
  GtkLabel          *loss_summary;
  GtkListBox        *loss_list;
  GListStore        *groups;      /* SequinFindingItem: the top rows */
  GtkTreeListModel  *rows;        /* the groups with their findings */
  GPtrArray         *findings;    /* sq_validate's, as shown */
  GPtrArray         *loss;        /* the save's loss notes (SqFinding*), as shown, or NULL */

  SequinDocument    *document;
  const SqClip      *shown_clip;       /* the findings are of this clip… */
  guint64            shown_generation; /* …as it was at this generation */
  char              *shown_target;
  GCancellable      *running;          /* a worker validates now */
  guint              idle_id;
  char              *summary_text;
};

G_DEFINE_FINAL_TYPE (SequinValidationPanel, sequin_validation_panel, GTK_TYPE_WIDGET)

enum {
  FINDING_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *
target_display_name (const char *id)
{
  const SqWorldHome *world = sq_world_by_id (id);

  return world != NULL ? g_dgettext (GETTEXT_PACKAGE, world->name) : id;
}

/* The world of the format (Second Life for .anim and BVH), else the first */
const char *
sequin_validation_default_target (const SqFormat *format)
{
  const SqWorldHome *world = sq_format_get_world (format);

  return world != NULL ? world->id : sq_validate_targets ()[0];
}

/* The world whose save loss the panel shows for `clip` validated for
 * `target`: the target's, or that of the clip's own quantised format;
 * NULL for none */
static const SqWorldHome *
loss_world (const SqClip *clip,
            const char   *target)
{
  const SqWorldHome *world = sq_world_by_id (target);

  if (world != NULL && world->add_save_loss != NULL)
    return world;
  world = clip != NULL ? sq_format_get_world (clip->format) : NULL;
  if (world != NULL && world->add_save_loss != NULL && (clip->format->flags & SQ_FORMAT_QUANTISED))
    return world;
  return NULL;
}

static const SqClip *
current_clip (SequinValidationPanel *self)
{
  return self->document != NULL ? sequin_document_get_clip (self->document) : NULL;
}

/* Takes `findings` (may be NULL) */
static void
set_findings (SequinValidationPanel *self,
              GPtrArray             *findings)
{
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  self->findings = findings;
  fill_groups (self->groups, findings);
}

static void
set_summary (SequinValidationPanel *self,
             const char            *text,
             const char            *icon)
{
  g_free (self->summary_text);
  self->summary_text = g_strdup (text);
  gtk_label_set_text (self->summary, text != NULL ? text : "");
  gtk_image_set_from_icon_name (GTK_IMAGE (self->summary_icon), icon);
  gtk_widget_set_visible (self->summary_icon, icon != NULL);
}

static void
show_findings (SequinValidationPanel *self,
               GPtrArray             *findings,
               const char            *target)
{
  guint n[3] = { 0, 0, 0 };
  g_autoptr(GString) text = g_string_new (NULL);
  const char *icon;

  for (guint i = 0; findings != NULL && i < findings->len; i++)
    {
      const SqFinding *f = g_ptr_array_index (findings, i);

      n[MIN ((guint) f->severity, 2u)]++;
    }
  if (findings == NULL || findings->len == 0)
    {
      /* TRANSLATORS: %s is a world, like “Second Life” */
      g_string_printf (text, _("No problems for %s"), target_display_name (target));
      icon = "emblem-ok-symbolic";
    }
  else
    {
      if (n[SQ_SEVERITY_ERROR] > 0)
        g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u error", "%u errors", n[SQ_SEVERITY_ERROR]),
                                n[SQ_SEVERITY_ERROR]);
      if (n[SQ_SEVERITY_WARNING] > 0)
        {
          if (text->len > 0)
            g_string_append (text, _(", "));
          g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u warning", "%u warnings",
                                                     n[SQ_SEVERITY_WARNING]), n[SQ_SEVERITY_WARNING]);
        }
      if (n[SQ_SEVERITY_INFO] > 0)
        {
          if (text->len > 0)
            g_string_append (text, _(", "));
          g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u note", "%u notes", n[SQ_SEVERITY_INFO]),
                                  n[SQ_SEVERITY_INFO]);
        }
      icon = n[SQ_SEVERITY_ERROR] > 0 ? "dialog-error-symbolic"
             : n[SQ_SEVERITY_WARNING] > 0 ? "dialog-warning-symbolic" : "dialog-information-symbolic";
    }
  set_summary (self, text->str, icon);
  set_findings (self, findings);
}

static void
loss_row_activated_cb (GtkListBox            *list,
                       GtkListBoxRow         *row,
                       SequinValidationPanel *self)
{
  gssize joint = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (row), "sequin-joint")) - 1;

  if (joint >= 0)
    g_signal_emit (self, signals[FINDING_ACTIVATED], 0, (gint64) joint, (int) SQ_CHANNEL_ROTATION, (gint64) -1);
}

/* Takes `loss` (may be NULL: the section hides), headed `title` (N_): its
 * note on the whole clip (no joint) as the summary, a row per joint */
static void
show_loss (SequinValidationPanel *self,
           GPtrArray             *loss,
           const char            *title)
{
  GtkWidget *child;

  gtk_label_set_text (self->loss_heading, title != NULL ? g_dgettext (GETTEXT_PACKAGE, title) : "");
  g_clear_pointer (&self->loss, g_ptr_array_unref);
  self->loss = loss;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->loss_list))) != NULL)
    gtk_list_box_remove (self->loss_list, child);
  gtk_label_set_text (self->loss_summary, "");
  for (guint i = 0; loss != NULL && i < loss->len; i++)
    {
      const SqFinding *f = g_ptr_array_index (loss, i);
      GtkWidget *row, *label;

      if (f->joint < 0)
        {
          gtk_label_set_text (self->loss_summary, f->message);
          continue;
        }
      label = gtk_label_new (f->message);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (label, "caption");
      gtk_widget_set_margin_top (label, 4);
      gtk_widget_set_margin_bottom (label, 4);
      gtk_widget_set_margin_start (label, 6);
      gtk_widget_set_margin_end (label, 6);
      row = gtk_list_box_row_new ();
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      g_object_set_data (G_OBJECT (row), "sequin-joint", GSIZE_TO_POINTER ((gsize) f->joint + 1));
      /* the row is read as its text */
      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, f->message, -1);
      gtk_list_box_append (self->loss_list, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->loss_list), gtk_widget_get_first_child (GTK_WIDGET (self->loss_list)) != NULL);
  gtk_widget_set_visible (self->loss_box, loss != NULL);
}

/* What a run gives: the findings, and the save's loss notes (NULL when
 * the panel shows none) */
typedef struct
{
  GPtrArray  *findings;
  GPtrArray  *loss;
  const char *loss_title;   /* untranslated */
} Result;

static void
result_free (Result *result)
{
  g_clear_pointer (&result->findings, g_ptr_array_unref);
  g_clear_pointer (&result->loss, g_ptr_array_unref);
  g_free (result);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Result, result_free)

static Result *
validate (const SqClip *clip,
          const char   *target,
          GError      **error)
{
  g_autoptr(Result) result = g_new0 (Result, 1);
  const SqWorldHome *world = loss_world (clip, target);

  if ((result->findings = sq_validate (clip, target, error)) == NULL)
    return NULL;
  if (world != NULL)
    {
      result->loss = sq_findings_new ();
      result->loss_title = world->save_loss_title;
      world->add_save_loss (clip, result->loss);
    }
  return g_steal_pointer (&result);
}

static void
validate_thread (GTask        *task,
                 gpointer      source,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  SqClip *copy = task_data;
  const char *target = g_object_get_data (G_OBJECT (task), "sequin-target");
  GError *error = NULL;
  Result *result = validate (copy, target, &error);

  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) result_free);
}

static void
validate_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  SequinValidationPanel *self = SEQUIN_VALIDATION_PANEL (object);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  const char *target = g_object_get_data (G_OBJECT (result), "sequin-target");
  g_autoptr(GError) error = NULL;
  g_autoptr(Result) shown = g_task_propagate_pointer (G_TASK (result), &error);

  /* a newer run, or none wanted any more */
  if (g_cancellable_is_cancelled (cancellable) || cancellable != self->running)
    return;
  g_clear_object (&self->running);
  if (shown == NULL)
    {
      set_summary (self, error->message, "dialog-error-symbolic");
      set_findings (self, NULL);
      show_loss (self, NULL, NULL);
      return;
    }
  show_findings (self, g_steal_pointer (&shown->findings), target);
  show_loss (self, g_steal_pointer (&shown->loss), shown->loss_title);
}

static const char *
chosen_target (SequinValidationPanel *self)
{
  const char * const *targets = sq_validate_targets ();
  guint selected = gtk_drop_down_get_selected (self->target_chooser);

  if (selected == GTK_INVALID_LIST_POSITION || selected >= g_strv_length ((char **) targets))
    return targets[0];
  return targets[selected];
}

static void
run (SequinValidationPanel *self)
{
  const SqClip *clip = current_clip (self);
  const char *target = chosen_target (self);
  g_autoptr(GError) error = NULL;
  g_autoptr(Result) shown = NULL;

  if (clip == NULL)
    {
      if (self->running != NULL)
        g_cancellable_cancel (self->running);
      g_clear_object (&self->running);
      self->shown_clip = NULL;
      set_summary (self, NULL, NULL);
      set_findings (self, NULL);
      show_loss (self, NULL, NULL);
      return;
    }
  if (self->running == NULL && self->shown_clip == clip && self->shown_generation == clip->generation
      && g_strcmp0 (self->shown_target, target) == 0)
    return;

  if (self->running != NULL)
    g_cancellable_cancel (self->running);
  g_clear_object (&self->running);
  self->shown_clip = clip;
  self->shown_generation = clip->generation;
  g_free (self->shown_target);
  self->shown_target = g_strdup (target);

  if (sq_clip_count_keys (clip) > SEQUIN_VALIDATION_THREAD_KEYS)
    {
      g_autoptr(GTask) task = NULL;

      self->running = g_cancellable_new ();
      task = g_task_new (self, self->running, validate_done_cb, NULL);
      g_task_set_source_tag (task, run);
      g_object_set_data_full (G_OBJECT (task), "sequin-target", g_strdup (target), g_free);
      g_task_set_task_data (task, sq_clip_copy (clip), (GDestroyNotify) sq_clip_free);
      set_summary (self, _("Checking…"), NULL);
      set_findings (self, NULL);
      show_loss (self, NULL, NULL);
      g_task_run_in_thread (task, validate_thread);
      return;
    }

  if ((shown = validate (clip, target, &error)) == NULL)
    {
      set_summary (self, error->message, "dialog-error-symbolic");
      set_findings (self, NULL);
      show_loss (self, NULL, NULL);
      return;
    }
  show_findings (self, g_steal_pointer (&shown->findings), target);
  show_loss (self, g_steal_pointer (&shown->loss), shown->loss_title);
}

static gboolean
run_idle (gpointer data)
{
  SequinValidationPanel *self = data;

  self->idle_id = 0;
  run (self);
  return G_SOURCE_REMOVE;
}

/* Validates soon if the panel is shown; otherwise when it is */
static void
schedule (SequinValidationPanel *self)
{
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) || self->idle_id != 0)
    return;
  self->idle_id = g_idle_add (run_idle, self);
}

static void
target_changed_cb (SequinValidationPanel *self)
{
  schedule (self);
}

/* ---- Rows ------------------------------------------------------------------ */

static void
row_setup_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *icon = gtk_image_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_widget_set_margin_top (icon, 2);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), label);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  gtk_list_item_set_child (list_item, expander);
}

static const char *
severity_icon (SqSeverity   severity,
               const char **name)
{
  switch (severity)
    {
    case SQ_SEVERITY_ERROR:
      /* TRANSLATORS: the severity of a validation finding */
      *name = _("Error");
      return "dialog-error-symbolic";
    case SQ_SEVERITY_WARNING:
      *name = _("Warning");
      return "dialog-warning-symbolic";
    case SQ_SEVERITY_INFO:
    default:
      *name = _("Note");
      return "dialog-information-symbolic";
    }
}

/* "mPelvis: 2 errors, 1 warning" */
static char *
group_text (SequinValidationPanel *self,
            SequinFindingItem     *group)
{
  const SqClip *clip = self->document != NULL ? sequin_document_get_clip (self->document) : NULL;
  guint n[3] = { 0, 0, 0 };
  g_autoptr(GString) text = g_string_new (NULL);
  const char *name = clip != NULL && group->joint >= 0 && (gsize) group->joint < clip->n_joints
                     ? clip->joints[group->joint].name : "?";

  for (guint i = 0; i < group->members->len; i++)
    n[MIN ((guint) ((const SqFinding *) g_ptr_array_index (group->findings,
                                                             g_array_index (group->members, guint, i)))->severity,
           2u)]++;
  g_string_append_printf (text, "%s: ", name[0] != '\0' ? name : _("(no name)"));
  if (n[SQ_SEVERITY_ERROR] > 0)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u error", "%u errors", n[SQ_SEVERITY_ERROR]),
                            n[SQ_SEVERITY_ERROR]);
  if (n[SQ_SEVERITY_WARNING] > 0)
    {
      if (n[SQ_SEVERITY_ERROR] > 0)
        g_string_append (text, _(", "));
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u warning", "%u warnings",
                                                 n[SQ_SEVERITY_WARNING]), n[SQ_SEVERITY_WARNING]);
    }
  if (n[SQ_SEVERITY_INFO] > 0)
    {
      if (n[SQ_SEVERITY_ERROR] + n[SQ_SEVERITY_WARNING] > 0)
        g_string_append (text, _(", "));
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u note", "%u notes", n[SQ_SEVERITY_INFO]),
                              n[SQ_SEVERITY_INFO]);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
row_bind_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             SequinValidationPanel    *self)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *box = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  GtkWidget *icon = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_next_sibling (icon);
  g_autoptr(SequinFindingItem) item = gtk_tree_list_row_get_item (row);
  const char *severity;
  const char *icon_name = severity_icon (finding_item_severity (item), &severity);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  gtk_image_set_from_icon_name (GTK_IMAGE (icon), icon_name);
  sequin_set_tooltip (icon, severity);
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL, severity, -1);
  gtk_widget_remove_css_class (icon, "error");
  gtk_widget_remove_css_class (icon, "warning");
  if (finding_item_severity (item) == SQ_SEVERITY_ERROR)
    gtk_widget_add_css_class (icon, "error");
  else if (finding_item_severity (item) == SQ_SEVERITY_WARNING)
    gtk_widget_add_css_class (icon, "warning");
  if (item->index >= 0)
    {
      gtk_label_set_text (GTK_LABEL (label), finding_item_get (item)->message);
      gtk_widget_remove_css_class (label, "heading");
    }
  else
    {
      g_autofree char *text = group_text (self, item);

      gtk_label_set_text (GTK_LABEL (label), text);
      gtk_widget_add_css_class (label, "heading");
    }
}

static void
row_unbind_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item)
{
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item)), NULL);
}

/* A finding: its joint, key or clip; a joint's group: the joint */
static void
list_activate_cb (GtkListView           *list,
                  guint                  position,
                  SequinValidationPanel *self)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->rows), position);
  g_autoptr(SequinFindingItem) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

  if (item == NULL)
    return;
  if (item->index >= 0)
    {
      sequin_validation_panel_activate (self, item->index);
      return;
    }
  gtk_selection_model_select_item (gtk_list_view_get_model (self->list), position, TRUE);
  g_signal_emit (self, signals[FINDING_ACTIVATED], 0, (gint64) item->joint, (int) SQ_CHANNEL_ROTATION, (gint64) -1);
}

/* ---- GObject --------------------------------------------------------------- */

static void
sequin_validation_panel_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (sequin_validation_panel_parent_class)->map (widget);
  schedule (SEQUIN_VALIDATION_PANEL (widget));
}

static void
sequin_validation_panel_dispose (GObject *object)
{
  SequinValidationPanel *self = SEQUIN_VALIDATION_PANEL (object);

  if (self->running != NULL)
    g_cancellable_cancel (self->running);
  g_clear_object (&self->running);
  g_clear_handle_id (&self->idle_id, g_source_remove);
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  gtk_widget_dispose_template (GTK_WIDGET (self), SEQUIN_TYPE_VALIDATION_PANEL);
  self->box = NULL;
  g_clear_object (&self->rows);
  g_clear_object (&self->groups);
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  g_clear_pointer (&self->loss, g_ptr_array_unref);

  G_OBJECT_CLASS (sequin_validation_panel_parent_class)->dispose (object);
}

static void
sequin_validation_panel_finalize (GObject *object)
{
  SequinValidationPanel *self = SEQUIN_VALIDATION_PANEL (object);

  g_free (self->shown_target);
  g_free (self->summary_text);

  G_OBJECT_CLASS (sequin_validation_panel_parent_class)->finalize (object);
}

static void
sequin_validation_panel_class_init (SequinValidationPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sequin_validation_panel_dispose;
  object_class->finalize = sequin_validation_panel_finalize;
  widget_class->map = sequin_validation_panel_map;

  /* a finding was activated: the joint (or -1), the channel, the key (or -1) */
  signals[FINDING_ACTIVATED] =
    g_signal_new ("finding-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT64, G_TYPE_INT, G_TYPE_INT64);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sequin/Sequin/sequin-validation-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SequinValidationPanel, box);
  gtk_widget_class_bind_template_child (widget_class, SequinValidationPanel, target_chooser);
  gtk_widget_class_bind_template_child (widget_class, SequinValidationPanel, summary_icon);
  gtk_widget_class_bind_template_child (widget_class, SequinValidationPanel, summary);
  gtk_widget_class_bind_template_child (widget_class, SequinValidationPanel, list);
  gtk_widget_class_bind_template_child (widget_class, SequinValidationPanel, loss_box);
  gtk_widget_class_bind_template_child (widget_class, SequinValidationPanel, loss_heading);
  gtk_widget_class_bind_template_child (widget_class, SequinValidationPanel, loss_summary);
  gtk_widget_class_bind_template_child (widget_class, SequinValidationPanel, loss_list);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_set_css_name (widget_class, "validationpanel");
}

static void
sequin_validation_panel_init (SequinValidationPanel *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  const char * const *targets = sq_validate_targets ();
  GtkSingleSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));

  /* the worlds by name, in the order of their ids */
  for (guint i = 0; targets[i] != NULL; i++)
    gtk_string_list_append (names, target_display_name (targets[i]));
  gtk_drop_down_set_model (self->target_chooser, G_LIST_MODEL (names));
  g_signal_connect_swapped (self->target_chooser, "notify::selected", G_CALLBACK (target_changed_cb), self);

  self->groups = g_list_store_new (SEQUIN_TYPE_FINDING_ITEM);
  self->rows = gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->groups)), FALSE, FALSE,
                                        create_group_children, NULL, NULL);
  g_signal_connect (factory, "setup", G_CALLBACK (row_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (row_bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (row_unbind_cb), NULL);
  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->rows)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_list_view_set_model (self->list, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  gtk_list_view_set_factory (self->list, factory);
  g_signal_connect (self->list, "activate", G_CALLBACK (list_activate_cb), self);

  g_signal_connect (self->loss_list, "row-activated", G_CALLBACK (loss_row_activated_cb), self);
}

GtkWidget *
sequin_validation_panel_new (void)
{
  return g_object_new (SEQUIN_TYPE_VALIDATION_PANEL, NULL);
}

static void
document_changed_cb (SequinValidationPanel *self)
{
  schedule (self);
}

void
sequin_validation_panel_set_document (SequinValidationPanel *self,
                                      SequinDocument        *document)
{
  g_return_if_fail (SEQUIN_IS_VALIDATION_PANEL (self));
  g_return_if_fail (document == NULL || SEQUIN_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  self->shown_clip = NULL;
  if (document != NULL)
    {
      g_signal_connect_swapped (document, "changed", G_CALLBACK (document_changed_cb), self);
      /* the world the file is made for */
      sequin_validation_panel_set_target (self, sequin_validation_default_target (sequin_document_get_format (document)));
      schedule (self);
    }
  else
    run (self);
}

void
sequin_validation_panel_set_target (SequinValidationPanel *self,
                                    const char            *target)
{
  const char * const *targets = sq_validate_targets ();

  g_return_if_fail (SEQUIN_IS_VALIDATION_PANEL (self));

  for (guint i = 0; targets[i] != NULL; i++)
    if (g_strcmp0 (targets[i], target) == 0)
      gtk_drop_down_set_selected (self->target_chooser, i);
}

const char *
sequin_validation_panel_get_target (SequinValidationPanel *self)
{
  g_return_val_if_fail (SEQUIN_IS_VALIDATION_PANEL (self), NULL);
  return chosen_target (self);
}

GtkDropDown *
sequin_validation_panel_get_target_chooser (SequinValidationPanel *self)
{
  g_return_val_if_fail (SEQUIN_IS_VALIDATION_PANEL (self), NULL);
  return self->target_chooser;
}

GPtrArray *
sequin_validation_panel_get_findings (SequinValidationPanel *self)
{
  g_return_val_if_fail (SEQUIN_IS_VALIDATION_PANEL (self), NULL);
  return self->running != NULL ? NULL : self->findings;
}

gboolean
sequin_validation_panel_is_current (SequinValidationPanel *self)
{
  const SqClip *clip;

  g_return_val_if_fail (SEQUIN_IS_VALIDATION_PANEL (self), FALSE);

  clip = current_clip (self);
  return clip != NULL && self->running == NULL && self->idle_id == 0 && self->shown_clip == clip
         && self->shown_generation == clip->generation && g_strcmp0 (self->shown_target, chosen_target (self)) == 0;
}

const char *
sequin_validation_panel_get_summary (SequinValidationPanel *self)
{
  g_return_val_if_fail (SEQUIN_IS_VALIDATION_PANEL (self), NULL);
  return self->summary_text;
}

GtkListView *
sequin_validation_panel_get_list (SequinValidationPanel *self)
{
  g_return_val_if_fail (SEQUIN_IS_VALIDATION_PANEL (self), NULL);
  return self->list;
}

void
sequin_validation_panel_activate (SequinValidationPanel *self,
                                  guint                  position)
{
  const SqFinding *f;
  guint n_top;

  g_return_if_fail (SEQUIN_IS_VALIDATION_PANEL (self));

  if (self->findings == NULL || position >= self->findings->len)
    return;
  f = g_ptr_array_index (self->findings, position);

  /* its row: a top row, or in its joint's group (expanded to show it) */
  n_top = g_list_model_get_n_items (G_LIST_MODEL (self->groups));
  for (guint i = 0; i < n_top; i++)
    {
      g_autoptr(SequinFindingItem) item = g_list_model_get_item (G_LIST_MODEL (self->groups), i);
      g_autoptr(GtkTreeListRow) row = NULL;

      if (item->index >= 0 && (guint) item->index != position)
        continue;
      if (item->index < 0)
        {
          guint k = 0;

          while (k < item->members->len && g_array_index (item->members, guint, k) != position)
            k++;
          if (k == item->members->len)
            continue;
          row = gtk_tree_list_model_get_child_row (self->rows, i);
          gtk_tree_list_row_set_expanded (row, TRUE);
          gtk_selection_model_select_item (gtk_list_view_get_model (self->list),
                                           gtk_tree_list_row_get_position (row) + 1 + k, TRUE);
        }
      else
        {
          row = gtk_tree_list_model_get_child_row (self->rows, i);
          gtk_selection_model_select_item (gtk_list_view_get_model (self->list),
                                           gtk_tree_list_row_get_position (row), TRUE);
        }
      break;
    }
  if (f->joint >= 0)
    g_signal_emit (self, signals[FINDING_ACTIVATED], 0, (gint64) f->joint, (int) f->channel, (gint64) f->key);
}

GtkListBox *
sequin_validation_panel_get_loss_list (SequinValidationPanel *self)
{
  g_return_val_if_fail (SEQUIN_IS_VALIDATION_PANEL (self), NULL);
  return gtk_widget_get_visible (self->loss_box) ? self->loss_list : NULL;
}
