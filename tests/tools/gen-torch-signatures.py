#!/usr/bin/python3
"""gen-torch-signatures.py: the signatures torch's Python argument parser checks C builtins by.

Run once with each torch (the output is that torch's):

    /usr/bin/python3 tests/tools/gen-torch-signatures.py -o core/trace/graft-torch-signatures-1.13.inc
    /work/shared/tools/torch26 python3 tests/tools/gen-torch-signatures.py \\
        -o core/trace/graft-torch-signatures-2.6.inc

A C builtin such as torch.flatten parses its arguments against a list of
signature strings (`flatten(Tensor input, int64_t start_dim=0, int64_t end_dim=-1)`)
compiled into libtorch_python.so before it dispatches to __torch_function__,
so it rejects a Proxy (or a wrong literal) where an int, a tuple of ints, a
dtype... is wanted.  This script finds those strings in the library (runs of
printable bytes that look like `NAME(PARAMS)`, optionally `|deprecated` or
`|hidden`; one parser's strings are consecutive) and ties each callable to its
parser by asking the callable itself: called with 40 objects of an unknown
class, a parser of several signatures prints them ("expected one of: *
(Tensor input, int start_dim = 0, ...)"), in its order and with the type
names its messages use; a parser of one signature says how many positional
arguments it takes.  A callable whose parser is not found unambiguously is
left out (the tracer then checks nothing for it).

Callables: the builtins (inspect.isbuiltin) reachable as torch.X,
torch.nn.functional.X, torch._C._nn.X, torch.linalg.X, torch.special.X and
torch.fft.X (and torch._C._linalg.X, torch._C._special.X, torch._C._fft.X,
the targets these record), by their access path.  Nothing is copied from torch's sources;
the script reads the library's strings and asks torch.
"""
import argparse, importlib.util, inspect, os, re, sys

import torch
import torch.nn.functional as F

NAMESPACES = [
    ("torch", torch),
    ("torch.nn.functional", F),
    ("torch._C._nn", torch._C._nn),
    ("torch.linalg", torch.linalg),
    ("torch.special", torch.special),
    ("torch.fft", torch.fft),
    # the targets that linalg, special and fft calls record (code calls them by these)
    ("torch._C._linalg", torch._C._linalg),
    ("torch._C._special", torch._C._special),
    ("torch._C._fft", torch._C._fft),
]
# Not called at all (global state); they are not checked.
NOT_CALLED = {"save", "load", "set_default_dtype", "set_default_tensor_type", "manual_seed",
              "seed", "set_rng_state", "use_deterministic_algorithms", "set_printoptions",
              "set_warn_always", "set_num_threads", "set_num_interop_threads",
              "set_flush_denormal", "set_anomaly_enabled", "set_autocast_enabled",
              "set_vital", "init_num_threads", "prepare_multiprocessing_environment"}

SIG_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\((.*)\)(\|hidden|\|deprecated)?$")

# The C++ parameter types and the check class the tracer applies to each.
TYPE_CLASS = [
    (r"Tensor", "TENSOR"),
    (r"Scalar", "SCALAR"),
    (r"int64_t|SymInt|DeviceIndex", "INT"),
    (r"double", "FLOAT"),
    (r"bool", "BOOL"),
    (r"c10::string_view|std::string_view|std::string", "STRING"),
    (r"(Sym)?IntArrayRef(\[\d+\])?", "INT_LIST"),
    (r"ArrayRef<double>", "FLOAT_LIST"),
    (r"TensorList(\[\d+\])?|c10::List<(c10|::std)::optional<Tensor>>", "TENSOR_LIST"),
    (r"ScalarType", "DTYPE"),
    (r"Dimname", "DIMNAME"),
    (r"DimnameList(\[\d+\])?", "DIMNAME_LIST"),
]


def strings_of(path):
    data = open(path, "rb").read()
    for m in re.finditer(rb"[\x20-\x7e]{4,}", data):
        yield m.group().decode("ascii")


def split_params(body):
    out, depth, cur = [], 0, ""
    for c in body:
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_sig(text):
    m = SIG_RE.match(text)
    name, body, flag = m.group(1), m.group(2), m.group(3)
    params, kw = [], False
    for p in split_params(body):
        if p == "*":
            kw = True
            continue
        decl, eq, default = p.partition("=")
        ty, _, pname = decl.strip().rpartition(" ")
        if not ty or not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", pname):
            return None
        params.append({"type": ty, "name": pname, "default": default if eq else None,
                       "kwarg_only": kw})
    return {"name": name, "params": params, "hidden": flag is not None, "text": text}


