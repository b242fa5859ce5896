"""Linear approximation at a point: the tangent line or plane, and directional derivatives.

`tangent()` gives z = f(a) + f_x(a)(x - a) + ... in the user's own variables
(exact with `exact=True` where every operation allows), and with an estimate
point the linear approximation beside the true value. `directional()` gives
D_u f = ∇f · u for the unit vector u of a given direction, with the direction
of steepest ascent ∇f/|∇f| and its rate |∇f|. Nothing here prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import DomainError, UsageError
from ..numbers import format_number, is_closed, number_text


@dataclass
class Tangent:
    """The tangent line (one input) or plane/hyperplane of f at a point."""

    expression: str
    read_as: str
    at: dict
    value: object
    gradient: dict
    equation: str                    # "z = 5 + 4*(x - 1) + 2*(y - 2)"
    lhs: str                         # "y" for one input, else "z"
    estimate_at: dict | None = None
    estimate: object = None          # the linear approximation there
    true_value: object = None        # f there
    intercept: float | None = None   # the expanded form's, from the exact point where typed
    warnings: list = field(default_factory=list)
    hints: list = field(default_factory=list)    # said under a table, never in a script's output

    def equation_to(self, precision=None) -> str:
        """The point-slope equation, its numbers rounded to `precision` digits when asked."""
        if precision is None:
            return self.equation
        return equation_text(self.lhs, self.value, self.gradient, self.at, precision)

    def expanded_to(self, precision=None) -> str:
        """The slope-intercept equation a book prints: z = 2x + 4y - 5."""
        return expanded_text(self.lhs, self.value, self.gradient, self.at, precision,
                             self.intercept)


@dataclass
class Directional:
    """D_u f at a point for the unit vector u of a direction, and the steepest ascent."""

    inputs: list
    given: list
    unit: list
    derivative: float
    steepest: list                   # ∇f/|∇f| (empty when ∇f = 0)
    rate: float                      # |∇f|
    normalised: bool                 # the direction given was not already a unit vector


def _scalar(v) -> bool:
    return isinstance(v, (int, float, Fraction)) and not isinstance(v, bool) or is_closed(v)


def _number(v, precision=None) -> str:
    return format_number(v) if precision is None else number_text(v, precision)


def _term(coef, name, point, precision=None) -> str:
    """coef*(name - point), as a book prints it: 4*(x - 1), -3*(y + 2), 2*x."""
    shift = _number(abs(point), precision) if point else ""
    inner = name if not point else f"({name} {'-' if point > 0 else '+'} {shift})"
    if coef == 1:
        return inner
    if isinstance(coef, Fraction):
        # 9(x - 1/2)/4 and (y - 2)/2, as a book prints them
        num, den = coef.numerator, coef.denominator
        top = inner if num == 1 else f"{num}{inner}"
        return top if den == 1 else f"{top}/{den}"
    return f"{_number(coef, precision)}*{inner}"


def _signed(parts) -> str:
    """'a', '+ b', '- c' pieces as one sum; a leading 0 is left out."""
    text = " ".join(parts)
    if parts[0] == "0" and len(parts) > 1:  # 0 + 4*(x - 1) -> 4*(x - 1)
        text = " ".join(parts[1:])
        text = text[2:] if text.startswith("+ ") else "-" + text[2:]
    return text


def _closed(value, gradient: dict, at: dict) -> bool:
    """A closed form among the numbers: the equation is printed by closedtext."""
    return any(is_closed(v) for v in (value, *gradient.values(), *at.values()))


def equation_text(lhs: str, value, gradient: dict, at: dict, precision=None) -> str:
    """'z = 5 + 4*(x - 1) + 2*(y - 2)': zero slopes are left out, signs folded in."""
    if _closed(value, gradient, at):
        # y = √3/2 + (x - π/3)/2, y = 2 ln(2) + (ln(2) + 1)(x - 2)
        from ..closedtext import shift_text, sum_text
        return f"{lhs} = " + sum_text([(value, "")] + [
            (g, f"({shift_text(name, at[name])})" if at[name] != 0 else name)
            for name, g in gradient.items()])
    parts = [_number(value, precision)]
    for name, g in gradient.items():
        if g == 0:
            continue
        term = _term(abs(g), name, at[name], precision)
        parts.append(("- " if g < 0 else "+ ") + term)
    return f"{lhs} = {_signed(parts)}"


def expanded_text(lhs: str, value, gradient: dict, at: dict, precision=None,
                  intercept=None) -> str:
    """The book's form 'z = 2x + 4y - 5': each slope times its variable, then the intercept."""
    if _closed(value, gradient, at):
        # y = x/2 + √3/2 - π/6: the intercept exact, its like terms combined
        from ..closedtext import simplified, sum_text
        intercept = simplified(value) - sum(simplified(g) * simplified(at[name])
                                            for name, g in gradient.items())
        return f"{lhs} = " + sum_text([(g, name) for name, g in gradient.items()]
                                      + [(intercept, "")])
    if intercept is None:
        intercept = value
        for name, g in gradient.items():
            intercept = intercept - g * at[name]
        if isinstance(intercept, float) and abs(intercept) <= 1e-12 * max(
                [abs(value)] + [abs(g * at[n]) for n, g in gradient.items()]):
            intercept = 0.0  # cancellation noise: the plane passes through the origin
    parts = []
    for name, g in gradient.items():
        if g == 0:
            continue
        if isinstance(g, Fraction):
            term = _term(abs(g), name, 0)             # x/2, 9x/4
        else:
            coef = "" if abs(g) == 1 else _number(abs(g), precision)
            if "e" in coef or "inf" in coef:          # 1e-07*x would read as 1e-07x
                coef += "*"
            term = coef + name
        parts.append(("-" if g < 0 else "") + term if not parts
                     else ("- " if g < 0 else "+ ") + term)
    if intercept != 0 or not parts:
        shown = _number(abs(intercept), precision)
        parts.append(("-" if intercept < 0 else "") + shown if not parts
                     else ("- " if intercept < 0 else "+ ") + shown)
    return f"{lhs} = {' '.join(parts)}"


