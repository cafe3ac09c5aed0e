/* sq-world-names.h: each world's joint names (sq-world.h's SqWorldNames),
 * for the list of them in sq-world.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sq-world.h"

G_BEGIN_DECLS

extern const SqWorldNames sq_sl_names;     /* sq-sl-names.c */
extern const SqWorldNames sq_sims_names;   /* sq-sims-names.c */
extern const SqWorldNames sq_aw_names;     /* sq-aw-names.c */
extern const SqWorldNames sq_mocap_names;  /* sq-mocap-names.c */

G_END_DECLS
