/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-private.h: the tracer's values and interpreter state, shared
 * by graft-tracer*.c.
 *
 * The tracer is an interpreter for the subset of Python that model files
 * use.  Values that derive from the traced inputs are proxies (a graph
 * node); everything else is evaluated, as Python would, so that constants
 * fold and loops over constants unroll.  Module objects (the root module,
 * its submodules, parameters and buffers) are built by interpreting
 * `__init__`.  All values live in one arena that the trace frees at the end;
 * lists, dicts and objects are mutable in place, as in Python.
 */
#pragma once

#include "graft-graph.h"
#include "graft-graph-private.h"
#include "graft-limits.h"
#include "graft-py-ast.h"
#include "graft-name-table-private.h"

/* In AddressSanitizer builds, what the arena gives back
 * (_graft_tracer_release()) is poisoned until it is handed out again, so
 * that a value still in use there is reported. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GRAFT_TRACER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GRAFT_TRACER_ASAN 1
#endif
#ifdef GRAFT_TRACER_ASAN
#include <sanitizer/asan_interface.h>
#define GRAFT_TRACER_POISON(p, size)   ASAN_POISON_MEMORY_REGION ((p), (size))
#define GRAFT_TRACER_UNPOISON(p, size) ASAN_UNPOISON_MEMORY_REGION ((p), (size))
#else
#define GRAFT_TRACER_POISON(p, size)   ((void) 0)
#define GRAFT_TRACER_UNPOISON(p, size) ((void) 0)
#endif

G_BEGIN_DECLS

typedef struct _Value        Value;
typedef struct _Frame        Frame;
typedef struct _Tracer       Tracer;
typedef struct _Object       Object;
typedef struct _Class        Class;
typedef struct _PtrVec       PtrVec;
typedef struct _ResolvedPath ResolvedPath;

/* What a tensor made by a factory is like (_graft_tracer_factory_tensor()):
 * its torch.Size, dtype (VAL_SYMBOL) and device (VAL_DEVICE), and where
 * graft-tracer-layouts.c follows them, its strides. */
typedef struct
{
  Value *shape;
  Value *dtype;
  Value *device;
  /* Its strides, in elements, one per dimension of @shape; NULL for a
   * contiguous tensor (a factory's) or where @strides_unknown. */
  const gint64 *strides;
  /* An op made it whose result's strides Graft does not follow. */
  gboolean strides_unknown;
} TensorMeta;

/* The head of graft-tracer-torch.c's ResolvedPath, which call_of_names()
 * (graft-tracer-eval.c) reads to record a call of traced values alone
 * without _graft_tracer_call_path_direct(). */
typedef struct
{
  /* For a function _graft_tracer_call_path_direct() records as it is
   * called (DIRECT_BUILTIN): its target and name, the table's text of the
   * tracer's dialect; else %NULL. */
  const char *direct_target, *direct_name;
  /* Bit n: the check passed n traced values and no keyword (the check's
   * verdict depends on the arguments' kinds alone, as Tracer.passed). */
  guint proxies_passed;
  /* Bit n: the check passed one list of n traced values alone. */
  guint lists_passed;
} ResolvedHead;

/* A growable array of pointers whose blocks come from the tracer's arena:
 * lists, tuples, dicts' keys and values, call arguments.  It has
 * GPtrArray's two public fields under the same names.  A trace makes one
 * or two per node; as GPtrArrays (a malloc for the array, one for its
 * storage, a realloc as it grows, two frees) they were a tenth of it. */
struct _PtrVec
{
  gpointer *pdata;
  guint     len;
  guint     alloc;
  Tracer   *tracer;
};

typedef enum {
  VAL_NONE,
  VAL_BOOL,
  VAL_INT,
  VAL_FLOAT,
  VAL_COMPLEX,
  VAL_STR,
  VAL_ELLIPSIS,
  VAL_TUPLE,
  VAL_LIST,
  VAL_DICT,
  VAL_SLICE,
  VAL_SYMBOL,     /* torch.float32 and such: text */
  VAL_DEVICE,     /* str form */
  VAL_PROXY,      /* node */
  VAL_ATTR_PROXY, /* an attribute of a proxy, made a node on first use */
  VAL_PYMODULE,   /* an imported module: path */
  VAL_PATH_FN,    /* a function of torch, math, operator...: path */
  VAL_NN_CLASS,   /* a class of torch.nn: path */
  VAL_FUNCTION,   /* a def or lambda of the file */
  VAL_CLASS,      /* a class of the file */
  VAL_OBJECT,     /* an instance (module or plain object) */
  VAL_SELF_PATH,  /* in a top-level forward(self): a submodule path */
  VAL_BOUND,      /* a function bound to a receiver */
  VAL_BUILTIN,    /* a Python builtin function: name */
  VAL_METHOD,     /* a method of a constant value: receiver + name */
  VAL_TENSOR,     /* an opaque constant tensor (identity matters) */
  VAL_PARAMETER,  /* an nn.Parameter (identity matters) */
  VAL_SUPER,      /* super(): object + class to start after */
  VAL_TYPE,       /* a builtin type or typing name used as annotation: text */
  VAL_GENERIC,    /* a generic alias (`typing.List[int]`, `int | None`): graft-tracer-types.c */
  VAL_ITER,       /* an iterator (iter()): its items, made as next() reaches them */
  VAL_SET,        /* a set (seq.items, distinct, as added; seq.size: a frozenset) */
} ValueKind;

/* A slot of a big StrMap's index (graft-tracer-value.c): a key's hash and
 * its position, 1-based (0: free). */
typedef struct
{
  guint32 hash;
  guint32 pos;
} StrMapSlot;

typedef struct _StrMapIndex StrMapIndex;

/* An ordered map with string keys (module attributes, scopes keep order).
 * Small maps are searched linearly; a map that grows past a few keys gets an
 * index of 8-byte slots.  In front of both, the tracer keeps recent answers by
 * the addresses of map and key (Tracer.map_recent): a key found is checked
 * at its position, a key not found is good while the map's stamp holds. */
typedef struct
{
  Tracer      *tracer;
  PtrVec      *keys;   /* const char * */
  PtrVec      *values; /* Value * */
  StrMapIndex *index;  /* key -> position + 1, or NULL while small */
  /* A new stamp (Tracer.map_stamp) each time a key is added or removed;
   * 0 while the map is being changed through a copy of itself (a class
   * body's namespace), when no absence may be kept. */
  guint stamp;
  /* Keys _graft_strmap_reserve() made room for: the index, once the map
   * needs one, is made that large at once (0: as the keys come). */
  guint reserved;
  /* A bit per pair of first bytes of the keys (_graft_strmap_key_bit()): a key
   * whose bit is clear is surely absent.  Never cleared on removal. */
  guint64 key_bits;
} StrMap;

/* What _graft_strmap_prefetch() returns when it computed no hash (a hash
 * is 32 bits). */
#define STRMAP_NO_HASH G_MAXUINT64

typedef enum {
  OBJ_PLAIN,       /* an instance of a file class that is not a module */
  OBJ_USER_MODULE, /* an instance of a file class deriving from nn.Module */
  OBJ_LEAF,        /* a torch.nn leaf module (call_module) */
  OBJ_SEQUENTIAL,
  OBJ_MODULE_LIST,
  OBJ_MODULE_DICT,
  OBJ_PARAMETER_LIST,
  OBJ_PARAMETER_DICT, /* its parameters in params, by string keys */
} ObjectKind;

