"""Batches on the streams: eval, diff and check --points print chunk by chunk, capped messages, an exit code.

The commands' aggregation over a batch job (batch.run, batch.diff_run,
check.check_points): header, rows per chunk in the chosen format, row errors
and warnings capped per kind, a progress bar on a terminal, the summary; it
returns the exit code and leaves exiting to cli/.

output/ does not import the batch package (data/): the caller passes what it
needs of it, `open_sink(path, keys, precision)` for --output FILE
(data/sinks.open_sink) and `lines`, the writer of whole columns of text
(data/textlines.column_lines; shortest.lines when not given, the same bytes).
"""
from __future__ import annotations

import os
import sys

from ..columntext import batch_header, batch_keys, columns_delimited, columns_rows
from ..limits import MAX_MESSAGES
from ..numbers import display_precision
from . import batchtext, formats
from .streams import emit, emit_bytes, output_format, stderr, warn


def print_rich(renderable) -> None:
    from .render import console
    console().print(renderable)


def eval_points(job, fmt, precision, output=None, open_sink=None, lines=None) -> int:
    """eval --points: one output row per point (on stdout, or in the file `output`); the
    exit code."""
    name = job.program.statements[-1].name or "f"
    return stream_points(job, fmt, precision, batch_keys(job, name),
                         lambda chunk, result: batchtext.batch_columns(job, chunk, result),
                         lambda chunk, result, errors: batchtext.batch_jsonl(
                             job, chunk, result, precision, name, errors, lines),
                         output, open_sink, lines)


def diff_points(job, fmt, precision, output=None, open_sink=None, lines=None) -> int:
    """diff --points: each derivative at every row; the exit code."""
    return stream_points(job, fmt, precision, batchtext.diff_batch_keys(job),
                         lambda chunk, result: batchtext.diff_batch_columns(job, chunk, result),
                         lambda chunk, result, errors: batchtext.diff_batch_jsonl(
                             job, chunk, result, precision, errors, lines),
                         output, open_sink, lines)


def stream_points(job, fmt, precision, keys, columns, jsonl, output=None, open_sink=None,
                  lines=None):
    """Print a batch chunk by chunk (`columns` gives float arrays, `jsonl` JSON lines), or
    write its columns to the file `output` (by `open_sink`: whole or not at all); the exit
    code (0; 2 when rows could not be read; 3 when some were undefined)."""
    import time

    if job.unused:
        listed = ", ".join(f"'{c}'" for c in job.unused)
        warn([f"column{'s' if len(job.unused) > 1 else ''} {listed} of {job.reader.label} "
              "not used by the expression"])
    sink = None
    if output is not None:
        sink = open_sink(output, keys, precision)
        fmt = "file"
    fmt = output_format(fmt)
    if fmt in ("csv", "plain"):
        sep = "," if fmt == "csv" else "\t"
        emit(batch_header(keys, sep))
    counts = {"error": 0, "warning": 0}
    start, bar = time.monotonic(), None
    want_bar, wait, terminal = progress_wanted()
    if sink is not None and not want_bar and wait == 1.0:
        want_bar = sys.stderr.isatty()  # the rows go to the file: the terminal is free
    finished = False
    try:
        for chunk, result in job:
            errors = {}
            for row, message in chunk.problems:
                errors[row] = message
                limited(counts, "error", message)
            for row, message in result.problems:
                errors[row] = f"row {row}: {message}"
                limited(counts, "warning", f"row {row}: {message}")
            for message in result.kinks:
                limited(counts, "warning", message)
            if sink is not None:
                sink.write(columns(chunk, result))
            elif fmt == "json":
                rows = jsonl(chunk, result, errors)
                (emit_bytes if isinstance(rows, bytes) else emit)(rows)
            elif fmt == "table":
                from . import render
                rows = columns_rows(columns(chunk, result))
                # A table is read by people: 6 significant digits, as every table
                print_rich(render.batch_rows(keys, rows, display_precision("table", precision),
                                             chunk.first_row == 1, chunk.first_row))
            else:
                emit_bytes(columns_delimited(columns(chunk, result), precision,
                                             "," if fmt == "csv" else "\t", lines))
            if want_bar and bar is None and time.monotonic() - start >= wait:
                from . import render
                # the file's name, not its path: a long path pushed the percentage off an
                # 80-column line
                bar = render.progress_bar(job.reader.total_bytes,
                                          os.path.basename(job.reader.label), terminal)
            if bar is not None:
                bar.update(job.reader.bytes_read)
        finished = True
    finally:
        if bar is not None:
            if finished:  # the whole file is read, whatever the reader's last count said
                bar.update(job.reader.total_bytes)
            bar.stop()
        if sink is not None and not finished:
            sink.abort()
    if sink is not None:
        sink.commit()
        stderr(f"wrote {sink.path} ({sink.description})")
    for kind, limit_name in (("error", "errors"), ("warning", "warnings")):
        hidden = counts[kind] - MAX_MESSAGES
        if hidden > 0:
            stderr(f"{kind}: ... and {hidden} more {limit_name} like these")
    if not job.rows:
        warn([f"--points: {job.reader.label} has no rows of points"])
    if job.bad_rows or job.undefined_rows:
        parts = []
        if job.bad_rows:
            parts.append(f"{job.bad_rows} row{'s' if job.bad_rows > 1 else ''} could not be read")
        if job.undefined_rows:
            parts.append(f"{job.undefined_rows} row{'s' if job.undefined_rows > 1 else ''} "
                         "undefined")
        stderr(f"{'error' if job.bad_rows else 'warning'}: {' and '.join(parts)} of "
                f"{job.rows} (shown as nan)")
        return job.exit_code
    return 0


