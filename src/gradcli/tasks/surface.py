"""A surface's tangent plane and normal line at a point, exact: the book's §14.6 answers.

Two kinds of surface:

- a level surface F(x, y, z) = k, typed as an equation (`x^2 + y^2 + z^2 = 14`):
  the normal is ∇F at the point, the plane ∇F · (X − P) = 0, printed as
  `2(x - 1) + 4(y - 2) + 6(z - 3) = 0` and expanded `x + 2y + 3z = 14` (whole
  coefficients divided by their common factor, as books do);
- a graph z = f(x, y), typed as f (`4 - x^2 - y^2`): the normal direction
  (f_x, f_y, -1), the plane `z = f(a, b) + f_x (x - a) + f_y (y - b)`.

The normal line is given by its point and direction, as parametric equations
`(x, y, z) = (1, 2, 3) + t(2, 4, 6)` and symmetric ones
`(x - 1)/2 = (y - 2)/4 = (z - 3)/6`, a zero component written as books do
(`x = 1, (y - 2)/4 = (z - 3)/6`). A point off the surface is refused. Nothing here
prints. Imports SymPy.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import sympy as S

from ..errors import DomainError, UsageError
from .exactinput import read_sympy
from .implicit import split_equation
from .surfaceinput import is_level_surface


@dataclass
class Surface:
    """The tangent plane and normal line of a surface at a point, every number exact."""

    expression: str
    read_as: str
    kind: str                    # "level" (F = k) or "graph" (z = f(x, y))
    names: list                  # the three coordinates, in order
    point: list                  # exact coordinates of P
    direction: list              # the normal direction: ∇F, or (f_x, f_y, -1)
    plane: str                   # 2(x - 1) + 4(y - 2) + 6(z - 3) = 0
    plane_expanded: str          # x + 2y + 3z = 14
    parameter: str = "t"
    warnings: list = field(default_factory=list)

    @property
    def parametric(self) -> str:
        return parametric_text(self.names, self.point, self.direction, self.parameter)

    @property
    def symmetric(self) -> str:
        return symmetric_text(self.names, self.point, self.direction)


def _order(variables) -> list:
    """x, y, z in the book's order where those are the letters, else as they appear."""
    for letters in (("x", "y", "z"), ("x", "y")):
        if sorted(variables) == sorted(letters):
            return list(letters)
    return list(variables)


def _book(v) -> str:
    from ..closedtext import closed_text
    return closed_text(v)


def _tuple(values) -> str:
    return "(" + ", ".join(_book(v) for v in values) + ")"


def parametric_text(names, point, direction, parameter="t") -> str:
    """(x, y, z) = (1, 2, 3) + t(2, 4, 6)."""
    return f"({', '.join(names)}) = {_tuple(point)} + {parameter}{_tuple(direction)}"


def symmetric_text(names, point, direction) -> str:
    """(x - 1)/2 = (y - 2)/4 = (z - 3)/6; a zero component as its own equation x = 1."""
    from ..closedtext import shift_text
    fixed, ratios = [], []
    for name, p, d in zip(names, point, direction):
        if d == 0:
            fixed.append(f"{name} = {_book(p)}")
            continue
        shift = shift_text(name, p)
        if d == 1:
            ratios.append(shift)
            continue
        top = f"({shift})" if shift != name else name
        shown = _book(d)
        if not (shown.lstrip("-").isalnum() and not shown.startswith("-")):
            shown = f"({shown})"
        ratios.append(f"{top}/{shown}")
    parts = fixed + ([" = ".join(ratios)] if len(ratios) > 1 else [])
    if len(ratios) == 1:  # a line parallel to an axis: the other two fixed
        return ", ".join(fixed)
    return ", ".join(parts)


