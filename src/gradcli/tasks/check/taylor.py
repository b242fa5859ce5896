"""Grading a Taylor polynomial (`check --taylor POLY --order N`).

Under the digits rule each coefficient is compared exactly first
(taylorproof.py); what follows decides where SymPy cannot read the question or
the answer (or --rtol/--atol were given), and names the mistake either way.
The answer is compared coefficient by coefficient: its own coefficients come
from the taylor task run on the answer (exact for a polynomial), the right ones
from the taylor task run on the question; the polynomials are compared as the
task's terms, never as its printed text read back. Named: `not-polynomial`,
`wrong-order`, `wrong-centre`, `not-centred`, `factorial`, `sign`,
`missing-term`, `beyond-order`, `coefficient`.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction

from ...errors import DomainError, GradcliError, UsageError
from ...inputs import inputs_of
from ...language.expr import Apply, Name, Num, Program, Statement, replace_leaves
from ...language.printer import to_text
from ...limits import MAX_TAYLOR_ORDER
from ..taylor import Term, polynomial_text
from ..taylor import taylor as taylor_of
from .formula import parse_answer
from .probes import rounded_literals, rounding_slack
from .shared import PROBES, Graded, close_to, maybe_value, names_a_function_of, random_step, \
    scalar_point, seeded_rng, shifted_text, split_sides, value_at, where_text
from .taylorproof import exact_taylor
from .verdict import FORMULA_RTOL_FLOOR, Answer, num, shown, told_apart

OPTION = "taylor"


def prepare(question, given, context):
    """The answer and the order, the answer read (a parse error is bad input) before grading."""
    scalar_point(question.at, question.variables, "--taylor")
    parse_answer(_taylor_answer_text(given["taylor"], question.variables), question.program,
                 question.variables, "the Taylor polynomial")
    return given["taylor"], given["order"]


def grade(question, prepared, context) -> Graded:
    answer, order = prepared
    graded = None
    if context.digits_rule:
        graded = exact_taylor(question, answer, _taylor_answer_text(answer, question.variables),
                              order, context, name_taylor)
    if graded is None:
        graded = _grade_taylor(question.text, question.program, question.variables,
                               question.at, answer, order, context.rtol, context.atol,
                               context.digits_rule)
        graded.decided_by = "sampling"
    return Graded([graded])


def _polynomial(t) -> Program:
    """The taylor task's polynomial as a formula, built from its terms: Σ c · Π (v - a)^k."""
    total = None
    for term in t.terms:
        if term.coefficient == 0:
            continue
        monomial = Num(float(term.coefficient))
        for v, k in term.powers.items():
            base = Apply("sub", (Name(v), Num(float(t.at[v])))) if t.at[v] else Name(v)
            monomial = Apply("mul", (monomial, base if k == 1 else Apply("pow", (base, Num(k)))))
        total = monomial if total is None else Apply("add", (total, monomial))
    return Program((Statement(None, Num(0) if total is None else total),))


def _monomial(powers: dict, at: dict) -> str:
    if not powers:
        return "constant"
    return polynomial_text([Term(1, powers)], at)


def _coef(c, theirs=None) -> str:
    """The right coefficient: a fraction where it is one (1/2), else 6 significant digits
    as the rest of the output, with as many more as tell it from `theirs`."""
    if isinstance(c, float) and math.isfinite(c):
        near = Fraction(c).limit_denominator(10 ** 4)
        if abs(float(near) - c) <= 1e-12 * abs(c):
            c = near
        elif theirs is None or not math.isfinite(float(theirs)) or float(theirs) == c:
            return shown(c)
        else:
            return told_apart(c, float(theirs))[0]
    return polynomial_text([Term(c, {})], {}) if c != 0 else "0"


def _theirs(c) -> str:
    """The student's coefficient as typed: 13.66, not 683/50."""
    if isinstance(c, Fraction) and c.denominator >= 10 \
            and 10 ** 12 % c.denominator == 0:  # a typed decimal
        return num(float(c))
    if isinstance(c, float) and math.isfinite(c) and len(f"{c:.12g}") <= 10:
        return num(float(f"{c:.12g}"))
    return _coef(c)


def _coefficients(t) -> dict:
    return {tuple(sorted(term.powers.items())): term.coefficient for term in t.terms}


