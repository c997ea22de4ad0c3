/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz-python.c: the Python front end (tokenizer, parser, tracer) and,
 * when a graph comes out, code generation, the listing and the lint.
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
  g_autoptr (GraftSource) source = graft_source_new ("fuzz.py", (const char *) data, (gssize) size);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph =
      graft_trace_source (source, dialect, NULL, &error);

  if (graph != NULL)
    {
      g_autofree char *code = graft_codegen_python (graph);
      g_autofree char *listing = graft_listing_print (graph);

      if (!graft_graph_lint (graph, GRAFT_LINT_DEFAULT, NULL))
        fuzz_fail ("a traced graph fails the lint");
    }
  else
    {
      g_autofree char *message = graft_error_format (error, NULL);

      if (message == NULL || *message == '\0')
        fuzz_fail ("an error without a message");
    }
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
