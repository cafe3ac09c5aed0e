/* test-cli.c: sequin-cli's commands, outputs and exit codes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include "sq-diff.h"
#include "test-utils.h"

static char *tmpdir;

/* sequin-cli with the arguments `args` (NULL-terminated, without the
 * program); its exit status, its stdout and stderr in *out and *err */
static int
run_args (char       **out,
          char       **err,
          const char **args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  char *o = NULL, *e = NULL;
  int status = 0;

  g_ptr_array_add (argv, (char *) g_getenv ("SEQUIN_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &o, &e, &status, &error));
  g_assert_no_error (error);
  if (out)
    *out = o;
  else
    g_free (o);
  if (err)
    *err = e;
  else
    g_free (e);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static int
run (char **out,
     char **err,
     ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  va_list ap;
  const char *arg;

  va_start (ap, err);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  return run_args (out, err, (const char **) args->pdata);
}

static char *
tmp (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

/* A file the command line wrote, read by the core */
static SqClip *
sequin_test_cli_load (const char *path)
{
  g_autoptr(GBytes) bytes = tu_read (path);

  return tu_load_ok (bytes);
}

static const char *
sample (void)
{
  return g_getenv ("SEQUIN_SAMPLE");
}

static void
test_usage (void)
{
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run (&out, NULL, "--help", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "sequin-cli convert"));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "--version", NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out, "sequin-cli " PACKAGE_VERSION));
  g_assert_cmpint (run (NULL, NULL, NULL), ==, 2);
  g_assert_cmpint (run (NULL, &err, "frobnicate", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "frobnicate"));
  g_assert_cmpint (run (NULL, NULL, "info", NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "convert", "--to", "nosuch", sample (), "/tmp/x.seq", NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", "/tmp/x", "--rescale", "abc", NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "validate", "--target", "sl2", sample (), NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", "/tmp/x", "--hand-pose", "abc", NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", "/tmp/x", "--loop", "1", NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", "/tmp/x", "--joint-priority", "neck", NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", "/tmp/x", "--delete-constraint", "0", NULL), ==, 2);
}

static void
test_info_dump (void)
{
  g_autofree char *out = NULL, *json = NULL, *py_err = NULL;
  g_autofree char *json_path = tmp ("dump.json");
  g_autoptr(GError) error = NULL;
  const char *python;

  g_assert_cmpint (run (&out, NULL, "info", sample (), NULL), ==, 0);
  g_assert_nonnull (strstr (out, "ActiveWorlds binary SEQ"));
  g_assert_nonnull (strstr (out, "Joints:    9"));
  g_assert_nonnull (strstr (out, "Frames:    61"));
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (run (&out, NULL, "dump", sample (), NULL), ==, 0);
  g_assert_nonnull (strstr (out, "“rtelbow”"));
  g_assert_nonnull (strstr (out, "Block 4 (facing"));
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (run (&json, NULL, "dump", "--json", sample (), NULL), ==, 0);
  g_assert_true (g_str_has_prefix (json, "{\"format\":\"seq-binary\",\"name\":\"sequin\",\"root\":\"pelvis\",\"duration\":2,"));
  g_assert_nonnull (strstr (json, "\"rotations\":[[0,"));
  g_assert_nonnull (strstr (json, "\"magic\":\"7F7F7F79\""));
  g_file_set_contents (json_path, json, -1, &error);
  g_assert_no_error (error);
  if ((python = g_find_program_in_path ("python3")) != NULL)
    {
      g_autofree char *cmd = g_strdup_printf ("python3 -c \"import json,sys; d=json.load(open('%s')); "
                                              "assert len(d['joints'])==9; assert d['joints'][0]['translations'][0][0]==0; "
                                              "assert abs(d['joints'][5]['rotations'][1][0]-5/30)<1e-12\"", json_path);
      int status;
      g_assert_true (g_spawn_command_line_sync (cmd, NULL, &py_err, &status, &error));
      g_assert_cmpstr (py_err, ==, "");
      g_assert_cmpint (status, ==, 0);
      g_free ((char *) python);
    }
}

static void
test_convert (void)
{
  g_autofree char *text = tmp ("wave-text.seq"), *bin = tmp ("wave-bin.seq"), *err = NULL, *out = NULL;
  g_autofree char *content = NULL;

  /* .seq keeps the input's own SEQ kind; --to changes it */
  g_assert_cmpint (run (NULL, NULL, "convert", sample (), bin, NULL), ==, 0);
  {
    g_autoptr(GBytes) a = tu_read (sample ()), b = tu_read (bin);
    g_assert_true (g_bytes_equal (a, b));
  }
  g_assert_cmpint (run (NULL, &err, "convert", "--to", "seq-text", sample (), text, NULL), ==, 0);
  g_assert_nonnull (strstr (err, "model name"));
  g_assert_nonnull (strstr (err, "7F7F7F79"));
  g_file_get_contents (text, &content, NULL, NULL);
  g_assert_true (g_str_has_prefix (content, "AWSQ Version=1 Limbs=9 Duration=2000\r\n"));
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run (&out, NULL, "info", text, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "ActiveWorlds text SEQ"));
  g_assert_cmpint (run (NULL, NULL, "validate", text, NULL), ==, 0);
  g_assert_cmpint (run (NULL, NULL, "convert", text, "/nonexistent-dir/x.seq", NULL), ==, 1);
  {
    g_autofree char *unknown = tmp ("x.unknown");
    g_assert_cmpint (run (NULL, NULL, "convert", text, unknown, NULL), ==, 2);
  }
}

static void
test_bad_input_leaves_output (void)
{
  g_autofree char *bad = tmp ("bad.seq"), *dest = tmp ("dest.seq"), *err = NULL, *content = NULL;
  static const guint8 huge[60] = { 0x7f, 0x7f, 0x7f, 0x79, 0, 30, 0xff, 0xff, 0xff, 0xff, 0, 2, 'm', 0 };

  g_file_set_contents (bad, (const char *) huge, sizeof huge, NULL);
  g_file_set_contents (dest, "precious", -1, NULL);
  g_assert_cmpint (run (NULL, &err, "convert", bad, dest, NULL), ==, 1);
  g_assert_nonnull (strstr (err, bad));
  g_assert_nonnull (strstr (err, "offset"));
  g_file_get_contents (dest, &content, NULL, NULL);
  g_assert_cmpstr (content, ==, "precious");
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run (NULL, &err, "edit", bad, "-o", dest, "--invert-xz", NULL), ==, 1);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", sample (), "-o", dest, "--delete-joint", "nosuch", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "nosuch"));
  g_clear_pointer (&content, g_free);
  g_file_get_contents (dest, &content, NULL, NULL);
  g_assert_cmpstr (content, ==, "precious");
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "info", bad, NULL), ==, 1);
  g_assert_cmpint (run (NULL, NULL, "validate", bad, sample (), NULL), ==, 1);
  g_assert_cmpint (run (NULL, NULL, "info", "/nonexistent.seq", NULL), ==, 1);
  g_clear_pointer (&err, g_free);

  /* a write that fails half way (the file size limit stands in for a full
   * disk): the output stays as it was, and no partial copy is left */
  {
    struct rlimit old_limit, limit;
    void (*old_handler) (int) = signal (SIGXFSZ, SIG_IGN);
    g_autoptr(GDir) dir = NULL;
    const char *name;
    int status;

    g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
    limit = old_limit;
    limit.rlim_cur = 1000;
    g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
    status = run (NULL, &err, "edit", sample (), "-o", dest, "--rename-root", "hips", NULL);
    g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
    signal (SIGXFSZ, old_handler);
    g_assert_cmpint (status, ==, 1);
    g_assert_nonnull (strstr (err, "cannot write"));
    g_clear_pointer (&content, g_free);
    g_file_get_contents (dest, &content, NULL, NULL);
    g_assert_cmpstr (content, ==, "precious");
    dir = g_dir_open (tmpdir, 0, NULL);
    while ((name = g_dir_read_name (dir)) != NULL)
      g_assert_false (g_str_has_prefix (name, "dest.seq."));
  }
}

static void
test_edit_matches_core (void)
{
  g_autofree char *dest = tmp ("edited.seq");
  g_autoptr(GBytes) in = tu_read (sample ());
  g_autoptr(SqClip) expect = tu_load_ok (in);
  const char *arm[] = { "rtelbow", "rtwrist", NULL };
  SqEdit *edits[] = {
    sq_edit_invert_xz_new (arm),
    sq_edit_rename_joint_new ("neck", "neck2"),
    sq_edit_delete_joint_new ("lfelbow"),
    sq_edit_delete_keys_new ("pelvis", 0.1667),
    sq_edit_rename_root_new ("hips"),
    sq_edit_rescale_new (2),
    sq_edit_set_first_frame_new (1, 2, 3),
  };

  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", dest, "--invert-xz=rtelbow,rtwrist",
                        "--rename-joint", "neck=neck2", "--delete-joint", "lfelbow", "--delete-keys", "pelvis@0.1667",
                        "--rename-root", "hips",
                        "--rescale", "2", "--set-first-frame", "1,2,3", NULL), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      g_assert_true (sq_edit_apply (edits[i], expect, NULL));
      sq_edit_free (edits[i]);
    }
  {
    g_autoptr(GBytes) got = tu_read (dest);
    g_autoptr(GBytes) want = tu_save (expect, "seq-binary", NULL);
    g_assert_true (g_bytes_equal (got, want));
  }
  /* --to and the default of --set-first-frame */
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", dest, "--set-first-frame", "--to", "seq-text", NULL), ==, 0);
  {
    g_autoptr(GBytes) got = tu_read (dest);
    g_autoptr(SqClip) clip = tu_load_ok (got);
    g_assert_cmpstr (clip->format->id, ==, "seq-text");
  }
}

static void
test_validate (void)
{
  g_autofree char *out = NULL;
  g_autofree char *bad = tmp ("rules.seq");
  const char *text = "AWSQ Version=1 Limbs=1 Duration=100\r\nwing frames=1\r\n50 0 0 1 0 0 0 0\r\n";

  g_assert_cmpint (run (&out, NULL, "validate", "--target", "aw", sample (), NULL), ==, 0);
  g_assert_nonnull (strstr (out, "OK"));
  g_clear_pointer (&out, g_free);
  g_file_set_contents (bad, text, -1, NULL);
  g_assert_cmpint (run (&out, NULL, "validate", bad, NULL), ==, 1);
  g_assert_nonnull (strstr (out, "wing"));
  g_assert_nonnull (strstr (out, "at least two"));
  g_assert_nonnull (strstr (out, "needs one at 0"));
}

/* A --map file that keeps every joint name of `path` */
static char *
identity_map (const char *path)
{
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(GString) text = g_string_new ("# every joint keeps its name\n");
  char *map = tmp ("identity.map");

  for (gsize j = 0; j < clip->n_joints; j++)
    g_string_append_printf (text, "%s = %s\n", clip->joints[j].name, clip->joints[j].name);
  g_assert_true (g_file_set_contents (map, text->str, -1, NULL));
  return map;
}