def signature_texts(lib):
    """Every signature text in the library, by function name.  The linker
    merges a string into the tail of a longer one (`erf(...)` lives inside
    `special_erf(...)`), so every tail that starts like a name counts."""
    by_name = {}
    for full in strings_of(lib):
        if not full.endswith((")", "|hidden", "|deprecated")) or "(" not in full:
            continue
        for i in range(len(full) - 2):
            if not (full[i].isalpha() or full[i] == "_"):
                continue
            text = full[i:]
            if SIG_RE.match(text):
                sig = parse_sig(text)
                if sig is not None:
                    seen = by_name.setdefault(sig["name"], {})
                    # whole: the text is a string of its own somewhere (not only
                    # the tail of a longer one: `sum(...dim=None...)` is only
                    # nansum's tail, `sum(...dim...)` sum's own)
                    sig["whole"] = i == 0 or seen.get(text, {}).get("whole", False)
                    seen[text] = sig
    return by_name


class Bogus:
    pass


VALID = {"TENSOR": lambda: torch.zeros(1), "INT": lambda: 0, "FLOAT": lambda: 0.0,
         "BOOL": lambda: False, "INT_LIST": lambda: [1], "DTYPE": lambda: torch.float32,
         "SCALAR": lambda: 1, "TENSOR_LIST": lambda: [torch.zeros(1)]}


def verify_single(fn, cand, type_names):
    """Whether fn's one signature is cand: for each parameter, the parser must
    complain about it by name when it alone (after valid values for those
    before it, or only it, by keyword) is an object of an unknown class."""
    params = cand["params"]
    prefix = []
    for i, p in enumerate(params):
        if p["kwarg_only"]:
            call = (prefix, {p["name"]: Bogus()})
        else:
            call = (prefix + [Bogus()], {})
        try:
            fn(*call[0], **call[1])
        except Exception as e:  # noqa: BLE001
            m = re.match(r"\w+\(\): argument '%s' (?:\(position \d+\) )?must be (.*), not Bogus$"
                         % re.escape(p["name"]), str(e))
            if m is None:
                return False
            known = type_name_of(p["type"], type_names)
            if known and known != m.group(1):
                return False
            # the parser's own name for this parameter's type, for the messages
            cand.setdefault("printed_types", {})[i] = m.group(1)
        else:
            return False
        make = VALID.get(type_class(p["type"]))
        if make is None:
            return True  # the rest cannot be reached safely; the names so far agree
        if not p["kwarg_only"]:
            prefix.append(make())
    # one more positional argument than it takes
    return True


def type_name_of(ty, type_names):
    """The parser's name for C++ type ty, learned so far ("" if unknown)."""
    for t in (ty, ty.rstrip("?"), re.sub(r"\[\d+\]", "", ty.rstrip("?"))):
        if t in type_names:
            return type_names[t]
    return ""


def shape(cand):
    """What the tracer's checks see of a signature (SymIntArrayRef and IntArrayRef alike)."""
    return [(type_class(p["type"]), list_size(p["type"]), p["name"], p["kwarg_only"])
            for p in cand["params"]]


def settle(cands, whole_first=False):
    """One signature of several that the parser's answers cannot tell apart, or None.

    The library holds strings of other functions with the same name (the
    linker merges `neg(Tensor input)` into the tail of a longer string), so
    a parser's signature has look-alikes.  A candidate whose parameters are
    a strict prefix of another's is a look-alike (each parameter of the
    longer one was verified by name).  Candidates that differ only in which
    parameters have defaults (1.13 prints no defaults) give the one with the
    most: a default too many lets a call through, never fails one torch
    accepts.  With whole_first (a parser that printed all its signatures),
    a string of its own comes before a tail of a longer one: nansum's
    `dim=None` is not sum's.  A parser known by one signature keeps the
    most defaults: embedding_bag's other signature, with them, is not
    known."""
    uniq = list({c["text"]: c for c in cands}.values())
    longest = max((len(c["params"]) for c in uniq), default=0)
    uniq = [c for c in uniq if len(c["params"]) == longest and
            all(shape(d) == shape(c)[:len(d["params"])] for d in uniq)]
    if not uniq or any(shape(c) != shape(uniq[0]) for c in uniq):
        return None
    return max(uniq, key=lambda c: (whole_first and c["whole"],
                                    sum(p["default"] is not None for p in c["params"]),
                                    sum(p["type"].endswith("?") for p in c["params"]),
                                    c["text"]))


