/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-meta.h: what a torch.export program knows about its values and
 * where they came from.
 *
 * A node of a program carries a #GraftNodeMeta: the value it computes
 * (torch's `node.meta["val"]`: a tensor's dtype, shape, stride and device,
 * or a symbolic number), the stack trace of the line that made it, and the
 * module stack it was called in (`nn_module_stack`).  A graph of a program
 * carries a #GraftProgram: the graph signature (which placeholders are
 * parameters, buffers, constants or user inputs; which outputs are user
 * outputs or mutations) and the range constraints.  Traced Python, listings
 * and nodes a rewrite makes have no metadata: Graft never invents what torch
 * did not record.
 *
 * Metadata is set when a graph is read and is not part of undoable edits: a
 * node keeps its metadata while it is erased and brought back.  Every string
 * lives in the graph's string chunk.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

/**
 * GraftValueKind:
 * @GRAFT_VALUE_UNKNOWN: nothing is recorded (readable code prints no
 *   annotation)
 * @GRAFT_VALUE_TENSOR: a tensor: @dtype and @shape, maybe @stride and @device
 * @GRAFT_VALUE_SYMBOL: a SymInt, SymFloat or SymBool; readable code prints
 *   `Sym(EXPR)` with @symbol as EXPR
 * @GRAFT_VALUE_OTHER: a value readable code prints no annotation for (the
 *   tuple of a node with several outputs, `None`, a number, a script
 *   object); @symbol may describe it
 */
typedef enum {
  GRAFT_VALUE_UNKNOWN,
  GRAFT_VALUE_TENSOR,
  GRAFT_VALUE_SYMBOL,
  GRAFT_VALUE_OTHER,
} GraftValueKind;

/**
 * GraftModuleFrame:
 * @key: torch's key of the level (`L__self___lin`)
 * @path: the module's path in the root (`lin`; "" for the root itself)
 * @type: the module's class (`torch.nn.modules.linear.Linear`)
 *
 * One level of a node's `nn_module_stack`, outermost first.
 */
typedef struct
{
  const char *key;
  const char *path;
  const char *type;
} GraftModuleFrame;

/**
 * GraftNodeMeta:
 * @kind: what @dtype ... @symbol describe
 * @dtype: TENSOR: torch's abbreviation (`f32`, `i64`, `b8`)
 * @shape: TENSOR: the sizes as readable code prints them (`[2, 4]`,
 *   `[s0, 4]`, `[]`)
 * @stride: (nullable): TENSOR: the strides, printed the same way
 * @device: (nullable): TENSOR: the device (`cpu`, `meta`, `cuda:0`)
 * @symbol: (nullable): SYMBOL: the expression (`s0`, `2*s0`); OTHER: a
 *   description
 * @stack_trace: (nullable): the stack trace as torch keeps it, innermost
 *   frame last (`  File "m.py", line 9, in forward\n    a = self.lin(x)\n`)
 * @source_fn_stack: (nullable): torch's `source_fn_stack`, as serialized
 * @torch_fn: (nullable): torch's `torch_fn`, as serialized
 * @n_modules: the number of levels in @modules
 * @modules: (array length=n_modules) (nullable): the module stack,
 *   outermost first
 *
 * The metadata of one node.  Strings are borrowed from the graph.
 */
typedef struct
{
  GraftValueKind          kind;
  const char             *dtype;
  const char             *shape;
  const char             *stride;
  const char             *device;
  const char             *symbol;
  const char             *stack_trace;
  const char             *source_fn_stack;
  const char             *torch_fn;
  guint                   n_modules;
  const GraftModuleFrame *modules;
} GraftNodeMeta;

const GraftNodeMeta *graft_node_get_meta (GraftNode *node);
void                 graft_node_set_meta (GraftNode           *node,
                                          const GraftNodeMeta *meta);

char *graft_node_meta_dup_annotation (const GraftNodeMeta *meta,
                                      gboolean             include_stride,
                                      gboolean             include_device)
    G_GNUC_WARN_UNUSED_RESULT;
gboolean graft_stack_trace_summarize (const char *stack_trace,
                                      GString    *out);

/**
 * GraftInputSpecKind:
 * @GRAFT_INPUT_SPEC_USER_INPUT: an input of the model's forward
 * @GRAFT_INPUT_SPEC_PARAMETER: a parameter (target: its path, `lin.weight`)
 * @GRAFT_INPUT_SPEC_BUFFER: a buffer (target: its path; persistent or not)
 * @GRAFT_INPUT_SPEC_CONSTANT_TENSOR: a lifted tensor constant (`c_...`)
 * @GRAFT_INPUT_SPEC_CUSTOM_OBJ: a script object
 * @GRAFT_INPUT_SPEC_TOKEN: an effect token
 *
 * What a placeholder of a program stands for (torch.export's `InputKind`).
 */
