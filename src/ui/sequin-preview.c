/* sequin-preview.c: the OpenGL preview of a posed skeleton
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GtkGLArea draws the figure with one small shader (positions and colours
 * per vertex; points and lines). When OpenGL is not available, a cairo
 * drawing area draws the same projection, so the preview never goes blank.
 */
#define G_LOG_DOMAIN "sequin-preview"

#include "config.h"

#include <epoxy/gl.h>
#include <glib/gi18n.h>
#include <math.h>

#include "sequin-preview.h"

#define FLOATS_PER_VERTEX 7     /* x, y, z, r, g, b, a */

struct _SequinPreview
{
  GtkWidget  parent_instance;

  GtkWidget *gl_area;
  GtkWidget *fallback;          /* cairo, when OpenGL fails */

  gsize      n;
  gssize    *parents;
  double    *points;            /* 3 per joint */
  gssize     selected;

  /* camera */
  double     target[3];
  double     yaw, pitch;        /* radians */
  double     distance;
  double     floor_y;
  double     grid_step;
  double     drag_yaw, drag_pitch;
  gboolean   framed;            /* the camera has been fitted to a figure */

  /* GL objects */
  GLuint     program;
  GLuint     vao;
  GLuint     vbo;
  GLint      u_mvp;
  GLint      u_point_size;
  GLint      u_round;
  gboolean   rendered;

  GArray    *vertices;          /* float */
};

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

