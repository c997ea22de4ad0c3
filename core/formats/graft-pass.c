/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pass.c: a rewrite as a standalone torch.fx pass, the file
 * `graft rewrite --to pass` writes (cli.md).  It holds, in this order:
 *
 *   - a comment saying what the pass does and for which torch;
 *   - `import torch` and `import torch.fx`, then the import statements of
 *     the rules' files that the copied definitions use;
 *   - the pattern and replacement definitions with their source text as
 *     given, and every module-level statement of their files that they
 *     use, directly or not (a helper function, `aten = torch.ops.aten`), in
 *     file order;
 *   - `RULES`, the pairs by name, as a rules file has them;
 *   - `run(gm)`, which applies them as the command did, then
 *     `gm.recompile()`.
 *
 * What the definitions use is found from their tokens: every name that is
 * not an attribute (`x.name`) is a use.  That may bring in a statement
 * that is not needed (a name that is only a keyword argument's), never
 * leave out one that is.  Statements are deduplicated by text, so a file
 * named twice (pattern and replacement in one file) gives each statement
 * once; two files that bind one name differently are an error, as the
 * pass could hold only one of them.  Nothing here runs Python: torch runs
 * the pass (tests/tools/check-passes).
 *
 * The same copying makes two other texts: one definition with what it
 * uses, on its own (graft_pass_dup_definition(), what the editor holds of
 * a rule read from a rules file), and a rules file made of such texts
 * (graft_rules_file_write(), what the editor saves).
 */
#include "config.h"

#include "graft-pass.h"
#include "graft-error.h"
#include "graft-py-ast.h"
#include "graft-py-lexer.h"
#include "graft-py-parser.h"
#include "graft-source.h"

#include <string.h>

/* One file of the rules, parsed, with its name tokens. */
typedef struct
{
  GraftSource   *source; /* Borrowed */
  GraftPyModule *module; /* Owned */
  GArray        *names;  /* GraftPyToken: NAME tokens that are not attributes, in order */
  gboolean      *needed; /* per top-level statement */
} PassFile;

static void
pass_file_clear (PassFile *file)
{
  graft_py_module_free (file->module);
  if (file->names != NULL)
    g_array_unref (file->names);
  g_free (file->needed);
}

/* The names the file's tokens use, attributes left out. */
static gboolean
scan_names (PassFile *file,
            GError  **error)
{
  GraftPyLexer     lexer;
  GraftPyToken     token;
  GraftPyTokenKind previous = GRAFT_PY_TOKEN_NEWLINE;

  file->names = g_array_new (FALSE, FALSE, sizeof (GraftPyToken));
  graft_py_lexer_init (&lexer, file->source);
  for (;;)
    {
      if (!graft_py_lexer_next (&lexer, &token, error))
        return FALSE;
      if (token.kind == GRAFT_PY_TOKEN_ENDMARKER)
        return TRUE;
      if (token.kind == GRAFT_PY_TOKEN_NAME && previous != GRAFT_PY_TOKEN_DOT)
        g_array_append_val (file->names, token);
      previous = token.kind;
    }
}

/* The names an assignment target binds: `a`, `a, b`, `[a, *b]`. */
static gboolean
target_binds (const GraftPyExpr *target,
              const char        *name)
{
  if (target == NULL)
    return FALSE;
  if (target->kind == GRAFT_PY_EXPR_NAME)
    return strcmp (target->name.id, name) == 0;
  if (target->kind == GRAFT_PY_EXPR_STARRED)
    return target_binds (target->starred.value, name);
  if (target->kind == GRAFT_PY_EXPR_TUPLE || target->kind == GRAFT_PY_EXPR_LIST)
    for (guint i = 0; i < target->sequence.elts.len; i++)
      if (target_binds (target->sequence.elts.items[i], name))
        return TRUE;
  return FALSE;
}

/* The name an import alias binds: `as` name, else the first part of the
 * dotted name. */
static gboolean
alias_binds (const GraftPyAlias *alias,
             const char         *name)
{
  const char *bound = alias->asname != NULL ? alias->asname : alias->name;
  const char *dot = strchr (bound, '.');
  gsize       len = dot != NULL ? (gsize) (dot - bound) : strlen (bound);

  return strlen (name) == len && strncmp (bound, name, len) == 0;
}

/* Whether the top-level statement @s binds @name: a def, a class, an
 * assignment or an import (compound statements are never copied). */
static gboolean
stmt_binds (const GraftPyStmt *s,
            const char        *name)
{
  if (s->kind == GRAFT_PY_STMT_FUNCTION_DEF)
    return strcmp (s->function_def.name, name) == 0;
  if (s->kind == GRAFT_PY_STMT_CLASS_DEF)
    return strcmp (s->class_def.name, name) == 0;
  if (s->kind == GRAFT_PY_STMT_ASSIGN)
    {
      for (guint i = 0; i < s->assign.targets.len; i++)
        if (target_binds (s->assign.targets.items[i], name))
          return TRUE;
      return FALSE;
    }
  if (s->kind == GRAFT_PY_STMT_ANN_ASSIGN)
    return s->ann_assign.value != NULL && target_binds (s->ann_assign.target, name);
  if (s->kind == GRAFT_PY_STMT_AUG_ASSIGN)
    return target_binds (s->aug_assign.target, name);
  if (s->kind == GRAFT_PY_STMT_IMPORT)
    {
      for (guint i = 0; i < s->import.n_names; i++)
        if (alias_binds (s->import.names[i], name))
          return TRUE;
      return FALSE;
    }
  if (s->kind == GRAFT_PY_STMT_IMPORT_FROM)
    {
      for (guint i = 0; i < s->import_from.n_names; i++)
        if (strcmp (s->import_from.names[i]->name, "*") == 0 ||
            alias_binds (s->import_from.names[i], name))
          return TRUE;
      return FALSE;
    }
  return FALSE;
}

static gboolean
is_import (const GraftPyStmt *s)
{
  return s->kind == GRAFT_PY_STMT_IMPORT || s->kind == GRAFT_PY_STMT_IMPORT_FROM;
}

/* The statement's text, as given. */
static char *
stmt_text (PassFile          *file,
           const GraftPyStmt *s)
{
  return g_strndup (graft_source_get_text (file->source) + s->start, s->end - s->start);
}

/* Marks statement @i needed, then every top-level statement that binds a
 * name it uses, and so on. */
static void
need (PassFile *file,
      guint     i)
{
  const GraftPyStmtList *body = graft_py_module_get_body (file->module);
  g_autoptr (GArray) todo = g_array_new (FALSE, FALSE, sizeof (guint));

  if (file->needed[i])
    return;
  file->needed[i] = TRUE;
  g_array_append_val (todo, i);
  while (todo->len > 0)
    {
      guint              k = g_array_index (todo, guint, todo->len - 1);
      const GraftPyStmt *s = body->items[k];

      g_array_set_size (todo, todo->len - 1);
      for (guint t = 0; t < file->names->len; t++)
        {
          const GraftPyToken *token = &g_array_index (file->names, GraftPyToken, t);
          g_autofree char    *name = NULL;

          if (token->start < s->start || token->end > s->end)
            continue;
          name = g_strndup (graft_source_get_text (file->source) + token->start,
                            token->end - token->start);
          for (guint j = 0; j < body->len; j++)
            if (!file->needed[j] && stmt_binds (body->items[j], name))
              {
                file->needed[j] = TRUE;
                if (!is_import (body->items[j]))
                  g_array_append_val (todo, j);
              }
        }
    }
}

/* The name a module-level `torch.fx.wrap("name")` (or `wrap(...)`, any
 * spelling whose callee ends in `wrap`) statement wraps, or NULL. */
static const char *
wrapped_name (const GraftPyStmt *s)
{
  const GraftPyExpr *call;
  const GraftPyExpr *func;
  const GraftPyExpr *arg;

  if (s->kind != GRAFT_PY_STMT_EXPR || s->expr.value->kind != GRAFT_PY_EXPR_CALL)
    return NULL;
  call = s->expr.value;
  func = call->call.func;
  if (!((func->kind == GRAFT_PY_EXPR_NAME && strcmp (func->name.id, "wrap") == 0) ||
        (func->kind == GRAFT_PY_EXPR_ATTRIBUTE && strcmp (func->attribute.attr, "wrap") == 0)))
    return NULL;
  if (call->call.args.len != 1)
    return NULL;
  arg = call->call.args.items[0];
  if (arg->kind != GRAFT_PY_EXPR_CONSTANT || arg->constant.kind != GRAFT_PY_CONST_STR)
    return NULL;
  return arg->constant.str;
}

/* Whether @s wraps a function that @file defines itself (a def, not an
 * import): the pass holds a copy of it, another object than the model's. */
static gboolean
wraps_own_function (PassFile          *file,
                    const GraftPyStmt *s)
{
  const GraftPyStmtList *body = graft_py_module_get_body (file->module);
  const char            *name = wrapped_name (s);

  if (name == NULL)
    return FALSE;
  for (guint i = 0; i < body->len; i++)
    if (body->items[i]->kind == GRAFT_PY_STMT_FUNCTION_DEF && stmt_binds (body->items[i], name))
      return TRUE;
  return FALSE;
}

/* Adds the `torch.fx.wrap` statements of functions the copied statements
 * bind: without them torch.fx would trace through a function that the
 * rules' file keeps as one call. */
static void
need_wraps (PassFile *file)
{
  const GraftPyStmtList *body = graft_py_module_get_body (file->module);
  gboolean               changed = TRUE;

  while (changed)
    {
      changed = FALSE;
      for (guint i = 0; i < body->len; i++)
        {
          const char *name = wrapped_name (body->items[i]);

          if (file->needed[i] || name == NULL)
            continue;
          for (guint j = 0; j < body->len; j++)
            if (file->needed[j] && stmt_binds (body->items[j], name))
              {
                need (file, i);
                changed = TRUE;
                break;
              }
        }
    }
}

/* The index of @file's top-level def or class @name, or -1. */
static gint
find_definition (PassFile   *file,
                 const char *name)
{
  const GraftPyStmtList *body = graft_py_module_get_body (file->module);

  for (guint i = 0; i < body->len; i++)
    if ((body->items[i]->kind == GRAFT_PY_STMT_FUNCTION_DEF ||
         body->items[i]->kind == GRAFT_PY_STMT_CLASS_DEF) &&
        stmt_binds (body->items[i], name))
      return (gint) i;
  return -1;
}

/* @name is not defined in @file: says so at the definition the user most
 * likely meant, else at 1:1. */
static void
set_missing_error (GError     **error,
                   PassFile    *file,
                   GraftSource *source,
                   const char  *name)
{
  gsize start;
  gsize end;

  if (graft_py_module_locate_similar_definition (file->module, name, &start, &end))
    graft_set_error_at_offset (error, source, start, end, GRAFT_PARSE_ERROR_NAME,
                               "no function or class named '%s'", name);
  else
    graft_set_error_at (error, graft_source_get_filename (source), 1, 1, GRAFT_PARSE_ERROR_NAME,
                        "no function or class named '%s'", name);
}

/* The file of @source among @files, parsed on first use. */
static PassFile *
get_file (GArray      *files,
          GraftSource *source,
          GError     **error)
{
  PassFile file = { 0 };

  for (guint i = 0; i < files->len; i++)
    if (g_array_index (files, PassFile, i).source == source)
      return &g_array_index (files, PassFile, i);
  file.source = source;
  file.module = graft_py_parse (source, error);
  if (file.module == NULL || !scan_names (&file, error))
    {
      pass_file_clear (&file);
      return NULL;
    }
  file.needed = g_new0 (gboolean, graft_py_module_get_body (file.module)->len);
  g_array_append_val (files, file);
  return &g_array_index (files, PassFile, files->len - 1);
}

/* Names the pass itself defines: a copied statement must not bind them. */
static const char *const own_names[] = { "torch", "RULES", "run", "_instance", "_replace", NULL };

/* The statements the pass writes itself, before what it copies. */
static const char *const pass_imports[] = { "import torch", "import torch.fx", NULL };

/* What a rules file defines itself. */
static const char *const rules_names[] = { "RULES", NULL };
static const char *const no_statements[] = { NULL };

/* Appends the needed statements of every file: imports first, then the
 * rest, each text once.  Fails when two files bind one name differently
 * or a copied statement binds a name of the pass's own. */
static gboolean
write_statements (GArray            *files,
                  const char *const *own,
                  const char *const *written,
                  GString           *out,
                  GError           **error)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) bound = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  /* What the caller wrote itself (the pass's own imports) comes once. */
  for (guint i = 0; written[i] != NULL; i++)
    g_hash_table_add (seen, g_strdup (written[i]));

  for (guint pass = 0; pass < 2; pass++)
    for (guint f = 0; f < files->len; f++)
      {
        PassFile              *file = &g_array_index (files, PassFile, f);
        const GraftPyStmtList *body = graft_py_module_get_body (file->module);

        for (guint i = 0; i < body->len; i++)
          {
            const GraftPyStmt *s = body->items[i];
            char              *text;

            if (!file->needed[i] || is_import (s) != (pass == 0))
              continue;
            text = stmt_text (file, s);
            if (g_hash_table_contains (seen, text))
              {
                g_free (text);
                continue;
              }
            for (guint t = 0; t < file->names->len && !is_import (s); t++)
              {
                const GraftPyToken *token = &g_array_index (file->names, GraftPyToken, t);
                g_autofree char    *name = NULL;
                const char         *other;

                if (token->start < s->start || token->end > s->end)
                  continue;
                name = g_strndup (graft_source_get_text (file->source) + token->start,
                                  token->end - token->start);
                if (!stmt_binds (s, name))
                  continue;
                for (guint k = 0; own[k] != NULL; k++)
                  if (strcmp (name, own[k]) == 0)
                    {
                      graft_set_error_at_offset (
                          error, file->source, s->start, s->start, GRAFT_PARSE_ERROR_NAME,
                          "cannot write a %s: this binds '%s', a name it defines itself",
                          own == own_names ? "pass" : "rules file", name);
                      g_free (text);
                      return FALSE;
                    }
                other = g_hash_table_lookup (bound, name);
                if (other != NULL && strcmp (other, text) != 0)
                  {
                    graft_set_error_at_offset (
                        error, file->source, s->start, s->start, GRAFT_PARSE_ERROR_NAME,
                        "cannot write one %s: '%s' is defined differently in two files",
                        own == own_names ? "pass" : "rules file", name);
                    g_free (text);
                    return FALSE;
                  }
                g_hash_table_insert (bound, g_strdup (name), g_strdup (text));
              }
            /* Definitions stand two blank lines apart, as PEP 8 has them. */
            if (pass == 1 && out->len > 0)
              g_string_append (out, "\n\n");
            if (own == own_names && wraps_own_function (file, s))
              g_string_append_printf (
                  out,
                  "# torch.fx matches a call of a wrapped function by the function object:\n"
                  "# this %s is a copy, so the pass matches calls of the model's own %s only\n"
                  "# if it imports that one instead (from the model's module).\n",
                  wrapped_name (s), wrapped_name (s));
            g_string_append (out, text);
            g_string_append_c (out, '\n');
            g_hash_table_add (seen, text);
          }
      }
  return TRUE;
}

