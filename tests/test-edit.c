/* test-edit.c: the six SeqFileViewer edits and the Second Life field edits,
 * with exact undo and redo
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

static void
check_invert_all (const SqClip *b,
                  const SqClip *a)
{
  for (gsize j = 0; j < a->n_joints; j++)
    for (gsize k = 0; k < a->joints[j].tracks[0].n_keys; k++)
      {
        const SqKey ka = sq_track_key (&a->joints[j].tracks[0], k), kb = sq_track_key (&b->joints[j].tracks[0], k);
        const double *x = ka.v, *y = kb.v;
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
        g_assert_cmpfloat (sq_track_key (&a->joints[j].tracks[0], k).v[3], ==, s * sq_track_key (&b->joints[j].tracks[0], k).v[3]);
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
      g_assert_cmpfloat (sq_track_key (ta, k).v[c], ==, sq_track_key (tb, k).v[c] * 2.5);
  /* nothing else moves */
  for (gsize j = 1; j < a->n_joints; j++)
    {
      g_autofree SqKey *tmp_a = NULL, *tmp_b = NULL;
      const SqKey *ka = sq_track_peek (&a->joints[j].tracks[0], &tmp_a);
      const SqKey *kb = sq_track_peek (&b->joints[j].tracks[0], &tmp_b);

      g_assert_cmpmem (ka, a->joints[j].tracks[0].n_keys * sizeof (SqKey),
                       kb, b->joints[j].tracks[0].n_keys * sizeof (SqKey));
    }
}

static void
check_first_frame (const SqClip *b,
                   const SqClip *a)
{
  const SqTrack *t = &a->joints[sq_clip_get_root_index (a)].tracks[SQ_CHANNEL_TRANSLATION];

  g_assert_cmpfloat (sq_track_time (t, 0), ==, 0.0);
  g_assert_cmpfloat (sq_track_key (t, 0).v[0], ==, 0.5);
  g_assert_cmpfloat (sq_track_key (t, 0).v[1], ==, -1);
  g_assert_cmpfloat (sq_track_key (t, 0).v[2], ==, 2);
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
      tu_apply_undo_redo (clip, cases[i].edit, cases[i].check);
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
    /* 0 collapses every location to one point, negative mirrors the path */
    { sq_edit_rescale_new (0), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_rescale_new (-0.0), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_rescale_new (-2), SQ_ERROR_INVALID_ARGUMENT },
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

/* Delete Keys: every channel's key nearest the time, within half a frame;
 * the side arrays (binary SEQ's present masks, .anim's kept codes) follow */
static void
test_delete_keys (void)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  g_autoptr(SqClip) before = NULL, after = NULL;
  g_autoptr(SqEdit) edit = sq_edit_delete_keys_new ("A", 1 / 30.0 + 0.004);
  g_autoptr(SqEdit) none = sq_edit_delete_keys_new ("A", 0.5);
  g_autoptr(SqEdit) nobody = sq_edit_delete_keys_new ("Z", 0);
  g_autoptr(GError) error = NULL;
  SqJoint *a;
  SqTrack *rot, *loc;

  clip->fps = 30;
  a = sq_clip_add_joint (clip, "A");
  rot = &a->tracks[SQ_CHANNEL_ROTATION];
  loc = &a->tracks[SQ_CHANNEL_TRANSLATION];
  for (guint k = 0; k < 4; k++)
    {
      sq_track_append (rot, k / 30.0)->v[0] = 1;
      sq_track_append (loc, k / 30.0)->v[1] = k;
    }
  sq_track_ensure_present (loc);
  loc->present[2] = SQ_PRESENT_X;
  sq_track_ensure_alt (rot);
  rot->alt[2 * 4] = 42;
  before = sq_clip_copy (clip);

  g_assert_true (sq_edit_apply (edit, clip, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (rot->n_keys, ==, 3);
  g_assert_cmpuint (loc->n_keys, ==, 3);
  g_assert_cmpfloat (sq_track_time (rot, 1), ==, 2 / 30.0);
  g_assert_cmpfloat (sq_track_key (loc, 1).v[1], ==, 2);
  g_assert_cmpuint (loc->present[1], ==, SQ_PRESENT_X);
  g_assert_cmpfloat (rot->alt[1 * 4], ==, 42);
  g_assert_cmpstr (sq_edit_get_label (edit), ==, "Delete Keys");
  after = sq_clip_copy (clip);
  sq_edit_undo (edit, clip);
  g_assert_true (sq_clip_equal (before, clip));
  g_assert_true (sq_edit_apply (edit, clip, NULL));
  g_assert_true (sq_clip_equal (after, clip));

  /* no key within half a frame of 0.5 s; no joint Z: refused, nothing changes */
  g_assert_false (sq_edit_apply (none, clip, &error));
  g_assert_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (sq_edit_apply (nobody, clip, &error));
  g_assert_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND);
  g_assert_true (sq_clip_equal (after, clip));
}

/* ---- Second Life fields ---------------------------------------------------- */

static GVariant *
sl_constraint (guint8 chain, const char *src)
{
  guint8 s[16] = { 0 }, d[16] = "GROUND";

  memcpy (s, src, MIN (strlen (src), 16));
  return g_variant_new ("(yy@ay(ddd)@ay(ddd)(ddd)dddd)", chain, 0,
                        g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, s, 16, 1), 0.0, 0.0, 0.0,
                        g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, d, 16, 1), 0.0, 0.0, 0.0,
                        0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 2.0);
}

/* A .anim read back: mPelvis, mHipLeft, mKneeLeft, mAnkleLeft, two constraints */
static SqClip *
sl_sample (void)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  const char *names[] = { "mPelvis", "mHipLeft", "mKneeLeft", "mAnkleLeft" };
  GVariant *c[] = { sl_constraint (2, "L_FOOT"), sl_constraint (1, "L_LOWER_LEG") };
  g_autoptr(GBytes) bytes = NULL;

  clip->duration = 2.0;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      SqJoint *joint = sq_clip_add_joint (clip, names[i]);
      sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 0.0)->v[0] = 1;
      sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 2.0)->v[0] = 1;
    }
  sq_props_set (clip->extra, "constraints",
                g_variant_new_array (G_VARIANT_TYPE ("(yyay(ddd)ay(ddd)(ddd)dddd)"), c, 2));
  bytes = tu_save (clip, "sl-anim", NULL);
  return tu_load_ok (bytes);
}

