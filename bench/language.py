"""Start-up and parse speed of two source trees of gradcli, side by side in one run.

    python bench/language.py --before /path/to/other/src [--rounds 15]

Compares the package this file belongs to (its `src/`) with another checkout's
`src/` (for example `git archive main src grammar | tar -x -C /tmp/main`), each
measurement in turn for both trees, so that a busy machine slows both alike:

- import: `python -X importtime -c "import gradcli.cli"`, gradcli.cli's cumulative
  microseconds (the CLI's start-up before any work);
- first parse: a fresh process importing the parser and parsing one formula (start-up
  of `gradcli eval` up to the parse: tables read and checked, parser built);
- parse: `timeit` of parse('(w*x+b)**2 + sin(x)^2/(1+e^-x)'), microseconds per call;
- program: `timeit` of a 40-line program with definitions, glued letters and warnings.

Prints the median and the best of each, and after/before ratios of the medians.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OURS = os.path.join(os.path.dirname(HERE), "src")

FORMULA = "(w*x+b)**2 + sin(x)^2/(1+e^-x)"
PROGRAM = "\n".join(["f(x) = x^2 sin x", "a = 2xy + 1/2x", "b = sin^2 x + tan^-1(3t - 1)"]
                     + [f"c{i} = a*{i} + b/(1 + e^-x) + f'({i})" for i in range(37)]
                     + ["c0 + c36"])

_TIMEIT = ("import timeit; from gradcli.language.parser import parse; text = %r; "
           "n, _ = timeit.Timer(lambda: parse(text)).autorange(); "
           "print(min(timeit.repeat(lambda: parse(text), number=n, repeat=5)) / n * 1e6)")

MEASURES = {
    "import": None,  # importtime, below
    "first parse": ("import time; t = time.perf_counter(); "
                    "from gradcli.language.parser import parse; parse('x**2 + 2x'); "
                    "print((time.perf_counter() - t) * 1e6)"),
    "parse": _TIMEIT % FORMULA,
    "program": _TIMEIT % PROGRAM,
}


def _run(src: str, measure: str) -> float:
    env = dict(os.environ, PYTHONPATH=src)
    if measure == "import":
        out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import gradcli.cli"],
                             env=env, capture_output=True, text=True, check=True).stderr
        line = [x for x in out.splitlines() if x.rstrip().endswith("| gradcli.cli")][-1]
        return float(re.split(r"\|", line)[1])
    out = subprocess.run([sys.executable, "-c", MEASURES[measure]], env=env,
                         capture_output=True, text=True, check=True).stdout
    return float(out.split()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="the other tree's src/ directory")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--only", action="append", choices=sorted(MEASURES))
    args = ap.parse_args(argv)
    trees = {"before": os.path.abspath(args.before), "after": OURS}
    measures = args.only or list(MEASURES)
    for tree in trees.values():  # compile the .pyc files once, outside the rounds
        _run(tree, "first parse")
    results = {(m, t): [] for m in measures for t in trees}
    for _ in range(args.rounds):
        for m in measures:
            rounds = 3  # several samples per round: one process start is noisy
            for _ in range(rounds):
                for name, tree in trees.items():
                    results[m, name].append(_run(tree, m))
    print(f"{'measure (µs)':<14}{'before median':>14}{'after median':>14}{'before best':>13}"
          f"{'after best':>12}{'after/before':>14}")
    for m in measures:
        b, a = results[m, "before"], results[m, "after"]
        print(f"{m:<14}{statistics.median(b):>14.1f}{statistics.median(a):>14.1f}"
              f"{min(b):>13.1f}{min(a):>12.1f}{statistics.median(a) / statistics.median(b):>14.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
