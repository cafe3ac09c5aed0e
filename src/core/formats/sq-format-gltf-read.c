/* sq-format-gltf-read.c: glTF 2.0, read (the format is sq-format-gltf.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Any glTF 2.0 skinned animation: the first skin's joints (every node when
 * there is no skin) and their rest transforms become the clip's skeleton,
 * "parent" and "offset" extras as a BVH's, in glTF's axes and metres. The
 * rest rotations are taken into the keys (a joint at rest has the identity,
 * as in BVH), so every world's conversion and the preview see one kind of
 * skeleton; each joint keeps how its bone is turned at rest (GLTF_REST_TURN)
 * for writing glTF again in the file's rest pose. Each animation is a take. LINEAR keys are taken as they are,
 * STEP keys hold their value until the frame before the next key,
 * CUBICSPLINE is sampled at the clip's frame rate; morph-target weights and
 * channels of nodes that are no joint are reported as lost (warnings).
 *
 * The input is untrusted: every index, count, offset and stride is checked
 * before it is used, the buffer is read through SqReader, and errors name
 * what is wrong ("accessor 3: …").
 */
#define G_LOG_DOMAIN "sq-gltf"

#include "config.h"

#include <json-glib/json-glib.h>

#include "sq-format-gltf.h"
#include "sq-math.h"
#include "sq-pose.h"

#define MAX_NODES 65536

typedef struct
{
  JsonObject   *root;
  JsonArray    *nodes, *accessors, *views;
  const guint8 *bin;
  gsize         bin_len;
  GBytes       *bin_bytes;      /* owned: a .gltf's companion or data: URI */
  GBytes       *bin_owner;      /* not owned: the bytes `bin` points into */
} Doc;

#define FAIL(...) G_STMT_START { g_set_error (error, SQ_ERROR, SQ_ERROR_BAD_VALUE, __VA_ARGS__); return FALSE; } G_STMT_END

/* ---- JSON members, type-checked --------------------------------------------- */

static JsonNode *
member (JsonObject *o,
        const char *name)
{
  return o != NULL && json_object_has_member (o, name) ? json_object_get_member (o, name) : NULL;
}

static gboolean
is_number (JsonNode *n)
{
  GType t = n != NULL && JSON_NODE_HOLDS_VALUE (n) ? json_node_get_value_type (n) : G_TYPE_INVALID;
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

/* An integer member in [lo, hi]; `fallback` when absent and not `required` */
static gboolean
get_int (JsonObject *o,
         const char *name,
         gint64      lo,
         gint64      hi,
         gboolean    required,
         gint64      fallback,
         gint64     *out,
         const char *where,
         GError    **error)
{
  JsonNode *n = member (o, name);

  if (n == NULL && !required)
    {
      *out = fallback;
      return TRUE;
    }
  if (n == NULL)
    FAIL (_("%s has no “%s”"), where, name);
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64)
    FAIL (_("%s: “%s” is not a whole number"), where, name);
  *out = json_node_get_int (n);
  if (*out < lo || *out > hi)
    FAIL (_("%s: “%s” is %" PRId64 ", outside %" PRId64 "..%" PRId64),
          where, name, *out, lo, hi);
  return TRUE;
}

