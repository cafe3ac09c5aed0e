/* test-text-reader.c: the text formats' shared reader: tokens, line and
 * column numbers, numbers, lines, errors and the cuts for reading in parts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sq-parallel.h"
#include "sq-private.h"

typedef struct
{
  const char *text;
  guint       line;
  guint       col;
  gboolean    newline_before;
} Expect;

static void
check_tokens (const char   *data,
              gsize         len,
              const Expect *want,
              guint         n)
{
  SqTextReader r;

  _sq_text_init (&r, data, len);
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (_sq_text_next (&r));
      g_assert_cmpuint (r.tok_len, ==, strlen (want[i].text));
      g_assert_true (memcmp (r.tok, want[i].text, r.tok_len) == 0);
      g_assert_cmpuint (r.tok_line, ==, want[i].line);
      g_assert_cmpuint (r.tok_col, ==, want[i].col);
      g_assert_cmpuint (r.tok_pos, ==, (gsize) (r.tok - data));
      g_assert_cmpint (r.newline_before, ==, want[i].newline_before);
    }
}

/* Tokens end at blanks; lines end at LF, CRLF and a lone CR; a tab is one
 * column */
static void
test_tokens (void)
{
  static const char text[] = "HIERARCHY\nROOT\tHips {\r\n\tOFFSET 1.5 -2\r3e1\n\n  }";
  static const Expect want[] = {
    { "HIERARCHY", 1, 1, FALSE },
    { "ROOT", 2, 1, TRUE },
    { "Hips", 2, 6, FALSE },
    { "{", 2, 11, FALSE },
    { "OFFSET", 3, 2, TRUE },
    { "1.5", 3, 9, FALSE },
    { "-2", 3, 13, FALSE },
    { "3e1", 4, 1, TRUE },
    { "}", 6, 3, TRUE },
  };
  SqTextReader r;

  check_tokens (text, strlen (text), want, G_N_ELEMENTS (want));

  /* keywords ignore ASCII case, and only whole tokens match */
  _sq_text_init (&r, text, strlen (text));
  g_assert_true (_sq_text_next (&r));
  g_assert_true (_sq_text_tok_is (&r, "hierarchy"));
  g_assert_false (_sq_text_tok_is (&r, "HIER"));
  g_assert_false (_sq_text_tok_is (&r, "HIERARCHY2"));
  g_assert_true (_sq_text_equal_ci ("Frames", 6, "FRAMES"));
  g_assert_false (_sq_text_equal_ci ("Frame", 5, "FRAMES"));

  /* only a CR not followed by LF is a lone one */
  g_assert_false (r.lone_cr);
  while (_sq_text_next (&r))
    ;
  g_assert_true (r.lone_cr);
}

/* The end of the text: an empty token where the text ends, on the line
 * after a last line end */
static void
test_end_of_file (void)
{
  SqTextReader r;

  _sq_text_init (&r, "", 0);
  g_assert_false (_sq_text_next (&r));
  g_assert_cmpuint (r.tok_len, ==, 0);
  g_assert_cmpuint (r.tok_line, ==, 1);
  g_assert_cmpuint (r.tok_col, ==, 1);

  _sq_text_init (&r, "a b  ", 5);
  g_assert_true (_sq_text_next (&r));
  g_assert_true (_sq_text_next (&r));
  g_assert_false (_sq_text_next (&r));
  g_assert_cmpuint (r.tok_len, ==, 0);
  g_assert_true (r.tok == r.data + r.len);
  g_assert_cmpuint (r.tok_line, ==, 1);
  g_assert_cmpuint (r.tok_col, ==, 6);
  g_assert_false (r.newline_before);

  _sq_text_init (&r, "a\r\n", 3);
  g_assert_true (_sq_text_next (&r));
  g_assert_false (_sq_text_next (&r));
  g_assert_cmpuint (r.tok_line, ==, 2);
  g_assert_cmpuint (r.tok_col, ==, 1);
  g_assert_true (r.newline_before);
  g_assert_false (r.lone_cr);

  /* a CR as the last byte is a lone one */
  _sq_text_init (&r, "a\r", 2);
  g_assert_true (_sq_text_next (&r));
  g_assert_false (_sq_text_next (&r));
  g_assert_cmpuint (r.tok_line, ==, 2);
  g_assert_true (r.lone_cr);

  /* a token that runs to the end, without a blank after it */
  _sq_text_init (&r, "x 12", 4);
  g_assert_true (_sq_text_next (&r));
  g_assert_true (_sq_text_next (&r));
  g_assert_cmpuint (r.tok_len, ==, 2);
  g_assert_cmpuint (r.pos, ==, 4);
}

