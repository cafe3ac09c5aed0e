/* sq-text-reader.h: the text formats' shared reader (sq-text-reader.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every text format reads the same way: positions with 1-based line
 * and column numbers (a line ends at LF, CRLF or a lone CR), blank-separated
 * tokens, numbers (sq-numbers.h, exact), a cursor over lines, errors at a
 * token's line and column, and the cuts of a large text at line boundaries
 * for reading it in parts on several threads (sq-parallel.h). The grammar
 * of each format stays in its own file; a format's fast path over its usual
 * shape (a key line, a frame of numbers) calls the inline primitives here.
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "sq-error.h"

G_BEGIN_DECLS

/* ---- positions and tokens ------------------------------------------------ */

/* A reader over text in memory: where it is, and the token last read */
typedef struct
{
  const char *data;
  gsize       len;
  gsize       pos;
  guint       line;             /* 1-based, of pos */
  gsize       line_start;       /* where that line starts */
  gboolean    lone_cr;          /* a CR line end not followed by LF was crossed */
  /* the token last read (_sq_text_next) */
  const char *tok;
  gsize       tok_len;
  guint       tok_line;
  guint       tok_col;
  gsize       tok_pos;
  gboolean    newline_before;   /* a line end between the previous token and this one */
} SqTextReader;

/* 1 for the blanks that end a token: space, tab, LF, CR, VT, FF */
extern const guint8 _sq_text_blank[256];

void     _sq_text_init      (SqTextReader *r,
                             const char   *data,
                             gsize         len);

/* The 1-based column of byte `pos` on a line that starts at `line_start` */
static inline guint
_sq_text_column (gsize pos,
                 gsize line_start)
{
  return (guint) MIN (pos - line_start + 1, G_MAXUINT);
}

/* Whether byte i of data[0, len) ends a line: a LF, or a CR not followed
 * by LF (the LF of a CRLF ends it) */
static inline gboolean
_sq_text_ends_line (const char *data,
                    gsize       len,
                    gsize       i)
{
  return data[i] == '\n' || (data[i] == '\r' && (i + 1 >= len || data[i + 1] != '\n'));
}

/* Past the line end at p (CRLF, LF or a lone CR; p < end) */
static inline const char *
_sq_text_after_line_end (const char *p,
                         const char *end)
{
  return p + (*p == '\r' && p + 1 < end && p[1] == '\n' ? 2 : 1);
}

/* Skips the bytes of [p, end) whose class (in `skip`) is not 0, counting
 * the line ends among them into *line and *line_start (class 2 for LF and
 * 3 for CR: LF, CRLF and a lone CR each end one line; class 1 for the rest).
 * Inline: the key scanners of the formats call it between two numbers. */
static inline const char *
_sq_text_skip_counting (const char   *p,
                        const char   *end,
                        const char   *data,
                        const guint8  skip[256],
                        guint        *line,
                        gsize        *line_start)
{
  guint c;

  for (; p < end && (c = skip[(guchar) *p]) != 0; p++)
    if (c > 1 && (c == 2 || p + 1 >= end || p[1] != '\n'))
      {
        (*line)++;
        *line_start = p + 1 - data;
      }
  return p;
}

/* Skips blanks and line ends; TRUE when a line end was crossed. */
static inline gboolean
_sq_text_skip_blanks (SqTextReader *r)
{
  gboolean nl = FALSE;

  while (r->pos < r->len)
    {
      char c = r->data[r->pos];

      if (c == '\n' || c == '\r')
        {
          r->pos++;
          if (c == '\r' && r->pos < r->len && r->data[r->pos] == '\n')
            r->pos++;
          else if (c == '\r')
            r->lone_cr = TRUE;
          r->line++;
          r->line_start = r->pos;
          nl = TRUE;
        }
      else if (c == ' ' || c == '\t' || c == '\v' || c == '\f')
        r->pos++;
      else
        break;
    }
  return nl;
}

/* The next token, a run of bytes that are not blanks (_sq_text_blank),
 * into r->tok…; FALSE at the end of the text, with an empty token there. */
gboolean _sq_text_next      (SqTextReader *r);