struct _Object
{
  ObjectKind  kind;
  const char *class_name; /* nn class name (`Conv2d`) or file class name */
  Class      *cls;        /* file class, or NULL */
  StrMap      attrs;      /* instance __dict__ (plain values, tensors) */
  StrMap      modules;    /* _modules */
  StrMap      params;     /* _parameters */
  StrMap      buffers;    /* _buffers */
  /* A module of the file's classes whose __init__ has not reached
   * nn.Module.__init__ (`super().__init__()`) yet: it has no _modules,
   * _parameters or _buffers, and torch's __setattr__ and tracing refuse it. */
  gboolean before_init;
  guint    is_partial : 1; /* a functools.partial (graft-tracer-functools.c) */
  /* A leaf whose params and buffers are all its own (no longer its model's):
   * nn.utils.weight_norm changed them (_graft_tracer_weight_norm()). */
  guint tensors_own : 1;
  /* A buffer was registered with `persistent=False` (Graft does not keep
   * which: state_dict() of it is refused). */
  guint non_persistent_buffers : 1;
  /* A leaf built from plain values: Python that builds it again, or NULL */
  const char *constructor;
  guint       constructor_serial; /* the Tracer.graph_serial of the graph last told it */
  /* A leaf: the arguments it was built with (Value *), and the instance of
   * its Python model built from them on first need
   * (_graft_tracer_leaf_model(): what it stores, `in_features`, its
   * parameters' names), or NULL; @model is the object itself when the
   * class has no model. */
  PtrVec *ctor_args;
  StrMap *ctor_kwargs;
  Object *model;
  /* An exception a handler caught (`except KeyError as e`): the name of
   * its class (Tracer.raised); else NULL. */
  const char *exception;
  /* Its `args` (a VAL_TUPLE of constants) when Graft knows them
   * (Tracer.raised_args); else NULL. */
  Value *exception_args;
};

struct _Class
{
  const char        *name;
  const char        *qualname; /* Python's __qualname__ (`f.<locals>.K`, `Outer.Inner`) */
  const GraftPyStmt *stmt;
  PtrVec            *bases; /* Value * (VAL_CLASS or VAL_NN_CLASS or VAL_PATH_FN) */
  StrMap             ns;    /* class body namespace */
  gboolean           is_module;
  const char        *unmodelled;    /* a torch.nn base Graft has no Python model of, or NULL */
  const GraftPyExpr *unmodelled_at; /* where the class names it */
  gboolean           is_enum;       /* derives from enum.Enum: its plain attributes are members */
  gboolean           is_exception;  /* derives from one of Python's exceptions */
  PtrVec            *dc_fields;     /* a @dataclass: its fields (graft-tracer-dataclass.c) */
  PtrVec            *dc_params;     /* and its __init__'s parameters: fields and InitVars */
  gboolean           dc_repr, dc_eq, dc_frozen;
  /* The names its body binds (collected when a body in a function first
   * reads a name it does not hold), which it reads past the function's
   * scope; NULL before. */
  GHashTable *binds;
};

typedef struct
{
  const GraftPyStmt *def;    /* a FunctionDef, or NULL for a lambda */
  const GraftPyExpr *lambda; /* a Lambda, or NULL */
  const char        *name;
  Frame             *closure;     /* the scope the def ran in */
  Value            **defaults;    /* per positional parameter (posonly + args), NULL if none */
  Value            **kw_defaults; /* per kw-only parameter */
  Class             *owner;       /* the class whose body defined it, or NULL */
  const char        *ext_path;    /* a wrapped function of another library: its qualified name */
  gboolean           is_wrapped;  /* torch.fx.wrap'ped at module level */
  gboolean           is_static;   /* @staticmethod */
  /* @classmethod: bound to the class. */
  gboolean        is_classmethod;
  gboolean        is_property; /* @property */
  GHashTable     *locals;      /* names its body binds (Python's local variables), once asked */
  struct _Locals *locals_log;  /* for a body read as traced: its names, until asked */
  gboolean        no_yield;    /* its body was read whole and has no yield: not a generator */
} Function;

struct _Value
{
  ValueKind kind;
  /* A container that a walk of graft-tracer-value.c is inside (printing
   * it, looking for proxies in it): met again, it holds itself, which
   * Python prints `[...]` (in the padding after kind: the size is the
   * same). */
  guint8 walking;
  union
  {
    gboolean b;
    gint64   i;
    double   f;
    double   c[2];
    struct
    {
      const char *s;
      gsize       len;
    } str;
    struct
    {
      PtrVec     *items; /* Value *; a tuple never changes, a list may */
      const char *range; /* a list made by range(): its repr, `range(0, 2)`; else NULL */
      gboolean    size;  /* a tuple that is a torch.Size (prints as one) */
      /* A set: an item whose slot Graft does not know was in its table,
       * so the others may sit past theirs (Graft no longer knows its
       * order); and the slot its next pop() starts from (CPython's
       * `finger`, SET_FINGER_UNKNOWN when Graft does not know it). */
      guint8 unordered;
      guint8 finger;
    } seq;
    struct
    {
      PtrVec  *keys;
      PtrVec  *values;
      gboolean ordered; /* made by collections.OrderedDict() (ParameterDict keeps its order) */
    } dict;
    struct
    {
      Value *start, *stop, *step;
    } slice;
    GraftNode *node;
    struct
    {
      Value      *base; /* the proxy */
      const char *attr;
      GraftNode  *made; /* the getattr node once made */
    } attr;
    const char *path; /* PYMODULE, PATH_FN, NN_CLASS, SELF_PATH, BUILTIN, TYPE, SYMBOL, DEVICE */
    struct
    {
      const char   *path;     /* @path, the same member */
      ResolvedPath *resolved; /* what graft-tracer-torch.c found for it, once called */
    } path_fn;                /* PATH_FN */
    Function *fn;
    Class    *cls;
    Object   *obj;
    struct
    {
      Value *self;
      Value *fn;
    } bound;
    struct
    {
      Value      *recv;
      const char *name;
    } method;
    struct
    {
      guint             id;
      Value            *data; /* PARAMETER: the tensor it wraps */
      const TensorMeta *meta; /* what a factory made it like, else NULL */
    } tensor;
    struct
    {
      Value *self; /* the object (VAL_OBJECT) */
      Class *after;
    } super;
    struct
    {
      Value            *items; /* the raw items (a list) */
      struct _LazyIter *lazy;  /* how each is made (_graft_tracer_loop_item()) */
      guint             pos;   /* the next one ('c': the calls made) */
      gboolean          ended; /* its end was reached (_graft_tracer_loop_end() ran) */
      /* (Its type's name is in @lazy: a value takes 32 bytes.) */
    } iter;
    struct
    {
      const char *repr;   /* as a listing prints it: `typing.Optional[torch.Tensor]` */
      const char *origin; /* `typing.Union`, `typing.List`, `list`, or `|` for `int | None` */
      PtrVec     *args;   /* Value *: the arguments (a Union's, flattened) */
    } generic;
  };
};

/* The variables of one running function, or of the module or a class
 * body: a Python scope, as the interpreter's frame holds it.  (Not the
 * public GraftScopes of core/ir/graft-scope.h, the module scopes of a
 * graph's nodes.) */
struct _Frame
{
  StrMap    vars;
  Frame    *parent;  /* enclosing function scope, or NULL */
  Frame    *globals; /* the module scope (itself for the module scope) */
  Function *fn;      /* the function running in this scope, or NULL */
  Class    *cls;     /* the class whose body runs in this scope, or NULL */
  Value    *self;    /* its first argument, for a zero-argument super() */
  /* A comprehension's scope: `:=` binds in the enclosing one. */
  gboolean comprehension;
  /* The names a `global` or `nonlocal` of this scope declared, each to the
   * frame it binds in (the module's, an enclosing function's); NULL while
   * there is none. */
  GHashTable *declared;
};

/* The values of Tracer.self_tree: what a `self.a.b` path names. */
#define SELF_MODULE GINT_TO_POINTER (1)
#define SELF_PARAM  GINT_TO_POINTER (2)

/* Why a statement stopped. */
typedef enum {
  FLOW_NORMAL,
  FLOW_RETURN,
  FLOW_BREAK,
  FLOW_CONTINUE,
  FLOW_ERROR,
} Flow;

/* The key of an entry of the tracer's small direct-mapped caches of recent
 * answers in graft-tracer-eval.c (Tracer.attr_recent,
 * Tracer.outside_recent): two addresses, of strings or objects that live
 * as long as the tracer; an entry is empty while its first is NULL. */
typedef struct
{
  gconstpointer a;
  gconstpointer b;
} RecentKey;

/* Whether the entry keyed @key answers for @a and @b. */
static inline gboolean
_graft_recent_key_is (const RecentKey *key,
                      gconstpointer    a,
                      gconstpointer    b)
{
  return key->a == a && key->b == b;
}

/* Tracer.attr_recent's entry: a module's attribute, keyed by the module's
 * path and the attribute's name. */
typedef struct
{
  RecentKey key;
  Value    *value;
} AttrRecent;

