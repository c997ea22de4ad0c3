/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-py-ast.c: the module that owns a Python syntax tree, its arena, the
 * node constructors the parser uses, and a debug dump of a tree as
 * S-expressions for tests.  The arena is a list of large chunks; a node is
 * never freed alone, so allocation is a pointer bump and freeing the module
 * frees every chunk.  Building the tree is the parser's job.
 */
#include "config.h"

#include "graft-py-ast.h"
#include "graft-py-ast-private.h"
#include "graft-source.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Most allocations are small nodes; a chunk holds thousands of them.
 * GraftPyChunks start small, so that a small module costs little, and double up to
 * a few MiB for large inputs (a 6 MB generated module makes a tree of about
 * 80 MB).  GraftPyChunks of 2 MiB and more are aligned and offered to the kernel as
 * transparent huge pages: filling the tree then takes a few hundred page
 * faults instead of tens of thousands, which is most of the parsing time of
 * a large input.  A request larger than a quarter of the current chunk size
 * (a long list) gets a chunk of its own, so that little of a chunk is
 * wasted. */
#define FIRST_CHUNK_SIZE (64 * 1024)
#define MAX_CHUNK_SIZE   (4 * 1024 * 1024)
#define HUGE_PAGE_SIZE   (2 * 1024 * 1024)

/* The dump recurses once per level of the tree.  Trees built from long flat
 * chains (`a + a + ...`) are deep without being nested in the source, so
 * deeper levels are elided rather than risking the stack. */
#define MAX_DUMP_DEPTH 1000

/**
 * graft_py_module_new:
 * @source: the source the tree's spans point into
 *
 * Creates an empty module; the parser fills it.
 *
 * Returns: (transfer full): a module holding a reference to @source
 */
GraftPyModule *
graft_py_module_new (GraftSource *source)
{
  GraftPyModule *self;

  g_return_val_if_fail (source != NULL, NULL);

  self = g_new0 (GraftPyModule, 1);
  self->source = graft_source_ref (source);
  self->nodes = &self->main;
  return self;
}

static void
free_chunks (GraftPyChunk *chunk)
{
  while (chunk != NULL)
    {
      GraftPyChunk *next = chunk->next;
      free (chunk);
      chunk = next;
    }
}

/**
 * graft_py_module_free:
 * @self: (transfer full): a module
 *
 * Frees the module and every node, array and string of its tree.
 */
void
graft_py_module_free (GraftPyModule *self)
{
  if (self == NULL)
    return;
  free_chunks (self->main.chunks);
  free_chunks (self->transient.chunks);
  graft_source_unref (self->source);
  g_free (self);
}

/**
 * graft_py_module_get_source:
 *
 * Returns: (transfer none): the source the spans of the tree point into
 */
GraftSource *
graft_py_module_get_source (GraftPyModule *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->source;
}

/**
 * graft_py_module_get_body:
 *
 * Returns: (transfer none): the top-level statements; they live as long as
 *   the module
 */
const GraftPyStmtList *
graft_py_module_get_body (GraftPyModule *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->body;
}

/* The Levenshtein distance between @a and @b, in bytes (names are
 * identifiers), with one row of the table. */
static guint
edit_distance (const char *a,
               const char *b)
{
  gsize             la = strlen (a);
  gsize             lb = strlen (b);
  g_autofree guint *row = g_new (guint, lb + 1);

  for (gsize j = 0; j <= lb; j++)
    row[j] = (guint) j;
  for (gsize i = 1; i <= la; i++)
    {
      guint diagonal = row[0];

      row[0] = (guint) i;
      for (gsize j = 1; j <= lb; j++)
        {
          guint above = row[j];
          guint best = MIN (row[j - 1], above) + 1;

          row[j] = MIN (best, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1));
          diagonal = above;
        }
    }
  return row[lb];
}

/**
 * graft_py_stmt_get_definition_name:
 * @stmt: a statement
 *
 * Returns: (nullable): the name @stmt defines if it defines a function or
 *   a class, else %NULL
 */
const char *
graft_py_stmt_get_definition_name (const GraftPyStmt *stmt)
{
  return stmt->kind == GRAFT_PY_STMT_FUNCTION_DEF ? stmt->function_def.name
         : stmt->kind == GRAFT_PY_STMT_CLASS_DEF  ? stmt->class_def.name
                                                  : NULL;
}

/**
 * graft_py_stmt_get_block:
 * @stmt: a statement
 * @i: which of its blocks, from 0
 *
 * The statement lists nested in a compound statement, in the order the
 * text has them: an `if`'s body and else; a loop's body and else; a
 * `with`'s body; a `try`'s body, its handlers' bodies, its else and its
 * finally.  A definition's body is not one of them (it is another
 * scope).  Walkers that only look for something in any nested statement
 * ask for blocks 0, 1, ... until %NULL.
 *
 * Returns: (nullable): the @i-th block, or %NULL past the last
 */
const GraftPyStmtList *
graft_py_stmt_get_block (const GraftPyStmt *stmt,
                         guint              i)
{
  switch ((int) stmt->kind)
    {
    case GRAFT_PY_STMT_IF:
      return i == 0 ? &stmt->if_stmt.body : i == 1 ? &stmt->if_stmt.orelse
                                                   : NULL;
    case GRAFT_PY_STMT_FOR:
      return i == 0 ? &stmt->for_stmt.body : i == 1 ? &stmt->for_stmt.orelse
                                                    : NULL;
    case GRAFT_PY_STMT_WHILE:
      return i == 0 ? &stmt->while_stmt.body : i == 1 ? &stmt->while_stmt.orelse
                                                      : NULL;
    case GRAFT_PY_STMT_WITH:
      return i == 0 ? &stmt->with_stmt.body : NULL;
    case GRAFT_PY_STMT_TRY:
      if (i == 0)
        return &stmt->try_stmt.body;
      if (i - 1 < stmt->try_stmt.n_handlers)
        return &stmt->try_stmt.handlers[i - 1]->body;
      i -= 1 + stmt->try_stmt.n_handlers;
      return i == 0 ? &stmt->try_stmt.orelse : i == 1 ? &stmt->try_stmt.finalbody
                                                      : NULL;
    default:
      return NULL;
    }
}

