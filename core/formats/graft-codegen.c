/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-codegen.c: generated code, as torch.fx's `CodeGen._gen_python_code`
 * writes it (`torch/fx/graph.py`) in the graph's dialect: the signature
 * from the placeholders, one line per node in graph order, values freed
 * after their last use (`;  a = b = None`), globals for functions that do
 * not come from torch, and `wrap(...)` lines for wrapped functions.
 *
 * A pattern made from selected nodes (graft-extract.c) is written here
 * too, as a function, or as a torch.nn.Module class when it calls modules
 * (graft_codegen_pattern_source()).
 *
 * The readable form is the same code generated `verbose`, as torch 2.x's
 * `GraphModule.print_readable` asks for it (`_print_readable` in
 * torch/fx/graph_module.py): annotations from the nodes' metadata
 * (`x: "f32[2, 4]"`), a comment summarizing the stack trace before each
 * run of nodes that share one, and the whole in a class named after the
 * module.  What the metadata says comes from graft-meta.c.
 *
 * Names in the code come from a fresh namespace, exactly as torch re-creates
 * them: its reserved globals first, then each node under its own name at its
 * first mention, and each global just before the node that needs it.  Graph
 * names already avoid what is reserved, so they nearly always come out the
 * same; the namespace settles the rare collision with a global.
 */
#include "config.h"

#include "graft-codegen.h"
#include "graft-arg.h"
#include "graft-arg-pool-private.h"
#include "graft-strbuf-private.h"
#include "graft-graph.h"
#include "graft-graph-private.h"
#include "graft-meta.h"
#include "graft-namespace.h"
#include "graft-type-text-private.h"

#include <string.h>

#define RECENT_SLOTS 64
/* Code names remembered by node address: a node's name is written where
 * it is defined, by its users and where it is freed, mostly within a few
 * lines, and each time it would take a call for the name and a strlen(). */
#define NAME_SLOTS 256
#define NAME_BYTES 16

static inline guint
recent_slot (const void *address)
{
  return ((guintptr) address >> 3) & (RECENT_SLOTS - 1);
}

/* A node's slot among gen->name_nodes: nodes are at least 64 bytes
 * apart. */
static inline guint
name_slot (const void *node)
{
  return ((guintptr) node >> 6) & (NAME_SLOTS - 1);
}

/* Floats written lately, by their bits: a graph uses a few constants
 * over and over (`* 0.5`), and writing one finds its shortest digits. */
#define FLOAT_SLOTS 8

typedef struct
{
  guint64 bits;
  guint8  len; /* 0: empty */
  char    text[23];
} FloatSlot;

/* Containers of plain values (no node: ints, None, slices of them...)
 * written lately, by the address of their items: the graph's pool
 * shares equal ones (`x[:, :16]`'s index tuple is one array for every
 * node that indexes so), and the graph does not change while its code is
 * written, so an address with its kind and length is one text. */
#define PLAIN_SLOTS 16
#define PLAIN_TEXT  62

typedef struct
{
  const GraftArg *items; /* NULL: empty */
  guint           n;
  guint8          kind;
  guint8          len;
  char            text[PLAIN_TEXT];
} PlainSlot;

/* A value's last user, worked out once (last_user_many()). */
typedef struct
{
  GraftNode *node; /* NULL: empty */
  GraftNode *last;
} LastUserSlot;

#define LAST_USER_SLOTS 256
/* Past this many users, a value's last user is also kept in a table. */
#define LAST_USER_SCAN 16

/* The values a line frees (append_arg_name()): looked through for a value
 * met twice, in a set past FREES_SCAN of them. */
#define FREES_SCAN 16

typedef struct
{
  GraftNode **nodes;
  guint       n;
  guint       alloc;
  GHashTable *seen; /* the nodes, past FREES_SCAN of them; or NULL */
} Frees;

typedef struct
{
  GraftGraph *graph; /* borrowed */
  /* Owned */
  GraftNamespace *names;
  GHashTable     *node_names;   /* GraftNode * -> name (in names) */
  GHashTable     *globals;      /* target -> global name */
  GPtrArray      *wrapped;      /* global names, first-emission order */
  GHashTable     *wrapped_seen; /* global name set */
  GHashTable     *forms;        /* call_function target (by address) -> Form */
  GHashTable     *self_paths;   /* get_attr and call_module target (by address) ->
                                 * SelfPath */
  /* The last forms looked up, in slots picked by address: a hit costs no
   * hashing (the targets of a graph alternate among a few dozen). */
  const char *recent_targets[RECENT_SLOTS];
  const void *recent_forms[RECENT_SLOTS];
  /* Recent call_method targets, likewise, with their lengths when they
   * are plain paths (`view`), else 0. */
  const char *method_targets[RECENT_SLOTS];
  gsize       method_lens[RECENT_SLOTS];
  /* The last self paths looked up, likewise. */
  const char *path_targets[RECENT_SLOTS];
  void       *recent_paths[RECENT_SLOTS];
  /* Keywords' keys without a newline, by address. */
  const char *clean_keys[RECENT_SLOTS];
  gsize       clean_key_lens[RECENT_SLOTS];
  gboolean    direct; /* code names are the node names (see below) */
  gboolean    typed;  /* some node may have a type annotation */
  /* Code names already worked out, with their lengths (the graph does not
   * change while its code is written, and the names are kept to the end),
   * by name_slot(): three arrays rather than one of structs, each read
   * by a scaled index. */
  const void *name_nodes[NAME_SLOTS]; /* NULL: empty */
  const char *name_texts[NAME_SLOTS];
  gsize       name_lens[NAME_SLOTS];
  /* The first NAME_BYTES bytes of each name, copied to the output in one
   * move of that size when the name is no longer (most are): the bytes
   * past its end are written into the reserved room and overwritten. */
  char      name_bytes[NAME_SLOTS][NAME_BYTES];
  FloatSlot float_slots[FLOAT_SLOTS];
  PlainSlot plain_slots[PLAIN_SLOTS];
  /* Values with several users, by address: their last user. */
  LastUserSlot last_users[LAST_USER_SLOTS];
  GHashTable  *last_users_many; /* the same for values of many users, or NULL */
  Frees        frees;           /* the line's */
  GraftNode   *line_node;       /* the node whose line is being written */
  /* Whether the line being written may hold a newline of its own: set by
   * every writer of text other than code names, numbers, punctuation and
   * plain dotted paths, so that only such lines are searched for one
   * (indent_inner_lines()). */
  gboolean maybe_newline;
  /* Whether any line so far may hold such text (a `#` among it, so that
   * torch 2.x's tags are looked for only then: drop_tagged_lines()).
   * Text that may hold a `#` but no newline sets maybe_newline too. */
  gboolean           raw_text;
  gboolean           verbose;  /* the readable form's code */
  GraftReadableFlags readable; /* with verbose: what annotations show */
} CodeGen;

/* How a call_function target is written, worked out once per target: the
 * graph interns targets, so a graph of 10,000 nodes has a few dozen, and
 * the cache is keyed by address (a miss only costs working it out again). */
typedef struct
{
  const char *format; /* operator form, or NULL */
  const char *global; /* otherwise: the global's name (owned by globals) */
  gsize       global_len;
  gboolean    getattr; /* the global is `getattr` */
  gboolean    raw;     /* the global's name holds a newline */
  /* An operator's form cut at its `{}`s: `-{}` is a prefix and one
   * slot, `{} + {}` two slots and what is between them, `{}[{}]` also a
   * suffix; each piece of text at most four bytes. */
  char   op_text[3][4];
  guint8 op_len[3];
  guint8 op_slots;
} Form;

static const struct
{
  const char *name;
  const char *format; /* `{}` stands for each argument in turn */
} operator_forms[] = {
  { "add", "{} + {}" },
  { "sub", "{} - {}" },
  { "mul", "{} * {}" },
  { "floordiv", "{} // {}" },
  { "truediv", "{} / {}" },
  { "div", "{} / {}" },
  { "mod", "{} % {}" },
  { "pow", "{} ** {}" },
  { "lshift", "{} << {}" },
  { "rshift", "{} >> {}" },
  { "and_", "{} & {}" },
  { "or_", "{} | {}" },
  { "xor", "{} ^ {}" },
  { "getitem", "{}[{}]" },
  { "matmul", "{} @ {}" },
  { "eq", "{} == {}" },
  { "ne", "{} != {}" },
  { "lt", "{} < {}" },
  { "gt", "{} > {}" },
  { "le", "{} <= {}" },
  { "ge", "{} >= {}" },
  { "pos", "+{}" },
  { "neg", "-{}" },
  { "invert", "~{}" },
};

/**
 * graft_codegen_operator_format:
 * @target: a call_function target (`operator.add`)
 *
 * Returns: (nullable): torch.fx's `magic_methods` form for an operator
 *   target (`{} + {}`), or %NULL when the target is not one
 */
const char *
graft_codegen_operator_format (const char *target)
{
  if (!g_str_has_prefix (target, "operator."))
    return NULL;
  target += strlen ("operator.");
  for (guint i = 0; i < G_N_ELEMENTS (operator_forms); i++)
    if (strcmp (operator_forms[i].name, target) == 0)
      return operator_forms[i].format;
  return NULL;
}

/* `_is_from_torch`: a function whose module starts with `torch` is printed
 * by its qualified name rather than made a global. */
static gboolean
is_from_torch (const char *target)
{
  return g_str_has_prefix (target, "torch.") || strcmp (target, "torch") == 0;
}

/**
 * graft_codegen_call_form:
 * @target: a call_function target as listings print it
 *
 * `_get_qualified_name`: the name a function has in generated code before
 * it is made a global: builtins by bare name (`getattr`), everything else
 * by its qualified name (`math.sqrt`, `torch.cat`); the functions of
 * `operator` live in `_operator` (`operator.abs` is `_operator.abs`, the
 * global `_operator_abs`).
 *
 * Returns: (transfer full): the qualified name
 */
char *
graft_codegen_call_form (const char *target)
{
  if (g_str_has_prefix (target, "builtins."))
    return g_strdup (target + strlen ("builtins."));
  if (g_str_has_prefix (target, "operator."))
    return g_strconcat ("_", target, NULL);
  return g_strdup (target);
}

/* `self.a.b` for a get_attr or call_module target, written once per
 * target: a graph reads a few dozen attributes and modules from its
 * thousands of nodes, and writing a path looks at each of its parts. */
typedef struct
{
  char    *text;
  gsize    len;
  gboolean raw; /* it holds a newline */
} SelfPath;

static void
self_path_free (gpointer data)
{
  SelfPath *path = data;

  g_free (path->text);
  g_free (path);
}

/* A line is written through a cursor held in registers: where the next
 * byte goes and where the buffer's room ends (its last byte kept for the
 * NUL, written once the walk stops: texts read as strings before that, a
 * placeholder's parameter, a receiver or object written apart, get theirs
 * from terminate()).  Room is reserved for CUR_ROOM bytes at a time
 * (cur_need()): at each line's start, at each argument, at each item of a
 * tuple or list, after each container's end, at each freed name; what is
 * written between two reservations is bounded pieces (punctuation, small
 * ints, None, texts of up to 32 bytes: at most about 140 bytes), and a
 * longer text reserves room for itself and a new CUR_ROOM (put_text()).
 * Text written by GLib in between (a float, a string's repr) goes through
 * the GString: cur_close() before, cur_open() and cur_need() after. */
#define CUR_ROOM 256

typedef struct
{
  char *w;   /* next byte */
  char *end; /* the buffer's last byte, kept for the NUL */
} Cur;

static inline Cur
cur_open (GString *buf)
{
  Cur c = { buf->str + buf->len, buf->str + buf->allocated_len - 1 };

  return c;
}

static inline void
cur_close (GString *buf,
           Cur      c)
{
  buf->len = (gsize) (c.w - buf->str);
}

static G_GNUC_NO_INLINE Cur
cur_grow (GString *buf,
          Cur      c,
          gsize    n)
{
  gsize len = (gsize) (c.w - buf->str);

  buf->len = len;
  _graft_buf_grow (buf, n);
  return cur_open (buf);
}

/* Room for @n more bytes. */
static inline G_ALWAYS_INLINE Cur
cur_need (GString *buf,
          Cur      c,
          gsize    n)
{
  if (G_UNLIKELY ((gsize) (c.end - c.w) < n))
    c = cur_grow (buf, c, n);
  return c;
}

/* A literal text, within the reserved room. */
#define CPUT(c, literal)                             \
  G_STMT_START                                       \
  {                                                  \
    memcpy ((c).w, (literal), sizeof (literal) - 1); \
    (c).w += sizeof (literal) - 1;                   \
  }                                                  \
  G_STMT_END

/* The NUL the cursor leaves out. */
static inline void
terminate (GString *out)
{
  out->str[out->len] = '\0';
}

/* @len bytes of text (a name, mostly short): up to 32 copied with two
 * overlapping moves of a fixed size rather than a call to memcpy, within
 * the reserved room; a longer one reserves room for itself (and a new
 * CUR_ROOM after it). */
static inline G_ALWAYS_INLINE Cur
put_text (GString    *buf,
          Cur         c,
          const char *text,
          gsize       len)
{
  char *dst;

  if (G_UNLIKELY (len > 32))
    {
      c = cur_need (buf, c, len + CUR_ROOM);
      memcpy (c.w, text, len);
      c.w += len;
      return c;
    }
  dst = c.w;
  if (len >= 16)
    {
      memcpy (dst, text, 16);
      memcpy (dst + len - 16, text + len - 16, 16);
    }
  else if (len >= 8)
    {
      memcpy (dst, text, 8);
      memcpy (dst + len - 8, text + len - 8, 8);
    }
  else if (len >= 4)
    {
      memcpy (dst, text, 4);
      memcpy (dst + len - 4, text + len - 4, 4);
    }
  else if (len > 0)
    {
      dst[0] = text[0];
      dst[len >> 1] = text[len >> 1];
      dst[len - 1] = text[len - 1];
    }
  c.w = dst + len;
  return c;
}

