/* test-seq-text.c: ActiveWorlds text SEQ (AWSQ)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "test-utils.h"

static void
test_spec_example (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = tu_load_text (tu_spec_example, NULL, &error);
  const SqTrack *rot, *pos;
  double half = 349.1282 * G_PI / 360.0;
  double len = sqrt (0.005932 * 0.005932 + 0.999982 * 0.999982);

  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, NULL));
  g_assert_cmpstr (clip->format->id, ==, "seq-text");
  g_assert_cmpuint (clip->n_joints, ==, 7);
  g_assert_cmpuint (clip->warnings->len, ==, 0);
  g_assert_cmpfloat (clip->duration, ==, 4.633);
  g_assert_cmpstr (clip->joints[3].name, ==, "lfankle");

  rot = &clip->joints[0].tracks[SQ_CHANNEL_ROTATION];
  pos = &clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION];
  g_assert_cmpuint (rot->n_keys, ==, 4);
  g_assert_cmpfloat (sq_track_time (rot, 2), ==, 3.133);
  g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 2).v[0], cos (half), 1e-15);
  g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 2).v[1], 0.005932 / len * sin (half), 1e-15);
  g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 2).v[3], -0.999982 / len * sin (half), 1e-15);
  g_assert_cmpfloat (sq_track_key (rot, 0).v[0], ==, 1.0);
  g_assert_cmpfloat (sq_track_key (pos, 2).v[0], ==, 0.0269);
  g_assert_cmpfloat (sq_track_key (pos, 2).v[1], ==, -0.0008);
  g_assert_cmpfloat (sq_track_key (pos, 2).v[2], ==, -0.0086);
  g_assert_cmpuint (clip->joints[0].tracks[SQ_CHANNEL_SCALE].n_keys, ==, 0);
}

static void
test_write_exact (void)
{
  /* the spec's own layout (CRLF, spaces, its decimals) comes back byte for
   * byte from the writer, not only from the unedited-source shortcut */
  g_autoptr(SqClip) clip = tu_load_text (tu_spec_example, NULL, NULL);
  g_autoptr(GBytes) out = tu_save (clip, "seq-text", NULL);
  gsize len;
  const char *data = g_bytes_get_data (out, &len);

  g_assert_cmpmem (data, len, tu_spec_example, strlen (tu_spec_example));
}

static void
test_lenient_syntax (void)
{
  const char *text =
    "\xef\xbb\xbf" "AWSQ  Version = 1,Limbs=2\tDuration=1000\n"
    "# a comment\n"
    "\n"
    "// another one\n"
    "pelvis   frames = 2\r"
    "0,0,0,1,0,\t0.5,0,0\r"
    "   \r"
    "1000\t0\t1\t0\t90\t0.5\t0\t0.25\r"
    "rthip frames=2\r\n"
    "  # indented comment\r\n"
    "1000 1 0 0 45 0 0 0 2 2 2\r\n"
    "0 1 0 0 0 0 0 0 1 1 1";     /* unsorted, no final line end */
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = tu_load_text (text, NULL, &error);
  const SqTrack *rot;

  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, NULL));
  g_assert_cmpuint (clip->n_joints, ==, 2);
  g_assert_cmpstr (clip->joints[0].name, ==, "pelvis");
  g_assert_cmpstr (clip->joints[1].name, ==, "rthip");
  rot = &clip->joints[1].tracks[SQ_CHANNEL_ROTATION];
  g_assert_cmpfloat (sq_track_time (rot, 0), ==, 0.0);     /* sorted */
  g_assert_cmpfloat (sq_track_time (rot, 1), ==, 1.0);
  g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 1).v[0], cos (G_PI / 8), 1e-15);
  g_assert_cmpuint (clip->joints[1].tracks[SQ_CHANNEL_SCALE].n_keys, ==, 2);
  g_assert_cmpfloat (sq_track_key (&clip->joints[1].tracks[SQ_CHANNEL_SCALE], 1).v[2], ==, 2.0);
  g_assert_cmpfloat (sq_track_key (&clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION], 1).v[2], ==, 0.25);
  g_assert_cmpuint (clip->warnings->len, ==, 1);       /* the unsorted limb */

  /* unedited: saved back exactly as it was */
  {
    g_autoptr(GBytes) same = sq_save_bytes (clip, clip->format, NULL, NULL, NULL);
    g_assert_cmpmem (g_bytes_get_data (same, NULL), g_bytes_get_size (same), text, strlen (text));
  }
  /* written canonically: CRLF, spaces, and reads back to the same clip */
  {
    g_autoptr(GBytes) out = tu_save (clip, "seq-text", NULL);
    g_autoptr(SqClip) again = tu_load_ok (out);
    g_autofree char *s = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));

    g_assert_true (g_str_has_prefix (s, "\xef\xbb\xbf" "AWSQ Version=1 Limbs=2 Duration=1000\r\n"));
    g_assert_null (strchr (s, '\t'));
    g_assert_null (strchr (s, ','));
    for (const char *p = strchr (s, '\n'); p != NULL; p = strchr (p + 1, '\n'))
      g_assert_true (p[-1] == '\r');
    g_assert_true (sq_clip_equal (clip, again));
  }
}

