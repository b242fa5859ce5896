"""The homework checker for the homework commands' answers: a tangent line or plane, a
directional derivative, critical points and their kinds, a Taylor polynomial, dy/dx of
an implicit curve.

Each answer becomes a check.Answer in a check.Verdict, so that `check`'s writers,
exit codes and tally treat it as they treat a value or a derivative. The correct
answer is always the homework command's own result (tangent, directional,
critical_points, taylor, implicit): `check` never disagrees with what
`gradcli tangent` prints. Nothing here prints.

How each is judged, and the mistakes named (the JSON `mistake` key):

- a tangent is a formula: it must be the linearisation identically. Being linear,
  it is fixed by its value at the point and its slopes, read off the answer at
  the point and one step along each axis; at 8 more points (the same on every
  run) it must be a plane (else `not-linear`). Then: `not-centred` (the slopes
  multiply x, not x - a), `tangent-value`, `slopes-swapped`, `tangent-slope`.
- a directional derivative is a number, graded as `--value` is (the digits
  rule, else the tolerance); `not-normalised` when it is ∇f·v for the direction
  v as given, `steepest-rate` when it is |∇f|, `sign`.
- each listed critical point is right when it is one gradcli's search found
  (coordinates graded as numbers) or when ∇f vanishes there; its kind against
  the second-derivative test (`not-critical`, `classification`); the points of
  the search that the list misses are one more answer (`missed`). The search
  cannot prove that it found every point, and the verdict says so.
- a Taylor polynomial is compared coefficient by coefficient: its own
  coefficients come from the taylor task run on the answer (exact for a
  polynomial). Named: `not-polynomial`, `wrong-centre`, `wrong-order`,
  `factorial`, `sign`, `missing-term`, `beyond-order`, `coefficient`.
- dy/dx is compared as a formula in x and y with -F_x/F_y at random points; where
  the two differ there, again at points of the curve (an answer simplified with
  the curve's own equation is right on it). Named: `sign`, `reciprocal`,
  `missing-denominator`, `constant-factor`.
"""
from __future__ import annotations

import math
import random
import re
import zlib
from fractions import Fraction

from .autodiff.engine import graph_nodes
from .answer_probes import rounded_literals, rounding_slack
from .autodiff.lower import lower
from .check import (FORMULA_RTOL_FLOOR, Answer, Verdict, check, close,
                    grade_number, grade_numeric, number_or_why, parse_answer, tolerances)
from .critical import classify, critical_points, higher_order_kind, parse_box
from .errors import DomainError, GradcliError, ParseError, UsageError
from .evaluation import evaluate
from .implicit import implicit as implicit_of
from .implicit import split_equation, top_equals
from .inputs import constant_value, inputs_of, split_top_level
from .language.expr import Apply, Name, Num, Program, Statement, replace_leaves
from .language.printer import read_as, to_text
from .numbers import format_number
from .reading import given_names, parse
from .tangent import direction_vector
from .tangent import directional as directional_of
from .tangent import tangent as tangent_of
from .taylor import MAX_ORDER, Term, polynomial_text
from .taylor import taylor as taylor_of

OPTIONS = ("tangent", "directional", "critical", "taylor", "implicit")
PROBES = 8            # points besides the given one where a tangent must be a plane
IMPLICIT_SAMPLES = 16  # random points where dy/dx is compared
CURVE_POINTS = 8      # points of the curve, when the random ones disagree


def wanted(**answers) -> bool:
    """Whether any homework answer is among the keyword arguments given to check."""
    return any(answers.get(k) is not None for k in OPTIONS)


# ------------------------------------------------------------------ helpers

def _sides(text: str, what: str, example: str):
    """(left, right) of an answer `left = right`, or (None, text) without '='."""
    found = top_equals(text)
    if not found:
        return None, text
    if len(found) > 1:
        raise ParseError(f"the answer for {what} has more than one '='", source=text,
                         span=(found[1], found[1] + 1), hint=f"for example: {example}")
    i = found[0]
    left, right = text[:i].strip(), text[i + 1:].strip()
    if not left or not right:
        raise ParseError(f"a side of the answer for {what} is empty", source=text,
                         span=(i, i + 1), hint=f"for example: {example}")
    return left, right


_CALL = re.compile(r"^\s*[^\W\d]\w*\s*\(([^()]*)\)\s*$")


def _names_a_function_of(left: str, variables) -> bool:
    """'L(x, y)', 'f(x)', 'T_2(x)': a name applied to the question's variables."""
    m = _CALL.match(left)
    return bool(m) and [a.strip() for a in m.group(1).split(",")] == list(variables)


def _value(program: Program, point: dict):
    """(value, scale) of a formula at a point, scale the largest |node| (its rounding's size).

    DomainError where the formula is undefined there."""
    g = lower(program, point, wrt=set())
    data = g.output.data
    if getattr(data, "shape", ()) != ():
        raise UsageError("the answer is a vector or matrix; this answer is one number at "
                         "each point")
    scale = 0.0
    for node in graph_nodes(g.output):
        try:
            m = abs(float(node.data))
        except (TypeError, ValueError):
            continue
        if scale < m < math.inf:
            scale = m
    return float(data), scale


def _maybe(program, point):
    """_value, or None where undefined or not finite."""
    try:
        v, s = _value(program, point)
    except (DomainError, ArithmeticError):
        return None
    return (v, s) if math.isfinite(v) else None


def _near(a: float, b: float, rtol: float, atol: float, *scales) -> bool:
    """Equal within the tolerance relative to the magnitudes involved."""
    scale = max([abs(a), abs(b), *scales])
    return abs(a - b) <= atol + rtol * scale


def _num(x) -> str:
    if isinstance(x, float) and math.isfinite(x):
        return format_number(float(f"{x:.12g}"))
    return format_number(x)


def _short(x: float) -> str:
    """A number found by a search, as a person writes it: 6 digits, rounding noise as 0."""
    x = float(x)
    return _num(0.0 if abs(x) < 1e-9 else float(f"{x:.6g}"))


def _pt(names, values) -> str:
    return "(" + ", ".join(_short(v) for v in values) + ")" if len(names) > 1 \
        else _short(values[0])


def _shift(name: str, a: float) -> str:
    """'x - 2', 'x + 1' or 'x': the factor a Taylor or tangent term is written in."""
    if not a:
        return name
    return f"{name} {'-' if a > 0 else '+'} {_num(abs(float(a)))}"


