/* sequin-cli-edit.c: the edit operations of `sequin-cli edit`, one table
 * row each: its option, how its value is read, and the core edit it makes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sequin-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "sequin-cli-private.h"

void
cli_op_free (CliOp *op)
{
  g_free (op->text);
  g_free (op->text2);
  g_strfreev (op->names);
  g_free (op->spec);
  g_free (op);
}

CliOp *
cli_add_op (const CliOption *option,
            CliRequest      *request)
{
  CliOp *op = g_new0 (CliOp, 1);

  op->option = option;
  g_ptr_array_add (request->ops, op);
  return op;
}

/* ---- how values are read ---- */

/* no value, or an optional one that is not given */
static gboolean
op_plain (const CliOption *option,
          const char      *value,
          CliRequest      *request,
          GError         **error)
{
  cli_add_op (option, request);
  return TRUE;
}

/* option->min .. option->max finite numbers separated by commas; none
 * given for an optional value: zeros */
static gboolean
op_numbers (const CliOption *option,
            const char      *value,
            CliRequest      *request,
            GError         **error)
{
  double v[3] = { 0, 0, 0 };
  guint n = 0;

  g_assert (option->max <= 3);
  if (value != NULL && !cli_parse_numbers (value, ',', v, (guint) option->min, (guint) option->max, &n))
    return cli_refuse (option, error);
  memcpy (cli_add_op (option, request)->v, v, sizeof v);
  return TRUE;
}

/* a whole number from option->min to option->max */
static gboolean
op_int (const CliOption *option,
        const char      *value,
        CliRequest      *request,
        GError         **error)
{
  gint64 n;

  if (!cli_parse_int (value, &n) || n < option->min || n > option->max)
    return cli_refuse (option, error);
  cli_add_op (option, request)->n = n;
  return TRUE;
}

static gboolean
op_text (const CliOption *option,
         const char      *value,
         CliRequest      *request,
         GError         **error)
{
  cli_add_op (option, request)->text = g_strdup (value);
  return TRUE;
}

/* --invert-xz[=J1,J2,…] */
static gboolean
op_names (const CliOption *option,
          const char      *value,
          CliRequest      *request,
          GError         **error)
{
  cli_add_op (option, request)->names = value ? g_strsplit (value, ",", -1) : NULL;
  return TRUE;
}

/* --rename-joint OLD=NEW: at the first "=" */
static gboolean
op_rename (const CliOption *option,
           const char      *value,
           CliRequest      *request,
           GError         **error)
{
  const char *eq = strchr (value, '=');
  CliOp *op;

  if (eq == NULL)
    return cli_refuse (option, error);
  op = cli_add_op (option, request);
  op->text = g_strndup (value, eq - value);
  op->text2 = g_strdup (eq + 1);
  return TRUE;
}

/* "NAME" SEP "VALUE" at the last SEP: the name into op->text; NULL when
 * there is no SEP */
static CliOp *
op_named (const CliOption *option,
          const char      *value,
          char             sep,
          CliRequest      *request,
          const char     **after)
{
  const char *at = strrchr (value, sep);
  CliOp *op;

  if (at == NULL)
    return NULL;
  op = cli_add_op (option, request);
  op->text = g_strndup (value, at - value);
  *after = at + 1;
  return op;
}

/* --joint-priority JOINT=N: N a whole number, option->min .. option->max */
static gboolean
op_joint_int (const CliOption *option,
              const char      *value,
              CliRequest      *request,
              GError         **error)
{
  const char *text;
  CliOp *op = op_named (option, value, '=', request, &text);

  if (op == NULL || !cli_parse_int (text, &op->n) || op->n < option->min || op->n > option->max)
    return cli_refuse (option, error);
  return TRUE;
}

/* --delete-keys NAME@TIME: TIME in seconds */
static gboolean
op_joint_time (const CliOption *option,
               const char      *value,
               CliRequest      *request,
               GError         **error)
{
  const char *text;
  CliOp *op = op_named (option, value, '@', request, &text);
  guint n;

  if (op == NULL || !cli_parse_numbers (text, ',', op->v, 1, 1, &n))
    return cli_refuse (option, error);
  return TRUE;
}

