/* sequin-open-progress.c: how far the files being opened or saved are, with Cancel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A bar above the window's content: "Opening “walk.bvh”: 120 of 480 MB
 * read", a progress bar and Cancel. It shows only for an open that takes
 * longer than half a second, one at a time (the oldest first), and goes
 * when no open it follows is under way. It asks the documents how far
 * they are ten times a second (sequin_document_get_load_progress).
 *
 * A save (a Save As conversion of a large clip) shows the same way:
 * "Saving “walk.anim” as Second Life animation: converting…", with
 * Cancel until its files are being written.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sequin-open-progress.h"
#include "sequin-utils.h"

#define POLL_MS 100

typedef struct
{
  SequinDocument *document;
  GFile          *file;
  GCancellable   *cancellable;
  gint64          started;      /* monotonic µs */
  const SqFormat *save_format;  /* a save into this format, or NULL: an open */
} Watch;

struct _SequinOpenProgress
{
  GtkWidget       parent_instance;

  GtkWidget      *box;
  GtkWidget      *label;
  GtkWidget      *bar;
  GtkWidget      *cancel_button;
  GPtrArray      *watches;      /* Watch*, oldest first */
  guint           poll_id;
  guint           delay_ms;     /* shown once an open or save takes this long */
};

G_DEFINE_FINAL_TYPE (SequinOpenProgress, sequin_open_progress, GTK_TYPE_WIDGET)

static void
watch_free (Watch *w)
{
  g_clear_object (&w->document);
  g_clear_object (&w->file);
  g_clear_object (&w->cancellable);
  g_free (w);
}

/* "12.3 MB" */
static char *
size_text (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_DEFAULT);
}

static void
show_watch (SequinOpenProgress *self,
            Watch              *w,
            guint64             done,
            guint64             total,
            gboolean            parsing)
{
  g_autofree char *name = g_file_get_basename (w->file);
  g_autofree char *done_text = size_text (done);
  g_autofree char *total_text = size_text (total);
  g_autofree char *text = NULL;

  if (parsing)
    {
      text = g_strdup_printf (_("Opening “%s”: %s read, reading its keys…"), name, done_text);
      gtk_progress_bar_pulse (GTK_PROGRESS_BAR (self->bar));
    }
  else if (total > 0)
    {
      text = g_strdup_printf (_("Opening “%s”: %s of %s read"), name, done_text, total_text);
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->bar), MIN ((double) done / (double) total, 1.0));
    }
  else
    {
      text = g_strdup_printf (_("Opening “%s”: %s read"), name, done_text);
      gtk_progress_bar_pulse (GTK_PROGRESS_BAR (self->bar));
    }
  gtk_label_set_text (GTK_LABEL (self->label), text);
}

