/* sq-format-sims-cmx.c: The Sims' CMX character files and the CFP key files
 * their skills name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CMX (formats.md 5.2): text lines; a comment line, "version 300", then
 * counted lists of skeletons, suits and skills, one field per line. A
 * skill's motions give per bone the frames and the offsets of its keys in
 * the skill's translation and rotation arrays, which are in the CFP file
 * the skill names (5.3): all translations then all rotations, each array
 * coded dimension by dimension with a running value.
 *
 * The clip: a CMX with a skill is that skill on the 29 bones; each skill
 * is a take (sq_clip_get_takes), the one SqLoadOptions.take names (the
 * first by default) the clip, the others kept as the text they were read
 * from, before ("skills-before") and after it ("more-skills"); one with only skeletons is the first skeleton in
 * its rest pose (one rotation key per bone). Skeletons, suits and
 * property lists are kept as the text they were read from. The CFP is read
 * through SqLoadOptions.companion and kept: a save writes it back as it was
 * while the keys decode to what the clip holds, else codes the keys anew,
 * per value the delta that gives it exactly or an absolute float.
 */
#define G_LOG_DOMAIN "sq-cmx"

#include "config.h"

#include "sq-parallel.h"
#include "sq-private.h"
#include "worlds/sq-world-sims.h"

static const char * const cmx_extensions[] = { "cmx", NULL };
static const char * const cmx_fields[] = {
  "parent", "offset", "comment", "version", "skeletons", "skill", "cfp", "skill-duration",
  "skill-distance", "skill-moving", "translation-count", "rotation-count", "more-skills", "skill-count", "trailer", "skills-before",
  "cfp-bytes", "line-ending", "motion", "frames", "motion-duration", "has-translation", "has-rotation",
  "translation-offset", "rotation-offset", "motion-props", "motion-time-props", "skeleton", NULL
};

#define CFP_FULL   255
#define CFP_REPEAT 254
#define CFP_ZERO   126
/* values a reader decodes at most (a quarter of a gigabyte of floats) */
#define CFP_MAX_VALUES (1u << 26)

/* ---- CFP coding ----------------------------------------------------------- */

static float cfp_table[253];

/* table[c] = sign(v) · v⁴ · 0.1 with v = 2c/252 − 1, in float32 */
static const float *
cfp_deltas (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      for (int c = 0; c < 253; c++)
        {
          float v = 2.0f * (float) c / 252.0f - 1.0f;
          float d = v * v * v * v * 0.1f;

          cfp_table[c] = v < 0 ? -d : d;
        }
      g_once_init_leave (&once, 1);
    }
  return cfp_table;
}

/* What decoding holds before value k·CFP_STEP of an array: where its next
 * code is, the running value and the repeats left. A packed track decodes
 * a value from the mark before it (at most CFP_STEP − 1 codes further). */
#define CFP_STEP 16

typedef struct
{
  guint32 pos;
  float   run;
  guint32 repeat;
} CfpMark;

/* Decodes `n` values of one array from `r` into `out` (or only checks them
 * when NULL), leaving a mark every CFP_STEP values in `marks` (when not
 * NULL); the running value starts at 0 */
static gboolean
cfp_decode (SqReader    *r,
            float       *out,
            CfpMark     *marks,
            gsize        n,
            const char  *file,
            const char  *array,
            GError     **error)
{
  const float *table = cfp_deltas ();
  float run = 0;
  guint32 repeat = 0;
  gsize i;

  for (i = 0; i < n; i++)
    {
      guint8 c;

      if (marks != NULL && i % CFP_STEP == 0)
        marks[i / CFP_STEP] = (CfpMark) { (guint32) r->pos, run, repeat };
      if (repeat > 0)
        {
          if (out != NULL)
            out[i] = run;
          repeat--;
          continue;
        }
      if (sq_reader_left (r) < 1)
        goto short_file;
      c = r->data[r->pos++];
      if (c == CFP_FULL)
        {
          guint32 bits;

          if (sq_reader_left (r) < 4)
            goto short_file;
          memcpy (&bits, r->data + r->pos, 4);
          bits = GUINT32_FROM_LE (bits);
          memcpy (&run, &bits, 4);
          r->pos += 4;
        }
      else if (c == CFP_REPEAT)
        {
          if (sq_reader_left (r) < 2)
            goto short_file;
          repeat = r->data[r->pos] | ((guint32) r->data[r->pos + 1] << 8);
          r->pos += 2;
        }
      else if (c == 253)
        {
          sq_set_error_at_offset (error, SQ_ERROR_BAD_VALUE, r->pos - 1,
                                  _("“%s”: byte 253 is no CFP code (in the %s, value %zu of %zu)"), file, array, i + 1, n);
          return FALSE;
        }
      else
        run = run + table[c];
      if (out != NULL)
        out[i] = run;
    }
  return TRUE;

short_file:
  sq_set_error_at_offset (error, SQ_ERROR_TRUNCATED, r->pos,
                          _("“%s” is short: it ends inside the %s (value %zu of %zu)"), file, array, i + 1, n);
  return FALSE;
}

static void
put_float (GByteArray *out,
           float       v)
{
  guint32 bits;
  guint8 b[5];

  memcpy (&bits, &v, 4);
  b[0] = CFP_FULL;
  b[1] = bits;
  b[2] = bits >> 8;
  b[3] = bits >> 16;
  b[4] = bits >> 24;
  g_byte_array_append (out, b, 5);
}

