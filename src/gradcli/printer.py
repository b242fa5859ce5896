"""Expr -> text in gradcli's own language, without recursion.

`to_text` puts parentheses only where precedence needs them, so parsing the
text gives back the same tree. `read_as` (clarify=True) adds the parentheses a
reader may want, showing how an ambiguous input was understood:
`1/2x` -> `(1/2)*x`, `-x**2` -> `-(x**2)`, `2**3**2` -> `2**(3**2)`.
"""
from __future__ import annotations

from fractions import Fraction

from . import ops
from .expr import Apply, Const, Expr, Name, Num, Program, Vector

_SPACED = {"add", "sub", "matmul"}


def format_number(value) -> str:
    """The shortest text that reads back as the same number (28, not 28.0)."""
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    text = repr(float(value))
    if text.endswith(".0"):
        text = text[:-2]
    return text


def _prec(node: Expr) -> int:
    if isinstance(node, Apply):
        return ops.TABLE[node.op].prec
    if isinstance(node, Num):
        if node.value < 0:
            return ops.UNARY
        if isinstance(node.value, Fraction) and node.value.denominator != 1:
            return ops.PRODUCT
    return ops.ATOM


def _needs_parens(parent: Apply, index: int, child: Expr, clarify: bool) -> bool:
    op = ops.TABLE[parent.op]
    if not op.is_operator:
        return False
    cp = _prec(child)
    if index > 0 and isinstance(child, Num) and child.value < 0:
        return True  # x*(-3), not x*-3
    if op.prec == ops.UNARY:
        if clarify and isinstance(child, Apply) and child.op == "pow":
            return True
        return cp < ops.UNARY or (isinstance(child, Num) and _prec(child) == ops.UNARY)
    if op.prec == ops.POWER:
        if index == 0:
            return cp <= ops.POWER
        if clarify and isinstance(child, Apply) and child.op == "pow":
            return True
        return cp < ops.POWER
    if clarify and op.prec == ops.PRODUCT and isinstance(child, Apply) and child.op == "pow":
        return True  # 2x^2 reads as 2*(x**2), 2^2x as (2**2)*x
    if index == 0:
        if clarify and op.prec == ops.PRODUCT and isinstance(child, Apply) and child.op == "div":
            return True
        return cp < op.prec
    return cp <= op.prec


def tokens(root: Expr, clarify: bool = False):
    """Yield the text pieces of `root`, iteratively (linear in the size)."""
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
            continue
        node = item
        if isinstance(node, Num):
            yield format_number(node.value)
        elif isinstance(node, (Name, Const)):
            yield node.id
        elif isinstance(node, Vector):
            stack.append("]")
            for i in range(len(node.items) - 1, -1, -1):
                stack.append(node.items[i])
                if i:
                    stack.append(", ")
            stack.append("[")
        elif isinstance(node, Apply):
            op = ops.TABLE[node.op]
            if not op.is_operator:
                stack.append(")")
                for i in range(len(node.args) - 1, -1, -1):
                    stack.append(node.args[i])
                    if i:
                        stack.append(", ")
                stack.append(node.op + "(")
                continue
            parts = []
            if len(node.args) == 1:
                parts.append(op.symbol)
            for i, arg in enumerate(node.args):
                if i:
                    parts.append(f" {op.symbol} " if node.op in _SPACED else op.symbol)
                if _needs_parens(node, i, arg, clarify):
                    parts.extend(("(", arg, ")"))
                else:
                    parts.append(arg)
            stack.extend(reversed(parts))
        else:
            raise TypeError(f"cannot print {node!r}")


def to_text(root: Expr, clarify: bool = False) -> str:
    """The expression in gradcli's language."""
    return "".join(tokens(root, clarify))


def read_as(program: Program) -> str:
    """How gradcli understood the input, with clarifying parentheses; statements joined by '; '."""
    parts = []
    for stmt in program.statements:
        text = to_text(stmt.expr, clarify=True)
        parts.append(f"{stmt.name} = {text}" if stmt.name is not None else text)
    return "; ".join(parts)


def program_text(program: Program) -> str:
    """A program as lines `name = expr`, the result last."""
    lines = []
    for stmt in program.statements:
        text = to_text(stmt.expr)
        lines.append(f"{stmt.name} = {text}" if stmt.name is not None else text)
    return "\n".join(lines)