/* graft_append_int()'s digits at @w (at most 20 bytes); the end. */
static G_GNUC_NO_INLINE char *
write_int (char  *w,
           gint64 i)
{
  char  digits[24];
  char *start = _graft_int_digits (digits + sizeof digits, i);
  gsize len = (gsize) (digits + sizeof digits - start);

  memcpy (w, start, len);
  return w + len;
}

static const char *
code_name (CodeGen   *gen,
           GraftNode *node)
{
  const char *name;

  if (gen->direct)
    return graft_node_get_name (node);
  name = g_hash_table_lookup (gen->node_names, node);

  if (name == NULL)
    {
      name =
          graft_namespace_create_name (gen->names, graft_node_get_name (node), GRAFT_NAME_DEFAULT);
      g_hash_table_insert (gen->node_names, node, (gpointer) name);
    }
  return name;
}

/* @node's code name put in @slot, its length measured. */
static G_GNUC_NO_INLINE void
fill_name_slot (CodeGen   *gen,
                guint      slot,
                GraftNode *node)
{
  gen->name_nodes[slot] = node;
  gen->name_texts[slot] = gen->direct ? graft_node_get_name (node) : code_name (gen, node);
  gen->name_lens[slot] = strlen (gen->name_texts[slot]);
  memcpy (gen->name_bytes[slot], gen->name_texts[slot], MIN (gen->name_lens[slot], NAME_BYTES));
}

/* put_text() of the name in @slot: a short one from its bytes, in one
 * move (within the reserved room). */
static inline G_ALWAYS_INLINE Cur
put_slot_name (CodeGen *gen,
               GString *out,
               Cur      c,
               guint    slot)
{
  gsize len = gen->name_lens[slot];

  if (G_LIKELY (len <= NAME_BYTES))
    {
      memcpy (c.w, gen->name_bytes[slot], NAME_BYTES);
      c.w += len;
      return c;
    }
  return put_text (out, c, gen->name_texts[slot], len);
}

/* put_text() of @node's code name, remembered in gen->name_nodes. */
static inline G_ALWAYS_INLINE Cur
append_code_name (CodeGen   *gen,
                  GString   *out,
                  Cur        c,
                  GraftNode *node)
{
  guint slot = name_slot (node);

  if (G_UNLIKELY (gen->name_nodes[slot] != node))
    fill_name_slot (gen, slot, node);
  return put_slot_name (gen, out, c, slot);
}

static const char *
code_name_cb (GraftNode *node,
              gpointer   user_data)
{
  return code_name (user_data, node);
}

/* The values each node frees after it (`;  a = b = None`): torch walks
 * the nodes backwards, and a value is freed by the first node met that
 * uses it, that is by its last user in graph order.  The graph keeps each
 * value's users: a value with one user (most have) is freed by it, one
 * with several by the latest (_graft_node_get_last_user(), once per
 * value).  So each line finds its frees as it writes its arguments
 * (append_arg_name()), in the order torch's walk meets them (args, then
 * keyword values, a dict's values only, as map_arg), without a walk over
 * the graph first and without its scratch marks: a GraftCodegenJob keeps
 * nothing in the graph between steps.  Users in another graph (a broken
 * graph's reference) do not count, as torch's walk is over this one's
 * nodes.  The users lists must be settled, as for
 * graft_node_get_n_users() (no rewrite is under way). */
static inline guint
last_user_slot (const GraftNode *node)
{
  /* Nodes are at least 64 bytes apart. */
  return ((guintptr) node >> 6) & (LAST_USER_SLOTS - 1);
}

/* @node's last user, a value with several: worked out once per value.  A
 * value read by many nodes (an input, a weight) is kept in a table too:
 * two such in one slot must not each look through their users again at
 * every use. */
static G_GNUC_NO_INLINE GraftNode *
last_user_many (CodeGen   *gen,
                GraftNode *node)
{
  LastUserSlot *slot = &gen->last_users[last_user_slot (node)];
  GraftNode    *last;

  if (graft_node_get_n_users (node) <= LAST_USER_SCAN)
    last = _graft_node_get_last_user (node, gen->graph);
  else
    {
      if (gen->last_users_many == NULL)
        gen->last_users_many = g_hash_table_new (NULL, NULL);
      if (!g_hash_table_lookup_extended (gen->last_users_many, node, NULL, (gpointer *) &last))
        {
          last = _graft_node_get_last_user (node, gen->graph);
          g_hash_table_insert (gen->last_users_many, node, last);
        }
    }
  slot->node = node;
  slot->last = last;
  return last;
}

/* Whether @user is @node's last user. */
static inline G_ALWAYS_INLINE gboolean
is_last_use (CodeGen   *gen,
             GraftNode *node,
             GraftNode *user)
{
  const LastUserSlot *slot;

  if (G_LIKELY (!_graft_node_has_many_users (node)))
    return _graft_node_get_sole_user (node) == user;
  slot = &gen->last_users[last_user_slot (node)];
  if (G_LIKELY (slot->node == node))
    return slot->last == user;
  return last_user_many (gen, node) == user;
}

/* add_free() past the line's first free. */
static G_GNUC_NO_INLINE void
add_free_more (CodeGen   *gen,
               GraftNode *node)
{
  Frees *f = &gen->frees;

  if (G_LIKELY (f->n <= FREES_SCAN))
    {
      for (guint i = 0; i < f->n; i++)
        if (f->nodes[i] == node)
          return;
      if (f->n == FREES_SCAN)
        {
          /* A long list (`torch.cat([a, b, ...])`): a set from now on. */
          if (f->seen == NULL)
            f->seen = g_hash_table_new (NULL, NULL);
          for (guint i = 0; i < f->n; i++)
            g_hash_table_add (f->seen, f->nodes[i]);
        }
    }
  if (f->n >= FREES_SCAN && !g_hash_table_add (f->seen, node))
    return;
  if (G_UNLIKELY (f->n == f->alloc))
    {
      f->alloc = 2 * f->alloc;
      f->nodes = g_renew (GraftNode *, f->nodes, f->alloc);
    }
  f->nodes[f->n++] = node;
}

/* @node, used last by the line's node, among its frees unless it is
 * there already (a value used twice in the line). */
static inline G_ALWAYS_INLINE void
add_free (CodeGen   *gen,
          GraftNode *node)
{
  /* Most lines free one or two values (`add = a + b;  a = b = None`). */
  if (G_LIKELY (gen->frees.n == 0))
    {
      gen->frees.nodes[0] = node;
      gen->frees.n = 1;
      return;
    }
  if (gen->frees.n == 1 && gen->frees.nodes[0] != node)
    {
      gen->frees.nodes[1] = node;
      gen->frees.n = 2;
      return;
    }
  add_free_more (gen, node);
}

/* Empties the line's frees. */
static inline void
frees_reset (CodeGen *gen)
{
  if (G_UNLIKELY (gen->frees.n >= FREES_SCAN))
    g_hash_table_remove_all (gen->frees.seen);
  gen->frees.n = 0;
}

static void note_frees (CodeGen        *gen,
                        GraftNode      *user,
                        const GraftArg *arg);

/* The items of a tuple, list or slice: most are nodes, met here, and most
 * others constants without nodes, skipped without a call. */
static inline void
note_frees_in_items (CodeGen        *gen,
                     GraftNode      *user,
                     const GraftArg *items,
                     guint           n)
{
  for (guint i = 0; i < n; i++)
    if (items[i].kind == GRAFT_ARG_NODE)
      {
        if (is_last_use (gen, items[i].node, user))
          add_free (gen, items[i].node);
      }
    else if (_graft_arg_is_container (&items[i]))
      note_frees (gen, user, &items[i]);
}

static void
note_frees (CodeGen        *gen,
            GraftNode      *user,
            const GraftArg *arg)
{
  if (arg->kind == GRAFT_ARG_NODE)
    {
      if (is_last_use (gen, arg->node, user))
        add_free (gen, arg->node);
    }
  else if (arg->kind == GRAFT_ARG_DICT)
    /* map_arg visits dict values only. */
    for (guint i = 0; i < arg->n; i++)
      note_frees (gen, user, &arg->items[2 * i + 1]);
  else if (_graft_arg_is_container (arg))
    note_frees_in_items (gen, user, arg->items, arg->n);
}

/* The values @node frees after it, into gen->frees, apart from writing
 * its line (which finds them as it writes each argument). */
static G_GNUC_NO_INLINE void
collect_frees (CodeGen   *gen,
               GraftNode *node)
{
  frees_reset (gen);
  note_frees (gen, node, graft_node_get_args (node));
  note_frees (gen, node, graft_node_get_kwargs (node));
}

/* append_code_name() of an argument of the line's node: also among the
 * line's frees if the line's node is its last user. */
static inline G_ALWAYS_INLINE Cur
append_arg_name (CodeGen   *gen,
                 GString   *out,
                 Cur        c,
                 GraftNode *node)
{
  if (is_last_use (gen, node, gen->line_node))
    add_free (gen, node);
  return append_code_name (gen, out, c, node);
}

/* `add_global`: the name under which generated code refers to a function. */
static const char *
add_global (CodeGen    *gen,
            const char *target)
{
  g_autofree char *qualified = NULL;
  const char      *name;
  GraftNameFlags   flags = GRAFT_NAME_DEFAULT;

  name = g_hash_table_lookup (gen->globals, target);
  if (name != NULL)
    return name;
  qualified = graft_codegen_call_form (target);
  if (is_from_torch (qualified))
    {
      /* Printed as is; the namespace is not involved. */
      char *stored = g_strdup (qualified);
      g_hash_table_insert (gen->globals, g_strdup (target), stored);
      return stored;
    }
  if (g_str_has_prefix (target, "builtins."))
    flags = GRAFT_NAME_IS_BUILTIN;
  name = graft_namespace_create_name (gen->names, qualified, flags);
  g_hash_table_insert (gen->globals, g_strdup (target), g_strdup (name));
  return g_hash_table_lookup (gen->globals, target);
}

/* `add_global` of a type: the name generated code uses for the class
 * whose `_type_repr` is @hint.  torch's own classes keep their qualified
 * name (torch.device is the custom builtin `device`); builtins keep theirs;
 * anything else (typing's names, another library's class, `...`, a
 * string) becomes a global named after it. */
static const char *
type_global (CodeGen    *gen,
             const char *hint)
{
  g_autofree char *key = g_strconcat ("type:", hint, NULL);
  const char      *name = g_hash_table_lookup (gen->globals, key);
  char            *stored;

  if (name != NULL)
    return name;
  /* Both are custom builtins of torch's code generation. */
  if (strcmp (hint, "NoneType") == 0)
    name = "NoneType";
  else if (strcmp (hint, "torch.device") == 0)
    name = "device";
  else if (is_from_torch (hint))
    name = hint;
  else if (graft_is_python_builtin (hint))
    name = graft_namespace_create_name (gen->names, hint, GRAFT_NAME_IS_BUILTIN);
  else
    name = graft_namespace_create_name (gen->names, hint, GRAFT_NAME_DEFAULT);
  stored = g_strdup (name);
  g_hash_table_insert (gen->globals, g_steal_pointer (&key), stored);
  return stored;
}

/* What a generic alias's `__origin__` is, by the alias's name in a
 * listing, as torch's `type_repr` names it: typing's own for the
 * builtin containers (`_origin_type_map`), `collections.abc`'s for the
 * abstract ones; NULL for a name that is no generic alias. */
