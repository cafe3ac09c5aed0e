/* sequin-cli-options.c: the commands' option tables on GOptionContext, and
 * the help and man page written from them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sequin-cli"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sequin-cli-private.h"

CliRequest *
cli_request_new (void)
{
  CliRequest *request = g_new0 (CliRequest, 1);

  request->files = g_ptr_array_new_with_free_func (g_free);
  request->ops = g_ptr_array_new_with_free_func ((GDestroyNotify) cli_op_free);
  return request;
}

void
cli_request_free (CliRequest *request)
{
  g_ptr_array_unref (request->files);
  g_ptr_array_unref (request->ops);
  g_free (request->out);
  g_free (request->out_dir);
  g_free (request->map_path);
  g_free (request->against);
  g_free (request->target);
  g_free (request->world);
  g_free (request);
}

/* ---- numbers ---- */

gboolean
cli_parse_numbers (const char *text,
                   char        sep,
                   double     *v,
                   guint       min,
                   guint       max,
                   guint      *n)
{
  char seps[2] = { sep, '\0' };
  g_auto(GStrv) parts = NULL;

  if (text == NULL)
    return FALSE;
  parts = g_strsplit (text, seps, -1);
  *n = g_strv_length (parts);
  if (*n < min || *n > max)
    return FALSE;
  for (guint k = 0; k < *n; k++)
    {
      char *end = NULL;

      if (parts[k][0] == '\0')
        return FALSE;
      v[k] = g_ascii_strtod (parts[k], &end);
      if (*end != '\0' || !isfinite (v[k]))
        return FALSE;
    }
  return TRUE;
}

gboolean
cli_parse_int (const char *text,
               gint64     *out)
{
  char *end = NULL;
  gint64 v;

  if (text == NULL || *text == '\0')
    return FALSE;
  errno = 0;
  v = g_ascii_strtoll (text, &end, 10);
  if (*end != '\0' || errno != 0)
    return FALSE;
  *out = v;
  return TRUE;
}

/* ---- the rows' parse functions ---- */

gboolean
cli_refuse (const CliOption *option,
            GError         **error)
{
  g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, cli_option_usage (option));
  return FALSE;
}

/* ---- rows whose text comes from a field descriptor (sq-world.h) ---- */

/* A string made once and kept for the life of the process */
G_GNUC_PRINTF (1, 2)
static const char *
kept_printf (const char *format,
             ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  return g_intern_string (text);
}

const char *
cli_option_help (const CliOption *o)
{
  const SqField *field;

  if (o->help != NULL || (field = sq_field_by_option (o->name)) == NULL)
    return o->help;
  if ((field->flags & SQ_FIELD_HELP_RANGE) && field->help_unit != NULL)
    return kept_printf ("%s (%g to %g %s)", field->help, field->min, field->max, field->help_unit);
  if (field->flags & SQ_FIELD_HELP_RANGE)
    return kept_printf ("%s, %g to %g", field->help, field->min, field->max);
  return field->help;
}

const char *
cli_option_arg (const CliOption *o)
{
  const SqField *field;

  if (o->arg_description != NULL || o->arg == CLI_ARG_NONE || (field = sq_field_by_option (o->name)) == NULL)
    return o->arg_description;
  return field->arg;
}

/* Why a value was refused: the row's own words, or, for a field's row,
 * what its type needs */
const char *
cli_option_usage (const CliOption *o)
{
  const SqField *field;

  if (o->usage != NULL || (field = sq_field_by_option (o->name)) == NULL)
    return o->usage;
  if (field->flags & SQ_FIELD_PER_JOINT)
    return kept_printf ("--%s needs %s", o->name, field->arg);
  switch (field->type)
    {
    case SQ_FIELD_INT:
      return kept_printf ("--%s needs a whole number", o->name);
    case SQ_FIELD_CHOICE:
      return kept_printf ("--%s needs a number from %g to %g", o->name, field->min, field->max);
    case SQ_FIELD_DOUBLE:
      return kept_printf ("--%s needs %s (a number)", o->name, field->arg);
    default:
      return kept_printf ("--%s needs %s", o->name, field->arg);
    }
}

gboolean
cli_set_flag (const CliOption *option,
              const char      *value,
              CliRequest      *request,
              GError         **error)
{
  G_STRUCT_MEMBER (gboolean, request, option->field) = TRUE;
  return TRUE;
}

