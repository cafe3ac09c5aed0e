/* sq-text-reader.c: the text formats' shared reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-text-reader"

#include "config.h"

#include <string.h>

#include "sq-encoding.h"
#include "sq-numbers.h"
#include "sq-parallel.h"
#include "sq-text-reader.h"

/* ---- positions and tokens ------------------------------------------------ */

const guint8 _sq_text_blank[256] = {
  [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['\v'] = 1, ['\f'] = 1,
};

void
_sq_text_init (SqTextReader *r,
               const char   *data,
               gsize         len)
{
  memset (r, 0, sizeof *r);
  r->data = data;
  r->len = len;
  r->line = 1;
}

gboolean
_sq_text_next (SqTextReader *r)
{
  gsize start;

  r->newline_before = _sq_text_skip_blanks (r);
  r->tok_line = r->line;
  r->tok_col = _sq_text_column (r->pos, r->line_start);
  r->tok_pos = r->pos;
  if (r->pos >= r->len)
    {
      r->tok = r->data + r->len;
      r->tok_len = 0;
      return FALSE;
    }
  start = r->pos;
  while (r->pos < r->len && !_sq_text_blank[(guchar) r->data[r->pos]])
    r->pos++;
  r->tok = r->data + start;
  r->tok_len = r->pos - start;
  return TRUE;
}

gboolean
_sq_text_equal_ci (const char *s,
                   gsize       len,
                   const char *word)
{
  return strlen (word) == len && g_ascii_strncasecmp (s, word, len) == 0;
}

gboolean
_sq_text_tok_is (const SqTextReader *r,
                 const char         *word)
{
  return _sq_text_equal_ci (r->tok, r->tok_len, word);
}

const char *
_sq_text_line_end (const char *p,
                   const char *end)
{
  while (p < end && *p != '\n' && *p != '\r')
    p++;
  return p;
}

char *
_sq_text_excerpt (const char *s,
                  gsize       len,
                  gsize       max,
                  gboolean    utf8_ok)
{
  len = MIN (len, max);
  if (utf8_ok && g_utf8_validate (s, len, NULL))
    return g_strndup (s, len);
  return _sq_latin1_to_utf8 ((const guint8 *) s, len);
}

/* ---- numbers --------------------------------------------------------------- */

gboolean
_sq_text_tok_double (const SqTextReader *r,
                     double             *out)
{
  return _sq_parse_double (r->tok, r->tok_len, out);
}

gboolean
_sq_text_tok_int (const SqTextReader *r,
                  gint64             *out)
{
  return _sq_parse_int64 (r->tok, r->tok_len, out);
}

const char *
_sq_text_skip_spaces (const char *p,
                      const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return p;
}

gboolean
_sq_text_scan_int64 (const char  *p,
                     const char  *end,
                     gint64      *out,
                     const char **next)
{
  gboolean neg = FALSE;
  guint64 v = 0;
  const char *digits;

  p = _sq_text_skip_spaces (p, end);
  if (p < end && (*p == '-' || *p == '+'))
    neg = *p++ == '-';
  digits = p;
  while (p < end && g_ascii_isdigit (*p))
    {
      if (v > (guint64) G_MAXINT64 / 10)
        return FALSE;
      v = v * 10 + (guint64) (*p++ - '0');
    }
  if (p == digits || v > (guint64) G_MAXINT64)
    return FALSE;
  *out = neg ? -(gint64) v : (gint64) v;
  *next = p;
  return TRUE;
}

/* ---- errors ---------------------------------------------------------------- */

void
_sq_text_error_at_token (const SqTextReader *r,
                         GError            **error,
                         SqErrorCode         code,
                         const char         *format,
                         ...)
{
  va_list args;

  va_start (args, format);
  sq_set_error_at_line_valist (error, code, r->tok_line, r->tok_col, format, args);
  va_end (args);
}

/* ---- lines ----------------------------------------------------------------- */

void
_sq_lines_init (SqLines    *lines,
                const char *data,
                gsize       len)
{
  memset (lines, 0, sizeof *lines);
  lines->data = data;
  lines->len = len;
}

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

gboolean
_sq_lines_next_lf (SqLines *lines)
{
  const char *start, *end, *nl;

  if (lines->pos >= lines->len)
    return FALSE;
  start = lines->data + lines->pos;
  end = lines->data + lines->len;
  nl = memchr (start, '\n', end - start);
  lines->cur = start;
  lines->cur_len = (nl != NULL ? nl : end) - start;
  lines->pos = nl != NULL ? (gsize) (nl + 1 - lines->data) : lines->len;
  if (lines->cur_len > 0 && lines->cur[lines->cur_len - 1] == '\r')
    lines->cur_len--;
  lines->line++;
  return TRUE;
}

const guint8 _sq_sep_table[256] = {
  [' '] = 1, ['\t'] = 1, [','] = 1, [';'] = 1, ['\v'] = 1, ['\f'] = 1,
};

/* ---- reading in parts ------------------------------------------------------ */

gsize
_sq_text_line_start_at_or_after (const char *data,
                                 gsize       len,
                                 gsize       off)
{
  const char *p, *end = data + len;

  if (off == 0 || off >= len)
    return MIN (off, len);
  if (data[off - 1] == '\n' || (data[off - 1] == '\r' && data[off] != '\n'))
    return off;
  p = _sq_text_line_end (data + off, end);
  if (p == end)
    return len;
  return (gsize) (_sq_text_after_line_end (p, end) - data);
}

guint
_sq_text_cut_at_lf (const char *data,
                    gsize       len,
                    gsize       from,
                    guint       n,
                    gsize      *start)
{
  start[0] = from;
  for (guint k = 1; k < n; k++)
    {
      gsize at = MAX (from + (len - from) / n * k, start[k - 1]);
      const char *nl = memchr (data + at, '\n', len - at);

      /* none near the end */
      if (nl == NULL || (gsize) (nl - data) + 1 >= len)
        {
          n = k;
          break;
        }
      start[k] = nl - data + 1;
    }
  start[n] = len;
  return n;
}

typedef struct
{
  const char  *data;
  const gsize *start;
  gsize       *newlines;
} CountLf;

static void
count_lf (gsize    k,
          gpointer user_data)
{
  CountLf *c = user_data;
  const char *q = c->data + c->start[k], *e = c->data + c->start[k + 1];
  gsize n = 0;

  while (q < e && (q = memchr (q, '\n', e - q)) != NULL)
    {
      n++;
      q++;
    }
  c->newlines[k] = n;
}

void
_sq_text_count_lf_parts (const char  *data,
                         const gsize *start,
                         guint        n,
                         gsize        total,
                         gsize       *newlines)
{
  CountLf c = { data, start, newlines };
  g_autofree gsize *cost = g_new (gsize, MAX (n, 1));

  for (guint k = 0; k < n; k++)
    cost[k] = total / MAX (n, 1) + 1;
  _sq_parallel_items (n, cost, count_lf, &c);
}
