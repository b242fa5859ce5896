"""Generated verdicts for check --mvt, --normal and --implicit --order 2, SymPy the judge.

Each kind draws questions from a seeded generator, computes the true answer with
SymPy alone (solveset on the open interval, -1/f'(a), idiff with the curve's
equation), and types right answers in several forms (exact, ±, decimals rounded
to 6 digits, a line in any form, a y'' simplified with the curve's equation or
with a multiple of it added) and wrong ones (a c missed, a c outside, a c that
is not one, "does not apply" where it does, a c where it does not; the tangent,
1/m or -m for a normal, a shifted line; -y'', dy/dx, y'' off the curve's
multiple). SymPy decides each typed answer's truth again before it is graded:
a verdict that differs from SymPy's is a failure. 5 + 5 per kind run always;
the bulk (200 + 200 per kind) is marked slow.
"""
import random

import pytest
import sympy as S

from gradcli.tasks.check import check_homework

X = S.Symbol("x", real=True)
Y = S.Symbol("y", real=True)


def text(e) -> str:
    """A SymPy expression as gradcli reads it (sqrt, **, E -> e)."""
    return S.sstr(e).replace("E", "e")


def rounded(v, digits=6) -> str:
    return f"{float(v):.{digits}g}" if abs(float(v)) >= 1e-3 else f"{float(v):.{digits}e}"


def correctly_rounded(typed: str, v) -> bool:
    from decimal import Decimal
    d = Decimal(typed)
    k = len(d.as_tuple().digits)
    return Decimal(typed) == Decimal(f"{float(v):.{k}g}") or \
        Decimal(typed) == Decimal(f"{float(v):.{k - 1}e}")


# ---------------------------------------------------------------- the mean value theorem

def mvt_question(rng):
    """(f text, f, a, b, applies, the true c) for a drawn question."""
    a = rng.randint(-4, 2)
    b = a + rng.randint(1, 4)
    if rng.random() < 0.25:  # a corner, a cusp or a pole inside (a, b)
        k = rng.choice([S.Rational(a + b, 2), a + S.Rational(1, 2)])
        kind = rng.choice(["abs", "cusp", "pole"])
        f_text = {"abs": f"|x - ({k})| + {rng.randint(-3, 3)}x",
                  "cusp": f"(x - ({k}))^(2/3)", "pole": f"1/(x - ({k}))"}[kind]
        return f_text, None, a, b, False, k
    coeffs = [rng.randint(-3, 3) for _ in range(4)]
    coeffs[0] = coeffs[0] or 1
    f = sum(c * X ** (3 - i) for i, c in enumerate(coeffs))
    if rng.random() < 0.3:
        f = f + rng.randint(1, 3) * S.sqrt(X + 5)
    slope = (f.subs(X, b) - f.subs(X, a)) / (b - a)
    g = S.diff(f, X) - slope
    if S.expand(g) == 0:
        return mvt_question(rng)
    sols = S.solveset(g, X, S.Interval.open(a, b))
    if not isinstance(sols, S.FiniteSet):  # no closed form: the book's c would be decimals
        return mvt_question(rng)
    return text(f), f, a, b, True, sorted(sols, key=float)


def mvt_truth(f, a, b, applies, cs, typed_values, says_applies) -> bool:
    """SymPy's verdict on a typed answer: the same claim and exactly the same c."""
    if not applies:
        return not says_applies
    if not says_applies or len(typed_values) != len(cs):
        return False
    return all(any(_same(v, c) for v in typed_values) for c in cs) and \
        all(any(_same(v, c) for c in cs) for v in typed_values)


def _same(v, c) -> bool:
    if isinstance(v, str):  # a decimal: right when it is c correctly rounded
        return correctly_rounded(v, c)
    return S.simplify(v - c) == 0


