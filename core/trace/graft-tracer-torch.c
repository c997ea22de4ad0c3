/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-torch.c: what torch, torch.nn, math and operator look like to
 * the tracer.  Which torch function records which node, with which
 * arguments, comes from graft-fx-table-X.Y.inc, a table generated from
 * each torch itself (tests/tools/gen-fx-table.py), the one of the
 * tracer's dialect (fx_table()): C builtins record their
 * arguments as written, Python-level functions (most of
 * torch.nn.functional) record a rearranged argument list with defaults
 * filled in, and a few are recorded as method calls.  torch.nn classes are
 * leaf modules (call_module), except the containers.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-error.h"
#include "graft-namespace.h"
#include "graft-py-parser.h"
#include "graft-py-program.h"
#include "graft-source.h"

#include <float.h>
#include <math.h>
#include <string.h>

typedef enum {
  FX_BUILTIN,
  FX_PYTHON,
  FX_METHOD,
  FX_NOT_TRACEABLE,
} FxKind;

/* A function of the table.  Its texts are offsets into fx_pool (read
 * them with FX_TEXT): in a position-independent program every pointer in a
 * table is a relocation at start-up, and as pointers the table's seven
 * thousand texts were most of `graft`'s relocations and the pages they
 * copy. */
typedef struct
{
  guint32 path;
  FxKind  kind;
  guint32 target;
  guint32 name;
  guint32 signature;
  guint32 positional;
  guint32 keywords;
} FxFunction;

typedef struct
{
  const char *path;
  const char *flag;
  guint       flag_index;
  const char *if_true;
} FxDispatch;

typedef enum {
  FX_DTYPE,
  FX_MEMORY_FORMAT,
  FX_LAYOUT,
  FX_FLOAT,
} FxConstKind;

typedef struct
{
  const char *path;
  FxConstKind kind;
  const char *code_repr;
  const char *listing_str;
} FxConstant;

typedef struct
{
  const char *target;
  const char *name;
} FxMath;

/* One generated table (graft-fx-table-X.Y.inc): the functions, sorted by
 * path, with their texts in pool; the boolean dispatchers; the constants;
 * math's functions. */
typedef struct
{
  const char       *pool;
  const FxFunction *functions;
  gsize             n_functions;
  const FxDispatch *dispatch;
  gsize             n_dispatch;
  const FxConstant *constants;
  gsize             n_constants;
  const FxMath     *math;
  gsize             n_math;
} FxTable;

#define FX_FILE "graft-fx-table-2.6.inc"
#define FX_ID   2_6
#include "graft-tracer-fx-table.h"
#undef FX_FILE
#undef FX_ID

#define FX_FILE "graft-fx-table-1.13.inc"
#define FX_ID   1_13
#include "graft-tracer-fx-table.h"
#undef FX_FILE
#undef FX_ID

/* What each torch's functions record: the table generated from it. */
static const FxTable fx_tables[GRAFT_N_TORCHES] = {
  [GRAFT_TORCH_2_6] = FX_TABLE (2_6),
  [GRAFT_TORCH_1_13] = FX_TABLE (1_13),
};

/* The table of the dialect @t traces in. */
static inline const FxTable *
fx_table (Tracer *t)
{
  return &fx_tables[t->dialect->torch];
}

#define FX_TEXT(table, offset) ((table)->pool + (offset))

/* The names of torch's modules (torch, torch.nn, torch.nn.functional...),
 * per torch (tests/tools/gen-torch-names.py writes them): a module's
 * names are a run of offsets into its table's pool, sorted by the texts
 * they point at.  Offsets, not pointers: nothing to relocate at start-up. */
typedef struct
{
  guint16 path;
  guint16 first;
  guint16 count;
} TorchNamesModule;

typedef struct
{
  const char             *pool;
  const TorchNamesModule *modules;
  gsize                   n_modules;
  const guint16          *names;
} TorchNames;

static const char torch_names_pool_2_6[] =
#define GRAFT_TORCH_NAMES_POOL
#include "graft-torch-names-2.6.inc"
#undef GRAFT_TORCH_NAMES_POOL
    ;

static const char torch_names_pool_1_13[] =
#define GRAFT_TORCH_NAMES_POOL
#include "graft-torch-names-1.13.inc"
#undef GRAFT_TORCH_NAMES_POOL
    ;

#define GRAFT_TORCH_NAMES_MODULE(path, path_at, first, count) { path_at, first, count },
static const TorchNamesModule torch_names_modules_2_6[] = {
#include "graft-torch-names-2.6.inc"
};
static const TorchNamesModule torch_names_modules_1_13[] = {
#include "graft-torch-names-1.13.inc"
};
#undef GRAFT_TORCH_NAMES_MODULE

#define GRAFT_TORCH_NAME(name, name_at) name_at,
static const guint16 torch_names_2_6[] = {
#include "graft-torch-names-2.6.inc"
};
static const guint16 torch_names_1_13[] = {
#include "graft-torch-names-1.13.inc"
};
#undef GRAFT_TORCH_NAME

static const TorchNames torch_names[GRAFT_N_TORCHES] = {
  [GRAFT_TORCH_2_6] = { torch_names_pool_2_6, torch_names_modules_2_6,
                        G_N_ELEMENTS (torch_names_modules_2_6), torch_names_2_6 },
  [GRAFT_TORCH_1_13] = { torch_names_pool_1_13, torch_names_modules_1_13,
                         G_N_ELEMENTS (torch_names_modules_1_13), torch_names_1_13 },
};

/* The row of @module in the names table of @t's dialect, or NULL. */
static const TorchNamesModule *
torch_names_module (Tracer     *t,
                    const char *module)
{
  const TorchNames *table = &torch_names[t->dialect->torch];
  gsize             mlo = 0, mhi = table->n_modules;

  if ((strncmp (module, "torch", 5) != 0 || (module[5] != '\0' && module[5] != '.')) &&
      strcmp (module, "operator") != 0)
    return NULL;
  /* The modules are sorted by path too. */
  while (mlo < mhi)
    {
      gsize mid = mlo + (mhi - mlo) / 2;
      int   cmp = strcmp (table->pool + table->modules[mid].path, module);

      if (cmp == 0)
        return &table->modules[mid];
      if (cmp < 0)
        mlo = mid + 1;
      else
        mhi = mid;
    }
  return NULL;
}

/**
 * _graft_tracer_module_listed:
 *
 * Whether the names table of @t's dialect lists @module's names
 * (`torch.nn.utils.rnn`, `operator`).
 */
gboolean
_graft_tracer_module_listed (Tracer     *t,
                             const char *module)
{
  return torch_names_module (t, module) != NULL;
}

/* Whether torch's @module, one of the table's, has no attribute @name in
 * the dialect of @t (`torch.nn` and `BatchNorm4d`; Python's operator and
 * `addd`).  %FALSE for a name it has and for a module the table does not
 * list. */
