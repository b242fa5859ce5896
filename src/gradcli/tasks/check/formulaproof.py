"""A derivative formula decided by algebra: a proof that it is right, or a point where it is not.

The question and the answer are read into SymPy (symbolic/realforms.py: real
odd roots, max and min through |.|, step and relu through sign) and the true
derivative is SymPy's. Then, in order:

1. The difference expands or cancels to 0, |.| and sign kept as functions of
   their arguments: a proof, wherever both are defined.
2. The line of each variable is cut at every real zero of every |.|, sign,
   log, root and denominator argument of the question and the answer, however
   far out: polynomial arguments by their exact real roots, others by a sign
   scan over every scale (1e-8 .. 1e12). On a piece between cuts |a| is ±a and
   sign(a) is ±1, so the piece's difference is analytic; expand or cancel to 0
   there (the variable's sign known, so the log rules hold) proves the piece.
   In several variables a kink is a curve: kinkcurves.py gives points on both
   sides of every one, wherever it runs, and the difference expanding to 0 for
   every choice of the kinks' signs (or, in two variables with polynomial
   kinks, for the signs met in every region the curves cut the plane into)
   is a proof (_on_cells).
3. Points inside each piece, on both sides of each cut and far out are
   compared at DIGITS digits: a difference beyond SEPARATION of the question's
   own scale there (the true value, or the largest term of its evaluation in
   doubles) that stays the same at CONFIRM_DIGITS digits is a counterexample;
   an exact rational difference that is not 0 is one at once.
4. Trigonometric forms rewritten through exp, then SymPy's simplify, under a
   time cap, on what is still open.

What is neither proven nor refuted is left to sampling (formula.py), with the
points found here. The points depend on the variables and the cuts alone, never
on how either formula is spelled. Nothing here prints; SymPy is imported here.
"""
from __future__ import annotations

import math
import signal
import threading
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import product

import sympy as sp

from ...errors import GradcliError
from ...language.expr import Const, postorder
from ...symbolic.derivative import inline
from ...symbolic.realforms import piece, to_sympy
from .kinkcurves import curve_cells
from .linezeros import MAX_CUTS, shortest
from .linezeros import cut_arguments as _cut_arguments, real_zeros as _real_zeros

DIGITS = 60
CONFIRM_DIGITS = 100
SEPARATION = 1e-45       # relative to the question's scale: beyond it a difference is real
SIMPLIFY_SECONDS = 0.5   # SymPy's simplify on every open piece together
MAX_POINTS = 60
NICE = ("0.731", "-1.37", "2.43", "-0.29", "5.17")   # where a formula is compared off any cut


@dataclass
class Decision:
    """What algebra said about one formula; `decided_by` None leaves it to sampling."""

    decided_by: str | None = None      # "proof" or "counterexample"
    counterexample: dict | None = None  # {"at": {...}, "yours": float, "correct": float}
    points: list = field(default_factory=list)   # float points to sample at (cuts' sides)
    cuts: list = field(default_factory=list)     # where the variable's line was cut
    compared: int = 0                  # points where both sides were defined
    undefined: list = field(default_factory=list)  # (point, truth) where only yours is not
    how: str = ""                      # the evidence in words
    judge: object = None               # point -> counterexample dict or None (60 digits)


class _Late(Exception):
    pass


def capped(work, seconds):
    """work() or None when it takes longer than `seconds` of this process's CPU time (a
    profiling timer, not the wall clock: the verdict does not depend on how loaded the
    machine is; off the main thread, where no signal can reach, it is not tried at all)."""
    if threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "setitimer"):
        return None

    def late(signum, frame):
        raise _Late

    outer = signal.getitimer(signal.ITIMER_PROF)  # a caller's own timer is put back
    old = signal.signal(signal.SIGPROF, late)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        return work()
    except Exception:  # _Late, or SymPy failing on hard input: it cannot decide
        return None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
        if outer[0]:
            signal.setitimer(signal.ITIMER_PROF, *outer)


