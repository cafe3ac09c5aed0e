/* sequin-preview.c: the OpenGL preview of a posed skeleton
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GtkGLArea (core profile, or GLES 3) draws the figure as shaded
 * geometry: octahedral bones and round joints lit by one light from the
 * viewer's side, over a floor grid with the world's axes; onion skins of
 * the poses at the previous and next key, and the selected joint's path
 * through the clip. When OpenGL is not available, a cairo drawing area
 * draws the same triangles, sorted back to front, so the preview never
 * goes blank. The axis letters and the grid's unit are drawn over either.
 */
#define G_LOG_DOMAIN "sequin-preview"

#include "config.h"

#include <epoxy/gl.h>
#include <glib/gi18n.h>
#include <math.h>

#include "sq-convert.h"
#include "sq-diff.h"
#include "sq-pose.h"
#include "sq-posing.h"
#include "sequin-preview-gizmo.h"
#include "sequin-preview-mesh.h"
#include "sequin-preview.h"
#include "sequin-utils.h"

#define TRAIL_MAX_SAMPLES 1000  /* the path is sampled at most this often */
#define MSAA_SAMPLES      4
#define ONION_MIN_GAP     (4.5 / 30)  /* s: an onion skin is at least 5 frames (at 30/s) away */

enum { ONION_PREVIOUS, ONION_NEXT };

/* What one draw shows, built from the figure for both renderers */
typedef struct
{
  GArray *grid;                 /* lines: the floor grid and the axes */
  GArray *figure;               /* triangles, opaque */
  GArray *ghosts;               /* triangles, translucent: the onion skins */
  GArray *reference;            /* triangles, translucent: the clip compared with */
  GArray *trail;                /* lines: the selected joint's path */
  GArray *marks;                /* points: its keys on the path */
  GArray *gizmo;                /* triangles, unlit, over everything: the posing gizmo */
} Scene;

struct _SequinPreview
{
  GtkWidget  parent_instance;

  GtkWidget *gl_area;
  GtkWidget *fallback;          /* cairo, when OpenGL fails */
  GtkWidget *toolbar;

  /* the skeleton of the clip last shown, made again when its shape changes */
  SqPose        *pose;
  guint64        pose_generation;
  SequinClipShape *shape;       /* what `pose` was made from */
  const SqSpace *space;         /* the clip's world: axes and unit of the legend */

  gsize      n;
  gssize    *parents;
  double    *points;            /* 3 per joint, metres, Y up */
  gssize     selected;
  double     time;
  double    *onion[2];          /* previous / next key's pose, NULL when none */
  double     onion_time[2];
  double    *trail;             /* the selected joint's path, 3 per sample */
  gsize      n_trail;
  double     trail_duration;    /* the time of the last sample */
  double     trail_start;       /* the time of the first: 0, or a BVH's frame 1 after its reference pose */
  double     trail_length;      /* the path's extent (view units): 0 for a joint that stays */
  double    *marks;             /* its positions at its keys */
  gsize      n_marks;
  gssize     trail_joint;
  guint64    trail_generation;

  gboolean   show_onion;
  gboolean   show_trail;
  gboolean   show_gizmo;        /* the gizmo and its line over the preview (H) */

  /* the clip compared with (Compare With…), drawn as a ghost on its own
   * skeleton at the playhead's time */
  SqClip    *ref_clip;          /* a copy, NULL when not comparing */
  char      *ref_name;
  SqPose    *ref_pose;
  gsize      ref_n;
  gssize    *ref_parents;
  double    *ref_points;        /* 3 per joint, metres, Y up */
  gssize     ref_selected;      /* the selected joint's counterpart, or -1 */
  gboolean   show_reference;

  /* camera */
  double     target[3];
  double     yaw, pitch;        /* radians */
  double     distance;
  double     floor_y;
  double     grid_step;         /* metres: a round number of the world's unit */
  double     size;              /* the figure's extent, metres */
  double     drag_yaw, drag_pitch;
  gboolean   framed;            /* the camera has been fitted to a figure */
  gboolean   auto_frame;        /* the view is still the one fitted (not turned or zoomed) */
  int        framed_height;     /* the preview's height the fit was made clear of the toggles for */
  double     fit_target[3];     /* the fit without the toggles: where it looks, */
  double     fit_distance;      /* and from how far */
  double     bounds[2][3];      /* where the figure goes in the clip: low, high corner */
  gboolean   has_bounds;

  /* GL objects */
  GLuint     program;
  GLuint     vao;
  GLuint     vbo;
  GLint      u_mvp;
  GLint      u_light;
  GLint      u_point_size;
  GLint      u_round;
  GLuint     fbo, fbo_color, fbo_depth;   /* multisampled, 0 when not available */
  int        fbo_width, fbo_height;
  gboolean   no_msaa;           /* the driver could not use it */
  gboolean   rendered;

  /* posing: the gizmo on the selected joint (sequin-preview-gizmo.h) */
  const SqClip *clip;           /* the clip shown, borrowed until the next set_clip */
  gboolean   posable;           /* it is the document's own: the gizmo edits it */
  SequinGizmoMode gizmo_mode;
  int        gizmo_axis;        /* chosen by keyboard (X, Y, Z, V), -1 for none */
  int        gizmo_hover;
  int        gizmo_active;      /* the handle being dragged, -1 for none */
  gboolean   gizmo_cancelled;   /* Escape ended the drag: the rest of it is ignored */
  gboolean   gizmo_pressed;     /* the last press took a handle (its release selects nothing) */
  double     gizmo_last[2];     /* the pointer's last place in the drag */
  double     gizmo_amount;      /* degrees or metres dragged so far (not snapped) */
  double     gizmo_shown;       /* the amount shown: snapped with Ctrl */
  double     gizmo_value[4];    /* the joint's rotation or position being dragged */
  SequinPreviewEditFunc edit_func;
  gpointer   edit_data;
  GtkGesture *drag;
  char      *description;       /* the accessible description last set */

  Scene      scene;
  guint      drawn[4];          /* figure, ghost triangles, trail vertices, reference triangles of the last draw */
};

enum { PROP_0, PROP_ONION_SKINS, PROP_MOTION_TRAIL, PROP_SHOW_REFERENCE, PROP_SHOW_GIZMO, N_PROPS };
static GParamSpec *properties[N_PROPS];

enum { GIZMO_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SequinPreview, sequin_preview, GTK_TYPE_WIDGET)

/* ---- Camera ------------------------------------------------------------------ */

typedef struct
{
  float m[16];                  /* column-major */
} Mat4;

static Mat4
mat4_mul (const Mat4 *a,
          const Mat4 *b)
{
  Mat4 r;

  for (int c = 0; c < 4; c++)
    for (int row = 0; row < 4; row++)
      {
        float s = 0;
        for (int k = 0; k < 4; k++)
          s += a->m[k * 4 + row] * b->m[c * 4 + k];
        r.m[c * 4 + row] = s;
      }
  return r;
}

static void
camera_eye (SequinPreview *self,
            double         eye[3])
{
  eye[0] = self->target[0] + self->distance * cos (self->pitch) * sin (self->yaw);
  eye[1] = self->target[1] + self->distance * sin (self->pitch);
  eye[2] = self->target[2] + self->distance * cos (self->pitch) * cos (self->yaw);
}

/* projection × view for a viewport of `aspect` (width / height) */
static Mat4
camera_matrix (SequinPreview *self,
               double         aspect)
{
  double eye[3], f[3], s[3], u[3], len;
  double fov = 40.0 * G_PI / 180.0, t = 1.0 / tan (fov / 2);
  double near = MAX (self->distance * 0.01, 1e-3), far = self->distance * 20 + 10;
  Mat4 view = { { 0 } }, proj = { { 0 } };

  camera_eye (self, eye);
  for (int i = 0; i < 3; i++)
    f[i] = self->target[i] - eye[i];
  len = sqrt (f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
  for (int i = 0; i < 3; i++)
    f[i] /= len;
  /* s = f × up, up = (0, 1, 0) */
  s[0] = -f[2];
  s[1] = 0;
  s[2] = f[0];
  len = sqrt (s[0] * s[0] + s[2] * s[2]);
  if (len < 1e-9)
    {
      s[0] = 1;
      len = 1;
    }
  for (int i = 0; i < 3; i++)
    s[i] /= len;
  /* u = s × f */
  u[0] = s[1] * f[2] - s[2] * f[1];
  u[1] = s[2] * f[0] - s[0] * f[2];
  u[2] = s[0] * f[1] - s[1] * f[0];

  view.m[0] = s[0]; view.m[4] = s[1]; view.m[8] = s[2];
  view.m[1] = u[0]; view.m[5] = u[1]; view.m[9] = u[2];
  view.m[2] = -f[0]; view.m[6] = -f[1]; view.m[10] = -f[2];
  view.m[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
  view.m[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
  view.m[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
  view.m[15] = 1;

  proj.m[0] = t / MAX (aspect, 1e-3);
  proj.m[5] = t;
  proj.m[10] = (far + near) / (near - far);
  proj.m[11] = -1;
  proj.m[14] = 2 * far * near / (near - far);

  return mat4_mul (&proj, &view);
}

/* the direction the light shines from: the viewer's side, above and to
 * the right, so faces turned different ways get different shades */
static void
light_direction (SequinPreview *self,
                 float          light[3])
{
  double eye[3], e[3], right[3], l[3], len = 0;

  camera_eye (self, eye);
  for (int i = 0; i < 3; i++)
    e[i] = (eye[i] - self->target[i]) / MAX (self->distance, 1e-9);
  /* right = e × up… turned: (e_z, 0, -e_x) points to the viewer's right */
  right[0] = e[2];
  right[1] = 0;
  right[2] = -e[0];
  for (int i = 0; i < 3; i++)
    l[i] = 0.8 * e[i] + 0.35 * right[i] + (i == 1 ? 0.5 : 0);
  len = sqrt (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
  for (int i = 0; i < 3; i++)
    light[i] = (float) (l[i] / len);
}

static void
queue_draws (SequinPreview *self)
{
  gtk_widget_queue_draw (self->gl_area);
  gtk_widget_queue_draw (self->fallback);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The world's unit (the file's translation unit) for the legend */
static const char *
unit_name (const SqSpace *space)
{
  if (space->unit_name != NULL)
    return g_dpgettext2 (NULL, "length unit", space->unit_name);
  if (fabs (space->metres_per_unit - 1) < 1e-9)
    return C_("length unit", "m");
  return NULL;
}

/* grows lo/hi (any: they hold something) by the finite points of `points` */
static gboolean
extend_bounds (const double *points,
               gsize         n,
               double        lo[3],
               double        hi[3],
               gboolean      any)
{
  for (gsize i = 0; i < n; i++)
    {
      const double *p = &points[i * 3];

      if (!isfinite (p[0]) || !isfinite (p[1]) || !isfinite (p[2]))
        continue;
      for (int a = 0; a < 3; a++)
        {
          lo[a] = any ? MIN (lo[a], p[a]) : p[a];
          hi[a] = any ? MAX (hi[a], p[a]) : p[a];
        }
      any = TRUE;
    }
  return any;
}

void
sequin_preview_reset_view (SequinPreview *self)
{
  double lo[3] = { 0, 0, 0 }, hi[3] = { 0, 0, 0 }, size, unit;

  g_return_if_fail (SEQUIN_IS_PREVIEW (self));

  /* the figure's own size sets the bones' thickness */
  extend_bounds (self->points, self->n, lo, hi, FALSE);
  self->size = MAX (MAX (hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);
  if (!(self->size > 1e-6) || !isfinite (self->size))
    self->size = 1.0;
  /* the camera sees where it goes during the whole clip */
  if (self->has_bounds)
    extend_bounds (&self->bounds[0][0], 2, lo, hi, TRUE);
  size = MAX (MAX (hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);
  if (!(size > 1e-6) || !isfinite (size))
    size = 1.0;
  /* the ground is the world's y = 0, unless the figure reaches below it
   * (a skeleton whose root is at the origin); a figure above it (an upper
   * body alone) is seen with the ground */
  self->floor_y = lo[1] > -0.1 * size ? 0 : lo[1];
  lo[1] = MIN (lo[1], self->floor_y);
  for (int a = 0; a < 3; a++)
    self->target[a] = (lo[a] + hi[a]) / 2;
  size = MAX (size, hi[1] - lo[1]);
  /* grid squares of a round number (1, 2 or 5 × 10ⁿ) of the world's unit,
   * at least three across the figure: 0.5 m, 20 in … */
  unit = self->space != NULL && self->space->metres_per_unit > 0 ? self->space->metres_per_unit : 1;
  {
    double most = self->size / unit / 3, decade = pow (10, floor (log10 (most)));

    self->grid_step = (most >= 5 * decade ? 5 : most >= 2 * decade ? 2 : 1) * decade * unit;
  }
  self->yaw = 30.0 * G_PI / 180.0;
  self->pitch = 15.0 * G_PI / 180.0;
  self->distance = size * 1.8;
  self->framed = self->n > 0;
  memcpy (self->fit_target, self->target, sizeof self->target);
  self->fit_distance = self->distance;
  self->auto_frame = TRUE;
  self->framed_height = 0;   /* fitted clear of the toggles at the next draw */
  queue_draws (self);
}

/* The fitted figure clear of the toggles over the preview's top: the
 * camera backs off so the figure's height fits between the toolbar's
 * lower edge and the preview's, and looks higher by half the toolbar, so
 * the figure stands in that band (a short preview no longer hides its
 * head under the buttons). Made again when the height changes, while the
 * user has not turned or zoomed the view. */
static void
frame_below_toolbar (SequinPreview *self,
                     int            height)
{
  graphene_rect_t bar;
  double top, band, per_pixel;

  self->framed_height = height;
  memcpy (self->target, self->fit_target, sizeof self->target);
  self->distance = self->fit_distance;
  if (height <= 0 || self->toolbar == NULL || !gtk_widget_get_visible (self->toolbar)
      || !gtk_widget_compute_bounds (self->toolbar, GTK_WIDGET (self), &bar))
    return;
  top = bar.origin.y + bar.size.height;
  band = height - top;
  if (top <= 0 || band < 0.5 * height)
    return;
  self->distance = self->fit_distance * height / band;
  /* the view's height at the target, in the camera's 40° field */
  per_pixel = 2 * self->distance * tan (20.0 * G_PI / 180.0) / height;
  self->target[1] += top / 2 * per_pixel;
}

static void
set_camera (SequinPreview *self,
            double         yaw,
            double         pitch,
            double         distance)
{
  self->auto_frame = FALSE;
  self->yaw = fmod (yaw, 2 * G_PI);
  self->pitch = CLAMP (pitch, -85.0 * G_PI / 180.0, 85.0 * G_PI / 180.0);
  if (isfinite (distance))
    self->distance = CLAMP (distance, 0.05, 1e5);
  queue_draws (self);
}

void
sequin_preview_get_camera (SequinPreview *self,
                           double        *yaw,
                           double        *pitch,
                           double        *distance)
{
  g_return_if_fail (SEQUIN_IS_PREVIEW (self));
  *yaw = self->yaw * 180.0 / G_PI;
  *pitch = self->pitch * 180.0 / G_PI;
  *distance = self->distance;
}

const double *
sequin_preview_get_figure (SequinPreview *self,
                           gsize         *n,
                           gssize        *selected)
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), NULL);
  *n = self->n;
  if (selected != NULL)
    *selected = self->selected;
  return self->points;
}

const double *
sequin_preview_get_onion (SequinPreview *self,
                          gboolean       next,
                          double        *time)
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), NULL);
  if (time != NULL)
    *time = self->onion_time[next ? ONION_NEXT : ONION_PREVIOUS];
  return self->onion[next ? ONION_NEXT : ONION_PREVIOUS];
}

static void ensure_trail (SequinPreview *self);

const char *
sequin_preview_get_trail_hint (SequinPreview *self)
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), NULL);
  if (!self->show_trail || self->n == 0)
    return NULL;
  ensure_trail (self);
  if (self->n_trail == 0)
    return _("Select a joint to see its trail");
  /* a path shorter than a tenth of a grid square is hidden under the figure */
  if (self->trail_length > 0.1 * (self->grid_step > 0 ? self->grid_step : 0.5))
    return NULL;
  return _("This joint hardly moves: select another to see its trail");
}