/* Tracer.outside_recent's entry, keyed by the name and the frame. */
typedef struct
{
  RecentKey key;
  guint     frame_stamp;
  guint     parent_stamp;
  guint     globals_stamp;
  guint     pos;
} OutsideRecent;

struct _Tracer
{
  /* Borrowed */
  GraftSource        *source;
  GraftPyModule      *module;
  const GraftDialect *dialect; /* static */

  /* Owned */
  GraftGraph   *graph;        /* NULL until tracing starts */
  guint         graph_serial; /* counts the graphs made, from 1 */
  GPtrArray    *chunks;       /* arena blocks */
  char         *chunk;        /* the block bump allocation takes from (the last of chunks) */
  gsize         chunk_used;   /* bytes taken from it; GRAFT_TRACER_CHUNK_SIZE before the first */
  gsize         arena_size;   /* the bytes of all the arena's blocks */
  GPtrArray    *garrays;      /* GArrays to free */
  GPtrArray    *hash_tables;  /* GHashTables to free */
  GPtrArray    *map_indexes;  /* StrMapIndexes to free */
  GStringChunk *strings;
  Frame        *globals;
  GHashTable   *param_nodes;   /* qualified name -> node (per-trace cache) */
  GHashTable   *tensor_paths;  /* Value * (tensor) -> qualified name */
  GHashTable   *tensor_consts; /* Value * (tensor) -> `_tensor_constantN` */
  GHashTable   *nul_attrs;     /* attribute name (owned) -> its length, for the
                                * names with a NUL byte that getattr() gave
                                * traced values (`getattr(x, "a\x00b")`); or NULL */
  GHashTable *self_tree;       /* top-level forward(self): path -> SELF_MODULE or SELF_PARAM */
  GHashTable *module_paths;    /* Object * -> qualified name (named_modules order) */
  GHashTable *attr_cache;      /* module path -> (attribute name -> value) */
  GHashTable *imported;        /* the module paths the program imported (and their
                                * packages), or NULL before its first import */
  GHashTable *call_paths;      /* called path (by address) -> ResolvedPath (graft-tracer-torch.c) */
  GHashTable *signatures;      /* torch table entry -> parsed signature, or NULL */
  GPtrArray  *parsed;          /* GraftPyModules parsed from the torch table */
  Frame      *table_frame;     /* where the torch table's literals are evaluated */
  Frame      *nn_frame;        /* the Python models of torch.nn layers, once needed */
  Frame      *nn_settings;     /* the models of what other layers store, once needed */
  guint       in_nn_models;    /* calls of those models' functions under way */
  Frame      *nn_checks;       /* the checks of layers' values, once needed */
  GError     *error;
  /* The Python exception t->error stands for, when Python code could
   * catch it (exec_try()): `TraceError` (torch.fx's, for control flow on
   * a traced value), `RuntimeError` (its len()), the class a raise
   * statement names; or NULL. */
  const char *raised;
  /* The `args` of that exception, when Graft knows them: a VAL_TUPLE of
   * constants (`raise ValueError("bad")`, a missing dict key); or NULL. */
  Value *raised_args;
  /* The exception the innermost running handler caught, which a bare
   * `raise` raises again, and its args; or NULL. */
  const char *handling;
  Value      *handling_args;
  /* The byte span Tracer.error was set at (error_start, error_end), and
   * the span of the exception the innermost running handler caught: a bare
   * `raise` keeps its traceback, so Python places it where it was first
   * raised. */
  guint32       error_start, error_end;
  const GError *error_span_of; /* the error those are of (a restored one's are not known) */
  guint32       handling_start, handling_end;
  gboolean      handling_span_known;
  /* The exception object a raise statement raised (Tracer.raised is its
   * class), which a handler binds as it is, with its `__cause__` and
   * `__context__`; and the object of the exception the innermost running
   * handler caught, the `__context__` of one raised in it; or NULL.
   * raised_context is what handling_exc was where Tracer.error was set. */
  Value *raised_exc;
  Value *raised_context;
  Value *handling_exc;

  const char *stem; /* the input's module name, for wrapped globals */
  Value      *root; /* the traced module (VAL_OBJECT), or NULL */
  guint       n_tensors;
  guint       n_tensor_consts;
  guint       depth;
  guint       call_depth;
  guint64     loop_steps;
  gboolean    tracing;     /* proxies exist: forward is being traced */
  gboolean    static_text; /* the next node's target and name are a table's
                            * text (never freed nor changed): set just
                            * before _graft_tracer_make_node(), which
                            * clears it */
  gboolean error_is_fatal; /* t->error must not be skipped over at module level */
  /* A walk of a value went deeper than GRAFT_MAX_VALUE_DEPTH, which the
   * statement reports when it ends (the walks that cannot fail answer as
   * if the rest were not there). */
  gboolean walk_too_deep;
  GError  *rules_error; /* Owned: why the first module-level statement binding RULES failed */
  guint32  span_start;  /* the statement being traced, for node spans */
  guint32  span_end;
  guint    node_room; /* nodes the graph surely has room for under
                       * GRAFT_MAX_NODES (the tracer alone adds to it, and
                       * counts them off), 0 when it must be asked again */

  /* The containers a walk of a value is inside (_graft_tracer_walk_enter();
   * walk_too_deep above). */
  guint walk_depth;

  /* graft-tracer-check.c: the signature parser found for recently checked
   * paths, by the path's address (a string of the static torch table),
   * direct-mapped; an entry with a NULL path is empty. */
  struct
  {
    const char   *path;
    gconstpointer parser; /* or the address of the cache itself: none */
  } checked[32];

  /* graft-tracer-check.c: calls recently found to pass their argument
   * parser, by the parser and the kinds of the arguments (the checks look
   * at nothing else), direct-mapped; an entry with a NULL parser is empty. */
  struct
  {
    gconstpointer parser;
    guint         len;
    guint8        key[64];
  } passed[64];

  /* graft-tracer-eval.c: recent module attributes (`torch.neg`) by the
   * addresses of the module's path and the attribute's name (AST and
   * arena strings, which live as long as the tracer), direct-mapped, in
   * front of attr_cache. */
  AttrRecent attr_recent[64];

  /* graft-tracer-value.c: recent StrMap lookups, by the addresses of the
   * map and the key, direct-mapped: the position found (checked again on
   * use: the key at that position is still @stored, the map's own string
   * of the key's text, which may be another copy than @key: a parameter
   * read in a body), or 0 for a key the map did not hold while its stamp
   * was @stamp. */
  struct
  {
    const StrMap *map;
    const char   *key;
    const char   *stored;
    guint         pos;
    guint         stamp;
  } map_recent[256];
  guint map_stamp; /* the last stamp given to a StrMap */
  /* Counts the entries put into the tracer's lasting tables (call paths,
   * signatures, module attributes, parameter and tensor-constant nodes):
   * their values may be in the arena, so a call that added one keeps its
   * scratch (graft-tracer-eval.c's eval_call()). */
  guint n_kept;

  /* graft-tracer-eval.c: whether a name (a syntax-tree string) is a local
   * variable of a function, for recent pairs, by address. */
  struct
  {
    const Function *fn;
    const char     *name;
    gboolean        local;
  } local_recent[32];

  /* graft_py_program_new_traced(): the entry's forward traced as it is
   * read (graft-tracer.c).  While its body streams, which names it binds
   * is known only up to the statement being traced, so a name its frame
   * does not hold is looked up outside (stream_misses keeps it, with the
   * recently kept by address in front), and the read is good only if no
   * name so looked up turns out to be bound further down. */
  gboolean           may_stream;    /* the trace may read the entry's forward as it goes */
  const Function    *stream_fn;     /* the function whose body streams, or NULL */
  const GraftPyStmt *streamed;      /* a def whose body was read as traced, to the end */
  GHashTable        *stream_misses; /* names stream_fn's frame looked up outside it */
  const char        *miss_recent[64];
  /* graft-tracer-builtins.c: the builtin_names row of a name recently
   * looked up, by the name's address (checked by its text). */
  guint8 builtin_recent[64];
  /* graft-tracer-eval.c: names stream_fn's frame found in the module's
   * scope (`torch`, `F`), by the name's address (the slot of miss_recent):
   * good while the frame, its enclosing frame and the module's scope keep
   * the stamps they had (the frame's may also change where its key bits
   * still leave the name out); the value is read at @pos of the module's
   * scope. */
  OutsideRecent outside_recent[64];
  gboolean      fallback; /* read and trace again the usual way */
};