static const char *
get_string (JsonObject *o,
            const char *name)
{
  JsonNode *n = member (o, name);

  if (n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
    return json_node_get_string (n);
  return NULL;
}

static JsonArray *
get_array (JsonObject *o,
           const char *name)
{
  JsonNode *n = member (o, name);
  return n != NULL && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
}

static JsonObject *
get_object (JsonObject *o,
            const char *name)
{
  JsonNode *n = member (o, name);
  return n != NULL && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static JsonObject *
array_object (JsonArray *a,
              gint64     i)
{
  JsonNode *n;

  if (a == NULL || i < 0 || (guint64) i >= json_array_get_length (a))
    return NULL;
  n = json_array_get_element (a, (guint) i);
  return JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

/* `count` finite numbers of member `name` into out (left as they are when absent) */
static gboolean
get_numbers (JsonObject *o,
             const char *name,
             guint       count,
             double     *out,
             const char *where,
             GError    **error)
{
  JsonNode *n = member (o, name);
  JsonArray *a;

  if (n == NULL)
    return TRUE;
  a = JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
  if (a == NULL || json_array_get_length (a) != count)
    FAIL (_("%s: “%s” is not %u numbers"), where, name, count);
  for (guint i = 0; i < count; i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      if (!is_number (e) || !isfinite (json_node_get_double (e)))
        FAIL (_("%s: “%s” is not %u numbers"), where, name, count);
      out[i] = json_node_get_double (e);
    }
  return TRUE;
}

/* ---- the container and the buffer -------------------------------------------- */

static guint32
le32 (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

/* GLB: the JSON chunk and the BIN chunk (if any), through the bounds-checked reader */
static gboolean
split_glb (GBytes        *bytes,
           const guint8 **json,
           gsize         *json_len,
           Doc           *doc,
           GError       **error)
{
  SqReader r = { 0 };
  guint32 length, clen, ctype;

  r.data = g_bytes_get_data (bytes, &r.len);
  if (!sq_reader_need (&r, 12, N_("the GLB header"), error))
    return FALSE;
  if (le32 (r.data + 4) != 2)
    {
      sq_set_error_at_offset (error, SQ_ERROR_UNSUPPORTED, 4, _("GLB version %u (Sequin reads version 2)"), le32 (r.data + 4));
      return FALSE;
    }
  length = le32 (r.data + 8);
  /* the length counts the 12 bytes of the header itself: one below put
   * the chunks' start past the end (a read past the file, fuzz-load-gltf) */
  if (length < 12)
    {
      sq_set_error_at_offset (error, SQ_ERROR_BAD_VALUE, 8,
                              _("the GLB header gives a length of %u bytes, less than its own 12"), length);
      return FALSE;
    }
  if (length > r.len)
    {
      sq_set_error_at_offset (error, SQ_ERROR_TRUNCATED, 8, _("the GLB header gives a length of %u bytes, the file has %zu"),
                              length, r.len);
      return FALSE;
    }
  r.len = length;
  r.pos = 12;
  for (guint chunk = 0; sq_reader_left (&r) > 0; chunk++)
    {
      gsize at = r.pos;

      if (!sq_reader_need (&r, 8, N_("a GLB chunk header"), error))
        return FALSE;
      clen = le32 (r.data + r.pos);
      ctype = le32 (r.data + r.pos + 4);
      r.pos += 8;
      if (!sq_reader_need (&r, clen, N_("a GLB chunk"), error))
        return FALSE;
      if (chunk == 0 && ctype != GLTF_CHUNK_JSON)
        {
          sq_set_error_at_offset (error, SQ_ERROR_BAD_VALUE, at + 4, _("the first GLB chunk is not JSON"));
          return FALSE;
        }
      if (chunk == 0)
        *json = r.data + r.pos, *json_len = clen;
      else if (chunk == 1 && ctype == GLTF_CHUNK_BIN)
        doc->bin = r.data + r.pos, doc->bin_len = clen;
      r.pos += clen;
    }
  if (*json == NULL)
    {
      sq_set_error_at_offset (error, SQ_ERROR_TRUNCATED, 12, _("the GLB file has no JSON chunk"));
      return FALSE;
    }
  return TRUE;
}

/* The one buffer: the GLB's BIN chunk, a data: URI or the companion file */
static gboolean
load_buffer (Doc                 *doc,
             const SqLoadOptions *options,
             GError             **error)
{
  JsonArray *buffers = get_array (doc->root, "buffers");
  JsonObject *b;
  const char *uri;
  gint64 len;
  g_autoptr(GError) local = NULL;

  if (buffers == NULL || json_array_get_length (buffers) == 0)
    {
      doc->bin = NULL, doc->bin_len = 0;
      return TRUE;
    }
  if (json_array_get_length (buffers) > 1)
    FAIL (_("the file has %u buffers; Sequin reads files of one"), json_array_get_length (buffers));
  if ((b = array_object (buffers, 0)) == NULL)
    FAIL (_("buffer 0 is not an object"));
  if (!get_int (b, "byteLength", 1, G_MAXINT64, TRUE, 0, &len, _("buffer 0"), error))
    return FALSE;
  uri = get_string (b, "uri");
  if (uri != NULL && g_str_has_prefix (uri, "data:"))
    {
      const char *comma = strchr (uri, ',');
      gsize n = 0;
      guchar *data;

      if (comma == NULL || strstr (uri, ";base64,") == NULL)
        FAIL (_("buffer 0: a data URI that is not base64"));
      data = g_base64_decode (comma + 1, &n);
      doc->bin_bytes = g_bytes_new_take (data, n);
    }
  else if (uri != NULL)
    {
      if (options->companion == NULL)
        FAIL (_("the buffer is in “%s”, and no way to read that file was given"), uri);
      doc->bin_bytes = options->companion (uri, options->companion_data, &local);
      if (doc->bin_bytes == NULL)
        FAIL (_("the buffer is in “%s”: %s"), uri, local != NULL ? local->message : _("the file cannot be read"));
    }
  if (doc->bin_bytes != NULL)
    doc->bin = g_bytes_get_data (doc->bin_bytes, &doc->bin_len);
  if ((guint64) len > doc->bin_len)
    FAIL (_("buffer 0 has a byteLength of %" PRId64 " bytes, but %zu are there"), len, doc->bin_len);
  doc->bin_len = (gsize) len;
  return TRUE;
}

/* ---- accessors -------------------------------------------------------------- */

static guint
type_components (const char *type)
{
  static const char * const names[] = { "SCALAR", "VEC2", "VEC3", "VEC4" };

  for (guint i = 0; type != NULL && i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (type, names[i]))
      return i + 1;
  return 0;
}

/* Accessor `index` of `ncomp` floats an element: its count, where its first
 * element is in the buffer and the bytes from one to the next, every offset,
 * length and stride checked against its buffer view and the buffer and
 * every value checked finite, the bytes read through SqReader (the values
 * stay in the buffer: float32, little-endian) */
static gboolean
read_accessor (const Doc     *doc,
               gint64         index,
               guint          ncomp,
               gsize         *count,
               const guint8 **values,
               gsize         *value_stride,
               GError       **error)
{
  g_autofree char *where = g_strdup_printf (_("accessor %" PRId64), index);
  JsonObject *acc = array_object (doc->accessors, index), *view;
  gint64 vi, ctype, n, aoff, voff, vlen, stride, buffer;
  gsize elem = 4 * ncomp;
  SqReader r = { doc->bin, doc->bin_len, 0 };

  if (acc == NULL)
    FAIL (_("%s does not exist"), where);
  if (!get_int (acc, "componentType", 0, G_MAXINT32, TRUE, 0, &ctype, where, error)
      || !get_int (acc, "count", 1, G_MAXINT32, TRUE, 0, &n, where, error)
      || !get_int (acc, "byteOffset", 0, G_MAXINT32, FALSE, 0, &aoff, where, error)
      || !get_int (acc, "bufferView", 0, G_MAXINT32, TRUE, 0, &vi, where, error))
    return FALSE;
  if (ctype != GLTF_FLOAT)
    FAIL (_("%s: component type %" PRId64 " (Sequin reads 5126, float)"), where, ctype);
  if (type_components (get_string (acc, "type")) != ncomp)
    FAIL (_("%s: type “%s” where %u components are needed"), where, get_string (acc, "type") ? get_string (acc, "type") : "", ncomp);
  if (member (acc, "sparse") != NULL)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_UNSUPPORTED, _("%s is sparse (Sequin does not read sparse accessors)"), where);
      return FALSE;
    }
  if ((view = array_object (doc->views, vi)) == NULL)
    FAIL (_("%s: buffer view %" PRId64 " does not exist"), where, vi);
  if (!get_int (view, "buffer", 0, 0, TRUE, 0, &buffer, where, error)
      || !get_int (view, "byteOffset", 0, G_MAXINT32, FALSE, 0, &voff, where, error)
      || !get_int (view, "byteLength", 1, G_MAXINT32, TRUE, 0, &vlen, where, error)
      || !get_int (view, "byteStride", 4, 252, FALSE, (gint64) elem, &stride, where, error))
    return FALSE;
  if (stride % 4 != 0 || (gsize) stride < elem)
    FAIL (_("%s: byte stride %" PRId64 " for elements of %zu bytes"), where, stride, elem);
  /* all 64-bit: each term is below 2^31, so no sum overflows */
  if ((guint64) voff + (guint64) vlen > doc->bin_len)
    FAIL (_("%s: its buffer view ends at byte %" PRIu64 " of a buffer of %zu"), where,
          (guint64) voff + (guint64) vlen, doc->bin_len);
  if ((guint64) aoff + (guint64) stride * (guint64) (n - 1) + elem > (guint64) vlen)
    FAIL (_("%s: %" PRId64 " elements from byte %" PRId64 " do not fit in its buffer view of %" PRId64 " bytes"),
          where, n, aoff, vlen);
  for (gint64 i = 0; i < n; i++)
    {
      r.pos = (gsize) (voff + aoff + i * stride);
      /* the ncomp floats read (elem is 4 × ncomp) */
      if (!sq_reader_need (&r, elem, N_("an accessor's element"), error))
        return FALSE;
      for (guint c = 0; c < ncomp; c++)
        {
          guint32 bits = le32 (r.data + r.pos + 4 * c);
          float f;
          memcpy (&f, &bits, 4);
          if (!isfinite (f))
            {
              sq_set_error_at_offset (error, SQ_ERROR_BAD_VALUE, r.pos + 4 * c, _("%s: element %" PRId64 " is not a finite number"),
                                      where, i);
              return FALSE;
            }
        }
    }
  *count = (gsize) n;
  *values = doc->bin + voff + aoff;
  *value_stride = (gsize) stride;
  return TRUE;
}

/* ---- nodes: the rest skeleton ------------------------------------------------ */

typedef struct
{
  gsize      n;               /* nodes */
  gint32    *parent;          /* per node, -1 for a root */
  char     **name;            /* per node (NULL when it has none) */
  double   (*t)[3];           /* rest translation */
  double   (*q)[4];           /* rest rotation w, x, y, z */
  double    *s;               /* rest scale (uniform) */
  double   (*gpos)[3];        /* where it is at rest */
  double   (*grot)[4];        /* how it is turned at rest */
  double    *gscale;
  gint32    *joint_of;        /* per node: its clip joint, -1 for none */
} Nodes;

static void
nodes_clear (Nodes *nd)
{
  if (nd->name != NULL)
    for (gsize i = 0; i < nd->n; i++)
      g_free (nd->name[i]);
  g_free (nd->name);
  g_free (nd->parent);
  g_free (nd->t);
  g_free (nd->q);
  g_free (nd->s);
  g_free (nd->gpos);
  g_free (nd->grot);
  g_free (nd->gscale);
  g_free (nd->joint_of);
}

/* A column-major transform matrix as translation, rotation and a uniform scale */
static void
matrix_trs (const double m[16],
            double       t[3],
            double       q[4],
            double      *s)
{
  double r[3][3], sc[3], tr;

  for (int c = 0; c < 3; c++)
    {
      sc[c] = sqrt (m[4 * c] * m[4 * c] + m[4 * c + 1] * m[4 * c + 1] + m[4 * c + 2] * m[4 * c + 2]);
      for (int k = 0; k < 3; k++)
        r[k][c] = sc[c] > 0 ? m[4 * c + k] / sc[c] : (k == c);
      t[c] = m[12 + c];
    }
  *s = (sc[0] + sc[1] + sc[2]) / 3.0;
  tr = r[0][0] + r[1][1] + r[2][2];
  if (tr > 0)
    {
      double w = sqrt (1.0 + tr) * 2;
      q[0] = 0.25 * w, q[1] = (r[2][1] - r[1][2]) / w, q[2] = (r[0][2] - r[2][0]) / w, q[3] = (r[1][0] - r[0][1]) / w;
    }
  else if (r[0][0] > r[1][1] && r[0][0] > r[2][2])
    {
      double w = sqrt (1.0 + r[0][0] - r[1][1] - r[2][2]) * 2;
      q[0] = (r[2][1] - r[1][2]) / w, q[1] = 0.25 * w, q[2] = (r[0][1] + r[1][0]) / w, q[3] = (r[0][2] + r[2][0]) / w;
    }
  else if (r[1][1] > r[2][2])
    {
      double w = sqrt (1.0 + r[1][1] - r[0][0] - r[2][2]) * 2;
      q[0] = (r[0][2] - r[2][0]) / w, q[1] = (r[0][1] + r[1][0]) / w, q[2] = 0.25 * w, q[3] = (r[1][2] + r[2][1]) / w;
    }
  else
    {
      double w = sqrt (1.0 + r[2][2] - r[0][0] - r[1][1]) * 2;
      q[0] = (r[1][0] - r[0][1]) / w, q[1] = (r[0][2] + r[2][0]) / w, q[2] = (r[1][2] + r[2][1]) / w, q[3] = 0.25 * w;
    }
  sq_quat_normalize (q);
}

/* One node's rest transform (TRS or matrix) and its children's parent */
static gboolean
read_node (JsonObject *node,
           gsize       i,
           Nodes      *nd,
           SqClip     *clip,
           GError    **error)
{
  g_autofree char *where = g_strdup_printf (_("node %zu"), i);
  double xyzw[4] = { 0, 0, 0, 1 }, sc[3] = { 1, 1, 1 }, m[16];
  JsonArray *children = get_array (node, "children");
  const char *name = get_string (node, "name");

  if (name != NULL && g_utf8_validate (name, -1, NULL))
    nd->name[i] = g_strdup (name);
  if (member (node, "matrix") != NULL)
    {
      if (!get_numbers (node, "matrix", 16, m, where, error))
        return FALSE;
      matrix_trs (m, nd->t[i], nd->q[i], &nd->s[i]);
    }
  else
    {
      if (!get_numbers (node, "translation", 3, nd->t[i], where, error)
          || !get_numbers (node, "rotation", 4, xyzw, where, error)
          || !get_numbers (node, "scale", 3, sc, where, error))
        return FALSE;
      nd->q[i][0] = xyzw[3], nd->q[i][1] = xyzw[0], nd->q[i][2] = xyzw[1], nd->q[i][3] = xyzw[2];
      if (!(xyzw[0] * xyzw[0] + xyzw[1] * xyzw[1] + xyzw[2] * xyzw[2] + xyzw[3] * xyzw[3] > 1e-12))
        FAIL (_("%s: its rotation has no length"), where);
      sq_quat_normalize (nd->q[i]);
      nd->s[i] = (sc[0] + sc[1] + sc[2]) / 3.0;
      if (fabs (sc[0] - sc[1]) > 1e-4 * fabs (nd->s[i]) || fabs (sc[0] - sc[2]) > 1e-4 * fabs (nd->s[i]))
        sq_clip_add_warning (clip, _("%s: its scale %g, %g, %g is not the same on every axis; Sequin takes %g"),
                             where, sc[0], sc[1], sc[2], nd->s[i]);
    }
  for (guint c = 0; children != NULL && c < json_array_get_length (children); c++)
    {
      JsonNode *e = json_array_get_element (children, c);
      gint64 k = JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_INT64 ? json_node_get_int (e) : -1;

      if (k < 0 || (guint64) k >= nd->n || (gsize) k == i)
        FAIL (_("%s: child %u is not another node"), where, c);
      if (nd->parent[k] >= 0)
        FAIL (_("node %" PRId64 " is a child of node %d and of node %zu"), k, nd->parent[k], i);
      nd->parent[k] = (gint32) i;
    }
  return TRUE;
}

/* Every node's rest transform, and where each is at rest (parents first,
 * a cycle refused) */
static gboolean
read_nodes (const Doc *doc,
            Nodes     *nd,
            SqClip    *clip,
            GError   **error)
{
  gsize n = doc->nodes != NULL ? json_array_get_length (doc->nodes) : 0;
  g_autofree guint8 *done = NULL;
  g_autofree gsize *chain = NULL;

  if (n > MAX_NODES)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_LIMIT_EXCEEDED, _("the file has %zu nodes (Sequin reads up to %d)"), n, MAX_NODES);
      return FALSE;
    }
  nd->n = n;
  nd->parent = g_new (gint32, MAX (n, 1));
  nd->name = g_new0 (char *, MAX (n, 1));
  nd->t = g_malloc0_n (MAX (n, 1), 3 * sizeof (double));
  nd->q = g_malloc0_n (MAX (n, 1), 4 * sizeof (double));
  nd->s = g_new (double, MAX (n, 1));
  nd->gpos = g_malloc0_n (MAX (n, 1), 3 * sizeof (double));
  nd->grot = g_malloc0_n (MAX (n, 1), 4 * sizeof (double));
  nd->gscale = g_new (double, MAX (n, 1));
  nd->joint_of = g_new (gint32, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    nd->parent[i] = nd->joint_of[i] = -1;
  for (gsize i = 0; i < n; i++)
    {
      JsonObject *node = array_object (doc->nodes, (gint64) i);
      if (node == NULL)
        FAIL (_("node %zu is not an object"), i);
      if (!read_node (node, i, nd, clip, error))
        return FALSE;
    }
  done = g_new0 (guint8, MAX (n, 1));
  chain = g_new (gsize, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    {
      gsize len = 0, k = i;

      while (!done[k])
        {
          if (len == n)
            FAIL (_("the node hierarchy has a cycle through node %zu"), i);
          chain[len++] = k;
          if (nd->parent[k] < 0)
            break;
          k = (gsize) nd->parent[k];
        }
      while (len > 0)
        {
          gsize c = chain[--len];
          gint32 p = nd->parent[c];

          if (p < 0)
            {
              memcpy (nd->gpos[c], nd->t[c], sizeof nd->gpos[c]);
              memcpy (nd->grot[c], nd->q[c], sizeof nd->grot[c]);
              nd->gscale[c] = nd->s[c];
            }
          else
            {
              double v[3];
              sq_quat_rotate (nd->grot[p], nd->t[c], v);
              for (int a = 0; a < 3; a++)
                nd->gpos[c][a] = nd->gpos[p][a] + nd->gscale[p] * v[a];
              sq_quat_multiply (nd->grot[p], nd->q[c], nd->grot[c]);
              nd->gscale[c] = nd->gscale[p] * nd->s[c];
            }
          done[c] = 1;
        }
    }
  return TRUE;
}

/* ---- joints ----------------------------------------------------------------- */

/* The skin's joints (every node without a skin), as node indices */
static GArray *
skin_joints (const Doc   *doc,
             const Nodes *nd,
             SqClip      *clip,
             GError     **error)
{
  JsonArray *skins = get_array (doc->root, "skins");
  JsonObject *skin = array_object (skins, 0);
  JsonArray *joints = skin != NULL ? get_array (skin, "joints") : NULL;
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autofree guint8 *seen = g_new0 (guint8, MAX (nd->n, 1));

  if (skins != NULL && json_array_get_length (skins) > 1)
    sq_clip_add_warning (clip, _("the file has %u skins; Sequin reads the first"), json_array_get_length (skins));
  if (skins != NULL && json_array_get_length (skins) > 0 && joints == NULL)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_BAD_VALUE, _("skin 0 has no joints"));
      return NULL;
    }
  if (joints == NULL)
    {
      for (gsize i = 0; i < nd->n; i++)
        {
          gint32 k = (gint32) i;
          g_array_append_val (out, k);
        }
      return g_steal_pointer (&out);
    }
  for (guint i = 0; i < json_array_get_length (joints); i++)
    {
      JsonNode *e = json_array_get_element (joints, i);
      gint64 k = JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_INT64 ? json_node_get_int (e) : -1;
      gint32 k32 = (gint32) k;

      if (k < 0 || (guint64) k >= nd->n)
        {
          g_set_error (error, SQ_ERROR, SQ_ERROR_BAD_VALUE, _("skin 0: joint %u is not a node"), i);
          return NULL;
        }
      if (seen[k]++)
        {
          g_set_error (error, SQ_ERROR, SQ_ERROR_BAD_VALUE, _("skin 0: node %" PRId64 " is a joint twice"), k);
          return NULL;
        }
      g_array_append_val (out, k32);
    }
  return g_steal_pointer (&out);
}

