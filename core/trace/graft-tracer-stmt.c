/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-stmt.c: statements, as Python runs them: assignment to every
 * kind of target, `if`, loops (unrolled, counted against
 * GRAFT_MAX_LOOP_STEPS), `with`, `try`, imports (which bind the modules
 * Graft knows), `def` and `class` (with the Python models of the torch.nn
 * layers a file class may extend).  A statement returns a Flow: how it
 * ended.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-error.h"
#include "graft-limits.h"
#include "graft-py-parser.h"
#include "graft-source.h"

#include <string.h>

/* Statements -------------------------------------------------------------- */

gboolean
_graft_tracer_assign (Tracer            *t,
                      Frame             *frame,
                      const GraftPyExpr *target,
                      Value             *value)
{
  switch (target->kind)
    {
    case GRAFT_PY_EXPR_NAME:
      _graft_strmap_set (&_graft_tracer_binding_frame (frame, target->name.id)->vars,
                         target->name.id, value);
      return TRUE;

    case GRAFT_PY_EXPR_ATTRIBUTE:
      {
        Value *obj = _graft_tracer_eval (t, frame, target->attribute.value);

        return obj != NULL && _graft_tracer_setattr (t, obj, target->attribute.attr, value, target);
      }

    case GRAFT_PY_EXPR_SUBSCRIPT:
      {
        Value *obj = _graft_tracer_eval (t, frame, target->subscript.value);
        Value *index = obj != NULL ? _graft_tracer_eval (t, frame, target->subscript.slice) : NULL;

        if (index == NULL)
          return FALSE;
        if (obj->kind == VAL_LIST && index->kind == VAL_INT)
          {
            gint64 i = index->i < 0 ? index->i + obj->seq.items->len : index->i;

            if (i < 0 || i >= (gint64) obj->seq.items->len)
              {
                _graft_tracer_raise (t, "IndexError", target->start, target->end,
                                     "list assignment index out of range");
                return FALSE;
              }
            obj->seq.items->pdata[i] = value;
            return TRUE;
          }
        if (obj->kind == VAL_DICT && !_graft_value_is_proxy (index))
          {
            _graft_dict_set (t, obj, index, value);
            return TRUE;
          }
        /* `pe[:, 0::2] = torch.sin(...)` in __init__: the data, which
         * Graft does not keep, changes in place; its shape does not, but
         * the value must fit it. */
        if (_graft_value_is_tensor (obj) && !_graft_value_holds_proxy (index) &&
            !_graft_value_holds_proxy (value))
          return _graft_tracer_tensor_setitem (t, obj, index, value, target);
        _graft_tracer_fail_at (t, target, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               _graft_value_is_proxy (obj)
                                   ? "item assignment on a traced value is not supported (torch.fx "
                                     "Proxies do not support item assignment)"
                                   : "this item assignment is not supported");
        return FALSE;
      }

    case GRAFT_PY_EXPR_TUPLE:
    case GRAFT_PY_EXPR_LIST:
      {
        guint  n = target->sequence.elts.len;
        gint   star = -1;
        Value *items;

        for (guint i = 0; i < n; i++)
          if (target->sequence.elts.items[i]->kind == GRAFT_PY_EXPR_STARRED)
            star = i;

        if (_graft_value_is_proxy (value))
          {
            /* Unpacking a traced value: one getitem per target, in order
             * (torch.fx on the Pythons it supports; cli.md). */
            if (star >= 0)
              {
                _graft_tracer_fail_at (t, target->sequence.elts.items[star],
                                       GRAFT_PARSE_ERROR_TRACE,
                                       "starred unpacking of a traced value needs its length, "
                                       "which is not known while tracing "
                                       "(torch.fx: Proxy object cannot be iterated)");
                return FALSE;
              }
            items = _graft_value_seq (t, VAL_LIST, n);
            for (guint i = 0; i < n; i++)
              {
                Value *item = _graft_tracer_subscript (t, value, _graft_value_int (t, i), target);

                if (item == NULL)
                  return FALSE;
                _graft_value_seq_add (items, item);
              }
          }
        else
          {
            items = _graft_tracer_iterate (t, value, target);
            if (items == NULL)
              return FALSE;
          }

        if (star < 0)
          {
            if (items->seq.items->len != n)
              {
                _graft_tracer_fail (t, target->start, target->end, GRAFT_PARSE_ERROR_TRACE,
                                    items->seq.items->len > n
                                        ? "ValueError: too many values to unpack (expected %u)"
                                        : "ValueError: not enough values to unpack (expected %u, "
                                          "got %u)",
                                    n, items->seq.items->len);
                return FALSE;
              }
            for (guint i = 0; i < n; i++)
              if (!_graft_tracer_assign (t, frame, target->sequence.elts.items[i],
                                         items->seq.items->pdata[i]))
                return FALSE;
            return TRUE;
          }
        if (items->seq.items->len < n - 1)
          {
            _graft_tracer_fail (t, target->start, target->end, GRAFT_PARSE_ERROR_TRACE,
                                "ValueError: not enough values to unpack (expected at least %u, "
                                "got %u)",
                                n - 1, items->seq.items->len);
            return FALSE;
          }
        {
          guint  n_rest = items->seq.items->len - (n - 1);
          Value *rest = _graft_value_seq (t, VAL_LIST, n_rest);

          for (guint i = 0; i < (guint) star; i++)
            if (!_graft_tracer_assign (t, frame, target->sequence.elts.items[i],
                                       items->seq.items->pdata[i]))
              return FALSE;
          for (guint i = 0; i < n_rest; i++)
            _graft_value_seq_add (rest, items->seq.items->pdata[star + i]);
          if (!_graft_tracer_assign (t, frame, target->sequence.elts.items[star]->starred.value,
                                     rest))
            return FALSE;
          for (guint i = star + 1; i < n; i++)
            if (!_graft_tracer_assign (t, frame, target->sequence.elts.items[i],
                                       items->seq.items->pdata[i - 1 + n_rest]))
              return FALSE;
          return TRUE;
        }
      }

    case GRAFT_PY_EXPR_STARRED:
      _graft_tracer_fail_at (t, target, GRAFT_PARSE_ERROR_SYNTAX,
                             "starred assignment target must be in a list or tuple");
      return FALSE;

    case GRAFT_PY_EXPR_CONSTANT:
    case GRAFT_PY_EXPR_JOINED_STR:
    case GRAFT_PY_EXPR_FORMATTED_VALUE:
    case GRAFT_PY_EXPR_SLICE:
    case GRAFT_PY_EXPR_CALL:
    case GRAFT_PY_EXPR_BIN_OP:
    case GRAFT_PY_EXPR_UNARY_OP:
    case GRAFT_PY_EXPR_BOOL_OP:
    case GRAFT_PY_EXPR_COMPARE:
    case GRAFT_PY_EXPR_IF_EXP:
    case GRAFT_PY_EXPR_LAMBDA:
    case GRAFT_PY_EXPR_SET:
    case GRAFT_PY_EXPR_DICT:
    case GRAFT_PY_EXPR_LIST_COMP:
    case GRAFT_PY_EXPR_SET_COMP:
    case GRAFT_PY_EXPR_DICT_COMP:
    case GRAFT_PY_EXPR_GENERATOR_EXP:
    case GRAFT_PY_EXPR_NAMED_EXPR:
    case GRAFT_PY_EXPR_YIELD:
    case GRAFT_PY_EXPR_YIELD_FROM:
    case GRAFT_PY_EXPR_AWAIT:
    default:
      _graft_tracer_fail_at (t, target, GRAFT_PARSE_ERROR_SYNTAX,
                             "cannot assign to this expression");
      return FALSE;
    }
}

static gboolean
expr_has_yield (const GraftPyExpr *e)
{
  return e != NULL && (e->kind == GRAFT_PY_EXPR_YIELD || e->kind == GRAFT_PY_EXPR_YIELD_FROM);
}

/* Whether a function body yields (at statement level, which is where model
 * code would). */
gboolean
_graft_tracer_contains_yield (const GraftPyStmtList *body)
{
  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt     *s = body->items[i];
      const GraftPyStmtList *block;

      if ((s->kind == GRAFT_PY_STMT_EXPR && expr_has_yield (s->expr.value)) ||
          (s->kind == GRAFT_PY_STMT_ASSIGN && expr_has_yield (s->assign.value)))
        return TRUE;
      /* Any block of a compound statement (a try's and a loop's else
       * too); a nested def's body is its own function. */
      for (guint b = 0; (block = graft_py_stmt_get_block (s, b)) != NULL; b++)
        if (_graft_tracer_contains_yield (block))
          return TRUE;
    }
  return FALSE;
}

/* @s's span in @at, for calls that report at an expression.  @at is the
 * caller's, not a static: two traces may run at once on two threads. */
static const GraftPyExpr *
stmt_span (const GraftPyStmt *s,
           GraftPyExpr       *at)
{
  memset (at, 0, sizeof *at);
  at->start = s->start;
  at->end = s->end;
  return at;
}

/* The module path an import names, and whether Graft knows it.  A
 * submodule torch's table says its package lacks (`import torch.nn.foo`)
 * is Python's ModuleNotFoundError, for the first missing part. */
static Value *
import_module (Tracer            *t,
               const char        *path,
               const GraftPyExpr *at)
{
  for (const char *dot = strchr (path, '.'); dot != NULL; dot = strchr (dot + 1, '.'))
    {
      g_autofree char *package = g_strndup (path, dot - path);
      const char      *end = strchr (dot + 1, '.');
      g_autofree char *name = end != NULL ? g_strndup (dot + 1, end - dot - 1) : g_strdup (dot + 1);

      if (_graft_tracer_module_lacks (t, package, name))
        return _graft_tracer_raise (t, "ModuleNotFoundError", at->start, at->end,
                                    "ModuleNotFoundError: No module named '%s.%s'", package, name);
    }
  return _graft_tracer_torch_attr (t, path, at);
}

static Flow
exec_import (Tracer            *t,
             Frame             *frame,
             const GraftPyStmt *s)
{
  GraftPyExpr        span;
  const GraftPyExpr *at = stmt_span (s, &span);

  for (guint i = 0; i < s->import.n_names; i++)
    {
      const GraftPyAlias *alias = s->import.names[i];
      Value              *mod = import_module (t, alias->name, at);

      if (mod == NULL)
        return FLOW_ERROR;
      _graft_tracer_note_import (t, alias->name);
      if (alias->asname != NULL)
        _graft_strmap_set (&frame->vars, alias->asname, mod);
      else
        {
          /* `import torch.nn` binds `torch`. */
          const char *dot = strchr (alias->name, '.');
          const char *first =
              dot != NULL ? _graft_tracer_strdup (t, alias->name, dot - alias->name) : alias->name;
          Value *top = import_module (t, first, at);

          if (top == NULL)
            return FLOW_ERROR;
          _graft_strmap_set (&frame->vars, first, top);
        }
    }
  return FLOW_NORMAL;
}

static Flow
exec_import_from (Tracer            *t,
                  Frame             *frame,
                  const GraftPyStmt *s)
{
  GraftPyExpr        span;
  const GraftPyExpr *at = stmt_span (s, &span);

  if (s->import_from.level > 0 || s->import_from.module == NULL)
    {
      _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "relative imports are not supported: Graft reads one file");
      return FLOW_ERROR;
    }
  for (guint i = 0; i < s->import_from.n_names; i++)
    {
      const GraftPyAlias *alias = s->import_from.names[i];
      Value              *v;

      if (strcmp (alias->name, "*") == 0)
        {
          _graft_tracer_fail (t, alias->start, alias->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                              "'from %s import *' is not supported: import the names you use",
                              s->import_from.module);
          return FLOW_ERROR;
        }
      /* Python names the module's file too, where torch is installed:
       * Graft does not know it. */
      if (_graft_tracer_module_lacks (t, s->import_from.module, alias->name))
        {
          _graft_tracer_raise (t, "ImportError", at->start, at->end,
                               "ImportError: cannot import name '%s' from '%s'", alias->name,
                               s->import_from.module);
          return FLOW_ERROR;
        }
      v = _graft_tracer_torch_attr (
          t, _graft_tracer_join_path (t, s->import_from.module, alias->name), at);
      if (v == NULL)
        return FLOW_ERROR;
      /* The module is imported, and so is the name if it is a submodule
       * (`from torch.nn.utils import prune`). */
      _graft_tracer_note_import (t, _graft_tracer_join_path (t, s->import_from.module,
                                                             alias->name));
      _graft_strmap_set (&frame->vars, alias->asname != NULL ? alias->asname : alias->name, v);
    }
  return FLOW_NORMAL;
}

