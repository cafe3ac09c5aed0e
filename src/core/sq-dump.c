/* sq-dump.c: readable and JSON renderings of a clip
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-dump"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "sq-dump.h"
#include "sq-units.h"
#include "sq-format.h"
#include "sq-math.h"
#include "sq-json.h"

void
sq_clip_summarize (const SqClip  *clip,
                   SqClipSummary *s)
{
  memset (s, 0, sizeof *s);
  s->format_name = clip->format ? sq_format_get_name (clip->format) : _("new animation");
  s->n_joints = clip->n_joints;
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      s->n_rotation_keys += clip->joints[j].tracks[SQ_CHANNEL_ROTATION].n_keys;
      s->n_translation_keys += clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION].n_keys;
      s->n_scale_keys += clip->joints[j].tracks[SQ_CHANNEL_SCALE].n_keys;
    }
  s->n_keys = s->n_rotation_keys + s->n_translation_keys + s->n_scale_keys;
  s->duration = clip->duration;
  s->frames = sq_clip_get_frame_count (clip);
}

/* A file of several takes: how many, then one line each, numbered from 1
 * as `--take` counts, the clip's own marked */
static void
append_takes (GString      *out,
              const SqClip *clip)
{
  gsize n;
  guint take;
  const char * const *takes = sq_clip_get_takes (clip, &n, &take);

  if (n < 2)
    return;
  g_string_append_printf (out, "%-10s %zu\n", _("Takes:"), n);
  for (gsize i = 0; i < n; i++)
    {
      g_string_append_printf (out, "  %zu ", i + 1);
      if (takes[i][0] != '\0')
        g_string_append_printf (out, "“%s”", takes[i]);
      else
        g_string_append (out, _("(no name)"));
      if (i == take)
        g_string_append (out, _(" (this one)"));
      g_string_append_c (out, '\n');
    }
}

char *
sq_dump_summary (const SqClip *clip)
{
  SqClipSummary s;
  GString *out = g_string_new (NULL);
  g_autofree char *fps = sq_format_rate (clip->fps);
  g_autofree char *dur = NULL;

  sq_clip_summarize (clip, &s);
  dur = sq_format_seconds (s.duration);
  g_string_append_printf (out, "%-10s %s\n", _("Format:"), s.format_name);
  g_string_append_printf (out, "%-10s %s\n", _("Model:"), clip->name[0] ? clip->name : _("(none)"));
  if (clip->root[0])
    g_string_append_printf (out, "%-10s %s\n", _("Root:"), clip->root);
  else
    g_string_append_printf (out, "%-10s %s %s\n", _("Root:"), sq_clip_get_effective_root (clip),
                            _("(blank in the header)"));
  g_string_append_printf (out, "%-10s %zu\n", _("Joints:"), s.n_joints);
  g_string_append_printf (out, "%-10s ", _("Keys:"));
  g_string_append_printf (out, _("%zu (%zu rotation, %zu translation, %zu scale)\n"),
                          s.n_keys, s.n_rotation_keys, s.n_translation_keys, s.n_scale_keys);
  g_string_append_printf (out, "%-10s %s\n", _("Duration:"), dur);
  g_string_append_printf (out, "%-10s ", _("Frames:"));
  g_string_append_printf (out, _("%u (%s per second)\n"), s.frames, fps);
  append_takes (out, clip);
  if (clip->warnings->len > 0)
    g_string_append_printf (out, "%-10s %u\n", _("Warnings:"), clip->warnings->len);
  return g_string_free (out, FALSE);
}

static void
json_props (GString        *out,
            const SqClip   *clip,
            const SqProps  *props)
{
  g_string_append_c (out, '{');
  for (gsize i = 0; i < sq_props_size (props); i++)
    {
      const char *key = sq_props_key_at (props, i);
      GVariant *value = sq_props_value_at (props, i);

      if (i > 0)
        g_string_append_c (out, ',');
      _sq_json_string (out, key);
      g_string_append_c (out, ':');
      if (!(clip->format && clip->format->dump_field && clip->format->dump_field (out, key, value, TRUE)))
        _sq_json_variant (out, value);
    }
  g_string_append_c (out, '}');
}

static void
json_track (GString       *out,
            const SqTrack *track,
            guint          n_values)
{
  g_string_append_c (out, '[');
  for (gsize k = 0; k < track->n_keys; k++)
    {
      SqKey key = sq_track_key (track, k);

      if (k > 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, '[');
      _sq_json_number (out, key.time);
      for (guint c = 0; c < n_values; c++)
        {
          g_string_append_c (out, ',');
          _sq_json_number (out, key.v[c]);
        }
      g_string_append_c (out, ']');
    }
  g_string_append_c (out, ']');
}

