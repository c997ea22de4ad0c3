/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-program-text.c: reads the two texts torch 2.6 prints for a
 * torch.export program back into the program's graph, as printed, never
 * traced again:
 *
 *  - `gm.print_readable(print_output=False)` (torch/fx/graph_module.py
 *    `_print_readable`, torch/fx/graph.py `_gen_python_code` with
 *    `verbose=True`): `class NAME(torch.nn.Module):`, then
 *    `def forward(self, P: "f32[2, 4]", ...):` and one line per node,
 *    `name: "f32[2, 3]" = torch.ops.aten.linear.default(x, w, bias = b);
 *    x = None`, with a comment before each group of nodes that share a
 *    stack trace (`# File: F:L in N, code: C`, a bare `# `, or
 *    `# No stacktrace found for following nodes`), and `return (a, b)`;
 *  - `print(ep)` (torch/export/exported_program.py `__str__`):
 *    `ExportedProgram:`, the same text indented by 4, then
 *    `Graph signature: ExportGraphSignature(...)` and
 *    `Range constraints: {...}`.
 *
 * What each line becomes:
 *
 *  - Names are kept exactly as printed (graft_graph_create_node_named), so
 *    `mm` stays `mm`.  The parameters of forward are the placeholders (the
 *    target is the parameter, `*args` included; a `name = param` line
 *    before the nodes renames one, as torch prints a placeholder whose name
 *    is not its target); a parameter's `= value` is its default.
 *  - The right-hand side is read as torch's code generation writes it:
 *    `self.a.b` is a get_attr, `self.a.b(...)` a call_module, `x.m(...)` a
 *    call_method, `x.attr` `builtins.getattr`, `torch.X(...)` a
 *    call_function of `torch.X` (an `torch.ops.aten.*` target must be an
 *    overload torch 2.6 has: graft_aten_schema_lookup), `_operator_X(...)`
 *    `operator.X`, a builtin by its name `builtins.NAME`, and the
 *    operator forms (`a * b`, `-a`, `a[i]`, `a == b` ...) the operator of
 *    torch.fx's `magic_methods` (`/` is `operator.truediv`).  Arguments are
 *    Python reprs (graft-value-reader.c, repr style: `1e-05`, `inf`,
 *    `-inf`, `nan`, `'tanh'`, `torch.float32`, `device(type='cpu')`,
 *    `slice(...)`, nested lists and tuples, bare names for nodes), and
 *    `key = value` keywords.  The `;  a = b = None` that frees values is
 *    checked for form and otherwise ignored: it follows from the graph.
 *  - The annotation in quotes is the node's metadata (graft-meta.h):
 *    `"f32[2, 4]"` a TENSOR of dtype `f32` and shape `[2, 4]` (a stride
 *    `[4, 1]` and a device may follow, as `include_stride` and
 *    `include_device` print them), `"Sym(s0)"` a SYMBOL; no annotation
 *    leaves the kind UNKNOWN.
 *  - A source comment gives each node of its group a stack trace that
 *    graft_stack_trace_summarize() turns back into the same text:
 *    `# File: F:L in N, code: C` is `  File "F", line L, in N\n    C\n`; a
 *    bare `# ` is "\n" (a trace without a frame: torch prints an empty
 *    summary for it); `# No stacktrace found for following nodes` and
 *    nodes before any comment have none.  torch starts a new group
 *    whenever the trace differs from the previous group's, comparing the
 *    whole strings, so when two adjacent groups print the same summary
 *    the second one's trace gets one more "\n" at its end (which no
 *    summary shows): they stay two groups when printed again.
 *  - The class name is the graph's module name.  The graph is a program
 *    (graft_graph_ensure_program).  Only `print(ep)` text has the graph
 *    signature and the range constraints; for print_readable text the
 *    signature stays empty: which placeholders are parameters or buffers
 *    could only be guessed from their `p_`/`b_`/`c_` prefixes, and Graft
 *    does not guess.
 *
 * Nested classes (the submodule graphs torch.cond and torch.map make) are
 * refused with a located error, as are lines torch does not print.  Names
 * may be used before the line that defines them (a rewrite can produce
 * such graphs); every name must be defined once.  The text is read in one
 * pass over its lines, then the nodes are made and linked, all in linear
 * time; nesting is bounded by GRAFT_MAX_PARSE_DEPTH.
 */
#include "config.h"

#include "graft-program.h"
#include "graft-program-text-private.h"
#include "graft-arg.h"
#include "graft-aten-schema.h"
#include "graft-error.h"
#include "graft-graph.h"
#include "graft-graph-private.h"
#include "graft-limits.h"
#include "graft-meta.h"
#include "graft-namespace.h"
#include "graft-source.h"
#include "graft-value-reader-private.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* Records                                                             */
/* ------------------------------------------------------------------ */

/* A value as the metadata keeps it, read from an annotation. */
typedef struct
{
  /* Owned, nullable */
  char *dtype;
  char *shape;
  char *stride;
  char *device;
  char *symbol;

  GraftValueKind kind;
} Annotation;

/* One node, read but not yet made: node references in its arguments are
 * still names (see Ref). */
typedef struct
{
  /* Owned */
  char      *name;
  char      *target;
  GraftArg   args;   /* a tuple; references unresolved */
  GraftArg   kwargs; /* a dict */
  Annotation ann;

  guint32 line_start; /* the defining line (for a placeholder, its parameter) */
  guint32 line_end;
  gint    trace; /* index into Reader.traces, or -1 */
  GraftOp op;
} Record;

/* A node reference met in an argument: until the nodes exist, the
 * argument is a GRAFT_ARG_NODE with a NULL node whose `n` indexes its Ref. */
typedef struct
{
  guint32 start;
  guint32 end;
  guint   record; /* once resolved */
} Ref;

/* One entry of the graph signature, with its own strings. */
typedef struct
{
  /* Owned, nullable */
  char *name;
  char *target;
  char *argument;
  char *value;

  int     kind;
  int     persistent;
  guint32 start; /* the entry in the text */
  guint32 end;
} Spec;

typedef struct
{
  gsize start; /* the first character */
  gsize end;   /* before the line break, trailing blanks cut */
} Line;

typedef struct
{
  /* Borrowed */
  GraftSource        *source;
  const char         *text;
  const GraftDialect *dialect; /* static */

  /* Owned */
  GArray          *lines;   /* Line */
  GArray          *records; /* Record */
  GArray          *refs;    /* Ref */
  GHashTable      *names;   /* name (owned) -> record index + 1 */
  GPtrArray       *traces;  /* char *, owned */
  GArray          *inputs;  /* Spec */
  GArray          *outputs; /* Spec */
  char            *module_name;
  char            *range_constraints;
  GraftValueReader values;

  gsize    length;
  gsize    pos; /* the cursor, within the current line */
  gsize    end; /* the end of the current line */
  guint    n_placeholders;
  gint     trace;           /* the group being read, or -1 */
  gboolean refs_allowed;    /* names in values are nodes (not in the signature) */
  gboolean in_placeholders; /* no node line yet: `name = param` renames */
  guint    output_record;   /* the `return` line's record */
  gboolean have_output;
} Reader;

static void
annotation_clear (Annotation *ann)
{
  g_clear_pointer (&ann->dtype, g_free);
  g_clear_pointer (&ann->shape, g_free);
  g_clear_pointer (&ann->stride, g_free);
  g_clear_pointer (&ann->device, g_free);
  g_clear_pointer (&ann->symbol, g_free);
  ann->kind = GRAFT_VALUE_UNKNOWN;
}

static void
record_clear (Record *rec)
{
  g_clear_pointer (&rec->name, g_free);
  g_clear_pointer (&rec->target, g_free);
  graft_arg_clear (&rec->args);
  graft_arg_clear (&rec->kwargs);
  annotation_clear (&rec->ann);
}

static void
spec_clear (gpointer data)
{
  Spec *spec = data;

  g_clear_pointer (&spec->name, g_free);
  g_clear_pointer (&spec->target, g_free);
  g_clear_pointer (&spec->argument, g_free);
  g_clear_pointer (&spec->value, g_free);
}

static void
reader_clear (Reader *r)
{
  if (r->records != NULL)
    {
      for (guint i = 0; i < r->records->len; i++)
        record_clear (&g_array_index (r->records, Record, i));
      g_array_unref (r->records);
    }
  g_clear_pointer (&r->lines, g_array_unref);
  g_clear_pointer (&r->refs, g_array_unref);
  g_clear_pointer (&r->names, g_hash_table_unref);
  g_clear_pointer (&r->traces, g_ptr_array_unref);
  g_clear_pointer (&r->inputs, g_array_unref);
  g_clear_pointer (&r->outputs, g_array_unref);
  g_clear_pointer (&r->module_name, g_free);
  g_clear_pointer (&r->range_constraints, g_free);
  _graft_value_reader_clear (&r->values);
}

/* ------------------------------------------------------------------ */
/* The cursor                                                          */
/* ------------------------------------------------------------------ */

static gboolean
is_ident_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static gboolean
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static gboolean
fail (Reader             *r,
      gsize               start,
      gsize               end,
      GraftParseErrorCode code,
      GError            **error,
      const char         *format,
      ...) G_GNUC_PRINTF (6, 7);

