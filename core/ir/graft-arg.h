/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-arg.h: node arguments and literals as one tagged value.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

/**
 * GraftArgKind:
 * @GRAFT_ARG_NONE: `None`
 * @GRAFT_ARG_ELLIPSIS: `...`
 * @GRAFT_ARG_BOOL: `True` / `False` (in `b`)
 * @GRAFT_ARG_INT: a 64-bit int (in `i`)
 * @GRAFT_ARG_FLOAT: a float (in `f`)
 * @GRAFT_ARG_COMPLEX: a complex number (`c[0]` real, `c[1]` imaginary)
 * @GRAFT_ARG_STR: a string (`s`, `n` bytes, may hold NUL bytes)
 * @GRAFT_ARG_SYMBOL: a named constant printed by name, such as
 *   `torch.float32` or `torch.contiguous_format` (`s`)
 * @GRAFT_ARG_DEVICE: a `torch.device`; `s` is its str form (`cpu`, `cuda:0`)
 * @GRAFT_ARG_NODE: a reference to a node (`node`, borrowed)
 * @GRAFT_ARG_TUPLE: `n` items
 * @GRAFT_ARG_LIST: `n` items
 * @GRAFT_ARG_DICT: `n` entries stored as `2n` items: key, value, key, value
 * @GRAFT_ARG_SLICE: 3 items: start, stop, step
 */
typedef enum {
  GRAFT_ARG_NONE,
  GRAFT_ARG_ELLIPSIS,
  GRAFT_ARG_BOOL,
  GRAFT_ARG_INT,
  GRAFT_ARG_FLOAT,
  GRAFT_ARG_COMPLEX,
  GRAFT_ARG_STR,
  GRAFT_ARG_SYMBOL,
  GRAFT_ARG_DEVICE,
  GRAFT_ARG_NODE,
  GRAFT_ARG_TUPLE,
  GRAFT_ARG_LIST,
  GRAFT_ARG_DICT,
  GRAFT_ARG_SLICE,
} GraftArgKind;

/* An argument value.  It is small (24 bytes) and usually lives inline in a
 * node or in a container's item array; containers own their items, strings
 * own their bytes, and a node reference is borrowed from the graph. */
struct _GraftArg
{
  GraftArgKind kind;
  guint32      n;
  union
  {
    gboolean   b;
    gint64     i;
    double     f;
    char      *s;
    GraftNode *node;
    GraftArg  *items;
    double    *c; /* GRAFT_ARG_COMPLEX: owned {real, imag} */
  };
};

/**
 * GraftReprStyle:
 * @GRAFT_REPR_CODE: Python's `repr`, as generated code prints values
 * @GRAFT_REPR_LISTING: torch.fx's `_format_arg`, as `print(graph)` prints
 *   them (nodes as `%name`, strings unquoted, dict keys bare)
 */
typedef enum {
  GRAFT_REPR_CODE,
  GRAFT_REPR_LISTING,
} GraftReprStyle;

typedef const char *(*GraftNodeNameFunc) (GraftNode *node,
                                          gpointer   user_data);

void        graft_arg_init_none (GraftArg *arg);
void        graft_arg_init_ellipsis (GraftArg *arg);
void        graft_arg_init_bool (GraftArg *arg,
                                 gboolean  value);
void        graft_arg_init_int (GraftArg *arg,
                                gint64    value);
void        graft_arg_init_float (GraftArg *arg,
                                  double    value);
void        graft_arg_init_complex (GraftArg *arg,
                                    double    real,
                                    double    imag);
void        graft_arg_init_str (GraftArg   *arg,
                                const char *value,
                                gssize      length);
void        graft_arg_init_symbol (GraftArg   *arg,
                                   const char *name);
void        graft_arg_init_device (GraftArg   *arg,
                                   const char *str_form);
void        graft_arg_init_node (GraftArg  *arg,
                                 GraftNode *node);
void        graft_arg_init_seq (GraftArg    *arg,
                                GraftArgKind kind,
                                guint        n_items);
void        graft_arg_init_dict (GraftArg *arg,
                                 guint     n_entries);
void        graft_arg_init_slice (GraftArg *arg);
void        graft_arg_copy (GraftArg       *dest,
                            const GraftArg *src);
void        graft_arg_clear (GraftArg *arg);
gboolean    graft_arg_equal (const GraftArg *a,
                             const GraftArg *b);
gboolean    graft_arg_python_equal (const GraftArg *a,
                                    const GraftArg *b);
gboolean    graft_arg_has_node (const GraftArg *arg);
double      graft_arg_shared_nan (void);
gboolean    graft_arg_is_container (const GraftArg *arg);
guint       graft_arg_count_items (const GraftArg *arg);
void        graft_arg_append_repr (GString          *out,
                                   const GraftArg   *arg,
                                   GraftReprStyle    style,
                                   GraftNodeNameFunc name_func,
                                   gpointer          user_data);
char       *graft_arg_repr (const GraftArg *arg,
                            GraftReprStyle  style) G_GNUC_WARN_UNUSED_RESULT;
void        graft_append_int (GString *out,
                              gint64   i);
void        graft_append_float_repr (GString *out,
                                     double   value);
void        graft_append_str_repr (GString    *out,
                                   const char *s,
                                   gsize       len);
const char *graft_arg_kind_to_string (GraftArgKind kind);

G_END_DECLS
