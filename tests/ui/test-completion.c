/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-completion.c: completion in the pattern and replacement editors,
 * under a display (Xvfb in CI).  A dot typed after `torch.` shows the
 * tracer's names in a popup; Return puts the chosen one in place of the
 * word typed, and one Ctrl+Z takes it back.  Ctrl+Space asks where no
 * dot was typed.  After `torch.ops.aten.` a program offers its graph's
 * overloads, the most called first, counted only when first asked; after
 * `self.` a module offers its submodules; `F.` is read through the
 * text's imports.
 */
#include "config.h"

#include "display.h"
#include "window-util.h"

#include "graft-pattern-editor.h"
#include "graft-window-private.h"

#include <glib/gstdio.h>
#include <string.h>

/* The typed-text cells the popup of @view shows, in order. */
static void
collect_cells (GtkWidget *widget,
               GPtrArray *texts)
{
  if (GTK_SOURCE_IS_COMPLETION_CELL (widget) &&
      gtk_source_completion_cell_get_column (GTK_SOURCE_COMPLETION_CELL (widget)) ==
          GTK_SOURCE_COMPLETION_COLUMN_TYPED_TEXT &&
      gtk_widget_get_mapped (widget))
    {
      GtkWidget *label =
          gtk_source_completion_cell_get_widget (GTK_SOURCE_COMPLETION_CELL (widget));

      if (GTK_IS_LABEL (label) && *gtk_label_get_text (GTK_LABEL (label)) != '\0')
        g_ptr_array_add (texts, g_strdup (gtk_label_get_text (GTK_LABEL (label))));
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_cells (child, texts);
}

static GPtrArray *
shown_proposals (GtkWidget *view)
{
  GtkWidget *popup = find_child (view, GTK_TYPE_POPOVER);
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);

  if (popup != NULL && gtk_widget_get_mapped (popup))
    collect_cells (popup, texts);
  return texts;
}

typedef struct
{
  GtkWidget  *view;
  const char *first; /* the proposal the popup must show first */
} Shown;

static gboolean
popup_shows (gpointer data)
{
  Shown *shown = data;
  g_autoptr (GPtrArray) texts = shown_proposals (shown->view);

  return texts->len > 0 && strcmp (texts->pdata[0], shown->first) == 0;
}

static gboolean
popup_hidden (gpointer view)
{
  GtkWidget *popup = find_child (view, GTK_TYPE_POPOVER);

  return popup == NULL || !gtk_widget_get_mapped (popup);
}

/* Types @text at the cursor of @view as keys do: one user action. */
static void
type_in (GtkWidget  *view,
         const char *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gtk_text_buffer_begin_user_action (buffer);
      gtk_text_buffer_insert_interactive_at_cursor (buffer, p, g_utf8_next_char (p) - p, TRUE);
      gtk_text_buffer_end_user_action (buffer);
    }
}

static char *
text_of (GtkWidget *view)
{
  return buffer_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
}

typedef struct
{
  GtkWidget  *view;
  const char *text;
  gboolean    whole; /* the text is @text, else it does not hold @text */
} TextIs;

static gboolean
text_is (gpointer data)
{
  TextIs          *is = data;
  g_autofree char *text = text_of (is->view);

  return is->whole ? strcmp (text, is->text) == 0 : strstr (text, is->text) == NULL;
}

/* The pattern's text replaced by @text, its cursor at the end, the
 * keyboard in it. */
static GtkWidget *
edit_pattern (GraftWindow *window,
              const char  *text)
{
  GraftPatternEditor *editor =
      GRAFT_PATTERN_EDITOR (graft_window_get_pattern_editor (window, FALSE));
  GtkWidget     *view = find_text_view (GTK_WIDGET (editor));
  GtkTextBuffer *buffer = graft_pattern_editor_get_buffer (editor);
  GtkTextIter    end;

  graft_pattern_editor_replace_text (editor, text);
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_place_cursor (buffer, &end);
  gtk_widget_grab_focus (view);
  g_assert_true (gtk_widget_has_focus (view));
  return view;
}

static const char head[] = "import torch\nimport torch.nn.functional as F\n\n\n"
                           "def pattern(x):\n    return ";