static gboolean
same_bits (float a,
           float b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

/* The code whose delta takes `run` exactly to `v`, or -1 */
static int
cfp_find_delta (float run,
                float v)
{
  const float *table = cfp_deltas ();
  int lo = 0, hi = 252;
  double want = (double) v - (double) run;

  /* the table increases: the entry nearest the wanted step, then its neighbours */
  while (lo < hi)
    {
      int mid = (lo + hi) / 2;
      if (table[mid] < want)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (int c = MAX (lo - 2, 0); c <= MIN (lo + 2, 252); c++)
    if (same_bits (run + table[c], v))
      return c;
  return -1;
}

/* Codes one array (running value from 0): repeats of the running value as
 * 254 + count, else the delta that gives the value exactly, else the value
 * as an absolute float */
static void
cfp_encode (const float *values,
            gsize        n,
            GByteArray  *out)
{
  float run = 0;

  for (gsize i = 0; i < n;)
    {
      gsize same = 0;
      int c;

      while (i + same < n && same < 65536 && same_bits (values[i + same], run))
        same++;
      if (same >= 2)
        {
          guint8 b[3] = { CFP_REPEAT, (same - 1) & 0xff, (same - 1) >> 8 };
          g_byte_array_append (out, b, 3);
          i += same;
          continue;
        }
      c = cfp_find_delta (run, values[i]);
      if (c >= 0)
        {
          guint8 b = (guint8) c;
          g_byte_array_append (out, &b, 1);
          run = run + cfp_deltas ()[c];
        }
      else
        {
          put_float (out, values[i]);
          run = values[i];
        }
      i++;
    }
}

/* ---- CMX text --------------------------------------------------------------- */

typedef struct
{
  char   *bone;
  gint64  frames, has_t, has_r, t_off, r_off;
  char   *duration;             /* as written */
  GBytes *props, *time_props;   /* the lines, as written */
} Motion;

typedef struct
{
  char   *name, *cfp, *duration, *distance, *moving;
  gint64  t_count, r_count;
  Motion *motions;
  gsize   n_motions;
} Skill;

static void
skill_clear (Skill *s)
{
  for (gsize i = 0; i < s->n_motions; i++)
    {
      g_free (s->motions[i].bone);
      g_free (s->motions[i].duration);
      g_clear_pointer (&s->motions[i].props, g_bytes_unref);
      g_clear_pointer (&s->motions[i].time_props, g_bytes_unref);
    }
  g_free (s->motions);
  g_free (s->name);
  g_free (s->cfp);
  g_free (s->duration);
  g_free (s->distance);
  g_free (s->moving);
  memset (s, 0, sizeof *s);
}

/* lines that remain: every count is checked against them before it is used */
static gsize
lines_left (const SqSimsText *t)
{
  return t->lines.len - t->lines.pos;
}

static gboolean
read_count (SqSimsText  *t,
            const char  *what,
            gsize        lines_each,
            gint64      *n,
            GError     **error)
{
  if (!_sq_sims_text_int (t, what, 0, G_MAXINT32, n, error))
    return FALSE;
  if ((guint64) *n * lines_each > lines_left (t))
    {
      _sq_sims_text_error (t, error, SQ_ERROR_LIMIT_EXCEEDED,
                           _("%s %" PRId64 " needs more lines than the %zu bytes left hold"),
                           what, *n, lines_left (t));
      return FALSE;
    }
  return TRUE;
}

/* A line holding a number (a float as written; kept as text) */
static char *
read_number_text (SqSimsText  *t,
                  const char  *what,
                  GError     **error)
{
  double v;
  const char *end;

  if (!_sq_sims_text_line (t, what, error))
    return NULL;
  end = t->lines.cur + t->lines.cur_len;
  while (end > t->lines.cur && (end[-1] == ' ' || end[-1] == '\t'))
    end--;
  if (_sq_scan_double (t->lines.cur, end, &v) != end)
    {
      _sq_sims_text_error (t, error, SQ_ERROR_SYNTAX, _("%s: a number expected"), what);
      return NULL;
    }
  return g_strndup (t->lines.cur, t->lines.cur_len);
}

/* count, then count × (key, value) lines */
static gboolean
skip_props (SqSimsText  *t,
            GError     **error)
{
  gint64 n;

  if (!read_count (t, "property count", 2, &n, error))
    return FALSE;
  for (gint64 i = 0; i < 2 * n; i++)
    if (!_sq_sims_text_line (t, "a property line", error))
      return FALSE;
  return TRUE;
}

/* count of property lists, then each list */
static gboolean
skip_prop_lists (SqSimsText  *t,
                 GError     **error)
{
  gint64 n;

  if (!read_count (t, "property list count", 1, &n, error))
    return FALSE;
  for (gint64 i = 0; i < n; i++)
    if (!skip_props (t, error))
      return FALSE;
  return TRUE;
}

/* count of time-property lists; each: count of entries, each a time and properties */
static gboolean
skip_time_prop_lists (SqSimsText  *t,
                      GError     **error)
{
  gint64 n, m, time;

  if (!read_count (t, "time property list count", 1, &n, error))
    return FALSE;
  for (gint64 i = 0; i < n; i++)
    {
      if (!read_count (t, "time property count", 2, &m, error))
        return FALSE;
      for (gint64 k = 0; k < m; k++)
        if (!_sq_sims_text_int (t, "a time (ms)", G_MININT32, G_MAXINT32, &time, error) || !skip_props (t, error))
          return FALSE;
    }
  return TRUE;
}

static GBytes *
slice (GBytes *bytes,
       gsize   from,
       gsize   to)
{
  return g_bytes_new_from_bytes (bytes, from, to - from);
}

/* One bone of a skeleton; `bone` (may be NULL) receives it */
static gboolean
read_bone (SqSimsText  *t,
           SqSimsBone  *bone,
           char       **name,
           char       **parent,
           GError     **error)
{
  gint64 flags[4];
  g_autofree char *wiggle = NULL;

  if ((*name = _sq_sims_text_string (t, "a bone name", error)) == NULL
      || (*parent = _sq_sims_text_string (t, "a parent bone name", error)) == NULL
      || !skip_prop_lists (t, error)
      || !_sq_sims_text_bars (t, bone->pos, 3, "a bone position", error)
      || !_sq_sims_text_bars (t, bone->rot, 4, "a bone rotation", error))
    return FALSE;
  for (int i = 0; i < 4; i++)
    if (!_sq_sims_text_int (t, "a bone flag", G_MININT32, G_MAXINT32, &flags[i], error))
      return FALSE;
  if ((wiggle = read_number_text (t, "the wiggle power", error)) == NULL)
    return FALSE;
  bone->flags = (flags[0] ? SQ_SIMS_CAN_TRANSLATE : 0) | (flags[1] ? SQ_SIMS_CAN_ROTATE : 0)
                | (flags[2] ? SQ_SIMS_CAN_BLEND : 0) | (flags[3] ? SQ_SIMS_CAN_WIGGLE : 0);
  return TRUE;
}

/* The skeletons; the first one's bones go into `clip` when it is given */
static gboolean
read_skeletons (SqSimsText  *t,
                SqClip      *clip,
                GError     **error)
{
  gint64 n, n_bones;

  if (!read_count (t, "skeleton count", 2, &n, error))
    return FALSE;
  for (gint64 s = 0; s < n; s++)
    {
      g_autofree char *name = _sq_sims_text_string (t, "a skeleton name", error);

      if (name == NULL || !read_count (t, "bone count", 13, &n_bones, error))
        return FALSE;
      if (s == 0 && clip != NULL)
        sq_props_set (clip->extra, "skeleton", g_variant_new_string (name));
      for (gint64 b = 0; b < n_bones; b++)
        {
          SqSimsBone bone = { 0 };
          g_autofree char *bname = NULL, *parent = NULL;

          if (!read_bone (t, &bone, &bname, &parent, error))
            return FALSE;
          if (s == 0 && clip != NULL)
            {
              SqJoint *joint;
              SqKey *key;
              gssize p = g_str_equal (parent, "NULL") ? -1 : sq_clip_find_joint (clip, parent);
              double q[4];

              if (sq_clip_find_joint (clip, bname) >= 0)
                {
                  _sq_sims_text_error (t, error, SQ_ERROR_BAD_VALUE, _("bone “%s” appears twice"), bname);
                  return FALSE;
                }
              if (p < 0 && !g_str_equal (parent, "NULL"))
                sq_clip_add_warning (clip, _("bone “%s”: its parent “%s” comes later or is missing"), bname, parent);
              joint = sq_clip_add_joint (clip, bname);
              sq_props_set (joint->extra, "parent", g_variant_new_int32 ((gint32) p));
              sq_props_set (joint->extra, "offset", g_variant_new ("(ddd)", bone.pos[0], bone.pos[1], bone.pos[2]));
              _sq_sims_quat_from_file (bone.rot, q);
              key = sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 0);
              memcpy (key->v, q, sizeof q);
            }
        }
    }
  return TRUE;
}

/* suits: name, type, a number, skin count; per skin: bone, skin name, flags, a number */
static gboolean
skip_suits (SqSimsText  *t,
            GError     **error)
{
  gint64 n, n_skins, v;

  if (!read_count (t, "suit count", 4, &n, error))
    return FALSE;
  for (gint64 s = 0; s < n; s++)
    {
      if (!_sq_sims_text_line (t, "a suit name", error)
          || !_sq_sims_text_int (t, "a suit type", G_MININT32, G_MAXINT32, &v, error)
          || !_sq_sims_text_int (t, "a suit field", G_MININT32, G_MAXINT32, &v, error)
          || !read_count (t, "skin count", 4, &n_skins, error))
        return FALSE;
      for (gint64 k = 0; k < n_skins; k++)
        if (!_sq_sims_text_line (t, "a skin's bone name", error)
            || !_sq_sims_text_line (t, "a skin name", error)
            || !_sq_sims_text_int (t, "a skin's flags", G_MININT32, G_MAXINT32, &v, error)
            || !_sq_sims_text_int (t, "a skin field", G_MININT32, G_MAXINT32, &v, error))
          return FALSE;
    }
  return TRUE;
}

static gboolean
read_motion (SqSimsText  *t,
             GBytes      *bytes,
             Motion      *m,
             GError     **error)
{
  gsize from;

  if ((m->bone = _sq_sims_text_string (t, "a motion's bone name", error)) == NULL
      || !_sq_sims_text_int (t, "the motion's frames", 0, SQ_SIMS_MAX_FRAME, &m->frames, error)
      || (m->duration = read_number_text (t, "the motion's duration", error)) == NULL
      || !_sq_sims_text_int (t, "has-translation", 0, 1, &m->has_t, error)
      || !_sq_sims_text_int (t, "has-rotation", 0, 1, &m->has_r, error)
      || !_sq_sims_text_int (t, "the translation offset", -1, G_MAXINT32, &m->t_off, error)
      || !_sq_sims_text_int (t, "the rotation offset", -1, G_MAXINT32, &m->r_off, error))
    return FALSE;
  from = t->lines.pos;
  if (!skip_prop_lists (t, error))
    return FALSE;
  m->props = slice (bytes, from, t->lines.pos);
  from = t->lines.pos;
  if (!skip_time_prop_lists (t, error))
    return FALSE;
  m->time_props = slice (bytes, from, t->lines.pos);
  return TRUE;
}

static gboolean
read_skill (SqSimsText  *t,
            GBytes      *bytes,
            Skill       *s,
            GError     **error)
{
  gint64 n;

  if ((s->name = _sq_sims_text_string (t, "a skill name", error)) == NULL
      || (s->cfp = _sq_sims_text_string (t, "the skill's animation file name", error)) == NULL
      || (s->duration = read_number_text (t, "the skill's duration", error)) == NULL
      || (s->distance = read_number_text (t, "the skill's distance", error)) == NULL
      || (s->moving = read_number_text (t, "is-moving", error)) == NULL
      || !_sq_sims_text_int (t, "the translation count", 0, CFP_MAX_VALUES, &s->t_count, error)
      || !_sq_sims_text_int (t, "the rotation count", 0, CFP_MAX_VALUES, &s->r_count, error)
      || !read_count (t, "motion count", 9, &n, error))
    return FALSE;
  s->motions = g_new0 (Motion, n);
  for (gint64 i = 0; i < n; i++)
    {
      s->n_motions++;
      if (!read_motion (t, bytes, &s->motions[i], error))
        return FALSE;
    }
  return TRUE;
}

/* ---- skill ↔ clip ------------------------------------------------------------ */

/* Decodes a CFP's two arrays; `tv` and `rv` receive t_count × 3 and
 * r_count × 4 floats (dimension by dimension) */
static gboolean
cfp_decode_all (GBytes      *cfp,
                const char  *file,
                gint64       t_count,
                gint64       r_count,
                float      **tv,
                float      **rv,
                gsize       *used,
                GError     **error)
{
  SqReader r = { 0 };
  guint64 n_t = (guint64) t_count * 3, n_r = (guint64) r_count * 4;

  r.data = g_bytes_get_data (cfp, &r.len);
  /* a repeat is 3 bytes for at most 65,536 values: counts beyond what the
   * bytes can hold fail before anything is allocated */
  if (n_t + n_r > CFP_MAX_VALUES || n_t + n_r > 65536 * (guint64) (r.len / 3 + 1))
    {
      sq_set_error_at_offset (error, SQ_ERROR_LIMIT_EXCEEDED, 0,
                              _("“%s” cannot hold the %" PRIu64 " values the skill announces in %zu bytes"),
                              file, n_t + n_r, r.len);
      return FALSE;
    }
  *tv = g_new (float, MAX (n_t, 1));
  *rv = g_new (float, MAX (n_r, 1));
  if (!cfp_decode (&r, *tv, NULL, n_t, file, _("translations"), error)
      || !cfp_decode (&r, *rv, NULL, n_r, file, _("rotations"), error))
    {
      g_clear_pointer (tv, g_free);
      g_clear_pointer (rv, g_free);
      return FALSE;
    }
  *used = r.pos;
  return TRUE;
}

/* ---- packed CFP keys ------------------------------------------------------ */

/* A skill's keys stay coded in its CFP: each packed track refers to one
 * store (its packed_bytes), which holds the CFP, the marks of both arrays
 * and `index`, one byte per frame of the longest motion, into which the
 * track's `packed` points, so that a key's record is its frame number. The
 * track's parameter is its offset in its array. Values decode to the same
 * floats the whole-array decoding gives, then to the same doubles. */
typedef struct
{
  GBytes       *cfp;
  const guint8 *data;
  gint64        count[2];      /* translations, rotations (keys, not values) */
  CfpMark      *marks[2];
  guint8        index[];
} CfpStore;

typedef struct
{
  const guint8 *p;
  float         run;
  guint32       repeat;
} CfpCursor;

static void
cfp_store_free (gpointer data)
{
  CfpStore *store = data;

  g_bytes_unref (store->cfp);
  g_free (store->marks[0]);
  g_free (store->marks[1]);
  g_free (store);
}

/* The next value (the codes were checked when the file was read) */
static inline float
cfp_next (CfpCursor *c)
{
  guint8 code;

  if (c->repeat > 0)
    {
      c->repeat--;
      return c->run;
    }
  code = *c->p++;
  if (code == CFP_FULL)
    {
      guint32 bits;

      memcpy (&bits, c->p, 4);
      bits = GUINT32_FROM_LE (bits);
      memcpy (&c->run, &bits, 4);
      c->p += 4;
    }
  else if (code == CFP_REPEAT)
    {
      c->repeat = c->p[0] | ((guint32) c->p[1] << 8);
      c->p += 2;
    }
  else
    c->run = c->run + cfp_table[code];
  return c->run;
}

/* A cursor whose next value is value `v` of array `a` */
static CfpCursor
cfp_seek (const CfpStore *store,
          int             a,
          guint64         v)
{
  const CfpMark *m = &store->marks[a][v / CFP_STEP];
  CfpCursor c = { store->data + m->pos, m->run, m->repeat };

  for (guint64 k = v - v % CFP_STEP; k < v; k++)
    cfp_next (&c);
  return c;
}

static const CfpStore *
store_of (const SqTrack *track)
{
  return g_bytes_get_data (track->packed_bytes, NULL);
}

static double
cfp_key_time (const SqTrack *track,
              const guint8  *record)
{
  return (gint64) (record - track->packed) / SQ_SIMS_FPS;
}

/* Key `i` of a track of array `a` (0 translations, 1 rotations) */
static void
cfp_key_at (const SqTrack *track,
            int            a,
            gint64         i,
            SqKey         *key)
{
  const CfpStore *store = store_of (track);
  gint64 off = (gint64) track->packed_param;
  double f[4] = { 0, 0, 0, 0 };

  for (int d = 0; d < 3 + a; d++)
    {
      CfpCursor c = cfp_seek (store, a, (guint64) (d * store->count[a] + off + i));

      f[d] = cfp_next (&c);
    }
  key->time = i / SQ_SIMS_FPS;
  if (a == 1)
    _sq_sims_quat_from_file (f, key->v);
  else
    memcpy (key->v, f, sizeof f);
}

static void
cfp_translation_key (const SqTrack *track,
                     const guint8  *record,
                     SqKey         *key)
{
  cfp_key_at (track, 0, record - track->packed, key);
}

static void
cfp_rotation_key (const SqTrack *track,
                  const guint8  *record,
                  SqKey         *key)
{
  cfp_key_at (track, 1, record - track->packed, key);
}

/* Every key of a track of array `a`, one pass per dimension */
static void
cfp_unpack_array (SqTrack       *track,
                  const SqTrack *packed,
                  int            a)
{
  const CfpStore *store = store_of (packed);
  gint64 off = (gint64) packed->packed_param, n = (gint64) track->n_keys;
  SqKey *keys = track->keys;

  for (gint64 i = 0; i < n; i++)
    keys[i] = (SqKey) { i / SQ_SIMS_FPS, { 0, 0, 0, 0 } };
  for (int d = 0; d < 3 + a; d++)
    {
      CfpCursor c = cfp_seek (store, a, (guint64) (d * store->count[a] + off));

      for (gint64 i = 0; i < n; i++)
        keys[i].v[d] = cfp_next (&c);
    }
  if (a == 1)
    for (gint64 i = 0; i < n; i++)
      {
        double f[4];

        memcpy (f, keys[i].v, sizeof f);
        _sq_sims_quat_from_file (f, keys[i].v);
      }
}

static void
cfp_translation_unpack (SqTrack       *track,
                        const SqTrack *packed)
{
  cfp_unpack_array (track, packed, 0);
}

static void
cfp_rotation_unpack (SqTrack       *track,
                     const SqTrack *packed)
{
  cfp_unpack_array (track, packed, 1);
}

static const SqKeyCodec cfp_codecs[2] = {
  { 1, cfp_key_time, cfp_translation_key, NULL, cfp_translation_unpack, NULL },
  { 1, cfp_key_time, cfp_rotation_key, NULL, cfp_rotation_unpack, NULL },
};

/* Checks a CFP's two arrays and marks them: a store for the skill's tracks,
 * with `frames` bytes of index; NULL on error */
static GBytes *
cfp_store_new (GBytes      *cfp,
               const char  *file,
               gint64       t_count,
               gint64       r_count,
               gint64       frames,
               gsize       *used,
               GError     **error)
{
  SqReader r = { 0 };
  guint64 n_t = (guint64) t_count * 3, n_r = (guint64) r_count * 4;
  CfpStore *store;

  r.data = g_bytes_get_data (cfp, &r.len);
  /* a repeat is 3 bytes for at most 65,536 values: counts beyond what the
   * bytes can hold fail before anything is allocated */
  if (n_t + n_r > CFP_MAX_VALUES || n_t + n_r > 65536 * (guint64) (r.len / 3 + 1))
    {
      sq_set_error_at_offset (error, SQ_ERROR_LIMIT_EXCEEDED, 0,
                              _("“%s” cannot hold the %" PRIu64 " values the skill announces in %zu bytes"),
                              file, n_t + n_r, r.len);
      return NULL;
    }
  cfp_deltas ();
  store = g_malloc0 (sizeof (CfpStore) + (gsize) MAX (frames, 1));
  store->cfp = g_bytes_ref (cfp);
  store->data = r.data;
  store->count[0] = t_count;
  store->count[1] = r_count;
  store->marks[0] = g_new (CfpMark, n_t / CFP_STEP + 1);
  store->marks[1] = g_new (CfpMark, n_r / CFP_STEP + 1);
  if (!cfp_decode (&r, NULL, store->marks[0], n_t, file, _("translations"), error)
      || !cfp_decode (&r, NULL, store->marks[1], n_r, file, _("rotations"), error))
    {
      cfp_store_free (store);
      return NULL;
    }
  *used = r.pos;
  return g_bytes_new_with_free_func (store, sizeof (CfpStore) + (gsize) MAX (frames, 1), cfp_store_free, store);
}

static gboolean
check_motion (const Skill *s,
              const Motion *m,
              GError     **error)
{
  if (m->has_t && (m->t_off < 0 || m->t_off + m->frames > s->t_count))
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_BAD_VALUE,
                   _("skill “%s”, motion “%s”: translations %" PRId64 "–%" PRId64
                     " overrun the skill's %" PRId64 " translations"),
                   s->name, m->bone, m->t_off, m->t_off + m->frames - 1, s->t_count);
      return FALSE;
    }
  if (m->has_r && (m->r_off < 0 || m->r_off + m->frames > s->r_count))
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_BAD_VALUE,
                   _("skill “%s”, motion “%s”: rotations %" PRId64 "–%" PRId64
                     " overrun the skill's %" PRId64 " rotations"),
                   s->name, m->bone, m->r_off, m->r_off + m->frames - 1, s->r_count);
      return FALSE;
    }
  return TRUE;
}

