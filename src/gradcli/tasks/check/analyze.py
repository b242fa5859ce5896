"""Grading a curve analysis: `check EXPR --increasing ... --decreasing ... --relative-max
... --relative-min ... --concave-up ... --concave-down ... --inflection ...`.

The correct answer is `gradcli analyze`'s own (tasks/analyze.py). Intervals
are compared as sets, after joining the student's intervals that meet at a
point where they may be joined (SPEC §3.11: f continuous there; for concavity
f' too), so a split or merged answer is right alike; `[` is right at an
endpoint where f is defined. Points are compared exactly (or by the digits
rule). The mistakes named: `swapped` (increasing for decreasing, concave up
for down, max for min), `no-sign-change` (an interval split, or an extremum or
inflection point claimed, where f' or f'' keeps its sign), `not-in-domain`,
`not-critical`, `missed`, `extra`, `wrong-value`, `wrong-intervals`.
"""
from __future__ import annotations

from .onevar_answers import read_intervals, read_points, same_number
from .shared import Graded
from .verdict import Answer

OPTION = "analyze"
# The answers of this kind: check_homework's keyword -> the option a user types.
ANSWERS = {"increasing": "--increasing", "decreasing": "--decreasing",
           "relative_max": "--relative-max", "relative_min": "--relative-min",
           "concave_up": "--concave-up", "concave_down": "--concave-down",
           "inflection": "--inflection"}
_OPPOSITE = {"increasing": "decreasing", "decreasing": "increasing",
             "concave_up": "concave_down", "concave_down": "concave_up",
             "relative_max": "relative_min", "relative_min": "relative_max"}
_SIGN = {"increasing": 1, "decreasing": -1, "concave_up": 1, "concave_down": -1}


def prepare(question, given, context):
    """Each answer read (bad input refused) before any computing."""
    from ..analyze import read_function
    answers = given["analyze"]
    _, _, variable, _ = read_function(question.text, "check")
    read = {}
    for key, text in answers.items():
        option = ANSWERS[key]
        read[key] = (text, read_intervals(text, option) if key in _SIGN
                     else read_points(text, option, variable))
    return read, given.get("over")


def grade(question, prepared, context) -> Graded:
    from ..analyze import analyze
    read, over = prepared
    a = analyze(question.text, over)
    out = []
    for key, (text, typed) in read.items():
        answer = Answer("analyze", ANSWERS[key].lstrip("-"), text, key=key.replace("_", " "))
        if key in _SIGN:
            _grade_intervals(a, key, typed, answer)
        else:
            _grade_points(a, key, typed, answer)
        out.append(answer)
    return Graded(out, warnings=list(a.warnings))


# ---------------------------------------------------------------- intervals

def _landmarks(a) -> list:
    st = a.study
    import sympy as S
    marks = {S.oo, -S.oo}
    for spans in (st.first, st.second):
        for s in spans:
            marks.update((s.a, s.b))
    for comp in st.components:
        marks.update((comp.start, comp.end))
    return list(marks)


def _snap(typed, marks):
    """The exact landmark the typed number is, or its own value."""
    for m in marks:
        if same_number(typed, m):
            return m
    return typed.value


def _grade_intervals(a, key, typed, answer):
    from ...intervals import union_text
    st = a.study
    truth = getattr(a, key)
    answer.expected = answer.correct = union_text(truth)
    joinable = st.joins_first if key in ("increasing", "decreasing") else st.joins_second
    marks = _landmarks(a)
    pairs = []
    for open_a, ta, tb, open_b in typed:
        lo, hi = _snap(ta, marks), _snap(tb, marks)
        for is_open, end in ((open_a, lo), (open_b, hi)):
            if not is_open and not st.defined(end):
                answer.mistake = "not-in-domain"
                answer.reason = (f"f is not defined at {a.variable} = {_text(end)}: that "
                                 f"end of an interval is open, '(' or ')'")
                return
        pairs.append((lo, hi))
    pairs.sort(key=lambda p: float(p[0].evalf(30)) if p[0].is_finite else -float("inf"))
    joined = []
    for lo, hi in pairs:
        # Overlapping intervals are their union, as sets: "[3, 4] U (3, inf)" is (3, inf).
        if joined and (bool(lo < joined[-1][1]) or joined[-1][1] == lo and joinable(lo)):
            joined[-1] = (joined[-1][0], hi if bool(hi > joined[-1][1]) else joined[-1][1])
        else:
            joined.append((lo, hi))
    if joined == list(truth):
        answer.ok = True
        if len(pairs) != len(truth):
            answer.note = "split where the sign does not change: the same intervals"
        return
    opposite = getattr(a, _OPPOSITE[key])
    word = key.replace("_", " ")
    if joined == list(opposite) and joined:
        answer.mistake = "swapped"
        answer.reason = (f"those are the intervals where f is "
                         f"{_OPPOSITE[key].replace('_', ' ')}; f is {word} on "
                         f"{union_text(truth)}")
        return
    for lo, hi in joined:
        gap = next((c.end for c in st.components if lo < c.end < hi), None)
        if gap is not None:
            answer.mistake = "not-in-domain"
            answer.reason = (f"f is not defined at {a.variable} = {_text(gap)} (or beyond it), "
                             f"inside ({_text(lo)}, {_text(hi)}); f is {word} on "
                             f"{union_text(truth)}")
            return
    chart, which = (st.first, "f'") if key in ("increasing", "decreasing") else (st.second, "f''")
    from ..onevar import sides
    around = sides(chart, st.interior)
    for lo, hi in joined:
        for end in (lo, hi):
            signs = around.get(end)
            if signs and signs[0] == signs[1] and signs[0] != 0:
                answer.mistake = "no-sign-change"
                answer.reason = (f"{which} does not change sign at {a.variable} = "
                                 f"{_text(end)}; f is {word} on {union_text(truth)}")
                return
    answer.mistake = "wrong-intervals"
    answer.reason = _where_wrong(a, chart, joined, _SIGN[key], which, word, truth)


