/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz.h: what every fuzz target defines.  Built with libFuzzer
 * (`-Dfuzzing=true`, clang) each target is a fuzzer; built with driver.c
 * it replays saved inputs in the normal test suite.
 */
#pragma once

#include <glib.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* A finding: abort(), which libFuzzer catches and saves the input for
 * (g_error() raises SIGTRAP, which it does not). */
#define fuzz_fail(...)        \
  G_STMT_START                \
  {                           \
    g_printerr (__VA_ARGS__); \
    g_printerr ("\n");        \
    abort ();                 \
  }                           \
  G_STMT_END

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);