static GBytes *
fetch_cfp (const Skill         *s,
           const char          *file,
           const SqLoadOptions *options,
           GError             **error)
{
  g_autoptr(GError) local = NULL;
  GBytes *cfp;

  if (options->companion == NULL)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_TRUNCATED,
                   _("skill “%s” keeps its keys in “%s”, and no way to read that file was given"), s->name, file);
      return NULL;
    }
  cfp = options->companion (file, options->companion_data, &local);
  if (cfp == NULL)
    g_set_error (error, SQ_ERROR, SQ_ERROR_TRUNCATED, _("skill “%s” keeps its keys in “%s”: %s"), s->name, file,
                 local != NULL ? local->message : _("the file cannot be read"));
  return cfp;
}

static void
motion_to_joint (const Motion *m,
                 gsize         index,
                 GBytes       *store,
                 SqJoint      *joint)
{
  const CfpStore *store_data = g_bytes_get_data (store, NULL);

  sq_props_set (joint->extra, "motion", g_variant_new_uint32 ((guint32) index));
  sq_props_set (joint->extra, "frames", g_variant_new_int64 (m->frames));
  sq_props_set (joint->extra, "motion-duration", g_variant_new_string (m->duration));
  sq_props_set (joint->extra, "has-translation", g_variant_new_int64 (m->has_t));
  sq_props_set (joint->extra, "has-rotation", g_variant_new_int64 (m->has_r));
  sq_props_set (joint->extra, "translation-offset", g_variant_new_int64 (m->t_off));
  sq_props_set (joint->extra, "rotation-offset", g_variant_new_int64 (m->r_off));
  sq_props_set (joint->extra, "motion-props", g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, m->props, TRUE));
  sq_props_set (joint->extra, "motion-time-props",
                g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, m->time_props, TRUE));
  if (m->has_t && m->frames > 0)
    sq_track_pack (&joint->tracks[SQ_CHANNEL_TRANSLATION], &cfp_codecs[0], store, store_data->index,
                   (gsize) m->frames, (double) m->t_off);
  if (m->has_r && m->frames > 0)
    sq_track_pack (&joint->tracks[SQ_CHANNEL_ROTATION], &cfp_codecs[1], store, store_data->index,
                   (gsize) m->frames, (double) m->r_off);
}