static gboolean
torch_names_lack (Tracer     *t,
                  const char *module,
                  const char *name)
{
  const TorchNames       *table = &torch_names[t->dialect->torch];
  const TorchNamesModule *row = torch_names_module (t, module);
  gsize                   lo, hi;

  if (row == NULL)
    return FALSE;
  lo = row->first;
  hi = (gsize) row->first + row->count;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      int   cmp = strcmp (table->pool + table->names[mid], name);

      if (cmp == 0)
        return FALSE;
      if (cmp < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return TRUE;
}

/* The submodules of the table's packages that are not attributes of
 * their package in the oracle's process until the program imports them:
 * `hasattr(torch.nn.utils, "prune")` is False, and `torch.fx.annotate` an
 * AttributeError, without `import torch.nn.utils.prune` or `from torch.fx
 * import annotate` before (gen-torch-names.py asks each torch); and which
 * of them importing another imports too. */
typedef struct
{
  const char *path;
  const char *other;
} ImportsToo;

#define GRAFT_TORCH_UNIMPORTED(path) path,
static const char *const unimported_2_6[] = {
#include "graft-torch-names-2.6.inc"
};
static const char *const unimported_1_13[] = {
#include "graft-torch-names-1.13.inc"
};
#undef GRAFT_TORCH_UNIMPORTED

#define GRAFT_TORCH_IMPORTS_TOO(path, other) { path, other },
static const ImportsToo imports_too_2_6[] = {
#include "graft-torch-names-2.6.inc"
};
static const ImportsToo imports_too_1_13[] = {
#include "graft-torch-names-1.13.inc"
};
#undef GRAFT_TORCH_IMPORTS_TOO

/**
 * _graft_tracer_note_import:
 * @path: a dotted module path an import statement named
 *
 * Notes that @path and its packages are imported: a submodule torch does
 * not import is an attribute of its package from then on.
 */
void
_graft_tracer_note_import (Tracer     *t,
                           const char *path)
{
  if (t->imported == NULL)
    {
      t->imported = g_hash_table_new (g_str_hash, g_str_equal);
      g_ptr_array_add (t->hash_tables, t->imported);
    }
  for (const char *dot = strchr (path, '.'); dot != NULL; dot = strchr (dot + 1, '.'))
    g_hash_table_add (t->imported, (gpointer) _graft_tracer_strdup (t, path, dot - path));
  g_hash_table_add (t->imported, (gpointer) _graft_tracer_strdup (t, path, -1));
  /* What those imports import in turn, among the list. */
  for (gsize i = 0; i < (t->dialect->torch == GRAFT_TORCH_1_13 ? G_N_ELEMENTS (imports_too_1_13)
                                                               : G_N_ELEMENTS (imports_too_2_6));
       i++)
    {
      const ImportsToo *too =
          t->dialect->torch == GRAFT_TORCH_1_13 ? &imports_too_1_13[i] : &imports_too_2_6[i];

      if (g_hash_table_contains (t->imported, too->path))
        g_hash_table_add (t->imported, (gpointer) too->other);
    }
}

/**
 * _graft_tracer_module_unimported:
 *
 * Whether `module.name` is a submodule that torch does not import by
 * itself (see unimported_2_6) and the program has not imported yet, so
 * that it is not an attribute of @module.
 */
gboolean
_graft_tracer_module_unimported (Tracer     *t,
                                 const char *module,
                                 const char *name)
{
  const char *const *list =
      t->dialect->torch == GRAFT_TORCH_1_13 ? unimported_1_13 : unimported_2_6;
  gsize n = t->dialect->torch == GRAFT_TORCH_1_13 ? G_N_ELEMENTS (unimported_1_13)
                                                  : G_N_ELEMENTS (unimported_2_6);
  gsize module_len = strlen (module);

  if (strncmp (module, "torch", 5) != 0)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (strncmp (list[i], module, module_len) == 0 && list[i][module_len] == '.' &&
        strcmp (list[i] + module_len + 1, name) == 0)
      {
        g_autofree char *path = g_strconcat (module, ".", name, NULL);

        return t->imported == NULL || !g_hash_table_contains (t->imported, path);
      }
  return FALSE;
}

/* The Python modules the tracer can import. */
static const char *const known_modules[] = {
  "torch",
  "torch.nn",
  "torch.nn.functional",
  "torch.functional",
  "torch._C",
  "torch._C._nn",
  "torch.linalg",
  "torch.special",
  "torch.fft",
  "torch.fx",
  "torch.fx._symbolic_trace",
  "torch.nn.init",
  "torch.nn.modules",
  "torch.nn.parameter",
  "torch.ops",
  "torch.utils",
  "torch.jit",
  "math",
  "operator",
  "typing",
  "collections",
  "functools",
  "numbers",
  "builtins",
  "torch.fx.annotate",
};

/* operator functions and the syntax they stand for. */
static const struct
{
  const char *name;
  int         kind; /* 0 binary, 1 unary, 2 compare, 3 getitem */
  int         op;
} operator_functions[] = {
  { "add", 0, GRAFT_PY_BIN_ADD },
  { "sub", 0, GRAFT_PY_BIN_SUB },
  { "mul", 0, GRAFT_PY_BIN_MUL },
  { "matmul", 0, GRAFT_PY_BIN_MATMUL },
  { "truediv", 0, GRAFT_PY_BIN_TRUEDIV },
  { "floordiv", 0, GRAFT_PY_BIN_FLOORDIV },
  { "mod", 0, GRAFT_PY_BIN_MOD },
  { "pow", 0, GRAFT_PY_BIN_POW },
  { "lshift", 0, GRAFT_PY_BIN_LSHIFT },
  { "rshift", 0, GRAFT_PY_BIN_RSHIFT },
  { "or_", 0, GRAFT_PY_BIN_BITOR },
  { "xor", 0, GRAFT_PY_BIN_BITXOR },
  { "and_", 0, GRAFT_PY_BIN_BITAND },
  { "neg", 1, GRAFT_PY_UNARY_NEG },
  { "pos", 1, GRAFT_PY_UNARY_POS },
  { "invert", 1, GRAFT_PY_UNARY_INVERT },
  { "not_", 1, GRAFT_PY_UNARY_NOT },
  { "eq", 2, GRAFT_PY_CMP_EQ },
  { "ne", 2, GRAFT_PY_CMP_NOT_EQ },
  { "lt", 2, GRAFT_PY_CMP_LT },
  { "le", 2, GRAFT_PY_CMP_LT_E },
  { "gt", 2, GRAFT_PY_CMP_GT },
  { "ge", 2, GRAFT_PY_CMP_GT_E },
  { "getitem", 3, 0 },
};

/* A table's lookups by name, built on first use (each table its own). */
typedef struct
{
  GHashTable *constants;      /* path -> FxConstant */
  GHashTable *math;           /* target -> FxMath */
  GHashTable *targets;        /* target -> FxFunction, where no path is that target */
  GHashTable *target_modules; /* the dotted prefixes of those targets */
} FxIndex;

static FxIndex fx_indexes[GRAFT_N_TORCHES];

static gpointer
build_indexes (gpointer data)
{
  const FxTable *table = data;
  FxIndex       *index = &fx_indexes[table - fx_tables];

  index->constants = g_hash_table_new (g_str_hash, g_str_equal);
  for (gsize i = 0; i < table->n_constants; i++)
    g_hash_table_insert (index->constants, (gpointer) table->constants[i].path,
                         (gpointer) &table->constants[i]);
  index->math = g_hash_table_new (g_str_hash, g_str_equal);
  for (gsize i = 0; i < table->n_math; i++)
    g_hash_table_insert (index->math, (gpointer) table->math[i].target,
                         (gpointer) &table->math[i]);
  return NULL;
}

/* @table's constants and math functions, by name. */
static const FxIndex *
ensure_indexes (const FxTable *table)
{
  static GOnce once[GRAFT_N_TORCHES] = { G_ONCE_INIT, G_ONCE_INIT };

  g_once (&once[table - fx_tables], build_indexes, (gpointer) table);
  return &fx_indexes[table - fx_tables];
}

/**
 * _graft_tracer_module_lacks:
 * @module: a dotted module path (`torch.nn`, `math`)
 *
 * Whether @module has no attribute @name in the dialect of @t: torch's
 * modules of the names table (`torch.nn` and `BatchNorm4d`), and Python's
 * math, whose functions and constants the function table lists (its
 * dunder names are let through).  %FALSE for a name it has and for a
 * module Graft does not list.
 */
gboolean
_graft_tracer_module_lacks (Tracer     *t,
                            const char *module,
                            const char *name)
{
  const FxIndex   *index;
  g_autofree char *path = NULL;

  if (strcmp (module, "math") != 0)
    return torch_names_lack (t, module, name);
  if (g_str_has_prefix (name, "__"))
    return FALSE;
  path = g_strconcat ("math.", name, NULL);
  index = ensure_indexes (fx_table (t));
  return !g_hash_table_contains (index->math, path) &&
         !g_hash_table_contains (index->constants, path);
}

/* The table is sorted by path (tests/test-fx-table.c checks it), so a
 * path is found by bisection, with nothing to build at start-up. */
static const FxFunction *
find_function (const FxTable *table,
               const char    *path)
{
  gsize lo = 0, hi = table->n_functions;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      int   cmp = strcmp (FX_TEXT (table, table->functions[mid].path), path);

      if (cmp == 0)
        return &table->functions[mid];
      if (cmp < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

/* Generated code names some functions by the target torch records, not
 * by a public path (`torch._C._special.special_expit` for
 * torch.special.expit, `torch.nn.functional._threshold` for
 * F.threshold); Graft reads back what it prints.  Built on the first
 * path the table does not hold. */
static gpointer
build_target_index (gpointer data)
{
  const FxTable *table = data;
  FxIndex       *index = &fx_indexes[table - fx_tables];

  index->targets = g_hash_table_new (g_str_hash, g_str_equal);
  index->target_modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (gsize i = 0; i < table->n_functions; i++)
    {
      const char *target = FX_TEXT (table, table->functions[i].target);

      if (*target == '\0' || find_function (table, target) != NULL ||
          g_hash_table_contains (index->targets, target))
        continue;
      g_hash_table_insert (index->targets, (gpointer) target, (gpointer) &table->functions[i]);
      for (const char *dot = strchr (target + strlen ("torch."), '.'); dot != NULL;
           dot = strchr (dot + 1, '.'))
        g_hash_table_add (index->target_modules, g_strndup (target, dot - target));
    }
  return NULL;
}

static const FxIndex *
ensure_target_index (const FxTable *table)
{
  static GOnce once[GRAFT_N_TORCHES] = { G_ONCE_INIT, G_ONCE_INIT };

  g_once (&once[table - fx_tables], build_target_index, (gpointer) table);
  return &fx_indexes[table - fx_tables];
}

/* Whether the torch function @path returns something other than a tensor
 * (a bool, an int, a dtype) when called with no traced value:
 * `torch.is_tensor(t)`, `torch.numel(t)`, `torch.equal(a, b)`,
 * `torch.result_type(a, b)`, `torch.is_grad_enabled()`. */
static gboolean
not_tensor (const char *path)
{
  static const char *const names[] = {
    "numel", "equal", "allclose", "result_type", "can_cast", "promote_types",
    "get_default_dtype", "get_num_threads", "get_num_interop_threads", "initial_seed", "seed",
    "typename", "get_device", "are_deterministic_algorithms_enabled",
    "get_deterministic_debug_mode", "get_float32_matmul_precision", "manual_seed",
    "use_deterministic_algorithms", "set_default_dtype", "set_grad_enabled", "set_num_threads",
    "set_printoptions", "dim", "size", "item", "tolist", NULL
  };
  const char *name = strrchr (path, '.');

  name = name != NULL ? name + 1 : path;
  return g_str_has_prefix (name, "is_") || g_str_has_prefix (name, "_is_") ||
         g_strv_contains (names, name);
}

/* A torch function called with no traced value runs eagerly: it makes a
 * constant tensor, unless its result is something else, which comes from
 * the data or state Graft does not have. */
static const Value *
callable_argument (const Value *v)
{
  if (v->kind == VAL_TUPLE || v->kind == VAL_LIST)
    {
      for (guint i = 0; i < v->seq.items->len; i++)
        {
          const Value *found = callable_argument (v->seq.items->pdata[i]);

          if (found != NULL)
            return found;
        }
      return NULL;
    }
  if ((v->kind == VAL_OBJECT && v->obj->kind != OBJ_PLAIN) || v->kind == VAL_PYMODULE ||
      v->kind == VAL_PATH_FN || v->kind == VAL_NN_CLASS || v->kind == VAL_FUNCTION ||
      v->kind == VAL_CLASS || v->kind == VAL_SELF_PATH || v->kind == VAL_BOUND ||
      (v->kind == VAL_BUILTIN && !_graft_value_is_class ((Value *) v)) || v->kind == VAL_METHOD ||
      v->kind == VAL_SUPER)
    return v;
  return NULL;
}

static Value *
constant_call (Tracer            *t,
               const char        *path,
               PtrVec            *args,
               StrMap            *kwargs,
               const GraftPyExpr *at)
{
  const Value *odd = NULL;

  /* A module, function or class among the arguments: no constant tensor
   * comes of it (torch raises a TypeError, or makes something else). */
  for (guint i = 0; odd == NULL && args != NULL && i < args->len; i++)
    odd = callable_argument (args->pdata[i]);
  for (guint i = 0; odd == NULL && kwargs != NULL && i < kwargs->values->len; i++)
    odd = callable_argument (kwargs->values->pdata[i]);
  if (odd != NULL)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "%s() is given a %s, which is no tensor or number; Graft does "
                               "not run it",
                               path, _graft_value_type_name ((Value *) odd));
  if (not_tensor (path))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "%s() runs eagerly on constants and gives no tensor; its result "
                               "depends on data Graft does not compute",
                               path);
  return _graft_tracer_factory_tensor (t, path, args, kwargs, at);
}

/* The function of @table at @path, or whose recorded target @path is. */
static const FxFunction *
find_function_or_target (const FxTable *table,
                         const char    *path)
{
  const FxFunction *fn = find_function (table, path);

  if (fn != NULL || !g_str_has_prefix (path, "torch."))
    return fn;
  return g_hash_table_lookup (ensure_target_index (table)->targets, path);
}

static gboolean
is_known_module (const char *path)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_modules); i++)
    if (strcmp (known_modules[i], path) == 0)
      return TRUE;
  return FALSE;
}

static const char *
last_component (const char *path)
{
  const char *dot = strrchr (path, '.');

  return dot != NULL ? dot + 1 : path;
}

/* torch.nn classes: everything capitalised directly under torch.nn (or
 * reached through torch.nn.modules.*), except the functional helpers. */
static gboolean
is_nn_class (const char *path)
{
  const char *name = last_component (path);

  const char *rest;

  if (!g_ascii_isupper (name[0]) || !g_str_has_prefix (path, "torch.nn."))
    return FALSE;
  rest = path + strlen ("torch.nn.");
  return g_str_has_prefix (rest, "modules.") || strchr (rest, '.') == NULL;
}

/**
 * _graft_tracer_torch_attr:
 * @path: a dotted path such as `torch.nn.functional.relu` or `math.pi`
 *
 * What the name at @path is: a module, a function, a class, a constant.
 */
Value *
_graft_tracer_torch_attr (Tracer            *t,
                          const char        *path,
                          const GraftPyExpr *at)
{
  const FxTable    *table = fx_table (t);
  const FxConstant *constant;
  Value            *v;

  if (is_known_module (path))
    return _graft_value_path (t, VAL_PYMODULE, path);
  /* torch.fx's exception class, as type() of one gives it. */
  if (strcmp (path, "torch.fx.proxy.TraceError") == 0)
    return _graft_value_path (t, VAL_TYPE, path);
  /* `from builtins import getattr`, `builtins.len(...)`: Python's own
   * builtins, as the bare names are (torch's generated code imports them
   * so). */
  if (g_str_has_prefix (path, "builtins.") &&
      (v = _graft_tracer_lookup_builtin (t, path + strlen ("builtins."))) != NULL)
    return v;
  constant = g_hash_table_lookup (ensure_indexes (table)->constants, path);
  if (constant != NULL)
    {
      if (constant->kind == FX_FLOAT)
        {
          double f = g_ascii_strtod (constant->code_repr, NULL);

          if (strcmp (constant->code_repr, "inf") == 0)
            f = INFINITY;
          else if (strcmp (constant->code_repr, "nan") == 0)
            {
              /* math.nan (torch.nan is the same object). */
              v = _graft_value_new (t, VAL_FLOAT);
              v->f = graft_arg_shared_nan ();
              return v;
            }
          return _graft_value_float (t, f);
        }
      return _graft_value_path (t, VAL_SYMBOL, constant->code_repr);
    }
  if (strcmp (path, "torch.Tensor") == 0 || strcmp (path, "torch.Size") == 0 ||
      g_str_has_prefix (path, "typing."))
    return _graft_value_path (t, VAL_TYPE, path);
  if (strcmp (path, "torch.nn.Parameter") == 0 ||
      strcmp (path, "torch.nn.parameter.Parameter") == 0)
    return _graft_value_path (t, VAL_PATH_FN, "torch.nn.Parameter");
  if (is_nn_class (path))
    {
      g_autofree char *canonical = g_strconcat ("torch.nn.", last_component (path), NULL);

      return _graft_value_path (t, VAL_NN_CLASS, canonical);
    }
  if (strcmp (path, "torch.fx._symbolic_trace.wrap") == 0)
    return _graft_value_path (t, VAL_PATH_FN, "torch.fx.wrap");
  if (g_str_has_prefix (path, "torch._") && find_function (table, path) == NULL)
    {
      if (g_hash_table_contains (ensure_target_index (table)->target_modules, path))
        return _graft_value_path (t, VAL_PYMODULE, path);
    }
  if (g_str_has_prefix (path, "torch.") || g_str_has_prefix (path, "math.") ||
      g_str_has_prefix (path, "operator.") || g_str_has_prefix (path, "collections.") ||
      g_str_has_prefix (path, "functools."))
    return _graft_value_path (t, VAL_PATH_FN, path);
  /* Another library: importing it is harmless; using it is reported. */
  v = _graft_value_path (t, strchr (path, '.') == NULL ? VAL_PYMODULE : VAL_PATH_FN, path);
  return v;
}

/* Signatures of torch's Python functions, parsed on first use with the
 * Python parser, defaults evaluated once per trace. */
/* One item of a recorded call's template: the value of a parameter slot
 * (spread when it is `*args`), or a constant; keyword items have a key. */
typedef struct
{
  const char *key;
  guint       slot;
  gboolean    spread;
  Value      *constant;
} TemplateItem;

typedef struct
{
  GraftPyModule          *module;
  const GraftPyArguments *params;
  Value                 **defaults;
  Value                 **kw_defaults;
  GArray                 *positional; /* TemplateItem, compiled once */
  GArray                 *keywords;
} Signature;

static Value *
eval_literal (Tracer            *t,
              const char        *text,
              const GraftPyExpr *at);

static guint slot_of (const GraftPyArguments *params, const char *name, gboolean *found);

/* Turns the table's template text (`input, kernel_size` and
 * `stride, padding, dim:axis, mode='nearest'`) into items, once. */
