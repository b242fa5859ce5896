"""Generated verdicts for the chain rule (check --with) and surfaces' normal lines (check
--normal), SymPy as the judge: every right answer accepted, every wrong one refused.

The questions are drawn from seeded templates; the right answers are written
here, independently of gradcli's own printing (the mixed form, the substituted
form, a multiple of the normal through another point of the line, in every
form a book prints); the wrong ones are the usual mistakes and small slips.
SymPy decides which is which, never gradcli. 5 + 5 chain-rule and 20 + 20 normal-line cases run by default;
the full 200 + 200 per kind are marked slow.
"""
import random
import re

import pytest
import sympy as S

from gradcli.tasks.check import check_homework

X, Y, Z, SS, T = (S.Symbol(n, real=True) for n in "xyzst")
OUTER = ["x**2 + y**2", "x*y", "x**2*y", "x*y**2 + x", "sin(x)*y", "exp(x*y)", "x*exp(y)",
         "x**3 - 2*x*y", "cos(x + y)", "x/(1 + y**2)", "sqrt(1 + x**2 + y**2)", "x**2 - 3*y"]
INNER_ONE = [("t**2", "sin(t)"), ("2*t + 1", "t**3"), ("cos(t)", "sin(t)"), ("exp(t)", "t**2"),
             ("t", "1/(1 + t**2)"), ("3*t - 2", "2*t + 5")]
INNER_TWO = [("s*cos(t)", "s*sin(t)"), ("s*t**2", "s**2*t"), ("s + t", "s - t"),
             ("2*s + t", "s*t"), ("s*exp(t)", "t*exp(s)"), ("s**2 - t", "s*t + 1")]


def _text(e) -> str:
    return re.sub(r"\bE\b", "e", str(e).replace("**", "^"))


def chain_case(rng):
    f = S.sympify(OUTER[rng.randrange(len(OUTER))], locals={"x": X, "y": Y})
    if rng.random() < 0.4:
        xs, ys = INNER_ONE[rng.randrange(len(INNER_ONE))]
        params = [T]
    else:
        xs, ys = INNER_TWO[rng.randrange(len(INNER_TWO))]
        params = [SS, T]
    loc = {"s": SS, "t": T}
    xi, yi = S.sympify(xs, locals=loc), S.sympify(ys, locals=loc)
    p = params[rng.randrange(len(params))]
    with_text = f"x = {_text(xi)}, y = {_text(yi)}"
    fx, fy = S.diff(f, X), S.diff(f, Y)
    dx, dy = S.diff(xi, p), S.diff(yi, p)
    sub = {X: xi, Y: yi}
    truth = S.diff(f.xreplace(sub), p)
    right = [fx * dx + fy * dy, (fx * dx + fy * dy).xreplace(sub),
             S.expand((fx * dx + fy * dy).xreplace(sub)), fy * dy + fx * dx]
    wrong = [fx * dx, fy * dy, fx * dy + fy * dx, fx * dx - fy * dy, 2 * (fx * dx + fy * dy),
             fx * dx + fy * dy + 1, fx + fy, (fx * dx + fy * dy) * p,
             fx * S.diff(xi, T if p == SS else SS) + fy * S.diff(yi, T if p == SS else SS)]
    return f, with_text, p, params, truth, sub, right, wrong


def is_right(answer, truth, sub, params) -> bool:
    """SymPy's judgement: the answer, inner functions substituted, is the derivative."""
    d = answer.xreplace(sub) - truth
    # A point where the difference is plainly not 0 proves the answer wrong; it is
    # looked for first because simplify spends long failing on a wrong answer.
    rng = random.Random(str(d))
    for _ in range(20):
        point = {q: S.Rational(rng.randint(3, 40), 17) * rng.choice((1, -1)) for q in params}
        v = d.xreplace(point).evalf(40)
        if v.is_real and abs(v) > 1e-20:
            return False
    if S.simplify(d) == 0 or S.simplify(S.expand_trig(d)) == 0:
        return True
    raise AssertionError(f"SymPy cannot judge {answer}")


def chain_pairs(n, seed):
    rng = random.Random(seed)
    right, wrong = [], []
    while len(right) < n or len(wrong) < n:
        f, with_text, p, params, truth, sub, rights, wrongs = chain_case(rng)
        for answer in rights + wrongs:
            verdict = is_right(answer, truth, sub, params)
            bucket = right if verdict else wrong
            if len(bucket) < n:
                bucket.append((_text(f), with_text, str(p), _text(answer), verdict))
    return right, wrong


def grade_chain(case):
    f, with_text, p, answer, _ = case
    v = check_homework(f, {}, derivatives=[(p, answer)], wrt=[p], with_=with_text)
    return v.ok