/* The first skill's motions on the clip's bones, their keys from the CFP */
static gboolean
skill_to_clip (const Skill         *s,
               SqClip              *clip,
               const SqLoadOptions *options,
               GError             **error)
{
  g_autofree char *file = g_strconcat (s->cfp, ".cfp", NULL);
  g_autoptr(GBytes) cfp = NULL;
  g_autoptr(GBytes) store = NULL;
  gsize used = 0, len;
  gint64 frames = 0;

  for (gsize i = 0; i < s->n_motions; i++)
    {
      if (!check_motion (s, &s->motions[i], error))
        return FALSE;
      frames = MAX (frames, s->motions[i].frames);
    }
  if ((cfp = fetch_cfp (s, file, options, error)) == NULL
      || (store = cfp_store_new (cfp, file, s->t_count, s->r_count, frames, &used, error)) == NULL)
    return FALSE;
  len = g_bytes_get_size (cfp);
  if (used < len)
    sq_clip_add_warning (clip, _("“%s” has %zu bytes after its keys (kept)"), file, len - used);

  for (gsize i = 0; i < s->n_motions; i++)
    {
      const Motion *m = &s->motions[i];
      gssize j = sq_clip_find_joint (clip, m->bone);
      SqJoint *joint;

      if (j >= 0 && sq_props_get (clip->joints[j].extra, "motion") != NULL)
        {
          g_set_error (error, SQ_ERROR, SQ_ERROR_BAD_VALUE,
                       _("skill “%s”: bone “%s” has two motions"), s->name, m->bone);
          return FALSE;
        }
      if (j < 0)
        {
          sq_clip_add_warning (clip, _("motion “%s” is not one of the 29 bones of the Sims skeleton"), m->bone);
          joint = sq_clip_add_joint (clip, m->bone);
          sq_props_set (joint->extra, "parent", g_variant_new_int32 (-1));
          sq_props_set (joint->extra, "offset", g_variant_new ("(ddd)", 0.0, 0.0, 0.0));
        }
      else
        joint = &clip->joints[j];
      motion_to_joint (m, i, store, joint);
    }
  sq_props_set (clip->extra, "cfp-bytes", g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, cfp, TRUE));
  clip->duration = frames > 0 ? (frames - 1) / SQ_SIMS_FPS : 0;
  return TRUE;
}

static void
set_text (SqClip     *clip,
          const char *key,
          GBytes     *bytes,
          gsize       from,
          gsize       to)
{
  g_autoptr(GBytes) part = slice (bytes, from, to);

  sq_props_set (clip->extra, key, g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, part, TRUE));
}

/* The file's `n` skills from `t`: skill `take` into *skill, the others
 * kept as text (their CFPs are not this clip's), every name a take */
static gboolean
read_skills (SqSimsText  *t,
             GBytes      *bytes,
             gint64       n,
             guint        take,
             SqClip      *clip,
             Skill       *skill,
             GError     **error)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  gsize from = t->lines.pos;

  if ((gint64) take >= n)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND,
                   _("there is no skill %u: the file has %" PRId64 " (numbered from 1)"), take + 1, n);
      return FALSE;
    }
  for (gint64 i = 0; i < n; i++)
    {
      Skill other = { 0 };
      gboolean good;

      if (i == take)
        {
          if (i > 0)
            set_text (clip, "skills-before", bytes, from, t->lines.pos);
          if (!read_skill (t, bytes, skill, error))
            return FALSE;
          g_ptr_array_add (names, g_strdup (skill->name));
          from = t->lines.pos;
          continue;
        }
      good = read_skill (t, bytes, &other, error);
      g_ptr_array_add (names, g_strdup (other.name != NULL ? other.name : ""));
      skill_clear (&other);
      if (!good)
        return FALSE;
    }
  if (from < t->lines.pos)
    set_text (clip, "more-skills", bytes, from, t->lines.pos);
  if (n > 1)
    sq_props_set (clip->extra, "skill-count", g_variant_new_int64 (n));
  g_ptr_array_add (names, NULL);
  sq_clip_set_takes (clip, (const char * const *) names->pdata, take);
  return TRUE;
}

