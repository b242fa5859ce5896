"""Verify tests/textbook/regions.json with SymPy alone: every printed absolute max and min
on a region (kind "region") or under constraints (kind "lagrange"), independently of
gradcli's tasks (gradcli's parser only reads the printed numbers).

For each printed extremum: every printed point lies in the region (on the constraint
set), exactly; f there is the printed value, exactly; and no point of a dense sample
of the region (of the constraint set, through the entry's parametrisation) does
better than the printed value. A printed `none` is shown by the sample: f beyond
any bound far out along the parametrisation.

Run: PYTHONPATH=src python tests/textbook/verify_regions.py  (exit 0 when all hold)
"""
from __future__ import annotations

import json
import os
import re
import sys

import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "regions.json")
X, Y, Z, T, SS = sp.symbols("x y z t s", real=True)
NAMES = {"x": X, "y": Y, "z": Z, "t": T, "s": SS}


def load() -> list:
    with open(CORPUS, encoding="utf-8") as fh:
        return json.load(fh)


def number(text: str):
    """A printed number, read by gradcli's parser into SymPy (its meaning, not its judge)."""
    sys.path.insert(0, os.path.dirname(HERE))
    from sympy_bridge import to_sympy
    from gradcli.language.parser import parse
    return sp.nsimplify(to_sympy(parse(text.strip()).statements[-1].expr, {}, exact=True))


def printed(text: str, nvars: int):
    """(value or None, [points]) of '9 at (3, 0)', 'f(1, 1) = f(-1, -1) = 2', '4 at (0, ±2)'."""
    t = re.sub(r"^\s*(?:max(?:imum)?|min(?:imum)?)\s*", "", text.strip())
    calls = re.findall(r"[a-z]\(([^()=]+)\)\s*=", t)
    if calls:
        value_text, points = t.rsplit("=", 1)[1], calls
    else:
        value_text, _, rest = t.partition(" at ")
        points = re.findall(r"\(([^()]+(?:\([^()]*\)[^()]*)*)\)", rest)
    value = number(value_text) if value_text.strip() else None
    out = []
    for p in points:
        coords = [c.strip() for c in re.split(r",(?![^()]*\))", p)]
        assert len(coords) == nvars, (text, coords)
        combos = [[]]
        for c in coords:
            opts = [c.replace("±", "", 1), "-(" + c.replace("±", "", 1) + ")"] if "±" in c else [c]
            combos = [k + [o] for k in combos for o in opts]
        out += [[number(c) for c in k] for k in combos]
    return value, out


def symbols_of(entry):
    names = sorted(set(re.findall(r"\b[xyz]\b", entry["sympy"]["function"] + " ".join(
        entry["sympy"].get("constraints") or entry["sympy"].get("inequalities") or []))))
    return [NAMES[n] for n in names]


def sample(entry, f, syms):
    """(f's values, the points) over a dense sample of the region or constraint set."""
    sy = entry["sympy"]
    if entry["kind"] == "region":
        (a, b), (c, d) = sy["box"]
        xs, ys = np.meshgrid(np.linspace(a, b, 601), np.linspace(c, d, 601))
        keep = np.ones_like(xs, dtype=bool)
        for g in sy["inequalities"]:
            keep &= sp.lambdify(syms, sp.sympify(g, locals=NAMES), "numpy")(xs, ys) \
                    * np.ones_like(xs) >= -1e-12
        values = sp.lambdify(syms, f, "numpy")(xs, ys) * np.ones_like(xs)
        return values[keep], np.stack([xs[keep], ys[keep]], axis=1)
    lo, hi = (float(sp.sympify(v)) for v in sy["t"])
    params = [T] + ([SS] if re.search(r"\bs\b", " ".join(sy["param"].values())) else [])
    coords = [sp.sympify(sy["param"][s.name], locals=NAMES) for s in syms]
    for g in sy["constraints"]:
        assert sp.simplify(sp.sympify(g, locals=NAMES).subs(dict(zip(syms, coords)))) == 0, \
            (entry["id"], "the parametrisation is not on the constraint set")
    grid = [np.linspace(lo, hi, 4001)] if len(params) == 1 else list(
        np.meshgrid(np.linspace(0, np.pi, 401), np.linspace(0, 2 * np.pi, 801)))
    values = sp.lambdify(params, f.subs(dict(zip(syms, coords))), "numpy")(*grid)
    where = np.stack([np.ravel(sp.lambdify(params, c, "numpy")(*grid) * np.ones_like(grid[0]))
                      for c in coords], axis=1)
    return np.ravel(values * np.ones_like(grid[0])), where


def inside(entry, point, syms) -> bool:
    at = dict(zip(syms, point))
    if entry["kind"] == "region":
        return all(sp.simplify(sp.sympify(g, locals=NAMES).subs(at)) >= 0
                   for g in entry["sympy"]["inequalities"])
    return all(sp.simplify(sp.sympify(g, locals=NAMES).subs(at)) == 0
               for g in entry["sympy"]["constraints"])


def verify(entry) -> list:
    f = sp.sympify(entry["sympy"]["function"], locals=NAMES)
    syms = symbols_of(entry)
    values, where = sample(entry, f, syms)
    problems = []
    for key, sign in (("abs_max", 1), ("abs_min", -1)):
        if key not in entry["answers"]:
            continue
        text = entry["answers"][key]
        if text.strip() == "none":
            if not np.max(sign * values) > 1e5:
                problems.append(f"{key}: printed none, but f looks bounded on the sample")
            continue
        value, points = printed(text, len(syms))
        if value is None:
            value = f.subs(dict(zip(syms, points[0])))
        for p in points:
            if not inside(entry, p, syms):
                problems.append(f"{key}: {p} is not in the set")
            elif sp.simplify(f.subs(dict(zip(syms, p))) - value) != 0:
                problems.append(f"{key}: f{tuple(p)} is not {value}")
        if np.max(sign * values) > sign * float(value) + 1e-9:
            problems.append(f"{key}: the sample beats {value}: {np.max(sign * values) * sign}")
        # every sampled point where f is (nearly) the extremum is near a printed point
        best = where[np.abs(values - float(value)) < 1e-9 * (1 + abs(float(value)))]
        printed_at = np.array([[float(c) for c in p] for p in points]) if points else None
        if points and len(best) and np.max(np.min(np.linalg.norm(
                best[:, None, :] - printed_at[None, :, :], axis=2), axis=1)) > 0.05:
            problems.append(f"{key}: f is {value} at points not printed")
        if not points and np.min(np.abs(values - float(value))) > 1e-3 * (1 + abs(float(value))):
            problems.append(f"{key}: {value} is never approached on the sample")
    return problems


def main() -> int:
    bad = 0
    for entry in load():
        problems = verify(entry)
        if problems:
            bad += 1
            print(entry["id"], problems)
    kinds = [e["kind"] for e in load()]
    print(f"{len(kinds) - bad} of {len(kinds)} entries verified "
          f"({kinds.count('region')} region, {kinds.count('lagrange')} lagrange)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
