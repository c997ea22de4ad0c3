/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dot.c: graphs as Graphviz DOT.  The writer makes DOT that Graphviz
 * draws and that reads back into the same graph; the reader takes that DOT
 * back exactly, and any other directed DOT graph as a generic dataflow
 * graph.  Reading DOT text is cgraph's job (through graft-gv.c, the only
 * file that includes Graphviz); this file turns cgraph's nodes and
 * attributes into a graph and finds where things are in the text, which
 * cgraph does not record.
 *
 * Graft's DOT.  One DOT node per graph node, in graph order, named by the
 * node's name, then one edge per use of a node, in argument order (a node
 * that uses `x` twice gets two edges).  Edges are for viewers: on reading,
 * a node's arguments come from its attributes alone.  The attributes:
 *
 *  - `graft_op`: `placeholder`, `get_attr`, `call_function`, `call_method`,
 *    `call_module` or `output`.  A node with it is a Graft node.
 *  - `graft_target`: the target as text (absent when empty).
 *  - `graft_args`: the args tuple; `graft_kwargs`: the kwargs dict (absent
 *    when empty).  Values are written in a Python-like syntax that reads
 *    back exactly: `None`, `Ellipsis`, `True`, `False`; ints (`-3`); floats
 *    as Python's repr (`1.0`, `1e-05`, `-0.0`, `inf`, `-inf`, `nan`,
 *    `-nan` for a NaN with its sign bit set); `complex(RE, IM)` with float
 *    parts; strings in single quotes (escapes below); torch symbols bare
 *    (`torch.float32`), and so are ints too big for 64 bits (Graft keeps
 *    those as symbols); any other symbol as `symbol('TEXT')`;
 *    `device('cuda:0')` (the device's str form); `slice(A, B, C)`; tuples
 *    (`(x,)`), lists and dicts as in Python; a node as `%name`, as graph
 *    listings write it.
 *  - `graft_type`: the type annotation as text, when there is one.
 *  - `graft_wrapped=true` for a call to a wrapped function.
 *  - `graft_match=N` for a node of match N when the caller highlights
 *    matches (written, never read).
 *
 * Strings in values and the text of `graft_target` and `graft_type` escape
 * `\` as `\\`, line breaks, tabs and other control characters (`\n`, `\r`,
 * `\t`, `\xHH`), characters that do not print as `\uXXXX` or `\UXXXXXXXX`,
 * and each byte that is not UTF-8 as `\udcHH` (Python's surrogateescape);
 * a string also escapes its quote.  Other characters, non-ASCII included,
 * are written as they are (DOT is UTF-8).  This matters because a DOT
 * string cannot hold every text: cgraph keeps `\\` as two backslashes, and
 * an odd run of backslashes before a quote, a line break or the end of a
 * string cannot be written at all.  Escaped text never holds such a run,
 * so DOT quoting only has to turn `"` into `\"`.  For viewers, each node
 * also has `label="NAME\nCAPTION"` (an escString, so its backslashes are
 * doubled) and op colours from graft-palette-private.h; shape and style are
 * node defaults.
 *
 * Reading.  The text must be UTF-8 without NUL bytes, at most
 * GRAFT_MAX_DOT_BYTES, must not end inside a comment or a string (cgraph's
 * global lexer would stay there, graft-gv.c), and must hold a directed
 * graph; only its first graph is read.  Then:
 *
 *  - If any node has `graft_op`, the file is Graft's and every node must
 *    have one: a node without it (say, one that a hand edit added through
 *    an edge) is an error rather than a guess.  Nodes keep their names,
 *    which must be Python identifiers, and their file order; a `%name`
 *    must name a node of the file; exactly one node is the output, and it
 *    comes last.  Other attributes and the edges are ignored.
 *  - Otherwise the graph is plain DOT and becomes a dataflow graph.  Nodes
 *    with no in-edge are placeholders and come first, in file order; every
 *    other node is a call_function whose args are the nodes its in-edges
 *    come from, one per edge, in file order; the nodes that feed no other
 *    are returned by the output node (one alone, several as a tuple, in
 *    file order; an empty graph returns None).  The call_function nodes follow in topological order,
 *    earliest in the file first among those ready; a cycle is an error at
 *    the first node in file order that lies on one.  Names become legal
 *    and unique as torch.fx's namespace makes them, in graph order
 *    (`my-node` becomes `my_node`, `1` becomes `_1`), and a placeholder's
 *    target is its name.  A call_function's target is its `label` (or its
 *    name when it has none) made a dotted Python name: the label's escapes
 *    are expanded (`\N` is the node's name, `\G` the graph's, a line break
 *    separates like a space), then within each dot-separated part every
 *    run of characters other than ASCII letters, digits and `_` becomes
 *    one `_` (runs at either end of a part are dropped), empty parts are
 *    dropped, a part that starts with a digit gets a `_` prefix and a
 *    keyword gets a `_` suffix.  So `torch.relu` stays itself (and codegen
 *    calls it), `Conv 3x3` becomes `Conv_3x3`, and a label with nothing
 *    left (`+`) falls back to the node's legal name.  An HTML label is
 *    cleaned the same way, markup and all (`<b>x</b>` gives `b_x_b`).
 *    Nothing is marked wrapped, so code has no `wrap(...)` lines.
 *
 * Errors are located: cgraph's syntax errors at the token it names,
 * everything about a node at the first place the node appears in the text
 * (found by a small DOT scanner here), values inside an attribute at their
 * node, with the character position within the value in the message.
 */
#include "config.h"

#include "graft-dot.h"
#include "graft-arg.h"
#include "graft-error.h"
#include "graft-graph.h"
#include "graft-graph-private.h"
#include "graft-gv-private.h"
#include "graft-limits.h"
#include "graft-namespace.h"
#include "graft-palette-private.h"
#include "graft-source.h"
#include "graft-strbuf-private.h"
#include "graft-dot-escape-private.h"
#include "graft-value-reader-private.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Escaped text                                                        */
/* ------------------------------------------------------------------ */

/* Appends @len bytes of @s escaped as the file comment says; @quote (a
 * string's quote, or 0 for the text of an attribute) is escaped too. */
void
_graft_dot_append_escaped (GString    *out,
                           const char *s,
                           gsize       len,
                           char        quote)
{
  const char *end = s + len;

  for (const char *p = s; p < end;)
    {
      guchar b = (guchar) *p;
      gunichar c;
      gsize step;

      if (b < 0x80)
        {
          if (b == '\\')
            _graft_buf_append (out, "\\\\");
          else if (b == '\n')
            _graft_buf_append (out, "\\n");
          else if (b == '\r')
            _graft_buf_append (out, "\\r");
          else if (b == '\t')
            _graft_buf_append (out, "\\t");
          else if (quote != 0 && b == (guchar) quote)
            {
              g_string_append_c (out, '\\');
              g_string_append_c (out, quote);
            }
          else if (b < 0x20 || b == 0x7f)
            g_string_append_printf (out, "\\x%02x", b);
          else
            g_string_append_c (out, (char) b);
          p++;
          continue;
        }
      c = g_utf8_get_char_validated (p, end - p);
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\udc%02x", b);
          p++;
          continue;
        }
      step = g_utf8_next_char (p) - p;
      if (g_unichar_isprint (c))
        _graft_buf_append_len (out, p, step);
      else if (c <= 0xffff)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_printf (out, "\\U%08x", c);
      p += step;
    }
}

static gboolean
read_hex (const char *p,
          const char *end,
          guint       n_digits,
          gunichar   *out)
{
  gunichar value = 0;

  if ((gsize) (end - p) < n_digits)
    return FALSE;
  for (guint i = 0; i < n_digits; i++)
    {
      if (!g_ascii_isxdigit (p[i]))
        return FALSE;
      value = value * 16 + (gunichar) g_ascii_xdigit_value (p[i]);
    }
  *out = value;
  return TRUE;
}

