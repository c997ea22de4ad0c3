/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * program.c: a resnet-shaped torch.export program made by hand (see
 * program.h).  Block b is `layer{1 + b / blocks_per_layer}.{b % ...}` of
 * class BasicBlock in a Sequential; every node but the placeholders and the
 * output has frames, a tensor value and a stack trace into torchvision's
 * resnet.py, as torch 2.6 records them.
 */
#include "config.h"

#include "program.h"

#include <string.h>

#define RESNET_PY "/usr/lib/python3/dist-packages/torchvision/models/resnet.py"

typedef struct
{
  GraftGraph *graph;
  GString    *buf;
  GPtrArray  *weights; /* char *: placeholder names, in signature order */
  GPtrArray  *targets; /* char *: their targets */
  GArray     *kinds;   /* GraftInputSpecKind */
} Builder;

static GraftNode *
add_placeholder (Builder           *b,
                 const char        *name,
                 const char        *target,
                 GraftInputSpecKind kind,
                 const char        *shape)
{
  GraftNode    *node = graft_graph_create_node_named (b->graph, GRAFT_OP_PLACEHOLDER, name, NULL,
                                                      NULL, name, NULL);
  GraftNodeMeta meta = { 0 };

  meta.kind = GRAFT_VALUE_TENSOR;
  meta.dtype = "f32";
  meta.shape = shape;
  meta.device = "cpu";
  graft_node_set_meta (node, &meta);
  g_ptr_array_add (b->weights, g_strdup (name));
  g_ptr_array_add (b->targets, g_strdup (target));
  g_array_append_val (b->kinds, kind);
  return node;
}

/* A call of aten op @op on @n_inputs nodes (then None for a conv's bias),
 * in module @path of class @type within @parents, at line @line of
 * resnet.py. */
static GraftNode *
add_call (Builder          *b,
          const char       *op,
          GraftNode *const *inputs,
          guint             n_inputs,
          const char       *kw_name,
          const char *const frames[][2],
          guint             n_frames,
          guint             line,
          const char       *code,
          const char       *shape)
{
  GraftArg                     args;
  GraftArg                     kwargs;
  g_autofree char             *target = g_strconcat ("torch.ops.aten.", op, NULL);
  g_autofree char             *candidate = g_strdup (op);
  g_autofree char             *trace = NULL;
  g_autofree GraftModuleFrame *modules = g_new0 (GraftModuleFrame, n_frames);
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  GraftNodeMeta meta = { 0 };
  GraftNode    *node;
  guint         n_pos = kw_name != NULL ? n_inputs - 1 : n_inputs;

  *strchr (candidate, '.') = '\0';
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, n_pos);
  for (guint i = 0; i < n_pos; i++)
    graft_arg_init_node (&args.items[i], inputs[i]);
  graft_arg_init_dict (&kwargs, kw_name != NULL ? 1 : 0);
  if (kw_name != NULL)
    {
      graft_arg_init_str (&kwargs.items[0], kw_name, strlen (kw_name));
      graft_arg_init_node (&kwargs.items[1], inputs[n_inputs - 1]);
    }
  node = graft_graph_create_node (b->graph, GRAFT_OP_CALL_FUNCTION, target, &args, &kwargs,
                                  candidate, NULL);
  for (guint f = 0; f < n_frames; f++)
    {
      char *key = g_strdelimit (g_strconcat ("L__self___", frames[f][0], NULL), ".", '_');

      g_ptr_array_add (keys, key);
      modules[f].key = f == 0 ? "L__self__" : key;
      modules[f].path = frames[f][0];
      modules[f].type = frames[f][1];
    }
  trace = g_strdup_printf ("  File \"%s\", line 285, in forward\n"
                           "    return self._forward_impl(x)\n"
                           "  File \"%s\", line %u, in forward\n"
                           "    %s\n",
                           RESNET_PY, RESNET_PY, line, code);
  meta.kind = GRAFT_VALUE_TENSOR;
  meta.dtype = "f32";
  meta.shape = shape;
  meta.stride = "[200704, 3136, 56, 1]";
  meta.device = "cpu";
  meta.stack_trace = trace;
  meta.n_modules = n_frames;
  meta.modules = modules;
  graft_node_set_meta (node, &meta);
  return node;
}

