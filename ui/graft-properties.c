/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-properties.c: the properties panel, as Netron's and Model
 * Explorer's sidebars have it.  For one selected node it lists the op and
 * target, every argument and keyword (nodes as links: activating one emits
 * ::node-activated with its name on the next turn of the main loop, and the
 * window selects it; of two nodes of one name, with its rank, so that the
 * link selects its own node), and what a
 * program recorded: the signature entry of a placeholder (kind, target),
 * the value (type, shape, dtype, stride, device), the source line with its
 * code (torch's summary of the stack trace; the whole trace folds open),
 * the module stack outermost first with each module's class, and the
 * users.  Traced graphs have only the rows Graft knows (op, target, args,
 * keywords, users).  A folded module shows its path, class and nodes;
 * several nodes are listed.  Every value is selectable text, and Copy
 * puts the whole panel on the clipboard as `key: value` lines.
 *
 * The panel keeps no pointer into the graph: graft_properties_show() is
 * called again whenever the selection or the graph changes.
 */
#include "config.h"

#include "graft-properties.h"

#include <string.h>

/* Beyond this many, lists of nodes (users, members) end with a count. */
#define MAX_LISTED 200

struct _GraftProperties
{
  GtkBox parent_instance;

  /* Borrowed (children) */
  GtkWidget *title;
  GtkWidget *copy_button;
  GtkWidget *scroller;
  GtkWidget *content; /* a GtkGrid, replaced on each show */

  /* Owned */
  GString    *text;   /* the panel as plain text, for Copy */
  GHashTable *values; /* key -> plain value */
  GHashTable *labels; /* key -> GtkLabel (borrowed from the grid) */
  GHashTable *ranks;  /* GraftNode -> its rank among the nodes of its name, in a graph
                       * with shared names, made at the first link; or NULL */
  guint row;          /* the grid's next row */

  GraftPropertiesNameFunc name_func; /* a node's name as shown, or NULL: its own */
  gpointer                name_data;
};

G_DEFINE_FINAL_TYPE (GraftProperties, graft_properties, GTK_TYPE_BOX)

enum {
  SIGNAL_NODE_ACTIVATED,
  N_SIGNALS,
};

static guint signals[N_SIGNALS];

/**
 * graft_properties_new:
 *
 * Returns: (transfer full): a panel showing that nothing is selected
 */
GtkWidget *
graft_properties_new (void)
{
  return g_object_new (GRAFT_TYPE_PROPERTIES, NULL);
}

typedef struct
{
  GraftProperties *self; /* Owned */
  char            *name; /* Owned */
  guint            rank;
} Activation;

static gboolean
emit_activated_cb (gpointer data)
{
  Activation *a = data;

  g_signal_emit (a->self, signals[SIGNAL_NODE_ACTIVATED], 0, a->name, a->rank);
  g_object_unref (a->self);
  g_free (a->name);
  g_free (a);
  return G_SOURCE_REMOVE;
}

/* The node is selected from an idle: selecting it rebuilds the panel, and
 * GTK still uses the label whose link was activated when this returns. */
static gboolean
activate_link_cb (GtkLabel        *label,
                  const char      *uri,
                  GraftProperties *self)
{
  Activation *a = g_new0 (Activation, 1);
  const char *hash = strrchr (uri, '#');

  a->self = g_object_ref (self);
  /* `NAME#RANK`: the node of that rank among the nodes of its name. */
  a->name = hash != NULL ? g_strndup (uri, (gsize) (hash - uri)) : g_strdup (uri);
  a->rank = hash != NULL ? (guint) g_ascii_strtoull (hash + 1, NULL, 10) : 0;
  g_idle_add (emit_activated_cb, a);
  return TRUE;
}

/* A selectable label selects all its text when the keyboard gives it the
 * focus.  The title takes the focus only as the panel's first stop, and
 * drawn selected it looked like a highlight of the word "Properties". */
static void
unselect_title (GraftProperties *self)
{
  if (gtk_widget_has_focus (self->title))
    gtk_label_select_region (GTK_LABEL (self->title), 0, 0);
}

static void
begin (GraftProperties *self,
       const char      *title)
{
  GtkWidget *grid = gtk_grid_new ();
  GtkRoot   *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  /* The focus leaves the rows before they go (GTK does not like its focus
   * widget destroyed under it); it stays in the panel, on the title. */
  if (focus != NULL && self->content != NULL && gtk_widget_is_ancestor (focus, self->content))
    {
      gtk_widget_grab_focus (self->title);
      unselect_title (self);
    }
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_widget_set_margin_start (grid, 12);
  gtk_widget_set_margin_end (grid, 12);
  gtk_widget_set_margin_top (grid, 6);
  gtk_widget_set_margin_bottom (grid, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), grid);
  self->content = grid;
  self->row = 0;
  g_string_truncate (self->text, 0);
  g_hash_table_remove_all (self->values);
  g_hash_table_remove_all (self->labels);
  g_clear_pointer (&self->ranks, g_hash_table_unref);
  gtk_label_set_text (GTK_LABEL (self->title), title);
  g_string_append_printf (self->text, "%s\n", title);
}

