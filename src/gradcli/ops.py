"""THE op table: one record per operator and function.

Each record holds everything about one operation: its names, arity, value rule,
derivative rules, domain checks with the messages users see, kink conventions,
and how it prints. The engine, the symbolic differentiator, `trace`,
`gradcli functions`, the error messages and the tests all read this table.

Value rules take a numeric backend `B` (floats through math, arrays through
NumPy). Derivative rules take a namespace `D` whose functions are the language's
own (D.cos, D.sign, ...), plus the forward result `out`; written that way, one
rule gives numbers (D over a backend), formulas (D over expressions) and
graphs that can be differentiated again (D over Values).
"""
from __future__ import annotations

from .oprecord import (ATOM, CONSTANTS, POWER, PRODUCT, SUM, UNARY, Check,  # noqa: F401
                       Kink, Op)

TABLE: dict[str, Op] = {}
ALIASES: dict[str, str] = {}


def _add(op: Op) -> None:
    TABLE[op.name] = op
    for alias in op.aliases:
        ALIASES[alias] = op.name


def lookup(name: str) -> Op | None:
    """The record for a function or operator name, following aliases."""
    op = TABLE.get(name)
    if op is None and name in ALIASES:
        op = TABLE[ALIASES[name]]
    return op


def lookup_function(name: str) -> Op | None:
    """The record a call `name(...)` means; operators are not callable by name except pow."""
    op = lookup(name)
    if op is None or (op.is_operator and op.extra.get("call_name") != name):
        return None
    return op


def function_names() -> list[str]:
    """Every name a user can call, aliases included."""
    names = [op.extra.get("call_name", n) for n, op in TABLE.items()
             if not op.is_operator or "call_name" in op.extra]
    return names + list(ALIASES)


# ---------------------------------------------------------------- operators

# On arrays, a single exponent often settles a check or a kink for every element: then
# no pass over the base is made (x**2 on a million points).

def _scalar(y) -> bool:
    return getattr(y, "ndim", 0) == 0


def _nonneg_base_or_integer_exponent(B, x, y):
    if B.name == "numpy":
        return True if _scalar(y) and B.is_integer(y) else (x >= 0) | B.is_integer(y)
    return x >= 0 or B.is_integer(y)


def _zero_base_positive_exponent(B, x, y):
    if B.name == "numpy":
        return True if _scalar(y) and y >= 0 else (x != 0) | (y >= 0)
    return x != 0 or y >= 0


def _pow_base_kink(B, x, y):
    if B.name != "numpy":
        return x == 0 and y < 1 and y != 0
    if _scalar(y) and not (y < 1 and y != 0 and y != -1):
        return False
    return (x == 0) & (y < 1) & (y != 0) & (y != -1)


def _pow_base_partial(D, x, y):
    """d/dx x**y = y*x**(y-1); x**1 is x, without a pass over it."""
    if _scalar(y) and y == 2:
        return y * x
    return y * D.pow(x, y - 1)


_add(Op("add", 2, lambda B, x, y: x + y,
        (lambda D, out, x, y: 1, lambda D, out, x, y: 1),
        "arithmetic", "addition", symbol="+", prec=SUM, rule="sum", rational=True))
_add(Op("sub", 2, lambda B, x, y: x - y,
        (lambda D, out, x, y: 1, lambda D, out, x, y: -1),
        "arithmetic", "subtraction", symbol="-", prec=SUM, rule="difference",
        rational=True))
_add(Op("mul", 2, lambda B, x, y: x * y,
        (lambda D, out, x, y: y, lambda D, out, x, y: x),
        "arithmetic", "multiplication", symbol="*", prec=PRODUCT, latex=r"\cdot",
        rule={(True, True): "product", (True, False): "constant multiple",
              (False, True): "constant multiple"}, rational=True))
_add(Op("div", 2, lambda B, x, y: x / y,
        # d/dx x/y = 1/y ; d/dy x/y = -x/y**2
        (lambda D, out, x, y: 1 / y, lambda D, out, x, y: -x / y ** 2),
        "arithmetic", "division",
        domain=(Check(lambda B, x, y: y != 0, "division by zero", (1,)),),
        domain_text="y ≠ 0", symbol="/", prec=PRODUCT,
        # -(x/y)/y: y**2 alone underflows to 0 (y = 1e-200) or overflows where the
        # derivative itself is an ordinary number.
        numeric_partials=(lambda B, out, x, y: 1 / y, lambda B, out, x, y: -(x / y) / y),
        rule={(True, True): "quotient", (True, False): "constant multiple",
              (False, True): "quotient"},
        rational=True, extra=dict(stable_form=True)))
