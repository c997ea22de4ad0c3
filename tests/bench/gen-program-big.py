#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gen-program-big.py: writes a torch.export program (.pt2) of about N nodes
by scaling up a small program torch 2.6 exported, without torch.

    tests/bench/gen-program-big.py N -o OUT.pt2 [--stages S] [--groups G] [--seed SEED.pt2]

The seed (tests/bench/program-seed.pt2, from gen-program-seed.py) is a stem,
`stages` (a ModuleList of Sequentials of Sequentials of torchvision
BasicBlocks) and a head.  The output has S stages of G groups of K blocks,
K chosen so that the program has about N nodes (19 a block), every block a
copy of one of the seed's with its own module paths (`stages.3.40.117`) in
its parameter, buffer and node metadata (nn_module_stack, source_fn_stack),
its own parameters and buffers in the graph signature and the state dict,
and its values named as torch names them (`conv2d_4711`, counted in graph
order).  The archive has the members and the layout torch.export.save
writes, so torch.export.load reads it; the state dict's tensors all share
the seed block's storages, so the archive is mostly its JSON (about 830
bytes a node).  Deterministic.  Prints the node count and the block shape.
"""
import argparse
import collections
import io
import json
import os
import pickle
import re
import struct
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
CONTAINER = "stages"
# A module path inside the container, in any of the spellings torch uses
# for it (`stages.1.0.1`, `L__self___stages_1_0_1`,
# `getattr_getattr_L__self___stages_1___0_____1___relu`): the separators
# and up to three indices (stage, group, block).
PATH_RE = re.compile(CONTAINER + r"([._]+)(\d+)(?:([._]+)(\d+)(?:([._]+)(\d+))?)?(?![\d])")
BLOCK_PATH_RE = re.compile(r"^" + CONTAINER + r"\.(\d+)\.(\d+)\.(\d+)(?:\.|$)")
COUNTED_RE = re.compile(r"^(.*)_(\d+)$")
# The counted names in a node's metadata: dynamo's name of a function call
# in source_fn_stack (`iadd_3`), torch's in torch_fn (`relu_16`).  Marked
# in a template as @@KIND:NAME@@ and counted again in graph order.
MARK_RE = re.compile(r"@@([ST]):([^@]*)@@")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("nodes", type=int, help="about how many nodes")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--stages", type=int, default=4)
    parser.add_argument("--groups", type=int, default=0,
                        help="groups a stage (default: about the blocks a group, at most 64)")
    parser.add_argument("--seed", default=os.path.join(HERE, "program-seed.pt2"))
    return parser.parse_args()


# ---------------------------------------------------------------------------
# Naming

class Names:
    """Names as torch's graph namespace makes them, in graph order: `add`,
    `add_1`, ...; with @first 1, `add_1`, `add_2`, ... (torch_fn)."""

    def __init__(self, first=0):
        self.count = {}
        self.first = first

    def fresh(self, old):
        m = COUNTED_RE.match(old)
        base = m.group(1) if m else old
        n = self.count.get(base, self.first)
        self.count[base] = n + 1
        return base if n == 0 else "%s_%d" % (base, n)


META_NAMES = {"S": Names(), "T": Names(first=1)}


def mark_counted(node):
    """A copy of @node whose counted metadata names are marked."""
    node = json.loads(json.dumps(node))
    meta = node.get("metadata", {})
    fn = meta.get("source_fn_stack")
    if fn and CONTAINER not in fn.split(",")[0]:
        meta["source_fn_stack"] = "@@S:%s@@" % fn.split(",")[0] + fn[len(fn.split(",")[0]):]
    fn = meta.get("torch_fn")
    if fn:
        meta["torch_fn"] = "@@T:%s@@" % fn.split(";")[0] + fn[len(fn.split(";")[0]):]
    return node


def count_marks(text):
    return MARK_RE.sub(lambda m: META_NAMES[m.group(1)].fresh(m.group(2)), text)


def block_of_path(path):
    m = BLOCK_PATH_RE.match(path)
    return tuple(int(x) for x in m.groups()) if m else None


def tensor_inputs(node):
    """The names of the values a serialized node reads."""
    for arg in node["inputs"]:
        a = arg["arg"]
        if "as_tensor" in a:
            yield a["as_tensor"]["name"]
        for t in a.get("as_tensors", ()):
            yield t["name"]


def block_of_node(node):
    stack = node.get("metadata", {}).get("nn_module_stack", "")
    for frame in stack.split(";"):
        parts = frame.split(",")
        if len(parts) >= 2:
            b = block_of_path(parts[1])
            if b is not None:
                return b
    return None


class Template:
    """JSON text with holes: value names (by their index among the block's
    own values) and module paths (re-indexed for each copy)."""

    def __init__(self, text, own_names):
        self.parts = []
        pos = 0
        name_re = re.compile(r'"(%s)"' % "|".join(re.escape(n) for n in own_names)) if own_names else None
        holes = []
        for m in MARK_RE.finditer(text):
            holes.append((m.start(), m.end(), ("count", m.group(1), m.group(2))))
        for m in PATH_RE.finditer(text):
            holes.append((m.start(), m.end(), ("path", m.group(1), m.group(3), m.group(5))))
        if name_re:
            for m in name_re.finditer(text):
                holes.append((m.start(1), m.end(1), ("name", m.group(1))))
        holes.sort()
        for start, end, hole in holes:
            if start < pos:
                raise SystemExit("gen-program-big: overlapping names in the seed at %r" % text[start:end])
            self.parts.append(text[pos:start])
            self.parts.append(hole)
            pos = end
        self.parts.append(text[pos:])

    def fill(self, index, names):
        out = []
        for p in self.parts:
            if isinstance(p, str):
                out.append(p)
            elif p[0] == "name":
                out.append(names[p[1]])
            elif p[0] == "count":
                out.append(META_NAMES[p[1]].fresh(p[2]))
            else:
                s = CONTAINER + p[1] + str(index[0])
                if p[2] is not None:
                    s += p[2] + str(index[1])
                    if p[3] is not None:
                        s += p[3] + str(index[2])
                out.append(s)
        return "".join(out)


def dumps(obj):
    return json.dumps(obj)


# ---------------------------------------------------------------------------
# The state dict: torch.save's pickle, read and written without torch

class _Tensor:
    def __init__(self, args):
        self.storage, self.offset, self.size, self.stride, self.requires_grad = args[:5]
        self.parameter = False


class _Unpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return lambda *args: _Tensor(args)
        if (module, name) == ("torch._utils", "_rebuild_parameter"):
            def parameter(t, requires_grad, hooks):
                t.parameter, t.requires_grad = True, requires_grad
                return t
            return parameter
        if module == "torch" and name.endswith("Storage"):
            return name
        raise SystemExit("gen-program-big: the seed's state dict holds %s.%s" % (module, name))

    def persistent_load(self, pid):
        return tuple(pid)  # ('storage', type name, key, location, numel)


class _Pickle:
    """Protocol 2 opcodes, as torch.save writes them."""

    def __init__(self):
        self.out = bytearray(b"\x80\x02")
        self.memo = {}

    def put(self, key):
        self.memo[key] = len(self.memo)
        self.out += b"r" + struct.pack("<I", self.memo[key])

    def get(self, key):
        self.out += b"j" + struct.pack("<I", self.memo[key])

    def global_(self, module, name):
        key = ("global", module, name)
        if key in self.memo:
            self.get(key)
        else:
            self.out += b"c" + module.encode() + b"\n" + name.encode() + b"\n"
            self.put(key)

    def str_(self, s, memo=False):
        key = ("str", s)
        if memo and key in self.memo:
            self.get(key)
            return
        b = s.encode()
        self.out += b"X" + struct.pack("<I", len(b)) + b
        if memo:
            self.put(key)

    def int_(self, v):
        if 0 <= v < 256:
            self.out += b"K" + bytes([v])
        elif 0 <= v < 65536:
            self.out += b"M" + struct.pack("<H", v)
        else:
            self.out += b"J" + struct.pack("<i", v)

    def ints(self, vs):
        if len(vs) == 0:
            self.out += b")"
            return
        if len(vs) > 3:
            self.out += b"("
        for v in vs:
            self.int_(v)
        self.out += {1: b"\x85", 2: b"\x86", 3: b"\x87"}.get(len(vs), b"t")

    def tensor(self, t):
        if t.parameter:
            self.global_("torch._utils", "_rebuild_parameter")
        self.global_("torch._utils", "_rebuild_tensor_v2")
        self.out += b"(("
        _, stype, key, location, numel = t.storage
        self.str_("storage", memo=True)
        self.global_("torch", stype)
        self.str_(key, memo=True)
        self.str_(location, memo=True)
        self.int_(numel)
        self.out += b"tQ"
        self.int_(t.offset)
        self.ints(t.size)
        self.ints(t.stride)
        self.out += b"\x88" if (t.requires_grad and not t.parameter) else b"\x89"
        self.global_("collections", "OrderedDict")
        self.out += b")Rt"  # backward hooks, then the argument tuple
        self.out += b"R"
        if t.parameter:
            self.out += b"\x88" if t.requires_grad else b"\x89"
            self.global_("collections", "OrderedDict")
            self.out += b")R\x87R"


def read_state_dict(data):
    inner = zipfile.ZipFile(io.BytesIO(data))
    pkl = next(n for n in inner.namelist() if n.endswith("/data.pkl"))
    tensors = _Unpickler(io.BytesIO(inner.read(pkl))).load()
    return inner, pkl, tensors


def copy_info(info):
    """The member's name and date, so that the output is deterministic."""
    return zipfile.ZipInfo(info.filename, date_time=info.date_time)


