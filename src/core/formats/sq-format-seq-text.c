/* sq-format-seq-text.c: ActiveWorlds text SEQ (AWSQ)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Grammar (shared/specs/activeworlds-seq-binary-and-text.txt):
 *   AWSQ Version=1 Limbs=N Duration=MS
 *   then N limb sections:  name frames=K
 *   then K key lines:      t ax ay az angle tx ty tz [sx sy sz]
 * t in whole milliseconds, the rotation as axis + angle in degrees. Blank
 * lines and comment lines (# or //) are ignored; numbers are separated by
 * spaces, tabs or commas; lines end in CRLF, LF or CR. Written with CRLF and
 * spaces. Rules: each limb has at least two keys, the first at 0, the last
 * within the duration and after 0; the header's limb count is the number of
 * sections.
 */
#define G_LOG_DOMAIN "sq-seq-text"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "sq-math.h"
#include "sq-parallel.h"
#include "sq-private.h"

static gboolean
is_blank_or_comment (const char *line,
                     gsize       len)
{
  gsize i = 0;

  while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == ','))
    i++;
  if (i >= len)
    return TRUE;
  if (line[i] == '#')
    return TRUE;
  if (line[i] == '/' && i + 1 < len && line[i + 1] == '/')
    return TRUE;
  return FALSE;
}

static int
seq_text_probe (const guint8 *data,
                gsize         len)
{
  if (len >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf)
    {
      data += 3;
      len -= 3;
    }
  if (len >= 5 && g_ascii_strncasecmp ((const char *) data, "AWSQ", 4) == 0
      && (data[4] == ' ' || data[4] == '\t' || data[4] == ',' || data[4] == '\r' || data[4] == '\n'))
    return 100;
  return 0;
}

/* Splits "key=value" (spaces allowed around '=') out of tokens. */
typedef struct
{
  const char *key;
  gsize       key_len;
  const char *value;
  gsize       value_len;
  guint       column;
} Assign;

static guint
parse_assignments (const char *line,
                   gsize       len,
                   gsize       start,
                   Assign     *out,
                   guint       max)
{
  guint n = 0;
  gsize i = start;

  while (i < len)
    {
      Assign a = { 0 };

      while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == ','))
        i++;
      if (i >= len)
        break;
      a.key = line + i;
      a.column = i + 1;
      while (i < len && line[i] != '=' && line[i] != ' ' && line[i] != '\t' && line[i] != ',')
        i++;
      a.key_len = line + i - a.key;
      while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
      if (i < len && line[i] == '=')
        {
          i++;
          while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
          a.value = line + i;
          while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != ',')
            i++;
          a.value_len = line + i - a.value;
        }
      if (n < max)
        out[n] = a;
      n++;
    }
  return n;
}

static gboolean
token_is (const char *tok,
          gsize       len,
          const char *word)
{
  return strlen (word) == len && g_ascii_strncasecmp (tok, word, len) == 0;
}

/* "name frames=K": finds the frames= assignment at the end of the line. */
static gboolean
parse_limb_header (const char *line,
                   gsize       len,
                   char      **name,
                   gint64     *frames,
                   guint      *error_column)
{
  gsize end = len;
  gsize eq, kw;
  gsize name_end;

  while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t' || line[end - 1] == ','))
    end--;
  /* value */
  eq = end;
  while (eq > 0 && line[eq - 1] != '=' && line[eq - 1] != ' ' && line[eq - 1] != '\t')
    eq--;
  {
    gsize v = eq;
    /* allow "frames = K" */
    gsize p = eq;
    while (p > 0 && (line[p - 1] == ' ' || line[p - 1] == '\t'))
      p--;
    if (p == 0 || line[p - 1] != '=')
      return FALSE;
    eq = p - 1;
    *error_column = v + 1;
    if (!_sq_parse_int64 (line + v, end - v, frames))
      return FALSE;
  }
  kw = eq;
  while (kw > 0 && (line[kw - 1] == ' ' || line[kw - 1] == '\t'))
    kw--;
  name_end = kw;
  while (kw > 0 && line[kw - 1] != ' ' && line[kw - 1] != '\t' && line[kw - 1] != ',')
    kw--;
  if (!token_is (line + kw, name_end - kw, "frames"))
    return FALSE;
  name_end = kw;
  while (name_end > 0 && (line[name_end - 1] == ' ' || line[name_end - 1] == '\t' || line[name_end - 1] == ','))
    name_end--;
  {
    gsize s = 0;
    while (s < name_end && (line[s] == ' ' || line[s] == '\t'))
      s++;
    *name = _sq_latin1_to_utf8 ((const guint8 *) line + s, name_end - s);
  }
  return TRUE;
}

