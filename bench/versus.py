"""Two source trees of gradcli side by side: start-up, parse, engine and a large eval.

    python bench/versus.py --before OTHER/src [--after src] [--rounds 7]

For a change that moves code around (a redesign), the question is whether any
measured speed moved. Each round runs every measure once for each tree, in
turn, so that both see the same machine load; the report gives the median and
the best of each and the ratio after/before of the medians. Asserts nothing.

- start-up: `python -m gradcli eval "(w*x+b)**2" --at w=3,x=2,b=1 -o plain`, a
  fresh process (the fast path);
- parse: `parse()` of a line of 40 characters, microseconds per call;
- engine: `Value` arithmetic, the chain h = h*0.5 + x of 10^5 steps, then backward;
- library eval: `gradcli.evaluate` of a sum of 10^5 operations (the collector on, as
  in a user's program);
- command eval: `gradcli eval -f FILE` of the same sum, a fresh process (the command
  pauses the collector while it builds the graph).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

SNIPPETS = {
    "parse (µs)": ("from gradcli.language.parser import parse\nimport timeit\n"
                   "t = timeit.Timer(lambda: parse('(w*x+b)**2 + sin(x)^2/(1+e^-x)'))\n"
                   "n, _ = t.autorange()\nprint(min(t.repeat(3, n)) / n * 1e6)"),
    "engine 1e5 (ms)": ("import time\nfrom gradcli import Value\nbest = 1e9\n"
                        "for _ in range(3):\n    t = time.perf_counter()\n"
                        "    x = Value(0.5); h = Value(1.0)\n"
                        "    for i in range(100000):\n        h = h * 0.5 + x\n"
                        "    h.backward()\n    best = min(best, time.perf_counter() - t)\n"
                        "print(best * 1e3)"),
    "library eval 1e5 (ms)": ("import time, gradcli\n"
                              "text = ' + '.join(f'{i % 7 + 1}*x*y' for i in range(50000))\n"
                              "best = 1e9\nfor _ in range(3):\n    t = time.perf_counter()\n"
                              "    gradcli.evaluate(text, x=1.5, y=2.0)\n"
                              "    best = min(best, time.perf_counter() - t)\nprint(best * 1e3)"),
}


def _run(src: str, args: list[str]) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=src)
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          check=True)


def _startup(src: str) -> float:
    t = time.perf_counter()
    _run(src, ["-m", "gradcli", "eval", "(w*x+b)**2", "--at", "w=3,x=2,b=1", "-o", "plain"])
    return (time.perf_counter() - t) * 1e3


def _command(src: str, path: str) -> float:
    t = time.perf_counter()
    _run(src, ["-m", "gradcli", "eval", "-f", path, "--at", "x=1.5,y=2", "-o", "plain"])
    return (time.perf_counter() - t) * 1e3


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, help="the other tree's src/ folder")
    ap.add_argument("--after", default=os.path.join(os.path.dirname(HERE), "src"))
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args(argv)
    trees = {"before": os.path.abspath(a.before), "after": os.path.abspath(a.after)}
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(" + ".join(f"{i % 7 + 1}*x*y" for i in range(50000)))
        big = fh.name
    results: dict = {}
    for _ in range(a.rounds):
        for name, src in trees.items():
            results.setdefault(("start-up (ms)", name), []).append(_startup(src))
            results.setdefault(("command eval 1e5 (ms)", name), []).append(_command(src, big))
            for label, code in SNIPPETS.items():
                out = _run(src, ["-c", code]).stdout.strip().splitlines()[-1]
                results.setdefault((label, name), []).append(float(out))
    os.unlink(big)
    print(f"{a.rounds} rounds, trees alternating in each round\n")
    print(f"| measure | before median | after median | before best | after best | after/before |")
    print("|---|---:|---:|---:|---:|---:|")
    labels = ["start-up (ms)", *SNIPPETS, "command eval 1e5 (ms)"]
    for label in labels:
        b, f = results[(label, "before")], results[(label, "after")]
        mb, mf = statistics.median(b), statistics.median(f)
        print(f"| {label} | {mb:.1f} | {mf:.1f} | {min(b):.1f} | {min(f):.1f} | {mf / mb:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