char *
sq_dump_json (const SqClip *clip)
{
  GString *out = g_string_sized_new (1024 + sq_clip_count_keys (clip) * 64);

  g_string_append (out, "{\"format\":");
  _sq_json_string (out, clip->format ? clip->format->id : "");
  g_string_append (out, ",\"name\":");
  _sq_json_string (out, clip->name);
  g_string_append (out, ",\"root\":");
  _sq_json_string (out, sq_clip_get_effective_root (clip));
  g_string_append (out, ",\"duration\":");
  _sq_json_number (out, clip->duration);
  g_string_append (out, ",\"joints\":[");
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];

      g_string_append (out, j > 0 ? ",\n{\"name\":" : "\n{\"name\":");
      _sq_json_string (out, joint->name);
      g_string_append (out, ",\"rotations\":");
      json_track (out, &joint->tracks[SQ_CHANNEL_ROTATION], 4);
      g_string_append (out, ",\"translations\":");
      json_track (out, &joint->tracks[SQ_CHANNEL_TRANSLATION], 3);
      g_string_append (out, ",\"scales\":");
      json_track (out, &joint->tracks[SQ_CHANNEL_SCALE], 3);
      if (sq_props_size (joint->extra) > 0)
        {
          g_string_append (out, ",\"extra\":");
          json_props (out, clip, joint->extra);
        }
      g_string_append_c (out, '}');
    }
  g_string_append (out, "],\n\"warnings\":[");
  for (guint i = 0; i < clip->warnings->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      _sq_json_string (out, clip->warnings->pdata[i]);
    }
  g_string_append (out, "],\n\"extra\":");
  json_props (out, clip, clip->extra);
  g_string_append (out, "}\n");
  return g_string_free (out, FALSE);
}

/* ---- readable text ------------------------------------------------------------ */

/* numbers in the readable dump use a point whatever the locale */
#define FX(fmt, v) g_ascii_formatd (fxbuf[fxi++ % 8], G_ASCII_DTOSTR_BUF_SIZE, fmt, v)

/* A byte string as g_variant_print() shows it when it is no text:
 * [0x3f, 0x80, …], its first `limit` bytes at most */
static gboolean
print_bytes (GString  *out,
             GVariant *value,
             gsize     limit)
{
  static const char hex[] = "0123456789abcdef";
  gsize n;
  const guint8 *p;

  if (!g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
    return FALSE;
  p = g_variant_get_fixed_array (value, &n, 1);
  /* GLib shows b'…' for bytes that end in their only NUL */
  if (n > 0 && p[n - 1] == '\0' && memchr (p, '\0', n - 1) == NULL)
    return FALSE;
  g_string_append_c (out, '[');
  for (gsize i = 0; i < MIN (n, limit); i++)
    {
      char item[6] = { ',', ' ', '0', 'x', hex[p[i] >> 4], hex[p[i] & 15] };

      g_string_append_len (out, i > 0 ? item : item + 2, i > 0 ? 6 : 4);
    }
  if (n <= limit)
    g_string_append_c (out, ']');
  return TRUE;
}

/* The part of a long array that its first 200 characters show (its first
 * 256 elements; for a byte string that prints as text, b'…', those and the
 * closing NUL), or NULL when it is short: printing the whole of a file's
 * kept bytes to show 190 characters was most of a dump's time */
static GVariant *
print_head (GVariant *value)
{
  enum { HEAD = 256 };
  gsize n = g_variant_is_container (value) ? g_variant_n_children (value) : 0;
  GVariantBuilder b;

  if (n <= HEAD || !g_variant_type_is_array (g_variant_get_type (value)))
    return NULL;
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
    {
      /* a text (the others are print_bytes'): its head and the NUL */
      g_autofree guint8 *copy = g_memdup2 (g_variant_get_data (value), HEAD + 1);

      copy[HEAD] = '\0';
      return g_variant_ref_sink (g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, copy, HEAD + 1, 1));
    }
  g_variant_builder_init (&b, g_variant_get_type (value));
  for (gsize i = 0; i < HEAD; i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (value, i);
      g_variant_builder_add_value (&b, child);
    }
  return g_variant_ref_sink (g_variant_builder_end (&b));
}