static const char *
origin_of (const char *name)
{
  static const struct
  {
    const char *alias;
    const char *origin;
  } origins[] = {
    { "typing.List", "typing.List" },
    { "list", "typing.List" },
    { "typing.Dict", "typing.Dict" },
    { "dict", "typing.Dict" },
    { "typing.Set", "typing.Set" },
    { "set", "typing.Set" },
    { "typing.FrozenSet", "typing.FrozenSet" },
    { "frozenset", "typing.FrozenSet" },
    { "typing.Tuple", "typing.Tuple" },
    { "tuple", "typing.Tuple" },
    { "typing.Type", "type" },
    { "type", "type" },
    { "typing.Union", "typing.Union" },
    { "typing.Optional", "typing.Union" },
    { "typing.Deque", "collections.deque" },
    { "typing.DefaultDict", "collections.defaultdict" },
    { "typing.OrderedDict", "collections.OrderedDict" },
    { "typing.Counter", "collections.Counter" },
    { "typing.ChainMap", "collections.ChainMap" },
    { "typing.AbstractSet", "collections.abc.Set" },
    { "typing.Collection", "collections.abc.Collection" },
    { "typing.Container", "collections.abc.Container" },
    { "typing.Generator", "collections.abc.Generator" },
    { "typing.Iterable", "collections.abc.Iterable" },
    { "typing.Iterator", "collections.abc.Iterator" },
    { "typing.Mapping", "collections.abc.Mapping" },
    { "typing.MutableMapping", "collections.abc.MutableMapping" },
    { "typing.MutableSequence", "collections.abc.MutableSequence" },
    { "typing.MutableSet", "collections.abc.MutableSet" },
    { "typing.Reversible", "collections.abc.Reversible" },
    { "typing.Sequence", "collections.abc.Sequence" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (origins); i++)
    if (strcmp (origins[i].alias, name) == 0)
      return origins[i].origin;
  return NULL;
}

/* torch's `type_repr` of the type whose listing text is [@p, @end), into
 * @out: a generic alias is its origin's name and its arguments' forms,
 * joined by `,`; anything else is one global (`int | None`, a string). */
static void
append_type_code (CodeGen    *gen,
                  GString    *out,
                  const char *p,
                  const char *end)
{
  g_autofree char *text = g_strndup (p, end - p);
  const char      *open = strchr (text, '[');
  g_autofree char *name = open != NULL ? g_strndup (text, open - text) : g_strdup (text);
  const char      *origin = origin_of (name);
  gboolean         optional = strcmp (name, "typing.Optional") == 0;
  gboolean         bare = open == NULL;

  /* `int | None` (types.UnionType) has no origin: one global, as text;
   * a builtin class unsubscripted is itself; so is a text whose first
   * bracket does not close at its end (no alias a listing prints). */
  if (_graft_type_text_is_alternatives (text) || (bare && strchr (name, '.') == NULL) ||
      (!bare && !_graft_type_text_closes_at (open, text + strlen (text))))
    origin = NULL;
  if (origin == NULL || (open == NULL && optional))
    {
      g_string_append (out, type_global (gen, text));
      return;
    }
  g_string_append (out, type_global (gen, origin));
  if (bare)
    return;
  /* The arguments, between the brackets. */
  {
    const char *q = text + (open - text) + 1;
    const char *close = text + strlen (text) - 1;
    gboolean    first = TRUE;

    if (close - q == 2 && q[0] == '(' && q[1] == ')')
      return; /* `Tuple[()]`: no arguments */
    g_string_append_c (out, '[');
    while (q < close)
      {
        const char *arg_end = _graft_type_text_arg_end (q);

        if (!first)
          g_string_append_c (out, ',');
        first = FALSE;
        append_type_code (gen, out, q, arg_end);
        q = arg_end;
        if (*q == ',')
          q++;
        while (*q == ' ')
          q++;
      }
    if (optional)
      g_string_append_printf (out, ",%s", type_global (gen, "NoneType"));
    g_string_append_c (out, ']');
  }
}

/* `type_repr`: how an annotation is written in code, from the text the
 * listing shows for it (graft-tracer-types.c). */
static const char *
type_repr (CodeGen    *gen,
           const char *type)
{
  g_autofree char *key = g_strconcat ("code:", type, NULL);
  const char      *name = g_hash_table_lookup (gen->globals, key);
  g_autoptr (GString) out = NULL;

  if (name != NULL)
    return name;
  out = g_string_new (NULL);
  append_type_code (gen, out, type, type + strlen (type));
  name = g_string_free (g_steal_pointer (&out), FALSE);
  g_hash_table_insert (gen->globals, g_steal_pointer (&key), (gpointer) name);
  return name;
}

/* graft_arg_append_repr() with nodes by code name, written here for the
 * values most arguments are (nodes, and tuples and lists of them, ints,
 * None). */
static Cur append_repr_any (CodeGen        *gen,
                            GString        *out,
                            Cur             c,
                            const GraftArg *arg);
static Cur append_sequence (CodeGen        *gen,
                            GString        *out,
                            Cur             c,
                            const GraftArg *arg);

/* append_repr_any(), with a node (most arguments are) written without a
 * call.  Within the reserved room: what it writes beyond a bounded piece
 * reserves room again. */
static inline G_ALWAYS_INLINE Cur
append_repr (CodeGen        *gen,
             GString        *out,
             Cur             c,
             const GraftArg *arg)
{
  if (arg->kind == GRAFT_ARG_NODE)
    return append_arg_name (gen, out, c, arg->node);
  if (arg->kind == GRAFT_ARG_LIST || arg->kind == GRAFT_ARG_TUPLE)
    return append_sequence (gen, out, c, arg);
  /* A digit (`dim = 1`, `sum(0)`) or -1 (`view(n, -1)`). */
  if (arg->kind == GRAFT_ARG_INT && arg->i >= -9 && arg->i <= 9)
    {
      *c.w = '-';
      c.w += arg->i < 0;
      *c.w++ = (char) ('0' + (arg->i < 0 ? -arg->i : arg->i));
      return c;
    }
  return append_repr_any (gen, out, c, arg);
}

/* graft_arg_append_repr() of a float (its digits hold no newline),
 * kept in gen->float_slots. */
static G_GNUC_NO_INLINE void
append_float (CodeGen *gen,
              GString *out,
              double   value)
{
  guint64    bits;
  FloatSlot *slot;
  gsize      start = out->len;

  /* The top three bits of a multiplicative hash pick the slot. */
  G_STATIC_ASSERT (FLOAT_SLOTS == 8);
  memcpy (&bits, &value, sizeof bits);
  slot = &gen->float_slots[(bits * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 61];
  if (slot->len > 0 && slot->bits == bits)
    {
      _graft_buf_append_len (out, slot->text, slot->len);
      return;
    }
  graft_append_float_repr (out, value);
  if (out->len - start <= sizeof slot->text)
    {
      slot->bits = bits;
      slot->len = (guint8) (out->len - start);
      memcpy (slot->text, out->str + start, slot->len);
    }
}

/* Whether a slice's part is one append_repr_any() writes itself. */
static inline gboolean
is_plain_slice_part (const GraftArg *part)
{
  return part->kind == GRAFT_ARG_NONE || part->kind == GRAFT_ARG_INT ||
         part->kind == GRAFT_ARG_NODE;
}

/* Whether @arg holds no node and is written by append_repr_any() itself
 * (no text of its own that might hold a newline): numbers, None, and
 * tuples, lists and slices of them. */
static gboolean
is_plain_tree (const GraftArg *arg)
{
  switch (arg->kind)
    {
    case GRAFT_ARG_NONE:
    case GRAFT_ARG_BOOL:
    case GRAFT_ARG_INT:
    case GRAFT_ARG_FLOAT:
      return TRUE;
    case GRAFT_ARG_SLICE:
      for (guint i = 0; i < 3; i++)
        if (arg->items[i].kind != GRAFT_ARG_NONE && arg->items[i].kind != GRAFT_ARG_INT)
          return FALSE;
      return TRUE;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
      for (guint i = 0; i < arg->n; i++)
        if (!is_plain_tree (&arg->items[i]))
          return FALSE;
      return TRUE;
    case GRAFT_ARG_NODE:
    case GRAFT_ARG_ELLIPSIS:
    case GRAFT_ARG_COMPLEX:
    case GRAFT_ARG_STR:
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
    case GRAFT_ARG_DICT:
    default:
      return FALSE;
    }
}

/* @arg's slot among gen->plain_slots: item arrays are 8-byte aligned. */
static inline PlainSlot *
plain_slot (CodeGen        *gen,
            const GraftArg *arg)
{
  G_STATIC_ASSERT (PLAIN_SLOTS == 16);
  return &gen->plain_slots[((guintptr) arg->items * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >>
                           60];
}

/* A tuple or a list: a function of its own, small (most items are
 * nodes, written in place), apart from append_repr_any()'s many cases.
 * A plain one met lately (plain_slot()) is copied from its text. */
static G_GNUC_NO_INLINE Cur
append_sequence (CodeGen        *gen,
                 GString        *out,
                 Cur             c,
                 const GraftArg *arg)
{
  gboolean   tuple = arg->kind == GRAFT_ARG_TUPLE;
  PlainSlot *plain = NULL;
  gsize      start = 0;

  /* A container whose first item is a node (`[a, b]`) is never plain;
   * the others are looked for among those written lately. */
  if (arg->n > 0 && arg->items[0].kind != GRAFT_ARG_NODE)
    {
      plain = plain_slot (gen, arg);
      if (plain->items == arg->items && plain->n == arg->n && plain->kind == arg->kind)
        {
          c = put_text (out, c, plain->text, plain->len);
          return cur_need (out, c, CUR_ROOM);
        }
      start = (gsize) (c.w - out->str);
    }
  *c.w++ = tuple ? '(' : '[';
  for (guint i = 0; i < arg->n; i++)
    {
      c = cur_need (out, c, CUR_ROOM);
      if (i > 0)
        CPUT (c, ", ");
      c = append_repr (gen, out, c, &arg->items[i]);
    }
  if (tuple && arg->n == 1)
    *c.w++ = ',';
  *c.w++ = tuple ? ')' : ']';
  if (plain != NULL && (gsize) (c.w - out->str) - start <= PLAIN_TEXT && is_plain_tree (arg))
    {
      plain->items = arg->items;
      plain->n = arg->n;
      plain->kind = (guint8) arg->kind;
      plain->len = (guint8) ((gsize) (c.w - out->str) - start);
      memcpy (plain->text, out->str + start, plain->len);
    }
  /* Containers nest: each one's end reserves again. */
  return cur_need (out, c, CUR_ROOM);
}

static Cur
append_repr_any (CodeGen        *gen,
                 GString        *out,
                 Cur             c,
                 const GraftArg *arg)
{
  switch (arg->kind)
    {
    case GRAFT_ARG_NODE:
      return append_arg_name (gen, out, c, arg->node);
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
      return append_sequence (gen, out, c, arg);
    case GRAFT_ARG_INT:
      /* Most are a digit (`dim = 1`, `sum(0)`) or -1 (`view(n, -1)`). */
      if (arg->i >= -9 && arg->i <= 9)
        {
          if (arg->i < 0)
            *c.w++ = '-';
          *c.w++ = (char) ('0' + (arg->i < 0 ? -arg->i : arg->i));
        }
      else
        c.w = write_int (c.w, arg->i);
      return c;
    case GRAFT_ARG_NONE:
      CPUT (c, "None");
      return c;
    case GRAFT_ARG_BOOL:
      /* As graft_arg_append_repr() writes it, with no newline. */
      if (arg->b)
        CPUT (c, "True");
      else
        CPUT (c, "False");
      return c;
    case GRAFT_ARG_FLOAT:
      cur_close (out, c);
      append_float (gen, out, arg->f);
      return cur_need (out, cur_open (out), CUR_ROOM);
    case GRAFT_ARG_SLICE:
      /* The usual slice (`x[:, :16]`): its parts None, ints or nodes,
       * written as graft_arg_append_repr() writes them, hold no newline. */
      if (is_plain_slice_part (&arg->items[0]) && is_plain_slice_part (&arg->items[1]) &&
          is_plain_slice_part (&arg->items[2]))
        {
          c = cur_need (out, c, CUR_ROOM);
          CPUT (c, "slice(");
          for (guint i = 0; i < 3; i++)
            {
              if (i > 0)
                CPUT (c, ", ");
              c = append_repr_any (gen, out, c, &arg->items[i]);
            }
          *c.w++ = ')';
          return cur_need (out, c, CUR_ROOM);
        }
      G_GNUC_FALLTHROUGH;
    case GRAFT_ARG_ELLIPSIS:
    case GRAFT_ARG_COMPLEX:
    case GRAFT_ARG_STR:
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
    case GRAFT_ARG_DICT:
    default:
      gen->maybe_newline = TRUE;
      cur_close (out, c);
      graft_arg_append_repr (out, arg, GRAFT_REPR_CODE, code_name_cb, gen);
      /* Its nodes in map_arg's order (a dict's values only). */
      note_frees (gen, gen->line_node, arg);
      return cur_need (out, cur_open (out), CUR_ROOM);
    }
}

/* `_format_target`: a dotted path from a base, with `getattr(base, "part")`
 * for parts that are not identifiers. */
/* Whether @dotted is ASCII identifiers joined by dots (`a.b`), which
 * `_format_target` writes as they are. */
static gboolean
is_plain_path (const char *dotted)
{
  gboolean plain = TRUE;

  for (const char *p = dotted, *part = dotted; plain; p++)
    {
      if (*p == '.' || *p == '\0')
        {
          plain = p > part && !g_ascii_isdigit (*part);
          if (*p == '\0')
            break;
          part = p + 1;
        }
      else if (!g_ascii_isalnum (*p) && *p != '_')
        plain = FALSE;
    }
  return plain;
}

static void
append_path (GString    *out,
             const char *base,
             const char *dotted)
{
  guint n_wrapped = 0;

  /* The usual path is ASCII identifiers joined by dots: `base.a.b`. */
  if (is_plain_path (dotted))
    {
      _graft_buf_append (out, base);
      g_string_append_c (out, '.');
      _graft_buf_append (out, dotted);
      return;
    }
  /* Each part that is not an identifier wraps all that precedes it:
   * `getattr(getattr(base.a, "0").b, "1")`.  The opening calls all come
   * first, so they are counted, written, and the parts follow in order. */
  for (const char *part = dotted;;)
    {
      const char      *dot = strchr (part, '.');
      g_autofree char *one = g_strndup (part, dot != NULL ? (gsize) (dot - part) : strlen (part));

      if (!graft_is_python_identifier (one))
        n_wrapped++;
      if (dot == NULL)
        break;
      part = dot + 1;
    }
  for (guint i = 0; i < n_wrapped; i++)
    _graft_buf_append (out, "getattr(");
  _graft_buf_append (out, base);
  for (const char *part = dotted;;)
    {
      const char      *dot = strchr (part, '.');
      gsize            len = dot != NULL ? (gsize) (dot - part) : strlen (part);
      g_autofree char *one = g_strndup (part, len);

      if (graft_is_python_identifier (one))
        {
          g_string_append_c (out, '.');
          _graft_buf_append_len (out, part, len);
        }
      else
        {
          _graft_buf_append (out, ", \"");
          _graft_buf_append_len (out, part, len);
          _graft_buf_append (out, "\")");
        }
      if (dot == NULL)
        break;
      part = dot + 1;
    }
}

/* append_path (out, "self", target), remembered per target. */
static Cur
append_self_path (CodeGen    *gen,
                  GString    *out,
                  Cur         c,
                  const char *target)
{
  guint     slot = recent_slot (target);
  SelfPath *path = gen->path_targets[slot] == target
                       ? gen->recent_paths[slot]
                       : g_hash_table_lookup (gen->self_paths, target);

  if (path == NULL)
    {
      GString *text = g_string_new (NULL);

      append_path (text, "self", target);
      path = g_new (SelfPath, 1);
      path->len = text->len;
      path->raw = memchr (text->str, '\n', text->len) != NULL ||
                  memchr (text->str, '#', text->len) != NULL;
      path->text = g_string_free (text, FALSE);
      g_hash_table_insert (gen->self_paths, (gpointer) target, path);
    }
  gen->path_targets[slot] = target;
  gen->recent_paths[slot] = path;
  if (path->raw)
    gen->maybe_newline = TRUE;
  return put_text (out, c, path->text, path->len);
}

/* `_format_args`: positional reprs, then `key = repr`, comma-separated;
 * room reserved at each argument. */
static inline G_ALWAYS_INLINE Cur
append_call_args (CodeGen        *gen,
                  GString        *out,
                  Cur             c,
                  const GraftArg *args,
                  guint           first,
                  const GraftArg *kwargs)
{
  gboolean any = FALSE;

  for (guint i = first; i < args->n; i++)
    {
      c = cur_need (out, c, CUR_ROOM);
      if (any)
        CPUT (c, ", ");
      c = append_repr (gen, out, c, &args->items[i]);
      any = TRUE;
    }
  for (guint i = 0; i < kwargs->n; i++)
    {
      const char *key = kwargs->items[2 * i].s;
      gsize       len = kwargs->items[2 * i].n;

      c = cur_need (out, c, CUR_ROOM);
      if (any)
        CPUT (c, ", ");
      /* A key is written as it is: one that holds a newline (from a
       * `**dict`) needs the line's inner lines indented.  The graph
       * interns keys: those without one are remembered by address and
       * length. */
      if (gen->clean_keys[recent_slot (key)] != key ||
          gen->clean_key_lens[recent_slot (key)] != len)
        {
          gboolean clean = TRUE;

          for (gsize j = 0; j < len; j++)
            if (G_UNLIKELY (key[j] == '\n' || key[j] == '#'))
              clean = FALSE;
          if (clean)
            {
              gen->clean_keys[recent_slot (key)] = key;
              gen->clean_key_lens[recent_slot (key)] = len;
            }
          else
            gen->maybe_newline = TRUE;
        }
      c = put_text (out, c, key, len);
      CPUT (c, " = ");
      c = append_repr (gen, out, c, &kwargs->items[2 * i + 1]);
      any = TRUE;
    }
  return c;
}

/* @form's operator cut into @op's pieces (form_cut_operator()). */
static void
form_cut_operator (Form       *form,
                   const char *format)
{
  guint piece = 0;

  memset (form->op_text, ' ', sizeof form->op_text);
  for (const char *p = format; *p != '\0'; p++)
    if (p[0] == '{' && p[1] == '}')
      {
        form->op_slots++;
        piece++;
        p++;
      }
    else
      {
        g_assert (piece < 3 && form->op_len[piece] < 4);
        form->op_text[piece][form->op_len[piece]++] = *p;
      }
}

/* An operator's form (at most 12 bytes of its own), within the line's
 * first reserved room: its pieces stored four bytes at a time. */
static inline Cur
append_operator (CodeGen        *gen,
                 GString        *out,
                 Cur             c,
                 const Form     *form,
                 const GraftArg *args)
{
  memcpy (c.w, form->op_text[0], 4);
  c.w += form->op_len[0];
  if (args->n > 0)
    c = append_repr (gen, out, c, &args->items[0]);
  if (form->op_slots < 2)
    return c;
  memcpy (c.w, form->op_text[1], 4);
  c.w += form->op_len[1];
  if (args->n > 1)
    c = append_repr (gen, out, c, &args->items[1]);
  memcpy (c.w, form->op_text[2], 4);
  c.w += form->op_len[2];
  return c;
}

/* The global a call_function target needs, as a name candidate, or NULL
 * when the target prints without one (operators, torch functions). */
static char *
global_candidate (const char *target)
{
  if (graft_codegen_operator_format (target) != NULL || is_from_torch (target))
    return NULL;
  return graft_codegen_call_form (target);
}

/* Whether every node keeps its graph name in the code: torch re-creates
 * the names in a fresh namespace, which changes nothing unless a name is
 * not already clean, is reserved, or meets a global.  Checking that once
 * lets the common case skip the namespace.  The check walks every node:
 * in steps for a GraftCodegenJob (30-40 ms at a million nodes), its state
 * here. */
typedef struct
{
  GHashTable *globals;      /* global candidates (owned) */
  GHashTable *seen_targets; /* by address */
  const char *last_target;
  const char *recent[RECENT_SLOTS]; /* targets seen, by address */
  GraftNode  *next;                 /* the next node to look at */
  gboolean    typed;                /* a node seen has a type annotation */
} DirectWalk;

static void
direct_walk_init (DirectWalk *w,
                  GraftGraph *graph)
{
  memset (w, 0, sizeof *w);
  w->globals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w->seen_targets = g_hash_table_new (NULL, NULL);
  w->next = graft_graph_get_first (graph);
}

static void
direct_walk_clear (DirectWalk *w)
{
  g_clear_pointer (&w->globals, g_hash_table_unref);
  g_clear_pointer (&w->seen_targets, g_hash_table_unref);
}

/* Whether the globals met keep their clean names, meet no node name, and
 * do not clean up to the same name as each other. */
static gboolean
globals_are_direct (GraftGraph *graph,
                    GHashTable *globals)
{
  g_autoptr (GHashTable) clean_names =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  gpointer       key;

  g_hash_table_iter_init (&iter, globals);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autoptr (GraftNamespace) one = graft_namespace_new (graft_graph_get_dialect (graph));
      const char *clean = graft_namespace_create_name (one, key, GRAFT_NAME_IS_BUILTIN);

      if (graft_graph_find_node (graph, clean) != NULL ||
          !g_hash_table_add (clean_names, g_strdup (clean)))
        return FALSE;
    }
  return TRUE;
}

/* Looks at @n_nodes more nodes at most (at least one; G_MAXUINT64: all,
 * the count then not kept, inlined); whether the walk is over,
 * *@out_direct then its answer.  The graph must not change between the
 * steps. */
static inline G_ALWAYS_INLINE gboolean
direct_walk_step (DirectWalk *w,
                  GraftGraph *graph,
                  guint64     n_nodes,
                  gboolean   *out_direct)
{
  /* In locals while walking: the calls could change the fields, says the
   * compiler. */
  GraftNode  *node = w->next;
  const char *last_target = w->last_target;
  gboolean    typed = FALSE;

  for (; node != NULL && (n_nodes == G_MAXUINT64 || n_nodes-- > 0);
       node = graft_node_get_next (node))
    {
      /* A node without an extra part has no annotation: no call. */
      const char *type =
          _graft_node_has_extra (node) ? graft_node_get_type_annotation (node) : NULL;
      const char *target;

      typed |= type != NULL;

      /* Graph names are unique; a name comes out of a fresh namespace as
       * it is when it is canonical. */
      if (!_graft_node_name_is_canonical_inline (node) ||
          (type != NULL && strchr (type, '.') != NULL && !is_from_torch (type)))
        {
          w->next = NULL;
          w->typed = TRUE;
          *out_direct = FALSE;
          return TRUE;
        }
      if (graft_node_get_op (node) == GRAFT_OP_CALL_FUNCTION &&
          (target = graft_node_get_target (node)) != last_target &&
          w->recent[recent_slot (target)] != target)
        {
          last_target = target;
          w->recent[recent_slot (target)] = target;
          if (g_hash_table_add (w->seen_targets, (gpointer) target))
            {
              g_autofree char *candidate = global_candidate (target);

              if (candidate != NULL)
                g_hash_table_add (w->globals, g_steal_pointer (&candidate));
            }
        }
    }
  w->next = node;
  w->last_target = last_target;
  w->typed |= typed;
  if (node != NULL)
    return FALSE;
  /* Two nodes of one name (a program's, named as torch names them): the
   * second is renamed by the fresh namespace. */
  *out_direct = globals_are_direct (graph, w->globals) && !graft_graph_has_shared_names (graph);
  return TRUE;
}

/* Sets gen->direct, and gen->typed (whether a node may have a type
 * annotation: known only when the walk went through every node), from a
 * finished walk. */
static void
direct_walk_set (CodeGen          *gen,
                 const DirectWalk *w,
                 gboolean          direct)
{
  gen->direct = direct;
  gen->typed = direct ? w->typed : TRUE;
}

/* The annotation of a placeholder or a node's target: `: "f32[2, 4]"`
 * when the readable form has metadata to show (@shape), else ` : T` for
 * the node's own type (@declared), else nothing. */
static void
append_annotation (GString    *out,
                   const char *declared,
                   const char *shape)
{
  if (shape != NULL)
    {
      _graft_buf_append (out, ": \"");
      _graft_buf_append (out, shape);
      g_string_append_c (out, '"');
    }
  else if (declared != NULL)
    {
      _graft_buf_append (out, " : ");
      _graft_buf_append (out, declared);
    }
}

/* `name = `, `name : T = ` or `name: "f32[2]" = ` at the start of a
 * node's line.  The first starts most lines and is written in place
 * (append_target()); the others here. */
static G_GNUC_NO_INLINE Cur
append_annotated_target (CodeGen    *gen,
                         GString    *body,
                         Cur         c,
                         GraftNode  *node,
                         const char *declared,
                         const char *shape)
{
  c = append_code_name (gen, body, c, node);
  gen->maybe_newline = TRUE;
  cur_close (body, c);
  append_annotation (body, declared, shape);
  _graft_buf_append_len (body, " = ", 3);
  return cur_need (body, cur_open (body), CUR_ROOM);
}

/* Written in place at each of emit_node()'s lines (a call of its own
 * cost a tenth of the line), the name's slot filled apart: the line
 * defines the node, so its name is not known yet. */
static inline G_ALWAYS_INLINE Cur
append_target (CodeGen    *gen,
               GString    *body,
               Cur         c,
               GraftNode  *node,
               const char *declared,
               const char *shape)
{
  guint slot = name_slot (node);

  if (G_UNLIKELY (declared != NULL || shape != NULL))
    return append_annotated_target (gen, body, c, node, declared, shape);
  if (G_LIKELY (gen->name_nodes[slot] != node))
    {
      if (G_LIKELY (gen->direct))
        {
          /* fill_name_slot() in place, the name's bytes taken from where
           * it is written (the reserved room is past it). */
          gsize len;

          gen->name_nodes[slot] = node;
          gen->name_texts[slot] = graft_node_get_name (node);
          gen->name_lens[slot] = len = strlen (gen->name_texts[slot]);
          c = put_text (body, c, gen->name_texts[slot], len);
          memcpy (gen->name_bytes[slot], c.w - len, NAME_BYTES);
        }
      else
        {
          fill_name_slot (gen, slot, node);
          c = put_slot_name (gen, body, c, slot);
        }
    }
  else
    c = put_slot_name (gen, body, c, slot);
  /* Four bytes stored at once, the fourth overwritten next. */
  memcpy (c.w, " =  ", 4);
  c.w += 3;
  return c;
}

/* Whether the @len bytes at @s, without a NUL, are a Python identifier
 * (graft_is_python_identifier()): ASCII ones (`shape`) looked at here,
 * the rest there. */
static gboolean
is_identifier (const char *s,
               gsize       len)
{
  if (len == 0 || g_ascii_isdigit (s[0]))
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if ((guchar) s[i] >= 0x80)
      return strlen (s) == len && graft_is_python_identifier (s);
    else if (!g_ascii_isalnum (s[i]) && s[i] != '_')
      return FALSE;
  return TRUE;
}

/* @node's line after its indent, from the cursor @c (with the line's
 * first room reserved), up to its frees; the cursor after it. */
static inline G_ALWAYS_INLINE Cur
emit_node (CodeGen   *gen,
           GraftNode *node,
           GraftOp    op,
           GString   *body,
           Cur        c,
           GPtrArray *free_vars)
{
  const GraftArg *args = graft_node_get_args (node);
  const GraftArg *kwargs = graft_node_get_kwargs (node);
  const char     *target = graft_node_get_target (node);
  const char     *format;
  const Form     *op_form;
  const char     *global;
  gsize           global_len;
  gsize           method_len;
  gboolean        is_getattr;
  /* A node's own type (torch.fx.annotate), written as `name : T = ...`;
   * worked out first, as torch does, before the target's global. */
  const char *declared = NULL;

  if (G_UNLIKELY (gen->typed) && op != GRAFT_OP_PLACEHOLDER && op != GRAFT_OP_OUTPUT)
    {
      const char *type = graft_node_get_type_annotation (node);

      if (type != NULL)
        declared = type_repr (gen, type);
    }
  /* Verbose, a tensor's or a symbol's value overrides the type (emit_node
   * under `verbose`; the type's global is made all the same).  Freed at
   * each return (only if set: a g_free() call a line is a cost). */
  char *shape =
      G_UNLIKELY (gen->verbose)
          ? graft_node_meta_dup_annotation (graft_node_get_meta (node),
                                            (gen->readable & GRAFT_READABLE_STRIDE) != 0,
                                            (gen->readable & GRAFT_READABLE_DEVICE) != 0)
          : NULL;

  switch (op)
    {
    case GRAFT_OP_PLACEHOLDER:
      {
        GString         *var = g_string_new (target);
        g_autofree char *raw = NULL;
        const char      *type = graft_node_get_type_annotation (node);
        const char      *name;

        cur_close (body, c);
        append_annotation (var, type != NULL ? type_repr (gen, type) : NULL, shape);
        if (args->n > 0)
          {
            Cur v;

            _graft_buf_append (var, " = ");
            v = cur_need (var, cur_open (var), CUR_ROOM);
            v = append_repr (gen, var, v, &args->items[0]);
            cur_close (var, v);
          }
        terminate (var);
        g_ptr_array_add (free_vars, g_string_free (var, FALSE));
        raw = g_strdup (target);
        {
          char *w = raw;

          for (const char *r = target; *r != '\0'; r++)
            if (*r != '*')
              *w++ = *r;
          *w = '\0';
        }
        name = code_name (gen, node);
        if (strcmp (raw, name) != 0)
          g_string_append_printf (body, "%s = %s\n", name, raw);
      }
      g_free (shape);
      return cur_open (body);

    case GRAFT_OP_CALL_METHOD:
      {
        guint slot = recent_slot (target);

        if (gen->method_targets[slot] != target)
          {
            gen->method_targets[slot] = target;
            gen->method_lens[slot] = is_plain_path (target) ? strlen (target) : 0;
          }
        method_len = gen->method_lens[slot];
      }
      c = append_target (gen, body, c, node, declared, shape);
      if (method_len > 0)
        {
          /* The usual case: `receiver.method`, written in place. */
          if (args->n > 0)
            c = append_repr (gen, body, c, &args->items[0]);
          *c.w++ = '.';
          c = put_text (body, c, target, method_len);
        }
      else
        {
          g_autoptr (GString) receiver = g_string_new (NULL);

          gen->maybe_newline = TRUE;
          if (args->n > 0)
            {
              Cur r = cur_need (receiver, cur_open (receiver), CUR_ROOM);

              r = append_repr (gen, receiver, r, &args->items[0]);
              cur_close (receiver, r);
            }
          terminate (receiver);
          cur_close (body, c);
          append_path (body, receiver->str, target);
          c = cur_need (body, cur_open (body), CUR_ROOM);
        }
      *c.w++ = '(';
      c = append_call_args (gen, body, c, args, 1, kwargs);
      *c.w++ = ')';
      break;

    case GRAFT_OP_CALL_FUNCTION:
      {
        guint slot = recent_slot (target);
        Form *form = gen->recent_targets[slot] == target ? (Form *) gen->recent_forms[slot]
                                                         : g_hash_table_lookup (gen->forms, target);

        if (form == NULL)
          {
            form = g_new0 (Form, 1);
            form->format = graft_codegen_operator_format (target);
            if (form->format != NULL)
              form_cut_operator (form, form->format);
            else
              {
                form->global = add_global (gen, target);
                form->global_len = strlen (form->global);
                form->getattr = strcmp (form->global, "getattr") == 0;
                form->raw = strpbrk (form->global, "\n#") != NULL;
              }
            g_hash_table_insert (gen->forms, (gpointer) target, form);
          }
        gen->recent_targets[slot] = target;
        gen->recent_forms[slot] = form;
        format = form->format;
        op_form = form;
        global = form->global;
        global_len = form->global_len;
        is_getattr = form->getattr;
        if (form->raw)
          gen->maybe_newline = TRUE;
      }
      if (format != NULL)
        {
          c = append_target (gen, body, c, node, declared, shape);
          c = append_operator (gen, body, c, op_form, args);
          /* Arguments the form leaves out are still used. */
          if (G_UNLIKELY (args->n > op_form->op_slots || kwargs->n > 0))
            collect_frees (gen, node);
          break;
        }
      if (is_getattr && args->n == 2 && kwargs->n == 0 &&
          args->items[1].kind == GRAFT_ARG_STR &&
          is_identifier (args->items[1].s, args->items[1].n))
        {
          c = append_target (gen, body, c, node, declared, shape);
          /* A code name, a dot and an identifier hold no newline. */
          if (args->items[0].kind == GRAFT_ARG_NODE)
            {
              /* `obj.attr`, as append_path() writes a path of one
               * identifier, without the receiver's text apart. */
              c = append_arg_name (gen, body, c, args->items[0].node);
              *c.w++ = '.';
              c = put_text (body, c, args->items[1].s, args->items[1].n);
            }
          else
            {
              g_autoptr (GString) obj = g_string_new (NULL);
              Cur o = cur_need (obj, cur_open (obj), CUR_ROOM);

              gen->maybe_newline = TRUE;
              o = append_repr (gen, obj, o, &args->items[0]);
              cur_close (obj, o);
              terminate (obj);
              cur_close (body, c);
              append_path (body, obj->str, args->items[1].s);
              c = cur_need (body, cur_open (body), CUR_ROOM);
            }
          break;
        }
      c = append_target (gen, body, c, node, declared, shape);
      c = put_text (body, c, global, global_len);
      *c.w++ = '(';
      c = append_call_args (gen, body, c, args, 0, kwargs);
      *c.w++ = ')';
      if (graft_node_get_is_wrapped (node) && !g_hash_table_contains (gen->wrapped_seen, global))
        {
          char *copy = g_strdup (global);

          g_hash_table_add (gen->wrapped_seen, copy);
          g_ptr_array_add (gen->wrapped, copy);
        }
      break;

    case GRAFT_OP_CALL_MODULE:
      c = append_target (gen, body, c, node, declared, shape);
      c = append_self_path (gen, body, c, target);
      *c.w++ = '(';
      c = append_call_args (gen, body, c, args, 0, kwargs);
      *c.w++ = ')';
      break;

    case GRAFT_OP_GET_ATTR:
      c = append_target (gen, body, c, node, declared, shape);
      c = append_self_path (gen, body, c, target);
      break;

    case GRAFT_OP_OUTPUT:
      CPUT (c, "return ");
      if (args->n > 0)
        c = append_repr (gen, body, c, &args->items[0]);
      else
        CPUT (c, "None");
      break;

    default:
      g_assert_not_reached ();
    }
  if (G_UNLIKELY (shape != NULL))
    g_free (shape);
  return c;
}

/* torch indents every line of the body, and a node's text may hold a
 * newline of its own (a path part written out raw, `getattr(self.a,
 * "b\nc")`): what follows each one, up to the line's end, is indented. */
static void
indent_inner_lines (GString *body,
                    gsize    line_start)
{
  gsize       from = line_start;
  const char *nl;

  while (from + 1 < body->len &&
         (nl = memchr (body->str + from, '\n', body->len - 1 - from)) != NULL)
    {
      gsize at = (gsize) (nl - body->str) + 1;

      g_string_insert_len (body, (gssize) at, "    ", 4);
      from = at + 4;
    }
}

/**
 * graft_codegen_python:
 * @graph: a graph
 *
 * graft_codegen_python_string() as a string.
 *
 * Returns: (transfer full): the code
 */
char *
graft_codegen_python (GraftGraph *graph)
{
  return g_string_free (graft_codegen_python_string (graph), FALSE);
}

/* What one walk over a graph produces: the indented body, the parameters
 * in order, and the return annotation. */
typedef struct
{
  CodeGen     gen;
  GString    *body;        /* owned */
  GPtrArray  *free_vars;   /* char *, owned */
  const char *return_type; /* owned by gen's globals, or NULL */
  /* Verbose: torch's `prev_stacktrace`, the stack trace of the last node
   * that had one (borrowed from the graph), "" after a node without one
   * (static), NULL before the first node (torch's None). */
  const char *prev_trace;
  /* Where the walk is: the next node to write. */
  GraftNode *next;
  gboolean   frees_unused;
  /* graft_codegen_python_string()'s header (`def forward(...):`) may be
   * written into body before the first line that is not a parameter's,
   * so that the body need not be copied after it: when nothing later
   * changes it (another parameter, a wrapped function, a return type).
   * body_start is where the lines begin (0 without it); header_vars the
   * parameters it names. */
  gboolean early_header;
  gboolean header_written;
  gsize    body_start;
  guint    header_vars;
  /* The early header written in part (a budgeted walk stopped in its
   * parameters): the next walk goes on with parameter header_put. */
  gboolean header_partial;
  guint    header_put;
} Generated;

static void
generated_clear (Generated *g)
{
  g_string_free (g->body, TRUE);
  g_ptr_array_unref (g->free_vars);
  g_free (g->gen.frees.nodes);
  if (g->gen.frees.seen != NULL)
    g_hash_table_unref (g->gen.frees.seen);
  if (g->gen.last_users_many != NULL)
    g_hash_table_unref (g->gen.last_users_many);
  graft_namespace_free (g->gen.names);
  g_hash_table_unref (g->gen.node_names);
  g_hash_table_unref (g->gen.globals);
  g_ptr_array_unref (g->gen.wrapped);
  g_hash_table_unref (g->gen.wrapped_seen);
  g_hash_table_unref (g->gen.forms);
  g_hash_table_unref (g->gen.self_paths);
}

/* `append_stacktrace_summary`, before a node of the readable form's code:
 * when its stack trace differs from the last one seen, a blank line and
 * ` # SUMMARY` (the leading space is torch's); when it has none and the
 * last node had one (or it is the first), a blank line and `# No
 * stacktrace found for following nodes`.  An empty trace counts as none. */
static void
append_trace_summary (Generated *g,
                      GraftNode *node)
{
  const GraftNodeMeta *meta = graft_node_get_meta (node);
  const char          *trace = meta != NULL ? meta->stack_trace : NULL;
  static const char    none[] = "";

  if (trace != NULL && *trace != '\0')
    {
      if (g->prev_trace == trace ||
          (g->prev_trace != NULL && strcmp (g->prev_trace, trace) == 0))
        return;
      g->prev_trace = trace;
      _graft_buf_append (g->body, "    \n     # ");
      graft_stack_trace_summarize (trace, g->body);
      g_string_append_c (g->body, '\n');
    }
  else if (g->prev_trace != none)
    {
      g->prev_trace = none;
      _graft_buf_append (g->body, "    \n    # No stacktrace found for following nodes\n");
    }
}

/* The first `# COUNTER: ` in [@p, @end), or NULL. */
static const char *
find_counter_tag (const char *p,
                  const char *end)
{
  static const char tag[] = "# COUNTER: ";
  const gsize       tag_len = sizeof tag - 1;

  while ((gsize) (end - p) >= tag_len && (p = memchr (p, '#', (gsize) (end - p))) != NULL)
    {
      if ((gsize) (end - p) >= tag_len && memcmp (p, tag, tag_len) == 0)
        return p;
      p++;
    }
  return NULL;
}

/* Whether the line [@p, @end) holds `# COUNTER: ` and a digit (Python's
 * `\d`: any Unicode decimal digit), torch 2.x's own line tag. */
static gboolean
line_has_counter (const char *p,
                  const char *end)
{
  while ((p = find_counter_tag (p, end)) != NULL)
    {
      const char *digit = p + strlen ("# COUNTER: ");
      gunichar    c = g_utf8_get_char_validated (digit, end - digit);

      if (c != (gunichar) -1 && c != (gunichar) -2 && g_unichar_isdigit (c))
        return TRUE;
      p = digit;
    }
  return FALSE;
}

/* The end of torch 2.x's `_gen_python_code`: the lines in which its
 * `# COUNTER: N` tags occur go (with the tags, any line of the body whose
 * text holds one), then the blank lines that open the body
 * (`lstrip("\n")`).  @body's lines are indented, so a blank line is four
 * spaces. */
static void
drop_tagged_lines (GString *body,
                   gsize    from,
                   gboolean raw_text)
{
  gsize    r = from, w = from;
  gboolean opening = TRUE;

  /* Lines of names, numbers, punctuation and plain paths hold no tag. */
  if ((!raw_text || find_counter_tag (body->str + from, body->str + body->len) == NULL) &&
      !g_str_has_prefix (body->str + from, "    \n"))
    return;
  while (r < body->len)
    {
      const char *line = body->str + r;
      const char *nl = memchr (line, '\n', body->len - r);
      gsize       len = nl != NULL ? (gsize) (nl - line) + 1 : body->len - r;

      r += len;
      if (line_has_counter (line, line + len))
        continue;
      if (opening && len == 5 && memcmp (line, "    \n", 5) == 0)
        continue;
      opening = FALSE;
      memmove (body->str + w, line, len);
      w += len;
    }
  g_string_truncate (body, w);
}

/* Starts a walk over @graph that writes each node's line into g->body
 * (the readable form's code when @verbose): everything the lines need
 * that takes a look at the whole graph first, that is the names' walk
 * (direct_walk_step()) when @walk_names; else the caller walks it, and
 * sets gen->direct and gen->typed, before the first line.
 * generate_nodes() writes them, generate_end() finishes. */
static void
generate_begin (GraftGraph        *graph,
                gboolean           verbose,
                GraftReadableFlags readable,
                gboolean           walk_names,
                Generated         *g)
{
  CodeGen                 *gen = &g->gen;
  static const char *const custom_builtins[] = {
    "inf",
    "nan",
    "NoneType",
    "torch",
    "device",
    "fx_pytree",
    "pytree",
  };

  memset (g, 0, sizeof *g);
  g->free_vars = g_ptr_array_new_with_free_func (g_free);
  g->frees_unused = graft_graph_get_dialect (graph)->frees_unused_values;
  gen->graph = graph;
  gen->frees.alloc = 64;
  gen->frees.nodes = g_new (GraftNode *, gen->frees.alloc);
  gen->names = graft_namespace_new (graft_graph_get_dialect (graph));
  gen->node_names = g_hash_table_new (NULL, NULL);
  gen->globals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  gen->wrapped = g_ptr_array_new ();
  gen->wrapped_seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gen->forms = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  gen->self_paths = g_hash_table_new_full (NULL, NULL, NULL, self_path_free);
  gen->verbose = verbose;
  /* The readable form's comments. */
  gen->raw_text = verbose;
  gen->readable = readable;

  /* The custom builtins are registered under their own names first. */
  for (guint i = 0; i < G_N_ELEMENTS (custom_builtins); i++)
    graft_namespace_create_name (gen->names, custom_builtins[i], GRAFT_NAME_IS_BUILTIN);

  gen->typed = TRUE;
  if (walk_names)
    {
      DirectWalk w;
      gboolean   direct = FALSE;

      direct_walk_init (&w, graph);
      while (!direct_walk_step (&w, graph, G_MAXUINT64, &direct))
        ;
      direct_walk_set (gen, &w, direct);
      direct_walk_clear (&w);
    }
  g->next = graft_graph_get_first (graph);
  /* Fewer bytes than most nodes' lines take (gen-module's average is 60
   * bytes, a ResNet's 80), and exactly that many.  Made last, the body is
   * the heap's last block and grows in place (_graft_buf_grow()), its room
   * ending close to its text.  A reserve of 80 bytes a node, rounded up to
   * a power of two, ended a megabyte up for gen-module's 600 KB, and the
   * header malloc writes after a block touched a third huge page of the
   * CLI's heap. */
  g->body = _graft_buf_new_exact (MIN (graft_graph_get_n_nodes (graph), G_MAXUINT / 128) * 48 + 64);
}

/* Parameters of an early header written for the budget of one node: a
 * name is a quarter of a `.pt2` program's line.  An exported program's
 * parameters and buffers are placeholders before its first line (634,000
 * of the million nodes of gen-program-big's): their header at once was a
 * step of 25 MB (23 ms) where every other writes 300 KB. */
#define HEADER_VARS_PER_NODE 4

/* Writes the early header (append_header()'s text, before any wrapped
 * function or return type can be known) into @body, at most @room more
 * parameters of it; whether it is whole. */
static gboolean
append_header_some (GString   *body,
                    Generated *g,
                    guint64    room)
{
  GPtrArray *vars = g->free_vars;
  guint      i = g->header_put;

  if (!g->header_partial)
    {
      _graft_buf_append (body, "\n\n\ndef forward(");
      if (vars->len == 0 || strcmp (vars->pdata[0], "self") != 0)
        _graft_buf_append (body, vars->len > 0 ? "self, " : "self");
      g->header_partial = TRUE;
    }
  for (; i < vars->len && room > 0; i++, room--)
    {
      if (i > 0)
        _graft_buf_append (body, ", ");
      _graft_buf_append (body, vars->pdata[i]);
    }
  g->header_put = i;
  if (i < vars->len)
    return FALSE;
  _graft_buf_append (body, "):\n");
  g->header_partial = FALSE;
  return TRUE;
}

/* Writes the lines of at most @n_nodes more nodes; whether the walk has
 * written every node. */
static gboolean
generate_nodes (Generated *g,
                guint      n_nodes)
{
  CodeGen *gen = &g->gen;
  GString *body = g->body;
  /* Read once: the lines' stores could change them, says the compiler. */
  gboolean verbose = gen->verbose;
  gboolean frees_unused = g->frees_unused;
  /* Whether the header may still be written before the next line. */
  gboolean header_pending =
      g->early_header && !g->header_written && (body->len == 0 || g->header_partial);
  /* The cursor stays open from line to line: closed only where the body
   * is written or read apart. */
  Cur c = cur_open (body);

  for (; g->next != NULL && n_nodes > 0;
       g->next = graft_node_get_next (g->next), n_nodes--)
    {
      GraftNode *node = g->next;
      GraftOp    op = graft_node_get_op (node);
      gsize      line_start;
      gboolean   frees_itself;

      if (G_UNLIKELY (verbose || header_pending) && op != GRAFT_OP_PLACEHOLDER)
        {
          cur_close (body, c);
          if (verbose && op != GRAFT_OP_OUTPUT && !g->header_partial)
            append_trace_summary (g, node);
          /* The first line that is not a parameter's settles it: the
           * body is no longer empty after it, and functions to wrap are
           * not forgotten. */
          if (header_pending && (g->header_partial || (body->len == 0 && gen->wrapped->len == 0)))
            {
              /* As python_from_generated() would write it, should nothing
               * change it (no function is wrapped, no return type known
               * yet); with a budget, in parts, this node's line waiting. */
              if (!append_header_some (body, g, (guint64) n_nodes * HEADER_VARS_PER_NODE))
                {
                  terminate (body);
                  return FALSE;
                }
              g->header_written = TRUE;
              g->body_start = body->len;
              g->header_vars = g->free_vars->len;
            }
          header_pending = FALSE;
          c = cur_open (body);
        }
      c = cur_need (body, c, CUR_ROOM);
      line_start = (gsize) (c.w - body->str);
      /* Each line is indented as it is written. */
      CPUT (c, "    ");
      gen->maybe_newline = FALSE;
      gen->line_node = node;
      frees_reset (gen);
      c = emit_node (gen, node, op, body, c, g->free_vars);
      if (op == GRAFT_OP_PLACEHOLDER)
        {
          cur_close (body, c);
          if (body->len == line_start + 4)
            g_string_truncate (body, line_start);
          else
            {
              gen->raw_text = TRUE;
              indent_inner_lines (body, line_start);
            }
          c = cur_open (body);
          continue;
        }
      if (op == GRAFT_OP_OUTPUT)
        {
          *c.w++ = '\n';
          cur_close (body, c);
          terminate (body);
          if (graft_node_get_type_annotation (node) != NULL)
            g->return_type = type_repr (gen, graft_node_get_type_annotation (node));
          gen->raw_text |= gen->maybe_newline;
          indent_inner_lines (body, line_start);
          c = cur_open (body);
          continue;
        }
      /* torch 2.x also frees a value nothing uses, after its last uses. */
      frees_itself = frees_unused && graft_node_get_n_users (node) == 0;
      if (gen->frees.n > 0 || frees_itself)
        {
          c = cur_need (body, c, CUR_ROOM);
          CPUT (c, ";  ");
          for (guint i = 0; i < gen->frees.n; i++)
            {
              c = cur_need (body, c, CUR_ROOM);
              c = append_code_name (gen, body, c, gen->frees.nodes[i]);
              CPUT (c, " = ");
            }
          if (frees_itself)
            {
              c = cur_need (body, c, CUR_ROOM);
              c = append_code_name (gen, body, c, node);
              CPUT (c, " = ");
            }
          CPUT (c, "None");
        }
      *c.w++ = '\n';
      if (gen->maybe_newline)
        {
          cur_close (body, c);
          gen->raw_text = TRUE;
          indent_inner_lines (body, line_start);
          c = cur_open (body);
        }
    }
  cur_close (body, c);
  /* The NUL the lines leave out. */
  terminate (body);
  return g->next == NULL;
}

/* After the walk over @graph: @as_torch, the body torch prints, its line
 * tags' effects included (tags_node_lines); else every node's line, for
 * source that must trace back into the graph. */
static void
generate_end (GraftGraph *graph,
              gboolean    as_torch,
              Generated  *g)
{
  GString *body = g->body;

  if (as_torch && graft_graph_get_dialect (graph)->tags_node_lines)
    {
      /* The tags make the body of a graph with nodes never empty. */
      drop_tagged_lines (body, g->body_start, g->gen.raw_text);
      if (graft_graph_get_first (graph) == NULL)
        _graft_buf_append (body, "    pass\n");
    }
  else if (body->len == g->body_start)
    _graft_buf_append (body, "    pass\n");
}

/* Walks @graph once, writing each node's line into g->body: the three
 * steps above in one go. */
static void
generate (GraftGraph        *graph,
          gboolean           verbose,
          GraftReadableFlags readable,
          gboolean           as_torch,
          Generated         *g)
{
  generate_begin (graph, verbose, readable, TRUE, g);
  generate_nodes (g, G_MAXUINT);
  generate_end (graph, as_torch, g);
}

/* `NAME(self, a, b) -> T:\n`, or without `self, ` for a plain function. */
static void
append_signature (GString         *out,
                  const Generated *g,
                  const char      *name,
                  gboolean         method)
{
  g_string_append (out, name);
  g_string_append_c (out, '(');
  if (method && (g->free_vars->len == 0 || strcmp (g->free_vars->pdata[0], "self") != 0))
    _graft_buf_append (out, g->free_vars->len > 0 ? "self, " : "self");
  for (guint i = 0; i < g->free_vars->len; i++)
    {
      if (i > 0)
        _graft_buf_append (out, ", ");
      _graft_buf_append (out, g->free_vars->pdata[i]);
    }
  g_string_append_c (out, ')');
  if (g->return_type != NULL)
    g_string_append_printf (out, " -> %s", g->return_type);
  _graft_buf_append (out, ":\n");
}

/* graft_codegen_python_string()'s text before the body: `"\n" + WRAP +
 * "\n\n" + "def forward(...):\n"`. */
static void
append_header (GString         *out,
               const Generated *g)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < g->gen.wrapped->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, '\n');
      g_string_append_printf (out, "torch.fx._symbolic_trace.wrap(\"%s\")",
                              (const char *) g->gen.wrapped->pdata[i]);
    }
  _graft_buf_append (out, "\n\ndef ");
  append_signature (out, g, "forward", TRUE);
}