/* The size of the arena's blocks; larger requests get a block of their own. */
#define GRAFT_TRACER_CHUNK_SIZE (64 * 1024)

/* graft-tracer-value.c */
gpointer    _graft_tracer_alloc (Tracer *t, gsize size);
const char *_graft_tracer_strdup (Tracer *t, const char *s, gssize len);
const char *_graft_tracer_printf (Tracer *t, const char *format, ...) G_GNUC_PRINTF (2, 3);
PtrVec     *_graft_tracer_vec (Tracer *t);
PtrVec     *_graft_tracer_vec_sized_slow (Tracer *t, guint alloc);
void        _graft_vec_grow (PtrVec *v, guint min_alloc);
void        _graft_vec_insert (PtrVec *v, guint index, gpointer item);
gpointer    _graft_vec_remove_index (PtrVec *v, guint index);
void        _graft_vec_set_size (PtrVec *v, guint len);
void        _graft_strmap_init (Tracer *t, StrMap *map);
void        _graft_strmap_reserve (StrMap *map, guint n_keys);
void        _graft_strmap_index_free (StrMapIndex *index);
Value      *_graft_strmap_get_slow (const StrMap *map, const char *key);
void        _graft_strmap_set (StrMap *map, const char *key, Value *value);
guint64     _graft_strmap_prefetch (const StrMap *map, const char *key);
void        _graft_strmap_set_hashed (StrMap *map, const char *key, guint64 hash, Value *value);
gboolean    _graft_strmap_remove (StrMap *map, const char *key);
Value      *_graft_value_none (void);
Value      *_graft_value_bool (gboolean b);
Value      *_graft_value_int (Tracer *t, gint64 i);
Value      *_graft_value_float (Tracer *t, double f);
Value      *_graft_value_str (Tracer *t, const char *s, gssize len);
Value      *_graft_value_path (Tracer *t, ValueKind kind, const char *path);
Value      *_graft_value_seq (Tracer *t, ValueKind kind, guint reserve);
Value      *_graft_value_dict (Tracer *t);
Value      *_graft_value_tensor (Tracer *t);
Value      *_graft_tracer_factory_tensor (Tracer            *t,
                                          const char        *path,
                                          PtrVec            *args,
                                          StrMap            *kwargs,
                                          const GraftPyExpr *at);
Value      *_graft_value_ellipsis (void);
void        _graft_value_seq_add (Value *seq, Value *item);
const char *_graft_value_type_name (const Value *v);
gboolean    _graft_value_holds_proxy (const Value *v);
gboolean    _graft_value_is_number (const Value *v);
gboolean    _graft_value_equal (const Value *a, const Value *b);
Value      *_graft_dict_get (const Value *dict, const Value *key);
void        _graft_dict_set (Tracer *t, Value *dict, Value *key, Value *value);
void        _graft_value_append_str (GString *out, const Value *v, gboolean repr);

/* @size bytes (a multiple of 16) from the arena's current block, not
 * zeroed, or NULL when it has no room: _graft_tracer_alloc() then. */
static inline gpointer
_graft_tracer_bump (Tracer *t,
                    gsize   size)
{
  if (G_LIKELY (t->chunk_used + size <= GRAFT_TRACER_CHUNK_SIZE))
    {
      gpointer p = t->chunk + t->chunk_used;

      t->chunk_used += size;
      GRAFT_TRACER_UNPOISON (p, size);
      return p;
    }
  return NULL;
}

/* A place in the arena's current block, for _graft_tracer_release(). */
typedef struct
{
  char *chunk;
  gsize used;
} ArenaMark;

static inline ArenaMark
_graft_tracer_mark (Tracer *t)
{
  return (ArenaMark){ t->chunk, t->chunk_used };
}

/* Gives back what the arena handed out since @mark, which nothing may
 * point to any more: the scratch of one node's arguments.  Only within
 * the block @mark is in (a block begun since, and the blocks of their own
 * that large requests get, stay until the trace ends). */
static inline void
_graft_tracer_release (Tracer   *t,
                       ArenaMark mark)
{
  if (t->chunk == mark.chunk && mark.used <= t->chunk_used)
    {
      GRAFT_TRACER_POISON (t->chunk + mark.used, t->chunk_used - mark.used);
      t->chunk_used = mark.used;
    }
}

void _graft_tracer_release_blocks (Tracer *t, ArenaMark mark);

/* Enters a container (a sequence or a dict: its vectors know the
 * tracer) in a walk of a value; %FALSE, and Tracer.walk_too_deep set,
 * past GRAFT_MAX_VALUE_DEPTH levels: the walk must not go in (nor call
 * _graft_tracer_walk_leave()). */
static inline gboolean
_graft_tracer_walk_enter (Tracer *t)
{
  if (G_UNLIKELY (t->walk_depth >= GRAFT_MAX_VALUE_DEPTH))
    {
      t->walk_too_deep = TRUE;
      return FALSE;
    }
  t->walk_depth++;
  return TRUE;
}

static inline void
_graft_tracer_walk_leave (Tracer *t)
{
  t->walk_depth--;
}

/* A vector with room for @alloc items, from the arena: the header and
 * the items in one block (only the header is set; the room the rounding
 * to 16 bytes leaves is used).  Larger vectors (or no room in the current
 * block) in graft-tracer-value.c. */
static inline PtrVec *
_graft_tracer_vec_sized (Tracer *t,
                         guint   alloc)
{
  if (alloc >= 1 && alloc <= 64)
    {
      gsize   size = (sizeof (PtrVec) + alloc * sizeof (gpointer) + 15) & ~(gsize) 15;
      PtrVec *v = _graft_tracer_bump (t, size);

      if (G_LIKELY (v != NULL))
        {
          v->pdata = (gpointer *) (v + 1);
          v->len = 0;
          v->alloc = (guint) ((size - sizeof (PtrVec)) / sizeof (gpointer));
          v->tracer = t;
          return v;
        }
    }
  return _graft_tracer_vec_sized_slow (t, alloc);
}

/* A new value of @kind, its fields zero, in the arena. */
static inline Value *
_graft_value_new (Tracer   *t,
                  ValueKind kind)
{
  const gsize size = (sizeof (Value) + 15) & ~(gsize) 15;
  Value      *v = _graft_tracer_bump (t, size);

  if (G_UNLIKELY (v == NULL))
    v = _graft_tracer_alloc (t, size);
  *v = (Value){ .kind = kind };
  return v;
}

/* A traced value: @node's proxy (_graft_value_new() always inline: one
 * is made for every node). */
static inline G_ALWAYS_INLINE Value *
_graft_value_proxy (Tracer    *t,
                    GraftNode *node)
{
  const gsize size = (sizeof (Value) + 15) & ~(gsize) 15;
  Value      *v = _graft_tracer_bump (t, size);

  if (G_UNLIKELY (v == NULL))
    v = _graft_tracer_alloc (t, size);
  *v = (Value){ .kind = VAL_PROXY, .node = node };
  return v;
}

/* The entry of Tracer.map_recent for @map and @key. */
static inline guint
_graft_strmap_recent_slot (const StrMap *map,
                           const char   *key)
{
  guint64 h = ((guint64) GPOINTER_TO_SIZE (key) ^ ((guint64) GPOINTER_TO_SIZE (map) << 7)) *
              G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  G_STATIC_ASSERT (G_N_ELEMENTS (((Tracer *) NULL)->map_recent) == 256);
  return (guint) (h >> 56);
}

/* Tracer.map_recent's answer for @key in @map (entry @r), if it still
 * holds: the position of @key (1-based) or 0 for a key absent; else
 * G_MAXUINT. */
static inline guint
_graft_strmap_recent_position (const StrMap *map,
                               const char   *key,
                               guint         r)
{
  Tracer *t = map->tracer;

  if (t->map_recent[r].map == map && t->map_recent[r].key == key)
    {
      guint pos = t->map_recent[r].pos;

      /* The map has not changed since; or else, keys being distinct
       * texts, the string found at that position is still there. */
      if ((map->stamp != 0 && t->map_recent[r].stamp == map->stamp) ||
          (pos > 0 && pos <= map->keys->len &&
           map->keys->pdata[pos - 1] == t->map_recent[r].stored))
        return pos;
    }
  return G_MAXUINT;
}

