/* test-document.c: SequinDocument: async load and save, undo, etags, losses
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <sys/resource.h>

#include "sequin-document.h"
#include "sequin-test-ui.h"

typedef struct
{
  GAsyncResult *result;
} Wait;

static void
got_result (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Wait *wait = user_data;

  wait->result = g_object_ref (result);
}

static gboolean
load (SequinDocument *doc,
      const char     *path,
      GError        **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  Wait wait = { NULL };
  gboolean ok;

  sequin_document_load_async (doc, file, SEQUIN_LOAD_DEFAULT, NULL, got_result, &wait);
  g_assert_true (sequin_document_get_busy (doc));
  SEQUIN_TEST_WAIT_UNTIL (wait.result != NULL);
  ok = sequin_document_load_finish (doc, wait.result, error);
  g_object_unref (wait.result);
  g_assert_false (sequin_document_get_busy (doc));
  return ok;
}

static gboolean
save (SequinDocument  *doc,
      const char      *path,
      const SqFormat  *format,
      SequinSaveFlags  flags,
      GStrv           *losses,
      GError         **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  Wait wait = { NULL };
  gboolean ok;

  sequin_document_save_async (doc, file, format, flags, NULL, got_result, &wait);
  SEQUIN_TEST_WAIT_UNTIL (wait.result != NULL);
  ok = sequin_document_save_finish (doc, wait.result, losses, NULL, error);
  g_object_unref (wait.result);
  return ok;
}

static char *
copy_to_tmp (const char *path,
             const char *name)
{
  g_autoptr(GBytes) bytes = sequin_test_read_bytes (path);
  g_autoptr(GError) error = NULL;
  char *out = g_build_filename (sequin_test_tmpdir (), name, NULL);

  g_file_set_contents (out, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return out;
}

static void
test_load (void)
{
  g_autofree char *path = sequin_test_corpus_file ("seq-binary/walk.seq");
  g_autoptr(SequinDocument) doc = sequin_document_new ();
  g_autoptr(SqClip) expected = NULL;
  g_autoptr(GError) error = NULL;

  expected = sequin_test_load_clip (path);

  g_assert_true (load (doc, path, &error));
  g_assert_no_error (error);
  g_assert_true (sq_clip_equal (sequin_document_get_clip (doc), expected));
  g_assert_cmpuint (sequin_document_get_clip (doc)->n_joints, ==, 44);
  g_assert_cmpstr (sequin_document_get_title (doc), ==, "walk.seq");
  g_assert_true (sequin_document_get_format (doc) == sq_format_by_id ("seq-binary"));
  g_assert_false (sequin_document_get_modified (doc));
  g_assert_false (sequin_document_can_undo (doc));
}

static void
test_load_bad (void)
{
  g_autofree char *good = sequin_test_corpus_file ("seq-binary/maca.seq");
  g_autofree char *bad = g_build_filename (sequin_test_tmpdir (), "bad.seq", NULL);
  g_autoptr(SequinDocument) doc = sequin_document_new ();
  g_autoptr(GError) error = NULL;
  guint8 data[60] = { 0x7F, 0x7F, 0x7F, 0x79, 0xFF, 0xFF, 0xFF, 0x7F };
  const SqClip *before;

  g_assert_true (g_file_set_contents (bad, (const char *) data, sizeof data, NULL));
  g_assert_false (load (doc, bad, &error));
  g_assert_error (error, SQ_ERROR, SQ_ERROR_LIMIT_EXCEEDED);
  g_assert_nonnull (strstr (error->message, "offset"));
  g_assert_null (sequin_document_get_clip (doc));
  g_clear_error (&error);

  if (good == NULL)
    return;
  /* a document that has a clip keeps it when another load fails */
  g_assert_true (load (doc, good, &error));
  before = sequin_document_get_clip (doc);
  g_assert_false (load (doc, bad, &error));
  g_assert_nonnull (error);
  g_assert_true (sequin_document_get_clip (doc) == before);
  g_assert_cmpstr (sequin_document_get_title (doc), ==, "maca.seq");
}

static void
count_cb (SequinDocument *doc,
          guint          *count)
{
  (*count)++;
}