/* graft_codegen_python_string()'s text from a finished walk, which
 * keeps its tables (generated_clear() frees them) and an empty body. */
static GString *
python_take (Generated *g)
{
  GString *out;

  /* The empty line after the final newline is indented too. */
  _graft_buf_append (g->body, "    ");

  /* The header written before the lines still holds. */
  if (g->header_written && g->gen.wrapped->len == 0 && g->free_vars->len == g->header_vars &&
      g->return_type == NULL)
    {
      out = g_steal_pointer (&g->body);
      g->body = g_string_new (NULL);
      return out;
    }
  /* The header is a few lines; the body is most of the code. */
  out = g_string_sized_new (g->body->len - g->body_start + 256);
  append_header (out, g);
  _graft_buf_append_len (out, g->body->str + g->body_start, g->body->len - g->body_start);
  g_string_free (g->body, TRUE);
  g->body = g_string_new (NULL);
  return out;
}

/* graft_codegen_python_string()'s text from a finished walk, which it
 * clears. */
static GString *
python_from_generated (Generated *g)
{
  GString *out = python_take (g);

  generated_clear (g);
  return out;
}

/**
 * graft_codegen_python_string:
 * @graph: a graph
 *
 * Generates the module code exactly as `GraphModule.code` of the graph's torch:
 * `"\n" + WRAP + "\n\n" + "def forward(...):" + "\n" + BODY`, every body line
 * indented by four spaces (so the text ends with `"\n    "`).
 *
 * Returns: (transfer full): the code
 */