/* convert --map and edit --map: names from the map file, the built-in table
 * for the others; a bad map names its line and column and writes nothing */
static void
test_convert_map (void)
{
  g_autofree char *anim = tmp ("mapped.anim"), *map = tmp ("wave.map"), *bad = tmp ("bad.map");
  g_autofree char *out = NULL, *err = NULL, *bvh = tmp ("mapped.bvh");

  g_assert_true (g_file_set_contents (map, "# test\nneck = mSpine4\nrtelbow = -\n", -1, NULL));
  g_assert_cmpint (run (&out, NULL, "--help", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "--map FILE"));
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (run (NULL, &err, "convert", "--map", map, "--to", "sl-anim", sample (), anim, NULL), ==, 0);
  g_assert_nonnull (strstr (err, "joint “rtelbow” left out (the joint map drops it)"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (&out, NULL, "dump", anim, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "“mSpine4”"));
  g_assert_nonnull (strstr (out, "“mPelvis”"));
  g_assert_null (strstr (out, "“neck”"));
  g_assert_null (strstr (out, "mElbowRight"));
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", bvh, "--to", "bvh", "--map=" , NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", bvh, "--to", "bvh", "--map", map, NULL), ==, 0);
  g_assert_cmpint (run (&out, NULL, "dump", bvh, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "“mSpine4”"));
  g_assert_nonnull (strstr (out, "“hip”"));
  g_clear_pointer (&out, g_free);

  g_assert_true (g_file_set_contents (bad, "neck = mNeck\n\nback mTorso\n", -1, NULL));
  g_remove (anim);
  g_assert_cmpint (run (NULL, &err, "convert", "--map", bad, "--to", "sl-anim", sample (), anim, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "line 3, column 5"));
  g_assert_false (g_file_test (anim, G_FILE_TEST_EXISTS));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, NULL, "convert", "--map", sample (), anim, NULL), ==, 2);

  /* a map applies within one format too */
  {
    g_autofree char *seq = tmp ("mapped.seq");
    g_assert_cmpint (run (NULL, NULL, "convert", "--map", map, sample (), seq, NULL), ==, 0);
    g_assert_cmpint (run (&out, NULL, "dump", seq, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "“mSpine4”"));
    g_assert_null (strstr (out, "“rtelbow”"));
    g_assert_nonnull (strstr (out, "“pelvis”"));
  }
}

/* Joint names: kept exactly within one naming scheme (binary ⇄ text SEQ,
 * a renamed root included), and every rename across worlds reported beside
 * the losses as "renamed: OLD → NEW" */
static void
test_convert_renames (void)
{
  g_autofree char *edited = tmp ("renamed.seq"), *text = tmp ("renamed-text.seq");
  g_autofree char *back = tmp ("renamed-back.seq"), *anim = tmp ("renamed.anim");
  g_autofree char *dx = tmp ("renamed.x");
  g_autofree char *out = NULL, *err = NULL;
  static const char * const sl_names[][2] = {
    { "pelvis", "mPelvis" }, { "neck", "mNeck" }, { "head", "mHead" }, { "rtshoulder", "mShoulderRight" },
    { "rtelbow", "mElbowRight" }, { "rtwrist", "mWristRight" }, { "lfshoulder", "mShoulderLeft" },
    { "lfelbow", "mElbowLeft" },
  };

  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", edited, "--rename-joint", "back=spine",
                        "--rename-root", "hips", NULL), ==, 0);

  /* binary → text → binary: every name as the user made it, no rename */
  g_assert_cmpint (run (NULL, &err, "convert", "--to", "seq-text", edited, text, NULL), ==, 0);
  g_assert_null (strstr (err, "renamed:"));
  /* text SEQ has no root field: said, not silently renamed */
  g_assert_nonnull (strstr (err, "lost: the header's root joint name “hips”"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "convert", "--to", "seq-binary", text, back, NULL), ==, 0);
  g_assert_null (strstr (err, "renamed:"));
  g_clear_pointer (&err, g_free);
  for (const char *const *f = (const char *const[]) { text, back, NULL }; *f != NULL; f++)
    {
      g_assert_cmpint (run (&out, NULL, "dump", *f, NULL), ==, 0);
      g_assert_nonnull (strstr (out, "Joint 1: “hips”"));
      g_assert_nonnull (strstr (out, "Joint 2: “spine”"));
      g_assert_null (strstr (out, "“pelvis”"));
      g_assert_null (strstr (out, "“back”"));
      g_clear_pointer (&out, g_free);
    }

  /* another world: each rename on its own line, beside the "lost:" lines */
  g_assert_cmpint (run (NULL, &err, "convert", "--to", "sl-anim", sample (), anim, NULL), ==, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (sl_names); i++)
    {
      g_autofree char *line = g_strdup_printf ("renamed.anim: renamed: %s → %s\n", sl_names[i][0], sl_names[i][1]);
      if (strstr (err, line) == NULL)
        g_error ("no line “%s” in:\n%s", line, err);
    }
  g_assert_nonnull (strstr (err, "renamed.anim: renamed: back → mTorso\n"));
  g_assert_null (strstr (err, "lost: renamed"));
  g_assert_nonnull (strstr (err, "renamed.anim: lost: "));
  /* the list is complete: all nine joints change their names */
  {
    guint n = 0;
    for (const char *p = err; (p = strstr (p, ": renamed: ")) != NULL; p++)
      n++;
    g_assert_cmpuint (n, ==, 9);
  }
  g_clear_pointer (&err, g_free);

  /* ActiveWorlds .x: the same world, the other spelling of its limbs:
   * pelvis → aw_pelvis reported, the user's "spine" and "hips" kept */
  g_assert_cmpint (run (NULL, &err, "convert", "--to", "dx", edited, dx, NULL), ==, 0);
  g_assert_nonnull (strstr (err, "renamed.x: renamed: neck → aw_neck\n"));
  g_assert_null (strstr (err, "spine →"));
  g_assert_null (strstr (err, "hips →"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (&out, NULL, "dump", dx, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "“hips”"));
  g_assert_nonnull (strstr (out, "“spine”"));
  g_assert_nonnull (strstr (out, "“aw_neck”"));
}

static void
test_sl (void)
{
  g_autofree char *anim = tmp ("wave.anim"), *dest = tmp ("edited.anim"), *out = NULL, *err = NULL;
  g_autoptr(GBytes) in = NULL;
  g_autoptr(SqClip) expect = NULL;
  SqEdit *edits[] = {
    sq_edit_sl_priority_new (4),
    sq_edit_sl_joint_priority_new ("neck", 5),
    sq_edit_sl_loop_new (TRUE, 0.5, 1.5),
    sq_edit_sl_ease_new (0.1, 0.2),
    sq_edit_sl_hand_pose_new (3),
    sq_edit_sl_emote_new ("express_smile"),
    sq_edit_sl_loop_new (FALSE, 0, 0),
  };

  g_assert_cmpint (run (&out, NULL, "--help", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "--joint-priority JOINT=N"));
  g_assert_nonnull (strstr (out, "--delete-constraint N"));
  g_clear_pointer (&out, g_free);

  /* the sample's ActiveWorlds names, kept by a map onto themselves, are not
   * Second Life joints: warnings */
  {
    g_autofree char *map = identity_map (sample ());
    g_assert_cmpint (run (NULL, NULL, "convert", "--map", map, sample (), anim, NULL), ==, 0);
  }
  g_assert_cmpint (run (&out, NULL, "validate", "--target", "sl", anim, NULL), ==, 1);
  g_assert_nonnull (strstr (out, "warning: joint “rtelbow” is not a Second Life joint name"));
  g_assert_null (strstr (out, ": error:"));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "validate", "--target=sl", sample (), NULL), ==, 1);
  g_assert_nonnull (strstr (out, "not a Second Life joint name"));
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (run (NULL, NULL, "edit", anim, "-o", dest, "--priority", "4", "--joint-priority", "neck=5",
                        "--loop", "0.5,1.5", "--ease=0.1,0.2", "--hand-pose", "3", "--emote", "express_smile",
                        "--no-loop", NULL), ==, 0);
  in = tu_read (anim);
  expect = tu_load_ok (in);
  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      g_assert_true (sq_edit_apply (edits[i], expect, NULL));
      sq_edit_free (edits[i]);
    }
  {
    g_autoptr(GBytes) got = tu_read (dest);
    g_autoptr(GBytes) want = tu_save (expect, "sl-anim", NULL);
    g_assert_true (g_bytes_equal (got, want));
  }
  g_assert_cmpint (run (&out, NULL, "dump", dest, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "hand-pose: 3"));
  g_clear_pointer (&out, g_free);

  /* refusals: exit 1, the message names the value, OUT untouched */
  g_assert_cmpint (run (NULL, &err, "edit", anim, "-o", dest, "--hand-pose", "14", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "14"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", anim, "-o", dest, "--loop", "1.5,0.5", NULL), ==, 1);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", anim, "-o", dest, "--delete-constraint", "1", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "constraint 1"));
  {
    g_autoptr(GBytes) got = tu_read (dest);
    g_autoptr(GBytes) want = tu_save (expect, "sl-anim", NULL);
    g_assert_true (g_bytes_equal (got, want));
  }
}

static gboolean
file_has (const char *path, const char *fragment)
{
  g_autoptr(GBytes) b = tu_read (path);
  gsize len;
  const char *d = g_bytes_get_data (b, &len);

  return memmem (d, len, fragment, strlen (fragment)) != NULL;
}

