"""Expr -> text in gradcli's own language, without recursion.

`to_text` puts parentheses only where precedence needs them, so parsing the
text gives back the same tree. `read_as` (clarify=True) adds the parentheses a
reader may want, showing how an ambiguous input was understood:
`1/2x` -> `(1/2)*x`, `-x**2` -> `-(x**2)`, `2**3**2` -> `2**(3**2)`.

The natural logarithm prints as `ln` in every output (text and LaTeX), so that
no reader takes it for base 10. `textbook=True` (what `diff` prints) also
writes powers with `^` and exp(u) as `e^u`: still the language, so it reads
back to the same numbers, though exp(u) then reads back as the power e^u.
"""
from __future__ import annotations

import re

from fractions import Fraction

from .. import ops
from ..limits import MAX_QUOTE, quote
from ..numbers import format_number
from .expr import Apply, Call, Const, Expr, Name, Num, Program, Vector

_SPACED = {"add", "sub", "matmul"}


def _prec(node: Expr) -> int:
    if isinstance(node, Apply):
        return ops.TABLE[node.op].prec
    if isinstance(node, Num):
        if node.value < 0:
            return ops.UNARY
        if isinstance(node.value, Fraction) and node.value.denominator != 1:
            return ops.PRODUCT
    return ops.ATOM


def _needs_parens(op, parent: Apply, index: int, child: Expr, clarify: bool) -> bool:
    """Whether argument `index` of the operator `parent` (op: its table record) needs
    parentheses."""
    cp = _prec(child)
    if index > 0 and (isinstance(child, Num) and child.value < 0
                      or isinstance(child, Apply) and child.op == "neg"):
        return True  # x*(-3) and x^2*(-csc(x)^2), not x*-3 and x^2*-csc(x)^2
    if op.prec == ops.UNARY:
        if clarify and isinstance(child, Apply) and child.op == "pow":
            return True
        return cp < ops.UNARY or (isinstance(child, Num) and _prec(child) == ops.UNARY) \
            or (isinstance(child, Apply) and child.op in ("neg", "pos"))  # -(-x), not --x
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
    pop, extend = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is str:
            yield item
        elif kind is Apply or kind is Vector or kind is Call:
            extend(parts(item) if backwards else reversed(parts(item)))
        elif kind is Num or kind is Name or kind is Const:
            yield leaf(item)
        elif isinstance(item, str):  # a str subclass (the checks above are by exact type)
            yield item
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


def _function_name(node: Apply) -> str:
    """The name a call prints with: log is `ln` (log(x, b) keeps its name)."""
    return "ln" if node.op == "log" and len(node.args) == 1 else node.op


def _simple_exponent(arg: Expr) -> bool:
    """An exponent that needs no parentheses after `e^`: a name, a number, a call."""
    if isinstance(arg, (Name, Const)):
        return True
    if isinstance(arg, Num):
        return _prec(arg) == ops.ATOM
    return isinstance(arg, Apply) and not ops.TABLE[arg.op].is_operator


def _text_parts(node, clarify: bool, textbook: bool = False) -> list:
    """The pieces for one node in the language, its children still as nodes."""
    if isinstance(node, Vector):
        if len(node.items) == 1 and not isinstance(node.items[0], Vector):
            return _joined("[", node.items, ",]")  # [x] alone would be a group
        return _joined("[", node.items, "]")
    if isinstance(node, Call):
        return _joined(node.label + "(", node.args, ")")
    op = ops.TABLE[node.op]
    if not op.is_operator:
        if textbook and node.op == "exp" and len(node.args) == 1:
            arg = node.args[0]
            return ["e^", arg] if _simple_exponent(arg) else ["e^(", arg, ")"]
        return _joined(_function_name(node) + "(", node.args, ")")
    symbol = "^" if textbook and node.op == "pow" else op.symbol
    parts = []
    if len(node.args) == 1:
        parts.append(symbol)
    for i, arg in enumerate(node.args):
        if i:
            parts.append(f" {symbol} " if node.op in _SPACED else symbol)
        if _needs_parens(op, node, i, arg, clarify) or (
                textbook and _textbook_parens(node, i, arg)):
            parts.extend(("(", arg, ")"))
        else:
            parts.append(arg)
    return parts


def _textbook_parens(parent: Apply, index: int, child: Expr) -> bool:
    """Where `^` and `e^u` need parentheses that `**` does not: x^(y^2), (e^x)^2."""
    if parent.op != "pow" or not isinstance(child, Apply):
        return False
    return child.op == "exp" or (index == 1 and child.op == "pow")


def tokens(root: Expr, clarify: bool = False, textbook: bool = False):
    """Yield the text pieces of `root`, iteratively (linear in the size)."""
    return _pieces(root, _text_leaf, lambda node: _text_parts(node, clarify, textbook))


