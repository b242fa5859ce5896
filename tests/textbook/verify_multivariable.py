"""Proves the multivariable corpus (multivariable.json) with SymPy alone.

Chain rule: the printed derivative (its SymPy transcription), with the inner
functions substituted, equals d/dp of f(x(p), y(p)) computed directly, and the
printed value at the point is that derivative's value. Surfaces: the point is
on the surface, the printed plane (where the source prints one) passes through it
with a normal parallel to ∇F there, and the printed normal line passes through it along ∇F; the entry's
wrong plane misses the point or has another normal.

Run: python tests/textbook/verify_multivariable.py
"""
import json
import os
import sys

import sympy as S

HERE = os.path.dirname(os.path.abspath(__file__))
LETTERS = {n: S.Symbol(n, real=True) for n in "rstuvwxyz"}


def expr(text):
    return S.sympify(text, locals=dict(LETTERS, e=S.E, pi=S.pi))


def truth(entry):
    """(the derivative by direct substitution, the printed answer substituted)."""
    s = entry["sympy"]
    inner = {LETTERS[k]: expr(v) for k, v in s["with"].items()}
    p = LETTERS[s["wrt"]]
    direct = S.diff(expr(s["function"]).xreplace(inner), p)
    return direct, expr(s["answer"]).xreplace(inner)


def parallel(a, b):
    return any(v != 0 for v in a) and all(
        S.simplify(a[i] * b[j] - a[j] * b[i]) == 0 for i in range(3) for j in range(i + 1, 3))


def verify(entry) -> bool:
    s = entry["sympy"]
    if entry["kind"] == "chain-rule":
        direct, printed = truth(entry)
        if S.simplify(direct - printed) != 0:
            return False
        if "value" in s:
            point = {LETTERS[k]: expr(v) for k, v in s["at"].items()}
            return S.simplify(direct.xreplace(point) - expr(s["value"])) == 0
        return True
    xyz = [LETTERS[n] for n in "xyz"]
    F = expr(s["F"])
    point = dict(zip(xyz, [expr(v) for v in s["point"]]))
    if S.simplify(F.xreplace(point)) != 0:
        return False
    grad = [S.simplify(S.diff(F, v).xreplace(point)) for v in xyz]
    if "plane" in s:  # a page that prints only the normal line has no plane
        plane = expr(s["plane"])
        if S.simplify(plane.xreplace(point)) != 0 or \
                not parallel([S.diff(plane, v) for v in xyz], grad):
            return False
    n = s["normal"]
    p0 = [expr(v) for v in n["point"]]
    d = [expr(v) for v in n["direction"]]
    through = all(a == b for a, b in zip(p0, point.values())) or parallel(
        [b - a for a, b in zip(p0, point.values())], d)
    if "wrong_plane" in s:  # the wrong plane is wrong: its normal or its point
        wrong = expr(s["wrong_plane"])
        if S.simplify(wrong.xreplace(point)) == 0 and \
                parallel([S.diff(wrong, v) for v in xyz], grad):
            return False
    return parallel(d, grad) and through


def main():
    entries = json.load(open(os.path.join(HERE, "multivariable.json"), encoding="utf-8"))
    bad = [e["id"] for e in entries if not verify(e)]
    kinds = {}
    for e in entries:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(f"{len(entries) - len(bad)} of {len(entries)} verified; by kind: {kinds}")
    for b in bad:
        print("NOT VERIFIED:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
