/* sq-memory.h: large arrays in transparent huge pages (sq-memory.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void       *_sq_huge_realloc          (void         *old,
                                       gsize         old_bytes,
                                       gsize         bytes);
GByteArray *_sq_byte_array_sized_new  (gsize         reserved);

G_END_DECLS
