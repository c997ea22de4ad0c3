/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-listing-reader.c: reads the graph listing that torch.fx's
 * `Graph.__str__` writes (`print(gm.graph)`, see graft-listing.c for the
 * writer) back into a graph.  A listing that torch 1.13.1 printed reads back
 * into a graph whose listing is the same text and whose code is what torch
 * generated.  Both forms of the user count, `[#users=N]` (1.13.1) and
 * `[num_users=N]` (2.x), are read in either dialect; the graph prints back
 * in the dialect it is read for.
 *
 * The listing was made for people, not for reading back, and some values
 * lose their type in it.  Values are read by the value reader that the DOT
 * reader shares (graft-value-reader.c, which also gives the one rule for
 * ints: as Python prints them, beyond 64 bits a symbol of their digits).
 * The reader decides as follows:
 *
 *  - Node arguments are printed with torch.fx's `_format_arg`: nodes as
 *    `%name`, and every value that is not a container as `str(value)`, so a
 *    string is unquoted.  A bare word is read as None, True, False,
 *    Ellipsis, an int, a float (`1e-05`, `inf`, `-inf`, `nan`), an
 *    imaginary number (`1j`), a `torch.`-dotted symbol (`torch.float32`) or
 *    `slice(...)` when it reads as one, and as a str otherwise.  So the str
 *    `'1'` comes back as the int 1, `'None'` as None, and a `torch.device`
 *    (printed `cpu`, `cuda:0`) comes back as the str `'cpu'` (its code is
 *    then `'cpu'`, not `device(type='cpu')`).  A str holding `, ` or an
 *    unbalanced bracket, or starting with `%`, `(`, `[` or `{`, cannot be
 *    told from the syntax around it; one holding a line break ends its line.
 *    Dict keys in arguments are always read as str.
 *  - The `return` line and placeholder defaults use Python's `str`, which is
 *    the repr of a container: there strings are quoted and nodes are bare
 *    names.  A bare name at the top of a `return` line is a node (a returned
 *    str or device cannot be read back); a bare word as a whole default is
 *    read as in arguments, so `(default=a)` is the str `'a'`.
 *  - What the listing does not show is lost: the output's type annotation
 *    (code's `-> T`), typing annotations in their code spelling, and which
 *    call_function nodes come from wrapped functions.  For the last one the
 *    reader marks every call_function whose target is not from torch,
 *    `operator` or `builtins` as wrapped, since in a traced graph such a
 *    call can only come from `torch.fx.wrap` or the auto-wrapped `math`.
 *
 * Node names are kept as written, except that a name the reader itself
 * reads as a constant (a keyword, `inf`, `nan`, `Ellipsis`) is refused.
 * Arguments may refer to nodes defined later in the file (a rewrite can
 * produce such graphs); every name must be defined somewhere, once.  The
 * declared user counts must agree with the uses.  Errors point at the
 * offending token.  The text is read in one pass over its lines, then the
 * nodes are made and their arguments linked, all in linear time; nesting is
 * bounded by GRAFT_MAX_PARSE_DEPTH.
 */
#include "config.h"

#include "graft-listing.h"
#include "graft-arg.h"
#include "graft-error.h"
#include "graft-graph.h"
#include "graft-limits.h"
#include "graft-namespace.h"
#include "graft-source.h"
#include "graft-value-reader-private.h"

#include <errno.h>
#include <string.h>

/* One line that defines a node (or the `return` line), read but not yet
 * turned into a node: node references in its arguments are still names. */
typedef struct
{
  /* Owned */
  char    *target;
  char    *type;   /* nullable */
  GraftArg args;   /* a tuple; references are unresolved (see Ref) */
  GraftArg kwargs; /* a dict */

  guint32 line_start;
  guint32 line_end;
  guint32 name_start; /* the name, without `%`, in the text */
  guint32 name_len;
  guint32 users_start; /* the declared user count's digits */
  guint32 users_end;
  guint   users;
  GraftOp op;
} Record;

/* A node reference met in an argument.  Until the nodes exist, the
 * argument is a GRAFT_ARG_NODE with a NULL node whose `n` is the index of
 * its Ref. */
typedef struct
{
  guint32 start; /* the reference as written (`%x` or `x`) */
  guint32 end;
  guint32 name_start; /* the name within it */
  guint   record;     /* the defining record, once resolved */
} Ref;

typedef struct
{
  /* Borrowed */
  GraftSource        *source;
  const char         *text;
  const GraftDialect *dialect; /* static */

  /* Owned */
  GArray          *records; /* Record */
  GArray          *refs;    /* Ref */
  GHashTable      *names;   /* name (owned) -> record index + 1 */
  GraftValueReader values;

  gsize length;
  gsize pos; /* the cursor, within the current line */
  gsize end; /* the end of the current line (before its break) */
} Reader;

static gboolean
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static gboolean
looking_at (Reader     *r,
            const char *s)
{
  gsize n = strlen (s);

  return r->end - r->pos >= n && memcmp (r->text + r->pos, s, n) == 0;
}

/* Where @needle first occurs in [from, r->end), or -1. */
static gssize
find_in_line (Reader     *r,
              gsize       from,
              const char *needle)
{
  gsize n = strlen (needle);

  for (gsize i = from; i + n <= r->end; i++)
    if (r->text[i] == needle[0] && memcmp (r->text + i, needle, n) == 0)
      return (gssize) i;
  return -1;
}

static gboolean
fail (Reader             *r,
      gsize               start,
      gsize               end,
      GraftParseErrorCode code,
      GError            **error,
      const char         *message)
{
  graft_set_error_at_offset (error, r->source, start, end, code, "%s", message);
  return FALSE;
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
  graft_set_error_at_offset (error, r->source, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX,
                             "%sexpected '%s'", r->pos >= r->end ? "unexpected end of line; " : "",
                             s);
  return FALSE;
}

static gboolean
span_is (const char *s,
         gsize       len,
         const char *word)
{
  return strlen (word) == len && memcmp (s, word, len) == 0;
}

static void
skip_spaces (Reader *r)
{
  while (r->pos < r->end && r->text[r->pos] == ' ')
    r->pos++;
}

/* A node reference in a value: a GRAFT_ARG_NODE with a NULL node whose
 * `n` is the index of its Ref. */
static gboolean
add_ref (GraftValueReader *vr,
         gsize             start,
         gsize             name_start,
         gsize             end,
         GraftArg         *out)
{
  Reader *r = vr->user_data;
  Ref     ref = { (guint32) start, (guint32) end, (guint32) name_start, 0 };

  if (end - name_start > GRAFT_MAX_NAME_LENGTH)
    return _graft_value_fail (vr, start, end, GRAFT_PARSE_ERROR_LIMIT, "the node name is too long");
  graft_arg_init_node (out, NULL);
  out->n = r->refs->len;
  g_array_append_val (r->refs, ref);
  return TRUE;
}

/* A value at the cursor, read by the shared value reader. */
static gboolean
parse_value (Reader         *r,
             GraftValueStyle style,
             GraftArg       *out,
             GError        **error)
{
  GraftValueReader *vr = &r->values;

  vr->pos = r->pos;
  vr->end = r->end;
  vr->depth = 0;
  if (!_graft_value_read (vr, style, out))
    {
      graft_set_error_at_offset (error, r->source, vr->fail_start, vr->fail_end, vr->fail_code,
                                 "%s", vr->message);
      return FALSE;
    }
  r->pos = vr->pos;
  return TRUE;
}

/* A value that must fill [r->pos, r->end), in repr style. */
static gboolean
parse_whole_repr (Reader   *r,
                  GraftArg *out,
                  GError  **error)
{
  if (!parse_value (r, GRAFT_VALUE_REPR, out, error))
    return FALSE;
  skip_spaces (r);
  if (r->pos < r->end)
    {
      graft_arg_clear (out);
      return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                   "unexpected text after the value");
    }
  return TRUE;
}