def tangent(text: str, at: dict, *, exact: bool | str = False, estimate: dict | None = None,
            evaluate=None) -> Tangent:
    """The tangent of the scalar `text` at `at` (every input bound), optionally evaluated."""
    result = evaluate(text, at, exact=exact)
    if not _scalar(result.value):
        raise UsageError("a tangent needs a scalar function of scalar inputs",
                         hint="sum(...) a vector result, or bind vectors to numbers")
    for name in result.inputs:
        if not _scalar(at.get(name)) and not _scalar(result.at.get(name)):
            raise UsageError(f"the tangent at a point needs a number for '{name}'")
    point = {name: result.at[name] for name in result.inputs}
    grad = {name: result.gradient[name] for name in result.inputs}
    if any(isinstance(g, float) and not math.isfinite(g) for g in grad.values()):
        raise DomainError("the function is not differentiable at the point (a partial is "
                          "infinite or undefined), so it has no tangent there")
    lhs = "y" if len(point) == 1 and "y" not in point else "z"
    if lhs in point:
        lhs = "f"
    out = Tangent(text, result.read_as, point, result.value, grad,
                  equation_text(lhs, result.value, grad, point), lhs,
                  warnings=list(result.warnings))
    typed = getattr(result, "exact_point", None)
    if typed is not None:
        from ..autodiff.typedpoint import intercept
        out.intercept = intercept(typed, list(grad))
    written = getattr(at, "typed", None)
    if written and not exact:
        shown = ", ".join(f"{n} = {t}" for n, t in written.items())
        out.hints.append(f"the point was typed exactly ({shown}): --exact prints this "
                         "tangent in closed form (fractions, π, √), as a book does")
    if estimate is not None:
        missing = [n for n in point if n not in estimate]
        extra = [n for n in estimate if n not in point]
        if missing or extra:
            raise UsageError("--estimate gives a value for each input of the function: "
                             + ", ".join(point),
                             hint="for example --estimate " + ",".join(
                                 f"{n}={format_number(v)}" for n, v in point.items()))
        linear = result.value
        for name, g in grad.items():
            linear = linear + g * (estimate[name] - point[name])
        out.estimate_at = dict(estimate)
        if typed is not None:
            from ..autodiff.typedpoint import linear as exact_linear
            settled = exact_linear(typed, list(grad), estimate)
            linear = linear if settled is None else settled
        out.estimate = linear
        out.true_value = evaluate(text, estimate, exact=exact).value
    return out


def direction_vector(text: str, inputs, at_order=(), exact=False) -> tuple[list, list, str | None]:
    """The names and components of --direction, and a note when the order was a choice.

    `x=3,y=4` names its components. Bare numbers follow the order of --at when --at
    names every input, since a book's (3, 4) means (x, y) even in tan^-1(y/x), where
    y appears first; otherwise the inputs' order. The note says which order was taken
    whenever it differs from the order of first appearance.
    """
    from ..inputs import constant_value, split_top_level
    inputs = list(inputs)
    parts = split_top_level(text)
    if parts and all("=" in p for p in parts):
        given = {}
        for part in parts:
            name, _, value = part.partition("=")
            name = name.strip()
            if name not in inputs:
                raise UsageError(f"--direction names '{name}', which is not an input of the "
                                 f"function ({', '.join(inputs)})",
                                 hint="for example --direction " + ",".join(
                                     f"{n}=1" for n in inputs))
            given[name] = constant_value(value.strip(), f"--direction {name}", exact)
        missing = [n for n in inputs if n not in given]
        if missing:
            raise UsageError(f"--direction gives no component for {', '.join(missing)}",
                             hint="name every input, for example --direction " + ",".join(
                                 f"{n}=1" for n in inputs))
        return list(given), list(given.values()), None
    values = [constant_value(p, "--direction", exact) for p in parts]
    named = [n for n in at_order if n in inputs]
    order = named if sorted(named) == sorted(inputs) else inputs
    note = None
    if order != inputs and len(values) == len(order):
        pairs = ", ".join(f"{n}={p}" for n, p in zip(order, parts))
        note = (f"--direction {','.join(parts)} is read in the order of --at: {pairs} "
                f"(the function's inputs appear as {', '.join(inputs)}); name the "
                f"components, --direction {pairs.replace(' ', '')}, to say so")
    return order, values, note


