/* sequin-cli-private.h: what the command-line tool's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sq-core.h"

#define EXIT_BAD_INPUT 1
#define EXIT_USAGE     2

/* sequin-cli.c */
int      usage_error        (const char *format,
                             ...) G_GNUC_PRINTF (1, 2);
SqClip  *load_file          (const char *path,
                             GError    **error);
int      fail_file          (const char   *path,
                             const GError *error);

/* sequin-cli-tools.c: the animator's tools. An edit option of the motion
 * edits (--mirror, --resample FPS …) at argv[*i]: FALSE when it is none;
 * else the edit is added to `edits` (*i past its value), or *bad is set
 * after a usage message. */
gboolean cli_motion_option  (int         argc,
                             char      **argv,
                             int        *i,
                             GPtrArray  *edits,
                             gboolean   *bad);
/* what an applied edit reports (reduce: keys before and after) */
void     cli_print_report   (const char *path,
                             const SqEdit *edit);
/* validate --loss: what saving as .anim does to the motion; FALSE when the
 * clip cannot be written as .anim */
gboolean cli_print_loss     (const char *path,
                             const SqClip *clip);
int      cli_diff           (int         argc,
                             char      **argv);
