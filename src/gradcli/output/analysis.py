"""Writers for `analyze` and `extrema`: exact numbers and intervals as a book prints them.

Numbers are closed forms (closedtext.closed_text: fractions, π, roots) that
gradcli reads back, with their doubles under `_value` keys in JSON; an interval
is `(-inf, -1)`, a union `(-inf, -1) U (1, inf)`, an empty answer `none`.
"""
from __future__ import annotations

from ..intervals import equals_sign, interval_text, is_long, point_text, union_text
from ..numbers import json_number


def _json(v) -> str:
    return point_text(v, json=True)


def _json_interval(pair) -> str:
    return interval_text(pair, json=True)


def double(v):
    return json_number(float(v.evalf(30)))


def _human(v, precision=None) -> str:
    """point_text for a person: a number known only by its digits (a zero of f' found by
    a search) rounded as the format rounds, a closed form as the book prints it."""
    return point_text(v, digits=precision)


def points_text(points, name: str, precision=None) -> str:
    return ", ".join(f"{name} {equals_sign(c)} {_human(c, precision)}" for c, _ in points) \
        or "none"


def _point_record(points, name) -> list:
    return [{name: _json(c), f"{name}_value": double(c), "value": _json(v),
             "value_value": double(v)} for c, v in points]


def _over_text(a, precision=None) -> str:
    lo, hi = a.over
    return f"{_human(lo, precision)} < {a.variable} < {_human(hi, precision)}"


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


def _extremum_text(points, x, precision=None) -> str:
    return ", ".join(f"{x} {equals_sign(c)} {_human(c, precision)} "
                     f"(f {equals_sign(v)} {_human(v, precision)})" for c, v in points) or "none"


def analyze_rows(a, precision=None, steps=False) -> list:
    x = a.variable
    rows = []
    if a.over:
        rows.append(("on", _over_text(a, precision)))
    if steps:
        rows += _step_rows(a, precision)
    rows += [("critical numbers", points_text(a.critical, x, precision)),
             ("increasing", union_text(a.increasing, digits=precision)),
             ("decreasing", union_text(a.decreasing, digits=precision)),
             ("relative max", _extremum_text(a.relative_max, x, precision)),
             ("relative min", _extremum_text(a.relative_min, x, precision)),
             ("concave up", union_text(a.concave_up, digits=precision)),
             ("concave down", union_text(a.concave_down, digits=precision)),
             ("inflection", _extremum_text(a.inflection, x, precision))]
    return rows


_SIGN_WORDS = {1: ("+", "increasing", "concave up"), -1: ("-", "decreasing", "concave down"),
               0: ("0", "constant", "straight")}


def _step_rows(a, precision=None) -> list:
    st = a.study
    x = a.variable
    zeros = [c for c, _ in a.critical if c not in st.no_derivative]
    domain = [(c.start, c.end) for c in st.components]
    rows = [("domain", union_text(domain, digits=precision)),
            ("f'", a.derivative),
            ("f' = 0 at", ", ".join(f"{x} = {_human(c, precision)}" for c in zeros)
             or "nowhere"),
            ("f' undefined at", ", ".join(f"{x} = {_human(c, precision)}"
                                          for c in st.undefined) or "nowhere in the domain")]
    for s in st.first:
        sign, word, _ = _SIGN_WORDS[s.sign]
        span = interval_text((s.a, s.b), digits=precision)
        rows.append((f"f' on {span}", f"{sign}\tf {word}"))
    rows.append(("first-derivative test",
                 "; ".join([f"max at {x} = {_human(c, precision)} (f' + to -)"
                            for c, _ in a.relative_max]
                           + [f"min at {x} = {_human(c, precision)} (f' - to +)"
                              for c, _ in a.relative_min]) or "no relative extremum"))
    rows.append(("f''", a.second_derivative))
    for s in st.second:
        sign, _, word = _SIGN_WORDS[s.sign]
        span = interval_text((s.a, s.b), digits=precision)
        rows.append((f"f'' on {span}", f"{sign}\t{word}"))
    return rows


def analyze_markdown(a, precision=None, steps=False) -> str:
    lines = [f"**Curve analysis** of `{a.read_as}`"
             + (f" on {_over_text(a, precision)}" if a.over else ""), "", "| | |", "|---|---|"]
    lines += [f"| {k} | {v.replace(chr(9), ' ')} |" for k, v in analyze_rows(a, precision,
                                                                             steps)]
    return "\n".join(lines) + "\n"