static gboolean
fail (Reader             *r,
      gsize               start,
      gsize               end,
      GraftParseErrorCode code,
      GError            **error,
      const char         *format,
      ...)
{
  va_list          ap;
  g_autofree char *message = NULL;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  graft_set_error_at_offset (error, r->source, start, end, code, "%s", message);
  return FALSE;
}

static gboolean
looking_at (Reader     *r,
            const char *s)
{
  gsize n = strlen (s);

  return r->end - r->pos >= n && memcmp (r->text + r->pos, s, n) == 0;
}

static gboolean
expect (Reader     *r,
        const char *s,
        GError    **error)
{
  if (looking_at (r, s))
    {
      r->pos += strlen (s);
      return TRUE;
    }
  return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "%sexpected '%s'",
               r->pos >= r->end ? "unexpected end of line; " : "", s);
}

/* The identifier at the cursor, or 0. */
static gsize
scan_ident (Reader *r)
{
  gsize i = r->pos;

  if (i >= r->end || !is_ident_start (r->text[i]))
    return 0;
  while (i < r->end && is_ident_char (r->text[i]))
    i++;
  return i - r->pos;
}

static gboolean
span_is (const char *s,
         gsize       len,
         const char *word)
{
  return strlen (word) == len && memcmp (s, word, len) == 0;
}

/* Sets the cursor to line @i. */
static void
enter_line (Reader *r,
            guint   i)
{
  Line *line = &g_array_index (r->lines, Line, i);

  r->pos = line->start;
  r->end = line->end;
}

/* The indentation of line @i (spaces only). */
static gsize
line_indent (Reader *r,
             guint   i)
{
  Line *line = &g_array_index (r->lines, Line, i);
  gsize p = line->start;

  while (p < line->end && r->text[p] == ' ')
    p++;
  return p - line->start;
}

static gboolean
line_is_blank (Reader *r,
               guint   i)
{
  Line *line = &g_array_index (r->lines, Line, i);

  return line_indent (r, i) == line->end - line->start;
}

/* The next non-blank line from @i, or lines->len. */
static guint
next_line (Reader *r,
           guint   i)
{
  while (i < r->lines->len && line_is_blank (r, i))
    i++;
  return i;
}

/* Splits the text into lines, trailing blanks cut. */
static void
split_lines (Reader *r)
{
  gsize pos = 0;

  r->lines = g_array_new (FALSE, FALSE, sizeof (Line));
  while (pos < r->length)
    {
      Line  line = { pos, pos };
      gsize i = pos;

      while (i < r->length && r->text[i] != '\n' && r->text[i] != '\r')
        i++;
      line.end = i;
      if (i < r->length && r->text[i] == '\r' && i + 1 < r->length && r->text[i + 1] == '\n')
        pos = i + 2;
      else
        pos = i + (i < r->length);
      while (line.end > line.start &&
             (r->text[line.end - 1] == ' ' || r->text[line.end - 1] == '\t'))
        line.end--;
      g_array_append_val (r->lines, line);
    }
}

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

static gboolean
add_ref (GraftValueReader *vr,
         gsize             start,
         gsize             name_start,
         gsize             end,
         GraftArg         *out)
{
  Reader *r = vr->user_data;
  Ref     ref = { (guint32) start, (guint32) end, 0 };

  (void) name_start;
  if (!r->refs_allowed)
    return _graft_value_fail (vr, start, end, GRAFT_PARSE_ERROR_SYNTAX,
                              "expected a value, not a name");
  if (end - start > GRAFT_MAX_NAME_LENGTH)
    return _graft_value_fail (vr, start, end, GRAFT_PARSE_ERROR_LIMIT, "the name is too long");
  graft_arg_init_node (out, NULL);
  out->n = r->refs->len;
  g_array_append_val (r->refs, ref);
  return TRUE;
}

/* A value at the cursor, in repr style. */
static gboolean
parse_value (Reader   *r,
             GraftArg *out,
             GError  **error)
{
  GraftValueReader *vr = &r->values;

  if (r->pos >= r->end)
    return fail (r, r->pos, r->pos, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "unexpected end of line; expected a value");
  vr->pos = r->pos;
  vr->end = r->end;
  vr->depth = 0;
  if (!_graft_value_read (vr, GRAFT_VALUE_REPR, out))
    {
      graft_set_error_at_offset (error, r->source, vr->fail_start, vr->fail_end, vr->fail_code,
                                 "%s", vr->message);
      return FALSE;
    }
  r->pos = vr->pos;
  return TRUE;
}

/* A quoted string (Python's repr) at the cursor, into a new C string. */
static gboolean
parse_string (Reader  *r,
              char   **out,
              GError **error)
{
  GraftArg value;
  gsize    start = r->pos;

  if (r->pos >= r->end || (r->text[r->pos] != '\'' && r->text[r->pos] != '"'))
    return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "expected a string");
  if (!parse_value (r, &value, error))
    return FALSE;
  if (value.kind != GRAFT_ARG_STR || strlen (value.s) != value.n)
    {
      graft_arg_clear (&value);
      return fail (r, start, r->pos, GRAFT_PARSE_ERROR_SYNTAX, error,
                   "expected a string without NUL characters");
    }
  *out = g_strndup (value.s, value.n);
  graft_arg_clear (&value);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Annotations                                                         */
/* ------------------------------------------------------------------ */

static const char *const dtype_abbrs[] = {
  "bf16",
  "f64",
  "f32",
  "f16",
  "f8e4m3fn",
  "f8e5m2",
  "f8e4m3fnuz",
  "f8e5m2fnuz",
  "c32",
  "c64",
  "c128",
  "i8",
  "i16",
  "i32",
  "i64",
  "b8",
  "u8",
  "u16",
  "u32",
  "u64",
  "b16",
};

/* The end of the bracketed text that starts at @p (on `[`), or NULL. */
static const char *
match_bracket (const char *p,
               const char *end)
{
  guint depth = 0;

  for (; p < end; p++)
    {
      if (*p == '[')
        depth++;
      else if (*p == ']' && --depth == 0)
        return p + 1;
    }
  return NULL;
}

/* The annotation [@start, @end) (inside the quotes): `f32[2, 4]`,
 * `f32[2, 4][4, 1]cpu`, `Sym(s0)`. */
static gboolean
parse_annotation (Reader     *r,
                  gsize       start,
                  gsize       end,
                  Annotation *ann,
                  GError    **error)
{
  const char *p = r->text + start, *e = r->text + end, *q, *close;
  gboolean    known = FALSE;

  if (memchr (p, '\0', end - start) != NULL)
    return fail (r, start, end, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "the annotation contains a NUL byte");
  if (e - p > 5 && memcmp (p, "Sym(", 4) == 0 && e[-1] == ')')
    {
      ann->kind = GRAFT_VALUE_SYMBOL;
      ann->symbol = g_strndup (p + 4, e - p - 5);
      return TRUE;
    }
  for (q = p; q < e && g_ascii_isalnum (*q); q++)
    ;
  for (guint i = 0; i < G_N_ELEMENTS (dtype_abbrs); i++)
    known = known || span_is (p, q - p, dtype_abbrs[i]);
  if (q == p || q >= e || *q != '[')
    return fail (r, start, end, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "expected an annotation such as \"f32[2, 4]\" or \"Sym(s0)\"");
  if (!known)
    return fail (r, start, start + (q - p), GRAFT_PARSE_ERROR_SYNTAX, error,
                 "unknown dtype '%.*s' in the annotation", (int) (q - p), p);
  close = match_bracket (q, e);
  if (close == NULL)
    return fail (r, start + (q - p), end, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "expected ']' at the end of the shape");
  ann->kind = GRAFT_VALUE_TENSOR;
  ann->dtype = g_strndup (p, q - p);
  ann->shape = g_strndup (q, close - q);
  if (close < e && *close == '[')
    {
      const char *stride_end = match_bracket (close, e);

      if (stride_end == NULL)
        return fail (r, start + (close - p), end, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "expected ']' at the end of the stride");
      ann->stride = g_strndup (close, stride_end - close);
      close = stride_end;
    }
  if (close < e)
    {
      for (q = close; q < e; q++)
        if (!g_ascii_isalnum (*q) && *q != ':' && *q != '_')
          return fail (r, start + (close - p), end, GRAFT_PARSE_ERROR_SYNTAX, error,
                       "unexpected text after the shape");
      ann->device = g_strndup (close, e - close);
    }
  return TRUE;
}

/* `: "ANNOTATION"` at the cursor, if there. */
static gboolean
parse_optional_annotation (Reader     *r,
                           Annotation *ann,
                           GError    **error)
{
  const char *quote;
  gsize       start;

  if (!looking_at (r, ": \""))
    {
      if (looking_at (r, " : ") || looking_at (r, ":"))
        return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "expected an annotation in quotes, such as \": \\\"f32[2, 4]\\\"\"");
      return TRUE;
    }
  r->pos += 3;
  start = r->pos;
  quote = memchr (r->text + start, '"', r->end - start);
  if (quote == NULL)
    return fail (r, start - 1, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "unterminated annotation");
  r->pos = quote - r->text + 1;
  return parse_annotation (r, start, quote - r->text, ann, error);
}

/* ------------------------------------------------------------------ */
/* Stack traces                                                        */
/* ------------------------------------------------------------------ */