static void
check_limb_rules (SqClip     *clip,
                  const char *name,
                  SqTrack    *rot,
                  gint64      duration_ms,
                  guint       line)
{
  if (rot->n_keys < 2)
    sq_clip_add_warning (clip, _("line %u: limb “%s” has %zu key(s); text SEQ needs at least two"),
                         line, name, rot->n_keys);
  if (rot->n_keys > 0 && rot->keys[0].time != 0.0)
    sq_clip_add_warning (clip, _("line %u: limb “%s” starts at %.0f ms; text SEQ needs a key at 0"),
                         line, name, rot->keys[0].time * 1000.0);
  if (rot->n_keys > 0)
    {
      double last = floor (rot->keys[rot->n_keys - 1].time * 1000.0 + 0.5);
      if (last > (double) duration_ms)
        sq_clip_add_warning (clip, _("line %u: limb “%s” ends at %.0f ms, after the duration of %" PRId64 " ms"),
                             line, name, last, duration_ms);
      else if (last <= 0.0 && rot->n_keys >= 2)
        sq_clip_add_warning (clip, _("line %u: limb “%s” has no key after 0 ms"), line, name);
    }
}

/* Sorts a limb's keys (unless they came in time order) and refuses two at
 * one time. */
static gboolean
finish_limb (SqClip   *clip,
             SqJoint  *joint,
             gint64    duration_ms,
             guint     line,
             gboolean  unsorted,
             GError  **error)
{
  for (guint c = 0; c < SQ_N_CHANNELS; c++)
    {
      SqTrack *track = &joint->tracks[c];

      /* every channel's keys share the rotation keys' times, checked as
       * they came (SQ_PERF) */
      if (unsorted)
        sq_track_sort (track);
      for (gsize k = 1; k < track->n_keys; k++)
        if (track->keys[k].time == track->keys[k - 1].time)
          {
            sq_set_error_at_line (error, SQ_ERROR_BAD_VALUE, line, 1,
                                  _("limb “%s” has two keys at %.0f ms"), joint->name,
                                  track->keys[k].time * 1000.0);
            return FALSE;
          }
    }
  check_limb_rules (clip, joint->name, &joint->tracks[SQ_CHANNEL_ROTATION], duration_ms, line);
  return TRUE;
}

/* The next key of a track: in the room reserved for the limb's frames
 * without a call, else by sq_track_append (SQ_PERF). The caller sets v. */
static inline SqKey *
next_key (SqTrack *track,
          double   time)
{
  if (G_UNLIKELY (track->n_keys >= track->alloc))
    return sq_track_append (track, time);
  return _sq_track_push (track, time);
}

/* One key line's numbers into the limb's tracks */
static void
add_key (SqClip       *clip,
         SqJoint      *joint,
         guint         line,
         gint64        ms,
         const double *num,
         guint         n,
         gboolean     *unsorted)
{
  SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];
  SqTrack *pos = &joint->tracks[SQ_CHANNEL_TRANSLATION];
  double t = ms / 1000.0;
  SqKey *key;
  double *alt;

  if (rot->n_keys > 0 && rot->keys[rot->n_keys - 1].time > t && !*unsorted)
    {
      sq_clip_add_warning (clip, _("line %u: limb “%s” keys are not in time order; they are sorted"),
                           line, joint->name);
      *unsorted = TRUE;
    }

  key = next_key (rot, t);
  alt = &rot->alt[(rot->n_keys - 1) * 4];
  alt[0] = num[1];
  alt[1] = num[2];
  alt[2] = num[3];
  alt[3] = num[4];
  if (!sq_axis_angle_to_quat (alt, key->v))
    sq_clip_add_warning (clip, _("line %u: limb “%s”: a zero axis with a %g° angle is read as no rotation"),
                         line, joint->name, num[4]);

  key = next_key (pos, t);
  key->v[0] = num[5];
  key->v[1] = num[6];
  key->v[2] = num[7];
  key->v[3] = 0.0;
  if (n == 11)
    {
      key = sq_track_append (&joint->tracks[SQ_CHANNEL_SCALE], t);
      key->v[0] = num[8];
      key->v[1] = num[9];
      key->v[2] = num[10];
    }
}