/* the edited clip writes as .anim and reads back with the same fields */
static void
check_sl_roundtrip (const SqClip *a)
{
  g_autoptr(GBytes) bytes = tu_save (a, "sl-anim", NULL);
  g_autoptr(SqClip) again = tu_load_ok (bytes);

  g_assert_true (sq_clip_equal (again, a));
}

static gint32
extra_int (const SqProps *props, const char *key)
{
  GVariant *v = sq_props_get (props, key);
  g_assert_nonnull (v);
  return g_variant_is_of_type (v, G_VARIANT_TYPE_UINT32) ? (gint32) g_variant_get_uint32 (v) : g_variant_get_int32 (v);
}

static double
extra_double (const SqProps *props, const char *key)
{
  GVariant *v = sq_props_get (props, key);
  g_assert_nonnull (v);
  return g_variant_get_double (v);
}

static void
check_sl_priority (const SqClip *b, const SqClip *a)
{
  g_assert_cmpint (extra_int (b->extra, "priority"), ==, 2);
  g_assert_cmpint (extra_int (a->extra, "priority"), ==, 5);
  check_sl_roundtrip (a);
}

static void
check_sl_joint_priority (const SqClip *b, const SqClip *a)
{
  g_assert_cmpint (extra_int (a->joints[2].extra, "priority"), ==, -1);
  g_assert_cmpint (extra_int (a->joints[1].extra, "priority"), ==, extra_int (b->joints[1].extra, "priority"));
  g_assert_true (sq_props_equal (a->extra, b->extra));
  check_sl_roundtrip (a);
}

static void
check_sl_loop (const SqClip *b, const SqClip *a)
{
  g_assert_cmpint (extra_int (a->extra, "loop"), ==, 1);
  g_assert_cmpfloat (extra_double (a->extra, "loop-in"), ==, 0.5);
  g_assert_cmpfloat (extra_double (a->extra, "loop-out"), ==, 2.0);
  check_sl_roundtrip (a);
}

static void
check_sl_no_loop (const SqClip *b, const SqClip *a)
{
  g_assert_cmpint (extra_int (a->extra, "loop"), ==, 0);
  g_assert_cmpfloat (extra_double (a->extra, "loop-out"), ==, extra_double (b->extra, "loop-out"));
  check_sl_roundtrip (a);
}

static void
check_sl_ease (const SqClip *b, const SqClip *a)
{
  g_assert_cmpfloat (extra_double (a->extra, "ease-in"), ==, 0.25);
  g_assert_cmpfloat (extra_double (a->extra, "ease-out"), ==, 0);
  check_sl_roundtrip (a);
}

static void
check_sl_hand_pose (const SqClip *b, const SqClip *a)
{
  g_assert_cmpint (extra_int (a->extra, "hand-pose"), ==, 13);
  check_sl_roundtrip (a);
}

static void
check_sl_emote (const SqClip *b, const SqClip *a)
{
  g_assert_cmpstr (g_variant_get_string (sq_props_get (a->extra, "emote"), NULL), ==, "express_smile");
  check_sl_roundtrip (a);
}

static void
check_sl_emote_latin1 (const SqClip *b, const SqClip *a)
{
  g_autoptr(GBytes) bytes = tu_save (a, "sl-anim", NULL);
  g_autoptr(SqClip) again = tu_load_ok (bytes);

  g_assert_cmpstr (g_variant_get_string (sq_props_get (a->extra, "emote"), NULL), ==, "Grüße");
  /* written as Latin-1 bytes, read back as the same name */
  g_assert_nonnull (memmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "Gr\xfc\xdf" "e", 6));
  g_assert_cmpstr (g_variant_get_string (sq_props_get (again->extra, "emote"), NULL), ==, "Grüße");
}

static void
check_sl_delete_constraint (const SqClip *b, const SqClip *a)
{
  GVariant *c = sq_props_get (a->extra, "constraints");
  g_autoptr(GVariant) first = g_variant_get_child_value (c, 0);
  g_autoptr(GVariant) was_second = g_variant_get_child_value (sq_props_get (b->extra, "constraints"), 1);

  g_assert_cmpuint (g_variant_n_children (c), ==, 1);
  g_assert_true (g_variant_equal (first, was_second));
  check_sl_roundtrip (a);
}

static void
test_sl_edits (void)
{
  struct { SqEdit *edit; void (*check) (const SqClip *, const SqClip *); } cases[] = {
    { sq_edit_sl_priority_new (5), check_sl_priority },
    { sq_edit_sl_joint_priority_new ("mKneeLeft", -1), check_sl_joint_priority },
    { sq_edit_sl_loop_new (TRUE, 0.5, 2.0), check_sl_loop },
    { sq_edit_sl_loop_new (FALSE, 0, 0), check_sl_no_loop },
    { sq_edit_sl_ease_new (0.25, 0), check_sl_ease },
    { sq_edit_sl_hand_pose_new (13), check_sl_hand_pose },
    { sq_edit_sl_emote_new ("express_smile"), check_sl_emote },
    { sq_edit_sl_emote_new ("Grüße"), check_sl_emote_latin1 },
    { sq_edit_sl_delete_constraint_new (0), check_sl_delete_constraint },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SqClip) clip = sl_sample ();
      g_autofree char *what = sq_edit_describe (cases[i].edit);

      g_test_message ("%s: %s", sq_edit_get_label (cases[i].edit), what);
      tu_apply_undo_redo (clip, cases[i].edit, cases[i].check);
      sq_edit_free (cases[i].edit);
    }

  /* on a clip from another format the fields are added, and undo removes them */
  {
    g_autoptr(SqClip) clip = sample ();
    g_autoptr(SqClip) before = sq_clip_copy (clip);
    g_autoptr(SqEdit) e1 = sq_edit_sl_priority_new (4);
    g_autoptr(SqEdit) e2 = sq_edit_sl_joint_priority_new ("neck", 3);
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(SqClip) again = NULL;

    g_assert_true (sq_edit_apply (e1, clip, NULL));
    g_assert_true (sq_edit_apply (e2, clip, NULL));
    bytes = tu_save (clip, "sl-anim", NULL);
    again = tu_load_ok (bytes);
    g_assert_cmpint (extra_int (again->extra, "priority"), ==, 4);
    /* converted to Second Life, "neck" is written as its bone mNeck */
    g_assert_cmpint (extra_int (again->joints[sq_clip_find_joint (again, "mNeck")].extra, "priority"), ==, 3);
    g_assert_cmpint (extra_int (again->joints[0].extra, "priority"), ==, 4);
    sq_edit_undo (e2, clip);
    sq_edit_undo (e1, clip);
    g_assert_true (sq_clip_equal (before, clip));
  }
}