static Value *
make_function (Tracer            *t,
               Frame             *frame,
               const GraftPyStmt *s,
               Class             *owner)
{
  Function *fn = _graft_tracer_alloc (t, sizeof (Function));
  Value    *v;

  fn->def = s;
  fn->name = s->function_def.name;
  fn->closure = frame;
  fn->owner = owner;
  if (!_graft_tracer_eval_defaults (t, frame, s->function_def.args, fn))
    return NULL;

  for (guint i = 0; i < s->function_def.decorators.len; i++)
    {
      const GraftPyExpr *d = s->function_def.decorators.items[i];
      Value             *dv = _graft_tracer_eval (t, frame, d);

      if (dv == NULL)
        return NULL;
      if (dv->kind == VAL_BUILTIN && strcmp (dv->path, "staticmethod") == 0)
        fn->is_static = TRUE;
      else if (dv->kind == VAL_BUILTIN && strcmp (dv->path, "classmethod") == 0)
        fn->is_classmethod = TRUE;
      else if (dv->kind == VAL_BUILTIN && strcmp (dv->path, "property") == 0)
        fn->is_property = TRUE;
      else if (dv->kind == VAL_PATH_FN && strcmp (dv->path, "torch.fx.wrap") == 0)
        fn->is_wrapped = TRUE;
      else if (dv->kind == VAL_PATH_FN && (g_str_has_prefix (dv->path, "torch.jit.") ||
                                           strcmp (dv->path, "typing.overload") == 0))
        ; /* annotations for other tools: no effect on tracing */
      else if (dv->kind == VAL_PATH_FN && t->dialect->torch == GRAFT_TORCH_1_13 &&
               strcmp (dv->path, "torch.no_grad") == 0)
        {
          /* Without parentheses only torch 2's context managers decorate. */
          _graft_tracer_raise (t, "TypeError", d->start, d->end,
                               "TypeError: no_grad.__init__() takes 1 positional argument but "
                               "2 were given");
          return NULL;
        }
      else if (dv->kind == VAL_PATH_FN && t->dialect->torch == GRAFT_TORCH_1_13 &&
               strcmp (dv->path, "torch.enable_grad") == 0)
        {
          _graft_tracer_raise (t, "TypeError", d->start, d->end,
                               "TypeError: enable_grad() takes no arguments");
          return NULL;
        }
      else if (dv->kind == VAL_PATH_FN && t->dialect->torch != GRAFT_TORCH_1_13 &&
               (strcmp (dv->path, "torch.no_grad") == 0 ||
                strcmp (dv->path, "torch.enable_grad") == 0 ||
                strcmp (dv->path, "torch.inference_mode") == 0))
        ; /* `@torch.no_grad`: the function runs in the context */
      else if (dv->kind == VAL_BUILTIN && strcmp (dv->path, "__graft_context__") == 0)
        ; /* `@torch.no_grad()` and the like: the function runs in the
           * context, which has no effect on the graph (as `with`) */
      else
        {
          _graft_tracer_fail (t, d->start, d->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                              "this decorator is not supported by Graft's tracer");
          return NULL;
        }
    }
  v = _graft_value_new (t, VAL_FUNCTION);
  v->fn = fn;
  return v;
}

/* Python models of the torch.nn layers a file class may extend: what
 * their constructors store and what their forward records, written for
 * Graft from torch 1.13.1's documented behaviour.  Only used for
 * subclasses: a torch.nn layer used as it is stays a leaf (call_module).
 * Sequential reads its children through children() and named_children(),
 * which are Graft's lists of `_modules` as they are (in order, repeats
 * kept), as its own methods read `_modules`. */
static const char nn_models[] =
    "from collections import OrderedDict\n"
    "import torch\n"
    "import torch.nn.functional as F\n"
    "from torch.nn import Module, Parameter\n"
    "\n"
    "class Sequential(Module):\n"
    "    def __init__(self, *args):\n"
    "        super().__init__()\n"
    "        if len(args) == 1 and isinstance(args[0], OrderedDict):\n"
    "            pairs = list(args[0].items())\n"
    "        else:\n"
    "            pairs = [(str(i), m) for i, m in enumerate(args)]\n"
    "        for name, m in pairs:\n"
    "            self.add_module(name, m)\n"
    "\n"
    "    def __len__(self):\n"
    "        return len(list(self.children()))\n"
    "\n"
    "    def __iter__(self):\n"
    "        return iter(list(self.children()))\n"
    "\n"
    "    def __getitem__(self, idx):\n"
    "        if isinstance(idx, slice):\n"
    "            return self.__class__(OrderedDict(list(self.named_children())[idx]))\n"
    "        n = len(self)\n"
    "        if not -n <= idx < n:\n"
    "            raise IndexError('index {} is out of range'.format(idx))\n"
    "        return list(self.children())[idx % n]\n"
    "\n"
    "    def append(self, module):\n"
    "        self.add_module(str(len(self)), module)\n"
    "        return self\n"
    "\n"
    "    def forward(self, input):\n"
    "        for m in self:\n"
    "            input = m(input)\n"
    "        return input\n"
    "\n"
    "class Linear(Module):\n"
    "    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):\n"
    "        super().__init__()\n"
    "        self.in_features = in_features\n"
    "        self.out_features = out_features\n"
    "        self.weight = Parameter(torch.empty((out_features, in_features), device=device, "
    "dtype=dtype))\n"
    "        if bias:\n"
    "            self.bias = Parameter(torch.empty(out_features, device=device, dtype=dtype))\n"
    "        else:\n"
    "            self.register_parameter('bias', None)\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.linear(input, self.weight, self.bias)\n"
    "\n"
    "class Identity(Module):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        super().__init__()\n"
    "\n"
    "    def forward(self, input):\n"
    "        return input\n"
    "\n"
    "class ReLU(Module):\n"
    "    def __init__(self, inplace=False):\n"
    "        super().__init__()\n"
    "        self.inplace = inplace\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.relu(input, inplace=self.inplace)\n"
    "\n"
    "class Dropout(Module):\n"
    "    def __init__(self, p=0.5, inplace=False):\n"
    "        super().__init__()\n"
    "        self.p = p\n"
    "        self.inplace = inplace\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.dropout(input, self.p, self.training, self.inplace)\n"
    "\n"
    "class Sigmoid(Module):\n"
    "    def forward(self, input):\n"
    "        return torch.sigmoid(input)\n"
    "\n"
    "class Tanh(Module):\n"
    "    def forward(self, input):\n"
    "        return torch.tanh(input)\n"
    "\n"
    "def _tuple_of(n, value):\n"
    "    if isinstance(value, (tuple, list)):\n"
    "        return tuple(value)\n"
    "    return tuple([value] * n)\n"
    "\n"
    "class _ConvNd(Module):\n"
    "    def __init__(self, n, in_channels, out_channels, kernel_size, stride=1, padding=0, "
    "dilation=1,\n"
    "                 groups=1, bias=True, padding_mode='zeros', device=None, dtype=None):\n"
    "        super().__init__()\n"
    "        if groups <= 0:\n"
    "            raise ValueError('groups must be a positive integer')\n"
    "        if in_channels % groups != 0:\n"
    "            raise ValueError('in_channels must be divisible by groups')\n"
    "        if out_channels % groups != 0:\n"
    "            raise ValueError('out_channels must be divisible by groups')\n"
    "        kernel_size = _tuple_of(n, kernel_size)\n"
    "        stride = _tuple_of(n, stride)\n"
    "        dilation = _tuple_of(n, dilation)\n"
    "        if not isinstance(padding, str):\n"
    "            padding = _tuple_of(n, padding)\n"
    "        elif padding not in ('same', 'valid'):\n"
    "            raise ValueError('Invalid padding string')\n"
    "        elif padding == 'same' and any(s != 1 for s in stride):\n"
    "            raise ValueError(\"padding='same' is not supported for strided convolutions\")\n"
    "        if padding_mode not in ('zeros', 'reflect', 'replicate', 'circular'):\n"
    "            raise ValueError('padding_mode must be zeros, reflect, replicate or circular')\n"
    "        self._n = n\n"
    "        self.in_channels = in_channels\n"
    "        self.out_channels = out_channels\n"
    "        self.kernel_size = kernel_size\n"
    "        self.stride = stride\n"
    "        self.padding = padding\n"
    "        self.dilation = dilation\n"
    "        self.transposed = False\n"
    "        self.output_padding = _tuple_of(n, 0)\n"
    "        self.groups = groups\n"
    "        self.padding_mode = padding_mode\n"
    "        if isinstance(padding, str):\n"
    "            pads = [0, 0] * n\n"
    "            if padding == 'same':\n"
    "                for i in range(n):\n"
    "                    total = dilation[i] * (kernel_size[i] - 1)\n"
    "                    left = total // 2\n"
    "                    pads[2 * (n - 1 - i)] = left\n"
    "                    pads[2 * (n - 1 - i) + 1] = total - left\n"
    "            self._reversed_padding_repeated_twice = pads\n"
    "        else:\n"
    "            self._reversed_padding_repeated_twice = tuple(p for p in reversed(padding) for _ "
    "in range(2))\n"
    "        self.weight = Parameter(torch.empty((out_channels, in_channels // groups) + "
    "kernel_size, device=device, dtype=dtype))\n"
    "        if bias:\n"
    "            self.bias = Parameter(torch.empty(out_channels, device=device, dtype=dtype))\n"
    "        else:\n"
    "            self.register_parameter('bias', None)\n"
    "\n"
    "    def _conv(self, input, weight, bias, padding):\n"
    "        if self._n == 1:\n"
    "            return F.conv1d(input, weight, bias, self.stride, padding, self.dilation, "
    "self.groups)\n"
    "        if self._n == 2:\n"
    "            return F.conv2d(input, weight, bias, self.stride, padding, self.dilation, "
    "self.groups)\n"
    "        return F.conv3d(input, weight, bias, self.stride, padding, self.dilation, "
    "self.groups)\n"
    "\n"
    "    def _conv_forward(self, input, weight, bias):\n"
    "        if self.padding_mode != 'zeros':\n"
    "            padded = F.pad(input, self._reversed_padding_repeated_twice, "
    "mode=self.padding_mode)\n"
    "            return self._conv(padded, weight, bias, _tuple_of(self._n, 0))\n"
    "        return self._conv(input, weight, bias, self.padding)\n"
    "\n"
    "    def forward(self, input):\n"
    "        return self._conv_forward(input, self.weight, self.bias)\n"
    "\n"
    "class Conv1d(_ConvNd):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        super().__init__(1, *args, **kwargs)\n"
    "\n"
    "class Conv2d(_ConvNd):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        super().__init__(2, *args, **kwargs)\n"
    "\n"
    "class Conv3d(_ConvNd):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        super().__init__(3, *args, **kwargs)\n"
    "\n"
    "class LayerNorm(Module):\n"
    "    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, device=None, "
    "dtype=None):\n"
    "        super().__init__()\n"
    "        if isinstance(normalized_shape, int):\n"
    "            normalized_shape = (normalized_shape,)\n"
    "        self.normalized_shape = tuple(normalized_shape)\n"
    "        self.eps = eps\n"
    "        self.elementwise_affine = elementwise_affine\n"
    "        if elementwise_affine:\n"
    "            self.weight = Parameter(torch.empty(self.normalized_shape, device=device, "
    "dtype=dtype))\n"
    "            self.bias = Parameter(torch.empty(self.normalized_shape, device=device, "
    "dtype=dtype))\n"
    "        else:\n"
    "            self.register_parameter('weight', None)\n"
    "            self.register_parameter('bias', None)\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)\n"
    "\n"
    "class Embedding(Module):\n"
    "    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, "
    "norm_type=2.0,\n"
    "                 scale_grad_by_freq=False, sparse=False, _weight=None, device=None, "
    "dtype=None):\n"
    "        super().__init__()\n"
    "        self.num_embeddings = num_embeddings\n"
    "        self.embedding_dim = embedding_dim\n"
    "        if padding_idx is not None and padding_idx < 0:\n"
    "            padding_idx = num_embeddings + padding_idx\n"
    "        self.padding_idx = padding_idx\n"
    "        self.max_norm = max_norm\n"
    "        self.norm_type = norm_type\n"
    "        self.scale_grad_by_freq = scale_grad_by_freq\n"
    "        self.weight = Parameter(torch.empty((num_embeddings, embedding_dim), device=device, "
    "dtype=dtype))\n"
    "        self.sparse = sparse\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, "
    "self.norm_type,\n"
    "                           self.scale_grad_by_freq, self.sparse)\n"
    "\n"
    "class GELU(Module):\n"
    "    def __init__(self, approximate='none'):\n"
    "        super().__init__()\n"
    "        self.approximate = approximate\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.gelu(input, approximate=self.approximate)\n"
    "\n"
    "class SiLU(Module):\n"
    "    def __init__(self, inplace=False):\n"
    "        super().__init__()\n"
    "        self.inplace = inplace\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.silu(input, inplace=self.inplace)\n"
    "\n"
    "class Mish(Module):\n"
    "    def __init__(self, inplace=False):\n"
    "        super().__init__()\n"
    "        self.inplace = inplace\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.mish(input, inplace=self.inplace)\n"
    "\n"
    "class Hardswish(Module):\n"
    "    def __init__(self, inplace=False):\n"
    "        super().__init__()\n"
    "        self.inplace = inplace\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.hardswish(input, self.inplace)\n"
    "\n"
    "class Hardsigmoid(Module):\n"
    "    def __init__(self, inplace=False):\n"
    "        super().__init__()\n"
    "        self.inplace = inplace\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.hardsigmoid(input, self.inplace)\n"
    "\n"
    "class LeakyReLU(Module):\n"
    "    def __init__(self, negative_slope=0.01, inplace=False):\n"
    "        super().__init__()\n"
    "        self.negative_slope = negative_slope\n"
    "        self.inplace = inplace\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.leaky_relu(input, self.negative_slope, self.inplace)\n"
    "\n"
    "class ELU(Module):\n"
    "    def __init__(self, alpha=1.0, inplace=False):\n"
    "        super().__init__()\n"
    "        self.alpha = alpha\n"
    "        self.inplace = inplace\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.elu(input, self.alpha, self.inplace)\n"
    "\n"
    "class Hardtanh(Module):\n"
    "    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None, "
    "max_value=None):\n"
    "        super().__init__()\n"
    "        if min_value is not None:\n"
    "            min_val = min_value\n"
    "        if max_value is not None:\n"
    "            max_val = max_value\n"
    "        self.min_val = min_val\n"
    "        self.max_val = max_val\n"
    "        self.inplace = inplace\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)\n"
    "\n"
    "class ReLU6(Hardtanh):\n"
    "    def __init__(self, inplace=False):\n"
    "        super().__init__(0.0, 6.0, inplace)\n"
    "\n"
    "class Softplus(Module):\n"
    "    def __init__(self, beta=1, threshold=20):\n"
    "        super().__init__()\n"
    "        self.beta = beta\n"
    "        self.threshold = threshold\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.softplus(input, self.beta, self.threshold)\n"
    "\n"
    "class Softmax(Module):\n"
    "    def __init__(self, dim=None):\n"
    "        super().__init__()\n"
    "        self.dim = dim\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.softmax(input, self.dim, _stacklevel=5)\n"
    "\n"
    "class LogSoftmax(Module):\n"
    "    def __init__(self, dim=None):\n"
    "        super().__init__()\n"
    "        self.dim = dim\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.log_softmax(input, self.dim, _stacklevel=5)\n"
    "\n"
    "class Flatten(Module):\n"
    "    def __init__(self, start_dim=1, end_dim=-1):\n"
    "        super().__init__()\n"
    "        self.start_dim = start_dim\n"
    "        self.end_dim = end_dim\n"
    "\n"
    "    def forward(self, input):\n"
    "        return input.flatten(self.start_dim, self.end_dim)\n"
    "\n"
    "class _MaxPoolNd(Module):\n"
    "    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, "
    "ceil_mode=False):\n"
    "        super().__init__()\n"
    "        self.kernel_size = kernel_size\n"
    "        self.stride = stride if stride is not None else kernel_size\n"
    "        self.padding = padding\n"
    "        self.dilation = dilation\n"
    "        self.return_indices = return_indices\n"
    "        self.ceil_mode = ceil_mode\n"
    "\n"
    "class MaxPool1d(_MaxPoolNd):\n"
    "    def forward(self, input):\n"
    "        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, "
    "self.dilation,\n"
    "                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)\n"
    "\n"
    "class MaxPool2d(_MaxPoolNd):\n"
    "    def forward(self, input):\n"
    "        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, "
    "self.dilation,\n"
    "                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)\n"
    "\n"
    "class AdaptiveAvgPool1d(Module):\n"
    "    def __init__(self, output_size):\n"
    "        super().__init__()\n"
    "        self.output_size = output_size\n"
    "\n"
    "    def forward(self, input):\n"
    "        return F.adaptive_avg_pool1d(input, self.output_size)\n"
    "\n"
    "class AdaptiveAvgPool2d(AdaptiveAvgPool1d):\n"
    "    def forward(self, input):\n"
    "        return F.adaptive_avg_pool2d(input, self.output_size)\n";