/* Typed with the keyboard: `torch.` shows the tracer's names; `rel`
 * narrows them to relu first; Down and Return take it; Ctrl+Z gives
 * `torch.rel` back in one step, and Ctrl+Shift+Z relu again. */
static void
test_torch_dot (void)
{
  GraftWindow     *window = open_example ();
  GtkWidget       *view = edit_pattern (window, head);
  Shown            all = { view, "abs" };
  Shown            narrowed = { view, "relu" };
  g_autofree char *typed = g_strconcat (head, "torch.rel", NULL);
  g_autofree char *accepted = g_strconcat (head, "torch.relu", NULL);
  TextIs           is_accepted = { view, accepted, TRUE };
  TextIs           is_typed = { view, typed, TRUE };
  TextIs           is_undone = { view, "F.ge", FALSE };

  focus_window (window);
  xdotool ("type", "--delay", "40", "torch.", NULL);
  iterate_until (popup_shows, &all);
  xdotool ("type", "--delay", "40", "rel", NULL);
  iterate_until (popup_shows, &narrowed);
  xdotool ("key", "Down", "Return", NULL);
  /* The keys are in once xdotool is done, not yet handled: wait. */
  iterate_until (text_is, &is_accepted);
  g_assert_true (popup_hidden (view));

  xdotool ("key", "ctrl+z", NULL);
  iterate_until (text_is, &is_typed);
  xdotool ("key", "ctrl+shift+z", NULL);
  iterate_until (text_is, &is_accepted);

  /* Ctrl+Z while the popup shows is the text's: it undoes the typing. */
  xdotool ("type", "--delay", "40", "\n    F.ge", NULL);
  narrowed.first = "gelu";
  iterate_until (popup_shows, &narrowed);
  xdotool ("key", "ctrl+z", NULL);
  iterate_until (text_is, &is_undone);
  iterate_until (popup_hidden, view);
  close_window (window);
}

/* Ctrl+Space asks where nothing was typed; Escape closes the popup and
 * leaves the text as it was. */
static void
test_ctrl_space (void)
{
  GraftWindow     *window = open_example ();
  g_autofree char *start = g_strconcat (head, "torch.sigm", NULL);
  GtkWidget       *view = edit_pattern (window, start);
  Shown            shown = { view, "sigmoid" };
  g_autofree char *text = NULL;

  focus_window (window);
  g_assert_true (popup_hidden (view));
  xdotool ("key", "ctrl+space", NULL);
  iterate_until (popup_shows, &shown);
  xdotool ("key", "Escape", NULL);
  iterate_until (popup_hidden, view);
  text = text_of (view);
  g_assert_cmpstr (text, ==, start);
  close_window (window);
}

static char *
program_path (const char *name)
{
  return g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "programs", name, NULL);
}

/* The texts offered at the end of @view's text (the word typed there
 * aside), the graph counted first if need be. */
static char **
offered (GraftWindow *window,
         GtkWidget   *view)
{
  GraftPatternEditor *editor =
      GRAFT_PATTERN_EDITOR (graft_window_get_pattern_editor (window, FALSE));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter    end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  return graft_completion_dup_texts (graft_pattern_editor_get_completion (editor), buffer, &end);
}

static void
assert_offered (GraftWindow       *window,
                GtkWidget         *view,
                const char *const *expected)
{
  g_auto (GStrv) texts = offered (window, view);
  g_autofree char *got = g_strjoinv (" ", texts);
  g_autofree char *want = g_strjoinv (" ", (char **) expected);

  g_assert_cmpstr (got, ==, want);
}

static gboolean
collected (gpointer editor)
{
  return graft_completion_get_collected (graft_pattern_editor_get_completion (editor));
}

/* A program's overloads after `torch.ops.aten.`, the most called first;
 * counted on the first completion that wants them, not on opening, and
 * again after a rewrite (tests/data/program-rewrites' softmax_attention
 * to sdpa). */