static void
test_undo_redo (void)
{
  g_autofree char *path = sequin_test_corpus_file ("seq-binary/maca.seq");
  g_autoptr(SequinDocument) doc = sequin_document_new ();
  g_autoptr(SqClip) original = NULL;
  g_autoptr(SqClip) renamed = NULL;
  g_autoptr(SqEdit) reference = NULL;
  g_autoptr(GError) error = NULL;
  guint changed = 0;

  original = sequin_test_load_clip (path);
  renamed = sequin_test_load_clip (path);
  reference = sq_edit_rename_joint_new ("back", "spine");
  g_assert_true (sq_edit_apply (reference, renamed, NULL));

  g_assert_true (load (doc, path, NULL));
  g_signal_connect (doc, "changed", G_CALLBACK (count_cb), &changed);

  /* a refused edit changes nothing and is not kept */
  g_assert_false (sequin_document_apply (doc, sq_edit_rename_joint_new ("back", "neck"), &error));
  g_assert_error (error, SQ_ERROR, SQ_ERROR_EXISTS);
  g_clear_error (&error);
  g_assert_false (sequin_document_can_undo (doc));
  g_assert_false (sequin_document_get_modified (doc));
  g_assert_cmpuint (changed, ==, 0);

  g_assert_true (sequin_document_apply (doc, sq_edit_rename_joint_new ("back", "spine"), &error));
  g_assert_no_error (error);
  g_assert_true (sequin_document_get_modified (doc));
  g_assert_true (sq_clip_equal (sequin_document_get_clip (doc), renamed));
  g_assert_cmpstr (sequin_document_get_undo_label (doc), ==, sq_edit_get_label (reference));
  g_assert_cmpuint (changed, ==, 1);

  /* a second edit, then undo both: exactly the original, and unmodified */
  g_assert_true (sequin_document_apply (doc, sq_edit_invert_xz_new (NULL), NULL));
  g_assert_true (sequin_document_undo (doc));
  g_assert_true (sq_clip_equal (sequin_document_get_clip (doc), renamed));
  g_assert_true (sequin_document_can_redo (doc));
  g_assert_true (sequin_document_undo (doc));
  g_assert_true (sq_clip_equal (sequin_document_get_clip (doc), original));
  g_assert_false (sequin_document_get_modified (doc));
  g_assert_false (sequin_document_can_undo (doc));
  g_assert_false (sequin_document_undo (doc));

  g_assert_true (sequin_document_redo (doc));
  g_assert_true (sq_clip_equal (sequin_document_get_clip (doc), renamed));
  g_assert_true (sequin_document_get_modified (doc));

  /* a new edit drops what could be redone */
  g_assert_true (sequin_document_apply (doc, sq_edit_delete_joint_new ("hair"), NULL));
  g_assert_false (sequin_document_can_redo (doc));
  g_assert_cmpuint (changed, ==, 6);
}