/* An operation that sets a field (sq-world.h): its value read as the
 * field's type needs it; whole numbers within what the edit takes as an
 * argument (its own range is the edit's to check, with its message) */
static gboolean
op_field (const CliOption *option,
          const char      *value,
          CliRequest      *request,
          GError         **error)
{
  const SqField *field = sq_field_by_option (option->name);
  gint64 min = field->type == SQ_FIELD_CHOICE ? 0 : G_MININT32;
  gint64 max = field->type == SQ_FIELD_CHOICE ? G_MAXUINT32 : G_MAXINT32;
  CliOp *op;
  guint n;

  if (field->flags & SQ_FIELD_PER_JOINT)
    {
      const char *text;

      op = op_named (option, value, '=', request, &text);
      if (op == NULL || !cli_parse_int (text, &op->n) || op->n < min || op->n > max)
        return cli_refuse (option, error);
      return TRUE;
    }
  switch (field->type)
    {
    case SQ_FIELD_TEXT:
      return op_text (option, value, request, error);
    case SQ_FIELD_DOUBLE:
      {
        double v[3] = { 0, 0, 0 };

        if (!cli_parse_numbers (value, ',', v, 1, 1, &n))
          return cli_refuse (option, error);
        memcpy (cli_add_op (option, request)->v, v, sizeof v);
        return TRUE;
      }
    default:
      {
        gint64 i;

        if (!cli_parse_int (value, &i) || i < min || i > max)
          return cli_refuse (option, error);
        cli_add_op (option, request)->n = i;
        return TRUE;
      }
    }
}

static SqEdit *
make_field (const CliOp  *op,
            const SqClip *clip)
{
  const SqField *field = sq_field_by_option (op->option->name);
  SqFieldValue value = { 0 };
  gboolean per_joint = (field->flags & SQ_FIELD_PER_JOINT) != 0;

  if (field->type == SQ_FIELD_TEXT)
    value.text = op->text;
  else if (field->type == SQ_FIELD_DOUBLE)
    value.number = op->v[0];
  else
    value.number = (double) op->n;
  return field->edit (clip, per_joint ? op->text : NULL, &value);
}

/* ---- a world's own edits (the edit table, sq-world.h) ---- */

/* --set-constraint N:SPEC, --add-constraint SPEC: the SPEC read by the
 * world's edit (its check), kept as text for each clip's edit */
static gboolean
op_constraint (const CliOption *option,
               const char      *value,
               CliRequest      *request,
               GError         **error)
{
  gboolean add = option->min == 0;   /* --add-constraint: no N first */
  const SqWorldEdit *edit = sq_world_edit_by_id (option->name);
  g_autofree char *message = NULL;
  const char *text = value;
  gint64 n = 0;
  CliOp *op;

  if (!add)
    {
      const char *colon = strchr (value, ':');
      g_autofree char *num = colon ? g_strndup (value, colon - value) : NULL;

      if (colon == NULL || !cli_parse_int (num, &n) || n < 1 || n >= G_MAXUINT)
        return cli_refuse (option, error);
      text = colon + 1;
    }
  if (edit->check != NULL && !edit->check (text, &message))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--%s: %s", option->name, message);
      return FALSE;
    }
  op = cli_add_op (option, request);
  op->n = n;
  op->text = g_strdup (text);
  return TRUE;
}

/* The edit of the world's edit table named as the option */
static SqEdit *
make_world_edit (const CliOp  *op,
                 const SqClip *clip)
{
  SqEditArgs args = { op->text, op->text2, { op->v[0], op->v[1], op->v[2] }, op->n };

  return sq_world_edit_new (op->option->name, clip, &args);
}

/* ---- the core edit each operation makes ---- */

#define MAKE(name, expr) \
  static SqEdit *name (const CliOp *op, const SqClip *clip) { return expr; }