# n! of a whole number, as books print Taylor coefficients (x^3/3!): only here, where a
# factorial can mean nothing else; the language itself has no factorial.
_FACTORIAL = re.compile(r"(?<![\w.)])(\d{1,2})!(?!=)")


def _taylor_answer_text(answer: str, variables) -> str:
    answer = _FACTORIAL.sub(lambda m: f"({math.factorial(int(m.group(1)))})", answer)
    left, right = split_sides(answer, "the Taylor polynomial", "1 + x + x^2/2")
    if left is None:
        return right
    if re.fullmatch(r"[^\W\d]\w*", left) and left not in variables \
            or names_a_function_of(left, variables):
        return right
    raise UsageError(f"the answer for the Taylor polynomial has '{left}' on the left of '='",
                     source=answer, hint="give the polynomial alone, or as T2 = ... or "
                                         "P(x) = ...")


def _same_function(a: Program, b: Program, variables, point, rng, atol) -> bool:
    """Whether two formulas agree at PROBES points around the point (both defined)."""
    for _ in range(PROBES):
        p = {v: float(f"{point[v] + random_step(rng):.3g}") for v in variables}
        s, t = maybe_value(a, p), maybe_value(b, p)
        if s is None or t is None or not close_to(s[0], t[0], 1e-9, atol, s[1], t[1]):
            return False
    return True


def _coefficient_slack(answer_program, keys, point, used, deep) -> dict:
    """How far rounding the answer's typed decimals may move each coefficient."""
    literals = rounded_literals(answer_program)
    if not literals:
        return {}

    def coefficients(p):
        t = taylor_of(to_text(p.result), {v: point[v] for v in used}, deep, wrt=used or None)
        c = _coefficients(t)
        return [float(c.get(k, 0)) for k in keys]

    return dict(zip(keys, rounding_slack(answer_program, coefficients, literals)))


def _grade_taylor(text, program, variables, at, answer, order, rtol, atol,
                  digits_rule=False) -> Answer:
    point = scalar_point(at, variables, "--taylor")
    poly = _taylor_answer_text(answer, variables)
    answer_program = parse_answer(poly, program, variables, "the Taylor polynomial")
    truth = taylor_of(text, point, order)
    a = Answer("taylor", f"T{order}", answer.strip(), key=f"T{order}",
               expected=truth.polynomial, expected_to=truth.polynomial_to)
    a.correct = truth.polynomial
    used = inputs_of(answer_program)
    deep = min(order + 2, MAX_TAYLOR_ORDER)
    try:
        mine = taylor_of(poly, {v: point[v] for v in used}, deep, wrt=used or None) \
            if used else None
    except DomainError as exc:  # the answer itself, not the question: wrong, not exit 3
        a.mistake = "not-polynomial"
        a.reason = f"your answer is not a polynomial: {exc.message}"
        return a
    tol = max(rtol, FORMULA_RTOL_FLOOR)
    # Its own expansion must be the answer itself: a polynomial of degree <= deep.
    rng = seeded_rng(text, answer)
    mine_program = _polynomial(mine) if mine else answer_program
    for _ in range(PROBES):
        p = {v: float(f"{point[v] + random_step(rng):.3g}") for v in variables}
        s, t = maybe_value(answer_program, p), maybe_value(mine_program, p)
        if s is None or t is None or not close_to(s[0], t[0], 1e-9, atol, s[1], t[1]):
            a.mistake = "not-polynomial"
            f_here = maybe_value(program, p)
            if s is not None and f_here is not None and close_to(s[0], f_here[0], 1e-9, atol,
                                                              s[1], f_here[1]):
                a.reason = "that is the function itself, not its Taylor polynomial"
            else:
                a.reason = (f"your answer is not a polynomial in {', '.join(variables)} (of "
                            f"degree up to {deep})")
            return a
    theirs = _coefficients(mine) if mine else {(): value_at(answer_program, point)[0]}
    right = _coefficients(truth)
    keys = sorted(set(theirs) | set(right), key=lambda k: (sum(e for _, e in k), k))
    slack = _coefficient_slack(answer_program, keys, point, used, deep) \
        if digits_rule and mine else {}

    def same(x, y, key=None):
        extra = slack.get(key, 0.0)
        if extra:  # rounded decimals: their digits decide, not --rtol's default
            return close_to(float(x), float(y), FORMULA_RTOL_FLOOR, atol + extra)
        return close_to(float(x), float(y), tol, atol)

    if all(same(theirs.get(k, 0), right.get(k, 0), k) for k in keys):
        a.ok = True
        return a
    return name_taylor(a, text, variables, point, order, theirs, right, keys, same,
                       answer_program, truth, rng, atol)


