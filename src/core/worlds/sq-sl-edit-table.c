/* sq-sl-edit-table.c: Second Life's own edits by name (the edit table,
 * sq-world.h): the loop, the ease times and the constraints, with the
 * constraint SPEC the command line gives
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A SPEC is FIELD=VALUE[,FIELD=VALUE…] with the fields chain, type
 * (point|plane), source, source-offset (X:Y:Z), target, target-offset, dir
 * and ease-in, ease-out (START:STOP). Its messages are the command line's
 * (not translated, like the rest of its usage).
 */
#define G_LOG_DOMAIN "sq-sl-edit"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "sq-edit.h"
#include "sq-world.h"
#include "worlds/sq-world-sl.h"

/* The fields a spec gives, applied to the constraint as it is when the
 * edit is made (or to a new one) */
typedef struct
{
  guint          given;     /* CF_* bits */
  SqSlConstraint c;
} Spec;

enum
{
  CF_CHAIN = 1 << 0, CF_TYPE = 1 << 1, CF_SOURCE = 1 << 2, CF_SOURCE_OFFSET = 1 << 3, CF_TARGET = 1 << 4,
  CF_TARGET_OFFSET = 1 << 5, CF_DIR = 1 << 6, CF_EASE_IN = 1 << 7, CF_EASE_OUT = 1 << 8,
};

/* exactly n finite numbers separated by ':' */
static gboolean
colon_numbers (const char *text,
               double     *v,
               guint       n)
{
  g_auto(GStrv) parts = g_strsplit (text, ":", -1);

  if (g_strv_length (parts) != n)
    return FALSE;
  for (guint k = 0; k < n; k++)
    {
      char *end = NULL;

      if (parts[k][0] == '\0')
        return FALSE;
      v[k] = g_ascii_strtod (parts[k], &end);
      if (*end != '\0' || !isfinite (v[k]))
        return FALSE;
    }
  return TRUE;
}

static gboolean
parse_chain (const char *text,
             guint8     *out)
{
  char *end = NULL;
  gint64 n;

  if (*text == '\0')
    return FALSE;
  errno = 0;
  n = g_ascii_strtoll (text, &end, 10);
  *out = (guint8) n;
  return *end == '\0' && errno == 0 && n >= 0 && n <= 255;
}

static gboolean
parse_volume (const char *text,
              char        out[17])
{
  if (strlen (text) > 16)
    return FALSE;
  g_strlcpy (out, text, 17);
  return TRUE;
}

static gboolean
parse_type (const char *val,
            guint8     *type)
{
  if (strcmp (val, "point") == 0 || strcmp (val, "0") == 0)
    *type = SQ_SL_CONSTRAINT_POINT;
  else if (strcmp (val, "plane") == 0 || strcmp (val, "planar") == 0 || strcmp (val, "1") == 0)
    *type = SQ_SL_CONSTRAINT_PLANE;
  else
    return FALSE;
  return TRUE;
}

/* ease-in or ease-out: START:STOP */
static gboolean
parse_ease (const char *val,
            double     *start,
            double     *stop)
{
  double ease[2] = { 0, 0 };
  gboolean ok = colon_numbers (val, ease, 2);

  *start = ease[0];
  *stop = ease[1];
  return ok;
}

/* One FIELD=VALUE of a spec; FALSE with a message */
static gboolean
parse_field (const char  *key,
             const char  *val,
             Spec        *spec,
             char       **message)
{
  SqSlConstraint *c = &spec->c;
  gboolean ok;

  if (strcmp (key, "chain") == 0)
    ok = parse_chain (val, &c->chain_length), spec->given |= CF_CHAIN;
  else if (strcmp (key, "type") == 0)
    ok = parse_type (val, &c->type), spec->given |= CF_TYPE;
  else if (strcmp (key, "source") == 0)
    ok = parse_volume (val, c->source_volume), spec->given |= CF_SOURCE;
  else if (strcmp (key, "target") == 0)
    ok = parse_volume (val, c->target_volume), spec->given |= CF_TARGET;
  else if (strcmp (key, "source-offset") == 0)
    ok = colon_numbers (val, c->source_offset, 3), spec->given |= CF_SOURCE_OFFSET;
  else if (strcmp (key, "target-offset") == 0)
    ok = colon_numbers (val, c->target_offset, 3), spec->given |= CF_TARGET_OFFSET;
  else if (strcmp (key, "dir") == 0 || strcmp (key, "target-dir") == 0)
    ok = colon_numbers (val, c->target_dir, 3), spec->given |= CF_DIR;
  else if (strcmp (key, "ease-in") == 0)
    ok = parse_ease (val, &c->ease_in_start, &c->ease_in_stop), spec->given |= CF_EASE_IN;
  else if (strcmp (key, "ease-out") == 0)
    ok = parse_ease (val, &c->ease_out_start, &c->ease_out_stop), spec->given |= CF_EASE_OUT;
  else
    {
      *message = g_strdup_printf ("unknown constraint field “%s”", key);
      return FALSE;
    }
  if (!ok)
    *message = g_strdup_printf ("bad value “%s” for %s", val, key);
  return ok;
}

