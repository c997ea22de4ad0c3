/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmd.h: the commands of the `graft` CLI (cli.md) and what they share.
 * Each command is a GraftCommand in a cmd-NAME.c of its own: its name, its
 * help, the option rows it takes and the function that runs it once its
 * command line is parsed.  Around them:
 *
 *   graft-cli.c      main: the command table and the dispatch
 *   cli-options.c    the option rows, one definition each, and the parse
 *                    of a command's line into GraftCliOptions
 *   cli-output.c     every write to stdout, stderr and output files, and
 *                    the mapping of errors to exit statuses
 *   cli-process.c    the process: start-up (heap, locale), the hand-over
 *                    to graft-render of what the lean `graft` cannot do,
 *                    and the exit
 *
 * The lean `graft` (GRAFT_CLI_LEAN) and graft-render build the same files;
 * the lean one sees only <graft.h>.
 */
#pragma once

#include <glib.h>

#ifdef GRAFT_CLI_LEAN
#include "graft.h"
#else
#include "graft-view.h"
#endif

G_BEGIN_DECLS

/* Exit statuses: the contract of cli.md. */
enum {
  GRAFT_EXIT_OK = 0,
  GRAFT_EXIT_INPUT = 1,
  GRAFT_EXIT_USAGE = 2,
};

/**
 * GraftCliOptionId:
 * @GRAFT_CLI_OPTION_END: ends a command's list of options
 *
 * The options of the commands, one row each in cli-options.c (`--entry
 * NAME`, `--pattern REF`, ...).
 */
typedef enum {
  GRAFT_CLI_OPTION_END,
  GRAFT_CLI_OPTION_ENTRY,
  GRAFT_CLI_OPTION_PATTERN,
  GRAFT_CLI_OPTION_REPLACEMENT,
  GRAFT_CLI_OPTION_IGNORE_LITERALS,
  GRAFT_CLI_OPTION_JSON,
  GRAFT_CLI_OPTION_AT,
  GRAFT_CLI_OPTION_TO,
  GRAFT_CLI_OPTION_STYLE,
  GRAFT_CLI_OPTION_OUTPUT,
  GRAFT_CLI_OPTION_TORCH,
  GRAFT_CLI_OPTION_RULES,
  GRAFT_CLI_OPTION_FIXPOINT,
  GRAFT_CLI_OPTION_DCE,
} GraftCliOptionId;

/* One option a command takes, in the order of its --help. */
typedef struct
{
  GraftCliOptionId id;
  const char      *description; /* Borrowed, nullable: the row's own */
} GraftCliOptionUse;

/* The values of every option; a command reads those it takes (the others
 * stay NULL or FALSE). */
typedef struct
{
  char    *entry;           /* Owned: --entry NAME */
  char    *pattern;         /* Owned: --pattern REF */
  char    *replacement;     /* Owned: --replacement REF */
  char    *at;              /* Owned: --at NODE */
  char    *to;              /* Owned: --to FORMAT */
  char    *style;           /* Owned: --style STYLE */
  char    *output;          /* Owned: -o, --output PATH */
  char    *torch;           /* Owned: --torch VERSION */
  char    *rules;           /* Owned: --rules FILE */
  char    *fixpoint_arg;    /* Owned: --fixpoint N as given */
  gint     fixpoint;        /* --fixpoint N, parsed (at most G_MAXINT); -1 when not given */
  gboolean ignore_literals; /* --ignore-literals */
  gboolean json;            /* --json */
  gboolean dce;             /* --dce */

  /* The torch spoken: --torch, else GRAFT_TORCH, else 2.6 (every command
   * takes --torch, so it is in no command's list). */
  const GraftDialect *dialect;
} GraftCliOptions;

typedef struct
{
  const char              *name;        /* Borrowed */
  const char              *summary;     /* Borrowed: its line in `graft --help` */
  const char              *description; /* Borrowed: the summary of its --help */
  const GraftCliOptionUse *options;     /* Borrowed: ends with GRAFT_CLI_OPTION_END */
  /* Runs the command on one INPUT; returns an exit status. */
  int (*run) (const GraftCliOptions *options,
              const char            *input);
} GraftCommand;

