"""f of one variable on an interval, exactly: its domain, critical numbers and sign charts.

The work of `analyze` and `extrema` (one variable), with SymPy:

- the domain is where f is continuous (continuous_domain), piece by piece
  between the zeros of the bases of real roots and corners (sympyform.py), so
  domain gaps and vertical asymptotes split the line into components;
- the critical numbers are the interior points of the domain where f' = 0
  (solveset over the reals) or where f' does not exist (its own domain's gaps,
  and a corner or cusp where the one-sided limits of f' differ or are
  infinite, as for x^(2/3) at 0). Every exact root is checked numerically; where
  SymPy finds no closed form the roots are decimals found by bisection on a
  bounded interval, and the study says it cannot prove that it has them all;
- the sign of f' and of f'' on each interval between the split points, from a
  rational test point evaluated to 40 digits.

Results are SymPy numbers; printing them is the writers' job. Nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import sympy as S
from sympy.calculus.util import continuous_domain

from ..errors import GradcliError, UsageError
from .sympyform import branch_bases, on_piece

DIGITS = 40
# Below this a value at a test point is zero: a nonzero closed form of a textbook
# function at a rational point is never this small.
TINY = S.Float("1e-30")
SCAN = 4000   # points of the numeric root search on a bounded interval


class NotExact(GradcliError):
    """SymPy cannot settle a step of the study (exit 3): no answer is better than a guess."""

    exit_code = 3


@dataclass
class Span:
    """An open interval (a, b) of the domain with the sign of a derivative on it."""

    a: object
    b: object
    sign: int


@dataclass
class Study:
    """What is known about f on (lo, hi)."""

    f: object
    x: object
    lo: object
    hi: object
    components: list                 # the domain's intervals, as SymPy Intervals
    critical: list                   # sorted critical numbers
    undefined: list                  # those where f' does not exist
    first: list                      # Spans of f' (sign -1, 0, 1)
    second: list                     # Spans of f''
    no_derivative: set = field(default_factory=set)  # f' undefined there (f defined)
    complete: bool = True
    notes: list = field(default_factory=list)
    domain: object = None            # where f is continuous, before (lo, hi) restricts it

    def defined(self, c) -> bool:
        """f is defined (and continuous) at c, inside (lo, hi) or at its ends."""
        return bool(c.is_finite) and bool(c in (self.domain if self.domain is not None
                                                 else S.Union(*self.components)))

    def value(self, c):
        """f(c) exactly; at a long root (Cardano's form of a cubic's) as substituted: it is
        shown by its digits, and simplifying it took a quarter second."""
        from ..intervals import LONG_FORM_OPS
        v = self.f.subs(self.x, c)
        return v if S.count_ops(c) > LONG_FORM_OPS else _simple(v)

    def in_domain(self, c) -> bool:
        return any(c in comp for comp in self.components)

    def interior(self, c) -> bool:
        return any(comp.start < c < comp.end for comp in self.components)

    def joins_first(self, c) -> bool:
        """Intervals of f' meeting at c may be one interval: f is continuous at c."""
        return self.interior(c)

    def joins_second(self, c) -> bool:
        """Intervals of f'' meeting at c may be one: f' exists (and is continuous) at c."""
        return self.interior(c) and c not in self.no_derivative


def _simple(value):
    from ..closedtext import simplified
    if value.is_Float:
        # f at a zero of f' found as digits: a short fraction where the digits are one (2.5
        # is 5/2), else the digits (never 1187962829484172080766783/10^24)
        short = S.nsimplify(value)
        return short if short.is_Rational and short.q < 10**6 else value
    try:
        return simplified(S.radsimp(value))
    except (TypeError, ValueError):
        return value


def _num(v) -> float:
    return float(v.evalf(DIGITS))


def between(a, b):
    """A simple rational strictly inside (a, b): an integer where one fits."""
    if a == -S.oo and b == S.oo:
        return S.Integer(0)
    if a == -S.oo:
        return S.Integer(int(S.floor(b.evalf(DIGITS))) - 1)
    if b == S.oo:
        return S.Integer(int(S.ceiling(a.evalf(DIGITS))) + 1)
    fa, fb = a.evalf(DIGITS), b.evalf(DIGITS)
    n = S.Integer(int(S.floor(fa)) + 1)
    if n < fb:
        return n
    return S.Rational(str(((fa + fb) / 2).evalf(25)))


