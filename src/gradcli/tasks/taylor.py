"""Taylor polynomials in one or more variables, about a point, to a given order.

T(x) = Σ_{|α| ≤ n} D^α f(a) / α! · (x - a)^α. In one variable the coefficients
come from power-series arithmetic (autodiff/series.py: Taylor-mode AD through the
op table's rules), exactly with `exact=True`; order 20 costs milliseconds. In
several variables, for closed forms (--exact at π/3) and wherever the series
cannot expand, each partial derivative D^α f is taken symbolically (the one
differentiator of `diff`, each derivative from the one before it) and evaluated
at a by the engine, exactly with `exact=True` where every operation allows. A
coefficient within 1e-13 (relative) of a fraction with a denominator up to 10,000
is printed as that fraction (1/6 x^3, not 0.16666666666666666*x^3), as a book
prints it; the JSON keeps the double. Nothing here prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations_with_replacement

from ..autodiff.engine import graph_nodes
from ..autodiff.lower import lower
from ..autodiff.series import Unsupported, taylor_coefficients
from ..errors import DomainError, GradcliError, UsageError
from ..kinks import KinkWarnings
from ..language.expr import Program, Statement, inputs_of
from ..reading import given_names, read_program
from ..language.printer import read_as
from ..limits import MAX_TAYLOR_ORDER, MAX_TAYLOR_TERMS
from ..numbers import format_number, is_closed
from ..symbolic.derivative import derivative, inline
from ..symbolic.simplify import Simplifier


@dataclass
class Term:
    """One monomial: coefficient · Π (v - a_v)^k_v."""

    coefficient: object
    powers: dict          # variable -> exponent (only exponents > 0)


@dataclass
class Taylor:
    """The Taylor polynomial of f about a point."""

    expression: str
    read_as: str
    at: dict
    order: int
    terms: list
    polynomial: str
    remainder: str
    warnings: list = field(default_factory=list)

    def polynomial_to(self, precision=None) -> str:
        """The polynomial, its coefficients rounded to `precision` significant digits."""
        return self.polynomial if precision is None else \
            polynomial_text(self.terms, self.at, precision)

    def remainder_to(self, precision=None) -> str:
        """The remainder term, its point rounded as the polynomial's (O(|x - 0.785398|^4)
        under a polynomial in (x - 0.785398), not the point's 17 digits)."""
        if precision is None:
            return self.remainder
        return remainder_text(self.at, self.order, precision)


def _coefficient_text(c, precision=None) -> str:
    if isinstance(c, Fraction) or isinstance(c, int) or is_closed(c):
        return format_number(c)
    c = float(c)
    # A coefficient that is a small fraction to the last digits prints as that fraction
    # in every format (x^2/2, never 0.5x^2 in one format and x^2/2 in another).
    if math.isfinite(c) and c != 0:
        near = Fraction(c).limit_denominator(10_000)
        if near.denominator > 1 and abs(float(near) - c) <= 1e-13 * abs(c):
            return format_number(near)
        if near.denominator == 1 and abs(float(near) - c) <= 1e-13 * abs(c):
            return format_number(near.numerator)
    if precision is not None:
        from ..numbers import number_text
        return number_text(c, precision)
    return format_number(c)


def _factor(name, point, k, precision=None) -> str:
    if point and precision is not None and isinstance(point, float) and not is_closed(point):
        from ..numbers import number_text
        shown = number_text(abs(point), precision)
    else:
        shown = format_number(abs(point)) if point else ""
    base = name if not point else f"({name} {'-' if point > 0 else '+'} {shown})"
    return base if k == 1 else f"{base}^{k}"


