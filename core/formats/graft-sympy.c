/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-sympy.c: reads the `srepr` text of a sympy expression, as a `.pt2`
 * stores symbolic sizes (torch/_export/serde/serialize.py: `_print_sympy`),
 * and prints it as `str()` does (sympy's StrPrinter, with torch's own
 * printing of FloorDiv, torch/utils/_sympy/functions.py), which is what
 * torch shows in annotations (`f32[s0, 2*s0 + 1]`, `Sym((s0//2))`).
 *
 * torch re-parses the text with sympy and prints the result; sympy's
 * printer orders the terms of a sum and the factors of a product, and the
 * text torch wrote comes from an expression already in that order, so the
 * arguments are printed in the order written.  What is printed is
 * StrPrinter's: signs pulled out of sums (`s0 - 1`) and products (`-s0`),
 * rational coefficients and negative powers as quotients (`3*s0/2`,
 * `s1/s0`), `sqrt`, parentheses by sympy's precedences (torch's
 * FloorDiv, Mod, PythonMod and the true divisions rank below a sum), the
 * relations (`Eq(s0, 2)`, `s0 > 2`), `&`, `|`, `~`, and every other
 * function as `Name(args)`.  Keyword arguments (a Symbol's assumptions) are
 * read and dropped.  Nesting is bounded by GRAFT_MAX_PARSE_DEPTH; a text
 * that is not an srepr is refused.
 */
#include "config.h"

#include "graft-sympy-private.h"
#include "graft-limits.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* sympy's PRECEDENCE values (sympy/printing/precedence.py). */
#define PREC_OR             20
#define PREC_AND            30
#define PREC_RELATIONAL     35
#define PREC_BITWISE_OR     36
#define PREC_BITWISE_AND    38
#define PREC_ADD            40
#define PREC_MUL            50
#define PREC_POW            60
#define PREC_FUNC           70
#define PREC_NOT            100
#define PREC_ATOM           1000
#define PREC_LOWER_THAN_ADD 35 /* torch's FloorDiv, Mod, PythonMod, IntTrueDiv */

typedef enum {
  EXPR_CALL, /* Name(args) */
  EXPR_INT,  /* a bare integer literal */
  EXPR_STR,  /* a quoted string (its text, unescaped only as far as needed) */
  EXPR_NAME, /* a bare name: oo, -oo, int_oo, true, nan */
} ExprKind;

typedef struct Expr Expr;
struct Expr
{
  ExprKind    kind;
  const char *text; /* Borrowed from the srepr: the name, digits or string body */
  gsize       len;
  Expr      **args; /* Owned through the parser's list: positional arguments */
  guint       n_args;
};

typedef struct
{
  const char *p;
  const char *end;
  GPtrArray  *all;     /* Owned: every Expr and args array, freed together */
  GHashTable *symbols; /* Borrowed, nullable: names of the Symbols seen */
  const char *problem; /* static: why the text was refused */
} Parser;

static void
skip_space (Parser *ps)
{
  while (ps->p < ps->end && g_ascii_isspace (*ps->p))
    ps->p++;
}

static gboolean
is_name_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static Expr *
new_expr (Parser     *ps,
          ExprKind    kind,
          const char *text,
          gsize       len)
{
  Expr *e = g_new0 (Expr, 1);

  g_ptr_array_add (ps->all, e);
  e->kind = kind;
  e->text = text;
  e->len = len;
  return e;
}

static gboolean
text_is (const Expr *e,
         const char *name)
{
  return e->len == strlen (name) && memcmp (e->text, name, e->len) == 0;
}

static gboolean
call_is (const Expr *e,
         const char *name)
{
  return e->kind == EXPR_CALL && text_is (e, name);
}

static Expr *parse_expr (Parser *ps,
                         guint   depth);

/* After the name and `(`: positional arguments, then `)`. */
static gboolean
parse_call_args (Parser *ps,
                 Expr   *call,
                 guint   depth)
{
  GPtrArray *args = g_ptr_array_new ();

  skip_space (ps);
  while (ps->p < ps->end && *ps->p != ')')
    {
      const char *save = ps->p;
      gboolean    keyword = FALSE;
      Expr       *arg;

      if (is_name_start (*ps->p))
        {
          const char *q = ps->p;

          while (q < ps->end && (g_ascii_isalnum (*q) || *q == '_'))
            q++;
          while (q < ps->end && g_ascii_isspace (*q))
            q++;
          if (q < ps->end && *q == '=')
            {
              ps->p = q + 1;
              keyword = TRUE;
            }
        }
      arg = parse_expr (ps, depth + 1);
      if (arg == NULL)
        {
          g_ptr_array_free (args, TRUE);
          return FALSE;
        }
      if (!keyword)
        g_ptr_array_add (args, arg);
      (void) save;
      skip_space (ps);
      if (ps->p < ps->end && *ps->p == ',')
        {
          ps->p++;
          skip_space (ps);
        }
      else if (ps->p >= ps->end || *ps->p != ')')
        {
          g_ptr_array_free (args, TRUE);
          ps->problem = "expected ',' or ')'";
          return FALSE;
        }
    }
  if (ps->p >= ps->end)
    {
      g_ptr_array_free (args, TRUE);
      ps->problem = "unclosed '('";
      return FALSE;
    }
  ps->p++;
  call->n_args = args->len;
  call->args = (Expr **) g_ptr_array_free (args, FALSE);
  g_ptr_array_add (ps->all, call->args);
  return TRUE;
}

static Expr *
parse_expr (Parser *ps,
            guint   depth)
{
  const char *start;

  if (depth > GRAFT_MAX_PARSE_DEPTH)
    {
      ps->problem = "nested too deeply";
      return NULL;
    }
  skip_space (ps);
  if (ps->p >= ps->end)
    {
      ps->problem = "unexpected end";
      return NULL;
    }
  start = ps->p;
  if (*ps->p == '\'' || *ps->p == '"')
    {
      char quote = *ps->p++;

      while (ps->p < ps->end && *ps->p != quote)
        ps->p += *ps->p == '\\' && ps->p + 1 < ps->end ? 2 : 1;
      if (ps->p >= ps->end)
        {
          ps->problem = "unterminated string";
          return NULL;
        }
      ps->p++;
      return new_expr (ps, EXPR_STR, start + 1, ps->p - start - 2);
    }
  if (g_ascii_isdigit (*ps->p) ||
      (*ps->p == '-' && ps->p + 1 < ps->end && g_ascii_isdigit (ps->p[1])))
    {
      ps->p++;
      while (ps->p < ps->end && g_ascii_isdigit (*ps->p))
        ps->p++;
      return new_expr (ps, EXPR_INT, start, ps->p - start);
    }
  if (*ps->p == '-' && ps->p + 1 < ps->end && is_name_start (ps->p[1]))
    ps->p++;
  if (ps->p < ps->end && is_name_start (*ps->p))
    {
      Expr *e;

      while (ps->p < ps->end && (g_ascii_isalnum (*ps->p) || *ps->p == '_'))
        ps->p++;
      skip_space (ps);
      if (ps->p < ps->end && *ps->p == '(' && *start != '-')
        {
          const char *name_end = start;

          while (g_ascii_isalnum (*name_end) || *name_end == '_')
            name_end++;
          e = new_expr (ps, EXPR_CALL, start, name_end - start);
          ps->p++;
          if (!parse_call_args (ps, e, depth))
            return NULL;
          if (call_is (e, "Symbol") || call_is (e, "Dummy"))
            {
              if (e->n_args < 1 || e->args[0]->kind != EXPR_STR)
                {
                  ps->problem = "a Symbol without a name";
                  return NULL;
                }
              if (ps->symbols != NULL)
                g_hash_table_add (ps->symbols,
                                  g_strndup (e->args[0]->text, e->args[0]->len));
            }
          return e;
        }
      {
        const char *name_end = start;

        if (*name_end == '-')
          name_end++;
        while (name_end < ps->end && (g_ascii_isalnum (*name_end) || *name_end == '_'))
          name_end++;
        return new_expr (ps, EXPR_NAME, start, name_end - start);
      }
    }
  ps->problem = "unexpected character";
  return NULL;
}

/* The value of a whole-number literal that fits 64 bits. */
static gboolean
int_value (const Expr *e,
           gint64     *out)
{
  const Expr *lit = e;
  char        buf[32];
  char       *end;

  if (e->kind == EXPR_CALL && text_is (e, "Integer") && e->n_args == 1)
    lit = e->args[0];
  if (lit->kind != EXPR_INT || lit->len >= sizeof buf)
    return FALSE;
  memcpy (buf, lit->text, lit->len);
  buf[lit->len] = '\0';
  errno = 0;
  *out = g_ascii_strtoll (buf, &end, 10);
  return errno == 0 && *end == '\0';
}

/* Whether @e is an Integer (or a bare integer), and its text. */
static gboolean
is_integer (const Expr *e)
{
  return e->kind == EXPR_INT ||
         (e->kind == EXPR_CALL && text_is (e, "Integer") && e->n_args == 1 &&
          e->args[0]->kind == EXPR_INT);
}

static gboolean
is_rational (const Expr *e)
{
  return e->kind == EXPR_CALL && text_is (e, "Rational") && e->n_args == 2 &&
         e->args[0]->kind == EXPR_INT && e->args[1]->kind == EXPR_INT;
}

static gboolean
is_number (const Expr *e)
{
  return is_integer (e) || is_rational (e) || call_is (e, "Float");
}

/* Whether a number's text starts with a minus sign. */
static gboolean
is_negative_number (const Expr *e)
{
  const Expr *lit = e;

  if (e->kind == EXPR_CALL && e->n_args >= 1)
    lit = e->args[0];
  return is_number (e) && lit->len > 0 && lit->text[0] == '-';
}

static gboolean
is_one (const Expr *e,
        gint64      which)
{
  gint64 v;

  return is_integer (e) && int_value (e, &v) && v == which;
}

static int
precedence (const Expr *e)
{
  if (e->kind == EXPR_INT)
    return e->len > 0 && e->text[0] == '-' ? PREC_ADD : PREC_ATOM;
  if (e->kind == EXPR_NAME)
    return e->len > 0 && e->text[0] == '-' ? PREC_ADD : PREC_ATOM;
  if (e->kind == EXPR_STR)
    return PREC_ATOM;
  if (is_integer (e) || call_is (e, "Float"))
    return is_negative_number (e) ? PREC_ADD : PREC_ATOM;
  if (is_rational (e))
    return is_negative_number (e) ? PREC_ADD : PREC_MUL;
  if (call_is (e, "Symbol") || call_is (e, "Dummy"))
    return PREC_ATOM;
  if (call_is (e, "Add"))
    return PREC_ADD;
  if (call_is (e, "Mul"))
    return e->n_args > 0 && is_negative_number (e->args[0]) ? PREC_ADD : PREC_MUL;
  if (call_is (e, "Pow") || call_is (e, "FloatPow"))
    return PREC_POW;
  if (call_is (e, "PowByNatural"))
    return PREC_MUL;
  if (call_is (e, "FloorDiv") || call_is (e, "CleanDiv") || call_is (e, "Mod") ||
      call_is (e, "PythonMod") || call_is (e, "IntTrueDiv") || call_is (e, "FloatTrueDiv"))
    return PREC_LOWER_THAN_ADD;
  if (call_is (e, "Equality") || call_is (e, "Unequality") || call_is (e, "StrictGreaterThan") ||
      call_is (e, "GreaterThan") || call_is (e, "StrictLessThan") || call_is (e, "LessThan"))
    return PREC_RELATIONAL;
  if (call_is (e, "And"))
    return PREC_AND;
  if (call_is (e, "Or"))
    return PREC_OR;
  if (call_is (e, "Not"))
    return PREC_NOT;
  /* Max and Min are not sympy Functions: the printer ranks them as atoms. */
  if (call_is (e, "Max") || call_is (e, "Min"))
    return PREC_ATOM;
  return PREC_FUNC;
}

static void print_expr (GString    *out,
                        const Expr *e);

/* StrPrinter.parenthesize, not strict: parentheses when @e binds no
 * tighter than @level. */
static void
print_paren (GString    *out,
             const Expr *e,
             double      level)
{
  if (precedence (e) <= level)
    {
      g_string_append_c (out, '(');
      print_expr (out, e);
      g_string_append_c (out, ')');
    }
  else
    print_expr (out, e);
}

static void
print_args (GString    *out,
            const Expr *e,
            const char *sep,
            double      level)
{
  for (guint i = 0; i < e->n_args; i++)
    {
      if (i > 0)
        g_string_append (out, sep);
      if (level > 0)
        print_paren (out, e->args[i], level);
      else
        print_expr (out, e->args[i]);
    }
}

static void
print_add (GString    *out,
           const Expr *e)
{
  for (guint i = 0; i < e->n_args; i++)
    {
      const Expr *term = e->args[i];
      g_autoptr (GString) t = g_string_new (NULL);
      gboolean minus = FALSE;
      gboolean is_add = call_is (term, "Add");

      print_expr (t, term);
      if (t->str[0] == '-' && !is_add)
        {
          minus = TRUE;
          g_string_erase (t, 0, 1);
        }
      if (i == 0)
        {
          if (minus)
            g_string_append_c (out, '-');
        }
      else
        g_string_append (out, minus ? " - " : " + ");
      if (precedence (term) < PREC_ADD || is_add)
        g_string_append_printf (out, "(%s)", t->str);
      else
        g_string_append (out, t->str);
    }
}

/* One item of a product's numerator or denominator: an expression, or a
 * literal text (a coefficient's digits). */
typedef struct
{
  const Expr *expr;
  const char *text;
  gsize       len;
  gboolean    paren_base; /* a 1/x base that is itself a product or power */
  const Expr *pow_base;   /* Pow(b, -e) in the denominator: printed b**e */
  const Expr *pow_exp;
} Factor;

static void
print_factor (GString      *out,
              const Factor *f,
              double        level)
{
  if (f->text != NULL)
    {
      /* A coefficient's positive digits: an atom. */
      g_string_append_len (out, f->text, f->len);
      return;
    }
  if (f->pow_base != NULL)
    {
      /* Pow(b, e) with e made positive, ranked as a power. */
      if (PREC_POW <= level)
        g_string_append_c (out, '(');
      print_paren (out, f->pow_base, PREC_POW);
      g_string_append (out, "**");
      if (f->pow_exp->kind == EXPR_INT || is_integer (f->pow_exp))
        {
          const Expr *lit = f->pow_exp->kind == EXPR_INT ? f->pow_exp : f->pow_exp->args[0];

          g_string_append_len (out, lit->text + 1, lit->len - 1);
        }
      else
        {
          /* Rational(-p, q): (p/q) */
          g_string_append_c (out, '(');
          g_string_append_len (out, f->pow_exp->args[0]->text + 1, f->pow_exp->args[0]->len - 1);
          g_string_append_c (out, '/');
          g_string_append_len (out, f->pow_exp->args[1]->text, f->pow_exp->args[1]->len);
          g_string_append_c (out, ')');
        }
      if (PREC_POW <= level)
        g_string_append_c (out, ')');
      return;
    }
  if (f->paren_base)
    {
      g_string_append_c (out, '(');
      print_paren (out, f->expr, level);
      g_string_append_c (out, ')');
      return;
    }
  print_paren (out, f->expr, level);
}

static gboolean
is_negative_exponent (const Expr *exp)
{
  return (is_integer (exp) || is_rational (exp)) && is_negative_number (exp);
}

static void
print_mul (GString    *out,
           const Expr *e)
{
  g_autoptr (GArray) num = g_array_new (FALSE, TRUE, sizeof (Factor));
  g_autoptr (GArray) den = g_array_new (FALSE, TRUE, sizeof (Factor));
  gboolean minus = FALSE;
  double   prec = precedence (e);

  for (guint i = 0; i < e->n_args; i++)
    {
      const Expr *f = e->args[i];
      Factor      item = { 0 };

      if (i == 0 && is_number (f) && is_negative_number (f))
        {
          /* The coefficient's sign goes in front; -1 goes altogether. */
          const Expr *lit = f->kind == EXPR_INT ? f : f->args[0];

          minus = TRUE;
          if (is_rational (f))
            {
              if (!(lit->len == 2 && lit->text[1] == '1'))
                {
                  item.text = lit->text + 1;
                  item.len = lit->len - 1;
                  g_array_append_val (num, item);
                }
              item.text = f->args[1]->text;
              item.len = f->args[1]->len;
              g_array_append_val (den, item);
            }
          else if (!is_one (f, -1))
            {
              item.text = lit->text + 1;
              item.len = lit->len - 1;
              g_array_append_val (num, item);
            }
          continue;
        }
      if (call_is (f, "Pow") && f->n_args == 2 && is_negative_exponent (f->args[1]))
        {
          if (is_one (f->args[1], -1))
            {
              item.expr = f->args[0];
              item.paren_base = call_is (f->args[0], "Mul") || call_is (f->args[0], "Pow");
            }
          else
            {
              item.pow_base = f->args[0];
              item.pow_exp = f->args[1];
            }
          g_array_append_val (den, item);
          continue;
        }
      if (is_rational (f))
        {
          if (!(f->args[0]->len == 1 && f->args[0]->text[0] == '1'))
            {
              item.text = f->args[0]->text;
              item.len = f->args[0]->len;
              g_array_append_val (num, item);
            }
          item.text = f->args[1]->text;
          item.len = f->args[1]->len;
          g_array_append_val (den, item);
          continue;
        }
      item.expr = f;
      g_array_append_val (num, item);
    }

  if (minus)
    g_string_append_c (out, '-');
  if (num->len == 0)
    g_string_append_c (out, '1');
  else if (num->len == 1 && minus)
    /* Python's unary minus binds between a product and a power. */
    print_factor (out, &g_array_index (num, Factor, 0), 0.5 * (PREC_POW + PREC_MUL));
  else
    for (guint i = 0; i < num->len; i++)
      {
        if (i > 0)
          g_string_append_c (out, '*');
        print_factor (out, &g_array_index (num, Factor, i), prec);
      }
  if (den->len == 0)
    return;
  g_string_append_c (out, '/');
  if (den->len > 1)
    g_string_append_c (out, '(');
  for (guint i = 0; i < den->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, '*');
      print_factor (out, &g_array_index (den, Factor, i), prec);
    }
  if (den->len > 1)
    g_string_append_c (out, ')');
}