const double *
sequin_preview_get_trail (SequinPreview *self,
                          gsize         *n)
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), NULL);
  ensure_trail (self);
  *n = self->n_trail;
  return self->trail;
}

void
sequin_preview_get_drawn (SequinPreview *self,
                          guint         *figure_triangles,
                          guint         *ghost_triangles,
                          guint         *trail_vertices)
{
  g_return_if_fail (SEQUIN_IS_PREVIEW (self));
  *figure_triangles = self->drawn[0];
  *ghost_triangles = self->drawn[1];
  *trail_vertices = self->drawn[2];
}

guint
sequin_preview_get_drawn_reference (SequinPreview *self)
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), 0);
  return self->drawn[3];
}

gboolean
sequin_preview_has_rendered (SequinPreview *self)
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), FALSE);
  return self->rendered;
}

/* ---- Posing ------------------------------------------------------------------ */

/* the pose at `time` on the preview's axes: Second Life's X forward,
 * Y left, Z up become the view's Z, X, Y (Y up) */
static void
pose_with (const SqPose         *pose,
           gsize                 n,
           const SqClip         *clip,
           double                time,
           const SqPoseOverride *override,
           double               *sl,
           double               *out)
{
  sq_pose_evaluate_with (pose, clip, time, override, sl);
  for (gsize j = 0; j < n; j++)
    {
      out[j * 3 + 0] = sl[j * 3 + 1];
      out[j * 3 + 1] = sl[j * 3 + 2];
      out[j * 3 + 2] = sl[j * 3 + 0];
    }
}

static void
pose_at (SequinPreview *self,
         const SqClip  *clip,
         double         time,
         double        *sl,
         double        *out)
{
  pose_with (self->pose, self->n, clip, time, NULL, sl, out);
}

/* The reference's joint standing for the figure's joint `selected`: the
 * same name, or the one both map to in Second Life's names (as the
 * comparison pairs them, sq_diff_find_joint) */
static gssize
reference_counterpart (SequinPreview *self,
                       const SqClip  *clip,
                       gssize         selected)
{
  const char *name, *sl;
  gssize j;

  if (self->ref_clip == NULL || selected < 0 || (gsize) selected >= clip->n_joints)
    return -1;
  name = clip->joints[selected].name;
  if ((j = sq_diff_find_joint (self->ref_clip, name)) >= 0)
    return j;
  sl = sq_joint_name_for_scheme (name, SQ_JOINT_SCHEME_SL, 0);
  return sl != NULL ? sq_diff_find_joint (self->ref_clip, sl) : -1;
}

/* the reference posed at the playhead */
static void
update_reference (SequinPreview *self)
{
  g_autofree double *sl = NULL;

  if (self->ref_pose == NULL)
    return;
  sl = g_new (double, 3 * self->ref_n);
  pose_with (self->ref_pose, self->ref_n, self->ref_clip, self->time, NULL, sl, self->ref_points);
}

static void
clear_reference (SequinPreview *self)
{
  g_clear_pointer (&self->ref_clip, sq_clip_free);
  g_clear_pointer (&self->ref_name, g_free);
  g_clear_pointer (&self->ref_pose, sq_pose_free);
  g_clear_pointer (&self->ref_parents, g_free);
  g_clear_pointer (&self->ref_points, g_free);
  self->ref_n = 0;
  self->ref_selected = -1;
}

void
sequin_preview_set_reference (SequinPreview *self,
                              const SqClip  *reference,
                              const char    *name)
{
  g_return_if_fail (SEQUIN_IS_PREVIEW (self));

  clear_reference (self);
  if (reference != NULL && reference->n_joints > 0)
    {
      self->ref_clip = sq_clip_copy (reference);
      self->ref_name = g_strdup (name);
      self->ref_pose = sq_pose_new (self->ref_clip);
      self->ref_n = self->ref_clip->n_joints;
      self->ref_parents = g_memdup2 (sq_pose_get_parents (self->ref_pose), self->ref_n * sizeof (gssize));
      self->ref_points = g_new (double, 3 * self->ref_n);
      update_reference (self);
    }
  queue_draws (self);
}

const double *
sequin_preview_get_reference (SequinPreview *self,
                              gsize         *n,
                              gssize        *selected)
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), NULL);
  *n = self->ref_n;
  if (selected != NULL)
    *selected = self->ref_selected;
  return self->ref_points;
}

/* The clip's nearest key times before and after `time` (any joint, any
 * channel) at least ONION_MIN_GAP away, so that an onion skin stands
 * apart from the figure even where every frame is a key (motion
 * capture); FALSE where there is none */
static void
neighbour_keys (const SqClip *clip,
                double        time,
                gboolean      found[2],
                double        at[2])
{
  const double eps = ONION_MIN_GAP;

  found[0] = found[1] = FALSE;
  for (gsize j = 0; j < clip->n_joints; j++)
    for (int c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *track = &clip->joints[j].tracks[c];
        gsize before, after;
        double t;

        if (track->n_keys == 0)
          continue;
        before = sq_track_lower_bound (track, time - eps, 0, track->n_keys);
        after = sq_track_lower_bound (track, time + eps, before, track->n_keys);
        if (before > 0 && (t = sq_track_time (track, before - 1), !found[0] || t > at[0]))
          {
            at[0] = t;
            found[0] = TRUE;
          }
        if (after < track->n_keys && (t = sq_track_time (track, after), !found[1] || t < at[1]))
          {
            at[1] = t;
            found[1] = TRUE;
          }
      }
}

/* Where the trail starts: a BVH whose frame 0 is the rest pose (every
 * rotation none) and a jump away from frame 1 (more than 5°, and three
 * times any later step from frame to frame) is a Second Life BVH with its
 * reference frame, which is not played (the importer's rule,
 * sq-convert.c): its trail starts at frame 1, with no straight line from
 * the rest pose */
static double
trail_start (const SqClip *clip,
             double        duration)
{
  double frame = clip->fps > 0 && isfinite (clip->fps) ? 1 / clip->fps : 0;
  double jump = 0, step = 0;

  if (clip->format == NULL || !(clip->format->flags & SQ_FORMAT_REFERENCE_FRAME) || !(frame > 0) || duration < 2 * frame)
    return 0;
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqTrack *t = &clip->joints[j].tracks[SQ_CHANNEL_ROTATION];
      SqKey prev;

      if (t->n_keys < 2)
        continue;
      prev = sq_track_key (t, 0);
      if (prev.time > 1e-9 || fabs (fabs (prev.v[0]) - 1) > 1e-9)
        return 0;
      for (gsize k = 1; k < t->n_keys; k++)
        {
          SqKey key = sq_track_key (t, k);
          double angle = sq_quat_angle_between (prev.v, key.v);

          if (k == 1)
            jump = MAX (jump, angle);
          else
            step = MAX (step, angle);
          prev = key;
        }
    }
  return jump > 5 && jump > 3 * step ? frame : 0;
}

/* The selected joint's path through the clip (sampled at the clip's frame
 * rate; a Second Life BVH's from frame 1) and its places at its own keys */
static void
update_trail (SequinPreview *self,
              const SqClip  *clip,
              double        *sl,
              double        *view)
{
  gssize j = self->selected;
  double duration = isfinite (clip->duration) && clip->duration > 0 ? clip->duration : 0;
  const SqTrack *keys;
  gsize n;

  if (self->trail_joint == j && self->trail_generation == clip->generation)
    return;
  g_clear_pointer (&self->trail, g_free);
  g_clear_pointer (&self->marks, g_free);
  self->n_trail = self->n_marks = 0;
  self->trail_joint = j;
  self->trail_generation = clip->generation;
  if (j < 0 || (gsize) j >= self->n)
    return;

  self->trail_start = trail_start (clip, duration);
  n = MAX (sequin_clip_frames_over (clip, duration - self->trail_start, TRAIL_MAX_SAMPLES), 2);
  self->trail = g_new (double, 3 * n);
  self->trail_length = 0;
  for (gsize i = 0; i < n; i++)
    {
      pose_at (self, clip, self->trail_start + (duration - self->trail_start) * i / (n - 1), sl, view);
      memcpy (&self->trail[i * 3], &view[j * 3], 3 * sizeof (double));
    }
  /* the path's extent: the largest side of the box around it */
  for (int k = 0; k < 3; k++)
    {
      double lo = INFINITY, hi = -INFINITY;

      for (gsize i = 0; i < n; i++)
        if (isfinite (self->trail[i * 3 + k]))
          {
            lo = MIN (lo, self->trail[i * 3 + k]);
            hi = MAX (hi, self->trail[i * 3 + k]);
          }
      if (hi >= lo)
        self->trail_length = MAX (self->trail_length, hi - lo);
    }
  self->n_trail = n;
  self->trail_duration = duration;

  keys = &clip->joints[j].tracks[SQ_CHANNEL_ROTATION];
  if (keys->n_keys == 0)
    keys = &clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION];
  /* marks only where keys are sparse: a key on every frame (motion
   * capture) would only thicken the line */
  n = keys->n_keys * 3 <= self->n_trail ? keys->n_keys : 0;
  self->marks = g_new (double, 3 * MAX (n, 1));
  self->n_marks = 0;
  for (gsize i = 0; i < n; i++)
    if (sq_track_time (keys, i) >= self->trail_start - 1e-9)
      {
        pose_at (self, clip, sq_track_time (keys, i), sl, view);
        memcpy (&self->marks[self->n_marks++ * 3], &view[j * 3], 3 * sizeof (double));
      }
}

/* the trail of the clip shown, made again when its joint or the clip
 * changed */
static void
ensure_trail (SequinPreview *self)
{
  g_autofree double *sl = NULL;
  g_autofree double *view = NULL;

  if (self->clip == NULL || self->n == 0
      || (self->trail_joint == self->selected && self->trail_generation == self->clip->generation))
    return;
  sl = g_new (double, 3 * self->n);
  view = g_new (double, 3 * self->n);
  update_trail (self, self->clip, sl, view);
}

/* The box the whole figure stays in during the clip, from a few poses */
static void
clip_bounds (SequinPreview *self,
             const SqClip  *clip,
             double        *sl)
{
  g_autofree double *view = g_new (double, 3 * self->n);
  double duration = isfinite (clip->duration) && clip->duration > 0 ? clip->duration : 0;
  const int samples = 16;

  self->has_bounds = FALSE;
  for (int i = 0; i <= samples; i++)
    {
      pose_at (self, clip, duration * i / samples, sl, view);
      self->has_bounds = extend_bounds (view, self->n, self->bounds[0], self->bounds[1], self->has_bounds);
    }
}

static void gizmo_stop (SequinPreview *self);
static void gizmo_update_actions (SequinPreview *self);

