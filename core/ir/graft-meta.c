/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-meta.c: a program's graph signature, and the texts torch derives
 * from a node's metadata: the readable annotation (`f32[2, 4]`,
 * `Sym(s0)`; torch/fx/graph.py, `emit_node` under `verbose`) and the
 * summary of a stack trace (`_parse_stack_trace`, `get_summary_str`).  The
 * node side (storing a #GraftNodeMeta) is in graft-graph.c, which owns the
 * node struct.
 */
#include "config.h"

#include "graft-meta.h"
#include "graft-graph.h"
#include "graft-graph-private.h"

#include <string.h>

struct _GraftProgram
{
  GraftGraph *graph; /* Borrowed: the owner, whose chunk holds the strings */

  /* Owned */
  GArray *inputs;  /* GraftInputSpec */
  GArray *outputs; /* GraftOutputSpec */

  const char *range_constraints; /* in the graph's chunk, nullable */
};

GraftProgram *
_graft_program_new (GraftGraph *graph)
{
  GraftProgram *self = g_new0 (GraftProgram, 1);

  self->graph = graph;
  self->inputs = g_array_new (FALSE, TRUE, sizeof (GraftInputSpec));
  self->outputs = g_array_new (FALSE, TRUE, sizeof (GraftOutputSpec));
  return self;
}

void
_graft_program_free (GraftProgram *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->inputs);
  g_array_unref (self->outputs);
  g_free (self);
}

static const char *
intern (GraftProgram *self,
        const char   *text)
{
  return text != NULL ? graft_graph_intern (self->graph, text) : NULL;
}

/**
 * graft_program_get_n_inputs:
 *
 * Returns: the number of entries of the input signature
 */
guint
graft_program_get_n_inputs (GraftProgram *self)
{
  return self->inputs->len;
}

/**
 * graft_program_get_input:
 * @i: in `[0, graft_program_get_n_inputs ())`
 *
 * Returns: (transfer none): the @i-th entry, in the signature's order
 */
const GraftInputSpec *
graft_program_get_input (GraftProgram *self,
                         guint         i)
{
  g_return_val_if_fail (i < self->inputs->len, NULL);
  return &g_array_index (self->inputs, GraftInputSpec, i);
}

/**
 * graft_program_find_input:
 * @name: a placeholder's name
 *
 * Returns: (transfer none) (nullable): the entry for @name
 */
const GraftInputSpec *
graft_program_find_input (GraftProgram *self,
                          const char   *name)
{
  for (guint i = 0; i < self->inputs->len; i++)
    {
      const GraftInputSpec *spec = &g_array_index (self->inputs, GraftInputSpec, i);

      if (g_strcmp0 (spec->name, name) == 0)
        return spec;
    }
  return NULL;
}

/**
 * graft_program_add_input:
 * @spec: an entry; its strings are copied into the graph
 *
 * Appends @spec to the input signature.
 */
void
graft_program_add_input (GraftProgram         *self,
                         const GraftInputSpec *spec)
{
  GraftInputSpec copy = *spec;

  copy.name = intern (self, spec->name != NULL ? spec->name : "");
  copy.target = intern (self, spec->target);
  copy.argument = intern (self, spec->argument);
  copy.value = intern (self, spec->value);
  g_array_append_val (self->inputs, copy);
}

/* graft_program_add_input() of a @spec whose strings are the graph's
 * interned copies already (the `.pt2` reader's): taken as they are. */
void
_graft_program_add_input_interned (GraftProgram         *self,
                                   const GraftInputSpec *spec)
{
  GraftInputSpec copy = *spec;

  if (copy.name == NULL)
    copy.name = intern (self, "");
  g_array_append_val (self->inputs, copy);
}

/**
 * graft_program_get_n_outputs:
 *
 * Returns: the number of entries of the output signature
 */
guint
graft_program_get_n_outputs (GraftProgram *self)
{
  return self->outputs->len;
}

/**
 * graft_program_get_output:
 * @i: in `[0, graft_program_get_n_outputs ())`
 *
 * Returns: (transfer none): the @i-th entry
 */
const GraftOutputSpec *
graft_program_get_output (GraftProgram *self,
                          guint         i)
{
  g_return_val_if_fail (i < self->outputs->len, NULL);
  return &g_array_index (self->outputs, GraftOutputSpec, i);
}

/**
 * graft_program_add_output:
 * @spec: an entry; its strings are copied into the graph
 *
 * Appends @spec to the output signature.
 */
void
graft_program_add_output (GraftProgram          *self,
                          const GraftOutputSpec *spec)
{
  GraftOutputSpec copy = *spec;

  copy.name = intern (self, spec->name != NULL ? spec->name : "");
  copy.target = intern (self, spec->target);
  copy.argument = intern (self, spec->argument);
  copy.value = intern (self, spec->value);
  g_array_append_val (self->outputs, copy);
}

/**
 * graft_program_get_range_constraints:
 *
 * Returns: (nullable): the range constraints as `print(ep)` prints them
 *   (`{}`, `{s0: VR[2, int_oo]}`), or %NULL when unknown
 */
const char *
graft_program_get_range_constraints (GraftProgram *self)
{
  return self->range_constraints;
}