def sign_at(expr, x, t) -> int:
    """The sign of expr at the number t (40 digits); 0 only for a value below TINY."""
    v = expr.subs(x, t).evalf(DIGITS)
    if v.has(S.nan, S.zoo) or not v.is_real:
        raise NotExact(f"the sign of {expr} at {x} = {t} could not be settled")
    if abs(v) < TINY:
        return 0
    return 1 if v > 0 else -1


def zeros_on(expr, x, a, b):
    """solveset(expr, x, (a, b)); for a polynomial with rational coefficients whose real
    roots have closed forms, its exact real roots directly (the same set, a tenth of the
    cost: most textbook f' numerators are polynomials)."""
    try:
        poly = S.Poly(expr, x) if expr.is_polynomial(x) else None
    except S.PolynomialError:
        poly = None
    if poly is not None and (poly.domain.is_QQ or poly.domain.is_ZZ):
        if poly.is_zero:
            return S.Interval.open(a, b)
        roots = poly.real_roots()
        if not any(r.has(S.CRootOf) for r in roots):
            return S.FiniteSet(*[r for r in set(roots) if (a == -S.oo or a < r)
                                 and (b == S.oo or r < b)])
    return S.solveset(expr, x, S.Interval.open(a, b))


def _finite_set(found, what: str, x, expr, a, b, notes):
    """The points of a solveset answer; decimals by bisection where SymPy has no closed
    form (a bounded interval only), said in `notes`. Returns (points, complete)."""
    if found == S.Interval.open(a, b) or _identically_zero(expr, x, a, b):
        return [], True  # zero on the whole interval: no sign, no isolated zero
    if isinstance(found, S.FiniteSet):
        points = [p for p in found if p.is_real]
        return [p for p in points if _checked(expr, x, p)], True
    if found == S.EmptySet:
        return [], True
    if a == -S.oo or b == S.oo:
        from ..intervals import interval_text
        raise NotExact(f"no closed form for the {what} on {interval_text((a, b))}, and that "
                       "interval is unbounded", hint="give a bounded interval with --over x=A:B")
    notes.append(f"the {what} have no closed form that SymPy finds: decimals found by a "
                 f"search of {SCAN} points, which cannot prove it found them all")
    return _bisected(expr, x, a, b), False


def _identically_zero(expr, x, a, b) -> bool:
    """expr is 0 on all of (a, b). A value at a test point that is not 0 proves it is not,
    for the cost of one evaluation; simplify (a second or more on a root's derivative)
    decides only where every test point gives 0."""
    t = between(a, b)
    for p in (t, *(q for q in (t - S.Rational(1, 3), t + S.Rational(2, 7))
                   if (a == -S.oo or a < q) and (b == S.oo or q < b))):
        try:
            v = expr.subs(x, p).evalf(DIGITS)
        except (TypeError, ValueError):
            continue
        if v.is_real and v.is_finite and abs(v) > TINY:
            return False
    return S.simplify(expr) == 0


def _checked(expr, x, p) -> bool:
    """An exact root of expr that is a root numerically too (SymPy's are trusted no further)."""
    try:
        v = expr.subs(x, p).evalf(DIGITS)
    except (TypeError, ValueError):
        return False
    return v.is_real is not False and (v == 0 or abs(v) < S.Float("1e-20"))


def _bisected(expr, x, a, b) -> list:
    import mpmath
    fa, fb = float(a), float(b)
    f = S.lambdify(x, expr, "mpmath")
    mpmath.mp.dps = 30
    step = (fb - fa) / SCAN
    roots = []
    prev_t, prev_v = None, None
    for i in range(1, SCAN):
        t = mpmath.mpf(fa + i * step)
        try:
            v = f(t)
            v = mpmath.re(v) if abs(mpmath.im(v)) < 1e-20 else None
        except (ValueError, ZeroDivisionError, TypeError):
            v = None
        if v is not None and prev_v is not None and (v == 0 or prev_v * v < 0):
            lo, hi = prev_t, t
            try:
                r = mpmath.findroot(f, (lo, hi), solver="anderson")
                if lo <= r <= hi:
                    roots.append(S.Float(str(r), 25))
            except (ValueError, ZeroDivisionError):
                pass
        prev_t, prev_v = t, v
    return roots


