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
#include "worlds/sq-world-aw.h"

/* A line of blanks (spaces, tabs, commas) and perhaps a comment (# or //) */
static gboolean
is_blank_or_comment (const char *line,
                     gsize       len)
{
  const char *p = line, *end = line + len;

  while (p < end && (*p == ' ' || *p == '\t' || *p == ','))
    p++;
  return p >= end || _sq_text_at_comment (p, end);
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

/* "name frames=K": finds the frames= assignment at the end of the line.
 * K all digits but beyond 64 bits: TRUE with *too_large set (and *frames 0),
 * so that the reader can say so rather than see no header at all. */
static gboolean
parse_limb_header (const char *line,
                   gsize       len,
                   char      **name,
                   gint64     *frames,
                   guint      *error_column,
                   gboolean   *too_large)
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
    *too_large = FALSE;
    if (!_sq_parse_int64 (line + v, end - v, frames))
      {
        gsize d = v + (v < end && line[v] == '+');

        if (d == end)
          return FALSE;
        for (gsize i = d; i < end; i++)
          if (!g_ascii_isdigit (line[i]))
            return FALSE;
        *too_large = TRUE;
        *frames = 0;
      }
  }
  kw = eq;
  while (kw > 0 && (line[kw - 1] == ' ' || line[kw - 1] == '\t'))
    kw--;
  name_end = kw;
  while (kw > 0 && line[kw - 1] != ' ' && line[kw - 1] != '\t' && line[kw - 1] != ',')
    kw--;
  if (!_sq_text_equal_ci (line + kw, name_end - kw, "frames"))
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

/* ---- reading in parts ------------------------------------------------------
 *
 * A large file is read in parts on several threads (sq-parallel.h): the
 * bytes after the header are cut at about equal offsets; every part after
 * the first starts at the first line at or after its offset shaped as a
 * limb header (not blank or a comment, taken by parse_limb_header), and the
 * part before it hands over where it meets, at or after that offset, a limb
 * header where one is due. Both are the same line: the lines the earlier
 * part reads in between as key lines, blank lines or comments are not so
 * shaped, and a line so shaped is never a key line (its “frames” field is no
 * number), so where the earlier part takes it for one it fails there and
 * the later part's work goes unused. Each part counts its lines from its
 * start and keeps its warnings and first error as data; merge_parts puts
 * them together in file order with the limb count of the header, as one pass
 * from the start would meet them. With a part per processor, a thread more
 * making the keys' pages present ahead (_sq_prefault_start) did not pay
 * on two cores; nor does a pass for NUL bytes over the whole file,
 * which fail every key line: the parts look for them in the other lines,
 * and seq_text_read when the reading fails. */

/* A warning of a part, written out by emit_warning */
typedef enum
{
  WARN_UNSORTED,
  WARN_ZERO_AXIS,
  WARN_FEW_KEYS,
  WARN_NOT_AT_ZERO,
  WARN_AFTER_END,
  WARN_NONE_AFTER_ZERO
} WarnKind;

typedef struct
{
  WarnKind kind;
  guint    line;            /* in the part's count */
  gsize    limb;            /* the part's limb it is about */
  double   value;           /* an angle, a time in ms */
  gsize    n;               /* a key count */
} Warn;

typedef enum
{
  PART_HANDOFF,             /* at the next part's first limb header */
  PART_EOF,
  PART_FAILED
} PartEnd;

/* Where a part's error falls beside the check of the header's limb count,
 * which only merge_parts can make (see there) */
typedef enum
{
  FAIL_KEYS,                /* in a limb's key lines */
  FAIL_FINISH,              /* closing a limb at the next limb header, before its count is checked */
  FAIL_HEADER,              /* in a limb header line, after its count is checked */
  FAIL_TRUNCATED,           /* the file ends inside a limb's key lines */
  FAIL_FINISH_EOF           /* closing the last limb at the end of the file */
} FailKind;

typedef struct
{
  /* set before reading */
  GBytes     *text;         /* the bytes read (data lies in them) */
  const char *data;
  gsize       len;
  gsize       from;         /* the first part: where its lines start; the others: see above */
  gsize       next_from;    /* the next part's offset; G_MAXSIZE for the last part */
  gint64      duration_ms;
  gboolean    first;
  /* results */
  guint       n_lines;      /* the number of the last line read, in the part's count */
  SqClip     *limbs;        /* the part's limbs, moved to the clip by merge_parts */
  GArray     *limb_lines;   /* guint: each limb header's line */
  GArray     *warns;        /* Warn, in the order met */
  PartEnd     end;
  FailKind    fail_kind;
  SqErrorCode fail_code;
  guint       fail_line;
  guint       fail_column;
  char       *fail_message;
} Part;

static void
part_warn (Part     *part,
           WarnKind  kind,
           guint     line,
           double    value,
           gsize     n)
{
  Warn w = { kind, line, part->limbs->n_joints - 1, value, n };

  g_array_append_val (part->warns, w);
}

static void part_fail (Part        *part,
                       FailKind     kind,
                       SqErrorCode  code,
                       guint        line,
                       guint        column,
                       const char  *format,
                       ...) G_GNUC_PRINTF (6, 7);

static void
part_fail (Part        *part,
           FailKind     kind,
           SqErrorCode  code,
           guint        line,
           guint        column,
           const char  *format,
           ...)
{
  va_list args;

  part->end = PART_FAILED;
  part->fail_kind = kind;
  part->fail_code = code;
  part->fail_line = line;
  part->fail_column = column;
  va_start (args, format);
  part->fail_message = g_strdup_vprintf (format, args);
  va_end (args);
}

