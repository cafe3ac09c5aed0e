/* sequin-document.c: one open animation: the clip, its file and its undo history
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The document owns its SqClip and changes it only through SqEdit, so every
 * change can be undone exactly. Loading reads the file with GIO and parses in
 * a worker thread; saving serialises a copy of the clip in a worker thread and
 * writes it atomically with g_file_replace_contents_bytes_async, passing the
 * etag of what was read so a file changed by another program is not silently
 * overwritten.
 *
 * A save into another format (or one that loses something) makes the
 * document what the file now holds: the written bytes are read back, and the
 * clip before is kept as an undo step, so the history before it stays usable.
 */
#define G_LOG_DOMAIN "sequin-document"

#include "config.h"

#include <glib/gi18n.h>

#include "sequin-document.h"

struct _SequinDocument
{
  GObject         parent_instance;

  SqClip         *clip;
  GFile          *file;
  const SqFormat *format;          /* the format of `file` */
  const SqFormat *accepted_losses; /* the user agreed to lose what this format cannot hold */
  char           *etag;
  char           *title;
  const SqClip   *saved_clip;      /* the clip the file holds (with saved_generation) */
  guint64         saved_generation;
  GPtrArray      *undo;            /* UndoStep*, most recent last */
  GPtrArray      *redo;
  gboolean        busy;
  gboolean        modified;
};

G_DEFINE_FINAL_TYPE (SequinDocument, sequin_document, G_TYPE_OBJECT)

/* One step of the history: an edit of the clip, or the whole clip replaced
 * (by what a Save As wrote): undoing and redoing swap `clip` with it */
typedef struct
{
  SqEdit *edit;
  SqClip *clip;
  char   *label;
} UndoStep;

static void
undo_step_free (UndoStep *step)
{
  g_clear_pointer (&step->edit, sq_edit_free);
  g_clear_pointer (&step->clip, sq_clip_free);
  g_free (step->label);
  g_free (step);
}

G_DEFINE_QUARK (sequin-document-error-quark, sequin_document_error)