/**
 * program_new:
 * @n_blocks: how many basic blocks (19 nodes each)
 *
 * Returns: (transfer full): the program
 */
GraftGraph *
program_new (guint n_blocks)
{
  Builder         b = { 0 };
  GraftProgram   *program;
  GraftNode      *x;
  GraftNode      *prev;
  GraftNode     **w;
  guint           per_layer = MAX ((n_blocks + 3) / 4, 1);
  GraftArg        out_args;
  GraftOutputSpec out_spec = { GRAFT_OUTPUT_SPEC_USER_OUTPUT, NULL, NULL, NULL, NULL };

  b.graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));
  b.weights = g_ptr_array_new_with_free_func (g_free);
  b.targets = g_ptr_array_new_with_free_func (g_free);
  b.kinds = g_array_new (FALSE, FALSE, sizeof (GraftInputSpecKind));
  graft_graph_set_module_name (b.graph, "GraphModule");
  w = g_new0 (GraftNode *, (gsize) n_blocks * 12 + 1);

  /* Parameters and buffers first, as torch.export lists them. */
  for (guint k = 0; k < n_blocks; k++)
    {
      guint                    layer = 1 + k / per_layer;
      g_autofree char         *block = g_strdup_printf ("layer%u.%u", layer, k % per_layer);
      static const char *const parts[4] = { "conv1", "bn1", "conv2", "bn2" };

      for (guint c = 0; c < 4; c++)
        {
          g_autofree char *mod = g_strdup_printf ("%s.%s", block, parts[c]);
          g_autofree char *flat = g_strdelimit (g_strdup (mod), ".", '_');

          if (c % 2 == 0)
            {
              g_autofree char *name = g_strdup_printf ("p_%s_weight", flat);
              g_autofree char *target = g_strdup_printf ("%s.weight", mod);

              w[k * 12 + (c / 2) * 6] = add_placeholder (&b, name, target,
                                                         GRAFT_INPUT_SPEC_PARAMETER,
                                                         "[64, 64, 3, 3]");
            }
          else
            {
              static const char *const bn[4] = { "weight", "bias", "running_mean",
                                                 "running_var" };

              for (guint j = 0; j < 4; j++)
                {
                  g_autofree char *name =
                      g_strdup_printf ("%s_%s_%s", j < 2 ? "p" : "b", flat, bn[j]);
                  g_autofree char *target = g_strdup_printf ("%s.%s", mod, bn[j]);

                  w[k * 12 + (c / 2) * 6 + 1 + j] =
                      add_placeholder (&b, name, target,
                                       j < 2 ? GRAFT_INPUT_SPEC_PARAMETER : GRAFT_INPUT_SPEC_BUFFER,
                                       "[64]");
                }
              /* Unused, as in every export of a batch norm in eval mode. */
              {
                g_autofree char *name = g_strdup_printf ("b_%s_num_batches_tracked", flat);
                g_autofree char *target = g_strdup_printf ("%s.num_batches_tracked", mod);

                add_placeholder (&b, name, target, GRAFT_INPUT_SPEC_BUFFER, "[]");
              }
            }
        }
    }
  x = add_placeholder (&b, "x", NULL, GRAFT_INPUT_SPEC_USER_INPUT, "[1, 64, 56, 56]");
  prev = x;

  for (guint k = 0; k < n_blocks; k++)
    {
      g_autofree char  *layer = g_strdup_printf ("layer%u", 1 + k / per_layer);
      g_autofree char  *block = g_strdup_printf ("%s.%u", layer, k % per_layer);
      g_autofree char  *conv1 = g_strconcat (block, ".conv1", NULL);
      g_autofree char  *bn1 = g_strconcat (block, ".bn1", NULL);
      g_autofree char  *conv2 = g_strconcat (block, ".conv2", NULL);
      g_autofree char  *bn2 = g_strconcat (block, ".bn2", NULL);
      g_autofree char  *relu = g_strconcat (block, ".relu", NULL);
      const char *const f_conv1[][2] = {
        { "", "torchvision.models.resnet.ResNet" },
        { layer, "torch.nn.modules.container.Sequential" },
        { block, "torchvision.models.resnet.BasicBlock" },
        { conv1, "torch.nn.modules.conv.Conv2d" },
      };
      const char *const f_bn1[][2] = {
        { "", "torchvision.models.resnet.ResNet" },
        { layer, "torch.nn.modules.container.Sequential" },
        { block, "torchvision.models.resnet.BasicBlock" },
        { bn1, "torch.nn.modules.batchnorm.BatchNorm2d" },
      };
      const char *const f_relu[][2] = {
        { "", "torchvision.models.resnet.ResNet" },
        { layer, "torch.nn.modules.container.Sequential" },
        { block, "torchvision.models.resnet.BasicBlock" },
        { relu, "torch.nn.modules.activation.ReLU" },
      };
      const char *const f_conv2[][2] = {
        { "", "torchvision.models.resnet.ResNet" },
        { layer, "torch.nn.modules.container.Sequential" },
        { block, "torchvision.models.resnet.BasicBlock" },
        { conv2, "torch.nn.modules.conv.Conv2d" },
      };
      const char *const f_bn2[][2] = {
        { "", "torchvision.models.resnet.ResNet" },
        { layer, "torch.nn.modules.container.Sequential" },
        { block, "torchvision.models.resnet.BasicBlock" },
        { bn2, "torch.nn.modules.batchnorm.BatchNorm2d" },
      };
      GraftNode  *in = prev;
      GraftNode  *n;
      GraftNode  *ins[6];
      const char *shape = "[1, 64, 56, 56]";

      ins[0] = in;
      ins[1] = w[k * 12];
      n = add_call (&b, "conv2d.default", ins, 2, NULL, f_conv1, 4, 92, "out = self.conv1(x)",
                    shape);
      ins[0] = n;
      memcpy (&ins[1], &w[k * 12 + 1], 4 * sizeof (GraftNode *));
      n = add_call (&b, "batch_norm.default", ins, 5, NULL, f_bn1, 4, 93, "out = self.bn1(out)",
                    shape);
      ins[0] = n;
      n = add_call (&b, "relu.default", ins, 1, NULL, f_relu, 4, 94, "out = self.relu(out)",
                    shape);
      ins[0] = n;
      ins[1] = w[k * 12 + 6];
      n = add_call (&b, "conv2d.default", ins, 2, NULL, f_conv2, 4, 96, "out = self.conv2(out)",
                    shape);
      ins[0] = n;
      memcpy (&ins[1], &w[k * 12 + 7], 4 * sizeof (GraftNode *));
      n = add_call (&b, "batch_norm.default", ins, 5, NULL, f_bn2, 4, 97, "out = self.bn2(out)",
                    shape);
      ins[0] = n;
      ins[1] = in;
      n = add_call (&b, "add.Tensor", ins, 2, NULL, f_relu, 3, 102, "out += identity", shape);
      ins[0] = n;
      prev = add_call (&b, "relu.default", ins, 1, NULL, f_relu, 4, 103, "out = self.relu(out)",
                       shape);
    }

  graft_arg_init_seq (&out_args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_seq (&out_args.items[0], GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&out_args.items[0].items[0], prev);
  graft_graph_create_node (b.graph, GRAFT_OP_OUTPUT, "output", &out_args, NULL, "output", NULL);

  program = graft_graph_ensure_program (b.graph);
  for (guint i = 0; i < b.weights->len; i++)
    {
      GraftInputSpec spec = { 0 };

      spec.kind = g_array_index (b.kinds, GraftInputSpecKind, i);
      spec.name = b.weights->pdata[i];
      spec.target = b.targets->pdata[i];
      spec.persistent = spec.kind == GRAFT_INPUT_SPEC_BUFFER ? 1 : -1;
      graft_program_add_input (program, &spec);
    }
  out_spec.name = graft_node_get_name (prev);
  graft_program_add_output (program, &out_spec);

  g_free (w);
  g_ptr_array_unref (b.weights);
  g_ptr_array_unref (b.targets);
  g_array_unref (b.kinds);
  return b.graph;
}