static void
test_format_field_edits (void)
{
  g_autofree char *anim = tmp ("fields.anim"), *c_anim = tmp ("constrained.anim");
  g_autofree char *bvh = tmp ("small.bvh"), *bvh_out = tmp ("slow.bvh");
  g_autofree char *x = tmp ("small.x"), *x_out = tmp ("fast.x"), *seq_out = tmp ("fixed.seq");
  g_autofree char *out = NULL, *err = NULL;
  static const char bvh_text[] =
    "HIERARCHY\nROOT hip\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nMOTION\nFrames: 2\nFrame Time: 0.0333333\n0 0 0\n10 0 0\n";
  static const char x_text[] =
    "xof 0303txt 0032\r\nAnimationSet Walk {\r\n  AnimTicksPerSecond {\r\n    30;\r\n  }\r\n"
    "  Animation {\r\n    {aw_pelvis}\r\n    AnimationKey {\r\n      0;\r\n      2;\r\n"
    "      0;4;1.000000,0.000000,0.000000,0.000000;;,\r\n"
    "      30;4;1.000000,0.000000,0.000000,0.000000;;;\r\n    }\r\n  }\r\n}\r\n";

  g_assert_cmpint (run (&out, NULL, "--help", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "--set-constraint N:SPEC"));
  g_assert_nonnull (strstr (out, "--add-constraint SPEC"));
  g_assert_nonnull (strstr (out, "--frame-rate FPS"));
  g_assert_nonnull (strstr (out, "--frame-time SECONDS"));
  g_assert_nonnull (strstr (out, "--set-name NAME"));
  g_clear_pointer (&out, g_free);

  /* .anim constraints: add one, then change two of its fields */
  g_assert_cmpint (run (NULL, NULL, "convert", sample (), anim, NULL), ==, 0);
  g_assert_cmpint (run (NULL, &err, "edit", anim, "-o", c_anim,
                        "--add-constraint", "chain=2,source=L_HAND,target=GROUND,ease-in=0:0.5,ease-out=1.5:2",
                        "--set-constraint=1:type=plane,target-offset=0:0:-0.5", NULL), ==, 0);
  g_clear_pointer (&err, g_free);
  {
    g_autoptr(GBytes) b = tu_read (c_anim);
    g_autoptr(SqClip) clip = tu_load_ok (b);
    SqSlConstraint c;

    g_assert_cmpuint (sq_sl_constraint_count (clip), ==, 1);
    g_assert_true (sq_sl_constraint_get (clip, 0, &c));
    g_assert_cmpuint (c.chain_length, ==, 2);
    g_assert_cmpuint (c.type, ==, 1);
    g_assert_cmpstr (c.source_volume, ==, "L_HAND");
    g_assert_cmpstr (c.target_volume, ==, "GROUND");
    g_assert_cmpfloat (c.target_offset[2], ==, -0.5);
    g_assert_cmpfloat (c.ease_in_stop, ==, 0.5);
    g_assert_cmpfloat (c.ease_out_start, ==, 1.5);
  }
  /* refused by the core: exit 1; bad syntax: exit 2 */
  g_assert_cmpint (run (NULL, &err, "edit", anim, "-o", c_anim, "--add-constraint", "chain=2,target=GROUND", NULL),
                   ==, 1);
  g_assert_nonnull (strstr (err, "collision volume"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", c_anim, "-o", anim, "--set-constraint", "2:chain=1", NULL), ==, 1);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", anim, "-o", c_anim, "--add-constraint", "colour=red", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "colour"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", anim, "-o", c_anim, "--set-constraint", "chain=1", NULL), ==, 2);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", anim, "-o", c_anim, "--add-constraint",
                        "source=L_HAND,target=GROUND,source-offset=1:2", NULL), ==, 2);
  g_clear_pointer (&err, g_free);

  /* BVH Frame Time */
  g_assert_true (g_file_set_contents (bvh, bvh_text, -1, NULL));
  g_assert_cmpint (run (NULL, NULL, "edit", bvh, "-o", bvh_out, "--frame-time", "0.05", NULL), ==, 0);
  g_assert_true (file_has (bvh_out, "\nFrame Time: 0.05\n"));
  g_assert_cmpint (run (NULL, NULL, "edit", bvh, "-o", bvh_out, "--frame-rate=10", NULL), ==, 0);
  g_assert_true (file_has (bvh_out, "\nFrame Time: 0.1\n"));
  g_assert_cmpint (run (NULL, &err, "edit", bvh, "-o", bvh_out, "--frame-time", "20", NULL), ==, 1);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", bvh, "-o", bvh_out, "--frame-rate", "fast", NULL), ==, 2);
  g_clear_pointer (&err, g_free);

  /* .x ticks per second and set name */
  g_assert_true (g_file_set_contents (x, x_text, -1, NULL));
  g_assert_cmpint (run (NULL, NULL, "edit", x, "-o", x_out, "--frame-rate", "60", "--set-name", "Run", NULL), ==, 0);
  g_assert_true (file_has (x_out, "\r\nAnimationSet Run {\r\n"));
  g_assert_true (file_has (x_out, "AnimTicksPerSecond {\r\n    60;\r\n"));
  g_assert_true (file_has (x_out, "\r\n      30;4;"));
  g_assert_cmpint (run (NULL, &err, "edit", x, "-o", x_out, "--set-name", "two words", NULL), ==, 1);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", x, "-o", x_out, "--frame-rate", "29.97", NULL), ==, 1);
  g_clear_pointer (&err, g_free);
  g_assert_true (file_has (x_out, "AnimationSet Run {"));

  /* SEQ's time base is fixed */
  g_assert_cmpint (run (NULL, &err, "edit", sample (), "-o", seq_out, "--frame-rate", "25", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "fixed"));
  g_assert_false (g_file_test (seq_out, G_FILE_TEST_EXISTS));

  /* validate --target aw on the .x: ticks 60 are fine, the limb is known */
  g_assert_cmpint (run (&out, NULL, "validate", "--target", "aw", x_out, NULL), ==, 0);
  g_clear_pointer (&out, g_free);
}

/* ---- the animator's tools: motion edit options and diff ---- */

/* --mirror in every world writes what the core's mirror gives: one file of
 * each corpus folder and the Sims' PSL and KFD; the Sims' L_ARM keys move
 * to R_ARM, reflected in its frame (Y sideways: X and Z negated) */
static void
test_mirror_every_world (void)
{
  const char *dirs[] = { "bvh", "dx-anim", "seq-binary", "sl-anim" };
  const char *sims[] = { "wave-v4.psl", "nod-bounce.kfd" };

  for (guint i = 0; i < G_N_ELEMENTS (dirs) + G_N_ELEMENTS (sims); i++)
    {
      g_autoptr(GPtrArray) files = i < G_N_ELEMENTS (dirs) ? tu_corpus_files (dirs[i]) : NULL;
      g_autofree char *path = files != NULL ? g_strdup (files->pdata[0])
                              : g_test_build_filename (G_TEST_DIST, "data", "sims", sims[i - G_N_ELEMENTS (dirs)], NULL);
      g_autofree char *ext = g_strdup (strrchr (path, '.'));
      g_autofree char *name = g_strdup_printf ("mirrored%s", ext);
      g_autofree char *dest = tmp (name);
      g_autoptr(GBytes) in = tu_read (path);
      g_autoptr(SqClip) expect = tu_load_ok (in);
      g_autoptr(SqClip) orig = sq_clip_copy (expect);
      g_autoptr(SqEdit) mirror = sq_edit_mirror_new ();
      g_autoptr(GBytes) got = NULL, want = NULL;

      g_assert_cmpint (run (NULL, NULL, "edit", path, "-o", dest, "--mirror", NULL), ==, 0);
      g_assert_true (sq_edit_apply (mirror, expect, NULL));
      got = tu_read (dest);
      want = tu_save (expect, expect->format->id, NULL);
      g_assert_true (g_bytes_equal (got, want));
      if (i >= G_N_ELEMENTS (dirs))
        {
          g_autoptr(SqClip) back = tu_load_ok (got);
          const SqTrack *l = &orig->joints[sq_clip_find_joint (orig, "L_ARM")].tracks[SQ_CHANNEL_ROTATION];
          const SqTrack *r = &back->joints[sq_clip_find_joint (back, "R_ARM")].tracks[SQ_CHANNEL_ROTATION];

          g_assert_cmpuint (l->n_keys, ==, r->n_keys);
          for (gsize k = 0; k < l->n_keys; k++)
            {
              SqKey a = sq_track_key (l, k), b = sq_track_key (r, k);

              g_assert_cmpfloat_with_epsilon (b.v[0], a.v[0], 1e-6);
              g_assert_cmpfloat_with_epsilon (b.v[1], -a.v[1], 1e-6);
              g_assert_cmpfloat_with_epsilon (b.v[2], a.v[2], 1e-6);
              g_assert_cmpfloat_with_epsilon (b.v[3], -a.v[3], 1e-6);
            }
        }
      g_unlink (dest);
    }
}

/* The motion options give the bytes the core's edits give */
static void
test_motion_options (void)
{
  g_autofree char *dest = tmp ("motion.seq");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GBytes) in = tu_read (sample ());
  g_autoptr(SqClip) expect = tu_load_ok (in);
  g_autoptr(GString) report = g_string_new (NULL);
  gsize keys_before = 0;
  SqEdit *edits[] = {
    sq_edit_mirror_new (), sq_edit_resample_new (10), sq_edit_speed_new (2), sq_edit_trim_new (0.1, 0.5),
    sq_edit_reverse_new (), sq_edit_reduce_new (1, 0.01), sq_edit_close_loop_new (),
  };

  g_assert_cmpint (run (&out, NULL, "edit", sample (), "-o", dest, "--mirror", "--resample", "10", "--speed=2",
                        "--trim", "0.1,0.5", "--reverse", "--reduce", "1,0.01", "--close-loop", NULL), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      if (i == 5)
        keys_before = sq_clip_count_keys (expect);
      g_assert_true (sq_edit_apply (edits[i], expect, NULL));
      /* each edit's report is a note (a speed of 2 puts the 10 a second
       * grid between binary SEQ's frames: its keys move to them) */
      if (sq_edit_get_report (edits[i]) != NULL)
        g_string_append_printf (report, "%s: note: %s: %s\n", sample (), sq_edit_get_label (edits[i]),
                                sq_edit_get_report (edits[i]));
    }
  g_assert_nonnull (strstr (report->str, "Change Speed: ActiveWorlds binary SEQ keeps keys on frames"));
  g_free (err);
  err = g_strdup_printf ("Reduce Keys: %zu keys before, %zu after", keys_before, sq_clip_count_keys (expect));
  g_assert_nonnull (strstr (report->str, err));
  g_assert_cmpstr (out, ==, report->str);
  g_assert_cmpuint (sq_clip_count_keys (expect), <, keys_before);
  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    sq_edit_free (edits[i]);
  {
    g_autoptr(GBytes) got = tu_read (dest);
    g_autoptr(GBytes) want = tu_save (expect, "seq-binary", NULL);
    g_assert_true (g_bytes_equal (got, want));
  }

  /* refused edits: the reason, exit 1, no output */
  g_unlink (dest);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", sample (), "-o", dest, "--speed", "0", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "above 0"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", sample (), "-o", dest, "--trim", "0.5,0.5", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "empty"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", sample (), "-o", dest, "--resample", "-5", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "above 0"));
  g_assert_false (g_file_test (dest, G_FILE_TEST_EXISTS));
  /* bad usage */
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", dest, "--trim", "1", NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", dest, "--speed", "abc", NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", dest, "--reduce", "1,2,3", NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", dest, "--reduce", NULL), ==, 2);
}

/* Two text SEQ clips whose differences are known: the pelvis at 1 s is
 * turned 45° about Z in A (halfway to 90°) and 60° in B, and moved 0.5 in
 * B; C has a joint A has not */
static const char diff_a[] =
  "AWSQ Version=1 Limbs=2 Duration=2000\r\n"
  "pelvis frames=2\r\n"
  "0 0 0 1 0 0 0 0\r\n"
  "2000 0 0 1 90 0 0 0\r\n"
  "lfhip frames=2\r\n"
  "0 1 0 0 10 0 0 0\r\n"
  "2000 1 0 0 20 0 0 0\r\n";