GString *
graft_codegen_python_string (GraftGraph *graph)
{
  Generated g;

  g_return_val_if_fail (graph != NULL, NULL);

  generate_begin (graph, FALSE, GRAFT_READABLE_DEFAULT, TRUE, &g);
  g.early_header = TRUE;
  generate_nodes (&g, G_MAXUINT);
  generate_end (graph, TRUE, &g);
  return python_from_generated (&g);
}

/* Whether @name, written as a parameter of `def forward(self, ...)` (a
 * placeholder's target, `*` or `**` before it for the rest), compiles
 * there: an identifier, not a keyword, not `self`. */
static gboolean
is_parameter_name (const char *name)
{
  const char *p;

  if (name[0] == '*')
    name += name[1] == '*' ? 2 : 1;
  /* An ASCII name is read here (a million-node program has hundreds of
   * thousands of inputs); any other by graft_is_python_identifier(). */
  for (p = name; g_ascii_isalnum (*p) || *p == '_'; p++)
    ;
  if (*p != '\0' || p == name || g_ascii_isdigit (name[0]))
    {
      if (!graft_is_python_identifier (name))
        return FALSE;
    }
  return !graft_is_python_keyword (name) && strcmp (name, "self") != 0;
}

/* Whether placeholder @node's target is that of a placeholder before it.
 * Node names are unique, so the placeholders named by their targets (all
 * of them, in practice) have distinct targets: only a target that is not
 * its node's name is kept in @others (made when first needed), and a
 * repeat is one of those met again, or a placeholder named by its target
 * that one of those repeats. */