/* The joints in the order a Sequin file lists them for the take, when
 * every name it lists is a skin joint's; NULL otherwise */
static GArray *
listed_joints (JsonObject   *sequin,
               const Nodes  *nd,
               const GArray *skin)
{
  JsonArray *list = get_array (sequin, "joints");
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (gint32));

  if (list == NULL)
    return NULL;
  for (guint i = 0; i < skin->len; i++)
    {
      gint32 k = g_array_index (skin, gint32, i);
      if (nd->name[k] != NULL && !g_hash_table_contains (by_name, nd->name[k]))
        g_hash_table_insert (by_name, nd->name[k], GINT_TO_POINTER (k + 1));
    }
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      const char *name = get_string (array_object (list, i), "name");
      gint32 k = name != NULL ? GPOINTER_TO_INT (g_hash_table_lookup (by_name, name)) - 1 : -1;

      if (k < 0)
        return NULL;
      g_hash_table_remove (by_name, name);
      g_array_append_val (out, k);
    }
  return g_steal_pointer (&out);
}

/* The clip's joints: named as their nodes (unnamed or repeated names made
 * unique), each with "parent" (the nearest joint above it) and "offset"
 * (from that joint at rest, in the unturned frame: glTF axes, metres) */
static void
add_joints (SqClip       *clip,
            Nodes        *nd,
            const GArray *list)
{
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < list->len; i++)
    nd->joint_of[g_array_index (list, gint32, i)] = (gint32) i;
  for (guint i = 0; i < list->len; i++)
    {
      gint32 k = g_array_index (list, gint32, i), p = nd->parent[k];
      g_autofree char *name = nd->name[k] != NULL ? g_strdup (nd->name[k]) : g_strdup_printf ("node %d", k);
      SqJoint *joint;
      double off[3];

      while (p >= 0 && nd->joint_of[p] < 0)
        p = nd->parent[p];
      if (g_hash_table_contains (used, name))
        {
          char *unique = g_strdup_printf ("%s (node %d)", name, k);
          sq_clip_add_warning (clip, _("two joints are named “%s”; node %d is read as “%s”"), name, k, unique);
          g_free (name);
          name = unique;
        }
      g_hash_table_add (used, g_strdup (name));
      joint = sq_clip_add_joint (clip, name);
      for (int a = 0; a < 3; a++)
        off[a] = nd->gpos[k][a] - (p >= 0 ? nd->gpos[p][a] : 0.0);
      sq_props_set (joint->extra, "parent", g_variant_new_int32 (p >= 0 ? nd->joint_of[p] : -1));
      sq_props_set (joint->extra, "offset", g_variant_new ("(ddd)", off[0], off[1], off[2]));
      /* how the bone is turned at rest (the keys are taken from it), kept
       * for the skeleton: a glTF written again has the file's rest pose */
      if (fabs (fabs (nd->grot[k][0]) - 1.0) > 1e-9)
        sq_props_set (joint->extra, GLTF_REST_TURN,
                      g_variant_new ("(dddd)", nd->grot[k][0], nd->grot[k][1], nd->grot[k][2], nd->grot[k][3]));
    }
}

