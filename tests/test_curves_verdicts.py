"""Generated verdicts for the one-variable kinds, SymPy as the judge.

Functions with known structure (polynomials built from chosen critical numbers,
rational functions with vertical asymptotes) get answers in the forms a student
writes, some right and some wrong; SymPy decides each independently of
gradcli's tasks (inequalities solved by solve_univariate_inequality, roots by
real_roots), and `check` must agree every time. The bulk is marked slow; an
unmarked subset keeps the default run fast.
"""
import json
import random

import pytest
import sympy as sp
from click.testing import CliRunner
from sympy.calculus.util import continuous_domain

from gradcli.cli import main

X = sp.Symbol("x", real=True)
SEPARATORS = (" U ", " ∪ ", ", ", " u ")


def run(args):
    out = CliRunner().invoke(main, args)
    assert out.exit_code in (0, 1), out.output
    return json.loads(out.output)["answers"]


def text(v) -> str:
    if v == sp.oo:
        return "inf"
    if v == -sp.oo:
        return "-inf"
    return str(v).replace("**", "^")


# ---------------------------------------------------------------- functions

def polynomial(rng):
    roots = rng.sample(range(-4, 5), rng.choice((1, 2, 3)))
    k = rng.choice((-3, -2, -1, 1, 2, 3))
    d = k * sp.prod([(X - r) ** rng.choice((1, 1, 2)) for r in roots])
    return sp.expand(sp.integrate(d, X)) + rng.randint(-5, 5)


def rational(rng):
    a = rng.choice((1, 2, 3))
    form = rng.choice(("x/(x^2-a^2)", "x^2/(x^2-a^2)", "(x+b)/(x-a)", "1/(x-a)^2"))
    b = rng.choice((-2, -1, 1, 2, 3))
    if form == "x/(x^2-a^2)":
        return X / (X ** 2 - a ** 2)
    if form == "x^2/(x^2-a^2)":
        return X ** 2 / (X ** 2 - a ** 2)
    if form == "(x+b)/(x-a)":
        return (X + b) / (X - a) if b != -a else (X + b + 1) / (X - a)
    return 1 / (X - a) ** 2


def real_root_family(rng):
    """x^(a/3)(x - b) as gradcli reads it (the real cube root), and g(t) = f(t^3) =
    t^a (t^3 - b), a polynomial: x = t^3 is increasing, so f increases where g does and
    has its extrema at the cubes of g's (the judge of this family)."""
    a = rng.choice((1, 2, 4, 5))
    b = rng.choice((-3, -2, -1, 1, 2, 3))
    T = sp.Symbol("t", real=True)
    text = f"x^({a}/3)(x - {b})" if b > 0 else f"x^({a}/3)(x + {-b})"
    return text, T ** a * (T ** 3 - b), T


def root_truth(g, T):
    d = sp.diff(g, T)

    def where(positive):
        s = sp.solve_univariate_inequality(d > 0 if positive else d < 0, T, relational=False)
        return sp.Union(*[sp.Interval.open(p[0] ** 3, p[1] ** 3) for p in components(s)])
    pts = sorted(set(sp.real_roots(sp.Poly(d, T))))
    h = sp.Rational(1, 10 ** 6)
    signs = {c: (sp.sign(d.subs(T, c - h)), sp.sign(d.subs(T, c + h))) for c in pts}
    f_of = (lambda x: g.subs(T, sp.real_root(x, 3)))
    return {"domain": sp.S.Reals, "f": None, "f_of": f_of,
            "increasing": where(True), "decreasing": where(False),
            "relative_max": [c ** 3 for c, s in signs.items() if s == (1, -1)],
            "relative_min": [c ** 3 for c, s in signs.items() if s == (-1, 1)],
            "critical": [c ** 3 for c in pts]}


# ---------------------------------------------------------------- the judge

