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
    if getattr(value, "ndim", 0):
        # NumPy 2.3+ refuses float() of a one-element array; older NumPy (all
        # there is for Python 3.10) only warned and gave the element.
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
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
    if clarify and parent.op == "mul" and isinstance(child, Apply) and child.op == "pow":
        return True  # 2x^2 reads as 2*(x**2), 2^2x as (2**2)*x
    if index == 0:
        if clarify and op.prec == ops.PRODUCT and isinstance(child, Apply) and child.op == "div":
            return True
        return cp < op.prec
    return cp <= op.prec


def _pieces(root: Expr, leaf, parts, backwards: bool = False):
    """Yield the pieces of `root`, iteratively: text as it is, a leaf (Num, Name, Const)
    through `leaf`, a Vector or Apply through `parts` (its pieces, children still as nodes).

    `backwards` yields them last piece first, so the end of a text costs only its length.
    """
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, (Num, Name, Const)):
            yield leaf(item)
        elif isinstance(item, (Vector, Apply)):
            stack.extend(parts(item) if backwards else reversed(parts(item)))
        else:
            raise TypeError(f"cannot print {item!r}")


def _joined(open_: str, items, close: str) -> list:
    parts = [open_]
    for i, item in enumerate(items):
        if i:
            parts.append(", ")
        parts.append(item)
    parts.append(close)
    return parts


def _text_leaf(node) -> str:
    return format_number(node.value) if isinstance(node, Num) else node.id


def _text_parts(node, clarify: bool) -> list:
    """The pieces for one node in the language, its children still as nodes."""
    if isinstance(node, Vector):
        return _joined("[", node.items, "]")
    op = ops.TABLE[node.op]
    if not op.is_operator:
        return _joined(node.op + "(", node.args, ")")
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
    return parts


def tokens(root: Expr, clarify: bool = False):
    """Yield the text pieces of `root`, iteratively (linear in the size)."""
    return _pieces(root, _text_leaf, lambda node: _text_parts(node, clarify))


def to_text(root: Expr, clarify: bool = False) -> str:
    """The expression in gradcli's language."""
    return "".join(tokens(root, clarify))


def quoted(root: Expr, clarify: bool = False) -> str:
    """`limits.quote(to_text(root))`, printing only the ends that a long quote shows.

    Messages quote sub-expressions; printing a deep one in full for each of many
    messages made a run quadratic.
    """
    from .limits import MAX_QUOTE, quote

    def first(pieces, n: int) -> list:
        got, size = [], 0
        for piece in pieces:
            got.append(piece)
            size += len(piece)
            if size >= n:
                break
        return got

    parts = lambda node: _text_parts(node, clarify)  # noqa: E731
    head = "".join(first(_pieces(root, _text_leaf, parts), MAX_QUOTE + 1))
    if len(head) <= MAX_QUOTE:
        return head
    tail = "".join(reversed(first(_pieces(root, _text_leaf, parts, backwards=True), MAX_QUOTE)))
    # Both ends hold at least MAX_QUOTE characters, all that quote() keeps of either.
    return quote(head[:MAX_QUOTE] + tail[-MAX_QUOTE:])


def read_as(program: Program) -> str:
    """How gradcli understood the input, with clarifying parentheses; statements joined by '; '."""
    parts = []
    for stmt in program.statements:
        text = to_text(stmt.expr, clarify=True)
        parts.append(f"{stmt.name} = {text}" if stmt.name is not None else text)
    return "; ".join(parts)


# ---------------------------------------------------------------- LaTeX

_GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
          "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi",
          "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Phi", "Psi",
          "Omega"}


def latex_name(name: str) -> str:
    """A variable as LaTeX: x, x_{1}, \\theta, \\mathrm{loss}."""
    if name == "pi":
        return r"\pi"
    if name == "e":
        return "e"
    stem = name.rstrip("0123456789")
    digits = name[len(stem):]
    if "_" in stem.strip("_") and not digits:
        stem, _, digits = stem.rpartition("_")
    if stem in _GREEK:
        stem = "\\" + stem
    elif len(stem) > 1:
        stem = r"\mathrm{%s}" % stem.replace("_", r"\_")
    return f"{stem}_{{{digits}}}" if digits and stem else (stem or name)


