/* sq-load-save.c: the one load call and the one save call
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both find the format in the table (sq-format-registry.c); saving converts
 * the clip for its target first (sq-convert.c) and reports what is lost.
 */
#define G_LOG_DOMAIN "sq-format"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "sq-private.h"
#include "sq-parallel.h"
#include "sq-validate.h"
#include "sq-world.h"

SqClip *
sq_load_bytes (GBytes              *bytes,
               const char          *filename,
               const SqFormat      *format,
               const SqLoadOptions *options,
               GError             **error)
{
  static const SqLoadOptions defaults = { 0 };
  SqClip *clip;

  g_return_val_if_fail (bytes != NULL, NULL);

  if (options == NULL)
    options = &defaults;
  if (options->_begin_zero != 0 || options->_end_zero != 0)
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                           _("Load options were not zero-initialised"));
      return NULL;
    }

  if (format == NULL)
    format = sq_format_detect (bytes, filename);
  /* nothing to read says just that, not what the format's first field
   * would have been (the reader's error code and kind of location stay) */
  if (g_bytes_get_size (bytes) == 0)
    {
      SqErrorCode code = SQ_ERROR_TRUNCATED;
      g_autoptr(GError) local = NULL;

      clip = format != NULL && format->read != NULL ? format->read (bytes, options, &local) : NULL;
      if (clip != NULL)
        {
          _sq_clip_mark_source (clip, format, bytes);
          return clip;
        }
      if (local != NULL && local->domain == SQ_ERROR)
        code = local->code;
      if (format != NULL && (format->flags & SQ_FORMAT_TEXT))
        sq_set_error_at_line (error, code, 1, 1, _("the file is empty (0 bytes)"));
      else
        sq_set_error_at_offset (error, code, 0, _("the file is empty (0 bytes)"));
      return NULL;
    }
  if (format == NULL || format->read == NULL)
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_BAD_MAGIC,
                           _("Not an animation format Sequin knows (no known signature at offset 0)"));
      return NULL;
    }

  clip = format->read (bytes, options, error);
  if (clip == NULL)
    return NULL;
  /* a reader of several takes refuses one the file lacks itself; this is
   * for the formats with one animation a file */
  if (options->take > 0 && clip->takes == NULL)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND,
                   _("take %u was asked for, but a %s file holds one animation"), options->take + 1,
                   sq_format_get_name (format));
      sq_clip_free (clip);
      return NULL;
    }

  /* sq_clip_check() is the readers' contract; the tests and fuzzers run it
   * after every load, the hot path does not */
  _sq_clip_mark_source (clip, format, bytes);
  return clip;
}

static gboolean
format_writes_field (const SqFormat *format,
                     const char     *key)
{
  if (format->flags & SQ_FORMAT_ANY_WORLD)
    return TRUE;
  for (guint i = 0; format->fields != NULL && format->fields[i] != NULL; i++)
    if (g_str_equal (format->fields[i], key))
      return TRUE;
  return FALSE;
}

static void
report_props (const SqClip   *clip,
              const SqProps  *props,
              const char     *joint,
              const SqFormat *format,
              GPtrArray      *losses)
{
  for (gsize i = 0; i < sq_props_size (props); i++)
    {
      const char *key = sq_props_key_at (props, i);
      g_autofree char *what = NULL;

      if (format_writes_field (format, key))
        continue;
      /* a hierarchy the target has no place for: one line from sq_convert() */
      if (joint != NULL && clip->format->space != NULL && clip->format->space->hierarchy
          && format->space != NULL && !format->space->hierarchy
          && (g_str_equal (key, "parent") || g_str_equal (key, "offset") || g_str_equal (key, "channels")
              || g_str_equal (key, "end-site") || g_str_equal (key, "rest-rotation")))
        continue;
      what = clip->format->describe_field
             ? clip->format->describe_field (key, sq_props_value_at (props, i))
             : g_strdup (key);
      if (what == NULL)
        continue;
      if (joint != NULL)
        _sq_loss (losses, _("joint “%s”: %s (from %s) has no place in %s"), joint, what,
                  sq_format_get_name (clip->format), sq_format_get_name (format));
      else
        _sq_loss (losses, _("%s (from %s) has no place in %s"), what,
                  sq_format_get_name (clip->format), sq_format_get_name (format));
    }
}

