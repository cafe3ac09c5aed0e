/* sq-format-bvh.c: Biovision Hierarchy (BVH) motion capture text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Grammar (shared/docs/formats.md 2.1):
 *   HIERARCHY
 *   ROOT name { OFFSET x y z  CHANNELS n ch…  (JOINT name { … } | End Site { OFFSET x y z })* }
 *   MOTION
 *   Frames: N
 *   Frame Time: seconds
 *   N lines of numbers, one per channel in depth-first (file) order
 *
 * Read by tokens, so line breaks, tabs, spaces, CR / LF / CRLF are all the
 * same to the grammar; keywords are case-insensitive. One ROOT per file (a
 * second one is refused); the nesting is read without recursion and capped
 * at BVH_MAX_DEPTH levels.
 *
 * Rotation convention: the rotation channels of a joint are applied in the
 * order listed, intrinsic, in degrees: `Zrotation Xrotation Yrotation` is
 * R = Rz · Rx · Ry (column vectors), the quaternion q = qz ⊗ qx ⊗ qy. This is
 * what the Second Life viewer and Blender do.
 *
 * Model: every ROOT / JOINT is one SqJoint in file order; its extras hold
 * "parent" (int32 index or -1), "offset" (ddd), "channels" (as) and, for a
 * leaf, "end-site" (ddd). Frame f is at f × frame time; every animated
 * channel has a key at every frame. Rotation keys keep the file's angles in
 * SqTrack.alt (channel order, then 0), so an unedited key is written with
 * its own numbers. Position channels are translation keys in file units.
 *
 * Exact writing: the clip extras keep the layout (the hierarchy text itself,
 * used while it still says exactly what the joints say; separators, the line
 * end, the number of decimals, the original Frame Time text and what follows
 * the last frame), so the writer reproduces files with a regular motion
 * section byte for byte on its own.
 */
#define G_LOG_DOMAIN "sq-bvh"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "sq-math.h"
#include "sq-parallel.h"
#include "sq-private.h"
#include "worlds/sq-sl-behaviour.h"

#define BVH_MAX_DEPTH 256
/* frames read on several threads: parts a thread (read_frames_parallel) */
#define BVH_PARTS_PER_THREAD 4
/* what the writer produces at most: about 160 MB of text */
#define BVH_MAX_WRITE_VALUES 16000000
/* frames written on several threads (bvh_write_with_layout): so many runs
 * of frames a thread, more for a text so long that a run would pass
 * BVH_WRITE_RUN_BYTES */
#define BVH_RUNS_PER_THREAD 4
#define BVH_WRITE_RUN_BYTES (16u << 20)

/* ---- rotations ----------------------------------------------------------- */


/* ---- tokens -------------------------------------------------------------- */

/* The tokens are the shared reader's (sq-text-reader.h): runs of bytes
 * between blanks, with their line and column. */

static void
error_at_token (const SqTextReader  *lx,
                GError             **error,
                SqErrorCode          code,
                const char          *message)
{
  if (lx->tok_len == 0)
    _sq_text_error_at_token (lx, error, SQ_ERROR_TRUNCATED, _("the file ends where %s was expected"), message);
  else
    {
      g_autofree char *t = _sq_text_excerpt (lx->tok, lx->tok_len, 40, TRUE);
      _sq_text_error_at_token (lx, error, code, _("expected %s, found “%s”"), message, t);
    }
}

static gboolean
expect_number (SqTextReader  *lx,
               double        *out,
               const char    *what,
               GError       **error)
{
  if (!_sq_text_next (lx) || !_sq_text_tok_double (lx, out))
    {
      error_at_token (lx, error, SQ_ERROR_SYNTAX, what);
      return FALSE;
    }
  return TRUE;
}

/* ---- channels ------------------------------------------------------------ */

/* 0..2 Xposition..Zposition, 3..5 Xrotation..Zrotation, -1 unknown */
static int
channel_code (const char *tok,
              gsize       len)
{
  static const char * const names[] = { "Xposition", "Yposition", "Zposition",
                                        "Xrotation", "Yrotation", "Zrotation" };
  for (int i = 0; i < 6; i++)
    if (strlen (names[i]) == len && g_ascii_strncasecmp (tok, names[i], len) == 0)
      return i;
  return -1;
}

static const char * const channel_names[] = { "Xposition", "Yposition", "Zposition",
                                              "Xrotation", "Yrotation", "Zrotation" };

typedef struct
{
  int    codes[6];
  guint  n;
  int    rot_axes[3];
  guint  n_rot;
  guint  n_pos;
} Channels;

static void
channels_index (Channels *ch)
{
  ch->n_rot = ch->n_pos = 0;
  for (guint i = 0; i < ch->n; i++)
    if (ch->codes[i] >= 3)
      ch->rot_axes[ch->n_rot++] = ch->codes[i] - 3;
    else
      ch->n_pos++;
}

/* The "channels" extra of a joint, when it is a valid list. */
static gboolean
channels_from_props (const SqProps *props,
                     Channels      *ch)
{
  GVariant *v = sq_props_get (props, "channels");
  gsize n;
  guint seen = 0;

  memset (ch, 0, sizeof *ch);
  if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE_STRING_ARRAY))
    return FALSE;
  n = g_variant_n_children (v);
  if (n > 6)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      const char *s;
      int code;

      g_variant_get_child (v, i, "&s", &s);
      code = channel_code (s, strlen (s));
      if (code < 0 || (seen & (1u << code)))
        return FALSE;
      seen |= 1u << code;
      ch->codes[ch->n++] = code;
    }
  channels_index (ch);
  return TRUE;
}

static GVariant *
channels_variant (const Channels *ch)
{
  const char *names[6];

  for (guint i = 0; i < ch->n; i++)
    names[i] = channel_names[ch->codes[i]];
  return g_variant_new_strv (names, ch->n);
}

/* ---- reading: the hierarchy ---------------------------------------------- */

typedef struct
{
  Channels ch;
  gsize    first_value;   /* index of its first channel in a frame */
  gsize    name_at;       /* where its name stands in the text, and how long */
  gsize    name_len;
} JointInfo;

static GVariant *
vec3_variant (const double v[3])
{
  return g_variant_new ("(ddd)", v[0], v[1], v[2]);
}

/* "End Site [name] { OFFSET x y z }" after "End": the End Site of joint
 * `top`, kept in its extras; a second one is an error. */
static gboolean
read_end_site (SqTextReader  *lx,
               SqClip        *clip,
               gint32         top,
               GError       **error)
{
  double off[3];
  guint line = lx->tok_line, col = lx->tok_col;

  if (!_sq_text_next (lx) || !_sq_text_tok_is (lx, "Site"))
    {
      error_at_token (lx, error, SQ_ERROR_SYNTAX, _("“Site” after “End”"));
      return FALSE;
    }
  do
    if (!_sq_text_next (lx))
      {
        error_at_token (lx, error, SQ_ERROR_SYNTAX, _("“{”"));
        return FALSE;
      }
  while (!_sq_text_tok_is (lx, "{") && !lx->newline_before);
  if (!_sq_text_tok_is (lx, "{"))
    {
      error_at_token (lx, error, SQ_ERROR_SYNTAX, _("“{”"));
      return FALSE;
    }
  if (!_sq_text_next (lx) || !_sq_text_tok_is (lx, "OFFSET"))
    {
      error_at_token (lx, error, SQ_ERROR_SYNTAX, _("“OFFSET”"));
      return FALSE;
    }
  for (guint c = 0; c < 3; c++)
    if (!expect_number (lx, &off[c], _("an OFFSET number"), error))
      return FALSE;
  if (!_sq_text_next (lx) || !_sq_text_tok_is (lx, "}"))
    {
      error_at_token (lx, error, SQ_ERROR_SYNTAX, _("“}” closing the End Site"));
      return FALSE;
    }
  if (sq_props_get (clip->joints[top].extra, "end-site") != NULL)
    {
      sq_set_error_at_line (error, SQ_ERROR_UNSUPPORTED, line, col,
                            _("joint “%s” has a second End Site"), clip->joints[top].name);
      return FALSE;
    }
  sq_props_set (clip->joints[top].extra, "end-site", vec3_variant (off));
  return TRUE;
}

/* The name after ROOT or JOINT (at kw_line:kw_col): the rest of its line
 * up to a "{", which may also start the next line. Returns the name, NULL
 * on an error; where it stands goes into info. */
static char *
read_joint_name (SqTextReader  *lx,
                 guint          kw_line,
                 guint          kw_col,
                 JointInfo     *info,
                 GError       **error)
{
  const char *name_start, *name_end;
  gboolean brace_on_line = FALSE;

  if (!_sq_text_next (lx) || lx->newline_before)
    {
      sq_set_error_at_line (error, SQ_ERROR_SYNTAX, kw_line, kw_col,
                            _("a joint name must follow ROOT or JOINT on its line"));
      return NULL;
    }
  name_start = name_end = lx->tok;
  for (;;)
    {
      if (_sq_text_tok_is (lx, "{"))
        {
          brace_on_line = TRUE;
          break;
        }
      name_end = lx->tok + lx->tok_len;
      {
        gsize save_pos = lx->pos, save_ls = lx->line_start;
        guint save_line = lx->line;
        gboolean nl = _sq_text_skip_blanks (lx);

        lx->pos = save_pos;
        lx->line = save_line;
        lx->line_start = save_ls;
        if (nl || lx->pos >= lx->len)
          break;
      }
      _sq_text_next (lx);
    }
  if (name_end == name_start)
    {
      sq_set_error_at_line (error, SQ_ERROR_SYNTAX, kw_line, kw_col,
                            _("a joint name must follow ROOT or JOINT on its line"));
      return NULL;
    }
  info->name_at = name_start - lx->data;
  info->name_len = name_end - name_start;
  if (!brace_on_line && (!_sq_text_next (lx) || !_sq_text_tok_is (lx, "{")))
    {
      error_at_token (lx, error, SQ_ERROR_SYNTAX, _("“{” after the joint name"));
      return NULL;
    }
  return _sq_text_excerpt (name_start, name_end - name_start, G_MAXSIZE, TRUE);
}

/* "CHANNELS n name…" after its keyword: up to six distinct channels */
static gboolean
read_channels (SqTextReader  *lx,
               const char    *name,
               Channels      *ch,
               GError       **error)
{
  gint64 n;
  guint seen = 0;

  if (!_sq_text_next (lx) || !_sq_text_tok_int (lx, &n) || n < 0 || n > 6)
    {
      error_at_token (lx, error, SQ_ERROR_SYNTAX, _("a channel count from 0 to 6"));
      return FALSE;
    }
  for (gint64 c = 0; c < n; c++)
    {
      int code;

      if (!_sq_text_next (lx) || (code = channel_code (lx->tok, lx->tok_len)) < 0)
        {
          error_at_token (lx, error, SQ_ERROR_SYNTAX,
                          _("a channel name (Xposition … Zrotation)"));
          return FALSE;
        }
      if (seen & (1u << code))
        {
          sq_set_error_at_line (error, SQ_ERROR_BAD_VALUE, lx->tok_line, lx->tok_col,
                                _("joint “%s” lists %s twice"), name, channel_names[code]);
          return FALSE;
        }
      seen |= 1u << code;
      ch->codes[ch->n++] = code;
    }
  channels_index (ch);
  return TRUE;
}

/* OFFSET and CHANNELS, in either order, before the children; a missing
 * OFFSET is 0 0 0 with a warning. */
static gboolean
read_offset_and_channels (SqTextReader  *lx,
                          SqClip        *clip,
                          const char    *name,
                          guint          kw_line,
                          double         off[3],
                          Channels      *ch,
                          GError       **error)
{
  gboolean have_offset = FALSE, have_channels = FALSE;

  for (guint part = 0; part < 2; part++)
    {
      gsize save_pos = lx->pos, save_ls = lx->line_start;
      guint save_line = lx->line;

      _sq_text_next (lx);
      if (_sq_text_tok_is (lx, "OFFSET") && !have_offset)
        {
          for (guint c = 0; c < 3; c++)
            if (!expect_number (lx, &off[c], _("an OFFSET number"), error))
              return FALSE;
          have_offset = TRUE;
        }
      else if (_sq_text_tok_is (lx, "CHANNELS") && !have_channels)
        {
          if (!read_channels (lx, name, ch, error))
            return FALSE;
          have_channels = TRUE;
        }
      else
        {
          /* not ours: read it again as a child or "}" */
          lx->pos = save_pos;
          lx->line = save_line;
          lx->line_start = save_ls;
          break;
        }
    }
  if (!have_offset)
    sq_clip_add_warning (clip, _("line %u: joint “%s” has no OFFSET; 0 0 0 is used"), kw_line, name);
  return TRUE;
}

/* A ROOT or JOINT after its keyword, up to its children: the joint is
 * added to the clip under the top of `stack`, then pushed on it; the
 * first one names the clip's root. */