/* 1: a separator between fields; 2: a line end */
static const guint8 field_end[256] = {
  [' '] = 1, ['\t'] = 1, [','] = 1, [';'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 2, ['\n'] = 2,
};

/* A key line of the usual shape read straight from the buffer, without
 * finding its end first (SQ_PERF): separators, the time in whole
 * milliseconds, 7 or 10 numbers, each field ended by a separator or the
 * line end (LF, CRLF or a lone CR, as _sq_lines_next takes them). Returns
 * the number of fields and where the next line starts; 0 for anything
 * else (a blank or comment line, a field in error), which the line by line
 * reading then takes as before. */
static guint
scan_key_line (const char  *p,
               const char  *end,
               gint64      *ms,
               double      *num,
               const char **next)
{
  const char *digits;
  guint64 t = 0;
  gboolean neg;
  guint n = 1;

  while (p < end && field_end[(guint8) *p] == 1)
    p++;
  if (p >= end)
    return 0;
  neg = *p == '-';
  p += neg || *p == '+';
  digits = p;
  while (p < end && (guint) (*p - '0') < 10 && p - digits < 10)
    t = t * 10 + (guint) (*p++ - '0');
  if (p == digits || t > G_MAXINT32 || p >= end || field_end[(guint8) *p] != 1)
    return 0;
  *ms = neg ? -(gint64) t : (gint64) t;
  for (;;)
    {
      const char *stop;

      while (p < end && field_end[(guint8) *p] == 1)
        p++;
      if (p >= end || field_end[(guint8) *p] == 2)
        break;
      if (n == 11)
        return 0;
      stop = _sq_scan_double_fast (p, end, end, &num[n]);
      if (stop == NULL || (stop < end && field_end[(guint8) *stop] == 0))
        return 0;
      p = stop;
      n++;
    }
  if (n != 8 && n != 11)
    return 0;
  if (p < end)
    p += *p == '\r' && p + 1 < end && p[1] == '\n' ? 2 : 1;
  *next = p;
  return n;
}

static SqClip *
seq_text_read (GBytes              *bytes,
               const SqLoadOptions *options,
               GError             **error)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  /* each limb's keys made present on another thread while its lines are
   * read (sq-parallel.h); stopped before the clip goes */
  g_autoptr(SqPrefault) prefault = NULL;
  SqLines lines;
  Assign assigns[8];
  guint n_assign;
  gint64 version = -1, n_limbs = -1, duration_ms = -1;
  gint64 limbs_seen = 0, keys_left = 0;
  SqJoint *joint = NULL;
  guint joint_line = 0;
  guint max_joints = options->max_joints ? options->max_joints : 65536;
  gboolean unsorted = FALSE;

  if (len >= 3 && (guint8) data[0] == 0xef && (guint8) data[1] == 0xbb && (guint8) data[2] == 0xbf)
    {
      sq_props_set (clip->extra, "bom", g_variant_new_boolean (TRUE));
      data += 3;
      len -= 3;
    }
  if (len > 0 && memchr (data, '\0', len) != NULL)
    {
      const char *nul = memchr (data, '\0', len);
      sq_set_error_at_offset (error, SQ_ERROR_SYNTAX, nul - data, _("a NUL byte in a text SEQ file"));
      return NULL;
    }

  _sq_lines_init (&lines, data, len);
  if (!_sq_lines_next (&lines) || lines.cur_len < 4 || g_ascii_strncasecmp (lines.cur, "AWSQ", 4) != 0)
    {
      sq_set_error_at_line (error, SQ_ERROR_BAD_MAGIC, 1, 1, _("the first line is not an “AWSQ …” header"));
      return NULL;
    }

  n_assign = parse_assignments (lines.cur, lines.cur_len, 4, assigns, G_N_ELEMENTS (assigns));
  for (guint i = 0; i < MIN (n_assign, G_N_ELEMENTS (assigns)); i++)
    {
      Assign *a = &assigns[i];
      gint64 *target = NULL;

      if (token_is (a->key, a->key_len, "Version"))
        target = &version;
      else if (token_is (a->key, a->key_len, "Limbs"))
        target = &n_limbs;
      else if (token_is (a->key, a->key_len, "Duration"))
        target = &duration_ms;
      else
        {
          g_autofree char *k = g_strndup (a->key, a->key_len);
          sq_clip_add_warning (clip, _("line 1: unknown header field “%s” ignored"), k);
          continue;
        }
      if (a->value == NULL || !_sq_parse_int64 (a->value, a->value_len, target) || *target < 0)
        {
          g_autofree char *k = g_strndup (a->key, a->key_len);
          sq_set_error_at_line (error, SQ_ERROR_SYNTAX, 1, a->column,
                                _("“%s” needs a whole number ≥ 0 after “=”"), k);
          return NULL;
        }
    }
  if (n_limbs < 0 || duration_ms < 0)
    {
      sq_set_error_at_line (error, SQ_ERROR_SYNTAX, 1, lines.cur_len + 1,
                            _("the header needs Limbs=N and Duration=MS"));
      return NULL;
    }
  if (version < 0)
    sq_clip_add_warning (clip, _("line 1: the header has no Version; 1 is assumed"));
  else if (version != 1)
    sq_clip_add_warning (clip, _("line 1: Version=%" PRId64 " is not 1; read as version 1"), version);
  if (version != 1)
    sq_props_set (clip->extra, "version", g_variant_new_int64 (version));
  /* every limb takes at least a line of a few bytes */
  if ((guint64) n_limbs > len / 2 || (guint64) n_limbs > max_joints)
    {
      sq_set_error_at_line (error, SQ_ERROR_LIMIT_EXCEEDED, 1, 1,
                            _("Limbs=%" PRId64 " is more than the file can hold"), n_limbs);
      return NULL;
    }

  clip->duration = duration_ms / 1000.0;
  clip->fps = 30.0;
  clip->frame_base = 1;

  for (;;)
    {
      guint n;
      double num[11];
      gint64 ms;

      if (keys_left > 0)
        {
          const char *next;

          n = scan_key_line (data + lines.pos, data + len, &ms, num, &next);
          if (n != 0)
            {
              lines.line++;
              lines.pos = next - data;
              add_key (clip, joint, lines.line, ms, num, n, &unsorted);
              keys_left--;
              continue;
            }
        }
      if (!_sq_lines_next (&lines))
        break;
      if (is_blank_or_comment (lines.cur, lines.cur_len))
        continue;

      if (keys_left == 0)
        {
          g_autofree char *name = NULL;
          gint64 frames = 0;
          guint col = 1;

          if (joint != NULL && !finish_limb (clip, joint, duration_ms, joint_line, unsorted, error))
            return NULL;
          unsorted = FALSE;
          if (limbs_seen == n_limbs)
            {
              sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lines.line, 1,
                                    _("more data after the %" PRId64 " limbs the header announces"), n_limbs);
              return NULL;
            }
          if (!parse_limb_header (lines.cur, lines.cur_len, &name, &frames, &col))
            {
              sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lines.line, col,
                                    _("expected a limb header “name frames=K”"));
              return NULL;
            }
          if (frames < 1)
            {
              sq_set_error_at_line (error, SQ_ERROR_BAD_VALUE, lines.line, col,
                                    _("frames=%" PRId64 " for limb “%s” must be at least 1"), frames, name);
              return NULL;
            }
          if ((guint64) frames > (len - lines.pos) / 2 + 1)
            {
              sq_set_error_at_line (error, SQ_ERROR_LIMIT_EXCEEDED, lines.line, col,
                                    _("frames=%" PRId64 " for limb “%s” is more than the rest of the file can hold"),
                                    frames, name);
              return NULL;
            }
          if (sq_clip_find_joint (clip, name) >= 0)
            sq_clip_add_warning (clip, _("line %u: limb “%s” appears more than once; edits by name act on the first"),
                                 lines.line, name);
          joint = sq_clip_add_joint (clip, name);
          joint_line = lines.line;
          sq_track_reserve (&joint->tracks[SQ_CHANNEL_ROTATION], frames);
          sq_track_reserve (&joint->tracks[SQ_CHANNEL_TRANSLATION], frames);
          sq_track_ensure_alt (&joint->tracks[SQ_CHANNEL_ROTATION]);
          {
            SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION], *pos = &joint->tracks[SQ_CHANNEL_TRANSLATION];
            void *ranges[3] = { rot->keys, rot->alt, pos->keys };
            gsize sizes[3] = { rot->alloc * sizeof (SqKey), rot->alloc * 4 * sizeof (double),
                               pos->alloc * sizeof (SqKey) };

            _sq_prefault_finish (prefault);
            prefault = _sq_prefault_start (len, ranges, sizes, 3);
          }
          keys_left = frames;
          limbs_seen++;
          continue;
        }

      /* one pass: scan each field as a number where it stands */
      {
        const char *p = lines.cur, *end = lines.cur + lines.cur_len;

        n = 0;
        for (;;)
          {
            const char *field, *stop;

            while (p < end && _sq_sep_table[(guint8) *p])
              p++;
            if (p >= end)
              break;
            field = p;
            if (n >= 11)
              {
                sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lines.line, (guint) (field - lines.cur) + 1,
                                      _("limb “%s”: a key line has 8 or 11 numbers; this one has more"), joint->name);
                return NULL;
              }
            if (n == 0)
              {
                stop = p;
                while (stop < end && !_sq_sep_table[(guint8) *stop])
                  stop++;
                if (!_sq_parse_int64 (field, stop - field, &ms))
                  {
                    sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lines.line, (guint) (field - lines.cur) + 1,
                                          _("the time must be a whole number of milliseconds"));
                    return NULL;
                  }
              }
            else if ((stop = _sq_scan_double_in (field, end, lines.data + lines.len, &num[n])) == NULL
                     || (stop < end && !_sq_sep_table[(guint8) *stop]))
              {
                sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lines.line, (guint) (field - lines.cur) + 1,
                                      _("not a number"));
                return NULL;
              }
            p = stop;
            n++;
          }
      }
      if (n != 8 && n != 11)
        {
          sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lines.line, (guint) lines.cur_len + 1,
                                _("limb “%s” expects %" PRId64 " more key line(s) of 8 or 11 numbers; this line has %u fields"),
                                joint->name, keys_left, n);
          return NULL;
        }

      add_key (clip, joint, lines.line, ms, num, n, &unsorted);
      keys_left--;
    }

  if (keys_left > 0)
    {
      sq_set_error_at_line (error, SQ_ERROR_TRUNCATED, lines.line + 1, 1,
                            _("the file ends %" PRId64 " key line(s) short of limb “%s”"),
                            keys_left, joint->name);
      return NULL;
    }
  if (limbs_seen < n_limbs)
    {
      sq_set_error_at_line (error, SQ_ERROR_TRUNCATED, lines.line + 1, 1,
                            _("the header announces %" PRId64 " limbs but the file has %" PRId64),
                            n_limbs, limbs_seen);
      return NULL;
    }
  if (joint != NULL && !finish_limb (clip, joint, duration_ms, joint_line, unsorted, error))
    return NULL;

  return g_steal_pointer (&clip);
}