/* Python models of what more torch.nn layers store (their settings, and
 * which parameters and buffers they hold), from the __init__ of torch
 * 1.13.1 and 2.6 (the same for these): read from a leaf of these classes
 * (`self.bn.eps`, `named_parameters()`) by _graft_tracer_leaf_model().
 * Without a forward, they are not models a file class may extend. */
static const char nn_settings[] =
    "import torch\n"
    "from torch.nn import Module, Parameter\n"
    "\n"
    "class _NormBase(Module):\n"
    "    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True,\n"
    "                 track_running_stats=True, device=None, dtype=None):\n"
    "        super().__init__()\n"
    "        self.num_features = num_features\n"
    "        self.eps = eps\n"
    "        self.momentum = momentum\n"
    "        self.affine = affine\n"
    "        self.track_running_stats = track_running_stats\n"
    "        if self.affine:\n"
    "            self.weight = Parameter(torch.empty(num_features, device=device, dtype=dtype))\n"
    "            self.bias = Parameter(torch.empty(num_features, device=device, dtype=dtype))\n"
    "        else:\n"
    "            self.register_parameter('weight', None)\n"
    "            self.register_parameter('bias', None)\n"
    "        if self.track_running_stats:\n"
    "            self.register_buffer('running_mean', torch.zeros(num_features, device=device, "
    "dtype=dtype))\n"
    "            self.register_buffer('running_var', torch.ones(num_features, device=device, "
    "dtype=dtype))\n"
    "            self.register_buffer('num_batches_tracked', torch.tensor(0, dtype=torch.long, "
    "device=device))\n"
    "        else:\n"
    "            self.register_buffer('running_mean', None)\n"
    "            self.register_buffer('running_var', None)\n"
    "            self.register_buffer('num_batches_tracked', None)\n"
    "\n"
    "class BatchNorm1d(_NormBase):\n"
    "    pass\n"
    "\n"
    "class BatchNorm2d(_NormBase):\n"
    "    pass\n"
    "\n"
    "class BatchNorm3d(_NormBase):\n"
    "    pass\n"
    "\n"
    "class _InstanceNorm(_NormBase):\n"
    "    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=False,\n"
    "                 track_running_stats=False, device=None, dtype=None):\n"
    "        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,\n"
    "                         dtype)\n"
    "\n"
    "class InstanceNorm1d(_InstanceNorm):\n"
    "    pass\n"
    "\n"
    "class InstanceNorm2d(_InstanceNorm):\n"
    "    pass\n"
    "\n"
    "class InstanceNorm3d(_InstanceNorm):\n"
    "    pass\n"
    "\n"
    "class GroupNorm(Module):\n"
    "    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, device=None,\n"
    "                 dtype=None):\n"
    "        super().__init__()\n"
    "        if num_channels % num_groups != 0:\n"
    "            raise ValueError('num_channels must be divisible by num_groups')\n"
    "        self.num_groups = num_groups\n"
    "        self.num_channels = num_channels\n"
    "        self.eps = eps\n"
    "        self.affine = affine\n"
    "        if self.affine:\n"
    "            self.weight = Parameter(torch.empty(num_channels, device=device, dtype=dtype))\n"
    "            self.bias = Parameter(torch.empty(num_channels, device=device, dtype=dtype))\n"
    "        else:\n"
    "            self.register_parameter('weight', None)\n"
    "            self.register_parameter('bias', None)\n"
    "\n"
    "class RNNBase(Module):\n"
    "    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,\n"
    "                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0,\n"
    "                 device=None, dtype=None):\n"
    "        super().__init__()\n"
    "        self.mode = mode\n"
    "        self.input_size = input_size\n"
    "        self.hidden_size = hidden_size\n"
    "        self.num_layers = num_layers\n"
    "        self.bias = bias\n"
    "        self.batch_first = batch_first\n"
    "        self.dropout = float(dropout)\n"
    "        self.bidirectional = bidirectional\n"
    "        self.proj_size = proj_size\n"
    "        num_directions = 2 if bidirectional else 1\n"
    "        gate_size = (4 * hidden_size if mode == 'LSTM' else\n"
    "                     3 * hidden_size if mode == 'GRU' else hidden_size)\n"
    "        real_hidden_size = proj_size if proj_size > 0 else hidden_size\n"
    "        for layer in range(num_layers):\n"
    "            for direction in range(num_directions):\n"
    "                layer_input_size = input_size if layer == 0 else real_hidden_size * "
    "num_directions\n"
    "                suffix = '_reverse' if direction == 1 else ''\n"
    "                names = ['weight_ih_l{}{}', 'weight_hh_l{}{}']\n"
    "                shapes = [(gate_size, layer_input_size), (gate_size, real_hidden_size)]\n"
    "                if bias:\n"
    "                    names += ['bias_ih_l{}{}', 'bias_hh_l{}{}']\n"
    "                    shapes += [(gate_size,), (gate_size,)]\n"
    "                if proj_size > 0:\n"
    "                    names += ['weight_hr_l{}{}']\n"
    "                    shapes += [(proj_size, hidden_size)]\n"
    "                for name, shape in zip(names, shapes):\n"
    "                    setattr(self, name.format(layer, suffix), Parameter(torch.empty(shape, "
    "device=device, dtype=dtype)))\n"
    "\n"
    "class LSTM(RNNBase):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        super().__init__('LSTM', *args, **kwargs)\n"
    "\n"
    "class GRU(RNNBase):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        super().__init__('GRU', *args, **kwargs)\n"
    "\n"
    /* A fourth positional argument is the nonlinearity in torch 2.6 and
     * bias in 1.13.1 (which takes the nonlinearity from the keywords only): no
     * model then, so the leaf's settings stay unknown rather than guessed. */
    "class RNN(RNNBase):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        if 'proj_size' in kwargs:\n"
    "            raise ValueError('proj_size argument is only supported for LSTM, not RNN or "
    "GRU')\n"
    "        if len(args) > 3:\n"
    "            raise NotImplementedError('the fourth positional argument of RNN')\n"
    "        self.nonlinearity = kwargs.pop('nonlinearity', 'tanh')\n"
    "        if self.nonlinearity == 'tanh':\n"
    "            mode = 'RNN_TANH'\n"
    "        elif self.nonlinearity == 'relu':\n"
    "            mode = 'RNN_RELU'\n"
    "        else:\n"
    "            raise ValueError('Unknown nonlinearity')\n"
    "        super().__init__(mode, *args, **kwargs)\n"
    "\n"
    /* Their submodules are leaves too (torch.nn's own classes, which
     * torch.fx calls as call_module): the leaf takes them over when it is
     * made (_graft_tracer_leaf_submodules()).  `out_proj` is a
     * NonDynamicallyQuantizableLinear in torch, a Linear here.  The
     * arguments that only torch 2.6 takes (`bias` of the layers) or
     * whose place differs leave the leaf without a model. */
    "class MultiheadAttention(Module):\n"
    "    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,\n"
    "                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, *,\n"
    "                 device=None, dtype=None):\n"
    "        super().__init__()\n"
    "        self.embed_dim = embed_dim\n"
    "        self.kdim = kdim if kdim is not None else embed_dim\n"
    "        self.vdim = vdim if vdim is not None else embed_dim\n"
    "        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim\n"
    "        self.num_heads = num_heads\n"
    "        self.dropout = dropout\n"
    "        self.batch_first = batch_first\n"
    "        self.head_dim = embed_dim // num_heads\n"
    "        assert self.head_dim * num_heads == self.embed_dim\n"
    "        if not self._qkv_same_embed_dim:\n"
    "            self.q_proj_weight = Parameter(torch.empty((embed_dim, embed_dim), device=device, "
    "dtype=dtype))\n"
    "            self.k_proj_weight = Parameter(torch.empty((embed_dim, self.kdim), device=device, "
    "dtype=dtype))\n"
    "            self.v_proj_weight = Parameter(torch.empty((embed_dim, self.vdim), device=device, "
    "dtype=dtype))\n"
    "            self.register_parameter('in_proj_weight', None)\n"
    "        else:\n"
    "            self.in_proj_weight = Parameter(torch.empty((3 * embed_dim, embed_dim), "
    "device=device, dtype=dtype))\n"
    "            self.register_parameter('q_proj_weight', None)\n"
    "            self.register_parameter('k_proj_weight', None)\n"
    "            self.register_parameter('v_proj_weight', None)\n"
    "        if bias:\n"
    "            self.in_proj_bias = Parameter(torch.empty(3 * embed_dim, device=device, "
    "dtype=dtype))\n"
    "        else:\n"
    "            self.register_parameter('in_proj_bias', None)\n"
    "        self.out_proj = torch.nn.Linear(embed_dim, embed_dim, bias=bias, device=device,\n"
    "                                        dtype=dtype)\n"
    "        if add_bias_kv:\n"
    "            self.bias_k = Parameter(torch.empty((1, 1, embed_dim), device=device, "
    "dtype=dtype))\n"
    "            self.bias_v = Parameter(torch.empty((1, 1, embed_dim), device=device, "
    "dtype=dtype))\n"
    "        else:\n"
    "            self.bias_k = self.bias_v = None\n"
    "        self.add_zero_attn = add_zero_attn\n"
    "\n"
    "def _get_activation_fn(activation):\n"
    "    if activation == 'relu':\n"
    "        return torch.nn.functional.relu\n"
    "    elif activation == 'gelu':\n"
    "        return torch.nn.functional.gelu\n"
    "    raise RuntimeError('activation should be relu/gelu')\n"
    "\n"
    /* What both layers make, in their order: the decoder has a second
     * attention and a third norm and dropout. */
    "def _layer_parts(self, d_model, nhead, dim_feedforward, dropout, layer_norm_eps,\n"
    "                 batch_first, norm_first, n, device, dtype):\n"
    "    self.self_attn = torch.nn.MultiheadAttention(d_model, nhead, dropout=dropout,\n"
    "                                                 batch_first=batch_first, device=device,\n"
    "                                                 dtype=dtype)\n"
    "    if n == 3:\n"
    "        self.multihead_attn = torch.nn.MultiheadAttention(d_model, nhead, dropout=dropout,\n"
    "                                                          batch_first=batch_first,\n"
    "                                                          device=device, dtype=dtype)\n"
    "    self.linear1 = torch.nn.Linear(d_model, dim_feedforward, device=device, dtype=dtype)\n"
    "    self.dropout = torch.nn.Dropout(dropout)\n"
    "    self.linear2 = torch.nn.Linear(dim_feedforward, d_model, device=device, dtype=dtype)\n"
    "    self.norm_first = norm_first\n"
    "    for i in range(1, n + 1):\n"
    "        setattr(self, 'norm%d' % i, torch.nn.LayerNorm(d_model, eps=layer_norm_eps,\n"
    "                                                     device=device, dtype=dtype))\n"
    "    for i in range(1, n + 1):\n"
    "        setattr(self, 'dropout%d' % i, torch.nn.Dropout(dropout))\n"
    "\n"
    "class TransformerEncoderLayer(Module):\n"
    "    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1,\n"
    "                 activation=torch.nn.functional.relu, layer_norm_eps=1e-05,\n"
    "                 batch_first=False, norm_first=False, *, device=None, dtype=None):\n"
    "        super().__init__()\n"
    "        _layer_parts(self, d_model, nhead, dim_feedforward, dropout, layer_norm_eps,\n"
    "                     batch_first, norm_first, 2, device, dtype)\n"
    "        if isinstance(activation, str):\n"
    "            activation = _get_activation_fn(activation)\n"
    "        if activation is torch.nn.functional.relu or isinstance(activation, torch.nn.ReLU):\n"
    "            self.activation_relu_or_gelu = 1\n"
    "        elif activation is torch.nn.functional.gelu or isinstance(activation, "
    "torch.nn.GELU):\n"
    "            self.activation_relu_or_gelu = 2\n"
    "        else:\n"
    "            self.activation_relu_or_gelu = 0\n"
    "        self.activation = activation\n"
    "\n"
    "class TransformerDecoderLayer(Module):\n"
    "    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1,\n"
    "                 activation=torch.nn.functional.relu, layer_norm_eps=1e-05,\n"
    "                 batch_first=False, norm_first=False, *, device=None, dtype=None):\n"
    "        super().__init__()\n"
    "        _layer_parts(self, d_model, nhead, dim_feedforward, dropout, layer_norm_eps,\n"
    "                     batch_first, norm_first, 3, device, dtype)\n"
    "        if isinstance(activation, str):\n"
    "            self.activation = _get_activation_fn(activation)\n"
    "        else:\n"
    "            self.activation = activation\n"
    "\n"
    "class _ConvTransposeNd(Module):\n"
    "    def __init__(self, n, in_channels, out_channels, kernel_size, stride=1, padding=0,\n"
    "                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode='zeros',\n"
    "                 device=None, dtype=None):\n"
    "        super().__init__()\n"
    "        if padding_mode != 'zeros':\n"
    "            raise ValueError('Only \"zeros\" padding mode is supported')\n"
    "        self.in_channels = in_channels\n"
    "        self.out_channels = out_channels\n"
    "        self.kernel_size = _tuple_of(n, kernel_size)\n"
    "        self.stride = _tuple_of(n, stride)\n"
    "        self.padding = _tuple_of(n, padding)\n"
    "        self.dilation = _tuple_of(n, dilation)\n"
    "        self.transposed = True\n"
    "        self.output_padding = _tuple_of(n, output_padding)\n"
    "        self.groups = groups\n"
    "        self.padding_mode = padding_mode\n"
    "        self.weight = Parameter(torch.empty((in_channels, out_channels // groups) + "
    "self.kernel_size, device=device, dtype=dtype))\n"
    "        if bias:\n"
    "            self.bias = Parameter(torch.empty(out_channels, device=device, dtype=dtype))\n"
    "        else:\n"
    "            self.register_parameter('bias', None)\n"
    "\n"
    "class ConvTranspose1d(_ConvTransposeNd):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        super().__init__(1, *args, **kwargs)\n"
    "\n"
    "class ConvTranspose2d(_ConvTransposeNd):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        super().__init__(2, *args, **kwargs)\n"
    "\n"
    "class ConvTranspose3d(_ConvTransposeNd):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        super().__init__(3, *args, **kwargs)\n";