/**
 * graft_program_set_range_constraints:
 * @text: (nullable): as graft_program_get_range_constraints() returns it
 */
void
graft_program_set_range_constraints (GraftProgram *self,
                                     const char   *text)
{
  self->range_constraints = intern (self, text);
}

static const char *const input_kind_names[] = {
  [GRAFT_INPUT_SPEC_USER_INPUT] = "USER_INPUT",
  [GRAFT_INPUT_SPEC_PARAMETER] = "PARAMETER",
  [GRAFT_INPUT_SPEC_BUFFER] = "BUFFER",
  [GRAFT_INPUT_SPEC_CONSTANT_TENSOR] = "CONSTANT_TENSOR",
  [GRAFT_INPUT_SPEC_CUSTOM_OBJ] = "CUSTOM_OBJ",
  [GRAFT_INPUT_SPEC_TOKEN] = "TOKEN",
};

static const char *const output_kind_names[] = {
  [GRAFT_OUTPUT_SPEC_USER_OUTPUT] = "USER_OUTPUT",
  [GRAFT_OUTPUT_SPEC_LOSS_OUTPUT] = "LOSS_OUTPUT",
  [GRAFT_OUTPUT_SPEC_BUFFER_MUTATION] = "BUFFER_MUTATION",
  [GRAFT_OUTPUT_SPEC_GRADIENT_TO_PARAMETER] = "GRADIENT_TO_PARAMETER",
  [GRAFT_OUTPUT_SPEC_GRADIENT_TO_USER_INPUT] = "GRADIENT_TO_USER_INPUT",
  [GRAFT_OUTPUT_SPEC_USER_INPUT_MUTATION] = "USER_INPUT_MUTATION",
  [GRAFT_OUTPUT_SPEC_TOKEN] = "TOKEN",
};

/**
 * graft_input_spec_kind_to_string:
 *
 * Returns: torch's name of @kind (`PARAMETER`)
 */
const char *
graft_input_spec_kind_to_string (GraftInputSpecKind kind)
{
  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (input_kind_names), "USER_INPUT");
  return input_kind_names[kind];
}

/**
 * graft_input_spec_kind_from_string:
 * @text: torch's name of a kind (`BUFFER`)
 *
 * Returns: whether @text names a kind
 */
gboolean
graft_input_spec_kind_from_string (const char         *text,
                                   GraftInputSpecKind *out_kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (input_kind_names); i++)
    if (g_strcmp0 (text, input_kind_names[i]) == 0)
      {
        *out_kind = (GraftInputSpecKind) i;
        return TRUE;
      }
  return FALSE;
}

/**
 * graft_output_spec_kind_to_string:
 *
 * Returns: torch's name of @kind (`USER_OUTPUT`)
 */
const char *
graft_output_spec_kind_to_string (GraftOutputSpecKind kind)
{
  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (output_kind_names), "USER_OUTPUT");
  return output_kind_names[kind];
}

/**
 * graft_output_spec_kind_from_string:
 * @text: torch's name of a kind (`BUFFER_MUTATION`)
 *
 * Returns: whether @text names a kind
 */
gboolean
graft_output_spec_kind_from_string (const char          *text,
                                    GraftOutputSpecKind *out_kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (output_kind_names); i++)
    if (g_strcmp0 (text, output_kind_names[i]) == 0)
      {
        *out_kind = (GraftOutputSpecKind) i;
        return TRUE;
      }
  return FALSE;
}

/**
 * graft_node_meta_dup_annotation:
 * @meta: (nullable): a node's metadata
 * @include_stride: add the strides after the shape, as
 *   `print_readable (include_stride=True)` does
 * @include_device: add the device after that
 *
 * The annotation readable code gives the node (without the quotes):
 * `f32[2, 4]` for a tensor, `Sym(s0)` for a symbolic number.
 *
 * Returns: (transfer full) (nullable): the text, or %NULL when torch prints
 *   no annotation
 */
char *
graft_node_meta_dup_annotation (const GraftNodeMeta *meta,
                                gboolean             include_stride,
                                gboolean             include_device)
{
  if (meta == NULL)
    return NULL;
  switch (meta->kind)
    {
    case GRAFT_VALUE_TENSOR:
      return g_strconcat (meta->dtype != NULL ? meta->dtype : "",
                          meta->shape != NULL ? meta->shape : "[]",
                          include_stride && meta->stride != NULL ? meta->stride : "",
                          include_device && meta->device != NULL ? meta->device : "", NULL);
    case GRAFT_VALUE_SYMBOL:
      return g_strdup_printf ("Sym(%s)", meta->symbol != NULL ? meta->symbol : "");
    case GRAFT_VALUE_UNKNOWN:
    case GRAFT_VALUE_OTHER:
    default:
      return NULL;
    }
}

/* Whether @c is white space to Python's str.isspace(), which strip()
 * removes: ASCII's six and the four separators U+001C-U+001F, then the
 * Unicode spaces (bidirectional class WS, B or S, or category Zs). */