static void
test_sl_refusals (void)
{
  g_autoptr(SqClip) clip = sl_sample ();
  g_autoptr(SqClip) before = sq_clip_copy (clip);
  g_autofree char *long_name = g_strnfill (SQ_SL_EMOTE_MAX_BYTES + 1, 'a');
  struct { SqEdit *edit; SqErrorCode code; } cases[] = {
    { sq_edit_sl_priority_new (-2), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_priority_new (7), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_joint_priority_new ("mKneeLeft", 7), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_joint_priority_new ("mKneeLeft", -2), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_joint_priority_new ("nosuch", 1), SQ_ERROR_NOT_FOUND },
    { sq_edit_sl_loop_new (TRUE, 1.5, 1.0), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_loop_new (TRUE, -0.1, 1.0), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_loop_new (TRUE, 0, 2.01), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_loop_new (TRUE, NAN, 1), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_ease_new (-1, 0), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_ease_new (0, INFINITY), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_ease_new (NAN, 0), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_hand_pose_new (14), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_hand_pose_new (G_MAXUINT32), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_emote_new ("smile \u263A"), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_emote_new (long_name), SQ_ERROR_INVALID_ARGUMENT },
    { sq_edit_sl_delete_constraint_new (2), SQ_ERROR_INVALID_ARGUMENT },
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
  /* no constraints at all */
  {
    g_autoptr(SqClip) seq = sample ();
    g_autoptr(SqEdit) edit = sq_edit_sl_delete_constraint_new (0);
    g_autoptr(GError) error = NULL;

    g_assert_false (sq_edit_apply (edit, seq, &error));
    g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
  }
}

static void
test_rename_root_entry_bytes (void)
{
  /* binary SEQ: renaming the joint entry "pelvis" changes only its name
   * field; the header's root and the location blocks stay as they were */
  g_autoptr(SqClip) clip = sample ();
  g_autoptr(SqEdit) edit = sq_edit_rename_joint_new ("pelvis", "hips");
  g_autoptr(GBytes) before = tu_save (clip, "seq-binary", NULL);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GByteArray) want = g_byte_array_new ();
  gsize len;
  const guint8 *b = g_bytes_get_data (before, &len);
  /* header: magic 4, frames 2, count 4, model (2 + 7), root (2 + 7) */
  gsize entry = 4 + 2 + 4 + 2 + 7 + 2 + 7;

  g_assert_true (sq_edit_apply (edit, clip, NULL));
  g_assert_true (sq_clip_check (clip, NULL));
  g_assert_cmpstr (clip->root, ==, "pelvis");
  g_assert_cmpstr (clip->joints[0].name, ==, "hips");
  g_assert_cmpstr (clip->joints[clip->n_joints - 1].name, ==, "pelvis");
  g_assert_cmpuint (clip->joints[clip->n_joints - 1].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 3);
  after = tu_save (clip, "seq-binary", NULL);

  g_assert_cmpmem (b + entry, 9, "\0\7pelvis\0", 9);
  g_byte_array_append (want, b, entry);
  g_byte_array_append (want, (const guint8 *) "\0\5hips\0", 7);
  g_byte_array_append (want, b + entry + 9, len - entry - 9);
  g_assert_cmpmem (g_bytes_get_data (after, NULL), g_bytes_get_size (after), want->data, want->len);

  sq_edit_undo (edit, clip);
  {
    g_autoptr(GBytes) again = tu_save (clip, "seq-binary", NULL);
    g_assert_true (g_bytes_equal (again, before));
  }
}

/* ---- constraints, frame rate, .x set name ---------------------------------- */

static SqSlConstraint
make_constraint (guint8 chain, guint8 type, const char *src, const char *dst)
{
  SqSlConstraint c = { 0 };

  c.chain_length = chain;
  c.type = type;
  g_strlcpy (c.source_volume, src, sizeof c.source_volume);
  g_strlcpy (c.target_volume, dst, sizeof c.target_volume);
  c.source_offset[0] = 0.25;
  c.target_offset[2] = -0.5;
  c.target_dir[1] = 1.0;
  c.ease_in_start = 0.0;
  c.ease_in_stop = 0.5;
  c.ease_out_start = 1.5;
  c.ease_out_stop = 2.0;
  return c;
}

static void
assert_constraint_eq (const SqSlConstraint *a, const SqSlConstraint *b)
{
  g_assert_cmpuint (a->chain_length, ==, b->chain_length);
  g_assert_cmpuint (a->type, ==, b->type);
  g_assert_cmpstr (a->source_volume, ==, b->source_volume);
  g_assert_cmpstr (a->target_volume, ==, b->target_volume);
  g_assert_cmpmem (a->source_offset, sizeof a->source_offset, b->source_offset, sizeof b->source_offset);
  g_assert_cmpmem (a->target_offset, sizeof a->target_offset, b->target_offset, sizeof b->target_offset);
  g_assert_cmpmem (a->target_dir, sizeof a->target_dir, b->target_dir, sizeof b->target_dir);
  g_assert_cmpfloat (a->ease_in_start, ==, b->ease_in_start);
  g_assert_cmpfloat (a->ease_in_stop, ==, b->ease_in_stop);
  g_assert_cmpfloat (a->ease_out_start, ==, b->ease_out_start);
  g_assert_cmpfloat (a->ease_out_stop, ==, b->ease_out_stop);
}

static void
check_constraint_set (const SqClip *b, const SqClip *a)
{
  SqSlConstraint want = make_constraint (3, 1, "L_HAND", "GROUND"), got, first_b, first_a;
  g_autoptr(GBytes) bytes = tu_save (a, "sl-anim", NULL);
  g_autoptr(SqClip) again = tu_load_ok (bytes);

  g_assert_cmpuint (sq_sl_constraint_count (a), ==, 2);
  g_assert_true (sq_sl_constraint_get (a, 1, &got));
  assert_constraint_eq (&got, &want);
  /* the other one is untouched */
  g_assert_true (sq_sl_constraint_get (b, 0, &first_b));
  g_assert_true (sq_sl_constraint_get (a, 0, &first_a));
  assert_constraint_eq (&first_a, &first_b);
  /* the written file holds it */
  g_assert_true (sq_clip_equal (again, a));
  g_assert_true (sq_sl_constraint_get (again, 1, &got));
  assert_constraint_eq (&got, &want);
  g_assert_nonnull (memmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "L_HAND\0\0", 8));
  g_assert_nonnull (memmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "GROUND\0\0", 8));
}

