"""Symbolic derivatives: Expr -> derivative Expr, using the op table's own rules.

Differentiation is forward accumulation over the expression DAG: each distinct
node, children first, gets d(node)/d(wrt) = sum_i partial_i * d(arg_i), where
partial_i is `op.partial(BUILD, i, node, args)` from ops.py, the same rule
the engine evaluates with numbers. The result shares the input's nodes, is
simplified (simplify.py) and hash-consed, and is printed as a small program
whose named intermediates (`u1 = ...`, see Namer) stand for sub-expressions the
derivative would otherwise repeat, so the printed size stays linear in the
input's. A program's own names are kept where its statements are reused.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations_with_replacement

from .. import ops
from ..errors import UsageError
from ..language.expr import Apply, BUILD, Const, Expr, Name, Num, Program, Statement, Vector, as_expr, check_wrt, inputs_of, postorder, replace_leaves
from ..language.parser import given_names, parse
from ..language.printer import to_text
from ..limits import MAX_DIFF_ORDER
from .simplify import Simplifier

NAME_AT = 24  # a repeated sub-expression longer than this (in characters) gets a name


@dataclass
class Derivative:
    """One partial derivative: the variables in order, its program, and its text."""

    wrt: tuple
    program: Program
    text: str

    @property
    def key(self) -> str:
        return ",".join(self.wrt)


@dataclass
class DiffResult:
    """Every requested partial derivative of one program."""

    expression: str
    variables: list
    order: int
    derivatives: list = field(default_factory=list)
    result_name: str = "f"
    program: Program | None = None
    read_as: str = ""
    warnings: list = field(default_factory=list)
    at: dict = field(default_factory=dict)
    values: dict | None = None  # derivative key -> value at `at`, when a point was given
    steps: list | None = None  # with --steps: a steps.Derivation for each derivative


def derivative(root: Expr, wrt: str, wrong: dict | None = None) -> Expr:
    """d(root)/d(wrt) by forward accumulation over the DAG, with the table's rules.

    `wrong` (see node_derivatives) puts a mistaken rule at chosen nodes.
    """
    result = node_derivatives(root, wrt, wrong)[id(root)]
    return Num(0) if result is None else result


def chain_rule(node: Apply, dargs) -> Expr | None:
    """d(node) from its arguments' derivatives `dargs` (None: 0), unsimplified (None: 0).

    The sum over the arguments of the table's local derivative times the inner one.
    """
    op = ops.TABLE[node.op]
    total = None
    cache = {}  # shared by this node's arguments (a wide max's count of ties)
    for i, da in enumerate(dargs):
        if da is None:
            continue
        local = as_expr(op.partial(BUILD, i, node, node.args, cache))
        if isinstance(local, Num) and local.value == 0:
            continue
        term = local * da
        total = term if total is None else total + term
    return total


def node_derivatives(root: Expr, wrt: str, wrong: dict | None = None) -> dict:
    """id(node) -> d(node)/d(wrt), unsimplified, for every node of the DAG (None: 0).

    One pass gives every sub-expression's derivative, so a derivation that shows
    many of them (`diff --steps`) costs one pass, not one for each. `wrong` maps
    the id of a node to a rule(node, dargs) used there instead of chain_rule:
    check names a student's mistake by differentiating with one rule done wrongly.
    """
    d: dict = {}
    zero = None
    for node in postorder(root):
        if isinstance(node, Name):
            d[id(node)] = Num(1) if node.id == wrt else zero
        elif isinstance(node, (Num, Const)):
            d[id(node)] = zero
        elif isinstance(node, Apply):
            rule = wrong.get(id(node)) if wrong else None
            d[id(node)] = (rule or chain_rule)(node, [d[id(a)] for a in node.args])
        else:
            raise UsageError("diff does not handle vectors and matrices")
    return d


def _check_scalar(root: Expr) -> None:
    """diff works on scalar expressions: no vectors, matrices or reductions."""
    for node in postorder(root):
        op = ops.TABLE.get(node.op) if isinstance(node, Apply) else None
        if isinstance(node, Vector) or (isinstance(node, Apply) and (op is None or op.vjp)):
            what = ("vectors and matrices" if isinstance(node, Vector)
                    else "the matrix product @" if node.op == "matmul" else f"{node.op}(...)")
            raise UsageError(f"diff does not handle {what}: symbolic derivatives are for "
                             "scalar expressions",
                             hint="use gradcli eval for the gradient at a point")


def inline(program: Program):
    """The program's result as one DAG (each name one shared node) and name -> node."""
    env: dict = {}

    def defined(node):
        return env.get(node.id, node) if isinstance(node, Name) else node

    for stmt in program.statements:
        result = replace_leaves(stmt.expr, defined)
        if stmt.name is not None:
            env[stmt.name] = result
        last = result
    return last, env


