/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft.h: the umbrella header of the text core: reading, tracing,
 * matching, rewriting and printing, with no Graphviz or cairo.  The lean
 * `graft` CLI includes it alone; programs that also lay out and draw
 * include <graft-view.h>, which includes this one.
 */
#pragma once

#define GRAFT_INSIDE
#include "graft-types.h"
#include "graft-limits.h"
#include "graft-source.h"
#include "graft-error.h"
#include "graft-format.h"
#include "graft-heap.h"
#include "graft-dialect.h"
#include "graft-arg.h"
#include "graft-aten-schema.h"
#include "graft-namespace.h"
#include "graft-graph.h"
#include "graft-meta.h"
#include "graft-edit.h"
#include "graft-codegen.h"
#include "graft-listing.h"
#include "graft-dot.h"
#include "graft-output.h"
#include "graft-input.h"
#include "graft-program.h"
#include "graft-py-lexer.h"
#include "graft-py-ast.h"
#include "graft-py-parser.h"
#include "graft-py-program.h"
#include "graft-json.h"
#include "graft-program.h"
#include "graft-pattern.h"
#include "graft-matcher.h"
#include "graft-match-text.h"
#include "graft-rewriter.h"
#include "graft-rules.h"
#include "graft-rules-file.h"
#include "graft-pass.h"
#include "graft-extract.h"
#include "graft-dce.h"
#include "graft-diff.h"
#include "graft-scope.h"
#undef GRAFT_INSIDE
