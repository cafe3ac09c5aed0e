/* test-open-progress.c: an open that takes a while shows how far it is and
 * can be cancelled, leaving the window as it was
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The slow file is a named pipe the test writes into a part at a time, so
 * that the open waits on it as long as the test wants.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sequin-test-ui.h"
#include "sequin-window-private.h"

static GtkWidget *
find_button (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_BUTTON (c))
        return c;
      if ((found = find_button (c)) != NULL)
        return found;
    }
  return NULL;
}

/* The text the progress bar's label shows that starts with `prefix`, or
 * NULL when it is hidden */
static char *
progress_text_of (SequinWindow *window,
                  const char   *prefix)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

  if (!gtk_widget_get_mapped (GTK_WIDGET (window->open_progress)))
    return NULL;
  sequin_test_collect_labels (GTK_WIDGET (window->open_progress), texts);
  for (guint i = 0; i < texts->len; i++)
    if (g_str_has_prefix (texts->pdata[i], prefix))
      return g_strdup (texts->pdata[i]);
  return NULL;
}

static char *
progress_text (SequinWindow *window)
{
  return progress_text_of (window, "Opening");
}

/* A named pipe in the test folder, opened for writing without waiting
 * for a reader (read and write: a FIFO so opened never blocks) */
static int
make_pipe (const char *name,
           char      **path)
{
  int fd;

  *path = g_build_filename (sequin_test_tmpdir (), name, NULL);
  g_unlink (*path);
  g_assert_cmpint (mkfifo (*path, 0600), ==, 0);
  fd = open (*path, O_RDWR);
  g_assert_cmpint (fd, >=, 0);
  return fd;
}

static void
write_all (int         fd,
           const char *data,
           gsize       len)
{
  while (len > 0)
    {
      gssize n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      data += n;
      len -= (gsize) n;
    }
}

static void
test_slow_open_cancelled (void)
{
  g_autofree char *sample = NULL, *path = NULL, *text = NULL;
  g_autofree char *contents = NULL;
  gsize len;
  g_autoptr(GFile) file = NULL;
  SequinWindow *window = sequin_test_window_new ();
  gint64 start;
  int fd;

  sample = g_build_filename (g_getenv ("SEQUIN_SAMPLE_DIR"), "wave.bvh", NULL);
  g_assert_true (g_file_get_contents (sample, &contents, &len, NULL));
  fd = make_pipe ("slow.bvh", &path);
  file = g_file_new_for_path (path);

  /* the first part of the file: the open waits for the rest */
  write_all (fd, contents, len / 2);
  start = g_get_monotonic_time ();
  sequin_window_open_file (window, file, FALSE);
  sequin_test_settle (SEQUIN_OPEN_PROGRESS_DELAY_MS / 2);
  /* not yet half a second: nothing shown */
  if (g_get_monotonic_time () - start < SEQUIN_OPEN_PROGRESS_DELAY_MS * 1000 - 50000)
    g_assert_null (progress_text (window));
  SEQUIN_TEST_WAIT_UNTIL ((text = progress_text (window)) != NULL);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, SEQUIN_OPEN_PROGRESS_DELAY_MS * 1000);
  /* the name and the bytes read so far */
  g_assert_nonnull (strstr (text, "slow.bvh"));
  g_assert_nonnull (strstr (text, "read"));
  g_assert_true (sequin_window_is_empty (window));

  /* Cancel: the window stays as it was, with no error */
  gtk_widget_activate (find_button (GTK_WIDGET (window->open_progress)));
  sequin_test_settle (300);
  g_assert_null (progress_text (window));
  g_assert_true (sequin_window_is_empty (window));
  g_assert_null (window->message_dialog);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->main_stack), ==, "empty");

  /* the rest written: the dropped open changes nothing */
  write_all (fd, contents + len / 2, len - len / 2);
  close (fd);
  sequin_test_settle (300);
  g_assert_true (sequin_window_is_empty (window));
  g_assert_null (window->message_dialog);

  /* and the window opens the next file as ever */
  sequin_test_window_open (window, sample);
  g_assert_false (sequin_window_is_empty (window));
  g_assert_cmpuint (sequin_test_window_clip (window)->n_joints, >, 0);
  g_unlink (path);
  sequin_test_window_destroy (window);
}

static void
test_slow_open_completes (void)
{
  g_autofree char *sample = NULL, *path = NULL, *text = NULL;
  g_autofree char *contents = NULL;
  gsize len;
  g_autoptr(GFile) file = NULL;
  SequinWindow *window = sequin_test_window_new ();
  int fd;

  sample = g_build_filename (g_getenv ("SEQUIN_SAMPLE_DIR"), "wave.bvh", NULL);
  g_assert_true (g_file_get_contents (sample, &contents, &len, NULL));
  fd = make_pipe ("slow-done.bvh", &path);
  file = g_file_new_for_path (path);
  write_all (fd, contents, 100);
  sequin_window_open_file (window, file, FALSE);
  SEQUIN_TEST_WAIT_UNTIL ((text = progress_text (window)) != NULL);
  /* a pipe has no size: the bytes so far, counted */
  g_assert_nonnull (strstr (text, "100 bytes read"));
  write_all (fd, contents + 100, len - 100);
  close (fd);
  SEQUIN_TEST_WAIT_UNTIL (!sequin_window_is_empty (window));
  sequin_test_settle (200);
  g_assert_null (progress_text (window));
  g_assert_cmpuint (sequin_test_window_clip (window)->n_joints, >, 0);
  g_unlink (path);
  sequin_test_window_destroy (window);
}

