/* sq-sl-fields.c: Second Life's .anim fields as plain values, and the one
 * pack and unpack of a constraint record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The .anim reader keeps the header fields as extras ("priority", "loop",
 * "loop-in", "loop-out", "ease-in", "ease-out", "hand-pose", "emote"), the
 * joints' priorities as the joints' "priority" and the constraints as one
 * "constraints" array (SQ_SL_CONSTRAINTS_VARIANT_TYPE) whose volume fields
 * are the file's 16 raw bytes. This file is the one place that turns those
 * into plain values, with the defaults the writers use when a clip from
 * another format lacks them, and the one that packs and unpacks a
 * constraint record (the .anim reader, writer and dump, the validation and
 * the edits use it).
 */
#define G_LOG_DOMAIN "sq-sl-fields"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "sq-encoding.h"
#include "worlds/sq-world-sl.h"

/* LLHandMotion's poses in enum order (formats.md 1.7) */
static const char * const hand_poses[SQ_SL_N_HAND_POSES] = {
  NC_("hand pose", "Spread"), NC_("hand pose", "Relaxed"), NC_("hand pose", "Point"),
  NC_("hand pose", "Fist"), NC_("hand pose", "Relaxed Left"), NC_("hand pose", "Point Left"),
  NC_("hand pose", "Fist Left"), NC_("hand pose", "Relaxed Right"), NC_("hand pose", "Point Right"),
  NC_("hand pose", "Fist Right"), NC_("hand pose", "Salute Right"), NC_("hand pose", "Typing"),
  NC_("hand pose", "Peace Right"), NC_("hand pose", "Palm Right"),
};

const char *
sq_sl_hand_pose_name (guint32 hand_pose)
{
  return hand_pose < SQ_SL_N_HAND_POSES ? g_dpgettext2 (GETTEXT_PACKAGE, "hand pose", hand_poses[hand_pose]) : NULL;
}

const char *
sq_sl_constraint_type_name (guint8 type)
{
  switch (type)
    {
    case SQ_SL_CONSTRAINT_POINT: return C_("constraint type", "Point");
    case SQ_SL_CONSTRAINT_PLANE: return C_("constraint type", "Plane");
    default: return NULL;
    }
}

/* Copies UTF-8 `src` into `dest` of `size` bytes, cut before a character
 * that does not fit. */
static void
copy_utf8 (char       *dest,
           gsize       size,
           const char *src)
{
  gsize n = strlen (src);

  if (n >= size)
    {
      n = size - 1;
      while (n > 0 && ((guchar) src[n] & 0xc0) == 0x80)
        n--;
    }
  memcpy (dest, src, n);
  dest[n] = '\0';
}

void
sq_sl_fields_get (const SqClip *clip,
                  SqSlFields   *out)
{
  const SqProps *x;
  GVariant *emote;

  g_return_if_fail (clip != NULL && out != NULL);

  x = clip->extra;
  memset (out, 0, sizeof *out);
  out->priority = (gint32) sq_props_get_int (x, "priority", SQ_SL_DEFAULT_PRIORITY);
  out->loop = (gint32) sq_props_get_int (x, "loop", 0) != 0;
  out->loop_in = sq_props_get_double (x, "loop-in", 0.0);
  out->loop_out = sq_props_get_double (x, "loop-out", clip->duration);
  out->ease_in = sq_props_get_double (x, "ease-in", SQ_SL_DEFAULT_EASE);
  out->ease_out = sq_props_get_double (x, "ease-out", SQ_SL_DEFAULT_EASE);
  out->hand_pose = (guint32) (gint32) sq_props_get_int (x, "hand-pose", SQ_SL_DEFAULT_HAND_POSE);
  emote = sq_props_get (x, "emote");
  if (emote != NULL && g_variant_is_of_type (emote, G_VARIANT_TYPE_STRING))
    copy_utf8 (out->emote, sizeof out->emote, g_variant_get_string (emote, NULL));
}

gint32
sq_sl_joint_priority (const SqClip *clip,
                      gsize         joint)
{
  gint32 base;

  g_return_val_if_fail (clip != NULL, SQ_SL_DEFAULT_PRIORITY);

  base = (gint32) sq_props_get_int (clip->extra, "priority", SQ_SL_DEFAULT_PRIORITY);
  if (joint >= clip->n_joints)
    return base;
  return (gint32) sq_props_get_int (clip->joints[joint].extra, "priority", base);
}

static GVariant *
constraints_of (const SqClip *clip)
{
  GVariant *v = sq_props_get (clip->extra, "constraints");

  return v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE (SQ_SL_CONSTRAINTS_VARIANT_TYPE)) ? v : NULL;
}

