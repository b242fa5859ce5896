"""expr helpers: replace_leaves and first_span."""
from gradcli.language.expr import Apply, Name, Num, Vector, first_span, replace_leaves
from gradcli.language.parser import parse
from gradcli.language.printer import to_text


def test_replace_leaves_rebuilds_only_what_changed():
    program = parse("sin(x) + y*[x, 2]")
    root = program.result
    out = replace_leaves(root, lambda n: Num(3.0) if isinstance(n, Name) and n.id == "y" else n)
    assert to_text(out) == "sin(x) + 3*[x, 2]"
    assert out.args[0] is root.args[0]          # sin(x) did not change: the same object
    assert isinstance(out.args[1], Apply) and isinstance(out.args[1].args[1], Vector)


def test_replace_leaves_does_not_fold():
    out = replace_leaves(parse("a*b").result, lambda n: Num(7.0) if isinstance(n, Name) else n)
    assert to_text(out) == "7*7"


def test_replace_leaves_deep_chain_is_iterative():
    text = "x" + "+1" * 50_000
    out = replace_leaves(parse(text).result, lambda n: Name("y") if isinstance(n, Name) else n)
    assert to_text(out).startswith("y + 1 + 1")


def test_first_span_finds_the_first_use():
    program = parse("z = 2*w\nz + w")
    assert first_span(program, "w") == program.statements[0].expr.args[1].span
    assert first_span(program, "q") is None
