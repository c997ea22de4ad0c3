/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-module.c: attributes, as nn.Module's `__getattr__` and
 * `__setattr__` see them.  An object's attribute is found in its instance
 * dict, its `_parameters`, `_buffers` and `_modules`, then its class and
 * bases; setting a Module, Parameter or tensor registers it where
 * nn.Module would.  While tracing, a parameter access is a get_attr node
 * and a submodule of a top-level `forward(self)` a path (SELF_PATH).
 * Indexing ModuleList, Sequential and ModuleDict lives here too.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-aten-schema.h"
#include "graft-error.h"
#include "graft-limits.h"

#include <stdlib.h>
#include <string.h>

/* Modules and attributes -------------------------------------------------- */

static gboolean
object_is_module (const Object *obj)
{
  return obj->kind != OBJ_PLAIN;
}

const char *
_graft_tracer_join_path (Tracer     *t,
                         const char *base,
                         const char *name)
{
  if (base == NULL || *base == '\0')
    return _graft_tracer_strdup (t, name, -1);
  return _graft_tracer_printf (t, "%s.%s", base, name);
}

/* Finds @name in a class and its bases, depth first, left to right (the
 * MRO of the single-inheritance hierarchies that model files use). */
Value *
_graft_tracer_class_lookup (Class      *cls,
                            const char *name,
                            Class     **out_owner)
{
  Value *v = _graft_strmap_get (&cls->ns, name);

  if (v != NULL)
    {
      if (out_owner != NULL)
        *out_owner = cls;
      return v;
    }
  for (guint i = 0; i < cls->bases->len; i++)
    {
      Value *base = cls->bases->pdata[i];

      if (base->kind == VAL_CLASS &&
          (v = _graft_tracer_class_lookup (base->cls, name, out_owner)) != NULL)
        return v;
    }
  return NULL;
}

/* The first base after @after in @cls's hierarchy that defines @name. */
static Value *
super_lookup (Class      *cls,
              Class      *after,
              const char *name,
              Class     **out_owner)
{
  if (cls == after)
    {
      for (guint i = 0; i < cls->bases->len; i++)
        {
          Value *base = cls->bases->pdata[i];
          Value *v;

          if (base->kind == VAL_CLASS &&
              (v = _graft_tracer_class_lookup (base->cls, name, out_owner)) != NULL)
            return v;
        }
      return NULL;
    }
  for (guint i = 0; i < cls->bases->len; i++)
    {
      Value *base = cls->bases->pdata[i];

      if (base->kind == VAL_CLASS)
        {
          Value *v = super_lookup (base->cls, after, name, out_owner);

          if (v != NULL)
            return v;
        }
    }
  return NULL;
}

/* Whether @cls and its bases are classes of the file over `object` only,
 * none an exception. */
static gboolean
only_object_bases (const Class *cls)
{
  if (cls->is_exception || cls->is_module || cls->is_enum)
    return FALSE;
  for (guint i = 0; i < cls->bases->len; i++)
    {
      const Value *base = cls->bases->pdata[i];

      if (base->kind == VAL_CLASS
              ? !only_object_bases (base->cls)
              : !(base->kind == VAL_BUILTIN && strcmp (base->path, "object") == 0))
        return FALSE;
    }
  return TRUE;
}

static Value *
bind_method (Tracer *t,
             Value  *self,
             Value  *fn)
{
  Value *bound;

  if (fn->kind != VAL_FUNCTION || fn->fn->is_static)
    return fn;
  /* A classmethod of an instance is bound to the instance's class. */
  if (fn->fn->is_classmethod && self->kind == VAL_OBJECT && self->obj->cls != NULL)
    {
      Value *cls = _graft_value_new (t, VAL_CLASS);

      cls->cls = self->obj->cls;
      self = cls;
    }
  bound = _graft_value_new (t, VAL_BOUND);
  bound->bound.self = self;
  bound->bound.fn = fn;
  return bound;
}

/* A parameter access while tracing: one get_attr node per qualified name for
 * the whole trace, made at the first access (torch.fx's
 * `parameter_proxy_cache`). */
static Value *
parameter_proxy (Tracer            *t,
                 const char        *path,
                 const GraftPyExpr *at)
{
  GraftNode *node = g_hash_table_lookup (t->param_nodes, path);
  Value     *made;

  if (node != NULL)
    return _graft_value_proxy (t, node);
  made = _graft_tracer_make_node (t, GRAFT_OP_GET_ATTR, path, NULL, NULL, NULL, at);
  if (made != NULL)
    {
      g_hash_table_insert (t->param_nodes, (gpointer) path, made->node);
      t->n_kept++;
      /* What the attribute holds, for torch 2.6's matcher. */
      graft_graph_set_attr_kind (t->graph, path, GRAFT_ATTR_PARAMETER);
    }
  return made;
}

/* Names of the tensors a torch.nn leaf module holds as buffers; any other
 * tensor attribute read from a leaf is taken for a parameter. */
static gboolean
is_leaf_buffer_name (const char *name)
{
  return strcmp (name, "running_mean") == 0 || strcmp (name, "running_var") == 0 ||
         strcmp (name, "num_batches_tracked") == 0;
}

static gboolean
is_leaf_param_name (const char *name)
{
  return g_str_has_prefix (name, "weight") || g_str_has_prefix (name, "bias") ||
         g_str_has_suffix (name, "_weight") || g_str_has_suffix (name, "_bias") ||
         g_str_has_prefix (name, "in_proj") || strcmp (name, "out_proj") == 0;
}

/**
 * _graft_tracer_leaf_model:
 * @leaf: a torch.nn leaf module (OBJ_LEAF)
 *
 * The instance of @leaf's Python model (_graft_tracer_nn_settings_class())
 * built with @leaf's own arguments, once, outside the trace: what the
 * layer stores (`in_features`, `eps`, `bias` None), and the names of its
 * parameters and buffers in their order.
 *
 * Returns: (nullable): the model, or %NULL when Graft has none of the
 *   class or of these arguments
 */
Object *
_graft_tracer_leaf_model (Tracer            *t,
                          Object            *leaf,
                          const GraftPyExpr *at)
{
  if (leaf->model == NULL)
    {
      Value      *cls = _graft_tracer_nn_settings_class (t, leaf->class_name);
      gboolean    tracing = t->tracing;
      GError     *saved = t->error;
      const char *saved_raised = t->raised;
      Value      *saved_raised_args = t->raised_args;
      Value      *made;

      if (cls == NULL || leaf->ctor_args == NULL)
        {
          leaf->model = leaf;
          return NULL;
        }
      /* Arguments the model does not take (torch 2.6's LayerNorm `bias`,
       * say) leave the layer without a model, as one Graft has none of. */
      t->tracing = FALSE;
      t->error = NULL;
      made = _graft_tracer_instantiate (t, cls->cls, leaf->ctor_args, leaf->ctor_kwargs, at);
      g_clear_error (&t->error);
      t->error = saved;
      t->raised = saved_raised;
      t->raised_args = saved_raised_args;
      t->tracing = tracing;
      leaf->model = made != NULL ? made->obj : leaf;
      t->n_kept++;
    }
  return leaf->model != leaf ? leaf->model : NULL;
}

/**
 * _graft_tracer_leaf_submodules:
 * @leaf: a torch.nn leaf module just made (OBJ_LEAF)
 *
 * The submodules of a layer made of layers (MultiheadAttention's
 * `out_proj`, a Transformer layer's `self_attn`, `linear1`, ...), as its
 * model makes them: the leaf holds them from the start, so that they have
 * their paths (`self.enc.self_attn` is called as call_module) and
 * named_modules() and named_parameters() list them after the leaf's own,
 * as nn.Module does.  A layer of another class, or one Graft has no model
 * of these arguments of, keeps none.
 */
void
_graft_tracer_leaf_submodules (Tracer            *t,
                               Object            *leaf,
                               const GraftPyExpr *at)
{
  static const char *const composite[] = { "MultiheadAttention", "TransformerEncoderLayer",
                                           "TransformerDecoderLayer", NULL };
  Object                  *model;

  if (!g_strv_contains (composite, leaf->class_name))
    return;
  model = _graft_tracer_leaf_model (t, leaf, at);
  if (model == NULL)
    return;
  for (guint i = 0; i < model->modules.keys->len; i++)
    _graft_strmap_set (&leaf->modules, model->modules.keys->pdata[i],
                       model->modules.values->pdata[i]);
}

/**
 * _graft_tracer_leaf_tensor:
 * @leaf: a torch.nn leaf module
 * @name: one of its parameters (@buffer %FALSE) or buffers
 *
 * A leaf's tensors are made on first access so that they keep their
 * identity afterwards.  One made after the trace collected the tensors'
 * paths still gets its path: passed to an op, it is `self.bn.running_mean`,
 * as torch finds it in named_buffers(), not a constant of its own.
 *
 * Returns: the parameter or tensor
 */
