"""The AST: small immutable nodes, hashed and compared without recursion.

Every node's hash is computed from its children's when it is built, so hashing
and equality are iterative and safe for trees a million nodes deep. Arithmetic
operators on nodes build new nodes through `make`, which folds only the
trivial identities; this lets the op table's derivative rules, written with
`+ - * / **`, produce formulas as well as numbers.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Iterator

from .. import ops, walk
from ..errors import UsageError


class Expr:
    """Base of every expression node; `span` is (start, end) in the source, if any."""

    __slots__ = ("span", "_hash")

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other) -> bool:
        if self is other:
            return True
        if not isinstance(other, Expr):
            return NotImplemented
        return same(self, other)

    def __ne__(self, other) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def children(self) -> tuple:
        return ()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {structure(self)}>"

    # Arithmetic builds expressions, so op-table rules work on formulas too.
    def __add__(self, o): return make("add", self, as_expr(o))
    def __radd__(self, o): return make("add", as_expr(o), self)
    def __sub__(self, o): return make("sub", self, as_expr(o))
    def __rsub__(self, o): return make("sub", as_expr(o), self)
    def __mul__(self, o): return make("mul", self, as_expr(o))
    def __rmul__(self, o): return make("mul", as_expr(o), self)
    def __truediv__(self, o): return make("div", self, as_expr(o))
    def __rtruediv__(self, o): return make("div", as_expr(o), self)
    def __pow__(self, o): return make("pow", self, as_expr(o))
    def __rpow__(self, o): return make("pow", as_expr(o), self)
    def __neg__(self): return make("neg", self)
    def __pos__(self): return self


class Num(Expr):
    """A number literal: int, float or Fraction."""

    __slots__ = ("value",)

    def __init__(self, value, span=None):
        self.value = value
        self.span = span
        self._hash = hash(("num", value))


class Name(Expr):
    """A variable, or a name defined earlier in a program."""

    __slots__ = ("id",)

    def __init__(self, id: str, span=None):
        self.id = id
        self.span = span
        self._hash = hash(("name", id))


class Const(Expr):
    """A named constant: pi or e."""

    __slots__ = ("id",)

    def __init__(self, id: str, span=None):
        self.id = id
        self.span = span
        self._hash = hash(("const", id))

    @property
    def value(self) -> float:
        return ops.CONSTANTS[self.id]


class Apply(Expr):
    """An operator or function (by its op-table name) applied to arguments."""

    __slots__ = ("op", "args")

    def __init__(self, op: str, args: tuple, span=None):
        self.op = op
        self.args = args
        self.span = span
        # hash((op, *argument hashes)), without building the tuple for one or two arguments
        if len(args) == 2:
            self._hash = hash((op, args[0]._hash, args[1]._hash))
        elif len(args) == 1:
            self._hash = hash((op, args[0]._hash))
        else:
            self._hash = hash((op, *[a._hash for a in args]))

    def children(self) -> tuple:
        return self.args


class Vector(Expr):
    """A vector or matrix literal `[a, b, c]`."""

    __slots__ = ("items",)

    def __init__(self, items: tuple, span=None):
        self.items = items
        self.span = span
        self._hash = hash(("vec", tuple([a._hash for a in items])))

    def children(self) -> tuple:
        return self.items


class Call(Expr):
    """A function the program defines, applied: f(2), or a derivative of it, f'(2), g_x(1, 2).

    `wrt` lists the parameters differentiated by, in order (empty for f itself);
    `label` is the name as typed (f'', g_x). Calls exist only between parsing
    and expansion (reading.py), which replaces each by the function's body.
    """

    __slots__ = ("name", "wrt", "label", "args")

    def __init__(self, name: str, wrt: tuple, label: str, args: tuple, span=None):
        self.name = name
        self.wrt = wrt
        self.label = label
        self.args = args
        self.span = span
        self._hash = hash(("call", label, tuple([a._hash for a in args])))

    def children(self) -> tuple:
        return self.args


class Statement:
    """One line of a program: `name = expr`, a bare expression (name None), or a
    function's definition `name(params) = expr` (params a tuple of names)."""

    __slots__ = ("name", "expr", "span", "name_span", "params")

    def __init__(self, name, expr, span=None, name_span=None, params=None):
        self.name = name
        self.expr = expr
        self.span = span
        self.name_span = name_span
        self.params = params

    def __eq__(self, other):
        return (isinstance(other, Statement) and self.name == other.name
                and self.params == other.params and self.expr == other.expr)

    def __hash__(self):
        return hash((self.name, self.params, self.expr))