static gboolean
read_joint (SqTextReader  *lx,
            SqClip        *clip,
            GArray        *stack,
            GHashTable    *names,
            GArray        *infos,
            gsize         *n_values,
            gboolean       first,
            guint          max_joints,
            GError       **error)
{
  guint kw_line = lx->tok_line, kw_col = lx->tok_col;
  g_autofree char *name = NULL;
  SqJoint *joint;
  JointInfo info = { 0 };
  gint32 index;
  double off[3] = { 0, 0, 0 };

  if (stack->len >= BVH_MAX_DEPTH)
    {
      sq_set_error_at_line (error, SQ_ERROR_LIMIT_EXCEEDED, kw_line, kw_col,
                            _("joints nested more than %d levels deep"), BVH_MAX_DEPTH);
      return FALSE;
    }
  if (clip->n_joints >= max_joints)
    {
      sq_set_error_at_line (error, SQ_ERROR_LIMIT_EXCEEDED, kw_line, kw_col,
                            _("more than %u joints"), max_joints);
      return FALSE;
    }
  name = read_joint_name (lx, kw_line, kw_col, &info, error);
  if (name == NULL)
    return FALSE;
  if (!g_hash_table_add (names, g_strdup (name)))
    sq_clip_add_warning (clip, _("line %u: joint “%s” appears more than once; edits by name act on the first"),
                         kw_line, name);
  if (!read_offset_and_channels (lx, clip, name, kw_line, off, &info.ch, error))
    return FALSE;

  index = (gint32) clip->n_joints;
  joint = sq_clip_add_joint (clip, name);
  sq_props_set (joint->extra, "parent",
                g_variant_new_int32 (stack->len ? g_array_index (stack, gint32, stack->len - 1) : -1));
  sq_props_set (joint->extra, "offset", vec3_variant (off));
  sq_props_set (joint->extra, "channels", channels_variant (&info.ch));
  info.first_value = *n_values;
  *n_values += info.ch.n;
  g_array_append_val (infos, info);
  g_array_append_val (stack, index);
  if (first)
    {
      g_free (clip->root);
      clip->root = g_strdup (name);
    }
  return TRUE;
}

/* Reads from HIERARCHY up to and including the MOTION keyword into `clip`
 * (joints with their extras) and `infos`. */
static gboolean
read_hierarchy (SqTextReader  *lx,
                SqClip        *clip,
                GArray        *infos,
                guint          max_joints,
                GError       **error)
{
  GArray *stack = g_array_new (FALSE, FALSE, sizeof (gint32));
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gboolean have_root = FALSE;
  gsize n_values = 0;
  gboolean ok = FALSE;

  if (!_sq_text_next (lx) || !_sq_text_tok_is (lx, "HIERARCHY"))
    {
      sq_set_error_at_line (error, SQ_ERROR_BAD_MAGIC, lx->tok_line, lx->tok_col,
                            _("a BVH file starts with “HIERARCHY”"));
      goto out;
    }

  for (;;)
    {
      if (!_sq_text_next (lx))
        {
          error_at_token (lx, error, SQ_ERROR_SYNTAX, stack->len ? _("“}”") : _("“MOTION”"));
          goto out;
        }

      if (stack->len == 0)
        {
          if (_sq_text_tok_is (lx, "MOTION"))
            {
              if (!have_root)
                {
                  sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lx->tok_line, lx->tok_col,
                                        _("“MOTION” before any ROOT joint"));
                  goto out;
                }
              break;
            }
          if (!_sq_text_tok_is (lx, "ROOT"))
            {
              error_at_token (lx, error, SQ_ERROR_SYNTAX, _("“ROOT” or “MOTION”"));
              goto out;
            }
          if (have_root)
            {
              sq_set_error_at_line (error, SQ_ERROR_UNSUPPORTED, lx->tok_line, lx->tok_col,
                                    _("a second ROOT: Sequin reads one skeleton per BVH file "
                                      "(join the roots under one ROOT to read it)"));
              goto out;
            }
        }
      else if (_sq_text_tok_is (lx, "}"))
        {
          g_array_set_size (stack, stack->len - 1);
          continue;
        }
      else if (_sq_text_tok_is (lx, "End"))
        {
          if (!read_end_site (lx, clip, g_array_index (stack, gint32, stack->len - 1), error))
            goto out;
          continue;
        }
      else if (!_sq_text_tok_is (lx, "JOINT"))
        {
          error_at_token (lx, error, SQ_ERROR_SYNTAX, _("“JOINT”, “End Site” or “}”"));
          goto out;
        }

      if (!read_joint (lx, clip, stack, names, infos, &n_values, !have_root, max_joints, error))
        goto out;
      have_root = TRUE;
    }
  ok = TRUE;
out:
  g_array_unref (stack);
  g_hash_table_unref (names);
  return ok;
}

/* ---- reading: the motion ------------------------------------------------- */

/* ---- reading: rotation keys kept as the angles read ---------------------- */

/* A rotation track read from a file stays packed (SqKeyCodec): its keys'
 * time is the frame times the frame time (the track's parameter) and its
 * quaternion is made from the angles when asked for, with the numbers
 * sq_euler_to_quat_n gives; reading converts no angle. A record is either
 * where the frame's first angle of the joint stands in the text (when the
 * joint's rotation channels follow each other, as they do in every usual
 * file: the angles are read from there again when asked for, with the
 * reader's own scan, so the same numbers; 8 bytes a key) or the frame's
 * angles as 3 doubles (24 bytes a key; 0 for a channel it does not have).
 * A key and its kept angles would cost 72. One codec per channel order and
 * kind of record, which so travels with the track. */
typedef struct
{
  SqKeyCodec codec;
  int        axes[3];
  guint      n_rot;
  gboolean   text;            /* records point into the text */
} EulerCodec;

#define EULER_STRIDE (3 * sizeof (double))
#define TEXT_STRIDE  sizeof (const char *)

/* The rotation records' buffer begins with the text the text records
 * point into (held while the records are) */
typedef struct
{
  GBytes     *text;
  const char *data;
  gsize       len;
} RecordsHeader;

#define RECORDS_HEADER_SIZE (((sizeof (RecordsHeader) + 15) / 16) * 16)

static void
records_free (gpointer data)
{
  RecordsHeader *h = data;

  g_bytes_unref (h->text);
  g_free (h);
}

static double
euler_time (const SqTrack *track,
            const guint8  *record)
{
  return (double) (gint64) ((gsize) (record - track->packed) / track->codec->stride) * track->packed_param;
}

/* The value that starts at `pos` of the text, read as the motion reader
 * reads it (read_frames); the position after it in *pos */
static double
value_at (const RecordsHeader *h,
          gsize               *pos)
{
  const char *tok = h->data + *pos, *end = h->data + h->len, *stop;
  double v = 0.0;
  SqTextReader lx;

  stop = _sq_scan_double_fast (tok, end, end, &v);
  if (G_LIKELY (stop != NULL && stop != tok && (stop == end || _sq_text_blank[(guchar) *stop])))
    {
      *pos = stop - h->data;
      return v;
    }
  _sq_text_init (&lx, h->data, h->len);
  lx.pos = *pos;
  if (_sq_text_next (&lx))
    _sq_parse_double_in (lx.tok, lx.tok_len, lx.data + lx.len, &v);
  *pos = lx.tok + lx.tok_len - h->data;
  return v;
}

/* The angles of a record, 0 for the channels the joint does not have */
static void
record_angles (const SqTrack *track,
               const guint8  *record,
               double         angles[3])
{
  const EulerCodec *ec = (const EulerCodec *) track->codec;

  if (ec->text)
    {
      const RecordsHeader *h = g_bytes_get_data (track->packed_bytes, NULL);
      const char *p;
      gsize pos;

      memcpy (&p, record, sizeof p);
      pos = p - h->data;
      for (guint r = 0; r < 3; r++)
        {
          if (r >= ec->n_rot)
            {
              angles[r] = 0.0;
              continue;
            }
          /* one space between two values, as usual, else the lexer's skip */
          if (r > 0 && pos + 1 < h->len && h->data[pos] == ' ' && !_sq_text_blank[(guchar) h->data[pos + 1]])
            pos++;
          else if (r > 0)
            {
              SqTextReader lx;

              _sq_text_init (&lx, h->data, h->len);
              lx.pos = pos;
              _sq_text_skip_blanks (&lx);
              pos = lx.pos;
            }
          angles[r] = value_at (h, &pos);
        }
    }
  else
    memcpy (angles, record, 3 * sizeof (double));
}

static void
euler_key (const SqTrack *track,
           const guint8  *record,
           SqKey         *key)
{
  const EulerCodec *ec = (const EulerCodec *) track->codec;
  double angles[3];

  record_angles (track, record, angles);
  key->time = euler_time (track, record);
  sq_euler_to_quat (angles, ec->axes, ec->n_rot, key->v);
}

/* unpacked for an edit: the angles are kept in SqTrack.alt, so that the
 * keys an edit leaves alone are still written as they were read */
static void
euler_unpacked (SqTrack       *track,
                const SqTrack *packed)
{
  sq_track_ensure_alt (track);
  for (gsize i = 0; i < track->n_keys; i++)
    {
      record_angles (packed, packed->packed + i * packed->codec->stride, &track->alt[i * 4]);
      track->alt[i * 4 + 3] = 0.0;
    }
}

/* A track of text records unpacked in one pass: the angles read into
 * `alt`, the keys made from them in batches */
static void
euler_unpack (SqTrack       *track,
              const SqTrack *packed)
{
  const EulerCodec *ec = (const EulerCodec *) packed->codec;

  sq_track_ensure_alt (track);
  for (gsize i = 0; i < track->n_keys; i++)
    {
      record_angles (packed, packed->packed + i * packed->codec->stride, &track->alt[i * 4]);
      track->alt[i * 4 + 3] = 0.0;
      track->keys[i].time = euler_time (packed, packed->packed + i * packed->codec->stride);
    }
  if (track->n_keys > 0)
    sq_euler_to_quat_n (track->alt, 4, ec->axes, ec->n_rot, track->keys[0].v, sizeof (SqKey) / sizeof (double),
                        track->n_keys);
}

/* a posing edit's rotation written as the record's angles (sq_quat_to_euler
 * in the joint's channel order), so the track stays packed and the file
 * keeps its every-frame layout; FALSE when the channels cannot hold it */
static gboolean
euler_encode (const SqTrack *track,
              const double   v[4],
              guint8        *record)
{
  const EulerCodec *ec = (const EulerCodec *) track->codec;
  double angles[3] = { 0, 0, 0 };

  if (!sq_quat_to_euler (v, ec->axes, ec->n_rot, angles))
    return FALSE;
  for (guint i = ec->n_rot; i < 3; i++)
    angles[i] = 0.0;
  memcpy (record, angles, sizeof angles);
  return TRUE;
}

/* The codec of a channel order (axes 0..2 each, n_rot 0..3) and kind of
 * record (a text record cannot be written: a posing edit unpacks its
 * track) */
static const SqKeyCodec *
euler_codec (const int axes[3],
             guint     n_rot,
             gboolean  text)
{
  static EulerCodec codecs[2 * 4 * 27];
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (guint i = 0; i < G_N_ELEMENTS (codecs); i++)
        {
          gboolean t = i >= 4 * 27;
          guint o = i % (4 * 27);

          codecs[i] = (EulerCodec) { { t ? TEXT_STRIDE : EULER_STRIDE, euler_time, euler_key, euler_unpacked,
                                       t ? euler_unpack : NULL, t ? NULL : euler_encode },
                                     { (int) (o / 9 % 3), (int) (o / 3 % 3), (int) (o % 3) }, o / 27, t };
        }
      g_once_init_leave (&done, 1);
    }
  return &codecs[(text ? 4 * 27 : 0) + MIN (n_rot, 3) * 27 + CLAMP (axes[0], 0, 2) * 9 + CLAMP (axes[1], 0, 2) * 3
                 + CLAMP (axes[2], 0, 2)].codec;
}

/* The angles kept for rotation key k of a track read from a BVH file into
 * `out`: its record while packed, its SqTrack.alt once unpacked; FALSE
 * without */
static gboolean
kept_angles (const SqTrack *rot,
             gsize          k,
             double         out[3])
{
  if (sq_track_is_packed (rot))
    {
      if (rot->codec->key != euler_key)
        return FALSE;
      record_angles (rot, rot->packed + k * rot->codec->stride, out);
      return TRUE;
    }
  if (rot->alt == NULL)
    return FALSE;
  memcpy (out, &rot->alt[k * 4], 3 * sizeof (double));
  return TRUE;
}

/* A joint with channels, as the motion loop fills it */
typedef struct
{
  SqTrack *rot;             /* NULL without rotation channels */
  double  *angles;          /* its packed records (see euler_codec), 3 a frame, */
  const char **starts;      /* or where its first angle stands, 1 a frame */
  SqTrack *pos;             /* NULL without position channels */
  gsize    rot_index[3];    /* where its rotation values sit in a frame, in order */
  gssize   pos_index[3];    /* X, Y, Z position value, -1 when not a channel */
  int      rot_axes[3];
  guint    n_rot;
  guint8   pos_mask;        /* SQ_PRESENT_* of the position channels it has */
} JointPlan;