/* Whether @trace summarizes to exactly [@s, @s + @len). */
static gboolean
summarizes_to (const char *trace,
               const char *s,
               gsize       len)
{
  g_autoptr (GString) summary = g_string_new (NULL);

  graft_stack_trace_summarize (trace, summary);
  return summary->len == len && memcmp (summary->str, s, len) == 0;
}

/* A stack trace whose summary is [@s, @s + @len) (`File: F:L in N, code:
 * C`), or NULL when none has it. */
static char *
trace_for_summary (const char *s,
                   gsize       len)
{
  const char *end = s + len, *file = s + strlen ("File: ");
  guint       tries = 0;

  if (len < strlen ("File: ") || memcmp (s, "File: ", 6) != 0)
    return NULL;
  /* The file runs to a `:LINE in `; the name to the first `, code: `.  A
   * file name rarely holds `:N in ` itself: a few tries keep a hostile
   * line linear. */
  for (const char *p = file; p < end && tries < 32; p++)
    {
      const char      *digits = p + 1, *q = digits, *name, *code;
      g_autofree char *trace = NULL;

      if (*p != ':' || p == file)
        continue;
      while (q < end && g_ascii_isdigit (*q))
        q++;
      if (q == digits || end - q < 4 || memcmp (q, " in ", 4) != 0)
        continue;
      tries++;
      name = q + 4;
      code = g_strstr_len (name, end - name, ", code: ");
      if (code == NULL || code == name)
        continue;
      trace = g_strdup_printf ("  File \"%.*s\", line %.*s, in %.*s\n    %.*s\n", (int) (p - file),
                               file, (int) (q - digits), digits, (int) (code - name), name,
                               (int) (end - code - 8), code + 8);
      if (end == code + 8)
        {
          /* No code: a line after the empty one keeps it from the strip. */
          g_free (trace);
          trace = g_strdup_printf ("  File \"%.*s\", line %.*s, in %.*s\n\n#\n", (int) (p - file),
                                   file, (int) (q - digits), digits, (int) (code - name), name);
        }
      if (summarizes_to (trace, s, len))
        return g_steal_pointer (&trace);
    }
  return NULL;
}

/* A source comment at the cursor (after the indentation, on `#`): starts a
 * group of nodes. */
static gboolean
parse_comment (Reader  *r,
               GError **error)
{
  static const char no_trace[] = "# No stacktrace found for following nodes";
  gsize             start = r->pos;
  const char       *summary;
  gsize             len;
  char             *trace;
  const char       *previous;

  if (r->end - r->pos == strlen (no_trace) && looking_at (r, no_trace))
    {
      r->trace = -1;
      return TRUE;
    }
  summary = r->text + r->pos + 1;
  len = r->end - r->pos - 1;
  if (len > 0 && *summary == ' ')
    {
      summary++;
      len--;
    }
  if (len == 0)
    trace = g_strdup ("\n");
  else
    {
      g_autofree char *padded = NULL;

      if (memchr (summary, '\0', len) != NULL)
        return fail (r, start, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "the comment contains a NUL byte");
      /* An empty code line leaves `code: ` with its blank cut. */
      if (len >= 7 && memcmp (summary + len - 7, ", code:", 7) == 0)
        {
          padded = g_strdup_printf ("%.*s ", (int) len, summary);
          summary = padded;
          len++;
        }
      trace = trace_for_summary (summary, len);
      if (trace == NULL)
        return fail (r, start, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "expected a source comment ('# File: FILE:LINE in NAME, code: CODE', '# ' "
                     "or '%s')",
                     no_trace);
    }
  /* Two adjacent groups are two only if their traces differ. */
  previous = r->trace >= 0 ? r->traces->pdata[r->trace] : NULL;
  if (previous != NULL && strcmp (previous, trace) == 0)
    {
      char *longer = g_strconcat (trace, "\n", NULL);

      g_free (trace);
      trace = longer;
    }
  g_ptr_array_add (r->traces, trace);
  r->trace = (gint) r->traces->len - 1;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Node lines                                                          */
/* ------------------------------------------------------------------ */

static const struct
{
  const char *token;
  const char *target;
} binary_operators[] = {
  /* Longer tokens first: `//` before `/`, `**` before `*`. */
  { "//", "operator.floordiv" },
  { "**", "operator.pow" },
  { "<<", "operator.lshift" },
  { ">>", "operator.rshift" },
  { "==", "operator.eq" },
  { "!=", "operator.ne" },
  { "<=", "operator.le" },
  { ">=", "operator.ge" },
  { "+", "operator.add" },
  { "-", "operator.sub" },
  { "*", "operator.mul" },
  { "/", "operator.truediv" },
  { "%", "operator.mod" },
  { "&", "operator.and_" },
  { "|", "operator.or_" },
  { "^", "operator.xor" },
  { "@", "operator.matmul" },
  { "<", "operator.lt" },
  { ">", "operator.gt" },
};

/* The rest of the line after a node's value: nothing, or the values it
 * frees, `;  a = b = None`. */
static gboolean
parse_line_end (Reader  *r,
                GError **error)
{
  if (r->pos >= r->end)
    return TRUE;
  if (!looking_at (r, ";  "))
    return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "unexpected text at the end of the line");
  r->pos += 3;
  for (;;)
    {
      gsize n = scan_ident (r);

      if (n == 0)
        return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "expected the names of the values freed here ('a = b = None')");
      if (span_is (r->text + r->pos, n, "None") && r->pos + n == r->end)
        return TRUE;
      r->pos += n;
      if (!expect (r, " = ", error))
        return FALSE;
    }
}

/* `(args, key = value)` after a call's name, the cursor on `(`. */
static gboolean
parse_call_args (Reader  *r,
                 Record  *rec,
                 guint    n_leading,
                 GError **error)
{
  g_autoptr (GArray) items = g_array_new (FALSE, FALSE, sizeof (GraftArg));
  g_autoptr (GArray) kw = g_array_new (FALSE, FALSE, sizeof (GraftArg));
  gboolean ok = TRUE;

  g_array_set_clear_func (items, (GDestroyNotify) graft_arg_clear);
  g_array_set_clear_func (kw, (GDestroyNotify) graft_arg_clear);
  /* A call_method's object is its first argument. */
  for (guint i = 0; i < n_leading; i++)
    {
      g_array_append_val (items, rec->args.items[i]);
      graft_arg_init_none (&rec->args.items[i]);
    }
  r->pos++;
  while (ok && !looking_at (r, ")"))
    {
      gsize    n, item_start;
      GraftArg value;

      if (items->len + kw->len > n_leading && !expect (r, ", ", error))
        {
          ok = FALSE;
          break;
        }
      item_start = r->pos;
      n = scan_ident (r);
      if (n > 0 && r->end - (r->pos + n) >= 3 && memcmp (r->text + r->pos + n, " = ", 3) == 0)
        {
          GraftArg key;

          graft_arg_init_str (&key, r->text + r->pos, n);
          g_array_append_val (kw, key);
          r->pos += n + 3;
          ok = parse_value (r, &value, error);
          if (ok)
            g_array_append_val (kw, value);
          else
            g_array_set_size (kw, kw->len - 1);
          continue;
        }
      if (kw->len > 0)
        {
          ok = fail (r, item_start, item_start + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "a positional argument after a keyword argument");
          break;
        }
      ok = parse_value (r, &value, error);
      if (ok)
        g_array_append_val (items, value);
    }
  if (!ok)
    return FALSE;
  r->pos++;
  graft_arg_clear (&rec->args);
  graft_arg_init_seq (&rec->args, GRAFT_ARG_TUPLE, items->len);
  if (items->len > 0)
    memcpy (rec->args.items, items->data, items->len * sizeof (GraftArg));
  g_array_set_clear_func (items, NULL);
  graft_arg_clear (&rec->kwargs);
  graft_arg_init_dict (&rec->kwargs, kw->len / 2);
  if (kw->len > 0)
    memcpy (rec->kwargs.items, kw->data, kw->len * sizeof (GraftArg));
  g_array_set_clear_func (kw, NULL);
  return TRUE;
}

/* A call's target from its name in code [@start, @end) (`torch.ops.aten.add.Tensor`,
 * `_operator_abs`, `getattr`), or FALSE with @error set. */
static gboolean
call_target (Reader  *r,
             gsize    start,
             gsize    end,
             char   **out_target,
             GError **error)
{
  const char      *s = r->text + start;
  gsize            len = end - start;
  g_autofree char *name = g_strndup (s, len);

  if (g_str_has_prefix (name, "torch."))
    {
      if (g_str_has_prefix (name, "torch.ops.aten.") && graft_aten_schema_lookup (name) == NULL)
        return fail (r, start, end, GRAFT_PARSE_ERROR_GRAPH, error,
                     "unknown operator '%s': torch %s has no such aten overload", name,
                     r->dialect->version);
      *out_target = g_steal_pointer (&name);
      return TRUE;
    }
  if (strchr (name, '.') != NULL)
    return fail (r, start, end, GRAFT_PARSE_ERROR_GRAPH, error,
                 "unknown function '%s' (a call is of torch.*, an operator, a builtin, "
                 "'self.MODULE' or 'NODE.METHOD')",
                 name);
  if (g_str_has_prefix (name, "_operator_") && len > strlen ("_operator_"))
    {
      *out_target = g_strconcat ("operator.", name + strlen ("_operator_"), NULL);
      return TRUE;
    }
  if (graft_is_python_builtin (name))
    {
      *out_target = g_strconcat ("builtins.", name, NULL);
      return TRUE;
    }
  return fail (r, start, end, GRAFT_PARSE_ERROR_GRAPH, error,
               "unknown function '%s' (a call is of torch.*, an operator, a builtin, "
               "'self.MODULE' or 'NODE.METHOD')",
               name);
}

