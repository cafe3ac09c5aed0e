/* sequin-line-model.c: the lines of a long text as a list model
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The structure view shows a dump that can have hundreds of thousands of
 * lines; a GtkTextView lays all of them out, a GtkListView over this model
 * only the visible ones. The model keeps the text and where each line
 * starts; a GtkStringObject is made for a line only when a view asks.
 */
#define G_LOG_DOMAIN "sequin-line-model"

#include "config.h"

#include "sequin-line-model.h"

struct _SequinLineModel
{
  GObject  parent_instance;

  char    *text;
  GArray  *starts;   /* gsize: offset of each line in text */
};

static GType
sequin_line_model_get_item_type (GListModel *model)
{
  return GTK_TYPE_STRING_OBJECT;
}

static guint
sequin_line_model_get_n_items (GListModel *model)
{
  return SEQUIN_LINE_MODEL (model)->starts->len;
}

static gpointer
sequin_line_model_get_item (GListModel *model,
                            guint       position)
{
  SequinLineModel *self = SEQUIN_LINE_MODEL (model);
  g_autofree char *line = NULL;
  gsize start, end;

  if (position >= self->starts->len)
    return NULL;
  start = g_array_index (self->starts, gsize, position);
  end = position + 1 < self->starts->len ? g_array_index (self->starts, gsize, position + 1) - 1
                                         : strlen (self->text);
  line = g_strndup (self->text + start, end - start);
  return gtk_string_object_new (line);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = sequin_line_model_get_item_type;
  iface->get_n_items = sequin_line_model_get_n_items;
  iface->get_item = sequin_line_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (SequinLineModel, sequin_line_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
sequin_line_model_finalize (GObject *object)
{
  SequinLineModel *self = (SequinLineModel *)object;

  g_free (self->text);
  g_array_unref (self->starts);

  G_OBJECT_CLASS (sequin_line_model_parent_class)->finalize (object);
}

static void
sequin_line_model_class_init (SequinLineModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sequin_line_model_finalize;
}

static void
sequin_line_model_init (SequinLineModel *self)
{
  self->text = g_strdup ("");
  self->starts = g_array_new (FALSE, FALSE, sizeof (gsize));
}

SequinLineModel *
sequin_line_model_new (void)
{
  return g_object_new (SEQUIN_TYPE_LINE_MODEL, NULL);
}

void
sequin_line_model_set_text (SequinLineModel *self,
                            char            *text)
{
  guint old;
  gsize len;

  g_return_if_fail (SEQUIN_IS_LINE_MODEL (self));

  old = self->starts->len;
  g_free (self->text);
  self->text = text != NULL ? text : g_strdup ("");
  g_array_set_size (self->starts, 0);

  /* a final newline ends the last line rather than starting an empty one */
  len = strlen (self->text);
  for (gsize i = 0; i < len; i++)
    if (i == 0 || self->text[i - 1] == '\n')
      g_array_append_val (self->starts, i);

  g_list_model_items_changed (G_LIST_MODEL (self), 0, old, self->starts->len);
}

const char *
sequin_line_model_get_text (SequinLineModel *self)
{
  g_return_val_if_fail (SEQUIN_IS_LINE_MODEL (self), NULL);
  return self->text;
}