/* A placeholder's `(default=...)`: Python's `str(default)`. */
static gboolean
parse_default (Reader   *r,
               GraftArg *out,
               GError  **error)
{
  char  c = r->pos < r->end ? r->text[r->pos] : '\0';
  gsize start = r->pos;

  if (c == '(' || c == '[' || c == '{' || looking_at (r, "slice("))
    {
      guint n_refs = r->refs->len;

      if (!parse_whole_repr (r, out, error))
        return FALSE;
      if (graft_arg_has_node (out))
        {
          graft_arg_clear (out);
          g_array_set_size (r->refs, n_refs);
          return fail (r, start, r->end, GRAFT_PARSE_ERROR_GRAPH, error,
                       "a placeholder default cannot refer to a node");
        }
      return TRUE;
    }
  _graft_value_read_word (r->text + r->pos, r->end - r->pos, out);
  r->pos = r->end;
  return TRUE;
}

static void
record_clear (Record *rec)
{
  g_clear_pointer (&rec->target, g_free);
  g_clear_pointer (&rec->type, g_free);
  graft_arg_clear (&rec->args);
  graft_arg_clear (&rec->kwargs);
}

static gboolean
is_reserved_name (const char *s,
                  gsize       len)
{
  static const char *const constants[] = { "inf", "nan", "Ellipsis", "infj", "nanj" };
  char                     copy[16];

  /* No keyword or constant is longer than 8 characters. */
  if (len >= sizeof copy)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (constants); i++)
    if (span_is (s, len, constants[i]))
      return TRUE;
  memcpy (copy, s, len);
  copy[len] = '\0';
  return graft_is_python_keyword (copy);
}

