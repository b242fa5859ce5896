"""The interactive session (repl.py): line kinds, definitions, the programs built for
commands, the piped (script) mode, and a real terminal through a pseudo-terminal."""
import os
import re
import select
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from gradcli import repl
from gradcli.cli import main
from gradcli.repl import (Definition, Session, command_words, expand_call, history_path,
                          parse_definition, split_words)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")


# ---------------------------------------------------------------- text in, text out

@pytest.mark.parametrize("line,expected", [
    ("a = 3", ("a", None, "3")),
    ("z=w*x + b", ("z", None, "w*x + b")),
    ("f(x) = x^2 sin x", ("f", ("x",), "x^2 sin x")),
    ("g(x, y) = x y", ("g", ("x", "y"), "x y")),
    ("a == 3", None),
    ("x^2 + y^2 = 25", None),
    ("sin x", None),
    ("f(2)", None),
])
def test_a_definition_is_recognised_by_its_text(line, expected):
    assert parse_definition(line) == expected


@pytest.mark.parametrize("line", [
    "a = 3", "  z=w*x + b", "a\u00a0= 3", "f(x)\u2009= x^2", "g(x, y) = x y", "sin x",
    "θ = 1", "h(t)=t", "x - 3",
])
def test_the_session_and_the_parser_agree_on_what_defines(line):
    """One pattern spots definitions (language/chars.py): a line the session takes for
    one is one for the parser too, with the same name and parameters."""
    from gradcli.language.parser import parse
    statement = parse(line).statements[0]
    parsed = (statement.name, statement.params) if statement.name else None
    spotted = parse_definition(line)
    assert (spotted[:2] if spotted else None) == parsed


@pytest.mark.parametrize("text,expected", [
    ("f", "f(x)"),
    (" g ", "g(x, y)"),
    ("f(2)", "f(2)"),
    ("f + 1", "f + 1"),
    ("h", "h"),
])
def test_a_function_name_alone_is_the_function_of_its_parameters(text, expected):
    assert expand_call(text, {"f": ("x",), "g": ("x", "y")}) == expected


@pytest.mark.parametrize("line,words", [
    ('diff "x^2 sin x" --at x=1', ["diff", "x^2 sin x", "--at", "x=1"]),
    ("eval f'(2)", ["eval", "f'(2)"]),
    ("eval f''(x) --at x=1", ["eval", "f''(x)", "--at", "x=1"]),
    ("check 'x^2' --value 4", ["check", "x^2", "--value", "4"]),
    (r'eval "a\"b"', ["eval", 'a"b']),
])
def test_words_split_as_a_shell_splits_them_but_a_glued_quote_is_a_prime(line, words):
    assert split_words(line) == words


def test_an_unclosed_quote_is_an_error_not_a_traceback():
    with pytest.raises(repl.UsageError, match="unclosed"):
        split_words('diff "x^2')


@pytest.mark.parametrize("line,words", [
    ("diff x^2 sin x --at x=1", ["diff", "x^2 sin x", "--at", "x=1"]),
    ("diff x^2 - x -o plain", ["diff", "x^2 - x", "-o", "plain"]),
    ("taylor sin x", ["taylor", "sin x"]),
    ("diff --wrt x x^2", ["diff", "--wrt", "x", "x^2"]),
    ("functions", ["functions"]),
])
def test_a_command_takes_its_leading_words_as_one_expression(line, words):
    assert command_words(line) == words


def test_history_lives_in_the_state_directory_and_can_be_turned_off(tmp_path):
    assert history_path({"XDG_STATE_HOME": str(tmp_path)}) == \
        os.path.join(str(tmp_path), "gradcli", "history")
    assert history_path({"HOME": "/h"}).endswith(os.path.join(".local", "state", "gradcli",
                                                              "history"))
    assert history_path({"GRADCLI_HISTORY": ""}) is None
    assert history_path({"GRADCLI_HISTORY": "/x/h", "XDG_STATE_HOME": "/s"}) == "/x/h"