Value *
_graft_tracer_leaf_tensor (Tracer     *t,
                           Object     *leaf,
                           const char *name,
                           gboolean    buffer)
{
  StrMap     *map = buffer ? &leaf->buffers : &leaf->params;
  Value      *v = _graft_strmap_get (map, name);
  const char *base;

  if (v != NULL)
    return v;
  if (buffer)
    v = _graft_value_tensor (t);
  else
    {
      v = _graft_value_new (t, VAL_PARAMETER);
      v->tensor.id = ++t->n_tensors;
    }
  name = _graft_tracer_strdup (t, name, -1);
  _graft_strmap_set (map, name, v);
  base = g_hash_table_lookup (t->module_paths, leaf);
  if (base != NULL && !g_hash_table_contains (t->tensor_paths, v))
    {
      g_hash_table_insert (t->tensor_paths, v, (gpointer) _graft_tracer_join_path (t, base, name));
      t->n_kept++;
    }
  return v;
}

/* Python's AttributeError for an instance of class @class_name without
 * @name, its text `str(e)` and `e.args` as Python's. */
static Value *
raise_no_attribute (Tracer            *t,
                    const char        *class_name,
                    const char        *name,
                    const GraftPyExpr *at)
{
  const char *message =
      _graft_tracer_printf (t, "'%s' object has no attribute '%s'", class_name, name);

  _graft_tracer_raise (t, "AttributeError", at->start, at->end, "AttributeError: %s", message);
  t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
  _graft_value_seq_add (t->raised_args, _graft_value_str (t, message, -1));
  return NULL;
}

static Value *module_getattr_fallback (Tracer            *t,
                                       Value             *self,
                                       const char        *name,
                                       const GraftPyExpr *at);

/* Python's AttributeError for a module @module without @name, `str(e)`
 * and `e.args` as Python's. */
static Value *
raise_module_no_attribute (Tracer            *t,
                           const char        *module,
                           const char        *name,
                           const GraftPyExpr *at)
{
  const char *message = _graft_tracer_printf (t, "module '%s' has no attribute '%s'", module, name);

  if (t->error != NULL)
    return NULL;
  _graft_tracer_raise (t, "AttributeError", at->start, at->end, "AttributeError: %s", message);
  t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
  _graft_value_seq_add (t->raised_args, _graft_value_str (t, message, -1));
  return NULL;
}

static Value *
module_getattr (Tracer            *t,
                Value             *self,
                const char        *name,
                const GraftPyExpr *at)
{
  Object *obj = self->obj;
  Value  *v;
  Class  *owner = NULL;

  if ((v = _graft_strmap_get (&obj->attrs, name)) != NULL)
    return v;
  if (obj->cls != NULL && (v = _graft_tracer_class_lookup (obj->cls, name, &owner)) != NULL)
    {
      if (v->kind == VAL_FUNCTION && v->fn->is_property)
        {
          PtrVec *args = _graft_tracer_vec (t);
          Value  *got = _graft_tracer_call_function (t, v->fn, self, args, NULL, at);

          /* A getter's AttributeError makes Python call
           * nn.Module.__getattr__(name), which finds only a parameter,
           * buffer or submodule of that name, else raises its own
           * AttributeError naming the property, not what the getter
           * missed. */
          if (got != NULL || t->raised == NULL ||
              !_graft_tracer_exception_is (t, t->raised, "AttributeError"))
            return got;
          g_clear_error (&t->error);
          t->raised = NULL;
          t->raised_args = NULL;
          return module_getattr_fallback (t, self, name, at);
        }
      return bind_method (t, self, v);
    }
  return module_getattr_fallback (t, self, name, at);
}

/* module_getattr() past the instance's attributes and its class:
 * nn.Module.__getattr__'s parameters, buffers and submodules, and what
 * Graft models of a layer. */
static Value *
module_getattr_fallback (Tracer            *t,
                         Value             *self,
                         const char        *name,
                         const GraftPyExpr *at)
{
  Object *obj = self->obj;
  Value  *v;

  if ((v = _graft_strmap_get (&obj->params, name)) != NULL)
    {
      const char *base = g_hash_table_lookup (t->module_paths, obj);
      const char *first;

      if (!t->tracing || base == NULL)
        return v;
      /* A parameter held by several modules or names (tied weights,
       * `self.w2 = self.w`) is the get_attr of its first name in
       * named_parameters() order, the one torch.fx finds. */
      first = v->kind == VAL_PARAMETER ? g_hash_table_lookup (t->tensor_paths, v) : NULL;
      return parameter_proxy (t, first != NULL ? first : _graft_tracer_join_path (t, base, name),
                              at);
    }
  if ((v = _graft_strmap_get (&obj->buffers, name)) != NULL)
    return v;
  if ((v = _graft_strmap_get (&obj->modules, name)) != NULL)
    return v;
  /* Set by nn.Module.__init__. */
  if (strcmp (name, "training") == 0 && !obj->before_init)
    return _graft_value_bool (TRUE);
  if (obj->kind == OBJ_LEAF)
    {
      /* A layer Graft has a model of holds what its model's __init__
       * stores: its parameters and buffers (None where a setting leaves
       * one out: `bias=False`), and its settings. */
      Object *model = _graft_tracer_leaf_model (t, obj, at);

      if (model != NULL)
        {
          Value *own;

          /* The leaf's tensor is its own; what it is made like (its shape
           * in __init__: `self.fc.weight.shape`), the model's. */
          if ((v = _graft_strmap_get (&model->params, name)) != NULL)
            {
              own = _graft_tracer_leaf_tensor (t, obj, name, FALSE);
              if (own->tensor.meta == NULL && _graft_value_is_tensor (v))
                own->tensor.meta = v->tensor.meta;
              return module_getattr (t, self, name, at);
            }
          if ((v = _graft_strmap_get (&model->buffers, name)) != NULL && v->kind != VAL_NONE)
            {
              own = _graft_tracer_leaf_tensor (t, obj, name, TRUE);
              if (own->tensor.meta == NULL && _graft_value_is_tensor (v))
                own->tensor.meta = v->tensor.meta;
              return own;
            }
          if (v != NULL)
            return v;
          if ((v = _graft_strmap_get (&model->attrs, name)) != NULL)
            return v;
        }
      else if (is_leaf_buffer_name (name))
        return _graft_tracer_leaf_tensor (t, obj, name, TRUE);
      else if (is_leaf_param_name (name))
        {
          _graft_tracer_leaf_tensor (t, obj, name, FALSE);
          return module_getattr (t, self, name, at);
        }
    }
  if (_graft_tracer_has_method (self, name))
    {
      Value *m = _graft_value_new (t, VAL_METHOD);

      m->method.recv = self;
      m->method.name = _graft_tracer_strdup (t, name, -1);
      return m;
    }
  if (obj->kind == OBJ_LEAF && obj->model == obj)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "the attribute '%s' of torch.nn.%s is not known to Graft", name,
                               obj->class_name);
  /* nn.Module.__getattr__'s AttributeError, which `except AttributeError`,
   * hasattr() and getattr()'s default catch. */
  return raise_no_attribute (t, obj->class_name, name, at);
}

/* In a top-level `def forward(self, ...)`, `self.a.b` is a submodule path
 * while some longer path or call goes through it, and otherwise a parameter
 * (cli.md; fx-reference builds the same module). */
static Value *
self_path_getattr (Tracer            *t,
                   Value             *base,
                   const char        *name,
                   const GraftPyExpr *at)
{
  const char *path = _graft_tracer_join_path (t, base->path, name);
  gpointer    kind = g_hash_table_lookup (t->self_tree, path);

  if (kind == SELF_PARAM)
    return parameter_proxy (t, path, at);
  return _graft_value_path (t, VAL_SELF_PATH, path);
}

/**
 * _graft_tracer_proxy_object:
 * @name: an attribute of a traced value
 *
 * Whether `x.NAME` is an object torch.fx's Proxy really holds, which
 * Python finds before `__getattr__` and which Graft does not model:
 * `node` (the Node), `tracer` (the Tracer), `__class__`, `__dict__`.
 *
 * Returns: (nullable): what it is, for a message ("torch.fx Node"), or
 *   %NULL when `x.NAME` is an attribute torch.fx records
 */
const char *
_graft_tracer_proxy_object (const char *name)
{
  /* The first byte first: this is asked for every attribute made. */
  switch (name[0])
    {
    case 'n':
      return strcmp (name, "node") == 0 ? "torch.fx Node" : NULL;
    case 't':
      return strcmp (name, "tracer") == 0 ? "torch.fx Tracer" : NULL;
    case '_':
      if (strcmp (name, "__class__") == 0)
        return "class (Proxy)";
      return strcmp (name, "__dict__") == 0 ? "instance dict" : NULL;
    default:
      return NULL;
    }
}

/**
 * _graft_tracer_proxy_getattr:
 * @proxy: a traced value (a Proxy, or an Attribute such as `x.T`)
 * @name: the attribute; kept, not copied, when @stable
 *
 * `proxy.name`.  Python finds the attributes a torch.fx Proxy really has
 * before its `__getattr__` makes an Attribute (a getattr node once used).
 * On an Attribute: `root` (the proxy it was taken of: `x.T.root` is `x`),
 * `attr` (its name) and `_node` (None until its node is made); on both,
 * `__module__`.  The objects of _graft_tracer_proxy_object() stay
 * attributes here, so that calling one fails as Python does
 * (graft-tracer-call.c), and using one as a value fails where its node
 * would be made (_graft_tracer_node_of()).
 *
 * Returns: (nullable): the value, or %NULL when the tracer has failed
 */