def truth(f):
    """The exact answers, by SymPy alone."""
    dom = continuous_domain(f, X, sp.S.Reals)
    d1, d2 = sp.diff(f, X), sp.diff(f, X, 2)

    def where(expr, positive):
        s = sp.solve_univariate_inequality(expr > 0 if positive else expr < 0, X,
                                           relational=False)
        return s & dom

    def changes(d):
        num = sp.numer(sp.together(d))
        pts = sorted(set(sp.real_roots(sp.Poly(num, X)))) if sp.degree(num, X) > 0 else []
        out = {}
        h = sp.Rational(1, 10 ** 6)
        for c in pts:
            if c not in dom:
                continue
            left, right = sp.sign(d.subs(X, c - h)), sp.sign(d.subs(X, c + h))
            out[c] = (left, right)
        return out
    first, second = changes(d1), changes(d2)
    return {"domain": dom, "f": f,
            "increasing": where(d1, True), "decreasing": where(d1, False),
            "concave_up": where(d2, True), "concave_down": where(d2, False),
            "relative_max": [c for c, s in first.items() if s == (1, -1)],
            "relative_min": [c for c, s in first.items() if s == (-1, 1)],
            "inflection": [c for c, s in second.items() if s[0] * s[1] == -1],
            "critical": list(first)}


def judge_intervals(t, key, typed):
    """typed: [(open_a, a, b, open_b)]: right when its closure is the truth's and every
    interval lies in the domain (closed only at points of the domain)."""
    dom = t["domain"]
    union = sp.EmptySet
    for oa, a, b, ob in typed:
        if not sp.Interval.open(a, b).is_subset(dom):
            return False
        for is_open, e in ((oa, a), (ob, b)):
            if not is_open and (not e.is_finite or e not in dom):
                return False
        union = union | sp.Interval(a, b)
    return union.closure == t[key].closure


def judge_points(t, key, typed):
    """typed: [(x, value or None)]: right when the x's are exactly the truth's and each
    value is f there."""
    xs = [x for x, _ in typed]
    if sorted(xs, key=float) != sorted(t[key], key=float) or len(set(xs)) != len(xs):
        return False
    f_of = t.get("f_of") or (lambda x: t["f"].subs(X, x))
    return all(v is None or sp.simplify(f_of(x) - v) == 0 for x, v in typed)


# ---------------------------------------------------------------- answers

def components(s):
    if s == sp.EmptySet:
        return []
    parts = s.args if isinstance(s, sp.Union) else (s,)
    return [(p.start, p.end) for p in parts]


def interval_answer(rng, pairs, dom):
    """A written answer for the intervals `pairs`: typed tuples and text, in a random form."""
    typed = []
    for a, b in pairs:
        oa = not (a.is_finite and a in dom and rng.random() < 0.3)
        ob = not (b.is_finite and b in dom and rng.random() < 0.3)
        typed.append((oa, a, b, ob))
    return typed


def write_intervals(rng, typed):
    if not typed:
        return rng.choice(("none", "None", "∅"))
    items = typed[:]
    rng.shuffle(items)
    sep = rng.choice(SEPARATORS)
    return sep.join(f"{'(' if oa else '['}{text(a)}, {text(b)}{')' if ob else ']'}"
                    for oa, a, b, ob in items)


def split_one(rng, pairs):
    """An interval split at a point inside it (allowed: f is continuous there)."""
    if not pairs:
        return pairs
    i = rng.randrange(len(pairs))
    a, b = pairs[i]
    lo = a if a.is_finite else (b - 3 if b.is_finite else sp.Integer(-3))
    hi = b if b.is_finite else lo + 3
    c = sp.Rational(int(sp.floor((lo + hi) / 2 * 4)), 4)
    if not lo < c < hi:
        return pairs
    return pairs[:i] + [(a, c), (c, b)] + pairs[i + 1:]


def interval_variants(rng, t, key):
    """(typed, text) answers for an interval kind: right forms and plausible wrong ones."""
    other = {"increasing": "decreasing", "decreasing": "increasing",
             "concave_up": "concave_down", "concave_down": "concave_up"}[key]
    pairs = components(t[key])
    dom = t["domain"]
    right = [interval_answer(rng, pairs, dom), interval_answer(rng, split_one(rng, pairs), dom)]
    wrong = [interval_answer(rng, components(t[other]), dom)]
    if pairs:
        a, b = pairs[-1]
        shifted = (a, b + 1) if b.is_finite else ((a - 1, b) if a.is_finite else None)
        if shifted:
            wrong.append(interval_answer(rng, pairs[:-1] + [shifted], dom))
        wrong.append(interval_answer(rng, pairs[1:], dom))
        hull = (pairs[0][0], pairs[-1][1])
        wrong.append([(True, hull[0], hull[1], True)])
        if pairs[0][0].is_finite:
            wrong.append([(False,) + (pairs[0][0], pairs[0][1], True)] + [
                (True, a, b, True) for a, b in pairs[1:]])
    else:
        wrong.append([(True, -sp.oo, sp.oo, True)])
    return [(v, write_intervals(rng, v)) for v in right + wrong]