/* `%name : [TYPE ][#users=N] = ` up to the op, the cursor after the
 * indentation. */
static gboolean
parse_node_head (Reader  *r,
                 Record  *rec,
                 GError **error)
{
  gsize            start = r->pos, users_mark, i;
  gssize           found;
  const char      *marker = "[#users=";
  g_autofree char *digits = NULL;
  guint64          users;

  r->pos++;
  while (r->pos < r->end && is_ident_char (r->text[r->pos]))
    r->pos++;
  if (r->pos == start + 1 || g_ascii_isdigit (r->text[start + 1]))
    return fail (r, start, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "expected a node name after '%'");
  if (r->pos - start - 1 > GRAFT_MAX_NAME_LENGTH)
    return fail (r, start, r->pos, GRAFT_PARSE_ERROR_LIMIT, error, "the node name is too long");
  if (is_reserved_name (r->text + start + 1, r->pos - start - 1))
    return fail (r, start, r->pos, GRAFT_PARSE_ERROR_GRAPH, error,
                 "this name is reserved in Python and cannot name a node");
  rec->name_start = (guint32) (start + 1);
  rec->name_len = (guint32) (r->pos - start - 1);
  if (!expect (r, " : ", error))
    return FALSE;

  /* An optional type, then `[#users=N]` (1.13.1) or `[num_users=N]`. */
  found = find_in_line (r, r->pos, "[#users=");
  {
    gssize other = find_in_line (r, r->pos, "[num_users=");

    if (other >= 0 && (found < 0 || other < found))
      {
        found = other;
        marker = "[num_users=";
      }
  }
  if (found < 0)
    {
      g_autofree char *message = g_strdup_printf ("expected '[%s=N]'", r->dialect->users_field);

      return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error, message);
    }
  if ((gsize) found > r->pos)
    {
      if (r->text[found - 1] != ' ' || (gsize) found - 1 == r->pos)
        return fail (r, r->pos, found, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "expected a type followed by a space before the user count");
      if (memchr (r->text + r->pos, '\0', found - 1 - r->pos) != NULL)
        return fail (r, r->pos, found - 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "the type contains a NUL byte");
      rec->type = g_strndup (r->text + r->pos, found - 1 - r->pos);
    }
  r->pos = found + strlen (marker);
  users_mark = r->pos;
  for (i = r->pos; i < r->end && g_ascii_isdigit (r->text[i]); i++)
    ;
  if (i == users_mark)
    return fail (r, users_mark, users_mark + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "expected the number of users");
  digits = g_strndup (r->text + users_mark, i - users_mark);
  errno = 0;
  users = g_ascii_strtoull (digits, NULL, 10);
  if (errno == ERANGE || users > G_MAXUINT32 || i - users_mark > 10)
    return fail (r, users_mark, i, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "the number of users is out of range");
  rec->users = (guint) users;
  rec->users_start = (guint32) users_mark;
  rec->users_end = (guint32) i;
  r->pos = i;
  return expect (r, "] = ", error);
}

