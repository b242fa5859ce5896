"""The small LALR runtime (lalr.py) against Lark itself: same trees, same failures, cache."""
import marshal
import os

import pytest
from hypothesis import given, settings, strategies as st

from gradcli import lalr, parser
from gradcli.errors import GradcliError
from gradcli.expr import Apply, Const, Name, Num, Vector


def _shape(node):
    """Everything about a tree, spans included, as nested tuples (iteratively)."""
    out = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, list):
            out.append(("list", len(n)))
            stack.extend(reversed(n))
            continue
        key = [type(n).__name__, getattr(n, "span", None)]
        if isinstance(n, Num):
            key.append((type(n.value).__name__, n.value))
        elif isinstance(n, (Name, Const)):
            key.append(n.id)
        elif isinstance(n, Apply):
            key.append(n.op)
            stack.extend(reversed(n.args))
        elif isinstance(n, Vector):
            key.append(len(n.items))
            stack.extend(reversed(n.items))
        else:  # a Statement
            key += [n.name, n.name_span]
            stack.append(n.expr)
        out.append(tuple(key))
    return out


def _both(text):
    """(outcome of the fast runtime, outcome of Lark), each a tree shape or an error kind."""
    two, builder = parser._get_parser()
    outcomes = []
    for run in (two._fast.parse, two.full().parse):
        parser._source = text
        builder.warnings = []
        try:
            outcomes.append(("ok", _shape(run(text)), list(builder.warnings)))
        except lalr.Unreadable:
            outcomes.append(("unreadable",))
        except GradcliError as exc:
            outcomes.append(("error", type(exc).__name__, exc.message))
        except Exception as exc:  # lark's UnexpectedInput family
            outcomes.append(("unreadable",) if "Unexpected" in type(exc).__name__
                            else ("other", repr(exc)))
    return outcomes


GOOD = [
    "x", "3", "3.", ".5", "1e-3", "2.5E+4", "x**2", "-x**2", "2**3**2", "2**-1", "1/2x",
    "2x^2", "2^2x", "6/2(1+x)", "(x+1)(x-1)", "2 x", "3(x+1)", "2pi", "3x2", "2ex",
    "sin(x) + cos(y)*tan(z)", "log(x, 2)", "max(a, b, c)", "[1, 2, 3]", "[[1, 2], [3, 4]]",
    "[]", "f()", "a @ b", "+x", "--x", "- - x", "θ + σ", "x_1*_y",
    "a = 1; b = a*2\nb + 1", "z = w*x + b        # pre-activation\ny = sigmoid(z)\n",
    "a = 1\r\n\r\nb = a\r\n", "\n\n x \n\n", "x ; ; y", "# only x\nx", "x # trailing",
    "(" * 300 + "x" + ")" * 300, "x" + " + x" * 500, "2 (x)",
]

BAD = ["", "1 2", "(x) 2", "x +", "x +* 2", "(x", "x)", "x y", "x(y+1)", "sinx(", "a = = b", "1 = x",
       "[1, 2", "x ∗ 2", "x ! 2", "f(,)", "x;;=", "2 3", "x 2", "== 3", "sin(", "x**", "@"]


@pytest.mark.parametrize("text", GOOD + BAD)
def test_same_result_as_lark(text):
    fast, full = _both(text)
    assert fast == full


def test_every_good_example_reads_fast():
    for text in GOOD:
        assert _both(text)[0][0] in ("ok", "error"), text


_ATOMS = st.sampled_from(["x", "y", "2", "3.5", ".5", "1e3", "pi", "e", "θ"])
_GLUE = st.sampled_from([" + ", "-", "*", "/", "**", "^", " ", "(", ")", "[", "]", ",", ";",
                         "\n", "sin(", "max(", "=", "@", "# c\n", "2(", ")("])


@settings(max_examples=150, derandomize=True, deadline=None)
@given(st.lists(st.tuples(_ATOMS, _GLUE), min_size=1, max_size=12))
def test_random_text_same_as_lark(parts):
    text = "".join(a + g for a, g in parts)
    fast, full = _both(text)
    assert fast == full


def test_deep_nesting_is_iterative():
    text = "(" * 20000 + "x" + ")" * 20000
    program = parser.parse(text)
    assert isinstance(program.result, Name)


def test_tables_are_cached_by_grammar_text(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADCLI_CACHE_DIR", str(tmp_path))
    grammar = open(parser._grammar_path(), encoding="utf-8").read()
    calls = []

    def build(text):
        calls.append(text)
        return parser._lalr_tables(text)

    first = lalr.tables(grammar, build)
    files = os.listdir(tmp_path)
    assert len(files) == 1 and files[0].endswith(".marshal")
    second = lalr.tables(grammar, build)
    assert calls == [grammar] and second == first
    # Another grammar text (an edited file) is rebuilt, never read from the old cache.
    edited = grammar + "\n// edited\n"
    lalr.tables(edited, build)
    assert calls == [grammar, edited]
    with open(tmp_path / files[0], "rb") as f:
        assert marshal.load(f)["grammar"] == edited


def test_a_corrupt_cache_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADCLI_CACHE_DIR", str(tmp_path))
    grammar = open(parser._grammar_path(), encoding="utf-8").read()
    path = lalr._cache_file(str(tmp_path))
    with open(path, "wb") as f:
        f.write(b"\x00garbage")
    data = lalr.tables(grammar, parser._lalr_tables)
    assert data["grammar"] == grammar and data["rules"]


def test_an_unwritable_cache_still_parses(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("GRADCLI_CACHE_DIR", str(blocker / "sub"))
    grammar = open(parser._grammar_path(), encoding="utf-8").read()
    data = lalr.tables(grammar, parser._lalr_tables)
    tree = lalr.Parser(data, None, lalr.Transformer()).parse("x + 1")
    assert tree is not None
