"""The question's exact quantities at the point as typed: what each literal is matched to.

The point is taken as typed (`2.001` is 2001/1000, `pi/4` is π/4), the question
read into SymPy (decimals exactly as typed); its value, gradient and Taylor
coefficients are exact SymPy numbers where differentiation stays small, else
numbers of digits.PRECISION digits from the power series run in mpmath (the
one-variable series of autodiff/series.py). None where the question has no
SymPy form: the caller then grades as before, by sampling. SymPy is imported
only here and only when called.
"""
from __future__ import annotations

import math
from itertools import combinations_with_replacement

from .digits import PRECISION

_MAX_OPS = 400  # a derivative larger than this is evaluated by the series instead


def exact_point(at: dict, names) -> dict | None:
    """name -> SymPy number: a closed form typed (`pi/4`) exactly, a decimal as typed."""
    import sympy as sp

    from ...language.parser import parse
    from ...symbolic.tosympy import NoSympyForm, to_sympy
    typed = getattr(at, "typed", None) or {}
    out = {}
    for n in names:
        try:
            if n in typed:
                out[n] = to_sympy(parse(typed[n]).statements[-1].expr)
            else:
                v = at[n]
                out[n] = sp.Integer(v) if isinstance(v, int) else sp.Rational(repr(float(v)))
        except (NoSympyForm, ValueError, TypeError, KeyError):
            return None
    return out


def question_expr(program):
    """The question's result as one SymPy expression, or None."""
    from ...symbolic.derivative import inline
    from ...symbolic.tosympy import NoSympyForm, to_sympy
    from .digits import kinks_as_abs
    try:
        root, _ = inline(program)
        return to_sympy(kinks_as_abs(root))
    except (NoSympyForm, TypeError, ValueError, RecursionError):
        return None


def _finite(v) -> bool:
    import sympy as sp
    if v.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return False
    try:
        return math.isfinite(float(sp.N(v, 20)))
    except (TypeError, ValueError):
        return False


def value_and_gradient(program, at: dict, names) -> tuple | None:
    """(f(a), [∂f/∂v(a) for v in names]) exactly, or None."""
    import sympy as sp

    from ...symbolic.tosympy import symbol
    from ...inputs import inputs_of
    f = question_expr(program)
    every = [n for n in inputs_of(program) if n in at]
    point = exact_point(at, every)
    if f is None or point is None:
        return None
    subs = {symbol(n): point[n] for n in every}
    try:
        value = f.subs(subs)
        grad = [sp.diff(f, symbol(n)).subs(subs) for n in names]
    except Exception:  # SymPy raises many kinds on hard input; then sampling decides
        return None
    if not all(_finite(v) for v in [value, *grad]):
        return None
    return value, grad


def taylor_exact(program, at: dict, names, order: int) -> dict | None:
    """{((v, k), ...): coefficient} for every monomial of total degree <= order, exact or
    to PRECISION digits; None where neither the derivatives nor the series can say."""
    if len(names) == 1:
        found = _one_variable(program, at, names[0], order)
        if found is not None:
            return found
    return _by_derivatives(program, at, names, order)


def _by_derivatives(program, at, names, order) -> dict | None:
    import sympy as sp

    from ...symbolic.tosympy import symbol
    f = question_expr(program)
    point = exact_point(at, names)
    if f is None or point is None:
        return None
    subs = {symbol(n): point[n] for n in names}
    done = {(): f}
    out = {}
    try:
        for degree in range(order + 1):
            for combo in combinations_with_replacement(names, degree):
                if combo not in done:
                    d = sp.diff(done[combo[:-1]], symbol(combo[-1]))
                    if sp.count_ops(d) > _MAX_OPS:
                        return None
                    done[combo] = d
                powers = {}
                for n in combo:
                    powers[n] = powers.get(n, 0) + 1
                value = done[combo].subs(subs) / math.prod(math.factorial(k)
                                                           for k in powers.values())
                value = sp.nsimplify(value) if value.is_Float else value
                if not _finite(value):
                    return None
                out[tuple(sorted(powers.items()))] = value
    except Exception:  # SymPy raises many kinds on hard input; then sampling decides
        return None
    return out


def _one_variable(program, at, name, order) -> dict | None:
    """The coefficients by the power series in mpmath at PRECISION + 20 digits, each as a
    SymPy Float of PRECISION digits (a rational one as the rational it rounds to)."""
    import mpmath as mp
    import sympy as sp

    from ...autodiff.lower import lower
    from ...autodiff.series import Unsupported, mpmath_coefficients
    from ...autodiff.typedpoint import leaves
    from ...errors import GradcliError
    point = exact_point(at, [name])
    if point is None:
        return None
    try:
        graph = lower(program, {name: float(at[name])}, wrt={name})
    except GradcliError:
        return None
    typed = dict(getattr(at, "typed", None) or {})
    base = leaves(graph, typed)
    variable = graph.inputs.get(name)
    exact_a = point[name]

    def leaf(node):
        if node is variable:
            return mp.mpf(sp.N(exact_a, PRECISION + 20).__str__()) if name not in typed \
                else base(node)
        data = node.data
        if isinstance(data, float) and node.label not in ("pi", "e") and node._op is None:
            return mp.mpf(repr(data))  # a decimal of the question as typed, not its double
        return base(node)

    try:
        with mp.workdps(PRECISION + 20):
            cs = mpmath_coefficients(graph, name, order, leaf)
            if not all(mp.isfinite(c) for c in cs):
                return None
            top = max([abs(c) for c in cs] + [mp.mpf(1)])
            out = {}
            for k, c in enumerate(cs):
                v = sp.Float(mp.nstr(c, PRECISION + 15), PRECISION + 15)
                if abs(c) <= top * mp.mpf(10) ** (-(PRECISION + 5)):
                    v = sp.Integer(0)  # a cancellation complete to the digits carried
                else:
                    q = sp.nsimplify(v, rational=True, tolerance=10 ** -(PRECISION + 5)) \
                        if abs(c) > mp.mpf(10) ** -30 else v
                    if q.is_Rational and q.q < 10 ** 25 and abs(q - v) <= abs(v) * \
                            sp.Float(10) ** -(PRECISION + 3):
                        v = q
                out[((name, k),) if k else ()] = v
            return out
    except (Unsupported, GradcliError, ArithmeticError, ValueError, TypeError):
        return None
