"""Many inputs: `eval` of a sum of n products c*x_i, each x_i a distinct input bound by --at.

The graph-size workloads grow the number of operations with a handful of inputs;
this one grows the number of distinct inputs (10^3 to 10^5), where a list scan
per input would make the work quadratic. Each size runs the whole command
in-process (parse the bindings and the expression, lower, backward, write JSON).
Not a test: it prints, it asserts nothing.

    python bench/inputs.py [--max 100000]
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "src"))

from click.testing import CliRunner  # noqa: E402

from gradcli.cli import main  # noqa: E402


def run(n: int) -> float:
    expr = " + ".join(f"{i % 7 + 1}*x{i}" for i in range(n))
    at = ",".join(f"x{i}={i % 5}" for i in range(n))
    start = time.perf_counter()
    result = CliRunner().invoke(main, ["eval", expr, "--at", at, "-o", "json"])
    elapsed = time.perf_counter() - start
    if result.exit_code != 0:
        raise SystemExit(f"n = {n}: exit {result.exit_code}: {result.output[:300]}")
    return elapsed


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=100_000)
    args = parser.parse_args()
    sizes = [n for n in (1_000, 3_000, 10_000, 30_000, 100_000) if n <= args.max]
    print("| inputs | time | per input | growth per size step |")
    print("|---:|---:|---:|---:|")
    previous = None
    for n in sizes:
        t = min(run(n) for _ in range(2 if n <= 10_000 else 1))
        per = t / n
        growth = f"{per / previous:.2f}×" if previous else "—"
        print(f"| {n:,} | {t:.2f} s | {per * 1e6:.0f} µs | {growth} |")
        previous = per


if __name__ == "__main__":
    main_()