def polynomial_text(terms, at, precision=None) -> str:
    """The polynomial as a book prints it; `precision`: coefficients to that many digits."""
    if any(is_closed(v) for v in [*at.values(), *(t.coefficient for t in terms)]):
        # e + e*(x - 1) + e*(x - 1)^2/2, ln(π/6) + 6(x - π/6)/π: closedtext's book rules
        from ..closedtext import shift_text, sum_text
        return sum_text([(t.coefficient, "*".join(
            (f"({shift_text(v, at[v])})" if at[v] != 0 else v) + (f"^{k}" if k > 1 else "")
            for v, k in t.powers.items())) for t in terms])
    parts = []
    for term in terms:
        c = term.coefficient
        if c == 0:
            continue
        factors = "*".join(_factor(v, at[v], k, precision) for v, k in term.powers.items())
        text = _coefficient_text(abs(c), precision)
        if factors:
            if "/" in text and text.rsplit("/", 1)[1].isdigit():  # 1/6*x^3 -> x^3/6
                num, den = text.rsplit("/", 1)
                text = (f"{factors}/{den}" if num == "1" else f"{num}*{factors}/{den}")
            else:
                text = factors if text == "1" else f"{text}*{factors}"
        parts.append(("-" if c < 0 else "+", text))
    if not parts:
        return "0"
    sign, first = parts[0]
    out = ("-" if sign == "-" else "") + first
    for sign, text in parts[1:]:
        out += f" {sign} {text}"
    return out


def remainder_text(at: dict, order: int, precision=None) -> str:
    """O(|x - a|^(n+1)), or O((|x - a| + |y - b|)^(n+1)) in several variables."""
    shifted = " + ".join(f"|{_shift(v, p, precision)}|" for v, p in at.items())
    n = order + 1
    return f"O({shifted}^{n})" if len(at) == 1 else f"O(({shifted})^{n})"


def _shift(name, point, precision=None) -> str:
    """name - point, its sign folded in: x - 1, x + 1, x - π/6; a double rounded to
    `precision` digits when asked."""
    if is_closed(point):
        from ..closedtext import shift_text
        return shift_text(name, point)
    if not point:
        return name
    if precision is not None and isinstance(point, float):
        from ..numbers import number_text
        shown = number_text(abs(point), precision)
    else:
        shown = format_number(abs(point))
    return f"{name} {'-' if point > 0 else '+'} {shown}"


def _refuse_kinks(program, point, wanted) -> None:
    """A kink at the point (abs at 0) leaves f without derivatives there: say so, exit 3."""
    try:
        graph = lower(program, {k: float(v) for k, v in point.items()}, wrt=set(wanted))
    except (DomainError, TypeError, ValueError):
        return  # the expansion itself reports what is undefined
    kinks = KinkWarnings(graph)
    if graph.output.requires_grad:
        graph.output.backward(on_kink=kinks.on_kink)
    if kinks.messages:
        raise DomainError("a Taylor polynomial needs f differentiable at the point, and it "
                          f"has a kink there: {kinks.messages[0]}",
                          hint="expand about another point, or each side of the kink on its "
                               "own (for abs(x): x on the right, -x on the left)")


def taylor(text: str, at: dict, order: int = 2, *, exact: bool | str = False,
           wrt=None) -> Taylor:
    """The Taylor polynomial of `text` about `at` up to total degree `order`."""
    if isinstance(order, bool) or not isinstance(order, int) or not 0 <= order <= MAX_TAYLOR_ORDER:
        raise UsageError(f"--order must be a whole number from 0 to {MAX_TAYLOR_ORDER}, "
                         f"got {order}")
    program = read_program(text, given_names(at, wrt))
    variables = inputs_of(program)
    wanted = list(wrt) if wrt else variables
    for name in wanted:
        if name not in variables:
            raise UsageError(f"--wrt: the expression has no variable '{name}'")
    missing = [v for v in variables if v not in at]
    if missing:
        raise UsageError(f"no value for {', '.join(missing)}",
                         hint="add --at " + ",".join(f"{v}=…" for v in missing))
    point = {v: at[v] for v in variables}
    for v in wanted:
        if not isinstance(point[v], (int, float, Fraction)) and not is_closed(point[v]):
            raise UsageError(f"a Taylor polynomial needs a number for '{v}'")
    count = math.comb(len(wanted) + order, order)
    if count > MAX_TAYLOR_TERMS:
        raise UsageError(f"a polynomial of order {order} in {len(wanted)} variables has "
                         f"{count} terms, more than {MAX_TAYLOR_TERMS}", hint="lower --order")
    _refuse_kinks(program, point, wanted)
    terms = _by_series(program, point, wanted, order, exact, getattr(at, "typed", None))
    if terms is None:
        terms = _by_derivatives(text, program, point, wanted, order, exact)
    remainder = remainder_text({v: point[v] for v in wanted}, order)
    return Taylor(text, read_as(program), {v: point[v] for v in wanted}, order, terms,
                  polynomial_text(terms, point), remainder, list(program.warnings))