static void
show_save (SequinOpenProgress *self,
           Watch              *w,
           SequinSaveStage     stage,
           guint64             bytes)
{
  g_autofree char *name = g_file_get_basename (w->file);
  g_autofree char *size = size_text (bytes);
  g_autofree char *text = NULL;
  const char *format = sq_format_get_name (w->save_format);

  if (stage == SEQUIN_SAVE_STAGE_WRITING)
    /* TRANSLATORS: the file, then its size, e.g. “Saving “walk.anim”: writing 48.9 MB…” */
    text = g_strdup_printf (_("Saving “%s”: writing %s…"), name, size);
  else if (stage == SEQUIN_SAVE_STAGE_CHECKING)
    text = g_strdup_printf (_("Saving “%s”: reading back what will be written…"), name);
  else
    /* TRANSLATORS: the file, then its format, e.g. “Saving “walk.anim” as Second Life animation: converting…” */
    text = g_strdup_printf (_("Saving “%s” as %s: converting…"), name, format);
  gtk_progress_bar_pulse (GTK_PROGRESS_BAR (self->bar));
  gtk_label_set_text (GTK_LABEL (self->label), text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Saving a file"), -1);
  /* the files are being renamed into place: they are written, whole */
  gtk_widget_set_sensitive (self->cancel_button, stage != SEQUIN_SAVE_STAGE_WRITING);
  sequin_set_tooltip (self->cancel_button,
                               stage == SEQUIN_SAVE_STAGE_WRITING
                               ? _("The files are being written: the save can no longer be stopped")
                               : _("Stop saving; no file is written"));
}

static void
show_open (SequinOpenProgress *self,
           Watch              *w,
           guint64             done,
           guint64             total,
           gboolean            parsing)
{
  show_watch (self, w, done, total, parsing);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Opening a file"), -1);
  gtk_widget_set_sensitive (self->cancel_button, TRUE);
  sequin_set_tooltip (self->cancel_button, _("Stop opening the file; the window stays as it was"));
}

/* Shows `w` if `show`; FALSE when what it follows is over */
static gboolean
poll_watch (SequinOpenProgress *self,
            Watch              *w,
            gboolean            show)
{
  guint64 done, total;
  gboolean parsing;
  SequinSaveStage stage;

  if (g_cancellable_is_cancelled (w->cancellable))
    return FALSE;
  if (w->save_format != NULL)
    {
      if (!sequin_document_get_save_progress (w->document, &stage, &done))
        return FALSE;
      if (show)
        show_save (self, w, stage, done);
      return TRUE;
    }
  if (!sequin_document_get_load_progress (w->document, &done, &total, &parsing))
    return FALSE;
  if (show)
    show_open (self, w, done, total, parsing);
  return TRUE;
}

static gboolean
poll_cb (gpointer user_data)
{
  SequinOpenProgress *self = user_data;
  gint64 now = g_get_monotonic_time ();
  Watch *shown = NULL;

  for (guint i = 0; i < self->watches->len;)
    {
      Watch *w = self->watches->pdata[i];
      gboolean show = shown == NULL && now - w->started >= (gint64) self->delay_ms * 1000;

      if (!poll_watch (self, w, show))
        {
          g_ptr_array_remove_index (self->watches, i);
          continue;
        }
      if (show)
        shown = w;
      i++;
    }
  gtk_widget_set_visible (GTK_WIDGET (self), shown != NULL);
  if (self->watches->len == 0)
    {
      self->poll_id = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
cancel_clicked (SequinOpenProgress *self)
{
  /* the open shown is the first one old enough */
  gint64 now = g_get_monotonic_time ();

  for (guint i = 0; i < self->watches->len; i++)
    {
      Watch *w = self->watches->pdata[i];

      if (now - w->started >= (gint64) self->delay_ms * 1000 && !g_cancellable_is_cancelled (w->cancellable))
        {
          g_cancellable_cancel (w->cancellable);
          break;
        }
    }
  poll_cb (self);
}

static void
add_watch (SequinOpenProgress *self,
           SequinDocument     *document,
           GFile              *file,
           GCancellable       *cancellable,
           const SqFormat     *save_format)
{
  Watch *w;

  g_return_if_fail (SEQUIN_IS_OPEN_PROGRESS (self));
  g_return_if_fail (SEQUIN_IS_DOCUMENT (document));
  g_return_if_fail (G_IS_CANCELLABLE (cancellable));

  w = g_new0 (Watch, 1);
  w->document = g_object_ref (document);
  w->file = g_object_ref (file);
  w->cancellable = g_object_ref (cancellable);
  w->started = g_get_monotonic_time ();
  w->save_format = save_format;
  g_ptr_array_add (self->watches, w);
  if (self->poll_id == 0)
    self->poll_id = g_timeout_add (POLL_MS, poll_cb, self);
}

void
sequin_open_progress_watch (SequinOpenProgress *self,
                            SequinDocument     *document,
                            GFile              *file,
                            GCancellable       *cancellable)
{
  add_watch (self, document, file, cancellable, NULL);
}

void
sequin_open_progress_watch_save (SequinOpenProgress *self,
                                 SequinDocument     *document,
                                 GFile              *file,
                                 const SqFormat     *format,
                                 GCancellable       *cancellable)
{
  g_return_if_fail (format != NULL);
  add_watch (self, document, file, cancellable, format);
}

static void
sequin_open_progress_dispose (GObject *object)
{
  SequinOpenProgress *self = SEQUIN_OPEN_PROGRESS (object);

  g_clear_handle_id (&self->poll_id, g_source_remove);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->watches, g_ptr_array_unref);
  G_OBJECT_CLASS (sequin_open_progress_parent_class)->dispose (object);
}

static void
sequin_open_progress_class_init (SequinOpenProgressClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sequin_open_progress_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "openprogress");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sequin_open_progress_init (SequinOpenProgress *self)
{
  GtkWidget *text_box;

  self->watches = g_ptr_array_new_with_free_func ((GDestroyNotify) watch_free);
  self->delay_ms = SEQUIN_OPEN_PROGRESS_DELAY_MS;
  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_margin_start (self->box, 12);
  gtk_widget_set_margin_end (self->box, 12);
  gtk_widget_set_margin_top (self->box, 6);
  gtk_widget_set_margin_bottom (self->box, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  text_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_hexpand (text_box, TRUE);
  gtk_widget_set_valign (text_box, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (self->box), text_box);
  self->label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->label), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (self->label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_box_append (GTK_BOX (text_box), self->label);
  self->bar = gtk_progress_bar_new ();
  gtk_progress_bar_set_pulse_step (GTK_PROGRESS_BAR (self->bar), 0.1);
  gtk_box_append (GTK_BOX (text_box), self->bar);
  /* read out as the line above it says */
  gtk_accessible_update_relation (GTK_ACCESSIBLE (self->bar), GTK_ACCESSIBLE_RELATION_LABELLED_BY, self->label, NULL, -1);

  /* its name once, without the underline: a label of its own, as the
   * window's buttons have */
  self->cancel_button = gtk_button_new ();
  gtk_button_set_child (GTK_BUTTON (self->cancel_button), gtk_label_new_with_mnemonic (_("_Cancel")));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->cancel_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Cancel"), -1);
  gtk_widget_set_valign (self->cancel_button, GTK_ALIGN_CENTER);
  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (cancel_clicked), self);
  gtk_box_append (GTK_BOX (self->box), self->cancel_button);

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Opening a file"), -1);
}

void
sequin_open_progress_set_delay (SequinOpenProgress *self,
                                guint               ms)
{
  g_return_if_fail (SEQUIN_IS_OPEN_PROGRESS (self));
  self->delay_ms = ms;
}

GtkWidget *
sequin_open_progress_new (void)
{
  return g_object_new (SEQUIN_TYPE_OPEN_PROGRESS, NULL);
}
