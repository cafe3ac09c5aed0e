/* sequin-utils.h: small helpers shared by the editor's classes
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sq-core.h"
#include "sequin-document.h"

G_BEGIN_DECLS

/* A number typed by a person: surrounding blanks allowed, a decimal point or
 * (as many locales write it) a decimal comma. FALSE for anything else,
 * including text after the number, infinities and NaN. */
gboolean        sequin_parse_number          (const char     *text,
                                              double         *value);

/* File chooser filters built from the core's registry: one for every
 * readable (or writable) format, plus "All animations" first when `all`. */
void            sequin_add_format_filters    (GtkFileChooser *chooser,
                                              gboolean        for_writing,
                                              const SqFormat *only);

/* The first extension of a format, for a suggested file name */
const char     *sequin_format_get_extension  (const SqFormat *format);

/* Where the bundled sample is, or NULL */
GFile          *sequin_find_sample           (void);

/* Numbers as the tree shows them (in the user's locale) */
char           *sequin_format_vector         (const double   *v,
                                              guint           n,
                                              int             digits);

/* A clip whose time base is ticks (DirectX .x: AnimTicksPerSecond, often
 * 4800) rather than frames */
gboolean        sequin_clip_counts_ticks     (const SqClip   *clip);
/* How many of the clip's frames span `seconds` from 0, both ends counted
 * (at its frame rate; 30 a second when it has none), from 1 to `most`:
 * how finely a curve over the clip is sampled */
gsize           sequin_clip_frames_over      (const SqClip   *clip,
                                              double          seconds,
                                              gsize           most);
/* A frame rate as a person reads it: "30" for a BVH frame time of 0.033333
 * (1/30 s as the file could write it, 6 decimals), "29.97" otherwise */
char           *sequin_format_rate           (double          fps);

/* GTK 4.8 names a button with an underlined label twice ("_Cancel Cancel":
 * its label property, then its label widget): drops the label property of
 * every such button under `root`, leaving the label widget's name. Under
 * `root` it also names each check button and expander once without its
 * underline ("Show _Ghost" → "Show Ghost") and gives each check button an
 * action ("check.toggle", which GTK 4.8 does not give), names the button
 * inside each drop-down as the drop-down, and each menu button's menu as
 * the button. Call it after setting the labels (again when they change). */
void            sequin_accessible_single_names (GtkWidget    *root);

/* A panel's line for a refused edit: wrapped, in the error style, named
 * "Refused change", hidden until there is one */
GtkWidget      *sequin_refusal_label_new     (void);
/* Applies `edit` (taken) to `document`; a refusal shows "Could not LABEL:
 * REASON" in `label` and keeps it in *shown, a success hides it (and sets
 * *shown NULL). Returns whether the edit was applied. */
gboolean        sequin_apply_or_explain      (SequinDocument *document,
                                              SqEdit         *edit,
                                              GtkWidget      *label,
                                              char          **shown);
/* Shows `message` in a refusal label (NULL hides it), a copy in *shown */
void            sequin_refusal_show          (GtkWidget      *label,
                                              char          **shown,
                                              const char     *message);

/* gtk_widget_set_tooltip_text() when the text changes: GTK asks where
 * the pointer is for every new tooltip (a round trip to an X server), too
 * slow for what each edit updates */
void            sequin_set_tooltip           (GtkWidget      *widget,
                                              const char     *text);

/* What a clip's skeleton is made from (sq_pose_new: the joints' names,
 * the clip's and joints' fields, the format), as it was: an edit of keys
 * leaves it alone, so what was made from it can stay */
typedef struct _SequinClipShape SequinClipShape;

SequinClipShape *sequin_clip_shape_new     (const SqClip          *clip);
/* FALSE for a NULL shape */
gboolean         sequin_clip_shape_matches (const SequinClipShape *shape,
                                            const SqClip          *clip);
void             sequin_clip_shape_free    (SequinClipShape       *shape);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SequinClipShape, sequin_clip_shape_free)

G_END_DECLS