enum {
  PROP_0,
  PROP_FILE,
  PROP_MODIFIED,
  PROP_BUSY,
  PROP_TITLE,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
sequin_document_finalize (GObject *object)
{
  SequinDocument *self = (SequinDocument *)object;

  g_clear_pointer (&self->clip, sq_clip_free);
  g_clear_object (&self->file);
  g_clear_pointer (&self->etag, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->undo, g_ptr_array_unref);
  g_clear_pointer (&self->redo, g_ptr_array_unref);

  G_OBJECT_CLASS (sequin_document_parent_class)->finalize (object);
}

static void
sequin_document_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SequinDocument *self = SEQUIN_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_MODIFIED:
      g_value_set_boolean (value, self->modified);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_TITLE:
      g_value_set_string (value, sequin_document_get_title (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sequin_document_class_init (SequinDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sequin_document_finalize;
  object_class->get_property = sequin_document_get_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MODIFIED] =
    g_param_spec_boolean ("modified", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* the clip changed: loaded, edited, undone or redone */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sequin_document_init (SequinDocument *self)
{
  self->undo = g_ptr_array_new_with_free_func ((GDestroyNotify) undo_step_free);
  self->redo = g_ptr_array_new_with_free_func ((GDestroyNotify) undo_step_free);
}

SequinDocument *
sequin_document_new (void)
{
  return g_object_new (SEQUIN_TYPE_DOCUMENT, NULL);
}

static void
update_modified (SequinDocument *self)
{
  gboolean modified = self->clip != NULL
                      && (self->clip != self->saved_clip || self->clip->generation != self->saved_generation);

  if (modified != self->modified)
    {
      self->modified = modified;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
    }
}

static void
set_busy (SequinDocument *self,
          gboolean        busy)
{
  if (self->busy != busy)
    {
      self->busy = busy;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
}

static void
emit_changed (SequinDocument *self)
{
  update_modified (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* ---- Loading --------------------------------------------------------------- */

typedef struct
{
  GFile          *file;
  GBytes         *bytes;
  char           *name;
  char           *etag;
  SequinLoadFlags flags;
  guint           take;       /* SqLoadOptions.take */
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_clear_object (&data->file);
  g_clear_pointer (&data->bytes, g_bytes_unref);
  g_free (data->name);
  g_free (data->etag);
  g_free (data);
}

/* A companion file (a CMX skill's CFP) beside the file: the name as given,
 * else the entry of the folder that matches it ignoring case */
static GBytes *
read_companion (const char *name,
                gpointer    user_data,
                GError    **error)
{
  g_autoptr(GFile) dir = g_file_get_parent (user_data);
  g_autoptr(GFile) child = NULL;
  g_autoptr(GFileEnumerator) list = NULL;
  char *contents = NULL;
  gsize length = 0;

  if (dir == NULL || strchr (name, '/') != NULL || g_str_equal (name, "..") || g_str_equal (name, "."))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME, _("“%s” is not a file beside it"), name);
      return NULL;
    }
  child = g_file_get_child (dir, name);
  if (!g_file_query_exists (child, NULL)
      && (list = g_file_enumerate_children (dir, G_FILE_ATTRIBUTE_STANDARD_NAME, 0, NULL, NULL)) != NULL)
    {
      GFileInfo *info;

      while ((info = g_file_enumerator_next_file (list, NULL, NULL)) != NULL)
        {
          if (g_ascii_strcasecmp (g_file_info_get_name (info), name) == 0)
            {
              g_object_unref (child);
              child = g_file_get_child (dir, g_file_info_get_name (info));
            }
          g_object_unref (info);
        }
    }
  if (!g_file_load_contents (child, NULL, &contents, &length, NULL, error))
    return NULL;
  return g_bytes_new_take (contents, length);
}

/* A .cfp is opened through the .cmx beside it whose skill names it: that
 * file, or NULL */
static GFile *
cmx_of_cfp (GFile *cfp)
{
  g_autoptr(GFile) dir = g_file_get_parent (cfp);
  g_autofree char *base = g_file_get_basename (cfp);
  g_autoptr(GFileEnumerator) list = NULL;
  GFileInfo *info;
  GFile *found = NULL;

  if (dir == NULL || (list = g_file_enumerate_children (dir, G_FILE_ATTRIBUTE_STANDARD_NAME, 0, NULL, NULL)) == NULL)
    return NULL;
  base[strlen (base) - 4] = '\0';
  while (found == NULL && (info = g_file_enumerator_next_file (list, NULL, NULL)) != NULL)
    {
      const char *name = g_file_info_get_name (info);
      g_autoptr(GFile) child = NULL;
      char *contents = NULL;
      gsize length = 0;

      if (g_str_has_suffix (name, ".cmx") || g_str_has_suffix (name, ".CMX"))
        {
          child = g_file_get_child (dir, name);
          if (g_file_load_contents (child, NULL, &contents, &length, NULL, NULL))
            {
              g_auto(GStrv) lines = g_strsplit_set (contents, "\r\n", -1);

              for (guint i = 0; lines[i] != NULL && found == NULL; i++)
                if (g_ascii_strcasecmp (lines[i], base) == 0)
                  found = g_object_ref (child);
              g_free (contents);
            }
        }
      g_object_unref (info);
    }
  return found;
}

/* In a worker thread: read the whole file in one go (GIO's asynchronous
 * load goes through the main loop 8 KiB at a time, seconds for 100 MB),
 * then parse it. */
static void
load_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *data = task_data;
  GError *error = NULL;
  char *contents = NULL;
  gsize length = 0;
  SqClip *clip;
  SqLoadOptions options = { 0 };

  if (g_str_has_suffix (data->name, ".cfp") || g_str_has_suffix (data->name, ".CFP"))
    {
      GFile *cmx = cmx_of_cfp (data->file);

      if (cmx == NULL)
        {
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                   _("“%s” holds the keys of a skill: no .cmx beside it names it"), data->name);
          return;
        }
      g_object_unref (data->file);
      data->file = cmx;
      g_free (data->name);
      data->name = g_file_get_basename (cmx);
    }
  if (!g_file_load_contents (data->file, cancellable, &contents, &length, &data->etag, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  data->bytes = g_bytes_new_take (contents, length);

  options.companion = read_companion;
  options.companion_data = data->file;
  options.take = data->take;
  clip = sq_load_bytes (data->bytes, data->name, NULL, &options, &error);
  if (clip == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, clip, (GDestroyNotify) sq_clip_free);
}

void
sequin_document_load_async (SequinDocument      *self,
                            GFile               *file,
                            SequinLoadFlags      flags,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  sequin_document_load_take_async (self, file, flags, 0, cancellable, callback, user_data);
}

void
sequin_document_load_take_async (SequinDocument      *self,
                                 GFile               *file,
                                 SequinLoadFlags      flags,
                                 guint                take,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *data;

  g_return_if_fail (SEQUIN_IS_DOCUMENT (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sequin_document_load_async);

  if (self->busy)
    {
      g_task_return_new_error (task, SEQUIN_DOCUMENT_ERROR, SEQUIN_DOCUMENT_ERROR_BUSY,
                               _("The document is busy"));
      return;
    }

  data = g_new0 (LoadData, 1);
  data->file = g_object_ref (file);
  data->name = g_file_get_basename (file);
  data->flags = flags;
  data->take = take;
  g_task_set_task_data (task, data, (GDestroyNotify) load_data_free);

  set_busy (self, TRUE);
  g_task_run_in_thread (task, load_worker);
}

gboolean
sequin_document_load_finish (SequinDocument  *self,
                             GAsyncResult    *result,
                             GError         **error)
{
  LoadData *data;
  SqClip *clip;

  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  /* a task refused as busy has no data and did not make the document busy */
  data = g_task_get_task_data (G_TASK (result));
  if (data != NULL)
    set_busy (self, FALSE);

  clip = g_task_propagate_pointer (G_TASK (result), error);
  if (clip == NULL)
    return FALSE;

  g_clear_pointer (&self->clip, sq_clip_free);
  self->clip = clip;
  self->format = clip->format;
  self->accepted_losses = NULL;
  self->saved_clip = clip;
  self->saved_generation = clip->generation;
  g_ptr_array_set_size (self->undo, 0);
  g_ptr_array_set_size (self->redo, 0);

  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->etag, g_free);
  g_clear_object (&self->file);
  self->title = g_strdup (data->name);
  if (!(data->flags & SEQUIN_LOAD_AS_COPY))
    {
      self->file = g_object_ref (data->file);
      self->etag = g_steal_pointer (&data->etag);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
  emit_changed (self);
  return TRUE;
}

/* ---- Saving ---------------------------------------------------------------- */

typedef struct
{
  SqClip         *copy;
  const SqClip   *source;       /* the document's clip that `copy` is of */
  GFile          *file;
  const SqFormat *format;
  SequinSaveFlags flags;
  guint64         generation;
  GPtrArray      *losses;
  GPtrArray      *pieces;       /* the file (sq_save_pieces) */
  GPtrArray      *companions;   /* SqCompanion*: files written beside it (a CMX's CFP) */
  char           *old_etag;     /* what the file on disk must still be, or NULL */
  char           *new_etag;
  gboolean        read_back;    /* the document becomes what was written */
  SqClip         *written;      /* that, read from the pieces */
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_clear_pointer (&data->copy, sq_clip_free);
  g_clear_object (&data->file);
  g_clear_pointer (&data->losses, g_ptr_array_unref);
  g_clear_pointer (&data->pieces, g_ptr_array_unref);
  g_clear_pointer (&data->companions, g_ptr_array_unref);
  g_clear_pointer (&data->written, sq_clip_free);
  g_free (data->old_etag);
  g_free (data->new_etag);
  g_free (data);
}

/* A companion the save made (a .gltf's .bin), by name */
static GBytes *
saved_companion (const char *name,
                 gpointer    user_data,
                 GError    **error)
{
  GPtrArray *companions = user_data;

  for (guint i = 0; companions != NULL && i < companions->len; i++)
    {
      const SqCompanion *c = companions->pdata[i];
      if (g_str_equal (c->name, name))
        return g_bytes_ref (c->bytes);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("“%s” is not a file the save wrote"), name);
  return NULL;
}

/* The clip that the file made of `pieces` holds */
static SqClip *
read_back (GPtrArray    *pieces,
           GPtrArray    *companions,
           GFile        *file,
           const SqClip *clip,
           const SqFormat *format,
           GError      **error)
{
  SqLoadOptions options = { 0 };
  g_autoptr(GByteArray) all = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *name = g_file_get_basename (file);

  for (guint i = 0; i < pieces->len; i++)
    {
      gsize len;
      const guint8 *piece = g_bytes_get_data (pieces->pdata[i], &len);

      g_byte_array_append (all, piece, len);
    }
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&all));
  /* the clip's own take of a file of several, written in its format */
  if (format == clip->format)
    options.take = clip->take;
  options.companion = saved_companion;
  options.companion_data = companions;
  return sq_load_bytes (bytes, name, NULL, &options, error);
}

static void replace_clip (SequinDocument *self,
                          SqClip         *written,
                          const SqFormat *format);

static void
save_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SaveData *data = task_data;
  GError *error = NULL;
  GPtrArray *pieces;
  SqSaveOptions options = { 0 };
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);

  g_autofree char *out_name = g_file_get_basename (data->file);
  g_auto(GStrv) companion_names = data->format->companions_for != NULL ? data->format->companions_for (out_name) : NULL;

  data->companions = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_companion_free);
  options.companions = data->companions;
  /* the companions named after the file written (a .gltf's .bin) */
  options.companion_names = (const char * const *) companion_names;
  /* no loss, so no question (a .anim's size: the validation panel weighs it) */
  options.notes = notes;
  pieces = sq_save_pieces (data->copy, data->format, &options, data->losses, &error);
  if (pieces == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* another format, or things lost: what the file will hold is not the
   * clip, so it is read back from the very bytes that will be written */
  data->read_back = data->format != data->copy->format || data->losses->len > 0;
  if (data->read_back)
    data->written = read_back (pieces, data->companions, data->file, data->copy, data->format, &error);
  if (data->read_back && data->written == NULL)
    {
      g_prefix_error (&error, _("What would be written cannot be read back: "));
      g_ptr_array_unref (pieces);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, pieces, (GDestroyNotify) g_ptr_array_unref);
}

/* In a thread: the pieces one after another into a temporary file beside
 * the file, renamed over it once all is written (GIO's replace, refusing
 * when the file is no longer `old_etag`). On an error the close is
 * cancelled, which removes the temporary file: the file stays as it was,
 * and no partial copy is left beside it. */
static void
write_worker (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  SaveData *data = task_data;
  GError *error = NULL;
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autofree GOutputVector *vectors = g_new0 (GOutputVector, MAX (data->pieces->len, 1));
  g_autoptr(GFile) dir = g_file_get_parent (data->file);

  /* companions first (each replaced atomically), then the file itself */
  for (guint i = 0; data->companions != NULL && i < data->companions->len; i++)
    {
      const SqCompanion *c = data->companions->pdata[i];
      g_autoptr(GFile) child = NULL;
      gsize length;
      const void *bytes = g_bytes_get_data (c->bytes, &length);

      if (dir == NULL || strchr (c->name, '/') != NULL || c->name[0] == '.')
        {
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                                   _("“%s” is not a file beside it"), c->name);
          return;
        }
      child = g_file_get_child (dir, c->name);
      if (!g_file_replace_contents (child, bytes, length, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL,
                                    cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }

  stream = g_file_replace (data->file, data->old_etag, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                           cancellable, &error);
  if (stream == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  for (guint i = 0; i < data->pieces->len; i++)
    vectors[i].buffer = g_bytes_get_data (data->pieces->pdata[i], &vectors[i].size);
  if (!g_output_stream_writev_all (G_OUTPUT_STREAM (stream), vectors, data->pieces->len, NULL,
                                   cancellable, &error))
    {
      g_autoptr(GCancellable) abandon = g_cancellable_new ();

      g_cancellable_cancel (abandon);
      g_output_stream_close (G_OUTPUT_STREAM (stream), abandon, NULL);
      g_task_return_error (task, error);
      return;
    }
  if (!g_output_stream_close (G_OUTPUT_STREAM (stream), cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  data->new_etag = g_file_output_stream_get_etag (stream);
  g_task_return_boolean (task, TRUE);
}

static void
written_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
serialized_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  SequinDocument *self = SEQUIN_DOCUMENT (object);
  g_autoptr(GTask) task = user_data;
  SaveData *data = g_task_get_task_data (task);
  GError *error = NULL;
  g_autoptr(GTask) writer = NULL;

  data->pieces = g_task_propagate_pointer (G_TASK (result), &error);
  if (data->pieces == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  /* changing format loses what the new one cannot hold: the user decides */
  if (data->losses->len > 0 && data->format != self->format
      && data->format != self->accepted_losses && !(data->flags & SEQUIN_SAVE_ACCEPT_LOSSES))
    {
      g_task_return_new_error (task, SEQUIN_DOCUMENT_ERROR, SEQUIN_DOCUMENT_ERROR_LOSSES,
                               _("%s cannot hold everything this animation has"),
                               sq_format_get_name (data->format));
      return;
    }

  /* the file we read: refuse to overwrite what another program wrote since */
  if (self->file != NULL && self->etag != NULL && g_file_equal (self->file, data->file)
      && !(data->flags & SEQUIN_SAVE_IGNORE_CHANGES_ON_DISK))
    data->old_etag = g_strdup (self->etag);

  writer = g_task_new (self, g_task_get_cancellable (task), written_cb, g_object_ref (task));
  g_task_set_source_tag (writer, write_worker);
  g_task_set_task_data (writer, data, NULL);
  g_task_run_in_thread (writer, write_worker);
}

void
sequin_document_save_async (SequinDocument      *self,
                            GFile               *file,
                            const SqFormat      *format,
                            SequinSaveFlags      flags,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) worker = NULL;
  SaveData *data;

  g_return_if_fail (SEQUIN_IS_DOCUMENT (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sequin_document_save_async);

  if (self->busy || self->clip == NULL)
    {
      g_task_return_new_error (task, SEQUIN_DOCUMENT_ERROR, SEQUIN_DOCUMENT_ERROR_BUSY,
                               self->busy ? _("The document is busy") : _("There is nothing to save"));
      return;
    }

  data = g_new0 (SaveData, 1);
  /* the worker writes a copy, so the document stays editable meanwhile */
  data->copy = sq_clip_copy (self->clip);
  data->source = self->clip;
  data->file = g_object_ref (file);
  data->format = format != NULL ? format : self->format;
  data->flags = flags;
  data->generation = self->clip->generation;
  data->losses = g_ptr_array_new_with_free_func (g_free);
  g_task_set_task_data (task, data, (GDestroyNotify) save_data_free);

  if (data->format == NULL)
    data->format = sq_format_default ();

  set_busy (self, TRUE);

  worker = g_task_new (self, cancellable, serialized_cb, g_object_ref (task));
  g_task_set_source_tag (worker, save_worker);
  g_task_set_task_data (worker, data, NULL);
  g_task_run_in_thread (worker, save_worker);
}

gboolean
sequin_document_save_finish (SequinDocument  *self,
                             GAsyncResult    *result,
                             GStrv           *losses,
                             GError         **error)
{
  SaveData *data;

  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  data = g_task_get_task_data (G_TASK (result));
  if (data != NULL)
    set_busy (self, FALSE);

  if (losses != NULL)
    {
      GStrvBuilder *builder = g_strv_builder_new ();

      for (guint i = 0; data != NULL && i < data->losses->len; i++)
        g_strv_builder_add (builder, data->losses->pdata[i]);
      *losses = g_strv_builder_end (builder);
      g_strv_builder_unref (builder);
    }

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;

  if (data->format != self->format && data->losses->len > 0)
    self->accepted_losses = data->format;
  self->format = data->format;
  g_clear_pointer (&self->etag, g_free);
  self->etag = g_steal_pointer (&data->new_etag);
  /* the clip edited meanwhile is not what was written: it stays, modified */
  if (data->written != NULL && self->clip == data->source && self->clip->generation == data->generation)
    replace_clip (self, g_steal_pointer (&data->written), data->format);
  else
    {
      self->saved_clip = data->source;
      self->saved_generation = data->generation;
    }
  if (self->file == NULL || !g_file_equal (self->file, data->file))
    {
      g_set_object (&self->file, data->file);
      g_clear_pointer (&self->title, g_free);
      self->title = g_file_get_basename (data->file);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
    }
  update_modified (self);
  return TRUE;
}

/* The document becomes `written` (what the file now holds); the clip before
 * goes into the history. Unless they are the same: then nothing changes. */
static void
replace_clip (SequinDocument *self,
              SqClip         *written,
              const SqFormat *format)
{
  UndoStep *step;

  if (sq_clip_equal (written, self->clip))
    {
      sq_clip_free (written);
      self->saved_clip = self->clip;
      self->saved_generation = self->clip->generation;
      return;
    }
  step = g_new0 (UndoStep, 1);
  /* TRANSLATORS: an undo step: the animation became what a file of another format holds */
  step->label = g_strdup_printf (_("Save as %s"), sq_format_get_name (format));
  step->clip = self->clip;
  self->clip = written;
  g_ptr_array_add (self->undo, step);
  g_ptr_array_set_size (self->redo, 0);
  self->saved_clip = self->clip;
  self->saved_generation = self->clip->generation;
  emit_changed (self);
}

/* ---- Properties ------------------------------------------------------------ */

const SqClip *
sequin_document_get_clip (SequinDocument *self)
{
  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), NULL);
  return self->clip;
}

GFile *
sequin_document_get_file (SequinDocument *self)
{
  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), NULL);
  return self->file;
}

const SqFormat *
sequin_document_get_format (SequinDocument *self)
{
  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), NULL);
  return self->format;
}

