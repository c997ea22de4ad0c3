/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-py-parser.c: tests of the Python lexer and parser.  Trees are
 * compared through graft_py_ast_dump(); errors through their code, message
 * and 1-based line and column.  The large-input cases check that deep and
 * long inputs end in an error or a tree, never a crash; they assert no
 * timings.
 */
#include "config.h"

#include "graft-view.h"
#include <string.h>

/* Parses @text and returns the dump of the module, failing the test on an
 * error. */
static char *
dump_module (const char *text)
{
  g_autoptr (GraftSource) source = graft_source_new ("test.py", text, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  g_assert_nonnull (module);
  graft_py_ast_dump (module, out);
  return g_string_free (out, FALSE);
}

/* Parses @text as one expression statement and returns the dump of the
 * expression. */
static char *
dump_expr (const char *text)
{
  g_autofree char *line = g_strconcat (text, "\n", NULL);
  g_autoptr (GraftSource) source = graft_source_new ("test.py", line, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);
  const GraftPyStmtList *body;
  GString               *out = g_string_new (NULL);

  g_assert_no_error (error);
  g_assert_nonnull (module);
  body = graft_py_module_get_body (module);
  g_assert_cmpuint (body->len, ==, 1);
  g_assert_cmpint (body->items[0]->kind, ==, GRAFT_PY_STMT_EXPR);
  graft_py_ast_dump_expr (body->items[0]->expr.value, out);
  return g_string_free (out, FALSE);
}

#define assert_expr(text, expected)            \
  G_STMT_START                                 \
  {                                            \
    g_autofree char *dump_ = dump_expr (text); \
    g_assert_cmpstr (dump_, ==, expected);     \
  }                                            \
  G_STMT_END

#define assert_module(text, expected)            \
  G_STMT_START                                   \
  {                                              \
    g_autofree char *dump_ = dump_module (text); \
    g_assert_cmpstr (dump_, ==, expected);       \
  }                                              \
  G_STMT_END

/* Parses @text, expecting an error; returns it as `LINE:COL: [code] MESSAGE`. */
static char *
parse_error (const char *text)
{
  g_autoptr (GraftSource) source = graft_source_new ("test.py", text, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);
  guint       line = 0, column = 0;
  const char *code;

  g_assert_null (module);
  g_assert_nonnull (error);
  g_assert_true (graft_error_get_location (error, NULL, &line, &column, NULL, NULL));
  switch (error->code)
    {
    case GRAFT_PARSE_ERROR_SYNTAX:
      code = "syntax";
      break;
    case GRAFT_PARSE_ERROR_LIMIT:
      code = "limit";
      break;
    case GRAFT_PARSE_ERROR_UNSUPPORTED:
      code = "unsupported";
      break;
    default:
      code = "other";
      break;
    }
  /* Every message is one lowercase line without a final period. */
  g_assert_null (strchr (error->message, '\n'));
  g_assert_false (g_str_has_suffix (error->message, "."));
  return g_strdup_printf ("%u:%u: [%s] %s", line, column, code, error->message);
}

#define assert_error(text, expected)            \
  G_STMT_START                                  \
  {                                             \
    g_autofree char *err_ = parse_error (text); \
    g_assert_cmpstr (err_, ==, expected);       \
  }                                             \
  G_STMT_END

/* Tokens as `KIND@start-end` joined by spaces. */
static char *
tokens (const char *text)
{
  g_autoptr (GraftSource) source = graft_source_new ("test.py", text, -1);
  g_autoptr (GError) error = NULL;
  GraftPyLexer lexer;
  GraftPyToken tok;
  GString     *out = g_string_new (NULL);

  graft_py_lexer_init (&lexer, source);
  do
    {
      g_assert_true (graft_py_lexer_next (&lexer, &tok, &error));
      g_assert_no_error (error);
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append_printf (out, "%s@%u-%u", graft_py_token_kind_get_name (tok.kind), tok.start,
                              tok.end);
    }
  while (tok.kind != GRAFT_PY_TOKEN_ENDMARKER);
  return g_string_free (out, FALSE);
}

static void
test_lexer_tokens (void)
{
  g_autofree char *simple = tokens ("x = a->b\n");
  g_autofree char *blocks = tokens ("if x:\n  y\n\n  # c\n  \tz\nw");
  g_autofree char *brackets = tokens ("f(a,\n  b) \\\n + 1\n");
  g_autofree char *ops = tokens ("a **= b //= c @= d := e ... !=");

  g_assert_cmpstr (simple, ==,
                   "name@0-1 =@2-3 name@4-5 ->@5-7 name@7-8 newline@8-9 end of file@9-9");
  /* A tab indents to column 8, deeper than two spaces. */
  g_assert_cmpstr (blocks, ==, "if@0-2 name@3-4 :@4-5 newline@5-6 indent@6-8 name@8-9 newline@9-10 "
                               "indent@17-20 name@20-21 newline@21-22 dedent@22-22 dedent@22-22 "
                               "name@22-23 newline@23-23 end of file@23-23");
  g_assert_cmpstr (brackets, ==,
                   "name@0-1 (@1-2 name@2-3 ,@3-4 name@7-8 )@8-9 +@13-14 number@15-16 "
                   "newline@16-17 end of file@17-17");
  g_assert_cmpstr (ops, ==,
                   "name@0-1 **=@2-5 name@6-7 //=@8-11 name@12-13 @=@14-16 name@17-18 "
                   ":=@19-21 name@22-23 ...@24-27 !=@28-30 newline@30-30 end of file@30-30");
}

/* The lexer reads ordinary code by byte class and hands anything else
 * over to its general path, sometimes after part of a token (a name that
 * turns out to be a string prefix, digits that turn out to be a float):
 * the tokens must be those the general path makes. */
static void
test_lexer_handover (void)
{
  static const struct
  {
    const char *text;
    const char *expected;
  } cases[] = {
    { "x = 1_000 + 0x1F + 00 + 0 + 2.5 + .5 + 3j + 1e3 + 7\n",
      "name@0-1 =@2-3 number@4-9 +@10-11 number@12-16 +@17-18 number@19-21 +@22-23 number@24-25 "
      "+@26-27 number@28-31 +@32-33 number@34-36 +@37-38 number@39-41 +@42-43 number@44-47 +@48-49 "
      "number@50-51 newline@51-52 end of file@52-52" },
    { "s = rb'a' + f\"b\" + u'c' + br + x + Rb\"\" + abc'd'\n",
      "name@0-1 =@2-3 string@4-9 +@10-11 string@12-16 +@17-18 string@19-23 +@24-25 name@26-28 "
      "+@29-30 name@31-32 +@33-34 string@35-39 +@40-41 name@42-45 string@45-48 newline@48-49 end "
      "of file@49-49" },
    { "a->b; c<<=d>>e**f//g <> h ~i !j @k\n",
      "name@0-1 ->@1-3 name@3-4 ;@4-5 name@6-7 <<=@7-10 name@10-11 >>@11-13 name@13-14 **@14-16 "
      "name@16-17 //@17-19 name@19-20 <@21-22 >@22-23 name@24-25 ~@26-27 name@27-28 !@29-30 "
      "name@30-31 @@32-33 name@33-34 newline@34-35 end of file@35-35" },
    { "\xc3\xa9 = ab\xc3\xa9 + x\xc3\xa9y\n",
      "name@0-2 =@3-4 name@5-9 +@10-11 name@12-16 newline@16-17 end of file@17-17" },
    { "if x:\n\ty\n\tz\n", "if@0-2 name@3-4 :@4-5 newline@5-6 indent@6-7 name@7-8 newline@8-9 "
                           "name@10-11 newline@11-12 dedent@12-12 end of file@12-12" },
    { "if x:\n  y\n  \n\n  z\n    \nw\n",
      "if@0-2 name@3-4 :@4-5 newline@5-6 indent@6-8 name@8-9 newline@9-10 name@16-17 newline@17-18 "
      "dedent@23-23 name@23-24 newline@24-25 end of file@25-25" },
    { "(a\n  ,b)\n[c\n]\n", "(@0-1 name@1-2 ,@5-6 name@6-7 )@7-8 newline@8-9 [@9-10 name@10-11 "
                            "]@12-13 newline@13-14 end of file@14-14" },
    { "x = [1,\r\n 2]\r\ny\r\n", "name@0-1 =@2-3 [@4-5 number@5-6 ,@6-7 number@10-11 ]@11-12 "
                                 "newline@12-14 name@14-15 newline@15-17 end of file@17-17" },
    { "x = 1 # c\n# d\n  # e\ny\n",
      "name@0-1 =@2-3 number@4-5 newline@9-10 name@20-21 newline@21-22 end of file@22-22" },
    { "class_ = not_ + iff + fo + for_ + Nonee + i + continues\n",
      "name@0-6 =@7-8 name@9-13 +@14-15 name@16-19 +@20-21 name@22-24 +@25-26 name@27-31 +@32-33 "
      "name@34-39 +@40-41 name@42-43 +@44-45 name@46-55 newline@55-56 end of file@56-56" },
    { "False None True and as assert async await break class continue def del elif else "
      "except finally for from global if import in is lambda nonlocal not or pass raise "
      "return try while with yield\n",
      "False@0-5 None@6-10 True@11-15 and@16-19 as@20-22 assert@23-29 async@30-35 await@36-41 "
      "break@42-47 class@48-53 continue@54-62 def@63-66 del@67-70 elif@71-75 else@76-80 "
      "except@81-87 finally@88-95 for@96-99 from@100-104 global@105-111 if@112-114 import@115-121 "
      "in@122-124 is@125-127 lambda@128-134 nonlocal@135-143 not@144-147 or@148-150 pass@151-155 "
      "raise@156-161 return@162-168 try@169-172 while@173-178 with@179-183 yield@184-189 "
      "newline@189-190 end of file@190-190" },
    { "if a:\n  if b:\n    c\n  d\ne",
      "if@0-2 name@3-4 :@4-5 newline@5-6 indent@6-8 if@8-10 name@11-12 :@12-13 newline@13-14 "
      "indent@14-18 name@18-19 newline@19-20 dedent@22-22 name@22-23 newline@23-24 dedent@24-24 "
      "name@24-25 newline@25-25 end of file@25-25" },
    { "\xef\xbb\xbfx\n \fy\n", "name@3-4 newline@4-5 name@7-8 newline@8-9 end of file@9-9" },
    { "f(x)  \\\n  + y\n",
      "name@0-1 (@1-2 name@2-3 )@3-4 +@10-11 name@12-13 newline@13-14 end of file@14-14" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = tokens (cases[i].text);

      g_assert_cmpstr (got, ==, cases[i].expected);
    }
}

static void
test_lexer_errors (void)
{
  assert_error ("x = 'abc\n", "1:5: [syntax] unterminated string literal");
  assert_error ("x = 1\ny = '''abc\n\n", "2:5: [syntax] unterminated triple-quoted string literal");
  assert_error ("a = $b\n", "1:5: [syntax] invalid character '$' (U+0024)");
  assert_error ("a = 1 ? 2\n", "1:7: [syntax] invalid character '?' (U+003F)");
  assert_error ("a = b \xe2\x82\xac\n", "1:7: [syntax] invalid character '\xe2\x82\xac' (U+20AC)");
  assert_error ("a = 1abc\n", "1:5: [syntax] invalid decimal literal");
  assert_error ("a = 1_\n", "1:5: [syntax] invalid decimal literal");
  assert_error ("a = 1__0\n", "1:5: [syntax] invalid decimal literal");
  assert_error ("a = 1e\n", "1:5: [syntax] invalid decimal literal");
  assert_error ("a = 0x\n", "1:5: [syntax] invalid hexadecimal literal");
  assert_error ("a = 0o8\n", "1:7: [syntax] invalid digit '8' in octal literal");
  assert_error ("a = 0b102\n", "1:9: [syntax] invalid digit '2' in binary literal");
  assert_error ("a = 0777\n", "1:5: [syntax] leading zeros in decimal integer literals are not "
                              "permitted; use an 0o prefix for octal integers");
  assert_error ("f(a))\n", "1:5: [syntax] unmatched ')'");
  assert_error ("x = [1,\n 2]]\n", "2:4: [syntax] unmatched ']'");
  assert_error ("x = (1,\n 2]\n", "2:3: [syntax] closing ']' does not match opening '(' on line 1");
  assert_error ("x = {1: (2]}\n", "1:11: [syntax] closing ']' does not match opening '('");
  assert_error ("x = foo(1,\n", "1:8: [syntax] '(' was never closed");
  assert_error ("foo(a, b\nx = 1\ny = 2\n", "1:4: [syntax] '(' was never closed");
  assert_error ("if x:\n    a\n  b\n",
                "3:3: [syntax] unindent does not match any outer indentation level");
  assert_error ("if x:\n        a\n\tb\n",
                "3:1: [syntax] inconsistent use of tabs and spaces in indentation");
  assert_error ("x = 1 \\ 2\n",
                "1:7: [syntax] unexpected character after a line continuation character");
  assert_error ("x = 1\n\\",
                "2:1: [syntax] unexpected end of file after a line continuation character");
  assert_error ("x = 'a\xff'\n", "1:7: [syntax] the source is not valid UTF-8 (byte 0xff)");
  /* Past the first sixteen and thirty-two bytes, which are checked in
   * blocks. */
  assert_error ("x = 1\ny = 'abcdefghijklmnopqrstuvwxyz'\nz = '\xc3\xa9\xc3'\n",
                "3:7: [syntax] the source is not valid UTF-8 (byte 0xc3)");
  assert_error ("x = 1\ny = 'abcdefghijklmnopqrstuvwxyz0123456789'  # \x80\n",
                "2:47: [syntax] the source is not valid UTF-8 (byte 0x80)");
}

static void
test_lexer_nul_in_source (void)
{
  /* NUL bytes cannot be written in a C string literal test above past the
   * first one; build the text with an explicit length. */
  static const char text[] = "x = 1\ny = '\0'\n";
  g_autoptr (GraftSource) source = graft_source_new ("test.py", text, sizeof text - 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);
  guint line = 0, column = 0;

  g_assert_null (module);
  g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_SYNTAX);
  g_assert_true (graft_error_get_location (error, NULL, &line, &column, NULL, NULL));
  g_assert_cmpuint (line, ==, 2);
  g_assert_cmpuint (column, ==, 6);
  g_assert_cmpstr (error->message, ==, "source code cannot contain null bytes");
}

static void
test_literals_numbers (void)
{
  assert_expr ("0", "(Constant 0)");
  assert_expr ("42", "(Constant 42)");
  assert_expr ("0x1F", "(Constant 31)");
  assert_expr ("0XfF_fF", "(Constant 65535)");
  assert_expr ("0o17", "(Constant 15)");
  assert_expr ("0b101", "(Constant 5)");
  assert_expr ("0b_1", "(Constant 1)");
  assert_expr ("1_000_000", "(Constant 1000000)");
  assert_expr ("00", "(Constant 0)");
  assert_expr ("9223372036854775807", "(Constant 9223372036854775807)");
  /* Up to 18 digits are read at once, more digit by digit. */
  assert_expr ("999999999999999999", "(Constant 999999999999999999)");
  assert_expr ("1000000000000000000", "(Constant 1000000000000000000)");
  assert_expr ("-123456789012345678", "(UnaryOp - (Constant 123456789012345678))");
  assert_expr ("1.", "(Constant 1.0)");
  assert_expr (".5", "(Constant 0.5)");
  assert_expr ("1e-5", "(Constant 1e-05)");
  assert_expr ("1_000.5", "(Constant 1000.5)");
  assert_expr ("1.5E+3", "(Constant 1500.0)");
  assert_expr ("0777.5", "(Constant 777.5)");
  assert_expr ("0.1", "(Constant 0.1)");
  assert_expr ("1e400", "(Constant inf)");
  assert_expr ("1j", "(Constant 1j)");
  assert_expr ("2.5j", "(Constant 2.5j)");
  assert_expr ("1e3J", "(Constant 1000j)");
  assert_expr ("-1", "(UnaryOp - (Constant 1))");
  assert_expr ("-9223372036854775808", "(Constant -9223372036854775808)");
  assert_expr ("-9223372036854775807", "(UnaryOp - (Constant 9223372036854775807))");
  assert_error ("x = -9223372036854775808 ** 2\n",
                "1:6: [unsupported] integer literal too large: Graft keeps integers in 64 bits");
  assert_expr ("None", "(Constant None)");
  assert_expr ("True", "(Constant True)");
  assert_expr ("False", "(Constant False)");
  assert_expr ("...", "(Constant ...)");
  /* Decimal ints beyond 64 bits are kept as their digits; other bases are
   * refused. */
  assert_expr ("9223372036854775808", "(Constant 9223372036854775808)");
  assert_expr ("1_0000_0000_0000_0000_0000", "(Constant 100000000000000000000)");
  assert_error ("x = 0x1_0000_0000_0000_0000\n",
                "1:5: [unsupported] integer literal too large: Graft keeps integers in 64 bits");
}

static void
test_literals_strings (void)
{
  assert_expr ("'abc'", "(Constant 'abc')");
  assert_expr ("\"abc\"", "(Constant 'abc')");
  assert_expr ("'it\\'s'", "(Constant 'it\\'s')");
  assert_expr ("\"say \\\"hi\\\"\"", "(Constant 'say \"hi\"')");
  assert_expr ("'a\\n\\t\\\\b'", "(Constant 'a\\n\\t\\\\b')");
  assert_expr ("'\\x41\\101\\u00e9\\U0001F600'", "(Constant 'AA\xc3\xa9\xf0\x9f\x98\x80')");
  assert_expr ("'\\0'", "(Constant '\\x00')");
  assert_expr ("'\\d'", "(Constant '\\\\d')");
  assert_expr ("'a\\\nb'", "(Constant 'ab')");
  assert_expr ("'''a\nb'''", "(Constant 'a\\nb')");
  assert_expr ("\"\"\"a\r\nb\"\"\"", "(Constant 'a\\nb')");
  assert_expr ("'''it's \"x\"'''", "(Constant 'it\\'s \"x\"')");
  assert_expr ("r'\\n\\''", "(Constant '\\\\n\\\\\\'')");
  assert_expr ("R'a\\b'", "(Constant 'a\\\\b')");
  assert_expr ("u'x'", "(Constant 'x')");
  assert_expr ("U'x'", "(Constant 'x')");
  assert_expr ("b'a\\x80\\n'", "(Constant b'a\\x80\\n')");
  assert_expr ("B'\\u00e9'", "(Constant b'\\\\u00e9')");
  assert_expr ("rb'\\x'", "(Constant b'\\\\x')");
  assert_expr ("Br'\\x'", "(Constant b'\\\\x')");
  assert_expr ("'caf\xc3\xa9'", "(Constant 'caf\xc3\xa9')");
  assert_expr ("'a' 'b' \\\n'c'", "(Constant 'abc')");
  assert_expr ("('a'\n 'b')", "(Constant 'ab')");
  assert_expr ("b'a' b'b'", "(Constant b'ab')");
  assert_expr ("''", "(Constant '')");
  assert_error ("x = 'a' b'b'\n", "1:9: [syntax] cannot mix bytes and nonbytes literals");
  assert_error ("x = b'caf\xc3\xa9'\n",
                "1:10: [syntax] bytes can only contain ASCII literal characters");
  assert_error ("x = '\\x4'\n", "1:6: [syntax] truncated \\x escape: expected 2 hex digits");
  assert_error ("x = '\\u12'\n", "1:6: [syntax] truncated \\u escape: expected 4 hex digits");
  assert_error ("x = '\\U00110000'\n", "1:6: [syntax] illegal Unicode character in \\U escape");
  assert_error ("x = '\\N{DASH}'\n", "1:6: [unsupported] \\N{...} escapes are not supported");
}

static void
test_literals_fstrings (void)
{
  assert_expr ("f'abc'", "(JoinedStr (Constant 'abc'))");
  assert_expr ("f''", "(JoinedStr)");
  assert_expr ("f'a{x}b'", "(JoinedStr (Constant 'a') (FormattedValue (Name x)) (Constant 'b'))");
  assert_expr ("F'{x!r}'", "(JoinedStr (FormattedValue (Name x) !r))");
  assert_expr ("f'{x:>10}'", "(JoinedStr (FormattedValue (Name x) (JoinedStr (Constant '>10'))))");
  assert_expr ("f'{x!s:{w}.{p}f}'",
               "(JoinedStr (FormattedValue (Name x) !s (JoinedStr (FormattedValue (Name w)) "
               "(Constant '.') (FormattedValue (Name p)) (Constant 'f'))))");
  assert_expr ("f'{x=}'", "(JoinedStr (Constant 'x=') (FormattedValue (Name x) !r))");
  assert_expr ("f'{{a}}'", "(JoinedStr (Constant '{a}'))");
  assert_expr ("f'{a[\"k\"] + 1}'", "(JoinedStr (FormattedValue (BinOp + (Subscript (Name a) "
                                    "(Constant 'k')) (Constant 1))))");
  assert_expr ("f'{ {1: 2}[1] }'", "(JoinedStr (FormattedValue (Subscript (Dict ((Constant 1) "
                                   "(Constant 2))) (Constant 1))))");
  assert_expr ("'a' f'b{x}' 'c'",
               "(JoinedStr (Constant 'ab') (FormattedValue (Name x)) (Constant 'c'))");
  assert_expr ("rf'\\n{x}'", "(JoinedStr (Constant '\\\\n') (FormattedValue (Name x)))");
  assert_expr ("f'\\t{x}'", "(JoinedStr (Constant '\\t') (FormattedValue (Name x)))");
  assert_expr ("f'''{\nx\n}'''", "(JoinedStr (FormattedValue (Name x)))");
  assert_expr ("f\"{f'{x}'}\"",
               "(JoinedStr (FormattedValue (JoinedStr (FormattedValue (Name x)))))");
  assert_error ("x = f'{}'\n", "1:7: [syntax] f-string: empty expression not allowed");
  assert_error ("x = f'a}'\n", "1:8: [syntax] f-string: single '}' is not allowed");
  assert_error ("x = f'{a'\n", "1:7: [syntax] f-string: expecting '}'");
  assert_error ("x = f'{a!x}'\n",
                "1:10: [syntax] f-string: invalid conversion character: expected 's', 'r', or 'a'");
  assert_error ("x = f'{a#}'\n", "1:9: [syntax] f-string expression part cannot include '#'");
  assert_error ("x = f'{a +}'\n", "1:11: [syntax] expected an expression after '+'");
}

static void
test_precedence (void)
{
  assert_expr ("a + b * c", "(BinOp + (Name a) (BinOp * (Name b) (Name c)))");
  assert_expr ("a - b - c", "(BinOp - (BinOp - (Name a) (Name b)) (Name c))");
  assert_expr ("a * b @ c / d // e % f", "(BinOp % (BinOp // (BinOp / (BinOp @ (BinOp * (Name a) "
                                         "(Name b)) (Name c)) (Name d)) (Name e)) (Name f))");
  assert_expr ("-2 ** 2", "(UnaryOp - (BinOp ** (Constant 2) (Constant 2)))");
  assert_expr ("2 ** -1", "(BinOp ** (Constant 2) (UnaryOp - (Constant 1)))");
  assert_expr ("a ** b ** c", "(BinOp ** (Name a) (BinOp ** (Name b) (Name c)))");
  assert_expr ("-a.b ** c[0]",
               "(UnaryOp - (BinOp ** (Attribute (Name a) b) (Subscript (Name c) (Constant 0))))");
  assert_expr ("~-+x", "(UnaryOp ~ (UnaryOp - (UnaryOp + (Name x))))");
  assert_expr ("a | b ^ c & d << e + f", "(BinOp | (Name a) (BinOp ^ (Name b) (BinOp & (Name c) "
                                         "(BinOp << (Name d) (BinOp + (Name e) (Name f))))))");
  assert_expr ("a >> b << c", "(BinOp << (BinOp >> (Name a) (Name b)) (Name c))");
  assert_expr ("a < b | c", "(Compare (Name a) < (BinOp | (Name b) (Name c)))");
  assert_expr ("a < b <= c == d", "(Compare (Name a) < (Name b) <= (Name c) == (Name d))");
  assert_expr ("a is not b", "(Compare (Name a) is not (Name b))");
  assert_expr ("a not in b in c", "(Compare (Name a) not in (Name b) in (Name c))");
  assert_expr ("not a == b", "(UnaryOp not (Compare (Name a) == (Name b)))");
  assert_expr ("not not a", "(UnaryOp not (UnaryOp not (Name a)))");
  assert_expr ("a and not b", "(BoolOp and (Name a) (UnaryOp not (Name b)))");
  assert_expr ("a or b and c or d",
               "(BoolOp or (Name a) (BoolOp and (Name b) (Name c)) (Name d))");
  assert_expr ("a and b and c", "(BoolOp and (Name a) (Name b) (Name c))");
  assert_expr ("a if b or c else d", "(IfExp (BoolOp or (Name b) (Name c)) (Name a) (Name d))");
  assert_expr ("a if b else c if d else e",
               "(IfExp (Name b) (Name a) (IfExp (Name d) (Name c) (Name e)))");
  assert_expr ("lambda: a if b else c",
               "(Lambda (arguments) (IfExp (Name b) (Name a) (Name c)))");
  assert_expr ("lambda x, *y, z=1, **k: x", "(Lambda (arguments (args x) (vararg y) (kwonly (z = "
                                            "(Constant 1))) (kwarg k)) (Name x))");
  assert_expr ("(a + b) * c", "(BinOp * (BinOp + (Name a) (Name b)) (Name c))");
  assert_expr ("await x.y ** 2", "(BinOp ** (Await (Attribute (Name x) y)) (Constant 2))");
  assert_expr ("(x := 1 + 2)", "(NamedExpr (Name x store) (BinOp + (Constant 1) (Constant 2)))");
  assert_expr ("a.b(c)[d].e",
               "(Attribute (Subscript (Call (Attribute (Name a) b) (Name c)) (Name d)) e)");
}

static void
test_expressions (void)
{
  assert_expr ("f(a, *b, c=1, **d)", "(Call (Name f) (Name a) (Starred (Name b)) (keyword c "
                                     "(Constant 1)) (keyword ** (Name d)))");
  assert_expr ("f(a=1, *b)", "(Call (Name f) (Starred (Name b)) (keyword a (Constant 1)))");
  assert_expr ("f(x for x in y)",
               "(Call (Name f) (GeneratorExp (Name x) (for (Name x store) (Name y))))");
  assert_expr ("f(a,)", "(Call (Name f) (Name a))");
  assert_expr ("f()", "(Call (Name f))");
  assert_expr ("x[1:2]", "(Subscript (Name x) (Slice (Constant 1) (Constant 2) None))");
  assert_expr ("x[::2]", "(Subscript (Name x) (Slice None None (Constant 2)))");
  assert_expr ("x[:]", "(Subscript (Name x) (Slice None None None))");
  assert_expr ("x[a:b:c]", "(Subscript (Name x) (Slice (Name a) (Name b) (Name c)))");
  assert_expr ("x[1:, None, ...]", "(Subscript (Name x) (Tuple (Slice (Constant 1) None None) "
                                   "(Constant None) (Constant ...)))");
  assert_expr ("x[1,]", "(Subscript (Name x) (Tuple (Constant 1)))");
  assert_expr ("()", "(Tuple)");
  assert_expr ("(1,)", "(Tuple (Constant 1))");
  assert_expr ("1, 2", "(Tuple (Constant 1) (Constant 2))");
  assert_expr ("(*a, b)", "(Tuple (Starred (Name a)) (Name b))");
  assert_expr ("[]", "(List)");
  assert_expr ("[1, *a, 2,]", "(List (Constant 1) (Starred (Name a)) (Constant 2))");
  assert_expr ("{1, 2}", "(Set (Constant 1) (Constant 2))");
  assert_expr ("{}", "(Dict)");
  assert_expr ("{'a': 1, **b, c: d}",
               "(Dict ((Constant 'a') (Constant 1)) (** (Name b)) ((Name c) (Name d)))");
  assert_expr ("[x * 2 for x in y if x if z for w in x]",
               "(ListComp (BinOp * (Name x) (Constant 2)) (for (Name x store) (Name y) (if (Name "
               "x)) (if (Name z))) "
               "(for (Name w store) (Name x)))");
  assert_expr ("{x for x, in y}", "(SetComp (Name x) (for (Tuple (Name x store) store) (Name y)))");
  assert_expr ("{k: v for k, v in d.items()}",
               "(DictComp (Name k) (Name v) (for (Tuple (Name k store) (Name v store) store) "
               "(Call (Attribute (Name d) items))))");
  assert_expr ("(x for x in a if b or c)", "(GeneratorExp (Name x) (for (Name x store) (Name a) "
                                           "(if (BoolOp or (Name b) (Name c)))))");
  assert_expr ("[x async for x in y]", "(ListComp (Name x) (async for (Name x store) (Name y)))");
  assert_expr ("(yield)", "(Yield)");
  assert_expr ("(yield a, b)", "(Yield (Tuple (Name a) (Name b)))");
  assert_expr ("(yield from g())", "(YieldFrom (Call (Name g)))");
  assert_expr ("lambda a, /, b=2, *, c: 0", "(Lambda (arguments (posonly a) (args (b = (Constant "
                                            "2))) (kwonly c)) (Constant 0))");
}

static void
test_statements_simple (void)
{
  assert_module ("x = 1\n", "(Module (Assign (Name x store) = (Constant 1)))");
  assert_module ("a = b = c\n", "(Module (Assign (Name a store) (Name b store) = (Name c)))");
  assert_module ("a, *b = c\n", "(Module (Assign (Tuple (Name a store) (Starred (Name b store) "
                                "store) store) = (Name c)))");
  assert_module ("[a, (b, c)] = d\n", "(Module (Assign (List (Name a store) (Tuple (Name b store) "
                                      "(Name c store) store) store) = (Name d)))");
  assert_module ("self.x[0] = y = 1, 2\n", "(Module (Assign (Subscript (Attribute (Name self) x) "
                                           "(Constant 0) store) (Name y store) = "
                                           "(Tuple (Constant 1) (Constant 2))))");
  assert_module ("x += 1\ny **= 2\nz //= 3\nw @= m\n",
                 "(Module (AugAssign (Name x store) += (Constant 1)) (AugAssign (Name y store) **= "
                 "(Constant 2)) "
                 "(AugAssign (Name z store) //= (Constant 3)) (AugAssign (Name w store) @= (Name "
                 "m)))");
  assert_module ("x: int\ny: List[int] = []\n(z): int = 1\n",
                 "(Module (AnnAssign (Name x store) : (Name int)) "
                 "(AnnAssign (Name y store) : (Subscript (Name List) (Name int)) = (List)) "
                 "(AnnAssign (Name z store) : (Name int) = (Constant 1) not-simple))");
  assert_module ("pass; break; continue;\n", "(Module (Pass) (Break) (Continue))");
  /* A statement that starts with a primary (most) is read from it
   * upwards; one that starts with `*` or a prefix operator is not. */
  assert_module ("return *a, b\nx = -a, b,\na, = f(x := 1, y)\n",
                 "(Module (Return (Tuple (Starred (Name a)) (Name b))) (Assign (Name x store) = "
                 "(Tuple (UnaryOp - (Name a)) (Name b))) (Assign (Tuple (Name a store) store) = "
                 "(Call (Name f) (NamedExpr (Name x store) (Constant 1)) (Name y))))");
  assert_module ("return\nreturn x\nreturn a, *b\n", "(Module (Return) (Return (Name x)) (Return "
                                                     "(Tuple (Name a) (Starred (Name b)))))");
  assert_module ("raise\nraise E\nraise E(1) from e\n",
                 "(Module (Raise) (Raise (Name E)) (Raise (Call (Name E) (Constant 1)) (from (Name "
                 "e))))");
  assert_module ("del a, b[0], c.d\n", "(Module (Delete (Name a del) (Subscript (Name b) (Constant "
                                       "0) del) (Attribute (Name c) d del)))");
  assert_module ("global a, b\nnonlocal c\n", "(Module (Global a b) (Nonlocal c))");
  assert_module ("assert x\nassert x, 'msg'\n",
                 "(Module (Assert (Name x)) (Assert (Name x) (Constant 'msg')))");
  assert_module ("import a.b.c as d, e\n", "(Module (Import (a.b.c as d) e))");
  assert_module ("from . import x\nfrom ..a.b import (c as d, e,)\nfrom m import *\nfrom ... "
                 "import z\n",
                 "(Module (ImportFrom . x) (ImportFrom ..a.b (c as d) e) (ImportFrom m *) "
                 "(ImportFrom ... z))");
  assert_module ("x = yield\ny = yield from z\nawait w\n",
                 "(Module (Assign (Name x store) = (Yield)) (Assign (Name y store) = (YieldFrom "
                 "(Name z))) "
                 "(Expr (Await (Name w))))");
  assert_module ("f(x)\n", "(Module (Expr (Call (Name f) (Name x))))");
}

static void
test_statements_compound (void)
{
  assert_module ("if a:\n    x\nelif b:\n    y\nelif c: z\nelse:\n    w\n",
                 "(Module (If (Name a) (body (Expr (Name x))) (orelse (If (Name b) (body (Expr "
                 "(Name y))) "
                 "(orelse (If (Name c) (body (Expr (Name z))) (orelse (Expr (Name w)))))))))");
  assert_module ("if x: return y\n", "(Module (If (Name x) (body (Return (Name y)))))");
  assert_module ("for i, (j, k) in enumerate(z):\n  pass\nelse:\n  break\n",
                 "(Module (For (Tuple (Name i store) (Tuple (Name j store) (Name k store) store) "
                 "store) "
                 "(Call (Name enumerate) (Name z)) (body (Pass)) (orelse (Break))))");
  assert_module ("for x in 1, 2: pass\n",
                 "(Module (For (Name x store) (Tuple (Constant 1) (Constant 2)) (body (Pass))))");
  assert_module ("while (n := n - 1) > 0:\n  pass\nelse:\n  pass\n",
                 "(Module (While (Compare (NamedExpr (Name n store) (BinOp - (Name n) (Constant "
                 "1))) > (Constant 0)) "
                 "(body (Pass)) (orelse (Pass))))");
  assert_module ("with a as b, c:\n  pass\n",
                 "(Module (With (item (Name a) as (Name b store)) (item (Name c)) (body (Pass))))");
  assert_module ("with (a as b, c as (d, e),):\n  pass\n",
                 "(Module (With (item (Name a) as (Name b store)) "
                 "(item (Name c) as (Tuple (Name d store) (Name e store) store)) (body (Pass))))");
  assert_module ("with (a, b) as c:\n  pass\n", "(Module (With (item (Tuple (Name a) (Name b)) as "
                                                "(Name c store)) (body (Pass))))");
  assert_module ("with (a):\n  pass\n", "(Module (With (item (Name a)) (body (Pass))))");
  assert_module ("try:\n  a\nexcept E as e:\n  b\nexcept (F, G):\n  c\nexcept:\n  d\nelse:\n  "
                 "f\nfinally:\n  g\n",
                 "(Module (Try (body (Expr (Name a))) (except (Name E) as e (body (Expr (Name "
                 "b)))) "
                 "(except (Tuple (Name F) (Name G)) (body (Expr (Name c)))) (except (body (Expr "
                 "(Name d)))) "
                 "(orelse (Expr (Name f))) (finally (Expr (Name g)))))");
  assert_module ("try:\n  a\nfinally:\n  b\n",
                 "(Module (Try (body (Expr (Name a))) (finally (Expr (Name b)))))");
  assert_module ("@dec\n@dec2(1)\ndef f(a, b: int = 1, /, c=2, *args: str, d, e=3, **kw) -> None:\n"
                 "    \"\"\"Doc.\"\"\"\n    return a\n",
                 "(Module (FunctionDef f (decorators (Name dec) (Call (Name dec2) (Constant 1))) "
                 "(arguments (posonly a (b : (Name int) = (Constant 1))) (args (c = (Constant 2))) "
                 "(vararg (args : (Name str))) (kwonly d (e = (Constant 3))) (kwarg kw)) "
                 "(returns (Constant None)) (body (Expr (Constant 'Doc.')) (Return (Name a)))))");
  assert_module ("def f(*, a): pass\n",
                 "(Module (FunctionDef f (arguments (kwonly a)) (body (Pass))))");
  assert_module ("async def f():\n  async for x in y:\n    pass\n  async with a:\n    pass\n",
                 "(Module (AsyncFunctionDef f (arguments) (body (AsyncFor (Name x store) (Name y) "
                 "(body (Pass))) "
                 "(AsyncWith (item (Name a)) (body (Pass))))))");
  assert_module ("class A(B, metaclass=M, **kw):\n  x = 1\n  def m(self): pass\n",
                 "(Module (ClassDef A (bases (Name B)) (keyword metaclass (Name M)) (keyword ** "
                 "(Name kw)) "
                 "(body (Assign (Name x store) = (Constant 1)) (FunctionDef m (arguments (args "
                 "self)) (body (Pass))))))");
  assert_module ("@d\nclass C: pass\n",
                 "(Module (ClassDef C (decorators (Name d)) (body (Pass))))");
  assert_module ("if a:\n  if b:\n    x\n  y\nz\n",
                 "(Module (If (Name a) (body (If (Name b) (body (Expr (Name x)))) (Expr (Name "
                 "y)))) (Expr (Name z)))");
  assert_module ("match = 1\nmatch.x(2)\n",
                 "(Module (Assign (Name match store) = (Constant 1)) (Expr (Call (Attribute (Name "
                 "match) x) (Constant 2))))");
  assert_module ("\n# comment\n  \n\\\nx = 1 # trailing\n\n",
                 "(Module (Assign (Name x store) = (Constant 1)))");
  assert_module ("", "(Module)");
  assert_module ("x = 1", "(Module (Assign (Name x store) = (Constant 1)))");
  assert_module ("\xef\xbb\xbfx = 1\r\ny = 2\r", "(Module (Assign (Name x store) = (Constant 1)) "
                                                 "(Assign (Name y store) = (Constant 2)))");
}

static void
test_spans (void)
{
  static const char text[] = "def f(x):\n    return x.y + g(1)\n";
  g_autoptr (GraftSource) source = graft_source_new ("t.py", text, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);
  const GraftPyStmt *def, *ret;
  const GraftPyExpr *sum, *call;

  g_assert_no_error (error);
  def = graft_py_module_get_body (module)->items[0];
  g_assert_cmpuint (def->start, ==, 0);
  g_assert_cmpuint (def->end, ==, 31);
  ret = def->function_def.body.items[0];
  g_assert_cmpuint (ret->start, ==, 14);
  g_assert_cmpuint (ret->end, ==, 31);
  sum = ret->ret.value;
  g_assert_cmpint (sum->kind, ==, GRAFT_PY_EXPR_BIN_OP);
  g_assert_cmpuint (sum->start, ==, 21);
  g_assert_cmpuint (sum->end, ==, 31);
  call = sum->bin_op.right;
  g_assert_cmpuint (call->start, ==, 27);
  g_assert_cmpuint (call->end, ==, 31);
  g_assert_cmpuint (sum->bin_op.left->end, ==, 24);
  g_assert_true (graft_py_module_get_source (module) == source);
}

static void
test_syntax_errors (void)
{
  assert_error ("x = \n", "1:5: [syntax] expected an expression after '='");
  assert_error ("x = = 1\n", "1:5: [syntax] expected an expression after '='");
  assert_error ("x = 1 +\n", "1:8: [syntax] expected an expression after '+'");
  assert_error ("if x\n  pass\n", "1:5: [syntax] expected ':'");
  assert_error ("f() = 1\n", "1:1: [syntax] invalid syntax: cannot assign to a function call");
  assert_error ("a + b = 1\n", "1:1: [syntax] invalid syntax: cannot assign to an expression");
  assert_error ("x = 1 = y\n", "1:5: [syntax] invalid syntax: cannot assign to a literal");
  assert_error ("None = 1\n", "1:1: [syntax] invalid syntax: cannot assign to None");
  assert_error ("(a, f()) = 1\n", "1:5: [syntax] invalid syntax: cannot assign to a function call");
  assert_error ("del f()\n", "1:5: [syntax] invalid syntax: cannot delete a function call");
  assert_error ("for f() in x: pass\n",
                "1:5: [syntax] invalid syntax: cannot assign to a function call");
  assert_error ("f() += 1\n",
                "1:1: [syntax] invalid syntax: cannot use augmented assignment on a function call");
  assert_error ("a, b += 1\n",
                "1:1: [syntax] invalid syntax: cannot use augmented assignment on a tuple");
  assert_error ("a, b: int\n", "1:1: [syntax] only a single target (not a tuple) can be annotated");
  assert_error ("*a = b\n", "1:1: [syntax] starred assignment target must be in a list or tuple");
  assert_error ("*a, *b = c\n", "1:5: [syntax] multiple starred expressions in assignment");
  assert_error ("x = *a\n", "1:5: [syntax] cannot use a starred expression here");
  assert_error ("if x:\n  y\n else:\n  z\n",
                "3:2: [syntax] unindent does not match any outer indentation level");
  assert_error ("x = 1\nif x == 1:\npass\n",
                "3:1: [syntax] expected an indented block after 'if' statement on line 2");
  assert_error ("def f():\n\n# c\nx = 1\n",
                "4:1: [syntax] expected an indented block after function definition on line 1");
  assert_error ("class A:\n",
                "2:1: [syntax] expected an indented block after class definition on line 1");
  assert_error ("for x in y:\nz\n",
                "2:1: [syntax] expected an indented block after 'for' statement on line 1");
  assert_error ("try:\n  a\nexcept:\nb\n",
                "4:1: [syntax] expected an indented block after 'except' statement on line 3");
  assert_error ("x = 1\n  y = 2\n", "2:1: [syntax] unexpected indent");
  assert_error ("  x = 1\n", "1:1: [syntax] unexpected indent");
  assert_error ("x = [1, 2\n", "1:5: [syntax] '[' was never closed");
  assert_error ("x = [1 2]\n", "1:8: [syntax] invalid syntax: expected ',' or ']'");
  assert_error ("f(a b)\n",
                "1:5: [syntax] invalid syntax: expected ',' or ')' (perhaps a comma is missing)");
  assert_error ("x y\n", "1:3: [syntax] invalid syntax");
  assert_error ("x = 1 if y\n", "1:11: [syntax] expected 'else' after 'if' expression");
  assert_error ("f(a=1, b)\n", "1:8: [syntax] positional argument follows keyword argument");
  assert_error ("f(**a, b)\n",
                "1:8: [syntax] positional argument follows keyword argument unpacking");
  assert_error ("f(**a, *b)\n",
                "1:8: [syntax] iterable argument unpacking follows keyword argument unpacking");
  assert_error ("f(a.b=1)\n", "1:3: [syntax] invalid syntax: a keyword argument must be a name, "
                              "not an attribute (maybe you meant '==')");
  assert_error ("f(x for x in y, 1)\n", "1:3: [syntax] generator expression must be parenthesized");
  assert_error ("def f(a=1, b): pass\n",
                "1:12: [syntax] parameter without a default follows parameter with a default");
  assert_error ("def f(*): pass\n", "1:7: [syntax] named parameters must follow a bare '*'");
  assert_error ("def f(/, a): pass\n", "1:7: [syntax] at least one parameter must come before '/'");
  assert_error ("def f(**k, a): pass\n",
                "1:12: [syntax] parameters cannot follow the '**' parameter");
  assert_error ("def f(a, 1): pass\n", "1:10: [syntax] expected a parameter name");
  assert_error ("def (): pass\n", "1:5: [syntax] expected a function name");
  assert_error ("def class(): pass\n", "1:5: [syntax] invalid syntax: 'class' is a keyword and "
                                       "cannot be used as a function name");
  assert_error ("x.if = 1\n", "1:3: [syntax] invalid syntax: 'if' is a keyword and cannot be used "
                              "as an attribute name after '.'");
  assert_error ("try:\n  pass\nx = 1\n", "3:1: [syntax] expected 'except' or 'finally' block");
  assert_error ("else:\n  pass\n",
                "1:1: [syntax] invalid syntax: 'else' does not follow a matching statement");
  assert_error ("@dec\nx = 1\n",
                "2:1: [syntax] expected a function or class definition after a decorator");
  assert_error ("if x: for y in z: pass\n", "1:7: [syntax] invalid syntax: a compound statement "
                                            "cannot follow ':' on the same line");
  assert_error ("except E, e:\n",
                "1:1: [syntax] invalid syntax: 'except' does not follow a matching statement");
  assert_error ("x = (1 +\n", "1:5: [syntax] '(' was never closed");
  assert_error ("a not b\n", "1:7: [syntax] expected 'in' after 'not'");
  assert_error ("(a.b := 1)\n", "1:2: [syntax] invalid syntax: cannot use an assignment expression "
                                "with an attribute");
  assert_error ("x = a[]\n", "1:7: [syntax] expected an index or a slice after '['");
  assert_error ("import a.\n", "1:10: [syntax] expected a module name");
  assert_error ("from x import\n", "1:14: [syntax] expected a name to import");
  assert_error ("match x:\n  case y: pass\n  case 1: pass\n",
                "2:8: [syntax] name capture 'y' makes remaining patterns unreachable");
  assert_error ("match x:\n  case [*a, *b]: pass\n",
                "2:8: [syntax] multiple starred names in sequence pattern");
  assert_error ("match x:\n  case 1 | y: pass\n",
                "2:12: [syntax] alternative patterns bind different names");
  assert_error ("match x:\n  case C(a=1, 2): pass\n",
                "2:15: [syntax] positional patterns follow keyword patterns");
  assert_error ("x = 1 == = 2\n", "1:10: [syntax] expected an expression after '=='");
  assert_error ("x = 1\nprint 'a'\n", "2:7: [syntax] invalid syntax");
}

/* Repeats @unit @n times between @prefix and @suffix. */
static char *
repeat (const char *prefix,
        const char *unit,
        guint       n,
        const char *suffix)
{
  GString *s = g_string_new (prefix);

  for (guint i = 0; i < n; i++)
    g_string_append (s, unit);
  g_string_append (s, suffix);
  return g_string_free (s, FALSE);
}

static void
assert_limit (const char *text,
              const char *message)
{
  g_autoptr (GraftSource) source = graft_source_new ("deep.py", text, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);

  g_assert_null (module);
  g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_LIMIT);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_depth_limit (void)
{
  g_autofree char *parens = repeat ("x = ", "(", 100000, "1\n");
  g_autofree char *parens_closed = NULL;
  g_autofree char *brackets = repeat ("x = ", "[{(", 40000, "\n");
  g_autofree char *calls = repeat ("x = ", "f(", 100000, "\n");
  g_autofree char *minus = repeat ("x = ", "-", 100000, "1\n");
  g_autofree char *nots = repeat ("x = ", "not ", 100000, "1\n");
  g_autofree char *power = repeat ("x = 2", " ** 2", 100000, "\n");
  g_autofree char *lambdas = repeat ("x = ", "lambda: ", 100000, "1\n");
  g_autofree char *ternary = repeat ("x = ", "1 if c else ", 100000, "1\n");
  g_autofree char *fstrings = repeat ("x = ", "f'{", 300, "");
  GString         *blocks = g_string_new (NULL);
  GString         *ok = g_string_new ("x = ");

  assert_limit (parens, "too many nested parentheses");
  assert_limit (brackets, "too many nested parentheses");
  assert_limit (calls, "too many nested parentheses");
  assert_limit (minus, "expression nested too deeply");
  assert_limit (nots, "expression nested too deeply");
  assert_limit (power, "expression nested too deeply");
  assert_limit (lambdas, "expression nested too deeply");
  assert_limit (ternary, "expression nested too deeply");

  /* Where it stops: at the first bracket past the limit. */
  {
    g_autofree char *err = parse_error (parens);
    g_autofree char *expected = g_strdup_printf ("1:%u: [limit] too many nested parentheses",
                                                 5 + GRAFT_MAX_PARSE_DEPTH);
    g_assert_cmpstr (err, ==, expected);
  }

  /* Nesting f-strings cannot go deep (the quotes run out), but it must not
   * crash either. */
  {
    g_autoptr (GraftSource) source = graft_source_new ("f.py", fstrings, -1);
    g_autoptr (GError) error = NULL;
    g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);

    g_assert_null (module);
    g_assert_nonnull (error);
  }

  /* 300 nested blocks. */
  for (guint i = 0; i < 300; i++)
    {
      for (guint j = 0; j < i; j++)
        g_string_append_c (blocks, ' ');
      g_string_append (blocks, "if x:\n");
    }
  for (guint j = 0; j < 300; j++)
    g_string_append_c (blocks, ' ');
  g_string_append (blocks, "pass\n");
  {
    g_autoptr (GraftSource) source = graft_source_new ("blocks.py", blocks->str, -1);
    g_autoptr (GError) error = NULL;
    g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);

    g_assert_null (module);
    g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_LIMIT);
  }
  g_string_free (blocks, TRUE);

  /* Just under the limit is fine. */
  for (guint i = 0; i < GRAFT_MAX_PARSE_DEPTH - 10; i++)
    g_string_append_c (ok, '(');
  g_string_append_c (ok, '1');
  for (guint i = 0; i < GRAFT_MAX_PARSE_DEPTH - 10; i++)
    g_string_append_c (ok, ')');
  g_string_append_c (ok, '\n');
  parens_closed = g_string_free (ok, FALSE);
  {
    g_autofree char *dump = dump_module (parens_closed);
    g_assert_cmpstr (dump, ==, "(Module (Assign (Name x store) = (Constant 1)))");
  }
}

