/* sq-format-dx.c: ActiveWorlds DirectX text animation (.x)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Grammar (shared/docs/formats.md 3; shared/specs/activeworlds-dx-animation.txt):
 *   xof 0303txt 0032                  (0302 and float size 0064 accepted)
 *   AnimTicksPerSecond [name] { N; }  (top level, or inside the set as AW writes it)
 *   AnimationSet [name] {
 *     Animation [name] {
 *       { frame }                     (or an inline Frame name { … })
 *       AnimationOptions { openclosed; positionquality; }
 *       AnimationKey [name] { type; n; tick; count; v1, …, vcount;;, … }
 *     } …
 *   }
 * Comments run from // or # at the start of a token to the end of the line.
 * Commas and semicolons are read leniently, as Irrlicht does: any run of them
 * (or none) may stand between numbers, so both Microsoft's strict form and
 * the ActiveWorlds example (keys ended by ";;" with no ",") read.
 *
 * Reading: the first AnimationSet is the clip; later sets are kept whole, as
 * their bytes, in clip->extra "other_sets" (name, text) and are not written.
 * Frames, meshes, templates and other top-level objects are skipped by
 * brace counting (nesting bounded by DX_MAX_DEPTH) and only counted in
 * "other_objects". Key types 0 rotation (w, x, y, z as the file stores
 * them), 1 scale, 2 position, 3 and 4 matrix (row-vector D3D layout,
 * decomposed into the three). Key time = tick / AnimTicksPerSecond (30 when
 * the file has none; the value is clip->fps). Names are Latin-1.
 *
 * Writing: "xof 0303txt 0032", CRLF, two-space indents, AnimTicksPerSecond
 * inside the set (where ActiveWorlds' own example has it) unless the clip was
 * read with it at the top level, one AnimationSet, one Animation per joint
 * with rotation (0), scale (1) and position (2) keys, Microsoft-strict
 * separators, numbers with six decimals when that is exact and the shortest
 * exact text otherwise, no line over 250 characters.
 */
#define G_LOG_DOMAIN "sq-dx"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "sq-math.h"
#include "sq-parallel.h"
#include "sq-private.h"

#define DX_MAX_DEPTH     256
#define DX_DEFAULT_TICKS 30
#define DX_MAX_LINE      250
#define DX_MAX_NAME      200

/* ---- tokens ---------------------------------------------------------------- */

typedef enum
{
  TOK_EOF,
  TOK_LBRACE,
  TOK_RBRACE,
  TOK_SEMI,
  TOK_COMMA,
  TOK_WORD,
  TOK_STRING,
} TokType;

typedef struct
{
  TokType     type;
  const char *s;
  gsize       len;
  guint       line;
  guint       col;
} Tok;

typedef struct
{
  const char *data;
  gsize       len;
  gsize       pos;
  guint       line;
  gsize       line_start;
  Tok         peek;
  gboolean    has_peek;
  guint       depth;
  SqClip     *clip;
  gboolean    warned_ind;
} Lexer;

/* 1: a blank; 2: ends a word (blanks and the punctuation) (SQ_PERF) */
static const guint8 char_class[256] = {
  [' '] = 3, ['\t'] = 3, ['\r'] = 3, ['\n'] = 3, ['\f'] = 3, ['\v'] = 3,
  ['{'] = 2, ['}'] = 2, [';'] = 2, [','] = 2, ['"'] = 2,
};

static inline gboolean
is_space (char c)
{
  return (char_class[(guchar) c] & 1) != 0;
}

static inline gboolean
ends_word (char c)
{
  return (char_class[(guchar) c] & 2) != 0;
}

static void
lex_newline_at (Lexer *lx,
                gsize  i)
{
  /* i is the index of a '\n', or of a '\r' not followed by '\n' */
  lx->line++;
  lx->line_start = i + 1;
}

static gboolean
lex_next_raw (Lexer  *lx,
              Tok    *t,
              GError **error)
{
  const char *d = lx->data;

  for (;;)
    {
      while (lx->pos < lx->len && is_space (d[lx->pos]))
        {
          char c = d[lx->pos];
          if (c == '\n' || (c == '\r' && (lx->pos + 1 >= lx->len || d[lx->pos + 1] != '\n')))
            lex_newline_at (lx, lx->pos);
          lx->pos++;
        }
      if (lx->pos < lx->len
          && (d[lx->pos] == '#' || (d[lx->pos] == '/' && lx->pos + 1 < lx->len && d[lx->pos + 1] == '/')))
        {
          while (lx->pos < lx->len && d[lx->pos] != '\n' && d[lx->pos] != '\r')
            lx->pos++;
          continue;
        }
      break;
    }

  t->line = lx->line;
  t->col = (guint) MIN (lx->pos - lx->line_start + 1, G_MAXUINT);
  t->s = d + lx->pos;
  t->len = 1;
  if (lx->pos >= lx->len)
    {
      t->type = TOK_EOF;
      t->len = 0;
      return TRUE;
    }
  switch (d[lx->pos])
    {
    case '{': t->type = TOK_LBRACE; lx->pos++; return TRUE;
    case '}': t->type = TOK_RBRACE; lx->pos++; return TRUE;
    case ';': t->type = TOK_SEMI; lx->pos++; return TRUE;
    case ',': t->type = TOK_COMMA; lx->pos++; return TRUE;
    case '"':
      {
        gsize i = lx->pos + 1;
        while (i < lx->len && d[i] != '"')
          {
            if (d[i] == '\n' || (d[i] == '\r' && (i + 1 >= lx->len || d[i + 1] != '\n')))
              lex_newline_at (lx, i);
            i++;
          }
        if (i >= lx->len)
          {
            sq_set_error_at_line (error, SQ_ERROR_TRUNCATED, t->line, t->col,
                                  _("the file ends inside a quoted string"));
            return FALSE;
          }
        t->type = TOK_STRING;
        t->len = i + 1 - lx->pos;
        lx->pos = i + 1;
        return TRUE;
      }
    default:
      {
        gsize i = lx->pos;
        while (i < lx->len && !ends_word (d[i]))
          i++;
        t->type = TOK_WORD;
        t->len = i - lx->pos;
        lx->pos = i;
        return TRUE;
      }
    }
}

static gboolean
lex_next (Lexer  *lx,
          Tok    *t,
          GError **error)
{
  if (lx->has_peek)
    {
      *t = lx->peek;
      lx->has_peek = FALSE;
      return TRUE;
    }
  return lex_next_raw (lx, t, error);
}

static gboolean
lex_peek (Lexer  *lx,
          Tok    *t,
          GError **error)
{
  if (!lx->has_peek)
    {
      if (!lex_next_raw (lx, &lx->peek, error))
        return FALSE;
      lx->has_peek = TRUE;
    }
  *t = lx->peek;
  return TRUE;
}

static gboolean
tok_is (const Tok  *t,
        const char *word)
{
  return t->type == TOK_WORD && strlen (word) == t->len && strncmp (t->s, word, t->len) == 0;
}

