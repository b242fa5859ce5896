"""Grading absolute extrema in several variables: `check EXPR --over x=0:3,y=0:2` (a
rectangle), `--where "x^2 + y^2 <= 4"` or `--subject-to "x^2 + y^2 = 1"` with
`--abs-max "9 at (1, 2) and (-1, 2)" --abs-min "-4 at x = 1, y = 0"`.

An answer gives the value, the points or both; `±` in a coordinate stands for
both signs, `none` says there is no such extremum. The correct answer is
`gradcli extrema`'s, found exactly by SymPy; the comparison is exact (the digits
rule for a decimal of 3 or more significant digits). The mistakes named:
`swapped` (the other extremum), `boundary-forgotten` / `corner-forgotten` /
`interior-forgotten` (the best value once a kind of candidate is left out),
`lagrange-point-missed` (the best of the Lagrange points once one is left
out), `lambda-as-value` (a multiplier λ or μ given as the value),
`not-extreme` (a candidate's value that is not the extremum), `missed` (a point
where it is also attained), `not-attained`, `not-in-region`, `no-extremum`
(a value where f has none on an unbounded set), `exists` (none where there is
one), `wrong-value`.
"""
from __future__ import annotations

import itertools
import re

from ...errors import UsageError
from .onevar_answers import EXTREMUM_WORDS, Typed, is_none, read_number, same_number, \
    value_and_where

_ASSIGN = re.compile(r"^\s*([A-Za-z]\w*)\s*=\s*(.+)$")


def read_answer(text: str, option: str, names: list):
    """'9 at (1, 2) and (-1, 2)' -> (Typed value or None, [[Typed, ...] points] or None);
    'none' -> ("none", None)."""
    if is_none(text):
        return "none", None
    t = EXTREMUM_WORDS.sub("", text.strip())
    called = re.fullmatch(r"((?:\s*[a-zA-Z]\w*\s*\([^()=]+\)\s*=)+)\s*([^=]+)", t)
    if called:  # f(1, 2) = 9 or f(1, 1) = f(-1, -1) = 2, as a book prints an extreme value
        points = re.findall(r"\(([^()=]+)\)", called.group(1))
        t = f"{called.group(2)} at " + " and ".join(f"({p})" for p in points)
    value_text, where = value_and_where(t, r"^\s*(\(|[A-Za-z]\w*\s*=)")
    value = read_number(value_text, option) if value_text.strip() else None
    points = _points(where, option, names) if where.strip() else None
    if value is None and not points:
        raise UsageError(f"{option}: '{text}' gives neither a value nor a point",
                         hint=f'for example {option} "9 at (1, 2) and (-1, 2)"')
    return value, points


class Points(list):
    """The points of an answer, ± read as every sign choice; `together` holds the other
    reading of a point with several ± (all upper signs, or all lower: (±1, ±1) as
    (1, 1) and (-1, -1)), or None where there is no other reading."""

    together = None


def _points(text: str, option: str, names: list) -> list:
    from ...inputs import split_top_level
    out, together, several = Points(), [], False
    for chunk in re.split(r"\band\b|;", text):
        chunk = chunk.strip()
        if not chunk:
            continue
        if chunk.startswith("(") and chunk.endswith(")"):
            parts = split_top_level(chunk[1:-1])
            if len(parts) != len(names):
                raise UsageError(f"{option}: the point {chunk} has {len(parts)} coordinates; "
                                 f"the question's variables are ({', '.join(names)})",
                                 hint=f'for example {option} "9 at (1, 2)"')
            coords = [p.strip() for p in parts]
        else:
            given = {}
            for part in split_top_level(chunk):
                m = _ASSIGN.match(part)
                if not m or m.group(1) not in names:
                    raise UsageError(f"{option}: '{chunk}' is not a point of "
                                     f"({', '.join(names)})",
                                     hint=f'for example {option} "9 at (1, 2)" or '
                                          f'"9 at {names[0]} = 1, {names[1]} = 2"')
                given[m.group(1)] = m.group(2).strip()
            if set(given) != set(names):
                raise UsageError(f"{option}: '{chunk}' does not give every coordinate "
                                 f"({', '.join(names)})")
            coords = [given[n] for n in names]
        coords = [c.replace("+-", "±").replace("-+", "∓") for c in coords]
        choices = [[_sign_choice(c, upper) for upper in (True, False)]
                   if ("±" in c or "∓" in c) else [c] for c in coords]
        for combo in itertools.product(*choices):
            out.append([_typed(c, option) for c in combo])
        several = several or sum(len(c) > 1 for c in choices) > 1
        together += [[_typed(_sign_choice(c, upper), option) for c in coords]
                     for upper in (True, False)] if any(len(c) > 1 for c in choices) else \
            [[_typed(c, option) for c in coords]]
    if several:
        out.together = together
    return out