static void
clear_figure (SequinPreview *self)
{
  self->clip = NULL;
  g_clear_pointer (&self->pose, sq_pose_free);
  g_clear_pointer (&self->shape, sequin_clip_shape_free);
  g_clear_pointer (&self->parents, g_free);
  g_clear_pointer (&self->points, g_free);
  g_clear_pointer (&self->onion[0], g_free);
  g_clear_pointer (&self->onion[1], g_free);
  g_clear_pointer (&self->trail, g_free);
  g_clear_pointer (&self->marks, g_free);
  self->n = self->n_trail = self->n_marks = 0;
  self->trail_joint = -1;
  self->trail_generation = 0;
  self->has_bounds = FALSE;
  self->selected = -1;
  self->framed = FALSE;
}

void
sequin_preview_set_clip (SequinPreview *self,
                         const SqClip  *clip,
                         double         time,
                         gssize         selected)
{
  g_autofree double *sl = NULL;
  gboolean found[2];
  double at[2];

  g_return_if_fail (SEQUIN_IS_PREVIEW (self));

  if (clip == NULL || clip->n_joints == 0)
    {
      gizmo_stop (self);
      clear_figure (self);
      gizmo_update_actions (self);
      queue_draws (self);
      return;
    }
  /* an edit of keys keeps the skeleton (and the box the figure stays in,
   * from before the edit): made again only when what it is made from changes */
  if (self->pose != NULL && self->pose_generation != clip->generation && self->n == clip->n_joints
      && sequin_clip_shape_matches (self->shape, clip))
    self->pose_generation = clip->generation;
  if (self->pose == NULL || self->pose_generation != clip->generation || self->n != clip->n_joints)
    {
      gboolean first = self->n == 0;

      clear_figure (self);
      self->framed = !first;
      self->pose = sq_pose_new (clip);
      self->pose_generation = clip->generation;
      g_clear_pointer (&self->shape, sequin_clip_shape_free);
      self->shape = sequin_clip_shape_new (clip);
      self->n = clip->n_joints;
      self->parents = g_memdup2 (sq_pose_get_parents (self->pose), self->n * sizeof (gssize));
      self->points = g_new (double, 3 * self->n);
      self->space = clip->format != NULL && clip->format->space != NULL
                    ? clip->format->space : &sq_space_second_life;
      sl = g_new (double, 3 * self->n);
      clip_bounds (self, clip, sl);
    }
  if (self->gizmo_active >= 0 && (clip != self->clip || selected != self->selected || time != self->time))
    {
      /* the rest of that drag turns nothing (nor the camera) */
      gizmo_stop (self);
      self->gizmo_cancelled = TRUE;
    }
  self->clip = clip;
  self->selected = selected >= 0 && (gsize) selected < self->n ? selected : -1;
  self->time = time;
  if (sl == NULL)
    sl = g_new (double, 3 * self->n);
  pose_at (self, clip, time, sl, self->points);

  neighbour_keys (clip, time, found, at);
  for (int k = 0; k < 2; k++)
    {
      if (!found[k])
        {
          g_clear_pointer (&self->onion[k], g_free);
          continue;
        }
      if (self->onion[k] == NULL)
        self->onion[k] = g_new (double, 3 * self->n);
      self->onion_time[k] = at[k];
      pose_at (self, clip, at[k], sl, self->onion[k]);
    }
  /* the trail is made when it is shown or asked for (ensure_trail): on a
   * long clip it costs hundreds of milliseconds after every edit */
  self->ref_selected = reference_counterpart (self, clip, self->selected);
  update_reference (self);
  if (!self->framed)
    sequin_preview_reset_view (self);
  gizmo_update_actions (self);
  queue_draws (self);
}

/* ---- Colours ------------------------------------------------------------------ */

typedef struct
{
  GdkRGBA fg;
  float   bone[4], joint[4], selected[4], grid[4], axis[3][4], onion[2][4], trail[4], mark[4];
  float   reference[4], reference_selected[4];
  float   gizmo[SEQUIN_GIZMO_N_HANDLES][4];
} Colors;

static void
set_color (float       out[4],
           const char *spec,
           float       alpha)
{
  GdkRGBA c;

  gdk_rgba_parse (&c, spec);
  out[0] = c.red;
  out[1] = c.green;
  out[2] = c.blue;
  out[3] = alpha;
}

static void
lookup_colors (SequinPreview *self,
               Colors        *c)
{
  gboolean dark;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  /* gtk_widget_get_color() is GTK 4.10; the style context is what 4.8 has */
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &c->fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  dark = 0.299 * c->fg.red + 0.587 * c->fg.green + 0.114 * c->fg.blue > 0.5;
  set_color (c->bone, dark ? "#c0bfbc" : "#8a8794", 1);
  set_color (c->joint, dark ? "#62a0ea" : "#3584e4", 1);
  set_color (c->selected, dark ? "#ffa348" : "#e66100", 1);
  c->grid[0] = c->fg.red;
  c->grid[1] = c->fg.green;
  c->grid[2] = c->fg.blue;
  c->grid[3] = 0.16f;
  /* X red, Y green, Z blue, as in every 3D tool */
  set_color (c->axis[0], "#e01b24", 0.9f);
  set_color (c->axis[1], "#2ec27e", 0.9f);
  set_color (c->axis[2], "#3584e4", 0.9f);
  /* before: warm, after: cool; see-through */
  set_color (c->onion[ONION_PREVIOUS], "#f66151", 0.28f);
  set_color (c->onion[ONION_NEXT], "#33d17a", 0.28f);
  set_color (c->trail, dark ? "#f9f06b" : "#c64600", 0.85f);
  /* the clip compared with: see-through violet, its selected joint stronger */
  set_color (c->reference, dark ? "#dc8add" : "#9141ac", 0.38f);
  set_color (c->reference_selected, dark ? "#ffa348" : "#e66100", 0.55f);
  set_color (c->mark, dark ? "#f9f06b" : "#c64600", 1);
  /* the gizmo's rings and arrows: the axes' colours, the free ring grey */
  for (int k = 0; k < 3; k++)
    {
      memcpy (c->gizmo[k], c->axis[k], sizeof c->gizmo[k]);
      c->gizmo[k][3] = 1;
    }
  set_color (c->gizmo[SEQUIN_GIZMO_VIEW], dark ? "#deddda" : "#5e5c64", 0.9f);
}

/* ---- Scene (shared by both renderers) ------------------------------------------ */

static gboolean
point_finite (const double *p)
{
  return isfinite (p[0]) && isfinite (p[1]) && isfinite (p[2]);
}

static void
push_line (GArray       *out,
           const double  a[3],
           const double  b[3],
           const float   rgba[4])
{
  sequin_mesh_vertex (out, a, NULL, rgba);
  sequin_mesh_vertex (out, b, NULL, rgba);
}

/* The view direction (Y up) of the world's axis `k` (0 x, 1 y, 2 z) */
static void
world_axis (const SqSpace *space,
            int            k,
            double         dir[3])
{
  /* Second Life's axis 0 (forward), 1 (left), 2 (up) is the view's z, x, y */
  static const int view_of_sl[3] = { 2, 0, 1 };

  dir[0] = dir[1] = dir[2] = 0;
  dir[view_of_sl[space->axis[k] % 3]] = space->sign[k] < 0 ? -1 : 1;
}

/* The floor grid, on round multiples of its step, and the world's axes
 * from its origin */
static void
build_grid (SequinPreview *self,
            const Colors  *c,
            GArray        *out)
{
  double step = self->grid_step > 0 ? self->grid_step : 0.5, half = step * 10;
  double cx = round (self->target[0] / step) * step, cz = round (self->target[2] / step) * step;
  double origin[3] = { 0, self->floor_y, 0 };

  for (int i = -10; i <= 10; i++)
    {
      double a[3] = { cx + i * step, self->floor_y, cz - half };
      double b[3] = { cx + i * step, self->floor_y, cz + half };
      double d[3] = { cx - half, self->floor_y, cz + i * step };
      double e[3] = { cx + half, self->floor_y, cz + i * step };

      push_line (out, a, b, c->grid);
      push_line (out, d, e, c->grid);
    }
  for (int k = 0; k < 3 && self->space != NULL; k++)
    {
      double dir[3], tip[3];

      world_axis (self->space, k, dir);
      for (int i = 0; i < 3; i++)
        tip[i] = origin[i] + dir[i] * step * 2;
      push_line (out, origin, tip, c->axis[k]);
    }
}

/* One figure: a bone from each joint to each child, a ball at each joint.
 * `highlight` (-1 for none) is drawn in the selection colour, with the
 * bones it turns; `tint` (NULL for none) colours a whole onion skin. */
static guint
build_skeleton (SequinPreview *self,
                gsize          n,
                const gssize  *parents,
                const double  *points,
                gssize         highlight,
                const float   *tint,
                const float   *tint_highlight,
                const Colors  *c,
                GArray        *out)
{
  double unit = self->size > 0 ? self->size : 1;
  guint before = out->len;
  const float *hl = tint_highlight != NULL ? tint_highlight : c->selected;

  for (gsize i = 0; i < n; i++)
    {
      gssize p = parents[i];
      const double *head, *tail;
      double len;

      if (p < 0 || (gsize) p >= n)
        continue;
      head = &points[p * 3];
      tail = &points[i * 3];
      if (!point_finite (head) || !point_finite (tail))
        continue;
      len = sqrt ((tail[0] - head[0]) * (tail[0] - head[0]) + (tail[1] - head[1]) * (tail[1] - head[1])
                  + (tail[2] - head[2]) * (tail[2] - head[2]));
      sequin_mesh_bone (out, head, tail, MIN (len * 0.22, unit * 0.06),
                        p == highlight ? (tint == NULL || tint_highlight != NULL ? hl : tint)
                        : tint != NULL ? tint : c->bone);
    }
  for (gsize i = 0; i < n; i++)
    {
      const double *at = &points[i * 3];
      gssize p = parents[i];
      double r = unit * ((gssize) i == highlight ? 0.016 : 0.008);

      if (!point_finite (at))
        continue;
      /* no bigger than the bone it ends, so fingers stay apart */
      if (p >= 0 && (gsize) p < n && point_finite (&points[p * 3]) && (gssize) i != highlight)
        {
          const double *q = &points[p * 3];
          double len = sqrt ((at[0] - q[0]) * (at[0] - q[0]) + (at[1] - q[1]) * (at[1] - q[1])
                             + (at[2] - q[2]) * (at[2] - q[2]));
          if (len > 1e-9)
            r = MIN (r, len * 0.25);
        }
      sequin_mesh_ball (out, at, r,
                        (gssize) i == highlight ? (tint == NULL || tint_highlight != NULL ? hl : tint)
                        : tint != NULL ? tint : c->joint);
    }
  return (out->len - before) / SEQUIN_MESH_FLOATS / 3;
}

/* One figure of the clip shown: `highlight` (-1 for none) in the selection
 * colour, with the bones it turns; `tint` (NULL for none) colours a whole
 * onion skin */
static guint
build_figure (SequinPreview *self,
              const double  *points,
              gssize         highlight,
              const float   *tint,
              const Colors  *c,
              GArray        *out)
{
  return build_skeleton (self, self->n, self->parents, points, highlight, tint, NULL, c, out);
}

/* The trail: a line through the samples, fading away from the playhead,
 * and a mark at each of the joint's keys */
static void
build_trail (SequinPreview *self,
             const Colors  *c,
             GArray        *lines,
             GArray        *marks)
{
  for (gsize i = 0; i + 1 < self->n_trail; i++)
    {
      const double *a = &self->trail[i * 3], *b = &self->trail[(i + 1) * 3];
      float rgba[4] = { c->trail[0], c->trail[1], c->trail[2], c->trail[3] };
      double when = self->trail_start + (self->trail_duration - self->trail_start) * i / (self->n_trail - 1);

      if (!point_finite (a) || !point_finite (b))
        continue;
      /* the part already played is paler */
      if (when < self->time - 1e-9)
        rgba[3] *= 0.4f;
      push_line (lines, a, b, rgba);
    }
  for (gsize i = 0; i < self->n_marks; i++)
    if (point_finite (&self->marks[i * 3]))
      sequin_mesh_vertex (marks, &self->marks[i * 3], NULL, c->mark);
}

static void build_gizmo (SequinPreview *self,
                         const Colors  *c,
                         GArray        *out);

static void
build_scene (SequinPreview *self,
             const Colors  *c)
{
  Scene *s = &self->scene;

  g_array_set_size (s->grid, 0);
  g_array_set_size (s->figure, 0);
  g_array_set_size (s->ghosts, 0);
  g_array_set_size (s->reference, 0);
  g_array_set_size (s->trail, 0);
  g_array_set_size (s->marks, 0);
  g_array_set_size (s->gizmo, 0);
  self->drawn[0] = self->drawn[1] = self->drawn[2] = self->drawn[3] = 0;

  build_grid (self, c, s->grid);
  if (self->n == 0)
    return;
  self->drawn[0] = build_figure (self, self->points, self->selected, NULL, c, s->figure);
  for (int k = 0; k < 2 && self->show_onion; k++)
    if (self->onion[k] != NULL)
      self->drawn[1] += build_figure (self, self->onion[k], -1, c->onion[k], c, s->ghosts);
  if (self->show_reference && self->ref_points != NULL)
    self->drawn[3] = build_skeleton (self, self->ref_n, self->ref_parents, self->ref_points, self->ref_selected,
                                     c->reference, c->reference_selected, c, s->reference);
  if (self->show_trail)
    {
      ensure_trail (self);
      build_trail (self, c, s->trail, s->marks);
    }
  self->drawn[2] = s->trail->len / SEQUIN_MESH_FLOATS;
  build_gizmo (self, c, s->gizmo);
}