guint
sq_sl_constraint_count (const SqClip *clip)
{
  GVariant *v;

  g_return_val_if_fail (clip != NULL, 0);
  v = constraints_of (clip);
  return v != NULL ? (guint) MIN (g_variant_n_children (v), G_MAXUINT) : 0;
}

char *
_sq_sl_volume_name (GVariant *field)
{
  gsize n;
  const guint8 *p = g_variant_get_fixed_array (field, &n, 1);
  const guint8 *nul = memchr (p, 0, MIN (n, SQ_SL_VOLUME_NAME_MAX + 1));

  /* the viewer ends the 16 bytes at the first NUL, or after 15 bytes */
  return _sq_latin1_to_utf8 (p, nul ? (gsize) (nul - p) : MIN (n, SQ_SL_VOLUME_NAME_MAX));
}

void
_sq_sl_constraint_unpack (GVariant        *record,
                          SqSlConstraint  *out,
                          GVariant       **source,
                          GVariant       **target)
{
  g_autoptr(GVariant) src = NULL, dst = NULL;
  g_autofree char *src_name = NULL, *dst_name = NULL;
  SqSlConstraint r = { 0 };

  g_variant_get (record, "(yy@ay(ddd)@ay(ddd)(ddd)dddd)", &r.chain_length, &r.type, &src,
                 &r.source_offset[0], &r.source_offset[1], &r.source_offset[2], &dst,
                 &r.target_offset[0], &r.target_offset[1], &r.target_offset[2],
                 &r.target_dir[0], &r.target_dir[1], &r.target_dir[2],
                 &r.ease_in_start, &r.ease_in_stop, &r.ease_out_start, &r.ease_out_stop);
  src_name = _sq_sl_volume_name (src);
  dst_name = _sq_sl_volume_name (dst);
  copy_utf8 (r.source_volume, sizeof r.source_volume, src_name);
  copy_utf8 (r.target_volume, sizeof r.target_volume, dst_name);
  *out = r;
  if (source != NULL)
    *source = g_steal_pointer (&src);
  if (target != NULL)
    *target = g_steal_pointer (&dst);
}

GVariant *
_sq_sl_constraint_pack (const SqSlConstraint *c,
                        GVariant             *source,
                        GVariant             *target)
{
  return g_variant_new ("(yy@ay(ddd)@ay(ddd)(ddd)dddd)", c->chain_length, c->type, source,
                        c->source_offset[0], c->source_offset[1], c->source_offset[2], target,
                        c->target_offset[0], c->target_offset[1], c->target_offset[2],
                        c->target_dir[0], c->target_dir[1], c->target_dir[2],
                        c->ease_in_start, c->ease_in_stop, c->ease_out_start, c->ease_out_stop);
}

gboolean
sq_sl_constraint_get (const SqClip   *clip,
                      guint           index,
                      SqSlConstraint *out)
{
  GVariant *v;
  g_autoptr(GVariant) c = NULL;

  g_return_val_if_fail (clip != NULL && out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  v = constraints_of (clip);
  if (v == NULL || index >= g_variant_n_children (v))
    return FALSE;
  c = g_variant_get_child_value (v, index);
  _sq_sl_constraint_unpack (c, out, NULL, NULL);
  return TRUE;
}

/* A 16-byte volume field for `name` (a full reference): the old field when
 * it still reads as `name` (its bytes after the NUL are kept), else the
 * name padded with NULs. */
static GVariant *
volume_field (const char *name,
              GVariant   *old)
{
  guint8 buf[SQ_SL_VOLUME_NAME_MAX + 1] = { 0 };

  if (old != NULL)
    {
      g_autofree char *old_name = _sq_sl_volume_name (old);

      if (strcmp (old_name, name) == 0)
        return g_variant_ref (old);
    }
  memcpy (buf, name, MIN (strlen (name), SQ_SL_VOLUME_NAME_MAX));
  return g_variant_ref_sink (g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, buf, sizeof buf, 1));
}

GVariant *
_sq_sl_constraint_to_variant (const SqSlConstraint *c,
                              GVariant             *old)
{
  g_autoptr(GVariant) old_src = NULL, old_dst = NULL, src = NULL, dst = NULL;

  if (old != NULL && g_variant_is_of_type (old, G_VARIANT_TYPE (SQ_SL_CONSTRAINT_VARIANT_TYPE)))
    {
      old_src = g_variant_get_child_value (old, 2);
      old_dst = g_variant_get_child_value (old, 4);
    }
  src = volume_field (c->source_volume, old_src);
  dst = volume_field (c->target_volume, old_dst);
  return _sq_sl_constraint_pack (c, src, dst);
}

