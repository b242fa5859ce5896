"""Writers for `gradcli tangent --normal`: the normal line beside the tangent.

The JSON record is the tangent's with `"normal"` (point-slope) and
`"normal_expanded"` (slope-intercept) added, and the normal's slope under
`"normal_slope"` (null for a vertical normal).
"""
from __future__ import annotations

from ..numbers import json_number, number_text


def normal_record(n, precision=None) -> dict:
    if n.tangent is not None:
        from .homework import tangent_record
        rec = tangent_record(n.tangent, precision)
    else:
        rec = {"expression": n.expression, "read_as": n.read_as,
               "at": {n.x: json_number(n.a, precision)},
               "value": json_number(n.value, precision), "gradient": {n.x: None},
               "equation": f"{n.x} = {number_text(n.a)}"}
    rec["normal"] = n.equation
    rec["normal_expanded"] = n.expanded
    slope = n.normal_slope
    rec["normal_slope"] = None if slope is None else json_number(slope, precision)
    rec["warnings"] = list(n.warnings)
    if not rec["warnings"]:
        del rec["warnings"]
    return rec


def normal_rows(n, precision=None) -> list:
    rows = [("normal", n.equation)]
    if n.expanded != n.equation:
        rows.append(("expanded", n.expanded))
    if n.tangent is not None:
        rows.append(("tangent", n.tangent.equation))
    else:
        rows.append(("tangent", f"{n.x} = {number_text(n.a, precision)} (vertical)"))
    rows.append(("f", number_text(n.value, precision)))
    rows.append((f"df/d{n.x}", "undefined (vertical tangent)" if n.slope is None
                 else number_text(n.slope, precision)))
    slope = n.normal_slope
    rows.append(("normal slope", "undefined (vertical normal)" if slope is None
                 else number_text(slope, precision)))
    return rows


def normal_markdown(n, precision=None) -> str:
    lines = [f"**Normal line** of `{n.read_as}` at {n.x} = {number_text(n.a, precision)}:", "",
             f"    {n.equation}", ""]
    if n.expanded != n.equation:
        lines += [f"or, expanded, `{n.expanded}`", ""]
    if n.kind == "slope":
        lines.append(f"- the tangent's slope f'({number_text(n.a, precision)}) = "
                     f"{number_text(n.slope, precision)}, so the normal's is "
                     f"-1/f' = {number_text(n.normal_slope, precision)}")
    elif n.kind == "vertical":
        lines.append("- the tangent is horizontal (f' = 0), so the normal is vertical")
    else:
        lines.append("- the tangent is vertical, so the normal is horizontal")
    return "\n".join(lines) + "\n"


def normal_latex(n, precision=None) -> str:
    from .homework import _latex_of
    lhs, rhs = n.equation.split(" = ", 1)
    return f"\\[ {lhs} = {_latex_of(rhs, (n.x,))} \\]\n"