static void
add_heading (GraftProperties *self,
             const char      *heading)
{
  GtkWidget *label = gtk_label_new (heading);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_margin_top (label, self->row > 0 ? 12 : 6);
  gtk_grid_attach (GTK_GRID (self->content), label, 0, (int) self->row++, 2, 1);
}

/* Values are code: wrapped anywhere, without the hyphens Pango would
 * insert (`torch.ops.aten.conv-olution`), so that copied text is exact. */
static void
no_hyphens (GtkWidget *label)
{
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
  gtk_label_set_attributes (GTK_LABEL (label), attrs);
  pango_attr_list_unref (attrs);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
}

/* A selectable label out of the keyboard's way: not focusable, and not
 * taking part in focus moves at all (a selectable label that cannot take
 * the focus would otherwise stop Tab where it stands). */
static void
set_pointer_only (GtkWidget *label,
                  gboolean   pointer_only)
{
  gtk_widget_set_focusable (label, !pointer_only);
  gtk_widget_set_can_focus (label, !pointer_only);
}

/* A row: @key, and @plain as the value, shown as @markup when given (with
 * node links), in a monospace font when @code. */
static GtkWidget *
add_row (GraftProperties *self,
         const char      *key,
         const char      *plain,
         const char      *markup,
         gboolean         code)
{
  GtkWidget *key_label = gtk_label_new (key);
  GtkWidget *value = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (key_label), 0);
  gtk_label_set_yalign (GTK_LABEL (key_label), 0);
  gtk_widget_set_valign (key_label, GTK_ALIGN_START);
  gtk_widget_add_css_class (key_label, "dim-label");
  if (markup != NULL)
    {
      gtk_label_set_markup (GTK_LABEL (value), markup);
      g_signal_connect (value, "activate-link", G_CALLBACK (activate_link_cb), self);
    }
  else
    gtk_label_set_text (GTK_LABEL (value), plain);
  gtk_label_set_xalign (GTK_LABEL (value), 0);
  no_hyphens (value);
  /* The keyboard goes from link to link (Enter follows one); plain values
   * are selected with the pointer, and Copy takes them all. */
  gtk_label_set_selectable (GTK_LABEL (value), markup == NULL);
  set_pointer_only (value, markup == NULL);
  gtk_widget_set_hexpand (value, TRUE);
  if (code)
    gtk_widget_add_css_class (value, "monospace");
  gtk_grid_attach (GTK_GRID (self->content), key_label, 0, (int) self->row, 1, 1);
  gtk_grid_attach (GTK_GRID (self->content), value, 1, (int) self->row++, 1, 1);
  g_string_append_printf (self->text, "%s: %s\n", key, plain);
  if (!g_hash_table_contains (self->values, key))
    {
      g_hash_table_insert (self->values, g_strdup (key), g_strdup (plain));
      g_hash_table_insert (self->labels, g_strdup (key), value);
    }
  return value;
}

static void
add_note (GraftProperties *self,
          const char      *note)
{
  GtkWidget *label = gtk_label_new (note);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_top (label, 6);
  gtk_grid_attach (GTK_GRID (self->content), label, 0, (int) self->row++, 2, 1);
  g_string_append_printf (self->text, "%s\n", note);
}

/* The name shown for @node: the code's (the second of two nodes of one
 * name is renamed there, and its box says so), not the graph's. */
static const char *
shown_name (GraftProperties *self,
            GraftNode       *node)
{
  return self->name_func != NULL ? self->name_func (node, self->name_data)
                                 : graft_node_get_name (node);
}

/* The rank of @node among the nodes of its name, in graph order: 0 but
 * where two nodes share a name (a program's copy named as the program's
 * node).  The ranks are made once a show, at the first need. */
