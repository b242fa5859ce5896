"""Writers for `analyze` and `extrema`: exact numbers and intervals as a book prints them.

Numbers are closed forms (closedtext.closed_text: fractions, π, roots) that
gradcli reads back, with their doubles under `_value` keys in JSON; an interval
is `(-inf, -1)`, a union `(-inf, -1) U (1, inf)`, an empty answer `none`.
"""
from __future__ import annotations

from ..intervals import interval_text, point_text, union_text
from ..numbers import json_number


def _json(v) -> str:
    return point_text(v, json=True)


def _json_interval(pair) -> str:
    return interval_text(pair, json=True)


def double(v):
    return json_number(float(v.evalf(30)))


def points_text(points, name: str) -> str:
    return ", ".join(f"{name} = {point_text(c)}" for c, _ in points) or "none"


def _point_record(points, name) -> list:
    return [{name: _json(c), f"{name}_value": double(c), "value": _json(v),
             "value_value": double(v)} for c, v in points]


def _over_text(a) -> str:
    lo, hi = a.over
    return f"{point_text(lo)} < {a.variable} < {point_text(hi)}"


# ---------------------------------------------------------------- analyze

def analyze_record(a, precision=None, steps=False) -> dict:
    x = a.variable
    record = {"expression": a.expression, "read_as": a.read_as,
              **({"over": [_json(a.over[0]), _json(a.over[1])]} if a.over else {}),
              "domain": [_json_interval((c.start, c.end)) for c in a.study.components],
              "derivative": a.derivative, "second_derivative": a.second_derivative,
              "critical": [_json(c) for c, _ in a.critical],
              "critical_value": [double(c) for c, _ in a.critical],
              "increasing": [_json_interval(p) for p in a.increasing],
              "decreasing": [_json_interval(p) for p in a.decreasing],
              "relative_max": _point_record(a.relative_max, x),
              "relative_min": _point_record(a.relative_min, x),
              "concave_up": [_json_interval(p) for p in a.concave_up],
              "concave_down": [_json_interval(p) for p in a.concave_down],
              "inflection": _point_record(a.inflection, x),
              "complete": a.study.complete}
    if steps:
        record["steps"] = {"f'": _chart_record(a, a.study.first),
                           "f''": _chart_record(a, a.study.second)}
    if a.warnings:
        record["warnings"] = list(a.warnings)
    return record


def _chart_record(a, spans) -> list:
    return [{"interval": _json_interval((s.a, s.b)), "sign": "+-0"[[1, -1, 0].index(s.sign)]}
            for s in spans]


def _extremum_text(points, x) -> str:
    return ", ".join(f"{x} = {point_text(c)} (f = {point_text(v)})" for c, v in points) \
        or "none"


def analyze_rows(a, precision=None, steps=False) -> list:
    x = a.variable
    rows = []
    if a.over:
        rows.append(("on", _over_text(a)))
    if steps:
        rows += _step_rows(a)
    rows += [("critical numbers", points_text(a.critical, x)),
             ("increasing", union_text(a.increasing)),
             ("decreasing", union_text(a.decreasing)),
             ("relative max", _extremum_text(a.relative_max, x)),
             ("relative min", _extremum_text(a.relative_min, x)),
             ("concave up", union_text(a.concave_up)),
             ("concave down", union_text(a.concave_down)),
             ("inflection", _extremum_text(a.inflection, x))]
    return rows


_SIGN_WORDS = {1: ("+", "increasing", "concave up"), -1: ("-", "decreasing", "concave down"),
               0: ("0", "constant", "straight")}


def _step_rows(a) -> list:
    st = a.study
    x = a.variable
    zeros = [c for c, _ in a.critical if c not in st.no_derivative]
    rows = [("domain", union_text([(c.start, c.end) for c in st.components])),
            ("f'", a.derivative),
            ("f' = 0 at", ", ".join(f"{x} = {point_text(c)}" for c in zeros) or "nowhere"),
            ("f' undefined at", ", ".join(f"{x} = {point_text(c)}" for c in st.undefined)
             or "nowhere in the domain")]
    for s in st.first:
        sign, word, _ = _SIGN_WORDS[s.sign]
        rows.append((f"f' on {interval_text((s.a, s.b))}", f"{sign}\tf {word}"))
    rows.append(("first-derivative test",
                 "; ".join([f"max at {x} = {point_text(c)} (f' + to -)"
                            for c, _ in a.relative_max]
                           + [f"min at {x} = {point_text(c)} (f' - to +)"
                              for c, _ in a.relative_min]) or "no relative extremum"))
    rows.append(("f''", a.second_derivative))
    for s in st.second:
        sign, _, word = _SIGN_WORDS[s.sign]
        rows.append((f"f'' on {interval_text((s.a, s.b))}", f"{sign}\t{word}"))
    return rows


