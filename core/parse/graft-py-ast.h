/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-py-ast.h: the syntax tree of a Python module, shaped after Python's
 * own `ast` module.  Nodes are plain structs that the tracer reads directly.
 * Every node, child array, name and decoded literal lives in one arena owned
 * by a GraftPyModule, so the whole tree is freed in one call and nothing in
 * it is freed on its own.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

typedef struct _GraftPyModule GraftPyModule;
typedef struct _GraftPyExpr   GraftPyExpr;
typedef struct _GraftPyStmt   GraftPyStmt;

#if defined(GRAFT_COMPILATION)
/* The prefix of the names a `match` statement's tests call (`match builtin
 * isinstance`): no program can write or bind one, and the tracer reads it
 * as the builtin named after the prefix, as Python's match does whatever
 * the program binds to `isinstance` or `len`. */
#define GRAFT_PY_MATCH_BUILTIN "match builtin "
#endif

/* A function body the parser has not read yet (graft-py-parser.c). */
typedef struct _GraftPyDeferredBody GraftPyDeferredBody;

/**
 * GraftPyExprKind:
 *
 * The kind of an expression node; each names the Python `ast` class it
 * mirrors and the union member of #GraftPyExpr that holds its fields.
 */
typedef enum {
  GRAFT_PY_EXPR_NAME,            /* name */
  GRAFT_PY_EXPR_CONSTANT,        /* constant */
  GRAFT_PY_EXPR_JOINED_STR,      /* joined_str: an f-string */
  GRAFT_PY_EXPR_FORMATTED_VALUE, /* formatted_value: one `{...}` field */
  GRAFT_PY_EXPR_ATTRIBUTE,       /* attribute */
  GRAFT_PY_EXPR_SUBSCRIPT,       /* subscript */
  GRAFT_PY_EXPR_SLICE,           /* slice */
  GRAFT_PY_EXPR_CALL,            /* call */
  GRAFT_PY_EXPR_BIN_OP,          /* bin_op */
  GRAFT_PY_EXPR_UNARY_OP,        /* unary_op */
  GRAFT_PY_EXPR_BOOL_OP,         /* bool_op */
  GRAFT_PY_EXPR_COMPARE,         /* compare */
  GRAFT_PY_EXPR_IF_EXP,          /* if_exp */
  GRAFT_PY_EXPR_LAMBDA,          /* lambda */
  GRAFT_PY_EXPR_TUPLE,           /* sequence */
  GRAFT_PY_EXPR_LIST,            /* sequence */
  GRAFT_PY_EXPR_SET,             /* sequence */
  GRAFT_PY_EXPR_DICT,            /* dict */
  GRAFT_PY_EXPR_LIST_COMP,       /* comp */
  GRAFT_PY_EXPR_SET_COMP,        /* comp */
  GRAFT_PY_EXPR_DICT_COMP,       /* comp */
  GRAFT_PY_EXPR_GENERATOR_EXP,   /* comp */
  GRAFT_PY_EXPR_STARRED,         /* starred */
  GRAFT_PY_EXPR_NAMED_EXPR,      /* named_expr */
  GRAFT_PY_EXPR_YIELD,           /* value (nullable) */
  GRAFT_PY_EXPR_YIELD_FROM,      /* value */
  GRAFT_PY_EXPR_AWAIT,           /* value */
} GraftPyExprKind;

/**
 * GraftPyExprContext:
 *
 * How a Name, Attribute, Subscript, Starred, Tuple or List is used: read,
 * assigned to (assignment and `for` targets, `as` names of `with`) or deleted.
 */
typedef enum {
  GRAFT_PY_CTX_LOAD,
  GRAFT_PY_CTX_STORE,
  GRAFT_PY_CTX_DEL,
} GraftPyExprContext;