# ---------------------------------------------------------------- the session, in process

class Runner:
    """A stand-in for cli.py's command runner: records what each command would run."""

    def __init__(self):
        self.calls = []

    def __call__(self, args, prepare):
        params = {"expr": args[1] if len(args) > 1 else None, "at": ()}
        if "--at" in args:
            params["at"] = (args[args.index("--at") + 1],)
        if "--over" in args:
            params["over"] = args[args.index("--over") + 1]
        params.update(prepare(args[0], params))
        self.calls.append((args[0], params))
        return 0


def session(*lines):
    s = Session(Runner(), ["eval", "diff", "tangent", "critical", "implicit", "help"])
    for line in lines:
        assert s.handle(line) == 0, line
    return s


def last(s):
    return s.run_command.calls[-1]


def test_an_expression_is_evaluated_at_the_bound_point():
    s = session("x = 2", "y = 3", "a = x*y", "a + x")
    assert last(s) == ("eval", {"expr": "a = x*y; a + x", "at": ("x=2,y=3",)})


def test_only_the_definitions_a_line_uses_go_in_front():
    s = session("b = a*y", "c = b + 1", "d = 5*q", "x = 2", "c x")
    assert last(s)[1]["expr"] == "b = a*y; c = b + 1; c x"
    s.handle("ax + 1")  # glued letters: the parser reads a*x
    assert last(s)[1]["expr"] == "ax + 1"
    s.handle("cx")
    assert last(s)[1]["expr"] == "b = a*y; c = b + 1; cx"


def test_a_line_of_several_statements_is_several_lines(capsys):
    s = session("a = 3; b = a*x; x = 2; b^2")
    assert [d.text for d in s.definitions] == ["a = 3", "b = a*x", "x = 2"]
    assert last(s) == ("eval", {"expr": "b = a*x; b^2", "at": ("a=3,x=2",)})
    assert s.handle("c = 1; g = c +* 2; d = 4") == 2  # stops at the first failure
    assert "  g = c +* 2\n" in capsys.readouterr().err
    assert s.names() == ["a", "b", "x", "c"]
    s.handle('diff "u = a*x; u^2"')  # a command's own program is not split
    assert last(s)[1]["expr"] == "u = a*x; u^2"


def test_a_redefinition_replaces_the_earlier_one_in_its_place():
    s = session("a = 3", "b = a*x", "a = 4", "a = y^2")
    assert [d.text for d in s.definitions] == ["a = y^2", "b = a*x"]
    assert [d.value for d in s.definitions] == [None, None]
    s.handle("b")
    assert last(s)[1]["expr"] == "a = y^2; b = a*x; b"


@pytest.mark.parametrize("bad,message", [
    ("x = y +", "ends after '+'"),
    ("b = b + 1", "own definition"),
    ("sin = 3", "is a function"),
    ("pi = 3", "is a constant"),
])
def test_a_bad_definition_is_refused_and_not_remembered(bad, message, capsys):
    s = session("a = 3")
    assert s.handle(bad) == 2
    err = capsys.readouterr().err
    assert message in err
    assert f"  {bad}\n" in err  # the caret is under the line typed, not the joined program
    assert [d.text for d in s.definitions] == ["a = 3"]


def test_a_binding_used_by_an_earlier_definition_is_accepted():
    s = session("b = a*y", "y = 3")
    assert [d.text for d in s.definitions] == ["b = a*y", "y = 3"]


def test_a_command_gets_the_point_when_the_bindings_complete_it():
    s = session("x = 2", "diff x^2 sin x")
    assert last(s) == ("diff", {"expr": "x^2 sin x", "at": ("x=2",)})


def test_bound_names_are_fixed_values_when_the_command_line_gives_the_point():
    s = session("a = 3", "tangent a x^2 --at x=1")
    assert last(s) == ("tangent", {"expr": "a = 3; a x^2", "at": ("x=1",)})
    s.handle("critical x^2 - a x --over x=-5:5")
    assert last(s)[1]["expr"] == "a = 3; x^2 - a x"
    assert last(s)[1]["at"] == ()


