"""Symbolic derivatives: gradcli against SymPy on the same expressions, in one run.

For each expression and variable: gradcli's time to parse, differentiate and print
(`differentiate_text`) and SymPy's time to differentiate the already-built
expression and print it (`sympy.diff` + `str`), imports excluded and SymPy's
cache cleared before each run; then the printed lengths. Prints one line per
expression and the medians. Run: python bench/symbolic.py [--quick]
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))

import sympy as sp  # noqa: E402
from sympy.core.cache import clear_cache  # noqa: E402

from gradcli.language.expr import Const, Name, Num, free_names, postorder  # noqa: E402
from gradcli.language.parser import parse_expr  # noqa: E402
from gradcli.symbolic.derivative import differentiate_text  # noqa: E402

CLASSIC = [
    "(w*x+b)**2", "x**2*sin(x)", "sin(x)/x", "1/(x**2 + 1)", "sin(x**2)", "exp(2*x)*cos(3*x)",
    "sqrt(1 - x**2)", "x*sqrt(x)", "x**x", "2**x", "log(log(x))", "log(x, 2)", "log10(x)*x",
    "asin(x)", "acos(x)", "atan(x/2)", "atan2(y, x)", "tan(x)", "sec(x)", "sinh(x)*cosh(x)",
    "tanh(x)", "asinh(x)", "acosh(x)", "atanh(x)", "exp(-x**2/2)/sqrt(2*pi)",
    "(x**2 + 1)**3*(x - 1)**2", "(x + 1)/(x - 1)", "x*exp(x)*log(x)", "sin(x)**2 + cos(x)**2",
    "exp(sin(exp(x)))", "log(1 + exp(w*x + b))", "((x - m)/s)**2/2 + log(s)",
    "x**3 - 3*x**2 + 2*x - 7", "sqrt(x**2 + y**2)", "atan(y/x)", "x*y*z + x**2*y",
]

SP = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b, "pow": lambda a, b: a ** b, "neg": lambda a: -a,
    "pos": lambda a: a, "exp": sp.exp, "log": lambda a, b=None: sp.log(a) if b is None
    else sp.log(a, b), "log2": lambda a: sp.log(a, 2), "log10": lambda a: sp.log(a, 10),
    "sqrt": sp.sqrt, "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "sec": sp.sec,
    "csc": sp.csc, "cot": sp.cot, "asin": sp.asin, "acos": sp.acos, "atan": sp.atan,
    "atan2": sp.atan2, "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh,
    "asinh": sp.asinh, "acosh": sp.acosh, "atanh": sp.atanh,
}


def to_sympy(expr):
    """Our AST as the same SymPy expression (iteratively)."""
    done = {}
    for node in postorder(expr):
        if isinstance(node, Num):
            done[id(node)] = sp.Integer(node.value) if isinstance(node.value, int) \
                else sp.Float(node.value)
        elif isinstance(node, Name):
            done[id(node)] = sp.Symbol(node.id)
        elif isinstance(node, Const):
            done[id(node)] = sp.pi if node.id == "pi" else sp.E
        else:
            done[id(node)] = SP[node.op](*(done[id(a)] for a in node.args))
    return done[id(expr)]


def generated(count: int, seed: int = 0) -> list[str]:
    """Random expressions of moderate size over the functions both tools share."""
    rng = random.Random(seed)
    unary = ["sin", "cos", "exp", "tanh", "atan", "sinh"]
    out = []
    for _ in range(count):
        parts = ["x", "y", str(rng.randint(2, 9))]
        for _ in range(rng.randint(6, 14)):
            a, b = rng.choice(parts), rng.choice(parts)
            kind = rng.random()
            if kind < 0.3:
                parts.append(f"{rng.choice(unary)}({a})")
            elif kind < 0.5:
                parts.append(f"({a})*({b})")
            elif kind < 0.65:
                parts.append(f"({a})/(1 + ({b})**2)")
            elif kind < 0.8:
                parts.append(f"({a})**{rng.randint(2, 4)}")
            else:
                parts.append(f"({a}) + ({b})")
        last = parts[-1]
        out.append(last if "x" in free_names(parse_expr(last)) else f"x*({last})")
    return out


def best_time(fn, repeat: int, before=None) -> float:
    times = []
    for _ in range(repeat):
        if before:
            before()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    quick = "--quick" in sys.argv
    repeat = 3 if quick else 5
    cases = CLASSIC + generated(10 if quick else 40)
    rows = []
    print(f"{'expression':42} {'wrt':3} {'gradcli ms':>10} {'sympy ms':>9} {'speed-up':>8} "
          f"{'len':>5} {'sympy len':>9}")
    for text in cases:
        expr = parse_expr(text)
        symbolic = to_sympy(expr)
        names = free_names(expr)
        wrt = "x" if "x" in names else names[0]
        ours = differentiate_text(text, wrt)
        theirs = str(sp.diff(symbolic, sp.Symbol(wrt)))
        t_ours = best_time(lambda: differentiate_text(text, wrt), repeat)
        t_sp = best_time(lambda: str(sp.diff(symbolic, sp.Symbol(wrt))), repeat, clear_cache)
        rows.append((text, t_ours, t_sp, len(ours), len(theirs)))
        shown = text if len(text) <= 42 else text[:39] + "..."
        print(f"{shown:42} {wrt:3} {t_ours * 1e3:10.3f} {t_sp * 1e3:9.3f} "
              f"{t_sp / t_ours:7.1f}x {len(ours):5} {len(theirs):9}")
    speed = statistics.median(r[2] / r[1] for r in rows)
    length = statistics.median(r[3] / r[4] for r in rows)
    shorter = sum(r[3] <= r[4] for r in rows)
    print()
    print("depth scaling, d/dx of sin(sin(...sin(x)...)): gradcli's printed size stays linear")
    for depth in ((500, 1000, 2000) if quick else (1000, 2000, 4000, 8000)):
        text = "sin(" * depth + "x" + ")" * depth
        t = time.perf_counter()
        out = differentiate_text(text, "x")
        spent = time.perf_counter() - t
        print(f"  depth {depth:5}: input {len(text):6} chars, derivative {len(out):7} chars "
              f"({len(out) / len(text):.1f}x), {spent:.2f} s")
    print()
    print(f"{len(rows)} expressions; median speed-up over SymPy: {speed:.1f}x "
          f"(target >= 5x); median printed length / SymPy's: {length:.2f} (target <= 1); "
          f"gradcli's output is shorter or equal on {shorter} of {len(rows)}")


if __name__ == "__main__":
    main()
