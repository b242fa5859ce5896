"""The derivative-table mistakes of the textbooks' lists of common errors.

Lists of common calculus errors (Paul's Online Notes, OpenStax Calculus Vol. 1,
math-center handouts; docs/check.md names them) show the same slips again and
again: a table formula remembered wrongly (tan -> sec, arcsin -> 1/sqrt(1+x^2),
a^x -> a^x without ln a), a rule used where it does not belong (the power rule
on e^x, the power rule on a constant such as pi^2), a factor lost (the 1/2 of
sqrt), the inner derivative divided instead of multiplied or put inside the
function, an antiderivative given instead of the derivative.

`slips` rebuilds the question's derivative with one such slip at one node,
as diagnose.py does for the rules; diagnose keeps a slip only when it agrees
with the answer at every compared point (where the answer already differs
from the derivative). `proved` then settles it with SymPy: the answer minus
the slip's formula simplifies to 0. A slip that SymPy cannot prove is not named: a name is a promise.
SymPy is imported only there, on the path of a wrong answer.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterator

from ... import ops
from ...language.expr import BUILD, Apply, Const, Expr, Name, Num, as_expr, postorder
from ...language.printer import to_text
from ...symbolic.derivative import derivative, inline, node_derivatives
from ...symbolic.simplify import Simplifier

# The keys this module names, in the order they are offered.
KEYS = ("exp-power-rule", "exponential-ln-lost", "log-base-lost", "trig-square-lost",
        "inverse-trig-formula", "sqrt-half-lost", "exponent-raised", "reciprocal-rule",
        "chain-factor-divided", "derivative-inside", "constant-differentiated",
        "antiderivative")

# Inverse-trig formulas confused with one another: (op, wrong local derivative of u, its
# text, the right one's text).
_INVERSE_TRIG = (
    ("asin", lambda u: 1 / BUILD.sqrt(1 + u ** 2), "1/sqrt(1 + u^2)", "1/sqrt(1 - u^2)"),
    ("asin", lambda u: 1 / (1 + u ** 2), "1/(1 + u^2)", "1/sqrt(1 - u^2)"),
    ("acos", lambda u: -1 / BUILD.sqrt(1 + u ** 2), "-1/sqrt(1 + u^2)", "-1/sqrt(1 - u^2)"),
    ("acos", lambda u: -1 / (1 + u ** 2), "-1/(1 + u^2)", "-1/sqrt(1 - u^2)"),
    ("atan", lambda u: 1 / BUILD.sqrt(1 - u ** 2), "1/sqrt(1 - u^2)", "1/(1 + u^2)"),
    ("atan", lambda u: 1 / BUILD.sqrt(1 + u ** 2), "1/sqrt(1 + u^2)", "1/(1 + u^2)"),
    ("atan", lambda u: 1 / (1 - u ** 2), "1/(1 - u^2)", "1/(1 + u^2)"),
)


def _is_function(node: Apply) -> bool:
    """A function of one argument (sin, exp, ...), not an arithmetic operator."""
    return len(node.args) == 1 and node.op not in ("neg", "pos")


@dataclass
class Slip:
    """A mistaken derivative: its key, where, the formula, and the sentence for people."""

    key: str
    detail: str
    expr: Expr
    sentence: Callable[[], str]


def _text(node: Expr) -> str:
    return to_text(node)


def _shown(node: Expr) -> str:
    """A formula for display, simplified (d(2*x) shows as 2)."""
    try:
        return _text(Simplifier().simplify([node])[0])
    except Exception:  # noqa: BLE001 - display only: the raw formula is still right
        return _text(node)


def _local(node: Apply, i: int = 0) -> Expr:
    """The table's local derivative d node / d args[i], as a formula."""
    return as_expr(ops.TABLE[node.op].partial(BUILD, i, node, node.args))


def _constant(node: Expr, d: dict) -> bool:
    return d[id(node)] is None


def _is_num(e, value) -> bool:
    return isinstance(e, Num) and e.value == value


def _times(local: Expr, du: Expr) -> Expr:
    return local if _is_num(du, 1) else local * du