static gboolean
compile_template (Tracer            *t,
                  const FxFunction  *fn,
                  Signature         *sig,
                  const GraftPyExpr *at)
{
  g_auto (GStrv) positional = g_strsplit (FX_TEXT (fx_table (t), fn->positional), ",", -1);
  g_auto (GStrv) keywords = g_strsplit (FX_TEXT (fx_table (t), fn->keywords), ",", -1);

  sig->positional = g_array_new (FALSE, TRUE, sizeof (TemplateItem));
  sig->keywords = g_array_new (FALSE, TRUE, sizeof (TemplateItem));
  g_ptr_array_add (t->garrays, sig->positional);
  g_ptr_array_add (t->garrays, sig->keywords);
  for (guint pass = 0; pass < 2; pass++)
    {
      GStrv list = pass == 0 ? positional : keywords;

      for (guint i = 0; list[i] != NULL; i++)
        {
          char        *text = g_strstrip (list[i]);
          char        *eq = pass == 0 ? (text[0] == '=' ? text : NULL) : strchr (text, '=');
          char        *colon = pass == 1 ? strchr (text, ':') : NULL;
          TemplateItem item = { 0 };
          gboolean     found = TRUE;

          if (*text == '\0')
            continue;
          if (eq != NULL && (colon == NULL || eq < colon))
            {
              *eq = '\0';
              if (pass == 1)
                item.key = _graft_tracer_strdup (t, g_strstrip (text), -1);
              if (eq[1] == '?')
                found = FALSE;
              else if ((item.constant = eval_literal (t, eq + 1, at)) == NULL)
                return FALSE;
            }
          else if (*text == '?')
            found = FALSE;
          else
            {
              if (colon != NULL)
                *colon = '\0';
              if (pass == 1)
                item.key = _graft_tracer_strdup (t, g_strstrip (text), -1);
              item.spread = pass == 0 && *text == '*';
              item.slot =
                  slot_of (sig->params,
                           colon != NULL ? g_strstrip (colon + 1) : text + (item.spread ? 1 : 0),
                           &found);
            }
          if (!found)
            {
              _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                  "Graft does not know how torch.fx records %s",
                                  FX_TEXT (fx_table (t), fn->path));
              return FALSE;
            }
          g_array_append_val (pass == 0 ? sig->positional : sig->keywords, item);
        }
    }
  return TRUE;
}

static Signature *
get_signature (Tracer            *t,
               const FxFunction  *fn,
               const GraftPyExpr *at)
{
  Signature       *sig;
  g_autofree char *code = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GError) error = NULL;
  const GraftPyStmtList *body;
  guint                  n_pos;

  if (t->signatures == NULL)
    t->signatures = g_hash_table_new (NULL, NULL);
  sig = g_hash_table_lookup (t->signatures, fn);
  if (sig != NULL)
    return sig;

  code = g_strdup_printf ("def f(%s):\n    pass\n", FX_TEXT (fx_table (t), fn->signature));
  source = graft_source_new ("<torch signature>", code, -1);
  sig = _graft_tracer_alloc (t, sizeof (Signature));
  sig->module = graft_py_parse (source, &error);
  if (sig->module == NULL)
    {
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "the signature of %s in Graft's torch table is unreadable",
                          FX_TEXT (fx_table (t), fn->path));
      return NULL;
    }
  g_ptr_array_add (t->parsed, sig->module);
  body = graft_py_module_get_body (sig->module);
  sig->params = body->items[0]->function_def.args;
  n_pos = sig->params->n_posonly + sig->params->n_args;
  sig->defaults = _graft_tracer_alloc (t, sizeof (Value *) * (n_pos + 1));
  sig->kw_defaults = _graft_tracer_alloc (t, sizeof (Value *) * (sig->params->n_kwonly + 1));
  for (guint i = 0; i < n_pos; i++)
    {
      const GraftPyArg *p = i < sig->params->n_posonly
                                ? sig->params->posonly[i]
                                : sig->params->args[i - sig->params->n_posonly];

      if (p->default_value != NULL)
        {
          g_autofree char *text =
              g_strndup (graft_source_get_text (source) + p->default_value->start,
                         p->default_value->end - p->default_value->start);

          if ((sig->defaults[i] = eval_literal (t, text, at)) == NULL)
            return NULL;
        }
    }
  for (guint i = 0; i < sig->params->n_kwonly; i++)
    {
      const GraftPyArg *p = sig->params->kwonly[i];

      if (p->default_value != NULL)
        {
          g_autofree char *text =
              g_strndup (graft_source_get_text (source) + p->default_value->start,
                         p->default_value->end - p->default_value->start);

          if ((sig->kw_defaults[i] = eval_literal (t, text, at)) == NULL)
            return NULL;
        }
    }
  if (!compile_template (t, fn, sig, at))
    return NULL;
  g_hash_table_insert (t->signatures, (gpointer) fn, sig);
  t->n_kept++;
  return sig;
}

/* Evaluates a Python literal written in the table (`None`, `'fro'`,
 * `(1, 1)`, `torch.float32`, `-100`). */
static Value *
eval_literal (Tracer            *t,
              const char        *text,
              const GraftPyExpr *at)
{
  g_autofree char *code = g_strdup_printf ("(%s)\n", text);
  g_autoptr (GraftSource) source = graft_source_new ("<torch literal>", code, -1);
  g_autoptr (GError) error = NULL;
  GraftPyModule         *module = graft_py_parse (source, &error);
  const GraftPyStmtList *body;
  GError                *saved;
  Value                 *v;

  if (module == NULL)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "a value in Graft's torch table is unreadable: %s", text);
  g_ptr_array_add (t->parsed, module);
  body = graft_py_module_get_body (module);
  if (body->len != 1 || body->items[0]->kind != GRAFT_PY_STMT_EXPR)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "a value in Graft's torch table is unreadable: %s", text);
  /* Errors here are the table's, not the user's: report them at the call. */
  saved = t->error;
  t->error = NULL;
  v = _graft_tracer_eval_in_builtins (t, body->items[0]->expr.value);
  if (v == NULL)
    {
      g_clear_error (&t->error);
      t->error = saved;
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                 "a value in Graft's torch table cannot be evaluated: %s", text);
    }
  t->error = saved;
  return v;
}

static gboolean
any_proxy (PtrVec *args,
           StrMap *kwargs)
{
  /* Most arguments are traced values themselves. */
  for (guint i = 0; args != NULL && i < args->len; i++)
    if (_graft_value_is_proxy (args->pdata[i]) || _graft_value_holds_proxy (args->pdata[i]))
      return TRUE;
  for (guint i = 0; kwargs != NULL && kwargs->values != NULL && i < kwargs->values->len; i++)
    if (_graft_value_holds_proxy (kwargs->values->pdata[i]))
      return TRUE;
  return FALSE;
}

static guint
slot_of (const GraftPyArguments *params,
         const char             *name,
         gboolean               *found)
{
  guint n_pos = params->n_posonly + params->n_args;
  guint slot = 0;

  *found = TRUE;
  for (guint i = 0; i < n_pos; i++, slot++)
    if (strcmp ((i < params->n_posonly ? params->posonly[i] : params->args[i - params->n_posonly])
                    ->name,
                name) == 0)
      return slot;
  if (params->vararg != NULL)
    {
      if (strcmp (params->vararg->name, name) == 0)
        return slot;
      slot++;
    }
  for (guint i = 0; i < params->n_kwonly; i++, slot++)
    if (strcmp (params->kwonly[i]->name, name) == 0)
      return slot;
  if (params->kwarg != NULL && strcmp (params->kwarg->name, name) == 0)
    return slot;
  *found = FALSE;
  return 0;
}

/* Records a torch Python-level function: the call bound to its signature,
 * then laid out as the table's template says. */
static Value *
call_python_function (Tracer            *t,
                      const FxFunction  *fn,
                      PtrVec            *args,
                      StrMap            *kwargs,
                      const GraftPyExpr *at)
{
  Signature *sig = get_signature (t, fn, at);
  ArenaMark  mark = _graft_tracer_mark (t);
  Value    **bound;
  PtrVec    *rec_args;
  StrMap    *rec_kwargs;

  if (sig == NULL)
    return NULL;
  /* From here on, the binding and the node's arguments are scratch. */
  bound = _graft_tracer_bind (t, last_component (FX_TEXT (fx_table (t), fn->path)), sig->params,
                              sig->defaults, sig->kw_defaults, args, kwargs, at);
  if (bound == NULL)
    return NULL;
  if (!any_proxy (args, kwargs))
    {
      /* torch.einsum() of constant tensors: graft-tracer-tensor-functions.c. */
      Value *made = _graft_tracer_function_tensor (t, FX_TEXT (fx_table (t), fn->path), args,
                                                   kwargs, at);

      if (made == NULL && t->error != NULL)
        return NULL;
      return made != NULL ? made : _graft_value_tensor (t);
    }

  rec_args = _graft_tracer_vec (t);
  rec_kwargs = _graft_tracer_alloc (t, sizeof (StrMap));
  _graft_strmap_init (t, rec_kwargs);
  for (guint i = 0; i < sig->positional->len; i++)
    {
      TemplateItem *item = &g_array_index (sig->positional, TemplateItem, i);

      if (item->constant != NULL)
        _graft_vec_add (rec_args, item->constant);
      else if (item->spread)
        {
          Value *rest = bound[item->slot];

          for (guint k = 0; k < rest->seq.items->len; k++)
            _graft_vec_add (rec_args, rest->seq.items->pdata[k]);
        }
      else
        _graft_vec_add (rec_args, bound[item->slot]);
    }
  for (guint i = 0; i < sig->keywords->len; i++)
    {
      TemplateItem *item = &g_array_index (sig->keywords, TemplateItem, i);

      _graft_strmap_set (rec_kwargs, item->key,
                         item->constant != NULL ? item->constant : bound[item->slot]);
    }
  return _graft_tracer_make_node_from (t, mark, GRAFT_OP_CALL_FUNCTION,
                                       FX_TEXT (fx_table (t), fn->target), rec_args, rec_kwargs,
                                       FX_TEXT (fx_table (t), fn->name), at);
}

/* `torch.ops.aten.add.Tensor`: the node is named after the op and its
 * overload (`add.Tensor` snake-cased, then sanitised: `add_tensor`). */
static Value *
call_op_overload (Tracer            *t,
                  const char        *path,
                  PtrVec            *args,
                  StrMap            *kwargs,
                  const GraftPyExpr *at)
{
  g_auto (GStrv) parts = g_strsplit (path, ".", -1);
  guint            n = g_strv_length (parts);
  g_autofree char *name = NULL;
  g_autofree char *base = NULL;

  /* An OpOverload's own attribute (`.decompose`, `.py_impl`) is never an
   * operator: see graft-tracer-module.c's op_overload_getattr(). */
  if (n < 4 || n > 5)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "%s is not an operator", path);
  if (!any_proxy (args, kwargs))
    {
      /* Called with constants, the operator runs: torch's schema matching
       * judges the arguments first. */
      OpPacket packet;
      int      row;

      if (n == 5 && (row = _graft_tracer_op_overload_row (t, path)) >= 0 &&
          !_graft_tracer_op_check_call (t, (guint) row, args, kwargs, at))
        return NULL;
      if (n == 4 && strcmp (parts[2], "aten") == 0 &&
          _graft_tracer_op_packet_find (t, parts[3], strlen (parts[3]), &packet) &&
          !_graft_tracer_op_check_packet_call (t, &packet, args, kwargs, at))
        return NULL;
      return _graft_value_tensor (t);
    }
  base = n >= 5 ? g_strdup_printf ("%s.%s", parts[3], parts[4]) : g_strdup (parts[3]);
  name = graft_snake_case (base, t->dialect);
  return _graft_tracer_make_node (t, GRAFT_OP_CALL_FUNCTION, path, args, kwargs, name, at);
}

static gboolean
number_arg (Value  *v,
            double *out)
{
  if (v->kind == VAL_FLOAT)
    *out = v->f;
  else if (v->kind == VAL_INT)
    *out = (double) v->i;
  else if (v->kind == VAL_BOOL)
    *out = v->b;
  else
    return FALSE;
  return TRUE;
}

/* math.* on constants, folded as Python folds them. */
/* math.fsum: CPython's algorithm (Shewchuk's exact partial sums, then
 * the correction that makes the last rounding half-even). */
static Value *
fold_fsum (Tracer            *t,
           Value             *iterable,
           const GraftPyExpr *at)
{
  Value *items = _graft_tracer_iterate (t, iterable, at);
  g_autoptr (GArray) partials = NULL;
  double  special = 0.0, inf_sum = 0.0, hi = 0.0, lo = 0.0;
  double *p;
  guint   n = 0;

  if (items == NULL)
    return NULL;
  partials = g_array_sized_new (FALSE, FALSE, sizeof (double), items->seq.items->len + 1);
  g_array_set_size (partials, items->seq.items->len + 1);
  p = (double *) partials->data;
  for (guint k = 0; k < items->seq.items->len; k++)
    {
      double x, xsave;
      guint  i = 0;

      if (!number_arg (items->seq.items->pdata[k], &x))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: must be real number, not %s",
                                   _graft_value_type_name (items->seq.items->pdata[k]));
      xsave = x;
      for (guint j = 0; j < n; j++)
        {
          double y = p[j], sum, yr;

          if (fabs (x) < fabs (y))
            {
              double tmp = x;

              x = y;
              y = tmp;
            }
          sum = x + y;
          yr = sum - x;
          lo = y - yr;
          if (lo != 0.0)
            p[i++] = lo;
          x = sum;
        }
      n = i;
      if (x != 0.0)
        {
          if (!isfinite (x))
            {
              if (isfinite (xsave))
                return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                           "OverflowError: intermediate overflow in fsum");
              if (isinf (xsave))
                inf_sum += xsave;
              special += xsave;
              n = 0;
            }
          else
            p[n++] = x;
        }
    }
  if (special != 0.0)
    {
      if (isnan (inf_sum))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "ValueError: -inf + inf in fsum");
      return _graft_value_float (t, special);
    }
  if (n > 0)
    {
      hi = p[--n];
      while (n > 0)
        {
          double x = hi, y = p[--n], yr;

          hi = x + y;
          yr = hi - x;
          lo = y - yr;
          if (lo != 0.0)
            break;
        }
      if (n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0)))
        {
          double y = lo * 2.0, x = hi + y, yr = x - hi;

          if (y == yr)
            hi = x;
        }
    }
  return _graft_value_float (t, hi);
}

