#!/usr/bin/python3
"""gen-aten-schema.py: write core/ir/graft-aten-schema.inc, the aten operator schemas.

Run with torch 2.6's Python (the table is torch 2.6's; torch 2.6's matcher is
the one that reads schemas):

    /work/shared/tools/torch26 python3 tests/tools/gen-aten-schema.py \\
        -o core/ir/graft-aten-schema.inc [--verbose]

Which operators: every OpOverload `torch.ops.aten.NAME.OVERLOAD` that torch
can resolve, found from the union of the operator names that the dispatcher
(torch._C._dispatch_get_all_op_names) and TorchScript
(torch._C._jit_get_all_schemas) know, each resolved through its packet
`torch.ops.aten.NAME` and `packet.overloads()` ("default" is the overload
whose schema has no overload name).  For each, read from `overload._schema`:

  arguments  in order: the name; the type text as str(schema) prints it
             (`Tensor(a!)`, `int[2]`, `ScalarType?`); kwarg_only; and when
             has_default_value(), repr(default_value), the Python value that
             torch.fx's matcher uses (`1`, `None`, `False`, `[0, 0]`, `'mean'`;
             note that it is not always the schema's own text: `int[2]
             padding=0` has the default [0, 0]);
  returns    the type text and the name ('' when unnamed);
  flags      is_vararg / is_varret (`aten::format(str self, ...) -> str`), and
             is_mutable: some argument is written to (`Tensor(a!) self`, an `out=`
             tensor), which makes torch 2.6's `Node.is_impure` keep a call of the
             overload that nothing uses (`torch.ops.aten.add_.Tensor`).

The operators of the other namespaces (`prims`, `quantized`, `inductor`, ...) are not
described, but `Node.is_impure` asks every OpOverload's schema, so the ones whose schema is
mutable are listed by target (`prims.copy_to.default`).  Which namespaces exist depends on
what has been imported: these are the ones `import torch` registers (what a model traced
by torch.fx sees; importing torchvision adds none that is mutable).

The type texts come from splitting str(schema) at its top-level commas; each
piece is checked against the Argument's name, kwarg_only and position.
Nothing is copied from torch's sources; the script only asks torch.

Output: sorted by target (`add.Tensor` < `add.out` by byte order),
deterministic, strings pooled once.  The summary goes to stderr.
"""
import argparse
import sys

import torch

from schematext import matching_paren, split_top


def op_names(namespace):
    """The operator names (without overload) of `namespace`, or of every other
    namespace as (namespace, name) pairs when `namespace` is None."""
    names = set()
    qualified = [n.partition(".")[0] for n in torch._C._dispatch_get_all_op_names()]
    qualified += [s.name for s in torch._C._jit_get_all_schemas()]
    for n in qualified:
        ns, sep, name = n.partition("::")
        if not sep:
            continue
        if namespace is None and ns != "aten":
            names.add((ns, name))
        elif ns == namespace:
            names.add(name)
    return sorted(names)


def mutable_elsewhere():
    """`NS.NAME.OVERLOAD` of every OpOverload outside aten whose schema is mutable."""
    targets = []
    for ns, name in op_names(None):
        try:
            packet = getattr(getattr(torch.ops, ns), name)
            overloads = packet.overloads()
        except (AttributeError, RuntimeError):
            continue
        for ov in overloads:
            if getattr(packet, ov)._schema.is_mutable:
                targets.append(f"{ns}.{name}.{ov}")
    return sorted(targets, key=lambda t: t.encode("utf-8"))


def split_decl(piece):
    """`Tensor(a!) self=None` -> ('Tensor(a!)', 'self')."""
    eq = split_top(piece, "=")
    decl = eq[0]
    depth, cut = 0, -1
    for i, c in enumerate(decl):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == " " and depth == 0:
            cut = i
    if cut < 0:
        return decl, ""
    return decl[:cut], decl[cut + 1:]


def describe(schema):
    text = str(schema)
    open_at = text.index("(")
    close_at = matching_paren(text, open_at)
    pieces = split_top(text[open_at + 1:close_at])
    ret_text = text[close_at + 1:].strip()
    assert ret_text.startswith("->"), text
    ret_text = ret_text[2:].strip()

    args, kwarg_only, vararg = [], False, False
    for piece in pieces:
        if piece == "*":
            kwarg_only = True
            continue
        if piece == "...":
            vararg = True
            continue
        ty, name = split_decl(piece)
        args.append((ty, name, kwarg_only))
    assert len(args) == len(schema.arguments), text
    out_args = []
    for (ty, name, kw), a in zip(args, schema.arguments):
        assert name == a.name and kw == a.kwarg_only, (text, name, a.name)
        default = repr(a.default_value) if a.has_default_value() else None
        out_args.append((a.name, ty, a.kwarg_only, default))

    varret = False
    if ret_text.startswith("(") and matching_paren(ret_text, 0) == len(ret_text) - 1:
        rets = split_top(ret_text[1:-1])
    else:
        rets = [ret_text]
    out_rets = []
    for r in rets:
        if r == "...":
            varret = True
            continue
        ty, name = split_decl(r)
        out_rets.append((ty, name))
    assert len(out_rets) == len(schema.returns), text
    for (ty, name), r in zip(out_rets, schema.returns):
        assert name == (r.name or ""), (text, name, r.name)
    return out_args, out_rets, vararg, varret, schema.is_mutable