/* Frames first .. first + n_frames - 1, their values in `block` (n_values
 * a frame) and where each stands in `toks`, into the tracks of the same indices (reserved for every frame:
 * filled in place, so that parts of the frames can be stored on several
 * threads). Joint by joint, so each track is written in order: a rotation
 * as its angles (the packed records, see euler_codec), a translation as
 * keys. */
static void
store_frames (JointPlan    *plans,
              guint         n_plans,
              const double *block,
              const char  **toks,
              gsize         n_values,
              gsize         n_frames,
              gint64        first,
              double        ft)
{
  for (guint j = 0; j < n_plans; j++)
    {
      const JointPlan *plan = &plans[j];

      if (plan->starts != NULL)
        {
          const char **starts = &plan->starts[first];

          for (gsize b = 0; b < n_frames; b++)
            starts[b] = toks[b * n_values + plan->rot_index[0]];
        }
      else if (plan->rot != NULL)
        {
          double *angles = &plan->angles[(gsize) first * 3];

          for (gsize b = 0; b < n_frames; b++, angles += 3)
            {
              const double *values = &block[b * n_values];

              if (plan->n_rot == 3)
                {
                  angles[0] = values[plan->rot_index[0]];
                  angles[1] = values[plan->rot_index[1]];
                  angles[2] = values[plan->rot_index[2]];
                }
              else
                for (guint r = 0; r < 3; r++)
                  angles[r] = r < plan->n_rot ? values[plan->rot_index[r]] : 0.0;
            }
        }
      if (plan->pos != NULL)
        {
          SqTrack *tr = plan->pos;

          for (gsize b = 0; b < n_frames; b++)
            {
              const double *values = &block[b * n_values];
              gsize k = (gsize) first + b;
              SqKey *key = &tr->keys[k];

              key->time = (double) (first + (gint64) b) * ft;
              for (guint c = 0; c < 3; c++)
                key->v[c] = plan->pos_index[c] >= 0 ? values[plan->pos_index[c]] : 0.0;
              key->v[3] = 0.0;
              if (tr->present != NULL)
                tr->present[k] = plan->pos_mask;
            }
        }
    }
}

/* Digits after the '.' of a number token (0 without a '.'; meaningless
 * with an exponent). The '.' is looked for in the token's first
 * eight bytes at once (a zero-byte test on the word XOR '.'; its lowest hit
 * is exact), the usual place for it; byte by byte otherwise. */
static inline int
token_decimals (const char *tok,
                gsize       tok_len,
                const char *end)
{
  if (end - tok >= 8)
    {
      const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
      guint64 w, x, hits;

      memcpy (&w, tok, sizeof w);
      w = GUINT64_FROM_LE (w);
      x = w ^ (ones * '.');
      hits = (x - ones) & ~x & (ones * 0x80);
      if (hits != 0)
        {
          gsize dot;
#if defined(__GNUC__)
          dot = (gsize) __builtin_ctzll (hits) >> 3;
#else
          for (dot = 0; !(hits & 0x80); hits >>= 8)
            dot++;
#endif
          if (dot < tok_len)
            return (int) (tok_len - dot - 1);
        }
      if (tok_len <= 8)
        return 0;
    }
  for (gsize i = 0; i < tok_len; i++)
    if (tok[i] == '.')
      return (int) (tok_len - i - 1);
  return 0;
}

static GVariant *
bytes_variant (const char *p,
               gsize       len)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, p, len, 1);
}

static gboolean
read_frames_header (SqTextReader  *lx,
                    SqClip        *clip,
                    gint64        *n_frames,
                    double        *frame_time,
                    guint         *count_line,
                    guint         *count_col,
                    GError       **error)
{
  gsize frames_start, count_end, ft_start, ft_end;

  /* "Frames:" or "Frames :" */
  if (!_sq_text_next (lx) || !(_sq_text_tok_is (lx, "Frames:") || _sq_text_tok_is (lx, "Frames")))
    {
      error_at_token (lx, error, SQ_ERROR_SYNTAX, _("“Frames:” after MOTION"));
      return FALSE;
    }
  frames_start = lx->tok_pos;
  if (_sq_text_tok_is (lx, "Frames") && (!_sq_text_next (lx) || !_sq_text_tok_is (lx, ":")))
    {
      error_at_token (lx, error, SQ_ERROR_SYNTAX, _("“:” after “Frames”"));
      return FALSE;
    }
  {
    gsize gap_start = lx->pos;

    if (!_sq_text_next (lx) || !_sq_text_tok_int (lx, n_frames) || *n_frames < 0)
      {
        error_at_token (lx, error, SQ_ERROR_SYNTAX, _("a frame count (a whole number ≥ 0)"));
        return FALSE;
      }
    *count_line = lx->tok_line;
    *count_col = lx->tok_col;
    sq_props_set (clip->extra, "frames-gap", bytes_variant (lx->data + gap_start, lx->tok_pos - gap_start));
    count_end = lx->pos;
  }
  if (!_sq_text_next (lx) || !_sq_text_tok_is (lx, "Frame"))
    {
      error_at_token (lx, error, SQ_ERROR_SYNTAX, _("“Frame Time:”"));
      return FALSE;
    }
  if (!_sq_text_next (lx) || !(_sq_text_tok_is (lx, "Time:") || _sq_text_tok_is (lx, "Time")))
    {
      error_at_token (lx, error, SQ_ERROR_SYNTAX, _("“Time:” after “Frame”"));
      return FALSE;
    }
  if (_sq_text_tok_is (lx, "Time") && (!_sq_text_next (lx) || !_sq_text_tok_is (lx, ":")))
    {
      error_at_token (lx, error, SQ_ERROR_SYNTAX, _("“:” after “Frame Time”"));
      return FALSE;
    }
  if (!_sq_text_next (lx) || !_sq_text_tok_double (lx, frame_time))
    {
      error_at_token (lx, error, SQ_ERROR_SYNTAX, _("the frame time in seconds"));
      return FALSE;
    }
  ft_start = lx->tok_pos;
  ft_end = lx->pos;
  if (!(*frame_time >= 1e-6 && *frame_time <= 3600.0))
    {
      sq_set_error_at_line (error, SQ_ERROR_BAD_VALUE, lx->tok_line, lx->tok_col,
                            _("a frame time of %g s: Sequin reads frame times from 1 µs to 1 hour"),
                            *frame_time);
      return FALSE;
    }
  sq_props_set (clip->extra, "hierarchy-text", bytes_variant (lx->data, frames_start));
  sq_props_set (clip->extra, "frame-time-head", bytes_variant (lx->data + count_end, ft_start - count_end));
  sq_props_set (clip->extra, "frame-time-text", bytes_variant (lx->data + ft_start, ft_end - ft_start));
  sq_props_set (clip->extra, "frame-time", g_variant_new_double (*frame_time));
  return TRUE;
}

/* ---- reading: the frames ------------------------------------------------- */

/* How the frames are laid out, as far as read: what the writer needs to
 * print them alike */
typedef struct
{
  gboolean    ok;             /* one frame a line, one separator, one trail */
  int         decimals;       /* the fewest seen; -2 none seen yet */
  const char *sep;            /* the first separator between two values */
  gsize       sep_len;
  gboolean    sep_is_space;   /* sep is " ": one_space says it matches */
  const char *trail;          /* the first frame's text between its last value and the line end */
  gsize       trail_len;
} Layout;

#define LAYOUT_INIT { TRUE, -2, NULL, 0, FALSE, NULL, 0 }

/* The layout of frames read in order, `b` after `a` (as if read in one
 * pass: equal separators and trails, the fewest decimals), into `a` */
static void
layout_merge (Layout       *a,
              const Layout *b)
{
  if (!a->ok || !b->ok)
    {
      a->ok = FALSE;
      return;
    }
  if (a->sep == NULL)
    {
      a->sep = b->sep;
      a->sep_len = b->sep_len;
      a->sep_is_space = b->sep_is_space;
    }
  else if (b->sep != NULL && (b->sep_len != a->sep_len || memcmp (b->sep, a->sep, a->sep_len) != 0))
    a->ok = FALSE;
  if (a->trail == NULL)
    {
      a->trail = b->trail;
      a->trail_len = b->trail_len;
    }
  else if (b->trail != NULL && (b->trail_len != a->trail_len || memcmp (b->trail, a->trail, a->trail_len) != 0))
    a->ok = FALSE;
  if (b->decimals != -2 && (a->decimals == -2 || b->decimals < a->decimals))
    a->decimals = b->decimals;
}

/* What every stretch of frames shares */
typedef struct
{
  const char *data;
  gsize       len;
  JointPlan  *plans;
  guint       n_plans;
  gsize       n_values;
  gint64      n_frames;
  double      ft;
} Motion;

/* Frames [first, last), read from lx, no value starting at `end` or past */
typedef struct
{
  const Motion *m;
  SqTextReader  start;      /* where the stretch starts */
  SqTextReader  lx;         /* after the last value, once read */
  gint64        first, last;
  gsize         end;
  gboolean      check_rest; /* only blanks and line ends from the last value to `end` */
  Layout        layout;     /* in: of the frames before; out: with these */
  gboolean      ok;
} Stretch;

/* Reads the frames of a stretch into the tracks. With `error` NULL (a
 * stretch read ahead on another thread), only fails, without a message,
 * at the first thing wrong or a value that starts at s->end or past. */
static gboolean
read_frames (Stretch  *s,
             GError  **error)
{
  const Motion *m = s->m;
  const char *data = m->data;
  gsize len = m->len, n_values = m->n_values, end = s->end;
  /* the values of a block of frames, stored in the tracks joint by joint
   * when it is full (store_frames), up to 64 KB */
  gsize block_frames = CLAMP (8192 / MAX (n_values, 1), 1, 64), in_block = 0;
  g_autofree double *block = NULL;
  g_autofree const char **toks = NULL;
  SqTextReader lx = s->lx;
  Layout lay = s->layout;
  gsize pos = lx.pos;

  if (s->first >= s->last || n_values == 0)
    return TRUE;
  block = g_new (double, block_frames * n_values);
  toks = g_new (const char *, block_frames * n_values);
  for (gint64 f = s->first; f < s->last; f++)
    {
      double *values = &block[in_block * n_values];
      const char **starts = &toks[in_block * n_values];

      for (gsize v = 0; v < n_values; v++)
        {
          gsize before = pos;
          gboolean nl, one_space;
          const char *tok, *stop;

          /* one space between two values: the usual case, taken without
           * the lexer (which counts the line ends for the messages) */
          one_space = pos + 1 < len && data[pos] == ' ' && !_sq_text_blank[(guchar) data[pos + 1]];
          if (one_space)
            {
              pos++;
              nl = FALSE;
            }
          else
            {
              lx.pos = pos;
              nl = _sq_text_skip_blanks (&lx);
              pos = lx.pos;
            }

          /* the number read straight from the buffer when a blank or the
           * end follows it, which makes it the whole token; anything
           * else goes through the lexer (as does a value at or past the
           * end of a part, which another part reads) */
          tok = data + pos;
          stop = _sq_scan_double_in (tok, data + len, data + len, &values[v]);
          if (G_UNLIKELY (stop == NULL || stop == tok || (stop != data + len && !_sq_text_blank[(guchar) *stop])
                          || pos >= end))
            {
              lx.pos = pos;
              if (!_sq_text_next (&lx) || pos >= end || !_sq_parse_double_in (lx.tok, lx.tok_len, lx.data + lx.len, &values[v]))
                {
                  if (error == NULL)
                    return FALSE;
                  if (lx.tok_len == 0)
                    sq_set_error_at_line (error, SQ_ERROR_TRUNCATED, lx.tok_line, lx.tok_col,
                                          _("the file ends in frame %" PRId64 " of %" PRId64 " (value %zu of %zu)"),
                                          f + 1, m->n_frames, v + 1, n_values);
                  else
                    error_at_token (&lx, error, SQ_ERROR_SYNTAX, _("a number"));
                  return FALSE;
                }
              stop = lx.tok + lx.tok_len;
              tok = lx.tok;
            }
          starts[v] = tok;
          pos = stop - data;

          /* layout: one frame per line, one separator, fixed decimals */
          if (lay.ok)
            {
              gsize tok_len = stop - tok;
              gsize gap = tok - (data + before);

              if ((v == 0) != nl)
                lay.ok = FALSE;
              else if (v > 0 && !(one_space && lay.sep_is_space))
                {
                  if (lay.sep == NULL)
                    {
                      lay.sep = data + before;
                      lay.sep_len = gap;
                      lay.sep_is_space = gap == 1 && *lay.sep == ' ';
                    }
                  else if (gap != lay.sep_len
                           || (gap == 1 ? *lay.sep != data[before] : memcmp (data + before, lay.sep, lay.sep_len) != 0))
                    lay.ok = FALSE;
                }
              /* the fewest decimals seen: what the writer pads every value
               * to (values that need more get more), so its own output,
               * where a value such as 1e-5 takes more decimals than the
               * rest, reads back with the same setting (a fuzzer found the
               * setting dropped and the bytes changed). A value with an
               * exponent says nothing about the padding: the writer uses
               * one only for a value the padding cannot hold (a fuzzer
               * found 0.01e-50 written back as 1e-52, then read as 0
               * decimals). Only a value that would lower the setting is
               * looked at for an exponent */
              {
                int d = token_decimals (tok, tok_len, data + len);

                if ((lay.decimals == -2 || d < lay.decimals)
                    && memchr (tok, 'e', tok_len) == NULL && memchr (tok, 'E', tok_len) == NULL)
                  lay.decimals = d;
              }
            }
        }
      /* what stands between the last value and the line end */
      if (lay.ok)
        {
          gsize p = pos;
          while (p < len && (data[p] == ' ' || data[p] == '\t'))
            p++;
          if (lay.trail == NULL)
            {
              lay.trail = data + pos;
              lay.trail_len = p - pos;
            }
          else if (p - pos != lay.trail_len || memcmp (data + pos, lay.trail, lay.trail_len) != 0)
            lay.ok = FALSE;
        }

      if (++in_block == block_frames || f + 1 == s->last)
        {
          store_frames (m->plans, m->n_plans, block, toks, n_values, in_block, f + 1 - (gint64) in_block, m->ft);
          in_block = 0;
        }
    }
  lx.pos = pos;
  s->lx = lx;
  s->layout = lay;
  return TRUE;
}

