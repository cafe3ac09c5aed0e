/* sq-text-lines.h: a cursor over the lines of a text file (sq-text-lines.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Text input: a cursor over lines with 1-based line and column numbers. */
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

void     _sq_lines_init            (SqLines      *lines,
                                    const char   *data,
                                    gsize         len);
gboolean _sq_lines_next            (SqLines      *lines);

/* 1 for the bytes that separate the numbers of a text SEQ line */
extern const guint8 _sq_sep_table[256];

G_END_DECLS