def _where(point: dict) -> str:
    return ", ".join(f"{k} = {_num(float(v))}" for k, v in point.items())


def _rng(*parts) -> random.Random:
    return random.Random(zlib.crc32("\0".join(parts).encode()))


def _offset(rng) -> float:
    """A well-scaled step: both signs, |d| in 0.1..3 (as check's random points)."""
    return rng.choice((-1, 1)) * 10 ** rng.uniform(-1, math.log10(3))


def _scalar_point(at: dict, names, option: str) -> dict:
    point = {}
    for n in names:
        if n not in at:
            raise UsageError(f"{option} needs the point: no value for {n}",
                             hint="add --at " + ",".join(f"{v}=…" for v in names))
        v = at[n]
        if isinstance(v, bool) or not isinstance(v, (int, float, Fraction)):
            raise UsageError(f"{option} is checked at a point of numbers; '{n}' is not one")
        point[n] = float(v)
    return point


# ------------------------------------------------------------------ tangent

class _Plane:
    """The student's tangent as a function of the inputs: z = RHS, or solved from G = 0."""

    def __init__(self, explicit: Program | None, implicit: Program | None, dep: str,
                 literals=()):
        self.explicit, self.implicit, self.dep = explicit, implicit, dep
        self.literals = list(literals)  # its rounded decimals, for the digits rule

    def moved(self, program: Program) -> "_Plane":
        """The same kind of plane from another program (a rounded decimal moved)."""
        if self.explicit is not None:
            return _Plane(program, None, self.dep)
        return _Plane(None, program, self.dep)

    @property
    def program(self) -> Program:
        return self.explicit if self.explicit is not None else self.implicit

    def at(self, point):
        """(z, scale) at the point, or None where the answer is undefined."""
        if self.explicit is not None:
            return _maybe(self.explicit, point)
        g = [_maybe(self.implicit, {**point, self.dep: float(z)}) for z in (0, 1, 2)]
        if any(v is None for v in g):
            return None
        (g0, m0), (g1, m1), (g2, m2) = g
        scale = max(m0, m1, m2, abs(g0), abs(g1), abs(g2))
        if abs(g2 - 2 * g1 + g0) > 1e-9 * scale + 1e-12:
            raise UsageError(f"the answer for the tangent is not solved for {self.dep}, and "
                             f"{self.dep} appears in it other than linearly",
                             hint=f"write it as {self.dep} = ... (or give the right-hand "
                                  "side alone)")
        c = g1 - g0
        if c == 0:
            return None
        return -g0 / c, scale


def _prepare_tangent(answer: str, program, variables, dep: str) -> _Plane:
    what = "the tangent"
    example = f"{dep} = 3 + 4*(x - 1) + 2*(y - 1)" if len(variables) > 1 \
        else f"{dep} = 2 + 0.25*({variables[0] if variables else 'x'} - 4)"
    left, right = _sides(answer, what, example)
    if left is not None and (left == dep or _names_a_function_of(left, variables)):
        left = None
    if left is None:
        rhs = parse_answer(right, program, variables, what)
        if dep in inputs_of(rhs) and dep not in variables:
            raise UsageError(f"the answer for the tangent has {dep} on the right-hand side",
                             source=answer, hint=f"write it as {dep} = ... with {dep} on the left")
        return _Plane(rhs, None, dep, rounded_literals(rhs))
    allowed = list(variables) + ([dep] if dep not in variables else [])
    sides = [parse_answer(part, program, allowed, what) for part in (left, right)]
    if not any(dep in inputs_of(s) for s in sides):
        raise UsageError(f"the answer for the tangent is an equation without {dep}, the "
                         "graph's own coordinate", source=answer,
                         hint=f"write it as {dep} = ..., for example {example}")
    f = Apply("sub", (sides[0].result, sides[1].result))
    named = tuple(s for s in program.statements if s.name is not None)
    return _Plane(None, Program(named + (Statement(None, f),), answer), dep,
                  rounded_literals(sides[0]) + rounded_literals(sides[1]))


def _plane_quantities(plane, point, names) -> list:
    """The plane's height at the point and its slope along each input."""
    base = plane.at(point)
    if base is None:
        return [math.nan] * (1 + len(names))
    out = [base[0]]
    for n in names:
        step = plane.at({**point, n: point[n] + 1.0})
        out.append(math.nan if step is None else step[0] - base[0])
    return out


def _plane_slack(plane, point, names) -> list:
    """How far rounding the typed decimals may move the height and each slope."""
    if not plane.literals:
        return [0.0] * (1 + len(names))
    return rounding_slack(plane.program,
                          lambda p: _plane_quantities(plane.moved(p), point, names),
                          plane.literals)


