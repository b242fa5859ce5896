"""A Trace as text: plain lines, a Markdown or LaTeX ledger, and JSON records.

Standard library only. The human ledgers (Markdown, LaTeX) read like a
worked solution: the forward pass node by node, then the backward pass from
the output back, each local derivative as its rule, the rule at the point, and
the number, each contribution as upstream × local, and the input's running
total where gradients add up. Literal numbers are not nodes of their own in
the ledgers (they appear inside the formulas); JSON keeps every node.
"""
from __future__ import annotations

from ..language.expr import Num, replace_leaves
from ..language.printer import latex_name, to_latex, to_text
from .formats import eval_rows, json_number, number_text, summary_text


def at_text(at: dict, precision=None) -> str:
    """`w = 3, x = 2, b = 1`."""
    return ", ".join(f"{k} = {number_text(v, precision)}" for k, v in at.items())


def definition(node) -> str:
    """What a node is: its formula over other nodes, or 'input' / 'constant'."""
    return node.formula if node.kind == "op" else node.kind


def shown_nodes(t) -> list:
    """The forward records the ledgers list (every node but literal numbers)."""
    return [n for n in t.forward if n.kind != "literal"]


def at_point(c, precision=None) -> str | None:
    """The rule at the point (`2*7`), its numbers rounded to `precision` digits if given."""
    if c.substituted_expr is None or precision is None:
        return c.substituted
    return to_text(rounded(c.substituted_expr, precision))


def rounded(expr, precision):
    """`expr` with each float literal rounded to `precision` significant digits."""
    def rounded_leaf(node):
        if isinstance(node, Num) and isinstance(node.value, float):
            return Num(float(f"{node.value:.{precision}g}"))
        return node
    return replace_leaves(expr, rounded_leaf)


def local_parts(c, precision=None) -> list[str]:
    """The local derivative as [rule, rule at the point, number], without repeats.

    Where the engine used a convention (a tie in max, the exponent of 0**y) the
    number is marked, since the rule's own value at the point differs.
    """
    if c.local is None:
        return [c.formula] if c.formula is not None else []
    number = number_text(c.local, precision) + (CONVENTION if c.convention else "")
    parts = []
    for piece in (c.formula, at_point(c, precision)):
        if piece is not None and piece not in parts and piece != number:
            parts.append(piece)
    return parts + [number]


CONVENTION = " (PyTorch's convention here)"
VJP = "applied as a vector-Jacobian product"


def local_text(node: str, c, precision=None, code=lambda s: s) -> str:
    """`∂v1/∂w = x = 2`: the local derivative cell of the human ledgers.

    Formulas go through `code` (Markdown wraps them in backticks); the number
    does not. A reduction (sum, dot, @) passes its gradient back whole, by its
    vector-Jacobian product, and says so.
    """
    parts = local_parts(c, precision)
    if c.local is None:
        rule = f"∂{node}/∂{c.input} = {code(parts[0])}, " if parts else ""
        return rule + VJP
    shown = [code(p) for p in parts[:-1]] + parts[-1:]
    return f"∂{node}/∂{c.input} = " + " = ".join(shown)


def _factor(text: str) -> str:
    """A negative number as the right operand of · or +: 1·(-1), not 1·-1."""
    return f"({text})" if text.startswith("-") else text


def contribution_text(upstream, c, precision=None, times="·") -> str:
    """`14·2 = 28`, or only the contribution where a vjp rule gave it whole."""
    value = number_text(c.contribution, precision)
    if c.local is None:
        return value
    return (f"{number_text(upstream, precision)}{times}"
            f"{_factor(number_text(c.local, precision))} = {value}")


def total_text(c, precision=None) -> str:
    """`28`, or `1 + 3 = 4` where the input already had a gradient: accumulation."""
    total = number_text(c.total, precision)
    if c.previous is None:
        return total
    return (f"{number_text(c.previous, precision)} + "
            f"{_factor(number_text(c.contribution, precision))} = {total}")


# ---------------------------------------------------------------- plain

