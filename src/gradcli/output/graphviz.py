"""The computation graph as Graphviz DOT, Mermaid and JSON text, and files drawn by `dot`.

Standard library only. Every node of a Trace becomes one box: its name (the
user's variable names on the leaves), its definition, its value and its
gradient; literal numbers are small plain nodes. Edges run from inputs to the
nodes that use them, one edge per use, so a value used twice has two edges.
Pictures (SVG, PNG, PDF) come from Graphviz's own `dot` program, run as a
subprocess with a time limit.
"""
from __future__ import annotations

import os
import shutil
import subprocess

from ..errors import GradcliError, UsageError
from .formats import json_number, number_text

RENDERED = {".svg": "svg", ".png": "png", ".pdf": "pdf"}
TEXT = {".dot": "dot", ".gv": "dot", ".mmd": "mermaid", ".json": "json"}
DOT_TIMEOUT = 120  # seconds; a graph of 10,000 nodes lays out in well under this

INSTALL_HINT = ("install Graphviz (Debian/Ubuntu: sudo apt-get install graphviz; macOS: "
                "brew install graphviz; conda: conda install graphviz; others: "
                "https://graphviz.org/download/), or write the DOT text with "
                "-o dot > graph.dot and draw it elsewhere")


# Longer label lines are cut (Graphviz refuses strings over 16,384 characters,
# and a vector of 10,000 values is no use in a box anyway); JSON has them whole.
LABEL_CHARS = 80
TITLE_CHARS = 200


def clip(text: str, limit: int = LABEL_CHARS) -> str:
    """`text`, or its start and an ellipsis."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def label_lines(node, precision=None) -> list[str]:
    """The text of one node: `v1 = w*x`, `value 6`, `grad 14`."""
    if node.kind == "literal":
        return [clip(node.name)]
    head = f"{node.name} = {node.formula}" if node.kind == "op" else node.name
    lines = [clip(head), clip(f"value {number_text(node.value, precision)}")]
    if node.grad is not None:
        lines.append(clip(f"grad {number_text(node.grad, precision)}"))
    return lines


def _ids(t) -> dict:
    return {n.name: f"n{n.index}" for n in t.forward}


def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(t, precision=None) -> str:
    """Graphviz DOT: inputs on the left, the result on the right."""
    ids = _ids(t)
    lines = ["digraph gradcli {",
             "  rankdir=LR;",
             '  node [fontname="Helvetica", fontsize=11];',
             f'  label={_dot_string(clip(t.read_as, TITLE_CHARS))}; labelloc=t; '
             'fontname="Helvetica";']
    for n in t.forward:
        # Lines joined by DOT's own \n escape, after escaping each line.
        label = '"' + "\\n".join(_dot_string(s)[1:-1] for s in label_lines(n, precision)) + '"'
        if n.kind == "literal":
            style = "shape=plaintext"
        elif n.kind == "input":
            style = 'shape=ellipse, style=filled, fillcolor="#dbeafe"'
        elif n.kind == "constant":
            style = 'shape=ellipse, style=filled, fillcolor="#f3f4f6"'
        else:
            style = "shape=box, style=rounded"
        if n.is_output:
            style += ", peripheries=2"
        lines.append(f"  {ids[n.name]} [label={label}, {style}];")
    for n in t.forward:
        for i in n.inputs:
            lines.append(f"  {ids[i]} -> {ids[n.name]};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _mermaid_text(text: str) -> str:
    return (text.replace("&", "#amp;").replace('"', "#quot;")
            .replace("<", "#lt;").replace(">", "#gt;"))


def to_mermaid(t, precision=None) -> str:
    """A Mermaid flowchart (paste into Markdown between ```mermaid fences)."""
    ids = _ids(t)
    lines = ["flowchart LR"]
    for n in t.forward:
        label = "<br/>".join(_mermaid_text(s) for s in label_lines(n, precision))
        shape = f'(["{label}"])' if n.kind in ("input", "constant") else f'["{label}"]'
        lines.append(f"  {ids[n.name]}{shape}")
    for n in t.forward:
        for i in n.inputs:
            lines.append(f"  {ids[i]} --> {ids[n.name]}")
    out = [n for n in t.forward if n.is_output]
    if out:
        lines.append(f"  style {ids[out[0].name]} stroke-width:3px")
    return "\n".join(lines) + "\n"


def record(t, precision=None) -> dict:
    """The graph as JSON: every node with its inputs (by name), value and gradient."""
    j = lambda v: json_number(v, precision)  # noqa: E731
    rec = {"expression": t.expression, "read_as": t.read_as,
           "at": {k: json_number(v) for k, v in t.at.items()}, "output": t.output,
           "nodes": [{"name": n.name, "kind": n.kind, "op": n.op, "formula": n.formula,
                      "inputs": list(n.inputs), "value": j(n.value),
                      "grad": None if n.grad is None else j(n.grad)} for n in t.forward]}
    if t.warnings:
        rec["warnings"] = list(t.warnings)
    return rec


def output_kind(path: str) -> str:
    """What `--output PATH` asks for, from its extension: svg, png, pdf, dot, mermaid, json."""
    ext = os.path.splitext(path)[1].lower()
    if ext in RENDERED:
        return RENDERED[ext]
    if ext in TEXT:
        return TEXT[ext]
    known = ", ".join(sorted(RENDERED) + sorted(TEXT))
    raise UsageError(f"--output {path}: cannot tell the format from "
                     f"'{ext or 'no extension'}'", hint=f"use one of {known}")


def render(dot_text: str, path: str, kind: str, timeout: float = DOT_TIMEOUT) -> None:
    """Draw DOT text into `path` (svg, png or pdf) with Graphviz's `dot` program."""
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise UsageError(f"cannot write {path}: the directory {directory} does not exist")
    dot = shutil.which("dot")
    if dot is None:
        raise UsageError(f"drawing {path} needs Graphviz's 'dot' program, which is not installed",
                         hint=INSTALL_HINT)
    try:
        done = subprocess.run([dot, f"-T{kind}", "-o", path], input=dot_text.encode("utf-8"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise GradcliError(f"Graphviz's dot did not finish drawing {path} within {timeout:g} s",
                           hint="draw a smaller expression, or write the DOT text with "
                                "-o dot and lay it out with another tool (sfdp handles "
                                "large graphs)") from None
    except OSError as exc:
        raise GradcliError(f"cannot run Graphviz's dot: {exc.strerror}",
                           hint=INSTALL_HINT) from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GradcliError(f"Graphviz's dot failed to draw {path}"
                           + (f": {message[0]}" if message else f" (exit {done.returncode})"))


__all__ = ["to_dot", "to_mermaid", "record", "render", "output_kind", "label_lines",
           "INSTALL_HINT"]