def to_text(root: Expr, clarify: bool = False, textbook: bool = False) -> str:
    """The expression in gradcli's language (`textbook`: `^` and `e^u`, as `diff` prints)."""
    return "".join(tokens(root, clarify, textbook))


def quoted(root: Expr, clarify: bool = False) -> str:
    """`limits.quote(to_text(root))`, printing only the ends that a long quote shows.

    Messages quote sub-expressions; printing a deep one in full for each of many
    messages made a run quadratic.
    """

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
    """How gradcli understood the input, with clarifying parentheses; statements joined by '; '.

    An expanded program (named functions replaced by their bodies) shows its
    original, as typed.
    """
    parts = []
    for stmt in (program.original or program).statements:
        text = to_text(stmt.expr, clarify=True)
        if stmt.params is not None:
            parts.append(f"{stmt.name}({', '.join(stmt.params)}) = {text}")
        else:
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
    memo: dict = {}
    return _pieces(root, _latex_leaf, lambda node: _latex_parts(node, memo))


def _wrap(node: Apply, i: int, arg: Expr) -> list:
    if _latex_parens(node, i, arg):
        return [r"\left(", arg, r"\right)"]
    return [arg]


def _named_function(node) -> bool:
    r"""A one-argument function printed as its name and \left(...\right): sin, ln, sigma
    (not one with a notation of its own, the op table's latex_form: \sqrt{x}, e^{x})."""
    if not isinstance(node, Apply) or len(node.args) != 1:
        return False
    op = ops.TABLE[node.op]
    return not op.is_operator and op.latex_form is None


def _function_power(node) -> bool:
    r"""sin(x)**2, printed as a book does: \sin^{2}\left(x\right)."""
    exponent = node.args[1]
    return _named_function(node.args[0]) and isinstance(exponent, Num) \
        and isinstance(exponent.value, int) and exponent.value > 0


# What a node's LaTeX begins or ends with, which decides how a product joins its factors:
# a digit, a letter, a control word such as \pi (ends so: the next letter needs a space),
# a sign, or anything else (a brace, \left(, \frac).
_NUM, _LETTER, _WORD, _SIGN, _OTHER = "num", "letter", "word", "sign", "other"


def _leaf_edge(node, end: int) -> str:
    if isinstance(node, Num):
        text = latex_number(node.value)
        if end == 0:
            return _SIGN if text.startswith("-") else (_NUM if text[0].isdigit() else _WORD)
        return _NUM if text[-1].isdigit() else _OTHER
    text = latex_name(node.id)
    if end == 0:
        return _WORD if text.startswith("\\") else _LETTER
    if text[-1] == "}":
        return _OTHER
    return _WORD if text.startswith("\\") else _LETTER


def _edge_step(node, end: int):
    """(kind, None) when the edge is known here, or (None, child) to look further in."""
    if isinstance(node, (Num, Name, Const)):
        return _leaf_edge(node, end), None
    if isinstance(node, (Vector, Call)):
        return (_WORD if end == 0 else _OTHER), None
    name, args = node.op, node.args
    if name in ("mul", "matmul", "add", "sub"):
        i = 0 if end == 0 else 1
        if _latex_parens(node, i, args[i]):
            return (_WORD if end == 0 else _OTHER), None
        return None, args[i]
    if name in ("neg", "pos"):
        if end == 0:
            return _SIGN, None
        return (_OTHER, None) if _latex_parens(node, 0, args[0]) else (None, args[0])
    if name == "pow":
        if end == 1:
            return _OTHER, None
        if _function_power(node) or _latex_parens(node, 0, args[0]):
            return _WORD, None
        return None, args[0]
    if name == "exp" and len(args) == 1:
        return (_LETTER if end == 0 else _OTHER), None
    return (_WORD if end == 0 else _OTHER), None


def _edge(node, end: int, memo: dict) -> str:
    """The edge kind of `node` (end 0: its start, 1: its end), walking one spine at most once."""
    path = []
    while True:
        key = (id(node), end)
        if key in memo:
            kind = memo[key]
            break
        path.append(key)
        kind, node = _edge_step(node, end)
        if kind is not None:
            break
    for key in path:
        memo[key] = kind
    return kind


def _product_join(node, memo) -> str:
    r"""How two factors are joined: side by side (2x, xy, 2\sqrt{x}), with a space before a
    function or a group (2x \sin(x)), with \cdot only where side by side would misread
    (before a number: 2 \cdot 3, x \cdot 2^{y}, x \cdot (-3))."""
    a, b = node.args
    wrapped_a, wrapped_b = _latex_parens(node, 0, a), _latex_parens(node, 1, b)
    first_b = _WORD if wrapped_b else _edge(b, 0, memo)
    last_a = _OTHER if wrapped_a else _edge(a, 1, memo)
    if first_b in (_NUM, _SIGN) or (wrapped_b and isinstance(b, Num)):
        return r" \cdot "
    if isinstance(a, Num) and "10^" in latex_number(a.value):
        return r" \cdot "  # 10^{-7} \cdot x: a number in scientific form ends in a power
    if last_a == _WORD:
        return " "  # \pi x, not \pix
    if first_b == _LETTER or last_a == _NUM:
        return ""
    return " "