/* A module may hold GRAFT_MAX_STATEMENTS statements, not one more; the
 * error points at the first statement past the limit, so a huge file stops
 * there instead of being parsed whole. */
static void
test_statement_limit (void)
{
  g_autofree char *at_limit = repeat ("", "pass\n", GRAFT_MAX_STATEMENTS, "");
  g_autofree char *over = repeat ("if x:\n", "  pass\n", GRAFT_MAX_STATEMENTS, "");
  g_autofree char *expected =
      g_strdup_printf ("%u:3: [limit] the module has more than %u statements",
                       GRAFT_MAX_STATEMENTS + 1, GRAFT_MAX_STATEMENTS);
  g_autofree char *err = parse_error (over);
  g_autoptr (GraftSource) source = graft_source_new ("limit.py", at_limit, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);

  /* The `if` is a statement too: its last nested pass is one too many. */
  g_assert_cmpstr (err, ==, expected);
  g_assert_no_error (error);
  g_assert_cmpuint (graft_py_module_get_body (module)->len, ==, GRAFT_MAX_STATEMENTS);
}

static void
test_large_flat (void)
{
  const guint      n = 100000;
  g_autofree char *list = repeat ("x = [", "a, ", n, "a]\n");
  g_autofree char *sum = repeat ("x = a", " + a", n, "\n");
  g_autofree char *stmts = repeat ("", "y = f(x, 1.5, 'a')\n", n, "");
  g_autofree char *elifs = repeat ("if a:\n  pass\n", "elif b:\n  pass\n", 20000, "");
  g_autofree char *attrs = repeat ("x = a", ".b", n, "\n");
  g_autofree char *ands = repeat ("x = a", " and a", n, "\n");
  g_autofree char *cmps = repeat ("x = a", " < a", n, "\n");

  {
    g_autoptr (GraftSource) source = graft_source_new ("list.py", list, -1);
    g_autoptr (GError) error = NULL;
    g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);
    const GraftPyStmt *s;

    g_assert_no_error (error);
    s = graft_py_module_get_body (module)->items[0];
    g_assert_cmpint (s->assign.value->kind, ==, GRAFT_PY_EXPR_LIST);
    g_assert_cmpuint (s->assign.value->sequence.elts.len, ==, n + 1);
  }
  {
    g_autoptr (GraftSource) source = graft_source_new ("sum.py", sum, -1);
    g_autoptr (GError) error = NULL;
    g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);
    const GraftPyExpr *e;
    guint              depth = 0;

    g_assert_no_error (error);
    /* A left-associative chain: walk it without recursion. */
    e = graft_py_module_get_body (module)->items[0]->assign.value;
    while (e->kind == GRAFT_PY_EXPR_BIN_OP)
      {
        e = e->bin_op.left;
        depth++;
      }
    g_assert_cmpuint (depth, ==, n);
  }
  {
    g_autoptr (GraftSource) source = graft_source_new ("stmts.py", stmts, -1);
    g_autoptr (GError) error = NULL;
    g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (graft_py_module_get_body (module)->len, ==, n);
  }
  {
    g_autoptr (GraftSource) source = graft_source_new ("elifs.py", elifs, -1);
    g_autoptr (GError) error = NULL;
    g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);
    const GraftPyStmt *s;
    guint              count = 0;

    g_assert_no_error (error);
    s = graft_py_module_get_body (module)->items[0];
    while (s != NULL)
      {
        count++;
        s = s->if_stmt.orelse.len == 1 ? s->if_stmt.orelse.items[0] : NULL;
      }
    g_assert_cmpuint (count, ==, 20001);
  }
  {
    g_autoptr (GraftSource) source = graft_source_new ("attrs.py", attrs, -1);
    g_autoptr (GError) error = NULL;
    g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);
    g_autoptr (GString) out = g_string_new (NULL);

    g_assert_no_error (error);
    /* The dump stops descending instead of overflowing the stack. */
    graft_py_ast_dump (module, out);
    g_assert_nonnull (strstr (out->str, "(...)"));
  }
  {
    g_autoptr (GraftSource) source = graft_source_new ("ands.py", ands, -1);
    g_autoptr (GError) error = NULL;
    g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (graft_py_module_get_body (module)->items[0]->assign.value->bool_op.values.len,
                      ==, n + 1);
  }
  {
    g_autoptr (GraftSource) source = graft_source_new ("cmps.py", cmps, -1);
    g_autoptr (GError) error = NULL;
    g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (graft_py_module_get_body (module)
                          ->items[0]
                          ->assign.value->compare.comparators.len,
                      ==, n);
  }
}