def _constant_value(e: Expr):
    """A numeric exponent as an exact number, or None."""
    if isinstance(e, Num):
        return e.value
    if isinstance(e, Apply) and e.op == "neg" and isinstance(e.args[0], Num):
        return -e.args[0].value
    if isinstance(e, Apply) and e.op == "div" and all(isinstance(a, Num) for a in e.args) \
            and e.args[1].value != 0:
        return Fraction(e.args[0].value) / Fraction(e.args[1].value)
    return None


def _e_to(u: Expr) -> str:
    """e^u as a book writes it (gradcli reads e^u as exp(u))."""
    return f"e^{_text(u)}" if isinstance(u, (Name, Num)) else f"e^({_text(u)})"


def _book(op: str) -> str:
    """asin as a book writes it: arcsin; log: ln."""
    if op == "log":
        return "ln"
    return "arc" + op[1:] if op.startswith("a") and op[1:] in ops.TABLE else op


def _reciprocal_powers(root, wrt, d, applies) -> Iterator[Slip]:
    """c/x^n read as c*x^(-n) and then the exponent raised: 1/x^2 -> -2*x^(-1).

    Offered before the slips inside x^n, whose exponent raised inside the quotient
    rule can give the same formula with a sentence about the wrong power."""
    for node in applies:
        if node.op != "div" or d[id(node.args[0])] is not None or d[id(node.args[1])] is None:
            continue
        v = node.args[1]
        base, power = (v.args[0], _constant_value(v.args[1])) \
            if isinstance(v, Apply) and v.op == "pow" else (v, 1)
        if power is None or d[id(base)] is None or (base is not v and d[id(v.args[1])]
                                                     is not None):
            continue
        yield Slip("exponent-raised", _text(node),
                   derivative(root, wrt, {id(node): lambda n, da, b=base, p=power: _times(
                       n.args[0] * -p * b ** (1 - p), d[id(b)])}),
                   lambda p=power: f"the exponent was raised, not lowered: x^(-n) has the "
                   f"derivative -n*x^(-n-1), so here the power is {_shown(Num(-p - 1))}, "
                   f"not {_shown(Num(1 - p))}")


