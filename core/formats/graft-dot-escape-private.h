/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dot-escape-private.h: the escaped text of Graft's DOT, in strings
 * of graft_args/graft_kwargs and in the text of graft_target and
 * graft_type (graft-dot-escape.c; graft-dot-writer.c describes the
 * escapes).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void     _graft_dot_append_escaped (GString    *out,
                                    const char *s,
                                    gsize       len,
                                    char        quote);
gboolean _graft_dot_read_escaped (const char  *p,
                                  const char  *end,
                                  char         quote,
                                  GString     *buf,
                                  const char **out_end,
                                  const char **out_message);

G_END_DECLS
