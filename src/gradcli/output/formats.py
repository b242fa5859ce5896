"""Results -> plain, JSON and CSV text, with the standard library only (batches of
points, which already hold NumPy arrays, are written a column at a time by shortest.py).

Numbers print as the shortest text that reads back as the same double (28, not
28.0) or rounded to `precision` significant digits. JSON has no NaN or
infinity: they are the strings "nan", "inf", "-inf".
"""
from __future__ import annotations

import io
import math

from .. import ops
from ..language.expr import BUILD, Apply, Name, as_expr
from ..language.printer import _counted, diff_label  # noqa: F401 (re-exported)
from ..language.printer import latex_name, latex_number, to_latex, to_text
from ..numbers import (EDGE_ITEMS, HUMAN_DIGITS, RAW_FORMATS, SUMMARY_AT, Digits,  # noqa: F401
                       digits_note, display_precision, format_number, json_number,
                       non_finite_text, number_text, summary_text)
from ..language.printer import carets


def label(answer, f: str = "f") -> str:
    """The plain-text key of an answer: f, df/dw, d/dw for a formula, or a homework answer's
    own key (tangent, T2, dy/dx, D_u f, critical)."""
    if getattr(answer, "key", None):
        return answer.key
    if answer.kind == "value":
        return f
    if answer.kind == "gradient":
        return f"d{f}/d{answer.name}"
    return f"d/d{answer.name}"


def dumps(obj) -> str:
    """One line of JSON, non-ASCII kept readable, invisible characters escaped."""
    import json  # only for this format: eval -o plain starts without it
    text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    if not text.isprintable():
        # json leaves DEL, C1 controls and bidi overrides raw; escape them as \u0000-style escapes.
        text = "".join(ch if ch.isprintable() else json.dumps(ch)[1:-1] for ch in text)
    return text


def eval_record(result, precision=None) -> dict:
    """The JSON object of an EvalResult (docs/eval.md)."""
    record = {
        "expression": result.expression,
        "read_as": result.read_as,
        "at": {k: json_number(v, None) for k, v in result.at.items()},
        "value": json_number(result.value, precision),
        "gradient": {k: json_number(v, precision) for k, v in result.gradient.items()},
    }
    if getattr(result, "seed", None) is not None:
        record["seed"] = json_number(result.seed, None)
    if getattr(result, "jacobian", None) is not None:
        if not result.gradient:
            del record["gradient"]
        record["jacobian"] = {k: json_number(v, precision) for k, v in result.jacobian.items()}
    if getattr(result, "hessian", None) is not None:
        record["hessian"] = {a: {b: json_number(v, precision) for b, v in row.items()}
                             for a, row in result.hessian.items()}
    if result.warnings:
        record["warnings"] = list(result.warnings)
    return record


def eval_rows(result, precision=None) -> list[tuple[str, str]]:
    """(key, value) pairs: f, then df/dx for each partial."""
    f = result.result_name
    rows = [(f, number_text(result.value, precision))]
    for name, g in result.gradient.items():
        rows.append((f"d{f}/d{name}", number_text(g, precision)))
    if getattr(result, "jacobian", None) is not None and not result.gradient:
        for name, j in result.jacobian.items():
            rows.append((f"d{f}/d{name}", number_text(j, precision)))
    # The Hessian is symmetric: its upper triangle, labelled as `diff --order 2` labels it.
    names = list(getattr(result, "hessian", None) or {})
    for i, a in enumerate(names):
        for b in names[i:]:
            rows.append((diff_label(f, (a, b)), number_text(result.hessian[a][b], precision)))
    return rows


def plain(rows) -> str:
    """`key<TAB>value` lines."""
    return "".join(f"{k}\t{v}\n" for k, v in rows)


def eval_csv(result, precision=None, rows=None) -> str:
    """A header row (inputs, f, df/dx...) and one row of values (`rows`: eval_rows)."""
    import csv  # only for this format: eval -o plain starts without it
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    keys = list(result.at)
    rows = eval_rows(result, precision) if rows is None else rows
    writer.writerow(keys + [k for k, _ in rows])
    writer.writerow([number_text(result.at[k]) for k in keys] + [v for _, v in rows])
    return out.getvalue()


