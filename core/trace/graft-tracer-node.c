/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-node.c: where values meet the graph.  Records nodes (with the
 * names torch.fx would give them), turns values into node arguments (a
 * tensor becomes a get_attr node of its buffer, parameter or constant), and
 * asks for the truth or the items of a value, which a proxy cannot give:
 * that is torch.fx's control-flow error, at its place in the source.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-error.h"
#include "graft-graph-private.h"
#include "graft-limits.h"
#include "graft-py-fast-line-private.h"
#include "graft-py-lexer.h"

#include <string.h>

/* Nodes and arguments ------------------------------------------------------ */

/**
 * _graft_tracer_append_proxy_repr:
 * @proxy: a traced value
 *
 * Appends `repr(proxy)`, `Proxy(name)`, which needs no value (an
 * attribute's node is made for it, as torch's Attribute.node is).
 *
 * Returns: %FALSE with the tracer's error if the node cannot be made
 */
gboolean
_graft_tracer_append_proxy_repr (Tracer  *t,
                                 GString *out,
                                 Value   *proxy)
{
  GraftNode *node = _graft_tracer_node_of (t, proxy);

  if (node == NULL)
    return FALSE;
  g_string_append_printf (out, "Proxy(%s)", graft_node_get_name (node));
  return TRUE;
}

/* Whether @link, an attribute, is one of _graft_tracer_proxy_object()
 * (not a name with a NUL byte: `getattr(x, "node\x00")`). */
static inline gboolean
is_proxy_object (Tracer *t,
                 Value  *link)
{
  return _graft_tracer_proxy_object (link->attr.attr) != NULL &&
         _graft_tracer_attr_len (t, link) < 0;
}

/* The first object of _graft_tracer_proxy_object() in @v's chain of
 * attributes not yet made (`x.node`, `x.T.tracer.a`), or NULL. */
static Value *
proxy_object_in (Tracer *t,
                 Value  *v)
{
  for (Value *cur = v; cur->kind == VAL_ATTR_PROXY && cur->attr.made == NULL; cur = cur->attr.base)
    if (is_proxy_object (t, cur))
      return cur;
  return NULL;
}

/* Fails the tracer at @at on @link, an attribute that is a Proxy's own
 * object. */
static void
fail_proxy_object (Tracer            *t,
                   Value             *link,
                   const GraftPyExpr *at)
{
  _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                      "'%s' of a traced value is its %s, which Graft does not model",
                      link->attr.attr, _graft_tracer_proxy_object (link->attr.attr));
}

/**
 * _graft_tracer_check_returned:
 * @v: what the traced function returns
 * @at: the returned expression
 *
 * torch.fx makes the output node's argument of @v: a Proxy's own object
 * there (`return x.node`, `return (y, x.tracer)`) fails torch with a
 * NotImplementedError that names no place.  Graft fails at @at.
 *
 * Returns: %FALSE with the tracer's error, %TRUE otherwise
 */
gboolean
_graft_tracer_check_returned (Tracer            *t,
                              Value             *v,
                              const GraftPyExpr *at)
{
  Value *link;

  if (_graft_value_is_seq (v))
    {
      gboolean ok = TRUE;

      if (!_graft_tracer_walk_enter (t))
        return _graft_tracer_too_deep (t, at->start, at->end);
      for (guint i = 0; i < v->seq.items->len && ok; i++)
        ok = _graft_tracer_check_returned (t, v->seq.items->pdata[i], at);
      _graft_tracer_walk_leave (t);
      return ok;
    }
  if (v->kind != VAL_ATTR_PROXY || (link = proxy_object_in (t, v)) == NULL)
    return TRUE;
  fail_proxy_object (t, link, at);
  return FALSE;
}

/**
 * _graft_tracer_node_of:
 *
 * The node of a traced value; a lazy attribute (`x.shape`) becomes its
 * getattr node here, on first use, as torch.fx's `Attribute.node` does.
 */
GraftNode *
_graft_tracer_node_of (Tracer *t,
                       Value  *v)
{
  PtrVec *chain;

  if (v->kind == VAL_PROXY)
    return v->node;
  if (v->kind != VAL_ATTR_PROXY)
    return NULL;
  if (v->attr.made != NULL)
    return v->attr.made;

  /* `x.a.b.c` whose parts were never used: make the getattr nodes from the
   * innermost out.  A loop, not recursion: a chain may be as long as the
   * file (`h = h.shape` repeated). */
  chain = _graft_tracer_vec (t);
  for (Value *cur = v; cur->kind == VAL_ATTR_PROXY && cur->attr.made == NULL; cur = cur->attr.base)
    _graft_vec_add (chain, cur);
  for (guint i = chain->len; i > 0; i--)
    {
      Value  *link = chain->pdata[i - 1];
      gssize  len = _graft_tracer_attr_len (t, link);
      PtrVec *args;
      Value  *name, *made;

      /* `x.node` used as a value: torch fails on the Node (or Tracer...)
       * where it goes into an argument; Graft does not model them. */
      if (G_UNLIKELY (is_proxy_object (t, link)))
        {
          fail_proxy_object (t, link, _graft_tracer_span_expr (t));
          return NULL;
        }
      /* The name without a copy: an Attribute's name lives as long as the
       * tracer (the syntax tree's, or the tracer's own copy). */
      name = _graft_value_new (t, VAL_STR);
      name->str.s = link->attr.attr;
      name->str.len = len >= 0 ? (gsize) len : strlen (link->attr.attr);
      args = _graft_tracer_vec (t);
      _graft_vec_add (args, link->attr.base);
      _graft_vec_add (args, name);
      made = _graft_tracer_make_node (t, GRAFT_OP_CALL_FUNCTION, "builtins.getattr",
                                      args, NULL, NULL, _graft_tracer_span_expr (t));
      if (made == NULL)
        return NULL;
      link->attr.made = made->node;
    }
  return v->attr.made;
}

/* The get_attr node for a tensor passed to an op: its buffer or attribute
 * path, or a `_tensor_constantN` of its own (torch.fx's `create_arg`). */
static GraftNode *
tensor_node (Tracer            *t,
             Value             *tensor,
             const GraftPyExpr *at)
{
  const char *path = g_hash_table_lookup (t->tensor_paths, tensor);
  Value      *made;

  if (path == NULL)
    {
      path = g_hash_table_lookup (t->tensor_consts, tensor);
      if (path == NULL)
        {
          path = _graft_tracer_printf (t, "_tensor_constant%u", t->n_tensor_consts++);
          g_hash_table_insert (t->tensor_consts, tensor, (gpointer) path);
          t->n_kept++;
        }
    }
  made = _graft_tracer_make_node (t, GRAFT_OP_GET_ATTR, path, NULL, NULL, NULL, at);
  if (made == NULL)
    return NULL;
  /* What the attribute holds, for torch 2.6's matcher. */
  graft_graph_set_attr_kind (t->graph, path,
                             tensor->kind == VAL_PARAMETER ? GRAFT_ATTR_PARAMETER
                                                           : GRAFT_ATTR_TENSOR);
  return made->node;
}

/* A borrowed container argument: its items in the tracer's arena (the
 * graph copies them, graft_graph_create_node_copy()), all `None`. */
static void
init_container (Tracer      *t,
                GraftArg    *out,
                GraftArgKind kind,
                guint        n,
                guint        n_items)
{
  out->kind = kind;
  out->n = n;
  out->items = n_items > 0 ? _graft_tracer_alloc (t, n_items * sizeof (GraftArg)) : NULL;
  G_STATIC_ASSERT (GRAFT_ARG_NONE == 0);
}