def _grade_tangent(text, answer, plane, t, rtol, atol, digits_rule=False) -> Answer:
    names = list(t.at)
    a = Answer("tangent", "tangent", answer.strip(), key="tangent", expected=t.equation)
    a.correct = t.equation
    point = {n: float(v) for n, v in t.at.items()}
    fa = float(t.value)
    grad = [float(t.gradient[n]) for n in names]
    base = plane.at(point)
    where = _where(point)
    if base is None:
        a.reason = f"your answer is undefined at the point {where}, where f = {_num(fa)}"
        a.mistake = "tangent-value"
        return a
    z0, m0 = base
    slopes = []
    for n in names:
        step = plane.at({**point, n: point[n] + 1.0})
        if step is None:
            a.reason = f"your answer is undefined at {_where({**point, n: point[n] + 1})}: " \
                       "a tangent is defined everywhere"
            a.mistake = "not-linear"
            return a
        slopes.append(step[0] - z0)
    rng = _rng(text, answer)
    for _ in range(PROBES):
        p = {n: float(f"{point[n] + _offset(rng):.3g}") for n in names}
        got = plane.at(p)
        linear = z0 + sum(s * (p[n] - point[n]) for s, n in zip(slopes, names))
        terms = [abs(s * (p[n] - point[n])) for s, n in zip(slopes, names)]
        if got is None or not _near(got[0], linear, 1e-9, atol, got[1], m0, *terms):
            a.mistake = "not-linear"
            a.counterexample = {"at": p, "yours": None if got is None else got[0],
                                "correct": fa + sum(g * (p[n] - point[n])
                                                    for g, n in zip(grad, names))}
            what = "line" if len(names) == 1 else "plane"
            a.reason = (f"your answer is not linear in {', '.join(names)}: a tangent {what} "
                        f"is; at {_where(p)} it is "
                        + ("undefined" if got is None else _num(got[0]))
                        + f", off the {what} through the point with the same slopes")
            return a
    tol = max(rtol, FORMULA_RTOL_FLOOR)
    # Scales from the question (f and its gradient at the point), never from numbers
    # inside the answer; rounded decimals may move each quantity by their half unit.
    q_scale = max([abs(fa), *map(abs, grad)])
    slack = _plane_slack(plane, point, names) if digits_rule else [0.0] * (1 + len(names))
    # Where a quantity carries rounded decimals, their digits decide, not --rtol's default.
    value_ok = _near(z0, fa, FORMULA_RTOL_FLOOR if slack[0] else tol, atol + slack[0], q_scale)
    slope_ok = [_near(s, g, FORMULA_RTOL_FLOOR if sl else tol, atol + sl, q_scale)
                for s, g, sl in zip(slopes, grad, slack[1:])]
    a.computed = None
    if value_ok and all(slope_ok):
        a.ok = True
        return a
    problems = []
    f_at = f"f({', '.join(_num(point[n]) for n in names)})"
    if all(slope_ok) and any(g * point[n] != 0 for g, n in zip(grad, names)):
        shifted = fa + sum(g * point[n] for g, n in zip(grad, names))
        if _near(z0, shifted, tol, atol, q_scale, *(abs(g * point[n]) for g, n in zip(grad, names))):
            n = next(n for g, n in zip(grad, names) if g * point[n] != 0)
            g = grad[names.index(n)]
            a.mistake, a.mistake_detail = "not-centred", n
            a.reason = (f"the slopes are right, but they multiply {n} instead of "
                        f"{_shift(n, point[n])}: write {_num(g)}*({_shift(n, point[n])}), "
                        f"not {_num(g)}*{n} (at the point your {plane.dep} is {_num(z0)}, "
                        f"but {f_at} = {_num(fa)})")
            return a
    if not value_ok:
        a.mistake = "tangent-value"
        problems.append(f"at the point {where} your {plane.dep} is {_num(z0)}, but "
                        f"{f_at} = {_num(fa)}: a tangent passes through the point of tangency")
    if len(names) == 2 and not any(slope_ok) and grad[0] != grad[1] \
            and all(_near(s, g, tol, atol, m0) for s, g in zip(slopes, reversed(grad))):
        a.mistake = a.mistake or "slopes-swapped"
        problems.append(f"the slopes are swapped: the slope in {names[0]} is ∂f/∂{names[0]} = "
                        f"{_num(grad[0])} and in {names[1]} ∂f/∂{names[1]} = {_num(grad[1])}")
    else:
        for n, s, g, ok in zip(names, slopes, grad, slope_ok):
            if ok:
                continue
            if a.mistake is None:
                a.mistake, a.mistake_detail = "tangent-slope", n
            which = f"∂f/∂{n}" if len(names) > 1 else "f'"
            problems.append(f"the slope in {n} is {_num(s)}, but {which}"
                            f"({', '.join(_num(point[m]) for m in names)}) = {_num(g)}")
    a.reason = "; ".join(problems)
    return a


# ------------------------------------------------------------------ directional

def _direction(direction: str, variables, at) -> tuple:
    """The order and components of --direction, checked (count, zero length) before any
    computing."""
    order, parts, note = direction_vector(direction, variables, list(at))
    directional_of({n: 0.0 for n in order}, parts)
    return order, parts, note


def _grade_directional(text, at, answer, direction, rtol, atol, digits_rule) -> Answer:
    order, parts, _ = direction
    result = evaluate(text, at)
    grad = {n: result.gradient[n] for n in order}
    d = directional_of(grad, parts)
    computed = number_or_why(answer, "--directional")
    shown = "[" + ", ".join(_num(v) for v in d.given) + "]"
    a = Answer("directional", shown, answer.strip(), expected=d.derivative, computed=computed,
               key="D_u f")
    grade_numeric(a, answer, rtol, atol, digits_rule)
    if a.ok or not isinstance(a.computed, (int, float)):
        return a

    def same(x):
        graded = grade_number(answer, a.computed, x) if digits_rule else None
        return graded["ok"] if graded is not None else close(a.computed, x, rtol, atol)

    g = [float(grad[n]) for n in d.inputs]
    raw = math.fsum(x * y for x, y in zip(g, d.given))
    unit = "[" + ", ".join(_num(v) for v in d.unit) + "]"
    norm = math.hypot(*d.given)
    if d.normalised and same(raw):
        a.mistake, a.mistake_detail = "not-normalised", shown
        a.note = (f"the direction was not normalised: ∇f·v = {_num(raw)} for v = {shown}; "
                  f"D_u f uses the unit vector u = v/|v| = {unit} (|v| = {_num(norm)}), so "
                  f"D_u f = {_num(raw)}/{_num(norm)} = {_num(d.derivative)}")
    elif d.rate and same(d.rate) and not math.isclose(d.rate, abs(d.derivative)):
        a.mistake = "steepest-rate"
        a.note = (f"{_num(d.rate)} is |∇f|, the rate along the steepest ascent, not along "
                  f"u = {unit}")
    elif d.derivative and same(-d.derivative):
        a.mistake = "sign"
        a.note = "the sign is wrong: your answer is minus the directional derivative"
    return a


# ------------------------------------------------------------------ critical points

_KINDS = {"local minimum": ("min", "minimum", "local min", "local minimum", "relative min",
                            "relative minimum", "rel min", "minimum point", "local minimum point"),
          "local maximum": ("max", "maximum", "local max", "local maximum", "relative max",
                            "relative maximum", "rel max", "maximum point", "local maximum point"),
          "saddle point": ("saddle", "saddle point", "saddlepoint"),
          "inconclusive": ("inconclusive", "test inconclusive", "the test is inconclusive",
                           "degenerate")}
_WORD = {w: kind for kind, words in _KINDS.items() for w in words}


def _kind_of(words: str, item: str):
    text = re.sub(r"\s+", " ", words.strip(" \t:;,.-–=").lower())
    text = re.sub(r"^(is |an? )+", "", text)
    if not text:
        return None
    if text not in _WORD:
        raise UsageError(f"--critical: '{words.strip()}' in '{item.strip()}' is not a kind of "
                         "critical point",
                         hint="write min, max, saddle or inconclusive after each point: "
                              "--critical \"(0,0) saddle; (1,1) min\"")
    return _WORD[text]