static const char *
tok_describe (const Tok *t)
{
  switch (t->type)
    {
    case TOK_EOF: return _("the end of the file");
    case TOK_LBRACE: return "“{”";
    case TOK_RBRACE: return "“}”";
    case TOK_SEMI: return "“;”";
    case TOK_COMMA: return "“,”";
    case TOK_STRING: return _("a quoted string");
    case TOK_WORD:
    default: return _("a word");
    }
}

static void
error_unexpected (GError    **error,
                  const Tok  *t,
                  const char *expected)
{
  if (t->type == TOK_EOF)
    sq_set_error_at_line (error, SQ_ERROR_TRUNCATED, t->line, t->col,
                          _("the file ends where %s is expected"), expected);
  else if (t->type == TOK_WORD)
    {
      g_autofree char *w = _sq_latin1_to_utf8 ((const guint8 *) t->s, MIN (t->len, 40));
      sq_set_error_at_line (error, SQ_ERROR_SYNTAX, t->line, t->col,
                            _("expected %s, found “%s”"), expected, w);
    }
  else
    sq_set_error_at_line (error, SQ_ERROR_SYNTAX, t->line, t->col,
                          _("expected %s, found %s"), expected, tok_describe (t));
}

/* Skips any run of ';' and ','. */
static gboolean
skip_seps (Lexer  *lx,
           GError **error)
{
  Tok t;

  for (;;)
    {
      if (!lex_peek (lx, &t, error))
        return FALSE;
      if (t.type != TOK_SEMI && t.type != TOK_COMMA)
        return TRUE;
      lx->has_peek = FALSE;
    }
}

static gboolean
enter (Lexer     *lx,
       const Tok *brace,
       GError   **error)
{
  if (lx->depth >= DX_MAX_DEPTH)
    {
      sq_set_error_at_line (error, SQ_ERROR_LIMIT_EXCEEDED, brace->line, brace->col,
                            _("objects are nested more than %u levels deep"), (guint) DX_MAX_DEPTH);
      return FALSE;
    }
  lx->depth++;
  return TRUE;
}

/* After an object's '{': skips to its matching '}'. */
static gboolean
skip_block (Lexer     *lx,
            const Tok *open,
            GError   **error)
{
  guint base = lx->depth - 1;
  Tok t;

  while (lx->depth > base)
    {
      if (!lex_next (lx, &t, error))
        return FALSE;
      if (t.type == TOK_LBRACE)
        {
          if (!enter (lx, &t, error))
            return FALSE;
        }
      else if (t.type == TOK_RBRACE)
        lx->depth--;
      else if (t.type == TOK_EOF)
        {
          sq_set_error_at_line (error, SQ_ERROR_TRUNCATED, t.line, t.col,
                                _("the file ends inside the object opened at line %u, column %u (a “}” is missing)"),
                                open->line, open->col);
          return FALSE;
        }
    }
  return TRUE;
}

/* After an object's type word: an optional name (and GUID), then '{'. */
static gboolean
object_header (Lexer     *lx,
               const Tok *type,
               Tok       *name,
               Tok       *open,
               GError   **error)
{
  g_autofree char *what = _sq_latin1_to_utf8 ((const guint8 *) type->s, MIN (type->len, 40));
  g_autofree char *expected = g_strdup_printf (_("“{” to open “%s”"), what);

  name->type = TOK_EOF;
  for (guint i = 0; i < 3; i++)
    {
      if (!lex_next (lx, open, error))
        return FALSE;
      if (open->type == TOK_LBRACE)
        return enter (lx, open, error);
      if (open->type != TOK_WORD || i == 2)
        break;
      if (name->type == TOK_EOF && open->s[0] != '<')
        *name = *open;
    }
  error_unexpected (error, open, expected);
  return FALSE;
}

static gboolean
expect_close (Lexer      *lx,
              const char *what,
              GError    **error)
{
  Tok t;

  if (!skip_seps (lx, error) || !lex_next (lx, &t, error))
    return FALSE;
  if (t.type != TOK_RBRACE)
    {
      g_autofree char *e = g_strdup_printf (_("“}” to close %s"), what);
      error_unexpected (error, &t, e);
      return FALSE;
    }
  lx->depth--;
  return TRUE;
}

static gboolean
read_uint (Lexer      *lx,
           const char *what,
           guint32    *out,
           Tok        *where,
           GError    **error)
{
  Tok t;
  gint64 v;

  if (!skip_seps (lx, error) || !lex_next (lx, &t, error))
    return FALSE;
  if (where != NULL)
    *where = t;
  if (t.type != TOK_WORD)
    {
      /* `what` may be N_() text (per-key callers): translated only here */
      error_unexpected (error, &t, g_dgettext (GETTEXT_PACKAGE, what));
      return FALSE;
    }
  if (!_sq_parse_int64 (t.s, t.len, &v) || v < 0 || v > G_MAXUINT32)
    {
      g_autofree char *w = _sq_latin1_to_utf8 ((const guint8 *) t.s, MIN (t.len, 40));
      sq_set_error_at_line (error, SQ_ERROR_SYNTAX, t.line, t.col,
                            _("%s must be a whole number from 0 to 4294967295, not “%s”"),
                            g_dgettext (GETTEXT_PACKAGE, what), w);
      return FALSE;
    }
  *out = (guint32) v;
  return TRUE;
}

static gboolean
read_float (Lexer  *lx,
            double *out,
            GError **error)
{
  Tok t;

  if (!skip_seps (lx, error) || !lex_next (lx, &t, error))
    return FALSE;
  if (t.type != TOK_WORD)
    {
      error_unexpected (error, &t, _("a number"));
      return FALSE;
    }
  if (_sq_parse_double_in (t.s, t.len, lx->data + lx->len, out))
    return TRUE;
  /* what Visual C++ printed for NaN; Assimp reads these as 0 */
  if (t.len >= 5 && t.len <= 12 && memchr (t.s, '#', t.len) != NULL
      && (g_strstr_len (t.s, t.len, "#IND") || g_strstr_len (t.s, t.len, "#QNAN")))
    {
      if (!lx->warned_ind)
        {
          g_autofree char *w = _sq_latin1_to_utf8 ((const guint8 *) t.s, t.len);
          sq_clip_add_warning (lx->clip, _("line %u: “%s” (not a number) is read as 0, as Assimp does"),
                               t.line, w);
        }
      lx->warned_ind = TRUE;
      *out = 0.0;
      return TRUE;
    }
  {
    g_autofree char *w = _sq_latin1_to_utf8 ((const guint8 *) t.s, MIN (t.len, 40));
    sq_set_error_at_line (error, SQ_ERROR_SYNTAX, t.line, t.col, _("“%s” is not a finite number"), w);
  }
  return FALSE;
}

/* ---- reading ------------------------------------------------------------- */

