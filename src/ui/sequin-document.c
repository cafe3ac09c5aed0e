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
#include "sq-io.h"

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
  GTask          *load_task;       /* the load under way, if any */
  GTask          *save_task;       /* the save under way, if any */
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

SequinDocument *
sequin_document_new_for_clip (SqClip     *clip,
                              const char *title)
{
  SequinDocument *self = sequin_document_new ();

  self->clip = clip;
  self->format = clip->format;
  self->saved_clip = clip;
  self->saved_generation = clip->generation;
  self->title = g_strdup (title);
  return self;
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
  /* how far it is (atomic: the worker writes, the window reads) */
  gpointer        size;       /* GSIZE_TO_POINTER: the file's size, 0 until known */
  gpointer        read;       /* GSIZE_TO_POINTER: bytes read so far */
  gint            parsing;    /* the keys are being read from the bytes */
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

/* The whole file into *contents, READ_CHUNK bytes at a time, counting
 * them in data->read (the window shows how far it is) */
#define READ_CHUNK (4 * 1024 * 1024)

static gboolean
read_file (LoadData      *data,
           GCancellable  *cancellable,
           char         **contents,
           gsize         *length,
           GError       **error)
{
  g_autoptr(GFileInputStream) in = g_file_read (data->file, cancellable, error);
  g_autoptr(GFileInfo) info = NULL;
  gsize alloc, done = 0;
  char *buf;

  if (in == NULL)
    return FALSE;
  info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_ETAG_VALUE,
                                         cancellable, NULL);
  if (info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_STANDARD_SIZE))
    g_atomic_pointer_set (&data->size, GSIZE_TO_POINTER ((gsize) MAX (g_file_info_get_size (info), 0)));
  if (info != NULL && g_file_info_get_etag (info) != NULL)
    data->etag = g_strdup (g_file_info_get_etag (info));
  /* room for the size and one byte more, so that the end is met without
   * growing (and a NUL after the bytes) */
  alloc = (gsize) GPOINTER_TO_SIZE (g_atomic_pointer_get (&data->size)) + 2;
  buf = g_malloc (alloc);
  for (;;)
    {
      gssize n;

      if (alloc - done < 2)
        {
          alloc = alloc * 2;
          buf = g_realloc (buf, alloc);
        }
      n = g_input_stream_read (G_INPUT_STREAM (in), buf + done, MIN (alloc - done - 1, READ_CHUNK),
                               cancellable, error);
      if (n < 0)
        {
          g_free (buf);
          return FALSE;
        }
      if (n == 0)
        break;
      done += (gsize) n;
      g_atomic_pointer_set (&data->read, GSIZE_TO_POINTER (done));
    }
  buf[done] = '\0';
  *contents = buf;
  *length = done;
  return TRUE;
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
  /* a save of a skill killed half way there is finished first */
  {
    g_autoptr(GFile) parent = g_file_get_parent (data->file);
    g_autofree char *dir = parent != NULL ? g_file_get_path (parent) : NULL;

    if (dir != NULL)
      sq_io_finish_saves (dir);
  }
  if (!read_file (data, cancellable, &contents, &length, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  data->bytes = g_bytes_new_take (contents, length);
  g_atomic_int_set (&data->parsing, TRUE);

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
  /* cancelled, the load ends at once for its caller; a worker still
   * reading goes on and its result is dropped */
  g_task_set_return_on_cancel (task, TRUE);

  set_busy (self, TRUE);
  g_set_object (&self->load_task, task);
  g_task_run_in_thread (task, load_worker);
}

gboolean
sequin_document_get_load_progress (SequinDocument *self,
                                   guint64        *done,
                                   guint64        *total,
                                   gboolean       *parsing)
{
  LoadData *data;

  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), FALSE);

  if (self->load_task == NULL || g_task_get_completed (self->load_task)
      || (data = g_task_get_task_data (self->load_task)) == NULL)
    return FALSE;
  *done = GPOINTER_TO_SIZE (g_atomic_pointer_get (&data->read));
  *total = GPOINTER_TO_SIZE (g_atomic_pointer_get (&data->size));
  *parsing = g_atomic_int_get (&data->parsing);
  return TRUE;
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
  if (self->load_task == G_TASK (result))
    g_clear_object (&self->load_task);

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
  GPtrArray      *notes;        /* the conversion's notes (retargeting, root motion, size) */
  GPtrArray      *files;        /* SqSaveFile*: the file, then its companions (sq_save_files) */
  char           *old_etag;     /* what the file on disk must still be, or NULL */
  char           *new_etag;
  gboolean        read_back;    /* the document becomes what was written */
  SqClip         *written;      /* that, read from the pieces */
  gboolean        worked;       /* the worker is done: what it made may be read */
  int             stage;        /* SequinSaveStage, atomic */
  gpointer        bytes;        /* the bytes written (gsize), atomic */
} SaveData;

