"""Wall time of every textbook-corpus command through the installed command line.

For each entry of the corpora of issue 34 (curves.json, newton.json, theorems.json,
higher.json) and issue 35 (regions.json, critical.json, vectorcalc.json,
multivariable.json), this runs the command that solves it and the `check` command
that grades its printed answer, each as a fresh `python -m gradcli` process (start-up
included, as a student's shell runs it), and takes the median of N runs. It prints,
per kind, the number of commands, the largest median and every command over the
limit (1 s for issue 34's kinds, 2 s for issue 35's), and exits 1 if any is over.

Run:  python bench/corpus_times.py [--runs N] [--only curves,newton] [--python EXE]
      (from the repository; PYTHONPATH is set to src so the tree's gradcli runs)

The machine's load moves these figures: run it on an idle machine before reading
them as final. This is not part of the test suite.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEXTBOOK = os.path.join(ROOT, "tests", "textbook")
ISSUE_34 = ("curves", "newton", "theorems", "higher")
ISSUE_35 = ("regions", "critical", "vectorcalc", "multivariable")
LIMIT = {**{name: 1.0 for name in ISSUE_34}, **{name: 2.0 for name in ISSUE_35}}
VECTOR_FLAG = {"div": "--div", "curl": "--curl", "laplacian": "--laplacian",
               "jacobian_det": "--jacobian-det"}


def _answers(entry) -> list:
    """--abs-max "..." --relative-min "..." from a curves/regions entry's answers."""
    out = []
    for key, text in entry["answers"].items():
        out += ["--" + key.replace("_", "-"), text]
    return out


def _curves(e):
    where = ["--over", e["over"]] if "over" in e else []
    return [[e["kind"], e["question"], *where], ["check", e["question"], *where, *_answers(e)]]


def _newton(e):
    printed = e["answer"].replace(" and ", ",").split(",")
    places = max((len(t.strip().split(".")[1]) if "." in t else 0) for t in printed)
    digits = str(min(max(places, 1), 12))
    if e["kind"] == "newton":
        solve = ["newton", e["question"], "--at", "x=" + e["sympy"]["x0"],
                 "--steps", str(len(printed)), "--digits", digits]
    else:
        solve = ["newton", e["question"], "--over", e["over"], "--digits", digits]
    return [solve, ["check", *e["check"]]]


def _given(e):
    """Entries that carry their own `solve` and `check` arguments (theorems, higher)."""
    return [[a for a in e["solve"] if a not in ("-o", "json")], ["check", *e["check"]]]


def _regions(e):
    where = (["--over", e["over"]] if "over" in e else []) + \
        (["--where", e["where"]] if "where" in e else [])
    for c in e.get("subject_to", []):
        where += ["--subject-to", c]
    return [["extrema", e["question"], *where], ["check", e["question"], *where, *_answers(e)]]


def _critical(e):
    return [["critical", e["question"], "--over", e["over"]],
            ["check", e["question"], "--over", e["over"], "--critical", e["answer"]]]


def _vectorcalc(e):
    wrt = ["--wrt", e["wrt"]] if e.get("wrt") else []
    if e["kind"] == "partial":
        return [["diff", e["question"], "--partial", e["partial"]],
                ["check", e["question"], "--partial", f"{e['partial']} = {e['answer']}"]]
    flag = VECTOR_FLAG[e["kind"]]
    return [["diff", e["question"], flag, *wrt], ["check", e["question"], *wrt, flag, e["answer"]]]


def _multivariable(e):
    if e["kind"] == "chain-rule":
        args = [e["question"], "--with", e["with"], "--wrt", e["wrt"]]
        return [["diff", *args], ["check", *args, "--derivative", e["answer"]]]
    return [["tangent", e["question"], "--at", e["at"]],
            ["check", e["question"], "--at", e["at"], "--normal", e["normal"]]]


BUILD = {"curves": _curves, "newton": _newton, "theorems": _given, "higher": _given,
         "regions": _regions, "critical": _critical, "vectorcalc": _vectorcalc,
         "multivariable": _multivariable}


def commands(name: str):
    """(kind, entry id, argv after `gradcli`) for every solve and check of a corpus."""
    with open(os.path.join(TEXTBOOK, name + ".json"), encoding="utf-8") as fh:
        corpus = json.load(fh)
    for e in corpus:
        kind = e.get("kind") or name
        for argv in BUILD[name](e):
            yield f"{name}/{kind}", e["id"], argv + ["-o", "json"]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def wall(python: str, argv: list, runs: int, env: dict) -> tuple:
    """(median wall seconds, median CPU seconds, exit codes seen) of `python -m gradcli
    argv`, run `runs` times. The CPU time is beside the wall time because on a shared
    machine the wall time also counts the waits for a core."""
    times, cpu, codes = [], [], set()
    for _ in range(runs):
        c0, t0 = _children_cpu(), time.perf_counter()
        done = subprocess.run([python, "-m", "gradcli", *argv], capture_output=True, env=env)
        times.append(time.perf_counter() - t0)
        cpu.append(_children_cpu() - c0)
        codes.add(done.returncode)
    return statistics.median(times), statistics.median(cpu), codes


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="runs per command; the median counts")
    ap.add_argument("--only", default=",".join(ISSUE_34 + ISSUE_35),
                    help="corpora to time, comma-separated (default: all eight)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter to run")
    args = ap.parse_args(argv)
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in BUILD]
    if unknown:
        ap.error(f"unknown corpus {', '.join(unknown)}; known: {', '.join(BUILD)}")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    per_kind, cpu_kind, over, failed = {}, {}, [], []
    for name in names:
        for kind, ident, argv_ in commands(name):
            t, c, codes = wall(args.python, argv_, max(args.runs, 1), env)
            per_kind.setdefault(kind, []).append(t)
            cpu_kind.setdefault(kind, []).append(c)
            if codes - {0}:
                failed.append((kind, ident, argv_[0], sorted(codes)))
            if t > LIMIT[name]:
                over.append((kind, ident, t, c, argv_))
    print(f"{'kind':<30} {'commands':>8} {'max s':>6} {'median s':>8} {'max cpu s':>9} "
          f"{'limit s':>7} {'over':>4}")
    for kind, times in per_kind.items():
        limit = LIMIT[kind.split("/")[0]]
        print(f"{kind:<30} {len(times):>8} {max(times):>6.2f} {statistics.median(times):>8.2f} "
              f"{max(cpu_kind[kind]):>9.2f} {limit:>7.1f} {sum(t > limit for t in times):>4}")
    for kind, ident, t, c, argv_ in over:
        shown = " ".join(a if " " not in a else repr(a) for a in argv_)
        print(f"over: {kind} {ident} {t:.2f} s wall, {c:.2f} s cpu: gradcli {shown}")
    for kind, ident, command, codes in failed:
        print(f"note: {kind} {ident} `{command}` exited {codes} (a check exits 1 on a wrong "
              "answer; these are the printed answers)")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
