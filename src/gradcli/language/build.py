"""The AST builder: the grammar's reduce callbacks, each building one node as the parser reduces.

Also the readings that need a built node to see (e^2x and 10^-2x refused as
ambiguous, x^1/2 and 1/2x and 2e3x warned, the book forms of bookforms.py
warned, [x] as a group or a matrix row) and
the names' checks after the build (no redefinition, no use before definition).
docs/language.md shows each. The builder reads the source and puts its warnings
in the ParseContext of its parse; nothing here is shared between parses.
"""
from __future__ import annotations

import re

from .. import limits, ops
from ..errors import ParseError
from .chars import CONSTANT_ALIASES, SUBSCRIPTS, SUPERSCRIPT_DIGITS, SUPERSCRIPTS
from .bookforms import glued_after_power, over_number
from .explain import unknown_function
from .expr import (Apply, Call, Const, Expr, Name, Num, Program, Statement, Vector, free_names,
                   postorder)
from .lalr import Transformer
from .postlex import ParseContext, UserFunction

_BINARY = {"+": "add", "-": "sub", "*": "mul", "/": "div", "@": "matmul", "**": "pow", "^": "pow"}
_PREFIX = {"-": "neg", "+": "pos"}


class _Span:
    """Helpers for node positions: (start, end) character offsets in the source."""

    @staticmethod
    def of(item):
        if isinstance(item, Expr):
            return item.span
        return (item.start_pos, item.end_pos)

    @staticmethod
    def join(first, last):
        start = first.span[0] if isinstance(first, Expr) else first.start_pos
        return (start, last.span[1] if isinstance(last, Expr) else last.end_pos)


