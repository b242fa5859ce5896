"""The rows of a batch (`--points`) as text: CSV, tab-separated and JSON Lines.

eval, diff and check stream their rows chunk by chunk (output/points.py); these
turn one chunk of columns into text. Every number goes through the same
shortest round-trip formatting as one point's output (formats.number_text);
the names, header and delimited rows of a batch's columns are columntext.py's,
shared with the --output files of data/sinks.py.

Where a whole column is written at once, `lines` writes it: shortest.lines by
default, or what the caller passes (cli/ passes data/textlines.column_lines,
the same bytes faster), since output/ does not import the batch package.
"""
from __future__ import annotations

from ..columntext import columns_rows
from ..language.printer import diff_label
from ..numbers import json_number, number_text
from .formats import dumps, label


def batch_columns(run, chunk, result) -> list:
    """The output columns of one chunk, one float array each (inputs, value, partials)."""
    cols = [chunk.columns[n] for n in run.columns_used] + [result.value]
    return cols + [result.gradient[n] for n in run.wanted]


def batch_table(run, chunk, result):
    """The output rows of one chunk as lists of floats (inputs, value, partials)."""
    return columns_rows(batch_columns(run, chunk, result))


def batch_jsonl(run, chunk, result, precision=None, result_name: str = "f",
                errors=None, lines=None) -> str | bytes:
    """One JSON object per point: row, at, value, gradient (and error for a nan row); ASCII
    bytes when made a column at a time (by `lines`, see the module doc), else text (a
    message may hold any character)."""
    if precision is None and not _errors_in(errors, chunk):
        layout = [("row", None), ("at", run.columns_used), ("value", None),
                  ("gradient", run.wanted)]
        return _jsonl_columns(layout, batch_columns(run, chunk, result), chunk.first_row,
                              lines)
    lines = []
    used, wanted = run.columns_used, run.wanted
    rows = batch_table(run, chunk, result)
    k = len(used)
    for i, r in enumerate(rows):
        row = chunk.first_row + i
        record = {"row": row,
                  "at": {n: json_number(v) for n, v in zip(used, r[:k])},
                  "value": json_number(r[k], precision),
                  "gradient": {n: json_number(v, precision) for n, v in zip(wanted, r[k + 1:])}}
        if errors and row in errors:
            record["error"] = errors[row]
        lines.append(dumps(record))
    return "\n".join(lines) + "\n" if lines else ""


def diff_batch_keys(run) -> list[str]:
    """Column names of `diff --points` output: the columns used, then df/dw, d2f/dx2, ..."""
    return list(run.columns_used) + [diff_label(run.result_name, d.wrt)
                                     for d in run.derivatives]


def diff_batch_columns(run, chunk, result) -> list:
    """The output columns of one chunk of `diff --points`, one float array each."""
    cols = [chunk.columns[n] for n in run.columns_used]
    return cols + [result.gradient[d.key] for d in run.derivatives]


def diff_batch_table(run, chunk, result):
    """The output rows of one chunk of `diff --points` as lists of floats."""
    return columns_rows(diff_batch_columns(run, chunk, result))


def _errors_in(errors, chunk) -> bool:
    """Whether a row of `chunk` has an error message (its record then has an "error" key)."""
    return bool(errors) and any(chunk.first_row <= r < chunk.first_row + chunk.n
                                for r in errors)


def _jsonl_columns(layout, cols, first_row, lines=None) -> bytes:
    """JSON lines built a whole column at a time: the text dumps() gives each record, as
    ASCII bytes.

    `layout` is [(key, None) for a number, or (key, [names]) for an object of numbers],
    in the order of the record and of `cols`; `lines` writes them (shortest.lines by
    default).
    """
    import numpy as np  # only batches come here
    if lines is None:
        from ..shortest import lines

    n = len(cols[0]) if cols else 0
    if not n:
        return b""
    fragments, pending = [], "{"
    for i, (key, names) in enumerate(layout):
        pending += ("" if i == 0 else ", ") + dumps(key) + ": "
        if names is None:
            fragments.append(pending)
            pending = ""
        elif not names:
            pending += "{}"
        else:
            for j, name in enumerate(names):
                fragments.append(pending + ("{" if j == 0 else ", ") + dumps(name) + ": ")
                pending = ""
            pending = "}"
    fragments.append(pending + "}\n")
    nan = {"nan": '"nan"', "inf": '"inf"', "-inf": '"-inf"'}
    k = len(cols) + 1
    rows = first_row + np.arange(n, dtype=float)  # whole numbers: no ".0" in the row column
    return lines([rows] + list(cols), fragments, [False] + [True] * (k - 1),
                 [{}] + [nan] * (k - 1))


def diff_batch_jsonl(run, chunk, result, precision=None, errors=None,
                     lines=None) -> str | bytes:
    """One JSON object per point: row, at, and each derivative's value keyed as diff's JSON
    (bytes or text, as batch_jsonl)."""
    if precision is None and not _errors_in(errors, chunk):
        layout = [("row", None), ("at", run.columns_used),
                  ("values", [d.key for d in run.derivatives])]
        return _jsonl_columns(layout, diff_batch_columns(run, chunk, result), chunk.first_row,
                              lines)
    lines = []
    k = len(run.columns_used)
    for i, r in enumerate(diff_batch_table(run, chunk, result)):
        row = chunk.first_row + i
        record = {"row": row,
                  "at": {n: json_number(v) for n, v in zip(run.columns_used, r[:k])},
                  "values": {d.key: json_number(v, precision)
                             for d, v in zip(run.derivatives, r[k:])}}
        if errors and row in errors:
            record["error"] = errors[row]
        lines.append(dumps(record))
    return "\n".join(lines) + "\n" if lines else ""