static void
test_quick_open_shows_nothing (void)
{
  g_autofree char *sample = g_build_filename (g_getenv ("SEQUIN_SAMPLE_DIR"), "wave.seq", NULL);
  SequinWindow *window = sequin_test_window_new ();

  sequin_test_window_open (window, sample);
  sequin_test_settle (SEQUIN_OPEN_PROGRESS_DELAY_MS + 200);
  g_assert_null (progress_text (window));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->open_progress)));
  sequin_test_window_destroy (window);
}

static double
slow_turn (guint key)
{
  return key * 0.001;
}

/* The names in the test folder that contain `part` (a save's temporary
 * files are named after the file) */
static guint
files_named (const char *part)
{
  g_autoptr(GDir) dir = g_dir_open (sequin_test_tmpdir (), 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    n += strstr (name, part) != NULL;
  return n;
}

/* `clip` written as text SEQ (no limit of frames) and opened in `window` */
static void
open_text_seq (SequinWindow *window,
               const SqClip *clip,
               const char   *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (sequin_test_tmpdir (), name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = sq_save_bytes (clip, sq_format_by_id ("seq-text"), NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  sequin_window_open_file (window, file, FALSE);
  SEQUIN_TEST_WAIT_UNTIL (sequin_window_get_document (window) != NULL);
}

/* A Save As that converts a large clip shows its stage; Cancel writes
 * nothing, leaves the document as it was, and the work left on the worker
 * writes nothing either */
static void
test_save_cancelled (void)
{
  g_autoptr(SqClip) clip = sequin_test_turning_clip (4, 500000, slow_turn);
  g_autofree char *path = g_build_filename (sequin_test_tmpdir (), "big-cancelled.anim", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;
  SequinWindow *window = sequin_test_window_new ();
  SequinDocument *document;

  open_text_seq (window, clip, "big-source.seq");
  document = sequin_window_get_document (window);
  title = g_strdup (sequin_document_get_title (document));
  sequin_open_progress_set_delay (window->open_progress, 0);

  sequin_window_save_to (window, file, sq_format_by_id ("sl-anim"));
  SEQUIN_TEST_WAIT_UNTIL ((text = progress_text_of (window, "Saving")) != NULL);
  g_assert_nonnull (strstr (text, "big-cancelled.anim"));
  g_assert_nonnull (strstr (text, "converting"));
  g_assert_true (sequin_document_get_busy (document));

  gtk_widget_activate (find_button (GTK_WIDGET (window->open_progress)));
  SEQUIN_TEST_WAIT_UNTIL (!sequin_document_get_busy (document));
  sequin_test_settle (200);
  g_assert_null (progress_text_of (window, "Saving"));
  g_assert_null (window->message_dialog);
  g_assert_false (sequin_document_get_modified (document));
  g_assert_cmpstr (sequin_document_get_title (document), ==, title);
  g_assert_cmpstr (sequin_document_get_format (document)->id, ==, "seq-text");
  g_assert_cmpuint (files_named ("big-cancelled"), ==, 0);

  /* the worker, left to finish its copy, writes nothing */
  sequin_test_settle (4000);
  g_assert_cmpuint (files_named ("big-cancelled"), ==, 0);
  g_assert_null (window->message_dialog);
  sequin_test_window_destroy (window);
}

/* A save that shows its progress ends with the file written and the bar
 * gone */
static void
test_save_completes (void)
{
  g_autoptr(SqClip) clip = sequin_test_turning_clip (4, 500000, slow_turn);
  g_autofree char *path = g_build_filename (sequin_test_tmpdir (), "big-saved.seq", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SqClip) back = NULL;
  g_autofree char *text = NULL;
  SequinWindow *window = sequin_test_window_new ();
  SequinDocument *document;

  open_text_seq (window, clip, "big-source2.seq");
  document = sequin_window_get_document (window);
  sequin_open_progress_set_delay (window->open_progress, 0);
  sequin_window_save_to (window, file, sq_format_by_id ("seq-text"));
  SEQUIN_TEST_WAIT_UNTIL ((text = progress_text_of (window, "Saving")) != NULL);
  g_assert_nonnull (strstr (text, "big-saved.seq"));
  SEQUIN_TEST_WAIT_UNTIL (!sequin_document_get_busy (document));
  sequin_test_settle (300);
  g_assert_null (progress_text_of (window, "Saving"));
  g_assert_null (window->message_dialog);
  g_assert_cmpstr (sequin_document_get_format (document)->id, ==, "seq-text");
  g_assert_cmpstr (sequin_document_get_title (document), ==, "big-saved.seq");
  back = sequin_test_load_clip (path);
  g_assert_cmpuint (back->n_joints, ==, 4);
  g_assert_cmpuint (back->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 500000);
  sequin_test_window_destroy (window);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/open-progress/slow-cancelled", test_slow_open_cancelled);
  g_test_add_func ("/open-progress/slow-completes", test_slow_open_completes);
  g_test_add_func ("/open-progress/quick", test_quick_open_shows_nothing);
  g_test_add_func ("/open-progress/save-cancelled", test_save_cancelled);
  g_test_add_func ("/open-progress/save-completes", test_save_completes);
  return g_test_run ();
}
