"""Writers for the homework commands: tangent, taylor, critical, implicit, and eval --direction.

Each result becomes a JSON record, plain `key<TAB>value` rows (also what the
table shows), Markdown or LaTeX for a written solution. Numbers go through the
same `number_text` as every other output, so human formats round to 6
significant digits unless --precision says otherwise.
"""
from __future__ import annotations

from ..errors import GradcliError
from ..language.parser import parse_expr
from ..language.printer import to_latex
from ..numbers import json_number, number_text


def _latex_of(text: str, names=()) -> str:
    """A formula in the language, as LaTeX (the text itself when it does not parse)."""
    try:
        return to_latex(parse_expr(text, names))
    except GradcliError:  # a formula we printed always parses; the user's text may not
        return text


def _at_text(at: dict, precision) -> str:
    return ", ".join(f"{k} = {number_text(v, precision)}" for k, v in at.items())


# ---------------------------------------------------------------- tangent

def tangent_record(t, precision=None) -> dict:
    rec = {"expression": t.expression, "read_as": t.read_as,
           "at": {k: json_number(v, precision) for k, v in t.at.items()},
           "value": json_number(t.value, precision),
           "gradient": {k: json_number(v, precision) for k, v in t.gradient.items()},
           "equation": t.equation, "expanded": t.expanded_to()}
    if t.estimate_at is not None:
        rec["estimate"] = {"at": {k: json_number(v, precision) for k, v in t.estimate_at.items()},
                           "linear": json_number(t.estimate, precision),
                           "true": json_number(t.true_value, precision),
                           "error": json_number(t.true_value - t.estimate, precision)}
    if t.warnings:
        rec["warnings"] = list(t.warnings)
    return rec


def tangent_rows(t, precision=None) -> list:
    rows = [("tangent", t.equation_to(precision))]
    if t.expanded_to(precision) != t.equation_to(precision):
        rows.append(("expanded", t.expanded_to(precision)))
    rows.append(("f", number_text(t.value, precision)))
    rows += [(f"df/d{k}", number_text(v, precision)) for k, v in t.gradient.items()]
    if t.estimate_at is not None:
        where = _at_text(t.estimate_at, precision)
        rows += [(f"linear at {where}", number_text(t.estimate, precision)),
                 (f"f at {where}", number_text(t.true_value, precision)),
                 ("error", number_text(t.true_value - t.estimate, precision))]
    return rows


def tangent_markdown(t, precision=None) -> str:
    what = "line" if len(t.at) == 1 else "plane"
    lines = [f"**Tangent {what}** of `{t.read_as}` at {_at_text(t.at, precision)}:", "",
             f"    {t.equation_to(precision)}", ""]
    if t.expanded_to(precision) != t.equation_to(precision):
        lines += [f"or, expanded, `{t.expanded_to(precision)}`", ""]
    lines += [f"- f = {number_text(t.value, precision)}"]
    d = "∂" if len(t.gradient) > 1 else "d"
    lines += [f"- {d}f/{d}{k} = {number_text(v, precision)}" for k, v in t.gradient.items()]
    if t.estimate_at is not None:
        lines += [f"- linear approximation at {_at_text(t.estimate_at, precision)}: "
                  f"{number_text(t.estimate, precision)} (true value "
                  f"{number_text(t.true_value, precision)})"]
    return "\n".join(lines) + "\n"


def tangent_latex(t, precision=None) -> str:
    lhs, rhs = t.equation_to(precision).split(" = ", 1)
    return f"\\[ {lhs} = {_latex_of(rhs, t.at)} \\]\n"


# ---------------------------------------------------------------- directional

def directional_record(d, precision=None) -> dict:
    return {"direction": [json_number(v, precision) for v in d.given],
            "unit": [json_number(v, precision) for v in d.unit],
            "derivative": json_number(d.derivative, precision),
            "steepest_ascent": {"direction": [json_number(v, precision) for v in d.steepest],
                                "rate": json_number(d.rate, precision)}}


def _vector_text(values, precision) -> str:
    return "[" + ", ".join(number_text(v, precision) for v in values) + "]"


def directional_rows(d, precision=None) -> list:
    steepest = _vector_text(d.steepest, precision) if d.steepest else "none (the gradient is 0)"
    return [("u", _vector_text(d.unit, precision)),
            ("D_u f", number_text(d.derivative, precision)),
            ("steepest ascent", steepest), ("|grad f|", number_text(d.rate, precision))]


def eval_direction_rows(pair, precision=None, checks=None) -> list:
    """eval --direction: eval's rows, then the directional derivative's."""
    from .formats import eval_plain_rows
    result, along = pair
    return eval_plain_rows(result, precision, checks) + directional_rows(along, precision)


def eval_direction_record(pair, precision=None, checks=None) -> dict:
    from .formats import eval_json_record
    result, along = pair
    record = eval_json_record(result, precision, checks)
    record["directional"] = directional_record(along, precision)
    return record