static gboolean
repeats_target (GraftGraph  *graph,
                GraftNode   *node,
                GHashTable **others)
{
  const char *target = graft_node_get_target (node);
  GraftNode  *named;

  if (strcmp (target, graft_node_get_name (node)) == 0)
    return *others != NULL && g_hash_table_contains (*others, target);
  named = graft_graph_find_node (graph, target);
  if (named != NULL && named != node && graft_node_get_op (named) == GRAFT_OP_PLACEHOLDER &&
      strcmp (graft_node_get_target (named), target) == 0 &&
      graft_node_compare_order (named, node) < 0)
    return TRUE;
  if (*others == NULL)
    *others = g_hash_table_new (g_str_hash, g_str_equal);
  return !g_hash_table_add (*others, (gpointer) target);
}

/* Whether get_attr or call_module @node's target, written as attributes
 * (`self.a.b`), compiles; else @error says why. */
static gboolean
check_attribute (GraftNode *node,
                 GError   **error)
{
  const char *target = graft_node_get_target (node);
  g_auto (GStrv) parts = g_strsplit (target, ".", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    if (graft_is_python_keyword (parts[i]))
      {
        g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                     "SyntaxError: %s's target '%s' has the part '%s', a Python "
                     "keyword, which the generated code writes as an attribute "
                     "(self.%s)",
                     graft_node_get_name (node), target, parts[i], parts[i]);
        return FALSE;
      }
  return TRUE;
}

/**
 * GraftCodegenCheck:
 *
 * graft_codegen_check_module() cut into steps, for the editor's main loop
 * (a million nodes: 30-40 ms at once).  The graph must not change from
 * the check's start to its finish; between the steps it can be read.
 */