static const char diff_b[] =
  "AWSQ Version=1 Limbs=2 Duration=2000\r\n"
  "pelvis frames=3\r\n"
  "0 0 0 1 0 0 0 0\r\n"
  "1000 0 0 1 60 0.5 0 0\r\n"
  "2000 0 0 1 90 0 0 0\r\n"
  "lfhip frames=2\r\n"
  "0 1 0 0 10 0 0 0\r\n"
  "2000 1 0 0 20 0 0 0\r\n";
static const char diff_c[] =
  "AWSQ Version=1 Limbs=3 Duration=2000\r\n"
  "pelvis frames=2\r\n"
  "0 0 0 1 0 0 0 0\r\n"
  "2000 0 0 1 90 0 0 0\r\n"
  "lfhip frames=2\r\n"
  "0 1 0 0 10 0 0 0\r\n"
  "2000 1 0 0 20 0 0 0\r\n"
  "rthip frames=2\r\n"
  "0 1 0 0 10 0 0 0\r\n"
  "2000 1 0 0 20 0 0 0\r\n";

static char *
write_tmp (const char *name,
           const char *text)
{
  char *path = tmp (name);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static double
json_number_after (const char *json,
                   const char *key)
{
  const char *at = strstr (json, key);

  g_assert_nonnull (at);
  return g_ascii_strtod (at + strlen (key), NULL);
}

static void
test_diff (void)
{
  g_autofree char *a = write_tmp ("diff-a.seq", diff_a);
  g_autofree char *b = write_tmp ("diff-b.seq", diff_b);
  g_autofree char *c = write_tmp ("diff-c.seq", diff_c);
  g_autofree char *out = NULL;
  const char *pelvis;

  /* a file against itself */
  g_assert_cmpint (run (&out, NULL, "diff", a, a, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "largest: rotation 0°, translation 0\n"));
  g_clear_pointer (&out, g_free);

  /* the known maxima: 15° and 0.5, both at 1 s */
  g_assert_cmpint (run (&out, NULL, "diff", "--json", a, b, NULL), ==, 1);
  pelvis = strstr (out, "\"name\": \"pelvis\"");
  g_assert_nonnull (pelvis);
  g_assert_cmpfloat_with_epsilon (json_number_after (pelvis, "\"rotation\": "), 15.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_number_after (pelvis, "\"rotation_time\": "), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (json_number_after (pelvis, "\"translation\": "), 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (json_number_after (pelvis, "\"translation_time\": "), 1.0, 1e-12);
  g_assert_cmpfloat (json_number_after (strstr (out, "\"name\": \"lfhip\""), "\"rotation\": "), ==, 0.0);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (NULL, NULL, "diff", "--tolerance", "15.001,0.5001", a, b, NULL), ==, 0);
  g_assert_cmpint (run (NULL, NULL, "diff", "--tolerance=14.99,1", a, b, NULL), ==, 1);
  g_assert_cmpint (run (NULL, NULL, "diff", "--tolerance", "16", a, b, NULL), ==, 1);   /* DIST 0 */

  /* a joint in one only */
  g_assert_cmpint (run (&out, NULL, "diff", "--tolerance", "1,1", a, c, NULL), ==, 1);
  g_assert_nonnull (strstr (out, "rthip: only in the second"));
  g_clear_pointer (&out, g_free);

  /* a corpus file against itself, and across formats through its own
   * conversion to .anim (its quantisation: below 2° and 1 mm) */
  {
    g_autoptr(GPtrArray) files = tu_corpus_files ("bvh");
    g_autofree char *anim = tmp ("diff.anim");

    if (files->len == 0)
      g_error ("no BVH corpus files (SEQUIN_CORPUS=%s)", g_getenv ("SEQUIN_CORPUS"));
    g_assert_cmpint (run (NULL, NULL, "diff", files->pdata[0], files->pdata[0], NULL), ==, 0);
    /* a file of each format against itself: identical */
    for (guint d = 0; d < 3; d++)
      {
        const char *dirs[] = { "seq-binary", "sl-anim", "dx-anim" };
        g_autoptr(GPtrArray) more = tu_corpus_files (dirs[d]);

        if (more->len == 0)
          g_error ("no corpus files in %s", dirs[d]);
        g_assert_cmpint (run (&out, NULL, "diff", more->pdata[0], more->pdata[0], NULL), ==, 0);
        g_assert_nonnull (strstr (out, "largest: rotation 0°, translation 0\n"));
        g_clear_pointer (&out, g_free);
      }
    g_assert_cmpint (run (NULL, NULL, "convert", files->pdata[0], anim, NULL), ==, 0);
    g_assert_cmpint (run (&out, NULL, "diff", "--tolerance", "2,0.001", files->pdata[0], anim, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "mPelvis: rotation "));
    g_clear_pointer (&out, g_free);
    g_assert_cmpint (run (NULL, NULL, "diff", files->pdata[0], anim, NULL), ==, 1);
  }

  /* validate --loss: the .anim encoding's error per joint, the status as without */
  g_assert_cmpint (run (&out, NULL, "validate", "--target", "sl", "--loss", a, NULL), ==, 1);
  g_assert_nonnull (strstr (out, "diff-a.seq: loss: largest rotation error "));
  g_assert_nonnull (strstr (out, "diff-a.seq: loss: mPelvis: rotation "));
  g_assert_nonnull (strstr (out, "diff-a.seq: loss: 8 keys quantised to 16 bits"));
  /* the .anim's size is no loss: a note, with the size of the file convert writes */
  {
    g_autofree char *anim = tmp ("diff-a.anim");
    g_autofree char *note = NULL;
    GStatBuf st;

    g_assert_cmpint (run (NULL, NULL, "convert", a, anim, NULL), ==, 0);
    g_assert_cmpint (g_stat (anim, &st), ==, 0);
    note = g_strdup_printf ("diff-a.seq: note: the animation is %" G_GINT64_FORMAT " bytes (Second Life's upload limit is",
                            (gint64) st.st_size);
    g_assert_nonnull (strstr (out, note));
    g_assert_null (strstr (out, ": loss: the animation is"));
    g_clear_pointer (&out, g_free);
    /* and of an .anim itself (nothing converted), its own size */
    g_assert_cmpint (run (&out, NULL, "validate", "--target", "sl", "--loss", anim, NULL), ==,
                     run (NULL, NULL, "validate", "--target", "sl", anim, NULL));
    g_clear_pointer (&note, g_free);
    note = g_strdup_printf ("diff-a.anim: note: the animation is %" G_GINT64_FORMAT " bytes (Second Life's upload "
                            "limit is 250,000 bytes)\n", (gint64) st.st_size);
    g_assert_nonnull (strstr (out, note));
    g_assert_nonnull (strstr (out, "diff-a.anim: loss: largest rotation error "));
  }
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (NULL, NULL, "validate", "--target", "aw", "--loss", a, NULL), ==, 2);

  g_assert_cmpint (run (NULL, NULL, "diff", a, NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "diff", "--tolerance", "-1", a, b, NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "diff", a, "/nonexistent.seq", NULL), ==, 1);
}

/* validate --target sl --loss on a clip whose .anim is over the upload
 * limit: the validation's error says the size, the size note too (the
 * file convert writes), the losses do not repeat it, the quantisation's
 * losses per joint stay */
static void
test_loss_over_limit (void)
{
  g_autofree char *path = tmp ("long.seq");
  g_autofree char *out = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  const guint n = 20000;   /* 16 bytes a frame in .anim (a rotation and a position key) */

  g_string_append_printf (text, "AWSQ Version=1 Limbs=1 Duration=%u\r\npelvis frames=%u\r\n", n - 1, n);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%u 0 0 1 %u 0 0 0\r\n", i, (i * 7) % 90);
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));

  g_assert_cmpint (run (&out, NULL, "validate", "--target", "sl", "--loss", path, NULL), ==, 1);
  g_assert_nonnull (strstr (out, "long.seq: error: the animation is "));
  g_assert_nonnull (strstr (out, "bytes as a Second Life animation, more than the upload limit of"));
  g_assert_null (strstr (out, ": loss: the animation is"));
  {
    g_autofree char *anim = tmp ("long.anim");
    g_autofree char *note = NULL;
    GStatBuf st;

    g_assert_cmpint (run (NULL, NULL, "convert", path, anim, NULL), ==, 0);
    g_assert_cmpint (g_stat (anim, &st), ==, 0);
    g_assert_cmpint (st.st_size, >, 250000);
    note = g_strdup_printf ("long.seq: note: the animation is %" G_GINT64_FORMAT " bytes, over Second Life's upload "
                            "limit of 250,000 bytes\n", (gint64) st.st_size);
    g_assert_nonnull (strstr (out, note));
  }
  g_assert_nonnull (strstr (out, "long.seq: loss: 40000 keys quantised to 16 bits"));
  g_assert_nonnull (strstr (out, "long.seq: loss: largest rotation error "));
  g_assert_nonnull (strstr (out, "long.seq: loss: mPelvis: rotation "));
}

/* ---- batch: a folder with one malformed file ---- */

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *p = g_build_filename (path, name, NULL);

      if (g_file_test (p, G_FILE_TEST_IS_DIR))
        remove_tree (p);
      else
        g_unlink (p);
    }
  g_rmdir (path);
}