typedef struct
{
  Lexer      lx;
  guint32    ticks;
  gboolean   have_ticks;
  gboolean   ticks_at_top;
  char      *ticks_name;
  gboolean   have_set;
  GVariantBuilder other_sets;
  guint      n_other_sets;
  GArray    *other_types;   /* char * (owned) */
  GArray    *other_counts;  /* guint */
  guint      max_joints;
} Reader;

static void
count_other (Reader    *rd,
             const Tok *type)
{
  g_autofree char *name = _sq_latin1_to_utf8 ((const guint8 *) type->s, MIN (type->len, 64));

  for (guint i = 0; i < rd->other_types->len; i++)
    if (strcmp (g_array_index (rd->other_types, char *, i), name) == 0)
      {
        g_array_index (rd->other_counts, guint, i)++;
        return;
      }
  {
    char *owned = g_steal_pointer (&name);
    guint one = 1;
    g_array_append_val (rd->other_types, owned);
    g_array_append_val (rd->other_counts, one);
  }
}

static gboolean
parse_ticks (Reader    *rd,
             const Tok *type,
             gboolean   at_top,
             GError   **error)
{
  Tok name, open, where;
  guint32 v;

  if (!object_header (&rd->lx, type, &name, &open, error)
      || !read_uint (&rd->lx, _("AnimTicksPerSecond"), &v, &where, error)
      || !expect_close (&rd->lx, "AnimTicksPerSecond", error))
    return FALSE;
  if (v == 0)
    {
      sq_set_error_at_line (error, SQ_ERROR_BAD_VALUE, where.line, where.col,
                            _("AnimTicksPerSecond is 0: key times cannot be converted to seconds"));
      return FALSE;
    }
  if (rd->have_ticks)
    {
      if (v != rd->ticks)
        sq_clip_add_warning (rd->lx.clip, _("line %u: a second AnimTicksPerSecond (%u) is ignored; the first says %u"),
                             where.line, v, rd->ticks);
      return TRUE;
    }
  rd->have_ticks = TRUE;
  rd->ticks = v;
  rd->ticks_at_top = at_top;
  if (name.type == TOK_WORD)
    rd->ticks_name = _sq_latin1_to_utf8 ((const guint8 *) name.s, name.len);
  if (v < 2 || v > 200)
    sq_clip_add_warning (rd->lx.clip,
                         _("line %u: AnimTicksPerSecond %u is outside ActiveWorlds' range of 2 to 200; kept as it is"),
                         where.line, v);
  return TRUE;
}

/* Quaternion w, x, y, z of a rotation matrix r[row][col], taken as it stands
 * (the file's quaternions are those of its matrices in the same layout). */
static void
matrix_to_quat (double r[3][3],
                double q[4])
{
  double tr = r[0][0] + r[1][1] + r[2][2];

  if (tr > 0)
    {
      double s = sqrt (tr + 1.0) * 2;
      q[0] = 0.25 * s;
      q[1] = (r[2][1] - r[1][2]) / s;
      q[2] = (r[0][2] - r[2][0]) / s;
      q[3] = (r[1][0] - r[0][1]) / s;
    }
  else if (r[0][0] > r[1][1] && r[0][0] > r[2][2])
    {
      double s = sqrt (1.0 + r[0][0] - r[1][1] - r[2][2]) * 2;
      q[0] = (r[2][1] - r[1][2]) / s;
      q[1] = 0.25 * s;
      q[2] = (r[0][1] + r[1][0]) / s;
      q[3] = (r[0][2] + r[2][0]) / s;
    }
  else if (r[1][1] > r[2][2])
    {
      double s = sqrt (1.0 + r[1][1] - r[0][0] - r[2][2]) * 2;
      q[0] = (r[0][2] - r[2][0]) / s;
      q[1] = (r[0][1] + r[1][0]) / s;
      q[2] = 0.25 * s;
      q[3] = (r[1][2] + r[2][1]) / s;
    }
  else
    {
      double s = sqrt (1.0 + r[2][2] - r[0][0] - r[1][1]) * 2;
      q[0] = (r[1][0] - r[0][1]) / s;
      q[1] = (r[0][2] + r[2][0]) / s;
      q[2] = (r[1][2] + r[2][1]) / s;
      q[3] = 0.25 * s;
    }
  sq_quat_normalize (q);
}

/* A D3D row-vector matrix (rows: scaled rotation rows, then translation) into
 * rotation, scale and translation. Returns a mask: 1 shear, 2 non-uniform
 * scale, 4 mirrored, 8 degenerate. */
static guint
decompose_matrix (const double m[16],
                  double       rot[4],
                  double       scale[4],
                  double       pos[4])
{
  double r[3][3];
  guint flags = 0;
  double det;

  for (int i = 0; i < 3; i++)
    {
      double len = sqrt (m[i * 4] * m[i * 4] + m[i * 4 + 1] * m[i * 4 + 1] + m[i * 4 + 2] * m[i * 4 + 2]);
      scale[i] = len;
      for (int j = 0; j < 3; j++)
        r[i][j] = len > 0 ? m[i * 4 + j] / len : (i == j);
      if (!(len > 1e-12) || !isfinite (len))
        flags |= 8;
    }
  scale[3] = 0;
  pos[0] = m[12];
  pos[1] = m[13];
  pos[2] = m[14];
  pos[3] = 0;
  det = r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1])
        - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0])
        + r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
  if (det < 0)
    {
      flags |= 4;
      scale[0] = -scale[0];
      for (int j = 0; j < 3; j++)
        r[0][j] = -r[0][j];
    }
  for (int i = 0; i < 3; i++)
    for (int k = i + 1; k < 3; k++)
      if (fabs (r[i][0] * r[k][0] + r[i][1] * r[k][1] + r[i][2] * r[k][2]) > 1e-4)
        flags |= 1;
  if (fabs (fabs (scale[0]) - scale[1]) > 1e-6 * fabs (scale[1]) || fabs (scale[1] - scale[2]) > 1e-6 * fabs (scale[1]))
    flags |= 2;
  if (fabs (m[3]) > 1e-9 || fabs (m[7]) > 1e-9 || fabs (m[11]) > 1e-9 || fabs (m[15] - 1.0) > 1e-9)
    flags |= 1;
  matrix_to_quat (r, rot);
  if (!isfinite (rot[0] + rot[1] + rot[2] + rot[3]))
    {
      rot[0] = 1;
      rot[1] = rot[2] = rot[3] = 0;
      flags |= 8;
    }
  return flags;
}

/* 1: a blank or separator that is no line end; 2: LF; 3: CR */
static const guint8 skip_class[256] = {
  [' '] = 1, ['\t'] = 1, ['\f'] = 1, ['\v'] = 1, [';'] = 1, [','] = 1, ['\n'] = 2, ['\r'] = 3,
};

/* Skips blanks, line ends and runs of ';' ',' counting lines as the lexer
 * does (LF, CRLF or a lone CR) */