def name_taylor(a, text, variables, point, order, theirs, right, keys, same, answer_program,
                truth, rng, atol) -> Answer:
    """Name what is wrong: another order, another centre, powers of x, then term by term
    (`same(c, r, key)`: whether the answer's coefficient c of `key` is right)."""
    # The whole answer first: another order, or the expansion about another point.
    for m in (order - 1, order + 1, order + 2):
        if 0 <= m <= MAX_TAYLOR_ORDER and m != order:
            try:
                other = _coefficients(taylor_of(text, point, m))
            except GradcliError:
                continue
            ks = set(theirs) | set(other)
            if all(same(theirs.get(k, 0), other.get(k, 0)) for k in ks):
                a.mistake, a.mistake_detail = "wrong-order", f"T{m}"
                a.reason = (f"this is T{m}, the polynomial of order {m}; order {order} "
                            f"{'stops at' if m > order else 'goes up to'} degree {order}")
                return a
    if any(point[v] for v in variables):
        # Two classic slips, each a whole polynomial: the expansion about 0 instead of
        # the point, and the right coefficients on powers of x instead of (x - a).
        shifted = {v: Apply("add", (Name(v), Num(point[v]))) for v in variables}
        moved = Program((Statement(None, replace_leaves(
            _polynomial(truth).result,
            lambda n: shifted.get(n.id, n) if isinstance(n, Name) else n)),))
        slips = [("not-centred", moved,
                  "the right coefficients, but on powers of "
                  + ", ".join(v for v in variables if point[v]) + " instead of "
                  + ", ".join(f"({shifted_text(v, point[v])})" for v in variables if point[v])
                  + f": about {where_text(point)} the polynomial is {truth.polynomial}")]
        try:
            zero = taylor_of(text, {v: 0.0 for v in variables}, order)
            slips.insert(0, ("wrong-centre", _polynomial(zero),
                             f"this is the Taylor polynomial about 0 ({zero.polynomial}); the "
                             f"question asks about {where_text(point)}"))
        except GradcliError:
            pass
        for key, other, sentence in slips:
            if _same_function(answer_program, other, variables, point, rng, atol):
                a.mistake, a.reason = key, sentence
                return a
    problems, keys_found = [], []
    for k in keys:
        c, r = theirs.get(k, 0), right.get(k, 0)
        if same(c, r, k):
            continue
        powers = dict(k)
        name = _monomial(powers, point)
        degree = sum(powers.values())
        factorial = math.prod(math.factorial(e) for e in powers.values())
        if degree > order:
            keys_found.append(("beyond-order", name))
            problems.append(f"the {name} term ({_theirs(c)}) is beyond order {order}: a Taylor "
                            f"polynomial of order {order} stops at degree {order}")
        elif r != 0 and factorial > 1 and same(c, float(r) * factorial):
            bang = "·".join(f"{e}!" for e in powers.values() if e > 1)
            keys_found.append(("factorial", name))
            # "divide by 2!?" reads as a startled question: the factorial is named in words
            problems.append(f"the {name} coefficient is {_theirs(c)}, the right one is "
                            f"{_coef(r, c)}: the derivative was not divided by {bang} "
                            f"(= {factorial})")
        elif r != 0 and same(c, -float(r)):
            keys_found.append(("sign", name))
            problems.append(f"the {name} coefficient is {_theirs(c)}, the right one is "
                            f"{_coef(r, c)} (the sign)")
        elif c == 0 or same(c, 0):
            keys_found.append(("missing-term", name))
            problems.append(f"the {name} term is missing: its coefficient is {_coef(r)}")
        elif r == 0:
            keys_found.append(("coefficient", name))
            problems.append(f"there is no {name} term (its coefficient is 0), yours is "
                            f"{_theirs(c)}")
        else:
            keys_found.append(("coefficient", name))
            problems.append(f"the {name} coefficient is {_theirs(c)}, the right one is "
                            f"{_coef(r, c)}")
    a.mistake, a.mistake_detail = keys_found[0]
    a.reason = "; ".join(problems)
    return a
