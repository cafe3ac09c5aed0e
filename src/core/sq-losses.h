/* sq-losses.h: the list of what a conversion or a writer loses (sq-losses.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Adds one line to `losses` (nothing when it is NULL). */
void     _sq_loss                  (GPtrArray    *losses,
                                    const char   *format,
                                    ...) G_GNUC_PRINTF (2, 3);

/* Adds a line that is no loss but worth knowing (SQ_LOSS_NOTE, sq-convert.h) */
void     _sq_note                  (GPtrArray    *losses,
                                    const char   *format,
                                    ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS
