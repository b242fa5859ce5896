"""`diff --steps` as text: plain lines, JSON records, Markdown and LaTeX (a written solution).

Standard library only; the terminal view (render.steps_view) lays out the same
lines that `blocks` builds here. Powers print as `^`, as `diff` prints them,
and each derivation ends with `diff`'s own answer.
"""
from __future__ import annotations

from ..language.expr import Apply, Name
from ..language.printer import diff_label, latex_name
from ..symbolic.steps import latex, short, text
from .formats import dumps, one_line
from .ledger import _code, _md, _tt


def _operator(derivation, unicode: bool = True) -> str:
    """d/dx, or ∂/∂x for a partial derivative (other variables held constant)."""
    if derivation.held_constant and unicode:
        return f"∂/∂{derivation.wrt}"
    return f"d/d{derivation.wrt}"


def rule_text(step) -> str:
    """'product rule', 'chain rule (outer: trigonometric rule)', 'constant rule (y held constant)'."""
    if step.rule == "chain":
        return f"chain rule and {step.outer} rule"
    words = f"{step.rule} rule"
    if step.held:
        words += f" ({', '.join(step.held)} held constant)"
    return words


def _left(formula_left) -> str:
    body = text(formula_left)
    plain = _bare(formula_left)
    return f"{body}'" if plain else f"({body})'"


def _bare(node) -> bool:
    """A name or a call, which takes its prime without parentheses (e^u does not)."""
    from .. import ops
    return isinstance(node, Name) or (isinstance(node, Apply) and node.op != "exp"
                                      and not ops.TABLE[node.op].is_operator)


def formula_text(step) -> str | None:
    """The rule over its placeholders, "(u*v)' = u'*v + u*v'" (None where it has none)."""
    if step.formula is None or not (step.parts or step.constants):
        return None
    left, right = step.formula
    return f"{_left(left)} = {text(right)}"


def parts_text(step) -> str | None:
    """'u = x^2, v = sin(x)', 'n = 3'."""
    if not (step.parts or step.constants):
        return None
    return ", ".join(f"{letter} = {short(arg)}" for letter, arg in step.parts + step.constants)


def primes_text(step) -> str | None:
    """"u' = 2*x (step 2), v' = cos(x) (step 3)": the placeholders' derivatives."""
    if not step.parts:
        return None
    return ", ".join(f"{letter}' = {short(sub.result)} (step {sub.number})"
                     for (letter, _), sub in zip(step.parts, step.part_steps))


def header(result, derivation) -> str:
    """'Differentiate f = x^2*sin(x) with respect to x (y held constant).'"""
    line = (f"Differentiate {result.result_name} = {short(derivation.root)} "
            f"with respect to {derivation.wrt}")
    if derivation.held_constant:
        line += f" ({', '.join(derivation.held_constant)} held constant)"
    return line + "."


def left_out(derivation) -> str | None:
    n = derivation.total - len(derivation.steps)
    if n <= 0:
        return None
    return (f"{n:,} more step{'s' * (n != 1)} not shown (the first "
            f"{len(derivation.steps):,} of {derivation.total:,})")


def blocks(result, derivation) -> list:
    """(label, [lines]) for each step: what plain text and the terminal print."""
    d = _operator(derivation)
    out = []
    for step in derivation.steps:
        lines = [f"{d} [{short(step.expression)}]: {rule_text(step)}"]
        for piece in (parts_text(step), formula_text(step), primes_text(step)):
            if piece:
                lines.append(piece)
        middle = substitution_text(step)
        if middle:  # as a book writes it: the rule with its pieces put in, then simplified
            lines.append(f"= {middle}")
        lines.append(f"= {short(step.result)}")
        out.append((f"{step.number}.", lines))
    return out


def answer_line(result, derivation) -> str:
    """Exactly diff -o plain's line for this derivative."""
    return f"{derivation.label}\t{one_line(derivation.answer)}"


def plain(result, precision=None) -> str:  # formulas: nothing to round
    out = []
    for i, derivation in enumerate(result.steps):
        if i:
            out.append("")
        out.append(header(result, derivation))
        for label, lines in blocks(result, derivation):
            out.append(f"{label} {lines[0]}")
            out.extend("   " + line for line in lines[1:])
        more = left_out(derivation)
        if more:
            out.append(more)
        out.append(answer_line(result, derivation))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- JSON

def records(result) -> list:
    """One record per derivative: expression, wrt, held_constant, steps, answer."""
    out = []
    for derivation in result.steps:
        steps = []
        for step in derivation.steps:
            item = {"step": step.number, "expression": short(step.expression),
                    "rule": step.rule}
            if step.rule == "chain":
                item["inner"] = short(step.inner)
                item["outer"] = step.outer
            if step.parts:
                item["parts"] = {letter: short(arg) for letter, arg in step.parts}
            if step.constants:
                item["constants"] = {letter: short(arg) for letter, arg in step.constants}
            formula = formula_text(step)
            if formula:
                item["formula"] = formula
            if step.held:
                item["held_constant"] = list(step.held)
            if step.uses:
                item["uses"] = list(step.uses)
            middle = substitution_text(step)
            if middle:
                item["substituted"] = middle
            item["result"] = short(step.result)
            steps.append(item)
        record = {"expression": result.expression, "read_as": result.read_as,
                  "wrt": derivation.wrt, "held_constant": list(derivation.held_constant),
                  "steps": steps, "answer": derivation.answer}
        if derivation.total > len(derivation.steps):
            record["steps_total"] = derivation.total
        if result.warnings:
            record["warnings"] = list(result.warnings)
        out.append(record)
    return out


def json_lines(result, precision=None) -> str:  # formulas: nothing to round
    return "".join(dumps(r) + "\n" for r in records(result))