/* The motion cut in parts at line starts, read on several threads */
typedef struct
{
  guint          n;
  const char    *data;
  gsize         *start;       /* part k: bytes [start[k], start[k + 1]) */
  gsize         *newlines;    /* the LFs in part k */
  Stretch       *s;
} Parts;

static void
read_part (gsize    k,
           gpointer data)
{
  Parts *p = data;
  Stretch *s = &p->s[k];

  /* the part's keys made present at once, which costs less than a fault
   * a page (a thread doing it meanwhile would cost more, with
   * every processor reading a part) */
  for (guint j = 0; j < s->m->n_plans && s->first < s->last; j++)
    {
      const JointPlan *plan = &s->m->plans[j];
      gsize n = (gsize) (s->last - s->first);

      /* (a joint's rotations kept as their text have no angles) */
      if (plan->rot != NULL && plan->angles != NULL)
        _sq_prefault_now (&plan->angles[s->first * 3], n * EULER_STRIDE);
      else if (plan->rot != NULL && plan->starts != NULL)
        _sq_prefault_now (&plan->starts[s->first], n * TEXT_STRIDE);
      if (plan->pos != NULL)
        _sq_prefault_now (&plan->pos->keys[s->first], n * sizeof (SqKey));
    }
  s->ok = read_frames (s, NULL);
  if (s->ok && s->check_rest)
    {
      SqTextReader rest = s->lx;

      _sq_text_skip_blanks (&rest);
      s->ok = rest.pos >= s->end && !rest.lone_cr;
    }
}

/* Reads the frames (from lx, the end of the Frame Time line) in the
 * n_parts parts _sq_text_cut_at_lf made, on several threads, each taking the next
 * part (the numbers are most of the reading). Part k starts at the frame its first line
 * would hold with one frame a line, told by the LFs before it; it reads
 * up to the next part's first frame. That is right when each part
 * before has exactly its frames, then only blanks and line ends, and no
 * CR alone (a line end that counting LFs misses, which would put later
 * parts on wrong lines): whatever the lines hold, the values come in the
 * file's order. The first part that is not so, or has an error, is where
 * the caller goes on reading in one pass, as on one thread, so that the
 * first error in the file wins and the layout comes out alike: returns
 * its first frame (n_frames when all are read), with lx and layout moved
 * on to it. */
static gint64
read_frames_parallel (const Motion *m,
                      guint         n_parts,
                      gsize        *start,
                      SqTextReader *lx,
                      Layout       *layout)
{
  gsize len = m->len, motion_start = lx->pos, lines = 0;
  g_autofree gsize *newlines = g_new0 (gsize, n_parts);
  g_autofree Stretch *s = g_new0 (Stretch, n_parts);
  Parts p = { n_parts, m->data, start, newlines, s };
  gint64 resume = m->n_frames;

  /* the LFs counted in contiguous runs of parts, one run a thread (the
   * last part's are not needed) */
  _sq_text_count_lf_parts (m->data, start, p.n - 1, len - motion_start, newlines);

  for (guint k = 0; k < p.n; k++)
    {
      s[k].m = m;
      s[k].start = *lx;
      s[k].end = start[k + 1];
      if (k > 0)
        {
          /* on the LF before it, so that crossing it starts the first
           * frame on a new line as in one pass */
          s[k].start.pos = start[k] - 1;
          s[k].start.line = lx->line + (guint) (lines - 1);
          s[k].first = (gint64) MIN (lines - 1, (guint64) m->n_frames);
        }
      s[k].start.lone_cr = FALSE;
      s[k].lx = s[k].start;
      s[k].layout = (Layout) LAYOUT_INIT;
      lines += newlines[k];
    }
  for (guint k = 0; k < p.n; k++)
    {
      s[k].last = k + 1 < p.n ? s[k + 1].first : m->n_frames;
      s[k].check_rest = k + 1 < p.n && s[k + 1].first < m->n_frames;
    }
  _sq_parallel_claim (p.n, len - motion_start, read_part, &p);

  for (guint k = 0; k < p.n; k++)
    {
      if (!s[k].ok)
        {
          *lx = s[k].start;
          resume = s[k].first;
          break;
        }
      layout_merge (layout, &s[k].layout);
      if (s[k].first < s[k].last)
        *lx = s[k].lx;
    }
  return resume;
}

/* Whether a joint's rotation channels follow each other (its records can
 * point into the text: see euler_codec) */
static gboolean
rotations_adjacent (const JointInfo *info)
{
  gint first = -1, last = -1;

  for (guint c = 0; c < info->ch.n; c++)
    if (info->ch.codes[c] >= 3)
      {
        if (first < 0)
          first = (gint) c;
        last = (gint) c;
      }
  return first >= 0 && (guint) (last - first + 1) == info->ch.n_rot;
}

/* The buffer of the rotation tracks' records: the header, then each
 * joint's records in turn (see euler_codec) */
static GBytes *
rotation_records (GBytes *text,
                  GArray *infos,
                  gint64  n_frames)
{
  gsize size = RECORDS_HEADER_SIZE;
  RecordsHeader *h;

  for (guint j = 0; j < infos->len; j++)
    {
      const JointInfo *info = &g_array_index (infos, JointInfo, j);

      if (info->ch.n_rot > 0)
        size += (gsize) n_frames * (rotations_adjacent (info) ? TEXT_STRIDE : EULER_STRIDE);
    }
  h = _sq_huge_realloc (NULL, 0, size);
  h->text = g_bytes_ref (text);
  h->data = g_bytes_get_data (text, &h->len);
  return g_bytes_new_with_free_func (h, size, records_free, h);
}

/* The error for a NUL byte in the file when there is one (instead of the
 * one set); NULL */
static SqClip *
nul_error (const char *data,
           gsize       len,
           GError    **error)
{
  const char *nul = len > 0 ? memchr (data, '\0', len) : NULL;

  if (nul != NULL)
    {
      g_clear_error (error);
      sq_set_error_at_offset (error, SQ_ERROR_SYNTAX, nul - data, _("a NUL byte in a BVH file"));
    }
  return NULL;
}

/* The line end of the Frame Time line (which ends at `pos`), kept for
 * writing back */
static void
read_line_end (SqClip     *clip,
               const char *data,
               gsize       len,
               gsize       pos)
{
  gsize p = pos;
  const char *eol = "\n";

  while (p < len && (data[p] == ' ' || data[p] == '\t'))
    p++;
  if (p < len && data[p] == '\r')
    eol = p + 1 < len && data[p + 1] == '\n' ? "\r\n" : "\r";
  sq_props_set (clip->extra, "line-end", g_variant_new_string (eol));
}

/* One plan a joint with channels, made once so that the frames' loop
 * looks nothing up: where its values sit in a frame, its tracks, reserved
 * for every frame (the frame count is checked against the bytes left),
 * and where its angles go in `angles`. Returns how many plans there are. */
static guint
make_plans (SqClip       *clip,
            GArray       *infos,
            gint64        n_frames,
            GBytes       *angles,
            JointPlan    *plans)
{
  guint8 *next = (guint8 *) g_bytes_get_data (angles, NULL) + RECORDS_HEADER_SIZE;
  guint n_plans = 0;

  for (guint j = 0; j < clip->n_joints; j++)
    {
      JointInfo *info = &g_array_index (infos, JointInfo, j);
      SqJoint *joint = &clip->joints[j];
      JointPlan *plan = &plans[n_plans];
      guint r = 0;

      if (info->ch.n == 0)
        continue;
      n_plans++;
      plan->n_rot = info->ch.n_rot;
      memcpy (plan->rot_axes, info->ch.rot_axes, sizeof plan->rot_axes);
      for (guint c = 0; c < 3; c++)
        plan->pos_index[c] = -1;
      for (guint c = 0; c < info->ch.n; c++)
        {
          int code = info->ch.codes[c];

          if (code >= 3)
            plan->rot_index[r++] = info->first_value + c;
          else
            {
              plan->pos_index[code] = (gssize) (info->first_value + c);
              plan->pos_mask |= 1u << code;
            }
        }
      if (info->ch.n_rot > 0)
        {
          plan->rot = &joint->tracks[SQ_CHANNEL_ROTATION];
          if (rotations_adjacent (info))
            {
              plan->starts = (const char **) (gpointer) next;
              next += (gsize) n_frames * TEXT_STRIDE;
            }
          else
            {
              plan->angles = (double *) (gpointer) next;
              next += (gsize) n_frames * EULER_STRIDE;
            }
        }
      if (info->ch.n_pos > 0)
        {
          plan->pos = &joint->tracks[SQ_CHANNEL_TRANSLATION];
          sq_track_reserve (plan->pos, n_frames);
          if (plan->pos_mask != SQ_PRESENT_ALL)
            sq_track_ensure_present (plan->pos);
        }
    }
  return n_plans;
}

/* The keys' pages (positions and angles) made present on another thread
 * while the frames are read on this one (sq-parallel.h) */
static SqPrefault *
prefault_plans (const JointPlan *plans,
                guint            n_plans,
                GBytes          *angles,
                gsize            len)
{
  g_autoptr(GPtrArray) ranges = g_ptr_array_new ();
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize size;

  for (guint j = 0; j < n_plans; j++)
    {
      if (plans[j].pos != NULL)
        {
          size = plans[j].pos->alloc * sizeof (SqKey);
          g_ptr_array_add (ranges, plans[j].pos->keys);
          g_array_append_val (sizes, size);
        }
    }
  size = g_bytes_get_size (angles);
  g_ptr_array_add (ranges, (gpointer) g_bytes_get_data (angles, NULL));
  g_array_append_val (sizes, size);
  return _sq_prefault_start (len, ranges->pdata, (const gsize *) (gpointer) sizes->data, ranges->len);
}

/* The layout the frames were written with (separator, trail, decimals),
 * kept for writing back while it was regular */
static void
keep_layout (SqClip       *clip,
             const Layout *layout)
{
  if (layout->ok && layout->sep != NULL)
    sq_props_set (clip->extra, "value-sep", bytes_variant (layout->sep, layout->sep_len));
  if (layout->ok && layout->trail != NULL && layout->trail_len > 0)
    sq_props_set (clip->extra, "line-trail", bytes_variant (layout->trail, layout->trail_len));
  if (layout->ok && layout->decimals >= 0)
    sq_props_set (clip->extra, "decimals", g_variant_new_int32 (layout->decimals));
  if (!layout->ok)
    sq_props_set (clip->extra, "irregular-layout", g_variant_new_boolean (TRUE));
}

/* What follows the last frame's line end (without values, the frames are
 * empty lines): a missing final line end and any tail are kept, text in
 * the tail is reported. */
static void
read_tail (SqClip             *clip,
           const char         *data,
           gsize               len,
           const SqTextReader *lx,
           gsize               n_values,
           gint64              n_frames)
{
  gsize p = lx->pos;
  gint64 ends = 1 + (n_values == 0 ? n_frames : 0);
  gboolean final_eol = TRUE;

  for (gint64 e = 0; e < ends; e++)
    {
      gsize q = p;
      while (q < len && (data[q] == ' ' || data[q] == '\t'))
        q++;
      if (q < len && (data[q] == '\r' || data[q] == '\n'))
        p = q + ((data[q] == '\r' && q + 1 < len && data[q + 1] == '\n') ? 2 : 1);
      else
        {
          /* the spaces ending the last line are its line-trail */
          if (e == 0 && n_values > 0)
            p = q;
          final_eol = FALSE;
          break;
        }
    }
  if (!final_eol)
    sq_props_set (clip->extra, "no-final-line-end", g_variant_new_boolean (TRUE));
  if (p < len)
    {
      SqTextReader rest = *lx;

      sq_props_set (clip->extra, "tail", bytes_variant (data + p, len - p));
      if (_sq_text_next (&rest))
        sq_clip_add_warning (clip, _("line %u: text after the %" PRId64 " frames the header announces is ignored "
                                     "(kept for saving)"),
                             rest.tok_line, n_frames);
    }
}