struct _GraftCodegenCheck
{
  GraftGraph *graph;  /* Borrowed */
  GraftNode  *next;   /* Borrowed: the next node to look at, or NULL */
  GHashTable *others; /* Owned, or NULL: repeats_target()'s */
  GError     *error;  /* Owned: why not, once known */
};

/* Looks at @n_nodes more nodes at most; whether the answer is known. */
static gboolean
check_nodes (GraftCodegenCheck *check,
             guint              n_nodes)
{
  for (; check->next != NULL && check->error == NULL && n_nodes > 0;
       check->next = graft_node_get_next (check->next), n_nodes--)
    {
      GraftNode  *node = check->next;
      GraftOp     op = graft_node_get_op (node);
      const char *target = graft_node_get_target (node);

      if (op == GRAFT_OP_PLACEHOLDER)
        {
          if (!is_parameter_name (target) || repeats_target (check->graph, node, &check->others))
            g_set_error (&check->error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                         "SyntaxError: placeholder %s has the target '%s', which the "
                         "generated code writes as a parameter of forward, where it is "
                         "not valid Python",
                         graft_node_get_name (node), target);
        }
      else if (op == GRAFT_OP_GET_ATTR || op == GRAFT_OP_CALL_MODULE)
        check_attribute (node, &check->error);
      if (check->error != NULL)
        break;
    }
  return check->next == NULL || check->error != NULL;
}

/* The answer of a check that looked at every node it needed; clears it. */
static gboolean
check_end (GraftCodegenCheck *check,
           GError           **error)
{
  g_clear_pointer (&check->others, g_hash_table_unref);
  if (check->error == NULL)
    return TRUE;
  g_propagate_error (error, g_steal_pointer (&check->error));
  return FALSE;
}

/**
 * graft_codegen_check_new:
 * @graph: a graph, which must not change until the check is finished or
 *   freed
 *
 * Returns: (transfer full): a check whether @graph's module holds its
 *   code, as graft_codegen_check_module() answers it
 */
GraftCodegenCheck *
graft_codegen_check_new (GraftGraph *graph)
{
  GraftCodegenCheck *check;

  g_return_val_if_fail (graph != NULL, NULL);
  check = g_new0 (GraftCodegenCheck, 1);
  check->graph = graph;
  /* A traced graph's module always does (graft_codegen_check_module()). */
  check->next = graft_graph_get_program (graph) != NULL ? graft_graph_get_first (graph) : NULL;
  return check;
}

/**
 * graft_codegen_check_step:
 * @check: a check
 * @n_nodes: how many nodes to look at, at most (at least 1)
 *
 * Returns: whether the answer is known: graft_codegen_check_finish() then
 *   gives it at once
 */
gboolean
graft_codegen_check_step (GraftCodegenCheck *check,
                          guint              n_nodes)
{
  g_return_val_if_fail (check != NULL, TRUE);
  return check_nodes (check, MAX (n_nodes, 1));
}

/**
 * graft_codegen_check_finish:
 * @check: (transfer full): a check
 * @error: where to say why not
 *
 * Looks at what is left, if anything, and frees @check.
 *
 * Returns: as graft_codegen_check_module() returns for the graph
 */
gboolean
graft_codegen_check_finish (GraftCodegenCheck *check,
                            GError           **error)
{
  gboolean holds;

  g_return_val_if_fail (check != NULL, FALSE);
  check_nodes (check, G_MAXUINT);
  holds = check_end (check, error);
  g_free (check);
  return holds;
}

/**
 * graft_codegen_check_free:
 * @check: (transfer full) (nullable): a check
 *
 * Drops a check before it is finished (its graph may have changed
 * meanwhile: nothing of it is read).
 */
void
graft_codegen_check_free (GraftCodegenCheck *check)
{
  if (check == NULL)
    return;
  g_clear_pointer (&check->others, g_hash_table_unref);
  g_clear_error (&check->error);
  g_free (check);
}

/**
 * graft_codegen_check_compiles:
 * @graph: a graph
 * @error: where to say why not
 *
 * Whether the code graft_codegen_python() writes for @graph compiles, as
 * torch compiles `gm.code` when it makes the graph module or recompiles
 * it.  The names the graph's namespace made never break it; what comes
 * from the input as it is may: a placeholder's target is the forward's
 * parameter (a keyword such as `lambda`, a name that is not an
 * identifier such as `a-b`, `self`, the same target twice), and each
 * part of a get_attr or call_module target that is an identifier is
 * written as an attribute (`self.for`).
 *
 * Returns: %TRUE if it compiles; else %FALSE with @error set
 *   (%GRAFT_ERROR_GRAPH), naming the first node that breaks it
 */
gboolean
graft_codegen_check_compiles (GraftGraph *graph,
                              GError    **error)
{
  GraftCodegenCheck check = { 0 };

  g_return_val_if_fail (graph != NULL, FALSE);

  check.graph = graph;
  check.next = graft_graph_get_first (graph);
  check_nodes (&check, G_MAXUINT);
  return check_end (&check, error);
}

/**
 * graft_codegen_check_module:
 * @graph: a graph
 * @error: where to say why not
 *
 * Whether the graph module torch makes of @graph holds @graph's code:
 * the one place that decides what `graft code` prints
 * (graft_codegen_module_code_string()), whether `graft rewrite` may end
 * (torch's `replace_pattern` ends in `gm.recompile()`) and what the
 * editor shows, exports and lets a rewrite leave.  A traced graph's
 * names are Python's already, so only an exported program's code can
 * fail to compile (graft_codegen_check_compiles()); the check walks its
 * nodes once.
 *
 * Returns: %TRUE if it does; else %FALSE with @error set as
 *   graft_codegen_check_compiles() sets it
 */
gboolean
graft_codegen_check_module (GraftGraph *graph,
                            GError    **error)
{
  g_return_val_if_fail (graph != NULL, FALSE);

  return graft_graph_get_program (graph) == NULL || graft_codegen_check_compiles (graph, error);
}

/**
 * graft_codegen_check_module_added:
 * @graph: a graph whose module held its code (graft_codegen_check_module())
 *   before @nodes were added to it (and others, maybe, taken out)
 * @nodes: (element-type GraftNode): the nodes added, some perhaps gone
 *   again
 * @error: where to say why not
 *
 * graft_codegen_check_module() after a rewrite, at the cost of what it
 * added: taking nodes out never breaks the code, and a new get_attr or
 * call_module target breaks it alone.  A placeholder added (no rewrite
 * adds one) checks the whole graph.  The error names the node
 * graft_codegen_check_module() names: of those that break the code, the
 * first in graph order, whatever the order of @nodes.
 *
 * Returns: what graft_codegen_check_module() returns
 */
gboolean
graft_codegen_check_module_added (GraftGraph *graph,
                                  GPtrArray  *nodes,
                                  GError    **error)
{
  GraftNode *first = NULL;

  g_return_val_if_fail (graph != NULL && nodes != NULL, FALSE);

  if (graft_graph_get_program (graph) == NULL)
    return TRUE;
  for (guint i = 0; i < nodes->len; i++)
    {
      GraftNode *node = nodes->pdata[i];
      GraftOp    op = graft_node_get_op (node);

      if (op == GRAFT_OP_PLACEHOLDER)
        return graft_codegen_check_compiles (graph, error);
      /* Only one still in the graph counts. */
      if ((op == GRAFT_OP_GET_ATTR || op == GRAFT_OP_CALL_MODULE) &&
          (first == NULL || graft_node_compare_order (node, first) < 0) &&
          graft_graph_find_node (graph, graft_node_get_name (node)) == node &&
          !check_attribute (node, NULL))
        first = node;
    }
  return first == NULL || check_attribute (first, error);
}

/**
 * graft_codegen_module_code_string:
 * @graph: a graph
 *
 * The code of the graph module torch makes of @graph, `gm.code`: that
 * of graft_codegen_python_string(), but for an exported program whose
 * code does not compile (graft_codegen_check_compiles()).  torch 2.6's
 * `_create_graph_module_for_export` catches that SyntaxError and makes
 * the module of an empty graph, then gives it the program's graph
 * without recompiling: its code is an empty forward, while its graph
 * listing and print_readable() show the program's graph.
 *
 * Returns: (transfer full): the code
 */
GString *
graft_codegen_module_code_string (GraftGraph *graph)
{
  g_return_val_if_fail (graph != NULL, NULL);

  if (!graft_codegen_check_module (graph, NULL))
    return graft_codegen_empty_module_code_string (graph);
  return graft_codegen_python_string (graph);
}

/**
 * graft_codegen_empty_module_code_string:
 * @graph: a graph
 *
 * What graft_codegen_module_code_string() returns for a program whose
 * code does not compile: the code of an empty graph of @graph's dialect,
 * `def forward(self):` and `pass`.
 *
 * Returns: (transfer full): the code
 */
GString *
graft_codegen_empty_module_code_string (GraftGraph *graph)
{
  g_autoptr (GraftGraph) empty = NULL;

  g_return_val_if_fail (graph != NULL, NULL);
  empty = graft_graph_new (graft_graph_get_dialect (graph));
  return graft_codegen_python_string (empty);
}

/**
 * GraftCodegenJob:
 *
 * graft_codegen_python() cut into steps, for a caller that must not stop
 * for the whole of it (the editor's main loop): the first steps look at
 * the graph's names (a few per cent of the work: GRAFT_CODEGEN_JOB_LOOK
 * nodes a step per node asked for), the next ones write the lines of a
 * number of nodes each, and
 * graft_codegen_job_finish() returns the same text graft_codegen_python()
 * does.  The graph must not change from the job's start to its finish;
 * between the steps it can be read, and its scratch slots (marks) used by
 * others: the job keeps nothing in them.  A caller that must not stop for
 * the job's tables either (a million nodes' names: 12-17 ms to free) takes
 * the code with graft_codegen_job_take_code() and frees the job where it
 * likes: the job no longer reads the graph then.
 */
struct _GraftCodegenJob
{
  GraftGraph *graph; /* Borrowed */
  Generated   g;
  /* The names' walk (direct_walk_step()), the job's first steps. */
  DirectWalk walk;
  gboolean   walking;
  gboolean   done;
  gboolean   taken;
};

/* The body's room in a job, a node's line: a `.pt2` program's take 152
 * bytes, gen-module's 60.  The job runs over hundreds of turns between
 * other work, and a body grown past its first room (48 bytes a node) was
 * grown by realloc() in some of them: in the editor at a million nodes a
 * turn of 43-54 ms (tests/bench/README.md, edturn2 and ed1m).  A large
 * block is mapped, and its pages are faulted in only as lines are
 * written, so the room costs no memory until it is used. */
#define JOB_LINE_ROOM 256

/**
 * graft_codegen_job_new:
 * @graph: a graph, which must not change until the job is finished or freed
 *
 * Returns: (transfer full): a job that generates @graph's code
 */
GraftCodegenJob *
graft_codegen_job_new (GraftGraph *graph)
{
  GraftCodegenJob *job;

  g_return_val_if_fail (graph != NULL, NULL);
  job = g_new0 (GraftCodegenJob, 1);
  job->graph = graph;
  generate_begin (graph, FALSE, GRAFT_READABLE_DEFAULT, FALSE, &job->g);
  direct_walk_init (&job->walk, graph);
  job->walking = TRUE;
  job->g.early_header = TRUE;
  g_string_free (job->g.body, TRUE);
  job->g.body = _graft_buf_new_exact ((gsize) graft_graph_get_n_nodes (graph) * JOB_LINE_ROOM + 64);
  return job;
}

/**
 * graft_codegen_job_step:
 * @job: a job
 * @n_nodes: how many nodes' lines to write at most (at least 1); while the
 *   job looks at the names first, n_nodes * GRAFT_CODEGEN_JOB_LOOK nodes
 *   (the step that ends that look writes up to @n_nodes lines too)
 *
 * Returns: whether every line is written: graft_codegen_job_finish() then
 *   returns the code at once
 */
gboolean
graft_codegen_job_step (GraftCodegenJob *job,
                        guint            n_nodes)
{
  g_return_val_if_fail (job != NULL, TRUE);
  g_return_val_if_fail (!job->taken, TRUE);
  n_nodes = MAX (n_nodes, 1);
  if (job->walking)
    {
      gboolean direct = FALSE;

      if (!direct_walk_step (&job->walk, job->graph, (guint64) n_nodes * GRAFT_CODEGEN_JOB_LOOK,
                             &direct))
        return FALSE;
      /* The lines in the same step: their budget is apart. */
      direct_walk_set (&job->g.gen, &job->walk, direct);
      direct_walk_clear (&job->walk);
      job->walking = FALSE;
    }
  if (!job->done && generate_nodes (&job->g, n_nodes))
    {
      generate_end (job->graph, TRUE, &job->g);
      job->done = TRUE;
    }
  return job->done;
}

/**
 * graft_codegen_job_finish:
 * @job: (transfer full): a job
 *
 * Writes what is left of the code, if anything, and frees @job.
 *
 * Returns: (transfer full): the graph's code, as graft_codegen_python()
 *   returns it
 */
char *
graft_codegen_job_finish (GraftCodegenJob *job)
{
  char *code;

  g_return_val_if_fail (job != NULL, NULL);
  code = graft_codegen_job_take_code (job);
  graft_codegen_job_free (job);
  return code;
}

/**
 * graft_codegen_job_take_code:
 * @job: a job
 *
 * Writes what is left of the code, if anything, and hands it over.  The
 * job then holds only its own tables, and no longer reads its graph:
 * graft_codegen_job_free() releases it on any thread.  Taken once.
 *
 * Returns: (transfer full): the graph's code, as graft_codegen_python()
 *   returns it
 */
char *
graft_codegen_job_take_code (GraftCodegenJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  g_return_val_if_fail (!job->taken, NULL);
  graft_codegen_job_step (job, G_MAXUINT);
  job->taken = TRUE;
  return g_string_free (python_take (&job->g), FALSE);
}

