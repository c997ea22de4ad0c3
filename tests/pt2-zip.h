/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * pt2-zip.h: zip archives in memory, for the tests and the fuzz target of
 * the .pt2 reader: a program made from a JSON text, and a member read back
 * out of an archive.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

GBytes *pt2_zip_make (guint              n_members,
                      const char *const *names,
                      const char *const *texts,
                      const gsize       *lengths);
GBytes *pt2_zip_program (const char *json,
                         gsize       length);
char   *pt2_zip_extract (const char *archive,
                         gsize       archive_length,
                         const char *member,
                         gsize      *out_length);

G_END_DECLS
