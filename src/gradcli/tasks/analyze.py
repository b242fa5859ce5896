"""`gradcli analyze`: where f of one variable increases and decreases, its relative
extrema by the first-derivative test, its concavity and inflection points, exactly.

The study itself (domain, critical numbers, sign charts) is onevar.py's; this
module reads the question, names the results as a book does and keeps the
formulas of f' and f'' for --steps. An interval is a pair of SymPy numbers, a
point a pair (x, f(x)). Nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError

WHAT = "analyze"


@dataclass
class Analysis:
    """The curve analysis of f on (lo, hi)."""

    expression: str
    read_as: str
    variable: str
    over: tuple | None          # (lo, hi) as SymPy numbers, or None: the whole domain
    study: object               # onevar.Study
    derivative: str             # f' as gradcli prints it (for --steps)
    second_derivative: str
    critical: list              # [(x, f(x))]
    increasing: list            # [(a, b)]
    decreasing: list
    concave_up: list
    concave_down: list
    relative_max: list          # [(x, f(x))]
    relative_min: list
    inflection: list
    warnings: list = field(default_factory=list)


def read_function(text: str, what: str):
    """(program, the Expr of its result, its one variable) for a one-variable task."""
    from ..language.expr import inputs_of
    from ..language.printer import read_as
    from ..reading import read_program
    from ..symbolic.derivative import inline
    program = read_program(text)
    names = inputs_of(program)
    if len(names) != 1:
        raise UsageError(f"{what} studies a function of one variable; "
                         + (f"this one has {len(names)}: {', '.join(names)}" if names
                            else "this expression has none"),
                         hint=f'for example: gradcli {what} "x^3 - 3x"')
    root, _ = inline(program)
    return program, root, names[0], read_as(program)


def parse_interval(spec: str, variable: str, what: str) -> tuple:
    """'x=A:B' -> (A, B) as SymPy numbers (A < B; -inf and inf allowed)."""
    import sympy as S

    from ..language.parser import parse
    from .sympyform import to_sympy
    name, eq, rng = spec.partition("=")
    if not eq or ":" not in rng or name.strip() != variable:
        raise UsageError(f"--over expects {variable}=A:B, got '{spec}'",
                         hint=f"for example --over {variable}=-2:3")
    ends = []
    for part in rng.split(":", 1):
        t = part.strip().lower()
        if t in ("inf", "+inf", "oo", "∞", "+∞"):
            ends.append(S.oo)
            continue
        if t in ("-inf", "-oo", "-∞"):
            ends.append(-S.oo)
            continue
        try:
            value, _ = to_sympy(parse(part).statements[-1].expr, variable, what)
        except Exception as exc:  # a parse error is reported in the option's terms
            raise UsageError(f"--over: '{part.strip()}' is not a number",
                             hint=f"for example --over {variable}=-2:3") from exc
        if value.has(S.Symbol) or not value.is_real:
            raise UsageError(f"--over: '{part.strip()}' is not a number",
                             hint=f"for example --over {variable}=-2:3")
        ends.append(value)
    if not ends[0] < ends[1]:
        raise UsageError(f"--over {spec}: the interval is empty (A must be less than B)")
    return tuple(ends)


def analyze(text: str, over: str | None = None) -> Analysis:
    """The curve analysis of the expression `text` (one variable), on --over's open
    interval or on the whole domain."""
    import sympy as S

    from ..symbolic.derivative import differentiate_text
    from .onevar import merged, sides, study
    from .sympyform import to_sympy
    program, root, x_name, read = read_function(text, WHAT)
    f, x = to_sympy(root, x_name, WHAT)
    lo, hi = parse_interval(over, x_name, WHAT) if over else (-S.oo, S.oo)
    st = study(f, x, lo, hi)
    first_sides = sides(st.first, st.interior)
    second_sides = sides(st.second, st.interior)
    rel_max = [c for c in st.critical if first_sides.get(c) == (1, -1)]
    rel_min = [c for c in st.critical if first_sides.get(c) == (-1, 1)]
    inflection = sorted((c for c, (a, b) in second_sides.items() if a and b and a != b),
                        key=lambda c: float(c.evalf(30)))
    warnings = list(program.warnings) + list(st.notes)
    with_values = (lambda cs: [(c, st.value(c)) for c in cs])
    return Analysis(
        expression=text, read_as=read, variable=x_name, over=(lo, hi) if over else None,
        study=st, derivative=differentiate_text(text, x_name, program=program),
        second_derivative=differentiate_text(text, x_name, order=2, program=program),
        critical=with_values(st.critical),
        increasing=merged(st.first, 1, st.joins_first),
        decreasing=merged(st.first, -1, st.joins_first),
        concave_up=merged(st.second, 1, st.joins_second),
        concave_down=merged(st.second, -1, st.joins_second),
        relative_max=with_values(rel_max), relative_min=with_values(rel_min),
        inflection=with_values(inflection), warnings=warnings)