/* The bit of StrMap.key_bits for @key: its first two bytes, mixed.  A
 * scope of ten thousand `hN` sets ten bits, and `torch` or `F` is not
 * among them. */
static inline guint64
_graft_strmap_key_bit (const char *key)
{
  guint c0 = (guchar) key[0];
  guint c1 = c0 != 0 ? (guchar) key[1] : 0;

  return G_GUINT64_CONSTANT (1) << ((c0 * 7u + c1) & 63);
}

/* The value of @key in @map, or NULL: a recent answer that still holds
 * here, or a key surely absent (an empty map, a clear key bit), which
 * stays so across other keys' additions (a global read in a frame that
 * grows by a name a line); anything else in graft-tracer-value.c. */
static inline Value *
_graft_strmap_get (const StrMap *map,
                   const char   *key)
{
  if (map != NULL && map->keys != NULL)
    {
      guint pos = _graft_strmap_recent_position (map, key, _graft_strmap_recent_slot (map, key));

      if (pos != G_MAXUINT)
        return pos > 0 ? map->values->pdata[pos - 1] : NULL;
      /* (A map with stamp 0 shares its vectors with a copy that changes
       * them: its key bits may be behind.) */
      if (map->stamp != 0 &&
          (map->keys->len == 0 || (map->key_bits & _graft_strmap_key_bit (key)) == 0))
        return NULL;
    }
  return _graft_strmap_get_slow (map, key);
}

/* _graft_strmap_set_hashed() (@hash: what _graft_strmap_prefetch() gave
 * for @key) of a key Tracer.map_recent still finds in @map (a name bound
 * again) in place; anything else out of line. */
static inline void
_graft_strmap_set_inline (StrMap     *map,
                          const char *key,
                          guint64     hash,
                          Value      *value)
{
  Tracer *t = map->tracer;
  guint   r = _graft_strmap_recent_slot (map, key);

  if (t->map_recent[r].map == map && t->map_recent[r].key == key)
    {
      guint pos = t->map_recent[r].pos;

      if (pos > 0 && ((map->stamp != 0 && t->map_recent[r].stamp == map->stamp) ||
                      (pos <= map->keys->len &&
                       map->keys->pdata[pos - 1] == t->map_recent[r].stored)))
        {
          map->values->pdata[pos - 1] = value;
          return;
        }
    }
  _graft_strmap_set_hashed (map, key, hash, value);
}

/* Whether @v is a traced value: a proxy, or a proxy's attribute. */
static inline gboolean
_graft_value_is_proxy (const Value *v)
{
  return v->kind == VAL_PROXY || v->kind == VAL_ATTR_PROXY;
}

/* Whether @v is a tuple or a list. */
static inline gboolean
_graft_value_is_seq (const Value *v)
{
  return v->kind == VAL_TUPLE || v->kind == VAL_LIST;
}

/* Whether @v is a tensor: an opaque constant or an nn.Parameter. */
static inline gboolean
_graft_value_is_tensor (const Value *v)
{
  return v->kind == VAL_TENSOR || v->kind == VAL_PARAMETER;
}

static inline void
_graft_vec_add (PtrVec  *v,
                gpointer item)
{
  if (v->len == v->alloc)
    _graft_vec_grow (v, v->len + 1);
  v->pdata[v->len++] = item;
}

/* graft-tracer-check.c */
gconstpointer _graft_tracer_check_find (Tracer *t, const char *path);
gboolean      _graft_tracer_check_parsed (Tracer            *t,
                                          gconstpointer      parser,
                                          PtrVec            *args,
                                          StrMap            *kwargs,
                                          const GraftPyExpr *at);
gboolean      _graft_tracer_check_call (Tracer            *t,
                                        const char        *path,
                                        PtrVec            *args,
                                        StrMap            *kwargs,
                                        const GraftPyExpr *at);

/* graft-tracer-module.c */
const char *_graft_tracer_op_overload_name (Tracer *t, const char *path);
gboolean    _graft_tracer_op_path_append_str (Tracer     *t,
                                              const char *path,
                                              gboolean    repr,
                                              GString    *out);

/* graft-tracer-oppackets.c: an aten packet is a run of overload rows. */
typedef struct
{
  guint first;
  guint n;
} OpPacket;

gboolean    _graft_tracer_op_packet_find (Tracer     *t,
                                          const char *name,
                                          gsize       len,
                                          OpPacket   *out);
int         _graft_tracer_op_overload_find (Tracer         *t,
                                            const OpPacket *packet,
                                            const char     *overload);
int         _graft_tracer_op_overload_row (Tracer *t, const char *path);
Value      *_graft_tracer_op_overloads (Tracer *t, const OpPacket *packet);
const char *_graft_tracer_op_schema_text (Tracer *t, guint row);
Value      *_graft_tracer_op_tags (Tracer *t, guint row);
gboolean    _graft_tracer_op_check_call (Tracer            *t,
                                         guint              row,
                                         PtrVec            *args,
                                         StrMap            *kwargs,
                                         const GraftPyExpr *at);
gboolean    _graft_tracer_op_check_packet_call (Tracer            *t,
                                                const OpPacket    *packet,
                                                PtrVec            *args,
                                                StrMap            *kwargs,
                                                const GraftPyExpr *at);

/* graft-tracer-call.c */
const char *_graft_tracer_scope_qualname (Tracer *t, Frame *frame, const char *name);
const char *_graft_tracer_function_qualname (Tracer *t, const Function *fn);

/* graft-tracer.c */
Value             *_graft_tracer_fail (Tracer             *t,
                                       guint32             start,
                                       guint32             end,
                                       GraftParseErrorCode code,
                                       const char         *format,
                                       ...) G_GNUC_PRINTF (5, 6);
Value             *_graft_tracer_raise (Tracer     *t,
                                        const char *exception,
                                        guint32     start,
                                        guint32     end,
                                        const char *format,
                                        ...) G_GNUC_PRINTF (5, 6);
Value             *_graft_tracer_raise_text (Tracer            *t,
                                             const char        *exception,
                                             const char        *message,
                                             const GraftPyExpr *at);
Value             *_graft_tracer_fail_at (Tracer             *t,
                                          const GraftPyExpr  *at,
                                          GraftParseErrorCode code,
                                          const char         *message);
const GraftPyExpr *_graft_tracer_span_expr (Tracer *t);
Value             *_graft_tracer_eval_in_builtins (Tracer *t, const GraftPyExpr *e);
extern const char  _graft_tracer_control_flow_reason[];
gboolean           _graft_tracer_too_deep (Tracer *t, guint32 start, guint32 end);

/* graft-tracer.c */
gboolean _graft_tracer_read_body (Tracer *t, const GraftPyStmt *def);

/* graft-tracer-eval.c */
typedef struct _Locals Locals;
Locals                *_graft_tracer_locals_begin (Tracer *t, Function *fn);
void                   _graft_tracer_locals_add (Tracer                *t,
                                                 Locals                *locals,
                                                 const GraftPyStmtList *stmts);
gboolean               _graft_tracer_locals_has (Tracer *t, Locals *locals, const char *name);
void                   _graft_tracer_locals_add_name (Locals *locals, const char *name);
Frame                 *_graft_tracer_frame_new (Tracer *t, Frame *parent, Frame *globals);
Value                 *_graft_tracer_eval (Tracer *t, Frame *frame, const GraftPyExpr *e);
gboolean               _graft_tracer_eval_defaults (Tracer                 *t,
                                                    Frame                  *frame,
                                                    const GraftPyArguments *params,
                                                    Function               *fn);

/* About how many lines the body of @def has, from its size in bytes (a
 * line of a long forward is about 40): room to make for the names it
 * binds, so that the scope need not grow again and again. */
static inline guint
_graft_tracer_body_lines (const GraftPyStmt *def)
{
  return def->end > def->start ? (def->end - def->start) / 32 : 0;
}

/* graft-tracer-node.c */
gboolean   _graft_tracer_append_proxy_repr (Tracer *t, GString *out, Value *proxy);
GraftNode *_graft_tracer_node_of (Tracer *t, Value *v);
gboolean   _graft_tracer_to_arg (Tracer *t, Value *v, GraftArg *out, const GraftPyExpr *at);
Value     *_graft_tracer_make_node_from (Tracer            *t,
                                         ArenaMark          mark,
                                         GraftOp            op,
                                         const char        *target,
                                         PtrVec            *args,
                                         StrMap            *kwargs,
                                         const char        *name,
                                         const GraftPyExpr *at);