_add(Op("neg", 1, lambda B, x: -x, (lambda D, out, x: -1,),
        "arithmetic", "negation", symbol="-", prec=UNARY,
        rule="constant multiple", rational=True, exact_in_doubles=True))
_add(Op("pos", 1, lambda B, x: x, (lambda D, out, x: 1,),
        "arithmetic", "unary plus", symbol="+", prec=UNARY,
        rule="constant multiple", rational=True, exact_in_doubles=True))
_add(Op("pow", 2, lambda B, x, y: B.pow(x, y),
        # d/dx x**y = y*x**(y-1) ; d/dy x**y = x**y*log(x)
        # (D.pow, not **, so that exact mode keeps its size limits and exact roots)
        (lambda D, out, x, y: _pow_base_partial(D, x, y), lambda D, out, x, y: out * D.log(x)),
        "arithmetic", "power (also written ^); x^(p/q) with q odd is the real root "
        "(x^(2/3) = 4 at x = -8)",
        domain=(Check(_nonneg_base_or_integer_exponent,
                      "a negative base needs an integer exponent", (0, 1)),
                Check(_zero_base_positive_exponent,
                      "zero cannot be raised to a negative power", (0, 1))),
        domain_text="x > 0, or y an integer or a written fraction p/q, q odd (x ≠ 0 if y < 0)",
        kinks=(Kink(lambda B, x, y: x < 0,
                    "the derivative with respect to the exponent needs log of the "
                    "negative base {x}: it is undefined (nan)", wrt=1),
               Kink(_pow_base_kink,
                    "x**{y} at x = 0: the derivative with respect to the base is "
                    "infinite or undefined; using inf/nan as PyTorch does", wrt=0)),
        # PyTorch's convention: at x = 0 (y > 0) x**y is constant 0 in y.
        numeric_partials=(None, lambda B, out, x, y: B.where(x == 0, 0 * out, out * B.log(x))),
        symbol="**", prec=POWER, extra={"call_name": "pow"},
        rule={(True, False): "power", (False, True): "exponential",
              (True, True): "general power"}))


# A power whose exponent is written as a fraction p/q with q odd (x^(2/3), x^(1/3)) is
# the real root for a negative base, as a book's graph of x^(2/3) shows (SPEC §3.11):
# |x|^y for p even, sign(x)*|x|^y for p odd. Only the text knows p/q (the double 2/3
# does not), so lowering picks one of these two records from the AST; the formula stays
# pow, and its derivative y*x^(y-1) has an exponent of odd denominator again.

def _abs_power(B, x, y):
    if B.name == "math":
        return _root_then_power(abs(x), y)
    return B.pow(B.abs(x), y)


def _odd_power(B, x, y):
    return B.sign(x) * _abs_power(B, x, y)


def _root_then_power(a: float, y: float) -> float:
    """a^(p/q) for a >= 0, to 34 digits and then rounded once: (-8)^(2/3) is 4, not the
    3.9999999999999996 that pow(8, 0.666...) gives (the double 2/3 is not 2/3)."""
    from decimal import Decimal, localcontext
    from fractions import Fraction
    f = Fraction(y).limit_denominator(999)
    if float(f) != y or not 0.0 < a < float("inf"):
        return a ** y
    with localcontext() as ctx:
        ctx.prec = 34
        return float(Decimal(a) ** (Decimal(f.numerator) / Decimal(f.denominator)))


def _real_root_power(even: bool) -> Op:
    pow_op = TABLE["pow"]
    # d/dx |x|^y = y*sign(x)*|x|^(y-1) ; d/dx sign(x)*|x|^y = y*|x|^(y-1)
    base = ((lambda D, out, x, y: y * D.sign(x) * D.pow(D.abs(x), y - 1)) if even else
            (lambda D, out, x, y: y * D.pow(D.abs(x), y - 1)))
    return Op("pow", 2, _abs_power if even else _odd_power,
              (base, lambda D, out, x, y: out * D.log(x)),
              "arithmetic", pow_op.doc,
              domain=(pow_op.domain[1],),
              domain_text="x ≠ 0 if y < 0",
              kinks=(pow_op.kinks[1],),
              symbol="**", prec=POWER, extra={"call_name": "pow", "real_root": True},
              rule=pow_op.rule)