def functions_records() -> list[dict]:
    """One record per function of the op table, derivative rules printed from the rules."""

    records = []
    for name, op in ops.TABLE.items():
        if op.extra.get("hidden"):
            continue
        call = op.extra.get("call_name", None if op.is_operator else name)
        arg_names = op.arg_names()
        args = tuple(Name(a) for a in arg_names)
        out = Apply(op.name, args)
        rules = []
        for i, a in enumerate(arg_names):
            d = op.partial(BUILD, i, out, args)
            rules.append(f"d/d{a} = {to_text(as_expr(d))}")
        shown = to_text(out)
        if not isinstance(op.arity, int) and op.arity[1] is None:
            shown = shown[:-1] + ", …)"
        records.append({
            "name": call or op.symbol,
            "form": shown,
            "aliases": list(op.aliases) + (["^"] if op.name == "pow" else []),
            "arity": op.arity_text(),
            "category": op.category,
            "derivative": "; ".join(rules),
            "domain": op.domain_text,
            "description": op.doc,
        })
    return records




def _json_answer(v, precision):
    """An expected or computed answer in JSON: a number, or the correct text of a formula."""
    if v is None or isinstance(v, str):
        return v
    return json_number(v, precision)


def expected_text(a, precision=None) -> str:
    """The correct answer as text: a number, or (homework answers) an equation or polynomial."""
    if isinstance(a.expected, str):
        rounded = getattr(a, "expected_to", None)
        return a.expected if precision is None or rounded is None else rounded(precision)
    return "—" if a.expected is None else number_text(a.expected, precision)


def reason_text(a, precision=None) -> str:
    """Why an answer is wrong, its correct value rounded as the format rounds numbers (a
    table says "the correct value is 2.50951" under an expected column of 2.50951)."""
    if precision is None or isinstance(a.expected, str) or a.expected is None:
        return a.reason
    try:
        full = format_number(a.expected)
    except (TypeError, ValueError):
        return a.reason
    return a.reason.replace(f"the correct value is {full}",
                            f"the correct value is {number_text(a.expected, precision)}", 1)


def check_record(verdict, precision=None) -> dict:
    """The JSON object of a check Verdict: every answer with its verdict."""
    answers = []
    for a in verdict.answers:
        item = {"kind": a.kind, "name": a.name, "key": label(a, verdict.result_name),
                "answer": a.answer,
                "expected": _json_answer(a.expected, precision),
                "computed": _json_answer(a.computed, precision),
                "ok": a.ok}
        if a.kind != "value" and a.kind != "gradient":
            if a.kind == "derivative":
                item["points"] = a.points
            item["mistake"] = a.mistake
            item["mistake_detail"] = a.mistake_detail
            if a.step is not None:
                item["step"] = a.step
        if a.decided_by is not None:
            item["decided_by"] = a.decided_by
        if a.digits is not None:
            item["digits"] = a.digits
            item["rounded"] = a.rounded
        if not a.ok:
            item["reason"] = a.reason
            if a.correct is not None:
                item["correct"] = a.correct
            if a.counterexample is not None:
                ce = a.counterexample
                item["counterexample"] = {
                    "at": {k: json_number(v) for k, v in ce["at"].items()},
                    "yours": None if ce["yours"] is None else json_number(ce["yours"], precision),
                    "correct": json_number(ce["correct"], precision)}
        if a.decided_by is not None:
            item["decided_by"] = a.decided_by
        if a.note:
            item["note"] = a.note
        if a.warnings:
            item["warnings"] = list(a.warnings)
        answers.append(item)
    record = {"expression": verdict.expression, "read_as": verdict.read_as,
              "at": {k: json_number(v) for k, v in verdict.at.items()},
              "ok": verdict.ok, "right": sum(a.ok for a in verdict.answers),
              "total": len(verdict.answers), "rtol": verdict.rtol, "atol": verdict.atol,
              "answers": answers}
    if verdict.warnings:
        record["warnings"] = list(verdict.warnings)
    return record


