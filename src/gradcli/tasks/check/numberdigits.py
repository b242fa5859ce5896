"""The digits rule for a number answer on the exact value, not on its double.

grade_number (verdict.py) rounds the computed double. Where that double lies
within its own rounding error of a tie at the places typed (2.001/2 is 1.0005
exactly, its double 1.000499999...), the exact value decides, from the question
read into SymPy at the point as typed: at an exact tie both half-up and
half-even are right. A number typed alone as a derivative (`220` for d/dx 70πx)
is graded as the same number typed for --grad is: by its digits, against the
exact constant derivative. Every number answer says how it was decided
(`decided_by`: "digits" by the rule, "tolerance" within --rtol/--atol).
"""
from __future__ import annotations

import math

from .digits import near_tie, rounded_as, rounds_right, significant, typed_decimal
from .verdict import DIGITS_MAX, DIGITS_MIN

_DOUBLE_ERROR = 1e-12  # relative: how far a computed double may be from the exact value


def _typed(text):
    if not isinstance(text, str):
        return None
    d = typed_decimal(text.strip())
    if d is None or d == 0 or not DIGITS_MIN <= significant(d) <= DIGITS_MAX:
        return None
    return d


def exact_digits(a, text, program, at, name, digits_rule: bool) -> None:
    """Re-grade a value (name None) or a partial (name) by the exact value where its
    double is too near a tie to say; set decided_by."""
    if a.decided_by is None:
        a.decided_by = "digits" if a.digits is not None else "tolerance"
    d = _typed(text) if digits_rule and a.digits is not None and name is not False else None
    if d is None:
        return
    try:
        e = float(a.expected)
    except (TypeError, ValueError):
        return
    if not math.isfinite(e) or not near_tie(e, d, _DOUBLE_ERROR * abs(e)):
        return
    from .exact import value_and_gradient
    names = [name] if name else []
    exact = value_and_gradient(program, at, names) if program is not None else None
    if exact is None:
        return
    value = exact[0] if name is None else exact[1][0]
    ok = rounds_right(text.strip(), value)
    if ok != a.ok:
        a.ok = ok
        a.reason = "" if ok else f"to {a.digits} digits the value is " \
            f"{rounded_as(text.strip(), value)}"
        a.note = f"right (to the {a.digits} digits given)" if ok else ""


def constant_alone(a, formula: str, program, name: str) -> None:
    """A derivative answered by a number alone, graded by its digits against the exact
    constant derivative, as the same number typed for --grad is."""
    d = _typed(formula)
    if d is None or a.ok:
        return
    from .exact import question_expr
    f = question_expr(program)
    if f is None:
        return
    import sympy as sp

    from ...symbolic.tosympy import symbol
    try:
        derivative = sp.simplify(sp.diff(f, symbol(name)))
    except Exception:  # SymPy raises many kinds on hard input; the formula's verdict stands
        return
    if derivative.free_symbols or not derivative.is_finite:
        return
    if rounds_right(formula.strip(), derivative):
        a.ok, a.reason, a.mistake, a.mistake_detail, a.counterexample = True, "", None, None, None
        a.step = None
        a.digits = significant(d)
        a.rounded = formula.strip()
        a.note = f"right (to the {a.digits} digits given)"
        a.decided_by = "digits"


_MATCH_POINTS = ("1/3", "2/7", "-3/5", "5/11", "-1/9", "7/4", "13/6", "-9/4")
_MAX_MATCHED = 2  # literals solved for at once; more are left to the formula's verdict
_DPS = 50


