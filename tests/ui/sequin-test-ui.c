/* sequin-test-ui.c: helpers for the editor's tests
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <dlfcn.h>
#include <glib/gstdio.h>
#include <math.h>

#include "sequin-test-ui.h"
#include "sequin-window-private.h"

/* The libraries named in SEQUIN_TEST_PIN_LIBS (colon separated) stay
 * loaded until the program ends. Under LeakSanitizer, what a driver keeps
 * until exit is then still reachable from it: Mesa's software GL unloads
 * its driver with the display, and its blocks would be reported as lost
 * from an unknown module (tests/run-all.sh sets it for that run). */
__attribute__((constructor)) static void
pin_libraries (void)
{
  const char *list = g_getenv ("SEQUIN_TEST_PIN_LIBS");
  g_auto(GStrv) paths = NULL;

  if (list == NULL)
    return;
  paths = g_strsplit (list, ":", -1);
  for (guint i = 0; paths[i] != NULL; i++)
    if (paths[i][0] != '\0')
      dlopen (paths[i], RTLD_NOW | RTLD_NODELETE);
}

/* A file of tests/data/corpus (or SEQUIN_CORPUS); a missing one stops the
 * test program with a message naming it: tests never skip for data */
char *
sequin_test_corpus_file (const char *name)
{
  const char *corpus = g_getenv ("SEQUIN_CORPUS");
  g_autofree char *path = NULL;

  if (corpus == NULL)
    g_error ("SEQUIN_CORPUS is not set: the tests' files are in tests/data/corpus");
  path = g_build_filename (corpus, name, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_error ("missing test input %s", path);
  return g_steal_pointer (&path);
}

static void
got_load_result (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

SequinDocument *
sequin_test_load_document (const char *name)
{
  g_autofree char *path = sequin_test_corpus_file (name);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  SequinDocument *doc;

  if (path == NULL)
    return NULL;
  doc = sequin_document_new ();
  file = g_file_new_for_path (path);
  sequin_document_load_async (doc, file, SEQUIN_LOAD_DEFAULT, NULL, got_load_result, &result);
  SEQUIN_TEST_WAIT_UNTIL (result != NULL);
  g_assert_true (sequin_document_load_finish (doc, result, &error));
  g_assert_no_error (error);
  return doc;
}

GBytes *
sequin_test_read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, len);
}

SqClip *
sequin_test_load_clip (const char *path)
{
  g_autoptr(GBytes) bytes = sequin_test_read_bytes (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_path_get_basename (path);
  SqClip *clip = sq_load_bytes (bytes, name, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (clip);
  return clip;
}

static SequinApplication *application;

SequinApplication *
sequin_test_application (void)
{
  g_autoptr(GError) error = NULL;

  if (application != NULL)
    return application;
  application = sequin_application_new ();
  g_application_set_flags (G_APPLICATION (application),
                           g_application_get_flags (G_APPLICATION (application)) | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (application), NULL, &error);
  g_assert_no_error (error);
  /* as if running: keeps the application alive without windows */
  g_application_hold (G_APPLICATION (application));
  return application;
}

static char *tmpdir;

static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          remove_tree (child);
        }
    }
  g_remove (path);
}

static void
remove_tmpdir (void)
{
  if (tmpdir != NULL)
    remove_tree (tmpdir);
  g_clear_pointer (&tmpdir, g_free);
}

const char *
sequin_test_tmpdir (void)
{
  g_autoptr(GError) error = NULL;

  if (tmpdir == NULL)
    {
      tmpdir = g_dir_make_tmp ("sequin-ui-test-XXXXXX", &error);
      g_assert_no_error (error);
      atexit (remove_tmpdir);
    }
  return tmpdir;
}

void
sequin_test_flush (void)
{
  for (guint i = 0; i < 5; i++)
    {
      while (g_main_context_pending (NULL))
        g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
}

void
sequin_test_settle (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      while (g_main_context_pending (NULL))
        g_main_context_iteration (NULL, FALSE);
      g_usleep (5000);
    }
}

SequinWindow *
sequin_test_app_window (void)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (sequin_test_application ())); l; l = l->next)
    if (SEQUIN_IS_WINDOW (l->data))
      return l->data;
  return NULL;
}

SqClip *
sequin_test_turning_clip (guint    n_joints,
                          guint    n_keys,
                          double (*angle) (guint key))
{
  SqClip *clip = sq_clip_new ();
  const char *names[] = { "pelvis", "back", "neck", "head" };

  g_assert_cmpuint (n_joints, <=, G_N_ELEMENTS (names));
  clip->fps = 30;
  clip->duration = (n_keys - 1) / 30.0;
  for (guint j = 0; j < n_joints; j++)
    {
      SqJoint *joint = sq_clip_add_joint (clip, names[j]);

      sq_track_reserve (&joint->tracks[SQ_CHANNEL_ROTATION], n_keys);
      for (guint i = 0; i < n_keys; i++)
        {
          SqKey *k = sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], i / 30.0);

          k->v[0] = cos (angle (i));
          k->v[2] = sin (angle (i));
        }
    }
  return clip;
}

