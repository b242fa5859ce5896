"""A Taylor polynomial graded coefficient by coefficient, exactly, at every order.

The answer is read into SymPy (decimals exactly as typed, `x^13/13!` exactly, each
rounded literal an unknown), shifted to powers of (x - a) and expanded: each
coefficient up to the order asked is compared with the question's own (exact,
or to digits.PRECISION digits from the power series; exact.taylor_exact), and
each beyond it must be 0. No coefficient is ignored for being small: the x^13
term of sin x is 1/13! ≈ 1.6e-10 and its absence is a missing term. With no
rounded literal the comparison is exact ("decided_by": "proof"); with them each
literal matched to the number it stands for must be its correct rounding
("digits"). None where SymPy cannot read the question or the answer (not a
polynomial, say): taylor.py then grades by sampling and names it.
"""
from __future__ import annotations

import math

from ...limits import MAX_TAYLOR_ORDER
from ..taylor import taylor as taylor_of
from .digits import judge, with_unknowns
from .exact import exact_point, taylor_exact
from .formula import parse_answer
from .shared import scalar_point, seeded_rng
from .tangentproof import _agrees, _describe
from .verdict import Answer

_NAMING_RTOL = 1e-12  # two coefficients this close (relative) are the same when naming


def exact_taylor(question, answer: str, poly: str, order: int, context, name_taylor):
    """The verdict by exact coefficients and the digits rule per literal, or None."""
    import sympy as sp

    from ...symbolic.tosympy import NoSympyForm, symbol
    variables = question.variables
    point = scalar_point(question.at, variables, "--taylor")
    exact_at = exact_point(question.at, variables)
    if exact_at is None:
        return None
    program = parse_answer(poly, question.program, variables, "the Taylor polynomial")
    xs = [symbol(v) for v in variables]
    try:
        expr, unknowns = with_unknowns(program, point)
        if _too_high(expr):
            return None
        shifted = sp.expand(expr.subs({x: x + exact_at[v] for x, v in zip(xs, variables)},
                                      simultaneous=True))
        if not shifted.is_polynomial(*xs):
            return None
        poly_terms = sp.Poly(shifted, *xs).terms()
    except (NoSympyForm, sp.PolynomialError, TypeError, ValueError, ArithmeticError):
        return None
    theirs = {}
    for monomial, c in poly_terms:
        key = tuple((v, k) for v, k in zip(variables, monomial) if k)
        theirs[key] = c
    deep = min(order + 2, MAX_TAYLOR_ORDER)
    truth_coefficients = taylor_exact(question.program, question.at, variables, deep)
    if truth_coefficients is None:
        return None
    right = {k: v for k, v in truth_coefficients.items()
             if sum(e for _, e in k) <= order}
    keys = sorted(set(theirs) | {k for k, v in right.items() if v != 0},
                  key=lambda k: (sum(e for _, e in k), k))
    quantities = [theirs.get(k, sp.Integer(0)) for k in keys]
    truths = [right.get(k, sp.Integer(0)) for k in keys]
    judged = judge(quantities, truths, unknowns, _describe)
    truth = taylor_of(question.text, point, order)
    engine = {tuple(sorted(term.powers.items())): term.coefficient for term in truth.terms}
    if not _agrees([right.get(k, 0) for k in engine], list(engine.values())):
        return None  # SymPy's reading differs from the engine's (a branch, a kink): sample
    a = Answer("taylor", f"T{order}", answer.strip(), key=f"T{order}",
               expected=truth.polynomial, expected_to=truth.polynomial_to)
    a.correct = truth.polynomial
    a.decided_by = judged.decided_by
    if all(judged.oks):
        a.ok = True
        return a
    typed = {s: v for s, _, v in unknowns}
    ok_of = dict(zip(keys, judged.oks))
    theirs_f = {k: float(sp.N(c.subs(typed), 30)) for k, c in theirs.items()}
    all_truth = {k: float(sp.N(v, 30)) for k, v in truth_coefficients.items()}
    right_f = {k: v for k, v in all_truth.items() if sum(e for _, e in k) <= order}

    def same(c, r, key=None):
        if key is not None and key in ok_of and _is(c, theirs_f.get(key, 0.0)) \
                and _is(r, right_f.get(key, 0.0)):
            return ok_of[key]
        c, r = float(c), float(r)
        return c == r or abs(c - r) <= _NAMING_RTOL * max(abs(c), abs(r))

    name_taylor(a, question.text, variables, point, order, theirs_f, right_f, keys, same,
                program, truth, seeded_rng(question.text, answer), context.atol)
    if a.mistake == "wrong-order" and int(a.mistake_detail[1:]) < order:
        lower = int(a.mistake_detail[1:])
        missing = [k for k in keys if lower < sum(e for _, e in k) <= order
                   and right.get(k, 0) != 0]
        if missing:
            a.reason += "; missing: " + ", ".join(
                f"the {_monomial_text(k, point)} term (coefficient {_describe(right[k])})"
                for k in missing)
    if judged.notes:
        a.reason += "; " + "; ".join(judged.notes)
    return a


def _monomial_text(key, point) -> str:
    from ..taylor import Term, polynomial_text
    return polynomial_text([Term(1, dict(key))], point)


def _is(x, y) -> bool:
    return float(x) == float(y) or (math.isnan(float(x)) and math.isnan(float(y)))


_HIGHEST = 64  # a power beyond this is no textbook answer: expanding it could take minutes


def _too_high(expr) -> bool:
    import sympy as sp
    return any(p.exp.is_Integer and abs(p.exp) > _HIGHEST for p in expr.atoms(sp.Pow))