/* A borrowed string argument (symbols and devices too). */
static void
init_text (GraftArg    *out,
           GraftArgKind kind,
           const char  *s,
           gsize        len)
{
  out->kind = kind;
  out->n = (guint32) len;
  out->s = (char *) s;
}

/* _graft_tracer_to_arg() of a dict's items, into @out. */
static gboolean
dict_to_arg (Tracer            *t,
             Value             *v,
             GraftArg          *out,
             const GraftPyExpr *at)
{
  init_container (t, out, GRAFT_ARG_DICT, v->dict.keys->len, 2 * v->dict.keys->len);
  for (guint i = 0; i < v->dict.keys->len; i++)
    {
      Value *key = v->dict.keys->pdata[i];

      if (_graft_value_holds_proxy (key) &&
          _graft_tracer_to_arg (t, key, &out->items[2 * i], at))
        {
          /* torch 1.13.1's message lacks its f prefix: `{k}` is
           * literal; torch 2.6 prints the key (nodes by name). */
          g_autofree char *shown = t->dialect->shows_dict_key_in_error
                                       ? graft_arg_repr (&out->items[2 * i], GRAFT_REPR_CODE)
                                       : g_strdup ("{k}");

          _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                              "RuntimeError: Keys for dictionaries used as an argument "
                              "cannot contain a Node. Got key: %s",
                              shown);
          return FALSE;
        }
      if (_graft_value_holds_proxy (key) ||
          !_graft_tracer_to_arg (t, key, &out->items[2 * i], at) ||
          !_graft_tracer_to_arg (t, v->dict.values->pdata[i], &out->items[2 * i + 1], at))
        return FALSE;
    }
  return TRUE;
}

/**
 * _graft_tracer_to_arg:
 * @out: (out): the argument, initialised on success
 *
 * torch.fx's `Tracer.create_arg`: turns a value into a node argument.
 * Traced values become node references, tensors get_attr nodes, constants
 * literals; modules and functions cannot be arguments.
 *
 * The argument borrows what it holds (strings from the values, container
 * items from the tracer's arena): it is for graft_graph_create_node_copy(),
 * and is never cleared.
 *
 * Returns: %FALSE with the tracer's error set on failure
 */
gboolean
_graft_tracer_to_arg (Tracer            *t,
                      Value             *v,
                      GraftArg          *out,
                      const GraftPyExpr *at)
{
  GraftNode *node;
  gboolean   ok = TRUE;

  switch (v->kind)
    {
    case VAL_NONE:
      *out = (GraftArg){ .kind = GRAFT_ARG_NONE };
      return TRUE;
    case VAL_BOOL:
      graft_arg_init_bool (out, v->b);
      return TRUE;
    case VAL_INT:
      *out = (GraftArg){ .kind = GRAFT_ARG_INT, .i = v->i };
      return TRUE;
    case VAL_FLOAT:
      *out = (GraftArg){ .kind = GRAFT_ARG_FLOAT, .f = v->f };
      return TRUE;
    case VAL_COMPLEX:
      graft_arg_init_none (out);
      out->kind = GRAFT_ARG_COMPLEX;
      out->c = (double *) v->c;
      return TRUE;
    case VAL_STR:
      init_text (out, GRAFT_ARG_STR, v->str.s, v->str.len);
      return TRUE;
    case VAL_ELLIPSIS:
      graft_arg_init_ellipsis (out);
      return TRUE;
    case VAL_SYMBOL:
      init_text (out, GRAFT_ARG_SYMBOL, v->path, strlen (v->path));
      return TRUE;
    case VAL_DEVICE:
      init_text (out, GRAFT_ARG_DEVICE, v->path, strlen (v->path));
      return TRUE;
    case VAL_PROXY:
    case VAL_ATTR_PROXY:
      node = _graft_tracer_node_of (t, v);
      if (node == NULL)
        return FALSE;
      *out = (GraftArg){ .kind = GRAFT_ARG_NODE, .node = node };
      return TRUE;
    case VAL_TENSOR:
    case VAL_PARAMETER:
      node = tensor_node (t, v, at);
      if (node == NULL)
        return FALSE;
      graft_arg_init_node (out, node);
      return TRUE;
    case VAL_TUPLE:
    case VAL_LIST:
      /* A range: torch 2.6 records it as such (`range(0, 2)` in code and
       * listing), torch 1.13.1 has no rule for it. */
      if (v->kind == VAL_LIST && v->seq.range != NULL)
        {
          if (!t->dialect->traces_extra_values)
            {
              _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                     "NotImplementedError: argument of type: <class 'range'>");
              return FALSE;
            }
          init_text (out, GRAFT_ARG_SYMBOL, v->seq.range, strlen (v->seq.range));
          return TRUE;
        }
      if (!_graft_tracer_walk_enter (t))
        return _graft_tracer_too_deep (t, at->start, at->end);
      init_container (t, out, v->kind == VAL_TUPLE ? GRAFT_ARG_TUPLE : GRAFT_ARG_LIST,
                      v->seq.items->len, v->seq.items->len);
      for (guint i = 0; i < v->seq.items->len && ok; i++)
        ok = _graft_tracer_to_arg (t, v->seq.items->pdata[i], &out->items[i], at);
      _graft_tracer_walk_leave (t);
      return ok;
    case VAL_DICT:
      if (!_graft_tracer_walk_enter (t))
        return _graft_tracer_too_deep (t, at->start, at->end);
      ok = dict_to_arg (t, v, out, at);
      _graft_tracer_walk_leave (t);
      return ok;
    case VAL_SLICE:
      init_container (t, out, GRAFT_ARG_SLICE, 3, 3);
      return _graft_tracer_to_arg (t, v->slice.start, &out->items[0], at) &&
             _graft_tracer_to_arg (t, v->slice.stop, &out->items[1], at) &&
             _graft_tracer_to_arg (t, v->slice.step, &out->items[2], at);
    case VAL_OBJECT:
      /* An enum member: torch 2.6 records it (`C.A` in code, the class a
       * global of its name, and in the listing); 1.13.1 has no rule. */
      if (v->obj->cls != NULL && v->obj->cls->is_enum)
        {
          if (!t->dialect->traces_extra_values)
            {
              _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                  "NotImplementedError: argument of type: <enum '%s'>",
                                  v->obj->cls->name);
              return FALSE;
            }
          {
            Value      *name = _graft_strmap_get (&v->obj->attrs, "name");
            const char *member = _graft_tracer_printf (
                t, "%s.%s", v->obj->cls->name,
                name != NULL && name->kind == VAL_STR ? name->str.s : "");

            init_text (out, GRAFT_ARG_SYMBOL, member, strlen (member));
          }
          return TRUE;
        }
      /* A module (`x + self.lin`): torch.fx's create_arg() records a new
       * get_attr of its name in the root's named_modules() each time (both
       * torches).  One not installed, or the root itself, stays refused:
       * torch's errors there name its Python class or fail inside torch. */
      if (v->obj->kind != OBJ_PLAIN && t->tracing)
        {
          const char *path = g_hash_table_lookup (t->module_paths, v->obj);
          Value      *made;

          if (path != NULL && path[0] != '\0')
            {
              made = _graft_tracer_make_node (t, GRAFT_OP_GET_ATTR, path, NULL, NULL, NULL, at);
              if (made == NULL)
                return FALSE;
              graft_arg_init_node (out, made->node);
              return TRUE;
            }
        }
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "a %s cannot be an argument of a traced operation",
                          _graft_value_type_name (v));
      return FALSE;
    case VAL_TYPE:
    case VAL_GENERIC:
    case VAL_ITER:
    case VAL_SET:
    case VAL_PYMODULE:
    case VAL_PATH_FN:
    case VAL_NN_CLASS:
    case VAL_FUNCTION:
    case VAL_CLASS:
    case VAL_SELF_PATH:
    case VAL_BOUND:
    case VAL_BUILTIN:
    case VAL_METHOD:
    case VAL_SUPER:
    default:
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "a %s cannot be an argument of a traced operation",
                          _graft_value_type_name (v));
      return FALSE;
    }
}