def check_order(order) -> int:
    """--order must be a whole number from 1 to MAX_DIFF_ORDER."""
    if isinstance(order, bool) or not isinstance(order, int) or not 1 <= order <= MAX_DIFF_ORDER:
        raise UsageError(f"--order must be a whole number from 1 to {MAX_DIFF_ORDER}, got {order}",
                         hint="for example --order 2 for second derivatives")
    return order


def differentiate_program(program: Program, wrt: list, order: int = 1,
                          sequences: list | None = None) -> list:
    """Each partial of `order` over the variables `wrt` (all combinations, x before y).

    `sequences` instead lists the exact variable sequences wanted.
    """
    check_order(order)
    root, env = inline(program)
    _check_scalar(root)
    simp = Simplifier()
    names = list(env)
    simplified = simp.simplify([root] + [env[n] for n in names])
    root, named = simplified[0], dict(zip(names, simplified[1:]))
    if sequences is None:
        sequences = [tuple(wrt[i] for i in combo)
                     for combo in combinations_with_replacement(range(len(wrt)), order)]
    done = {(): root}
    for seq in sequences:
        for k in range(1, len(seq) + 1):
            if seq[:k] not in done:
                raw = derivative(done[seq[:k - 1]], seq[k - 1])
                done[seq[:k]] = simp.simplify([raw])[0]
    variables = _variables(program)
    avoid = set(variables) | set(names) | set(ops.CONSTANTS) | set(ops.TABLE) \
        | set(ops.function_names())
    out = []
    namer = Namer(named, avoid, variables + names)
    for seq in sequences:
        prog = to_program(done[seq], namer)
        out.append(Derivative(tuple(seq), prog, program_source(prog)))
    return out


def _variables(program: Program) -> list:
    return inputs_of(program)


HELPER_STEMS = "uvwpqrsgh"  # the letters a helper name may start with, in this order


class Namer:
    """Names for shared sub-expressions, consistent across all derivatives of one request.

    A helper is a letter and a number (`u1`, `u2`, ...) whose letter begins no name of
    the input, so that no helper looks like a variable or a relative of one (never `t1`
    beside `t`, nor `u1` beside `u` or `u_max`): the first of HELPER_STEMS that is free,
    else `_` (`_1`, `_2`).
    """

    def __init__(self, named: dict, avoid: set, inputs=()):
        self.names: dict = {}  # id(node) -> name
        self.keep: list = []  # the named nodes, so their ids stay theirs
        for name, node in named.items():
            if isinstance(node, Apply) and id(node) not in self.names:
                self.names[id(node)] = name
                self.keep.append(node)
        self.avoid = avoid
        self.counter = 0
        firsts = {name[:1] for name in inputs}
        self.stem = next((c for c in HELPER_STEMS if c not in firsts), "_")

    def fresh(self) -> str:
        self.counter += 1
        while f"{self.stem}{self.counter}" in self.avoid:
            self.counter += 1
        return f"{self.stem}{self.counter}"