/* ---- writing ------------------------------------------------------------- */

typedef struct
{
  gint64 ms;
  gssize idx[3];       /* the key of each channel written on this line, or -1 */
  double rot[4];       /* quaternion */
  double aa[4];        /* axis-angle to write */
  double pos[4];
  double scale[4];
} Line;

/* A limb name as the header parser will read it back: no line breaks, no
 * separators at its ends (they are trimmed), not empty and not starting
 * like a comment. Returns TRUE when the name had to change. */
static gboolean
sanitize_name (GByteArray *name)
{
  gboolean changed = FALSE;

  for (guint i = 0; i < name->len; i++)
    {
      guint8 c = name->data[i];
      gboolean edge = i == 0 || i == name->len - 1;

      if (c == '\r' || c == '\n' || (edge && (c == ' ' || c == '\t' || c == ',' || c == ';')))
        {
          name->data[i] = '_';
          changed = TRUE;
        }
    }
  if (name->len == 0 || name->data[0] == '#' || (name->len >= 2 && name->data[0] == '/' && name->data[1] == '/'))
    {
      g_byte_array_prepend (name, (const guint8 *) "_", 1);
      changed = TRUE;
    }
  return changed;
}

/* One limb's lines of the text SEQ writer: the limbs of a large clip are
 * written on several threads, then put together in order (sq-parallel.h) */
