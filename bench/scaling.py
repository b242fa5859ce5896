"""Graph size scaling: time to parse, evaluate and differentiate for doubling sizes.

Three shapes: a sum of n terms, n nested parentheses, and a program of n
statements each using the previous name twice. Linear work shows as a time
that roughly doubles with n (the ratio column stays near 2). Prints; asserts nothing.

    python bench/scaling.py [--max N]
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))

from gradcli import api  # noqa: E402


def shapes(n):
    yield "sum of n terms", "+".join(f"{i % 7 + 1}*x" for i in range(n))
    yield "n nested parentheses", "(" * n + "x" + ")" * n
    lines = ["a0 = x"] + [f"a{i} = a{i - 1}*0.5 + a{i - 1}*0.5" for i in range(1, n)]
    yield "program, each line uses the previous name twice", "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=12_500)
    parser.add_argument("--max", type=int, default=200_000)
    args = parser.parse_args()
    previous = {}
    print(f"{'shape':<50} {'n':>9} {'seconds':>9} {'ratio':>6}")
    n = args.start
    while n <= args.max:
        for name, text in shapes(n):
            start = time.perf_counter()
            api.evaluate(text, x=0.5)
            t = time.perf_counter() - start
            ratio = f"{t / previous[name]:6.2f}" if name in previous else "     -"
            previous[name] = t
            print(f"{name:<50} {n:>9,} {t:>9.3f} {ratio}")
        n *= 2


if __name__ == "__main__":
    main()