/* ---- OpenGL -------------------------------------------------------------------- */

static const char vertex_body[] =
  "in vec3 position;\n"
  "in vec3 normal;\n"
  "in vec4 color;\n"
  "uniform mat4 mvp;\n"
  "uniform vec3 light;\n"
  "uniform float point_size;\n"
  "out vec4 v_color;\n"
  "void main () {\n"
  "  float shade = 1.0;\n"
  "  if (dot (normal, normal) > 0.25)\n"
  "    shade = AMBIENT + (1.0 - AMBIENT) * abs (dot (normalize (normal), light));\n"
  "  gl_Position = mvp * vec4 (position, 1.0);\n"
  "  gl_PointSize = point_size;\n"
  "  v_color = vec4 (color.rgb * shade, color.a);\n"
  "}\n";

static const char fragment_body[] =
  "in vec4 v_color;\n"
  "uniform float round_points;\n"
  "out vec4 frag_color;\n"
  "void main () {\n"
  "  if (round_points > 0.5 && length (gl_PointCoord - vec2 (0.5)) > 0.5)\n"
  "    discard;\n"
  "  frag_color = vec4 (v_color.rgb * v_color.a, v_color.a);\n"
  "}\n";

static GLuint
compile_shader (GLenum       type,
                const char  *header,
                const char  *body,
                GError     **error)
{
  GLuint shader = glCreateShader (type);
  g_autofree char *ambient = g_strdup_printf ("#define AMBIENT %.3f\n", SEQUIN_MESH_AMBIENT);
  const char *sources[3] = { header, ambient, body };
  GLint ok = 0;

  glShaderSource (shader, 3, sources, NULL);
  glCompileShader (shader);
  glGetShaderiv (shader, GL_COMPILE_STATUS, &ok);
  if (!ok)
    {
      char log[1024] = "";
      glGetShaderInfoLog (shader, sizeof log, NULL, log);
      g_set_error (error, GDK_GL_ERROR, GDK_GL_ERROR_COMPILATION_FAILED,
                   "shader: %s", log);
      glDeleteShader (shader);
      return 0;
    }
  return shader;
}

static GLuint
link_program (gboolean   es,
              GError   **error)
{
  GLuint vs, fs, program;
  GLint ok = 0;

  /* the version header: GLSL 1.50 is OpenGL 3.2's core profile */
  vs = compile_shader (GL_VERTEX_SHADER, es ? "#version 300 es\n" : "#version 150\n", vertex_body, error);
  if (vs == 0)
    return 0;
  fs = compile_shader (GL_FRAGMENT_SHADER, es ? "#version 300 es\nprecision mediump float;\n" : "#version 150\n",
                       fragment_body, error);
  if (fs == 0)
    {
      glDeleteShader (vs);
      return 0;
    }
  program = glCreateProgram ();
  glAttachShader (program, vs);
  glAttachShader (program, fs);
  glBindAttribLocation (program, 0, "position");
  glBindAttribLocation (program, 1, "normal");
  glBindAttribLocation (program, 2, "color");
  glLinkProgram (program);
  glDeleteShader (vs);
  glDeleteShader (fs);
  glGetProgramiv (program, GL_LINK_STATUS, &ok);
  if (!ok)
    {
      g_set_error_literal (error, GDK_GL_ERROR, GDK_GL_ERROR_LINK_FAILED, "the preview's shaders do not link");
      glDeleteProgram (program);
      return 0;
    }
  return program;
}

static void
gl_realize (GtkGLArea     *area,
            SequinPreview *self)
{
  g_autoptr(GError) error = NULL;
  gsize stride = SEQUIN_MESH_FLOATS * sizeof (float);

  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area) != NULL)
    return;
  self->program = link_program (gdk_gl_context_get_use_es (gtk_gl_area_get_context (area)), &error);
  if (self->program == 0)
    {
      gtk_gl_area_set_error (area, error);
      return;
    }
  self->u_mvp = glGetUniformLocation (self->program, "mvp");
  self->u_light = glGetUniformLocation (self->program, "light");
  self->u_point_size = glGetUniformLocation (self->program, "point_size");
  self->u_round = glGetUniformLocation (self->program, "round_points");

  glGenVertexArrays (1, &self->vao);
  glBindVertexArray (self->vao);
  glGenBuffers (1, &self->vbo);
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 3, GL_FLOAT, GL_FALSE, stride, NULL);
  glEnableVertexAttribArray (1);
  glVertexAttribPointer (1, 3, GL_FLOAT, GL_FALSE, stride, (void *) (3 * sizeof (float)));
  glEnableVertexAttribArray (2);
  glVertexAttribPointer (2, 4, GL_FLOAT, GL_FALSE, stride, (void *) (6 * sizeof (float)));
  glBindVertexArray (0);
}

static void
drop_fbo (SequinPreview *self)
{
  if (self->fbo != 0)
    glDeleteFramebuffers (1, &self->fbo);
  if (self->fbo_color != 0)
    glDeleteRenderbuffers (1, &self->fbo_color);
  if (self->fbo_depth != 0)
    glDeleteRenderbuffers (1, &self->fbo_depth);
  self->fbo = self->fbo_color = self->fbo_depth = 0;
  self->fbo_width = self->fbo_height = 0;
}

static void
gl_unrealize (GtkGLArea     *area,
              SequinPreview *self)
{
  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area) == NULL)
    {
      if (self->vbo != 0)
        glDeleteBuffers (1, &self->vbo);
      if (self->vao != 0)
        glDeleteVertexArrays (1, &self->vao);
      if (self->program != 0)
        glDeleteProgram (self->program);
      drop_fbo (self);
    }
  self->vbo = self->vao = self->program = 0;
  self->fbo = self->fbo_color = self->fbo_depth = 0;
  self->no_msaa = FALSE;
}

/* A multisampled framebuffer of the area's size, for smooth edges (GTK
 * 4.8's GtkGLArea has none of its own); FALSE when the driver has none */
static gboolean
ensure_fbo (SequinPreview *self,
            int            width,
            int            height)
{
  GLint max_samples = 0;

  if (self->fbo != 0 && self->fbo_width == width && self->fbo_height == height)
    return TRUE;
  if (self->no_msaa)
    return FALSE;
  drop_fbo (self);
  glGetIntegerv (GL_MAX_SAMPLES, &max_samples);
  if (max_samples < 2)
    {
      self->no_msaa = TRUE;
      return FALSE;
    }
  glGenRenderbuffers (1, &self->fbo_color);
  glBindRenderbuffer (GL_RENDERBUFFER, self->fbo_color);
  glRenderbufferStorageMultisample (GL_RENDERBUFFER, MIN (MSAA_SAMPLES, max_samples), GL_RGBA8, width, height);
  glGenRenderbuffers (1, &self->fbo_depth);
  glBindRenderbuffer (GL_RENDERBUFFER, self->fbo_depth);
  glRenderbufferStorageMultisample (GL_RENDERBUFFER, MIN (MSAA_SAMPLES, max_samples), GL_DEPTH_COMPONENT24,
                                    width, height);
  glGenFramebuffers (1, &self->fbo);
  glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, self->fbo_color);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, self->fbo_depth);
  if (glCheckFramebufferStatus (GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE || glGetError () != GL_NO_ERROR)
    {
      drop_fbo (self);
      self->no_msaa = TRUE;
      return FALSE;
    }
  self->fbo_width = width;
  self->fbo_height = height;
  return TRUE;
}

/* one part of the scene, uploaded after the parts before it */
static void
draw_part (const GArray *part,
           GLenum        mode,
           gsize        *offset)
{
  gsize n = part->len / SEQUIN_MESH_FLOATS;

  if (n == 0)
    return;
  glBufferSubData (GL_ARRAY_BUFFER, *offset * SEQUIN_MESH_FLOATS * sizeof (float),
                   part->len * sizeof (float), part->data);
  glDrawArrays (mode, (GLint) *offset, (GLsizei) n);
  *offset += n;
}

static void
gl_draw_scene (SequinPreview *self,
               int            scale)
{
  Scene *s = &self->scene;
  gsize offset = 0, total = s->grid->len + s->figure->len + s->ghosts->len + s->reference->len + s->trail->len
                            + s->marks->len + s->gizmo->len;

  glBindVertexArray (self->vao);
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo);
  glBufferData (GL_ARRAY_BUFFER, total * sizeof (float), NULL, GL_STREAM_DRAW);
  glUniform1f (self->u_round, 0);
  glUniform1f (self->u_point_size, 1);

  /* the grid under everything; the onion skins seen through, under the
   * figure (where a part has not moved, only the figure shows); the
   * figure solid; the trail over all of it */
  glDisable (GL_DEPTH_TEST);
  draw_part (s->grid, GL_LINES, &offset);
  glDepthMask (GL_FALSE);
  draw_part (s->ghosts, GL_TRIANGLES, &offset);
  draw_part (s->reference, GL_TRIANGLES, &offset);
  glEnable (GL_DEPTH_TEST);
  glDepthMask (GL_TRUE);
  draw_part (s->figure, GL_TRIANGLES, &offset);
  glDisable (GL_DEPTH_TEST);
  draw_part (s->trail, GL_LINES, &offset);
  glUniform1f (self->u_round, 1);
  glUniform1f (self->u_point_size, 6.0f * scale);
  draw_part (s->marks, GL_POINTS, &offset);
  /* the gizmo over all of it */
  glUniform1f (self->u_round, 0);
  draw_part (s->gizmo, GL_TRIANGLES, &offset);
  glBindVertexArray (0);
}