/**
 * graft_py_stmt_get_bound_name:
 * @stmt: a FunctionDef or a ClassDef
 *
 * The name its definition binds: its name, or inside a class, for a
 * private name (`__f`), the name mangled as Python mangles it (`_C__f`,
 * where `__name__` stays `__f`).
 *
 * Returns: the name
 */
const char *
graft_py_stmt_get_bound_name (const GraftPyStmt *stmt)
{
  g_return_val_if_fail (stmt->kind == GRAFT_PY_STMT_FUNCTION_DEF ||
                            stmt->kind == GRAFT_PY_STMT_CLASS_DEF,
                        NULL);

  if (stmt->kind == GRAFT_PY_STMT_FUNCTION_DEF)
    return stmt->function_def.name - stmt->function_def.private_prefix;
  return stmt->class_def.name - stmt->class_def.private_prefix;
}

/* Where @stmt's name is: it follows `def` or `class`, after any
 * decorators, so the first whole-word occurrence after the keyword. */
static void
locate_definition_name (GraftPyModule     *self,
                        const GraftPyStmt *stmt,
                        gsize             *out_start,
                        gsize             *out_end)
{
  const char *defined = graft_py_stmt_get_definition_name (stmt);
  const char *text = graft_source_get_text (graft_py_module_get_source (self));
  const char *at = text + stmt->start;

  while ((at = strstr (at, defined)) != NULL && at < text + stmt->end)
    {
      gboolean word_start = at > text && (at[-1] == ' ' || at[-1] == '\t');
      char     after = at[strlen (defined)];

      if (word_start && !g_ascii_isalnum (after) && after != '_')
        {
          *out_start = (gsize) (at - text);
          *out_end = *out_start + strlen (defined);
          return;
        }
      at += strlen (defined);
    }
  *out_start = stmt->start;
  *out_end = stmt->start;
}

/**
 * graft_py_module_locate_similar_definition:
 * @self: a module
 * @name: a name the module was expected to define (an `--entry`, a
 *   pattern's name) and does not
 * @out_start: (out): where the definition's name starts, a byte offset
 *   into the module's source
 * @out_end: (out): where it ends
 *
 * Where to point at when @name is missing: the name of the top-level
 * function or class whose name is closest to @name (a misspelled `def
 * patern`: at most half the longer name's length of single-character
 * edits away, the first of the closest).
 *
 * Returns: %FALSE when no top-level function or class has a name that
 *   close (`nope` for `pattern`): no place in the file is the one meant
 */
gboolean
graft_py_module_locate_similar_definition (GraftPyModule *self,
                                           const char    *name,
                                           gsize         *out_start,
                                           gsize         *out_end)
{
  const GraftPyStmt *closest = NULL;
  guint              best = G_MAXUINT;

  g_return_val_if_fail (self != NULL && name != NULL, FALSE);
  for (guint i = 0; i < self->body.len; i++)
    {
      const GraftPyStmt *stmt = self->body.items[i];
      const char        *own = graft_py_stmt_get_definition_name (stmt);
      guint              distance;

      if (own == NULL)
        continue;
      distance = edit_distance (own, name);
      if (distance < best && distance <= MAX (strlen (own), strlen (name)) / 2)
        {
          best = distance;
          closest = stmt;
        }
    }
  if (closest == NULL)
    return FALSE;
  locate_definition_name (self, closest, out_start, out_end);
  return TRUE;
}

/**
 * graft_py_module_locate_closest_definition:
 * @self: a module
 * @name: a name the module was expected to define and does not
 * @out_start: (out): where the definition's name starts
 * @out_end: (out): where it ends
 *
 * As graft_py_module_locate_similar_definition(), else at the first
 * top-level function or class (the editor's replacement text, whose one
 * definition is the one meant whatever its name).
 *
 * Returns: %FALSE when the module defines no function or class at its top
 *   level
 */
gboolean
graft_py_module_locate_closest_definition (GraftPyModule *self,
                                           const char    *name,
                                           gsize         *out_start,
                                           gsize         *out_end)
{
  g_return_val_if_fail (self != NULL && name != NULL, FALSE);
  if (graft_py_module_locate_similar_definition (self, name, out_start, out_end))
    return TRUE;
  for (guint i = 0; i < self->body.len; i++)
    if (graft_py_stmt_get_definition_name (self->body.items[i]) != NULL)
      {
        locate_definition_name (self, self->body.items[i], out_start, out_end);
        return TRUE;
      }
  return FALSE;
}

/**
 * graft_py_module_dup_definition_names:
 * @self: a module
 *
 * The names of the module's top-level functions and classes, each once,
 * in the order of the file, for a message that lists what the file
 * offers: `M, pattern, replacement`, or `none`.
 *
 * Returns: (transfer full): the list
 */
char *
graft_py_module_dup_definition_names (GraftPyModule *self)
{
  GString *out = g_string_new (NULL);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (self != NULL, NULL);
  for (guint i = 0; i < self->body.len; i++)
    {
      const char *name = graft_py_stmt_get_definition_name (self->body.items[i]);

      if (name == NULL || !g_hash_table_add (seen, (gpointer) name))
        continue;
      if (out->len > 0)
        g_string_append (out, ", ");
      g_string_append (out, name);
    }
  if (out->len == 0)
    g_string_append (out, "none");
  return g_string_free (out, FALSE);
}

/**
 * graft_py_module_set_body:
 * @body: statements allocated from @self
 */
void
graft_py_module_set_body (GraftPyModule  *self,
                          GraftPyStmtList body)
{
  g_return_if_fail (self != NULL);
  self->body = body;
}