static void
test_batch (void)
{
  g_autoptr(GPtrArray) files = tu_corpus_files ("bvh");
  g_autofree char *in_dir = tmp ("batch-in");
  g_autofree char *out_dir = tmp ("batch-out");
  g_autofree char *edit_dir = tmp ("batch-edit");
  g_autofree char *bad = g_build_filename (in_dir, "broken.bvh", NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *err = NULL, *out = NULL, *want = NULL;
  const char *names[3];

  if (files->len < 3)
    g_error ("fewer than 3 BVH corpus files (SEQUIN_CORPUS=%s)", g_getenv ("SEQUIN_CORPUS"));
  g_ptr_array_sort (files, compare_paths);
  g_assert_cmpint (g_mkdir_with_parents (in_dir, 0700), ==, 0);
  /* three good files and one cut short, in the order given */
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(GBytes) bytes = tu_read (files->pdata[i]);
      g_autofree char *base = g_path_get_basename (files->pdata[i]);
      char *copy = g_build_filename (in_dir, base, NULL);

      g_assert_true (g_file_set_contents (copy, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                                          NULL));
      g_ptr_array_add (argv, copy);
      names[i] = g_ptr_array_index (argv, argv->len - 1);
    }
  g_assert_true (g_file_set_contents (bad, "HIERARCHY\nROOT hip\n{\n", -1, NULL));

  /* convert: the others are done, the bad one named, exit 1 */
  g_assert_cmpint (run (NULL, &err, "convert", "--to", "sl-anim", "--out-dir", out_dir, names[0], bad, names[1],
                        names[2], NULL), ==, 1);
  want = g_strdup_printf ("sequin-cli: 3 converted, 1 failed: %s\n", bad);
  g_assert_true (g_str_has_suffix (err, want));
  g_assert_nonnull (strstr (err, "broken.bvh: line "));
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(GBytes) in = tu_read (names[i]);
      g_autoptr(SqClip) clip = tu_load_ok (in);
      g_autofree char *base = g_path_get_basename (names[i]);
      g_autofree char *stem = g_strndup (base, strlen (base) - 4);
      g_autofree char *anim = g_strdup_printf ("%s/%s.anim", out_dir, stem);
      g_autoptr(GBytes) got = tu_read (anim);
      g_autoptr(GBytes) expect = tu_save (clip, "sl-anim", NULL);

      g_assert_true (g_bytes_equal (got, expect));
    }
  {
    g_autofree char *no = g_build_filename (out_dir, "broken.anim", NULL);
    g_assert_false (g_file_test (no, G_FILE_TEST_EXISTS));
  }

  /* diff --against: each input against its .anim, within the encoding's
   * quantisation; the bad one has no counterpart */
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "diff", "--tolerance", "2,0.001", "--against", out_dir, names[0], names[1],
                        names[2], NULL), ==, 0);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *base = g_path_get_basename (names[i]);
      g_autofree char *stem = g_strndup (base, strlen (base) - 4);
      g_autofree char *line = g_strdup_printf ("== %s %s/%s.anim\n", names[i], out_dir, stem);

      g_assert_nonnull (strstr (out, line));
    }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (&out, &err, "diff", "--json", "--tolerance", "2,0.001", "--against", out_dir, names[0], bad,
                        NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out, "[{\"a\": "));
  g_assert_true (g_str_has_suffix (out, "}]\n"));
  g_assert_nonnull (strstr (err, "broken.bvh: no file of the same name in "));
  g_assert_nonnull (strstr (err, "1 of 2 pairs differ or could not be compared"));
  g_clear_pointer (&out, g_free);

  /* edit: the operations on each, priority 4 and mirrored, as .anim */
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", "--out-dir", edit_dir, "--to", "sl-anim", "--priority", "4", "--mirror",
                        names[0], names[1], bad, names[2], NULL), ==, 1);
  g_clear_pointer (&want, g_free);
  want = g_strdup_printf ("sequin-cli: 3 edited, 1 failed: %s\n", bad);
  g_assert_true (g_str_has_suffix (err, want));
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(GBytes) in = tu_read (names[i]);
      g_autoptr(SqClip) clip = tu_load_ok (in);
      g_autoptr(SqEdit) priority = sq_edit_sl_priority_new (4);
      g_autoptr(SqEdit) mirror = sq_edit_mirror_new ();
      g_autofree char *base = g_path_get_basename (names[i]);
      g_autofree char *stem = g_strndup (base, strlen (base) - 4);
      g_autofree char *anim = g_strdup_printf ("%s/%s.anim", edit_dir, stem);
      g_autoptr(GBytes) got = tu_read (anim);
      g_autoptr(GBytes) expect = NULL;

      g_assert_true (sq_edit_apply (priority, clip, NULL));
      g_assert_true (sq_edit_apply (mirror, clip, NULL));
      expect = tu_save (clip, "sl-anim", NULL);
      g_assert_true (g_bytes_equal (got, expect));
    }
  /* all good: exit 0 and the count */
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "convert", "--to=seq-text", "--out-dir", out_dir, names[0], names[1], NULL), ==, 0);
  g_assert_true (g_str_has_suffix (err, "sequin-cli: 2 converted\n"));
  /* two inputs of one base name: the second is refused, not overwritten */
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "convert", "--to", "bvh", "--out-dir", out_dir, names[0], names[0], NULL), ==, 1);
  g_assert_nonnull (strstr (err, "is the output of an earlier file too"));
  g_assert_nonnull (strstr (err, "1 converted, 1 failed"));
  /* bad usage */
  g_assert_cmpint (run (NULL, NULL, "convert", "--out-dir", out_dir, names[0], NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "edit", "--out-dir", out_dir, "-o", "x", names[0], NULL), ==, 2);

  /* info and validate take many files; a bad one does not stop the others */
  g_assert_cmpint (run (&out, NULL, "info", names[0], bad, names[1], NULL), ==, 1);
  g_assert_nonnull (strstr (out, names[0]));
  g_assert_nonnull (strstr (out, names[1]));
  {
    g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
    guint formats = 0;

    for (guint i = 0; lines[i] != NULL; i++)
      formats += g_str_has_prefix (lines[i], "Format:    Biovision");
    g_assert_cmpuint (formats, ==, 2);
  }
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "validate", "--target", "sl", names[0], bad, names[2], NULL), ==, 1);
  g_assert_nonnull (strstr (out, names[0]));
  g_assert_nonnull (strstr (out, names[2]));

  remove_tree (in_dir);
  remove_tree (out_dir);
  remove_tree (edit_dir);
}

/* ---- the options: GOption per command, its help and the man page ---- */

static const char * const edit_option_names[] = {
  "output", "to", "map", "out-dir", "invert-xz", "rename-joint", "delete-joint", "delete-keys", "rename-root",
  "rescale", "set-first-frame", "priority", "joint-priority", "loop", "no-loop", "ease", "hand-pose", "emote",
  "delete-constraint", "set-constraint", "add-constraint", "frame-rate", "frame-time", "set-name", "mirror",
  "resample", "speed", "trim", "reverse", "reduce", "close-loop",
};

static void
test_help (void)
{
  static const char * const commands[] = { "info", "dump", "convert", "edit", "validate", "formats", "diff" };
  g_autofree char *man = NULL;

  /* every command's own --help, as GOption writes it */
  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      g_autofree char *out = NULL, *again = NULL;
      g_autofree char *usage = g_strdup_printf ("Usage:\n  sequin-cli %s ", commands[c]);

      g_assert_cmpint (run (&out, NULL, commands[c], "--help", NULL), ==, 0);
      g_assert_true (g_str_has_prefix (out, usage));
      g_assert_nonnull (strstr (out, "-h, --help"));
      g_assert_cmpint (run (&again, NULL, "help", commands[c], NULL), ==, 0);
      g_assert_cmpstr (again, ==, out);
    }
  /* edit --help lists every operation, with its value */
  {
    g_autofree char *out = NULL;

    g_assert_cmpint (run (&out, NULL, "edit", "-h", NULL), ==, 0);
    for (guint i = 0; i < G_N_ELEMENTS (edit_option_names); i++)
      {
        g_autofree char *name = g_strdup_printf ("--%s", edit_option_names[i]);
        g_assert_nonnull (strstr (out, name));
      }
    g_assert_nonnull (strstr (out, "--joint-priority=JOINT=N"));
    g_assert_nonnull (strstr (out, "Second Life .anim fields"));
  }
  /* the ranges in the help come from the worlds' limits */
  {
    g_autofree char *out = NULL;
    g_autofree char *frame_time = g_strdup_printf ("  --frame-time=SECONDS          the same as BVH's Frame Time (%g to %g s)\n",
                                                   SQ_MIN_FRAME_TIME, SQ_MAX_FRAME_TIME);
    g_autofree char *priority = g_strdup_printf ("  --priority=N                  base priority, %d to %d\n",
                                                 SQ_SL_MIN_PRIORITY, SQ_SL_MAX_PRIORITY);
    g_autofree char *constraints = g_strdup_printf ("append a constraint (at most %d);", SQ_SL_MAX_CONSTRAINTS);
    g_autofree char *chain = g_strdup_printf (" with the fields chain=0..%d, type=point|plane,\n", SQ_SL_MAX_CHAIN_LENGTH);

    g_assert_cmpint (run (&out, NULL, "edit", "--help", NULL), ==, 0);
    g_assert_nonnull (strstr (out, frame_time));
    g_assert_nonnull (strstr (out, priority));
    g_assert_nonnull (strstr (out, constraints));
    g_assert_nonnull (strstr (out, chain));
  }

  /* the man page the build installs, from the same tables: every
   * command and edit option, hyphens escaped for roff */
  g_assert_cmpint (run (&man, NULL, "--man-page", NULL), ==, 0);
  g_assert_true (g_str_has_prefix (man, ".TH SEQUIN\\-CLI 1 "));
  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      g_autofree char *section = g_strdup_printf ("\n.SS %s\n", commands[c]);
      g_assert_nonnull (strstr (man, section));
    }
  for (guint i = 0; i < G_N_ELEMENTS (edit_option_names); i++)
    {
      g_autofree char *escaped = NULL;
      g_auto(GStrv) parts = g_strsplit (edit_option_names[i], "-", -1);
      g_autofree char *joined = g_strjoinv ("\\-", parts);

      escaped = g_strdup_printf ("\\fB%s\\-\\-%s", g_str_equal (edit_option_names[i], "output") ? "\\-o, " : "", joined);
      g_assert_nonnull (strstr (man, escaped));
    }
}

/* GOption's ways kept as before: an optional value only after "="
 * (--invert-xz IN keeps IN a file), --set-first-frame taking the next
 * argument when it holds a comma, values that start with "-", "--" ending
 * the options */
