/* test-edit-dialog.c: SequinEditDialog checks what is typed, and the core has the last word
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sequin-edit-dialog.h"
#include "sequin-test-ui.h"

static SequinDocument *
load_document (const char *name)
{
  return sequin_test_load_document (name);
}

static SequinEditDialog *
dialog_new (SequinDocument *doc,
            SequinEditKind  kind,
            gssize          joint)
{
  SequinEditDialog *dialog = sequin_edit_dialog_new (NULL, doc, kind, joint);

  g_object_ref_sink (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static void
dialog_free (SequinEditDialog *dialog)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_object_unref (dialog);
}

static void
test_rename_checks (void)
{
  g_autoptr(SequinDocument) doc = load_document ("seq-binary/maca.seq");
  SequinEditDialog *dialog;

  dialog = dialog_new (doc, SEQUIN_EDIT_RENAME_JOINT, 2);
  g_assert_cmpstr (sequin_edit_dialog_get_text (dialog, 0), ==, "neck");
  /* unchanged: nothing to do, nothing to say */
  g_assert_false (sequin_edit_dialog_can_apply (dialog));
  g_assert_null (sequin_edit_dialog_get_message (dialog));

  sequin_edit_dialog_set_text (dialog, 0, "");
  g_assert_false (sequin_edit_dialog_can_apply (dialog));
  g_assert_cmpstr (sequin_edit_dialog_get_message (dialog), ==, "The new name is empty");
  sequin_edit_dialog_set_text (dialog, 0, "two\nlines");
  g_assert_false (sequin_edit_dialog_can_apply (dialog));
  g_assert_nonnull (strstr (sequin_edit_dialog_get_message (dialog), "line break"));
  sequin_edit_dialog_set_text (dialog, 0, "pelvis");
  g_assert_false (sequin_edit_dialog_can_apply (dialog));
  g_assert_nonnull (strstr (sequin_edit_dialog_get_message (dialog), "“pelvis” already exists"));
  sequin_edit_dialog_set_text (dialog, 0, "Neck");
  g_assert_true (sequin_edit_dialog_can_apply (dialog));
  g_assert_null (sequin_edit_dialog_get_message (dialog));
  dialog_free (dialog);
  g_assert_false (sequin_document_get_modified (doc));
}

/* What the core says when the edit is applied with `name` */
static char *
core_refusal (SequinDocument *doc,
              SequinEditKind  kind,
              const char     *name)
{
  g_autoptr(SqClip) copy = sq_clip_copy (sequin_document_get_clip (doc));
  g_autoptr(SqEdit) edit = kind == SEQUIN_EDIT_RENAME_JOINT ? sq_edit_rename_joint_new ("neck", name)
                                                             : sq_edit_rename_root_new (name);
  g_autoptr(GError) error = NULL;

  g_assert_false (sq_edit_apply (edit, copy, &error));
  g_assert_nonnull (error);
  return g_strdup (error->message);
}

/* The dialog's live feedback is the core's refusal, word for word */
static void
test_rename_says_what_core_says (void)
{
  g_autoptr(SequinDocument) doc = load_document ("seq-binary/maca.seq");
  const SequinEditKind kinds[] = { SEQUIN_EDIT_RENAME_JOINT, SEQUIN_EDIT_RENAME_ROOT };
  const char *bad[] = { "", "two\nlines", "carriage\rreturn", "pelvis", "head", "lfhip" };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      SequinEditDialog *dialog = dialog_new (doc, kinds[k], kinds[k] == SEQUIN_EDIT_RENAME_JOINT ? 2 : -1);

      for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
        {
          g_autofree char *expected = NULL;

          /* the root may keep its own name; the test is about refusals */
          if (kinds[k] == SEQUIN_EDIT_RENAME_ROOT && g_strcmp0 (bad[i], "pelvis") == 0)
            continue;
          expected = core_refusal (doc, kinds[k], bad[i]);
          sequin_edit_dialog_set_text (dialog, 0, bad[i]);
          g_test_message ("%s → %s", bad[i], expected);
          g_assert_false (sequin_edit_dialog_can_apply (dialog));
          g_assert_cmpstr (sequin_edit_dialog_get_message (dialog), ==, expected);
        }
      dialog_free (dialog);
    }
  g_assert_false (sequin_document_get_modified (doc));
}

static void
test_core_has_last_word (void)
{
  g_autoptr(SequinDocument) doc = load_document ("seq-binary/maca.seq");
  g_autoptr(GError) error = NULL;
  SequinEditDialog *dialog;

  dialog = dialog_new (doc, SEQUIN_EDIT_RENAME_JOINT, 2);
  sequin_edit_dialog_set_text (dialog, 0, "spine");
  g_assert_true (sequin_edit_dialog_can_apply (dialog));

  /* meanwhile the name is taken: the core refuses, the dialog says so and stays */
  g_assert_true (sequin_document_apply (doc, sq_edit_rename_joint_new ("back", "spine"), NULL));
  g_assert_false (sequin_edit_dialog_apply (dialog, &error));
  g_assert_error (error, SQ_ERROR, SQ_ERROR_EXISTS);
  g_assert_cmpstr (sequin_edit_dialog_get_message (dialog), ==, error->message);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  g_assert_cmpstr (sequin_document_get_clip (doc)->joints[2].name, ==, "neck");
  dialog_free (dialog);
}

static void
test_rescale_without_locations (void)
{
  g_autoptr(SequinDocument) doc = load_document ("seq-binary/maca.seq");
  SequinEditDialog *dialog;

  g_assert_true (sequin_document_apply (doc, sq_edit_delete_joint_new ("pelvis"), NULL));
  dialog = dialog_new (doc, SEQUIN_EDIT_RESCALE, -1);
  sequin_edit_dialog_set_text (dialog, 0, "2");
  g_assert_false (sequin_edit_dialog_can_apply (dialog));
  g_assert_nonnull (strstr (sequin_edit_dialog_get_message (dialog), "“pelvis” has no locations"));
  dialog_free (dialog);
}

static void
test_first_frame_starts_from_current (void)
{
  g_autoptr(SequinDocument) doc = load_document ("seq-binary/walk.seq");
  SequinEditDialog *dialog;
  const char *expected[] = { "0.5", "-1.25", "3" };

  g_assert_true (sequin_document_apply (doc, sq_edit_set_first_frame_new (0.5, -1.25, 3), NULL));
  dialog = dialog_new (doc, SEQUIN_EDIT_SET_FIRST_FRAME, -1);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpstr (sequin_edit_dialog_get_text (dialog, i), ==, expected[i]);
  g_assert_true (sequin_edit_dialog_can_apply (dialog));
  sequin_edit_dialog_set_text (dialog, 1, "1,5");
  g_assert_true (sequin_edit_dialog_apply (dialog, NULL));
  {
    const SqClip *clip = sequin_document_get_clip (doc);

    g_assert_cmpfloat (sq_track_key (&clip->joints[sq_clip_get_root_index (clip)].tracks[SQ_CHANNEL_TRANSLATION], 0).v[1],
                       ==, 1.5);
  }
  g_object_unref (dialog);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/edit-dialog/rename-checks", test_rename_checks);
  g_test_add_func ("/edit-dialog/rename-says-what-core-says", test_rename_says_what_core_says);
  g_test_add_func ("/edit-dialog/core-has-last-word", test_core_has_last_word);
  g_test_add_func ("/edit-dialog/rescale-without-locations", test_rescale_without_locations);
  g_test_add_func ("/edit-dialog/first-frame-starts-from-current", test_first_frame_starts_from_current);

  return g_test_run ();
}