static gboolean
is_py_space (gunichar c)
{
  if (c < 0x80)
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
  return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

/* The character that starts at @p (before @end), or (gunichar) -1 for a
 * byte that starts none (the text is not valid UTF-8 there). */
static gunichar
char_at (const char *p,
         const char *end)
{
  gunichar c = g_utf8_get_char_validated (p, end - p);

  return c == (gunichar) -2 ? (gunichar) -1 : c;
}

/* [@start, @end) with white space at both ends cut, as Python's strip().
 * A byte that is not valid UTF-8 is not white space. */
static void
strip_span (const char **start,
            const char **end)
{
  while (*start < *end)
    {
      gunichar c = char_at (*start, *end);

      if (c == (gunichar) -1 || !is_py_space (c))
        break;
      *start = g_utf8_next_char (*start);
    }
  while (*end > *start)
    {
      const char *prev = *end - 1;
      gunichar    c;

      /* Back to the lead byte of the last character. */
      while (prev > *start && ((guchar) *prev & 0xC0) == 0x80 && *end - prev < 4)
        prev--;
      c = char_at (prev, *end);
      if (c == (gunichar) -1 || g_utf8_next_char (prev) != *end || !is_py_space (c))
        break;
      *end = prev;
    }
}

/* The end of the run of digits at @p (Python's `\d` in a str pattern: any
 * Unicode decimal digit), or @p when none starts there. */
static const char *
skip_digits (const char *p,
             const char *end)
{
  while (p < end)
    {
      gunichar c = char_at (p, end);

      if (c == (gunichar) -1 || !g_unichar_isdigit (c))
        break;
      p = g_utf8_next_char (p);
    }
  return p;
}

/* Whether [start, end) is `File "FILE", line N, in NAME`; sets the parts. */
static gboolean
parse_frame_line (const char  *start,
                  const char  *end,
                  const char **file,
                  gsize       *file_len,
                  const char **lineno,
                  gsize       *lineno_len,
                  const char **name,
                  gsize       *name_len)
{
  static const char in_word[] = ", in ";
  const char       *p, *q, *digits;

  if (end - start < 6 || memcmp (start, "File \"", 6) != 0)
    return FALSE;
  p = start + 6;
  /* The regex's `(.+)` is greedy: the file runs to the last `", line N, in `
   * that leaves a non-empty name. */
  for (q = end - 1; q > p; q--)
    {
      const char *r;

      if (*q != '"' || end - q < 9 || memcmp (q, "\", line ", 8) != 0)
        continue;
      digits = q + 8;
      r = skip_digits (digits, end);
      if (r == digits || (gsize) (end - r) < sizeof in_word ||
          memcmp (r, in_word, sizeof in_word - 1) != 0)
        continue;
      *file = p;
      *file_len = (gsize) (q - p);
      *lineno = digits;
      *lineno_len = (gsize) (r - digits);
      *name = r + sizeof in_word - 1;
      *name_len = (gsize) (end - *name);
      return *file_len > 0 && *name_len > 0;
    }
  return FALSE;
}

/**
 * graft_stack_trace_summarize:
 * @stack_trace: (nullable): a stack trace as torch keeps it
 * @out: where the summary is appended
 *
 * Appends what readable code prints of @stack_trace after `# `: `File:
 * FILE:LINE in NAME, code: CODE`, from the innermost frame that has a code
 * line after it.
 *
 * Returns: whether a frame was found (when not, torch prints an empty
 *   summary and nothing is appended)
 */
gboolean
graft_stack_trace_summarize (const char *stack_trace,
                             GString    *out)
{
  g_autoptr (GPtrArray) lines = NULL;
  const char *start, *end, *p;

  if (stack_trace == NULL)
    return FALSE;
  start = stack_trace;
  end = start + strlen (start);
  strip_span (&start, &end);
  /* Line starts of the stripped text, split at '\n' as Python's split. */
  lines = g_ptr_array_new ();
  g_ptr_array_add (lines, (gpointer) start);
  for (p = start; p < end; p++)
    if (*p == '\n')
      g_ptr_array_add (lines, (gpointer) (p + 1));
  g_ptr_array_add (lines, (gpointer) (end + 1)); /* sentinel: one past the last line's end */

  for (guint idx = lines->len - 1; idx-- > 1;)
    {
      const char *ls = lines->pdata[idx - 1], *le = (const char *) lines->pdata[idx] - 1;
      const char *cs = lines->pdata[idx], *ce = (const char *) lines->pdata[idx + 1] - 1;
      const char *file, *lineno, *name;
      gsize       file_len, lineno_len, name_len;

      strip_span (&ls, &le);
      if (!parse_frame_line (ls, le, &file, &file_len, &lineno, &lineno_len, &name, &name_len))
        continue;
      strip_span (&cs, &ce);
      g_string_append (out, "File: ");
      g_string_append_len (out, file, (gssize) file_len);
      g_string_append_c (out, ':');
      g_string_append_len (out, lineno, (gssize) lineno_len);
      g_string_append (out, " in ");
      g_string_append_len (out, name, (gssize) name_len);
      g_string_append (out, ", code: ");
      g_string_append_len (out, cs, (gssize) (ce - cs));
      return TRUE;
    }
  return FALSE;
}