static gboolean
gl_render (GtkGLArea     *area,
           GdkGLContext  *context,
           SequinPreview *self)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (area));
  int width = gtk_widget_get_width (GTK_WIDGET (area)) * scale;
  int height = gtk_widget_get_height (GTK_WIDGET (area)) * scale;
  GLint target = 0;
  gboolean msaa;
  Colors c;
  Mat4 mvp;
  float light[3];

  glClearColor (0, 0, 0, 0);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (self->program == 0 || width <= 0 || height <= 0)
    return TRUE;

  lookup_colors (self, &c);
  build_scene (self, &c);
  mvp = camera_matrix (self, (double) width / height);
  light_direction (self, light);

  /* GtkGLArea's own framebuffer, where the picture must end */
  glGetIntegerv (GL_DRAW_FRAMEBUFFER_BINDING, &target);
  msaa = ensure_fbo (self, width, height);
  if (!msaa)
    glBindFramebuffer (GL_FRAMEBUFFER, (GLuint) target);
  else
    {
      glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);
      glClearColor (0, 0, 0, 0);
      glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    }
  glViewport (0, 0, width, height);
  glEnable (GL_BLEND);
  /* GTK composes the area's pixels as premultiplied alpha */
  glBlendFunc (GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  if (!gdk_gl_context_get_use_es (context))
    glEnable (GL_PROGRAM_POINT_SIZE);
  glUseProgram (self->program);
  glUniformMatrix4fv (self->u_mvp, 1, GL_FALSE, mvp.m);
  glUniform3fv (self->u_light, 1, light);
  gl_draw_scene (self, scale);
  glUseProgram (0);

  if (msaa)
    {
      while (glGetError () != GL_NO_ERROR)
        ;
      glBindFramebuffer (GL_READ_FRAMEBUFFER, self->fbo);
      glBindFramebuffer (GL_DRAW_FRAMEBUFFER, (GLuint) target);
      glBlitFramebuffer (0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
      glBindFramebuffer (GL_FRAMEBUFFER, (GLuint) target);
      /* a driver that cannot resolve into GTK's buffer: draw straight
       * into it from now on */
      if (glGetError () != GL_NO_ERROR)
        {
          g_debug ("multisampled preview not resolved; drawing without it");
          drop_fbo (self);
          self->no_msaa = TRUE;
          gtk_gl_area_queue_render (area);
        }
    }
  glDisable (GL_DEPTH_TEST);
  self->rendered = TRUE;
  return TRUE;
}

/* ---- Cairo fallback ------------------------------------------------------------ */

/* widget coordinates of a view point, and its distance along the view
 * (clip w); FALSE behind the camera */
static gboolean
project (const Mat4   *mvp,
         const float  *v,
         int           width,
         int           height,
         double       *x,
         double       *y,
         double       *depth)
{
  double cx = mvp->m[0] * v[0] + mvp->m[4] * v[1] + mvp->m[8] * v[2] + mvp->m[12];
  double cy = mvp->m[1] * v[0] + mvp->m[5] * v[1] + mvp->m[9] * v[2] + mvp->m[13];
  double cw = mvp->m[3] * v[0] + mvp->m[7] * v[1] + mvp->m[11] * v[2] + mvp->m[15];

  if (cw <= 1e-6)
    return FALSE;
  *x = (cx / cw + 1) * width / 2;
  *y = (1 - cy / cw) * height / 2;
  if (depth != NULL)
    *depth = cw;
  return TRUE;
}

static void
cairo_lines (cairo_t      *cr,
             const GArray *lines,
             const Mat4   *mvp,
             int           width,
             int           height)
{
  const float *v = (const float *) (gpointer) lines->data;

  for (guint i = 0; i + 1 < lines->len / SEQUIN_MESH_FLOATS; i += 2)
    {
      const float *a = v + i * SEQUIN_MESH_FLOATS, *b = a + SEQUIN_MESH_FLOATS;
      double ax, ay, bx, by;

      if (!project (mvp, a, width, height, &ax, &ay, NULL) || !project (mvp, b, width, height, &bx, &by, NULL))
        continue;
      cairo_set_source_rgba (cr, a[6], a[7], a[8], a[9]);
      cairo_move_to (cr, ax, ay);
      cairo_line_to (cr, bx, by);
      cairo_stroke (cr);
    }
}

typedef struct
{
  double depth;
  double x[3], y[3];
  float  rgba[4];
} Face;

static int
far_first (gconstpointer a,
           gconstpointer b)
{
  double da = ((const Face *) a)->depth, db = ((const Face *) b)->depth;

  return da < db ? 1 : da > db ? -1 : 0;
}

/* the triangles of `tris`, lit as the shader lights them, far ones first */
static void
cairo_triangles (cairo_t      *cr,
                 const GArray *tris,
                 const Mat4   *mvp,
                 const float   light[3],
                 int           width,
                 int           height)
{
  const float *v = (const float *) (gpointer) tris->data;
  guint n = tris->len / SEQUIN_MESH_FLOATS / 3, used = 0;
  g_autofree Face *faces = g_new (Face, MAX (n, 1));

  for (guint t = 0; t < n; t++)
    {
      Face *f = &faces[used];
      float normal[3] = { 0, 0, 0 }, len, shade;
      gboolean ok = TRUE;

      f->depth = 0;
      for (int k = 0; k < 3 && ok; k++)
        {
          const float *p = v + (t * 3 + k) * SEQUIN_MESH_FLOATS;
          double d;

          ok = project (mvp, p, width, height, &f->x[k], &f->y[k], &d);
          f->depth += d / 3;
          for (int i = 0; i < 3; i++)
            normal[i] += p[3 + i];
        }
      if (!ok)
        continue;
      len = sqrtf (normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
      for (int i = 0; i < 3 && len > 0; i++)
        normal[i] /= len;
      /* an unlit face (the gizmo) keeps its colour, as in the shader */
      shade = len > 0.5f ? sequin_mesh_shade (normal, light) : 1.0f;
      memcpy (f->rgba, v + t * 3 * SEQUIN_MESH_FLOATS + 6, sizeof f->rgba);
      for (int i = 0; i < 3; i++)
        f->rgba[i] *= shade;
      used++;
    }
  qsort (faces, used, sizeof *faces, far_first);
  cairo_set_line_width (cr, 0.6);
  for (guint i = 0; i < used; i++)
    {
      const Face *f = &faces[i];

      cairo_set_source_rgba (cr, f->rgba[0], f->rgba[1], f->rgba[2], f->rgba[3]);
      cairo_move_to (cr, f->x[0], f->y[0]);
      cairo_line_to (cr, f->x[1], f->y[1]);
      cairo_line_to (cr, f->x[2], f->y[2]);
      cairo_close_path (cr);
      /* an opaque face's edge drawn too, so no seams show between faces */
      if (f->rgba[3] >= 1)
        {
          cairo_fill_preserve (cr);
          cairo_stroke (cr);
        }
      else
        cairo_fill (cr);
    }
}

void
sequin_preview_draw_cairo (SequinPreview *self,
                           cairo_t       *cr,
                           int            width,
                           int            height)
{
  const float *v;
  Colors c;
  Mat4 mvp;
  float light[3];

  g_return_if_fail (SEQUIN_IS_PREVIEW (self));
  if (width <= 0 || height <= 0)
    return;
  lookup_colors (self, &c);
  build_scene (self, &c);
  mvp = camera_matrix (self, (double) width / height);
  light_direction (self, light);

  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_width (cr, 1);
  cairo_lines (cr, self->scene.grid, &mvp, width, height);
  cairo_triangles (cr, self->scene.ghosts, &mvp, light, width, height);
  cairo_triangles (cr, self->scene.reference, &mvp, light, width, height);
  cairo_triangles (cr, self->scene.figure, &mvp, light, width, height);
  cairo_set_line_width (cr, 1.5);
  cairo_lines (cr, self->scene.trail, &mvp, width, height);
  v = (const float *) (gpointer) self->scene.marks->data;
  for (guint i = 0; i < self->scene.marks->len / SEQUIN_MESH_FLOATS; i++)
    {
      const float *a = v + i * SEQUIN_MESH_FLOATS;
      double ax, ay;

      if (!project (&mvp, a, width, height, &ax, &ay, NULL))
        continue;
      cairo_set_source_rgba (cr, a[6], a[7], a[8], a[9]);
      cairo_arc (cr, ax, ay, 3, 0, 2 * G_PI);
      cairo_fill (cr);
    }
  cairo_triangles (cr, self->scene.gizmo, &mvp, light, width, height);
}

static void
fallback_draw (GtkDrawingArea *area,
               cairo_t        *cr,
               int             width,
               int             height,
               gpointer        user_data)
{
  SequinPreview *self = user_data;

  (void) area;
  sequin_preview_draw_cairo (self, cr, width, height);
  self->rendered = FALSE;
}

static gboolean
use_fallback (gpointer data)
{
  SequinPreview *self = data;

  if (self->gl_area != NULL)
    {
      gtk_widget_set_visible (self->gl_area, FALSE);
      gtk_widget_set_visible (self->fallback, TRUE);
    }
  return G_SOURCE_REMOVE;
}

/* After the area's realize (and ours): GtkGLArea has no notification of
 * its error, so look at it here. No OpenGL: the same picture, drawn by
 * cairo, from the main loop (not while realizing). */
static void
gl_check_error (GtkGLArea     *area,
                SequinPreview *self)
{
  GError *error = gtk_gl_area_get_error (area);

  if (error == NULL)
    return;
  g_debug ("OpenGL preview unavailable (%s); drawing with cairo", error->message);
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, use_fallback, g_object_ref (self), g_object_unref);
}

/* ---- The posing gizmo ------------------------------------------------------------ */

/* The axis rings' radius (the arrows' length) follows the selected
 * joint's bone on the screen: GIZMO_BONE of its longest child bone (half
 * its own bone for a joint without children, a hand or a foot's end),
 * never under GIZMO_MIN_PIXELS (it stays easy to grab) nor over
 * GIZMO_MAX_SHARE of the preview's smaller side (the figure stays seen) */
#define GIZMO_BONE       0.65
#define GIZMO_MIN_PIXELS 14.0
#define GIZMO_MAX_SHARE  0.10
#define GIZMO_ARROW      1.4    /* the arrows' length, of the rings' radius: they reach out one way only */
#define GIZMO_SNAP_DEG   5.0    /* Ctrl: a turn snaps to this */
#define GIZMO_STEP_DEG   1.0    /* an arrow key turns this far (Shift: ten times) */

typedef struct
{
  Mat4   mvp;
  int    width, height;
  double eye[3], forward[3], right[3], up[3];   /* the camera, for rays */
} Projector;

/* the ray under widget point (x, y), as camera_matrix projects */
static void
gizmo_ray (gconstpointer  data,
           double         x,
           double         y,
           double         origin[3],
           double         dir[3])
{
  const Projector *pj = data;
  double t = tan (20.0 * G_PI / 180.0), aspect = (double) pj->width / MAX (pj->height, 1);
  double nx = 2 * x / MAX (pj->width, 1) - 1, ny = 1 - 2 * y / MAX (pj->height, 1);

  for (int i = 0; i < 3; i++)
    {
      origin[i] = pj->eye[i];
      dir[i] = pj->forward[i] + nx * t * aspect * pj->right[i] + ny * t * pj->up[i];
    }
}

static gboolean
gizmo_project (gconstpointer  data,
               const double   p[3],
               double        *x,
               double        *y)
{
  const Projector *pj = data;
  float v[3] = { (float) p[0], (float) p[1], (float) p[2] };

  return project (&pj->mvp, v, pj->width, pj->height, x, y, NULL);
}

/* the mode the selected joint takes: moving only where its world lets it */
static SequinGizmoMode
gizmo_mode_of (SequinPreview *self)
{
  if (self->gizmo_mode == SEQUIN_GIZMO_MOVE && self->clip != NULL && self->selected >= 0
      && sq_posing_joint_moves (self->clip, (gsize) self->selected))
    return SEQUIN_GIZMO_MOVE;
  return SEQUIN_GIZMO_ROTATE;
}

/* metres: the length of the selected joint's bone the gizmo is sized by */
static double
gizmo_bone_length (SequinPreview *self)
{
  const double *at = &self->points[self->selected * 3];
  double longest = 0, own = 0;
  gssize parent = self->parents[self->selected];

  for (gsize i = 0; i < self->n; i++)
    if (self->parents[i] == self->selected && point_finite (&self->points[i * 3]))
      {
        const double *p = &self->points[i * 3];

        longest = MAX (longest, sqrt ((p[0] - at[0]) * (p[0] - at[0]) + (p[1] - at[1]) * (p[1] - at[1])
                                      + (p[2] - at[2]) * (p[2] - at[2])));
      }
  if (longest > 1e-6)
    return longest;
  if (parent >= 0 && (gsize) parent < self->n && point_finite (&self->points[parent * 3]))
    {
      const double *p = &self->points[parent * 3];

      own = sqrt ((p[0] - at[0]) * (p[0] - at[0]) + (p[1] - at[1]) * (p[1] - at[1]) + (p[2] - at[2]) * (p[2] - at[2]));
    }
  return own / 2;
}

/* pixels: the axis rings' radius on the screen (see GIZMO_BONE) */
static double
gizmo_pixels (SequinPreview *self,
              int            width,
              int            height,
              double         pixel)
{
  double most = MAX (GIZMO_MIN_PIXELS, GIZMO_MAX_SHARE * MIN (width, height));

  return CLAMP (GIZMO_BONE * gizmo_bone_length (self) / pixel, GIZMO_MIN_PIXELS, most);
}

/* The gizmo on the selected joint as the widget shows it now; FALSE when
 * there is none (no joint selected, a clip that is not the document's) */
static gboolean
gizmo_frame (SequinPreview *self,
             SequinGizmo   *g,
             Projector     *pj)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self)), height = gtk_widget_get_height (GTK_WIDGET (self));
  double eye[3], forward[3], depth = 0, len = 0;
  const double *at;

  if (!self->show_gizmo || !self->posable || self->clip == NULL || self->selected < 0 || self->points == NULL
      || self->space == NULL || width <= 0 || height <= 0)
    return FALSE;
  at = &self->points[self->selected * 3];
  if (!point_finite (at))
    return FALSE;
  pj->mvp = camera_matrix (self, (double) width / height);
  pj->width = width;
  pj->height = height;
  camera_eye (self, eye);
  for (int i = 0; i < 3; i++)
    {
      forward[i] = self->target[i] - eye[i];
      g->toward[i] = eye[i] - at[i];
      g->centre[i] = at[i];
      len += g->toward[i] * g->toward[i];
    }
  len = sqrt (len);
  if (len < 1e-9)
    return FALSE;
  for (int i = 0; i < 3; i++)
    {
      g->toward[i] /= len;
      depth += (at[i] - eye[i]) * forward[i] / MAX (self->distance, 1e-9);
    }
  if (depth <= 1e-6)
    return FALSE;
  /* the camera's 40° field of view over the widget's height */
  g->pixel = 2 * depth * tan (20.0 * G_PI / 180.0) / height;
  g->mode = gizmo_mode_of (self);
  g->radius = gizmo_pixels (self, width, height, g->pixel) * g->pixel * (g->mode == SEQUIN_GIZMO_MOVE ? GIZMO_ARROW : 1);
  for (int k = 0; k < 3; k++)
    world_axis (self->space, k, g->axes[k]);
  g->project = gizmo_project;
  g->ray = gizmo_ray;
  g->project_data = pj;
  /* the camera's frame, as camera_matrix builds it */
  memcpy (pj->eye, eye, sizeof eye);
  len = sqrt (forward[0] * forward[0] + forward[1] * forward[1] + forward[2] * forward[2]);
  for (int i = 0; i < 3; i++)
    pj->forward[i] = forward[i] / MAX (len, 1e-12);
  len = hypot (pj->forward[0], pj->forward[2]);
  pj->right[0] = len > 1e-9 ? -pj->forward[2] / len : 1;
  pj->right[1] = 0;
  pj->right[2] = len > 1e-9 ? pj->forward[0] / len : 0;
  pj->up[0] = pj->right[1] * pj->forward[2] - pj->right[2] * pj->forward[1];
  pj->up[1] = pj->right[2] * pj->forward[0] - pj->right[0] * pj->forward[2];
  pj->up[2] = pj->right[0] * pj->forward[1] - pj->right[1] * pj->forward[0];
  return TRUE;
}

static void
build_gizmo (SequinPreview *self,
             const Colors  *c,
             GArray        *out)
{
  SequinGizmo g;
  Projector pj;
  int hover = self->gizmo_hover >= 0 ? self->gizmo_hover : self->gizmo_axis;

  if (gizmo_frame (self, &g, &pj))
    sequin_gizmo_build (&g, self->gizmo_active >= 0 ? -1 : hover, self->gizmo_active, c->gizmo, out);
}

/* a view direction on Second Life's axes (the view's x, y, z are its Y, Z, X) */
static void
view_to_sl (const double v[3],
            double       sl[3])
{
  sl[0] = v[2];
  sl[1] = v[0];
  sl[2] = v[1];
}