def write_points(rng, typed, key):
    if not typed:
        return "none"
    items = typed[:]
    rng.shuffle(items)
    parts = []
    for x, v in items:
        parts.append(f"({text(x)}, {text(v)})" if v is not None else
                     rng.choice((f"x = {text(x)}", text(x))))
    return rng.choice((" and ", ", ", "; ")).join(parts)


def point_variants(rng, t, key):
    pts = t[key]
    f_of = t.get("f_of") or (lambda x: t["f"].subs(X, x))
    right = [[(c, None) for c in pts], [(c, sp.simplify(f_of(c))) for c in pts]]
    wrong = []
    other = {"relative_max": "relative_min", "relative_min": "relative_max"}.get(key)
    if other and t[other]:
        wrong.append([(c, None) for c in t[other]])
    if pts:
        wrong.append([(c, None) for c in pts[1:]])
        wrong.append([(pts[0], sp.simplify(f_of(pts[0])) + 1)] +
                     [(c, None) for c in pts[1:]])
    flat = [c for c in t["critical"] if c not in pts]
    if flat:
        wrong.append([(c, None) for c in pts] + [(flat[0], None)])
    extra = sp.Integer(rng.choice([n for n in range(-5, 6) if sp.Integer(n) not in pts
                                   and sp.Integer(n) in t["domain"]]))
    wrong.append([(c, None) for c in pts] + [(extra, None)])
    return [(v, write_points(rng, v, key)) for v in right + wrong]


KEYS = ("increasing", "decreasing", "concave_up", "concave_down", "relative_max",
        "relative_min", "inflection")


def analyze_cases(seed, count):
    rng = random.Random(seed)
    tally = {"right": 0, "wrong": 0, "bad": []}
    for _ in range(count):
        draw = rng.random()
        if draw < 0.25:  # real odd roots: increasing, decreasing and extrema
            ftext, g, T = real_root_family(rng)
            t = root_truth(g, T)
            keys = KEYS[:2] + KEYS[4:6]
        else:
            f = polynomial(rng) if draw < 0.75 else rational(rng)
            t = truth(f)
            keys = KEYS
            ftext = str(f).replace("**", "^")
        variants = {k: (interval_variants(rng, t, k) if k in KEYS[:4] else
                        point_variants(rng, t, k)) for k in keys}
        rounds = max(len(v) for v in variants.values())
        for r in range(rounds):
            asked = {k: v[r] for k, v in variants.items() if r < len(v)}
            args = ["check", ftext, "-o", "json"]
            for k, (_, written) in asked.items():
                args += ["--" + k.replace("_", "-"), written]
            for (k, (typed, written)), answer in zip(asked.items(), run(args)):
                judged = (judge_intervals(t, k, typed) if k in KEYS[:4]
                          else judge_points(t, k, typed))
                tally["right" if judged else "wrong"] += 1
                if answer["ok"] != judged:
                    tally["bad"].append((ftext, k, written, judged, answer))
    return tally


# ---------------------------------------------------------------- extrema

def extrema_truth(f, a, b, g=None, T=None):
    """The closed interval method by SymPy; for the real-root family f(x) = g(x^(1/3)),
    the critical numbers are the cubes of g's (and 0, where f' may be infinite)."""
    if g is not None:
        d = sp.diff(g, T)
        inside = [r ** 3 for r in sp.real_roots(sp.Poly(d, T)) if a < r ** 3 < b]
        inside += [sp.Integer(0)] if a < 0 < b else []
        value_of = (lambda c: sp.simplify(g.subs(T, sp.real_root(c, 3))))
    else:
        d = sp.diff(f, X)
        inside = [r for r in sp.real_roots(sp.Poly(d, X)) if a < r < b] \
            if sp.degree(d, X) > 0 else []
        value_of = (lambda c: sp.nsimplify(sp.expand(f.subs(X, c))))
    cands = sorted(set(inside) | {a, b}, key=float)
    values = {c: value_of(c) for c in cands}
    hi = max(values.values(), key=float)
    lo = min(values.values(), key=float)
    return {"max": (hi, [c for c in cands if sp.simplify(values[c] - hi) == 0]),
            "min": (lo, [c for c in cands if sp.simplify(values[c] - lo) == 0]),
            "values": values, "inside": inside}


