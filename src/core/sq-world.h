/* sq-world.h: what a world (and a format) tells the editor and the command
 * line about itself: its validation and its fields
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each world's home (worlds/sq-world-*.c) defines one SqWorldHome: its
 * validation target and validator, and the fields every clip keeps for it
 * (Second Life's .anim fields). A format may add fields of its own
 * (SqFormat.field_set: .x's AnimationSet name, BVH's frame time). A field
 * is described once (SqField): its key, label, type and range, how its
 * value is read (what the writer would write) and the core edit that sets
 * it. The properties panel builds its rows from these and the command
 * line its field options, so neither names a format.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "sq-diff.h"
#include "sq-edit.h"
#include "sq-format.h"
#include "sq-joint-map.h"
#include "sq-retarget.h"

G_BEGIN_DECLS

typedef enum
{
  SQ_FIELD_INT,        /* whole number in min..max */
  SQ_FIELD_DOUBLE,     /* number in min..max, shown with `digits` decimals */
  SQ_FIELD_BOOL,       /* on or off (number 0 or 1) */
  SQ_FIELD_CHOICE,     /* one of min..max, named by choice_name () */
  SQ_FIELD_TEXT,       /* UTF-8 text, at most max bytes (0: any length) */
  /* records shown a row each (n_items, describe_item), each deletable
   * (delete_item); at most max of them */
  SQ_FIELD_LIST,
} SqFieldType;

/* the upper end of a range the edit bounds by the clip (a loop point by
 * its duration) or not at all */
#define SQ_FIELD_UNBOUNDED G_MAXDOUBLE

/* the frame times the frame rate edits accept (sq_edit_set_frame_time_new,
 * sq_edit_set_frame_rate_new) */
#define SQ_MIN_FRAME_TIME  0.001
#define SQ_MAX_FRAME_TIME  10.0

typedef enum
{
  /* the value is the selected joint's (the getter and edit take a joint) */
  SQ_FIELD_PER_JOINT  = 1 << 0,
  /* the command line's help for the option is help, then the range the
   * edit accepts: ", MIN to MAX", or " (MIN to MAX UNIT)" when the field
   * has a help_unit */
  SQ_FIELD_HELP_RANGE = 1 << 1,
} SqFieldFlags;

/* A field's value: number for every type but text (TRUE/FALSE as 1/0, a
 * choice's index), text for SQ_FIELD_TEXT (owned: sq_field_value_clear) */
typedef struct
{
  double  number;
  char   *text;
} SqFieldValue;

void sq_field_value_clear (SqFieldValue *value);

typedef struct _SqField SqField;

struct _SqField
{
  const char  *key;          /* stable id, the clip extra it shows: "priority" */
  const char  *label;        /* translatable (N_), with a mnemonic: "_Priority" */
  const char  *description;  /* translatable (N_): the control's tooltip */
  SqFieldType  type;
  SqFieldFlags flags;
  double       min, max;     /* the range the edit accepts */
  double       step;         /* a spin button's step */
  guint        digits;       /* decimals shown */
  /* a SQ_FIELD_BOOL of the same set that must be on for this one to mean
   * anything (the loop points need the loop), or NULL */
  const char  *enabled_by;
  const char  *placeholder;  /* translatable (N_): shown for empty text or an empty list, or NULL */
  /* SQ_FIELD_CHOICE: the translated name of choice `index` (min..max) */
  const char *(*choice_name) (guint index);
  /* The value the format's writer would write (its default when the clip
   * has none); `joint` (an index) for SQ_FIELD_PER_JOINT fields */
  void     (*get)  (const SqClip       *clip,
                    gssize              joint,
                    SqFieldValue       *out);
  /* The core edit that sets the value (the clip's other fields stay as
   * they are); `joint` (a name) for SQ_FIELD_PER_JOINT fields. The edit
   * refuses values out of range when it is applied. */
  SqEdit  *(*edit) (const SqClip       *clip,
                    const char         *joint,
                    const SqFieldValue *value);
  /* SQ_FIELD_LIST: how many records; record `index`'s title (translated,
   * newly allocated) with its detail lines (`details`, NULL-terminated,
   * g_strfreev); the edit that deletes it; its delete button's name, a
   * translated, newly allocated */
  guint    (*n_items)       (const SqClip *clip);
  char    *(*describe_item) (const SqClip *clip,
                             guint         index,
                             char       ***details);
  SqEdit  *(*delete_item)   (const SqClip *clip,
                             guint         index);
  char    *(*delete_label)  (guint         index);
  /* the command line: `--option ARG`, its help (not translated, like the
   * rest of the command line's help); option NULL: no option of its own */
  const char  *option;
  const char  *arg;
  const char  *help;
  const char  *help_unit;    /* SQ_FIELD_HELP_RANGE: the unit of the range ("s"), or NULL */
};

