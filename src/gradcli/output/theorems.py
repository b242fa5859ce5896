"""Writers for `gradcli mvt`: the mean value theorem's verdict, the slope and every c.

JSON carries each closed form as text gradcli reads back ("2*sqrt(3)/3") with its
double under the same key and `_value`; the human formats print the book's
form (2√3/3). With --steps the method comes first, a line per step.
"""
from __future__ import annotations

from ..numbers import json_number, number_text


def _closed(v) -> str:
    from ..closedtext import printed_text
    return printed_text(v)


def _c_json(c) -> str:
    if isinstance(c, float):
        return repr(c)
    from ..symbolic.realforms import json_text
    return json_text(c)


def _interval(m, closed: bool) -> str:
    left, right = ("[", "]") if closed else ("(", ")")
    return f"{left}{_closed(m.a)}, {_closed(m.b)}{right}"


def _c_list(m) -> str:
    from ..tasks.mvt import c_text
    if m.every:
        return f"every c in {_interval(m, False)}"
    return " and ".join(f"c = {c_text(c)}" for c in m.c) or "none"


def mvt_record(m, precision=None) -> dict:
    from ..symbolic.realforms import json_text
    rec = {"expression": m.expression, "read_as": m.read_as,
           "over": {m.x: [json_text(m.a), json_text(m.b)]}, "applies": m.applies}
    if not m.applies:
        rec["reason"] = m.reason
        starts = {lo for lo, _, _, _ in m.spans}
        rec["where"] = [json_text(p) for p in m.where if p not in starts]
        if m.spans:
            rec["where_intervals"] = [
                f"{'(' if lo_open else '['}{json_text(lo)}, {json_text(hi)}"
                f"{')' if hi_open else ']'}" for lo, hi, lo_open, hi_open in m.spans]
    if m.slope is not None:
        rec["slope"] = json_text(m.slope)
        rec["slope_value"] = json_number(float(m.slope), precision)
        rec["rolle"] = bool(m.rolle)
    if m.applies:
        rec["c"] = [_c_json(c) for c in m.c]
        rec["c_value"] = [json_number(float(c), precision) for c in m.c]
        rec["exact"] = m.exact
        if m.every:
            rec["every_c"] = True
    if m.show_steps:
        rec["steps"] = list(m.steps)
    if m.warnings:
        rec["warnings"] = list(m.warnings)
    return rec


def mvt_rows(m, precision=None) -> list:
    rows = [(f"step {i}", s) for i, s in enumerate(m.steps, 1)] if m.show_steps else []
    theorem = "Rolle's theorem" if m.rolle else "mean value theorem"
    rows.append((theorem, "applies" if m.applies else "does not apply"))
    if not m.applies:
        rows.append(("reason", m.reason))
    if m.slope is not None:
        rows.append(("secant slope", _closed(m.slope)))
    if m.applies:
        rows.append(("c", _c_list(m)))
        if not m.every and any(not isinstance(c, float) and not c.is_Rational for c in m.c):
            rows.append(("c ≈", ", ".join(number_text(float(c), precision) for c in m.c)))
    return rows


def mvt_markdown(m, precision=None) -> str:
    theorem = "Rolle's theorem" if m.rolle else "The mean value theorem"
    lines = [f"**{theorem}** for `{m.read_as}` on {_interval(m, True)}:", ""]
    lines += [f"{i}. {s}" for i, s in enumerate(m.steps, 1)]
    lines.append("")
    if m.applies:
        lines.append(f"It applies: {_c_list(m)}.")
    else:
        lines.append(f"It does not apply: {m.reason}.")
    return "\n".join(lines) + "\n"


def mvt_latex(m, precision=None) -> str:
    import sympy as S
    if not m.applies:
        return f"% does not apply: {m.reason}\n\\text{{does not apply}}\n"
    if m.every:
        return f"c \\in {_interval(m, False)}\n"
    parts = [S.latex(c) if not isinstance(c, float) else f"{c:.10g}" for c in m.c]
    slope = S.latex(m.slope)
    return (f"\\[ f'(c) = {slope} \\implies "
            + (", \\quad ".join(f"c = {p}" for p in parts) or "\\text{no } c") + " \\]\n")