static void
check_constraint_add (const SqClip *b, const SqClip *a)
{
  SqSlConstraint want = make_constraint (0, 0, "PELVIS", "BELLY"), got;
  g_autoptr(GBytes) bytes = tu_save (a, "sl-anim", NULL);
  g_autoptr(SqClip) again = tu_load_ok (bytes);

  g_assert_cmpuint (sq_sl_constraint_count (b), ==, 2);
  g_assert_cmpuint (sq_sl_constraint_count (a), ==, 3);
  g_assert_true (sq_sl_constraint_get (again, 2, &got));
  assert_constraint_eq (&got, &want);
  g_assert_true (sq_clip_equal (again, a));
  g_assert_false (sq_sl_constraint_get (again, 3, &got));
  g_assert_cmpuint (got.chain_length, ==, 0);
}

static void
test_sl_constraint_edits (void)
{
  g_autoptr(SqClip) clip = sl_sample ();
  SqSlConstraint set = make_constraint (3, 1, "L_HAND", "GROUND");
  SqSlConstraint add = make_constraint (0, 0, "PELVIS", "BELLY");
  g_autoptr(SqEdit) e1 = sq_edit_sl_constraint_new (1, &set);
  g_autoptr(SqEdit) e2 = sq_edit_sl_constraint_new (2, &add);
  g_autofree char *d1 = NULL, *d2 = NULL;

  tu_apply_undo_redo (clip, e1, check_constraint_set);
  tu_apply_undo_redo (clip, e2, check_constraint_add);
  d1 = sq_edit_describe (e1);
  d2 = sq_edit_describe (e2);
  g_assert_nonnull (strstr (d1, "constraint 2"));
  g_assert_nonnull (strstr (d1, "L_HAND"));
  g_assert_nonnull (strstr (d2, "constraint 3"));
  g_assert_cmpstr (sq_edit_get_label (e1), ==, "Set Constraint");

  /* writing a constraint back as it reads keeps its raw volume fields */
  {
    SqSlConstraint same;
    g_autoptr(SqEdit) e = NULL;
    g_autoptr(GVariant) before = NULL;

    g_assert_true (sq_sl_constraint_get (clip, 0, &same));
    g_assert_cmpstr (same.source_volume, ==, "L_FOOT");
    e = sq_edit_sl_constraint_new (0, &same);
    before = g_variant_ref (sq_props_get (clip->extra, "constraints"));
    g_assert_true (sq_edit_apply (e, clip, NULL));
    g_assert_true (g_variant_equal (before, sq_props_get (clip->extra, "constraints")));
    sq_edit_undo (e, clip);
  }

  /* up to ten */
  {
    g_autoptr(SqClip) c = sl_sample ();
    g_autoptr(GPtrArray) edits = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_edit_free);
    g_autoptr(SqEdit) eleventh = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(SqClip) before = NULL;

    for (guint i = 2; i < 10; i++)
      {
        SqEdit *e = sq_edit_sl_constraint_new (i, &add);
        g_assert_true (sq_edit_apply (e, c, NULL));
        g_ptr_array_add (edits, e);
      }
    g_assert_cmpuint (sq_sl_constraint_count (c), ==, 10);
    before = sq_clip_copy (c);
    eleventh = sq_edit_sl_constraint_new (10, &add);
    g_assert_false (sq_edit_apply (eleventh, c, &error));
    g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
    g_assert_true (sq_clip_equal (before, c));
  }

  /* on a clip from another format: appended, and written in the .anim */
  {
    g_autoptr(SqClip) seq = sample ();
    SqSlConstraint c = make_constraint (2, 0, "R_HAND", "HEAD"), got;
    g_autoptr(SqEdit) e = sq_edit_sl_constraint_new (0, &c);
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(SqClip) again = NULL;

    g_assert_cmpuint (sq_sl_constraint_count (seq), ==, 0);
    g_assert_true (sq_edit_apply (e, seq, NULL));
    bytes = tu_save (seq, "sl-anim", NULL);
    again = tu_load_ok (bytes);
    g_assert_cmpuint (sq_sl_constraint_count (again), ==, 1);
    g_assert_true (sq_sl_constraint_get (again, 0, &got));
    assert_constraint_eq (&got, &c);
  }
}

static void
test_sl_constraint_refusals (void)
{
  g_autoptr(SqClip) clip = sl_sample ();
  g_autoptr(SqClip) before = sq_clip_copy (clip);
  SqSlConstraint cs[16];
  guint index[16] = { 0 };
  guint n = 0;

  cs[n++] = make_constraint (4, 0, "L_HAND", "GROUND");        /* chain > 3 */
  cs[n++] = make_constraint (2, 2, "L_HAND", "GROUND");        /* type */
  cs[n++] = make_constraint (2, 0, "mWristLeft", "GROUND");    /* not a volume */
  cs[n++] = make_constraint (2, 0, "GROUND", "L_HAND");        /* GROUND is no source */
  cs[n++] = make_constraint (2, 0, "L_HAND", "");              /* empty target */
  cs[n++] = make_constraint (2, 0, "L_HAND", "l_hand");        /* case matters */
  cs[n] = make_constraint (2, 0, "L_HAND", "GROUND");
  cs[n++].target_offset[1] = NAN;
  cs[n] = make_constraint (2, 0, "L_HAND", "GROUND");
  cs[n++].target_dir[0] = 1e39;                                /* beyond single precision */
  cs[n] = make_constraint (2, 0, "L_HAND", "GROUND");
  cs[n++].ease_in_start = -0.1;
  cs[n] = make_constraint (2, 0, "L_HAND", "GROUND");
  cs[n++].ease_out_start = 3.0;                                /* start after stop */
  cs[n] = make_constraint (2, 0, "L_HAND", "GROUND");
  cs[n++].ease_in_stop = INFINITY;
  cs[n] = make_constraint (2, 0, "L_HAND", "GROUND");
  index[n++] = 3;                                              /* beyond append */

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SqEdit) e = sq_edit_sl_constraint_new (index[i], &cs[i]);
      g_autoptr(GError) error = NULL;

      g_assert_false (sq_edit_apply (e, clip, &error));
      g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
      g_test_message ("refused: %s", error->message);
      g_assert_true (sq_clip_equal (before, clip));
      g_assert_false (sq_clip_is_modified (clip));
    }

  /* chain longer than the joints */
  {
    g_autoptr(SqClip) one = sq_clip_new ();
    SqSlConstraint c = make_constraint (2, 0, "PELVIS", "GROUND");
    g_autoptr(SqEdit) e = sq_edit_sl_constraint_new (0, &c);
    g_autoptr(GError) error = NULL;

    one->duration = 1.0;
    sq_clip_add_joint (one, "mPelvis");
    g_assert_false (sq_edit_apply (e, one, &error));
    g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
  }
}