Value *
_graft_tracer_proxy_getattr (Tracer            *t,
                             Value             *proxy,
                             const char        *name,
                             gboolean           stable,
                             const GraftPyExpr *at)
{
  Value *v;

  /* `y.node.name`: the Node's own text, where its node is made. */
  if (G_UNLIKELY (proxy->kind == VAL_ATTR_PROXY && proxy->attr.made == NULL &&
                  strcmp (proxy->attr.attr, "node") == 0 && _graft_tracer_attr_len (t, proxy) < 0))
    {
      Value     *base = proxy->attr.base;
      GraftNode *node = base->kind == VAL_PROXY        ? base->node
                        : base->kind == VAL_ATTR_PROXY ? base->attr.made
                                                       : NULL;

      if (node != NULL)
        {
          if (strcmp (name, "name") == 0)
            return _graft_value_str (t, graft_node_get_name (node), -1);
          if (strcmp (name, "op") == 0)
            return _graft_value_str (t, graft_op_to_string (graft_node_get_op (node)), -1);
          /* A function's target is the function, which Graft does not
           * model as a value. */
          if (strcmp (name, "target") == 0 &&
              graft_node_get_op (node) != GRAFT_OP_CALL_FUNCTION)
            return _graft_value_str (t, graft_node_get_target (node), -1);
        }
    }

  /* One test of the first byte keeps the common names (`shape`, `T`,
   * `size`...) to a compare or two. */
  switch (name[0])
    {
    case 'n':
      /* `x.T.node`: torch.fx's Attribute.node makes the getattr node. */
      if (proxy->kind == VAL_ATTR_PROXY && proxy->attr.made == NULL &&
          strcmp (name, "node") == 0 && _graft_tracer_proxy_object (proxy->attr.attr) == NULL &&
          _graft_tracer_node_of (t, proxy) == NULL)
        return NULL;
      break;
    case 'r':
      if (proxy->kind == VAL_ATTR_PROXY && strcmp (name, "root") == 0)
        return proxy->attr.base;
      break;
    case 'a':
      if (proxy->kind == VAL_ATTR_PROXY && strcmp (name, "attr") == 0)
        return _graft_value_str (t, proxy->attr.attr, _graft_tracer_attr_len (t, proxy));
      break;
    case '_':
      if (proxy->kind == VAL_ATTR_PROXY && strcmp (name, "_node") == 0)
        {
          if (proxy->attr.made == NULL)
            return _graft_value_none ();
          return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                     "'_node' of a traced value is its torch.fx Node, which "
                                     "Graft does not model");
        }
      if (strcmp (name, "__module__") == 0)
        return _graft_value_str (t, "torch.fx.proxy", -1);
      break;
    default:
      break;
    }
  v = _graft_value_new (t, VAL_ATTR_PROXY);
  v->attr.base = proxy;
  v->attr.attr = stable ? name : _graft_tracer_strdup (t, name, -1);
  return v;
}

/**
 * _graft_tracer_proxy_getattr_nul:
 * @name: an attribute name of @len bytes with a NUL byte among them
 *
 * `getattr(proxy, name)` for a name that holds a NUL byte: an Attribute,
 * whose name keeps its length (_graft_tracer_attr_len()) through the
 * getattr node it becomes, where torch.fx writes it
 * `getattr(x, 'a\x00b')`.  None of a Proxy's own attributes.
 *
 * Returns: the value
 */
Value *
_graft_tracer_proxy_getattr_nul (Tracer     *t,
                                 Value      *proxy,
                                 const char *name,
                                 gsize       len)
{
  Value *v = _graft_value_new (t, VAL_ATTR_PROXY);
  char  *copy = g_memdup2 (name, len + 1);

  copy[len] = '\0';
  if (t->nul_attrs == NULL)
    t->nul_attrs = g_hash_table_new_full (NULL, NULL, g_free, NULL);
  g_hash_table_insert (t->nul_attrs, copy, GSIZE_TO_POINTER (len));
  v->attr.base = proxy;
  v->attr.attr = copy;
  return v;
}

/**
 * _graft_tracer_attr_len:
 * @v: an Attribute (VAL_ATTR_PROXY)
 *
 * Returns: the length of @v's name when it holds a NUL byte
 *   (_graft_tracer_proxy_getattr_nul()), else -1 (a C string)
 */
gssize
_graft_tracer_attr_len (Tracer      *t,
                        const Value *v)
{
  gpointer len;

  if (G_LIKELY (t->nul_attrs == NULL) ||
      !g_hash_table_lookup_extended (t->nul_attrs, v->attr.attr, NULL, &len))
    return -1;
  return (gssize) GPOINTER_TO_SIZE (len);
}

/**
 * _graft_tracer_check_attr_name:
 * @what: what the name is, for the message ("a method name")
 * @name: a name of @len bytes
 * @start: where the failure is reported
 * @end: and its end
 *
 * A name with a NUL byte where torch.fx's generated code would hold it
 * raw (a method's name, a keyword's): compiling that code fails
 * (`source code string cannot contain null bytes`), and so does Graft.
 *
 * Returns: %FALSE with the tracer's error if @name holds a NUL byte
 */
gboolean
_graft_tracer_check_attr_name (Tracer     *t,
                               const char *what,
                               const char *name,
                               gsize       len,
                               guint32     start,
                               guint32     end)
{
  if (G_LIKELY (memchr (name, '\0', len) == NULL))
    return TRUE;
  _graft_tracer_fail (t, start, end, GRAFT_PARSE_ERROR_TRACE,
                      "%s with a NUL byte: torch.fx's generated code cannot hold it "
                      "(source code string cannot contain null bytes)",
                      what);
  return FALSE;
}

/* The names of torch.Tensor, per torch (tests/tools/gen-tensor-attrs.py
 * writes each table; sorted by strcmp). */
typedef struct
{
  const char    *name;
  TensorAttrKind kind;
} TensorAttr;

#define GRAFT_TENSOR_ATTR(name, kind) { name, TENSOR_ATTR_##kind },
static const TensorAttr tensor_attrs_2_6[] = {
#include "graft-tensor-attrs-2.6.inc"
};
static const TensorAttr tensor_attrs_1_13[] = {
#include "graft-tensor-attrs-1.13.inc"
};
#undef GRAFT_TENSOR_ATTR

/* Indexed by GraftTorch. */
static const struct
{
  const TensorAttr *rows;
  gsize             n;
} tensor_attrs[] = {
  [GRAFT_TORCH_2_6] = { tensor_attrs_2_6, G_N_ELEMENTS (tensor_attrs_2_6) },
  [GRAFT_TORCH_1_13] = { tensor_attrs_1_13, G_N_ELEMENTS (tensor_attrs_1_13) },
};

static int
tensor_attr_compare (const void *key,
                     const void *row)
{
  return strcmp (key, ((const TensorAttr *) row)->name);
}

/**
 * _graft_tracer_tensor_attr_kind:
 * @name: an attribute name (a C string)
 *
 * What @name is on a tensor (a torch.Tensor or an nn.Parameter: they have
 * the same names) in the torch of the tracer's dialect.
 *
 * Returns: %TENSOR_ATTR_METHOD, %TENSOR_ATTR_DATA, or %TENSOR_ATTR_NONE
 *   when torch raises AttributeError
 */
TensorAttrKind
_graft_tracer_tensor_attr_kind (Tracer     *t,
                                const char *name)
{
  const TensorAttr *row;

  row = bsearch (name, tensor_attrs[t->dialect->torch].rows, tensor_attrs[t->dialect->torch].n,
                 sizeof (TensorAttr), tensor_attr_compare);
  return row != NULL ? row->kind : TENSOR_ATTR_NONE;
}

/* The names of an OpOverload in torch 2.6 that are not Python's own
 * (`__name__`): dir(torch.ops.aten.add.Tensor), the same for every
 * overload (OpOverload has no __getattr__).  Sorted by strcmp. */
static const char *const op_overload_names[] = {
  "_can_decompose",
  "_defined_in_python",
  "_dispatch_cache",
  "_get_dispatch",
  "_handle",
  "_lazy_handle",
  "_name",
  "_namespace",
  "_op",
  "_op_dk",
  "_opname",
  "_overloadname",
  "_overloadpacket",
  "_schema",
  "_tags",
  "_uncache_dispatch",
  "decompose",
  "functorch_table",
  "has_kernel_for_any_dispatch_key",
  "has_kernel_for_dispatch_key",
  "is_view",
  "name",
  "namespace",
  "op",
  "overloadpacket",
  "py_functionalize_impl",
  "py_impl",
  "py_kernels",
  "python_key_table",
  "redispatch",
  "tags",
};

static int
op_overload_name_compare (const void *key,
                          const void *row)
{
  return strcmp (key, *(const char *const *) row);
}

/* `torch.ops.aten.NAME`, `torch.ops.aten.NAME.OVERLOAD` and an attribute
 * of that OpOverload: a name the packets table of the tracer's torch
 * (graft-tracer-oppackets.c: every OpOverload of aten) does not hold, or
 * that an OpOverload of torch 2.6 does not have
 * (`torch.ops.aten.add.Tensor.default`), is torch's AttributeError (the
 * same text in both torches; torch 1.13.1's OpOverload raises its own, see
 * op_overload_getattr()).  Names of Python's (`__name__`) and of the
 * packet's own (`overloads`, `op`, `_qualified_op_name`) are let through.
 *
 * Returns: %FALSE with the error raised
 */
