/* test-aw-validate.c: `validate --target aw` for DirectX (.x) animations
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The ActiveWorlds DX profile (formats.md 3.6, 4): the AW wiki's own example,
 * the corpus .x files (not made for ActiveWorlds), and one small file per
 * rule built here.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "test-utils.h"
#include "worlds/sq-aw-skeleton.h"

#define IDENTITY "1.000000,0.000000,0.000000,0.000000"

/* One limb's Animation with rotation keys at `ticks` (identity), in CRLF */
static void
add_limb (GString    *s,
          const char *name,
          const char *keys)
{
  g_string_append_printf (s, "  Animation {\r\n    {%s}\r\n    AnimationKey {\r\n      0;\r\n%s    }\r\n  }\r\n",
                          name, keys);
}

static const char two_keys[] =
  "      2;\r\n      0;4;" IDENTITY ";;,\r\n      30;4;" IDENTITY ";;;\r\n";

static GString *
dx_begin (guint ticks)
{
  GString *s = g_string_new ("xof 0303txt 0032\r\nAnimationSet Test {\r\n");

  g_string_append_printf (s, "  AnimTicksPerSecond {\r\n    %u;\r\n  }\r\n", ticks);
  return s;
}

static char *
dx_end (GString *s)
{
  g_string_append (s, "}\r\n");
  return g_string_free (s, FALSE);
}

/* A file AW accepts: pelvis and two more limbs, 30 ticks per second */
static char *
clean_file (void)
{
  GString *s = dx_begin (30);

  add_limb (s, "aw_pelvis", two_keys);
  add_limb (s, "aw_hip_l", two_keys);
  add_limb (s, "lfknee", two_keys);
  return dx_end (s);
}

static SqClip *
load_dx (const char *text)
{
  g_autoptr(GError) error = NULL;
  SqClip *clip = tu_load_text (text, "dx", &error);

  g_assert_no_error (error);
  g_assert_nonnull (clip);
  g_assert_true (sq_clip_check (clip, NULL));
  return clip;
}

static GPtrArray *
validate (const SqClip *clip)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *f = sq_validate (clip, "aw", &error);

  g_assert_no_error (error);
  for (guint i = 0; i < f->len; i++)
    {
      const SqFinding *x = f->pdata[i];
      g_test_message ("%d [%zd %d %zd] %s", x->severity, x->joint, x->channel, x->key, x->message);
    }
  return f;
}

/* The finding whose message holds `fragment`, or NULL */
static const SqFinding *
find (GPtrArray  *findings,
      const char *fragment)
{
  for (guint i = 0; i < findings->len; i++)
    if (strstr (((const SqFinding *) findings->pdata[i])->message, fragment) != NULL)
      return findings->pdata[i];
  return NULL;
}

static guint
count (GPtrArray  *findings,
       const char *fragment)
{
  guint n = 0;

  for (guint i = 0; i < findings->len; i++)
    n += strstr (((const SqFinding *) findings->pdata[i])->message, fragment) != NULL;
  return n;
}

static const SqFinding *
expect (GPtrArray  *findings,
        const char *fragment,
        SqSeverity  severity,
        gssize      joint,
        gssize      key)
{
  const SqFinding *f = find (findings, fragment);

  if (f == NULL)
    g_error ("no finding with “%s”", fragment);
  g_assert_cmpint (f->severity, ==, severity);
  g_assert_cmpint (f->joint, ==, joint);
  g_assert_cmpint (f->key, ==, key);
  return f;
}

static void
test_clean (void)
{
  g_autofree char *text = clean_file ();
  g_autoptr(SqClip) clip = load_dx (text);
  g_autoptr(GPtrArray) f = validate (clip);

  g_assert_false (sq_findings_have_errors (f));
  g_assert_cmpuint (f->len, ==, 0);
}

/* The example of the ActiveWorlds wiki page (tests/data/aw-wiki-example.x,
 * its source in tests/data/SOURCES.md) */
static char *
aw_example (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "aw-wiki-example.x", NULL);
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autofree char *example = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_auto(GStrv) lines = NULL;

  g_strchomp (example);
  /* the wiki's text has LF; ActiveWorlds wants CRLF */
  lines = g_strsplit (example, "\n", -1);
  return g_strjoinv ("\r\n", lines);
}

