"""Generated verdicts for check --div/--curl/--laplacian/--jacobian-det/--partial, SymPy the judge.

Fields and functions are drawn (seeded) from textbook-sized terms; the right
answer is SymPy's own result written in another equivalent form (expanded,
factored, simplified, as computed), a wrong one is the right one changed as a
student would (a term dropped, a sign flipped, a factor changed, a term added,
x and y swapped), kept only when SymPy proves it differs. gradcli's verdict
must agree with SymPy's on every one. A fast subset runs always (4 right and
4 wrong per kind); the full 200 + 200 per kind is marked slow.
"""
import random

import pytest
import sympy as sp

from gradcli.tasks.check import check_homework

X, Y, Z = sp.symbols("x y z", real=True)
KINDS = ("div", "curl", "laplacian", "jacobian_det", "partial")


def _term(rng, names):
    a, b = rng.choice(names), rng.choice(names)
    k = rng.randint(1, 3)
    return rng.choice([
        k * a ** rng.randint(1, 3) * b ** rng.randint(0, 2),
        k * sp.sin(a * b) if a != b else k * sp.sin(2 * a),
        sp.cos(k * a) * b,
        a * sp.exp(k * b) if a != b else sp.exp(k * a),
        k * a * b,
        sp.Integer(rng.randint(-4, 4)) * a ** 2,
    ])


def _expr(rng, names, terms=2):
    return sum((_term(rng, names) for _ in range(rng.randint(1, terms))), sp.Integer(0))


def _text(e) -> str:
    return sp.sstr(e).replace("**", "^")


def _form(rng, e):
    return rng.choice([sp.expand, sp.factor, lambda v: v, sp.simplify])(e)


def _wrong(rng, e, names):
    """A student's slip on e; SymPy decides it differs (else None)."""
    terms = sp.Add.make_args(sp.expand(e))
    way = rng.randrange(5)
    if way == 0 and len(terms) > 1:
        w = e - rng.choice(terms)
    elif way == 1 and terms:
        t = rng.choice(terms)
        w = e - 2 * t
    elif way == 2:
        w = 2 * e if e != 0 else X
    elif way == 3:
        w = e + _term(rng, names)
    else:
        w = e.subs({X: Y, Y: X}, simultaneous=True)
    return w if _differs(w - e) else None


# Points where a slip is shown to differ: a nonzero value at any one proves it (cheaper
# than simplify, which cost half of this test's time). A slip that is 0 at all three
# is dropped, never counted as wrong.
PROBES = [{X: sp.Rational(7, 5), Y: sp.Rational(-3, 4), Z: sp.Rational(5, 7)},
          {X: sp.Rational(-2, 3), Y: sp.Rational(9, 4), Z: sp.Rational(-6, 5)},
          {X: sp.Rational(1, 3), Y: sp.Rational(2, 7), Z: sp.Rational(11, 4)}]


def _differs(d) -> bool:
    if sp.expand(d) == 0:
        return False
    return any(abs(sp.N(d.xreplace(p), 30)) > 1e-20 for p in PROBES)


def _case(kind, rng):
    """(question text, keyword answers for check_homework, SymPy's answer, names)."""
    n = 3 if kind in ("div", "curl", "laplacian") and rng.random() < 0.5 else 2
    if kind == "jacobian_det" and rng.random() < 0.25:
        n = 3
    names = [X, Y, Z][:n]
    if kind in ("laplacian", "partial"):
        f = _expr(rng, names, 3)
        names = sorted(f.free_symbols, key=str)
        if not names:
            return _case(kind, rng)
        if kind == "laplacian":
            return _text(f), sum(sp.diff(f, v, 2) for v in names), names, None
        seq = [rng.choice(names) for _ in range(rng.randint(2, 3))]
        r = f
        for v in seq:
            r = sp.diff(r, v)
        return _text(f), r, names, "".join(str(v) for v in seq)
    F = [_expr(rng, names) for _ in names]
    text = "[" + ", ".join(_text(c) for c in F) + "]"
    if kind == "div":
        return text, sum(sp.diff(c, v) for c, v in zip(F, names)), names, None
    if kind == "jacobian_det":
        return text, sp.Matrix([[sp.diff(c, v) for v in names] for c in F]).det(), names, None
    if n == 2:
        return text, sp.diff(F[1], X) - sp.diff(F[0], Y), names, None
    P, Q, R = F
    return text, [sp.diff(R, Y) - sp.diff(Q, Z), sp.diff(P, Z) - sp.diff(R, X),
                  sp.diff(Q, X) - sp.diff(P, Y)], names, None


def _answer_text(rng, value, wrong, names):
    if isinstance(value, list):
        if wrong:
            i = rng.randrange(3)
            bad = _wrong(rng, value[i], names)
            if bad is None:
                return None
            value = [bad if j == i else v for j, v in enumerate(value)]
        return "[" + ", ".join(_text(_form(rng, v)) for v in value) + "]"
    if wrong:
        value = _wrong(rng, value, names)
        if value is None:
            return None
    return _text(_form(rng, value))


def _uses_only(answer, names) -> bool:
    """A slip that brings in a variable the question lacks is bad input, not a verdict."""
    value = sp.sympify(answer.replace("^", "**"))
    used = {str(s) for v in (value if isinstance(value, list) else [value])
            for s in v.free_symbols}
    return used <= {str(n) for n in names}


def _verdicts(kind, right, wrong, seed):
    """(cases run, the ones gradcli got wrong)."""
    rng = random.Random(f"{kind}-{seed}")
    want = {True: right, False: wrong}
    misjudged, done = [], 0
    while want[True] or want[False]:
        text, value, names, seq = _case(kind, rng)
        is_right = want[True] >= want[False] if want[True] and want[False] else bool(want[True])
        answer = _answer_text(rng, value, not is_right, names)
        if answer is None or not _uses_only(answer, names):
            continue
        key = {"partial": [f"{seq} = {answer}"]} if kind == "partial" else {kind: answer}
        verdict = check_homework(text, {}, **key)
        done += 1
        want[is_right] -= 1
        if verdict.ok != is_right:
            misjudged.append((text, answer, is_right, verdict.answers[0].reason))
    return done, misjudged


@pytest.mark.parametrize("kind", KINDS)
def test_verdicts_fast(kind):
    done, misjudged = _verdicts(kind, 4, 4, "fast")
    assert done == 8 and misjudged == [], misjudged


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_verdicts_full(kind):
    done, misjudged = _verdicts(kind, 200, 200, "full")
    assert done == 400 and misjudged == [], misjudged[:5]
