/* sq-joint-map.c: joint names across the worlds, and user map files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The joint map knows no world's names: it asks each world's names (in
 * its home, worlds/sq-*-names.c) through the world interface, in the
 * order of sq_world_names (). A concept is what a name stands for: a bone
 * of the common world (Second Life's) and the ActiveWorlds tag of the same
 * limb.
 */
#define G_LOG_DOMAIN "sq-joint-map"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "sq-error.h"
#include "sq-joint-map.h"
#include "sq-world.h"

/* the part of a found concept the finding world did not know */
static void
complete (SqJointConcept *out)
{
  gsize n;
  const SqWorldNames * const *names = sq_world_names (&n);

  for (gsize i = 0; i < n; i++)
    if (names[i]->complete != NULL)
      names[i]->complete (out);
}

/* The worlds in turn: the first that knows the name says what it stands
 * for; a rig's prefix (Mixamo's namespace, Biped's figure name) is taken
 * off and the rest looked up again, before the world that lists it. */
gboolean
sq_joint_concept_lookup (const char         *name,
                         SqJointLookupFlags  flags,
                         SqJointConcept     *out)
{
  gsize n;
  const SqWorldNames * const *names = sq_world_names (&n);

  out->sl_bone = NULL;
  out->aw_tag = 0;
  if (name == NULL || *name == '\0')
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      for (const char * const *p = names[i]->prefixes; p != NULL && *p != NULL; p++)
        if (g_ascii_strncasecmp (name, *p, strlen (*p)) == 0 && name[strlen (*p)] != '\0')
          return sq_joint_concept_lookup (name + strlen (*p), flags, out);
      switch (names[i]->lookup != NULL ? names[i]->lookup (name, flags, out) : SQ_JOINT_NAME_UNKNOWN)
        {
        case SQ_JOINT_NAME_FOUND:
          complete (out);
          return TRUE;
        case SQ_JOINT_NAME_NO_COUNTERPART:
          out->sl_bone = NULL;
          out->aw_tag = 0;
          return FALSE;
        case SQ_JOINT_NAME_UNKNOWN:
        default:
          break;
        }
    }
  return FALSE;
}

const char * const *
sq_joint_concept_tips (const char *sl_bone)
{
  gsize n;
  const SqWorldNames * const *names = sq_world_names (&n);

  for (gsize i = 0; i < n; i++)
    if (names[i]->tips != NULL)
      return names[i]->tips (sl_bone);
  return NULL;
}

gboolean
sq_joint_concept_hub_position (const char *sl_bone,
                               double      out[3])
{
  gsize n;
  const SqWorldNames * const *names = sq_world_names (&n);

  for (gsize i = 0; i < n; i++)
    if (names[i]->hub_position != NULL)
      return names[i]->hub_position (sl_bone, out);
  return FALSE;
}

SqJointLookupFlags
sq_joint_lookup_flags (const SqClip *clip)
{
  gsize n;
  const SqWorldNames * const *names = sq_world_names (&n);
  SqJointLookupFlags flags = 0;

  for (gsize i = 0; i < n; i++)
    if (names[i]->lookup_flags != NULL)
      flags |= names[i]->lookup_flags (clip);
  return flags;
}

const char *
sq_joint_concept_name (const SqJointConcept *concept,
                       SqJointScheme         scheme)
{
  gsize n;
  const SqWorldNames * const *names = sq_world_names (&n);

  for (gsize i = 0; scheme != SQ_JOINT_SCHEME_NONE && i < n; i++)
    {
      const char *name = names[i]->name_of != NULL ? names[i]->name_of (concept, scheme) : NULL;

      if (name != NULL)
        return name;
    }
  return NULL;
}

gboolean
sq_joint_name_in_scheme (const char    *name,
                         SqJointScheme  scheme)
{
  gsize n;
  const SqWorldNames * const *names = sq_world_names (&n);

  if (name == NULL)
    return FALSE;
  if (scheme == SQ_JOINT_SCHEME_NONE)
    return TRUE;
  for (gsize i = 0; i < n; i++)
    if (names[i]->in_scheme != NULL && names[i]->in_scheme (name, scheme))
      return TRUE;
  return FALSE;
}

const char *
sq_joint_name_for_scheme (const char         *name,
                          SqJointScheme       scheme,
                          SqJointLookupFlags  flags)
{
  SqJointConcept c;

  if (sq_joint_name_in_scheme (name, scheme))
    return name;
  if (!sq_joint_concept_lookup (name, flags, &c))
    return NULL;
  return sq_joint_concept_name (&c, scheme);
}

/* ---- user map files ---------------------------------------------------- */

struct _SqJointMap
{
  GHashTable *entries;        /* source → target, "" for a dropped joint */
  GPtrArray  *order;          /* sources in file order */
};

SqJointMap *
sq_joint_map_new (void)
{
  SqJointMap *map = g_new0 (SqJointMap, 1);

  map->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  map->order = g_ptr_array_new ();
  return map;
}

void
sq_joint_map_free (SqJointMap *map)
{
  if (map == NULL)
    return;
  g_hash_table_unref (map->entries);
  g_ptr_array_unref (map->order);
  g_free (map);
}