static void
test_rules_reported (void)
{
  const char *text =
    "AWSQ Version=1 Limbs=3 Duration=500\r\n"
    "pelvis frames=1\r\n"
    "0 0 0 1 0 0 0 0\r\n"
    "back frames=2\r\n"
    "100 0 0 1 0 0 0 0\r\n"
    "400 0 0 1 0 0 0 0\r\n"
    "neck frames=2\r\n"
    "0 0 0 1 0 0 0 0\r\n"
    "900 0 0 1 0 0 0 0\r\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = tu_load_text (text, NULL, &error);
  g_autoptr(GPtrArray) findings = NULL;
  guint errors = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (clip->warnings->len, ==, 3);
  findings = sq_validate (clip, "aw", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < findings->len; i++)
    if (((SqFinding *) findings->pdata[i])->severity == SQ_SEVERITY_ERROR)
      errors++;
  g_assert_cmpuint (errors, ==, 4);   /* one key; one key only at 0; not at 0; after the end */
  g_assert_true (sq_findings_have_errors (findings));

  /* the writer repairs what it can and says so */
  {
    g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(GBytes) out = tu_save (clip, "seq-text", losses);
    g_autoptr(SqClip) again = tu_load_ok (out);

    g_assert_cmpuint (again->warnings->len, ==, 0);
    g_assert_true (tu_has_line (losses, "a key at 0 ms is added"));
    g_assert_true (tu_has_line (losses, "holding the pose"));
    g_assert_true (tu_has_line (losses, "extended"));
  }
}

typedef struct
{
  const char *text;
  SqErrorCode code;
  const char *where;
} BadCase;

static const BadCase bad_cases[] = {
  { "", SQ_ERROR_BAD_MAGIC, "line 1, column 1" },
  { "AWSX Version=1 Limbs=1 Duration=1\r\n", SQ_ERROR_BAD_MAGIC, "line 1, column 1" },
  { "AWSQ Version=1 Duration=100\r\n", SQ_ERROR_SYNTAX, "line 1" },
  { "AWSQ Version=1 Limbs=x Duration=100\r\n", SQ_ERROR_SYNTAX, "line 1, column 16" },
  { "AWSQ Version=1 Limbs=4000000000 Duration=100\r\n", SQ_ERROR_SYNTAX, "line 1" },
  { "AWSQ Version=1 Limbs=900000 Duration=100\r\n", SQ_ERROR_LIMIT_EXCEEDED, "line 1" },
  { "AWSQ Version=1 Limbs=2 Duration=100\r\np frames=2\r\n0 0 0 1 0 0 0 0\r\n100 0 0 1 0 0 0 0\r\n", SQ_ERROR_TRUNCATED, "line 5" },
  { "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=2\r\n0 0 0 1 0 0 0 0\r\n100 0 0 1 0 0 0 0\r\nq frames=2\r\n", SQ_ERROR_SYNTAX, "line 5" },
  { "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=3\r\n0 0 0 1 0 0 0 0\r\n100 0 0 1 0 0 0 0\r\n", SQ_ERROR_TRUNCATED, "line 5" },
  { "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=2\r\n0 0 0 1 0 0 0 0\r\n100 0 0 1 zero 0 0 0\r\n", SQ_ERROR_SYNTAX, "line 4, column 11" },
  { "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=2\r\n0 0 0 1 0 0 0\r\n", SQ_ERROR_SYNTAX, "line 3" },
  { "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=2\r\n0.5 0 0 1 0 0 0 0\r\n", SQ_ERROR_SYNTAX, "line 3, column 1" },
  { "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=2\r\n0 0 0 1 0 0 0 0\r\n0 0 0 1 0 0 0 0\r\n", SQ_ERROR_BAD_VALUE, "line 2" },
  { "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=0\r\n", SQ_ERROR_BAD_VALUE, "line 2" },
  { "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=99999999\r\n0 0 0 1 0 0 0 0\r\n", SQ_ERROR_LIMIT_EXCEEDED, "line 2" },
  { "AWSQ Version=1 Limbs=1 Duration=100\r\np\r\n", SQ_ERROR_SYNTAX, "line 2" },
  { "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=1\r\n0 nan 0 1 0 0 0 0\r\n", SQ_ERROR_SYNTAX, "line 3, column 3" },
  { "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=1\r\n0 1e999 0 1 0 0 0 0\r\n", SQ_ERROR_SYNTAX, "line 3, column 3" },
};