MAKE (make_invert_xz, sq_edit_invert_xz_new ((const char * const *) op->names))
MAKE (make_rename_joint, sq_edit_rename_joint_new (op->text, op->text2))
MAKE (make_delete_joint, sq_edit_delete_joint_new (op->text))
MAKE (make_delete_keys, sq_edit_delete_keys_new (op->text, op->v[0]))
MAKE (make_rename_root, sq_edit_rename_root_new (op->text))
MAKE (make_rescale, sq_edit_rescale_new (op->v[0]))
MAKE (make_first_frame, sq_edit_set_first_frame_new (op->v[0], op->v[1], op->v[2]))
MAKE (make_mirror, sq_edit_mirror_new ())
MAKE (make_resample, sq_edit_resample_new (op->v[0]))
MAKE (make_speed, sq_edit_speed_new (op->v[0]))
MAKE (make_trim, sq_edit_trim_new (op->v[0], op->v[1]))
MAKE (make_reverse, sq_edit_reverse_new ())
MAKE (make_reduce, sq_edit_reduce_new (op->v[0], op->v[1]))
MAKE (make_close_loop, sq_edit_close_loop_new ())

/* ---- the table ---- */

#define NONE     CLI_ARG_NONE
#define REQUIRED CLI_ARG_REQUIRED
/* an operation that sets a field: its value name, help and refusal come
 * from the field descriptor with that option (sq_field_by_option) */
#define FIELD_OPTION(name) { name, 0, REQUIRED, NULL, NULL, op_field, 0, make_field, 0, 0, NULL }

static const CliOption joint_ops[] = {
  { "invert-xz", 0, CLI_ARG_OPTIONAL, "J1,J2,…",
    "invert the sign of quaternion X and Z (all joints, or those named)",
    op_names, 0, make_invert_xz, 0, 0, "--invert-xz= needs joint names" },
  { "rename-joint", 0, REQUIRED, "OLD=NEW", "rename a joint (refused when NEW exists)",
    op_rename, 0, make_rename_joint, 0, 0, "--rename-joint needs OLD=NEW" },
  { "delete-joint", 0, REQUIRED, "NAME", "delete a joint",
    op_text, 0, make_delete_joint, 0, 0, NULL },
  { "delete-keys", 0, REQUIRED, "NAME@TIME", "delete a joint's keys at TIME seconds (within half a frame)",
    op_joint_time, 0, make_delete_keys, 0, 0, "--delete-keys needs NAME@TIME (seconds)" },
  { "rename-root", 0, REQUIRED, "NAME", "rename the root joint (the header's root and its joint)",
    op_text, 0, make_rename_root, 0, 0, NULL },
  { "rescale", 0, REQUIRED, "FACTOR", "multiply the root's locations by FACTOR",
    op_numbers, 0, make_rescale, 1, 1, "--rescale needs a finite number" },
  { "set-first-frame", 0, CLI_ARG_OPTIONAL_LIST, "X,Y,Z",
    "set the root's location at the first frame (default 0,0,0)",
    op_numbers, 0, make_first_frame, 3, 3, "--set-first-frame needs X,Y,Z (finite numbers)" },
};

static const CliOption sl_ops[] = {
  FIELD_OPTION ("priority"),
  FIELD_OPTION ("joint-priority"),
  { "loop", 0, REQUIRED, "IN,OUT", "loop between IN and OUT seconds (0 ≤ IN ≤ OUT ≤ duration)",
    op_numbers, 0, make_world_edit, 2, 2, "--loop needs IN,OUT (seconds)" },
  { "no-loop", 0, NONE, NULL, "do not loop",
    op_plain, 0, make_world_edit, 0, 0, NULL },
  { "ease", 0, REQUIRED, "IN,OUT", "ease in and ease out times in seconds (≥ 0)",
    op_numbers, 0, make_world_edit, 2, 2, "--ease needs IN,OUT (seconds)" },
  FIELD_OPTION ("hand-pose"),
  FIELD_OPTION ("emote"),
  { "delete-constraint", 0, REQUIRED, "N", "delete constraint N (1 = the first, as `dump` lists them)",
    op_int, 0, make_world_edit, 1, G_MAXUINT, "--delete-constraint needs N (1 = the first constraint)" },
  { "set-constraint", 0, REQUIRED, "N:SPEC", "change fields of constraint N (1 = the first); the others stay",
    op_constraint, 0, make_world_edit, 1, 1, "--set-constraint needs N:SPEC with N = 1 for the first constraint" },
  { "add-constraint", 0, REQUIRED, "SPEC",
    "append a constraint (at most " G_STRINGIFY (SQ_SL_MAX_CONSTRAINTS) "); fields not given are 0, point",
    op_constraint, 0, make_world_edit, 0, 0, "--add-constraint needs SPEC (see --help)" },
};

