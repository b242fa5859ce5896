"""A one-variable expression as SymPy, with the book's real odd roots, and its smooth pieces.

SPEC §3.11: a power whose exponent is a fraction with an odd denominator
(x^(2/3), x^(1/3)) is the real root for a negative base, and so is cbrt. SymPy's
own x**(2/3) is complex for x < 0, so such a power is built as
|b|^(p/q) (p even) or sign(b)|b|^(p/q) (p odd). Between the zeros of the
arguments of |.| and sign the expression is smooth: `piece()` replaces each
|a| by ±a and sign(a) by ±1 as they are in a piece, which SymPy can
differentiate and solve without DiracDelta. The tasks that need exact algebra
on one variable (mvt, the normal line) read expressions through here. Imported
only on those paths: it imports SymPy.
"""
from __future__ import annotations

import sympy as S
from sympy.printing.str import StrPrinter

from ..errors import UsageError
from ..language.expr import Apply, Const, Name, Num, postorder
from ..reading import read_program
from .derivative import inline


def _log(x, b=None):
    return S.log(x) if b is None else S.log(x) / S.log(b)


def _real_pow(base, exponent):
    """base^exponent, the real root where the exponent is p/q with q odd (SPEC §3.11)."""
    if isinstance(exponent, S.Rational) and not exponent.is_Integer and exponent.q % 2 == 1 \
            and not (base.is_number and base.is_nonnegative):
        magnitude = S.Abs(base) ** exponent
        return magnitude if exponent.p % 2 == 0 else S.sign(base) * magnitude
    return base ** exponent


_OPS = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b, "neg": lambda a: -a, "pos": lambda a: a, "pow": _real_pow,
    "exp": S.exp, "log": _log, "log2": lambda a: S.log(a) / S.log(2),
    "log10": lambda a: S.log(a) / S.log(10), "sqrt": S.sqrt,
    "cbrt": lambda a: _real_pow(a, S.Rational(1, 3)),
    "sin": S.sin, "cos": S.cos, "tan": S.tan, "sec": S.sec, "csc": S.csc, "cot": S.cot,
    "asin": S.asin, "acos": S.acos, "atan": S.atan, "asec": S.asec, "acsc": S.acsc,
    "acot": S.acot, "sinh": S.sinh, "cosh": S.cosh, "tanh": S.tanh, "sech": S.sech,
    "csch": S.csch, "coth": S.coth, "asinh": S.asinh, "acosh": S.acosh, "atanh": S.atanh,
    "asech": S.asech, "acsch": S.acsch, "acoth": S.acoth,
    "sigmoid": lambda a: 1 / (1 + S.exp(-a)), "softplus": lambda a: S.log(1 + S.exp(a)),
    "abs": S.Abs, "sign": S.sign,
}


def symbol(name: str):
    """The real SymPy symbol of a variable."""
    return S.Symbol(name, real=True)


def to_sympy(root, names=()) -> object:
    """The expression tree `root` as SymPy (iteratively: trees may be deep)."""
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
        elif isinstance(node, Apply) and node.op in _OPS:
            value = _OPS[node.op](*[done[id(a)] for a in node.args])
        else:
            op = getattr(node, "op", type(node).__name__)
            raise UsageError(f"'{op}' is not supported here: this command works with the "
                             "elementary functions (powers, roots, exp, ln, trig, |x|)")
        done[id(node)] = value
    return done[id(root)]


def read_sympy(text: str, names=()):
    """(the text as SymPy, its variables in order of appearance, the program)."""
    from ..language.expr import inputs_of
    program = read_program(text, names)
    root, _ = inline(program)
    return to_sympy(root, inputs_of(program)), inputs_of(program), program


def constant(text: str, what: str):
    """A constant typed by the user (2, -pi/4, sqrt(3)) as an exact SymPy number."""
    value, variables, _ = read_sympy(text)
    if variables:
        raise UsageError(f"{what}: expected a number, got a formula in {', '.join(variables)}")
    value = S.nsimplify(value) if value.has(S.Float) else value
    if not (value.is_real and value.is_finite):
        raise UsageError(f"{what}: expected a finite real number, got {text.strip()}")
    return value


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
