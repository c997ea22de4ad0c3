/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz-limits.c: linked into every libFuzzer target (not the replays):
 * lowers the tracer's loop bounds (core/base/graft-limits.h, variables in
 * a fuzzing build).  Under ASan and libFuzzer's comparison tracing a loop
 * pass costs 20-60 us on a loaded machine: the seeds that run a loop to
 * its bound (100,000 passes, in each dialect) took 5-25 s each, and so did
 * every mutant of them.  With these bounds they take milliseconds and
 * still end at the bound, through the same code.  The loop steps stay
 * above what the longest seed needs (golden/loop_range_counter.py,
 * 16,800 steps).
 */
#include "config.h"

#include "fuzz.h"
#include "graft.h"

int LLVMFuzzerInitialize (int    *argc,
                          char ***argv);

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  graft_max_while_passes = 1000;
  graft_max_loop_steps = 20000;
  return 0;
}