/* math.hypot(*coordinates): CPython 3.11's vector_norm, which rounds
 * better than the C library's hypot. */
static double
vector_norm (guint    n,
             double  *vec,
             double   max,
             gboolean found_nan)
{
  double scale, csum = 1.0, frac1 = 0.0, frac2 = 0.0, h, x, hi, lo, sum;
  int    max_e;

  if (isinf (max))
    return max;
  if (found_nan)
    return NAN;
  if (max == 0.0 || n <= 1)
    return max;
  frexp (max, &max_e);
  if (max_e < -1023)
    {
      for (guint i = 0; i < n; i++)
        vec[i] /= DBL_MIN;
      return DBL_MIN * vector_norm (n, vec, max / DBL_MIN, found_nan);
    }
  scale = ldexp (1.0, -max_e);
  for (guint i = 0; i < n; i++)
    {
      x = vec[i] * scale;
      hi = x * x;
      lo = fma (x, x, -hi);
      sum = csum + hi;
      frac2 += (csum - sum) + hi;
      csum = sum;
      frac1 += lo;
    }
  h = sqrt (csum - 1.0 + (frac1 + frac2));
  hi = -h * h;
  lo = fma (-h, h, -hi);
  sum = csum + hi;
  frac2 += (csum - sum) + hi;
  csum = sum;
  frac1 += lo;
  x = csum - 1.0 + (frac1 + frac2);
  h += x / (2.0 * h);
  return h / scale;
}

static Value *
fold_math (Tracer            *t,
           const char        *name,
           PtrVec            *args,
           const GraftPyExpr *at)
{
  double x = 0, y = 0;
  guint  n = args != NULL ? args->len : 0;

  if (strcmp (name, "fsum") == 0 && n == 1)
    return fold_fsum (t, args->pdata[0], at);
  if (strcmp (name, "prod") == 0 && n == 1)
    {
      /* `1 * a * b ...` as Python multiplies (ints stay exact). */
      Value *items = _graft_tracer_iterate (t, args->pdata[0], at);
      Value *acc = _graft_value_int (t, 1);

      for (guint i = 0; items != NULL && acc != NULL && i < items->seq.items->len; i++)
        acc = _graft_tracer_binop (t, GRAFT_PY_BIN_MUL, acc, items->seq.items->pdata[i], at);
      return items != NULL ? acc : NULL;
    }
  if (strcmp (name, "factorial") == 0 && n == 1)
    {
      Value *v = args->pdata[0];
      gint64 k, r = 1;

      if (v->kind != VAL_INT && v->kind != VAL_BOOL)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: 'float' object cannot be interpreted as an integer");
      k = v->kind == VAL_INT ? v->i : v->b;
      if (k < 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "ValueError: factorial() not defined for negative values");
      /* 20! is the last that fits 64 bits. */
      if (k > 20)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "integer overflow: Graft folds constants as 64-bit integers");
      for (gint64 i = 2; i <= k; i++)
        r *= i;
      return _graft_value_int (t, r);
    }
  if (strcmp (name, "hypot") == 0)
    {
      g_autofree double *vec = g_new0 (double, MAX (n, 1));
      double             max = 0.0;
      gboolean           found_nan = FALSE;

      for (guint i = 0; i < n; i++)
        {
          if (!number_arg (args->pdata[i], &vec[i]))
            goto bad;
          vec[i] = fabs (vec[i]);
          found_nan |= isnan (vec[i]);
          if (vec[i] > max)
            max = vec[i];
        }
      return _graft_value_float (t, vector_norm (n, vec, max, found_nan));
    }

  if (n >= 1 && !number_arg (args->pdata[0], &x))
    goto bad;
  if (n >= 2 && !number_arg (args->pdata[1], &y))
    goto bad;
  if (n == 1)
    {
      if (strcmp (name, "sqrt") == 0)
        {
          if (x < 0)
            return _graft_tracer_raise_text (t, "ValueError", "math domain error", at);
          return _graft_value_float (t, sqrt (x));
        }
      if (strcmp (name, "floor") == 0 || strcmp (name, "ceil") == 0 || strcmp (name, "trunc") == 0)
        {
          double r = name[0] == 'f' ? floor (x) : name[0] == 'c' ? ceil (x)
                                                                 : trunc (x);

          if (!isfinite (r) || fabs (r) >= 9.2e18)
            return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                       "cannot convert this float to an integer");
          return _graft_value_int (t, (gint64) r);
        }
      if (strcmp (name, "exp") == 0)
        return _graft_value_float (t, exp (x));
      if (strcmp (name, "log") == 0 || strcmp (name, "log2") == 0 || strcmp (name, "log10") == 0)
        {
          if (x <= 0)
            return _graft_tracer_raise_text (t, "ValueError", "math domain error", at);
          return _graft_value_float (t, strcmp (name, "log") == 0    ? log (x)
                                        : strcmp (name, "log2") == 0 ? log2 (x)
                                                                     : log10 (x));
        }
      if (strcmp (name, "sin") == 0)
        return _graft_value_float (t, sin (x));
      if (strcmp (name, "cos") == 0)
        return _graft_value_float (t, cos (x));
      if (strcmp (name, "tan") == 0)
        return _graft_value_float (t, tan (x));
      if (strcmp (name, "tanh") == 0)
        return _graft_value_float (t, tanh (x));
      if (strcmp (name, "fabs") == 0)
        return _graft_value_float (t, fabs (x));
      if (strcmp (name, "erf") == 0)
        return _graft_value_float (t, erf (x));
      if (strcmp (name, "isnan") == 0)
        return _graft_value_bool (isnan (x));
      if (strcmp (name, "isinf") == 0)
        return _graft_value_bool (isinf (x));
      if (strcmp (name, "isfinite") == 0)
        return _graft_value_bool (isfinite (x));
      if (strcmp (name, "degrees") == 0)
        return _graft_value_float (t, x * (180.0 / G_PI));
      if (strcmp (name, "radians") == 0)
        return _graft_value_float (t, x * (G_PI / 180.0));
    }
  if (n == 2)
    {
      if (strcmp (name, "pow") == 0)
        return _graft_value_float (t, pow (x, y));
      if (strcmp (name, "log") == 0 && x > 0 && y > 0 && y != 1)
        return _graft_value_float (t, log (x) / log (y));
      if (strcmp (name, "atan2") == 0)
        return _graft_value_float (t, atan2 (x, y));
      if (strcmp (name, "copysign") == 0)
        return _graft_value_float (t, copysign (x, y));
      if (strcmp (name, "gcd") == 0 && ((Value *) args->pdata[0])->kind == VAL_INT &&
          ((Value *) args->pdata[1])->kind == VAL_INT)
        {
          gint64 a = ABS (((Value *) args->pdata[0])->i), b = ABS (((Value *) args->pdata[1])->i);

          while (b != 0)
            {
              gint64 r = a % b;
              a = b;
              b = r;
            }
          return _graft_value_int (t, a);
        }
    }
bad:
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "math.%s() on these constants is not folded by Graft", name);
}

static Value *
make_device (Tracer            *t,
             PtrVec            *args,
             StrMap            *kwargs,
             const GraftPyExpr *at)
{
  Value *type = args != NULL && args->len > 0 ? args->pdata[0]
                : kwargs != NULL              ? _graft_strmap_get (kwargs, "type")
                                              : NULL;
  Value *index = args != NULL && args->len > 1 ? args->pdata[1]
                 : kwargs != NULL              ? _graft_strmap_get (kwargs, "index")
                                               : NULL;

  if (type == NULL || type->kind != VAL_STR)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "torch.device() expects a device string");
  if (index != NULL && index->kind == VAL_INT)
    return _graft_value_path (t, VAL_DEVICE,
                              _graft_tracer_printf (t, "%s:%" G_GINT64_FORMAT, type->str.s,
                                                    index->i));
  return _graft_value_path (t, VAL_DEVICE, type->str.s);
}

/* torch.finfo(dtype) and torch.iinfo(dtype): an object of the type's
 * limits, as torch gives them (the same in 1.13.1 and 2.6). */
static Value *
make_type_info (Tracer            *t,
                const char        *path,
                PtrVec            *args,
                StrMap            *kwargs,
                const GraftPyExpr *at)
{
  static const struct
  {
    const char *dtype;
    int         bits;
    double      eps, max, tiny, resolution;
  } floats[] = {
    { "float16", 16, 0.0009765625, 65504.0, 6.103515625e-05, 0.001 },
    { "bfloat16", 16, 0.0078125, 3.3895313892515355e+38, 1.1754943508222875e-38, 0.01 },
    { "float32", 32, 1.1920928955078125e-07, 3.4028234663852886e+38, 1.1754943508222875e-38,
      1e-06 },
    { "float64", 64, 2.220446049250313e-16, 1.7976931348623157e+308, 2.2250738585072014e-308,
      1e-15 },
  };
  static const struct
  {
    const char *dtype;
    int         bits;
    gint64      min, max;
  } ints[] = {
    { "uint8", 8, 0, 255 },
    { "int8", 8, -128, 127 },
    { "int16", 16, -32768, 32767 },
    { "int32", 32, G_MININT32, G_MAXINT32 },
    { "int64", 64, G_MININT64, G_MAXINT64 },
  };
  gboolean    is_float = strcmp (path, "torch.finfo") == 0;
  guint       n = args != NULL ? args->len : 0;
  Value      *type = n > 0 ? args->pdata[0] : kwargs != NULL ? _graft_strmap_get (kwargs, "type")
                                                             : NULL;
  const char *name;
  Value      *info;
  StrMap     *attrs;

  if (type == NULL && is_float && n == 0 && (kwargs == NULL || kwargs->keys->len == 0))
    type = _graft_value_path (t, VAL_SYMBOL, "torch.float32");
  if (type == NULL || n > 1 || type->kind != VAL_SYMBOL || !g_str_has_prefix (type->path, "torch."))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "TypeError: %s(): argument 'type' (position 1) must be "
                               "torch.dtype, not %s",
                               path + strlen ("torch."),
                               type != NULL && type->kind == VAL_ATTR_PROXY ? "Attribute"
                               : type != NULL && _graft_value_is_proxy (type)
                                   ? "Proxy"
                               : type != NULL ? _graft_value_type_name (type)
                                              : "nothing");
  name = type->path + strlen ("torch.");
  info = _graft_tracer_new_object (t, OBJ_PLAIN, path + strlen ("torch."));
  attrs = &info->obj->attrs;
  for (guint i = 0; is_float && i < G_N_ELEMENTS (floats); i++)
    if (strcmp (floats[i].dtype, name) == 0)
      {
        _graft_strmap_set (attrs, "bits", _graft_value_int (t, floats[i].bits));
        _graft_strmap_set (attrs, "eps", _graft_value_float (t, floats[i].eps));
        _graft_strmap_set (attrs, "max", _graft_value_float (t, floats[i].max));
        _graft_strmap_set (attrs, "min", _graft_value_float (t, -floats[i].max));
        _graft_strmap_set (attrs, "tiny", _graft_value_float (t, floats[i].tiny));
        _graft_strmap_set (attrs, "smallest_normal", _graft_value_float (t, floats[i].tiny));
        _graft_strmap_set (attrs, "resolution", _graft_value_float (t, floats[i].resolution));
        _graft_strmap_set (attrs, "dtype", _graft_value_str (t, name, -1));
        return info;
      }
  for (guint i = 0; !is_float && i < G_N_ELEMENTS (ints); i++)
    if (strcmp (ints[i].dtype, name) == 0)
      {
        _graft_strmap_set (attrs, "bits", _graft_value_int (t, ints[i].bits));
        _graft_strmap_set (attrs, "max", _graft_value_int (t, ints[i].max));
        _graft_strmap_set (attrs, "min", _graft_value_int (t, ints[i].min));
        _graft_strmap_set (attrs, "dtype", _graft_value_str (t, name, -1));
        return info;
      }
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "%s() of %s is not modelled by Graft's tracer", path, type->path);
}

/* What a called path is, looked up once per path and trace: calls of
 * torch functions are most of a model, and resolving a path took a hash
 * lookup in each table and a dozen string comparisons. */