def _zero(d) -> bool | None:
    """True when expand or cancel gives 0; False when they give a nonzero rational
    function with rational coefficients (proven not 0); None otherwise."""
    for step in (sp.expand, sp.cancel):
        try:
            out = step(d)
        except Exception:  # SymPy raises many kinds on hard input
            return None
        if out == 0:
            return True
    try:
        if out.is_rational_function() and all(c.is_Rational for c in out.atoms(sp.Number)) \
                and not out.atoms(sp.NumberSymbol, sp.Function):
            return False
    except Exception:  # SymPy cannot tell what the difference is: not decided here
        return None
    return None


def _simplifies(d) -> bool:
    """d is 0 by trigonometric forms through exp (sec^2 = 1 + tan^2 in a hundredth of the
    time simplify takes), else by simplify."""
    if d.has(sp.sin, sp.cos, sp.tan, sp.cot, sp.sec, sp.csc) \
            and sp.expand(sp.cancel(sp.expand(d.rewrite(sp.exp)))) == 0:
        return True
    return sp.simplify(d) == 0


def sympy_forms(program, answer_program, name, variables):
    """(answer, true derivative, symbols) in SymPy, or None where either has no form."""
    roots = [inline(program)[0], inline(answer_program)[0]]
    for root in roots:
        if any(isinstance(n, Const) and n.id not in ("pi", "e") for n in postorder(root)):
            return None
    q, a = (to_sympy(r, variables, steps=True) for r in roots)
    symbols = {v: sp.Symbol(v, real=True) for v in variables}
    x = symbols[name]
    truth = sp.diff(q, x).replace(lambda e: isinstance(e, sp.DiracDelta), lambda e: sp.S.Zero)
    if truth.has(sp.Derivative, sp.Subs) or a.has(sp.Derivative):
        return None
    return q, a, truth, symbols


def _cuts(exprs, x, fixed) -> tuple:
    """(sorted cuts of x's line, every kink argument solved exactly?) with the other
    variables at `fixed`."""
    kinks, edges = _cut_arguments(exprs)
    cuts, complete = {Fraction(0)}, True
    for arg in list(kinks) + list(edges):
        arg = arg.subs(fixed)
        if not arg.has(x):
            continue
        zeros, whole = _real_zeros(arg, x)
        cuts.update(zeros)
        if arg in kinks or any(arg == k.subs(fixed) for k in kinks):
            complete = complete and whole
    ordered = sorted(cuts)
    if len(ordered) > MAX_CUTS:
        return ordered[:MAX_CUTS], False
    return ordered, complete


def line_values(cuts) -> list:
    """Values of the variable: inside each piece, beside each cut on both sides, far out."""
    nice = [Fraction(t) for t in NICE]
    if not cuts:
        return nice + [Fraction(1000.7), Fraction(-1000.7)]
    values = []
    for lo, hi in zip(cuts, cuts[1:]):
        w = hi - lo
        values.append(shortest(lo + w / 4, hi - w / 4))
        delta = min(w / 8, Fraction(1, 1000) * max(1, abs(lo), abs(hi)))
        values += [shortest(lo + delta / 2, lo + delta), shortest(hi - delta, hi - delta / 2)]
        values += [v for v in nice if lo < v < hi]
    for edge, sign in ((cuts[0], -1), (cuts[-1], 1)):
        m = max(Fraction(1), abs(edge))
        delta = Fraction(1, 1000) * m
        near = (edge + delta / 2, edge + delta) if sign > 0 else (edge - delta, edge - delta / 2)
        values += [shortest(*sorted((edge + sign * m, edge + 2 * sign * m))), shortest(*near),
                   edge + sign * 1000 * m]
        values += [v for v in nice if (v - edge) * sign > 0]
    # the plainest first: a counterexample is shown at the first point that is one
    return sorted(set(values), key=lambda v: (len(str(float(v))), abs(v)))


def pieces(cuts) -> list:
    """(lo, hi, inside point) of each piece of the line; None for an open end."""
    bounds = [None] + list(cuts) + [None]
    out = []
    for lo, hi in zip(bounds, bounds[1:]):
        if lo is None and hi is None:
            inside = Fraction(NICE[0])
        elif lo is None:
            inside = hi - max(1, abs(hi))
        elif hi is None:
            inside = lo + max(1, abs(lo))
        else:
            inside = shortest(lo + (hi - lo) / 4, hi - (hi - lo) / 4)
        out.append((lo, hi, inside))
    return out


