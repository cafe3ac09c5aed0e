/* sq-io.h: the files of a save, written together (shared by the CLI and the editor)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The core decides what a save writes and what it may not replace
 * (sq_save_files); this is the small I/O layer under it: a local folder as
 * an SqFolder, and the writing of all the files of one save at once.
 */
#pragma once

#include "sq-core.h"

G_BEGIN_DECLS

#define SQ_IO_ERROR (sq_io_error_quark ())

typedef enum
{
  /* a companion the save would write exists and belongs to another file */
  SQ_IO_ERROR_COMPANION_TAKEN,
} SqIoError;

GQuark     sq_io_error_quark  (void);

/* An SqFolder over the local folder `dir` (which must outlive it) */
void       sq_io_folder_init  (SqFolder   *folder,
                               const char *dir);

/* Writes every SqSaveFile of `files` into `dir`: each to a temporary file
 * beside its name; only when all are complete are they renamed, the
 * companions before the first (the output). A failure before the renames
 * leaves every file as it was and no temporary file behind; a rename that
 * fails puts back the files already renamed over. Of several files, the
 * renames run under a journal: killed between them, the save is finished
 * by the next sq_io_finish_saves() there. */
gboolean   sq_io_write_files  (const char *dir,
                               GPtrArray  *files,
                               GError    **error);

/* Makes the renames a save of several files killed half way left in `dir`
 * (its journal, sq-io.c): call it before reading a file and its companions
 * there. A save still running is left alone. */
void       sq_io_finish_saves (const char *dir);

/* Tests only: `hook` is called at each stage of a save of several files:
 * "written" (every temporary file complete), "committed" (the journal in
 * place), "renamed" (the first file renamed, before the next). */
void       sq_io_set_stage_hook (void (*hook) (const char *stage));

/* The whole save of `clip` as `path`: sq_save_files() in its folder, then
 * sq_io_write_files(). A companion with a conflict fails it with
 * SQ_IO_ERROR_COMPANION_TAKEN (nothing written) unless `replace_taken`.
 * Gives the files written (SqSaveFile*), or NULL with an error. */
GPtrArray *sq_io_save         (const char          *path,
                               const SqClip        *clip,
                               const SqFormat      *format,
                               const SqSaveOptions *options,
                               GPtrArray           *losses,
                               gboolean             replace_taken,
                               GError             **error);

G_END_DECLS