static const CliOption time_ops[] = {
  FIELD_OPTION ("frame-rate"),
  FIELD_OPTION ("frame-time"),
  FIELD_OPTION ("set-name"),
};

static const CliOption motion_ops[] = {
  { "mirror", 0, NONE, NULL, "swap left and right, reflect across the sagittal plane",
    op_plain, 0, make_mirror, 0, 0, NULL },
  { "resample", 0, REQUIRED, "FPS", "keys on a grid at FPS from the first key to the last",
    op_numbers, 0, make_resample, 1, 1, "--resample needs FPS (frames per second)" },
  { "speed", 0, REQUIRED, "FACTOR", "play FACTOR (> 0) times as fast; loop points and ease follow",
    op_numbers, 0, make_speed, 1, 1, "--speed needs FACTOR (a number)" },
  { "trim", 0, REQUIRED, "START,END", "keep START to END seconds, shifted to start at 0",
    op_numbers, 0, make_trim, 2, 2, "--trim needs START,END (seconds)" },
  { "reverse", 0, NONE, NULL, "play backwards",
    op_plain, 0, make_reverse, 0, 0, NULL },
  { "reduce", 0, REQUIRED, "DEG[,DIST]",
    "remove keys while the motion stays within DEG degrees and DIST (file units, default 0)",
    op_numbers, 0, make_reduce, 1, 2, "--reduce needs DEG[,DIST] (degrees, file units)" },
  { "close-loop", 0, NONE, NULL, "end on the first pose (at the loop points when looping)",
    op_plain, 0, make_close_loop, 0, 0, NULL },
};

static const CliOption sims_ops[] = {
  { "rename-pose", 0, REQUIRED, "OLD=NEW", "rename a pose of a pose library (.psl); a KFD's poses go by their frames (Time): OLD=NEW moves one",
    op_rename, 0, make_world_edit, 0, 0, "--rename-pose needs OLD=NEW" },
  { "duplicate-pose", 0, REQUIRED, "NAME=NEW", "copy pose NAME as NEW, right after it",
    op_rename, 0, make_world_edit, 0, 0, "--duplicate-pose needs NAME=NEW" },
  { "delete-pose", 0, REQUIRED, "NAME", "delete a pose (a library keeps at least one)",
    op_text, 0, make_world_edit, 0, 0, NULL },
  { "move-pose", 0, REQUIRED, "NAME=PLACE", "move a pose to PLACE (1 = the first)",
    op_joint_int, 0, make_world_edit, 1, G_MAXUINT, "--move-pose needs NAME=PLACE (1 = the first)" },
  { "bounce", 0, NONE, NULL, "a KFD's SequenceLength: twice Frames (forward then back)",
    op_plain, 0, make_world_edit, 0, 0, NULL },
  { "no-bounce", 0, NONE, NULL, "a KFD's SequenceLength: Frames",
    op_plain, 0, make_world_edit, 0, 0, NULL },
  { "start-pose", 0, REQUIRED, "NAME", "a KFD's start pose name (\"\" for none)",
    op_text, 0, make_world_edit, 0, 0, NULL },
  { "end-pose", 0, REQUIRED, "NAME", "a KFD's end pose name (\"\" for none)",
    op_text, 0, make_world_edit, 0, 0, NULL },
  { "skill-name", 0, REQUIRED, "NAME", "a CMX skill's name",
    op_text, 0, make_world_edit, 0, 0, NULL },
  { "skill-duration", 0, REQUIRED, "MS", "a CMX skill's duration in milliseconds",
    op_numbers, 0, make_world_edit, 1, 1, "--skill-duration needs MS (milliseconds)" },
};

static const CliOption edit_options[] = {
  { "output", 'o', REQUIRED, "OUT", "the file to write (its companions beside it)",
    cli_set_text, G_STRUCT_OFFSET (CliRequest, out) },
};