/* Whether @name is a Python keyword: most method names (`sum`, `view`,
 * `softmax`) are surely not by their first byte and length, and the rest
 * (`layers` of `self.layers[0]`, as long as `lambda`) are told by the
 * lexer's comparisons with the few keywords of that first byte
 * (keyword.kwlist's words are the lexer's), without
 * graft_is_python_keyword()'s hash of the name. */
static inline gboolean
is_keyword (const char *name)
{
  gsize len = 0;

  /* Most names start with a byte no keyword starts with. */
  if (_graft_py_keyword_lengths[(guchar) name[0]] == 0)
    return FALSE;
  /* No keyword is longer than 8 bytes. */
  while (len < 9 && name[len] != '\0')
    len++;
  return _graft_py_may_be_keyword ((guchar) name[0], len) &&
         _graft_py_keyword_kind (name, len) != GRAFT_PY_TOKEN_NAME;
}

/* torch.fx writes method names, module paths and attribute names into the
 * generated code as they are; a Python keyword there (`x.if()`,
 * `self.lambda(x)`) makes that code invalid and torch's trace fail with a
 * SyntaxError.  Graft reports it where the name is used. */
static gboolean
target_is_printable (Tracer            *t,
                     GraftOp            op,
                     const char        *target,
                     PtrVec            *args,
                     const GraftPyExpr *at)
{
  const char *name = NULL;

  if (op == GRAFT_OP_CALL_METHOD)
    name = is_keyword (target) ? target : NULL;
  else if (op == GRAFT_OP_CALL_MODULE || op == GRAFT_OP_GET_ATTR)
    {
      /* Each dotted part, in one pass over the target (a get_attr's or
       * call_module's, at each such node): a part's first byte and length
       * tell most names from the keywords, as is_keyword() does. */
      for (const char *part = target;;)
        {
          const char *end = part;

          while (*end != '.' && *end != '\0')
            end++;
          if (_graft_py_may_be_keyword ((guchar) part[0], (gsize) (end - part)) &&
              _graft_py_keyword_kind (part, (gsize) (end - part)) != GRAFT_PY_TOKEN_NAME)
            {
              name = _graft_tracer_strdup (t, part, end - part);
              break;
            }
          if (*end == '\0')
            break;
          part = end + 1;
        }
    }
  else if (op == GRAFT_OP_CALL_FUNCTION && args != NULL && args->len == 2 &&
           ((Value *) args->pdata[1])->kind == VAL_STR &&
           strcmp (target, "builtins.getattr") == 0 &&
           is_keyword (((Value *) args->pdata[1])->str.s))
    name = ((Value *) args->pdata[1])->str.s;
  if (name == NULL)
    return TRUE;
  _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                      "'%s' is a Python keyword: torch.fx would write it into the generated code "
                      "as a name, "
                      "which is a syntax error",
                      name);
  return FALSE;
}

/* Whether the graph may take one more node under GRAFT_MAX_NODES, as
 * graft_graph_get_n_nodes() says when Tracer.node_room is spent (the
 * tracer alone adds nodes to its graph and counts them off: see
 * node_made()); else the error. */
static inline G_ALWAYS_INLINE gboolean
has_room (Tracer            *t,
          const GraftPyExpr *at)
{
  guint n;

  if (G_LIKELY (t->node_room > 0))
    return TRUE;
  n = graft_graph_get_n_nodes (t->graph);
  if (G_UNLIKELY (n >= GRAFT_MAX_NODES))
    {
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_LIMIT,
                          "the graph would have more than %u nodes", GRAFT_MAX_NODES);
      return FALSE;
    }
  t->node_room = GRAFT_MAX_NODES - n;
  return TRUE;
}

/* A node just made (with its span: the request's), counted off
 * Tracer.node_room (which a node made while the arguments of another
 * were converted may have spent: the next has_room() asks the graph). */
static inline G_ALWAYS_INLINE void
node_made (Tracer *t)
{
  if (G_LIKELY (t->node_room > 0))
    t->node_room--;
}

/**
 * _graft_tracer_record:
 * @op: %GRAFT_OP_CALL_FUNCTION or %GRAFT_OP_CALL_METHOD
 * @args: a tuple in the graph's form of nodes, lists of nodes and numbers,
 *   borrowed (the caller's, on its stack)
 *
 * _graft_tracer_make_node() of arguments the caller has converted itself
 * (traced values' nodes, plain numbers), without keywords: nothing is
 * made on the way, so nothing is given back.  The checks and errors are
 * _graft_tracer_make_node_from()'s, in its order (no conversion of such
 * arguments fails).
 *
 * Returns: (nullable): a proxy for the node
 */
Value *
_graft_tracer_record (Tracer            *t,
                      GraftOp            op,
                      const char        *target,
                      GraftArg          *args,
                      const char        *name,
                      const GraftPyExpr *at)
{
  GraftNode *node;

  g_assert (op == GRAFT_OP_CALL_FUNCTION || op == GRAFT_OP_CALL_METHOD);
  /* (A function's target needs no check but builtins.getattr's with a
   * string, which is not among such arguments.) */
  if (G_UNLIKELY (!t->tracing || t->graph == NULL))
    _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_UNSUPPORTED,
                           "this operation needs a traced value, but runs before tracing "
                           "starts");
  else if ((op != GRAFT_OP_CALL_METHOD || target_is_printable (t, op, target, NULL, at)) &&
           has_room (t, at))
    return (node = _graft_tracer_create_node (t, op, target, args, name, at)) != NULL
               ? _graft_value_proxy (t, node)
               : NULL;
  t->static_text = FALSE;
  return NULL;
}

/**
 * _graft_tracer_make_node_from:
 * @mark: where the arena stood before the caller built @args and @kwargs
 *   for this node alone, nothing since kept anywhere else
 *
 * _graft_tracer_make_node(), which then gives the arena back from @mark
 * on: the arguments and their conversions (containers, getattr proxies)
 * are copied into the graph, so a node's scratch is reused by the next
 * instead of lasting as long as the trace.
 */