def probe(fn, n):
    try:
        fn(*[Bogus()] * n)
    except Exception as e:  # noqa: BLE001 -- every error is a message to read
        return str(e)
    return None


def printed_sigs(msg):
    """The signatures a parser printed, as (text, [param names])."""
    if "expected one of:" in msg:
        lines = [l.strip()[2:] for l in msg.split("\n") if l.strip().startswith("* (")]
    else:
        m = re.search(r"but expected (\(.*\))$", msg.split("\n")[0])
        if m is None:
            return None
        lines = [m.group(1)]
    out = []
    for line in lines:
        body = line[1:-1]
        params = []
        for p in split_params(body):
            if p == "*":
                continue
            decl = p.split(" = ")[0]
            ty, _, name = decl.rpartition(" ")
            params.append((ty, name))
        out.append((line, params))
    return out


# The parser's names of types (as its messages print them) and their check class.
PRINTED_CLASS = {"Tensor": "TENSOR", "Number": "SCALAR", "int": "INT", "SymInt": "INT",
                 "float": "FLOAT", "bool": "BOOL", "str": "STRING", "tuple of ints": "INT_LIST",
                 "tuple of SymInts": "INT_LIST", "tuple of floats": "FLOAT_LIST",
                 "tuple of Tensors": "TENSOR_LIST", "torch.dtype": "DTYPE", "name": "DIMNAME",
                 "tuple of names": "DIMNAME_LIST"}


def fits_printed(cand, printed):
    """Whether cand agrees with a printed signature in the class of each type
    (where the printed name is known) and in which parameters are keyword-only."""
    kw, params = False, []
    for p in split_params(printed[1:-1]):
        if p == "*":
            kw = True
            continue
        params.append((p.split(" = ")[0].rpartition(" ")[0], kw))
    if len(params) != len(cand["params"]):
        return False
    for p, (ty, kw) in zip(cand["params"], params):
        if p["kwarg_only"] != kw:
            return False
        cls = PRINTED_CLASS.get(ty)
        if cls is not None and type_class(p["type"]) != cls:
            return False
    return True


def defaults_of(printed):
    """Whether each parameter of a printed signature shows a default."""
    return [" = " in p for p in split_params(printed[1:-1]) if p != "*"]


def type_class(ty):
    base = ty.rstrip("?")
    for pat, cls in TYPE_CLASS:
        if re.fullmatch(pat, base):
            return cls
    return "OTHER"


def list_size(ty):
    m = re.search(r"\[(\d+)\]", ty)
    return int(m.group(1)) if m else 0