/* The class @name (`Linear`; a dotted path's last part) of the models
 * @text, run once into *@frame; the names of @shared (NULL-terminated)
 * are first taken from @from, a frame of models run before. */
static Value *
models_class (Tracer            *t,
              Frame            **frame,
              const char        *label,
              const char        *text,
              const Frame       *from,
              const char *const *shared,
              const char        *path)
{
  const char *name = strrchr (path, '.') != NULL ? strrchr (path, '.') + 1 : path;
  Value      *cls;

  if (*frame == NULL)
    {
      g_autoptr (GraftSource) source = graft_source_new (label, text, -1);
      g_autoptr (GError) error = NULL;
      GraftPyModule         *module = graft_py_parse (source, &error);
      const GraftPyStmtList *body;
      GError                *saved = t->error;
      gboolean               tracing = t->tracing;

      g_assert (module != NULL);
      g_ptr_array_add (t->parsed, module);
      *frame = _graft_tracer_frame_new (t, NULL, NULL);
      for (guint i = 0; shared != NULL && shared[i] != NULL; i++)
        _graft_strmap_set (&(*frame)->vars, shared[i], _graft_strmap_get (&from->vars, shared[i]));
      body = graft_py_module_get_body (module);
      t->error = NULL;
      t->tracing = FALSE;
      for (guint i = 0; i < body->len; i++)
        if (_graft_tracer_exec_stmt (t, *frame, body->items[i], NULL) == FLOW_ERROR)
          g_assert_not_reached ();
      t->error = saved;
      t->tracing = tracing;
    }
  cls = _graft_strmap_get (&(*frame)->vars, name);
  if (cls == NULL || cls->kind != VAL_CLASS)
    return NULL;
  return cls;
}

static Value *
nn_model_class (Tracer            *t,
                const char        *path,
                const GraftPyExpr *at)
{
  return models_class (t, &t->nn_frame, "<graft torch.nn models>", nn_models, NULL, NULL, path);
}

/**
 * _graft_tracer_nn_settings_class:
 * @name: a torch.nn class name (`BatchNorm2d`)
 *
 * Returns: (nullable): the Python model of what a layer of class @name
 *   stores (nn_models, then nn_settings), or %NULL when Graft has none
 */
Value *
_graft_tracer_nn_settings_class (Tracer     *t,
                                 const char *name)
{
  static const char *const shared[] = { "_tuple_of", NULL };
  Value                   *cls = nn_model_class (t, name, NULL); /* (runs nn_models) */

  if (cls == NULL)
    cls = models_class (t, &t->nn_settings, "<graft torch.nn settings>", nn_settings, t->nn_frame,
                        shared, name);
  return cls;
}

static Flow
exec_class (Tracer            *t,
            Frame             *frame,
            const GraftPyStmt *s)
{
  Class             *cls = _graft_tracer_alloc (t, sizeof (Class));
  Frame             *scope = frame;
  Frame             *body;
  Value             *v;
  const GraftPyExpr *dataclass = NULL;

  /* A body in a function reads the function's variables (and those around
   * it), never an enclosing class body's. */
  while (scope != NULL && scope->cls != NULL)
    scope = scope->parent;
  body = _graft_tracer_frame_new (t, scope != frame->globals ? scope : NULL, frame->globals);

  cls->name = s->class_def.name;
  cls->qualname = _graft_tracer_scope_qualname (t, frame, cls->name);
  cls->stmt = s;
  body->cls = cls;
  cls->bases = _graft_tracer_vec (t);
  _graft_strmap_init (t, &cls->ns);
  for (guint i = 0; i < s->class_def.bases.len; i++)
    {
      Value *base = _graft_tracer_eval (t, frame, s->class_def.bases.items[i]);

      if (base == NULL)
        return FLOW_ERROR;
      if (base->kind == VAL_NN_CLASS && strcmp (base->path, "torch.nn.Module") != 0)
        {
          /* A file class extending a torch.nn layer is traced through the
           * layer's forward, so the layer must be known in Python form. */
          Value *model = nn_model_class (t, base->path, NULL);

          /* Defining such a class is harmless; making one is reported
           * (_graft_tracer_instantiate()). */
          if (model == NULL)
            {
              cls->unmodelled = base->path;
              cls->unmodelled_at = s->class_def.bases.items[i];
              cls->is_module = TRUE;
              _graft_vec_add (cls->bases, base);
              continue;
            }
          base = model;
        }
      /* An enum: each plain attribute of the body becomes a member (an
       * object with `name` and `value`). */
      if (base->kind == VAL_PATH_FN && strcmp (base->path, "enum.Enum") == 0)
        {
          cls->is_enum = TRUE;
          continue;
        }
      if (base->kind == VAL_CLASS)
        {
          cls->is_module = cls->is_module || base->cls->is_module;
          cls->is_exception = cls->is_exception || base->cls->is_exception;
        }
      else if (base->kind == VAL_NN_CLASS)
        cls->is_module = TRUE;
      else if ((base->kind == VAL_BUILTIN && (strcmp (base->path, "Exception") == 0 ||
                                              g_str_has_suffix (base->path, "Error"))) ||
               (base->kind == VAL_TYPE && strcmp (base->path, "torch.fx.proxy.TraceError") == 0))
        /* Python's exceptions among the builtins Graft knows, torch.fx's. */
        cls->is_exception = TRUE;
      else if (!(base->kind == VAL_BUILTIN && strcmp (base->path, "object") == 0) &&
               base->kind != VAL_TYPE)
        {
          _graft_tracer_fail (t, s->class_def.bases.items[i]->start,
                              s->class_def.bases.items[i]->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                              "this base class is not supported");
          return FLOW_ERROR;
        }
      _graft_vec_add (cls->bases, base);
    }
  for (guint i = 0; i < s->class_def.decorators.len; i++)
    {
      const GraftPyExpr *d = s->class_def.decorators.items[i];

      /* @dataclass alone (applied once the body has run). */
      if (s->class_def.decorators.len == 1 && _graft_tracer_dataclass_decorator (t, frame, d))
        {
          dataclass = d;
          continue;
        }
      if (t->error == NULL)
        _graft_tracer_fail (t, d->start, d->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                            "class decorators are not supported (but @dataclass)");
      return FLOW_ERROR;
    }

  /* The class body runs in its own namespace; methods defined in it close
   * over the enclosing scope, not the class body (Python's rule). */
  for (guint i = 0; i < s->class_def.body.len; i++)
    {
      const GraftPyStmt *item = s->class_def.body.items[i];

      if (item->kind == GRAFT_PY_STMT_FUNCTION_DEF)
        {
          Value *fn = make_function (t, frame, item, cls);

          if (fn == NULL)
            return FLOW_ERROR;
          _graft_strmap_set (&cls->ns, graft_py_stmt_get_bound_name (item), fn);
          continue;
        }
      /* The statement changes the namespace through the body's copy of
       * it: the copy not in use says nothing about absent keys
       * (StrMap.stamp). */
      body->vars = cls->ns;
      cls->ns.stamp = 0;
      if (_graft_tracer_exec_stmt (t, body, item, NULL) == FLOW_ERROR)
        return FLOW_ERROR;
      cls->ns = body->vars;
      body->vars.stamp = 0;
    }
  for (guint i = 0; cls->is_enum && i < cls->ns.keys->len; i++)
    {
      const char *key = cls->ns.keys->pdata[i];
      Value      *value = cls->ns.values->pdata[i];
      Value      *member;

      if (key[0] == '_' || value->kind == VAL_FUNCTION)
        continue;
      member = _graft_tracer_new_object (t, OBJ_PLAIN, cls->name);
      member->obj->cls = cls;
      _graft_strmap_set (&member->obj->attrs, "name", _graft_value_str (t, key, -1));
      _graft_strmap_set (&member->obj->attrs, "value", value);
      cls->ns.values->pdata[i] = member;
    }
  if (dataclass != NULL && !_graft_tracer_dataclass_apply (t, frame, cls, dataclass))
    return FLOW_ERROR;
  v = _graft_value_new (t, VAL_CLASS);
  v->cls = cls;
  _graft_strmap_set (&frame->vars, graft_py_stmt_get_bound_name (s), v);
  return FLOW_NORMAL;
}