static void
test_errors (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (bad_cases[i].text, strlen (bad_cases[i].text));
      g_autoptr(GError) error = NULL;
      g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, sq_format_by_id ("seq-text"), NULL, &error);

      g_test_message ("case %u: %s", i, error ? error->message : "(no error)");
      g_assert_null (clip);
      g_assert_error (error, SQ_ERROR, (int) bad_cases[i].code);
      g_assert_nonnull (strstr (error->message, bad_cases[i].where));
    }
}

static void
test_binary_to_text (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "wave.seq", NULL);
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) bin = tu_load_ok (bytes);
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) text = tu_save (bin, "seq-text", losses);
  g_autoptr(SqClip) txt = tu_load_ok (text);
  g_autoptr(GPtrArray) findings = sq_validate (txt, "aw", NULL);
  g_autoptr(GPtrArray) back_losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) back = tu_save (txt, "seq-binary", back_losses);
  g_autoptr(SqClip) bin2 = tu_load_ok (back);

  /* what text SEQ has no place for */
  g_assert_true (tu_has_line (losses, "model name"));
  g_assert_true (tu_has_line (losses, "7F7F7F79"));
  g_assert_true (tu_has_line (losses, "block 4"));
  g_assert_false (tu_has_line (losses, "rounded"));   /* frames land on whole ms and come back */

  /* the text follows the spec's rules */
  g_assert_cmpuint (txt->warnings->len, ==, 0);
  g_assert_false (sq_findings_have_errors (findings));
  g_assert_cmpuint (txt->n_joints, ==, bin->n_joints);
  for (gsize j = 0; j < bin->n_joints; j++)
    {
      const SqTrack *a = &bin->joints[j].tracks[SQ_CHANNEL_ROTATION];
      const SqTrack *b = &txt->joints[j].tracks[SQ_CHANNEL_ROTATION];
      const SqTrack *c = &bin2->joints[j].tracks[SQ_CHANNEL_ROTATION];

      g_assert_cmpstr (bin->joints[j].name, ==, txt->joints[j].name);
      g_assert_cmpuint (a->n_keys, ==, b->n_keys);
      g_assert_cmpuint (a->n_keys, ==, c->n_keys);
      for (gsize k = 0; k < a->n_keys; k++)
        {
          /* frame n at (n - 1) * 1000 / 30 ms, rounded to whole ms */
          g_assert_cmpfloat (sq_track_time (b, k) * 1000, ==, floor (sq_track_time (a, k) * 1000 + 0.5));
          g_assert_cmpfloat (sq_track_time (c, k), ==, sq_track_time (a, k));
          for (guint v = 0; v < 4; v++)
            {
              g_assert_cmpfloat_with_epsilon (sq_track_key (b, k).v[v], sq_track_key (a, k).v[v], 1e-7);
              g_assert_cmpfloat_with_epsilon (sq_track_key (c, k).v[v], sq_track_key (a, k).v[v], 1e-7);
            }
        }
    }
  /* the root's locations travel too */
  g_assert_cmpuint (txt->joints[0].tracks[SQ_CHANNEL_TRANSLATION].n_keys, >=, 3);
}