static void
test_option_forms (void)
{
  g_autofree char *a = tmp ("forms-a.seq"), *b = tmp ("forms-b.seq"), *c = tmp ("forms-c.seq");
  g_autofree char *err = NULL;

  g_assert_cmpint (run (NULL, NULL, "edit", "--invert-xz", sample (), "-o", a, NULL), ==, 0);
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", b, "--invert-xz", NULL), ==, 0);
  {
    g_autoptr(GBytes) got_a = tu_read (a), got_b = tu_read (b), orig = tu_read (sample ());
    g_assert_true (g_bytes_equal (got_a, got_b));
    g_assert_false (g_bytes_equal (got_a, orig));
  }
  g_assert_cmpint (run (NULL, NULL, "edit", "--set-first-frame", "1,2,3", sample (), "-o", a, NULL), ==, 0);
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", b, "--set-first-frame=1,2,3", NULL), ==, 0);
  g_assert_cmpint (run (NULL, NULL, "edit", "--set-first-frame", sample (), "-o", c, NULL), ==, 0);
  {
    g_autoptr(GBytes) got_a = tu_read (a), got_b = tu_read (b), got_c = tu_read (c);
    g_assert_true (g_bytes_equal (got_a, got_b));
    g_assert_false (g_bytes_equal (got_a, got_c));
  }
  /* a value starting with "-"; "--" ends the options */
  g_assert_cmpint (run (NULL, NULL, "edit", sample (), "-o", a, "--priority", "-1", NULL), ==, 0);
  g_assert_cmpint (run (NULL, NULL, "edit", "-o", b, "--priority=-1", "--", sample (), NULL), ==, 0);
  {
    g_autoptr(GBytes) got_a = tu_read (a), got_b = tu_read (b);
    g_assert_true (g_bytes_equal (got_a, got_b));
  }
  /* bad usage: exit 2 and the reason */
  g_assert_cmpint (run (NULL, &err, "edit", sample (), "-o", a, "--mirror=yes", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--mirror takes no value"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", sample (), "-o", a, "--invert-xz=", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--invert-xz= needs joint names"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", sample (), "-o", a, "--set-first-frame", "1,2", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "X,Y,Z"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "info", "--frobnicate", sample (), NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--frobnicate"));
  g_assert_nonnull (strstr (err, "sequin-cli info --help"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "validate", "--target", "nowhere", sample (), NULL), ==, 2);
  g_assert_nonnull (strstr (err, "known: aw, sl, sims"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "convert", "--to", "nosuch", sample (), a, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "nosuch"));
}

/* A .x of three AnimationSets: info lists them, --take N picks one in
 * every command that reads, an unedited take converts to the same bytes,
 * an edited one keeps the others, a take the file lacks fails */
static void
test_takes (void)
{
  g_autofree char *wuson = tu_corpus_path ("dx-anim", "Testwuson.X");
  g_autofree char *same = tmp ("walk-same.x"), *edited = tmp ("walk-edited.x"), *bvh = tmp ("walk.bvh");
  g_autofree char *out = NULL, *err = NULL, *a = NULL, *b = NULL;
  gsize la, lb;

  g_assert_cmpint (run (&out, NULL, "info", wuson, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Takes:     3\n  1 “Wuson_Run” (this one)\n  2 “Wuson_Walk”\n  3 “Wuson_Bind”\n"));
  g_assert_nonnull (strstr (out, "Keys:      1013 ("));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "info", "--take", "2", wuson, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "  1 “Wuson_Run”\n  2 “Wuson_Walk” (this one)\n"));
  g_assert_nonnull (strstr (out, "Keys:      3435 (3357 rotation, 39 translation, 39 scale)"));
  g_assert_nonnull (strstr (out, "Duration:  3.600 s"));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "dump", "--take=3", wuson, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Wuson_Bind"));
  g_assert_nonnull (strstr (out, "  3 “Wuson_Bind” (this one)"));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "validate", "--take", "2", wuson, NULL), ==, 1);
  g_assert_nonnull (strstr (out, "AnimTicksPerSecond is 4800"));
  g_assert_nonnull (strstr (out, "the file holds 3 AnimationSets and this is set 2; ActiveWorlds plays only the first"));
  g_clear_pointer (&out, g_free);

  /* unedited: the file as it was; edited: the other sets kept, not lost */
  g_assert_cmpint (run (NULL, NULL, "convert", "--take", "2", wuson, same, NULL), ==, 0);
  g_assert_true (g_file_get_contents (wuson, &a, &la, NULL));
  g_assert_true (g_file_get_contents (same, &b, &lb, NULL));
  g_assert_cmpmem (a, la, b, lb);
  g_assert_cmpint (run (NULL, &err, "edit", "--take", "2", wuson, "-o", edited, "--rescale", "2", NULL), ==, 0);
  g_assert_null (strstr (err, "AnimationSet"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (&out, NULL, "info", "--take", "2", edited, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "2 “Wuson_Walk” (this one)"));
  g_assert_nonnull (strstr (out, "Keys:      3435 ("));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "info", "--take", "3", edited, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "3 “Wuson_Bind” (this one)"));
  g_clear_pointer (&out, g_free);
  /* into a format of one animation: the other sets are reported lost */
  g_assert_cmpint (run (NULL, &err, "convert", "--take", "2", wuson, bvh, NULL), ==, 0);
  g_assert_nonnull (strstr (err, "lost: 2 other AnimationSet(s) of the file"));
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run (NULL, &err, "info", "--take", "4", wuson, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "there is no AnimationSet 4: the file has 3"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "dump", "--take", "2", sample (), NULL), ==, 1);
  g_assert_nonnull (strstr (err, "take 2 was asked for, but a ActiveWorlds binary SEQ file holds one animation"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "info", "--take", "0", wuson, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--take needs N, a whole number from 1"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, NULL, "convert", "--take", "x", wuson, same, NULL), ==, 2);
}

/* Take `take` (from 0) of `path`, read as the command line reads it */
static SqClip *
load_take (const char *path,
           guint       take)
{
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(GError) error = NULL;
  SqLoadOptions options = { 0 };
  SqClip *clip;

  options.take = take;
  clip = sq_load_bytes (bytes, path, NULL, &options, &error);
  g_assert_no_error (error);
  g_assert_nonnull (clip);
  return clip;
}

/* diff --take N[,M]: two AnimationSets of one .x compared as the core
 * compares those takes (the same report, text and JSON), one take of both
 * files the same, --against pairs with the takes, a take the file lacks
 * refused as the other commands refuse it */
static void
test_diff_takes (void)
{
  g_autofree char *wuson = tu_corpus_path ("dx-anim", "Testwuson.X");
  g_autofree char *dir = tmp ("diff-takes");
  g_autofree char *copy = g_build_filename (dir, "Testwuson.X", NULL);
  g_autofree char *out = NULL, *err = NULL, *text = NULL, *json = NULL;
  g_autoptr(SqClip) run_set = load_take (wuson, 0);
  g_autoptr(SqClip) walk_set = load_take (wuson, 1);
  g_autoptr(SqDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = tu_read (wuson);
  const char *root;

  diff = sq_diff_clips (run_set, walk_set, &error);
  g_assert_no_error (error);
  /* Wuson_Run (0.97 s) and Wuson_Walk (3.6 s) differ */
  g_assert_cmpfloat (diff->rotation, >, 1.0);
  g_assert_cmpfloat (fabs (diff->duration_a - diff->duration_b), >, 1.0);
  text = sq_diff_to_text (diff);
  json = sq_diff_to_json (diff);

  g_assert_cmpint (run (&out, NULL, "diff", "--take", "1,2", wuson, wuson, NULL), ==, 1);
  g_assert_cmpstr (out, ==, text);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "diff", "--json", "--take=1,2", wuson, wuson, NULL), ==, 1);
  g_assert_cmpstr (out, ==, json);
  /* the numbers: the largest rotation and the root's translation as the core has them */
  g_assert_cmpfloat_with_epsilon (json_number_after (out, "\"rotation\": "), diff->rotation, 1e-9 * diff->rotation);
  root = strstr (out, "\"name\": \"Root\"");
  g_assert_nonnull (root);
  for (guint i = 0; i < diff->joints->len; i++)
    {
      const SqJointDiff *d = &g_array_index (diff->joints, SqJointDiff, i);

      if (g_str_equal (d->name, "Root"))
        {
          g_assert_cmpfloat (d->translation, >, 0.0);
          g_assert_cmpfloat_with_epsilon (json_number_after (root, "\"translation\": "), d->translation,
                                          1e-9 * d->translation);
        }
    }
  g_clear_pointer (&out, g_free);
  /* the other way round: the durations swapped */
  g_assert_cmpint (run (&out, NULL, "diff", "--take", "2,1", wuson, wuson, NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out, "duration: 3.6 s and 0.966667 s"));
  g_clear_pointer (&out, g_free);

  /* one N: that take of both */
  g_assert_cmpint (run (&out, NULL, "diff", "--take", "2", wuson, wuson, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "duration: 3.6 s and 3.6 s"));
  g_assert_nonnull (strstr (out, "largest: rotation 0°, translation 0\n"));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (NULL, NULL, "diff", "--take", "3,3", wuson, wuson, NULL), ==, 0);

  /* --against: FILE's take N with its counterpart's take M */
  g_assert_cmpint (g_mkdir_with_parents (dir, 0777), ==, 0);
  g_assert_true (g_file_set_contents (copy, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));
  g_assert_cmpint (run (&out, NULL, "diff", "--take", "1,2", "--against", dir, wuson, NULL), ==, 1);
  g_assert_true (g_str_has_suffix (out, text));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "diff", "--json", "--take", "2", "--against", dir, wuson, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out, "[{"));
  g_assert_nonnull (strstr (out, "\"rotation\": 0,"));
  g_clear_pointer (&out, g_free);

  /* a take past the file's: the other commands' error and exit status */
  g_assert_cmpint (run (NULL, &err, "diff", "--take", "1,4", wuson, wuson, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "there is no AnimationSet 4: the file has 3"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "diff", "--take", "4", "--against", dir, wuson, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "there is no AnimationSet 4: the file has 3"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "diff", "--take", "2", sample (), sample (), NULL), ==, 1);
  g_assert_nonnull (strstr (err, "take 2 was asked for, but a ActiveWorlds binary SEQ file holds one animation"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, NULL, "diff", "--take", "1", sample (), sample (), NULL), ==, 0);
  for (guint i = 0; i < 5; i++)
    {
      const char *bad[] = { "0", "1,0", "1,2,3", "x", "1," };

      g_assert_cmpint (run (NULL, &err, "diff", "--take", bad[i], wuson, wuson, NULL), ==, 2);
      g_assert_nonnull (strstr (err, "--take needs N[,M], whole numbers from 1"));
      g_clear_pointer (&err, g_free);
    }
}

/* info and validate over many files (read on all cores): the output of
 * each file in the order given, as running them one by one gives it, a
 * malformed file reported and the others still done, exit 1 */
static void
test_many_in_order (void)
{
  g_autofree char *bad = tmp ("malformed.seq");
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  static const char * const dirs[] = { "seq-binary", "dx-anim", "bvh", "sl-anim" };
  static const char * const commands[][3] = {
    { "info", NULL, NULL }, { "validate", NULL, NULL }, { "validate", "--target", "sl" },
  };

  g_file_set_contents (bad, "\x7f\x7f\x7f\x7a\x01", 5, &error);
  g_assert_no_error (error);
  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr(GPtrArray) some = tu_corpus_files (dirs[d]);

      for (guint i = 0; i < some->len && i < 6; i++)
        g_ptr_array_add (files, g_strdup (some->pdata[i]));
      if (d == 1)
        g_ptr_array_add (files, g_strdup (bad));
    }
  g_assert_cmpuint (files->len, >=, 12);

  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      g_autoptr(GPtrArray) args = g_ptr_array_new ();
      g_autoptr(GString) want_out = g_string_new (NULL), want_err = g_string_new (NULL);
      g_autofree char *out = NULL, *err = NULL;
      gboolean info = g_str_equal (commands[c][0], "info");
      int want_status = 0;

      for (guint k = 0; k < 3 && commands[c][k] != NULL; k++)
        g_ptr_array_add (args, (char *) commands[c][k]);
      for (guint f = 0; f < files->len; f++)
        {
          const char *one[5] = { NULL };
          g_autofree char *o = NULL, *e = NULL;
          guint n = 0;

          for (guint k = 0; k < 3 && commands[c][k] != NULL; k++)
            one[n++] = commands[c][k];
          one[n] = files->pdata[f];
          if (run_args (&o, &e, one) != 0)
            want_status = 1;
          if (info)
            g_string_append_printf (want_out, "%sFile:      %s\n", f ? "\n" : "", (const char *) files->pdata[f]);
          g_string_append (want_out, o);
          g_string_append (want_err, e);
          g_ptr_array_add (args, files->pdata[f]);
        }
      g_ptr_array_add (args, NULL);
      g_assert_cmpint (want_status, ==, 1);
      g_assert_cmpint (run_args (&out, &err, (const char **) args->pdata), ==, want_status);
      g_assert_cmpstr (out, ==, want_out->str);
      g_assert_cmpstr (err, ==, want_err->str);
      g_assert_nonnull (strstr (err, "malformed.seq: "));
    }
}

