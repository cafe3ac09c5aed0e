/* sequin-layer-strip.h: which animation wins each joint at the playhead
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SequinLayerStrip sits under the timeline while Play Over… plays other
 * animations with the open one: a heading with the time, then one cell per
 * joint any of them animates, in skeleton order, the joint's name and the
 * animation the viewer shows on it (a colour per animation), its reason as
 * the tooltip and in the cell's accessible description. The answers are
 * the core's (sq_layers_resolve, sq_layers_explain).
 */
#pragma once

#include <gtk/gtk.h>

#include "sq-core.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_LAYER_STRIP (sequin_layer_strip_get_type ())

G_DECLARE_FINAL_TYPE (SequinLayerStrip, sequin_layer_strip, SEQUIN, LAYER_STRIP, GtkWidget)

GtkWidget  *sequin_layer_strip_new      (void);
/* Shows the winners of `layers` (not kept; NULL clears) at `time` */
void        sequin_layer_strip_update   (SequinLayerStrip *self,
                                         const SqLayers   *layers,
                                         double            time);
/* for tests: cell `index`'s text ("mHead: stand.anim") and reason, NULL
 * past the last */
const char *sequin_layer_strip_get_cell (SequinLayerStrip *self,
                                         guint             index,
                                         const char      **reason);

G_END_DECLS