/* A whole value that ends the node's expression: the rest of the line may
 * only free values.  On failure @out holds nothing. */
static gboolean
parse_last_value (Reader   *r,
                  GraftArg *out,
                  GError  **error)
{
  if (!parse_value (r, out, error))
    return FALSE;
  if (!parse_line_end (r, error))
    {
      graft_arg_clear (out);
      return FALSE;
    }
  return TRUE;
}

/* Sets @rec's args to @n values taken from @values. */
static void
set_args (Record   *rec,
          GraftArg *values,
          guint     n)
{
  graft_arg_clear (&rec->args);
  graft_arg_init_seq (&rec->args, GRAFT_ARG_TUPLE, n);
  for (guint i = 0; i < n; i++)
    rec->args.items[i] = values[i];
}

/* An operator form, the cursor at the start of the expression. */
static gboolean
parse_operator_form (Reader  *r,
                     Record  *rec,
                     GError **error)
{
  GraftArg values[2];
  gsize    start = r->pos;
  char     c = r->text[r->pos];

  /* `-a`, `+a`, `~a`, whose operand fills the line. */
  if (c == '-' || c == '+' || c == '~')
    {
      gsize    saved_refs = r->refs->len;
      GError  *local = NULL;
      gboolean whole;

      r->pos++;
      whole = parse_value (r, &values[0], &local) &&
              (r->pos >= r->end || looking_at (r, ";  "));
      if (whole)
        {
          g_clear_error (&local);
          if (!parse_line_end (r, error))
            {
              graft_arg_clear (&values[0]);
              return FALSE;
            }
          rec->target = g_strdup (c == '-'   ? "operator.neg"
                                  : c == '+' ? "operator.pos"
                                             : "operator.invert");
          set_args (rec, values, 1);
          return TRUE;
        }
      if (local == NULL)
        graft_arg_clear (&values[0]);
      g_clear_error (&local);
      g_array_set_size (r->refs, saved_refs);
      r->pos = start;
    }

  if (!parse_value (r, &values[0], error))
    return FALSE;
  if (looking_at (r, "["))
    {
      r->pos++;
      if (!parse_value (r, &values[1], error))
        {
          graft_arg_clear (&values[0]);
          return FALSE;
        }
      if (!expect (r, "]", error) || !parse_line_end (r, error))
        {
          graft_arg_clear (&values[0]);
          graft_arg_clear (&values[1]);
          return FALSE;
        }
      rec->target = g_strdup ("operator.getitem");
      set_args (rec, values, 2);
      return TRUE;
    }
  if (r->pos >= r->end || looking_at (r, ";  "))
    {
      graft_arg_clear (&values[0]);
      return fail (r, start, r->pos, GRAFT_PARSE_ERROR_SYNTAX, error,
                   "expected a call or an operator, not a value alone");
    }
  if (looking_at (r, " "))
    for (guint i = 0; i < G_N_ELEMENTS (binary_operators); i++)
      {
        gsize n = strlen (binary_operators[i].token);

        if (r->end - r->pos >= n + 2 &&
            memcmp (r->text + r->pos + 1, binary_operators[i].token, n) == 0 &&
            r->text[r->pos + 1 + n] == ' ')
          {
            r->pos += n + 2;
            if (!parse_last_value (r, &values[1], error))
              {
                graft_arg_clear (&values[0]);
                return FALSE;
              }
            rec->target = g_strdup (binary_operators[i].target);
            set_args (rec, values, 2);
            return TRUE;
          }
      }
  graft_arg_clear (&values[0]);
  return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
               "expected an operator ('a + b', 'a[i]' ...) or the end of the line");
}

/* The expression of a node line, the cursor after ` = `. */
static gboolean
parse_expression (Reader  *r,
                  Record  *rec,
                  GError **error)
{
  gsize start = r->pos, i = r->pos, last_dot = 0;
  guint n_parts = 0;

  /* A dotted name: a call, a module, an attribute. */
  while (i < r->end && is_ident_start (r->text[i]))
    {
      n_parts++;
      while (i < r->end && is_ident_char (r->text[i]))
        i++;
      if (i + 1 < r->end && r->text[i] == '.' && is_ident_start (r->text[i + 1]))
        {
          last_dot = i;
          i++;
        }
      else
        break;
    }
  if (n_parts == 0)
    return parse_operator_form (r, rec, error);

  if (span_is (r->text + start, MIN (i - start, 5), "self.") ||
      (i - start == 4 && memcmp (r->text + start, "self", 4) == 0))
    {
      if (n_parts < 2)
        return fail (r, start, i, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "expected 'self.NAME' (a module or an attribute)");
      rec->target = g_strndup (r->text + start + 5, i - start - 5);
      r->pos = i;
      if (looking_at (r, "("))
        {
          rec->op = GRAFT_OP_CALL_MODULE;
          return parse_call_args (r, rec, 0, error) && parse_line_end (r, error);
        }
      rec->op = GRAFT_OP_GET_ATTR;
      return parse_line_end (r, error);
    }

  if (i < r->end && r->text[i] == '(')
    {
      gboolean is_torch = i - start > 6 && memcmp (r->text + start, "torch.", 6) == 0;

      if (n_parts == 2 && !is_torch)
        {
          /* `x.view(...)`: a call_method of a node. */
          Ref ref = { (guint32) start, (guint32) last_dot, 0 };

          graft_arg_clear (&rec->args);
          graft_arg_init_seq (&rec->args, GRAFT_ARG_TUPLE, 1);
          graft_arg_init_node (&rec->args.items[0], NULL);
          rec->args.items[0].n = r->refs->len;
          g_array_append_val (r->refs, ref);
          rec->op = GRAFT_OP_CALL_METHOD;
          rec->target = g_strndup (r->text + last_dot + 1, i - last_dot - 1);
          r->pos = i;
          return parse_call_args (r, rec, 1, error) && parse_line_end (r, error);
        }
      if (!call_target (r, start, i, &rec->target, error))
        return FALSE;
      rec->op = GRAFT_OP_CALL_FUNCTION;
      r->pos = i;
      return parse_call_args (r, rec, 0, error) && parse_line_end (r, error);
    }

  if (n_parts == 2 && !(i - start > 6 && memcmp (r->text + start, "torch.", 6) == 0))
    {
      /* `x.attr`: torch.fx's form of `getattr(x, 'attr')`. */
      Ref ref = { (guint32) start, (guint32) last_dot, 0 };

      graft_arg_clear (&rec->args);
      graft_arg_init_seq (&rec->args, GRAFT_ARG_TUPLE, 2);
      graft_arg_init_node (&rec->args.items[0], NULL);
      rec->args.items[0].n = r->refs->len;
      g_array_append_val (r->refs, ref);
      graft_arg_init_str (&rec->args.items[1], r->text + last_dot + 1, i - last_dot - 1);
      rec->target = g_strdup ("builtins.getattr");
      r->pos = i;
      return parse_line_end (r, error);
    }
  return parse_operator_form (r, rec, error);
}

/* Registers @name for record @index, or fails if it is taken. */
static gboolean
define_name (Reader  *r,
             gsize    start,
             gsize    len,
             guint    index,
             GError **error)
{
  g_autofree char *name = g_strndup (r->text + start, len);
  gpointer         previous = g_hash_table_lookup (r->names, name);

  if (len > GRAFT_MAX_NAME_LENGTH)
    return fail (r, start, start + len, GRAFT_PARSE_ERROR_LIMIT, error, "the name is too long");
  if (graft_is_python_keyword (name) || strcmp (name, "inf") == 0 || strcmp (name, "nan") == 0)
    return fail (r, start, start + len, GRAFT_PARSE_ERROR_GRAPH, error,
                 "'%s' is reserved in Python and cannot name a node", name);
  if (previous != NULL)
    {
      Record *first = &g_array_index (r->records, Record, GPOINTER_TO_UINT (previous) - 1);
      guint   line;

      graft_source_locate (r->source, first->line_start, &line, NULL);
      return fail (r, start, start + len, GRAFT_PARSE_ERROR_GRAPH, error,
                   "'%s' is already defined on line %u", name, line);
    }
  g_hash_table_insert (r->names, g_steal_pointer (&name), GUINT_TO_POINTER (index + 1));
  return TRUE;
}

