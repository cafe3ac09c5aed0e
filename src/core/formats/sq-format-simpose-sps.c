/* sq-format-simpose-sps.c: SimPose-ium animation sequences (.sps)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Text (the SimPose-ium spec):
 *   SimPoseSPS 1
 *   three trees (Sim1, Sim2, both Sims), each "|Start", nodes, "|End";
 *     a node: "N Typ Par Nxt Id M N", then 0 to 2 lines "A <animation name>"
 *   Selected <n>
 *   figures: "f Id Type Hidden Offset Skel", parts "m <part> <mesh>" and
 *     "t <part> <texture>", then "f - end"
 * An SPS has no keys: the clip has no joints, and its trees and figures
 * are the extras "trees" (aa(xxxxxxas): type, parent, sibling, id, M, N,
 * animations) and "figures" (a(xxxxxa(sxs)): id, type, hidden, offset,
 * skeleton, parts as kind "m"/"t", part id, name).
 */
#define G_LOG_DOMAIN "sq-sps"

#include "config.h"

#include "sq-parallel.h"
#include "sq-private.h"
#include "worlds/sq-world-sims.h"

#define SPS_N_TREES 3

static const char * const sps_extensions[] = { "sps", NULL };
static const char * const sps_fields[] = {
  "sps-version", "trees", "selected", "figures", "line-ending", NULL
};

static int
sps_probe (const guint8 *data,
           gsize         len)
{
  return len >= 11 && memcmp (data, "SimPoseSPS ", 11) == 0 ? 100 : 0;
}

static gboolean
line_is (const SqSimsText *t,
         const char       *text)
{
  gsize n = strlen (text), len = t->lines.cur_len;

  while (len > n && (t->lines.cur[len - 1] == ' ' || t->lines.cur[len - 1] == '\t'))
    len--;
  return len == n && memcmp (t->lines.cur, text, n) == 0;
}

/* "|Start", nodes with their animations, "|End" */
static gboolean
read_tree (SqSimsText      *t,
           GVariantBuilder *trees,
           GError         **error)
{
  GVariantBuilder nodes;
  gboolean pending = FALSE;
  gint64 v[6] = { 0 };
  GVariantBuilder anims;

  if (!_sq_sims_text_line (t, "“|Start”", error))
    return FALSE;
  if (!line_is (t, "|Start"))
    {
      _sq_sims_text_error (t, error, SQ_ERROR_SYNTAX, _("“|Start” expected"));
      return FALSE;
    }
  g_variant_builder_init (&nodes, G_VARIANT_TYPE ("a(xxxxxxas)"));
  g_variant_builder_init (&anims, G_VARIANT_TYPE ("as"));
  for (;;)
    {
      if (!_sq_sims_text_line (t, "a node or “|End”", error))
        goto fail;
      if (line_is (t, "|End") || (t->lines.cur_len >= 2 && t->lines.cur[0] == 'N' && t->lines.cur[1] == ' '))
        {
          if (pending)
            {
              /* the builder of the animations is consumed here: a new one for the next node */
              g_variant_builder_add (&nodes, "(xxxxxxas)", v[0], v[1], v[2], v[3], v[4], v[5], &anims);
              g_variant_builder_init (&anims, G_VARIANT_TYPE ("as"));
            }
          pending = FALSE;
          if (line_is (t, "|End"))
            break;
          if (!_sq_sims_text_ints (t, 1, v, 6, "N Typ Par Nxt Id M N", error))
            goto fail;
          pending = TRUE;
        }
      else if (pending && t->lines.cur_len >= 1 && t->lines.cur[0] == 'A' && (t->lines.cur_len == 1 || t->lines.cur[1] == ' '))
        {
          g_autofree char *name = t->lines.cur_len > 2 ? _sq_latin1_to_utf8 ((const guint8 *) t->lines.cur + 2, t->lines.cur_len - 2)
                                                 : g_strdup ("");
          g_variant_builder_add (&anims, "s", name);
        }
      else
        {
          _sq_sims_text_error (t, error, SQ_ERROR_SYNTAX, _("a line “N …”, “A name” or “|End” expected"));
          goto fail;
        }
    }
  g_variant_builder_clear (&anims);
  g_variant_builder_add_value (trees, g_variant_builder_end (&nodes));
  return TRUE;

fail:
  g_variant_builder_clear (&anims);
  g_variant_builder_clear (&nodes);
  return FALSE;
}