/* `op[target=T]...` after the head. */
static gboolean
parse_node_body (Reader  *r,
                 Record  *rec,
                 GError **error)
{
  gsize  op_start = r->pos, target_start;
  gssize close;

  while (r->pos < r->end && (is_ident_char (r->text[r->pos])))
    r->pos++;
  if (!graft_op_from_string (r->text + op_start, r->pos - op_start, &rec->op))
    return fail (r, op_start, r->pos + (r->pos == op_start), GRAFT_PARSE_ERROR_SYNTAX, error,
                 "expected an op: placeholder, get_attr, call_function, call_method or "
                 "call_module");
  if (rec->op == GRAFT_OP_OUTPUT)
    return fail (r, op_start, r->pos, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "the output is written as a 'return' line");
  if (!expect (r, "[target=", error))
    return FALSE;
  target_start = r->pos;

  switch (rec->op)
    {
    case GRAFT_OP_PLACEHOLDER:
      close = find_in_line (r, target_start, "](default=");
      if (close < 0)
        {
          if (r->end == target_start || r->text[r->end - 1] != ']')
            return fail (r, r->end, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                         "expected ']' at the end of the line");
          close = (gssize) r->end - 1;
          r->pos = r->end;
        }
      else
        {
          if (r->text[r->end - 1] != ')')
            return fail (r, r->end, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                         "expected ')' at the end of the line");
          r->pos = close + strlen ("](default=");
          r->end--;
          if (!parse_default (r, &rec->args, error))
            {
              r->end++;
              return FALSE;
            }
          r->end++;
          {
            GraftArg value = rec->args;

            graft_arg_init_seq (&rec->args, GRAFT_ARG_TUPLE, 1);
            rec->args.items[0] = value;
          }
          r->pos = r->end;
        }
      break;

    case GRAFT_OP_GET_ATTR:
      if (r->end == target_start || r->text[r->end - 1] != ']')
        return fail (r, r->end, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "expected ']' at the end of the line");
      close = (gssize) r->end - 1;
      r->pos = r->end;
      break;

    case GRAFT_OP_CALL_FUNCTION:
    case GRAFT_OP_CALL_METHOD:
    case GRAFT_OP_CALL_MODULE:
      close = find_in_line (r, target_start, "](args = ");
      if (close < 0)
        return fail (r, target_start, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "expected '](args = ' after the target");
      r->pos = close + strlen ("](args = ");
      if (!looking_at (r, "("))
        return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "expected the args tuple");
      {
        gsize args_start = r->pos;

        if (!parse_value (r, GRAFT_VALUE_LISTING, &rec->args, error))
          return FALSE;
        if (rec->args.kind != GRAFT_ARG_TUPLE)
          return fail (r, args_start, r->pos, GRAFT_PARSE_ERROR_SYNTAX, error,
                       "expected the args tuple");
      }
      if (!expect (r, ", kwargs = ", error))
        return FALSE;
      if (!looking_at (r, "{"))
        return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "expected the kwargs dict");
      if (!parse_value (r, GRAFT_VALUE_LISTING, &rec->kwargs, error) || !expect (r, ")", error))
        return FALSE;
      if (r->pos < r->end)
        return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error,
                     "unexpected text at the end of the line");
      break;

    case GRAFT_OP_OUTPUT:
    default:
      g_assert_not_reached ();
      return FALSE;
    }

  if ((gsize) close == target_start)
    return fail (r, target_start, target_start + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "the target is empty");
  if (memchr (r->text + target_start, '\0', close - target_start) != NULL)
    return fail (r, target_start, close, GRAFT_PARSE_ERROR_SYNTAX, error,
                 "the target contains a NUL byte");
  rec->target = g_strndup (r->text + target_start, close - target_start);
  return TRUE;
}