/* The End Sites Sequin wrote (a node under a joint, marked in its extras)
 * back on their joints, from the joint at rest in the unturned frame */
static void
add_end_sites (const Doc    *doc,
               const Nodes  *nd,
               SqClip       *clip)
{
  for (gsize i = 0; i < nd->n; i++)
    {
      JsonObject *node = array_object (doc->nodes, (gint64) i);
      JsonObject *sequin = get_object (get_object (node, "extras"), "sequin");
      JsonNode *flag = sequin != NULL ? member (sequin, "end-site") : NULL;
      gint32 p = nd->parent[i];
      double e[3];

      if (flag == NULL || !JSON_NODE_HOLDS_VALUE (flag) || json_node_get_value_type (flag) != G_TYPE_BOOLEAN
          || !json_node_get_boolean (flag) || nd->joint_of[i] >= 0 || p < 0 || nd->joint_of[p] < 0)
        continue;
      for (int a = 0; a < 3; a++)
        e[a] = nd->gpos[i][a] - nd->gpos[p][a];
      sq_props_set (clip->joints[nd->joint_of[p]].extra, "end-site", g_variant_new ("(ddd)", e[0], e[1], e[2]));
    }
}

/* ---- channels --------------------------------------------------------------- */

enum { INTERP_LINEAR, INTERP_STEP, INTERP_CUBIC };

typedef struct
{
  gint32  joint;
  guint   path;          /* SqChannel */
  guint   interp;
  gsize   n;             /* keys */
  /* in the buffer, float32 little-endian, checked finite: a time an element,
   * ncomp values an element (three elements a key for CUBICSPLINE) */
  const guint8 *times, *values;
  gsize   t_stride, v_stride;
} Channel;

static inline float
f32_at (const guint8 *p)
{
  guint32 bits = le32 (p);
  float f;

  memcpy (&f, &bits, 4);
  return f;
}

