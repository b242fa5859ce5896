"""Grading a surface's normal line (`check "x^2 + y^2 + z^2 = 14" --at x=1,y=2,z=3 --normal ...`).

The answer is read in any form a book prints, exactly (SymPy):

- parametric, as a vector: `(x, y, z) = (1, 2, 3) + t(2, 4, 6)`, `<1, 2, 3> + t<2, 4, 6>`;
- parametric, by coordinate: `x = 1 + 2t, y = 2 + 4t, z = 3 + 6t`;
- symmetric: `(x - 1)/2 = (y - 2)/4 = (z - 3)/6`, `x = 1, (y - 2)/4 = (z - 3)/6`;
- the direction alone: `(2, 4, 6)`, `<1, 2, 3>`.

Every form becomes a point P0 and a direction D (the equations are solved as
a linear system, whose solutions must be a line). It is right when D is a
non-zero multiple of the normal direction and P0 − P is one too (the line
passes through the point). Named: `direction-sign` (one component's sign
flipped, as (f_x, f_y, 1) for z = f(x, y)), `normal-direction`, `normal-point`
(a point not on the line), `not-a-line` (a plane, a point or nothing).
"""
from __future__ import annotations

import sympy as S

from ...errors import UsageError
from ..exactinput import read_sympy
from ..implicit import top_equals
from ..surface import surface
from .shared import Graded
from .verdict import Answer

EXAMPLE = '--normal "(x, y, z) = (1, 2, 3) + t(2, 4, 6)"'


def vector_groups(text: str) -> list:
    """[(start, end, [component texts])] of each top-level bracket holding a comma."""
    out, depth, start = [], 0, None
    for i, ch in enumerate(text):
        if ch in "([":
            if depth == 0:
                start = i
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth < 0:
                raise UsageError("a closing bracket without its opening one", source=text)
            if depth == 0:
                from ...inputs import split_top_level
                parts = split_top_level(text[start + 1:i])
                if len(parts) > 1:
                    out.append((start, i + 1, parts))
    if depth != 0:
        raise UsageError("an opening bracket is not closed", source=text)
    return out


def _components(text: str, size: int, what: str) -> list:
    """'(1, 2, 5) + t(2, 4, -1)' -> ['(1) + t(2)', '(2) + t(4)', '(5) + t(-1)']."""
    groups = vector_groups(text)
    for _, _, parts in groups:
        if len(parts) != size:
            raise UsageError(f"{what}: a vector here has {size} components, this one "
                             f"{len(parts)}", source=text, hint=f"for example {EXAMPLE}")
    out = []
    for k in range(size):
        pieces, last = [], 0
        for start, end, parts in groups:
            pieces += [text[last:start], f"({parts[k]})"]
            last = end
        pieces.append(text[last:])
        out.append("".join(pieces))
    return out


def _normalised(text: str) -> str:
    return text.replace("⟨", "(").replace("⟩", ")").replace("<", "(").replace(">", ")")


def _bare_coordinates(text: str, names: list) -> str:
    """'(x(t), y(t), z(t)) = ...' and 'x(t) = t, ...' -> the coordinates' bare names.

    Online homework systems print the coordinates as functions of the parameter; read as
    written, x(t) would be the product x*t. One parameter letter, not a coordinate, only."""
    import re
    pattern = re.compile(r"\b(%s)\(\s*([A-Za-z])\s*\)" % "|".join(map(re.escape, names)))
    params = {m.group(2) for m in pattern.finditer(text)}
    if len(params) != 1 or params <= set(names):
        return text
    return pattern.sub(lambda m: m.group(1), text)


def read_line(answer: str, names: list):
    """(P0 or None for a direction alone, D) of the answer, or a str saying why it is not a
    line."""
    text = _bare_coordinates(_normalised(answer.strip()), names)
    equals = top_equals(text)
    if not equals:
        return _vector_expression(text, names)
    left = text[:equals[0]].strip()
    groups = vector_groups(left)
    if len(equals) == 1 and (len(groups) == 1 and groups[0][0] == 0
                             and groups[0][1] == len(left)):
        given = [p.strip() for p in groups[0][2]]
        if given != names:
            raise UsageError(f"the left-hand side {left} should be ({', '.join(names)})",
                             source=answer, hint=f"for example {EXAMPLE}")
        return _vector_expression(text[equals[0] + 1:], names)
    if len(equals) == 1 and left.replace(" ", "") in ("r", "r(t)", "r(s)", "l(t)", "L(t)"):
        return _vector_expression(text[equals[0] + 1:], names)
    return _system(text, names, answer)


def _vector_expression(text: str, names: list):
    coords = [read_sympy(c)[0] for c in _components(text, len(names), "the normal line")]
    free = set().union(*[c.free_symbols for c in coords])
    if not free:
        if len(vector_groups(text)) != 1:
            raise UsageError("a direction alone is one vector, as (2, 4, 6)", source=text)
        return None, coords
    if len(free) > 1 or str(next(iter(free))) in names:
        raise UsageError(f"the line's parameter is one letter other than {', '.join(names)}; "
                         f"this answer has {', '.join(sorted(map(str, free)))}",
                         source=text, hint=f"for example {EXAMPLE}")
    t = next(iter(free))
    if any(S.diff(c, t, 2) != 0 for c in coords):
        return "it is not linear in its parameter, so it is not a line"
    return [c.xreplace({t: 0}) for c in coords], [S.diff(c, t) for c in coords]