def _sign_choice(coordinate: str, upper: bool) -> str:
    return coordinate.replace("±", "" if upper else "-").replace("∓", "-" if upper else "")


def _typed(text: str, option: str):
    return read_number(text.replace("--", "").strip() or "0", option)


def prepare(texts: dict, names: list) -> dict:
    """{key: (text, (value, points))} for abs_max / abs_min."""
    options = {"abs_max": "--abs-max", "abs_min": "--abs-min"}
    return {key: (text, read_answer(text, options[key], names)) for key, text in texts.items()}


def grade_answers(result, read: dict) -> list:
    from .verdict import Answer
    from ..regions import side_text
    out = []
    for key, (text, (value, points)) in read.items():
        answer = Answer("extrema", key.replace("_", "-"), text,
                        key=key.replace("_", " ").replace("abs", "absolute"))
        truth, other = (result.max, result.min) if key == "abs_max" else (result.min,
                                                                          result.max)
        answer.expected = answer.correct = side_text(truth)
        _grade(result, key, truth, other, value, points, answer)
        if not answer.ok and getattr(points, "together", None):
            # (±1, ±1) as a book often means it: the signs taken together
            second = Answer("extrema", answer.name, text, key=answer.key)
            second.expected = second.correct = answer.expected
            _grade(result, key, truth, other, value, points.together, second)
            if second.ok:
                answer, second.note = second, "± read with the signs taken together"
        if answer.ok and not answer.note:
            answer.note = "decided exactly: SymPy solved " + (
                "the Lagrange system" if result.kind == "subject-to" else
                "grad f = 0, each boundary piece and the corners")
        out.append(answer)
    return out


def _word(key):
    return "maximum" if key == "abs_max" else "minimum"


def _grade(r, key, truth, other, value, points, answer):
    word = _word(key)
    if value == "none":
        if truth.value is None:
            answer.ok, answer.note = True, truth.why
        else:
            answer.mistake = "exists"
            answer.reason = f"f has an absolute {word}: {answer.expected}"
        return
    if truth.value is None:
        answer.mistake = "no-extremum"
        answer.reason = f"there is no absolute {word}: {truth.why}"
        return
    if points and _outside(r, points, answer, key):
        return      # a point outside the region is the mistake, whatever the value
    if value is not None and not same_number(value, truth.value):
        _wrong_value(r, key, truth, other, value, answer)
        return
    if points is None:
        answer.ok = True
        return
    _grade_points(r, key, truth, other, points, answer)


def _outside(r, points, answer, key) -> bool:
    """Name the first point not in the region (or not on the constraint set), if any."""
    import sympy as S
    for p in points:
        if not _in_set(r, {S.Symbol(n, real=True): t.value for n, t in zip(r.names, p)}):
            text = "(" + ", ".join(t.text for t in p) + ")"
            answer.mistake = "not-in-region"
            answer.reason = (f"{text} is not " + ("on the constraint set" if r.kind ==
                                                  "subject-to" else "in the region")
                             + f"; the absolute {_word(key)} is {answer.expected}")
            return True
    return False