def plain(t, precision=None) -> str:
    """Tab-separated lines: `forward` and `backward` records, then eval's rows.

    forward  NODE  DEFINITION  VALUE
    backward NODE  UPSTREAM  INPUT  RULE  RULE-AT-POINT  LOCAL  CONTRIBUTION  TOTAL

    A step repeats its UPSTREAM on the line of each input, so there an array of
    over SUMMARY_AT elements shows its ends only (the output stays linear in size).
    """
    n = lambda v: number_text(v, precision)  # noqa: E731
    lines = [f"read as\t{t.read_as}"]
    for node in shown_nodes(t):
        lines.append(f"forward\t{node.name}\t{definition(node)}\t{n(node.value)}")
    for step in t.backward:
        upstream = summary_text(step.upstream, precision)
        for c in step.contributions:
            local = "" if c.local is None else n(c.local)
            lines.append("\t".join(["backward", step.node, upstream, c.input,
                                    c.formula or "",
                                    "convention" if c.convention else at_point(c, precision) or "",
                                    local,
                                    n(c.contribution), n(c.total)]))
    lines.extend(f"{k}\t{v}" for k, v in eval_rows(t, precision))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- markdown

def _md(text: str) -> str:
    return text.replace("|", "\\|")


def _code(text: str) -> str:
    return f"`{text}`"


def markdown(t, precision=None) -> str:
    """The ledger as Markdown tables, ready to paste into a written solution."""
    n = lambda v: number_text(v, precision)  # noqa: E731
    f = t.output
    out = [f"**Expression:** {_code(t.read_as)}" + (f" at {at_text(t.at, precision)}" if t.at else ""),
           "", "**Forward pass**", "",
           "| node | definition | expression | value |", "|---|---|---|---|"]
    for node in shown_nodes(t):
        d = _code(node.formula) if node.kind == "op" else node.kind
        out.append(f"| {_code(node.name)} | {_md(d)} | {_md(_code(node.expression))} | "
                   f"{n(node.value)} |")
    out += ["", f"**Backward pass** (from the output back, starting at ∂{f}/∂{f} = 1)", ""]
    if t.backward:
        out += [f"| node | upstream ∂{f}/∂node | input | local derivative | contribution "
                "| gradient of input |", "|---|---|---|---|---|---|"]
        for step in t.backward:
            first = True
            for c in step.contributions:
                local = local_text(step.node, c, precision, _code)
                node = _code(step.node) if first else ""
                upstream = n(step.upstream) if first else ""
                out.append(f"| {node} | {upstream} | {_code(c.input)} | {_md(local)} | "
                           f"{contribution_text(step.upstream, c, precision)} | "
                           f"{total_text(c, precision)} |")
                first = False
    else:
        out.append("No gradient flows: the result does not depend on any input.")
    out += ["", "**Result:** " + ", ".join(
        [f"{t.result_name} = {n(t.value)}"]
        + [f"∂{t.result_name}/∂{k} = {n(g)}" for k, g in t.gradient.items()])]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- LaTeX

_TEX = {"\\": r"\textbackslash{}", "_": r"\_", "#": r"\#", "$": r"\$", "%": r"\%",
        "&": r"\&", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
        # check's reasons name the gradient and partials: pdflatex has no glyphs for these.
        "∇": r"$\nabla$", "∂": r"$\partial$", "·": r"$\cdot$", "—": "---"}


def _tex(text: str) -> str:
    return "".join(_TEX.get(ch, ch) for ch in text)


def _tt(text: str) -> str:
    return r"\texttt{" + _tex(text) + "}"


def _math(expr) -> str:
    """A formula in LaTeX math (without the dollars); an elided part prints as \\ldots."""
    return to_latex(expr).replace("…", r"\ldots{}")


def _tex_factor(text: str) -> str:
    return rf"\left({text}\right)" if text.startswith("-") else text


def _tex_name(name: str) -> str:
    return latex_name(name).replace("…", r"\ldots{}")


