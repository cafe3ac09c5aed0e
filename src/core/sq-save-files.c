/* sq-save-files.c: what a save writes into a folder, and what it may not replace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one rule every save follows (the editor's Save and Save As, the CLI's
 * convert and edit, one file or a batch): the file it was given, and the
 * companions that belong to that name. No I/O here: the folder is read
 * through SqFolder, and src/io writes the files together.
 */
#define G_LOG_DOMAIN "sq-format"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "sq-parallel.h"
#include "sq-private.h"

void
sq_save_file_free (SqSaveFile *file)
{
  if (file == NULL)
    return;
  g_free (file->name);
  g_clear_pointer (&file->pieces, g_ptr_array_unref);
  g_free (file->conflict);
  g_free (file);
}

static gboolean
has_name (char * const *names,
          const char   *name)
{
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    if (g_ascii_strcasecmp (names[i], name) == 0)
      return TRUE;
  return FALSE;
}

/* the companions `name`, an entry of the folder, refers to (NULL: none) */
static char **
companions_in_entry (const SqFolder *folder,
                     const char     *name,
                     const SqFormat *format)
{
  const SqFormat *of = sq_format_for_filename (name, format);
  g_autoptr(GBytes) bytes = NULL;

  if (of == NULL || !(of->flags & SQ_FORMAT_COMPANIONS) || of->companions_in == NULL)
    return NULL;
  if ((bytes = folder->read (name, NULL, folder->data)) == NULL)
    return NULL;
  return of->companions_in (bytes);
}

/* The names the companions get: the clip's own when the output exists and
 * names them (the same file saved again), the output's own when it names
 * as many as the clip has (a file saved over another), else the ones that
 * follow the output's name */
static char **
companion_names (const SqClip   *clip,
                 const SqFormat *format,
                 const char     *out_name,
                 char * const   *named)
{
  g_auto(GStrv) own = clip->format == format && format->companions_of != NULL ? format->companions_of (clip) : NULL;
  gboolean all = own != NULL && own[0] != NULL;

  for (guint i = 0; all && own[i] != NULL; i++)
    all = has_name (named, own[i]);
  if (all)
    return g_steal_pointer (&own);
  if (named != NULL && named[0] != NULL && g_strv_length ((char **) named) == (own != NULL ? MAX (g_strv_length (own), 1) : 1))
    return g_strdupv ((char **) named);
  return format->companions_for != NULL ? format->companions_for (out_name) : NULL;
}

/* Why `file` (a companion that exists, as `found`) may not be replaced, or
 * NULL: another entry of the folder names it, or the output does not */
static char *
conflict_of (const SqFolder *folder,
             const SqFormat *format,
             const char     *out_name,
             const char     *found,
             char * const   *named)
{
  g_auto(GStrv) entries = folder->list != NULL ? folder->list (folder->data) : NULL;

  for (guint i = 0; entries != NULL && entries[i] != NULL; i++)
    {
      g_auto(GStrv) names = NULL;

      if (g_str_equal (entries[i], out_name) || g_str_equal (entries[i], found))
        continue;
      names = companions_in_entry (folder, entries[i], format);
      if (has_name (names, found))
        /* TRANSLATORS: the first %s is a file's name, the second another file's */
        return g_strdup_printf (_("“%s” belongs to “%s”"), found, entries[i]);
    }
  if (!has_name (named, found))
    /* TRANSLATORS: the first %s is a file's name, the second the file being saved */
    return g_strdup_printf (_("“%s” exists and is not “%s”’s"), found, out_name);
  return NULL;
}

static SqSaveFile *
save_file_new (const char *name,
               GPtrArray  *pieces)
{
  SqSaveFile *file = g_new0 (SqSaveFile, 1);

  file->name = g_strdup (name);
  file->pieces = pieces;
  return file;
}

GPtrArray *
sq_save_files (const SqClip        *clip,
               const SqFormat      *format,
               const char          *out_name,
               const SqFolder      *folder,
               const SqSaveOptions *options,
               GPtrArray           *losses,
               GError             **error)
{
  static const SqSaveOptions defaults = { 0 };
  g_autoptr(GPtrArray) companions = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_companion_free);
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_save_file_free);
  g_auto(GStrv) named = NULL;
  g_auto(GStrv) names = NULL;
  SqSaveOptions opts;
  GPtrArray *pieces;

  g_return_val_if_fail (clip != NULL && format != NULL && out_name != NULL && folder != NULL, NULL);

  opts = options != NULL ? *options : defaults;
  if (strchr (out_name, '/') != NULL || out_name[0] == '\0')
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT, _("“%s” is not a file name"), out_name);
      return NULL;
    }
  if (format->flags & SQ_FORMAT_COMPANIONS)
    {
      g_autoptr(GBytes) existing = folder->read (out_name, NULL, folder->data);

      named = existing != NULL && format->companions_in != NULL ? format->companions_in (existing) : NULL;
      names = companion_names (clip, format, out_name, named);
      opts.companion_names = (const char * const *) names;
      opts.companions = companions;
    }
  pieces = sq_save_pieces (clip, format, &opts, losses, error);
  if (pieces == NULL)
    return NULL;
  g_ptr_array_add (files, save_file_new (out_name, pieces));
  for (guint i = 0; i < companions->len; i++)
    {
      const SqCompanion *c = companions->pdata[i];
      g_autofree char *found = NULL;
      g_autoptr(GBytes) there = NULL;
      SqSaveFile *file;

      if (strchr (c->name, '/') != NULL || c->name[0] == '.' || c->name[0] == '\0'
          || g_ascii_strcasecmp (c->name, out_name) == 0)
        {
          g_set_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                       _("the companion name “%s” is not a file beside “%s”"), c->name, out_name);
          return NULL;
        }
      there = folder->read (c->name, &found, folder->data);
      file = save_file_new (there != NULL && found != NULL ? found : c->name, _sq_pieces_new (g_bytes_ref (c->bytes)));
      if (there != NULL)
        file->conflict = conflict_of (folder, format, out_name, file->name, named);
      g_ptr_array_add (files, file);
    }
  return g_steal_pointer (&files);
}