def _wrong_value(r, key, truth, other, value, answer):
    word = _word(key)
    pick = max if key == "abs_max" else min
    if other.value is not None and same_number(value, other.value):
        answer.mistake = "swapped"
        answer.reason = (f"{value.text} is the absolute "
                         f"{_word('abs_min' if key == 'abs_max' else 'abs_max')}; "
                         f"the absolute {word} is {answer.expected}")
        return
    best_points = [c for c in r.candidates if c.at in truth.at or c.along]
    for c in best_points:
        for m, v in c.multipliers.items():
            if same_number(value, v):
                answer.mistake = "lambda-as-value"
                letter = "λ" if m == "lambda" else "μ"
                answer.reason = (f"{value.text} is the multiplier {letter} at {_pt(c.at)}; "
                                 f"the absolute {word} is f there: {answer.expected}")
                return
    if r.kind == "subject-to":
        rest = [c for c in r.candidates if not any(c.at == a for a in truth.at) and not c.along]
        if rest and same_number(value, _best(rest, pick)):
            answer.mistake = "lagrange-point-missed"
            answer.reason = (f"{value.text} is the best of the other Lagrange points; "
                             f"the absolute {word} is {answer.expected}")
            return
    else:
        for source in ("boundary", "corner", "interior"):
            rest = [c for c in r.candidates if c.source != source]
            if rest and len(rest) < len(r.candidates) and same_number(value, _best(rest, pick)):
                answer.mistake = f"{source}-forgotten"
                piece = next((c.piece for c in r.candidates if c.source == source
                              and any(c.at == a for a in truth.at)), "")
                answer.reason = (f"{value.text} is the best value without the {source} "
                                 "candidates" + (f" (on {piece})" if piece and source ==
                                                 "boundary" else "")
                                 + f"; the absolute {word} is {answer.expected}")
                return
    hit = next((c for c in r.candidates if same_number(value, c.value)), None)
    if hit is not None:
        answer.mistake = "not-extreme"
        answer.reason = (f"{value.text} is f at the {hit.source} candidate {_pt(hit.at)}, "
                         f"not the {word}; the absolute {word} is {answer.expected}")
        return
    answer.mistake = "wrong-value"
    answer.reason = f"the absolute {word} is {answer.expected}"


def _best(points, pick):
    return pick(points, key=lambda c: float(c.value.evalf(30))).value


def _pt(at: dict) -> str:
    from ...intervals import point_text
    return "(" + ", ".join(point_text(v) for v in at.values()) + ")"


def _same_point(typed: list, at: dict, names) -> bool:
    return all(same_number(t, at[n]) for t, n in zip(typed, names))


def _grade_points(r, key, truth, other, points, answer):
    import sympy as S
    word = _word(key)
    names = r.names
    for p in points:
        if any(_same_point(p, at, names) for at in truth.at):
            continue
        text = "(" + ", ".join(t.text for t in p) + ")"
        bindings = {S.Symbol(n, real=True): t.value for n, t in zip(names, p)}
        if truth.along and _in_set(r, bindings) and _attains(r, bindings, truth.value):
            continue  # a whole curve of attainment: a point of it with the value is right
        if not _in_set(r, bindings):
            answer.mistake = "not-in-region"
            answer.reason = (f"{text} is not " + ("on the constraint set" if r.kind ==
                                                  "subject-to" else "in the region")
                             + f"; the absolute {word} is {answer.expected}")
            return
        swapped = any(_same_point(p, at, names) for at in other.at)
        answer.mistake = "swapped" if swapped else "not-attained"
        answer.reason = f"f{text} is not the absolute {word}; it is {answer.expected}"
        return
    missed = [at for at in truth.at if not any(_same_point(p, at, names) for p in points)]
    if missed:
        answer.mistake = "missed"
        answer.reason = (f"the absolute {word} is also attained at "
                         + " and ".join(_pt(at) for at in missed))
        return
    answer.ok = True


def _attains(r, bindings, value) -> bool:
    from ..exactinput import read_sympy
    from ..regions import same_value
    there = read_sympy(r.expression)[0].subs(bindings)
    return bool(there.is_real) and same_value(there, value)


def _in_set(r, bindings) -> bool:
    from ..regions import _sign
    from ..regionshape import read_box, read_constraints, read_where
    region = (read_constraints(r.pieces) if r.kind == "subject-to" else
              read_box(r.region_text) if r.kind == "over" else read_where(r.region_text))
    for piece in region.pieces:
        s = _sign(piece.g.subs(bindings))
        if (r.kind == "subject-to" and s != 0) or s < 0:
            return False
    return True


__all__ = ["prepare", "grade_answers", "read_answer", "Typed"]