static SqClip *
cmx_read (GBytes              *bytes,
          const SqLoadOptions *options,
          GError             **error)
{
  g_autoptr(SqClip) clip = NULL;
  g_autofree char *comment = NULL, *version = NULL;
  Skill skill = { 0 };
  SqSimsText t;
  gint64 n_skills;
  gsize from, skills_at;
  gboolean ok = FALSE;

  _sq_sims_text_init (&t, bytes, "CMX");
  if ((comment = _sq_sims_text_string (&t, "the comment line", error)) == NULL)
    return NULL;
  if (!g_str_has_prefix (comment, "//"))
    {
      _sq_sims_text_error (&t, error, SQ_ERROR_BAD_MAGIC, _("not a CMX file (the first line is no “//” comment)"));
      return NULL;
    }
  if ((version = _sq_sims_text_string (&t, "the version line", error)) == NULL)
    return NULL;
  if (!g_str_has_prefix (version, "version "))
    {
      _sq_sims_text_error (&t, error, SQ_ERROR_SYNTAX, _("a line “version 300” expected"));
      return NULL;
    }

  /* the skeletons and suits are kept as text; whether there is a skill
   * decides what the clip is, so look ahead first */
  from = t.lines.pos;
  {
    SqSimsText ahead = t;

    if (!read_skeletons (&ahead, NULL, error) || !skip_suits (&ahead, error))
      return NULL;
    skills_at = ahead.lines.pos;
    if (!read_count (&ahead, "skill count", 17, &n_skills, error))
      return NULL;
    if (n_skills > 0)
      {
        clip = _sq_sims_clip_new (&_sq_format_sims_cmx, SQ_SIMS_ADULT);
        t = ahead;
      }
    else
      {
        clip = sq_clip_new ();
        clip->format = &_sq_format_sims_cmx;
        clip->fps = SQ_SIMS_FPS;
        if (!read_skeletons (&t, clip, error) || !skip_suits (&t, error)
            || !read_count (&t, "skill count", 17, &n_skills, error))
          return NULL;
        if (clip->n_joints > 0)
          {
            g_free (clip->root);
            clip->root = g_strdup (clip->joints[0].name);
          }
      }
  }
  set_text (clip, "skeletons", bytes, from, skills_at);
  sq_props_set (clip->extra, "comment", g_variant_new_string (comment));
  sq_props_set (clip->extra, "version", g_variant_new_string (version));
  sq_props_set (clip->extra, "line-ending", g_variant_new_string (_sq_sims_text_eol (bytes)));

  if (n_skills > 0)
    {
      if (!read_skills (&t, bytes, n_skills, options->take, clip, &skill, error)
          || !skill_to_clip (&skill, clip, options, error))
        goto out;
      g_free (clip->name);
      clip->name = g_strdup (skill.name);
      sq_props_set (clip->extra, "skill", g_variant_new_string (skill.name));
      sq_props_set (clip->extra, "cfp", g_variant_new_string (skill.cfp));
      sq_props_set (clip->extra, "skill-duration", g_variant_new_string (skill.duration));
      sq_props_set (clip->extra, "skill-distance", g_variant_new_string (skill.distance));
      sq_props_set (clip->extra, "skill-moving", g_variant_new_string (skill.moving));
      sq_props_set (clip->extra, "translation-count", g_variant_new_int64 (skill.t_count));
      sq_props_set (clip->extra, "rotation-count", g_variant_new_int64 (skill.r_count));
    }
  if (t.lines.pos < t.lines.len)
    set_text (clip, "trailer", bytes, t.lines.pos, t.lines.len);
  ok = TRUE;

out:
  skill_clear (&skill);
  return ok ? g_steal_pointer (&clip) : NULL;
}

/* ---- writing ---------------------------------------------------------------- */

typedef struct
{
  gsize  joint;
  gint64 frames, has_t, has_r, t_off, r_off;
} Plan;

static int
cmp_motion (gconstpointer a,
            gconstpointer b,
            gpointer      clip)
{
  const SqClip *c = clip;
  const Plan *x = a, *y = b;
  guint32 mx = sq_props_get_uint (c->joints[x->joint].extra, "motion", G_MAXUINT32);
  guint32 my = sq_props_get_uint (c->joints[y->joint].extra, "motion", G_MAXUINT32);

  if (mx != my)
    return mx < my ? -1 : 1;
  return x->joint < y->joint ? -1 : x->joint > y->joint;
}

/* The motions to write: the ones read, in their order, then every other
 * joint with keys */
static GArray *
plan_motions (const SqClip *clip)
{
  GArray *plan = g_array_new (FALSE, TRUE, sizeof (Plan));

  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];
      Plan p = { 0 };

      if (sq_props_get (joint->extra, "motion") == NULL && joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys == 0
          && joint->tracks[SQ_CHANNEL_ROTATION].n_keys == 0)
        continue;
      p.joint = j;
      p.frames = sq_props_get_int (joint->extra, "frames", -1);
      p.has_t = sq_props_get_int (joint->extra, "has-translation", -1);
      p.has_r = sq_props_get_int (joint->extra, "has-rotation", -1);
      p.t_off = sq_props_get_int (joint->extra, "translation-offset", -2);
      p.r_off = sq_props_get_int (joint->extra, "rotation-offset", -2);
      g_array_append_val (plan, p);
    }
  g_array_sort_with_data (plan, cmp_motion, (gpointer) clip);
  return plan;
}

/* Does a track hold exactly `n` keys at i/30 whose float32 values are
 * those of the array `v` (dimension stride `count`) from `off`? */
static gboolean
track_matches (const SqTrack *track,
               gboolean       rotation,
               gint64         n,
               const float   *v,
               gint64         count,
               gint64         off)
{
  if ((gint64) track->n_keys != n)
    return FALSE;
  for (gint64 i = 0; i < n; i++)
    {
      SqKey key = sq_track_key (track, (gsize) i);
      double f[4];

      if (key.time != i / SQ_SIMS_FPS)
        return FALSE;
      if (rotation)
        _sq_sims_quat_to_file (key.v, f);
      else
        memcpy (f, key.v, sizeof f);
      for (int d = 0; d < (rotation ? 4 : 3); d++)
        if (!same_bits ((float) f[d], v[d * count + off + i]))
          return FALSE;
    }
  return TRUE;
}

/* TRUE when the kept CFP still decodes, with the motions as read, to the
 * clip's keys: then it and the offsets are written as they were */
static gboolean
cfp_still_holds (const SqClip *clip,
                 GArray       *plan)
{
  GVariant *kept = sq_props_get (clip->extra, "cfp-bytes");
  gint64 t_count = sq_props_get_int (clip->extra, "translation-count", -1);
  gint64 r_count = sq_props_get_int (clip->extra, "rotation-count", -1);
  g_autofree float *tv = NULL, *rv = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize used;

  if (kept == NULL || t_count < 0 || r_count < 0)
    return FALSE;
  bytes = g_variant_get_data_as_bytes (kept);
  if (!cfp_decode_all (bytes, "", t_count, r_count, &tv, &rv, &used, NULL))
    return FALSE;
  for (guint i = 0; i < plan->len; i++)
    {
      const Plan *p = &g_array_index (plan, Plan, i);
      const SqJoint *joint = &clip->joints[p->joint];

      if (p->frames < 0 || p->has_t < 0 || p->has_r < 0 || p->t_off < -1 || p->r_off < -1)
        return FALSE;
      if ((p->has_t && (p->t_off < 0 || p->t_off + p->frames > t_count))
          || (p->has_r && (p->r_off < 0 || p->r_off + p->frames > r_count)))
        return FALSE;
      if (!track_matches (&joint->tracks[SQ_CHANNEL_TRANSLATION], FALSE, p->has_t ? p->frames : 0, tv, t_count, p->t_off)
          || !track_matches (&joint->tracks[SQ_CHANNEL_ROTATION], TRUE, p->has_r ? p->frames : 0, rv, r_count, p->r_off))
        return FALSE;
    }
  return TRUE;
}