/* Reads escaped text from @p up to @quote (or to @end when @quote is 0)
 * into @buf.  On success *@out_end is past the closing quote; on failure
 * it is where the problem is and *@out_message says what it is. */
gboolean
_graft_dot_read_escaped (const char  *p,
                         const char  *end,
                         char         quote,
                         GString     *buf,
                         const char **out_end,
                         const char **out_message)
{
  while (p < end)
    {
      const char *esc = p;
      gunichar c;
      guint n_digits;

      if (quote != 0 && *p == quote)
        {
          *out_end = p + 1;
          return TRUE;
        }
      if (*p != '\\')
        {
          g_string_append_c (buf, *p++);
          continue;
        }
      p++;
      if (p >= end)
        {
          *out_end = esc;
          *out_message = "a backslash ends the text";
          return FALSE;
        }
      switch (*p)
        {
        case '\\':
        case '\'':
        case '"':
          g_string_append_c (buf, *p);
          p++;
          continue;
        case 'n':
          g_string_append_c (buf, '\n');
          p++;
          continue;
        case 'r':
          g_string_append_c (buf, '\r');
          p++;
          continue;
        case 't':
          g_string_append_c (buf, '\t');
          p++;
          continue;
        case 'x':
          n_digits = 2;
          break;
        case 'u':
          n_digits = 4;
          break;
        case 'U':
          n_digits = 8;
          break;
        default:
          *out_end = esc;
          *out_message = "unknown escape";
          return FALSE;
        }
      p++;
      if (!read_hex (p, end, n_digits, &c))
        {
          *out_end = esc;
          *out_message = "truncated escape";
          return FALSE;
        }
      p += n_digits;
      if (c >= 0xdc80 && c <= 0xdcff)
        g_string_append_c (buf, (char) (c - 0xdc00)); /* a raw byte */
      else if ((c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
        {
          *out_end = esc;
          *out_message = "escape of an invalid character";
          return FALSE;
        }
      else
        g_string_append_unichar (buf, c);
    }
  if (quote != 0)
    {
      *out_end = end;
      *out_message = "unterminated string";
      return FALSE;
    }
  *out_end = end;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Writing values                                                      */
/* ------------------------------------------------------------------ */

static gboolean
is_ascii_identifier (const char *s,
                     gsize       len)
{
  if (len == 0 || !(g_ascii_isalpha (s[0]) || s[0] == '_'))
    return FALSE;
  for (gsize i = 1; i < len; i++)
    if (!(g_ascii_isalnum (s[i]) || s[i] == '_'))
      return FALSE;
  return TRUE;
}

static gboolean
is_digits (const char *s,
           gsize       len)
{
  gsize i = len > 0 && s[0] == '-' ? 1 : 0;

  if (i >= len)
    return FALSE;
  for (; i < len; i++)
    if (!g_ascii_isdigit (s[i]))
      return FALSE;
  return TRUE;
}

static void
append_float (GString *out,
              double   value)
{
  if (isnan (value))
    _graft_buf_append (out, signbit (value) ? "-nan" : "nan");
  else
    graft_append_float_repr (out, value);
}

static void
append_value (GString        *out,
              const GraftArg *arg)
{
  switch (arg->kind)
    {
    case GRAFT_ARG_NONE:
      _graft_buf_append (out, "None");
      return;
    case GRAFT_ARG_ELLIPSIS:
      _graft_buf_append (out, "Ellipsis");
      return;
    case GRAFT_ARG_BOOL:
      _graft_buf_append (out, arg->b ? "True" : "False");
      return;
    case GRAFT_ARG_INT:
      graft_append_int (out, arg->i);
      return;
    case GRAFT_ARG_FLOAT:
      append_float (out, arg->f);
      return;
    case GRAFT_ARG_COMPLEX:
      _graft_buf_append (out, "complex(");
      append_float (out, arg->c[0]);
      _graft_buf_append (out, ", ");
      append_float (out, arg->c[1]);
      g_string_append_c (out, ')');
      return;
    case GRAFT_ARG_STR:
      g_string_append_c (out, '\'');
      _graft_dot_append_escaped (out, arg->s, arg->n, '\'');
      g_string_append_c (out, '\'');
      return;
    case GRAFT_ARG_SYMBOL:
      if (_graft_value_symbol_is_bare (arg->s, arg->n))
        {
          _graft_buf_append_len (out, arg->s, arg->n);
          return;
        }
      _graft_buf_append (out, "symbol('");
      _graft_dot_append_escaped (out, arg->s, arg->n, '\'');
      _graft_buf_append (out, "')");
      return;
    case GRAFT_ARG_DEVICE:
      _graft_buf_append (out, "device('");
      _graft_dot_append_escaped (out, arg->s, arg->n, '\'');
      _graft_buf_append (out, "')");
      return;
    case GRAFT_ARG_NODE:
      g_string_append_c (out, '%');
      _graft_buf_append (out, graft_node_get_name (arg->node));
      return;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
      g_string_append_c (out, arg->kind == GRAFT_ARG_TUPLE ? '(' : '[');
      for (guint i = 0; i < arg->n; i++)
        {
          if (i > 0)
            _graft_buf_append (out, ", ");
          append_value (out, &arg->items[i]);
        }
      if (arg->kind == GRAFT_ARG_TUPLE && arg->n == 1)
        g_string_append_c (out, ',');
      g_string_append_c (out, arg->kind == GRAFT_ARG_TUPLE ? ')' : ']');
      return;
    case GRAFT_ARG_DICT:
      g_string_append_c (out, '{');
      for (guint i = 0; i < arg->n; i++)
        {
          if (i > 0)
            _graft_buf_append (out, ", ");
          append_value (out, &arg->items[2 * i]);
          _graft_buf_append (out, ": ");
          append_value (out, &arg->items[2 * i + 1]);
        }
      g_string_append_c (out, '}');
      return;
    case GRAFT_ARG_SLICE:
      _graft_buf_append (out, "slice(");
      for (guint i = 0; i < 3; i++)
        {
          if (i > 0)
            _graft_buf_append (out, ", ");
          append_value (out, &arg->items[i]);
        }
      g_string_append_c (out, ')');
      return;
    default:
      g_assert_not_reached ();
    }
}

/* ------------------------------------------------------------------ */
/* Writing DOT                                                         */
/* ------------------------------------------------------------------ */

static gboolean
is_dot_keyword (const char *s,
                gsize       len)
{
  static const char *const keywords[] = { "node", "edge", "graph", "digraph", "subgraph", "strict" };

  for (guint i = 0; i < G_N_ELEMENTS (keywords); i++)
    if (strlen (keywords[i]) == len && g_ascii_strncasecmp (keywords[i], s, len) == 0)
      return TRUE;
  return FALSE;
}

/* Appends @s as a DOT string: bare when it is a plain ID or a whole
 * number, else in double quotes with `"` escaped.  @s holds no line break
 * and no odd run of backslashes before a quote or at its end (see the file
 * comment); should one slip through, its last backslash is doubled so
 * the DOT stays well-formed. */
static void
append_dot_string (GString    *out,
                   const char *s)
{
  gsize len = strlen (s);
  gsize run = 0;

  if ((is_ascii_identifier (s, len) && !is_dot_keyword (s, len)) ||
      (len > 0 && len < 16 && is_digits (s, len) && s[0] != '-'))
    {
      _graft_buf_append_len (out, s, len);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = s; *p != '\0'; p++)
    {
      if (*p == '\\')
        {
          run++;
          g_string_append_c (out, '\\');
          continue;
        }
      if ((run % 2 == 1) && (*p == '"' || *p == '\n'))
        g_string_append_c (out, '\\');
      run = 0;
      if (*p == '"')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  if (run % 2 == 1)
    g_string_append_c (out, '\\');
  g_string_append_c (out, '"');
}

static void
append_attr (GString    *out,
             gboolean   *first,
             const char *name,
             const char *value)
{
  _graft_buf_append (out, *first ? " [" : ", ");
  *first = FALSE;
  _graft_buf_append (out, name);
  g_string_append_c (out, '=');
  append_dot_string (out, value);
}

/* Appends @s to an escString (a label): backslashes doubled, line breaks
 * as `\n`, other control characters as spaces. */
static void
append_label_text (GString    *out,
                   const char *s)
{
  for (const char *p = s; *p != '\0'; p++)
    {
      if (*p == '\\')
        _graft_buf_append (out, "\\\\");
      else if (*p == '\n')
        _graft_buf_append (out, "\\n");
      else if ((guchar) *p < 0x20 || *p == 0x7f)
        g_string_append_c (out, ' ');
      else
        g_string_append_c (out, *p);
    }
}

/* What a node does, as the renderer captions its box (the shared
 * caption, escaped for a label). */
static void
append_caption (GString   *out,
                GraftNode *node)
{
  g_autoptr (GString) caption = g_string_new (NULL);

  _graft_node_append_caption (caption, node);
  append_label_text (out, caption->str);
}

/* Appends `  TAIL -> @node;` for each node @arg refers to, in order. */
static void
append_edges (GString        *out,
              const GraftArg *arg,
              GraftNode      *node)
{
  guint n_items;

  if (arg->kind == GRAFT_ARG_NODE)
    {
      _graft_buf_append (out, "  ");
      append_dot_string (out, graft_node_get_name (arg->node));
      _graft_buf_append (out, " -> ");
      append_dot_string (out, graft_node_get_name (node));
      _graft_buf_append (out, ";\n");
      return;
    }
  n_items = graft_arg_count_items (arg);
  for (guint i = 0; i < n_items; i++)
    append_edges (out, &arg->items[i], node);
}

/**
 * graft_dot_options_init:
 * @options: (out caller-allocates): options to set to the defaults
 *
 * Light style, nothing highlighted.
 */
void
graft_dot_options_init (GraftDotOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->style = GRAFT_DOT_LIGHT;
}

/**
 * graft_dot_print:
 * @graph: a graph
 * @options: (nullable): style and highlighted matches; %NULL for the
 *   defaults
 *
 * Writes @graph as DOT that Graphviz draws and graft_dot_parse() reads
 * back into the same graph (same names, order, ops, targets, arguments,
 * annotations and wrapped flags).  The file comment of graft-dot.c
 * describes the format.
 *
 * Returns: (transfer full): the DOT text
 */
char *
graft_dot_print (GraftGraph            *graph,
                 const GraftDotOptions *options)
{
  GraftDotOptions defaults;
  const GraftOpColors *palette;
  const GraftThemeColors *theme;
  g_autoptr (GString) value = g_string_new (NULL);
  GString *out;
  guint index = 0;

  g_return_val_if_fail (graph != NULL, NULL);

  if (options == NULL)
    {
      graft_dot_options_init (&defaults);
      options = &defaults;
    }
  palette = options->style == GRAFT_DOT_DARK ? graft_palette_dark : graft_palette_light;
  /* The renderer's colours, so a drawing by dot looks like Graft's own. */
  theme = &graft_palette_themes[options->style == GRAFT_DOT_DARK ? 1 : 0];

  out = g_string_sized_new (256 + 160 * (gsize) graft_graph_get_n_nodes (graph));
  _graft_buf_append (out, "digraph graft {\n");
  g_string_append_printf (out, "  graph [rankdir=TB, bgcolor=\"#%06x\"];\n", theme->background);
  g_string_append_printf (out,
                          "  node [shape=box, style=\"rounded,filled\", fontname=\"DejaVu Sans Mono\", "
                          "fontsize=9, fontcolor=\"#%06x\"];\n",
                          theme->text);
  g_string_append_printf (out, "  edge [color=\"#%06x\", arrowsize=0.7];\n", theme->edge);

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL; node = graft_node_get_next (node), index++)
    {
      GraftOp op = graft_node_get_op (node);
      const GraftArg *kwargs = graft_node_get_kwargs (node);
      const char *type = graft_node_get_type_annotation (node);
      const GraftOpColors *colors = &palette[(guint) op < 6 ? op : GRAFT_OP_CALL_FUNCTION];
      gint match = options->node_match != NULL ? options->node_match[index] : -1;
      char color[8];
      gboolean first = TRUE;

      _graft_buf_append (out, "  ");
      append_dot_string (out, graft_node_get_name (node));

      append_attr (out, &first, "graft_op", graft_op_to_string (op));
      g_string_truncate (value, 0);
      _graft_dot_append_escaped (value, graft_node_get_target (node), strlen (graft_node_get_target (node)), 0);
      append_attr (out, &first, "graft_target", value->str);
      g_string_truncate (value, 0);
      append_value (value, graft_node_get_args (node));
      append_attr (out, &first, "graft_args", value->str);
      if (kwargs->n > 0)
        {
          g_string_truncate (value, 0);
          append_value (value, kwargs);
          append_attr (out, &first, "graft_kwargs", value->str);
        }
      if (type != NULL)
        {
          g_string_truncate (value, 0);
          _graft_dot_append_escaped (value, type, strlen (type), 0);
          append_attr (out, &first, "graft_type", value->str);
        }
      if (graft_node_get_is_wrapped (node))
        append_attr (out, &first, "graft_wrapped", "true");

      g_string_truncate (value, 0);
      append_label_text (value, graft_node_get_name (node));
      _graft_buf_append (value, "\\n");
      append_caption (value, node);
      append_attr (out, &first, "label", value->str);
      g_snprintf (color, sizeof color, "#%06x", colors->fill);
      append_attr (out, &first, "fillcolor", color);
      if (match >= 0)
        {
          char number[16];

          g_snprintf (number, sizeof number, "%d", match);
          append_attr (out, &first, "graft_match", number);
          g_snprintf (color, sizeof color, "#%06x", graft_palette_matches[match % GRAFT_PALETTE_N_MATCH_COLORS]);
          append_attr (out, &first, "color", color);
          append_attr (out, &first, "penwidth", "3");
        }
      else
        {
          g_snprintf (color, sizeof color, "#%06x", colors->border);
          append_attr (out, &first, "color", color);
        }
      _graft_buf_append (out, "];\n");
    }

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL; node = graft_node_get_next (node))
    {
      append_edges (out, graft_node_get_args (node), node);
      append_edges (out, graft_node_get_kwargs (node), node);
    }
  _graft_buf_append (out, "}\n");
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------ */
/* Finding nodes in the text                                           */
/* ------------------------------------------------------------------ */

/* cgraph does not say where a node is in the text, so a small scanner
 * follows DOT's lexical rules (comments, `#` lines, quoted strings with
 * `+` concatenation, HTML strings, numbers, IDs) and enough of its grammar
 * to tell node IDs from graph names, attribute names and values, and
 * ports.  It never fails: the text has already passed cgraph, or is only
 * being looked at for its first keyword. */

typedef enum {
  TOK_END,
  TOK_ID,
  TOK_PUNCT, /* { } [ ] ; , = : + */
  TOK_EDGEOP,
} TokKind;

typedef struct {
  TokKind kind;
  char    punct;
  guint8  quoted; /* a quoted or HTML string (never a keyword) */
  guint8  html;
  guint8  closed; /* a quoted string has its closing quote */
  gsize   start;
  gsize   end;
} Tok;

typedef struct {
  const char *text;
  gsize       length;
  gsize       pos;
  Tok         peeked;
  gboolean    has_peeked;
  const char *unterminated; /* what the text ends inside, if anything */
  gsize       unterminated_at;
} Scanner;

static void
set_unterminated (Scanner    *sc,
                  gsize       at,
                  const char *what)
{
  if (sc->unterminated == NULL)
    {
      sc->unterminated = what;
      sc->unterminated_at = at;
    }
}

static gboolean
is_dot_id_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || (guchar) c >= 0x80;
}

static void
skip_space_and_comments (Scanner *sc)
{
  const char *t = sc->text;

  /* A byte order mark is not content. */
  if (sc->pos == 0 && sc->length >= 3 && memcmp (t, "\xEF\xBB\xBF", 3) == 0)
    sc->pos = 3;
  while (sc->pos < sc->length)
    {
      char c = t[sc->pos];

      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
        sc->pos++;
      else if (c == '#' && (sc->pos == 0 || t[sc->pos - 1] == '\n'))
        {
          while (sc->pos < sc->length && t[sc->pos] != '\n')
            sc->pos++;
        }
      else if (c == '/' && sc->pos + 1 < sc->length && t[sc->pos + 1] == '/')
        {
          while (sc->pos < sc->length && t[sc->pos] != '\n')
            sc->pos++;
        }
      else if (c == '/' && sc->pos + 1 < sc->length && t[sc->pos + 1] == '*')
        {
          const char *close = g_strstr_len (t + sc->pos + 2, (gssize) (sc->length - sc->pos - 2), "*/");

          if (close == NULL)
            set_unterminated (sc, sc->pos, "comment");
          sc->pos = close != NULL ? (gsize) (close - t) + 2 : sc->length;
        }
      else
        return;
    }
}

static void
scan_token (Scanner *sc,
            Tok     *tok)
{
  const char *t = sc->text;

  memset (tok, 0, sizeof *tok);
  for (;;)
    {
      char c;

      skip_space_and_comments (sc);
      tok->start = sc->pos;
      if (sc->pos >= sc->length)
        {
          tok->kind = TOK_END;
          tok->end = sc->pos;
          return;
        }
      c = t[sc->pos];
      if (c == '"')
        {
          sc->pos++;
          while (sc->pos < sc->length && t[sc->pos] != '"')
            sc->pos += t[sc->pos] == '\\' && sc->pos + 1 < sc->length ? 2 : 1;
          tok->closed = sc->pos < sc->length;
          if (!tok->closed)
            set_unterminated (sc, tok->start, "string");
          sc->pos = MIN (sc->pos + 1, sc->length);
          tok->kind = TOK_ID;
          tok->quoted = TRUE;
        }
      else if (c == '<')
        {
          guint depth = 0;

          do
            {
              if (t[sc->pos] == '<')
                depth++;
              else if (t[sc->pos] == '>')
                depth--;
              sc->pos++;
            }
          while (sc->pos < sc->length && depth > 0);
          if (depth > 0)
            set_unterminated (sc, tok->start, "HTML string");
          tok->kind = TOK_ID;
          tok->quoted = TRUE;
          tok->html = TRUE;
        }
      else if (c == '-' && sc->pos + 1 < sc->length && (t[sc->pos + 1] == '>' || t[sc->pos + 1] == '-'))
        {
          sc->pos += 2;
          tok->kind = TOK_EDGEOP;
        }
      else if (c == '-' || c == '.' || g_ascii_isdigit (c))
        {
          /* A numeral: -?(\.[0-9]+|[0-9]+(\.[0-9]*)?) */
          sc->pos++;
          while (sc->pos < sc->length && (g_ascii_isdigit (t[sc->pos]) || t[sc->pos] == '.'))
            sc->pos++;
          tok->kind = TOK_ID;
        }
      else if (is_dot_id_char (c))
        {
          while (sc->pos < sc->length && is_dot_id_char (t[sc->pos]))
            sc->pos++;
          tok->kind = TOK_ID;
        }
      else if (strchr ("{}[];,=:+", c) != NULL)
        {
          sc->pos++;
          tok->kind = TOK_PUNCT;
          tok->punct = c;
        }
      else
        {
          /* Not DOT; cgraph has said so already if it matters. */
          sc->pos++;
          continue;
        }
      tok->end = sc->pos;
      return;
    }
}

static void
next_token (Scanner *sc,
            Tok     *tok)
{
  if (sc->has_peeked)
    {
      *tok = sc->peeked;
      sc->has_peeked = FALSE;
      return;
    }
  scan_token (sc, tok);
}

static const Tok *
peek_token (Scanner *sc)
{
  if (!sc->has_peeked)
    {
      scan_token (sc, &sc->peeked);
      sc->has_peeked = TRUE;
    }
  return &sc->peeked;
}

static gboolean
tok_is_keyword (Scanner    *sc,
                const Tok  *tok,
                const char *keyword)
{
  gsize len = strlen (keyword);

  return tok->kind == TOK_ID && !tok->quoted && tok->end - tok->start == len &&
         g_ascii_strncasecmp (sc->text + tok->start, keyword, len) == 0;
}

/* Appends the ID @tok stands for, as cgraph names it: a quoted string
 * loses its quotes, `\"` becomes `"` and an escaped line break goes;
 * an HTML string loses its outer brackets. */
static void
append_token_value (Scanner   *sc,
                    const Tok *tok,
                    GString   *buf)
{
  const char *t = sc->text;

  if (tok->html)
    {
      if (tok->end - tok->start >= 2)
        g_string_append_len (buf, t + tok->start + 1, (gssize) (tok->end - tok->start - 2));
      return;
    }
  if (!tok->quoted)
    {
      g_string_append_len (buf, t + tok->start, (gssize) (tok->end - tok->start));
      return;
    }
  for (gsize i = tok->start + 1; i < tok->end - (tok->closed ? 1 : 0); i++)
    {
      if (t[i] == '\\' && i + 1 < tok->end)
        {
          if (t[i + 1] == '"')
            {
              g_string_append_c (buf, '"');
              i++;
              continue;
            }
          if (t[i + 1] == '\n')
            {
              i++;
              continue;
            }
          if (t[i + 1] == '\\')
            {
              g_string_append (buf, "\\\\");
              i++;
              continue;
            }
        }
      g_string_append_c (buf, t[i]);
    }
}

/* Reads the ID that @tok starts (joining `"a" + "b"`) into @buf and
 * extends @tok over all of it. */
static void
read_id (Scanner *sc,
         Tok     *tok,
         GString *buf)
{
  g_string_truncate (buf, 0);
  append_token_value (sc, tok, buf);
  while (tok->quoted && !tok->html)
    {
      const Tok *plus = peek_token (sc);
      Scanner saved;
      Tok more;

      if (plus->kind != TOK_PUNCT || plus->punct != '+')
        return;
      /* Look past the `+` without losing it if no string follows. */
      saved = *sc;
      next_token (sc, &more);
      next_token (sc, &more);
      if (more.kind != TOK_ID || !more.quoted || more.html)
        {
          *sc = saved;
          return;
        }
      append_token_value (sc, &more, buf);
      tok->end = more.end;
    }
}

typedef struct {
  guint32 start;
  guint32 end;
  gboolean found;
} Span;

/* Records in @spans (indexed like the document's nodes, through @index:
 * name -> index + 1) where each node first appears in the text. */
static void
find_node_spans (const char *text,
                 gsize       length,
                 GHashTable *index,
                 Span       *spans)
{
  Scanner sc = { text, length, 0, { 0 }, FALSE, NULL, 0 };
  g_autoptr (GString) buf = g_string_new (NULL);
  gboolean in_brackets = FALSE;
  gboolean skip_id = FALSE;
  Tok tok;

  for (next_token (&sc, &tok); tok.kind != TOK_END; next_token (&sc, &tok))
    {
      const Tok *ahead;
      guint found;

      if (in_brackets)
        {
          if (tok.kind == TOK_PUNCT && tok.punct == ']')
            in_brackets = FALSE;
          continue;
        }
      if (tok.kind != TOK_ID)
        {
          in_brackets = tok.kind == TOK_PUNCT && tok.punct == '[';
          skip_id = FALSE;
          continue;
        }
      if (tok_is_keyword (&sc, &tok, "graph") || tok_is_keyword (&sc, &tok, "digraph") ||
          tok_is_keyword (&sc, &tok, "subgraph"))
        {
          skip_id = TRUE;
          continue;
        }
      if (tok_is_keyword (&sc, &tok, "strict") || tok_is_keyword (&sc, &tok, "node") ||
          tok_is_keyword (&sc, &tok, "edge"))
        continue;
      read_id (&sc, &tok, buf);
      if (skip_id)
        {
          skip_id = FALSE;
          continue;
        }
      ahead = peek_token (&sc);
      if (ahead->kind == TOK_PUNCT && ahead->punct == '=')
        {
          /* `name = value` sets a graph attribute. */
          next_token (&sc, &tok);
          next_token (&sc, &tok);
          if (tok.kind == TOK_ID)
            read_id (&sc, &tok, buf);
          continue;
        }
      found = GPOINTER_TO_UINT (g_hash_table_lookup (index, buf->str));
      if (found > 0 && !spans[found - 1].found)
        {
          spans[found - 1].start = (guint32) tok.start;
          spans[found - 1].end = (guint32) tok.end;
          spans[found - 1].found = TRUE;
        }
      /* A port, and a compass point after it. */
      for (guint k = 0; k < 2; k++)
        {
          ahead = peek_token (&sc);
          if (ahead->kind != TOK_PUNCT || ahead->punct != ':')
            break;
          next_token (&sc, &tok);
          if (peek_token (&sc)->kind != TOK_ID)
            break;
          next_token (&sc, &tok);
          read_id (&sc, &tok, buf);
        }
    }
}

/* Checks the text before cgraph reads it: an empty text and an
 * undirected graph get errors at the right place, and a text must not end
 * inside a comment or a string, which would leave cgraph's lexer in that
 * state for the next read (graft-gv.c). */
static gboolean
check_text (GraftSource *source,
            GError     **error)
{
  Scanner sc = { graft_source_get_text (source), graft_source_get_length (source), 0, { 0 }, FALSE, NULL, 0 };
  Tok tok;

  next_token (&sc, &tok);
  if (tok.kind == TOK_END && sc.unterminated == NULL)
    {
      graft_set_error_at_offset (error, source, tok.start, tok.start, GRAFT_PARSE_ERROR_SYNTAX,
                                 "expected a DOT graph ('digraph') but the input is empty");
      return FALSE;
    }
  if (tok_is_keyword (&sc, &tok, "strict"))
    next_token (&sc, &tok);
  if (tok_is_keyword (&sc, &tok, "graph"))
    {
      graft_set_error_at_offset (error, source, tok.start, tok.end, GRAFT_PARSE_ERROR_SYNTAX,
                                 "expected a directed graph (digraph)");
      return FALSE;
    }
  while (tok.kind != TOK_END)
    next_token (&sc, &tok);
  if (sc.unterminated != NULL)
    {
      graft_set_error_at_offset (error, source, sc.unterminated_at, sc.unterminated_at + 1, GRAFT_PARSE_ERROR_SYNTAX,
                                 "unterminated %s", sc.unterminated);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Reading DOT                                                         */
/* ------------------------------------------------------------------ */

typedef struct {
  /* Borrowed */
  GraftSource *source;
  GraftGvDoc  *doc;

  /* Owned */
  GHashTable *index; /* document node name -> index + 1 */
  Span       *spans; /* per document node: its first appearance */
} Importer;

static void
importer_clear (Importer *im)
{
  g_clear_pointer (&im->index, g_hash_table_unref);
  g_clear_pointer (&im->spans, g_free);
}

static GraftGvDocNode *
doc_node (Importer *im,
          guint     i)
{
  return g_ptr_array_index (im->doc->nodes, i);
}

/* Sets a located error at document node @i. */
static void
node_error (Importer   *im,
            guint       i,
            GError    **error,
            GraftParseErrorCode code,
            const char *format,
            ...) G_GNUC_PRINTF (5, 6);

static void
node_error (Importer   *im,
            guint       i,
            GError    **error,
            GraftParseErrorCode code,
            const char *format,
            ...)
{
  va_list ap;
  g_autofree char *message = NULL;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  graft_set_error_at_offset (error, im->source, im->spans[i].start, im->spans[i].end,
                             (GraftParseErrorCode) code, "%s", message);
}

/* A `%name` in a value: a GRAFT_ARG_NODE with a NULL node and `n` the
 * referenced document node's index, linked once every node exists. */
static gboolean
find_ref (GraftValueReader *vr,
          gsize             start,
          gsize             name_start,
          gsize             end,
          GraftArg         *out)
{
  GHashTable *index = vr->user_data;
  g_autofree char *name = NULL;
  guint found;

  if (end - name_start > GRAFT_MAX_NAME_LENGTH)
    return _graft_value_fail (vr, start, start, GRAFT_PARSE_ERROR_SYNTAX, "the node name is too long");
  name = g_strndup (vr->text + name_start, end - name_start);
  found = GPOINTER_TO_UINT (g_hash_table_lookup (index, name));
  if (found == 0)
    return _graft_value_fail (vr, start, start, GRAFT_PARSE_ERROR_SYNTAX,
                              "'%%%s' is not a node of the graph", name);
  graft_arg_init_node (out, NULL);
  out->n = found - 1;
  return TRUE;
}

/* Reads attribute @attr of document node @i as a value. */
static gboolean
read_attr_value (Importer   *im,
                 guint       i,
                 const char *attr,
                 const char *text,
                 GraftArg   *out,
                 GError    **error)
{
  GraftValueReader vr;
  GraftArg value;
  gboolean ok = FALSE;

  _graft_value_reader_init (&vr, text, find_ref, im->index);
  vr.end = strlen (text);
  if (!_graft_value_read (&vr, GRAFT_VALUE_DOT, &value))
    node_error (im, i, error, GRAFT_PARSE_ERROR_SYNTAX, "%s of '%s': %s at character %ld",
                attr, doc_node (im, i)->name, vr.message, g_utf8_strlen (text, (gssize) vr.fail_start) + 1);
  else
    {
      _graft_value_skip_blanks (&vr);
      if (vr.pos < vr.end)
        {
          graft_arg_clear (&value);
          node_error (im, i, error, GRAFT_PARSE_ERROR_SYNTAX, "%s of '%s': unexpected text at character %ld",
                      attr, doc_node (im, i)->name, g_utf8_strlen (text, (gssize) vr.pos) + 1);
        }
      else
        {
          *out = value;
          ok = TRUE;
        }
    }
  _graft_value_reader_clear (&vr);
  return ok;
}

/* Reads the escaped text of attribute @attr of document node @i. */
static char *
read_attr_text (Importer   *im,
                guint       i,
                const char *attr,
                const char *text,
                GError    **error)
{
  g_autoptr (GString) buf = g_string_new (NULL);
  const char *end = NULL;
  const char *message = NULL;

  if (!_graft_dot_read_escaped (text, text + strlen (text), 0, buf, &end, &message))
    {
      node_error (im, i, error, GRAFT_PARSE_ERROR_SYNTAX, "%s of '%s': %s at character %ld",
                  attr, doc_node (im, i)->name, message, g_utf8_strlen (text, end - text) + 1);
      return NULL;
    }
  if (strlen (buf->str) != buf->len)
    {
      node_error (im, i, error, GRAFT_PARSE_ERROR_SYNTAX, "%s of '%s' holds a NUL character",
                  attr, doc_node (im, i)->name);
      return NULL;
    }
  return g_string_free (g_steal_pointer (&buf), FALSE);
}

/* Points the references in @arg at the nodes they name. */
static void
link_refs (GraftArg   *arg,
           GraftNode **nodes)
{
  guint n_items;

  if (arg->kind == GRAFT_ARG_NODE)
    {
      arg->node = nodes[arg->n];
      arg->n = 0;
      return;
    }
  n_items = graft_arg_count_items (arg);
  for (guint i = 0; i < n_items; i++)
    link_refs (&arg->items[i], nodes);
}

/* One Graft node, read but not yet made. */
typedef struct {
  /* Owned */
  char    *target;
  char    *type; /* nullable */
  GraftArg args;
  GraftArg kwargs;

  GraftOp  op;
  gboolean is_wrapped;
} Record;

static void
record_clear (Record *rec)
{
  g_free (rec->target);
  g_free (rec->type);
  graft_arg_clear (&rec->args);
  graft_arg_clear (&rec->kwargs);
}

static gboolean
read_record (Importer *im,
             guint     i,
             Record   *rec,
             GError  **error)
{
  GraftGvDocNode *dn = doc_node (im, i);
  const char *op = _graft_gv_doc_node_get (dn, "graft_op");
  const char *target = _graft_gv_doc_node_get (dn, "graft_target");
  const char *args = _graft_gv_doc_node_get (dn, "graft_args");
  const char *kwargs = _graft_gv_doc_node_get (dn, "graft_kwargs");
  const char *type = _graft_gv_doc_node_get (dn, "graft_type");
  const char *wrapped = _graft_gv_doc_node_get (dn, "graft_wrapped");
  gsize name_len = strlen (dn->name);

  graft_arg_init_seq (&rec->args, GRAFT_ARG_TUPLE, 0);
  graft_arg_init_dict (&rec->kwargs, 0);
  if (!graft_op_from_string (op, strlen (op), &rec->op))
    {
      node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH, "unknown graft_op '%s' of '%s'", op, dn->name);
      return FALSE;
    }
  if (name_len > GRAFT_MAX_NAME_LENGTH)
    {
      node_error (im, i, error, GRAFT_PARSE_ERROR_LIMIT,
                  "the node name is longer than %u bytes", GRAFT_MAX_NAME_LENGTH);
      return FALSE;
    }
  if (!graft_is_python_identifier (dn->name) || graft_is_python_keyword (dn->name))
    {
      node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                  "'%s' cannot name a node (a Graft node name is a Python identifier)", dn->name);
      return FALSE;
    }
  rec->target = target != NULL ? read_attr_text (im, i, "graft_target", target, error) : g_strdup ("");
  if (rec->target == NULL)
    return FALSE;
  if (type != NULL && (rec->type = read_attr_text (im, i, "graft_type", type, error)) == NULL)
    return FALSE;
  if (wrapped != NULL)
    {
      if (strcmp (wrapped, "true") != 0 && strcmp (wrapped, "false") != 0)
        {
          node_error (im, i, error, GRAFT_PARSE_ERROR_SYNTAX,
                      "graft_wrapped of '%s' must be true or false", dn->name);
          return FALSE;
        }
      rec->is_wrapped = wrapped[0] == 't';
    }
  if (args != NULL)
    {
      graft_arg_clear (&rec->args);
      if (!read_attr_value (im, i, "graft_args", args, &rec->args, error))
        return FALSE;
      if (rec->args.kind != GRAFT_ARG_TUPLE)
        {
          node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH, "graft_args of '%s' must be a tuple", dn->name);
          return FALSE;
        }
    }
  if (kwargs != NULL)
    {
      graft_arg_clear (&rec->kwargs);
      if (!read_attr_value (im, i, "graft_kwargs", kwargs, &rec->kwargs, error))
        return FALSE;
      if (rec->kwargs.kind != GRAFT_ARG_DICT)
        {
          node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH, "graft_kwargs of '%s' must be a dict", dn->name);
          return FALSE;
        }
      for (guint k = 0; k < rec->kwargs.n; k++)
        if (rec->kwargs.items[2 * k].kind != GRAFT_ARG_STR)
          {
            node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                        "graft_kwargs of '%s' must have str keys", dn->name);
            return FALSE;
          }
    }
  return TRUE;
}