def progress_wanted():
    """(whether, after how many seconds, drawn as on a terminal): a bar on stderr when it
    is a terminal and stdout is not (the rows would run through it), after a second.
    GRADCLI_PROGRESS=1 draws it from the first chunk wherever stderr goes (to see and
    test it), GRADCLI_PROGRESS=0 never."""
    import os

    forced = os.environ.get("GRADCLI_PROGRESS", "")
    if forced == "1":
        return True, 0.0, True
    if forced == "0":
        return False, 0.0, None
    return sys.stderr.isatty() and not sys.stdout.isatty(), 1.0, None


def check_points(job, fmt, precision) -> int:
    """check --points: a verdict per row and answer, then the summary; the exit code
    (0 all right, 1 some wrong, 2 unreadable rows or none, 3 undefined rows)."""
    warn(job.warnings)
    if job.unused:
        listed = ", ".join(f"'{c}'" for c in job.unused)
        warn([f"column{'s' if len(job.unused) > 1 else ''} {listed} of {job.reader.label} "
              "not used by the expression"])
    fmt = output_format(fmt)
    if fmt == "plain":
        emit(batchtext.check_points_header())
    counts = {"error": 0, "warning": 0}
    for checked in job:
        errors = {}
        for row, message in checked.chunk.problems:
            errors[row] = message
            limited(counts, "error", message)
        for row, message in checked.result.problems:
            errors[row] = f"row {row}: {message}"
            limited(counts, "warning", f"row {row}: {message}")
        for message in checked.result.kinks:
            limited(counts, "warning", message)
        if fmt == "json":
            emit(batchtext.check_points_jsonl(job, checked, precision, errors))
        elif fmt == "plain":
            emit(batchtext.check_points_lines(job, checked, precision))
        else:
            from . import render
            print_rich(render.check_points_rows(job, checked, precision,
                                                checked.chunk.first_row == 1))
    for kind, limit_name in (("error", "errors"), ("warning", "warnings")):
        hidden = counts[kind] - MAX_MESSAGES
        if hidden > 0:
            stderr(f"{kind}: ... and {hidden} more {limit_name} like these")
    summary = batchtext.check_points_summary(job, precision)
    lines = batchtext.check_points_summary_lines(summary)
    if fmt == "json":
        emit(formats.dumps({"summary": summary}) + "\n")
    elif fmt == "plain":
        emit("".join(f"# {line}\n" for line in lines))
    else:
        from . import render
        print_rich(render.check_points_summary(lines, job.ok))
    if not job.rows:
        stderr(f"error: --points: {job.reader.label} has no rows of points, so nothing was "
                "checked")
    return job.exit_code


def limited(counts, kind, message) -> None:
    """A row's error or warning on stderr, the first MAX_MESSAGES of each kind only."""
    counts[kind] += 1
    if counts[kind] <= MAX_MESSAGES:
        stderr(f"{kind}: {message}")
