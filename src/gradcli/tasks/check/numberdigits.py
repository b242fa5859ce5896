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
