"""Which `extrema` a question asks for: an interval, a rectangle or region, or Lagrange."""
from __future__ import annotations

from ..errors import UsageError


def is_several(over: str | None, where: str | None, subject_to) -> bool:
    """Whether the question is in several variables (a rectangle, --where, --subject-to)."""
    from ..inputs import split_top_level
    return bool(where or subject_to or (over and len(split_top_level(over)) > 1))


def solve(text: str, over: str | None, where: str | None, subject_to):
    """The result of the extrema the options ask for (tasks.extrema, regions or lagrange)."""
    given = [o for o, v in (("--over", over), ("--where", where),
                            ("--subject-to", subject_to)) if v]
    if not given:
        raise UsageError("extrema needs a closed interval or region (--over, --where) or a "
                         "constraint (--subject-to)",
                         hint='for example: gradcli extrema "x^3 - 3x" --over x=0:2')
    if len(given) > 1:
        raise UsageError(f"extrema takes one of --over, --where, --subject-to; got "
                         f"{' and '.join(given)}",
                         hint="a region with a constraint on it is not studied here")
    if subject_to:
        from .lagrange import lagrange_extrema
        return lagrange_extrema(text, subject_to)
    if is_several(over, where, subject_to):
        solid = _solid(text, over, where)
        if solid is not None:   # three variables: faces, edges and corners (solids.py)
            from .solids import solid_extrema
            return solid_extrema(text, solid, over)
        from .regions import region_extrema
        return region_extrema(text, over=over, where=where)
    from .extrema import extrema
    return extrema(text, over)


def _solid(text: str, over: str | None, where: str | None):
    """The region when it is a solid in three variables (its own and f's), else None."""
    if over and where:
        return None     # region_extrema refuses both at once
    from .exactinput import read_sympy
    from .regionshape import read_box, read_where
    region = read_box(over) if over else read_where(where)
    names = set(region.names) | (set(read_sympy(text)[1]) if where else set())
    if len(names) != 3:
        return None
    if where:
        region.names = sorted(names)
    return region