typedef enum {
  GRAFT_INPUT_SPEC_USER_INPUT,
  GRAFT_INPUT_SPEC_PARAMETER,
  GRAFT_INPUT_SPEC_BUFFER,
  GRAFT_INPUT_SPEC_CONSTANT_TENSOR,
  GRAFT_INPUT_SPEC_CUSTOM_OBJ,
  GRAFT_INPUT_SPEC_TOKEN,
} GraftInputSpecKind;

/**
 * GraftOutputSpecKind:
 * @GRAFT_OUTPUT_SPEC_USER_OUTPUT: an output of the model's forward
 * @GRAFT_OUTPUT_SPEC_LOSS_OUTPUT: the loss of a joint graph
 * @GRAFT_OUTPUT_SPEC_BUFFER_MUTATION: a buffer's new value (target: the buffer)
 * @GRAFT_OUTPUT_SPEC_GRADIENT_TO_PARAMETER: a parameter's gradient
 * @GRAFT_OUTPUT_SPEC_GRADIENT_TO_USER_INPUT: a user input's gradient
 * @GRAFT_OUTPUT_SPEC_USER_INPUT_MUTATION: a user input's new value
 * @GRAFT_OUTPUT_SPEC_TOKEN: an effect token
 *
 * What an output of a program is (torch.export's `OutputKind`).
 */
typedef enum {
  GRAFT_OUTPUT_SPEC_USER_OUTPUT,
  GRAFT_OUTPUT_SPEC_LOSS_OUTPUT,
  GRAFT_OUTPUT_SPEC_BUFFER_MUTATION,
  GRAFT_OUTPUT_SPEC_GRADIENT_TO_PARAMETER,
  GRAFT_OUTPUT_SPEC_GRADIENT_TO_USER_INPUT,
  GRAFT_OUTPUT_SPEC_USER_INPUT_MUTATION,
  GRAFT_OUTPUT_SPEC_TOKEN,
} GraftOutputSpecKind;

/**
 * GraftInputSpec:
 * @kind: what the placeholder stands for
 * @name: the placeholder's name (`p_lin_weight`); for a constant input
 *   (a number or None the program was exported with), the name the
 *   signature gives it
 * @target: (nullable): the parameter's, buffer's or constant's path
 *   (`lin.weight`), %NULL for a user input
 * @persistent: a buffer: 1 persistent, 0 not; -1 for the other kinds
 *   (torch prints `persistent=None`)
 * @argument: (nullable): the class of the argument as torch prints it
 *   (`TensorArgument`, `SymIntArgument`, `ConstantArgument`), %NULL for
 *   `TensorArgument`
 * @value: (nullable): a `ConstantArgument`'s value as torch prints it
 *
 * One entry of a program's input signature.  Strings are borrowed.  The
 * kinds' numbers are torch's `InputKind` values minus one.
 */
typedef struct
{
  GraftInputSpecKind kind;
  const char        *name;
  const char        *target;
  int                persistent;
  const char        *argument;
  const char        *value;
} GraftInputSpec;

/**
 * GraftOutputSpec:
 * @kind: what the output is
 * @name: the output value's name (`mul`), or "" when the output is not a
 *   node (a constant)
 * @target: (nullable): the mutated buffer or input, or the parameter a
 *   gradient is for
 * @argument: (nullable): as for #GraftInputSpec
 * @value: (nullable): as for #GraftInputSpec
 *
 * One entry of a program's output signature.  Strings are borrowed.  The
 * kinds' numbers are torch's `OutputKind` values minus one.
 */
typedef struct
{
  GraftOutputSpecKind kind;
  const char         *name;
  const char         *target;
  const char         *argument;
  const char         *value;
} GraftOutputSpec;

GraftProgram *graft_graph_get_program (GraftGraph *self);
GraftProgram *graft_graph_ensure_program (GraftGraph *self);

guint                  graft_program_get_n_inputs (GraftProgram *self);
const GraftInputSpec  *graft_program_get_input (GraftProgram *self,
                                                guint         i);
const GraftInputSpec  *graft_program_find_input (GraftProgram *self,
                                                 const char   *name);
void                   graft_program_add_input (GraftProgram         *self,
                                                const GraftInputSpec *spec);
guint                  graft_program_get_n_outputs (GraftProgram *self);
const GraftOutputSpec *graft_program_get_output (GraftProgram *self,
                                                 guint         i);
void                   graft_program_add_output (GraftProgram          *self,
                                                 const GraftOutputSpec *spec);
const char            *graft_program_get_range_constraints (GraftProgram *self);
void                   graft_program_set_range_constraints (GraftProgram *self,
                                                            const char   *text);

const char *graft_input_spec_kind_to_string (GraftInputSpecKind kind);
gboolean    graft_input_spec_kind_from_string (const char         *text,
                                               GraftInputSpecKind *out_kind);
const char *graft_output_spec_kind_to_string (GraftOutputSpecKind kind);
gboolean    graft_output_spec_kind_from_string (const char          *text,
                                                GraftOutputSpecKind *out_kind);

G_END_DECLS