gboolean
cli_set_text (const CliOption *option,
              const char      *value,
              CliRequest      *request,
              GError         **error)
{
  char **field = &G_STRUCT_MEMBER (char *, request, option->field);

  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

gboolean
cli_set_path (const CliOption *option,
              const char      *value,
              CliRequest      *request,
              GError         **error)
{
  if (*value == '\0')
    return cli_refuse (option, error);
  return cli_set_text (option, value, request, error);
}

gboolean
cli_set_format (const CliOption *option,
                const char      *value,
                CliRequest      *request,
                GError         **error)
{
  const SqFormat *format = sq_format_by_id (value);

  if (format == NULL)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 "unknown format “%s” (see “sequin-cli formats”)", value);
  else if (!sq_format_can_write (format))
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "format “%s” cannot be written", value);
  else
    {
      request->format = format;
      return TRUE;
    }
  return FALSE;
}

gboolean
cli_set_target (const CliOption *option,
                const char      *value,
                CliRequest      *request,
                GError         **error)
{
  const char * const *targets = sq_validate_targets ();

  if (!g_strv_contains (targets, value))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) targets);

      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "unknown target “%s” (known: %s)", value,
                   known);
      return FALSE;
    }
  return cli_set_text (option, value, request, error);
}

/* ---- parsing ---- */

/* The row `arg` ("--name", "--name=…" or "-c") names, NULL if none */
static const CliOption *
find_option (const CliCommandSpec *command,
             const char           *arg)
{
  gsize len = strcspn (arg, "=");

  for (gsize s = 0; s < command->n_sections; s++)
    for (gsize i = 0; i < command->sections[s].n_options; i++)
      {
        const CliOption *o = &command->sections[s].options[i];

        if (arg[1] == '-' ? len - 2 == strlen (o->name) && strncmp (arg + 2, o->name, len - 2) == 0
                          : arg[1] == o->short_name && arg[1] != '\0' && arg[2] == '\0')
          return o;
      }
  return NULL;
}

/* GOption takes the next argument as the value of an option with an
 * optional value unless it starts with "-", so `--invert-xz IN` would eat
 * IN; and it ignores "=VALUE" after an option that takes none. Before it
 * parses, an optional value is therefore always written "--name=VALUE"
 * ("--name=" when none is given: an empty one given is refused), and a
 * value after an option that takes none is refused. */
static gboolean
prepare_args (const CliCommandSpec *command,
              GPtrArray            *args,
              GError              **error)
{
  for (guint i = 1; i < args->len; i++)
    {
      const char *a = args->pdata[i];
      const CliOption *o;
      gboolean has_value;

      if (strcmp (a, "--") == 0)
        break;
      if (a[0] != '-' || (o = find_option (command, a)) == NULL)
        continue;
      has_value = a[1] == '-' && strchr (a, '=') != NULL;
      switch (o->arg)
        {
        case CLI_ARG_NONE:
          if (has_value)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--%s takes no value", o->name);
              return FALSE;
            }
          break;
        case CLI_ARG_REQUIRED:
          if (!has_value)
            i++;
          break;
        case CLI_ARG_OPTIONAL:
        case CLI_ARG_OPTIONAL_LIST:
          if (has_value && strchr (a, '=')[1] == '\0')
            return cli_refuse (o, error);
          if (has_value)
            break;
          if (o->arg == CLI_ARG_OPTIONAL_LIST && i + 1 < args->len && strchr (args->pdata[i + 1], ',') != NULL)
            {
              args->pdata[i] = g_strdup_printf ("--%s=%s", o->name, (const char *) args->pdata[i + 1]);
              g_free ((char *) a);
              g_ptr_array_remove_index (args, i + 1);
            }
          else
            {
              args->pdata[i] = g_strdup_printf ("--%s=", o->name);
              g_free ((char *) a);
            }
          break;
        }
    }
  return TRUE;
}

typedef struct
{
  const CliCommandSpec *command;
  CliRequest           *request;
} ParseData;

static gboolean
option_cb (const char *option_name,
           const char *value,
           gpointer    user_data,
           GError    **error)
{
  ParseData *data = user_data;
  const CliOption *o = find_option (data->command, option_name);

  g_return_val_if_fail (o != NULL, FALSE);
  /* prepare_args writes "--name=" for an optional value not given */
  if (value != NULL && *value == '\0' && (o->arg == CLI_ARG_OPTIONAL || o->arg == CLI_ARG_OPTIONAL_LIST))
    value = NULL;
  return o->parse (o, value, data->request, error);
}