/* The comment that opens the pass. */
static void
write_header (GString                *out,
              guint                   n_rules,
              const GraftPassOptions *options)
{
  g_string_append_printf (out, "# A torch.fx pass written by Graft%s%s, for torch %s.\n",
                          options->origin != NULL ? " from " : "",
                          options->origin != NULL ? options->origin : "",
                          options->dialect->version);
  g_string_append (out, "# run(gm) applies the rule");
  if (n_rules > 1)
    g_string_append (out, "s of RULES in order, each");
  g_string_append_printf (out, " as one %s call",
                          options->ignore_literals ? "replace_pattern_with_filters(..., "
                                                     "ignore_literals=True)"
                                                   : "torch.fx.replace_pattern");
  if (options->fixpoint > 0)
    g_string_append_printf (out, ",\n# in passes until one replaces nothing (at most %u)",
                            options->fixpoint);
  if (options->dce)
    g_string_append (out, ",\n# then removes dead code (gm.graph.eliminate_dead_code())");
  g_string_append (out, ".\n");
}

/* `_instance`, `_replace` and `run`. */
static void
write_run (GString                *out,
           gboolean                has_class,
           const GraftPassOptions *options)
{
  if (has_class)
    g_string_append (out, "\n\n"
                          "def _instance(f):\n"
                          "    # A class of RULES stands for an instance made without "
                          "arguments.\n"
                          "    return f() if isinstance(f, type) else f\n");
  g_string_append (out, "\n\n"
                        "def _replace(gm, pattern, replacement):\n"
                        "    try:\n");
  if (options->ignore_literals)
    g_string_append (out, "        return len(replace_pattern_with_filters(gm, pattern, "
                          "replacement, ignore_literals=True))\n");
  else
    g_string_append (out, "        return len(torch.fx.replace_pattern(gm, pattern, "
                          "replacement))\n");
  g_string_append (out, "    except KeyError:\n"
                        "        # torch.fx raises KeyError when an operation of the pattern "
                        "never occurs\n"
                        "        # in the graph: that is no match.\n"
                        "        return 0\n");
  g_string_append (out, "\n\n"
                        "def run(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:\n");
  if (has_class)
    g_string_append (out, "    rules = [(_instance(p), _instance(r)) for p, r in RULES]\n");
  else
    g_string_append (out, "    rules = RULES\n");
  if (options->fixpoint > 0)
    g_string_append_printf (out,
                            "    for _ in range(%u):\n"
                            "        replaced = 0\n"
                            "        for pattern, replacement in rules:\n"
                            "            replaced += _replace(gm, pattern, replacement)\n"
                            "        if replaced == 0:\n"
                            "            break\n",
                            options->fixpoint);
  else
    g_string_append (out, "    for pattern, replacement in rules:\n"
                          "        _replace(gm, pattern, replacement)\n");
  if (options->dce)
    g_string_append (out, "    gm.graph.eliminate_dead_code()\n");
  g_string_append (out, "    gm.recompile()\n"
                        "    return gm\n");
}