# By the parity of the numerator p: True for |x|^(p/q), False for sign(x)*|x|^(p/q).
REAL_ROOT_POWERS = {True: _real_root_power(True), False: _real_root_power(False)}

# ---------------------------------------------------------------- functions

from .stable import (acot, acoth, acsch, asech, atan2_partial, csch,  # noqa: E402
                     one_minus_square, one_over_one_plus_square, root_square_minus_one,
                     root_square_plus_one, sech)

_POS = Check(lambda B, x, *_: x > 0, "{name} needs a positive argument")


def _fn(name, arity, value, partials, category, doc, **kw):
    domain = tuple(Check(c.ok, c.message.format(name="ln" if name == "log" else name), c.show)
                   for c in kw.pop("domain", ()))
    kw.setdefault("latex", "\\" + name if name in _LATEX_NAMED else r"\operatorname{%s}" % name)
    _add(Op(name, arity, value, partials, category, doc, domain=domain, **kw))


_LATEX_NAMED = {"exp", "log", "ln", "sin", "cos", "tan", "sec", "csc", "cot",
                "sinh", "cosh", "tanh", "coth", "max", "min"}

_fn("exp", 1, lambda B, x: B.exp(x), (lambda D, out, x: out,), "exponential",
    "e to the power x",
    rule="exponential",
    product_rank=0, latex_form=("e^{", "}"))
_fn("log", (1, 2), lambda B, x, b=None: B.log(x) if b is None else B.log(x) / B.log(b),
    lambda D, i, out, args, cache: (
        1 / args[0] if len(args) == 1
        # log(x, b) = log(x)/log(b): d/dx = 1/(x*log(b)), d/db = -log(x)/(b*log(b)**2)
        else 1 / (args[0] * D.log(args[1])) if i == 0
        else -D.log(args[0]) / (args[1] * D.log(args[1]) ** 2)),
    "exponential", "natural logarithm; log(x, b) is base b", aliases=("ln",),
    # d/db as -(log(x)/log(b))/(b*log(b)): log(b)**2 underflows for b near 1.
    numeric_partials=lambda B, i, out, args, cache: (
        1 / args[0] if len(args) == 1 else 1 / (args[0] * B.log(args[1])) if i == 0
        else -out / (args[1] * B.log(args[1]))),
    extra=dict(stable_form=True),
    domain=(_POS,
            Check(lambda B, x, b=2.0: (b > 0) & (b != 1) if B.name == "numpy" else b > 0 and b != 1,
                  "the base of a logarithm must be positive and not 1", (1,))),
    domain_text="x > 0 (base b > 0, b ≠ 1)",
    rule="logarithm",
    params=("x", "b"))
_fn("log2", 1, lambda B, x: B.log2(x), (lambda D, out, x: 1 / (x * D.log(2)),),
    "exponential", "base-2 logarithm", domain=(_POS,), domain_text="x > 0",
    rule="logarithm")
_fn("log10", 1, lambda B, x: B.log10(x), (lambda D, out, x: 1 / (x * D.log(10)),),
    "exponential", "base-10 logarithm", domain=(_POS,), domain_text="x > 0",
    rule="logarithm")
_fn("sqrt", 1, lambda B, x: B.sqrt(x), (lambda D, out, x: 1 / (2 * out),),
    "exponential", "square root",
    domain=(Check(lambda B, x: x >= 0, "sqrt needs a non-negative argument"),),
    domain_text="x ≥ 0",
    kinks=(Kink(lambda B, x: x == 0, "sqrt at 0: the derivative is +inf (right-sided only); "
                "using inf as PyTorch does"),),
    rule="root",
    latex=r"\sqrt", latex_form=(r"\sqrt{", "}"))
_fn("cbrt", 1, lambda B, x: B.cbrt(x), (lambda D, out, x: 1 / (3 * out ** 2),),
    "exponential", "real cube root (cbrt(-8) = -2)",
    kinks=(Kink(lambda B, x: x == 0, "cbrt at 0: the derivative is +inf from both sides; "
                "using inf as PyTorch does"),),
    rule="root",
    latex_form=(r"\sqrt[3]{", "}"))
_fn("sin", 1, lambda B, x: B.sin(x), (lambda D, out, x: D.cos(x),), "trigonometric", "sine",
    rule="trigonometric",
    product_rank=1, inverse="asin")
_fn("cos", 1, lambda B, x: B.cos(x), (lambda D, out, x: -D.sin(x),), "trigonometric", "cosine",
    rule="trigonometric",
    product_rank=2, inverse="acos")