/* A SaveData is counted (g_atomic_rc_box): the save holds it, and so does
 * its worker, which a cancel leaves to finish on its own */
static void
save_data_clear (SaveData *data)
{
  g_clear_pointer (&data->copy, sq_clip_free);
  g_clear_object (&data->file);
  g_clear_pointer (&data->losses, g_ptr_array_unref);
  g_clear_pointer (&data->notes, g_ptr_array_unref);
  g_clear_pointer (&data->files, g_ptr_array_unref);
  g_clear_pointer (&data->written, sq_clip_free);
  g_free (data->old_etag);
  g_free (data->new_etag);
}

static void
save_data_release (SaveData *data)
{
  g_atomic_rc_box_release_full (data, (GDestroyNotify) save_data_clear);
}

static GBytes *
join_pieces (GPtrArray *pieces)
{
  g_autoptr(GByteArray) all = g_byte_array_new ();

  for (guint i = 0; i < pieces->len; i++)
    {
      gsize len;
      const guint8 *piece = g_bytes_get_data (pieces->pdata[i], &len);

      g_byte_array_append (all, piece, len);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&all));
}

/* A companion of the save (SqSaveFile*s), for reading back what it writes */
static GBytes *
saved_companion (const char *name,
                 gpointer    user_data,
                 GError    **error)
{
  GPtrArray *files = user_data;

  for (guint i = 1; i < files->len; i++)
    {
      const SqSaveFile *file = files->pdata[i];

      if (g_ascii_strcasecmp (file->name, name) == 0)
        return join_pieces (file->pieces);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("“%s” is not written with it"), name);
  return NULL;
}

/* The clip that the files of the save (the first and its companions) hold */
static SqClip *
read_back (GPtrArray      *files,
           const SqClip   *clip,
           const SqFormat *format,
           GError        **error)
{
  SqLoadOptions options = { 0 };
  const SqSaveFile *main = files->pdata[0];
  g_autoptr(GBytes) bytes = join_pieces (main->pieces);

  /* the clip's own take of a file of several, written in its format */
  if (format == clip->format)
    options.take = clip->take;
  options.companion = saved_companion;
  options.companion_data = files;
  return sq_load_bytes (bytes, main->name, NULL, &options, error);
}

static void replace_clip (SequinDocument *self,
                          SqClip         *written,
                          const SqFormat *format);

/* The folder's local path, or NULL with an error */
static char *
folder_path (GFile   *file,
             GError **error)
{
  g_autoptr(GFile) dir = g_file_get_parent (file);
  char *path = dir != NULL ? g_file_get_path (dir) : NULL;

  if (path == NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                         _("Sequin saves into local folders only"));
  return path;
}

/* In a thread: what the save writes (sq_save_files, the one rule of every
 * save: the file and the companions of its name) */