def _latex_interval_union(pairs, precision=None) -> str:
    if not pairs:
        return r"\varnothing"
    return r" \cup ".join(f"({_latex_point(p[0], precision)}, {_latex_point(p[1], precision)})"
                          for p in pairs)


def _latex_point(v, precision=None) -> str:
    import sympy as S
    if v in (S.oo, -S.oo):
        return r"\infty" if v == S.oo else r"-\infty"
    if v.is_Float or is_long(v):  # known, or shown, only by its digits
        from ..numbers import number_text
        return number_text(float(v.evalf(30)), precision or (None if v.is_Float else 6))
    return S.latex(v)


_LATEX_SIGN = {False: "=", True: r"\approx"}


def analyze_latex(a, precision=None, steps=False) -> str:
    x = a.variable

    def pts(points):
        return ", ".join(f"{x} {_LATEX_SIGN[is_long(c)]} {_latex_point(c, precision)}"
                         for c, _ in points) or r"\text{none}"
    return "\n".join([
        r"\begin{aligned}",
        rf"&\text{{increasing on }} {_latex_interval_union(a.increasing, precision)}\\",
        rf"&\text{{decreasing on }} {_latex_interval_union(a.decreasing, precision)}\\",
        rf"&\text{{relative maximum at }} {pts(a.relative_max)}\\",
        rf"&\text{{relative minimum at }} {pts(a.relative_min)}\\",
        rf"&\text{{concave up on }} {_latex_interval_union(a.concave_up, precision)}\\",
        rf"&\text{{concave down on }} {_latex_interval_union(a.concave_down, precision)}\\",
        rf"&\text{{inflection at }} {pts(a.inflection)}",
        r"\end{aligned}"]) + "\n"


# ---------------------------------------------------------------- extrema

def _at_text(at: dict, precision=None) -> str:
    return ", ".join(f"{k} = {_human(v, precision)}" for k, v in at.items())


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


def _abs_text(e, precision=None) -> str:
    return (f"{_human(e.value, precision)} at "
            + " and ".join(_at_text(at, precision) for at in e.at))


def extrema_rows(r, precision=None, steps=False) -> list:
    rows = [("on", ", ".join(f"{_human(lo, precision)} ≤ {k} ≤ {_human(hi, precision)}"
                             for k, (lo, hi) in r.region.items()))]
    if steps:
        rows.append(("f'", r.derivative))
        inside = [c for c in r.candidates if c.source == "interior"]
        rows.append(("critical numbers inside",
                     "; ".join(_at_text(c.at, precision) for c in inside) or "none"))
        rows += [(f"f({', '.join(_human(v, precision) for v in c.at.values())})",
                  f"{_human(c.value, precision)}\t{c.source}") for c in r.candidates]
    rows += [("absolute max", _abs_text(r.max, precision)),
             ("absolute min", _abs_text(r.min, precision))]
    return rows


def extrema_markdown(r, precision=None, steps=False) -> str:
    names = list(r.region)
    lines = [f"**Absolute extrema** of `{r.read_as}` on "
             + ", ".join(f"{_human(lo, precision)} ≤ {k} ≤ {_human(hi, precision)}"
                         for k, (lo, hi) in r.region.items()), "",
             "| " + " | ".join(names) + " | f | from |",
             "|" + "---|" * (len(names) + 2)]
    for c in r.candidates:
        lines.append("| " + " | ".join(_human(c.at[n], precision) for n in names)
                     + f" | {_human(c.value, precision)} | {c.source} |")
    lines += ["", f"absolute max {_abs_text(r.max, precision)}; "
                  f"absolute min {_abs_text(r.min, precision)}"]
    return "\n".join(lines) + "\n"


def extrema_latex(r, precision=None, steps=False) -> str:
    def ext(e):
        return (_latex_point(e.value, precision) + r"\text{ at }" + r"\text{ and }".join(
            ", ".join(f"{k} = {_latex_point(v, precision)}" for k, v in at.items())
            for at in e.at))
    return "\n".join([r"\begin{aligned}",
                      rf"&\text{{absolute maximum }} {ext(r.max)}\\",
                      rf"&\text{{absolute minimum }} {ext(r.min)}",
                      r"\end{aligned}"]) + "\n"