def mvt_answers(rng, q):
    """[(answer text, SymPy's verdict)] for one question: right and wrong forms."""
    f_text, f, a, b, applies, cs = q
    out = []
    if not applies:
        out.append(("does not apply", True))
        out.append((f"c = {text(cs)}", False))
        out.append((f"c = {S.Rational(a + b, 2) + S.Rational(1, 3)}", False))
        return out
    if cs:
        exact = " and ".join(f"c = {text(c)}" for c in cs)
        out.append((exact, True))
        out.append((", ".join(rounded(c) for c in cs), True))
        out.append((exact, True))
        out.append(("does not apply", False))
        if len(cs) > 1:
            out.append((f"c = {text(cs[0])}", False))
        out.append((exact + f" and c = {b}", False))
        out.append((" and ".join(f"c = {text(c + S.Rational(1, 7))}" for c in cs), False))
        bad = rounded(cs[0])
        last = str((int(bad[-1]) + 2) % 10) if bad[-1].isdigit() else None
        if last and "e" not in bad:
            out.append((", ".join([bad[:-1] + last] + [rounded(c) for c in cs[1:]]), False))
    else:
        out.append(("none", True))
        out.append((f"c = {S.Rational(a + b, 2)}", False))
    verdicts = []
    for answer, _ in out:
        says = answer != "does not apply"
        values = [] if answer in ("none", "does not apply") else [
            (S.sympify(t.replace("c = ", "")) if not _decimal(t) else t.strip())
            for t in answer.replace(" and ", ",").split(",")]
        verdicts.append((answer, mvt_truth(f, a, b, applies, cs, values, says)))
    return verdicts


def _decimal(t: str) -> bool:
    t = t.replace("c = ", "").strip()
    return any(ch == "." for ch in t) and not any(ch.isalpha() and ch != "e" for ch in t)


def mvt_cases(seed, n_right, n_wrong):
    rng = random.Random(seed)
    right, wrong = [], []
    while len(right) < n_right or len(wrong) < n_wrong:
        q = mvt_question(rng)
        for answer, truth in mvt_answers(rng, q):
            case = (q[0], f"x={q[2]}:{q[3]}", answer, truth)
            if truth and len(right) < n_right:
                right.append(case)
            elif not truth and len(wrong) < n_wrong:
                wrong.append(case)
    return right + wrong


# ---------------------------------------------------------------- normal lines

_SHAPES = [lambda r: r.randint(-3, 3) * X ** 3 + r.randint(-3, 3) * X ** 2 + r.randint(1, 4) * X,
           lambda r: r.randint(1, 3) * S.sin(X) + r.randint(0, 2) * X,
           lambda r: S.exp(r.randint(1, 2) * X) + r.randint(-2, 2) * X ** 2,
           lambda r: S.sqrt(X + 4) * r.randint(1, 3),
           lambda r: r.randint(1, 3) * X ** 2 + r.randint(-2, 2)]


def normal_question(rng):
    f = rng.choice(_SHAPES)(rng)
    a = rng.choice([-1, 0, 1, 2, S.pi / 2] if f.has(S.sin) else [-1, 0, 1, 2])
    return f, a


def normal_truth(f, a, answer: str) -> bool:
    """SymPy's verdict on the typed line: it passes through (a, f(a)) with slope -1/f'(a)."""
    yy = S.Symbol("yy")
    left, right = answer.split("=")
    names = {"x": X, "y": yy, "e": S.E}
    g = S.expand(S.sympify(left, locals=names) - S.sympify(right, locals=names))
    gx, gy, g0 = g.coeff(X), g.coeff(yy), g.subs({X: 0, yy: 0})
    fa, m = f.subs(X, a), S.diff(f, X).subs(X, a)
    if S.simplify(gx * a + gy * fa + g0) != 0:
        return False
    if S.simplify(m) == 0:
        return gy == 0 and gx != 0
    return gy != 0 and S.simplify(-gx / gy + 1 / m) == 0


def normal_cases(seed, n_right, n_wrong):
    rng = random.Random(seed)
    right, wrong = [], []
    while len(right) < n_right or len(wrong) < n_wrong:
        f, a = normal_question(rng)
        fa, m = f.subs(X, a), S.diff(f, X).subs(X, a)
        A, FA = text(a), text(fa)
        if S.simplify(m) == 0:
            forms = [f"x = {A}", f"y = {FA}"]
        else:
            n = -1 / m
            forms = [f"y = {FA} + ({text(n)})*(x - ({A}))",
                     f"y = ({text(n)})*x + {text(S.expand(fa - n * a))}",
                     f"({text(m)})*(y - ({FA})) + x - ({A}) = 0",
                     f"y = {FA} + ({text(m)})*(x - ({A}))",
                     f"y = {FA} + ({text(1 / m)})*(x - ({A}))",
                     f"y = {text(fa + 1)} + ({text(n)})*(x - ({A}))",
                     f"y = {FA} + ({text(n * S.Rational(1001, 1000))})*(x - ({A}))"]
            if S.simplify(m ** 2 - 1) != 0:
                forms.append(f"y = {FA} + ({text(-m)})*(x - ({A}))")
        for answer in forms:
            truth = normal_truth(f, a, answer)
            case = (text(f), f"x={A}", answer, truth)
            if truth and len(right) < n_right:
                right.append(case)
            elif not truth and len(wrong) < n_wrong:
                wrong.append(case)
    return right + wrong