static GraftGraph *
import_graft (Importer *im,
              GError  **error)
{
  guint n = im->doc->nodes->len;
  g_autofree Record *records = g_new0 (Record, MAX (n, 1));
  g_autofree GraftNode **nodes = g_new0 (GraftNode *, MAX (n, 1));
  g_autoptr (GraftGraph) graph = NULL;
  gint output = -1;
  gboolean ok = TRUE;

  for (guint i = 0; i < n && ok; i++)
    {
      if (_graft_gv_doc_node_get (doc_node (im, i), "graft_op") == NULL)
        {
          guint other = 0;

          while (_graft_gv_doc_node_get (doc_node (im, other), "graft_op") == NULL)
            other++;
          node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                      "node '%s' has no graft_op, though node '%s' has one (a Graft DOT file sets it on every node)",
                      doc_node (im, i)->name, doc_node (im, other)->name);
          ok = FALSE;
          break;
        }
      ok = read_record (im, i, &records[i], error);
      if (ok && records[i].op == GRAFT_OP_OUTPUT)
        {
          if (output >= 0)
            {
              node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH, "a second output node (the first is '%s')",
                          doc_node (im, (guint) output)->name);
              ok = FALSE;
            }
          output = (gint) i;
        }
      else if (ok && output >= 0)
        {
          node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                      "node '%s' comes after the output node", doc_node (im, i)->name);
          ok = FALSE;
        }
    }
  if (ok && output < 0)
    {
      gsize end = graft_source_get_length (im->source);

      graft_set_error_at_offset (error, im->source, end, end, GRAFT_PARSE_ERROR_GRAPH,
                                 "the graph has no output node");
      ok = FALSE;
    }

  if (ok)
    {
      graph = graft_graph_new ();
      graft_graph_set_source (graph, im->source);
      for (guint i = 0; i < n; i++)
        {
          Record *rec = &records[i];
          const char *name = doc_node (im, i)->name;

          /* A fresh namespace holds nothing, and cgraph's names are
           * unique; checked all the same. */
          if (graft_namespace_contains (graft_graph_get_namespace (graph), name))
            {
              node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH, "'%s' cannot name a node", name);
              ok = FALSE;
              break;
            }
          nodes[i] = graft_graph_create_node_named (graph, rec->op, rec->target, NULL, NULL, name, NULL);
          graft_node_set_type_annotation (nodes[i], rec->type);
          graft_node_set_is_wrapped (nodes[i], rec->is_wrapped);
          graft_node_set_span (nodes[i], im->spans[i].start, im->spans[i].end);
        }
      for (guint i = 0; i < n && ok; i++)
        {
          link_refs (&records[i].args, nodes);
          link_refs (&records[i].kwargs, nodes);
          graft_graph_set_args (graph, nodes[i], &records[i].args, &records[i].kwargs);
        }
    }
  for (guint i = 0; i < n; i++)
    record_clear (&records[i]);
  return ok ? g_steal_pointer (&graph) : NULL;
}