static void
test_aten_ranked (void)
{
  static const char softmax_attention[] =
      "import torch\naten = torch.ops.aten\n\n\ndef pattern(q, k, v, scale):\n"
      "    s = aten.mul.Tensor(aten.matmul.default(q, aten.transpose.int(k, -2, -1)), scale)\n"
      "    return aten.matmul.default(aten.softmax.int(s, -1), v)\n";
  g_autofree char    *path = program_path ("attention_manual.pt2");
  GraftWindow        *window = open_path (path);
  GraftPatternEditor *editor =
      GRAFT_PATTERN_EDITOR (graft_window_get_pattern_editor (window, FALSE));
  GtkWidget        *view = edit_pattern (window, "import torch\n\n\ndef pattern(x):\n    return ");
  Shown             shown = { view, "linear.default" };
  const char *const aten[] = { "linear.default", "matmul.default", "mul.Tensor", "softmax.int",
                               "transpose.int", NULL };
  const char *const ops[] = { "aten", NULL };
  const char *const rewritten[] = { "linear.default", "scaled_dot_product_attention.default",
                                    NULL };
  GraftDocument    *document = graft_window_get_document (window);
  g_autoptr (GError) error = NULL;

  g_assert_false (collected (editor));
  type_in (view, "torch.ops.");
  assert_offered (window, view, ops);
  type_in (view, "aten.");
  iterate_until (popup_shows, &shown);
  g_assert_true (collected (editor));
  assert_offered (window, view, aten);
  /* The namespace as the rules of programs name it. */
  edit_pattern (window, "import torch\naten = torch.ops.aten  # the namespace\n\n\n"
                        "def pattern(x):\n    return aten.");
  assert_offered (window, view, aten);

  /* A rewrite drops the count; the next completion counts the new graph. */
  edit_pattern (window, softmax_attention);
  graft_document_set_pattern_text (document, softmax_attention);
  graft_document_set_replacement_text (
      document, "import torch\naten = torch.ops.aten\n\n\ndef replacement(q, k, v, scale):\n"
                "    return aten.scaled_dot_product_attention.default(q, k, v, scale=scale)\n");
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 1);
  g_assert_true (graft_document_replace_all (document, &error));
  g_assert_no_error (error);
  g_assert_false (collected (editor));
  edit_pattern (window, "import torch\n\n\ndef pattern(x):\n    return torch.ops.aten.");
  assert_offered (window, view, rewritten);
  close_window (window);
}

/* A module's submodules after `self.`, one level at a time, the most
 * used first: `block`'s three children called once each before `head`
 * called twice. */
static void
test_self_attributes (void)
{
  static const char code[] =
      "import torch\n\n\nclass M(torch.nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.head = torch.nn.Linear(4, 4)\n"
      "        self.block = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(),\n"
      "                                         torch.nn.Linear(4, 4))\n\n"
      "    def forward(self, x):\n"
      "        return self.head(self.head(self.block(x)))\n";
  g_autofree char  *dir = g_dir_make_tmp ("graft-completion-XXXXXX", NULL);
  g_autofree char  *path = g_build_filename (dir, "m.py", NULL);
  GraftWindow      *window;
  GtkWidget        *view;
  const char *const top[] = { "block", "head", NULL };
  const char *const block[] = { "0", "1", "2", NULL };

  g_assert_true (g_file_set_contents (path, code, -1, NULL));
  window = open_path (path);
  view = edit_pattern (window, "import torch\n\n\nclass P(torch.nn.Module):\n"
                               "    def forward(self, x):\n        return self.");
  assert_offered (window, view, top);
  type_in (view, "block.");
  assert_offered (window, view, block);
  close_window (window);
  g_unlink (path);
  g_rmdir (dir);
}

/* Names bound by the text's imports are read as their modules. */
static void
test_imports (void)
{
  static const struct
  {
    const char *imports;
    const char *path;
    const char *name; /* offered */
  } cases[] = {
    { "import torch.nn.functional as F\n", "F.", "gelu" },
    { "from torch.nn import functional as fn\n", "fn.", "gelu" },
    { "from torch import nn\n", "nn.", "functional" },
    { "import operator\n", "operator.", "getitem" },
    { "import math\n", "math.", "sqrt" },
    { "import torch\n", "torch.linalg.", "norm" },
    { "", "F.", "relu" }, /* before its import */
    { "fn = torch.nn.functional\n", "fn.", "gelu" },
  };
  GraftWindow *window = open_example ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text =
          g_strconcat ("import torch\n", cases[i].imports, "\n\ndef pattern(x):\n    return ",
                       cases[i].path, NULL);
      GtkWidget *view = edit_pattern (window, text);
      g_auto (GStrv) texts = offered (window, view);

      g_assert_true (g_strv_contains ((const char *const *) texts, cases[i].name));
    }
  close_window (window);
}