const char *
sequin_document_get_title (SequinDocument *self)
{
  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), NULL);
  return self->title != NULL ? self->title : _("Untitled Animation");
}

gboolean
sequin_document_get_modified (SequinDocument *self)
{
  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), FALSE);
  return self->modified;
}

gboolean
sequin_document_get_busy (SequinDocument *self)
{
  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), FALSE);
  return self->busy;
}

/* ---- Edits ----------------------------------------------------------------- */

gboolean
sequin_document_apply (SequinDocument  *self,
                       SqEdit          *edit,
                       GError         **error)
{
  g_autoptr(SqEdit) owned = edit;
  UndoStep *step;

  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (edit != NULL, FALSE);

  if (self->clip == NULL)
    {
      g_set_error_literal (error, SEQUIN_DOCUMENT_ERROR, SEQUIN_DOCUMENT_ERROR_BUSY,
                           _("There is no animation to edit"));
      return FALSE;
    }
  if (!sq_edit_apply (edit, self->clip, error))
    return FALSE;

  step = g_new0 (UndoStep, 1);
  step->edit = g_steal_pointer (&owned);
  g_ptr_array_add (self->undo, step);
  g_ptr_array_set_size (self->redo, 0);
  emit_changed (self);
  return TRUE;
}

gboolean
sequin_document_can_undo (SequinDocument *self)
{
  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), FALSE);
  return self->undo->len > 0;
}