/* A small binary min-heap of document node indices. */
static void
heap_push (GArray *heap,
           guint   value)
{
  guint *h;
  guint i;

  g_array_append_val (heap, value);
  h = &g_array_index (heap, guint, 0);
  for (i = heap->len - 1; i > 0 && h[(i - 1) / 2] > h[i]; i = (i - 1) / 2)
    {
      guint tmp = h[i];

      h[i] = h[(i - 1) / 2];
      h[(i - 1) / 2] = tmp;
    }
}

static guint
heap_pop (GArray *heap)
{
  guint *h = &g_array_index (heap, guint, 0);
  guint top = h[0];
  guint n = heap->len - 1;
  guint i = 0;

  h[0] = h[n];
  g_array_set_size (heap, n);
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;

      if (l < n && h[l] < h[m])
        m = l;
      if (r < n && h[r] < h[m])
        m = r;
      if (m == i)
        break;
      h[m] ^= h[i];
      h[i] ^= h[m];
      h[m] ^= h[i];
      i = m;
    }
  return top;
}

/* The first node in file order that lies on a cycle, by Tarjan's strongly
 * connected components (iterative, so a long chain cannot overflow the
 * stack).  @succ_start/@succ are the out-edges in CSR form. */
static guint
first_node_on_cycle (guint        n,
                     const guint *succ_start,
                     const guint *succ)
{
  g_autofree guint *order = g_new (guint, n);
  g_autofree guint *low = g_new (guint, n);
  g_autofree gboolean *on_stack = g_new0 (gboolean, n);
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint) * 2);
  guint counter = 0;
  guint best = G_MAXUINT;

  for (guint v = 0; v < n; v++)
    {
      order[v] = G_MAXUINT;
      for (guint k = succ_start[v]; k < succ_start[v + 1]; k++)
        if (succ[k] == v)
          best = MIN (best, v);
    }
  for (guint s = 0; s < n; s++)
    {
      guint frame[2] = { s, succ_start[s] };

      if (order[s] != G_MAXUINT)
        continue;
      order[s] = low[s] = counter++;
      g_array_append_val (stack, s);
      on_stack[s] = TRUE;
      g_array_append_val (frames, frame);
      while (frames->len > 0)
        {
          guint *top = &g_array_index (frames, guint, 2 * (frames->len - 1));
          guint v = top[0];

          if (top[1] < succ_start[v + 1])
            {
              guint w = succ[top[1]++];

              if (order[w] == G_MAXUINT)
                {
                  guint next[2] = { w, succ_start[w] };

                  order[w] = low[w] = counter++;
                  g_array_append_val (stack, w);
                  on_stack[w] = TRUE;
                  g_array_append_val (frames, next);
                }
              else if (on_stack[w])
                low[v] = MIN (low[v], order[w]);
              continue;
            }
          g_array_set_size (frames, frames->len - 1);
          if (frames->len > 0)
            {
              guint parent = g_array_index (frames, guint, 2 * (frames->len - 1));

              low[parent] = MIN (low[parent], low[v]);
            }
          if (low[v] == order[v])
            {
              guint size = 0, smallest = G_MAXUINT, w;

              do
                {
                  w = g_array_index (stack, guint, stack->len - 1);
                  g_array_set_size (stack, stack->len - 1);
                  on_stack[w] = FALSE;
                  smallest = MIN (smallest, w);
                  size++;
                }
              while (w != v);
              if (size > 1)
                best = MIN (best, smallest);
            }
        }
    }
  return best;
}