def check_lines(verdict, precision=None) -> str:
    """One tab-separated line per answer: key, right|wrong, answer, correct, reason."""
    lines = []
    for a in verdict.answers:
        if a.kind == "derivative":
            correct = (a.correct or "") if not a.ok else a.answer
        else:
            correct = expected_text(a, precision)
        fields = [label(a, verdict.result_name), "right" if a.ok else "wrong", a.answer, correct]
        if not a.ok:
            fields.append(carets(a.reason + (f"; {a.told}" if a.told else "")))
        elif a.told:
            fields.append(carets(a.told))
        lines.append("\t".join(f.replace("\t", " ").replace("\n", "; ") for f in fields))
    return "".join(line + "\n" for line in lines)


def gradcheck_record(checks, precision=None) -> dict:
    """`eval --check` in JSON: per input, the finite difference and the relative error."""
    out = {}
    for name, c in checks.items():
        item = {"finite_difference": None if c.estimate is None else json_number(c.estimate, precision),
                "relative_error": None if c.rel_error is None else json_number(c.rel_error, 2),
                "ok": c.ok}
        if c.note:
            item["note"] = c.note
        out[name] = item
    return out


def gradcheck_rows(rows, result, checks, precision=None) -> list[tuple[str, str]]:
    """eval_rows with each checked partial followed by its estimate and relative error."""
    f = result.result_name
    out = []
    for key, value in rows:
        out.append((key, value))
        name = key[len(f"d{f}/d"):] if key.startswith(f"d{f}/d") else None
        c = checks.get(name) if name is not None else None
        if c is not None and c.estimate is not None:
            out.append((f"fd {key}", number_text(c.estimate, precision)))
            out.append((f"relerr {key}", number_text(c.rel_error, 2)))
        if c is not None and c.note:
            out.append((f"note {key}", c.note))
    return out


# ---------------------------------------------------------------- gradcli diff

def one_line(text: str) -> str:
    """A derivative program on one line: statements joined by '; '."""
    return text.replace("\n", "; ")


def diff_rows(result, precision=None) -> list[tuple]:
    """(label, derivative[, value]) for each partial."""
    rows = []
    for d in result.derivatives:
        row = (diff_label(result.result_name, d.wrt), one_line(d.text))
        if result.values is not None:
            row += (number_text(result.values[d.key], precision),)
        rows.append(row)
    return rows


def diff_record(result, precision=None) -> dict:
    """The JSON object of `gradcli diff`: expression, read_as, derivatives (and values)."""
    record = {
        "expression": result.expression,
        "read_as": result.read_as,
        "derivatives": {d.key: d.text for d in result.derivatives},
    }
    if result.order != 1:
        record["order"] = result.order
    if result.values is not None:
        record["at"] = {k: json_number(v, None) for k, v in result.at.items()}
        record["values"] = {k: json_number(v, precision) for k, v in result.values.items()}
    if result.warnings:
        record["warnings"] = list(result.warnings)
    return record


# ------------------------------------------------------------------ descend

def rounder(decimals: int | None):
    """`--round D`: round a number or array to D decimals (as Python's round does)."""
    if decimals is None:
        return lambda v: v

    def apply(v):
        if hasattr(v, "round") and getattr(v, "ndim", 0):
            return v.round(decimals)
        if isinstance(v, float) and math.isfinite(v):
            return round(v, decimals)
        return v
    return apply