class Builder(Transformer):
    """Reduce callbacks: each builds one AST node as the parser reduces (one per parse)."""

    def __init__(self, ctx: ParseContext):
        self.ctx = ctx
        self.source = ctx.source
        self.warnings = ctx.warnings
        self.bracket_groups = ctx.bracket_groups

    def _warn(self, message):
        if message in self.warnings:
            return
        if len(self.warnings) >= limits.MAX_WARNINGS:
            self.ctx.skipped += 1
            return
        self.warnings.append(message)

    def start(self, children):
        return children

    def assign(self, c):
        name, _, expr = c
        _check_name(self.source, name)
        return Statement(str(name), expr, _Span.join(name, expr), _Span.of(name))

    def define(self, c):
        head, _, items, _, _, body = c
        op = head.extra.op
        name = str(head)
        if not isinstance(op, UserFunction):
            raise ParseError(f"'{name}' is a built-in function and cannot be defined "
                             "again", span=_Span.of(head),
                             hint="choose another name, such as f, g or h")
        if op.wrt or head.extra.power is not None:
            raise ParseError(f"'{self.source[head.start_pos:head.end_pos]}' cannot be "
                             "defined: define the function itself and gradcli takes "
                             "its derivatives", span=_Span.of(head),
                             hint=f"for example {op.function}(x) = x^2 sin x; "
                                  f"{op.function}'(2)")
        params = []
        for item in items:
            if not isinstance(item, Name):
                raise ParseError(f"the parameters of {name}(…) must be names",
                                 span=item.span,
                                 hint=f"for example {name}(x) = x^2 or "
                                      f"{name}(x, y) = x*y; then {name}(2)")
            if item.id in params:
                raise ParseError(f"the parameter '{item.id}' is listed twice",
                                 span=item.span, hint="give each parameter its own name")
            params.append(item.id)
        return Statement(name, body, _Span.join(head, body), _Span.of(head),
                         params=tuple(params))

    def _e_notation(self, left, right):
        typed = self.source[left.span[0]:left.span[1]]
        mantissa, _, exponent = typed.lower().partition("e")
        sign = "-" if exponent.startswith("-") else "+"
        self._warn(f"'{typed}{self.source[right.span[0]:right.span[1]]}' is read as "
                   f"{typed} (= {left.value!r}) times "
                   f"{self.source[right.span[0]:right.span[1]]}: {typed} is scientific "
                   f"notation; write {mantissa}e {sign} {exponent.lstrip('+-')}"
                   f"{self.source[right.span[0]:right.span[1]]} (with spaces) for "
                   f"{mantissa}·e {sign} {exponent.lstrip('+-')}·"
                   f"{self.source[right.span[0]:right.span[1]]}")

    def binary(self, c):
        left, tok, right = c
        power = _last_factor(left) if tok.type == "DIVIDE" else None
        unit = power is not None and _unit_power_over_integer(self.source, power, right)
        if unit:
            typed = self.source[left.span[0]:right.span[1]]
            exponent = self.source[power.args[1].span[0]:power.args[1].span[1]]
            self._warn(f"'{typed}' is read as ({typed.rsplit('/', 1)[0]})/"
                       f"{self.source[right.span[0]:right.span[1]]}: a power binds "
                       f"tighter than '/'; a root is written with brackets, as "
                       f"{self.source[power.args[0].span[0]:power.args[0].span[1]]}^"
                       f"({exponent}/{self.source[right.span[0]:right.span[1]]})")
        if power is not None:
            book = over_number(self.source, power, right, unit)
            if book is not None:
                self._warn(book)
        if tok.type == "POW" and isinstance(left, Const) and left.id == "e":
            return Apply("exp", (right,), _Span.join(left, right))  # e^u is exp(u)
        return Apply(_BINARY[tok.value], (left, right), _Span.join(left, right))

    def superscript(self, c):
        base, sup = c
        text = str(sup).translate(SUPERSCRIPTS)
        power = Num(int(text), _Span.of(sup))
        if isinstance(base, Const) and base.id == "e":
            return Apply("exp", (power,), _Span.join(base, sup))
        return Apply("pow", (base, power), _Span.join(base, sup))

    def implicit(self, c):
        left, tok, right = c
        node = Apply("mul", (left, right), _Span.join(left, right))
        last = _last_factor(left)
        if _glued_to_letter(self.source, last, right):
            _ambiguous_exponent(self.source, last, right)
            if type(last) is Num and "e" in self.source[last.span[0]:last.span[1]].lower():
                self._e_notation(last, right)
        book = glued_after_power(self.source, last, right)
        if book is not None:
            self._warn(book)  # e^x(x+1): says all that 'x is a variable here' would
        if isinstance(left, Apply) and left.op == "div" and tok.type == "IMPLICIT" \
                or tok.value.startswith("NAME(") and isinstance(left, Apply) \
                and left.op == "div":
            if len(self.warnings) >= limits.MAX_WARNINGS:
                self.ctx.skipped += 1  # counted, not built: each costs the node's size
                return node
            from .printer import quoted
            other = Apply("div", (left.args[0], Apply("mul", (left.args[1], right))))
            self._warn(
                f"'{limits.quote(self.source[node.span[0]:node.span[1]])}' is read as "
                f"{quoted(node, clarify=True)}: juxtaposition binds like '*', left to "
                f"right; write {quoted(other)} if you meant that")
        elif tok.value.startswith("NAME(") and book is None \
                and len(self.warnings) < limits.MAX_WARNINGS:
            from .printer import quoted
            self._warn(
                f"'{limits.quote(self.source[node.span[0]:node.span[1]])}' is read as "
                f"{quoted(node, clarify=True)}: '{tok.value[5:]}' "
                "is a variable here, not a function")
        return node

    def prefix(self, c):
        tok, arg = c
        if tok == "-" and isinstance(arg, Num):
            return Num(-arg.value, _Span.join(tok, arg))
        return Apply(_PREFIX[str(tok)], (arg,), _Span.join(tok, arg))

    def number(self, c):
        (tok,) = c
        text = str(tok)
        if text.isdigit() and len(text) <= 15:
            value = int(text)
        else:
            value = float(text)
            if value == float("inf"):
                raise ParseError(f"the number {text[:20]}{'…' if len(text) > 20 else ''} "
                                 "is too large for a double (the limit is about 1.8e308)",
                                 span=_Span.of(tok))
            if value.is_integer() and abs(value) < 2 ** 53 and "." not in text \
                    and "e" not in text.lower():
                value = int(value)
        return Num(value, _Span.of(tok))

    def name(self, c):
        (tok,) = c
        _check_name(self.source, tok)
        if tok in ops.CONSTANTS:
            return Const(str(tok), _Span.of(tok))
        if tok in CONSTANT_ALIASES:
            return Const(CONSTANT_ALIASES[tok], _Span.of(tok))
        return Name(str(tok), _Span.of(tok))

    def call(self, c):
        head, open_, args, close = c
        args = tuple(args or ())
        span = _Span.join(head, close)
        if head.type == "NAME":
            _check_name(self.source, head)
            raise unknown_function(str(head), _Span.of(head), args,
                                    self.source[open_.end_pos:close.start_pos])
        return self._apply(head, args, span)

    def bare(self, c):
        head, arg = c
        return self._apply(head, (arg,), _Span.join(head, arg))

    def _apply(self, head, args, span):
        fn = head.extra
        op = fn.op
        shown = self.source[head.start_pos:head.end_pos]
        if isinstance(op, UserFunction):
            return self._call(fn, op, shown, args, span)
        if fn.base is not None:
            if len(args) != 1:
                raise ParseError(f"{shown}(…) takes one argument, the base is "
                                 f"already given", span=span,
                                 hint=f"write {shown}(x)")
            args = args + (fn.base,)
        if not op.accepts(len(args)):
            plural = "" if op.arity == 1 else "s"
            raise ParseError(
                f"{shown} takes {op.arity_text()} argument{plural}, "
                f"but {len(args)} {'was' if len(args) == 1 else 'were'} given",
                span=span, hint=f"see `gradcli functions` for {op.name}")
        node = Apply(op.name, args, span)
        if op.name == "log" and fn.base is None and len(args) == 1 \
                and str(head) == "log":
            # Many calculus books write log for base 10 (Stewart, OpenStax).
            self._warn("log is the natural logarithm ln, as in Python, NumPy, SymPy "
                       "and PyTorch; for base 10 write log10(x) or log_10(x)")
        if fn.power is not None:
            node = Apply("pow", (node, Num(fn.power)), span)
        if fn.inverse_of is not None:
            self._warn(f"'{shown}' is read as {op.name}, the inverse function "
                       f"(not 1/{fn.inverse_of}); write 1/{fn.inverse_of}(x) or "
                       f"{fn.inverse_of}(x)^-1 for the reciprocal")
        return node

    def _call(self, fn, op, shown, args, span):
        if not op.accepts(len(args)):
            params = ", ".join(op.params)
            raise ParseError(
                f"{shown} takes {op.arity} argument{'s' * (op.arity != 1)}, as in "
                f"{op.function}({params}), but {len(args)} "
                f"{'was' if len(args) == 1 else 'were'} given", span=span,
                hint=f"write {op.name}(…) with one argument" if op.arity == 1 else
                f"write {op.name}(…) with {op.arity} arguments, one for each of {params}")
        node = Call(op.function, op.wrt, op.name, args, span)
        if fn.power is not None:
            node = Apply("pow", (node, Num(fn.power)), span)
        return node

    def group(self, c):
        c[1].span = _Span.join(c[0], c[2])
        return c[1]

    def absolute(self, c):
        return Apply("abs", (c[1],), _Span.join(c[0], c[2]))

    def vector(self, c):
        open_, close = c[0], c[-1]
        items = c[1] if len(c) > 2 else []
        span = _Span.join(open_, close)
        groups = self.bracket_groups
        if len(c) == 3 and len(items) == 1 and not isinstance(items[0], Vector) \
                and id(items[0]) not in groups:
            # [x] groups like (x) (docs/language.md, "Grouping"), unless it turns out to be a
            # row of a matrix such as [[1], [2]]: kept aside for that case.
            node = items[0]
            groups[id(node)] = (node, Vector((node,), span))
            node.span = span
            return node
        if groups:
            items = [groups[id(x)][1] if id(x) in groups else x for x in items]
        return Vector(tuple(items), span)

    def items(self, c):
        if len(c) == 1:
            return [c[0]]
        c[0].append(c[2])
        return c[0]

