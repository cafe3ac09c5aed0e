/* sequin-cli-posing.c: `new` and the posing operations of `edit`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sequin-cli new --world W --duration S --fps N OUT` writes a clip in the
 * world's rest pose (sq_clip_new_for_world). The edit operations
 * --set-rotation, --set-position, --insert-key, --move-keys, --paste-pose,
 * --paste-keys and --symmetrize make the same core edits as the editor
 * (sq-posing.h).
 */
#include "config.h"

#include <string.h>

#include "sequin-cli-private.h"

/* ---- reading the values ---- */

/* "JOINT@TIME" into op->text and op->v[0] */
static gboolean
joint_at_time (const char *text,
               gsize       len,
               CliOp      *op)
{
  g_autofree char *copy = g_strndup (text, len);
  char *at = strrchr (copy, '@');
  guint n;

  if (at == NULL || at == copy)
    return FALSE;
  *at = '\0';
  op->text = g_strdup (copy);
  return cli_parse_numbers (at + 1, ',', op->v, 1, 1, &n);
}

/* JOINT@TIME=X,Y,Z: the three numbers in op->spec (3 doubles) */
static gboolean
op_joint_time_values (const CliOption *option,
                      const char      *value,
                      CliRequest      *request,
                      GError         **error)
{
  const char *eq = strrchr (value, '=');
  CliOp *op = cli_add_op (option, request);
  double *v = g_new0 (double, 3);
  guint n;

  op->spec = v;
  if (eq == NULL || !joint_at_time (value, (gsize) (eq - value), op)
      || !cli_parse_numbers (eq + 1, ',', v, 3, 3, &n))
    return cli_refuse (option, error);
  return TRUE;
}

/* JOINT@TIME */
static gboolean
op_joint_at (const CliOption *option,
             const char      *value,
             CliRequest      *request,
             GError         **error)
{
  if (!joint_at_time (value, strlen (value), cli_add_op (option, request)))
    return cli_refuse (option, error);
  return TRUE;
}

/* JOINT@FROM=TO: FROM in v[0], TO in v[1] */
static gboolean
op_move (const CliOption *option,
         const char      *value,
         CliRequest      *request,
         GError         **error)
{
  const char *eq = strrchr (value, '=');
  CliOp *op = cli_add_op (option, request);
  guint n;

  if (eq == NULL || !joint_at_time (value, (gsize) (eq - value), op)
      || !cli_parse_numbers (eq + 1, ',', &op->v[1], 1, 1, &n))
    return cli_refuse (option, error);
  return TRUE;
}

/* POSEFILE@TIME[:flip]: the file read and checked now (its text in
 * op->text2; `keys`: as keys at times, else as one pose), the time in
 * v[0], flip in n */
