/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-py-ast-private.h: the module's arena and name cache, shared by
 * graft-py-ast.c and the parser, which allocates a node or a name every few
 * bytes of source: the common case (room in the current chunk, a name
 * made recently) is inline here, the rest in graft-py-ast.c.
 */
#pragma once

#if !defined(GRAFT_COMPILATION)
#error "graft-py-ast-private.h is internal to core."
#endif

#include "graft-py-ast.h"

#include <string.h>

G_BEGIN_DECLS

typedef struct _GraftPyChunk GraftPyChunk;
struct _GraftPyChunk
{
  GraftPyChunk *next;
  gsize         size;
  gdouble       data[]; /* gdouble: the alignment every node needs */
};

/* A list of chunks, the current one first, and the free room of the
 * current one (both %NULL without a chunk). */
typedef struct
{
  GraftPyChunk *chunks;
  gsize         chunk_size; /* size of the next regular chunk */
  char         *ptr;        /* the current chunk's first free byte */
  char         *limit;      /* the current chunk's end */
} GraftPyArena;

/* The name cache's size: a power of two. */
#define GRAFT_PY_N_RECENT 512

/* The short-name memo's size: a power of two, 1 << GRAFT_PY_WORD_BITS. */
#define GRAFT_PY_WORD_BITS 8

/* A name of 1 to 8 bytes as the name cache gave it, with its bytes as one
 * word (those past the name zero; a name holds no NUL, so the word is the
 * name). */
typedef struct
{
  guint64     word;
  const char *name;
} GraftPyWordSlot;

struct _GraftPyModule
{
  /* Owned */
  GraftSource    *source;
  GraftPyArena    main;      /* names, strings, and the nodes of the tree */
  GraftPyArena    transient; /* nodes of a body read one statement at a time */
  GraftPyStmtList body;
  /* Recently made names, in slots picked by length and end bytes. */
  const char *recent[GRAFT_PY_N_RECENT];
  guint32     recent_len[GRAFT_PY_N_RECENT];
  /* What the cache gave for short names the fast line read recently, by
   * their word (_graft_py_module_word_slot()). */
  GraftPyWordSlot words[1 << GRAFT_PY_WORD_BITS];

  /* Borrowed */
  GraftPyArena *nodes;  /* where nodes and lists go: &main, or &transient */
  gboolean      pinned; /* the transient nodes hold a lambda, def or class */
  /* The parser at work is inside a class, where private names are
   * mangled: the fast line gives up on them.  Set by the parser. */
  gboolean in_class;
};

gpointer    _graft_py_arena_alloc (GraftPyArena *arena,
                                   gsize         size);
void        _graft_py_ast_dump_spans (GraftPyModule *module,
                                      GString       *out);
const char *_graft_py_module_intern_slot (GraftPyModule *self,
                                          const char    *str,
                                          gsize          len,
                                          guint          slot);

/* Allocates @size bytes from @arena: a pointer bump when the current chunk
 * has room. */
static inline gpointer
_graft_py_arena_alloc_fast (GraftPyArena *arena,
                            gsize         size)
{
  char *mem = arena->ptr;

  size = (size + sizeof (gdouble) - 1) & ~(sizeof (gdouble) - 1);
  if (G_LIKELY (size > 0 && (gsize) (arena->limit - mem) >= size))
    {
      arena->ptr = mem + size;
      return mem;
    }
  return _graft_py_arena_alloc (arena, size);
}

/* graft_py_module_release_transient() inline, for the body stream: the
 * common case, one chunk and nothing pinned, is a reset of its room. */
static inline void
_graft_py_module_release_transient_fast (GraftPyModule *self)
{
  GraftPyChunk *first = self->transient.chunks;

  if (G_LIKELY (first != NULL && first->next == NULL && !self->pinned))
    {
      self->transient.ptr = (char *) first->data;
      return;
    }
  graft_py_module_release_transient (self);
}

/* graft_py_module_alloc() inline, for the parser. */
static inline gpointer
_graft_py_module_alloc_fast (GraftPyModule *self,
                             gsize          size)
{
  return _graft_py_arena_alloc_fast (self->nodes, size);
}

