/* test-save-safety.c: sequin-cli killed with SIGKILL while it writes a large
 * output leaves the destination either the complete old file or the
 * complete new one, never a mix or a truncation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-utils.h"

static GBytes *
big_clip_bytes (void)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  SqSaveOptions opts = { .no_source_copy = TRUE };

  g_free (clip->root);
  clip->root = g_strdup ("pelvis");
  clip->duration = 59999 / 30.0;
  for (guint j = 0; j < 20; j++)
    {
      g_autofree char *name = g_strdup_printf ("joint%u", j);
      SqJoint *joint = sq_clip_add_joint (clip, j == 0 ? "pelvis" : name);

      sq_track_reserve (&joint->tracks[SQ_CHANNEL_ROTATION], 60000);
      for (guint k = 0; k < 60000; k++)
        {
          SqKey *key = sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], k / 30.0);
          key->v[0] = (float) cos (k * 0.001 + j);
          key->v[2] = (float) sin (k * 0.001 + j);
        }
    }
  return sq_save_bytes (clip, sq_format_by_id ("seq-binary"), &opts, NULL, NULL);
}

static void
test_sigkill (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sequin-kill-XXXXXX", NULL);
  g_autofree char *in = g_build_filename (dir, "big.seq", NULL);
  g_autofree char *dest = g_build_filename (dir, "out.seq", NULL);
  g_autofree char *ref = g_build_filename (dir, "ref.seq", NULL);
  g_autoptr(GBytes) big = big_clip_bytes ();
  g_autoptr(GBytes) want_new = NULL;
  const char *old = "the old file, complete";
  const char *cli = g_getenv ("SEQUIN_CLI");
  guint saw_old = 0, saw_new = 0;

  g_assert_true (g_file_set_contents (in, g_bytes_get_data (big, NULL), g_bytes_get_size (big), NULL));

  /* the reference: the same conversion, not interrupted */
  {
    const char *argv[] = { cli, "convert", "--to", "seq-text", in, ref, NULL };
    int status;
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                                 NULL, NULL, &status, NULL));
    g_assert_cmpint (status, ==, 0);
    want_new = tu_read (ref);
    g_test_message ("output of %" G_GSIZE_FORMAT " bytes", g_bytes_get_size (want_new));
  }

  for (guint delay_ms = 2; delay_ms < 4000; delay_ms = delay_ms * 3 / 2 + 1)
    {
      const char *argv[] = { cli, "convert", "--to", "seq-text", in, dest, NULL };
      g_autoptr(GBytes) got = NULL;
      GPid pid;
      int status;

      g_assert_true (g_file_set_contents (dest, old, -1, NULL));
      g_assert_true (g_spawn_async (NULL, (char **) argv, NULL,
                                    G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                                    &pid, NULL));
      g_usleep (delay_ms * 1000);
      kill (pid, SIGKILL);
      waitpid (pid, &status, 0);
      g_spawn_close_pid (pid);

      got = tu_read (dest);
      if (g_bytes_get_size (got) == strlen (old) && memcmp (g_bytes_get_data (got, NULL), old, strlen (old)) == 0)
        saw_old++;
      else if (g_bytes_equal (got, want_new))
        saw_new++;
      else
        g_error ("killed after %u ms: the destination is neither the old nor the new file (%" G_GSIZE_FORMAT " bytes)",
                 delay_ms, g_bytes_get_size (got));
      if (saw_new > 0 && WIFEXITED (status))
        break;   /* finished before the kill: longer delays prove nothing more */
    }
  g_test_message ("old file kept %u times, new file complete %u times", saw_old, saw_new);
  g_assert_cmpuint (saw_old, >, 0);

  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (dir, name, NULL);
        g_unlink (p);
      }
    g_rmdir (dir);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/save-safety/sigkill", test_sigkill);
  return g_test_run ();
}
