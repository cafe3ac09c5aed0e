/* test-preview.c: the motion preview (shaded bones, onion skins, trail,
 * both renderers)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sequin-preview.h"
#include "sequin-test-ui.h"

#define IN 0.02540005             /* BVH inches, as the Second Life importer reads them */

/* A hip, an abdomen 10 in above it and a chest 5 in in front of that; the
 * hip turns 90° about BVH Z at 0.5 s and back at 1 s (keys every 0.5 s) */
static const char chain_bvh[] =
  "HIERARCHY\n"
  "ROOT hip\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
  "  JOINT abdomen\n  {\n    OFFSET 0 10 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
  "    JOINT chest\n    {\n      OFFSET 0 0 5\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
  "      End Site\n      {\n        OFFSET 0 1 0\n      }\n    }\n  }\n}\n"
  "MOTION\nFrames: 3\nFrame Time: 0.5\n"
  "0 40 0 0 0 0 0 0 0 0 0 0\n"
  "0 40 0 90 0 0 0 0 0 0 0 0\n"
  "0 40 0 0 0 0 0 0 0 0 0 0\n";

/* 2 bones of 8 faces, 3 joints of 32 */
#define CHAIN_TRIANGLES (2 * 8 + 3 * 32)

static SqClip *
load_chain (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (chain_bvh, sizeof chain_bvh - 1);
  g_autoptr(GError) error = NULL;
  SqClip *clip = sq_load_bytes (bytes, "chain.bvh", sq_format_by_id ("bvh"), NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (clip->n_joints, ==, 3);
  return clip;
}

/* the preview's axes: Y up; view (x, y, z) = Second Life (y, z, x) =
 * BVH (x, y, z) in metres */
#define assert_point(p, x, y, z) \
  g_assert_cmpfloat (hypot (hypot ((p)[0] - (x), (p)[1] - (y)), (p)[2] - (z)), <, 1e-6)

static SequinPreview *
preview_new (void)
{
  return g_object_ref_sink (SEQUIN_PREVIEW (sequin_preview_new ()));
}

/* The joint positions drawn for a known clip at known times, the onion
 * skins' keys and the selected joint's trail */
static void
test_posed_points (void)
{
  g_autoptr(SqClip) clip = load_chain ();
  g_autoptr(SequinPreview) preview = preview_new ();
  const double *p;
  double t;
  gsize n;
  gssize selected;

  /* on the key at 0.5 s: the hip turned, the abdomen to the figure's right */
  sequin_preview_set_clip (preview, clip, 0.5, 1);
  p = sequin_preview_get_figure (preview, &n, &selected);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (selected, ==, 1);
  assert_point (&p[0], 0, 40 * IN, 0);
  assert_point (&p[3], -10 * IN, 40 * IN, 0);
  assert_point (&p[6], -10 * IN, 40 * IN, 5 * IN);
  /* its onion skins: the keys at 0 and 1 s, both standing straight */
  p = sequin_preview_get_onion (preview, FALSE, &t);
  g_assert_nonnull (p);
  g_assert_cmpfloat_with_epsilon (t, 0.0, 1e-9);
  assert_point (&p[3], 0, 50 * IN, 0);
  p = sequin_preview_get_onion (preview, TRUE, &t);
  g_assert_nonnull (p);
  g_assert_cmpfloat_with_epsilon (t, 1.0, 1e-9);
  assert_point (&p[6], 0, 50 * IN, 5 * IN);

  /* halfway to it: on the arc */
  sequin_preview_set_clip (preview, clip, 0.25, 1);
  p = sequin_preview_get_figure (preview, &n, NULL);
  assert_point (&p[3], -10 * IN * sin (G_PI / 4), (40 + 10 * cos (G_PI / 4)) * IN, 0);
  g_assert_cmpfloat_with_epsilon (sequin_preview_get_onion (preview, TRUE, &t)[3], -10 * IN, 1e-6);
  g_assert_cmpfloat_with_epsilon (t, 0.5, 1e-9);

  /* at the start there is no key before */
  sequin_preview_set_clip (preview, clip, 0.0, 1);
  g_assert_null (sequin_preview_get_onion (preview, FALSE, NULL));
  g_assert_nonnull (sequin_preview_get_onion (preview, TRUE, NULL));

  /* the abdomen's path: sampled at the clip's 2 frames per second */
  p = sequin_preview_get_trail (preview, &n);
  g_assert_cmpuint (n, ==, 3);
  assert_point (&p[0], 0, 50 * IN, 0);
  assert_point (&p[3], -10 * IN, 40 * IN, 0);
  assert_point (&p[6], 0, 50 * IN, 0);
  /* no selection, no trail */
  sequin_preview_set_clip (preview, clip, 0.0, -1);
  g_assert_null (sequin_preview_get_trail (preview, &n));
  g_assert_cmpuint (n, ==, 0);

  sequin_preview_set_clip (preview, NULL, 0, -1);
  sequin_preview_get_figure (preview, &n, NULL);
  g_assert_cmpuint (n, ==, 0);
}

/* A Second Life BVH's frame 0 is its reference (rest) pose, not played:
 * the trail starts at frame 1, with no straight line from the rest pose;
 * motion capture, whose frame 0 is motion, from frame 0. With the trail on
 * and no joint selected, or one that stays about in place, a line says to
 * select one. */
static void
test_trail_reference (void)
{
  g_autofree char *display = sequin_test_corpus_path ("bvh/LayCute.bvh");
  g_autofree char *mocap = sequin_test_corpus_path ("bvh/131_01.bvh");
  g_autoptr(SqClip) clip = sequin_test_load_clip (display);
  g_autoptr(SqClip) capture = sequin_test_load_clip (mocap);
  g_autoptr(SequinPreview) preview = preview_new ();
  gssize hand = -1;
  const double *trail, *figure;
  gsize n, n_figure;

  for (gsize j = 0; j < clip->n_joints; j++)
    if (g_strcmp0 (clip->joints[j].name, "rHand") == 0)
      hand = (gssize) j;
  g_assert_cmpint (hand, >=, 0);
  g_object_set (preview, "motion-trail", TRUE, NULL);
  /* the hand at frame 1 is where the trail begins */
  sequin_preview_set_clip (preview, clip, 1 / clip->fps, hand);
  figure = sequin_preview_get_figure (preview, &n_figure, NULL);
  trail = sequin_preview_get_trail (preview, &n);
  g_assert_cmpuint (n, ==, 100);   /* 101 frames, the first the reference */
  assert_point (trail, figure[hand * 3], figure[hand * 3 + 1], figure[hand * 3 + 2]);

  /* no joint selected: the line says to select one */
  sequin_preview_set_clip (preview, clip, 0, -1);
  g_assert_cmpstr (sequin_preview_get_trail_hint (preview), ==, "Select a joint to see its trail");

  /* motion capture: from frame 0 */
  sequin_preview_set_clip (preview, capture, 0, 5);
  figure = sequin_preview_get_figure (preview, &n_figure, NULL);
  trail = sequin_preview_get_trail (preview, &n);
  g_assert_cmpuint (n, ==, 994);
  assert_point (trail, figure[15], figure[16], figure[17]);
  g_assert_null (sequin_preview_get_trail_hint (preview));   /* the capture's joint walks */
  g_object_set (preview, "motion-trail", FALSE, NULL);
  g_assert_null (sequin_preview_get_trail_hint (preview));
}

/* The bundled ActiveWorlds sample on its world's rest pose: the left arm,
 * turned only 8° from it, hangs down beside the body (on Second Life's
 * T-pose it would stick out sideways) */
static void
test_aw_sample_arm_down (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("SEQUIN_SAMPLE_DIR"), "wave.seq", NULL);
  g_autoptr(SqClip) clip = sequin_test_load_clip (path);
  g_autoptr(SequinPreview) preview = preview_new ();
  gssize shoulder = sq_clip_find_joint (clip, "lfshoulder"), elbow = sq_clip_find_joint (clip, "lfelbow");
  const double *p;
  gsize n;

  g_assert_cmpint (shoulder, >=, 0);
  g_assert_cmpint (elbow, >=, 0);
  sequin_preview_set_clip (preview, clip, 0.0, -1);
  p = sequin_preview_get_figure (preview, &n, NULL);
  g_assert_cmpuint (n, ==, clip->n_joints);
  /* Y up; X is the figure's left */
  g_assert_cmpfloat (p[shoulder * 3 + 1] - p[elbow * 3 + 1], >, 0.2);
  g_assert_cmpfloat (fabs (p[elbow * 3 + 0] - p[shoulder * 3 + 0]), <, 0.1);
  g_assert_cmpfloat (p[elbow * 3 + 0], >, 0.1);
}

