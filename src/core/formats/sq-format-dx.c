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
 * Reading: each AnimationSet is a take (sq_clip_get_takes); the one
 * SqLoadOptions.take names (the first by default) is the clip, the others
 * are kept whole, as their bytes, in clip->extra "other_sets" (name,
 * text), in file order without the clip's.
 * Meshes, templates and other top-level objects are skipped by brace
 * counting (nesting bounded by DX_MAX_DEPTH), counted in "other_objects"
 * and kept whole, as their bytes, in "other_blocks" (where they stood
 * among the sets, type, text); so are Frames, whose hierarchy (names,
 * nesting and FrameTransformMatrix) is also kept in "frames"
 * (parse_frame): the rest skeleton conversions and the preview use
 * (sq-convert.c). Key types 0 rotation (w, x, y, z as the file stores
 * them), 1 scale, 2 position, 3 and 4 matrix (row-vector D3D layout,
 * decomposed into the three). Key time = tick / AnimTicksPerSecond (30 when
 * the file has none; the value is clip->fps; a top-level one is every
 * set's, kept as "other_sets_ticks" when there are other sets). Names are Latin-1.
 * The keys of each AnimationKey are read after the rest of the file, the
 * blocks of a large one on several threads (dx_read_pass); a file
 * that does not allow it (a "}" in a comment among keys) is read in order.
 *
 * Writing: "xof 0303txt 0032", CRLF, two-space indents, AnimTicksPerSecond
 * inside the set (where ActiveWorlds' own example has it) unless the clip was
 * read with it at the top level, the clip's AnimationSet with the other
 * sets and top-level objects as they were read before and after it (in
 * the file's order; the comments between them are not kept), one Animation per joint
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
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "sq-math.h"
#include "sq-parallel.h"
#include "sq-private.h"
#include "worlds/sq-world-aw.h"

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
  SqClip     *clip;          /* NULL while a key block is read on another thread */
  gboolean    warned_ind;
  /* with no clip: the first "#IND" word met, said later (merge_warnings) */
  guint       ind_line;
  const char *ind_s;
  gsize       ind_len;
} Lexer;

/* The positions, line ends, comments and numbers are the shared reader's
 * (sq-text-reader.h); the tokens here add the punctuation and quoted
 * strings of .x to its blanks. */

/* 1: a blank; 2: ends a word (blanks and the punctuation) */
static const guint8 char_class[256] = {
  [' '] = 3, ['\t'] = 3, ['\r'] = 3, ['\n'] = 3, ['\f'] = 3, ['\v'] = 3,
  ['{'] = 2, ['}'] = 2, [';'] = 2, [','] = 2, ['"'] = 2,
};

/* The blanks, for _sq_text_skip_counting: 2 LF, 3 CR, 1 the others */
static const guint8 blank_class[256] = {
  [' '] = 1, ['\t'] = 1, ['\f'] = 1, ['\v'] = 1, ['\n'] = 2, ['\r'] = 3,
};

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
      lx->pos = _sq_text_skip_counting (d + lx->pos, d + lx->len, d, blank_class, &lx->line, &lx->line_start) - d;
      if (!_sq_text_at_comment (d + lx->pos, d + lx->len))
        break;
      lx->pos = _sq_text_line_end (d + lx->pos, d + lx->len) - d;
    }

  t->line = lx->line;
  t->col = _sq_text_column (lx->pos, lx->line_start);
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
            if (_sq_text_ends_line (d, lx->len, i))
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
      g_autofree char *w = _sq_text_excerpt (t->s, t->len, 40, FALSE);
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
  g_autofree char *what = _sq_text_excerpt (type->s, type->len, 40, FALSE);
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
      g_autofree char *w = _sq_text_excerpt (t.s, t.len, 40, FALSE);
      sq_set_error_at_line (error, SQ_ERROR_SYNTAX, t.line, t.col,
                            _("%s must be a whole number from 0 to 4294967295, not “%s”"),
                            g_dgettext (GETTEXT_PACKAGE, what), w);
      return FALSE;
    }
  *out = (guint32) v;
  return TRUE;
}

static void
warn_not_a_number (SqClip     *clip,
                   guint       line,
                   const char *s,
                   gsize       len)
{
  g_autofree char *w = _sq_latin1_to_utf8 ((const guint8 *) s, len);

  sq_clip_add_warning (clip, _("line %u: “%s” (not a number) is read as 0, as Assimp does"), line, w);
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
      if (!lx->warned_ind && lx->clip != NULL)
        warn_not_a_number (lx->clip, t.line, t.s, t.len);
      else if (!lx->warned_ind)
        {
          lx->ind_line = t.line;
          lx->ind_s = t.s;
          lx->ind_len = t.len;
        }
      lx->warned_ind = TRUE;
      *out = 0.0;
      return TRUE;
    }
  {
    g_autofree char *w = _sq_text_excerpt (t.s, t.len, 40, FALSE);
    sq_set_error_at_line (error, SQ_ERROR_SYNTAX, t.line, t.col, _("“%s” is not a finite number"), w);
  }
  return FALSE;
}

/* ---- reading ------------------------------------------------------------- */

/* A track's keys kept as their text: where each key starts (see
 * place_blocks and the codec below them) */
typedef struct _DxKeys
{
  GBytes     *text;           /* the bytes read, held while the records are */
  const char *data;
  gsize       len;
  guint32     type;           /* 0, 1 or 2 */
  const char *keys[];         /* the records */
} DxKeys;

/* The keys of one AnimationKey, read after the rest of the file (on
 * several threads for a large one, sq-parallel.h): the first pass leaves
 * them for later and reads on from the first "}" after them (defer_keys);
 * each block then checks that its keys do end there (read_block). */
typedef struct
{
  /* the lexer just after the key count */
  gsize    start;
  guint    line;
  gsize    line_start;
  guint    depth;
  /* the first "}" after it, and its line, as the first pass took them */
  gsize    end;
  guint    end_line;
  gsize    end_line_start;
  guint32  type;
  guint32  n;
  gsize    joint;
  gsize    base[SQ_N_CHANNELS]; /* the block's first key in each track it fills */
  gsize    warn_at;             /* the first pass's warnings before it */
  /* what reading the block found */
  GError  *error;
  gboolean moved;               /* read whole, but not ending at `end` */
  gboolean ordered;             /* its ticks increase */
  guint    matrix_flags;        /* decompose_matrix */
  guint    ind_line;            /* its first "#IND" word, 0 if none */
  const char *ind_s;
  gsize    ind_len;
  /* the track's only block, of rotation, scale or position keys: where
   * each key starts (the track is packed, see DxKeys); NULL when its keys
   * are read into the track */
  DxKeys   *text_keys;
  gboolean  repack;             /* a key start the lexer cannot restart at */
} KeyBlock;

/* The matrix warnings of an Animation's blocks, said where reading in
 * order says them: before the first pass's warning `at` */
typedef struct
{
  gsize    at;
  gsize    block;               /* its first block */
  gsize    n_blocks;
} WarningSpot;

typedef struct
{
  Lexer      lx;
  guint32    ticks;
  gboolean   have_ticks;
  gboolean   ticks_at_top;
  char      *ticks_name;
  gboolean   have_set;
  guint      want_set;      /* SqLoadOptions.take: the set that is the clip */
  GPtrArray *set_names;     /* every AnimationSet's name, in file order */
  GVariantBuilder other_sets;
  guint      n_other_sets;
  GVariantBuilder other_blocks; /* a(usay): sets before it, type, text */
  guint      n_other_blocks;
  GArray    *other_types;   /* char * (owned) */
  GArray    *other_counts;  /* guint */
  guint      max_joints;
  /* key blocks left for later (KeyBlock): NULL when read in place */
  GArray    *blocks;
  GArray    *spots;         /* WarningSpot */
  gsize      blocks_text;   /* their bytes */
  gboolean   blocks_nul;    /* a NUL byte inside a block */
  gboolean   again;         /* a block is not what it looks like: read in place */
  double     tps;           /* for the blocks' key times */
  GArray    *frames;        /* DxFrame: the file's Frame hierarchy */
  GBytes    *bytes;         /* the text read */
} Reader;