/* A call_function target from a plain node's label, as the file comment
 * says; %NULL when nothing is left of it. */
static char *
target_from_label (const char *label,
                   const char *node_name,
                   const char *graph_name)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GString) target = g_string_new (NULL);
  const char *p;

  /* Expand the escString. */
  for (p = label; *p != '\0'; p++)
    {
      if (*p != '\\' || p[1] == '\0')
        {
          g_string_append_c (text, *p);
          continue;
        }
      p++;
      switch (*p)
        {
        case 'N':
          g_string_append (text, node_name);
          break;
        case 'G':
          /* cgraph names an anonymous graph `%N`. */
          if (graph_name != NULL && graph_name[0] != '%')
            g_string_append (text, graph_name);
          break;
        case 'n':
        case 'l':
        case 'r':
          g_string_append_c (text, ' ');
          break;
        case 'E':
        case 'T':
        case 'H':
        case 'L':
          break;
        default:
          g_string_append_c (text, *p);
          break;
        }
    }

  /* Each dot-separated part, cleaned. */
  p = text->str;
  for (;;)
    {
      const char *end = strchr (p, '.');
      gsize part_start;
      gboolean pending = FALSE;

      if (end == NULL)
        end = p + strlen (p);
      if (target->len > 0)
        g_string_append_c (target, '.');
      part_start = target->len;
      for (const char *q = p; q < end; q++)
        {
          if (g_ascii_isalnum (*q) || *q == '_')
            {
              if (pending && target->len > part_start)
                g_string_append_c (target, '_');
              pending = FALSE;
              g_string_append_c (target, *q);
            }
          else
            pending = TRUE;
        }
      if (target->len == part_start)
        {
          /* An empty part goes, with its dot. */
          g_string_truncate (target, part_start > 0 ? part_start - 1 : 0);
        }
      else
        {
          if (g_ascii_isdigit (target->str[part_start]))
            g_string_insert_c (target, (gssize) part_start, '_');
          if (graft_is_python_keyword (target->str + part_start))
            g_string_append_c (target, '_');
        }
      if (*end == '\0')
        break;
      p = end + 1;
    }
  if (target->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&target), FALSE);
}