def _parse_critical(answer: str, names: list):
    """'(0,0) saddle; (1,1) min' -> [(item text, coordinates text, numbers, kind or None)]."""
    order = ", ".join(names)
    example = "(" + ",".join("0" for _ in names) + ") saddle" if len(names) > 1 else "0 min"
    if answer.strip().lower() in ("none", "no critical points", "-"):
        return []
    items = []
    for item in split_top_level(answer, ";"):
        text = item.strip()
        if text[:1] in "([":
            close_at = _matching(text)
            if close_at is None:
                raise UsageError(f"--critical: '{text}' has an unclosed bracket",
                                 hint=f"for example --critical \"{example}\"")
            coords, rest = text[1:close_at], text[close_at + 1:]
            parts = split_top_level(coords)
        else:
            head, _, rest = text.partition(" ")
            parts = split_top_level(head)
            if parts and all("=" in p for p in parts):
                given = dict(p.split("=", 1) for p in parts)
                if sorted(k.strip() for k in given) != sorted(names):
                    raise UsageError(f"--critical: '{head}' does not give each of {order}",
                                     hint=f"for example --critical \"{example}\"")
                parts = [given[k] if k in given else given[f" {k}"] for k in names]
        if len(parts) != len(names):
            raise UsageError(f"--critical: '{text}' has {len(parts)} coordinate"
                             f"{'s' if len(parts) != 1 else ''}, but the search is over "
                             f"{len(names)} ({order})",
                             hint=f"give each point as ({order}) in the order of --over, for "
                                  f"example --critical \"{example}\"")
        values = [constant_value(p.strip(), f"--critical {p.strip()}") for p in parts]
        for v in values:
            if isinstance(v, bool) or not isinstance(v, (int, float, Fraction)) \
                    or not math.isfinite(float(v)):
                raise UsageError(f"--critical: the point '{text}' needs finite numbers")
        items.append((text, [p.strip() for p in parts], [float(v) for v in values],
                      _kind_of(rest, text)))
    for i, (_, _, v, _) in enumerate(items):
        if any(v == w for _, _, w, _ in items[:i]):
            raise UsageError(f"--critical lists the point {_pt(names, v)} twice",
                             hint="list each point once")
    return items


def _matching(text: str):
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                return i
    return None


def _same_coordinate(typed: str, mine: float, found: float, rtol, atol) -> bool:
    graded = grade_number(typed, mine, found)
    if graded is not None and graded["ok"]:
        return True
    return close(mine, found, max(rtol, 1e-9), max(atol, 1e-9 * max(1.0, abs(found))))


def _probe(text, bindings, names, point, f0):
    """The kind f looks like around a point where the second-derivative test is silent."""
    return higher_order_kind(text, bindings, names, list(point), f0, [], [], evaluate)


def _grade_critical(text, items, box, bindings, rtol, atol) -> list:
    import numpy as np
    names = list(box)
    search = critical_points(text, box, bindings, evaluate=evaluate)
    found = [(p, [p.point[n] for n in names]) for p in search.points]
    matched = set()
    out = []
    for item, typed, values, said in items:
        a = Answer("critical", _pt(names, values), item, key="critical")
        index = next((i for i, (_, q) in enumerate(found)
                      if all(_same_coordinate(t, v, w, rtol, atol)
                             for t, v, w in zip(typed, values, q))), None)
        at = {**bindings, **dict(zip(names, values))}
        if index is not None:
            matched.add(index)
            p = found[index][0]
            kind, eig, f0, where = p.kind, p.eigenvalues, p.value, found[index][1]
        else:
            try:
                r = evaluate(text, at, hessian=True)
            except DomainError as exc:
                a.mistake = "not-critical"
                a.reason = f"f is undefined at {_pt(names, values)}: {exc.message}"
                out.append(a)
                continue
            g = [float(r.gradient[n]) for n in names]
            h = [[float(r.hessian[x][y]) for y in names] for x in names]
            size = max([1.0] + [abs(x) for row in h for x in row]) * max([1.0] + [abs(v)
                                                                               for v in values])
            if not all(math.isfinite(x) for x in g) or math.hypot(*g) > 1e-9 * size + atol:
                a.mistake = "not-critical"
                a.expected = "not a critical point"
                a.correct = a.expected
                near = min(found, key=lambda fq: math.dist(fq[1], values), default=None)
                a.reason = (f"not a critical point: ∇f = [{', '.join(_num(x) for x in g)}] at "
                            f"{_pt(names, values)}, not 0")
                if near is not None:
                    a.note = (f"the nearest critical point found by gradcli is "
                              f"{_pt(names, near[1])} ({near[0].kind})")
                out.append(a)
                continue
            eig = [float(e) for e in np.linalg.eigvalsh(np.array(h))]
            kind = classify(eig, max([abs(e) for e in eig] + [1.0]))
            f0, where = float(r.value), values
            if not all(lo <= v <= hi for v, (lo, hi) in zip(values, box.values())):
                # The question asks for the critical points in the box: one outside is
                # not an answer to it, however critical.
                a.mistake = "outside-box"
                a.expected = a.correct = "not in the box"
                box_text = ", ".join(f"{_short(lo)} ≤ {n} ≤ {_short(hi)}"
                                     for n, (lo, hi) in box.items())
                a.reason = (f"{_pt(names, values)} is a critical point ({kind}), but outside "
                            f"the box of --over ({box_text})")
                out.append(a)
                continue
            else:
                a.note = "a critical point (∇f = 0 there) that gradcli's search did not find"
        a.expected = f"{_pt(names, where)} {kind}"
        a.correct = a.expected
        if said is None:
            a.ok = True
            a.note = "; ".join(x for x in (a.note, f"a critical point ({kind}); no kind was "
                                                   "given to check") if x)
            out.append(a)
            continue
        eig_text = ", ".join(_short(e) for e in eig)
        if kind == "inconclusive" and said != "inconclusive":
            looks = _probe(text, bindings, names, where, f0)
            a.ok = looks == said
            verdict = (f"the second-derivative test is inconclusive here (Hessian eigenvalues "
                       f"{eig_text}: one is 0)")
            if a.ok:
                a.note = (f"{verdict}; f sampled around the point agrees with a {said}: "
                          "evidence, not a proof")
            else:
                a.mistake = "classification"
                a.reason = (f"{verdict}, and f sampled around the point looks like "
                            + (f"a {looks}" if looks else "neither a minimum nor a maximum")
                            + f", not a {said}")
            out.append(a)
            continue
        singular = any(abs(e) <= 1e-8 * max([abs(x) for x in eig] + [1.0]) for e in eig)
        a.ok = said == kind or (said == "inconclusive" and singular)
        if a.ok and singular:
            a.note = (f"the second-derivative test is inconclusive here (Hessian eigenvalues "
                      f"{eig_text}: one is 0); a higher-order test (f compared around the "
                      f"point along the Hessian's null directions) gives a {kind}")
        if not a.ok:
            a.mistake, a.mistake_detail = "classification", kind
            why = {"local minimum": "all positive", "local maximum": "all negative",
                   "saddle point": "of both signs", "inconclusive": "one is 0"}[kind]
            a.reason = (f"{'a ' if kind != 'inconclusive' else 'the test is '}{kind}, not "
                        f"{'a ' + said if said != 'inconclusive' else 'inconclusive'}: the "
                        f"Hessian's eigenvalues there are {eig_text} ({why})")
        out.append(a)
    missed = [found[i] for i in range(len(found)) if i not in matched]
    listed = f"{len(items)} listed" if items else "none listed"
    total = f"{len(found)} found by gradcli"
    a = Answer("critical", "missed", listed, key="critical points", expected=total,
               ok=not missed, note=search.note)
    a.correct = "; ".join(f"{_pt(names, q)} {p.kind}" for p, q in found) or "none found"
    if missed:
        a.mistake = "missed"
        a.mistake_detail = "; ".join(_pt(names, q) for _, q in missed)
        a.reason = ("your list misses " + "; ".join(
            f"{_pt(names, q)} ({p.kind}, f = {_num(p.value)})" for p, q in missed)
            + ", found by gradcli in the box")
    out.append(a)
    return out


