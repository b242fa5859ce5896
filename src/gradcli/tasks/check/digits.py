"""The digits rule, one literal at a time, on exact values.

A decimal typed with DIGITS_MIN or more significant digits (`0.354`, `1.41421`,
`4.540e-5`) stands for an exact quantity: a slope, an intercept, a Taylor
coefficient, a value. It is right when it is that quantity correctly rounded
to the places typed, half-up or half-even, both taken on the EXACT value (a
rational exactly, an irrational at PRECISION digits), never on the binary
double: 2.001/2 = 1.0005 exactly, so both 1.001 and 1.000 are right to 3
places. A whole number is exact (`2x` means 2), except where the answer shows
rounding: alone (`220` for 70π, as `--value 220`) or beside rounded decimals.

Also here, the SymPy reading of an answer with each rounded literal as an
unknown (`with_unknowns`), and `solve_literals`, which matches each unknown to
the one exact quantity it must be for the answer to be right. SymPy is imported
only by the functions that use it.
"""
from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

from .verdict import DIGITS_MAX, DIGITS_MIN

PRECISION = 60          # digits of an irrational exact value
_TIE = Decimal("1e-40")  # closer than this (in units of the last place) to .5 is a tie


def typed_decimal(text: str) -> Decimal | None:
    """The literal as typed (parentheses and a leading sign folded in are dropped)."""
    t = "".join(str(text).split()).replace("(", "").replace(")", "").lstrip("+")
    try:
        d = Decimal(t)
    except ArithmeticError:
        return None
    return d if d.is_finite() else None


def significant(d: Decimal) -> int:
    """Significant digits typed: leading zeros do not count, trailing ones do."""
    digits = "".join(map(str, d.as_tuple().digits)).lstrip("0")
    return len(digits)


def is_decimal_text(text: str) -> bool:
    """A point or an exponent was typed: the number is a decimal, not a whole number."""
    t = str(text).lower()
    return "." in t or "e" in t


def places(text: str) -> int:
    """Decimal places typed (negative for a whole number's trailing zeros never)."""
    d = typed_decimal(text)
    return max(-d.as_tuple().exponent, 0) if d is not None else 0


def shown_places(texts) -> int | None:
    """The fewest places of the answer's decimals of DIGITS_MIN+ significant digits: the
    places it shows rounding to; None where it shows none."""
    found = [places(t) for t in texts if is_rounded(t)]
    return min(found) if found else None


def is_rounded(text: str, shown: int | None = None) -> bool:
    """Whether the digits rule reads the literal as a rounding: a decimal of DIGITS_MIN+
    significant digits; where the answer shows rounding to `shown` places, a shorter
    decimal of as many places (0.041 beside 0.878) and a whole number of DIGITS_MIN+
    digits (`220` beside 0.354)."""
    d = typed_decimal(text)
    if d is None or d == 0:
        return False
    if is_decimal_text(text):
        return significant(d) >= DIGITS_MIN or shown is not None and places(text) >= shown
    return shown is not None and significant(d) >= DIGITS_MIN


def exact_decimal(value) -> Decimal:
    """An exact value (SymPy number, Fraction, int, mpmath number) as a Decimal of
    PRECISION + 10 digits; a rational's expansion is exact to that many."""
    with localcontext() as ctx:
        ctx.prec = PRECISION + 10
        if isinstance(value, (int, Fraction)):
            f = Fraction(value)
            return Decimal(f.numerator) / Decimal(f.denominator)
        if type(value).__module__.startswith("mpmath"):
            import mpmath as mp
            return Decimal(mp.nstr(value, PRECISION, strip_zeros=False, min_fixed=-math.inf,
                                   max_fixed=math.inf))
        import sympy as sp
        v = sp.sympify(value)
        if v.is_Rational:
            return Decimal(int(v.p)) / Decimal(int(v.q))
        return Decimal(str(sp.N(v, PRECISION)))


def roundings(value, typed: Decimal) -> list:
    """The correct roundings of the exact `value` to the places of `typed`: one, or at an
    exact tie both neighbours (half-up and half-even)."""
    exact = exact_decimal(value)
    quantum = Decimal(1).scaleb(typed.as_tuple().exponent)
    with localcontext() as ctx:
        ctx.prec = PRECISION + 20
        scaled = exact / quantum
        low = scaled.to_integral_value(rounding=ROUND_FLOOR)
        high = scaled.to_integral_value(rounding=ROUND_CEILING)
        if abs(scaled - low - Decimal("0.5")) <= _TIE:
            return [low * quantum, high * quantum]
        nearest = scaled.to_integral_value(rounding=ROUND_HALF_EVEN)
        return [nearest * quantum]


def rounds_right(text: str, value) -> bool:
    """The typed literal is the exact `value` correctly rounded to its places; past
    DIGITS_MAX digits (a double printed in full, as computed in doubles by some other
    program) within 16 units in the last place of the double nearest the value."""
    d = typed_decimal(text)
    if d is None:
        return False
    if significant(d) > DIGITS_MAX:
        e = float(exact_decimal(value))
        return abs(float(d) - e) <= 16 * math.ulp(e)
    return any(d == r for r in roundings(value, d))