/* One pass through a loop: counts it against the unrolling limit, binds
 * @target (a for loop's) to @item, runs @body.  Returns FALSE when the loop
 * ends here, with the statement's outcome in @flow. */
static gboolean
run_iteration (Tracer                *t,
               Frame                 *frame,
               const GraftPyExpr     *at,
               const GraftPyExpr     *target,
               Value                 *item,
               const GraftPyStmtList *body,
               Value                **out_return,
               Flow                  *flow)
{
  if (++t->loop_steps > GRAFT_MAX_LOOP_STEPS)
    {
      _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_LIMIT,
                             "the loop runs too many times to unroll");
      *flow = FLOW_ERROR;
      return FALSE;
    }
  if (target != NULL && !_graft_tracer_assign (t, frame, target, item))
    {
      *flow = FLOW_ERROR;
      return FALSE;
    }
  *flow = _graft_tracer_exec_block (t, frame, body, out_return);
  if (*flow == FLOW_BREAK)
    {
      *flow = FLOW_NORMAL;
      return FALSE;
    }
  return *flow != FLOW_RETURN && *flow != FLOW_ERROR;
}

static gboolean
is_word_byte (char c)
{
  return g_ascii_isalnum (c) || c == '_' || (guchar) c >= 0x80;
}

/* Whether the identifier @name occurs in @text (@len bytes) as a whole
 * word more than @most times. */
static gboolean
word_occurs (const char *text,
             gsize       len,
             const char *name,
             guint       most)
{
  gsize n = strlen (name);
  guint count = 0;

  for (gsize i = 0; i + n <= len; i++)
    if (text[i] == name[0] && memcmp (text + i, name, n) == 0 &&
        (i == 0 || !is_word_byte (text[i - 1])) && (i + n == len || !is_word_byte (text[i + n])))
      {
        if (++count > most)
          return TRUE;
        i += n - 1;
      }
  return FALSE;
}

/* Loops over range() at least this long keep their counter in one value
 * where they can (loop_counter_unread()). */
#define COUNTER_MIN_STEPS 1024

/* Whether nothing but a for loop's binding can hold the int a step over
 * range() binds to @target, so that one value changed in place at each
 * step may stand for all of them (a step then leaves nothing behind): the
 * target is a plain name of a function of the traced file whose text
 * names it nowhere else (no read, no closure over it, no `del`, `global`
 * or `nonlocal` of it) and does not name what reads a frame as a whole
 * (locals(), vars(), eval()...).  A conservative look at the text: a word
 * in a comment or a string counts too. */
static gboolean
loop_counter_unread (Tracer            *t,
                     Frame             *frame,
                     const GraftPyExpr *target)
{
  static const char *const frame_readers[] = {
    "locals",
    "vars",
    "dir",
    "eval",
    "exec",
    "_getframe",
    "currentframe",
    "f_locals",
  };
  const GraftPyStmt *def;
  const char        *text;
  gsize              len;

  if (target->kind != GRAFT_PY_EXPR_NAME || frame->fn == NULL || frame->cls != NULL ||
      frame->globals != t->globals || frame == t->globals || (def = frame->fn->def) == NULL)
    return FALSE;
  text = graft_source_get_text (t->source);
  len = strlen (text);
  if (def->start >= def->end || def->end > len)
    return FALSE;
  text += def->start;
  len = def->end - def->start;
  /* (The text is @def's: `def NAME`, maybe after `async`.) */
  if (strncmp (text, "async", 5) == 0)
    {
      const char *p = text + 5;

      while (*p == ' ' || *p == '\t')
        p++;
      len -= (gsize) (p - text);
      text = p;
    }
  if (len < 4 || strncmp (text, "def", 3) != 0 || (text[3] != ' ' && text[3] != '\t') ||
      !word_occurs (text, MIN (len, 4 + strspn (text + 3, " \t") + strlen (def->function_def.name)),
                    def->function_def.name, 0))
    return FALSE;
  if (word_occurs (text, len, target->name.id, 1))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (frame_readers); i++)
    if (word_occurs (text, len, frame_readers[i], 0))
      return FALSE;
  return TRUE;
}

static Flow
exec_for (Tracer            *t,
          Frame             *frame,
          const GraftPyStmt *s,
          Value            **out_return)
{
  LazyIter lazy;
  Value   *items = _graft_tracer_loop_items (t, frame, s->for_stmt.iter, &lazy);
  Value   *counter = NULL;
  Value   *watched;
  gboolean one_counter;
  guint    n_start, watched_len = 0;

  if (items == NULL)
    return FLOW_ERROR;
  /* `for k in d:` over a dict or set (a local's, an attribute's, a
   * dict's value, `d.items()`): Python's iterator fails at its next step
   * once the body changed the container's size (the items here are a
   * copy). */
  watched = lazy.sized;
  if (watched != NULL && watched->kind == VAL_DICT)
    watched_len = watched->dict.keys->len;
  else if (watched != NULL && watched->kind == VAL_SET && !watched->seq.size)
    watched_len = watched->seq.items->len;
  else
    watched = NULL;
  n_start = _graft_tracer_loop_len (&lazy, items);
  one_counter = lazy.what == 'r' && n_start >= COUNTER_MIN_STEPS &&
                loop_counter_unread (t, frame, s->for_stmt.target);
  for (guint i = 0; i < _graft_tracer_loop_len (&lazy, items); i++)
    {
      Value *item;
      Flow   flow;

      if (_graft_tracer_loop_grew (t, &lazy, n_start, i, s->for_stmt.iter))
        return FLOW_ERROR;
      if (one_counter && counter != NULL)
        {
          counter->i = lazy.start + (gint64) i * lazy.step;
          item = counter;
        }
      else
        item = counter = _graft_tracer_loop_item (
            t, &lazy, _graft_tracer_loop_raw (t, &lazy, items, i), s->for_stmt.iter);

      /* Ran out at this step: its end's steps are taken (no loop_end). */
      if (item == NULL && _graft_tracer_loop_ran_out (&lazy))
        return _graft_tracer_exec_block (t, frame, &s->for_stmt.orelse, out_return);
      if (item == NULL)
        return FLOW_ERROR;
      if (!run_iteration (t, frame, s->for_stmt.iter, s->for_stmt.target, item, &s->for_stmt.body,
                          out_return, &flow))
        return flow;
      if (watched != NULL && (watched->kind == VAL_DICT ? watched->dict.keys->len
                                                        : watched->seq.items->len) != watched_len)
        {
          GraftPyExpr place = { 0 };

          place.start = t->dialect->locates_loop_next_at_iter ? s->for_stmt.iter->start : s->start;
          place.end = t->dialect->locates_loop_next_at_iter ? s->for_stmt.iter->end : s->end;
          _graft_tracer_raise_text (t, "RuntimeError",
                                    watched->kind == VAL_DICT
                                        ? "dictionary changed size during iteration"
                                        : "Set changed size during iteration",
                                    &place);
          return FLOW_ERROR;
        }
    }
  if (!_graft_tracer_loop_end (t, &lazy, s->for_stmt.iter))
    return FLOW_ERROR;
  return _graft_tracer_exec_block (t, frame, &s->for_stmt.orelse, out_return);
}

static Flow
exec_while (Tracer            *t,
            Frame             *frame,
            const GraftPyStmt *s,
            Value            **out_return)
{
  for (guint passes = 0;; passes++)
    {
      Value   *c;
      gboolean truth;
      Flow     flow;

      if (passes == GRAFT_MAX_WHILE_PASSES)
        {
          _graft_tracer_fail (t, s->while_stmt.test->start, s->while_stmt.test->end,
                              GRAFT_PARSE_ERROR_LIMIT,
                              "the while loop ran %u times; its condition never becomes false",
                              GRAFT_MAX_WHILE_PASSES);
          return FLOW_ERROR;
        }
      c = _graft_tracer_eval (t, frame, s->while_stmt.test);
      if (c == NULL)
        return FLOW_ERROR;
      if (_graft_value_is_proxy (c))
        {
          _graft_tracer_fail (
              t, s->while_stmt.test->start, s->while_stmt.test->end, GRAFT_PARSE_ERROR_TRACE,
              "a while loop cannot depend on a traced value %s", _graft_tracer_control_flow_reason);
          return FLOW_ERROR;
        }
      if (!_graft_tracer_truth (t, c, s->while_stmt.test, &truth))
        return FLOW_ERROR;
      if (!truth)
        break;
      if (!run_iteration (t, frame, s->while_stmt.test, NULL, NULL, &s->while_stmt.body, out_return,
                          &flow))
        return flow;
    }
  return _graft_tracer_exec_block (t, frame, &s->while_stmt.orelse, out_return);
}

/* The class an except clause or a raise statement names, as written:
 * `ValueError`, `ValueError("...")`, `torch.fx.proxy.TraceError` (its
 * last part); or NULL. */
static const char *
handler_class_name (const GraftPyExpr *e)
{
  if (e->kind == GRAFT_PY_EXPR_CALL)
    e = e->call.func;
  if (e->kind == GRAFT_PY_EXPR_NAME)
    return e->name.id;
  if (e->kind == GRAFT_PY_EXPR_ATTRIBUTE)
    return e->attribute.attr;
  return NULL;
}

/* The class of the exception `raise @e` raises: an exception a handler
 * caught and bound (`raise e`), or the class @e names. */
static const char *
raised_class_name (Frame             *frame,
                   const GraftPyExpr *e)
{
  Value *v;

  if (e->kind == GRAFT_PY_EXPR_NAME && (v = _graft_strmap_get (&frame->vars, e->name.id)) != NULL &&
      v->kind == VAL_OBJECT && v->obj->exception != NULL)
    return v->obj->exception;
  /* An instance of a file exception class with its own __init__. */
  if (e->kind == GRAFT_PY_EXPR_NAME && v != NULL && v->kind == VAL_OBJECT &&
      v->obj->cls != NULL && v->obj->cls->is_exception)
    return v->obj->cls->name;
  return handler_class_name (e);
}

/* The f-string @e of an exception's message, which Python evaluates
 * before it raises: its text, or NULL when Graft cannot tell it (the
 * error of the evaluation is dropped, unless it stops the trace; the
 * nodes it recorded stay, as torch.fx keeps them). */
static Value *
eval_message (Tracer            *t,
              Frame             *frame,
              const GraftPyExpr *e)
{
  Value *v = _graft_tracer_eval (t, frame, e);

  if (v == NULL && !t->error_is_fatal)
    {
      g_clear_error (&t->error);
      t->raised = NULL;
      t->raised_args = NULL;
    }
  return v != NULL && v->kind == VAL_STR ? v : NULL;
}

/* Whether Python's exception class @name called with @n arguments keeps
 * them as BaseException does (its class, `args`, str() and repr()), which
 * is all Graft models of them.  When not, the exception is known by its
 * class alone, unless Python may make it of another class: an OSError's
 * (`OSError(2, 'm')` is a FileNotFoundError, `[Errno 2] m`), which fails
 * the tracer at @at.  A name that is no class of Python's passes. */
static gboolean
exception_args_plain (Tracer            *t,
                      const char        *name,
                      guint              n,
                      const GraftPyExpr *at)
{
  const PythonClass *row = _graft_tracer_python_class (t, name);

  if (row == NULL || (gint64) n <= row->plain_args)
    return TRUE;
  if (_graft_tracer_exception_is (t, name, "OSError"))
    _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                        "%s() with %u arguments is not modelled by Graft's tracer (Python's "
                        "OSError gives them a meaning of their own, and may make another class)",
                        name, n);
  return FALSE;
}

/* The `args` of the exception `raise @e` raises, when Graft knows them
 * (see Tracer.raised_args): those of an exception a handler caught
 * (`raise e`), or the values of the arguments written in the call of a
 * class that keeps them as BaseException does (Python's, or one of the
 * file's that defines no __init__, __str__ nor __repr__); `raise
 * ValueError` has none.  The call's arguments are evaluated as Python
 * evaluates them (each, in order); NULL when Graft cannot tell one (a
 * `*args`, an f-string that failed), with the tracer's error if one
 * failed. */
