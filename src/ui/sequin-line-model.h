/* sequin-line-model.h: the lines of a long text as a list model
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SEQUIN_TYPE_LINE_MODEL (sequin_line_model_get_type ())

G_DECLARE_FINAL_TYPE (SequinLineModel, sequin_line_model, SEQUIN, LINE_MODEL, GObject)

SequinLineModel *sequin_line_model_new      (void);
/* Takes `text`; NULL empties the model */
void             sequin_line_model_set_text (SequinLineModel *self,
                                             char            *text);
const char      *sequin_line_model_get_text (SequinLineModel *self);

G_END_DECLS