def tex_number(value, precision=None) -> str:
    """A number in math mode: 1e-05 as 1 \\cdot 10^{-5}, inf as \\infty."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return r"[" + ", ".join(tex_number(v, precision) for v in value) + "]"
    text = number_text(value, precision)
    if text in ("inf", "-inf"):
        return text.replace("inf", r"\infty")
    if text == "nan":
        return r"\mathrm{nan}"
    if "e" in text:
        mantissa, _, exponent = text.partition("e")
        return rf"{mantissa} \cdot 10^{{{int(exponent)}}}"
    if "/" in text:
        num, _, den = text.partition("/")
        return rf"\frac{{{num}}}{{{den}}}"
    return text


def latex(t, precision=None) -> str:
    """The ledger as two LaTeX tabulars and a display of the partials.

    Formulas are printed by printer.to_latex from the same expressions the
    other formats print as text; node names as LaTeX names (v1 as $v_{1}$).
    """
    num = lambda v: tex_number(v, precision)  # noqa: E731
    f = _tex_name(t.output)
    at = ", ".join(f"{_tex_name(k)} = {num(v)}" for k, v in t.at.items())
    out = [f"% gradcli trace of {t.read_as}".replace("\n", " "),
           r"\noindent Expression: " + _tt(t.read_as) + (f" at ${at}$" if at else "") + r"\\[1ex]",
           "", r"\begin{tabular}{llll}",
           r"\multicolumn{4}{l}{\textbf{Forward pass}} \\ \hline",
           r"node & definition & expression & value \\ \hline"]
    for node in shown_nodes(t):
        d = f"${_math(node.formula_expr)}$" if node.kind == "op" else node.kind
        out.append(f"${_tex_name(node.name)}$ & {d} & ${_math(node.expression_expr)}$ & "
                   f"${num(node.value)}$ \\\\")
    out += [r"\hline", r"\end{tabular}", ""]
    if t.backward:
        out += [r"\begin{tabular}{llllll}",
                rf"\multicolumn{{6}}{{l}}{{\textbf{{Backward pass}} (from the output back, "
                rf"starting at $\partial {f}/\partial {f} = 1$)}} \\ \hline",
                r"node & upstream & input & local derivative & contribution & "
                r"gradient of input \\ \hline"]
        for step in t.backward:
            first = True
            for c in step.contributions:
                local = (rf"\frac{{\partial {_tex_name(step.node)}}}"
                         rf"{{\partial {_tex_name(c.input)}}}")
                pieces = [local]
                if c.formula_expr is not None:
                    pieces.append(_math(c.formula_expr))
                if c.local is not None:
                    if c.substituted_expr is not None:
                        expr = c.substituted_expr
                        pieces.append(_math(rounded(expr, precision) if precision else expr))
                    pieces.append(num(c.local))
                shown = []
                for piece in pieces:  # 1 = 1 = 1 says nothing: drop repeats
                    if piece not in shown:
                        shown.append(piece)
                local = "$" + " = ".join(shown) + "$"
                if c.local is None:
                    local += ", " + VJP
                elif c.convention:
                    local += CONVENTION
                contribution = num(c.contribution)
                if c.local is not None:
                    contribution = (f"{num(step.upstream)} \\cdot {_tex_factor(num(c.local))} "
                                    f"= {contribution}")
                total = num(c.total)
                if c.previous is not None:
                    total = f"{num(c.previous)} + {_tex_factor(num(c.contribution))} = {total}"
                node = f"${_tex_name(step.node)}$" if first else ""
                upstream = f"${num(step.upstream)}$" if first else ""
                out.append(f"{node} & {upstream} & ${_tex_name(c.input)}$ & {local} & "
                           f"${contribution}$ & ${total}$ \\\\")
                first = False
        out += [r"\hline", r"\end{tabular}", ""]
    r = _tex_name(t.result_name)
    results = [f"{r} = {num(t.value)}"]
    results += [rf"\frac{{\partial {r}}}{{\partial {_tex_name(k)}}} = {num(g)}"
                for k, g in t.gradient.items()]
    out += [r"\[", r",\quad ".join(results), r"\]"]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- JSON

def record(t, precision=None) -> dict:
    """The trace as JSON-ready records (every node, literal numbers included)."""
    j = lambda v: json_number(v, precision)  # noqa: E731
    forward = [{"node": n.name, "kind": n.kind, "op": n.op, "inputs": list(n.inputs),
                "formula": n.formula, "expression": n.expression, "value": j(n.value),
                "grad": None if n.grad is None else j(n.grad)} for n in t.forward]
    backward = []
    for step in t.backward:
        backward.append({
            "node": step.node, "op": step.op, "formula": step.formula,
            "upstream": j(step.upstream),
            "inputs": [{"input": c.input, "formula": c.formula, "at_point": c.substituted,
                        "local": None if c.local is None else j(c.local),
                        "contribution": j(c.contribution), "total": j(c.total),
                        "accumulated": c.accumulated, "convention": c.convention}
                       for c in step.contributions]})
    rec = {"expression": t.expression, "read_as": t.read_as,
           "at": {k: json_number(v) for k, v in t.at.items()},
           "value": j(t.value), "output": t.output, "forward": forward, "backward": backward,
           "gradient": {k: j(g) for k, g in t.gradient.items()}}
    if t.warnings:
        rec["warnings"] = list(t.warnings)
    return rec


__all__ = ["plain", "markdown", "latex", "record", "at_text", "definition", "shown_nodes",
           "local_parts", "local_text", "contribution_text", "total_text", "tex_number"]