static Value *
raised_args (Tracer            *t,
             Frame             *frame,
             const GraftPyExpr *e)
{
  const GraftPyExpr *cls_expr = e->kind == GRAFT_PY_EXPR_CALL ? e->call.func : e;
  Value             *cls, *args;

  if (e->kind == GRAFT_PY_EXPR_NAME &&
      (cls = _graft_strmap_get (&frame->vars, e->name.id)) != NULL && cls->kind == VAL_OBJECT &&
      cls->obj->exception != NULL)
    return cls->obj->exception_args;
  if (cls_expr->kind != GRAFT_PY_EXPR_NAME)
    return NULL;
  cls = _graft_tracer_file_exception_class (t, cls_expr->name.id);
  if (cls != NULL ? _graft_tracer_class_lookup (cls->cls, "__init__", NULL) != NULL ||
                        _graft_tracer_class_lookup (cls->cls, "__str__", NULL) != NULL ||
                        _graft_tracer_class_lookup (cls->cls, "__repr__", NULL) != NULL
                  : _graft_tracer_builtin_exception (t, cls_expr->name.id) == NULL ||
                        _graft_strmap_get (&frame->vars, cls_expr->name.id) != NULL ||
                        _graft_strmap_get (&t->globals->vars, cls_expr->name.id) != NULL)
    return NULL;
  args = _graft_value_seq (t, VAL_TUPLE, 0);
  if (e->kind != GRAFT_PY_EXPR_CALL)
    return args;
  if (e->call.n_keywords > 0)
    return NULL;
  if (cls == NULL && !exception_args_plain (t, cls_expr->name.id, e->call.args.len, e))
    return NULL;
  for (guint i = 0; i < e->call.args.len; i++)
    {
      const GraftPyExpr *a = e->call.args.items[i];
      Value             *v;

      if (a->kind == GRAFT_PY_EXPR_STARRED)
        return NULL;
      /* Python evaluates the arguments before it raises: the nodes they
       * record stay (an `except` may go on), and their error is the
       * statement's.  Any value is kept, as BaseException keeps it; the
       * message is printed when Graft can print them all. */
      v = a->kind == GRAFT_PY_EXPR_JOINED_STR ? eval_message (t, frame, a)
                                              : _graft_tracer_eval (t, frame, a);
      if (v == NULL && t->error != NULL)
        return NULL;
      if (v == NULL)
        args = NULL;
      else if (args != NULL)
        _graft_value_seq_add (args, v);
    }
  return args;
}

/* `raise @e` where @e is a variable that holds one of Python's exception
 * classes, or a call of one (`for cls in (OSError, ValueError): raise
 * cls('x')`): evaluated as Python does, its class and `args` into
 * @out_cls and @out_args.  Returns: %FALSE when @e is none of these (the
 * raise names its class as written); %TRUE, with the tracer's error if
 * the evaluation failed. */
static gboolean
raise_class_variable (Tracer            *t,
                      Frame             *frame,
                      const GraftPyExpr *e,
                      const char       **out_cls,
                      Value            **out_args)
{
  const GraftPyExpr *name = e->kind == GRAFT_PY_EXPR_CALL ? e->call.func : e;
  Value             *v = NULL;

  if (name->kind != GRAFT_PY_EXPR_NAME)
    return FALSE;
  for (Frame *f = frame; f != NULL && v == NULL; f = f->parent)
    v = _graft_strmap_get (&f->vars, name->name.id);
  if (v == NULL || v->kind != VAL_BUILTIN ||
      _graft_tracer_builtin_exception (t, v->path) == NULL)
    return FALSE;
  if (e->kind != GRAFT_PY_EXPR_CALL)
    {
      *out_cls = _graft_tracer_builtin_exception (t, v->path);
      *out_args = _graft_value_seq (t, VAL_TUPLE, 0);
      return TRUE;
    }
  v = _graft_tracer_eval (t, frame, e);
  if (v == NULL)
    return TRUE;
  if (v->kind != VAL_OBJECT || v->obj->exception == NULL)
    {
      _graft_tracer_fail (t, e->start, e->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "raising what a call returns is not modelled by Graft's tracer");
      return TRUE;
    }
  *out_cls = v->obj->exception;
  *out_args = v->obj->exception_args;
  return TRUE;
}

/* Raises the exception of class @cls with @args (NULL: Graft does not
 * know them) at a byte span; uncaught, it reads as Python's traceback
 * ends, `ValueError: bad`. */
static void
raise_exception (Tracer     *t,
                 guint32     start,
                 guint32     end,
                 const char *cls,
                 Value      *args)
{
  g_autoptr (GString) text = g_string_new (NULL);

  if (cls == NULL)
    cls = "Exception";
  if (args == NULL)
    {
      _graft_tracer_fail (t, start, end, GRAFT_PARSE_ERROR_TRACE,
                          "%s (Graft does not know the exception's message)", cls);
      t->raised = cls;
      return;
    }
  if (t->error != NULL)
    return;
  if (_graft_tracer_exception_printable (t, args))
    _graft_value_append_exception_text (text, cls, args, FALSE);
  else
    g_string_append (text, "(Graft cannot print the exception's message)");
  /* Python's own words, whatever the text holds (`raise ValueError("TypeError: x")`). */
  _graft_tracer_fail (t, start, end, GRAFT_PARSE_ERROR_TRACE, text->len > 0 ? "%s: %s" : "%s",
                      cls, text->str);
  t->raised = cls;
  t->raised_args = args;
}

/* Where Python locates the AssertionError of `assert @s`: the test
 * (Python 3.13); in Python 3.11 the comparison that the jump tests last,
 * under any `not` and through the last operand of `and` and `or`
 * (`assert a == 1 and b == 2` at `b == 2`), else (NULL) the statement. */
static const GraftPyExpr *
assertion_place (Tracer            *t,
                 const GraftPyStmt *s)
{
  const GraftPyExpr *test = s->assert_stmt.test;

  if (t->dialect->locates_assert_at_test)
    return test;
  for (;;)
    if (test->kind == GRAFT_PY_EXPR_UNARY_OP && test->unary_op.op == GRAFT_PY_UNARY_NOT)
      test = test->unary_op.operand;
    else if (test->kind == GRAFT_PY_EXPR_BOOL_OP && test->bool_op.values.len > 0)
      test = test->bool_op.values.items[test->bool_op.values.len - 1];
    else
      break;
  return test->kind == GRAFT_PY_EXPR_COMPARE ? test : NULL;
}

/* A failed `assert @s`: Python's AssertionError, whose one argument is
 * the message when the statement has one (evaluated only now, as Python
 * does). */
static void
raise_assertion (Tracer            *t,
                 Frame             *frame,
                 const GraftPyStmt *s)
{
  const GraftPyExpr *at = assertion_place (t, s);
  Value             *args = _graft_value_seq (t, VAL_TUPLE, 1);
  Value             *msg;

  if (s->assert_stmt.msg != NULL)
    {
      msg = _graft_tracer_eval (t, frame, s->assert_stmt.msg);
      if (msg == NULL)
        return;
      if (msg->kind != VAL_NONE && msg->kind != VAL_BOOL && msg->kind != VAL_INT &&
          msg->kind != VAL_FLOAT && msg->kind != VAL_STR)
        args = NULL;
      else
        _graft_value_seq_add (args, msg);
    }
  else
    args = _graft_value_seq (t, VAL_TUPLE, 0);
  raise_exception (t, at != NULL ? at->start : s->start, at != NULL ? at->end : s->end,
                   "AssertionError", args);
}

/**
 * _graft_tracer_new_exception:
 * @name: an exception class whose __init__ is BaseException's
 *
 * `NAME(*args)`: an exception, which keeps its `args` (see
 * Tracer.raised_args) as BaseException does.  Keywords are Python's
 * TypeError.
 *
 * Returns: (nullable): the exception, or %NULL when the tracer failed
 */
Value *
_graft_tracer_new_exception (Tracer            *t,
                             const char        *name,
                             PtrVec            *args,
                             StrMap            *kwargs,
                             const GraftPyExpr *at)
{
  Value *exc, *kept;

  if (kwargs != NULL && kwargs->keys->len > 0)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "%s() takes no keyword arguments", name);
  /* `IOError(...)` is an OSError. */
  if (_graft_tracer_builtin_exception (t, name) != NULL)
    name = _graft_tracer_builtin_exception (t, name);
  exc = _graft_tracer_new_object (t, OBJ_PLAIN, name);
  exc->obj->exception = name;
  /* Else known by its class alone. */
  if (!exception_args_plain (t, name, _graft_tracer_n_args (args), at))
    return t->error == NULL ? exc : NULL;
  kept = _graft_value_seq (t, VAL_TUPLE, _graft_tracer_n_args (args));
  for (guint i = 0; i < _graft_tracer_n_args (args); i++)
    _graft_value_seq_add (kept, _graft_tracer_arg (args, i));
  exc->obj->exception_args = kept;
  return exc;
}

/**
 * _graft_tracer_file_exception_class:
 * @name: the class of an exception (Tracer.raised)
 *
 * Returns: (nullable): the class of the file's module scope named @name
 *   (VAL_CLASS), when it is an exception class (one of its bases is an
 *   exception); or %NULL
 */
Value *
_graft_tracer_file_exception_class (Tracer     *t,
                                    const char *name)
{
  Value *v = t->globals != NULL ? _graft_strmap_get (&t->globals->vars, name) : NULL;

  return v != NULL && v->kind == VAL_CLASS && v->cls->is_exception ? v : NULL;
}

static gboolean
exception_is (Tracer     *t,
              const char *raised,
              const char *name,
              guint       depth);

/**
 * _graft_tracer_exception_is:
 * @raised: the class of an exception (Tracer.raised)
 * @name: the name of a class
 *
 * Whether an exception of class @raised is an instance of @name: the class
 * itself, or one of its bases among Python's (and torch.fx's TraceError, a
 * ValueError), or, for an exception class of the file's module scope, one
 * of its bases there (`class ConfigError(ValueError)`), found by name.
 */
gboolean
_graft_tracer_exception_is (Tracer     *t,
                            const char *raised,
                            const char *name)
{
  return exception_is (t, raised, name, 0);
}

/* Python's builtins, per Python of the oracles (3.11 for torch 1.13.1,
 * 3.13 for 2.6; gen-python-builtins.py asks each), sorted: each
 * exception class with its own name and its bases. */
typedef struct
{
  const char *name;
  const char *exception; /* NULL: no exception class */
  const char *base;
  const char *base2;
} PythonBuiltin;

#define GRAFT_PYTHON_BUILTIN(name, exception, base, base2) { name, exception, base, base2 },
static const PythonBuiltin python_builtins_3_11[] = {
#include "graft-python-builtins-3.11.inc"
};
static const PythonBuiltin python_builtins_3_13[] = {
#include "graft-python-builtins-3.13.inc"
};
#undef GRAFT_PYTHON_BUILTIN

static int
python_builtin_compare (const void *key,
                        const void *row)
{
  return strcmp (key, ((const PythonBuiltin *) row)->name);
}

/* The row of Python's builtin @name in @t's dialect's Python, or NULL. */
static const PythonBuiltin *
python_builtin (Tracer     *t,
                const char *name)
{
  return t->dialect->torch == GRAFT_TORCH_1_13
             ? bsearch (name, python_builtins_3_11, G_N_ELEMENTS (python_builtins_3_11),
                        sizeof python_builtins_3_11[0], python_builtin_compare)
             : bsearch (name, python_builtins_3_13, G_N_ELEMENTS (python_builtins_3_13),
                        sizeof python_builtins_3_13[0], python_builtin_compare);
}

/**
 * _graft_tracer_builtin_exception:
 *
 * Returns: (nullable): the exception class Python's builtin @name is in
 *   @t's dialect (OSError for IOError), or %NULL when it is none
 */
const char *
_graft_tracer_builtin_exception (Tracer     *t,
                                 const char *name)
{
  const PythonBuiltin *row = python_builtin (t, name);

  return row != NULL ? row->exception : NULL;
}

static gboolean
exception_is (Tracer     *t,
              const char *raised,
              const char *name,
              guint       depth)
{
  /* Exception classes of torch and dataclasses Graft raises. */
  static const char *const others[][2] = {
    { "TraceError", "ValueError" },
    { "FrozenInstanceError", "AttributeError" },
  };
  /* (A class of the file's may take a builtin's name.) */
  const char          *builtin = _graft_tracer_file_exception_class (t, name) == NULL
                                     ? _graft_tracer_builtin_exception (t, name)
                                     : NULL;
  const PythonBuiltin *own =
      _graft_tracer_file_exception_class (t, raised) == NULL ? python_builtin (t, raised) : NULL;

  if (builtin != NULL)
    name = builtin;
  if (own != NULL && own->exception != NULL)
    {
      raised = own->exception;
      own = python_builtin (t, raised);
    }
  if (strcmp (name, raised) == 0 || strcmp (name, "BaseException") == 0)
    return TRUE;
  if (own != NULL && own->exception != NULL)
    return depth < 64 &&
           ((own->base != NULL && exception_is (t, own->base, name, depth + 1)) ||
            (own->base2 != NULL && exception_is (t, own->base2, name, depth + 1)));
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    if (strcmp (others[i][0], raised) == 0)
      return exception_is (t, others[i][1], name, depth + 1);
  /* A class the file defines: through its bases (a name rebound to a
   * class of its own bases' names could loop: the depth stops it). */
  if (depth < 64)
    {
      Value *found = _graft_tracer_file_exception_class (t, raised);
      Class *cls = found != NULL ? found->cls : NULL;

      for (guint i = 0; cls != NULL && i < cls->bases->len; i++)
        {
          Value      *b = cls->bases->pdata[i];
          const char *base =
              b->kind == VAL_CLASS     ? b->cls->name
              : b->kind == VAL_BUILTIN ? b->path
              : b->kind == VAL_TYPE && strcmp (b->path, "torch.fx.proxy.TraceError") == 0
                  ? "TraceError"
                  : NULL;

          if (base != NULL && exception_is (t, base, name, depth + 1))
            return TRUE;
        }
      /* A class Graft knows nothing of: an Exception, it takes. */
      if (cls == NULL)
        return strcmp (name, "Exception") == 0;
    }
  return FALSE;
}

