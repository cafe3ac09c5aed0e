/* sq-json.c: JSON strings, numbers and values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-json"

#include "config.h"

#include <math.h>

#include "sq-json.h"
#include "sq-math.h"

void
_sq_json_string (GString    *out,
                 const char *s)
{
  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) s; *p; p++)
    {
      switch (*p)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (*p < 0x20 || *p == 0x7f)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, *p);
        }
    }
  g_string_append_c (out, '"');
}

void
_sq_json_number (GString *out,
                 double   v)
{
  char buf[SQ_DOUBLE_BUF];

  if (!isfinite (v))
    g_string_append (out, "null");
  else
    g_string_append (out, sq_format_double (buf, sizeof buf, v == 0.0 ? 0.0 : v));
}

void
_sq_json_variant (GString  *out,
                  GVariant *v)
{
  const GVariantType *t = g_variant_get_type (v);

  if (g_variant_type_equal (t, G_VARIANT_TYPE_BOOLEAN))
    g_string_append (out, g_variant_get_boolean (v) ? "true" : "false");
  else if (g_variant_type_equal (t, G_VARIANT_TYPE_UINT32))
    g_string_append_printf (out, "%u", g_variant_get_uint32 (v));
  else if (g_variant_type_equal (t, G_VARIANT_TYPE_INT32))
    g_string_append_printf (out, "%d", g_variant_get_int32 (v));
  else if (g_variant_type_equal (t, G_VARIANT_TYPE_INT64))
    g_string_append_printf (out, "%" G_GINT64_FORMAT, g_variant_get_int64 (v));
  else if (g_variant_type_equal (t, G_VARIANT_TYPE_DOUBLE))
    _sq_json_number (out, g_variant_get_double (v));
  else if (g_variant_type_equal (t, G_VARIANT_TYPE_STRING))
    _sq_json_string (out, g_variant_get_string (v, NULL));
  else if (g_variant_type_equal (t, G_VARIANT_TYPE_BYTESTRING))
    {
      static const char hex[] = "0123456789abcdef";
      gsize n;
      const guint8 *p = g_variant_get_fixed_array (v, &n, 1);
      char *to;

      /* a digit pair a byte, without a printf a byte (a file's kept bytes
       * run to megabytes) */
      g_string_append_c (out, '"');
      g_string_set_size (out, out->len + 2 * n);
      to = out->str + out->len - 2 * n;
      for (gsize i = 0; i < n; i++)
        {
          *to++ = hex[p[i] >> 4];
          *to++ = hex[p[i] & 15];
        }
      g_string_append_c (out, '"');
    }
  else if (g_variant_type_is_container (t))
    {
      gsize n = g_variant_n_children (v);
      g_string_append_c (out, '[');
      for (gsize i = 0; i < n; i++)
        {
          g_autoptr(GVariant) child = g_variant_get_child_value (v, i);
          if (i > 0)
            g_string_append_c (out, ',');
          _sq_json_variant (out, child);
        }
      g_string_append_c (out, ']');
    }
  else
    {
      g_autofree char *text = g_variant_print (v, FALSE);
      _sq_json_string (out, text);
    }
}