static void
test_text_to_binary_losses (void)
{
  const char *text =
    "AWSQ Version=1 Limbs=2 Duration=1000\r\n"
    "pelvis frames=3\r\n"
    "0 0 0 1 0 0 0 0\r\n"
    "10 0 0 1 5 0 0 0\r\n"
    "1000 0 0 1 10 1 2 3\r\n"
    "back frames=2\r\n"
    "0 0 0 1 0 0.5 0 0 1 1 1\r\n"
    "990 0 0 1 0 0.5 0 0 2 2 2\r\n";
  g_autoptr(SqClip) clip = tu_load_text (text, NULL, NULL);
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) out = tu_save (clip, "seq-binary", losses);
  g_autoptr(SqClip) bin = tu_load_ok (out);

  for (guint i = 0; i < losses->len; i++)
    g_test_message ("loss: %s", (char *) losses->pdata[i]);
  g_assert_true (tu_has_line (losses, "“back”: 2 translation keys dropped"));
  g_assert_true (tu_has_line (losses, "“back”: 2 scale keys dropped"));
  g_assert_true (tu_has_line (losses, "rounded to the nearest 1/30 s"));
  g_assert_true (tu_has_line (losses, "fall on the same step"));
  g_assert_cmpuint (bin->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 2);
  g_assert_cmpuint (bin->joints[0].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 2);
  g_assert_cmpfloat (sq_track_key (&bin->joints[0].tracks[SQ_CHANNEL_TRANSLATION], 1).v[2], ==, 3.0);
  g_assert_cmpuint (sq_clip_get_frame_count (bin), ==, 31);
}

/* Key lines long enough for the reader's straight path (numbers read in
 * place, no line found first), in every shape it takes and beside those it
 * leaves to the line by line reading: each key has the values strtod gives,
 * and an error far into the file keeps its line and column */
static void
test_fast_lines (void)
{
  static const char *const seps[] = { " ", "\t", ", ", " ;", ",\t" };
  static const char *const ends[] = { "\r\n", "\n", "\r", " \r\n", "\t\n" };
  GRand *rand = g_rand_new_with_seed (77);
  GString *text = g_string_new ("AWSQ Version=1 Limbs=1 Duration=100000\n");
  const guint n = 400, bad_line = 3 + 300;     /* header, limb line, then key i on line 3 + i */
  double want[400][8];
  gsize bad_at = 0;

  g_string_append (text, "pelvis frames=400\n");
  for (guint i = 0; i < n; i++)
    {
      const char *sep = seps[i % G_N_ELEMENTS (seps)];

      if (i == 100)
        g_string_append (text, "# a comment between keys\n\n   \n");
      if (i % 7 == 3)
        g_string_append (text, "  ");    /* separators before the time */
      g_string_append_printf (text, "%s%u", i % 11 == 5 ? "+" : "", i * 10);
      want[i][0] = i * 10;
      for (guint c = 1; c < 8; c++)
        {
          double v = g_rand_double_range (rand, -400, 400);
          char num[48];

          switch ((i + c) % 6)
            {
            case 0: g_snprintf (num, sizeof num, "%.9g", v); break;
            case 1: g_snprintf (num, sizeof num, "%.17g", v / 1000); break;
            case 2: g_snprintf (num, sizeof num, "%.3e", v); break;
            case 3: g_snprintf (num, sizeof num, "%d", (int) v); break;
            case 4: g_snprintf (num, sizeof num, "%s%.6f", v >= 0 ? "+" : "", v); break;
            default: g_snprintf (num, sizeof num, "%.19f", v / 400); break;
            }
          want[i][c] = g_ascii_strtod (num, NULL);
          g_string_append (text, sep);
          if (i == 300 && c == 5)
            bad_at = text->len;
          g_string_append (text, num);
        }
      g_string_append (text, ends[i % G_N_ELEMENTS (ends)]);
    }
  g_rand_free (rand);

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(SqClip) clip = tu_load_text (text->str, "seq-text", &error);
    const SqTrack *rot, *pos;

    g_assert_no_error (error);
    rot = &clip->joints[0].tracks[SQ_CHANNEL_ROTATION];
    pos = &clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION];
    /* read as the lines themselves (a packed track), unpacked with the
     * axis-angles the lines give */
    g_assert_true (sq_track_is_packed (rot));
    tu_unpack (clip);
    g_assert_cmpuint (rot->n_keys, ==, n);
    g_assert_cmpuint (pos->n_keys, ==, n);
    for (guint i = 0; i < n; i++)
      {
        double q[4];

        g_assert_cmpfloat (sq_track_time (rot, i), ==, want[i][0] / 1000.0);
        for (guint c = 0; c < 4; c++)
          g_assert_true (memcmp (&rot->alt[i * 4 + c], &want[i][1 + c], sizeof (double)) == 0);
        sq_axis_angle_to_quat (&rot->alt[i * 4], q);
        g_assert_true (memcmp (q, sq_track_key (rot, i).v, sizeof q) == 0);
        for (guint c = 0; c < 3; c++)
          g_assert_true (memcmp (&sq_track_key (pos, i).v[c], &want[i][5 + c], sizeof (double)) == 0);
      }
  }

  /* a field that is no number on line 303: its line and column */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(SqClip) clip = NULL;
    g_autofree char *where = NULL;
    gsize col;
    const char *ls;

    g_string_insert (text, bad_at + 1, "x");
    for (ls = text->str + bad_at; ls > text->str && ls[-1] != '\n' && ls[-1] != '\r'; ls--)
      ;
    col = text->str + bad_at - ls + 1;
    while (text->str[col - 1 + (ls - text->str)] == ' ' || text->str[col - 1 + (ls - text->str)] == '\t'
           || text->str[col - 1 + (ls - text->str)] == ',' || text->str[col - 1 + (ls - text->str)] == ';')
      col++;
    clip = tu_load_text (text->str, "seq-text", &error);
    g_assert_null (clip);
    g_assert_error (error, SQ_ERROR, SQ_ERROR_SYNTAX);
    where = g_strdup_printf ("line %u, column %zu", bad_line + 3, col);   /* + the comment and two blank lines */
    g_test_message ("%s (expected %s)", error->message, where);
    g_assert_nonnull (strstr (error->message, where));
  }
  g_string_free (text, TRUE);
}