/* Whether @name means something where @frame runs: a name of a scope, of
 * the module, or a builtin (of Graft's or an exception class). */
static gboolean
name_is_defined (Tracer     *t,
                 Frame      *frame,
                 const char *name)
{
  for (Frame *s = frame; s != NULL; s = s->parent)
    if (_graft_strmap_get (&s->vars, name) != NULL)
      return TRUE;
  if (_graft_strmap_get (&frame->globals->vars, name) != NULL)
    return TRUE;
  return _graft_tracer_builtin_exception (t, name) != NULL ||
         _graft_tracer_lookup_builtin (t, name) != NULL;
}

/* `except @handler:` as an exception reaches it: Python evaluates the
 * expression then (and only then), so a name it lacks is a NameError that
 * replaces the exception.  Returns: %FALSE with that NameError raised. */
static gboolean
handler_names_defined (Tracer            *t,
                       Frame             *frame,
                       const GraftPyExpr *handler)
{
  const GraftPyExpr *e;
  const char        *message;

  if (handler == NULL)
    return TRUE;
  for (guint i = 0; i < (handler->kind == GRAFT_PY_EXPR_TUPLE ? handler->sequence.elts.len : 1);
       i++)
    {
      e = handler->kind == GRAFT_PY_EXPR_TUPLE ? handler->sequence.elts.items[i] : handler;
      if (e->kind != GRAFT_PY_EXPR_NAME || name_is_defined (t, frame, e->name.id))
        continue;
      message = _graft_tracer_printf (t, "name '%s' is not defined", e->name.id);
      g_clear_error (&t->error);
      t->raised = NULL;
      t->raised_args = NULL;
      _graft_tracer_raise (t, "NameError", e->start, e->end, "NameError: %s", message);
      t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
      _graft_value_seq_add (t->raised_args, _graft_value_str (t, message, -1));
      return FALSE;
    }
  return TRUE;
}

/* The class @v is, as an except clause names it: a builtin exception
 * class, torch.fx's TraceError, or an exception class of the file; else
 * NULL (a module, an nn class, a class of the file that is no exception,
 * an instance). */
static const char *
exception_class_of (Tracer *t,
                    Value  *v)
{
  if (v->kind == VAL_BUILTIN && _graft_tracer_builtin_exception (t, v->path) != NULL)
    return _graft_tracer_builtin_exception (t, v->path);
  if (v->kind == VAL_TYPE && strcmp (v->path, "torch.fx.proxy.TraceError") == 0)
    return "TraceError";
  if (v->kind == VAL_CLASS && v->cls->is_exception)
    return v->cls->name;
  return NULL;
}

/* Whether @name is bound by the code where @frame runs (not one of
 * Python's own names). */
static gboolean
name_is_bound (Frame      *frame,
               const char *name)
{
  for (Frame *s = frame; s != NULL; s = s->parent)
    if (_graft_strmap_get (&s->vars, name) != NULL)
      return TRUE;
  return _graft_strmap_get (&frame->globals->vars, name) != NULL;
}

/* Whether every class @v names (a tuple's items, nested) is an exception
 * class, and whether one of them is @raised or one of its bases. */
static gboolean
classes_match (Tracer     *t,
               Value      *v,
               const char *raised,
               gboolean   *catches)
{
  const char *cls;

  if (v->kind == VAL_TUPLE)
    {
      for (guint i = 0; i < v->seq.items->len; i++)
        if (!classes_match (t, v->seq.items->pdata[i], raised, catches))
          return FALSE;
      return TRUE;
    }
  if ((cls = exception_class_of (t, v)) == NULL)
    return FALSE;
  *catches = *catches || _graft_tracer_exception_is (t, raised, cls);
  return TRUE;
}

/* `except @h:` as an exception of class @raised reaches it: Python
 * evaluates the expression (an attribute, `nn.ReLU`, `torch.fx.proxy
 * .TraceError`, or a name the code binds; Python's own names are known
 * without it) and checks every class it names before matching: one that
 * is not an exception class is a TypeError, which replaces the exception.
 * Returns: %FALSE with that error (or the evaluation's) set; else
 * @out_catches says whether the clause catches @raised. */
static gboolean
handler_matches (Tracer                     *t,
                 Frame                      *frame,
                 const GraftPyExceptHandler *h,
                 const char                 *raised,
                 gboolean                   *out_catches)
{
  const GraftPyExpr *type = h->type;
  guint              n = type == NULL                        ? 0
                         : type->kind == GRAFT_PY_EXPR_TUPLE ? type->sequence.elts.len
                                                             : 1;
  GError            *error = t->error;
  Value             *raised_args = t->raised_args;
  gboolean           catches = type == NULL;

  /* The pending exception is set aside while the clause is evaluated. */
  t->error = NULL;
  t->raised = NULL;
  t->raised_args = NULL;
  for (guint i = 0; i < n; i++)
    {
      const GraftPyExpr *e =
          type->kind == GRAFT_PY_EXPR_TUPLE ? type->sequence.elts.items[i] : type;
      Value *v;

      if (e->kind == GRAFT_PY_EXPR_NAME && !name_is_bound (frame, e->name.id))
        {
          /* One of Python's (handler_names_defined()). */
          catches = catches || _graft_tracer_exception_is (t, raised, e->name.id);
          continue;
        }
      if ((v = _graft_tracer_eval (t, frame, e)) == NULL)
        {
          g_error_free (error);
          return FALSE;
        }
      if (!classes_match (t, v, raised, &catches))
        {
          const char *message = "catching classes that do not inherit from BaseException is "
                                "not allowed";

          g_error_free (error);
          _graft_tracer_raise (t, "TypeError", h->start, type->end, "TypeError: %s", message);
          t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
          _graft_value_seq_add (t->raised_args, _graft_value_str (t, message, -1));
          return FALSE;
        }
    }
  t->error = error;
  t->raised = raised;
  t->raised_args = raised_args;
  *out_catches = catches;
  return TRUE;
}

/* An exception object as a raise statement or a handler makes it: of
 * class @cls with @args (or NULL), its `__context__` @context (the
 * exception being handled where it was raised, or NULL for None), its
 * `__cause__` @cause (or None) and `__suppress_context__` @suppress (a
 * `from` clause). */
static Value *
new_raised_exception (Tracer     *t,
                      const char *cls,
                      Value      *args,
                      Value      *context,
                      Value      *cause,
                      gboolean    suppress)
{
  Value *exc = _graft_tracer_new_object (t, OBJ_PLAIN, cls);

  exc->obj->exception = cls;
  exc->obj->exception_args = args;
  _graft_strmap_set (&exc->obj->attrs, "__cause__", cause != NULL ? cause : _graft_value_none ());
  _graft_strmap_set (&exc->obj->attrs, "__context__",
                     context != NULL ? context : _graft_value_none ());
  _graft_strmap_set (&exc->obj->attrs, "__suppress_context__", _graft_value_bool (suppress));
  return exc;
}

/* `raise @s.exc from @s.cause`: the object raised.  `raise e` raises the
 * object @e holds (its `__context__` set anew when it is not the one being
 * handled); a bare `raise` the one being handled.  The cause is None or an
 * exception object a name holds; Graft refuses others.  Returns: (nullable):
 * the object, or %NULL with the tracer failed */
static Value *
raise_object (Tracer            *t,
              Frame             *frame,
              const GraftPyStmt *s,
              const char        *cls,
              Value             *args)
{
  const GraftPyExpr *e = s->raise_stmt.exc;
  Value             *cause = NULL, *v;

  if (e == NULL)
    return t->handling_exc;
  if (s->raise_stmt.cause != NULL)
    {
      const GraftPyExpr *c = s->raise_stmt.cause;

      if (c->kind == GRAFT_PY_EXPR_CONSTANT && (cause = _graft_tracer_eval (t, frame, c)) != NULL &&
          cause->kind == VAL_NONE)
        ;
      else if (c->kind == GRAFT_PY_EXPR_NAME &&
               (v = _graft_strmap_get (&frame->vars, c->name.id)) && v->kind == VAL_OBJECT &&
               v->obj->exception != NULL)
        cause = v;
      else
        return _graft_tracer_fail (t, c->start, c->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "a raise statement's cause other than None or a caught "
                                   "exception is not modelled by Graft's tracer");
    }
  if (e->kind == GRAFT_PY_EXPR_NAME && (v = _graft_strmap_get (&frame->vars, e->name.id)) != NULL &&
      v->kind == VAL_OBJECT && v->obj->exception != NULL)
    {
      if (v != t->handling_exc)
        _graft_strmap_set (&v->obj->attrs, "__context__",
                           t->handling_exc != NULL ? t->handling_exc : _graft_value_none ());
      if (s->raise_stmt.cause != NULL)
        {
          _graft_strmap_set (&v->obj->attrs, "__cause__", cause);
          _graft_strmap_set (&v->obj->attrs, "__suppress_context__", _graft_value_bool (TRUE));
        }
      return v;
    }
  return new_raised_exception (t, cls, args, t->handling_exc, cause, s->raise_stmt.cause != NULL);
}

/* A try statement as Python runs it: the body; if it raised an exception
 * Python code can catch (Tracer.raised: torch.fx's TraceError for control
 * flow on a traced value, a raise statement's class), the first handler
 * that catches it, with the nodes the body recorded before it kept, as
 * torch.fx keeps them; else the else clause; then the finally clause
 * (whose own return, break or continue wins).  Graft's other errors are
 * not Python exceptions (an unsupported construct, a limit): no handler
 * catches them. */
static Flow
exec_try (Tracer            *t,
          Frame             *frame,
          const GraftPyStmt *s,
          Value            **out_return)
{
  Flow flow = _graft_tracer_exec_block (t, frame, &s->try_stmt.body, out_return);
  Flow last;

  if (flow == FLOW_NORMAL)
    flow = _graft_tracer_exec_block (t, frame, &s->try_stmt.orelse, out_return);
  else if (flow == FLOW_ERROR && t->raised != NULL && !t->error_is_fatal && !s->try_stmt.is_star)
    for (guint i = 0; i < s->try_stmt.n_handlers; i++)
      {
        const GraftPyExceptHandler *h = s->try_stmt.handlers[i];

        gboolean catches;

        if (!handler_names_defined (t, frame, h->type) ||
            !handler_matches (t, frame, h, t->raised, &catches))
          break;
        if (!catches)
          continue;
        const char *caught = t->raised;
        Value      *caught_args = t->raised_args;
        const char *outer = t->handling;
        Value      *outer_args = t->handling_args;
        Value      *outer_exc = t->handling_exc;
        Value      *exc = t->raised_exc;
        Value      *context = t->raised_context;
        guint32     outer_start = t->handling_start, outer_end = t->handling_end;
        guint32     caught_start = t->error_start, caught_end = t->error_end;
        gboolean    outer_known = t->handling_span_known;
        gboolean    caught_known = t->error_span_of == t->error;

        g_clear_error (&t->error);
        t->raised = NULL;
        t->raised_args = NULL;
        t->raised_exc = NULL;
        if (exc == NULL || exc->obj->exception != caught)
          exc = new_raised_exception (t, caught, caught_args, context, NULL, FALSE);
        /* `as e`: the exception; Python unbinds the name when the handler
         * ends. */
        if (h->name != NULL)
          _graft_strmap_set (&frame->vars, h->name, exc);
        t->handling = caught;
        t->handling_args = caught_args;
        t->handling_exc = exc;
        t->handling_start = caught_start;
        t->handling_end = caught_end;
        t->handling_span_known = caught_known;
        flow = _graft_tracer_exec_block (t, frame, &h->body, out_return);
        t->handling = outer;
        t->handling_args = outer_args;
        t->handling_exc = outer_exc;
        t->handling_start = outer_start;
        t->handling_end = outer_end;
        t->handling_span_known = outer_known;
        if (h->name != NULL)
          _graft_strmap_remove (&frame->vars, h->name);
        break;
      }
  if (s->try_stmt.finalbody.len == 0)
    return flow;
  if (flow == FLOW_ERROR)
    {
      /* A Python exception on its way out runs the finally clause first
       * (its nodes are recorded); the clause's own return, break,
       * continue or error replaces it.  Graft's other errors stop. */
      GError     *error = t->error;
      const char *raised = t->raised;
      Value      *raised_args = t->raised_args;
      Value      *raised_exc = t->raised_exc;
      Value      *raised_context = t->raised_context;

      if (raised == NULL || t->error_is_fatal)
        return flow;
      t->error = NULL;
      t->raised = NULL;
      t->raised_args = NULL;
      last = _graft_tracer_exec_block (t, frame, &s->try_stmt.finalbody, out_return);
      if (last != FLOW_NORMAL)
        {
          g_error_free (error);
          return last;
        }
      t->error = error;
      t->raised = raised;
      t->raised_args = raised_args;
      t->raised_exc = raised_exc;
      t->raised_context = raised_context;
      return FLOW_ERROR;
    }
  last = _graft_tracer_exec_block (t, frame, &s->try_stmt.finalbody, out_return);
  return last != FLOW_NORMAL ? last : flow;
}