/* The node of a direct record (_graft_tracer_record(), and its inline
 * form in graft-tracer-eval.c), the one place those ask core/ir for a
 * node: with Tracer.static_text (cleared), counted off Tracer.node_room
 * (which the caller found above 0, nothing made since), given @at's
 * span. */
static inline G_ALWAYS_INLINE GraftNode *
_graft_tracer_create_node (Tracer            *t,
                           GraftOp            op,
                           const char        *target,
                           const GraftArg    *args,
                           const char        *name,
                           const GraftPyExpr *at)
{
  GraftNode *node;

  node = _graft_graph_create_node_request (t->graph,
                                           &(GraftNodeRequest){ .op = op,
                                                                .target = target,
                                                                .args = args,
                                                                .name_candidate = name,
                                                                .static_text = t->static_text,
                                                                .span_start = at->start,
                                                                .span_end = at->end });
  t->static_text = FALSE;
  if (node != NULL)
    t->node_room--;
  return node;
}

Value *_graft_tracer_record (Tracer            *t,
                             GraftOp            op,
                             const char        *target,
                             GraftArg          *args,
                             const char        *name,
                             const GraftPyExpr *at);

/**
 * _graft_tracer_make_node:
 * @args: (element-type Value) (nullable): positional arguments
 * @kwargs: (nullable): keyword arguments
 * @name: (nullable): the name candidate, %NULL to derive it from @target
 *
 * torch.fx's `create_proxy`: converts the arguments (which may create
 * get_attr and getattr nodes first), then records the node
 * (_graft_tracer_make_node_from() from where the arena stands).
 *
 * Returns: (nullable): a proxy for the node
 */
static inline Value *
_graft_tracer_make_node (Tracer            *t,
                         GraftOp            op,
                         const char        *target,
                         PtrVec            *args,
                         StrMap            *kwargs,
                         const char        *name,
                         const GraftPyExpr *at)
{
  return _graft_tracer_make_node_from (t, _graft_tracer_mark (t), op, target, args, kwargs, name,
                                       at);
}

gboolean _graft_tracer_truth (Tracer *t, Value *v, const GraftPyExpr *at, gboolean *out);
Value   *_graft_tracer_iterate (Tracer *t, Value *v, const GraftPyExpr *at);

/* graft-tracer-module.c */
const char *_graft_tracer_join_path (Tracer *t, const char *base, const char *name);
Value      *_graft_tracer_class_lookup (Class *cls, const char *name, Class **out_owner);
Value      *_graft_tracer_getattr (Tracer *t, Value *obj, const char *name, const GraftPyExpr *at);
const char *_graft_tracer_proxy_object (const char *name);
gboolean    _graft_tracer_check_returned (Tracer *t, Value *v, const GraftPyExpr *at);
Value      *_graft_tracer_proxy_getattr_nul (Tracer     *t,
                                             Value      *proxy,
                                             const char *name,
                                             gsize       len);
gssize      _graft_tracer_attr_len (Tracer      *t,
                                    const Value *v);
gboolean    _graft_tracer_check_attr_name (Tracer     *t,
                                           const char *what,
                                           const char *name,
                                           gsize       len,
                                           guint32     start,
                                           guint32     end);
Value      *_graft_tracer_proxy_getattr (Tracer            *t,
                                         Value             *proxy,
                                         const char        *name,
                                         gboolean           stable,
                                         const GraftPyExpr *at);
gboolean    _graft_tracer_setattr (Tracer            *t,
                                   Value             *obj,
                                   const char        *name,
                                   Value             *value,
                                   const GraftPyExpr *at);
Value      *_graft_tracer_index_object (Tracer *t, Value *obj, Value *index, const GraftPyExpr *at);

/* What a name is on a constant tensor (_graft_tracer_tensor_attr_kind()). */
typedef enum {
  TENSOR_ATTR_NONE,
  TENSOR_ATTR_METHOD,
  TENSOR_ATTR_DATA,
} TensorAttrKind;

TensorAttrKind _graft_tracer_tensor_attr_kind (Tracer *t, const char *name);

/* graft-tracer-call.c */
gboolean _graft_tracer_proxy_member (const char *name);

Value  *_graft_tracer_new_object (Tracer *t, ObjectKind kind, const char *class_name);
Value **_graft_tracer_bind (Tracer                 *t,
                            const char             *fn_name,
                            const GraftPyArguments *params,
                            Value                 **defaults,
                            Value                 **kw_defaults,
                            PtrVec                 *args,
                            StrMap                 *kwargs,
                            const GraftPyExpr      *at);
Value  *_graft_tracer_call_function (Tracer            *t,
                                     Function          *fn,
                                     Value             *self,
                                     PtrVec            *args,
                                     StrMap            *kwargs,
                                     const GraftPyExpr *at);
Value  *_graft_tracer_instantiate (Tracer            *t,
                                   Class             *cls,
                                   PtrVec            *args,
                                   StrMap            *kwargs,
                                   const GraftPyExpr *at);
Value  *_graft_tracer_nn_settings_class (Tracer *t, const char *name);

/* graft-tracer-module.c */
Value *_graft_tracer_weight_norm (Tracer            *t,
                                  const char        *path,
                                  PtrVec            *args,
                                  StrMap            *kwargs,
                                  const GraftPyExpr *at);
Value *_graft_tracer_remove_weight_norm (Tracer            *t,
                                         const char        *path,
                                         PtrVec            *args,
                                         StrMap            *kwargs,
                                         const GraftPyExpr *at);

/* graft-tracer-module-checks.c */
Value   *_graft_tracer_check_define (Tracer     *t,
                                     const char *name);
gboolean _graft_tracer_check_nn_values (Tracer            *t,
                                        const char        *name,
                                        PtrVec            *args,
                                        StrMap            *kwargs,
                                        const GraftPyExpr *at);

/* graft-tracer-functools.c */
Value *_graft_tracer_functools_partial (Tracer            *t,
                                        PtrVec            *args,
                                        StrMap            *kwargs,
                                        const GraftPyExpr *at);
Value *_graft_tracer_call_partial (Tracer            *t,
                                   Object            *partial,
                                   PtrVec            *args,
                                   StrMap            *kwargs,
                                   const GraftPyExpr *at);

/* A loop over a generator of a module container (graft-tracer-node.c):
 * the container, and what each step gives of it: 0 the item as it is,
 * 'p' a ParameterList's `self[i]`, 'k', 'v', 'i' a ParameterDict's keys,
 * values, items; 'z' and 'e' a zip() or enumerate() of @parts; 'n' the
 * next item of the iterator @container; 'c' (an iterator's own lazy) a call
 * of @container until it returns @sentinel, `iter(callable, sentinel)`; 'u'
 * a loop's next item of such an iterator @container, whose steps are not
 * known before: @steps grows by one at each step it makes.  A zip() or
 * enumerate() with a 'u' part is such too: @steps, its list of raw items,
 * grows by one at each step, up to @len (the shortest other part's).
 * 'l' (an iterator's own lazy) a list's iterator, whose items are the list
 * itself, read by next() as it stands (@len: its length when the
 * iterator was made); 'R' reversed() of a list, the same from its last
 * item back (@len - 1 - pos is the next item's index).
 * 'r' a loop straight over `range(...)`: @len items, from @start by @step,
 * each made at its step (no list of them: _graft_tracer_loop_len() and
 * _graft_tracer_loop_raw()).  'G' (an iterator's own lazy) a generator
 * expression, which runs as far as its next item at each next() (@gen). */
typedef struct _LazyIter LazyIter;
typedef struct _GenExp   GenExp;
struct _LazyIter
{
  Value    *container;
  Value    *sentinel; /* 'c' */
  Value    *steps;    /* 'u'; 'z', 'e' with a 'u' part */
  char      what;
  LazyIter *parts; /* 'z', 'e': one per argument, in the arena */
  guint     n_parts;
  Value   **lists; /* 'z': the raw items of each argument */
  guint     len;   /* 'z': the steps (the shortest argument's length); 'r' */
  gint64    start; /* 'e': the first count; 'r' */
  gint64    step;  /* 'r' */
  /* An iterator's (VAL_ITER) type: `list_iterator`, `generator`, `zip` */
  const char *type_name;
  GenExp     *gen; /* 'G' (an iterator's own lazy): a generator expression's state */
  /* The dict or set a loop goes through (itself, or its keys(), values()
   * or items()), whose size Python's iterator checks at each step; only
   * _graft_tracer_loop_items() sets it. */
  Value *sized;
};
Value   *_graft_tracer_loop_items (Tracer            *t,
                                   Frame             *frame,
                                   const GraftPyExpr *iter,
                                   LazyIter          *out_lazy);
