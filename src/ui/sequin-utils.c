/* sequin-utils.c: small helpers shared by the editor's classes
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sequin-utils"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sequin-utils.h"

gboolean
sequin_parse_number (const char *text,
                     double     *value)
{
  g_autofree char *copy = NULL;
  char *end = NULL;
  double v;

  g_return_val_if_fail (value != NULL, FALSE);

  if (text == NULL)
    return FALSE;
  copy = g_strstrip (g_strdup (text));
  if (copy[0] == '\0')
    return FALSE;
  /* one decimal comma, and no point, reads as a decimal point */
  if (strchr (copy, '.') == NULL)
    {
      char *comma = strchr (copy, ',');
      if (comma != NULL && strchr (comma + 1, ',') == NULL)
        *comma = '.';
    }
  /* only plain decimal numbers: no hexadecimal, "inf" or "nan" */
  for (const char *p = copy; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p) && strchr ("+-.eE", *p) == NULL)
      return FALSE;
  v = g_ascii_strtod (copy, &end);
  if (end == copy || *end != '\0' || !isfinite (v))
    return FALSE;
  *value = v;
  return TRUE;
}

static void
add_suffixes (GtkFileFilter  *filter,
              const SqFormat *format)
{
  for (guint i = 0; format->extensions[i] != NULL; i++)
    gtk_file_filter_add_suffix (filter, format->extensions[i]);
  if (format->mime_type != NULL)
    gtk_file_filter_add_mime_type (filter, format->mime_type);
}

void
sequin_add_format_filters (GtkFileChooser *chooser,
                           gboolean        for_writing,
                           const SqFormat *only)
{
  gsize n = 0;
  const SqFormat * const *formats = sq_formats (&n);
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) any = gtk_file_filter_new ();

  if (only != NULL)
    {
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, sq_format_get_name (only));
      add_suffixes (filter, only);
      gtk_file_chooser_add_filter (chooser, filter);
      gtk_file_chooser_set_filter (chooser, filter);
      return;
    }

  gtk_file_filter_set_name (all, _("All Animations"));
  gtk_file_chooser_add_filter (chooser, all);
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GtkFileFilter) filter = NULL;

      if (for_writing ? !sq_format_can_write (formats[i]) : !(formats[i]->flags & SQ_FORMAT_READ))
        continue;
      add_suffixes (all, formats[i]);
      filter = gtk_file_filter_new ();
      gtk_file_filter_set_name (filter, sq_format_get_name (formats[i]));
      add_suffixes (filter, formats[i]);
      gtk_file_chooser_add_filter (chooser, filter);
    }
  gtk_file_filter_set_name (any, _("All Files"));
  gtk_file_filter_add_pattern (any, "*");
  gtk_file_chooser_add_filter (chooser, any);
  gtk_file_chooser_set_filter (chooser, all);
}

const char *
sequin_format_get_extension (const SqFormat *format)
{
  if (format == NULL || format->extensions == NULL || format->extensions[0] == NULL)
    return "seq";
  return format->extensions[0];
}

GFile *
sequin_find_sample (void)
{
  const char *dirs[3];
  guint n = 0;

  dirs[n++] = g_getenv ("SEQUIN_SAMPLE_DIR");
  dirs[n++] = PKGDATADIR G_DIR_SEPARATOR_S "samples";
#ifdef SEQUIN_SOURCE_SAMPLE_DIR
  dirs[n++] = SEQUIN_SOURCE_SAMPLE_DIR;
#endif
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = NULL;

      if (dirs[i] == NULL || dirs[i][0] == '\0')
        continue;
      path = g_build_filename (dirs[i], "wave.seq", NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return g_file_new_for_path (path);
    }
  return NULL;
}

char *
sequin_format_vector (const double *v,
                      guint         n,
                      int           digits)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf ("%.*f", digits, v[i]);

      /* what rounds to zero shows as 0, not −0: that sign means nothing to a reader */
      if (text[0] == '-' && strspn (text + 1, "0.,") == strlen (text + 1))
        memmove (text, text + 1, strlen (text));
      if (i > 0)
        g_string_append (out, "  ");
      g_string_append (out, text);
    }
  return g_string_free (out, FALSE);
}