static Flow
exec_stmt_inner (Tracer            *t,
                 Frame             *frame,
                 const GraftPyStmt *s,
                 Value            **out_return)
{
  Value   *v;
  gboolean truth;

  switch (s->kind)
    {
    case GRAFT_PY_STMT_EXPR:
      return _graft_tracer_eval (t, frame, s->expr.value) != NULL ? FLOW_NORMAL : FLOW_ERROR;

    case GRAFT_PY_STMT_ASSIGN:
      v = _graft_tracer_eval (t, frame, s->assign.value);
      if (v == NULL)
        return FLOW_ERROR;
      for (guint i = 0; i < s->assign.targets.len; i++)
        if (!_graft_tracer_assign (t, frame, s->assign.targets.items[i], v))
          return FLOW_ERROR;
      return FLOW_NORMAL;

    case GRAFT_PY_STMT_AUG_ASSIGN:
      {
        /* `x += 1` records the non-in-place operator; a list extends in
         * place, as Python's list.__iadd__ does. */
        Value *cur = _graft_tracer_eval (t, frame, s->aug_assign.target);
        Value *rhs = cur != NULL ? _graft_tracer_eval (t, frame, s->aug_assign.value) : NULL;

        if (rhs == NULL)
          return FLOW_ERROR;
        if (cur->kind == VAL_LIST && s->aug_assign.op == GRAFT_PY_BIN_ADD)
          {
            Value *items = _graft_tracer_iterate (t, rhs, s->aug_assign.value);

            if (items == NULL)
              return FLOW_ERROR;
            for (guint i = 0; i < items->seq.items->len; i++)
              _graft_value_seq_add (cur, items->seq.items->pdata[i]);
            return FLOW_NORMAL;
          }
        v = _graft_tracer_inplace_binop (t, s->aug_assign.op, cur, rhs, s->aug_assign.target);
        if (v == NULL || !_graft_tracer_assign (t, frame, s->aug_assign.target, v))
          return FLOW_ERROR;
        return FLOW_NORMAL;
      }

    case GRAFT_PY_STMT_ANN_ASSIGN:
      if (s->ann_assign.value == NULL)
        return FLOW_NORMAL;
      v = _graft_tracer_eval (t, frame, s->ann_assign.value);
      if (v == NULL || !_graft_tracer_assign (t, frame, s->ann_assign.target, v))
        return FLOW_ERROR;
      return FLOW_NORMAL;

    case GRAFT_PY_STMT_RETURN:
      v = s->ret.value != NULL ? _graft_tracer_eval (t, frame, s->ret.value) : _graft_value_none ();
      if (v == NULL)
        return FLOW_ERROR;
      if (out_return == NULL)
        {
          _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_SYNTAX,
                              "'return' outside a function");
          return FLOW_ERROR;
        }
      /* What the traced function itself returns becomes the output node's
       * argument. */
      if (t->call_depth == 1 && s->ret.value != NULL &&
          !_graft_tracer_check_returned (t, v, s->ret.value))
        return FLOW_ERROR;
      *out_return = v;
      return FLOW_RETURN;

    case GRAFT_PY_STMT_PASS:
      return FLOW_NORMAL;
    case GRAFT_PY_STMT_BREAK:
      return FLOW_BREAK;
    case GRAFT_PY_STMT_CONTINUE:
      return FLOW_CONTINUE;

    case GRAFT_PY_STMT_IF:
      v = _graft_tracer_eval (t, frame, s->if_stmt.test);
      if (v == NULL)
        return FLOW_ERROR;
      if (_graft_value_is_proxy (v))
        {
          /* (A `case` is read as an if: graft-py-parser.c's parse_match().) */
          _graft_tracer_fail (t, s->if_stmt.test->start, s->if_stmt.test->end,
                              GRAFT_PARSE_ERROR_TRACE, "%s cannot depend on a traced value %s",
                              strncmp (graft_source_get_text (t->source) + s->start, "case", 4) == 0
                                  ? "a case pattern"
                                  : "an if statement",
                              _graft_tracer_control_flow_reason);
          return FLOW_ERROR;
        }
      if (!_graft_tracer_truth (t, v, s->if_stmt.test, &truth))
        return FLOW_ERROR;
      return _graft_tracer_exec_block (t, frame, truth ? &s->if_stmt.body : &s->if_stmt.orelse,
                                       out_return);

    case GRAFT_PY_STMT_FOR:
      return exec_for (t, frame, s, out_return);

    case GRAFT_PY_STMT_WHILE:
      return exec_while (t, frame, s, out_return);

    case GRAFT_PY_STMT_WITH:
      for (guint i = 0; i < s->with_stmt.n_items; i++)
        {
          /* Only context managers without effect on the graph are known:
           * torch.no_grad() and friends (graft-tracer-torch.c). */
          v = _graft_tracer_eval (t, frame, s->with_stmt.items[i]->context_expr);
          if (v == NULL)
            return FLOW_ERROR;
          if (v->kind != VAL_BUILTIN || strcmp (v->path, "__graft_context__") != 0 ||
              s->with_stmt.items[i]->optional_vars != NULL)
            {
              _graft_tracer_fail (t, s->with_stmt.items[i]->start, s->with_stmt.items[i]->end,
                                  GRAFT_PARSE_ERROR_UNSUPPORTED,
                                  "this with statement is not supported");
              return FLOW_ERROR;
            }
        }
      return _graft_tracer_exec_block (t, frame, &s->with_stmt.body, out_return);

    case GRAFT_PY_STMT_ASSERT:
      v = _graft_tracer_eval (t, frame, s->assert_stmt.test);
      if (v == NULL)
        return FLOW_ERROR;
      if (_graft_value_is_proxy (v))
        {
          _graft_tracer_fail (t, s->assert_stmt.test->start, s->assert_stmt.test->end,
                              GRAFT_PARSE_ERROR_TRACE,
                              "an assert cannot check a traced value %s; torch._assert records the "
                              "check instead",
                              _graft_tracer_control_flow_reason);
          return FLOW_ERROR;
        }
      if (!_graft_tracer_truth (t, v, s->assert_stmt.test, &truth))
        return FLOW_ERROR;
      if (!truth)
        {
          raise_assertion (t, frame, s);
          return FLOW_ERROR;
        }
      return FLOW_NORMAL;

    case GRAFT_PY_STMT_RAISE:
      {
        const char *cls = NULL;
        Value      *args = NULL;
        Value      *exc;

        /* `raise cls('x')` where a variable names Python's class. */
        if (s->raise_stmt.exc != NULL &&
            raise_class_variable (t, frame, s->raise_stmt.exc, &cls, &args))
          {
            if (t->error != NULL)
              return FLOW_ERROR;
          }
        else
          {
            /* A bare `raise`: the caught object's args, which the handler
             * may have set (`e.args = ...`). */
            args = s->raise_stmt.exc != NULL ? raised_args (t, frame, s->raise_stmt.exc)
                   : t->handling_exc != NULL && t->handling_exc->kind == VAL_OBJECT &&
                           t->handling_exc->obj->exception_args != NULL
                       ? t->handling_exc->obj->exception_args
                       : t->handling_args;
            cls = s->raise_stmt.exc != NULL ? raised_class_name (frame, s->raise_stmt.exc)
                                            : t->handling;
          }

        /* `raise IOError(...)` raises an OSError. */
        if (cls != NULL && _graft_tracer_builtin_exception (t, cls) != NULL &&
            _graft_tracer_file_exception_class (t, cls) == NULL)
          cls = _graft_tracer_builtin_exception (t, cls);
        /* (The arguments' evaluation may have raised.) */
        exc = cls != NULL && t->error == NULL ? raise_object (t, frame, s, cls, args) : NULL;
        if (t->error != NULL)
          return FLOW_ERROR;
        /* A bare `raise` where the caught exception was raised. */
        if (s->raise_stmt.exc == NULL && t->handling != NULL && t->handling_span_known)
          raise_exception (t, t->handling_start, t->handling_end, cls, args);
        else
          raise_exception (t, s->start, s->end, cls, args);
        /* After: raising clears it. */
        t->raised_exc = exc;
        return FLOW_ERROR;
      }

    case GRAFT_PY_STMT_DELETE:
      for (guint i = 0; i < s->delete_stmt.targets.len; i++)
        {
          const GraftPyExpr *target = s->delete_stmt.targets.items[i];

          /* `del self.a`: nn.Module.__delattr__ looks in the parameters,
           * buffers and modules, then the plain attributes. */
          if (target->kind == GRAFT_PY_EXPR_ATTRIBUTE)
            {
              Value      *obj = _graft_tracer_eval (t, frame, target->attribute.value);
              const char *name = target->attribute.attr;

              if (obj == NULL)
                return FLOW_ERROR;
              if (obj->kind == VAL_OBJECT && (_graft_strmap_remove (&obj->obj->params, name) ||
                                              _graft_strmap_remove (&obj->obj->buffers, name) ||
                                              _graft_strmap_remove (&obj->obj->modules, name) ||
                                              _graft_strmap_remove (&obj->obj->attrs, name)))
                continue;
              _graft_tracer_fail (t, target->start, target->end, GRAFT_PARSE_ERROR_TRACE,
                                  "AttributeError: '%s' object has no attribute '%s'",
                                  _graft_value_type_name (obj), name);
              return FLOW_ERROR;
            }
          if (target->kind != GRAFT_PY_EXPR_NAME ||
              !_graft_strmap_remove (&_graft_tracer_binding_frame (frame, target->name.id)->vars,
                                     target->name.id))
            {
              if (target->kind == GRAFT_PY_EXPR_NAME)
                _graft_tracer_fail (t, target->start, target->end, GRAFT_PARSE_ERROR_TRACE,
                                    "NameError: name '%s' is not defined", target->name.id);
              else
                _graft_tracer_fail_at (t, target, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                       "only names and attributes can be deleted");
              return FLOW_ERROR;
            }
        }
      return FLOW_NORMAL;

    case GRAFT_PY_STMT_GLOBAL:
    case GRAFT_PY_STMT_NONLOCAL:
      return _graft_tracer_declare_names (t, frame, s) ? FLOW_NORMAL : FLOW_ERROR;

    case GRAFT_PY_STMT_TRY:
      return exec_try (t, frame, s, out_return);

    case GRAFT_PY_STMT_IMPORT:
      return exec_import (t, frame, s);

    case GRAFT_PY_STMT_IMPORT_FROM:
      return exec_import_from (t, frame, s);

    case GRAFT_PY_STMT_FUNCTION_DEF:
      if (s->function_def.is_async)
        {
          _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                              "async functions cannot be traced");
          return FLOW_ERROR;
        }
      v = make_function (t, frame, s, NULL);
      if (v == NULL)
        return FLOW_ERROR;
      _graft_strmap_set (&frame->vars, graft_py_stmt_get_bound_name (s), v);
      return FLOW_NORMAL;

    case GRAFT_PY_STMT_CLASS_DEF:
      return exec_class (t, frame, s);

    default:
      _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "this statement is not supported");
      return FLOW_ERROR;
    }
}

/* Enters @s, one level deeper: its span is where what it does is
 * reported.  FALSE, the error set, past the depth limit. */
static inline gboolean
enter_stmt (Tracer            *t,
            const GraftPyStmt *s)
{
  if (++t->depth > GRAFT_MAX_EVAL_DEPTH)
    {
      t->depth--;
      _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_LIMIT,
                          "the statement nests too deeply to evaluate (more than 4000 levels of "
                          "blocks and calls)");
      return FALSE;
    }
  t->span_start = s->start;
  t->span_end = s->end;
  return TRUE;
}

Flow
_graft_tracer_exec_stmt (Tracer            *t,
                         Frame             *frame,
                         const GraftPyStmt *s,
                         Value            **out_return)
{
  Flow    flow;
  guint32 saved_start = t->span_start, saved_end = t->span_end;

  if (!enter_stmt (t, s))
    return FLOW_ERROR;
  flow = exec_stmt_inner (t, frame, s, out_return);
  if (G_UNLIKELY (t->walk_too_deep))
    flow = _graft_tracer_too_deep (t, s->start, s->end) ? flow : FLOW_ERROR;
  t->span_start = saved_start;
  t->span_end = saved_end;
  t->depth--;
  g_assert (flow != FLOW_ERROR || t->error != NULL);
  return flow;
}

Flow
_graft_tracer_exec_block (Tracer                *t,
                          Frame                 *frame,
                          const GraftPyStmtList *body,
                          Value                **out_return)
{
  for (guint i = 0; i < body->len; i++)
    {
      Flow flow = _graft_tracer_exec_stmt (t, frame, body->items[i], out_return);

      if (flow != FLOW_NORMAL)
        return flow;
    }
  return FLOW_NORMAL;
}
