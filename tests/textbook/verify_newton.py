"""Checks the Newton's-method corpus (newton.json) with SymPy and mpmath, not gradcli.

- ``newton``: SymPy differentiates the function, mpmath iterates
  x_(n+1) = x_n - f(x_n)/f'(x_n) from x0 at 50 digits; every printed iterate must be
  the true iterate correctly rounded to the decimal places printed, read at the most
  places any iterate of the answer has (a book's ``1.5`` beside ``1.416666667`` is
  1.500000000); a value with fewer than 3 significant digits at those places must
  equal the iterate within 1e-6 relative. The perturbed answer must fail that test
  in at least one iterate. An iterate printed as a fraction (``59/24``) must equal the
  true iterate to 40 digits.
- ``roots``: every root in the range (sign changes of f on a grid of 4001 points,
  each refined by bisection in mpmath, plus mpmath's findroot from each local
  minimum of |f|) must be listed, each correctly rounded to its own printed places,
  and nothing else; the perturbed answer must fail.

Run from anywhere:  python tests/textbook/verify_newton.py   (exit 1 on any failure)
"""
import json
import os
import sys
from decimal import ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal

import mpmath as mp
import sympy

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "newton.json")
X = sympy.Symbol("x", real=True)
mp.mp.dps = 50


def load():
    with open(CORPUS, encoding="utf-8") as f:
        return json.load(f)


def functions(text):
    f = sympy.sympify(text, locals={"x": X})
    return (sympy.lambdify(X, f, "mpmath"), sympy.lambdify(X, sympy.diff(f, X), "mpmath"))


def numbers(answer):
    items = []
    # a page may list roots as "a and b" as well as "a, b"
    for part in answer.replace(" and ", ",").split(","):
        part = part.strip()
        if part.startswith("±"):
            items += ["-" + part[1:].strip(), part[1:].strip()]
        elif part:
            items.append(part)
    return items


def places(text):
    if "/" in text:
        return 0
    return max(0, -Decimal(text).as_tuple().exponent)


def rounds_to(text, true, k):
    """The digits rule at k places (3+ significant digits), else 1e-6 relative; a
    fraction to 40 digits."""
    if "/" in text:
        value = mp.mpf(sympy.Rational(text).p) / sympy.Rational(text).q
        return abs(value - true) <= mp.mpf(10) ** -40 * (1 + abs(true))
    exact = Decimal(mp.nstr(true, 45, strip_zeros=False, min_fixed=-mp.inf, max_fixed=mp.inf))
    q = Decimal(1).scaleb(-k)
    typed = Decimal(text).quantize(q)
    if len(str(abs(typed)).replace(".", "").lstrip("0")) >= 3:
        return typed in (exact.quantize(q, rounding=ROUND_HALF_UP),
                         exact.quantize(q, rounding=ROUND_HALF_DOWN))
    return abs(float(text) - float(true)) <= 1e-9 + 1e-6 * abs(float(true))


def iterates(entry, n):
    f, df = functions(entry["sympy"]["function"])
    x = mp.mpf(sympy.Rational(entry["sympy"]["x0"]))
    out = []
    for _ in range(n):
        x = x - f(x) / df(x)
        out.append(x)
    return out


def newton_ok(entry, answer):
    items = numbers(answer)
    k = max(places(t) for t in items)
    return all(rounds_to(t, v, k) for t, v in zip(items, iterates(entry, len(items))))


def true_roots(entry, points=4000):
    f, _ = functions(entry["sympy"]["function"])
    lo, hi = (mp.mpf(sympy.sympify(v)) for v in entry["sympy"]["over"])
    xs = [lo + (hi - lo) * i / points for i in range(points + 1)]
    ys = [f(x) for x in xs]
    found = []
    for i in range(points):
        if ys[i] == 0:
            found.append(xs[i])
        elif ys[i] * ys[i + 1] < 0:
            found.append(mp.findroot(f, (xs[i], xs[i + 1]), solver="bisect"))
    for i in range(1, points):
        if abs(ys[i]) <= abs(ys[i - 1]) and abs(ys[i]) <= abs(ys[i + 1]) and ys[i] != 0 \
                and ys[i - 1] * ys[i] > 0 and ys[i] * ys[i + 1] > 0:
            try:
                r = mp.findroot(f, xs[i])
            except (ValueError, ZeroDivisionError):
                continue
            if lo <= r <= hi and abs(f(r)) < mp.mpf(10) ** -30:
                found.append(r)
    unique = []
    for r in sorted(found):
        if not unique or abs(r - unique[-1]) > mp.mpf(10) ** -20:
            unique.append(r)
    return unique


def roots_ok(entry, answer):
    items = numbers(answer)
    left = list(true_roots(entry))
    for t in items:
        match = next((r for r in left if rounds_to(t, r, places(t))), None)
        if match is None:
            return False
        left.remove(match)
    return not left


def check(entry):
    ok = newton_ok if entry["kind"] == "newton" else roots_ok
    problems = []
    if not ok(entry, entry["answer"]):
        problems.append("the printed answer is not confirmed")
    if ok(entry, entry["wrong"]["answer"]):
        problems.append("the perturbed answer is not refuted")
    return problems


def main():
    corpus = load()
    failed = 0
    for entry in corpus:
        problems = check(entry)
        if problems:
            failed += 1
            print(f"FAIL {entry['id']}: {'; '.join(problems)}")
    kinds = {k: sum(e["kind"] == k for e in corpus) for k in ("newton", "roots")}
    print(f"{len(corpus) - failed} of {len(corpus)} entries confirmed "
          f"({kinds['newton']} iteration tables, {kinds['roots']} root lists)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
