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
  gsize *k_out = (gsize *) (void *) kept->data;
  gint64 *s_out = (gint64 *) (void *) steps->data;
  gsize n = 0;
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
      if (G_UNLIKELY (fabs (t - r) > 1e-6)
          && !(lossless_rate > 0
               && fabs (track->keys[i].time * lossless_rate - floor (track->keys[i].time * lossless_rate + 0.5)) < 1e-6))
        {
          if (rounded++ == 0)
            first_rounded = track->keys[i].time;
        }
      step = (gint64) r + base;
      if (n > 0 && s_out[n - 1] == step)
        {
          /* two keys on one step: the first one stays */
          if (dropped++ == 0)
            first_dropped = track->keys[i].time;
          continue;
        }
      k_out[n] = i;
      s_out[n] = step;
      n++;
    }
  g_array_set_size (kept, n);
  g_array_set_size (steps, n);

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
  const char *start, *end, *nl, *cr;

  if (lines->pos >= lines->len)
    return FALSE;

  start = lines->data + lines->pos;
  end = lines->data + lines->len;
  /* the next LF is remembered, so files with lone CRs stay linear */
  if (lines->next_nl == NULL || lines->next_nl < start)
    {
      lines->next_nl = memchr (start, '\n', end - start);
      if (lines->next_nl == NULL)
        lines->next_nl = end;
    }
  nl = lines->next_nl < end ? lines->next_nl : NULL;
  cr = memchr (start, '\r', (nl ? nl : end) - start);
  lines->cur = start;
  if (cr != NULL)
    {
      /* CRLF, or a lone CR ending the line */
      lines->cur_len = cr - start;
      lines->pos = (cr + 1 == nl ? nl + 1 : cr + 1) - lines->data;
    }
  else if (nl != NULL)
    {
      lines->cur_len = nl - start;
      lines->pos = nl + 1 - lines->data;
    }
  else
    {
      lines->cur_len = end - start;
      lines->pos = lines->len;
    }
  lines->line++;
  return TRUE;
}

const guint8 _sq_sep_table[256] = {
  [' '] = 1, ['\t'] = 1, [','] = 1, [';'] = 1, ['\v'] = 1, ['\f'] = 1,
};

/* Exact powers of ten a double holds */
static const double pow10_exact[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* Decimal text to the nearest double, bit-identical to strtod in the C
 * locale. Numbers whose digits fit in 53 bits with a power of ten up to 22
 * (nearly every number in an animation file) are exact by Clinger's fast
 * path: one correctly rounded multiplication or division of two exact
 * values. Anything else goes to g_ascii_strtod. No allocation, no locale. */
const char *
_sq_scan_double (const char *tok,
                 const char *end,
                 double     *out)
{
  const char *p = tok;
  gsize len;
  gboolean neg = FALSE, any_digit = FALSE;
  guint64 mant = 0;
  int sig = 0, exp10 = 0;
  gboolean truncated = FALSE;
  double v;

  if (p >= end)
    return NULL;
  if (*p == '+' || *p == '-')
    neg = *p++ == '-';
  while (p < end && *p == '0')
    {
      p++;
      any_digit = TRUE;
    }
  for (; p < end && g_ascii_isdigit (*p); p++)
    {
      any_digit = TRUE;
      if (sig < 19)
        mant = mant * 10 + (guint64) (*p - '0'), sig++;
      else
        {
          exp10++;
          truncated |= *p != '0';
        }
    }
  if (p < end && *p == '.')
    {
      p++;
      for (; p < end && g_ascii_isdigit (*p); p++)
        {
          any_digit = TRUE;
          if (mant == 0 && *p == '0')
            exp10--;                  /* leading zeros of the fraction */
          else if (sig < 19)
            {
              mant = mant * 10 + (guint64) (*p - '0');
              sig++;
              exp10--;
            }
          else
            truncated |= *p != '0';
        }
    }
  if (!any_digit)
    return NULL;
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean eneg = FALSE;
      int e = 0;

      p++;
      if (p < end && (*p == '+' || *p == '-'))
        eneg = *p++ == '-';
      if (p >= end || !g_ascii_isdigit (*p))
        return NULL;
      for (; p < end && g_ascii_isdigit (*p); p++)
        if (e < 100000)
          e = e * 10 + (*p - '0');
      exp10 += eneg ? -e : e;
    }
  len = p - tok;

  if (!truncated && mant <= (G_GUINT64_CONSTANT (1) << 53) && exp10 >= -22 && exp10 <= 22)
    {
      v = (double) mant;
      v = exp10 < 0 ? v / pow10_exact[-exp10] : v * pow10_exact[exp10];
    }
  else if (mant == 0 && !truncated)
    v = 0.0;
  else
    {
      char buf[128];
      char *copy = len < sizeof buf ? buf : g_malloc (len + 1);
      char *stop = NULL;

      memcpy (copy, tok, len);
      copy[len] = '\0';
      v = g_ascii_strtod (copy, &stop);
      v = fabs (v);
      if (copy != buf)
        g_free (copy);
    }
  if (!isfinite (v))
    return NULL;
  *out = neg ? -v : v;
  return p;
}

