"""Checks the theorems corpus itself with SymPy (not gradcli).

Every entry of theorems.json carries a SymPy transcription of its question and of
the book's printed answer. This script confirms the printed answer, and that the
entry's wrong answer is wrong:

- ``mvt``: f is continuous on [a, b] and differentiable on (a, b) (no point of
  (a, b) where f or f' is undefined), the listed c are exactly the solutions of
  f'(c) = (f(b) - f(a))/(b - a) in (a, b) (solveset), each verified by
  substitution; where the book says the theorem does not apply, f or f' fails
  at ``fails_at`` inside the interval (f undefined there, or the one-sided
  limits of f' differ or are infinite);
- ``normal-line``: the printed line passes through (a, f(a)) with slope
  -1/f'(a), identically; ``x = a`` where f'(a) = 0;
- ``implicit-second``: with F = lhs - rhs, the printed d²y/dx² minus SymPy's
  idiff(F, y, x, 2) vanishes on the curve: the numerator of the difference is a
  multiple of F (polynomial division, after writing roots of x and y as new
  letters), or it vanishes at 5 points of the curve found by nsolve.

The wrong answers are re-read and must fail the same test. Run from anywhere:

    python tests/textbook/verify_theorems.py

Exit status 0 when every entry passes, 1 otherwise. Needs SymPy only.
"""
import json
import os
import sys
from functools import reduce

import sympy as S
from sympy.calculus.util import continuous_domain
from sympy.parsing.sympy_parser import parse_expr

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "theorems.json")
KINDS = {"mvt": 10, "normal-line": 10, "implicit-second": 10}
X, Y = S.symbols("x y", positive=True)


def expr(text, names):
    return parse_expr(text, local_dict={**names, "Rational": S.Rational, "sqrt": S.sqrt,
                                        "Abs": S.Abs, "exp": S.exp, "pi": S.pi, "E": S.E})


def read_c(text: str) -> list:
    """c values from a typed answer such as 'c = (1 ± √7)/3', 'c = ±2/√3', 'c=2' or
    'x = 1' (a page's own letter)."""
    import re
    text = text.replace("√", "sqrt").replace("π", "pi")
    out = []
    for part in text.split(" and "):
        part = re.sub(r"^[a-z]\s*=\s*", "", part.strip())
        for sign in ("+", "-") if "±" in part else ("",):
            t = part.replace("±", sign) if not part.startswith("±") else f"{sign}({part[1:]})"
            t = t.replace("sqrt", "sqrt ").replace("sqrt (", "sqrt(")
            t = _roots(t)
            out.append(S.sympify(t))
    return out


def _roots(t: str) -> str:
    """sqrt 19 -> sqrt(19): the radical of a number, as printed; 2sqrt(3) -> 2*sqrt(3)."""
    import re
    return re.sub(r"(\d)sqrt", r"\1*sqrt", re.sub(r"sqrt (\d+)", r"sqrt(\1)", t))


def check_mvt(e) -> tuple[bool, bool]:
    s = e["sympy"]
    x = S.Symbol(s["variable"], real=True)
    f = expr(s["function"], {s["variable"]: x})
    a, b = (S.sympify(v) for v in s["interval"])
    if "fails_at" in s:
        p = S.sympify(s["fails_at"])
        inside = bool(a < p) and bool(p < b)
        fp = S.diff(f, x)
        value = f.subs(x, p)
        undefined = not (value.is_finite and value.is_real)
        sides = [S.limit(fp, x, p, d) for d in ("-", "+")]
        corner = any(not side.is_finite for side in sides) or sides[0] != sides[1]
        printed_ok = e["answer"] == "does not apply" and inside and (undefined or corner)
        wrong_refused = e["wrong"]["answer"] != "does not apply"
        return printed_ok, wrong_refused
    closed = S.Interval(a, b)
    fine = continuous_domain(f, x, closed) == closed and \
        continuous_domain(S.diff(f, x), x, S.Interval.open(a, b)) == S.Interval.open(a, b)
    slope = (f.subs(x, b) - f.subs(x, a)) / (b - a)
    g = S.diff(f, x) - slope
    solutions = S.solveset(g, x, S.Interval.open(a, b))
    listed = [S.sympify(c) for c in s["c"]]
    same = isinstance(solutions, S.FiniteSet) and len(solutions) == len(listed) and all(
        any(S.simplify(c - t) == 0 for t in solutions) for c in listed)
    printed = read_c(e["answer"])
    printed_ok = fine and same and len(printed) == len(listed) and all(
        any(S.simplify(p - c) == 0 for c in listed) for p in printed)
    wrong = read_c(e["wrong"]["answer"])
    wrong_same = len(wrong) == len(listed) and all(
        any(S.simplify(p - c) == 0 for c in listed) for p in wrong)
    return printed_ok, not wrong_same