static void
emit_warning (SqClip     *clip,
              const Warn *w,
              guint       line,
              const char *name,
              gint64      duration_ms)
{
  switch (w->kind)
    {
    case WARN_UNSORTED:
      sq_clip_add_warning (clip, _("line %u: limb “%s” keys are not in time order; they are sorted"),
                           line, name);
      break;
    case WARN_ZERO_AXIS:
      sq_clip_add_warning (clip, _("line %u: limb “%s”: a zero axis with a %g° angle is read as no rotation"),
                           line, name, w->value);
      break;
    case WARN_FEW_KEYS:
      sq_clip_add_warning (clip, _("line %u: limb “%s” has %zu key(s); text SEQ needs at least two"),
                           line, name, w->n);
      break;
    case WARN_NOT_AT_ZERO:
      sq_clip_add_warning (clip, _("line %u: limb “%s” starts at %.0f ms; text SEQ needs a key at 0"),
                           line, name, w->value);
      break;
    case WARN_AFTER_END:
      sq_clip_add_warning (clip, _("line %u: limb “%s” ends at %.0f ms, after the duration of %" PRId64 " ms"),
                           line, name, w->value, duration_ms);
      break;
    case WARN_NONE_AFTER_ZERO:
      sq_clip_add_warning (clip, _("line %u: limb “%s” has no key after 0 ms"), line, name);
      break;
    }
}

static void
check_limb_rules (Part    *part,
                  SqTrack *rot,
                  guint    line)
{
  if (rot->n_keys < 2)
    part_warn (part, WARN_FEW_KEYS, line, 0.0, rot->n_keys);
  if (rot->n_keys > 0 && sq_track_time (rot, 0) != 0.0)
    part_warn (part, WARN_NOT_AT_ZERO, line, sq_track_time (rot, 0) * 1000.0, 0);
  if (rot->n_keys > 0)
    {
      double last = floor (sq_track_time (rot, rot->n_keys - 1) * 1000.0 + 0.5);
      if (last > (double) part->duration_ms)
        part_warn (part, WARN_AFTER_END, line, last, 0);
      else if (last <= 0.0 && rot->n_keys >= 2)
        part_warn (part, WARN_NONE_AFTER_ZERO, line, 0.0, 0);
    }
}

/* How a limb's key times came (add_key), for finish_limb */
enum
{
  TIMES_BACKWARDS = 1 << 0,     /* a key before the one before it: sorted, warned once */
  TIMES_NOT_RISING = 1 << 1     /* a key at or before the one before it */
};

/* Sorts a limb's keys (unless they came in time order) and refuses two at
 * one time. */
static gboolean
finish_limb (Part     *part,
             SqJoint  *joint,
             guint     line,
             guint     times,
             FailKind  kind)
{
  /* every channel's keys share the rotation keys' times, checked as they
   * came: rising times have no two alike */
  for (guint c = 0; c < SQ_N_CHANNELS && (times & TIMES_NOT_RISING); c++)
    {
      SqTrack *track = &joint->tracks[c];

      if (times & TIMES_BACKWARDS)
        sq_track_sort (track);
      for (gsize k = 1; k < track->n_keys; k++)
        if (track->keys[k].time == track->keys[k - 1].time)
          {
            part_fail (part, kind, SQ_ERROR_BAD_VALUE, line, 1,
                       _("limb “%s” has two keys at %.0f ms"), joint->name,
                       track->keys[k].time * 1000.0);
            return FALSE;
          }
    }
  check_limb_rules (part, &joint->tracks[SQ_CHANNEL_ROTATION], line);
  return TRUE;
}

/* One key line's numbers into the limb's tracks (a limb that cannot stay
 * packed: see store_limb) */
static void
add_key (SqJoint      *joint,
         gint64        ms,
         const double *num,
         guint         n)
{
  SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];
  SqTrack *pos = &joint->tracks[SQ_CHANNEL_TRANSLATION];
  double t = ms / 1000.0;
  SqKey *key;
  double *alt;

  key = sq_track_append (rot, t);
  alt = &rot->alt[(rot->n_keys - 1) * 4];
  memcpy (alt, &num[1], 4 * sizeof (double));
  sq_axis_angle_to_quat (alt, key->v);

  key = sq_track_append (pos, t);
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

/* The limb being read: where each of its key lines starts (its keys are
 * made from them when the limb ends, store_limb) and what the lines said
 * so far */
typedef struct
{
  GArray  *lines;             /* const char *: each key line's first byte */
  double   last_time;         /* of the last key line */
  guint    times;             /* TIMES_* */
  gboolean plain;             /* every line has 8 fields (no scale) */
} LimbKeys;

/* A key line read: the checks that need only it and the one before it
 * (time order, a zero axis), and where it starts */
static void
note_key (Part         *part,
          LimbKeys     *lk,
          guint         line,
          const char   *start,
          gint64        ms,
          const double *num,
          guint         n)
{
  double t = ms / 1000.0, q[4];

  if (G_UNLIKELY (lk->lines->len > 0 && lk->last_time >= t))
    {
      lk->times |= TIMES_NOT_RISING;
      if (lk->last_time > t && !(lk->times & TIMES_BACKWARDS))
        {
          part_warn (part, WARN_UNSORTED, line, 0.0, 0);
          lk->times |= TIMES_BACKWARDS;
        }
    }
  lk->last_time = t;
  if (!sq_axis_angle_to_quat (&num[1], q))
    part_warn (part, WARN_ZERO_AXIS, line, num[4], 0);
  lk->plain &= n == 8;
  g_array_append_val (lk->lines, start);
}

