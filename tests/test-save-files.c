/* test-save-files.c: the one rule of every save (sq_save_files) and the
 * writing of a save's files together (src/io)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The folders are real ones in a temporary directory, holding the Sims test
 * skills of tests/data/sims and others made from them: a skill saved under
 * a new name gets a CFP of its own; saving over the same CMX keeps its CFP;
 * a CFP another skill names is flagged; a write that fails in either file
 * of the pair, or a rename that fails, leaves both old files as they were;
 * a save killed at any point leaves, as Sequin reads the folder after, both
 * old files or both new ones.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sq-io.h"
#include "test-utils.h"

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "sims", name, NULL);
}

/* `name` of tests/data/sims into `dir` as `as`, every `from` in it made
 * `cfp` when not NULL */
static void
put (const char *dir,
     const char *name,
     const char *as,
     const char *from,
     const char *cfp)
{
  g_autofree char *src = data_path (name);
  g_autofree char *dest = g_build_filename (dir, as, NULL);

  tu_copy_renamed (src, dest, from, cfp);
}

/* every entry of `dir` and itself */
static void
remove_tree (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *entry;

  while (d != NULL && (entry = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, entry, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        remove_tree (path);
      else
        g_unlink (path);
    }
  g_rmdir (dir);
}

static const SqSaveFile *
file_named (GPtrArray  *files,
            const char *name)
{
  for (guint i = 0; i < files->len; i++)
    if (g_str_equal (((SqSaveFile *) files->pdata[i])->name, name))
      return files->pdata[i];
  return NULL;
}

/* The names: a new name, the same file, a name whose CFP another skill
 * names, a CFP nobody names, a clip from another format */
static void
test_names (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sequin-save-XXXXXX", NULL);
  g_autoptr(SqClip) walk = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  const SqFormat *cmx = sq_format_by_id ("sims-cmx");
  SqSaveOptions options = { 0 };
  SqFolder folder;
  const SqSaveFile *f;

  put (dir, "walk.cmx", "walk.cmx", NULL, NULL);
  put (dir, "xskill-walk.cfp", "xskill-walk.cfp", NULL, NULL);
  sq_io_folder_init (&folder, dir);
  walk = tu_load_in (dir, "walk.cmx");
  options.notes = notes;

  /* a new name: a CFP of its own, which the CMX names, and a note */
  files = sq_save_files (walk, cmx, "mirrored.cmx", &folder, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (files->len, ==, 2);
  g_assert_cmpstr (((SqSaveFile *) files->pdata[0])->name, ==, "mirrored.cmx");
  f = file_named (files, "xskill-mirrored.cfp");
  g_assert_nonnull (f);
  g_assert_null (f->conflict);
  g_assert_cmpuint (notes->len, ==, 1);
  g_assert_cmpstr (notes->pdata[0], ==, "keys in xskill-mirrored.cfp");
  {
    g_autoptr(GBytes) main = g_bytes_ref (((SqSaveFile *) files->pdata[0])->pieces->pdata[0]);
    g_assert_nonnull (g_strstr_len (g_bytes_get_data (main, NULL), (gssize) g_bytes_get_size (main), "\nxskill-mirrored\r\n"));
  }
  g_clear_pointer (&files, g_ptr_array_unref);
  g_ptr_array_set_size (notes, 0);

  /* the same file: its own CFP, as it was, no note */
  files = sq_save_files (walk, cmx, "walk.cmx", &folder, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (files->len, ==, 2);
  f = file_named (files, "xskill-walk.cfp");
  g_assert_nonnull (f);
  g_assert_null (f->conflict);
  g_assert_cmpuint (notes->len, ==, 0);
  g_clear_pointer (&files, g_ptr_array_unref);

  /* another skill names the CFP the new name gets: flagged, naming it */
  put (dir, "walk.cmx", "other.cmx", "xskill-walk", "xskill-mirrored");
  put (dir, "xskill-walk.cfp", "xskill-mirrored.cfp", NULL, NULL);
  files = sq_save_files (walk, cmx, "mirrored.cmx", &folder, &options, NULL, &error);
  g_assert_no_error (error);
  f = file_named (files, "xskill-mirrored.cfp");
  g_assert_cmpstr (f->conflict, ==, "“xskill-mirrored.cfp” belongs to “other.cmx”");
  g_clear_pointer (&files, g_ptr_array_unref);

  /* the same file, when another skill shares its CFP: flagged too */
  put (dir, "walk.cmx", "twin.cmx", NULL, NULL);
  files = sq_save_files (walk, cmx, "walk.cmx", &folder, &options, NULL, &error);
  f = file_named (files, "xskill-walk.cfp");
  g_assert_cmpstr (f->conflict, ==, "“xskill-walk.cfp” belongs to “twin.cmx”");
  g_clear_pointer (&files, g_ptr_array_unref);

  /* a CFP that exists and no file names: not this output's either */
  put (dir, "xskill-walk.cfp", "xskill-stray.cfp", NULL, NULL);
  files = sq_save_files (walk, cmx, "stray.cmx", &folder, &options, NULL, &error);
  f = file_named (files, "xskill-stray.cfp");
  g_assert_cmpstr (f->conflict, ==, "“xskill-stray.cfp” exists and is not “stray.cmx”’s");
  g_clear_pointer (&files, g_ptr_array_unref);

  /* a file of another format: one file, no companion */
  files = sq_save_files (walk, sq_format_by_id ("bvh"), "walk.bvh", &folder, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (files->len, ==, 1);
  g_clear_pointer (&files, g_ptr_array_unref);

  /* sq_io_save refuses a conflict and writes nothing */
  {
    g_autofree char *before = tu_folder_sums (dir);
    g_autofree char *after = NULL;
    g_autofree char *out = g_build_filename (dir, "mirrored.cmx", NULL);
    g_autoptr(GPtrArray) written = sq_io_save (out, walk, cmx, NULL, NULL, FALSE, &error);

    g_assert_null (written);
    g_assert_error (error, SQ_IO_ERROR, SQ_IO_ERROR_COMPANION_TAKEN);
    after = tu_folder_sums (dir);
    g_assert_cmpstr (after, ==, before);
  }
  remove_tree (dir);
}

/* Saving `name` (a skill, mirrored) over itself with the file size limit
 * `limit`: refused, and the folder as it was */
static void
assert_failed_write_changes_nothing (const char *name,
                                     const char *cfp,
                                     rlim_t      limit_bytes)
{
  g_autofree char *dir = g_dir_make_tmp ("sequin-pair-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, name, NULL);
  g_autofree char *before = NULL, *after = NULL;
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(SqEdit) edit = sq_edit_mirror_new ();
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) error = NULL;
  struct rlimit old_limit, limit;
  void (*old_handler) (int) = signal (SIGXFSZ, SIG_IGN);

  put (dir, name, name, NULL, NULL);
  put (dir, cfp, cfp, NULL, NULL);
  clip = tu_load_in (dir, name);
  g_assert_true (sq_edit_apply (edit, clip, NULL));
  before = tu_folder_sums (dir);

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
  limit = old_limit;
  limit.rlim_cur = limit_bytes;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  files = sq_io_save (out, clip, clip->format, NULL, NULL, FALSE, &error);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
  signal (SIGXFSZ, old_handler);

  g_assert_null (files);
  g_assert_nonnull (error);
  g_assert_true (error->domain == G_FILE_ERROR);
  g_assert_nonnull (strstr (error->message, "cannot write it"));
  g_test_message ("%s: %s", name, error->message);
  after = tu_folder_sums (dir);
  g_assert_cmpstr (after, ==, before);

  /* and without the limit the same save writes both */
  g_clear_error (&error);
  files = sq_io_save (out, clip, clip->format, NULL, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_clear_pointer (&after, g_free);
  after = tu_folder_sums (dir);
  g_assert_cmpstr (after, !=, before);
  remove_tree (dir);
}

/* A write that fails in the CFP (walk: a CFP of 10 KB, a CMX of 1 KB), then
 * in the CMX (nod: a CMX of 275 bytes, a CFP of 80) */
static void
test_failed_write (void)
{
  assert_failed_write_changes_nothing ("walk.cmx", "xskill-walk.cfp", 4000);
  assert_failed_write_changes_nothing ("nod.cmx", "xskill-nod.cfp", 200);
}

/* A rename that fails (the output's name is taken by a folder) after the
 * CFP's: the CFP goes back to what it was */
static void
test_failed_rename (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sequin-rename-XXXXXX", NULL);
  g_autofree char *blocker = g_build_filename (dir, "out.cmx", NULL);
  g_autofree char *inside = g_build_filename (blocker, "keep", NULL);
  g_autofree char *before = NULL, *after = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_save_file_free);
  g_autoptr(GError) error = NULL;
  const char *names[] = { "out.cmx", "xskill-out.cfp" };

  put (dir, "xskill-walk.cfp", "xskill-out.cfp", NULL, NULL);
  g_assert_cmpint (g_mkdir (blocker, 0700), ==, 0);
  g_assert_true (g_file_set_contents (inside, "a folder is no file", -1, NULL));
  before = tu_folder_sums (dir);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      SqSaveFile *f = g_new0 (SqSaveFile, 1);

      f->name = g_strdup (names[i]);
      f->pieces = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      g_ptr_array_add (f->pieces, g_bytes_new_static ("new", 3));
      g_ptr_array_add (files, f);
    }
  g_assert_false (sq_io_write_files (dir, files, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  after = tu_folder_sums (dir);
  g_assert_cmpstr (after, ==, before);
  remove_tree (dir);
}

/* ---- a save killed half way ---------------------------------------------- */

static int stop_fd = -1;
static const char *stop_stage;

/* in the child: at `stop_stage`, tell the parent and wait for its SIGKILL */
static void
stop_at (const char *stage)
{
  if (!g_str_equal (stage, stop_stage))
    return;
  if (write (stop_fd, "!", 1) != 1)
    _exit (3);
  for (;;)
    pause ();
}

static GBytes *
joined (const SqSaveFile *file)
{
  g_autoptr(GByteArray) all = g_byte_array_new ();

  for (guint i = 0; i < file->pieces->len; i++)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (file->pieces->pdata[i], &len);

      g_byte_array_append (all, data, (guint) len);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&all));
}

static gboolean
file_is (const char *dir,
         const char *name,
         GBytes     *expected)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GBytes) bytes = tu_read (path);

  return g_bytes_equal (bytes, expected);
}

/* walk.cmx, mirrored, saved over itself by a child process killed at
 * `stage` (sq_io_set_stage_hook): the folder then holds, once Sequin has
 * looked at it (sq_io_finish_saves, before every load), both old files
 * (killed before the commit) or both new ones, and the skill reads as
 * one or the other; what the killed save left is never read */
static void
assert_killed_save (const char *stage,
                    gboolean    expect_new)
{
  g_autofree char *dir = g_dir_make_tmp ("sequin-killed-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "walk.cmx", NULL);
  g_autofree char *cmx_path = g_build_filename (dir, "walk.cmx", NULL);
  g_autofree char *cfp_path = g_build_filename (dir, "xskill-walk.cfp", NULL);
  g_autoptr(GBytes) old_cmx = NULL, old_cfp = NULL, new_cmx = NULL, new_cfp = NULL;
  g_autoptr(SqClip) clip = NULL, after = NULL, expected = NULL;
  g_autoptr(SqEdit) edit = sq_edit_mirror_new ();
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *listing = NULL, *dump_after = NULL, *dump_expected = NULL;
  SqFolder folder;
  int fds[2], status = 0;
  char c = 0;
  pid_t pid;

  put (dir, "walk.cmx", "walk.cmx", NULL, NULL);
  put (dir, "xskill-walk.cfp", "xskill-walk.cfp", NULL, NULL);
  old_cmx = tu_read (cmx_path);
  old_cfp = tu_read (cfp_path);
  clip = tu_load_in (dir, "walk.cmx");
  g_assert_true (sq_edit_apply (edit, clip, NULL));
  /* the CMX changes too: the skill's name is in it */
  sq_props_set (clip->extra, "skill", g_variant_new_string ("walk mirrored"));
  sq_io_folder_init (&folder, dir);
  files = sq_save_files (clip, clip->format, "walk.cmx", &folder, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (files->len, ==, 2);
  new_cmx = joined (file_named (files, "walk.cmx"));
  new_cfp = joined (file_named (files, "xskill-walk.cfp"));
  g_assert_false (g_bytes_equal (new_cfp, old_cfp));
  g_assert_false (g_bytes_equal (new_cmx, old_cmx));

  g_assert_cmpint (pipe (fds), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      close (fds[0]);
      stop_fd = fds[1];
      stop_stage = stage;
      sq_io_set_stage_hook (stop_at);
      sq_io_save (out, clip, clip->format, NULL, NULL, FALSE, NULL);
      _exit (2);   /* the stage never came */
    }
  close (fds[1]);
  g_assert_cmpint (read (fds[0], &c, 1), ==, 1);
  close (fds[0]);
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL);
  listing = tu_folder_sums (dir);
  g_test_message ("killed at %s, the folder:\n%s", stage, listing);
  /* between the renames the disk itself holds a mix: the journal is what
   * finishes it */
  if (g_str_equal (stage, "renamed"))
    {
      g_assert_true (file_is (dir, "xskill-walk.cfp", new_cfp));
      g_assert_true (file_is (dir, "walk.cmx", old_cmx));
      g_assert_nonnull (strstr (listing, "walk.cmx.sequin-save "));
    }

  sq_io_finish_saves (dir);
  g_clear_pointer (&listing, g_free);
  listing = tu_folder_sums (dir);
  g_assert_null (strstr (listing, ".sequin-save "));
  g_assert_true (file_is (dir, "walk.cmx", expect_new ? new_cmx : old_cmx));
  g_assert_true (file_is (dir, "xskill-walk.cfp", expect_new ? new_cfp : old_cfp));
  /* the skill reads as the clip saved or as it was (what the killed save
   * left beside it, "walk.cmx.XXXXXX" and the like, is not read) */
  after = tu_load_in (dir, "walk.cmx");
  if (expect_new)
    expected = sq_clip_copy (clip);
  else
    {
      g_autoptr(GBytes) bytes = g_bytes_ref (old_cmx);
      SqLoadOptions options = { .companion = tu_read_beside, .companion_data = NULL };
      g_autofree char *original = g_dir_make_tmp ("sequin-original-XXXXXX", NULL);

      put (original, "walk.cmx", "walk.cmx", NULL, NULL);
      put (original, "xskill-walk.cfp", "xskill-walk.cfp", NULL, NULL);
      options.companion_data = original;
      expected = sq_load_bytes (bytes, "walk.cmx", NULL, &options, &error);
      g_assert_no_error (error);
      remove_tree (original);
    }
  g_assert_cmpuint (sq_clip_count_keys (after), ==, sq_clip_count_keys (expected));
  for (gsize j = 0; j < after->n_joints; j++)
    for (guint ch = 0; ch < SQ_N_CHANNELS; ch++)
      {
        const SqTrack *a = &after->joints[j].tracks[ch], *e = &expected->joints[j].tracks[ch];

        g_assert_cmpuint (a->n_keys, ==, e->n_keys);
        for (gsize k = 0; k < a->n_keys; k++)
          for (int d = 0; d < 4; d++)
            g_assert_cmpfloat_with_epsilon (sq_track_key (a, k).v[d], sq_track_key (e, k).v[d], 1e-3);
      }

  /* and the next save there goes through */
  g_clear_pointer (&files, g_ptr_array_unref);
  files = sq_io_save (out, clip, clip->format, NULL, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (file_is (dir, "walk.cmx", new_cmx));
  g_assert_true (file_is (dir, "xskill-walk.cfp", new_cfp));
  remove_tree (dir);
}

static void
test_killed_save (void)
{
  assert_killed_save ("written", FALSE);
  assert_killed_save ("committed", TRUE);
  assert_killed_save ("renamed", TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/save-files/names", test_names);
  g_test_add_func ("/save-files/failed-write", test_failed_write);
  g_test_add_func ("/save-files/failed-rename", test_failed_rename);
  g_test_add_func ("/save-files/killed-save", test_killed_save);

  return g_test_run ();
}
