"""Verify tests/textbook/curves.json with SymPy alone: every printed answer of a curve
analysis (intervals, relative extrema, inflection points) and of absolute extrema on a
closed interval is checked against the function's own derivatives, independently of
gradcli's tasks (gradcli's parser only reads the printed numbers).

Run: PYTHONPATH=src python tests/textbook/verify_curves.py  (exit 0 when all hold)
"""
from __future__ import annotations

import json
import os
import re
import sys

import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "curves.json")
GRID = 400          # sample points of a sign check
EDGE = 1e-6         # points this close to a printed end are not judged


def load() -> list:
    with open(CORPUS, encoding="utf-8") as fh:
        return json.load(fh)


def function(entry):
    """(f, x) from the entry's SymPy transcription (real_root for real odd roots)."""
    name = re.search(r"\b([a-z])\b", entry["sympy"]["function"].replace("exp", "").replace(
        "sin", "").replace("cos", "").replace("log", "").replace("sqrt", "").replace(
        "real_root", "")).group(1)
    x = sp.Symbol(name, real=True)
    return sp.sympify(entry["sympy"]["function"], locals={name: x, "real_root": sp.real_root}), x


def number(text: str):
    """A printed number, read by gradcli's parser into SymPy (its meaning, not its judge)."""
    t = text.strip()
    if t in ("∞", "inf", "+∞", "oo"):
        return sp.oo
    if t in ("-∞", "-inf", "-oo"):
        return -sp.oo
    sys.path.insert(0, os.path.dirname(HERE))
    from sympy_bridge import to_sympy
    from gradcli.language.parser import parse
    return sp.nsimplify(to_sympy(parse(t).statements[-1].expr, {}, exact=True))


def intervals(text: str) -> list:
    if text.strip() == "none":
        return []
    parts = re.findall(r"[(\[]([^()\[\]]*(?:\([^()]*\)[^()\[\]]*)*),([^()\[\]]*(?:\([^()]*\)"
                       r"[^()\[\]]*)*)[)\]]", text)
    return [(number(a), number(b)) for a, b in parts]


def points(text: str, variable: str) -> list:
    """[(x, value or None)] of 'x = -1 and x = 2', '(±1, 2)', '(0, 0) and (2, -16)', 'f(0) = 5'."""
    if text.strip() == "none":
        return []
    out = []
    for item in re.split(r"\band\b|;|,(?![^()]*\))", text):
        item = item.strip()
        if not item:
            continue
        m = re.fullmatch(r"\((.*),(.*)\)", item) or \
            re.fullmatch(r"[A-Za-z]\((.*)\)\s*=\s*(.*)", item)  # f(-2)=18 is the point (-2, 18)
        xs, v = (m.group(1), m.group(2)) if m else (re.sub(rf"^{variable}\s*=\s*", "", item), None)
        for s in ("+", "-") if "±" in xs else ("",):
            xv = number(xs.replace("±", s))
            vv = None if v is None else number(v.replace("±", s) if "±" in v else v)
            out.append((xv, vv))
    return out


_FAST = {}


def _value(expr, x, t):
    fn = _FAST.get(expr)
    if fn is None:
        import mpmath
        mpmath.mp.dps = 30
        # sign(x)'s derivative (real_root's) is 0 away from its jump
        smooth = expr.replace(sp.DiracDelta, lambda *a: sp.S.Zero)
        fn = _FAST[expr] = sp.lambdify(x, smooth, "mpmath")
    import mpmath
    try:
        v = complex(fn(mpmath.mpf(str(sp.N(t, 30))) if not isinstance(t, float) else
                       mpmath.mpf(t)))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    if v != v or abs(v.imag) > 1e-12 or abs(v.real) == float("inf"):
        return None
    return v.real


def _range(entry):
    if "over" in entry:
        lo, hi = entry["over"].split("=", 1)[1].split(":")
        return float(number(lo)), float(number(hi))
    return -10.0, 10.0