static GtkToggleButton *
find_toggle (GtkWidget  *widget,
             const char *action)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkToggleButton *found;

      if (GTK_IS_TOGGLE_BUTTON (child)
          && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (child)), action) == 0)
        return GTK_TOGGLE_BUTTON (child);
      if ((found = find_toggle (child, action)) != NULL)
        return found;
    }
  return NULL;
}

static void
drawn (SequinPreview *preview,
       guint          counts[3])
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 200, 200);
  cairo_t *cr = cairo_create (surface);

  sequin_preview_draw_cairo (preview, cr, 200, 200);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  sequin_preview_get_drawn (preview, &counts[0], &counts[1], &counts[2]);
}

/* The onion and trail toggles: buttons named by their labels, keys O and
 * T; each adds exactly its part to the drawing */
static void
test_toggles (void)
{
  g_autoptr(SqClip) clip = load_chain ();
  GtkWidget *window = gtk_window_new ();
  SequinPreview *preview = SEQUIN_PREVIEW (sequin_preview_new ());
  GtkToggleButton *onion, *trail;
  guint counts[3];

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (preview));
  gtk_window_set_default_size (GTK_WINDOW (window), 400, 300);
  gtk_window_present (GTK_WINDOW (window));
  sequin_preview_set_clip (preview, clip, 0.25, 1);
  sequin_test_flush ();

  onion = find_toggle (GTK_WIDGET (preview), "preview.onion-skins");
  trail = find_toggle (GTK_WIDGET (preview), "preview.motion-trail");
  g_assert_nonnull (onion);
  g_assert_nonnull (trail);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (onion)), ==, "_Onion Skins");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (trail)), ==, "Motion _Trail");
  g_assert_true (gtk_test_accessible_has_role (GTK_ACCESSIBLE (onion), GTK_ACCESSIBLE_ROLE_BUTTON));
  g_assert_false (gtk_toggle_button_get_active (onion));

  drawn (preview, counts);
  g_assert_cmpuint (counts[0], ==, CHAIN_TRIANGLES);
  g_assert_cmpuint (counts[1], ==, 0);
  g_assert_cmpuint (counts[2], ==, 0);

  /* the button: both neighbouring keys' figures */
  gtk_widget_activate (GTK_WIDGET (onion));
  SEQUIN_TEST_WAIT_UNTIL (gtk_toggle_button_get_active (onion));
  g_assert_true (sequin_preview_get_onion (preview, FALSE, NULL) != NULL);
  {
    g_autofree char *error = gtk_test_accessible_check_state (GTK_ACCESSIBLE (onion), GTK_ACCESSIBLE_STATE_PRESSED,
                                                              GTK_ACCESSIBLE_TRISTATE_TRUE);
    g_assert_null (error);
  }
  drawn (preview, counts);
  g_assert_cmpuint (counts[0], ==, CHAIN_TRIANGLES);
  g_assert_cmpuint (counts[1], ==, 2 * CHAIN_TRIANGLES);

  /* the key: the trail, a line pair per step between the 3 samples */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (preview), "preview.motion-trail", NULL));
  sequin_test_flush ();
  g_assert_true (gtk_toggle_button_get_active (trail));
  drawn (preview, counts);
  g_assert_cmpuint (counts[2], ==, 2 * 2);

  /* and off again */
  g_object_set (preview, "onion-skins", FALSE, "motion-trail", FALSE, NULL);
  sequin_test_flush ();
  g_assert_false (gtk_toggle_button_get_active (onion));
  drawn (preview, counts);
  g_assert_cmpuint (counts[1], ==, 0);
  g_assert_cmpuint (counts[2], ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Without OpenGL, cairo draws shaded bones: several shades of the bone
 * colour, and the selected joint in its own colour where it is */
static void
test_cairo_drawing (void)
{
  g_autoptr(SqClip) clip = load_chain ();
  g_autoptr(SequinPreview) preview = preview_new ();
  g_autoptr(GHashTable) shades = g_hash_table_new (NULL, NULL);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 300, 300);
  cairo_t *cr = cairo_create (surface);
  const guint8 *data;
  int stride;
  guint orange = 0, opaque = 0;

  sequin_preview_set_clip (preview, clip, 0.0, 1);
  sequin_preview_draw_cairo (preview, cr, 300, 300);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  if (g_getenv ("PREVIEW_TEST_PNG") != NULL)
    cairo_surface_write_to_png (surface, g_getenv ("PREVIEW_TEST_PNG"));
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = 0; y < 300; y++)
    for (int x = 0; x < 300; x++)
      {
        guint32 px = *(const guint32 *) (gconstpointer) (data + y * stride + x * 4);
        guint a = px >> 24, r = (px >> 16) & 0xff, g = (px >> 8) & 0xff, b = px & 0xff;

        if (a < 255)
          continue;
        opaque++;
        g_hash_table_add (shades, GUINT_TO_POINTER (px));
        /* the selection colour (#e66100 or, on a dark theme, #ffa348; shaded) */
        if (r > g + 40 && g > b + 40 && r > 80)
          orange++;
      }
  cairo_surface_destroy (surface);
  /* the figure (its hip 1 m above the ground, seen with it) covers some
   * of the picture, in more than a few shades */
  g_assert_cmpuint (opaque, >, 60);
  g_assert_cmpuint (g_hash_table_size (shades), >, 10);
  g_assert_cmpuint (orange, >, 5);
}