static guint
node_rank (GraftProperties *self,
           GraftNode       *node)
{
  GraftGraph *graph = graft_node_get_graph (node);

  if (G_LIKELY (graph == NULL || !graft_graph_has_shared_names (graph)))
    return 0;
  if (self->ranks == NULL)
    {
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

      self->ranks = g_hash_table_new (NULL, NULL);
      for (GraftNode *n = graft_graph_get_first (graph); n != NULL; n = graft_node_get_next (n))
        {
          const char *name = graft_node_get_name (n);
          guint       rank = GPOINTER_TO_UINT (g_hash_table_lookup (seen, name));

          g_hash_table_insert (seen, (gpointer) name, GUINT_TO_POINTER (rank + 1));
          if (rank > 0)
            g_hash_table_insert (self->ranks, n, GUINT_TO_POINTER (rank));
        }
    }
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->ranks, node));
}

static void
append_node_link (GraftProperties *self,
                  GString         *markup,
                  GString         *plain,
                  GraftNode       *node)
{
  const char      *name = graft_node_get_name (node);
  const char      *shown = shown_name (self, node);
  guint            rank = node_rank (self, node);
  g_autofree char *target = rank > 0 ? g_strdup_printf ("%s#%u", name, rank) : g_strdup (name);
  g_autofree char *link = g_markup_printf_escaped ("<a href=\"%s\">%s</a>", target, shown);

  g_string_append (markup, link);
  g_string_append (plain, shown);
}

static void
append_both (GString    *markup,
             GString    *plain,
             const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  g_string_append (markup, escaped);
  g_string_append (plain, text);
}

/* @arg as Python writes it, nodes by name, linked in @markup. */
static void
append_arg (GraftProperties *self,
            GString         *markup,
            GString         *plain,
            const GraftArg  *arg)
{
  if (arg->kind == GRAFT_ARG_NODE)
    append_node_link (self, markup, plain, arg->node);
  else if ((arg->kind == GRAFT_ARG_TUPLE || arg->kind == GRAFT_ARG_LIST ||
            arg->kind == GRAFT_ARG_DICT) &&
           graft_arg_has_node (arg))
    {
      gboolean tuple = arg->kind == GRAFT_ARG_TUPLE;
      gboolean dict = arg->kind == GRAFT_ARG_DICT;

      append_both (markup, plain, tuple ? "(" : dict ? "{"
                                                     : "[");
      for (guint i = 0; i < arg->n; i++)
        {
          if (i > 0)
            append_both (markup, plain, dict && i % 2 == 1 ? ": " : ", ");
          append_arg (self, markup, plain, &arg->items[i]);
        }
      append_both (markup, plain, tuple ? (arg->n == 1 ? ",)" : ")") : dict ? "}"
                                                                            : "]");
    }
  else
    {
      g_autofree char *repr = graft_arg_repr (arg, GRAFT_REPR_CODE);

      append_both (markup, plain, repr);
    }
}

static void
add_arg_row (GraftProperties *self,
             const char      *key,
             const GraftArg  *arg)
{
  g_autoptr (GString) markup = g_string_new (NULL);
  g_autoptr (GString) plain = g_string_new (NULL);

  append_arg (self, markup, plain, arg);
  add_row (self, key, plain->str, graft_arg_has_node (arg) ? markup->str : NULL, TRUE);
}

/* A row listing @n nodes (@get gives the i-th) as links. */
static void
add_node_list (GraftProperties *self,
               const char      *key,
               guint            n,
               GraftNode *(*get) (gpointer data, guint i),
               gpointer data)
{
  g_autoptr (GString) markup = g_string_new (NULL);
  g_autoptr (GString) plain = g_string_new (NULL);

  if (n == 0)
    {
      add_row (self, key, "none", NULL, FALSE);
      return;
    }
  for (guint i = 0; i < n && i < MAX_LISTED; i++)
    {
      if (i > 0)
        append_both (markup, plain, ", ");
      append_node_link (self, markup, plain, get (data, i));
    }
  if (n > MAX_LISTED)
    {
      g_autofree char *more = g_strdup_printf (" and %u more", n - MAX_LISTED);

      append_both (markup, plain, more);
    }
  add_row (self, key, plain->str, markup->str, TRUE);
}

static GraftNode *
get_user (gpointer data,
          guint    i)
{
  return graft_node_get_user (data, i);
}

static GraftNode *
get_listed (gpointer data,
            guint    i)
{
  return g_ptr_array_index ((GPtrArray *) data, i);
}

