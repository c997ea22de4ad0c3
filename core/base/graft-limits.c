/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-limits.c: in a fuzzing build only (-Dfuzzing=true), the limits of
 * graft-limits.h that a libFuzzer target may lower.  Anything else (the
 * replay of the saved inputs, the suites) keeps the values of a normal
 * build.
 */
#include "config.h"

#include "graft-limits.h"

unsigned int graft_max_loop_steps = 10000000u;
unsigned int graft_max_while_passes = 100000u;