# ------------------------------------------------------------------ Taylor

def _monomial(powers: dict, at: dict) -> str:
    if not powers:
        return "constant"
    return polynomial_text([Term(1, powers)], at)


def _coef(c) -> str:
    """The right coefficient: a fraction where it is one (1/2), else 12 digits."""
    if isinstance(c, float) and math.isfinite(c):
        near = Fraction(c).limit_denominator(10 ** 4)
        c = near if abs(float(near) - c) <= 1e-12 * abs(c) else float(f"{c:.12g}")
    return polynomial_text([Term(c, {})], {}) if c != 0 else "0"


def _theirs(c) -> str:
    """The student's coefficient as typed: 13.66, not 683/50."""
    if isinstance(c, Fraction) and c.denominator >= 10 \
            and 10 ** 12 % c.denominator == 0:  # a typed decimal
        return _num(float(c))
    if isinstance(c, float) and math.isfinite(c) and len(f"{c:.12g}") <= 10:
        return _num(float(f"{c:.12g}"))
    return _coef(c)


def _coefficients(t) -> dict:
    return {tuple(sorted(term.powers.items())): term.coefficient for term in t.terms}


def _taylor_answer_text(answer: str, variables) -> str:
    left, right = _sides(answer, "the Taylor polynomial", "1 + x + x^2/2")
    if left is None:
        return right
    if re.fullmatch(r"[^\W\d]\w*", left) and left not in variables \
            or _names_a_function_of(left, variables):
        return right
    raise UsageError(f"the answer for the Taylor polynomial has '{left}' on the left of '='",
                     source=answer, hint="give the polynomial alone, or as T2 = ... or "
                                         "P(x) = ...")


def _same_function(a: Program, b: Program, variables, point, rng, atol) -> bool:
    """Whether two formulas agree at PROBES points around the point (both defined)."""
    for _ in range(PROBES):
        p = {v: float(f"{point[v] + _offset(rng):.3g}") for v in variables}
        s, t = _maybe(a, p), _maybe(b, p)
        if s is None or t is None or not _near(s[0], t[0], 1e-9, atol, s[1], t[1]):
            return False
    return True


def _coefficient_slack(answer_program, keys, point, used, deep) -> dict:
    """How far rounding the answer's typed decimals may move each coefficient."""
    literals = rounded_literals(answer_program)
    if not literals:
        return {}

    def coefficients(p):
        t = taylor_of(to_text(p.result), {v: point[v] for v in used}, deep, wrt=used or None)
        c = _coefficients(t)
        return [float(c.get(k, 0)) for k in keys]

    return dict(zip(keys, rounding_slack(answer_program, coefficients, literals)))


