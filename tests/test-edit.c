/* test-edit.c: the six SeqFileViewer edits, with exact undo and redo
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "test-utils.h"

static SqClip *
sample (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "wave.seq", NULL);
  g_autoptr(GBytes) bytes = tu_read (path);
  return tu_load_ok (bytes);
}

/* apply, check, undo (bitwise back), redo (same as first apply) */
static void
apply_undo_redo (SqClip *clip,
                 SqEdit *edit,
                 void  (*check) (const SqClip *before, const SqClip *after))
{
  g_autoptr(SqClip) before = sq_clip_copy (clip);
  g_autoptr(SqClip) after = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_false (sq_clip_is_modified (clip));
  g_assert_true (sq_edit_apply (edit, clip, &error));
  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, NULL));
  g_assert_true (sq_clip_is_modified (clip));
  check (before, clip);
  after = sq_clip_copy (clip);

  sq_edit_undo (edit, clip);
  g_assert_true (sq_clip_equal (before, clip));
  g_assert_false (sq_clip_is_modified (clip));

  g_assert_true (sq_edit_apply (edit, clip, &error));
  g_assert_true (sq_clip_equal (after, clip));
  sq_edit_undo (edit, clip);
  g_assert_true (sq_clip_equal (before, clip));
}

static void
check_invert_all (const SqClip *b,
                  const SqClip *a)
{
  for (gsize j = 0; j < a->n_joints; j++)
    for (gsize k = 0; k < a->joints[j].tracks[0].n_keys; k++)
      {
        const double *x = a->joints[j].tracks[0].keys[k].v, *y = b->joints[j].tracks[0].keys[k].v;
        g_assert_cmpfloat (x[0], ==, y[0]);
        g_assert_cmpfloat (x[1], ==, -y[1]);
        g_assert_cmpfloat (x[2], ==, y[2]);
        g_assert_cmpfloat (x[3], ==, -y[3]);
      }
}

static void
check_invert_some (const SqClip *b,
                   const SqClip *a)
{
  gssize e = sq_clip_find_joint (a, "rtelbow");
  for (gsize j = 0; j < a->n_joints; j++)
    for (gsize k = 0; k < a->joints[j].tracks[0].n_keys; k++)
      {
        double s = (gssize) j == e ? -1 : 1;
        g_assert_cmpfloat (a->joints[j].tracks[0].keys[k].v[3], ==, s * b->joints[j].tracks[0].keys[k].v[3]);
      }
}

static void
check_rename (const SqClip *b,
              const SqClip *a)
{
  g_assert_cmpint (sq_clip_find_joint (a, "rtelbow"), <, 0);
  g_assert_cmpint (sq_clip_find_joint (a, "rtelbow2"), ==, sq_clip_find_joint (b, "rtelbow"));
  g_assert_cmpstr (a->root, ==, b->root);
}

static void
check_delete (const SqClip *b,
              const SqClip *a)
{
  g_assert_cmpuint (a->n_joints, ==, b->n_joints - 1);
  g_assert_cmpint (sq_clip_find_joint (a, "neck"), <, 0);
  g_assert_cmpstr (a->joints[2].name, ==, "head");
}

static void
check_rename_root (const SqClip *b,
                   const SqClip *a)
{
  g_assert_cmpstr (a->root, ==, "hips");
  g_assert_cmpstr (a->joints[0].name, ==, "hips");
  g_assert_cmpint (sq_clip_get_root_index (a), ==, 0);
  g_assert_cmpuint (a->joints[0].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 3);
}

static void
check_rescale (const SqClip *b,
               const SqClip *a)
{
  const SqTrack *ta = &a->joints[0].tracks[SQ_CHANNEL_TRANSLATION];
  const SqTrack *tb = &b->joints[0].tracks[SQ_CHANNEL_TRANSLATION];

  for (gsize k = 0; k < ta->n_keys; k++)
    for (guint c = 0; c < 3; c++)
      g_assert_cmpfloat (ta->keys[k].v[c], ==, tb->keys[k].v[c] * 2.5);
  /* nothing else moves */
  for (gsize j = 1; j < a->n_joints; j++)
    g_assert_cmpmem (a->joints[j].tracks[0].keys, a->joints[j].tracks[0].n_keys * sizeof (SqKey),
                     b->joints[j].tracks[0].keys, b->joints[j].tracks[0].n_keys * sizeof (SqKey));
}