def _latex_parts(node, memo=None) -> list:
    """The pieces for one node, its arguments still as nodes to expand."""
    if isinstance(node, Call):
        return _joined(_latex_call_name(node) + r"\left(", node.args, r"\right)")
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
        if _function_power(node):
            inner = args[0]
            return [_latex_function(inner), "^{", args[1], r"}\left(", inner.args[0], r"\right)"]
        return _wrap(node, 0, args[0]) + ["^{", args[1], "}"]
    if op.latex_form is not None and len(args) == 1:  # \sqrt{x}, \sqrt[3]{x}, |x|, e^{x}
        before, after = op.latex_form
        return [before, args[0], after]
    if name == "log" and len(args) == 2:
        return [r"\log_{", args[1], r"}\left(", args[0], r"\right)"]
    if op.is_operator:
        if len(args) == 1:
            return [op.symbol] + _wrap(node, 0, args[0])
        if name == "mul":
            symbol = _product_join(node, {} if memo is None else memo)
        else:
            symbol = {"add": " + ", "sub": " - ", "matmul": " "}[name]
        return _wrap(node, 0, args[0]) + [symbol] + _wrap(node, 1, args[1])
    return _joined(_latex_function(node) + r"\left(", args, r"\right)")


def _latex_call_name(node: Call) -> str:
    r"""f'' as f'', g_xy as g_{xy}: a defined function's name with its derivative marks."""
    marks = node.label[len(node.name):]
    if marks.startswith("_"):
        return latex_name(node.name) + "_{%s}" % marks[1:].replace("_", "")
    return latex_name(node.name) + "'" * len(node.wrt)


def _latex_function(node) -> str:
    r"""A function's LaTeX name: the table's (\sin, \sigma), `\ln` for the natural log."""
    if node.op == "log":
        return r"\ln"
    op = ops.TABLE[node.op]
    return op.latex or r"\operatorname{%s}" % node.op


def to_latex(root: Expr) -> str:
    """The expression as LaTeX (\\frac, \\sqrt, \\sin, \\cdot, ^{...})."""
    return "".join(latex_tokens(root))


def _counted(wrt) -> list:
    """('x', 'x', 'y') -> [('x', 2), ('y', 1)]."""
    out = []
    for v in wrt:
        if out and out[-1][0] == v:
            out[-1][1] += 1
        else:
            out.append([v, 1])
    return [tuple(p) for p in out]


def diff_label(f: str, wrt, unicode: bool = False, several: bool = True) -> str:
    """df/dw, d2f/dxdy, d2f/dx2 (or ∂f/∂w, ∂²f/∂x∂y, ∂²f/∂x² with unicode; d²f/dx² with
    unicode for a function of one variable, not `several`, as a book writes it)."""
    n = len(wrt)
    if unicode:
        sup = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
        d = "∂" if several else "d"
        top = d + (str(n).translate(sup) if n > 1 else "") + f
        bottom = "".join(d + v + (str(k).translate(sup) if k > 1 else "")
                         for v, k in _counted(wrt))
        return f"{top}/{bottom}"
    top = "d" + (str(n) if n > 1 else "") + f
    bottom = "".join("d" + v + (str(k) if k > 1 else "") for v, k in _counted(wrt))
    return f"{top}/{bottom}"


def carets(text: str) -> str:
    """A message, title or read-as line in the one notation people read: x^2, not x**2.

    JSON keeps `**` (what Python prints, and docs/eval.md's JSON shows); what a person
    reads uses `^`, as results do.
    """
    return text.replace("**", "^")


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
# (x^2) in a reading: a name or number to a whole power, bracketed to show the grouping
_BRACKETED_POWER = re.compile(r"(?<![\w^)])\((\w+)\^(\d{1,3}|\(-\d{1,3}\))\)(?![\^\w(])")


def screen_reading(text: str) -> str:
    """The read-as line on a terminal: the power a reading brackets to show its grouping
    ((x^2)*sin(x), 3*x*(y^2)) printed as a book does, x²*sin(x) and 3*x*y², which shows
    the same grouping with no brackets no one typed. gradcli reads it back the same."""
    return _BRACKETED_POWER.sub(
        lambda m: m.group(1) + m.group(2).strip("()").translate(_SUPERSCRIPT), carets(text))