Value *
_graft_tracer_make_node_from (Tracer            *t,
                              ArenaMark          mark,
                              GraftOp            op,
                              const char        *target,
                              PtrVec            *args,
                              StrMap            *kwargs,
                              const char        *name,
                              const GraftPyExpr *at)
{
  /* The arguments are built in scratch memory (items on the stack, the
   * keywords' names borrowed) and copied into the graph's own: the
   * arguments first, then the items of lists of traced values. */
  GraftArg   a_stack[8 + 16], k_stack[16];
  guint      n_args = args != NULL ? args->len : 0;
  guint      n_kw = kwargs != NULL ? 2 * kwargs->keys->len : 0;
  guint      n_items = 8; /* the next free item of a_stack */
  GraftArg   a, k;
  GraftNode *node = NULL;
  guint      i;

  GraftNodeRequest request = { .op = op,
                               .target = target,
                               .args = &a,
                               .name_candidate = name,
                               .static_text = t->static_text,
                               .span_start = at->start,
                               .span_end = at->end };

  t->static_text = FALSE;
  if (G_UNLIKELY (!t->tracing || t->graph == NULL))
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                  "this operation needs a traced value, but runs before tracing "
                                  "starts");
  if (!target_is_printable (t, op, target, args, at))
    return NULL;
  if (!has_room (t, at))
    return NULL;

  a = (GraftArg){ .kind = GRAFT_ARG_TUPLE, .n = n_args, .items = a_stack };
  if (G_UNLIKELY (n_args > 8))
    a.items = g_new (GraftArg, n_args);
  /* (_graft_tracer_to_arg() sets each argument whole, and one that failed
   * is not read.) */
  for (i = 0; i < n_args; i++)
    {
      Value *v = args->pdata[i];

      /* Most arguments are nodes. */
      if (v->kind == VAL_PROXY)
        a.items[i] = (GraftArg){ .kind = GRAFT_ARG_NODE, .node = v->node };
      else if (v->kind == VAL_LIST && v->seq.range == NULL && v->seq.items->len > 0 &&
               v->seq.items->len <= G_N_ELEMENTS (a_stack) - n_items)
        {
          /* A list of traced values (`torch.cat([a, b])`): its items on
           * the stack too, as _graft_tracer_to_arg() makes them. */
          PtrVec *items = v->seq.items;
          guint   k0 = n_items, j;

          for (j = 0; j < items->len && ((Value *) items->pdata[j])->kind == VAL_PROXY; j++)
            a_stack[n_items++] = (GraftArg){ .kind = GRAFT_ARG_NODE,
                                             .node = ((Value *) items->pdata[j])->node };
          if (j == items->len)
            a.items[i] =
                (GraftArg){ .kind = GRAFT_ARG_LIST, .n = items->len, .items = a_stack + k0 };
          else
            {
              n_items = k0;
              if (!_graft_tracer_to_arg (t, v, &a.items[i], at))
                goto out;
            }
        }
      else if (!_graft_tracer_to_arg (t, v, &a.items[i], at))
        goto out;
    }
  if (n_kw == 0)
    {
      /* Most calls have no keywords: no dict to copy. */
      node = _graft_graph_create_node_request (t->graph, &request);
      goto out;
    }
  k = (GraftArg){ .kind = GRAFT_ARG_DICT, .n = n_kw / 2, .items = k_stack };
  if (G_UNLIKELY (n_kw > G_N_ELEMENTS (k_stack)))
    k.items = g_new (GraftArg, n_kw);
  for (i = 0; i < n_kw / 2; i++)
    {
      const char *key = kwargs->keys->pdata[i];

      k.items[2 * i] = (GraftArg){ .kind = GRAFT_ARG_STR, .n = strlen (key), .s = (char *) key };
      if (!_graft_tracer_to_arg (t, kwargs->values->pdata[i], &k.items[2 * i + 1], at))
        break;
    }
  if (i == n_kw / 2)
    {
      request.kwargs = &k;
      node = _graft_graph_create_node_request (t->graph, &request);
    }
  if (G_UNLIKELY (k.items != k_stack))
    g_free (k.items);

out:
  /* The arguments borrow all they hold (_graft_tracer_to_arg()). */
  if (G_UNLIKELY (a.items != a_stack))
    g_free (a.items);
  if (node == NULL)
    return NULL;
  node_made (t);
  _graft_tracer_release (t, mark);
  return _graft_value_proxy (t, node);
}

/* Truth and iteration ---------------------------------------------------- */

/**
 * _graft_tracer_truth:
 *
 * Python's `bool(v)`.  A traced value has no truth value while tracing.
 */
gboolean
_graft_tracer_truth (Tracer            *t,
                     Value             *v,
                     const GraftPyExpr *at,
                     gboolean          *out)
{
  switch (v->kind)
    {
    case VAL_NONE:
      *out = FALSE;
      return TRUE;
    case VAL_BOOL:
      *out = v->b;
      return TRUE;
    case VAL_INT:
      *out = v->i != 0;
      return TRUE;
    case VAL_FLOAT:
      *out = v->f != 0;
      return TRUE;
    case VAL_COMPLEX:
      *out = v->c[0] != 0 || v->c[1] != 0;
      return TRUE;
    case VAL_STR:
      *out = v->str.len != 0;
      return TRUE;
    case VAL_TUPLE:
    case VAL_LIST:
      *out = v->seq.items->len != 0;
      return TRUE;
    case VAL_SET:
      *out = v->seq.items->len != 0;
      return TRUE;
    case VAL_DICT:
      *out = v->dict.keys->len != 0;
      return TRUE;
    case VAL_PROXY:
    case VAL_ATTR_PROXY:
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                          "the truth value of a traced value is not known while tracing %s",
                          _graft_tracer_control_flow_reason);
      return FALSE;
    case VAL_TENSOR:
    case VAL_PARAMETER:
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "the truth value of a constant tensor depends on its data, which Graft "
                          "does not compute");
      return FALSE;
    case VAL_OBJECT:
      if (v->obj->kind == OBJ_MODULE_LIST || v->obj->kind == OBJ_SEQUENTIAL ||
          v->obj->kind == OBJ_MODULE_DICT || v->obj->kind == OBJ_PARAMETER_LIST ||
          v->obj->kind == OBJ_PARAMETER_DICT)
        {
          *out = v->obj->modules.keys->len + v->obj->params.keys->len != 0;
          return TRUE;
        }
      *out = TRUE;
      return TRUE;
    case VAL_ELLIPSIS:
    case VAL_SLICE:
    case VAL_SYMBOL:
    case VAL_DEVICE:
    case VAL_PYMODULE:
    case VAL_PATH_FN:
    case VAL_NN_CLASS:
    case VAL_FUNCTION:
    case VAL_CLASS:
    case VAL_SELF_PATH:
    case VAL_BOUND:
    case VAL_BUILTIN:
    case VAL_METHOD:
    case VAL_SUPER:
    case VAL_TYPE:
    case VAL_GENERIC:
    case VAL_ITER:
    default:
      *out = TRUE;
      return TRUE;
    }
}

/* The raw item of step @i of a zip() or enumerate() @lazy: a tuple of its
 * parts' raw items (a 'u' part's is its step count), after the count. */
static Value *
zip_raw (Tracer         *t,
         const LazyIter *lazy,
         guint           i)
{
  gboolean enumerate = lazy->what == 'e';
  Value   *tuple = _graft_value_seq (t, VAL_TUPLE, lazy->n_parts + enumerate);

  if (enumerate)
    _graft_value_seq_add (tuple, _graft_value_int (t, lazy->start + i));
  for (guint k = 0; k < lazy->n_parts; k++)
    _graft_value_seq_add (tuple, lazy->parts[k].what == 'u' ? _graft_value_int (t, i)
                                                            : lazy->lists[k]->seq.items->pdata[i]);
  return tuple;
}

/**
 * _graft_tracer_zip_items:
 * @lazy: a zip()'s or enumerate()'s, its @parts and @lists made
 *
 * Sets @lazy's steps: the shortest part's length, where an
 * `iter(callable, sentinel)` part ('u') has none until it returns its
 * sentinel, so that the list of raw items then grows by one at each step
 * (_graft_tracer_loop_item()), up to the shortest other part's length.
 *
 * Returns: the list of raw items, tuples (zip_raw())
 */
