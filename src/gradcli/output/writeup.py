"""Markdown and LaTeX for `eval`, `diff` and `check`, to paste into a written solution.

Standard library only, like ledger.py (which writes `trace` the same ways).
Numbers go through formats.number_text, so they are rounded as the command's
--precision says (6 significant digits by default in these formats).
"""
from __future__ import annotations

from ..language.printer import _counted, diff_label
from ..language.printer import latex_name
from ..numbers import number_text
from .formats import expected_text, one_line, reason_text
from .ledger import _code, _md, _tex, _tt, at_text, tex_number


def _partial_tex(f: str, wrt, several: bool = True) -> str:
    """\\frac{\\partial f}{\\partial w}, \\frac{\\partial^{2} f}{\\partial x \\partial y};
    \\frac{df}{dx} for a function of one variable (not `several`)."""
    n = len(wrt)
    d, sep = (r"\partial", " ") if several else ("d", "")
    top = d + (f"^{{{n}}}" if n > 1 else "") + sep + latex_name(f)
    bottom = " ".join(d + sep + latex_name(v) + (f"^{{{k}}}" if k > 1 else "")
                      for v, k in _counted(wrt))
    return rf"\frac{{{top}}}{{{bottom}}}"


def _head_md(read_as: str, at: dict, precision) -> str:
    return f"**Expression:** {_code(read_as)}" + (
        f" at {at_text(at, precision)}" if at else "")


def _head_tex(what: str, read_as: str, at: dict, precision) -> list[str]:
    point = ", ".join(f"{latex_name(k)} = {tex_number(v, precision)}" for k, v in at.items())
    return [f"% gradcli {what} of {read_as}".replace("\n", " "),
            r"\noindent Expression: " + _tt(read_as) + (f" at ${point}$" if point else "")
            + r"\\[1ex]"]


# ---------------------------------------------------------------- eval

def _eval_items(result):
    """(wrt tuple or None for the value, number) for every line of eval's output."""
    items = [(None, result.value)]
    items += [((name,), g) for name, g in result.gradient.items()]
    jacobian = getattr(result, "jacobian", None)
    if jacobian is not None and not result.gradient:
        items += [((name,), j) for name, j in jacobian.items()]
    hessian = getattr(result, "hessian", None) or {}
    names = list(hessian)
    for i, a in enumerate(names):
        for b in names[i:]:
            items.append(((a, b), hessian[a][b]))
    return items


def eval_markdown(result, precision=None, checks=None) -> str:
    """The value and partials as a Markdown table (with --check: the estimate and error)."""
    f = result.result_name
    head = "| | value |" + (" finite difference | relative error |" if checks else "")
    out = [_head_md(result.read_as, result.at, precision), "", head,
           "|---|---:|" + ("---:|---:|" if checks else "")]
    for wrt, v in _eval_items(result):
        key = f if wrt is None else diff_label(f, wrt, unicode=True,
                                               several=len(result.inputs) > 1)
        row = f"| {_md(key)} | {_md(number_text(v, precision))} |"
        if checks:
            c = checks.get(wrt[0]) if wrt is not None and len(wrt) == 1 else None
            if c is not None and c.estimate is not None:
                row += (f" {number_text(c.estimate, precision)} | "
                        f"{number_text(c.rel_error, 2)}{'' if c.ok else ' ✗'} |")
            else:
                row += " | |"
        out.append(row)
    return "\n".join(out) + "\n"


def eval_latex(result, precision=None, checks=None) -> str:
    """The value and partials as an aligned LaTeX block."""
    f = result.result_name
    lines = []
    for wrt, v in _eval_items(result):
        key = latex_name(f) if wrt is None else _partial_tex(f, wrt, len(result.inputs) > 1)
        line = f"{key} &= {tex_number(v, precision)}"
        if checks and wrt is not None and len(wrt) == 1:
            c = checks.get(wrt[0])
            if c is not None and c.estimate is not None:
                line += (r" &&\text{finite difference } " + tex_number(c.estimate, precision)
                         + r",\ \text{relative error } " + tex_number(c.rel_error, 2))
        lines.append(line)
    out = _head_tex("eval", result.read_as, result.at, precision)
    out += ["", r"\[", r"\begin{aligned}", " \\\\\n".join(lines), r"\end{aligned}", r"\]"]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- diff

def diff_markdown(result, precision=None) -> str:
    """Each partial derivative (and its value with --at) as a Markdown table."""
    values = result.values is not None
    out = [_head_md(result.read_as, result.at, precision), "",
           "| derivative | formula |" + (" value |" if values else ""),
           "|---|---|" + ("---:|" if values else "")]
    for d in result.derivatives:
        label = diff_label(result.result_name, d.wrt, unicode=True,
                           several=len(result.variables) > 1)
        row = (f"| {_md(label)} | "
               f"{_md(_code(one_line(d.text)))} |")
        if values:
            row += f" {_md(number_text(result.values[d.key], precision))} |"
        out.append(row)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- check

