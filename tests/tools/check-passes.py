#!/usr/bin/python3
"""check-passes.py: the torch half of tests/tools/check-passes.  Run it with the torch whose
passes it checks (/usr/bin/python3 for 1.13.1; `../shared/tools/torch26 python3` for 2.6):

    check-passes.py [--fx-reference PATH] JOBS

JOBS is a file with one line per case, written by check-passes, its fields separated by tabs:

    CASE  DIR  PASS  EXPECTED  ARG...

CASE names the case (`rules/tutorial`); ARG... are the arguments after `rewrite` of the case
(its INPUT first; only INPUT and --entry matter here), to be read in DIR (absolute); PASS is
the pass file Graft wrote (`--to pass`) and EXPECTED the oracle's expected `.code` for this
torch.  For each case this:

1. builds the model's GraphModule exactly as fx-reference builds it, with fx-reference's own
   functions (imported from its path): `torch.export.load(INPUT).graph_module` for a program
   archive, else `symbolic_trace(resolve_entry(INPUT, ENTRY))`.  fx-reference's patch_torch
   is never called: the pass runs on plain torch, as a user would run it;
2. imports the pass file as a module, by its path (importlib), and calls its `run(gm)`;
3. compares the code of the GraphModule it returns (stripped, plus one newline: the form of
   the expected files) with the expected file.

It prints one line per case, `OK CASE`, `DIFF CASE` (then a unified diff, expected -> got),
`ERROR CASE: WHAT` (the pass failed: it does not import, has no run, raises, returns no
GraphModule, or runs for more than --timeout seconds) or `SKIP CASE: WHY` (plain torch cannot
build the model itself: nothing to run the pass on), then a count of each.  Exit status: 0 if
no DIFF and no ERROR, 1 otherwise, 2 bad usage.

Each case runs in a child process forked from this one after torch is imported: importing
torch costs seconds, and a child keeps whatever a pass changes in torch (a pass may patch
torch to do what the contract asks where plain torch falls short) from reaching the next case.
"""
import argparse
import difflib
import importlib.machinery
import importlib.util
import io
import contextlib
import json
import os
import signal
import sys
import traceback
import warnings

sys.dont_write_bytecode = True


def one_line(exc):
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}"


def pass_frame(exc, pass_path):
    """` (at pass.py:LINE)` for the innermost frame of the traceback in the pass file."""
    where = ""
    for fs in traceback.extract_tb(exc.__traceback__):
        if os.path.realpath(fs.filename) == os.path.realpath(pass_path):
            where = f" (at {os.path.basename(pass_path)}:{fs.lineno})"
    return where


def build_model(fx, args):
    """The GraphModule fx-reference rewrites for these arguments (INPUT first, --entry NAME)."""
    import torch.fx
    path = args[0]
    entry = None
    for i, a in enumerate(args):
        if a == "--entry" and i + 1 < len(args):
            entry = args[i + 1]
        elif a.startswith("--entry="):
            entry = a.split("=", 1)[1]
    if path != "-" and fx.is_archive(path):
        return fx.load_program(path)
    return torch.fx.symbolic_trace(fx.resolve_entry(path, entry))


def check(job, fx_path):
    """Run one case; returns (status, text).  Runs in the child."""
    import torch.fx
    os.chdir(job["dir"])
    warnings.filterwarnings("ignore")
    fx = importlib.machinery.SourceFileLoader("fx_reference", fx_path).load_module()

    # 1. the model, as fx-reference builds it (its fail() exits: the model itself is bad)
    try:
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            gm = build_model(fx, job["args"])
    except SystemExit:
        said = err.getvalue().strip().splitlines() or ["?"]
        return "SKIP", "torch cannot build the model: " + said[-1]
    except Exception as e:
        return "SKIP", "torch cannot build the model: " + one_line(e)

    # 2. the pass, imported by path, and its run(gm)
    path = job["pass"]
    name = "graft_pass_" + "".join(c if c.isalnum() else "_" for c in job["case"])
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        with contextlib.redirect_stdout(io.StringIO()):
            spec.loader.exec_module(mod)
    except Exception as e:
        return "ERROR", "the pass does not import: " + one_line(e) + pass_frame(e, path)
    run = getattr(mod, "run", None)
    if not callable(run):
        return "ERROR", "the pass defines no run(gm)"
    note = ""
    if not isinstance(getattr(mod, "RULES", None), (list, tuple)):
        note = " (the pass defines no RULES list)"
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            out = run(gm)
    except Exception as e:
        return "ERROR", "run(gm) raises " + one_line(e) + pass_frame(e, path) + note
    if not isinstance(out, torch.fx.GraphModule):
        return "ERROR", f"run(gm) returns {type(out).__name__}, not a GraphModule" + note

    # 3. its code against the oracle's
    got = out.code.strip() + "\n"
    with open(job["expected"], encoding="utf-8") as f:
        want = f.read()
    if got == want:
        return "OK", note.strip(" ()").replace("the pass", "but the pass")
    diff = difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                os.path.basename(job["expected"]), "run(gm).code")
    return "DIFF", "".join(diff)


def run_child(job, fx_path, timeout):
    """Fork, check the case in the child, return its (status, text)."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(rfd)
        try:
            signal.alarm(timeout)
            result = check(job, fx_path)
        except BaseException as e:  # noqa: anything, so that the parent always gets an answer
            result = ("ERROR", "the checker itself failed: " + one_line(e))
        with os.fdopen(wfd, "w") as f:
            f.write(json.dumps(result))
        os._exit(0)
    os.close(wfd)
    with os.fdopen(rfd) as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if data:
        return tuple(json.loads(data))
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGALRM:
            return "ERROR", f"the case ran for more than {timeout} s"
        return "ERROR", f"the child died of signal {sig}"
    return "ERROR", f"the child exited with {os.WEXITSTATUS(status)} and no answer"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("jobs")
    ap.add_argument("--fx-reference", default="/work/shared/tools/fx-reference")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--torch-label", default=None, help="what to call this torch in the output")
    a = ap.parse_args()
    import torch  # once, before forking
    import torch.fx  # noqa: F401
    label = a.torch_label or ".".join(torch.__version__.split("+")[0].split(".")[:2])
    counts = {"OK": 0, "DIFF": 0, "ERROR": 0, "SKIP": 0}
    jobs = []
    with open(a.jobs, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 5:
                continue
            jobs.append(dict(case=fields[0], dir=fields[1], expected=fields[3], args=fields[4:],
                             **{"pass": fields[2]}))
    for job in jobs:
        status, text = run_child(job, a.fx_reference, a.timeout)
        counts[status] += 1
        if status == "DIFF":
            print(f"DIFF {job['case']} (torch {label})")
            sys.stdout.write("".join("    " + line for line in text.splitlines(True)))
        elif text:
            print(f"{status} {job['case']} (torch {label}): {text}")
        else:
            print(f"{status} {job['case']} (torch {label})")
        sys.stdout.flush()
    print(f"check-passes: torch {label}: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    sys.exit(1 if counts["DIFF"] or counts["ERROR"] else 0)


if __name__ == "__main__":
    main()