/* The joint's value `amount` (degrees or metres) along handle `handle`
 * from what it is at the playhead; FALSE when there is no gizmo */
static gboolean
gizmo_value (SequinPreview *self,
             int            handle,
             double         amount,
             double         value[4])
{
  SequinGizmo g;
  Projector pj;
  double dir[3], sl[3];
  gsize j = (gsize) self->selected;
  double t = sq_posing_key_time (self->clip, j, self->time);

  if (!gizmo_frame (self, &g, &pj))
    return FALSE;
  sequin_gizmo_axis (&g, handle, dir);
  if (g.mode == SEQUIN_GIZMO_MOVE)
    for (int i = 0; i < 3; i++)
      dir[i] *= amount;
  view_to_sl (dir, sl);
  if (g.mode == SEQUIN_GIZMO_ROTATE)
    sq_posing_turned (self->clip, self->pose, j, t, sl, amount, value);
  else
    sq_posing_moved (self->clip, self->pose, j, t, sl, value);
  return TRUE;
}

/* the figure with the dragged value in place of the joint's keys */
static void
gizmo_show (SequinPreview *self)
{
  g_autofree double *sl = g_new (double, 3 * self->n);
  SqPoseOverride o = { self->selected, NULL, NULL };

  if (gizmo_mode_of (self) == SEQUIN_GIZMO_ROTATE)
    o.rotation = self->gizmo_value;
  else
    o.position = self->gizmo_value;
  if (!gizmo_value (self, self->gizmo_active, self->gizmo_shown, self->gizmo_value))
    return;
  pose_with (self->pose, self->n, self->clip, self->time, &o, sl, self->points);
  queue_draws (self);
  g_signal_emit (self, signals[GIZMO_CHANGED], 0);
}

/* the figure as the clip has it (a drag let go or cancelled) */
static void
gizmo_restore (SequinPreview *self)
{
  g_autofree double *sl = NULL;

  if (self->clip == NULL || self->n == 0)
    return;
  sl = g_new (double, 3 * self->n);
  pose_at (self, self->clip, self->time, sl, self->points);
  queue_draws (self);
}

static void
gizmo_stop (SequinPreview *self)
{
  gboolean was = self->gizmo_active >= 0;

  self->gizmo_active = -1;
  self->gizmo_amount = self->gizmo_shown = 0;
  if (was)
    g_signal_emit (self, signals[GIZMO_CHANGED], 0);
}

/* hands `edit` to the window (or drops it) */
static void
gizmo_emit (SequinPreview *self,
            SqEdit        *edit)
{
  if (self->edit_func != NULL)
    self->edit_func (self, edit, self->edit_data);
  else
    sq_edit_free (edit);
}

/* One edit of the selected joint: its value `amount` along `handle` */
static void
gizmo_commit (SequinPreview *self,
              int            handle,
              double         amount)
{
  const char *name = self->clip->joints[self->selected].name;
  double value[4];

  if (!gizmo_value (self, handle, amount, value))
    return;
  if (gizmo_mode_of (self) == SEQUIN_GIZMO_ROTATE)
    gizmo_emit (self, sq_edit_set_rotation_new (name, self->time, value));
  else
    gizmo_emit (self, sq_edit_set_position_new (name, self->time, value));
}

int
sequin_preview_gizmo_press (SequinPreview *self,
                            double         x,
                            double         y)
{
  SequinGizmo g;
  Projector pj;
  int handle;

  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), -1);
  self->gizmo_cancelled = FALSE;
  self->gizmo_pressed = FALSE;
  if (!gizmo_frame (self, &g, &pj) || (handle = sequin_gizmo_pick (&g, x, y)) < 0)
    return -1;
  self->gizmo_pressed = TRUE;
  self->gizmo_active = handle;
  self->gizmo_hover = -1;
  self->gizmo_last[0] = x;
  self->gizmo_last[1] = y;
  self->gizmo_amount = self->gizmo_shown = 0;
  gizmo_show (self);
  gizmo_update_actions (self);
  return handle;
}

void
sequin_preview_gizmo_motion (SequinPreview *self,
                             double         x0,
                             double         y0,
                             double         x,
                             double         y,
                             gboolean       snap)
{
  SequinGizmo g;
  Projector pj;

  g_return_if_fail (SEQUIN_IS_PREVIEW (self));
  if (self->gizmo_active < 0 || !gizmo_frame (self, &g, &pj))
    return;
  if (g.mode == SEQUIN_GIZMO_ROTATE)
    {
      /* summed step by step, so a drag may go round more than once */
      self->gizmo_amount += sequin_gizmo_drag (&g, self->gizmo_active, self->gizmo_last[0], self->gizmo_last[1], x, y);
      self->gizmo_shown = snap ? round (self->gizmo_amount / GIZMO_SNAP_DEG) * GIZMO_SNAP_DEG : self->gizmo_amount;
    }
  else
    {
      double step = sq_posing_move_step (self->clip);

      self->gizmo_amount = sequin_gizmo_drag (&g, self->gizmo_active, x0, y0, x, y);
      self->gizmo_shown = snap ? round (self->gizmo_amount / step) * step : self->gizmo_amount;
    }
  self->gizmo_last[0] = x;
  self->gizmo_last[1] = y;
  gizmo_show (self);
}

void
sequin_preview_gizmo_release (SequinPreview *self)
{
  int handle = self->gizmo_active;
  double amount = self->gizmo_shown;

  g_return_if_fail (SEQUIN_IS_PREVIEW (self));
  if (handle < 0)
    return;
  gizmo_stop (self);
  gizmo_update_actions (self);
  if (amount != 0 && self->clip != NULL)
    gizmo_commit (self, handle, amount);
  /* nothing was changed, or the edit was refused: the figure as it was
   * (after an edit, set_clip has posed it again) */
  if (self->clip != NULL && self->gizmo_active < 0)
    gizmo_restore (self);
}

gboolean
sequin_preview_gizmo_cancel (SequinPreview *self)
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), FALSE);
  if (self->gizmo_active >= 0)
    {
      gizmo_stop (self);
      self->gizmo_cancelled = TRUE;
      if (self->drag != NULL)
        gtk_gesture_set_state (self->drag, GTK_EVENT_SEQUENCE_DENIED);
      gizmo_restore (self);
    }
  else if (self->gizmo_axis >= 0)
    self->gizmo_axis = -1;
  else
    return FALSE;
  gizmo_update_actions (self);
  queue_draws (self);
  return TRUE;
}

gboolean
sequin_preview_gizmo_point (SequinPreview *self,
                            int            handle,
                            double         fraction,
                            double        *x,
                            double        *y)
{
  SequinGizmo g;
  Projector pj;

  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), FALSE);
  return gizmo_frame (self, &g, &pj) && sequin_gizmo_point (&g, handle, fraction, x, y);
}

void
sequin_preview_gizmo_step (SequinPreview *self,
                           double         steps)
{
  int handle = self->gizmo_axis;
  SequinGizmoMode mode = gizmo_mode_of (self);

  g_return_if_fail (SEQUIN_IS_PREVIEW (self));
  if (handle < 0 || !self->show_gizmo || self->gizmo_active >= 0 || self->clip == NULL || self->selected < 0 || !self->posable
      || (mode == SEQUIN_GIZMO_MOVE && handle == SEQUIN_GIZMO_VIEW))
    return;
  gizmo_commit (self, handle, steps * (mode == SEQUIN_GIZMO_ROTATE ? GIZMO_STEP_DEG : sq_posing_move_step (self->clip)));
}

gboolean
sequin_preview_get_gizmo_value (SequinPreview *self,
                                gssize        *joint,
                                gboolean      *rotation,
                                double         value[4])
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), FALSE);
  if (self->gizmo_active < 0 || self->selected < 0)
    return FALSE;
  *joint = self->selected;
  *rotation = gizmo_mode_of (self) == SEQUIN_GIZMO_ROTATE;
  memcpy (value, self->gizmo_value, sizeof self->gizmo_value);
  return TRUE;
}

double
sequin_preview_get_gizmo_radius (SequinPreview *self)
{
  SequinGizmo g;
  Projector pj;

  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), 0);
  return gizmo_frame (self, &g, &pj) ? g.radius / g.pixel : 0;
}

gboolean
sequin_preview_gizmo_took_press (SequinPreview *self)
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), FALSE);
  return self->gizmo_pressed;
}

double
sequin_preview_get_gizmo_drag (SequinPreview *self,
                               int           *handle)
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), 0);
  if (handle != NULL)
    *handle = self->gizmo_active;
  return self->gizmo_shown;
}

/* "X", "Y", "Z" or "view" for a handle */
static const char *
handle_name (int handle)
{
  static const char * const names[] = { "X", "Y", "Z" };

  /* TRANSLATORS: the gizmo's free ring, turning about the line of sight */
  return handle >= 0 && handle < 3 ? names[handle] : C_("gizmo axis", "view");
}

/* What the gizmo does now, for its line over the preview (`brief`) and
 * the preview's accessible description */
static char *
gizmo_state_text (SequinPreview *self,
                  gboolean       brief)
{
  gboolean rotate = gizmo_mode_of (self) == SEQUIN_GIZMO_ROTATE;
  const char *mode = rotate ? _("Rotate") : _("Move");

  if (self->gizmo_active >= 0 && rotate)
    /* TRANSLATORS: during a drag of the gizmo: Rotate, the axis, the angle */
    return g_strdup_printf (_("%s about %s: %+.1f°"), mode, handle_name (self->gizmo_active), self->gizmo_shown);
  if (self->gizmo_active >= 0)
    return g_strdup_printf (_("%s along %s: %+.3f m"), mode, handle_name (self->gizmo_active), self->gizmo_shown);
  if (self->gizmo_axis >= 0 && brief)
    /* TRANSLATORS: over the preview: the gizmo's mode, the axis the arrow keys use */
    return g_strdup_printf (_("%s, axis %s: ← → step, Shift ×10, Esc"), mode, handle_name (self->gizmo_axis));
  if (self->gizmo_axis >= 0)
    /* TRANSLATORS: the gizmo's mode and the axis the arrow keys use */
    return g_strdup_printf (_("%s, axis %s: arrow keys step, Shift ten steps, Escape ends"), mode,
                            handle_name (self->gizmo_axis));
  if (brief)
    /* TRANSLATORS: over the preview: the gizmo's mode, no axis chosen */
    return g_strdup_printf (_("%s (R rotate, G move, X Y Z V axis)"), mode);
  /* TRANSLATORS: the gizmo's mode when no axis is chosen */
  return g_strdup_printf (_("%s: drag a ring or arrow; X, Y, Z or V choose an axis for the arrow keys"), mode);
}

static void
gizmo_update_actions (SequinPreview *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean shown = self->show_gizmo && self->posable && self->clip != NULL && self->selected >= 0;
  gboolean move = gizmo_mode_of (self) == SEQUIN_GIZMO_MOVE;
  g_autofree char *state = shown ? gizmo_state_text (self, FALSE) : NULL;
  g_autofree char *description = NULL;

  gtk_widget_action_set_enabled (widget, "preview.gizmo-step",
                                 shown && self->gizmo_axis >= 0 && self->gizmo_active < 0
                                 && !(move && self->gizmo_axis == SEQUIN_GIZMO_VIEW));
  gtk_widget_action_set_enabled (widget, "preview.gizmo-cancel", self->gizmo_active >= 0 || self->gizmo_axis >= 0);
  description = g_strdup_printf ("%s%s%s",
                                 _("The skeleton posed at the playhead. Arrow keys turn the view, plus and minus zoom, Home shows the whole figure, O shows onion skins, T the selected joint's trail, H the gizmo. R rotates the selected joint, G moves it."),
                                 state != NULL ? " " : "", state != NULL ? state : "");
  /* told only when it changes (this runs at every frame of playback) */
  if (g_strcmp0 (description, self->description) != 0)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
      g_free (self->description);
      self->description = g_steal_pointer (&description);
    }
}

void
sequin_preview_set_gizmo_mode (SequinPreview   *self,
                               SequinGizmoMode  mode)
{
  g_return_if_fail (SEQUIN_IS_PREVIEW (self));
  if (self->gizmo_active >= 0)
    return;
  self->gizmo_mode = mode;
  gizmo_update_actions (self);
  queue_draws (self);
}

SequinGizmoMode
sequin_preview_get_gizmo_mode (SequinPreview *self)
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), SEQUIN_GIZMO_ROTATE);
  return gizmo_mode_of (self);
}

void
sequin_preview_set_gizmo_axis (SequinPreview *self,
                               int            axis)
{
  g_return_if_fail (SEQUIN_IS_PREVIEW (self));
  self->gizmo_axis = axis >= 0 && axis < SEQUIN_GIZMO_N_HANDLES ? axis : -1;
  gizmo_update_actions (self);
  queue_draws (self);
}

int
sequin_preview_get_gizmo_axis (SequinPreview *self)
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), -1);
  return self->gizmo_axis;
}

void
sequin_preview_set_posable (SequinPreview         *self,
                            gboolean               posable,
                            SequinPreviewEditFunc  func,
                            gpointer               data)
{
  g_return_if_fail (SEQUIN_IS_PREVIEW (self));
  if (!posable && self->gizmo_active >= 0)
    {
      gizmo_stop (self);
      gizmo_restore (self);
    }
  self->posable = posable;
  self->edit_func = func;
  self->edit_data = data;
  gizmo_update_actions (self);
  queue_draws (self);
}