/* Time `k` of a channel */
static inline float
ch_time (const Channel *ch,
         gsize          k)
{
  return f32_at (ch->times + k * ch->t_stride);
}

/* Component `c` of value element `e` of a channel */
static inline float
ch_value (const Channel *ch,
          gsize          e,
          guint          c)
{
  return f32_at (ch->values + e * ch->v_stride + 4 * c);
}

static gboolean
read_sampler (const Doc  *doc,
              JsonObject *sampler,
              gint64      si,
              Channel    *ch,
              GError    **error)
{
  g_autofree char *where = g_strdup_printf (_("sampler %" PRId64), si);
  const char *interp = get_string (sampler, "interpolation");
  guint ncomp = ch->path == SQ_CHANNEL_ROTATION ? 4 : 3;
  gint64 in, out;
  gsize n_out = 0;

  if (!get_int (sampler, "input", 0, G_MAXINT32, TRUE, 0, &in, where, error)
      || !get_int (sampler, "output", 0, G_MAXINT32, TRUE, 0, &out, where, error))
    return FALSE;
  if (interp == NULL || g_str_equal (interp, "LINEAR"))
    ch->interp = INTERP_LINEAR;
  else if (g_str_equal (interp, "STEP"))
    ch->interp = INTERP_STEP;
  else if (g_str_equal (interp, "CUBICSPLINE"))
    ch->interp = INTERP_CUBIC;
  else
    FAIL (_("%s: interpolation “%s” is none of LINEAR, STEP, CUBICSPLINE"), where, interp);
  if (!read_accessor (doc, in, 1, &ch->n, &ch->times, &ch->t_stride, error)
      || !read_accessor (doc, out, ncomp, &n_out, &ch->values, &ch->v_stride, error))
    return FALSE;
  if (n_out != ch->n * (ch->interp == INTERP_CUBIC ? 3 : 1))
    FAIL (_("%s: %zu times but %zu values"), where, ch->n, n_out);
  for (gsize k = 0; k < ch->n; k++)
    {
      if (k > 0 && !(ch_time (ch, k) > ch_time (ch, k - 1)))
        FAIL (_("%s: times do not increase (%g after %g)"), where, (double) ch_time (ch, k), (double) ch_time (ch, k - 1));
    }
  return TRUE;
}

/* The channels of animation `anim` on the clip's joints; the others are
 * reported lost (as warnings) */
