/* sq-aw-edit.c: the ActiveWorlds world's own edits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The DirectX (.x) AnimationSet name ("set_name"), which ActiveWorlds
 * avatars' .x animations carry. A name is a .x identifier (formats.md 3.2);
 * "" removes it.
 */
#define G_LOG_DOMAIN "sq-edit"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sq-edit-private.h"

/* the longest AnimationSet name the edit accepts, in characters */
#define DX_MAX_NAME 200

static const char * const dx_reserved[] = {
  "ARRAY", "BINARY", "BINARY_RESOURCE", "CHAR", "CSTRING", "DOUBLE", "DWORD", "FLOAT", "SDWORD",
  "STRING", "SWORD", "TEMPLATE", "UCHAR", "ULONGLONG", "UNICODE", "WORD",
};

static gboolean
check_dx_name (const char *name,
               GError    **error)
{
  glong n;

  if (name[0] == '\0')
    return TRUE;
  if (!g_utf8_validate (name, -1, NULL))
    return _sq_edit_invalid (error, _("The name is not valid text"));
  n = g_utf8_strlen (name, -1);
  if (n > DX_MAX_NAME)
    return _sq_edit_invalid (error, _("The name is %ld characters long; at most %d fit"), n, DX_MAX_NAME);
  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      gboolean letter = c <= 0xff && (g_unichar_isalpha (c) || c == '_');

      if (c > 0xff || !(letter || (p != name && ((c < 0x80 && g_ascii_isdigit (c)) || c == '-' || c == '.'))))
        return _sq_edit_invalid (error, _("“%s” is not a DirectX name: it must start with a letter or “_” and hold "
                                          "only Latin-1 letters, digits, “_”, “-” and “.”"), name);
    }
  for (guint i = 0; i < G_N_ELEMENTS (dx_reserved); i++)
    if (g_ascii_strcasecmp (dx_reserved[i], name) == 0)
      return _sq_edit_invalid (error, _("“%s” is a reserved word of DirectX files"), name);
  return TRUE;
}

typedef struct
{
  char *name;
} SetNameArgs;

static void
set_name_free (gpointer params)
{
  g_free (((SetNameArgs *) params)->name);
}

static gboolean
set_name_apply (SqEdit  *edit,
                SqClip  *clip,
                GError **error)
{
  const SetNameArgs *a = _sq_edit_get_params (edit);

  if (!check_dx_name (a->name, error))
    return FALSE;
  _sq_edit_journal_extra (edit, clip);
  if (a->name[0] == '\0')
    sq_props_remove (clip->extra, "set_name");
  else
    sq_props_set (clip->extra, "set_name", g_variant_new_string (a->name));
  return TRUE;
}

static char *
set_name_describe (const SqEdit *edit)
{
  const SetNameArgs *a = _sq_edit_get_params (edit);

  return a->name[0] == '\0' ? g_strdup (_("Remove the animation set name"))
                            : g_strdup_printf (_("Name the animation set “%s”"), a->name);
}

static const SqEditClass set_name_class = {
  N_("Set Animation Set Name"), set_name_describe, set_name_apply, NULL, set_name_free,
};

SqEdit *
sq_edit_dx_set_name_new (const char *name)
{
  SetNameArgs *a = g_new0 (SetNameArgs, 1);

  a->name = g_strdup (name ? name : "");
  return _sq_edit_new (&set_name_class, a);
}