/* One Frame of the file's hierarchy (top-level Frames and the Frames in
 * them): its name, its parent's index (-1 at the top) and its
 * FrameTransformMatrix, identity when it has none */
typedef struct
{
  char    *name;
  gint32   parent;
  double   matrix[16];
} DxFrame;

/* A top-level object that is not an AnimationSet, from `start` to where
 * the reader is now: kept whole, after the sets read so far */
static void
keep_block (Reader    *rd,
            const Tok *type,
            gsize      start)
{
  g_autofree char *name = type->type == TOK_WORD ? _sq_latin1_to_utf8 ((const guint8 *) type->s, MIN (type->len, 64))
                                                 : g_strdup ("{");

  g_variant_builder_add (&rd->other_blocks, "(us@ay)", rd->set_names->len, name,
                         g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, rd->lx.data + start, rd->lx.pos - start, 1));
  rd->n_other_blocks++;
}

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

/* Blanks, line ends and runs of ';' ',' between the fields of a key, for
 * _sq_text_skip_counting: 1 a blank or separator that is no line end; 2:
 * LF; 3: CR */
static const guint8 skip_class[256] = {
  [' '] = 1, ['\t'] = 1, ['\f'] = 1, ['\v'] = 1, [';'] = 1, [','] = 1, ['\n'] = 2, ['\r'] = 3,
};

/* A key of the usual shape read straight from the text, without tokens: "tick; count; v1, …, vcount" with any blanks, line ends and
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

      p = _sq_text_skip_counting (p, end, d, skip_class, &line, &line_start);
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

      p = _sq_text_skip_counting (p, end, d, skip_class, &line, &line_start);
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

static const guint key_n_values[5] = { 4, 3, 3, 16, 16 };
static const SqChannel key_channel[3] = { SQ_CHANNEL_ROTATION, SQ_CHANNEL_SCALE, SQ_CHANNEL_TRANSLATION };

/* One key: its tick and the values its type has */
static gboolean
read_key_values (Lexer   *lx,
                 guint32  type,
                 guint32 *tick,
                 double   v[16],
                 GError **error)
{
  guint32 cnt;
  Tok cnt_at;

  if (scan_key_fast (lx, key_n_values[type], tick, v))
    return TRUE;
  if (!read_uint (lx, N_("the key time"), tick, NULL, error)
      || !read_uint (lx, N_("the value count"), &cnt, &cnt_at, error))
    return FALSE;
  if (cnt != key_n_values[type])
    {
      sq_set_error_at_line (error, SQ_ERROR_BAD_VALUE, cnt_at.line, cnt_at.col,
                            _("a key of type %u needs %u values, not %u"), type, key_n_values[type], cnt);
      return FALSE;
    }
  for (guint i = 0; i < cnt; i++)
    if (!read_float (lx, &v[i], error))
      return FALSE;
  return TRUE;
}

static inline void
set_key (SqKey        *key,
         double        time,
         const double *v,
         guint         n_values)
{
  key->time = time;
  key->v[3] = 0.0;
  for (guint i = 0; i < n_values; i++)
    key->v[i] = v[i];
}

/* The next key of a track: in the room reserved for the AnimationKey's
 * keys without a call, else by sq_track_append. */
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

/* From p: the first "}" before end (or end), with the LF and CR bytes
 * before it and whether a NUL byte is among them. One pass at the speed of
 * the memory: with SSE2 (every x86-64), 64 bytes at a time while
 * none is a "}" or a NUL, counting in byte lanes (up to 4 × 63 each); byte
 * by byte for the group that stops it and the last bytes. */
static const char *
scan_block (const char *p,
            const char *end,
            gsize      *n_lf,
            gsize      *n_cr,
            gboolean   *nul)
{
  gsize lf = 0, cr = 0;
  gboolean zero = FALSE;

  for (;;)
    {
      const char *group_end;

#ifdef __SSE2__
      const __m128i k_lf = _mm_set1_epi8 ('\n'), k_cr = _mm_set1_epi8 ('\r');
      const __m128i k_close = _mm_set1_epi8 ('}'), k_zero = _mm_setzero_si128 ();
      gboolean stopped = FALSE;

      while (!stopped && end - p >= 64)
        {
          __m128i acc_lf = k_zero, acc_cr = k_zero;

          for (guint g = 0; g < 63 && end - p >= 64; g++, p += 64)
            {
              __m128i v0 = _mm_loadu_si128 ((const __m128i *) (const void *) p);
              __m128i v1 = _mm_loadu_si128 ((const __m128i *) (const void *) (p + 16));
              __m128i v2 = _mm_loadu_si128 ((const __m128i *) (const void *) (p + 32));
              __m128i v3 = _mm_loadu_si128 ((const __m128i *) (const void *) (p + 48));
              __m128i stop = _mm_or_si128 (_mm_or_si128 (_mm_cmpeq_epi8 (v0, k_close), _mm_cmpeq_epi8 (v1, k_close)),
                                           _mm_or_si128 (_mm_cmpeq_epi8 (v2, k_close), _mm_cmpeq_epi8 (v3, k_close)));

              stop = _mm_or_si128 (stop, _mm_cmpeq_epi8 (_mm_min_epu8 (_mm_min_epu8 (v0, v1), _mm_min_epu8 (v2, v3)),
                                                         k_zero));
              if (_mm_movemask_epi8 (stop) != 0)
                {
                  stopped = TRUE;
                  break;
                }
              /* a lane that matches is all ones: subtracting it adds 1 */
              acc_lf = _mm_sub_epi8 (acc_lf, _mm_cmpeq_epi8 (v0, k_lf));
              acc_lf = _mm_sub_epi8 (acc_lf, _mm_cmpeq_epi8 (v1, k_lf));
              acc_lf = _mm_sub_epi8 (acc_lf, _mm_cmpeq_epi8 (v2, k_lf));
              acc_lf = _mm_sub_epi8 (acc_lf, _mm_cmpeq_epi8 (v3, k_lf));
              acc_cr = _mm_sub_epi8 (acc_cr, _mm_cmpeq_epi8 (v0, k_cr));
              acc_cr = _mm_sub_epi8 (acc_cr, _mm_cmpeq_epi8 (v1, k_cr));
              acc_cr = _mm_sub_epi8 (acc_cr, _mm_cmpeq_epi8 (v2, k_cr));
              acc_cr = _mm_sub_epi8 (acc_cr, _mm_cmpeq_epi8 (v3, k_cr));
            }
          /* the lanes added up: two sums of eight bytes each */
          acc_lf = _mm_sad_epu8 (acc_lf, k_zero);
          acc_cr = _mm_sad_epu8 (acc_cr, k_zero);
          lf += (guint) _mm_cvtsi128_si32 (acc_lf) + (guint) _mm_cvtsi128_si32 (_mm_unpackhi_epi64 (acc_lf, acc_lf));
          cr += (guint) _mm_cvtsi128_si32 (acc_cr) + (guint) _mm_cvtsi128_si32 (_mm_unpackhi_epi64 (acc_cr, acc_cr));
        }
#endif
      group_end = end - p > 64 ? p + 64 : end;
      for (; p < group_end; p++)
        {
          if (*p == '}')
            goto out;
          lf += *p == '\n';
          cr += *p == '\r';
          zero |= *p == '\0';
        }
      if (p == end)
        break;
    }
out:
  *n_lf = lf;
  *n_cr = cr;
  *nul = zero;
  return p;
}

/* In the first pass of a deferred read, after the key count: the keys are
 * left for read_block, and the file is read on from the first "}" after
 * them, at the line counted up to it. FALSE with rd->again set when there
 * is no "}" or too little text before it for the keys (a "}" in a comment,
 * a damaged file): the file is then read again in place, which says what
 * it holds; this also bounds the keys reserved by the text they take. */