def slips(root: Expr, wrt: str) -> Iterator[Slip]:
    """Mistaken derivatives of `root` by `wrt`, one slip at one node (see the module doc)."""
    nodes = list(postorder(root))
    d = node_derivatives(root, wrt)
    applies = [n for n in nodes if isinstance(n, Apply) and n.op in ops.TABLE]

    def at(node, rule):
        return derivative(root, wrt, {id(node): rule})

    yield from _reciprocal_powers(root, wrt, d, applies)

    for node in applies:
        op, args = node.op, node.args
        dargs = [d[id(a)] for a in args]
        u = args[0]
        du = dargs[0]
        if op == "exp" and du is not None:
            yield Slip("exp-power-rule", _text(node),
                       at(node, lambda n, da: _times(n.args[0] * BUILD.exp(n.args[0] - 1), da[0])),
                       lambda u=u: f"the power rule was used on {_e_to(u)}, whose "
                       f"exponent varies: d/dx e^u = e^u*u', not u*e^(u-1)")
        if op == "pow" and dargs[0] is None and dargs[1] is not None:
            base = args[0]
            yield Slip("exponential-ln-lost", _text(node),
                       at(node, lambda n, da: _times(n, da[1])),
                       lambda b=base, node=node: f"the factor ln({_text(b)}) is missing: "
                       f"d/dx a^u = a^u*ln(a)*u', so the derivative of {_text(node)} has "
                       f"ln({_text(b)}) in it")
        if op in ("log2", "log10") and du is not None or \
                op == "log" and len(args) == 2 and du is not None and dargs[1] is None:
            base = {"log2": "2", "log10": "10"}.get(op) or _text(args[1])
            yield Slip("log-base-lost", _text(node),
                       at(node, lambda n, da: _times(1 / n.args[0], da[0])),
                       lambda base=base: f"the factor 1/ln({base}) is missing: "
                       f"d/dx log_b(u) = u'/(u*ln(b)); only ln(u) has u'/u")
        if op in ("tan", "cot") and du is not None:
            wrong = (lambda n, da: _times(BUILD.sec(n.args[0]), da[0])) if op == "tan" \
                else (lambda n, da: _times(-BUILD.csc(n.args[0]), da[0]))
            square = "sec^2" if op == "tan" else "-csc^2"
            yield Slip("trig-square-lost", _text(node), at(node, wrong),
                       lambda op=op, square=square: f"the square is missing: d/dx {op}(u) = "
                       f"{square}(u)*u'")
        for inverse, make, wrong_text, right_text in _INVERSE_TRIG:
            if op != inverse or du is None:
                continue
            yield Slip("inverse-trig-formula", _text(node),
                       at(node, lambda n, da, make=make: _times(make(n.args[0]), da[0])),
                       lambda op=op, w=wrong_text, r=right_text: f"the wrong formula for "
                       f"{_book(op)}: d/du {_book(op)}(u) = {r}, not {w}")
        half = op == "pow" and dargs[1] is None and _constant_value(args[1]) == Fraction(1, 2)
        if (op == "sqrt" or half) and du is not None:
            yield Slip("sqrt-half-lost", _text(node),
                       at(node, lambda n, da: _times(1 / BUILD.sqrt(n.args[0]), da[0])),
                       lambda u=u: f"the factor 1/2 is missing: d/dx sqrt(u) = "
                       f"u'/(2*sqrt(u)), with u = {_text(u)}")
        if op == "pow" and du is not None and dargs[1] is None \
                and _constant_value(args[1]) is not None:
            yield Slip("exponent-raised", _text(node),
                       at(node, lambda n, da: _times(n.args[1] * n.args[0] ** (n.args[1] + 1),
                                                     da[0])),
                       lambda node=node, e=args[1]: f"the exponent was raised, not lowered: "
                       f"d/dx x^n = n*x^(n-1), so the power in the derivative of "
                       f"{_text(node)} is {_shown(e - 1)}, not {_shown(e + 1)}")
        if op == "div" and dargs[0] is None and dargs[1] is not None:
            v = args[1]
            yield Slip("reciprocal-rule", _text(node),
                       at(node, lambda n, da: n.args[0] / da[1]),
                       lambda v=v: f"the derivative of 1/v is not 1/v': (1/v)' = -v'/v^2, "
                       f"with v = {_text(v)}")
        inner = _is_function(node) or \
            op == "pow" and dargs[1] is None and dargs[0] is not None
        if inner and du is not None and not _is_num(du, 1) and not _is_num(du, -1):
            yield Slip("chain-factor-divided", _text(node),
                       at(node, lambda n, da: _local(n) / da[0]),
                       lambda u=u, du=du: f"the chain rule multiplies by the inner "
                       f"derivative {_shown(du)} (of {_text(u)}); it was divided by it")
            if not isinstance(du, Num):
                yield Slip("derivative-inside", _text(node),
                           at(node, lambda n, da: _local(Apply(n.op, (da[0],) + n.args[1:]))),
                           lambda u=u, du=du, node=node: f"the chain rule: the outer "
                           f"derivative is taken at {_text(u)} and multiplied by "
                           f"{_shown(du)}; here {_text(u)} inside was replaced by its "
                           f"derivative {_shown(du)}")
    yield from _constants_differentiated(root, wrt, d, applies)


def _pretend(node: Apply) -> Expr | None:
    """What a constant such as pi^2 or e^2 becomes when differentiated as if it varied."""
    if node.op == "pow" and isinstance(node.args[0], (Const, Num)):
        base, power = node.args
        return power * base ** (power - 1)
    if node.op == "exp" and isinstance(node.args[0], (Const, Num)):
        power = node.args[0]
        return power * Const("e") ** (power - 1)
    return None


def _constant_text(node: Apply) -> str:
    """e^2 as a book writes it (the parser reads e^2 as exp(2))."""
    if node.op == "exp" and isinstance(node.args[0], Num):
        return _e_to(node.args[0])
    return _text(node)


