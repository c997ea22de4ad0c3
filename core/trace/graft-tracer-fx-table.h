/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-fx-table.h: the arrays of one generated torch function
 * table, for graft-tracer-torch.c only.  That file includes this one once
 * per dialect with FX_FILE (the table, `"graft-fx-table-2.6.inc"`) and
 * FX_ID (a suffix for the names, `2_6`) defined, after it has declared the
 * row types (FxFunction, FxDispatch, FxConstant, FxMath); this defines
 * fx_pool_ID, fx_functions_ID, fx_dispatch_ID, fx_constants_ID and
 * fx_math_ID, and FX_TABLE (ID) lays them out as an FxTable.  No include
 * guard: it is meant to be read more than once.
 */
#ifndef FX_NAME
#define FX_NAME_CAT(name, id) name##id
#define FX_NAME(name, id)     FX_NAME_CAT (name, id)
#define FX_TABLE(id)                                                            \
  {                                                                             \
    FX_NAME (fx_pool_, id), FX_NAME (fx_functions_, id),                        \
        G_N_ELEMENTS (FX_NAME (fx_functions_, id)), FX_NAME (fx_dispatch_, id), \
        G_N_ELEMENTS (FX_NAME (fx_dispatch_, id)), FX_NAME (fx_constants_, id), \
        G_N_ELEMENTS (FX_NAME (fx_constants_, id)), FX_NAME (fx_math_, id),     \
        G_N_ELEMENTS (FX_NAME (fx_math_, id))                                   \
  }
#endif

/* The texts of every function, each once: the table's string pool. */
static const char FX_NAME (fx_pool_, FX_ID)[] =
#define GRAFT_FX_STRING_POOL
#include FX_FILE
#undef GRAFT_FX_STRING_POOL
    ;

static const FxFunction FX_NAME (fx_functions_, FX_ID)[] = {
#define GRAFT_FX_FUNCTION(path, kind, target, name, sig, pos, kw, code,       \
                          path_at, target_at, name_at, sig_at, pos_at, kw_at) \
  { path_at, FX_##kind, target_at, name_at, sig_at, pos_at, kw_at },
#include FX_FILE
#undef GRAFT_FX_FUNCTION
};

static const FxDispatch FX_NAME (fx_dispatch_, FX_ID)[] = {
#define GRAFT_FX_BOOLEAN_DISPATCH(path, flag, index, if_true) { path, flag, index, if_true },
#include FX_FILE
#undef GRAFT_FX_BOOLEAN_DISPATCH
};

static const FxConstant FX_NAME (fx_constants_, FX_ID)[] = {
#define GRAFT_FX_CONSTANT(path, kind, code, listing) { path, FX_##kind, code, listing },
#include FX_FILE
#undef GRAFT_FX_CONSTANT
};

static const FxMath FX_NAME (fx_math_, FX_ID)[] = {
#define GRAFT_FX_MATH(target, name) { target, name },
#include FX_FILE
#undef GRAFT_FX_MATH
};