typedef struct
{
  const SqClip *clip;
  GPtrArray    *limb_lines;   /* GArray of Line per limb */
  GArray       *limb_index;   /* joint index per limb */
  gint64        duration_ms;
} LimbsWrite;

static void
write_limb (gsize      l,
            GString   *out,
            GPtrArray *losses,
            gpointer   data)
{
  LimbsWrite *lw = data;
  const SqClip *clip = lw->clip;
  gint64 duration_ms = lw->duration_ms;
  GArray *lines = lw->limb_lines->pdata[l];
  const SqJoint *joint = &clip->joints[g_array_index (lw->limb_index, gsize, l)];
  const SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];
  const SqTrack *pos = &joint->tracks[SQ_CHANNEL_TRANSLATION];
  const SqTrack *scl = &joint->tracks[SQ_CHANNEL_SCALE];
  g_autoptr(GByteArray) name = g_byte_array_new ();
  guint not_numbers = 0;

  if (lines->len == 1)
    {
      Line extra = { .ms = duration_ms, .idx = { -1, -1, -1 } };
      g_array_append_val (lines, extra);
      _sq_loss (losses, _("joint “%s”: a key at %" PRId64 " ms is added, holding the pose (text SEQ needs two)"),
                joint->name, duration_ms);
    }

  if (!_sq_utf8_to_latin1 (joint->name, name))
    _sq_loss (losses, _("joint “%s”: characters outside Latin-1 are written as “?”"), joint->name);
  if (sanitize_name (name))
    {
      g_autofree char *written = _sq_latin1_to_utf8 (name->data, name->len);
      _sq_loss (losses, _("joint “%s”: the name cannot stand in a text SEQ limb header as it is; written as “%s”"),
                joint->name, written);
    }
  g_string_append_len (out, (const char *) name->data, name->len);
  g_string_append_printf (out, " frames=%u\r\n", lines->len);

  for (guint k = 0; k < lines->len; k++)
    {
      Line *ln = &g_array_index (lines, Line, k);
      double t = ln->ms / 1000.0;
      gssize ri = ln->idx[0];
      gboolean have_alt = FALSE;

      if (ri >= 0)
        {
          memcpy (ln->rot, sq_track_key (rot, ri).v, sizeof ln->rot);
          if (rot->alt != NULL && !isnan (rot->alt[ri * 4 + 3]))
            {
              double q[4];
              sq_axis_angle_to_quat (&rot->alt[ri * 4], q);
              if (memcmp (q, ln->rot, sizeof q) == 0)
                {
                  memcpy (ln->aa, &rot->alt[ri * 4], sizeof ln->aa);
                  have_alt = TRUE;
                }
            }
        }
      else
        sq_track_sample (rot, SQ_CHANNEL_ROTATION, t, ln->rot);
      if (!have_alt)
        sq_quat_to_axis_angle (ln->rot, ln->aa);
      /* text SEQ has no way to write a value that is not a number */
      if (!isfinite (ln->aa[0] + ln->aa[1] + ln->aa[2] + ln->aa[3]))
        {
          static const double none[4] = { 0, 0, 1, 0 };
          memcpy (ln->aa, none, sizeof none);
          not_numbers++;
        }
      if (ln->idx[1] >= 0)
        memcpy (ln->pos, sq_track_key (pos, ln->idx[1]).v, sizeof ln->pos);
      else
        sq_track_sample (pos, SQ_CHANNEL_TRANSLATION, t, ln->pos);

      for (guint c = 0; c < 3; c++)
        if (!isfinite (ln->pos[c]))
          {
            ln->pos[c] = 0.0;
            not_numbers++;
          }
      _sq_append_int64 (out, ln->ms);
      for (guint c = 0; c < 3; c++)
        {
          g_string_append_c (out, ' ');
          _sq_append_number (out, ln->aa[c], 6);
        }
      g_string_append_c (out, ' ');
      _sq_append_number (out, ln->aa[3], 4);
      for (guint c = 0; c < 3; c++)
        {
          g_string_append_c (out, ' ');
          _sq_append_number (out, ln->pos[c], 4);
        }
      if (scl->n_keys > 0)
        {
          if (ln->idx[2] >= 0)
            memcpy (ln->scale, sq_track_key (scl, ln->idx[2]).v, sizeof ln->scale);
          else
            sq_track_sample (scl, SQ_CHANNEL_SCALE, t, ln->scale);
          for (guint c = 0; c < 3; c++)
            if (!isfinite (ln->scale[c]))
              {
                ln->scale[c] = 1.0;
                not_numbers++;
              }
          for (guint c = 0; c < 3; c++)
            {
              g_string_append_c (out, ' ');
              _sq_append_number (out, ln->scale[c], 4);
            }
        }
      g_string_append (out, "\r\n");
    }
  if (not_numbers > 0)
    _sq_loss (losses, _("joint “%s”: %u values that are not numbers (NaN or infinite) written as no rotation, 0 or 1"),
              joint->name, not_numbers);
}

