/* sq-error.h: the format core's error domain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SQ_ERROR (sq_error_quark ())

typedef enum
{
  SQ_ERROR_TRUNCATED,           /* the data ends before a field it announces */
  SQ_ERROR_BAD_MAGIC,           /* not this format at all */
  SQ_ERROR_BAD_VALUE,           /* a field holds a value the format forbids */
  SQ_ERROR_SYNTAX,              /* text that does not follow the grammar */
  SQ_ERROR_LIMIT_EXCEEDED,      /* a count larger than the data can hold */
  SQ_ERROR_UNSUPPORTED,         /* a variant or version we do not handle */
  SQ_ERROR_NOT_FOUND,           /* an edit names a joint that does not exist */
  SQ_ERROR_EXISTS,              /* an edit would create a duplicate name */
  SQ_ERROR_INVALID_ARGUMENT,    /* an edit or save parameter out of range */
  SQ_ERROR_CANNOT_WRITE,        /* the document cannot be written in that format */
} SqErrorCode;

GQuark sq_error_quark (void);

/* Errors that point into the input: every reader reports through these two so
 * messages look the same everywhere ("offset 0x1c (28)" / "line 12, column 5"). */
void sq_set_error_at_offset (GError   **error,
                             SqErrorCode code,
                             gsize       offset,
                             const char *format,
                             ...) G_GNUC_PRINTF (4, 5);
void sq_set_error_at_line   (GError   **error,
                             SqErrorCode code,
                             guint       line,
                             guint       column,
                             const char *format,
                             ...) G_GNUC_PRINTF (5, 6);
/* the same, for wrappers that take their own format and arguments */
void sq_set_error_at_line_valist (GError   **error,
                                  SqErrorCode code,
                                  guint       line,
                                  guint       column,
                                  const char *format,
                                  va_list     args) G_GNUC_PRINTF (5, 0);

/* A reader's error in plain words, to lead its message with ("The file is
 * cut short."; the detail with the offset or line goes under it), or NULL
 * for an error that is no reader's (I/O, an edit's refusal) */
const char *sq_error_plain_cause (const GError *error);

G_END_DECLS