static SqClip *
bvh_read (GBytes              *bytes,
          const SqLoadOptions *options,
          GError             **error)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  g_autoptr(GArray) infos = g_array_new (FALSE, TRUE, sizeof (JointInfo));
  g_autoptr(SqPrefault) prefault = NULL;    /* stopped before the clip goes */
  g_autoptr(GBytes) angles = NULL;          /* the rotations' records */
  g_autofree JointPlan *plans = NULL;
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  guint max_joints = options->max_joints ? options->max_joints : 65536;
  SqTextReader lx;
  gint64 n_frames;
  double ft;
  gsize n_values = 0, motion_start;
  guint frames_line, frames_col, n_parts, n_plans;
  g_autofree gsize *cuts = NULL;

  /* A NUL byte anywhere makes the file unreadable, whatever else is wrong
   * with it. Looked for only when reading fails, and at the end outside the
   * frames, whose values have none when they read: a pass over the file
   * saved. */
  _sq_text_init (&lx, data, len);
  if (!read_hierarchy (&lx, clip, infos, max_joints, error))
    return nul_error (data, len, error);
  for (guint j = 0; j < infos->len; j++)
    n_values += g_array_index (infos, JointInfo, j).ch.n;

  if (!read_frames_header (&lx, clip, &n_frames, &ft, &frames_line, &frames_col, error))
    return nul_error (data, len, error);
  motion_start = lx.pos;

  /* every value takes at least two bytes (a digit and a separator), every
   * frame at least a line end */
  if ((n_values > 0 && (guint64) n_frames > (len - lx.pos) / 2 / n_values + 1)
      || (n_values == 0 && (guint64) n_frames > len - lx.pos))
    {
      sq_set_error_at_line (error, SQ_ERROR_LIMIT_EXCEEDED, frames_line, frames_col,
                            _("Frames: %" PRId64 " of %zu values each needs more than the %zu bytes left"),
                            n_frames, n_values, len - lx.pos);
      return nul_error (data, len, error);
    }

  clip->fps = 1.0 / ft;
  clip->frame_base = 0;
  clip->duration = n_frames > 1 ? (double) (n_frames - 1) * ft : 0.0;
  sq_props_set (clip->extra, "frames", g_variant_new_uint32 ((guint32) n_frames));
  read_line_end (clip, data, len, lx.pos);

  plans = g_new0 (JointPlan, MAX (clip->n_joints, 1));
  angles = rotation_records (bytes, infos, n_frames);
  n_plans = make_plans (clip, infos, n_frames, angles, plans);

  /* the frames cut in parts for several threads, when the file is large
   * enough and the processors more than one (sq-parallel.h): four parts a
   * thread, so that a thread the system holds back leaves parts to the
   * others */
  n_parts = n_values > 0 && n_frames > 1 ? _sq_parallel_threads (len - motion_start) : 1;
  if (n_parts > 1)
    n_parts *= BVH_PARTS_PER_THREAD;
  cuts = g_new (gsize, n_parts + 1);
  if (n_parts > 1)
    n_parts = _sq_text_cut_at_lf (data, len, motion_start, n_parts, cuts);

  /* on one thread, the keys' pages made present on another one while the
   * frames are read; stopped before the tracks can go */
  if (n_parts < 2)
    prefault = prefault_plans (plans, n_plans, angles, len);

  {
    Motion m = { data, len, plans, n_plans, n_values, n_frames, ft };
    Layout layout = LAYOUT_INIT;
    Stretch all = { .m = &m, .first = 0, .last = n_frames, .end = len };

    if (n_parts > 1)
      all.first = read_frames_parallel (&m, n_parts, cuts, &lx, &layout);
    /* all of them, or what the parts left */
    all.lx = lx;
    all.layout = layout;
    if (!read_frames (&all, error))
      return nul_error (data, len, error);
    lx = all.lx;
    layout = all.layout;
    g_clear_pointer (&prefault, _sq_prefault_finish);
    for (guint j = 0; j < n_plans; j++)
      {
        if (plans[j].rot != NULL && n_frames > 0)
          sq_track_pack (plans[j].rot, euler_codec (plans[j].rot_axes, plans[j].n_rot, plans[j].starts != NULL),
                         angles, plans[j].starts != NULL ? (const guint8 *) plans[j].starts
                                                         : (const guint8 *) plans[j].angles,
                         (gsize) n_frames, ft);
        if (plans[j].pos != NULL)
          plans[j].pos->n_keys = n_frames;
      }
    keep_layout (clip, &layout);
  }

  if (memchr (data, '\0', motion_start) != NULL || memchr (data + lx.pos, '\0', len - lx.pos) != NULL)
    return nul_error (data, len, error);
  read_tail (clip, data, len, &lx, n_values, n_frames);
  /* a pose in every frame: the Second Life upload would keep nothing */
  _sq_bvh_warn_pose_only (clip);
  return g_steal_pointer (&clip);
}

static int
bvh_probe (const guint8 *data,
           gsize         len)
{
  gsize i = 0;

  if (len >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf)
    i = 3;
  while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
    i++;
  if (len - i >= 9 && g_ascii_strncasecmp ((const char *) data + i, "HIERARCHY", 9) == 0)
    return 100;
  return 0;
}

/* ---- writing ------------------------------------------------------------- */

/* Only spaces and tabs (and at least `min` of them) */
static gboolean
all_blank (const char *p,
           gsize       len,
           gsize       min)
{
  if (len < min)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (p[i] != ' ' && p[i] != '\t')
      return FALSE;
  return TRUE;
}

static const char *
props_bytes (const SqProps *props,
             const char    *key,
             gsize         *len)
{
  GVariant *v = sq_props_get (props, key);

  *len = 0;
  if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE_BYTESTRING))
    return NULL;
  return g_variant_get_fixed_array (v, len, 1);
}

static gboolean
props_vec3 (const SqProps *props,
            const char    *key,
            double         out[3])
{
  GVariant *v = sq_props_get (props, key);

  if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE ("(ddd)")))
    return FALSE;
  g_variant_get (v, "(ddd)", &out[0], &out[1], &out[2]);
  return TRUE;
}

static char *sanitize_name (const char *name,
                            gboolean   *changed);

/* The kept hierarchy text, when it still describes exactly these joints in
 * this order, with the names of renamed joints put in place of the old ones
 * (the rest of the text, numbers as written included, stays); NULL when
 * anything else differs. */
static GString *
kept_hierarchy (const SqClip   *clip,
                const char     *text,
                gsize           len,
                const gint32   *order,
                const gint32   *parents,
                const Channels *chans,
                GPtrArray      *losses)
{
  g_autoptr(SqClip) parsed = sq_clip_new ();
  g_autoptr(GArray) infos = g_array_new (FALSE, TRUE, sizeof (JointInfo));
  GString *out;
  gsize done = 0;
  SqTextReader lx;

  _sq_text_init (&lx, text, len);
  if (!read_hierarchy (&lx, parsed, infos, 65536, NULL) || _sq_text_next (&lx))
    return NULL;
  if (parsed->n_joints != clip->n_joints)
    return NULL;
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *a = &clip->joints[order[j]];
      const SqJoint *b = &parsed->joints[j];
      Channels bc;
      double ao[3], bo[3];
      gboolean ae, be;

      if (g_variant_get_int32 (sq_props_get (b->extra, "parent")) != parents[j])
        return NULL;
      channels_from_props (b->extra, &bc);
      if (bc.n != chans[j].n || memcmp (bc.codes, chans[j].codes, sizeof (int) * bc.n) != 0)
        return NULL;
      if (!props_vec3 (a->extra, "offset", ao))
        ao[0] = ao[1] = ao[2] = 0.0;
      props_vec3 (b->extra, "offset", bo);
      if (memcmp (ao, bo, sizeof ao) != 0)
        return NULL;
      ae = props_vec3 (a->extra, "end-site", ao);
      be = props_vec3 (b->extra, "end-site", bo);
      if (ae != be || (ae && memcmp (ao, bo, sizeof ao) != 0))
        return NULL;
    }

  out = g_string_sized_new (len + 64);
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *a = &clip->joints[order[j]];
      const JointInfo *info = &g_array_index (infos, JointInfo, j);
      gboolean changed;
      g_autofree char *name = NULL;

      if (strcmp (a->name, parsed->joints[j].name) == 0)
        continue;
      name = sanitize_name (a->name, &changed);
      if (changed)
        _sq_loss (losses, _("joint “%s”: the name cannot stand on a BVH line as it is; written as “%s”"),
                  a->name, name);
      g_string_append_len (out, text + done, info->name_at - done);
      g_string_append (out, name);
      done = info->name_at + info->name_len;
    }
  g_string_append_len (out, text + done, len - done);
  return out;
}

/* A name as the reader takes it back: the rest of a line, trimmed. */
static char *
sanitize_name (const char *name,
               gboolean   *changed)
{
  GString *s = g_string_new (NULL);

  *changed = FALSE;
  for (const char *p = name; *p; p++)
    {
      char c = *p;
      if (c == '\r' || c == '\n' || c == '\v' || c == '\f' || c == '\t')
        {
          c = c == '\t' ? ' ' : '_';
          *changed = TRUE;
        }
      g_string_append_c (s, c);
    }
  while (s->len > 0 && s->str[s->len - 1] == ' ')
    {
      g_string_truncate (s, s->len - 1);
      *changed = TRUE;
    }
  while (s->len > 0 && s->str[0] == ' ')
    {
      g_string_erase (s, 0, 1);
      *changed = TRUE;
    }
  /* the last word must not read as the opening brace */
  if (s->len == 0 || s->str[s->len - 1] == '{')
    {
      g_string_append_c (s, '_');
      *changed = TRUE;
    }
  if (s->len == 1 && s->str[0] == '_' && name[0] == '\0')
    *changed = TRUE;
  return g_string_free (s, FALSE);
}

static void
append_indent (GString *out,
               guint    depth)
{
  for (guint i = 0; i < depth; i++)
    g_string_append_c (out, '\t');
}

static void
append_vec3 (GString      *out,
             const double  v[3])
{
  for (guint c = 0; c < 3; c++)
    {
      g_string_append_c (out, ' ');
      _sq_append_number (out, isfinite (v[c]) ? v[c] : 0.0, 6);
    }
}

/* For each rotation key: whether its kept angles (kept_angles) still
 * convert to exactly its quaternion with the channel order written, so
 * that they are written as they were read. A track still packed in the
 * order written gives its keys from those angles; otherwise converted in
 * batches; sq_euler_to_quat_n gives the numbers sq_euler_to_quat does. */
static guint8 *
alt_still_exact (const SqTrack  *rot,
                 const Channels *ch)
{
  guint8 *exact = g_new0 (guint8, MAX (rot->n_keys, 1));
  double first[3], back[64 * 4], some[64 * 3];
  const double *angles = NULL;
  gsize stride = 4;

  if (rot->n_keys == 0 || !kept_angles (rot, 0, first))
    return exact;
  if (sq_track_is_packed (rot))
    {
      const EulerCodec *ec = (const EulerCodec *) rot->codec;

      if (ec->n_rot == ch->n_rot && memcmp (ec->axes, ch->rot_axes, ch->n_rot * sizeof (int)) == 0)
        {
          memset (exact, 1, rot->n_keys);
          return exact;
        }
      stride = 3;
      if (!ec->text)
        angles = (const double *) (gconstpointer) rot->packed;
    }
  else
    angles = rot->alt;
  for (gsize k0 = 0; k0 < rot->n_keys; k0 += 64)
    {
      gsize m = MIN (64, rot->n_keys - k0);
      const double *batch = angles != NULL ? &angles[k0 * stride] : some;

      /* angles read from the text, 64 at a time */
      for (gsize i = 0; angles == NULL && i < m; i++)
        kept_angles (rot, k0 + i, &some[i * 3]);
      sq_euler_to_quat_n (batch, stride, ch->rot_axes, ch->n_rot, back, 4, m);
      for (gsize i = 0; i < m; i++)
        {
          SqKey key = sq_track_key (rot, k0 + i);
          exact[k0 + i] = memcmp (&back[i * 4], key.v, 4 * sizeof (double)) == 0;
        }
    }
  return exact;
}

/* The keys of each track on the frame grid and, for rotations, which keys
 * their kept angles still give: track i is joint i / 2's (in written
 * order) rotation when i is even, its translation when odd. Tracks on
 * several threads when there are many keys (this is a fifth of writing a
 * big unedited file), each with losses of its own, put in track order. */