/* the gizmo hidden (a drag in progress given up, as Escape does) or shown */
static void
gizmo_shown_changed (SequinPreview *self)
{
  if (!self->show_gizmo && self->gizmo_active >= 0)
    sequin_preview_gizmo_cancel (self);
  self->gizmo_hover = -1;
  gizmo_update_actions (self);
}

static void
gizmo_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  SequinPreview *self = SEQUIN_PREVIEW (widget);

  if (g_str_equal (action_name, "preview.gizmo-mode"))
    sequin_preview_set_gizmo_mode (self, g_str_equal (g_variant_get_string (parameter, NULL), "move")
                                         ? SEQUIN_GIZMO_MOVE : SEQUIN_GIZMO_ROTATE);
  else if (g_str_equal (action_name, "preview.gizmo-axis"))
    sequin_preview_set_gizmo_axis (self, g_variant_get_int32 (parameter));
  else if (g_str_equal (action_name, "preview.gizmo-step"))
    sequin_preview_gizmo_step (self, g_variant_get_double (parameter));
  else if (g_str_equal (action_name, "preview.gizmo-cancel"))
    sequin_preview_gizmo_cancel (self);
}

static void
hover_motion (GtkEventControllerMotion *controller,
              double                    x,
              double                    y,
              SequinPreview            *self)
{
  SequinGizmo g;
  Projector pj;
  int hover = -1;

  (void) controller;
  if (self->gizmo_active >= 0)
    return;
  if (gizmo_frame (self, &g, &pj))
    hover = sequin_gizmo_pick (&g, x, y);
  if (hover != self->gizmo_hover)
    {
      self->gizmo_hover = hover;
      queue_draws (self);
    }
}

static void
hover_leave (GtkEventControllerMotion *controller,
             SequinPreview            *self)
{
  (void) controller;
  if (self->gizmo_hover >= 0)
    {
      self->gizmo_hover = -1;
      queue_draws (self);
    }
}

/* ---- Axis letters and the legend -------------------------------------------------- */

static void
draw_text (GtkSnapshot   *snapshot,
           PangoLayout   *layout,
           double         x,
           double         y,
           const GdkRGBA *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) x, (float) y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

/* "X forward · Y left · Z up" for the world's axes */
static char *
axes_text (const SqSpace *space)
{
  /* Translators: the directions of a world's axes, as the avatar faces */
  const char *names[3][2] = { { NC_("direction", "forward"), NC_("direction", "back") },
                              { NC_("direction", "left"), NC_("direction", "right") },
                              { NC_("direction", "up"), NC_("direction", "down") } };
  GString *s = g_string_new (NULL);

  for (int k = 0; k < 3; k++)
    g_string_append_printf (s, "%s%c %s", k > 0 ? " · " : "", "XYZ"[k],
                            g_dpgettext2 (GETTEXT_PACKAGE, "direction", names[space->axis[k] % 3][space->sign[k] < 0]));
  return g_string_free (s, FALSE);
}

/* What the gizmo does, laid out where the preview draws it (`box`, widget
 * coordinates): top left, under the ghost's name when comparing, on one
 * or two lines left of the toggles; below them when it does not fit
 * there, wrapped to the preview's width. NULL when there is no gizmo (none selected, or hidden). */
static PangoLayout *
gizmo_line_layout (SequinPreview   *self,
                   graphene_rect_t *box)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self)), tw, th, y;
  g_autofree char *text = NULL;
  PangoLayout *line;
  graphene_rect_t bar;

  if (!self->show_gizmo || !self->posable || self->selected < 0 || self->clip == NULL || width <= 0)
    return NULL;
  text = gizmo_state_text (self, TRUE);
  line = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  pango_layout_get_pixel_size (line, &tw, &th);
  y = self->show_reference && self->ref_points != NULL && self->ref_name != NULL ? 8 + th + 4 : 8;
  if (self->toolbar == NULL || !gtk_widget_get_visible (self->toolbar)
      || !gtk_widget_compute_bounds (self->toolbar, GTK_WIDGET (self), &bar))
    graphene_rect_init (&bar, width, 0, 0, 0);
  if (10 + tw + 12 > bar.origin.x && y < bar.origin.y + bar.size.height + 6 && bar.origin.x - 22 >= 120)
    {
      /* on two lines left of the toggles, when that is enough */
      pango_layout_set_width (line, (int) (bar.origin.x - 22) * PANGO_SCALE);
      pango_layout_set_wrap (line, PANGO_WRAP_WORD_CHAR);
      if (pango_layout_get_line_count (line) <= 2)
        pango_layout_get_pixel_size (line, &tw, &th);
      else
        pango_layout_set_width (line, -1);
    }
  if (10 + tw + 12 > bar.origin.x && y < bar.origin.y + bar.size.height + 6)
    {
      y = (int) ceil (bar.origin.y + bar.size.height) + 6;
      if (width > 60)
        {
          pango_layout_set_width (line, (width - 20) * PANGO_SCALE);
          pango_layout_set_wrap (line, PANGO_WRAP_WORD_CHAR);
        }
      pango_layout_get_pixel_size (line, &tw, &th);
    }
  graphene_rect_init (box, 10, y, tw, th);
  return line;
}

gboolean
sequin_preview_get_gizmo_line (SequinPreview   *self,
                               graphene_rect_t *box)
{
  g_autoptr(PangoLayout) line = NULL;

  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), FALSE);
  line = gizmo_line_layout (self, box);
  return line != NULL;
}

static void
snapshot_labels (SequinPreview *self,
                 GtkSnapshot   *snapshot)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self)), height = gtk_widget_get_height (GTK_WIDGET (self));
  double step = self->grid_step > 0 ? self->grid_step : 0.5, origin[3] = { 0, self->floor_y, 0 };
  const char *unit;
  g_autofree char *axes = NULL, *legend = NULL;
  g_autoptr(PangoLayout) layout = NULL, line = NULL;
  graphene_rect_t box;
  Colors c;
  Mat4 mvp;

  if (self->space == NULL || self->n == 0 || width <= 0 || height <= 0)
    return;
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  lookup_colors (self, &c);
  mvp = camera_matrix (self, (double) width / height);
  for (int k = 0; k < 3; k++)
    {
      double dir[3], x, y;
      float tip[3];
      char letter[2] = { "XYZ"[k], 0 };
      GdkRGBA color = { c.axis[k][0], c.axis[k][1], c.axis[k][2], 1 };
      g_autoptr(PangoLayout) l = gtk_widget_create_pango_layout (GTK_WIDGET (self), letter);

      world_axis (self->space, k, dir);
      for (int i = 0; i < 3; i++)
        tip[i] = (float) (origin[i] + dir[i] * step * 2.25);
      if (project (&mvp, tip, width, height, &x, &y, NULL))
        draw_text (snapshot, l, x - 4, y - 8, &color);
    }

  axes = axes_text (self->space);
  unit = unit_name (self->space);
  if (unit != NULL)
    /* Translators: the legend under the preview: grid square size and unit, the world's axes, its name */
    legend = g_strdup_printf (_("Grid %g %s\n%s (%s)"), step / self->space->metres_per_unit, unit, axes,
                              g_dgettext (GETTEXT_PACKAGE, self->space->world));
  else
    legend = g_strdup_printf (_("Grid %g units of %g m\n%s (%s)"), step / self->space->metres_per_unit,
                              self->space->metres_per_unit, axes, g_dgettext (GETTEXT_PACKAGE, self->space->world));
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), legend);
  {
    GdkRGBA dim = c.fg;
    int lw, lh;

    /* bottom left, clear of the toggles at the top right */
    dim.alpha = 0.75f;
    pango_layout_get_pixel_size (layout, &lw, &lh);
    draw_text (snapshot, layout, 10, height - lh - 8, &dim);
  }
  if (sequin_preview_get_trail_hint (self) != NULL)
    {
      /* the selected joint (the root, at first) stays about in place: its
       * trail would hide under the figure */
      g_autoptr(PangoLayout) hint = gtk_widget_create_pango_layout (GTK_WIDGET (self), sequin_preview_get_trail_hint (self));
      GdkRGBA color = { c.trail[0], c.trail[1], c.trail[2], 1 };
      int hw, hh;

      pango_layout_get_pixel_size (hint, &hw, &hh);
      draw_text (snapshot, hint, 10, height - hh - 8 - 44, &color);
    }
  line = gizmo_line_layout (self, &box);
  if (line != NULL)
    {
      GdkRGBA color = c.fg;

      gboolean dark = 0.299 * c.fg.red + 0.587 * c.fg.green + 0.114 * c.fg.blue > 0.5;
      GdkRGBA back = { dark ? 0 : 1, dark ? 0 : 1, dark ? 0 : 1, 0.6f };

      if (self->gizmo_active >= 0 && self->gizmo_active < 3)
        color = (GdkRGBA) { c.axis[self->gizmo_active][0], c.axis[self->gizmo_active][1],
                            c.axis[self->gizmo_active][2], 1 };
      /* readable where it crosses the figure */
      gtk_snapshot_append_color (snapshot, &back,
                                 &GRAPHENE_RECT_INIT (box.origin.x - 4, box.origin.y - 1,
                                                      box.size.width + 8, box.size.height + 2));
      draw_text (snapshot, line, box.origin.x, box.origin.y, &color);
    }
  if (self->show_reference && self->ref_points != NULL && self->ref_name != NULL)
    {
      /* TRANSLATORS: over the preview: %s is the file compared with, drawn see-through */
      g_autofree char *text = g_strdup_printf (_("Ghost: %s"), self->ref_name);
      g_autoptr(PangoLayout) ghost = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      GdkRGBA color = { c.reference[0], c.reference[1], c.reference[2], 1 };

      /* top left, clear of the toggles at the top right */
      draw_text (snapshot, ghost, 10, 8, &color);
    }
  gtk_snapshot_pop (snapshot);
}

static void
sequin_preview_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  SequinPreview *self = SEQUIN_PREVIEW (widget);
  int height = gtk_widget_get_height (widget);

  if (self->auto_frame && height != self->framed_height)
    frame_below_toolbar (self, height);
  gtk_widget_snapshot_child (widget, self->gl_area, snapshot);
  gtk_widget_snapshot_child (widget, self->fallback, snapshot);
  snapshot_labels (self, snapshot);
  gtk_widget_snapshot_child (widget, self->toolbar, snapshot);
}

/* ---- Input ---------------------------------------------------------------------- */

/* a press on the gizmo drags it; elsewhere the camera turns */
static void
drag_begin (GtkGestureDrag *gesture,
            double          x,
            double          y,
            SequinPreview  *self)
{
  (void) gesture;
  self->drag_yaw = self->yaw;
  self->drag_pitch = self->pitch;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  sequin_preview_gizmo_press (self, x, y);
}

static void
drag_update (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             SequinPreview  *self)
{
  double x0, y0;

  if (self->gizmo_cancelled)
    return;
  if (self->gizmo_active >= 0)
    {
      GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

      gtk_gesture_drag_get_start_point (gesture, &x0, &y0);
      sequin_preview_gizmo_motion (self, x0, y0, x0 + dx, y0 + dy, (state & GDK_CONTROL_MASK) != 0);
      return;
    }
  set_camera (self, self->drag_yaw - dx * 0.01, self->drag_pitch + dy * 0.01, self->distance);
}

/* letting go of the gizmo makes the one edit */
static void
drag_end (GtkGestureDrag *gesture,
          double          dx,
          double          dy,
          SequinPreview  *self)
{
  (void) gesture; (void) dx; (void) dy;
  self->gizmo_cancelled = FALSE;
  sequin_preview_gizmo_release (self);
}

static gboolean
scroll (GtkEventControllerScroll *controller,
        double                    dx,
        double                    dy,
        SequinPreview            *self)
{
  (void) controller; (void) dx;
  set_camera (self, self->yaw, self->pitch, self->distance * pow (1.15, dy));
  return TRUE;
}

static void
pressed (GtkGestureClick *gesture,
         int              n_press,
         double           x,
         double           y,
         SequinPreview   *self)
{
  (void) gesture; (void) x; (void) y;
  if (n_press == 2)
    sequin_preview_reset_view (self);
}

static void
camera_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SequinPreview *self = SEQUIN_PREVIEW (widget);
  const double step = 10.0 * G_PI / 180.0;

  (void) parameter;
  /* with an axis chosen for the gizmo, the arrow keys step the joint */
  if (self->gizmo_axis >= 0 && self->show_gizmo && g_str_has_prefix (action_name, "preview.turn-"))
    {
      sequin_preview_gizmo_step (self, g_str_equal (action_name, "preview.turn-left")
                                       || g_str_equal (action_name, "preview.turn-down") ? -1 : 1);
      return;
    }
  if (g_str_equal (action_name, "preview.reset-view"))
    sequin_preview_reset_view (self);
  else if (g_str_equal (action_name, "preview.turn-left"))
    set_camera (self, self->yaw - step, self->pitch, self->distance);
  else if (g_str_equal (action_name, "preview.turn-right"))
    set_camera (self, self->yaw + step, self->pitch, self->distance);
  else if (g_str_equal (action_name, "preview.turn-up"))
    set_camera (self, self->yaw, self->pitch + step, self->distance);
  else if (g_str_equal (action_name, "preview.turn-down"))
    set_camera (self, self->yaw, self->pitch - step, self->distance);
  else if (g_str_equal (action_name, "preview.zoom-in"))
    set_camera (self, self->yaw, self->pitch, self->distance / 1.25);
  else if (g_str_equal (action_name, "preview.zoom-out"))
    set_camera (self, self->yaw, self->pitch, self->distance * 1.25);
}