@lru_cache(maxsize=64)
def derivative(f, x, order: int = 1):
    """f' or f'' of one piece's form: the study asks for each several times (the zeros,
    the one-sided limits, the sign charts), and differentiating costs more than a lookup."""
    return S.diff(f if order == 1 else derivative(f, x, order - 1), x)


def _domain(fp, x, interval):
    try:
        return continuous_domain(fp, x, interval)
    except (NotImplementedError, ValueError, TypeError) as exc:
        raise NotExact(f"the domain of {fp} could not be found exactly ({exc})") from None


def _components(dom) -> list:
    parts = dom.args if isinstance(dom, S.Union) else (dom,)
    return sorted((p for p in parts if isinstance(p, S.Interval) and p.measure != 0),
                  key=lambda p: _num(p.start) if p.start != -S.oo else -float("inf"))


def study(f, x, lo=-S.oo, hi=S.oo, concavity: bool = True) -> Study:
    """The domain, critical numbers and sign charts of f on the open interval (lo, hi);
    without `concavity`, no chart of f'' (the closed interval method needs none)."""
    notes: list = []
    complete = True
    cuts = set()
    for b in branch_bases(f):
        if branch_bases(b):
            raise NotExact("a real root or abs inside another is beyond the exact study")
        found, ok = _finite_set(zeros_on(b, x, lo, hi), "zeros of "
                                f"{b}", x, b, lo, hi, notes)
        complete &= ok
        cuts.update(found)
    cuts = sorted(cuts, key=_num)
    ends = [lo, *cuts, hi]
    pieces = [(ends[i], ends[i + 1]) for i in range(len(ends) - 1)]
    forms = [on_piece(f, x, between(a, b)) for a, b in pieces]
    dom = S.EmptySet
    for (a, b), fp in zip(pieces, forms):
        dom = dom | _domain(fp, x, S.Interval(a, b))
    whole = dom
    dom = dom & S.Interval.open(lo, hi)
    components = _components(dom)
    if not components and (dom == S.EmptySet or isinstance(dom, S.FiniteSet)):
        from ..intervals import interval_text
        raise UsageError(f"f is defined at no interval of {interval_text((lo, hi))}",
                         hint="check the expression, or --over")
    if not isinstance(dom, (S.Interval, S.Union)) or any(
            not isinstance(p, (S.Interval, S.FiniteSet)) for p in
            (dom.args if isinstance(dom, S.Union) else ())):
        from ..intervals import interval_text
        raise NotExact(f"the domain of f on {interval_text((lo, hi))} has infinitely many "
                       "pieces", hint="give a bounded interval with --over x=A:B")
    if not components:
        from ..intervals import interval_text
        raise UsageError(f"f is defined at no interval of {interval_text((lo, hi))}",
                         hint="check the expression, or --over")

    def form_at(t):
        for (a, b), fp in zip(pieces, forms):
            if a < t < b:
                return fp
        raise NotExact(f"no piece holds {t}")  # a cut is never a test point

    zeros1, undefined1, zeros2, undefined2 = set(), set(), set(), set()
    for comp in components:
        inside = [c for c in cuts if comp.start < c < comp.end]
        ends = [comp.start, *inside, comp.end]
        for a, b in zip(ends, ends[1:]):
            fp = form_at(between(a, b))
            d1 = derivative(fp, x)
            orders = [(d1, zeros1, undefined1, "zeros of f'")]
            if concavity:
                orders.append((derivative(fp, x, 2), zeros2, undefined2, "zeros of f''"))
            for d, zeros, undefined, what in orders:
                found, ok = _finite_set(zeros_on(S.numer(S.together(d)), x, a, b),
                                        what, x, d, a, b, notes)
                complete &= ok
                zeros.update(p for p in found if _defined(d, x, p))
                gaps = S.Interval.open(a, b) - _domain(d, x, S.Interval.open(a, b))
                if gaps != S.EmptySet:
                    if not isinstance(gaps, S.FiniteSet):
                        raise NotExact(f"{what.split()[-1]} is undefined on a whole interval")
                    undefined.update(gaps)
        for c in inside:
            left, right = form_at(between(_prev(ends, c), c)), form_at(between(c, _next(ends, c)))
            if _infinite_at(derivative(left, x), x, c) or _infinite_at(derivative(right, x), x, c):
                undefined1.add(c)  # a cusp or a vertical tangent, as x^(2/3) at 0
                continue
            one_sided = [S.limit(derivative(left, x), x, c, "-"),
                         S.limit(derivative(right, x), x, c, "+")]
            if all(v.is_finite for v in one_sided) and S.simplify(one_sided[0] - one_sided[1]) == 0:
                if S.simplify(one_sided[0]) == 0:
                    zeros1.add(c)
                if not concavity:
                    continue
                two = [S.limit(derivative(left, x, 2), x, c, "-"),
                       S.limit(derivative(right, x, 2), x, c, "+")]
                if not (all(v.is_finite for v in two) and S.simplify(two[0] - two[1]) == 0):
                    undefined2.add(c)
                elif S.simplify(two[0]) == 0:
                    zeros2.add(c)
            else:
                undefined1.add(c)
    critical = sorted(zeros1 | undefined1, key=_num)
    first = _chart(components, set(critical) | set(cuts), form_at, x, 1)
    second_cuts = set(cuts) | undefined1 | zeros2 | undefined2
    second = _chart(components, second_cuts, form_at, x, 2) if concavity else []
    return Study(f, x, lo, hi, components, critical, sorted(undefined1, key=_num), first,
                 second, set(undefined1), complete, notes, whole)