void
sequin_preview_reset_view (SequinPreview *self)
{
  double lo[3] = { 0, 0, 0 }, hi[3] = { 0, 0, 0 }, size;

  g_return_if_fail (SEQUIN_IS_PREVIEW (self));

  for (gsize i = 0; i < self->n; i++)
    for (int a = 0; a < 3; a++)
      {
        double v = self->points[i * 3 + a];
        if (!isfinite (v))
          continue;
        if (i == 0 || v < lo[a])
          lo[a] = v;
        if (i == 0 || v > hi[a])
          hi[a] = v;
      }
  size = MAX (MAX (hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);
  if (!(size > 1e-6))
    size = 1.0;
  for (int a = 0; a < 3; a++)
    self->target[a] = (lo[a] + hi[a]) / 2;
  self->floor_y = lo[1];
  self->grid_step = pow (10, floor (log10 (size))) / 2;
  self->yaw = 30.0 * G_PI / 180.0;
  self->pitch = 15.0 * G_PI / 180.0;
  self->distance = size * 2.2;
  self->framed = self->n > 0;
  gtk_widget_queue_draw (self->gl_area);
  gtk_widget_queue_draw (self->fallback);
}

static void
set_camera (SequinPreview *self,
            double         yaw,
            double         pitch,
            double         distance)
{
  self->yaw = fmod (yaw, 2 * G_PI);
  self->pitch = CLAMP (pitch, -85.0 * G_PI / 180.0, 85.0 * G_PI / 180.0);
  if (isfinite (distance))
    self->distance = CLAMP (distance, 0.05, 1e5);
  gtk_widget_queue_draw (self->gl_area);
  gtk_widget_queue_draw (self->fallback);
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

gboolean
sequin_preview_has_rendered (SequinPreview *self)
{
  g_return_val_if_fail (SEQUIN_IS_PREVIEW (self), FALSE);
  return self->rendered;
}

/* ---- Figure ------------------------------------------------------------------ */

void
sequin_preview_set_figure (SequinPreview *self,
                           gsize          n,
                           const gssize  *parents,
                           const double  *points,
                           gssize         selected)
{
  g_return_if_fail (SEQUIN_IS_PREVIEW (self));

  g_clear_pointer (&self->parents, g_free);
  g_clear_pointer (&self->points, g_free);
  self->n = n;
  self->selected = selected;
  if (n > 0)
    {
      self->parents = g_memdup2 (parents, n * sizeof *parents);
      self->points = g_memdup2 (points, n * 3 * sizeof *points);
    }
  if (n == 0)
    self->framed = FALSE;
  else if (!self->framed)
    sequin_preview_reset_view (self);
  gtk_widget_queue_draw (self->gl_area);
  gtk_widget_queue_draw (self->fallback);
}

/* ---- Colours ------------------------------------------------------------------ */

typedef struct
{
  GdkRGBA fg, bone, joint, selected, grid, axis_x, axis_z;
} Colors;

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
  gdk_rgba_parse (&c->bone, dark ? "#deddda" : "#3d3846");
  gdk_rgba_parse (&c->joint, dark ? "#62a0ea" : "#1c71d8");
  gdk_rgba_parse (&c->selected, dark ? "#ffa348" : "#e66100");
  c->grid = c->fg;
  c->grid.alpha = 0.15f;
  gdk_rgba_parse (&c->axis_x, "#e01b24");
  gdk_rgba_parse (&c->axis_z, "#1c71d8");
  c->axis_x.alpha = c->axis_z.alpha = 0.6f;
}

/* ---- Geometry (shared by both renderers) ----------------------------------------- */

static void
push_vertex (GArray        *out,
             const double   p[3],
             const GdkRGBA *color)
{
  float v[FLOATS_PER_VERTEX] = { (float) p[0], (float) p[1], (float) p[2],
                                 color->red, color->green, color->blue, color->alpha };
  g_array_append_vals (out, v, FLOATS_PER_VERTEX);
}

static gboolean
point_finite (const double *p)
{
  return isfinite (p[0]) && isfinite (p[1]) && isfinite (p[2]);
}

/* The floor grid, then the bones, as line pairs; returns the number of
 * grid vertices (drawn before the bones). */
static guint
build_lines (SequinPreview *self,
             const Colors  *c,
             GArray        *out)
{
  double step = self->grid_step > 0 ? self->grid_step : 0.5, half = step * 10;
  guint grid;

  for (int i = -10; i <= 10; i++)
    {
      double a[3] = { self->target[0] + i * step, self->floor_y, self->target[2] - half };
      double b[3] = { self->target[0] + i * step, self->floor_y, self->target[2] + half };
      double d[3] = { self->target[0] - half, self->floor_y, self->target[2] + i * step };
      double e[3] = { self->target[0] + half, self->floor_y, self->target[2] + i * step };
      const GdkRGBA *ca = i == 0 ? &c->axis_z : &c->grid;
      const GdkRGBA *cd = i == 0 ? &c->axis_x : &c->grid;

      push_vertex (out, a, ca);
      push_vertex (out, b, ca);
      push_vertex (out, d, cd);
      push_vertex (out, e, cd);
    }
  grid = out->len / FLOATS_PER_VERTEX;

  for (gsize i = 0; i < self->n; i++)
    {
      gssize p = self->parents[i];

      if (p < 0 || (gsize) p >= self->n)
        continue;
      if (!point_finite (&self->points[i * 3]) || !point_finite (&self->points[p * 3]))
        continue;
      push_vertex (out, &self->points[p * 3], &c->bone);
      push_vertex (out, &self->points[i * 3], &c->bone);
    }
  return grid;
}

static void
build_points (SequinPreview *self,
              const Colors  *c,
              GArray        *out)
{
  for (gsize i = 0; i < self->n; i++)
    if (point_finite (&self->points[i * 3]))
      push_vertex (out, &self->points[i * 3], (gssize) i == self->selected ? &c->selected : &c->joint);
}

/* ---- OpenGL -------------------------------------------------------------------- */

static const char vertex_body[] =
  "in vec3 position;\n"
  "in vec4 color;\n"
  "uniform mat4 mvp;\n"
  "uniform float point_size;\n"
  "out vec4 v_color;\n"
  "void main () {\n"
  "  gl_Position = mvp * vec4 (position, 1.0);\n"
  "  gl_PointSize = point_size;\n"
  "  v_color = color;\n"
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
  const char *sources[2] = { header, body };
  GLint ok = 0;

  glShaderSource (shader, 2, sources, NULL);
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

static void
gl_realize (GtkGLArea     *area,
            SequinPreview *self)
{
  GdkGLContext *context;
  gboolean es;
  GLuint vs, fs;
  GLint ok = 0;
  g_autoptr(GError) error = NULL;

  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area) != NULL)
    return;
  context = gtk_gl_area_get_context (area);
  es = gdk_gl_context_get_use_es (context);

  vs = compile_shader (GL_VERTEX_SHADER, es ? "#version 300 es\n" : "#version 150\n", vertex_body, &error);
  fs = vs == 0 ? 0
       : compile_shader (GL_FRAGMENT_SHADER,
                         es ? "#version 300 es\nprecision mediump float;\n" : "#version 150\n",
                         fragment_body, &error);
  if (fs == 0)
    {
      if (vs != 0)
        glDeleteShader (vs);
      gtk_gl_area_set_error (area, error);
      return;
    }
  self->program = glCreateProgram ();
  glAttachShader (self->program, vs);
  glAttachShader (self->program, fs);
  glBindAttribLocation (self->program, 0, "position");
  glBindAttribLocation (self->program, 1, "color");
  glLinkProgram (self->program);
  glDeleteShader (vs);
  glDeleteShader (fs);
  glGetProgramiv (self->program, GL_LINK_STATUS, &ok);
  if (!ok)
    {
      g_set_error_literal (&error, GDK_GL_ERROR, GDK_GL_ERROR_LINK_FAILED, "the preview's shaders do not link");
      gtk_gl_area_set_error (area, error);
      glDeleteProgram (self->program);
      self->program = 0;
      return;
    }
  self->u_mvp = glGetUniformLocation (self->program, "mvp");
  self->u_point_size = glGetUniformLocation (self->program, "point_size");
  self->u_round = glGetUniformLocation (self->program, "round_points");

  glGenVertexArrays (1, &self->vao);
  glBindVertexArray (self->vao);
  glGenBuffers (1, &self->vbo);
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 3, GL_FLOAT, GL_FALSE, FLOATS_PER_VERTEX * sizeof (float), NULL);
  glEnableVertexAttribArray (1);
  glVertexAttribPointer (1, 4, GL_FLOAT, GL_FALSE, FLOATS_PER_VERTEX * sizeof (float),
                         (void *) (3 * sizeof (float)));
  glBindVertexArray (0);
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
    }
  self->vbo = self->vao = self->program = 0;
}