static void
test_sl_fields_getters (void)
{
  g_autoptr(SqClip) seq = sample ();
  g_autoptr(SqClip) sl = sl_sample ();
  g_autoptr(SqEdit) e1 = sq_edit_sl_hand_pose_new (12);
  g_autoptr(SqEdit) e2 = sq_edit_sl_joint_priority_new ("mKneeLeft", 5);
  SqSlFields f;
  const char * const *volumes = sq_sl_collision_volumes ();
  guint n = 0;

  /* a clip from another format: the .anim writer's defaults */
  sq_sl_fields_get (seq, &f);
  g_assert_cmpint (f.priority, ==, SQ_SL_DEFAULT_PRIORITY);
  g_assert_false (f.loop);
  g_assert_cmpfloat (f.loop_in, ==, 0.0);
  g_assert_cmpfloat (f.loop_out, ==, seq->duration);
  g_assert_cmpfloat (f.ease_in, ==, 0.3);
  g_assert_cmpfloat (f.ease_out, ==, 0.3);
  g_assert_cmpuint (f.hand_pose, ==, 1);
  g_assert_cmpstr (f.emote, ==, "");
  g_assert_cmpint (sq_sl_joint_priority (seq, 0), ==, 2);
  g_assert_cmpuint (sq_sl_constraint_count (seq), ==, 0);
  g_assert_cmpstr (sq_dx_set_name (seq), ==, "");
  g_assert_cmpfloat (sq_clip_frame_time (seq), ==, 1.0 / seq->fps);

  /* the same values once written and read as .anim */
  {
    g_autoptr(GBytes) bytes = tu_save (seq, "sl-anim", NULL);
    g_autoptr(SqClip) back = tu_load_ok (bytes);
    SqSlFields g;

    sq_sl_fields_get (back, &g);
    g_assert_cmpint (g.priority, ==, f.priority);
    g_assert_cmpuint (g.hand_pose, ==, f.hand_pose);
    g_assert_cmpfloat (fabs (g.ease_in - f.ease_in), <, 1e-7);
    g_assert_cmpfloat (fabs (g.loop_out - f.loop_out), <, 1e-5);
  }

  g_assert_true (sq_edit_apply (e1, sl, NULL));
  g_assert_true (sq_edit_apply (e2, sl, NULL));
  sq_sl_fields_get (sl, &f);
  g_assert_cmpuint (f.hand_pose, ==, 12);
  g_assert_cmpint (sq_sl_joint_priority (sl, 2), ==, 5);
  g_assert_cmpint (sq_sl_joint_priority (sl, 1), ==, 2);
  g_assert_cmpstr (sq_sl_hand_pose_name (12), ==, "Peace Right");
  g_assert_cmpstr (sq_sl_hand_pose_name (0), ==, "Spread");
  g_assert_null (sq_sl_hand_pose_name (14));
  g_assert_cmpstr (sq_sl_constraint_type_name (1), ==, "Plane");
  g_assert_null (sq_sl_constraint_type_name (2));

  /* the chooser's list is the skeleton's collision volumes */
  for (; volumes[n] != NULL; n++)
    {
      g_assert_nonnull (sq_sl_collision_volume_bone (volumes[n]));
      g_assert_true (sq_sl_is_collision_volume (volumes[n]));
    }
  g_assert_cmpuint (n, ==, 26);
  g_assert_false (sq_sl_is_collision_volume ("GROUND"));

  /* a long Latin-1 emote is cut at a character boundary */
  {
    g_autoptr(GString) s = g_string_new (NULL);
    g_autoptr(SqEdit) e = NULL;

    for (guint i = 0; i < 200; i++)
      g_string_append (s, "é");
    e = sq_edit_sl_emote_new (s->str);
    g_assert_true (sq_edit_apply (e, sl, NULL));
    sq_sl_fields_get (sl, &f);
    g_assert_cmpuint (strlen (f.emote), ==, 254);
    g_assert_true (g_utf8_validate (f.emote, -1, NULL));
  }
}

static const char bvh_small[] =
  "HIERARCHY\n"
  "ROOT hip\n"
  "{\n"
  "  OFFSET 0 0 0\n"
  "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
  "  End Site\n"
  "  {\n"
  "    OFFSET 0 1 0\n"
  "  }\n"
  "}\n"
  "MOTION\n"
  "Frames: 3\n"
  "Frame Time: 0.0333333\n"
  "0 0 0 0 0 0\n"
  "1 0 0 10 0 0\n"
  "2 0 0 20 0 0\n";

static SqClip *
load_text_ok (const char *text, const char *format)
{
  g_autoptr(GError) error = NULL;
  SqClip *clip = tu_load_text (text, format, &error);

  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, NULL));
  return clip;
}

static void
check_bvh_frame_time (const SqClip *b, const SqClip *a)
{
  SqSaveOptions opts = { .no_source_copy = TRUE };
  g_autoptr(GBytes) bytes = sq_save_bytes (a, a->format, &opts, NULL, NULL);
  g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autoptr(SqClip) again = load_text_ok (text, "bvh");
  const SqTrack *t = &a->joints[0].tracks[SQ_CHANNEL_TRANSLATION];

  g_assert_cmpfloat (sq_clip_frame_time (a), ==, 0.05);
  g_assert_cmpfloat (a->fps, ==, 1.0 / 0.05);
  g_assert_cmpfloat (a->duration, ==, 2 * 0.05);
  g_assert_cmpuint (t->n_keys, ==, b->joints[0].tracks[SQ_CHANNEL_TRANSLATION].n_keys);
  g_assert_cmpfloat (sq_track_time (t, 1), ==, 0.05);
  g_assert_cmpfloat (sq_track_time (t, 2), ==, 0.1);
  g_assert_nonnull (strstr (text, "\nFrame Time: 0.05\n"));
  g_assert_cmpfloat (again->fps, ==, a->fps);
  g_assert_cmpfloat (again->duration, ==, a->duration);
  g_assert_cmpfloat (sq_track_time (&again->joints[0].tracks[SQ_CHANNEL_TRANSLATION], 2), ==, 0.1);
}