gboolean _graft_tracer_range_bounds (Tracer            *t,
                                     PtrVec            *args,
                                     const GraftPyExpr *at,
                                     gint64            *out_start,
                                     gint64            *out_step,
                                     guint             *out_len,
                                     gboolean           lazy);

/* The steps a loop over @items (_graft_tracer_loop_items()) has as its
 * list stands now. */
static inline guint
_graft_tracer_loop_len (const LazyIter *lazy,
                        const Value    *items)
{
  return lazy->what == 'r' ? lazy->len : items->seq.items->len;
}

/* The raw item of step @i of a loop over @items, for
 * _graft_tracer_loop_item(). */
static inline Value *
_graft_tracer_loop_raw (Tracer         *t,
                        const LazyIter *lazy,
                        const Value    *items,
                        guint           i)
{
  if (lazy->what == 'r')
    return _graft_value_int (t, lazy->start + (gint64) i * lazy->step);
  return items->seq.items->pdata[i];
}

Value   *_graft_tracer_loop_item (Tracer            *t,
                                  const LazyIter    *lazy,
                                  Value             *raw,
                                  const GraftPyExpr *at);
Value   *_graft_tracer_value_items (Tracer *t, Value *v, const GraftPyExpr *at, LazyIter *out_lazy);
gboolean _graft_value_is_class (const Value *v);
gboolean _graft_value_builtin_class (const char *name);

/* A builtin class of Python's (gen-python-builtins.py's GRAFT_PYTHON_CLASS
 * rows): for an exception class, how many arguments its call keeps as
 * BaseException's does (G_MAXINT: any; -1: Graft cannot make one), and
 * whether str() of one argument is its repr (KeyError). */
typedef struct
{
  const char *name;
  int         plain_args;
  int         key_text;
} PythonClass;

const PythonClass *_graft_tracer_python_class (Tracer *t, const char *name);

const char *_graft_tracer_builtin_exception (Tracer *t, const char *name);
gboolean    _graft_tracer_exception_printable (Tracer *t, const Value *args);
void        _graft_value_append_exception_text (GString     *out,
                                                const char  *cls,
                                                const Value *args,
                                                gboolean     repr);

gboolean _graft_tracer_exception_is (Tracer *t, const char *raised, const char *name);
Value   *_graft_tracer_file_exception_class (Tracer *t, const char *name);
Value   *_graft_tracer_new_exception (Tracer            *t,
                                      const char        *name,
                                      PtrVec            *args,
                                      StrMap            *kwargs,
                                      const GraftPyExpr *at);
gboolean _graft_tracer_check_printable (Tracer            *t,
                                        const Value       *v,
                                        const char        *what,
                                        const GraftPyExpr *at);
Value   *_graft_tracer_make_iter (Tracer *t, Value *v, const GraftPyExpr *at);
Value   *_graft_value_iter (Tracer *t, Value *items, LazyIter *lazy, const char *type_name);
Value   *_graft_tracer_iter_next (Tracer *t, Value *it, const GraftPyExpr *at, gboolean *out_done);
Value   *_graft_tracer_genexp_next (Tracer            *t,
                                    Value             *it,
                                    const GraftPyExpr *at,
                                    gboolean          *out_done);
gboolean _graft_tracer_loop_end (Tracer *t, const LazyIter *lazy, const GraftPyExpr *at);
gboolean _graft_tracer_loop_ran_out (const LazyIter *lazy);
gboolean _graft_tracer_loop_grew (Tracer            *t,
                                  const LazyIter    *lazy,
                                  guint              n_start,
                                  guint              i,
                                  const GraftPyExpr *at);
Value   *_graft_tracer_zip_items (Tracer *t, LazyIter *lazy);
Object  *_graft_tracer_leaf_model (Tracer *t, Object *leaf, const GraftPyExpr *at);
void     _graft_tracer_leaf_submodules (Tracer *t, Object *leaf, const GraftPyExpr *at);
Value   *_graft_tracer_leaf_tensor (Tracer *t, Object *leaf, const char *name, gboolean buffer);
Value   *_graft_tracer_call_leaf (Tracer            *t,
                                  Value             *module,
                                  PtrVec            *args,
                                  StrMap            *kwargs,
                                  const GraftPyExpr *at);
Value   *_graft_tracer_call (Tracer            *t,
                             Value             *callee,
                             PtrVec            *args,
                             StrMap            *kwargs,
                             const GraftPyExpr *at);

/* graft-tracer-shapes.c, -layouts.c, -dtypes.c, -indexing.c and
 * -tensor-functions.c: what ops on constant tensors make. */
Value   *_graft_tracer_binop_tensor (Tracer            *t,
                                     int                op,
                                     const Value       *a,
                                     const Value       *b,
                                     const GraftPyExpr *at);
Value   *_graft_tracer_tensor_method_result (Tracer            *t,
                                             Value             *recv,
                                             const char        *name,
                                             PtrVec            *args,
                                             StrMap            *kwargs,
                                             const GraftPyExpr *at);
gboolean _graft_tracer_tensor_inplace_fits (Tracer            *t,
                                            int                op,
                                            const Value       *a,
                                            const Value       *b,
                                            const GraftPyExpr *at);
gboolean _graft_tracer_tensor_inplace_method (Tracer            *t,
                                              Value             *recv,
                                              const char        *name,
                                              PtrVec            *args,
                                              StrMap            *kwargs,
                                              const GraftPyExpr *at);
Value   *_graft_tracer_tensor_attribute (Tracer *t, Value *recv, const char *name);
Value   *_graft_tracer_tensor_layout_method (Tracer     *t,
                                             Value      *recv,
                                             const char *name,
                                             PtrVec     *args,
                                             StrMap     *kwargs);
Value   *_graft_tracer_index_tensor (Tracer            *t,
                                     Value             *tensor,
                                     Value             *index,
                                     const GraftPyExpr *at);
gboolean _graft_tracer_tensor_setitem (Tracer            *t,
                                       Value             *tensor,
                                       Value             *index,
                                       Value             *value,
                                       const GraftPyExpr *at);
Value   *_graft_tracer_function_tensor (Tracer            *t,
                                        const char        *path,
                                        PtrVec            *args,
                                        StrMap            *kwargs,
                                        const GraftPyExpr *at);

/* graft-tracer-sets.c: set and frozenset. */
Value   *_graft_value_set (Tracer *t, gboolean frozen);
gboolean _graft_set_has (const Value *set, const Value *item);
gboolean _graft_set_add (Tracer *t, Value *set, Value *item, const GraftPyExpr *at);
gboolean _graft_set_order_known (const Value *set);
void     _graft_set_assign (Value *set, const Value *from);
Value   *_graft_set_nth (const Value *set, guint i);
Value   *_graft_set_items (Tracer *t, const Value *set, gboolean ordered, const GraftPyExpr *at);
Value   *_graft_tracer_make_set (Tracer            *t,
                                 const char        *name,
                                 PtrVec            *args,
                                 StrMap            *kwargs,
                                 const GraftPyExpr *at);
Value   *_graft_tracer_set_binop (Tracer *t, GraftPyBinOp op, const Value *a, const Value *b);
gboolean _graft_tracer_set_compare (GraftPyCmpOp op, const Value *a, const Value *b);
Value   *_graft_tracer_set_method (Tracer            *t,
                                   Value             *recv,
                                   const char        *name,
                                   PtrVec            *args,
                                   StrMap            *kwargs,
                                   const GraftPyExpr *at);

/* graft-tracer-dataclass.c: @dataclass classes. */
typedef struct _DataclassField DataclassField;

Value        *_graft_tracer_dataclass_field (Tracer            *t,
                                             PtrVec            *args,
                                             StrMap            *kwargs,
                                             const GraftPyExpr *at);
