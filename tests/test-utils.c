/* test-utils.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "test-utils.h"

void
tu_be32 (GByteArray *b,
         guint32     v)
{
  guint8 x[4] = { v >> 24, v >> 16, v >> 8, v };
  g_byte_array_append (b, x, 4);
}

void
tu_le16 (GByteArray *b,
         guint       v)
{
  guint8 x[2] = { v & 0xff, (v >> 8) & 0xff };
  g_byte_array_append (b, x, 2);
}

void
tu_le32 (GByteArray *b,
         guint32     v)
{
  guint8 x[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };
  g_byte_array_append (b, x, 4);
}

void
tu_be16 (GByteArray *b,
         guint16     v)
{
  guint8 x[2] = { v >> 8, v };
  g_byte_array_append (b, x, 2);
}

void
tu_le_f32 (GByteArray *b,
           float       v)
{
  guint32 bits;
  memcpy (&bits, &v, 4);
  tu_le32 (b, bits);
}

void
tu_f32 (GByteArray *b,
        float       v)
{
  guint32 bits;
  memcpy (&bits, &v, 4);
  tu_be32 (b, bits);
}

void
tu_name (GByteArray *b,
         const char *latin1)
{
  gsize n = strlen (latin1) + 1;
  tu_be16 (b, (guint16) n);
  g_byte_array_append (b, (const guint8 *) latin1, n);
}

GByteArray *
tu_seq_header (guint16 frames,
               guint32 n_joints)
{
  GByteArray *b = g_byte_array_new ();

  tu_be32 (b, 0x7f7f7f79);
  tu_be16 (b, frames);
  tu_be32 (b, n_joints);
  tu_name (b, "m");
  tu_name (b, "pelvis");
  return b;
}

void
tu_seq_joint (GByteArray *b,
              const char *name,
              guint32     n)
{
  tu_name (b, name);
  tu_be32 (b, 16);
  tu_be32 (b, n);
  for (guint32 k = 0; k < n; k++)
    {
      tu_be32 (b, k + 1);
      tu_f32 (b, 1); tu_f32 (b, 0); tu_f32 (b, 0); tu_f32 (b, 0);
    }
}

/* The real files the tests read: tests/data/corpus in the source tree (or
 * SEQUIN_CORPUS). A missing folder or file fails the running test with a
 * message naming it; it never skips. */
const char *
tu_corpus_dir (void)
{
  static char *dir;

  if (dir == NULL)
    {
      const char *env = g_getenv ("SEQUIN_CORPUS");
      dir = env != NULL ? g_strdup (env) : g_test_build_filename (G_TEST_DIST, "data", "corpus", NULL);
    }
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_message ("missing test data folder %s", dir);
      g_test_fail_printf ("missing test data folder %s", dir);
    }
  return dir;
}

char *
tu_corpus_path (const char *subdir,
                const char *name)
{
  char *path = g_build_filename (tu_corpus_dir (), subdir, name, NULL);

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_test_message ("missing test input %s", path);
      g_test_fail_printf ("missing test input %s", path);
    }
  return path;
}

/* g_ptr_array_sort passes pointers to the elements */
static gint
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

GPtrArray *
tu_corpus_files (const char *subdir)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *path = g_build_filename (tu_corpus_dir (), subdir, NULL);
  GDir *dir;
  const char *name;

  if ((dir = g_dir_open (path, 0, NULL)) != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        g_ptr_array_add (files, g_build_filename (path, name, NULL));
      g_dir_close (dir);
    }
  if (files->len == 0)
    {
      g_test_message ("no test inputs in %s", path);
      g_test_fail_printf ("no test inputs in %s", path);
    }
  g_ptr_array_sort (files, compare_paths);
  return files;
}

GBytes *
tu_read (const char *path)
{
  char *data = NULL;
  gsize len = 0;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

SqClip *
tu_load (GBytes  *bytes,
         GError **error)
{
  return sq_load_bytes (bytes, NULL, NULL, NULL, error);
}

SqClip *
tu_load_ok (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  SqClip *clip = tu_load (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (clip);
  g_assert_true (sq_clip_check (clip, &error));
  g_assert_no_error (error);
  return clip;
}

SqClip *
tu_load_text (const char *text,
              const char *format_id,
              GError    **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));

  return sq_load_bytes (bytes, NULL, format_id ? sq_format_by_id (format_id) : NULL, NULL, error);
}

gboolean
tu_has_line (GPtrArray  *lines,
             const char *fragment)
{
  for (guint i = 0; i < lines->len; i++)
    if (strstr (lines->pdata[i], fragment) != NULL)
      return TRUE;
  return FALSE;
}