def check_analyze(entry) -> list:
    f, x = function(entry)
    d1, d2 = sp.diff(f, x), sp.diff(f, x, 2)
    lo, hi = _range(entry)
    grid = [lo + (hi - lo) * (i + 0.5) / GRID for i in range(GRID)]
    problems = []
    signs = {"increasing": (d1, 1), "decreasing": (d1, -1), "concave_up": (d2, 1),
             "concave_down": (d2, -1)}
    for key, text in entry["answers"].items():
        if key in signs:
            d, s = signs[key]
            spans = intervals(text)
            ends = [float(e) for p in spans for e in p if e.is_finite]
            for a, b in spans:
                if not _defined_on(f, x, a, b):
                    problems.append(f"{key}: f is not continuous on ({a}, {b})")
            for t in grid:
                if any(abs(t - e) < EDGE for e in ends):
                    continue
                v = _value(d, x, t)
                if v is None or abs(v) < 1e-9:
                    continue
                inside = any(float(a) < t < float(b) for a, b in spans)
                if inside != (v * s > 0):
                    problems.append(f"{key}: at {x} = {t:.4g} the derivative is {v:.3g}")
                    break
        else:
            d = d2 if key == "inflection" else d1
            want = {"relative_max": (1, -1), "relative_min": (-1, 1)}.get(key)
            listed = points(text, str(x))
            for xv, vv in listed:
                h = 1e-4
                left, right = _value(d, x, float(xv) - h), _value(d, x, float(xv) + h)
                ok = (left is not None and right is not None and
                      ((left > 0) - (left < 0), (right > 0) - (right < 0)) == want
                      if want else left * right < 0)
                fx = _value(f, x, xv)
                if not ok or fx is None:
                    problems.append(f"{key}: no sign change of the derivative at {xv}")
                if vv is not None and (fx is None or abs(fx - float(vv)) > 1e-9 * (1 + abs(fx))):
                    problems.append(f"{key}: f({xv}) = {fx}, not {vv}")
            # every sign change on the grid is listed
            prev = None
            for t in grid:
                v = _value(d, x, t)
                if v is None or abs(v) < 1e-9:
                    continue
                s = (v > 0) - (v < 0)
                if prev is not None and prev[1] != s and (want is None or (prev[1], s) == want):
                    if _value(f, x, (prev[0] + t) / 2) is not None and not any(
                            prev[0] - 1e-9 <= float(p) <= t + 1e-9 for p, _ in listed):
                        if want is not None or _continuous_between(f, x, prev[0], t):
                            problems.append(f"{key}: a sign change between {prev[0]:.4g} and "
                                            f"{t:.4g} is not listed")
                prev = (t, s)
    return problems


def _defined_on(f, x, a, b) -> bool:
    """SymPy's continuous_domain says f is continuous on (a, b) (or, where it cannot say,
    f is finite at 200 points of it)."""
    from sympy.calculus.util import continuous_domain
    whole = sp.Interval.open(a, b)
    try:
        if f.has(sp.Piecewise, sp.sign, sp.Abs):  # real roots: SymPy's answer is principal
            raise NotImplementedError
        return continuous_domain(f, x, whole) == whole
    except (NotImplementedError, ValueError, TypeError):
        lo = float(a) if a.is_finite else (float(b) if b.is_finite else 25) - 50
        hi = float(b) if b.is_finite else lo + 50
        return all(_value(f, x, lo + (hi - lo) * (k + 0.5) / 200) is not None for k in range(200))


def _continuous_between(f, x, a, b) -> bool:
    vals = [_value(f, x, a + (b - a) * k / 20) for k in range(21)]
    return all(v is not None for v in vals) and max(abs(u - w) for u, w in zip(vals, vals[1:])) < 1


def check_extrema(entry) -> list:
    f, x = function(entry)
    lo, hi = _range(entry)
    n = 4000
    values = [(lo + (hi - lo) * i / n, _value(f, x, lo + (hi - lo) * i / n)) for i in range(n + 1)]
    values = [(t, v) for t, v in values if v is not None]
    problems = []
    for key, pick in (("abs_max", max), ("abs_min", min)):
        text = entry["answers"][key]
        m = re.fullmatch(r"\s*[A-Za-z]\((.*)\)\s*=\s*(.*)", text)
        value_text, _, where = (m.group(2), "", m.group(1)) if m else text.partition(" at ")
        printed = float(number(value_text))
        best = pick(v for _, v in values)
        if abs(best - printed) > 1e-6 * (1 + abs(printed)) or (
                (printed < best) if key == "abs_max" else (printed > best)) and \
                abs(best - printed) > 1e-12 * (1 + abs(printed)):
            problems.append(f"{key}: printed {printed}, the grid finds {best}")
        at = [xv for xv, _ in points(where if "=" in where or "±" in where else
                                     f"{x} = {where}", str(x))] if where else []
        for xv in at:
            fx = _value(f, x, xv)
            if fx is None or abs(fx - printed) > 1e-12 * (1 + abs(printed)):
                problems.append(f"{key}: f({xv}) = {fx}, not {printed}")
        near = [t for t, v in values if abs(v - best) < 1e-9 * (1 + abs(best))]
        if at and any(min(abs(t - float(a)) for a in at) > 1e-2 for t in near):
            problems.append(f"{key}: attained near a point not listed")
    return problems


def verify(entry) -> list:
    return (check_analyze if entry["kind"] == "analyze" else check_extrema)(entry)


def main() -> int:
    bad = 0
    for entry in load():
        problems = verify(entry)
        if problems:
            bad += 1
            print(entry["id"], *problems, sep="\n  ")
    print(f"{len(load())} entries, {bad} with problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