def write_state_dict(inner, pkl, items):
    p = _Pickle()
    p.out += b"}"
    p.put(("dict",))
    batch = 0
    for key, t in items:
        if batch == 0:
            p.out += b"("
        p.str_(key)
        p.tensor(t)
        batch += 1
        if batch == 1000:
            p.out += b"u"
            batch = 0
    if batch:
        p.out += b"u"
    p.out += b"."
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for info in inner.infolist():
            z.writestr(copy_info(info), bytes(p.out) if info.filename == pkl else inner.read(info.filename))
    return buf.getvalue()


# ---------------------------------------------------------------------------
# Scaling

def runs(items, block_of):
    """Splits items into runs: ("keep", item) and ("blocks", {block: [items]})."""
    out = []
    for item in items:
        b = block_of(item)
        if b is None:
            out.append(("keep", item))
        else:
            if not out or out[-1][0] != "blocks":
                out.append(("blocks", collections.OrderedDict()))
            out[-1][1].setdefault(b, []).append(item)
    return out


def main():
    args = parse_args()
    seed = zipfile.ZipFile(args.seed)
    ep = json.loads(seed.read("serialized_exported_program.json"))
    gm = ep["graph_module"]
    graph, sig = gm["graph"], gm["signature"]

    # Which values each seed block owns: its parameters and buffers (by
    # target) and its nodes' outputs.
    owner = {}
    for spec in sig["input_specs"]:
        (kind, body), = spec.items()
        target = body.get("parameter_name") or body.get("buffer_name") or body.get("tensor_constant_name")
        if target and block_of_path(target):
            owner[body["arg"]["name"]] = block_of_path(target)
    for node in graph["nodes"]:
        b = block_of_node(node)
        for out in node["outputs"]:
            if "as_tensor" not in out:
                raise SystemExit("gen-program-big: the seed has a node with outputs other than one tensor")
            if b is not None:
                owner[out["as_tensor"]["name"]] = b
    seed_blocks = sorted(set(owner.values()))
    if len(seed_blocks) < 2:
        raise SystemExit("gen-program-big: the seed needs two blocks or more")
    template = seed_blocks[1]  # a block between two others: fed by a block
    per_block = sum(1 for b in owner.values() if b == template)
    fixed = len(graph["nodes"]) + len(graph["inputs"]) + 1 - per_block * len(seed_blocks)

    blocks = max(1, (args.nodes - fixed + per_block // 2) // per_block)
    stages = max(1, args.stages)
    groups = args.groups or max(1, min(64, round((blocks / stages) ** 0.5)))
    per_group = max(1, -(-blocks // (stages * groups)))
    order = [(i, j, k) for i in range(stages) for j in range(groups) for k in range(per_group)]

    # The template block's own node values, in order, and the value it reads
    # from the block before it; the seed's first block reads from the stem,
    # its last block's value is read by the head.
    t_nodes = [n for n in graph["nodes"] if block_of_node(n) == template]
    t_outputs = [n["outputs"][0]["as_tensor"]["name"] for n in t_nodes]
    t_inputs = {v for n in t_nodes for v in tensor_inputs(n)}
    external = [v for v in t_inputs if v not in t_outputs and owner.get(v) != template]
    if len(external) != 1:
        raise SystemExit("gen-program-big: the template block reads %d values from outside" % len(external))
    external = external[0]
    first_nodes = [n for n in graph["nodes"] if block_of_node(n) == seed_blocks[0]]
    last_nodes = [n for n in graph["nodes"] if block_of_node(n) == seed_blocks[-1]]
    first_in = next(v for n in first_nodes for v in tensor_inputs(n) if v not in owner)
    last_out = last_nodes[-1]["outputs"][0]["as_tensor"]["name"]
    t_out = t_outputs[-1]

    own = t_outputs + [external]
    names = Names()
    renamed = {}  # seed names outside the blocks -> new names

    def ref(name):
        return renamed.get(name, name)

    # The nodes, in order: every name is made as it is reached, so the
    # blocks' counters follow the stem's and the head's follow the blocks'.
    def gen_nodes():
        prev = None
        for kind, run in runs(graph["nodes"], block_of_node):
            if kind == "keep":
                node = json.loads(dumps(run))
                for arg in node["inputs"]:
                    t = arg["arg"].get("as_tensor")
                    if t is not None:
                        t["name"] = prev if t["name"] == last_out else ref(t["name"])
                out = node["outputs"][0]["as_tensor"]
                renamed[out["name"]] = names.fresh(out["name"])
                out["name"] = renamed[out["name"]]
                yield count_marks(dumps(mark_counted(node)))
                continue
            tmpl = [Template(dumps(mark_counted(n)), own) for n in run[template]]
            for index in order:
                m = {old: names.fresh(old) for old in t_outputs}
                m[external] = prev if prev is not None else ref(first_in)
                for t in tmpl:
                    yield t.fill(index, m)
                copies[index] = m
                prev = m[t_out]
            renamed[last_out] = prev

    copies = {}

    # Values of the block's own nodes, keyed as the template names them
    def gen_dict(d, on_block):
        for kind, run in runs(d.items(), lambda kv: owner.get(kv[0])):
            if kind == "keep":
                key, value = run
                yield "%s: %s" % (dumps(ref(key)), dumps(value))
                continue
            tmpl = [Template("%s: %s" % (dumps(k), dumps(v)), own) for k, v in run[template]]
            for index in order:
                for t in tmpl:
                    yield t.fill(index, copies[index])

    def gen_list(items, name_of):
        for kind, run in runs(items, lambda it: owner.get(name_of(it))):
            if kind == "keep":
                text = dumps(run)
                n = name_of(run)
                if n in renamed:
                    text = text.replace('"%s"' % n, '"%s"' % renamed[n])
                yield text
                continue
            tmpl = [Template(dumps(it), own) for it in run[template]]
            for index in order:
                for t in tmpl:
                    yield t.fill(index, copies.get(index, {}))

    def gen_calls(entries):
        block_entries = [e for e in entries if block_of_path(e["fqn"]) == template]
        prefix = "%s.%d.%d.%d" % ((CONTAINER,) + template)
        emitted = False
        for e in entries:
            fqn = e["fqn"]
            if not fqn.startswith(CONTAINER + "."):
                yield dumps(e)
                continue
            if emitted:
                continue
            emitted = True
            for i in range(stages):
                yield dumps({"fqn": "%s.%d" % (CONTAINER, i)})
                for j in range(groups):
                    yield dumps({"fqn": "%s.%d.%d" % (CONTAINER, i, j)})
                    for k in range(per_group):
                        here = "%s.%d.%d.%d" % (CONTAINER, i, j, k)
                        for b in block_entries:
                            yield dumps(dict(b, fqn=here + b["fqn"][len(prefix):]))

    def spec_name(spec):
        (kind, body), = spec.items()
        return body["arg"]["name"] if "arg" in body and "name" in body["arg"] else None

    # The JSON, written in the order of the seed's keys; the nodes first,
    # since they make the names the other parts use.
    node_texts = list(gen_nodes())
    special = {
        ("graph_module", "graph", "nodes"): ("[", node_texts, "]"),
        ("graph_module", "graph", "inputs"): ("[", lambda: gen_list(graph["inputs"], lambda it: it["as_tensor"]["name"]), "]"),
        ("graph_module", "graph", "outputs"): ("[", lambda: gen_list(graph["outputs"], lambda it: it["as_tensor"]["name"]), "]"),
        ("graph_module", "graph", "tensor_values"): ("{", lambda: gen_dict(graph["tensor_values"], True), "}"),
        ("graph_module", "signature", "input_specs"): ("[", lambda: gen_list(sig["input_specs"], spec_name), "]"),
        ("graph_module", "signature", "output_specs"): ("[", lambda: gen_list(sig["output_specs"], lambda s: list(s.values())[0]["arg"]["as_tensor"]["name"]), "]"),
        ("graph_module", "module_call_graph"): ("[", lambda: gen_calls(gm["module_call_graph"]), "]"),
    }

    def write(out, obj, path=()):
        if path in special:
            open_, items, close = special[path]
            out.write(open_.encode())
            first = True
            for text in (items() if callable(items) else items):
                out.write((text if first else ", " + text).encode())
                first = False
            out.write(close.encode())
        elif isinstance(obj, dict) and any(len(p) > len(path) and p[:len(path)] == path for p in special):
            out.write(b"{")
            for n, (k, v) in enumerate(obj.items()):
                out.write(((", " if n else "") + dumps(k) + ": ").encode())
                write(out, v, path + (k,))
            out.write(b"}")
        else:
            out.write(dumps(obj).encode())

    inner, pkl, tensors = read_state_dict(seed.read("serialized_state_dict.pt"))

    def state_items():
        for kind, run in runs(tensors.items(), lambda kv: block_of_path(kv[0])):
            if kind == "keep":
                yield run
                continue
            prefix = "%s.%d.%d.%d" % ((CONTAINER,) + template)
            for i, j, k in order:
                here = "%s.%d.%d.%d" % (CONTAINER, i, j, k)
                for key, t in run[template]:
                    yield here + key[len(prefix):], t

    tmp = args.output + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as z:
        for info in seed.infolist():
            if info.filename == "serialized_exported_program.json":
                with z.open(copy_info(info), "w", force_zip64=False) as out:
                    buf = io.BufferedWriter(out, 1 << 20)
                    write(buf, ep)
                    buf.flush()
            elif info.filename == "serialized_state_dict.pt":
                z.writestr(copy_info(info), write_state_dict(inner, pkl, state_items()))
            else:
                z.writestr(copy_info(info), seed.read(info.filename))
    os.replace(tmp, args.output)
    nodes = fixed + per_block * len(order)
    print("%d nodes: %d stages x %d groups x %d blocks of %d nodes, %d more"
          % (nodes, stages, groups, per_group, per_block, fixed))


if __name__ == "__main__":
    main()