def _value(expr, subs, digits, compiled=None):
    """expr at the point, at `digits` digits: an exact Rational where arithmetic keeps it
    exact, else a Float; None where undefined (not real, not finite). `compiled` (from
    _compiled) evaluates in mpmath, several times faster than SymPy's evalf; where it has
    no answer SymPy's evalf decides."""
    try:
        if _rational(expr):
            v = expr.xreplace(subs)
            if not v.is_Rational:
                v = sp.N(v, digits)
        else:
            v = compiled(subs, digits) if compiled is not None else _SLOW
            if v is _SLOW:  # evaluated numerically: an exact exp(10007/10) takes SymPy minutes
                v = expr.evalf(digits, subs=subs, maxn=400)
    except Exception:  # SymPy refuses or fails: the point tells nothing
        return None
    if v.is_Rational or (v.is_Float and v.is_finite):
        return v
    return None


_SLOW = object()   # mpmath could not evaluate: ask SymPy


def _compiled(expr, symbols):
    """(subs, digits) -> a Float that two precisions of mpmath agree on, else _SLOW (not
    real, not finite, a name mpmath lacks, or digits lost to cancellation: SymPy's adaptive
    evalf then decides). None for an expr that is exact at rational points or that lambdify
    cannot translate."""
    if _rational(expr):
        return None
    import mpmath
    order = list(symbols)
    try:
        f = sp.lambdify(order, expr, modules="mpmath")
    except Exception:  # a function lambdify has no mpmath name for: evalf instead
        return None

    def once(subs, dps):
        with mpmath.workdps(dps):
            try:
                v = f(*[mpmath.mpf(subs[s].p) / subs[s].q for s in order])
            except Exception:  # undefined there, or a type mpmath refuses: evalf decides
                return None
            if isinstance(v, mpmath.mpc) and v.imag == 0:
                v = v.real
            return v if isinstance(v, mpmath.mpf) and mpmath.isfinite(v) else None

    def at(subs, digits):
        low, high = once(subs, digits + 10), once(subs, 2 * digits + 10)
        if low is None or high is None:
            return _SLOW
        with mpmath.workdps(2 * digits + 10):
            if abs(low - high) > mpmath.mpf(10) ** -digits * abs(high) or (high == 0) != (low == 0):
                return _SLOW
            return sp.Float(high, digits)
    return at


@lru_cache(maxsize=512)
def _rational(expr) -> bool:
    """A rational function with |.| and sign: exact at a rational point."""
    return all(isinstance(f, (sp.Abs, sp.sign)) for f in expr.atoms(sp.Function)) \
        and all(p.exp.is_Integer for p in expr.atoms(sp.Pow)) \
        and not expr.atoms(sp.NumberSymbol)


def _scale(program, name, point):
    """The largest term of the question's derivative evaluated in doubles at the point: the
    scale of its own rounding (sampling.true_derivative)."""
    from .sampling import true_derivative
    try:
        got = true_derivative(program, point, name)
    except GradcliError:
        return 0.0
    return 0.0 if got is None or not math.isfinite(got[1]) else got[1]