def _run_chain(n, seed):
    right, wrong = chain_pairs(n, seed)
    bad = [c for c in right if not grade_chain(c)] + [c for c in wrong if grade_chain(c)]
    assert len(right) == n and len(wrong) == n
    assert not bad, bad[:5]


def test_chain_rule_verdicts_5_right_5_wrong():
    _run_chain(5, 35)


@pytest.mark.slow
def test_chain_rule_verdicts_200_right_200_wrong():
    _run_chain(200, 3500)


# -- surfaces' normal lines ------------------------------------------------------------

TERMS = [X**2, Y**2, Z**2, X * Y, Y * Z, X * Z, X, Y, Z, X * Y * Z, Z**3, X**2 * Z]


def surface_case(rng):
    while True:
        F = sum(rng.choice((-3, -2, -1, 1, 2, 3)) * t for t in rng.sample(TERMS, 3))
        point = [S.Integer(rng.randint(-2, 2)) for _ in range(3)]
        at = dict(zip((X, Y, Z), point))
        grad = [S.diff(F, v).xreplace(at) for v in (X, Y, Z)]
        if any(g != 0 for g in grad) and len(F.free_symbols) == 3:
            k = F.xreplace(at)
            return f"{_text(F)} = {k}", point, grad


def _tuple(values) -> str:
    return "(" + ", ".join(str(v) for v in values) + ")"


def _shift(name, a) -> str:
    return name if a == 0 else f"{name} - {a}" if a > 0 else f"{name} + {-a}"


def line_texts(rng, point, direction):
    """The line through point along direction in the forms a book prints."""
    m = S.Rational(rng.choice((1, 2, 3, -1, -2, 1)), rng.choice((1, 1, 2, 3)))
    d = [m * c for c in direction]
    r = S.Integer(rng.randint(-2, 2))
    q = [a + r * c for a, c in zip(point, d)]
    names = ("x", "y", "z")
    forms = [f"(x, y, z) = {_tuple(q)} + t{_tuple(d)}", f"<{', '.join(map(str, q))}> + s<{', '.join(map(str, d))}>",
             ", ".join(f"{n} = {a} + ({c})*t" for n, a, c in zip(names, q, d))]
    fixed = [f"{n} = {a}" for n, a, c in zip(names, q, d) if c == 0]
    ratios = [f"({_shift(n, a)})/({c})" for n, a, c in zip(names, q, d) if c != 0]
    if len(ratios) >= 2:
        forms.append(", ".join(fixed + [" = ".join(ratios)]))
    forms.append(_tuple(d))
    return forms


def parallel(a, b) -> bool:
    return any(v != 0 for v in a) and all(
        a[i] * b[j] - a[j] * b[i] == 0 for i in range(3) for j in range(i + 1, 3))


def surface_pairs(n, seed):
    rng = random.Random(seed)
    right, wrong = [], []
    while len(right) < n or len(wrong) < n:
        question, point, grad = surface_case(rng)
        at = ",".join(f"{v}={a}" for v, a in zip("xyz", point))
        for text in line_texts(rng, point, grad)[:2 + rng.randrange(3)]:
            if len(right) < n:
                right.append((question, at, text, True))
        slips = []
        j = rng.choice([i for i, g in enumerate(grad) if g != 0])
        flipped = [(-g if i == j else g) for i, g in enumerate(grad)]
        slips.append((point, flipped))
        bumped = [g + (1 if i == rng.randrange(3) else 0) for i, g in enumerate(grad)]
        slips.append((point, bumped))
        off = [a + (1 if i == rng.randrange(3) else 0) for i, a in enumerate(point)]
        slips.append((off, grad))
        slips.append((point, [grad[1], grad[0], grad[2]]))
        for p0, d in slips:
            # SymPy's judgement: along the normal and through the point
            on = all(a == b for a, b in zip(p0, point)) or parallel(
                [b - a for a, b in zip(p0, point)], d)
            ok = parallel(d, grad) and on
            texts = line_texts(rng, p0, d)
            text = texts[rng.randrange(len(texts) - 1)]  # a full line, not a direction alone
            bucket = right if ok else wrong
            if len(bucket) < n:
                bucket.append((question, at, text, ok))
    return right, wrong


def grade_surface(case):
    question, at, text, _ = case
    point = {k: float(v) for k, v in (p.split("=") for p in at.split(","))}
    return check_homework(question, point, normal=text).ok


def _run_surface(n, seed):
    right, wrong = surface_pairs(n, seed)
    bad = [c for c in right if not grade_surface(c)] + [c for c in wrong if grade_surface(c)]
    assert len(right) == n and len(wrong) == n
    assert not bad, bad[:5]


def test_surface_normal_verdicts_20_right_20_wrong():
    _run_surface(20, 36)


@pytest.mark.slow
def test_surface_normal_verdicts_200_right_200_wrong():
    _run_surface(200, 3600)