static void
print_pow (GString    *out,
           const Expr *e)
{
  const Expr *base = e->args[0];
  const Expr *exp = e->args[1];

  if (is_rational (exp) && text_is (exp->args[0], "1") && text_is (exp->args[1], "2"))
    {
      g_string_append (out, "sqrt(");
      print_expr (out, base);
      g_string_append_c (out, ')');
      return;
    }
  if (is_rational (exp) && text_is (exp->args[0], "-1") && text_is (exp->args[1], "2"))
    {
      g_string_append (out, "1/sqrt(");
      print_expr (out, base);
      g_string_append_c (out, ')');
      return;
    }
  if (is_one (exp, -1))
    {
      g_string_append (out, "1/");
      print_paren (out, base, PREC_POW);
      return;
    }
  print_paren (out, base, PREC_POW);
  g_string_append (out, "**");
  print_paren (out, exp, PREC_POW);
}

static void
print_relation (GString    *out,
                const Expr *e,
                const char *op)
{
  print_paren (out, e->args[0], PREC_RELATIONAL);
  g_string_append_printf (out, " %s ", op);
  print_paren (out, e->args[1], PREC_RELATIONAL);
}

static void
print_name (GString    *out,
            const Expr *e)
{
  if (text_is (e, "true"))
    g_string_append (out, "True");
  else if (text_is (e, "false"))
    g_string_append (out, "False");
  else
    g_string_append_len (out, e->text, e->len);
}