def test_the_command_lines_own_binding_wins():
    s = session("x = 2", "diff x^3 --at x=5")
    assert last(s) == ("diff", {"expr": "x^3", "at": ("x=5",)})


def test_an_implicit_equation_gets_bindings_but_nothing_in_front():
    s = session("x = 3", "y = 4", "r = 5", "implicit x^2 + y^2 = r^2 --wrt x")
    assert last(s) == ("implicit", {"expr": "x^2 + y^2 = r^2", "at": ("x=3,y=4,r=5",)})


def test_the_name_of_a_defined_function_alone_means_its_call():
    # Text in, text out: stored directly, since the parser has no named functions yet.
    s = session()
    s.definitions = [Definition("g", ("x", "y"), "g(x, y) = x^2 y")]
    s.handle("diff g")
    assert last(s)[1]["expr"] == "g(x, y) = x^2 y; g(x, y)"
    s.handle("tangent g --at x=1,y=2")
    assert last(s)[1]["expr"] == "g(x, y) = x^2 y; g(x, y)"
    for line in ("g(1, 2)", "g_x(1, 2)"):
        s.handle(line)
        assert last(s)[1]["expr"] == "g(x, y) = x^2 y; " + line


def test_a_function_definition_is_remembered():
    s = session("f(x) = x^2 sin x", "f(2)", "f'(2)", "g(x, y) = x y", "h(t) = f(t) + 1")
    assert [d.text for d in s.definitions] == ["f(x) = x^2 sin x", "g(x, y) = x y",
                                               "h(t) = f(t) + 1"]
    assert last(s)[1]["expr"] == "f(x) = x^2 sin x; f'(2)"
    s.handle("h'(1) + g_x(1, 2)")
    assert last(s)[1]["expr"] == "f(x) = x^2 sin x; g(x, y) = x y; h(t) = f(t) + 1; " \
                                 "h'(1) + g_x(1, 2)"
    s.handle("diff h")
    assert last(s)[1]["expr"] == "f(x) = x^2 sin x; h(t) = f(t) + 1; h(t)"


def test_a_function_definition_that_breaks_another_is_refused(capsys):
    s = session("f(x) = x^2", "h(t) = f(t) + 1")
    assert s.handle("f(x, y) = x y") == 2
    assert "  h(t) = f(t) + 1\n" in capsys.readouterr().err
    assert s.handle("k(x) = k(x) + 1") == 2
    assert "own definition" in capsys.readouterr().err
    assert s.names() == ["f", "h"]


def test_a_function_through_the_commands():
    proc = run_piped("f(x) = x^2 sin x\nf'(2)\ndiff f\ntangent f --at x=0\n"
                     "g(x, y) = x^2 y\ng_x(1, 2)\n")
    assert proc.stdout == ("f'(2)\t1.9726023611141572\n"
                           "df/dx\t2*x*sin(x) + x^2*cos(x)\n"
                           "tangent\ty = 0\nf\t0\ndf/dx\t0\n"
                           "g_x(1, 2)\t4\n"), proc.stderr


def test_session_words(capsys):
    s = session("a = 3", "b = a*x")
    capsys.readouterr()
    s.handle(":defs")
    assert capsys.readouterr().out == "a = 3\nb = a*x\n"
    s.handle(":forget a")
    assert [d.name for d in s.definitions] == ["b"]
    assert s.handle(":forget zz") == 2
    assert "'zz' is not defined" in capsys.readouterr().err
    s.handle(":clear")
    s.handle(":defs")
    assert capsys.readouterr().out == "(nothing is defined)\n"
    assert s.handle(":def") == 2
    assert "did you mean :defs?" in capsys.readouterr().err
    s.handle("help")
    shown = capsys.readouterr().out
    assert ":forget NAME" in shown
    assert max(len(line) for line in shown.splitlines()) < 60  # fits a narrow terminal
    for word in ("quit", "exit"):
        with pytest.raises(repl.EndSession):
            s.handle(word)