GBytes *
tu_save (const SqClip *clip,
         const char   *format_id,
         GPtrArray    *losses)
{
  SqSaveOptions opts = { .no_source_copy = TRUE };
  g_autoptr(GError) error = NULL;
  GBytes *bytes = sq_save_bytes (clip, sq_format_by_id (format_id), &opts, losses, &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

const char tu_spec_example[] =
  "AWSQ Version=1 Limbs=7 Duration=4633\r\n"
  "pelvis frames=4\r\n"
  "0 0.000000 0.000000 1.000000 0.0000 0.0153 0.0000 -0.0043\r\n"
  "1700 0.000000 0.000000 1.000000 0.0000 0.0153 0.0000 -0.0043\r\n"
  "3133 0.005932 0.000000 -0.999982 349.1282 0.0269 -0.0008 -0.0086\r\n"
  "4633 0.005932 0.000000 -0.999982 349.1282 0.0269 -0.0008 -0.0086\r\n"
  "lfhip frames=4\r\n"
  "0 0.036796 -0.028458 -0.998918 353.6962 0.0000 0.0000 0.0000\r\n"
  "1700 0.036796 -0.028458 -0.998918 353.6962 0.0000 0.0000 0.0000\r\n"
  "3133 -0.226745 0.004188 0.973945 345.7601 0.0000 0.0000 0.0000\r\n"
  "4633 -0.226745 0.004188 0.973945 345.7601 0.0000 0.0000 0.0000\r\n"
  "lfknee frames=4\r\n"
  "0 0.000000 0.000000 1.000000 0.0000 0.0000 0.0000 0.0000\r\n"
  "1700 0.000000 0.000000 1.000000 0.0000 0.0000 0.0000 0.0000\r\n"
  "3133 0.000000 0.000000 1.000000 0.0000 0.0000 0.0000 0.0000\r\n"
  "4633 0.000000 0.000000 1.000000 0.0000 0.0000 0.0000 0.0000\r\n"
  "lfankle frames=3\r\n"
  "0 0.000000 0.000000 1.000000 356.6163 0.0000 0.0000 0.0000\r\n"
  "3000 0.723511 -0.016471 -0.690117 356.2214 0.0000 0.0000 0.0000\r\n"
  "4633 0.723511 -0.016471 -0.690117 356.2214 0.0000 0.0000 0.0000\r\n"
  "rthip frames=4\r\n"
  "0 0.000000 0.000000 1.000000 354.5141 0.0000 0.0000 0.0000\r\n"
  "1700 0.000000 0.000000 1.000000 354.5141 0.0000 0.0000 0.0000\r\n"
  "3133 0.543298 0.155699 0.824976 332.1506 0.0000 0.0000 0.0000\r\n"
  "4633 0.543298 0.155699 0.824976 332.1506 0.0000 0.0000 0.0000\r\n"
  "rtknee frames=4\r\n"
  "0 0.000000 0.000000 1.000000 0.0000 0.0000 0.0000 0.0000\r\n"
  "1700 0.000000 0.000000 1.000000 0.0000 0.0000 0.0000 0.0000\r\n"
  "3133 -1.000000 0.000000 0.000000 342.8727 0.0000 0.0000 0.0000\r\n"
  "4633 -1.000000 0.000000 0.000000 342.8727 0.0000 0.0000 0.0000\r\n"
  "rtankle frames=3\r\n"
  "0 0.000000 0.000000 -1.000000 354.2058 0.0000 0.0000 0.0000\r\n"
  "3000 0.149576 -0.018882 -0.988570 352.2866 0.0000 0.0000 0.0000\r\n"
  "4633 0.149576 -0.018882 -0.988570 352.2866 0.0000 0.0000 0.0000\r\n";

/* One entry per writable format: its id, then the bytes written (or the
 * error), then the losses, as one block of bytes to compare */
GPtrArray *
tu_save_every_format (const SqClip *clip)
{
  GPtrArray *saves = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  gsize n_formats;
  const SqFormat * const *formats = sq_formats (&n_formats);

  for (gsize f = 0; f < n_formats; f++)
    {
      SqSaveOptions opts = { .no_source_copy = TRUE };
      g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GBytes) out = NULL;
      g_autoptr(GError) error = NULL;
      GByteArray *b = g_byte_array_new ();

      if (!sq_format_can_write (formats[f]))
        continue;
      out = sq_save_bytes (clip, formats[f], &opts, losses, &error);
      g_byte_array_append (b, (const guint8 *) formats[f]->id, strlen (formats[f]->id) + 1);
      if (out != NULL)
        g_byte_array_append (b, g_bytes_get_data (out, NULL), g_bytes_get_size (out));
      else
        g_byte_array_append (b, (const guint8 *) error->message, strlen (error->message));
      for (guint i = 0; i < losses->len; i++)
        g_byte_array_append (b, losses->pdata[i], strlen (losses->pdata[i]) + 1);
      g_ptr_array_add (saves, g_byte_array_free_to_bytes (b));
    }
  return saves;
}

void
tu_assert_same_saves (GPtrArray *a,
                      GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    if (!g_bytes_equal (a->pdata[i], b->pdata[i]))
      g_error ("saving as %s gives other bytes or losses", (const char *) g_bytes_get_data (a->pdata[i], NULL));
}

void
tu_unpack (SqClip *clip)
{
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      sq_track_unpack (&clip->joints[j].tracks[c]);
}

/* apply, check, undo (bitwise back), redo (same as first apply) */
void
tu_apply_undo_redo (SqClip *clip,
                    SqEdit *edit,
                    void  (*check) (const SqClip *before, const SqClip *after))
{
  g_autoptr(SqClip) before = sq_clip_copy (clip);
  g_autoptr(SqClip) after = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_false (sq_clip_is_modified (clip));
  g_assert_true (sq_edit_apply (edit, clip, &error));
  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, NULL));
  g_assert_true (sq_clip_is_modified (clip));
  check (before, clip);
  after = sq_clip_copy (clip);

  sq_edit_undo (edit, clip);
  g_assert_true (sq_clip_equal (before, clip));
  g_assert_false (sq_clip_is_modified (clip));

  g_assert_true (sq_edit_apply (edit, clip, &error));
  g_assert_true (sq_clip_equal (after, clip));
  sq_edit_undo (edit, clip);
  g_assert_true (sq_clip_equal (before, clip));
}