/* `name = param` before the nodes: the placeholder for param is named name. */
static gboolean
try_rename (Reader   *r,
            gsize     name_start,
            gsize     name_len,
            gboolean *out_done,
            GError  **error)
{
  gsize            n = scan_ident (r);
  g_autofree char *param = NULL;
  gpointer         index;
  Record          *rec;

  *out_done = FALSE;
  if (!r->in_placeholders || n == 0 || r->pos + n != r->end)
    return TRUE;
  param = g_strndup (r->text + r->pos, n);
  index = g_hash_table_lookup (r->names, param);
  if (index == NULL || GPOINTER_TO_UINT (index) - 1 >= r->n_placeholders)
    return TRUE;
  rec = &g_array_index (r->records, Record, GPOINTER_TO_UINT (index) - 1);
  /* Only a placeholder still named after its parameter (`*args`: `args`). */
  {
    const char *raw = rec->target;

    while (*raw == '*')
      raw++;
    if (strcmp (rec->name, raw) != 0)
      return TRUE;
  }
  g_hash_table_remove (r->names, param);
  if (!define_name (r, name_start, name_len, GPOINTER_TO_UINT (index) - 1, error))
    return FALSE;
  g_free (rec->name);
  rec->name = g_strndup (r->text + name_start, name_len);
  *out_done = TRUE;
  return TRUE;
}

/* One body line of forward (after the indentation): a node or `return`. */
static gboolean
parse_body_line (Reader  *r,
                 guint    line_index,
                 GError **error)
{
  Line    *line = &g_array_index (r->lines, Line, line_index);
  Record   rec = { 0 };
  gsize    name_start = r->pos, name_len;
  gboolean ok;

  graft_arg_init_seq (&rec.args, GRAFT_ARG_TUPLE, 0);
  graft_arg_init_dict (&rec.kwargs, 0);
  rec.line_start = (guint32) line->start;
  rec.line_end = (guint32) line->end;
  rec.trace = -1;

  if (looking_at (r, "return") && (r->pos + 6 == r->end || r->text[r->pos + 6] == ' '))
    {
      GraftArg value;

      r->pos += 6;
      while (r->pos < r->end && r->text[r->pos] == ' ')
        r->pos++;
      if (!parse_value (r, &value, error))
        {
          record_clear (&rec);
          return FALSE;
        }
      if (r->pos < r->end)
        {
          graft_arg_clear (&value);
          record_clear (&rec);
          return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                       "unexpected text after the returned value");
        }
      set_args (&rec, &value, 1);
      rec.op = GRAFT_OP_OUTPUT;
      rec.target = g_strdup ("output");
      rec.name = g_strdup ("output");
      r->output_record = r->records->len;
      r->have_output = TRUE;
      g_array_append_val (r->records, rec);
      return TRUE;
    }

  name_len = scan_ident (r);
  if (name_len == 0)
    {
      record_clear (&rec);
      return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                   "expected a node ('name: \"f32[2, 4]\" = ...'), a source comment or 'return'");
    }
  r->pos += name_len;
  ok = parse_optional_annotation (r, &rec.ann, error);
  if (ok && (looking_at (r, ";") || looking_at (r, ", = fx_pytree.")))
    ok = fail (r, line->start + line_indent (r, line_index), line->end,
               GRAFT_PARSE_ERROR_UNSUPPORTED, error,
               "a forward that flattens its inputs with pytree (the module of ep.module()) is "
               "not supported: print ep.graph_module instead");
  ok = ok && expect (r, " = ", error);
  if (ok && rec.ann.kind == GRAFT_VALUE_UNKNOWN)
    {
      gboolean renamed;

      ok = try_rename (r, name_start, name_len, &renamed, error);
      if (ok && renamed)
        {
          record_clear (&rec);
          return TRUE;
        }
    }
  if (ok && r->records->len >= GRAFT_MAX_NODES)
    ok = fail (r, line->start, line->end, GRAFT_PARSE_ERROR_LIMIT, error,
               "the graph has more than %u nodes", GRAFT_MAX_NODES);
  if (ok)
    {
      rec.op = GRAFT_OP_CALL_FUNCTION;
      ok = parse_expression (r, &rec, error);
    }
  if (ok)
    ok = define_name (r, name_start, name_len, r->records->len, error);
  if (!ok)
    {
      record_clear (&rec);
      return FALSE;
    }
  rec.name = g_strndup (r->text + name_start, name_len);
  rec.trace = r->trace;
  r->in_placeholders = FALSE;
  g_array_append_val (r->records, rec);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The class and forward                                               */
/* ------------------------------------------------------------------ */

/* `class NAME(torch.nn.Module):` on line @i, at @indent. */
static gboolean
parse_class_line (Reader  *r,
                  guint    i,
                  gsize    indent,
                  GError **error)
{
  gsize n;

  enter_line (r, i);
  if (line_indent (r, i) != indent)
    return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "expected 'class GraphModule(torch.nn.Module):' indented by %" G_GSIZE_FORMAT,
                 indent);
  r->pos += indent;
  if (!expect (r, "class ", error))
    return FALSE;
  n = scan_ident (r);
  if (n == 0)
    return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "expected the class name");
  r->module_name = g_strndup (r->text + r->pos, n);
  r->pos += n;
  if (!expect (r, "(torch.nn.Module):", error))
    return FALSE;
  if (r->pos < r->end)
    return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "unexpected text after the class line");
  return TRUE;
}

/* One parameter of forward, the cursor on it. */
static gboolean
parse_parameter (Reader  *r,
                 GError **error)
{
  Record rec = { 0 };
  gsize  start = r->pos, stars = 0, n;

  graft_arg_init_seq (&rec.args, GRAFT_ARG_TUPLE, 0);
  graft_arg_init_dict (&rec.kwargs, 0);
  rec.op = GRAFT_OP_PLACEHOLDER;
  rec.trace = -1;
  while (stars < 2 && looking_at (r, "*"))
    {
      r->pos++;
      stars++;
    }
  n = scan_ident (r);
  if (n == 0)
    {
      record_clear (&rec);
      return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                   "expected a parameter name");
    }
  rec.name = g_strndup (r->text + r->pos, n);
  rec.target = g_strndup (r->text + start, r->pos + n - start);
  r->pos += n;
  if (!parse_optional_annotation (r, &rec.ann, error))
    {
      record_clear (&rec);
      return FALSE;
    }
  if (looking_at (r, " = "))
    {
      GraftArg value;
      guint    n_refs = r->refs->len;

      r->pos += 3;
      if (!parse_value (r, &value, error))
        {
          record_clear (&rec);
          return FALSE;
        }
      if (graft_arg_has_node (&value))
        {
          graft_arg_clear (&value);
          g_array_set_size (r->refs, n_refs);
          record_clear (&rec);
          return fail (r, start, r->pos, GRAFT_PARSE_ERROR_GRAPH, error,
                       "a parameter's default cannot name a node");
        }
      set_args (&rec, &value, 1);
    }
  rec.line_start = (guint32) start;
  rec.line_end = (guint32) r->pos;
  if (!define_name (r, start + stars, n, r->records->len, error))
    {
      record_clear (&rec);
      return FALSE;
    }
  g_array_append_val (r->records, rec);
  r->n_placeholders++;
  return TRUE;
}

/* `def forward(self, PARAMS):` on line @i, at @indent. */
static gboolean
parse_def_line (Reader  *r,
                guint    i,
                gsize    indent,
                GError **error)
{
  enter_line (r, i);
  if (line_indent (r, i) != indent)
    return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "expected 'def forward(self, ...):' indented by %" G_GSIZE_FORMAT, indent);
  r->pos += indent;
  if (looking_at (r, "class "))
    return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_UNSUPPORTED, error,
                 "nested classes (submodule graphs, as torch.cond makes) are not supported");
  if (!expect (r, "def forward(self", error))
    return FALSE;
  while (looking_at (r, ", "))
    {
      r->pos += 2;
      if (!parse_parameter (r, error))
        return FALSE;
    }
  if (!expect (r, "):", error))
    return FALSE;
  if (r->pos < r->end)
    return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "unexpected text after the parameters");
  return TRUE;
}

/* The class, from line @i at @indent; sets *out_next to the line after it. */
static gboolean
parse_class (Reader  *r,
             guint    i,
             gsize    indent,
             guint   *out_next,
             GError **error)
{
  gsize def_indent;

  if (!parse_class_line (r, i, indent, error))
    return FALSE;
  i = next_line (r, i + 1);
  if (i >= r->lines->len)
    return fail (r, r->length, r->length, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "expected 'def forward(self, ...):' but the input ends");
  def_indent = line_indent (r, i);
  if (def_indent <= indent)
    {
      enter_line (r, i);
      return fail (r, r->pos + def_indent, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                   "expected 'def forward(self, ...):' inside the class");
    }
  if (!parse_def_line (r, i, def_indent, error))
    return FALSE;

  r->in_placeholders = TRUE;
  for (i = next_line (r, i + 1); i < r->lines->len; i = next_line (r, i + 1))
    {
      gsize at = line_indent (r, i);

      enter_line (r, i);
      if (at <= def_indent)
        break;
      r->pos += at;
      if (r->have_output)
        return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "the 'return' line must be the last line of forward");
      if (r->text[r->pos] == '#')
        {
          if (!parse_comment (r, error))
            return FALSE;
          continue;
        }
      if (!parse_body_line (r, i, error))
        return FALSE;
    }
  if (!r->have_output)
    return fail (r, i < r->lines->len ? g_array_index (r->lines, Line, i).start : r->length,
                 i < r->lines->len ? g_array_index (r->lines, Line, i).end : r->length,
                 GRAFT_PARSE_ERROR_GRAPH, error, "forward has no 'return' line");
  /* What print_readable prints after forward: the child graph modules. */
  if (i < r->lines->len && line_indent (r, i) == def_indent)
    {
      enter_line (r, i);
      r->pos += def_indent;
      if (looking_at (r, "class "))
        {
          gsize n;

          r->pos += 6;
          n = scan_ident (r);
          return fail (r, r->pos - 6, r->end, GRAFT_PARSE_ERROR_UNSUPPORTED, error,
                       "nested class '%.*s': submodule graphs (as torch.cond makes) are not "
                       "supported",
                       (int) n, r->text + r->pos);
        }
      return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                   "unexpected text after forward");
    }
  *out_next = i;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The graph signature                                                 */