def _text(v) -> str:
    from ...intervals import point_text
    return point_text(v)


def _where_wrong(a, chart, joined, sign, which, word, truth) -> str:
    from ..onevar import between
    from ...intervals import union_text
    for s in chart:
        t = between(s.a, s.b)
        claimed = any(_inside(t, lo, hi) for lo, hi in joined)
        if claimed != (s.sign == sign):
            says = "says" if claimed else "leaves out"
            return (f"{which} is {'+-0'[[1, -1, 0].index(s.sign)]} on "
                    f"({_text(s.a)}, {_text(s.b)}); your answer {says} {a.variable} = "
                    f"{_text(t)}; f is {word} on {union_text(truth)}")
    return f"f is {word} on {union_text(truth)}"


def _inside(t, lo, hi) -> bool:
    return bool(lo < t < hi)


# ---------------------------------------------------------------- points

def _grade_points(a, key, typed, answer):
    from ...intervals import point_text
    x = a.variable
    truth = getattr(a, key)
    answer.expected = answer.correct = (", ".join(f"{x} = {point_text(c)}" for c, _ in truth)
                                        or "none")
    matched = set()
    for tx, tv in typed:
        hit = next((i for i, (c, _) in enumerate(truth) if same_number(tx, c)), None)
        if hit is None:
            _not_a_point(a, key, tx, answer)
            return
        if tv is not None and not same_number(tv, truth[hit][1]):
            answer.mistake = "wrong-value"
            answer.reason = (f"f({point_text(truth[hit][0])}) = {point_text(truth[hit][1])}, "
                             f"not {tv.text}")
            return
        matched.add(hit)
    missed = [truth[i] for i in range(len(truth)) if i not in matched]
    if missed:
        opposite = getattr(a, _OPPOSITE[key], None) if key in _OPPOSITE else None
        answer.mistake = "missed"
        answer.reason = ("your answer misses " + ", ".join(f"{x} = {point_text(c)}"
                                                            for c, _ in missed))
        if opposite and typed and all(any(same_number(tx, c) for c, _ in opposite)
                                      for tx, _ in typed):
            answer.mistake = "swapped"
        return
    answer.ok = True


def _not_a_point(a, key, tx, answer):
    from ..onevar import sides
    from ...intervals import point_text
    st = a.study
    x = a.variable
    c = tx.value
    where = f"{x} = {tx.text}"
    if not c.is_finite or not st.in_domain(c):
        answer.mistake = "not-in-domain"
        answer.reason = f"f is not defined at {where}"
        return
    if key == "inflection":
        around = sides(st.second, st.interior)
        signs = next((v for k, v in around.items() if same_number(tx, k)), None)
        answer.mistake = "no-sign-change" if signs else "not-inflection"
        answer.reason = (f"f'' does not change sign at {where}: no inflection point"
                         if signs else f"f'' is not 0 or undefined at {where}: no inflection "
                                       f"point")
        return
    opposite = getattr(a, _OPPOSITE[key])
    if any(same_number(tx, o) for o, _ in opposite):
        answer.mistake = "swapped"
        other = "minimum" if key == "relative_max" else "maximum"
        answer.reason = f"f has a relative {other} at {where} (the first-derivative test)"
        return
    if any(same_number(tx, k) for k in st.critical):
        answer.mistake = "no-sign-change"
        answer.reason = (f"{where} is a critical number, but f' does not change sign there: "
                         "no relative extremum")
        return
    answer.mistake = "not-critical"
    d = ", ".join(f"{x} = {point_text(k)}" for k in st.critical) or "none"
    answer.reason = f"{where} is not a critical number of f (those are: {d})"