def to_program(root: Expr, namer: Namer) -> Program:
    """Print-ready program: shared sub-expressions (and the user's own names) as statements."""
    names = namer.names
    order = list(postorder(root))
    refs: dict = {}
    for node in order:
        for child in node.children():
            refs[id(child)] = refs.get(id(child), 0) + 1
    length: dict = {}
    for node in order:
        if isinstance(node, Apply):
            own = 2 + len(node.op) * (len(node.args) == 1) + 2 * (len(node.args) - 1)
            size = own + sum(len(names[id(a)]) if id(a) in names else length[id(a)]
                             for a in node.args)
            if id(node) not in names and refs.get(id(node), 0) >= 2 and size > NAME_AT \
                    and node is not root:
                names[id(node)] = namer.fresh()
                namer.keep.append(node)
        else:
            size = len(str(getattr(node, "id", getattr(node, "value", ""))))
        length[id(node)] = size
    rebuilt: dict = {}
    statements = []
    for node in order:
        kids = node.children()
        if kids:
            new = tuple(Name(names[id(c)]) if id(c) in names else rebuilt[id(c)] for c in kids)
            same = all(a is b for a, b in zip(new, kids))
            expr = node if same else (Apply(node.op, new) if isinstance(node, Apply)
                                      else Vector(new))
        else:
            expr = node
        rebuilt[id(node)] = expr
        if id(node) in names and node is not root:
            statements.append(Statement(names[id(node)], expr))
    if id(root) in names:
        statements.append(Statement(names[id(root)], rebuilt[id(root)]))
        statements.append(Statement(None, Name(names[id(root)])))
    else:
        statements.append(Statement(None, rebuilt[id(root)]))
    return Program(tuple(statements))


def program_source(program: Program, sep: str = "\n") -> str:
    """A derivative program as text in the language, as a textbook prints it (`^`, `e^u`, `ln`)."""
    lines = []
    for stmt in program.statements:
        text = to_text(stmt.expr, textbook=True)
        lines.append(f"{stmt.name} = {text}" if stmt.name is not None else text)
    return sep.join(lines)


def differentiate(text: str, wrt=None, order: int = 1, sequences=None,
                  program=None) -> DiffResult:
    """Parse `text` (unless its `program` is given) and take its partial derivatives
    (all variables if `wrt` is empty)."""
    program = program or parse(text, given_names(wrt))
    if program.functions:
        raise UsageError("a program that defines functions is differentiated after "
                         "gradcli.reading.read_program has expanded it",
                         hint="pass program=gradcli.reading.read_program(text)")
    variables = _variables(program)
    if not variables:
        raise UsageError("the expression has no variables to differentiate by",
                         hint="its derivative with respect to anything is 0")
    wanted = check_wrt(list(wrt) if wrt else None, variables)
    if sequences is not None:
        for seq in sequences:
            check_wrt(list(seq), variables)
    result = DiffResult(text, variables, order)
    result.result_name = program.statements[-1].name or "f"
    result.derivatives = differentiate_program(program, wanted, order, sequences)
    result.program = program
    return result


def differentiate_text(text: str, wrt, order: int = 1, program=None) -> str:
    """The derivative of `text` (or of its parsed `program`) as text: wrt 'x' (taken `order`
    times) or a sequence ['x', 'y']."""
    check_order(order)
    if isinstance(wrt, str):
        names = [w.strip() for w in wrt.split(",") if w.strip()]
        seq = tuple(names) * order if len(names) == 1 else tuple(names)
    else:
        seq = tuple(wrt)
    if not seq:
        raise UsageError("differentiate needs a variable",
                         hint='for example differentiate("x**2", "x")')
    check_order(len(seq))
    result = differentiate(text, sorted(set(seq), key=seq.index), len(seq), sequences=[seq],
                           program=program)
    return result.derivatives[0].text
