/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-heap.c: the heap laid out for transparent huge pages, for a
 * process that builds one large graph and exits (the `graft` CLI, and the
 * benches that time what it does).  It owns nothing but one never-used
 * block; it refuses sanitizer builds (their malloc is not glibc's) and runs
 * under MALLOC_PERTURB_ (where it would cost more than it saves).
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "graft-heap.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A graph of 10,000 nodes touches about 10 MB, and on the virtual machines
 * Graft is measured on a first touch of a 4 KiB page costs about ten
 * microseconds: page faults took more than half of `graft code`'s time.
 * Keeping the heap in one region (no trimming, no separate mappings for
 * mid-size blocks) and asking for transparent huge pages there makes one
 * fault out of 512.  The heap starts where the program's data ends, which
 * is not on a huge page boundary, and a huge page can only back a whole
 * aligned 2 MiB: the stretch below the first boundary is taken by a block
 * that is never used (nor touched, so it costs no memory), so that every
 * allocation lands in the aligned part. */
/* Never freed; volatile, or the compiler drops a malloc whose block is
 * never read. */
static void *volatile heap_filler;

/**
 * graft_heap_prepare_huge_pages:
 *
 * Lays the process's heap out for huge pages: blocks up to 1 GiB come
 * from the heap, which is never trimmed, and 512 MiB of it (address space
 * only until touched) is advised MADV_HUGEPAGE from its first 2 MiB
 * boundary.  Call it first thing, before anything large is allocated, and
 * once.  Memory freed stays with the process, so it suits a process that
 * exits after one piece of work, not the editor.
 *
 * Returns: %TRUE if the heap was laid out; %FALSE in sanitizer builds,
 *   under MALLOC_PERTURB_ or where the system has no huge pages
 */
gboolean
graft_heap_prepare_huge_pages (void)
{
#if !defined(GRAFT_SANITIZED) && defined(M_MMAP_THRESHOLD) && defined(MADV_HUGEPAGE)
  /* Address space only: nothing is touched until it is used.  A module of
   * 100,000 nodes uses about 100 MB; past the reserve, the heap grows in
   * 4 KiB pages again (64 MB here made 100,000 nodes take 255 ms rather
   * than 90). */
  const size_t reserve = 512u << 20, page = 2u << 20;
  const char  *tunables = g_getenv ("GLIBC_TUNABLES");
  char        *block;

  /* With MALLOC_PERTURB_ (which `meson test` sets) glibc fills every block
   * it hands out and takes back: the reserve would be 512 MiB written twice,
   * 1.4 s per run instead of nothing. */
  if (g_getenv ("MALLOC_PERTURB_") != NULL ||
      (tunables != NULL && strstr (tunables, "perturb") != NULL))
    return FALSE;

  /* Blocks up to 1 GiB come from the heap (the reserve among them, which
   * would otherwise be a mapping of its own, gone once freed). */
  mallopt (M_MMAP_THRESHOLD, 1024 << 20);
  mallopt (M_TRIM_THRESHOLD, 1024 << 20);
  block = malloc (reserve);
  if (block == NULL)
    return FALSE;

  char  *start = (char *) (((guintptr) block + page - 1) & ~(guintptr) (page - 1));
  size_t gap = start - block;

  madvise (start, reserve - gap - page, MADV_HUGEPAGE);
  free (block);
  /* The block merged back into the free top of the heap, so the next
   * allocation starts where it started: this one fills the gap. */
  if (gap > 64)
    heap_filler = malloc (gap - 32);
  return TRUE;
#else
  return FALSE;
#endif
}
