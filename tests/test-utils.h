/* test-utils.h: helpers shared by the core tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sq-core.h"

/* Big-endian byte builder for hand-made binary SEQ files */
void        tu_be32       (GByteArray *b, guint32 v);
void        tu_le16       (GByteArray *b, guint v);
void        tu_le32       (GByteArray *b, guint32 v);
void        tu_be16       (GByteArray *b, guint16 v);
void        tu_f32        (GByteArray *b, float v);
void        tu_le_f32     (GByteArray *b, float v);
void        tu_name       (GByteArray *b, const char *latin1);
/* A binary SEQ header: magic 7F7F7F79, frame and joint counts, model "m"
 * and root "pelvis" */
GByteArray *tu_seq_header (guint16 frames, guint32 n_joints);
/* A joint entry with `n` rotation keys, all identity, at frames 1, 2, … */
void        tu_seq_joint  (GByteArray *b, const char *name, guint32 n);

/* The shared corpus folder, or NULL (tests skip) */
const char *tu_corpus_dir (void);
char *tu_corpus_path (const char *subdir,
                      const char *name);
/* Every file of a corpus subfolder, sorted; empty when absent */
GPtrArray  *tu_corpus_files (const char *subdir);
GBytes     *tu_read       (const char *path);
/* "name sha256" of every file of `dir` and the folders below it ("sub/name"),
 * one a line, in order of name: the folder's state, to compare before and
 * after a save */
char       *tu_folder_sums (const char *dir);
/* `src` copied to `dest`, every `from` in it made `to` when `to` is not NULL
 * (a skill renamed to name another CFP) */
void        tu_copy_renamed (const char *src,
                             const char *dest,
                             const char *from,
                             const char *to);
/* SqLoadOptions.companion: the file `name` in the folder `dir` */
GBytes     *tu_read_beside (const char *name,
                            gpointer    dir,
                            GError    **error);
/* The file `name` of `dir`, its companions (a skill's CFP) from beside it */
SqClip     *tu_load_in     (const char *dir,
                            const char *name);
SqClip     *tu_load       (GBytes *bytes, GError **error);
/* Loads and checks the model invariants */
SqClip     *tu_load_ok    (GBytes *bytes);
/* Reads text as `format_id`, or through detection when NULL */
SqClip     *tu_load_text  (const char *text, const char *format_id, GError **error);
/* TRUE when one of the strings (losses, warnings) contains `fragment` */
gboolean    tu_has_line   (GPtrArray *lines, const char *fragment);
/* Fails unless there is an error and its message contains `fragment` */
void        tu_assert_mentions (const GError *error, const char *fragment);
/* Decodes every packed track of the clip (SqKeyCodec) into keys */
void        tu_unpack     (SqClip *clip);
/* Every writable format's bytes (or error) and losses for the clip, and a
 * check that two such lists are the same */
GPtrArray  *tu_save_every_format (const SqClip *clip);
void        tu_assert_same_saves (GPtrArray *a, GPtrArray *b);
GBytes     *tu_save       (const SqClip *clip, const char *format_id, GPtrArray *losses);
/* The writer's own text of `text`, a .x written from `clip`: without the
 * file's other AnimationSets and top-level objects it keeps (written as
 * they were read, each found in order); *own_len gets its length */
char       *tu_dx_own_text (const SqClip *clip, const char *text, gsize len, gsize *own_len);
/* Applies `edit` to the unmodified `clip` and checks it (`check` gets the
 * clip before and after), undoes (bitwise back, unmodified), redoes (the
 * same as the first apply) and undoes again */
void        tu_apply_undo_redo (SqClip *clip, SqEdit *edit,
                                void (*check) (const SqClip *before, const SqClip *after));
/* The spec's text SEQ example (7 limbs) */
extern const char tu_spec_example[];