static void
print_expr (GString    *out,
            const Expr *e)
{
  switch (e->kind)
    {
    case EXPR_INT:
    case EXPR_STR:
      g_string_append_len (out, e->text, e->len);
      return;
    case EXPR_NAME:
      print_name (out, e);
      return;
    case EXPR_CALL:
    default:
      break;
    }
  if ((call_is (e, "Symbol") || call_is (e, "Dummy")) && e->n_args >= 1)
    g_string_append_len (out, e->args[0]->text, e->args[0]->len);
  else if ((call_is (e, "Integer") || call_is (e, "Float")) && e->n_args >= 1)
    g_string_append_len (out, e->args[0]->text, e->args[0]->len);
  else if (is_rational (e))
    {
      print_expr (out, e->args[0]);
      g_string_append_c (out, '/');
      print_expr (out, e->args[1]);
    }
  else if (call_is (e, "Add") && e->n_args > 0)
    print_add (out, e);
  else if (call_is (e, "Mul") && e->n_args > 0)
    print_mul (out, e);
  else if (call_is (e, "Pow") && e->n_args == 2)
    print_pow (out, e);
  else if ((call_is (e, "FloorDiv") || call_is (e, "CleanDiv")) && e->n_args == 2)
    {
      g_string_append_c (out, '(');
      print_paren (out, e->args[0], PREC_ATOM - 0.5);
      g_string_append (out, "//");
      print_paren (out, e->args[1], PREC_ATOM - 0.5);
      g_string_append_c (out, ')');
    }
  else if (call_is (e, "Equality") && e->n_args == 2)
    {
      g_string_append (out, "Eq(");
      print_args (out, e, ", ", 0);
      g_string_append_c (out, ')');
    }
  else if (call_is (e, "Unequality") && e->n_args == 2)
    {
      g_string_append (out, "Ne(");
      print_args (out, e, ", ", 0);
      g_string_append_c (out, ')');
    }
  else if (call_is (e, "StrictGreaterThan") && e->n_args == 2)
    print_relation (out, e, ">");
  else if (call_is (e, "GreaterThan") && e->n_args == 2)
    print_relation (out, e, ">=");
  else if (call_is (e, "StrictLessThan") && e->n_args == 2)
    print_relation (out, e, "<");
  else if (call_is (e, "LessThan") && e->n_args == 2)
    print_relation (out, e, "<=");
  else if (call_is (e, "And") && e->n_args > 0)
    print_args (out, e, " & ", PREC_BITWISE_AND);
  else if (call_is (e, "Or") && e->n_args > 0)
    print_args (out, e, " | ", PREC_BITWISE_OR);
  else if (call_is (e, "Not") && e->n_args == 1)
    {
      g_string_append_c (out, '~');
      print_paren (out, e->args[0], PREC_NOT);
    }
  else
    {
      /* StrPrinter._print_Function and _print_Basic: Name(args). */
      g_string_append_len (out, e->text, e->len);
      g_string_append_c (out, '(');
      print_args (out, e, ", ", 0);
      g_string_append_c (out, ')');
    }
}

/**
 * _graft_sympy_print_srepr:
 * @srepr: the text, `sympy.srepr` of an expression
 * @length: its length in bytes
 * @out: where `str()` of the expression is appended
 * @symbols: (nullable): a set of strings (owned by the set) that receives
 *   the name of every Symbol in the expression
 * @out_problem: (out) (optional): on failure, why (a static text)
 *
 * Returns: whether @srepr reads as an expression; nothing is appended
 *   otherwise
 */
gboolean
_graft_sympy_print_srepr (const char  *srepr,
                          gsize        length,
                          GString     *out,
                          GHashTable  *symbols,
                          const char **out_problem)
{
  Parser ps = { srepr, srepr + length, g_ptr_array_new_with_free_func (g_free), symbols, NULL };
  Expr  *e = parse_expr (&ps, 0);

  if (e != NULL)
    {
      skip_space (&ps);
      if (ps.p != ps.end)
        {
          e = NULL;
          ps.problem = "text after the expression";
        }
    }
  if (e != NULL)
    print_expr (out, e);
  else if (out_problem != NULL)
    *out_problem = ps.problem;
  g_ptr_array_free (ps.all, TRUE);
  return e != NULL;
}