static void
test_torch_module (void)
{
  assert_module ("import torch\n"
                 "class M(torch.nn.Module):\n"
                 "    def __init__(self):\n"
                 "        super().__init__()\n"
                 "        self.lin = torch.nn.Linear(4, 5)\n"
                 "\n"
                 "    def forward(self, x, w1, w2):\n"
                 "        val1 = torch.neg(w1)\n"
                 "        m1 = torch.cat([val1, w2]).sum()\n"
                 "        return x + torch.max(m1) + self.lin(x).relu()\n",
                 "(Module (Import torch) (ClassDef M (bases (Attribute (Attribute (Name torch) nn) "
                 "Module)) "
                 "(body (FunctionDef __init__ (arguments (args self)) (body (Expr (Call (Attribute "
                 "(Call (Name super)) __init__))) "
                 "(Assign (Attribute (Name self) lin store) = (Call (Attribute (Attribute (Name "
                 "torch) nn) Linear) (Constant 4) (Constant 5))))) "
                 "(FunctionDef forward (arguments (args self x w1 w2)) (body "
                 "(Assign (Name val1 store) = (Call (Attribute (Name torch) neg) (Name w1))) "
                 "(Assign (Name m1 store) = (Call (Attribute (Call (Attribute (Name torch) cat) "
                 "(List (Name val1) (Name w2))) sum))) "
                 "(Return (BinOp + (BinOp + (Name x) (Call (Attribute (Name torch) max) (Name "
                 "m1))) "
                 "(Call (Attribute (Call (Attribute (Name self) lin) (Name x)) relu)))))))))");
}