/**
 * graft_codegen_job_dup_renamed:
 * @job: a job whose code is taken, its graph unchanged since the job began
 *
 * The nodes whose line graft_graph_find_node() of the name the code gives
 * them does not find: a node the code calls otherwise than by its name
 * (the second of two nodes of one name, which the code's fresh namespace
 * renames as torch's python_code does; a node whose name a global took),
 * and one that is not the node its name finds.  Every other node's line
 * goes by its name.  Read from the names the code was written with: none
 * is made again.
 *
 * Returns: (transfer full) (nullable): the code's name (owned) -> its node
 *   (borrowed), or %NULL when every node goes by its own name in the code
 */
GHashTable *
graft_codegen_job_dup_renamed (GraftCodegenJob *job)
{
  GHashTable    *renamed;
  GHashTableIter iter;
  gpointer       node;
  gpointer       name;

  g_return_val_if_fail (job != NULL && job->taken, NULL);
  if (job->g.gen.direct)
    return NULL;
  renamed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_iter_init (&iter, job->g.gen.node_names);
  while (g_hash_table_iter_next (&iter, &node, &name))
    if (strcmp (name, graft_node_get_name (node)) != 0 ||
        graft_graph_find_node (job->graph, graft_node_get_name (node)) != node)
      g_hash_table_insert (renamed, g_strdup (name), node);
  return renamed;
}

/**
 * graft_codegen_job_free:
 * @job: (transfer full) (nullable): a job
 *
 * Drops a job before it is finished (its graph may have changed meanwhile),
 * or once its code is taken.  It reads nothing of the graph, so it may run
 * on any thread while the graph changes.
 */
void
graft_codegen_job_free (GraftCodegenJob *job)
{
  if (job == NULL)
    return;
  direct_walk_clear (&job->walk);
  generated_clear (&job->g);
  g_free (job);
}

/**
 * graft_codegen_readable_string:
 * @graph: a graph whose dialect prints the readable form
 *   (GraftDialect.prints_readable)
 * @flags: what the annotations show beyond torch's defaults
 *
 * Generates what torch 2.x's `gm.print_readable (print_output=False)`
 * returns for the graph (torch/fx/graph_module.py, `_print_readable`): the
 * verbose code (graph.py's `python_code (root_module="self",
 * verbose=True)`), without its opening newlines, under `class NAME
 * (torch.nn.Module):`, every line after that one indented by four more
 * spaces (`_addindent`).  NAME is graft_graph_get_module_name(), or
 * `GraphModule`.  Graft's graphs have no child graph modules, which torch
 * would print after the class.
 *
 * Returns: (transfer full): the text, which ends as torch's does, with a
 *   line of eight spaces
 */
GString *
graft_codegen_readable_string (GraftGraph        *graph,
                               GraftReadableFlags flags)
{
  const char *name;
  Generated   g;
  GString    *code, *out;

  g_return_val_if_fail (graph != NULL, NULL);
  g_return_val_if_fail (graft_graph_get_dialect (graph)->prints_readable, NULL);

  name = graft_graph_get_module_name (graph);
  generate (graph, TRUE, flags, TRUE, &g);
  _graft_buf_append (g.body, "    ");

  /* torch's source, `"\n" + WRAP + "\n\n" + DEF + "\n" + CODE`, after
   * lstrip("\n"). */
  code = g_string_sized_new (g.body->len + 256);
  for (guint i = 0; i < g.gen.wrapped->len; i++)
    {
      if (i > 0)
        g_string_append_c (code, '\n');
      g_string_append_printf (code, "torch.fx._symbolic_trace.wrap(\"%s\")",
                              (const char *) g.gen.wrapped->pdata[i]);
    }
  if (code->len > 0)
    _graft_buf_append (code, "\n\n");
  _graft_buf_append (code, "def ");
  append_signature (code, &g, "forward", TRUE);
  _graft_buf_append_len (code, g.body->str, g.body->len);
  generated_clear (&g);

  out = g_string_sized_new (code->len + code->len / 8 + 64);
  g_string_append_printf (out, "class %s(torch.nn.Module):\n    ",
                          name != NULL ? name : "GraphModule");
  for (const char *p = code->str, *end = code->str + code->len; p < end;)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));

      if (nl == NULL)
        {
          _graft_buf_append_len (out, p, (gsize) (end - p));
          break;
        }
      _graft_buf_append_len (out, p, (gsize) (nl - p) + 1);
      _graft_buf_append (out, "    ");
      p = nl + 1;
    }
  g_string_free (code, TRUE);
  return out;
}

/**
 * graft_codegen_readable:
 * @graph: as for graft_codegen_readable_string()
 *
 * graft_codegen_readable_string() with torch's defaults, as a string.
 *
 * Returns: (transfer full): the text
 */
char *
graft_codegen_readable (GraftGraph *graph)
{
  GString *text = graft_codegen_readable_string (graph, GRAFT_READABLE_DEFAULT);

  return text != NULL ? g_string_free (text, FALSE) : NULL;
}

/* Whether generated code calls a global of @module (`operator.getitem`). */
static gboolean
uses_module (const Generated *g,
             const char      *module)
{
  GHashTableIter iter;
  gpointer       value;
  gsize          len = strlen (module);

  g_hash_table_iter_init (&iter, g->gen.globals);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (strncmp (value, module, len) == 0 && ((const char *) value)[len] == '.')
      return TRUE;
  return FALSE;
}

/* The imports a pattern's code needs, then two empty lines. */
static void
append_imports (GString         *out,
                const Generated *g)
{
  g_string_append (out, "import torch\n");
  if (uses_module (g, "operator"))
    g_string_append (out, "import operator\n");
  if (uses_module (g, "math"))
    g_string_append (out, "import math\n");
  g_string_append (out, "\n\n");
}

/* Drops trailing white space, then ends @out with one newline. */
static void
end_text (GString *out)
{
  while (out->len > 0 && g_ascii_isspace (out->str[out->len - 1]))
    g_string_truncate (out, out->len - 1);
  g_string_append_c (out, '\n');
}

/**
 * graft_codegen_function_source:
 * @graph: a graph without modules or attributes (a pattern)
 * @name: the function's name
 *
 * Writes @graph as a Python function called @name that traces back into
 * it: torch.fx's code for the graph, with `forward(self, ...)` renamed,
 * after the imports its calls need.
 *
 * Returns: (transfer full): the source
 */
char *
graft_codegen_function_source (GraftGraph *graph,
                               const char *name)
{
  Generated g;
  GString  *out = g_string_new (NULL);

  g_return_val_if_fail (graph != NULL, NULL);

  generate (graph, FALSE, GRAFT_READABLE_DEFAULT, FALSE, &g);
  append_imports (out, &g);
  _graft_buf_append (out, "def ");
  append_signature (out, &g, name, FALSE);
  g_string_append_len (out, g.body->str, g.body->len);
  end_text (out);
  generated_clear (&g);
  return g_string_free (out, FALSE);
}

/* One module of a pattern class, a node of the tree of paths: its name,
 * and whether the graph calls it (a leaf) or it only holds others (a
 * container). */
typedef struct
{
  const char *name; /* borrowed from the graph: the part up to the next dot */
  const char *path; /* borrowed from the graph: the target, for a called module */
} Submodule;

static gboolean
free_submodule_cb (GNode   *node,
                   gpointer data)
{
  g_free (node->data);
  return FALSE;
}

/* The child of @parent named @name (@len bytes), made if it is new:
 * children keep the order in which the graph first reaches them. */
static GNode *
submodule_child (GNode      *parent,
                 const char *name,
                 gsize       len)
{
  Submodule *sub;

  for (GNode *child = parent->children; child != NULL; child = child->next)
    {
      Submodule *s = child->data;

      if (strcspn (s->name, ".") == len && strncmp (s->name, name, len) == 0)
        return child;
    }
  sub = g_new0 (Submodule, 1);
  sub->name = name;
  return g_node_append_data (parent, sub);
}

/* `"0"` for a module name, as torch writes `getattr(self.layer1, "0")`;
 * a name that plain quotes cannot hold is written as Python's repr. */
static void
append_name_literal (GString    *out,
                     const char *name,
                     gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (name[i] == '"' || name[i] == '\\' || (guchar) name[i] < 0x20)
      {
        graft_append_str_repr (out, name, len);
        return;
      }
  g_string_append_c (out, '"');
  g_string_append_len (out, name, (gssize) len);
  g_string_append_c (out, '"');
}

/* `__init__`'s lines for @node's children and below: each child is set on
 * its parent (`self.layer1 = ...`, `self.layer1.add_module("0", ...)` for
 * a name that is no identifier), then its own children follow. */
static void
append_submodules (GString    *out,
                   GraftGraph *graph,
                   GNode      *node,
                   const char *parent_path,
                   gboolean   *out_stand_in)
{
  for (GNode *child = node->children; child != NULL; child = child->next)
    {
      Submodule       *sub = child->data;
      gsize            len = strcspn (sub->name, ".");
      g_autofree char *one = g_strndup (sub->name, len);
      g_autofree char *path =
          parent_path != NULL ? g_strconcat (parent_path, ".", one, NULL) : g_strdup (one);
      const char *constructor = NULL;

      if (sub->path != NULL)
        {
          constructor = graft_graph_get_module_constructor (graph, sub->path);
          if (constructor == NULL)
            {
              constructor = "torch.nn.Identity()";
              *out_stand_in = TRUE;
            }
        }
      else
        constructor = "torch.nn.Module()";
      _graft_buf_append (out, "        ");
      if (parent_path != NULL)
        append_path (out, "self", parent_path);
      else
        _graft_buf_append (out, "self");
      if (graft_is_python_identifier (one))
        g_string_append_printf (out, ".%s = %s\n", one, constructor);
      else
        {
          _graft_buf_append (out, ".add_module(");
          append_name_literal (out, one, len);
          g_string_append_printf (out, ", %s)\n", constructor);
        }
      append_submodules (out, graph, child, path, out_stand_in);
    }
}

/* The tree of the modules @graph calls, in the order it first reaches
 * them. */
static GNode *
collect_submodules (GraftGraph *graph)
{
  GNode *root = g_node_new (NULL);

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      const char *target = graft_node_get_target (node);
      GNode      *at = root;

      if (graft_node_get_op (node) != GRAFT_OP_CALL_MODULE)
        continue;
      for (const char *part = target;;)
        {
          const char *dot = strchr (part, '.');

          at = submodule_child (at, part, dot != NULL ? (gsize) (dot - part) : strlen (part));
          if (dot == NULL)
            break;
          part = dot + 1;
        }
      ((Submodule *) at->data)->path = target;
    }
  return root;
}

/**
 * graft_codegen_pattern_source:
 * @graph: a pattern's graph (graft_extract_pattern_graph())
 * @name: the function's or the class's name
 *
 * Writes @graph as Python that traces back into it.  A graph that calls
 * no module is a function (graft_codegen_function_source()).  One that
 * does is a torch.nn.Module class: torch.fx matches a call_module node by
 * its target alone, so `__init__` puts a submodule at each path the graph
 * calls, in plain `torch.nn.Module()` containers for the paths' parents,
 * and `forward` is torch.fx's code for the graph.  Each submodule is built
 * as the graph recorded it (graft_graph_get_module_constructor()), else
 * as a `torch.nn.Identity()`: any module under torch.nn is a leaf whose
 * call torch.fx records without running it, which Graft's tracer does
 * too, so the class traces to the same call_module nodes in both.
 *
 * Returns: (transfer full): the source
 */
char *
graft_codegen_pattern_source (GraftGraph *graph,
                              const char *name)
{
  Generated g;
  GString  *out;
  GNode    *modules;
  GString  *lines;
  gboolean  stand_in = FALSE;

  g_return_val_if_fail (graph != NULL && name != NULL, NULL);

  modules = collect_submodules (graph);
  if (modules->children == NULL)
    {
      g_node_destroy (modules);
      return graft_codegen_function_source (graph, name);
    }
  lines = g_string_new (NULL);
  append_submodules (lines, graph, modules, NULL, &stand_in);
  g_node_traverse (modules, G_PRE_ORDER, G_TRAVERSE_ALL, -1, free_submodule_cb, NULL);
  g_node_destroy (modules);

  out = g_string_new (NULL);
  generate (graph, FALSE, GRAFT_READABLE_DEFAULT, FALSE, &g);
  append_imports (out, &g);
  g_string_append_printf (out, "class %s(torch.nn.Module):\n", name);
  _graft_buf_append (out, "    def __init__(self):\n"
                          "        super().__init__()\n");
  /* The rule, where the user meets it; short lines, as the editor's
   * pane is narrow. */
  _graft_buf_append (out, "        # torch.fx matches a call_module node by its\n"
                          "        # target alone, the module's path: each\n"
                          "        # submodule sits at the path the graph calls.\n");
  if (stand_in)
    _graft_buf_append (out, "        # Identity stands in where the graph does not\n"
                            "        # record how a module was built: torch.fx\n"
                            "        # records the call of any torch.nn module and\n"
                            "        # never runs it.\n");
  g_string_append_len (out, lines->str, (gssize) lines->len);
  g_string_free (lines, TRUE);
  _graft_buf_append (out, "\n    def ");
  append_signature (out, &g, "forward", TRUE);
  /* The body, one level deeper. */
  for (const char *p = g.body->str, *end = g.body->str + g.body->len; p < end;)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      const char *stop = nl != NULL ? nl + 1 : end;

      _graft_buf_append (out, "    ");
      _graft_buf_append_len (out, p, (gsize) (stop - p));
      p = stop;
    }
  end_text (out);
  generated_clear (&g);
  return g_string_free (out, FALSE);
}
