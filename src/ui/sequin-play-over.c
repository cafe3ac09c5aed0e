/* sequin-play-over.c: Play Over…: other animations played with the open one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sequin-play-over"

#include "config.h"

#include <glib/gi18n.h>

#include "sequin-layer-strip.h"
#include "sequin-play-over.h"
#include "sequin-utils.h"
#include "sequin-window-private.h"

/* the combined motion is sampled at this rate for the preview */
#define BAKE_FPS 30.0

typedef struct
{
  char   *name;
  SqClip *clip;
} Entry;

typedef struct
{
  SequinWindow *window;       /* owns this */
  GPtrArray    *entries;      /* Entry * */
  SqLayers     *layers;       /* the entries and the open clip, or NULL */
  SqClip       *combined;     /* sq_layers_bake of them, or NULL */
  const SqClip *built_for;    /* the open clip they were made with */
  guint64       built_generation;
  guint64       generation;   /* the combined clips' own, each new one another */
  GtkWidget    *strip;        /* in the window's timeline box, or NULL */
  GtkWidget    *dialog;       /* the dialog, or NULL */
  GtkListBox   *list;
  GSignalGroup *document;     /* on the window's document: its edits */
} PlayOver;

static void
entry_free (Entry *entry)
{
  g_free (entry->name);
  sq_clip_free (entry->clip);
  g_free (entry);
}

static void
play_over_free (PlayOver *self)
{
  g_clear_object (&self->document);
  if (self->dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->dialog));
  g_ptr_array_unref (self->entries);
  sq_layers_free (self->layers);
  sq_clip_free (self->combined);
  g_free (self);
}

static PlayOver *
play_over_get (SequinWindow *window,
               gboolean      create)
{
  PlayOver *self = g_object_get_data (G_OBJECT (window), "sequin-play-over");

  if (self == NULL && create)
    {
      self = g_new0 (PlayOver, 1);
      self->window = window;
      self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
      g_object_set_data_full (G_OBJECT (window), "sequin-play-over", self, (GDestroyNotify) play_over_free);
    }
  return self;
}

static void
invalidate (PlayOver *self)
{
  g_clear_pointer (&self->layers, sq_layers_free);
  g_clear_pointer (&self->combined, sq_clip_free);
  self->built_for = NULL;
}

/* The layers of the entries and the open clip, made again after an edit */
static const SqLayers *
ensure_layers (PlayOver *self)
{
  SequinDocument *document = sequin_window_get_document (self->window);
  const SqClip *clip = document != NULL ? sequin_document_get_clip (document) : NULL;

  if (self->entries->len == 0 || clip == NULL)
    {
      invalidate (self);
      return NULL;
    }
  if (self->layers != NULL && self->built_for == clip && self->built_generation == clip->generation)
    return self->layers;
  invalidate (self);
  self->layers = sq_layers_new ();
  for (guint i = 0; i < self->entries->len; i++)
    {
      const Entry *e = self->entries->pdata[i];

      sq_layers_add (self->layers, e->clip, e->name, 0.0, NULL);
    }
  /* the open clip started last: played over the others */
  if (!sq_layers_add (self->layers, clip, sequin_document_get_title (document), 0.0, NULL))
    {
      invalidate (self);
      return NULL;
    }
  self->built_for = clip;
  self->built_generation = clip->generation;
  return self->layers;
}

static void
update_strip (PlayOver *self)
{
  const SqLayers *layers = ensure_layers (self);

  if (self->strip == NULL)
    return;
  gtk_widget_set_visible (self->strip, layers != NULL);
  if (layers != NULL)
    sequin_layer_strip_update (SEQUIN_LAYER_STRIP (self->strip), layers,
                               sequin_timeline_get_time (SEQUIN_TIMELINE (self->window->timeline)));
}

static void
position_cb (PlayOver *self)
{
  update_strip (self);
}

/* the playhead moved (connected with the window as data: the window's
 * dispose disconnects it) */
static void
playhead_cb (SequinWindow *window)
{
  PlayOver *self = play_over_get (window, FALSE);

  if (self != NULL)
    update_strip (self);
}

static void
ensure_strip (PlayOver *self)
{
  if (self->strip != NULL)
    return;
  self->strip = sequin_layer_strip_new ();
  gtk_widget_set_margin_top (self->strip, 4);
  gtk_widget_set_margin_bottom (self->strip, 4);
  gtk_box_append (self->window->timeline_box, self->strip);
  g_signal_connect_swapped (self->window->playback, "notify::position", G_CALLBACK (playhead_cb), self->window);
  /* edits, undo and redo */
  self->document = _sequin_window_follow_document (self->window, G_CALLBACK (position_cb), self);
}

