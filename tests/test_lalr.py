"""The small LALR runtime (lalr.py) against Lark itself: same trees, same failures;
the generated tables against the grammar."""
import importlib.util
import os

import pytest
from conftest import DEEP
from hypothesis import given, settings, strategies as st

from gradcli.language import lalr, parser
from gradcli.language.build import Builder
from gradcli.language.postlex import ParseContext, PostLex
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


class _LarkRuntime:
    """Lark itself over the grammar file, with gradcli's post-lexer and builder: the
    reference that lalr.py and the generated tables must agree with.

    Lark binds its post-lexer and transformer when it is built (which is slow), so
    it is built once over stand-ins that pass each call to the current parse's.
    """

    def __init__(self):
        from lark import Lark
        current = self.current = {}

        class Post:
            always_accept = PostLex.always_accept

            def process(self, stream):
                return current["postlex"].process(stream)

        class Build:
            def __getattr__(self, name):
                if name.startswith("__") or not hasattr(Builder, name):
                    raise AttributeError(name)
                return lambda children: getattr(current["builder"], name)(children)

        with open(parser._grammar_path(), encoding="utf-8") as f:
            self.lark = Lark(f.read(), parser="lalr", lexer="basic", postlex=Post(),
                             transformer=Build(), maybe_placeholders=True)

    def parse(self, text, ctx):
        from lark.exceptions import UnexpectedCharacters, UnexpectedToken
        self.current["postlex"], self.current["builder"] = PostLex(ctx), Builder(ctx)
        try:
            return self.lark.parse(text)
        except UnexpectedCharacters as exc:
            raise lalr.NoToken(exc.pos_in_stream) from None
        except UnexpectedToken as exc:
            raise lalr.Unexpected(exc.token, set(exc.expected)) from None


_LARK = []


def _lark_runtime():
    if not _LARK:
        _LARK.append(_LarkRuntime())
    return _LARK[0]


def _both(text):
    """(outcome of the fast runtime, outcome of Lark), each a tree shape or an error kind."""
    outcomes = []
    for run in (parser._get_runtime(), _lark_runtime()):
        ctx = ParseContext(text)
        try:
            outcomes.append(("ok", _shape(run.parse(text, ctx)), list(ctx.warnings)))
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
    text = "(" * DEEP + "x" + ")" * DEEP
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


def _grammar():
    with open(parser._grammar_path(), encoding="utf-8") as f:
        return f.read()


def test_the_stored_tables_are_of_this_grammar():
    """The cheap check every run makes: the checksum of the grammar the tables were made from."""
    from gradcli.language._lalr_tables import TABLES
    assert TABLES["grammar_crc32"] == lalr.grammar_checksum(_grammar()), \
        f"the grammar changed: run {lalr.REGENERATE}"
    assert TABLES["format"] == lalr.FORMAT


def _stale(**kw):
    with pytest.raises(lalr.StaleTables) as info:
        parser._Runtime(**kw)
    message = str(info.value)
    assert "python grammar/make_tables.py" in message and "_lalr_tables.py" in message
    return message


def test_tables_of_an_edited_grammar_are_refused():
    assert "another version of grammar/gradcli.lark" in _stale(grammar=_grammar() + "\n// edited\n")


def test_tables_of_another_layout_are_refused():
    from gradcli.language._lalr_tables import TABLES
    assert "layout 2" in _stale(tables=dict(TABLES, format=2))
    assert "layout None" in _stale(tables={})


def test_broken_tables_are_refused():
    from gradcli.language._lalr_tables import TABLES
    assert "broken (KeyError" in _stale(tables={k: v for k, v in TABLES.items() if k != "states"})


def test_an_unreadable_tables_module_is_refused_at_import(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "gradcli.language._lalr_tables", None)
    assert "cannot be read (ModuleNotFoundError" in _stale()


def test_stale_tables_stop_the_cli_with_the_command_to_run(monkeypatch):
    """Never a silent, slower fallback: the command fails and says what regenerates them."""
    from click.testing import CliRunner
    from gradcli.cli import main
    from gradcli.language import _lalr_tables
    monkeypatch.setattr(parser, "_runtime", None)
    monkeypatch.setitem(_lalr_tables.TABLES, "grammar_crc32", -1)
    result = CliRunner().invoke(main, ["eval", "x**2", "--at", "x=3"])
    assert result.exit_code != 0
    assert "python grammar/make_tables.py" in result.output + (result.stderr_bytes or b"").decode()
    monkeypatch.setattr(parser, "_runtime", None)


def test_parses_share_no_state_across_threads():
    """Each parse has its own context: warnings and defined names never cross threads."""
    from concurrent.futures import ThreadPoolExecutor
    texts = ["1/2x + y", "f(x) = x^2; f'(1)", "xy + 2", "a = 1; a + b", "sin^-1 x"] * 40
    alone = [(parser.parse(t).warnings, [s.name for s in parser.parse(t).statements])
             for t in texts]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda t: (parser.parse(t).warnings,
                                             [s.name for s in parser.parse(t).statements]),
                                 texts))
    assert together == alone