def shown_steps(n: int, every: int | None) -> list[int]:
    """Steps 1..n to print: the first, every `every`-th, and the last (about 10 by default)."""
    if n <= 0:
        return []
    every = every or max(1, -(-n // 10))
    return [k for k in range(1, n + 1) if k == 1 or k == n or k % every == 0]


def descend_columns(result) -> list[str]:
    return ["step", "loss", "grad_norm"] + list(result.params)


def descend_rows(result, every=None, decimals=None, precision=None, final=True) -> list[list[str]]:
    """Rows of text for the printed steps and (when there is one) the final point."""
    r = rounder(decimals)
    by_step = {s.step: s for s in result.history}
    rows = []
    for k in shown_steps(len(result.history), every):
        s = by_step[k]
        rows.append([str(k), number_text(r(s.loss), precision),
                     number_text(r(s.grad_norm), precision)]
                    + [number_text(r(s.params[p]), precision) for p in result.params])
    if final and result.final_loss is not None:
        rows.append(["final", number_text(r(result.final_loss), precision),
                     number_text(r(result.final_grad_norm), precision)]
                    + [number_text(r(result.final_params[p]), precision)
                       for p in result.params])
    return rows


def descend_stop_text(result) -> str:
    """Why the run ended, in words."""
    n = result.steps_run
    if result.stopped == "tol":
        return (f"converged after {n} step{'s' * (n != 1)}: the gradient norm "
                f"{number_text(result.final_grad_norm)} is below --tol "
                f"{number_text(result.tol)}")
    if result.stopped == "diverged":
        return f"diverged at step {result.diverged_at}"
    return f"ran {n} step{'s' * (n != 1)}"


def descend_plain(result, every=None, decimals=None, precision=None) -> str:
    """Tab-separated: a header line, the printed steps, and a `final` line."""
    lines = ["\t".join(descend_columns(result))]
    lines += ["\t".join(row) for row in descend_rows(result, every, decimals, precision)]
    return "\n".join(lines) + "\n"


def descend_csv(result, every=None, decimals=None, precision=None) -> str:
    """CSV of every step (or every `every`-th) and the final point."""
    import csv  # only for this format: eval -o plain starts without it
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(descend_columns(result))
    every = every or 1
    writer.writerows(descend_rows(result, every, decimals, precision))
    return out.getvalue()


def descend_record(result, every=None, decimals=None, precision=None, error=None) -> dict:
    """The JSON object of a descent: settings, the whole history, the final point."""
    r = rounder(decimals)

    def num(v):
        return json_number(r(v), precision)

    record = {
        "expression": result.expression,
        "read_as": result.read_as,
        "params": list(result.params),
        "lr": json_number(result.lr),
        "steps": result.steps,
        "momentum": json_number(result.momentum),
    }
    if result.tol is not None:
        record["tol"] = json_number(result.tol)
    if result.data is not None:
        record["data"] = {"file": result.data.path, "rows": result.data.rows,
                          "columns": list(result.data.columns)}
    shown = set(shown_steps(len(result.history), every or 1))
    record["history"] = [
        {"step": s.step, "loss": num(s.loss), "grad_norm": num(s.grad_norm),
         "params": {p: num(v) for p, v in s.params.items()}}
        for s in result.history if s.step in shown]
    if result.final_loss is not None:
        record["final"] = {"params": {p: num(v) for p, v in result.final_params.items()},
                           "loss": num(result.final_loss),
                           "grad_norm": num(result.final_grad_norm)}
    record["steps_run"] = result.steps_run
    record["stopped"] = result.stopped
    if error is not None:
        record["diverged"] = {"step": result.diverged_at, "message": error.message}
    if result.warnings:
        record["warnings"] = list(result.warnings)
    return record


def diff_latex(result, precision=None) -> str:
    """An aligned LaTeX block: intermediates, then each partial (= its value with --at)."""
    f = latex_name(result.result_name)
    lines, seen = [], set()
    for d in result.derivatives:
        *steps, last = d.program.statements
        for stmt in steps:
            line = f"{latex_name(stmt.name)} &= {to_latex(stmt.expr)}"
            if line not in seen:
                seen.add(line)
                lines.append(line)
        n = len(d.wrt)
        # \frac{df}{dx} for a function of one variable, \frac{\partial f}{\partial x} for several
        dd, sep = (r"\partial", " ") if len(result.variables) > 1 else ("d", "")
        top = dd + (f"^{{{n}}}" if n > 1 else "") + sep + f
        bottom = " ".join(dd + sep + latex_name(v) + (f"^{{{k}}}" if k > 1 else "")
                          for v, k in _counted(d.wrt))
        line = r"\frac{%s}{%s} &= %s" % (top, bottom, to_latex(last.expr))
        if result.values is not None:
            line += " = " + _latex_value(result.values[d.key], precision)
        lines.append(line)
    return "\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}\n"


def _latex_value(value, precision):
    text = number_text(value, precision)
    try:
        return latex_number(float(text)) if text not in ("nan", "inf", "-inf") else \
            {"nan": r"\mathrm{NaN}", "inf": r"\infty", "-inf": r"-\infty"}[text]
    except ValueError:
        return text
# ------------------------------------------------------------------ plot

def plot_record(data, precision=None) -> dict:
    """The samples of `gradcli plot` as JSON: x, f and df/dx lists (nan as "nan")."""
    record = {"expression": data.expression, "read_as": data.read_as, "over": data.var,
              "range": [json_number(data.lo), json_number(data.hi)],
              "at": {k: json_number(v) for k, v in data.at.items()},
              "x": json_number(data.xs), "f": json_number(data.f),
              "df": json_number(data.df),
              "kinks": [json_number(x) for x in data.kinks],
              # The samples each side of a pole or a step, per panel.
              "jumps": {panel: [[json_number(data.xs[i]), json_number(data.xs[i + 1])]
                                for i in segments] for panel, segments in data.jumps.items()}}
    if data.warnings:
        record["warnings"] = list(data.warnings)
    return record


def plot2d_record(data, precision=None) -> dict:
    """The grid of `gradcli plot` over two ranges as JSON: f[i][j] is at (x[j], y[i])."""
    xn, yn = data.names
    record = {"expression": data.expression, "read_as": data.read_as, "over": [xn, yn],
              "range": {n: [json_number(lo), json_number(hi)] for n, (lo, hi) in
                        data.box.items()},
              "at": {k: json_number(v) for k, v in data.params.items()},
              xn: json_number(data.xs), yn: json_number(data.ys),
              "f": json_number(data.f),
              "gradient": {n: json_number(data.gradient[n]) for n in data.names},
              "critical_points": [{"at": {n: json_number(v) for n, v in cp.point.items()},
                                   "value": json_number(cp.value), "kind": cp.kind}
                                  for cp in data.critical],
              "critical_note": data.critical_note}
    if data.point is not None:
        p = data.point
        record["point"] = {"at": {n: json_number(v) for n, v in p.at.items()},
                           "value": json_number(p.value),
                           "gradient": {n: json_number(v) for n, v in p.gradient.items()}}
    if data.warnings:
        record["warnings"] = list(data.warnings)
    return record


def plot2d_csv(data, precision=None) -> str:
    """x, y, f, df/dx, df/dy per grid point, x varying fastest; an undefined value is nan."""
    import csv
    xn, yn = data.names
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([xn, yn, "f", f"df/d{xn}", f"df/d{yn}"])
    gx, gy = data.gradient[xn].tolist(), data.gradient[yn].tolist()
    xs = [number_text(x) for x in data.xs.tolist()]
    for i, y in enumerate(data.ys.tolist()):
        yt = number_text(y)
        for j, f in enumerate(data.f[i].tolist()):
            # + 0.0: a derivative of -0.0 (-2y at y = 0) is the 0 a reader expects
            writer.writerow([xs[j], yt, number_text(f + 0.0), number_text(gx[i][j] + 0.0),
                             number_text(gy[i][j] + 0.0)])
    return out.getvalue()


def plot_csv(data, precision=None) -> str:
    """x, f, df/dx per sample; an undefined value is the text nan."""
    import csv  # only for this format: eval -o plain starts without it
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([data.var, "f", f"df/d{data.var}"])
    for x, f, d in zip(data.xs.tolist(), data.f.tolist(), data.df.tolist()):
        writer.writerow([number_text(x), number_text(f + 0.0), number_text(d + 0.0)])
    return out.getvalue()


# -- writers of output/writers.py that combine the pieces above


def eval_json_record(result, precision=None, checks=None) -> dict:
    """eval -o json: the record, with the finite-difference check when asked for."""
    record = eval_record(result, precision)
    if checks is not None:
        record["check"] = gradcheck_record(checks, precision)
    return record


def eval_plain_rows(result, precision=None, checks=None) -> list:
    """eval -o plain: f and each partial (with --check, the estimate beside each)."""
    rows = eval_rows(result, precision)
    return rows if checks is None else gradcheck_rows(rows, result, checks, precision)


def eval_csv_text(result, precision=None, checks=None) -> str:
    """eval -o csv: a header row and one row of values."""
    return eval_csv(result, precision, eval_plain_rows(result, precision, checks))


def functions_json(records, precision=None) -> list:
    return records


def functions_plain(records, precision=None) -> str:
    return "".join(f"{r['form']}\t{r['arity']}\t{r['derivative']}\t{r['domain']}\n"
                   for r in records)