gboolean
_sq_parse_double (const char *tok,
                  gsize       len,
                  double     *out)
{
  return len > 0 && _sq_scan_double (tok, tok + len, out) == tok + len;
}

static void
append_scaled (GString *s,
               gboolean neg,
               guint64  digits,
               int      decimals,
               int      min_decimals)
{
  char buf[48];
  int n = 0;

  /* digits of the integer, least significant first, at least decimals + 1 */
  do
    {
      buf[n++] = (char) ('0' + digits % 10);
      digits /= 10;
    }
  while (digits > 0 || n <= decimals);
  /* trailing zeros go, but never below min_decimals, so that the text
   * reads back to a number that is written the same way again */
    {
      int skip = 0;
      while (skip < decimals - min_decimals && buf[skip] == '0')
        skip++;
      memmove (buf, buf + skip, n - skip);
      n -= skip;
      decimals -= skip;
    }
  if (neg)
    g_string_append_c (s, '-');
  for (int i = n - 1; i >= 0; i--)
    {
      g_string_append_c (s, buf[i]);
      if (i == decimals && decimals > 0)
        g_string_append_c (s, '.');
    }
}

/* `decimals` fixed decimals when that text reads back as exactly `v`
 * (Clinger: an integer below 2^53 over an exact power of ten is correctly
 * rounded, so the check is one division); otherwise nine significant
 * digits, which carry any 32-bit float exactly. Same text as
 * "%.*f" / "%.9g" would give, without printf. */
void
_sq_append_number (GString *s,
                   double   v,
                   int      decimals)
{
  double a = fabs (v);

  if (decimals >= 0 && decimals <= 22 && a * pow10_exact[decimals] < 9007199254740992.0)
    {
      double r = floor (a * pow10_exact[decimals] + 0.5);
      if (r / pow10_exact[decimals] == a)
        {
          append_scaled (s, signbit (v) != 0, (guint64) r, decimals, decimals);
          return;
        }
    }
  if (isfinite (v) && a >= 1e-13 && a < 1e30)
    {
      int e = (int) floor (log10 (a));
      int d = 8 - e;
      double r = 0;

      for (guint tries = 0; tries < 2; tries++)
        {
          r = d >= 0 ? floor (a * pow10_exact[MIN (d, 22)] + 0.5) : floor (a / pow10_exact[MIN (-d, 22)] + 0.5);
          if (r < 1e9)
            break;
          d--;          /* rounding carried into a tenth digit */
        }
      if (d >= 0 && d <= 22)
        {
          for (; d < decimals; d++)
            r *= 10;
          append_scaled (s, signbit (v) != 0, (guint64) r, d, MAX (decimals, 0));
          return;
        }
      if (d < 0 && d >= -22)
        {
          /* nine digits, then zeros up to the point, then the format's decimals */
          append_scaled (s, signbit (v) != 0, (guint64) r, 0, 0);
          for (int z = 0; z < -d; z++)
            g_string_append_c (s, '0');
          if (decimals > 0)
            {
              g_string_append_c (s, '.');
              for (int z = 0; z < decimals; z++)
                g_string_append_c (s, '0');
            }
          return;
        }
    }
  {
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.9g", v));
  }
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