static gboolean
gl_render (GtkGLArea     *area,
           GdkGLContext  *context,
           SequinPreview *self)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (area));
  int width = gtk_widget_get_width (GTK_WIDGET (area)) * scale;
  int height = gtk_widget_get_height (GTK_WIDGET (area)) * scale;
  Colors c;
  Mat4 mvp;
  guint grid, n_lines;

  (void) context;
  glClearColor (0, 0, 0, 0);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (self->program == 0 || width <= 0 || height <= 0)
    return TRUE;

  lookup_colors (self, &c);
  mvp = camera_matrix (self, (double) width / height);
  g_array_set_size (self->vertices, 0);
  grid = build_lines (self, &c, self->vertices);
  n_lines = self->vertices->len / FLOATS_PER_VERTEX;
  build_points (self, &c, self->vertices);

  glViewport (0, 0, width, height);
  glEnable (GL_BLEND);
  /* GTK composes the area's pixels as premultiplied alpha */
  glBlendFunc (GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  if (!gdk_gl_context_get_use_es (context))
    glEnable (GL_PROGRAM_POINT_SIZE);
  glUseProgram (self->program);
  glUniformMatrix4fv (self->u_mvp, 1, GL_FALSE, mvp.m);
  glBindVertexArray (self->vao);
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo);
  glBufferData (GL_ARRAY_BUFFER, self->vertices->len * sizeof (float), self->vertices->data, GL_STREAM_DRAW);

  glUniform1f (self->u_round, 0);
  glUniform1f (self->u_point_size, 1);
  glLineWidth (1);
  glDrawArrays (GL_LINES, 0, grid);
  /* wide lines are optional in core profiles: the bones may draw 1 px wide */
  glLineWidth (2.0f * scale);
  if (glGetError () != GL_NO_ERROR)
    glLineWidth (1);
  glDrawArrays (GL_LINES, grid, n_lines - grid);
  glUniform1f (self->u_round, 1);
  glUniform1f (self->u_point_size, 7.0f * scale);
  glDrawArrays (GL_POINTS, n_lines, self->vertices->len / FLOATS_PER_VERTEX - n_lines);

  glBindVertexArray (0);
  glUseProgram (0);
  self->rendered = TRUE;
  return TRUE;
}