/* The rows of a program's signature entry for a placeholder. */
static void
add_signature (GraftProperties *self,
               GraftGraph      *graph,
               GraftNode       *node)
{
  GraftProgram            *program = graft_graph_get_program (graph);
  const GraftInputSpec    *spec;
  static const char *const kinds[] = {
    [GRAFT_INPUT_SPEC_USER_INPUT] = "user input",
    [GRAFT_INPUT_SPEC_PARAMETER] = "parameter",
    [GRAFT_INPUT_SPEC_BUFFER] = "buffer",
    [GRAFT_INPUT_SPEC_CONSTANT_TENSOR] = "constant tensor",
    [GRAFT_INPUT_SPEC_CUSTOM_OBJ] = "script object",
    [GRAFT_INPUT_SPEC_TOKEN] = "effect token",
  };

  if (program == NULL || graft_node_get_op (node) != GRAFT_OP_PLACEHOLDER)
    return;
  spec = graft_program_find_input (program, graft_node_get_name (node));
  if (spec == NULL)
    return;
  add_heading (self, "Signature");
  add_row (self, "kind", (guint) spec->kind < G_N_ELEMENTS (kinds) ? kinds[spec->kind] : "?", NULL,
           FALSE);
  if (spec->target != NULL)
    add_row (self, "signature target", spec->target, NULL, TRUE);
  if (spec->kind == GRAFT_INPUT_SPEC_BUFFER && spec->persistent >= 0)
    add_row (self, "persistent", spec->persistent ? "yes" : "no", NULL, FALSE);
}

/* How many items of @node's value its users take (`getitem = node[2]`:
 * at least 3); 0 when a user does something else with it, or it has
 * none. */
static guint
items_taken (GraftNode *node)
{
  guint n_users = graft_node_get_n_users (node);
  guint length = 0;

  for (guint i = 0; i < n_users; i++)
    {
      GraftNode      *user = graft_node_get_user (node, i);
      const GraftArg *args = graft_node_get_args (user);

      if (graft_node_get_op (user) != GRAFT_OP_CALL_FUNCTION ||
          g_strcmp0 (graft_node_get_target (user), "operator.getitem") != 0 || args->n != 2 ||
          args->items[0].kind != GRAFT_ARG_NODE || args->items[0].node != node ||
          args->items[1].kind != GRAFT_ARG_INT || args->items[1].i < 0 ||
          args->items[1].i >= G_MAXINT)
        return 0;
      length = MAX (length, (guint) args->items[1].i + 1);
    }
  return length;
}

/* What @node's value is when it is recorded as neither a tensor nor a
 * symbol: the tuple of an operator with several returns, as long as its
 * schema says ("tuple of 2 values": max_pool2d_with_indices, whose
 * indices no one takes); the list of one returning `Tensor[]`, as long as
 * its getitems take ("list of 3 tensors": chunk, which was called a
 * tuple); without a schema, a tuple its getitems take apart.  %NULL when
 * it is none of these. */
static char *
describe_items (GraftNode *node)
{
  const GraftAtenSchema *schema = graft_node_get_op (node) == GRAFT_OP_CALL_FUNCTION
                                      ? graft_aten_schema_lookup (graft_node_get_target (node))
                                      : NULL;
  guint                  taken = items_taken (node);
  guint                  n_returns = schema != NULL ? graft_aten_schema_get_n_returns (schema) : 0;

  if (n_returns > 1)
    return g_strdup_printf ("tuple of %u values", n_returns);
  if (n_returns == 1)
    {
      GraftAtenReturn ret;

      graft_aten_schema_get_return (schema, 0, &ret);
      if (!g_str_has_suffix (ret.type, "[]"))
        return NULL;
      if (g_str_has_prefix (ret.type, "Tensor"))
        return taken == 0   ? g_strdup ("list of tensors")
               : taken == 1 ? g_strdup ("list of 1 tensor")
                            : g_strdup_printf ("list of %u tensors", taken);
      return taken == 0   ? g_strdup ("list")
             : taken == 1 ? g_strdup ("list of 1 value")
                          : g_strdup_printf ("list of %u values", taken);
    }
  if (schema != NULL || taken == 0)
    return NULL;
  return taken == 1 ? g_strdup ("tuple of 1 value") : g_strdup_printf ("tuple of %u values", taken);
}

/* What @node computes.  A value recorded as neither a tensor nor a
 * symbol, without a description (a node with several outputs, the
 * output), showed the heading alone: a tuple or a list says how long it
 * is (describe_items()), the rest has no heading. */
