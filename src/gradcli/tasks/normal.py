"""The normal line of y = f(x) at a point: through (a, f(a)), perpendicular to the tangent.

Its slope is -1/f'(a). Where f'(a) = 0 the tangent is horizontal and the
normal vertical, `x = a`; where the tangent is vertical (f continuous at a,
|f'| → ∞ on both sides, as for the real cube root at 0) the normal is
horizontal, `y = f(a)`. It is written in the function's own variable
(`y = 2t - π`), exact with --exact as the tangent is. Surfaces are refused
here: their normal line is a parametric line, another command's answer.
Nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import DomainError, UsageError
from .tangent import Tangent, equation_text, expanded_text


@dataclass
class Normal:
    """The normal line of a graph y = f(x) at x = a, beside its tangent."""

    expression: str
    read_as: str
    x: str
    lhs: str                      # "y" (or "f" when the variable itself is y)
    a: object
    value: object                 # f(a)
    slope: object                 # f'(a); None where the tangent is vertical
    kind: str                     # "slope", "vertical" (x = a) or "horizontal" (y = f(a))
    equation: str                 # y = 4 - (x - 2)/4
    expanded: str                 # y = -x/4 + 9/2
    tangent: Tangent | None = None
    warnings: list = field(default_factory=list)

    @property
    def normal_slope(self):
        """-1/f'(a), or None for a vertical normal."""
        if self.kind == "vertical":
            return None
        if self.kind == "horizontal":
            return 0
        return -1 / self.slope


def _number_text(v) -> str:
    from ..numbers import format_number, is_closed
    if is_closed(v):
        from ..closedtext import closed_text
        return closed_text(v)
    return format_number(v)


def normal(text: str, at: dict, *, exact=False, evaluate=None) -> Normal:
    """The normal line of the one-variable function `text` at `at`."""
    from .tangent import tangent
    from ..reading import read_program
    from ..inputs import inputs_of
    variables = inputs_of(read_program(text, at))
    if len(variables) != 1:
        raise UsageError(f"--normal is the normal line of a graph y = f(x), a function of one "
                         f"variable; this one has {len(variables)} "
                         f"({', '.join(variables) or 'none'})",
                         hint="for a surface z = f(x, y), ask for its tangent plane without "
                              "--normal")
    try:
        t = tangent(text, at, exact=exact, evaluate=evaluate)
    except DomainError:
        if _one_sided(text, variables[0], at) == "vertical":
            return _vertical_tangent(text, variables[0], at, exact)
        raise
    if t.warnings and _has_kinks(read_program(text, at)):
        # At a kink the engine warns and takes one side's slope (|x| at 0 gives 0):
        # decided exactly there, and only there (SymPy costs start-up).
        if _one_sided(text, variables[0], at) == "vertical":
            return _vertical_tangent(text, variables[0], at, exact)
    (x,) = t.at
    a, m = t.at[x], t.gradient[x]
    if not exact and m != 0 and abs(float(m)) < 1e-9 and _exactly_zero(text, x, a, evaluate):
        m = 0  # sin x at 3π/2: the double of f' is -1.8e-16, the slope itself 0
    if m == 0:
        kind, eq = "vertical", f"{x} = {_number_text(a)}"
        ex = eq
    else:
        kind = "slope"
        n = -1 / m
        eq = _unwrapped(equation_text(t.lhs, t.value, {x: n}, t.at))
        ex = _unwrapped(expanded_text(t.lhs, t.value, {x: n}, t.at))
    return Normal(text, t.read_as, x, t.lhs, a, t.value, m, kind, eq, ex, t,
                  warnings=list(t.warnings))


def _exactly_zero(text, x, a, evaluate) -> bool:
    """Whether f'(a) is exactly 0 at the closed form the double a stands for (3π/2)."""
    import math
    import sympy as S
    from ..errors import GradcliError
    guess = S.nsimplify(a, [S.pi], rational=False, tolerance=1e-15)
    if abs(float(guess) - float(a)) > 4 * math.ulp(float(a)):
        return False
    try:
        return evaluate(text, {x: guess}, exact="closed").gradient[x] == 0
    except (GradcliError, TypeError, ValueError):
        return False


def _has_kinks(program) -> bool:
    """Whether an op with a kink convention in the op table (a corner, a jump, an infinite
    slope) is in the expression."""
    from ..language.expr import Apply, postorder
    from ..ops import TABLE
    from ..symbolic.derivative import inline
    root, _ = inline(program)
    for node in postorder(root):
        if isinstance(node, Apply) and TABLE[node.op].kinks:
            if node.op != "pow" or not _integer_power(node.args[1]):
                return True
    return False


def _integer_power(node) -> bool:
    from ..language.expr import Num
    return isinstance(node, Num) and float(node.value).is_integer()


def _unwrapped(equation: str) -> str:
    """'y = (t - π)' -> 'y = t - π': a bracket around the whole right-hand side."""
    lhs, _, rhs = equation.partition(" = ")
    if rhs.startswith("(") and rhs.endswith(")"):
        depth = 0
        for i, ch in enumerate(rhs):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and i < len(rhs) - 1:
                return equation
        return f"{lhs} = {rhs[1:-1]}"
    return equation


def _exact_point(value):
    import sympy as S
    return value if hasattr(value, "free_symbols") else S.nsimplify(value, rational=True)


def _one_sided(text, x, at) -> str:
    """'smooth' where f' has one finite limit at a, 'vertical' where |f'| → ∞ on both sides
    of a continuous f; a corner or a jump has no tangent line, so no normal: DomainError."""
    import sympy as S
    from ..symbolic.realforms import piece
    from .exactinput import read_sympy
    f = read_sympy(text)[0]
    X = S.Symbol(x, real=True)
    a = _exact_point(at[x])
    fa = f.subs(X, a)
    sides = []
    for direction, step in (("-", -1), ("+", 1)):
        inside = a + step * S.Rational(1, 10 ** 9)
        if not f.subs(X, inside).evalf(30).is_real:
            continue  # the edge of the domain: one side only, as sqrt(x) at 0
        near = piece(f, X, inside)
        if not (fa.is_finite and fa.is_real) or S.limit(near, X, a, direction) != fa:
            sides.append(None)
            continue
        sides.append(S.limit(S.diff(near, X), X, a, direction))
    if sides and all(s in (S.oo, -S.oo) for s in sides):
        return "vertical"
    if sides and all(s is not None and s.is_finite for s in sides) and len(set(sides)) == 1:
        return "smooth"
    raise DomainError(f"f is not differentiable at {x} = {_number_text(at[x])} (a corner or a "
                      "jump), so it has no tangent line there and no normal line",
                      hint="the one-sided slopes differ: "
                           + ", ".join(str(s) for s in sides))


def _vertical_tangent(text, x, at, exact) -> Normal:
    """f continuous at a with |f'| → ∞ from both sides: the normal is y = f(a)."""
    import sympy as S
    from .exactinput import read_sympy
    f, _, program = read_sympy(text)
    fa = f.subs(S.Symbol(x, real=True), _exact_point(at[x]))
    from ..language.printer import read_as
    value = fa if exact else float(fa)
    lhs = "f" if x == "y" else "y"
    eq = f"{lhs} = {_number_text(value)}"
    return Normal(text, read_as(program), x, lhs, at[x], value, None, "horizontal", eq, eq,
                  warnings=[f"the tangent at {x} = {_number_text(at[x])} is vertical, "
                            f"{x} = {_number_text(at[x])}: the normal is horizontal"])