/* "f Id Type Hidden Offset Skel", "m"/"t" part lines, "f - end" */
static gboolean
read_figure (SqSimsText      *t,
             GVariantBuilder *figures,
             GError         **error)
{
  g_auto(GVariantBuilder) parts = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(sxs)"));
  gint64 v[5];

  if (t->lines.cur_len < 2 || t->lines.cur[0] != 'f' || t->lines.cur[1] != ' ')
    {
      _sq_sims_text_error (t, error, SQ_ERROR_SYNTAX, _("a figure line “f Id Type Hidden Offset Skel” expected"));
      return FALSE;
    }
  if (!_sq_sims_text_ints (t, 1, v, 5, "f Id Type Hidden Offset Skel", error))
    return FALSE;
  for (;;)
    {
      gint64 id;
      const char *p, *end;
      g_autofree char *name = NULL;
      char kind[2] = { 0, 0 };

      if (!_sq_sims_text_line (t, "a part or “f - end”", error))
        return FALSE;
      if (line_is (t, "f - end"))
        break;
      if (t->lines.cur_len < 2 || (t->lines.cur[0] != 'm' && t->lines.cur[0] != 't') || t->lines.cur[1] != ' ')
        {
          _sq_sims_text_error (t, error, SQ_ERROR_SYNTAX, _("a part line “m|t PartId name” or “f - end” expected"));
          return FALSE;
        }
      /* the part id, one space, then the name to the end of the line */
      p = t->lines.cur + 2;
      end = t->lines.cur + t->lines.cur_len;
      kind[0] = t->lines.cur[0];
      {
        gboolean neg = p < end && *p == '-';
        const char *digits = p + neg;
        guint64 n = 0;

        p = digits;
        while (p < end && g_ascii_isdigit (*p) && n < G_MAXINT32)
          n = n * 10 + (guint64) (*p++ - '0');
        if (p == digits || (p < end && *p != ' '))
          {
            _sq_sims_text_error (t, error, SQ_ERROR_SYNTAX, _("%s: a part id expected"), kind);
            return FALSE;
          }
        id = neg ? -(gint64) n : (gint64) n;
      }
      name = p < end ? _sq_latin1_to_utf8 ((const guint8 *) p + 1, end - p - 1) : g_strdup ("");
      g_variant_builder_add (&parts, "(sxs)", kind, id, name);
    }
  g_variant_builder_add (figures, "(xxxxxa(sxs))", v[0], v[1], v[2], v[3], v[4], &parts);
  return TRUE;
}

static SqClip *
sps_read (GBytes              *bytes,
          const SqLoadOptions *options,
          GError             **error)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  g_auto(GVariantBuilder) trees = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("aa(xxxxxxas)"));
  g_auto(GVariantBuilder) figures = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(xxxxxa(sxs))"));
  gint64 version, selected;
  guint n_figures = 0;
  SqSimsText t;

  (void) options;
  clip->format = &_sq_format_simpose_sps;
  clip->fps = SQ_SIMS_FPS;
  _sq_sims_text_init (&t, bytes, "SPS");
  if (!_sq_sims_text_line (&t, "“SimPoseSPS 1”", error))
    return NULL;
  if (t.lines.cur_len < 11 || memcmp (t.lines.cur, "SimPoseSPS ", 11) != 0)
    {
      _sq_sims_text_error (&t, error, SQ_ERROR_BAD_MAGIC, _("not a SimPose-ium sequence file (no “SimPoseSPS” line)"));
      return NULL;
    }
  if (!_sq_sims_text_ints (&t, 11, &version, 1, "SimPoseSPS version", error))
    return NULL;
  for (int i = 0; i < SPS_N_TREES; i++)
    if (!read_tree (&t, &trees, error))
      return NULL;
  if (!_sq_sims_text_line (&t, "“Selected n”", error))
    return NULL;
  if (t.lines.cur_len < 9 || memcmp (t.lines.cur, "Selected ", 9) != 0)
    {
      _sq_sims_text_error (&t, error, SQ_ERROR_SYNTAX, _("“Selected n” expected"));
      return NULL;
    }
  if (!_sq_sims_text_ints (&t, 9, &selected, 1, "Selected", error))
    return NULL;
  while (!_sq_sims_text_at_end (&t))
    {
      _sq_sims_text_line (&t, "", NULL);
      if (t.lines.cur_len == 0 && _sq_sims_text_at_end (&t))
        break;
      if (!read_figure (&t, &figures, error))
        return NULL;
      n_figures++;
    }
  if (n_figures != 2)
    sq_clip_add_warning (clip, _("the file has %u figures, not 2 (one per Sim)"), n_figures);

  sq_props_set (clip->extra, "sps-version", g_variant_new_int64 (version));
  sq_props_set (clip->extra, "trees", g_variant_builder_end (&trees));
  sq_props_set (clip->extra, "selected", g_variant_new_int64 (selected));
  sq_props_set (clip->extra, "figures", g_variant_builder_end (&figures));
  sq_props_set (clip->extra, "line-ending", g_variant_new_string (_sq_sims_text_eol (bytes)));
  return g_steal_pointer (&clip);
}