typedef enum {
  GRAFT_PY_BIN_ADD,
  GRAFT_PY_BIN_SUB,
  GRAFT_PY_BIN_MUL,
  GRAFT_PY_BIN_MATMUL,
  GRAFT_PY_BIN_TRUEDIV,
  GRAFT_PY_BIN_FLOORDIV,
  GRAFT_PY_BIN_MOD,
  GRAFT_PY_BIN_POW,
  GRAFT_PY_BIN_LSHIFT,
  GRAFT_PY_BIN_RSHIFT,
  GRAFT_PY_BIN_BITOR,
  GRAFT_PY_BIN_BITXOR,
  GRAFT_PY_BIN_BITAND,
} GraftPyBinOp;

typedef enum {
  GRAFT_PY_UNARY_NEG,
  GRAFT_PY_UNARY_POS,
  GRAFT_PY_UNARY_INVERT,
  GRAFT_PY_UNARY_NOT,
} GraftPyUnaryOp;

typedef enum {
  GRAFT_PY_BOOL_AND,
  GRAFT_PY_BOOL_OR,
} GraftPyBoolOp;

typedef enum {
  GRAFT_PY_CMP_EQ,
  GRAFT_PY_CMP_NOT_EQ,
  GRAFT_PY_CMP_LT,
  GRAFT_PY_CMP_LT_E,
  GRAFT_PY_CMP_GT,
  GRAFT_PY_CMP_GT_E,
  GRAFT_PY_CMP_IS,
  GRAFT_PY_CMP_IS_NOT,
  GRAFT_PY_CMP_IN,
  GRAFT_PY_CMP_NOT_IN,
} GraftPyCmpOp;

typedef enum {
  GRAFT_PY_CONST_NONE,
  GRAFT_PY_CONST_BOOL,
  GRAFT_PY_CONST_ELLIPSIS,
  GRAFT_PY_CONST_INT,
  GRAFT_PY_CONST_FLOAT,
  GRAFT_PY_CONST_IMAGINARY,
  GRAFT_PY_CONST_STR,
  GRAFT_PY_CONST_BYTES,
  GRAFT_PY_CONST_BIGINT,
} GraftPyConstKind;

/* An array of expressions (items may be NULL only where documented). */
typedef struct
{
  GraftPyExpr **items;
  guint         len;
} GraftPyExprList;

typedef struct
{
  GraftPyStmt **items;
  guint         len;
} GraftPyStmtList;

/* A keyword argument `name=value`, or `**value` when @name is NULL. */
typedef struct
{
  guint32      start;
  guint32      end;
  const char  *name;
  GraftPyExpr *value;
} GraftPyKeyword;

/* One `for target in iter if ...` clause of a comprehension. */
typedef struct
{
  guint32         start;
  guint32         end;
  GraftPyExpr    *target;
  GraftPyExpr    *iter;
  GraftPyExprList ifs;
  gboolean        is_async;
} GraftPyComprehension;

/* A parameter of a def or lambda. */
typedef struct
{
  guint32      start;
  guint32      end;
  const char  *name;
  GraftPyExpr *annotation;    /* nullable */
  GraftPyExpr *default_value; /* nullable */
} GraftPyArg;

/* The parameters of a def or lambda, in Python's order:
 * `posonly, /, args, *vararg, kwonly, **kwarg`. */
typedef struct
{
  GraftPyArg **posonly;
  guint        n_posonly;
  GraftPyArg **args;
  guint        n_args;
  GraftPyArg  *vararg; /* nullable */
  GraftPyArg **kwonly;
  guint        n_kwonly;
  GraftPyArg  *kwarg; /* nullable */
} GraftPyArguments;

/**
 * GraftPyExpr:
 * @kind: selects the union member (see #GraftPyExprKind)
 * @start: byte offset of the first byte of the expression in the source
 * @end: byte offset just past its last byte
 *
 * An expression.  Names and strings are NUL-terminated and owned by the
 * module, like the nodes.
 */
