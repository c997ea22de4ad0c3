/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-signatures.h: the arrays of one generated table of torch's
 * argument-parser signatures, for graft-tracer-check.c only.  That file
 * includes this one once per dialect with SIG_FILE (the table,
 * `"graft-torch-signatures-2.6.inc"`) and SIG_ID (a suffix for the names,
 * `2_6`) defined, after it has declared the row types (Param, Signature,
 * Parser, SigFunction, Table); this defines sig_pool_ID, sig_params_ID,
 * sig_index_ID, sig_sigs_ID, sig_parsers_ID, sig_functions_ID and
 * sig_traits_ID, and SIG_TABLE (ID) lays them out as a Table.  No include
 * guard: it is meant to be read more than once.
 */
#ifndef SIG_NAME
#define SIG_NAME_CAT(name, id) name##id
#define SIG_NAME(name, id)     SIG_NAME_CAT (name, id)
#define SIG_TABLE(id)                                                                \
  {                                                                                  \
    SIG_NAME (sig_pool_, id), SIG_NAME (sig_params_, id), SIG_NAME (sig_index_, id), \
        SIG_NAME (sig_sigs_, id), SIG_NAME (sig_parsers_, id),                       \
        SIG_NAME (sig_functions_, id), G_N_ELEMENTS (SIG_NAME (sig_functions_, id)), \
        SIG_NAME (sig_traits_, id)                                                   \
  }
#endif

static const char SIG_NAME (sig_pool_, SIG_ID)[] =
#define GRAFT_SIG_STRING_POOL
#include SIG_FILE
#undef GRAFT_SIG_STRING_POOL
    ;
static const Param SIG_NAME (sig_params_, SIG_ID)[] = {
#define GRAFT_SIG_PARAM(name, cls, size, type_name, flags) { name, cls, size, type_name, flags },
#include SIG_FILE
#undef GRAFT_SIG_PARAM
};
static const guint16 SIG_NAME (sig_index_, SIG_ID)[] = {
#define GRAFT_SIG_INDEX
#include SIG_FILE
#undef GRAFT_SIG_INDEX
};
static const Signature SIG_NAME (sig_sigs_, SIG_ID)[] = {
#define GRAFT_SIG_SIGNATURE(first, n, flags, printed) { first, n, flags, printed },
#include SIG_FILE
#undef GRAFT_SIG_SIGNATURE
};
static const Parser SIG_NAME (sig_parsers_, SIG_ID)[] = {
#define GRAFT_SIG_PARSER(name, first, n, numbers) { name, first, n, numbers },
#include SIG_FILE
#undef GRAFT_SIG_PARSER
};
static const SigFunction SIG_NAME (sig_functions_, SIG_ID)[] = {
#define GRAFT_SIG_FUNCTION(path, parser) { path, parser },
#include SIG_FILE
#undef GRAFT_SIG_FUNCTION
};
static const gboolean SIG_NAME (sig_traits_, SIG_ID)[] = {
#define GRAFT_SIG_TRAIT(trait, value) [trait] = value,
#include SIG_FILE
#undef GRAFT_SIG_TRAIT
};
