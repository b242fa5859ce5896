"""Writers for `gradcli implicit --order 2`: d²y/dx² in x and y, and its value at a point.

JSON carries closed forms as text gradcli reads back ("-25/y^3", "-25/64") with
the double of a value under `value_value`; the human formats print the book's
form. When the curve's equation shortened the formula, the form before it is
given too (`"unsimplified"`), since a book may print either.
"""
from __future__ import annotations

from ..numbers import json_number


def _book(v) -> str:
    from ..closedtext import printed_text
    return printed_text(v)


def _json(v) -> str:
    from ..symbolic.realforms import json_text
    return json_text(v)


def _at(r) -> str:
    return ", ".join(f"{k} = {_book(v)}" for k, v in r.at.items())


def _names(r) -> tuple:
    return f"d{r.first.y}/d{r.first.x}", f"d²{r.first.y}/d{r.first.x}²"


def implicit2_record(r, precision=None) -> dict:
    f = r.first
    rec = {"equation": f.equation, "read_as": f.read_as, "x": f.x, "y": f.y, "order": 2,
           "derivative": f.formula, "second_derivative": _json(r.formula)}
    if r.used_curve:
        rec["unsimplified"] = _json(r.raw)
    if r.at is not None:
        rec["at"] = {k: _json(v) for k, v in r.at.items()}
        rec["value"] = _json(r.value)
        rec["value_value"] = json_number(float(r.value), precision)
    if r.warnings:
        rec["warnings"] = list(r.warnings)
    return rec


def implicit2_rows(r, precision=None) -> list:
    first, second = _names(r)
    rows = [(first, r.first.formula), (second, _book(r.formula))]
    if r.used_curve:
        rows.append(("before using the curve", _book(r.raw)))
    if r.at is not None:
        rows.append((f"{second} at {_at(r)}", _book(r.value)))
    return rows


def implicit2_markdown(r, precision=None) -> str:
    first, second = _names(r)
    lines = [f"**Implicit differentiation, second order**, of `{r.first.read_as}`:", "",
             f"- {first} = `{r.first.formula}`",
             f"- {second} = d/d{r.first.x} ({first}), with {first} put back in: "
             f"`{_book(r.raw)}`"]
    if r.used_curve:
        lines.append(f"- with the curve's equation: `{_book(r.formula)}`")
    if r.at is not None:
        lines.append(f"- at {_at(r)}: {_book(r.value)}")
    return "\n".join(lines) + "\n"


def implicit2_latex(r, precision=None) -> str:
    import sympy as S
    f = r.first
    out = (f"\\[ \\frac{{d^2{f.y}}}{{d{f.x}^2}} = {S.latex(r.formula)} \\]\n")
    if r.at is not None:
        out += f"% at {_at(r)}: {_book(r.value)}\n"
    return out