class Program:
    """Statements in order; the value of the last one is the result.

    `original` is the program as parsed when this one is its expansion (named
    functions replaced by their bodies), so that read_as shows what was typed.
    """

    __slots__ = ("statements", "source", "warnings", "original")

    def __init__(self, statements: tuple, source: str = "", warnings=()):
        self.statements = statements
        self.source = source
        self.warnings = list(warnings)
        self.original = None

    @property
    def result(self) -> Expr:
        return self.statements[-1].expr

    @property
    def defined(self) -> list[str]:
        """The names given values (not the functions defined)."""
        return [s.name for s in self.statements if s.name is not None and s.params is None]

    @property
    def functions(self) -> dict:
        """name -> its definition statement, for the functions the program defines."""
        return {s.name: s for s in self.statements if s.params is not None}

    def __eq__(self, other):
        return isinstance(other, Program) and self.statements == other.statements

    def __hash__(self):
        return hash(self.statements)


def _leaf_key(node: Expr):
    if isinstance(node, Num):
        return ("num", node.value)
    if isinstance(node, (Name, Const)):
        return (type(node).__name__, node.id)
    if isinstance(node, Apply):
        return (node.op, len(node.args))
    if isinstance(node, Call):
        return ("call", node.label, len(node.args))
    return ("vec", len(node.items))


def same(a: Expr, b: Expr) -> bool:
    """Structural equality, with an explicit stack (positions are ignored)."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        if x._hash != y._hash or type(x) is not type(y) or _leaf_key(x) != _leaf_key(y):
            return False
        stack.extend(zip(x.children(), y.children()))
    return True


def structure(root: Expr) -> str:
    """The tree in op-table names, `add(mul(2, x), 1)`: what repr shows (the printer,
    one layer up, writes the language)."""
    text = {}
    for node in postorder(root):
        if isinstance(node, Num):
            text[id(node)] = repr(node.value) if not isinstance(node.value, int) else str(node.value)
        elif isinstance(node, (Name, Const)):
            text[id(node)] = node.id
        elif isinstance(node, Apply):
            text[id(node)] = f"{node.op}({', '.join(text[id(a)] for a in node.args)})"
        elif isinstance(node, Vector):
            text[id(node)] = f"[{', '.join(text[id(a)] for a in node.items)}]"
        elif isinstance(node, Call):
            text[id(node)] = f"{node.label}({', '.join(text[id(a)] for a in node.args)})"
        else:
            text[id(node)] = type(node).__name__
    return text[id(root)]


def inputs_of(program: Program) -> list[str]:
    """Free names of a program (not defined by it), in order of first appearance."""
    defined = set()
    names, seen = [], set()
    for stmt in program.statements:
        params = stmt.params or ()
        for name in free_names(stmt.expr):
            if name not in defined and name not in seen and name not in params:
                seen.add(name)
                names.append(name)
        if stmt.name is not None:
            defined.add(stmt.name)
    return names


def check_wrt(wrt, variables: list[str], intermediates=()) -> list[str]:
    """Validate `--wrt` names against the variables (and, where given, the intermediate
    names) an expression has."""
    if not wrt:
        return list(variables)
    known = set(variables)
    for name in wrt:
        if name not in known and name not in intermediates:
            listed = ", ".join(variables) if variables else "none"
            hint = f"its variables are: {listed}"
            if intermediates:
                hint += f"; its intermediate names: {', '.join(intermediates)}"
            raise UsageError(f"--wrt: the expression has no variable '{name}'", hint=hint)
    return list(wrt)


def postorder(root: Expr) -> Iterator[Expr]:
    """Each distinct node (by identity) once, children before parents, no recursion."""
    return iter(walk.postorder(root, _children))


def _children(node: Expr) -> tuple:
    return node.children()


def replace_leaves(root: Expr, leaf, span=None) -> Expr:
    """`root` with each leaf node replaced by `leaf(node)`, no recursion.

    Subtrees in which nothing changed are kept as they are (same objects); the
    rebuilt nodes are made directly, not through `make`, so nothing is folded,
    and get `span` (where an error in them points).
    """
    done: dict = {}
    for node in postorder(root):
        if isinstance(node, (Apply, Vector)):
            kids = node.children()
            new = tuple(done[id(c)] for c in kids)
            if all(a is b for a, b in zip(new, kids)):
                done[id(node)] = node
            elif isinstance(node, Apply):
                done[id(node)] = Apply(node.op, new, span)
            else:
                done[id(node)] = Vector(new, span)
        else:
            done[id(node)] = leaf(node)
    return done[id(root)]


def first_span(program: "Program", name: str):
    """Where the variable `name` first appears in the program's source (None if nowhere)."""
    for stmt in program.statements:
        for node in postorder(stmt.expr):
            if isinstance(node, Name) and node.id == name:
                return node.span
    return None


def free_names(root: Expr) -> list[str]:
    """Variable names in order of first appearance (left to right)."""
    names, seen, stack = [], set(), [root]
    visited = set()
    visit = visited.add
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        if id(node) in visited:
            continue
        visit(id(node))
        if isinstance(node, Name):
            if node.id not in seen:
                seen.add(node.id)
                names.append(node.id)
        else:
            children = node.children()
            if children:
                extend(reversed(children))
    return names