static void
test_save_binary_and_text (void)
{
  g_autofree char *corpus = sequin_test_corpus_file ("seq-binary/maca.seq");
  g_autofree char *path = NULL;
  g_autofree char *text_path = NULL;
  g_autoptr(SequinDocument) doc = sequin_document_new ();
  g_autoptr(SqClip) original = NULL;
  g_autoptr(SqClip) saved = NULL;
  g_autoptr(SqClip) text = NULL;
  g_autoptr(SqClip) core_text = NULL;
  g_autoptr(GBytes) core_bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) losses = NULL;

  path = copy_to_tmp (corpus, "doc-save.seq");
  text_path = g_build_filename (sequin_test_tmpdir (), "doc-save-text.seq", NULL);
  original = sequin_test_load_clip (corpus);

  g_assert_true (load (doc, path, NULL));
  g_assert_true (sequin_document_apply (doc, sq_edit_invert_xz_new (NULL), NULL));
  g_assert_true (save (doc, path, NULL, SEQUIN_SAVE_DEFAULT, &losses, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (losses), ==, 0);
  g_clear_pointer (&losses, g_strfreev);
  g_assert_false (sequin_document_get_modified (doc));
  saved = sequin_test_load_clip (path);
  g_assert_true (sq_clip_equal (saved, sequin_document_get_clip (doc)));
  g_assert_false (sq_clip_equal (saved, original));

  /* text: the losses first, nothing written */
  g_assert_false (save (doc, text_path, sq_format_by_id ("seq-text"), SEQUIN_SAVE_DEFAULT, &losses, &error));
  g_assert_error (error, SEQUIN_DOCUMENT_ERROR, SEQUIN_DOCUMENT_ERROR_LOSSES);
  g_clear_error (&error);
  g_assert_cmpuint (g_strv_length (losses), >, 0);
  g_clear_pointer (&losses, g_strfreev);
  g_assert_false (g_file_test (text_path, G_FILE_TEST_EXISTS));

  g_assert_true (save (doc, text_path, sq_format_by_id ("seq-text"), SEQUIN_SAVE_ACCEPT_LOSSES, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (sequin_document_get_format (doc) == sq_format_by_id ("seq-text"));
  g_assert_cmpstr (sequin_document_get_title (doc), ==, "doc-save-text.seq");
  text = sequin_test_load_clip (text_path);
  g_assert_true (text->format == sq_format_by_id ("seq-text"));
  g_assert_true (sequin_test_clips_close (text, sequin_document_get_clip (doc), 0.0005 + 1e-9, 1e-5));
  /* exactly what the core writes for the same clip */
  core_bytes = sq_save_bytes (sequin_document_get_clip (doc), sq_format_by_id ("seq-text"), NULL, NULL, NULL);
  core_text = sq_load_bytes (core_bytes, "x.seq", NULL, NULL, NULL);
  g_assert_true (sq_clip_equal (text, core_text));

  /* saving again in the format the user accepted does not ask again */
  g_assert_true (sequin_document_apply (doc, sq_edit_invert_xz_new (NULL), NULL));
  g_assert_true (save (doc, text_path, NULL, SEQUIN_SAVE_DEFAULT, NULL, &error));
  g_assert_no_error (error);
}

static void
test_changed_on_disk (void)
{
  g_autofree char *corpus = sequin_test_corpus_file ("seq-binary/maca.seq");
  g_autofree char *path = NULL;
  g_autoptr(SequinDocument) doc = sequin_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) on_disk = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(SqClip) saved = NULL;

  path = copy_to_tmp (corpus, "doc-etag.seq");
  file = g_file_new_for_path (path);
  g_assert_true (load (doc, path, NULL));

  /* another program writes the file (a later time stamp: a new etag) */
  g_assert_true (g_file_set_contents (path, "other program", -1, NULL));
  g_assert_true (g_file_set_attribute_uint64 (file, G_FILE_ATTRIBUTE_TIME_MODIFIED,
                                              g_get_real_time () / G_USEC_PER_SEC + 100,
                                              G_FILE_QUERY_INFO_NONE, NULL, NULL));
  g_assert_true (sequin_document_apply (doc, sq_edit_delete_joint_new ("hair"), NULL));

  g_assert_false (save (doc, path, NULL, SEQUIN_SAVE_DEFAULT, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG);
  g_clear_error (&error);
  on_disk = sequin_test_read_bytes (path);
  g_assert_cmpmem (g_bytes_get_data (on_disk, NULL), g_bytes_get_size (on_disk), "other program", 13);
  g_assert_true (sequin_document_get_modified (doc));

  g_assert_true (save (doc, path, NULL, SEQUIN_SAVE_IGNORE_CHANGES_ON_DISK, NULL, &error));
  g_assert_no_error (error);
  saved = sequin_test_load_clip (path);
  g_assert_true (sq_clip_equal (saved, sequin_document_get_clip (doc)));
  /* the new etag is ours: saving again needs no question */
  g_assert_true (sequin_document_apply (doc, sq_edit_delete_joint_new ("lips"), NULL));
  g_assert_true (save (doc, path, NULL, SEQUIN_SAVE_DEFAULT, NULL, &error));
  g_assert_no_error (error);
}

static void
test_failed_save (void)
{
  g_autofree char *corpus = sequin_test_corpus_file ("seq-binary/maca.seq");
  g_autofree char *path = NULL;
  g_autofree char *nowhere = NULL;
  g_autoptr(SequinDocument) doc = sequin_document_new ();
  g_autoptr(GError) error = NULL;

  path = copy_to_tmp (corpus, "doc-fail.seq");
  nowhere = g_build_filename (sequin_test_tmpdir (), "no-such-folder", "x.seq", NULL);
  g_assert_true (load (doc, path, NULL));
  g_assert_true (sequin_document_apply (doc, sq_edit_delete_joint_new ("hair"), NULL));
  g_assert_false (save (doc, nowhere, NULL, SEQUIN_SAVE_DEFAULT, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_true (sequin_document_get_modified (doc));
  g_assert_cmpstr (g_file_peek_path (sequin_document_get_file (doc)), ==, path);
  g_assert_cmpstr (sequin_document_get_title (doc), ==, "doc-fail.seq");
  g_clear_error (&error);

  /* a write that fails half way (the file size limit stands in for a full
   * disk): the file stays as it was and no partial copy is left beside it */
  {
    g_autoptr(GBytes) before = sequin_test_read_bytes (path);
    g_autoptr(GBytes) after = NULL;
    g_autofree char *dir = g_path_get_dirname (path);
    g_autoptr(GDir) listing = NULL;
    struct rlimit old_limit, limit;
    void (*old_handler) (int) = signal (SIGXFSZ, SIG_IGN);
    const char *name;

    g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
    limit = old_limit;
    limit.rlim_cur = g_bytes_get_size (before) / 2;
    g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
    g_assert_false (save (doc, path, NULL, SEQUIN_SAVE_DEFAULT, NULL, &error));
    g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
    signal (SIGXFSZ, old_handler);
    g_assert_nonnull (error);
    g_test_message ("write failed: %s", error->message);
    after = sequin_test_read_bytes (path);
    g_assert_true (g_bytes_equal (before, after));
    g_assert_true (sequin_document_get_modified (doc));
    listing = g_dir_open (dir, 0, NULL);
    g_assert_nonnull (listing);
    while ((name = g_dir_read_name (listing)) != NULL)
      g_assert_false (g_str_has_prefix (name, ".goutputstream"));
    g_clear_error (&error);

    /* and then it saves */
    g_assert_true (save (doc, path, NULL, SEQUIN_SAVE_DEFAULT, NULL, &error));
    g_assert_no_error (error);
    g_assert_false (sequin_document_get_modified (doc));
  }
}

static GBytes *
companion_beside (const char *name,
                  gpointer    dir,
                  GError    **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  char *contents = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &contents, &length, error))
    return NULL;
  return g_bytes_new_take (contents, length);
}

/* A Sims skill: its CFP read beside the CMX (a .cfp opens through the .cmx
 * that names it), both written back as they were, then an edit saved to
 * both */
static void
test_sims_skill (void)
{
  g_autofree char *src_cmx = g_test_build_filename (G_TEST_DIST, "..", "data", "sims", "nod.cmx", NULL);
  g_autofree char *src_cfp = g_test_build_filename (G_TEST_DIST, "..", "data", "sims", "xskill-nod.cfp", NULL);
  g_autofree char *cmx = copy_to_tmp (src_cmx, "nod.cmx");
  g_autofree char *cfp = copy_to_tmp (src_cfp, "xskill-nod.cfp");
  g_autoptr(GBytes) cmx_bytes = sequin_test_read_bytes (src_cmx);
  g_autoptr(GBytes) cfp_bytes = sequin_test_read_bytes (src_cfp);
  g_autoptr(GBytes) cmx_after = NULL, cfp_after = NULL;
  g_autoptr(SequinDocument) doc = sequin_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) back = NULL;
  SqLoadOptions options = { 0 };

  g_assert_true (load (doc, cfp, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sequin_document_get_title (doc), ==, "nod.cmx");
  g_assert_cmpuint (sq_clip_count_keys (sequin_document_get_clip (doc)), ==, 28);
  g_assert_true (save (doc, cmx, NULL, SEQUIN_SAVE_DEFAULT, NULL, &error));
  g_assert_no_error (error);
  cmx_after = sequin_test_read_bytes (cmx);
  cfp_after = sequin_test_read_bytes (cfp);
  g_assert_true (g_bytes_equal (cmx_after, cmx_bytes));
  g_assert_true (g_bytes_equal (cfp_after, cfp_bytes));

  g_assert_true (sequin_document_apply (doc, sq_edit_invert_xz_new (NULL), NULL));
  g_assert_true (save (doc, cmx, NULL, SEQUIN_SAVE_DEFAULT, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&cfp_after, g_bytes_unref);
  cfp_after = sequin_test_read_bytes (cfp);
  g_assert_false (g_bytes_equal (cfp_after, cfp_bytes));
  options.companion = companion_beside;
  options.companion_data = (gpointer) sequin_test_tmpdir ();
  g_clear_pointer (&cmx_after, g_bytes_unref);
  cmx_after = sequin_test_read_bytes (cmx);
  back = sq_load_bytes (cmx_after, "nod.cmx", NULL, &options, &error);
  g_assert_no_error (error);
  g_assert_true (sequin_test_clips_close (back, sequin_document_get_clip (doc), 1e-6, 1e-6));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/document/load", test_load);
  g_test_add_func ("/document/load-bad", test_load_bad);
  g_test_add_func ("/document/undo-redo", test_undo_redo);
  g_test_add_func ("/document/save-binary-and-text", test_save_binary_and_text);
  g_test_add_func ("/document/changed-on-disk", test_changed_on_disk);
  g_test_add_func ("/document/failed-save", test_failed_save);
  g_test_add_func ("/document/sims-skill", test_sims_skill);

  return g_test_run ();
}
