/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-namespace.c: node and global names as torch.fx makes them
 * (`torch/fx/graph.py`: `_Namespace.create_name`, `_snake_case`,
 * `Graph._target_to_str`).  A namespace never releases a name: an erased
 * node keeps its name reserved, which is what makes a copied `neg` become
 * `neg_2` after `neg` was erased.
 *
 * Names live in a string chunk owned by the namespace, so a returned name
 * stays valid (and its address stable) for the namespace's lifetime.
 */
#include "config.h"

#include "graft-namespace.h"
#include "graft-namespace-private.h"
#include "graft-limits.h"

#include <string.h>

struct _GraftNamespace
{
  /* Owned */
  GHashTable   *used;   /* name (in chunk) -> itself */
  GHashTable   *filled; /* base (owned) -> k: `base_1` ... `base_k` are all used */
  GStringChunk *chunk;
};

/* Python 3.11's keyword.kwlist. */
static const char *const python_keywords[] = {
  "False", "None", "True", "and", "as", "assert", "async", "await", "break",
  "class", "continue", "def", "del", "elif", "else", "except", "finally",
  "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
  "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
};

/* The keys of `builtins.__dict__` under /usr/bin/python3 (3.11, with `site`
 * loaded, which adds exit, quit, help, copyright, credits and license).  A
 * node may not take one of these names: torch.fx would shadow the builtin. */
static const char *const python_builtins[] = {
  "ArithmeticError", "AssertionError", "AttributeError", "BaseException",
  "BaseExceptionGroup", "BlockingIOError", "BrokenPipeError", "BufferError",
  "BytesWarning", "ChildProcessError", "ConnectionAbortedError",
  "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
  "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning",
  "EnvironmentError", "Exception", "ExceptionGroup", "False",
  "FileExistsError", "FileNotFoundError", "FloatingPointError",
  "FutureWarning", "GeneratorExit", "IOError", "ImportError", "ImportWarning",
  "IndentationError", "IndexError", "InterruptedError", "IsADirectoryError",
  "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError",
  "ModuleNotFoundError", "NameError", "None", "NotADirectoryError",
  "NotImplemented", "NotImplementedError", "OSError", "OverflowError",
  "PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
  "RecursionError", "ReferenceError", "ResourceWarning", "RuntimeError",
  "RuntimeWarning", "StopAsyncIteration", "StopIteration", "SyntaxError",
  "SyntaxWarning", "SystemError", "SystemExit", "TabError", "TimeoutError",
  "True", "TypeError", "UnboundLocalError", "UnicodeDecodeError",
  "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError",
  "UnicodeWarning", "UserWarning", "ValueError", "Warning",
  "ZeroDivisionError", "__build_class__", "__debug__", "__doc__",
  "__import__", "__loader__", "__name__", "__package__", "__spec__", "abs",
  "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint",
  "bytearray", "bytes", "callable", "chr", "classmethod", "compile",
  "complex", "copyright", "credits", "delattr", "dict", "dir", "divmod",
  "enumerate", "eval", "exec", "exit", "filter", "float", "format",
  "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id",
  "input", "int", "isinstance", "issubclass", "iter", "len", "license",
  "list", "locals", "map", "max", "memoryview", "min", "next", "object",
  "oct", "open", "ord", "pow", "print", "property", "quit", "range", "repr",
  "reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod",
  "str", "sum", "super", "tuple", "type", "vars", "zip",
};

/* torch.fx's `_custom_builtins`: globals every generated module has. */
static const char *const fx_custom_builtins[] = {
  "inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree",
};

static gboolean
in_list (const char        *name,
         const char *const *list,
         gsize              n)
{
  for (gsize i = 0; i < n; i++)
    if (strcmp (name, list[i]) == 0)
      return TRUE;
  return FALSE;
}

gboolean
graft_is_python_keyword (const char *name)
{
  return in_list (name, python_keywords, G_N_ELEMENTS (python_keywords));
}

gboolean
graft_is_python_builtin (const char *name)
{
  return in_list (name, python_builtins, G_N_ELEMENTS (python_builtins));
}

/**
 * graft_is_python_identifier:
 * @name: a UTF-8 string
 *
 * Mirrors `str.isidentifier()` for the ASCII range; a non-ASCII letter is
 * accepted as Python accepts most of them.  Keywords are identifiers.
 *
 * Returns: whether @name is a Python identifier
 */
gboolean
graft_is_python_identifier (const char *name)
{
  const char *p;

  if (name == NULL || *name == '\0')
    return FALSE;
  for (p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        return FALSE;
      if (c == '_' || g_unichar_isalpha (c))
        continue;
      if (p != name && (g_unichar_isdigit (c) || g_unichar_type (c) == G_UNICODE_NON_SPACING_MARK ||
                        g_unichar_type (c) == G_UNICODE_SPACING_MARK ||
                        g_unichar_type (c) == G_UNICODE_CONNECT_PUNCTUATION))
        continue;
      return FALSE;
    }
  return TRUE;
}