static GBytes *
seq_text_write (const SqClip        *clip,
                const SqSaveOptions *options G_GNUC_UNUSED,
                GPtrArray           *losses,
                GError             **error)
{
  GString *out;
  gint64 duration_ms;
  double d = floor (clip->duration * 1000.0 + 0.5);

  if (!(d >= 0 && d < G_MAXINT32))
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE,
                   _("The duration %.3f s does not fit a text SEQ header"), clip->duration);
      return NULL;
    }
  duration_ms = (gint64) d;
  if (fabs (d - clip->duration * 1000.0) > 1e-6)
    _sq_loss (losses, _("duration %.6f s rounded to %" PRId64 " ms"), clip->duration, duration_ms);

  if (clip->name[0] != '\0')
    _sq_loss (losses, _("the model name “%s” (text SEQ has no model name)"), clip->name);
  if (clip->root[0] != '\0' && strcmp (clip->root, "pelvis") != 0)
    _sq_loss (losses, _("the header's root joint name “%s” (text SEQ has no root field; ActiveWorlds takes “pelvis”)"),
              clip->root);

  /* first pass: the key times of every limb, so the duration can cover them */
  {
    g_autoptr(GPtrArray) limb_lines = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
    g_autoptr(GArray) limb_index = g_array_new (FALSE, FALSE, sizeof (gsize));
    gint64 last_ms = 0;

    for (gsize j = 0; j < clip->n_joints; j++)
      {
        const SqJoint *joint = &clip->joints[j];
        const SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];
        const SqTrack *pos = &joint->tracks[SQ_CHANNEL_TRANSLATION];
        const SqTrack *scl = &joint->tracks[SQ_CHANNEL_SCALE];
        GArray *kept[3] = { NULL, NULL, NULL };
        GArray *steps[3] = { NULL, NULL, NULL };
        guint cursor[3] = { 0, 0, 0 };
        GArray *lines;
        const SqTrack *tracks[3] = { rot, pos, scl };
        const char *what[3] = { _("rotation"), _("translation"), _("scale") };
        guint dropped_negative = 0;

        if (rot->n_keys + pos->n_keys + scl->n_keys == 0)
          {
            _sq_loss (losses, _("joint “%s” has no keys and is left out (text SEQ needs two per limb)"), joint->name);
            continue;
          }

        for (guint c = 0; c < 3; c++)
          {
            kept[c] = _sq_track_to_grid (tracks[c], 1000.0, 0, 30.0, joint->name, what[c], &steps[c], losses);
            while (cursor[c] < steps[c]->len && g_array_index (steps[c], gint64, cursor[c]) < 0)
              {
                cursor[c]++;
                dropped_negative++;
              }
          }
        if (dropped_negative > 0)
          _sq_loss (losses, _("joint “%s”: %u keys before time 0 left out"), joint->name, dropped_negative);

        /* merge the three channels' steps into lines */
        lines = g_array_new (FALSE, TRUE, sizeof (Line));
        for (;;)
          {
            gint64 next = G_MAXINT64;
            Line ln = { 0 };

            for (guint c = 0; c < 3; c++)
              if (cursor[c] < steps[c]->len)
                next = MIN (next, g_array_index (steps[c], gint64, cursor[c]));
            if (next == G_MAXINT64)
              break;
            ln.ms = next;
            for (guint c = 0; c < 3; c++)
              {
                ln.idx[c] = -1;
                if (cursor[c] < steps[c]->len && g_array_index (steps[c], gint64, cursor[c]) == next)
                  ln.idx[c] = (gssize) g_array_index (kept[c], gsize, cursor[c]++);
              }
            g_array_append_val (lines, ln);
          }
        for (guint c = 0; c < 3; c++)
          {
            g_array_unref (kept[c]);
            g_array_unref (steps[c]);
          }
        if (lines->len == 0 || g_array_index (lines, Line, 0).ms != 0)
          {
            Line l = { .ms = 0, .idx = { -1, -1, -1 } };
            g_array_prepend_val (lines, l);
            _sq_loss (losses, _("joint “%s”: a key at 0 ms is added, holding the first pose (text SEQ needs one)"),
                      joint->name);
          }
        last_ms = MAX (last_ms, g_array_index (lines, Line, lines->len - 1).ms);
        g_ptr_array_add (limb_lines, lines);
        g_array_append_val (limb_index, j);
      }

    if (last_ms > duration_ms)
      {
        _sq_loss (losses, _("the duration is extended from %" PRId64 " ms to %" PRId64 " ms to cover the last key"),
                  duration_ms, last_ms);
        duration_ms = last_ms;
      }
    if (duration_ms == 0)
      {
        duration_ms = 33;
        _sq_loss (losses, _("the duration of 0 ms is set to 33 ms (one frame): text SEQ needs a key after 0"));
      }

    {
      LimbsWrite lw = { clip, limb_lines, limb_index, duration_ms };
      g_autofree gsize *costs = g_new (gsize, MAX (limb_lines->len, 1));

      for (guint l = 0; l < limb_lines->len; l++)
        costs[l] = 96 * SQ_PARALLEL_PRINT_WEIGHT * (gsize) ((GArray *) limb_lines->pdata[l])->len;
      out = g_string_sized_new (4096);
      if (sq_props_get_bool (clip->extra, "bom", FALSE))
        g_string_append (out, "\xef\xbb\xbf");
      g_string_append_printf (out, "AWSQ Version=1 Limbs=%u Duration=%" PRId64 "\r\n", limb_lines->len, duration_ms);
      _sq_parallel_parts (limb_lines->len, costs, write_limb, &lw, out, losses);
    }
  }

  return g_string_free_to_bytes (out);
}

static char *
seq_text_describe_field (const char *key,
                         GVariant   *value)
{
  if (g_str_equal (key, "version"))
    return g_strdup_printf (_("the header's Version=%" PRId64), g_variant_get_int64 (value));
  return NULL;
}

static const char * const seq_text_extensions[] = { "seq", NULL };
static const char * const seq_text_fields[] = { "bom", NULL };

const SqFormat _sq_format_seq_text = {
  .id = "seq-text",
  .name = N_("ActiveWorlds text SEQ"),
  .extensions = seq_text_extensions,
  .mime_type = "text/x-activeworlds-seq",
  .default_root = "pelvis",
  .flags = SQ_FORMAT_READ | SQ_FORMAT_WRITE | SQ_FORMAT_TEXT,
  .fields = seq_text_fields,
  .describe_field = seq_text_describe_field,
  .probe = seq_text_probe,
  .read = seq_text_read,
  .write = seq_text_write,
  .space = &sq_space_aw_seq_text,
};