/* ------------------------------------------------------------------ */

/* `<InputKind.NAME: N>`: the kind whose torch value is N. */
static gboolean
parse_kind (Reader  *r,
            gboolean is_input,
            int     *out_kind,
            GError **error)
{
  const char *prefix = is_input ? "<InputKind." : "<OutputKind.";
  gsize       n, digits;
  gboolean    known;
  guint64     number;

  if (!expect (r, prefix, error))
    return FALSE;
  n = 0;
  while (r->pos + n < r->end &&
         (g_ascii_isupper (r->text[r->pos + n]) || r->text[r->pos + n] == '_'))
    n++;
  {
    g_autofree char *name = g_strndup (r->text + r->pos, n);

    if (is_input)
      {
        GraftInputSpecKind kind;

        known = graft_input_spec_kind_from_string (name, &kind);
        *out_kind = (int) kind;
      }
    else
      {
        GraftOutputSpecKind kind;

        known = graft_output_spec_kind_from_string (name, &kind);
        *out_kind = (int) kind;
      }
    if (!known)
      return fail (r, r->pos, r->pos + n + (n == 0), GRAFT_PARSE_ERROR_SYNTAX, error,
                   "unknown %s '%s'", is_input ? "InputKind" : "OutputKind", name);
  }
  r->pos += n;
  if (!expect (r, ": ", error))
    return FALSE;
  digits = r->pos;
  while (r->pos < r->end && g_ascii_isdigit (r->text[r->pos]) && r->pos - digits < 4)
    r->pos++;
  number = g_ascii_strtoull (r->text + digits, NULL, 10);
  if (r->pos == digits || number != (guint64) *out_kind + 1)
    return fail (r, digits, r->pos + (r->pos == digits), GRAFT_PARSE_ERROR_SYNTAX, error,
                 "the kind's number must be %d", *out_kind + 1);
  return expect (r, ">", error);
}

/* `None` or a string, for a spec's target. */
static gboolean
parse_optional_string (Reader  *r,
                       char   **out,
                       GError **error)
{
  if (looking_at (r, "None"))
    {
      r->pos += 4;
      *out = NULL;
      return TRUE;
    }
  return parse_string (r, out, error);
}

/* `TensorArgument(name='x')` and the other argument classes. */
static gboolean
parse_argument (Reader  *r,
                Spec    *spec,
                GError **error)
{
  static const char *const classes[] = {
    "TensorArgument",
    "SymIntArgument",
    "SymFloatArgument",
    "SymBoolArgument",
    "TokenArgument",
    "ConstantArgument",
    "CustomObjArgument",
  };
  gsize n = scan_ident (r);
  gint  which = -1;

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    if (span_is (r->text + r->pos, n, classes[i]))
      which = (gint) i;
  if (which < 0)
    return fail (r, r->pos, r->pos + n + (n == 0), GRAFT_PARSE_ERROR_SYNTAX, error,
                 "unknown argument class '%.*s'", (int) n, r->text + r->pos);
  if (which > 0)
    spec->argument = g_strdup (classes[which]);
  r->pos += n;
  if (!expect (r, "(name=", error) || !parse_string (r, &spec->name, error))
    return FALSE;
  if (strcmp (classes[which], "ConstantArgument") == 0)
    {
      GraftArg value;
      gsize    start;

      if (!expect (r, ", value=", error))
        return FALSE;
      start = r->pos;
      if (!parse_value (r, &value, error))
        return FALSE;
      graft_arg_clear (&value);
      spec->value = g_strndup (r->text + start, r->pos - start);
    }
  else if (strcmp (classes[which], "CustomObjArgument") == 0)
    {
      const char *close;

      if (!expect (r, ", class_fqn=", error) || !parse_string (r, &spec->value, error) ||
          !expect (r, ", fake_val=", error))
        return FALSE;
      /* None, or an object's repr `<... object at 0x...>`. */
      if (looking_at (r, "None"))
        r->pos += 4;
      else if (looking_at (r, "<") &&
               (close = memchr (r->text + r->pos, '>', r->end - r->pos)) != NULL)
        r->pos = close - r->text + 1;
      else
        return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "expected the fake value ('None' or '<...>')");
    }
  return expect (r, ")", error);
}

/* One `InputSpec(...)` or `OutputSpec(...)`. */
static gboolean
parse_spec (Reader  *r,
            gboolean is_input,
            GError **error)
{
  Spec spec = { 0 };

  spec.start = (guint32) r->pos;
  spec.persistent = -1;
  if (!expect (r, is_input ? "InputSpec(kind=" : "OutputSpec(kind=", error) ||
      !parse_kind (r, is_input, &spec.kind, error) || !expect (r, ", arg=", error) ||
      !parse_argument (r, &spec, error) || !expect (r, ", target=", error) ||
      !parse_optional_string (r, &spec.target, error))
    {
      spec_clear (&spec);
      return FALSE;
    }
  if (is_input)
    {
      if (!expect (r, ", persistent=", error))
        {
          spec_clear (&spec);
          return FALSE;
        }
      if (looking_at (r, "None"))
        r->pos += 4;
      else if (looking_at (r, "True"))
        {
          spec.persistent = 1;
          r->pos += 4;
        }
      else if (looking_at (r, "False"))
        {
          spec.persistent = 0;
          r->pos += 5;
        }
      else
        {
          spec_clear (&spec);
          return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                       "expected None, True or False");
        }
    }
  if (!expect (r, ")", error))
    {
      spec_clear (&spec);
      return FALSE;
    }
  spec.end = (guint32) r->pos;
  g_array_append_val (is_input ? r->inputs : r->outputs, spec);
  return TRUE;
}

/* `[spec, spec]` */
static gboolean
parse_spec_list (Reader  *r,
                 gboolean is_input,
                 GError **error)
{
  if (!expect (r, "[", error))
    return FALSE;
  while (!looking_at (r, "]"))
    {
      if ((is_input ? r->inputs : r->outputs)->len > 0 && !expect (r, ", ", error))
        return FALSE;
      if (!parse_spec (r, is_input, error))
        return FALSE;
    }
  r->pos++;
  return TRUE;
}

/* The `Graph signature: ` and `Range constraints: ` lines from line @i. */
static gboolean
parse_signature (Reader  *r,
                 guint    i,
                 GError **error)
{
  i = next_line (r, i);
  if (i >= r->lines->len)
    return fail (r, r->length, r->length, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "expected 'Graph signature: ExportGraphSignature(...)' but the input ends");
  enter_line (r, i);
  r->refs_allowed = FALSE;
  if (!looking_at (r, "Graph signature: "))
    return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "expected 'Graph signature: ExportGraphSignature(...)'");
  r->pos += strlen ("Graph signature: ");
  if (!expect (r, "ExportGraphSignature(input_specs=", error) ||
      !parse_spec_list (r, TRUE, error) || !expect (r, ", output_specs=", error) ||
      !parse_spec_list (r, FALSE, error) || !expect (r, ")", error))
    return FALSE;
  if (r->pos < r->end)
    return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "unexpected text after the graph signature");
  i = next_line (r, i + 1);
  if (i >= r->lines->len)
    return fail (r, r->length, r->length, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "expected 'Range constraints: {...}' but the input ends");
  enter_line (r, i);
  if (!expect (r, "Range constraints: ", error))
    return FALSE;
  if (r->pos >= r->end || r->text[r->pos] != '{' || r->text[r->end - 1] != '}' ||
      memchr (r->text + r->pos, '\0', r->end - r->pos) != NULL)
    return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "expected the range constraints as a dict ('{}', '{s0: VR[2, 64]}')");
  r->range_constraints = g_strndup (r->text + r->pos, r->end - r->pos);
  i = next_line (r, i + 1);
  if (i < r->lines->len)
    {
      enter_line (r, i);
      return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                   "unexpected text after the range constraints");
    }
  return TRUE;
}

/* The signature agrees with forward: an input per parameter, in order; an
 * output per returned value. */
