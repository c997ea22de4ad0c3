/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * golden.h: the golden-file runner the core tests share.
 *
 * A suite is a folder of inputs: each file whose name matches the suite's
 * globs becomes one GTest case (or one per variant), registered under
 * SUITE-PATH/STEM[/VARIANT] in the order of the names.  The case function
 * computes Graft's outputs and hands each one to golden_case_check(), which
 * compares it with the expected file STEM.SUFFIX.
 *
 * Where a suite's expected files come from decides what
 * GRAFT_TEST_REGENERATE=1 may do with them:
 * - GOLDEN_FROM_GRAFT: Graft is the reference, and each file was checked by
 *   hand.  These are the `.errors` diagnostics, the code and listings of DOT
 *   imports (torch reads no DOT) and the rewrites where torch 1.13.1 fails
 *   (tests/data/rewrite-deviations).  With the switch set the runner
 *   rewrites them from Graft's output instead of comparing, and the diff is
 *   reviewed like code.
 * - GOLDEN_FROM_ORACLE: torch.fx's own outputs, written by the torch oracle
 *   (shared/tools/fx-reference, through tests/tools/regen-golden and
 *   regen-rewrite).  The switch never rewrites them, since that would make
 *   Graft's output torch's: they are compared as always.
 */
#pragma once

#include "graft.h"

G_BEGIN_DECLS

typedef enum {
  GOLDEN_FROM_ORACLE,
  GOLDEN_FROM_GRAFT,
} GoldenOrigin;

typedef enum {
  /* Byte for byte. */
  GOLDEN_EXACT,
  /* After Python's str.strip() plus one newline on both sides: the form in
   * which fx-reference writes its outputs. */
  GOLDEN_STRIPPED,
} GoldenCompare;

typedef struct _GoldenCase GoldenCase;

typedef void (*GoldenFunc) (const GoldenCase *gcase);

/* A suite to register; every field is borrowed for the call only. */
typedef struct
{
  const char        *test_path;    /* GTest path of the suite, e.g. "/golden/aten" */
  const char        *input_dir;    /* the folder scanned for inputs */
  const char        *expected_dir; /* the folder of the expected files; NULL: input_dir */
  const char *const *inputs;       /* globs of input file names, NULL-terminated */
  const char *const *skip;         /* globs of names that are helpers, not cases; or NULL */
  const char *const *variants;     /* one case per input and variant; or NULL: one per input */
  gboolean           per_dialect;  /* each case once per torch: STEM.SUFFIX for 1.13,
                                    * STEM.torch26.SUFFIX for 2.6 */
  GoldenOrigin  origin;
  GoldenCompare compare;
  GoldenFunc    func;
  /* Where one case's files come from, when it is not the same for all of
   * the suite (a case where one torch fails and the other succeeds); or
   * NULL: @origin for every case. */
  GoldenOrigin (*origin_of) (const char *stem, const GraftDialect *dialect);
  /* The ending cut off an input's name to give its stem, for inputs whose
   * names end in more than one extension (`.ep.txt`: `linear.ep.txt` is
   * `linear`); or NULL: the name without its last extension. */
  const char *input_suffix;
} GoldenSuite;

gboolean            golden_regenerating (void);
guint               golden_suite_add (const GoldenSuite *suite);
const char         *golden_case_get_input (const GoldenCase *gcase);
const char         *golden_case_get_input_name (const GoldenCase *gcase);
const char         *golden_case_get_input_dir (const GoldenCase *gcase);
const char         *golden_case_get_stem (const GoldenCase *gcase);
const char         *golden_case_get_variant (const GoldenCase *gcase);
const GraftDialect *golden_case_get_dialect (const GoldenCase *gcase);
char               *golden_expected_name (const char         *stem,
                                          const GraftDialect *dialect,
                                          const char         *suffix);
gboolean            golden_case_has_expected (const GoldenCase *gcase,
                                              const char       *suffix);
void                golden_case_check (const GoldenCase *gcase,
                                       const char       *suffix,
                                       const char       *got,
                                       gssize            got_len);

/* The options of a case's `.args` line (the CLI's, as the oracle got
 * them): those the rewrite and rules suites use. */
typedef struct
{
  char    *input;
  char    *entry;
  char    *pattern;
  char    *replacement;
  char    *rules;
  guint    fixpoint;
  gboolean dce;
  gboolean ignore_literals;
} GoldenArgs;

void golden_args_parse (const char *line,
                        GoldenArgs *args);
void golden_args_clear (GoldenArgs *args);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (GoldenArgs, golden_args_clear)

G_END_DECLS
