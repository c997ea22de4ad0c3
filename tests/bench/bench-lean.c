/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-lean.c: a prototype of a lean `graft code` for straight-line
 * forwards, built to measure what issue 20's goal (1,000 times torch 2.6's
 * symbolic_trace + gm.code at 100,000 nodes: 5-6 ms for the whole process)
 * would cost.  Not Graft: a measured sketch (tests/bench/README.md, lean27).
 *
 *   bench-lean FILE STRUCT [-o OUT]   the lean process: reads FILE and the
 *                                     module structure STRUCT, writes the code
 *   bench-lean --structure FILE       traces FILE with Graft's library and
 *                                     prints its structure (class, leaf
 *                                     modules, parameters) for the above
 *   bench-lean --check FILE...        per FILE: Graft's trace and code
 *                                     (`graft code`'s) against the lean
 *                                     pipeline's, byte for byte, in one
 *                                     process; exit 1 on any mismatch
 *
 * The pipeline is one pass over the forward's bytes: a byte-table
 * tokenizer that interns identifiers once (symbols carry their binding),
 * an evaluator that keeps values on a stack of 16-byte slots (a list, a
 * tuple or a slice is a header slot and its items), nodes of 24 bytes in
 * one array with their arguments copied into a side pool, torch.fx's
 * naming written for it (lean_name(): per-base counts and a "next free
 * number" union-find per base), then code written straight into one
 * buffer (frees after last uses found by one walk of each node's
 * arguments).  The process runs on the `graft` CLI's huge-page heap
 * (graft_heap_prepare_huge_pages(): infrastructure, not semantics);
 * BENCH_LEAN_TOKENS adds a tokenizer-only pass, BENCH_LEAN_RSS prints
 * sizes and the peak RSS.  torch 2.6 only.  Torch functions
 * are looked up in Graft's generated table (core/trace/graft-fx-table-2.6.inc:
 * data, included, not Graft's code).  Anything else says `unsupported`
 * (exit 3): the place where Graft's full tracer would take over.
 *
 * The phases are functions of their own (lean_eval_forward(),
 * lean_node_new(), lean_codegen()) so that callgrind's inclusive counts
 * give tokenize+evaluate, build nodes+naming and codegen.
 */
#include "config.h"

#include <graft.h>

#include <errno.h>
#include <setjmp.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <emmintrin.h>

#define NOINLINE  __attribute__ ((noinline))
#define LIKELY(x) __builtin_expect (!!(x), 1)

/* ---- the torch function table (Graft's generated data) ---- */

enum { FX_BUILTIN,
       FX_PYTHON,
       FX_METHOD,
       FX_NOT_TRACEABLE };

typedef struct
{
  const char *path, *target, *name_base, *signature, *positional, *keywords, *code_form;
  int         kind;
} FxEntry;

#define BUILTIN       FX_BUILTIN
#define PYTHON        FX_PYTHON
#define METHOD        FX_METHOD
#define NOT_TRACEABLE FX_NOT_TRACEABLE
#define GRAFT_FX_FUNCTION(ap, k, t, nb, sig, pos, kw, cf, a1, a2, a3, a4, a5, a6) \
  { ap, t, nb, sig, pos, kw, cf, k },
static const FxEntry fx_entries[] = {
#include "../../core/trace/graft-fx-table-2.6.inc"
};
#undef GRAFT_FX_FUNCTION
typedef struct
{
  const char *path, *code;
} FxConst;
#define GRAFT_FX_CONSTANT(ap, k, code, listing) { ap, code },
static const FxConst fx_consts[] = {
#include "../../core/trace/graft-fx-table-2.6.inc"
};
#undef GRAFT_FX_CONSTANT
#undef BUILTIN
#undef PYTHON
#undef METHOD
#undef NOT_TRACEABLE

#define N_FX     (sizeof fx_entries / sizeof fx_entries[0])
#define N_CONSTS (sizeof fx_consts / sizeof fx_consts[0])

/* Names a node may not take (torch 2.6 `_Namespace._is_illegal_name`): the
 * keys of Python 3.13's `builtins` (Graft's generated table, sorted by strcmp),
 * Python's keywords (graft_is_python_keyword(): kwlist is the same in 3.11 and
 * 3.13) and torch.fx's `_custom_builtins` (graft-namespace.c's list, which is
 * static there: the seven globals every generated module has). */
#define GRAFT_PYTHON_BUILTIN(name, exception, base, base2) name,
static const char *const python313_builtins[] = {
#include "../../core/base/graft-python-builtins-3.13.inc"
};
#undef GRAFT_PYTHON_BUILTIN
static const char *const fx_custom_builtins[] = {
  "inf",
  "nan",
  "NoneType",
  "torch",
  "device",
  "fx_pytree",
  "pytree",
};

/* ---- values: 16-byte slots ---- */

enum {
  A_NONE = 1,
  A_TRUE,
  A_FALSE,
  A_INT,    /* i */
  A_FLOAT,  /* a: the symbol of its repr */
  A_STR,    /* a: the symbol of its text */
  A_RAW,    /* p: text printed as is (a default's repr, a dtype) */
  A_NODE,   /* a: node */
  A_LIST,   /* a: items, span: slots of the whole tree */
  A_TUPLE,  /* a: items, span */
  A_SLICE,  /* three items follow, span */
  A_KW,     /* a: keyword symbol; the value follows */
  A_SELF,   /* the module */
  A_MODULE, /* a: module path symbol (torch, torch.nn, ...) */
  A_FUNC,   /* a: fx entry */
  A_SUBMOD, /* a: module path (a Path index) */
  A_ATTR,   /* a: node, b: attribute symbol: torch's Attribute, made a node when used */
  A_GETATTR /* the builtin getattr */
};

typedef struct
{
  uint8_t  kind;
  uint8_t  pad;
  uint16_t span; /* slots of this value's tree (1 for a leaf) */
  uint32_t a;
  union
  {
    int64_t     i;
    uint32_t    b;
    const char *p;
  };
} Slot;

/* ---- symbols: every identifier, number and string, interned once ---- */

typedef struct
{
  const char *text;
  uint32_t    len;
  uint32_t    hash;
  Slot        bound; /* kind 0: unbound */
  /* as a name base */
  int64_t     count; /* torch's _base_count */
  uint64_t   *used;  /* base_k taken: num_used() */
  uint32_t    used_words;
  uint8_t     bare_used; /* the base itself taken */
  uint8_t     illegal;   /* 1 legal, 2 illegal, 0 not yet known */
  uint8_t     method_done;
  uint32_t    method_base; /* snake-cased method name as a candidate symbol */
  int64_t     method_num;
  const char *float_repr;
  uint32_t    float_repr_len;
  /* the decimal text of the base's last number, counted on in place */
  int64_t digits_of;
  uint8_t n_digits;
  char    digits[23];
} Sym;

enum {
  OP_PLACEHOLDER,
  OP_GET_ATTR,
  OP_CALL_FUNCTION,
  OP_CALL_METHOD,
  OP_CALL_MODULE,
  OP_OUTPUT
};

/* What a call_function node calls: its callee text and, for operators,
 * the form gm.code prints. */
enum { F_CALL,
       F_BINARY,
       F_UNARY,
       F_GETITEM,
       F_GETATTR };

typedef struct
{
  uint32_t args;   /* first slot in the pool */
  uint16_t n_args; /* slots of the positional part */
  uint16_t n_kw;   /* slots of the keyword part */
  uint32_t target; /* callee (call_function), symbol (method), path (module, get_attr) */
  uint32_t last_use;
  uint32_t name; /* offset in the names buffer */
  uint8_t  name_len;
  uint8_t  op;
  uint8_t  has_users;
  uint8_t  pad;
} Node;

typedef struct
{
  const char *text; /* code form: "torch.relu", " + ", "-" */
  uint32_t    text_len;
  uint8_t     form;
  uint32_t    base; /* name candidate */
  int64_t     num;
} Callee;

/* A module path of the structure: `lin`, `layers`, `layers.0`, `scale`. */
enum { P_CONTAINER,
       P_LEAF,
       P_PARAM };
typedef struct
{
  const char *path;
  uint32_t    len;
  uint8_t     kind;
  uint32_t    parent;
  uint32_t    sym;  /* last component */
  uint32_t    node; /* get_attr node + 1 once made */
  uint32_t    base; /* name candidate */
  int64_t     num;
  char       *code; /* `self.lin`, `getattr(self.layers, "0")` */
  uint32_t    code_len;
} Path;

typedef struct
{
  const char *file;
  const char *src;
  size_t      len;
  const char *p, *end;
  int         depth;

  Sym      *syms;
  uint32_t  n_syms, cap_syms;
  uint64_t *sym_table; /* hash << 32 | symbol; 0: empty */
  uint32_t  sym_mask;

  Node    *nodes;
  uint32_t n_nodes, cap_nodes;
  Slot    *pool;
  size_t   n_pool, cap_pool;
  Slot    *stack;
  uint32_t sp, cap_stack;
  char    *names;
  size_t   n_names, cap_names;

  Callee  *callees;
  uint32_t n_callees, cap_callees;
  uint32_t fx_callee[N_FX]; /* callee + 1 */
  uint32_t op_callee[16];

  Path    *paths;
  uint32_t n_paths;
  char     class_name[256];

  /* attribute cache of modules: (module symbol, attribute symbol) -> slot */
  uint64_t *attr_keys;
  Slot     *attr_vals;
  uint32_t  attr_mask;

  uint32_t *stamp;
  uint32_t  line_id; /* the node codegen writes: its arguments' frees are noted as written */
  uint32_t  n_frees;
  uint32_t  frees[64];
  char     *out;
  size_t    n_out, cap_out, line_room;
  void    **py_records; /* PyRecord, per fx entry, made on first use */
  uint32_t  n_params;
  uint32_t  params[64];
  uint32_t  sym_self, sym_torch, sym_nn, sym_f, sym_getattr;
  uint32_t  sym_return, sym_output;
  uint32_t  n_attrs; /* A_ATTR slots made in this statement less those called as
                      * methods: never fewer than the live ones (a copy in
                      * call_python() is never a callee); materialize() looks when any */
  char error[512];
} Lean;

static jmp_buf fail_jump;

static void G_NORETURN
unsupported (Lean       *L,
             const char *at,
             const char *what)
{
  int line = 1, col = 1;

  for (const char *q = L->src; at != NULL && q < at && q < L->src + L->len; q++)
    if (*q == '\n')
      line++, col = 1;
    else
      col++;
  snprintf (L->error, sizeof L->error, "%s:%d:%d: unsupported: %s", L->file, line, col, what);
  longjmp (fail_jump, 1);
}

static void *
grow (void   *p,
      size_t *cap,
      size_t  need,
      size_t  size)
{
  size_t c = *cap ? *cap : 64;

  while (c < need)
    c *= 2;
  p = realloc (p, c * size);
  if (p == NULL)
    abort ();
  *cap = c;
  return p;
}

/* ---- interning ---- */

/* A text's hash, eight bytes at a time; @s may be read up to 8 bytes past its
 * end (the input and interned copies are padded; intern() pads the rest). */
static inline uint32_t
hash_text (const char *s,
           uint32_t    n)
{
  uint64_t h = n * 0x9E3779B97F4A7C15ull, w;

  while (n > 8)
    {
      memcpy (&w, s, 8);
      h = (h ^ w) * 0xff51afd7ed558ccdull;
      s += 8, n -= 8;
    }
  memcpy (&w, s, 8);
  w = n != 0 ? w & ~0ull >> (64 - 8 * n) : 0;
  h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
  return (uint32_t) (h >> 32) | 1;
}

/* hash_text() of a name of 1 to 8 bytes: one load, one mask, one multiply. */
static const uint64_t low_bytes[9] = {
  0,
  0xff,
  0xffff,
  0xffffff,
  0xffffffff,
  0xffffffffffull,
  0xffffffffffffull,
  0xffffffffffffffull,
  ~0ull,
};

static inline uint32_t
hash_short (const char *s,
            uint32_t    n)
{
  uint64_t w;

  memcpy (&w, s, 8);
  w = (n * 0x9E3779B97F4A7C15ull) ^ (w & low_bytes[n]);
  return (uint32_t) ((w * 0xc4ceb9fe1a85ec53ull) >> 32) | 1;
}

/* Equal texts of @n bytes; both may be read 8 bytes past their end (the input
 * and every interned copy are padded). */
static inline int
text_equal (const char *a,
            const char *b,
            uint32_t    n)
{
  uint64_t x, y;

  if (n == 0)
    return 1;
  while (n > 8)
    {
      memcpy (&x, a, 8);
      memcpy (&y, b, 8);
      if (x != y)
        return 0;
      a += 8, b += 8, n -= 8;
    }
  memcpy (&x, a, 8);
  memcpy (&y, b, 8);
  return ((x ^ y) << (64 - 8 * n)) == 0;
}

static const char *dup_text (const char *s, size_t n);

/* @copy: the text does not outlive the call; a new symbol keeps a copy. */
static NOINLINE uint32_t
intern_hashed_copy (Lean       *L,
                    const char *s,
                    uint32_t    n,
                    uint32_t    h,
                    int         copy)
{
  uint32_t i = (h >> 1) & L->sym_mask;

  for (;;)
    {
      uint64_t e = L->sym_table[i];

      if (e == 0)
        break;
      if ((uint32_t) (e >> 32) == h)
        {
          Sym *y = &L->syms[(uint32_t) e];
          if (y->len == n && text_equal (y->text, s, n))
            return (uint32_t) e;
        }
      i = (i + 1) & L->sym_mask;
    }
  if (L->n_syms + 1 >= L->cap_syms)
    {
      size_t cap = L->cap_syms;
      L->syms = grow (L->syms, &cap, L->n_syms + 2, sizeof (Sym));
      L->cap_syms = cap;
    }
  if ((L->n_syms + 1) * 2 > L->sym_mask)
    {
      uint32_t  mask = L->sym_mask * 2 + 1;
      uint64_t *t = calloc (mask + 1, sizeof (uint64_t));
      for (uint32_t k = 1; k <= L->n_syms; k++)
        {
          uint32_t j = (L->syms[k].hash >> 1) & mask;
          while (t[j])
            j = (j + 1) & mask;
          t[j] = (uint64_t) L->syms[k].hash << 32 | k;
        }
      free (L->sym_table);
      L->sym_table = t;
      L->sym_mask = mask;
      i = (h >> 1) & mask;
      while (t[i])
        i = (i + 1) & mask;
    }
  uint32_t id = ++L->n_syms;
  Sym     *y = &L->syms[id];
  memset (y, 0, sizeof *y);
  y->text = copy ? dup_text (s, n) : s;
  y->len = n;
  y->hash = h;
  L->sym_table[i] = (uint64_t) h << 32 | id;
  return id;
}

static inline uint32_t
intern_hashed (Lean       *L,
               const char *s,
               uint32_t    n,
               uint32_t    h)
{
  return intern_hashed_copy (L, s, n, h, 0);
}

/* Interns a text that is not the input's (a literal, a buffer): a new symbol
 * keeps a padded copy, since the fast paths read texts 8 or 16 bytes at a
 * time.  The input itself is padded (read_all()). */
static NOINLINE uint32_t
intern (Lean       *L,
        const char *s,
        size_t      n)
{
  char pad[272];

  if (n > 256)
    {
      const char *d = dup_text (s, n);
      return intern_hashed_copy (L, d, n, hash_text (d, n), 0);
    }
  memcpy (pad, s, n);
  memset (pad + n, 0, 8);
  return intern_hashed_copy (L, pad, n, hash_text (pad, n), 1);
}

#define intern_copy intern

/* Every copy dup_text() made, for lean_free(). */
static char **texts;
static size_t n_texts, cap_texts;

static const char *
dup_text (const char *s,
          size_t      n)
{
  char *d = calloc (1, n + 16);

  memcpy (d, s, n);
  if (n_texts == cap_texts)
    texts = grow (texts, &cap_texts, n_texts + 1, sizeof (char *));
  texts[n_texts++] = d;
  return d;
}

/* ---- torch's naming (torch/fx/graph.py `_Namespace.create_name`), lean ---- */

/* A candidate split as torch splits it: illegal characters to `_`, a
 * leading digit prefixed, then `(.*)_(\d+)$` into base and number (-1: none). */
static uint32_t
candidate (Lean       *L,
           const char *text,
           size_t      n,
           int64_t    *num)
{
  char   buf[512];
  size_t k = 0;
  int    in_run = 0;

  if (n == 0)
    text = "_unnamed", n = 8;
  if (n + 2 > sizeof buf)
    unsupported (L, NULL, "a name candidate of more than 500 bytes");
  if (text[0] >= '0' && text[0] <= '9')
    buf[k++] = '_';
  for (size_t i = 0; i < n; i++)
    {
      char c = text[i];
      int  ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
      if (ok)
        buf[k++] = c;
      else if (!in_run)
        buf[k++] = '_';
      in_run = !ok;
    }
  *num = -1;
  size_t d = k;
  while (d > 0 && buf[d - 1] >= '0' && buf[d - 1] <= '9')
    d--;
  if (d < k && d > 0 && buf[d - 1] == '_')
    {
      int64_t v = 0;
      if (k - d > 15)
        unsupported (L, NULL, "a name number of more than 15 digits");
      for (size_t i = d; i < k; i++)
        v = v * 10 + (buf[i] - '0');
      *num = v;
      k = d - 1;
    }
  return intern (L, buf, k);
}

static int
is_illegal (Lean    *L,
            uint32_t base)
{
  Sym *b = &L->syms[base];

  if (b->illegal == 0)
    {
      size_t lo = 0, hi = sizeof python313_builtins / sizeof python313_builtins[0];
      char   key[256];
      b->illegal = 1;
      if (b->len < sizeof key)
        {
          memcpy (key, b->text, b->len);
          key[b->len] = 0;
          while (lo < hi)
            {
              size_t m = (lo + hi) / 2;
              int    c = strcmp (python313_builtins[m], key);
              if (c == 0)
                {
                  b->illegal = 2;
                  break;
                }
              if (c < 0)
                lo = m + 1;
              else
                hi = m;
            }
          if (graft_is_python_keyword (key))
            b->illegal = 2;
          for (size_t i = 0; i < sizeof fx_custom_builtins / sizeof fx_custom_builtins[0]; i++)
            if (strcmp (fx_custom_builtins[i], key) == 0)
              b->illegal = 2;
        }
    }
  return b->illegal == 2;
}

/* The numbers of a base taken so far: `next[k]` is 0 while base_k is free, else
 * one more than a number at or before which nothing is free, so that the first
 * free number from k on is found with path halving (a "next free" union-find).
 * torch counts on one name at a time, which is quadratic when a list's modules
 * are called again and again (`layers_1` taken: it scans every `layers_k`). */
static inline int
num_used (Sym    *b,
          int64_t k)
{
  return (uint64_t) k < b->used_words && b->used[k] != 0;
}

static int64_t
num_first_free (Sym    *b,
                int64_t k)
{
  while ((uint64_t) k < b->used_words && b->used[k] != 0)
    {
      uint64_t nx = b->used[k] - 1;
      if (nx < b->used_words && b->used[nx] != 0)
        b->used[k] = b->used[nx]; /* halve the path */
      k = (int64_t) nx;
    }
  return k;
}

static void
num_take (Sym    *b,
          int64_t k)
{
  if ((uint64_t) k >= b->used_words)
    {
      uint32_t n = b->used_words ? b->used_words : 16;
      while (n <= k)
        n *= 2;
      b->used = realloc (b->used, n * sizeof (uint64_t));
      memset (b->used + b->used_words, 0, (n - b->used_words) * sizeof (uint64_t));
      b->used_words = n;
    }
  b->used[k] = (uint64_t) k + 2;
}

static char *
put_uint (char    *o,
          uint64_t v)
{
  char  t[24];
  char *e = t + sizeof t, *q = e;

  do
    *--q = '0' + v % 10;
  while ((v /= 10) != 0);
  memcpy (o, q, e - q);
  return o + (e - q);
}

/* Names node @n after the candidate (@base, @num) and stores the name. */
static inline __attribute__ ((always_inline)) void
lean_name (Lean    *L,
           Node    *n,
           uint32_t base,
           int64_t  num)
{
  Sym    *b = &L->syms[base];
  int     bare = num < 0;
  int64_t cand = num, k = num > 0 ? num : b->count;

  /* torch: the candidate is base or base_<num>; the count starts at num, or at the
   * base's count when num is 0 or none; a taken candidate counts on */
  if (bare ? (b->bare_used || is_illegal (L, base)) : num_used (b, cand))
    {
      k = num_first_free (b, k + 1);
      bare = 0;
      cand = k;
    }
  if (bare)
    b->bare_used = 1;
  else
    num_take (b, cand);
  b->count = k;
  if (L->n_names + b->len + 64 > L->cap_names)
    L->names = grow (L->names, &L->cap_names, L->n_names + b->len + 64, 1);
  char *o = L->names + L->n_names;
  char *e = o + b->len;
  if (LIKELY (b->len <= 16))
    memcpy (o, b->text, 16); /* base texts are padded */
  else
    memcpy (o, b->text, b->len);
  if (!bare)
    {
      *e++ = '_';
      if (cand == b->digits_of + 1 && b->n_digits != 0)
        {
          /* count on in the text: the common case, no division */
          int i = b->n_digits - 1;
          while (i >= 0 && b->digits[i] == '9')
            b->digits[i--] = '0';
          if (i >= 0)
            b->digits[i]++;
          else
            {
              memmove (b->digits + 1, b->digits, b->n_digits);
              b->digits[0] = '1';
              b->n_digits++;
            }
        }
      else if (cand != b->digits_of || b->n_digits == 0)
        b->n_digits = (uint8_t) (put_uint (b->digits, (uint64_t) cand) - b->digits);
      b->digits_of = cand;
      memcpy (e, b->digits, 16);
      e += b->n_digits;
    }
  n->name = (uint32_t) L->n_names;
  n->name_len = (uint8_t) (e - o);
  if (e - o > 255)
    unsupported (L, NULL, "a node name of more than 255 bytes");
  L->n_names += e - o;
}

/* ---- nodes ---- */

static uint32_t lean_node_new (Lean    *L,
                               int      op,
                               uint32_t target,
                               uint32_t base,
                               int64_t  num,
                               uint32_t first,
                               uint32_t n_args,
                               uint32_t n_kw);

/* torch's Attribute becomes a getattr node when an argument uses it. */
static void
materialize (Lean    *L,
             uint32_t first,
             uint32_t n)
{
  for (uint32_t i = first; i < first + n; i++)
    if (L->stack[i].kind == A_ATTR)
      {
        Slot s = L->stack[i];
        /* the getattr node's arguments: the node and the attribute's text */
        if (L->sp + 2 > L->cap_stack)
          unsupported (L, NULL, "an expression too deep");
        L->stack[L->sp] = (Slot){ .kind = A_NODE, .span = 1, .a = s.a };
        L->stack[L->sp + 1] = (Slot){ .kind = A_STR, .span = 1, .a = s.b };
        uint32_t c = L->op_callee[F_GETATTR];
        uint32_t node = lean_node_new (L, OP_CALL_FUNCTION, c, L->callees[c].base,
                                       L->callees[c].num, L->sp, 2, 0);
        L->stack[i] = (Slot){ .kind = A_NODE, .span = 1, .a = node };
      }
}

/* Makes a node of the @n_args + @n_kw slots at @first of the stack. */
static NOINLINE uint32_t
lean_node_new (Lean    *L,
               int      op,
               uint32_t target,
               uint32_t base,
               int64_t  num,
               uint32_t first,
               uint32_t n_args,
               uint32_t n_kw)
{
  uint32_t n = n_args + n_kw;

  if (n_args > 65535 || n_kw > 65535)
    unsupported (L, NULL, "a call of more than 65,535 argument slots");
  if (L->n_attrs != 0)
    materialize (L, first, n);
  if (L->n_nodes + 1 >= L->cap_nodes)
    {
      size_t cap = L->cap_nodes;
      L->nodes = grow (L->nodes, &cap, L->n_nodes + 2, sizeof (Node));
      L->cap_nodes = cap;
    }
  if (L->n_pool + n > L->cap_pool)
    L->pool = grow (L->pool, &L->cap_pool, L->n_pool + n, sizeof (Slot));
  uint32_t id = L->n_nodes++;
  Node    *node = &L->nodes[id];
  Slot    *args = L->pool + L->n_pool;
  node->args = (uint32_t) L->n_pool;
  node->n_args = (uint16_t) n_args;
  node->n_kw = (uint16_t) n_kw;
  node->target = target;
  node->last_use = 0;
  node->op = (uint8_t) op;
  node->has_users = 0;
  L->n_pool += n;
  /* one pass: copy the slots, mark the users */
  for (uint32_t i = 0; i < n; i++)
    {
      const Slot *v = &L->stack[first + i];
      args[i] = *v;
      if (v->kind == A_NODE)
        {
          L->nodes[v->a].last_use = id + 1;
          L->nodes[v->a].has_users = 1;
        }
    }
  lean_name (L, node, base, num);
  return id;
}

/* ---- the tokenizer ---- */

enum { C_OTHER,
       C_SPACE,
       C_NL,
       C_ALPHA,
       C_DIGIT,
       C_HASH,
       C_QUOTE,
       C_OP };
static uint8_t cls[256];
static uint8_t ident_byte[256];
static uint8_t op_single[256]; /* operators that never start a longer one */
static uint8_t op_maybe[256];  /* operators that may: single unless followed by op_follow */
static uint8_t op_follow[256];
static int8_t  depth_delta[256];
static uint8_t expr_end[256]; /* bytes that end an expression right after a name */

static void
init_classes (void)
{
  for (int c = 0; c < 256; c++)
    cls[c] = c >= 128 ? C_OTHER : C_OTHER;
  cls[' '] = cls['\t'] = cls['\r'] = cls['\f'] = C_SPACE;
  cls['\n'] = C_NL;
  for (int c = 'a'; c <= 'z'; c++)
    cls[c] = cls[c - 32] = C_ALPHA;
  cls['_'] = C_ALPHA;
  for (int c = '0'; c <= '9'; c++)
    cls[c] = C_DIGIT;
  for (int c = 0; c < 256; c++)
    ident_byte[c] = cls[c] == C_ALPHA || cls[c] == C_DIGIT;
  for (const char *o = "()[],.:"; *o; o++)
    op_single[(uint8_t) *o] = 1;
  for (const char *o = "+-*/=%@"; *o; o++)
    op_maybe[(uint8_t) *o] = 1;
  for (const char *o = "=*/><"; *o; o++)
    op_follow[(uint8_t) *o] = 1;
  expr_end[','] = expr_end[')'] = expr_end[']'] = 1;
  depth_delta['('] = depth_delta['['] = depth_delta['{'] = 1;
  depth_delta[')'] = depth_delta[']'] = depth_delta['}'] = -1;
  cls['#'] = C_HASH;
  cls['\''] = cls['"'] = C_QUOTE;
  for (const char *o = "()[]{},:.;=+-*/%@<>&|^~!"; *o; o++)
    cls[(uint8_t) *o] = C_OP;
}

enum { T_EOF,
       T_NEWLINE,
       T_NAME,
       T_INT,
       T_FLOAT,
       T_STR,
       T_OP };
/* two-byte operators */
#define OP2(a, b) ((a) | (b) << 8)

typedef struct
{
  int         kind;
  uint32_t    op;  /* byte, or OP2 */
  uint32_t    sym; /* NAME, FLOAT, STR */
  int64_t     i;
  const char *at;
} Tok;

/* Skips blanks, comments and (inside brackets) line ends. */
static inline void
skip (Lean *L)
{
  const char *p = L->p;

  for (;;)
    {
      uint8_t c = cls[(uint8_t) *p];
      if (c == C_SPACE)
        p++;
      else if (c == C_HASH)
        while (p < L->end && *p != '\n')
          p++;
      else if (c == C_NL && L->depth > 0)
        p++;
      else if (*p == '\\' && p[1] == '\n')
        p += 2;
      else
        break;
    }
  L->p = p;
}

static void
float_repr (Lean  *L,
            Sym   *y,
            double d)
{
  char digits[40], out[64];
  int  prec, exp, nd = 0, k = 0;

  for (prec = 1; prec <= 17; prec++)
    {
      snprintf (digits, sizeof digits, "%.*e", prec - 1, d);
      if (strtod (digits, NULL) == d)
        break;
    }
  /* digits: d[.ddd]e±XX */
  char  mant[24];
  char *q = digits;
  if (*q == '-')
    out[k++] = '-', q++;
  for (; *q != 'e'; q++)
    if (*q != '.')
      mant[nd++] = *q;
  exp = atoi (q + 1);
  while (nd > 1 && mant[nd - 1] == '0')
    nd--;
  if (exp >= -4 && exp < 16)
    {
      if (exp < 0)
        {
          out[k++] = '0', out[k++] = '.';
          for (int i = -1; i > exp; i--)
            out[k++] = '0';
          memcpy (out + k, mant, nd), k += nd;
        }
      else
        {
          for (int i = 0; i <= exp; i++)
            out[k++] = i < nd ? mant[i] : '0';
          out[k++] = '.';
          if (nd > exp + 1)
            memcpy (out + k, mant + exp + 1, nd - exp - 1), k += nd - exp - 1;
          else
            out[k++] = '0';
        }
    }
  else
    {
      out[k++] = mant[0];
      if (nd > 1)
        {
          out[k++] = '.';
          memcpy (out + k, mant + 1, nd - 1), k += nd - 1;
        }
      k += snprintf (out + k, sizeof out - k, "e%c%02d", exp < 0 ? '-' : '+', abs (exp));
    }
  y->float_repr = dup_text (out, k);
  y->float_repr_len = k;
}

/* The common case of interning: the symbol is there at its first slot. */
static inline uint32_t
intern_fast (Lean       *L,
             const char *s,
             uint32_t    n,
             uint32_t    h)
{
  uint64_t e = L->sym_table[(h >> 1) & L->sym_mask];

  if (LIKELY ((uint32_t) (e >> 32) == h))
    {
      const Sym *y = &L->syms[(uint32_t) e];
      if (LIKELY (y->len == n && text_equal (y->text, s, n)))
        return (uint32_t) e;
    }
  return intern_hashed (L, s, n, h);
}

/* Every token but the frequent ones next() reads itself. */
static NOINLINE void
next_slow (Lean *L,
           Tok  *tp)
{
#define t (*tp)
  const char *p;

  skip (L);
  p = L->p;
  t.at = p;
  if (p >= L->end)
    {
      t.kind = T_EOF;
      return;
    }
  switch (cls[(uint8_t) *p])
    {
    case C_ALPHA:
      {
        const char *s = p;
        while (ident_byte[(uint8_t) *p])
          p++;
        t.kind = T_NAME;
        t.sym = intern_fast (L, s, (uint32_t) (p - s), hash_text (s, (uint32_t) (p - s)));
        break;
      }
    case C_DIGIT:
      {
        const char *s = p;
        int64_t     v = 0;
        while (cls[(uint8_t) *p] == C_DIGIT)
          v = v * 10 + (*p++ - '0');
        if (*p == '.' || *p == 'e' || *p == 'E')
          {
            /* the literal's extent by bytes; strtod only for a new one */
            if (*p == '.')
              for (p++; cls[(uint8_t) *p] == C_DIGIT; p++)
                ;
            if (*p == 'e' || *p == 'E')
              {
                p += 1 + (p[1] == '+' || p[1] == '-');
                if (cls[(uint8_t) *p] != C_DIGIT)
                  unsupported (L, s, "this float literal");
                while (cls[(uint8_t) *p] == C_DIGIT)
                  p++;
              }
            t.kind = T_FLOAT;
            t.sym = intern_fast (L, s, (uint32_t) (p - s), hash_text (s, (uint32_t) (p - s)));
            if (L->syms[t.sym].float_repr == NULL)
              float_repr (L, &L->syms[t.sym], strtod (s, NULL));
          }
        else
          {
            if (p - s > 18 || (s[0] == '0' && p - s > 1))
              unsupported (L, s, "this integer literal");
            t.kind = T_INT;
            t.i = v;
          }
        if (cls[(uint8_t) *p] == C_ALPHA)
          unsupported (L, s, "this number literal");
        break;
      }
    case C_QUOTE:
      {
        char        q = *p++;
        const char *s = p;
        while (p < L->end && *p != q && *p != '\\' && *p != '\n')
          p++;
        if (*p != q)
          unsupported (L, s - 1, "this string literal");
        t.kind = T_STR;
        t.sym = intern (L, s, p - s);
        p++;
        break;
      }
    case C_NL:
      t.kind = T_NEWLINE;
      p++;
      break;
    case C_OP:
      {
        char c = *p++;
        t.kind = T_OP;
        t.op = (uint8_t) c;
        if ((c == '*' && *p == '*') || (c == '/' && *p == '/') || (c == '=' && *p == '=') ||
            (c == '!' && *p == '=') || (c == '<' && (*p == '=' || *p == '<')) ||
            (c == '>' && (*p == '=' || *p == '>')) || (c == '-' && *p == '>'))
          t.op = OP2 (c, *p++);
        if (*p == '=' && (t.op == '+' || t.op == '-' || t.op == '*' || t.op == '/' ||
                          t.op == '@' || t.op == '%' || t.op == OP2 ('/', '/')))
          unsupported (L, t.at, "augmented assignment");
        if (c == '(' || c == '[' || c == '{')
          L->depth++;
        else if (c == ')' || c == ']' || c == '}')
          L->depth--;
        break;
      }
    default:
      unsupported (L, p, "this character");
    }
  L->p = p;
#undef t
}

static inline __attribute__ ((always_inline)) void
next (Lean *L,
      Tok  *tp)
{
#define t (*tp)
  const char *p = L->p;

  if (cls[(uint8_t) *p] == C_SPACE)
    {
      do
        p++;
      while (*p == ' ');
      L->p = p;
    }
  /* the most frequent tokens first: names, then operators that stand alone */
  if (LIKELY (cls[(uint8_t) *p] == C_ALPHA))
    {
      const char *s = p;
      t.at = p;
      do
        p++;
      while (ident_byte[(uint8_t) *p]);
      t.kind = T_NAME;
      uint32_t len = (uint32_t) (p - s);
      t.sym = intern_fast (L, s, len, len <= 8 ? hash_short (s, len) : hash_text (s, len));
      L->p = p;
      return;
    }
  if (op_single[(uint8_t) *p] || (op_maybe[(uint8_t) *p] && !op_follow[(uint8_t) p[1]]))
    {
      t.at = p;
      t.kind = T_OP;
      t.op = (uint8_t) *p;
      L->depth += depth_delta[(uint8_t) *p];
      L->p = p + 1;
      return;
    }
  if (*p == '\n' && L->depth == 0)
    {
      t.at = p;
      t.kind = T_NEWLINE;
      L->p = p + 1;
      return;
    }
  if (cls[(uint8_t) *p] == C_DIGIT && *p != '0')
    {
      const char *s = p;
      int64_t     v = 0;
      do
        v = v * 10 + (*p++ - '0');
      while (cls[(uint8_t) *p] == C_DIGIT);
      if (p - s <= 18 && *p != '.' && *p != 'e' && *p != 'E' && !ident_byte[(uint8_t) *p])
        {
          t.at = s;
          t.kind = T_INT;
          t.i = v;
          L->p = p;
          return;
        }
      p = s;
    }
  next_slow (L, tp);
#undef t
}

/* ---- the evaluator ---- */

typedef struct
{
  Lean *L;
  Tok   tok; /* the current token */
} Ev;

static inline __attribute__ ((always_inline)) void
advance (Ev *e)
{
  next (e->L, &e->tok);
}

static inline int
is_op (Ev      *e,
       uint32_t op)
{
  return e->tok.kind == T_OP && e->tok.op == op;
}

static void
expect (Ev         *e,
        uint32_t    op,
        const char *what)
{
  if (!is_op (e, op))
    unsupported (e->L, e->tok.at, what);
  advance (e);
}

static inline Slot *
push (Lean *L)
{
  if (L->sp >= L->cap_stack)
    unsupported (L, L->p, "an expression too deep");
  return &L->stack[L->sp++];
}

static void expr (Ev *e);

static int
holds_node (Lean    *L,
            uint32_t first,
            uint32_t n)
{
  for (uint32_t i = first; i < first + n; i++)
    if (L->stack[i].kind == A_NODE || L->stack[i].kind == A_ATTR)
      return 1;
  return 0;
}

static uint32_t
path_child (Lean    *L,
            uint32_t parent,
            uint32_t sym)
{
  for (uint32_t i = 1; i < L->n_paths; i++)
    if (L->paths[i].parent == parent && L->paths[i].sym == sym)
      return i;
  return 0;
}

/* The value of reading @sym off the module path @parent (0: self). */
static void
module_attr (Ev         *e,
             uint32_t    parent,
             uint32_t    sym,
             const char *at)
{
  Lean    *L = e->L;
  uint32_t i = path_child (L, parent, sym);
  Slot    *top = &L->stack[L->sp - 1];

  if (i == 0)
    unsupported (L, at, "an attribute of the module that is not a leaf module or a parameter");
  if (L->paths[i].kind == P_PARAM)
    {
      Path *pa = &L->paths[i];
      if (pa->node == 0)
        pa->node = lean_node_new (L, OP_GET_ATTR, i, pa->base, pa->num, L->sp, 0, 0) + 1;
      *top = (Slot){ .kind = A_NODE, .span = 1, .a = pa->node - 1 };
    }
  else
    *top = (Slot){ .kind = A_SUBMOD, .span = 1, .a = i };
}

static uint32_t
module_sym_of (Lean       *L,
               const char *path)
{
  return intern (L, path, strlen (path));
}

/* torch.X / nn.X / F.X, cached per (module, attribute). */
static void
torch_attr (Ev         *e,
            uint32_t    mod,
            uint32_t    sym,
            const char *at)
{
  Lean    *L = e->L;
  uint64_t key = (uint64_t) mod << 32 | sym;
  uint32_t i = (uint32_t) (key * 0x9E3779B97F4A7C15ull >> 40) & L->attr_mask;

  while (L->attr_keys[i] != 0 && L->attr_keys[i] != key)
    i = (i + 1) & L->attr_mask;
  if (L->attr_keys[i] == 0)
    {
      Sym   *m = &L->syms[mod], *a = &L->syms[sym];
      char   buf[512];
      Slot   v = { 0 };
      size_t n = (size_t) snprintf (buf, sizeof buf, "%.*s.%.*s", (int) m->len, m->text,
                                    (int) a->len, a->text);
      size_t lo = 0, hi = N_FX;
      while (lo < hi)
        {
          size_t mid = (lo + hi) / 2;
          int    c = strcmp (fx_entries[mid].path, buf);
          if (c == 0)
            {
              v = (Slot){ .kind = A_FUNC, .span = 1, .a = (uint32_t) mid };
              break;
            }
          if (c < 0)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (size_t k = 0; v.kind == 0 && k < N_CONSTS; k++)
        if (strcmp (fx_consts[k].path, buf) == 0)
          v = (Slot){ .kind = A_RAW,
                      .span = 1,
                      .p = dup_text (fx_consts[k].code, strlen (fx_consts[k].code)) };
      if (v.kind == 0 && lo < N_FX && strncmp (fx_entries[lo].path, buf, n) == 0 &&
          fx_entries[lo].path[n] == '.')
        v = (Slot){ .kind = A_MODULE, .span = 1, .a = intern (L, buf, n) };
      if (v.kind == 0)
        unsupported (L, at, "this attribute of a torch module");
      L->attr_keys[i] = key;
      L->attr_vals[i] = v;
    }
  L->stack[L->sp - 1] = L->attr_vals[i];
}

static uint32_t
fx_callee (Lean    *L,
           uint32_t fx)
{
  if (L->fx_callee[fx] == 0)
    {
      const FxEntry *f = &fx_entries[fx];
      if (L->n_callees + 1 > L->cap_callees)
        {
          size_t cap = L->cap_callees;
          L->callees = grow (L->callees, &cap, L->n_callees + 1, sizeof (Callee));
          L->cap_callees = cap;
        }
      Callee *c = &L->callees[L->n_callees];
      c->text_len = (uint32_t) strlen (f->code_form);
      c->text = dup_text (f->code_form, c->text_len); /* padded: out_put() */
      c->form = F_CALL;
      c->base = candidate (L, f->name_base, strlen (f->name_base), &c->num);
      L->fx_callee[fx] = ++L->n_callees;
    }
  return L->fx_callee[fx] - 1;
}

/* The slot tree at @i of the stack, copied to its top. */
static void
copy_tree (Lean    *L,
           uint32_t i)
{
  uint32_t n = L->stack[i].span;

  if (L->sp + n > L->cap_stack)
    unsupported (L, NULL, "an expression too deep");
  memcpy (L->stack + L->sp, L->stack + i, n * sizeof (Slot));
  L->sp += n;
}

/* A Python function's record (`PYTHON` in the table), compiled once: its
 * parameters (symbols, defaults as slots) and what the node records, as
 * parameter indexes. */
#define MAX_PARAMS 24
typedef struct
{
  uint32_t np, n_pos, n_kw;
  uint32_t param[MAX_PARAMS];
  Slot     def[MAX_PARAMS]; /* kind 0: no default */
  uint8_t  pos[MAX_PARAMS];
  uint32_t kw[MAX_PARAMS];
  uint8_t  kw_param[MAX_PARAMS];
} PyRecord;

static int
record_param (Lean       *L,
              PyRecord   *r,
              const char *name,
              size_t      n)
{
  uint32_t sym = intern (L, name, n);

  for (uint32_t j = 0; j < r->np; j++)
    if (r->param[j] == sym)
      return (int) j;
  return -1;
}

static PyRecord *
py_record (Lean          *L,
           const FxEntry *f,
           const char    *at)
{
  size_t    fx = (size_t) (f - fx_entries);
  PyRecord *r = L->py_records[fx];

  if (r != NULL)
    return r;
  r = calloc (1, sizeof *r);
  if (strchr (f->signature, '*') != NULL)
    unsupported (L, at, "a torch function with a variadic signature");
  for (const char *q = f->signature; *q;)
    {
      size_t      n = strcspn (q, ",");
      const char *eq = memchr (q, '=', n);
      size_t      nn = eq ? (size_t) (eq - q) : n;
      if (r->np == MAX_PARAMS)
        unsupported (L, at, "a torch function with too many parameters");
      r->param[r->np] = intern (L, q, nn);
      if (eq != NULL)
        {
          size_t dn = n - nn - 1;
          if (dn == 4 && memcmp (eq + 1, "None", 4) == 0)
            r->def[r->np] = (Slot){ .kind = A_NONE, .span = 1 };
          else
            r->def[r->np] = (Slot){ .kind = A_RAW, .span = 1, .p = dup_text (eq + 1, dn) };
        }
      r->np++;
      q += n;
      while (*q == ',' || *q == ' ')
        q++;
    }
  for (const char *q = f->positional; *q;)
    {
      size_t n = strcspn (q, ",");
      int    j = *q == '=' || *q == '*' || *q == '?' ? -1 : record_param (L, r, q, n);
      if (j < 0)
        unsupported (L, at, "a torch function with a constant or spread positional record");
      r->pos[r->n_pos++] = (uint8_t) j;
      q += n;
      while (*q == ',' || *q == ' ')
        q++;
    }
  for (const char *q = f->keywords; *q;)
    {
      size_t      n = strcspn (q, ",");
      const char *colon = memchr (q, ':', n), *eq = memchr (q, '=', n);
      size_t      kn = colon ? (size_t) (colon - q) : eq ? (size_t) (eq - q)
                                                         : n;
      int         j = eq != NULL      ? -1
                      : colon != NULL ? record_param (L, r, colon + 1, n - kn - 1)
                                      : record_param (L, r, q, n);
      if (j < 0)
        unsupported (L, at, "a torch function with a constant keyword record");
      r->kw[r->n_kw] = intern (L, q, kn);
      r->kw_param[r->n_kw++] = (uint8_t) j;
      q += n;
      while (*q == ',' || *q == ' ')
        q++;
    }
  L->py_records[fx] = r;
  return r;
}

/* A Python function of torch's table: bind, fill defaults, record the
 * positional and keyword lists the table gives. */
static void
call_python (Ev            *e,
             const FxEntry *f,
             uint32_t       callee_slot,
             uint32_t       first_kw,
             const char    *at)
{
  Lean     *L = e->L;
  PyRecord *r = py_record (L, f, at);
  uint32_t  bound[MAX_PARAMS] = { 0 }; /* slot + 1 */
  uint32_t  i, pi = 0;

  for (i = callee_slot + 1; i < first_kw; i += L->stack[i].span)
    {
      if (pi >= r->np)
        unsupported (L, at, "too many arguments");
      bound[pi++] = i + 1;
    }
  for (i = first_kw; i < L->sp; i += 1 + L->stack[i + 1].span)
    {
      uint32_t j;
      for (j = 0; j < r->np && r->param[j] != L->stack[i].a; j++)
        ;
      if (j == r->np || bound[j] != 0)
        unsupported (L, at, "this keyword argument");
      bound[j] = i + 2;
    }
  for (uint32_t j = 0; j < r->np; j++)
    if (bound[j] == 0 && r->def[j].kind == 0)
      unsupported (L, at, "a missing argument");
  if (!holds_node (L, callee_slot + 1, L->sp - callee_slot - 1))
    unsupported (L, at, "a torch function of constants");

  uint32_t start = L->sp;
  for (uint32_t k = 0; k < r->n_pos; k++)
    if (bound[r->pos[k]])
      copy_tree (L, bound[r->pos[k]] - 1);
    else
      *push (L) = r->def[r->pos[k]];
  uint32_t n_args = L->sp - start;
  for (uint32_t k = 0; k < r->n_kw; k++)
    {
      *push (L) = (Slot){ .kind = A_KW, .span = 1, .a = r->kw[k] };
      if (bound[r->kw_param[k]])
        copy_tree (L, bound[r->kw_param[k]] - 1);
      else
        *push (L) = r->def[r->kw_param[k]];
    }
  uint32_t c = fx_callee (L, (uint32_t) (f - fx_entries));
  uint32_t node = lean_node_new (L, OP_CALL_FUNCTION, c, L->callees[c].base, L->callees[c].num,
                                 start, n_args, L->sp - start - n_args);
  L->sp = callee_slot + 1;
  L->stack[callee_slot] = (Slot){ .kind = A_NODE, .span = 1, .a = node };
}

static void
method_candidate (Lean    *L,
                  uint32_t sym)
{
  Sym *y = &L->syms[sym];

  if (!y->method_done)
    {
      char   buf[512];
      size_t k = 0;
      if (y->len * 2 + 1 > sizeof buf)
        unsupported (L, NULL, "a method name too long");
      /* torch's _snake_case: `_` before an upper case letter after a lower case one */
      for (uint32_t i = 0; i < y->len; i++)
        {
          char c = y->text[i];
          if (c >= 'A' && c <= 'Z')
            {
              if (i > 0 && y->text[i - 1] >= 'a' && y->text[i - 1] <= 'z')
                buf[k++] = '_';
              c = (char) (c + 32);
            }
          buf[k++] = c;
        }
      int64_t  num;
      uint32_t base = candidate (L, buf, k, &num);
      y = &L->syms[sym];
      y->method_base = base;
      y->method_num = num;
      y->method_done = 1;
    }
}

/* A call: the callee at @c, `(` consumed. */
static void
call (Ev      *e,
      uint32_t c)
{
  Lean       *L = e->L;
  const char *at = e->tok.at;
  uint32_t    first_kw = 0;

  while (!is_op (e, ')'))
    {
      const char *q = L->p;
      while (*q == ' ')
        q++;
      if (e->tok.kind == T_NAME && *q == '=' && q[1] != '=')
        {
          if (first_kw == 0)
            first_kw = L->sp;
          *push (L) = (Slot){ .kind = A_KW, .span = 1, .a = e->tok.sym };
          advance (e);
          advance (e);
        }
      else if (first_kw != 0)
        unsupported (L, e->tok.at, "a positional argument after a keyword one");
      else if (is_op (e, '*') || is_op (e, OP2 ('*', '*')))
        unsupported (L, e->tok.at, "argument unpacking");
      expr (e);
      if (!is_op (e, ','))
        break;
      advance (e);
    }
  expect (e, ')', "this call's arguments");
  if (first_kw == 0)
    first_kw = L->sp;

  Slot     callee = L->stack[c];
  uint32_t node;
  switch (callee.kind)
    {
    case A_FUNC:
      {
        const FxEntry *f = &fx_entries[callee.a];
        if (f->kind == FX_PYTHON)
          {
            call_python (e, f, c, first_kw, at);
            return;
          }
        if (f->kind != FX_BUILTIN && f->kind != FX_METHOD)
          unsupported (L, at, "a torch function torch.fx cannot trace");
        if (!holds_node (L, c + 1, L->sp - c - 1))
          unsupported (L, at, "a torch function of constants");
        uint32_t cal = fx_callee (L, callee.a);
        if (f->kind == FX_METHOD)
          {
            if (c + 1 == first_kw || L->stack[c + 1].kind != A_NODE)
              unsupported (L, at, "a torch function recorded as a method of a constant");
            method_candidate (L, intern (L, f->target, strlen (f->target)));
            Sym *m = &L->syms[intern (L, f->target, strlen (f->target))];
            node = lean_node_new (L, OP_CALL_METHOD, intern (L, f->target, strlen (f->target)),
                                  m->method_base, m->method_num, c + 1, first_kw - c - 1,
                                  L->sp - first_kw);
          }
        else
          node = lean_node_new (L, OP_CALL_FUNCTION, cal, L->callees[cal].base,
                                L->callees[cal].num, c + 1, first_kw - c - 1, L->sp - first_kw);
        break;
      }
    case A_ATTR:
      {
        /* a method of a traced value: call_method, the value first */
        method_candidate (L, callee.b);
        Sym *m = &L->syms[callee.b];
        L->n_attrs--; /* this one becomes the method's object */
        L->stack[c] = (Slot){ .kind = A_NODE, .span = 1, .a = callee.a };
        node = lean_node_new (L, OP_CALL_METHOD, callee.b, m->method_base, m->method_num, c,
                              first_kw - c, L->sp - first_kw);
        break;
      }
    case A_SUBMOD:
      {
        Path *pa = &L->paths[callee.a];
        if (pa->kind != P_LEAF)
          unsupported (L, at, "calling a module that is not a leaf");
        node = lean_node_new (L, OP_CALL_MODULE, callee.a, pa->base, pa->num, c + 1,
                              first_kw - c - 1, L->sp - first_kw);
        break;
      }
    case A_GETATTR:
      {
        if (first_kw != L->sp || L->sp != c + 3 || L->stack[c + 2].kind != A_STR)
          unsupported (L, at, "this getattr call");
        Slot     obj = L->stack[c + 1];
        uint32_t sym = L->stack[c + 2].a;
        L->sp = c + 1;
        L->stack[c] = obj;
        if (obj.kind == A_SELF)
          module_attr (e, 0, sym, at);
        else if (obj.kind == A_SUBMOD)
          module_attr (e, obj.a, sym, at);
        else if (obj.kind == A_NODE)
          {
            L->stack[c] = (Slot){ .kind = A_ATTR, .span = 1, .a = obj.a, .b = sym };
            L->n_attrs++;
          }
        else
          unsupported (L, at, "getattr of this value");
        return;
      }
    default:
      unsupported (L, at, "calling this value");
    }
  L->sp = c + 1;
  L->stack[c] = (Slot){ .kind = A_NODE, .span = 1, .a = node };
}

/* One subscript item: an expression or a slice. */
static void
sub_item (Ev *e)
{
  Lean    *L = e->L;
  uint32_t h = L->sp;

  if (!is_op (e, ':'))
    {
      expr (e);
      if (!is_op (e, ':'))
        return;
      /* a slice whose start is on the stack: shift it under a header */
      Slot     start[64];
      uint32_t n = L->sp - h;
      if (n > 64)
        unsupported (L, e->tok.at, "a slice bound this large");
      memcpy (start, L->stack + h, n * sizeof (Slot));
      L->sp = h;
      push (L);
      for (uint32_t i = 0; i < n; i++)
        *push (L) = start[i];
    }
  else
    {
      push (L);
      *push (L) = (Slot){ .kind = A_NONE, .span = 1 };
    }
  L->stack[h] = (Slot){ .kind = A_SLICE, .span = 0 };
  for (int part = 0; part < 2; part++)
    {
      if (is_op (e, ':'))
        {
          advance (e);
          if (is_op (e, ':') || is_op (e, ']') || is_op (e, ','))
            *push (L) = (Slot){ .kind = A_NONE, .span = 1 };
          else
            expr (e);
        }
      else
        *push (L) = (Slot){ .kind = A_NONE, .span = 1 };
    }
  L->stack[h].span = (uint16_t) (L->sp - h);
}

static void
subscript (Ev      *e,
           uint32_t o)
{
  Lean       *L = e->L;
  const char *at = e->tok.at;
  uint32_t    h = L->sp;
  uint32_t    n = 0;

  sub_item (e);
  n++;
  if (is_op (e, ','))
    {
      /* a tuple: shift the first item under a header */
      Slot     first[64];
      uint32_t k = L->sp - h;
      if (k > 64)
        unsupported (L, at, "a subscript this large");
      memcpy (first, L->stack + h, k * sizeof (Slot));
      L->sp = h;
      push (L);
      for (uint32_t i = 0; i < k; i++)
        *push (L) = first[i];
      while (is_op (e, ','))
        {
          advance (e);
          if (is_op (e, ']'))
            break;
          sub_item (e);
          n++;
        }
      L->stack[h] = (Slot){ .kind = A_TUPLE, .span = (uint16_t) (L->sp - h), .a = n };
    }
  expect (e, ']', "this subscript");

  Slot obj = L->stack[o];
  if (obj.kind == A_SUBMOD && L->sp == h + 1 && L->stack[h].kind == A_INT && L->stack[h].i >= 0)
    {
      char   buf[24];
      size_t k = (size_t) (put_uint (buf, (uint64_t) L->stack[h].i) - buf);
      L->sp = o + 1;
      module_attr (e, obj.a, intern_copy (L, buf, k), at);
      return;
    }
  if (obj.kind != A_NODE && obj.kind != A_ATTR)
    unsupported (L, at, "a subscript of this value");
  uint32_t c = L->op_callee[F_GETITEM];
  uint32_t node = lean_node_new (L, OP_CALL_FUNCTION, c, L->callees[c].base, L->callees[c].num,
                                 o, L->sp - o, 0);
  L->sp = o + 1;
  L->stack[o] = (Slot){ .kind = A_NODE, .span = 1, .a = node };
}

/* A list or a tuple of expressions up to @close. */
static void
sequence (Ev      *e,
          int      kind,
          uint32_t close)
{
  Lean    *L = e->L;
  uint32_t h = L->sp, n = 0;

  push (L);
  while (!is_op (e, close))
    {
      expr (e);
      n++;
      if (!is_op (e, ','))
        break;
      advance (e);
    }
  expect (e, close, "this list");
  L->stack[h] = (Slot){ .kind = (uint8_t) kind, .span = (uint16_t) (L->sp - h), .a = n };
}

static void
atom (Ev *e)
{
  Lean     *L = e->L;
  const Tok t = e->tok;

  switch (t.kind)
    {
    case T_NAME:
      {
        Sym *y = &L->syms[t.sym];
        if (y->bound.kind == 0)
          unsupported (L, t.at, "this name");
        *push (L) = y->bound;
        break;
      }
    case T_INT:
      *push (L) = (Slot){ .kind = A_INT, .span = 1, .i = t.i };
      break;
    case T_FLOAT:
      *push (L) = (Slot){ .kind = A_FLOAT, .span = 1, .a = t.sym };
      break;
    case T_STR:
      if (memchr (L->syms[t.sym].text, '\'', L->syms[t.sym].len) != NULL)
        unsupported (L, t.at, "a string with a quote");
      *push (L) = (Slot){ .kind = A_STR, .span = 1, .a = t.sym };
      break;
    case T_OP:
      if (t.op == '[')
        {
          advance (e);
          sequence (e, A_LIST, ']');
          return;
        }
      if (t.op == '(')
        {
          uint32_t h = L->sp;
          advance (e);
          if (is_op (e, ')'))
            unsupported (L, t.at, "an empty tuple");
          expr (e);
          if (is_op (e, ')'))
            {
              advance (e);
              return;
            }
          /* a tuple: the first item under a header */
          Slot     first[64];
          uint32_t k = L->sp - h;
          if (k > 64)
            unsupported (L, t.at, "a tuple this large");
          memcpy (first, L->stack + h, k * sizeof (Slot));
          L->sp = h;
          push (L);
          for (uint32_t i = 0; i < k; i++)
            *push (L) = first[i];
          uint32_t n = 1;
          while (is_op (e, ','))
            {
              advance (e);
              if (is_op (e, ')'))
                break;
              expr (e);
              n++;
            }
          expect (e, ')', "this tuple");
          L->stack[h] = (Slot){ .kind = A_TUPLE, .span = (uint16_t) (L->sp - h), .a = n };
          return;
        }
      unsupported (L, t.at, "this expression");
    default:
      unsupported (L, t.at, "this expression");
    }
  advance (e);
}

static void
postfix (Ev *e)
{
  Lean    *L = e->L;
  uint32_t o = L->sp;

  atom (e);
  for (;;)
    {
      if (is_op (e, '.'))
        {
          advance (e);
          if (e->tok.kind != T_NAME)
            unsupported (L, e->tok.at, "an attribute that is not a name");
          Slot        obj = L->stack[o];
          uint32_t    sym = e->tok.sym;
          const char *at = e->tok.at;
          advance (e);
          switch (obj.kind)
            {
            case A_SELF:
              module_attr (e, 0, sym, at);
              break;
            case A_SUBMOD:
              module_attr (e, obj.a, sym, at);
              break;
            case A_MODULE:
              torch_attr (e, obj.a, sym, at);
              break;
            case A_NODE:
              L->stack[o] = (Slot){ .kind = A_ATTR, .span = 1, .a = obj.a, .b = sym };
              L->n_attrs++;
              break;
            default:
              unsupported (L, at, "an attribute of this value");
            }
        }
      else if (is_op (e, '('))
        {
          advance (e);
          call (e, o);
        }
      else if (is_op (e, '['))
        {
          advance (e);
          subscript (e, o);
        }
      else
        return;
    }
}

static uint32_t
op_callee (Lean       *L,
           uint32_t    op,
           const char *at)
{
  int k;

  switch (op)
    {
    case '+':
      k = 0;
      break;
    case '-':
      k = 1;
      break;
    case '*':
      k = 2;
      break;
    case '/':
      k = 3;
      break;
    case OP2 ('/', '/'):
      k = 4;
      break;
    case '%':
      k = 5;
      break;
    case '@':
      k = 6;
      break;
    case OP2 ('*', '*'):
      k = 7;
      break;
    default:
      unsupported (L, at, "this operator");
    }
  return L->op_callee[8 + k] - 1;
}

static void
binary_node (Ev         *e,
             uint32_t    l,
             uint32_t    op,
             const char *at)
{
  Lean *L = e->L;
  Slot *a = &L->stack[l], *b = &L->stack[l + 1];

  if (a->span != 1 || L->sp != l + 2 || b->span != 1)
    unsupported (L, at, "an operator on a list, a tuple or a slice");
  if (!((a->kind == A_NODE || a->kind == A_ATTR) || (b->kind == A_NODE || b->kind == A_ATTR)))
    unsupported (L, at, "an operator on constants");
  if (!(a->kind == A_NODE || a->kind == A_ATTR || a->kind == A_INT || a->kind == A_FLOAT) ||
      !(b->kind == A_NODE || b->kind == A_ATTR || b->kind == A_INT || b->kind == A_FLOAT))
    unsupported (L, at, "an operator on this value");
  uint32_t c = op_callee (L, op, at);
  uint32_t node = lean_node_new (L, OP_CALL_FUNCTION, c, L->callees[c].base, L->callees[c].num,
                                 l, 2, 0);
  L->sp = l + 1;
  L->stack[l] = (Slot){ .kind = A_NODE, .span = 1, .a = node };
}

static void unary (Ev *e);

static void
power (Ev *e)
{
  uint32_t l = e->L->sp;

  postfix (e);
  if (is_op (e, OP2 ('*', '*')))
    {
      const char *at = e->tok.at;
      advance (e);
      unary (e);
      binary_node (e, l, OP2 ('*', '*'), at);
    }
}

static void
unary (Ev *e)
{
  Lean *L = e->L;

  if (is_op (e, '-') || is_op (e, '+') || is_op (e, '~'))
    {
      uint32_t    op = e->tok.op;
      const char *at = e->tok.at;
      uint32_t    l = L->sp;
      advance (e);
      unary (e);
      Slot *v = &L->stack[l];
      if (op == '-' && v->kind == A_INT)
        v->i = -v->i;
      else if (op == '-' && v->kind == A_FLOAT)
        {
          Sym *y = &L->syms[v->a];
          char buf[80];
          int  n = snprintf (buf, sizeof buf, "-%.*s", (int) y->float_repr_len, y->float_repr);
          if (y->float_repr[0] == '-')
            unsupported (L, at, "a doubly negated float");
          uint32_t s = intern (L, buf, (size_t) n);
          if (L->syms[s].float_repr == NULL)
            {
              L->syms[s].float_repr = L->syms[s].text;
              L->syms[s].float_repr_len = L->syms[s].len;
            }
          v->a = s;
        }
      else if (op == '-' && (v->kind == A_NODE || v->kind == A_ATTR) && L->sp == l + 1)
        {
          uint32_t c = L->op_callee[F_UNARY];
          uint32_t node = lean_node_new (L, OP_CALL_FUNCTION, c, L->callees[c].base,
                                         L->callees[c].num, l, 1, 0);
          L->stack[l] = (Slot){ .kind = A_NODE, .span = 1, .a = node };
        }
      else
        unsupported (L, at, "this unary operator");
      return;
    }
  power (e);
}

static int
precedence (Ev *e)
{
  if (e->tok.kind != T_OP)
    return 0;
  switch (e->tok.op)
    {
    case '+':
    case '-':
      return 1;
    case '*':
    case '/':
    case '%':
    case '@':
    case OP2 ('/', '/'):
      return 2;
    default:
      return 0;
    }
}

static void
binary (Ev *e,
        int min)
{
  uint32_t l = e->L->sp;

  unary (e);
  for (;;)
    {
      int prec = precedence (e);
      if (prec == 0 || prec < min)
        return;
      uint32_t    op = e->tok.op;
      const char *at = e->tok.at;
      advance (e);
      binary (e, prec + 1);
      binary_node (e, l, op, at);
    }
}

static void
expr (Ev *e)
{
  Lean *L = e->L;

  /* a bound name that ends the expression (`h0` in `torch.relu(h0)`): no descent */
  if (e->tok.kind == T_NAME && expr_end[(uint8_t) *L->p] && L->depth > 0)
    {
      const Slot *v = &L->syms[e->tok.sym].bound;
      if (LIKELY (v->kind != 0 && v->kind != A_GETATTR))
        {
          *push (L) = *v;
          advance (e);
          return;
        }
    }
  binary (e, 1);
  if (e->tok.kind == T_OP && e->tok.op != ')' && e->tok.op != ']' && e->tok.op != ',' &&
      e->tok.op != ':' && e->tok.op != '=' && e->tok.op != '}')
    unsupported (e->L, e->tok.at, "this operator");
  if (e->tok.kind == T_NAME)
    unsupported (e->L, e->tok.at, "this expression");
}

/* ---- the forward: statements ---- */

static const char *
line_end (const char *p,
          const char *end)
{
  const char *q = memchr (p, '\n', end - p);
  return q ? q + 1 : end;
}

static int
starts (const char *p,
        const char *end,
        const char *word)
{
  size_t n = strlen (word);
  return (size_t) (end - p) >= n && memcmp (p, word, n) == 0;
}

/* The file's imports of torch (at column 0) and the place of the traced
 * class's forward. */
static const char *
find_forward (Lean *L)
{
  const char *p = L->src, *end = L->src + L->len, *in_class = NULL;
  size_t      cn = strlen (L->class_name);

  while (p < end)
    {
      const char *e = line_end (p, end);
      if (starts (p, e, "import torch") || starts (p, e, "from torch"))
        {
          char   line[256];
          size_t n = (size_t) (e - p);
          if (n >= sizeof line)
            unsupported (L, p, "this import");
          memcpy (line, p, n);
          line[n] = 0;
          char *nl = strchr (line, '\n');
          if (nl)
            *nl = 0;
          char mod[128], alias[128], name[128];
          if (sscanf (line, "import %127s as %127s", mod, alias) == 2)
            {
              uint32_t a = intern (L, alias, strlen (alias));
              uint32_t m = module_sym_of (L, mod);
              L->syms[a].bound = (Slot){ .kind = A_MODULE, .span = 1, .a = m };
            }
          else if (sscanf (line, "from %127s import %127s as %127s", mod, name, alias) == 3 ||
                   sscanf (line, "from %127s import %127s", mod, name) == 2)
            {
              const char *a = strstr (line, " as ") ? alias : name;
              char        full[300];
              snprintf (full, sizeof full, "%s.%s", mod, name);
              uint32_t as = intern (L, a, strlen (a));
              uint32_t m = module_sym_of (L, full);
              L->syms[as].bound = (Slot){ .kind = A_MODULE, .span = 1, .a = m };
            }
          else if (strcmp (line, "import torch") == 0)
            L->syms[L->sym_torch].bound = (Slot){ .kind = A_MODULE, .span = 1, .a = L->sym_torch };
          else
            unsupported (L, p, "this import");
        }
      else if (starts (p, e, "class ") && (size_t) (e - p) > 6 + cn &&
               memcmp (p + 6, L->class_name, cn) == 0 && (p[6 + cn] == '(' || p[6 + cn] == ':'))
        in_class = p;
      else if (in_class != NULL && (starts (p, e, "    def forward(")))
        return p;
      p = e;
    }
  unsupported (L, NULL, "no forward of the traced class");
}

static void
bind (Lean    *L,
      uint32_t sym,
      Slot     v)
{
  L->syms[sym].bound = v;
}

/* The tokenizer alone over the forward (BENCH_LEAN_TOKENS set): what tokenizing
 * costs of tokenize+evaluate.  Names are interned as they are in the run. */
static inline uint64_t
tok_mix (uint64_t   h,
         const Tok *t)
{
  uint64_t v = t->kind == T_INT ? (uint64_t) t->i : t->kind == T_OP ? t->op
                                                                    : t->sym;
  return (h ^ ((uint64_t) t->kind << 56 | v) ^ (uint64_t) (uintptr_t) t->at) *
         0x9E3779B97F4A7C15ull;
}

static Tok   *tok_buf; /* the tokenizer-only passes' tokens */
static size_t tok_cap;

static inline Tok *
tok_slot (uint64_t n)
{
  if (n >= tok_cap)
    tok_buf = grow (tok_buf, &tok_cap, n + 1, sizeof (Tok));
  return &tok_buf[n];
}

static uint64_t
tok_checksum (uint64_t n)
{
  uint64_t h = 0;

  for (uint64_t i = 0; i < n; i++)
    h = tok_mix (h, &tok_buf[i]);
  return h;
}

static NOINLINE uint64_t
lean_tokenize_only (Lean *L)
{
  Ev       ev = { L, { 0 } };
  uint64_t n = 0;

  L->p = find_forward (L);
  L->end = L->src + L->len;
  for (;;)
    {
      while (*L->p == ' ')
        L->p++;
      advance (&ev);
      if (ev.tok.kind == T_EOF)
        break;
      *tok_slot (n++) = ev.tok;
    }
  L->depth = 0;
  return n;
}

/* The same token stream, classified 64 bytes at a time with SSE2 (x86-64's
 * baseline): a mask of identifier bytes and one of blanks per block; token
 * starts are the identifier runs' first bytes and every other byte that is not
 * a blank; a run's end is a count of trailing zeros.  Names are hashed eight
 * bytes at a time and interned as in next(); decimal ints are read in the run;
 * anything else (a float, a string, a comment, a tab, a two-byte operator)
 * goes to next_slow() at that byte and the block starts again after it.  Input
 * buffers are padded by 64 bytes (read_all()). */
static inline void
block_masks (const char *b,
             uint64_t   *ident,
             uint64_t   *blank)
{
  uint64_t id = 0, bl = 0;

  for (int k = 0; k < 4; k++)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (const void *) (b + 16 * k));
      __m128i lower = _mm_or_si128 (v, _mm_set1_epi8 (0x20));
      __m128i alpha = _mm_cmplt_epi8 (_mm_add_epi8 (lower, _mm_set1_epi8 ((char) (0x80 - 'a'))),
                                      _mm_set1_epi8 ((char) (-128 + 26)));
      __m128i digit = _mm_cmplt_epi8 (_mm_add_epi8 (v, _mm_set1_epi8 ((char) (0x80 - '0'))),
                                      _mm_set1_epi8 ((char) (-128 + 10)));
      __m128i under = _mm_cmpeq_epi8 (v, _mm_set1_epi8 ('_'));
      __m128i space = _mm_cmpeq_epi8 (v, _mm_set1_epi8 (' '));
      id |= (uint64_t) (uint16_t) _mm_movemask_epi8 (_mm_or_si128 (_mm_or_si128 (alpha, digit),
                                                                   under))
            << 16 * k;
      bl |= (uint64_t) (uint16_t) _mm_movemask_epi8 (space) << 16 * k;
    }
  *ident = id;
  *blank = bl;
}

#define TOK_EMIT()         \
  do                       \
    {                      \
      if (mode == 2)       \
        *tok_slot (n) = t; \
      n++;                 \
    }                      \
  while (0)

/* @mode: 0 scans (tokens classified and counted, names neither hashed nor
 * interned), 1 interns names too, 2 also writes the token records. */
static inline __attribute__ ((always_inline)) uint64_t
tokenize_simd (Lean *L,
               int   mode)
{
  const char *p = find_forward (L), *end = L->src + L->len;
  uint64_t    n = 0;
  Tok         t = { 0 };

  L->end = end;
  L->depth = 0;
  while (p < end)
    {
      const char *base = p;
      uint64_t    ident, blank;
      block_masks (base, &ident, &blank);
      uint64_t    starts = ((ident & ~(ident << 1)) | ~(ident | blank));
      const char *resume = base + 64;
      while (starts != 0)
        {
          unsigned    i = (unsigned) __builtin_ctzll (starts);
          const char *q = base + i;
          starts &= starts - 1;
          if (q >= end)
            {
              resume = end;
              break;
            }
          uint8_t c = (uint8_t) *q;
          t.at = q;
          if ((ident >> i) & 1)
            {
              uint64_t    rest = ~ident >> i;
              const char *e;
              if (LIKELY (rest != 0))
                e = q + __builtin_ctzll (rest);
              else
                for (e = base + 64; ident_byte[(uint8_t) *e]; e++)
                  ;
              if (c >= 'A') /* a letter or `_`: a name */
                {
                  t.kind = T_NAME;
                  uint32_t len = (uint32_t) (e - q);
                  if (mode >= 1)
                    t.sym = intern_fast (L, q, len,
                                         len <= 8 ? hash_short (q, len) : hash_text (q, len));
                }
              else
                {
                  int64_t     v = 0;
                  const char *d = q;
                  while (d < e && (uint8_t) (*d - '0') < 10)
                    v = v * 10 + (*d++ - '0');
                  if (d != e || e - q > 18 || *e == '.' || (c == '0' && e - q > 1))
                    goto slow; /* a float, an exponent, a bad literal */
                  t.kind = T_INT;
                  t.i = v;
                }
              if (e >= base + 64)
                {
                  TOK_EMIT ();
                  resume = e;
                  break;
                }
            }
          else if (c == '\n')
            {
              if (L->depth != 0)
                continue;
              t.kind = T_NEWLINE;
            }
          else if (op_single[c] || (op_maybe[c] && !op_follow[(uint8_t) q[1]]))
            {
              t.kind = T_OP;
              t.op = c;
              L->depth += depth_delta[c];
            }
          else
            goto slow;
          TOK_EMIT ();
          continue;
        slow:
          L->p = q;
          next_slow (L, &t);
          if (t.kind == T_EOF)
            {
              resume = end;
              break;
            }
          TOK_EMIT ();
          resume = L->p;
          break;
        }
      p = resume;
    }
  L->depth = 0;
  return n;
}

#undef TOK_EMIT

static NOINLINE uint64_t
lean_tokenize_simd (Lean *L)
{
  return tokenize_simd (L, 2);
}

static NOINLINE uint64_t
lean_tokenize_simd_scan (Lean *L)
{
  return tokenize_simd (L, 0);
}

static NOINLINE uint64_t
lean_tokenize_simd_intern (Lean *L)
{
  return tokenize_simd (L, 1);
}

static NOINLINE uint64_t
lean_tokenize_simd_intern_again (Lean *L)
{
  return tokenize_simd (L, 1);
}

static NOINLINE void
lean_eval_forward (Lean *L)
{
  Ev          ev = { L, { 0 } };
  const char *def = find_forward (L);
  const char *def_end;

  /* the parameters */
  L->p = def + strlen ("    def forward");
  L->end = L->src + L->len;
  advance (&ev);
  expect (&ev, '(', "this def");
  while (!is_op (&ev, ')'))
    {
      if (ev.tok.kind != T_NAME)
        unsupported (L, ev.tok.at, "this parameter");
      if (L->n_params >= 64)
        unsupported (L, ev.tok.at, "more than 64 parameters");
      L->params[L->n_params++] = ev.tok.sym;
      advance (&ev);
      if (!is_op (&ev, ','))
        break;
      advance (&ev);
    }
  expect (&ev, ')', "this def");
  expect (&ev, ':', "this def");
  if (ev.tok.kind != T_NEWLINE || L->n_params == 0)
    unsupported (L, ev.tok.at, "this def");
  def_end = L->p;
  bind (L, L->params[0], (Slot){ .kind = A_SELF, .span = 1 });
  for (uint32_t i = 1; i < L->n_params; i++)
    {
      int64_t  num;
      Sym     *y = &L->syms[L->params[i]];
      uint32_t base = candidate (L, y->text, y->len, &num);
      uint32_t node = lean_node_new (L, OP_PLACEHOLDER, L->params[i], base, num, L->sp, 0, 0);
      bind (L, L->params[i], (Slot){ .kind = A_NODE, .span = 1, .a = node });
    }

  /* the body: statements at one indentation */
  const char *p = def_end;
  size_t      indent = 0;
  for (;;)
    {
      /* the indentation, eight bytes at a time (the input is padded with zeros) */
      const char *s = p;
      uint64_t    w;
      memcpy (&w, s, 8);
      while (w == 0x2020202020202020ull)
        {
          s += 8;
          memcpy (&w, s, 8);
        }
      s += __builtin_ctzll (w ^ 0x2020202020202020ull) / 8;
      if (s >= L->end)
        unsupported (L, s, "a forward without return");
      if (*s == '\n' || *s == '#')
        {
          p = line_end (s, L->end);
          continue;
        }
      if (indent == 0)
        {
          indent = (size_t) (s - p);
          if (indent <= 4)
            unsupported (L, s, "an empty forward");
        }
      if ((size_t) (s - p) != indent)
        unsupported (L, s, "this indentation");
      L->p = s;
      L->sp = 0;
      L->n_attrs = 0; /* an empty stack holds none */
      advance (&ev);
      if (ev.tok.kind == T_NAME && ev.tok.sym == L->sym_return)
        {
          advance (&ev);
          expr (&ev);
          if (ev.tok.kind != T_NEWLINE && ev.tok.kind != T_EOF)
            unsupported (L, ev.tok.at, "this return");
          uint32_t node = lean_node_new (L, OP_OUTPUT, 0, L->sym_output, -1, 0, L->sp, 0);
          (void) node;
          return;
        }
      if (ev.tok.kind != T_NAME)
        unsupported (L, ev.tok.at, "this statement");
      uint32_t target = ev.tok.sym;
      advance (&ev);
      if (!is_op (&ev, '='))
        unsupported (L, ev.tok.at, "this statement");
      advance (&ev);
      expr (&ev);
      if (ev.tok.kind != T_NEWLINE)
        unsupported (L, ev.tok.at, "this statement");
      if (L->sp != 1 || L->stack[0].span != 1 || L->stack[0].kind == A_ATTR)
        unsupported (L, s, "assigning this value");
      bind (L, target, L->stack[0]);
      p = L->p;
    }
}

/* ---- code ---- */

static inline void
out_reserve (Lean  *L,
             size_t n)
{
  if (L->n_out + n > L->cap_out)
    L->out = grow (L->out, &L->cap_out, L->n_out + n, 1);
}

/* Unchecked: lean_codegen() reserves room for each node's line before writing it
 * (SLOT_ROOM a slot); only texts of unbounded length go through out_put_long(). */
static inline void
out_put (Lean       *L,
         const char *s,
         size_t      n)
{
  char *o = L->out + L->n_out;

  if (LIKELY (n <= 16))
    {
      /* every source here is readable 16 bytes on (padded buffers, literals) */
      uint64_t x, y;
      memcpy (&x, s, 8);
      memcpy (&y, s + 8, 8);
      memcpy (o, &x, 8);
      memcpy (o + 8, &y, 8);
    }
  else
    memcpy (o, s, n);
  L->n_out += n;
}

static void
out_put_long (Lean       *L,
              const char *s,
              size_t      n)
{
  out_reserve (L, n + L->line_room);
  out_put (L, s, n);
}

#define SLOT_ROOM 288

/* A literal: its length is a constant, so memcpy is a move or two. */
#define OUT_LIT(L, s)                                    \
  do                                                     \
    {                                                    \
      memcpy ((L)->out + (L)->n_out, s, sizeof (s) - 1); \
      (L)->n_out += sizeof (s) - 1;                      \
    }                                                    \
  while (0)

static inline void
out_name (Lean    *L,
          uint32_t node)
{
  Node *n = &L->nodes[node];
  out_put (L, L->names + n->name, n->name_len);
}

/* An argument's name; the node is noted for the line's frees if this is its last
 * use (once: `stamp`).  Arguments are written in slot order, the frees' order. */
static inline void
out_arg_name (Lean    *L,
              uint32_t x)
{
  uint32_t id = L->line_id;

  out_name (L, x);
  if (L->nodes[x].last_use == id + 1 && L->stamp[x] != id + 1)
    {
      L->stamp[x] = id + 1;
      L->frees[L->n_frees++] = x;
    }
}

static uint32_t out_repr_slow (Lean *L, const Slot *s);

/* torch's _get_repr of one slot tree; returns the slots it took.  Inline for
 * the two commonest slots (a node, a one-digit int), out of line for the rest. */
static inline uint32_t
out_repr (Lean       *L,
          const Slot *s)
{
  if (LIKELY (s->kind == A_NODE))
    {
      out_arg_name (L, s->a);
      return 1;
    }
  if (s->kind == A_INT && (uint64_t) s->i < 10)
    {
      L->out[L->n_out++] = (char) ('0' + s->i);
      return 1;
    }
  return out_repr_slow (L, s);
}

static NOINLINE uint32_t
out_repr_slow (Lean       *L,
               const Slot *s)
{
  switch (s->kind)
    {
    case A_NODE:
      out_arg_name (L, s->a);
      return 1;
    case A_INT:
      {
        out_reserve (L, 24);
        char *o = L->out + L->n_out;
        if (s->i < 0)
          *o++ = '-';
        o = put_uint (o, s->i < 0 ? (uint64_t) -s->i : (uint64_t) s->i);
        L->n_out = o - L->out;
        return 1;
      }
    case A_FLOAT:
      out_put (L, L->syms[s->a].float_repr, L->syms[s->a].float_repr_len);
      return 1;
    case A_NONE:
      OUT_LIT (L, "None");
      return 1;
    case A_TRUE:
      OUT_LIT (L, "True");
      return 1;
    case A_FALSE:
      OUT_LIT (L, "False");
      return 1;
    case A_STR:
      OUT_LIT (L, "'");
      out_put_long (L, L->syms[s->a].text, L->syms[s->a].len);
      OUT_LIT (L, "'");
      return 1;
    case A_RAW:
      out_put_long (L, s->p, strlen (s->p));
      return 1;
    case A_LIST:
    case A_TUPLE:
      {
        uint32_t k = 1;
        L->out[L->n_out++] = s->kind == A_LIST ? '[' : '(';
        for (uint32_t i = 0; i < s->a; i++)
          {
            if (i)
              OUT_LIT (L, ", ");
            k += out_repr (L, s + k);
          }
        if (s->kind == A_TUPLE && s->a == 1)
          OUT_LIT (L, ",");
        L->out[L->n_out++] = s->kind == A_LIST ? ']' : ')';
        return s->span;
      }
    case A_SLICE:
      {
        uint32_t k = 1;
        OUT_LIT (L, "slice(");
        k += out_repr (L, s + k);
        OUT_LIT (L, ", ");
        k += out_repr (L, s + k);
        OUT_LIT (L, ", ");
        k += out_repr (L, s + k);
        OUT_LIT (L, ")");
        return s->span;
      }
    default:
      abort ();
    }
}

/* `a, b, k = v` of the node's arguments from slot @from. */
static void
out_args (Lean       *L,
          const Node *n,
          uint32_t    from)
{
  const Slot *a = L->pool + n->args;
  uint32_t    i = from, end = n->n_args + n->n_kw;
  int         first = 1;

  while (i < end)
    {
      if (!first)
        OUT_LIT (L, ", ");
      first = 0;
      if (a[i].kind == A_KW)
        {
          const Sym *k = &L->syms[a[i].a];
          if (LIKELY (k->len <= 16))
            out_put (L, k->text, k->len);
          else
            out_put_long (L, k->text, k->len);
          OUT_LIT (L, " = ");
          i++;
        }
      if (LIKELY (a[i].kind == A_NODE))
        {
          out_arg_name (L, a[i].a);
          i++;
        }
      else
        i += out_repr (L, a + i);
    }
}

static NOINLINE void
lean_codegen (Lean *L)
{
  L->line_room = 4096;
  out_reserve (L, 64 * (size_t) L->n_nodes + 4096);
  OUT_LIT (L, "def forward(");
  for (uint32_t i = 0; i < L->n_params; i++)
    {
      Sym *y = &L->syms[L->params[i]];
      if (i)
        OUT_LIT (L, ", ");
      out_put_long (L, y->text, y->len);
    }
  OUT_LIT (L, "):\n");
  for (uint32_t id = 0; id < L->n_nodes; id++)
    {
      Node       *n = &L->nodes[id];
      const Slot *a = L->pool + n->args;

      /* the line: its name, its callee, its arguments and the frees, each at most
       * a name (255 bytes) and separators; callee texts are short */
      L->line_room = 1024 + 2 * SLOT_ROOM * ((size_t) n->n_args + n->n_kw);
      out_reserve (L, L->line_room);
      L->line_id = id;
      L->n_frees = 0;
      if (n->n_args + n->n_kw > 64) /* more frees than frees[] holds: the walk below */
        L->line_id = UINT32_MAX - 1;
      switch (n->op)
        {
        case OP_PLACEHOLDER:
          {
            Sym *y = &L->syms[n->target];
            if (y->len != n->name_len || memcmp (y->text, L->names + n->name, y->len) != 0)
              {
                OUT_LIT (L, "    ");
                out_name (L, id);
                OUT_LIT (L, " = ");
                out_put_long (L, y->text, y->len);
                OUT_LIT (L, "\n");
              }
            continue;
          }
        case OP_OUTPUT:
          OUT_LIT (L, "    return ");
          out_repr (L, a);
          OUT_LIT (L, "\n");
          continue;
        default:
          break;
        }
      OUT_LIT (L, "    ");
      out_name (L, id);
      OUT_LIT (L, " = ");
      switch (n->op)
        {
        case OP_GET_ATTR:
          out_put_long (L, L->paths[n->target].code, L->paths[n->target].code_len);
          break;
        case OP_CALL_MODULE:
          out_put_long (L, L->paths[n->target].code, L->paths[n->target].code_len);
          OUT_LIT (L, "(");
          out_args (L, n, 0);
          OUT_LIT (L, ")");
          break;
        case OP_CALL_METHOD:
          out_repr (L, a);
          OUT_LIT (L, ".");
          out_put_long (L, L->syms[n->target].text, L->syms[n->target].len);
          OUT_LIT (L, "(");
          out_args (L, n, 1);
          OUT_LIT (L, ")");
          break;
        case OP_CALL_FUNCTION:
          {
            Callee *c = &L->callees[n->target];
            switch (c->form)
              {
              case F_BINARY:
                out_repr (L, a);
                out_put (L, c->text, c->text_len);
                out_repr (L, a + 1);
                break;
              case F_UNARY:
                out_put (L, c->text, c->text_len);
                out_repr (L, a);
                break;
              case F_GETITEM:
                {
                  uint32_t k = out_repr (L, a);
                  OUT_LIT (L, "[");
                  out_repr (L, a + k);
                  OUT_LIT (L, "]");
                  break;
                }
              case F_GETATTR:
                out_repr (L, a);
                OUT_LIT (L, ".");
                out_put_long (L, L->syms[a[1].a].text, L->syms[a[1].a].len);
                break;
              default:
                out_put (L, c->text, c->text_len);
                OUT_LIT (L, "(");
                out_args (L, n, 0);
                OUT_LIT (L, ")");
              }
            break;
          }
        default:
          abort ();
        }
      /* the frees: arguments whose last use this is, in argument order, then the node
       * itself if nothing uses it */
      int any = 0;
      for (uint32_t k = 0; k < L->n_frees; k++)
        {
          memcpy (L->out + L->n_out, any ? " = " : ";  ", 3), L->n_out += 3;
          out_name (L, L->frees[k]);
          any = 1;
        }
      for (uint32_t i = 0; L->line_id != id && i < (uint32_t) n->n_args + n->n_kw; i++)
        if (a[i].kind == A_NODE)
          {
            uint32_t x = a[i].a;
            if (L->nodes[x].last_use == id + 1 && L->stamp[x] != id + 1)
              {
                L->stamp[x] = id + 1;
                memcpy (L->out + L->n_out, any ? " = " : ";  ", 3), L->n_out += 3;
                out_name (L, x);
                any = 1;
              }
          }
      if (!n->has_users)
        {
          memcpy (L->out + L->n_out, any ? " = " : ";  ", 3), L->n_out += 3;
          out_name (L, id);
          any = 1;
        }
      if (any)
        OUT_LIT (L, " = None\n");
      else
        OUT_LIT (L, "\n");
    }
}

/* ---- set-up ---- */

static uint32_t
add_callee (Lean       *L,
            const char *text,
            int         form,
            const char *base)
{
  if (L->n_callees + 1 > L->cap_callees)
    {
      size_t cap = L->cap_callees;
      L->callees = grow (L->callees, &cap, L->n_callees + 1, sizeof (Callee));
      L->cap_callees = cap;
    }
  Callee *c = &L->callees[L->n_callees];
  c->text_len = (uint32_t) strlen (text);
  c->text = dup_text (text, c->text_len); /* padded: out_put() */
  c->form = (uint8_t) form;
  c->base = candidate (L, base, strlen (base), &c->num);
  return ++L->n_callees;
}

/* The structure: `class NAME`, then `module PATH` (a leaf) and `param PATH` lines. */
static void
read_structure (Lean       *L,
                const char *text)
{
  L->paths = calloc (1, sizeof (Path));
  L->n_paths = 1;
  for (const char *p = text; *p;)
    {
      const char *e = strchr (p, '\n');
      size_t      n = e ? (size_t) (e - p) : strlen (p);
      int         kind = -1;
      const char *path = NULL;
      if (n > 6 && memcmp (p, "class ", 6) == 0)
        snprintf (L->class_name, sizeof L->class_name, "%.*s", (int) (n - 6), p + 6);
      else if (n > 7 && memcmp (p, "module ", 7) == 0)
        kind = P_LEAF, path = p + 7;
      else if (n > 6 && memcmp (p, "param ", 6) == 0)
        kind = P_PARAM, path = p + 6;
      if (kind >= 0)
        {
          size_t   len = n - (path - p);
          uint32_t parent = 0;
          for (size_t i = 0; i <= len; i++)
            if (i == len || path[i] == '.')
              {
                size_t s = 0;
                for (size_t j = i; j > 0; j--)
                  if (path[j - 1] == '.')
                    {
                      s = j;
                      break;
                    }
                uint32_t sym = intern (L, path + s, i - s);
                uint32_t child = path_child (L, parent, sym);
                if (child == 0)
                  {
                    L->paths = realloc (L->paths, (L->n_paths + 1) * sizeof (Path));
                    Path *pa = &L->paths[L->n_paths];
                    memset (pa, 0, sizeof *pa);
                    pa->path = dup_text (path, i);
                    pa->len = (uint32_t) i;
                    pa->kind = P_CONTAINER;
                    pa->parent = parent;
                    pa->sym = sym;
                    child = L->n_paths++;
                  }
                if (i == len)
                  L->paths[child].kind = (uint8_t) kind;
                parent = child;
              }
        }
      p += n + (e != NULL);
    }
  /* code forms (torch's _format_target) and name candidates */
  for (uint32_t i = 1; i < L->n_paths; i++)
    {
      Path       *pa = &L->paths[i];
      char        code[1024] = "self";
      size_t      k = 4;
      const char *q = pa->path;
      while (*q && k < sizeof code - 300)
        {
          size_t n = strcspn (q, ".");
          int    ident = !(q[0] >= '0' && q[0] <= '9');
          if (ident)
            k += (size_t) snprintf (code + k, sizeof code - k, ".%.*s", (int) n, q);
          else
            {
              char inner[1024];
              snprintf (inner, sizeof inner, "getattr(%.*s, \"%.*s\")", (int) k, code, (int) n, q);
              k = (size_t) snprintf (code, sizeof code, "%s", inner);
            }
          q += n + (q[n] == '.');
        }
      pa->code = (char *) dup_text (code, k);
      pa->code_len = (uint32_t) k;
      pa->base = candidate (L, pa->path, pa->len, &pa->num);
    }
}

static void
lean_init (Lean       *L,
           const char *file,
           const char *src,
           size_t      len,
           const char *structure)
{
  memset (L, 0, sizeof *L);
  L->file = file;
  L->src = src;
  L->len = len;
  L->sym_mask = 4095;
  while (L->sym_mask < len / 24)
    L->sym_mask = L->sym_mask * 2 + 1;
  L->sym_table = calloc (L->sym_mask + 1, sizeof (uint64_t));
  L->cap_syms = L->sym_mask / 2 + 2;
  L->syms = malloc (L->cap_syms * sizeof (Sym));
  L->cap_nodes = len / 24 + 64;
  L->nodes = malloc (L->cap_nodes * sizeof (Node));
  L->cap_pool = len / 12 + 64;
  L->pool = malloc (L->cap_pool * sizeof (Slot));
  L->cap_names = len / 2 + 64;
  L->names = malloc (L->cap_names);
  L->cap_stack = 4096;
  L->stack = malloc (L->cap_stack * sizeof (Slot));
  L->py_records = calloc (N_FX, sizeof (void *));
  L->attr_mask = 1023;
  L->attr_keys = calloc (L->attr_mask + 1, sizeof (uint64_t));
  L->attr_vals = calloc (L->attr_mask + 1, sizeof (Slot));
  L->sym_torch = intern (L, "torch", 5);
  L->sym_return = intern (L, "return", 6);
  L->sym_output = intern (L, "output", 6);
  L->syms[intern (L, "None", 4)].bound = (Slot){ .kind = A_NONE, .span = 1 };
  L->syms[intern (L, "True", 4)].bound = (Slot){ .kind = A_TRUE, .span = 1 };
  L->syms[intern (L, "False", 5)].bound = (Slot){ .kind = A_FALSE, .span = 1 };
  L->syms[intern (L, "getattr", 7)].bound = (Slot){ .kind = A_GETATTR, .span = 1 };
  static const char *const ops[][2] = {
    { " + ", "add" },
    { " - ", "sub" },
    { " * ", "mul" },
    { " / ", "truediv" },
    { " // ", "floordiv" },
    { " % ", "mod" },
    { " @ ", "matmul" },
    { " ** ", "pow" },
  };
  L->op_callee[F_GETITEM] = add_callee (L, "", F_GETITEM, "getitem") - 1;
  L->op_callee[F_GETATTR] = add_callee (L, "", F_GETATTR, "getattr") - 1;
  L->op_callee[F_UNARY] = add_callee (L, "-", F_UNARY, "neg") - 1;
  for (int k = 0; k < 8; k++)
    L->op_callee[8 + k] = add_callee (L, ops[k][0], F_BINARY, ops[k][1]);
  read_structure (L, structure);
}

/* What a run allocated, for --check, which runs many in one process (the lean
 * process itself leaves it to exit). */
static void
lean_free (Lean *L)
{
  for (uint32_t k = 1; k <= L->n_syms; k++)
    free (L->syms[k].used);
  for (size_t i = 0; i < N_FX; i++)
    free (L->py_records[i]);
  for (size_t i = 0; i < n_texts; i++)
    free (texts[i]);
  n_texts = 0;
  free (L->syms);
  free (L->sym_table);
  free (L->nodes);
  free (L->pool);
  free (L->stack);
  free (L->names);
  free (L->callees);
  free (L->paths);
  free (L->attr_keys);
  free (L->attr_vals);
  free (L->stamp);
  free (L->out);
  free (L->py_records);
  free (L);
  free (tok_buf);
  tok_buf = NULL;
  tok_cap = 0;
}

/* Runs the pipeline on @src; returns the code (malloc'd) or NULL with @error set;
 * @keep (if not NULL): the run, for lean_free(). */
static char *
lean_run (Lean      **keep,
          const char *file,
          const char *src,
          size_t      len,
          const char *structure,
          size_t     *out_len,
          char       *error,
          size_t      error_size)
{
  Lean *L = calloc (1, sizeof (Lean));

  if (keep != NULL)
    *keep = L;
  lean_init (L, file, src, len, structure);
  if (setjmp (fail_jump) != 0)
    {
      snprintf (error, error_size, "%s", L->error);
      return NULL;
    }
  if (getenv ("BENCH_LEAN_TOKENS") != NULL)
    {
      /* BENCH_LEAN_TOKENS=scalar or =simd: that pass alone (each run first pays for
       * making the symbols); any other value: both, their token streams compared */
      const char *which = getenv ("BENCH_LEAN_TOKENS");
      if (strcmp (which, "steps") == 0)
        {
          /* the SSE2 pass by steps, each a function of its own for callgrind: scan
           * only; interning (the symbols made); interning again (all found); and
           * the whole pass, token records written */
          uint64_t a = lean_tokenize_simd_scan (L), b = lean_tokenize_simd_intern (L);
          uint64_t c = lean_tokenize_simd_intern_again (L), d = lean_tokenize_simd (L);
          fprintf (stderr,
                   "tokens scan=%" G_GUINT64_FORMAT " intern=%" G_GUINT64_FORMAT
                   " again=%" G_GUINT64_FORMAT " whole=%" G_GUINT64_FORMAT "\n",
                   a, b, c, d);
        }
      else if (strcmp (which, "simd") == 0)
        fprintf (stderr, "simd tokens=%" G_GUINT64_FORMAT "\n", lean_tokenize_simd (L));
      else if (strcmp (which, "scalar") == 0)
        fprintf (stderr, "tokens=%" G_GUINT64_FORMAT "\n", lean_tokenize_only (L));
      else
        {
          uint64_t n = lean_tokenize_only (L), sum = tok_checksum (n);
          uint64_t m = lean_tokenize_simd (L), sum2 = tok_checksum (m);
          fprintf (stderr, "tokens=%" G_GUINT64_FORMAT " simd tokens=%" G_GUINT64_FORMAT " %s\n",
                   n, m, n == m && sum == sum2 ? "same stream" : "DIFFERENT");
        }
    }
  lean_eval_forward (L);
  L->stamp = calloc (L->n_nodes + 1, sizeof (uint32_t));
  lean_codegen (L);
  *out_len = L->n_out;
  if (getenv ("BENCH_LEAN_RSS") != NULL)
    fprintf (stderr,
             "nodes=%u node_bytes=%zu pool_slots=%zu slot_bytes=%zu names_bytes=%zu syms=%u "
             "sym_bytes=%zu out_bytes=%zu\n",
             L->n_nodes, sizeof (Node), L->n_pool, sizeof (Slot), L->n_names, L->n_syms,
             sizeof (Sym), L->n_out);
  return L->out; /* the rest is the process's: a short-lived run frees nothing */
}

/* ---- the modes ---- */

static char *
read_all (const char *path,
          size_t     *len)
{
  int         fd = open (path, O_RDONLY);
  struct stat st;
  char       *buf;

  if (fd < 0 || fstat (fd, &st) != 0)
    {
      fprintf (stderr, "%s: %s\n", path, strerror (errno));
      exit (2);
    }
  buf = malloc ((size_t) st.st_size + 64); /* padded: the tokenizer reads ahead */
  size_t got = 0;
  while (got < (size_t) st.st_size)
    {
      ssize_t r = read (fd, buf + got, (size_t) st.st_size - got);
      if (r <= 0)
        {
          fprintf (stderr, "%s: cannot read\n", path);
          exit (2);
        }
      got += (size_t) r;
    }
  close (fd);
  memset (buf + got, 0, 64);
  *len = got;
  return buf;
}

static int
write_all (int         fd,
           const char *s,
           size_t      n)
{
  while (n > 0)
    {
      ssize_t w = write (fd, s, n);
      if (w <= 0)
        return -1;
      s += w;
      n -= (size_t) w;
    }
  return 0;
}

/* Graft's trace of @path: its structure text and its code (what `graft code` prints). */
static GString *
graft_reference (const char *path,
                 GString   **code)
{
  g_autoptr (GError) error = NULL;
  GraftSource *source = graft_input_read_file (path, &error);
  GraftGraph  *graph;
  GString     *s = g_string_new (NULL);

  if (source == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      exit (2);
    }
  graph = graft_input_load_graph (source, graft_dialect_get (GRAFT_TORCH_2_6), NULL, &error);
  if (graph == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      exit (2);
    }
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_string_append_printf (s, "class %s\n", graft_graph_get_module_name (graph));
  for (GraftNode *n = graft_graph_get_first (graph); n != NULL; n = graft_node_get_next (n))
    {
      GraftOp op = graft_node_get_op (n);
      if ((op != GRAFT_OP_CALL_MODULE && op != GRAFT_OP_GET_ATTR) ||
          !g_hash_table_add (seen, (gpointer) graft_node_get_target (n)))
        continue;
      g_string_append_printf (s, "%s %s\n", op == GRAFT_OP_CALL_MODULE ? "module" : "param",
                              graft_node_get_target (n));
    }
  if (code != NULL)
    {
      /* as `graft code` writes it (graft_cli_emit_text): stripped, one line end */
      GString *text = graft_codegen_module_code_string (graph);
      gsize    start = 0, end = text->len;
      while (start < end && g_ascii_isspace (text->str[start]))
        start++;
      while (end > start && g_ascii_isspace (text->str[end - 1]))
        end--;
      *code = g_string_new_len (text->str + start, end - start);
      g_string_append_c (*code, '\n');
      g_string_free (text, TRUE);
    }
  graft_graph_free (graph);
  graft_source_unref (source);
  return s;
}

static int
check (int    argc,
       char **argv)
{
  int failures = 0;

  for (size_t i = 1; i < N_FX; i++)
    if (strcmp (fx_entries[i - 1].path, fx_entries[i].path) >= 0)
      {
        printf ("the fx table is not sorted at %s\n", fx_entries[i].path);
        return 1;
      }
  for (int i = 0; i < argc; i++)
    {
      GString *code = NULL;
      GString *structure = graft_reference (argv[i], &code);
      size_t   len, out_len = 0;
      char    *src = read_all (argv[i], &len);
      char     error[600];
      Lean    *run = NULL;
      char    *out =
          lean_run (&run, argv[i], src, len, structure->str, &out_len, error, sizeof error);

      if (out == NULL)
        {
          printf ("%s: FAIL %s\n", argv[i], error);
          failures++;
        }
      else if (out_len != code->len || memcmp (out, code->str, out_len) != 0)
        {
          size_t k = 0, line = 1;
          while (k < out_len && k < code->len && out[k] == code->str[k])
            line += out[k++] == '\n';
          printf ("%s: MISMATCH at line %zu (lean %zu bytes, graft %zu)\n", argv[i], line,
                  out_len, code->len);
          failures++;
        }
      else
        printf ("%s: same (%zu bytes)\n", argv[i], out_len);
      g_string_free (code, TRUE);
      g_string_free (structure, TRUE);
      lean_free (run);
      free (src);
    }
  return failures != 0;
}

int
main (int    argc,
      char **argv)
{
  init_classes ();
  if (argc >= 3 && strcmp (argv[1], "--check") == 0)
    return check (argc - 2, argv + 2);
  if (argc == 3 && strcmp (argv[1], "--structure") == 0)
    {
      GString *s = graft_reference (argv[2], NULL);
      fputs (s->str, stdout);
      g_string_free (s, TRUE);
      return 0;
    }
  if (argc != 3 && !(argc == 5 && strcmp (argv[3], "-o") == 0))
    {
      fprintf (stderr, "usage: bench-lean FILE STRUCT [-o OUT] | --structure FILE | "
                       "--check FILE...\n");
      return 2;
    }
  size_t len, slen, out_len = 0;
  /* the heap the `graft` CLI runs on (huge pages): infrastructure, not semantics */
  graft_heap_prepare_huge_pages ();
  char *src = read_all (argv[1], &len);
  char *structure = read_all (argv[2], &slen);
  char  error[600];
  char *out = lean_run (NULL, argv[1], src, len, structure, &out_len, error, sizeof error);
  free (structure); /* read_structure() kept copies */
  if (out == NULL)
    {
      fprintf (stderr, "%s\n", error);
      return 3;
    }
  if (argc == 5)
    {
      /* as graft writes a file: a temporary beside it, flushed, renamed over it */
      char tmp[4096];
      snprintf (tmp, sizeof tmp, "%s.XXXXXX", argv[4]);
      int fd = mkstemp (tmp);
      if (fd < 0 || write_all (fd, out, out_len) != 0 || fsync (fd) != 0 ||
          fchmod (fd, 0644) != 0 || close (fd) != 0 || rename (tmp, argv[4]) != 0)
        {
          fprintf (stderr, "%s: %s\n", argv[4], strerror (errno));
          unlink (tmp);
          return 2;
        }
    }
  else if (write_all (1, out, out_len) != 0)
    return 2;
  if (g_getenv ("BENCH_LEAN_RSS") != NULL)
    {
      struct rusage ru;
      getrusage (RUSAGE_SELF, &ru);
      fprintf (stderr, "maxrss_kb=%ld\n", ru.ru_maxrss);
    }
  return 0;
}
