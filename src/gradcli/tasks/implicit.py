"""Implicit differentiation: dy/dx of a curve F(x, y) = G(x, y), as -F_x/F_y.

The equation is split at its one top-level '=' into F - G, both sides read by
the language's own rules; the derivative is built from the symbolic partials,
simplified and printed as `diff` prints, and evaluated at a point when one is
given (where F_y is 0 there is no dy/dx: a vertical tangent or a singular
point). With order 2, d²y/dx² in x and y (SymPy), simplified with the curve's
own equation as a book does. Nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..autodiff.lower import lower
from ..errors import DomainError, ParseError, UsageError
from ..language.expr import Apply, Num, Program, Statement, inputs_of
from ..reading import read_program
from ..language.printer import read_as, to_text
from ..symbolic.derivative import derivative, inline
from ..symbolic.simplify import Simplifier


@dataclass
class Implicit:
    """dy/dx of an implicit curve, as a formula and (at a point) a number."""

    equation: str
    read_as: str
    x: str
    y: str
    formula: str          # "-x/y"
    fx: str
    fy: str
    at: dict | None = None
    value: object = None
    warnings: list = field(default_factory=list)


def top_equals(text: str) -> list[int]:
    """Where '=' stands outside brackets (a function's head f(x) = … is outside too)."""
    depth, found = 0, []
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "=" and depth == 0:
            found.append(i)
    return found


def split_equation(text: str) -> tuple[str, str]:
    """'x^2 + y^2 = 25' -> ('x^2 + y^2', '25'); exactly one '=' outside brackets."""
    found = top_equals(text)
    if not found:
        raise ParseError("an implicit equation needs '=' between its two sides", source=text,
                         span=(len(text), len(text)),
                         hint='for example: gradcli implicit "x^2 + y^2 = 25" --wrt x')
    if len(found) > 1:
        raise ParseError("an implicit equation has one '=' only", source=text,
                         span=(found[1], found[1] + 1),
                         hint="write the curve as one equation, F(x, y) = G(x, y)")
    i = found[0]
    left, right = text[:i], text[i + 1:]
    if not left.strip() or not right.strip():
        raise ParseError("a side of the equation is empty", source=text, span=(i, i + 1),
                         hint="write both sides, as in x^2 + y^2 = 25")
    return left, right


def implicit(text: str, x: str | None, y: str | None = None,
             at: dict | None = None) -> Implicit:
    """dy/dx for the curve `text` ('F = G'), x the independent variable, y the other one.

    Without x, an equation in x and one other variable is read as books do: x is
    the independent variable.
    """
    left, right = split_equation(text)
    names = ({x} if x else set()) | ({y} if y else set()) | set(at or ())
    # Each side is read on its own, so that an error points into the user's text.
    sides = []
    for part, offset in ((left, 0), (right, len(left) + 1)):
        try:
            sides.append(read_program(part, names))
        except ParseError as exc:
            if exc.span is not None:
                exc.span = (exc.span[0] + offset, exc.span[1] + offset)
            exc.source = text
            raise
    warnings = sides[0].warnings + [w for w in sides[1].warnings if w not in sides[0].warnings]
    for side in sides:
        if len(side.statements) != 1 or side.statements[0].name is not None:
            raise UsageError("each side of an implicit equation is one expression")
    f = Apply("sub", (sides[0].result, sides[1].result))
    program = Program((Statement(None, f),), text)
    root, _ = inline(program)
    variables = inputs_of(program)
    if x is None:
        if "x" in variables and len([v for v in variables if v != (y or "")]) <= 2 \
                and len(variables) == 2:
            x = "x"
        else:
            raise UsageError("which variable is the independent one? the equation's "
                             f"variables are {', '.join(variables) or 'none'}",
                             hint=f"name it with --wrt, e.g. --wrt {variables[0] if variables else 'x'}")
    if x not in variables:
        raise UsageError(f"--wrt: the equation has no variable '{x}'",
                         hint=f"its variables are: {', '.join(variables) or 'none'}")
    if y is None:
        others = [v for v in variables if v != x]
        if len(others) != 1:
            raise UsageError(f"which variable depends on {x}? the equation has "
                             f"{len(others)} other variables ({', '.join(others) or 'none'})",
                             hint="name it with --of, e.g. --of y")
        y = others[0]
    elif y not in variables:
        raise UsageError(f"--of: the equation has no variable '{y}'",
                         hint=f"its variables are: {', '.join(variables)}")
    simp = Simplifier()
    fx, fy = simp.simplify([derivative(root, x), derivative(root, y)])
    if isinstance(fy, Num) and fy.value == 0:
        raise UsageError(f"the equation does not depend on {y}, so it does not define "
                         f"{y} as a function of {x}")
    (dydx,) = simp.simplify([Apply("neg", (Apply("div", (fx, fy)),))])
    result = Implicit(text, f"{read_as(sides[0])} = {read_as(sides[1])}", x, y,
                      to_text(dydx, textbook=True), to_text(fx, textbook=True),
                      to_text(fy, textbook=True), warnings=list(warnings))
    if at is not None:
        missing = [v for v in variables if v not in at]
        if missing:
            raise UsageError(f"no value for {', '.join(missing)}",
                             hint="add --at " + ",".join(f"{v}=…" for v in missing))
        point = {v: at[v] for v in variables}
        value_f = lower(program, point, wrt=set()).output.data
        if abs(float(value_f)) > 1e-9 * max(1.0, *(abs(float(v)) for v in point.values())):
            result.warnings.append(f"the point is not on the curve: the two sides differ by "
                                   f"{float(value_f):.6g} there")
        fy_value = lower(Program((Statement(None, fy),), ""), point, wrt=set()).output.data
        if fy_value == 0:
            raise DomainError(f"∂F/∂{y} = {result.fy} is 0 at the point, so dy/dx is undefined "
                              f"there (a vertical tangent or a singular point)")
        result.at = point
        result.value = lower(Program((Statement(None, dydx),), ""), point,
                             wrt=set()).output.data
    return result


@dataclass
class ImplicitSecond:
    """d²y/dx² of an implicit curve, simplified with the curve's equation where that helps."""

    first: Implicit
    formula: object                  # SymPy, in x and y
    raw: object                      # before the curve's equation was used
    used_curve: bool                 # the curve's equation shortened it (x² + y² -> 25)
    at: dict | None = None
    value: object = None             # exact where the point is
    warnings: list = field(default_factory=list)


def _sides_sympy(text: str, names):
    """F = left - right as SymPy, odd roots as SymPy's principal ones (the same algebra, no
    |.| to differentiate); realforms.as_real gives the real values back."""
    from .exactinput import read_sympy
    left, right = split_equation(text)
    return (read_sympy(left, names, real_roots=False)[0]
            - read_sympy(right, names, real_roots=False)[0])


def second_derivative_of(F, x, y):
    """(d²y/dx² for F(x, y) = 0 as SymPy, the same before using F = 0).

    y'' = -(F_xx F_y² - 2 F_xy F_x F_y + F_yy F_x²)/F_y³; where F is a polynomial,
    the numerator is reduced modulo F (x² + y² = 25 turns -(x² + y²)/y³ into
    -25/y³), and the shortest form is kept."""
    import sympy as S
    fx, fy = S.diff(F, x), S.diff(F, y)
    expr = -(S.diff(fx, x) * fy ** 2 - 2 * S.diff(fx, y) * fx * fy
             + S.diff(fy, y) * fx ** 2) / fy ** 3
    num, den = S.fraction(S.cancel(S.together(expr)))
    raw = S.factor(num) / S.factor(den)
    best = raw
    for shorter in _reduced_forms(F, expr, x, y):
        if S.count_ops(shorter) < S.count_ops(best):
            best = shorter
    return best, raw


def _reduced_forms(F, expr, x, y):
    """expr with its numerator reduced modulo F, for each order of the variables. Roots
    of x and y (√x + √y = 1, x^(2/3) + y^(2/3) = 1) become new letters first, x = u^2, so
    that F is a polynomial: 1/(2x^(3/2)) for the first."""
    import sympy as S
    from functools import reduce
    q = {v: reduce(S.ilcm, [p.exp.q for p in F.atoms(S.Pow) if p.base == v
                            and p.exp.is_Rational], 1) for v in (x, y)}
    if q[x] == q[y] == 1:  # no roots: F is used as it is
        u, v, back = x, y, {}

        def roots_out(e):
            return e
    else:
        u, v = S.Dummy("u", positive=True), S.Dummy("v", positive=True)
        into = {x: u ** q[x], y: v ** q[y]}
        back = {u: x ** S.Rational(1, q[x]), v: y ** S.Rational(1, q[y])}

        def roots_out(e):
            return S.powsimp(S.expand_power_base(e.subs(into), force=True), force=True)
    G = S.expand(roots_out(F))
    if not G.is_polynomial(u, v):
        return []
    num, den = S.fraction(S.cancel(S.together(roots_out(expr))))
    forms = []
    for gens in ((u, v), (v, u)):
        for order in ("lex", "grevlex"):
            _, rest = S.reduced(S.expand(num), [G], *gens, order=order)
            form = S.factor(rest) / S.factor(den)
            forms.append(S.powsimp(form.subs(back)) if back else form)
    return forms


def implicit_second(text: str, x: str | None, y: str | None = None,
                    at: dict | None = None) -> ImplicitSecond:
    """d²y/dx² of the curve `text`, and its exact value at `at` (numbers or SymPy)."""
    import sympy as S
    from ..symbolic.realforms import as_real, symbol
    first = implicit(text, x, y, None)
    X, Y = symbol(first.x), symbol(first.y)
    F = _sides_sympy(text, (first.x, first.y))
    extra = sorted(str(s) for s in F.free_symbols if s not in (X, Y))
    if extra:
        raise UsageError(f"d²{first.y}/d{first.x}² needs an equation in {first.x} and "
                         f"{first.y} alone; it also has {', '.join(extra)}")
    formula, raw = second_derivative_of(F, X, Y)
    out = ImplicitSecond(first, formula, raw, formula != raw,
                         warnings=list(first.warnings))
    if at is not None:
        missing = [v for v in (first.x, first.y) if v not in at]
        if missing:
            raise UsageError(f"no value for {', '.join(missing)}",
                             hint="add --at " + ",".join(f"{v}=…" for v in missing))
        point = {first.x: S.sympify(at[first.x]), first.y: S.sympify(at[first.y])}
        subs = {X: point[first.x], Y: point[first.y]}
        off = as_real(F).subs(subs)
        if abs(complex(off.evalf(30))) > 1e-12:
            out.warnings.append(f"the point is not on the curve: the two sides differ by "
                                f"{float(off.evalf()):.6g} there")
        if as_real(S.diff(F, Y)).subs(subs).evalf(30) == 0:
            raise DomainError(f"∂F/∂{first.y} = {first.fy} is 0 at the point, so "
                              f"d²{first.y}/d{first.x}² is undefined there (a vertical "
                              "tangent or a singular point)")
        # On the curve the reduced and the raw form agree; off it, only the raw one is
        # the derivative of anything, so the value comes from the raw form.
        out.at = point
        out.value = S.radsimp(S.cancel(as_real(raw).subs(subs)))
    return out