/* Second Life end to end: `layers` tells the winner per joint (a pose at
 * priority 4 against an AO at 3 with its shoulder at 5); a BVH pose keeps
 * its joints as .anim, or none with --literal-pose; `info` tells a BVH's
 * reference frame and --skip-frames drops it; a BVH from a .anim has its
 * reference frame as a note, and --no-reference-frame leaves it out */
static void
test_sl_layers_reference (void)
{
  g_autofree char *relaxed = NULL, *walk = NULL;
  g_autofree char *pose = tmp ("pose.anim"), *ao = tmp ("ao.anim"), *kept = tmp ("relaxed.anim");
  g_autofree char *literal = tmp ("literal.anim"), *bvh = tmp ("pose.bvh"), *bare = tmp ("pose-bare.bvh");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(SqClip) k = NULL, l = NULL, b1 = NULL, b2 = NULL;

  relaxed = g_build_filename (g_getenv ("SEQUIN_CORPUS"), "bvh", "Relaxed.bvh", NULL);
  walk = g_build_filename (g_getenv ("SEQUIN_CORPUS"), "bvh", "~walk_Male.bvh", NULL);
  g_assert_true (g_file_test (relaxed, G_FILE_TEST_EXISTS));

  /* the pose BVH: kept by default, nothing the viewer's way */
  g_assert_cmpint (run (NULL, &err, "convert", relaxed, kept, NULL), ==, 0);
  g_assert_nonnull (strstr (err, "note: every frame of the BVH holds the same pose"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "convert", "--literal-pose", relaxed, literal, NULL), ==, 0);
  g_assert_nonnull (strstr (err, "so the animation has no joints"));
  g_clear_pointer (&err, g_free);
  k = sequin_test_cli_load (kept);
  l = sequin_test_cli_load (literal);
  g_assert_cmpuint (k->n_joints, ==, 19);
  g_assert_cmpuint (l->n_joints, ==, 0);
  g_assert_cmpint (run (&out, NULL, "validate", "--target", "sl", relaxed, NULL), ==, 1);
  g_assert_nonnull (strstr (out, "warning: every one of the 30 frames holds the same pose"));
  g_clear_pointer (&out, g_free);

  /* the two files for layers, by the edit command */
  /* (the base priority leaves the joints' own priorities, 2 from the
   * conversion, as they are: those count, as in the viewer) */
  g_assert_cmpint (run (NULL, NULL, "edit", kept, "-o", pose, "--priority", "4", "--joint-priority", "mHead=4", NULL),
                   ==, 0);
  g_assert_cmpint (run (NULL, NULL, "edit", kept, "-o", ao, "--priority", "3", "--joint-priority", "mHead=3",
                        "--joint-priority", "mShoulderLeft=5", NULL), ==, 0);
  g_assert_cmpint (run (&out, NULL, "layers", ao, pose, "--at", "0.5", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "mHead              pose.anim        (priority 4 over ao.anim's 3)\n"));
  g_assert_nonnull (strstr (out, "mShoulderLeft      ao.anim          (joint priority 5 over pose.anim's 2)\n"));
  g_assert_nonnull (strstr (out, "mChest             pose.anim        (priority 2 as ao.anim's, started last)\n"));
  g_assert_true (g_str_has_prefix (out, "mPelvis "));
  g_clear_pointer (&out, g_free);
  /* after its end and ease out (0.967 s, not looping) none plays */
  g_assert_cmpint (run (&out, NULL, "layers", ao, pose, "--at", "1", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "mHead              -                (none of them plays at this time)"));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (NULL, NULL, "layers", "--at", "x", pose, NULL), ==, 2);

  /* a walk's frame 0 is its reference; --skip-frames 1 drops it */
  g_assert_cmpint (run (&out, NULL, "info", walk, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Frame 0:   frame 0 is a reference pose"));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "info", "--skip-frames", "1", walk, NULL), ==, 0);
  g_assert_null (strstr (out, "Frame 0:   frame 0 is a reference pose"));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (NULL, NULL, "info", "--skip-frames", "-1", walk, NULL), ==, 2);

  /* BVH from .anim: the reference frame is a note, not a loss */
  g_assert_cmpint (run (NULL, &err, "convert", pose, bvh, NULL), ==, 0);
  g_assert_nonnull (strstr (err, "note: frame 0 is a reference pose (the rest pose)"));
  g_assert_null (strstr (err, "lost: frame 0 is a reference pose"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "convert", "--no-reference-frame", pose, bare, NULL), ==, 0);
  g_assert_null (strstr (err, "frame 0 is a reference pose"));
  b1 = sequin_test_cli_load (bvh);
  b2 = sequin_test_cli_load (bare);
  g_assert_cmpuint (sq_bvh_frame_count (b1, NULL), ==, sq_bvh_frame_count (b2, NULL) + 1);
}

/* ---- companions: a save writes only what the user named ---------------- */

/* `name` of tests/data/sims into `dir` as `as`, every "xskill-walk" in it
 * made `cfp` when not NULL */
static void
put_sims (const char *dir,
          const char *name,
          const char *as,
          const char *cfp)
{
  g_autofree char *src = g_test_build_filename (G_TEST_DIST, "data", "sims", name, NULL);
  g_autofree char *dest = g_build_filename (dir, as, NULL);

  tu_copy_renamed (src, dest, "xskill-walk", cfp);
}