def analyze_markdown(a, precision=None, steps=False) -> str:
    lines = [f"**Curve analysis** of `{a.read_as}`"
             + (f" on {_over_text(a)}" if a.over else ""), "", "| | |", "|---|---|"]
    lines += [f"| {k} | {v.replace(chr(9), ' ')} |" for k, v in analyze_rows(a, precision,
                                                                             steps)]
    return "\n".join(lines) + "\n"


def _latex_interval_union(pairs) -> str:
    if not pairs:
        return r"\varnothing"
    return r" \cup ".join(f"({_latex_point(p[0])}, {_latex_point(p[1])})" for p in pairs)


def _latex_point(v) -> str:
    import sympy as S
    if v in (S.oo, -S.oo):
        return r"\infty" if v == S.oo else r"-\infty"
    return S.latex(v)


def analyze_latex(a, precision=None, steps=False) -> str:
    x = a.variable

    def pts(points):
        return ", ".join(f"{x} = {_latex_point(c)}" for c, _ in points) or r"\text{none}"
    return "\n".join([
        r"\begin{aligned}",
        rf"&\text{{increasing on }} {_latex_interval_union(a.increasing)}\\",
        rf"&\text{{decreasing on }} {_latex_interval_union(a.decreasing)}\\",
        rf"&\text{{relative maximum at }} {pts(a.relative_max)}\\",
        rf"&\text{{relative minimum at }} {pts(a.relative_min)}\\",
        rf"&\text{{concave up on }} {_latex_interval_union(a.concave_up)}\\",
        rf"&\text{{concave down on }} {_latex_interval_union(a.concave_down)}\\",
        rf"&\text{{inflection at }} {pts(a.inflection)}",
        r"\end{aligned}"]) + "\n"


# ---------------------------------------------------------------- extrema

def _at_text(at: dict) -> str:
    return ", ".join(f"{k} = {point_text(v)}" for k, v in at.items())


def _extremum_record(e) -> dict:
    return {"value": _json(e.value), "value_value": double(e.value),
            "at": [{k: _json(v) for k, v in at.items()} for at in e.at],
            "at_value": [{k: double(v) for k, v in at.items()} for at in e.at]}


def extrema_record(r, precision=None, steps=False) -> dict:
    record = {"expression": r.expression, "read_as": r.read_as,
              "over": {k: [_json(lo), _json(hi)] for k, (lo, hi) in r.region.items()},
              "derivative": r.derivative,
              "candidates": [{"at": {k: _json(v) for k, v in c.at.items()},
                              "at_value": {k: double(v) for k, v in c.at.items()},
                              "value": _json(c.value), "value_value": double(c.value),
                              "from": c.source} for c in r.candidates],
              "max": _extremum_record(r.max), "min": _extremum_record(r.min),
              "complete": r.complete}
    if r.warnings:
        record["warnings"] = list(r.warnings)
    return record


def _abs_text(e) -> str:
    return f"{point_text(e.value)} at " + " and ".join(_at_text(at) for at in e.at)


def extrema_rows(r, precision=None, steps=False) -> list:
    rows = [("on", ", ".join(f"{point_text(lo)} ≤ {k} ≤ {point_text(hi)}"
                             for k, (lo, hi) in r.region.items()))]
    if steps:
        rows.append(("f'", r.derivative))
        inside = [c for c in r.candidates if c.source == "interior"]
        rows.append(("critical numbers inside",
                     "; ".join(_at_text(c.at) for c in inside) or "none"))
        rows += [(f"f({', '.join(point_text(v) for v in c.at.values())})",
                  f"{point_text(c.value)}\t{c.source}") for c in r.candidates]
    rows += [("absolute max", _abs_text(r.max)), ("absolute min", _abs_text(r.min))]
    return rows


def extrema_markdown(r, precision=None, steps=False) -> str:
    names = list(r.region)
    lines = [f"**Absolute extrema** of `{r.read_as}` on "
             + ", ".join(f"{point_text(lo)} ≤ {k} ≤ {point_text(hi)}"
                         for k, (lo, hi) in r.region.items()), "",
             "| " + " | ".join(names) + " | f | from |",
             "|" + "---|" * (len(names) + 2)]
    for c in r.candidates:
        lines.append("| " + " | ".join(point_text(c.at[n]) for n in names)
                     + f" | {point_text(c.value)} | {c.source} |")
    lines += ["", f"absolute max {_abs_text(r.max)}; absolute min {_abs_text(r.min)}"]
    return "\n".join(lines) + "\n"


def extrema_latex(r, precision=None, steps=False) -> str:
    def ext(e):
        return (_latex_point(e.value) + r"\text{ at }" + r"\text{ and }".join(
            ", ".join(f"{k} = {_latex_point(v)}" for k, v in at.items()) for at in e.at))
    return "\n".join([r"\begin{aligned}",
                      rf"&\text{{absolute maximum }} {ext(r.max)}\\",
                      rf"&\text{{absolute minimum }} {ext(r.min)}",
                      r"\end{aligned}"]) + "\n"
