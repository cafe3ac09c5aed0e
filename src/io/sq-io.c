/* sq-io.c: the files of a save, written together
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-io"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sq-io.h"

G_DEFINE_QUARK (sq-io-error-quark, sq_io_error)

/* ---- the folder ------------------------------------------------------------ */

static GBytes *
folder_read (const char *name,
             char      **found,
             gpointer    data)
{
  const char *dir = data;
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *entry_name = g_strdup (name);
  char *contents = NULL;
  gsize len = 0;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
      const char *entry;

      g_clear_pointer (&path, g_free);
      while (d != NULL && (entry = g_dir_read_name (d)) != NULL)
        if (g_ascii_strcasecmp (entry, name) == 0)
          {
            path = g_build_filename (dir, entry, NULL);
            g_free (entry_name);
            entry_name = g_strdup (entry);
            break;
          }
    }
  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR)
      || !g_file_get_contents (path, &contents, &len, NULL))
    return NULL;
  if (found != NULL)
    *found = g_steal_pointer (&entry_name);
  return g_bytes_new_take (contents, len);
}

static char **
folder_list (gpointer data)
{
  g_autoptr(GDir) d = g_dir_open (data, 0, NULL);
  GPtrArray *names = g_ptr_array_new ();
  const char *entry;

  while (d != NULL && (entry = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (entry));
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

void
sq_io_folder_init (SqFolder   *folder,
                   const char *dir)
{
  folder->read = folder_read;
  folder->list = folder_list;
  folder->data = (gpointer) dir;
}

/* ---- writing --------------------------------------------------------------- */

static gboolean
write_all (int           fd,
           const guint8 *data,
           gsize         len)
{
  while (len > 0)
    {
      gssize n = write (fd, data, MIN (len, (gsize) G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = EIO;
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* The pieces one after another into a temporary file beside `path` (with
 * its permissions when it exists); when `path` exists the data reaches the
 * disk before the rename, so that a crash leaves the old file or the new
 * one, never an empty one */
static char *
write_temp (const char *path,
            GPtrArray  *pieces,
            GError    **error)
{
  struct stat st;
  int mode = 0666, fd, saved;
  gboolean exists = g_stat (path, &st) == 0;
  g_autofree char *tmp = g_strconcat (path, ".XXXXXX", NULL);

  if (exists)
    mode = st.st_mode & 0777;
  fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, mode);
  if (fd < 0)
    {
      saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("cannot create a temporary file beside it: %s"), g_strerror (saved));
      return NULL;
    }
  for (guint i = 0; i < pieces->len; i++)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (pieces->pdata[i], &len);

      if (!write_all (fd, data, len))
        goto failed;
    }
  if (exists && fsync (fd) != 0)
    goto failed;
  saved = close (fd);
  fd = -1;
  if (saved != 0)
    goto failed;
  return g_steal_pointer (&tmp);

failed:
  saved = errno;
  if (fd >= 0)
    close (fd);
  g_unlink (tmp);
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _("cannot write it: %s"), g_strerror (saved));
  return NULL;
}

/* A hard link to the file at `path` as it is, to put back if a later
 * rename fails; NULL when there is none */
static char *
keep_old (const char *path)
{
  g_autofree char *keep = g_strconcat (path, ".old-XXXXXX", NULL);
  int fd = g_mkstemp_full (keep, O_RDWR | O_CLOEXEC, 0600);

  if (fd < 0)
    return NULL;
  close (fd);
  /* the name is ours now; the link takes its place */
  g_unlink (keep);
  if (link (path, keep) != 0)
    return NULL;
  return g_steal_pointer (&keep);
}

static gboolean
rename_all (GPtrArray  *tmps,
            GPtrArray  *paths,
            GError    **error)
{
  g_autoptr(GPtrArray) olds = g_ptr_array_new_with_free_func (g_free);
  gboolean ok = TRUE;
  guint done = 0;

  for (guint i = 0; i < paths->len; i++)
    g_ptr_array_add (olds, tmps->len > 1 ? keep_old (paths->pdata[i]) : NULL);
  for (; ok && done < tmps->len; done++)
    if (g_rename (tmps->pdata[done], paths->pdata[done]) != 0)
      {
        int saved = errno;
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _("cannot write it: %s"), g_strerror (saved));
        ok = FALSE;
        break;
      }
    else
      g_clear_pointer (&tmps->pdata[done], g_free);
  /* a rename failed: the files renamed over go back as they were */
  for (guint i = 0; !ok && i < done; i++)
    if (olds->pdata[i] != NULL && g_rename (olds->pdata[i], paths->pdata[i]) == 0)
      g_clear_pointer (&olds->pdata[i], g_free);
    else if (olds->pdata[i] == NULL)
      g_unlink (paths->pdata[i]);
  for (guint i = 0; i < olds->len; i++)
    if (olds->pdata[i] != NULL)
      g_unlink (olds->pdata[i]);
  return ok;
}

gboolean
sq_io_write_files (const char *dir,
                   GPtrArray  *files,
                   GError    **error)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) tmps = g_ptr_array_new_with_free_func (g_free);
  gboolean ok = TRUE;

  /* the companions first, the output last: a reader of the output finds
   * its companions there */
  for (guint n = 0; ok && n < files->len; n++)
    {
      const SqSaveFile *file = files->pdata[(n + 1) % files->len];
      g_autoptr(GError) local = NULL;
      char *tmp;

      g_ptr_array_add (paths, g_build_filename (dir, file->name, NULL));
      tmp = write_temp (paths->pdata[n], file->pieces, &local);
      if (tmp == NULL)
        {
          g_set_error (error, local->domain, local->code, "%s: %s", file->name, local->message);
          ok = FALSE;
        }
      else
        g_ptr_array_add (tmps, tmp);
    }
  if (ok)
    ok = rename_all (tmps, paths, error);
  for (guint i = 0; i < tmps->len; i++)
    if (tmps->pdata[i] != NULL)
      g_unlink (tmps->pdata[i]);
  return ok;
}

GPtrArray *
sq_io_save (const char          *path,
            const SqClip        *clip,
            const SqFormat      *format,
            const SqSaveOptions *options,
            GPtrArray           *losses,
            gboolean             replace_taken,
            GError             **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *name = g_path_get_basename (path);
  g_autoptr(GPtrArray) files = NULL;
  SqFolder folder;

  sq_io_folder_init (&folder, dir);
  files = sq_save_files (clip, format, name, &folder, options, losses, error);
  if (files == NULL)
    return NULL;
  for (guint i = 0; !replace_taken && i < files->len; i++)
    {
      const SqSaveFile *file = files->pdata[i];

      if (file->conflict != NULL)
        {
          g_set_error_literal (error, SQ_IO_ERROR, SQ_IO_ERROR_COMPANION_TAKEN, file->conflict);
          return NULL;
        }
    }
  if (!sq_io_write_files (dir, files, error))
    return NULL;
  return g_steal_pointer (&files);
}