static gint64
track_frames (const SqTrack *track)
{
  double last;

  if (track->n_keys == 0)
    return 0;
  last = sq_track_time (track, track->n_keys - 1) * SQ_SIMS_FPS;
  return isfinite (last) && last >= 0 ? (gint64) MIN (floor (last + 0.5), SQ_SIMS_MAX_FRAME) + 1 : 1;
}

/* New frames and offsets for every motion, and the CFP coded from the keys
 * (each key sampled at i/30 s) */
static GBytes *
cfp_build (const SqClip *clip,
           GArray       *plan,
           gint64       *t_count,
           gint64       *r_count)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree float *tv = NULL, *rv = NULL;

  *t_count = *r_count = 0;
  for (guint i = 0; i < plan->len; i++)
    {
      Plan *p = &g_array_index (plan, Plan, i);
      const SqJoint *joint = &clip->joints[p->joint];
      gint64 ft = track_frames (&joint->tracks[SQ_CHANNEL_TRANSLATION]);
      gint64 fr = track_frames (&joint->tracks[SQ_CHANNEL_ROTATION]);

      p->has_t = ft > 0;
      p->has_r = fr > 0;
      p->frames = ft > 0 || fr > 0 ? MAX (ft, fr) : MAX (p->frames, 0);
      p->t_off = p->has_t ? *t_count : -1;
      p->r_off = p->has_r ? *r_count : -1;
      *t_count += p->has_t ? p->frames : 0;
      *r_count += p->has_r ? p->frames : 0;
    }
  tv = g_new (float, MAX (*t_count * 3, 1));
  rv = g_new (float, MAX (*r_count * 4, 1));
  for (guint i = 0; i < plan->len; i++)
    {
      const Plan *p = &g_array_index (plan, Plan, i);
      const SqJoint *joint = &clip->joints[p->joint];

      for (gint64 f = 0; f < p->frames; f++)
        {
          double v[4], q[4];

          if (p->has_t && _sq_sims_track_value (&joint->tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, (gsize) f, v))
            for (int d = 0; d < 3; d++)
              tv[d * *t_count + p->t_off + f] = (float) v[d];
          if (p->has_r && _sq_sims_track_value (&joint->tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, (gsize) f, v))
            {
              _sq_sims_quat_to_file (v, q);
              for (int d = 0; d < 4; d++)
                rv[d * *r_count + p->r_off + f] = (float) q[d];
            }
        }
    }
  cfp_encode (tv, (gsize) *t_count * 3, out);
  cfp_encode (rv, (gsize) *r_count * 4, out);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static const char *
skill_name (const SqClip *clip)
{
  return _sq_sims_string_extra (clip, "skill", clip->name[0] ? clip->name : "sequin-skill");
}

/* "xskill-walk.cfp" without its ".cfp" (any case), interned */
static const char *
strip_cfp (const char *file)
{
  gsize len = strlen (file);
  g_autofree char *base = NULL;

  if (len > 4 && g_ascii_strcasecmp (file + len - 4, ".cfp") == 0)
    len -= 4;
  base = g_strndup (file, len);
  return g_intern_string (base);
}

/* the CFP's name without ".cfp": the one the save gives (sq_save_files),
 * else as read, else "xskill-" and the skill's name */
static const char *
cfp_base (const SqClip        *clip,
          const SqSaveOptions *options)
{
  const char *name = _sq_sims_string_extra (clip, "cfp", NULL);
  char *made;

  if (options->companion_names != NULL && options->companion_names[0] != NULL)
    return strip_cfp (options->companion_names[0]);
  if (name != NULL && name[0] != '\0')
    return name;
  /* interned, so that the string outlives the call without an owner */
  made = g_strconcat ("xskill-", skill_name (clip), NULL);
  name = g_intern_string (made);
  g_free (made);
  return name;
}

static void
put_text (GString       *out,
          const SqProps *props,
          const char    *key,
          const char    *fallback)
{
  GVariant *v = sq_props_get (props, key);

  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_BYTESTRING))
    {
      gsize n;
      const char *p = g_variant_get_fixed_array (v, &n, 1);
      g_string_append_len (out, p, n);
    }
  else if (fallback != NULL)
    g_string_append (out, fallback);
}

/* a duration in ms for frames at 30 per second, as the game's files give
 * it (60 frames: 1999) */
static char *
duration_text (gint64 frames)
{
  return g_strdup_printf ("%" PRId64, (gint64) floor (frames * 33.33));
}

static void
write_motion (GString      *out,
              const SqClip *clip,
              const Plan   *p,
              gboolean      kept,
              const char   *eol)
{
  const SqJoint *joint = &clip->joints[p->joint];
  g_autofree char *fallback = NULL;
  g_autofree char *zero = g_strconcat ("0", eol, NULL);
  GVariant *d = sq_props_get (joint->extra, "motion-duration");

  _sq_sims_put_string (out, joint->name, eol);
  g_string_append_printf (out, "%" PRId64 "%s", p->frames, eol);
  if (d != NULL && g_variant_is_of_type (d, G_VARIANT_TYPE_STRING)
      && (kept || sq_props_get_int (joint->extra, "frames", -1) == p->frames))
    g_string_append (out, g_variant_get_string (d, NULL));
  else
    g_string_append (out, fallback = duration_text (p->frames));
  g_string_append (out, eol);
  g_string_append_printf (out, "%" PRId64 "%s%" PRId64 "%s%" PRId64 "%s%" PRId64 "%s",
                          p->has_t, eol, p->has_r, eol, p->t_off, eol, p->r_off, eol);
  put_text (out, joint->extra, "motion-props", zero);
  put_text (out, joint->extra, "motion-time-props", zero);
}

static gboolean
write_skill (GString             *out,
             const SqClip        *clip,
             const SqSaveOptions *options,
             const char          *eol,
             GBytes             **cfp,
             GError             **error)
{
  g_autoptr(GArray) plan = plan_motions (clip);
  gboolean kept = cfp_still_holds (clip, plan);
  gint64 t_count, r_count, frames = 0;
  const char *name = skill_name (clip);
  g_autofree char *dur = NULL;

  for (guint i = 0; !kept && i < plan->len; i++)
    {
      const SqJoint *joint = &clip->joints[g_array_index (plan, Plan, i).joint];

      frames += MAX (track_frames (&joint->tracks[SQ_CHANNEL_TRANSLATION]),
                     track_frames (&joint->tracks[SQ_CHANNEL_ROTATION])) * 7;
      if (frames > CFP_MAX_VALUES)
        {
          g_set_error (error, SQ_ERROR, SQ_ERROR_LIMIT_EXCEEDED,
                       _("the skill's keys span more frames than a CFP of %u values holds"), CFP_MAX_VALUES);
          return FALSE;
        }
    }
  frames = 0;
  if (kept)
    {
      t_count = sq_props_get_int (clip->extra, "translation-count", 0);
      r_count = sq_props_get_int (clip->extra, "rotation-count", 0);
      *cfp = g_variant_get_data_as_bytes (sq_props_get (clip->extra, "cfp-bytes"));
    }
  else
    *cfp = cfp_build (clip, plan, &t_count, &r_count);
  for (guint i = 0; i < plan->len; i++)
    frames = MAX (frames, g_array_index (plan, Plan, i).frames);

  _sq_sims_put_string (out, name, eol);
  _sq_sims_put_string (out, cfp_base (clip, options), eol);
  g_string_append (out, kept ? _sq_sims_string_extra (clip, "skill-duration", "0") : (dur = duration_text (frames)));
  g_string_append (out, eol);
  g_string_append (out, _sq_sims_string_extra (clip, "skill-distance", "0"));
  g_string_append (out, eol);
  g_string_append (out, _sq_sims_string_extra (clip, "skill-moving", "0"));
  g_string_append (out, eol);
  g_string_append_printf (out, "%" PRId64 "%s%" PRId64 "%s%u%s", t_count, eol, r_count, eol,
                          plan->len, eol);
  for (guint i = 0; i < plan->len; i++)
    write_motion (out, clip, &g_array_index (plan, Plan, i), kept, eol);
  return TRUE;
}

/* ---- a skeleton written from the clip ------------------------------------ */

/* One bone record of the first skeleton as read: where its parts lie in
 * the kept text, and the values of its position and rotation lines */
typedef struct
{
  char  *name;
  gsize  props, pos, rot, tail, end;   /* offsets of its parts */
  double v_pos[3], v_rot[4];
} BoneRecord;