typedef struct
{
  const SqClip   *clip;
  const gint32   *order;
  const Channels *chans;
  double          rate;
  GArray        **kept;
  GArray        **steps;
  GPtrArray     **losses;       /* per track; NULL when the losses are not wanted */
  guint8        **alt_exact;    /* per joint */
} GridWrite;

static void
grid_track (gsize    i,
            gpointer data)
{
  GridWrite *g = data;
  gsize w = i / 2;
  SqChannel c = i % 2 == 0 ? SQ_CHANNEL_ROTATION : SQ_CHANNEL_TRANSLATION;
  const SqJoint *joint = &g->clip->joints[g->order[w]];
  const SqTrack *track = &joint->tracks[c];

  g->kept[i] = _sq_track_to_grid (track, g->rate, 0, 0.0, joint->name,
                                  c == SQ_CHANNEL_ROTATION ? _("rotation") : _("translation"),
                                  &g->steps[i], g->losses != NULL ? g->losses[i] : NULL);
  if (c == SQ_CHANNEL_ROTATION && g->chans[w].n_rot > 0)
    g->alt_exact[w] = alt_still_exact (track, &g->chans[w]);
}

/* The frame lines of a clip, a run of frames at a time: a big clip's runs
 * are printed on several threads (printing the numbers is nearly
 * all of writing), each into a part of its own, and the parts joined in
 * order. An item reads only what is shared and never changes while the
 * items run (the clip, the channels, the steps on the frame grid, the
 * exact angles) and counts its losses in counters of its own, summed when
 * every item is done: the text and the losses are those of one pass. */
typedef struct
{
  const SqClip   *clip;
  const gint32   *order;
  const Channels *chans;
  GArray * const *kept;         /* per track (rotation, translation of each joint) */
  GArray * const *steps;        /* ascending */
  guint8 * const *alt_exact;
  gsize           n;            /* joints */
  gsize           n_values;
  gsize           block_frames;
  gint64          n_frames;
  gint64          item_frames;  /* a run: a whole number of blocks */
  double          ft;
  int             decimals;
  const char     *eol;
  const char     *sep;
  gsize           sep_len;
  const char     *trail;
  gsize           trail_len;
  guint          *not_numbers;  /* one per item */
  guint          *lost_axis;    /* n per item */
} FramesWrite;

/* The first of `steps` (ascending) at or after frame f */
static gsize
first_step_from (GArray *steps,
                 gint64  f)
{
  gsize lo = 0, hi = steps->len;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (g_array_index (steps, gint64, mid) < f)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
write_frames (gsize      item,
              GString   *out,
              GPtrArray *losses G_GNUC_UNUSED,
              gpointer   data)
{
  const FramesWrite *fw = data;
  const SqClip *clip = fw->clip;
  const Channels *chans = fw->chans;
  gsize n = fw->n, n_values = fw->n_values;
  double ft = fw->ft;
  const char *eol = fw->eol, *sep = fw->sep, *trail = fw->trail;
  gsize sep_len = fw->sep_len, trail_len = fw->trail_len;
  gint64 first = (gint64) item * fw->item_frames;
  gint64 end = MIN (fw->n_frames, first + fw->item_frames);
  g_autofree gsize *cursor = g_new (gsize, n * 2);
  g_autofree double *values = g_new0 (double, fw->block_frames * MAX (n_values, 1));
  guint *lost_axis = &fw->lost_axis[item * n];
  guint not_numbers = 0;

  /* each track's cursor where one pass from frame 0 has it at `first`: past
   * the steps before it (those before frame 0 too), as the steps ascend */
  for (gsize i = 0; i < n * 2; i++)
    cursor[i] = first_step_from (fw->steps[i], first);

  /* a block of frames at a time: its values joint by joint, each track
   * read in order, then its lines (frame by frame, reading
   * every joint's tracks at once misses the cache) */
  for (gint64 f0 = first; f0 < end; f0 += (gint64) fw->block_frames)
    {
      gint64 f1 = MIN (end, f0 + (gint64) fw->block_frames);
      gsize v0 = 0;

      for (gsize w = 0; w < n; w++)
        {
          const SqJoint *joint = &clip->joints[fw->order[w]];
          const Channels *ch = &chans[w];

          if (ch->n == 0)
            continue;
          for (gint64 f = f0; f < f1; f++)
            {
              double t = (double) f * ft;
              double angles[3] = { 0, 0, 0 };
              double pos[4] = { 0, 0, 0, 0 };
              double *row = &values[(gsize) (f - f0) * n_values + v0];
              guint r = 0;

              if (ch->n_rot > 0)
                {
                  const SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];
                  GArray *kp = fw->kept[w * 2], *st = fw->steps[w * 2];
                  gsize *cur = &cursor[w * 2];
                  gboolean have = FALSE;

                  if (*cur < st->len && g_array_index (st, gint64, *cur) == f)
                    {
                      gsize k = g_array_index (kp, gsize, *cur);

                      (*cur)++;
                      /* the angles read, where they still give the key */
                      if (fw->alt_exact[w] != NULL && fw->alt_exact[w][k])
                        have = kept_angles (rot, k, angles);
                      if (!have)
                        {
                          const SqKey key = sq_track_key (rot, k);

                          if (!sq_quat_to_euler (key.v, ch->rot_axes, ch->n_rot, angles))
                            lost_axis[w]++;
                        }
                    }
                  else if (rot->n_keys > 0)
                    {
                      double q[4];
                      sq_track_sample (rot, SQ_CHANNEL_ROTATION, t, q);
                      if (!sq_quat_to_euler (q, ch->rot_axes, ch->n_rot, angles))
                        lost_axis[w]++;
                    }
                }
              if (ch->n_pos > 0)
                {
                  const SqTrack *tr = &joint->tracks[SQ_CHANNEL_TRANSLATION];
                  GArray *kp = fw->kept[w * 2 + 1], *st = fw->steps[w * 2 + 1];
                  gsize *cur = &cursor[w * 2 + 1];

                  if (*cur < st->len && g_array_index (st, gint64, *cur) == f)
                    {
                      memcpy (pos, sq_track_key (tr, g_array_index (kp, gsize, *cur)).v, sizeof pos);
                      (*cur)++;
                    }
                  else if (tr->n_keys > 0)
                    sq_track_sample (tr, SQ_CHANNEL_TRANSLATION, t, pos);
                }
              for (guint c = 0; c < ch->n; c++)
                row[c] = ch->codes[c] >= 3 ? angles[r++] : pos[ch->codes[c]];
            }
          v0 += ch->n;
        }

      for (gint64 f = f0; f < f1; f++)
        {
          const double *row = &values[(gsize) (f - f0) * n_values];

          g_string_append (out, eol);
          for (gsize v = 0; v < n_values; v++)
            {
              double val = row[v];

              if (!isfinite (val))
                {
                  val = 0.0;
                  not_numbers++;
                }
              if (v > 0)
                {
                  if (sep_len == 1)
                    g_string_append_c (out, sep[0]);
                  else
                    g_string_append_len (out, sep, sep_len);
                }
              _sq_append_number (out, val, fw->decimals);
            }
          g_string_append_len (out, trail, trail_len);
        }
    }
  fw->not_numbers[item] = not_numbers;
}

/* Where each joint stands in the file: written position → clip index
 * (depth first), the parent as a written position, the depth, and the
 * CHANNELS list. */
typedef struct
{
  gsize     n;
  gint32   *order;
  gint32   *parents;
  guint    *depths;
  Channels *chans;
} WriteTree;

/* The line end the clip was read with, LF for a clip from elsewhere */
static const char *
write_line_end (const SqClip *clip)
{
  GVariant *v = sq_props_get (clip->extra, "line-end");
  const char *s = v && g_variant_is_of_type (v, G_VARIANT_TYPE_STRING) ? g_variant_get_string (v, NULL) : "\n";

  return strcmp (s, "\r\n") == 0 ? "\r\n" : strcmp (s, "\r") == 0 ? "\r" : "\n";
}

/* The tree: parents from the extras when they point backwards; other roots
 * go under the first one, which is returned. */
static gint32
write_parents (const SqClip *clip,
               gint32       *clip_parent,
               GPtrArray    *losses)
{
  gint32 first_root = -1;

  for (gsize j = 0; j < clip->n_joints; j++)
    {
      GVariant *v = sq_props_get (clip->joints[j].extra, "parent");
      gint32 par = -1;

      if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_INT32))
        par = g_variant_get_int32 (v);
      if (par < -1 || par >= (gint32) j)
        par = -1;
      if (par == -1)
        {
          if (first_root < 0)
            first_root = (gint32) j;
          else
            {
              _sq_loss (losses, _("joint “%s” has no parent in the clip; BVH has one ROOT, so it is written under “%s”"),
                        clip->joints[j].name, clip->joints[first_root].name);
              par = first_root;
            }
        }
      clip_parent[j] = par;
    }
  return first_root;
}

/* The depth-first order, children in clip order, without recursion:
 * fills t->order, t->parents and t->depths; returns the deepest depth. */
static guint
write_order (WriteTree    *t,
             const gint32 *clip_parent,
             gint32        first_root)
{
  gsize n = t->n;
  g_autofree gint32 *written_at = g_new0 (gint32, MAX (n, 1));
  g_autofree gint32 *first_child = g_new (gint32, n);
  g_autofree gint32 *next_sibling = g_new (gint32, n);
  g_autofree gint32 *last_child = g_new (gint32, n);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (gint32));
  gsize w = 0;
  guint max_depth = 0;

  for (gsize j = 0; j < n; j++)
    first_child[j] = next_sibling[j] = last_child[j] = -1;
  for (gsize j = 0; j < n; j++)
    if (clip_parent[j] >= 0)
      {
        gint32 par = clip_parent[j];
        if (last_child[par] < 0)
          first_child[par] = (gint32) j;
        else
          next_sibling[last_child[par]] = (gint32) j;
        last_child[par] = (gint32) j;
      }
  g_array_append_val (stack, first_root);
  while (stack->len > 0)
    {
      gint32 j = g_array_index (stack, gint32, stack->len - 1);
      g_array_set_size (stack, stack->len - 1);
      written_at[j] = (gint32) w;
      t->order[w] = j;
      t->parents[w] = clip_parent[j] >= 0 ? written_at[clip_parent[j]] : -1;
      t->depths[w] = clip_parent[j] >= 0 ? t->depths[t->parents[w]] + 1 : 0;
      max_depth = MAX (max_depth, t->depths[w]);
      w++;
      /* push children in reverse so the first comes out first */
      {
        g_autoptr(GArray) kids = g_array_new (FALSE, FALSE, sizeof (gint32));
        for (gint32 c = first_child[j]; c >= 0; c = next_sibling[c])
          g_array_append_val (kids, c);
        for (guint k = kids->len; k > 0; k--)
          g_array_append_val (stack, g_array_index (kids, gint32, k - 1));
      }
    }
  g_assert (w == n);
  return max_depth;
}

/* Each joint's CHANNELS list: the one it was read with, else its position
 * channels when it has translation keys and its rotation channels (ZXY);
 * keys no channel can carry are reported. */
static void
write_channels (const SqClip    *clip,
                const WriteTree *t,
                GPtrArray       *losses)
{
  for (gsize w = 0; w < t->n; w++)
    {
      const SqJoint *joint = &clip->joints[t->order[w]];
      gboolean has_rot = joint->tracks[SQ_CHANNEL_ROTATION].n_keys > 0;
      gboolean has_pos = joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0;
      Channels *ch = &t->chans[w];

      if (!channels_from_props (joint->extra, ch))
        {
          static const int pos_rot[6] = { 0, 1, 2, 5, 3, 4 };
          memset (ch, 0, sizeof *ch);
          if (has_pos)
            for (guint c = 0; c < 3; c++)
              ch->codes[ch->n++] = pos_rot[c];
          for (guint c = 3; c < 6; c++)
            ch->codes[ch->n++] = pos_rot[c];
          channels_index (ch);
        }
      if (has_pos && ch->n_pos == 0)
        _sq_loss (losses, _("joint “%s”: translation keys left out (its CHANNELS list has no position channels)"),
                  joint->name);
      if (has_rot && ch->n_rot == 0)
        _sq_loss (losses, _("joint “%s”: rotation keys left out (its CHANNELS list has no rotation channels)"),
                  joint->name);
      if (joint->tracks[SQ_CHANNEL_SCALE].n_keys > 0)
        _sq_loss (losses, _("joint “%s”: %zu scale keys (BVH has no scale channels)"),
                  joint->name, joint->tracks[SQ_CHANNEL_SCALE].n_keys);
    }
}

/* The frame time read with the clip while it still gives the clip's rate,
 * else 1 / fps; FALSE when the rate gives none a BVH file can hold. */