def _judge(program, name, a, truth, symbols):
    """point (floats or Fractions) -> ("differ", cx) | ("same", None) | ("undefined", t) |
    (None, None) where the truth is undefined."""
    ordered = [symbols[v] for v in symbols]
    fast_truth, fast_a = _compiled(truth, ordered), _compiled(a, ordered)

    def at(point):
        subs = {symbols[v]: sp.Rational(Fraction(p).numerator, Fraction(p).denominator)
                for v, p in point.items()}
        shown = {v: float(p) for v, p in point.items()}
        if set(subs) == set(ordered):
            verdict = compare(subs, shown, fast_truth, fast_a)
            if verdict[0] == "same":
                return verdict
        # anything but agreement is decided by SymPy's evalf, which raises its precision
        # until the digits are right (x*sigmoid(z)*(1 - sigmoid(z)) at z = 733)
        return compare(subs, shown, None, None)

    def compare(subs, shown, t_fast, a_fast):
        t = _value(truth, subs, DIGITS, t_fast)
        if t is None:
            return None, None
        s = _value(a, subs, DIGITS, a_fast)
        if s is None:
            return "undefined", float(t)
        gap = abs(s - t)
        if s.is_Rational and t.is_Rational:
            real = gap != 0
        else:
            scale = max(abs(float(t)), _scale(program, name, shown))
            real = float(gap) > SEPARATION * scale
            if real:  # the same gap at more digits: not an artefact of the evaluation
                s2 = _value(a, subs, CONFIRM_DIGITS, a_fast)
                t2 = _value(truth, subs, CONFIRM_DIGITS, t_fast)
                real = s2 is not None and t2 is not None \
                    and abs(float(abs(s2 - t2)) - float(gap)) <= 1e-3 * float(gap)
        if not real:
            return "same", None
        return "differ", {"at": shown, "yours": float(s), "correct": float(t)}
    return at


def _points(variables, name, exprs, symbols, at, curves=True):
    """The points compared, and for the variable of differentiation its cuts and whether
    every kink was solved: along the line of each variable through a base point (the given
    point, else NICE values), the others fixed there; with several variables and `curves`,
    then beside every kink curve wherever it is (kinkcurves.py), and `cells` (kink
    arguments, those points, every region sampled?) for _on_cells; else None."""
    base = {v: Fraction(at[v]) if at and v in at else Fraction(NICE[i % len(NICE)])
            for i, v in enumerate(variables)}
    points, main_cuts, complete = [], [], True
    if at and all(v in at for v in variables):
        points.append({v: Fraction(at[v]) for v in variables})
    for v in [name] + [u for u in variables if u != name]:
        fixed = {symbols[u]: sp.Rational(base[u].numerator, base[u].denominator)
                 for u in variables if u != v}
        cuts, whole = _cuts(exprs, symbols[v], fixed)
        if v == name:
            main_cuts, complete = cuts, whole
        for value in line_values(cuts):
            p = dict(base)
            p[v] = value
            points.append(p)
    points = points[:MAX_POINTS]
    cells = None
    if len(variables) > 1 and curves:
        kinks, edges = _cut_arguments(exprs)
        order = [symbols[v] for v in variables]
        found, whole = curve_cells(kinks | edges, order)
        points += [{v: p[symbols[v]] for v in variables} for p in found]
        cells = (kinks, found, whole)
    return points, main_cuts, complete, cells


def _on_piece(expr, x, lo, hi, inside):
    """expr on the piece (lo, hi): |.| and sign fixed, x's sign known where it is."""
    out = piece(expr, x, sp.Rational(inside.numerator, inside.denominator))
    if lo is not None and lo >= 0:
        p = sp.Symbol(x.name, positive=True)
        return out.xreplace({x: p})
    if hi is not None and hi <= 0:
        p = sp.Symbol(x.name, positive=True)
        return out.xreplace({x: -p})
    return out


def decide_derivative(program, answer_program, name, variables, at=None,
                      judging: bool = True) -> Decision:
    """Proof, counterexample, or (decided_by None) the points to sample at; see the module
    doc. Not `judging` (an answer with rounded decimals, which the digits rule grades), only
    the points. Never raises for a formula it cannot read: algebra has nothing to say."""
    try:
        forms = sympy_forms(program, answer_program, name, variables)
    except Exception:  # no SymPy form (an op without one, a shape): sampling decides
        return Decision()
    if forms is None:
        return Decision()
    return decide_forms(program, name, variables, forms, at, judging)