def _level_plane(names, point, normal) -> tuple[str, str]:
    from ..closedtext import shift_text, sum_text
    lhs = sum_text([(n, f"({shift_text(v, p)})" if p != 0 else v)
                    for v, p, n in zip(names, point, normal)])
    scaled = list(normal)
    if all(n.is_rational for n in normal):
        # whole numbers with no common factor, the first non-zero positive
        den = S.ilcm(*[S.Rational(n).q for n in normal])
        ints = [int(n * den) for n in normal]
        g = math.gcd(*ints) or 1
        sign = -1 if next(i for i in ints if i) < 0 else 1
        scaled = [S.Integer(sign * i // g) for i in ints]
    rhs = S.nsimplify(sum(n * p for n, p in zip(scaled, point)))
    expanded = sum_text([(n, v) for v, n in zip(names, scaled)])
    return f"{lhs} = 0", f"{expanded} = {_book(S.radsimp(rhs))}"


def _parameter(names) -> str:
    return next(p for p in ("t", "s", "u", "r") if p not in names)


def surface(text: str, at: dict) -> Surface:
    """The tangent plane and normal line of the surface `text` at the exact point `at`."""
    from ..language.printer import read_as
    from ..symbolic.realforms import as_real, symbol
    if is_level_surface(text, at):
        left, right = split_equation(text)
        lhs, lvars, program = read_sympy(left)
        rhs, rvars, _ = read_sympy(right)
        variables = list(dict.fromkeys(lvars + rvars))
        if len(variables) < 3 and len(at) == 3 and set(variables) <= set(at):
            variables += [v for v in at if v not in variables]  # a cylinder: 2z - x^2 = 0
        variables = _order(variables)
        if len(variables) != 3:
            raise UsageError(f"a level surface F(x, y, z) = k has three variables; this "
                             f"equation has {len(variables)} ({', '.join(variables)})",
                             source=text,
                             hint="for a curve F(x, y) = G, ask implicit for dy/dx")
        F = as_real(lhs - rhs)
        point = _point(variables, at, text)
        subs = {symbol(v): p for v, p in zip(variables, point)}
        off = S.simplify(F.xreplace(subs))
        if off != 0:
            raise UsageError(f"the point ({', '.join(_book(p) for p in point)}) is not on the "
                             f"surface: there {left.strip()} = "
                             f"{_book(S.simplify(as_real(lhs).xreplace(subs)))}, not "
                             f"{_book(S.simplify(as_real(rhs).xreplace(subs)))}",
                             source=text, hint="give a point of the surface with --at")
        normal = [S.radsimp(S.simplify(S.diff(F, symbol(v)).xreplace(subs)))
                  for v in variables]
        _finite(normal, variables)
        if all(n == 0 for n in normal):
            raise DomainError("∇F is 0 at the point: the surface has no tangent plane there "
                              "(a singular point, as the tip of a cone)")
        plane, expanded = _level_plane(variables, point, normal)
        return Surface(text, f"{read_as(program)} = {right.strip()}", "level", variables,
                       point, normal, plane, expanded, _parameter(variables),
                       warnings=list(program.warnings))
    f, found, program = read_sympy(text)
    variables = _order(found)
    if len(variables) != 2:
        raise UsageError(f"a surface z = f(x, y) has two variables; this one has "
                         f"{len(variables)}", source=text)
    dep = next(z for z in ("z", "w", "u") if z not in variables)
    point = _point(variables, at, text)
    subs = {symbol(v): p for v, p in zip(variables, point)}
    fa = S.radsimp(S.simplify(as_real(f).xreplace(subs)))
    grads = [S.radsimp(S.simplify(S.diff(as_real(f), symbol(v)).xreplace(subs)))
             for v in variables]
    _finite([fa] + grads, variables)
    from .tangent import equation_text, expanded_text
    g = dict(zip(variables, grads))
    p = dict(zip(variables, point))
    names = variables + [dep]
    return Surface(text, read_as(program), "graph", names, point + [fa], grads + [S.Integer(-1)],
                   equation_text(dep, fa, g, p), expanded_text(dep, fa, g, p),
                   _parameter(names), warnings=list(program.warnings))


def _finite(values, variables):
    if not all(v.is_real and v.is_finite for v in values):
        raise DomainError("a partial derivative is undefined at the point: the surface has "
                          "no tangent plane there")


def _point(variables, at, text) -> list:
    missing = [v for v in variables if v not in at]
    extra = [v for v in at if v not in variables]
    if missing or extra:
        raise UsageError("--at gives the point's coordinates: " + ", ".join(
            f"{v}=…" for v in variables) + (f" (not {', '.join(extra)})" if extra else ""),
            source=text, hint="for example --at " + ",".join(f"{v}=1" for v in variables))
    return [S.sympify(at[v]) for v in variables]