static GraftPyChunk *
new_chunk (gsize size)
{
  gsize         total = sizeof (GraftPyChunk) + size;
  gpointer      mem = NULL;
  GraftPyChunk *chunk;

#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (total >= HUGE_PAGE_SIZE && posix_memalign (&mem, HUGE_PAGE_SIZE, total) == 0)
    madvise (mem, total, MADV_HUGEPAGE); /* only advice: failure is harmless */
  else
    mem = NULL;
#endif
  if (mem == NULL)
    mem = malloc (total);
  if (mem == NULL)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, total);
  chunk = mem;
  chunk->next = NULL;
  chunk->size = size;
  return chunk;
}

gpointer
_graft_py_arena_alloc (GraftPyArena *arena,
                       gsize         size)
{
  GraftPyChunk *chunk;
  gpointer      mem;

  size = (size + sizeof (gdouble) - 1) & ~(sizeof (gdouble) - 1);
  if (size == 0)
    size = sizeof (gdouble);

  if ((gsize) (arena->limit - arena->ptr) < size)
    {
      gboolean own_chunk;
      gsize    chunk_size;

      if (arena->chunk_size == 0)
        arena->chunk_size = FIRST_CHUNK_SIZE;
      own_chunk = size > arena->chunk_size / 4;
      if (own_chunk)
        chunk_size = size;
      else
        {
          chunk_size = arena->chunk_size - sizeof (GraftPyChunk);
          arena->chunk_size = MIN (arena->chunk_size * 2, MAX_CHUNK_SIZE);
        }
      chunk = new_chunk (chunk_size);
      if (own_chunk && arena->chunks != NULL)
        {
          /* Keep filling the current chunk after a large request. */
          chunk->next = arena->chunks->next;
          arena->chunks->next = chunk;
          return chunk->data;
        }
      chunk->next = arena->chunks;
      arena->chunks = chunk;
      arena->ptr = (char *) chunk->data;
      arena->limit = (char *) chunk->data + chunk_size;
    }
  mem = arena->ptr;
  arena->ptr += size;
  return mem;
}

/**
 * graft_py_module_alloc:
 * @size: bytes wanted
 *
 * Allocates uninitialised memory for a node or a list of the tree, aligned
 * for any node field.  It lives as long as @self or, in transient mode
 * (graft_py_module_begin_transient()), until the next
 * graft_py_module_release_transient().
 *
 * Returns: (transfer none): the memory
 */
gpointer
graft_py_module_alloc (GraftPyModule *self,
                       gsize          size)
{
  g_return_val_if_fail (self != NULL, NULL);

  return _graft_py_arena_alloc (self->nodes, size);
}

/**
 * graft_py_module_begin_transient:
 *
 * From now on, nodes and lists go to a second arena that
 * graft_py_module_release_transient() empties: a long function body is
 * then read one statement at a time in the same few kilobytes.  Names and
 * strings still live as long as @self (the tracer's values and caches
 * keep them).
 */
void
graft_py_module_begin_transient (GraftPyModule *self)
{
  g_return_if_fail (self != NULL);
  self->nodes = &self->transient;
}

/**
 * graft_py_module_pin_transient:
 *
 * Keeps the transient nodes made since the last release for as long as
 * @self lives: the parser calls it for a lambda, a def or a class, which
 * the tracer's function and class values point at.  Does nothing outside
 * transient mode.
 */
void
graft_py_module_pin_transient (GraftPyModule *self)
{
  g_return_if_fail (self != NULL);
  if (self->nodes == &self->transient)
    self->pinned = TRUE;
}

/**
 * graft_py_module_release_transient:
 *
 * Frees the nodes made in transient mode since the last release, keeping
 * one chunk for the next statement; pinned ones join the main arena
 * instead.
 */
void
graft_py_module_release_transient (GraftPyModule *self)
{
  GraftPyChunk *first;

  g_return_if_fail (self != NULL);
  first = self->transient.chunks;
  if (first == NULL)
    return;
  if (self->pinned)
    {
      GraftPyChunk *last = first;

      while (last->next != NULL)
        last = last->next;
      /* Behind the main arena's current chunk, which stays first. */
      if (self->main.chunks == NULL)
        self->main.chunks = first;
      else
        {
          last->next = self->main.chunks->next;
          self->main.chunks->next = first;
        }
      self->transient.chunks = NULL;
      self->transient.chunk_size = 0;
      self->transient.ptr = NULL;
      self->transient.limit = NULL;
      self->pinned = FALSE;
      return;
    }
  free_chunks (first->next);
  first->next = NULL;
  self->transient.ptr = (char *) first->data;
  self->transient.limit = (char *) first->data + first->size;
}

/**
 * graft_py_module_end_transient:
 *
 * Releases the transient nodes; nodes go to the main arena again.
 */
void
graft_py_module_end_transient (GraftPyModule *self)
{
  g_return_if_fail (self != NULL);
  graft_py_module_release_transient (self);
  self->nodes = &self->main;
}

/**
 * graft_py_module_strndup:
 * @str: bytes to copy (may contain NUL bytes)
 * @len: how many
 *
 * Returns: (transfer none): a NUL-terminated copy owned by @self
 */
const char *
graft_py_module_strndup (GraftPyModule *self,
                         const char    *str,
                         gsize          len)
{
  char *copy;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (str != NULL || len == 0, NULL);

  copy = _graft_py_arena_alloc_fast (&self->main, len + 1);
  if (len > 0)
    memcpy (copy, str, len);
  copy[len] = '\0';
  return copy;
}

/**
 * graft_py_module_intern:
 * @str: bytes of a name (no NUL byte among them)
 * @len: how many
 *
 * Like graft_py_module_strndup(), but a name made recently with the same
 * bytes is given back instead of a copy: a module of ten thousand
 * statements names `torch`, `self` and its few variables tens of thousands
 * of times.  Only a cache (no hash table): two equal names may still be
 * different strings, so equal addresses mean equal names but not the
 * other way round.
 *
 * Returns: (transfer none): a NUL-terminated string equal to @str, owned
 *   by @self
 */
const char *
graft_py_module_intern (GraftPyModule *self,
                        const char    *str,
                        gsize          len)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (str != NULL || len == 0, NULL);

  if (len == 0)
    return graft_py_module_strndup (self, str, len);
  return _graft_py_module_intern_fast (self, str, len);
}