/* A call_function target that is neither torch's nor an operator or a
 * builtin can only have been recorded through `torch.fx.wrap` (or the
 * auto-wrapped `math`), whose code has a `wrap(...)` line. */
static gboolean
target_is_wrapped (const char *target)
{
  static const char *const prefixes[] = {
    "torch.",
    "operator.",
    "_operator.",
    "builtins.",
    "aten.",
    "prims.",
  };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (target, prefixes[i]))
      return FALSE;
  return strchr (target, '.') != NULL;
}

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
      g_string_append_len (name, r->text + ref->name_start, ref->end - ref->name_start);
      index = g_hash_table_lookup (r->names, name->str);
      if (index == NULL)
        {
          graft_set_error_at_offset (error, r->source, ref->start, ref->end,
                                     GRAFT_PARSE_ERROR_GRAPH, "%s%s is not defined",
                                     ref->name_start > ref->start ? "%" : "", name->str);
          return FALSE;
        }
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

static void
reader_clear (Reader *r)
{
  for (guint i = 0; i < r->records->len; i++)
    record_clear (&g_array_index (r->records, Record, i));
  g_array_unref (r->records);
  g_array_unref (r->refs);
  _graft_value_reader_clear (&r->values);
  g_hash_table_unref (r->names);
}

/* Reads one line [start, end) after the header into a record.  Sets
 * *out_is_return for the `return` line. */
static gboolean
parse_line (Reader   *r,
            gsize     start,
            gsize     end,
            gboolean *out_is_return,
            GError  **error)
{
  Record   rec = { 0 };
  gboolean ok;

  r->pos = start;
  r->end = end;
  graft_arg_init_seq (&rec.args, GRAFT_ARG_TUPLE, 0);
  graft_arg_init_dict (&rec.kwargs, 0);
  rec.line_start = (guint32) start;
  rec.line_end = (guint32) end;
  while (r->pos < r->end && (r->text[r->pos] == ' ' || r->text[r->pos] == '\t'))
    r->pos++;
  *out_is_return = FALSE;

  if (looking_at (r, "return") &&
      (r->pos + 6 == r->end || r->text[r->pos + 6] == ' '))
    {
      GraftArg value;

      *out_is_return = TRUE;
      r->pos += 6;
      skip_spaces (r);
      rec.op = GRAFT_OP_OUTPUT;
      rec.target = g_strdup ("output");
      ok = parse_whole_repr (r, &value, error);
      if (ok)
        {
          graft_arg_clear (&rec.args);
          graft_arg_init_seq (&rec.args, GRAFT_ARG_TUPLE, 1);
          rec.args.items[0] = value;
        }
    }
  else if (r->pos < r->end && r->text[r->pos] == '%')
    {
      ok = parse_node_head (r, &rec, error) && parse_node_body (r, &rec, error);
      if (ok)
        {
          g_autofree char *name = g_strndup (r->text + rec.name_start, rec.name_len);
          gpointer         previous = g_hash_table_lookup (r->names, name);

          if (previous != NULL)
            {
              Record *first = &g_array_index (r->records, Record, GPOINTER_TO_UINT (previous) - 1);
              guint   line;

              graft_source_locate (r->source, first->line_start, &line, NULL);
              graft_set_error_at_offset (error, r->source, rec.name_start - 1,
                                         rec.name_start + rec.name_len, GRAFT_PARSE_ERROR_GRAPH,
                                         "%%%s is already defined on line %u", name, line);
              ok = FALSE;
            }
          else
            g_hash_table_insert (r->names, g_steal_pointer (&name),
                                 GUINT_TO_POINTER (r->records->len + 1));
        }
    }
  else
    ok = fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error,
               "expected a node ('%name : ...') or 'return'");

  if (!ok)
    {
      record_clear (&rec);
      return FALSE;
    }
  g_array_append_val (r->records, rec);
  return TRUE;
}