/* Names read again soon are shared, not copied; equal bytes stay equal
 * strings either way. */
/* Private names inside a class are mangled as CPython's compiler mangles
 * them (checked against the names of its code objects, Python 3.11 and
 * 3.13): names, attributes, parameters, as-names, global names and
 * one-part module names; not keyword argument names, strings, dunder
 * names, dotted module names, nor anything outside a class.  A private
 * def or class keeps its name and binds the mangled one. */
static void
test_private_names (void)
{
  assert_module ("__v = top.__a\n"
                 "class M:\n"
                 "    import __m, os.__x as __y\n"
                 "    from __n import __z\n"
                 "    __c = 1\n"
                 "    def __f(self, __p, *__a, __k=1, **__kw):\n"
                 "        global __g\n"
                 "        self.__attr = lambda __q: __q + __p\n"
                 "        [__i for __i in self.__it]\n"
                 "        f(__kw=__kw, x=f\"{__fs}\")\n"
                 "        return getattr(self, \"__s\") + __d__ + ___ + _M__x\n"
                 "    class __N:\n"
                 "        y = __n\n"
                 "    class ___:\n"
                 "        y = __u\n"
                 "class _:\n"
                 "    y = __w\n"
                 "def top(self):\n"
                 "    return self.__t\n",
                 "(Module (Assign (Name __v store) = (Attribute (Name top) __a)) "
                 "(ClassDef M (body (Import _M__m (os.__x as _M__y)) (ImportFrom _M__n _M__z) "
                 "(Assign (Name _M__c store) = (Constant 1)) "
                 "(FunctionDef __f (bound _M__f) (arguments (args self _M__p) (vararg _M__a) "
                 "(kwonly (_M__k = (Constant 1))) (kwarg _M__kw)) (body (Global _M__g) "
                 "(Assign (Attribute (Name self) _M__attr store) = (Lambda (arguments (args "
                 "_M__q)) "
                 "(BinOp + (Name _M__q) (Name _M__p)))) "
                 "(Expr (ListComp (Name _M__i) (for (Name _M__i store) (Attribute (Name self) "
                 "_M__it)))) "
                 "(Expr (Call (Name f) (keyword __kw (Name _M__kw)) "
                 "(keyword x (JoinedStr (FormattedValue (Name _M__fs)))))) "
                 "(Return (BinOp + (BinOp + (BinOp + (Call (Name getattr) (Name self) (Constant "
                 "'__s')) "
                 "(Name __d__)) (Name ___)) (Name _M__x))))) "
                 "(ClassDef __N (bound _M__N) (body (Assign (Name y store) = (Name _N__n)))) "
                 "(ClassDef ___ (body (Assign (Name y store) = (Name __u)))))) "
                 "(ClassDef _ (body (Assign (Name y store) = (Name __w)))) "
                 "(FunctionDef top (arguments (args self)) (body (Return (Attribute (Name self) "
                 "__t)))))");
}