static gboolean
defer_keys (Reader  *rd,
            gsize    joint_index,
            guint32  type,
            guint32  n)
{
  Lexer *lx = &rd->lx;
  const char *d = lx->data;
  SqJoint *joint = &lx->clip->joints[joint_index];
  KeyBlock b = { 0 };
  gboolean nul;
  gsize n_lf, n_cr;
  const char *close = scan_block (d + lx->pos, d + lx->len, &n_lf, &n_cr, &nul);

  /* a key is 2 + n_values words, each with a blank or separator after it
   * but the last one; and thousands of blocks of a few keys each are not
   * worth their records (nor the threads) */
  rd->blocks_text += close - (d + lx->pos);
  if (close == d + lx->len
      || (guint64) n * (2 * (2 + key_n_values[type])) > (guint64) (close - (d + lx->pos)) + 1
      || (rd->blocks->len >= 4096 && rd->blocks_text / rd->blocks->len < 1024))
    {
      rd->again = TRUE;
      return FALSE;
    }
  rd->blocks_nul |= nul;
  b.start = lx->pos;
  b.line = lx->line;
  b.line_start = lx->line_start;
  b.depth = lx->depth;
  b.end = close - d;
  b.type = type;
  b.n = n;
  b.joint = joint_index;
  b.warn_at = lx->clip->warnings->len;
  /* line ends taken as LF, CRLF or CR alone, not LF and CR alone in one
   * block (as "\n\r" between two lines): read_block finds out if they are */
  b.end_line = b.line + (guint) (n_lf + (n_cr > n_lf ? n_cr - n_lf : 0));
  b.end_line_start = b.line_start;
  for (gsize i = b.end; n_lf + n_cr > 0 && i > b.start; i--)
    if (d[i - 1] == '\n' || d[i - 1] == '\r')
      {
        b.end_line_start = i;   /* a CR met first from the end is a lone one */
        break;
      }
  if (n > 0)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      if (type > 2 || key_channel[type] == (SqChannel) c)
        {
          SqTrack *track = &joint->tracks[c];

          /* counted only: place_blocks gives the keys their room */
          b.base[c] = track->n_keys;
          track->n_keys += n;
        }
  g_array_append_val (rd->blocks, b);

  lx->pos = b.end + 1;
  lx->line = b.end_line;
  lx->line_start = b.end_line_start;
  lx->depth--;
  return TRUE;
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
  if (rd->blocks != NULL)
    return defer_keys (rd, joint_index, type, n);

  for (guint32 k = 0; k < n; k++)
    {
      guint32 tick;
      double v[16];
      SqJoint *joint = &lx->clip->joints[joint_index];

      if (!read_key_values (lx, type, &tick, v, error))
        return FALSE;
      if (k == 0)
        {
          if (type <= 2)
            sq_track_reserve (&joint->tracks[key_channel[type]], joint->tracks[key_channel[type]].n_keys + n);
          else
            for (guint c = 0; c < SQ_N_CHANNELS; c++)
              sq_track_reserve (&joint->tracks[c], joint->tracks[c].n_keys + n);
        }
      if (type <= 2)
        set_key (next_key (&joint->tracks[key_channel[type]], tick), tick, v, key_n_values[type]);
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

/* A deferred block's keys, into the room defer_keys kept in its tracks:
 * touches nothing else of the clip (blocks are read on several threads),
 * what it finds stays in the block */
static void
read_block (gsize    item,
            gpointer data)
{
  Reader *rd = data;
  KeyBlock *b = &g_array_index (rd->blocks, KeyBlock, item);
  SqJoint *joint = &rd->lx.clip->joints[b->joint];
  Lexer lx = { 0 };

  lx.data = rd->lx.data;
  lx.len = rd->lx.len;
  lx.pos = b->start;
  lx.line = b->line;
  lx.line_start = b->line_start;
  lx.depth = b->depth;
  b->ordered = TRUE;
  for (guint32 k = 0, prev = 0; k < b->n; k++)
    {
      guint32 tick;
      double v[16], time;

      if (b->text_keys != NULL)
        {
          b->repack |= lx.has_peek;
          b->text_keys->keys[k] = lx.data + lx.pos;
        }
      if (!read_key_values (&lx, b->type, &tick, v, &b->error))
        return;
      /* times in seconds at once: the division keeps the order of the
       * ticks and tells apart any two (they differ by at least 1 / tps,
       * more than 2^-32 of either), so sorting and the repeated ticks come
       * out as with ticks, and each time is what tick / tps gives after */
      time = tick / rd->tps;
      if (k > 0 && tick <= prev)
        b->ordered = FALSE;
      prev = tick;
      if (b->text_keys != NULL)
        continue;
      if (b->type <= 2)
        {
          SqChannel c = key_channel[b->type];

          set_key (&joint->tracks[c].keys[b->base[c] + k], time, v, key_n_values[b->type]);
        }
      else
        {
          double r[4], s[4], p[4];
          SqKey *key;

          b->matrix_flags |= decompose_matrix (v, r, s, p);
          key = &joint->tracks[SQ_CHANNEL_ROTATION].keys[b->base[SQ_CHANNEL_ROTATION] + k];
          key->time = time;
          memcpy (key->v, r, sizeof r);
          key = &joint->tracks[SQ_CHANNEL_SCALE].keys[b->base[SQ_CHANNEL_SCALE] + k];
          key->time = time;
          memcpy (key->v, s, sizeof s);
          key = &joint->tracks[SQ_CHANNEL_TRANSLATION].keys[b->base[SQ_CHANNEL_TRANSLATION] + k];
          key->time = time;
          memcpy (key->v, p, sizeof p);
        }
    }
  if (!expect_close (&lx, "AnimationKey", &b->error))
    return;
  b->moved = lx.pos != b->end + 1 || lx.line != b->end_line || lx.line_start != b->end_line_start;
  b->ind_line = lx.ind_line;
  b->ind_s = lx.ind_s;
  b->ind_len = lx.ind_len;
}

/* ---- AnimationKey lists kept as their text ------------------------------
 *
 * A track whose keys are one AnimationKey of rotation, scale or position
 * keys in rising ticks keeps, per key, where its text starts (8 bytes
 * instead of the 40 of a decoded key): a key is read from its text again
 * when it is asked for, with the reader's own read_key_values, so its
 * values and its time (tick / ticks per second, the track's packed_param)
 * are the same to the bit. */
static void
dx_keys_free (gpointer data)
{
  DxKeys *dk = data;

  g_bytes_unref (dk->text);
  g_free (dk);
}

static void
dx_key_read (const SqTrack *track,
             const guint8  *record,
             guint32       *tick,
             double         v[16])
{
  const DxKeys *dk = g_bytes_get_data (track->packed_bytes, NULL);
  const char *p;
  Lexer lx = { 0 };

  memcpy (&p, record, sizeof p);
  lx.data = dk->data;
  lx.len = dk->len;
  lx.pos = (gsize) (p - dk->data);
  lx.line = 1;
  *tick = 0;
  if (!read_key_values (&lx, dk->type, tick, v, NULL))   /* read whole before */
    memset (v, 0, 16 * sizeof (double));
}

/* The time alone: the tick as scan_key_fast reads it when it can (plain
 * digits first, the way read_key_values takes them), else the whole key */
static double
dx_key_time (const SqTrack *track,
             const guint8  *record)
{
  const DxKeys *dk = g_bytes_get_data (track->packed_bytes, NULL);
  const char *p, *digits, *end = dk->data + dk->len;
  guint line = 1;
  gsize line_start = 0;
  guint64 u = 0;
  guint32 tick;
  double v[16];

  memcpy (&p, record, sizeof p);
  p = _sq_text_skip_counting (p, end, dk->data, skip_class, &line, &line_start);
  digits = p;
  while (p < end && (guint) (*p - '0') < 10 && p - digits < 10)
    u = u * 10 + (guint) (*p++ - '0');
  if (p > digits && u <= G_MAXINT32 && p < end && ends_word (*p))
    return (guint32) u / track->packed_param;
  dx_key_read (track, record, &tick, v);
  return tick / track->packed_param;
}

static void
dx_key (const SqTrack *track,
        const guint8  *record,
        SqKey         *key)
{
  const DxKeys *dk = g_bytes_get_data (track->packed_bytes, NULL);
  guint32 tick;
  double v[16];

  dx_key_read (track, record, &tick, v);
  set_key (key, tick / track->packed_param, v, key_n_values[dk->type]);
}

static const SqKeyCodec dx_key_codec = { sizeof (const char *), dx_key_time, dx_key, NULL, NULL, NULL };

/* Room for each deferred block's keys: a track's only block of rotation,
 * scale or position keys gets its key starts (DxKeys), every other track
 * its keys, reserved once */
static void
place_blocks (Reader *rd)
{
  SqClip *clip = rd->lx.clip;
  g_autofree guint *n_blocks = g_new0 (guint, MAX (clip->n_joints, 1) * SQ_N_CHANNELS);
  gsize len;
  const char *data = g_bytes_get_data (rd->bytes, &len);

  for (guint i = 0; i < rd->blocks->len; i++)
    {
      const KeyBlock *b = &g_array_index (rd->blocks, KeyBlock, i);

      for (guint c = 0; c < SQ_N_CHANNELS && b->n > 0; c++)
        if (b->type > 2 || key_channel[b->type] == (SqChannel) c)
          n_blocks[b->joint * SQ_N_CHANNELS + c]++;
    }
  for (guint i = 0; i < rd->blocks->len; i++)
    {
      KeyBlock *b = &g_array_index (rd->blocks, KeyBlock, i);

      if (b->n == 0 || b->type > 2 || n_blocks[b->joint * SQ_N_CHANNELS + key_channel[b->type]] != 1)
        continue;
      b->text_keys = g_malloc (sizeof (DxKeys) + b->n * sizeof (const char *));
      b->text_keys->text = g_bytes_ref (rd->bytes);
      b->text_keys->data = data;
      b->text_keys->len = len;
      b->text_keys->type = b->type;
      n_blocks[b->joint * SQ_N_CHANNELS + key_channel[b->type]] = 0;   /* no room to reserve */
    }
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        SqTrack *track = &clip->joints[j].tracks[c];
        gsize n = track->n_keys;

        if (n_blocks[j * SQ_N_CHANNELS + c] == 0)
          continue;
        track->n_keys = 0;
        sq_track_reserve (track, n);
        track->n_keys = n;
      }
}

/* After the blocks are read: each track of one block of rising ticks is
 * packed; a block of other ticks (sorted later) or one whose key starts
 * cannot be read again alone is read again into its track's keys */
static void
pack_blocks (Reader *rd)
{
  SqClip *clip = rd->lx.clip;

  for (guint i = 0; i < rd->blocks->len; i++)
    {
      KeyBlock *b = &g_array_index (rd->blocks, KeyBlock, i);
      SqTrack *track;
      gsize size;

      if (b->text_keys == NULL)
        continue;
      track = &clip->joints[b->joint].tracks[key_channel[b->type]];
      if (b->repack || !b->ordered)
        {
          g_clear_pointer (&b->text_keys, dx_keys_free);
          track->n_keys = 0;
          sq_track_reserve (track, b->n);
          track->n_keys = b->n;
          read_block (i, rd);
          continue;
        }
      size = sizeof (DxKeys) + b->n * sizeof (const char *);
      {
        g_autoptr(GBytes) records = g_bytes_new_with_free_func (b->text_keys, size, dx_keys_free, b->text_keys);

        sq_track_pack (track, &dx_key_codec, records, (const guint8 *) b->text_keys->keys, b->n, rd->tps);
      }
      b->text_keys = NULL;
    }
}

/* The blocks go to the threads a run of them at a time, from a counter: a
 * thread that gets less of the processor (other programs run too) reads
 * fewer, where fixed shares would leave the others waiting for it */
typedef struct
{
  Reader *rd;
  gsize  *run_first;            /* n_runs + 1 */
  gsize   n_runs;
  gint    next;                 /* atomic */
} BlockRuns;

static void
take_block_runs (gsize    item G_GNUC_UNUSED,
                 gpointer data)
{
  BlockRuns *q = data;

  for (;;)
    {
      gsize r = (gsize) g_atomic_int_add (&q->next, 1);

      if (r >= q->n_runs)
        return;
      for (gsize i = q->run_first[r]; i < q->run_first[r + 1]; i++)
        read_block (i, q->rd);
    }
}

/* Every deferred block: on several threads when their text is large
 * enough for _sq_parallel_items, which runs takers, one a thread (four:
 * the most threads it uses), with a quarter of the text as their cost */
static void
read_blocks (Reader *rd)
{
  gsize n = rd->blocks->len, total = 0, goal, done = 0;
  BlockRuns q = { rd, g_new (gsize, n + 1), 0, 0 };
  gsize cost[4];

  for (gsize i = 0; i < n; i++)
    {
      const KeyBlock *b = &g_array_index (rd->blocks, KeyBlock, i);

      total += b->end - b->start;
    }
  /* runs of at least 1/64 of the text (up to 256 KB): few turns of the
   * counter, enough runs to even out */
  goal = MAX (MIN (total / 64, (gsize) 256 << 10), 1);
  for (gsize i = 0; i < n; i++)
    {
      const KeyBlock *b = &g_array_index (rd->blocks, KeyBlock, i);

      if (done == 0)
        q.run_first[q.n_runs++] = i;
      done += b->end - b->start + 1;
      if (done >= goal)
        done = 0;
    }
  q.run_first[q.n_runs] = n;
  for (guint t = 0; t < G_N_ELEMENTS (cost); t++)
    cost[t] = total / G_N_ELEMENTS (cost) + (t == 0 ? total % G_N_ELEMENTS (cost) : 0);
  _sq_parallel_items (G_N_ELEMENTS (cost), cost, take_block_runs, &q);
  g_free (q.run_first);
}

static void
warn_matrix (SqClip *clip,
             gsize   ji,
             guint   matrix_flags)
{
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
}

/* The next token inside the object opened at `open`, separators skipped;
 * at its "}" the depth is restored. The end of the file there is an error
 * (`animation`: the object is an Animation, as its message says). */
static gboolean
next_in_object (Lexer     *lx,
                const Tok *open,
                gboolean   animation,
                Tok       *t,
                GError   **error)
{
  for (;;)
    {
      if (!lex_next (lx, t, error))
        return FALSE;
      if (t->type == TOK_SEMI || t->type == TOK_COMMA)
        continue;
      if (t->type == TOK_EOF)
        {
          if (animation)
            sq_set_error_at_line (error, SQ_ERROR_TRUNCATED, t->line, t->col,
                                  _("the file ends inside the Animation opened at line %u, column %u"),
                                  open->line, open->col);
          else
            sq_set_error_at_line (error, SQ_ERROR_TRUNCATED, t->line, t->col,
                                  _("the file ends inside the object opened at line %u, column %u (a “}” is missing)"),
                                  open->line, open->col);
          return FALSE;
        }
      if (t->type == TOK_RBRACE)
        lx->depth--;
      return TRUE;
    }
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
  gsize first_block = rd->blocks != NULL ? rd->blocks->len : 0;

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
      if (!next_in_object (lx, &open, TRUE, &t, error))
        return FALSE;
      if (t.type == TOK_RBRACE)
        break;
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
  if (rd->blocks == NULL)
    warn_matrix (clip, ji, matrix_flags);
  else
    for (gsize i = first_block; i < rd->blocks->len; i++)
      if (g_array_index (rd->blocks, KeyBlock, i).type > 2)
        {
          /* its blocks' matrix warnings, once they are read */
          WarningSpot spot = { clip->warnings->len, first_block, rd->blocks->len - first_block };

          g_array_append_val (rd->spots, spot);
          break;
        }
  return TRUE;
}

/* ---- the frame hierarchy ---------------------------------------------------- */

/* After a FrameTransformMatrix's "{": its 16 numbers (row-vector D3D
 * layout, the translation in 12-14), read as leniently as skipping the
 * object would be: anything else inside is a warning and the frame keeps
 * the identity. */
static gboolean
parse_frame_matrix (Reader    *rd,
                    const Tok *open,
                    DxFrame   *frame,
                    GError   **error)
{
  Lexer *lx = &rd->lx;
  double m[16];
  guint n = 0;
  gboolean bad = FALSE;
  Tok t;

  for (;;)
    {
      double v;

      if (!next_in_object (lx, open, FALSE, &t, error))
        return FALSE;
      if (t.type == TOK_RBRACE)
        break;
      if (t.type == TOK_LBRACE)
        {
          if (!enter (lx, &t, error) || !skip_block (lx, &t, error))
            return FALSE;
          bad = TRUE;
          continue;
        }
      if (t.type != TOK_WORD || n >= 16 || !_sq_parse_double_in (t.s, t.len, lx->data + lx->len, &v) || !isfinite (v))
        bad = TRUE;
      else
        m[n] = v;
      n++;
    }
  if (bad || n != 16)
    sq_clip_add_warning (lx->clip, _("line %u: the FrameTransformMatrix of frame “%s” is not 16 numbers; the frame is taken without a transform"),
                         open->line, frame->name);
  else
    memcpy (frame->matrix, m, sizeof m);
  return TRUE;
}

/* After the word "Frame": the frame, its FrameTransformMatrix and the
 * frames in it, into rd->frames; anything else in it is skipped. */
static gboolean
parse_frame (Reader    *rd,
             const Tok *type,
             gint32     parent,
             GError   **error)
{
  static const double identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
  Lexer *lx = &rd->lx;
  DxFrame frame = { NULL, parent, { 0 } };
  gint32 index = (gint32) rd->frames->len;
  Tok name, open, t;
  gboolean after_word = FALSE;

  if (!object_header (lx, type, &name, &open, error))
    return FALSE;
  frame.name = name.type == TOK_WORD ? _sq_latin1_to_utf8 ((const guint8 *) name.s, name.len) : g_strdup ("");
  memcpy (frame.matrix, identity, sizeof identity);
  g_array_append_val (rd->frames, frame);

  for (;;)
    {
      if (!next_in_object (lx, &open, FALSE, &t, error))
        return FALSE;
      if (t.type == TOK_RBRACE)
        return TRUE;
      if (t.type == TOK_LBRACE)
        {
          /* a reference or an object without a type: skipped */
          if (!enter (lx, &t, error) || !skip_block (lx, &t, error))
            return FALSE;
        }
      else if (!after_word && tok_is (&t, "Frame"))
        {
          if (!parse_frame (rd, &t, index, error))
            return FALSE;
        }
      else if (!after_word && tok_is (&t, "FrameTransformMatrix"))
        {
          Tok on, oo;
          if (!object_header (lx, &t, &on, &oo, error)
              || !parse_frame_matrix (rd, &oo, &g_array_index (rd->frames, DxFrame, index), error))
            return FALSE;
        }
      /* other words (a Mesh's type and name…) are passed over: their
       * "{" is skipped as above; a word after a word is a name */
      after_word = t.type == TOK_WORD && !tok_is (&t, "Frame") && !tok_is (&t, "FrameTransformMatrix");
    }
}

/* The frames as the clip's "frames" extra: a(siad), name, parent index,
 * the 16 numbers of the matrix */
static void
keep_frames (Reader *rd,
             SqClip *clip)
{
  GVariantBuilder b;

  if (rd->frames->len == 0)
    return;
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a(siad)"));
  for (guint i = 0; i < rd->frames->len; i++)
    {
      const DxFrame *f = &g_array_index (rd->frames, DxFrame, i);
      g_variant_builder_add (&b, "(si@ad)", f->name, f->parent,
                             g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, f->matrix, 16, sizeof (double)));
    }
  sq_props_set (clip->extra, "frames", g_variant_builder_end (&b));
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
  g_ptr_array_add (rd->set_names,
                   name.type == TOK_WORD ? _sq_latin1_to_utf8 ((const guint8 *) name.s, name.len) : g_strdup (""));
  if (name.type == TOK_WORD)
    sq_props_set (lx->clip->extra, "set_name", g_variant_new_string (g_ptr_array_index (rd->set_names,
                                                                                        rd->set_names->len - 1)));
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

/* The error at the first NUL byte */
static void
nul_error (const char *data,
           const char *nul,
           GError    **error)
{
  guint line = 1;
  const char *ls = data;

  for (const char *p = data; p < nul; p++)
    if (*p == '\n' || (*p == '\r' && p[1] != '\n'))
      {
        line++;
        ls = p + 1;
      }
  sq_set_error_at_line (error, SQ_ERROR_SYNTAX, line, (guint) (nul - ls) + 1, _("a NUL byte in a text DirectX file"));
}

/* After the header: the top-level objects, the first AnimationSet the clip */
static gboolean
parse_file (Reader  *rd,
            GError **error)
{
  const char *data = rd->lx.data;
  SqClip *clip = rd->lx.clip;

  for (;;)
    {
      Tok t;

      if (!lex_next (&rd->lx, &t, error))
        return FALSE;
      if (t.type == TOK_EOF)
        break;
      if (t.type == TOK_SEMI || t.type == TOK_COMMA || t.type == TOK_STRING)
        continue;
      if (t.type == TOK_RBRACE)
        {
          sq_set_error_at_line (error, SQ_ERROR_SYNTAX, t.line, t.col, _("a “}” with no “{” to close"));
          return FALSE;
        }
      if (t.type == TOK_LBRACE)
        {
          if (!enter (&rd->lx, &t, error) || !skip_block (&rd->lx, &t, error))
            return FALSE;
          keep_block (rd, &t, t.s - data);
          continue;
        }
      if (tok_is (&t, "AnimTicksPerSecond"))
        {
          if (!parse_ticks (rd, &t, TRUE, error))
            return FALSE;
        }
      else if (tok_is (&t, "AnimationSet") && rd->set_names->len == rd->want_set)
        {
          rd->have_set = TRUE;
          if (!parse_set (rd, &t, error))
            return FALSE;
        }
      else if (tok_is (&t, "AnimationSet"))
        {
          Tok on, oo;
          gsize start = t.s - data;
          char *name;

          if (!object_header (&rd->lx, &t, &on, &oo, error) || !skip_block (&rd->lx, &oo, error))
            return FALSE;
          name = on.type == TOK_WORD ? _sq_latin1_to_utf8 ((const guint8 *) on.s, on.len) : g_strdup ("");
          g_ptr_array_add (rd->set_names, name);
          g_variant_builder_add_value (&rd->other_sets,
                                       g_variant_new ("(s@ay)", name,
                                                      g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, data + start,
                                                                                 rd->lx.pos - start, 1)));
          rd->n_other_sets++;
        }
      else if (tok_is (&t, "Frame"))
        {
          /* the hierarchy is read too (the rest skeleton for conversions
           * and the preview) */
          if (!parse_frame (rd, &t, -1, error))
            return FALSE;
          count_other (rd, &t);
          keep_block (rd, &t, t.s - data);
        }
      else
        {
          Tok on, oo;
          if (!object_header (&rd->lx, &t, &on, &oo, error) || !skip_block (&rd->lx, &oo, error))
            return FALSE;
          count_other (rd, &t);
          keep_block (rd, &t, t.s - data);
        }
    }

  if (rd->set_names->len == 0)
    {
      sq_set_error_at_line (error, SQ_ERROR_UNSUPPORTED, rd->lx.line, 1,
                            _("the DirectX file has no AnimationSet: there is no animation to read"));
      return FALSE;
    }
  if (!rd->have_set)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND,
                   _("there is no AnimationSet %u: the file has %u (numbered from 1)"),
                   rd->want_set + 1, rd->set_names->len);
      return FALSE;
    }
  g_ptr_array_add (rd->set_names, NULL);
  sq_clip_set_takes (clip, (const char * const *) rd->set_names->pdata, rd->want_set);
  g_ptr_array_set_size (rd->set_names, rd->set_names->len - 1);
  return TRUE;
}