void
sequin_test_window_open_clip (SequinWindow *window,
                              const SqClip *clip,
                              const char   *name)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (sequin_test_tmpdir (), name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  bytes = sq_save_bytes (clip, sq_format_by_id ("seq-binary"), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  sequin_window_open_file (window, file, FALSE);
  SEQUIN_TEST_WAIT_UNTIL (sequin_window_get_document (window) != NULL);
  sequin_test_flush ();
}

gboolean
sequin_test_clips_close (const SqClip *a,
                         const SqClip *b,
                         double        time_eps,
                         double        quat_eps)
{
  if (a->n_joints != b->n_joints)
    return FALSE;
  for (gsize j = 0; j < a->n_joints; j++)
    {
      const SqTrack *ta = &a->joints[j].tracks[SQ_CHANNEL_ROTATION];
      const SqTrack *tb = &b->joints[j].tracks[SQ_CHANNEL_ROTATION];

      if (g_strcmp0 (a->joints[j].name, b->joints[j].name) != 0 || ta->n_keys != tb->n_keys)
        return FALSE;
      for (gsize k = 0; k < ta->n_keys; k++)
        {
          if (fabs (sq_track_time (ta, k) - sq_track_time (tb, k)) > time_eps)
            return FALSE;
          for (guint c = 0; c < 4; c++)
            if (fabs (sq_track_key (ta, k).v[c] - sq_track_key (tb, k).v[c]) > quat_eps)
              return FALSE;
        }
    }
  return TRUE;
}

SequinWindow *
sequin_test_window_new (void)
{
  SequinWindow *window = sequin_window_new (sequin_test_application ());

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

void
sequin_test_window_destroy (SequinWindow *window)
{
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  window->force_close = TRUE;
  gtk_window_destroy (GTK_WINDOW (window));
  sequin_test_flush ();
  g_assert_null (window);
}

void
sequin_test_window_open (SequinWindow *window,
                         const char   *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  g_assert_true (sequin_window_is_empty (window));
  sequin_window_open_file (window, file, FALSE);
  SEQUIN_TEST_WAIT_UNTIL (sequin_window_get_document (window) != NULL);
  sequin_test_flush ();
}

const SqClip *
sequin_test_window_clip (SequinWindow *window)
{
  return sequin_document_get_clip (sequin_window_get_document (window));
}

char *
sequin_test_corpus_path (const char *name)
{
  char *path = sequin_test_corpus_file (name);

  if (path == NULL)
    g_error ("corpus file %s is missing (SEQUIN_CORPUS=%s)", name, g_getenv ("SEQUIN_CORPUS"));
  return path;
}

char *
sequin_test_tmp_copy (const char *path,
                      const char *name)
{
  g_autoptr(GBytes) bytes = sequin_test_read_bytes (path);
  char *out = g_build_filename (sequin_test_tmpdir (), name, NULL);

  g_assert_true (g_file_set_contents (out, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  return out;
}

void
sequin_test_activate (SequinWindow *window,
                      const char   *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
  sequin_test_flush ();
}

void
sequin_test_show_validation (SequinWindow *window)
{
  g_object_set (window, "sidebar-visible", TRUE, NULL);
  gtk_stack_set_visible_child_name (window->sidebar_stack, "validation");
  sequin_test_flush ();
  SEQUIN_TEST_WAIT_UNTIL (sequin_validation_panel_is_current (window->validation_panel));
}

void
sequin_test_collect_labels (GtkWidget *widget,
                            GPtrArray *texts)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget) && gtk_widget_get_width (widget) > 0)
    g_ptr_array_add (texts, g_strdup (gtk_label_get_text (GTK_LABEL (widget))));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    sequin_test_collect_labels (child, texts);
}

gboolean
sequin_test_shows (GtkWidget  *widget,
                   const char *text)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

  sequin_test_collect_labels (widget, texts);
  for (guint i = 0; i < texts->len; i++)
    if (g_strcmp0 (g_ptr_array_index (texts, i), text) == 0)
      return TRUE;
  return FALSE;
}

SequinWindow *
sequin_test_open_sized (GFile *file)
{
  g_autoptr(GSettingsSchema) schema =
    g_settings_schema_source_lookup (g_settings_schema_source_get_default (), APP_ID, TRUE);
  SequinWindow *window;

  if (schema != NULL)
    {
      g_autoptr(GSettings) settings = g_settings_new (APP_ID);

      g_settings_set_int (settings, "window-width", 1400);
      g_settings_set_int (settings, "window-height", 900);
    }
  g_application_open (G_APPLICATION (sequin_test_application ()), &file, 1, "");
  SEQUIN_TEST_WAIT_UNTIL ((window = sequin_test_app_window ()) != NULL && sequin_window_get_document (window) != NULL);
  return window;
}

SequinWindow *
sequin_test_window_new_animation (const char *world)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autoptr(GError) error = NULL;
  SqClip *clip = sq_clip_new_for_world (world, 2.0, 30, &error);
  g_autoptr(SequinDocument) doc = NULL;

  g_assert_no_error (error);
  doc = sequin_document_new_for_clip (clip, "New Animation");
  sequin_window_set_document (window, doc);
  return window;
}

void
sequin_test_select_at (SequinWindow *window,
                       const char   *joint,
                       double        time)
{
  const SqClip *clip = sequin_test_window_clip (window);

  sequin_joint_tree_select_joint (window->joint_tree, (gsize) sq_clip_find_joint (clip, joint));
  sequin_playback_set_position (window->playback, time);
  sequin_test_flush ();
}
