/* sequin-cli-private.h: what the command-line tool's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sq-core.h"

#define EXIT_BAD_INPUT 1
#define EXIT_USAGE     2

/* ---- the option tables (sequin-cli-options.c) ----------------------------
 *
 * Every command has its own table of options (CliOption rows, in sections:
 * the first is the command's own GOptionGroup, the others are headed groups
 * of its --help). The rows become GOptionEntries of one GOptionContext per
 * command; GOption calls the row's `parse` for each option in the order
 * given, which stores the value in the CliRequest. Adding an option is
 * adding a row. */

typedef enum
{
  CLI_ARG_NONE,          /* --name */
  CLI_ARG_REQUIRED,      /* --name VALUE or --name=VALUE */
  CLI_ARG_OPTIONAL,      /* --name or --name=VALUE */
  CLI_ARG_OPTIONAL_LIST, /* the same, or --name A,B,…: the next argument
                          * is its value when it holds a comma */
} CliArg;

typedef struct _CliOption  CliOption;
typedef struct _CliRequest CliRequest;
typedef struct _CliOp      CliOp;

/* Stores an option's value (NULL: none given) in the request; FALSE with
 * the row's usage message (G_OPTION_ERROR) when the value is bad */
typedef gboolean (*CliParseFunc) (const CliOption *option,
                                  const char      *value,
                                  CliRequest      *request,
                                  GError         **error);
/* An edit operation's SqEdit for one clip (each file of a batch gets its
 * own edits); a constraint edit looks at the clip's constraints */
typedef SqEdit  *(*CliMakeFunc)  (const CliOp  *op,
                                  const SqClip *clip);

struct _CliOption
{
  const char  *name;             /* long name, without "--" */
  char         short_name;       /* 0: none */
  CliArg       arg;
  const char  *arg_description;  /* "FPS"; NULL when it takes none */
  const char  *help;
  CliParseFunc parse;
  gsize        field;            /* cli_set_*: the CliRequest member's offset */
  CliMakeFunc  make;             /* edit operations: their edit */
  /* edit operations: how many numbers the value holds (op_numbers), the
   * range of a whole number (op_int, op_joint_int), whether N comes
   * first (op_constraint: 1 for --set-constraint N:SPEC) */
  gint64       min, max;
  const char  *usage;            /* why its value was refused */
};

typedef struct
{
  const char      *title;        /* NULL: the command's own options */
  const CliOption *options;
  gsize            n_options;
} CliSection;

/* One parsed edit operation: its row and its values */
struct _CliOp
{
  const CliOption *option;
  double           v[3];
  gint64           n;
  char            *text;
  char            *text2;
  char           **names;
  gpointer         spec;         /* a posing option's numbers (sequin-cli-posing.c), g_free'd */
};

/* A new edit operation of `option`, appended to the request's */
CliOp *cli_add_op (const CliOption *option,
                   CliRequest      *request);

/* What the command line asked for: the options' values and the files */
struct _CliRequest
{
  GPtrArray      *files;         /* the arguments that are no options */
  char           *out;           /* -o */
  char           *out_dir;       /* --out-dir */
  char           *map_path;      /* --map */
  char           *against;       /* diff --against */
  char           *target;        /* validate --target */
  const SqFormat *format;        /* --to */
  gboolean        json, loss, help;
  gboolean        overwrite_companions; /* --overwrite-companions */
  double          tolerance[2];  /* diff --tolerance */
  guint           take;          /* --take N: N - 1, the file's take to read */
  guint           take_b;        /* diff --take N,M: M - 1, the second file's (N - 1 without M) */
  GPtrArray      *ops;           /* CliOp *: edit operations in order */
  guint           skip_frames;   /* --skip-frames N: the first N frames of a file with frames dropped */
  gboolean        no_reference;  /* --no-reference-frame: a BVH from a .anim without its reference frame */
  gboolean        literal_pose;  /* --literal-pose: a BVH pose to .anim as the viewer's upload does */
  double          at;            /* layers --at T */
  gboolean        at_given;
  char           *world;         /* new --world */
  double          duration, fps; /* new --duration, --fps (0: the defaults) */
};