/* No completion in a string or a comment, as in Python's editors: the
 * dot of `"torch.` or `# torch.`, or Ctrl+Space there, shows no popup
 * (on main both showed torch's names); after a closed string, Graft
 * offers torch's names. */
static void
test_quiet_in_strings (void)
{
  static const char *const quiet[] = { "x = \"torch.", "x = 'a torch.", "# torch.",
                                       "x = 1  # torch.", "\"\"\"the docs\n    torch." };
  GraftWindow             *window = open_example ();
  GtkWidget               *view;

  for (guint i = 0; i < G_N_ELEMENTS (quiet); i++)
    {
      g_autofree char *text = g_strconcat (head, quiet[i], NULL);
      g_auto (GStrv) texts = NULL;

      view = edit_pattern (window, text);
      texts = offered (window, view);
      g_assert_cmpuint (g_strv_length (texts), ==, 0);
    }
  {
    g_autofree char *text = g_strconcat (head, "\"a\" + torch.", NULL);
    g_auto (GStrv) texts = NULL;

    view = edit_pattern (window, text);
    texts = offered (window, view);
    g_assert_true (g_strv_contains ((const char *const *) texts, "abs"));
  }

  /* Typed with the keyboard: no popup, by the dot or by Ctrl+Space. */
  for (guint i = 0; i < 2; i++)
    {
      const char      *before = i == 0 ? "" : "x  ";
      const char      *typed = i == 0 ? "\"torch." : "# torch.";
      g_autofree char *start = g_strconcat (head, before, NULL);
      g_autofree char *want = g_strconcat (start, typed, NULL);
      TextIs           is_typed = { NULL, want, TRUE };

      view = edit_pattern (window, start);
      is_typed.view = view;
      focus_window (window);
      xdotool ("type", "--delay", "40", typed, NULL);
      iterate_until (text_is, &is_typed);
      xdotool ("key", "ctrl+space", NULL);
      /* The popup shows within a few frames when it does. */
      iterate_for (1000);
      g_assert_true (popup_hidden (view));
    }
  close_window (window);
}

/* Return indents the new line as Python editors do: one level more
 * after a `:`, one less after a statement that ends its block, the same
 * otherwise (it went to column 0 after resnet18's `return`, the last
 * line of its pattern, on main: 8 spaces kept); a statement going on
 * after a `\` or in open brackets is not over, and a statement's lines
 * after its first count as the statement. */