static void
test_aw_example (void)
{
  g_autofree char *text = aw_example ();
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GPtrArray) f = NULL;
  gssize wrist;

  clip = load_dx (text);
  f = validate (clip);
  g_assert_cmpuint (clip->n_joints, ==, 18);
  /* every limb name is known, the lines are fine, the ticks are 30 */
  g_assert_null (find (f, "not an ActiveWorlds limb"));
  g_assert_null (find (f, "line "));
  g_assert_null (find (f, "AnimTicksPerSecond"));
  g_assert_null (find (f, "pelvis"));
  /* the example's own flaw: the wrists start at tick 39 */
  wrist = sq_clip_find_joint (clip, "aw_wrist_l");
  g_assert_cmpint (wrist, >=, 0);
  expect (f, "“aw_wrist_l”: the first rotation key is at tick 39", SQ_SEVERITY_WARNING, wrist, 0);
  g_assert_cmpuint (count (f, "start at tick 0"), ==, 2);
}

static void
test_corpus (void)
{
  g_autoptr(GPtrArray) files = tu_corpus_files ("dx-anim");

  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GBytes) bytes = tu_read (files->pdata[i]);
      g_autoptr(SqClip) clip = tu_load_ok (bytes);
      g_autoptr(GPtrArray) f = validate (clip);
      const SqFinding *unknown = find (f, "is not an ActiveWorlds limb name");

      g_test_message ("%s: %u findings", (const char *) files->pdata[i], f->len);
      /* none of them is made for ActiveWorlds */
      g_assert_nonnull (unknown);
      g_assert_cmpint (unknown->joint, >=, 0);
      g_assert_true (sq_findings_have_errors (f));
      /* generic DirectX files have LF line ends: reported, at most 20 by line */
      g_assert_nonnull (find (f, "ends with LF alone"));
      g_assert_cmpuint (count (f, "ends with LF alone"), <=, 20);

      /* written by Sequin: CRLF, no line over 250 characters (the other
       * AnimationSets and top-level objects of the file come as they were
       * read: LF lines here) */
      {
        g_autoptr(GBytes) out = tu_save (clip, "dx", NULL);
        g_autoptr(SqClip) back = tu_load_ok (out);
        g_autoptr(GPtrArray) g = validate (back);
        gsize len;
        g_autofree char *d = tu_dx_own_text (clip, g_bytes_get_data (out, NULL), g_bytes_get_size (out), &len);
        gsize line_start = 0;

        for (gsize k = 0; k < len; k++)
          if (d[k] == '\n')
            {
              g_assert_true (k > 0 && d[k - 1] == '\r');
              g_assert_cmpuint (k - 1 - line_start, <=, 250);
              line_start = k + 1;
            }
          else
            g_assert_true (d[k] != '\r' || (k + 1 < len && d[k + 1] == '\n'));
        if (sq_props_get (clip->extra, "other_sets") == NULL && sq_props_get (clip->extra, "other_blocks") == NULL)
          g_assert_null (find (g, "line "));
      }
    }
}