/**
 * graft_pass_write:
 * @rules: the rules, in order
 * @n_rules: how many
 * @options: what the pass applies, and for which torch
 * @error: return location for an error located in a rule's source
 *
 * Writes the pass.  Every source must be Python that parses, with the
 * named top-level definitions.
 *
 * Returns: (transfer full) (nullable): the pass's text
 */
char *
graft_pass_write (const GraftPassRule    *rules,
                  guint                   n_rules,
                  const GraftPassOptions *options,
                  GError                **error)
{
  g_autoptr (GArray) files = g_array_new (FALSE, TRUE, sizeof (PassFile));
  g_autoptr (GString) out = g_string_new (NULL);
  gboolean has_class = FALSE;

  g_return_val_if_fail (rules != NULL && n_rules > 0 && options != NULL, NULL);
  g_return_val_if_fail (options->dialect != NULL, NULL);
  g_array_set_clear_func (files, (GDestroyNotify) pass_file_clear);

  if (options->ignore_literals && !options->dialect->has_ignore_literals)
    {
      g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE,
                   "torch %s's replace_pattern has no ignore_literals, so no pass for it can "
                   "ignore literals",
                   options->dialect->version);
      return NULL;
    }
  for (guint i = 0; i < n_rules; i++)
    for (guint k = 0; k < 2; k++)
      {
        GraftSource *source = k == 0 ? rules[i].pattern_source : rules[i].replacement_source;
        const char  *name = k == 0 ? rules[i].pattern : rules[i].replacement;
        PassFile    *file = get_file (files, source, error);
        gint         at;

        if (file == NULL)
          return NULL;
        at = find_definition (file, name);
        if (at < 0)
          {
            set_missing_error (error, file, source, name);
            return NULL;
          }
        if (graft_py_module_get_body (file->module)->items[at]->kind == GRAFT_PY_STMT_CLASS_DEF)
          has_class = TRUE;
        need (file, (guint) at);
      }

  for (guint f = 0; f < files->len; f++)
    need_wraps (&g_array_index (files, PassFile, f));
  write_header (out, n_rules, options);
  g_string_append (out, "import torch\nimport torch.fx\n");
  if (options->ignore_literals)
    g_string_append (out, "from torch.fx.subgraph_rewriter import replace_pattern_with_filters\n");
  if (!write_statements (files, own_names, pass_imports, out, error))
    return NULL;
  g_string_append (out, "\n\nRULES = [\n");
  for (guint i = 0; i < n_rules; i++)
    g_string_append_printf (out, "    (%s, %s),\n", rules[i].pattern, rules[i].replacement);
  g_string_append (out, "]\n");
  write_run (out, has_class, options);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Marks what defining @name in @source takes: the definition and every
 * module-level statement it uses. */