/* The longest token is the whole text; messages show at most `max` bytes
 * of it; the column saturates rather than wrapping */
static void
test_longest_token (void)
{
  gsize len = 3u << 20;
  g_autofree char *text = g_malloc (len);
  g_autofree char *excerpt = NULL, *latin1 = NULL, *utf8 = NULL;
  SqTextReader r;

  memset (text, 'x', len);
  _sq_text_init (&r, text, len);
  g_assert_true (_sq_text_next (&r));
  g_assert_cmpuint (r.tok_len, ==, len);
  g_assert_false (_sq_text_next (&r));
  g_assert_cmpuint (r.tok_col, ==, len + 1);

  excerpt = _sq_text_excerpt (text, len, 40, TRUE);
  g_assert_cmpuint (strlen (excerpt), ==, 40);
  /* invalid UTF-8 is read as Latin-1; valid UTF-8 kept when allowed */
  latin1 = _sq_text_excerpt ("caf\xe9", 4, 40, TRUE);
  g_assert_cmpstr (latin1, ==, "caf\xc3\xa9");
  utf8 = _sq_text_excerpt ("caf\xc3\xa9", 5, 40, TRUE);
  g_assert_cmpstr (utf8, ==, "caf\xc3\xa9");
  g_free (utf8);
  utf8 = _sq_text_excerpt ("caf\xc3\xa9", 5, 40, FALSE);
  g_assert_cmpstr (utf8, ==, "caf\xc3\x83\xc2\xa9");

  g_assert_cmpuint (_sq_text_column (0, 0), ==, 1);
  g_assert_cmpuint (_sq_text_column (100, 90), ==, 11);
#if GLIB_SIZEOF_SIZE_T > 4
  g_assert_cmpuint (_sq_text_column ((gsize) G_MAXUINT + 10, 0), ==, G_MAXUINT);
#endif
}

/* Numbers through the exact parser; whole numbers within their ranges */
static void
test_numbers (void)
{
  static const char text[] = "0.1 -2.5e-3 1e400 abc 2147483647 2147483648 -2147483647 +7 1.0";
  SqTextReader r;
  double d;
  gint64 i;
  const char *next;

  _sq_text_init (&r, text, strlen (text));
  g_assert_true (_sq_text_next (&r));
  g_assert_true (_sq_text_tok_double (&r, &d));
  g_assert_true (d == g_ascii_strtod ("0.1", NULL));
  g_assert_true (_sq_text_next (&r));
  g_assert_true (_sq_text_tok_double (&r, &d));
  g_assert_true (d == g_ascii_strtod ("-2.5e-3", NULL));
  g_assert_true (_sq_text_next (&r));
  g_assert_false (_sq_text_tok_double (&r, &d));  /* not finite */
  g_assert_true (_sq_text_next (&r));
  g_assert_false (_sq_text_tok_double (&r, &d));
  g_assert_false (_sq_text_tok_int (&r, &i));
  g_assert_true (_sq_text_next (&r));
  g_assert_true (_sq_text_tok_int (&r, &i));
  g_assert_cmpint (i, ==, G_MAXINT32);
  g_assert_true (_sq_text_next (&r));
  g_assert_false (_sq_text_tok_int (&r, &i));     /* past 2^31 - 1 */
  g_assert_true (_sq_text_next (&r));
  g_assert_true (_sq_text_tok_int (&r, &i));
  g_assert_cmpint (i, ==, -G_MAXINT32);
  g_assert_true (_sq_text_next (&r));
  g_assert_true (_sq_text_tok_int (&r, &i));
  g_assert_cmpint (i, ==, 7);
  g_assert_true (_sq_text_next (&r));
  g_assert_false (_sq_text_tok_int (&r, &i));

#define SCAN(s) _sq_text_scan_int64 (s, s + strlen (s), &i, &next)
  g_assert_true (SCAN (" \t42 rest"));
  g_assert_cmpint (i, ==, 42);
  g_assert_cmpstr (next, ==, " rest");
  g_assert_true (SCAN ("9223372036854775807"));
  g_assert_cmpint (i, ==, G_MAXINT64);
  g_assert_true (SCAN ("-9223372036854775807"));
  g_assert_cmpint (i, ==, -G_MAXINT64);
  g_assert_false (SCAN ("9223372036854775808"));  /* overflow */
  g_assert_false (SCAN ("-9223372036854775808"));
  g_assert_false (SCAN ("99999999999999999999999"));
  g_assert_false (SCAN ("-"));
  g_assert_false (SCAN ("  "));
  g_assert_false (SCAN ("x1"));
#undef SCAN
  {
    static const char sp[] = " \t x ";
    g_assert_true (_sq_text_skip_spaces (sp, sp + 5) == sp + 3);
    g_assert_true (_sq_text_skip_spaces (sp, sp + 2) == sp + 2);
  }
}

