/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmd.h: the commands of the `graft` CLI and the helpers they share.
 */
#pragma once

#include <glib.h>

#include "graft.h"

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

/* The files a command reads, each read and parsed once however often it is
 * named (INPUT, the pattern's file, the replacement's file). */
typedef struct _GraftCliInputs GraftCliInputs;

GraftCliInputs *graft_cli_inputs_new   (void);
void            graft_cli_inputs_free  (GraftCliInputs *self);
GraftGraph     *graft_cli_load_input   (GraftCliInputs *self,
                                        const char     *path,
                                        const char     *entry,
                                        GError        **error);
GraftGraph     *graft_cli_load_ref     (GraftCliInputs *self,
                                        const char     *path,
                                        const char     *name,
                                        GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftCliInputs, graft_cli_inputs_free)

int         graft_cli_parse      (GOptionContext *context,
                                  int            *argc,
                                  char         ***argv,
                                  const char     *command);
int         graft_cli_one_input  (int            argc,
                                  char         **argv,
                                  const char    *command,
                                  const char   **out_input);
int         graft_cli_report     (const GError *error,
                                  const char   *fallback_filename);
GraftSource *graft_cli_read      (const char   *path,
                                  GError      **error);
int         graft_cli_emit_text  (const char   *text,
                                  gsize         length,
                                  const char   *output_path);

G_END_DECLS