static const CliSection edit_sections[] = {
  { NULL, edit_options, G_N_ELEMENTS (edit_options) },
  { NULL, cli_output_options, CLI_N_OUTPUT_OPTIONS },
  { NULL, &cli_take_option, 1 },
  { NULL, &cli_skip_frames_option, 1 },
  { NULL, cli_reference_options, CLI_N_REFERENCE_OPTIONS },
  { NULL, &cli_help_option, 1 },
  { "operations, applied in the order given:", joint_ops, G_N_ELEMENTS (joint_ops) },
  { "Second Life .anim fields (any clip keeps them; saved in .anim):", sl_ops, G_N_ELEMENTS (sl_ops) },
  { "BVH and .x time fields (SEQ and .anim have a fixed time base):", time_ops, G_N_ELEMENTS (time_ops) },
  { "motion (every format):", motion_ops, G_N_ELEMENTS (motion_ops) },
  { "The Sims (pose libraries, KFD, CMX skills):", sims_ops, G_N_ELEMENTS (sims_ops) },
  { CLI_POSING_TITLE, cli_posing_ops, CLI_N_POSING_OPS },
};

/* ---- the command ---- */

/* IN edited into OUT: the operations in order (made for this clip), then
 * saved as --to FORMAT or IN's own */
static int
edit_one (const CliRequest *request,
          const char       *in,
          const char       *out)
{
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SqJointMap) map = NULL;
  g_autoptr(GPtrArray) edits = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_edit_free);

  if ((clip = load_file (in, request->take, &error)) == NULL || !cli_skip_frames (request, clip, &error))
    return fail_file (in, error);
  print_warnings (in, clip);
  for (guint i = 0; i < request->ops->len; i++)
    {
      const CliOp *op = request->ops->pdata[i];
      SqEdit *edit = op->option->make (op, clip);

      g_ptr_array_add (edits, edit);
      if (!sq_edit_apply (edit, clip, &error))
        {
          g_autofree char *what = sq_edit_describe (edit);
          g_printerr ("sequin-cli: %s: %s: %s\n", in, what, error->message);
          return EXIT_BAD_INPUT;
        }
      cli_print_report (in, edit);
    }
  if (request->map_path != NULL && (map = load_map (request->map_path)) == NULL)
    return EXIT_BAD_INPUT;
  return write_clip (clip, request->format ? request->format : clip->format, map, out, request);
}

static int
cmd_edit (CliRequest *request)
{
  if (request->out_dir != NULL)
    return cli_batch (request, edit_one, TRUE);
  if (request->files->len > 1)
    return usage_error ("edit takes one IN (and -o OUT)");
  if (request->files->len == 0 || request->out == NULL)
    return usage_error ("edit needs IN and -o OUT");
  return edit_one (request, request->files->pdata[0], request->out);
}

#undef NONE
#undef REQUIRED
#undef FIELD_OPTION

const CliCommandSpec cli_edit_command = {
  "edit", "IN -o OUT OPERATION… | --out-dir DIR FILE… OPERATION…",
  (const char *[]) { "edit IN -o OUT [--to FORMAT] [--map FILE] OPERATION…",
                     "edit --out-dir DIR [--to FORMAT] [--map FILE] FILE… OPERATION…", NULL },
  "Applies edit operations, in the order given, and writes the result (as IN's format without --to).",
  "A constraint SPEC is FIELD=VALUE[,FIELD=VALUE…] with the fields chain=0.." G_STRINGIFY (SQ_SL_MAX_CHAIN_LENGTH)
  ", type=point|plane,\n"
  "source=VOLUME, source-offset=X:Y:Z, target=VOLUME|GROUND, target-offset=X:Y:Z, dir=X:Y:Z,\n"
  "ease-in=START:STOP, ease-out=START:STOP (seconds); VOLUME is a collision volume (PELVIS,\n"
  "BELLY, CHEST, HEAD, L_HAND, R_FOOT, …). Example:\n"
  "  --add-constraint chain=2,source=L_HAND,target=GROUND,ease-in=0:0.5,ease-out=1.5:2\n"
  "--out-dir DIR: every FILE, on all cores, written to DIR under its own base name (with\n"
  "FORMAT's extension); a bad file is reported, the others are done; exit 1 if any failed.",
  edit_sections, G_N_ELEMENTS (edit_sections), cmd_edit,
};