/* the line of `sums` for `name` ("" when there is none) */
static char *
sum_line (const char *sums,
          const char *name)
{
  g_auto(GStrv) lines = g_strsplit (sums, "\n", -1);
  g_autofree char *prefix = g_strconcat (name, " ", NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return g_strdup (lines[i]);
  return g_strdup ("");
}

static void
assert_kept (const char *before,
             const char *after,
             const char *name)
{
  g_autofree char *was = sum_line (before, name);
  g_autofree char *is = sum_line (after, name);

  g_assert_cmpstr (was, !=, "");
  g_assert_cmpstr (is, ==, was);
}

/* A folder of skills: walk.cmx and its CFP; other.cmx, whose keys are in
 * the CFP "mirrored.cmx" would get. edit, convert and the batch refuse to
 * replace another skill's CFP and change no file; a new name gets a CFP of
 * its own; the same name keeps its CFP; --overwrite-companions replaces. */
static void
test_companions (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "skills", NULL);
  g_autofree char *walk = g_build_filename (dir, "walk.cmx", NULL);
  g_autofree char *mirrored = g_build_filename (dir, "mirrored.cmx", NULL);
  g_autofree char *mine = g_build_filename (dir, "mine.cmx", NULL);
  g_autofree char *batch = g_build_filename (dir, "batch", NULL);
  g_autofree char *before = NULL, *after = NULL, *err = NULL, *text = NULL;
  static const char *others[] = { "walk.cmx", "xskill-walk.cfp", "other.cmx", "xskill-mirrored.cfp" };

  g_assert_cmpint (g_mkdir_with_parents (batch, 0700), ==, 0);
  put_sims (dir, "walk.cmx", "walk.cmx", NULL);
  put_sims (dir, "xskill-walk.cfp", "xskill-walk.cfp", NULL);
  put_sims (dir, "walk.cmx", "other.cmx", "xskill-mirrored");
  put_sims (dir, "xskill-walk.cfp", "xskill-mirrored.cfp", NULL);
  /* in the batch's folder, a skill that names the CFP walk.cmx would get */
  put_sims (dir, "walk.cmx", "batch/sibling.cmx", NULL);
  put_sims (dir, "nod.cmx", "batch/nod.cmx", "xskill-walk");
  put_sims (dir, "xskill-walk.cfp", "batch/xskill-walk.cfp", NULL);
  before = tu_folder_sums (dir);

  /* refused: exit 1, the file and the option named, no file changed */
  g_assert_cmpint (run (NULL, &err, "edit", walk, "-o", mirrored, "--mirror", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "“xskill-mirrored.cfp” belongs to “other.cmx”"));
  g_assert_nonnull (strstr (err, "--overwrite-companions"));
  after = tu_folder_sums (dir);
  g_assert_cmpstr (after, ==, before);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "convert", walk, mirrored, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "--overwrite-companions"));
  g_clear_pointer (&after, g_free);
  after = tu_folder_sums (dir);
  g_assert_cmpstr (after, ==, before);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", "--out-dir", batch, walk, "--mirror", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "“xskill-walk.cfp” belongs to “sibling.cmx”"));
  g_clear_pointer (&after, g_free);
  after = tu_folder_sums (dir);
  g_assert_cmpstr (after, ==, before);
  g_clear_pointer (&err, g_free);

  /* a new name: its own CFP, reported, every other file as it was */
  g_assert_cmpint (run (NULL, &err, "edit", walk, "-o", mine, "--mirror", NULL), ==, 0);
  g_assert_nonnull (strstr (err, "mine.cmx: note: keys in xskill-mine.cfp"));
  g_clear_pointer (&after, g_free);
  after = tu_folder_sums (dir);
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    assert_kept (before, after, others[i]);
  g_assert_true (g_file_get_contents (mine, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\nxskill-mine\r\n"));
  g_clear_pointer (&err, g_free);
  /* the same for the batch into a folder without that CFP */
  {
    g_autofree char *fresh = g_build_filename (dir, "fresh", NULL);
    g_autofree char *cfp = g_build_filename (fresh, "xskill-walk.cfp", NULL);

    g_assert_cmpint (run (NULL, NULL, "convert", "--to", "sims-cmx", "--out-dir", fresh, walk, NULL), ==, 0);
    g_assert_true (g_file_test (cfp, G_FILE_TEST_IS_REGULAR));
  }

  /* over the same file: its own CFP, rewritten; the others as they were */
  g_assert_cmpint (run (NULL, &err, "edit", walk, "-o", walk, "--reverse", NULL), ==, 0);
  g_assert_null (strstr (err, "note: keys in"));
  g_clear_pointer (&before, g_free);
  before = g_steal_pointer (&after);
  after = tu_folder_sums (dir);
  assert_kept (before, after, "other.cmx");
  assert_kept (before, after, "xskill-mirrored.cfp");
  {
    g_autofree char *was = sum_line (before, "xskill-walk.cfp");
    g_autofree char *is = sum_line (after, "xskill-walk.cfp");
    g_assert_cmpstr (is, !=, was);
  }
  g_clear_pointer (&err, g_free);

  /* said so: replaced, the CMX that names it untouched */
  g_assert_cmpint (run (NULL, &err, "edit", walk, "-o", mirrored, "--mirror", "--overwrite-companions", NULL), ==, 0);
  g_clear_pointer (&before, g_free);
  before = g_steal_pointer (&after);
  after = tu_folder_sums (dir);
  assert_kept (before, after, "other.cmx");
  assert_kept (before, after, "walk.cmx");
  {
    g_autofree char *was = sum_line (before, "xskill-mirrored.cfp");
    g_autofree char *is = sum_line (after, "xskill-mirrored.cfp");
    g_assert_cmpstr (is, !=, was);
  }
}

/* A write that fails in either file of the pair (the file size limit):
 * both old files as they were, no temporary file left */
static void
test_companion_failed_write (void)
{
  static const struct { const char *cmx, *cfp; rlim_t limit; } cases[] = {
    { "walk.cmx", "xskill-walk.cfp", 4000 },  /* the CFP (10 KB) fails */
    { "nod.cmx", "xskill-nod.cfp", 200 },     /* the CMX (275 bytes) fails */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("pair-%u", i);
      g_autofree char *dir = g_build_filename (tmpdir, name, NULL);
      g_autofree char *cmx = g_build_filename (dir, cases[i].cmx, NULL);
      g_autofree char *before = NULL, *after = NULL, *err = NULL;
      struct rlimit old_limit, limit;
      void (*old_handler) (int) = signal (SIGXFSZ, SIG_IGN);
      int status;

      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
      put_sims (dir, cases[i].cmx, cases[i].cmx, NULL);
      put_sims (dir, cases[i].cfp, cases[i].cfp, NULL);
      before = tu_folder_sums (dir);
      g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
      limit = old_limit;
      limit.rlim_cur = cases[i].limit;
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
      status = run (NULL, &err, "edit", cmx, "-o", cmx, "--mirror", NULL);
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
      signal (SIGXFSZ, old_handler);
      g_assert_cmpint (status, ==, 1);
      g_assert_nonnull (strstr (err, "cannot write it"));
      after = tu_folder_sums (dir);
      g_assert_cmpstr (after, ==, before);
    }
}

/* new, then posing operations; read back by the core, and the bytes the
 * same as the core's edits give */
static void
test_posing (void)
{
  g_autofree char *anim = tmp ("new.anim");
  g_autofree char *posed = tmp ("posed.anim");
  g_autofree char *bvh = tmp ("new.bvh");
  g_autofree char *posed_bvh = tmp ("posed.bvh");
  g_autofree char *pose_path = g_build_filename (g_getenv ("SEQUIN_POSES"), "hand-fist-left.pose", NULL);
  g_autofree char *paste_arg = g_strdup_printf ("%s@0.5:flip", pose_path);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *assimp = g_find_program_in_path ("assimp");
  g_autoptr(SqClip) expect = NULL;
  g_autoptr(SqClip) got = NULL;
  g_autoptr(GBytes) pose_bytes = tu_read (pose_path);
  g_autoptr(SqJointPose) pose = sq_joint_pose_parse (g_bytes_get_data (pose_bytes, NULL),
                                                     g_bytes_get_size (pose_bytes), NULL);
  const double z90[4] = { G_SQRT2 / 2, 0, 0, G_SQRT2 / 2 }, pelvis[3] = { 0.1, 0, 0.05 };
  SqKeyRef move = { "mShoulderLeft", 1.0, 0 };
  SqEdit *edits[5];
  gssize j;
  double q[4];

  g_assert_cmpint (run (NULL, NULL, "new", "--world", "sl-bento", "--duration", "2", "--fps", "30", anim, NULL), ==, 0);
  g_assert_cmpint (run (&out, NULL, "validate", "--target", "sl", anim, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "OK for sl"));
  g_assert_cmpint (run (NULL, &err, "edit", anim, "-o", posed, "--set-rotation", "mShoulderLeft@1=0,0,90",
                        "--set-position", "mPelvis@0.5=0.1,0,0.05", "--insert-key", "mElbowLeft@0.5",
                        "--move-keys", "mShoulderLeft@1=1.5", "--paste-pose", paste_arg, NULL), ==, 0);
  /* read back: the values the operations give */
  {
    g_autoptr(GBytes) bytes = tu_read (posed);
    got = tu_load_ok (bytes);
  }
  j = sq_clip_find_joint (got, "mShoulderLeft");
  g_assert_cmpuint (got->joints[j].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 3);
  g_assert_cmpfloat_with_epsilon (sq_track_time (&got->joints[j].tracks[SQ_CHANNEL_ROTATION], 1), 1.5, 1e-4);
  sq_track_sample (&got->joints[j].tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, 1.5, q);
  for (guint c = 0; c < 4; c++)
    g_assert_cmpfloat_with_epsilon (q[c], z90[c], 1e-4);
  j = sq_clip_find_joint (got, "mPelvis");
  sq_track_sample (&got->joints[j].tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, 0.5, q);
  g_assert_cmpfloat_with_epsilon (q[0], 0.1, 1e-3);
  g_assert_cmpfloat_with_epsilon (q[2], 0.05, 1e-3);
  /* the left fist pasted flipped is on the right hand */
  j = sq_clip_find_joint (got, "mHandIndex2Right");
  sq_track_sample (&got->joints[j].tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, 0.5, q);
  {
    const SqPoseEntry *e = sq_joint_pose_lookup (pose, "mHandIndex2Left");
    g_assert_cmpfloat_with_epsilon (q[0], e->rotation[0], 1e-4);
    g_assert_cmpfloat_with_epsilon (q[1], -e->rotation[1], 1e-4);
  }

  /* the same bytes as the core's edits */
  {
    g_autoptr(GBytes) bytes = tu_read (anim);
    expect = tu_load_ok (bytes);
  }
  edits[0] = sq_edit_set_rotation_new ("mShoulderLeft", 1, z90);
  edits[1] = sq_edit_set_position_new ("mPelvis", 0.5, pelvis);
  edits[2] = sq_edit_insert_keys_new ((const char *[]) { "mElbowLeft", NULL }, 0.5);
  edits[3] = sq_edit_move_keys_new (&move, 1, 0.5);
  edits[4] = sq_edit_paste_pose_new (pose, 0.5, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      g_assert_true (sq_edit_apply (edits[i], expect, NULL));
      sq_edit_free (edits[i]);
    }
  {
    g_autoptr(GBytes) want = tu_save (expect, "sl-anim", NULL);
    g_autoptr(GBytes) have = tu_read (posed);
    g_assert_true (g_bytes_equal (want, have));
  }

  /* --paste-keys: copied keys (a pose file with times) pasted flipped at
   * 1 s: the same bytes as the editor's core edit */
  {
    static const char keys_text[] = "sequin-pose 1\nname Copied keys\nworld sl-anim\n"
                                    "time 0\nrotation 0.9659258262890683 0 0 0.25881904510252074 mShoulderLeft\n"
                                    "time 0.5\nrotation 0.8660254037844387 0 0 0.5 mShoulderLeft\n";
    g_autofree char *keys_path = tmp ("copied.pose");
    g_autofree char *keys_arg = NULL;
    g_autofree char *pasted = tmp ("pasted.anim");
    g_autoptr(SqPoseSequence) seq = sq_pose_sequence_parse (keys_text, strlen (keys_text), NULL);
    g_autoptr(GBytes) anim_bytes = tu_read (anim);
    g_autoptr(SqClip) core = tu_load_ok (anim_bytes);
    g_autoptr(SqEdit) paste = sq_edit_paste_keys_new (seq, 1.0, TRUE);
    g_autoptr(GBytes) want = NULL;
    g_autoptr(GBytes) have = NULL;

    g_assert_true (g_file_set_contents (keys_path, keys_text, -1, NULL));
    keys_arg = g_strdup_printf ("%s@1:flip", keys_path);
    g_assert_cmpint (run (NULL, NULL, "edit", anim, "-o", pasted, "--paste-keys", keys_arg, NULL), ==, 0);
    g_assert_true (sq_edit_apply (paste, core, NULL));
    want = tu_save (core, "sl-anim", NULL);
    have = tu_read (pasted);
    g_assert_true (g_bytes_equal (want, have));
    j = sq_clip_find_joint (core, "mShoulderRight");
    g_assert_cmpint (sq_track_find (&core->joints[j].tracks[SQ_CHANNEL_ROTATION], 1.5), >=, 0);
  }

  /* BVH: the frame keeps its line, with the angles typed in channel order */
  g_assert_cmpint (run (NULL, NULL, "new", "--world", "bvh", "--duration", "1", "--fps", "10", bvh, NULL), ==, 0);
  g_assert_cmpint (run (NULL, NULL, "edit", bvh, "-o", posed_bvh, "--set-rotation", "mElbowLeft@0.5=10,20,30", NULL), ==, 0);
  g_assert_true (file_has (posed_bvh, "Frames: 11\n"));
  g_assert_true (file_has (posed_bvh, " 10.000000 20.000000 30.000000 "));
  if (assimp != NULL)
    {
      const char *argv[] = { assimp, "info", posed_bvh, NULL };
      g_autofree char *info = NULL;
      int status = 0;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &info, NULL, &status, NULL));
      g_assert_nonnull (strstr (info, "Animation Channels: 26"));
    }

  /* refusals: the reason, exit 1 */
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "edit", bvh, "-o", posed_bvh, "--move-keys", "mHead@0.5=0.7", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "neighbour"));
  g_assert_cmpint (run (NULL, NULL, "new", "--world", "moon", anim, NULL), ==, 2);
  g_assert_cmpint (run (NULL, NULL, "edit", anim, "-o", posed, "--set-rotation", "mHead@1=0,0", NULL), ==, 2);
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("sequin-cli-XXXXXX", NULL);
  g_test_add_func ("/cli/usage", test_usage);
  g_test_add_func ("/cli/info-dump", test_info_dump);
  g_test_add_func ("/cli/convert", test_convert);
  g_test_add_func ("/cli/bad-input-leaves-output", test_bad_input_leaves_output);
  g_test_add_func ("/cli/edit-matches-core", test_edit_matches_core);
  g_test_add_func ("/cli/validate", test_validate);
  g_test_add_func ("/cli/sl", test_sl);
  g_test_add_func ("/cli/convert-map", test_convert_map);
  g_test_add_func ("/cli/convert-renames", test_convert_renames);
  g_test_add_func ("/cli/format-field-edits", test_format_field_edits);
  g_test_add_func ("/cli/motion-options", test_motion_options);
  g_test_add_func ("/cli/mirror-every-world", test_mirror_every_world);
  g_test_add_func ("/cli/diff", test_diff);
  g_test_add_func ("/cli/loss-over-limit", test_loss_over_limit);
  g_test_add_func ("/cli/batch", test_batch);
  g_test_add_func ("/cli/takes", test_takes);
  g_test_add_func ("/cli/diff-takes", test_diff_takes);
  g_test_add_func ("/cli/many-in-order", test_many_in_order);
  g_test_add_func ("/cli/help", test_help);
  g_test_add_func ("/cli/option-forms", test_option_forms);
  g_test_add_func ("/cli/sl-layers-reference", test_sl_layers_reference);

  g_test_add_func ("/cli/companions", test_companions);
  g_test_add_func ("/cli/companion-failed-write", test_companion_failed_write);

  g_test_add_func ("/cli/posing", test_posing);
  ret = g_test_run ();
  {
    remove_tree (tmpdir);
    g_free (tmpdir);
  }
  return ret;
}