static void
check_bvh_frame_rate (const SqClip *b G_GNUC_UNUSED, const SqClip *a)
{
  SqSaveOptions opts = { .no_source_copy = TRUE };
  g_autoptr(GBytes) bytes = sq_save_bytes (a, a->format, &opts, NULL, NULL);
  g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  g_assert_cmpfloat (a->fps, ==, 10.0);
  g_assert_cmpfloat (fabs (a->duration - 0.2), <, 1e-15);
  g_assert_nonnull (strstr (text, "\nFrame Time: 0.1\n"));
}

static const char dx_small[] =
  "xof 0303txt 0032\r\n"
  "AnimationSet Walk {\r\n"
  "  AnimTicksPerSecond {\r\n"
  "    30;\r\n"
  "  }\r\n"
  "  Animation {\r\n"
  "    {aw_pelvis}\r\n"
  "    AnimationKey {\r\n"
  "      0;\r\n"
  "      3;\r\n"
  "      0;4;1.000000,0.000000,0.000000,0.000000;;,\r\n"
  "      15;4;1.000000,0.000000,0.000000,0.000000;;,\r\n"
  "      45;4;1.000000,0.000000,0.000000,0.000000;;;\r\n"
  "    }\r\n"
  "  }\r\n"
  "}\r\n";

static void
check_dx_frame_rate (const SqClip *b, const SqClip *a)
{
  g_autoptr(GBytes) bytes = tu_save (a, "dx", NULL);
  g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autoptr(SqClip) again = load_text_ok (text, "dx");
  const SqTrack *t = &a->joints[0].tracks[SQ_CHANNEL_ROTATION];

  g_assert_cmpfloat (b->fps, ==, 30.0);
  g_assert_cmpfloat (a->fps, ==, 60.0);
  g_assert_cmpfloat (a->duration, ==, 0.75);
  g_assert_cmpfloat (sq_track_time (t, 1), ==, 0.25);
  g_assert_nonnull (strstr (text, "AnimTicksPerSecond {\r\n    60;\r\n"));
  /* the ticks stay */
  g_assert_nonnull (strstr (text, "\r\n      15;4;"));
  g_assert_nonnull (strstr (text, "\r\n      45;4;"));
  g_assert_true (sq_clip_equal (again, a));
  g_assert_cmpfloat (again->fps, ==, 60.0);
}

static void
check_dx_set_name (const SqClip *b, const SqClip *a)
{
  g_autoptr(GBytes) bytes = tu_save (a, "dx", NULL);
  g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autoptr(SqClip) again = load_text_ok (text, "dx");

  g_assert_cmpstr (sq_dx_set_name (b), ==, "Walk");
  g_assert_cmpstr (sq_dx_set_name (a), ==, "Run_2.b");
  g_assert_nonnull (strstr (text, "\r\nAnimationSet Run_2.b {\r\n"));
  g_assert_cmpstr (sq_dx_set_name (again), ==, "Run_2.b");
}

static void
check_dx_no_name (const SqClip *b G_GNUC_UNUSED, const SqClip *a)
{
  g_autoptr(GBytes) bytes = tu_save (a, "dx", NULL);
  g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  g_assert_cmpstr (sq_dx_set_name (a), ==, "");
  g_assert_nonnull (strstr (text, "\r\nAnimationSet {\r\n"));
}

static void
test_frame_rate_and_set_name (void)
{
  struct { const char *text, *format; SqEdit *edit; void (*check) (const SqClip *, const SqClip *); } cases[] = {
    { bvh_small, "bvh", sq_edit_set_frame_time_new (0.05), check_bvh_frame_time },
    { bvh_small, "bvh", sq_edit_set_frame_rate_new (10), check_bvh_frame_rate },
    { dx_small, "dx", sq_edit_set_frame_rate_new (60), check_dx_frame_rate },
    { dx_small, "dx", sq_edit_dx_set_name_new ("Run_2.b"), check_dx_set_name },
    { dx_small, "dx", sq_edit_dx_set_name_new (""), check_dx_no_name },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SqClip) clip = load_text_ok (cases[i].text, cases[i].format);
      double fps = clip->fps;
      g_autofree char *what = sq_edit_describe (cases[i].edit);

      g_test_message ("%s: %s", sq_edit_get_label (cases[i].edit), what);
      tu_apply_undo_redo (clip, cases[i].edit, cases[i].check);
      g_assert_cmpfloat (clip->fps, ==, fps);
      sq_edit_free (cases[i].edit);
    }

  /* the unedited BVH keeps its frame time text */
  {
    g_autoptr(SqClip) clip = load_text_ok (bvh_small, "bvh");
    SqSaveOptions opts = { .no_source_copy = TRUE };
    g_autoptr(GBytes) bytes = sq_save_bytes (clip, clip->format, &opts, NULL, NULL);

    g_assert_cmpfloat (sq_clip_frame_time (clip), ==, 0.0333333);
    g_assert_nonnull (memmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                              "Frame Time: 0.0333333\n", 22));
  }
}

