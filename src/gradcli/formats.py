"""Results -> plain, JSON and CSV text, with the standard library only.

Numbers print as the shortest text that reads back as the same double (28, not
28.0) or rounded to `precision` significant digits. JSON has no NaN or
infinity: they are the strings "nan", "inf", "-inf".
"""
from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction

from .printer import format_number


def number_text(value, precision: int | None = None) -> str:
    """A number (or nested list/array of numbers) as display text."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(number_text(v, precision) for v in value) + "]"
    if isinstance(value, Fraction):
        return format_number(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if precision is not None:
            text = f"{value:.{precision}g}"
            return format_number(float(text)) if "e" not in text else text
    return format_number(value)


def json_number(value, precision: int | None = None):
    """A number in JSON: floats stay floats, nan/inf become strings, fractions strings."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [json_number(v, precision) for v in value]
    if isinstance(value, Fraction):
        return format_number(value) if value.denominator != 1 else value.numerator
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if precision is not None:
            return float(f"{value:.{precision}g}")
    return value


def dumps(obj) -> str:
    """One line of JSON, non-ASCII kept readable."""
    return json.dumps(obj, ensure_ascii=False, allow_nan=False)


def eval_record(result, precision=None) -> dict:
    """The JSON object of an EvalResult (SPEC 3.1)."""
    record = {
        "expression": result.expression,
        "read_as": result.read_as,
        "at": {k: json_number(v, None) for k, v in result.at.items()},
        "value": json_number(result.value, precision),
        "gradient": {k: json_number(v, precision) for k, v in result.gradient.items()},
    }
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
    for a, row in (getattr(result, "hessian", None) or {}).items():
        for b, v in row.items():
            rows.append((f"d2{f}/d{a} d{b}", number_text(v, precision)))
    return rows


def plain(rows) -> str:
    """`key<TAB>value` lines."""
    return "".join(f"{k}\t{v}\n" for k, v in rows)


def eval_csv(result, precision=None) -> str:
    """A header row (inputs, f, df/dx...) and one row of values."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    keys = list(result.at)
    rows = eval_rows(result, precision)
    writer.writerow(keys + [k for k, _ in rows])
    writer.writerow([number_text(result.at[k]) for k in keys] + [v for _, v in rows])
    return out.getvalue()


def functions_records() -> list[dict]:
    """One record per function of the op table, derivative rules printed from the rules."""
    from . import ops
    from .expr import Apply, Name
    from .expr import BUILD
    from .printer import to_text

    records = []
    for name, op in ops.TABLE.items():
        call = op.extra.get("call_name", None if op.is_operator else name)
        arg_names = _arg_names(op)
        args = tuple(Name(a) for a in arg_names)
        out = Apply(op.name, args)
        rules = []
        for i, a in enumerate(arg_names):
            d = op.partial(BUILD, i, out, args)
            from .expr import as_expr
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


def _arg_names(op) -> list[str]:
    if op.name in ("atan2",):
        return ["y", "x"]
    if op.name == "log":
        return ["x", "b"]
    if not isinstance(op.arity, int):
        return ["a", "b"]
    return ["x", "y"][:op.arity] if op.arity <= 2 else [f"x{i}" for i in range(op.arity)]