struct _SqFieldSet
{
  const char    *title;      /* translatable (N_): the group's heading */
  const SqField *fields;
  gsize          n_fields;
  /* NULL, or whether the set applies to this clip of its format (a CMX
   * file has a skill only when it holds one) */
  gboolean     (*applies) (const SqClip *clip);
  /* the format has more fields than these: the rest are listed read only */
  gboolean       partial;
  /* a world's set (SqWorldHome.fields), which every clip keeps: the format
   * that saves it, whose documents show it as their own group; other
   * documents show it in an expander titled kept_title (N_, with a
   * mnemonic), described by kept_description and kept_note (N_) */
  const SqFormat *format;
  const char     *kept_title;
  const char     *kept_description;
  const char     *kept_note;
};

/* ---- mirroring (sq_edit_mirror_new) ---- */

/* How a world's joint names pair left with right: a prefix, a suffix, a
 * prefix followed by an upper-case letter (lShldr), or anywhere in the name,
 * the first time (HindLeg_L_01) */
typedef enum
{
  SQ_MIRROR_PREFIX,
  SQ_MIRROR_SUFFIX,
  SQ_MIRROR_PREFIX_UPPER,
  SQ_MIRROR_INFIX,
} SqMirrorPairKind;

typedef struct
{
  SqMirrorPairKind kind;
  const char      *left;
  const char      *right;
} SqMirrorPair;

/* A world's mirror: a reflection through its sagittal plane. It negates
 * the lateral component of a translation and, a rotation axis being a
 * pseudovector, the two other components of a rotation's vector part; a
 * joint's keys then move to its partner (named by `pairs`). */
typedef struct
{
  /* tried in order, ended by a NULL left */
  const SqMirrorPair *pairs;
  /* the axis (0 x, 1 y, 2 z) that points sideways in the world's files */
  int                 lateral;
  /* NULL when every joint's frame has `lateral` sideways; else the axis
   * that points sideways in the frame joint `joint`'s keys are in (its
   * parent's, or the world's) and in its own frame (the Sims' bones have
   * their own axes) */
  void              (*frame_axes) (const SqClip *clip,
                                   gsize         joint,
                                   int          *parent_axis,
                                   int          *own_axis);
  /* rotation keys store the conjugate (row-vector rotations: the Sims) */
  gboolean            conjugate;
  /* rotation keys keep the file's Euler angles in SqTrack.alt, in the
   * order of the joint's "channels" extra (BVH): they are reflected too */
  gboolean            euler_alt;
} SqMirror;

/* ---- a world's own edits, by name (the edit table) ---- */

/* An edit's arguments, as the command line gives them */
typedef struct
{
  const char *text;          /* a name, or a text the edit reads (a constraint SPEC) */
  const char *text2;         /* a second name: NEW of OLD=NEW */
  double      v[3];          /* numbers */
  gint64      n;             /* a whole number counted from 1 (a place, a constraint) */
} SqEditArgs;

struct _SqWorldEdit
{
  /* the command line's option, without "--": "rename-pose" */
  const char *id;
  /* NULL, or whether args->text reads as the edit's text; FALSE with
   * *message (newly allocated, in the command line's words: not
   * translated) */
  gboolean  (*check) (const char  *text,
                      char       **message);
  /* The edit with these arguments for `clip` as it is now (a constraint
   * edit starts from the clip's constraint); refused when applied if
   * they do not fit */
  SqEdit   *(*make)  (const SqClip     *clip,
                      const SqEditArgs *args);
};

