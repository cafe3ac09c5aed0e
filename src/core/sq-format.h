/* sq-format.h: the formats Sequin reads and writes, and the one way in and out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every reader parses from memory (GBytes) and every writer produces GBytes
 * (pieces of a file, in order): the core never touches files. sq-format-registry.c is the only list of
 * formats; the CLI's format ids and the editor's file filters come from it.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"

G_BEGIN_DECLS

typedef enum
{
  SQ_FORMAT_READ  = 1 << 0,
  SQ_FORMAT_WRITE = 1 << 1,
  SQ_FORMAT_TEXT  = 1 << 2,
  /* the root's locations are stored apart from the joint entries and
   * belong to the header's root name (binary SEQ's location blocks) */
  SQ_FORMAT_ROOT_APART = 1 << 3,
  /* the frame rate is a field of the file (BVH's Frame Time, .x's
   * AnimTicksPerSecond) that an edit may change; formats without it have a
   * fixed time base */
  SQ_FORMAT_FRAME_RATE = 1 << 4,
  /* the file keeps part of its data in companion files (a Sims CMX skill's
   * CFP): loads ask for them through SqLoadOptions.companion, saves give
   * them in SqSaveOptions.companions, and the writer makes its own exact
   * save of an unedited clip */
  SQ_FORMAT_COMPANIONS = 1 << 5,
  /* key times count in ticks of the frame rate (.x's AnimTicksPerSecond):
   * the editor shows ticks, not frames */
  SQ_FORMAT_TICKS = 1 << 6,
  /* keys are stored quantised (.anim's 16-bit keys): a save moves them
   * (the world's add_save_loss tells by how much) */
  SQ_FORMAT_QUANTISED = 1 << 7,
  /* the format takes a clip of any world as it is (glTF): a save gives the
   * writer the clip unconverted, and every field of every format is its
   * own (none is reported lost) */
  SQ_FORMAT_ANY_WORLD = 1 << 8,
  /* a file of poses, one a frame, that the pose library opens as a list
   * of poses (SimPose-ium's PSL) */
  SQ_FORMAT_POSE_LIST = 1 << 9,
  /* the first frame may be a reference pose that the world's importer
   * does not play (Second Life's BVH upload): the preview's trail skips it */
  SQ_FORMAT_REFERENCE_FRAME = 1 << 10,
} SqFormatFlags;

/* The bytes of a companion file named `name` (as the main file names it,
 * to be found beside it), or NULL with an error */
typedef GBytes *(*SqCompanionFunc) (const char *name,
                                    gpointer    user_data,
                                    GError    **error);

typedef struct
{
  guint32 _begin_zero;
  guint   max_joints;       /* 0: the default limit (65,536) */
  SqCompanionFunc companion;  /* NULL: a file that needs a companion fails to load */
  gpointer        companion_data;
  /* which animation of a file that holds several (sq_clip_get_takes), from
   * 0, the first; a take the file does not have fails the load */
  guint   take;
  guint32 _end_zero;
} SqLoadOptions;

/* A companion file a save gives besides the main file (SQ_FORMAT_COMPANIONS) */
typedef struct
{
  char   *name;             /* file name, to be written beside the main file */
  GBytes *bytes;
} SqCompanion;

void sq_companion_free (SqCompanion *companion);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqCompanion, sq_companion_free)

typedef struct _SqJointMap SqJointMap;  /* sq-joint-map.h */
typedef struct _SqSpace SqSpace;        /* sq-convert.h */
typedef struct _SqWorldHome SqWorldHome; /* sq-world.h */
typedef struct _SqWorldEdit SqWorldEdit; /* sq-world.h */
typedef struct _SqFieldSet SqFieldSet;   /* sq-world.h */

typedef struct
{
  guint32  _begin_zero;
  gboolean no_source_copy;  /* always serialise, even when the clip is unedited */
  /* joint names to use when the clip is converted from another format,
   * before the built-in table (NULL: the table only) */
  const SqJointMap *map;
  /* for SQ_FORMAT_COMPANIONS formats: receives SqCompanion*s (free func
   * sq_companion_free); NULL makes such a save fail when it has one */
  GPtrArray *companions;
  /* receives the lines of the report that are no loss (a Second Life
   * .anim's size against the upload limit), translated; NULL: they go to
   * the losses with the rest */
  GPtrArray *notes;
  /* a BVH written from a clip of another world: without the reference
   * frame (the rest pose) the Second Life upload takes frame 0 to be */
  gboolean   no_reference_frame;
  /* a BVH pose (every frame the same) saved for Second Life: as the
   * viewer's upload would, with no joints, instead of taking the rest pose
   * as its reference frame (worlds/sq-sl-behaviour.h) */
  gboolean   literal_pose;
  /* for SQ_FORMAT_COMPANIONS formats: the names the companions get, as
   * sq_save_files() decides them for the output's name (NULL: the names
   * the clip read, or the format's own for a new file) */
  const char * const *companion_names;
  guint32  _end_zero;
} SqSaveOptions;

struct _SqFormat
{
  const char         *id;          /* stable id: "seq-binary" */
  const char         *name;        /* display name, translatable (N_) */
  const char * const *extensions;  /* lower case, without the dot */
  const char         *mime_type;
  SqFormatFlags       flags;
  /* the root joint when the file names none (NULL: the first joint) */
  const char         *default_root;
  /* keys of SqClip.extra and SqJoint.extra this format writes; the others are
   * reported as lost when a clip from another format is saved in this one */
  const char * const *fields;
  /* readable text for one of its own fields, for loss reports; NULL when
   * dropping it loses nothing */
  char    *(*describe_field) (const char *key,
                              GVariant   *value);
  /* optional: appends one of its fields to a dump, as JSON (a value) or as
   * readable lines; FALSE leaves it to the generic rendering */
  gboolean (*dump_field)     (GString    *out,
                              const char *key,
                              GVariant   *value,
                              gboolean    json);

