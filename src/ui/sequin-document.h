/* sequin-document.h: one open animation: the clip, its file and its undo history
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sq-core.h"

G_BEGIN_DECLS

#define SEQUIN_DOCUMENT_ERROR (sequin_document_error_quark ())

typedef enum
{
  /* the target format cannot hold everything; the losses say what */
  SEQUIN_DOCUMENT_ERROR_LOSSES,
  SEQUIN_DOCUMENT_ERROR_BUSY,
  /* a companion the save writes (a skill's CFP) exists and belongs to
   * another file; the message says which */
  SEQUIN_DOCUMENT_ERROR_COMPANION_TAKEN,
} SequinDocumentError;

typedef enum
{
  SEQUIN_SAVE_DEFAULT               = 0,
  SEQUIN_SAVE_ACCEPT_LOSSES         = 1 << 0, /* write even if the format drops something */
  SEQUIN_SAVE_IGNORE_CHANGES_ON_DISK = 1 << 1, /* overwrite a file another program changed */
  SEQUIN_SAVE_REPLACE_COMPANIONS    = 1 << 2, /* replace companions that belong to another file */
} SequinSaveFlags;

typedef enum
{
  SEQUIN_LOAD_DEFAULT = 0,
  SEQUIN_LOAD_AS_COPY = 1 << 0, /* keep the name for the title but no file: saving asks where */
} SequinLoadFlags;

/* How far a save is (sequin_document_get_save_progress) */
typedef enum
{
  SEQUIN_SAVE_STAGE_CONVERTING = 1, /* the clip into the bytes of its format */
  SEQUIN_SAVE_STAGE_CHECKING,       /* those bytes read back (another format, losses) */
  SEQUIN_SAVE_STAGE_WRITING,        /* the files written and renamed: no more cancelling */
} SequinSaveStage;

#define SEQUIN_TYPE_DOCUMENT (sequin_document_get_type ())

G_DECLARE_FINAL_TYPE (SequinDocument, sequin_document, SEQUIN, DOCUMENT, GObject)

GQuark          sequin_document_error_quark    (void);

SequinDocument *sequin_document_new            (void);
/* A document of `clip` (taken), made in memory (a new animation): no file
 * (saving asks where), titled `title`, unmodified */
SequinDocument *sequin_document_new_for_clip   (SqClip              *clip,
                                                const char          *title);
void            sequin_document_load_async     (SequinDocument      *self,
                                                GFile               *file,
                                                SequinLoadFlags      flags,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
/* The same for take `take` of a file that holds several animations
 * (sq_clip_get_takes; 0 is the first) */
void            sequin_document_load_take_async (SequinDocument     *self,
                                                GFile               *file,
                                                SequinLoadFlags      flags,
                                                guint                take,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
/* While a load is under way: the bytes read of the file's total (0 when
 * not known) and whether its keys are being read from them; FALSE when no
 * load is under way */
gboolean        sequin_document_get_load_progress (SequinDocument   *self,
                                                   guint64          *done,
                                                   guint64          *total,
                                                   gboolean         *parsing);
gboolean        sequin_document_load_finish    (SequinDocument      *self,
                                                GAsyncResult        *result,
                                                GError             **error);
/* `format` NULL: the document's own. On SEQUIN_DOCUMENT_ERROR_LOSSES, `losses`
 * receives what would be lost; on G_IO_ERROR_WRONG_ETAG the file changed on
 * disk since it was read or written. Either way nothing was written.
 * `notes` (may be NULL) receives the conversion's notes (retargeted joints,
 * root motion scaled, a .anim's size), saved or not. */
void            sequin_document_save_async     (SequinDocument      *self,
                                                GFile               *file,
                                                const SqFormat      *format,
                                                SequinSaveFlags      flags,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
/* While a save is under way: its stage and the bytes it writes (0 until
 * they are known); FALSE when no save is under way. A save cancelled
 * before SEQUIN_SAVE_STAGE_WRITING writes nothing and returns at once. */
gboolean        sequin_document_get_save_progress (SequinDocument   *self,
                                                   SequinSaveStage  *stage,
                                                   guint64          *bytes);
gboolean        sequin_document_save_finish    (SequinDocument      *self,
                                                GAsyncResult        *result,
                                                GStrv               *losses,
                                                GStrv               *notes,
                                                GError             **error);

const SqClip   *sequin_document_get_clip       (SequinDocument      *self);
GFile          *sequin_document_get_file       (SequinDocument      *self);
const SqFormat *sequin_document_get_format     (SequinDocument      *self);
const char     *sequin_document_get_title      (SequinDocument      *self);
gboolean        sequin_document_get_modified   (SequinDocument      *self);
gboolean        sequin_document_get_busy       (SequinDocument      *self);

/* Takes `edit`; applies it through the core and keeps it for undo. */
gboolean        sequin_document_apply          (SequinDocument      *self,
                                                SqEdit              *edit,
                                                GError             **error);
gboolean        sequin_document_can_undo       (SequinDocument      *self);
gboolean        sequin_document_can_redo       (SequinDocument      *self);
const char     *sequin_document_get_undo_label (SequinDocument      *self);
const char     *sequin_document_get_redo_label (SequinDocument      *self);
gboolean        sequin_document_undo           (SequinDocument      *self);
gboolean        sequin_document_redo           (SequinDocument      *self);

G_END_DECLS