/* The name cache missed @str in @slot: copies it and keeps the copy in
 * the slot. */
const char *
_graft_py_module_intern_slot (GraftPyModule *self,
                              const char    *str,
                              gsize          len,
                              guint          slot)
{
  char *copy = _graft_py_arena_alloc_fast (&self->main, len + 1);

  /* graft_py_module_strndup() without its checks: @len is at least one. */
  memcpy (copy, str, len);
  copy[len] = '\0';
  self->recent[slot] = copy;
  self->recent_len[slot] = (guint32) len;
  return copy;
}

/**
 * graft_py_expr_new:
 * @kind: the node kind
 * @start: byte offset of its first byte
 * @end: byte offset just past it
 *
 * Returns: (transfer none): a zeroed expression node owned by @self
 */
GraftPyExpr *
graft_py_expr_new (GraftPyModule  *self,
                   GraftPyExprKind kind,
                   gsize           start,
                   gsize           end)
{
  g_return_val_if_fail (self != NULL, NULL);

  return _graft_py_expr_new_fast (self, kind, start, end);
}

/**
 * graft_py_stmt_new:
 * @kind: the node kind
 * @start: byte offset of its first byte
 * @end: byte offset just past it
 *
 * Returns: (transfer none): a zeroed statement node owned by @self
 */
GraftPyStmt *
graft_py_stmt_new (GraftPyModule  *self,
                   GraftPyStmtKind kind,
                   gsize           start,
                   gsize           end)
{
  GraftPyStmt *stmt;

  g_return_val_if_fail (self != NULL, NULL);

  stmt = _graft_py_arena_alloc_fast (self->nodes, sizeof *stmt);
  memset (stmt, 0, sizeof *stmt);
  stmt->kind = kind;
  stmt->start = start;
  stmt->end = end;
  return stmt;
}

/**
 * graft_py_bin_op_to_string:
 *
 * Returns: (transfer none): the operator as written in Python (`+`, `//`)
 */
const char *
graft_py_bin_op_to_string (GraftPyBinOp op)
{
  switch (op)
    {
    case GRAFT_PY_BIN_ADD:
      return "+";
    case GRAFT_PY_BIN_SUB:
      return "-";
    case GRAFT_PY_BIN_MUL:
      return "*";
    case GRAFT_PY_BIN_MATMUL:
      return "@";
    case GRAFT_PY_BIN_TRUEDIV:
      return "/";
    case GRAFT_PY_BIN_FLOORDIV:
      return "//";
    case GRAFT_PY_BIN_MOD:
      return "%";
    case GRAFT_PY_BIN_POW:
      return "**";
    case GRAFT_PY_BIN_LSHIFT:
      return "<<";
    case GRAFT_PY_BIN_RSHIFT:
      return ">>";
    case GRAFT_PY_BIN_BITOR:
      return "|";
    case GRAFT_PY_BIN_BITXOR:
      return "^";
    case GRAFT_PY_BIN_BITAND:
      return "&";
    default:
      return "?";
    }
}

/**
 * graft_py_unary_op_to_string:
 *
 * Returns: (transfer none): the operator as written in Python (`-`, `not`)
 */
const char *
graft_py_unary_op_to_string (GraftPyUnaryOp op)
{
  switch (op)
    {
    case GRAFT_PY_UNARY_NEG:
      return "-";
    case GRAFT_PY_UNARY_POS:
      return "+";
    case GRAFT_PY_UNARY_INVERT:
      return "~";
    case GRAFT_PY_UNARY_NOT:
      return "not";
    default:
      return "?";
    }
}

/**
 * graft_py_cmp_op_to_string:
 *
 * Returns: (transfer none): the operator as written in Python (`<=`, `not in`)
 */
const char *
graft_py_cmp_op_to_string (GraftPyCmpOp op)
{
  switch (op)
    {
    case GRAFT_PY_CMP_EQ:
      return "==";
    case GRAFT_PY_CMP_NOT_EQ:
      return "!=";
    case GRAFT_PY_CMP_LT:
      return "<";
    case GRAFT_PY_CMP_LT_E:
      return "<=";
    case GRAFT_PY_CMP_GT:
      return ">";
    case GRAFT_PY_CMP_GT_E:
      return ">=";
    case GRAFT_PY_CMP_IS:
      return "is";
    case GRAFT_PY_CMP_IS_NOT:
      return "is not";
    case GRAFT_PY_CMP_IN:
      return "in";
    case GRAFT_PY_CMP_NOT_IN:
      return "not in";
    default:
      return "?";
    }
}

/* Dump */

/* Whether the dump also gives each node's span (_graft_py_ast_dump_spans()). */
static _Thread_local gboolean dump_spans;

static void dump_expr (GString *out, const GraftPyExpr *e, guint depth);
static void dump_stmt (GString *out, const GraftPyStmt *s, guint depth);

/* Writes a float the way Python's repr does for the values tests use: the
 * shortest of 15 to 17 significant digits that reads back exactly, with
 * `.0` added to an integral value. */
static void
dump_float (GString *out,
            double   value,
            gboolean imaginary)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isinf (value))
    {
      g_string_append (out, value > 0 ? "inf" : "-inf");
      return;
    }
  if (isnan (value))
    {
      g_string_append (out, "nan");
      return;
    }
  for (int digits = 15; digits <= 17; digits++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, sizeof buf, format, value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }
  g_string_append (out, buf);
  if (!imaginary && strpbrk (buf, ".e") == NULL)
    g_string_append (out, ".0");
}

static void
dump_string (GString    *out,
             const char *str,
             gsize       len,
             gboolean    bytes)
{
  if (bytes)
    g_string_append_c (out, 'b');
  g_string_append_c (out, '\'');
  for (gsize i = 0; i < len; i++)
    {
      guchar c = str[i];

      switch (c)
        {
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\'':
          g_string_append (out, "\\'");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        default:
          if (c < 0x20 || c == 0x7f || (bytes && c >= 0x80))
            g_string_append_printf (out, "\\x%02x", c);
          else
            g_string_append_c (out, c);
          break;
        }
    }
  g_string_append_c (out, '\'');
}

