/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-input-archive.c: the input set's door to the `.pt2` reader, built
 * in two forms (graft-input-archive-private.h).  Linking libzip and
 * json-glib (which read the JSON member before yajl) made every `graft`
 * process load GIO, GObject and libcrypto and resolve their symbols: 6.9 M
 * of the 7.2 M instructions of `graft code` on a two-line file
 * (callgrind), about 2.3 ms of each run here.
 */
#include "config.h"

#include "graft-input-archive-private.h"
#include "graft-error.h"

#ifdef GRAFT_NO_ARCHIVE_READER

GraftGraph *
_graft_input_read_archive (GraftSource        *source,
                           const GraftDialect *dialect,
                           gpointer           *out_kept,
                           GError            **error)
{
  graft_set_error_at_offset (error, source, 0, 0, GRAFT_PARSE_ERROR_NO_ARCHIVE_READER,
                             "this program reads no .pt2 archive: it does not link libzip "
                             "and yajl (graft-render does)");
  return NULL;
}

void
_graft_input_archive_free_kept (gpointer kept)
{
  g_assert (kept == NULL);
}

#else

#include "graft-pt2-private.h"

GraftGraph *
_graft_input_read_archive (GraftSource        *source,
                           const GraftDialect *dialect,
                           gpointer           *out_kept,
                           GError            **error)
{
  Pt2Tree    *kept = NULL;
  GraftGraph *graph = _graft_pt2_read_keeping (source, dialect, out_kept != NULL ? &kept : NULL,
                                               error);

  if (out_kept != NULL)
    *out_kept = kept;
  return graph;
}

void
_graft_input_archive_free_kept (gpointer kept)
{
  _graft_pt2_tree_free (kept);
}

#endif