/* The entries changed: the list, the strip and the preview follow */
static void
entries_changed (PlayOver *self);

static void
remove_clicked (GtkButton *button,
                PlayOver  *self)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_LIST_BOX_ROW);

  sequin_play_over_remove (self->window, (guint) gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (row)));
}

static void
fill_list (PlayOver *self)
{
  GtkWidget *child;

  if (self->list == NULL)
    return;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  for (guint i = 0; i < self->entries->len; i++)
    {
      const Entry *e = self->entries->pdata[i];
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *label = gtk_label_new (e->name);
      GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
      g_autofree char *what = NULL;
      SqSlFields f;

      sq_sl_fields_get (e->clip, &f);
      /* TRANSLATORS: an animation played over the open one: its name and priority */
      what = g_strdup_printf (_("%s (priority %d)"), e->name, (int) f.priority);
      gtk_label_set_text (GTK_LABEL (label), what);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_box_append (GTK_BOX (box), label);
      g_free (what);
      /* TRANSLATORS: the button that stops playing an animation over the open one */
      what = g_strdup_printf (_("Remove %s"), e->name);
      sequin_set_tooltip (remove, what);
      gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, what, -1);
      gtk_widget_add_css_class (remove, "flat");
      g_signal_connect (remove, "clicked", G_CALLBACK (remove_clicked), self);
      gtk_box_append (GTK_BOX (box), remove);
      gtk_list_box_append (self->list, box);
    }
}

static void
entries_changed (PlayOver *self)
{
  invalidate (self);
  fill_list (self);
  update_strip (self);
  /* the preview shows the combined motion, or the clip again */
  g_object_notify (G_OBJECT (self->window->playback), "position");
}

/* Plays `clip` (taken) over the window's, named `name` */
static gboolean
add_clip (SequinWindow *window,
          SqClip       *clip,
          const char   *name,
          GError      **error)
{
  PlayOver *self = play_over_get (window, TRUE);
  g_autoptr(SqClip) owned = clip;
  g_autoptr(SqLayers) check = sq_layers_new ();
  Entry *entry;

  /* it must go as a Second Life animation */
  if (!sq_layers_add (check, owned, name, 0, error))
    return FALSE;
  entry = g_new0 (Entry, 1);
  entry->name = g_strdup (name);
  entry->clip = g_steal_pointer (&owned);
  g_ptr_array_add (self->entries, entry);
  ensure_strip (self);
  entries_changed (self);
  return TRUE;
}

/* A message under the dialog's list, added to what it says already */
static void
show_message (SequinWindow *window,
              const char   *text)
{
  PlayOver *self = play_over_get (window, FALSE);
  GtkWidget *message = self != NULL && self->dialog != NULL
                       ? g_object_get_data (G_OBJECT (self->dialog), "message") : NULL;
  g_autofree char *joined = NULL;

  if (message == NULL)
    return;
  joined = gtk_widget_get_visible (message)
           ? g_strdup_printf ("%s\n%s", gtk_label_get_text (GTK_LABEL (message)), text) : g_strdup (text);
  gtk_label_set_text (GTK_LABEL (message), joined);
  gtk_widget_set_visible (message, TRUE);
}

typedef struct
{
  SequinWindow *window;
  char         *name;
} Adding;

static void
file_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Adding *adding = user_data;
  SequinDocument *document = SEQUIN_DOCUMENT (object);
  g_autoptr(GError) error = NULL;

  if (sequin_document_load_finish (document, result, &error))
    add_clip (adding->window, sq_clip_copy (sequin_document_get_clip (document)), adding->name, &error);
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *text = g_strdup_printf ("%s: %s", adding->name, error->message);

      show_message (adding->window, text);
    }
  g_object_unref (document);
  g_object_unref (adding->window);
  g_free (adding->name);
  g_free (adding);
}

void
sequin_play_over_add_file_async (SequinWindow *window,
                                 GFile        *file)
{
  SequinDocument *document = sequin_document_new ();
  Adding *adding = g_new0 (Adding, 1);

  adding->window = g_object_ref (window);
  adding->name = g_file_get_basename (file);
  /* read and parsed on a worker, as the window's own files are */
  sequin_document_load_async (document, file, SEQUIN_LOAD_AS_COPY, window->cancellable, file_loaded_cb, adding);
}

void
sequin_play_over_remove (SequinWindow *window,
                         guint         index)
{
  PlayOver *self = play_over_get (window, FALSE);

  if (self == NULL || index >= self->entries->len)
    return;
  g_ptr_array_remove_index (self->entries, index);
  entries_changed (self);
}