_fn("tan", 1, lambda B, x: B.tan(x), (lambda D, out, x: 1 + out ** 2,), "trigonometric",
    "tangent", domain_text="cos(x) ≠ 0",
    rule="trigonometric",
    product_rank=5, inverse="atan")
_fn("sec", 1, lambda B, x: 1 / B.cos(x), (lambda D, out, x: out * D.tan(x),),
    "trigonometric", "secant, 1/cos(x)", domain_text="cos(x) ≠ 0",
    domain=(Check(lambda B, x: B.cos(x) != 0, "sec needs cos(x) ≠ 0"),),
    rule="trigonometric",
    product_rank=3, inverse="asec")
_fn("csc", 1, lambda B, x: 1 / B.sin(x), (lambda D, out, x: -out * D.cot(x),),
    "trigonometric", "cosecant, 1/sin(x)", domain_text="sin(x) ≠ 0",
    domain=(Check(lambda B, x: B.sin(x) != 0, "csc needs sin(x) ≠ 0"),),
    rule="trigonometric",
    product_rank=4, inverse="acsc")
_fn("cot", 1, lambda B, x: B.cos(x) / B.sin(x), (lambda D, out, x: -(1 + out ** 2),),
    "trigonometric", "cotangent, cos(x)/sin(x)", domain_text="sin(x) ≠ 0",
    domain=(Check(lambda B, x: B.sin(x) != 0, "cot needs sin(x) ≠ 0"),),
    rule="trigonometric",
    product_rank=6, inverse="acot")


_STABLE = {"stable_form": True}

_fn("asin", 1, lambda B, x: B.asin(x), (lambda D, out, x: 1 / D.sqrt(1 - x ** 2),),
    "trigonometric", "inverse sine", aliases=("arcsin",), domain_text="-1 ≤ x ≤ 1",
    domain=(Check(lambda B, x: B.abs(x) <= 1, "asin needs an argument between -1 and 1"),),
    kinks=(Kink(lambda B, x: B.abs(x) == 1, "asin at ±1: the derivative is +inf; "
                "using inf as PyTorch does"),),
    numeric_partials=(lambda B, out, x: 1 / B.sqrt(one_minus_square(x)),),
    latex=r"\arcsin", extra=dict(_STABLE),
    rule="inverse trigonometric",
    edges=(1.0, -1.0))
_fn("acos", 1, lambda B, x: B.acos(x), (lambda D, out, x: -1 / D.sqrt(1 - x ** 2),),
    "trigonometric", "inverse cosine", aliases=("arccos",), domain_text="-1 ≤ x ≤ 1",
    domain=(Check(lambda B, x: B.abs(x) <= 1, "acos needs an argument between -1 and 1"),),
    kinks=(Kink(lambda B, x: B.abs(x) == 1, "acos at ±1: the derivative is -inf; "
                "using -inf as PyTorch does"),),
    numeric_partials=(lambda B, out, x: -1 / B.sqrt(one_minus_square(x)),),
    latex=r"\arccos", extra=dict(_STABLE),
    rule="inverse trigonometric",
    edges=(1.0, -1.0))


_fn("atan", 1, lambda B, x: B.atan(x), (lambda D, out, x: 1 / (1 + x ** 2),),
    "trigonometric", "inverse tangent", aliases=("arctan",), latex=r"\arctan",
    numeric_partials=(lambda B, out, x: one_over_one_plus_square(B, x),),
    extra=dict(stable_form=True),
    rule="inverse trigonometric")
_fn("atan2", 2, lambda B, y, x: B.atan2(y, x),
    # d/dy atan2(y, x) = x/(x**2 + y**2) ; d/dx = -y/(x**2 + y**2)
    (lambda D, out, y, x: x / (x ** 2 + y ** 2), lambda D, out, y, x: -y / (x ** 2 + y ** 2)),
    "trigonometric", "angle of the point (x, y): atan2(y, x)",
    numeric_partials=(lambda B, out, y, x: atan2_partial(B, x, y, x),
                      lambda B, out, y, x: atan2_partial(B, -y, y, x)),
    extra=dict(stable_form=True),
    kinks=(Kink(lambda B, y, x: (y == 0) & (x == 0) if B.name == "numpy" else y == 0 and x == 0,
                "atan2 at (0, 0): the value is 0 but the derivative is undefined (nan)"),),
    rule="inverse trigonometric",
    params=("y", "x"))

