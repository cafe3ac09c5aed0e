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
/* "--name=VALUE" or "--name VALUE" at argv[*i] (*i moves past it), NULL
 * when missing; whether `arg` is "--name" or "--name=…" */
const char *option_value    (int         argc,
                             char      **argv,
                             int        *i,
                             const char *name);
gboolean option_is          (const char *arg,
                             const char *name);

/* sequin-cli-tools.c: the animator's tools. An edit option of the motion
 * edits (--mirror, --resample FPS …) at argv[*i]: FALSE when it is none;
 * else the edit is added to `edits` (*i past its value), or *bad is set
 * after a usage message. */
gboolean cli_motion_option  (int         argc,
                             char      **argv,
                             int        *i,
                             GPtrArray  *edits,
                             gboolean   *bad);
/* sequin-cli-sims.c: the Sims world's edit options (--rename-pose …), as
 * cli_motion_option */
gboolean cli_sims_option    (int         argc,
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
/* a command of sequin-cli.c, as main calls it */
typedef int (*CliCommand) (int argc, char **argv);
/* TRUE when the arguments have --out-dir: many inputs, see cli_batch */
gboolean cli_is_batch       (int         argc,
                             char      **argv);
/* `convert --to FORMAT --out-dir DIR FILE…` (edit FALSE) or `edit
 * --out-dir DIR [--to FORMAT] FILE… OPERATION…`: `command` once per FILE
 * over all cores, the output in DIR under the FILE's base name (with
 * FORMAT's extension); a summary line on stderr; 1 when any failed */
int      cli_batch          (CliCommand  command,
                             gboolean    edit,
                             int         argc,
                             char      **argv);
/* `command` (cmd_info) for each FILE in turn, each after a "File:" line */
int      cli_each_file      (CliCommand  command,
                             int         argc,
                             char      **argv);
int      cli_diff           (int         argc,
                             char      **argv);