static gboolean
read_channels (const Doc   *doc,
               JsonObject  *anim,
               const Nodes *nd,
               SqClip      *clip,
               GArray      *out,
               GError     **error)
{
  static const char * const paths[] = { "rotation", "translation", "scale" };
  JsonArray *channels = get_array (anim, "channels"), *samplers = get_array (anim, "samplers");
  g_autoptr(GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  const char *aname = get_string (anim, "name") ? get_string (anim, "name") : "";

  for (guint c = 0; channels != NULL && c < json_array_get_length (channels); c++)
    {
      JsonObject *channel = array_object (channels, c), *target = get_object (channel, "target"), *sampler;
      const char *path = get_string (target, "path");
      g_autofree char *where = g_strdup_printf (_("animation “%s” channel %u"), aname, c);
      gint64 node, si;
      Channel ch = { 0 };
      guint key;

      if (channel == NULL || target == NULL || path == NULL)
        FAIL (_("%s has no target"), where);
      if (!get_int (channel, "sampler", 0, G_MAXINT32, TRUE, 0, &si, where, error)
          || !get_int (target, "node", -1, (gint64) nd->n - 1, FALSE, -1, &node, where, error))
        return FALSE;
      if ((sampler = array_object (samplers, si)) == NULL)
        FAIL (_("%s: sampler %" PRId64 " does not exist"), where, si);
      ch.path = G_N_ELEMENTS (paths);
      for (guint p = 0; p < G_N_ELEMENTS (paths); p++)
        if (g_str_equal (path, paths[p]))
          ch.path = p;
      if (node < 0 || ch.path == G_N_ELEMENTS (paths) || nd->joint_of[node] < 0)
        {
          const char *nname = node >= 0 && nd->name[node] != NULL ? nd->name[node] : "";
          if (g_str_equal (path, "weights"))
            sq_clip_add_warning (clip, _("lost: %s animates the morph-target weights of node %" PRId64 " “%s” (Sequin holds no morph targets)"),
                                 where, node, nname);
          else if (node < 0 || ch.path == G_N_ELEMENTS (paths))
            sq_clip_add_warning (clip, _("lost: %s animates “%s”, which Sequin does not read"), where, path);
          else
            sq_clip_add_warning (clip, _("lost: %s animates node %" PRId64 " “%s”, which is no joint of the skin"),
                                 where, node, nname);
          continue;
        }
      ch.joint = nd->joint_of[node];
      key = (guint) ch.joint * 3 + ch.path + 1;
      if (g_hash_table_contains (seen, GUINT_TO_POINTER (key)))
        {
          sq_clip_add_warning (clip, _("lost: %s animates the %s of “%s” again; the first channel is read"),
                               where, path, clip->joints[ch.joint].name);
          continue;
        }
      g_hash_table_add (seen, GUINT_TO_POINTER (key));
      if (!read_sampler (doc, sampler, si, &ch, error))
        {
          return FALSE;
        }
      g_array_append_val (out, ch);
    }
  return TRUE;
}

/* The frame rate the keys sit on: the common one they all fit, else 30 */
static double
guess_fps (const GArray *channels)
{
  static const double rates[] = { 24, 30, 25, 60, 50, 120, 48, 20, 15, 12, 10, 100 };

  for (gsize r = 0; r < G_N_ELEMENTS (rates); r++)
    {
      gboolean fits = TRUE;

      for (guint c = 0; c < channels->len && fits; c++)
        {
          const Channel *ch = &g_array_index (channels, Channel, c);
          for (gsize k = 0; k < ch->n && fits; k++)
            {
              double f = ch_time (ch, k) * rates[r];
              fits = fabs (f - floor (f + 0.5)) < 1e-3;
            }
        }
      if (fits)
        return rates[r];
    }
  return 30.0;
}

/* ---- keys ------------------------------------------------------------------- */

/* What turns a node's local values into the clip's: the rest rotations
 * above it (and its own) taken out, as if every joint at rest were unturned */
typedef struct
{
  double above[4], above_inv[4], own_inv[4];
  double base[3];     /* from the joint above to the node above, at rest */
  double scale;       /* the scale above */
  double snap;        /* frame rate key times are snapped to (a Sequin file's), or 0 */
} Bake;

static void
bake_for (const Nodes *nd,
          const SqClip *clip,
          gint32        joint,
          Bake         *b)
{
  gint32 k = -1, pn, pj;
  static const double id[4] = { 1, 0, 0, 0 };

  for (gsize i = 0; i < nd->n && k < 0; i++)
    if (nd->joint_of[i] == joint)
      k = (gint32) i;
  pn = nd->parent[k];
  for (pj = pn; pj >= 0 && nd->joint_of[pj] < 0; pj = nd->parent[pj])
    ;
  memcpy (b->above, pn >= 0 ? nd->grot[pn] : id, sizeof b->above);
  sq_quat_conjugate (b->above, b->above_inv);
  sq_quat_conjugate (nd->q[k], b->own_inv);
  b->scale = pn >= 0 ? nd->gscale[pn] : 1.0;
  for (int a = 0; a < 3; a++)
    b->base[a] = (pn >= 0 ? nd->gpos[pn][a] : 0.0) - (pj >= 0 ? nd->gpos[pj][a] : 0.0);
  (void) clip;
}

/* A key time as the clip holds it: snapped to the frame it is within a
 * float's rounding of, when the file is Sequin's */
static double
snap_time (const Bake *b,
           double      t)
{
  if (b->snap > 0)
    {
      double f = floor (t * b->snap + 0.5);
      if (fabs (t * b->snap - f) <= 8 * FLT_EPSILON * MAX (1.0, fabs (t * b->snap)))
        t = f / b->snap;
    }
  return t;
}

/* A value of the file (x, y, z, w) as the clip holds it, into `out` */
static void
bake_value (guint        path,
            const Bake  *b,
            const double v[4],
            double       out[4])
{
  if (path == SQ_CHANNEL_ROTATION)
    {
      double q[4] = { v[3], v[0], v[1], v[2] }, r[4], s[4];

      sq_quat_normalize (q);
      sq_quat_multiply (b->above, q, r);
      sq_quat_multiply (r, b->own_inv, s);
      sq_quat_multiply (s, b->above_inv, out);
    }
  else if (path == SQ_CHANNEL_TRANSLATION)
    {
      double r[3];
      sq_quat_rotate (b->above, v, r);
      for (int a = 0; a < 3; a++)
        out[a] = b->base[a] + b->scale * r[a];
    }
  else
    for (int a = 0; a < 3; a++)
      out[a] = v[a];
}

static void
emit (SqTrack     *track,
      guint        path,
      const Bake  *b,
      double       t,
      const double v[4])
{
  SqKey *key;

  t = snap_time (b, t);
  if (track->n_keys > 0 && !(t > track->keys[track->n_keys - 1].time))
    return;
  key = sq_track_append (track, t);
  bake_value (path, b, v, key->v);
}

/* ---- packed LINEAR channels ------------------------------------------------------ */

/* A LINEAR channel's keys stay the floats of the buffer: the track's
 * packed_bytes are this, its `packed` points into `index` (one byte a key,
 * so that a key's record is its number), and a key is made from the floats
 * when it is asked for, the same way emit() makes it */
typedef struct
{
  GBytes  *bin;               /* the bytes `channel` points into */
  Channel  channel;
  Bake     bake;
  guint8   index[];
} Packed;

static void
packed_free (gpointer data)
{
  Packed *p = data;

  g_bytes_unref (p->bin);
  g_free (p);
}

static double
packed_time (const SqTrack *track,
             const guint8  *record)
{
  const Packed *p = g_bytes_get_data (track->packed_bytes, NULL);

  return snap_time (&p->bake, ch_time (&p->channel, (gsize) (record - track->packed)));
}

static void
packed_key (const SqTrack *track,
            const guint8  *record,
            SqKey         *key)
{
  const Packed *p = g_bytes_get_data (track->packed_bytes, NULL);
  gsize k = (gsize) (record - track->packed);
  guint ncomp = p->channel.path == SQ_CHANNEL_ROTATION ? 4 : 3;
  double v[4] = { 0, 0, 0, 1 };

  for (guint c = 0; c < ncomp; c++)
    v[c] = ch_value (&p->channel, k, c);
  memset (key, 0, sizeof *key);
  key->time = snap_time (&p->bake, ch_time (&p->channel, k));
  bake_value (p->channel.path, &p->bake, v, key->v);
}

static const SqKeyCodec packed_codec = { 1, packed_time, packed_key, NULL, NULL, NULL };

/* Leaves a LINEAR channel's keys in the buffer when its times, snapped,
 * still rise (else emit() would leave keys out); FALSE when not packed */
static gboolean
pack_channel (SqTrack       *track,
              const Channel *ch,
              const Bake    *b,
              GBytes        *bin)
{
  Packed *p;
  GBytes *bytes;

  if (bin == NULL || ch->interp != INTERP_LINEAR || track->n_keys > 0 || ch->n == 0)
    return FALSE;
  for (gsize k = 1; k < ch->n; k++)
    if (!(snap_time (b, ch_time (ch, k)) > snap_time (b, ch_time (ch, k - 1))))
      return FALSE;
  p = g_malloc0 (sizeof (Packed) + ch->n);
  p->bin = g_bytes_ref (bin);
  p->channel = *ch;
  p->bake = *b;
  bytes = g_bytes_new_with_free_func (p, sizeof (Packed) + ch->n, packed_free, p);
  sq_track_pack (track, &packed_codec, bytes, p->index, ch->n, 0.0);
  g_bytes_unref (bytes);
  return TRUE;
}

/* The value of a CUBICSPLINE channel at `t` (within its keys) */
static void
cubic_at (const Channel *ch,
          guint          ncomp,
          double         t,
          gsize         *at,
          double         out[4])
{
  gsize k = *at;
  double dt, s, s2, s3;

  while (k + 2 < ch->n && t >= ch_time (ch, k + 1))
    k++;
  *at = k;
  if (ch->n == 1 || t <= ch_time (ch, 0))
    {
      for (guint c = 0; c < ncomp; c++)
        out[c] = ch_value (ch, 1, c);
      return;
    }
  dt = (double) ch_time (ch, k + 1) - ch_time (ch, k);
  s = dt > 0 ? CLAMP ((t - ch_time (ch, k)) / dt, 0.0, 1.0) : 0.0;
  s2 = s * s, s3 = s2 * s;
  for (guint c = 0; c < ncomp; c++)
    {
      double v0 = ch_value (ch, 3 * k + 1, c), b0 = ch_value (ch, 3 * k + 2, c);
      double v1 = ch_value (ch, 3 * (k + 1) + 1, c), a1 = ch_value (ch, 3 * (k + 1), c);
      out[c] = (2 * s3 - 3 * s2 + 1) * v0 + (s3 - 2 * s2 + s) * dt * b0 + (-2 * s3 + 3 * s2) * v1 + (s3 - s2) * dt * a1;
    }
}

/* A channel's keys on its joint's track: LINEAR as they are, STEP holding
 * each value until the frame before the next key, CUBICSPLINE sampled at
 * the clip's frames (and at its first and last key) */
static gboolean
channel_keys (SqClip        *clip,
              const Channel *ch,
              const Bake    *b,
              GBytes        *bin,
              GError       **error)
{
  SqTrack *track = &clip->joints[ch->joint].tracks[ch->path];
  guint ncomp = ch->path == SQ_CHANNEL_ROTATION ? 4 : 3;
  double v[4] = { 0, 0, 0, 1 };

  if (ch->interp == INTERP_CUBIC)
    {
      double t0 = ch_time (ch, 0), tn = ch_time (ch, ch->n - 1);
      gint64 f0, fn;
      gsize at = 0;

      if ((tn - t0) * clip->fps > 1e7 || tn * clip->fps > 1e12)
        FAIL (_("a CUBICSPLINE channel of %g s would be %g keys at %g frames a second"), tn - t0, (tn - t0) * clip->fps, clip->fps);
      f0 = (gint64) ceil (t0 * clip->fps + 1e-6), fn = (gint64) floor (tn * clip->fps - 1e-6);
      cubic_at (ch, ncomp, t0, &at, v);
      emit (track, ch->path, b, t0, v);
      for (gint64 f = f0; f <= fn; f++)
        {
          cubic_at (ch, ncomp, f / clip->fps, &at, v);
          emit (track, ch->path, b, f / clip->fps, v);
        }
      if (ch->n > 1)
        {
          cubic_at (ch, ncomp, tn, &at, v);
          emit (track, ch->path, b, tn, v);
        }
      return TRUE;
    }
  if (pack_channel (track, ch, b, bin))
    return TRUE;
  for (gsize k = 0; k < ch->n; k++)
    {
      for (guint c = 0; c < ncomp; c++)
        v[c] = ch_value (ch, k, c);
      emit (track, ch->path, b, ch_time (ch, k), v);
      /* a STEP holds the value until the frame before the next key (no
       * key needed when the next one holds it too) */
      if (ch->interp == INTERP_STEP && k + 1 < ch->n && ch_time (ch, k + 1) - 1.0 / clip->fps > ch_time (ch, k) + 1e-6
          && memcmp (ch->values + k * ch->v_stride, ch->values + (k + 1) * ch->v_stride, ncomp * 4) != 0)
        emit (track, ch->path, b, ch_time (ch, k + 1) - 1.0 / clip->fps, v);
    }
  return TRUE;
}

/* ---- what Sequin wrote: the take as it was ---------------------------------- */

static void
restore_fields (SqProps    *props,
                JsonObject *holder,
                SqClip     *clip)
{
  JsonObject *fields = get_object (holder, "fields"), *types = get_object (holder, "types");
  g_autoptr(GList) keys = fields != NULL ? json_object_get_members (fields) : NULL;

  for (GList *l = keys; l != NULL; l = l->next)
    {
      const char *key = l->data, *type = get_string (types, key);
      JsonNode *value = json_object_get_member (fields, key);
      GVariant *v = NULL;

      if (_sq_gltf_is_skeleton_key (key) || g_str_equal (key, GLTF_SOURCE_FORMAT) || g_str_equal (key, GLTF_BUFFER))
        continue;
      if (type != NULL && g_str_equal (type, "gvariant-text") && JSON_NODE_HOLDS_VALUE (value)
          && json_node_get_value_type (value) == G_TYPE_STRING)
        v = g_variant_parse (NULL, json_node_get_string (value), NULL, NULL, NULL);
      else if (type != NULL && g_str_has_prefix (type, "base64:") && g_variant_type_string_is_valid (type + 7)
               && g_variant_type_is_definite (G_VARIANT_TYPE (type + 7)) && JSON_NODE_HOLDS_VALUE (value)
               && json_node_get_value_type (value) == G_TYPE_STRING)
        {
          gsize n = 0;
          guchar *data = g_base64_decode (json_node_get_string (value), &n);
          g_autoptr(GBytes) b = g_bytes_new_take (data, n);
          g_autoptr(GVariant) le = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE (type + 7), b, FALSE));
          g_autoptr(GVariant) host = G_BYTE_ORDER == G_BIG_ENDIAN ? g_variant_byteswap (le) : g_variant_ref (le);

          v = g_variant_get_normal_form (host);
        }
      else if (type != NULL && g_variant_type_string_is_valid (type) && g_variant_type_is_definite (G_VARIANT_TYPE (type)))
        {
          /* the one floating value here (g_variant_parse and the normal
           * form give a full reference: sinking those again leaked one) */
          v = json_gvariant_deserialize (value, type, NULL);
          if (v != NULL)
            g_variant_ref_sink (v);
        }
      if (v == NULL)
        {
          sq_clip_add_warning (clip, _("the field %s in Sequin's extras is not of its type; it is left out"), key);
          continue;
        }
      sq_props_set (props, key, v);
      g_variant_unref (v);
    }
}