_fn("asec", 1,
    # asec(x) = acos(1/x), computed as atan2(sqrt(x**2 - 1), sign(x)): the same angle,
    # without the rounding of 1/x that acos magnifies near |x| = 1.
    lambda B, x: B.atan2(root_square_minus_one(B, x), B.sign(x)),
    # d/dx asec(x) = 1/(|x|*sqrt(x**2 - 1))
    (lambda D, out, x: 1 / (D.abs(x) * D.sqrt(x ** 2 - 1)),),
    "trigonometric", "inverse secant: asec(x) = acos(1/x) for |x| ≥ 1, in [0, pi]",
    aliases=("arcsec",), domain_text="|x| ≥ 1",
    domain=(Check(lambda B, x: B.abs(x) >= 1, "asec needs |x| ≥ 1"),),
    kinks=(Kink(lambda B, x: B.abs(x) == 1, "asec at ±1: the derivative is +inf "
                "(one-sided); using inf as PyTorch does for acos(1/x)"),),
    numeric_partials=(lambda B, out, x: 1 / (B.abs(x) * root_square_minus_one(B, x)),),
    latex=r"\operatorname{arcsec}", extra=dict(_STABLE),
    rule="inverse trigonometric",
    edges=(1.0, -1.0))
_fn("acsc", 1,
    # acsc(x) = asin(1/x), computed as atan2(sign(x), sqrt(x**2 - 1)).
    lambda B, x: B.atan2(B.sign(x), root_square_minus_one(B, x)),
    # d/dx acsc(x) = -1/(|x|*sqrt(x**2 - 1))
    (lambda D, out, x: -1 / (D.abs(x) * D.sqrt(x ** 2 - 1)),),
    "trigonometric", "inverse cosecant: acsc(x) = asin(1/x) for |x| ≥ 1, in [-pi/2, pi/2]",
    aliases=("arccsc",), domain_text="|x| ≥ 1",
    domain=(Check(lambda B, x: B.abs(x) >= 1, "acsc needs |x| ≥ 1"),),
    kinks=(Kink(lambda B, x: B.abs(x) == 1, "acsc at ±1: the derivative is -inf "
                "(one-sided); using -inf as PyTorch does for asin(1/x)"),),
    numeric_partials=(lambda B, out, x: -1 / (B.abs(x) * root_square_minus_one(B, x)),),
    latex=r"\operatorname{arccsc}", extra=dict(_STABLE),
    rule="inverse trigonometric",
    edges=(1.0, -1.0))


_fn("acot", 1, acot,
    # d/dx acot(x) = -1/(1 + x**2), on both sides of 0
    (lambda D, out, x: -1 / (1 + x ** 2),),
    "trigonometric", "inverse cotangent, SymPy's convention: acot(x) = atan(1/x), odd, "
    "in (-pi/2, pi/2], acot(0) = pi/2 (a jump at 0); derivative -1/(1 + x^2) everywhere",
    aliases=("arccot",),
    numeric_partials=(lambda B, out, x: -one_over_one_plus_square(B, x),),
    extra=dict(stable_form=True),
    kinks=(Kink(lambda B, x: x == 0, "acot at 0: the value jumps from -pi/2 to pi/2 "
                "(acot(0) = pi/2, as in SymPy); using -1, the derivative on both sides"),),
    latex=r"\operatorname{arccot}",
    rule="inverse trigonometric")

_fn("sinh", 1, lambda B, x: B.sinh(x), (lambda D, out, x: D.cosh(x),), "hyperbolic",
    "hyperbolic sine",
    rule="hyperbolic",
    product_rank=7, inverse="asinh")
_fn("cosh", 1, lambda B, x: B.cosh(x), (lambda D, out, x: D.sinh(x),), "hyperbolic",
    "hyperbolic cosine",
    rule="hyperbolic",
    product_rank=8, inverse="acosh")
_fn("tanh", 1, lambda B, x: B.tanh(x), (lambda D, out, x: 1 - out ** 2,), "hyperbolic",
    "hyperbolic tangent",
    # sech(x)**2: 1 - tanh(x)**2 is 1 - 1 = 0 from |x| = 19 on, where it is 4e-17.
    numeric_partials=(lambda B, out, x: sech(B, x) ** 2,), extra=dict(stable_form=True),
    rule="hyperbolic",
    product_rank=11, inverse="atanh")