def _constants_differentiated(root, wrt, d, applies) -> Iterator[Slip]:
    """pi^2 -> 2*pi, e^2 -> 2*e: a constant term differentiated as if it were x^2."""
    def slip(node, wrong_expr, fake):
        return Slip("constant-differentiated", _text(node), wrong_expr,
                    lambda node=node, w=fake: f"{_constant_text(node)} is a constant, so its "
                    f"derivative is 0, not {_shown(w)}")

    for node in applies:
        if node.op not in ("add", "sub"):
            continue
        for i, arg in enumerate(node.args):
            if not isinstance(arg, Apply) or d[id(arg)] is not None \
                    or d[id(node.args[1 - i])] is None:
                continue
            fake = _pretend(arg)
            if fake is None:
                continue

            def rule(n, da, i=i, fake=fake):
                left = fake if i == 0 else da[0]
                right = fake if i == 1 else da[1]
                return getattr(BUILD, n.op)(left, right)
            yield slip(arg, derivative(root, wrt, {id(node): rule}), fake)


# ------------------------------------------------------------ the proof

def to_sympy(root: Expr, sp):
    """An expression as SymPy (real symbols), or None when an operator has no plain meaning."""
    done: dict = {}
    for node in postorder(root):
        if isinstance(node, Num):
            v = node.value
            value = sp.Rational(repr(v)) if isinstance(v, float) else sp.Rational(v)
        elif isinstance(node, Const):
            value = {"pi": sp.pi, "e": sp.E}.get(node.id)
        elif isinstance(node, Name):
            value = sp.Symbol(node.id, real=True)
        elif isinstance(node, Apply):
            a = [done[id(x)] for x in node.args]
            if any(x is None for x in a):
                return None
            op = node.op
            if op in ("add", "sub", "mul", "div", "pow"):
                x, y = a
                value = {"add": lambda: x + y, "sub": lambda: x - y, "mul": lambda: x * y,
                         "div": lambda: x / y, "pow": lambda: x ** y}[op]()
            elif op == "neg":
                value = -a[0]
            elif op == "pos":
                value = a[0]
            elif op == "log" and len(a) == 2:
                value = sp.log(a[0]) / sp.log(a[1])
            elif op in ("log2", "log10"):
                value = sp.log(a[0]) / sp.log(2 if op == "log2" else 10)
            elif op == "abs":
                value = sp.Abs(a[0])
            elif op == "sqrt":
                value = sp.sqrt(a[0])
            elif len(a) == 1 and op != "cbrt" and isinstance(getattr(sp, op, None),
                                                             sp.FunctionClass):
                # SymPy's function of the same name (sin, asinh, sec, ...); cbrt is
                # SymPy's principal root, not the real one
                value = getattr(sp, op)(a[0])
            else:
                return None
        else:
            return None
        if value is None:
            return None
        done[id(node)] = value
    return done[id(root)]


def _zero(difference, sp) -> bool:
    """Whether SymPy proves a difference identically 0 (the cheap ways first)."""
    if difference == 0 or sp.expand(difference) == 0:
        return True
    if sp.cancel(sp.together(sp.expand(difference))) == 0:
        return True
    return sp.simplify(difference) == 0


def proved(answer_program, mistaken: Expr) -> bool:
    """Whether the answer is, identically, the mistaken formula.

    That the answer is not the derivative is known already: the two differ at the
    points compared.
    """
    import sympy as sp
    answer_root, _ = inline(answer_program)
    yours, wrong = to_sympy(answer_root, sp), to_sympy(mistaken, sp)
    if yours is None or wrong is None:
        return False
    try:
        return _zero(yours - wrong, sp)
    except Exception:  # noqa: BLE001 - SymPy failing to decide proves nothing
        return False


def proved_antiderivative(answer_program, question_root: Expr, wrt: str) -> bool:
    """Whether the answer's own derivative is the question: an antiderivative given."""
    import sympy as sp
    answer_root, _ = inline(answer_program)
    yours, f = to_sympy(answer_root, sp), to_sympy(question_root, sp)
    symbol = sp.Symbol(wrt, real=True)
    if yours is None or f is None or not yours.has(symbol):
        return False
    try:
        return _zero(sp.diff(yours, symbol) - f, sp)
    except Exception:  # noqa: BLE001 - SymPy failing to decide proves nothing
        return False