/* ---- Cairo fallback ------------------------------------------------------------ */

static gboolean
project (const Mat4   *mvp,
         const float  *v,
         int           width,
         int           height,
         double       *x,
         double       *y)
{
  double cx = mvp->m[0] * v[0] + mvp->m[4] * v[1] + mvp->m[8] * v[2] + mvp->m[12];
  double cy = mvp->m[1] * v[0] + mvp->m[5] * v[1] + mvp->m[9] * v[2] + mvp->m[13];
  double cw = mvp->m[3] * v[0] + mvp->m[7] * v[1] + mvp->m[11] * v[2] + mvp->m[15];

  if (cw <= 1e-6)
    return FALSE;
  *x = (cx / cw + 1) * width / 2;
  *y = (1 - cy / cw) * height / 2;
  return TRUE;
}

static void
fallback_draw (GtkDrawingArea *area,
               cairo_t        *cr,
               int             width,
               int             height,
               gpointer        user_data)
{
  SequinPreview *self = user_data;
  Colors c;
  Mat4 mvp;
  guint grid, n_lines, n;
  const float *v;

  (void) area;
  if (width <= 0 || height <= 0)
    return;
  lookup_colors (self, &c);
  mvp = camera_matrix (self, (double) width / height);
  g_array_set_size (self->vertices, 0);
  grid = build_lines (self, &c, self->vertices);
  n_lines = self->vertices->len / FLOATS_PER_VERTEX;
  build_points (self, &c, self->vertices);
  n = self->vertices->len / FLOATS_PER_VERTEX;
  v = (const float *) (gpointer) self->vertices->data;

  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  for (guint i = 0; i + 1 < n_lines; i += 2)
    {
      const float *a = v + i * FLOATS_PER_VERTEX, *b = a + FLOATS_PER_VERTEX;
      double ax, ay, bx, by;

      if (!project (&mvp, a, width, height, &ax, &ay) || !project (&mvp, b, width, height, &bx, &by))
        continue;
      cairo_set_source_rgba (cr, a[3], a[4], a[5], a[6]);
      cairo_set_line_width (cr, i < grid ? 1 : 2.5);
      cairo_move_to (cr, ax, ay);
      cairo_line_to (cr, bx, by);
      cairo_stroke (cr);
    }
  for (guint i = n_lines; i < n; i++)
    {
      const float *a = v + i * FLOATS_PER_VERTEX;
      double ax, ay;

      if (!project (&mvp, a, width, height, &ax, &ay))
        continue;
      cairo_set_source_rgba (cr, a[3], a[4], a[5], a[6]);
      cairo_arc (cr, ax, ay, 3.5, 0, 2 * G_PI);
      cairo_fill (cr);
    }
  self->rendered = FALSE;
}