typedef enum {
  PATH_TABLE,       /* math, or a function of the torch table (or unknown) */
  PATH_OP_OVERLOAD, /* torch.ops.* */
  PATH_OPERATOR,    /* operator.* */
  PATH_PARAMETER,   /* torch.nn.Parameter */
  PATH_ORDERED_DICT,
  PATH_DEVICE,
  PATH_WRAP,      /* torch.fx.wrap: gives its argument back */
  PATH_ANNOTATE,  /* torch.fx.annotate.annotate: sets a node's type */
  PATH_INIT,      /* torch.nn.init.*: gives its argument back */
  PATH_CONTEXT,   /* torch.no_grad and the like */
  PATH_TYPE_INFO, /* torch.finfo and torch.iinfo */
  PATH_NOT_JIT,   /* torch.jit.is_scripting(), is_tracing(): False under torch.fx */
} PathKind;

struct _ResolvedPath
{
  ResolvedHead      head; /* first: graft-tracer-eval.c reads it */
  const char       *text; /* a copy, which a hit is checked against */
  PathKind          kind;
  const FxMath     *math; /* for PATH_TABLE */
  const FxFunction *fn;
  const FxDispatch *dispatch;     /* the boolean dispatch entry for the path */
  gconstpointer     check_parser; /* @fn's argument parser (graft-tracer-check.c), or NULL */
  /* For a Python function of torch (FX_PYTHON): its signature, once
   * asked for, and whether the direct way can bind it
   * (python_direct_plain()): 0 not known yet, 1 yes, 2 no. */
  Signature *sig;
  guint      sig_plain;
  /* What _graft_tracer_call_path_direct() may do with it, set once
   * resolved: a function of the table with no math, no dispatch on a
   * flag, recorded as it is called (FX_BUILTIN) or bound as Python
   * (FX_PYTHON); or neither. */
  enum {
    DIRECT_NONE,
    DIRECT_BUILTIN,
    DIRECT_PYTHON,
  } direct;
};

static PathKind
path_kind (const char *path)
{
  static const struct
  {
    const char *path;
    PathKind    kind;
  } named[] = {
    { "torch.nn.Parameter", PATH_PARAMETER },
    { "collections.OrderedDict", PATH_ORDERED_DICT },
    { "torch.device", PATH_DEVICE },
    { "torch.fx.wrap", PATH_WRAP },
    { "torch.fx.annotate.annotate", PATH_ANNOTATE },
    { "torch.no_grad", PATH_CONTEXT },
    { "torch.enable_grad", PATH_CONTEXT },
    { "torch.inference_mode", PATH_CONTEXT },
    { "torch.autocast", PATH_CONTEXT },
    { "torch.finfo", PATH_TYPE_INFO },
    { "torch.iinfo", PATH_TYPE_INFO },
    { "torch.jit.is_scripting", PATH_NOT_JIT },
    { "torch.jit.is_tracing", PATH_NOT_JIT },
  };

  if (g_str_has_prefix (path, "torch.ops."))
    return PATH_OP_OVERLOAD;
  if (g_str_has_prefix (path, "operator."))
    return PATH_OPERATOR;
  if (g_str_has_prefix (path, "torch.nn.init."))
    return PATH_INIT;
  for (guint i = 0; i < G_N_ELEMENTS (named); i++)
    if (strcmp (path, named[i].path) == 0)
      return named[i].kind;
  return PATH_TABLE;
}

static ResolvedPath *
resolve_path (Tracer     *t,
              const char *path)
{
  ResolvedPath *r = g_hash_table_lookup (t->call_paths, path);

  /* Keyed by address: the same path value is called again and again.  The
   * text is compared too, in case a caller's buffer was reused. */
  if (r != NULL && strcmp (r->text, path) == 0)
    return r;
  r = _graft_tracer_alloc (t, sizeof (ResolvedPath));
  r->text = _graft_tracer_strdup (t, path, -1);
  r->kind = path_kind (path);
  if (r->kind == PATH_TABLE)
    {
      const FxTable *table = fx_table (t);

      r->math = g_hash_table_lookup (ensure_indexes (table)->math, path);
      r->fn = find_function_or_target (table, path);
      if (r->fn != NULL)
        r->check_parser = _graft_tracer_check_find (t, FX_TEXT (table, r->fn->path));
      for (gsize i = 0; i < table->n_dispatch; i++)
        if (strcmp (table->dispatch[i].path, path) == 0)
          {
            r->dispatch = &table->dispatch[i];
            break;
          }
    }
  if (r->kind == PATH_TABLE && r->math == NULL && r->fn != NULL && r->dispatch == NULL)
    r->direct = r->fn->kind == FX_BUILTIN  ? DIRECT_BUILTIN
                : r->fn->kind == FX_PYTHON ? DIRECT_PYTHON
                                           : DIRECT_NONE;
  if (r->direct == DIRECT_BUILTIN)
    {
      r->head.direct_target = FX_TEXT (fx_table (t), r->fn->target);
      r->head.direct_name = FX_TEXT (fx_table (t), r->fn->name);
    }
  g_hash_table_insert (t->call_paths, (gpointer) path, r);
  t->n_kept++;
  return r;
}

/* `annotate(val, type)`: a traced value's node takes the type (the code
 * then declares it: `size : int = x.size(0)`); anything else is given
 * back as it is. */
static Value *
annotate (Tracer            *t,
          PtrVec            *args,
          StrMap            *kwargs,
          const GraftPyExpr *at)
{
  Value      *val;
  GraftNode  *node;
  const char *type;

  if (args == NULL || args->len != 2 || (kwargs != NULL && kwargs->keys->len > 0))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "TypeError: annotate() takes 2 positional arguments");
  val = args->pdata[0];
  if (!_graft_value_is_proxy (val))
    return val;
  type = _graft_tracer_type_repr (t, args->pdata[1], at);
  if (type == NULL)
    return NULL;
  node = _graft_tracer_node_of (t, val);
  if (node == NULL)
    return NULL;
  if (graft_node_get_type_annotation (node) != NULL)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "RuntimeError: Tried to annotate a value that already had a type on "
                               "it! "
                               "Existing type is %s and new type is %s.",
                               graft_node_get_type_annotation (node), type);
  if (*type != '\0')
    graft_node_set_type_annotation (node, type);
  return val;
}

/* The argument check of @fn, the function @resolved names or another its
 * dispatch picked. */
static gboolean
check_call (Tracer             *t,
            const ResolvedPath *resolved,
            const FxFunction   *fn,
            PtrVec             *args,
            StrMap             *kwargs,
            const GraftPyExpr  *at)
{
  if (fn != resolved->fn)
    return _graft_tracer_check_call (t, FX_TEXT (fx_table (t), fn->path), args, kwargs, at);
  return _graft_tracer_check_parsed (t, resolved->check_parser, args, kwargs, at);
}

static Value *call_path (Tracer             *t,
                         const char         *path,
                         const ResolvedPath *resolved,
                         PtrVec             *args,
                         StrMap             *kwargs,
                         const GraftPyExpr  *at);

static gboolean check_parameter_new (Tracer            *t,
                                     PtrVec            *args,
                                     StrMap            *kwargs,
                                     const GraftPyExpr *at);

/**
 * _graft_tracer_call_path:
 * @path: the callee, a function of torch, math, operator...
 *
 * Calls a library function: records a node when a traced value takes part
 * (or runs it eagerly on constants).
 */
Value *
_graft_tracer_call_path (Tracer            *t,
                         const char        *path,
                         PtrVec            *args,
                         StrMap            *kwargs,
                         const GraftPyExpr *at)
{
  return call_path (t, path, NULL, args, kwargs, at);
}

/**
 * _graft_tracer_call_path_value:
 * @callee: a VAL_PATH_FN
 *
 * _graft_tracer_call_path() for @callee's path, which is resolved against
 * the tables on the first call only: `torch.neg` is one value wherever the
 * file names it (graft-tracer-eval.c's module_attr()).
 */
Value *
_graft_tracer_call_path_value (Tracer            *t,
                               Value             *callee,
                               PtrVec            *args,
                               StrMap            *kwargs,
                               const GraftPyExpr *at)
{
  if (callee->path_fn.resolved == NULL)
    callee->path_fn.resolved = resolve_path (t, callee->path);
  return call_path (t, callee->path, callee->path_fn.resolved, args, kwargs, at);
}

#define DIRECT_SLOTS 16

/* Whether call_python_direct() can bind @sig: no `*args` or `**kwargs`,
 * at most DIRECT_SLOTS parameters and template items, no spread and no
 * keyword twice in the template (as _graft_strmap_set() would keep one). */
static gboolean
python_direct_plain (const Signature *sig)
{
  const GraftPyArguments *params = sig->params;

  if (params->vararg != NULL || params->kwarg != NULL ||
      params->n_posonly + params->n_args + params->n_kwonly > DIRECT_SLOTS ||
      sig->positional->len > DIRECT_SLOTS || sig->keywords->len > DIRECT_SLOTS)
    return FALSE;
  for (guint i = 0; i < sig->positional->len; i++)
    if (g_array_index (sig->positional, TemplateItem, i).spread)
      return FALSE;
  for (guint i = 0; i < sig->keywords->len; i++)
    for (guint j = 0; j < i; j++)
      if (strcmp (g_array_index (sig->keywords, TemplateItem, i).key,
                  g_array_index (sig->keywords, TemplateItem, j).key) == 0)
        return FALSE;
  return TRUE;
}

/* call_python_function() for traced values @args and @kwargs (none
 * repeated, and no index needed: a map on the stack), when the binding takes no
 * error: the values bound as bind_arguments() binds them, on the stack,
 * and the template laid out without a map.  %NULL with *@out_handled
 * %FALSE and nothing done when the binding would fail (the usual way then
 * says why) or @r's signature is not plain; %NULL with the tracer's error
 * set when the signature cannot be read, as the usual way would. */
static Value *
call_python_direct (Tracer            *t,
                    ResolvedPath      *r,
                    PtrVec            *args,
                    StrMap            *kwargs,
                    const GraftPyExpr *at,
                    gboolean          *out_handled)
{
  guint                   n_kw = kwargs != NULL ? kwargs->keys->len : 0;
  const char *const      *keys = n_kw > 0 ? (const char *const *) kwargs->keys->pdata : NULL;
  Value *const           *kw_values = n_kw > 0 ? (Value *const *) kwargs->values->pdata : NULL;
  Signature              *sig = r->sig;
  const GraftPyArguments *params;
  const FxTable          *table = fx_table (t);
  Value                  *bound[DIRECT_SLOTS] = { NULL };
  gpointer                argv[DIRECT_SLOTS], keyv[DIRECT_SLOTS], valuev[DIRECT_SLOTS];
  PtrVec                  rec_args = { argv, 0, DIRECT_SLOTS, t };
  PtrVec                  rec_keys = { keyv, 0, DIRECT_SLOTS, t };
  PtrVec                  rec_values = { valuev, 0, DIRECT_SLOTS, t };
  StrMap                  rec_kwargs = { .tracer = t, .keys = &rec_keys, .values = &rec_values };
  guint                   n_pos;

  if (sig == NULL)
    {
      *out_handled = TRUE;
      sig = r->sig = get_signature (t, r->fn, at);
      if (sig == NULL)
        return NULL;
      r->sig_plain = python_direct_plain (sig) ? 1 : 2;
    }
  *out_handled = FALSE;
  if (r->sig_plain != 1)
    return NULL;
  params = sig->params;
  n_pos = params->n_posonly + params->n_args;
  if (args->len > n_pos)
    return NULL;
  for (guint i = 0; i < args->len; i++)
    bound[i] = args->pdata[i];
  for (guint k = 0; k < n_kw; k++)
    {
      guint i;

      for (i = params->n_posonly; i < n_pos; i++)
        if (strcmp (params->args[i - params->n_posonly]->name, keys[k]) == 0)
          break;
      if (i == n_pos)
        {
          for (i = 0; i < params->n_kwonly; i++)
            if (strcmp (params->kwonly[i]->name, keys[k]) == 0)
              break;
          if (i == params->n_kwonly)
            return NULL;
          i += n_pos;
        }
      if (bound[i] != NULL)
        return NULL;
      bound[i] = kw_values[k];
    }
  for (guint i = 0; i < n_pos; i++)
    if (bound[i] == NULL && (bound[i] = sig->defaults[i]) == NULL)
      return NULL;
  for (guint i = 0; i < params->n_kwonly; i++)
    if (bound[n_pos + i] == NULL && (bound[n_pos + i] = sig->kw_defaults[i]) == NULL)
      return NULL;
  *out_handled = TRUE;

  for (guint i = 0; i < sig->positional->len; i++)
    {
      TemplateItem *item = &g_array_index (sig->positional, TemplateItem, i);

      argv[rec_args.len++] = item->constant != NULL ? item->constant : bound[item->slot];
    }
  for (guint i = 0; i < sig->keywords->len; i++)
    {
      TemplateItem *item = &g_array_index (sig->keywords, TemplateItem, i);

      keyv[rec_keys.len++] = (gpointer) item->key;
      valuev[rec_values.len++] = item->constant != NULL ? item->constant : bound[item->slot];
    }
  t->static_text = TRUE; /* the table's text */
  return _graft_tracer_make_node (t, GRAFT_OP_CALL_FUNCTION, FX_TEXT (table, r->fn->target),
                                  &rec_args, &rec_kwargs, FX_TEXT (table, r->fn->name), at);
}