/* graft_py_stmt_get_block(): a compound statement's blocks in the
 * text's order (a try's handlers between its body and its else), none
 * for a def or a simple statement. */
static void
test_stmt_blocks (void)
{
  g_autoptr (GraftSource) source =
      graft_source_new ("blocks.py",
                        "try:\n    a = 0\nexcept E:\n    b = 1\nexcept:\n    c = 2\n"
                        "else:\n    d = 3\nfinally:\n    e = 4\n"
                        "for i in x:\n    f = 5\nelse:\n    g = 6\n"
                        "while y:\n    h = 7\n"
                        "with z:\n    j = 8\n"
                        "if w:\n    k = 9\n"
                        "def m():\n    n = 10\n"
                        "o = 11\n",
                        -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);
  const GraftPyStmtList   *body;
  static const char *const expected[] = { "a b c d e", "f g", "h ", "j", "k ", "", "" };
  const GraftPyStmtList   *block;

  g_assert_no_error (error);
  body = graft_py_module_get_body (module);
  g_assert_cmpuint (body->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < body->len; i++)
    {
      g_autoptr (GString) names = g_string_new (NULL);

      for (guint b = 0; (block = graft_py_stmt_get_block (body->items[i], b)) != NULL; b++)
        {
          if (b > 0)
            g_string_append_c (names, ' ');
          for (guint k = 0; k < block->len; k++)
            g_string_append (names,
                             block->items[k]->assign.targets.items[0]->name.id);
        }
      g_assert_cmpstr (names->str, ==, expected[i]);
    }
}