static void
bone_record_clear (gpointer data)
{
  g_free (((BoneRecord *) data)->name);
}

/* In the kept skeletons text: where the first skeleton's name line ends
 * (its bone count follows), its bone records and where the rest (other
 * skeletons, suits) starts; FALSE for a text with no skeleton */
static gboolean
scan_first_skeleton (GBytes  *text,
                     gsize   *name_end,
                     GArray  *records,
                     gsize   *rest)
{
  SqSimsText t;
  gint64 n, n_bones, flag;
  g_autofree char *name = NULL;

  _sq_sims_text_init (&t, text, "CMX");
  if (!read_count (&t, "skeleton count", 2, &n, NULL) || n < 1
      || (name = _sq_sims_text_string (&t, "a skeleton name", NULL)) == NULL)
    return FALSE;
  *name_end = t.lines.pos;
  if (!read_count (&t, "bone count", 13, &n_bones, NULL))
    return FALSE;
  for (gint64 b = 0; b < n_bones; b++)
    {
      BoneRecord r = { 0 };
      g_autofree char *wiggle = NULL;

      if ((r.name = _sq_sims_text_string (&t, "a bone name", NULL)) == NULL)
        return FALSE;
      g_array_append_val (records, r);
      if (!_sq_sims_text_line (&t, "a parent bone name", NULL))
        return FALSE;
      g_array_index (records, BoneRecord, b).props = t.lines.pos;
      if (!skip_prop_lists (&t, NULL))
        return FALSE;
      g_array_index (records, BoneRecord, b).pos = t.lines.pos;
      if (!_sq_sims_text_bars (&t, g_array_index (records, BoneRecord, b).v_pos, 3, "a bone position", NULL))
        return FALSE;
      g_array_index (records, BoneRecord, b).rot = t.lines.pos;
      if (!_sq_sims_text_bars (&t, g_array_index (records, BoneRecord, b).v_rot, 4, "a bone rotation", NULL))
        return FALSE;
      g_array_index (records, BoneRecord, b).tail = t.lines.pos;
      for (int i = 0; i < 4; i++)
        if (!_sq_sims_text_int (&t, "a bone flag", G_MININT32, G_MAXINT32, &flag, NULL))
          return FALSE;
      if ((wiggle = read_number_text (&t, "the wiggle power", NULL)) == NULL)
        return FALSE;
      g_array_index (records, BoneRecord, b).end = t.lines.pos;
    }
  *rest = t.lines.pos;
  return TRUE;
}

/* The record of joint `j`: the one at its place when the bones are as
 * many as read, else the one of its name; NULL for a new bone */
static const BoneRecord *
record_of (const SqClip *clip,
           gsize         j,
           const GArray *records)
{
  if (records->len == clip->n_joints)
    return &g_array_index (records, BoneRecord, j);
  for (guint i = 0; i < records->len; i++)
    if (g_strcmp0 (g_array_index (records, BoneRecord, i).name, clip->joints[j].name) == 0)
      return &g_array_index (records, BoneRecord, i);
  return NULL;
}

/* One bone of the first skeleton from joint `j`: name, parent, position
 * and rotation from the clip, the other lines as read (the numbers' own
 * text where the value is the one read) */
static void
write_bone (GString          *out,
            const SqClip     *clip,
            gsize             j,
            const char       *text,
            const BoneRecord *r,
            const char       *eol)
{
  const SqJoint *joint = &clip->joints[j];
  const SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];
  gint64 parent = sq_props_get_int (joint->extra, "parent", -1);
  GVariant *offset = sq_props_get (joint->extra, "offset");
  double pos[3] = { 0, 0, 0 }, q[4] = { 1, 0, 0, 0 }, file[4];

  if (offset != NULL && g_variant_is_of_type (offset, G_VARIANT_TYPE ("(ddd)")))
    g_variant_get (offset, "(ddd)", &pos[0], &pos[1], &pos[2]);
  else if (r != NULL)
    memcpy (pos, r->v_pos, sizeof pos);
  if (rot->n_keys > 0)
    memcpy (q, sq_track_key (rot, 0).v, sizeof q);
  else if (r != NULL)
    _sq_sims_quat_from_file (r->v_rot, q);
  _sq_sims_quat_to_file (q, file);

  _sq_sims_put_string (out, joint->name, eol);
  _sq_sims_put_string (out, parent >= 0 && (gsize) parent < j ? clip->joints[parent].name : "NULL", eol);
  if (r != NULL)
    g_string_append_len (out, text + r->props, r->pos - r->props);
  else
    g_string_append_printf (out, "0%s", eol);
  if (r != NULL && memcmp (pos, r->v_pos, sizeof pos) == 0)
    g_string_append_len (out, text + r->pos, r->rot - r->pos);
  else
    _sq_sims_put_bars (out, pos, 3, FALSE, eol);
  if (r != NULL && memcmp (file, r->v_rot, sizeof file) == 0)
    g_string_append_len (out, text + r->rot, r->tail - r->rot);
  else
    _sq_sims_put_bars (out, file, 4, FALSE, eol);
  if (r != NULL)
    g_string_append_len (out, text + r->tail, r->end - r->tail);
  else
    /* a new bone rotates and blends, as most of the game's do */
    g_string_append_printf (out, "0%s1%s1%s0%s0%s", eol, eol, eol, eol, eol);
}

/* A skeleton clip: its first skeleton written from the joints (renamed,
 * moved or turned bones, bones added or deleted), the other skeletons and
 * the suits as read; what a skeleton cannot hold is reported */
static void
write_skeletons (GString      *out,
                 const SqClip *clip,
                 const char   *eol,
                 GPtrArray    *losses)
{
  GVariant *v = sq_props_get (clip->extra, "skeletons");
  g_autoptr(GBytes) text = v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_BYTESTRING)
                           ? g_variant_get_data_as_bytes (v) : NULL;
  g_autoptr(GArray) records = g_array_new (FALSE, TRUE, sizeof (BoneRecord));
  gsize name_end = 0, rest = 0;
  const char *data;

  g_array_set_clear_func (records, bone_record_clear);
  if (text == NULL || !scan_first_skeleton (text, &name_end, records, &rest))
    {
      /* no skeleton to write the joints into */
      put_text (out, clip->extra, "skeletons", NULL);
      if (clip->n_joints > 0)
        _sq_loss (losses, _("a CMX skeleton is written as it was read: edits to its bones are not saved"));
      return;
    }
  data = g_bytes_get_data (text, NULL);
  /* the skeleton count and name as read, the bone count anew */
  g_string_append_len (out, data, name_end);
  g_string_append_printf (out, "%zu%s", clip->n_joints, eol);
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];

      write_bone (out, clip, j, data, record_of (clip, j, records), eol);
      if (joint->tracks[SQ_CHANNEL_ROTATION].n_keys > 1)
        _sq_loss (losses, _("bone “%s”: a skeleton holds one rotation, its first key; %zu more are left out"),
                  joint->name, joint->tracks[SQ_CHANNEL_ROTATION].n_keys - 1);
      for (int c = 0; c < SQ_N_CHANNELS; c++)
        if (c != SQ_CHANNEL_ROTATION && joint->tracks[c].n_keys > 0)
          _sq_loss (losses, _("bone “%s”: a skeleton holds a rotation and an offset per bone: its %zu translation or scale keys are left out"),
                    joint->name, joint->tracks[c].n_keys);
    }
  g_string_append_len (out, data + rest, g_bytes_get_size (text) - rest);
}