def _line(text: str, x, y):
    """(coefficient of x, of y, constant) of a typed line such as 'y = -1/4 x + √3 + π/12'."""
    import re
    t = text.replace("√", "sqrt").replace("π", "pi")
    t = re.sub(r"sqrt(\d+)", r"sqrt(\1)", t)
    t = re.sub(r"(\d|\))\s*(x|pi|sqrt)", r"\1*\2", t)
    t = re.sub(r"(pi)\s*/", r"\1/", t)
    left, right = t.split("=")
    g = S.sympify(left, locals={"x": x, "y": y}) - S.sympify(right, locals={"x": x, "y": y})
    g = S.expand(g)
    return g.coeff(x), g.coeff(y), g.subs({x: 0, y: 0})


def check_normal(e) -> tuple[bool, bool]:
    s = e["sympy"]
    x, y = S.Symbol(s["variable"], real=True), S.Symbol("y", real=True)
    f = expr(s["function"], {s["variable"]: x})
    a = S.sympify(s["at"])
    fa, m = f.subs(x, a), S.diff(f, x).subs(x, a)

    def right(text):
        gx, gy, g0 = _line(text, x, y)
        through = S.simplify(gx * a + gy * fa + g0) == 0
        if S.simplify(m) == 0:
            return through and gy == 0 and gx != 0
        return through and gy != 0 and S.simplify(-gx / gy + 1 / m) == 0
    return right(e["answer"]), not right(e["wrong"]["answer"])


def _on_curve_zero(F, D, x, y) -> bool:
    """Whether D vanishes on the curve F = 0: exactly, or at 5 points found by nsolve."""
    num = S.fraction(S.cancel(S.together(D)))[0]
    if S.expand(num) == 0:
        return True
    q = {v: reduce(S.ilcm, [p.exp.q for p in F.atoms(S.Pow) if p.base == v
                            and p.exp.is_Rational], 1) for v in (x, y)}
    u, v = S.symbols("u v", positive=True)
    into = {x: u ** q[x], y: v ** q[y]}

    def roots_out(e):
        return S.powsimp(S.expand_power_base(e.subs(into), force=True), force=True)
    G, N = S.expand(roots_out(F)), S.expand(roots_out(num))
    if G.is_polynomial(u, v) and N.is_polynomial(u, v) \
            and S.reduced(N, [G], u, v)[1] == 0:
        return True
    found = 0
    for x0 in (S.Rational(1, 5), S.Rational(2, 5), S.Rational(3, 5), S.Rational(7, 10),
               S.Rational(9, 10)):
        try:
            y0 = S.nsolve(F.subs(x, x0), y, 0.5, prec=40)
        except (ValueError, ZeroDivisionError):
            continue
        if not (y0.is_real and y0 > 0):
            continue
        if abs(D.subs({x: x0, y: y0}).evalf(40)) > 1e-25:
            return False
        found += 1
    return found >= 3


def check_second(e) -> tuple[bool, bool]:
    import re
    s = e["sympy"]
    names = {"x": X, "y": Y}
    F = expr(s["equation"][0], names) - expr(s["equation"][1], names)
    truth = S.idiff(F, Y, X, 2)
    printed = expr(s["answer"], names)

    def typed(text):
        t = text.replace("√", "sqrt").replace("^", "**")
        t = re.sub(r"sqrt(\w)", r"sqrt(\1)", t)
        t = re.sub(r"(\d|\))\s*([xy(s])", r"\1*\2", t)
        t = re.sub(r"([xy])\s+([xy])", r"\1*\2", t)
        t = re.sub(r"\b([xy])\(", r"\1*(", t)
        t = re.sub(r"(?<![a-z])([xy])(?=[xy])", r"\1*", t)
        t = re.sub(r"\*\*\((\d)/(\d)\)", r"**Rational(\1, \2)", t)
        return expr(t, names)
    ok = _on_curve_zero(F, printed - truth, X, Y) and \
        _on_curve_zero(F, typed(e["answer"]) - truth, X, Y)
    return ok, not _on_curve_zero(F, typed(e["wrong"]["answer"]) - truth, X, Y)


CHECKS = {"mvt": check_mvt, "normal-line": check_normal, "implicit-second": check_second}


def verify(entry) -> tuple[bool, bool]:
    """(the printed answer is right, the wrong answer is wrong) for one entry."""
    return CHECKS[entry["kind"]](entry)


def main() -> int:
    entries = json.load(open(CORPUS, encoding="utf-8"))
    failed = 0
    counts = {k: 0 for k in KINDS}
    for e in entries:
        counts[e["kind"]] += 1
        printed_ok, wrong_refused = verify(e)
        if not (printed_ok and wrong_refused):
            failed += 1
            print(f"FAIL {e['id']}: printed answer "
                  f"{'right' if printed_ok else 'NOT confirmed'}, wrong answer "
                  f"{'refuted' if wrong_refused else 'NOT refuted'}")
    short = [k for k, n in KINDS.items() if counts[k] < n]
    print(f"{len(entries)} entries ({', '.join(f'{n} {k}' for k, n in counts.items())}): "
          f"{len(entries) - failed} confirmed, {failed} failed"
          + (f"; too few: {', '.join(short)}" if short else ""))
    return 1 if failed or short else 0


if __name__ == "__main__":
    sys.exit(main())