/* A NUL byte anywhere is the error, with its offset, before any other:
 * the reader looks for it only where no key line fails on it */
static void
test_nul_bytes (void)
{
  static const char *const texts[] = {
    "AWSQ Version=1 Limbs=1 Duration=100 @\r\np frames=2\r\n0 0 0 1 0 0 0 0\r\n100 0 0 1 0 0 0 0\r\n",
    "AWSQ Version=1 Limbs=1 Duration=100\r\n# @\r\np frames=2\r\n0 0 0 1 0 0 0 0\r\n100 0 0 1 0 0 0 0\r\n",
    "AWSQ Version=1 Limbs=1 Duration=100\r\np@q frames=2\r\n0 0 0 1 0 0 0 0\r\n100 0 0 1 0 0 0 0\r\n",
    "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=2\r\n0 0 0 1 0 0 0 0@\r\n100 0 0 1 0 0 0 0\r\n",
    "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=2\r\n0 0 0 1 0 0 0 0\r\n// @\r\n100 0 0 1 0 0 0 0\r\n",
    "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=2\r\n0 0 0 1 0 0 0 0\r\n100 0 0 1 0 0 0 0\r\n# end @",
    "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=2\r\n0 0 0 1 0 0 0 0\r\n100 0 0 1 0 0 0 0\r\n @ \r\n",
    "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=2\r\n0 x 0 1 0 0 0 0\r\n100 0 0 1 0 0 0 0\r\n# @",
    "\357\273\277AWSQ Version=1 Limbs=1 Duration=100\r\np frames=2\r\n0 0 0 1 0 0 0 0\r\n100 0 0 1 0 0 0 0\r\n#@",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autofree char *text = g_strdup (texts[i]);
      char *at = strchr (text, '@');
      gsize offset = at - text - (g_str_has_prefix (text, "\xef\xbb\xbf") ? 3 : 0);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(SqClip) clip = NULL;
      g_autofree char *where = g_strdup_printf ("(%zu)", offset);

      /* the same text without the NUL reads (but for the one in error) */
      *at = ' ';
      bytes = g_bytes_new (text, strlen (text));
      clip = sq_load_bytes (bytes, NULL, sq_format_by_id ("seq-text"), NULL, &error);
      g_test_message ("case %u without the NUL: %s", i, error != NULL ? error->message : "(read)");
      g_assert_true ((clip != NULL) == (strstr (text, " x ") == NULL));
      g_clear_pointer (&clip, sq_clip_free);
      g_clear_error (&error);
      g_bytes_unref (bytes);

      *at = '\0';
      bytes = g_bytes_new (text, strlen (texts[i]));
      clip = sq_load_bytes (bytes, NULL, sq_format_by_id ("seq-text"), NULL, &error);
      g_test_message ("case %u: %s", i, error != NULL ? error->message : "(no error)");
      g_assert_null (clip);
      g_assert_error (error, SQ_ERROR, SQ_ERROR_SYNTAX);
      g_assert_nonnull (strstr (error->message, "NUL"));
      g_assert_nonnull (strstr (error->message, where));
    }
}