/* The namespaces of operators in each torch once torch, torch.fx,
 * torchvision, torch.ao.quantization, torch._inductor, torch.distributed
 * and torch.export are imported: the names before `::` of
 * torch._C._jit_get_all_schemas() and (2.6) of
 * torch._C._dispatch_get_all_op_names().  Sorted (strcmp). */
static const char *const op_namespaces_1_13[] = {
  "_quantized",
  "_test",
  "aten",
  "c10d",
  "image",
  "mkldnn_prepacked",
  "nvprims",
  "onnx",
  "prepacked",
  "prim",
  "prims",
  "profiler",
  "quantization",
  "quantized",
  "sparse",
  "static_runtime",
  "torchvision",
  "video_reader",
};
static const char *const op_namespaces_2_6[] = {
  "_c10d_functional",
  "_c10d_functional_autograd",
  "_dtensor",
  "_inductor_test",
  "_quantized",
  "_test",
  "aten",
  "c10d",
  "c10d_functional",
  "debugprims",
  "flex_lib",
  "fsdp",
  "higher_order",
  "image",
  "inductor",
  "mkldnn",
  "mkldnn_prepacked",
  "onednn",
  "onnx",
  "prepacked",
  "prim",
  "prims",
  "profiler",
  "quantization",
  "quantized",
  "quantized_decomposed",
  "rngprims",
  "sparse",
  "static_runtime",
  "symm_mem",
  "torchvision",
  "video_reader",
  "vulkan_prepack",
  "vulkan_quantized",
};

static int
op_namespace_compare (const void *key,
                      const void *item)
{
  return strcmp (key, *(const char *const *) item);
}

/* Namespaces of the lists above that only an import registers (probed
 * with each oracle: `hasattr(torch.ops.NS, OP)` after `import torch,
 * torch.fx`, then after each import): torchvision's C library registers
 * torchvision, image and video_reader, and in 2.6 its import brings
 * c10d_functional, fsdp, flex_lib and _inductor_test along;
 * quantized_decomposed is torch.ao.quantization.fx._decomposed's, which
 * the FX and PT2E quantization modules import (torch.ao.quantization
 * itself, observer, qconfig do not). */
typedef struct
{
  const char *ns;
  const char *by[4]; /* module paths, any of which (or a submodule) registers it */
} OpNamespaceImport;

static const OpNamespaceImport op_namespace_imports[] = {
  { "_inductor_test", { "torchvision" } },
  { "c10d_functional", { "torchvision" } },
  { "flex_lib", { "torchvision" } },
  { "fsdp", { "torchvision" } },
  { "image", { "torchvision" } },
  { "quantized_decomposed",
    { "torch.ao.quantization.fx", "torch.ao.quantization.quantize_fx",
      "torch.ao.quantization.quantize_pt2e", "torch.ao.quantization.pt2e" } },
  { "torchvision", { "torchvision" } },
  { "video_reader", { "torchvision" } },
};

/* Whether torch has registered namespace @ns, of the dialect's list, by
 * the program's imports so far. */
static gboolean
op_namespace_registered (Tracer     *t,
                         const char *ns)
{
  for (guint i = 0; i < G_N_ELEMENTS (op_namespace_imports); i++)
    {
      if (strcmp (op_namespace_imports[i].ns, ns) != 0)
        continue;
      if (t->imported == NULL)
        return FALSE;
      for (guint j = 0; j < G_N_ELEMENTS (op_namespace_imports[i].by); j++)
        if (op_namespace_imports[i].by[j] != NULL &&
            g_hash_table_contains (t->imported, op_namespace_imports[i].by[j]))
          return TRUE;
      return FALSE;
    }
  return TRUE;
}

/* `torch.ops.NS.name` where torch has no namespace NS: torch.ops makes
 * an empty _OpNamespace of any name, whose every operator is an
 * AttributeError (`torch.ops.M.add` printed torch.ops.M.add.Tensor(...)),
 * and so is a namespace of torchvision's before `import torchvision`.
 * torch.ops's own attributes (load_library, pyops, ...) are no
 * namespaces and let through. */
static gboolean
check_op_namespace (Tracer            *t,
                    const char        *path,
                    const char        *name,
                    const GraftPyExpr *at)
{
  static const char *const ops_attrs[] = { "import_module", "load_library", "loaded_libraries",
                                           "pyops" };
  const char              *ns = path + strlen ("torch.ops.");
  gboolean                 old = t->dialect->torch == GRAFT_TORCH_1_13;

  if (strchr (ns, '.') != NULL || g_str_has_prefix (name, "__"))
    return TRUE;
  if (bsearch (ns, old ? op_namespaces_1_13 : op_namespaces_2_6,
               old ? G_N_ELEMENTS (op_namespaces_1_13) : G_N_ELEMENTS (op_namespaces_2_6),
               sizeof (const char *), op_namespace_compare) != NULL)
    {
      if (op_namespace_registered (t, ns))
        return TRUE;
    }
  else if (ns[0] == '_')
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (ops_attrs); i++)
    if (strcmp (ns, ops_attrs[i]) == 0)
      return TRUE;
  _graft_tracer_raise_text (
      t, "AttributeError",
      _graft_tracer_printf (t, "'_OpNamespace' '%s' object has no attribute '%s'", ns, name), at);
  return FALSE;
}

static gboolean
check_aten_attr (Tracer            *t,
                 const char        *path,
                 const char        *name,
                 const GraftPyExpr *at)
{
  const char *op, *dot;
  OpPacket    packet;

  if (!g_str_has_prefix (path, "torch.ops.aten") && g_str_has_prefix (path, "torch.ops."))
    return check_op_namespace (t, path, name, at);
  if (!g_str_has_prefix (path, "torch.ops.aten") || g_str_has_prefix (name, "__"))
    return TRUE;
  if (strcmp (path, "torch.ops.aten") == 0)
    {
      if (_graft_tracer_op_packet_find (t, name, strlen (name), &packet))
        return TRUE;
      _graft_tracer_raise (t, "AttributeError", at->start, at->end,
                           "AttributeError: '_OpNamespace' 'aten' object has no attribute '%s'",
                           name);
      return FALSE;
    }
  op = path + strlen ("torch.ops.aten");
  if (op[0] != '.')
    return TRUE;
  dot = strchr (op + 1, '.');
  if (dot != NULL)
    {
      /* The packet and the overload were looked at as they were read:
       * @path is an OpOverload.  An attribute's own attributes are let
       * through. */
      if (t->dialect->torch != GRAFT_TORCH_2_6 || strchr (dot + 1, '.') != NULL ||
          bsearch (name, op_overload_names, G_N_ELEMENTS (op_overload_names),
                   sizeof op_overload_names[0], op_overload_name_compare) != NULL)
        return TRUE;
      _graft_tracer_raise (t, "AttributeError", at->start, at->end,
                           "AttributeError: 'OpOverload' object has no attribute '%s'", name);
      return FALSE;
    }
  if (name[0] == '_' || strcmp (name, "overloads") == 0 || strcmp (name, "op") == 0)
    return TRUE;
  if (_graft_tracer_op_packet_find (t, op + 1, strlen (op + 1), &packet) &&
      _graft_tracer_op_overload_find (t, &packet, name) >= 0)
    return TRUE;
  _graft_tracer_raise (t, "AttributeError", at->start, at->end,
                       "AttributeError: The underlying op of 'aten%s' has no overload name '%s'",
                       op, name);
  return FALSE;
}

/* The non-dunder names of dir() of an OpOverload in torch 1.13.1, which
 * has a __getattr__ that raises an AttributeError without text for any
 * other (its `is_view`, `_opname` are torch 2.6's). */
static const char *const op_overload_names_1_13[] = {
  "_abc_impl",
  "_name",
  "_op",
  "_op_dk",
  "_overloadname",
  "_overloadpacket",
  "_schema",
  "_tags",
  "decompose",
  "name",
  "namespace",
  "op",
  "overloadpacket",
  "py_impl",
  "py_kernels",
  "python_key_mode_table",
  "tags",
};

/* The attributes of a packet torch.fx code may read and Graft models. */
static Value *
op_packet_getattr (Tracer            *t,
                   Value             *packet,
                   const char        *name,
                   const GraftPyExpr *at)
{
  const char *op = strrchr (packet->path, '.') + 1;
  const char *ns = packet->path + strlen ("torch.ops.");

  if (strcmp (name, "__name__") == 0)
    return _graft_value_str (t, op, -1);
  if (strcmp (name, "_qualified_op_name") == 0)
    return _graft_value_str (t, _graft_tracer_printf (t, "%.*s::%s", (int) (op - 1 - ns), ns, op),
                             -1);
  /* The packet's C++ function: called, it records the packet. */
  if (strcmp (name, "op") == 0 || strcmp (name, "_op") == 0 || strcmp (name, "__call__") == 0)
    return packet;
  if (strcmp (name, "overloads") == 0)
    {
      /* A method: called, _graft_tracer_call_method() answers. */
      Value *m = _graft_value_new (t, VAL_METHOD);

      m->method.recv = packet;
      m->method.name = "overloads";
      return m;
    }
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "the attribute '%s' of an OpOverloadPacket is not modelled by "
                             "Graft's tracer",
                             name);
}

/* `torch.ops.NS.OP.OVERLOAD.name` as each torch answers it: the names and
 * strings code may use are values, `op` and `overloadpacket` the operator
 * that a call records; the others of dir() are values Graft refuses to call
 * (never a target), and any other name is torch's
 * AttributeError (torch 2.6's text; torch 1.13.1's has none). */