Value *
_graft_tracer_zip_items (Tracer   *t,
                         LazyIter *lazy)
{
  gboolean unknown = FALSE;
  Value   *out;

  lazy->len = G_MAXUINT;
  for (guint k = 0; k < lazy->n_parts; k++)
    {
      const LazyIter *part = &lazy->parts[k];

      /* A zip() or enumerate() of such a part grows as it goes too (its
       * list is its @steps); its own @len bounds it. */
      if (part->what != 'u' && part->steps == NULL)
        lazy->len = MIN (lazy->len, lazy->lists[k]->seq.items->len);
      else if (lazy->lists[k]->seq.items->len == 0)
        lazy->len = 0; /* ended before */
      else
        {
          unknown = TRUE;
          if (part->what != 'u')
            lazy->len = MIN (lazy->len, part->len);
        }
    }
  lazy->steps = NULL;
  if (unknown)
    {
      out = _graft_value_seq (t, VAL_LIST, 1);
      lazy->steps = out;
      if (lazy->len > 0)
        _graft_value_seq_add (out, zip_raw (t, lazy, 0));
      return out;
    }
  out = _graft_value_seq (t, VAL_LIST, lazy->len);
  for (guint i = 0; i < lazy->len; i++)
    _graft_value_seq_add (out, zip_raw (t, lazy, i));
  return out;
}

/* _graft_tracer_loop_items() of `zip(a, b, ...)` or `enumerate(a[, n])`:
 * the raw items of each argument, as tuples; the steps go through each
 * argument's own LazyIter (@out_lazy->parts). */
static Value *
loop_items_zip (Tracer            *t,
                Frame             *frame,
                const GraftPyExpr *iter,
                LazyIter          *out_lazy)
{
  gboolean enumerate = iter->call.func->name.id[0] == 'e';
  guint    n = enumerate ? 1 : iter->call.args.len;

  for (guint k = 0; k < iter->call.args.len; k++)
    if (iter->call.args.items[k]->kind == GRAFT_PY_EXPR_STARRED)
      {
        Value *v = _graft_tracer_eval (t, frame, iter);

        return v != NULL ? _graft_tracer_iterate (t, v, iter) : NULL;
      }
  out_lazy->what = enumerate ? 'e' : 'z';
  out_lazy->parts = _graft_tracer_alloc (t, n * sizeof (LazyIter));
  out_lazy->n_parts = n;
  out_lazy->lists = _graft_tracer_alloc (t, n * sizeof (Value *));
  for (guint k = 0; k < n; k++)
    {
      LazyIter *part = &out_lazy->parts[k];

      out_lazy->lists[k] = _graft_tracer_loop_items (t, frame, iter->call.args.items[k], part);
      if (out_lazy->lists[k] == NULL)
        return NULL;
      /* A list argument is read as the loop begins (its items are taken
       * at each step only with an `iter(callable, sentinel)` part). */
      if (part->what == 'r')
        {
          Value *list = _graft_value_seq (t, VAL_LIST, part->len);

          for (guint i = 0; i < part->len; i++)
            _graft_value_seq_add (list,
                                  _graft_value_int (t, part->start + (gint64) i * part->step));
          out_lazy->lists[k] = list;
          part->what = 0;
        }
      else if (part->what == 0 && out_lazy->lists[k]->seq.range == NULL)
        {
          /* A list (or a copy of another iterable's items) is read at
           * each step, as Python's list iterator reads it. */
          Value *sized = part->sized;

          *part = (LazyIter){ 0 };
          part->sized = sized;
          out_lazy->lists[k] = _graft_tracer_value_items (t, out_lazy->lists[k], iter, part);
          if (out_lazy->lists[k] == NULL)
            return NULL;
        }
    }
  /* The first argument's iterator is the one each step calls first: a
   * dict or set it goes through fails at the next step once the body
   * changed its size, as a loop over it alone (a later one's may not be
   * reached, an earlier argument having run out). */
  out_lazy->sized = out_lazy->parts[0].sized;
  if (enumerate && iter->call.args.len == 2)
    {
      Value *start = _graft_tracer_eval (t, frame, iter->call.args.items[1]);

      if (start == NULL || !_graft_tracer_get_int (t, start, &out_lazy->start, iter))
        return NULL;
    }
  return _graft_tracer_zip_items (t, out_lazy);
}

/* What loop_items_range() returns when range() failed. */
static Value range_failed;

/* _graft_tracer_loop_items() of `range(...)`: no list of the items, which
 * _graft_tracer_loop_raw() makes at each step (a loop that makes no node
 * took a list of ten million ints).  %NULL where `range` is not the
 * builtin, or an argument is starred: the usual way then; &range_failed
 * with the tracer's error. */
static Value *
loop_items_range (Tracer            *t,
                  Frame             *frame,
                  const GraftPyExpr *iter,
                  LazyIter          *out_lazy)
{
  Value  *fn;
  PtrVec *args;
  gint64  start, step;
  guint   len;

  for (guint k = 0; k < iter->call.args.len; k++)
    if (iter->call.args.items[k]->kind == GRAFT_PY_EXPR_STARRED)
      return NULL;
  fn = _graft_tracer_eval (t, frame, iter->call.func);
  if (fn == NULL)
    return &range_failed;
  if (fn->kind != VAL_BUILTIN || strcmp (fn->path, "range") != 0)
    return NULL;
  args = _graft_tracer_vec_sized (t, MAX (iter->call.args.len, 1));
  for (guint k = 0; k < iter->call.args.len; k++)
    {
      Value *a = _graft_tracer_eval (t, frame, iter->call.args.items[k]);

      if (a == NULL)
        return &range_failed;
      _graft_vec_add (args, a);
    }
  if (!_graft_tracer_range_bounds (t, args, iter, &start, &step, &len, TRUE))
    return &range_failed;
  out_lazy->what = 'r';
  out_lazy->start = start;
  out_lazy->step = step;
  out_lazy->len = len;
  /* (The loop reads no item of it: _graft_tracer_loop_len().) */
  return _graft_value_seq (t, VAL_LIST, 0);
}

/**
 * _graft_tracer_loop_items:
 * @iter: the iterable of a for loop or a comprehension
 * @out_lazy: (out): how each item is made
 *
 * The items a loop over @iter goes through, with the steps torch's
 * generators take: a ParameterList's __iter__ and a ParameterDict's
 * values() and items() index the container as the loop reaches each item
 * (while tracing: the get_attr node made then, or the one made before), so
 * their items are made by _graft_tracer_loop_item() at each step.
 *
 * Returns: (nullable): a list value of the raw items: a list @iter gives
 *   is that list itself, which the loop's body may change (as Python's
 *   list iterator, the loop reads its length at each step; see
 *   _graft_tracer_loop_grew())
 */