static void
test_return_indent (void)
{
  static const char module[] = "import torch\n\n\nclass P(torch.nn.Module):\n"
                               "    def forward(self, x):\n";
  static const struct
  {
    const char *line; /* the last lines, the cursor at their end */
    const char *next; /* the indentation Return gives */
  } cases[] = {
    { "        return self.relu(self.bn1(x))", "    " },
    { "        y = self.bn1(x)", "        " },
    { "        if x is None:", "            " },
    { "        pass", "    " },
    { "        raise ValueError(x)  # no", "    " },
    { "        return torch.cat((x,", "        " }, /* the call goes on */
    { "        returned = x", "        " },
    /* A `\` goes on: one level more, then the line's own; the statement
     * over, its own indentation counts (on main: 8, 12, 4, 12 spaces). */
    { "        x = a + \\", "            " },
    { "        x = a + \\\n            b", "        " },
    { "        return a + \\", "            " },
    { "        return a + \\\n            b", "    " },
    { "        x = a + \\\n            b + \\", "            " },
    /* Brackets: the line's own inside, a level more after an opening one
     * that ends it, the statement's once closed (on main 8, 14, 17, 17). */
    { "        y = torch.cat(", "            " },
    { "        y = f(a,\n              b)", "        " },
    { "        return f(a,\n                 b)", "    " },
    { "        if f(a,\n             b):", "            " },
    { "        y = f(a, (b,\n                  c),", "                  " },
    { "        d = {1:", "        " }, /* not a block (on main 12) */
    /* Strings and comments do not count (on main 12, 12, 4, 8). */
    { "        x = 1  # note:", "        " },
    { "        s = \"\"\"docs:", "        " },
    { "        s = \"\"\"docs\n        return the value", "        " },
    { "        if x:  # why", "            " },
    { "        # return x", "        " },
    { "        y = x  # return", "        " },
  };
  GraftWindow *window = open_example ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (module, cases[i].line, NULL);
      g_autofree char *want = g_strconcat (text, "\n", cases[i].next, NULL);
      GtkWidget       *view = edit_pattern (window, text);
      TextIs           is_indented = { view, want, TRUE };
      g_autofree char *bare = g_strconcat (text, "\n", NULL);
      TextIs           is_bare = { view, bare, TRUE };
      TextIs           is_undone = { view, text, TRUE };

      focus_window (window);
      xdotool ("key", "Return", NULL);
      iterate_until (text_is, &is_indented);
      /* Undone in two steps under GtkSourceView 5.6 (the indenter's
       * edits are a user action of their own): the indentation, then the
       * new line. */
      xdotool ("key", "ctrl+z", NULL);
      iterate_until (text_is, &is_bare);
      xdotool ("key", "ctrl+z", NULL);
      iterate_until (text_is, &is_undone);
    }
  close_window (window);
}

/* Whether the popup of @view shows at the height it asks for (its
 * natural height, its rows', not less). */
static gboolean
popup_whole (gpointer view)
{
  GtkWidget     *popup = find_child (view, GTK_TYPE_POPOVER);
  GdkSurface    *surface;
  GtkRequisition natural;

  if (popup == NULL || !gtk_widget_get_mapped (popup))
    return FALSE;
  surface = gtk_native_get_surface (GTK_NATIVE (popup));
  gtk_widget_get_preferred_size (popup, NULL, &natural);
  return surface != NULL && gdk_surface_get_height (surface) == natural.height;
}

static gboolean
error_shown (gpointer editor)
{
  return graft_pattern_editor_get_error_text (editor) != NULL;
}

/* The popup is as high as its rows after the error's bar came under the
 * text while it showed, then Escape and Ctrl+Space (ux23's one-row popup:
 * the popup shown before its list had rows, its size not taken again; on
 * main the last wait runs out, the popup 64 pixels high for its 180). */
static void
test_popup_rows (void)
{
  GraftWindow        *window = open_example ();
  GraftPatternEditor *editor =
      GRAFT_PATTERN_EDITOR (graft_window_get_pattern_editor (window, FALSE));
  GtkWidget     *view = find_text_view (GTK_WIDGET (editor));
  GtkTextBuffer *buffer = graft_pattern_editor_get_buffer (editor);
  GtkTextIter    end;
  Shown          all = { view, "abs" };

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_place_cursor (buffer, &end);
  gtk_widget_grab_focus (view);
  focus_window (window);
  xdotool ("type", "--delay", "40", "y=torch.", NULL);
  iterate_until (popup_shows, &all);
  iterate_until (popup_whole, view);
  /* `y=torch.` is no Python: the bar shows under the text. */
  iterate_until (error_shown, editor);
  iterate_until_drawn (GTK_WIDGET (window));
  xdotool ("key", "Escape", NULL);
  iterate_until (popup_hidden, view);
  xdotool ("key", "ctrl+End", "ctrl+space", NULL);
  iterate_until (popup_shows, &all);
  iterate_until (popup_whole, view);
  close_window (window);
}

/* Return in a line's indentation, nothing but blanks before the cursor,
 * opens a line above it: the line split off keeps its indentation (it
 * lost it: the indentation of the blanks before the cursor replaced its
 * own, `        return y` became `return y`, no Python).  Return at the
 * end of a blank line keeps giving its blanks.  One Ctrl+Z undoes it. */
