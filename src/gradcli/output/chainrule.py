"""Writers for `gradcli diff EXPR --with ...`: the chain rule's derivatives in two forms.

JSON: `"derivatives"` (in the parameters, simplified) and `"mixed"` (the book's
form, outer and inner letters together), each keyed by parameter, as text
gradcli reads back; with --at, `"values"` exact and their doubles under
`"values_value"`. With --steps the record also has `"steps"`: the chain-rule sum
and each factor. The human formats print the book's form (√, π).
"""
from __future__ import annotations

from ..numbers import json_number
from ..tasks.chainrule import mixed_text


def _book(v) -> str:
    from ..closedtext import printed_text
    return printed_text(v)


def _json(v) -> str:
    from ..symbolic.realforms import json_text
    return json_text(v)


def _d(r, top, p) -> str:
    return f"d{top}/d{p}" if r.total else f"∂{top}/∂{p}"


def _link(r, v, p) -> str:
    """∂z/∂x·∂x/∂s, or ∂z/∂t alone for the parameter f names itself."""
    if v == p:
        return f"∂{r.z}/∂{p}"
    inner = f"d{v}/d{p}" if r.total else f"∂{v}/∂{p}"
    return f"∂{r.z}/∂{v}·{inner}"


def _factor(text: str) -> str:
    return text if text.replace("_", "").isalnum() else f"({text})"


def step_lines(r, p) -> list:
    """The book's worked example for one parameter: the rule, its factors, the sum."""
    lines = [f"{_d(r, r.z, p)} = " + " + ".join(_link(r, v, p) for v, _, _ in r.terms(p))]
    for v, fv, dv in r.terms(p):
        part = f"∂{r.z}/∂{v} = {_book(fv)}"
        if v != p:
            part += f",  {('d' if r.total else '∂') + v}/{('d' if r.total else '∂') + p} = " \
                    f"{_book(dv)}"
        lines.append(part)
    lines.append(f"{_d(r, r.z, p)} = " + " + ".join(
        f"{_factor(_book(fv))}·{_factor(_book(dv))}" if v != p else _factor(_book(fv))
        for v, fv, dv in r.terms(p)))
    lines.append(f"    = {mixed_text(r, p)}")
    subs = ", ".join(f"{v} = {r.inner_text[v]}" for v in r.inner)
    lines.append(f"    = {_book(r.derivatives[p])}   (with {subs})")
    if r.at is not None:
        lines.append(f"at {_at(r)}: {_d(r, r.z, p)} = {_book(r.values[p])}")
    return lines


def _at(r) -> str:
    return ", ".join(f"{k} = {_book(v)}" for k, v in r.at.items())


def chainrule_record(r, precision=None, steps=False) -> dict:
    rec = {"expression": r.expression, "read_as": r.read_as,
           "with": {v: _json(e) for v, e in r.inner.items()},
           "parameters": list(r.params),
           "partials": {v: _json(e) for v, e in r.partials.items()},
           "derivatives": {p: _json(r.derivatives[p]) for p in r.wrt},
           "mixed": {p: mixed_text(r, p, _json) for p in r.wrt}}
    if r.at is not None:
        rec["at"] = {k: _json(v) for k, v in r.at.items()}
        rec["values"] = {p: _json(r.values[p]) for p in r.wrt}
        rec["values_value"] = {p: json_number(float(r.values[p]), precision) for p in r.wrt}
    if steps:
        rec["steps"] = {p: step_lines(r, p) for p in r.wrt}
    if r.warnings:
        rec["warnings"] = list(r.warnings)
    return rec


def chainrule_rows(r, precision=None, steps=False) -> list:
    rows = []
    for p in r.wrt:
        if steps:
            rows += [("steps" if i == 0 else "", line) for i, line in enumerate(step_lines(r, p))]
        rows.append((_d(r, r.z, p), _book(r.derivatives[p])))
        rows.append(("mixed", mixed_text(r, p)))
        if r.at is not None:
            rows.append((f"at {_at(r)}", _book(r.values[p])))
    return rows


def chainrule_markdown(r, precision=None, steps=False) -> str:
    subs = ", ".join(f"`{v} = {t}`" for v, t in r.inner_text.items())
    lines = [f"**Chain rule** for `{r.z} = {r.read_as}` with {subs}:", ""]
    for p in r.wrt:
        if steps:
            lines += [f"    {line}" for line in step_lines(r, p)] + [""]
        lines.append(f"- {_d(r, r.z, p)} = `{_book(r.derivatives[p])}` "
                     f"(mixed form: `{mixed_text(r, p)}`)")
        if r.at is not None:
            lines.append(f"- at {_at(r)}: {_d(r, r.z, p)} = `{_book(r.values[p])}`")
    return "\n".join(lines) + "\n"


def chainrule_latex(r, precision=None, steps=False) -> str:
    import sympy as S
    lines = []
    for p in r.wrt:
        d = (r"\frac{d%s}{d%s}" if r.total else r"\frac{\partial %s}{\partial %s}") % (r.z, p)
        mixed = " + ".join(S.latex(fv * dv) for _, fv, dv in r.terms(p)).replace("+ -", "- ")
        line = f"\\[ {d} = {mixed} = {S.latex(r.derivatives[p])}"
        if r.at is not None:
            line += f", \\quad {d}\\Big|_{{{', '.join(f'{k}={S.latex(v)}' for k, v in r.at.items())}}} = {S.latex(r.values[p])}"
        lines.append(line + " \\]")
    return "\n".join(lines) + "\n"
