/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-py-fast-line-private.h: the parser's fast path for the simple
 * statement lines that make up most model code (`h = torch.cat([a, b],
 * dim=1)[:, :16] * 0.5`), read from the bytes in one pass without the
 * lexer's tokens or the grammar's levels.
 */
#pragma once

#if !defined(GRAFT_COMPILATION)
#error "graft-py-fast-line-private.h is internal to core."
#endif

#include "graft-py-ast-private.h"
#include "graft-py-lexer.h"

#include <string.h>

G_BEGIN_DECLS

GraftPyStmt *_graft_py_fast_line (GraftPyModule *module,
                                  const char    *text,
                                  gsize          text_len,
                                  gsize          start,
                                  gsize          name_end,
                                  guint          max_nest,
                                  gsize         *out_newline);

void  _graft_py_parser_set_fast_lines (gboolean enabled);
guint _graft_py_parser_get_fast_lines_read (void);

GraftPyTokenKind _graft_py_keyword_kind (const char *s,
                                         gsize       len);

/* After a line the caller read itself, whose NEWLINE ends before @pos:
 * reads the next line's first token into @out_token as
 * graft_py_lexer_next() would after _graft_py_lexer_set_line_start (@self,
 * @pos), if that line is indented with spaces as deep as the block and
 * starts with a name or keyword that its fast path reads (no INDENT,
 * DEDENT or error possible).  Otherwise returns %FALSE with @self
 * untouched.  @checked: whether the lexer is known to be where this
 * function left it last time it returned %TRUE (then its state is as it
 * requires, and is not looked at again). */
static inline __attribute__ ((always_inline)) gboolean
_graft_py_lexer_next_line_name (GraftPyLexer *self,
                                gsize         pos,
                                gboolean      checked,
                                GraftPyToken *out_token)
{
  const guint64 spaces8 = G_GUINT64_CONSTANT (0x2020202020202020);
  const guchar *t = (const guchar *) self->text;
  guint         top = self->indents[self->n_indents - 1];
  gsize         q = pos, e;
  guchar        c;

  if (!checked && (self->embedded || self->pending_dedents > 0 || self->n_brackets > 0 ||
                   self->alt_indents[self->n_indents - 1] != top))
    return FALSE;
  if (G_LIKELY (top <= 8 && pos + 8 <= self->end))
    {
      guint64 w;

      /* @top spaces: one word's first @top bytes (a space after them is
       * no name's first byte). */
      memcpy (&w, t + pos, 8);
      if (((w ^ spaces8) & _graft_py_word_masks[top]) != 0)
        return FALSE;
      q = pos + top;
    }
  else
    {
      for (guint64 w; q + 8 <= self->end && (memcpy (&w, t + q, 8), w == spaces8);)
        q += 8;
      while (t[q] == ' ')
        q++;
      if (q - pos != top)
        return FALSE;
    }
  c = t[q];
  /* [A-Za-z_] */
  if (!_graft_py_id_char[c] || (c >= '0' && c <= '9'))
    return FALSE;
  e = q + 1;
  while (_graft_py_id_char[t[e]])
    e++;
  /* A name that goes on beyond ASCII, or a string's prefix. */
  if (t[e] >= 0x80 || ((t[e] == '\'' || t[e] == '"') && e - q <= 2))
    return FALSE;
  out_token->kind = _graft_py_may_be_keyword (c, e - q)
                        ? _graft_py_keyword_kind ((const char *) t + q, e - q)
                        : GRAFT_PY_TOKEN_NAME;
  out_token->flags = 0;
  out_token->start = q;
  out_token->end = e;
  self->pos = e;
  self->at_line_start = FALSE;
  self->mid_line = TRUE;
  self->line_has_tokens = TRUE;
  return TRUE;
}

G_END_DECLS
