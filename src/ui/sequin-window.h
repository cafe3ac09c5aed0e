/* sequin-window.h: a window showing one animation
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-application.h"
#include "sequin-document.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_WINDOW (sequin_window_get_type ())

G_DECLARE_FINAL_TYPE (SequinWindow, sequin_window, SEQUIN, WINDOW, GtkApplicationWindow)

SequinWindow   *sequin_window_new          (SequinApplication *application);
/* NULL while the window shows its empty state */
SequinDocument *sequin_window_get_document (SequinWindow      *self);
/* Shows `document` in place of the window's own (another take of its file) */
void            sequin_window_set_document (SequinWindow      *self,
                                            SequinDocument    *document);
gboolean        sequin_window_is_empty     (SequinWindow      *self);
/* A new window for `files` (not yet presented), as sequin_window_open_file
 * opens them; their reading starts before the window is made */
SequinWindow   *sequin_window_new_for_files (SequinApplication *application,
                                             GFile            **files,
                                             int                n_files);
/* Reads `file` off the main thread. It opens in this window when the window
 * is empty, else in a new one; if it cannot be read, this window says why
 * and stays as it was. */
void            sequin_window_open_file    (SequinWindow      *self,
                                            GFile             *file,
                                            gboolean           as_copy);
/* Saves to `file` in `format` (NULL: the document's format), asking first
 * when the format cannot hold everything or the file changed on disk. */
void            sequin_window_save_to      (SequinWindow      *self,
                                            GFile             *file,
                                            const SqFormat    *format);

G_END_DECLS