static inline const char *
skip_blanks_seps (const char *p,
                  const char *end,
                  const char *data,
                  guint      *line,
                  gsize      *line_start)
{
  guint c;

  for (; p < end && (c = skip_class[(guchar) *p]) != 0; p++)
    if (c > 1 && (c == 2 || p + 1 >= end || p[1] != '\n'))
      {
        (*line)++;
        *line_start = p + 1 - data;
      }
  return p;
}

/* A key of the usual shape read straight from the text, without tokens
 * (SQ_PERF): "tick; count; v1, …, vcount" with any blanks, line ends and
 * runs of ';' ',' between, plain digits for tick and count, numbers the
 * parser takes whole, each field ended where a word ends. FALSE, with the
 * lexer untouched, for anything else (a comment, a sign, "#IND", an error),
 * which the token reading then takes as before. */
static gboolean
scan_key_fast (Lexer   *lx,
               guint    n_values,
               guint32 *tick,
               double  *v)
{
  const char *d = lx->data, *end = lx->data + lx->len;
  const char *p = d + lx->pos;
  guint line = lx->line;
  gsize line_start = lx->line_start;
  guint64 u[2];

  if (lx->has_peek)
    return FALSE;
  for (guint f = 0; f < 2; f++)
    {
      const char *digits;

      p = skip_blanks_seps (p, end, d, &line, &line_start);
      digits = p;
      u[f] = 0;
      while (p < end && (guint) (*p - '0') < 10 && p - digits < 10)
        u[f] = u[f] * 10 + (guint) (*p++ - '0');
      if (p == digits || u[f] > G_MAXINT32 || (p < end && !ends_word (*p)))
        return FALSE;
    }
  if (u[1] != n_values)
    return FALSE;
  for (guint i = 0; i < n_values; i++)
    {
      const char *stop;

      p = skip_blanks_seps (p, end, d, &line, &line_start);
      stop = _sq_scan_double_fast (p, end, end, &v[i]);
      if (stop == NULL || (stop < end && !ends_word (*stop)))
        return FALSE;
      p = stop;
    }
  *tick = (guint32) u[0];
  lx->pos = p - d;
  lx->line = line;
  lx->line_start = line_start;
  return TRUE;
}

/* The next key of a track: in the room reserved for the AnimationKey's
 * keys without a call, else by sq_track_append (SQ_PERF). The caller sets
 * v[0] to v[3]. */
static inline SqKey *
next_key (SqTrack *track,
          double   time)
{
  SqKey *key;

  if (G_UNLIKELY (track->n_keys >= track->alloc || track->present != NULL || track->alt != NULL))
    return sq_track_append (track, time);
  key = &track->keys[track->n_keys++];
  key->time = time;
  return key;
}

static gboolean
parse_key (Reader    *rd,
           gsize      joint_index,
           const Tok *type_tok,
           guint     *matrix_flags,
           GError   **error)
{
  Lexer *lx = &rd->lx;
  Tok name, open, type_at, count_at;
  guint32 type, n;
  static const guint n_values[5] = { 4, 3, 3, 16, 16 };
  static const SqChannel channel[3] = { SQ_CHANNEL_ROTATION, SQ_CHANNEL_SCALE, SQ_CHANNEL_TRANSLATION };

  if (!object_header (lx, type_tok, &name, &open, error)
      || !read_uint (lx, _("the key type"), &type, &type_at, error)
      || !read_uint (lx, _("the key count"), &n, &count_at, error))
    return FALSE;
  if (type > 4)
    {
      sq_set_error_at_line (error, SQ_ERROR_BAD_VALUE, type_at.line, type_at.col,
                            _("key type %u is not 0 (rotation), 1 (scale), 2 (position), 3 or 4 (matrix)"), type);
      return FALSE;
    }
  /* every key holds at least 2 + 3 numbers of at least 2 bytes each */
  if (n > (lx->len - lx->pos) / 10)
    {
      sq_set_error_at_line (error, SQ_ERROR_LIMIT_EXCEEDED, count_at.line, count_at.col,
                            _("%u keys need at least %" PRIu64 " bytes but only %zu are left"),
                            n, (guint64) n * 10, lx->len - lx->pos);
      return FALSE;
    }

  for (guint32 k = 0; k < n; k++)
    {
      guint32 tick, cnt;
      Tok cnt_at;
      double v[16];
      SqJoint *joint = &lx->clip->joints[joint_index];

      if (scan_key_fast (lx, n_values[type], &tick, v))
        cnt = n_values[type];
      else
        {
          if (!read_uint (lx, N_("the key time"), &tick, NULL, error)
              || !read_uint (lx, N_("the value count"), &cnt, &cnt_at, error))
            return FALSE;
          if (cnt != n_values[type])
            {
              sq_set_error_at_line (error, SQ_ERROR_BAD_VALUE, cnt_at.line, cnt_at.col,
                                    _("a key of type %u needs %u values, not %u"), type, n_values[type], cnt);
              return FALSE;
            }
          for (guint i = 0; i < cnt; i++)
            if (!read_float (lx, &v[i], error))
              return FALSE;
        }

      if (k == 0)
        {
          if (type <= 2)
            sq_track_reserve (&joint->tracks[channel[type]], joint->tracks[channel[type]].n_keys + n);
          else
            for (guint c = 0; c < SQ_N_CHANNELS; c++)
              sq_track_reserve (&joint->tracks[c], joint->tracks[c].n_keys + n);
        }
      if (type <= 2)
        {
          SqKey *key = next_key (&joint->tracks[channel[type]], tick);

          key->v[3] = 0.0;
          for (guint i = 0; i < cnt; i++)
            key->v[i] = v[i];
        }
      else
        {
          double r[4], s[4], p[4];

          *matrix_flags |= decompose_matrix (v, r, s, p);
          memcpy (sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], tick)->v, r, sizeof r);
          memcpy (sq_track_append (&joint->tracks[SQ_CHANNEL_SCALE], tick)->v, s, sizeof s);
          memcpy (sq_track_append (&joint->tracks[SQ_CHANNEL_TRANSLATION], tick)->v, p, sizeof p);
        }
    }
  return expect_close (lx, "AnimationKey", error);
}