/**
 * _graft_tracer_path_takes_keywords:
 * @callee: a VAL_PATH_FN
 *
 * Whether @callee is a function of torch that
 * _graft_tracer_call_path_direct() may take with keywords (resolving its
 * path if need be, which has no other effect): asked before the
 * keywords are evaluated, so that a call it would not take is not
 * evaluated twice.
 */
gboolean
_graft_tracer_path_takes_keywords (Tracer *t,
                                   Value  *callee)
{
  ResolvedPath *r = callee->path_fn.resolved;

  if (r == NULL)
    r = callee->path_fn.resolved = resolve_path (t, callee->path);
  return r->kind == PATH_TABLE && r->math == NULL && r->fn != NULL && r->dispatch == NULL &&
         ((r->fn->kind == FX_PYTHON && r->sig_plain != 2) || r->fn->kind == FX_BUILTIN);
}

/**
 * _graft_tracer_call_path_direct:
 * @callee: a VAL_PATH_FN
 * @args: one to 15 values, each a traced value (VAL_PROXY), a list of
 *   traced values or a plain number (None, a bool, an int, a float); no
 *   keywords
 * @proxies: whether all of @args are traced values
 * @kwargs: (nullable): keywords, none repeated, each a traced value or a
 *   plain number: a map on the stack, its keys and values read in order
 *   and looked up (stamp 0: no absence or position kept for it)
 * @out_handled: (out): whether the call was made here
 *
 * _graft_tracer_call_path_value() for the commonest call of a forward,
 * `torch.neg(x)`: a function of the table that records one node as it is
 * called.  Its argument check, once passed for as many traced values
 * alone, or one list of as many, is not done again.  A Python function of
 * torch (`F.relu(x)`, `F.softmax(x, dim=1)`) called with traced values is
 * bound and laid out by its template without maps (call_python_direct()).
 * Any other function (math, operator, a dispatch on a flag...) is left to
 * the usual way: *@out_handled is then %FALSE and nothing was done.
 *
 * Returns: (nullable): the proxy, or %NULL with the tracer's error set
 *   (or nothing handled)
 */
Value *
_graft_tracer_call_path_direct (Tracer            *t,
                                Value             *callee,
                                PtrVec            *args,
                                gboolean           proxies,
                                StrMap            *kwargs,
                                const GraftPyExpr *at,
                                gboolean          *out_handled)
{
  ResolvedPath  *r = callee->path_fn.resolved;
  const FxTable *table;
  guint         *passed = NULL, bit = 0;
  gboolean       traced = FALSE;

  *out_handled = FALSE;
  if (args->len == 0 || args->len > 15)
    return NULL;
  /* (Traced values alone are traced.) */
  traced = proxies;
  for (guint i = 0; i < args->len && !traced; i++)
    traced = ((Value *) args->pdata[i])->kind == VAL_PROXY ||
             ((Value *) args->pdata[i])->kind == VAL_LIST;
  if (!traced)
    return NULL;
  if (r == NULL)
    r = callee->path_fn.resolved = resolve_path (t, callee->path);
  if (r->direct != DIRECT_BUILTIN)
    {
      if (r->direct == DIRECT_PYTHON && proxies)
        return call_python_direct (t, r, args, kwargs, at, out_handled);
      return NULL;
    }
  *out_handled = TRUE;
  if (kwargs != NULL)
    {
      /* (The check keeps its own verdicts by the arguments' kinds and the
       * keywords' names.) */
      if (!_graft_tracer_check_parsed (t, r->check_parser, args, kwargs, at))
        return NULL;
      table = fx_table (t);
      t->static_text = TRUE; /* the table's text */
      return _graft_tracer_make_node (t, GRAFT_OP_CALL_FUNCTION, FX_TEXT (table, r->fn->target),
                                      args, kwargs, FX_TEXT (table, r->fn->name), at);
    }
  if (proxies)
    {
      passed = &r->head.proxies_passed;
      bit = 1u << args->len;
    }
  else if (args->len == 1 && ((Value *) args->pdata[0])->kind == VAL_LIST &&
           ((Value *) args->pdata[0])->seq.items->len < 32)
    {
      passed = &r->head.lists_passed;
      bit = 1u << ((Value *) args->pdata[0])->seq.items->len;
    }
  if (passed == NULL || (*passed & bit) == 0)
    {
      if (!_graft_tracer_check_parsed (t, r->check_parser, args, NULL, at))
        return NULL;
      if (passed != NULL)
        *passed |= bit;
    }
  table = fx_table (t);
  t->static_text = TRUE; /* the table's text */
  return _graft_tracer_make_node (t, GRAFT_OP_CALL_FUNCTION, FX_TEXT (table, r->fn->target), args,
                                  NULL, FX_TEXT (table, r->fn->name), at);
}

/* @resolved: what resolve_path() gives for @path, or NULL to ask it. */
static Value *
call_path (Tracer             *t,
           const char         *path,
           const ResolvedPath *resolved,
           PtrVec             *args,
           StrMap             *kwargs,
           const GraftPyExpr  *at)
{
  const FxFunction *fn;
  const FxMath     *math_fn;
  const FxDispatch *dispatch;
  const FxTable    *table = fx_table (t);
  guint             n = args != NULL ? args->len : 0;

  /* einsum(equation, [a, b]) is einsum(equation, a, b): torch.functional
   * unpacks a single list of operands before it dispatches. */
  if (n == 2 &&
      (((Value *) args->pdata[1])->kind == VAL_LIST ||
       ((Value *) args->pdata[1])->kind == VAL_TUPLE) &&
      (strcmp (path, "torch.einsum") == 0 || strcmp (path, "torch.functional.einsum") == 0))
    {
      PtrVec *operands = ((Value *) args->pdata[1])->seq.items;
      PtrVec *flat = _graft_tracer_vec (t);

      _graft_vec_add (flat, args->pdata[0]);
      for (guint i = 0; i < operands->len; i++)
        _graft_vec_add (flat, operands->pdata[i]);
      args = flat;
      n = flat->len;
    }

  if (resolved == NULL)
    resolved = resolve_path (t, path);
  math_fn = resolved->math;
  fn = resolved->fn;
  dispatch = resolved->dispatch;
  switch (resolved->kind)
    {
    case PATH_OP_OVERLOAD:
      return call_op_overload (t, path, args, kwargs, at);
    case PATH_OPERATOR:
      {
        const char *name = path + strlen ("operator.");

        /* operator.abs is abs() (recorded by torch 2.6 only). */
        if (strcmp (name, "abs") == 0)
          return _graft_tracer_call_builtin (t, "abs", args, kwargs, at);
        for (guint i = 0; i < G_N_ELEMENTS (operator_functions); i++)
          if (strcmp (operator_functions[i].name, name) == 0)
            {
              int kind = operator_functions[i].kind;

              if (n != (kind == 1 ? 1u : 2u))
                return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                           "%s() takes %d argument%s", path, kind == 1 ? 1 : 2,
                                           kind == 1 ? "" : "s");
              if (kind == 0)
                return _graft_tracer_binop (t, operator_functions[i].op, args->pdata[0],
                                            args->pdata[1], at);
              if (kind == 1)
                return _graft_tracer_unary (t, operator_functions[i].op, args->pdata[0], at);
              if (kind == 2)
                return _graft_tracer_compare (t, operator_functions[i].op, args->pdata[0],
                                              args->pdata[1], at);
              return _graft_tracer_subscript (t, args->pdata[0], args->pdata[1], at);
            }
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "%s is not supported", path);
      }
    case PATH_PARAMETER:
      {
        Value *v = _graft_value_new (t, VAL_PARAMETER);

        if (any_proxy (args, kwargs))
          return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                     "a parameter cannot be made from a traced value");
        if (!check_parameter_new (t, args, kwargs, at))
          return NULL;
        v->tensor.id = ++t->n_tensors;
        v->tensor.data = n > 0 ? args->pdata[0] : _graft_strmap_get (kwargs, "data");
        if (v->tensor.data != NULL && _graft_value_is_tensor (v->tensor.data))
          v->tensor.meta = v->tensor.data->tensor.meta;
        return v;
      }
    case PATH_ORDERED_DICT:
      {
        Value *d = _graft_tracer_call_builtin (t, "dict", args, kwargs, at);

        if (d != NULL && d->kind == VAL_DICT)
          d->dict.ordered = TRUE;
        return d;
      }
    case PATH_DEVICE:
      return make_device (t, args, kwargs, at);
    case PATH_TYPE_INFO:
      return make_type_info (t, path, args, kwargs, at);
    case PATH_NOT_JIT:
      if (n > 0 || (kwargs != NULL && kwargs->keys->len > 0))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: %s() takes 0 positional arguments but %u were "
                                   "given",
                                   strrchr (path, '.') + 1, n);
      return _graft_value_bool (FALSE);
    case PATH_WRAP:
    case PATH_INIT:
      return n > 0 ? args->pdata[0] : _graft_value_none ();
    case PATH_ANNOTATE:
      return annotate (t, args, kwargs, at);
    case PATH_CONTEXT:
      return _graft_value_path (t, VAL_BUILTIN, "__graft_context__");
    case PATH_TABLE:
    default:
      break;
    }

  if (math_fn != NULL)
    {
      if (!any_proxy (args, kwargs))
        return fold_math (t, math_fn->name, args, at);
      {
        Value *v = _graft_tracer_make_node (t, GRAFT_OP_CALL_FUNCTION, path, args, kwargs,
                                            math_fn->name, at);

        if (v != NULL)
          graft_node_set_is_wrapped (v->node, TRUE);
        return v;
      }
    }

  if (fn == NULL)
    {
      if (g_str_has_prefix (path, "torch."))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "%s is not a torch %s function that torch.fx can record",
                                   path, t->dialect->version);
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                 "%s comes from a library Graft does not model: only torch, math "
                                 "and operator can be called",
                                 path);
    }

  /* F.max_pool2d(..., return_indices=True) records another function. */
  /* The wrapper tests each of its flags (the table's lines for a path are
   * consecutive, torch.unique has two); a flag that names the function
   * itself only has to be a constant. */
  for (; dispatch != NULL && dispatch < table->dispatch + table->n_dispatch &&
         strcmp (dispatch->path, path) == 0;
       dispatch++)
    {
      Value *flag = kwargs != NULL ? _graft_strmap_get (kwargs, dispatch->flag) : NULL;

      if (flag == NULL && n > dispatch->flag_index)
        flag = args->pdata[dispatch->flag_index];
      if (flag != NULL && _graft_value_is_proxy (flag))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "%s cannot depend on a traced value (torch.fx: symbolically "
                                   "traced "
                                   "variables cannot be used as inputs to control flow)",
                                   dispatch->flag);
      if (flag != NULL && flag->kind == VAL_BOOL && flag->b &&
          strcmp (dispatch->if_true, path) != 0)
        {
          fn = find_function (table, dispatch->if_true);
          if (fn == NULL)
            return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                       "%s is missing from Graft's torch table", dispatch->if_true);
          break;
        }
    }

  switch (fn->kind)
    {
    case FX_BUILTIN:
      if (!check_call (t, resolved, fn, args, kwargs, at))
        return NULL;
      if (!any_proxy (args, kwargs))
        return constant_call (t, path, args, kwargs, at);
      t->static_text = TRUE; /* the table's text */
      return _graft_tracer_make_node (t, GRAFT_OP_CALL_FUNCTION, FX_TEXT (table, fn->target), args,
                                      kwargs, FX_TEXT (table, fn->name), at);
    case FX_PYTHON:
      return call_python_function (t, fn, args, kwargs, at);
    case FX_METHOD:
      /* A Python function whose body calls a method (F.sigmoid is
       * `input.sigmoid()`): its signature still decides what it takes. */
      if (FX_TEXT (table, fn->signature)[0] != '\0')
        {
          Signature *sig = get_signature (t, fn, at);

          if (sig == NULL ||
              _graft_tracer_bind (t, last_component (FX_TEXT (table, fn->path)), sig->params,
                                  sig->defaults, sig->kw_defaults, args, kwargs, at) == NULL)
            return NULL;
        }
      /* F.sigmoid(t) of a constant tensor: t.sigmoid(), followed as the
       * method is. */
      if (!any_proxy (args, kwargs) && !not_tensor (path) && args != NULL && args->len >= 1 &&
          (kwargs == NULL || kwargs->keys->len == 0) && _graft_value_is_tensor (args->pdata[0]))
        {
          PtrVec rest = *args;

          rest.pdata++;
          rest.len--;
          return _graft_tracer_tensor_method_result (t, args->pdata[0], FX_TEXT (table, fn->target),
                                                     &rest, NULL, at);
        }
      if (!any_proxy (args, kwargs))
        return not_tensor (path) ? constant_call (t, path, args, kwargs, at)
                                 : _graft_value_tensor (t);
      t->static_text = TRUE; /* the table's text */
      return _graft_tracer_make_node (t, GRAFT_OP_CALL_METHOD, FX_TEXT (table, fn->target), args,
                                      kwargs, FX_TEXT (table, fn->name), at);
    case FX_NOT_TRACEABLE:
    default:
      if (!check_call (t, resolved, fn, args, kwargs, at))
        return NULL;
      {
        /* The size factories need a size: torch.ones() is a TypeError. */
        static const char *const sized[] = { "torch.ones", "torch.zeros", "torch.empty",
                                             "torch.rand", "torch.randn" };

        for (guint i = 0; i < G_N_ELEMENTS (sized); i++)
          if (strcmp (path, sized[i]) == 0 && n == 0 &&
              (kwargs == NULL || _graft_strmap_get (kwargs, "size") == NULL))
            return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                       "TypeError: %s() received an invalid combination of "
                                       "arguments - got (), "
                                       "but expected a size",
                                       path + strlen ("torch."));
      }
      if (!any_proxy (args, kwargs))
        return constant_call (t, path, args, kwargs, at);
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                 "%s cannot be called with a traced value: torch.fx %s fails "
                                 "on it",
                                 path, t->dialect->version);
    }
}