/* `text` without its mnemonic underlines ("Show _Ghost" → "Show Ghost";
 * "__" is one underscore) */
static char *
without_underline (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '_')
        {
          if (p[1] == '_')
            g_string_append_c (out, *++p);
          continue;
        }
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

static void
toggle_check_button (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  GtkCheckButton *check = user_data;

  gtk_check_button_set_active (check, !gtk_check_button_get_active (check));
}

/* A check button named once, without its underline, and with an action
 * assistive technologies can run ("check.toggle": GTK 4.8 gives a check
 * button none of its own) */
static void
check_button_accessible (GtkCheckButton *check)
{
  const char *label = gtk_check_button_get_label (check);

  if (label != NULL && gtk_check_button_get_use_underline (check))
    {
      g_autofree char *plain = without_underline (label);

      gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL, plain, -1);
    }
  if (g_object_get_data (G_OBJECT (check), "sequin-a11y-toggle") == NULL)
    {
      g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
      static const GActionEntry entries[] = { { .name = "toggle", .activate = toggle_check_button } };

      g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), check);
      gtk_widget_insert_action_group (GTK_WIDGET (check), "check", G_ACTION_GROUP (group));
      g_object_set_data (G_OBJECT (check), "sequin-a11y-toggle", GINT_TO_POINTER (1));
    }
}

/* A drop-down's button (GTK's own GtkToggleButton inside it) named as the
 * drop-down is: by its mnemonic labels, or by the drop-down itself */
static void
drop_down_accessible (GtkWidget *drop_down)
{
  g_autoptr(GList) labels = gtk_widget_list_mnemonic_labels (drop_down);

  for (GtkWidget *child = gtk_widget_get_first_child (drop_down); child; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TOGGLE_BUTTON (child))
      {
        if (labels != NULL)
          gtk_accessible_update_relation (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                          labels->data, NULL, -1);
        else
          gtk_accessible_update_relation (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                          drop_down, NULL, -1);
      }
}

/* A menu button's menu named as the button is (its label, or its tooltip) */
static void
menu_button_accessible (GtkMenuButton *button)
{
  GtkPopover *popover = gtk_menu_button_get_popover (button);
  const char *label = gtk_menu_button_get_label (button);
  g_autofree char *plain = NULL;

  if (label == NULL)
    label = gtk_widget_get_tooltip_text (GTK_WIDGET (button));
  if (popover == NULL || label == NULL)
    return;
  plain = without_underline (label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (popover), GTK_ACCESSIBLE_PROPERTY_LABEL, plain, -1);
}

void
sequin_accessible_single_names (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (GTK_IS_BUTTON (root) && gtk_button_get_use_underline (GTK_BUTTON (root))
      && gtk_button_get_label (GTK_BUTTON (root)) != NULL)
    gtk_accessible_reset_property (GTK_ACCESSIBLE (root), GTK_ACCESSIBLE_PROPERTY_LABEL);
  else if (GTK_IS_CHECK_BUTTON (root))
    check_button_accessible (GTK_CHECK_BUTTON (root));
  else if (GTK_IS_EXPANDER (root) && gtk_expander_get_label (GTK_EXPANDER (root)) != NULL)
    {
      g_autofree char *plain = without_underline (gtk_expander_get_label (GTK_EXPANDER (root)));

      gtk_accessible_update_property (GTK_ACCESSIBLE (root), GTK_ACCESSIBLE_PROPERTY_LABEL, plain, -1);
    }
  else if (GTK_IS_DROP_DOWN (root))
    drop_down_accessible (root);
  else if (GTK_IS_MENU_BUTTON (root))
    menu_button_accessible (GTK_MENU_BUTTON (root));
  else if (GTK_IS_LIST_VIEW (root) && GTK_IS_COLUMN_VIEW (gtk_widget_get_parent (root)))
    /* a column view's list (GTK's own, else named by its type) */
    gtk_accessible_update_relation (GTK_ACCESSIBLE (root), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                    gtk_widget_get_parent (root), NULL, -1);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    sequin_accessible_single_names (child);
}