static void
dump_ctx (GString           *out,
          GraftPyExprContext ctx)
{
  if (ctx == GRAFT_PY_CTX_STORE)
    g_string_append (out, " store");
  else if (ctx == GRAFT_PY_CTX_DEL)
    g_string_append (out, " del");
}

static void
dump_opt (GString           *out,
          const GraftPyExpr *e,
          guint              depth)
{
  if (e == NULL)
    g_string_append (out, "None");
  else
    dump_expr (out, e, depth);
}

static void
dump_exprs (GString               *out,
            const GraftPyExprList *list,
            guint                  depth)
{
  for (guint i = 0; i < list->len; i++)
    {
      g_string_append_c (out, ' ');
      dump_opt (out, list->items[i], depth);
    }
}

static void
dump_body (GString               *out,
           const char            *label,
           const GraftPyStmtList *body,
           guint                  depth)
{
  g_string_append_printf (out, " (%s", label);
  for (guint i = 0; i < body->len; i++)
    {
      g_string_append_c (out, ' ');
      dump_stmt (out, body->items[i], depth);
    }
  g_string_append_c (out, ')');
}

static void
dump_keywords (GString               *out,
               GraftPyKeyword *const *keywords,
               guint                  n_keywords,
               guint                  depth)
{
  for (guint i = 0; i < n_keywords; i++)
    {
      g_string_append_printf (out, " (keyword %s ",
                              keywords[i]->name != NULL ? keywords[i]->name : "**");
      if (dump_spans)
        g_string_append_printf (out, "@%u-%u ", keywords[i]->start, keywords[i]->end);
      dump_expr (out, keywords[i]->value, depth);
      g_string_append_c (out, ')');
    }
}

static void
dump_arg (GString          *out,
          const GraftPyArg *arg,
          guint             depth)
{
  if (arg->annotation == NULL && arg->default_value == NULL)
    {
      g_string_append (out, arg->name);
      return;
    }
  g_string_append_printf (out, "(%s", arg->name);
  if (arg->annotation != NULL)
    {
      g_string_append (out, " : ");
      dump_expr (out, arg->annotation, depth);
    }
  if (arg->default_value != NULL)
    {
      g_string_append (out, " = ");
      dump_expr (out, arg->default_value, depth);
    }
  g_string_append_c (out, ')');
}

static void
dump_arg_list (GString           *out,
               const char        *label,
               GraftPyArg *const *args,
               guint              n_args,
               guint              depth)
{
  if (n_args == 0)
    return;
  g_string_append_printf (out, " (%s", label);
  for (guint i = 0; i < n_args; i++)
    {
      g_string_append_c (out, ' ');
      dump_arg (out, args[i], depth);
    }
  g_string_append_c (out, ')');
}

static void
dump_arguments (GString                *out,
                const GraftPyArguments *a,
                guint                   depth)
{
  g_string_append (out, "(arguments");
  dump_arg_list (out, "posonly", a->posonly, a->n_posonly, depth);
  dump_arg_list (out, "args", a->args, a->n_args, depth);
  if (a->vararg != NULL)
    dump_arg_list (out, "vararg", &a->vararg, 1, depth);
  dump_arg_list (out, "kwonly", a->kwonly, a->n_kwonly, depth);
  if (a->kwarg != NULL)
    dump_arg_list (out, "kwarg", &a->kwarg, 1, depth);
  g_string_append_c (out, ')');
}

static void
dump_generators (GString                     *out,
                 GraftPyComprehension *const *gens,
                 guint                        n_gens,
                 guint                        depth)
{
  for (guint i = 0; i < n_gens; i++)
    {
      const GraftPyComprehension *g = gens[i];

      g_string_append (out, g->is_async ? " (async for " : " (for ");
      dump_expr (out, g->target, depth);
      g_string_append_c (out, ' ');
      dump_expr (out, g->iter, depth);
      for (guint j = 0; j < g->ifs.len; j++)
        {
          g_string_append (out, " (if ");
          dump_expr (out, g->ifs.items[j], depth);
          g_string_append_c (out, ')');
        }
      g_string_append_c (out, ')');
    }
}