def numbers_as_tensors(name):
    """Whether the parser of name takes a Python number where it wants a Tensor."""
    return bool(torch._C._should_allow_numbers_as_tensors(name))


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("?", "\\077") + '\\0"'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--verbose", action="store_true")
    opts = ap.parse_args()

    lib = os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_python.so")
    texts = signature_texts(lib)

    callables = {}
    for prefix, mod in NAMESPACES:
        for n in dir(mod):
            if n.startswith("_") or n in NOT_CALLED:
                continue
            o = getattr(mod, n, None)
            if o is not None and inspect.isbuiltin(o):
                callables[f"{prefix}.{n}"] = o

    type_names = {}   # C++ type -> the parser's name for it, learned from printed lists
    found = {}        # access path -> (parser name, [sigs], {text: printed})
    unresolved = []
    for rnd in (0, 1):
        for path, fn in sorted(callables.items()):
            if path in found:
                continue
            name = getattr(fn, "__name__", "")
            msg = probe(fn, 40)
            if msg is None:
                continue
            # An alias's messages use its parser's name (torch.hsmm parses as hspmm).
            said = re.match(r"(\w+)\(\) ", msg)
            if said is not None and said.group(1) != name and said.group(1) in texts:
                name = said.group(1)
            cands = list(texts.get(name, {}).values())
            if not cands:
                continue
            printed = printed_sigs(msg)
            if printed is not None:
                sigs, ok = [], True
                defaults_printed = any(" = " in t for t, _ in printed)
                for ptext, pr in printed:
                    m = [c for c in cands if not c["hidden"] and
                         [p["name"] for p in c["params"]] == [n for _, n in pr]]
                    if len(m) > 1:
                        m = [c for c in m if all(type_names.get(p["type"], t) == t
                                                 for p, (t, _) in zip(c["params"], pr))]
                    if len(m) > 1:
                        m = [c for c in m if fits_printed(c, ptext)]
                    if len(m) > 1 and defaults_printed:
                        m = [c for c in m if all((p["default"] is not None) == d
                                                 for p, d in zip(c["params"], defaults_of(ptext)))]
                    one = settle(m, whole_first=True) if len(m) > 1 else (m[0] if m else None)
                    if one is None:
                        ok = False
                        break
                    sigs.append(one)
                if not ok:
                    continue
                printed_of = {s["text"]: t for s, (t, _) in zip(sigs, printed)}
                for s, (_, pr) in zip(sigs, printed):
                    for p, (pty, _) in zip(s["params"], pr):
                        type_names.setdefault(p["type"], pty)
                # Deprecated signatures are never printed: all of this name's are
                # taken (one too many only lets more calls through).
                sigs += [c for c in cands if c["hidden"]]
                found[path] = (name, sigs, printed_of)
                continue
            m = re.match(r"\w+\(\) takes (?:(\d+)|from \d+ to (\d+)) positional arguments? but",
                         msg)
            if m is None:
                continue
            max_pos = int(m.group(1) or m.group(2))
            match = [c for c in cands if not c["hidden"] and
                     sum(1 for p in c["params"] if not p["kwarg_only"]) == max_pos]
            match = [c for c in match if verify_single(fn, c, type_names)]
            one = settle(match)
            if one is None:
                continue
            found[path] = (name, [one], {})
    unresolved = sorted(set(callables) - set(found))

    pool = {"": 0}
    pool_texts = [""]
    size = [1]

    def pooled(s):
        if s not in pool:
            pool[s] = size[0]
            pool_texts.append(s)
            size[0] += len(s) + 1
        return pool[s]

    param_rows, index, sig_rows, fn_rows, fn_lines = {}, [], {}, {}, []
    unknown_types = set()
    for path in sorted(found):
        name, g, printed = found[path]
        sig_ids = []
        for s in g:
            first = len(index)
            for k, p in enumerate(s["params"]):
                tname = s.get("printed_types", {}).get(k) or type_names.get(p["type"])
                if tname is None:
                    tname = type_names.get(p["type"].rstrip("?"))
                if tname is None:
                    tname = type_names.get(re.sub(r"\[\d+\]", "", p["type"].rstrip("?")), "")
                if not tname:
                    unknown_types.add(p["type"])
                flags = []
                if p["default"] is not None:
                    flags.append("GRAFT_SIG_OPTIONAL")
                if p["type"].endswith("?") or p["default"] == "None":
                    flags.append("GRAFT_SIG_ALLOW_NONE")
                if p["kwarg_only"]:
                    flags.append("GRAFT_SIG_KWARG_ONLY")
                row = (pooled(p["name"]), "GRAFT_SIG_" + type_class(p["type"]),
                       list_size(p["type"]), pooled(tname), " | ".join(flags) or "0")
                index.append(param_rows.setdefault(row, len(param_rows)))
            key = (first, len(s["params"]), "GRAFT_SIG_HIDDEN" if s["hidden"] else "0",
                   pooled(printed.get(s["text"], "")))
            # identical index runs are shared
            run = tuple(index[first:])
            if run in sig_rows:
                del index[first:]
                key = (sig_rows[run][0],) + key[1:]
            else:
                sig_rows[run] = key
            sig_ids.append(key)
        fkey = (pooled(name), tuple(sig_ids), int(numbers_as_tensors(name)))
        if fkey not in fn_rows:
            fn_rows[fkey] = len(fn_rows)
        fn_lines.append((pooled(path), fn_rows[fkey]))

    sig_list = []
    fn_first = {}
    for fkey in sorted(fn_rows, key=fn_rows.get):
        fn_first[fkey] = (len(sig_list), len(fkey[1]))
        sig_list.extend(fkey[1])

    out = []
    out.append(f"""\
/* graft-torch-signatures-*.inc: how torch {torch.__version__}'s Python argument parser checks the
 * arguments of its C builtins (torch.flatten, torch.cat, torch._C._nn.linear, ...).
 *
 * GENERATED by tests/tools/gen-torch-signatures.py from torch {torch.__version__}
 * (Python {sys.version.split()[0]}).  DO NOT EDIT: run the script with that torch's python
 * (see its header).  {len(fn_lines)} access paths, {len(fn_rows)} parsers, {len(sig_list)} signatures.
 *
 * Sections as in graft-fx-table.inc (define the macro, include, #undef):
 *
 *   GRAFT_SIG_STRING_POOL  a run of "text\\0" literals; *_at fields are offsets into it.
 *   GRAFT_SIG_PARAM (name_at, CLASS, size, type_name_at, FLAGS)
 *     a distinct parameter: its name; the check class of its C++ type (GRAFT_SIG_TENSOR,
 *     _SCALAR, _INT, _FLOAT, _BOOL, _STRING, _INT_LIST, _FLOAT_LIST, _TENSOR_LIST, _DTYPE,
 *     _DIMNAME, _DIMNAME_LIST, or _OTHER: anything else, which the tracer does not judge); size N of
 *     `IntArrayRef[N]` (a single int is then accepted too) or 0; the type's name in the
 *     parser's messages (`int`, `tuple of ints`, `Number`, `torch.dtype`; "" if unknown);
 *     FLAGS: GRAFT_SIG_OPTIONAL (has a default), GRAFT_SIG_ALLOW_NONE (None accepted),
 *     GRAFT_SIG_KWARG_ONLY (after `*`).
 *   GRAFT_SIG_INDEX  a run of parameter row numbers: each signature's parameters.
 *   GRAFT_SIG_SIGNATURE (first_param, n_params, FLAGS, printed_at)
 *     one signature, in the parser's order; FLAGS GRAFT_SIG_HIDDEN (deprecated: tried but
 *     never printed); printed_at: the signature as the parser prints it in "expected one
 *     of" lists (parsers of several signatures only).
 *   GRAFT_SIG_PARSER (name_at, first_signature, n_signatures, numbers_as_tensors)
 *     one parser; name: the function name its messages use (`flatten`, `linalg_norm`);
 *     numbers_as_tensors: 1 if a Python number passes where it wants a Tensor (torch.add,
 *     torch.mul: torch._C._should_allow_numbers_as_tensors), else 0.
 *   GRAFT_SIG_FUNCTION (access_path_at, parser)
 *     an access path (`torch.flatten`, `torch.nn.functional.conv2d`) and its parser's row;
 *     sorted by path.
 */
""")
    try:
        torch.reshape(torch.zeros(1), (Bogus(),))
        element = 0
    except TypeError as e:
        element = int("but found element of type" in str(e))
    out.append("/* Whether a tuple of ints whose first item is wrong is reported by that item")
    out.append(" * (`must be tuple of ints, but found element of type Proxy at pos 0`). */")
    out.append("#ifdef GRAFT_SIG_TRAIT")
    out.append("GRAFT_SIG_TRAIT (REPORTS_ELEMENT, %d)" % element)
    out.append("#endif\n")
    out.append("#ifdef GRAFT_SIG_STRING_POOL")
    out.extend(c_str(t) for t in pool_texts)
    out.append("#endif\n")
    out.append("#ifdef GRAFT_SIG_PARAM")
    for row in sorted(param_rows, key=param_rows.get):
        out.append("GRAFT_SIG_PARAM (%d, %s, %d, %d, %s)" % row)
    out.append("#endif\n")
    out.append("#ifdef GRAFT_SIG_INDEX")
    for i in range(0, len(index), 16):
        out.append(",".join(str(x) for x in index[i:i + 16]) + ",")
    out.append("#endif\n")
    out.append("#ifdef GRAFT_SIG_SIGNATURE")
    for s in sig_list:
        out.append("GRAFT_SIG_SIGNATURE (%d, %d, %s, %d)" % s)
    out.append("#endif\n")
    out.append("#ifdef GRAFT_SIG_PARSER")
    for fkey in sorted(fn_rows, key=fn_rows.get):
        out.append("GRAFT_SIG_PARSER (%d, %d, %d, %d)" % ((fkey[0],) + fn_first[fkey] + (fkey[2],)))
    out.append("#endif\n")
    out.append("#ifdef GRAFT_SIG_FUNCTION")
    for line in fn_lines:
        out.append("GRAFT_SIG_FUNCTION (%d, %d)" % line)
    out.append("#endif")
    text = "\n".join(out) + "\n"
    if opts.output == "-":
        sys.stdout.write(text)
    else:
        with open(opts.output, "w") as f:
            f.write(text)
    print(f"gen-torch-signatures: {len(fn_lines)} of {len(callables)} builtins, "
          f"{len(fn_rows)} parsers; unresolved {len(unresolved)}; "
          f"types without a name: {sorted(unknown_types)}", file=sys.stderr)
    if opts.verbose:
        print("unresolved: " + " ".join(unresolved), file=sys.stderr)


if __name__ == "__main__":
    main()