static void
save_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SaveData *data = task_data;
  GError *error = NULL;
  SqSaveOptions options = { 0 };
  g_autofree char *dir = folder_path (data->file, &error);
  g_autofree char *name = g_file_get_basename (data->file);
  gboolean renamed = FALSE;
  SqFolder folder;

  if (dir == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_atomic_int_set (&data->stage, SEQUIN_SAVE_STAGE_CONVERTING);
  sq_io_folder_init (&folder, dir);
  /* no loss, so no question: told once the file is saved */
  options.notes = data->notes;
  data->files = sq_save_files (data->copy, data->format, name, &folder, &options, data->losses, &error);
  if (data->files == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* a companion of a new name (a skill's own CFP): the clip names it now */
  if (data->format->companions_of != NULL && data->format == data->copy->format)
    {
      g_auto(GStrv) own = data->format->companions_of (data->copy);

      for (guint i = 1; i < data->files->len; i++)
        renamed |= own == NULL || !g_strv_contains ((const char * const *) own,
                                                    ((SqSaveFile *) data->files->pdata[i])->name);
    }
  /* another format, or things lost: what the file will hold is not the
   * clip, so it is read back from the very bytes that will be written */
  data->read_back = data->format != data->copy->format || data->losses->len > 0 || renamed;
  if (g_task_return_error_if_cancelled (task))
    return;
  if (data->read_back)
    g_atomic_int_set (&data->stage, SEQUIN_SAVE_STAGE_CHECKING);
  if (data->read_back)
    data->written = read_back (data->files, data->copy, data->format, &error);
  if (data->read_back && data->written == NULL)
    {
      g_prefix_error (&error, _("What would be written cannot be read back: "));
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

/* In a thread: every file of the save to a temporary file beside it, all
 * renamed once all are written (sq_io_write_files), refusing when the file
 * is no longer `old_etag`. On an error every file stays as it was, and no
 * partial copy is left beside it. */
static void
write_worker (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  SaveData *data = task_data;
  GError *error = NULL;
  g_autofree char *dir = folder_path (data->file, &error);
  g_autoptr(GFileInfo) info = NULL;

  if (dir == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* cancelled before the first byte: nothing written; after it, the save
   * ends whole (the renames are what make it atomic) */
  if (g_task_return_error_if_cancelled (task))
    return;
  if (data->old_etag != NULL
      && (info = g_file_query_info (data->file, G_FILE_ATTRIBUTE_ETAG_VALUE, 0, cancellable, NULL)) != NULL
      && g_strcmp0 (g_file_info_get_etag (info), data->old_etag) != 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG,
                               _("The file was changed on disk"));
      return;
    }
  g_clear_object (&info);
  if (!sq_io_write_files (dir, data->files, &error))
    {
      /* as GIO words it, like every other error of the editor's files */
      if (error->domain == G_FILE_ERROR)
        {
          GError *io = g_error_new_literal (G_IO_ERROR, g_io_error_from_file_error (error->code), error->message);

          g_error_free (error);
          error = io;
        }
      g_task_return_error (task, error);
      return;
    }
  if ((info = g_file_query_info (data->file, G_FILE_ATTRIBUTE_ETAG_VALUE, 0, cancellable, NULL)) != NULL)
    data->new_etag = g_strdup (g_file_info_get_etag (info));
  g_task_return_boolean (task, TRUE);
}

/* The bytes of every file of the save */
static gsize
save_files_size (GPtrArray *files)
{
  gsize size = 0;

  for (guint i = 0; i < files->len; i++)
    {
      GPtrArray *pieces = ((SqSaveFile *) files->pdata[i])->pieces;

      for (guint j = 0; j < pieces->len; j++)
        size += g_bytes_get_size (pieces->pdata[j]);
    }
  return size;
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

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_task_return_error (task, error);
      return;
    }
  data->worked = TRUE;

  /* changing format loses what the new one cannot hold: the user decides */
  if (data->losses->len > 0 && data->format != self->format
      && data->format != self->accepted_losses && !(data->flags & SEQUIN_SAVE_ACCEPT_LOSSES))
    {
      g_task_return_new_error (task, SEQUIN_DOCUMENT_ERROR, SEQUIN_DOCUMENT_ERROR_LOSSES,
                               _("%s cannot hold everything this animation has"),
                               sq_format_get_name (data->format));
      return;
    }

  /* a companion of another file (a CFP another skill names): the user decides */
  for (guint i = 0; i < data->files->len && !(data->flags & SEQUIN_SAVE_REPLACE_COMPANIONS); i++)
    {
      const SqSaveFile *file = data->files->pdata[i];

      if (file->conflict != NULL)
        {
          g_task_return_new_error (task, SEQUIN_DOCUMENT_ERROR, SEQUIN_DOCUMENT_ERROR_COMPANION_TAKEN,
                                   "%s", file->conflict);
          return;
        }
    }

  /* the file we read: refuse to overwrite what another program wrote since */
  if (self->file != NULL && self->etag != NULL && g_file_equal (self->file, data->file)
      && !(data->flags & SEQUIN_SAVE_IGNORE_CHANGES_ON_DISK))
    data->old_etag = g_strdup (self->etag);

  g_atomic_pointer_set (&data->bytes, GSIZE_TO_POINTER (save_files_size (data->files)));
  g_atomic_int_set (&data->stage, SEQUIN_SAVE_STAGE_WRITING);
  writer = g_task_new (self, g_task_get_cancellable (task), written_cb, g_object_ref (task));
  /* once writing, the files are written whatever a late cancel says */
  g_task_set_check_cancellable (writer, FALSE);
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
  /* its worker says when it was cancelled; a write under way ends whole */
  g_task_set_check_cancellable (task, FALSE);

  if (self->busy || self->clip == NULL)
    {
      g_task_return_new_error (task, SEQUIN_DOCUMENT_ERROR, SEQUIN_DOCUMENT_ERROR_BUSY,
                               self->busy ? _("The document is busy") : _("There is nothing to save"));
      return;
    }

  data = g_atomic_rc_box_new0 (SaveData);
  /* the worker writes a copy, so the document stays editable meanwhile */
  data->copy = sq_clip_copy (self->clip);
  data->source = self->clip;
  data->file = g_object_ref (file);
  data->format = format != NULL ? format : self->format;
  data->flags = flags;
  data->generation = self->clip->generation;
  data->losses = g_ptr_array_new_with_free_func (g_free);
  data->notes = g_ptr_array_new_with_free_func (g_free);
  g_task_set_task_data (task, data, (GDestroyNotify) save_data_release);

  if (data->format == NULL)
    data->format = sq_format_default ();

  set_busy (self, TRUE);

  g_set_object (&self->save_task, task);
  worker = g_task_new (self, cancellable, serialized_cb, g_object_ref (task));
  g_task_set_source_tag (worker, save_worker);
  /* a cancel returns at once; the worker finishes its copy on its own */
  g_task_set_task_data (worker, g_atomic_rc_box_acquire (data), (GDestroyNotify) save_data_release);
  g_task_set_return_on_cancel (worker, TRUE);
  g_task_run_in_thread (worker, save_worker);
}

/* A save's lines as a NULL-terminated array (empty for none) */
static GStrv
lines_of (GPtrArray *lines)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  GStrv strv;

  for (guint i = 0; lines != NULL && i < lines->len; i++)
    g_strv_builder_add (builder, lines->pdata[i]);
  strv = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return strv;
}

gboolean
sequin_document_get_save_progress (SequinDocument  *self,
                                   SequinSaveStage *stage,
                                   guint64         *bytes)
{
  SaveData *data;

  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), FALSE);

  if (self->save_task == NULL || g_task_get_completed (self->save_task)
      || (data = g_task_get_task_data (self->save_task)) == NULL)
    return FALSE;
  *stage = MAX (g_atomic_int_get (&data->stage), SEQUIN_SAVE_STAGE_CONVERTING);
  *bytes = GPOINTER_TO_SIZE (g_atomic_pointer_get (&data->bytes));
  return TRUE;
}

gboolean
sequin_document_save_finish (SequinDocument  *self,
                             GAsyncResult    *result,
                             GStrv           *losses,
                             GStrv           *notes,
                             GError         **error)
{
  SaveData *data;

  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  data = g_task_get_task_data (G_TASK (result));
  if (data != NULL)
    set_busy (self, FALSE);
  if (self->save_task == G_TASK (result))
    g_clear_object (&self->save_task);

  if (losses != NULL)
    /* a cancelled worker may still be adding to them */
    *losses = lines_of (data != NULL && data->worked ? data->losses : NULL);
  if (notes != NULL)
    *notes = lines_of (data != NULL && data->worked ? data->notes : NULL);

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