static void
test_frame_rate_refusals (void)
{
  struct { const char *text, *format; SqEdit *edit; } cases[] = {
    { bvh_small, "bvh", sq_edit_set_frame_rate_new (0) },
    { bvh_small, "bvh", sq_edit_set_frame_rate_new (-30) },
    { bvh_small, "bvh", sq_edit_set_frame_rate_new (NAN) },
    { bvh_small, "bvh", sq_edit_set_frame_rate_new (INFINITY) },
    { bvh_small, "bvh", sq_edit_set_frame_rate_new (1001) },
    { bvh_small, "bvh", sq_edit_set_frame_time_new (0.0009) },
    { bvh_small, "bvh", sq_edit_set_frame_time_new (10.5) },
    { dx_small, "dx", sq_edit_set_frame_rate_new (24.5) },
    { dx_small, "dx", sq_edit_dx_set_name_new ("two words") },
    { dx_small, "dx", sq_edit_dx_set_name_new ("1st") },
    { dx_small, "dx", sq_edit_dx_set_name_new ("a{b}") },
    { dx_small, "dx", sq_edit_dx_set_name_new ("semi;colon") },
    { dx_small, "dx", sq_edit_dx_set_name_new ("template") },
    { dx_small, "dx", sq_edit_dx_set_name_new ("DWORD") },
    { dx_small, "dx", sq_edit_dx_set_name_new ("smile\u263A") },
    { dx_small, "dx", sq_edit_dx_set_name_new ("//x") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SqClip) clip = load_text_ok (cases[i].text, cases[i].format);
      g_autoptr(SqClip) before = sq_clip_copy (clip);
      g_autoptr(GError) error = NULL;

      g_assert_false (sq_edit_apply (cases[i].edit, clip, &error));
      g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
      g_test_message ("refused: %s", error->message);
      g_assert_true (sq_clip_equal (before, clip));
      g_assert_cmpfloat (before->fps, ==, clip->fps);
      g_assert_false (sq_clip_is_modified (clip));
      sq_edit_free (cases[i].edit);
    }

  /* a name of 200 characters fits, 201 do not */
  {
    g_autoptr(SqClip) clip = load_text_ok (dx_small, "dx");
    g_autofree char *n200 = g_strnfill (200, 'a');
    g_autofree char *n201 = g_strnfill (201, 'a');
    g_autoptr(SqEdit) ok = sq_edit_dx_set_name_new (n200);
    g_autoptr(SqEdit) bad = sq_edit_dx_set_name_new (n201);

    g_assert_false (sq_edit_apply (bad, clip, NULL));
    g_assert_true (sq_edit_apply (ok, clip, NULL));
  }

  /* fixed time bases: SEQ and .anim */
  {
    g_autoptr(SqClip) seq = sample ();
    g_autoptr(SqClip) sl = sl_sample ();
    g_autoptr(SqEdit) e1 = sq_edit_set_frame_rate_new (25);
    g_autoptr(SqEdit) e2 = sq_edit_set_frame_time_new (0.04);
    g_autoptr(GError) error = NULL;

    g_assert_false (sq_edit_apply (e1, seq, &error));
    g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_false (sq_edit_apply (e2, sl, &error));
    g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
    g_assert_false (sq_clip_is_modified (seq));
  }
}

/* The name check the dialogs use is the rename edits' own, word for word */
static void
test_joint_name_check (void)
{
  g_autoptr(SqClip) clip = sample ();
  gssize back = sq_clip_find_joint (clip, "back");
  const struct { const char *name; int code; } cases[] = {
    { "", SQ_ERROR_INVALID_ARGUMENT },
    { "two\nlines", SQ_ERROR_INVALID_ARGUMENT },
    { "cr\r", SQ_ERROR_INVALID_ARGUMENT },
    { "neck", SQ_ERROR_EXISTS },
    { "back", -1 },
    { "spine", -1 },
  };

  g_assert_cmpint (back, >=, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SqEdit) edit = sq_edit_rename_joint_new ("back", cases[i].name);
      g_autoptr(GError) error = NULL, applied = NULL;
      g_autoptr(SqClip) copy = sq_clip_copy (clip);
      gboolean ok = sq_edit_check_joint_name (clip, cases[i].name, back, &error);

      if (cases[i].code < 0)
        {
          g_assert_no_error (error);
          g_assert_true (ok);
          g_assert_true (sq_edit_apply (edit, copy, NULL));
          continue;
        }
      g_assert_false (ok);
      g_assert_error (error, SQ_ERROR, cases[i].code);
      g_assert_false (sq_edit_apply (edit, copy, &applied));
      g_assert_cmpstr (applied->message, ==, error->message);
    }
  /* a name no joint has yet may be none of the joints' */
  g_assert_false (sq_edit_check_joint_name (clip, "back", -1, NULL));
}

/* ---- every kind of edit: apply, undo, redo ---- */

static GBytes *
companion_beside (const char *name,
                  gpointer    user_data,
                  GError    **error)
{
  g_autofree char *path = g_build_filename (user_data, name, NULL);
  char *data;
  gsize size;

  if (!g_file_get_contents (path, &data, &size, error))
    return NULL;
  return g_bytes_new_take (data, size);
}

/* tests/data/`rel`, its companion files (CMX's CFP) from beside it */
static SqClip *
load_data (const char *rel)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", rel, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(GError) error = NULL;
  SqLoadOptions options = { 0 };
  SqClip *clip;

  options.companion = companion_beside;
  options.companion_data = dir;
  clip = sq_load_bytes (bytes, path, NULL, &options, &error);
  g_assert_no_error (error);
  g_assert_nonnull (clip);
  return clip;
}

/* what the clip is, byte for byte: every writable format's save from the
 * model, and its own format's save (which may copy the source) */
static GPtrArray *
clip_bytes (const SqClip *clip)
{
  GPtrArray *saves = tu_save_every_format (clip);
  g_autoptr(GError) error = NULL;
  GBytes *own = sq_save_bytes (clip, clip->format, NULL, NULL, &error);

  g_ptr_array_add (saves, own != NULL ? own : g_bytes_new (error->message, strlen (error->message)));
  return saves;
}

static void
walk_one (const char *file,
          SqEdit     *edit)
{
  g_autoptr(SqClip) clip = load_data (file);
  g_autoptr(SqClip) before = sq_clip_copy (clip);
  g_autoptr(SqClip) after = NULL;
  g_autoptr(GPtrArray) bytes_before = clip_bytes (clip);
  g_autoptr(GPtrArray) bytes_after = NULL;
  g_autoptr(GPtrArray) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *what = sq_edit_describe (edit);
  g_autofree char *what_applied = NULL;

  g_test_message ("%s: %s (%s)", file, sq_edit_get_label (edit), what);
  g_assert_cmpstr (sq_edit_get_label (edit), !=, "");
  g_assert_cmpstr (what, !=, "");

  if (!sq_edit_apply (edit, clip, &error))
    g_error ("%s on %s: %s", sq_edit_get_label (edit), file, error->message);
  g_assert_true (sq_clip_check (clip, NULL));
  g_assert_true (sq_clip_is_modified (clip));
  g_assert_false (sq_clip_equal (before, clip));
  after = sq_clip_copy (clip);
  bytes_after = clip_bytes (clip);
  what_applied = sq_edit_describe (edit);
  g_assert_cmpstr (what_applied, !=, "");

  /* undo: bitwise the clip from before */
  sq_edit_undo (edit, clip);
  g_assert_true (sq_clip_equal (before, clip));
  g_assert_false (sq_clip_is_modified (clip));
  bytes = clip_bytes (clip);
  tu_assert_same_saves (bytes_before, bytes);
  g_clear_pointer (&bytes, g_ptr_array_unref);

  /* redo: the same as the first apply */
  g_assert_true (sq_edit_apply (edit, clip, &error));
  g_assert_no_error (error);
  g_assert_true (sq_clip_equal (after, clip));
  bytes = clip_bytes (clip);
  tu_assert_same_saves (bytes_after, bytes);
  sq_edit_undo (edit, clip);
  g_assert_true (sq_clip_equal (before, clip));
}

