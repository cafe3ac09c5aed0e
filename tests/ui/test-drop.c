/* test-drop.c: files dropped on the editor's window open in it
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A .glb (the sample written as glTF by the core) is dropped on an empty
 * window through its drop target, as a file manager's drag gives it (a
 * GdkFileList); the window's document must be the file: glTF, with the
 * file's joints and keys.
 */
#include "config.h"

#include "sequin-document.h"
#include "sequin-test-ui.h"

/* The window's drop target, which must take a list of files */
static GtkDropTarget *
window_drop_target (SequinWindow *window)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  guint n = g_list_model_get_n_items (controllers);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (c))
        {
          gsize n_types = 0;
          const GType *types = gtk_drop_target_get_gtypes (GTK_DROP_TARGET (c), &n_types);
          for (gsize t = 0; t < n_types; t++)
            if (types[t] == GDK_TYPE_FILE_LIST)
              return GTK_DROP_TARGET (c);
        }
    }
  g_error ("the window has no drop target for files");
  return NULL;
}

/* `path` dropped on the window at (x, y); returns what the target said */
static gboolean
drop_files (SequinWindow *window,
            const char   *path)
{
  GtkDropTarget *target = window_drop_target (window);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GSList *list = g_slist_prepend (NULL, file);
  GValue value = G_VALUE_INIT;
  gboolean handled = FALSE;

  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (list));
  g_slist_free (list);
  g_signal_emit_by_name (target, "drop", &value, 200.0, 150.0, &handled);
  g_value_unset (&value);
  return handled;
}

/* The sample as a .glb in the test's folder; its path */
static char *
write_glb (void)
{
  g_autofree char *sample = g_build_filename (g_getenv ("SEQUIN_SAMPLE_DIR"), "wave.seq", NULL);
  g_autoptr(SqClip) clip = sequin_test_load_clip (sample);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) glb = sq_save_bytes (clip, sq_format_by_id ("gltf"), NULL, NULL, &error);
  char *path = g_build_filename (sequin_test_tmpdir (), "dropped wave.glb", NULL);

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (glb, NULL), g_bytes_get_size (glb), NULL));
  return path;
}

static void
test_drop_glb (void)
{
  g_autofree char *path = write_glb ();
  g_autoptr(SqClip) want = sequin_test_load_clip (path);
  SequinWindow *window = sequin_test_window_new ();
  const SqClip *got;

  g_assert_true (sequin_window_is_empty (window));
  g_assert_true (drop_files (window, path));
  SEQUIN_TEST_WAIT_UNTIL (sequin_window_get_document (window) != NULL
                          && !sequin_document_get_busy (sequin_window_get_document (window)));
  sequin_test_flush ();
  got = sequin_test_window_clip (window);
  g_assert_nonnull (got);
  g_assert_cmpstr (got->format->id, ==, "gltf");
  /* the file's joints, in its order, with its keys */
  g_assert_cmpuint (want->n_joints, ==, 9);
  g_assert_cmpuint (got->n_joints, ==, want->n_joints);
  for (gsize j = 0; j < want->n_joints; j++)
    {
      g_assert_cmpstr (got->joints[j].name, ==, want->joints[j].name);
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        g_assert_cmpuint (got->joints[j].tracks[c].n_keys, ==, want->joints[j].tracks[c].n_keys);
    }
  g_assert_cmpstr (got->joints[0].name, ==, "pelvis");
  g_assert_cmpuint (got->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 13);
  g_assert_true (sequin_test_clips_close (got, want, 1e-9, 1e-9));
  /* the document is the file dropped */
  g_assert_cmpstr (sequin_document_get_title (sequin_window_get_document (window)), ==, "dropped wave.glb");
  sequin_test_window_destroy (window);
}

/* What is no list of files is not taken */
static void
test_drop_other (void)
{
  SequinWindow *window = sequin_test_window_new ();
  GtkDropTarget *target = window_drop_target (window);
  GValue value = G_VALUE_INIT;
  gboolean handled = TRUE;

  g_value_init (&value, G_TYPE_STRING);
  g_value_set_string (&value, "not a file");
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &handled);
  g_value_unset (&value);
  g_assert_false (handled);
  sequin_test_flush ();
  g_assert_true (sequin_window_is_empty (window));
  sequin_test_window_destroy (window);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  sequin_test_application ();
  g_test_add_func ("/drop/glb", test_drop_glb);
  g_test_add_func ("/drop/other", test_drop_other);
  return g_test_run ();
}