static GraftGraph *
import_plain (Importer *im,
              GError  **error)
{
  GraftGvDoc *doc = im->doc;
  guint n = doc->nodes->len;
  guint n_edges = doc->edges->len;
  g_autofree guint *in_degree = g_new0 (guint, MAX (n, 1));
  g_autofree guint *pred_start = g_new0 (guint, n + 1);
  g_autofree guint *pred = g_new (guint, MAX (n_edges, 1));
  g_autofree guint *succ_start = g_new0 (guint, n + 1);
  g_autofree guint *succ = g_new (guint, MAX (n_edges, 1));
  g_autofree guint *fill = g_new0 (guint, MAX (n, 1));
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  g_autofree GraftNode **nodes = g_new0 (GraftNode *, MAX (n, 1));
  g_autoptr (GArray) heap = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GraftNamespace) names = graft_namespace_new ();
  g_autoptr (GraftGraph) graph = graft_graph_new ();
  g_autoptr (GArray) sinks = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n_ordered = 0;
  GraftArg out_args;

  for (guint i = 0; i < n; i++)
    if (strlen (doc_node (im, i)->name) > GRAFT_MAX_NAME_LENGTH)
      {
        node_error (im, i, error, GRAFT_PARSE_ERROR_LIMIT,
                    "the node name is longer than %u bytes", GRAFT_MAX_NAME_LENGTH);
        return NULL;
      }

  /* In-edges and out-edges per node, each in file order. */
  for (guint e = 0; e < n_edges; e++)
    {
      GraftGvDocEdge *edge = &g_array_index (doc->edges, GraftGvDocEdge, e);

      pred_start[edge->head + 1]++;
      succ_start[edge->tail + 1]++;
    }
  for (guint i = 0; i < n; i++)
    {
      pred_start[i + 1] += pred_start[i];
      succ_start[i + 1] += succ_start[i];
      in_degree[i] = pred_start[i + 1] - pred_start[i];
    }
  for (guint e = 0; e < n_edges; e++)
    {
      GraftGvDocEdge *edge = &g_array_index (doc->edges, GraftGvDocEdge, e);

      pred[pred_start[edge->head] + fill[edge->head]++] = edge->tail;
    }
  memset (fill, 0, sizeof (guint) * MAX (n, 1));
  for (guint e = 0; e < n_edges; e++)
    {
      GraftGvDocEdge *edge = &g_array_index (doc->edges, GraftGvDocEdge, e);

      succ[succ_start[edge->tail] + fill[edge->tail]++] = edge->head;
    }

  /* Placeholders first, then Kahn's algorithm, earliest in file first. */
  for (guint i = 0; i < n; i++)
    if (in_degree[i] == 0)
      order[n_ordered++] = i;
  for (guint k = 0; k < n_ordered || heap->len > 0;)
    {
      guint v;

      if (k < n_ordered)
        v = order[k++];
      else
        {
          v = heap_pop (heap);
          order[n_ordered++] = v;
          k = n_ordered;
        }
      for (guint s = succ_start[v]; s < succ_start[v + 1]; s++)
        if (--in_degree[succ[s]] == 0)
          heap_push (heap, succ[s]);
    }
  if (n_ordered < n)
    {
      guint on_cycle = first_node_on_cycle (n, succ_start, succ);

      if (on_cycle >= n)
        on_cycle = 0; /* Cannot happen: what Kahn leaves holds a cycle. */
      node_error (im, on_cycle, error, GRAFT_PARSE_ERROR_GRAPH,
                  "the graph has a cycle through '%s'", doc_node (im, on_cycle)->name);
      return NULL;
    }

  graft_graph_set_source (graph, im->source);
  for (guint k = 0; k < n; k++)
    {
      guint v = order[k];
      GraftGvDocNode *dn = doc_node (im, v);
      const char *name = graft_namespace_create_name (names, dn->name, GRAFT_NAME_DEFAULT);
      guint n_preds = pred_start[v + 1] - pred_start[v];

      if (n_preds == 0)
        nodes[v] = graft_graph_create_node_named (graph, GRAFT_OP_PLACEHOLDER, name, NULL, NULL, name, NULL);
      else
        {
          const char *label = _graft_gv_doc_node_get (dn, "label");
          g_autofree char *target = target_from_label (label != NULL ? label : dn->name, dn->name, doc->name);
          GraftArg args, kwargs;

          if (target != NULL && strlen (target) > GRAFT_MAX_NAME_LENGTH)
            {
              node_error (im, v, error, GRAFT_PARSE_ERROR_LIMIT,
                          "the label of '%s' is longer than %u bytes", dn->name, GRAFT_MAX_NAME_LENGTH);
              return NULL;
            }
          graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, n_preds);
          for (guint a = 0; a < n_preds; a++)
            graft_arg_init_node (&args.items[a], nodes[pred[pred_start[v] + a]]);
          graft_arg_init_dict (&kwargs, 0);
          nodes[v] = graft_graph_create_node_named (graph, GRAFT_OP_CALL_FUNCTION, target != NULL ? target : name,
                                                    &args, &kwargs, name, NULL);
        }
      graft_node_set_span (nodes[v], im->spans[v].start, im->spans[v].end);
    }

  /* The sinks, in file order. */
  for (guint i = 0; i < n; i++)
    if (succ_start[i + 1] == succ_start[i])
      g_array_append_val (sinks, i);
  graft_arg_init_seq (&out_args, GRAFT_ARG_TUPLE, 1);
  if (sinks->len == 1)
    graft_arg_init_node (&out_args.items[0], nodes[g_array_index (sinks, guint, 0)]);
  else if (sinks->len > 1)
    {
      graft_arg_init_seq (&out_args.items[0], GRAFT_ARG_TUPLE, sinks->len);
      for (guint s = 0; s < sinks->len; s++)
        graft_arg_init_node (&out_args.items[0].items[s], nodes[g_array_index (sinks, guint, s)]);
    }
  {
    const char *name = graft_namespace_create_name (names, "output", GRAFT_NAME_DEFAULT);
    GraftArg kwargs;

    graft_arg_init_dict (&kwargs, 0);
    graft_graph_create_node_named (graph, GRAFT_OP_OUTPUT, "output", &out_args, &kwargs, name, NULL);
  }
  return g_steal_pointer (&graph);
}

