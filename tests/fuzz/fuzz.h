/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz.h: what every fuzz target defines.  Built with libFuzzer
 * (`-Dfuzzing=true`, clang) each target is a fuzzer; built with driver.c
 * it replays saved inputs in the normal test suite.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);