static Value *
op_overload_getattr (Tracer            *t,
                     Value             *overload,
                     const char        *name,
                     const GraftPyExpr *at)
{
  const char *path = overload->path;
  const char *ns = path + strlen ("torch.ops.");
  const char *op = strchr (ns, '.') + 1;
  const char *ovl = strchr (op, '.') + 1;
  gboolean    is_2_6 = t->dialect->torch == GRAFT_TORCH_2_6;
  gboolean    listed;
  int         row;

  if (strcmp (name, "__name__") == 0)
    return _graft_value_str (t, op, -1);
  if (strcmp (name, "__qualname__") == 0 || strcmp (name, "_name") == 0)
    return _graft_value_str (t, _graft_tracer_op_overload_name (t, path), -1);
  if (strcmp (name, "__module__") == 0)
    return _graft_value_str (
        t, _graft_tracer_printf (t, "torch._ops.%.*s", (int) (op - 1 - ns), ns), -1);
  if (strcmp (name, "__doc__") == 0)
    return _graft_value_none ();
  if (strcmp (name, "op") == 0 || strcmp (name, "_op") == 0 || strcmp (name, "__call__") == 0)
    return overload;
  if (strcmp (name, "overloadpacket") == 0 || strcmp (name, "_overloadpacket") == 0)
    return _graft_value_path (t, VAL_PATH_FN, _graft_tracer_strdup (t, path, ovl - 1 - path));
  if (strcmp (name, "_overloadname") == 0)
    return _graft_value_str (t, ovl, -1);
  if (strcmp (name, "namespace") == 0 || (is_2_6 && strcmp (name, "_namespace") == 0))
    return _graft_value_str (t, ns, op - 1 - ns);
  if (is_2_6 && strcmp (name, "_opname") == 0)
    return _graft_value_str (t, op, ovl - 1 - op);
  if (is_2_6 && strcmp (name, "_defined_in_python") == 0)
    return _graft_value_bool (FALSE);
  if (strcmp (name, "name") == 0)
    {
      /* A method: called, _graft_tracer_call_method() answers. */
      Value *m = _graft_value_new (t, VAL_METHOD);

      m->method.recv = overload;
      m->method.name = "name";
      return m;
    }
  if ((strcmp (name, "tags") == 0 || strcmp (name, "_tags") == 0) &&
      (row = _graft_tracer_op_overload_row (t, path)) >= 0)
    return _graft_tracer_op_tags (t, (guint) row);
  if (is_2_6 && strcmp (name, "is_view") == 0)
    {
      const GraftAtenSchema *schema = graft_aten_schema_lookup (path);

      /* Whether an argument aliases the output without writing to it
       * (`Tensor(a) self`, not `Tensor(a!)`). */
      for (guint i = 0; schema != NULL && i < graft_aten_schema_get_n_arguments (schema); i++)
        {
          GraftAtenArgument arg;
          const char       *alias;

          graft_aten_schema_get_argument (schema, i, &arg);
          alias = strchr (arg.type, '(');
          if (alias != NULL && strchr (alias, '!') == NULL)
            return _graft_value_bool (TRUE);
        }
      if (schema != NULL)
        return _graft_value_bool (FALSE);
    }
  if (is_2_6)
    listed = bsearch (name, op_overload_names, G_N_ELEMENTS (op_overload_names),
                      sizeof op_overload_names[0], op_overload_name_compare) != NULL;
  else
    listed = bsearch (name, op_overload_names_1_13, G_N_ELEMENTS (op_overload_names_1_13),
                      sizeof op_overload_names_1_13[0], op_overload_name_compare) != NULL;
  /* Torch's other names (a FunctionSchema, tags, dispatch tables, Python
   * methods): a path that call_op_overload() refuses to call, so that
   * reading one without using it traces on as in torch. */
  if (listed || g_str_has_prefix (name, "__"))
    return _graft_value_path (t, VAL_PATH_FN, _graft_tracer_join_path (t, path, name));
  if (!is_2_6)
    {
      _graft_tracer_raise (t, "AttributeError", at->start, at->end, "AttributeError: ");
      t->raised_args = _graft_value_seq (t, VAL_TUPLE, 0);
      return NULL;
    }
  return raise_no_attribute (t, "OpOverload", name, at);
}

/* `overload._schema.name` and `.overload_name` of an aten overload (the
 * FunctionSchema's other attributes are paths, as before).  Returns:
 * (nullable): the value, or %NULL for a name not modelled */
static Value *
op_schema_getattr (Tracer     *t,
                   Value      *schema,
                   const char *name)
{
  g_autofree char *path = g_strndup (schema->path, strlen (schema->path) - strlen ("._schema"));
  const char      *ns = path + strlen ("torch.ops.");
  const char      *op = strchr (ns, '.') + 1;
  const char      *ovl = strchr (op, '.') + 1;

  if (_graft_tracer_op_overload_row (t, path) < 0)
    return NULL;
  if (strcmp (name, "name") == 0)
    return _graft_value_str (t,
                             _graft_tracer_printf (t, "%.*s::%.*s", (int) (op - 1 - ns), ns,
                                                   (int) (ovl - 1 - op), op),
                             -1);
  if (strcmp (name, "overload_name") == 0)
    return _graft_value_str (t, strcmp (ovl, "default") == 0 ? "" : ovl, -1);
  return NULL;
}

/**
 * _graft_tracer_op_path_append_str:
 * @path: a path under `torch.ops.`
 *
 * str() and repr() of a packet (`aten.add`, `<OpOverloadPacket(op='aten.add')>`),
 * an overload (`aten.add.Tensor`, `<OpOverload(op='aten.add', overload='Tensor')>`)
 * and an aten overload's schema (its text, either way in torch 2.6; its repr in
 * torch 1.13.1 is an address).
 *
 * Returns: whether @path is one of them (and @out has its text)
 */
gboolean
_graft_tracer_op_path_append_str (Tracer     *t,
                                  const char *path,
                                  gboolean    repr,
                                  GString    *out)
{
  const char *ns = path + strlen ("torch.ops.");
  const char *op = strchr (ns, '.');
  const char *ovl = op != NULL ? strchr (op + 1, '.') : NULL;
  int         row;

  if (op == NULL)
    return FALSE;
  if (ovl == NULL)
    {
      if (repr)
        g_string_append_printf (out, "<OpOverloadPacket(op='%s')>", ns);
      else
        g_string_append (out, ns);
      return TRUE;
    }
  if (strchr (ovl + 1, '.') == NULL)
    {
      if (repr)
        g_string_append_printf (out, "<OpOverload(op='%.*s', overload='%s')>", (int) (ovl - ns),
                                ns, ovl + 1);
      else
        g_string_append (out, ns);
      return TRUE;
    }
  if (g_str_has_suffix (path, "._schema"))
    {
      g_autofree char *overload = g_strndup (path, strlen (path) - strlen ("._schema"));

      /* torch 1.13.1's FunctionSchema has no __repr__ (an address). */
      if ((row = _graft_tracer_op_overload_row (t, overload)) < 0 ||
          (repr && t->dialect->torch != GRAFT_TORCH_2_6))
        return FALSE;
      g_string_append (out, _graft_tracer_op_schema_text (t, (guint) row));
      return TRUE;
    }
  return FALSE;
}

/**
 * _graft_tracer_op_overload_name:
 * @path: `torch.ops.NS.OP.OVERLOAD`
 *
 * What the OpOverload's name() answers: `NS::OP.OVERLOAD`, `NS::OP` for
 * the overload `default`.
 */
const char *
_graft_tracer_op_overload_name (Tracer     *t,
                                const char *path)
{
  const char *ns = path + strlen ("torch.ops.");
  const char *op = strchr (ns, '.') + 1;
  const char *ovl = strchr (op, '.') + 1;

  if (strcmp (ovl, "default") == 0)
    return _graft_tracer_printf (t, "%.*s::%.*s", (int) (op - 1 - ns), ns, (int) (ovl - 1 - op),
                                 op);
  return _graft_tracer_printf (t, "%.*s::%s", (int) (op - 1 - ns), ns, op);
}

/* dir() of Python's plain types, per Python of the oracles (3.11 for
 * torch 1.13.1, 3.13 for 2.6; gen-python-builtins.py asks each), each
 * name between spaces. */
typedef struct
{
  const char *type;
  const char *names;
} PythonTypeDir;

#define GRAFT_PYTHON_TYPE_DIR(type, names) { type, names },
static const PythonTypeDir python_type_dirs_3_11[] = {
#include "graft-python-builtins-3.11.inc"
};
static const PythonTypeDir python_type_dirs_3_13[] = {
#include "graft-python-builtins-3.13.inc"
};
#undef GRAFT_PYTHON_TYPE_DIR

/* Whether an attribute @name of @obj may exist in Python: FALSE only
 * for a None, bool, int, float, str, list, tuple or dict (not a range or
 * named tuple) whose type in both Pythons lacks it.  A torch.Size has a
 * tuple's attributes and numel(), a method (graft-tracer-methods.c). */