/* cuts each kept piece of `key` (text at child `field`) out of `own` */
static void
cut_kept (GString    *own,
          GVariant   *pieces,
          guint       field)
{
  for (gsize i = 0; pieces != NULL && i < g_variant_n_children (pieces); i++)
    {
      g_autoptr(GVariant) piece = g_variant_get_child_value (pieces, i);
      g_autoptr(GVariant) text = g_variant_get_child_value (piece, field);
      gsize len;
      const void *bytes = g_variant_get_fixed_array (text, &len, 1);
      const char *at = memmem (own->str, own->len, bytes, len);

      g_assert_nonnull (at);
      g_string_erase (own, at - own->str, len);
    }
}

char *
tu_dx_own_text (const SqClip *clip,
                const char   *text,
                gsize         len,
                gsize        *own_len)
{
  GString *own = g_string_new_len (text, len);

  cut_kept (own, sq_props_get (clip->extra, "other_sets"), 1);
  cut_kept (own, sq_props_get (clip->extra, "other_blocks"), 2);
  *own_len = own->len;
  return g_string_free (own, FALSE);
}

void
tu_assert_mentions (const GError *error,
                    const char   *fragment)
{
  g_assert_nonnull (error);
  if (strstr (error->message, fragment) == NULL)
    g_error ("“%s” does not mention “%s”", error->message, fragment);
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static void
add_sums (GPtrArray  *lines,
          const char *dir,
          const char *prefix)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *entry;

  g_assert_nonnull (d);
  while ((entry = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, entry, NULL);
      g_autofree char *shown = g_strconcat (prefix, entry, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          g_autofree char *below = g_strconcat (shown, "/", NULL);

          add_sums (lines, path, below);
        }
      else
        {
          g_autoptr(GBytes) bytes = tu_read (path);
          g_autofree char *sum = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);

          g_ptr_array_add (lines, g_strdup_printf ("%s %s", shown, sum));
        }
    }
}

char *
tu_folder_sums (const char *dir)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  add_sums (lines, dir, "");
  g_ptr_array_sort (lines, compare_lines);
  g_ptr_array_add (lines, NULL);
  return g_strjoinv ("\n", (char **) lines->pdata);
}

void
tu_copy_renamed (const char *src,
                 const char *dest,
                 const char *from,
                 const char *to)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (src, &text, &len, NULL));
  if (to != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (text, from, -1);

      g_free (text);
      text = g_strjoinv (to, parts);
      len = strlen (text);
    }
  g_assert_true (g_file_set_contents (dest, text, (gssize) len, NULL));
}

GBytes *
tu_read_beside (const char *name,
                gpointer    dir,
                GError    **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  char *text = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &text, &len, error))
    return NULL;
  return g_bytes_new_take (text, len);
}

SqClip *
tu_load_in (const char *dir,
            const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(GError) error = NULL;
  SqLoadOptions options = { 0 };
  SqClip *clip;

  options.companion = tu_read_beside;
  options.companion_data = (gpointer) dir;
  clip = sq_load_bytes (bytes, name, NULL, &options, &error);
  g_assert_no_error (error);
  return clip;
}