extern const GraftCommand graft_cmd_code;
extern const GraftCommand graft_cmd_graph;
extern const GraftCommand graft_cmd_match;
extern const GraftCommand graft_cmd_rewrite;
extern const GraftCommand graft_cmd_render;
extern const GraftCommand graft_cmd_explain;

/* cli-options.c */
int graft_cli_run_command (const GraftCommand *command,
                           int                 argc,
                           char              **argv);
int graft_cli_load_pattern (GraftInputSet *inputs,
                            const char    *input,
                            const char    *entry,
                            const char    *pattern_ref,
                            GraftGraph   **out_graph,
                            GraftPattern **out_pattern,
                            char         **out_pattern_file);
/* INPUT's graph; a warning when --entry has nothing to choose from. */
GraftGraph *graft_cli_load_input (GraftInputSet *inputs,
                                  const char    *input,
                                  const char    *entry,
                                  GError       **error);
void        graft_cli_warn_ref_name_ignored (GraftInputSet *inputs,
                                             const char    *option,
                                             const char    *ref,
                                             const char    *file,
                                             const char    *name,
                                             const char    *default_name);

/* A step of a command and when it began, for GRAFT_CLI_TIMINGS. */
typedef struct
{
  const char *name; /* Borrowed: static */
  gint64      start;
} GraftCliPhase;

/* cli-output.c */
int  graft_cli_print_help (const GraftCommand *const *commands,
                           guint                      n_commands);
int  graft_cli_print_usage_error (const GraftCommand *const *commands,
                                  guint                      n_commands,
                                  const char                *unknown_command);
int  graft_cli_print_version (void);
int  graft_cli_usage_error (const char *command,
                            const char *format,
                            ...) G_GNUC_PRINTF (2, 3);
int  graft_cli_fail (const char *format,
                     ...) G_GNUC_PRINTF (1, 2);
void graft_cli_note (const char *format,
                     ...) G_GNUC_PRINTF (1, 2);
int  graft_cli_report (const GError *error,
                       const char   *fallback_filename);
int  graft_cli_emit_text (const char *text,
                          gsize       length,
                          const char *output_path);
int  graft_cli_emit_file (const char *data,
                          gsize       length,
                          const char *output_path);
void graft_cli_report_timings (const GraftCliPhase *phases,
                               guint                n_phases);
/* A -o PATH whose extension promises another format than was written. */
const char *graft_cli_format_phrase (GraftFormat format);
gboolean    graft_cli_output_names_other_format (const char  *output,
                                                 GraftFormat  written,
                                                 GraftFormat *out_named);
void        graft_cli_warn_output_name (const char *output,
                                        const char *written,
                                        const char *promised,
                                        const char *hint);

/* cli-process.c */
void           graft_cli_process_start (int    argc,
                                        char **argv);
gint64         graft_cli_process_get_start_time (void);
gboolean       graft_cli_prepare_view (int    argc,
                                       char **argv,
                                       int   *out_status);
void           graft_cli_keep_command_line (char **argv);
void           graft_cli_forget_command_line (void);
GraftInputSet *graft_cli_input_set_new (const GraftDialect *dialect);
int            graft_cli_hand_over_dot (void);
int            graft_cli_finish (int status);

/* cmd-code.c: `code` and `graph` print one graph of INPUT. */
int graft_cli_print_graph (const GraftCliOptions *options,
                           const char            *input,
                           GString *(*print) (GraftGraph *graph),
                           GraftFormat written);
int graft_cli_check_readable (const char         *command,
                              const GraftDialect *dialect);

/* cmd-render.c: the picture writer that `render` and `rewrite` share. */
gboolean graft_cli_format_is_drawing (GraftFormat format);
int      graft_cli_check_picture_args (const char *command,
                                       GraftFormat format,
                                       const char *style,
                                       const char *output);
int      graft_cli_emit_picture (GraftGraph *graph,
                                 const gint *marks,
                                 GraftFormat format,
                                 const char *style,
                                 const char *input,
                                 const char *output);

G_END_DECLS