static gboolean
read_paste (const CliOption *option,
            const char      *value,
            CliRequest      *request,
            gboolean         keys,
            GError         **error)
{
  g_autofree char *spec = g_strdup (value);
  CliOp *op = cli_add_op (option, request);
  g_autoptr(GError) local = NULL;
  g_autoptr(SqJointPose) pose = NULL;
  g_autoptr(SqPoseSequence) seq = NULL;
  gsize len = strlen (spec);
  gsize length;

  if (len > 5 && strcmp (spec + len - 5, ":flip") == 0)
    {
      op->n = 1;
      spec[len - 5] = '\0';
    }
  if (!joint_at_time (spec, strlen (spec), op))
    return cli_refuse (option, error);
  if (!g_file_get_contents (op->text, &op->text2, &length, &local)
      || (keys && (seq = sq_pose_sequence_parse (op->text2, length, &local)) == NULL)
      || (!keys && (pose = sq_joint_pose_parse (op->text2, length, &local)) == NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s: %s", op->text, local->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
op_paste (const CliOption *option,
          const char      *value,
          CliRequest      *request,
          GError         **error)
{
  return read_paste (option, value, request, FALSE, error);
}

/* KEYSFILE@TIME[:flip] */
static gboolean
op_paste_keys (const CliOption *option,
               const char      *value,
               CliRequest      *request,
               GError         **error)
{
  return read_paste (option, value, request, TRUE, error);
}

/* J1,J2,…@TIME */
static gboolean
op_joints_at (const CliOption *option,
              const char      *value,
              CliRequest      *request,
              GError         **error)
{
  CliOp *op = cli_add_op (option, request);

  if (!joint_at_time (value, strlen (value), op) || op->text[0] == '\0')
    return cli_refuse (option, error);
  op->names = g_strsplit (op->text, ",", -1);
  return TRUE;
}

/* ---- the edits ---- */

static SqEdit *
make_set_rotation (const CliOp  *op,
                   const SqClip *clip)
{
  gssize j = sq_clip_find_joint (clip, op->text);
  int axes[3] = { 0, 1, 2 };
  double q[4];

  if (j >= 0)
    sq_posing_euler_axes (clip, (gsize) j, axes);
  sq_euler_to_quat (op->spec, axes, 3, q);
  return sq_edit_set_rotation_new (op->text, op->v[0], q);
}

static SqEdit *
make_set_position (const CliOp  *op,
                   const SqClip *clip)
{
  return sq_edit_set_position_new (op->text, op->v[0], op->spec);
}

static SqEdit *
make_insert_key (const CliOp  *op,
                 const SqClip *clip)
{
  const char *names[] = { op->text, NULL };

  return sq_edit_insert_keys_new (strcmp (op->text, "*") == 0 ? NULL : names, op->v[0]);
}

static SqEdit *
make_move_keys (const CliOp  *op,
                const SqClip *clip)
{
  SqKeyRef ref = { op->text, op->v[0], 0 };

  return sq_edit_move_keys_new (&ref, 1, op->v[1] - op->v[0]);
}

static SqEdit *
make_paste_pose (const CliOp  *op,
                 const SqClip *clip)
{
  g_autoptr(SqJointPose) pose = sq_joint_pose_parse (op->text2, strlen (op->text2), NULL);

  return sq_edit_paste_pose_new (pose, op->v[0], op->n != 0);
}

static SqEdit *
make_paste_keys (const CliOp  *op,
                 const SqClip *clip)
{
  g_autoptr(SqPoseSequence) keys = sq_pose_sequence_parse (op->text2, strlen (op->text2), NULL);

  return sq_edit_paste_keys_new (keys, op->v[0], op->n != 0);
}

static SqEdit *
make_symmetrize (const CliOp  *op,
                 const SqClip *clip)
{
  return sq_edit_symmetrize_new ((const char * const *) op->names, op->v[0]);
}

#define REQUIRED CLI_ARG_REQUIRED

const CliOption cli_posing_ops[CLI_N_POSING_OPS] = {
  { "set-rotation", 0, REQUIRED, "J@T=A,B,C",
    "key joint J's rotation at T seconds: A, B, C are Euler degrees about the joint's rotation channels in their order "
    "(a BVH joint's CHANNELS, e.g. Z X Y; else X, Y, Z), about the file's own axes",
    op_joint_time_values, 0, make_set_rotation, 0, 0, "--set-rotation needs JOINT@TIME=A,B,C (seconds, degrees)" },
  { "set-position", 0, REQUIRED, "J@T=X,Y,Z", "key joint J's position at T seconds (file units and axes)",
    op_joint_time_values, 0, make_set_position, 0, 0, "--set-position needs JOINT@TIME=X,Y,Z" },
  { "insert-key", 0, REQUIRED, "JOINT@TIME",
    "key the joint (* for every joint) at TIME with the value played there",
    op_joint_at, 0, make_insert_key, 0, 0, "--insert-key needs JOINT@TIME (seconds)" },
  { "move-keys", 0, REQUIRED, "J@FROM=TO",
    "move joint J's keys at FROM to TO seconds (snapped to a frame; never past a neighbour)",
    op_move, 0, make_move_keys, 0, 0, "--move-keys needs JOINT@FROM=TO (seconds)" },
  { "paste-pose", 0, REQUIRED, "POSE@TIME",
    "key the pose file POSE (.pose) at TIME; POSE@TIME:flip swaps left and right",
    op_paste, 0, make_paste_pose, 0, 0, "--paste-pose needs POSEFILE@TIME or POSEFILE@TIME:flip" },
  { "paste-keys", 0, REQUIRED, "KEYS@TIME",
    "key the keys of the pose file KEYS (its \"time\" lines: seconds after TIME, as the editor copies them) "
    "from TIME on; KEYS@TIME:flip swaps left and right",
    op_paste_keys, 0, make_paste_keys, 0, 0, "--paste-keys needs KEYSFILE@TIME or KEYSFILE@TIME:flip" },
  { "symmetrize", 0, REQUIRED, "J1,…@TIME",
    "give the joints' partners on the other side their mirror image at TIME",
    op_joints_at, 0, make_symmetrize, 0, 0, "--symmetrize needs J1,J2,…@TIME" },
};

/* ---- new ---- */

static gboolean
set_world (const CliOption *option,
           const char      *value,
           CliRequest      *request,
           GError         **error)
{
  if (sq_clip_new_world_name (value) == NULL)
    return cli_refuse (option, error);
  return cli_set_text (option, value, request, error);
}

static gboolean
set_number (const CliOption *option,
            const char      *value,
            CliRequest      *request,
            GError         **error)
{
  guint n;

  if (!cli_parse_numbers (value, ',', &G_STRUCT_MEMBER (double, request, option->field), 1, 1, &n))
    return cli_refuse (option, error);
  return TRUE;
}

static const CliOption new_options[] = {
  { "world", 0, REQUIRED, "WORLD", "sl, sl-bento, aw, sims, sims-child or bvh (BVH on Second Life's skeleton)",
    set_world, G_STRUCT_OFFSET (CliRequest, world), NULL, 0, 0,
    "--world needs sl, sl-bento, aw, sims, sims-child or bvh" },
  { "duration", 0, REQUIRED, "S", "length in seconds (default 1)",
    set_number, G_STRUCT_OFFSET (CliRequest, duration), NULL, 0, 0, "--duration needs S (seconds)" },
  { "fps", 0, REQUIRED, "N", "frames a second (default 30)",
    set_number, G_STRUCT_OFFSET (CliRequest, fps), NULL, 0, 0, "--fps needs N (frames a second)" },
};

static const CliSection new_sections[] = {
  { NULL, new_options, G_N_ELEMENTS (new_options) },
  { NULL, &cli_help_option, 1 },
};

static int
cmd_new (CliRequest *request)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = NULL;
  const char *out;

  if (request->files->len != 1)
    return usage_error ("new takes OUT");
  if (request->world == NULL)
    return usage_error ("new needs --world WORLD");
  out = request->files->pdata[0];
  clip = sq_clip_new_for_world (request->world, request->duration > 0 ? request->duration : 1.0,
                                request->fps > 0 ? request->fps : 30.0, &error);
  if (clip == NULL)
    return fail_file (out, error);
  return write_clip (clip, clip->format, NULL, out, NULL);
}

const CliCommandSpec cli_new_command = {
  "new", "--world WORLD OUT",
  (const char *[]) { "new --world sl|sl-bento|aw|sims|sims-child|bvh [--duration S] [--fps N] OUT", NULL },
  "Writes a new animation in a world's rest pose, every joint keyed at the start and the end.",
  "The file is in the world's format (.anim, binary SEQ, a CMX skill with its CFP, BVH)\n"
  "whatever OUT's extension; ActiveWorlds and The Sims play 30 frames a second.",
  new_sections, G_N_ELEMENTS (new_sections), cmd_new,
};