/* A NUL byte outside the deferred blocks (scan_block looked inside) */
static gboolean
nul_outside_blocks (const Reader *rd)
{
  const char *d = rd->lx.data;
  gsize from = 0;

  for (guint i = 0; i < rd->blocks->len; i++)
    {
      const KeyBlock *b = &g_array_index (rd->blocks, KeyBlock, i);

      if (memchr (d + from, '\0', b->start - from) != NULL)
        return TRUE;
      from = b->end;
    }
  return memchr (d + from, '\0', rd->lx.len - from) != NULL;
}

/* Moves the first pass's warnings up to `at` into the clip's */
static void
take_warnings (SqClip    *clip,
               GPtrArray *first,
               gsize     *next,
               gsize      at)
{
  while (*next < at)
    g_ptr_array_add (clip->warnings, g_steal_pointer (&first->pdata[(*next)++]));
}

/* The blocks' warnings in among those of the first pass, where reading in
 * order says them: the file's first "#IND" (read_float says only that
 * one), the matrix warnings at the end of their Animation */
static void
merge_warnings (Reader *rd)
{
  SqClip *clip = rd->lx.clip;
  GPtrArray *first = clip->warnings;
  gsize next = 0, ind = 0;
  gboolean ind_said;

  while (ind < rd->blocks->len && g_array_index (rd->blocks, KeyBlock, ind).ind_line == 0)
    ind++;
  ind_said = ind == rd->blocks->len;
  if (ind_said && rd->spots->len == 0)
    return;
  clip->warnings = g_ptr_array_new_full (first->len + 8, g_free);
  for (guint i = 0; i <= rd->spots->len; i++)
    {
      const WarningSpot *spot = i < rd->spots->len ? &g_array_index (rd->spots, WarningSpot, i) : NULL;
      const KeyBlock *b;
      guint flags = 0;

      /* the "#IND" block before this Animation's end */
      if (!ind_said && (spot == NULL || ind < spot->block + spot->n_blocks))
        {
          const KeyBlock *ib = &g_array_index (rd->blocks, KeyBlock, ind);

          take_warnings (clip, first, &next, ib->warn_at);
          warn_not_a_number (clip, ib->ind_line, ib->ind_s, ib->ind_len);
          ind_said = TRUE;
        }
      if (spot == NULL)
        break;
      take_warnings (clip, first, &next, spot->at);
      b = &g_array_index (rd->blocks, KeyBlock, spot->block);
      for (gsize k = 0; k < spot->n_blocks; k++)
        flags |= b[k].matrix_flags;
      warn_matrix (clip, b->joint, flags);
    }
  take_warnings (clip, first, &next, first->len);
  g_ptr_array_unref (first);
}