static gboolean
is_illegal (const char    *name,
            GraftNameFlags flags)
{
  if (graft_is_python_keyword (name))
    return TRUE;
  if (graft_is_python_builtin (name))
    return (flags & GRAFT_NAME_IS_BUILTIN) == 0;
  if (in_list (name, fx_custom_builtins, G_N_ELEMENTS (fx_custom_builtins)))
    return (flags & GRAFT_NAME_IS_BUILTIN) == 0;
  return FALSE;
}

GraftNamespace *
graft_namespace_new (void)
{
  GraftNamespace *self = g_new0 (GraftNamespace, 1);

  self->used = g_hash_table_new (g_str_hash, g_str_equal);
  self->filled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->chunk = g_string_chunk_new (4096);
  return self;
}

void
graft_namespace_free (GraftNamespace *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->used);
  g_hash_table_unref (self->filled);
  g_string_chunk_free (self->chunk);
  g_free (self);
}

gboolean
graft_namespace_contains (GraftNamespace *self,
                          const char     *name)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return g_hash_table_contains (self->used, name);
}

guint
graft_namespace_get_size (GraftNamespace *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return g_hash_table_size (self->used);
}

/* Adds one to a decimal number written without leading zeros, in place. */
static void
increment_decimal (GString *digits)
{
  gssize i = (gssize) digits->len - 1;

  for (; i >= 0; i--)
    {
      if (digits->str[i] != '9')
        {
          digits->str[i]++;
          return;
        }
      digits->str[i] = '0';
    }
  g_string_prepend_c (digits, '1');
}

/* The value of a short decimal, or G_MAXSIZE when it has too many digits
 * to be a count of names. */
static gsize
small_number (const char *digits)
{
  if (strlen (digits) > 15)
    return G_MAXSIZE;
  return (gsize) g_ascii_strtoull (digits, NULL, 10);
}

/**
 * graft_namespace_create_name:
 * @candidate: the name wanted
 * @flags: whether the name stands for a builtin itself
 *
 * Makes a unique legal name from @candidate as `_Namespace.create_name`
 * does: runs of illegal characters become `_`, a leading digit gets a `_`
 * prefix, a `_<digits>` suffix is parsed as a number (losing leading zeros),
 * and the number counts up from there while the name is taken or illegal.
 *
 * Returns: (transfer none): the name, valid for the namespace's lifetime
 */
const char *
graft_namespace_create_name (GraftNamespace *self,
                             const char     *candidate,
                             GraftNameFlags  flags)
{
  g_autoptr(GString) clean = NULL;
  g_autoptr(GString) num = NULL;
  g_autoptr(GString) name = NULL;
  gsize base_len;
  gboolean in_run = FALSE;
  g_autofree char *base = NULL;
  char *stored;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (candidate != NULL, NULL);

  /* 1. Each run of characters outside [0-9A-Za-z_] becomes one '_'. */
  clean = g_string_sized_new (strlen (candidate) + 2);
  for (const char *p = candidate; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '_')
        {
          g_string_append_c (clean, *p);
          in_run = FALSE;
        }
      else if (!in_run)
        {
          g_string_append_c (clean, '_');
          in_run = TRUE;
        }
    }
  /* torch indexes candidate[0] and fails on an empty name; a node always
   * has a non-empty candidate, so this is only defence. */
  if (clean->len == 0)
    g_string_append_c (clean, '_');

  /* 2. A leading digit gets a '_' prefix. */
  if (g_ascii_isdigit (clean->str[0]))
    g_string_prepend_c (clean, '_');

  /* 3. Split `<base>_<digits>` (greedy base); the number loses its
   * leading zeros, as `int()` does. */
  base_len = clean->len;
  num = g_string_new (NULL);
  {
    gsize i = clean->len;

    while (i > 0 && g_ascii_isdigit (clean->str[i - 1]))
      i--;
    if (i < clean->len && i > 0 && clean->str[i - 1] == '_')
      {
        gsize j = i;

        while (j < clean->len - 1 && clean->str[j] == '0')
          j++;
        g_string_append (num, clean->str + j);
        base_len = i - 1;
      }
  }

  name = g_string_new_len (clean->str, base_len);
  if (num->len > 0)
    {
      g_string_append_c (name, '_');
      g_string_append (name, num->str);
    }
  else
    g_string_append_c (num, '0');

  /* 4. Count up while the name is taken or illegal.  torch restarts
   * from the parsed suffix every time, which is quadratic for a graph with
   * many nodes of one kind; since names are never released, `filled`
   * remembers how far `base_1`, `base_2`, ... are all taken, and the count
   * jumps there (`base_<k>` is taken, so the loop goes on with k + 1, the
   * name torch reaches too).  No `base_<k>` is illegal. */
  base = g_strndup (clean->str, base_len);
  if (g_hash_table_contains (self->used, name->str))
    {
      gsize filled = GPOINTER_TO_SIZE (g_hash_table_lookup (self->filled, base));

      if (filled > small_number (num->str))
        {
          g_string_printf (num, "%" G_GSIZE_FORMAT, filled);
          g_string_truncate (name, base_len);
          g_string_append_printf (name, "_%s", num->str);
        }
    }
  while (g_hash_table_contains (self->used, name->str) || is_illegal (name->str, flags))
    {
      increment_decimal (num);
      g_string_truncate (name, base_len);
      g_string_append_c (name, '_');
      g_string_append (name, num->str);
    }

  stored = g_string_chunk_insert_len (self->chunk, name->str, name->len);
  g_hash_table_add (self->used, stored);

  /* Extend the run of taken `base_<k>` if this name continues it. */
  {
    gsize filled = GPOINTER_TO_SIZE (g_hash_table_lookup (self->filled, base));

    if (filled < G_MAXSIZE - 1 && small_number (num->str) == filled + 1)
      {
        g_autoptr(GString) next = g_string_new (NULL);

        do
          {
            filled++;
            g_string_printf (next, "%s_%" G_GSIZE_FORMAT, base, filled + 1);
          }
        while (g_hash_table_contains (self->used, next->str));
        g_hash_table_insert (self->filled, g_steal_pointer (&base), GSIZE_TO_POINTER (filled));
      }
  }
  return stored;
}

