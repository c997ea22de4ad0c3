/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-input-archive-private.h: how the input set reads a `.pt2` archive
 * (graft-input-archive.c).  The file is built twice: with the archive
 * reader (libzip, yajl) for every program but the lean `graft` CLI,
 * and without it for `graft`, which then needs neither library and starts
 * as a static program; there reading an archive fails with
 * %GRAFT_PARSE_ERROR_NO_ARCHIVE_READER and the CLI hands the command line
 * to graft-render.
 */
#pragma once

#include "graft-source.h"
#include "graft-dialect.h"
#include "graft-types.h"

G_BEGIN_DECLS

/* Reads @source as a `.pt2` archive.  With @out_kept, what reading parsed
 * is not freed but handed over, to be freed with
 * _graft_input_archive_free_kept() (or never, by a program about to exit). */
GraftGraph *_graft_input_read_archive (GraftSource        *source,
                                       const GraftDialect *dialect,
                                       gpointer           *out_kept,
                                       GError            **error) G_GNUC_WARN_UNUSED_RESULT;
void        _graft_input_archive_free_kept (gpointer kept);

G_END_DECLS