static gboolean
parse_animation (Reader    *rd,
                 const Tok *type,
                 GError   **error)
{
  Lexer *lx = &rd->lx;
  SqClip *clip = lx->clip;
  Tok name, open, t;
  gsize ji;
  gboolean named = FALSE;
  guint matrix_flags = 0;

  if (!object_header (lx, type, &name, &open, error))
    return FALSE;
  if (clip->n_joints >= rd->max_joints)
    {
      sq_set_error_at_line (error, SQ_ERROR_LIMIT_EXCEEDED, open.line, open.col,
                            _("more than %u animated frames"), rd->max_joints);
      return FALSE;
    }
  ji = clip->n_joints;
  sq_clip_add_joint (clip, "");
  if (name.type == TOK_WORD)
    sq_props_set (clip->joints[ji].extra, "animation_name",
                  g_variant_new_take_string (_sq_latin1_to_utf8 ((const guint8 *) name.s, name.len)));

  for (;;)
    {
      if (!lex_next (lx, &t, error))
        return FALSE;
      if (t.type == TOK_RBRACE)
        {
          lx->depth--;
          break;
        }
      if (t.type == TOK_SEMI || t.type == TOK_COMMA)
        continue;
      if (t.type == TOK_EOF)
        {
          sq_set_error_at_line (error, SQ_ERROR_TRUNCATED, t.line, t.col,
                                _("the file ends inside the Animation opened at line %u, column %u"),
                                open.line, open.col);
          return FALSE;
        }
      if (t.type == TOK_LBRACE)
        {
          /* a reference: { name } or { name <guid> } */
          Tok ref, r;
          if (!enter (lx, &t, error) || !lex_next (lx, &ref, error))
            return FALSE;
          if (ref.type != TOK_WORD)
            {
              error_unexpected (error, &ref, _("a frame name"));
              return FALSE;
            }
          for (;;)
            {
              if (!lex_next (lx, &r, error))
                return FALSE;
              if (r.type == TOK_RBRACE)
                break;
              if (r.type != TOK_WORD)
                {
                  error_unexpected (error, &r, _("“}” after the frame name"));
                  return FALSE;
                }
            }
          lx->depth--;
          if (named)
            sq_clip_add_warning (clip, _("line %u: a second frame reference in one Animation is ignored"), ref.line);
          else
            {
              g_free (clip->joints[ji].name);
              clip->joints[ji].name = _sq_latin1_to_utf8 ((const guint8 *) ref.s, ref.len);
              named = TRUE;
            }
          continue;
        }
      if (t.type != TOK_WORD)
        {
          error_unexpected (error, &t, _("an AnimationKey or “}”"));
          return FALSE;
        }
      if (tok_is (&t, "AnimationKey"))
        {
          if (!parse_key (rd, ji, &t, &matrix_flags, error))
            return FALSE;
        }
      else if (tok_is (&t, "AnimationOptions"))
        {
          Tok on, oo;
          guint32 a, b;
          if (!object_header (lx, &t, &on, &oo, error)
              || !read_uint (lx, _("openclosed"), &a, NULL, error)
              || !read_uint (lx, _("positionquality"), &b, NULL, error)
              || !expect_close (lx, "AnimationOptions", error))
            return FALSE;
          sq_props_set (clip->joints[ji].extra, "animation_options", g_variant_new ("(uu)", a, b));
        }
      else
        {
          /* an inline Frame names the joint; anything else is skipped */
          Tok on, oo;
          if (!object_header (lx, &t, &on, &oo, error))
            return FALSE;
          if (tok_is (&t, "Frame") && !named && on.type == TOK_WORD)
            {
              g_free (clip->joints[ji].name);
              clip->joints[ji].name = _sq_latin1_to_utf8 ((const guint8 *) on.s, on.len);
              named = TRUE;
              sq_clip_add_warning (clip, _("line %u: the Animation holds its frame inline; its contents are not kept"),
                                   t.line);
            }
          else
            count_other (rd, &t);
          if (!skip_block (lx, &oo, error))
            return FALSE;
        }
    }

  if (!named)
    {
      g_autofree char *fallback = NULL;
      GVariant *an = sq_props_get (clip->joints[ji].extra, "animation_name");
      fallback = an ? g_variant_dup_string (an, NULL) : g_strdup_printf ("animation%zu", ji + 1);
      sq_clip_add_warning (clip, _("line %u: an Animation names no frame; it is called “%s”"), open.line, fallback);
      g_free (clip->joints[ji].name);
      clip->joints[ji].name = g_steal_pointer (&fallback);
    }
  if (matrix_flags & 1)
    sq_clip_add_warning (clip, _("joint “%s”: matrix keys with shear or projection; only rotation, scale and position are kept"),
                         clip->joints[ji].name);
  if (matrix_flags & 2)
    sq_clip_add_warning (clip, _("joint “%s”: matrix keys with non-uniform scale"), clip->joints[ji].name);
  if (matrix_flags & 4)
    sq_clip_add_warning (clip, _("joint “%s”: mirrored matrix keys, read as a negative x scale"), clip->joints[ji].name);
  if (matrix_flags & 8)
    sq_clip_add_warning (clip, _("joint “%s”: degenerate matrix keys (a zero scale) read as no rotation"),
                         clip->joints[ji].name);
  return TRUE;
}

static gboolean
parse_set (Reader    *rd,
           const Tok *type,
           GError   **error)
{
  Lexer *lx = &rd->lx;
  Tok name, open, t;

  if (!object_header (lx, type, &name, &open, error))
    return FALSE;
  if (name.type == TOK_WORD)
    sq_props_set (lx->clip->extra, "set_name",
                  g_variant_new_take_string (_sq_latin1_to_utf8 ((const guint8 *) name.s, name.len)));
  for (;;)
    {
      if (!lex_next (lx, &t, error))
        return FALSE;
      switch (t.type)
        {
        case TOK_RBRACE:
          lx->depth--;
          return TRUE;
        case TOK_SEMI:
        case TOK_COMMA:
        case TOK_STRING:
          continue;
        case TOK_EOF:
          sq_set_error_at_line (error, SQ_ERROR_TRUNCATED, t.line, t.col,
                                _("the file ends inside the AnimationSet opened at line %u, column %u"),
                                open.line, open.col);
          return FALSE;
        case TOK_LBRACE:
          if (!enter (lx, &t, error) || !skip_block (lx, &t, error))
            return FALSE;
          continue;
        case TOK_WORD:
        default:
          if (tok_is (&t, "Animation"))
            {
              if (!parse_animation (rd, &t, error))
                return FALSE;
            }
          else if (tok_is (&t, "AnimTicksPerSecond"))
            {
              if (!parse_ticks (rd, &t, FALSE, error))
                return FALSE;
            }
          else
            {
              Tok on, oo;
              if (!object_header (lx, &t, &on, &oo, error) || !skip_block (lx, &oo, error))
                return FALSE;
              count_other (rd, &t);
            }
        }
    }
}

static gboolean
check_header (const char *data,
              gsize       len,
              GString    *header,
              GError    **error)
{
  gsize i;

  if (len < 16 || memcmp (data, "xof ", 4) != 0)
    {
      sq_set_error_at_line (error, SQ_ERROR_BAD_MAGIC, 1, 1, _("a DirectX file starts with “xof ”"));
      return FALSE;
    }
  for (i = 4; i < 8; i++)
    if (!g_ascii_isdigit (data[i]))
      {
        sq_set_error_at_line (error, SQ_ERROR_BAD_MAGIC, 1, i + 1, _("the version after “xof ” is not four digits"));
        return FALSE;
      }
  if (memcmp (data + 8, "bin ", 4) == 0 || memcmp (data + 8, "tzip", 4) == 0 || memcmp (data + 8, "bzip", 4) == 0
      || memcmp (data + 8, "cmp ", 4) == 0)
    {
      sq_set_error_at_line (error, SQ_ERROR_UNSUPPORTED, 1, 9,
                            _("binary or compressed DirectX files (“%.4s”) are not supported; only “txt ”"), data + 8);
      return FALSE;
    }
  if (memcmp (data + 8, "txt ", 4) != 0)
    {
      sq_set_error_at_line (error, SQ_ERROR_BAD_MAGIC, 1, 9, _("the format in the header is not “txt ”"));
      return FALSE;
    }
  if (memcmp (data + 12, "0032", 4) != 0 && memcmp (data + 12, "0064", 4) != 0)
    {
      sq_set_error_at_line (error, SQ_ERROR_UNSUPPORTED, 1, 13, _("the float size in the header is not 0032 or 0064"));
      return FALSE;
    }
  g_string_append_len (header, data, 16);
  return TRUE;
}