  /* 0 (surely not) .. 100 (surely this format), from the first bytes */
  int      (*probe) (const guint8 *data,
                     gsize         len);
  SqClip  *(*read)  (GBytes              *bytes,
                     const SqLoadOptions *options,
                     GError             **error);
  /* `losses` receives one line (char *) per thing the format cannot hold;
   * gives the file as pieces (see sq_save_pieces) */
  GPtrArray *(*write) (const SqClip        *clip,
                       const SqSaveOptions *options,
                       GPtrArray           *losses,
                       GError             **error);
  /* units, axes, rotation convention, joint names, time grid (sq-convert.h);
   * NULL: converted clips keep their values and names */
  const SqSpace *space;
  /* the world whose viewers play the format (its validation, its fields
   * every clip keeps); NULL: none */
  const SqWorldHome *world;
  /* the format's own fields (sq-world.h), NULL: none */
  const SqFieldSet  *field_set;

  /* SQ_FORMAT_COMPANIONS formats (sq_save_files): the companion names a
   * file of this format refers to (NULL: none, or not such a file), the
   * names a clip of this format read, and the names a new file called
   * `out_name` gives its companions; all NULL-terminated, g_strfreev */
  char   **(*companions_in)  (GBytes       *bytes);
  char   **(*companions_of)  (const SqClip *clip);
  char   **(*companions_for) (const char   *out_name);
};

/* The table of formats, lookup and detection (sq-format-registry.c) */
const SqFormat * const *sq_formats               (gsize          *n_formats);
const SqFormat         *sq_format_by_id          (const char     *id);
/* The format of the common space clips of two worlds are compared in
 * (Second Life's .anim: sq-convert.h's common axes and units) */
const SqFormat         *sq_format_common         (void);
/* The first format in the table with all of `flags`, NULL for none */
const SqFormat         *sq_format_with_flags     (SqFormatFlags   flags);
const SqFormat         *sq_format_for_filename   (const char     *filename,
                                                  const SqFormat *preferred);
const SqFormat         *sq_format_detect         (GBytes         *bytes,
                                                  const char     *filename);
const char             *sq_format_get_name       (const SqFormat *format);
/* The format a new document is saved in when it has none (binary SEQ) */
const SqFormat         *sq_format_default        (void);
gboolean                sq_format_can_write      (const SqFormat *format);

/* Loading and saving, above the table (sq-load-save.c) */

/* Reads a clip; `format` NULL means detect it from the content, then the name. */
SqClip                 *sq_load_bytes            (GBytes              *bytes,
                                                  const char          *filename,
                                                  const SqFormat      *format,
                                                  const SqLoadOptions *options,
                                                  GError             **error);
/* Writes a clip in `format`, as pieces (GBytes) whose concatenation, in
 * order, is the file: records the clip still holds as they were read are
 * not copied but come as slices of the bytes they were read from (saving then copies nothing of them but into the file, and holds no
 * second copy of them). An unedited clip saved in its own format gives back
 * exactly the bytes it was read from. `losses` (may be NULL) receives what
 * `format` cannot hold. */
GPtrArray              *sq_save_pieces           (const SqClip        *clip,
                                                  const SqFormat      *format,
                                                  const SqSaveOptions *options,
                                                  GPtrArray           *losses,
                                                  GError             **error);
/* The same, as one buffer */
GBytes                 *sq_save_bytes            (const SqClip        *clip,
                                                  const SqFormat      *format,
                                                  const SqSaveOptions *options,
                                                  GPtrArray           *losses,
                                                  GError             **error);

/* ---- Saving into a folder (sq-save-files.c) ----
 *
 * A save writes the file it was given and the companions that belong to
 * that name, nothing else. The core decides the names and which existing
 * file may not be replaced; the I/O layer (src/io) reads the folder for it
 * and writes all the files together. */

/* The folder a save writes into, as the I/O layer sees it */
typedef struct
{
  /* the bytes of the entry `name` (matched ignoring case when there is no
   * entry of that exact name; *found, when not NULL, receives the entry's
   * own name), NULL when there is none */
  GBytes *(*read) (const char *name,
                   char      **found,
                   gpointer    data);
  /* the names of the folder's entries, NULL-terminated */
  char  **(*list) (gpointer data);
  gpointer data;
} SqFolder;

/* One file a save writes */
typedef struct
{
  char      *name;      /* its name in the folder; the first is the output itself */
  GPtrArray *pieces;    /* GBytes*: its content, in order */
  /* NULL, or (translated) why it is not to be replaced without the user
   * saying so: it exists and belongs to another file */
  char      *conflict;
} SqSaveFile;

void sq_save_file_free (SqSaveFile *file);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqSaveFile, sq_save_file_free)

/* Every file saving `clip` as `out_name` in `folder` writes (SqSaveFile*,
 * the output first, then its companions), as sq_save_pieces() would write
 * them: a companion's name follows the output's (a CMX skill saved as
 * `mirrored.cmx` keeps its keys in `xskill-mirrored.cfp`), unless the
 * output exists and already names it (saving over the same file keeps its
 * companions' names). A companion that exists and is not the output's own,
 * or that another file of the folder also names, gets a `conflict`.
 * `options->companions` and `companion_names` are set here. */
GPtrArray              *sq_save_files            (const SqClip        *clip,
                                                  const SqFormat      *format,
                                                  const char          *out_name,
                                                  const SqFolder      *folder,
                                                  const SqSaveOptions *options,
                                                  GPtrArray           *losses,
                                                  GError             **error);

G_END_DECLS