def size(root: Expr) -> int:
    """The number of distinct nodes."""
    return sum(1 for _ in postorder(root))


def as_expr(x) -> Expr:
    """Wrap a Python number as a Num; pass expressions through."""
    if isinstance(x, Expr):
        return x
    if isinstance(x, bool):
        x = int(x)
    if isinstance(x, float) and x.is_integer() and abs(x) < 2 ** 53:
        x = int(x)
    if isinstance(x, (int, float, Fraction)):
        return Num(x)
    raise TypeError(f"not an expression: {x!r}")


def _num(node) -> bool:
    return isinstance(node, Num)


def _is(node, v) -> bool:
    return isinstance(node, Num) and node.value == v


def make(op: str, *args: Expr) -> Expr:
    """Build Apply(op, args), folding the trivial identities (x*1, x+0, x**1, --x, 2*3)."""
    if op == "neg":
        (x,) = args
        if _num(x):
            return Num(-x.value)
        if isinstance(x, Apply) and x.op == "neg":
            return x.args[0]
    elif op == "pos":
        return args[0]
    elif op == "add":
        x, y = args
        if _is(x, 0):
            return y
        if _is(y, 0):
            return x
        if _num(x) and _num(y):
            return as_expr(x.value + y.value)
        if _num(y) and y.value < 0:
            return make("sub", x, Num(-y.value))
        if isinstance(y, Apply) and y.op == "neg":
            return make("sub", x, y.args[0])
    elif op == "sub":
        x, y = args
        if _is(y, 0):
            return x
        if _is(x, 0):
            return make("neg", y)
        if _num(x) and _num(y):
            return as_expr(x.value - y.value)
        if isinstance(y, Apply) and y.op == "neg":
            return make("add", x, y.args[0])
    elif op == "mul":
        x, y = args
        if _is(x, 0) or _is(y, 0):
            return Num(0)
        if _is(x, 1):
            return y
        if _is(y, 1):
            return x
        if _is(x, -1):
            return make("neg", y)
        if _is(y, -1):
            return make("neg", x)
        if _num(x) and _num(y):
            return as_expr(x.value * y.value)
        if _num(y) and not _num(x):
            return make("mul", y, x)
    elif op == "div":
        x, y = args
        if _is(y, 1):
            return x
        if _is(x, 0) and not _is(y, 0):
            return Num(0)
        if _num(x) and _num(y) and isinstance(x.value, int) and isinstance(y.value, int) \
                and y.value != 0 and x.value % y.value == 0:
            return Num(x.value // y.value)
    elif op == "pow":
        x, y = args
        if _is(y, 1):
            return x
        if _is(y, 0):
            return Num(1)
        if _num(x) and _num(y) and isinstance(x.value, int) and isinstance(y.value, int) \
                and 0 <= y.value <= 64 and abs(x.value) < 2 ** 16:
            return Num(x.value ** y.value)
    return Apply(op, tuple(args))


class _Builder:
    """The namespace `D` over expressions: D.cos(x) builds cos(x)."""

    def __getattr__(self, name):
        def build(*args):
            return make(name, *(as_expr(a) for a in args))
        return build


BUILD = _Builder()


_RATIONAL_OPS = {"add", "sub", "mul", "div", "neg", "pos"}
_RATIONAL_LIMIT = 64  # an exponent written as a fraction is a few nodes, never a program


def odd_root_exponent(node: Expr) -> Fraction | None:
    """p/q when `node` is a fraction of integers written out (2/3, -1/3, 1/3 - 1) with q
    odd and not 1: the exponent of a real root (SPEC §3.11); None for anything else,
    a decimal such as 0.5 included. Iterative, and it gives up on a large tree."""
    values: list = []
    stack: list = [node]
    seen = 0
    while stack:
        item = stack.pop()
        seen += 1
        if seen > 2 * _RATIONAL_LIMIT:
            return None
        if isinstance(item, tuple):  # (op,): its arguments' values are on `values`
            op = item[0]
            if op == "neg":
                values[-1] = -values[-1]
            elif op != "pos":
                b = values.pop()
                a = values.pop()
                if op == "div":
                    if b == 0:
                        return None
                    values.append(a / b)
                else:
                    values.append(a + b if op == "add" else a - b if op == "sub" else a * b)
        elif type(item) is Num:
            v = item.value
            if isinstance(v, bool) or not isinstance(v, (int, Fraction)):
                return None
            values.append(Fraction(v))
        elif type(item) is Apply and item.op in _RATIONAL_OPS and len(item.args) <= 2:
            stack.append((item.op,))
            stack.extend(reversed(item.args))
        else:
            return None
    y = values[-1] if len(values) == 1 else None
    if y is None or y.denominator == 1 or y.denominator % 2 == 0:
        return None
    return y