/* One kind of new animation a world offers (sq-clip-new.h): the id the
 * CLI's `new --world` takes ("sl-bento") and its translatable (N_) label
 * for the editor's New dialog */
typedef struct
{
  const char *id;
  const char *label;
} SqWorldNewClip;

struct _SqWorldHome
{
  const char *id;            /* the validation target: "sl" */
  const char *name;          /* translatable (N_): "Second Life" */
  /* Appends SqFinding*s for what the world's viewers or tools would ignore
   * or reject */
  void      (*validate)      (const SqClip *clip,
                              GPtrArray    *findings);
  /* optional: appends notes on what saving in the world's format does to
   * the motion (a quantised encoding), per joint */
  void      (*add_save_loss) (const SqClip *clip,
                              GPtrArray    *findings);
  /* translatable (N_): the heading of those notes ("Saved as .anim") */
  const char *save_loss_title;
  /* fields every clip keeps for this world, whatever its format (NULL:
   * none); its own formats show them as their group */
  const SqFieldSet *fields;

  /* ---- the world's skeleton, for conversions (sq-retarget.h) ---- */
  /* Fills `rest` (its arrays made for `clip`'s joints: offsets zero,
   * rotations the identity) with each joint's parent, rest offset and
   * rest rotation (metres, Second Life axes) for `clip`'s joints as a file
   * of `format`, one of the world's: the file's own skeleton where it
   * brings one (a BVH's OFFSETs, a .x's frames; rest->from_file TRUE), else
   * the world's rest skeleton by the joints' names, each joint under the
   * nearest joint above it the clip has. Returns the root, -1 for none.
   * It may set rest->absolute and rest->hip_height. NULL: the world's
   * clips are not retargeted. */
  gssize      (*rest_skeleton) (const SqClip   *clip,
                                const SqFormat *format,
                                SqRest         *rest);
  /* metres: the hip above the soles of the world's avatar at rest (root
   * motion is scaled by the ratio of two worlds'), where rest_skeleton
   * leaves rest->hip_height 0; NULL: unknown */
  double      (*hip_height)    (void);
  /* optional: FALSE with `error` when a clip of the world cannot be
   * converted to `target`, another world's (a SimPose-ium sequence holds
   * no animation) */
  gboolean    (*check_convert) (const SqClip   *clip,
                                const SqFormat *target,
                                GError        **error);
  /* optional: `out`, a clip converted into the world (its joints renamed
   * and retargeted onto rest_skeleton's rest, each under the nearest joint
   * above it that it has; its values in `target`'s space, its key times
   * the source's), as a whole clip of `target` (The Sims: all 29 bones,
   * the motion sampled on every frame), its lines added to `losses`; NULL
   * with `error` when it cannot be one */
  SqClip     *(*complete_clip) (const SqClip   *out,
                                const SqFormat *target,
                                GPtrArray      *losses,
                                GError        **error);
  /* a clip of the world has the world's bones only: a joint of another
   * world without a counterpart is left out, not kept by its name */
  gboolean    fixed_skeleton;
  /* optional: appends notes (_sq_loss) on a file of `size` bytes just
   * written in `format`, one of the world's, from a clip of another format
   * (Second Life's upload limit) */
  void      (*add_save_notes) (const SqFormat *format,
                               gsize           size,
                               GPtrArray      *notes);

  /* ---- a save's conversion into the world (_sq_convert_for_save) ---- */
  /* optional: the clip to convert to `format` (one of the world's) in
   * place of `clip`, with the save's options, its lines added to `losses`
   * (and notes to options->notes, else to `losses`); NULL: `clip` itself
   * (Second Life: a BVH pose gets a reference frame). Never converts. */
  SqClip     *(*before_convert) (const SqClip        *clip,
                                 const SqFormat      *format,
                                 const SqSaveOptions *options,
                                 GPtrArray           *losses);
  /* optional: afterwards, on `converted` (`clip` converted to `format`)
   * and the conversion's lines in `losses` (never NULL here: a save
   * without lines gets a list of its own), by the save's options (Second
   * Life: the reference frame's line moves to the notes, or the frame is
   * dropped). Never converts. */
  void        (*after_convert)  (const SqClip        *clip,
                                 const SqFormat      *format,
                                 SqClip              *converted,
                                 const SqSaveOptions *options,
                                 GPtrArray           *losses);