def latex_number(value) -> str:
    """A number as LaTeX: 3, 0.5, \\frac{1}{3}, 1.5 \\cdot 10^{-7}."""
    if isinstance(value, Fraction) and value.denominator != 1:
        sign = "-" if value < 0 else ""
        return sign + r"\frac{%d}{%d}" % (abs(value.numerator), value.denominator)
    text = format_number(value)
    if "e" in text:
        mantissa, _, exponent = text.partition("e")
        exponent = str(int(exponent))
        return (r"10^{%s}" % exponent if mantissa == "1"
                else r"%s \cdot 10^{%s}" % (mantissa, exponent))
    return text


def _latex_prec(node: Expr) -> int:
    if isinstance(node, Apply):
        if node.op == "div":
            return ops.PRODUCT
        op = ops.TABLE[node.op]
        return op.prec if op.is_operator else ops.ATOM
    if isinstance(node, Num) and node.value < 0:
        return ops.UNARY
    return ops.ATOM


def _latex_parens(parent: Apply, index: int, child: Expr) -> bool:
    op = parent.op
    cp = _latex_prec(child)
    if op in ("add", "sub"):
        return index > 0 and (cp <= ops.UNARY and not (op == "add" and cp == ops.PRODUCT)
                              and not (op == "sub" and cp == ops.PRODUCT))
    if op in ("mul", "matmul"):
        return cp < ops.PRODUCT or (index > 0 and cp == ops.UNARY)
    if op in ("neg", "pos"):
        return cp <= ops.UNARY and not (isinstance(child, Apply) and child.op == "div")
    if op == "pow":
        return index == 0 and not isinstance(child, (Name, Const)) \
            and not (isinstance(child, Num) and cp == ops.ATOM) \
            and not (isinstance(child, Apply) and child.op == "sqrt")
    return False


def _latex_leaf(node) -> str:
    return latex_number(node.value) if isinstance(node, Num) else latex_name(node.id)


def latex_tokens(root: Expr):
    """Yield the LaTeX pieces of `root`, iteratively."""
    return _pieces(root, _latex_leaf, _latex_parts)


def _wrap(node: Apply, i: int, arg: Expr) -> list:
    if _latex_parens(node, i, arg):
        return [r"\left(", arg, r"\right)"]
    return [arg]


def _latex_parts(node) -> list:
    """The pieces for one node, its arguments still as nodes to expand."""
    if isinstance(node, Vector):
        parts = [r"\begin{bmatrix}"]
        for i, child in enumerate(node.items):
            if i:
                parts.append(r" \\ " if isinstance(child, Vector) else " & ")
            parts.append(child)
        parts.append(r"\end{bmatrix}")
        return parts
    op = ops.TABLE[node.op]
    args = node.args
    name = node.op
    if name == "div":
        return [r"\frac{", args[0], "}{", args[1], "}"]
    if name == "pow":
        return _wrap(node, 0, args[0]) + ["^{", args[1], "}"]
    if name == "sqrt":
        return [r"\sqrt{", args[0], "}"]
    if name == "cbrt":
        return [r"\sqrt[3]{", args[0], "}"]
    if name == "abs":
        return [r"\left|", args[0], r"\right|"]
    if name == "log" and len(args) == 2:
        return [r"\log_{", args[1], r"}\left(", args[0], r"\right)"]
    if op.is_operator:
        if len(args) == 1:
            return [op.symbol] + _wrap(node, 0, args[0])
        symbol = {"add": " + ", "sub": " - ", "mul": r" \cdot ", "matmul": " "}[name]
        return _wrap(node, 0, args[0]) + [symbol] + _wrap(node, 1, args[1])
    return _joined((op.latex or r"\operatorname{%s}" % name) + r"\left(", args, r"\right)")


def to_latex(root: Expr) -> str:
    """The expression as LaTeX (\\frac, \\sqrt, \\sin, \\cdot, ^{...})."""
    return "".join(latex_tokens(root))
