/* sq-util.c: text scanning, encodings and time grids shared by the formats
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-util"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>

#include "sq-private.h"

char *
_sq_latin1_to_utf8 (const guint8 *data,
                    gsize         len)
{
  GString *s = g_string_sized_new (len + 1);

  for (gsize i = 0; i < len; i++)
    g_string_append_unichar (s, data[i]);
  return g_string_free (s, FALSE);
}

gboolean
_sq_utf8_to_latin1 (const char *utf8,
                    GByteArray *out)
{
  gboolean ok = TRUE;

  for (const char *p = utf8; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, -1);
      guint8 b;

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* not UTF-8: cannot happen for names the core made, but be safe */
          b = '?';
          ok = FALSE;
          g_byte_array_append (out, &b, 1);
          break;
        }
      if (c > 0xff)
        {
          b = '?';
          ok = FALSE;
        }
      else
        b = (guint8) c;
      g_byte_array_append (out, &b, 1);
    }
  return ok;
}

void
_sq_clip_mark_source (SqClip         *clip,
                      const SqFormat *format,
                      GBytes         *bytes)
{
  clip->format = format;
  g_clear_pointer (&clip->source, g_bytes_unref);
  clip->source = g_bytes_ref (bytes);
  clip->source_generation = clip->generation;
}

void
_sq_loss (GPtrArray  *losses,
          const char *format,
          ...)
{
  va_list args;

  if (losses == NULL)
    return;
  va_start (args, format);
  g_ptr_array_add (losses, g_strdup_vprintf (format, args));
  va_end (args);
}

GArray *
_sq_track_to_grid (const SqTrack *track,
                   double         rate,
                   gint64         base,
                   double         lossless_rate,
                   const char    *joint,
                   const char    *what,
                   GArray       **steps_out,
                   GPtrArray     *losses)
{
  GArray *kept = g_array_sized_new (FALSE, FALSE, sizeof (gsize), track->n_keys);
  GArray *steps = g_array_sized_new (FALSE, FALSE, sizeof (gint64), track->n_keys);
  guint rounded = 0, dropped = 0, outside = 0;
  double first_rounded = 0.0, first_dropped = 0.0;

  for (gsize i = 0; i < track->n_keys; i++)
    {
      double t = track->keys[i].time * rate;
      double r = floor (t + 0.5);
      gint64 step;

      if (!(r > -2e9 && r < 2e9))
        {
          outside++;
          continue;
        }
      if (fabs (t - r) > 1e-6
          && !(lossless_rate > 0
               && fabs (track->keys[i].time * lossless_rate - floor (track->keys[i].time * lossless_rate + 0.5)) < 1e-6))
        {
          if (rounded++ == 0)
            first_rounded = track->keys[i].time;
        }
      step = (gint64) r + base;
      if (steps->len > 0 && g_array_index (steps, gint64, steps->len - 1) == step)
        {
          /* two keys on one step: the first one stays */
          if (dropped++ == 0)
            first_dropped = track->keys[i].time;
          continue;
        }
      g_array_append_val (kept, i);
      g_array_append_val (steps, step);
    }

  if (rounded > 0)
    _sq_loss (losses, _("joint “%s”: %u %s key times rounded to the nearest 1/%g s (first at %.6g s)"),
              joint, rounded, what, rate, first_rounded);
  if (dropped > 0)
    _sq_loss (losses, _("joint “%s”: %u %s keys dropped because they fall on the same step as another key (first at %.6g s)"),
              joint, dropped, what, first_dropped);
  if (outside > 0)
    _sq_loss (losses, _("joint “%s”: %u %s keys dropped because their time is out of range"),
              joint, outside, what);

  *steps_out = steps;
  return kept;
}

void
_sq_lines_init (SqLines    *lines,
                const char *data,
                gsize       len)
{
  memset (lines, 0, sizeof *lines);
  lines->data = data;
  lines->len = len;
}

/* Next line, accepting LF, CRLF and lone CR line ends. */
gboolean
_sq_lines_next (SqLines *lines)
{
  const char *start, *p, *end;

  if (lines->pos >= lines->len)
    return FALSE;

  start = lines->data + lines->pos;
  end = lines->data + lines->len;
  p = start;
  while (p < end && *p != '\n' && *p != '\r')
    p++;
  lines->cur = start;
  lines->cur_len = p - start;
  if (p < end)
    {
      if (*p == '\r' && p + 1 < end && p[1] == '\n')
        p += 2;
      else
        p++;
    }
  lines->pos = p - lines->data;
  lines->line++;
  return TRUE;
}

static inline gboolean
is_sep (char c)
{
  return c == ' ' || c == '\t' || c == ',' || c == ';' || c == '\v' || c == '\f';
}

guint
_sq_split_tokens (const char  *line,
                  gsize        len,
                  const char **tok,
                  gsize       *tok_len,
                  guint        max)
{
  guint n = 0;
  gsize i = 0;

  while (i < len)
    {
      gsize s;

      while (i < len && is_sep (line[i]))
        i++;
      if (i >= len)
        break;
      s = i;
      while (i < len && !is_sep (line[i]))
        i++;
      if (n < max)
        {
          tok[n] = line + s;
          tok_len[n] = i - s;
        }
      n++;
    }
  return n;
}

gboolean
_sq_parse_double (const char *tok,
                  gsize       len,
                  double     *out)
{
  char buf[80];
  char *end = NULL;
  double v;

  if (len == 0 || len >= sizeof buf)
    return FALSE;
  /* digits, sign, point and exponent only: no "inf", "nan" or hex */
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isdigit (tok[i]) && tok[i] != '.' && tok[i] != '-' && tok[i] != '+'
        && tok[i] != 'e' && tok[i] != 'E')
      return FALSE;
  memcpy (buf, tok, len);
  buf[len] = '\0';
  v = g_ascii_strtod (buf, &end);
  if (end != buf + len || !isfinite (v))
    return FALSE;
  *out = v;
  return TRUE;
}

gboolean
_sq_parse_int64 (const char *tok,
                 gsize       len,
                 gint64     *out)
{
  gsize i = 0;
  gboolean neg = FALSE;
  guint64 v = 0;

  if (len > 0 && (tok[0] == '-' || tok[0] == '+'))
    {
      neg = tok[0] == '-';
      i = 1;
    }
  if (i >= len)
    return FALSE;
  for (; i < len; i++)
    {
      if (!g_ascii_isdigit (tok[i]))
        return FALSE;
      v = v * 10 + (guint64) (tok[i] - '0');
      if (v > G_MAXINT32)
        return FALSE;
    }
  *out = neg ? -(gint64) v : (gint64) v;
  return TRUE;
}