# ---------------------------------------------------------------- implicit second derivatives

def curve(rng):
    """An irreducible polynomial curve F(x, y) = 0 and its text."""
    while True:
        kind = rng.random()
        if kind < 0.5:
            A, B, C = rng.randint(1, 4), rng.randint(-2, 2), rng.randint(1, 4)
            D, E, K = rng.randint(-2, 2), rng.randint(-2, 2), rng.randint(1, 30)
            F = A * X ** 2 + B * X * Y + C * Y ** 2 + D * X + E * Y - K
        elif kind < 0.8:
            F = X ** 3 + rng.randint(1, 3) * Y ** 3 + rng.randint(-2, 2) * X * Y - rng.randint(1, 9)
        else:
            F = Y ** 2 - X ** 3 - rng.randint(-3, 3) * X - rng.randint(1, 5)
        factors = S.factor_list(F)[1]
        if len(factors) == 1 and factors[0][1] == 1 and S.diff(F, Y) != 0:
            return F


def second_truth(F, truth, answer) -> bool:
    """SymPy's verdict: answer - y'' (truth, from idiff) vanishes on the (irreducible)
    curve F = 0."""
    num = S.fraction(S.cancel(S.together(answer - truth)))[0]
    return S.expand(num) == 0 or S.reduced(S.expand(num), [F], X, Y)[1] == 0


def second_cases(seed, n_right, n_wrong):
    rng = random.Random(seed)
    right, wrong = [], []
    while len(right) < n_right or len(wrong) < n_wrong:
        F = curve(rng)
        truth = S.factor(S.idiff(F, Y, X, 2))  # SymPy's own implicit differentiation
        fy = S.diff(F, Y)
        first = -S.diff(F, X) / fy
        forms = [truth, S.together(truth + F * (X + 1) / fy ** 3),
                 S.together(truth + F * rng.randint(1, 5) / fy ** 3),
                 -truth, 2 * truth, first, S.together(truth + 1 / fy ** 3),
                 S.together(truth + F ** 2 / fy ** 3)]
        for form in forms:
            verdict = second_truth(F, truth, form)
            case = (f"{text(F)} = 0", text(form), verdict)
            if verdict and len(right) < n_right:
                right.append(case)
            elif not verdict and len(wrong) < n_wrong:
                wrong.append(case)
    return right + wrong


# ---------------------------------------------------------------- the tests

def _grade_mvt(case):
    f_text, over, answer, truth = case
    verdict = check_homework(f_text, {}, mvt=answer, over=over)
    return verdict.ok, truth


def _grade_normal(case):
    f_text, at, answer, truth = case
    from gradcli import api
    verdict = check_homework(f_text, api.parse_bindings([at]), normal=answer)
    return verdict.ok, truth


def _grade_second(case):
    eq, answer, truth = case
    verdict = check_homework(eq, {}, implicit=answer, order=2)
    return verdict.ok, truth


def _run(cases, grade, n_right, n_wrong):
    assert sum(1 for c in cases if c[-1]) == n_right
    assert sum(1 for c in cases if not c[-1]) == n_wrong
    bad = [c for c in cases if grade(c)[0] != c[-1]]
    assert not bad, bad[:5]


FAST, BULK = (5, 5), (200, 200)


def test_mvt_verdicts_agree_with_sympy():
    _run(mvt_cases(1, *FAST), _grade_mvt, *FAST)


def test_normal_verdicts_agree_with_sympy():
    _run(normal_cases(1, *FAST), _grade_normal, *FAST)


def test_implicit_second_verdicts_agree_with_sympy():
    _run(second_cases(1, *FAST), _grade_second, *FAST)


@pytest.mark.slow
def test_mvt_verdicts_agree_with_sympy_in_bulk():
    _run(mvt_cases(2, *BULK), _grade_mvt, *BULK)


@pytest.mark.slow
def test_normal_verdicts_agree_with_sympy_in_bulk():
    _run(normal_cases(2, *BULK), _grade_normal, *BULK)


@pytest.mark.slow
def test_implicit_second_verdicts_agree_with_sympy_in_bulk():
    _run(second_cases(2, *BULK), _grade_second, *BULK)