struct _GraftPyExpr
{
  GraftPyExprKind kind;
  guint32         start;
  guint32         end;
  /* 1 + the offset of the outermost parentheses that enclose the
   * expression alone, 0 for none: a node that opens with it opens there,
   * as Python's spans count them (`(x + 1).foo` starts at its `(`), while
   * the expression's own span leaves them out
   * (graft_py_expr_get_outer_start()) */
  guint32 paren_start;
  union
  {
    struct
    {
      const char        *id;
      GraftPyExprContext ctx;
    } name;
    struct
    {
      GraftPyConstKind kind;
      union
      {
        gboolean bool_value;  /* BOOL */
        gint64   int_value;   /* INT */
        double   float_value; /* FLOAT; the imaginary part for IMAGINARY */
        struct
        {
          const char *str; /* STR (UTF-8) and BYTES, NUL-terminated */
          gsize       len; /* bytes in @str, without the NUL */
        };
      };
    } constant;
    struct
    {
      /* Constant STR parts (adjacent ones merged) and FormattedValue parts */
      GraftPyExprList values;
    } joined_str;
    struct
    {
      GraftPyExpr *value;
      int          conversion;  /* -1, 's', 'r' or 'a' */
      GraftPyExpr *format_spec; /* a JoinedStr, nullable */
    } formatted_value;
    struct
    {
      GraftPyExpr       *value;
      const char        *attr;
      GraftPyExprContext ctx;
    } attribute;
    struct
    {
      GraftPyExpr       *value;
      GraftPyExpr       *slice; /* a Slice, a Tuple (`a[1:2, 3]`) or any expression */
      GraftPyExprContext ctx;
    } subscript;
    struct
    {
      GraftPyExpr *lower; /* each nullable */
      GraftPyExpr *upper;
      GraftPyExpr *step;
    } slice;
    struct
    {
      GraftPyExpr     *func;
      GraftPyExprList  args; /* may hold Starred */
      GraftPyKeyword **keywords;
      guint            n_keywords;
    } call;
    struct
    {
      GraftPyBinOp op;
      GraftPyExpr *left;
      GraftPyExpr *right;
    } bin_op;
    struct
    {
      GraftPyUnaryOp op;
      GraftPyExpr   *operand;
    } unary_op;
    struct
    {
      GraftPyBoolOp   op;
      GraftPyExprList values; /* two or more */
    } bool_op;
    struct
    {
      GraftPyExpr    *left;
      GraftPyCmpOp   *ops; /* comparators.len of them */
      GraftPyExprList comparators;
    } compare;
    struct
    {
      GraftPyExpr *test;
      GraftPyExpr *body;
      GraftPyExpr *orelse;
    } if_exp;
    struct
    {
      GraftPyArguments *args;
      GraftPyExpr      *body;
    } lambda;
    struct
    {
      GraftPyExprList    elts;
      GraftPyExprContext ctx; /* Tuple and List */
    } sequence;
    struct
    {
      GraftPyExprList keys; /* a NULL key marks `**value` */
      GraftPyExprList values;
    } dict;
    struct
    {
      GraftPyExpr           *elt;   /* the key for DictComp */
      GraftPyExpr           *value; /* DictComp only */
      GraftPyComprehension **generators;
      guint                  n_generators;
    } comp;
    struct
    {
      GraftPyExpr       *value;
      GraftPyExprContext ctx;
    } starred;
    struct
    {
      GraftPyExpr *target; /* a Name */
      GraftPyExpr *value;
    } named_expr;
    GraftPyExpr *value; /* Yield, YieldFrom, Await */
  };
};

/* Where a node that opens with @e opens: its parentheses, if any. */
static inline guint32
graft_py_expr_get_outer_start (const GraftPyExpr *e)
{
  return e->paren_start != 0 ? e->paren_start - 1 : e->start;
}

/**
 * GraftPyStmtKind:
 *
 * The kind of a statement node and the union member of #GraftPyStmt that
 * holds its fields.
 */