def rounded_as(text: str, value) -> str:
    """`value` rounded to the places of the typed literal, written as typed (0.707)."""
    d = typed_decimal(text)
    r = roundings(value, d)[-1]
    places = -d.as_tuple().exponent
    if "e" in str(text).lower():
        return format(r.normalize() if r == 0 else r, f".{max(significant(d) - 1, 0)}e")
    return format(r, f".{max(places, 0)}f")


def near_tie(value: float, typed: Decimal, error: float) -> bool:
    """Whether the double `value`, give or take `error`, may round either way at the places
    of `typed` (then only the exact value can decide)."""
    quantum = float(Decimal(1).scaleb(typed.as_tuple().exponent))
    if not math.isfinite(value) or quantum == 0:
        return False
    frac = abs(value / quantum) % 1.0
    return abs(frac - 0.5) * quantum <= error + 4 * math.ulp(value)


def with_unknowns(program, point_names, shown=None, prefix="_c"):
    """The answer's last statement with each rounded literal an unknown, inlined, as SymPy.

    Returns (expression, unknowns): unknowns is a list of (symbol, typed text, its exact
    value as typed). `shown`: the places the whole answer shows rounding to
    (shown_places; None: this program's own). Raises
    tosympy.NoSympyForm where an operation has no SymPy meaning.
    """
    import sympy as sp

    from ...language.expr import Name, Num, Program, Statement, postorder, replace_leaves
    from ...symbolic.derivative import inline
    from ...symbolic.tosympy import to_sympy
    source = program.source or ""
    last = program.statements[-1]
    found = []
    for node in postorder(last.expr):
        if type(node) is Num and node.span is not None and not isinstance(node.value, bool):
            found.append((node, source[node.span[0]:node.span[1]]))
    if shown is None:
        shown = shown_places(t for _, t in found)
    centres = {float(v) for v in point_names.values()}
    rounded = {}
    for node, text in found:
        if not is_rounded(text, shown):
            continue
        if not is_decimal_text(text) and float(node.value) in centres:
            continue  # the point itself, as in (x - 100): never a rounding
        rounded[id(node)] = (f"{prefix}{len(rounded)}", text, node.value)
    expr = replace_leaves(last.expr, lambda n: Name(rounded[id(n)][0])
                          if id(n) in rounded else n)
    root, _ = inline(Program(program.statements[:-1] + (Statement(None, expr),),
                             program.source))
    out = to_sympy(kinks_as_abs(root))
    unknowns = [(sp.Symbol(name, real=True), text,
                 sp.Rational(str(typed_decimal(text).copy_abs())) * (-1 if value < 0 else 1))
                for name, text, value in rounded.values()]
    return out, unknowns


def solve_literals(equations, unknowns) -> tuple:
    """Match each unknown to the exact number it must be for every equation to hold.

    Returns (kind, values): kind "none" (no unknowns), "matched" (values: symbol -> exact
    number for each unknown fixed by the equations; the others are free), or
    "inconsistent" (no values make them hold, whatever the rounding).
    """
    import sympy as sp
    symbols = [s for s, _, _ in unknowns]
    if not symbols:
        return "none", {}
    eqs = [sp.expand(e) for e in equations]
    eqs = [e for e in eqs if e != 0]
    if not eqs:
        return "matched", {}
    try:
        sp.linear_eq_to_matrix(eqs, symbols)
        solutions = sp.linsolve(eqs, symbols)
    except (sp.PolynomialError, ValueError, TypeError, NotImplementedError):
        solutions = None
    if solutions is None:
        if len(symbols) > 3:
            return "free", {}
        try:
            found = sp.solve(eqs, symbols, dict=True)
        except (NotImplementedError, ValueError, TypeError):
            return "free", {}
        if not found:
            return "inconsistent", {}
        if len(found) > 1:
            return "free", {}
        return "matched", {s: v for s, v in found[0].items() if not v.free_symbols}
    if solutions == sp.S.EmptySet:
        return "inconsistent", {}
    (solution,) = tuple(solutions)
    return "matched", {s: v for s, v in zip(symbols, solution)
                       if not (v.free_symbols & set(symbols))}


def half_unit(text: str):
    """Half a unit in the last typed place, as a SymPy Rational."""
    import sympy as sp
    d = typed_decimal(text)
    return sp.Rational(str(Decimal(1).scaleb(d.as_tuple().exponent))) / 2


def exactly_equal(q, t) -> bool:
    """q = t for SymPy numbers: by algebra where both are exact, else to PRECISION - 20
    digits (a coefficient the series gave to PRECISION digits)."""
    import sympy as sp

    from ...symbolic.tosympy import is_zero
    d = sp.sympify(q) - sp.sympify(t)
    if d == 0:
        return True
    size = max(abs(sp.N(q, 30)), abs(sp.N(t, 30)), sp.Float("1e-30"))
    near = abs(sp.N(d, PRECISION))
    if near > sp.Float(10) ** -20 * size:
        return False  # plainly apart: no algebra needed
    if not d.has(sp.Float):
        proved = is_zero(d, cheap=True)
        if proved is not None:
            return proved
    return near <= sp.Float(10) ** -(PRECISION - 20) * size