/* A whole SPEC; FALSE with a message */
static gboolean
parse_spec (const char  *text,
            Spec        *spec,
            char       **message)
{
  g_auto(GStrv) fields = g_strsplit (text, ",", -1);

  memset (spec, 0, sizeof *spec);
  for (guint i = 0; fields[i] != NULL; i++)
    {
      char *eq = strchr (fields[i], '=');

      if (eq == NULL)
        {
          *message = g_strdup_printf ("“%s” is not FIELD=VALUE", fields[i]);
          return FALSE;
        }
      *eq = '\0';
      if (!parse_field (fields[i], eq + 1, spec, message))
        return FALSE;
    }
  return TRUE;
}

static gboolean
check_spec (const char  *text,
            char       **message)
{
  Spec spec;

  return parse_spec (text, &spec, message);
}

/* The spec's fields over constraint `c` */
static void
merge_spec (const Spec     *spec,
            SqSlConstraint *c)
{
  const SqSlConstraint *s = &spec->c;

  if (spec->given & CF_CHAIN)
    c->chain_length = s->chain_length;
  if (spec->given & CF_TYPE)
    c->type = s->type;
  if (spec->given & CF_SOURCE)
    memcpy (c->source_volume, s->source_volume, sizeof c->source_volume);
  if (spec->given & CF_TARGET)
    memcpy (c->target_volume, s->target_volume, sizeof c->target_volume);
  if (spec->given & CF_SOURCE_OFFSET)
    memcpy (c->source_offset, s->source_offset, sizeof c->source_offset);
  if (spec->given & CF_TARGET_OFFSET)
    memcpy (c->target_offset, s->target_offset, sizeof c->target_offset);
  if (spec->given & CF_DIR)
    memcpy (c->target_dir, s->target_dir, sizeof c->target_dir);
  if (spec->given & CF_EASE_IN)
    c->ease_in_start = s->ease_in_start, c->ease_in_stop = s->ease_in_stop;
  if (spec->given & CF_EASE_OUT)
    c->ease_out_start = s->ease_out_start, c->ease_out_stop = s->ease_out_stop;
}

/* Constraint `index` (0-based) with the spec's fields over its current
 * ones (`set`), or a new one with the spec's fields over zeros */
static SqEdit *
constraint_edit (const SqClip *clip,
                 guint         index,
                 const char   *text,
                 gboolean      set)
{
  Spec spec;
  SqSlConstraint c = { 0 };
  g_autofree char *message = NULL;

  if (!parse_spec (text, &spec, &message))
    memset (&spec, 0, sizeof spec);   /* the command line checked it */
  if (set && !sq_sl_constraint_get (clip, index, &c))
    return sq_edit_sl_constraint_new (index, &spec.c);   /* refused with a message */
  merge_spec (&spec, &c);
  return sq_edit_sl_constraint_new (index, &c);
}

static SqEdit *
make_set_constraint (const SqClip     *clip,
                     const SqEditArgs *args)
{
  return constraint_edit (clip, (guint) (args->n - 1), args->text, TRUE);
}

static SqEdit *
make_add_constraint (const SqClip     *clip,
                     const SqEditArgs *args)
{
  return constraint_edit (clip, sq_sl_constraint_count (clip), args->text, FALSE);
}

static SqEdit *
make_loop (const SqClip     *clip,
           const SqEditArgs *args)
{
  (void) clip;
  return sq_edit_sl_loop_new (TRUE, args->v[0], args->v[1]);
}

static SqEdit *
make_no_loop (const SqClip     *clip,
              const SqEditArgs *args)
{
  (void) clip, (void) args;
  return sq_edit_sl_loop_new (FALSE, 0, 0);
}

static SqEdit *
make_ease (const SqClip     *clip,
           const SqEditArgs *args)
{
  (void) clip;
  return sq_edit_sl_ease_new (args->v[0], args->v[1]);
}

static SqEdit *
make_delete_constraint (const SqClip     *clip,
                        const SqEditArgs *args)
{
  (void) clip;
  return sq_edit_sl_delete_constraint_new ((guint) (args->n - 1));
}

const SqWorldEdit sq_sl_edits[] = {
  { "loop", NULL, make_loop },
  { "no-loop", NULL, make_no_loop },
  { "ease", NULL, make_ease },
  { "delete-constraint", NULL, make_delete_constraint },
  { "set-constraint", check_spec, make_set_constraint },
  { "add-constraint", check_spec, make_add_constraint },
  { NULL, NULL, NULL },
};