def literals_matched(a, answer_program, program, name: str, variables) -> None:
    """A derivative formula whose rounded decimals each stand for one number (3.142 for π
    in 1/(2 sqrt(3.142 - x))): right when each literal is correctly rounded from the value
    that makes the formula the derivative at every point compared (solved for at 50
    digits from the typed value, then the formula and the derivative agree to 40 digits
    at 6 more points). Only a wrong verdict changes here: sampling sees the domain edge
    the rounding moved, this reading does not."""
    if a.ok:
        return
    import mpmath as mp
    import sympy as sp

    from ...symbolic.tosympy import NoSympyForm, symbol
    from .digits import rounds_right, with_unknowns
    from .exact import question_expr
    try:
        expr, unknowns = with_unknowns(answer_program, {})
    except (NoSympyForm, TypeError, ValueError, ArithmeticError):
        return
    if not unknowns or len(unknowns) > _MAX_MATCHED:
        return  # before the question's SymPy form, which a long max(...) makes costly
    f = question_expr(program)
    if f is None:
        return
    xs = [symbol(v) for v in variables]
    symbols = [s for s, _, _ in unknowns]
    try:
        truth = sp.diff(f, symbol(name))
        gap = _mp_function(expr - truth, symbols + xs, mp)
        size = _mp_function(truth, xs, mp)
        with mp.workdps(_DPS):
            points = [[mp.mpf(sp.Rational(_MATCH_POINTS[(i + j) % len(_MATCH_POINTS)]))
                       for j in range(len(xs))] for i in range(len(_MATCH_POINTS))]
            points = [p for p in points if _real(size, p, mp)]
            if len(points) < len(symbols) + 4:
                return
            first = points[:len(symbols)]
            start = [mp.mpf(str(v)) for _, _, v in unknowns]
            root = mp.findroot(lambda *c: [gap(*c, *p) for p in first] if len(c) > 1
                               else gap(*c, *first[0]), start if len(start) > 1 else start[0])
            root = list(root) if len(symbols) > 1 else [root]
            # Where the sampling found the two apart, they must now agree: a kink or an
            # edge of the answer beyond the points above is not a rounding
            seen = (a.counterexample or {}).get("at") or {}
            if set(seen) >= set(variables):
                points = points + [[mp.mpf(repr(float(seen[v]))) for v in variables]]
            elif a.counterexample is None and a.reason:
                return  # wrong for a reason no point shows: the verdict stands
            for p in points[len(symbols):]:
                d = gap(*root, *p)
                if not (abs(d.imag) if isinstance(d, mp.mpc) else 0) <= mp.mpf(10) ** -40 \
                        or abs(d) > mp.mpf(10) ** -40 * max(abs(size(*p)), 1):
                    return
            values = [mp.nstr(r.real if isinstance(r, mp.mpc) else r, _DPS) for r in root]
    except Exception:  # no root, or SymPy/mpmath refuse the formula: the verdict stands
        return
    exact = [sp.Float(v, _DPS) for v in values]
    if not all(rounds_right(text, v) for (_, text, _), v in zip(unknowns, exact)):
        return
    a.ok, a.reason, a.mistake, a.mistake_detail, a.counterexample = True, "", None, None, None
    a.step = None
    a.note = "right: " + ", ".join(f"{text} is {mp.nstr(mp.mpf(v), 12)}… correctly rounded"
                                   for (_, text, _), v in zip(unknowns, values))
    a.decided_by = "digits"


def _mp_function(expr, symbols, mp):
    """expr as a function of mpmath numbers, at mpmath's working precision (SymPy's
    evalf: lambdify would import SymPy's code printers, a second of start-up)."""
    import sympy as sp

    def fn(*values):
        subs = {s: sp.Float(mp.nstr(v, mp.mp.dps + 5), mp.mp.dps + 5)
                for s, v in zip(symbols, values)}
        out = sp.N(expr.subs(subs), mp.mp.dps)
        if not out.is_number or out.has(sp.nan, sp.zoo):
            raise ValueError("undefined")
        re, im = out.as_real_imag()
        if im != 0:
            return mp.mpc(mp.mpf(str(re)), mp.mpf(str(im)))
        return mp.mpf(str(re))
    return fn


def _real(fn, p, mp) -> bool:
    try:
        v = fn(*p)
    except (ValueError, ZeroDivisionError, TypeError):
        return False
    return not isinstance(v, mp.mpc) or v.imag == 0