/* Builds the graph from the records: every node first, then the arguments,
 * so that references to later nodes link like any other. */
static GraftGraph *
build_graph (Reader  *r,
             GError **error)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (r->dialect);
  g_autofree GraftNode **nodes = g_new (GraftNode *, r->records->len);

  graft_graph_set_source (graph, r->source);

  for (guint i = 0; i < r->records->len; i++)
    {
      Record *rec = &g_array_index (r->records, Record, i);

      if (rec->op == GRAFT_OP_OUTPUT)
        nodes[i] =
            graft_graph_create_node (graph, rec->op, rec->target, NULL, NULL, "output", NULL);
      else
        {
          g_autofree char *name = g_strndup (r->text + rec->name_start, rec->name_len);

          nodes[i] =
              graft_graph_create_node_named (graph, rec->op, rec->target, NULL, NULL, name, NULL);
        }
      if (nodes[i] == NULL)
        {
          /* Names are checked when read, so this cannot happen. */
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH, "cannot create node %u", i);
          return NULL;
        }
      graft_node_set_type_annotation (nodes[i], rec->type);
      graft_node_set_span (nodes[i], rec->line_start, rec->line_end);
      if (rec->op == GRAFT_OP_CALL_FUNCTION && target_is_wrapped (rec->target))
        graft_node_set_is_wrapped (nodes[i], TRUE);
    }

  for (guint i = 0; i < r->records->len; i++)
    {
      Record *rec = &g_array_index (r->records, Record, i);

      link_refs (r, &rec->args, nodes);
      link_refs (r, &rec->kwargs, nodes);
      graft_graph_set_args (graph, nodes[i], &rec->args, &rec->kwargs);
    }

  for (guint i = 0; i < r->records->len; i++)
    {
      Record *rec = &g_array_index (r->records, Record, i);
      guint   actual = graft_node_get_n_users (nodes[i]);

      if (rec->op == GRAFT_OP_OUTPUT || actual == rec->users)
        continue;
      graft_set_error_at_offset (error, r->source, rec->users_start, rec->users_end,
                                 GRAFT_PARSE_ERROR_GRAPH,
                                 "node %%%s declares %u user%s but %u node%s %s it",
                                 graft_node_get_name (nodes[i]), rec->users,
                                 rec->users == 1 ? "" : "s", actual, actual == 1 ? "" : "s",
                                 actual == 1 ? "uses" : "use");
      return NULL;
    }
  return g_steal_pointer (&graph);
}

/* The end of the line that starts at @start (before its break), and the
 * start of the next one. */
static gsize
line_end (const char *text,
          gsize       length,
          gsize       start,
          gsize      *out_next)
{
  gsize i = start;

  while (i < length && text[i] != '\n' && text[i] != '\r')
    i++;
  *out_next = i;
  if (i < length && text[i] == '\r' && i + 1 < length && text[i + 1] == '\n')
    *out_next = i + 2;
  else if (i < length)
    *out_next = i + 1;
  return i;
}

static gboolean
line_is_blank (const char *text,
               gsize       start,
               gsize       end)
{
  for (gsize i = start; i < end; i++)
    if (text[i] != ' ' && text[i] != '\t')
      return FALSE;
  return TRUE;
}

/* The end of a line without its trailing spaces. */
static gsize
trim_end (const char *text,
          gsize       start,
          gsize       end)
{
  while (end > start && (text[end - 1] == ' ' || text[end - 1] == '\t'))
    end--;
  return end;
}