static void
dump_expr (GString           *out,
           const GraftPyExpr *e,
           guint              depth)
{
  static const char *const comp_names[] = { "ListComp", "SetComp", "DictComp", "GeneratorExp" };
  static const char *const seq_names[] = { "Tuple", "List", "Set" };

  if (depth > MAX_DUMP_DEPTH)
    {
      g_string_append (out, "(...)");
      return;
    }
  depth++;
  if (dump_spans)
    g_string_append_printf (out, "@%u-%u", e->start, e->end);

  switch (e->kind)
    {
    case GRAFT_PY_EXPR_NAME:
      g_string_append_printf (out, "(Name %s", e->name.id);
      dump_ctx (out, e->name.ctx);
      break;
    case GRAFT_PY_EXPR_CONSTANT:
      g_string_append (out, "(Constant ");
      switch (e->constant.kind)
        {
        case GRAFT_PY_CONST_NONE:
          g_string_append (out, "None");
          break;
        case GRAFT_PY_CONST_BOOL:
          g_string_append (out, e->constant.bool_value ? "True" : "False");
          break;
        case GRAFT_PY_CONST_ELLIPSIS:
          g_string_append (out, "...");
          break;
        case GRAFT_PY_CONST_INT:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, e->constant.int_value);
          break;
        case GRAFT_PY_CONST_FLOAT:
          dump_float (out, e->constant.float_value, FALSE);
          break;
        case GRAFT_PY_CONST_IMAGINARY:
          dump_float (out, e->constant.float_value, TRUE);
          g_string_append_c (out, 'j');
          break;
        case GRAFT_PY_CONST_STR:
          dump_string (out, e->constant.str, e->constant.len, FALSE);
          break;
        case GRAFT_PY_CONST_BYTES:
          dump_string (out, e->constant.str, e->constant.len, TRUE);
          break;
        case GRAFT_PY_CONST_BIGINT:
          g_string_append (out, e->constant.str);
          break;
        default:
          g_string_append (out, "?");
          break;
        }
      break;
    case GRAFT_PY_EXPR_JOINED_STR:
      g_string_append (out, "(JoinedStr");
      dump_exprs (out, &e->joined_str.values, depth);
      break;
    case GRAFT_PY_EXPR_FORMATTED_VALUE:
      g_string_append (out, "(FormattedValue ");
      dump_expr (out, e->formatted_value.value, depth);
      if (e->formatted_value.conversion != -1)
        g_string_append_printf (out, " !%c", e->formatted_value.conversion);
      if (e->formatted_value.format_spec != NULL)
        {
          g_string_append_c (out, ' ');
          dump_expr (out, e->formatted_value.format_spec, depth);
        }
      break;
    case GRAFT_PY_EXPR_ATTRIBUTE:
      g_string_append (out, "(Attribute ");
      dump_expr (out, e->attribute.value, depth);
      g_string_append_printf (out, " %s", e->attribute.attr);
      dump_ctx (out, e->attribute.ctx);
      break;
    case GRAFT_PY_EXPR_SUBSCRIPT:
      g_string_append (out, "(Subscript ");
      dump_expr (out, e->subscript.value, depth);
      g_string_append_c (out, ' ');
      dump_expr (out, e->subscript.slice, depth);
      dump_ctx (out, e->subscript.ctx);
      break;
    case GRAFT_PY_EXPR_SLICE:
      g_string_append (out, "(Slice ");
      dump_opt (out, e->slice.lower, depth);
      g_string_append_c (out, ' ');
      dump_opt (out, e->slice.upper, depth);
      g_string_append_c (out, ' ');
      dump_opt (out, e->slice.step, depth);
      break;
    case GRAFT_PY_EXPR_CALL:
      g_string_append (out, "(Call ");
      dump_expr (out, e->call.func, depth);
      dump_exprs (out, &e->call.args, depth);
      dump_keywords (out, e->call.keywords, e->call.n_keywords, depth);
      break;
    case GRAFT_PY_EXPR_BIN_OP:
      g_string_append_printf (out, "(BinOp %s ", graft_py_bin_op_to_string (e->bin_op.op));
      dump_expr (out, e->bin_op.left, depth);
      g_string_append_c (out, ' ');
      dump_expr (out, e->bin_op.right, depth);
      break;
    case GRAFT_PY_EXPR_UNARY_OP:
      g_string_append_printf (out, "(UnaryOp %s ", graft_py_unary_op_to_string (e->unary_op.op));
      dump_expr (out, e->unary_op.operand, depth);
      break;
    case GRAFT_PY_EXPR_BOOL_OP:
      g_string_append_printf (out, "(BoolOp %s", e->bool_op.op == GRAFT_PY_BOOL_AND ? "and" : "or");
      dump_exprs (out, &e->bool_op.values, depth);
      break;
    case GRAFT_PY_EXPR_COMPARE:
      g_string_append (out, "(Compare ");
      dump_expr (out, e->compare.left, depth);
      for (guint i = 0; i < e->compare.comparators.len; i++)
        {
          g_string_append_printf (out, " %s ", graft_py_cmp_op_to_string (e->compare.ops[i]));
          dump_expr (out, e->compare.comparators.items[i], depth);
        }
      break;
    case GRAFT_PY_EXPR_IF_EXP:
      g_string_append (out, "(IfExp ");
      dump_expr (out, e->if_exp.test, depth);
      g_string_append_c (out, ' ');
      dump_expr (out, e->if_exp.body, depth);
      g_string_append_c (out, ' ');
      dump_expr (out, e->if_exp.orelse, depth);
      break;
    case GRAFT_PY_EXPR_LAMBDA:
      g_string_append (out, "(Lambda ");
      dump_arguments (out, e->lambda.args, depth);
      g_string_append_c (out, ' ');
      dump_expr (out, e->lambda.body, depth);
      break;
    case GRAFT_PY_EXPR_TUPLE:
    case GRAFT_PY_EXPR_LIST:
    case GRAFT_PY_EXPR_SET:
      g_string_append_printf (out, "(%s", seq_names[e->kind - GRAFT_PY_EXPR_TUPLE]);
      dump_exprs (out, &e->sequence.elts, depth);
      dump_ctx (out, e->sequence.ctx);
      break;
    case GRAFT_PY_EXPR_DICT:
      g_string_append (out, "(Dict");
      for (guint i = 0; i < e->dict.keys.len; i++)
        {
          if (e->dict.keys.items[i] == NULL)
            g_string_append (out, " (** ");
          else
            {
              g_string_append (out, " (");
              dump_expr (out, e->dict.keys.items[i], depth);
              g_string_append_c (out, ' ');
            }
          dump_expr (out, e->dict.values.items[i], depth);
          g_string_append_c (out, ')');
        }
      break;
    case GRAFT_PY_EXPR_LIST_COMP:
    case GRAFT_PY_EXPR_SET_COMP:
    case GRAFT_PY_EXPR_DICT_COMP:
    case GRAFT_PY_EXPR_GENERATOR_EXP:
      g_string_append_printf (out, "(%s ", comp_names[e->kind - GRAFT_PY_EXPR_LIST_COMP]);
      dump_expr (out, e->comp.elt, depth);
      if (e->comp.value != NULL)
        {
          g_string_append_c (out, ' ');
          dump_expr (out, e->comp.value, depth);
        }
      dump_generators (out, e->comp.generators, e->comp.n_generators, depth);
      break;
    case GRAFT_PY_EXPR_STARRED:
      g_string_append (out, "(Starred ");
      dump_expr (out, e->starred.value, depth);
      dump_ctx (out, e->starred.ctx);
      break;
    case GRAFT_PY_EXPR_NAMED_EXPR:
      g_string_append (out, "(NamedExpr ");
      dump_expr (out, e->named_expr.target, depth);
      g_string_append_c (out, ' ');
      dump_expr (out, e->named_expr.value, depth);
      break;
    case GRAFT_PY_EXPR_YIELD:
      g_string_append (out, "(Yield");
      if (e->value != NULL)
        {
          g_string_append_c (out, ' ');
          dump_expr (out, e->value, depth);
        }
      break;
    case GRAFT_PY_EXPR_YIELD_FROM:
      g_string_append (out, "(YieldFrom ");
      dump_expr (out, e->value, depth);
      break;
    case GRAFT_PY_EXPR_AWAIT:
      g_string_append (out, "(Await ");
      dump_expr (out, e->value, depth);
      break;
    default:
      g_string_append (out, "(?");
      break;
    }
  g_string_append_c (out, ')');
}