def write_extremum(rng, value, pts):
    at = " and ".join(f"x = {text(p)}" for p in pts or ())
    forms = []
    if value is not None and pts:
        forms += [f"{text(value)} at {at}"]
        if len(pts) == 1:
            forms.append(f"f({text(pts[0])}) = {text(value)}")
    elif value is not None:
        forms.append(text(value))
    else:
        forms.append(at)
    return rng.choice(forms)


def extrema_variants(rng, t, key):
    value, pts = t[key]
    other = t["min" if key == "max" else "max"]
    right = [(value, pts), (value, None), (None, pts), (value, pts[::-1])]
    wrong = [(other[0], other[1]), (value + 1, pts)]
    if len(pts) > 1:
        wrong.append((value, pts[:1]))
    inner = [c for c in t["inside"] if c not in pts]
    if inner:
        wrong.append((t["values"][inner[0]], inner[:1]))
    far = [c for c in t["values"] if c not in pts]
    if far:
        wrong.append((None, far[:1]))
    return right + wrong


def judge_extremum(t, key, value, pts):
    v, where = t[key]
    if value is not None and sp.simplify(value - v) != 0:
        return False
    return pts is None or sorted(pts, key=float) == sorted(where, key=float)


def extrema_cases(seed, count):
    rng = random.Random(seed)
    tally = {"right": 0, "wrong": 0, "bad": []}
    for _ in range(count):
        draw = rng.random()
        g = T = None
        if draw < 0.25:  # even: ties at ±c
            f = sp.expand(rng.choice((1, -1)) * (X ** 4 - 2 * rng.choice((1, 2, 4)) * X ** 2))
            b = rng.choice((1, 2, 3))
            a = -b
        elif draw < 0.45:  # real odd roots: cubes as ends, so the values stay simple
            ftext, g, T = real_root_family(rng)
            a = -rng.choice((1, 8, 27))
            b = rng.choice((1, 8, 27))
        else:
            f = polynomial(rng)
            a = rng.randint(-4, 1)
            b = a + rng.randint(1, 5)
        a, b = sp.Integer(a), sp.Integer(b)
        if g is None:
            t = extrema_truth(f, a, b)
            ftext = str(f).replace("**", "^")
        else:
            t = extrema_truth(None, a, b, g, T)
        variants = {k: extrema_variants(rng, t, k) for k in ("max", "min")}
        for r in range(max(len(v) for v in variants.values())):
            asked = {k: v[r] for k, v in variants.items() if r < len(v)}
            args = ["check", ftext, "--over", f"x={a}:{b}", "-o", "json"]
            written = {}
            for k, (value, pts) in asked.items():
                written[k] = write_extremum(rng, value, pts)
                args += [f"--abs-{k}", written[k]]
            for (k, (value, pts)), answer in zip(asked.items(), run(args)):
                judged = judge_extremum(t, k, value, pts)
                tally["right" if judged else "wrong"] += 1
                if answer["ok"] != judged:
                    tally["bad"].append((ftext, f"[{a}, {b}]", k, written[k], judged, answer))
    return tally


# ---------------------------------------------------------------- the tests

def test_analyze_verdicts_agree_with_sympy_fast():
    tally = analyze_cases(7, 1)
    assert tally["right"] >= 3 and tally["wrong"] >= 3, tally
    assert tally["bad"] == []


def test_extrema_verdicts_agree_with_sympy_fast():
    tally = extrema_cases(11, 2)
    assert tally["right"] >= 5 and tally["wrong"] >= 5, tally
    assert tally["bad"] == []


@pytest.mark.slow
def test_analyze_verdicts_agree_with_sympy():
    tally = analyze_cases(2026, 40)
    assert tally["right"] >= 200 and tally["wrong"] >= 200, tally
    assert tally["bad"] == [], tally["bad"][:5]


@pytest.mark.slow
def test_extrema_verdicts_agree_with_sympy():
    tally = extrema_cases(1205, 40)
    assert tally["right"] >= 200 and tally["wrong"] >= 200, tally
    assert tally["bad"] == [], tally["bad"][:5]