  /* the world's own edits beyond its fields (loop, constraints, poses),
   * ended by a NULL id; NULL: none */
  const SqWorldEdit *edits;

  /* ---- new animations (sq-clip-new.h) ---- */
  /* the kinds of new animation the world offers, ended by a NULL id; NULL:
   * none */
  const SqWorldNewClip *new_clips;
  /* a clip of one of them (`variant`, an id above) in the world's rest
   * pose, `duration` seconds at `fps` (both already checked in range), and
   * in *through the format whose bytes it goes through to be what opening
   * the saved file gives (NULL: the clip is that already) */
  SqClip     *(*new_clip)      (const char      *variant,
                                double           duration,
                                double           fps,
                                const SqFormat **through);

  /* ---- the time fields the motion edits move (sq-motion.h) ---- */
  /* the extras every clip keeps for the world that hold its loop (int:
   * loops or not; the start and end in seconds: trim shifts them, reverse
   * swaps them, speed scales them, close the loop closes there), or NULL */
  const char        *loop_key;
  const char        *loop_in_key;
  const char        *loop_out_key;
  /* the extras that hold durations in seconds (speed scales them),
   * NULL-terminated, or NULL */
  const char * const *duration_keys;

  /* ---- mirroring ---- */
  /* how a clip of one of the world's formats mirrors */
  const SqMirror *(*mirror) (const SqClip *clip);

  /* ---- posing (sq_posing_joint_moves) ---- */
  /* optional: whether joint `joint` of `clip` (one of the world's formats)
   * may carry position keys the world plays; NULL: the root and the
   * joints that already have them */
  gboolean        (*joint_moves) (const SqClip *clip,
                                  gsize         joint);

  /* ---- what the converter asks a world (sq-convert.c) ---- */
  /* optional: `name`, a joint of one of the world's naming schemes, in
   * `scheme`, another of them (ActiveWorlds: pelvis ⇄ aw_pelvis): the name
   * itself when it stays, NULL when `scheme` has no name for it */
  const char     *(*respell)     (const char    *name,
                                  SqJointScheme  scheme);
  /* optional, the common world's (sq_world_common): its skeleton by the
   * bone names of the joint table (SqJointConcept.sl_bone): a bone's
   * parent (NULL for the root) and its rest position (metres, the common
   * axes; FALSE for an unknown bone), and its root bone */
  const char     *(*bone_parent)        (const char *bone);
  gboolean        (*bone_rest_position) (const char *bone,
                                         double      out[3]);
  const char      *root_bone;
  /* optional, the world whose limbs the joint table numbers
   * (SqJointConcept.aw_tag): a tag's parent (0 for none), the root's tag
   * and the highest tag */
  guint           (*tag_parent)  (guint tag);
  guint            root_tag;
  guint            max_tag;
  /* optional: `renamed` (a clip of `from`, another format of the world,
   * its joints already in the target's names and retargeted) as a clip of
   * `target` by the world's own importer (Second Life: a BVH as the
   * viewer's upload reads it), its lines added to `losses`; NULL: the
   * generic conversion goes on. `root_source_name`: the root's name in the
   * source, or NULL. Never converts. */
  SqClip         *(*import_clip)  (const SqClip   *renamed,
                                   const SqFormat *from,
                                   const SqFormat *target,
                                   const char     *root_source_name,
                                   GPtrArray      *losses);
  /* optional: on `out`, a clip from `from` converted to `target` (one of
   * the world's) and put on `fps` frames a second, before its times are
   * snapped (Second Life: a BVH from a .anim gets its reference frame) */
  void            (*after_frames) (SqClip         *out,
                                   const SqFormat *from,
                                   const SqFormat *target,
                                   double          fps,
                                   GPtrArray      *losses);
  /* ---- validate --loss (sequin-cli validate --loss) ---- */
  /* optional: what saving `clip` in the world's format does to its
   * motion: the clip against the file written from it and read back.
   * `losses` receives the conversion's lines, `notes` the lines that are no
   * loss: the conversion's notes and, always, the file's size against the
   * world's limit (over it too); `size` (may be NULL) the file's bytes */
  SqDiff         *(*save_loss)   (const SqClip *clip,
                                  GPtrArray    *losses,
                                  GPtrArray    *notes,
                                  gsize        *size,
                                  GError      **error);
};