static void
dump_aliases (GString             *out,
              GraftPyAlias *const *names,
              guint                n_names)
{
  for (guint i = 0; i < n_names; i++)
    {
      if (names[i]->asname != NULL)
        g_string_append_printf (out, " (%s as %s)", names[i]->name, names[i]->asname);
      else
        g_string_append_printf (out, " %s", names[i]->name);
    }
}

static void
dump_decorators (GString               *out,
                 const GraftPyExprList *decorators,
                 guint                  depth)
{
  if (decorators->len == 0)
    return;
  g_string_append (out, " (decorators");
  dump_exprs (out, decorators, depth);
  g_string_append_c (out, ')');
}

static void
dump_stmt (GString           *out,
           const GraftPyStmt *s,
           guint              depth)
{
  if (depth > MAX_DUMP_DEPTH)
    {
      g_string_append (out, "(...)");
      return;
    }
  depth++;
  if (dump_spans)
    g_string_append_printf (out, "@%u-%u", s->start, s->end);

  switch (s->kind)
    {
    case GRAFT_PY_STMT_EXPR:
      g_string_append (out, "(Expr ");
      dump_expr (out, s->expr.value, depth);
      break;
    case GRAFT_PY_STMT_ASSIGN:
      g_string_append (out, "(Assign");
      dump_exprs (out, &s->assign.targets, depth);
      g_string_append (out, " = ");
      dump_expr (out, s->assign.value, depth);
      break;
    case GRAFT_PY_STMT_AUG_ASSIGN:
      g_string_append (out, "(AugAssign ");
      dump_expr (out, s->aug_assign.target, depth);
      g_string_append_printf (out, " %s= ", graft_py_bin_op_to_string (s->aug_assign.op));
      dump_expr (out, s->aug_assign.value, depth);
      break;
    case GRAFT_PY_STMT_ANN_ASSIGN:
      g_string_append (out, "(AnnAssign ");
      dump_expr (out, s->ann_assign.target, depth);
      g_string_append (out, " : ");
      dump_expr (out, s->ann_assign.annotation, depth);
      if (s->ann_assign.value != NULL)
        {
          g_string_append (out, " = ");
          dump_expr (out, s->ann_assign.value, depth);
        }
      if (!s->ann_assign.simple)
        g_string_append (out, " not-simple");
      break;
    case GRAFT_PY_STMT_RETURN:
      g_string_append (out, "(Return");
      if (s->ret.value != NULL)
        {
          g_string_append_c (out, ' ');
          dump_expr (out, s->ret.value, depth);
        }
      break;
    case GRAFT_PY_STMT_PASS:
      g_string_append (out, "(Pass");
      break;
    case GRAFT_PY_STMT_BREAK:
      g_string_append (out, "(Break");
      break;
    case GRAFT_PY_STMT_CONTINUE:
      g_string_append (out, "(Continue");
      break;
    case GRAFT_PY_STMT_IF:
      g_string_append (out, "(If ");
      dump_expr (out, s->if_stmt.test, depth);
      dump_body (out, "body", &s->if_stmt.body, depth);
      if (s->if_stmt.orelse.len > 0)
        dump_body (out, "orelse", &s->if_stmt.orelse, depth);
      break;
    case GRAFT_PY_STMT_FOR:
      g_string_append (out, s->for_stmt.is_async ? "(AsyncFor " : "(For ");
      dump_expr (out, s->for_stmt.target, depth);
      g_string_append_c (out, ' ');
      dump_expr (out, s->for_stmt.iter, depth);
      dump_body (out, "body", &s->for_stmt.body, depth);
      if (s->for_stmt.orelse.len > 0)
        dump_body (out, "orelse", &s->for_stmt.orelse, depth);
      break;
    case GRAFT_PY_STMT_WHILE:
      g_string_append (out, "(While ");
      dump_expr (out, s->while_stmt.test, depth);
      dump_body (out, "body", &s->while_stmt.body, depth);
      if (s->while_stmt.orelse.len > 0)
        dump_body (out, "orelse", &s->while_stmt.orelse, depth);
      break;
    case GRAFT_PY_STMT_WITH:
      g_string_append (out, s->with_stmt.is_async ? "(AsyncWith" : "(With");
      for (guint i = 0; i < s->with_stmt.n_items; i++)
        {
          g_string_append (out, " (item ");
          dump_expr (out, s->with_stmt.items[i]->context_expr, depth);
          if (s->with_stmt.items[i]->optional_vars != NULL)
            {
              g_string_append (out, " as ");
              dump_expr (out, s->with_stmt.items[i]->optional_vars, depth);
            }
          g_string_append_c (out, ')');
        }
      dump_body (out, "body", &s->with_stmt.body, depth);
      break;
    case GRAFT_PY_STMT_ASSERT:
      g_string_append (out, "(Assert ");
      dump_expr (out, s->assert_stmt.test, depth);
      if (s->assert_stmt.msg != NULL)
        {
          g_string_append_c (out, ' ');
          dump_expr (out, s->assert_stmt.msg, depth);
        }
      break;
    case GRAFT_PY_STMT_RAISE:
      g_string_append (out, "(Raise");
      if (s->raise_stmt.exc != NULL)
        {
          g_string_append_c (out, ' ');
          dump_expr (out, s->raise_stmt.exc, depth);
        }
      if (s->raise_stmt.cause != NULL)
        {
          g_string_append (out, " (from ");
          dump_expr (out, s->raise_stmt.cause, depth);
          g_string_append_c (out, ')');
        }
      break;
    case GRAFT_PY_STMT_DELETE:
      g_string_append (out, "(Delete");
      dump_exprs (out, &s->delete_stmt.targets, depth);
      break;
    case GRAFT_PY_STMT_GLOBAL:
    case GRAFT_PY_STMT_NONLOCAL:
      g_string_append (out, s->kind == GRAFT_PY_STMT_GLOBAL ? "(Global" : "(Nonlocal");
      for (guint i = 0; i < s->names.n_names; i++)
        g_string_append_printf (out, " %s", s->names.names[i]);
      break;
    case GRAFT_PY_STMT_TRY:
      g_string_append (out, s->try_stmt.is_star ? "(TryStar" : "(Try");
      dump_body (out, "body", &s->try_stmt.body, depth);
      for (guint i = 0; i < s->try_stmt.n_handlers; i++)
        {
          const GraftPyExceptHandler *h = s->try_stmt.handlers[i];

          g_string_append (out, " (except");
          if (h->type != NULL)
            {
              g_string_append_c (out, ' ');
              dump_expr (out, h->type, depth);
            }
          if (h->name != NULL)
            g_string_append_printf (out, " as %s", h->name);
          dump_body (out, "body", &h->body, depth);
          g_string_append_c (out, ')');
        }
      if (s->try_stmt.orelse.len > 0)
        dump_body (out, "orelse", &s->try_stmt.orelse, depth);
      if (s->try_stmt.finalbody.len > 0)
        dump_body (out, "finally", &s->try_stmt.finalbody, depth);
      break;
    case GRAFT_PY_STMT_IMPORT:
      g_string_append (out, "(Import");
      dump_aliases (out, s->import.names, s->import.n_names);
      break;
    case GRAFT_PY_STMT_IMPORT_FROM:
      g_string_append (out, "(ImportFrom ");
      for (guint i = 0; i < s->import_from.level; i++)
        g_string_append_c (out, '.');
      if (s->import_from.module != NULL)
        g_string_append (out, s->import_from.module);
      dump_aliases (out, s->import_from.names, s->import_from.n_names);
      break;
    case GRAFT_PY_STMT_FUNCTION_DEF:
      g_string_append_printf (out, "(%s %s",
                              s->function_def.is_async ? "AsyncFunctionDef" : "FunctionDef",
                              s->function_def.name);
      if (s->function_def.private_prefix > 0)
        g_string_append_printf (out, " (bound %s)", graft_py_stmt_get_bound_name (s));
      dump_decorators (out, &s->function_def.decorators, depth);
      g_string_append_c (out, ' ');
      dump_arguments (out, s->function_def.args, depth);
      if (s->function_def.returns != NULL)
        {
          g_string_append (out, " (returns ");
          dump_expr (out, s->function_def.returns, depth);
          g_string_append_c (out, ')');
        }
      dump_body (out, "body", &s->function_def.body, depth);
      break;
    case GRAFT_PY_STMT_CLASS_DEF:
      g_string_append_printf (out, "(ClassDef %s", s->class_def.name);
      if (s->class_def.private_prefix > 0)
        g_string_append_printf (out, " (bound %s)", graft_py_stmt_get_bound_name (s));
      dump_decorators (out, &s->class_def.decorators, depth);
      if (s->class_def.bases.len > 0)
        {
          g_string_append (out, " (bases");
          dump_exprs (out, &s->class_def.bases, depth);
          g_string_append_c (out, ')');
        }
      dump_keywords (out, s->class_def.keywords, s->class_def.n_keywords, depth);
      dump_body (out, "body", &s->class_def.body, depth);
      break;
    default:
      g_string_append (out, "(?");
      break;
    }
  g_string_append_c (out, ')');
}