/* 1: a separator between fields; 2: a line end */
static const guint8 field_end[256] = {
  [' '] = 1, ['\t'] = 1, [','] = 1, [';'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 2, ['\n'] = 2,
};

/* A key line of the usual shape read straight from the buffer, without
 * finding its end first: separators, the time in whole
 * milliseconds, 7 or 10 numbers, each field ended by a separator or the
 * line end (LF, CRLF or a lone CR, as _sq_lines_next takes them). The
 * key lines are most of a file: this scan stays here, over the shared
 * reader's primitives, rather than going through SqLines, which finds
 * each line's end first (a second pass over the bytes). Returns
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
  *next = p < end ? _sq_text_after_line_end (p, end) : p;
  return n;
}

/* A line shaped as a limb header (not blank or a comment, taken by
 * parse_limb_header): never a key line */
static gboolean
is_limb_header (const char *line,
                gsize       len)
{
  g_autofree char *name = NULL;
  gint64 frames;
  guint col;
  gboolean too_large;

  /* a count beyond 64 bits fails where it stands (read_part says why) */
  return !is_blank_or_comment (line, len) && parse_limb_header (line, len, &name, &frames, &col, &too_large)
         && !too_large;
}

/* How a key line's fields read (parse_fields) */
typedef enum
{
  FIELDS_OK,
  FIELDS_TOO_MANY,            /* more than 11 */
  FIELDS_BAD_TIME,            /* the first is no whole number */
  FIELDS_BAD_NUMBER           /* another is no number */
} FieldsResult;

/* The fields of a key line [cur, end) of the text that ends at text_end,
 * each scanned as a number where it stands: the time in whole milliseconds
 * into *ms, the rest into num[1..]; *n the count of fields; *col the
 * column of a field in error. The one reading of a line the fast scan
 * (scan_key_line) does not take, at reading and when a packed key is
 * decoded. */
static FieldsResult
parse_fields (const char *cur,
              const char *end,
              const char *text_end,
              gint64     *ms,
              double     *num,
              guint      *n,
              guint      *col)
{
  const char *p = cur;

  *n = 0;
  for (;;)
    {
      const char *field, *stop;

      while (p < end && _sq_sep_table[(guint8) *p])
        p++;
      if (p >= end)
        return FIELDS_OK;
      field = p;
      *col = (guint) (field - cur) + 1;
      if (*n >= 11)
        return FIELDS_TOO_MANY;
      if (*n == 0)
        {
          stop = p;
          while (stop < end && !_sq_sep_table[(guint8) *stop])
            stop++;
          if (!_sq_parse_int64 (field, stop - field, ms))
            return FIELDS_BAD_TIME;
        }
      else if ((stop = _sq_scan_double_in (field, end, text_end, &num[*n])) == NULL
               || (stop < end && !_sq_sep_table[(guint8) *stop]))
        return FIELDS_BAD_NUMBER;
      p = stop;
      (*n)++;
    }
}

/* A key line read before, starting at `p`, read again: its field count */
static guint
reparse_key (const char *p,
             const char *text_end,
             gint64     *ms,
             double     *num)
{
  const char *next, *end = p;
  guint n, col;

  if ((n = scan_key_line (p, text_end, ms, num, &next)) != 0)
    return n;
  while (end < text_end && *end != '\n' && *end != '\r')
    end++;
  return parse_fields (p, end, text_end, ms, num, &n, &col) == FIELDS_OK ? n : 0;
}

/* ---- packed limbs ----------------------------------------------------------
 *
 * A limb whose key lines all have 8 fields, in rising time, keeps its keys
 * as its lines: a track's records are pointers to each key line's first
 * byte, and a key is read from its line again when it is asked for (the
 * same scan as at reading, so the same values). The records follow a small
 * header with the text they point into. Both channels of a limb share the
 * records; a track costs 8 bytes a key instead of 40 (72 with the
 * axis-angle kept for the rotation). */
typedef struct
{
  GBytes     *text;           /* the bytes read, held while the records are */
  const char *text_end;
  gsize       n;
  const char *lines[];        /* the records */
} LineRecords;

#define LINE_STRIDE sizeof (const char *)

static void
line_records_free (gpointer data)
{
  LineRecords *lr = data;

  g_bytes_unref (lr->text);
  g_free (lr);
}

static const LineRecords *
line_records (const SqTrack *track)
{
  return g_bytes_get_data (track->packed_bytes, NULL);
}

static guint
line_key_read (const SqTrack *track,
               const guint8  *record,
               gint64        *ms,
               double        *num)
{
  const char *p;

  memcpy (&p, record, sizeof p);
  return reparse_key (p, line_records (track)->text_end, ms, num);
}

static double
line_time (const SqTrack *track,
           const guint8  *record)
{
  const char *p, *next;
  gint64 ms = 0;
  double num[11];

  memcpy (&p, record, sizeof p);
  if (scan_key_line (p, line_records (track)->text_end, &ms, num, &next) == 0)
    line_key_read (track, record, &ms, num);
  return ms / 1000.0;
}

static void
line_rotation (const SqTrack *track,
               const guint8  *record,
               SqKey         *key)
{
  gint64 ms = 0;
  double num[11] = { 0 };

  line_key_read (track, record, &ms, num);
  key->time = ms / 1000.0;
  sq_axis_angle_to_quat (&num[1], key->v);
}

static void
line_translation (const SqTrack *track,
                  const guint8  *record,
                  SqKey         *key)
{
  gint64 ms = 0;
  double num[11] = { 0 };

  line_key_read (track, record, &ms, num);
  key->time = ms / 1000.0;
  memcpy (key->v, &num[5], 3 * sizeof (double));
  key->v[3] = 0.0;
}

/* unpacked for an edit: the axis-angles are kept in SqTrack.alt, so that
 * the keys an edit leaves alone are still written as they were read */
static void
line_rotation_unpacked (SqTrack       *track,
                        const SqTrack *packed)
{
  sq_track_ensure_alt (track);
  for (gsize i = 0; i < track->n_keys; i++)
    {
      gint64 ms;
      double num[11] = { 0 };

      line_key_read (packed, packed->packed + i * LINE_STRIDE, &ms, num);
      memcpy (&track->alt[i * 4], &num[1], 4 * sizeof (double));
    }
}

/* unpacked in one pass: each line read once for its key and axis-angle */
static void
line_rotation_unpack (SqTrack       *track,
                      const SqTrack *packed)
{
  sq_track_ensure_alt (track);
  for (gsize i = 0; i < track->n_keys; i++)
    {
      gint64 ms = 0;
      double num[11] = { 0 };

      line_key_read (packed, packed->packed + i * LINE_STRIDE, &ms, num);
      memcpy (&track->alt[i * 4], &num[1], 4 * sizeof (double));
      track->keys[i].time = ms / 1000.0;
      sq_axis_angle_to_quat (&num[1], track->keys[i].v);
    }
}

static const SqKeyCodec line_rotation_codec = { LINE_STRIDE, line_time, line_rotation, line_rotation_unpacked,
                                                line_rotation_unpack };
static const SqKeyCodec line_translation_codec = { LINE_STRIDE, line_time, line_translation, NULL };

/* The axis-angle a rotation key was read as, while it still converts to
 * exactly the key (a packed key: always) */
static gboolean
kept_axis_angle (const SqTrack *rot,
                 gsize          k,
                 const double   q[4],
                 double         aa[4])
{
  double back[4];

  if (rot->codec == &line_rotation_codec)
    {
      gint64 ms;
      double num[11] = { 0 };

      line_key_read (rot, rot->packed + k * LINE_STRIDE, &ms, num);
      memcpy (aa, &num[1], 4 * sizeof (double));
      return TRUE;
    }
  if (rot->alt == NULL || isnan (rot->alt[k * 4 + 3]))
    return FALSE;
  sq_axis_angle_to_quat (&rot->alt[k * 4], back);
  if (memcmp (back, q, sizeof back) != 0)
    return FALSE;
  memcpy (aa, &rot->alt[k * 4], 4 * sizeof (double));
  return TRUE;
}

/* The limb's keys from its key lines: packed where it can be (see above),
 * else read again into keys and axis-angles, sorted and checked
 * (finish_limb) */
static void
store_limb (Part       *part,
            SqJoint    *joint,
            LimbKeys   *lk)
{
  gsize n = lk->lines->len;

  if (lk->plain && !(lk->times & TIMES_NOT_RISING) && n > 0)
    {
      LineRecords *lr = g_malloc (sizeof *lr + n * LINE_STRIDE);
      g_autoptr(GBytes) records = NULL;

      lr->text = g_bytes_ref (part->text);
      lr->text_end = part->data + part->len;
      lr->n = n;
      memcpy (lr->lines, lk->lines->data, n * LINE_STRIDE);
      records = g_bytes_new_with_free_func (lr, sizeof *lr + n * LINE_STRIDE, line_records_free, lr);
      sq_track_pack (&joint->tracks[SQ_CHANNEL_ROTATION], &line_rotation_codec, records,
                     (const guint8 *) lr->lines, n, 0.0);
      sq_track_pack (&joint->tracks[SQ_CHANNEL_TRANSLATION], &line_translation_codec, records,
                     (const guint8 *) lr->lines, n, 0.0);
    }
  else
    {
      sq_track_reserve (&joint->tracks[SQ_CHANNEL_ROTATION], n);
      sq_track_reserve (&joint->tracks[SQ_CHANNEL_TRANSLATION], n);
      sq_track_ensure_alt (&joint->tracks[SQ_CHANNEL_ROTATION]);
      for (gsize i = 0; i < n; i++)
        {
          gint64 ms = 0;
          double num[11] = { 0 };
          guint fields = reparse_key (g_array_index (lk->lines, const char *, i), part->data + part->len, &ms, num);

          add_key (joint, ms, num, fields);
        }
    }
  g_array_set_size (lk->lines, 0);
}

/* Closes the limb being read: its keys stored, sorted and checked */
static gboolean
close_limb (Part     *part,
            SqJoint  *joint,
            LimbKeys *lk,
            guint     line,
            FailKind  kind)
{
  guint times = lk->times;

  store_limb (part, joint, lk);
  lk->times = 0;
  lk->plain = TRUE;
  return finish_limb (part, joint, line, times, kind);
}

/* A key line's fields in error: the part fails there */
static void
fail_fields (Part         *part,
             FieldsResult  r,
             guint         line,
             guint         col,
             const char   *limb)
{
  if (r == FIELDS_TOO_MANY)
    part_fail (part, FAIL_KEYS, SQ_ERROR_SYNTAX, line, col,
               _("limb “%s”: a key line has 8 or 11 numbers; this one has more"), limb);
  else if (r == FIELDS_BAD_TIME)
    part_fail (part, FAIL_KEYS, SQ_ERROR_SYNTAX, line, col, _("the time must be a whole number of milliseconds"));
  else
    part_fail (part, FAIL_KEYS, SQ_ERROR_SYNTAX, line, col, _("not a number"));
}

/* A limb header line read where one is due: FALSE when the part fails or
 * hands over there; else the new limb in *joint (the one before closed) */
static gboolean
start_limb (Part     *part,
            SqLines  *lines,
            SqJoint **joint,
            LimbKeys *lk,
            guint    *joint_line,
            gint64   *keys_left)
{
  g_autofree char *name = NULL;
  gint64 frames = 0;
  guint col = 1;
  gboolean too_large = FALSE;
  gsize len = part->len;
  const char *data = part->data;

  if (memchr (lines->cur, '\0', lines->cur_len) != NULL)
    {
      part_fail (part, FAIL_HEADER, SQ_ERROR_SYNTAX, lines->line, 1, _("a NUL byte in a text SEQ file"));
      return FALSE;
    }
  if (*joint != NULL && !close_limb (part, *joint, lk, *joint_line, FAIL_FINISH))
    return FALSE;
  *joint = NULL;
  if (!parse_limb_header (lines->cur, lines->cur_len, &name, &frames, &col, &too_large))
    {
      part_fail (part, FAIL_HEADER, SQ_ERROR_SYNTAX, lines->line, col,
                 _("expected a limb header “name frames=K”"));
      return FALSE;
    }
  if (too_large)
    {
      part_fail (part, FAIL_HEADER, SQ_ERROR_LIMIT_EXCEEDED, lines->line, col,
                 _("the frame count of limb “%s” is too large"), name);
      return FALSE;
    }
  if ((gsize) (lines->cur - data) >= part->next_from)
    {
      part->end = PART_HANDOFF;
      part->n_lines = lines->line - 1;
      return FALSE;
    }
  if (frames < 1)
    {
      part_fail (part, FAIL_HEADER, SQ_ERROR_BAD_VALUE, lines->line, col,
                 _("frames=%" PRId64 " for limb “%s” must be at least 1"), frames, name);
      return FALSE;
    }
  if ((guint64) frames > (len - lines->pos) / 2 + 1)
    {
      part_fail (part, FAIL_HEADER, SQ_ERROR_LIMIT_EXCEEDED, lines->line, col,
                 _("frames=%" PRId64 " for limb “%s” is more than the rest of the file can hold"),
                 frames, name);
      return FALSE;
    }
  *joint = sq_clip_add_joint (part->limbs, name);
  *joint_line = lines->line;
  g_array_append_val (part->limb_lines, *joint_line);
  /* room for the lines the header announces, up to a few thousand at
   * first: the count is the file's word, not yet its lines */
  g_array_set_size (lk->lines, MIN ((gsize) frames, 4096));
  g_array_set_size (lk->lines, 0);
  *keys_left = frames;
  return TRUE;
}

/* Reads the limb sections of one part (an SqItemFunc over an array of Part) */
static void
read_part (gsize    item,
           gpointer user_data)
{
  Part *part = &((Part *) user_data)[item];
  const char *data = part->data;
  gsize len = part->len;
  SqLines lines;
  gsize start;
  gint64 keys_left = 0;
  SqJoint *joint = NULL;
  guint joint_line = 0;
  LimbKeys lk = { g_array_new (FALSE, FALSE, sizeof (const char *)), 0.0, 0, TRUE };

  part->end = PART_EOF;
  _sq_lines_init (&lines, data, len);
  if (part->first)
    {
      lines.pos = part->from;
      lines.line = 1;         /* the header */
    }
  else
    {
      lines.pos = _sq_text_line_start_at_or_after (data, len, part->from);
      do
        if (!_sq_lines_next (&lines))
          goto out;
      while (!is_limb_header (lines.cur, lines.cur_len));
      /* counted from here: the limb header is the part's line 1 */
      start = lines.cur - data;
      _sq_lines_init (&lines, data, len);
      lines.pos = start;
    }

  for (;;)
    {
      guint n, col;
      double num[11];
      gint64 ms;
      FieldsResult r;

      if (keys_left > 0)
        {
          const char *next, *line_start = data + lines.pos;

          n = scan_key_line (line_start, data + len, &ms, num, &next);
          if (n != 0)
            {
              lines.line++;
              lines.pos = next - data;
              note_key (part, &lk, lines.line, line_start, ms, num, n);
              keys_left--;
              continue;
            }
        }
      if (!_sq_lines_next (&lines))
        break;
      /* a NUL byte fails every key line; elsewhere it is looked for here,
       * and seq_text_read reports it */
      if (is_blank_or_comment (lines.cur, lines.cur_len))
        {
          if (memchr (lines.cur, '\0', lines.cur_len) != NULL)
            {
              part_fail (part, FAIL_KEYS, SQ_ERROR_SYNTAX, lines.line, 1, _("a NUL byte in a text SEQ file"));
              goto out;
            }
          continue;
        }

      if (keys_left == 0)
        {
          if (!start_limb (part, &lines, &joint, &lk, &joint_line, &keys_left))
            goto out;
          continue;
        }

      /* a limb header where a key is due: the count said more keys */
      if (is_limb_header (lines.cur, lines.cur_len))
        {
          part_fail (part, FAIL_KEYS, SQ_ERROR_SYNTAX, lines.line, 1,
                     _("limb “%s” has %zu key line(s), fewer than the frames=%zu of its header"),
                     joint->name, (gsize) lk.lines->len, (gsize) lk.lines->len + (gsize) keys_left);
          goto out;
        }

      /* one pass: scan each field as a number where it stands */
      r = parse_fields (lines.cur, lines.cur + lines.cur_len, lines.data + lines.len, &ms, num, &n, &col);
      if (r != FIELDS_OK)
        {
          fail_fields (part, r, lines.line, col, joint->name);
          goto out;
        }
      if (n != 8 && n != 11)
        {
          part_fail (part, FAIL_KEYS, SQ_ERROR_SYNTAX, lines.line, (guint) lines.cur_len + 1,
                     _("limb “%s” expects %" PRId64 " more key line(s) of 8 or 11 numbers; this line has %u fields"),
                     joint->name, keys_left, n);
          goto out;
        }

      note_key (part, &lk, lines.line, lines.cur, ms, num, n);
      keys_left--;
    }

  part->n_lines = lines.line;
  if (keys_left > 0)
    part_fail (part, FAIL_TRUNCATED, SQ_ERROR_TRUNCATED, lines.line + 1, 1,
               _("the file ends %" PRId64 " key line(s) short of limb “%s”"),
               keys_left, joint->name);
  else if (joint != NULL)
    close_limb (part, joint, &lk, joint_line, FAIL_FINISH_EOF);
out:
  g_array_unref (lk.lines);
}

/* A part's limbs and their warnings into `clip`, after the limbs of the
 * parts before it (*seen of them; `base`: the file's line before the
 * part's first). FALSE, with the error set, where the header's limb count
 * runs out inside the part (a failed limb header of FAIL_HEADER counts as
 * the next limb). */
static gboolean
move_limbs (SqClip  *clip,
            Part    *part,
            guint    base,
            gint64  *seen,
            gint64   n_limbs,
            gint64   duration_ms,
            GError **error)
{
  gint64 created = (gint64) part->limbs->n_joints;
  gint64 over = n_limbs - *seen;
  gboolean too_many = over < created
    || (over == created && part->end == PART_FAILED && part->fail_kind == FAIL_HEADER);
  gint64 keep = too_many ? over : created;
  guint w = 0;

  for (gint64 k = 0; k < keep; k++)
    {
      SqJoint *src = &part->limbs->joints[k], *dest;
      guint line = base + g_array_index (part->limb_lines, guint, k);

      if (sq_clip_find_joint (clip, src->name) >= 0)
        sq_clip_add_warning (clip, _("line %u: limb “%s” appears more than once; edits by name act on the first"),
                             line, src->name);
      for (; w < part->warns->len && g_array_index (part->warns, Warn, w).limb == (gsize) k; w++)
        {
          const Warn *warn = &g_array_index (part->warns, Warn, w);
          emit_warning (clip, warn, base + warn->line, src->name, duration_ms);
        }
      /* the keys move over */
      dest = sq_clip_add_joint (clip, src->name);
      memcpy (dest->tracks, src->tracks, sizeof dest->tracks);
      memset (src->tracks, 0, sizeof src->tracks);
    }
  if (too_many)
    {
      guint line = over < created ? g_array_index (part->limb_lines, guint, over) : part->fail_line;

      sq_set_error_at_line (error, SQ_ERROR_SYNTAX, base + line, 1,
                            _("more data after the %" PRId64 " limbs the header announces"), n_limbs);
      return FALSE;
    }
  *seen += created;
  return TRUE;
}

/* The parts' limbs, warnings and first error into `clip`, in file order,
 * with the header's limb count: a pass from the start checks the count at
 * each limb header after closing the limb before it, then reads the header;
 * at the end of the file it reports a limb short of keys, then too few
 * limbs, then closes the last limb. The parts meet where one hands over
 * (see "reading in parts"); the last part never hands over. */
static gboolean
merge_parts (SqClip  *clip,
             Part    *parts,
             gint64   n_limbs,
             gint64   duration_ms,
             GError **error)
{
  guint base = 0;             /* a part's line n is line base + n of the file */
  gint64 seen = 0;
  Part *part;

  for (part = parts;; part++)
    {
      if (!move_limbs (clip, part, base, &seen, n_limbs, duration_ms, error))
        return FALSE;
      if (part->end != PART_HANDOFF)
        break;
      base += part->n_lines;
    }
  if (part->end == PART_FAILED && part->fail_kind != FAIL_FINISH_EOF)
    {
      sq_set_error_at_line (error, part->fail_code, base + part->fail_line, part->fail_column,
                            "%s", part->fail_message);
      return FALSE;
    }
  /* the end of the file, the limbs closed */
  if (seen < n_limbs)
    {
      sq_set_error_at_line (error, SQ_ERROR_TRUNCATED, base + part->n_lines + 1, 1,
                            _("the header announces %" PRId64 " limbs but the file has %" PRId64),
                            n_limbs, seen);
      return FALSE;
    }
  if (part->end == PART_FAILED)
    {
      sq_set_error_at_line (error, part->fail_code, base + part->fail_line, part->fail_column,
                            "%s", part->fail_message);
      return FALSE;
    }
  return TRUE;
}

/* The header, then the limbs in parts */
static SqClip *
read_text (GBytes              *bytes,
           const SqLoadOptions *options,
           GError             **error)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  SqLines lines;
  Assign assigns[8];
  guint n_assign;
  gint64 version = -1, n_limbs = -1, duration_ms = -1;
  guint max_joints = options->max_joints ? options->max_joints : 65536;
  guint n_parts;
  Part *parts;
  g_autofree gsize *costs = NULL;
  gboolean ok;

  if (len >= 3 && (guint8) data[0] == 0xef && (guint8) data[1] == 0xbb && (guint8) data[2] == 0xbf)
    {
      sq_props_set (clip->extra, "bom", g_variant_new_boolean (TRUE));
      data += 3;
      len -= 3;
    }

  _sq_lines_init (&lines, data, len);
  if (!_sq_lines_next (&lines) || lines.cur_len < 4 || g_ascii_strncasecmp (lines.cur, "AWSQ", 4) != 0)
    {
      sq_set_error_at_line (error, SQ_ERROR_BAD_MAGIC, 1, 1, _("the first line is not an “AWSQ …” header"));
      return NULL;
    }
  if (memchr (lines.cur, '\0', lines.cur_len) != NULL)
    {
      /* seq_text_read reports it */
      sq_set_error_at_line (error, SQ_ERROR_SYNTAX, 1, 1, _("a NUL byte in a text SEQ file"));
      return NULL;
    }

  n_assign = parse_assignments (lines.cur, lines.cur_len, 4, assigns, G_N_ELEMENTS (assigns));
  for (guint i = 0; i < MIN (n_assign, G_N_ELEMENTS (assigns)); i++)
    {
      Assign *a = &assigns[i];
      gint64 *target = NULL;

      if (_sq_text_equal_ci (a->key, a->key_len, "Version"))
        target = &version;
      else if (_sq_text_equal_ci (a->key, a->key_len, "Limbs"))
        target = &n_limbs;
      else if (_sq_text_equal_ci (a->key, a->key_len, "Duration"))
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

  /* the parts: as many as threads would take them, each to start at about
   * an equal share of the bytes after the header */
  n_parts = MAX (_sq_parallel_threads (len - lines.pos), 1);
  parts = g_new0 (Part, n_parts);
  costs = g_new (gsize, n_parts);
  for (guint t = 0; t < n_parts; t++)
    {
      parts[t].text = bytes;
      parts[t].data = data;
      parts[t].len = len;
      parts[t].from = lines.pos + (len - lines.pos) / n_parts * t;
      parts[t].duration_ms = duration_ms;
      parts[t].first = t == 0;
      /* made here: a new clip takes a number under a lock thread
       * checkers do not see */
      parts[t].limbs = sq_clip_new ();
      parts[t].limb_lines = g_array_new (FALSE, FALSE, sizeof (guint));
      parts[t].warns = g_array_new (FALSE, FALSE, sizeof (Warn));
    }
  for (guint t = 0; t < n_parts; t++)
    {
      parts[t].next_from = t + 1 < n_parts ? parts[t + 1].from : G_MAXSIZE;
      costs[t] = (t + 1 < n_parts ? parts[t + 1].from : len) - parts[t].from;
    }
  _sq_parallel_items (n_parts, costs, read_part, parts);

  ok = merge_parts (clip, parts, n_limbs, duration_ms, error);
  for (guint t = 0; t < n_parts; t++)
    {
      sq_clip_free (parts[t].limbs);
      g_array_unref (parts[t].limb_lines);
      g_array_unref (parts[t].warns);
      g_free (parts[t].fail_message);
    }
  g_free (parts);
  if (!ok)
    return NULL;
  return g_steal_pointer (&clip);
}

static SqClip *
seq_text_read (GBytes              *bytes,
               const SqLoadOptions *options,
               GError             **error)
{
  GError *local_error = NULL;
  SqClip *clip = read_text (bytes, options, &local_error);
  gsize len;
  const char *data, *nul;

  if (clip != NULL)
    return clip;

  /* the parts look for NUL bytes only where no key line fails on them:
   * one anywhere in the file is the error */
  data = g_bytes_get_data (bytes, &len);
  if (len >= 3 && (guint8) data[0] == 0xef && (guint8) data[1] == 0xbb && (guint8) data[2] == 0xbf)
    {
      data += 3;
      len -= 3;
    }
  nul = len > 0 ? memchr (data, '\0', len) : NULL;
  if (nul != NULL)
    {
      g_clear_error (&local_error);
      sq_set_error_at_offset (error, SQ_ERROR_SYNTAX, nul - data, _("a NUL byte in a text SEQ file"));
      return NULL;
    }
  g_propagate_error (error, local_error);
  return NULL;
}

/* ---- writing ------------------------------------------------------------- */

typedef struct
{
  gint64 ms;
  gssize idx[3];       /* the key of each channel written on this line, or -1 */
} Line;

/* The values of the line being written (kept apart from Line, so
 * that the lines of a big clip take a fifth of the memory) */
typedef struct
{
  double rot[4];       /* quaternion */
  double aa[4];        /* axis-angle to write */
  double pos[4];
  double scale[4];
  gboolean pos_read;   /* pos came with aa from the line read (read_line_values) */
} LineValues;

/* A packed limb's key line read once for what the writer needs of it: the
 * axis-angle of rotation key ri and, when translation key pi is on the
 * same line, its position; FALSE when rotation key ri is not packed */
static gboolean
read_line_values (const SqTrack *rot,
                  const SqTrack *pos,
                  gssize         ri,
                  gssize         pi,
                  LineValues    *lv)
{
  gint64 ms;
  double num[11] = { 0 };
  const guint8 *record;

  lv->pos_read = FALSE;
  if (rot->codec != &line_rotation_codec)
    return FALSE;
  record = rot->packed + (gsize) ri * LINE_STRIDE;
  line_key_read (rot, record, &ms, num);
  memcpy (lv->aa, &num[1], 4 * sizeof (double));
  if (pi >= 0 && pos->codec == &line_translation_codec
      && memcmp (pos->packed + (gsize) pi * LINE_STRIDE, record, LINE_STRIDE) == 0)
    {
      memcpy (lv->pos, &num[5], 3 * sizeof (double));
      lv->pos_read = TRUE;
    }
  return TRUE;
}

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
      const Line *ln = &g_array_index (lines, Line, k);
      LineValues lv = { .pos_read = FALSE };
      double t = ln->ms / 1000.0;
      gssize ri = ln->idx[0];
      gboolean have_alt = FALSE;

      if (ri >= 0 && read_line_values (rot, pos, ri, ln->idx[1], &lv))
        have_alt = TRUE;
      else if (ri >= 0)
        {
          memcpy (lv.rot, sq_track_key (rot, ri).v, sizeof lv.rot);
          have_alt = kept_axis_angle (rot, ri, lv.rot, lv.aa);
        }
      else
        sq_track_sample (rot, SQ_CHANNEL_ROTATION, t, lv.rot);
      if (!have_alt)
        sq_quat_to_axis_angle (lv.rot, lv.aa);
      /* text SEQ has no way to write a value that is not a number */
      if (!isfinite (lv.aa[0] + lv.aa[1] + lv.aa[2] + lv.aa[3]))
        {
          static const double none[4] = { 0, 0, 1, 0 };
          memcpy (lv.aa, none, sizeof none);
          not_numbers++;
        }
      if (have_alt && lv.pos_read)
        ;
      else if (ln->idx[1] >= 0)
        memcpy (lv.pos, sq_track_key (pos, ln->idx[1]).v, sizeof lv.pos);
      else
        sq_track_sample (pos, SQ_CHANNEL_TRANSLATION, t, lv.pos);

      for (guint c = 0; c < 3; c++)
        if (!isfinite (lv.pos[c]))
          {
            lv.pos[c] = 0.0;
            not_numbers++;
          }
      _sq_append_int64 (out, ln->ms);
      for (guint c = 0; c < 3; c++)
        {
          g_string_append_c (out, ' ');
          _sq_append_number (out, lv.aa[c], 6);
        }
      g_string_append_c (out, ' ');
      _sq_append_number (out, lv.aa[3], 4);
      for (guint c = 0; c < 3; c++)
        {
          g_string_append_c (out, ' ');
          _sq_append_number (out, lv.pos[c], 4);
        }
      if (scl->n_keys > 0)
        {
          if (ln->idx[2] >= 0)
            memcpy (lv.scale, sq_track_key (scl, ln->idx[2]).v, sizeof lv.scale);
          else
            sq_track_sample (scl, SQ_CHANNEL_SCALE, t, lv.scale);
          for (guint c = 0; c < 3; c++)
            if (!isfinite (lv.scale[c]))
              {
                lv.scale[c] = 1.0;
                not_numbers++;
              }
          for (guint c = 0; c < 3; c++)
            {
              g_string_append_c (out, ' ');
              _sq_append_number (out, lv.scale[c], 4);
            }
        }
      g_string_append (out, "\r\n");
    }
  if (not_numbers > 0)
    _sq_loss (losses, _("joint “%s”: %u values that are not numbers (NaN or infinite) written as no rotation, 0 or 1"),
              joint->name, not_numbers);
}