def _within_slack(q, t, unknowns) -> bool:
    """q with the literals as typed is t, give or take how far half a unit of each
    literal moves it (the literal's own digits, never the size of other numbers)."""
    import sympy as sp
    typed = {s: v for s, _, v in unknowns}
    gap = abs(sp.N(q.subs(typed) - t, 30))
    slack = sum(abs(sp.N(sp.diff(q, s).subs(typed), 30)) * half_unit(text)
                for s, text, _ in unknowns if s in q.free_symbols)
    return bool(gap <= sp.N(slack, 30) * (1 + sp.Float("1e-12")) + sp.Float("1e-40"))


class Judged:
    """Per quantity, whether the answer has it right; how that was decided; and a
    sentence for each literal that is not the rounding of what it stands for."""

    def __init__(self, oks, decided_by, notes):
        self.oks, self.decided_by, self.notes = oks, decided_by, notes


def judge(quantities, truths, unknowns, describe=None) -> Judged:
    """Grade the answer's quantities (SymPy, in the unknowns of with_unknowns) against
    the exact truths: each literal matched to the one number it stands for must be its
    correct rounding; a literal no one quantity fixes moves its quantities by its own
    half unit at most. `describe(value)`: the exact number in words (closed form)."""
    import sympy as sp
    describe = describe or (lambda v: str(sp.N(v, 10)))
    if not unknowns:
        return Judged([exactly_equal(q, t) for q, t in zip(quantities, truths)], "proof", [])
    kind, values = solve_literals([q - t for q, t in zip(quantities, truths)], unknowns)
    bad, notes = set(), []
    if kind == "matched":
        for s, text, _ in unknowns:
            if s in values and not rounds_right(text, values[s]):
                bad.add(s)
                notes.append(f"{text} stands for {describe(values[s])}: rounded to "
                             f"{places_words(text)} that is {rounded_as(text, values[s])}")
    oks = []
    for q, t in zip(quantities, truths):
        syms = q.free_symbols & {s for s, _, _ in unknowns}
        if kind == "matched" and all(s in values for s in syms):
            oks.append(not (syms & bad))
        elif kind in ("matched", "free"):
            oks.append(_within_slack(q, t, unknowns) and not (syms & bad))
        else:
            oks.append(_within_slack(q, t, unknowns))
    if kind == "inconsistent" and all(oks):
        oks = _worst_flagged(quantities, truths, unknowns)
    return Judged(oks, "digits", notes)


def _worst_flagged(quantities, truths, unknowns) -> list:
    """No rounding makes every quantity right at once: the one furthest off is wrong."""
    import sympy as sp
    typed = {s: v for s, _, v in unknowns}
    gaps = [abs(sp.N(q.subs(typed) - t, 30)) / max(abs(sp.N(t, 30)), sp.Float("1e-30"))
            for q, t in zip(quantities, truths)]
    worst = max(range(len(gaps)), key=lambda i: gaps[i])
    return [i != worst for i in range(len(gaps))]


def places_words(text: str) -> str:
    d = typed_decimal(text)
    if "e" in str(text).lower():
        return f"{significant(d)} significant digits"
    places = -d.as_tuple().exponent
    if places <= 0:
        return "the nearest whole number" if places == 0 else f"the nearest 10^{-places}"
    return f"{places} decimal place" + ("s" if places > 1 else "")


MAX_KINK_ARGUMENTS = 12


def kinks_as_abs(root):
    """relu, max, min and step written with abs and sign, which SymPy reads: the same
    function exactly (step(0) = 0, as the op table has it), so a tangent with a kink is
    not linear rather than unread."""
    from ...language.expr import Apply, Num, postorder

    def half(e):
        return Apply("div", (e, Num(2)))

    def rewrite(node, args):
        if node.op == "relu":
            return half(Apply("add", (args[0], Apply("abs", (args[0],)))))
        if node.op in ("max", "min") and len(args) >= 2:
            out = args[0]
            for b in args[1:]:
                gap = Apply("abs", (Apply("sub", (out, b)),))
                out = half(Apply("add" if node.op == "max" else "sub",
                                 (Apply("add", (out, b)), gap)))
            return out
        if node.op == "step":
            sign = Apply("sign", (args[0],))
            return half(Apply("add", (sign, Apply("mul", (sign, sign)))))
        return node if all(a is b for a, b in zip(args, node.args)) \
            else Apply(node.op, tuple(args), node.span)

    # Each further argument of max or min writes the ones before it twice: past a few the
    # SymPy form doubles out of reach (max(x, y, y, ..., y) of 3,000 arguments).
    extra = sum(len(n.args) - 1 for n in postorder(root)
                if type(n) is Apply and n.op in ("max", "min"))
    if extra > MAX_KINK_ARGUMENTS:
        raise ValueError(f"{extra + 1} arguments of max or min: too many for an exact form")
    done = {}
    for node in postorder(root):
        if type(node) is Apply:
            done[id(node)] = rewrite(node, [done.get(id(a), a) for a in node.args])
    return done.get(id(root), root)
