/* sq-json.h: JSON strings, numbers and values (sq-json.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* JSON output */
void     _sq_json_string           (GString      *out,
                                    const char   *utf8);
void     _sq_json_number           (GString      *out,
                                    double        value);
void     _sq_json_variant          (GString      *out,
                                    GVariant     *value);

G_END_DECLS