static GPtrArray *
sps_write (const SqClip        *clip,
           const SqSaveOptions *options,
           GPtrArray           *losses,
           GError             **error)
{
  const char *eol = _sq_sims_eol (clip);
  GVariant *trees = sq_props_get (clip->extra, "trees");
  GVariant *figures = sq_props_get (clip->extra, "figures");
  GString *out = g_string_new (NULL);
  gsize n_trees = trees != NULL && g_variant_is_of_type (trees, G_VARIANT_TYPE ("aa(xxxxxxas)"))
                  ? g_variant_n_children (trees) : 0;

  (void) options;
  (void) error;
  if (sq_clip_count_keys (clip) > 0)
    _sq_loss (losses, _("the keys: an SPS holds sequence trees and figures, not animations"));
  g_string_append_printf (out, "SimPoseSPS %" PRId64 "%s", sq_props_get_int (clip->extra, "sps-version", 1), eol);
  for (gsize i = 0; i < MAX (n_trees, SPS_N_TREES); i++)
    {
      g_string_append (out, "|Start");
      g_string_append (out, eol);
      if (i < n_trees)
        {
          g_autoptr(GVariant) tree = g_variant_get_child_value (trees, i);
          for (gsize k = 0; k < g_variant_n_children (tree); k++)
            {
              gint64 v[6];
              g_autoptr(GVariantIter) anims = NULL;
              const char *name;

              g_variant_get_child (tree, k, "(xxxxxxas)", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &anims);
              g_string_append_printf (out, "N %" PRId64 " %" PRId64 " %" PRId64
                                      " %" PRId64 " %" PRId64 " %" PRId64 "%s",
                                      v[0], v[1], v[2], v[3], v[4], v[5], eol);
              while (g_variant_iter_next (anims, "&s", &name))
                {
                  g_string_append (out, "A ");
                  _sq_sims_put_string (out, name, eol);
                }
            }
        }
      g_string_append (out, "|End");
      g_string_append (out, eol);
    }
  g_string_append_printf (out, "Selected %" PRId64 "%s", sq_props_get_int (clip->extra, "selected", 0), eol);
  if (figures != NULL && g_variant_is_of_type (figures, G_VARIANT_TYPE ("a(xxxxxa(sxs))")))
    for (gsize i = 0; i < g_variant_n_children (figures); i++)
      {
        gint64 v[5], id;
        g_autoptr(GVariantIter) parts = NULL;
        const char *kind, *name;

        g_variant_get_child (figures, i, "(xxxxxa(sxs))", &v[0], &v[1], &v[2], &v[3], &v[4], &parts);
        g_string_append_printf (out, "f %" PRId64 " %" PRId64 " %" PRId64
                                " %" PRId64 " %" PRId64 "%s", v[0], v[1], v[2], v[3], v[4], eol);
        while (g_variant_iter_next (parts, "(&sx&s)", &kind, &id, &name))
          {
            g_string_append_printf (out, "%c %" PRId64 " ", kind[0] == 't' ? 't' : 'm', id);
            _sq_sims_put_string (out, name, eol);
          }
        g_string_append (out, "f - end");
        g_string_append (out, eol);
      }
  return _sq_pieces_new (g_string_free_to_bytes (out));
}