# ---------------------------------------------------------------- Markdown

def markdown(result, precision=None) -> str:  # formulas: nothing to round
    out = []
    for derivation in result.steps:
        label = diff_label(result.result_name, (derivation.wrt,),
                           unicode=bool(derivation.held_constant))
        out += [f"### {_md(label)}", "", _md(header(result, derivation)), ""]
        d = _operator(derivation)
        for step in derivation.steps:
            line = (f"{step.number}. {_code(f'{d} [{short(step.expression)}]')}: "
                    f"{_md(rule_text(step))}")
            formula = formula_text(step)
            if formula:
                line += f", {_code(formula)}"
                line += " with " + ", ".join(_code(f"{letter} = {short(arg)}")
                                             for letter, arg in step.parts + step.constants)
            if step.parts:
                line += "; " + ", ".join(
                    f"{_code(letter + chr(39))} is step {sub.number}"
                    for (letter, _), sub in zip(step.parts, step.part_steps))
            out.append(line)
            middle = substitution_text(step)
            if middle:  # the rule with its pieces put in, as a book shows before simplifying
                out.append(f"   {_code('= ' + middle)}  ")
            out.append(f"   {_code('= ' + short(step.result))}")
        more = left_out(derivation)
        if more:
            out += ["", f"*{_md(more)}*"]
        out += ["", f"**Answer:** {_code(label + ' = ' + one_line(derivation.answer))}", ""]
    return "\n".join(out)


# ---------------------------------------------------------------- LaTeX

def _tex(expr) -> str:
    got = latex(expr)
    return got if got is not None else r"\text{(too long to show)}"


def _d_tex(derivation) -> str:
    v = latex_name(derivation.wrt)
    if derivation.held_constant:
        return rf"\frac{{\partial}}{{\partial {v}}}"
    return rf"\frac{{d}}{{d{v}}}"


def substitution_text(step) -> str | None:
    """The rule with the pieces and their derivatives put in, where that differs from the
    simplified result (((2*x)*(x - 3) - (x^2 + 1)*1)/(x - 3)^2); else None."""
    if step.formula is None or not step.parts:
        return None
    middle = short(substituted(step))
    return middle if middle != short(step.result) else None


def substituted(step):
    """The rule's right side with each placeholder and its derivative put back in."""
    from ..language.expr import make, postorder
    values = dict(step.constants)
    for (letter, arg), sub in zip(step.parts, step.part_steps):
        values[letter] = arg
        values[letter + "'"] = sub.result
    done = {}
    for node in postorder(step.formula[1]):  # the formula is small; its values are not walked
        if isinstance(node, Apply):
            done[id(node)] = make(node.op, *(done[id(a)] for a in node.args))  # 1*u is u
        else:
            done[id(node)] = values.get(node.id, node) if isinstance(node, Name) else node
    return done[id(step.formula[1])]


def _tex_text(words: str) -> str:
    """Words for \\text{...}, with LaTeX's special characters escaped."""
    out = []
    for ch in words:
        if ch in "#$%&_{}":
            out.append("\\" + ch)
        elif ch == "\\":
            out.append(r"\textbackslash{}")
        elif ch in "^~":
            out.append(r"\^{}" if ch == "^" else r"\~{}")
        else:
            out.append(ch)
    return "".join(out)


def latex_solution(result, precision=None) -> str:  # formulas: nothing to round
    """A written solution: one aligned block per derivative, each step's rule on the right."""
    out = []
    for derivation in result.steps:
        d = _d_tex(derivation)
        f = latex_name(result.result_name)
        v = latex_name(derivation.wrt)
        held = derivation.held_constant
        intro = (r"\noindent Differentiate $" + f + " = " + _tex(_root(derivation)) +
                 "$ with respect to $" + v + "$")
        if held:
            intro += " (" + ", ".join(f"${latex_name(h)}$" for h in held) + " held constant)"
        out += [f"% gradcli diff --steps of {short(derivation.root)}",
                intro + r".\\[1ex]", "", r"\[", r"\begin{aligned}"]
        rows = []
        for step in derivation.steps:
            why = _tex_text(rule_text(step))
            lhs = rf"{d}\left[{_tex(step.expression)}\right]"
            if step.formula is not None and (step.parts or step.constants):
                where = r",\ ".join(f"{letter} = {_tex(arg)}"
                                    for letter, arg in step.parts + step.constants)
                rows.append(rf"{lhs} &= {latex(step.formula[1])} && \text{{({step.number}) "
                            rf"{why}, }} {where}")
                middle, last = _tex(substituted(step)), _tex(step.result)
                if step.parts:
                    uses = ", ".join(f"{letter}' by step {sub.number}"
                                     for (letter, _), sub in zip(step.parts, step.part_steps))
                    rows.append(rf"&= {middle} && \text{{{uses}}}")
                if last != middle or not step.parts:
                    rows.append(rf"&= {last}")
            else:
                rows.append(rf"{lhs} &= {_tex(step.result)} && \text{{({step.number}) {why}}}")
        out.append(" \\\\\n".join(rows))
        out += [r"\end{aligned}", r"\]"]
        more = left_out(derivation)
        if more:
            out.append(r"\noindent\textit{" + _tex_text(more) + r"}\\[1ex]")
        label = (rf"\frac{{\partial {f}}}{{\partial {v}}}" if held
                 else rf"\frac{{d{f}}}{{d{v}}}")
        statements = derivation.program.statements
        if len(statements) == 1:
            out.append(r"\noindent Answer: $" + label + " = " + _tex(statements[0].expr) + "$")
        else:
            out.append(r"\noindent Answer: " + _tt(one_line(derivation.answer)))
        out.append("")
    return "\n".join(out)


def _root(derivation):
    return derivation.root