def _grade_taylor(text, program, variables, at, answer, order, rtol, atol,
                  digits_rule=False) -> Answer:
    point = _scalar_point(at, variables, "--taylor")
    poly = _taylor_answer_text(answer, variables)
    answer_program = parse_answer(poly, program, variables, "the Taylor polynomial")
    truth = taylor_of(text, point, order)
    a = Answer("taylor", f"T{order}", answer.strip(), key=f"T{order}",
               expected=truth.polynomial)
    a.correct = truth.polynomial
    used = inputs_of(answer_program)
    deep = min(order + 2, MAX_ORDER)
    try:
        mine = taylor_of(poly, {v: point[v] for v in used}, deep, wrt=used or None) \
            if used else None
    except DomainError as exc:  # the answer itself, not the question: wrong, not exit 3
        a.mistake = "not-polynomial"
        a.reason = f"your answer is not a polynomial: {exc.message}"
        return a
    tol = max(rtol, FORMULA_RTOL_FLOOR)
    # Its own expansion must be the answer itself: a polynomial of degree <= deep.
    rng = _rng(text, answer)
    mine_program = parse(mine.polynomial, given_names(used)) if mine else answer_program
    for _ in range(PROBES):
        p = {v: float(f"{point[v] + _offset(rng):.3g}") for v in variables}
        s, t = _maybe(answer_program, p), _maybe(mine_program, p)
        if s is None or t is None or not _near(s[0], t[0], 1e-9, atol, s[1], t[1]):
            a.mistake = "not-polynomial"
            f_here = _maybe(program, p)
            if s is not None and f_here is not None and _near(s[0], f_here[0], 1e-9, atol,
                                                              s[1], f_here[1]):
                a.reason = "that is the function itself, not its Taylor polynomial"
            else:
                a.reason = (f"your answer is not a polynomial in {', '.join(variables)} (of "
                            f"degree up to {deep})")
            return a
    theirs = _coefficients(mine) if mine else {(): _value(answer_program, point)[0]}
    right = _coefficients(truth)
    keys = sorted(set(theirs) | set(right), key=lambda k: (sum(e for _, e in k), k))
    slack = _coefficient_slack(answer_program, keys, point, used, deep) \
        if digits_rule and mine else {}

    def same(x, y, key=None):
        extra = slack.get(key, 0.0)
        if extra:  # rounded decimals: their digits decide, not --rtol's default
            return _near(float(x), float(y), FORMULA_RTOL_FLOOR, atol + extra)
        return _near(float(x), float(y), tol, atol)

    if all(same(theirs.get(k, 0), right.get(k, 0), k) for k in keys):
        a.ok = True
        return a
    # The whole answer first: another order, or the expansion about another point.
    for m in (order - 1, order + 1, order + 2):
        if 0 <= m <= MAX_ORDER and m != order:
            try:
                other = _coefficients(taylor_of(text, point, m))
            except GradcliError:
                continue
            ks = set(theirs) | set(other)
            if all(same(theirs.get(k, 0), other.get(k, 0)) for k in ks):
                a.mistake, a.mistake_detail = "wrong-order", f"T{m}"
                a.reason = (f"this is T{m}, the polynomial of order {m}; order {order} "
                            f"{'stops at' if m > order else 'goes up to'} degree {order}")
                return a
    if any(point[v] for v in variables):
        # Two classic slips, each a whole polynomial: the expansion about 0 instead of
        # the point, and the right coefficients on powers of x instead of (x - a).
        shifted = {v: Apply("add", (Name(v), Num(point[v]))) for v in variables}
        right_poly = parse(truth.polynomial, given_names(variables))
        moved = Program((Statement(None, replace_leaves(
            right_poly.result, lambda n: shifted.get(n.id, n) if isinstance(n, Name) else n)),))
        slips = [("not-centred", moved,
                  "the right coefficients, but on powers of "
                  + ", ".join(v for v in variables if point[v]) + " instead of "
                  + ", ".join(f"({_shift(v, point[v])})" for v in variables if point[v])
                  + f": about {_where(point)} the polynomial is {truth.polynomial}")]
        try:
            zero = taylor_of(text, {v: 0.0 for v in variables}, order)
            slips.insert(0, ("wrong-centre", parse(zero.polynomial, given_names(variables)),
                             f"this is the Taylor polynomial about 0 ({zero.polynomial}); the "
                             f"question asks about {_where(point)}"))
        except GradcliError:
            pass
        for key, other, sentence in slips:
            if _same_function(answer_program, other, variables, point, rng, atol):
                a.mistake, a.reason = key, sentence
                return a
    problems, keys_found = [], []
    for k in keys:
        c, r = theirs.get(k, 0), right.get(k, 0)
        if same(c, r, k):
            continue
        powers = dict(k)
        name = _monomial(powers, point)
        degree = sum(powers.values())
        factorial = math.prod(math.factorial(e) for e in powers.values())
        if degree > order:
            keys_found.append(("beyond-order", name))
            problems.append(f"the {name} term ({_theirs(c)}) is beyond order {order}: a Taylor "
                            f"polynomial of order {order} stops at degree {order}")
        elif r != 0 and factorial > 1 and same(c, float(r) * factorial):
            bang = "·".join(f"{e}!" for e in powers.values() if e > 1)
            keys_found.append(("factorial", name))
            problems.append(f"the {name} coefficient is {_theirs(c)}, the right one is "
                            f"{_coef(r)} — did you forget to divide by {bang}?")
        elif r != 0 and same(c, -float(r)):
            keys_found.append(("sign", name))
            problems.append(f"the {name} coefficient is {_theirs(c)}, the right one is "
                            f"{_coef(r)} (the sign)")
        elif c == 0 or same(c, 0):
            keys_found.append(("missing-term", name))
            problems.append(f"the {name} term is missing: its coefficient is {_coef(r)}")
        elif r == 0:
            keys_found.append(("coefficient", name))
            problems.append(f"there is no {name} term (its coefficient is 0), yours is "
                            f"{_theirs(c)}")
        else:
            keys_found.append(("coefficient", name))
            problems.append(f"the {name} coefficient is {_theirs(c)}, the right one is {_coef(r)}")
    a.mistake, a.mistake_detail = keys_found[0]
    a.reason = "; ".join(problems)
    return a


# ------------------------------------------------------------------ implicit dy/dx

def _implicit_answer_text(answer: str, x: str, y: str) -> str:
    left, right = _sides(answer, f"d{y}/d{x}", "-x/y")
    if left is None:
        return right
    compact = left.replace(" ", "")
    if compact in (f"d{y}/d{x}", f"{y}'", f"{y}'({x})", f"d{y}/d{x}({x})", f"{y}_{x}"):
        return right
    raise UsageError(f"the answer for d{y}/d{x} has '{left}' on the left of '='",
                     source=answer, hint=f"give the formula alone, or as d{y}/d{x} = ...")


def _equation(text):
    """(F program for 'left = right', both sides read, the variables)."""
    left, right = split_equation(text)
    sides = [parse(part) for part in (left, right)]
    f = Apply("sub", (sides[0].result, sides[1].result))
    program = Program((Statement(None, f),), text)
    return program, inputs_of(program)


def _on_curve(F: Program, x, y, variables, rng, fixed):
    """A point of the curve F = 0 near a random x (Newton in y), or None."""
    point = {v: fixed.get(v, float(f"{_offset(rng):.3g}")) for v in variables}
    for _ in range(60):
        try:
            g = lower(F, point, wrt={y})
            out = g.output
            out.backward()
            f, fy = float(out.data), float(g.inputs[y].grad)
        except (GradcliError, ArithmeticError, TypeError, ValueError):
            return None
        if not (math.isfinite(f) and math.isfinite(fy)) or fy == 0:
            return None
        if abs(f) <= 1e-13 * max(1.0, *(abs(v) for v in point.values())):
            return point
        point[y] -= f / fy
        if abs(point[y]) > 1e6:
            return None
    return None