def test_completion_of_commands_functions_and_names():
    s = session("alpha = 3", "amp = alpha*x")
    assert s.completions("", "ta") == ["tan(", "tangent ", "tanh("]
    assert "alpha" in s.completions("eval ", "al")
    assert s.completions("x + ", "am") == ["amp"]
    assert s.completions("", ":d") == [":defs"]
    assert "sigmoid(" in s.completions("diff ", "sigm")
    assert "language" in s.completions("help ", "lang")


# ---------------------------------------------------------------- through click, piped

def run_piped(text, *args, env=None):
    env = dict(env or os.environ, PYTHONPATH=SRC, NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "gradcli", "repl", *args], input=text,
                          env=env, capture_output=True, text=True, timeout=60)


def test_a_piped_script_prints_each_result_and_goes_on_after_an_error(tmp_path):
    proc = run_piped("x = 2\nx^2 sin x\nx +* 1\nlog(x - 3)\ndiff x^3 -o plain\n"
                     "# a comment\n\n:defs\n",
                     env=dict(os.environ, HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path)))
    assert proc.stdout == ("f\t3.637189707302727\ndf/dx\t1.9726023611141572\n"
                           "df/dx\t3*x^2\t12\n"
                           "x = 2\n")
    assert proc.stderr == ("error: unexpected '*' after '+': expected a number, a name or '('\n"
                           "  x +* 1\n     ^\nhint: put an operand between '+' and '*'\n"
                           "error: ln(x - 3) is undefined at x - 3 = -1: ln needs a positive "
                           "argument\n  log(x - 3)\n  ^^^^^^^^^^\n")
    assert proc.returncode == 3  # the last line that failed
    assert not os.listdir(tmp_path)  # a script keeps no history


def test_a_piped_script_that_succeeds_exits_0_and_quit_stops_it():
    proc = run_piped("1 + 1\nquit\n2 + 2\n")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "f\t2\n", "")


def test_command_errors_are_the_one_shot_messages():
    proc = run_piped("diff x --bogus\nhelp nosuch\nrepl\n")
    env = dict(os.environ, PYTHONPATH=SRC, NO_COLOR="1")
    one_shot = subprocess.run([sys.executable, "-m", "gradcli", "diff", "x", "--bogus"],
                              env=env, capture_output=True, text=True, timeout=60)
    assert proc.stderr.startswith(one_shot.stderr)
    assert "error: no help topic 'nosuch'" in proc.stderr
    assert "error: this is already a session" in proc.stderr
    assert proc.returncode == 2


def test_repl_through_click_runner():
    result = CliRunner().invoke(main, ["repl"], input="a = 3\na*x\n")
    assert result.output == ("error: no value for 'x'\n  a*x\n    ^\nhint: give it a value on "
                             "a line of its own first, as in x = 2\n")
    assert result.exit_code == 2


def test_hints_in_a_session_are_in_the_sessions_terms():
    result = CliRunner().invoke(main, ["repl"], input="z\nclear\nx*y\n")
    assert "--at" not in result.output
    assert "hint: give it a value on a line of its own first, as in z = 2" in result.output
    assert "hint: the session's command is :clear" in result.output
    assert "as in x = 2; y = 2" in result.output


def test_gradcli_alone_off_a_terminal_still_prints_the_usage():
    env = dict(os.environ, PYTHONPATH=SRC)
    proc = subprocess.run([sys.executable, "-m", "gradcli"], stdin=subprocess.DEVNULL,
                          env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout.startswith("Usage: gradcli") or proc.stderr.startswith("Usage: gradcli")


def test_one_shot_commands_import_neither_readline_nor_the_session():
    code = ("import sys\nfrom gradcli import launch\n"
            "for argv in (['eval', 'x', '--at', 'x=1', '-o', 'json'], ['diff', 'x^2']):\n"
            "    sys.argv = ['gradcli', *argv]\n"
            "    launch.run()\n"
            "    assert 'readline' not in sys.modules, argv\n"
            "    assert 'gradcli.repl' not in sys.modules, argv\n")
    env = dict(os.environ, PYTHONPATH=SRC)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr


# ---------------------------------------------------------------- a real terminal

ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]")