static void
add_value (GraftProperties     *self,
           GraftNode           *node,
           const GraftNodeMeta *meta)
{
  g_autofree char *annotation = graft_node_meta_dup_annotation (meta, FALSE, FALSE);

  if (meta->kind == GRAFT_VALUE_UNKNOWN)
    return;
  if (meta->kind == GRAFT_VALUE_OTHER && meta->symbol == NULL)
    {
      g_autofree char *text = describe_items (node);

      if (text == NULL)
        return;
      add_heading (self, "Value");
      add_row (self, "type", text, NULL, TRUE);
      return;
    }
  add_heading (self, "Value");
  if (annotation != NULL)
    add_row (self, "type", annotation, NULL, TRUE);
  if (meta->kind == GRAFT_VALUE_TENSOR)
    {
      if (meta->shape != NULL)
        add_row (self, "shape", meta->shape, NULL, TRUE);
      if (meta->dtype != NULL)
        add_row (self, "dtype", meta->dtype, NULL, TRUE);
      if (meta->stride != NULL)
        add_row (self, "stride", meta->stride, NULL, TRUE);
      if (meta->device != NULL)
        add_row (self, "device", meta->device, NULL, TRUE);
    }
  else if (meta->symbol != NULL)
    add_row (self, meta->kind == GRAFT_VALUE_SYMBOL ? "symbol" : "value", meta->symbol, NULL, TRUE);
}

/* The innermost frame's place and code, from torch's one-line summary
 * (`File: FILE:LINE in NAME, code: CODE`), and the whole trace. */
static void
add_source (GraftProperties *self,
            const char      *stack_trace)
{
  g_autoptr (GString) summary = g_string_new (NULL);
  GtkWidget  *expander;
  GtkWidget  *trace;
  const char *code;
  const char *place;

  if (stack_trace == NULL || *stack_trace == '\0')
    return;
  add_heading (self, "Source");
  if (graft_stack_trace_summarize (stack_trace, summary) &&
      g_str_has_prefix (summary->str, "File: ") &&
      (code = strstr (summary->str, ", code: ")) != NULL)
    {
      g_autofree char *where = g_strndup (summary->str + strlen ("File: "),
                                          (gsize) (code - summary->str) - strlen ("File: "));
      const char      *slash = strrchr (where, '/');
      GtkWidget       *label;

      place = slash != NULL ? slash + 1 : where;
      label = add_row (self, "source", where, NULL, TRUE);
      /* Short on screen (the file's name), whole when copied. */
      gtk_label_set_text (GTK_LABEL (label), place);
      gtk_widget_set_tooltip_text (label, where);
      add_row (self, "code", code + strlen (", code: "), NULL, TRUE);
    }
  expander = gtk_expander_new_with_mnemonic ("Stack _Trace");
  trace = gtk_label_new (stack_trace);
  gtk_label_set_xalign (GTK_LABEL (trace), 0);
  gtk_label_set_selectable (GTK_LABEL (trace), TRUE);
  set_pointer_only (trace, TRUE);
  no_hyphens (trace);
  gtk_widget_add_css_class (trace, "monospace");
  gtk_widget_add_css_class (trace, "caption");
  gtk_expander_set_child (GTK_EXPANDER (expander), trace);
  gtk_grid_attach (GTK_GRID (self->content), expander, 0, (int) self->row++, 2, 1);
  g_string_append_printf (self->text, "stack trace:\n%s", stack_trace);
  if (!g_str_has_suffix (stack_trace, "\n"))
    g_string_append_c (self->text, '\n');
  g_hash_table_insert (self->values, g_strdup ("stack trace"), g_strdup (stack_trace));
}

static const char *
short_class (const char *type)
{
  const char *dot = type != NULL ? strrchr (type, '.') : NULL;

  return dot != NULL ? dot + 1 : type != NULL ? type
                                              : "";
}

/* One row per level of the module stack, outermost first: the class
 * (short; whole in the tooltip) as the key, the path as the value. */