static void
test_names_shared (void)
{
  g_autoptr (GraftSource) source =
      graft_source_new ("test.py", "torch.neg(torch)\nh10 = h20\n", -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPyModule) module = graft_py_parse (source, &error);
  const GraftPyStmtList *body;
  const GraftPyExpr     *call, *assigned, *read;
  const char            *a, *b;

  g_assert_no_error (error);
  body = graft_py_module_get_body (module);
  g_assert_cmpuint (body->len, ==, 2);
  call = body->items[0]->expr.value;
  g_assert_cmpint (call->kind, ==, GRAFT_PY_EXPR_CALL);
  a = call->call.func->attribute.value->name.id;
  b = call->call.args.items[0]->name.id;
  g_assert_cmpstr (a, ==, "torch");
  g_assert_true (a == b);
  g_assert_cmpstr (call->call.func->attribute.attr, ==, "neg");
  assigned = body->items[1]->assign.targets.items[0];
  read = body->items[1]->assign.value;
  g_assert_cmpstr (assigned->name.id, ==, "h10");
  g_assert_cmpstr (read->name.id, ==, "h20");

  /* The cache itself: a hit gives the same string, a miss a new copy. */
  a = graft_py_module_intern (module, "layers_12", 9);
  g_assert_true (graft_py_module_intern (module, "layers_12xyz", 9) == a);
  b = graft_py_module_intern (module, "layers_13", 9);
  g_assert_cmpstr (b, ==, "layers_13");
  g_assert_true (a != b);
  g_assert_cmpstr (graft_py_module_intern (module, "", 0), ==, "");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/py-parser/lexer-tokens", test_lexer_tokens);
  g_test_add_func ("/core/py-parser/names-shared", test_names_shared);
  g_test_add_func ("/core/py-parser/lexer-handover", test_lexer_handover);
  g_test_add_func ("/core/py-parser/lexer-errors", test_lexer_errors);
  g_test_add_func ("/core/py-parser/lexer-nul", test_lexer_nul_in_source);
  g_test_add_func ("/core/py-parser/numbers", test_literals_numbers);
  g_test_add_func ("/core/py-parser/strings", test_literals_strings);
  g_test_add_func ("/core/py-parser/fstrings", test_literals_fstrings);
  g_test_add_func ("/core/py-parser/precedence", test_precedence);
  g_test_add_func ("/core/py-parser/expressions", test_expressions);
  g_test_add_func ("/core/py-parser/statements-simple", test_statements_simple);
  g_test_add_func ("/core/py-parser/statements-compound", test_statements_compound);
  g_test_add_func ("/core/py-parser/spans", test_spans);
  g_test_add_func ("/core/py-parser/syntax-errors", test_syntax_errors);
  g_test_add_func ("/core/py-parser/depth-limit", test_depth_limit);
  g_test_add_func ("/core/py-parser/statement-limit", test_statement_limit);
  g_test_add_func ("/core/py-parser/large-flat", test_large_flat);
  g_test_add_func ("/core/py-parser/torch-module", test_torch_module);
  g_test_add_func ("/core/py-parser/private-names", test_private_names);
  g_test_add_func ("/core/py-parser/stmt-blocks", test_stmt_blocks);

  return g_test_run ();
}