/**
 * graft_snake_case:
 * @s: a UTF-8 name
 *
 * torch.fx's `_snake_case`: lower-cases every character and puts `_` before
 * an upper-case character that follows a lower-case one.
 *
 * Returns: (transfer full): the snake-cased name
 */
char *
graft_snake_case (const char *s)
{
  GString *out = g_string_sized_new (strlen (s) + 4);
  gboolean prev_lower = FALSE;

  for (const char *p = s; *p != '\0';)
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* Not UTF-8: keep the byte; the sanitiser turns it into '_'. */
          g_string_append_c (out, *p);
          prev_lower = FALSE;
          p++;
          continue;
        }
      if (prev_lower && g_unichar_isupper (c))
        g_string_append_c (out, '_');
      g_string_append_unichar (out, g_unichar_tolower (c));
      prev_lower = g_unichar_islower (c);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}

/**
 * graft_name_for_target:
 * @op: the node's op
 * @target: its target (for call_function, the qualified name)
 *
 * `Graph._target_to_str`: the candidate name of a new node.  For a function
 * it is the function's `__name__` (the part after the last dot of the
 * qualified name); for a string target the target itself with a surrounding
 * pair of double underscores cut off.  Either is then snake-cased.
 *
 * Returns: (transfer full): the candidate
 */
char *
graft_name_for_target (GraftOp     op,
                       const char *target)
{
  g_autofree char *cut = NULL;
  gsize len = strlen (target);

  if (op == GRAFT_OP_CALL_FUNCTION)
    {
      const char *dot = strrchr (target, '.');

      return graft_snake_case (dot != NULL ? dot + 1 : target);
    }
  if (len >= 4 && g_str_has_prefix (target, "__") && g_str_has_suffix (target, "__"))
    {
      cut = g_strndup (target + 2, len - 4);
      return graft_snake_case (cut);
    }
  /* `__` alone, or `___`, both starts and ends with `__` in Python too. */
  if (len >= 2 && g_str_has_prefix (target, "__") && g_str_has_suffix (target, "__"))
    return g_strdup ("");
  return graft_snake_case (target);
}

/**
 * _graft_namespace_add_verbatim:
 * @name: a name not yet in the namespace
 *
 * Registers @name exactly as given, bypassing the suffix rules.  Graphs
 * read from a listing or a DOT file keep the names written there.
 *
 * Returns: (transfer none): the stored name
 */
const char *
_graft_namespace_add_verbatim (GraftNamespace *self,
                               const char     *name)
{
  char *stored;

  g_return_val_if_fail (!g_hash_table_contains (self->used, name), NULL);

  stored = g_string_chunk_insert (self->chunk, name);
  g_hash_table_add (self->used, stored);
  return stored;
}

/**
 * _graft_namespace_remove:
 * @name: a name of the namespace
 *
 * Releases @name, for undo only: torch never releases a name, but undoing
 * the edit that created it must leave the namespace as it was, so that
 * redoing it, or doing something else, names nodes as a fresh run would.
 */
void
_graft_namespace_remove (GraftNamespace *self,
                         const char     *name)
{
  const char *underscore = strrchr (name, '_');
  gsize digits = 0;

  if (!g_hash_table_remove (self->used, name))
    return;
  if (underscore == NULL || underscore == name || underscore[1] == '\0')
    return;
  for (const char *p = underscore + 1; *p != '\0'; p++, digits++)
    if (!g_ascii_isdigit (*p))
      return;
  if (digits < 19)
    {
      g_autofree char *base = g_strndup (name, underscore - name);
      gsize num = (gsize) g_ascii_strtoull (underscore + 1, NULL, 10);
      gsize filled = GPOINTER_TO_SIZE (g_hash_table_lookup (self->filled, base));

      /* The run `base_1` ... `base_filled` now has a hole at num. */
      if (num >= 1 && filled >= num)
        g_hash_table_insert (self->filled, g_steal_pointer (&base), GSIZE_TO_POINTER (num - 1));
    }
}