static void
add_modules (GraftProperties     *self,
             const GraftNodeMeta *meta)
{
  g_autoptr (GString) plain = g_string_new (NULL);

  if (meta->n_modules == 0)
    return;
  add_heading (self, "Module");
  for (guint f = 0; f < meta->n_modules; f++)
    {
      const GraftModuleFrame *frame = &meta->modules[f];
      const char             *path = frame->path != NULL && *frame->path != '\0' ? frame->path
                                                                                 : "(root)";
      const char             *type = frame->type != NULL ? frame->type : "";
      GtkWidget              *key = gtk_label_new (short_class (type));
      GtkWidget              *value = gtk_label_new (path);

      gtk_label_set_xalign (GTK_LABEL (key), 0);
      gtk_widget_set_valign (key, GTK_ALIGN_START);
      gtk_widget_add_css_class (key, "dim-label");
      gtk_widget_set_tooltip_text (key, type);
      gtk_label_set_xalign (GTK_LABEL (value), 0);
      gtk_label_set_selectable (GTK_LABEL (value), TRUE);
      set_pointer_only (value, TRUE);
      gtk_widget_set_hexpand (value, TRUE);
      gtk_widget_add_css_class (value, "monospace");
      no_hyphens (value);
      gtk_grid_attach (GTK_GRID (self->content), key, 0, (int) self->row, 1, 1);
      gtk_grid_attach (GTK_GRID (self->content), value, 1, (int) self->row++, 1, 1);
      if (f > 0)
        g_string_append_c (plain, '\n');
      g_string_append_printf (plain, "%s \u00b7 %s", path, type);
      g_string_append_printf (self->text, "module: %s \u00b7 %s\n", path, type);
    }
  g_hash_table_insert (self->values, g_strdup ("module"), g_strdup (plain->str));
}

static void
show_node (GraftProperties *self,
           GraftGraph      *graph,
           GraftNode       *node)
{
  const GraftNodeMeta   *meta = graft_node_get_meta (node);
  const GraftArg        *args = graft_node_get_args (node);
  const GraftArg        *kwargs = graft_node_get_kwargs (node);
  GraftOp                op = graft_node_get_op (node);
  const GraftAtenSchema *schema =
      op == GRAFT_OP_CALL_FUNCTION ? graft_aten_schema_lookup (graft_node_get_target (node))
                                   : NULL;

  begin (self, shown_name (self, node));
  add_row (self, "op", graft_op_to_string (op), NULL, TRUE);
  add_row (self, "target", graft_node_get_target (node), NULL, TRUE);
  add_signature (self, graph, node);
  if (args->n > 0 || kwargs->n > 0)
    add_heading (self, "Arguments");
  for (guint i = 0; i < args->n; i++)
    {
      g_autofree char  *key = NULL;
      GraftAtenArgument argument = { 0 };

      /* An operator's schema names its parameters. */
      if (schema != NULL && i < graft_aten_schema_get_n_arguments (schema))
        {
          graft_aten_schema_get_argument (schema, i, &argument);
          key = g_strdup (argument.name);
        }
      else
        key = g_strdup_printf ("args[%u]", i);
      add_arg_row (self, key, &args->items[i]);
    }
  for (guint i = 0; i + 1 < kwargs->n; i += 2)
    {
      const GraftArg  *k = &kwargs->items[i];
      g_autofree char *key = k->kind == GRAFT_ARG_STR ? g_strndup (k->s, k->n)
                                                      : graft_arg_repr (k, GRAFT_REPR_CODE);

      add_arg_row (self, key, &kwargs->items[i + 1]);
    }
  if (meta != NULL)
    {
      add_value (self, node, meta);
      add_source (self, meta->stack_trace);
      add_modules (self, meta);
    }
  add_heading (self, "Users");
  add_node_list (self, "users", graft_node_get_n_users (node), get_user, node);
}

static void
show_folded (GraftProperties *self,
             GraftGraph      *graph,
             GraftScopes     *scopes,
             const char      *path)
{
  g_autoptr (GPtrArray) members = g_ptr_array_new ();
  g_autofree char *count = NULL;
  const char      *type = scopes != NULL ? graft_scopes_get_type_name (scopes, path) : NULL;
  guint            i = 0;

  begin (self, *path != '\0' ? path : "(root)");
  add_row (self, "module", path, NULL, TRUE);
  if (type != NULL)
    add_row (self, "class", type, NULL, TRUE);
  if (scopes == NULL)
    {
      /* The graph changed and its modules are being found again. */
      add_note (self, "Its nodes are listed once the graph is laid out again.");
      return;
    }
  for (GraftNode *n = graft_graph_get_first (graph);
       n != NULL && i < graft_scopes_get_n_nodes (scopes); n = graft_node_get_next (n), i++)
    {
      const char *scope = graft_scopes_get_node_scope (scopes, i);
      gsize       len = strlen (path);

      if (len == 0 ||
          (strncmp (scope, path, len) == 0 && (scope[len] == '\0' || scope[len] == '.')))
        g_ptr_array_add (members, n);
    }
  count = g_strdup_printf ("%u", members->len);
  add_row (self, "nodes", count, NULL, FALSE);
  add_node_list (self, "members", members->len, get_listed, members);
  add_note (self, "Folded: double-click the box to open it.");
}

