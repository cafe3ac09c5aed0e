/* test-fields.c: the worlds' and formats' field descriptors (sq-world.h):
 * every descriptor's edit sets its value and the getter gives it back,
 * values out of the range are refused, lists delete their records; the
 * worlds' table (validation targets, formats' worlds) and the format flags
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "test-utils.h"
#include "worlds/sq-world-aw.h"

/* The Sims' test files sit beside the corpus */
static char *
sims_path (const char *name)
{
  g_autofree char *dir = g_path_get_dirname (tu_corpus_dir ());
  char *path = g_build_filename (dir, "sims", name, NULL);

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_test_fail_printf ("missing test input %s", path);
  return path;
}

static GBytes *
companion_cb (const char *name,
              gpointer    user_data,
              GError    **error)
{
  g_autofree char *path = g_build_filename (user_data, name, NULL);
  char *data;
  gsize len;

  if (!g_file_get_contents (path, &data, &len, error))
    return NULL;
  return g_bytes_new_take (data, len);
}

static SqClip *
load_path (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GBytes) bytes = NULL;
  SqLoadOptions options = { 0 };
  gsize len;
  SqClip *clip;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  bytes = g_bytes_new_take (g_steal_pointer (&data), len);
  options.companion = companion_cb;
  options.companion_data = dir;
  clip = sq_load_bytes (bytes, path, NULL, &options, &error);
  g_assert_no_error (error);
  g_assert_nonnull (clip);
  return clip;
}

/* A clip of the format a field set belongs to (a world's set: any clip,
 * here one of the world's own format) */
static SqClip *
clip_for_set (const SqFieldSet *set)
{
  const SqFormat * const *formats;
  const SqFormat *format = set->format;
  g_autofree char *path = NULL;
  gsize n;

  formats = sq_formats (&n);
  for (gsize i = 0; format == NULL && i < n; i++)
    if (formats[i]->field_set == set)
      format = formats[i];
  g_assert_nonnull (format);
  if (g_str_equal (format->id, "sl-anim"))
    path = tu_corpus_path ("sl-anim", "Display.anim");
  else if (g_str_equal (format->id, "dx"))
    path = tu_corpus_path ("dx-anim", "anim_test.x");
  else if (g_str_equal (format->id, "bvh"))
    path = tu_corpus_path ("bvh", "tower.bvh");
  else if (g_str_equal (format->id, "simpose-kfd"))
    path = sims_path ("nod-bounce.kfd");
  else if (g_str_equal (format->id, "sims-cmx"))
    path = sims_path ("nod.cmx");
  else
    g_error ("no test file for the fields of %s", format->id);
  return load_path (path);
}

/* A value of `field` in its range that differs from `current` */
static void
other_value (const SqField      *field,
             const SqClip       *clip,
             const SqFieldValue *current,
             SqFieldValue       *out)
{
  switch (field->type)
    {
    case SQ_FIELD_BOOL:
      out->number = current->number != 0 ? 0 : 1;
      break;
    case SQ_FIELD_INT:
    case SQ_FIELD_CHOICE:
      out->number = current->number + 1 <= field->max ? current->number + 1 : current->number - 1;
      break;
    case SQ_FIELD_DOUBLE:
      if (field->max == SQ_FIELD_UNBOUNDED)
        out->number = current->number != clip->duration / 2 ? clip->duration / 2 : clip->duration / 4;
      else
        out->number = field->min + (field->max - field->min) / 100 * (current->number == field->min + 1 ? 2 : 1);
      if (field->digits == 0)
        out->number = round (out->number) != current->number ? round (out->number) : round (out->number) + 1;
      break;
    case SQ_FIELD_TEXT:
    default:
      out->text = g_strdup (g_strcmp0 (current->text, "Abc") != 0 ? "Abc" : "Abd");
      break;
    }
}

/* Values just out of the field's range (none for a switch or any text) */
static guint
out_of_range (const SqField *field,
              SqFieldValue   values[2])
{
  guint n = 0;

  switch (field->type)
    {
    case SQ_FIELD_INT:
    case SQ_FIELD_CHOICE:
      values[n++].number = field->min - 1;
      values[n++].number = field->max + 1;
      break;
    case SQ_FIELD_DOUBLE:
      values[n++].number = field->min > 0 ? field->min / 2 : field->min - 1;
      if (field->max != SQ_FIELD_UNBOUNDED)
        values[n++].number = field->max * 2 + 1;
      break;
    case SQ_FIELD_TEXT:
      if (field->max > 0)
        {
          values[n].text = g_malloc (field->max + 2);
          memset (values[n].text, 'a', field->max + 1);
          values[n++].text[(gsize) field->max + 1] = '\0';
        }
      break;
    default:
      break;
    }
  return n;
}