typedef struct
{
  const char       *name;        /* "edit" */
  const char       *parameters;  /* "IN -o OUT OPERATION…" */
  const char * const *synopsis;  /* usage lines after "sequin-cli " */
  const char       *summary;
  const char       *description; /* after the options (may be NULL) */
  const CliSection *sections;
  gsize             n_sections;
  int             (*run)        (CliRequest *request);
} CliCommandSpec;

CliRequest *cli_request_new         (void);
void        cli_request_free        (CliRequest *request);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliRequest, cli_request_free)

/* Parses a command's arguments (argv[0] is the first after the command
 * name) into `request`; FALSE with a usage message printed (exit 2) */
gboolean    cli_parse               (const CliCommandSpec *command,
                                     int                   argc,
                                     char                **argv,
                                     CliRequest           *request);
/* The command's --help, as GOption writes it */
char       *cli_command_help        (const CliCommandSpec *command);
/* The whole tool's help: every command's usage and options */
char       *cli_full_help           (const CliCommandSpec * const *commands,
                                     gsize                 n_commands,
                                     const char           *epilogue);
/* The same as a man page (roff), for the build */
char       *cli_man_page            (const CliCommandSpec * const *commands,
                                     gsize                 n_commands,
                                     const char           *epilogue);

/* parse functions for rows: a flag, any text, a non-empty text, a
 * writable format id, a validation target */
gboolean    cli_set_flag            (const CliOption *, const char *, CliRequest *, GError **);
gboolean    cli_set_text            (const CliOption *, const char *, CliRequest *, GError **);
gboolean    cli_set_path            (const CliOption *, const char *, CliRequest *, GError **);
gboolean    cli_set_format          (const CliOption *, const char *, CliRequest *, GError **);
gboolean    cli_set_target          (const CliOption *, const char *, CliRequest *, GError **);
/* FALSE with the row's usage message */
/* A row's help, value name and refusal message: its own, or, for an edit
 * operation that sets a field (help NULL), the field descriptor's */
const char *cli_option_help         (const CliOption *option);
const char *cli_option_arg          (const CliOption *option);
const char *cli_option_usage        (const CliOption *option);
gboolean    cli_refuse              (const CliOption *option,
                                     GError         **error);

/* Numbers, finite, separated by `sep` ("1.5", "0,2"): between min and max
 * of them, *n gets how many. GLib's g_ascii_strtod: locale-independent and
 * correctly rounded, so a value reads exactly as it would from a file. */
gboolean    cli_parse_numbers       (const char *text,
                                     char        sep,
                                     double     *v,
                                     guint       min,
                                     guint       max,
                                     guint      *n);
/* A whole number in decimal (g_ascii_strtoll) */
gboolean    cli_parse_int           (const char *text,
                                     gint64     *out);

/* ---- sequin-cli-edit.c: the edit command and its operations ---- */

extern const CliCommandSpec cli_edit_command;
void        cli_op_free             (CliOp        *op);

/* ---- sequin-cli.c ---- */

/* the options convert and edit share: --to, --map, --out-dir,
 * --overwrite-companions */
#define CLI_N_OUTPUT_OPTIONS 4
extern const CliOption cli_output_options[CLI_N_OUTPUT_OPTIONS];
/* -h, --help: a row of every command */
extern const CliOption cli_help_option;
/* --take N: the commands that read one animation of a file */
extern const CliOption cli_take_option;

/* Prints "sequin-cli: MESSAGE" and where to find help; EXIT_USAGE */
int      usage_error        (const char *format,
                             ...) G_GNUC_PRINTF (1, 2);
/* The file's take `take` (from 0; --take) */
SqClip  *load_file          (const char *path,
                             guint       take,
                             GError    **error);
int      fail_file          (const char   *path,
                             const GError *error);
/* the reader's warnings on stderr */
void     print_warnings     (const char   *path,
                             const SqClip *clip);
