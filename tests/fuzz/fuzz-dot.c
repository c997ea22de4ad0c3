/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz-dot.c: DOT import through cgraph; a graph that reads must export
 * to DOT and read back.  The target enables the DOT reader itself (the
 * libFuzzer binary has no driver.c) and fails when it is off: without it
 * every input was refused at once (45 edges of coverage, 2026-12-06).
 */
#include "config.h"

#include "fuzz.h"
#include "graft-view.h"

#include <string.h>

/* One input in one dialect. */
static int
fuzz_one (const uint8_t      *data,
          size_t              size,
          const GraftDialect *dialect)
{
  g_autoptr (GraftSource) source =
      graft_source_new ("fuzz.dot", (const char *) data, (gssize) size);
  g_autoptr (GError) refusal = NULL;
  g_autoptr (GraftGraph) graph =
      graft_dot_parse (source, dialect, &refusal);
  g_autofree char *dot = NULL;
  g_autoptr (GraftSource) again = NULL;
  g_autoptr (GraftGraph) reread = NULL;
  g_autoptr (GError) error = NULL;

  if (graph == NULL)
    {
      if (g_error_matches (refusal, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_NO_DOT_READER))
        fuzz_fail ("the DOT reader is off: %s", refusal->message);
      return 0;
    }
  dot = graft_dot_print (graph, NULL);
  again = graft_source_new ("again.dot", dot, -1);
  reread = graft_dot_parse (again, dialect, &error);
  if (reread == NULL)
    fuzz_fail ("Graft's own DOT does not read back: %s", error->message);
  return 0;
}

/* Every input runs in each dialect. */
int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  graft_gv_enable_dot_reader ();
  for (guint t = 0; t < GRAFT_N_TORCHES; t++)
    fuzz_one (data, size, graft_dialect_get (t));
  return 0;
}