static gboolean
write_frame_time (const SqClip *clip,
                  double       *ft,
                  GError      **error)
{
  GVariant *v = sq_props_get (clip->extra, "frame-time");

  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE)
      && g_variant_get_double (v) > 0 && 1.0 / g_variant_get_double (v) == clip->fps)
    *ft = g_variant_get_double (v);
  else if (clip->fps > 0 && isfinite (clip->fps) && 1.0 / clip->fps >= 1e-6 && 1.0 / clip->fps <= 3600.0)
    *ft = 1.0 / clip->fps;
  else
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE,
                   _("The frame rate %g does not give a BVH frame time"), clip->fps);
      return FALSE;
    }
  return TRUE;
}

/* The number of decimals the clip was read with, else 6 */
static int
write_decimals (const SqClip *clip)
{
  GVariant *v = sq_props_get (clip->extra, "decimals");

  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_INT32)
      && g_variant_get_int32 (v) >= 0 && g_variant_get_int32 (v) <= 17)
    return g_variant_get_int32 (v);
  return 6;
}

/* Every joint's keys on the frame grid (two tracks a joint: rotation,
 * translation), on several threads when there are many. */
static void
write_grid (const SqClip    *clip,
            const WriteTree *t,
            double           ft,
            GArray         **kept,
            GArray         **steps,
            guint8         **alt_exact,
            GPtrArray       *losses)
{
  gsize n = t->n;
  GridWrite g = { clip, t->order, t->chans, 1.0 / ft, kept, steps, _sq_item_losses_new (losses, n * 2), alt_exact };
  g_autofree gsize *costs = g_new (gsize, n * 2);

  /* the bytes of keys read, and of kept angles */
  for (gsize i = 0; i < n * 2; i++)
    {
      const SqTrack *track = &clip->joints[t->order[i / 2]].tracks[i % 2 == 0 ? SQ_CHANNEL_ROTATION
                                                                              : SQ_CHANNEL_TRANSLATION];

      costs[i] = track->n_keys * (sizeof (SqKey) + (track->alt != NULL ? 4 * sizeof (double) : 0));
    }
  _sq_parallel_items (n * 2, costs, grid_track, &g);
  _sq_item_losses_merge (losses, g.losses, n * 2);
}

/* How many frames to write: up to the last key and the duration; keys
 * before time 0 and a duration off the frame grid are reported. Sets
 * *ascending when every track's steps rise. */
static gint64
write_frame_count (const SqClip *clip,
                   gsize         n_tracks,
                   GArray      **steps,
                   double        ft,
                   gboolean     *ascending_out,
                   GPtrArray    *losses)
{
  gboolean any_key = FALSE, ascending = TRUE;
  gint64 last = -1, n_frames;
  guint negative = 0;
  double d;

  for (gsize i = 0; i < n_tracks; i++)
    {
      GArray *st = steps[i];
      gsize first = 0;

      while (first < st->len && g_array_index (st, gint64, first) < 0)
        {
          first++;
          negative++;
        }
      /* the steps of a track sorted by time ascend, which the frames
       * written in runs rely on; were a track not sorted, one pass
       * writes it as before */
      for (gsize k = first + 1; k < st->len && ascending; k++)
        ascending = g_array_index (st, gint64, k - 1) < g_array_index (st, gint64, k);
      if (st->len > 0)
        {
          any_key = TRUE;
          last = MAX (last, g_array_index (st, gint64, st->len - 1));
        }
    }
  if (negative > 0)
    _sq_loss (losses, _("%u keys before time 0 left out (BVH frames start at 0)"), negative);

  d = floor (clip->duration / ft + 0.5);
  if (!(d >= 0 && d < 1e9))
    d = 0;
  if (any_key || clip->duration > 0)
    n_frames = MAX (last + 1, (gint64) d + 1);
  else
    n_frames = MIN (sq_props_get_uint (clip->extra, "frames", 0), 1);
  if (fabs (d * ft - clip->duration) > 1e-9 * MAX (1.0, clip->duration) && clip->duration > 0)
    _sq_loss (losses, _("the duration %.6f s is rounded to whole frames of %.6g s"), clip->duration, ft);
  *ascending_out = ascending;
  return n_frames;
}

/* A joint's End Site block at `depth` + 1 */
static void
append_end_site (GString      *out,
                 guint         depth,
                 const double  v[3],
                 const char   *eol)
{
  append_indent (out, depth + 1);
  g_string_append (out, "End Site");
  g_string_append (out, eol);
  append_indent (out, depth + 1);
  g_string_append_c (out, '{');
  g_string_append (out, eol);
  append_indent (out, depth + 2);
  g_string_append (out, "OFFSET");
  append_vec3 (out, v);
  g_string_append (out, eol);
  append_indent (out, depth + 1);
  g_string_append_c (out, '}');
  g_string_append (out, eol);
}

/* The HIERARCHY section through the MOTION line, written anew from the
 * tree (names that cannot stand on a BVH line are reported). */
static void
append_hierarchy (GString         *out,
                  const SqClip    *clip,
                  const WriteTree *t,
                  const char      *eol,
                  GPtrArray       *losses)
{
  gsize n = t->n;

  g_string_append (out, "HIERARCHY");
  g_string_append (out, eol);
  for (gsize w = 0; w < n; w++)
    {
      const SqJoint *joint = &clip->joints[t->order[w]];
      const Channels *ch = &t->chans[w];
      guint depth = t->depths[w];
      gboolean changed;
      g_autofree char *name = sanitize_name (joint->name, &changed);
      double v[3];

      if (changed)
        _sq_loss (losses, _("joint “%s”: the name cannot stand on a BVH line as it is; written as “%s”"),
                  joint->name, name);
      append_indent (out, depth);
      g_string_append (out, depth == 0 ? "ROOT " : "JOINT ");
      g_string_append (out, name);
      g_string_append (out, eol);
      append_indent (out, depth);
      g_string_append_c (out, '{');
      g_string_append (out, eol);
      append_indent (out, depth + 1);
      g_string_append (out, "OFFSET");
      if (!props_vec3 (joint->extra, "offset", v))
        v[0] = v[1] = v[2] = 0.0;
      append_vec3 (out, v);
      g_string_append (out, eol);
      append_indent (out, depth + 1);
      g_string_append_printf (out, "CHANNELS %u", ch->n);
      for (guint c = 0; c < ch->n; c++)
        {
          g_string_append_c (out, ' ');
          g_string_append (out, channel_names[ch->codes[c]]);
        }
      g_string_append (out, eol);
      /* a leaf: its End Site, or one at 0 0 0 for a clip from another format */
      if (props_vec3 (joint->extra, "end-site", v)
          || ((w + 1 == n || t->depths[w + 1] <= depth)
              && sq_props_get (joint->extra, "channels") == NULL
              && (v[0] = v[1] = v[2] = 0.0, TRUE)))
        append_end_site (out, depth, v, eol);
      /* close this joint and the ancestors the next one leaves */
      {
        guint next_depth = w + 1 < n ? t->depths[w + 1] : 0;
        for (guint d = depth + 1; d > next_depth; d--)
          {
            append_indent (out, d - 1);
            g_string_append_c (out, '}');
            g_string_append (out, eol);
          }
      }
    }
  g_string_append (out, "MOTION");
  g_string_append (out, eol);
}

/* "Frames: N", the line end and "Frame Time: T", keeping the gaps and the
 * frame time's text the clip was read with while they still say the same */
static void
append_frames_header (GString      *out,
                      const SqClip *clip,
                      gint64        n_frames,
                      double        ft,
                      const char   *eol)
{
  const char *p;
  gsize len;
  gboolean kept_head = FALSE;
  double kept_ft;

  g_string_append (out, "Frames:");
  p = props_bytes (clip->extra, "frames-gap", &len);
  if (p != NULL && all_blank (p, len, 1))
    g_string_append_len (out, p, len);
  else
    g_string_append_c (out, ' ');
  g_string_append_printf (out, "%" PRId64, n_frames);

  /* the kept "<line end>Frame Time:<gap>" while it is only that */
  p = props_bytes (clip->extra, "frame-time-head", &len);
  if (p != NULL)
    {
      gsize i = 0, k;
      while (i < len && (p[i] == ' ' || p[i] == '\t'))
        i++;
      k = i;
      while (k < len && (p[k] == '\r' || p[k] == '\n'))
        k++;
      if (k > i && k - i <= 2 && len - k >= 11 && g_ascii_strncasecmp (p + k, "Frame Time:", 11) == 0
          && all_blank (p + k + 11, len - k - 11, 1))
        kept_head = TRUE;
    }
  if (kept_head)
    g_string_append_len (out, p, len);
  else
    {
      g_string_append (out, eol);
      g_string_append (out, "Frame Time: ");
    }

  p = props_bytes (clip->extra, "frame-time-text", &len);
  if (p != NULL && _sq_parse_double (p, len, &kept_ft) && kept_ft == ft)
    g_string_append_len (out, p, len);
  else
    {
      /* the shortest text that reads back as this frame time */
      char buf[SQ_DOUBLE_BUF];
      g_string_append (out, sq_format_double (buf, sizeof buf, ft));
    }
}

/* The frame lines, in runs on several threads when the text is large
 * enough and every track's steps ascend. fw holds the layout; its
 * separators, runs and counters are set here. Returns the values that are
 * not numbers; lost_axis (n) receives each joint's lost rotations. */
static guint
append_frames (GString     *out,
               GArray      *refs,
               FramesWrite *fw,
               gboolean     ascending,
               guint       *lost_axis)
{
  const SqClip *clip = fw->clip;
  gsize n = fw->n, n_values = fw->n_values, block_frames = fw->block_frames;
  gint64 n_frames = fw->n_frames;
  gboolean final_eol = !sq_props_get_bool (clip->extra, "no-final-line-end", FALSE);
  gsize n_blocks = (gsize) ((n_frames + (gint64) block_frames - 1) / (gint64) block_frames);
  gsize line_bytes, text_bytes, n_items = 1;
  guint threads, not_numbers = 0;

  fw->sep = props_bytes (clip->extra, "value-sep", &fw->sep_len);
  if (fw->sep == NULL || !all_blank (fw->sep, fw->sep_len, 1))
    fw->sep = " ", fw->sep_len = 1;
  fw->trail = props_bytes (clip->extra, "line-trail", &fw->trail_len);
  if (fw->trail == NULL || !all_blank (fw->trail, fw->trail_len, 0))
    fw->trail = "", fw->trail_len = 0;

  /* about what a line takes: values of up to four digits before the
   * point with their separators, the line end and the trail */
  line_bytes = n_values * (fw->decimals + 6 + fw->sep_len) + strlen (fw->eol) + fw->trail_len;
  text_bytes = (gsize) n_frames * line_bytes;
  threads = _sq_parallel_threads (MIN (text_bytes, G_MAXSIZE / SQ_PARALLEL_PRINT_WEIGHT)
                                  * SQ_PARALLEL_PRINT_WEIGHT);
  /* worth several threads: runs of a whole number of blocks, enough
   * that the threads' shares come out about even (the threads take
   * runs in turn, _sq_parallel_parts) */
  if (ascending && n_blocks > 1 && threads > 1)
    {
      gsize want = MIN (MAX ((gsize) BVH_RUNS_PER_THREAD * threads, text_bytes / BVH_WRITE_RUN_BYTES), n_blocks);
      gsize run_blocks = (n_blocks + want - 1) / want;

      fw->item_frames = (gint64) (run_blocks * block_frames);
      n_items = (gsize) ((n_frames + fw->item_frames - 1) / fw->item_frames);
    }
  fw->not_numbers = g_new0 (guint, n_items);
  fw->lost_axis = g_new0 (guint, n_items * n);

  /* room at once for about what the frames take and what follows them
   * (the last line end, a blank, the tail), in huge pages when that is
   * large, so that the text is not copied as it grows; the runs other
   * threads print are pieces of their own, and the pages the text does
   * not reach are never touched */
  {
    gsize tail_len, want;

    props_bytes (clip->extra, "tail", &tail_len);
    want = out->len + text_bytes + strlen (fw->eol) + 1 + tail_len + 1;
    if (want > out->allocated_len)
      {
        out->str = _sq_huge_realloc (out->str, out->len + 1, want);
        out->allocated_len = want;
      }
  }
  /* one run: straight into the text, on this thread */
  if (n_items == 1)
    write_frames (0, out, NULL, fw);
  else
    {
      g_autofree gsize *costs = g_new (gsize, n_items);

      for (gsize i = 0; i < n_items; i++)
        costs[i] = (gsize) (MIN (n_frames, (gint64) (i + 1) * fw->item_frames) - (gint64) i * fw->item_frames)
                   * line_bytes * SQ_PARALLEL_PRINT_WEIGHT;
      _sq_parallel_parts (n_items, costs, write_frames, fw, out, refs, NULL);
    }
  for (gsize i = 0; i < n_items; i++)
    {
      not_numbers += fw->not_numbers[i];
      for (gsize w = 0; w < n; w++)
        lost_axis[w] += fw->lost_axis[i * n + w];
    }
  g_clear_pointer (&fw->not_numbers, g_free);
  g_clear_pointer (&fw->lost_axis, g_free);

  if (final_eol || n_frames == 0)
    g_string_append (out, fw->eol);
  return not_numbers;
}