/* Whether the token is `word`, ignoring ASCII case */
gboolean _sq_text_tok_is    (const SqTextReader *r,
                             const char         *word);
/* Whether [s, s + len) is `word`, ignoring ASCII case */
gboolean _sq_text_equal_ci  (const char   *s,
                             gsize         len,
                             const char   *word);

/* Whether a comment starts at p (before end): "#" or "//" */
static inline gboolean
_sq_text_at_comment (const char *p,
                     const char *end)
{
  return p < end && (*p == '#' || (*p == '/' && p + 1 < end && p[1] == '/'));
}

/* The end of the line that p is on (its CR or LF), or end */
const char *_sq_text_line_end (const char *p,
                               const char *end);

/* [s, s + MIN (len, max)) as UTF-8 for a message: as it is when it is
 * valid UTF-8 and `utf8_ok`, else read as Latin-1 */
char    *_sq_text_excerpt   (const char   *s,
                             gsize         len,
                             gsize         max,
                             gboolean      utf8_ok);

/* ---- numbers --------------------------------------------------------------- */

/* The token as a finite double (_sq_parse_double: exact) */
gboolean _sq_text_tok_double (const SqTextReader *r,
                              double             *out);
/* The token as a whole number within ±(2^31 - 1) (_sq_parse_int64) */
gboolean _sq_text_tok_int    (const SqTextReader *r,
                              gint64             *out);
/* A whole number at p (after blanks and tabs): an optional sign, then
 * decimal digits, up to ±(2^63 - 1); *next after it. FALSE when there
 * are no digits or it is out of range. */
gboolean _sq_text_scan_int64 (const char   *p,
                              const char   *end,
                              gint64       *out,
                              const char  **next);
/* p past the blanks and tabs before end */
const char *_sq_text_skip_spaces (const char *p,
                                  const char *end);

/* ---- errors ---------------------------------------------------------------- */

/* The error at the token last read: its line and column */
void     _sq_text_error_at_token (const SqTextReader *r,
                                  GError            **error,
                                  SqErrorCode         code,
                                  const char         *format,
                                  ...) G_GNUC_PRINTF (4, 5);

/* ---- lines ----------------------------------------------------------------- */

/* A cursor over lines with 1-based line numbers */
typedef struct
{
  const char *data;
  gsize       len;
  gsize       pos;        /* start of the next line */
  guint       line;       /* number of the line last returned */
  const char *cur;        /* the line last returned, without its end */
  gsize       cur_len;
  const char *next_nl;    /* the next LF found, or the end */
} SqLines;

void     _sq_lines_init     (SqLines      *lines,
                             const char   *data,
                             gsize         len);
/* The next line; LF, CRLF and a lone CR end a line */
gboolean _sq_lines_next     (SqLines      *lines);
/* The next line; only LF ends a line (a CR before it is not part of the
 * line, a CR elsewhere is) */
gboolean _sq_lines_next_lf  (SqLines      *lines);

/* 1 for the bytes that separate the numbers of a text SEQ line */
extern const guint8 _sq_sep_table[256];

/* ---- reading in parts ------------------------------------------------------ */

/* The first line start at or after `off` (a line starts after LF and after
 * a CR not followed by LF); len when there is none */
gsize    _sq_text_line_start_at_or_after (const char *data,
                                          gsize       len,
                                          gsize       off);

/* Cuts [from, len) in up to n parts of about equal size, each after a LF:
 * part k is [start[k], start[k + 1]) (start has room for n + 1). No cut
 * falls on the last byte. Returns the number of parts. */
guint    _sq_text_cut_at_lf  (const char *data,
                              gsize       len,
                              gsize       from,
                              guint       n,
                              gsize      *start);

/* The LFs of each part [start[k], start[k + 1]) for k < n, into
 * newlines[k]: on several threads (_sq_parallel_items) when `total`, the
 * bytes of all parts, is large enough, each part taken as an equal share */
void     _sq_text_count_lf_parts (const char  *data,
                                  const gsize *start,
                                  guint        n,
                                  gsize        total,
                                  gsize       *newlines);

G_END_DECLS
