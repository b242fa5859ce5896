"""Grading absolute extrema on a closed interval: `check EXPR --over x=A:B --abs-max
"5 at x = 3" --abs-min "-4 at x = 1 and x = -2"`.

An answer gives the value, the points or both (`5`, `x = 3`, `5 at x = 3`,
`max 5 at x = 3`); the correct one is `gradcli extrema`'s. Several points are
graded as a set: every point where the extremum is attained must be listed.
The mistakes named: `swapped` (the other extremum), `endpoint-forgotten` (the
best of the critical numbers alone, where an endpoint wins), `missed` (a
point where it is also attained), `not-attained` (a point where it is not),
`not-in-region` (a point outside the interval, whatever the value: as regions.py names
it in several variables), `wrong-value`.
"""
from __future__ import annotations

import re

from ...errors import UsageError
from .onevar_answers import EXTREMUM_WORDS, is_none, read_number, read_points, same_number, \
    value_and_where
from .shared import Graded
from .verdict import Answer

OPTION = "extrema"
ANSWERS = {"abs_max": "--abs-max", "abs_min": "--abs-min"}


def prepare(question, given, context):
    from ..analyze import read_function
    from ..several import is_several
    if is_several(given.get("over"), given.get("where"), given.get("subject_to")):
        return _several(question, given)
    if not given.get("over"):
        raise UsageError("--abs-max and --abs-min need the closed interval: --over x=A:B",
                         hint='for example: --over x=0:3 --abs-max "5 at x = 3"')
    _, _, variable, _ = read_function(question.text, "check")
    read = {key: (text, _read(text, ANSWERS[key], variable))
            for key, text in given["extrema"].items()}
    return read, given["over"]


def _read(text: str, option: str, variable: str):
    """(Typed value or None, [Typed x] or None) of '5 at x = 3 and x = -1'."""
    if is_none(text):
        raise UsageError(f"{option}: a continuous function on a closed interval has an "
                         "absolute maximum and minimum (the extreme value theorem)",
                         hint=f'for example {option} "5 at x = 3"')
    t = EXTREMUM_WORDS.sub("", text.strip())
    called = re.fullmatch(r"\s*[a-zA-Z]\w*\s*\((.+)\)\s*=\s*(.+)", t)
    if called:  # f(4) = 17, as Stewart prints an extreme value
        t = f"{called.group(2)} at {called.group(1)}"
    value_text, where = value_and_where(t, rf"^\s*(\(|{re.escape(variable)}\s*=)")
    value = read_number(value_text, option) if value_text.strip() else None
    points = [p for p, _ in read_points(where, option, variable)] if where.strip() else None
    if value is None and not points:
        raise UsageError(f"{option}: '{text}' gives neither a value nor a point",
                         hint=f'for example {option} "5 at x = 3"')
    return value, points


def _several(question, given):
    """A rectangle, a region or constraints: tasks/check/regions.py grades the answers."""
    from ..several import solve
    from . import regions
    result = solve(question.text, given.get("over"), given.get("where"),
                   given.get("subject_to"))
    return "several", result, regions.prepare(given["extrema"], result.names)


def grade(question, prepared, context) -> Graded:
    from ..extrema import extrema
    if prepared[0] == "several":
        from .regions import grade_answers
        return Graded(grade_answers(prepared[1], prepared[2]),
                      warnings=list(prepared[1].warnings))
    read, over = prepared
    r = extrema(question.text, over)
    name = next(iter(r.region))
    out = []
    for key, (text, (value, points)) in read.items():
        answer = Answer("extrema", ANSWERS[key].lstrip("-"), text,
                        key=key.replace("_", " ").replace("abs", "absolute"))
        truth, other = (r.max, r.min) if key == "abs_max" else (r.min, r.max)
        answer.expected = answer.correct = _text(truth)
        _grade_one(r, name, truth, other, value, points, answer, key)
        out.append(answer)
    return Graded(out, warnings=list(r.warnings))


def _outside(interval, points):
    """The first point beyond the interval's ends (a rounded end, such as 1.414 for √2,
    is the end), or None."""
    lo, hi = interval
    for p in points:
        if p.value.is_extended_real is not False and not same_number(p, lo) and not same_number(p, hi) \
                and (bool(p.value < lo) or bool(p.value > hi)):
            return p
    return None


def _text(e) -> str:
    from ...intervals import point_text
    return f"{point_text(e.value)} at " + " and ".join(
        ", ".join(f"{k} = {point_text(v)}" for k, v in at.items()) for at in e.at)


def _grade_one(r, name, truth, other, value, points, answer, key):
    from ...intervals import point_text
    word = "maximum" if key == "abs_max" else "minimum"
    outside = _outside(r.region[name], points or ())
    if outside is not None:
        lo, hi = r.region[name]
        answer.mistake, answer.mistake_detail = "not-in-region", f"{name} = {outside.text}"
        answer.reason = (f"{name} = {outside.text} is outside the interval "
                         f"[{point_text(lo)}, {point_text(hi)}]: only points of it count; the "
                         f"absolute {word} is {_text(truth)}")
        return
    if value is not None and not same_number(value, truth.value):
        if same_number(value, other.value):
            answer.mistake = "swapped"
            answer.reason = (f"{value.text} is the absolute "
                             f"{'minimum' if word == 'maximum' else 'maximum'}; the absolute "
                             f"{word} is {_text(truth)}")
            return
        inside = [c for c in r.candidates if c.source == "interior"]
        if truth.at and all(c.source == "endpoint" for c in r.candidates
                            if any(c.at == at for at in truth.at)) and inside:
            best = (max if word == "maximum" else min)(
                inside, key=lambda c: float(c.value.evalf(30)))
            if same_number(value, best.value):
                answer.mistake = "endpoint-forgotten"
                answer.reason = (f"{value.text} is the best value at a critical number, but "
                                 f"the {word} is at an endpoint: {_text(truth)}")
                return
        answer.mistake = "wrong-value"
        answer.reason = f"the absolute {word} is {_text(truth)}"
        return
    if points is None:
        answer.ok = True
        return
    where = [at[name] for at in truth.at]
    for p in points:
        if not any(same_number(p, w) for w in where):
            attained_other = any(same_number(p, at[name]) for at in other.at)
            endpoint_forgotten = all(c.source == "endpoint" for c in r.candidates
                                     if c.at[name] in where) and any(
                same_number(p, c.at[name]) for c in r.candidates if c.source == "interior")
            answer.mistake = ("swapped" if attained_other else
                              "endpoint-forgotten" if endpoint_forgotten else "not-attained")
            answer.reason = (f"f({p.text}) is not the absolute {word}; it is {_text(truth)}")
            return
    missed = [w for w in where if not any(same_number(p, w) for p in points)]
    if missed:
        answer.mistake = "missed"
        answer.reason = (f"the absolute {word} is also attained at "
                         + " and ".join(f"{name} = {point_text(w)}" for w in missed))
        return
    answer.ok = True
