"""A one-variable expression as SymPy, with the book's real odd roots, and its smooth pieces.

SPEC §3.11: a power whose exponent is a fraction with an odd denominator
(x^(2/3), x^(1/3)) is the real root for a negative base, and so is cbrt. SymPy's
own x**(2/3) is complex for x < 0, so such a power is built as
|b|^(p/q) (p even) or sign(b)|b|^(p/q) (p odd). Between the zeros of the
arguments of |.| and sign the expression is smooth: `piece()` replaces each
|a| by ±a and sign(a) by ±1 as they are in a piece, which SymPy can
differentiate and solve without DiracDelta. tasks/exactinput.py reads user
text through here. Imported only on the exact paths: it imports SymPy.
"""
from __future__ import annotations

import sympy as S
from sympy.printing.str import StrPrinter

from ..errors import UsageError
from ..language.expr import Apply, Const, Name, Num, postorder


def _real_pow(base, exponent):
    """base^exponent, the real root where the exponent is p/q with q odd (SPEC §3.11)."""
    if isinstance(exponent, S.Rational) and not exponent.is_Integer and exponent.q % 2 == 1 \
            and not (base.is_number and base.is_nonnegative):
        magnitude = S.Abs(base) ** exponent
        return magnitude if exponent.p % 2 == 0 else S.sign(base) * magnitude
    return base ** exponent


# The real root where SymPy's own function is the principal (complex) one.
_REAL = {"pow": _real_pow, "cbrt": lambda a: _real_pow(a, S.Rational(1, 3))}
# Step and relu through sign and |.|: equal to the op table's off their kink (where the
# table picks a convention), which is all a comparison between kinks needs.
_STEPS = {"step": lambda a: (1 + S.sign(a)) / 2, "relu": lambda a: (a + S.Abs(a)) / 2}


def as_real(expr):
    """SymPy's principal odd roots in expr turned into the real ones (x**(2/3) -> |x|**(2/3))."""
    return expr.replace(
        lambda e: e.is_Pow and e.exp.is_Rational and not e.exp.is_Integer and e.exp.q % 2 == 1,
        lambda e: _real_pow(e.base, e.exp))


def _apply(op: str, args, real_roots: bool = True):
    """One op on SymPy expressions: SymPy's function of the same name where it has one
    (the op table follows SymPy's conventions: acot, sech, ...), else the table's own value
    rule on the closed-form backend; an op with no symbolic meaning (relu, step) is refused."""
    from ..autodiff.closed import ClosedBackend
    from ..errors import GradcliError
    from ..ops import TABLE
    if op in _REAL:
        return _REAL[op](*args) if real_roots else S.Pow(*args) if op == "pow" \
            else S.Pow(args[0], S.Rational(1, 3))
    same = getattr(S, op, None)
    if callable(same) and op in TABLE and TABLE[op].category != "arithmetic":
        return same(*args)
    try:
        out = TABLE[op].value(ClosedBackend, *args)
        # max(a, b) = (a + b + |a - b|)/2: corners that piece() splits at, as for |x|
        return out.rewrite(S.Abs) if out.has(S.Max, S.Min) else out
    except (GradcliError, TypeError, ValueError, KeyError):
        raise UsageError(f"'{op}' is not supported here: this command works with the "
                         "elementary functions (powers, roots, exp, ln, trig, |x|)") from None


def symbol(name: str):
    """The real SymPy symbol of a variable."""
    return S.Symbol(name, real=True)


def to_sympy(root, names=(), real_roots: bool = True, steps: bool = False) -> object:
    """The expression tree `root` as SymPy (iteratively: trees may be deep). Without
    `real_roots`, x^(2/3) is SymPy's x**(2/3): the same algebra (derivatives, the curve's
    equation) without |.| and sign, for formulas; `as_real` turns it back. With `steps`,
    step and relu are read through sign and |.| (_STEPS) instead of refused."""
    symbols = {n: symbol(n) for n in names}
    done: dict = {}
    for node in postorder(root):
        if isinstance(node, Num):
            v = node.value
            if isinstance(v, float):
                value = S.Rational(repr(v))
            elif isinstance(v, int):
                value = S.Integer(v)
            elif hasattr(v, "denominator"):
                value = S.Rational(v.numerator, v.denominator)
            else:
                raise UsageError("this question takes scalar expressions only")
        elif isinstance(node, Name):
            value = symbols.setdefault(node.id, symbol(node.id))
        elif isinstance(node, Const):
            value = S.pi if node.id == "pi" else S.E
        elif isinstance(node, Apply):
            args = [done[id(a)] for a in node.args]
            value = _STEPS[node.op](*args) if steps and node.op in _STEPS \
                else _apply(node.op, args, real_roots)
        else:
            raise UsageError(f"'{type(node).__name__}' is not supported here: this command "
                             "works with scalar functions of one variable")
        done[id(node)] = value
    return done[id(root)]


def kink_arguments(expr) -> list:
    """The arguments of |.| and sign in expr: where they vanish, the pieces meet."""
    return list({a.args[0] for a in expr.atoms(S.Abs, S.sign)})


def piece(expr, x, inside):
    """expr on a piece where every |.| and sign argument keeps its sign, at the point
    `inside` of it: |a| -> ±a, sign(a) -> ±1, innermost first."""
    def fixed(node):
        s = S.sign(node.args[0].subs(x, inside).evalf(30))
        s = S.Integer(1) if s >= 0 else S.Integer(-1)
        return s * node.args[0] if isinstance(node, S.Abs) else s
    out = expr
    while out.atoms(S.Abs, S.sign):
        inner = [a for a in out.atoms(S.Abs, S.sign) if not a.args[0].atoms(S.Abs, S.sign)]
        out = out.xreplace({a: fixed(a) for a in inner})
    return out


class JsonPrinter(StrPrinter):
    """SymPy's str with e for E: a closed form gradcli reads back (2*sqrt(3)/3, pi/3)."""

    def _print_Exp1(self, expr):
        return "e"

    def _print_exp(self, expr):
        return f"exp({self._print(expr.args[0])})"

    def _print_Rational(self, expr):
        return f"{expr.p}/{expr.q}" if expr.q != 1 else str(expr.p)

    def _print_Pow(self, expr, rational=False):
        return super()._print_Pow(expr, rational).replace("**", "^")

    def _print_Abs(self, expr):
        return f"abs({self._print(expr.args[0])})"


def json_text(value) -> str:
    """A closed form as text gradcli reads back: 2*sqrt(3)/3, pi/3, -1/2, e^2."""
    return JsonPrinter().doprint(value)