typedef enum {
  GRAFT_PY_STMT_EXPR,       /* expr */
  GRAFT_PY_STMT_ASSIGN,     /* assign */
  GRAFT_PY_STMT_AUG_ASSIGN, /* aug_assign */
  GRAFT_PY_STMT_ANN_ASSIGN, /* ann_assign */
  GRAFT_PY_STMT_RETURN,     /* ret */
  GRAFT_PY_STMT_PASS,
  GRAFT_PY_STMT_BREAK,
  GRAFT_PY_STMT_CONTINUE,
  GRAFT_PY_STMT_IF,           /* if_stmt: `elif` is an If alone in orelse */
  GRAFT_PY_STMT_FOR,          /* for_stmt */
  GRAFT_PY_STMT_WHILE,        /* while_stmt */
  GRAFT_PY_STMT_WITH,         /* with_stmt */
  GRAFT_PY_STMT_ASSERT,       /* assert_stmt */
  GRAFT_PY_STMT_RAISE,        /* raise_stmt */
  GRAFT_PY_STMT_DELETE,       /* delete_stmt */
  GRAFT_PY_STMT_GLOBAL,       /* names */
  GRAFT_PY_STMT_NONLOCAL,     /* names */
  GRAFT_PY_STMT_TRY,          /* try_stmt */
  GRAFT_PY_STMT_IMPORT,       /* import */
  GRAFT_PY_STMT_IMPORT_FROM,  /* import_from */
  GRAFT_PY_STMT_FUNCTION_DEF, /* function_def */
  GRAFT_PY_STMT_CLASS_DEF,    /* class_def */
} GraftPyStmtKind;

/* A name of an import: `name as asname`.  @name is dotted (`a.b.c`) in
 * `import`, and `*` for `from m import *`. */
typedef struct
{
  guint32     start;
  guint32     end;
  const char *name;
  const char *asname; /* nullable */
} GraftPyAlias;

typedef struct
{
  guint32      start;
  guint32      end;
  GraftPyExpr *context_expr;
  GraftPyExpr *optional_vars; /* the `as` target, nullable */
} GraftPyWithItem;

typedef struct
{
  guint32         start;
  guint32         end;
  GraftPyExpr    *type; /* nullable for a bare `except:` */
  const char     *name; /* nullable */
  GraftPyStmtList body;
} GraftPyExceptHandler;

/**
 * GraftPyStmt:
 * @kind: selects the union member (see #GraftPyStmtKind)
 * @start: byte offset of the first byte of the statement (of its first
 *   decorator for a decorated def or class)
 * @end: byte offset just past its last byte (the end of its last statement
 *   for a compound statement)
 */
struct _GraftPyStmt
{
  GraftPyStmtKind kind;
  guint32         start;
  guint32         end;
  union
  {
    struct
    {
      GraftPyExpr *value;
    } expr;
    struct
    {
      GraftPyExprList targets; /* `a = b = c` has two */
      GraftPyExpr    *value;
    } assign;
    struct
    {
      GraftPyExpr *target;
      GraftPyBinOp op;
      GraftPyExpr *value;
    } aug_assign;
    struct
    {
      GraftPyExpr *target;
      GraftPyExpr *annotation;
      GraftPyExpr *value;  /* nullable */
      gboolean     simple; /* a bare name, not parenthesized */
    } ann_assign;
    struct
    {
      GraftPyExpr *value; /* nullable */
    } ret;
    struct
    {
      GraftPyExpr    *test;
      GraftPyStmtList body;
      GraftPyStmtList orelse;
    } if_stmt;
    struct
    {
      GraftPyExpr    *target;
      GraftPyExpr    *iter;
      GraftPyStmtList body;
      GraftPyStmtList orelse;
      gboolean        is_async;
    } for_stmt;
    struct
    {
      GraftPyExpr    *test;
      GraftPyStmtList body;
      GraftPyStmtList orelse;
    } while_stmt;
    struct
    {
      GraftPyWithItem **items;
      guint             n_items;
      GraftPyStmtList   body;
      gboolean          is_async;
    } with_stmt;
    struct
    {
      GraftPyExpr *test;
      GraftPyExpr *msg; /* nullable */
    } assert_stmt;
    struct
    {
      GraftPyExpr *exc;   /* nullable */
      GraftPyExpr *cause; /* nullable */
    } raise_stmt;
    struct
    {
      GraftPyExprList targets;
    } delete_stmt;
    struct
    {
      const char **names;
      guint        n_names;
    } names;
    struct
    {
      GraftPyStmtList        body;
      GraftPyExceptHandler **handlers;
      guint                  n_handlers;
      GraftPyStmtList        orelse;
      GraftPyStmtList        finalbody;
      gboolean               is_star; /* `except*` */
    } try_stmt;
    struct
    {
      GraftPyAlias **names;
      guint          n_names;
    } import;
    struct
    {
      const char    *module; /* nullable: `from . import x` */
      guint          level;  /* leading dots */
      GraftPyAlias **names;
      guint          n_names;
    } import_from;
    struct
    {
      const char       *name;
      GraftPyExprList   decorators;
      GraftPyArguments *args;
      GraftPyExpr      *returns; /* nullable */
      GraftPyStmtList   body;    /* a docstring is the first Expr */
      gboolean          is_async;
      /* Inside a class, a private @name (`__f`) is bound mangled, as
       * `_C__f`: @name is then the end of that mangled string, which
       * starts @private_prefix bytes before it (0 when not mangled).
       * graft_py_stmt_get_bound_name() gives it. */
      guint32 private_prefix;
      /* Not NULL while @body is still to be read: graft_py_parse_deferring() */
      GraftPyDeferredBody *deferred;
    } function_def;
    struct
    {
      const char      *name;
      GraftPyExprList  decorators;
      GraftPyExprList  bases;
      GraftPyKeyword **keywords;
      guint            n_keywords;
      guint32          private_prefix; /* as function_def's */
      GraftPyStmtList  body;
    } class_def;
  };
};

