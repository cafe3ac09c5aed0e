/* sequin-properties-panel.h: the format fields of a document, editable
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-document.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_PROPERTIES_PANEL (sequin_properties_panel_get_type ())

G_DECLARE_FINAL_TYPE (SequinPropertiesPanel, sequin_properties_panel, SEQUIN, PROPERTIES_PANEL, GtkWidget)

/* The controls, for the tests: they are changed the way a user changes them */
typedef enum
{
  SEQUIN_PROPERTY_SL_PRIORITY,       /* GtkSpinButton */
  SEQUIN_PROPERTY_SL_LOOP,           /* GtkSwitch */
  SEQUIN_PROPERTY_SL_LOOP_IN,        /* GtkSpinButton */
  SEQUIN_PROPERTY_SL_LOOP_OUT,       /* GtkSpinButton */
  SEQUIN_PROPERTY_SL_EASE_IN,        /* GtkSpinButton */
  SEQUIN_PROPERTY_SL_EASE_OUT,       /* GtkSpinButton */
  SEQUIN_PROPERTY_SL_HAND_POSE,      /* GtkDropDown */
  SEQUIN_PROPERTY_SL_EMOTE,          /* GtkEntry */
  SEQUIN_PROPERTY_SL_JOINT_PRIORITY, /* GtkSpinButton */
  SEQUIN_PROPERTY_SL_CONSTRAINTS,    /* GtkListBox, one row per constraint */
  SEQUIN_PROPERTY_DX_TICKS,          /* GtkSpinButton */
  SEQUIN_PROPERTY_DX_SET_NAME,       /* GtkEntry */
  SEQUIN_PROPERTY_BVH_FRAME_TIME,    /* GtkSpinButton */
  SEQUIN_PROPERTY_SIMS_BOUNCE,       /* GtkSwitch: a KFD's SequenceLength twice Frames */
  SEQUIN_PROPERTY_SIMS_START_POSE,   /* GtkEntry */
  SEQUIN_PROPERTY_SIMS_END_POSE,     /* GtkEntry */
  SEQUIN_PROPERTY_SIMS_SKILL_NAME,   /* GtkEntry */
  SEQUIN_PROPERTY_SIMS_SKILL_DURATION, /* GtkSpinButton, ms */
  SEQUIN_N_PROPERTIES
} SequinProperty;

typedef enum
{
  SEQUIN_PROPERTY_GROUP_SL,          /* shown for .anim documents */
  SEQUIN_PROPERTY_GROUP_SL_OTHER,    /* the SL fields of another format, in an expander */
  SEQUIN_PROPERTY_GROUP_DX,
  SEQUIN_PROPERTY_GROUP_BVH,
  SEQUIN_PROPERTY_GROUP_SIMS_KFD,    /* SimPose-ium KFD documents */
  SEQUIN_PROPERTY_GROUP_SIMS_SKILL,  /* CMX documents with a skill */
  SEQUIN_N_PROPERTY_GROUPS
} SequinPropertyGroup;

GtkWidget  *sequin_properties_panel_new          (void);
void        sequin_properties_panel_set_document (SequinPropertiesPanel *self,
                                                  SequinDocument        *document);
/* The joint whose priority is shown, or -1 */
void        sequin_properties_panel_set_joint    (SequinPropertiesPanel *self,
                                                  gssize                 joint);
GtkWidget  *sequin_properties_panel_get_control  (SequinPropertiesPanel *self,
                                                  SequinProperty         property);
/* The control of the field with that key (sq-world.h), NULL for none */
GtkWidget  *sequin_properties_panel_get_field_control (SequinPropertiesPanel *self,
                                                       const char            *key);
gboolean    sequin_properties_panel_group_visible (SequinPropertiesPanel *self,
                                                   SequinPropertyGroup    group);
/* The last refusal shown, or NULL */
const char *sequin_properties_panel_get_error    (SequinPropertiesPanel *self);

G_END_DECLS