def _answer_key(a, f: str, several: bool = True) -> str:
    if getattr(a, "key", None):
        return a.key
    if a.kind == "value":
        return f
    d = "∂" if several else "d"
    return f"{d}{f}/{d}{a.name}" + (" formula" if a.kind == "derivative" else "")


def _several(verdict) -> bool:
    """Whether the checked function has several variables (∂) or one (d)."""
    return len(getattr(verdict, "variables", ()) or verdict.at) > 1


def _answer_numbers(a, precision):
    expected = expected_text(a, precision)
    if a.computed is None:
        computed = "—" if a.expected is None or isinstance(a.expected, str) else "undefined"
    else:
        computed = number_text(a.computed, precision)
    return expected, computed


def _why(a, precision=None) -> list[str]:
    """The explanation of one answer: reason, the mistake named, note, correct."""
    parts = []
    if not a.ok and a.reason:
        parts.append(reason_text(a, precision))
    mistake = getattr(a, "mistake", None)
    if mistake:
        parts.append(f"mistake: {mistake}")
    if a.note:
        parts.append(a.note)
    return parts


def check_markdown(verdict, precision=None) -> str:
    """Every answer with its verdict as a Markdown table, then why each wrong one is wrong."""
    f = verdict.result_name
    out = [_head_md(verdict.read_as, verdict.at, precision), "",
           "| answer | yours | expected | computed | verdict |", "|---|---|---:|---:|---|"]
    several = _several(verdict)
    for a in verdict.answers:
        expected, computed = _answer_numbers(a, precision)
        out.append(f"| {_md(_answer_key(a, f, several))} | {_md(_code(a.answer))} | {_md(expected)} | "
                   f"{_md(computed)} | {'✓ right' if a.ok else '✗ wrong'} |")
    notes = []
    for a in verdict.answers:
        why = _why(a, precision)
        if not a.ok and a.kind == "derivative" and a.correct is not None:
            why.append(f"correct: {_code(a.correct)}")
        if why:
            notes.append(f"- {'✓' if a.ok else '✗'} {_answer_key(a, f, several)}: " + "; ".join(why))
    if notes:
        out += [""] + notes
    right = sum(a.ok for a in verdict.answers)
    out += ["", f"**{right} of {len(verdict.answers)} right** (rtol "
                f"{number_text(verdict.rtol)}, atol {number_text(verdict.atol)})"]
    return "\n".join(out) + "\n"


def _answer_key_tex(a, f: str, several: bool = True) -> str:
    if getattr(a, "key", None):
        return _tex(a.key)
    if a.kind == "value":
        return f"${latex_name(f)}$"
    return f"${_partial_tex(f, (a.name,), several)}$" + (" formula" if a.kind == "derivative" else "")


def check_latex(verdict, precision=None) -> str:
    """Every answer with its verdict as a LaTeX tabular, then why each wrong one is wrong."""
    f = verdict.result_name
    out = _head_tex("check", verdict.read_as, verdict.at, precision)
    out += ["", r"\begin{tabular}{lllll}",
            r"answer & yours & expected & computed & verdict \\ \hline"]
    for a in verdict.answers:
        key = _answer_key_tex(a, f, _several(verdict))
        expected, computed = (_tt(v) if isinstance(v, str) else
                              f"${tex_number(v, precision)}$" if v is not None else
                              ("---" if a.expected is None or isinstance(a.expected, str)
                               else "undefined")
                              for v in (a.expected, a.computed))
        out.append(f"{key} & {_tt(a.answer)} & {expected} & {computed} & "
                   f"{'right' if a.ok else 'wrong'} \\\\")
    out += [r"\hline", r"\end{tabular}"]
    notes = []
    for a in verdict.answers:
        why = [_tex(w) for w in _why(a, precision)]
        if not a.ok and a.kind == "derivative" and a.correct is not None:
            why.append("correct: " + _tt(a.correct))
        if why:
            notes.append(rf"  \item {_answer_key_tex(a, f, _several(verdict))}: " + "; ".join(why))
    if notes:
        out += ["", r"\begin{itemize}"] + notes + [r"\end{itemize}"]
    right = sum(a.ok for a in verdict.answers)
    out += ["", rf"\noindent\textbf{{{right} of {len(verdict.answers)} right}} "
                rf"(rtol {_tex(number_text(verdict.rtol))}, atol "
                rf"{_tex(number_text(verdict.atol))})"]
    return "\n".join(out) + "\n"


__all__ = ["eval_markdown", "eval_latex", "diff_markdown", "check_markdown", "check_latex"]