Value *
_graft_tracer_loop_items (Tracer            *t,
                          Frame             *frame,
                          const GraftPyExpr *iter,
                          LazyIter          *out_lazy)
{
  Value *v;

  out_lazy->container = NULL;
  out_lazy->what = 0;
  out_lazy->parts = NULL;
  out_lazy->n_parts = 0;
  out_lazy->lists = NULL;
  out_lazy->len = 0;
  out_lazy->steps = NULL;
  out_lazy->start = 0;
  out_lazy->step = 0;
  out_lazy->sized = NULL;
  if (iter->kind == GRAFT_PY_EXPR_CALL && iter->call.func->kind == GRAFT_PY_EXPR_NAME &&
      iter->call.n_keywords == 0 && strcmp (iter->call.func->name.id, "range") == 0 &&
      (v = loop_items_range (t, frame, iter, out_lazy)) != NULL)
    return v != &range_failed ? v : NULL;
  if (iter->kind == GRAFT_PY_EXPR_CALL && iter->call.func->kind == GRAFT_PY_EXPR_NAME &&
      iter->call.n_keywords == 0 && iter->call.args.len > 0 &&
      (strcmp (iter->call.func->name.id, "zip") == 0 ||
       (strcmp (iter->call.func->name.id, "enumerate") == 0 && iter->call.args.len <= 2)))
    {
      /* zip() and enumerate() are lazy too: a generator among their
       * arguments makes its item at the step that takes it. */
      Value *fn = _graft_tracer_eval (t, frame, iter->call.func);

      if (fn == NULL)
        return NULL;
      if (fn->kind == VAL_BUILTIN && strcmp (fn->path, iter->call.func->name.id) == 0)
        return loop_items_zip (t, frame, iter, out_lazy);
    }
  if (iter->kind == GRAFT_PY_EXPR_CALL && iter->call.func->kind == GRAFT_PY_EXPR_ATTRIBUTE &&
      iter->call.args.len == 0 && iter->call.n_keywords == 0)
    {
      const char *name = iter->call.func->attribute.attr;
      Value      *recv, *method;

      if (strcmp (name, "items") != 0 && strcmp (name, "values") != 0 &&
          strcmp (name, "keys") != 0)
        return (v = _graft_tracer_eval (t, frame, iter)) != NULL
                   ? _graft_tracer_iterate (t, v, iter)
                   : NULL;
      /* The receiver once: `recv.items()` called on it as eval would. */
      recv = _graft_tracer_eval (t, frame, iter->call.func->attribute.value);
      if (recv == NULL)
        return NULL;
      if (recv->kind == VAL_OBJECT && recv->obj->kind == OBJ_PARAMETER_DICT)
        {
          out_lazy->container = recv;
          out_lazy->what = name[0];
          return _graft_tracer_iterate (t, recv, iter);
        }
      method = _graft_tracer_getattr (t, recv, name, iter->call.func);
      v = method != NULL ? _graft_tracer_call (t, method, _graft_tracer_vec (t), NULL, iter)
                         : NULL;
      if (recv->kind == VAL_DICT)
        out_lazy->sized = recv;
      return v != NULL ? _graft_tracer_iterate (t, v, iter) : NULL;
    }
  v = _graft_tracer_eval (t, frame, iter);
  if (v == NULL)
    return NULL;
  /* A list's iterator reads the list as it is at each step (the loop's
   * body may append to it or remove from it): the list itself. */
  if (v->kind == VAL_LIST && v->seq.range == NULL)
    return v;
  if (v->kind == VAL_DICT || (v->kind == VAL_SET && !v->seq.size))
    out_lazy->sized = v;
  return _graft_tracer_value_items (t, v, iter, out_lazy);
}

/**
 * _graft_tracer_loop_grew:
 * @items: a loop's list of raw items (_graft_tracer_loop_items())
 * @n_start: its length when the loop began
 * @i: the step about to be taken
 *
 * Whether a loop over a list that its own body appends to has run
 * GRAFT_MAX_WHILE_PASSES steps past the list's first length (where the
 * loop ends is then decided as it runs, as a while loop's is), and fails
 * the tracer if so.  The lists of `iter(callable, sentinel)` loops grow by
 * design (bounded by the calls of the callable).
 *
 * Returns: %TRUE with the tracer's error
 */
gboolean
_graft_tracer_loop_grew (Tracer            *t,
                         const LazyIter    *lazy,
                         guint              n_start,
                         guint              i,
                         const GraftPyExpr *at)
{
  if (G_LIKELY (i - n_start != GRAFT_MAX_WHILE_PASSES || i < n_start || lazy->steps != NULL))
    return FALSE;
  _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_LIMIT,
                      "the list grew by %u items while the loop went through it; the loop never "
                      "ends",
                      GRAFT_MAX_WHILE_PASSES);
  return TRUE;
}

/**
 * _graft_tracer_value_items:
 * @v: an iterable value
 * @out_lazy: (out): how each item is made (set up by the caller)
 *
 * _graft_tracer_loop_items() of a value: a ParameterList's items are its
 * indices, made by _graft_tracer_loop_item() at each step.
 *
 * Returns: (nullable): a list value of the raw items
 */
Value *
_graft_tracer_value_items (Tracer            *t,
                           Value             *v,
                           const GraftPyExpr *at,
                           LazyIter          *out_lazy)
{
  /* A list is read as Python's list iterator reads it, at each step
   * (zip(), enumerate(): the loop's body may change it). */
  if (v->kind == VAL_LIST && v->seq.range == NULL)
    v = _graft_tracer_make_iter (t, v, at);
  if (v->kind == VAL_ITER &&
      (v->iter.lazy->what == 'c' || v->iter.lazy->what == 'l' || v->iter.lazy->what == 'R' ||
       v->iter.lazy->what == 'M' || v->iter.lazy->what == 'F' || v->iter.lazy->what == 'G' ||
       v->iter.lazy->steps != NULL))
    {
      /* How many steps is known once the callable returns the sentinel:
       * one step at a time. */
      Value *out = _graft_value_seq (t, VAL_LIST, 1);

      out_lazy->container = v;
      out_lazy->what = 'u';
      out_lazy->steps = out;
      if (!v->iter.ended)
        _graft_value_seq_add (out, _graft_value_int (t, 0));
      return out;
    }
  if (v->kind == VAL_ITER)
    {
      /* Its items as next() gives them, so that a break leaves the rest. */
      guint  left = v->iter.items->seq.items->len - v->iter.pos;
      Value *out = _graft_value_seq (t, VAL_LIST, left);

      out_lazy->container = v;
      out_lazy->what = 'n';
      for (guint i = 0; i < left; i++)
        _graft_value_seq_add (out, _graft_value_int (t, i));
      return out;
    }
  if (v->kind == VAL_OBJECT && v->obj->kind == OBJ_PARAMETER_LIST)
    {
      Value *out = _graft_value_seq (t, VAL_LIST, v->obj->params.keys->len);

      out_lazy->container = v;
      out_lazy->what = 'p';
      for (guint i = 0; i < v->obj->params.keys->len; i++)
        _graft_value_seq_add (out, _graft_value_int (t, i));
      return out;
    }
  return _graft_tracer_iterate (t, v, at);
}

/**
 * _graft_tracer_loop_item:
 * @raw: an item of _graft_tracer_loop_items()'s list
 *
 * Returns: (nullable): what the loop's step binds
 */
Value *
_graft_tracer_loop_item (Tracer            *t,
                         const LazyIter    *lazy,
                         Value             *raw,
                         const GraftPyExpr *at)
{
  Value *item, *pair;

  if (lazy->what == 'z' || lazy->what == 'e')
    {
      guint  first = lazy->what == 'e';
      Value *tuple = _graft_value_seq (t, VAL_TUPLE, raw->seq.items->len);

      if (first)
        _graft_value_seq_add (tuple, raw->seq.items->pdata[0]);
      for (guint k = 0; k < lazy->n_parts; k++)
        {
          Value *part =
              _graft_tracer_loop_item (t, &lazy->parts[k], raw->seq.items->pdata[first + k], at);

          if (part == NULL)
            return NULL;
          _graft_value_seq_add (tuple, part);
        }
      /* With an `iter(callable, sentinel)` part, the next step is known
       * now (the loop's list is @steps, whose last raw item is @raw). */
      if (lazy->steps != NULL && lazy->steps->seq.items->len < lazy->len)
        _graft_value_seq_add (lazy->steps, zip_raw (t, lazy, lazy->steps->seq.items->len));
      return tuple;
    }
  if (lazy->what == 0 || lazy->what == 'k' || lazy->what == 'r')
    return raw;
  if (lazy->what == 'u')
    {
      gboolean done = FALSE;

      /* At its end the loop stops (_graft_tracer_loop_ran_out()). */
      item = _graft_tracer_iter_next (t, lazy->container, at, &done);
      if (item != NULL)
        _graft_value_seq_add (lazy->steps, raw);
      return item;
    }
  if (lazy->what == 'n')
    {
      gboolean done = FALSE;

      item = _graft_tracer_iter_next (t, lazy->container, at, &done);
      if (done)
        return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                      "the iterator ran out of items while a loop went through it");
      return item;
    }
  item = _graft_tracer_index_object (t, lazy->container, raw, at);
  if (item == NULL || lazy->what != 'i')
    return item;
  pair = _graft_value_seq (t, VAL_TUPLE, 2);
  _graft_value_seq_add (pair, raw);
  _graft_value_seq_add (pair, item);
  return pair;
}