/* Errors name the token's line and column */
static void
test_errors (void)
{
  static const char text[] = "one\r\n\ttwo";
  g_autoptr(GError) error = NULL;
  SqTextReader r;

  _sq_text_init (&r, text, strlen (text));
  g_assert_true (_sq_text_next (&r));
  g_assert_true (_sq_text_next (&r));
  _sq_text_error_at_token (&r, &error, SQ_ERROR_SYNTAX, "bad “%s”", "two");
  g_assert_error (error, SQ_ERROR, SQ_ERROR_SYNTAX);
  g_assert_cmpstr (error->message, ==, "line 2, column 2: bad “two”");
  /* no GError asked for: nothing happens */
  _sq_text_error_at_token (&r, NULL, SQ_ERROR_SYNTAX, "%s", "ignored");
}

/* Counting line ends while skipping a class of bytes, as the key scanners
 * do between numbers */
static void
test_skip_counting (void)
{
  static const guint8 skip[256] = {
    [' '] = 1, [';'] = 1, [','] = 1, ['\n'] = 2, ['\r'] = 3,
  };
  static const char text[] = "x ;\r\n,\r;\n\n y\r";
  guint line = 1;
  gsize line_start = 0;
  const char *end = text + strlen (text);
  const char *p = _sq_text_skip_counting (text + 1, end, text, skip, &line, &line_start);

  g_assert_true (*p == 'y');
  g_assert_cmpuint (line, ==, 5);          /* CRLF, lone CR, LF, LF */
  g_assert_cmpuint (line_start, ==, (gsize) (strchr (text, 'y') - 1 - text));
  g_assert_cmpuint (_sq_text_column (p - text, line_start), ==, 2);
  /* a CR at the very end ends a line */
  p = _sq_text_skip_counting (p + 1, end, text, skip, &line, &line_start);
  g_assert_true (p == end);
  g_assert_cmpuint (line, ==, 6);
  g_assert_cmpuint (line_start, ==, strlen (text));

  {
    static const char c1[] = "# x", c2[] = "// x", c3[] = "/ x", c4[] = "/";
    g_assert_true (_sq_text_at_comment (c1, c1 + 3));
    g_assert_true (_sq_text_at_comment (c2, c2 + 4));
    g_assert_false (_sq_text_at_comment (c3, c3 + 3));
    g_assert_false (_sq_text_at_comment (c4, c4 + 1));
    g_assert_false (_sq_text_at_comment (c1, c1));
  }
  {
    static const char line2[] = "ab\r\ncd";
    g_assert_true (_sq_text_line_end (line2, line2 + 6) == line2 + 2);
    g_assert_true (_sq_text_after_line_end (line2 + 2, line2 + 6) == line2 + 4);
    g_assert_true (_sq_text_after_line_end (line2 + 3, line2 + 6) == line2 + 4);
    g_assert_true (_sq_text_line_end (line2 + 4, line2 + 6) == line2 + 6);
    g_assert_true (_sq_text_ends_line (line2, 6, 3));
    g_assert_false (_sq_text_ends_line (line2, 6, 2));
    g_assert_true (_sq_text_ends_line ("a\r", 2, 1));
  }
}