def c_str(s):
    out = []
    for b in s.encode("utf-8"):
        c = chr(b)
        if c == "\\" or c == '"':
            out.append("\\" + c)
        elif 32 <= b < 127 and c != "?":
            out.append(c)
        else:
            out.append("\\%03o" % b)
    return '"' + "".join(out) + '\\0"'


class Pool:
    def __init__(self):
        self.offsets, self.texts, self.size = {}, [], 0

    def add(self, s):
        if s not in self.offsets:
            self.offsets[s] = self.size
            self.texts.append(s)
            self.size += len(s.encode("utf-8")) + 1
        return self.offsets[s]


HEADER = """\
/* graft-aten-schema.inc: the schemas of torch 2.6.0's aten operators (OpOverloads).
 *
 * GENERATED by tests/tools/gen-aten-schema.py from torch %(version)s (Debian, Python %(py)s).
 * DO NOT EDIT: change the script and run
 *     /work/shared/tools/torch26 python3 tests/tools/gen-aten-schema.py \\
 *         -o core/ir/graft-aten-schema.inc
 *
 * %(n_ops)d operators, %(n_args)d arguments (%(n_arg_rows)d distinct rows), %(n_rets)d returns
 * (%(n_ret_rows)d distinct rows), a string pool of %(pool)d bytes.
 *
 * The includer defines the macros it needs before including this file; each section is
 * inside `#ifdef MACRO`, so undefined ones are skipped (define one per inclusion, e.g. to fill
 * a static array, and #undef it afterwards).  All *_at fields are byte offsets into the pool.
 *
 *   GRAFT_ATEN_STRING_POOL
 *     not a macro but a switch: the section is a run of string literals, one text per line,
 *     each ending in "\\0", that the includer reads as one array (`static const char
 *     pool[] = <this section>;`).  Offset 0 is the empty string.  Each text is stored once.
 *
 *   GRAFT_ATEN_ARGUMENT (name_at, type_at, default_at, FLAGS)
 *     one distinct argument: its name (`self`), its type as the schema prints it
 *     (`Tensor(a!)`, `int[2]`, `ScalarType?`, `Scalar`), and repr(default_value) when
 *     it has a default (`1`, `None`, `False`, `[0, 0]`, `'mean'`, `1e-05`: Python's repr of
 *     the value torch gives, which is what torch.fx's matcher fills in).  FLAGS is
 *     0, or an |-combination of GRAFT_ATEN_KWARG_ONLY and GRAFT_ATEN_HAS_DEFAULT.
 *     Rows are numbered from 0 in order.
 *
 *   GRAFT_ATEN_RETURN (name_at, type_at)
 *     one distinct return: its type text and its name (offset 0, '', when unnamed).
 *
 *   GRAFT_ATEN_INDEX
 *     a switch: a run of comma-separated row numbers, the operators' argument lists and
 *     return lists (the `first_*` fields below index this run).
 *
 *   GRAFT_ATEN_OPERATOR (target_at, first_arg, n_args, first_ret, n_rets, FLAGS)
 *     one OpOverload: target is `NAME.OVERLOAD` as in `torch.ops.aten.NAME.OVERLOAD`
 *     (`add.Tensor`, `relu.default`); its arguments are the argument rows
 *     index[first_arg .. first_arg + n_args - 1], its returns the return rows
 *     index[first_ret .. first_ret + n_rets - 1].  FLAGS is 0, or an |-combination of
 *     GRAFT_ATEN_VARARG (`...` among the arguments), GRAFT_ATEN_VARRET and
 *     GRAFT_ATEN_MUTABLE (`schema.is_mutable`: an argument is written to, `Tensor(a!)`).
 *     Lines are sorted by target (byte order), so a lookup can bisect.
 *
 *   GRAFT_ATEN_MUTABLE_ELSEWHERE (target_at)
 *     an OpOverload of another namespace (one that `import torch` registers) whose schema
 *     is mutable, as `NS.NAME.OVERLOAD` in `torch.ops.NS.NAME.OVERLOAD`
 *     (`prims.copy_to.default`).  %(n_elsewhere)d lines, sorted by target (byte order).
 */
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--verbose", action="store_true")
    opts = ap.parse_args()

    ops = {}
    unresolved = []
    for name in op_names("aten"):
        try:
            packet = getattr(torch.ops.aten, name)
        except (AttributeError, RuntimeError):
            unresolved.append(name)
            continue
        for ov in packet.overloads():
            overload = getattr(packet, ov)
            ops[f"{name}.{ov}"] = describe(overload._schema)

    pool = Pool()
    pool.add("")
    arg_rows, ret_rows, index, op_lines = {}, {}, [], []
    n_args = n_rets = 0
    for target in sorted(ops, key=lambda t: t.encode("utf-8")):
        args, rets, vararg, varret, mutable = ops[target]
        first_arg = len(index)
        for name, ty, kw, default in args:
            flags = []
            if kw:
                flags.append("GRAFT_ATEN_KWARG_ONLY")
            if default is not None:
                flags.append("GRAFT_ATEN_HAS_DEFAULT")
            row = (pool.add(name), pool.add(ty), pool.add(default or ""), " | ".join(flags) or "0")
            index.append(arg_rows.setdefault(row, len(arg_rows)))
        first_ret = len(index)
        for ty, name in rets:
            row = (pool.add(name), pool.add(ty))
            index.append(ret_rows.setdefault(row, len(ret_rows)))
        flags = []
        if vararg:
            flags.append("GRAFT_ATEN_VARARG")
        if varret:
            flags.append("GRAFT_ATEN_VARRET")
        if mutable:
            flags.append("GRAFT_ATEN_MUTABLE")
        op_lines.append((pool.add(target), first_arg, len(args), first_ret, len(rets),
                         " | ".join(flags) or "0"))
        n_args += len(args)
        n_rets += len(rets)
    elsewhere = [pool.add(t) for t in mutable_elsewhere()]

    out = []
    out.append(HEADER % {
        "version": torch.__version__, "py": sys.version.split()[0], "n_ops": len(op_lines),
        "n_args": n_args, "n_arg_rows": len(arg_rows), "n_rets": n_rets,
        "n_ret_rows": len(ret_rows), "pool": pool.size, "n_elsewhere": len(elsewhere)})
    out.append("#ifdef GRAFT_ATEN_STRING_POOL")
    out.extend(c_str(t) for t in pool.texts)
    out.append("#endif\n")
    out.append("#ifdef GRAFT_ATEN_ARGUMENT")
    for row in sorted(arg_rows, key=arg_rows.get):
        out.append("GRAFT_ATEN_ARGUMENT (%d, %d, %d, %s)" % row)
    out.append("#endif\n")
    out.append("#ifdef GRAFT_ATEN_RETURN")
    for row in sorted(ret_rows, key=ret_rows.get):
        out.append("GRAFT_ATEN_RETURN (%d, %d)" % row)
    out.append("#endif\n")
    out.append("#ifdef GRAFT_ATEN_INDEX")
    for i in range(0, len(index), 16):
        out.append(",".join(str(x) for x in index[i:i + 16]) + ",")
    out.append("#endif\n")
    out.append("#ifdef GRAFT_ATEN_OPERATOR")
    for line in op_lines:
        out.append("GRAFT_ATEN_OPERATOR (%d, %d, %d, %d, %d, %s)" % line)
    out.append("#endif\n")
    out.append("#ifdef GRAFT_ATEN_MUTABLE_ELSEWHERE")
    for at in elsewhere:
        out.append("GRAFT_ATEN_MUTABLE_ELSEWHERE (%d)" % at)
    out.append("#endif")
    text = "\n".join(out) + "\n"
    if opts.output == "-":
        sys.stdout.write(text)
    else:
        with open(opts.output, "w", encoding="utf-8") as f:
            f.write(text)
    n_mutable = sum(1 for line in op_lines if "GRAFT_ATEN_MUTABLE" in line[5])
    print(f"gen-aten-schema: {len(op_lines)} operators ({n_mutable} mutable), {n_args} arguments "
          f"({len(arg_rows)} rows), {n_rets} returns ({len(ret_rows)} rows), "
          f"{len(elsewhere)} mutable operators elsewhere, "
          f"pool {pool.size} bytes; unresolved names: {len(unresolved)}", file=sys.stderr)
    if opts.verbose and unresolved:
        print("unresolved: " + " ".join(unresolved), file=sys.stderr)


if __name__ == "__main__":
    main()