static void
show_several (GraftProperties   *self,
              GraftGraph        *graph,
              const char *const *names)
{
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  g_autofree char *title = NULL;

  graft_graph_find_nodes (graph, names, nodes);
  title = g_strdup_printf ("%u Nodes Selected", nodes->len);
  begin (self, title);
  add_node_list (self, "nodes", nodes->len, get_listed, nodes);
}

/**
 * graft_properties_show:
 * @self: a panel
 * @graph: the graph the names are in
 * @scopes: (nullable): its scopes, for a folded module's class and nodes
 * @names: (array zero-terminated=1) (nullable): the selected nodes
 * @folded: (nullable): the path of the folded module whose box is
 *   selected (its nodes are @names), or %NULL
 *
 * Shows what @graph knows about the selection: one node, a folded module,
 * several nodes, or nothing.  Names no longer in @graph are skipped.
 */
void
graft_properties_show (GraftProperties   *self,
                       GraftGraph        *graph,
                       GraftScopes       *scopes,
                       const char *const *names,
                       const char        *folded)
{
  g_autoptr (GPtrArray) named = g_ptr_array_new ();

  g_return_if_fail (GRAFT_IS_PROPERTIES (self));
  g_return_if_fail (graph != NULL);

  /* One name: its node, or the nodes that share it. */
  if (folded == NULL && names != NULL && names[0] != NULL && names[1] == NULL)
    graft_graph_find_nodes (graph, names, named);
  if (folded != NULL)
    show_folded (self, graph, scopes, folded);
  else if (named->len == 1)
    show_node (self, graph, named->pdata[0]);
  else if (names != NULL && names[0] != NULL && (names[1] != NULL || named->len > 1))
    /* Several names, or one that two nodes share (both boxes are
     * selected). */
    show_several (self, graph, names);
  else
    {
      begin (self, "Properties");
      add_note (self, "Select a node to see its arguments, users and, in a torch.export program, "
                      "its shape, source line and module.");
    }
  gtk_widget_set_sensitive (self->copy_button, self->row > 1);
}

/**
 * graft_properties_show_graph_nodes:
 * @self: a panel
 * @graph: the graph @nodes are in
 * @nodes: (element-type GraftNode): nodes of @graph
 *
 * Shows what @graph knows about @nodes: one node, several, or nothing.
 * Of two nodes of one name, those given (graft_properties_show() of the
 * name shows both).
 */
void
graft_properties_show_graph_nodes (GraftProperties *self,
                                   GraftGraph      *graph,
                                   GPtrArray       *nodes)
{
  g_return_if_fail (GRAFT_IS_PROPERTIES (self));
  g_return_if_fail (graph != NULL && nodes != NULL);
  if (nodes->len == 1)
    show_node (self, graph, nodes->pdata[0]);
  else if (nodes->len > 1)
    {
      g_autofree char *title = g_strdup_printf ("%u Nodes Selected", nodes->len);

      begin (self, title);
      add_node_list (self, "nodes", nodes->len, get_listed, nodes);
    }
  else
    graft_properties_show (self, graph, NULL, NULL, NULL);
  gtk_widget_set_sensitive (self->copy_button, self->row > 1);
}

/**
 * graft_properties_dup_text:
 * @self: a panel
 *
 * Returns: (transfer full): what the panel shows, as Copy puts it on the
 *   clipboard: the title, then `key: value` lines
 */
char *
graft_properties_dup_text (GraftProperties *self)
{
  g_return_val_if_fail (GRAFT_IS_PROPERTIES (self), NULL);
  return g_strdup (self->text->str);
}

/**
 * graft_properties_get_value:
 * @self: a panel
 * @key: a row's key (`op`, `shape`, `users`, an argument's name)
 *
 * Returns: (nullable): the plain text of the first row called @key
 */
const char *
graft_properties_get_value (GraftProperties *self,
                            const char      *key)
{
  g_return_val_if_fail (GRAFT_IS_PROPERTIES (self), NULL);
  return g_hash_table_lookup (self->values, key);
}

