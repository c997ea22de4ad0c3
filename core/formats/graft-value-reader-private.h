/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-value-reader-private.h: the one reader of Python value reprs, the
 * literal text of node arguments as torch.fx's listings print them and as
 * Graft's DOT writes them in graft_args and graft_kwargs.  The listing
 * reader and the DOT reader both read values through it
 * (graft-value-reader.c says what each style accepts).
 */
#pragma once

#include "graft-arg.h"
#include "graft-error.h"

G_BEGIN_DECLS

/**
 * GraftValueStyle:
 * @GRAFT_VALUE_LISTING: torch.fx's `_format_arg` in a listing's node
 *   arguments: `%node`, bare strings and bare dict keys
 * @GRAFT_VALUE_REPR: Python's repr, in a listing's `return` line, slice
 *   parts and placeholder defaults: bare node names, quoted strings
 * @GRAFT_VALUE_DOT: Graft's DOT graft_args/graft_kwargs: repr with
 *   `%node`, `complex(RE, IM)`, `device('S')`, `symbol('S')`, free blanks
 *   and DOT's string escapes (graft-dot-escape-private.h)
 */
typedef enum {
  GRAFT_VALUE_LISTING,
  GRAFT_VALUE_REPR,
  GRAFT_VALUE_DOT,
} GraftValueStyle;

typedef struct _GraftValueReader GraftValueReader;

/* Turns the node reference [@start, @end) of @vr's text, whose name starts
 * at @name_start, into a GRAFT_ARG_NODE in @out; on failure calls
 * _graft_value_fail() and returns FALSE. */
typedef gboolean (*GraftValueRefFunc) (GraftValueReader *vr,
                                       gsize             start,
                                       gsize             name_start,
                                       gsize             end,
                                       GraftArg         *out);

struct _GraftValueReader
{
  /* Borrowed */
  const char       *text;
  GraftValueRefFunc read_ref;
  gpointer          user_data; /* for read_ref */

  /* Owned */
  GArray *stack;   /* GraftArg: items of the containers being read */
  char   *message; /* nullable: what is wrong, once a read failed */

  gsize               pos;   /* the cursor */
  gsize               end;   /* values end here */
  guint               depth; /* containers (in DOT: values) open */
  gsize               fail_start;
  gsize               fail_end;
  GraftParseErrorCode fail_code;
};

void     _graft_value_reader_init (GraftValueReader *vr,
                                   const char       *text,
                                   GraftValueRefFunc read_ref,
                                   gpointer          user_data);
void     _graft_value_reader_clear (GraftValueReader *vr);
gboolean _graft_value_read (GraftValueReader *vr,
                            GraftValueStyle   style,
                            GraftArg         *out);
void     _graft_value_skip_blanks (GraftValueReader *vr);
gboolean _graft_value_fail (GraftValueReader   *vr,
                            gsize               start,
                            gsize               end,
                            GraftParseErrorCode code,
                            const char         *format,
                            ...) G_GNUC_PRINTF (5, 6);
void     _graft_value_read_word (const char *s,
                                 gsize       len,
                                 GraftArg   *out);
gboolean _graft_value_symbol_is_bare (const char *s,
                                      gsize       len);

G_END_DECLS