/* A --map FILE (sq-joint-map.h); NULL after an error naming the file and
 * line:column */
SqJointMap *load_map        (const char *path);
/* Saves `clip` as `format` into `out_path` with the companions that
 * belong to that name (sq_save_files), reporting what the format loses;
 * a companion that belongs to another file is refused unless
 * request->overwrite_companions; the exit status. `request` (may be
 * NULL) gives the reference frame options too. */
int      write_clip         (const SqClip     *clip,
                             const SqFormat   *format,
                             const SqJointMap *map,
                             const char       *out_path,
                             const CliRequest *request);
/* --skip-frames N: a row of the commands that read; the save options of
 * convert and edit (--no-reference-frame, --literal-pose) */
extern const CliOption cli_skip_frames_option;
#define CLI_N_REFERENCE_OPTIONS 2
extern const CliOption cli_reference_options[CLI_N_REFERENCE_OPTIONS];
/* Drops the first request->skip_frames frames of `clip` (nothing for 0);
 * FALSE with an error */
gboolean cli_skip_frames    (const CliRequest *request,
                             SqClip           *clip,
                             GError          **error);
/* the layers command (sequin-cli-layers.c) */
extern const CliCommandSpec cli_layers_command;

/* ---- sequin-cli-tools.c: the animator's tools ---- */

/* what an applied edit reports (reduce: keys before and after) */
void     cli_print_report   (const char *path,
                             const SqEdit *edit);
/* Output kept for one file while others are worked on, printed later in
 * the order of the files: text for stdout and stderr, in the order said */
typedef struct _CliSink CliSink;

CliSink *cli_sink_new       (void);
void     cli_sink_printf    (CliSink    *sink,
                             gboolean    to_stderr,
                             const char *format,
                             ...) G_GNUC_PRINTF (3, 4);
/* fail_file and print_warnings into a sink */
int      cli_sink_fail      (CliSink      *sink,
                             const char   *path,
                             const GError *error);
void     cli_sink_warnings  (CliSink      *sink,
                             const char   *path,
                             const SqClip *clip);
/* Prints and frees it */
void     cli_sink_flush     (CliSink    *sink);

/* One file of many (`index` in the request's files) into its sink; its
 * exit status */
typedef int (*CliSinkFunc) (guint    index,
                            CliSink *sink,
                            gpointer data);
typedef void (*CliEachFunc) (guint    index,
                             gpointer data);
/* `one` for every file below n over all cores, each file's output printed
 * as soon as those before it are, so in the order given; 1 when any
 * failed (the others still done) */
int      cli_each_in_order  (guint       n,
                             CliSinkFunc one,
                             gpointer    data);

/* validate --loss: what saving in `world`'s format (one with a
 * save_loss) does to the motion; FALSE when the clip cannot be written */
gboolean cli_print_loss     (CliSink           *sink,
                             const char        *path,
                             const SqClip      *clip,
                             const SqWorldHome *world);
/* Converts or edits one input into `out`, as `request` says; its exit
 * status */
typedef int (*CliOneFunc) (const CliRequest *request,
                           const char       *in,
                           const char       *out);
/* `convert --to FORMAT --out-dir DIR FILE…` (edit FALSE) or `edit
 * --out-dir DIR [--to FORMAT] FILE… OPERATION…`: `one` once per FILE over
 * all cores, the output in DIR under the FILE's base name (with FORMAT's
 * extension); a summary line on stderr; 1 when any failed */
int      cli_batch          (const CliRequest *request,
                             CliOneFunc        one,
                             gboolean          edit);
extern const CliCommandSpec cli_diff_command;

/* ---- sequin-cli-posing.c: `new` and the posing operations of `edit` ---- */

extern const CliCommandSpec cli_new_command;
#define CLI_N_POSING_OPS 7
#define CLI_POSING_TITLE "posing (a key is made where there is none; a time within half a frame of a key is that key's):"
extern const CliOption      cli_posing_ops[CLI_N_POSING_OPS];