/* Keys sorted, one per tick, times in seconds: joint by joint, on several
 * threads for a large clip; the warnings then in joint order */
typedef struct
{
  SqClip       *clip;
  double        tps;
  const guint8 *state;          /* per track, TRACK_*; NULL: all TRACK_TICKS */
  gsize        *dropped;        /* per track */
  double       *last;           /* per joint: its last key's time */
} Finish;

enum
{
  TRACK_TICKS,                  /* times in ticks, any order */
  TRACK_DONE,                   /* one block of increasing ticks, in seconds */
  TRACK_SECONDS,                /* in seconds, any order */
};

static void
finish_joint (gsize    j,
              gpointer data)
{
  Finish *f = data;

  for (guint c = 0; c < SQ_N_CHANNELS; c++)
    {
      SqTrack *track = &f->clip->joints[j].tracks[c];
      guint state = f->state != NULL ? f->state[j * SQ_N_CHANNELS + c] : TRACK_TICKS;
      gsize w = 0, dropped = 0;
      double prev = 0.0;

      if (state != TRACK_DONE)
        {
          sq_track_sort (track);
          /* one pass: the repeats out (the first of a tick stays), ticks to seconds */
          for (gsize k = 0; k < track->n_keys; k++)
            {
              double t = track->keys[k].time;

              if (w > 0 && t == prev)
                {
                  dropped++;
                  continue;
                }
              if (w != k)
                track->keys[w] = track->keys[k];
              if (state == TRACK_TICKS)
                track->keys[w].time = t / f->tps;
              prev = t;
              w++;
            }
          f->dropped[j * SQ_N_CHANNELS + c] = dropped;
          track->n_keys = w;
        }
      if (track->n_keys > 0)
        f->last[j] = MAX (f->last[j], sq_track_time (track, track->n_keys - 1));
    }
}