static void
check_field (const SqFieldSet *set,
             const SqField    *field)
{
  g_autoptr(SqClip) clip = clip_for_set (set);
  gssize joint = field->flags & SQ_FIELD_PER_JOINT ? 0 : -1;
  /* a copy: an undo replaces the joints and their names */
  g_autofree char *joint_name = joint >= 0 ? g_strdup (clip->joints[joint].name) : NULL;
  SqFieldValue current = { 0 }, wanted = { 0 }, got = { 0 };
  SqFieldValue bad[2] = { { 0 }, { 0 } };
  g_autoptr(GError) error = NULL;
  g_autoptr(SqEdit) edit = NULL;
  guint n_bad;

  g_test_message ("field %s of %s", field->key, set->title);
  g_assert_nonnull (field->label);
  g_assert_nonnull (field->get);
  g_assert_nonnull (field->edit);
  g_assert_cmpfloat (field->min, <=, field->max);

  /* a value in range: the edit sets it, the getter gives it back (a loop
   * point the clip bounds: the first of a few that the other point allows) */
  field->get (clip, joint, &current);
  other_value (field, clip, &current, &wanted);
  for (guint i = 0; field->max == SQ_FIELD_UNBOUNDED && i < 4; i++)
    {
      const double tries[] = { clip->duration / 2, clip->duration / 4, clip->duration, 0 };
      SqFieldValue v = { .number = tries[i] };
      g_autoptr(SqEdit) probe = field->edit (clip, joint_name, &v);
      g_autoptr(SqClip) copy = sq_clip_copy (clip);

      if (tries[i] != current.number && sq_edit_apply (probe, copy, NULL))
        {
          wanted.number = tries[i];
          break;
        }
    }
  g_assert_true (sq_field_in_range (field, &wanted));
  edit = field->edit (clip, joint_name, &wanted);
  g_assert_true (sq_edit_apply (edit, clip, &error));
  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, &error));
  field->get (clip, joint, &got);
  if (field->type == SQ_FIELD_TEXT)
    g_assert_cmpstr (got.text, ==, wanted.text);
  else
    g_assert_cmpfloat_with_epsilon (got.number, wanted.number, 1e-9 * MAX (1.0, fabs (wanted.number)));
  /* undone, the clip's value is back */
  sq_edit_undo (edit, clip);
  sq_field_value_clear (&got);
  field->get (clip, joint, &got);
  if (field->type == SQ_FIELD_TEXT)
    g_assert_cmpstr (got.text, ==, current.text);
  else
    g_assert_cmpfloat (got.number, ==, current.number);

  /* out of range: refused, the clip untouched */
  n_bad = out_of_range (field, bad);
  for (guint i = 0; i < n_bad; i++)
    {
      g_autoptr(SqEdit) refused = field->edit (clip, joint_name, &bad[i]);
      g_autoptr(GError) refusal = NULL;
      guint64 generation = clip->generation;

      g_assert_false (sq_field_in_range (field, &bad[i]));
      g_assert_false (sq_edit_apply (refused, clip, &refusal));
      g_assert_nonnull (refusal);
      g_assert_cmpuint (clip->generation, ==, generation);
      sq_field_value_clear (&bad[i]);
    }
  sq_field_value_clear (&current);
  sq_field_value_clear (&wanted);
  sq_field_value_clear (&got);
}

/* A list's record: described (a title, detail lines) and deleted */
static void
check_list (const SqFieldSet *set,
            const SqField    *field)
{
  g_autoptr(SqClip) clip = clip_for_set (set);
  SqSlConstraint c = { .chain_length = 1, .type = SQ_SL_CONSTRAINT_POINT };
  g_autoptr(SqEdit) add = NULL;
  g_autoptr(SqEdit) del = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) details = NULL;
  g_autofree char *title = NULL;
  g_autofree char *label = NULL;
  guint n = field->n_items (clip);

  g_assert_cmpstr (field->key, ==, "constraints");
  g_strlcpy (c.source_volume, "L_HAND", sizeof c.source_volume);
  g_strlcpy (c.target_volume, "GROUND", sizeof c.target_volume);
  add = sq_edit_sl_constraint_new (n, &c);
  g_assert_true (sq_edit_apply (add, clip, &error));
  g_assert_cmpuint (field->n_items (clip), ==, n + 1);
  title = field->describe_item (clip, n, &details);
  g_assert_nonnull (strstr (title, "chain of 1"));
  g_assert_cmpuint (g_strv_length (details), ==, 3);
  g_assert_nonnull (strstr (details[0], "L_HAND"));
  label = field->delete_label (n);
  g_assert_nonnull (strstr (label, "constraint"));
  del = field->delete_item (clip, n);
  g_assert_true (sq_edit_apply (del, clip, &error));
  g_assert_cmpuint (field->n_items (clip), ==, n);
}