static GPtrArray *
cmx_write (const SqClip        *clip,
           const SqSaveOptions *options,
           GPtrArray           *losses,
           GError             **error)
{
  const char *eol = _sq_sims_eol (clip);
  /* a skill when one was read, or for a clip from elsewhere */
  gboolean skill = sq_props_get (clip->extra, "skill") != NULL || sq_props_get (clip->extra, "skeletons") == NULL;
  g_autofree char *zeros = g_strconcat ("0", eol, "0", eol, NULL);
  g_autoptr(GBytes) cfp = NULL;
  GString *out = g_string_new (NULL);

  /* unedited: the bytes read, and the CFP kept (the writer below gives
   * the same for files written as the game writes them) */
  if (!options->no_source_copy && clip->source != NULL && clip->format == &_sq_format_sims_cmx
      && !sq_clip_is_modified (clip) && options->companions != NULL && sq_props_get (clip->extra, "cfp-bytes") != NULL
      && g_strcmp0 (cfp_base (clip, options), _sq_sims_string_extra (clip, "cfp", NULL)) == 0)
    {
      SqCompanion *c = g_new0 (SqCompanion, 1);

      c->name = g_strconcat (cfp_base (clip, options), ".cfp", NULL);
      c->bytes = g_variant_get_data_as_bytes (sq_props_get (clip->extra, "cfp-bytes"));
      g_ptr_array_add (options->companions, c);
      g_string_free (out, TRUE);
      return _sq_pieces_new (g_bytes_ref (clip->source));
    }
  if (!options->no_source_copy && clip->source != NULL && clip->format == &_sq_format_sims_cmx
      && !sq_clip_is_modified (clip) && sq_props_get (clip->extra, "skill") == NULL)
    {
      g_string_free (out, TRUE);
      return _sq_pieces_new (g_bytes_ref (clip->source));
    }
  _sq_sims_put_string (out, _sq_sims_string_extra (clip, "comment", "// Character File. Written by Sequin"), eol);
  _sq_sims_put_string (out, _sq_sims_string_extra (clip, "version", "version 300"), eol);
  if (skill)
    put_text (out, clip->extra, "skeletons", zeros);
  else
    write_skeletons (out, clip, eol, losses);
  if (skill)
    {
      gboolean others = sq_props_get (clip->extra, "more-skills") != NULL
                        || sq_props_get (clip->extra, "skills-before") != NULL;
      gint64 n_skills = others ? MAX (sq_props_get_int (clip->extra, "skill-count", 1), 1) : 1;

      if (options->companions == NULL)
        {
          g_string_free (out, TRUE);
          g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                               _("a CMX skill is written with its CFP file, and this save gave no place for it"));
          return NULL;
        }
      g_string_append_printf (out, "%" PRId64 "%s", n_skills, eol);
      put_text (out, clip->extra, "skills-before", NULL);
      if (!write_skill (out, clip, options, eol, &cfp, error))
        {
          g_string_free (out, TRUE);
          return NULL;
        }
      put_text (out, clip->extra, "more-skills", NULL);
    }
  else
    g_string_append_printf (out, "0%s", eol);
  put_text (out, clip->extra, "trailer", NULL);

  if (cfp != NULL)
    {
      SqCompanion *c = g_new0 (SqCompanion, 1);
      const char *read_as = _sq_sims_string_extra (clip, "cfp", NULL);

      c->name = g_strconcat (cfp_base (clip, options), ".cfp", NULL);
      c->bytes = g_steal_pointer (&cfp);
      g_ptr_array_add (options->companions, c);
      /* a CFP of its own, not the one the skill was read with */
      if (options->notes != NULL && g_strcmp0 (read_as, cfp_base (clip, options)) != 0)
        _sq_loss (options->notes, _("keys in %s"), c->name);
    }
  return _sq_pieces_new (g_string_free_to_bytes (out));
}

static char *
cmx_describe_field (const char *key,
                    GVariant   *value)
{
  if (g_str_equal (key, "skeletons"))
    {
      gsize n, digits = 0;
      const char *p = g_variant_get_fixed_array (value, &n, 1);

      /* "0" and "0": no skeleton, no suit, nothing lost */
      for (gsize i = 0; i < n; i++)
        if (!g_ascii_isspace (p[i]))
          digits += p[i] == '0' ? 1 : 100;
      return digits == 2 ? NULL : g_strdup (_("the CMX's skeletons and suits"));
    }
  if (g_str_equal (key, "more-skills"))
    return g_strdup (_("the CMX's other skills"));
  if (g_str_equal (key, "skills-before"))
    return g_strdup (_("the CMX's skills before this one"));
  if (g_str_equal (key, "motion-props") || g_str_equal (key, "motion-time-props"))
    {
      gsize n = g_variant_get_size (value);
      /* "0" and a line end: an empty list loses nothing */
      return n > 3 ? g_strdup (_("the skill's props and time props")) : NULL;
    }
  if (g_str_equal (key, "skill-distance"))
    return g_strdup (_("the skill's distance"));
  if (g_str_equal (key, "skill-moving"))
    return g_strdup (_("the skill's is-moving flag"));
  return NULL;
}

/* Texts kept as read are shown as text; the CFP by its size */
static gboolean
cmx_dump_field (GString    *out,
                const char *key,
                GVariant   *value,
                gboolean    json)
{
  gsize n;
  const guint8 *p;
  g_autofree char *text = NULL;

  if (!g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
    return FALSE;
  p = g_variant_get_fixed_array (value, &n, 1);
  if (g_str_equal (key, "cfp-bytes"))
    {
      g_string_append_printf (out, json ? "{\"size\":%zu}" : _("%zu bytes"), n);
      return TRUE;
    }
  text = _sq_latin1_to_utf8 (p, n);
  if (json)
    _sq_json_string (out, text);
  else
    {
      g_strdelimit (text, "\r\n", ' ');
      g_string_append (out, text);
    }
  return TRUE;
}

static int
cmx_probe (const guint8 *data,
           gsize         len)
{
  const guint8 *nl;

  if (len < 2 || data[0] != '/' || data[1] != '/')
    return 0;
  /* a comment line, then "version " */
  nl = memchr (data, '\n', MIN (len, 256));
  if (nl != NULL
      && (gsize) (nl + 1 - data) + 8 <= len && memcmp (nl + 1, "version ", 8) == 0)
    return 90;
  return 0;
}

/* ---- companions (sq_save_files) ----------------------------------------- */

/* the CFPs a CMX's skills name, "….cfp"; NULL when it is no CMX */
static char **
cmx_companions_in (GBytes *bytes)
{
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_autofree char *comment = NULL, *version = NULL;
  SqSimsText t;
  gint64 n = 0;

  _sq_sims_text_init (&t, bytes, "CMX");
  if ((comment = _sq_sims_text_string (&t, "the comment line", NULL)) == NULL || !g_str_has_prefix (comment, "//")
      || (version = _sq_sims_text_string (&t, "the version line", NULL)) == NULL
      || !read_skeletons (&t, NULL, NULL) || !skip_suits (&t, NULL)
      || !read_count (&t, "skill count", 17, &n, NULL))
    return NULL;
  for (gint64 i = 0; i < n; i++)
    {
      Skill s = { 0 };
      gboolean good = read_skill (&t, bytes, &s, NULL);

      if (s.cfp != NULL)
        {
          g_autofree char *file = g_strconcat (s.cfp, ".cfp", NULL);
          g_strv_builder_add (names, file);
        }
      skill_clear (&s);
      if (!good)
        break;
    }
  return g_strv_builder_end (names);
}

static char **
cmx_companions_of (const SqClip *clip)
{
  const char *cfp = _sq_sims_string_extra (clip, "cfp", NULL);
  char **names = g_new0 (char *, 2);

  if (sq_props_get (clip->extra, "skill") != NULL && cfp != NULL && cfp[0] != '\0')
    names[0] = g_strconcat (cfp, ".cfp", NULL);
  return names;
}

/* "mirrored.cmx" keeps its keys in "xskill-mirrored.cfp" */
static char **
cmx_companions_for (const char *out_name)
{
  const char *dot = strrchr (out_name, '.');
  g_autofree char *stem = g_strndup (out_name, dot != NULL && dot != out_name ? (gsize) (dot - out_name) : strlen (out_name));
  char **names = g_new0 (char *, 2);

  names[0] = g_strconcat ("xskill-", stem, ".cfp", NULL);
  return names;
}

const SqFormat _sq_format_sims_cmx = {
  .id = "sims-cmx",
  .name = N_("The Sims CMX skill or skeleton"),
  .extensions = cmx_extensions,
  .mime_type = "text/x-sims-cmx",
  .default_root = "ROOT",
  .flags = SQ_FORMAT_READ | SQ_FORMAT_WRITE | SQ_FORMAT_TEXT | SQ_FORMAT_COMPANIONS,
  .fields = cmx_fields,
  .describe_field = cmx_describe_field,
  .dump_field = cmx_dump_field,
  .probe = cmx_probe,
  .read = cmx_read,
  .write = cmx_write,
  .space = &sq_space_sims,
  .world = &sq_world_sims,
  .field_set = &sq_sims_skill_fields,
  .companions_in = cmx_companions_in,
  .companions_of = cmx_companions_of,
  .companions_for = cmx_companions_for,
};
