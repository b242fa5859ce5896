"""Writers for `extrema` in several variables: on a rectangle or region, and by Lagrange.

Every number is a closed form gradcli reads back (closedtext), its double under
a `_value` key in JSON. A side with no extremum prints `none` and its reason.
With --steps: the systems solved (grad f = 0, each boundary piece's condition,
the Lagrange system) and the table of candidates, as a book lays them out.
"""
from __future__ import annotations

from ..tasks.regions import number_text_of as point_text, point_tuple as _point, side_text
from .analysis import double

_LETTER = {"lambda": "λ", "mu": "μ"}


def _json(v) -> str:
    return point_text(v, json=True)


def _region(r) -> str:
    if r.kind == "over":
        return ", ".join(f"{point_text(lo)} ≤ {k} ≤ {point_text(hi)}"
                         for k, (lo, hi) in r.box.items())
    return r.region_text


def _label(r) -> str:
    return "subject to" if r.kind == "subject-to" else "on"


def _side_record(side):
    if side.value is None:
        return "none"
    at = [{k: _json(v) for k, v in a.items()} for a in side.at]
    at += [{"along": a} for a in side.along]
    return {"value": _json(side.value), "value_value": double(side.value), "at": at,
            "at_value": [{k: double(v) for k, v in a.items()} for a in side.at]}


def region_record(r, precision=None, steps=False) -> dict:
    record = {"expression": r.expression, "read_as": r.read_as, "variables": list(r.names)}
    if r.kind == "over":
        record["over"] = {k: [_json(lo), _json(hi)] for k, (lo, hi) in r.box.items()}
    elif r.kind == "where":
        record["where"] = r.region_text
    else:
        record["subject_to"] = list(r.pieces)
    record["gradient"] = list(r.gradient)
    candidates = []
    for c in r.candidates:
        item = {"at": {k: _json(v) for k, v in c.at.items()},
                "at_value": {k: double(v) for k, v in c.at.items()},
                "value": _json(c.value), "value_value": double(c.value),
                "from": c.source}
        if c.piece and r.kind != "subject-to":
            item["on"] = c.piece
        for m, v in c.multipliers.items():
            item[m], item[f"{m}_value"] = _json(v), double(v)
        if c.along:
            item["along"] = c.along
        candidates.append(item)
    record["candidates"] = candidates
    record["max"], record["min"] = _side_record(r.max), _side_record(r.min)
    why = {k: s.why for k, s in (("max", r.max), ("min", r.min)) if s.value is None}
    if why:
        record["why"] = why
    record["complete"] = r.complete
    if steps:
        record["systems"] = [{"for": what, "equations": list(eqs)} for what, eqs in r.systems]
    if r.warnings:
        record["warnings"] = list(r.warnings)
    return record


def _candidate_line(r, c, precision=None) -> str:
    extra = "".join(f", {_LETTER[m]} = {point_text(v, precision)}"
                    for m, v in c.multipliers.items())
    where = c.source if r.kind == "subject-to" else (
        f"{c.source}, {c.piece}" if c.source == "boundary" else c.source)
    if c.along:
        where += " (all of it)"
    return f"{point_text(c.value, precision)}\t{where}{extra}"


def region_rows(r, precision=None, steps=False) -> list:
    rows = [(_label(r), _region(r))]
    if steps:
        rows.append(("grad f", "(" + ", ".join(r.gradient) + ")"))
        for what, eqs in r.systems:
            rows.append((what, "; ".join(eqs)))
        rows += [(f"f{_point(c.at, precision)}", _candidate_line(r, c, precision))
                 for c in r.candidates]
    rows += [("absolute max", side_text(r.max, precision)),
             ("absolute min", side_text(r.min, precision))]
    return rows


def region_markdown(r, precision=None, steps=False) -> str:
    names = list(r.names)
    mults = [m for m in ("lambda", "mu") if any(m in c.multipliers for c in r.candidates)]
    lines = [f"**Absolute extrema** of `{r.read_as}` {_label(r)} {_region(r)}", ""]
    if steps:
        lines += [f"- {what}: " + "; ".join(f"`{e}`" for e in eqs) for what, eqs in r.systems]
        lines.append("")
    lines += ["| " + " | ".join(names + [_LETTER[m] for m in mults]) + " | f | from |",
              "|" + "---|" * (len(names) + len(mults) + 2)]
    for c in r.candidates:
        source = c.source + (f" ({c.piece})" if c.source == "boundary" else "")
        lines.append("| " + " | ".join([point_text(c.at[n], precision) for n in names]
                                        + [point_text(c.multipliers[m], precision)
                                           if m in c.multipliers
                                           else "" for m in mults])
                     + f" | {point_text(c.value, precision)} | {source} |")
    lines += ["", f"absolute max {side_text(r.max, precision)}; "
                  f"absolute min {side_text(r.min, precision)}"]
    return "\n".join(lines) + "\n"


def _latex_side(side, precision=None) -> str:
    import sympy as S
    from .analysis import _latex_point as exact

    def _latex_point(v):
        return point_text(v, precision) if v.has(S.CRootOf) else exact(v)
    if side.value is None:
        return r"\text{none}"
    where = [r"\left(" + ", ".join(_latex_point(v) for v in at.values()) + r"\right)"
             for at in side.at]
    along = [r"\text{along } " + a.replace("<=", r"\le").replace("√", r"\sqrt") for a in side.along]
    text = _latex_point(side.value)
    if where:
        text += r"\text{ at }" + r"\text{ and }".join(where)
    if along:
        text += (r"\text{ and }" if where else r"\ ") + r"\text{ and }".join(along)
    return text


def region_latex(r, precision=None, steps=False) -> str:
    return "\n".join([r"\begin{aligned}",
                      rf"&\text{{absolute maximum }} {_latex_side(r.max, precision)}\\",
                      rf"&\text{{absolute minimum }} {_latex_side(r.min, precision)}",
                      r"\end{aligned}"]) + "\n"
