/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz-program-text.c: the readers of the texts torch prints for a
 * torch.export program (`print(ep)`, `print_readable()`); a graph that
 * reads must pass the lint and print its code and listing.
 */
#include "config.h"

#include "fuzz.h"
#include "graft-view.h"

/* One input in one dialect. */
static int
fuzz_one (const uint8_t      *data,
          size_t              size,
          const GraftDialect *dialect)
{
  g_autoptr (GraftSource) source =
      graft_source_new ("fuzz.txt", (const char *) data, (gssize) size);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *code = NULL;

  (void) graft_program_text_detect (source);
  graph = graft_program_text_parse (source, dialect, &error);
  if (graph == NULL)
    {
      if (error == NULL)
        fuzz_fail ("no graph and no error");
      return 0;
    }
  if (!graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error))
    fuzz_fail ("the graph read breaks the lint: %s", error->message);
  if (graft_graph_get_program (graph) == NULL)
    fuzz_fail ("the graph read is not a program");
  listing = graft_listing_print (graph);
  code = graft_codegen_python (graph);
  return 0;
}

/* Every input runs in each dialect. */
int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  for (guint t = 0; t < GRAFT_N_TORCHES; t++)
    fuzz_one (data, size, graft_dialect_get (t));
  return 0;
}