/* What the source format carried that the target does not write. */
static void
report_foreign_fields (const SqClip   *clip,
                       const SqFormat *format,
                       GPtrArray      *losses)
{
  report_props (clip, clip->extra, NULL, format, losses);
  for (gsize j = 0; j < clip->n_joints; j++)
    report_props (clip, clip->joints[j].extra, clip->joints[j].name, format, losses);
}

static gboolean
map_touches (const SqClip     *clip,
             const SqJointMap *map)
{
  for (gsize j = 0; map != NULL && j < clip->n_joints; j++)
    if (sq_joint_map_lookup (map, clip->joints[j].name, NULL))
      return TRUE;
  return FALSE;
}

/* The notes among the losses from `from` on (lines of SQ_LOSS_NOTE: a
 * retarget, root motion scaled, keys moved) go to the save's notes: they
 * are no losses */
static void
move_notes (const SqSaveOptions *options,
            GPtrArray           *losses,
            guint                from)
{
  for (guint i = from; options->notes != NULL && losses != NULL && i < losses->len;)
    if (sq_loss_note (losses->pdata[i]) != NULL)
      {
        g_ptr_array_add (options->notes, g_strdup (sq_loss_note (losses->pdata[i])));
        g_ptr_array_remove_index (losses, i);
      }
    else
      i++;
}

GPtrArray *
sq_save_pieces (const SqClip        *clip,
                const SqFormat      *format,
                const SqSaveOptions *options,
                GPtrArray           *losses,
                GError             **error)
{
  static const SqSaveOptions defaults = { 0 };

  g_return_val_if_fail (clip != NULL, NULL);
  g_return_val_if_fail (format != NULL, NULL);

  if (options == NULL)
    options = &defaults;
  if (options->_begin_zero != 0 || options->_end_zero != 0)
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                           _("Save options were not zero-initialised"));
      return NULL;
    }
  if (!sq_format_can_write (format))
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE,
                   _("Sequin cannot write %s files"), sq_format_get_name (format));
      return NULL;
    }

  /* an unedited clip in its own format: exactly the bytes it came from
   * (unless a user map renames or drops one of its joints) */
  if (!options->no_source_copy && clip->format == format && clip->source != NULL
      && !(format->flags & SQ_FORMAT_COMPANIONS) && !sq_clip_is_modified (clip) && !map_touches (clip, options->map))
    return _sq_pieces_new (g_bytes_ref (clip->source));

  /* a format of every world writes the clip as it is (glTF) */
  if (format->flags & SQ_FORMAT_ANY_WORLD)
    {
      guint from = losses != NULL ? losses->len : 0;
      GPtrArray *pieces = format->write (clip, options, losses, error);

      move_notes (options, losses, from);
      return pieces;
    }

  if (losses != NULL && clip->format != NULL && clip->format != format)
    report_foreign_fields (clip, format, losses);

  /* another world: names, units, axes and times in the target's
   * conventions (sq-convert.c); a user map applies to every save */
  if ((clip->format != NULL && clip->format != format) || map_touches (clip, options->map))
    {
      guint from = losses != NULL ? losses->len : 0;
      g_autoptr(SqClip) converted = _sq_convert_for_save (clip, format, options, losses, error);
      const SqWorldHome *home = sq_format_get_world (format);
      GPtrArray *pieces;

      if (converted == NULL)
        return NULL;
      /* the conversion's notes (a retarget, root motion scaled) are no losses */
      move_notes (options, losses, from);
      pieces = format->write (converted, options, losses, error);
      if (pieces != NULL && home != NULL && home->add_save_notes != NULL)
        home->add_save_notes (format, _sq_pieces_size (pieces), options->notes != NULL ? options->notes : losses);
      return pieces;
    }

  return format->write (clip, options, losses, error);
}

void
sq_companion_free (SqCompanion *companion)
{
  if (companion == NULL)
    return;
  g_free (companion->name);
  g_bytes_unref (companion->bytes);
  g_free (companion);
}

GBytes *
sq_save_bytes (const SqClip        *clip,
               const SqFormat      *format,
               const SqSaveOptions *options,
               GPtrArray           *losses,
               GError             **error)
{
  g_autoptr(GPtrArray) pieces = sq_save_pieces (clip, format, options, losses, error);

  return pieces != NULL ? _sq_pieces_join (pieces) : NULL;
}