static void
test_every_kind (void)
{
  static const char *wave = "../../data/samples/wave.seq";
  static const char *sl = "corpus/sl-anim/0f86e355-dd31-a61c-fdb0-3a96b9aad05f.dat";
  static const char *bvh = "../../data/samples/wave.bvh";
  static const char *dx = "../../data/samples/wave.x";
  static const char *psl = "sims/wave-v5.psl";
  static const char *kfd = "sims/nod-bounce.kfd";
  static const char *cmx = "sims/nod.cmx";
  const char *some[] = { "rtelbow", NULL };
  SqSlConstraint c = {
    .chain_length = 1, .type = SQ_SL_CONSTRAINT_PLANE, .source_volume = "L_HAND", .target_volume = SQ_SL_GROUND,
    .source_offset = { 0, 0.1, 0 }, .target_dir = { 0, 0, 1 },
    .ease_in_start = 0, .ease_in_stop = 0.5, .ease_out_start = 1, .ease_out_stop = 1.5,
  };
  struct { const char *file; SqEdit *edit; } cases[] = {
    { wave, sq_edit_invert_xz_new (NULL) },
    { wave, sq_edit_invert_xz_new (some) },
    { wave, sq_edit_rename_joint_new ("rtelbow", "rtelbow2") },
    { wave, sq_edit_rename_joint_new ("pelvis", "hips") },
    { wave, sq_edit_delete_joint_new ("neck") },
    { wave, sq_edit_delete_keys_new ("pelvis", 0) },
    { wave, sq_edit_rename_root_new ("hips") },
    { wave, sq_edit_rescale_new (1.37) },
    { wave, sq_edit_set_first_frame_new (0.5, -1, 2) },
    { sl, sq_edit_sl_priority_new (4) },
    { sl, sq_edit_sl_joint_priority_new ("mChest", 5) },
    { sl, sq_edit_sl_loop_new (TRUE, 0.5, 1) },
    { sl, sq_edit_sl_ease_new (0.1, 0.2) },
    { sl, sq_edit_sl_hand_pose_new (5) },
    { sl, sq_edit_sl_emote_new ("Grüße") },
    { sl, sq_edit_sl_delete_constraint_new (0) },
    { sl, sq_edit_sl_constraint_new (0, &c) },
    { sl, sq_edit_sl_constraint_new (1, &c) },
    { bvh, sq_edit_set_frame_rate_new (24) },
    { bvh, sq_edit_set_frame_time_new (0.05) },
    { dx, sq_edit_dx_set_name_new ("Wave_2") },
    { wave, sq_edit_mirror_new () },
    { wave, sq_edit_resample_new (24) },
    { wave, sq_edit_speed_new (2) },
    { wave, sq_edit_trim_new (0.1, 0.5) },
    { wave, sq_edit_reverse_new () },
    { wave, sq_edit_reduce_new (1, 0.01) },
    { wave, sq_edit_close_loop_new () },
    { psl, sq_edit_sims_rename_pose_new ("Stand", "Standing") },
    { psl, sq_edit_sims_duplicate_pose_new ("Stand", "Stand again") },
    { psl, sq_edit_sims_delete_pose_new ("Stand") },
    { psl, sq_edit_sims_move_pose_new ("Wave child", 0) },
    /* a KFD's poses are named by their frames (0, 9 and 19 here) */
    { kfd, sq_edit_sims_rename_pose_new ("9", "12") },
    { kfd, sq_edit_sims_duplicate_pose_new ("9", "14") },
    { kfd, sq_edit_sims_delete_pose_new ("9") },
    { kfd, sq_edit_sims_move_pose_new ("9", 0) },
    { kfd, sq_edit_sims_kfd_bounce_new (FALSE) },
    { kfd, sq_edit_sims_kfd_pose_name_new (FALSE, "Sit") },
    { kfd, sq_edit_sims_kfd_pose_name_new (TRUE, "Sit") },
    { cmx, sq_edit_sims_skill_name_new ("a-nod") },
    { cmx, sq_edit_sims_skill_duration_new (250) },
  };
  g_autoptr(GHashTable) labels = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      walk_one (cases[i].file, cases[i].edit);
      g_hash_table_add (labels, (gpointer) sq_edit_get_label (cases[i].edit));
      sq_edit_free (cases[i].edit);
    }
  /* every kind: 7 joint and root edits, 8 Second Life fields, 2 frame rate,
   * the .x set name, 7 motion edits, 9 Sims edits */
  g_assert_cmpuint (g_hash_table_size (labels), ==, 7 + 8 + 2 + 1 + 7 + 9);
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
  g_test_add_func ("/edit/delete-keys", test_delete_keys);
  g_test_add_func ("/edit/rename-root-entry-bytes", test_rename_root_entry_bytes);
  g_test_add_func ("/edit/sl-fields", test_sl_edits);
  g_test_add_func ("/edit/sl-refusals", test_sl_refusals);
  g_test_add_func ("/edit/sl-constraint", test_sl_constraint_edits);
  g_test_add_func ("/edit/sl-constraint-refusals", test_sl_constraint_refusals);
  g_test_add_func ("/edit/sl-fields-getters", test_sl_fields_getters);
  g_test_add_func ("/edit/frame-rate-set-name", test_frame_rate_and_set_name);
  g_test_add_func ("/edit/frame-rate-refusals", test_frame_rate_refusals);
  g_test_add_func ("/edit/every-kind", test_every_kind);
  g_test_add_func ("/edit/joint-name-check", test_joint_name_check);
  return g_test_run ();
}