/* The first pass, one joint: its channels' keys on the millisecond grid,
 * merged into lines (NULL when the joint has no keys), with losses of its
 * own; joints on several threads (this pass is a fifth of writing a big clip),
 * put back in joint order */
typedef struct
{
  const SqClip *clip;
  GArray      **lines;
  GPtrArray   **losses;         /* per joint; NULL when losses are not wanted */
} FirstPass;

static void
limb_lines_of (gsize    j,
               gpointer data)
{
  FirstPass *fp = data;
  const SqClip *clip = fp->clip;
  GPtrArray *losses = fp->losses != NULL ? fp->losses[j] : NULL;
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
  guint dropped_negative = 0, most;

  if (rot->n_keys + pos->n_keys + scl->n_keys == 0)
    {
      _sq_loss (losses, _("joint “%s” has no keys and is left out (text SEQ needs two per limb)"), joint->name);
      return;
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

  /* merge the three channels' steps into lines: at least as many as the
   * channel with most steps has, and two more */
  most = MAX (MAX (steps[0]->len, steps[1]->len), steps[2]->len);
  lines = g_array_sized_new (FALSE, TRUE, sizeof (Line), most < G_MAXUINT / 2 ? most + 2 : 0);
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
  fp->lines[j] = lines;
}

static GPtrArray *
seq_text_write (const SqClip        *clip,
                const SqSaveOptions *options G_GNUC_UNUSED,
                GPtrArray           *losses,
                GError             **error)
{
  GString *out;
  GArray *refs = NULL;
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

    {
      FirstPass fp = { clip, g_new0 (GArray *, MAX (clip->n_joints, 1)), _sq_item_losses_new (losses, clip->n_joints) };
      g_autofree gsize *costs = g_new (gsize, MAX (clip->n_joints, 1));

      for (gsize j = 0; j < clip->n_joints; j++)
        costs[j] = sizeof (SqKey) * (clip->joints[j].tracks[SQ_CHANNEL_ROTATION].n_keys
                                     + clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION].n_keys
                                     + clip->joints[j].tracks[SQ_CHANNEL_SCALE].n_keys);
      _sq_parallel_items (clip->n_joints, costs, limb_lines_of, &fp);
      _sq_item_losses_merge (losses, fp.losses, clip->n_joints);
      for (gsize j = 0; j < clip->n_joints; j++)
        {
          GArray *lines = fp.lines[j];

          if (lines == NULL)
            continue;
          last_ms = MAX (last_ms, g_array_index (lines, Line, lines->len - 1).ms);
          g_ptr_array_add (limb_lines, lines);
          g_array_append_val (limb_index, j);
        }
      g_free (fp.lines);
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
      refs = _sq_refs_new ();
      _sq_parallel_parts (limb_lines->len, costs, write_limb, &lw, out, refs, losses);
    }
  }

  return _sq_pieces_take (g_string_free_to_bytes (out), refs);
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
  .world = &sq_world_aw,
};