def _infinite_at(d, x, c) -> bool:
    """|d| grows without bound as x tends to c (from the side of the piece d is the form
    on), proven by algebra: d = n/m with n and m sums and products of powers with positive
    exponents of bases positive on the piece (continuous up to c), m(c) = 0 and n(c) ≠ 0.
    False where that does not settle it (SymPy's limit decides, at ten times the cost)."""
    n, m = S.fraction(S.together(d))
    for part in (n, m):
        if part.atoms(S.Function) or any(not (p.exp.is_Rational and p.exp > 0)
                                         for p in part.atoms(S.Pow)):
            return False
    try:
        return m.subs(x, c).is_zero is True and n.subs(x, c).is_zero is False
    except (TypeError, ValueError):
        return False


def _defined(d, x, p) -> bool:
    v = d.subs(x, p)
    return v.is_finite is not False and not v.has(S.nan, S.zoo)


def _prev(ends, c):
    return ends[ends.index(c) - 1]


def _next(ends, c):
    return ends[ends.index(c) + 1]


def _chart(components, cuts, form_at, x, order) -> list:
    """Spans of the sign of the order-th derivative, between the cuts, in each component."""
    spans = []
    for comp in components:
        inside = sorted((c for c in cuts if comp.start < c < comp.end), key=_num)
        ends = [comp.start, *inside, comp.end]
        for a, b in zip(ends, ends[1:]):
            t = between(a, b)
            d = derivative(form_at(t), x, order)
            s = sign_at(d, x, t)
            if s == 0:  # zero at a rational point: zero on the interval only if everywhere
                others = [sign_at(d, x, between(a, t)), sign_at(d, x, between(t, b))]
                s = next((o for o in others if o), 0)
            spans.append(Span(a, b, s))
    return spans


def merged(spans, sign: int, joinable) -> list:
    """The intervals where the sign is `sign`, joined where two meet at a point c with
    joinable(c): an interior point of the domain (f' defined there, for concavity)."""
    out = []
    for s in spans:
        if s.sign != sign:
            continue
        if out and out[-1][1] == s.a and joinable(s.a):
            out[-1] = (out[-1][0], s.b)
        else:
            out.append((s.a, s.b))
    return out


def sides(spans, in_interior) -> dict:
    """(left sign, right sign) at each point where two spans meet inside the domain: the
    evidence of the first- or second-derivative test there."""
    out = {}
    for left, right in zip(spans, spans[1:]):
        c = left.b
        if c == right.a and in_interior(c):
            out[c] = (left.sign, right.sign)
    return out