gboolean
sequin_document_can_redo (SequinDocument *self)
{
  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), FALSE);
  return self->redo->len > 0;
}

static const char *
step_label (UndoStep *step)
{
  return step->edit != NULL ? sq_edit_get_label (step->edit) : step->label;
}

/* A replacing step swaps the clip it keeps with the document's */
static void
swap_clip (SequinDocument *self,
           UndoStep       *step)
{
  SqClip *other = step->clip;

  step->clip = self->clip;
  self->clip = other;
}

const char *
sequin_document_get_undo_label (SequinDocument *self)
{
  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), NULL);
  return self->undo->len > 0 ? step_label (g_ptr_array_index (self->undo, self->undo->len - 1)) : NULL;
}

const char *
sequin_document_get_redo_label (SequinDocument *self)
{
  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), NULL);
  return self->redo->len > 0 ? step_label (g_ptr_array_index (self->redo, self->redo->len - 1)) : NULL;
}

gboolean
sequin_document_undo (SequinDocument *self)
{
  UndoStep *step;

  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), FALSE);

  if (self->undo->len == 0)
    return FALSE;
  step = g_ptr_array_steal_index (self->undo, self->undo->len - 1);
  if (step->edit != NULL)
    sq_edit_undo (step->edit, self->clip);
  else
    swap_clip (self, step);
  g_ptr_array_add (self->redo, step);
  emit_changed (self);
  return TRUE;
}

gboolean
sequin_document_redo (SequinDocument *self)
{
  g_autoptr(GError) error = NULL;
  UndoStep *step;

  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), FALSE);

  if (self->redo->len == 0)
    return FALSE;
  step = g_ptr_array_steal_index (self->redo, self->redo->len - 1);
  if (step->edit == NULL)
    swap_clip (self, step);
  else if (!sq_edit_apply (step->edit, self->clip, &error))
    {
      /* cannot happen: undo put the clip back exactly as the edit found it */
      g_warning ("Could not redo “%s”: %s", sq_edit_get_label (step->edit), error->message);
      undo_step_free (step);
      g_ptr_array_set_size (self->redo, 0);
      return FALSE;
    }
  g_ptr_array_add (self->undo, step);
  emit_changed (self);
  return TRUE;
}
