"""Grading the c of the mean value theorem (`check EXPR --over x=A:B --mvt "c = 1"`).

The answer is every c (`c = a and c = b`, `c = ±2/√3`, `none`) or `does not
apply`. The correct answer is the mvt task's own: the hypotheses decided
exactly, every c in (A, B). A c typed exactly (2/sqrt(3)) is compared exactly
(to 60 digits); a decimal by the digits rule. Named: `not-differentiable` and
`not-continuous` (c given where the theorem does not apply), `applies` (said
not to apply where it does), `c-outside` (a c outside (A, B), even one that
solves f'(c) = slope), `not-a-c` (f'(c) is not the slope), `c-missed`.
"""
from __future__ import annotations

import re

from ...errors import GradcliError, UsageError
from ...inputs import split_top_level
from .shared import Graded
from .verdict import DIGITS_MIN, Answer, grade_number, significant_digits

OPTION = "mvt"
_NOT = re.compile(r"^(it |the (mvt|theorem|mean value theorem) )?"
                  r"(does not|doesn't|do not|cannot|can't|is not|isn't)\s*"
                  r"(apply|applicable|be applied|hold)\.?$|^(not applicable|n/?a|dna)$")
_C = re.compile(r"^\s*c\s*(_?\d+)?\s*=\s*")


def read_answer(answer: str) -> tuple[bool, list]:
    """(claims the theorem applies, the c typed as text) from `c = 1 and c = 2`."""
    text = re.sub(r"\s+", " ", answer.strip()).rstrip(".")
    if _NOT.match(text.lower()):
        return False, []
    if text.lower() in ("none", "no c", "no such c"):
        return True, []
    items = []
    for part in re.split(r"\s+and\s+|;", text):
        for item in split_top_level(part):
            item = _C.sub("", item.strip())
            if not item:
                raise UsageError(f"--mvt: an empty value of c in '{answer}'",
                                 hint='for example --mvt "c = 1 and c = 3"')
            item = item.replace("+-", "±").replace("+/-", "±")
            if item.startswith("±"):      # ±2/√3: both signs of the whole
                items += [item[1:].strip(), "-(" + item[1:].strip() + ")"]
            elif "±" in item:             # (1 ± √7)/3: both signs of the term
                items += [item.replace("±", "+", 1), item.replace("±", "-", 1)]
            else:
                items.append(item)
    return True, items


def _value(text: str):
    from ..exactinput import constant
    try:
        return constant(text, "--mvt")
    except GradcliError as exc:
        raise UsageError(f"--mvt: '{text}' is not a number",
                         hint='give each c as a number: --mvt "c = 2/sqrt(3)", or '
                              '--mvt "does not apply"') from exc


def prepare(question, given, context):
    """(claims it applies, [(typed, exact value)], the answer as typed), bad input first."""
    if given.get("over") is None:
        raise UsageError("--mvt needs the interval: --over x=A:B",
                         hint='for example: --over x=0:2 --mvt "c = 1"')
    applies, items = read_answer(given["mvt"])
    return applies, [(t, _value(t)) for t in items], given["mvt"], given["over"]


def _matches(typed: str, value, c) -> bool:
    """A typed c is this c: exactly, or by the digits rule for a decimal."""
    from ..mvt import _same
    if "." in typed and significant_digits(typed) >= DIGITS_MIN or isinstance(c, float):
        graded = grade_number(typed, float(value), float(c))
        if graded is not None:
            return graded["ok"]
        return abs(float(value) - float(c)) <= 1e-12 * max(1.0, abs(float(c)))
    return _same(value, c)


def grade(question, prepared, context) -> Graded:
    from ..mvt import _same, c_text, mean_value
    claims, items, answer, over = prepared
    m = mean_value(question.text, over)
    a = Answer("mvt", "c", answer.strip(), key="c (MVT)")
    right = ("does not apply: " + m.reason) if not m.applies else (
        f"every c in ({c_text(m.a)}, {c_text(m.b)})" if m.every
        else " and ".join(f"c = {c_text(c)}" for c in m.c) or "none")
    a.expected = a.correct = right
    if not m.applies:
        a.ok = not claims
        if claims:
            a.mistake = "not-continuous" if m.failure == "continuous" else "not-differentiable"
            a.reason = f"the theorem does not apply: {m.reason}"
        return Graded([a], list(m.warnings))
    if not claims:
        a.mistake = "applies"
        a.reason = (f"the theorem applies: f is continuous on [{c_text(m.a)}, {c_text(m.b)}] "
                    f"and differentiable on ({c_text(m.a)}, {c_text(m.b)})")
        return Graded([a], list(m.warnings))
    inside = f"({c_text(m.a)}, {c_text(m.b)})"
    problems, matched = [], set()
    for typed, value in items:
        hit = next((i for i, c in enumerate(m.c) if _matches(typed, value, c)), None)
        if hit is not None:
            matched.add(hit)
            continue
        if m.every and bool(m.a < value) and bool(value < m.b):
            continue
        if not (bool(m.a < value) and bool(value < m.b)):
            a.mistake = a.mistake or "c-outside"
            d = _derivative(question.text, m, value)
            solves = d is not None and _same(d, m.slope)
            problems.append(f"c = {c_text(value)} is outside {inside}" + (
                f" (it solves f'(c) = {c_text(m.slope)}, but the theorem's c lies strictly "
                "between the ends)" if solves else ""))
            continue
        a.mistake = a.mistake or "not-a-c"
        d = m.derivative_at(value)
        problems.append(f"at c = {c_text(value)}, f'(c) = "
                        + (c_text(d) if d is not None else "undefined")
                        + f", not the secant's slope {c_text(m.slope)}")
    missed = [c for i, c in enumerate(m.c) if i not in matched]
    if missed:
        a.mistake = a.mistake or "c-missed"
        problems.append("missed " + " and ".join(f"c = {c_text(c)}" for c in missed))
    if m.every and not items:
        a.mistake = a.mistake or "c-missed"
        problems.append(f"every c in {inside} works: f is linear there")
    a.ok = not problems
    a.reason = "; ".join(problems)
    return Graded([a], list(m.warnings))


def _derivative(text, m, value):
    """f'(value) from the whole expression, for a c outside the interval."""
    import sympy as S
    from ...symbolic.realforms import piece
    from ..exactinput import read_sympy
    x = S.Symbol(m.x, real=True)
    f = read_sympy(text)[0]
    try:
        v = S.diff(piece(f, x, value), x).subs(x, value)
    except (TypeError, ValueError):
        return None
    return v if v.is_real and v.is_finite else None