static gboolean
has_python_attribute (Tracer      *t,
                      const Value *obj,
                      const char  *name)
{
  const char          *type = _graft_value_type_name (obj);
  const PythonTypeDir *dirs =
      t->dialect->torch == GRAFT_TORCH_1_13 ? python_type_dirs_3_11 : python_type_dirs_3_13;
  gsize            n = t->dialect->torch == GRAFT_TORCH_1_13 ? G_N_ELEMENTS (python_type_dirs_3_11)
                                                             : G_N_ELEMENTS (python_type_dirs_3_13);
  g_autofree char *spaced = NULL;

  if (!(obj->kind == VAL_NONE || obj->kind == VAL_BOOL || obj->kind == VAL_INT ||
        obj->kind == VAL_FLOAT || obj->kind == VAL_STR || obj->kind == VAL_DICT ||
        obj->kind == VAL_LIST || obj->kind == VAL_TUPLE) ||
      strchr (name, ' ') != NULL)
    return TRUE;
  spaced = g_strconcat (" ", name, " ", NULL);
  for (gsize i = 0; i < n; i++)
    if (strcmp (dirs[i].type, type) == 0)
      return strstr (dirs[i].names, spaced) != NULL;
  return TRUE;
}

/**
 * _graft_tracer_getattr:
 *
 * `obj.name` for any value.
 */
Value *
_graft_tracer_getattr (Tracer            *t,
                       Value             *obj,
                       const char        *name,
                       const GraftPyExpr *at)
{
  Value *v;
  Class *owner = NULL;

  if (_graft_value_is_proxy (obj))
    return _graft_tracer_proxy_getattr (t, obj, name, FALSE, at);
  if (obj->kind == VAL_PYMODULE)
    {
      if (_graft_tracer_module_lacks (t, obj->path, name) ||
          _graft_tracer_module_unimported (t, obj->path, name))
        return raise_module_no_attribute (t, obj->path, name, at);
      return _graft_tracer_torch_attr (t, _graft_tracer_join_path (t, obj->path, name), at);
    }
  if (obj->kind == VAL_PATH_FN)
    {
      /* `torch.ops.aten.add` is a packet and `.Tensor` one of its overloads. */
      if (g_str_has_prefix (obj->path, "torch.ops."))
        {
          guint n_dots = 0;

          for (const char *p = obj->path; *p != '\0'; p++)
            n_dots += *p == '.';
          /* An overload's attributes are never an operator of their own. */
          if (n_dots == 4)
            return op_overload_getattr (t, obj, name, at);
          if (n_dots == 5 && g_str_has_suffix (obj->path, "._schema") &&
              (v = op_schema_getattr (t, obj, name)) != NULL)
            return v;
          if (n_dots == 3 && (name[0] == '_' || strcmp (name, "op") == 0 ||
                              strcmp (name, "overloads") == 0))
            return op_packet_getattr (t, obj, name, at);
          if (!check_aten_attr (t, obj->path, name, at))
            return NULL;
          return _graft_value_path (t, VAL_PATH_FN, _graft_tracer_join_path (t, obj->path, name));
        }
      /* torch.fx's exception for control flow on a traced value. */
      if (strcmp (obj->path, "torch.fx.proxy") == 0 && strcmp (name, "TraceError") == 0)
        return _graft_tracer_torch_attr (t, "torch.fx.proxy.TraceError", at);
      /* `nn.modules.conv.Conv4d`: a module Graft does not model but whose
       * names it has. */
      if (_graft_tracer_module_lacks (t, obj->path, name) ||
          _graft_tracer_module_unimported (t, obj->path, name))
        return raise_module_no_attribute (t, obj->path, name, at);
      /* A name torch has (`torch.nn.utils.rnn`, `.weight_norm`): a path,
       * which Graft refuses where it is called if it does not model it
       * (hasattr() is true, as in torch). */
      if (_graft_tracer_module_listed (t, obj->path))
        return _graft_tracer_torch_attr (t, _graft_tracer_join_path (t, obj->path, name), at);
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                 "%s has no attribute '%s' that Graft models", obj->path, name);
    }
  if (obj->kind == VAL_SELF_PATH)
    return self_path_getattr (t, obj, name, at);
  if (obj->kind == VAL_OBJECT)
    {
      /* `self.__class__`, as type(self): of an object of a file class,
       * an nn layer, an exception. */
      if (name[0] == '_' && strcmp (name, "__class__") == 0)
        return _graft_tracer_type_of (t, obj, at);
      if (object_is_module (obj->obj))
        return module_getattr (t, obj, name, at);
      if ((v = _graft_strmap_get (&obj->obj->attrs, name)) != NULL)
        return v;
      if (obj->obj->exception != NULL && obj->obj->exception_args != NULL &&
          strcmp (name, "args") == 0)
        return obj->obj->exception_args;
      if (obj->obj->exception != NULL)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "the exception caught is known to Graft by its class alone: "
                                   "its '%s' is not modelled",
                                   name);
      if (obj->obj->cls != NULL &&
          (v = _graft_tracer_class_lookup (obj->obj->cls, name, &owner)) != NULL)
        {
          if (v->kind == VAL_FUNCTION && v->fn->is_property)
            return _graft_tracer_call_function (t, v->fn, obj, _graft_tracer_vec (t), NULL, at);
          return bind_method (t, obj, v);
        }
      return raise_no_attribute (t, obj->obj->class_name, name, at);
    }
  if (obj->kind == VAL_CLASS)
    {
      if ((v = _graft_tracer_class_lookup (obj->cls, name, &owner)) != NULL)
        return v->kind == VAL_FUNCTION && v->fn->is_classmethod ? bind_method (t, obj, v) : v;
      if (strcmp (name, "__name__") == 0)
        return _graft_value_str (t, obj->cls->name, -1);
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                 "class '%s' has no attribute '%s'", obj->cls->name, name);
    }
  if (obj->kind == VAL_SUPER)
    {
      Class *cls = obj->super.self->kind == VAL_OBJECT ? obj->super.self->obj->cls : NULL;

      v = cls != NULL ? super_lookup (cls, obj->super.after, name, &owner) : NULL;
      if (v != NULL)
        return bind_method (t, obj->super.self, v);
      if (strcmp (name, "__init__") == 0)
        {
          Value *self = obj->super.self;
          Value *init;

          /* nn.Module.__init__: called, it gives the module its dicts
           * (graft-tracer-methods.c); object.__init__: nothing to do. */
          if (self->kind == VAL_OBJECT && object_is_module (self->obj))
            {
              init = _graft_value_new (t, VAL_METHOD);
              init->method.recv = self;
              init->method.name = "__graft_module_init__";
              return init;
            }
          /* object.__init__ of a class of plain classes takes no
           * arguments (an exception's BaseException.__init__ and the
           * bases Graft does not follow take them). */
          if (cls != NULL && only_object_bases (cls))
            return _graft_value_path (t, VAL_BUILTIN, "__graft_object_init__");
          return _graft_value_path (t, VAL_BUILTIN, "__graft_noop__");
        }
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                 "super().%s is not a method Graft can follow", name);
    }
  if (_graft_value_is_tensor (obj))
    {
      if (strcmp (name, "data") == 0)
        return obj->kind == VAL_PARAMETER && obj->tensor.data != NULL ? obj->tensor.data : obj;
      /* What a factory made it with (_graft_tracer_factory_tensor()). */
      if (obj->tensor.meta != NULL && strcmp (name, "shape") == 0)
        return obj->tensor.meta->shape;
      if (obj->tensor.meta != NULL && strcmp (name, "dtype") == 0)
        return obj->tensor.meta->dtype;
      if (obj->tensor.meta != NULL && strcmp (name, "device") == 0)
        return obj->tensor.meta->device;
      if (obj->tensor.meta != NULL && strcmp (name, "ndim") == 0)
        return _graft_value_int (t, obj->tensor.meta->shape->seq.items->len);
      if (strcmp (name, "shape") == 0 || strcmp (name, "dtype") == 0 ||
          strcmp (name, "device") == 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "the %s of a constant tensor depends on its data, which Graft "
                                   "does not compute",
                                   name);
      if ((strcmp (name, "T") == 0 || strcmp (name, "mT") == 0) &&
          (v = _graft_tracer_tensor_attribute (t, obj, name)) != NULL)
        return v;
      switch (_graft_tracer_tensor_attr_kind (t, name))
        {
        case TENSOR_ATTR_NONE:
          /* torch's AttributeError, which a handler catches. */
          return _graft_tracer_raise (t, "AttributeError", at->start, at->end,
                                      "AttributeError: '%s' object has no attribute '%s'",
                                      obj->kind == VAL_PARAMETER ? "Parameter" : "Tensor", name);
        case TENSOR_ATTR_DATA:
          return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                     "the attribute '%s' of a constant tensor is not modelled by "
                                     "Graft's tracer",
                                     name);
        case TENSOR_ATTR_METHOD:
          break;
        }
      /* A method of a constant tensor: called, it runs eagerly
       * (_graft_tracer_call_method()). */
      v = _graft_value_new (t, VAL_METHOD);
      v->method.recv = obj;
      v->method.name = _graft_tracer_strdup (t, name, -1);
      return v;
    }
  if (obj->kind == VAL_SLICE)
    {
      if (strcmp (name, "start") == 0)
        return obj->slice.start;
      if (strcmp (name, "stop") == 0)
        return obj->slice.stop;
      if (strcmp (name, "step") == 0)
        return obj->slice.step;
    }
  if (obj->kind == VAL_COMPLEX && (strcmp (name, "real") == 0 || strcmp (name, "imag") == 0))
    return _graft_value_float (t, obj->c[name[0] == 'r' ? 0 : 1]);
  if (obj->kind == VAL_DEVICE && (strcmp (name, "type") == 0 || strcmp (name, "index") == 0))
    {
      const char *colon = strchr (obj->path, ':');

      if (name[0] == 't')
        return _graft_value_str (t, obj->path, colon != NULL ? colon - obj->path : -1);
      return colon != NULL ? _graft_value_int (t, g_ascii_strtoll (colon + 1, NULL, 10))
                           : _graft_value_none ();
    }
  /* `nn.Module.__init__(self)`, the old spelling of super().__init__():
   * called, it gives the module its dicts (graft-tracer-call.c). */
  if (obj->kind == VAL_NN_CLASS && strcmp (obj->path, "torch.nn.Module") == 0 &&
      strcmp (name, "__init__") == 0)
    return _graft_value_path (t, VAL_BUILTIN, "__graft_nn_module_init__");
  if (strcmp (name, "__name__") == 0 && _graft_value_is_class (obj))
    {
      const char *dot = strrchr (obj->path, '.');

      return _graft_value_str (t, dot != NULL ? dot + 1 : obj->path, -1);
    }
  if (_graft_tracer_has_method (obj, name))
    {
      v = _graft_value_new (t, VAL_METHOD);
      v->method.recv = obj;
      v->method.name = _graft_tracer_strdup (t, name, -1);
      return v;
    }
  if (!has_python_attribute (t, obj, name))
    return raise_no_attribute (t,
                               obj->kind == VAL_TUPLE && obj->seq.size
                                   ? "torch.Size"
                                   : _graft_value_type_name (obj),
                               name, at);
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "'%s' object has no attribute '%s'", _graft_value_type_name (obj),
                             name);
}

