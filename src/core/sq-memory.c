/* sq-memory.c: large arrays in transparent huge pages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-memory"

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sq-memory.h"

/* Large arrays (a long track of a big file, a writer's output) are placed
 * on 2 MiB boundaries and offered to transparent huge pages: reading or
 * writing a 100 MB file otherwise spends much of its time in page faults.
 * The memory is ordinary malloc memory for g_free and g_renew. */
void *
_sq_huge_realloc (void  *old,
                 gsize  old_bytes,
                 gsize  bytes)
{
#ifdef MADV_HUGEPAGE
  const gsize huge = 2u << 20;
  void *mem = NULL;

  if (bytes >= huge && posix_memalign (&mem, huge, bytes) == 0)
    {
      madvise (mem, bytes, MADV_HUGEPAGE);
      if (old != NULL)
        memcpy (mem, old, old_bytes);
      g_free (old);
      return mem;
    }
#endif
  return g_realloc (old, bytes);
}

/* An empty byte array with room for `reserved` bytes, in huge pages when
 * that is large (_sq_huge_realloc): the output of a writer. */
GByteArray *
_sq_byte_array_sized_new (gsize reserved)
{
  GByteArray *array;

  if (reserved < (2u << 20) || reserved > G_MAXUINT)
    return g_byte_array_sized_new (MIN (reserved, G_MAXUINT));
  array = g_byte_array_new_take (_sq_huge_realloc (NULL, 0, reserved), reserved);
  g_byte_array_set_size (array, 0);   /* keeps the room */
  return array;
}
