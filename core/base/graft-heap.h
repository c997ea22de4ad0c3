/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-heap.h: the heap of a short-lived process laid out for huge pages.
 * The `graft` CLI calls it first thing; so do the bench programs that time
 * what the CLI does (bench-rewrite-phases), so that they measure on the
 * heap the CLI runs on.  The editor and graft-render do not: their heap
 * lives long and gives memory back.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include <glib.h>

/* GRAFT_SANITIZED: defined in AddressSanitizer builds, whose malloc is not
 * glibc's (no heap to lay out) and whose leak checks want every block
 * freed before exit (gcc says so by __SANITIZE_ADDRESS__, clang by
 * __has_feature). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GRAFT_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(GRAFT_SANITIZED)
#define GRAFT_SANITIZED 1
#endif

G_BEGIN_DECLS

gboolean graft_heap_prepare_huge_pages (void);

G_END_DECLS