def _bracketed_exponent(source: str, power) -> bool:
    """Whether the exponent of `power` (an Apply built from '^') was typed in brackets."""
    exponent = power.args[-1]
    if exponent.span is None or power.span is None:
        return True
    between = source[power.span[0]:exponent.span[0]]
    return between.rstrip().endswith(("(", "{", "[")) or \
        source[exponent.span[0]:exponent.span[0] + 1] in "({["


def _glued_to_letter(source: str, left, right) -> bool:
    """`right` starts with a letter right where `left` ends (no space, no operator)."""
    if left.span is None or right.span is None or left.span[1] != right.span[0]:
        return False
    first = source[right.span[0]:right.span[0] + 1]
    return first.isalpha() or first in "√∛"


def _ambiguous_exponent(source: str, left, right) -> None:
    """e^2x, 10^-2x, e^xy: a book means e^(2x), a calculator e^2*x; refuse to guess."""
    if type(left) is not Apply:
        return
    if left.op == "exp" and len(left.args) == 1:
        base_text = "e"
    elif left.op == "pow" and type(left.args[0]) is Num:
        base_text = source[left.args[0].span[0]:left.args[0].span[1]] \
            if left.args[0].span else repr(left.args[0].value)
    else:
        return
    exponent = left.args[-1]
    if type(exponent) is Apply and exponent.op in ("neg", "pos"):
        exponent = exponent.args[0]  # e^-xy is as ambiguous as e^xy
    if exponent.span is None or not isinstance(exponent, (Num, Name)) \
            or _bracketed_exponent(source, left) or left.args[-1].span[1] != left.span[1]:
        return  # (2^3)t: the bracket closes the power
    if source[exponent.span[0]:exponent.span[0] + 1] in SUPERSCRIPT_DIGITS + "⁻⁺":
        return  # e²x: a printed superscript visibly ends before the x
    exponent = left.args[-1]
    if left.op == "exp" and not source[left.span[0]:left.span[0] + 1] == "e":
        return  # exp(…) written as a call
    exp_text = source[exponent.span[0]:exponent.span[1]]
    glued = source[right.span[0]:right.span[1]]
    if len(glued) > 12:
        glued = glued[:12] + "…"
    typed = source[left.span[0]:right.span[0]] + glued
    raise ParseError(f"'{typed}' is ambiguous: the exponent is glued to more letters",
                     span=(left.span[0], right.span[1]),
                     hint=f"write {base_text}^({exp_text}{glued}) for {base_text} to the power "
                          f"{exp_text}{glued} (as books mean it), or {base_text}^{exp_text}*"
                          f"{glued} (with '*' or a space) for {base_text}^{exp_text} times "
                          f"{glued}")


