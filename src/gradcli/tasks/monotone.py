"""f = a + b·h(p) with p a polynomial and h strictly monotone: e^p, ln p, √p, p^(-1), atan p,
any h of one argument whose derivative SymPy proves of one sign.

On a closed, bounded set where h is defined at every value of p, such an f has its
absolute extremes exactly where p has its own (max p and min p, swapped when b·h is
decreasing), since a strictly monotone h keeps or reverses the order of the values.
So the exact, complete candidates of the polynomial p are f's candidates too, with
nothing to solve that is not polynomial. Where h is defined only for p > 0 (ln p,
p^(-1)) or p >= 0 (√p), that is proven from p's own exact minimum, never sampled.
Nothing here prints.
"""
from __future__ import annotations


def polynomial_inside(f, symbols):
    """(p, needs, outer) with f = a + b·h(p) = outer(p), h strictly monotone wherever p
    satisfies `needs` ("" always, "positive" p > 0, "nonnegative" p >= 0); None for any
    other f. outer gives f's exact value from p's without simplifying f at a point."""
    import sympy as S
    _, rest = f.as_independent(*symbols, as_Add=True)
    b, core = rest.as_independent(*symbols, as_Add=False)
    if b == 0 or not core.free_symbols:
        return None
    if isinstance(core, S.Function) and len(core.args) == 1:
        p, needs = core.args[0], _one_signed_derivative(core.func)
        if needs is None:
            return None
    elif core.is_Pow and core.exp.is_Rational and not core.exp.is_integer:
        p, needs = core.base, "nonnegative" if core.exp > 0 else "positive"
    elif core.is_Pow and core.exp.is_Integer and core.exp < 0:
        p, needs = core.base, "positive"
    elif core.is_Pow and core.base.is_number and core.base.is_positive and core.base != 1:
        p, needs = core.exp, ""
    else:
        return None
    if not p.free_symbols or not p.is_polynomial(*symbols):
        return None
    u = S.Dummy("p")
    return S.expand(p), needs, S.Lambda(u, f.xreplace({p: u}))


def _one_signed_derivative(h):
    """"" where SymPy proves h continuous with h' of one sign on the real line (e^u,
    atan u, sinh u), "positive" where only for u > 0 (ln u, cosh u); None otherwise (sin u;
    acot u, whose derivative is negative but which jumps at 0)."""
    import sympy as S
    from sympy.calculus.util import continuous_domain
    for needs, u, where in (("", S.Dummy(real=True), S.Reals),
                            ("positive", S.Dummy(positive=True), S.Interval.open(0, S.oo))):
        slope = S.diff(h(u), u)
        if not (slope.is_positive or slope.is_negative):
            continue
        try:
            if continuous_domain(h(u), u, where) == where:
                return needs
        except NotImplementedError:   # SymPy cannot tell where h is continuous
            return None
    return None


def domain_holds(needs: str, lowest) -> bool:
    """p's exact minimum on the set proves h defined at every value p takes there."""
    if not needs:
        return True
    return (lowest.is_positive if needs == "positive" else lowest.is_nonnegative) is True