/* Both renderers in a window: OpenGL where it works (Xvfb: llvmpipe), and
 * the cairo fallback when it is asked for, each drawing the whole figure */
static void
test_renderers (void)
{
  g_autoptr(SqClip) clip = load_chain ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkGLContext) context = gdk_display_create_gl_context (gdk_display_get_default (), &error);
  gboolean have_gl = context != NULL && gdk_gl_context_realize (context, &error);

  g_test_message ("OpenGL: %s", have_gl ? "available" : error->message);
  for (int cairo_only = 0; cairo_only < 2; cairo_only++)
    {
      GtkWidget *window = gtk_window_new ();
      SequinPreview *preview;
      guint counts[3] = { 0, 0, 0 };

      if (cairo_only)
        g_setenv ("SEQUIN_PREVIEW_CAIRO", "1", TRUE);
      preview = SEQUIN_PREVIEW (sequin_preview_new ());
      g_unsetenv ("SEQUIN_PREVIEW_CAIRO");
      gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (preview));
      gtk_window_set_default_size (GTK_WINDOW (window), 320, 240);
      gtk_window_present (GTK_WINDOW (window));
      sequin_preview_set_clip (preview, clip, 0.5, 2);
      SEQUIN_TEST_WAIT_UNTIL ((sequin_preview_get_drawn (preview, &counts[0], &counts[1], &counts[2]),
                               counts[0] == CHAIN_TRIANGLES));
      /* whichever drew last says so */
      g_assert_cmpint (sequin_preview_has_rendered (preview), ==, have_gl && !cairo_only);
      gtk_window_destroy (GTK_WINDOW (window));
      sequin_test_flush ();
    }
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/preview/posed-points", test_posed_points);
  g_test_add_func ("/preview/aw-sample-arm-down", test_aw_sample_arm_down);
  g_test_add_func ("/preview/trail-reference", test_trail_reference);
  g_test_add_func ("/preview/toggles", test_toggles);
  g_test_add_func ("/preview/cairo-drawing", test_cairo_drawing);
  g_test_add_func ("/preview/renderers", test_renderers);
  return g_test_run ();
}