static gboolean
check_signature (Reader  *r,
                 GError **error)
{
  Record         *output = &g_array_index (r->records, Record, r->output_record);
  const GraftArg *value = &output->args.items[0];
  guint           n_values = 1;

  for (guint i = 0; i < r->inputs->len; i++)
    {
      Spec   *spec = &g_array_index (r->inputs, Spec, i);
      Record *rec =
          i < r->n_placeholders ? &g_array_index (r->records, Record, i) : NULL;

      if (rec == NULL)
        return fail (r, spec->start, spec->end, GRAFT_PARSE_ERROR_GRAPH, error,
                     "the signature has more inputs than forward has parameters (%u)",
                     r->n_placeholders);
      if (strcmp (rec->name, spec->name) != 0)
        return fail (r, spec->start, spec->end, GRAFT_PARSE_ERROR_GRAPH, error,
                     "input %u of the signature is '%s' but parameter %u of forward is '%s'",
                     i + 1, spec->name, i + 1, rec->name);
    }
  if (r->inputs->len < r->n_placeholders)
    {
      Record *rec = &g_array_index (r->records, Record, r->inputs->len);

      return fail (r, rec->line_start, rec->line_end, GRAFT_PARSE_ERROR_GRAPH, error,
                   "the signature has no input for parameter '%s'", rec->name);
    }

  if (value->kind == GRAFT_ARG_TUPLE || value->kind == GRAFT_ARG_LIST)
    n_values = value->n;
  for (guint i = 0; i < r->outputs->len; i++)
    {
      Spec           *spec = &g_array_index (r->outputs, Spec, i);
      const GraftArg *item = value->kind == GRAFT_ARG_TUPLE || value->kind == GRAFT_ARG_LIST
                                 ? (i < value->n ? &value->items[i] : NULL)
                                 : (i == 0 ? value : NULL);
      const Ref      *ref;
      gsize           len;

      if (item == NULL)
        return fail (r, spec->start, spec->end, GRAFT_PARSE_ERROR_GRAPH, error,
                     "the signature has more outputs than forward returns (%u)", n_values);
      if (g_strcmp0 (spec->argument, "ConstantArgument") == 0)
        continue;
      if (item->kind != GRAFT_ARG_NODE)
        return fail (r, spec->start, spec->end, GRAFT_PARSE_ERROR_GRAPH, error,
                     "output %u of the signature is '%s' but forward returns a constant there",
                     i + 1, spec->name);
      ref = &g_array_index (r->refs, Ref, item->n);
      len = ref->end - ref->start;
      if (strlen (spec->name) != len || memcmp (spec->name, r->text + ref->start, len) != 0)
        return fail (r, spec->start, spec->end, GRAFT_PARSE_ERROR_GRAPH, error,
                     "output %u of the signature is '%s' but forward returns '%.*s' there",
                     i + 1, spec->name, (int) len, r->text + ref->start);
    }
  if (r->outputs->len < n_values)
    return fail (r, output->line_start, output->line_end, GRAFT_PARSE_ERROR_GRAPH, error,
                 "the signature has %u output%s but forward returns %u values", r->outputs->len,
                 r->outputs->len == 1 ? "" : "s", n_values);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The graph                                                           */
/* ------------------------------------------------------------------ */

static gboolean
resolve_refs (Reader  *r,
              GError **error)
{
  g_autoptr (GString) name = g_string_new (NULL);

  for (guint i = 0; i < r->refs->len; i++)
    {
      Ref     *ref = &g_array_index (r->refs, Ref, i);
      gpointer index;

      g_string_truncate (name, 0);
      g_string_append_len (name, r->text + ref->start, ref->end - ref->start);
      index = g_hash_table_lookup (r->names, name->str);
      if (index == NULL)
        return fail (r, ref->start, ref->end, GRAFT_PARSE_ERROR_GRAPH, error,
                     "name '%s' is not defined", name->str);
      ref->record = GPOINTER_TO_UINT (index) - 1;
    }
  return TRUE;
}

static void
link_refs (Reader     *r,
           GraftArg   *arg,
           GraftNode **nodes)
{
  guint n_items;

  if (arg->kind == GRAFT_ARG_NODE)
    {
      arg->node = nodes[g_array_index (r->refs, Ref, arg->n).record];
      arg->n = 0;
      return;
    }
  n_items = graft_arg_count_items (arg);
  for (guint i = 0; i < n_items; i++)
    link_refs (r, &arg->items[i], nodes);
}

/* Whether graft_name_for_target() of the placeholder @name is @name
 * itself: ASCII without an upper-case letter, not wrapped in `__`. */
static gboolean
snake_case_keeps (const char *name)
{
  gsize len = strlen (name);

  for (gsize k = 0; k < len; k++)
    if ((guchar) name[k] >= 0x80 || g_ascii_isupper (name[k]))
      return FALSE;
  return !(len >= 2 && name[0] == '_' && name[1] == '_' && name[len - 2] == '_' &&
           name[len - 1] == '_');
}

/* torch's namespace of the program the text prints, as torch.export.load
 * leaves it (graft-pt2-reader.c): each node asked for in order by the
 * candidate the deserializer gives it (a placeholder's clean name, an
 * aten operator that does not return one tensor its snake-cased name:
 * `sym_size_int`; any other its own name), the node then named what was
 * printed.  When that namespace does not hold the graph's names, the
 * graph makes its names from it, as the `.pt2` reader's does, and the
 * names it holds that no node has stay taken. */
void
_graft_program_follow_torch_names (GraftGraph *graph)
{
  const GraftDialect *dialect = graft_graph_get_dialect (graph);
  GraftNamespace     *names = graft_graph_get_namespace (graph);
  g_autoptr (GraftNamespace) shadow = NULL;
  g_autoptr (GPtrArray) made_names = g_ptr_array_new ();
  g_autoptr (GHashTable) by_target = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr (GHashTable) synced_ops = g_hash_table_new (NULL, NULL);

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      const char            *name = graft_node_get_name (node);
      const char            *target = graft_node_get_target (node);
      const GraftAtenSchema *schema;
      g_autofree char       *derived = NULL;
      const char            *candidate, *made;

      candidate = name;
      if (graft_node_get_op (node) == GRAFT_OP_PLACEHOLDER && !snake_case_keeps (name))
        candidate = derived = graft_name_for_target (GRAFT_OP_PLACEHOLDER, name, dialect);
      else if (graft_node_get_op (node) == GRAFT_OP_CALL_FUNCTION &&
               g_str_has_prefix (target, "torch.ops.aten."))
        {
          /* By the interned target: a graph has a few dozen. */
          gpointer found;

          if (!g_hash_table_lookup_extended (by_target, target, NULL, &found))
            {
              found = NULL;
              if ((schema = graft_aten_schema_lookup (target)) != NULL &&
                  !graft_aten_schema_returns_one_tensor (schema))
                {
                  GraftAtenReturn ret = { 0 };

                  found = graft_snake_case (graft_aten_schema_get_name (schema), dialect);
                  if (graft_aten_schema_get_n_returns (schema) == 1)
                    graft_aten_schema_get_return (schema, 0, &ret);
                  /* One value that is not a list: the deserializer names
                   * the node over with its output's name. */
                  if (ret.type != NULL && strchr (ret.type, '[') == NULL)
                    g_hash_table_add (synced_ops, (gpointer) target);
                }
              g_hash_table_insert (by_target, (gpointer) target, found);
            }
          if (found != NULL)
            candidate = found;
          /* A node of several outputs (or a list) keeps the name the
           * namespace made of its candidate: torch's namespace holds it. */
          if (found != NULL && shadow == NULL && !g_hash_table_contains (synced_ops, target))
            continue;
        }
      /* Until a name differs, torch's namespace holds the nodes' names
       * (each unique): a clean candidate that is the node's name is what
       * it gives, and it is made only at the first that differs, by
       * asking it for the names before in order, as the `.pt2` reader's. */
      if (shadow == NULL && candidate == name && _graft_node_name_is_canonical (node))
        continue;
      if (shadow == NULL)
        {
          shadow = graft_namespace_new (dialect);
          for (GraftNode *before = graft_graph_get_first (graph); before != node;
               before = graft_node_get_next (before))
            graft_namespace_create_name (shadow, graft_node_get_name (before),
                                         GRAFT_NAME_DEFAULT);
        }
      made = graft_namespace_create_name (shadow, candidate, GRAFT_NAME_DEFAULT);
      if (strcmp (made, name) != 0)
        g_ptr_array_add (made_names, (gpointer) made);
    }
  if (made_names->len == 0)
    return;
  for (guint k = 0; k < made_names->len; k++)
    if (!graft_namespace_contains (names, made_names->pdata[k]))
      graft_namespace_create_name (names, made_names->pdata[k], GRAFT_NAME_DEFAULT);
  _graft_graph_set_torch_names (graph, g_steal_pointer (&shadow));
}

