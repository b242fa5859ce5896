"""Writers for `gradcli newton`: the iteration table from a start, and the roots in a range.

The iterates and roots are printed to the decimal places asked (--digits), as
the book's table prints them, whatever --precision says; --precision rounds
f(x_n) and f'(x_n) as it rounds every other number. Each result becomes a JSON
record, plain `key<TAB>value` rows, an aligned table for a terminal (60 columns
suffice), Markdown or LaTeX for a written solution.
"""
from __future__ import annotations

from ..numbers import json_number, number_text


def _wrapped(lines) -> str:
    """Prose lines folded to the terminal's width (60 columns stay readable); the table's
    rows are short and left as they are."""
    import sys
    from .linebreaks import break_line
    from .streams import terminal_width
    width = min(terminal_width(sys.stdout) or 100, 100)
    out = []
    for line in lines:
        out += break_line(line, width) if len(line) > width else [line]
    return "\n".join(out) + "\n"


def _equation(text: str) -> str:
    """The equation solved: `x^3 - 2x - 5 = 0`, or the book's own `cos x = x`."""
    return text if "=" in text else f"{text} = 0"


def _maybe(value, precision) -> str:
    return "undefined" if value is None else number_text(value, precision)


def _places(k: int) -> str:
    return f"{k} decimal place{'s' if k != 1 else ''}"


# ---------------------------------------------------------------- from a start

def newton_record(r, precision=None) -> dict:
    rec = {"expression": r.expression, "read_as": r.read_as, "variable": r.variable,
           "x0": r.start_text, "digits": r.digits, "steps": r.steps,
           "iterates": [row.text for row in r.iterates],
           "iterates_value": [row.value for row in r.iterates],
           "table": [{"n": row.n, "x": row.text, "x_value": row.value,
                      "f_value": None if row.fx is None else json_number(row.fx, precision),
                      "df_value": None if row.dfx is None else json_number(row.dfx, precision)}
                     for row in r.rows],
           "root": r.root_text, "root_value": r.root_value, "converged": r.converged,
           "stop": r.stop, "why": r.why}
    if r.cycle is not None:
        rec["cycle"] = list(r.cycle)
    if r.warnings:
        rec["warnings"] = list(r.warnings)
    return rec


def newton_rows(r, precision=None) -> list:
    v = r.variable
    rows = [(f"{v}{row.n}", row.text) for row in r.rows]
    if r.root_text is not None:
        rows.append(("root", r.root_text))
    rows.append(("converged", "yes" if r.converged else "no"))
    if r.cycle is not None:
        rows.append(("cycle", ", ".join(r.cycle)))
    rows.append(("why", r.why))
    return rows


def _table_cells(r, precision) -> list:
    v = r.variable
    head = ["n", f"{v}_n", f"f({v}_n)", f"f'({v}_n)"]
    body = [[str(row.n), row.text, _maybe(row.fx, precision), _maybe(row.dfx, precision)]
            for row in r.rows]
    return [head] + body


def newton_table(r, precision=None) -> str:
    """The iteration table, aligned, then the verdict in words."""
    cells = _table_cells(r, precision)
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    lines = ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in
                       enumerate(zip(row, widths))).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    lines += _summary(r)
    return _wrapped(lines)


def _summary(r) -> list:
    out = []
    if r.root_text is not None:
        out.append(f"root ≈ {r.root_text} (to {_places(r.digits)})")
    out.append(("converged: " if r.converged else "not converged: ") + r.why)
    return out


def newton_markdown(r, precision=None) -> str:
    v = r.variable
    lines = [f"**Newton's method** for `{_equation(r.expression)}` from {v}0 = {r.start_text}: "
             f"{v}_(n+1) = {v}_n - f({v}_n)/f'({v}_n)", ""]
    cells = _table_cells(r, precision)
    lines.append("| " + " | ".join(f"`{c}`" if i else c for i, c in enumerate(cells[0])) + " |")
    lines.append("|" + "---|" * len(cells[0]))
    lines += ["| " + " | ".join(row) + " |" for row in cells[1:]]
    lines.append("")
    lines += _summary(r)
    return "\n".join(lines) + "\n"


def newton_latex(r, precision=None) -> str:
    v = r.variable
    lines = [f"% Newton's method for {_equation(r.expression)} from {v}_0 = {r.start_text}",
             f"\\[ {v}_{{n+1}} = {v}_n - \\frac{{f({v}_n)}}{{f'({v}_n)}} \\]",
             "\\begin{tabular}{rrrr}",
             f"$n$ & ${v}_n$ & $f({v}_n)$ & $f'({v}_n)$ \\\\ \\hline"]
    for row in _table_cells(r, precision)[1:]:
        lines.append(" & ".join(f"${c}$" if c != "undefined" else c for c in row) + " \\\\")
    lines.append("\\end{tabular}")
    lines += [f"% {line}" for line in _summary(r)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- every root in a range

def _over_text(s) -> str:
    return f"{number_text(s.low)} ≤ {s.variable} ≤ {number_text(s.high)}"


def roots_record(s, precision=None) -> dict:
    rec = {"expression": s.expression, "read_as": s.read_as, "variable": s.variable,
           "over": {s.variable: [s.low, s.high]}, "digits": s.digits,
           "roots": [r.text for r in s.roots], "roots_value": [r.value for r in s.roots],
           "touching": [r.text for r in s.roots if not r.crossing],
           "complete": s.complete, "note": s.note}
    if s.proved is not None:
        rec["count"] = s.proved
    if s.rejected:
        rec["rejected"] = list(s.rejected)
    if s.warnings:
        rec["warnings"] = list(s.warnings)
    return rec


def roots_rows(s, precision=None) -> list:
    rows = [(f"{s.variable}", r.text + ("" if r.crossing else "\ttouches 0 (even multiplicity)"))
            for r in s.roots]
    if not s.roots:
        rows.append(("roots", "none found"))
    rows += [("not a root", why) for why in s.rejected]
    rows.append(("note", s.note))
    return rows


def roots_table(s, precision=None) -> str:
    lines = [f"Roots of {_equation(s.expression)} for {_over_text(s)}, to {_places(s.digits)}:", ""]
    for r in s.roots:
        lines.append(f"  {s.variable} ≈ {r.text}" + ("" if r.crossing else
                                                      "   (touches 0: even multiplicity)"))
    if not s.roots:
        lines.append("  none found")
    lines += [""] + [f"not a root: {why}" for why in s.rejected] + [s.note]
    return _wrapped(lines)


def roots_markdown(s, precision=None) -> str:
    lines = [f"**Roots** of `{_equation(s.expression)}` for {_over_text(s)}, to {_places(s.digits)}:",
             ""]
    lines += [f"- {s.variable} ≈ {r.text}" + ("" if r.crossing else
                                              " (touches 0: even multiplicity)")
              for r in s.roots] or ["- none found"]
    lines += [""] + [f"Not a root: {why}." for why in s.rejected] + [s.note]
    return "\n".join(lines) + "\n"


def roots_latex(s, precision=None) -> str:
    items = ", \\quad ".join(f"{s.variable} \\approx {r.text}" for r in s.roots)
    out = f"\\[ {items} \\]\n" if s.roots else "% no root found\n"
    return out + f"% {s.note}\n"