def _grade_slope_at(a, F, truth, answer, answer_program, result, variables, x, y, tol_rtol,
                    atol, digits_rule) -> Answer:
    """A number given for dy/dx at a point of the curve, as books ask it: graded there."""
    point = {v: float(result.at[v]) for v in variables}
    f_here = _maybe(F, point)
    if f_here is None or abs(f_here[0]) > 1e-9 * max(1.0, f_here[1]):
        shown = _where(point)
        value = "undefined" if f_here is None else _num(f_here[0])
        raise UsageError(f"the point {shown} is not on the curve: the two sides differ by "
                         f"{value} there", hint="give a point of the curve with --at")
    t = _maybe(truth, point)
    if t is None:
        raise DomainError(f"d{y}/d{x} = -F_{x}/F_{y} is undefined at {_where(point)}")
    a.expected = t[0]
    a.computed = _value(answer_program, point)[0]
    a.points = 1
    graded = grade_number(answer.strip(), a.computed, t[0]) if digits_rule else None
    if graded is not None:
        a.ok, a.digits, a.rounded = graded["ok"], graded["digits"], graded["rounded"]
        a.reason = graded["reason"]
    else:
        a.ok = _near(a.computed, t[0], tol_rtol, atol, t[1])
    if not a.ok and not a.reason:
        a.reason = (f"at {_where(point)} d{y}/d{x} = -F_{x}/F_{y} is {_short(t[0])}, "
                    f"not {_short(a.computed)}")
    a.note = f"the slope of the curve at {_where(point)}, from {result.formula}"
    return a


def _grade_implicit(text, at, answer, wrt, of, rtol, atol,
                    digits_rule=True) -> tuple[Answer, object]:
    F, variables = _equation(text)
    x = wrt
    if len(variables) < 2:
        raise UsageError(f"the equation has {len(variables)} variable"
                         f"{'' if len(variables) == 1 else 's'}"
                         f" ({', '.join(variables) or 'none'}): dy/dx needs two, x and y",
                         source=text, hint='for example: gradcli check "x^2 + y^2 = 25" '
                                           '--implicit "-x/y"')
    if x is None:
        if "x" in variables and len(variables) == 2:
            x = "x"
        else:
            raise UsageError("--implicit needs --wrt X, the independent variable: the "
                             f"equation's variables are {', '.join(variables) or 'none'}",
                             hint='for example: --implicit "-x/y" --wrt x')
    result = implicit_of(text, x, of, None)
    y = result.y
    formula = _implicit_answer_text(answer, x, y)
    side = parse(split_equation(text)[0])
    answer_program = parse_answer(formula, side, variables, f"d{y}/d{x}")
    if at is not None:
        result = implicit_of(text, x, of, at)  # the point: F_y = 0 there is exit 3
    names = given_names(variables)
    truth = parse(result.formula, names)
    fx = parse(result.fx, names)
    a = Answer("implicit", y, answer.strip(), key=f"d{y}/d{x}", expected=result.formula)
    a.correct = result.formula
    tol_rtol = max(rtol, FORMULA_RTOL_FLOOR)
    if at is not None and not inputs_of(answer_program):
        return _grade_slope_at(a, F, truth, answer, answer_program, result, variables, x, y,
                               tol_rtol, atol, digits_rule), result

    def compare(point):
        t, s = _maybe(truth, point), _maybe(answer_program, point)
        if t is None or s is None:
            return None
        ok = _near(s[0], t[0], tol_rtol, atol, t[1])  # the scale of the question alone
        if ok and abs(s[0]) <= atol and abs(t[0]) <= atol:
            return None  # both 0: proves nothing
        return point, s[0], t[0], ok

    rows = []
    given = None
    if result.at is not None:
        given = compare({v: float(result.at[v]) for v in variables})
        if given is not None:
            rows.append(given)
            a.computed = given[1]
    rng = _rng(text, x, y)
    tries = 0
    while len(rows) < IMPLICIT_SAMPLES and tries < 120:
        tries += 1
        row = compare({v: float(f"{_offset(rng):.3g}") for v in variables})
        if row is not None:
            rows.append(row)
    curve = []
    if any(not r[3] for r in rows):
        fixed = {}
        tries = 0
        while len(curve) < CURVE_POINTS and tries < 200:
            tries += 1
            p = _on_curve(F, x, y, variables, rng, fixed)
            if p is not None:
                row = compare(p)
                if row is not None:
                    curve.append(row)
        if len(curve) >= 3 and all(r[3] for r in curve) and (given is None or given[3]):
            a.ok = True
            a.points = len(curve)
            a.note = (f"equal to -F_{x}/F_{y} at {len(curve)} points of the curve (the two "
                      "differ off the curve, where the equation does not hold)")
            return a, result
    if not rows and not curve:
        a.reason = "no point was found where both your answer and -F_x/F_y are defined"
        return a, result
    a.points = len(rows)
    wrong = [r for r in (curve if curve else rows) if not r[3]] or [r for r in rows if not r[3]]
    if not wrong:
        a.ok = True
        return a, result
    shown = given if given is not None and not given[3] else wrong[0]
    a.counterexample = {"at": dict(shown[0]), "yours": shown[1], "correct": shown[2]}
    if shown in curve:
        where = ", ".join(f"{k} = {_short(v)}" for k, v in shown[0].items()) + " (on the curve)"
    else:
        where = _where(shown[0])
    a.reason = (f"at {where} your answer gives {_short(shown[1])}, but "
                f"d{y}/d{x} = -F_{x}/F_{y} is {_short(shown[2])}")
    base = curve if len(curve) >= 3 else rows
    sample = [r for r in base if r[2] != 0]
    if len(sample) >= 3:
        def fits(model):
            out = []
            for p, s, t, _ in sample:
                m = model(p, t)
                if m is None:
                    return False
                out.append(_near(s, m, tol_rtol, atol))
            return all(out)

        def minus_fx(p, t):
            got = _maybe(fx, p)
            return None if got is None else -got[0]

        ratios = [s / t for _, s, t, _ in sample]
        if fits(lambda p, t: -t):
            a.mistake = "sign"
            a.note = f"the sign is wrong: d{y}/d{x} = -F_{x}/F_{y}, and your answer is F_{x}/F_{y}"
        elif fits(lambda p, t: 1 / t):
            a.mistake = "reciprocal"
            a.note = (f"upside down: your answer is -F_{y}/F_{x} = d{x}/d{y}, not "
                      f"d{y}/d{x} = -F_{x}/F_{y}")
        elif fits(lambda p, t: -1 / t):
            a.mistake = "reciprocal"
            a.note = (f"upside down and the sign: your answer is F_{y}/F_{x}; "
                      f"d{y}/d{x} = -F_{x}/F_{y}")
        elif fits(minus_fx):
            a.mistake = "missing-denominator"
            a.note = f"your answer is -F_{x} = -({result.fx}): divide by F_{y} = {result.fy}"
        elif all(abs(q - ratios[0]) <= 1e-7 * abs(ratios[0]) for q in ratios):
            a.mistake, a.mistake_detail = "constant-factor", _num(ratios[0])
            a.note = f"off by a factor: your answer is {_num(ratios[0])} times d{y}/d{x}"
    return a, result