static GraftGraph *
build_graph (Reader  *r,
             gboolean exported,
             GError **error)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (r->dialect);
  g_autofree GraftNode **nodes = g_new (GraftNode *, r->records->len);
  GraftProgram          *program;

  graft_graph_set_source (graph, r->source);
  graft_graph_set_module_name (graph, r->module_name);

  /* Placeholders come first, then the nodes; the output (`return`, the
   * last line) is the last record. */
  for (guint i = 0; i < r->records->len; i++)
    {
      Record *rec = &g_array_index (r->records, Record, i);

      if (rec->op == GRAFT_OP_OUTPUT)
        nodes[i] =
            graft_graph_create_node (graph, rec->op, rec->target, NULL, NULL, "output", NULL);
      else
        nodes[i] = graft_graph_create_node_named (graph, rec->op, rec->target, NULL, NULL,
                                                  rec->name, NULL);
      if (nodes[i] == NULL)
        {
          /* Names are checked when read, so this cannot happen. */
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH, "cannot create node '%s'",
                       rec->name);
          return NULL;
        }
      graft_node_set_span (nodes[i], rec->line_start, rec->line_end);
      if (rec->op != GRAFT_OP_OUTPUT)
        {
          GraftNodeMeta meta = { 0 };

          meta.kind = rec->ann.kind;
          meta.dtype = rec->ann.dtype;
          meta.shape = rec->ann.shape;
          meta.stride = rec->ann.stride;
          meta.device = rec->ann.device;
          meta.symbol = rec->ann.symbol;
          meta.stack_trace = rec->trace >= 0 ? r->traces->pdata[rec->trace] : NULL;
          graft_node_set_meta (nodes[i], &meta);
        }
    }
  for (guint i = 0; i < r->records->len; i++)
    {
      Record *rec = &g_array_index (r->records, Record, i);

      link_refs (r, &rec->args, nodes);
      link_refs (r, &rec->kwargs, nodes);
      graft_graph_set_args (graph, nodes[i], &rec->args, &rec->kwargs);
    }

  program = graft_graph_ensure_program (graph);
  if (exported)
    {
      for (guint i = 0; i < r->inputs->len; i++)
        {
          Spec          *spec = &g_array_index (r->inputs, Spec, i);
          GraftInputSpec in = { (GraftInputSpecKind) spec->kind,
                                spec->name,
                                spec->target,
                                spec->persistent,
                                spec->argument,
                                spec->value };

          graft_program_add_input (program, &in);
        }
      for (guint i = 0; i < r->outputs->len; i++)
        {
          Spec           *spec = &g_array_index (r->outputs, Spec, i);
          GraftOutputSpec out = { (GraftOutputSpecKind) spec->kind, spec->name, spec->target,
                                  spec->argument, spec->value };

          graft_program_add_output (program, &out);
        }
      graft_program_set_range_constraints (program, r->range_constraints);
    }
  _graft_program_follow_torch_names (graph);
  return g_steal_pointer (&graph);
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

/* The text after a BOM and white space. */
static const char *
skip_start (const char *p,
            const char *end)
{
  if (end - p >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;
  while (p < end && g_ascii_isspace (*p))
    p++;
  return p;
}

/* The next line after @p, skipping blank lines; *out_end its end. */
static const char *
next_text_line (const char  *p,
                const char  *end,
                const char **out_end)
{
  const char *nl = p < end ? memchr (p, '\n', (gsize) (end - p)) : NULL;
  const char *q;

  p = nl != NULL ? nl + 1 : end;
  while (p < end && g_ascii_isspace (*p))
    p++;
  q = p < end ? memchr (p, '\n', (gsize) (end - p)) : NULL;
  *out_end = q != NULL ? q : end;
  while (*out_end > p && g_ascii_isspace ((*out_end)[-1]))
    (*out_end)--;
  return p;
}

static gboolean
has_prefix (const char *p,
            const char *end,
            const char *prefix)
{
  gsize n = strlen (prefix);

  return (gsize) (end - p) >= n && memcmp (p, prefix, n) == 0;
}

/**
 * graft_program_text_detect:
 * @source: a text
 *
 * Tells a program's text from other inputs.  `print(ep)` text starts with
 * `ExportedProgram:` (after a byte order mark and blank lines).
 * print_readable text starts with `class NAME(torch.nn.Module):` followed
 * by `def forward(self...` that has a parameter annotated with a string
 * (`x: "f32[2, 4]"`), or whose first line is a source comment (`# File:`,
 * a bare `#`, `# No stacktrace found ...`) or a node annotated with a
 * string (`mm: "f32[2, 2]" = ...`).  A Python model never starts with a
 * class on its first line without importing torch, nor annotates with
 * such strings.
 *
 * Returns: the form of @source
 */
GraftProgramTextForm
graft_program_text_detect (GraftSource *source)
{
  const char *text, *end, *p, *line_end, *q;

  g_return_val_if_fail (source != NULL, GRAFT_PROGRAM_TEXT_NONE);

  text = graft_source_get_text (source);
  end = text + graft_source_get_length (source);
  p = skip_start (text, end);
  if (has_prefix (p, end, "ExportedProgram:"))
    return GRAFT_PROGRAM_TEXT_EXPORTED;
  if (!has_prefix (p, end, "class "))
    return GRAFT_PROGRAM_TEXT_NONE;
  q = memchr (p, '\n', end - p);
  line_end = q != NULL ? q : end;
  while (line_end > p && g_ascii_isspace (line_end[-1]))
    line_end--;
  if (line_end - p < 6 + 1 + 18 || memcmp (line_end - 18, "(torch.nn.Module):", 18) != 0)
    return GRAFT_PROGRAM_TEXT_NONE;
  for (q = p + 6; q < line_end - 18; q++)
    if (!g_ascii_isalnum (*q) && *q != '_')
      return GRAFT_PROGRAM_TEXT_NONE;
  p = next_text_line (p, end, &line_end);
  if (!has_prefix (p, line_end, "def forward(self"))
    return GRAFT_PROGRAM_TEXT_NONE;
  for (q = p; q + 3 <= line_end; q++)
    if (q[0] == ':' && q[1] == ' ' && q[2] == '"')
      return GRAFT_PROGRAM_TEXT_READABLE;
  p = next_text_line (p, end, &line_end);
  if (has_prefix (p, line_end, "# File: ") || has_prefix (p, line_end, "# No stacktrace found") ||
      (line_end - p == 1 && *p == '#'))
    return GRAFT_PROGRAM_TEXT_READABLE;
  for (q = p; q < line_end && (g_ascii_isalnum (*q) || *q == '_'); q++)
    ;
  if (q > p && has_prefix (q, line_end, ": \""))
    return GRAFT_PROGRAM_TEXT_READABLE;
  return GRAFT_PROGRAM_TEXT_NONE;
}

/**
 * graft_program_text_parse:
 * @source: the text `print(ep)` or `gm.print_readable()` wrote
 * @dialect: the torch the graph follows: only torch 2.6 reads programs
 * @error: return location for a located #GRAFT_PARSE_ERROR
 *
 * Reads a program's text back into its graph (see the top of this file).
 * The graph is a program (graft_graph_get_program()) whose module name is
 * the class name; from `print(ep)` text it has the graph signature and the
 * range constraints too.  Each node's span is its line (a placeholder's:
 * its parameter).
 *
 * Returns: (transfer full) (nullable): the graph, or %NULL with @error set
 */
GraftGraph *
graft_program_text_parse (GraftSource        *source,
                          const GraftDialect *dialect,
                          GError            **error)
{
  Reader      r = { 0 };
  guint       i, next = 0;
  gboolean    exported;
  GraftGraph *graph = NULL;

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!graft_program_check_dialect (dialect, graft_source_get_filename (source), error))
    return NULL;
  r.source = source;
  r.dialect = dialect;
  r.text = graft_source_get_text (source);
  r.length = graft_source_get_length (source);
  if (r.length > GRAFT_MAX_INPUT_BYTES)
    {
      graft_set_error_at_offset (error, source, 0, 0, GRAFT_PARSE_ERROR_LIMIT,
                                 "the input is larger than %u MiB",
                                 GRAFT_MAX_INPUT_BYTES / (1024u * 1024u));
      return NULL;
    }
  split_lines (&r);
  r.records = g_array_new (FALSE, FALSE, sizeof (Record));
  r.refs = g_array_new (FALSE, FALSE, sizeof (Ref));
  r.names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r.traces = g_ptr_array_new_with_free_func (g_free);
  r.inputs = g_array_new (FALSE, FALSE, sizeof (Spec));
  r.outputs = g_array_new (FALSE, FALSE, sizeof (Spec));
  g_array_set_clear_func (r.inputs, spec_clear);
  g_array_set_clear_func (r.outputs, spec_clear);
  _graft_value_reader_init (&r.values, r.text, add_ref, &r);
  r.refs_allowed = TRUE;
  r.trace = -1;

  /* A byte order mark is not content. */
  if (r.lines->len > 0 && r.length >= 3 && memcmp (r.text, "\xEF\xBB\xBF", 3) == 0)
    g_array_index (r.lines, Line, 0).start += 3;
  i = next_line (&r, 0);
  if (i >= r.lines->len)
    {
      graft_set_error_at_offset (error, source, r.length, r.length, GRAFT_PARSE_ERROR_SYNTAX,
                                 "expected 'class GraphModule(torch.nn.Module):' but the input "
                                 "is empty");
      reader_clear (&r);
      return NULL;
    }
  enter_line (&r, i);
  exported = r.end - r.pos == strlen ("ExportedProgram:") && looking_at (&r, "ExportedProgram:");
  if (exported)
    i = next_line (&r, i + 1);
  if (i >= r.lines->len)
    graft_set_error_at_offset (error, source, r.length, r.length, GRAFT_PARSE_ERROR_SYNTAX,
                               "expected 'class GraphModule(torch.nn.Module):' but the input "
                               "ends");
  else if (parse_class (&r, i, exported ? 4 : line_indent (&r, i), &next, error) &&
           (!exported || parse_signature (&r, next, error)) && resolve_refs (&r, error) &&
           (!exported || check_signature (&r, error)))
    {
      if (!exported && next < r.lines->len)
        {
          enter_line (&r, next);
          graft_set_error_at_offset (error, source, r.pos, r.end, GRAFT_PARSE_ERROR_SYNTAX,
                                     "unexpected text after the class");
        }
      else
        graph = build_graph (&r, exported, error);
    }
  reader_clear (&r);
  return graph;
}