def eval_direction_csv(pair, precision=None, checks=None) -> str:
    from .formats import eval_csv
    return eval_csv(pair[0], precision, eval_direction_rows(pair, precision, checks))


def _eval_direction_writeup(pair, precision, checks, fmt) -> str:
    from . import writeup
    result, along = pair
    write = writeup.eval_markdown if fmt == "markdown" else writeup.eval_latex
    extra = "\n".join(f"{'- ' if fmt == 'markdown' else '% '}{k}: {v}"
                      for k, v in directional_rows(along, precision))
    return write(result, precision, checks) + extra + "\n"


def eval_direction_markdown(pair, precision=None, checks=None) -> str:
    return _eval_direction_writeup(pair, precision, checks, "markdown")


def eval_direction_latex(pair, precision=None, checks=None) -> str:
    return _eval_direction_writeup(pair, precision, checks, "latex")


# ---------------------------------------------------------------- taylor

def _polynomial(t, precision) -> str:
    """The polynomial, its coefficients rounded to `precision` digits when asked."""
    return t.polynomial_to(precision)


def taylor_record(t, precision=None) -> dict:
    rec = {"expression": t.expression, "read_as": t.read_as,
           "at": {k: json_number(v, precision) for k, v in t.at.items()},
           "order": t.order, "polynomial": _polynomial(t, precision), "remainder": t.remainder,
           "terms": [{"coefficient": json_number(term.coefficient, precision),
                      "powers": term.powers} for term in t.terms if term.coefficient != 0]}
    if t.warnings:
        rec["warnings"] = list(t.warnings)
    return rec


def taylor_rows(t, precision=None) -> list:
    return [(f"T{t.order}", _polynomial(t, precision)), ("remainder", t.remainder_to(precision))]


def taylor_markdown(t, precision=None) -> str:
    return (f"**Taylor polynomial** of order {t.order} of `{t.read_as}` about "
            f"{_at_text(t.at, precision)}:\n\n    {_polynomial(t, precision)} + "
            f"{t.remainder_to(precision)}\n")


def taylor_latex(t, precision=None) -> str:
    rest = t.remainder_to(precision).replace("|", "\\lvert ", 1).replace("|", "\\rvert ", 1)
    return (f"\\[ T_{{{t.order}}} = {_latex_of(_polynomial(t, precision), t.at)} \\]\n"
            f"% remainder {rest}\n")


# ---------------------------------------------------------------- critical points

def second_derivative_test(p) -> dict:
    """The numbers the book's second-derivative test reads: f'' in one variable; in two,
    D = f_xx f_yy - f_xy^2 and f_xx (Calculus III); the Hessian's eigenvalues beyond."""
    names = list(p.point)
    h = p.hessian
    if len(names) > 2:
        return {"eigenvalues": list(p.eigenvalues)}
    exact = exact_test(p)
    if exact is not None:  # D's double is the exact D's, not a product of rounded partials
        return {k: float(v.evalf(30)) + 0.0 for k, v in exact.items()}
    if len(names) == 1:
        return {"f''": h[0][0]}
    a, b = names
    return {"D": h[0][0] * h[1][1] - h[0][1] * h[1][0] + 0.0, f"f_{a}{a}": h[0][0] + 0.0}


def exact_test(p) -> dict | None:
    """second_derivative_test's numbers as SymPy numbers, where the point is exact (so that
    an exact point (3/8, 9/64) reads D = 39/4, not 9.75); None where it is not."""
    h = getattr(p, "exact_hessian", None)
    if h is None or len(h) > 2:
        return None
    if len(h) == 1:
        return {"f''": h[0][0]}
    a = list(p.point)[0]
    return {"D": h[0][0] * h[1][1] - h[0][1] * h[1][0], f"f_{a}{a}": h[0][0]}


def _test_text(p, precision) -> str:
    test = second_derivative_test(p)
    if "eigenvalues" in test:
        return "Hessian eigenvalues " + ", ".join(number_text(e, precision)
                                                  for e in test["eigenvalues"])
    exact = exact_test(p)
    if exact is not None:
        from ..closedtext import closed_text
        return ", ".join(f"{k} = {closed_text(v)}" for k, v in exact.items())
    return ", ".join(f"{k} = {number_text(v, precision)}" for k, v in test.items())


def _exact_test_record(p) -> dict:
    """{"test_exact": {"D": "39/4", "f_xx": "2"}} for an exact point, else {}."""
    exact = exact_test(p)
    if exact is None:
        return {}
    from ..symbolic.realforms import json_text
    from ..closedtext import simplified
    return {"test_exact": {k: json_text(simplified(v)) for k, v in exact.items()}}


def _exact_at_text(p, precision) -> str:
    """x = π/2, y = 0: the book's exact form of a point where it is known, else digits."""
    if p.exact is None:
        return _at_text(p.point, precision)
    from ..closedtext import printed_text  # solved coordinates are in their final form
    return ", ".join(f"{k} = {printed_text(v)}" if not _is_root_of(v)
                     else f"{k} = {number_text(p.point[k], precision)}"
                     for k, v in p.exact.items())