def check_points_header() -> str:
    """The header of `check --points -o plain`: one line per row and answer follows."""
    return "row\tanswer\tverdict\tgiven\texpected\n"


def check_points_lines(run, checked, precision=None) -> str:
    """One tab-separated line per row and answer: row, key, verdict, given, expected."""
    f = run.result_name
    columns = []
    for i, a in enumerate(run.answers):
        columns.append((label(a, f), _verdicts(checked, i), checked.given[i].tolist(),
                        checked.expected[i].tolist()))
    lines = []
    for r in range(checked.chunk.n):
        row = str(checked.chunk.first_row + r)
        for key, verdicts, given, expected in columns:
            lines.append(f"{row}\t{key}\t{verdicts[r]}\t{number_text(given[r], precision)}"
                         f"\t{number_text(expected[r], precision)}\n")
    return "".join(lines)


def check_points_jsonl(run, checked, precision=None, errors=None) -> str:
    """One JSON object per row: row, at, ok (null where unchecked) and each answer."""
    f = run.result_name
    chunk = checked.chunk
    verdicts = [_verdicts(checked, i) for i in range(len(run.answers))]
    lines = []
    for r in range(chunk.n):
        row = chunk.first_row + r
        answers = {}
        for i, a in enumerate(run.answers):
            answers[label(a, f)] = {"given": json_number(float(checked.given[i][r]), precision),
                                   "expected": json_number(float(checked.expected[i][r]),
                                                           precision),
                                   "verdict": verdicts[i][r]}
        ok = bool(all(v[r] == "right" for v in verdicts)) if checked.checked[r] else None
        record = {"row": row,
                  "at": {n: json_number(float(chunk.columns[n][r])) for n in run.columns_used},
                  "ok": ok, "answers": answers}
        if errors and row in errors:
            record["error"] = errors[row]
        lines.append(dumps(record))
    return "".join(line + "\n" for line in lines)


def check_points_summary(run, precision=None) -> dict:
    """The tally of `check --points`: per answer right and wrong rows, and the whole verdict."""
    answers = []
    for a in run.answers:
        item = {"key": label(a, run.result_name), "kind": a.kind, "name": a.name,
                "answer": a.answer, "right": a.right, "wrong": a.wrong, "ok": a.ok}
        if a.skipped:
            item["skipped"] = a.skipped
            item["skipped_rows"] = list(a.skipped_rows)
        if a.wrong:
            row, given, expected = a.first_wrong
            item["wrong_rows"] = list(a.wrong_rows)
            item["first_wrong"] = {"row": row, "given": json_number(given, precision),
                                   "expected": json_number(expected, precision)}
        if not a.ok and a.correct is not None:
            item["correct"] = a.correct
        answers.append(item)
    return {"ok": run.ok, "rows": run.rows, "unreadable_rows": run.bad_rows,
            "undefined_rows": run.undefined_rows,
            "right": sum(a.right for a in run.answers),
            "total": sum(a.right + a.wrong for a in run.answers),
            "rtol": run.rtol, "atol": run.atol, "answers": answers}


def check_points_summary_lines(summary) -> list[str]:
    """The summary in words, one line per answer and a last line for the whole check."""
    lines = []
    for item in summary["answers"]:
        checked = item["right"] + item["wrong"]
        line = f"{item['key']}: {item['right']} of {checked} rows right"
        if item["wrong"]:
            rows = ", ".join(str(r) for r in item["wrong_rows"])
            more = " and more" if item["wrong"] > len(item["wrong_rows"]) else ""
            first = item["first_wrong"]
            given, expected = (v if isinstance(v, str) else number_text(v)
                               for v in (first["given"], first["expected"]))
            line += (f"; wrong at row{'s' if item['wrong'] > 1 else ''} {rows}{more} (at row "
                     f"{first['row']} the answer is {given}, the correct value {expected})")
        if item.get("skipped"):
            rows = ", ".join(str(r) for r in item["skipped_rows"])
            more = " and more" if item["skipped"] > len(item["skipped_rows"]) else ""
            line += (f"; not compared at row{'s' if item['skipped'] > 1 else ''} {rows}{more}, "
                     "where your formula or the derivative is undefined")
        if "correct" in item:
            line += f"; the correct derivative is {item['correct']}"
        lines.append(line)
    good = sum(item["ok"] for item in summary["answers"])
    total = (f"{good} of {len(summary['answers'])} answers right ({summary['right']} of "
             f"{summary['total']} checks in {summary['rows']} rows")
    skipped = [f"{summary[k]} {k.split('_')[0]}" for k in ("unreadable_rows", "undefined_rows")
               if summary[k]]
    if skipped:
        many = summary["unreadable_rows"] + summary["undefined_rows"] > 1
        total += f"; {' and '.join(skipped)} row{'s' if many else ''} not checked"
    total += ")"
    if not summary["rows"]:
        lines.append("nothing checked: there are no rows")
    else:
        lines.append(("all right: " if summary["ok"] else "wrong: ") + total)
    return lines


def _verdicts(checked, i):
    """Per row of a checked chunk: right, wrong, unreadable or undefined for answer i."""
    chunk = checked.chunk
    out = []
    for r in range(chunk.n):
        if chunk.invalid[r]:
            out.append("unreadable")
        elif not checked.checked[r]:
            out.append("undefined")
        elif not checked.compared[i][r]:
            out.append("not compared")
        else:
            out.append("right" if checked.ok[i][r] else "wrong")
    return out