/* A size of torch.ones() and such: ints, or one tuple or list of them. */
static Value *
factory_shape (Tracer *t,
               PtrVec *args,
               StrMap *kwargs)
{
  guint   n = args != NULL ? args->len : 0;
  Value  *size = kwargs != NULL ? _graft_strmap_get (kwargs, "size") : NULL;
  PtrVec *dims = args;
  Value  *out;
  gint64  numel = 1;

  if (size != NULL && n == 0)
    {
      if (size->kind != VAL_TUPLE && size->kind != VAL_LIST)
        return NULL;
      dims = size->seq.items;
    }
  else if (n == 1 && (((Value *) args->pdata[0])->kind == VAL_TUPLE ||
                      ((Value *) args->pdata[0])->kind == VAL_LIST))
    dims = ((Value *) args->pdata[0])->seq.items;
  else if (n == 0)
    return NULL;
  out = _graft_value_seq (t, VAL_TUPLE, dims->len);
  out->seq.size = TRUE;
  for (guint i = 0; i < dims->len; i++)
    {
      Value *d = dims->pdata[i];

      if (d->kind != VAL_INT || d->i < 0)
        return NULL;
      /* A shape of more elements than an int64 counts is torch's
       * RuntimeError for a storage too big, by the dtype's size: not
       * known here, so the shape is not either (numel() is refused, not
       * wrapped around). */
      if (__builtin_mul_overflow (numel, d->i, &numel))
        return NULL;
      _graft_value_seq_add (out, d);
    }
  return out;
}

/* The shape and dtype of torch.tensor(data): nested lists or tuples of one
 * depth each, of bools, ints or floats. */
static Value *
data_shape (Tracer      *t,
            Value       *data,
            const char **dtype)
{
  Value *out = _graft_value_seq (t, VAL_TUPLE, 2);
  Value *level = data;
  int    rank = 0; /* 3 float, 2 int, 1 bool */

  out->seq.size = TRUE;
  while (level->kind == VAL_LIST || level->kind == VAL_TUPLE)
    {
      _graft_value_seq_add (out, _graft_value_int (t, level->seq.items->len));
      if (level->seq.items->len == 0)
        return NULL;
      level = level->seq.items->pdata[0];
    }
  /* Every element at the same depth, every list of the same length. */
  {
    GPtrArray *todo = g_ptr_array_new ();
    guint      depth = out->seq.items->len;
    gboolean   ok = TRUE;

    g_ptr_array_add (todo, data);
    for (guint d = 0; d < depth && ok; d++)
      {
        GPtrArray *next = g_ptr_array_new ();
        gint64     len = ((Value *) out->seq.items->pdata[d])->i;

        for (guint k = 0; k < todo->len && ok; k++)
          {
            Value *v = todo->pdata[k];

            ok = (v->kind == VAL_LIST || v->kind == VAL_TUPLE) &&
                 (gint64) v->seq.items->len == len;
            for (guint j = 0; ok && j < v->seq.items->len; j++)
              g_ptr_array_add (next, v->seq.items->pdata[j]);
          }
        g_ptr_array_unref (todo);
        todo = next;
      }
    for (guint k = 0; k < todo->len && ok; k++)
      {
        Value *v = todo->pdata[k];

        if (v->kind == VAL_BOOL)
          rank = MAX (rank, 1);
        else if (v->kind == VAL_INT)
          rank = MAX (rank, 2);
        else if (v->kind == VAL_FLOAT)
          rank = 3;
        else
          ok = FALSE;
      }
    g_ptr_array_unref (todo);
    if (!ok)
      return NULL;
  }
  *dtype = rank == 3 ? "torch.float32" : rank == 2 ? "torch.int64"
                                                   : "torch.bool";
  return out;
}

/**
 * _graft_tracer_factory_tensor:
 * @path: the torch function that made the tensor, outside the trace
 *
 * A new constant tensor; what torch.ones(), zeros(), empty(), rand(),
 * randn() and tensor() make is known by its arguments: its shape, its dtype
 * (the default one, float32, unless `dtype=` says) and its device (the
 * CPU unless `device=` says another).  Nothing else is: its data.
 * Tensors whose sizes do not fit the op are torch's error, raised at @at
 * (graft-tracer-tensor-functions.c).
 *
 * Returns: (nullable): the tensor, or %NULL with the error raised
 */
Value *
_graft_tracer_factory_tensor (Tracer            *t,
                              const char        *path,
                              PtrVec            *args,
                              StrMap            *kwargs,
                              const GraftPyExpr *at)
{
  static const char *const sized[] = { "torch.ones", "torch.zeros", "torch.empty",
                                       "torch.rand", "torch.randn" };
  Value                   *v = _graft_value_tensor (t);
  Value                   *shape = NULL;
  const char              *dtype = "torch.float32";
  Value                   *kw_dtype = kwargs != NULL ? _graft_strmap_get (kwargs, "dtype") : NULL;
  Value                   *kw_device = kwargs != NULL ? _graft_strmap_get (kwargs, "device") : NULL;
  TensorMeta              *meta;
  Value                   *made;

  /* torch's parse of a device string (`device=""` is its RuntimeError),
   * the check layer constructors run (graft-tracer-module-checks.c); a
   * torch.device's type is checked as its string (`torch.device("cuda")`
   * makes no tensor either). */
  if (kw_device != NULL && (kw_device->kind == VAL_STR || kw_device->kind == VAL_DEVICE))
    {
      gpointer one[1] = { kw_device->kind == VAL_STR ? kw_device
                                                     : _graft_value_str (t, kw_device->path, -1) };
      PtrVec   device_args = { one, 1, 1, t };

      if (!_graft_tracer_check_nn_values (t, "_device", &device_args, NULL, at))
        return NULL;
    }
  if (strcmp (path, "torch.tensor") == 0)
    {
      if (args != NULL && args->len == 1)
        shape = data_shape (t, args->pdata[0], &dtype);
    }
  else if ((made = _graft_tracer_function_tensor (t, path, args, kwargs, at)) != NULL)
    return made; /* graft-tracer-tensor-functions.c */
  else if (t->error != NULL)
    return NULL; /* torch's error: sizes that do not fit */
  else
    for (guint i = 0; i < G_N_ELEMENTS (sized); i++)
      if (strcmp (path, sized[i]) == 0)
        shape = factory_shape (t, args, kwargs);
  if (shape == NULL)
    return v;
  if (kw_dtype != NULL && kw_dtype->kind == VAL_SYMBOL)
    dtype = kw_dtype->path;
  else if (kw_dtype != NULL && kw_dtype->kind != VAL_NONE)
    return v;
  if (kw_device != NULL && kw_device->kind != VAL_NONE &&
      !((kw_device->kind == VAL_STR && strcmp (kw_device->str.s, "cpu") == 0) ||
        (kw_device->kind == VAL_DEVICE && strcmp (kw_device->path, "cpu") == 0)))
    return v;
  meta = _graft_tracer_alloc (t, sizeof (TensorMeta));
  meta->shape = shape;
  meta->dtype = _graft_value_path (t, VAL_SYMBOL, dtype);
  meta->device = _graft_value_path (t, VAL_DEVICE, "cpu");
  v->tensor.meta = meta;
  return v;
}

/* Writes @v as Python if it is a plain value (None, a bool, an int, a
 * float, a string, a dtype and such, or a tuple or list of them). */
static gboolean
append_plain_value (GString     *out,
                    const Value *v)
{
  switch (v->kind)
    {
    case VAL_NONE:
      g_string_append (out, "None");
      return TRUE;
    case VAL_BOOL:
      g_string_append (out, v->b ? "True" : "False");
      return TRUE;
    case VAL_INT:
      if (_graft_value_is_bigint (v))
        return FALSE;
      graft_append_int (out, v->i);
      return TRUE;
    case VAL_FLOAT:
      if (!isfinite (v->f))
        return FALSE;
      graft_append_float_repr (out, v->f);
      return TRUE;
    case VAL_STR:
      graft_append_str_repr (out, v->str.s, v->str.len);
      return TRUE;
    case VAL_SYMBOL:
      if (!g_str_has_prefix (v->path, "torch."))
        return FALSE;
      g_string_append (out, v->path);
      return TRUE;
    case VAL_TUPLE:
    case VAL_LIST:
      if (v->kind == VAL_LIST && v->seq.range != NULL)
        return FALSE;
      g_string_append_c (out, v->kind == VAL_TUPLE ? '(' : '[');
      for (guint i = 0; i < v->seq.items->len; i++)
        {
          Tracer  *t = v->seq.items->tracer;
          gboolean ok;

          if (i > 0)
            g_string_append (out, ", ");
          /* (Too deep: the statement fails when it ends.) */
          if (!_graft_tracer_walk_enter (t))
            return FALSE;
          ok = append_plain_value (out, v->seq.items->pdata[i]);
          _graft_tracer_walk_leave (t);
          if (!ok)
            return FALSE;
        }
      if (v->kind == VAL_TUPLE && v->seq.items->len == 1)
        g_string_append_c (out, ',');
      g_string_append_c (out, v->kind == VAL_TUPLE ? ')' : ']');
      return TRUE;
    case VAL_COMPLEX:
    case VAL_ELLIPSIS:
    case VAL_DICT:
    case VAL_SLICE:
    case VAL_DEVICE:
    case VAL_PROXY:
    case VAL_ATTR_PROXY:
    case VAL_PYMODULE:
    case VAL_PATH_FN:
    case VAL_NN_CLASS:
    case VAL_FUNCTION:
    case VAL_CLASS:
    case VAL_OBJECT:
    case VAL_SELF_PATH:
    case VAL_BOUND:
    case VAL_BUILTIN:
    case VAL_METHOD:
    case VAL_TENSOR:
    case VAL_PARAMETER:
    case VAL_SUPER:
    case VAL_TYPE:
    case VAL_GENERIC:
    case VAL_SET:
    case VAL_ITER:
    default:
      return FALSE;
    }
}

/* `torch.nn.Conv2d(3, 64, kernel_size=7)`: the call that built a leaf, if
 * every argument is a plain value (what a pattern over modules can write
 * down again, graft_graph_get_module_constructor()); else %NULL. */
static const char *
constructor_text (Tracer     *t,
                  const char *path,
                  PtrVec     *args,
                  StrMap     *kwargs)
{
  g_autoptr (GString) out = g_string_new (path);

  g_string_append_c (out, '(');
  for (guint i = 0; args != NULL && i < args->len; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      if (!append_plain_value (out, args->pdata[i]))
        return NULL;
    }
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    {
      if (i > 0 || (args != NULL && args->len > 0))
        g_string_append (out, ", ");
      g_string_append_printf (out, "%s=", (const char *) kwargs->keys->pdata[i]);
      if (!append_plain_value (out, kwargs->values->pdata[i]))
        return NULL;
    }
  g_string_append_c (out, ')');
  return _graft_tracer_strdup (t, out->str, (gssize) out->len);
}

/* Orders positions of @keys (string values, or others last, as they
 * come) by their strings, as Python's sorted() orders str keys. */
static gint
compare_str_keys_cb (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  PtrVec      *keys = user_data;
  const Value *ka = keys->pdata[*(const guint *) a];
  const Value *kb = keys->pdata[*(const guint *) b];
  gint         c;

  if (ka->kind != VAL_STR || kb->kind != VAL_STR)
    return (ka->kind != VAL_STR) - (kb->kind != VAL_STR);
  c = memcmp (ka->str.s, kb->str.s, MIN (ka->str.len, kb->str.len));
  if (c != 0)
    return c;
  return (ka->str.len > kb->str.len) - (ka->str.len < kb->str.len);
}

/* The __init__ parameters of torch.nn's classes, per torch
 * (tests/tools/gen-nn-inits.py writes each table; sorted by strcmp). */
typedef struct
{
  const char *name;
  const char *qualname; /* the function Python's TypeError names */
  guint       implicit; /* leading positional arguments the class passes itself */
  const char *params;
} NnInit;

#define GRAFT_NN_INIT(name, qualname, implicit, params) { name, qualname, implicit, params },
static const NnInit nn_inits_2_6[] = {
#include "graft-nn-inits-2.6.inc"
};
static const NnInit nn_inits_1_13[] = {
#include "graft-nn-inits-1.13.inc"
};
#undef GRAFT_NN_INIT