/**
 * graft_py_ast_dump_expr:
 * @expr: an expression
 * @out: where to append the text
 *
 * Appends an S-expression for @expr, such as `(BinOp + (Name a) (Constant 1))`.
 * Subtrees nested more than a thousand levels deep are written `(...)`.
 */
void
graft_py_ast_dump_expr (const GraftPyExpr *expr,
                        GString           *out)
{
  g_return_if_fail (expr != NULL);
  g_return_if_fail (out != NULL);
  dump_expr (out, expr, 0);
}

/**
 * graft_py_ast_dump_stmt:
 * @stmt: a statement
 * @out: where to append the text
 *
 * Appends an S-expression for @stmt, such as `(Return (Name x))`.
 */
void
graft_py_ast_dump_stmt (const GraftPyStmt *stmt,
                        GString           *out)
{
  g_return_if_fail (stmt != NULL);
  g_return_if_fail (out != NULL);
  dump_stmt (out, stmt, 0);
}

/**
 * graft_py_ast_dump:
 * @module: a parsed module
 * @out: where to append the text
 *
 * Appends `(Module STMT...)` with one S-expression per top-level statement,
 * for tests and debugging.
 */
void
graft_py_ast_dump (GraftPyModule *module,
                   GString       *out)
{
  g_return_if_fail (module != NULL);
  g_return_if_fail (out != NULL);

  g_string_append (out, "(Module");
  for (guint i = 0; i < module->body.len; i++)
    {
      g_string_append_c (out, ' ');
      dump_stmt (out, module->body.items[i], 0);
    }
  g_string_append_c (out, ')');
}

/**
 * _graft_py_ast_dump_spans:
 * @module: a module
 * @out: where to append the text
 *
 * As graft_py_ast_dump(), with each statement's, expression's and keyword
 * argument's byte span (`@START-END`) after its opening parenthesis, for
 * tests that compare two trees of the same source.
 */
void
_graft_py_ast_dump_spans (GraftPyModule *module,
                          GString       *out)
{
  dump_spans = TRUE;
  graft_py_ast_dump (module, out);
  dump_spans = FALSE;
}