/**
 * graft_listing_parse:
 * @source: the text of a listing, as `print(gm.graph)` writes it
 * @dialect: the torch the graph follows (either form of the user count is
 *   read in both)
 * @error: return location for a located #GRAFT_PARSE_ERROR
 *
 * Reads a graph listing back into a graph (see the top of this file for
 * what a listing cannot say and how the reader decides).  Node names are
 * kept as written; the output node is named `output` (or as the namespace
 * makes it unique).  Each node's span is its line.  The graph is not
 * required to define values before their use.
 *
 * Returns: (transfer full) (nullable): the graph, or %NULL with @error set
 */
GraftGraph *
graft_listing_parse (GraftSource        *source,
                     const GraftDialect *dialect,
                     GError            **error)
{
  Reader      r = { 0 };
  gsize       pos = 0, next, end, header_start;
  gboolean    have_return = FALSE;
  GraftGraph *graph;

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

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

  /* The header, after blank lines. */
  for (;;)
    {
      if (pos >= r.length)
        {
          graft_set_error_at_offset (error, source, pos, pos, GRAFT_PARSE_ERROR_SYNTAX,
                                     "expected 'graph():' but the input is empty");
          return NULL;
        }
      end = line_end (r.text, r.length, pos, &next);
      if (!line_is_blank (r.text, pos, end))
        break;
      pos = next;
    }
  header_start = pos;
  while (r.text[header_start] == ' ' || r.text[header_start] == '\t')
    header_start++;
  end = trim_end (r.text, header_start, end);
  if (end - header_start != strlen ("graph():") ||
      memcmp (r.text + header_start, "graph():", end - header_start) != 0)
    {
      graft_set_error_at_offset (error, source, header_start, end, GRAFT_PARSE_ERROR_SYNTAX,
                                 "expected 'graph():'");
      return NULL;
    }
  pos = next;

  r.records = g_array_new (FALSE, FALSE, sizeof (Record));
  r.refs = g_array_new (FALSE, FALSE, sizeof (Ref));
  _graft_value_reader_init (&r.values, r.text, add_ref, &r);
  r.names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (; pos < r.length; pos = next)
    {
      gboolean is_return;

      end = line_end (r.text, r.length, pos, &next);
      if (line_is_blank (r.text, pos, end))
        continue;
      end = trim_end (r.text, pos, end);
      if (have_return)
        {
          gsize first = pos;

          while (r.text[first] == ' ' || r.text[first] == '\t')
            first++;
          graft_set_error_at_offset (error, source, first, end, GRAFT_PARSE_ERROR_GRAPH,
                                     "the 'return' line must be the last line");
          reader_clear (&r);
          return NULL;
        }
      if (r.records->len >= GRAFT_MAX_NODES)
        {
          graft_set_error_at_offset (error, source, pos, end, GRAFT_PARSE_ERROR_LIMIT,
                                     "the graph has more than %u nodes", GRAFT_MAX_NODES);
          reader_clear (&r);
          return NULL;
        }
      if (!parse_line (&r, pos, end, &is_return, error))
        {
          reader_clear (&r);
          return NULL;
        }
      have_return = is_return;
    }

  if (!have_return)
    {
      graft_set_error_at_offset (error, source, r.length, r.length, GRAFT_PARSE_ERROR_GRAPH,
                                 "the listing has no 'return' line");
      reader_clear (&r);
      return NULL;
    }
  if (!resolve_refs (&r, error))
    {
      reader_clear (&r);
      return NULL;
    }
  graph = build_graph (&r, error);
  reader_clear (&r);
  return graph;
}

/**
 * graft_listing_detect:
 * @source: a text
 *
 * Tells a graph listing from other inputs: after leading white space
 * (including blank lines), the text starts with `graph(`.
 *
 * Returns: whether @source looks like a graph listing
 */
gboolean
graft_listing_detect (GraftSource *source)
{
  const char *text;
  gsize       length, i = 0;

  g_return_val_if_fail (source != NULL, FALSE);

  text = graft_source_get_text (source);
  length = graft_source_get_length (source);
  while (i < length && g_ascii_isspace (text[i]))
    i++;
  return length - i >= 6 && memcmp (text + i, "graph(", 6) == 0;
}