static gboolean
module_setattr (Tracer            *t,
                Object            *obj,
                const char        *name,
                Value             *value,
                const GraftPyExpr *at)
{
  name = _graft_tracer_strdup (t, name, -1);
  /* Before nn.Module.__init__ there are no dicts to put a parameter or a
   * module in: nn.Module.__setattr__'s AttributeError. */
  if (obj->before_init && (value->kind == VAL_PARAMETER ||
                           (value->kind == VAL_OBJECT && object_is_module (value->obj))))
    {
      const char *message =
          _graft_tracer_printf (t, "cannot assign %s before Module.__init__() call",
                                value->kind == VAL_PARAMETER ? "parameters" : "module");

      _graft_tracer_raise (t, "AttributeError", at->start, at->end, "AttributeError: %s", message);
      t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
      _graft_value_seq_add (t->raised_args, _graft_value_str (t, message, -1));
      return FALSE;
    }
  /* nn.Module.__setattr__: parameters, modules and buffers go to their own
   * dicts; anything else is a plain attribute. */
  if (value->kind == VAL_PARAMETER)
    {
      _graft_strmap_remove (&obj->attrs, name);
      _graft_strmap_remove (&obj->modules, name);
      _graft_strmap_set (&obj->params, name, value);
      return TRUE;
    }
  if (value->kind == VAL_OBJECT && object_is_module (value->obj))
    {
      _graft_strmap_remove (&obj->attrs, name);
      _graft_strmap_remove (&obj->params, name);
      _graft_strmap_set (&obj->modules, name, value);
      return TRUE;
    }
  if (_graft_strmap_get (&obj->buffers, name) != NULL)
    {
      _graft_strmap_set (&obj->buffers, name, value);
      return TRUE;
    }
  _graft_strmap_remove (&obj->params, name);
  _graft_strmap_remove (&obj->modules, name);
  _graft_strmap_set (&obj->attrs, name, value);
  return TRUE;
}

gboolean
_graft_tracer_setattr (Tracer            *t,
                       Value             *obj,
                       const char        *name,
                       Value             *value,
                       const GraftPyExpr *at)
{
  if (obj->kind == VAL_OBJECT)
    {
      if (object_is_module (obj->obj))
        return module_setattr (t, obj->obj, name, value, at);
      if (_graft_dataclass_frozen (obj, name))
        {
          _graft_tracer_raise (t, "FrozenInstanceError", at->start, at->end,
                               "FrozenInstanceError: cannot assign to field '%s'", name);
          return FALSE;
        }
      /* `e.args = (...)` of an exception whose args Graft knows: str(e),
       * repr(e) and a bare `raise` read the new ones (BaseException's
       * setter keeps a tuple of a list's items too). */
      if (obj->obj->exception != NULL && obj->obj->exception_args != NULL &&
          strcmp (name, "args") == 0 && (value->kind == VAL_TUPLE || value->kind == VAL_LIST))
        {
          Value *args = _graft_value_seq (t, VAL_TUPLE, value->seq.items->len);

          for (guint i = 0; i < value->seq.items->len; i++)
            _graft_value_seq_add (args, value->seq.items->pdata[i]);
          obj->obj->exception_args = args;
          return TRUE;
        }
      _graft_strmap_set (&obj->obj->attrs, _graft_tracer_strdup (t, name, -1), value);
      return TRUE;
    }
  if (obj->kind == VAL_CLASS)
    {
      _graft_strmap_set (&obj->cls->ns, _graft_tracer_strdup (t, name, -1), value);
      return TRUE;
    }
  if (obj->kind == VAL_PYMODULE)
    {
      /* `math.pi = 3` changes what later code means: skipping it at module
       * level, as other unmodelled assignments are, would trace wrongly. */
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "cannot set attribute '%s' of module '%s': Graft does not model changes "
                          "to imported modules",
                          name, obj->path);
      t->error_is_fatal = TRUE;
      return FALSE;
    }
  _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                      "cannot set attribute '%s' of a %s%s", name, _graft_value_type_name (obj),
                      _graft_value_is_proxy (obj) ? " (torch.fx cannot record attribute assignment)"
                                                  : "");
  return FALSE;
}

/**
 * _graft_tracer_index_object:
 *
 * `obj[index]` for module containers (`self.layers[0]`, `self.blocks[-1]`,
 * `self.deep['a']`, slices of a Sequential) and objects with __getitem__.
 */
Value *
_graft_tracer_index_object (Tracer            *t,
                            Value             *obj,
                            Value             *index,
                            const GraftPyExpr *at)
{
  Object *o = obj->obj;
  StrMap *children = o->kind == OBJ_PARAMETER_LIST ? &o->params : &o->modules;
  guint   n = children->keys->len;

  if (o->kind == OBJ_SEQUENTIAL || o->kind == OBJ_MODULE_LIST || o->kind == OBJ_PARAMETER_LIST)
    {
      gint64 i;

      if (index->kind == VAL_SLICE)
        {
          Value  *keys = _graft_value_seq (t, VAL_LIST, 0);
          Value  *picked;
          Object *copy;
          Value  *result;

          for (guint k = 0; k < n; k++)
            _graft_value_seq_add (keys, children->values->pdata[k]);
          picked = _graft_tracer_subscript (t, keys, index, at);
          if (picked == NULL)
            return NULL;
          /* A slice is a new container of the same modules; their paths
           * are still found through the root (torch's path_of_module). */
          copy = _graft_tracer_alloc (t, sizeof (Object));
          copy->kind = o->kind;
          copy->class_name = o->class_name;
          _graft_strmap_init (t, &copy->attrs);
          _graft_strmap_init (t, &copy->modules);
          _graft_strmap_init (t, &copy->params);
          _graft_strmap_init (t, &copy->buffers);
          for (guint k = 0; k < picked->seq.items->len; k++)
            _graft_strmap_set (o->kind == OBJ_PARAMETER_LIST ? &copy->params : &copy->modules,
                               _graft_tracer_printf (t, "%u", k), picked->seq.items->pdata[k]);
          result = _graft_value_new (t, VAL_OBJECT);
          result->obj = copy;
          return result;
        }
      if (_graft_value_is_proxy (index))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "a traced value cannot index a module container");
      if (index->kind == VAL_INT)
        i = index->i;
      else if (index->kind == VAL_BOOL)
        i = index->b;
      else
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "%s indices must be integers", o->class_name);
      if (i < 0)
        i += n;
      if (i < 0 || i >= (gint64) n)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "index %" G_GINT64_FORMAT " is out of range for %s of length %u",
                                   index->kind == VAL_INT ? index->i : (gint64) index->b,
                                   o->class_name, n);
      if (o->kind == OBJ_PARAMETER_LIST && t->tracing)
        {
          const char *base = g_hash_table_lookup (t->module_paths, o);

          if (base != NULL)
            return parameter_proxy (t, _graft_tracer_join_path (t, base, children->keys->pdata[i]),
                                    at);
        }
      return children->values->pdata[i];
    }
  if (o->kind == OBJ_PARAMETER_DICT)
    {
      const char *base = g_hash_table_lookup (t->module_paths, o);
      Value      *v;

      if (index->kind != VAL_STR || memchr (index->str.s, '\0', index->str.len) != NULL ||
          (v = _graft_strmap_get (&o->params, index->str.s)) == NULL)
        {
          GString *repr = g_string_new (NULL);

          _graft_value_append_str (repr, index, TRUE);
          if (index->kind == VAL_STR)
            _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                "AttributeError: 'ParameterDict' object has no attribute %s",
                                repr->str);
          else
            _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                "TypeError: Index given to ParameterDict cannot be used as a key "
                                "as it is not a string (type is '%s')",
                                _graft_value_type_name (index));
          g_string_free (repr, TRUE);
          return NULL;
        }
      /* ParameterDict.__getitem__ is getattr(self, key): while tracing,
       * the parameter's get_attr node (`self.pd.a`), made once. */
      if (t->tracing && base != NULL)
        return parameter_proxy (t, _graft_tracer_join_path (t, base, index->str.s), at);
      return v;
    }
  if (o->kind == OBJ_MODULE_DICT)
    {
      Value *v;

      if (index->kind != VAL_STR)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "ModuleDict keys are strings");
      v = _graft_strmap_get (&o->modules, index->str.s);
      if (v == NULL)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "ModuleDict has no key '%s'", index->str.s);
      return v;
    }
  if (o->cls != NULL)
    {
      Value *fn = _graft_tracer_class_lookup (o->cls, "__getitem__", NULL);

      if (fn != NULL)
        {
          PtrVec *args = _graft_tracer_vec (t);

          _graft_vec_add (args, index);
          return _graft_tracer_call (t, bind_method (t, obj, fn), args, NULL, at);
        }
    }
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "'%s' object is not subscriptable", o->class_name);
}