/* The worlds, in the order of the validation targets */
const SqWorldHome * const *sq_worlds          (gsize             *n_worlds);
const SqWorldHome         *sq_world_by_id     (const char        *id);
/* The world whose axes the common space uses (Second Life's): a clip
 * built in memory mirrors by its rules */
const SqWorldHome         *sq_world_common    (void);
/* The world of a format (NULL for none, and for NULL) */
const SqWorldHome         *sq_format_get_world (const SqFormat   *format);

/* The edit of any world with that id (SqWorldEdit.id), NULL for none */
const SqWorldEdit         *sq_world_edit_by_id (const char       *id);
/* That edit with these arguments for `clip`; NULL for an unknown id */
SqEdit                    *sq_world_edit_new   (const char       *id,
                                                const SqClip     *clip,
                                                const SqEditArgs *args);

/* The field of `set` with `key`, NULL when it has none */
const SqField             *sq_field_set_lookup (const SqFieldSet *set,
                                                const char       *key);
/* Whether `value` is in the field's range (text: always) */
gboolean                   sq_field_in_range   (const SqField      *field,
                                                const SqFieldValue *value);
/* Every field set of the worlds and formats, each once: the worlds' first */
GPtrArray                 *sq_field_sets       (void);
/* The field with that command-line option in any set, NULL for none */
const SqField             *sq_field_by_option  (const char       *option);

/* ---- joint names across the worlds (sq-joint-map.c) ---- */

/* What a world makes of a joint name */
typedef enum
{
  SQ_JOINT_NAME_UNKNOWN,         /* none of its names: ask the next world */
  SQ_JOINT_NAME_FOUND,           /* its name: *out is set (what it knows) */
  SQ_JOINT_NAME_NO_COUNTERPART,  /* its name, standing for nothing elsewhere */
} SqJointNameFind;

/* A world's joint names, in its home (worlds/sq-*-names.c). The joint map
 * asks the worlds in the order of sq_world_names () and knows no name
 * itself. Every member may be NULL. */
typedef struct
{
  /* prefixes a rig puts before the names of the worlds (compared ignoring
   * case; the rest of the name is looked up again), NULL-terminated */
  const char * const *prefixes;
  /* the concept `name` stands for in this world: sets the part of *out it
   * knows (the Second Life bone or the ActiveWorlds tag) */
  SqJointNameFind     (*lookup)       (const char         *name,
                                       SqJointLookupFlags  flags,
                                       SqJointConcept     *out);
  /* fills the part of a found concept the finding world did not know */
  void                (*complete)     (SqJointConcept     *concept);
  /* the concept's name in `scheme`, NULL when the scheme is not the
   * world's or has none */
  const char         *(*name_of)      (const SqJointConcept *concept,
                                       SqJointScheme         scheme);
  /* whether `name` is already a name of `scheme` (FALSE for a scheme not
   * the world's) */
  gboolean            (*in_scheme)    (const char         *name,
                                       SqJointScheme       scheme);
  /* the flags that read the clip's names right (0: none) */
  SqJointLookupFlags  (*lookup_flags) (const SqClip       *clip);
  /* the common world's (sq_world_common) limbs and rest, through which
   * the worlds' limbs are matched: sq_joint_concept_tips,
   * sq_joint_concept_hub_position */
  const char * const *(*tips)         (const char         *bone);
  gboolean            (*hub_position) (const char         *bone,
                                       double              out[3]);
} SqWorldNames;

/* The worlds' joint names in the order a name is looked up: Second Life's
 * (exact, as the viewer), the Sims' (exact), ActiveWorlds' (ignoring case),
 * then the rigs' prefixes and motion capture names */
const SqWorldNames * const *sq_world_names (gsize *n_names);

G_END_DECLS