/* What followed the frames in the file read, kept as it was */
static void
append_tail (GString      *out,
             GArray       *refs,
             const SqClip *clip)
{
  gsize len;
  const char *p = props_bytes (clip->extra, "tail", &len);

  if (p != NULL && len > 0)
    {
      /* without a final line end the tail follows the last value on its
       * line: a blank keeps them two tokens when no line-trail was written
       * (a fuzzer found "9" + "99" read back as 9.00000099) */
      int last = _sq_refs_last_byte ((const guint8 *) out->str, out->len, refs);

      if (last >= 0 && !g_ascii_isspace (last) && !g_ascii_isspace (p[0]))
        g_string_append_c (out, ' ');
      g_string_append_len (out, p, len);
    }
}

static void
free_grid (gsize     n,
           GArray  **kept,
           GArray  **steps,
           guint8  **alt_exact)
{
  for (gsize i = 0; i < n * 2; i++)
    {
      g_array_unref (kept[i]);
      g_array_unref (steps[i]);
    }
  for (gsize w = 0; w < n; w++)
    g_free (alt_exact[w]);
}

/* The body: the hierarchy (kept text or anew), the frames header and the
 * frames, from keys already on the frame grid. FALSE when the frames are
 * more than a BVH file Sequin writes may hold. */
static gboolean
append_body (GString         *out,
             GArray          *refs,
             const SqClip    *clip,
             const WriteTree *t,
             FramesWrite     *fw,
             gboolean         ascending,
             GPtrArray       *losses,
             GError         **error)
{
  gsize n = t->n, len;
  g_autofree guint *lost_axis = g_new0 (guint, n);
  g_autoptr(GString) kept_text = NULL;
  const char *p;
  guint not_numbers;

  for (gsize w = 0; w < n; w++)
    fw->n_values += t->chans[w].n;
  if ((guint64) fw->n_frames * MAX (fw->n_values, 1) > BVH_MAX_WRITE_VALUES)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE,
                   _("%" PRId64 " frames of %zu values is more than Sequin writes in a BVH file (%d values)"),
                   fw->n_frames, fw->n_values, BVH_MAX_WRITE_VALUES);
      return FALSE;
    }

  /* the hierarchy: the kept text while it still says the same, but for
   * the names of renamed joints */
  p = props_bytes (clip->extra, "hierarchy-text", &len);
  if (p != NULL && (kept_text = kept_hierarchy (clip, p, len, t->order, t->parents, t->chans, losses)) != NULL)
    g_string_append_len (out, kept_text->str, kept_text->len);
  else
    append_hierarchy (out, clip, t, fw->eol, losses);
  append_frames_header (out, clip, fw->n_frames, fw->ft, fw->eol);

  /* the values of a block of frames, up to 256 KB */
  fw->block_frames = CLAMP (32768 / MAX (fw->n_values, 1), 1, 256);
  fw->item_frames = fw->n_frames;
  not_numbers = append_frames (out, refs, fw, ascending, lost_axis);
  if (not_numbers > 0)
    _sq_loss (losses, _("%u values that are not numbers (NaN or infinite) written as 0"), not_numbers);
  for (gsize w = 0; w < n; w++)
    if (lost_axis[w] > 0)
      _sq_loss (losses, _("joint “%s”: %u rotations turn about an axis its CHANNELS list lacks; that part is lost"),
                clip->joints[t->order[w]].name, lost_axis[w]);
  return TRUE;
}

static GPtrArray *
bvh_write_with_layout (const SqClip        *clip,
                       const SqSaveOptions *options G_GNUC_UNUSED,
                       GPtrArray           *losses,
                       GError             **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GArray) refs = _sq_refs_new ();
  gsize n = clip->n_joints;
  g_autofree gint32 *order = g_new0 (gint32, MAX (n, 1));
  g_autofree gint32 *parents = g_new0 (gint32, MAX (n, 1));
  g_autofree guint *depths = g_new0 (guint, MAX (n, 1));
  g_autofree Channels *chans = g_new0 (Channels, MAX (n, 1));
  g_autofree gint32 *clip_parent = g_new0 (gint32, MAX (n, 1));
  WriteTree t = { n, order, parents, depths, chans };
  const char *eol;
  double ft = 0;
  gboolean ascending, ok;
  guint max_depth;

  if (n == 0)
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE,
                           _("A BVH file needs at least one joint"));
      return NULL;
    }

  eol = write_line_end (clip);
  max_depth = write_order (&t, clip_parent, write_parents (clip, clip_parent, losses));
  if (max_depth >= BVH_MAX_DEPTH)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE,
                   _("The joints are nested %u levels deep; BVH files Sequin writes stay below %d"),
                   max_depth + 1, BVH_MAX_DEPTH);
      return NULL;
    }
  write_channels (clip, &t, losses);
  if (!write_frame_time (clip, &ft, error))
    return NULL;

  /* the keys on the frame grid */
  {
    g_autofree GArray **kept = g_new0 (GArray *, n * 2);
    g_autofree GArray **steps = g_new0 (GArray *, n * 2);
    g_autofree guint8 **alt_exact = g_new0 (guint8 *, n);
    FramesWrite fw = {
      .clip = clip, .order = order, .chans = chans, .kept = kept, .steps = steps, .alt_exact = alt_exact,
      .n = n, .ft = ft, .decimals = write_decimals (clip), .eol = eol,
    };

    write_grid (clip, &t, ft, kept, steps, alt_exact, losses);
    fw.n_frames = write_frame_count (clip, n * 2, steps, ft, &ascending, losses);
    ok = append_body (out, refs, clip, &t, &fw, ascending, losses, error);
    free_grid (n, kept, steps, alt_exact);
    if (!ok)
      return NULL;
  }
  append_tail (out, refs, clip);

  /* the text itself as the bytes written, not a copy of it */
  return _sq_pieces_take (g_string_free_to_bytes (g_steal_pointer (&out)), g_steal_pointer (&refs));
}

/* ---- fields -------------------------------------------------------------- */

static char *
bvh_describe_field (const char *key,
                    GVariant   *value)
{
  if (g_str_equal (key, "offset") && g_variant_is_of_type (value, G_VARIANT_TYPE ("(ddd)")))
    {
      double v[3];
      g_variant_get (value, "(ddd)", &v[0], &v[1], &v[2]);
      return g_strdup_printf (_("the rest OFFSET %g %g %g"), v[0], v[1], v[2]);
    }
  if (g_str_equal (key, "end-site") && g_variant_is_of_type (value, G_VARIANT_TYPE ("(ddd)")))
    {
      double v[3];
      g_variant_get (value, "(ddd)", &v[0], &v[1], &v[2]);
      return g_strdup_printf (_("the End Site at %g %g %g"), v[0], v[1], v[2]);
    }
  if (g_str_equal (key, "channels") && g_variant_is_of_type (value, G_VARIANT_TYPE_STRING_ARRAY))
    {
      g_autofree const char **names = g_variant_get_strv (value, NULL);
      g_autofree char *list = g_strjoinv (" ", (char **) names);
      return g_strdup_printf (_("the channel order “%s”"), list);
    }
  if (g_str_equal (key, "parent") && g_variant_is_of_type (value, G_VARIANT_TYPE_INT32))
    return g_variant_get_int32 (value) >= 0 ? g_strdup (_("its place in the joint hierarchy")) : NULL;
  if (g_str_equal (key, "tail"))
    return g_strdup (_("the text after the last frame"));
  /* frame time, frame count and the layout: the clip's own times and fps hold them */
  return NULL;
}

static gboolean
bvh_dump_field (GString    *out,
                const char *key,
                GVariant   *value,
                gboolean    json)
{
  gsize len;
  const char *p;
  g_autofree char *text = NULL;

  if (!g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
    return FALSE;
  p = g_variant_get_fixed_array (value, &len, 1);
  text = _sq_text_excerpt (p, len, G_MAXSIZE, TRUE);
  if (json)
    _sq_json_string (out, text);
  else if (g_str_equal (key, "hierarchy-text") || g_str_equal (key, "tail"))
    g_string_append_printf (out, "    %s: %zu bytes kept for exact saves\n", key, len);
  else
    {
      g_autofree char *esc = g_strescape (text, NULL);
      g_string_append_printf (out, "    %s: \"%s\"\n", key, esc);
    }
  return TRUE;
}

static const char * const bvh_extensions[] = { "bvh", NULL };
/* The layout extras reproduce the file as it was read; text after the last
 * frame or an odd frame layout can make that reproduction unreadable once
 * the keys changed (a fuzzer found one). So output written with a layout
 * that is not plain (layout_is_plain) is read back, and written again
 * without it if it does not parse. */
static const char * const bvh_layout_keys[] = {
  "hierarchy-text", "frames-gap", "tail", "line-end", "value-sep", "line-trail", "decimals",
  "irregular-layout", "no-final-line-end", "frame-time-text", "frame-time-head", NULL
};

static SqClip *bvh_read (GBytes *bytes, const SqLoadOptions *options, GError **error);

/* Spaces, tabs and line ends only */
static gboolean
all_space (const char *p,
           gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\n')
      return FALSE;
  return TRUE;
}

/* A kept layout that cannot change how the motion parses: blanks between
 * and after the values, whitespace after the last line, one of the three
 * line ends, no irregular lines. (The other pieces, hierarchy text, frame
 * count gap and Frame Time head, are checked where they are written.)
 * Such a layout is written without reading the result back. */
static gboolean
layout_is_plain (const SqClip *clip)
{
  const char *p;
  gsize len;
  GVariant *eol = sq_props_get (clip->extra, "line-end");

  if (sq_props_get_bool (clip->extra, "irregular-layout", FALSE))
    return FALSE;
  if (eol != NULL && !(g_variant_is_of_type (eol, G_VARIANT_TYPE_STRING)
                       && (g_str_equal (g_variant_get_string (eol, NULL), "\n")
                           || g_str_equal (g_variant_get_string (eol, NULL), "\r\n")
                           || g_str_equal (g_variant_get_string (eol, NULL), "\r"))))
    return FALSE;
  if ((p = props_bytes (clip->extra, "value-sep", &len)) != NULL && !all_blank (p, len, 1))
    return FALSE;
  if ((p = props_bytes (clip->extra, "line-trail", &len)) != NULL && !all_blank (p, len, 0))
    return FALSE;
  if ((p = props_bytes (clip->extra, "tail", &len)) != NULL && !all_space (p, len))
    return FALSE;
  return TRUE;
}

static GPtrArray *
bvh_write (const SqClip        *clip,
           const SqSaveOptions *options,
           GPtrArray           *losses,
           GError             **error)
{
  static const SqLoadOptions load_options = { 0 };
  gboolean has_layout = FALSE;
  g_autoptr(GPtrArray) layout_losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SqClip) plain = NULL;
  GPtrArray *out;

  for (guint i = 0; bvh_layout_keys[i] != NULL; i++)
    has_layout |= sq_props_get (clip->extra, bvh_layout_keys[i]) != NULL;
  if (!has_layout || layout_is_plain (clip))
    return bvh_write_with_layout (clip, options, losses, error);

  out = bvh_write_with_layout (clip, options, layout_losses, error);
  if (out != NULL)
    {
      g_autoptr(GBytes) text = _sq_pieces_join (out);
      g_autoptr(SqClip) back = bvh_read (text, &load_options, NULL);
      if (back != NULL)
        {
          for (guint i = 0; losses != NULL && i < layout_losses->len; i++)
            g_ptr_array_add (losses, g_strdup (layout_losses->pdata[i]));
          return out;
        }
      g_ptr_array_unref (out);
    }
  g_clear_error (error);

  plain = sq_clip_copy (clip);
  for (guint i = 0; bvh_layout_keys[i] != NULL; i++)
    sq_props_remove (plain->extra, bvh_layout_keys[i]);
  _sq_loss (losses, _("the original text layout of the motion data could not be kept; written in the standard layout"));
  return bvh_write_with_layout (plain, options, losses, error);
}

static const char * const bvh_fields[] = {
  "parent", "offset", "channels", "end-site",
  "frame-time", "frame-time-text", "frame-time-head", "frames", "frames-gap", "hierarchy-text",
  "line-end", "value-sep", "line-trail", "decimals", "irregular-layout", "no-final-line-end", "tail",
  NULL
};

const SqFormat _sq_format_bvh = {
  .id = "bvh",
  .name = N_("Biovision Hierarchy (BVH)"),
  .extensions = bvh_extensions,
  .mime_type = "application/x-bvh",
  .flags = SQ_FORMAT_READ | SQ_FORMAT_WRITE | SQ_FORMAT_TEXT | SQ_FORMAT_FRAME_RATE
           | SQ_FORMAT_REFERENCE_FRAME,
  .fields = bvh_fields,
  .describe_field = bvh_describe_field,
  .dump_field = bvh_dump_field,
  .probe = bvh_probe,
  .read = bvh_read,
  .write = bvh_write,
  .space = &sq_space_bvh,
  .world = &sq_world_sl,
  .field_set = &sq_bvh_fields,
};
