"""Printing div, curl, the Laplacian, the Jacobian determinant, and partials named as f_xyy.

Formulas print as `diff` prints them; values at a point are closed forms
(`5/2`, `√3/2`) with their doubles under `_value` in JSON.
"""
from __future__ import annotations

from ..language.printer import latex_name, to_latex

_NAMES = {"div": "div F", "curl": "curl F", "laplacian": "∇²f", "jacobian_det": "det J"}


def _at_text(v) -> str:
    from ..autodiff.closed import is_closed
    if is_closed(v):
        from ..closedtext import closed_text
        return closed_text(v)
    from ..numbers import number_text
    return number_text(v)


def _formula_text(formula) -> str:
    if isinstance(formula, list):
        return "[" + ", ".join(_one_line(f.text) for f in formula) + "]"
    return _one_line(formula.text)


def _one_line(text: str) -> str:
    return text.replace("\n", "; ")


def _value_text(value) -> str:
    return "[" + ", ".join(value) + "]" if isinstance(value, list) else value


def field_rows(result, precision=None) -> list:
    """(name, formula[, value]) for each result, after the variables."""
    rows = [("variables", ", ".join(result.variables))]
    if result.at:
        rows.append(("at", ", ".join(f"{k} = {_at_text(v)}" for k, v in result.at.items())))
    for kind, formula in result.results.items():
        row = (_NAMES[kind], _formula_text(formula))
        if result.values is not None:
            row += (_value_text(result.values[kind]),)
        rows.append(row)
    return rows


def field_record(result, precision=None) -> dict:
    """The JSON object: expression, read_as, variables, each result, and values at --at."""
    record = {"expression": result.expression, "read_as": result.read_as,
              "variables": list(result.variables)}
    for kind, formula in result.results.items():
        record[kind] = [_one_line(f.text) for f in formula] if isinstance(formula, list) \
            else _one_line(formula.text)
    if result.values is not None:
        record["at"] = {k: _at_text(v) for k, v in result.at.items()}
        values = {}
        for kind, value in result.values.items():
            values[kind] = value
            values[f"{kind}_value"] = result.numbers[kind]
        record["values"] = values
    if result.warnings:
        record["warnings"] = list(result.warnings)
    return record


def field_markdown(result, precision=None) -> str:
    lines = [f"**Field** `{result.read_as}` in ({', '.join(result.variables)})", "",
             "| | formula |" + (" value |" if result.values is not None else ""),
             "|---|---|" + ("---|" if result.values is not None else "")]
    for row in field_rows(result, precision)[1 + bool(result.at):]:
        lines.append("| " + " | ".join(f"`{c}`" if i == 1 else c for i, c in enumerate(row))
                     + " |")
    if result.at:
        lines += ["", "at " + field_rows(result, precision)[1][1]]
    return "\n".join(lines) + "\n"


def _latex_of(formula) -> str:
    *named, last = formula.program.statements
    if named:
        return r"\text{" + _one_line(formula.text).replace("_", r"\_") + "}"
    return to_latex(last.expr)


def field_latex(result, precision=None) -> str:
    v = ", ".join(latex_name(n) for n in result.variables)
    heads = {"div": r"\nabla \cdot \mathbf{F}", "curl": r"\nabla \times \mathbf{F}",
             "laplacian": r"\nabla^2 f",
             "jacobian_det": r"\frac{\partial(%s)}{\partial(%s)}" % (
                 ", ".join(["u", "v", "w"][:len(result.variables)]), v)}
    lines = []
    for kind, formula in result.results.items():
        if isinstance(formula, list):
            body = r"\left\langle " + ", ".join(_latex_of(f) for f in formula) + r" \right\rangle"
        else:
            body = _latex_of(formula)
        line = f"{heads[kind]} &= {body}"
        if result.values is not None:
            line += " = " + _value_text(result.values[kind])
        lines.append(line)
    return "\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}\n"


# ------------------------------------------------------------- diff --partial

def _clairaut_rows(result) -> list:
    f = result.result_name
    return [("Clairaut", f"{f}_{a} {'=' if same else '≠'} {f}_{b}")
            for a, b, same in getattr(result, "clairaut", [])]


def partial_label(result, d) -> str:
    return f"{result.result_name}_{d.key}"


def partials_rows(result, precision=None) -> list:
    from ..numbers import number_text
    rows = []
    for d in result.derivatives:
        row = (partial_label(result, d), _one_line(d.text))
        if result.values is not None:
            row += (number_text(result.values[d.key], precision),)
        rows.append(row)
    return rows + _clairaut_rows(result)


def partials_record(result, precision=None) -> dict:
    from .formats import diff_record
    record = diff_record(result, precision)
    record.pop("order", None)
    if getattr(result, "clairaut", None):
        record["clairaut"] = [{"partials": [a, b], "equal": same}
                              for a, b, same in result.clairaut]
    return record


def partials_markdown(result, precision=None) -> str:
    lines = [f"**Partial derivatives** of `{result.read_as}`", "",
             "| | derivative |" + (" value |" if result.values is not None else ""),
             "|---|---|" + ("---|" if result.values is not None else "")]
    for row in partials_rows(result, precision):
        formula = row[0] != "Clairaut"
        lines.append("| " + " | ".join(f"`{c}`" if i == 1 and formula else c
                                       for i, c in enumerate(row)) + " |")
    return "\n".join(lines) + "\n"


def partials_latex(result, precision=None) -> str:
    from ..numbers import number_text
    f = latex_name(result.result_name)
    lines = []
    for d in result.derivatives:
        *named, last = d.program.statements
        body = to_latex(last.expr) if not named else \
            r"\text{" + _one_line(d.text).replace("_", r"\_") + "}"
        line = f"{f}_{{{d.key.replace(',', '')}}} &= {body}"
        if result.values is not None:
            line += " = " + number_text(result.values[d.key], precision)
        lines.append(line)
    for a, b, same in getattr(result, "clairaut", []):
        relation = "=" if same else r"\neq"
        lines.append(f"{f}_{{{a}}} &{relation} {f}_{{{b}}}")
    return "\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}\n"