static SqClip *
dx_read (GBytes              *bytes,
         const SqLoadOptions *options,
         GError             **error)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  g_autoptr(GString) header = g_string_new (NULL);
  Reader rd = { 0 };
  gboolean ok = FALSE;
  double tps, last = 0.0;
  const char *nul;

  if (!check_header (data, len, header, error))
    return NULL;
  if ((nul = memchr (data, '\0', len)) != NULL)
    {
      /* the line of the NUL, for the message */
      guint line = 1;
      const char *ls = data;
      for (const char *p = data; p < nul; p++)
        if (*p == '\n' || (*p == '\r' && p[1] != '\n'))
          {
            line++;
            ls = p + 1;
          }
      sq_set_error_at_line (error, SQ_ERROR_SYNTAX, line, (guint) (nul - ls) + 1, _("a NUL byte in a text DirectX file"));
      return NULL;
    }

  rd.lx.data = data;
  rd.lx.len = len;
  rd.lx.line = 1;
  rd.lx.clip = clip;
  rd.max_joints = options->max_joints ? options->max_joints : 65536;
  rd.other_types = g_array_new (FALSE, FALSE, sizeof (char *));
  rd.other_counts = g_array_new (FALSE, FALSE, sizeof (guint));
  g_variant_builder_init (&rd.other_sets, G_VARIANT_TYPE ("a(say)"));

  if (strcmp (header->str, "xof 0303txt 0032") != 0)
    sq_props_set (clip->extra, "header", g_variant_new_string (header->str));
  /* the rest of the first line is not read (Assimp) */
  rd.lx.pos = 16;
  while (rd.lx.pos < len && data[rd.lx.pos] != '\n' && data[rd.lx.pos] != '\r')
    rd.lx.pos++;

  for (;;)
    {
      Tok t;

      if (!lex_next (&rd.lx, &t, error))
        goto out;
      if (t.type == TOK_EOF)
        break;
      if (t.type == TOK_SEMI || t.type == TOK_COMMA || t.type == TOK_STRING)
        continue;
      if (t.type == TOK_RBRACE)
        {
          sq_set_error_at_line (error, SQ_ERROR_SYNTAX, t.line, t.col, _("a “}” with no “{” to close"));
          goto out;
        }
      if (t.type == TOK_LBRACE)
        {
          if (!enter (&rd.lx, &t, error) || !skip_block (&rd.lx, &t, error))
            goto out;
          continue;
        }
      if (tok_is (&t, "AnimTicksPerSecond"))
        {
          if (!parse_ticks (&rd, &t, TRUE, error))
            goto out;
        }
      else if (tok_is (&t, "AnimationSet") && !rd.have_set)
        {
          rd.have_set = TRUE;
          if (!parse_set (&rd, &t, error))
            goto out;
        }
      else if (tok_is (&t, "AnimationSet"))
        {
          Tok on, oo;
          gsize start = t.s - data;
          g_autofree char *name = NULL;

          if (!object_header (&rd.lx, &t, &on, &oo, error) || !skip_block (&rd.lx, &oo, error))
            goto out;
          name = on.type == TOK_WORD ? _sq_latin1_to_utf8 ((const guint8 *) on.s, on.len) : g_strdup ("");
          g_variant_builder_add_value (&rd.other_sets,
                                       g_variant_new ("(s@ay)", name,
                                                      g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, data + start,
                                                                                 rd.lx.pos - start, 1)));
          rd.n_other_sets++;
          sq_clip_add_warning (clip, _("line %u: AnimationSet “%s” is kept aside; the first set is the clip"),
                               t.line, name);
        }
      else
        {
          Tok on, oo;
          if (!object_header (&rd.lx, &t, &on, &oo, error) || !skip_block (&rd.lx, &oo, error))
            goto out;
          count_other (&rd, &t);
        }
    }

  if (!rd.have_set)
    {
      sq_set_error_at_line (error, SQ_ERROR_UNSUPPORTED, rd.lx.line, 1,
                            _("the DirectX file has no AnimationSet: there is no animation to read"));
      goto out;
    }

  tps = rd.have_ticks ? rd.ticks : DX_DEFAULT_TICKS;
  clip->fps = tps;
  clip->frame_base = 0;
  if (rd.have_ticks && rd.ticks_at_top)
    sq_props_set (clip->extra, "ticks_at_top", g_variant_new_boolean (TRUE));
  if (rd.ticks_name != NULL)
    sq_props_set (clip->extra, "ticks_name", g_variant_new_string (rd.ticks_name));
  if (rd.n_other_sets > 0)
    sq_props_set (clip->extra, "other_sets", g_variant_builder_end (&rd.other_sets));
  if (rd.other_types->len > 0)
    {
      GVariantBuilder b;
      g_variant_builder_init (&b, G_VARIANT_TYPE ("a(su)"));
      for (guint i = 0; i < rd.other_types->len; i++)
        g_variant_builder_add (&b, "(su)", g_array_index (rd.other_types, char *, i),
                               g_array_index (rd.other_counts, guint, i));
      sq_props_set (clip->extra, "other_objects", g_variant_builder_end (&b));
    }

  /* ticks to seconds; sorted, one key per tick */
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        SqTrack *track = &clip->joints[j].tracks[c];
        gsize w = 0, dropped = 0;

        sq_track_sort (track);
        for (gsize k = 0; k < track->n_keys; k++)
          {
            if (w > 0 && track->keys[k].time == track->keys[w - 1].time)
              {
                dropped++;
                continue;
              }
            track->keys[w++] = track->keys[k];
          }
        if (dropped > 0)
          sq_clip_add_warning (clip, _("joint “%s”: %zu keys repeat the tick of an earlier key and are ignored"),
                               clip->joints[j].name, dropped);
        track->n_keys = w;
        for (gsize k = 0; k < w; k++)
          track->keys[k].time /= tps;
        if (w > 0)
          last = MAX (last, track->keys[w - 1].time);
      }
  clip->duration = last;
  ok = TRUE;

out:
  g_variant_builder_clear (&rd.other_sets);
  for (guint i = 0; i < rd.other_types->len; i++)
    g_free (g_array_index (rd.other_types, char *, i));
  g_array_unref (rd.other_types);
  g_array_unref (rd.other_counts);
  g_free (rd.ticks_name);
  return ok ? g_steal_pointer (&clip) : NULL;
}

