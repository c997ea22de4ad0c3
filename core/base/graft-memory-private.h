/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-memory-private.h: fresh memory faulted in ahead, in one call, where
 * an algorithm knows it is about to fill it (a rewrite's records, the
 * nodes it copies in, a search's matches).  Each page of fresh memory
 * costs a page fault at its first write; on the virtual machines Graft is
 * measured on a fault costs about 1.5 us, which made about 40% of a rewrite's
 * time, while the kernel fills a range of pages in one call for about 0.6
 * us a page (madvise's MADV_POPULATE_WRITE, Linux 5.14).  The contents do
 * not change: fresh pages read as zeros either way.
 */
#pragma once

#include <glib.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

G_BEGIN_DECLS

/* Below this many whole pages, the call costs about what it saves. */
#define GRAFT_PREFAULT_MIN_PAGES 4

/*
 * _graft_memory_prefault:
 * @mem: memory the caller owns and will write soon
 * @size: its size in bytes
 *
 * Faults in the whole pages of [@mem, @mem + @size) that are not in
 * memory yet.  Only advice: where the kernel cannot, nothing happens.
 */
static inline void
_graft_memory_prefault (gpointer mem,
                        gsize    size)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  const guintptr page = 4096;
  guintptr       start = ((guintptr) mem + page - 1) & ~(page - 1);
  guintptr       end = ((guintptr) mem + size) & ~(page - 1);

  if (end >= start + GRAFT_PREFAULT_MIN_PAGES * page)
    (void) madvise ((void *) start, end - start, MADV_POPULATE_WRITE);
#else
  (void) mem;
  (void) size;
#endif
}

G_END_DECLS
