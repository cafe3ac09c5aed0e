/* sq-clip-new.c: a new animation in a world's rest pose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each world's home offers its kinds of new animation and builds them
 * (SqWorldHome.new_clips, new_clip); this file lists them, checks the
 * request and sends it to its home, then saves the clip in the world's
 * format and reads it back, so the new document is exactly the file it
 * will be.
 */
#define G_LOG_DOMAIN "sq-clip-new"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sq-clip-new.h"
#include "sq-error.h"
#include "sq-format.h"
#include "sq-world.h"

#define NEW_MAX_DURATION 3600.0

typedef struct
{
  const char        *id;
  const char        *label;
  const SqWorldHome *home;
} NewKind;

/* the kinds of every home, the common world's (the default) first */
static const GArray *
new_kinds (void)
{
  static GArray *kinds;

  if (g_once_init_enter (&kinds))
    {
      GArray *list = g_array_new (FALSE, FALSE, sizeof (NewKind));
      gsize n = 0;
      const SqWorldHome * const *homes = sq_worlds (&n);

      for (gsize pass = 0; pass < 2; pass++)
        for (gsize h = 0; h < n; h++)
          {
            if ((homes[h] == sq_world_common ()) != (pass == 0) || homes[h]->new_clips == NULL)
              continue;
            for (const SqWorldNewClip *k = homes[h]->new_clips; k->id != NULL; k++)
              g_array_append_val (list, ((NewKind) { k->id, k->label, homes[h] }));
          }
      g_once_init_leave (&kinds, list);
    }
  return kinds;
}

const char * const *
sq_clip_new_worlds (void)
{
  static const char **ids;

  if (g_once_init_enter (&ids))
    {
      const GArray *kinds = new_kinds ();
      const char **list = g_new0 (const char *, kinds->len + 1);

      for (guint i = 0; i < kinds->len; i++)
        list[i] = g_array_index (kinds, NewKind, i).id;
      g_once_init_leave (&ids, list);
    }
  return ids;
}

static const NewKind *
find_kind (const char *world)
{
  const GArray *kinds = new_kinds ();

  for (guint i = 0; i < kinds->len; i++)
    if (g_strcmp0 (world, g_array_index (kinds, NewKind, i).id) == 0)
      return &g_array_index (kinds, NewKind, i);
  return NULL;
}

const char *
sq_clip_new_world_name (const char *world)
{
  const NewKind *kind = find_kind (world);

  return kind != NULL ? _(kind->label) : NULL;
}

/* the clip as the format's bytes give it back */
static SqClip *
through_format (const SqClip   *clip,
                const SqFormat *format,
                GError        **error)
{
  g_autoptr(GBytes) bytes = sq_save_bytes (clip, format, NULL, NULL, error);

  if (bytes == NULL)
    return NULL;
  return sq_load_bytes (bytes, NULL, format, NULL, error);
}

SqClip *
sq_clip_new_for_world (const char *world,
                       double      duration,
                       double      fps,
                       GError    **error)
{
  const NewKind *kind = find_kind (world);
  const SqFormat *through = NULL;
  g_autoptr(SqClip) clip = NULL;

  if (kind == NULL)
    {
      g_autofree char *ids = g_strjoinv (", ", (char **) sq_clip_new_worlds ());

      g_set_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                   _("Unknown world “%s” (%s)"), world, ids);
      return NULL;
    }
  if (!(duration > 0) || duration > NEW_MAX_DURATION || !(fps >= 1) || fps > 1000)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                   _("A new animation lasts more than 0 and at most %g seconds, at 1 to 1000 frames a second"),
                   NEW_MAX_DURATION);
      return NULL;
    }
  clip = kind->home->new_clip (kind->id, duration, fps, &through);
  if (through == NULL)
    return g_steal_pointer (&clip);
  return through_format (clip, through, error);
}