/* The argument @name of a call, at @pos or by keyword, or @fallback. */
static Value *
argument_of (PtrVec     *args,
             StrMap     *kwargs,
             guint       pos,
             const char *name,
             Value      *fallback)
{
  Value *v;

  if (args != NULL && pos < args->len)
    return args->pdata[pos];
  if (kwargs != NULL && (v = _graft_strmap_get (kwargs, name)) != NULL)
    return v;
  return fallback;
}

/**
 * _graft_tracer_weight_norm:
 * @path: `torch.nn.utils.weight_norm` or `torch.nn.utils.spectral_norm`
 *
 * Applies the reparametrisation to a module while it is built, as torch's
 * hooks do: the parameter (`weight`) leaves `_parameters` for
 * `weight_g` and `weight_v` (spectral_norm: `weight_orig` and the
 * buffers `weight_u`, `weight_v`), and `weight` becomes a plain tensor
 * attribute, which torch.fx makes a constant if forward reads it.  The
 * layer itself stays a leaf, called as call_module.  Of a module of the
 * file, it is refused.
 *
 * Returns: (nullable): the module, or %NULL with the tracer's error
 */
Value *
_graft_tracer_weight_norm (Tracer            *t,
                           const char        *path,
                           PtrVec            *args,
                           StrMap            *kwargs,
                           const GraftPyExpr *at)
{
  gboolean    spectral = g_str_has_suffix (path, "spectral_norm");
  Value      *module = argument_of (args, kwargs, 0, "module", NULL);
  Value      *name_v = argument_of (args, kwargs, 1, "name", NULL);
  const char *name = name_v != NULL && name_v->kind == VAL_STR ? name_v->str.s : "weight";
  Value      *current;
  Object     *obj;
  Object     *model;

  if (t->tracing || module == NULL || module->kind != VAL_OBJECT ||
      !object_is_module (module->obj) || (name_v != NULL && name_v->kind != VAL_STR))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "%s is modelled by Graft on a module being built, with a parameter "
                               "named by a string",
                               path);
  obj = module->obj;
  /* A module torch.fx traces through runs the hook's forward pre-hook
   * while traced (`torch._weight_norm(weight_v, weight_g, 0)` first). */
  if (obj->kind != OBJ_LEAF)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "%s of a module that torch.fx traces through is not modelled by "
                               "Graft (its forward pre-hook records the reparametrisation); of a "
                               "torch.nn layer it is",
                               path);
  /* torch reads the parameter first: its AttributeError if there is none. */
  current = _graft_tracer_getattr (t, module, name, at);
  if (current == NULL)
    return NULL;
  if (current->kind != VAL_PARAMETER)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "%s of a '%s' that is not a parameter is not modelled by Graft",
                               path, name);
  /* From now on its tensors are its own (named_parameters() lists them):
   * the model's, in its order, then the parameter taken out and the new
   * ones appended, as torch's hook does.  A layer Graft has no model of
   * keeps failing in named_parameters() as before. */
  model = obj->tensors_own ? NULL : _graft_tracer_leaf_model (t, obj, at);
  if (model != NULL)
    {
      for (guint b = 0; b < 2; b++)
        {
          StrMap *map = b ? &model->buffers : &model->params;
          StrMap *had = b ? &obj->buffers : &obj->params;
          StrMap *own = _graft_tracer_alloc (t, sizeof (StrMap));

          _graft_strmap_init (t, own);
          for (guint i = 0; i < map->keys->len; i++)
            {
              Value *made = map->values->pdata[i];
              Value *v;

              if (made->kind == VAL_NONE)
                continue;
              v = _graft_tracer_leaf_tensor (t, obj, map->keys->pdata[i], b);
              if (v->tensor.meta == NULL && _graft_value_is_tensor (made))
                v->tensor.meta = made->tensor.meta;
              _graft_strmap_set (own, map->keys->pdata[i], v);
            }
          for (guint i = 0; i < had->keys->len; i++)
            if (_graft_strmap_get (own, had->keys->pdata[i]) == NULL)
              _graft_strmap_set (own, had->keys->pdata[i], had->values->pdata[i]);
          *had = *own;
        }
      obj->tensors_own = TRUE;
    }
  _graft_strmap_remove (&obj->params, name);
  if (spectral)
    {
      _graft_tracer_leaf_tensor (t, obj, _graft_tracer_printf (t, "%s_orig", name), FALSE);
      _graft_tracer_leaf_tensor (t, obj, _graft_tracer_printf (t, "%s_u", name), TRUE);
      _graft_tracer_leaf_tensor (t, obj, _graft_tracer_printf (t, "%s_v", name), TRUE);
    }
  else
    {
      _graft_tracer_leaf_tensor (t, obj, _graft_tracer_printf (t, "%s_g", name), FALSE);
      _graft_tracer_leaf_tensor (t, obj, _graft_tracer_printf (t, "%s_v", name), FALSE);
    }
  /* What the hook computes: a tensor, no parameter. */
  _graft_strmap_set (&obj->attrs, _graft_tracer_strdup (t, name, -1), _graft_value_tensor (t));
  return module;
}

/**
 * _graft_tracer_remove_weight_norm:
 * @path: `torch.nn.utils.remove_weight_norm` or
 *   `torch.nn.utils.remove_spectral_norm`
 *
 * Undoes _graft_tracer_weight_norm() on a layer being built, as torch's
 * hook's remove() does: `weight_g` and `weight_v` (spectral_norm:
 * `weight_orig`, and the buffers `weight_u`, `weight_v`) leave the layer,
 * and `weight` is a parameter again, the last of `_parameters`.  A layer
 * without the reparametrisation of that name is refused: torch's
 * ValueError names the layer's repr, which Graft does not write.
 *
 * Returns: (nullable): the module, or %NULL with the tracer's error
 */
Value *
_graft_tracer_remove_weight_norm (Tracer            *t,
                                  const char        *path,
                                  PtrVec            *args,
                                  StrMap            *kwargs,
                                  const GraftPyExpr *at)
{
  gboolean    spectral = g_str_has_suffix (path, "spectral_norm");
  Value      *module = argument_of (args, kwargs, 0, "module", NULL);
  Value      *name_v = argument_of (args, kwargs, 1, "name", NULL);
  const char *name = name_v != NULL && name_v->kind == VAL_STR ? name_v->str.s : "weight";
  const char *first = _graft_tracer_printf (t, "%s_%s", name, spectral ? "orig" : "g");
  const char *second = _graft_tracer_printf (t, "%s_%s", name, spectral ? "u" : "v");
  const char *third = _graft_tracer_printf (t, "%s_v", name);
  Object     *obj;
  gboolean    applied;

  if (t->tracing || module == NULL || module->kind != VAL_OBJECT ||
      !object_is_module (module->obj) || (name_v != NULL && name_v->kind != VAL_STR) ||
      _graft_tracer_n_args (args) + (kwargs != NULL ? kwargs->keys->len : 0) > 2)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "%s is modelled by Graft on a module being built, with a parameter "
                               "named by a string",
                               path);
  obj = module->obj;
  applied = obj->kind == OBJ_LEAF && _graft_strmap_get (&obj->params, name) == NULL &&
            _graft_strmap_get (&obj->attrs, name) != NULL &&
            _graft_strmap_get (&obj->params, first) != NULL &&
            _graft_strmap_get (spectral ? &obj->buffers : &obj->params, second) != NULL &&
            (!spectral || _graft_strmap_get (&obj->buffers, third) != NULL);
  if (!applied)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "%s of a module without %s of '%s' is not modelled by Graft "
                               "(torch's ValueError names the module's repr)",
                               path, spectral ? "spectral_norm" : "weight_norm", name);
  _graft_strmap_remove (&obj->attrs, name);
  _graft_strmap_remove (&obj->params, first);
  if (spectral)
    {
      _graft_strmap_remove (&obj->buffers, second);
      _graft_strmap_remove (&obj->buffers, third);
    }
  else
    _graft_strmap_remove (&obj->params, second);
  /* The weight the hook computed, a new parameter. */
  _graft_tracer_leaf_tensor (t, obj, name, FALSE);
  return module;
}
