"""`gradcli extrema EXPR --over x=A:B`: the absolute maximum and minimum on a closed
interval, by the closed-interval method, exactly.

The candidates are the critical numbers inside (onevar.study on the open
interval) and both endpoints; the extremes are the largest and smallest of
their values, each with every point where it is attained. The result is laid
out for more than one variable (a region of named ranges, candidates with a
point `at` and where they come from: interior, endpoint, and later boundary
and corner), though only one variable is studied here. Nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError
from .analyze import parse_interval, read_function

WHAT = "extrema"


@dataclass
class Candidate:
    """A point where an extremum may be: its coordinates, f there, and its kind."""

    at: dict            # name -> SymPy number
    value: object
    source: str         # "interior", "endpoint" (later "boundary", "corner")


@dataclass
class Extremum:
    """The largest (or smallest) value and every candidate point where f takes it."""

    value: object
    at: list            # [dict name -> SymPy number]


@dataclass
class Extrema:
    """The absolute extrema of f over a region."""

    expression: str
    read_as: str
    region: dict        # name -> (lo, hi), SymPy numbers
    derivative: str
    candidates: list
    max: Extremum
    min: Extremum
    complete: bool = True
    warnings: list = field(default_factory=list)


def extrema(text: str, over: str | None) -> Extrema:
    """The absolute max and min of the expression `text` on the closed interval --over."""
    from ..symbolic.derivative import differentiate_text
    from .onevar import NotExact, study
    from .sympyform import to_sympy
    if not over:
        raise UsageError("extrema needs the closed interval: --over x=A:B",
                         hint='for example: gradcli extrema "x^3 - 3x" --over x=0:2')
    program, root, name, read = read_function(text, WHAT)
    lo, hi = parse_interval(over, name, WHAT)
    if not (lo.is_finite and hi.is_finite):
        raise UsageError(f"--over {over}: the closed interval method needs finite ends",
                         hint="an unbounded interval may have no maximum or minimum; "
                              f"gradcli analyze studies the whole line")
    f, x = to_sympy(root, name, WHAT)
    st = study(f, x, lo, hi, concavity=False)
    if len(st.components) != 1 or (st.components[0].start, st.components[0].end) != (lo, hi):
        gap = next((c.end for c in st.components if c.end < hi), lo)
        raise NotExact(f"f is not continuous on [{_t(lo)}, {_t(hi)}] (not at {name} = "
                       f"{_t(gap)}): the extreme value theorem does not apply",
                       hint="choose an interval where f is continuous")
    ends = []
    for end in (lo, hi):
        # continuous_domain's set holds an end exactly where f is continuous from inside
        if not st.defined(end):
            raise NotExact(f"f is not continuous at the endpoint {name} = {_t(end)}: "
                           "the closed interval method does not apply",
                           hint="choose an interval where f is continuous")
        ends.append(Candidate({name: end}, st.value(end), "endpoint"))
    inside = [Candidate({name: c}, st.value(c), "interior") for c in st.critical]
    candidates = sorted(inside + ends, key=lambda c: float(c.at[name].evalf(30)))
    return Extrema(text, read, {name: (lo, hi)}, differentiate_text(text, name, program=program),
                   candidates, _extreme(candidates, max), _extreme(candidates, min),
                   st.complete, list(program.warnings) + list(st.notes))


def _t(v) -> str:
    from ..intervals import point_text
    return point_text(v)


def same_value(a, b) -> bool:
    """Equal closed forms: to 40 digits, and exactly where they are that close."""
    import sympy as S
    d = (a - b).evalf(40)
    if abs(d) > S.Float("1e-30") * (1 + abs(a.evalf(40))):
        return False
    return S.simplify(a - b) == 0 or abs(d) < S.Float("1e-35")


def _extreme(candidates, pick) -> Extremum:
    best = pick(candidates, key=lambda c: float(c.value.evalf(30))).value
    return Extremum(best, [c.at for c in candidates if same_value(c.value, best)])