static void
test_return_in_indentation (void)
{
  static const char module[] = "import torch\n\n\nclass P(torch.nn.Module):\n"
                               "    def forward(self, x):\n"
                               "        y = self.bn1(x)\n";
  static const struct
  {
    const char *before; /* the last line's text before the cursor */
    const char *after;  /* after the cursor */
    const char *want;   /* the two lines Return makes of it */
    guint       undo;   /* the Ctrl+Z that undo it: two where the indenter
                         * edits (test_return_indent()), one where not */
  } cases[] = {
    { "", "        return y", "\n        return y", 1 },
    { "    ", "    return y", "    \n        return y", 2 },
    { "        ", "return y", "        \n        return y", 2 },
    { "", "    def g(self):", "\n    def g(self):", 1 },
    { "        ", "", "        \n        ", 2 },
  };
  GraftWindow *window = open_example ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (module, cases[i].before, cases[i].after, NULL);
      g_autofree char *want = g_strconcat (module, cases[i].want, NULL);
      GtkWidget       *view = edit_pattern (window, text);
      GtkTextBuffer   *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
      TextIs           is_split = { view, want, TRUE };
      TextIs           is_undone = { view, text, TRUE };
      GtkTextIter      at;

      gtk_text_buffer_get_iter_at_offset (buffer, &at,
                                          (int) (strlen (module) + strlen (cases[i].before)));
      gtk_text_buffer_place_cursor (buffer, &at);
      focus_window (window);
      xdotool ("key", "Return", NULL);
      iterate_until (text_is, &is_split);
      for (guint k = 0; k < cases[i].undo; k++)
        xdotool ("key", "ctrl+z", NULL);
      iterate_until (text_is, &is_undone);
    }
  close_window (window);
}

/* Backspace at the end of a line's indentation goes back a level, to
 * the indentation Return gave a line before (`else:` after an `if`
 * block's line took four Backspaces: one space each); off a level's stop
 * and after text, one character.  Each is one Ctrl+Z. */
static void
test_backspace_dedent (void)
{
  static const char module[] = "import torch\n\n\nclass P(torch.nn.Module):\n"
                               "    def forward(self, x):\n"
                               "        if x is None:\n"
                               "            y = x\n";
  static const struct
  {
    const char *line; /* the last line, the cursor at its end */
    const char *want; /* after one Backspace */
  } cases[] = {
    { "            ", "        " },
    { "        ", "    " },
    { "    ", "" },
    { "          ", "         " }, /* off a level's stop: one space */
    { "            y", "            " },
    { "            y  ", "            y " },
  };
  GraftWindow *window = open_example ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (module, cases[i].line, NULL);
      g_autofree char *want = g_strconcat (module, cases[i].want, NULL);
      GtkWidget       *view = edit_pattern (window, text);
      TextIs           is_back = { view, want, TRUE };
      TextIs           is_undone = { view, text, TRUE };

      focus_window (window);
      xdotool ("key", "BackSpace", NULL);
      iterate_until (text_is, &is_back);
      xdotool ("key", "ctrl+z", NULL);
      iterate_until (text_is, &is_undone);
    }
  close_window (window);
}

int
main (int    argc,
      char **argv)
{
  if (!ui_test_init (&argc, &argv))
    return 0;
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  g_test_add_func ("/ui/completion/torch-dot", test_torch_dot);
  g_test_add_func ("/ui/completion/ctrl-space", test_ctrl_space);
  g_test_add_func ("/ui/completion/aten-ranked", test_aten_ranked);
  g_test_add_func ("/ui/completion/self-attributes", test_self_attributes);
  g_test_add_func ("/ui/completion/imports", test_imports);
  g_test_add_func ("/ui/completion/quiet-in-strings", test_quiet_in_strings);
  g_test_add_func ("/ui/completion/return-indent", test_return_indent);
  g_test_add_func ("/ui/completion/return-in-indentation", test_return_in_indentation);
  g_test_add_func ("/ui/completion/backspace-dedent", test_backspace_dedent);
  g_test_add_func ("/ui/completion/popup-rows", test_popup_rows);
  return g_test_run ();
}