/* Indexed by GraftTorch. */
static const struct
{
  const NnInit *rows;
  gsize         n;
} nn_inits[] = {
  [GRAFT_TORCH_2_6] = { nn_inits_2_6, G_N_ELEMENTS (nn_inits_2_6) },
  [GRAFT_TORCH_1_13] = { nn_inits_1_13, G_N_ELEMENTS (nn_inits_1_13) },
};

static int
nn_init_compare (const void *key,
                 const void *row)
{
  return strcmp (key, ((const NnInit *) row)->name);
}

/* Whether the arguments of `nn.NAME(...)` bind to the class's __init__,
 * as Python binds them: else Python's TypeError (`Linear.__init__()
 * missing 1 required positional argument: 'out_features'`, an inherited
 * one's `_MaxPoolNd.__init__() ...`) is set.  A class the table lacks
 * passes. */
static gboolean
bind_nn_row (Tracer            *t,
             const NnInit      *row,
             PtrVec            *args,
             StrMap            *kwargs,
             const GraftPyExpr *at)
{
  Signature *sig;
  PtrVec    *all;

  if (t->signatures == NULL)
    t->signatures = g_hash_table_new (NULL, NULL);
  sig = g_hash_table_lookup (t->signatures, row);
  if (sig == NULL)
    {
      g_autofree char *code = g_strdup_printf ("def f(%s):\n    pass\n", row->params);
      g_autoptr (GraftSource) source = graft_source_new ("<torch.nn signature>", code, -1);
      g_autoptr (GError) error = NULL;
      guint n_pos;

      sig = _graft_tracer_alloc (t, sizeof (Signature));
      sig->module = graft_py_parse (source, &error);
      if (sig->module == NULL)
        return TRUE;
      g_ptr_array_add (t->parsed, sig->module);
      sig->params = graft_py_module_get_body (sig->module)->items[0]->function_def.args;
      n_pos = sig->params->n_posonly + sig->params->n_args;
      /* Only whether a parameter has a default matters here. */
      sig->defaults = _graft_tracer_alloc (t, sizeof (Value *) * (n_pos + 1));
      sig->kw_defaults = _graft_tracer_alloc (t, sizeof (Value *) * (sig->params->n_kwonly + 1));
      for (guint i = 0; i < n_pos; i++)
        {
          const GraftPyArg *p = i < sig->params->n_posonly
                                    ? sig->params->posonly[i]
                                    : sig->params->args[i - sig->params->n_posonly];

          sig->defaults[i] = p->default_value != NULL ? _graft_value_none () : NULL;
        }
      for (guint i = 0; i < sig->params->n_kwonly; i++)
        sig->kw_defaults[i] =
            sig->params->kwonly[i]->default_value != NULL ? _graft_value_none () : NULL;
      g_hash_table_insert (t->signatures, (gpointer) row, sig);
      t->n_kept++;
    }
  /* self first, as Python counts it (and LSTM's mode, which it passes
   * to RNNBase.__init__). */
  all = _graft_tracer_vec_sized (t, row->implicit + (args != NULL ? args->len : 0));
  for (guint i = 0; i < row->implicit; i++)
    _graft_vec_add (all, _graft_value_none ());
  for (guint i = 0; args != NULL && i < args->len; i++)
    _graft_vec_add (all, args->pdata[i]);
  return _graft_tracer_bind (t, row->qualname, sig->params, sig->defaults, sig->kw_defaults, all,
                             kwargs, at) != NULL;
}

static gboolean
check_nn_init (Tracer            *t,
               const char        *name,
               PtrVec            *args,
               StrMap            *kwargs,
               const GraftPyExpr *at)
{
  const NnInit *row = bsearch (name, nn_inits[t->dialect->torch].rows,
                               nn_inits[t->dialect->torch].n, sizeof (NnInit), nn_init_compare);

  return row == NULL || bind_nn_row (t, row, args, kwargs, at);
}

/* Whether the arguments of `nn.Parameter(...)` bind to its __new__ (the
 * same in both torches). */
static gboolean
check_parameter_new (Tracer            *t,
                     PtrVec            *args,
                     StrMap            *kwargs,
                     const GraftPyExpr *at)
{
  static const NnInit parameter_new = { "Parameter", "Parameter.__new__", 1,
                                        "cls, data=None, requires_grad=None" };

  return bind_nn_row (t, &parameter_new, args, kwargs, at);
}

/**
 * _graft_tracer_new_nn:
 * @path: `torch.nn.Conv2d`, `torch.nn.Sequential`, ...
 *
 * Instantiates a torch.nn class: a container, or a leaf module.
 */
Value *
_graft_tracer_new_nn (Tracer            *t,
                      const char        *path,
                      PtrVec            *args,
                      StrMap            *kwargs,
                      const GraftPyExpr *at)
{
  const char *name = last_component (path);
  guint       n = args != NULL ? args->len : 0;
  Value      *v;

  if (any_proxy (args, kwargs))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "a module cannot be built from traced values");
  if (!check_nn_init (t, name, args, kwargs, at))
    return NULL;
  if (strcmp (name, "Sequential") == 0 || strcmp (name, "ModuleList") == 0 ||
      strcmp (name, "ModuleDict") == 0 || strcmp (name, "ParameterList") == 0 ||
      strcmp (name, "ParameterDict") == 0)
    {
      ObjectKind kind = name[0] == 'S'                        ? OBJ_SEQUENTIAL
                        : strcmp (name, "ModuleList") == 0    ? OBJ_MODULE_LIST
                        : strcmp (name, "ModuleDict") == 0    ? OBJ_MODULE_DICT
                        : strcmp (name, "ParameterList") == 0 ? OBJ_PARAMETER_LIST
                                                              : OBJ_PARAMETER_DICT;
      Value     *items = NULL;

      v = _graft_tracer_new_object (t, kind, name);
      if (kind == OBJ_SEQUENTIAL && n == 1 && ((Value *) args->pdata[0])->kind == VAL_DICT)
        items = args->pdata[0];
      else if (kind == OBJ_SEQUENTIAL)
        {
          items = _graft_value_seq (t, VAL_LIST, 0);
          for (guint i = 0; i < n; i++)
            _graft_value_seq_add (items, args->pdata[i]);
        }
      else if (n == 1)
        items = args->pdata[0];
      else if (n > 1)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "%s() takes one iterable", name);
      /* Or by its keyword (bound above): `nn.ModuleList(modules=...)`. */
      else if (kwargs != NULL && kwargs->keys->len == 1)
        items = kwargs->values->pdata[0];
      /* `nn.ModuleList(None)` is an empty one. */
      if (items == NULL || items->kind == VAL_NONE)
        return v;
      if (items->kind == VAL_DICT)
        {
          g_autofree guint *order = g_new (guint, items->dict.keys->len + 1);

          for (guint i = 0; i < items->dict.keys->len; i++)
            order[i] = i;
          /* ParameterDict.update() takes a plain dict's items sorted (an
           * OrderedDict's in their order); its keys are strings. */
          if (kind == OBJ_PARAMETER_DICT && !items->dict.ordered)
            g_qsort_with_data (order, items->dict.keys->len, sizeof (guint), compare_str_keys_cb,
                               items->dict.keys);
          for (guint k = 0; k < items->dict.keys->len; k++)
            {
              guint  i = order[k];
              Value *key = items->dict.keys->pdata[i];
              Value *child = items->dict.values->pdata[i];

              if (kind == OBJ_PARAMETER_DICT ? key->kind != VAL_STR || child->kind != VAL_PARAMETER
                                             : key->kind != VAL_STR || child->kind != VAL_OBJECT ||
                                                   child->obj->kind == OBJ_PLAIN)
                return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                           "%s() expects %s under string keys", name,
                                           kind == OBJ_PARAMETER_DICT ? "parameters" : "modules");
              _graft_strmap_set (kind == OBJ_PARAMETER_DICT ? &v->obj->params : &v->obj->modules,
                                 _graft_tracer_strdup (t, key->str.s, key->str.len), child);
            }
          return v;
        }
      if (kind == OBJ_PARAMETER_DICT)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "ParameterDict() of anything but a dict is not supported");
      items = _graft_tracer_iterate (t, items, at);
      if (items == NULL)
        return NULL;
      for (guint i = 0; i < items->seq.items->len; i++)
        {
          Value   *child = items->seq.items->pdata[i];
          gboolean ok = kind == OBJ_PARAMETER_LIST
                            ? child->kind == VAL_PARAMETER
                            : child->kind == VAL_OBJECT && child->obj->kind != OBJ_PLAIN;

          if (!ok)
            return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                       "%s() expects %s", name,
                                       kind == OBJ_PARAMETER_LIST ? "parameters" : "modules");
          _graft_strmap_set (kind == OBJ_PARAMETER_LIST ? &v->obj->params : &v->obj->modules,
                             _graft_tracer_printf (t, "%u", i), child);
        }
      return v;
    }
  if (strcmp (name, "Module") == 0)
    return _graft_tracer_new_object (t, OBJ_USER_MODULE, "Module");
  /* What torch's __init__ checks of the values raises. */
  if (!_graft_tracer_check_nn_values (t, name, args, kwargs, at))
    return NULL;
  /* Every other torch.nn class is a leaf: torch.fx records its calls. */
  v = _graft_tracer_new_object (t, OBJ_LEAF, name);
  v->obj->constructor = constructor_text (t, path, args, kwargs);
  /* Kept for the leaf's model (_graft_tracer_leaf_model()): copies, in
   * the arena, which the call must not give back. */
  v->obj->ctor_args = _graft_tracer_vec (t);
  for (guint i = 0; i < n; i++)
    _graft_vec_add (v->obj->ctor_args, args->pdata[i]);
  if (kwargs != NULL && kwargs->keys->len > 0)
    {
      v->obj->ctor_kwargs = _graft_tracer_alloc (t, sizeof (StrMap));
      _graft_strmap_init (t, v->obj->ctor_kwargs);
      for (guint i = 0; i < kwargs->keys->len; i++)
        _graft_strmap_set (v->obj->ctor_kwargs, kwargs->keys->pdata[i], kwargs->values->pdata[i]);
    }
  t->n_kept++;
  _graft_tracer_leaf_submodules (t, v->obj, at);
  return v;
}

/* Adds to @names the part of @path after @prefix (a module and a dot)
 * when it is one name: not a deeper path, not private. */
static void
add_name_under (GHashTable *names,
                const char *path,
                const char *prefix)
{
  const char *rest;

  if (!g_str_has_prefix (path, prefix))
    return;
  rest = path + strlen (prefix);
  if (*rest == '\0' || *rest == '_' || strchr (rest, '.') != NULL)
    return;
  g_hash_table_add (names, (gpointer) rest);
}

static int
compare_names_cb (gconstpointer a,
                  gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/**
 * graft_trace_dup_names:
 * @dialect: the torch whose functions count
 * @module: a module as code imports it: `torch`, `torch.nn.functional`,
 *   `operator`, `math`
 *
 * The names the tracer knows directly under @module in @dialect, as code
 * writes them after `module.`: the functions it can trace (from the
 * torch's generated table; not those torch refuses to trace), the
 * constants (`float32`, `pi`), the modules it can import under it
 * (`nn`, `linalg`), and operator's functions.  Private names (a leading
 * `_`) are left out.  This is what an editor offers to complete.
 *
 * Returns: (transfer full): the names, sorted by byte, each once; empty
 *   when the tracer knows nothing under @module
 */
char **
graft_trace_dup_names (const GraftDialect *dialect,
                       const char         *module)
{
  const FxTable   *table;
  g_autofree char *prefix = NULL;
  g_autoptr (GHashTable) names = NULL;
  GPtrArray     *sorted;
  GHashTableIter iter;
  gpointer       name;

  g_return_val_if_fail (dialect != NULL, NULL);
  g_return_val_if_fail (module != NULL, NULL);
  table = &fx_tables[dialect->torch];
  prefix = g_strconcat (module, ".", NULL);
  names = g_hash_table_new (g_str_hash, g_str_equal);
  for (gsize i = 0; i < table->n_functions; i++)
    if (table->functions[i].kind != FX_NOT_TRACEABLE)
      add_name_under (names, FX_TEXT (table, table->functions[i].path), prefix);
  for (gsize i = 0; i < table->n_constants; i++)
    add_name_under (names, table->constants[i].path, prefix);
  for (gsize i = 0; i < table->n_math; i++)
    add_name_under (names, table->math[i].target, prefix);
  for (guint i = 0; i < G_N_ELEMENTS (known_modules); i++)
    add_name_under (names, known_modules[i], prefix);
  if (strcmp (module, "operator") == 0)
    for (guint i = 0; i < G_N_ELEMENTS (operator_functions); i++)
      g_hash_table_add (names, (gpointer) operator_functions[i].name);

  sorted = g_ptr_array_new_full (g_hash_table_size (names) + 1, NULL);
  g_hash_table_iter_init (&iter, names);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    g_ptr_array_add (sorted, g_strdup (name));
  g_ptr_array_sort (sorted, compare_names_cb);
  g_ptr_array_add (sorted, NULL);
  return (char **) g_ptr_array_free (sorted, FALSE);
}