class Terminal:
    """`gradcli` alone on a pseudo-terminal of a given width: type lines, read the screen."""

    def __init__(self, env, columns=80, args=()):
        import fcntl
        import pty
        import struct
        import termios
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
        self.proc = subprocess.Popen([sys.executable, "-m", "gradcli", *args], stdin=slave,
                                     stdout=slave, stderr=slave, env=env, close_fds=True,
                                     start_new_session=True)
        os.close(slave)
        self.raw = b""

    def text(self) -> str:
        return ESCAPES.sub(b"", self.raw).decode("utf-8", "replace").replace("\r\n", "\n")

    def read_until(self, done, timeout=60):
        end = time.monotonic() + timeout
        while not done(self.text()):
            ready, _, _ = select.select([self.master], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                raise AssertionError(f"timed out; the screen ends {self.text()[-400:]!r}")
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # EIO: the session closed the terminal
                chunk = b""
            if not chunk:
                if done(self.text()):
                    break
                raise AssertionError(f"the session ended; the screen: {self.text()!r}")
            self.raw += chunk

    def prompts(self) -> int:
        return self.text().count("\n> ")

    def type(self, line: str) -> None:
        before = self.prompts()
        os.write(self.master, line.encode() + b"\r")
        self.read_until(lambda t: t.count("\n> ") > before)

    def end(self) -> int:
        os.write(self.master, b"\x04")  # Ctrl-D at an empty prompt
        try:
            self.read_until(lambda t: False, timeout=30)
        except AssertionError as exc:
            if "session ended" not in str(exc):
                raise
        os.close(self.master)
        return self.proc.wait(timeout=30)


def terminal_env(tmp_path, **extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("GRADCLI_HISTORY", "COLUMNS", "LINES")}
    env.update(PYTHONPATH=SRC, NO_COLOR="1", TERM="dumb", HOME=str(tmp_path),
               XDG_STATE_HOME=str(tmp_path / "state"), PYTHONIOENCODING="utf-8",
               LC_ALL="C.UTF-8", **extra)
    return env


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_a_session_on_a_terminal(tmp_path):
    term = Terminal(terminal_env(tmp_path))
    term.read_until(lambda t: "\n> " in t)
    assert "Ctrl-D to leave" in term.text()
    term.type("x = 2")
    term.type("x^2 sin x")
    assert "3.63719" in term.text() and "df/dx   1.9726" in term.text()
    term.type("x +* 1")
    assert "error: unexpected '*' after '+'" in term.text()
    term.type("diff x^2 sin x")  # the session went on after the error
    assert "2*x*sin(x) + x^2*cos(x)" in term.text()
    before = term.prompts()
    os.write(term.master, b"1 + sigm\t")  # Tab completes a function's name
    term.read_until(lambda t: "sigmoid(" in t)
    os.write(term.master, b"0)\r")
    term.read_until(lambda t: t.count("\n> ") > before)
    assert "1.5" in term.text().split("sigmoid(0)")[-1]
    assert term.end() == 3 - 1  # the error's exit code (2): the last line that failed
    history = (tmp_path / "state" / "gradcli" / "history").read_text()
    assert "x = 2" in history and "1 + sigmoid(0)" in history
    assert sorted(os.listdir(tmp_path)) == ["state"]  # nothing else in the home directory


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_no_history_file_when_turned_off(tmp_path):
    term = Terminal(terminal_env(tmp_path, GRADCLI_HISTORY=""), args=("repl",))
    term.read_until(lambda t: "\n> " in t)
    term.type("1 + 1")
    assert term.end() == 0
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------- the documented sessions

def doc_blocks(kind, path, heading=None):
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    if heading:
        start = text.index(heading + "\n")
        end = text.find("\n## ", start + len(heading))
        text = text[start:end if end != -1 else len(text)]
    return re.findall(rf"```{kind}\n(.*?)```", text, flags=re.S)


TRANSCRIPTS = [(path, block) for path, heading in (("docs/repl.md", None),
                                                     ("README.md", "## An interactive session"))
               for block in doc_blocks("text", path, heading) if block.startswith("> ")]


def test_the_pages_show_sessions():
    assert {path for path, _ in TRANSCRIPTS} == {"docs/repl.md", "README.md"}


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("path,block", TRANSCRIPTS, ids=[p for p, _ in TRANSCRIPTS])
def test_a_documented_session_is_real_on_an_80_column_terminal(path, block, tmp_path):
    term = Terminal(terminal_env(tmp_path, GRADCLI_HISTORY=""), columns=80)
    term.read_until(lambda t: "\n> " in t)
    start = len(term.text())
    for line in block.splitlines():
        if line.startswith("> "):
            term.type(line[2:])
    term.end()
    shown = term.text()[start - 2:]  # from the first prompt
    shown = shown[:shown.rindex("\n> ")]  # up to the prompt Ctrl-D answered
    got = "\n".join(line.rstrip() for line in shown.splitlines())
    assert got == block.rstrip("\n")


def run_shell(command, tmp_path):
    """A shell command line, with `gradcli` the package under test."""
    shim = tmp_path / "gradcli"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m gradcli "$@"\n')
    shim.chmod(0o755)
    env = dict(os.environ, PYTHONPATH=SRC, PATH=f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    return subprocess.run(["sh", "-c", command], env=env, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("block", [b for b in doc_blocks("console", "docs/repl.md")],
                         ids=lambda b: b.splitlines()[0][:50])
def test_a_documented_script_is_real(block, tmp_path):
    command, *shown = block.rstrip("\n").split("\n")
    assert command.startswith("$ printf ") and command.endswith("| gradcli repl")
    proc = run_shell(command[2:], tmp_path)
    assert (proc.returncode, proc.stdout.splitlines(), proc.stderr) == (0, shown, "")


def test_the_help_example_is_real(tmp_path):
    result = CliRunner().invoke(main, ["repl", "--help"], terminal_width=200)
    lines = result.output.split("Options:")[0].splitlines()
    i = next(i for i, line in enumerate(lines) if line.strip().startswith("$ printf"))
    shown = [line.strip() for line in lines[i + 1:] if line.strip()]
    command = lines[i].strip()
    proc = run_shell(command[2:], tmp_path)
    assert proc.returncode == 0, proc.stderr
    # Compared by words: the help text shows the tabs as spaces.
    assert [line.split() for line in proc.stdout.splitlines()] == [s.split() for s in shown]


@pytest.mark.parametrize("bad,message,code", [
    ("x = 1/0", "division by zero", 3),
    ("y = ln(0)", "ln needs a positive argument", 3),
    ("z = sqrt(-1)", "non-negative", 3),
    ("w = e^2x", "ambiguous", 2),
])
def test_a_definition_without_a_value_is_refused_and_not_remembered(bad, message, code, capsys):
    s = session("a = 3")
    assert s.handle(bad) == code
    err = capsys.readouterr().err
    assert message in err
    assert f"  {bad}\n" in err  # the caret under the line typed
    assert [d.text for d in s.definitions] == ["a = 3"]
    s.handle(":defs")
    assert bad not in capsys.readouterr().out


def test_the_repl_refuses_x_over_zero_through_the_command():
    proc = subprocess.run([sys.executable, "-m", "gradcli", "repl"], input="x = 1/0\n:defs\n",
                          capture_output=True, text=True, timeout=60)
    assert "division by zero" in proc.stderr
    assert "(nothing is defined)" in proc.stdout