guint
sequin_play_over_get_n (SequinWindow *window)
{
  PlayOver *self = play_over_get (window, FALSE);

  return self != NULL ? self->entries->len : 0;
}

const SqClip *
sequin_play_over_preview_clip (SequinWindow *window,
                               const SqClip *clip,
                               gssize       *selected)
{
  PlayOver *self = play_over_get (window, FALSE);
  const SqLayers *layers;

  if (self == NULL || clip == NULL || (layers = ensure_layers (self)) == NULL)
    return clip;
  if (self->combined == NULL)
    {
      self->combined = sq_layers_bake (layers, BAKE_FPS, clip->duration);
      self->combined->generation = ++self->generation;
    }
  if (selected != NULL && *selected >= 0 && (gsize) *selected < clip->n_joints)
    {
      *selected = sq_clip_find_joint (self->combined, sq_layers_bone_of (clip->joints[*selected].name));
    }
  return self->combined;
}

GtkWidget *
sequin_play_over_get_strip (SequinWindow *window)
{
  PlayOver *self = play_over_get (window, FALSE);

  return self != NULL ? self->strip : NULL;
}

GtkWidget *
sequin_play_over_get_dialog (SequinWindow *window)
{
  PlayOver *self = play_over_get (window, FALSE);

  return self != NULL ? self->dialog : NULL;
}

/* ---- the dialog ---- */

static void
chosen (GtkNativeDialog *chooser,
        int              response,
        PlayOver        *self)
{
  g_autoptr(GListModel) files = NULL;
  GtkWidget *message = self->dialog != NULL ? g_object_get_data (G_OBJECT (self->dialog), "message") : NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
  g_object_unref (chooser);
  /* what could not be read this time is said again below the list */
  if (message != NULL && files != NULL)
    gtk_widget_set_visible (message, FALSE);
  for (guint i = 0; files != NULL && i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);

      sequin_play_over_add_file_async (self->window, file);
    }
}

static void
add_clicked (PlayOver *self)
{
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Play Over"), GTK_WINDOW (self->dialog), GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Add"), _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  sequin_add_format_filters (GTK_FILE_CHOOSER (chooser), FALSE, NULL);
  g_signal_connect (chooser, "response", G_CALLBACK (chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
dialog_destroyed (PlayOver *self)
{
  self->dialog = NULL;
  self->list = NULL;
}

static GtkWidget *
build_dialog (PlayOver *self)
{
  GtkWidget *dialog = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *intro, *scroller, *buttons, *add, *close, *message, *placeholder;

  gtk_window_set_title (GTK_WINDOW (dialog), _("Play Over"));
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self->window));
  gtk_window_set_default_size (GTK_WINDOW (dialog), 440, 340);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  intro = gtk_label_new (_("Play other animations with this one in the preview, as Second Life combines them: "
                           "on each joint the higher priority wins, at equal priority the animation started "
                           "last (this one); while one eases in or out the others show through. The viewer's "
                           "own abdomen motion and breathing are not shown."));
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_xalign (GTK_LABEL (intro), 0);
  gtk_box_append (GTK_BOX (box), intro);
  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Animations played with this one"), -1);
  placeholder = gtk_label_new (_("None yet: Add… picks them"));
  gtk_widget_add_css_class (placeholder, "dim-label");
  gtk_list_box_set_placeholder (self->list, placeholder);
  scroller = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->list));
  gtk_widget_add_css_class (scroller, "frame");
  gtk_box_append (GTK_BOX (box), scroller);
  message = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_widget_add_css_class (message, "error");
  gtk_widget_set_visible (message, FALSE);
  g_object_set_data (G_OBJECT (dialog), "message", message);
  gtk_box_append (GTK_BOX (box), message);
  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  add = gtk_button_new_with_mnemonic (_("_Add…"));
  close = gtk_button_new_with_mnemonic (_("_Close"));
  g_signal_connect_swapped (add, "clicked", G_CALLBACK (add_clicked), self);
  g_signal_connect_swapped (close, "clicked", G_CALLBACK (gtk_window_destroy), dialog);
  gtk_box_append (GTK_BOX (buttons), add);
  gtk_box_append (GTK_BOX (buttons), close);
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_window_set_child (GTK_WINDOW (dialog), box);
  g_signal_connect_swapped (dialog, "destroy", G_CALLBACK (dialog_destroyed), self);
  sequin_accessible_single_names (box);
  return dialog;
}

void
sequin_play_over_choose (SequinWindow *window)
{
  PlayOver *self = play_over_get (window, TRUE);

  if (self->dialog == NULL)
    {
      self->dialog = build_dialog (self);
      fill_list (self);
    }
  gtk_window_present (GTK_WINDOW (self->dialog));
}