void
sq_joint_map_add (SqJointMap *map,
                  const char *source,
                  const char *target)
{
  if (!g_hash_table_contains (map->entries, source))
    {
      char *key = g_strdup (source);
      g_ptr_array_add (map->order, key);
      g_hash_table_insert (map->entries, key, g_strdup (target ? target : ""));
    }
  else
    /* g_hash_table_insert keeps the stored key, which `order` points to */
    g_hash_table_insert (map->entries, g_strdup (source), g_strdup (target ? target : ""));
}

gsize
sq_joint_map_size (const SqJointMap *map)
{
  return map ? g_hash_table_size (map->entries) : 0;
}

const char *
sq_joint_map_source_at (const SqJointMap *map,
                        gsize             index)
{
  return map != NULL && index < map->order->len ? g_ptr_array_index (map->order, index) : NULL;
}

gboolean
sq_joint_map_lookup (const SqJointMap *map,
                     const char       *source,
                     const char      **target)
{
  const char *t;

  if (map == NULL || source == NULL)
    return FALSE;
  t = g_hash_table_lookup (map->entries, source);
  if (t == NULL)
    return FALSE;
  if (target != NULL)
    *target = *t == '\0' ? NULL : t;
  return TRUE;
}

/* One name at `p` (quoted or bare, bare ends at `stop` or the line end,
 * trailing blanks removed); returns the character after it. */
static const char *
scan_name (const char  *line,
           const char  *p,
           const char  *end,
           char         stop,
           guint        lineno,
           char       **out,
           GError     **error)
{
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  if (p < end && *p == '"')
    {
      const char *start = ++p;
      while (p < end && *p != '"')
        p++;
      if (p >= end)
        {
          sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lineno, (guint) (start - line),
                                _("a quoted name has no closing quote"));
          return NULL;
        }
      *out = g_strndup (start, p - start);
      return p + 1;
    }
  else
    {
      const char *start = p, *last;
      while (p < end && *p != stop && *p != '#' && *p != '"')
        p++;
      last = p;
      while (last > start && (last[-1] == ' ' || last[-1] == '\t'))
        last--;
      *out = g_strndup (start, last - start);
      return p;
    }
}

SqJointMap *
sq_joint_map_parse (GBytes  *bytes,
                    GError **error)
{
  g_autoptr(SqJointMap) map = sq_joint_map_new ();
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  const char *end = data + len;
  const char *line = data;
  guint lineno = 0;

  if (data == NULL)
    return g_steal_pointer (&map);
  if (!g_utf8_validate_len (data, len, NULL))
    {
      const char *bad = NULL;
      guint l = 1;
      g_utf8_validate_len (data, len, &bad);
      for (const char *q = data; q < bad; q++)
        if (*q == '\n')
          {
            l++;
            line = q + 1;
          }
      sq_set_error_at_line (error, SQ_ERROR_SYNTAX, l, (guint) (bad - line) + 1,
                            _("the joint map is not valid UTF-8"));
      return NULL;
    }
  /* a UTF-8 byte order mark */
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    line = data + 3;

  while (line < end)
    {
      const char *eol = memchr (line, '\n', end - line);
      const char *stop = eol ? eol : end;
      const char *p = line;
      g_autofree char *source = NULL;
      g_autofree char *target = NULL;

      lineno++;
      if (stop > line && stop[-1] == '\r')
        stop--;
      while (p < stop && (*p == ' ' || *p == '\t'))
        p++;
      if (p == stop || *p == '#')
        goto next;

      p = scan_name (line, p, stop, '=', lineno, &source, error);
      if (p == NULL)
        return NULL;
      while (p < stop && (*p == ' ' || *p == '\t'))
        p++;
      if (*source == '\0')
        {
          sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lineno, (guint) (p - line) + 1,
                                _("a joint name is missing before “=”"));
          return NULL;
        }
      if (p >= stop || *p != '=')
        {
          /* "a b": point at the blank where "=" was expected */
          const char *q = line;
          while (q < p && (*q == ' ' || *q == '\t'))
            q++;
          while (q < p && *q != ' ' && *q != '\t' && *q != '"')
            q++;
          if (q >= p || *q == '"')
            q = p;
          sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lineno, (guint) (q - line) + 1,
                                _("“=” expected after the joint name “%s”"), source);
          return NULL;
        }
      p++;
      {
        gboolean quoted;
        while (p < stop && (*p == ' ' || *p == '\t'))
          p++;
        quoted = p < stop && *p == '"';
        p = scan_name (line, p, stop, '\0', lineno, &target, error);
        if (p == NULL)
          return NULL;
        while (p < stop && (*p == ' ' || *p == '\t'))
          p++;
        if (p < stop && *p != '#')
          {
            sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lineno, (guint) (p - line) + 1,
                                  _("unexpected text after the target name"));
            return NULL;
          }
        if (*target == '\0')
          {
            sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lineno, (guint) (p - line) + 1,
                                  _("a target name (or “-” to drop the joint) is missing after “=”"));
            return NULL;
          }
        if (sq_joint_map_lookup (map, source, NULL))
          {
            sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lineno, 1,
                                  _("the joint “%s” is mapped twice"), source);
            return NULL;
          }
        sq_joint_map_add (map, source, !quoted && strcmp (target, "-") == 0 ? NULL : target);
      }
    next:
      line = eol ? eol + 1 : end;
    }
  return g_steal_pointer (&map);
}