gboolean      _graft_tracer_dataclass_decorator (Tracer            *t,
                                                 Frame             *frame,
                                                 const GraftPyExpr *decorator);
gboolean      _graft_tracer_dataclass_apply (Tracer            *t,
                                             Frame             *frame,
                                             Class             *cls,
                                             const GraftPyExpr *decorator);
Value        *_graft_tracer_dataclass_init (Tracer            *t,
                                            Class             *owner,
                                            Value             *self,
                                            PtrVec            *args,
                                            StrMap            *kwargs,
                                            const GraftPyExpr *at);
const PtrVec *_graft_dataclass_repr_fields (const Value *v);
const char   *_graft_dataclass_field_name (gconstpointer field);
gboolean      _graft_dataclass_field_in_repr (gconstpointer field);
Value        *_graft_tracer_dataclass_function (Tracer            *t,
                                                const char        *name,
                                                PtrVec            *args,
                                                StrMap            *kwargs,
                                                const GraftPyExpr *at);
gboolean      _graft_dataclass_equal (const Value *a, const Value *b, gboolean *out);
const Value  *_graft_value_user_eq (const Value *v, gboolean *nan);
gboolean      _graft_dataclass_frozen (const Value *obj, const char *name);

/* graft-tracer-stmt.c */
gboolean _graft_tracer_assign (Tracer *t, Frame *frame, const GraftPyExpr *target, Value *value);
gboolean _graft_tracer_contains_yield (const GraftPyStmtList *body);
Flow     _graft_tracer_exec_stmt (Tracer            *t,
                                  Frame             *frame,
                                  const GraftPyStmt *s,
                                  Value            **out_return);
Flow     _graft_tracer_exec_assign_name (Tracer *t, Frame *frame, const GraftPyStmt *s);
gboolean _graft_tracer_declare_names (Tracer *t, Frame *frame, const GraftPyStmt *s);
gboolean _graft_tracer_check_declarations (Tracer *t, const GraftPyStmtList *body);
gboolean _graft_tracer_check_streamed_declarations (Tracer                *t,
                                                    const GraftPyStmt     *def,
                                                    const GraftPyStmtList *stmts);
Value   *_graft_tracer_type_of (Tracer *t, Value *v, const GraftPyExpr *at);
gboolean _graft_tracer_dict_update (Tracer            *t,
                                    Value             *dict,
                                    Value             *from,
                                    const GraftPyExpr *at);

/* The frame @frame's name @name binds in: its own, or the one a `global`
 * or `nonlocal` of @frame sent it to. */
static inline Frame *
_graft_tracer_binding_frame (Frame      *frame,
                             const char *name)
{
  Frame *to;

  if (G_LIKELY (frame->declared == NULL) ||
      (to = g_hash_table_lookup (frame->declared, name)) == NULL)
    return frame;
  return to;
}
Flow _graft_tracer_exec_block (Tracer                *t,
                               Frame                 *frame,
                               const GraftPyStmtList *body,
                               Value                **out_return);

/* graft-tracer-ops.c: `operator.add` and the like, by GraftPyBinOp
 * (literals: static text). */
extern const char *const _graft_tracer_binop_targets[];

/* graft-tracer-ops.c */
Value *_graft_tracer_binop (Tracer *t, GraftPyBinOp op, Value *a, Value *b, const GraftPyExpr *at);
Value *_graft_tracer_binop_as (Tracer            *t,
                               GraftPyBinOp       op,
                               Value             *a,
                               Value             *b,
                               const char        *python_op,
                               const GraftPyExpr *at);
Value *_graft_tracer_inplace_binop (Tracer            *t,
                                    GraftPyBinOp       op,
                                    Value             *a,
                                    Value             *b,
                                    const GraftPyExpr *at);
Value *_graft_tracer_unary (Tracer *t, GraftPyUnaryOp op, Value *a, const GraftPyExpr *at);
Value *_graft_tracer_compare (Tracer            *t,
                              GraftPyCmpOp       op,
                              Value             *a,
                              Value             *b,
                              const GraftPyExpr *at);
Value *_graft_tracer_subscript (Tracer *t, Value *obj, Value *index, const GraftPyExpr *at);

/* graft-tracer-builtins.c */
Value   *_graft_tracer_lookup_builtin (Tracer *t, const char *name);
Value   *_graft_tracer_call_builtin (Tracer            *t,
                                     const char        *name,
                                     PtrVec            *args,
                                     StrMap            *kwargs,
                                     const GraftPyExpr *at);
gboolean _graft_tracer_check_arity (Tracer            *t,
                                    const char        *name,
                                    PtrVec            *args,
                                    guint              min,
                                    guint              max,
                                    const GraftPyExpr *at);
gboolean _graft_tracer_get_int (Tracer *t, Value *v, gint64 *out, const GraftPyExpr *at);
Value   *_graft_tracer_proxy_needs_value (Tracer *t, const char *what, const GraftPyExpr *at);

/* The arguments of a call to a builtin or a method. */
static inline guint
_graft_tracer_n_args (PtrVec *args)
{
  return args != NULL ? args->len : 0;
}

/* The i-th argument, or None when there is none (check _graft_tracer_n_args()
 * first where absence matters). */
static inline Value *
_graft_tracer_arg (PtrVec *args,
                   guint   i)
{
  return args != NULL && i < args->len ? args->pdata[i] : _graft_value_none ();
}

/* The i-th argument, or NULL when there is none. */
static inline Value *
_graft_tracer_opt_arg (PtrVec *args,
                       guint   i)
{
  return args != NULL && i < args->len ? args->pdata[i] : NULL;
}

/* graft-tracer-methods.c */
Value   *_graft_tracer_call_method (Tracer            *t,
                                    Value             *recv,
                                    const char        *name,
                                    PtrVec            *args,
                                    StrMap            *kwargs,
                                    const GraftPyExpr *at);
gboolean _graft_tracer_has_method (const Value *recv, const char *name);

/* graft-tracer-bigint.c */
gboolean _graft_value_is_bigint (const Value *v);
gboolean _graft_bigint_to_double (const Value *v, double *out);
Value   *_graft_tracer_bigint_binop (Tracer            *t,
                                     GraftPyBinOp       op,
                                     Value             *a,
                                     Value             *b,
                                     const GraftPyExpr *at);
gboolean _graft_tracer_bigint_compare (const Value *a, const Value *b, int *out);
Value   *_graft_tracer_bigint_negate (Tracer *t, Value *v, gboolean neg, const GraftPyExpr *at);

/* graft-tracer-types.c */
Value      *_graft_tracer_type_subscript (Tracer            *t,
                                          Value             *obj,
                                          Value             *index,
                                          const GraftPyExpr *at);
Value      *_graft_tracer_type_or (Tracer *t, Value *a, Value *b, const GraftPyExpr *at);
const char *_graft_tracer_type_repr (Tracer *t, Value *v, const GraftPyExpr *at);

/* graft-tracer-torch.c */
Value   *_graft_tracer_torch_attr (Tracer *t, const char *path, const GraftPyExpr *at);
gboolean _graft_tracer_module_lacks (Tracer *t, const char *module, const char *name);
gboolean _graft_tracer_module_listed (Tracer *t, const char *module);
gboolean _graft_tracer_module_unimported (Tracer *t, const char *module, const char *name);
void     _graft_tracer_note_import (Tracer *t, const char *path);
Value   *_graft_tracer_call_path (Tracer            *t,
                                  const char        *path,
                                  PtrVec            *args,
                                  StrMap            *kwargs,
                                  const GraftPyExpr *at);
Value   *_graft_tracer_call_path_value (Tracer            *t,
                                        Value             *callee,
                                        PtrVec            *args,
                                        StrMap            *kwargs,
                                        const GraftPyExpr *at);
gboolean _graft_tracer_path_takes_keywords (Tracer *t,
                                            Value  *callee);
Value   *_graft_tracer_call_path_direct (Tracer            *t,
                                         Value             *callee,
                                         PtrVec            *args,
                                         gboolean           proxies,
                                         StrMap            *kwargs,
                                         const GraftPyExpr *at,
                                         gboolean          *out_handled);
Value   *_graft_tracer_new_nn (Tracer            *t,
                               const char        *path,
                               PtrVec            *args,
                               StrMap            *kwargs,
                               const GraftPyExpr *at);

G_END_DECLS
