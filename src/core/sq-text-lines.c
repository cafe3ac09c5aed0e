/* sq-text-lines.c: a cursor over the lines of a text file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-text-lines"

#include "config.h"

#include <string.h>

#include "sq-text-lines.h"

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