static gboolean
number_member (JsonObject *o,
               const char *name,
               double      lo,
               double      hi,
               double     *out)
{
  JsonNode *n = member (o, name);

  if (!is_number (n) || !(json_node_get_double (n) >= lo) || !(json_node_get_double (n) <= hi))
    return FALSE;
  *out = json_node_get_double (n);
  return TRUE;
}

/* The header, the fields and each joint's, and the translations of an
 * additive world as they were before the rest was added */
static void
restore_take (SqClip     *clip,
              JsonObject *sequin,
              gboolean    listed)
{
  JsonArray *joints = get_array (sequin, "joints");
  const char *s;
  double v;

  if ((s = get_string (sequin, "name")) != NULL && g_utf8_validate (s, -1, NULL))
    g_free (clip->name), clip->name = g_strdup (s);
  if ((s = get_string (sequin, "root")) != NULL && g_utf8_validate (s, -1, NULL))
    g_free (clip->root), clip->root = g_strdup (s);
  if (number_member (sequin, "frame-base", -1e9, 1e9, &v) && v == floor (v))
    clip->frame_base = (int) v;
  if (number_member (sequin, "duration", 0, 1e9, &v))
    clip->duration = v;
  if ((s = get_string (sequin, "format")) != NULL && g_utf8_validate (s, -1, NULL))
    sq_props_set (clip->extra, GLTF_SOURCE_FORMAT, g_variant_new_string (s));
  restore_fields (clip->extra, sequin, clip);
  /* keys before 0 s were written later by this much */
  if (number_member (sequin, "time-shift", 0, 1e9, &v) && v > 0)
    for (gsize j = 0; j < clip->n_joints; j++)
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          SqKey *keys = sq_track_unpack (&clip->joints[j].tracks[c]);

          for (gsize k = 0; k < clip->joints[j].tracks[c].n_keys; k++)
            keys[k].time -= v;
        }
  if (member (sequin, "empty") != NULL)
    for (gsize j = 0; j < clip->n_joints; j++)
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        sq_track_clear (&clip->joints[j].tracks[c]);
  for (gsize j = 0; listed && j < clip->n_joints; j++)
    {
      JsonObject *jo = array_object (joints, (gint64) j);
      SqTrack *t = &clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION];
      double base[3] = { 0, 0, 0 };
      g_autoptr(GError) ignored = NULL;

      restore_fields (clip->joints[j].extra, jo, clip);
      if (member (jo, "translation-base") != NULL && get_numbers (jo, "translation-base", 3, base, "", &ignored))
        {
          SqKey *keys = sq_track_unpack (t);

          for (gsize k = 0; k < t->n_keys; k++)
            for (int a = 0; a < 3; a++)
              keys[k].v[a] -= base[a];
          /* the keys move the joint from its rest offset again, and the
           * clip is posed (sq-pose.c) and written so */
          sq_props_set (clip->extra, SQ_TRANSLATIONS_ADD, g_variant_new_boolean (TRUE));
        }
    }
}

/* ---- the file --------------------------------------------------------------- */

/* Where the JSON text's first value ends when it is an object or array
 * (its strings and nesting followed, nothing else checked): the parser
 * takes one value, and a text of several is refused (JSON is one value; a
 * parser that took the last of them would read a document nobody wrote).
 * `len` when the value does not end (the parser then says where it breaks). */
static gsize
json_first_value_end (const guint8 *json,
                      gsize         len)
{
  gsize i = 0, depth = 0;

  while (i < len && g_ascii_isspace (json[i]))
    i++;
  if (i >= len || (json[i] != '{' && json[i] != '['))
    return len;
  for (; i < len; i++)
    {
      if (json[i] == '"')
        {
          for (i++; i < len && json[i] != '"'; i++)
            if (json[i] == '\\')
              i++;
          continue;
        }
      if (json[i] == '{' || json[i] == '[')
        depth++;
      else if ((json[i] == '}' || json[i] == ']') && --depth == 0)
        return i + 1;
    }
  return len;
}

