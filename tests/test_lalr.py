"""The small LALR runtime (lalr.py) against Lark itself: same trees, same failures;
the generated tables against the grammar."""
import importlib.util
import os

import pytest
from hypothesis import given, settings, strategies as st

from gradcli.language import lalr, parser
from gradcli.errors import GradcliError
from gradcli.language.expr import Apply, Const, Name, Num, Vector


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


def _lark_runtime():
    """A runtime that parses with Lark itself, as when the tables do not match the grammar."""
    runtime, builder = parser._get_parser()
    other = parser._Runtime(runtime.postlex, builder)
    other._fast = None
    return other


def _both(text):
    """(outcome of the fast runtime, outcome of Lark), each a tree shape or an error kind."""
    runtime, builder = parser._get_parser()
    outcomes = []
    for run in (runtime, _lark_runtime()):
        parser._source = text
        builder.warnings = []
        builder.bracket_groups = {}
        run.postlex.names = frozenset()
        run.postlex.warnings = builder.warnings
        try:
            outcomes.append(("ok", _shape(run.parse(text)), list(builder.warnings)))
        except lalr.Unexpected as exc:
            at = None if exc.token.type == "$END" else exc.token.start_pos
            outcomes.append(("unexpected", exc.token.type, at, sorted(exc.expected)))
        except lalr.NoToken as exc:
            outcomes.append(("no token", exc.pos))
        except GradcliError as exc:
            outcomes.append(("error", type(exc).__name__, exc.message))
    return outcomes


GOOD = [
    "x", "3", "3.", ".5", "1e-3", "2.5E+4", "x**2", "-x**2", "2**3**2", "2**-1", "1/2x",
    "2x^2", "2^2 x", "6/2(1+x)", "(x+1)(x-1)", "2 x", "3(x+1)", "2pi", "3x2", "2ex",
    "sin(x) + cos(y)*tan(z)", "log(x, 2)", "max(a, b, c)", "[1, 2, 3]", "[[1, 2], [3, 4]]",
    "[]", "sin()", "a @ b", "+x", "--x", "- - x", "θ + σ", "x_1*_y",
    "x y", "x(y+1)", "(x) 2", "x 2", "sin x cos x", "sin^2 x", "tan^-1(3t - 1)", "sin²x",
    "√(7w)", "|x| + ||y| - 1|", "log_2 x", "log_{10}(x)", "[ln(t)]^2", "[x,]", "{x+1}^2",
    "e^z y^4", "(e^2)x", "e²x", "2e-3x", "3*x^1/2", "3xy^2", "x sin x", "cos x/(2√sin x)", "σ(x)",
    "a = 1; b = a*2\nb + 1", "z = w*x + b        # pre-activation\ny = sigmoid(z)\n",
    "a = 1\r\n\r\nb = a\r\n", "\n\n x \n\n", "x ; ; y", "# only x\nx", "x # trailing",
    "(" * 300 + "x" + ")" * 300, "x" + " + x" * 500, "2 (x)",
]

BAD = ["", "1 2", "x +", "x +* 2", "(x", "x)", "sinx(", "a = = b", "1 = x", "f()",
       "[1, 2", "x ∗ 2", "x ! 2", "f(,)", "x;;=", "2 3", "== 3", "sin(", "x**", "@",
       "2 sin", "|a|b|c|", "x[0]", "sin^x", "lnx", "atan2 x", "loss(x)",
       "2^2x", "3e^2x", "x^2 e^-2x"]


@pytest.mark.parametrize("text", GOOD + BAD)
def test_same_result_as_lark(text):
    fast, full = _both(text)
    assert fast == full


def test_every_good_example_reads_fast():
    for text in GOOD:
        assert _both(text)[0][0] in ("ok", "error"), text


_ATOMS = st.sampled_from(["x", "y", "2", "3.5", ".5", "1e3", "pi", "e", "θ"])
_GLUE = st.sampled_from([" + ", "-", "*", "/", "**", "^", " ", "(", ")", "[", "]", ",", ";",
                         "\n", "sin(", "max(", "=", "@", "# c\n", "2(", ")(", "sin ", "|",
                         "²", "√", "{", "}", "^-1 ", "log_2 ", "cos^2 "])


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


def _make_tables():
    path = os.path.join(os.path.dirname(parser._grammar_path()), "make_tables.py")
    spec = importlib.util.spec_from_file_location("make_tables", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_tables_are_the_grammars():
    """A changed grammar or a Lark upgrade that changes the tables fails here, not at run time."""
    make = _make_tables()
    with open(parser._grammar_path(), encoding="utf-8") as f:
        grammar = f.read()
    with open(make.TARGET, encoding="utf-8") as f:
        committed = f.read()
    assert committed == make.render(make.compute(grammar)), \
        "run python grammar/make_tables.py"
    assert make.FORMAT == lalr.FORMAT


def test_the_only_conflict_is_the_documented_one():
    make = _make_tables()
    with open(parser._grammar_path(), encoding="utf-8") as f:
        assert make._conflicts(f.read()) == make.EXPECTED_CONFLICTS


def test_the_fast_runtime_is_used_with_the_shipped_grammar():
    runtime, _ = parser._get_parser()
    assert runtime._fast is not None


def test_an_edited_grammar_falls_back_to_lark(monkeypatch):
    runtime, builder = parser._get_parser()
    with open(parser._grammar_path(), encoding="utf-8") as f:
        grammar = f.read()
    monkeypatch.setattr(parser, "_grammar_path", lambda: "/nonexistent")
    import builtins
    real_open = builtins.open

    def fake_open(path, *a, **k):
        if path == "/nonexistent":
            import io
            return io.StringIO(grammar + "\n// edited\n")
        return real_open(path, *a, **k)
    monkeypatch.setattr(builtins, "open", fake_open)
    other = parser._Runtime(runtime.postlex, builder)
    assert other._fast is None
    monkeypatch.setattr(parser, "_parser", (other, builder))
    program = parser.parse("2x sin x")
    monkeypatch.setattr(parser, "_parser", (runtime, builder))
    expected = parser.parse_expr("2*x*sin(x)")
    assert [k[::2] for k in _shape(program.result)] == [k[::2] for k in _shape(expected)]