/**
 * _graft_tracer_loop_end:
 * @lazy: the loop's, after its last step
 *
 * What a loop that ran out of items (no break) does after its last step:
 * zip() asks its arguments for one more item each, in order, until one has
 * none, so the arguments before the shortest make an item that nothing
 * uses (a ParameterList's get_attr node, as in torch.fx).
 *
 * Returns: %FALSE with the tracer's error
 */
gboolean
_graft_tracer_loop_end (Tracer            *t,
                        const LazyIter    *lazy,
                        const GraftPyExpr *at)
{
  if (lazy->what == 'e')
    return _graft_tracer_loop_end (t, &lazy->parts[0], at);
  if (lazy->what == 'n')
    {
      gboolean done = FALSE;

      return _graft_tracer_iter_next (t, lazy->container, at, &done) != NULL || done;
    }
  if (lazy->what != 'z')
    return TRUE;
  for (guint k = 0; k < lazy->n_parts; k++)
    {
      const LazyIter *part = &lazy->parts[k];
      Value          *raw;

      if (part->what != 'u' && lazy->lists[k]->seq.items->len == lazy->len)
        return _graft_tracer_loop_end (t, part, at);
      raw = part->what == 'u' ? _graft_value_int (t, lazy->len)
                              : lazy->lists[k]->seq.items->pdata[lazy->len];
      if (_graft_tracer_loop_item (t, part, raw, at) == NULL)
        return _graft_tracer_loop_ran_out (part);
    }
  return TRUE;
}

/**
 * _graft_tracer_loop_ran_out:
 * @lazy: a loop's, whose _graft_tracer_loop_item() returned %NULL
 *
 * Returns: whether that was the end of an iterator whose steps were not
 * known before (the loop ends there), not an error
 */
gboolean
_graft_tracer_loop_ran_out (const LazyIter *lazy)
{
  if (lazy->what == 'z' || lazy->what == 'e')
    {
      /* zip() stops at the first part that has no item left. */
      for (guint k = 0; k < lazy->n_parts; k++)
        if (_graft_tracer_loop_ran_out (&lazy->parts[k]))
          return TRUE;
      return FALSE;
    }
  return lazy->what == 'u' && lazy->container->iter.ended;
}

/* next() of `iter(callable, sentinel)`: the callable's result, until it
 * equals the sentinel (Python compares identity first, then `==`, whose
 * truth a traced value has not). */
static Value *
callable_iter_next (Tracer            *t,
                    Value             *it,
                    const GraftPyExpr *at,
                    gboolean          *out_done)
{
  LazyIter *lazy = it->iter.lazy;
  Value    *item, *eq;
  gboolean  equal;

  if (it->iter.ended)
    {
      *out_done = TRUE;
      return NULL;
    }
  /* Whether the callable returns the sentinel is decided as it runs, as
   * a while loop's condition is: bounded as a while loop's passes. */
  if (it->iter.pos == GRAFT_MAX_WHILE_PASSES)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_LIMIT,
                               "iter(callable, sentinel) called its callable %u times; it never "
                               "returns the sentinel",
                               GRAFT_MAX_WHILE_PASSES);
  it->iter.pos++;
  item = _graft_tracer_call (t, lazy->container, _graft_tracer_vec (t), NULL, at);
  if (item == NULL)
    return NULL;
  equal = item == lazy->sentinel;
  if (!equal)
    {
      eq = _graft_tracer_compare (t, GRAFT_PY_CMP_EQ, item, lazy->sentinel, at);
      if (eq == NULL || !_graft_tracer_truth (t, eq, at, &equal))
        return NULL;
    }
  if (!equal)
    return item;
  it->iter.ended = TRUE;
  *out_done = TRUE;
  return NULL;
}

/* next() of a list's iterator: the item at its position in the list as
 * the list is now; once past the end, it stays there (Python drops the
 * list).  A list that grew by GRAFT_MAX_WHILE_PASSES items while its
 * iterator went through it is taken for a loop that never ends, as
 * _graft_tracer_loop_grew() takes it. */
static Value *
list_iter_next (Tracer            *t,
                Value             *it,
                const GraftPyExpr *at,
                gboolean          *out_done)
{
  PtrVec *items = it->iter.items->seq.items;
  guint   pos = it->iter.pos;

  if (!it->iter.ended && pos < items->len)
    {
      if (G_UNLIKELY (pos > it->iter.lazy->len &&
                      pos - it->iter.lazy->len == GRAFT_MAX_WHILE_PASSES))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_LIMIT,
                                   "the list grew by %u items while the loop went through it; "
                                   "the loop never ends",
                                   GRAFT_MAX_WHILE_PASSES);
      it->iter.pos++;
      return items->pdata[pos];
    }
  it->iter.ended = *out_done = TRUE;
  return NULL;
}

/* next() of map(fn, *its) ('M') or filter(fn, it) ('F'): the next item of
 * each argument's iterator, given to the function as it is taken (filter
 * takes items until the function's result, or the item itself for a None
 * function, is true). */
static Value *
map_iter_next (Tracer            *t,
               Value             *it,
               const GraftPyExpr *at,
               gboolean          *out_done)
{
  LazyIter *lazy = it->iter.lazy;

  while (!it->iter.ended)
    {
      gboolean done = FALSE, truth;
      PtrVec  *items = _graft_tracer_vec (t);
      Value   *item = NULL, *v;

      /* map(fn, a, b): an item of each in turn, until one has none. */
      for (guint k = 0; k < lazy->n_parts && !done; k++)
        {
          item = _graft_tracer_iter_next (t, lazy->lists[k], at, &done);
          if (item == NULL && !done)
            return NULL;
          _graft_vec_add (items, item);
        }
      if (done)
        {
          it->iter.ended = TRUE;
          break;
        }
      v = item;
      if (lazy->what == 'M' || lazy->container->kind != VAL_NONE)
        {
          v = _graft_tracer_call (t, lazy->container, items, NULL, at);
          if (v == NULL || lazy->what == 'M')
            return v;
        }
      if (!_graft_tracer_truth (t, v, at, &truth))
        return NULL;
      if (truth)
        return item;
    }
  *out_done = TRUE;
  return NULL;
}

/**
 * _graft_tracer_iter_next:
 * @it: an iterator (VAL_ITER)
 * @out_done: (out): set when @it has no item left
 *
 * Python's `next(it)`: its next item, made as its lazy step makes it.  At
 * the end, the end's own steps (_graft_tracer_loop_end()) run once.
 *
 * Returns: (nullable): the item; %NULL at the end or with the tracer's error
 */