/* graft_py_expr_new() inline, for the parser. */
static inline GraftPyExpr *
_graft_py_expr_new_fast (GraftPyModule  *self,
                         GraftPyExprKind kind,
                         gsize           start,
                         gsize           end)
{
  GraftPyExpr *expr = _graft_py_arena_alloc_fast (self->nodes, sizeof *expr);

  memset (expr, 0, sizeof *expr);
  expr->kind = kind;
  expr->start = start;
  expr->end = end;
  return expr;
}

/* graft_py_stmt_new() inline, for the parser. */
static inline GraftPyStmt *
_graft_py_stmt_new_fast (GraftPyModule  *self,
                         GraftPyStmtKind kind,
                         gsize           start,
                         gsize           end)
{
  GraftPyStmt *stmt = _graft_py_arena_alloc_fast (self->nodes, sizeof *stmt);

  memset (stmt, 0, sizeof *stmt);
  stmt->kind = kind;
  stmt->start = start;
  stmt->end = end;
  return stmt;
}

/* The slot of the name cache for a name of @len bytes (at least one):
 * it mixes the length, the first byte and the last two, so that `h12` and
 * `h13`, `h10` and `h20` go to different slots. */
static inline guint
_graft_py_intern_slot (const char *str,
                       gsize       len)
{
  guint r = (guint) len * 67u + (guchar) str[0] * 31u + (guchar) str[len - 1] +
            (guchar) str[len > 1 ? len - 2 : 0] * 131u;

  return r & (GRAFT_PY_N_RECENT - 1);
}

/* graft_py_module_intern() inline, for the parser: @len is at least one. */
static inline const char *
_graft_py_module_intern_fast (GraftPyModule *self,
                              const char    *str,
                              gsize          len)
{
  guint       r = _graft_py_intern_slot (str, len);
  const char *recent = self->recent[r];

  if (self->recent_len[r] == len)
    {
      gsize i = 0;

      /* Names are short: a loop beats a call of memcmp. */
      while (i < len && recent[i] == str[i])
        i++;
      if (i == len)
        return recent;
    }
  return _graft_py_module_intern_slot (self, str, len, r);
}

/* For 0 to 8: the bits of a word read from memory that hold its first
 * that many bytes. */
static const guint64 _graft_py_word_masks[9] = {
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  0,
  G_GUINT64_CONSTANT (0xff),
  G_GUINT64_CONSTANT (0xffff),
  G_GUINT64_CONSTANT (0xffffff),
  G_GUINT64_CONSTANT (0xffffffff),
  G_GUINT64_CONSTANT (0xffffffffff),
  G_GUINT64_CONSTANT (0xffffffffffff),
  G_GUINT64_CONSTANT (0xffffffffffffff),
  G_GUINT64_CONSTANT (0xffffffffffffffff),
#else
  0,
  G_GUINT64_CONSTANT (0xff00000000000000),
  G_GUINT64_CONSTANT (0xffff000000000000),
  G_GUINT64_CONSTANT (0xffffff0000000000),
  G_GUINT64_CONSTANT (0xffffffff00000000),
  G_GUINT64_CONSTANT (0xffffffffff000000),
  G_GUINT64_CONSTANT (0xffffffffffff0000),
  G_GUINT64_CONSTANT (0xffffffffffffff00),
  G_GUINT64_CONSTANT (0xffffffffffffffff),
#endif
};

/* The memo's slot for a name of 1 to 8 bytes, where 8 bytes may be read
 * from @str (the name and what follows it), and the name's bytes as one
 * word in @out_word. */
static inline GraftPyWordSlot *
_graft_py_module_word_slot (GraftPyModule *self,
                            const char    *str,
                            gsize          len,
                            guint64       *out_word)
{
  guint64 w;

  memcpy (&w, str, sizeof w);
  w &= _graft_py_word_masks[len];
  *out_word = w;
  return &self->words[(w * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> (64 - GRAFT_PY_WORD_BITS)];
}

G_END_DECLS
