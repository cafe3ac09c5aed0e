/* sq-world.c: the list of worlds, and the field descriptors' helpers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Adding a world: write worlds/sq-world-<id>.c with its SqWorldHome, add it
 * to the list below, and point its formats' SqFormat.world at it.
 */
#define G_LOG_DOMAIN "sq-world"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sq-world.h"
#include "worlds/sq-world-aw.h"
#include "worlds/sq-world-names.h"
#include "worlds/sq-world-sims.h"
#include "worlds/sq-world-sl.h"

static const SqWorldHome * const worlds[] = {
  &sq_world_aw,
  &sq_world_sl,
  &sq_world_sims,
};

const SqWorldHome * const *
sq_worlds (gsize *n_worlds)
{
  *n_worlds = G_N_ELEMENTS (worlds);
  return worlds;
}

const SqWorldHome *
sq_world_by_id (const char *id)
{
  for (gsize i = 0; i < G_N_ELEMENTS (worlds); i++)
    if (g_strcmp0 (worlds[i]->id, id) == 0)
      return worlds[i];
  return NULL;
}

/* the order a joint name is looked up in (sq-world.h) */
static const SqWorldNames * const names[] = {
  &sq_sl_names,
  &sq_sims_names,
  &sq_aw_names,
  &sq_mocap_names,
};

const SqWorldNames * const *
sq_world_names (gsize *n_names)
{
  *n_names = G_N_ELEMENTS (names);
  return names;
}

const SqWorldHome *
sq_world_common (void)
{
  return &sq_world_sl;
}

const SqWorldHome *
sq_format_get_world (const SqFormat *format)
{
  return format != NULL ? format->world : NULL;
}

const SqWorldEdit *
sq_world_edit_by_id (const char *id)
{
  for (gsize i = 0; i < G_N_ELEMENTS (worlds); i++)
    for (const SqWorldEdit *e = worlds[i]->edits; e != NULL && e->id != NULL; e++)
      if (g_strcmp0 (e->id, id) == 0)
        return e;
  return NULL;
}

SqEdit *
sq_world_edit_new (const char       *id,
                   const SqClip     *clip,
                   const SqEditArgs *args)
{
  const SqWorldEdit *edit = sq_world_edit_by_id (id);

  return edit != NULL ? edit->make (clip, args) : NULL;
}

void
sq_field_value_clear (SqFieldValue *value)
{
  g_clear_pointer (&value->text, g_free);
  value->number = 0;
}

const SqField *
sq_field_set_lookup (const SqFieldSet *set,
                     const char       *key)
{
  for (gsize i = 0; set != NULL && i < set->n_fields; i++)
    if (g_strcmp0 (set->fields[i].key, key) == 0)
      return &set->fields[i];
  return NULL;
}

gboolean
sq_field_in_range (const SqField      *field,
                   const SqFieldValue *value)
{
  double v = value->number;

  switch (field->type)
    {
    case SQ_FIELD_TEXT:
      return field->max == 0 || (value->text != NULL && strlen (value->text) <= field->max);
    case SQ_FIELD_INT:
    case SQ_FIELD_CHOICE:
    case SQ_FIELD_BOOL:
      if (v != floor (v))
        return FALSE;
      G_GNUC_FALLTHROUGH;
    case SQ_FIELD_DOUBLE:
    case SQ_FIELD_LIST:
    default:
      return isfinite (v) && v >= field->min && v <= field->max;
    }
}

static void
add_set (GPtrArray        *sets,
         const SqFieldSet *set)
{
  if (set != NULL && !g_ptr_array_find (sets, set, NULL))
    g_ptr_array_add (sets, (gpointer) set);
}

GPtrArray *
sq_field_sets (void)
{
  GPtrArray *sets = g_ptr_array_new ();
  const SqFormat * const *formats;
  gsize n;

  for (gsize i = 0; i < G_N_ELEMENTS (worlds); i++)
    add_set (sets, worlds[i]->fields);
  formats = sq_formats (&n);
  for (gsize i = 0; i < n; i++)
    add_set (sets, formats[i]->field_set);
  return sets;
}

const SqField *
sq_field_by_option (const char *option)
{
  g_autoptr(GPtrArray) sets = sq_field_sets ();

  for (guint i = 0; i < sets->len; i++)
    {
      const SqFieldSet *set = sets->pdata[i];

      for (gsize f = 0; f < set->n_fields; f++)
        if (g_strcmp0 (set->fields[f].option, option) == 0)
          return &set->fields[f];
    }
  return NULL;
}
