"""Our AST -> a SymPy expression (iteratively), the reference oracle for derivative tests.

Every op-table name must have a SymPy meaning here; `to_sympy` fails loudly on
an op it does not know, so a new function cannot slip past the property tests.
"""
import sympy as sp

from gradcli.language.expr import Apply, Const, Name, Num, postorder


class Cbrt(sp.Function):
    """The real cube root, with its derivative 1/(3*cbrt(x)**2) (SymPy's real_root differentiates badly)."""

    @classmethod
    def eval(cls, x):
        if x.is_number:
            v = x.evalf(40)
            return sp.sign(v) * sp.Abs(v) ** sp.Rational(1, 3)
        return None

    def fdiff(self, argindex=1):
        return 1 / (3 * Cbrt(self.args[0]) ** 2)


class RealPow(sp.Function):
    """x^(p/q) with q odd, the real root for x < 0: sign(x)^p*|x|^(p/q)."""

    @classmethod
    def eval(cls, x, y):
        if x.is_number:
            v = x.evalf(40)
            return sp.sign(v) ** y.p * sp.Abs(v) ** y
        return None

    def fdiff(self, argindex=1):
        x, y = self.args
        return y * _pow(x, y - 1)


def _pow(x, y):
    """The language's power: a rational exponent of odd denominator is a real root."""
    if isinstance(y, sp.Rational) and y.q != 1 and y.q % 2 == 1:
        return RealPow(x, y)
    return x ** y


class Step(sp.Function):
    """1 for x > 0, else 0; derivative 0 (the convention of the op table)."""

    @classmethod
    def eval(cls, x):
        if x.is_number:
            v = x.evalf(40)
            if not v.is_extended_real or not v.is_finite:
                return sp.nan  # step(csc(pi)): undefined, as the argument is
            return sp.S.One if v > 0 else sp.S.Zero
        return None

    def fdiff(self, argindex=1):
        return sp.S.Zero


class Sign(sp.Function):
    """-1, 0 or 1; derivative 0."""

    @classmethod
    def eval(cls, x):
        if x.is_number:
            v = x.evalf(40)
            if not v.is_extended_real or not v.is_finite:
                return sp.nan
            return sp.sign(v)
        return None

    def fdiff(self, argindex=1):
        return sp.S.Zero


class AbsF(sp.Function):
    """|x| with derivative Sign(x), so nested arguments differentiate cleanly."""

    @classmethod
    def eval(cls, x):
        if x.is_number:
            return sp.Abs(x.evalf(40))
        return None

    def fdiff(self, argindex=1):
        return Sign(self.args[0])


def _log(x, b=None):
    return sp.log(x) if b is None else sp.log(x) / sp.log(b)


SYMPY = {
    "add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
    "div": lambda x, y: x / y, "neg": lambda x: -x, "pos": lambda x: x,
    "pow": _pow,
    "exp": sp.exp, "log": _log, "log2": lambda x: sp.log(x) / sp.log(2),
    "log10": lambda x: sp.log(x) / sp.log(10), "sqrt": sp.sqrt,
    "cbrt": Cbrt,
    "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "sec": sp.sec, "csc": sp.csc, "cot": sp.cot,
    "asin": sp.asin, "acos": sp.acos, "atan": sp.atan, "atan2": sp.atan2,
    "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh, "asinh": sp.asinh, "acosh": sp.acosh,
    "atanh": sp.atanh, "sigmoid": lambda x: 1 / (1 + sp.exp(-x)),
    # SymPy's conventions are the table's: asec(x) = acos(1/x), acsc(x) = asin(1/x),
    # acot(x) = atan(1/x) with acot(0) = pi/2, asech(x) = acosh(1/x), ...
    "asec": sp.asec, "acsc": sp.acsc, "acot": sp.acot,
    "sech": sp.sech, "csch": sp.csch, "coth": sp.coth,
    "asech": sp.asech, "acsch": sp.acsch, "acoth": sp.acoth,
    "relu": lambda x: x * Step(x), "softplus": lambda x: sp.log(1 + sp.exp(x)),
    "abs": AbsF, "max": sp.Max, "min": sp.Min, "sign": Sign, "step": Step,
}


def to_sympy(expr, symbols, exact=False):
    """`symbols`: name -> sympy Symbol (real). `exact`: decimals become rationals (0.5 -> 1/2)."""
    done = {}
    for node in postorder(expr):
        if isinstance(node, Num):
            v = node.value
            if isinstance(v, float):
                value = sp.Rational(repr(v)) if exact else sp.Float(v, 30)
            else:
                value = sp.Integer(v) if isinstance(v, int) else sp.Rational(str(v))
        elif isinstance(node, Name):
            value = symbols.setdefault(node.id, sp.Symbol(node.id, real=True))
        elif isinstance(node, Const):
            value = sp.pi if node.id == "pi" else sp.E
        elif isinstance(node, Apply):
            value = SYMPY[node.op](*[done[id(a)] for a in node.args])
        else:
            raise TypeError(node)
        done[id(node)] = value
    return done[id(expr)]


def number(sym_value) -> float:
    # SymPy leaves DiracDelta(-2.5 - tan(E)) unevaluated (max's second derivative);
    # with a numeric argument it is 0 away from the tie.
    sym_value = sym_value.replace(lambda e: isinstance(e, (sp.DiracDelta, sp.Heaviside)),
                                  lambda e: e.func(*[a.evalf(40) for a in e.args]))
    value = complex(sym_value.evalf(30))
    assert abs(value.imag) <= 1e-12 * max(1.0, abs(value.real)), sym_value
    return value.real