/* The GOptionEntries of a section's rows (free with g_free) */
static GOptionEntry *
section_entries (const CliSection *section)
{
  GOptionEntry *entries = g_new0 (GOptionEntry, section->n_options + 1);

  for (gsize i = 0; i < section->n_options; i++)
    {
      const CliOption *o = &section->options[i];
      GOptionEntry *e = &entries[i];

      e->long_name = o->name;
      e->short_name = o->short_name;
      /* the values as given, not converted from the locale's charset:
       * names and paths are bytes */
      e->flags = G_OPTION_FLAG_FILENAME;
      if (o->arg == CLI_ARG_NONE)
        e->flags |= G_OPTION_FLAG_NO_ARG;
      else if (o->arg != CLI_ARG_REQUIRED)
        e->flags |= G_OPTION_FLAG_OPTIONAL_ARG;
      e->arg = G_OPTION_ARG_CALLBACK;
      e->arg_data = (gpointer) option_cb;
      e->description = cli_option_help (o);
      e->arg_description = cli_option_arg (o);
    }
  return entries;
}

static GOptionContext *
command_context (const CliCommandSpec *command,
                 ParseData            *data,
                 GPtrArray            *entries)
{
  GOptionContext *context = g_option_context_new (command->parameters);
  GOptionGroup *main_group = g_option_group_new (command->name, NULL, NULL, data, NULL);

  g_option_context_set_help_enabled (context, FALSE);   /* its own --help shows every group */
  g_option_context_set_summary (context, command->summary);
  g_option_context_set_description (context, command->description);
  g_option_context_set_main_group (context, main_group);
  for (gsize s = 0; s < command->n_sections; s++)
    {
      const CliSection *section = &command->sections[s];
      GOptionEntry *e = section_entries (section);

      g_ptr_array_add (entries, e);
      if (section->title == NULL)
        g_option_group_add_entries (main_group, e);
      else
        {
          g_autofree char *name = g_strdup_printf ("%s-%zu", command->name, s);
          GOptionGroup *group = g_option_group_new (name, section->title, section->title, data, NULL);

          g_option_group_add_entries (group, e);
          g_option_context_add_group (context, group);
        }
    }
  return context;
}

gboolean
cli_parse (const CliCommandSpec *command,
           int                   argc,
           char                **argv,
           CliRequest           *request)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *prgname = g_strconcat ("sequin-cli ", command->name, NULL);
  GOptionContext *context;
  ParseData data = { command, request };
  char **parsed;
  int n_parsed;
  gboolean ok, dashes = FALSE;

  g_ptr_array_add (args, g_steal_pointer (&prgname));
  for (int i = 0; i < argc; i++)
    g_ptr_array_add (args, g_strdup (argv[i]));
  if (!prepare_args (command, args, &error))
    {
      usage_error ("%s", error->message);
      return FALSE;
    }
  g_ptr_array_add (args, NULL);
  /* g_option_context_parse takes options out of the array: free its
   * strings from a copy */
  parsed = g_memdup2 (args->pdata, args->len * sizeof (char *));
  n_parsed = (int) args->len - 1;
  context = command_context (command, &data, entries);
  ok = g_option_context_parse (context, &n_parsed, &parsed, &error);
  g_option_context_free (context);
  if (!ok)
    {
      g_free (parsed);
      usage_error ("%s", error->message);
      return FALSE;
    }
  /* the rest are files; GOption leaves a "--" that ended the options */
  for (int i = 1; i < n_parsed; i++)
    if (!dashes && strcmp (parsed[i], "--") == 0)
      dashes = TRUE;
    else
      g_ptr_array_add (request->files, g_strdup (parsed[i]));
  g_free (parsed);
  return TRUE;
}

/* ---- help ---- */

char *
cli_command_help (const CliCommandSpec *command)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);
  ParseData data = { command, NULL };
  GOptionContext *context = command_context (command, &data, entries);
  char *help = g_option_context_get_help (context, FALSE, NULL);

  g_option_context_free (context);
  return help;
}

/* "--name ARG", "--name[=ARG]", "-c, --name ARG" */
static char *
option_label (const CliOption *o)
{
  GString *s = g_string_new (NULL);

  if (o->short_name != 0)
    g_string_append_printf (s, "-%c, ", o->short_name);
  g_string_append_printf (s, "--%s", o->name);
  if (o->arg == CLI_ARG_REQUIRED)
    g_string_append_printf (s, " %s", cli_option_arg (o));
  else if (o->arg != CLI_ARG_NONE)
    g_string_append_printf (s, "[=%s]", cli_option_arg (o));
  return g_string_free (s, FALSE);
}

static gboolean
is_help (const CliOption *o)
{
  return g_str_equal (o->name, "help");
}

