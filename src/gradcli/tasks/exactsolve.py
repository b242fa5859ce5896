"""Polynomial and transcendental systems solved exactly, for `extrema` in several variables.

`solve_real` gives the real solutions of a system as {name: value} (None, or a
("family", solution) pair, for a curve of solutions). Two polynomial equations in
two unknowns go to `poly_points`, complete by construction (SymPy's solve may
return an empty or partial list for them); anything else goes to SymPy's solve,
bounded in time for a transcendental system. Imports SymPy.
"""
from __future__ import annotations

from .onevar import NotExact


def equation_text(e) -> str:
    """An expression of a system as printed in --steps and in reasons."""
    from ..closedtext import printed_text
    return printed_text(e).replace("Abs(", "abs(")


def solve_real(equations, symbols, what, families=False):
    """Real solutions {name: value}; None in the list for a family with a free parameter
    (with `families`, ("family", the solution) instead)."""
    import sympy as S
    equations = [e for e in equations if e != 0]
    # a polynomial system's solutions need no checking by substitution (no denominators)
    check = not all(e.is_polynomial(*symbols) for e in equations)
    if not check and len(equations) == 2 and len(symbols) == 2:
        points = poly_points(equations[0], equations[1], *symbols)
        if points is not None:
            return points
    try:
        with deadline(SOLVE_SECONDS if check else None):
            found = S.solve(equations, symbols, dict=True, check=check)
    except (NotImplementedError, ValueError, TimeoutError) as exc:
        raise NotExact(f"SymPy cannot solve the system of {what} exactly",
                       hint="gradcli critical finds critical points numerically") from exc
    out = []
    for sol in found:
        if any(s not in sol for s in symbols) or any(v.free_symbols for v in sol.values()):
            out.append(("family", sol) if families else None)
            continue
        point = {}
        for s in symbols:
            v = sol[s]
            if not is_real(v):
                break
            point[s.name] = clean(v)
        else:
            out.append(point)
    return out


def poly_points(p, q, x, y):
    """Every real common zero of two polynomials in x and y, or None where they share a
    factor (a curve of solutions).

    SymPy's solve can return an empty or partial list for such a system (when the
    eliminant has no roots in radicals), so the real roots are found from both
    resultants (exact: radicals, or CRootOf where no radicals exist) and each pair
    kept where both polynomials vanish (to 50 digits, beyond any coincidence of
    algebraic numbers this size)."""
    import sympy as S
    rx, ry = S.resultant(p, q, y), S.resultant(p, q, x)
    if S.expand(rx) == 0 or S.expand(ry) == 0:
        return None
    xs = _real_roots(rx, x)
    ys = _real_roots(ry, y)
    out = []
    scale = 1 + max(abs(float(c)) for c in S.Poly(p, x, y).coeffs() + S.Poly(q, x, y).coeffs())
    for a in xs:
        for b in ys:
            at = {x: a, y: b}
            if all(abs(e.subs(at).evalf(60)) < S.Float("1e-40", 60) * scale for e in (p, q)):
                out.append({x.name: a, y.name: b})
    return out


def _real_roots(r, v) -> list:
    import sympy as S
    if not r.has(v):
        return []
    roots = []
    for factor, _ in S.factor_list(S.Poly(r, v))[1]:
        roots += [root for root in factor.real_roots() if root not in roots]
    return roots


SOLVE_SECONDS = 4   # SymPy on a transcendental system may search for minutes


class deadline:
    """Raise TimeoutError in the block after `seconds` (main thread only; None: no limit)."""

    def __init__(self, seconds):
        import threading
        self.seconds = seconds if threading.current_thread() is threading.main_thread() \
            else None

    def __enter__(self):
        if self.seconds:
            import signal
            self.outer = signal.getitimer(signal.ITIMER_REAL)  # a caller's timer, put back
            self.old = signal.signal(signal.SIGALRM, self._expired)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    @staticmethod
    def _expired(signum, frame):
        raise TimeoutError("SymPy took too long")

    def __exit__(self, *exc):
        if self.seconds:
            import signal
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.old)
            if self.outer[0]:
                signal.setitimer(signal.ITIMER_REAL, *self.outer)
        return False


def is_real(v) -> bool:
    if v.is_real:
        return True
    if v.is_real is False:
        return False
    n = v.evalf(40)
    return abs(n.as_real_imag()[1]) < 1e-30


def clean(v):
    import sympy as S
    if v.is_real:
        return S.radsimp(v) if v.has(S.Pow) else v
    # a real root SymPy wrote through complex numbers (Cardano): its real part, exactly;
    # a simpler form is taken only where SymPy proves the two equal
    re = S.re(S.expand_complex(v))
    simpler = S.nsimplify(re)
    return simpler if simpler != re and S.simplify(re - simpler) == 0 else re