GraftPyModule         *graft_py_module_new (GraftSource *source) G_GNUC_WARN_UNUSED_RESULT;
void                   graft_py_module_free (GraftPyModule *self);
GraftSource           *graft_py_module_get_source (GraftPyModule *self);
const GraftPyStmtList *graft_py_module_get_body (GraftPyModule *self);
void                   graft_py_module_set_body (GraftPyModule  *self,
                                                 GraftPyStmtList body);
gpointer               graft_py_module_alloc (GraftPyModule *self,
                                              gsize          size);
const char            *graft_py_module_strndup (GraftPyModule *self,
                                                const char    *str,
                                                gsize          len);
const char            *graft_py_module_intern (GraftPyModule *self,
                                               const char    *str,
                                               gsize          len);
void                   graft_py_module_begin_transient (GraftPyModule *self);
void                   graft_py_module_pin_transient (GraftPyModule *self);
void                   graft_py_module_release_transient (GraftPyModule *self);
void                   graft_py_module_end_transient (GraftPyModule *self);
GraftPyExpr           *graft_py_expr_new (GraftPyModule  *self,
                                          GraftPyExprKind kind,
                                          gsize           start,
                                          gsize           end);
GraftPyStmt           *graft_py_stmt_new (GraftPyModule  *self,
                                          GraftPyStmtKind kind,
                                          gsize           start,
                                          gsize           end);

gboolean               graft_py_module_locate_similar_definition (GraftPyModule *self,
                                                                  const char    *name,
                                                                  gsize         *out_start,
                                                                  gsize         *out_end);
gboolean               graft_py_module_locate_closest_definition (GraftPyModule *self,
                                                                  const char    *name,
                                                                  gsize         *out_start,
                                                                  gsize         *out_end);
char                  *graft_py_module_dup_definition_names (GraftPyModule *self);
const char            *graft_py_stmt_get_definition_name (const GraftPyStmt *stmt);
const char            *graft_py_stmt_get_bound_name (const GraftPyStmt *stmt);
const GraftPyStmtList *graft_py_stmt_get_block (const GraftPyStmt *stmt,
                                                guint              i);

const char *graft_py_bin_op_to_string (GraftPyBinOp op);
const char *graft_py_unary_op_to_string (GraftPyUnaryOp op);
const char *graft_py_cmp_op_to_string (GraftPyCmpOp op);

void graft_py_ast_dump (GraftPyModule *module,
                        GString       *out);
void graft_py_ast_dump_expr (const GraftPyExpr *expr,
                             GString           *out);
void graft_py_ast_dump_stmt (const GraftPyStmt *stmt,
                             GString           *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftPyModule, graft_py_module_free)

G_END_DECLS