static void
check_first_frame (const SqClip *b,
                   const SqClip *a)
{
  const SqTrack *t = &a->joints[sq_clip_get_root_index (a)].tracks[SQ_CHANNEL_TRANSLATION];

  g_assert_cmpfloat (t->keys[0].time, ==, 0.0);
  g_assert_cmpfloat (t->keys[0].v[0], ==, 0.5);
  g_assert_cmpfloat (t->keys[0].v[1], ==, -1);
  g_assert_cmpfloat (t->keys[0].v[2], ==, 2);
  g_assert_true (t->present == NULL || t->present[0] == SQ_PRESENT_ALL);
}

static void
test_edits (void)
{
  const char *some[] = { "rtelbow", NULL };
  struct { SqEdit *edit; void (*check) (const SqClip *, const SqClip *); } cases[] = {
    { sq_edit_invert_xz_new (NULL), check_invert_all },
    { sq_edit_invert_xz_new (some), check_invert_some },
    { sq_edit_rename_joint_new ("rtelbow", "rtelbow2"), check_rename },
    { sq_edit_delete_joint_new ("neck"), check_delete },
    { sq_edit_rename_root_new ("hips"), check_rename_root },
    { sq_edit_rescale_new (2.5), check_rescale },
    { sq_edit_set_first_frame_new (0.5, -1, 2), check_first_frame },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SqClip) clip = sample ();
      g_autofree char *what = sq_edit_describe (cases[i].edit);

      g_test_message ("%s: %s", sq_edit_get_label (cases[i].edit), what);
      apply_undo_redo (clip, cases[i].edit, cases[i].check);
      sq_edit_free (cases[i].edit);
    }
}

