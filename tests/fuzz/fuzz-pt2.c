/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz-pt2.c: the .pt2 reader (graft_pt2_read).  An input that starts as
 * a zip does (`PK\3\4`) is read as the archive it is; any other input is
 * the JSON member of a program, put into a valid archive beside a
 * `version` member, so that mutations reach the JSON text and the
 * deserializer rather than stop at the zip layer (which checks a CRC per
 * member).  A program that reads must pass the lint and print its code
 * and listing; a refused one must say where.
 */
#include "config.h"

#include "fuzz.h"
#include "graft-view.h"
#include "pt2-zip.h"

#include <string.h>

static void
read_archive (const char *data,
              gsize       size)
{
  g_autoptr (GraftSource) source = graft_source_new ("fuzz.pt2", data, (gssize) size);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = graft_pt2_read (source, graft_dialect_get_default (), &error);
  g_autofree char *code = NULL;
  g_autofree char *listing = NULL;

  if (graph == NULL)
    {
      if (error == NULL || !graft_error_get_location (error, NULL, NULL, NULL, NULL, NULL))
        fuzz_fail ("a refused archive without a located error: %s",
                   error != NULL ? error->message : "(no error)");
      return;
    }
  if (!graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error))
    fuzz_fail ("a program that fails the lint: %s", error->message);
  code = graft_codegen_python (graph);
  listing = graft_listing_print (graph);
  if (code == NULL || listing == NULL)
    fuzz_fail ("a program that does not print");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (GBytes) archive = NULL;
  gsize       len = 0;
  const char *bytes;

  if (size >= 4 && memcmp (data, "PK\x03\x04", 4) == 0)
    {
      read_archive ((const char *) data, size);
      return 0;
    }
  archive = pt2_zip_program ((const char *) data, size);
  bytes = g_bytes_get_data (archive, &len);
  read_archive (bytes, len);
  return 0;
}