static int
dx_probe (const guint8 *data,
          gsize         len)
{
  if (len < 16 || memcmp (data, "xof ", 4) != 0)
    return 0;
  if (memcmp (data + 8, "txt ", 4) == 0)
    return 100;
  return 50;
}

/* ---- writing ------------------------------------------------------------- */

/* Six decimals when that reads back exactly, else the shortest exact text. */
static void
append_value (GString *s,
              double   v)
{
  /* the check that the text reads back is made on the digits (SQ_PERF) */
  if (!_sq_append_number_exact (s, v, 6))
    _sq_append_shortest (s, v);   /* sq_format_double's text, without printf */
}

static void
indent (GString *s,
        guint    level)
{
  for (guint i = 0; i < level; i++)
    g_string_append (s, "  ");
}

/* A name as the tokenizer reads it back: one word, Latin-1, not a comment,
 * not too long for a 250-character line. */
static void
append_name (GString    *out,
             const char *utf8,
             const char *what,
             GPtrArray  *losses)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  gboolean changed = FALSE;

  if (!_sq_utf8_to_latin1 (utf8, b))
    _sq_loss (losses, _("%s “%s”: characters outside Latin-1 are written as “?”"), what, utf8);
  if (b->len > DX_MAX_NAME)
    {
      g_byte_array_set_size (b, DX_MAX_NAME);
      changed = TRUE;
    }
  for (guint i = 0; i < b->len; i++)
    if (ends_word ((char) b->data[i]) || b->data[i] < 0x20 || b->data[i] == 0x7f)
      {
        b->data[i] = '_';
        changed = TRUE;
      }
  if (b->len == 0 || b->data[0] == '#' || b->data[0] == '<'
      || (b->len >= 2 && b->data[0] == '/' && b->data[1] == '/'))
    {
      g_byte_array_prepend (b, (const guint8 *) "_", 1);
      changed = TRUE;
    }
  if (changed)
    {
      g_autofree char *w = _sq_latin1_to_utf8 (b->data, b->len);
      _sq_loss (losses, _("%s “%s” cannot stand in a DirectX file as it is; written as “%s”"), what, utf8, w);
    }
  g_string_append_len (out, (const char *) b->data, b->len);
}

static void
write_ticks (GString      *out,
             const SqClip *clip,
             guint32       tps,
             guint         level,
             GPtrArray    *losses)
{
  GVariant *name = sq_props_get (clip->extra, "ticks_name");

  indent (out, level);
  g_string_append (out, "AnimTicksPerSecond ");
  if (name != NULL && g_variant_is_of_type (name, G_VARIANT_TYPE_STRING))
    {
      append_name (out, g_variant_get_string (name, NULL), _("the AnimTicksPerSecond name"), losses);
      g_string_append_c (out, ' ');
    }
  g_string_append (out, "{\r\n");
  indent (out, level + 1);
  g_string_append_printf (out, "%u;\r\n", tps);
  indent (out, level);
  g_string_append (out, "}\r\n");
}

/* One joint's Animation block: the joints of a large clip are written on
 * several threads, then put together in order (sq-parallel.h) */
typedef struct
{
  const SqClip *clip;
  guint32       tps;
  double       *last;         /* out: per joint, the time of its last key written */
} AnimationsWrite;

static void
write_animation (gsize      j,
                 GString   *out,
                 GPtrArray *losses,
                 gpointer   data)
{
  AnimationsWrite *w = data;
  guint32 tps = w->tps;
  const SqJoint *joint = &w->clip->joints[j];
  GVariant *v;
  static const SqChannel order[3] = { SQ_CHANNEL_ROTATION, SQ_CHANNEL_SCALE, SQ_CHANNEL_TRANSLATION };
  static const guint types[3] = { 0, 1, 2 };
  const char *what[3] = { _("rotation"), _("scale"), _("position") };

  g_string_append (out, "  Animation ");
  if ((v = sq_props_get (joint->extra, "animation_name")) != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
    {
      append_name (out, g_variant_get_string (v, NULL), _("the Animation name"), losses);
      g_string_append_c (out, ' ');
    }
  g_string_append (out, "{\r\n    {");
  append_name (out, joint->name, _("joint"), losses);
  g_string_append (out, "}\r\n");
  if ((v = sq_props_get (joint->extra, "animation_options")) != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE ("(uu)")))
    {
      guint32 a, b;
      g_variant_get (v, "(uu)", &a, &b);
      g_string_append_printf (out, "    AnimationOptions {\r\n      %u;\r\n      %u;\r\n    }\r\n", a, b);
    }

  for (guint c = 0; c < 3; c++)
    {
      const SqTrack *track = &joint->tracks[order[c]];
      g_autoptr(GArray) kept = NULL;
      g_autoptr(GArray) steps = NULL;
      guint nvals = order[c] == SQ_CHANNEL_ROTATION ? 4 : 3;
      guint first = 0, end, bad = 0;

      if (track->n_keys == 0)
        continue;
      kept = _sq_track_to_grid (track, tps, 0, tps, joint->name, what[c], &steps, losses);
      while (first < steps->len && g_array_index (steps, gint64, first) < 0)
        first++;
      end = first;
      while (end < steps->len && g_array_index (steps, gint64, end) <= G_MAXUINT32)
        end++;
      if (first > 0 || end < steps->len)
        _sq_loss (losses, _("joint “%s”: %u %s keys before time 0 or beyond tick 4294967295 left out"),
                  joint->name, first + (steps->len - end), what[c]);
      if (end == first)
        continue;

      g_string_append_printf (out, "    AnimationKey {\r\n      %u;\r\n      %u;\r\n", types[c], end - first);
      for (guint i = first; i < end; i++)
        {
          const SqKey key_value = sq_track_key (track, g_array_index (kept, gsize, i)), *key = &key_value;
          double val[4];

          memcpy (val, key->v, sizeof val);
          for (guint n = 0; n < nvals; n++)
            if (!isfinite (val[n]))
              {
                val[n] = order[c] == SQ_CHANNEL_SCALE ? 1.0 : (order[c] == SQ_CHANNEL_ROTATION && n == 0) ? 1.0 : 0.0;
                bad++;
              }
          /* "      %" G_GINT64_FORMAT ";%u;" without printf */
          g_string_append_len (out, "      ", 6);
          _sq_append_int64 (out, g_array_index (steps, gint64, i));
          g_string_append_c (out, ';');
          _sq_append_int64 (out, nvals);
          g_string_append_c (out, ';');
          for (guint n = 0; n < nvals; n++)
            {
              if (n > 0)
                g_string_append_c (out, ',');
              append_value (out, val[n]);
            }
          g_string_append_len (out, i + 1 < end ? ";;,\r\n" : ";;;\r\n", 5);
        }
      g_string_append (out, "    }\r\n");
      w->last[j] = MAX (w->last[j], (double) g_array_index (steps, gint64, end - 1) / tps);
      if (bad > 0)
        _sq_loss (losses, _("joint “%s”: %u %s values that are not numbers written as 0 or 1"),
                  joint->name, bad, what[c]);
    }
  g_string_append (out, "  }\r\n");
}