_fn("sech", 1, sech,
    # d/dx sech(x) = -sech(x)*tanh(x)
    (lambda D, out, x: -out * D.tanh(x),),
    "hyperbolic", "hyperbolic secant, 1/cosh(x), computed stably (sech(800) = 0)",
    latex=r"\operatorname{sech}",
    rule="hyperbolic",
    product_rank=9, inverse="asech")
_fn("csch", 1, csch,
    # d/dx csch(x) = -csch(x)*coth(x)
    (lambda D, out, x: -out * D.coth(x),),
    "hyperbolic", "hyperbolic cosecant, 1/sinh(x), computed stably (csch(800) = 0)",
    domain=(Check(lambda B, x: x != 0, "csch needs x ≠ 0"),), domain_text="x ≠ 0",
    latex=r"\operatorname{csch}",
    rule="hyperbolic",
    product_rank=10, inverse="acsch")
_fn("coth", 1, lambda B, x: 1 / B.tanh(x),
    # d/dx coth(x) = -csch(x)**2 (not 1 - coth(x)**2, which loses every digit for large |x|)
    (lambda D, out, x: -D.csch(x) ** 2,),
    "hyperbolic", "hyperbolic cotangent, cosh(x)/sinh(x) (coth(800) = 1)",
    domain=(Check(lambda B, x: x != 0, "coth needs x ≠ 0"),), domain_text="x ≠ 0",
    rule="hyperbolic",
    product_rank=12, inverse="acoth")


_fn("asinh", 1, lambda B, x: B.asinh(x), (lambda D, out, x: 1 / D.sqrt(x ** 2 + 1),),
    "hyperbolic", "inverse hyperbolic sine", aliases=("arsinh", "arcsinh"),
    latex=r"\operatorname{arsinh}",
    numeric_partials=(lambda B, out, x: 1 / root_square_plus_one(B, x),),
    extra=dict(_STABLE),
    rule="inverse hyperbolic")
_fn("acosh", 1, lambda B, x: B.acosh(x), (lambda D, out, x: 1 / D.sqrt(x ** 2 - 1),),
    "hyperbolic", "inverse hyperbolic cosine", aliases=("arcosh", "arccosh"),
    latex=r"\operatorname{arcosh}",
    domain=(Check(lambda B, x: x >= 1, "acosh needs an argument of at least 1"),),
    domain_text="x ≥ 1",
    kinks=(Kink(lambda B, x: x == 1, "acosh at 1: the derivative is +inf; "
                "using inf as PyTorch does"),),
    numeric_partials=(lambda B, out, x: 1 / root_square_minus_one(B, x),),
    extra=dict(_STABLE),
    rule="inverse hyperbolic",
    edges=(1.0, -1.0))
_fn("atanh", 1, lambda B, x: B.atanh(x), (lambda D, out, x: 1 / (1 - x ** 2),),
    "hyperbolic", "inverse hyperbolic tangent", aliases=("artanh", "arctanh"),
    latex=r"\operatorname{artanh}",
    domain=(Check(lambda B, x: B.abs(x) < 1, "atanh needs an argument strictly between -1 and 1"),),
    domain_text="-1 < x < 1",
    numeric_partials=(lambda B, out, x: 1 / one_minus_square(x),),
    extra=dict(_STABLE),
    rule="inverse hyperbolic",
    edges=(1.0, -1.0))


_fn("asech", 1, asech,
    # d/dx asech(x) = -1/(x*sqrt(1 - x**2))
    (lambda D, out, x: -1 / (x * D.sqrt(1 - x ** 2)),),
    "hyperbolic", "inverse hyperbolic secant: asech(x) = acosh(1/x) for 0 < x ≤ 1",
    aliases=("arsech", "arcsech"), domain_text="0 < x ≤ 1",
    domain=(Check(lambda B, x: (x > 0) & (x <= 1), "asech needs 0 < x ≤ 1"),),
    kinks=(Kink(lambda B, x: x == 1, "asech at 1: the derivative is -inf (left-sided "
                "only); using -inf as PyTorch does for acosh(1/x)"),),
    numeric_partials=(lambda B, out, x: -1 / (x * B.sqrt(one_minus_square(x))),),
    latex=r"\operatorname{arsech}", extra=dict(_STABLE, samples=[
        (0.05,), (0.3,), (0.5,), (0.75,), (0.9,), (0.97,)]),
    rule="inverse hyperbolic",
    edges=(1.0, -1.0))