def _by_series(program, point, wanted, order, exact, typed=None) -> list | None:
    """The terms of a one-variable polynomial by power-series arithmetic, or None.

    --exact: in Fractions. Otherwise in Fractions where every value at the point is
    rational (0, 1 and most books' points: each coefficient is then the correctly
    rounded double of the exact one, and a 0 is 0), else in arbitrary precision
    rounded to doubles (the digits of a high coefficient cancel in doubles), else in
    doubles. None (the derivatives then answer, with their own errors) where the
    series cannot expand: several variables, closed forms, vectors, a value or a
    derivative rule undefined at the point. `typed`: the point's closed forms as typed
    (`pi/6`), taken exactly in arbitrary precision first (SPEC §2, the point as typed).
    """
    if len(wanted) != 1 or exact == "closed":
        return None
    name = wanted[0]
    try:
        graph = lower(program, point, wrt={name}, exact=bool(exact))
    except GradcliError:
        return None  # f is undefined at the point: the derivatives say where, as always
    tries = [(graph, False)] if exact else [(graph, True), (graph, False)]
    if not exact:
        rational = _rational_graph(program, point, name)
        if rational is not None:
            tries.insert(0, (rational, False))
        if typed:
            from ..autodiff.typedpoint import leaves
            tries.insert(0, (graph, leaves(graph, typed)))
    for g, precise in tries:
        try:
            coefficients = taylor_coefficients(g, name, order, precise=bool(precise),
                                               leaf=precise if callable(precise) else None)
            if not exact:  # a Fraction beyond a double's range: OverflowError
                coefficients = [float(c) for c in coefficients]
        except (Unsupported, GradcliError, ArithmeticError):
            continue
        if not all(math.isfinite(c) for c in coefficients):
            continue
        return [Term(c, {name: k} if k else {}) for k, c in enumerate(coefficients)]
    return None


def _rational_graph(program, point, name):
    """The graph in Fractions where it computes the same function at the same point as
    doubles do, exactly: the point and every number in the expression are doubles
    exactly (0, 1, 1/2, 3; not 0.1, which lower reads as the decimal 1/10 and a double
    is not) and every value at the point is rational; else None."""
    try:
        at = {v: Fraction(p) for v, p in point.items()}
        if any(Fraction(float(q)) != q for q in at.values()):
            return None
        graph = lower(program, at, wrt={name}, exact=True)
    except (GradcliError, ArithmeticError, TypeError, ValueError):
        return None
    for node in graph_nodes(graph.output):
        if not node._parents and Fraction(float(node.data)) != node.data:
            return None
    return graph


def _by_derivatives(text, program, point, wanted, order, exact) -> list:
    """The terms from each partial derivative, taken symbolically and evaluated at the point."""
    root, _ = inline(program)
    simp = Simplifier()
    done = {(): simp.simplify([root])[0]}
    terms = []
    for degree in range(order + 1):
        for combo in combinations_with_replacement(wanted, degree):
            if combo not in done:
                raw = derivative(done[combo[:-1]], combo[-1])
                done[combo] = simp.simplify([raw])[0]
            try:
                value = lower(Program((Statement(None, done[combo]),), text), point,
                              wrt=set(), exact=exact).output.data
            except DomainError as exc:
                which = "f" if not combo else "the derivative by " + ", ".join(combo)
                exc.message = f"{which} is undefined at the point: {exc.message}"
                raise
            if not isinstance(value, (int, float, Fraction)) and not is_closed(value):
                raise UsageError("a Taylor polynomial needs a scalar function",
                                 hint="a vector result has one polynomial per element: "
                                      "expand each element on its own")
            powers = {}
            for v in combo:
                powers[v] = powers.get(v, 0) + 1
            denominator = math.prod(math.factorial(k) for k in powers.values())
            if is_closed(value):
                coefficient = value / denominator
            elif isinstance(value, (int, Fraction)):
                coefficient = Fraction(value) / denominator
            else:
                coefficient = float(value) / denominator
            terms.append(Term(coefficient, powers))
    return terms