static void
test_limbs (void)
{
  /* unknown names, a limb twice under two spellings, no pelvis */
  {
    GString *s = dx_begin (30);
    g_autofree char *text = NULL;
    g_autoptr(SqClip) clip = NULL;
    g_autoptr(GPtrArray) f = NULL;

    add_limb (s, "Hips", two_keys);
    add_limb (s, "aw_knee_l", two_keys);
    add_limb (s, "lfknee", two_keys);
    text = dx_end (s);
    clip = load_dx (text);
    f = validate (clip);
    expect (f, "“Hips” is not an ActiveWorlds limb", SQ_SEVERITY_WARNING, 0, -1);
    expect (f, "“lfknee” is the same limb", SQ_SEVERITY_WARNING, 2, -1);
    expect (f, "no pelvis", SQ_SEVERITY_WARNING, -1, -1);
  }

  /* 63 distinct limbs: a warning (62 by one page); 65: an error */
  for (guint want = 63; want <= 65; want += 2)
    {
      GString *s = dx_begin (30);
      g_autofree char *text = NULL;
      g_autoptr(SqClip) clip = NULL;
      g_autoptr(GPtrArray) f = NULL;
      guint n = 0;

      for (guint tag = 1; tag <= SQ_AW_MAX_TAG && n < want; tag++)
        {
          const char *name = sq_aw_dx_name (tag) ? sq_aw_dx_name (tag) : sq_aw_seq_name (tag);

          if (name != NULL)
            {
              add_limb (s, name, two_keys);
              n++;
            }
        }
      g_assert_cmpuint (n, ==, want);
      text = dx_end (s);
      clip = load_dx (text);
      f = validate (clip);
      g_assert_null (find (f, "not an ActiveWorlds limb"));
      if (want == 63)
        expect (f, "63 distinct limbs", SQ_SEVERITY_WARNING, -1, -1);
      else
        expect (f, "65 distinct limbs", SQ_SEVERITY_ERROR, -1, -1);
    }
}

static void
test_ticks_and_sets (void)
{
  static const guint ticks[] = { 1, 2, 200, 201 };

  for (guint i = 0; i < G_N_ELEMENTS (ticks); i++)
    {
      GString *s = dx_begin (ticks[i]);
      g_autofree char *text = NULL;
      g_autoptr(SqClip) clip = NULL;
      g_autoptr(GPtrArray) f = NULL;

      add_limb (s, "aw_pelvis", two_keys);
      text = dx_end (s);
      clip = load_dx (text);
      f = validate (clip);
      if (ticks[i] == 2 || ticks[i] == 200)
        g_assert_cmpuint (f->len, ==, 0);
      else
        expect (f, "AnimTicksPerSecond is", SQ_SEVERITY_ERROR, -1, -1);
    }

  /* a second AnimationSet; an older header */
  {
    GString *s = dx_begin (30);
    g_autofree char *text = NULL;
    g_autofree char *old = NULL;
    g_autoptr(SqClip) clip = NULL, clip2 = NULL;
    g_autoptr(GPtrArray) f = NULL, f2 = NULL;

    add_limb (s, "aw_pelvis", two_keys);
    g_string_append (s, "}\r\nAnimationSet Second {\r\n");
    add_limb (s, "aw_pelvis", two_keys);
    text = dx_end (s);
    clip = load_dx (text);
    f = validate (clip);
    expect (f, "2 AnimationSets", SQ_SEVERITY_WARNING, -1, -1);

    old = clean_file ();
    memcpy (old, "xof 0302txt 0032", 16);
    clip2 = load_dx (old);
    f2 = validate (clip2);
    expect (f2, "the first line is “xof 0302txt 0032”", SQ_SEVERITY_ERROR, -1, -1);
  }
}

