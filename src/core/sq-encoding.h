/* sq-encoding.h: Latin-1 text to UTF-8 and back (sq-encoding.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Latin-1 <-> UTF-8: every byte but NUL maps to one code point and back. */
char    *_sq_latin1_to_utf8        (const guint8 *data,
                                    gsize         len);
/* Returns FALSE (and '?' in place) when a character has no Latin-1 byte. */
gboolean _sq_utf8_to_latin1        (const char   *utf8,
                                    GByteArray   *out);

G_END_DECLS