/* A frame count the keys do not reach, large enough for the reader to make
 * pages present ahead: the file ends short of keys, where it ends */
static void
test_frames_beyond_keys (void)
{
  GString *text = g_string_new ("AWSQ Version=1 Limbs=1 Duration=1000\r\np frames=9000\r\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = NULL;

  for (guint k = 0; k < 3; k++)
    g_string_append_printf (text, "%u 0 0 1 0 0 0 0\r\n", k * 33);
  g_string_append (text, "# ");
  for (guint i = 0; i < 20000; i++)
    g_string_append_c (text, 'x');
  g_string_append (text, "\r\n");
  clip = tu_load_text (text->str, "seq-text", &error);
  g_assert_null (clip);
  g_assert_error (error, SQ_ERROR, SQ_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, "line 7, column 1"));
  g_string_free (text, TRUE);
}

/* Counts the keys do not match are said as such, where they stand (issue 17):
 * a count beyond 64 bits, and a count above the key lines before the next
 * limb; and an empty file, in every format, is said to be empty */
static void
test_count_messages (void)
{
  struct { const char *text; SqErrorCode code; const char *where, *what; } cases[] = {
    { "AWSQ Version=1 Limbs=1 Duration=100\r\np frames=99999999999999999999\r\n0 0 0 1 0 0 0 0\r\n",
      SQ_ERROR_LIMIT_EXCEEDED, "line 2, column 10", "frame count of limb “p” is too large" },
    { "AWSQ Version=2 Limbs=2 Duration=100\r\np frames=3\r\n0 0 0 1 0 0 0 0\r\n100 0 0 1 0 0 0 0\r\n"
      "q frames=2\r\n0 0 0 1 0 0 0 0\r\n100 0 0 1 0 0 0 0\r\n",
      SQ_ERROR_SYNTAX, "line 5, column 1", "limb “p” has 2 key line(s), fewer than the frames=3" },
  };
  const char *formats[] = { "seq-binary", "seq-text", "sl-anim", "bvh", "dx" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (cases[i].text, strlen (cases[i].text));
      g_autoptr(GError) error = NULL;
      g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, sq_format_by_id ("seq-text"), NULL, &error);

      g_assert_null (clip);
      g_assert_error (error, SQ_ERROR, (int) cases[i].code);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, cases[i].where));
      g_assert_nonnull (strstr (error->message, cases[i].what));
    }
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
      g_autoptr(GError) error = NULL;
      g_autoptr(SqClip) clip = sq_load_bytes (empty, "empty.seq", sq_format_by_id (formats[i]), NULL, &error);

      g_assert_null (clip);
      g_assert_nonnull (error);
      g_test_message ("%s: %s", formats[i], error->message);
      g_assert_nonnull (strstr (error->message, "the file is empty (0 bytes)"));
      g_assert_true (strstr (error->message, "offset 0x0") != NULL || strstr (error->message, "line 1, column 1") != NULL);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/seq-text/spec-example", test_spec_example);
  g_test_add_func ("/seq-text/write-exact", test_write_exact);
  g_test_add_func ("/seq-text/lenient-syntax", test_lenient_syntax);
  g_test_add_func ("/seq-text/rules-reported", test_rules_reported);
  g_test_add_func ("/seq-text/errors", test_errors);
  g_test_add_func ("/seq-text/binary-to-text", test_binary_to_text);
  g_test_add_func ("/seq-text/text-to-binary-losses", test_text_to_binary_losses);
  g_test_add_func ("/seq-text/fast-lines", test_fast_lines);
  g_test_add_func ("/seq-text/nul-bytes", test_nul_bytes);
  g_test_add_func ("/seq-text/frames-beyond-keys", test_frames_beyond_keys);
  g_test_add_func ("/seq-text/count-messages", test_count_messages);
  return g_test_run ();
}
