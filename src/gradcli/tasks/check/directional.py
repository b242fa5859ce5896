"""Grading a directional derivative (`check --directional N --direction V`).

The answer is a number, graded as `--value` is (the digits rule, else the
tolerance); the correct one is the directional task's own. Named mistakes:
`not-normalised` when it is ∇f·v for the direction v as given, `steepest-rate`
when it is |∇f|, `sign`.
"""
from __future__ import annotations

import math

from ...inputs import is_decimal
from ..evaluation import evaluate
from ..tangent import direction_texts, direction_vector
from ..tangent import directional as directional_of
from .shared import Graded, scalar_point
from .verdict import (Answer, close, grade_number, grade_numeric, num, number_or_why,
                      shown as rounded6)

OPTION = "directional"


def prepare(question, given, context):
    """(the answer, the direction's order, components and note), read before grading."""
    answer = given["directional"]
    number_or_why(answer, "--directional")  # a parse error is bad input
    scalar_point(question.at, question.variables, "--directional")
    return answer, _direction(given["direction"], question.variables, question.at)


def grade(question, prepared, context) -> Graded:
    answer, direction = prepared
    graded = _grade_directional(question.text, question.at, answer, direction, context.rtol,
                                context.atol, context.digits_rule)
    return Graded([graded], [direction[2]] if direction[2] else [])


def _direction(direction: str, variables, at) -> tuple:
    """The order and components of --direction, checked (count, zero length) before any
    computing."""
    order, parts, note = direction_vector(direction, variables, list(at))
    directional_of({n: 0.0 for n in order}, parts)
    return order, parts, note, direction_texts(direction, order)


def _grade_directional(text, at, answer, direction, rtol, atol, digits_rule) -> Answer:
    order, parts, _, texts = direction
    result = evaluate(text, at)
    grad = {n: result.gradient[n] for n in order}
    d = directional_of(grad, parts)
    if result.exact_point or not all(map(is_decimal, texts)):
        from ...autodiff.typedpoint import directional as exact_directional
        exact_directional(result, d, order, texts)
    computed = number_or_why(answer, "--directional")
    shown = "[" + ", ".join(num(v) for v in d.given) + "]"
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
    unit = "[" + ", ".join(rounded6(v) for v in d.unit) + "]"
    norm = math.hypot(*d.given)
    if d.normalised and same(raw):
        a.mistake, a.mistake_detail = "not-normalised", shown
        a.note = (f"the direction was not normalised: ∇f·v = {rounded6(raw)} for v = {shown}; "
                  f"D_u f uses the unit vector u = v/|v| = {unit} (|v| = {rounded6(norm)}), so "
                  f"D_u f = {rounded6(raw)}/{rounded6(norm)} = {rounded6(d.derivative)}")
    elif d.rate and same(d.rate) and not math.isclose(d.rate, abs(d.derivative)):
        a.mistake = "steepest-rate"
        a.note = (f"{rounded6(d.rate)} is |∇f|, the rate along the steepest ascent, not along "
                  f"u = {unit}")
    elif d.derivative and same(-d.derivative):
        a.mistake = "sign"
        a.note = "the sign is wrong: your answer is minus the directional derivative"
    return a