def direction_texts(text: str, order) -> list:
    """The components of --direction as typed, in `order` (direction_vector's)."""
    from ..inputs import split_top_level
    parts = split_top_level(text)
    if parts and all("=" in p for p in parts):
        named = {}
        for part in parts:
            name, _, value = part.partition("=")
            named[name.strip()] = value.strip()
        return [named[n] for n in order]
    return parts


def directional(gradient: dict, direction, exact: bool = False) -> Directional:
    """D_u f for the direction (one number per input, in the inputs' order)."""
    names = list(gradient)
    if not all(_scalar(v) for v in direction):
        raise UsageError("--direction takes numbers, one per input (such as 3,4)",
                         hint="a vector is written as its components: --direction 1,2")
    if not all(_scalar(g) for g in gradient.values()):
        raise UsageError("--direction needs scalar inputs: a vector input has a gradient "
                         "with one component per element")
    values = [float(v) for v in direction]
    if len(values) != len(names):
        raise UsageError(f"--direction has {len(values)} component"
                         f"{'' if len(values) == 1 else 's'}, but the function has "
                         f"{len(names)} input{'' if len(names) == 1 else 's'} "
                         f"({', '.join(names)})",
                         hint="give one number per input, in that order, e.g. --direction "
                              + ",".join("1" for _ in names))
    if exact and all(_finite(gradient[n]) for n in names):
        return _exact_directional(names, direction, gradient)
    if exact:
        # An infinite partial has no closed form: D_u f is inf or nan as in float mode,
        # while u, a property of the direction alone, keeps its closed form.
        floats = directional(gradient, [float(v) for v in direction])
        shape = _exact_directional(names, direction, dict.fromkeys(names, 0))
        floats.given, floats.unit = shape.given, shape.unit
        return floats
    norm = math.hypot(*values)
    if norm == 0 or not math.isfinite(norm):
        raise UsageError("--direction has length zero: a direction needs a non-zero vector",
                         hint="for example --direction " + ",".join(
                             "1" if i == 0 else "0" for i in range(len(names))))
    unit = [v / norm for v in values]
    g = [float(gradient[n]) for n in names]
    rate = math.hypot(*g)
    steepest = [x / rate for x in g] if rate else []
    return Directional(names, values, unit, math.fsum(a * b for a, b in zip(g, unit)), steepest,
                       rate, abs(norm - 1) > 1e-12)


def _finite(g) -> bool:
    return not isinstance(g, float) or math.isfinite(g)


def _exact_directional(names, direction, gradient) -> Directional:
    """D_u f in closed form: u = v/|v| with its root kept (3√2/2, not 2.1213...)."""
    import sympy

    from ..autodiff.closed import to_closed
    from ..closedtext import simplified
    values = [to_closed(v) for v in direction]
    norm = sympy.sqrt(sum(v * v for v in values))
    if norm == 0:
        raise UsageError("--direction has length zero: a direction needs a non-zero vector")
    unit = [sympy.radsimp(v / norm) for v in values]
    g = [to_closed(gradient[n]) for n in names]
    # from the partials in their printed (simplified, remembered) form: grad f/|grad f| of
    # the raw ones is a tower of nested fractions that the printer simplifies for seconds
    short = [simplified(x) for x in g]
    # logarithms kept whole (ln(π/4)^2, not ln(π)^2 - 4 ln(2) ln(π) + 4 ln(2)^2), common
    # factors out of the root (289π^2·√(...)/32)
    square = sympy.factor_terms(sympy.expand(sum(x * x for x in short), log=False))
    rate = sympy.sqrt(square)
    steepest = [_rationalised(x / rate, square) for x in short] if rate != 0 else []
    derivative = simplified(sum(a * b for a, b in zip(short, unit)))
    return Directional(names, values, unit, derivative, steepest, rate, norm != 1)


SHORT_SQUARE = 12  # operations in |grad f|^2 up to which its root leaves a denominator


def _rationalised(value, square):
    """The root out of the denominator (4/√17 -> 4√17/17) where |grad f|^2, `square`, is
    short and that does not lengthen the number. For a gradient of nested roots and
    logarithms, radsimp alone takes seconds and gives a thousand operations, which the
    printer's simplify then works on for minutes."""
    import sympy
    if sympy.count_ops(square) > SHORT_SQUARE:
        from ..closedtext import normal_form
        return normal_form(value)  # (π/4)^(π/4)/(π^(π/4)/2^(π/2)·√(...)) cancels
    out = sympy.radsimp(value)
    return out if sympy.count_ops(out) <= sympy.count_ops(value) else value