static double
finish_tracks (SqClip       *clip,
               double        tps,
               const guint8 *state)
{
  gsize n = MAX (clip->n_joints, 1);
  Finish f = { clip, tps, state, g_new0 (gsize, n * SQ_N_CHANNELS), g_new0 (double, n) };
  g_autofree gsize *cost = g_new (gsize, n);
  double last = 0.0;

  for (gsize j = 0; j < clip->n_joints; j++)
    {
      cost[j] = 0;
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        if (state == NULL || state[j * SQ_N_CHANNELS + c] != TRACK_DONE)
          cost[j] += clip->joints[j].tracks[c].n_keys * sizeof (SqKey);
    }
  _sq_parallel_items (clip->n_joints, cost, finish_joint, &f);
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        if (f.dropped[j * SQ_N_CHANNELS + c] > 0)
          sq_clip_add_warning (clip, _("joint “%s”: %zu keys repeat the tick of an earlier key and are ignored"),
                               clip->joints[j].name, f.dropped[j * SQ_N_CHANNELS + c]);
      last = MAX (last, f.last[j]);
    }
  g_free (f.dropped);
  g_free (f.last);
  return last;
}

/* In a deferred read: which tracks one block of increasing ticks filled */
static guint8 *
track_states (const Reader *rd)
{
  const SqClip *clip = rd->lx.clip;
  guint8 *state = g_new0 (guint8, MAX (clip->n_joints, 1) * SQ_N_CHANNELS);

  for (gsize j = 0; j < clip->n_joints * SQ_N_CHANNELS; j++)
    state[j] = TRACK_SECONDS;
  for (guint i = 0; i < rd->blocks->len; i++)
    {
      const KeyBlock *b = &g_array_index (rd->blocks, KeyBlock, i);

      for (guint c = 0; c < SQ_N_CHANNELS && b->n > 0; c++)
        if (b->type > 2 || key_channel[b->type] == (SqChannel) c)
          {
            guint8 *s = &state[b->joint * SQ_N_CHANNELS + c];

            /* a track's first block: none had keys before */
            *s = b->base[c] == 0 && b->ordered ? TRACK_DONE : TRACK_SECONDS;
          }
    }
  return state;
}

/* One reading of the file. `deferred`: the key blocks are left for later
 * (defer_keys) and read after the rest, on several threads for a large
 * file; the clip, warnings and first error are those of reading in order.
 * *again when that cannot be told that way: then read in place. */
