"""Writers for a surface's tangent plane and normal line (`tangent "x^2 + y^2 + z^2 = 14" ...`).

JSON: `"equation"` (the plane, point-normal form) and `"expanded"`, and
`"normal": {"point": [...], "direction": [...], "parametric": ..., "symmetric": ...}`,
each number a closed form gradcli reads back, its double under `_value`.
"""
from __future__ import annotations

from ..numbers import json_number


def _json(v) -> str:
    from ..symbolic.realforms import json_text
    return json_text(v)


def _book(v) -> str:
    from ..closedtext import closed_text
    return closed_text(v)


def _at(s) -> str:
    return "(" + ", ".join(_book(v) for v in s.point) + ")"


def surface_record(s, precision=None) -> dict:
    rec = {"expression": s.expression, "read_as": s.read_as, "surface": s.kind,
           "variables": list(s.names),
           "at": {n: _json(v) for n, v in zip(s.names, s.point)},
           "equation": s.plane, "expanded": s.plane_expanded,
           "normal": {"point": [_json(v) for v in s.point],
                      "direction": [_json(v) for v in s.direction],
                      "point_value": [json_number(float(v), precision) for v in s.point],
                      "direction_value": [json_number(float(v), precision)
                                          for v in s.direction],
                      "parametric": s.parametric, "symmetric": s.symmetric}}
    if s.warnings:
        rec["warnings"] = list(s.warnings)
    return rec


def surface_rows(s, precision=None) -> list:
    what = "∇F" if s.kind == "level" else "(f_x, f_y, -1)"
    return [("tangent plane", s.plane), ("expanded", s.plane_expanded),
            ("normal line", s.parametric), ("symmetric", s.symmetric),
            ("point", _at(s)),
            (f"direction {what}", "(" + ", ".join(_book(v) for v in s.direction) + ")")]


def surface_markdown(s, precision=None) -> str:
    if s.kind == "level":
        why = f"- the normal direction is ∇F at the point: ({', '.join(_book(v) for v in s.direction)})"
    else:
        why = ("- for z = f(x, y) the normal direction is (f_x, f_y, -1) = "
               f"({', '.join(_book(v) for v in s.direction)})")
    lines = [f"**Tangent plane** of `{s.read_as}` at {_at(s)}:", "",
             f"    {s.plane}", "", f"or, expanded, `{s.plane_expanded}`", "",
             "**Normal line**:", "", f"    {s.parametric}", "",
             f"or, symmetric, `{s.symmetric}`", "", why]
    return "\n".join(lines) + "\n"


def surface_latex(s, precision=None) -> str:
    import sympy as S
    t = s.parameter
    point = ", ".join(S.latex(v) for v in s.point)
    direction = ", ".join(S.latex(v) for v in s.direction)
    names = ", ".join(s.names)
    return (f"\\[ {s.plane} \\]\n"
            f"\\[ ({names}) = ({point}) + {t}\\,({direction}) \\]\n")
