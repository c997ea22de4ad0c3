/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-py-fast-line-private.h: the parser's fast path for the simple
 * statement lines that make up most model code (`h = torch.cat([a, b],
 * dim=1)[:, :16] * 0.5`), read from the bytes in one pass without the
 * lexer's tokens or the grammar's levels.
 */
#pragma once

#if !defined(GRAFT_COMPILATION)
#error "graft-py-fast-line-private.h is internal to core."
#endif

#include "graft-py-ast.h"
#include "graft-py-lexer.h"

G_BEGIN_DECLS

GraftPyStmt *_graft_py_fast_line (GraftPyModule *module,
                                  const char    *text,
                                  gsize          start,
                                  guint          max_tokens,
                                  gsize         *out_newline);

void  _graft_py_parser_set_fast_lines (gboolean enabled);
guint _graft_py_parser_get_fast_lines_read (void);

GraftPyTokenKind _graft_py_keyword_kind (const char *s,
                                         gsize       len);

G_END_DECLS