/**
 * graft_dot_parse:
 * @source: DOT text
 * @error: return location for a located error
 *
 * Reads a directed DOT graph: Graft's own DOT (graft_dot_print()) back
 * into the graph it was written from, any other DOT as a dataflow graph.
 * The file comment of graft-dot.c gives the rules.
 *
 * Returns: (transfer full) (nullable): the graph, or %NULL with @error set
 */
GraftGraph *
graft_dot_parse (GraftSource *source,
                 GError     **error)
{
  const char *text;
  gsize length;
  const char *nul;
  const char *bad = NULL;
  g_autoptr (GraftGvDoc) doc = NULL;
  g_autoptr (GraftSource) cleaned = NULL;
  Importer im = { 0 };
  gboolean is_graft = FALSE;
  GraftGraph *graph;
  GraftGvDocReader read_doc = _graft_gv_get_doc_reader ();

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (read_doc == NULL)
    {
      graft_set_error_at_offset (error, source, 0, 0, GRAFT_PARSE_ERROR_NO_DOT_READER,
                                 "this program reads no DOT: it does not link Graphviz (graft-render does)");
      return NULL;
    }
  text = graft_source_get_text (source);
  length = graft_source_get_length (source);
  if (length > GRAFT_MAX_DOT_BYTES)
    {
      graft_set_error_at_offset (error, source, 0, 0, GRAFT_PARSE_ERROR_LIMIT,
                                 "DOT input is larger than %u MiB", GRAFT_MAX_DOT_BYTES / (1024u * 1024u));
      return NULL;
    }
  nul = memchr (text, '\0', length);
  if (nul != NULL)
    {
      graft_set_error_at_offset (error, source, (gsize) (nul - text), (gsize) (nul - text) + 1,
                                 GRAFT_PARSE_ERROR_SYNTAX, "a NUL byte in DOT text");
      return NULL;
    }
  if (!g_utf8_validate_len (text, length, &bad))
    {
      graft_set_error_at_offset (error, source, (gsize) (bad - text), (gsize) (bad - text) + 1, GRAFT_PARSE_ERROR_SYNTAX,
                                 "DOT input is not valid UTF-8 (byte 0x%02x)", (guchar) *bad);
      return NULL;
    }
  if (!check_text (source, error))
    return NULL;

  /* cgraph would take a byte order mark for part of a name; spaces keep
   * the lines where they are. */
  if (length >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    {
      g_autofree char *copy = g_strndup (text, length);

      memset (copy, ' ', 3);
      cleaned = graft_source_new (graft_source_get_filename (source), copy, (gssize) length);
    }
  doc = read_doc (cleaned != NULL ? cleaned : source, error);
  if (doc == NULL)
    return NULL;

  im.source = source;
  im.doc = doc;
  im.index = g_hash_table_new (g_str_hash, g_str_equal);
  im.spans = g_new0 (Span, MAX (doc->nodes->len, 1));
  for (guint i = 0; i < doc->nodes->len; i++)
    {
      g_hash_table_insert (im.index, doc_node (&im, i)->name, GUINT_TO_POINTER (i + 1));
      if (_graft_gv_doc_node_get (doc_node (&im, i), "graft_op") != NULL)
        is_graft = TRUE;
    }
  find_node_spans (text, length, im.index, im.spans);

  graph = is_graft ? import_graft (&im, error) : import_plain (&im, error);
  importer_clear (&im);
  return graph;
}