def _system(text: str, names: list, answer: str):
    from ...inputs import split_top_level
    from ...symbolic.realforms import symbol
    equations, letters = [], set()
    for piece in split_top_level(text):
        marks = top_equals(piece)
        if not marks:
            raise UsageError(f"'{piece.strip()}' is not an equation", source=answer,
                             hint="symmetric equations: (x - 1)/2 = (y - 2)/4 = (z - 3)/6")
        cuts = [-1] + marks + [len(piece)]
        sides = [read_sympy(piece[a + 1:b])[0] for a, b in zip(cuts, cuts[1:])]
        equations += [sides[k] - sides[k + 1] for k in range(len(sides) - 1)]
        for side in sides:
            letters |= {str(s) for s in side.free_symbols}
    params = sorted(letters - set(names))
    if len(params) > 1:
        raise UsageError(f"the answer has letters {', '.join(params)} besides "
                         f"{', '.join(names)}: a line has one parameter", source=answer)
    unknowns = [symbol(n) for n in names] + [symbol(p) for p in params]
    for eq in equations:
        poly = S.Poly(eq, *unknowns) if eq.free_symbols else None
        if poly is not None and poly.total_degree() > 1:
            return "its equations are not linear, so they are not a line"
    solutions = S.linsolve(equations, unknowns)
    if solutions == S.EmptySet:
        return "its equations have no common solution"
    (sol,) = tuple(solutions)
    free = set().union(*[c.free_symbols for c in sol]) & set(unknowns)
    if len(free) != 1:
        return ("its equations describe a single point" if not free else
                "its equations describe a plane, not a line (the tangent plane?)")
    u = next(iter(free))
    coords = list(sol[:len(names)])
    return [c.xreplace({u: 0}) for c in coords], [S.diff(c, u) for c in coords]


def _parallel(a, b) -> bool:
    """a is a non-zero multiple of b (b non-zero)."""
    if all(S.simplify(v) == 0 for v in a):
        return False
    n = len(a)
    return all(S.simplify(a[i] * b[j] - a[j] * b[i]) == 0
               for i in range(n) for j in range(i + 1, n))


def surface_of(question, given):
    """The surface task's result at the question's point, read exactly."""
    at = given.get("exact_at") or {k: _exact(v) for k, v in question.at.items()}
    return surface(question.text, at)


def prepare(question, given, context):
    s = surface_of(question, given)
    answer = given["normal"]
    return s, answer, read_line(answer, s.names)


def grade(question, prepared, context) -> Graded:
    s, answer, line = prepared
    a = Answer("normal", "normal", answer.strip(), key="normal line", expected=s.parametric)
    a.correct = f"{s.parametric}, or {s.symmetric}"
    n, p = s.direction, s.point
    if isinstance(line, str):
        a.mistake, a.reason = "not-a-line", f"your answer is not a line: {line}"
        return Graded([a], list(s.warnings))
    p0, d = line
    problems = []
    if not _parallel(d, n):
        flipped = [j for j in range(len(n)) if n[j] != 0 and
                   _parallel(d, [(-v if k == j else v) for k, v in enumerate(n)])]
        if flipped:
            a.mistake = "direction-sign"
            a.mistake_detail = s.names[flipped[0]]
            if s.kind == "graph" and flipped[0] == len(n) - 1:
                problems.append("the direction's last component has the wrong sign: the normal "
                                f"to {s.names[-1]} = f(x, y) is (f_x, f_y, -1) (or any "
                                "multiple), from ∇(f - z)")
            else:
                problems.append(f"the {s.names[flipped[0]]} component of the direction has "
                                "the wrong sign")
        else:
            a.mistake = "normal-direction"
            problems.append("the direction is not a multiple of "
                            + ("∇F" if s.kind == "level" else "(f_x, f_y, -1)") + " = ("
                            + ", ".join(_book(v) for v in n) + ")")
    # The point is on the student's line: P - P0 is 0 or along the student's direction.
    if p0 is not None and not _parallel([y - x for x, y in zip(p0, p)], d) \
            and not all(S.simplify(x - y) == 0 for x, y in zip(p0, p)):
        a.mistake = a.mistake or "normal-point"
        problems.append("the point (" + ", ".join(_book(v) for v in p) + ") is not on your "
                        "line")
    a.ok = not problems
    if a.ok and p0 is None:
        a.note = "a direction alone: right (the line's point is the point given)"
    a.reason = "; ".join(problems)
    return Graded([a], list(s.warnings))


def _book(v) -> str:
    from ...closedtext import closed_text
    return closed_text(v)


def _exact(v):
    """A point typed as 1, 0.5 or pi/2 and read as a double, back as the exact number."""
    import math
    if isinstance(v, S.Basic):
        return v
    guess = S.nsimplify(v, [S.pi], rational=False, tolerance=1e-15)
    if abs(float(guess) - float(v)) > 4 * math.ulp(float(v)):
        return S.nsimplify(v, rational=True)
    return guess