def _is_root_of(v) -> bool:
    """A CRootOf (a root of a quintic, say): its digits are what a book prints."""
    return type(v).__name__ in ("CRootOf", "ComplexRootOf")


def _exact_value_text(p, precision) -> str:
    if p.exact_value is None:
        return number_text(p.value, precision)
    from ..closedtext import closed_text, printed_text
    v = p.exact_value
    return printed_text(v) if v.is_Rational else closed_text(v)


def _exact_record(p) -> dict:
    """The exact forms of a point as text gradcli reads back, where they are known."""
    from ..symbolic.realforms import json_text
    rec = {"at": {k: json_text(v) for k, v in p.exact.items() if not _is_root_of(v)}}
    if p.exact_value is not None:
        rec["value"] = json_text(p.exact_value)
    return rec


def _ends(lo, hi) -> list:
    import math
    return [v if math.isfinite(v) else ("-inf" if v < 0 else "inf") for v in (lo, hi)]


def critical_record(c, precision=None) -> dict:
    rec = {"expression": c.expression, "read_as": c.read_as,
           "over": {k: _ends(lo, hi) for k, (lo, hi) in c.box.items()},
           "points": [{"at": {k: json_number(v, precision) for k, v in p.point.items()},
                       "value": json_number(p.value, precision), "kind": p.kind,
                       "test": {k: ([json_number(e, precision) for e in v]
                                    if isinstance(v, list) else json_number(v, precision))
                                for k, v in second_derivative_test(p).items()},
                       "eigenvalues": [json_number(e, precision) for e in p.eigenvalues],
                       "hessian": [[json_number(v, precision) for v in row]
                                   for row in p.hessian],
                       **({"exact": _exact_record(p)} if p.exact is not None else {}),
                       **_exact_test_record(p)}
                      for p in c.points],
           "starts": c.starts, "complete": c.complete, "method": c.method, "note": c.note}
    if c.sets:
        rec["sets"] = [{"equation": eq, "kind": kind} for eq, kind in c.sets]
    if c.warnings:
        rec["warnings"] = list(c.warnings)
    return rec


def critical_rows(c, precision=None) -> list:
    rows = []
    for p in c.points:
        rows.append((_exact_at_text(p, precision),
                     f"{p.kind}\tf = {_exact_value_text(p, precision)}\t"
                     f"{_test_text(p, precision)}"))
    for equation, kind in c.sets:
        rows.append((equation, f"every point critical\t{kind}"))
    rows.append(("note", c.note))
    return rows


def critical_markdown(c, precision=None) -> str:
    lines = [f"**Critical points** of `{c.read_as}` in "
             + ", ".join(f"{lo:g} ≤ {k} ≤ {hi:g}" for k, (lo, hi) in c.box.items()), "",
             "| point | f | second-derivative test | kind |", "|---|---|---|---|"]
    for p in c.points:
        lines.append(f"| {_exact_at_text(p, precision)} | {_exact_value_text(p, precision)} "
                     f"| {_test_text(p, precision)} | {p.kind} |")
    for equation, kind in c.sets:
        lines.append(f"| {equation} (every point) | | | {kind} |")
    lines += ["", c.note]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- implicit

def implicit_record(r, precision=None) -> dict:
    rec = {"equation": r.equation, "read_as": r.read_as, "x": r.x, "y": r.y,
           "derivative": r.formula, "F_x": r.fx, "F_y": r.fy}
    if r.at is not None:
        rec["at"] = {k: json_number(v, precision) for k, v in r.at.items()}
        rec["value"] = json_number(r.value, precision)
    if r.warnings:
        rec["warnings"] = list(r.warnings)
    return rec


def implicit_rows(r, precision=None) -> list:
    rows = [(f"d{r.y}/d{r.x}", r.formula)]
    if r.at is not None:
        rows.append((f"d{r.y}/d{r.x} at {_at_text(r.at, precision)}",
                     number_text(r.value, precision)))
    return rows


def implicit_markdown(r, precision=None) -> str:
    lines = [f"**Implicit differentiation** of `{r.read_as}`: with F the left side minus the "
             f"right, d{r.y}/d{r.x} = -F_{r.x}/F_{r.y}", "",
             f"- F_{r.x} = `{r.fx}`", f"- F_{r.y} = `{r.fy}`",
             f"- d{r.y}/d{r.x} = `{r.formula}`"]
    if r.at is not None:
        lines.append(f"- at {_at_text(r.at, precision)}: {number_text(r.value, precision)}")
    return "\n".join(lines) + "\n"


def implicit_latex(r, precision=None) -> str:
    names = (r.x, r.y)
    out = (f"\\[ \\frac{{d{r.y}}}{{d{r.x}}} = -\\frac{{F_{{{r.x}}}}}{{F_{{{r.y}}}}} = "
           f"{_latex_of(r.formula, names)} \\]\n")
    if r.at is not None:
        out += f"% at {_at_text(r.at, precision)}: {number_text(r.value, precision)}\n"
    return out