static void
test_keys (void)
{
  GString *s = dx_begin (30);
  g_autofree char *text = NULL;
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GPtrArray) f = NULL;
  const SqFinding *x;

  /* pelvis: a position track (fine), a late start */
  g_string_append (s, "  Animation {\r\n    {aw_pelvis}\r\n"
                      "    AnimationKey {\r\n      2;\r\n      2;\r\n"
                      "      0;3;0.000000,1.000000,0.000000;;,\r\n      30;3;0.000000,1.000000,0.000000;;;\r\n    }\r\n"
                      "    AnimationKey {\r\n      0;\r\n      2;\r\n"
                      "      5;4;" IDENTITY ";;,\r\n      30;4;" IDENTITY ";;;\r\n    }\r\n  }\r\n");
  /* hip: scale keys, a position track, a turn of 240° between keys 1 and 2 */
  g_string_append (s, "  Animation {\r\n    {aw_hip_l}\r\n"
                      "    AnimationKey {\r\n      1;\r\n      1;\r\n      0;3;1.000000,1.000000,1.000000;;;\r\n    }\r\n"
                      "    AnimationKey {\r\n      2;\r\n      1;\r\n      0;3;0.000000,0.100000,0.000000;;;\r\n    }\r\n"
                      "    AnimationKey {\r\n      0;\r\n      3;\r\n"
                      "      0;4;" IDENTITY ";;,\r\n      10;4;" IDENTITY ";;,\r\n"
                      "      20;4;-0.500000,0.500000,0.500000,0.500000;;;\r\n    }\r\n  }\r\n");
  text = dx_end (s);
  clip = load_dx (text);
  f = validate (clip);

  x = expect (f, "“aw_pelvis”: the first rotation key is at tick 5", SQ_SEVERITY_WARNING, 0, 0);
  g_assert_cmpint (x->channel, ==, SQ_CHANNEL_ROTATION);
  g_assert_null (find (f, "“aw_pelvis” has position keys"));
  x = expect (f, "“aw_hip_l”: 1 scale keys", SQ_SEVERITY_WARNING, 1, -1);
  g_assert_cmpint (x->channel, ==, SQ_CHANNEL_SCALE);
  x = expect (f, "“aw_hip_l” has position keys", SQ_SEVERITY_INFO, 1, -1);
  g_assert_cmpint (x->channel, ==, SQ_CHANNEL_TRANSLATION);
  x = expect (f, "“aw_hip_l” rotation keys 2 and 3 (ticks 10 and 20) are 240.0° apart", SQ_SEVERITY_WARNING, 1, 2);
  g_assert_cmpint (x->channel, ==, SQ_CHANNEL_ROTATION);
  g_assert_cmpuint (count (f, "apart"), ==, 1);
}

static void
test_lines (void)
{
  g_autofree char *clean = clean_file ();
  g_autoptr(GString) lf = g_string_new (NULL);
  g_autoptr(GString) longline = g_string_new (NULL);
  g_autoptr(SqClip) a = NULL, b = NULL;
  g_autoptr(GPtrArray) fa = NULL, fb = NULL;
  g_auto(GStrv) lines = g_strsplit (clean, "\r\n", -1);
  g_autofree char *comment = g_strnfill (260, 'x');
  guint n_lines = g_strv_length (lines) - 1;

  /* LF line ends: line 1 onwards, 20 by number, then a count */
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    g_string_append_printf (lf, "%s\n", lines[i]);
  a = load_dx (lf->str);
  fa = validate (a);
  expect (fa, "line 1 ends with LF alone", SQ_SEVERITY_ERROR, -1, -1);
  expect (fa, "line 20 ends with LF alone", SQ_SEVERITY_ERROR, -1, -1);
  g_assert_null (find (fa, "line 21 ends"));
  g_assert_cmpuint (n_lines, >, 20);
  {
    g_autofree char *more = g_strdup_printf ("%u more lines do not end with CRLF", n_lines - 20);
    expect (fa, more, SQ_SEVERITY_ERROR, -1, -1);
  }

  /* a 263-character comment line as line 2 */
  g_string_append_printf (longline, "%s\r\n// %s\r\n", lines[0], comment);
  for (guint i = 1; lines[i] != NULL; i++)
    g_string_append_printf (longline, "%s%s", lines[i], lines[i + 1] != NULL ? "\r\n" : "");
  b = load_dx (longline->str);
  fb = validate (b);
  expect (fb, "line 2 is 263 characters long", SQ_SEVERITY_ERROR, -1, -1);
  g_assert_cmpuint (count (fb, "line "), ==, 1);

  /* once edited, the file is written anew: its old lines do not count */
  {
    g_autoptr(SqEdit) e = sq_edit_dx_set_name_new ("Edited");
    g_autoptr(GPtrArray) fc = NULL;

    g_assert_true (sq_edit_apply (e, b, NULL));
    fc = validate (b);
    g_assert_null (find (fc, "line "));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/aw-validate/clean", test_clean);
  g_test_add_func ("/aw-validate/aw-example", test_aw_example);
  g_test_add_func ("/aw-validate/corpus", test_corpus);
  g_test_add_func ("/aw-validate/limbs", test_limbs);
  g_test_add_func ("/aw-validate/ticks-and-sets", test_ticks_and_sets);
  g_test_add_func ("/aw-validate/keys", test_keys);
  g_test_add_func ("/aw-validate/lines", test_lines);
  return g_test_run ();
}