static PassFile *
need_definition (GArray      *files,
                 GraftSource *source,
                 const char  *name,
                 GError     **error)
{
  PassFile *file = get_file (files, source, error);
  gint      at;

  if (file == NULL)
    return NULL;
  at = find_definition (file, name);
  if (at < 0)
    {
      set_missing_error (error, file, source, name);
      return NULL;
    }
  need (file, (guint) at);
  return file;
}

/**
 * graft_pass_dup_definition:
 * @source: Python source (a rules file)
 * @name: a top-level function or class of it
 * @error: return location for an error located in @source
 *
 * The text that defines @name on its own, as a pass copies it: the
 * imports it uses, then every module-level statement it uses, directly or
 * not (a base class, a helper function, `aten = torch.ops.aten`), and the
 * definition, in file order and as written.  An editor holds one rule's
 * pattern or replacement in such a text.
 *
 * Returns: (transfer full) (nullable): the text
 */
char *
graft_pass_dup_definition (GraftSource *source,
                           const char  *name,
                           GError     **error)
{
  g_autoptr (GArray) files = g_array_new (FALSE, TRUE, sizeof (PassFile));
  g_autoptr (GString) out = g_string_new (NULL);

  g_return_val_if_fail (source != NULL && name != NULL, NULL);
  g_array_set_clear_func (files, (GDestroyNotify) pass_file_clear);
  if (need_definition (files, source, name, error) == NULL)
    return NULL;
  if (!write_statements (files, rules_names, no_statements, out, error))
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * graft_rules_file_write:
 * @rules: the rules, in order
 * @n_rules: how many
 * @left_out: (nullable) (array length=n_rules): per rule, whether it is
 *   left out of `RULES` (written as a comment there, its definitions kept)
 * @comment: (nullable): the file's opening comment, one or more lines
 *   without their `#`
 * @error: return location for an error located in a rule's source
 *
 * Writes a rules file (cli.md, "Rules") that `graft rewrite --rules`
 * reads into these rules: the imports the definitions use, then the
 * definitions with what they use (as graft_pass_dup_definition() finds
 * it), each statement once, then `RULES`.  A rule left out is the line
 * `# (pattern, replacement),` in `RULES`, which Python and the CLI skip;
 * two sources that bind one name differently are an error.
 *
 * Returns: (transfer full) (nullable): the file's text
 */
char *
graft_rules_file_write (const GraftPassRule *rules,
                        guint                n_rules,
                        const gboolean      *left_out,
                        const char          *comment,
                        GError             **error)
{
  g_autoptr (GArray) files = g_array_new (FALSE, TRUE, sizeof (PassFile));
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GString) body = g_string_new (NULL);

  g_return_val_if_fail (rules != NULL || n_rules == 0, NULL);
  g_array_set_clear_func (files, (GDestroyNotify) pass_file_clear);
  for (guint i = 0; i < n_rules; i++)
    if (need_definition (files, rules[i].pattern_source, rules[i].pattern, error) == NULL ||
        need_definition (files, rules[i].replacement_source, rules[i].replacement, error) == NULL)
      return NULL;
  if (comment != NULL)
    {
      g_auto (GStrv) lines = g_strsplit (comment, "\n", -1);

      for (guint i = 0; lines[i] != NULL; i++)
        g_string_append_printf (out, "#%s%s\n", lines[i][0] != '\0' ? " " : "", lines[i]);
    }
  if (!write_statements (files, rules_names, no_statements, body, error))
    return NULL;
  g_string_append (out, body->str);
  g_string_append (out, body->len > 0 ? "\n\nRULES = [\n" : "RULES = [\n");
  for (guint i = 0; i < n_rules; i++)
    g_string_append_printf (out, "    %s(%s, %s),\n",
                            left_out != NULL && left_out[i] ? "# " : "", rules[i].pattern,
                            rules[i].replacement);
  g_string_append (out, "]\n");
  return g_string_free (g_steal_pointer (&out), FALSE);
}