static SqClip *
dx_read_pass (GBytes              *bytes,
              const SqLoadOptions *options,
              gboolean             deferred,
              gboolean            *again,
              GError             **error)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  g_autoptr(GString) header = g_string_new (NULL);
  g_autoptr(GError) pass_error = NULL;
  Reader rd = { 0 };
  gboolean ok = FALSE, parsed;
  double tps, last;
  const char *nul;

  *again = FALSE;
  if (!check_header (data, len, header, error))
    return NULL;
  /* (a deferred read looks in the blocks as it scans them, and around them
   * after the first pass) */
  if (!deferred && (nul = memchr (data, '\0', len)) != NULL)
    {
      nul_error (data, nul, error);
      return NULL;
    }

  rd.lx.data = data;
  rd.lx.len = len;
  rd.lx.line = 1;
  rd.lx.clip = clip;
  rd.bytes = bytes;
  rd.max_joints = options->max_joints ? options->max_joints : 65536;
  rd.other_types = g_array_new (FALSE, FALSE, sizeof (char *));
  rd.other_counts = g_array_new (FALSE, FALSE, sizeof (guint));
  rd.frames = g_array_new (FALSE, FALSE, sizeof (DxFrame));
  g_variant_builder_init (&rd.other_sets, G_VARIANT_TYPE ("a(say)"));
  g_variant_builder_init (&rd.other_blocks, G_VARIANT_TYPE ("a(usay)"));
  rd.want_set = options->take;
  rd.set_names = g_ptr_array_new_with_free_func (g_free);
  if (deferred)
    {
      rd.blocks = g_array_new (FALSE, FALSE, sizeof (KeyBlock));
      rd.spots = g_array_new (FALSE, FALSE, sizeof (WarningSpot));
    }

  if (strcmp (header->str, "xof 0303txt 0032") != 0)
    sq_props_set (clip->extra, "header", g_variant_new_string (header->str));
  /* the rest of the first line is not read (Assimp) */
  rd.lx.pos = 16;
  while (rd.lx.pos < len && data[rd.lx.pos] != '\n' && data[rd.lx.pos] != '\r')
    rd.lx.pos++;

  parsed = parse_file (&rd, deferred ? &pass_error : error);
  if (deferred)
    {
      /* the first error in the file: a NUL byte anywhere, else the first
       * block's error (those before it read right, so it is where reading
       * in order meets it), else the first pass's */
      if (rd.again || (!parsed && pass_error == NULL))
        {
          *again = TRUE;
          goto out;
        }
      if (rd.blocks_nul || nul_outside_blocks (&rd))
        {
          nul_error (data, memchr (data, '\0', len), error);
          goto out;
        }
      rd.tps = rd.have_ticks ? rd.ticks : DX_DEFAULT_TICKS;
      place_blocks (&rd);
      read_blocks (&rd);
      for (guint i = 0; i < rd.blocks->len; i++)
        {
          KeyBlock *b = &g_array_index (rd.blocks, KeyBlock, i);

          if (b->error != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&b->error));
              goto out;
            }
          if (b->moved)
            {
              *again = TRUE;
              goto out;
            }
        }
      if (!parsed)
        {
          g_propagate_error (error, g_steal_pointer (&pass_error));
          goto out;
        }
      merge_warnings (&rd);
      pack_blocks (&rd);
    }
  else if (!parsed)
    goto out;

  tps = rd.have_ticks ? rd.ticks : DX_DEFAULT_TICKS;
  clip->fps = tps;
  clip->frame_base = 0;
  if (rd.have_ticks && rd.ticks_at_top)
    sq_props_set (clip->extra, "ticks_at_top", g_variant_new_boolean (TRUE));
  if (rd.ticks_name != NULL)
    sq_props_set (clip->extra, "ticks_name", g_variant_new_string (rd.ticks_name));
  if (rd.n_other_sets > 0)
    sq_props_set (clip->extra, "other_sets", g_variant_builder_end (&rd.other_sets));
  /* a top-level AnimTicksPerSecond is the other sets' too */
  if (rd.have_ticks && rd.ticks_at_top && rd.n_other_sets > 0)
    sq_props_set (clip->extra, "other_sets_ticks", g_variant_new_uint32 (rd.ticks));
  if (rd.n_other_blocks > 0)
    sq_props_set (clip->extra, "other_blocks", g_variant_builder_end (&rd.other_blocks));
  keep_frames (&rd, clip);
  if (rd.other_types->len > 0)
    {
      GVariantBuilder b;
      g_variant_builder_init (&b, G_VARIANT_TYPE ("a(su)"));
      for (guint i = 0; i < rd.other_types->len; i++)
        g_variant_builder_add (&b, "(su)", g_array_index (rd.other_types, char *, i),
                               g_array_index (rd.other_counts, guint, i));
      sq_props_set (clip->extra, "other_objects", g_variant_builder_end (&b));
    }

  {
    g_autofree guint8 *state = deferred ? track_states (&rd) : NULL;

    last = finish_tracks (clip, tps, state);
  }
  clip->duration = last;
  ok = TRUE;

out:
  g_variant_builder_clear (&rd.other_sets);
  g_variant_builder_clear (&rd.other_blocks);
  g_ptr_array_unref (rd.set_names);
  for (guint i = 0; i < rd.other_types->len; i++)
    g_free (g_array_index (rd.other_types, char *, i));
  g_array_unref (rd.other_types);
  g_array_unref (rd.other_counts);
  for (guint i = 0; i < rd.frames->len; i++)
    g_free (g_array_index (rd.frames, DxFrame, i).name);
  g_array_unref (rd.frames);
  g_free (rd.ticks_name);
  if (rd.blocks != NULL)
    {
      for (guint i = 0; i < rd.blocks->len; i++)
        {
          g_clear_error (&g_array_index (rd.blocks, KeyBlock, i).error);
          g_clear_pointer (&g_array_index (rd.blocks, KeyBlock, i).text_keys, dx_keys_free);
        }
      g_array_unref (rd.blocks);
      g_array_unref (rd.spots);
    }
  return ok ? g_steal_pointer (&clip) : NULL;
}