def _last_factor(node):
    """The factor that ends a product: 3e^2 and x^2 e^-2 end with a power of e, so that
    3e^2x is as ambiguous as e^2x; a bracket ends the search ((3e^2)x ends with a group)."""
    while type(node) is Apply and node.op in ("mul", "div", "matmul", "neg", "pos") \
            and node.span is not None and node.args[-1].span is not None \
            and node.args[-1].span[1] == node.span[1]:
        node = node.args[-1]
    return node


def _unit_power_over_integer(source: str, left, right) -> bool:
    """x^1/2, x^-1/2: a power of ±1 divided by a whole number, typed without brackets."""
    if type(left) is not Apply or left.op != "pow" or type(right) is not Num:
        return False
    exponent = left.args[1]
    if type(exponent) is not Num or exponent.value not in (1, -1) \
            or _bracketed_exponent(source, left) or exponent.span is None \
            or exponent.span[1] != left.span[1]:
        return False  # (x^1)/2 is bracketed as meant
    return isinstance(right.value, int) and right.value > 1 and right.span is not None \
        and source[left.span[1]:right.span[0]].strip() == "/"


def validate(program: Program, calls: bool) -> None:
    """Names: no redefinition, no use before definition, no assigning constants or functions.

    `calls`: the program may call functions it defines (the post-lexer found some).
    """
    defined = {}
    later = {s.name: s for s in program.statements if s.name is not None}
    for stmt in program.statements:
        if stmt.name is not None:
            span = stmt.name_span
            if stmt.name in ops.CONSTANTS or stmt.name in CONSTANT_ALIASES:
                raise ParseError(f"'{stmt.name}' is a constant and cannot be assigned",
                                 source=program.source, span=span,
                                 hint="choose another name")
            if ops.lookup_function(stmt.name) is not None:
                raise ParseError(f"'{stmt.name}' is a function and cannot be assigned",
                                 source=program.source, span=span,
                                 hint="choose another name")
            if stmt.name in defined:
                raise ParseError(f"'{stmt.name}' is defined twice",
                                 source=program.source, span=span,
                                 hint="a program's names are defined once each; "
                                      f"use a new name such as {stmt.name}2")
        params = stmt.params or ()
        for used in free_names(stmt.expr) if later else ():
            if used in later and used not in defined and used not in params:
                node_span = _first_use(stmt.expr, used)
                what = ("is used in its own definition" if later[used] is stmt
                        else "is used before it is defined")
                raise ParseError(f"'{used}' {what}", source=program.source, span=node_span,
                                 hint="define each name on an earlier line than its uses")
        for node in postorder(stmt.expr) if calls else ():
            if isinstance(node, Call) and node.name not in defined:
                if later.get(node.name) is stmt:
                    what, hint = ("is used in its own definition",
                                  "gradcli has no recursive functions: write the formula out")
                elif node.name in later:
                    what, hint = ("is used before it is defined",
                                  "define each function on an earlier line than its uses")
                else:
                    what, hint = "is not defined", f"define it: {node.name}(x) = …"
                raise ParseError(f"'{node.name}' {what}", source=program.source,
                                 span=node.span, hint=hint)
        if stmt.name is not None:
            defined[stmt.name] = stmt


