/* sequin-application.h: the editor application
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SEQUIN_TYPE_APPLICATION (sequin_application_get_type ())

G_DECLARE_FINAL_TYPE (SequinApplication, sequin_application, SEQUIN, APPLICATION, GtkApplication)

SequinApplication *sequin_application_new (void);

G_END_DECLS