Value *
_graft_tracer_iter_next (Tracer            *t,
                         Value             *it,
                         const GraftPyExpr *at,
                         gboolean          *out_done)
{
  *out_done = FALSE;
  if (it->iter.lazy->what == 'c')
    return callable_iter_next (t, it, at, out_done);
  if (it->iter.lazy->what == 'l')
    return list_iter_next (t, it, at, out_done);
  if (it->iter.lazy->what == 'M' || it->iter.lazy->what == 'F')
    return map_iter_next (t, it, at, out_done);
  if (it->iter.lazy->what == 'G')
    return _graft_tracer_genexp_next (t, it, at, out_done);
  if (it->iter.lazy->what == 'R')
    {
      /* reversed() of a list: the item before the last one given, while
       * the list still reaches it. */
      PtrVec *items = it->iter.items->seq.items;
      guint   index = it->iter.lazy->len - 1 - it->iter.pos;

      if (!it->iter.ended && it->iter.pos < it->iter.lazy->len && index < items->len)
        {
          it->iter.pos++;
          return items->pdata[index];
        }
      it->iter.ended = *out_done = TRUE;
      return NULL;
    }
  if (it->iter.pos < it->iter.items->seq.items->len)
    {
      Value *item = _graft_tracer_loop_item (t, it->iter.lazy,
                                             it->iter.items->seq.items->pdata[it->iter.pos++], at);

      /* A part `iter(callable, sentinel)` of a zip() ended it. */
      if (item == NULL && _graft_tracer_loop_ran_out (it->iter.lazy))
        it->iter.ended = *out_done = TRUE;
      return item;
    }
  if (!it->iter.ended)
    {
      it->iter.ended = TRUE;
      if (!_graft_tracer_loop_end (t, it->iter.lazy, at))
        return NULL;
    }
  *out_done = TRUE;
  return NULL;
}

/**
 * _graft_tracer_make_iter:
 *
 * Python's `iter(v)`: @v itself if it is an iterator.
 *
 * Returns: (nullable): an iterator value
 */
Value *
_graft_tracer_make_iter (Tracer            *t,
                         Value             *v,
                         const GraftPyExpr *at)
{
  LazyIter   *lazy;
  Value      *items;
  const char *type_name;

  if (v->kind == VAL_ITER)
    return v;
  lazy = _graft_tracer_alloc (t, sizeof (LazyIter));
  *lazy = (LazyIter){ 0 };
  if (v->kind == VAL_LIST && v->seq.range == NULL)
    {
      /* Python's list iterator reads the list itself at each next(). */
      lazy->what = 'l';
      lazy->len = v->seq.items->len;
      return _graft_value_iter (t, v, lazy, "list_iterator");
    }
  items = _graft_tracer_value_items (t, v, at, lazy);
  if (items == NULL)
    return NULL;
  /* ModuleList and Sequential: iter(self._modules.values()); a
   * ParameterList: a generator. */
  if (v->kind == VAL_TUPLE)
    type_name = "tuple_iterator";
  else if (v->kind == VAL_DICT)
    type_name = "dict_keyiterator";
  else if (v->kind == VAL_SET)
    type_name = "set_iterator";
  else if (v->kind == VAL_STR)
    type_name = "str_ascii_iterator";
  else if (v->kind == VAL_OBJECT)
    type_name = v->obj->kind == OBJ_PARAMETER_LIST ? "generator"
                : v->obj->kind == OBJ_MODULE_DICT  ? "dict_keyiterator"
                                                   : "dict_valueiterator";
  else
    type_name = v->seq.range != NULL ? "range_iterator" : "list_iterator";
  return _graft_value_iter (t, items, lazy, type_name);
}

/**
 * _graft_tracer_iterate:
 *
 * `list(v)` for a value Python can iterate: sequences, dict keys, the
 * characters of a string, the children of module containers.  A traced value
 * cannot be iterated (torch.fx raises TraceError).
 *
 * Returns: (nullable): a list value
 */
Value *
_graft_tracer_iterate (Tracer            *t,
                       Value             *v,
                       const GraftPyExpr *at)
{
  Value *out;

  if (_graft_value_is_seq (v))
    {
      out = _graft_value_seq (t, VAL_LIST, 0);
      for (guint i = 0; i < v->seq.items->len; i++)
        _graft_value_seq_add (out, v->seq.items->pdata[i]);
      return out;
    }
  if (v->kind == VAL_ITER)
    {
      gboolean done = FALSE;

      out = _graft_value_seq (t, VAL_LIST, 0);
      for (;;)
        {
          Value *item = _graft_tracer_iter_next (t, v, at, &done);

          if (item == NULL)
            return done ? out : NULL;
          _graft_value_seq_add (out, item);
        }
    }
  if (v->kind == VAL_DICT)
    {
      out = _graft_value_seq (t, VAL_LIST, 0);
      for (guint i = 0; i < v->dict.keys->len; i++)
        _graft_value_seq_add (out, v->dict.keys->pdata[i]);
      return out;
    }
  if (v->kind == VAL_SET)
    return _graft_set_items (t, v, TRUE, at);
  if (v->kind == VAL_STR)
    {
      out = _graft_value_seq (t, VAL_LIST, 0);
      for (const char *p = v->str.s; p < v->str.s + v->str.len; p = g_utf8_next_char (p))
        _graft_value_seq_add (out, _graft_value_str (t, p, g_utf8_next_char (p) - p));
      return out;
    }
  if (v->kind == VAL_OBJECT)
    {
      out = _graft_value_seq (t, VAL_LIST, 0);
      switch (v->obj->kind)
        {
        case OBJ_SEQUENTIAL:
        case OBJ_MODULE_LIST:
          for (guint i = 0; i < v->obj->modules.values->len; i++)
            _graft_value_seq_add (out, v->obj->modules.values->pdata[i]);
          return out;
        case OBJ_MODULE_DICT:
          for (guint i = 0; i < v->obj->modules.keys->len; i++)
            _graft_value_seq_add (out, _graft_value_str (t, v->obj->modules.keys->pdata[i], -1));
          return out;
        case OBJ_PARAMETER_DICT:
          for (guint i = 0; i < v->obj->params.keys->len; i++)
            _graft_value_seq_add (out, _graft_value_str (t, v->obj->params.keys->pdata[i], -1));
          return out;
        case OBJ_PARAMETER_LIST:
          /* Through `self[i]`, as ParameterList.__iter__ goes: while
           * tracing, the parameters' get_attr nodes. */
          for (guint i = 0; i < v->obj->params.values->len; i++)
            {
              Value *item = _graft_tracer_index_object (t, v, _graft_value_int (t, i), at);

              if (item == NULL)
                return NULL;
              _graft_value_seq_add (out, item);
            }
          return out;
        case OBJ_PLAIN:
        case OBJ_USER_MODULE:
        case OBJ_LEAF:
        default:
          break;
        }
      /* A class of the file (or a torch.nn model: Sequential) with its
       * own __iter__, which must give an iterator. */
      if (v->obj->cls != NULL)
        {
          Value *method = _graft_tracer_class_lookup (v->obj->cls, "__iter__", NULL);
          Value *it;

          if (method != NULL && method->kind == VAL_FUNCTION)
            {
              it = _graft_tracer_call_function (t, method->fn, v, NULL, NULL, at);
              if (it == NULL)
                return NULL;
              if (it->kind != VAL_ITER)
                return _graft_tracer_raise (t, "TypeError", at->start, at->end,
                                            "TypeError: iter() returned non-iterator of type '%s'",
                                            _graft_value_type_name (it));
              return _graft_tracer_iterate (t, it, at);
            }
        }
    }
  if (_graft_value_is_proxy (v))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "a traced value cannot be iterated: its length is not known while "
                               "tracing "
                               "(torch.fx: Proxy object cannot be iterated)");
  /* A constant tensor is iterable in Python (by its first dimension), and
   * chunk()/split() of one give a tuple Graft models as one tensor. */
  if (_graft_value_is_tensor (v))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "iterating or unpacking a constant tensor (or what its chunk() "
                               "or split() gives) is not modelled by Graft's tracer");
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "'%s' object is not iterable", _graft_value_type_name (v));
}