/* The line cursors: every line end, or LF only */
static void
test_lines (void)
{
  static const char text[] = "a\r\nb\rc\n\nd";
  static const char * const any[] = { "a", "b", "c", "", "d" };
  static const char * const lf[] = { "a", "b\rc", "", "d" };
  SqLines lines;

  _sq_lines_init (&lines, text, strlen (text));
  for (guint i = 0; i < G_N_ELEMENTS (any); i++)
    {
      g_assert_true (_sq_lines_next (&lines));
      g_assert_cmpuint (lines.line, ==, i + 1);
      g_assert_cmpuint (lines.cur_len, ==, strlen (any[i]));
      g_assert_true (memcmp (lines.cur, any[i], lines.cur_len) == 0);
    }
  g_assert_false (_sq_lines_next (&lines));

  _sq_lines_init (&lines, text, strlen (text));
  for (guint i = 0; i < G_N_ELEMENTS (lf); i++)
    {
      g_assert_true (_sq_lines_next_lf (&lines));
      g_assert_cmpuint (lines.line, ==, i + 1);
      g_assert_cmpuint (lines.cur_len, ==, strlen (lf[i]));
      g_assert_true (memcmp (lines.cur, lf[i], lines.cur_len) == 0);
    }
  g_assert_false (_sq_lines_next_lf (&lines));
  g_assert_cmpuint (lines.pos, ==, strlen (text));

  /* a text ending in a line end has no empty line after it */
  _sq_lines_init (&lines, "x\r\n", 3);
  g_assert_true (_sq_lines_next (&lines));
  g_assert_false (_sq_lines_next (&lines));
}

/* The first line start at or after every offset, against the line starts
 * a line cursor finds */
static void
test_line_starts (void)
{
  static const char text[] = "ab\r\ncd\ref\n\r\n\rgh\n";
  gsize len = strlen (text);
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  SqLines lines;

  _sq_lines_init (&lines, text, len);
  while (_sq_lines_next (&lines))
    {
      gsize at = lines.cur - text;
      g_array_append_val (starts, at);
    }
  for (gsize off = 0; off <= len + 1; off++)
    {
      gsize want = len;

      for (guint i = 0; i < starts->len; i++)
        if (g_array_index (starts, gsize, i) >= off)
          {
            want = g_array_index (starts, gsize, i);
            break;
          }
      g_assert_cmpuint (_sq_text_line_start_at_or_after (text, len, off), ==, MIN (want, len));
    }
}

/* Cuts after LFs, and the LFs of each part counted on several threads */
static void
test_parallel_cuts (void)
{
  gsize len = 0, all = 0;
  g_autoptr(GString) text = g_string_new ("Frame Time: 0.033\n");
  gsize from = text->len;
  gsize start[9], newlines[8];
  guint n;

  for (guint i = 0; text->len < (1u << 20); i++)
    g_string_append_printf (text, "%u 1.5 2.5%s", i, i % 7 == 0 ? "\r\n" : "\n");
  len = text->len;
  for (gsize i = from; i < len; i++)
    all += text->str[i] == '\n';

  for (guint want = 1; want <= 8; want++)
    {
      gsize total = 0;

      n = _sq_text_cut_at_lf (text->str, len, from, want, start);
      g_assert_cmpuint (n, ==, want);
      g_assert_cmpuint (start[0], ==, from);
      g_assert_cmpuint (start[n], ==, len);
      for (guint k = 1; k < n; k++)
        {
          g_assert_cmpuint (start[k], >, start[k - 1]);
          g_assert_true (text->str[start[k] - 1] == '\n');
          g_assert_cmpuint (start[k], <, len);
        }

      for (guint threads = 1; threads <= 4; threads++)
        {
          _sq_parallel_set_limits (1, threads);
          _sq_text_count_lf_parts (text->str, start, n, len - from, newlines);
          total = 0;
          for (guint k = 0; k < n; k++)
            {
              gsize count = 0;

              for (gsize i = start[k]; i < start[k + 1]; i++)
                count += text->str[i] == '\n';
              g_assert_cmpuint (newlines[k], ==, count);
              total += count;
            }
          g_assert_cmpuint (total, ==, all);
        }
      _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
    }

  /* no LF near the end: fewer parts */
  n = _sq_text_cut_at_lf ("abcdefgh\nijklmnopqrstuvwxyz", 27, 0, 4, start);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (start[1], ==, 9);
  g_assert_cmpuint (start[2], ==, 27);
  n = _sq_text_cut_at_lf ("abcdefgh\n", 9, 0, 4, start);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (start[1], ==, 9);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/text-reader/tokens", test_tokens);
  g_test_add_func ("/text-reader/end-of-file", test_end_of_file);
  g_test_add_func ("/text-reader/longest-token", test_longest_token);
  g_test_add_func ("/text-reader/numbers", test_numbers);
  g_test_add_func ("/text-reader/errors", test_errors);
  g_test_add_func ("/text-reader/skip-counting", test_skip_counting);
  g_test_add_func ("/text-reader/lines", test_lines);
  g_test_add_func ("/text-reader/line-starts", test_line_starts);
  g_test_add_func ("/text-reader/parallel-cuts", test_parallel_cuts);
  return g_test_run ();
}