static void
test_descriptors (void)
{
  g_autoptr(GPtrArray) sets = sq_field_sets ();
  guint n_fields = 0;

  g_assert_cmpuint (sets->len, >=, 5);
  for (guint i = 0; i < sets->len; i++)
    {
      const SqFieldSet *set = sets->pdata[i];

      g_assert_nonnull (set->title);
      for (gsize f = 0; f < set->n_fields; f++, n_fields++)
        if (set->fields[f].type == SQ_FIELD_LIST)
          check_list (set, &set->fields[f]);
        else
          check_field (set, &set->fields[f]);
    }
  /* Second Life's nine and its constraints, .x's two, BVH's one, the Sims' five */
  g_assert_cmpuint (n_fields, ==, 18);
}

/* Every key once; every command-line option once, found by its name */
static void
test_keys_and_options (void)
{
  g_autoptr(GPtrArray) sets = sq_field_sets ();
  g_autoptr(GHashTable) keys = g_hash_table_new (g_str_hash, g_str_equal);
  const char * const options[] = { "priority", "joint-priority", "hand-pose", "emote", "frame-rate",
                                   "frame-time", "set-name" };

  for (guint i = 0; i < sets->len; i++)
    {
      const SqFieldSet *set = sets->pdata[i];

      for (gsize f = 0; f < set->n_fields; f++)
        {
          const SqField *field = &set->fields[f];

          g_assert_true (g_hash_table_add (keys, (gpointer) field->key));
          if (field->option != NULL)
            {
              g_assert_true (sq_field_by_option (field->option) == field);
              g_assert_nonnull (field->arg);
              g_assert_nonnull (field->help);
            }
          if (field->enabled_by != NULL)
            g_assert_cmpint (sq_field_set_lookup (set, field->enabled_by)->type, ==, SQ_FIELD_BOOL);
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    g_assert_nonnull (sq_field_by_option (options[i]));
  g_assert_null (sq_field_by_option ("no-such-option"));
}

/* The worlds: the validation targets in order, each format's world */
static void
test_worlds (void)
{
  const char * const *targets = sq_validate_targets ();
  g_autoptr(SqClip) clip = sq_clip_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) none = NULL;

  g_assert_cmpuint (g_strv_length ((char **) targets), ==, 3);
  g_assert_cmpstr (targets[0], ==, "aw");
  g_assert_cmpstr (targets[1], ==, "sl");
  g_assert_cmpstr (targets[2], ==, "sims");
  g_assert_true (sq_world_by_id ("sl") == &sq_world_sl);
  g_assert_true (sq_world_by_id ("aw") == &sq_world_aw);
  g_assert_null (sq_world_by_id ("xx"));
  g_assert_true (sq_format_get_world (sq_format_by_id ("sl-anim")) == &sq_world_sl);
  g_assert_true (sq_format_get_world (sq_format_by_id ("bvh")) == &sq_world_sl);
  g_assert_true (sq_format_get_world (sq_format_by_id ("dx")) == &sq_world_aw);
  g_assert_true (sq_format_get_world (sq_format_by_id ("seq-text")) == &sq_world_aw);
  g_assert_cmpstr (sq_format_get_world (sq_format_by_id ("simpose-kfd"))->id, ==, "sims");
  g_assert_null (sq_format_get_world (NULL));
  g_assert_true (sq_format_default () == sq_format_by_id ("seq-binary"));

  none = sq_validate (clip, "xx", &error);
  g_assert_null (none);
  g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Unknown target “xx” (known: aw, sl, sims)");
}

/* Key times count in ticks only in .x; only .anim is quantised */
static void
test_format_flags (void)
{
  const SqFormat * const *formats;
  gsize n;

  formats = sq_formats (&n);
  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpint (!!(formats[i]->flags & SQ_FORMAT_TICKS), ==, g_str_equal (formats[i]->id, "dx"));
      g_assert_cmpint (!!(formats[i]->flags & SQ_FORMAT_QUANTISED), ==, g_str_equal (formats[i]->id, "sl-anim"));
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fields/descriptors", test_descriptors);
  g_test_add_func ("/fields/keys-and-options", test_keys_and_options);
  g_test_add_func ("/fields/worlds", test_worlds);
  g_test_add_func ("/fields/format-flags", test_format_flags);
  return g_test_run ();
}