gboolean
sequin_clip_counts_ticks (const SqClip *clip)
{
  return clip != NULL && clip->format != NULL && (clip->format->flags & SQ_FORMAT_TICKS) != 0;
}

gsize
sequin_clip_frames_over (const SqClip *clip,
                         double        seconds,
                         gsize         most)
{
  double fps = clip->fps > 0 && isfinite (clip->fps) ? clip->fps : 30;
  double frames = floor (seconds * fps + 1e-6) + 1;

  return (gsize) CLAMP (frames, 1, (double) MAX (most, 1));
}

char *
sequin_format_rate (double fps)
{
  return sq_format_rate (fps);
}

GtkWidget *
sequin_refusal_label_new (void)
{
  /* an alert: screen readers say it as it appears */
  GtkWidget *label = g_object_new (GTK_TYPE_LABEL, "accessible-role", GTK_ACCESSIBLE_ROLE_ALERT, NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (label, "error");
  gtk_widget_set_visible (label, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (label), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Refused change"), -1);
  return label;
}

void
sequin_refusal_show (GtkWidget   *label,
                     char       **shown,
                     const char  *message)
{
  g_free (*shown);
  *shown = g_strdup (message);
  if (message != NULL)
    gtk_label_set_text (GTK_LABEL (label), message);
  gtk_widget_set_visible (label, message != NULL);
}

gboolean
sequin_apply_or_explain (SequinDocument  *document,
                         SqEdit          *edit,
                         GtkWidget       *label,
                         char           **shown)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *what = g_strdup (sq_edit_get_label (edit));
  g_autofree char *message = NULL;

  if (sequin_document_apply (document, edit, &error))
    {
      sequin_refusal_show (label, shown, NULL);
      return TRUE;
    }
  /* TRANSLATORS: %s names an edit, like “Set Loop”; then the reason */
  message = g_strdup_printf (_("Could not %s: %s"), what, error->message);
  sequin_refusal_show (label, shown, message);
  return FALSE;
}

void
sequin_set_tooltip (GtkWidget  *widget,
                    const char *text)
{
  /* GTK takes an empty text as none */
  const char *want = text != NULL && *text != '\0' ? text : NULL;

  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), want) != 0)
    gtk_widget_set_tooltip_text (widget, want);
}

struct _SequinClipShape
{
  const SqFormat *format;
  GStrv           names;
  GPtrArray      *fields;   /* GVariant*, held: a pointer names one value */
};

SequinClipShape *
sequin_clip_shape_new (const SqClip *clip)
{
  SequinClipShape *shape = g_new0 (SequinClipShape, 1);
  GStrvBuilder *builder = g_strv_builder_new ();

  shape->format = clip->format;
  shape->fields = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  for (gsize i = 0; i < sq_props_size (clip->extra); i++)
    g_ptr_array_add (shape->fields, g_variant_ref (sq_props_value_at (clip->extra, i)));
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      g_strv_builder_add (builder, clip->joints[j].name);
      for (gsize i = 0; i < sq_props_size (clip->joints[j].extra); i++)
        g_ptr_array_add (shape->fields, g_variant_ref (sq_props_value_at (clip->joints[j].extra, i)));
    }
  shape->names = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return shape;
}

gboolean
sequin_clip_shape_matches (const SequinClipShape *shape,
                           const SqClip          *clip)
{
  g_autoptr(SequinClipShape) now = NULL;

  if (shape == NULL || clip->format != shape->format)
    return FALSE;
  now = sequin_clip_shape_new (clip);
  if (now->fields->len != shape->fields->len
      || !g_strv_equal ((const char * const *) now->names, (const char * const *) shape->names))
    return FALSE;
  for (guint i = 0; i < now->fields->len; i++)
    if (now->fields->pdata[i] != shape->fields->pdata[i])
      return FALSE;
  return TRUE;
}

void
sequin_clip_shape_free (SequinClipShape *shape)
{
  if (shape == NULL)
    return;
  g_strfreev (shape->names);
  g_ptr_array_unref (shape->fields);
  g_free (shape);
}