static void
gl_error_changed (GtkGLArea     *area,
                  GParamSpec    *pspec,
                  SequinPreview *self)
{
  GError *error = gtk_gl_area_get_error (area);

  (void) pspec;
  if (error == NULL)
    return;
  /* no OpenGL here: the same picture, drawn by cairo */
  g_debug ("OpenGL preview unavailable (%s); drawing with cairo", error->message);
  gtk_widget_set_visible (GTK_WIDGET (area), FALSE);
  gtk_widget_set_visible (self->fallback, TRUE);
}

/* ---- Input ---------------------------------------------------------------------- */

static void
drag_begin (GtkGestureDrag *gesture,
            double          x,
            double          y,
            SequinPreview  *self)
{
  (void) gesture; (void) x; (void) y;
  self->drag_yaw = self->yaw;
  self->drag_pitch = self->pitch;
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
drag_update (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             SequinPreview  *self)
{
  (void) gesture;
  set_camera (self, self->drag_yaw - dx * 0.01, self->drag_pitch + dy * 0.01, self->distance);
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
sequin_preview_dispose (GObject *object)
{
  SequinPreview *self = SEQUIN_PREVIEW (object);

  g_clear_pointer (&self->gl_area, gtk_widget_unparent);
  g_clear_pointer (&self->fallback, gtk_widget_unparent);
  G_OBJECT_CLASS (sequin_preview_parent_class)->dispose (object);
}

static void
sequin_preview_finalize (GObject *object)
{
  SequinPreview *self = SEQUIN_PREVIEW (object);

  g_free (self->parents);
  g_free (self->points);
  g_array_unref (self->vertices);
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

  object_class->dispose = sequin_preview_dispose;
  object_class->finalize = sequin_preview_finalize;

  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      if (i == 0 || !g_str_equal (keys[i].action, keys[i - 1].action))
        gtk_widget_class_install_action (widget_class, keys[i].action, NULL, camera_action);
      gtk_widget_class_add_binding_action (widget_class, keys[i].key, keys[i].mods, keys[i].action, NULL);
    }

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "preview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
sequin_preview_init (SequinPreview *self)
{
  GtkGesture *drag, *click;
  GtkEventController *wheel;

  self->vertices = g_array_new (FALSE, FALSE, sizeof (float));
  self->selected = -1;
  self->distance = 4;
  self->grid_step = 0.5;
  self->yaw = 30.0 * G_PI / 180.0;
  self->pitch = 15.0 * G_PI / 180.0;
  self->target[1] = 1;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self),
                               _("Drag to turn around the figure, scroll to zoom, double-click to see all of it"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Motion preview"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("The skeleton posed at the playhead. Arrow keys turn the view, plus and minus zoom, Home shows the whole figure."),
                                  -1);

  self->gl_area = gtk_gl_area_new ();
  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (self->gl_area), FALSE);
  gtk_gl_area_set_required_version (GTK_GL_AREA (self->gl_area), 3, 2);
  gtk_widget_set_parent (self->gl_area, GTK_WIDGET (self));
  g_signal_connect (self->gl_area, "realize", G_CALLBACK (gl_realize), self);
  g_signal_connect (self->gl_area, "unrealize", G_CALLBACK (gl_unrealize), self);
  g_signal_connect (self->gl_area, "render", G_CALLBACK (gl_render), self);
  g_signal_connect (self->gl_area, "notify::error", G_CALLBACK (gl_error_changed), self);

  self->fallback = gtk_drawing_area_new ();
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->fallback), fallback_draw, self, NULL);
  gtk_widget_set_visible (self->fallback, g_getenv ("SEQUIN_PREVIEW_CAIRO") != NULL);
  gtk_widget_set_visible (self->gl_area, g_getenv ("SEQUIN_PREVIEW_CAIRO") == NULL);
  gtk_widget_set_parent (self->fallback, GTK_WIDGET (self));

  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  wheel = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (wheel, "scroll", G_CALLBACK (scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), wheel);
}

GtkWidget *
sequin_preview_new (void)
{
  return g_object_new (SEQUIN_TYPE_PREVIEW, NULL);
}
