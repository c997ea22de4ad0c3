/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmd.h: the commands of the `graft` CLI and the helpers they share.
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

typedef struct
{
  const char *name;
  const char *summary;
  int       (*run) (int argc, char **argv);
} GraftCommand;

int         graft_cmd_code       (int argc, char **argv);
int         graft_cmd_graph      (int argc, char **argv);
int         graft_cmd_match      (int argc, char **argv);
int         graft_cmd_rewrite    (int argc, char **argv);
int         graft_cmd_render     (int argc, char **argv);
int         graft_cmd_explain    (int argc, char **argv);



int         graft_cli_parse      (GOptionContext *context,
                                  int            *argc,
                                  char         ***argv,
                                  const char     *command);
int         graft_cli_one_input  (int            argc,
                                  char         **argv,
                                  const char    *command,
                                  const char   **out_input);
int         graft_cli_load_pattern (GraftInputSet *inputs,
                                    const char    *input,
                                    const char    *entry,
                                    const char    *pattern_ref,
                                    GraftGraph   **out_graph,
                                    GraftPattern **out_pattern,
                                    char         **out_pattern_file);
int         graft_cli_report     (const GError *error,
                                  const char   *fallback_filename);
int         graft_cli_finish     (int           status);
void        graft_cli_report_timings (gint64 load_start,
                                      gint64 print_start,
                                      gint64 emit_start);
GraftInputSet *graft_cli_input_set_new (void);
int         graft_cli_emit_text  (const char   *text,
                                  gsize         length,
                                  const char   *output_path);
int         graft_cli_check_picture_args (const char *command,
                                          const char *to,
                                          const char *style,
                                          const char *output);
int         graft_cli_emit_picture (GraftGraph *graph,
                                    const gint *marks,
                                    const char *to,
                                    const char *style,
                                    const char *input,
                                    const char *output);

G_END_DECLS