static char *
sps_describe_field (const char *key,
                    GVariant   *value)
{
  (void) value;
  if (g_str_equal (key, "trees"))
    return g_strdup (_("the SPS sequence trees"));
  if (g_str_equal (key, "figures"))
    return g_strdup (_("the SPS figures"));
  return NULL;
}

static void
json_node (GString  *out,
           GVariant *node)
{
  gint64 v[6];
  g_autoptr(GVariantIter) anims = NULL;
  const char *name;
  gboolean first = TRUE;

  g_variant_get (node, "(xxxxxxas)", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &anims);
  g_string_append_printf (out, "{\"type\":%" PRId64 ",\"parent\":%" PRId64 ",\"sibling\":%"
                          G_GINT64_FORMAT ",\"id\":%" PRId64 ",\"m\":%" PRId64 ",\"n\":%"
                          G_GINT64_FORMAT ",\"animations\":[", v[0], v[1], v[2], v[3], v[4], v[5]);
  while (g_variant_iter_next (anims, "&s", &name))
    {
      if (!first)
        g_string_append_c (out, ',');
      first = FALSE;
      _sq_json_string (out, name);
    }
  g_string_append (out, "]}");
}

static void
json_figure (GString  *out,
             GVariant *figure)
{
  gint64 v[5], id;
  g_autoptr(GVariantIter) parts = NULL;
  const char *kind, *name;
  gboolean first = TRUE;

  g_variant_get (figure, "(xxxxxa(sxs))", &v[0], &v[1], &v[2], &v[3], &v[4], &parts);
  g_string_append_printf (out, "{\"id\":%" PRId64 ",\"type\":%" PRId64 ",\"hidden\":%"
                          G_GINT64_FORMAT ",\"offset\":%" PRId64 ",\"skeleton\":%" PRId64
                          ",\"parts\":[", v[0], v[1], v[2], v[3], v[4]);
  while (g_variant_iter_next (parts, "(&sx&s)", &kind, &id, &name))
    {
      g_string_append_printf (out, "%s{\"kind\":\"%s\",\"part\":%" PRId64 ",\"name\":",
                              first ? "" : ",", g_str_equal (kind, "t") ? "texture" : "mesh", id);
      _sq_json_string (out, name);
      g_string_append_c (out, '}');
      first = FALSE;
    }
  g_string_append (out, "]}");
}

/* The trees and figures as JSON objects; as text, a node or figure a line */
static gboolean
sps_dump_field (GString    *out,
                const char *key,
                GVariant   *value,
                gboolean    json)
{
  gboolean tree = g_str_equal (key, "trees") && g_variant_is_of_type (value, G_VARIANT_TYPE ("aa(xxxxxxas)"));
  gboolean figure = g_str_equal (key, "figures") && g_variant_is_of_type (value, G_VARIANT_TYPE ("a(xxxxxa(sxs))"));

  if (!tree && !figure)
    return FALSE;
  g_string_append_c (out, '[');
  for (gsize i = 0; i < g_variant_n_children (value); i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (value, i);

      if (i > 0)
        g_string_append (out, json ? "," : ", ");
      if (figure)
        json_figure (out, child);
      else
        {
          g_string_append_c (out, '[');
          for (gsize k = 0; k < g_variant_n_children (child); k++)
            {
              g_autoptr(GVariant) node = g_variant_get_child_value (child, k);

              if (k > 0)
                g_string_append_c (out, ',');
              json_node (out, node);
            }
          g_string_append_c (out, ']');
        }
    }
  g_string_append_c (out, ']');
  return TRUE;
}

const SqFormat _sq_format_simpose_sps = {
  .id = "simpose-sps",
  .name = N_("SimPose-ium animation sequence"),
  .extensions = sps_extensions,
  .mime_type = "text/x-simpose-sps",
  .flags = SQ_FORMAT_READ | SQ_FORMAT_WRITE | SQ_FORMAT_TEXT,
  .fields = sps_fields,
  .describe_field = sps_describe_field,
  .dump_field = sps_dump_field,
  .probe = sps_probe,
  .read = sps_read,
  .write = sps_write,
  .space = &sq_space_sims,
  .world = &sq_world_sims,
};