/**
 * graft_properties_activate_link:
 * @self: a panel
 * @key: a row's key
 * @node: what the row links: a node's name, or `NAME#RANK` for the node
 *   of that rank (from 1) among the nodes of one name, in graph order
 *
 * Activates that link as a click does: ::node-activated follows on the
 * main loop's next turn.
 *
 * Returns: whether the row has such a link
 */
gboolean
graft_properties_activate_link (GraftProperties *self,
                                const char      *key,
                                const char      *node)
{
  GtkWidget       *label;
  g_autofree char *link = NULL;
  gboolean         handled = FALSE;

  g_return_val_if_fail (GRAFT_IS_PROPERTIES (self), FALSE);
  label = g_hash_table_lookup (self->labels, key);
  if (label == NULL)
    return FALSE;
  link = g_markup_printf_escaped ("href=\"%s\"", node);
  if (strstr (gtk_label_get_label (GTK_LABEL (label)), link) == NULL)
    return FALSE;
  g_signal_emit_by_name (label, "activate-link", node, &handled);
  return handled;
}

/**
 * graft_properties_set_name_func:
 * @self: a panel
 * @func: (nullable): gives the name shown for a node (its title, its
 *   links' texts), or %NULL: the node's own
 * @user_data: for @func, alive as long as @self
 *
 * Where two nodes share a name the code calls the second by another
 * (`sym_size_int_2`), as the canvas's box and the Code page do; the
 * panel says so too (it said `sym_size_int_1` for both).  Takes effect
 * at the next show.
 */
void
graft_properties_set_name_func (GraftProperties        *self,
                                GraftPropertiesNameFunc func,
                                gpointer                user_data)
{
  g_return_if_fail (GRAFT_IS_PROPERTIES (self));
  self->name_func = func;
  self->name_data = user_data;
}

/**
 * graft_properties_focus_first:
 * @self: a panel
 *
 * Moves the keyboard focus into the panel.
 *
 * Returns: whether something in it took the focus
 */
gboolean
graft_properties_focus_first (GraftProperties *self)
{
  g_return_val_if_fail (GRAFT_IS_PROPERTIES (self), FALSE);
  if (!gtk_widget_child_focus (GTK_WIDGET (self), GTK_DIR_TAB_FORWARD))
    return FALSE;
  unselect_title (self);
  return TRUE;
}

static void
copy_clicked_cb (GtkButton       *button,
                 GraftProperties *self)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->text->str);
}

static void
graft_properties_finalize (GObject *object)
{
  GraftProperties *self = GRAFT_PROPERTIES (object);

  g_string_free (self->text, TRUE);
  g_hash_table_unref (self->values);
  g_hash_table_unref (self->labels);
  g_clear_pointer (&self->ranks, g_hash_table_unref);
  G_OBJECT_CLASS (graft_properties_parent_class)->finalize (object);
}

static void
graft_properties_class_init (GraftPropertiesClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = graft_properties_finalize;
  gtk_widget_class_set_css_name (widget_class, "graft-properties");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);

  /**
   * GraftProperties::node-activated:
   * @name: the node a link names
   * @rank: which node of that name, by rank in graph order (0 but where
   *   two nodes share a name)
   *
   * A link to a node was clicked or activated from the keyboard.
   */
  signals[SIGNAL_NODE_ACTIVATED] =
      g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_UINT);
}

static void
graft_properties_init (GraftProperties *self)
{
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->text = g_string_new (NULL);
  self->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 6);
  gtk_widget_set_margin_top (header, 6);
  gtk_widget_set_margin_bottom (header, 6);
  self->title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->title), PANGO_ELLIPSIZE_MIDDLE);
  /* Selectable, so the first stop of the focus in the panel. */
  gtk_label_set_selectable (GTK_LABEL (self->title), TRUE);
  gtk_widget_set_hexpand (self->title, TRUE);
  gtk_widget_add_css_class (self->title, "title-4");
  self->copy_button = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  gtk_widget_set_tooltip_text (self->copy_button, "Copy All Properties");
  gtk_widget_add_css_class (self->copy_button, "flat");
  gtk_widget_set_valign (self->copy_button, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->copy_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, "Copy all properties", -1);
  g_signal_connect (self->copy_button, "clicked", G_CALLBACK (copy_clicked_cb), self);
  gtk_box_append (GTK_BOX (header), self->title);
  gtk_box_append (GTK_BOX (header), self->copy_button);
  gtk_box_append (GTK_BOX (self), header);
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (self->scroller, TRUE);
  gtk_box_append (GTK_BOX (self), self->scroller);
  begin (self, "Properties");
}
