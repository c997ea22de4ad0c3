/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dot-scanner.c: where things are in DOT text, which cgraph does not
 * record: a small DOT scanner finds the first place each node appears and
 * where a graph attribute is set (for located errors), and checks a text
 * before cgraph reads it.
 */
#include "config.h"

#include "graft-dot-scanner-private.h"
#include "graft-error.h"
#include "graft-source.h"

#include <string.h>

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

typedef struct
{
  TokKind kind;
  char    punct;
  guint8  quoted; /* a quoted or HTML string (never a keyword) */
  guint8  html;
  guint8  closed; /* a quoted string has its closing quote */
  gsize   start;
  gsize   end;
} Tok;

typedef struct
{
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
          const char *close =
              g_strstr_len (t + sc->pos + 2, (gssize) (sc->length - sc->pos - 2), "*/");

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
      else if (c == '-' && sc->pos + 1 < sc->length &&
               (t[sc->pos + 1] == '>' || t[sc->pos + 1] == '-'))
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
      Scanner    saved;
      Tok        more;

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

/* Records in @spans (indexed like the document's nodes, through @index:
 * name -> index + 1) where each node first appears in the text. */
void
_graft_dot_find_node_spans (const char *text,
                            gsize       length,
                            GHashTable *index,
                            Span       *spans)
{
  Scanner sc = { text, length, 0, { 0 }, FALSE, NULL, 0 };
  g_autoptr (GString) buf = g_string_new (NULL);
  gboolean in_brackets = FALSE;
  gboolean skip_id = FALSE;
  Tok      tok;

  for (next_token (&sc, &tok); tok.kind != TOK_END; next_token (&sc, &tok))
    {
      const Tok *ahead;
      guint      found;

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

/* Finds where the graph attribute @name is first set in the text: its name
 * in a `graph [...]` list or in a `name = value` statement.  Returns
 * whether it was found; @span is then the attribute's name. */
gboolean
_graft_dot_find_graph_attr_span (const char *text,
                                 gsize       length,
                                 const char *name,
                                 Span       *span)
{
  Scanner sc = { text, length, 0, { 0 }, FALSE, NULL, 0 };
  g_autoptr (GString) buf = g_string_new (NULL);
  gboolean after_graph = FALSE; /* the last token was the keyword `graph` */
  gboolean in_brackets = FALSE;
  gboolean in_graph_list = FALSE; /* the brackets follow `graph` */
  gboolean at_value = FALSE;      /* the token after `=`: a value, not a name */
  Tok      tok;

  for (next_token (&sc, &tok); tok.kind != TOK_END; next_token (&sc, &tok))
    {
      gboolean   was_after_graph = after_graph;
      gboolean   was_at_value = at_value;
      const Tok *ahead;

      after_graph = FALSE;
      at_value = FALSE;
      if (tok.kind != TOK_ID)
        {
          if (tok.kind == TOK_PUNCT && tok.punct == '[')
            {
              in_brackets = TRUE;
              in_graph_list = was_after_graph;
            }
          else if (tok.kind == TOK_PUNCT && tok.punct == ']')
            in_brackets = in_graph_list = FALSE;
          else if (tok.kind == TOK_PUNCT && tok.punct == '=')
            at_value = TRUE;
          continue;
        }
      if (tok_is_keyword (&sc, &tok, "graph") && !in_brackets && !was_at_value)
        {
          after_graph = TRUE;
          continue;
        }
      read_id (&sc, &tok, buf);
      if (was_at_value || (in_brackets && !in_graph_list))
        continue;
      ahead = peek_token (&sc);
      if (ahead->kind == TOK_PUNCT && ahead->punct == '=' && strcmp (buf->str, name) == 0)
        {
          span->start = (guint32) tok.start;
          span->end = (guint32) tok.end;
          span->found = TRUE;
          return TRUE;
        }
    }
  return FALSE;
}

/* Checks the text before cgraph reads it: an empty text and an
 * undirected graph get errors at the right place, and a text must not end
 * inside a comment or a string, which would leave cgraph's lexer in that
 * state for the next read (graft-gv.c). */
gboolean
_graft_dot_check_text (GraftSource *source,
                       GError     **error)
{
  Scanner sc = {
    graft_source_get_text (source), graft_source_get_length (source), 0, { 0 }, FALSE, NULL, 0
  };
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
      graft_set_error_at_offset (error, source, sc.unterminated_at, sc.unterminated_at + 1,
                                 GRAFT_PARSE_ERROR_SYNTAX, "unterminated %s", sc.unterminated);
      return FALSE;
    }
  return TRUE;
}