# ------------------------------------------------------------------ the verdict

def check_homework(text: str, at: dict | None = None, *, value=None, grad=None,
                   derivatives=None, tangent=None, directional=None, direction=None,
                   critical=None, over=None, taylor=None, order=None, implicit=None,
                   wrt=None, of=None, rtol: float | None = None,
                   atol: float | None = None) -> Verdict:
    """check() with the homework answers too (see the module doc); one Verdict for all.

    `tangent`: the equation (or its right-hand side); `directional` a number with
    `direction` ("3,4"); `critical`: "(0,0) saddle; (1,1) min" with `over`
    ("x=-3:3,y=-3:3"); `taylor`: the polynomial, with `order`; `implicit`: dy/dx
    for the equation `text`, `wrt` the independent variable and `of` the other.

    >>> check_homework("x^2 y", {"x": 1, "y": 2}, tangent="z = 2 + 4(x - 1) + (y - 2)").ok
    True
    """
    digits_rule, rtol, atol = tolerances(rtol, atol)
    at = dict(at or {})
    for option, answer, example in (
            ("--tangent", tangent, '--tangent "z = 3 + 4*(x - 1) + 2*(y - 1)"'),
            ("--directional", directional, "--directional 4.4 --direction 3,4"),
            ("--direction", direction, "--directional 4.4 --direction 3,4"),
            ("--critical", critical, '--critical "(0,0) saddle; (1,1) min" (or "none")'),
            ("--over", over, "--over x=-3:3,y=-3:3"),
            ("--taylor", taylor, '--taylor "1 + x + x^2/2" --order 2'),
            ("--implicit", implicit, '--implicit "-x/y"')):
        if isinstance(answer, str) and not answer.strip():
            raise UsageError(f"{option} is empty", hint=f"for example: {example}")
    _pairing(directional, direction, "--directional", "--direction",
             "--directional 4.4 --direction 3,4")
    _pairing(critical, over, "--critical", "--over",
             '--critical "(0,0) saddle" --over x=-3:3,y=-3:3')
    _pairing(taylor, order, "--taylor", "--order", '--taylor "1 + x + x^2/2" --order 2')
    if of is not None and implicit is None:
        raise UsageError("--of names the dependent variable of --implicit; give --implicit "
                         "too, or leave --of out")
    if implicit is not None:
        others = [n for n, v in (("--value", value), ("--grad", grad),
                                 ("--derivative", derivatives), ("--tangent", tangent),
                                 ("--directional", directional), ("--critical", critical),
                                 ("--taylor", taylor)) if v]
        if others:
            raise UsageError(f"--implicit grades dy/dx of an equation; {others[0]} needs an "
                             "expression: check them in two runs")
        if not top_equals(text):
            raise UsageError("--implicit needs the question to be an equation F = G",
                             source=text,
                             hint='for example: gradcli check "x^2 + y^2 = 25" --implicit '
                                  '"-x/y"')
        a, result = _grade_implicit(text, at or None, implicit, wrt, of, rtol, atol,
                                    digits_rule)
        return Verdict(expression=text, read_as=result.read_as,
                       at=dict(result.at or {}), answers=[a], rtol=rtol, atol=atol,
                       warnings=list(result.warnings), digits_rule=digits_rule)
    if order is not None and (isinstance(order, bool) or not isinstance(order, int)
                              or not 0 <= order <= MAX_ORDER):
        raise UsageError(f"--order must be a whole number from 0 to {MAX_ORDER}, got {order}")

    program = parse(text, given_names(at, grad))
    variables = inputs_of(program)
    # Every answer is read before any computing: bad input (exit 2) comes first.
    plane = t = None
    if tangent is not None:
        point = _scalar_point(at, variables, "--tangent")
        t = tangent_of(text, point, evaluate=evaluate)
        plane = _prepare_tangent(tangent, program, variables, t.lhs)
    parts = None
    if directional is not None:
        number_or_why(directional, "--directional")  # a parse error is bad input
        _scalar_point(at, variables, "--directional")
        parts = _direction(direction, variables, at)
    items = box = None
    if critical is not None:
        box = parse_box(over, split_top_level)
        items = _parse_critical(critical, list(box))
    if taylor is not None:
        _scalar_point(at, variables, "--taylor")
        parse_answer(_taylor_answer_text(taylor, variables), program, variables,
                     "the Taylor polynomial")

    if value is not None or grad or derivatives:
        verdict = check(text, at, value=value, grad=grad, derivatives=derivatives,
                        rtol=None if digits_rule else rtol, atol=None if digits_rule else atol,
                        program=program)
    else:
        verdict = Verdict(expression=text, read_as=read_as(program), at=dict(at), answers=[],
                          rtol=rtol, atol=atol, result_name=program.statements[-1].name or "f",
                          warnings=list(program.warnings), digits_rule=digits_rule)
    answers = verdict.answers
    if tangent is not None:
        answers.append(_grade_tangent(text, tangent, plane, t, rtol, atol, digits_rule))
        verdict.warnings += [w for w in t.warnings if w not in verdict.warnings]
    if directional is not None:
        answers.append(_grade_directional(text, at, directional, parts, rtol, atol,
                                          digits_rule))
        if parts[2] and parts[2] not in verdict.warnings:
            verdict.warnings.append(parts[2])
    if critical is not None:
        bindings = {k: v for k, v in at.items() if k not in box}
        answers.extend(_grade_critical(text, items, box, bindings, rtol, atol))
    if taylor is not None:
        answers.append(_grade_taylor(text, program, variables, at, taylor, order, rtol, atol,
                                     digits_rule))
    return verdict


def _pairing(answer, option, answer_name, option_name, example):
    if answer is not None and option is None:
        raise UsageError(f"{answer_name} needs {option_name}", hint=f"for example: {example}")
    if option is not None and answer is None:
        raise UsageError(f"{option_name} goes with {answer_name}",
                         hint=f"for example: {example}")


__all__ = ["check_homework", "wanted", "OPTIONS"]
