/* sequin-live-export.c: Export Continuously To…
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sequin-live-export"

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "sequin-live-export.h"
#include "sequin-utils.h"
#include "sq-io.h"
#include "sequin-window-private.h"

typedef struct
{
  SequinWindow   *window;      /* owns this */
  GFile          *file;        /* NULL when stopped */
  const SqFormat *format;
  GtkWidget      *box;         /* the indicator, in the header bar */
  GtkLabel       *label;
  char           *status;
  guint           count;       /* files written */
  gboolean        running;     /* a write is under way */
  gboolean        again;       /* an edit came during it */
  GSignalGroup   *document;    /* on the window's document: its edits */
  GCancellable   *cancellable;
} LiveExport;

/* What a worker does: check, write, say */
typedef struct
{
  SqClip         *clip;        /* a copy */
  const SqFormat *format;
  char           *path;
  char           *waits;       /* the first validation error, or NULL */
} Job;

static void
job_free (Job *job)
{
  sq_clip_free (job->clip);
  g_free (job->path);
  g_free (job->waits);
  g_free (job);
}

static void
live_export_free (LiveExport *self)
{
  g_clear_object (&self->document);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->file);
  g_free (self->status);
  g_free (self);
}

static LiveExport *
live_export_get (SequinWindow *window,
                 gboolean      create)
{
  LiveExport *self = g_object_get_data (G_OBJECT (window), "sequin-live-export");

  if (self == NULL && create)
    {
      self = g_new0 (LiveExport, 1);
      self->window = window;
      self->cancellable = g_cancellable_new ();
      g_object_set_data_full (G_OBJECT (window), "sequin-live-export", self, (GDestroyNotify) live_export_free);
    }
  return self;
}

static void
set_status (LiveExport *self,
            const char *status)
{
  g_free (self->status);
  self->status = g_strdup (status);
  if (self->label != NULL)
    {
      gtk_label_set_text (self->label, status != NULL ? status : "");
      sequin_set_tooltip (GTK_WIDGET (self->label), status);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->label), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      status != NULL ? status : "", -1);
    }
  if (self->box != NULL)
    gtk_widget_set_visible (self->box, status != NULL);
}

/* In a thread: the clip's Second Life validation, then the file written
 * into a temporary file beside it and renamed over it */
static void
export_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(GPtrArray) findings = sq_validate (job->clip, "sl", NULL);
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) files = NULL;
  SqSaveOptions options = { 0 };
  GError *error = NULL;

  for (guint i = 0; findings != NULL && i < findings->len && job->waits == NULL; i++)
    if (((SqFinding *) findings->pdata[i])->severity == SQ_SEVERITY_ERROR)
      job->waits = g_strdup (((SqFinding *) findings->pdata[i])->message);
  if (job->waits != NULL)
    {
      g_task_return_boolean (task, FALSE);
      return;
    }
  options.notes = notes;
  /* the one rule of every save (sq_io_save): a temporary file beside it,
   * renamed over it once complete; .anim and BVH have no companions */
  files = sq_io_save (job->path, job->clip, job->format, &options, losses, FALSE, &error);
  if (files == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void export_now (LiveExport *self);

static void
export_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  LiveExport *self = user_data;
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *status = NULL;
  gboolean written = g_task_propagate_boolean (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->running = FALSE;
  name = g_path_get_basename (job->path);
  if (written)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();
      g_autofree char *time = g_date_time_format (now, "%H:%M:%S");

      self->count++;
      /* TRANSLATORS: the live export's indicator: the time the file was last written, and the file */
      status = g_strdup_printf (_("Exported %s to %s"), time, name);
    }
  else if (job->waits != NULL)
    /* TRANSLATORS: the live export's indicator: the validation error that keeps the file from being written */
    status = g_strdup_printf (_("Export waits: %s"), job->waits);
  else
    status = g_strdup_printf (_("Could not export to %s: %s"), name, error->message);
  if (self->file != NULL)
    set_status (self, status);
  if (self->again && self->file != NULL)
    {
      self->again = FALSE;
      export_now (self);
    }
}

static void
export_now (LiveExport *self)
{
  SequinDocument *document = sequin_window_get_document (self->window);
  const SqClip *clip = document != NULL ? sequin_document_get_clip (document) : NULL;
  g_autoptr(GTask) task = NULL;
  Job *job;

  if (self->file == NULL || clip == NULL)
    return;
  if (self->running)
    {
      self->again = TRUE;
      return;
    }
  job = g_new0 (Job, 1);
  job->clip = sq_clip_copy (clip);
  job->format = self->format;
  job->path = g_file_get_path (self->file);
  self->running = TRUE;
  task = g_task_new (NULL, self->cancellable, export_done, self);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, export_worker);
}