char *
cli_full_help (const CliCommandSpec * const *commands,
               gsize                 n_commands,
               const char           *epilogue)
{
  GString *s = g_string_new ("Usage:\n");

  for (gsize c = 0; c < n_commands; c++)
    for (gsize l = 0; commands[c]->synopsis[l] != NULL; l++)
      g_string_append_printf (s, "  sequin-cli %s\n", commands[c]->synopsis[l]);
  g_string_append (s, "  sequin-cli --help | --version | COMMAND --help\n");
  for (gsize c = 0; c < n_commands; c++)
    {
      gboolean headed = FALSE;   /* under "COMMAND options:" */

      for (gsize n = 0; n < commands[c]->n_sections; n++)
        {
          const CliSection *section = &commands[c]->sections[n];

          for (gsize i = 0; i < section->n_options; i++)
            {
              const CliOption *o = &section->options[i];
              g_autofree char *label = option_label (o);

              if (is_help (o))
                continue;
              if (section->title != NULL && i == 0)
                g_string_append_printf (s, "\n%s %s\n", commands[c]->name, section->title);
              else if (section->title == NULL && !headed)
                g_string_append_printf (s, "\n%s options:\n", commands[c]->name);
              headed |= section->title == NULL;
              /* the label in 27 columns (characters, not bytes) */
              g_string_append_printf (s, "  %s%*s %s\n", label,
                                      (int) MAX (0, 25 - (glong) g_utf8_strlen (label, -1)), "", cli_option_help (o));
            }
        }
      if (commands[c]->description != NULL)
        g_string_append_printf (s, "\n%s\n", commands[c]->description);
    }
  g_string_append_printf (s, "\n%s", epilogue);
  return g_string_free (s, FALSE);
}

/* roff text: backslashes and hyphens escaped, no line starting with a
 * control character */
static void
append_roff (GString    *s,
             const char *text)
{
  gboolean line_start = TRUE;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (line_start && (*p == '.' || *p == '\''))
        g_string_append (s, "\\&");
      if (*p == '\\')
        g_string_append (s, "\\e");
      else if (*p == '-')
        g_string_append (s, "\\-");
      else
        g_string_append_c (s, *p);
      line_start = *p == '\n';
    }
}

char *
cli_man_page (const CliCommandSpec * const *commands,
              gsize                 n_commands,
              const char           *epilogue)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, ".TH SEQUIN\\-CLI 1 \"\" \"sequin %s\" \"User Commands\"\n", PACKAGE_VERSION);
  g_string_append (s, ".SH NAME\nsequin\\-cli \\- read, check, convert and edit avatar keyframe animations\n");
  g_string_append (s, ".SH SYNOPSIS\n.nf\n");
  for (gsize c = 0; c < n_commands; c++)
    for (gsize l = 0; commands[c]->synopsis[l] != NULL; l++)
      {
        g_string_append (s, "\\fBsequin\\-cli\\fR ");
        append_roff (s, commands[c]->synopsis[l]);
        g_string_append_c (s, '\n');
      }
  g_string_append (s, ".fi\n.SH DESCRIPTION\n"
                  "\\fBsequin\\-cli\\fR reads, checks, converts and edits keyframe animations of avatars "
                  "(ActiveWorlds SEQ, DirectX .x, Second Life .anim, BVH, The Sims), on the same core as the "
                  "Sequin editor. Each command has its own options; "
                  "\\fBsequin\\-cli\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR lists them.\n"
                  ".SH COMMANDS\n");
  for (gsize c = 0; c < n_commands; c++)
    {
      const CliCommandSpec *command = commands[c];

      g_string_append_printf (s, ".SS %s\n", command->name);
      append_roff (s, command->summary);
      g_string_append_c (s, '\n');
      for (gsize n = 0; n < command->n_sections; n++)
        {
          const CliSection *section = &command->sections[n];

          if (section->title != NULL)
            {
              g_string_append (s, ".PP\n\\fI");
              append_roff (s, section->title);
              g_string_append (s, "\\fR\n");
            }
          for (gsize i = 0; i < section->n_options; i++)
            {
              const CliOption *o = &section->options[i];
              g_autofree char *label = option_label (o);

              if (is_help (o))
                continue;
              g_string_append (s, ".TP\n\\fB");
              append_roff (s, label);
              g_string_append (s, "\\fR\n");
              append_roff (s, cli_option_help (o));
              g_string_append_c (s, '\n');
            }
        }
      if (command->description != NULL)
        {
          g_string_append (s, ".PP\n");
          append_roff (s, command->description);
          g_string_append_c (s, '\n');
        }
    }
  g_string_append (s, ".SH NOTES\n.nf\n");
  append_roff (s, epilogue);
  g_string_append (s, ".fi\n.SH SEE ALSO\n\\fBsequin\\-cli formats\\fR lists the format ids.\n");
  return g_string_free (s, FALSE);
}