static void
test_refusals (void)
{
  g_autoptr(SqClip) clip = sample ();
  g_autoptr(SqClip) before = sq_clip_copy (clip);
  const char *unknown[] = { "back", "nosuch", NULL };
  struct { SqEdit *edit; SqErrorCode code; } cases[] = {
    { sq_edit_rename_joint_new ("back", "neck"), SQ_ERROR_EXISTS },
    { sq_edit_rename_joint_new ("nosuch", "x"), SQ_ERROR_NOT_FOUND },
    { sq_edit_rename_joint_new ("back", ""), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_delete_joint_new ("nosuch"), SQ_ERROR_NOT_FOUND },
    { sq_edit_rename_root_new ("back"), SQ_ERROR_EXISTS },
    { sq_edit_invert_xz_new (unknown), SQ_ERROR_NOT_FOUND },
    { sq_edit_rescale_new (NAN), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_rescale_new (INFINITY), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_set_first_frame_new (0, NAN, 0), SQ_ERROR_INVALID_ARGUMENT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (sq_edit_apply (cases[i].edit, clip, &error));
      g_assert_error (error, SQ_ERROR, (int) cases[i].code);
      g_assert_true (sq_clip_equal (before, clip));
      g_assert_false (sq_clip_is_modified (clip));
      sq_edit_free (cases[i].edit);
    }
}

static void
test_first_frame_creates_location (void)
{
  /* a file without blocks: set first frame creates the root's location and
   * the binary writer then writes the three location blocks */
  GByteArray *b = tu_seq_header (10, 1);
  g_autoptr(GBytes) bytes = NULL, out = NULL;
  g_autoptr(SqClip) clip = NULL, again = NULL;
  g_autoptr(SqEdit) edit = sq_edit_set_first_frame_new (0, 0, 0);
  g_autoptr(SqEdit) rescale = sq_edit_rescale_new (3);
  g_autoptr(GError) error = NULL;

  tu_seq_joint (b, "back", 1);
  bytes = g_byte_array_free_to_bytes (b);
  clip = tu_load_ok (bytes);

  g_assert_false (sq_edit_apply (rescale, clip, &error));
  g_assert_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_assert_true (sq_edit_apply (edit, clip, &error));
  g_assert_cmpuint (clip->n_joints, ==, 2);
  g_assert_cmpstr (clip->joints[1].name, ==, "pelvis");
  out = tu_save (clip, "seq-binary", NULL);
  again = tu_load_ok (out);
  g_assert_cmpuint (again->joints[1].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 1);
  g_assert_cmpuint (again->joints[1].tracks[SQ_CHANNEL_TRANSLATION].present[0], ==, SQ_PRESENT_ALL);
  g_assert_cmpuint (g_bytes_get_size (out), ==, g_bytes_get_size (bytes) + 4 + 3 * 16);
  /* the entry-less root is not written as a joint */
  {
    const guint8 *d = g_bytes_get_data (out, NULL);
    g_assert_cmpuint (((guint32) d[6] << 24) | (d[7] << 16) | (d[8] << 8) | d[9], ==, 1);
  }

  sq_edit_undo (edit, clip);
  {
    g_autoptr(GBytes) orig = tu_save (clip, "seq-binary", NULL);
    g_assert_true (g_bytes_equal (orig, bytes));
  }
}

static void
test_corpus_edits_save (void)
{
  g_autoptr(GPtrArray) files = tu_corpus_files ("seq-binary");

  if (files->len == 0)
    {
      g_test_skip ("no corpus");
      return;
    }
  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GBytes) bytes = tu_read (files->pdata[i]);
      g_autoptr(SqClip) clip = tu_load_ok (bytes);
      g_autoptr(SqEdit) e1 = sq_edit_invert_xz_new (NULL);
      g_autoptr(SqEdit) e2 = sq_edit_rescale_new (0.5);
      g_autoptr(GBytes) out = NULL;
      g_autoptr(SqClip) again = NULL;

      g_assert_true (sq_edit_apply (e1, clip, NULL));
      g_assert_true (sq_edit_apply (e2, clip, NULL));
      out = sq_save_bytes (clip, clip->format, NULL, NULL, NULL);
      g_assert_false (g_bytes_equal (out, bytes));
      g_assert_cmpuint (g_bytes_get_size (out), ==, g_bytes_get_size (bytes));
      again = tu_load_ok (out);
      g_assert_true (sq_clip_equal (again, clip));
      /* undo both: saving gives the original bytes */
      sq_edit_undo (e2, clip);
      sq_edit_undo (e1, clip);
      g_clear_pointer (&out, g_bytes_unref);
      out = tu_save (clip, "seq-binary", NULL);
      g_assert_true (g_bytes_equal (out, bytes));
    }
}

static void
test_delete_reparents (void)
{
  /* hierarchies keep parent indices in the "parent" extra (BVH) */
  g_autoptr(SqClip) clip = sq_clip_new ();
  g_autoptr(SqClip) before = NULL;
  g_autoptr(SqEdit) edit = sq_edit_delete_joint_new ("B");
  const char *names[] = { "A", "B", "C", "D", "E" };
  const gint32 parents[] = { -1, 0, 1, 0, 2 };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      SqJoint *joint = sq_clip_add_joint (clip, names[i]);
      sq_props_set (joint->extra, "parent", g_variant_new_int32 (parents[i]));
      sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 0)->v[0] = 1;
    }
  before = sq_clip_copy (clip);
  g_assert_true (sq_edit_apply (edit, clip, NULL));
  g_assert_cmpuint (clip->n_joints, ==, 4);
  /* A, C (was under B: now under A), D, E (under C, which moved to 1) */
  g_assert_cmpint (g_variant_get_int32 (sq_props_get (clip->joints[1].extra, "parent")), ==, 0);
  g_assert_cmpint (g_variant_get_int32 (sq_props_get (clip->joints[2].extra, "parent")), ==, 0);
  g_assert_cmpint (g_variant_get_int32 (sq_props_get (clip->joints[3].extra, "parent")), ==, 1);
  sq_edit_undo (edit, clip);
  g_assert_true (sq_clip_equal (before, clip));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/edit/apply-undo-redo", test_edits);
  g_test_add_func ("/edit/refusals", test_refusals);
  g_test_add_func ("/edit/first-frame-creates-location", test_first_frame_creates_location);
  g_test_add_func ("/edit/corpus-edits-save", test_corpus_edits_save);
  g_test_add_func ("/edit/delete-reparents", test_delete_reparents);
  return g_test_run ();
}