static GBytes *
dx_write (const SqClip        *clip,
          const SqSaveOptions *options G_GNUC_UNUSED,
          GPtrArray           *losses,
          GError             **error G_GNUC_UNUSED)
{
  GString *out = g_string_sized_new (4096);
  guint32 tps = DX_DEFAULT_TICKS;
  gboolean at_top = sq_props_get_bool (clip->extra, "ticks_at_top", FALSE);
  GVariant *v;
  double last = 0.0;

  if (clip->fps >= 1 && clip->fps <= G_MAXUINT32 && clip->fps == floor (clip->fps))
    tps = (guint32) clip->fps;
  else
    _sq_loss (losses, _("the frame rate %g is not a whole number of ticks per second; %u ticks per second are written"),
              clip->fps, tps);

  if ((v = sq_props_get (clip->extra, "header")) != NULL)
    _sq_loss (losses, _("the header “%s” is written as “xof 0303txt 0032”"), g_variant_get_string (v, NULL));
  if ((v = sq_props_get (clip->extra, "other_sets")) != NULL)
    _sq_loss (losses, _("%zu further AnimationSet(s) are not written (ActiveWorlds reads one)"),
              g_variant_n_children (v));
  if ((v = sq_props_get (clip->extra, "other_objects")) != NULL)
    _sq_loss (losses, _("frames, meshes and other templates (%zu kinds of object) are not written"),
              g_variant_n_children (v));
  if (clip->name[0] != '\0')
    _sq_loss (losses, _("the model name “%s” (DirectX animations have none)"), clip->name);

  g_string_append (out, "xof 0303txt 0032\r\n\r\n");
  if (at_top)
    {
      write_ticks (out, clip, tps, 0, losses);
      g_string_append (out, "\r\n");
    }
  g_string_append (out, "AnimationSet ");
  if ((v = sq_props_get (clip->extra, "set_name")) != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
    {
      append_name (out, g_variant_get_string (v, NULL), _("the AnimationSet name"), losses);
      g_string_append_c (out, ' ');
    }
  g_string_append (out, "{\r\n");
  if (!at_top)
    write_ticks (out, clip, tps, 1, losses);

  {
    AnimationsWrite w = { clip, tps, g_new0 (double, MAX (clip->n_joints, 1)) };
    g_autofree gsize *costs = g_new (gsize, MAX (clip->n_joints, 1));

    /* about 96 bytes a key (four numbers of up to 17 digits) */
    for (gsize j = 0; j < clip->n_joints; j++)
      costs[j] = 96 * SQ_PARALLEL_PRINT_WEIGHT * (clip->joints[j].tracks[SQ_CHANNEL_ROTATION].n_keys
                                                  + clip->joints[j].tracks[SQ_CHANNEL_SCALE].n_keys
                                                  + clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION].n_keys);
    _sq_parallel_parts (clip->n_joints, costs, write_animation, &w, out, losses);
    for (gsize j = 0; j < clip->n_joints; j++)
      last = MAX (last, w.last[j]);
    g_free (w.last);
  }
  g_string_append (out, "}\r\n");

  if (clip->duration > last + 1e-9)
    _sq_loss (losses, _("the duration %.6g s (DirectX has none; the last key at %.6g s ends the clip)"),
              clip->duration, last);
  return g_string_free_to_bytes (out);
}

static char *
dx_describe_field (const char *key,
                   GVariant   *value)
{
  if (g_str_equal (key, "set_name"))
    return g_strdup_printf (_("the AnimationSet name “%s”"), g_variant_get_string (value, NULL));
  if (g_str_equal (key, "animation_name"))
    return g_strdup_printf (_("the Animation name “%s”"), g_variant_get_string (value, NULL));
  if (g_str_equal (key, "animation_options"))
    {
      guint32 a, b;
      g_variant_get (value, "(uu)", &a, &b);
      return g_strdup_printf (_("AnimationOptions (%s, %s interpolation of positions)"),
                              a ? _("open") : _("closed"), b ? _("linear") : _("spline"));
    }
  if (g_str_equal (key, "other_sets"))
    return g_strdup_printf (_("%zu further AnimationSet(s)"), g_variant_n_children (value));
  if (g_str_equal (key, "other_objects"))
    {
      GString *s = g_string_new (_("frames, meshes and other templates:"));
      for (gsize i = 0; i < g_variant_n_children (value); i++)
        {
          const char *type;
          guint32 n;
          g_variant_get_child (value, i, "(&su)", &type, &n);
          g_string_append_printf (s, "%s %u %s", i ? "," : "", n, type);
        }
      return g_string_free (s, FALSE);
    }
  if (g_str_equal (key, "header"))
    return g_strdup_printf (_("the header “%s”"), g_variant_get_string (value, NULL));
  if (g_str_equal (key, "ticks_name"))
    return g_strdup_printf (_("the AnimTicksPerSecond name “%s”"), g_variant_get_string (value, NULL));
  return NULL;   /* ticks_at_top: a placement, nothing is lost */
}

static gboolean
dx_dump_field (GString    *out,
               const char *key,
               GVariant   *value,
               gboolean    json)
{
  if (!g_str_equal (key, "other_sets"))
    return FALSE;
  /* names and sizes, not the sets' whole text */
  if (json)
    g_string_append_c (out, '[');
  for (gsize i = 0; i < g_variant_n_children (value); i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (value, i);
      g_autoptr(GVariant) text = g_variant_get_child_value (child, 1);
      const char *name;

      g_variant_get_child (child, 0, "&s", &name);
      if (json)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          g_string_append (out, "{\"name\":");
          _sq_json_string (out, name);
          g_string_append_printf (out, ",\"bytes\":%zu}", g_variant_n_children (text));
        }
      else
        g_string_append_printf (out, "%s“%s” (%zu bytes)", i ? ", " : "other_sets: ", name,
                                g_variant_n_children (text));
    }
  g_string_append (out, json ? "]" : "\n");
  return TRUE;
}

static const char * const dx_extensions[] = { "x", NULL };
static const char * const dx_fields[] = {
  "set_name", "ticks_at_top", "ticks_name", "animation_name", "animation_options", NULL
};

const SqFormat _sq_format_dx = {
  .id = "dx",
  .name = N_("ActiveWorlds DirectX animation"),
  .extensions = dx_extensions,
  .mime_type = "text/x-directx-animation",
  .flags = SQ_FORMAT_READ | SQ_FORMAT_WRITE | SQ_FORMAT_TEXT | SQ_FORMAT_FRAME_RATE,
  .fields = dx_fields,
  .describe_field = dx_describe_field,
  .dump_field = dx_dump_field,
  .probe = dx_probe,
  .read = dx_read,
  .write = dx_write,
  .space = &sq_space_aw_dx,
};