def _first_use(root, name):
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Name) and node.id == name:
            return node.span
        stack.extend(reversed(node.children()))
    return root.span


def _check_name(source: str, tok) -> None:
    """A name must be an identifier: superscripts and other number signs are not letters."""
    name = str(tok)
    if name.isidentifier():
        return
    for i, ch in enumerate(name):
        if not ("a" + ch).isidentifier():
            break
    start = tok.start_pos + i
    run = ch
    if ch in SUPERSCRIPT_DIGITS:
        j = i + 1
        while j < len(name) and name[j] in SUPERSCRIPT_DIGITS:
            j += 1
        run = name[i:j]
    span = (start, start + len(run))
    if ch in SUPERSCRIPT_DIGITS:
        base = name[:i]
        if not base:
            before = re.search(r"[\w.)\]]*$", source[:tok.start_pos])
            base = before.group(0) if before and before.group(0) else "x"
        power = run.translate(SUPERSCRIPTS)
        raise ParseError(f"'{run}' is a superscript, which gradcli does not read as a power",
                         span=span, hint=f"type {base}**{power} for {base}{run}")
    if ch in "₀₁₂₃₄₅₆₇₈₉":
        digit = ch.translate(SUBSCRIPTS)
        raise ParseError(f"'{ch}' is a subscript digit, which cannot be part of a name",
                         span=span, hint=f"type {name[:i]}{digit} or {name[:i]}_{digit}")
    raise ParseError(f"'{ch}' cannot be part of a name", span=span,
                     hint="names are letters, digits and _, starting with a letter or _")