_fn("acsch", 1, acsch,
    # d/dx acsch(x) = -1/(|x|*sqrt(1 + x**2))
    (lambda D, out, x: -1 / (D.abs(x) * D.sqrt(1 + x ** 2)),),
    "hyperbolic", "inverse hyperbolic cosecant: acsch(x) = asinh(1/x) for x ≠ 0",
    aliases=("arcsch", "arccsch"), domain_text="x ≠ 0",
    domain=(Check(lambda B, x: x != 0, "acsch needs x ≠ 0"),),
    numeric_partials=(lambda B, out, x: -1 / (B.abs(x) * root_square_plus_one(B, x)),),
    latex=r"\operatorname{arcsch}", extra=dict(_STABLE),
    rule="inverse hyperbolic")
_fn("acoth", 1, acoth,
    # d/dx acoth(x) = 1/(1 - x**2)
    (lambda D, out, x: 1 / (1 - x ** 2),),
    "hyperbolic", "inverse hyperbolic cotangent: acoth(x) = atanh(1/x) for |x| > 1",
    aliases=("arcoth", "arccoth"), domain_text="|x| > 1",
    domain=(Check(lambda B, x: B.abs(x) > 1, "acoth needs |x| > 1"),),
    numeric_partials=(lambda B, out, x: 1 / one_minus_square(x),),
    latex=r"\operatorname{arcoth}", extra=dict(_STABLE),
    rule="inverse hyperbolic",
    edges=(1.0, -1.0))

_fn("sigmoid", 1, lambda B, x: B.sigmoid(x), (lambda D, out, x: out * (1 - out),),
    "machine learning", "logistic function 1/(1 + e^-x)", latex=r"\sigma",
    # 1 - sigmoid(x) as sigmoid(-x): 1 - out is 1 - 1 = 0 from x = 37 on.
    numeric_partials=(lambda B, out, x: out * B.sigmoid(-x),), extra=dict(stable_form=True),
    rule="sigmoid")
_fn("relu", 1, lambda B, x: B.where(x > 0, x, 0.0 * x), (lambda D, out, x: D.step(x),),
    "machine learning", "max(x, 0)",
    kinks=(Kink(lambda B, x: x == 0, "relu at 0: left 0, right 1; using 0 as PyTorch does"),),
    rule="relu",
    exact_in_doubles=True)
_fn("softplus", 1, lambda B, x: B.softplus(x), (lambda D, out, x: D.sigmoid(x),),
    "machine learning", "log(1 + e^x), computed stably",
    rule="softplus")
_fn("abs", 1, lambda B, x: B.abs(x), (lambda D, out, x: D.sign(x),),
    "machine learning", "absolute value",
    kinks=(Kink(lambda B, x: x == 0, "abs at 0: left -1, right 1; using 0 as PyTorch does"),),
    rule="absolute value",
    latex_form=(r"\left|", r"\right|"), exact_in_doubles=True)


def _tie_share(B, i, out, args, cache):
    """PyTorch's rule: the gradient is split evenly among all arguments equal to the result.

    The count of ties is found once per node and kept in the caller's `cache`
    (Op.partial), so a node of N arguments is linear work.
    """
    hit = B.where(args[i] == out, 1.0, 0.0)
    if B.name != "numpy" and not hit:
        return hit  # not the result: no share, and no need to count the ties
    count = cache.get("tie_share")
    if count is None:
        count = cache["tie_share"] = B.count_equal(args, out)
    return hit / count


def _tie_symbolic(sign):
    """The engine's tie share written in the language, for diff and --hessian.

    Two arguments: (1 + sign(a - b))/2. More: [a_i is the result] / (how many are),
    with 1 - step(out - a_i) as the indicator; the count is built once per node
    (kept in the caller's `cache`), so the derivative stays linear in the number
    of arguments.
    """
    def hit(D, out, a):
        return 1 - D.step(out - a if sign > 0 else a - out)

    def partial(D, i, out, args, cache):
        if len(args) == 1:
            return 1
        if len(args) == 2:
            other = args[1 - i]
            gap = args[i] - other if sign > 0 else other - args[i]
            return (1 + D.sign(gap)) / 2
        count = cache.get("tie_rule")
        if count is None:
            count = hit(D, out, args[0])
            for a in args[1:]:
                count = count + hit(D, out, a)
            cache["tie_rule"] = count
        return hit(D, out, args[i]) / count
    return partial


def _tie_kink(B, *args):
    out = B.maximum(*args)
    low = B.minimum(*args)
    return B.count_equal(args, out) > 1 or B.count_equal(args, low) > 1 if B.name == "math" \
        else (B.count_equal(args, out) > 1) | (B.count_equal(args, low) > 1)