/* ---- GObject ---------------------------------------------------------------------- */

static void
sequin_preview_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  SequinPreview *self = SEQUIN_PREVIEW (object);

  switch (prop_id)
    {
    case PROP_ONION_SKINS:
      g_value_set_boolean (value, self->show_onion);
      break;
    case PROP_MOTION_TRAIL:
      g_value_set_boolean (value, self->show_trail);
      break;
    case PROP_SHOW_REFERENCE:
      g_value_set_boolean (value, self->show_reference);
      break;
    case PROP_SHOW_GIZMO:
      g_value_set_boolean (value, self->show_gizmo);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sequin_preview_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  SequinPreview *self = SEQUIN_PREVIEW (object);
  gboolean *field;

  switch (prop_id)
    {
    case PROP_ONION_SKINS:
      field = &self->show_onion;
      break;
    case PROP_MOTION_TRAIL:
      field = &self->show_trail;
      break;
    case PROP_SHOW_REFERENCE:
      field = &self->show_reference;
      break;
    case PROP_SHOW_GIZMO:
      field = &self->show_gizmo;
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  if (*field == g_value_get_boolean (value))
    return;
  *field = g_value_get_boolean (value);
  if (prop_id == PROP_SHOW_GIZMO)
    gizmo_shown_changed (self);
  g_object_notify_by_pspec (object, pspec);
  queue_draws (self);
}

static void
sequin_preview_dispose (GObject *object)
{
  SequinPreview *self = SEQUIN_PREVIEW (object);

  g_clear_pointer (&self->gl_area, gtk_widget_unparent);
  g_clear_pointer (&self->fallback, gtk_widget_unparent);
  g_clear_pointer (&self->toolbar, gtk_widget_unparent);
  G_OBJECT_CLASS (sequin_preview_parent_class)->dispose (object);
}

static void
sequin_preview_finalize (GObject *object)
{
  SequinPreview *self = SEQUIN_PREVIEW (object);

  clear_figure (self);
  clear_reference (self);
  g_array_unref (self->scene.grid);
  g_array_unref (self->scene.figure);
  g_array_unref (self->scene.ghosts);
  g_array_unref (self->scene.reference);
  g_array_unref (self->scene.trail);
  g_array_unref (self->scene.marks);
  g_array_unref (self->scene.gizmo);
  g_free (self->description);
  G_OBJECT_CLASS (sequin_preview_parent_class)->finalize (object);
}

static void
sequin_preview_class_init (SequinPreviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const struct { const char *action; guint key; GdkModifierType mods; } keys[] = {
    { "preview.reset-view", GDK_KEY_Home, 0 },
    { "preview.turn-left", GDK_KEY_Left, 0 },
    { "preview.turn-right", GDK_KEY_Right, 0 },
    { "preview.turn-up", GDK_KEY_Up, 0 },
    { "preview.turn-down", GDK_KEY_Down, 0 },
    { "preview.zoom-in", GDK_KEY_plus, 0 },
    { "preview.zoom-in", GDK_KEY_KP_Add, 0 },
    { "preview.zoom-in", GDK_KEY_equal, 0 },
    { "preview.zoom-out", GDK_KEY_minus, 0 },
    { "preview.zoom-out", GDK_KEY_KP_Subtract, 0 },
  };

  /* the gizmo's keys: with an axis chosen (X, Y, Z, V), the arrow keys
   * (camera_action) step the selected joint, Shift+arrows ten steps */
  static const struct { guint key; GdkModifierType mods; double steps; } steps[] = {
    { GDK_KEY_Right, GDK_SHIFT_MASK, 10 }, { GDK_KEY_Up, GDK_SHIFT_MASK, 10 },
    { GDK_KEY_Left, GDK_SHIFT_MASK, -10 }, { GDK_KEY_Down, GDK_SHIFT_MASK, -10 },
  };
  static const struct { guint key; int axis; } axes[] = {
    { GDK_KEY_x, 0 }, { GDK_KEY_y, 1 }, { GDK_KEY_z, 2 }, { GDK_KEY_v, SEQUIN_GIZMO_VIEW },
  };
  /* R (Blender) and E (Godot) rotate, G (Blender) and W (Godot) move */
  static const struct { guint key; const char *mode; } modes[] = {
    { GDK_KEY_r, "rotate" }, { GDK_KEY_e, "rotate" }, { GDK_KEY_g, "move" }, { GDK_KEY_w, "move" },
  };

  gtk_widget_class_install_action (widget_class, "preview.gizmo-step", "d", gizmo_action);
  gtk_widget_class_install_action (widget_class, "preview.gizmo-axis", "i", gizmo_action);
  gtk_widget_class_install_action (widget_class, "preview.gizmo-mode", "s", gizmo_action);
  gtk_widget_class_install_action (widget_class, "preview.gizmo-cancel", NULL, gizmo_action);
  for (gsize i = 0; i < G_N_ELEMENTS (steps); i++)
    gtk_widget_class_add_binding_action (widget_class, steps[i].key, steps[i].mods, "preview.gizmo-step", "d",
                                         steps[i].steps);
  for (gsize i = 0; i < G_N_ELEMENTS (axes); i++)
    gtk_widget_class_add_binding_action (widget_class, axes[i].key, 0, "preview.gizmo-axis", "i", axes[i].axis);
  for (gsize i = 0; i < G_N_ELEMENTS (modes); i++)
    gtk_widget_class_add_binding_action (widget_class, modes[i].key, 0, "preview.gizmo-mode", "s", modes[i].mode);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "preview.gizmo-cancel", NULL);

  object_class->get_property = sequin_preview_get_property;
  object_class->set_property = sequin_preview_set_property;
  object_class->dispose = sequin_preview_dispose;
  object_class->finalize = sequin_preview_finalize;
  widget_class->snapshot = sequin_preview_snapshot;

  properties[PROP_ONION_SKINS] =
    g_param_spec_boolean ("onion-skins", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* the gizmo on the selected joint, and its line over the preview */
  properties[PROP_SHOW_GIZMO] =
    g_param_spec_boolean ("show-gizmo", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MOTION_TRAIL] =
    g_param_spec_boolean ("motion-trail", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* the ghost of the clip compared with, while there is one */
  properties[PROP_SHOW_REFERENCE] =
    g_param_spec_boolean ("show-reference", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  /* a gizmo drag showed another value, or ended */
  signals[GIZMO_CHANGED] = g_signal_new ("gizmo-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 0);

  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      if (i == 0 || !g_str_equal (keys[i].action, keys[i - 1].action))
        gtk_widget_class_install_action (widget_class, keys[i].action, NULL, camera_action);
      gtk_widget_class_add_binding_action (widget_class, keys[i].key, keys[i].mods, keys[i].action, NULL);
    }
  /* O, T and H toggle the onion skins, the trail and the gizmo, as the buttons do */
  gtk_widget_class_install_property_action (widget_class, "preview.onion-skins", "onion-skins");
  gtk_widget_class_install_property_action (widget_class, "preview.motion-trail", "motion-trail");
  gtk_widget_class_install_property_action (widget_class, "preview.show-gizmo", "show-gizmo");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, 0, "preview.onion-skins", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_t, 0, "preview.motion-trail", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_h, 0, "preview.show-gizmo", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "preview");
  /* a group, not an image: its toggles must stay reachable */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static GtkWidget *
toggle_new (const char *label,
            const char *action,
            const char *tooltip)
{
  GtkWidget *button = gtk_toggle_button_new_with_mnemonic (label);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  sequin_set_tooltip (button, tooltip);
  gtk_widget_set_focus_on_click (button, FALSE);
  /* named by its label alone */
  sequin_accessible_single_names (button);
  return button;
}

/* The onion, trail and gizmo toggles, over the preview's top right corner */
static GtkWidget *
toolbar_new (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0), *gizmo;

  gtk_widget_add_css_class (box, "linked");
  gtk_widget_set_halign (box, GTK_ALIGN_END);
  gtk_widget_set_valign (box, GTK_ALIGN_START);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_end (box, 8);
  gtk_box_append (GTK_BOX (box),
                  toggle_new (_("_Onion Skins"), "preview.onion-skins",
                              _("Show the poses at the previous and next key, see-through (O)")));
  gtk_box_append (GTK_BOX (box),
                  toggle_new (_("Motion _Trail"), "preview.motion-trail",
                              _("Show the path of the selected joint through the clip, with a dot at each of its keys (T)")));
  gizmo = toggle_new (_("_Gizmo"), "preview.show-gizmo",
                      _("Show the rings or arrows that pose the selected joint, and what they do (H)"));
  /* named for what it does; its label is what it shows */
  gtk_accessible_update_property (GTK_ACCESSIBLE (gizmo), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Show Gizmo"), -1);
  gtk_box_append (GTK_BOX (box), gizmo);
  return box;
}

static void
sequin_preview_init (SequinPreview *self)
{
  GtkGesture *drag, *click;
  GtkEventController *wheel, *motion;

  self->scene.grid = g_array_new (FALSE, FALSE, sizeof (float));
  self->scene.figure = g_array_new (FALSE, FALSE, sizeof (float));
  self->scene.ghosts = g_array_new (FALSE, FALSE, sizeof (float));
  self->scene.reference = g_array_new (FALSE, FALSE, sizeof (float));
  self->show_reference = TRUE;
  self->ref_selected = -1;
  self->scene.trail = g_array_new (FALSE, FALSE, sizeof (float));
  self->scene.marks = g_array_new (FALSE, FALSE, sizeof (float));
  self->scene.gizmo = g_array_new (FALSE, FALSE, sizeof (float));
  self->show_gizmo = TRUE;
  self->gizmo_axis = -1;
  self->gizmo_hover = -1;
  self->gizmo_active = -1;
  self->selected = -1;
  self->trail_joint = -1;
  self->distance = 4;
  self->grid_step = 0.5;
  self->size = 1.8;
  self->yaw = 30.0 * G_PI / 180.0;
  self->pitch = 15.0 * G_PI / 180.0;
  self->target[1] = 1;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  sequin_set_tooltip (GTK_WIDGET (self),
                               _("Drag to turn around the figure, or a ring or arrow on the selected joint to pose it; scroll to zoom, double-click to see all of it"));
  /* the description, with the gizmo's mode and axis: gizmo_update_actions */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Motion preview"), -1);

  self->gl_area = gtk_gl_area_new ();
  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (self->gl_area), TRUE);
  gtk_gl_area_set_required_version (GTK_GL_AREA (self->gl_area), 3, 2);
  gtk_widget_set_parent (self->gl_area, GTK_WIDGET (self));
  g_signal_connect (self->gl_area, "realize", G_CALLBACK (gl_realize), self);
  g_signal_connect (self->gl_area, "unrealize", G_CALLBACK (gl_unrealize), self);
  g_signal_connect (self->gl_area, "render", G_CALLBACK (gl_render), self);
  g_signal_connect_after (self->gl_area, "realize", G_CALLBACK (gl_check_error), self);

  self->fallback = gtk_drawing_area_new ();
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->fallback), fallback_draw, self, NULL);
  gtk_widget_set_visible (self->fallback, g_getenv ("SEQUIN_PREVIEW_CAIRO") != NULL);
  gtk_widget_set_visible (self->gl_area, g_getenv ("SEQUIN_PREVIEW_CAIRO") == NULL);
  gtk_widget_set_parent (self->fallback, GTK_WIDGET (self));

  self->toolbar = toolbar_new ();
  gtk_widget_set_parent (self->toolbar, GTK_WIDGET (self));

  drag = gtk_gesture_drag_new ();
  self->drag = drag;
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (hover_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (hover_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  wheel = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (wheel, "scroll", G_CALLBACK (scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), wheel);
  gizmo_update_actions (self);
}

GtkWidget *
sequin_preview_new (void)
{
  return g_object_new (SEQUIN_TYPE_PREVIEW, NULL);
}

/* ---- picking (posing) -------------------------------------------------------- */

gssize
sequin_preview_joint_at (SequinPreview *self,
                         double         x,
                         double         y)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self)), height = gtk_widget_get_height (GTK_WIDGET (self));
  double best = 10.0, bone_best = 8.0, px, py, qx, qy;
  gssize found = -1, bone = -1;
  Mat4 mvp;

  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), -1);
  if (self->points == NULL || width <= 0 || height <= 0)
    return -1;
  mvp = camera_matrix (self, (double) width / height);
  for (gsize i = 0; i < self->n; i++)
    {
      float v[3] = { self->points[i * 3], self->points[i * 3 + 1], self->points[i * 3 + 2] };
      gssize p = self->parents[i];
      double d;

      if (!point_finite (&self->points[i * 3]) || !project (&mvp, v, width, height, &px, &py, NULL))
        continue;
      if ((d = hypot (px - x, py - y)) < best)
        {
          best = d;
          found = (gssize) i;
        }
      if (p >= 0 && (gsize) p < self->n && point_finite (&self->points[p * 3]))
        {
          float w[3] = { self->points[p * 3], self->points[p * 3 + 1], self->points[p * 3 + 2] };

          /* a bone is turned by the joint it starts at */
          if (project (&mvp, w, width, height, &qx, &qy, NULL)
              && (d = sequin_segment_distance (x, y, qx, qy, px, py)) < bone_best)
            {
              bone_best = d;
              bone = p;
            }
        }
    }
  return found >= 0 ? found : bone;
}