static SqClip *
dx_read (GBytes              *bytes,
         const SqLoadOptions *options,
         GError             **error)
{
  gboolean again;
  SqClip *clip = dx_read_pass (bytes, options, TRUE, &again, error);

  if (again)
    clip = dx_read_pass (bytes, options, FALSE, &again, error);
  return clip;
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
  _sq_append_fixed_or_shortest (s, v, 6);
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

/* One kept object or set, as it was read: on lines of its own, before the
 * clip's set or after it */
static void
write_kept (GString  *out,
            GVariant *text,
            gboolean  before)
{
  gsize len;
  const char *bytes = g_variant_get_fixed_array (text, &len, 1);

  if (!before)
    g_string_append (out, "\r\n");
  g_string_append_len (out, bytes, len);
  g_string_append (out, before ? "\r\n\r\n" : "\r\n");
}

/* The top-level objects that stood after `sets` AnimationSets */
static void
write_blocks (GString      *out,
              const SqClip *clip,
              guint         sets,
              gboolean      before)
{
  GVariant *blocks = sq_props_get (clip->extra, "other_blocks");

  if (blocks == NULL || !g_variant_is_of_type (blocks, G_VARIANT_TYPE ("a(usay)")))
    return;
  for (gsize i = 0; i < g_variant_n_children (blocks); i++)
    {
      g_autoptr(GVariant) text = NULL;
      guint32 at;

      g_variant_get_child (blocks, i, "(u&s@ay)", &at, NULL, &text);
      if (at == sets)
        write_kept (out, text, before);
    }
}

/* The other AnimationSets (the takes the clip is not) from `from` up to
 * `to`, as they were read, each after the top-level objects before it:
 * those before the clip's set go before it, the rest after. Returns where
 * it stopped. */
static guint
write_other_sets (GString      *out,
                  const SqClip *clip,
                  guint         from,
                  guint         to,
                  gboolean      before)
{
  GVariant *sets = sq_props_get (clip->extra, "other_sets");
  gsize n;

  if (sets == NULL || !g_variant_is_of_type (sets, G_VARIANT_TYPE ("a(say)")))
    return from;
  n = MIN (g_variant_n_children (sets), to);
  for (gsize i = from; i < n; i++)
    {
      g_autoptr(GVariant) text = NULL;

      /* the set's place in the file: the clip's comes before those after it */
      write_blocks (out, clip, (guint) (before ? i : i + 1), before);
      g_variant_get_child (sets, i, "(&s@ay)", NULL, &text);
      write_kept (out, text, before);
    }
  return (guint) MAX (n, from);
}

/* Kept frames name the joints the animations refer to: a joint renamed
 * or added since has none */
static void
note_joints_without_frames (const SqClip *clip,
                            GPtrArray    *losses)
{
  GVariant *frames = sq_props_get (clip->extra, "frames");
  g_autoptr(GHashTable) names = NULL;

  if (frames == NULL || sq_props_get (clip->extra, "other_blocks") == NULL
      || !g_variant_is_of_type (frames, G_VARIANT_TYPE ("a(siad)")))
    return;
  names = g_hash_table_new (g_str_hash, g_str_equal);
  for (gsize i = 0; i < g_variant_n_children (frames); i++)
    {
      const char *name;

      g_variant_get_child (frames, i, "(&si@ad)", &name, NULL, NULL);
      g_hash_table_add (names, (gpointer) name);
    }
  for (gsize j = 0; j < clip->n_joints; j++)
    if (!g_hash_table_contains (names, clip->joints[j].name))
      _sq_loss (losses, _("joint “%s”: the file's frames have none of that name, so its animation refers to a "
                          "frame the file does not have"), clip->joints[j].name);
}

/* The sets of the file with the clip's: how many */
static guint
n_sets (const SqClip *clip)
{
  GVariant *sets = sq_props_get (clip->extra, "other_sets");

  return 1 + (sets != NULL && g_variant_is_of_type (sets, G_VARIANT_TYPE ("a(say)")) ? g_variant_n_children (sets) : 0);
}

static GPtrArray *
dx_write (const SqClip        *clip,
          const SqSaveOptions *options G_GNUC_UNUSED,
          GPtrArray           *losses,
          GError             **error G_GNUC_UNUSED)
{
  GString *out = g_string_sized_new (4096);
  GArray *refs = _sq_refs_new ();
  guint32 tps = DX_DEFAULT_TICKS;
  gboolean at_top = sq_props_get_bool (clip->extra, "ticks_at_top", FALSE);
  GVariant *v;
  double last = 0.0;
  guint n_before;

  if (clip->fps >= 1 && clip->fps <= G_MAXUINT32 && clip->fps == floor (clip->fps))
    tps = (guint32) clip->fps;
  else
    _sq_loss (losses, _("the frame rate %g is not a whole number of ticks per second; %u ticks per second are written"),
              clip->fps, tps);

  if ((v = sq_props_get (clip->extra, "header")) != NULL)
    _sq_loss (losses, _("the header “%s” is written as “xof 0303txt 0032”"), g_variant_get_string (v, NULL));
  if ((v = sq_props_get (clip->extra, "other_objects")) != NULL && sq_props_get (clip->extra, "other_blocks") == NULL)
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
  note_joints_without_frames (clip, losses);
  if (at_top && (v = sq_props_get (clip->extra, "other_sets_ticks")) != NULL
      && g_variant_is_of_type (v, G_VARIANT_TYPE_UINT32) && g_variant_get_uint32 (v) != tps)
    _sq_loss (losses, _("the other AnimationSets take the file's AnimTicksPerSecond too: they play at %u ticks per "
                        "second instead of %u, their key times changed"), tps, g_variant_get_uint32 (v));
  n_before = write_other_sets (out, clip, 0, clip->take, TRUE);
  write_blocks (out, clip, n_before, TRUE);
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
    _sq_parallel_parts (clip->n_joints, costs, write_animation, &w, out, refs, losses);
    for (gsize j = 0; j < clip->n_joints; j++)
      last = MAX (last, w.last[j]);
    g_free (w.last);
  }
  g_string_append (out, "}\r\n");
  write_other_sets (out, clip, n_before, G_MAXUINT, FALSE);
  write_blocks (out, clip, n_sets (clip), FALSE);

  if (clip->duration > last + 1e-9)
    _sq_loss (losses, _("the duration %.6g s (DirectX has none; the last key at %.6g s ends the clip)"),
              clip->duration, last);
  return _sq_pieces_take (g_string_free_to_bytes (out), refs);
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
    return g_strdup_printf (_("%zu other AnimationSet(s) of the file"), g_variant_n_children (value));
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
  /* ticks_at_top: a placement, nothing is lost; frames: the hierarchy,
   * counted in other_objects (a BVH takes its skeleton from it) */
  return NULL;
}

/* The frames, readable: one line each, its parent and its translation */
static void
dump_frames_text (GString  *out,
                  GVariant *value)
{
  gsize n = g_variant_n_children (value);

  g_string_append_printf (out, "frames (the Frame hierarchy; name ← parent: translation): %zu\n", n);
  for (gsize i = 0; i < n; i++)
    {
      const char *name, *parent_name = NULL;
      gint32 parent;
      g_autoptr(GVariant) m = NULL;
      gsize len;
      const double *v;
      char b[3][G_ASCII_DTOSTR_BUF_SIZE];

      g_variant_get_child (value, i, "(&si@ad)", &name, &parent, &m);
      v = g_variant_get_fixed_array (m, &len, sizeof (double));
      if (parent >= 0 && (gsize) parent < n)
        g_variant_get_child (value, parent, "(&si@ad)", &parent_name, NULL, NULL);
      g_string_append_printf (out, "  “%s”", name);
      if (parent_name != NULL)
        g_string_append_printf (out, " ← “%s”", parent_name);
      if (len == 16)
        g_string_append_printf (out, ": %s %s %s", g_ascii_formatd (b[0], sizeof b[0], "%.7g", v[12]),
                                g_ascii_formatd (b[1], sizeof b[1], "%.7g", v[13]),
                                g_ascii_formatd (b[2], sizeof b[2], "%.7g", v[14]));
      g_string_append_c (out, '\n');
    }
}

/* Kept sets or objects: their names (or types) and sizes, not their text */
static void
dump_kept (GString    *out,
           const char *key,
           GVariant   *value,
           guint       name_field,
           guint       text_field,
           gboolean    json)
{
  if (json)
    g_string_append_c (out, '[');
  else
    g_string_append_printf (out, "%s: ", key);
  for (gsize i = 0; i < g_variant_n_children (value); i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (value, i);
      g_autoptr(GVariant) text = g_variant_get_child_value (child, text_field);
      const char *name;

      g_variant_get_child (child, name_field, "&s", &name);
      if (json)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          g_string_append (out, name_field == 0 ? "{\"name\":" : "{\"type\":");
          _sq_json_string (out, name);
          g_string_append_printf (out, ",\"bytes\":%zu}", g_variant_n_children (text));
        }
      else
        g_string_append_printf (out, "%s“%s” (%zu bytes)", i ? ", " : "", name, g_variant_n_children (text));
    }
  g_string_append (out, json ? "]" : "\n");
}

static gboolean
dx_dump_field (GString    *out,
               const char *key,
               GVariant   *value,
               gboolean    json)
{
  if (!json && g_str_equal (key, "frames") && g_variant_is_of_type (value, G_VARIANT_TYPE ("a(siad)")))
    {
      dump_frames_text (out, value);
      return TRUE;
    }
  if (g_str_equal (key, "other_sets") && g_variant_is_of_type (value, G_VARIANT_TYPE ("a(say)")))
    {
      dump_kept (out, key, value, 0, 1, json);
      return TRUE;
    }
  if (g_str_equal (key, "other_blocks") && g_variant_is_of_type (value, G_VARIANT_TYPE ("a(usay)")))
    {
      dump_kept (out, key, value, 1, 2, json);
      return TRUE;
    }
  return FALSE;
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
  .flags = SQ_FORMAT_READ | SQ_FORMAT_WRITE | SQ_FORMAT_TEXT | SQ_FORMAT_FRAME_RATE | SQ_FORMAT_TICKS,
  .fields = dx_fields,
  .describe_field = dx_describe_field,
  .dump_field = dx_dump_field,
  .probe = dx_probe,
  .read = dx_read,
  .write = dx_write,
  .space = &sq_space_aw_dx,
  .world = &sq_world_aw,
  .field_set = &sq_dx_fields,
};
