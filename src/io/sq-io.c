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
#include <sys/file.h>
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
            gboolean    sync,
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
  if ((exists || sync) && fsync (fd) != 0)
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

/* ---- the journal of a save of several files -------------------------------- */

/* A save of several files (a CMX and its CFP) cannot rename them all at
 * once. Once every temporary file is complete (and on disk), a journal
 * beside the output, "OUTPUT.sequin-save", names each temporary file and
 * the file it becomes (NUL-separated pairs, temporary file first): it is
 * put in place by a rename (the save's commit), locked while the renames
 * run and removed after them. A save killed between two renames leaves it,
 * unlocked: the next save or load through Sequin in that folder
 * (sq_io_finish_saves) makes the renames left. A folder seen through
 * Sequin holds the old files or the new ones, never a mix. */
#define JOURNAL_SUFFIX ".sequin-save"

static void (*stage_hook) (const char *stage);

void
sq_io_set_stage_hook (void (*hook) (const char *stage))
{
  stage_hook = hook;
}

static void
stage (const char *name)
{
  if (stage_hook != NULL)
    stage_hook (name);
}

/* The journal of `tmps` → `paths` in place and locked: its descriptor
 * (kept until the renames are done), or -1 with an error */
static int
journal_begin (const char *journal,
               GPtrArray  *tmps,
               GPtrArray  *paths,
               GError    **error)
{
  g_autofree char *tmp = g_strconcat (journal, ".XXXXXX", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  int fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0600), saved;

  for (guint i = 0; i < tmps->len; i++)
    {
      g_autofree char *from = g_path_get_basename (tmps->pdata[i]);
      g_autofree char *to = g_path_get_basename (paths->pdata[i]);

      g_string_append_len (text, from, (gssize) strlen (from) + 1);
      g_string_append_len (text, to, (gssize) strlen (to) + 1);
    }
  if (fd >= 0 && write_all (fd, (const guint8 *) text->str, text->len) && fsync (fd) == 0
      && flock (fd, LOCK_EX) == 0 && g_rename (tmp, journal) == 0)
    return fd;
  saved = errno;
  if (fd >= 0)
    close (fd);
  g_unlink (tmp);
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
               _("cannot write the save's journal beside it: %s"), g_strerror (saved));
  return -1;
}

/* `tmp` is what a save of `name` makes: "NAME.XXXXXX", both plain names */
static gboolean
journal_pair_ok (const char *tmp,
                 const char *name)
{
  gsize n = strlen (name);

  return n > 0 && strchr (name, '/') == NULL && strcmp (name, ".") != 0 && strcmp (name, "..") != 0
         && strlen (tmp) == n + 7 && strncmp (tmp, name, n) == 0 && tmp[n] == '.' && strchr (tmp, '/') == NULL;
}

/* The renames a killed save left, from its journal `path` (unless a save
 * still holds its lock, or it is no journal of ours) */
static void
journal_finish (const char *dir,
                const char *path)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  struct stat locked, now;
  g_autofree char *text = NULL;
  gsize len = 0, pos = 0;

  if (fd < 0)
    return;
  /* locked: a save is renaming; another inode: that save is done and a
   * new one began */
  if (flock (fd, LOCK_EX | LOCK_NB) != 0 || fstat (fd, &locked) != 0 || g_stat (path, &now) != 0
      || locked.st_ino != now.st_ino || locked.st_dev != now.st_dev
      || !g_file_get_contents (path, &text, &len, NULL))
    {
      close (fd);
      return;
    }
  for (pos = 0; pos < len;)
    {
      const char *from = text + pos, *to = memchr (from, '\0', len - pos);

      if (to == NULL || ++to >= text + len || memchr (to, '\0', (gsize) (text + len - to)) == NULL
          || !journal_pair_ok (from, to))
        break;
      pos = (gsize) (to - text) + strlen (to) + 1;
    }
  for (gsize at = 0; pos == len && at < len;)
    {
      const char *from = text + at, *to = from + strlen (from) + 1;
      g_autofree char *from_path = g_build_filename (dir, from, NULL);
      g_autofree char *to_path = g_build_filename (dir, to, NULL);

      if (g_file_test (from_path, G_FILE_TEST_IS_REGULAR))
        g_rename (from_path, to_path);
      at = (gsize) (to - text) + strlen (to) + 1;
    }
  if (pos == len)
    g_unlink (path);
  close (fd);
}

void
sq_io_finish_saves (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *entry;

  while (d != NULL && (entry = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (entry, JOURNAL_SUFFIX))
      {
        g_autofree char *path = g_build_filename (dir, entry, NULL);

        journal_finish (dir, path);
      }
}

/* The renames of `tmps` over `paths` (the output last); of several files,
 * under the journal (above) */
static gboolean
rename_all (GPtrArray  *tmps,
            GPtrArray  *paths,
            GError    **error)
{
  g_autoptr(GPtrArray) olds = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *journal = NULL;
  int journal_fd = -1;
  gboolean ok = TRUE;
  guint done = 0;

  if (tmps->len > 1)
    {
      stage ("written");
      journal = g_strconcat (paths->pdata[paths->len - 1], JOURNAL_SUFFIX, NULL);
      if ((journal_fd = journal_begin (journal, tmps, paths, error)) < 0)
        return FALSE;
      stage ("committed");
    }
  for (guint i = 0; i < paths->len; i++)
    g_ptr_array_add (olds, tmps->len > 1 ? keep_old (paths->pdata[i]) : NULL);
  for (; ok && done < tmps->len; done++)
    {
      if (done == 1)
        stage ("renamed");
      if (g_rename (tmps->pdata[done], paths->pdata[done]) != 0)
        {
          int saved = errno;
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _("cannot write it: %s"), g_strerror (saved));
          ok = FALSE;
          break;
        }
      g_clear_pointer (&tmps->pdata[done], g_free);
    }
  /* a rename failed: the files renamed over go back as they were */
  for (guint i = 0; !ok && i < done; i++)
    if (olds->pdata[i] != NULL && g_rename (olds->pdata[i], paths->pdata[i]) == 0)
      g_clear_pointer (&olds->pdata[i], g_free);
    else if (olds->pdata[i] == NULL)
      g_unlink (paths->pdata[i]);
  for (guint i = 0; i < olds->len; i++)
    if (olds->pdata[i] != NULL)
      g_unlink (olds->pdata[i]);
  if (journal_fd >= 0)
    {
      g_unlink (journal);
      close (journal_fd);
    }
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
      tmp = write_temp (paths->pdata[n], file->pieces, files->len > 1, &local);
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

  sq_io_finish_saves (dir);
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