static void
text_props (GString       *out,
            const SqClip  *clip,
            const SqProps *props,
            const char    *indent)
{
  for (gsize i = 0; i < sq_props_size (props); i++)
    {
      const char *key = sq_props_key_at (props, i);
      GVariant *value = sq_props_value_at (props, i);

      if (clip->format && clip->format->dump_field && clip->format->dump_field (out, key, value, FALSE))
        continue;
      {
        gsize from = out->len;

        g_string_append_printf (out, "%s%s: ", indent, key);
        from = out->len;
        if (!print_bytes (out, value, 40))
          {
            g_autoptr(GVariant) head = print_head (value);
            g_autofree char *text = g_variant_print (head != NULL ? head : value, FALSE);
            g_string_append (out, text);
          }
        /* 200 characters (bytes) at most: 190 and " …" */
        if (out->len - from > 200)
          {
            g_string_truncate (out, from + 190);
            g_string_append (out, " …");
          }
        g_string_append_c (out, '\n');
      }
    }
}

char *
sq_dump_text (const SqClip *clip)
{
  GString *out = g_string_sized_new (1024 + sq_clip_count_keys (clip) * 96);
  g_autofree char *summary = sq_dump_summary (clip);
  char b[4][SQ_DOUBLE_BUF];
  char fxbuf[8][G_ASCII_DTOSTR_BUF_SIZE];
  guint fxi = 0;

  g_string_append (out, summary);
  text_props (out, clip, clip->extra, "");
  for (guint i = 0; i < clip->warnings->len; i++)
    g_string_append_printf (out, _("Warning: %s\n"), (const char *) clip->warnings->pdata[i]);

  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];
      const SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];
      const SqTrack *pos = &joint->tracks[SQ_CHANNEL_TRANSLATION];
      const SqTrack *scl = &joint->tracks[SQ_CHANNEL_SCALE];
      gboolean is_root = (gssize) j == sq_clip_get_root_index (clip);

      g_string_append_printf (out, "\n%s %zu: “%s”%s\n", _("Joint"), j + 1, joint->name,
                              is_root ? _(" (root)") : "");
      text_props (out, clip, joint->extra, "  ");
      if (rot->n_keys > 0)
        {
          g_string_append_printf (out, _("  Rotations: %zu keys (frame, time, quaternion W X Y Z, axis X Y Z angle°)\n"),
                                  rot->n_keys);
          for (gsize k = 0; k < rot->n_keys; k++)
            {
              const SqKey key = sq_track_key (rot, k);
              double aa[4];

              sq_quat_to_axis_angle (key.v, aa);
              g_string_append_printf (out, "    %6d  %s s ", sq_clip_time_to_frame (clip, key.time), FX ("%9.4f", key.time));
              for (guint c = 0; c < 4; c++)
                g_string_append_printf (out, " %s", FX ("%11.7f", key.v[c]));
              g_string_append (out, "  ");
              for (guint c = 0; c < 3; c++)
                g_string_append_printf (out, " %s", FX ("%9.6f", aa[c]));
              g_string_append_printf (out, " %s\n", FX ("%9.4f", aa[3]));
            }
        }
      if (pos->n_keys > 0)
        {
          g_string_append_printf (out, _("  Translations: %zu keys (frame, time, X Y Z)\n"), pos->n_keys);
          for (gsize k = 0; k < pos->n_keys; k++)
            {
              const SqKey key = sq_track_key (pos, k);
              guint8 p = pos->present ? pos->present[k] : SQ_PRESENT_ALL;

              g_string_append_printf (out, "    %6d  %s s  %s%s %s%s %s%s\n",
                                      sq_clip_time_to_frame (clip, key.time), FX ("%9.4f", key.time),
                                      sq_format_double (b[0], sizeof b[0], key.v[0]), p & SQ_PRESENT_X ? "" : "~",
                                      sq_format_double (b[1], sizeof b[1], key.v[1]), p & SQ_PRESENT_Y ? "" : "~",
                                      sq_format_double (b[2], sizeof b[2], key.v[2]), p & SQ_PRESENT_Z ? "" : "~");
            }
          if (pos->present != NULL)
            g_string_append (out, _("    (~ marks a value interpolated between the file's own keys)\n"));
        }
      if (scl->n_keys > 0)
        {
          g_string_append_printf (out, _("  Scales: %zu keys (frame, time, X Y Z)\n"), scl->n_keys);
          for (gsize k = 0; k < scl->n_keys; k++)
            {
              const SqKey key = sq_track_key (scl, k);
              g_string_append_printf (out, "    %6d  %s s  %s %s %s\n",
                                      sq_clip_time_to_frame (clip, key.time), FX ("%9.4f", key.time),
                                      sq_format_double (b[0], sizeof b[0], key.v[0]),
                                      sq_format_double (b[1], sizeof b[1], key.v[1]),
                                      sq_format_double (b[2], sizeof b[2], key.v[2]));
            }
        }
      if (rot->n_keys + pos->n_keys + scl->n_keys == 0)
        g_string_append (out, _("  (no keys)\n"));
    }
  return g_string_free (out, FALSE);
}
