/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-type-text-private.h: the text a node's type annotation is kept as.
 *
 * It is what the listing prints (torch's `_type_repr`, Python's repr of a
 * generic alias), with one difference: a Union keeps its arguments in
 * order, `typing.Union[NoneType, int]`, where the listing contracts two
 * arguments with NoneType to `typing.Optional[int]`, since generated code
 * keeps the order (`typing_Union[NoneType,int]`).  A listing read back
 * keeps `typing.Optional[X]`, which code generation reads as
 * `typing.Union[X, NoneType]`.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

const char *_graft_type_text_arg_end (const char *p);
gboolean    _graft_type_text_closes_at (const char *open,
                                        const char *end);
gboolean    _graft_type_text_is_alternatives (const char *text);
void        _graft_type_text_append_listing (GString    *out,
                                             const char *text);

G_END_DECLS