def decide_forms(program, name, variables, forms, at=None, judging: bool = True) -> Decision:
    """decide_derivative on forms already in SymPy: (question, answer, true derivative,
    variable -> symbol). literalproof.py brings an answer whose rounded decimals it has
    replaced by the exact numbers they stand for."""
    q, a, truth, symbols = forms
    x = symbols[name]
    judge = _judge(program, name, a, truth, symbols)
    word = _zero(a - truth) if judging else None
    # An identity (the difference expands to 0) needs no point beside a kink curve.
    points, cuts, complete, cells = _points(variables, name, (q, a, truth), symbols, at,
                                            curves=word is not True)
    decision = Decision(points=[{v: float(p) for v, p in pt.items()} for pt in points],
                        cuts=[float(c) for c in cuts], judge=judge if judging else None)
    if not judging:
        return decision
    for point in points:
        verdict, detail = judge(point)
        if verdict == "differ":
            decision.decided_by, decision.counterexample = "counterexample", detail
            decision.how = f"decided by a counterexample (computed to {DIGITS} digits)"
            return decision
        if verdict == "same":
            decision.compared += 1
        elif verdict == "undefined":
            decision.undefined.append(({v: float(p) for v, p in point.items()}, detail))
    if not decision.compared:
        return decision
    if word is True:
        decision.decided_by = "proof"
        decision.how = "decided by proof: the difference simplifies to 0"
        return decision
    if len(variables) == 1 and complete:
        open_pieces = []
        for lo, hi, inside in pieces(cuts):
            d = _on_piece(a, x, lo, hi, inside) - _on_piece(truth, x, lo, hi, inside)
            if _zero(d) is not True:
                open_pieces.append(d)
        if open_pieces and not capped(lambda: all(_simplifies(d) for d in open_pieces),
                                       SIMPLIFY_SECONDS):
            return decision
        n = len(cuts) + 1
        decision.decided_by = "proof"
        shown = decision.cuts
        decision.how = ("decided by proof: the difference simplifies to 0" +
                        (f" on each of the {n} pieces of the line cut at "
                         f"{name} = {', '.join(_number(c) for c in shown[:6])}"
                         f"{', ...' if len(shown) > 6 else ''}" if n > 2 else ""))
        return decision
    if cells is not None and (a - truth).has(sp.Abs, sp.sign):
        patterns = _on_cells(a - truth, *cells)
        if patterns:
            decision.decided_by = "proof"
            decision.how = ("decided by proof: the difference simplifies to 0 on every side "
                            "of the kink curves "
                            f"({patterns} sign pattern{'s' if patterns > 1 else ''} of the kinks)")
        return decision
    if not (a - truth).has(sp.Abs, sp.sign) \
            and capped(lambda: _simplifies(a - truth), SIMPLIFY_SECONDS):
        decision.decided_by = "proof"
        decision.how = "decided by proof: the difference simplifies to 0"
    return decision


def _on_cells(difference, kinks, samples, whole) -> int:
    """The number of sign patterns of the kink arguments on which the difference, each |g|
    and sign(g) fixed by the pattern, expands or cancels to 0, if it does on every one
    that matters; else 0. Every pattern (up to 4 kinks) matters, whatever the curves; or,
    where every region has a sample point (`whole`: kinkcurves.curve_cells), the
    patterns met at the samples."""
    order = sorted(kinks, key=sp.default_sort_key)
    if len(order) <= 4:
        every = list(product((1, -1), repeat=len(order)))
        if _zero_on(difference, order, every):
            return len(every)
    if not whole:
        return 0
    patterns = set()
    for sample in samples:
        subs = {s: sp.Rational(q.numerator, q.denominator) for s, q in sample.items()}
        signs = []
        for g in order:
            v = g.xreplace(subs)
            v = v if v.is_Rational else sp.N(v, 40)
            if v == 0 or not v.is_real or abs(v) < sp.Float("1e-30"):
                break  # on a curve: its region's pattern comes from another sample
            signs.append(1 if v > 0 else -1)
        else:
            patterns.add(tuple(signs))
    return len(patterns) if patterns and _zero_on(difference, order, sorted(patterns)) else 0


def _zero_on(difference, order, patterns) -> bool:
    """Whether the difference is 0 with |g| = s·g and sign(g) = s for each pattern s."""
    for pattern in patterns:
        fixed = {}
        for g, s in zip(order, pattern):
            fixed[sp.Abs(g)], fixed[sp.sign(g)] = s * g, sp.Integer(s)
        d = difference.xreplace(fixed)
        if d.has(sp.Abs, sp.sign) or _zero(d) is not True:
            return False
    return True


def _number(v: float) -> str:
    from ...numbers import format_number
    return format_number(v)