static gboolean
parse_json (const guint8 *json,
            gsize         len,
            JsonParser   *parser,
            Doc          *doc,
            GError      **error)
{
  g_autoptr(GError) local = NULL;
  JsonNode *root;
  JsonObject *asset;
  const char *version;

  gsize end = json != NULL ? json_first_value_end (json, len) : 0, first = 0;

  while (first < end && g_ascii_isspace (json[first]))
    first++;
  if (first < end && json[first] != '{' && json[first] != '[')
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_BAD_MAGIC, _("the glTF JSON is not an object"));
      return FALSE;
    }

  /* after the value only spaces (a GLB chunk's padding; some writers pad
   * with zeros) */
  for (gsize i = end; i < len; i++)
    if (!g_ascii_isspace (json[i]) && json[i] != 0)
      {
        g_set_error (error, SQ_ERROR, SQ_ERROR_SYNTAX,
                     _("the glTF JSON goes on after its object ends, at byte %zu of the JSON"), i);
        return FALSE;
      }
  len = end;
  if (len > G_MAXSSIZE || !json_parser_load_from_data (parser, json != NULL ? (const char *) json : "", (gssize) len, &local))
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_SYNTAX, _("the glTF JSON does not parse: %s"),
                   local != NULL ? local->message : _("too long"));
      return FALSE;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_BAD_MAGIC, _("the glTF JSON is not an object"));
      return FALSE;
    }
  doc->root = json_node_get_object (root);
  asset = get_object (doc->root, "asset");
  version = get_string (asset, "version");
  if (version == NULL)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_BAD_MAGIC, _("the JSON has no glTF asset version"));
      return FALSE;
    }
  if (!g_str_has_prefix (version, "2."))
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_UNSUPPORTED, _("glTF version %s (Sequin reads 2.0)"), version);
      return FALSE;
    }
  doc->nodes = get_array (doc->root, "nodes");
  doc->accessors = get_array (doc->root, "accessors");
  doc->views = get_array (doc->root, "bufferViews");
  return TRUE;
}

/* The take's names, and its animation with Sequin's extras, if any */
static gboolean
choose_take (const Doc           *doc,
             const SqLoadOptions *options,
             SqClip              *clip,
             JsonObject         **anim,
             JsonObject         **sequin,
             GError             **error)
{
  JsonArray *anims = get_array (doc->root, "animations");
  guint n = anims != NULL ? json_array_get_length (anims) : 0;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  double version = 0;

  *anim = *sequin = NULL;
  if (n == 0)
    return TRUE;
  if (options->take >= n)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND, _("there is no animation %u: the file has %u (numbered from 1)"),
                   options->take + 1, n);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      const char *name = get_string (array_object (anims, i), "name");
      g_ptr_array_add (names, g_strdup (name != NULL && g_utf8_validate (name, -1, NULL) ? name : ""));
    }
  g_ptr_array_add (names, NULL);
  sq_clip_set_takes (clip, (const char * const *) names->pdata, options->take);
  if ((*anim = array_object (anims, options->take)) == NULL)
    FAIL (_("animation %u is not an object"), options->take + 1);
  *sequin = get_object (get_object (*anim, "extras"), "sequin");
  if (*sequin != NULL && (!number_member (*sequin, "version", 1, 1, &version)))
    {
      sq_clip_add_warning (clip, _("Sequin's extras of a version this Sequin does not know are left aside"));
      *sequin = NULL;
    }
  return TRUE;
}

static gboolean
read_doc (Doc                 *doc,
          const SqLoadOptions *options,
          SqClip              *clip,
          GError             **error)
{
  Nodes nd = { 0 };
  g_autoptr(GArray) skin = NULL, listed = NULL;
  g_autoptr(GArray) channels = g_array_new (FALSE, TRUE, sizeof (Channel));
  JsonObject *anim = NULL, *sequin = NULL;
  guint max = options->max_joints > 0 ? options->max_joints : 65536;
  gboolean ok = FALSE;
  double fps = 0;

  if (!read_nodes (doc, &nd, clip, error) || (skin = skin_joints (doc, &nd, clip, error)) == NULL
      || !choose_take (doc, options, clip, &anim, &sequin, error))
    goto out;
  listed = sequin != NULL ? listed_joints (sequin, &nd, skin) : NULL;
  if (sequin != NULL && listed == NULL)
    sq_clip_add_warning (clip, _("the joints Sequin's extras list are not the skin's; the skin's are read"));
  if ((listed != NULL ? listed : skin)->len > max)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_LIMIT_EXCEEDED, _("the skeleton has %u joints (the limit is %u)"),
                   (listed != NULL ? listed : skin)->len, max);
      goto out;
    }
  add_joints (clip, &nd, listed != NULL ? listed : skin);
  if (sequin != NULL)
    add_end_sites (doc, &nd, clip);
  if (anim != NULL && !read_channels (doc, anim, &nd, clip, channels, error))
    goto out;
  clip->fps = sequin != NULL && number_member (sequin, "fps", 1e-3, 1e6, &fps) ? fps : guess_fps (channels);
  for (guint c = 0; c < channels->len; c++)
    {
      const Channel *ch = &g_array_index (channels, Channel, c);
      Bake b;

      bake_for (&nd, clip, ch->joint, &b);
      b.snap = sequin != NULL ? clip->fps : 0;
      if (!channel_keys (clip, ch, &b, doc->bin_owner, error))
        goto out;
      clip->duration = MAX (clip->duration, sq_track_time (&clip->joints[ch->joint].tracks[ch->path],
                                                           clip->joints[ch->joint].tracks[ch->path].n_keys - 1));
    }
  if (sequin != NULL)
    restore_take (clip, sequin, listed != NULL);
  ok = TRUE;
out:
  nodes_clear (&nd);
  return ok;
}

SqClip *
_sq_gltf_read (GBytes              *bytes,
               const SqLoadOptions *options,
               GError             **error)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  Doc doc = { 0 };
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  const guint8 *json = data;
  gsize json_len = len;
  gboolean glb = len >= 4 && memcmp (data, "glTF", 4) == 0, ok;

  if (glb)
    {
      json = NULL;
      if (!split_glb (bytes, &json, &json_len, &doc, error))
        return NULL;
    }
  ok = parse_json (json, json_len, parser, &doc, error)
       && (glb && get_array (doc.root, "buffers") != NULL && get_string (array_object (get_array (doc.root, "buffers"), 0), "uri") == NULL
           ? TRUE : load_buffer (&doc, options, error));
  if (ok)
    {
      doc.bin_owner = doc.bin_bytes != NULL ? doc.bin_bytes : glb ? bytes : NULL;
      ok = read_doc (&doc, options, clip, error);
    }
  /* a .gltf's buffer, for writing its other takes again */
  if (ok && doc.bin_bytes != NULL && clip->takes != NULL && g_strv_length (clip->takes) > 1)
    sq_props_set (clip->extra, GLTF_BUFFER, g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, doc.bin_bytes, TRUE));
  g_clear_pointer (&doc.bin_bytes, g_bytes_unref);
  return ok ? g_steal_pointer (&clip) : NULL;
}