_fn("max", (1, None), lambda B, *xs: B.maximum(*xs), _tie_symbolic(1),
    "machine learning", "largest argument",
    numeric_partials=_tie_share,
    kinks=(Kink(_tie_kink, "max with tied arguments: the gradient is split evenly among "
                "the tied ones, as PyTorch does (one-sided derivatives are 0 and 1)"),),
    rule="maximum",
    exact_in_doubles=True)
_fn("min", (1, None), lambda B, *xs: B.minimum(*xs), _tie_symbolic(-1),
    "machine learning", "smallest argument",
    numeric_partials=_tie_share,
    kinks=(Kink(_tie_kink, "min with tied arguments: the gradient is split evenly among "
                "the tied ones, as PyTorch does (one-sided derivatives are 0 and 1)"),),
    rule="minimum",
    exact_in_doubles=True)
_fn("sign", 1, lambda B, x: B.sign(x), (lambda D, out, x: 0,), "steps",
    "-1, 0 or 1 (sign(0) = 0); derivative 0", latex=r"\operatorname{sgn}",
    rule="step function",
    jumps=True, exact_in_doubles=True)
_fn("step", 1, lambda B, x: B.step(x), (lambda D, out, x: 0,), "steps",
    "1 for x > 0, else 0; derivative 0", latex=r"\operatorname{H}",
    rule="step function",
    jumps=True, exact_in_doubles=True)

# ---------------------------------------------------------------- vectors
# Reductions are not element-wise, so the engine runs their `vjp` (upstream
# gradient -> one contribution per argument); `partials` are the element-wise
# derivatives for the symbolic side and `gradcli functions`.

def _sum_vjp(B, g, out, x):
    # d sum(x)/dx_i = 1: every element receives the upstream gradient.
    return (B.spread(g, x),)


def _mean_vjp(B, g, out, x):
    # d mean(x)/dx_i = 1/n
    return (B.spread(g / B.size(x), x),)


def _size_vjp(B, g, out, x):
    return (B.spread(0.0 * g, x),)


def _dot_vjp(B, g, out, x, y):
    # d dot(x, y)/dx_i = y_i ; d dot(x, y)/dy_i = x_i
    return (g * y, g * x)


def _matmul_vjp(B, g, out, x, y):
    # d(x @ y) = dx @ y + x @ dy, so x receives g @ y^T and y receives x^T @ g.
    return B.matmul_vjp(g, x, y)


_fn("sum", 1, lambda B, x: B.sum(x), (lambda D, out, x: 1,), "vectors",
    "sum of all elements", vjp=_sum_vjp, domain_text="any shape",
    latex=r"\operatorname{sum}")
_fn("mean", 1, lambda B, x: B.mean(x), (lambda D, out, x: 1 / D.size(x),), "vectors",
    "mean of all elements", vjp=_mean_vjp, domain_text="any shape")
_fn("size", 1, lambda B, x: B.size(x), (lambda D, out, x: 0,), "vectors",
    "number of elements (1 for a scalar); derivative 0", vjp=_size_vjp,
    domain_text="any shape")
_fn("dot", 2, lambda B, x, y: B.dot(x, y), (lambda D, out, x, y: y, lambda D, out, x, y: x),
    "vectors", "inner product of two vectors of the same length", vjp=_dot_vjp,
    domain_text="two vectors of equal length")
_add(Op("matmul", 2, lambda B, x, y: B.matmul(x, y),
        # As linear maps: d(x @ y)/dx applies y, d(x @ y)/dy applies x (the vjp transposes).
        (lambda D, out, x, y: y, lambda D, out, x, y: x),
        "vectors", "matrix product, with NumPy's matmul rules (vectors, matrices, stacks)",
        vjp=_matmul_vjp, domain_text="inner sizes equal", symbol="@", prec=PRODUCT,
        latex=r"\mathbin{@}"))


def _stack_vjp(B, g, out, *xs):
    # Element i of the literal receives slice i of the upstream gradient.
    return tuple(g[i] for i in range(len(xs)))


# The node a vector literal `[a, b]` with variable elements becomes (hidden from listings).
_add(Op("stack", (1, None), lambda B, *xs: B.stack(xs), lambda D, i, out, args, cache: 1,
        "vectors", "vector or matrix literal [a, b, ...]", vjp=_stack_vjp,
        symbol="[]", extra={"hidden": True}))