static void
document_changed (SequinWindow *window)
{
  LiveExport *self = live_export_get (window, FALSE);

  if (self != NULL && self->file != NULL)
    export_now (self);
}

static void
ensure_indicator (LiveExport *self)
{
  GtkWidget *stop;

  if (self->box != NULL)
    return;
  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->label, PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (self->label, 48);
  gtk_widget_add_css_class (GTK_WIDGET (self->label), "dim-label");
  stop = gtk_button_new_from_icon_name ("media-playback-stop-symbolic");
  gtk_widget_add_css_class (stop, "flat");
  sequin_set_tooltip (stop, _("Stop Exporting Continuously"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (stop), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Stop Exporting Continuously"), -1);
  g_signal_connect_swapped (stop, "clicked", G_CALLBACK (sequin_live_export_stop), self->window);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->label));
  gtk_box_append (GTK_BOX (self->box), stop);
  gtk_header_bar_pack_end (self->window->header_bar, self->box);
}

gboolean
sequin_live_export_start (SequinWindow *window,
                          GFile        *file,
                          GError      **error)
{
  LiveExport *self = live_export_get (window, TRUE);
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *status = NULL;
  const SqFormat *format = NULL;

  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("%s is not a file on this computer"), name);
      return FALSE;
    }
  /* a format of Second Life's world, by the name (.anim, .bvh) */
  format = sq_format_for_filename (path, NULL);
  if (format != NULL && (!sq_format_can_write (format) || sq_format_get_world (format) != sq_world_by_id ("sl")))
    format = NULL;
  if (format == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("%s: the name must end in .anim or .bvh, the formats a viewer's Local Assets read"), name);
      return FALSE;
    }
  g_set_object (&self->file, file);
  self->format = format;
  self->count = 0;
  if (self->document == NULL)
    {
      self->document = _sequin_window_follow_document (window, G_CALLBACK (document_changed), window);
    }
  ensure_indicator (self);
  /* TRANSLATORS: the live export's indicator before its first write */
  status = g_strdup_printf (_("Exporting to %s…"), name);
  set_status (self, status);
  export_now (self);
  return TRUE;
}

void
sequin_live_export_stop (SequinWindow *window)
{
  LiveExport *self = live_export_get (window, FALSE);

  if (self == NULL)
    return;
  g_clear_object (&self->file);
  self->again = FALSE;
  set_status (self, NULL);
}

const char *
sequin_live_export_get_status (SequinWindow *window)
{
  LiveExport *self = live_export_get (window, FALSE);

  return self != NULL && self->file != NULL ? self->status : NULL;
}

guint
sequin_live_export_get_count (SequinWindow *window)
{
  LiveExport *self = live_export_get (window, FALSE);

  return self != NULL ? self->count : 0;
}

gboolean
sequin_live_export_is_busy (SequinWindow *window)
{
  LiveExport *self = live_export_get (window, FALSE);

  return self != NULL && (self->running || self->again);
}

GtkWidget *
sequin_live_export_get_indicator (SequinWindow *window)
{
  LiveExport *self = live_export_get (window, FALSE);

  return self != NULL && self->label != NULL ? GTK_WIDGET (self->label) : NULL;
}

/* ---- the chooser ---- */

static void
chosen (GtkNativeDialog *chooser,
        int              response,
        SequinWindow    *window)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_object_unref (chooser);
  if (file != NULL && !sequin_live_export_start (window, file, &error))
    {
      GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (window), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                  GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s",
                                                  _("Could Not Export Continuously"));

      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
      g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
      gtk_window_present (GTK_WINDOW (dialog));
    }
}

void
sequin_live_export_choose (SequinWindow *window)
{
  SequinDocument *document = sequin_window_get_document (window);
  GtkFileChooserNative *chooser;
  g_autofree char *name = NULL;
  const char *title = document != NULL ? sequin_document_get_title (document) : NULL;

  chooser = gtk_file_chooser_native_new (_("Export Continuously To"), GTK_WINDOW (window),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  if (title != NULL)
    {
      g_autofree char *stem = g_strdup (title);
      char *dot = strrchr (stem, '.');

      if (dot != NULL && dot != stem)
        *dot = '\0';
      name = g_strconcat (stem, ".anim", NULL);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
    }
  g_signal_connect (chooser, "response", G_CALLBACK (chosen), window);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
