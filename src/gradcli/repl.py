"""The interactive session (`gradcli repl`, and `gradcli` alone on a terminal).

Each line is a definition (`a = 3`, `z = w*x + b`, `f(x) = x^2 sin x`), an
expression to evaluate, a command without the `gradcli` prefix (`diff f`), or
a session word (`:defs`, `help`, `quit`). Definitions are kept as the text the
user typed, and every line runs as a one-shot command would on the program
"definitions; line": the session needs nothing from the language beyond
parsing a program, so what a definition may be (named functions, and whatever
the language learns later) is the language's business alone.

A definition whose right side is a constant (`x = 2`) is a point binding, as
`--at x=2` is: lines evaluated later get the value and the derivative by x.
Any other definition is a statement put in front of the lines that use it.

Click-free: cli/ passes in `run_command(args, prepare)`, which reads a
command's options and calls `prepare(command, params)` for the changes the
session makes (the definitions put in front of the expression, the bindings
added to --at) before it runs; library errors come back here to be reported
with the caret under the line the user typed.
"""
from __future__ import annotations

import os
import re
import sys

from .errors import DomainError, GradcliError, UsageError
from .language.chars import ACCEPTED, DEFINITION
from .output.streams import emit, report_failure, stderr

PROMPT = "> "
META = (":defs", ":forget", ":clear", ":quit")
IDENTIFIER = re.compile(r"[^\W\d]\w*")
# At most 59 columns: a narrow terminal must not wrap it.
HELP = """\
A line is one of:
  x = 2              a point binding (a = pi/4, v = [1, 2])
  z = w*x + b        a definition
  f(x) = x^2 sin x   a function: f(2), f'(2), g_x(1, 2)
  EXPR               its value and derivatives at the
                     bound point, as eval prints them
  COMMAND ...        a command without `gradcli`: diff f,
                     tangent f --at x=1 (f alone: f(x))
Session words:
  :defs              what is defined, in order
  :forget NAME ...   drop definitions; :clear drops all
  help [TOPIC]       this; help diff, help language, ...
  quit, Ctrl-D       leave
"Double quotes" group words; a prime needs none: f'(2).
Tab completes names, functions and commands.
"""



_AT_HINT = re.compile(r"add --at ((?:[^\W\d]\w*=(?:VALUE|…),?)+)")


def in_session_terms(exc: BaseException) -> None:
    """A hint written for the command line (`add --at z=VALUE`), said as a session does it:
    define the name on a line of its own (`z = 2`); a session word typed without its
    colon (`clear`) is that word."""
    if not isinstance(exc, GradcliError) or not exc.hint:
        return
    word = (exc.source or "").strip()
    if f":{word}" in META:
        exc.hint = f"the session's command is :{word}"
        return
    match = _AT_HINT.search(exc.hint)
    if match:
        names = [b.split("=")[0] for b in match.group(1).split(",") if b]
        lines = "; ".join(f"{n} = 2" for n in names)
        exc.hint = exc.hint.replace(match.group(0), f"give {'them' if len(names) > 1 else 'it'} "
                                    f"a value on a line of its own first, as in {lines}")

class EndSession(Exception):
    """`quit`: leave the loop."""


class Definition:
    """One remembered line: its name, its parameters (a function) and its text.

    `value` is the right side of a point binding (`x = 2`), None for a statement.
    """

    __slots__ = ("name", "params", "text", "value")

    def __init__(self, name, params, text, value=None):
        self.name = name
        self.params = params
        self.text = text
        self.value = value


def parse_definition(line: str):
    """(name, params or None, right side) when the line is a definition, else None.

    A definition is what the parser takes for one (`f(x, y) = ...` or `a = ...`,
    not `a == b`), spotted by the language's own pattern on the line with its
    look-alike characters read as ASCII, one for one.
    """
    stripped = line.lstrip()
    match = DEFINITION.match(stripped.translate(ACCEPTED))
    if match is None:
        return None
    name, params, rhs = match.group(1), match.group(2), stripped[match.end(3):]
    if params is not None:
        params = tuple(p.strip() for p in params.split(","))
    return name, params, rhs.strip()


def expand_call(text: str, functions: dict) -> str:
    """A defined function's name alone means the function of its own parameters:
    `f` -> `f(x, y)` when f(x, y) is defined; any other text is returned as it is."""
    name = text.strip()
    if name in functions:
        return f"{name}({', '.join(functions[name])})"
    return text


def split_words(text: str) -> list[str]:
    """Split a command line as a shell does, except that a quote glued to a word is a prime.

    `diff "x^2 sin x" --at x=1` -> ['diff', 'x^2 sin x', '--at', 'x=1'];
    `eval f'(2)` keeps f'(2) whole, where shlex would open a quotation.
    """
    words, word, quote, started = [], [], None, False
    i = 0
    while i < len(text):
        ch = text[i]
        i += 1
        if quote is not None:
            if ch == quote:
                quote = None
            elif ch == "\\" and quote == '"' and i < len(text) and text[i] in '"\\':
                word.append(text[i])
                i += 1
            else:
                word.append(ch)
        elif ch.isspace():
            if started:
                words.append("".join(word))
                word, started = [], False
        elif ch == '"' or (ch == "'" and not started):
            quote, started = ch, True
        elif ch == "\\" and i < len(text):
            word.append(text[i])
            started = True
            i += 1
        else:
            word.append(ch)
            started = True
    if quote is not None:
        raise UsageError(f"the line has an unclosed {quote}",
                         hint="close the quotation, or write a prime glued to its name: f'(2)")
    if started:
        words.append("".join(word))
    return words


def _is_option(word: str) -> bool:
    return (word.startswith("--") and len(word) > 2) or re.match(r"-[ofhV]", word) is not None


def command_words(text: str) -> list[str]:
    """The words of a command line, the leading unquoted words joined as one expression:
    `diff x^2 sin x --at x=1` -> ['diff', 'x^2 sin x', '--at', 'x=1'].

    A command takes one expression, so several words before the first option can
    only be an expression the shell would have needed quotes for.
    """
    words = split_words(text)
    end = 1
    while end < len(words) and not _is_option(words[end]):
        end += 1
    if end > 2:
        words[1:end] = [" ".join(words[1:end])]
    return words


def _names_given(specs) -> set:
    """The names that `--at`/`--over` values bind: `x=1,y=2` -> {x, y}."""
    from .inputs import split_top_level
    if isinstance(specs, str):
        specs = [specs]
    return {item.partition("=")[0].strip() for spec in specs or ()
            for item in split_top_level(spec) if "=" in item}


def _uses(word: str, definition: Definition, known) -> bool:
    """Whether a word of a line may refer to a definition: its name; a partial of a
    function (g_x for g); or one of the letters of a glued product (a in ax)."""
    name = definition.name
    if word == name:
        return True
    if definition.params is not None and word.startswith(name + "_"):
        return True
    return len(name) == 1 and word.isalpha() and word not in known and name in word


class Session:
    """The definitions of one session and what each line does with them."""

    def __init__(self, run_command, commands):
        self.run_command = run_command
        self.commands = [c for c in commands if c != "repl"]
        self.definitions: list[Definition] = []
        self._program = None    # the last program text built, and where each line sits in it
        self._segments = []

    # ------------------------------------------------------------- definitions

    def functions(self) -> dict:
        return {d.name: d.params for d in self.definitions if d.params is not None}

    def names(self) -> list[str]:
        return [d.name for d in self.definitions]

    def define(self, line: str, name: str, params, rhs: str) -> None:
        """Remember a definition, replacing an earlier one of the same name in its place."""
        from .inputs import constant_value
        value = None
        if params is None and rhs:
            try:
                constant_value(rhs, name)
                value = rhs
            except DomainError as exc:
                # x = 1/0 has no value anywhere: refused like a syntax error, the caret
                # under the line as typed
                typed = line.strip()
                offset = typed.rfind(rhs)
                if exc.source == rhs and exc.span is not None and offset >= 0:
                    exc.source = typed
                    exc.span = (exc.span[0] + offset, exc.span[1] + offset)
                raise exc from None
            except GradcliError:
                pass  # not a constant: a statement, checked below as part of the program
        new = Definition(name, params, line.strip(), value)
        candidate = [new if d.name == name else d for d in self.definitions]
        if name not in self.names():
            candidate.append(new)
        try:
            self._check(candidate)
        except GradcliError as exc:
            raise self._own_error(new.text, exc) from None
        self.definitions = candidate

    def forget(self, names) -> None:
        unknown = [n for n in names if n not in self.names()]
        if unknown:
            raise UsageError(f"'{unknown[0]}' is not defined",
                             hint="`:defs` lists the definitions")
        remaining = [d for d in self.definitions if d.name not in names]
        self._check(remaining)
        self.definitions = remaining

    def _check(self, definitions) -> None:
        """Parse the definitions as one program: a bad one is refused, not remembered."""
        from .language.parser import parse
        # Point bindings first: they use no name, and any statement may use them.
        texts = ([d.text for d in definitions if d.value is not None]
                 + [d.text for d in definitions if d.value is None])
        if texts:
            parse(self._build(texts))

    def _own_error(self, line: str, exc: GradcliError) -> GradcliError:
        """A syntax error in the line typed, said of the line alone: `x = y +` ends after
        '+', where the program it joined went on past a ';' the user never typed."""
        from .errors import ParseError
        from .language.parser import parse
        self.relocate(exc)
        if exc.source != line:
            return exc
        try:
            parse(line)
        except ParseError as alone:
            if type(alone) is ParseError:
                return alone
        except GradcliError:
            pass
        return exc

    def _build(self, texts) -> str:
        """The program "a; b; ...; line", remembering each part's place for error carets."""
        segments, pos = [], 0
        for text in texts:
            segments.append((pos, pos + len(text), text))
            pos += len(text) + 2
        self._program = "; ".join(texts)
        self._segments = segments
        return self._program

    def needed(self, text: str) -> list[Definition]:
        """The statements a line uses, directly or through other definitions, in order.

        Read from the names in the text: a definition left out cannot get in the way
        (`b = a*y` with y unbound does not stop `x^2`). A one-letter name inside a
        word of letters (`a` in `ax`) counts as used: the parser reads such a word as
        the product of its letters.
        """
        from . import ops
        known = set(ops.function_names()) | set(ops.CONSTANTS)
        statements = [d for d in self.definitions if d.value is None]
        wanted, words = set(), set(IDENTIFIER.findall(text))
        changed = True
        while changed:
            changed = False
            for d in statements:
                if d.name in wanted:
                    continue
                if any(_uses(w, d, known) for w in words):
                    wanted.add(d.name)
                    words |= set(IDENTIFIER.findall(d.text))
                    changed = True
        return [d for d in statements if d.name in wanted]

    # ------------------------------------------------------------- commands

    def prepare(self, command: str, params: dict, point: bool = False) -> dict:
        """The changes to a command's parameters: the statements its expression uses put in
        front of it, and the bound names it uses.

        The bound names are the point (added to --at) when the command line gives none
        and they bind every input, or always with `point` (an expression line, which
        needs one). Otherwise they are fixed values, put in front as statements: with
        `a = 3`, `tangent a x^2 --at x=1` is the tangent line in x. Names that --at or
        --over give on the command line are left to them.
        """
        changes = {}
        expr = params.get("expr")
        if expr is None:
            return changes  # no expression, or one read from a file: run it as it is
        expr = expand_call(expr, self.functions())
        statements = [d.text for d in self.needed(expr)]
        text = expr if command == "implicit" else "; ".join(statements + [expr])
        given = _names_given(params.get("at")) | _names_given(params.get("over"))
        open_names = self._inputs(text, command) - given
        bound = [d for d in self.definitions if d.value is not None and d.name in open_names]
        if bound and "at" in params and (point or (not given and len(bound) == len(open_names))):
            changes["at"] = (tuple(params.get("at") or ())
                             + (",".join(f"{d.name}={d.value}" for d in bound),))
            bound = []
        if command == "implicit":
            changes["expr"] = expr  # an equation, not a program: nothing goes in front
        else:
            changes["expr"] = self._build([d.text for d in bound] + statements + [expr])
        return changes

    def _inputs(self, text: str, command: str) -> set:
        """The free names of a program (both sides of an implicit equation); none when it
        does not parse, which the command itself then reports."""
        from .language.expr import inputs_of
        from .language.parser import parse
        bound = [d.name for d in self.definitions if d.value is not None]
        try:
            if command == "implicit":
                from .tasks.implicit import split_equation
                sides = split_equation(text)
            else:
                sides = (text,)
            return {n for side in sides for n in inputs_of(parse(side, bound))}
        except GradcliError:
            return set()

    def relocate(self, exc: BaseException) -> None:
        """Point an error's caret into the line it is in (a definition or the one typed),
        not into the program they were joined into."""
        if (not isinstance(exc, GradcliError) or exc.span is None
                or exc.source != self._program or self._program is None):
            return
        start, end = exc.span
        for first, last, text in self._segments:
            if first <= start <= last:
                exc.source = text
                exc.span = (start - first, max(start - first, min(end, last) - first))
                return

    # ------------------------------------------------------------- lines

    def handle(self, line: str) -> int:
        """Do one line; its exit code (0 when it succeeded). Raises EndSession on quit."""
        text = line.strip()
        if not text or text.startswith("#"):
            return 0
        self._program = None
        try:
            return self._dispatch(text) or 0
        except EndSession:
            raise
        except Exception as exc:  # reported as the one-shot commands report it, then go on
            if os.environ.get("GRADCLI_DEBUG") and not isinstance(exc, MemoryError):
                import traceback
                traceback.print_exc()
            self.relocate(exc)
            in_session_terms(exc)
            sys.stdout.flush()
            return report_failure(exc)

    def _dispatch(self, text: str):
        word = text.split(None, 1)[0]
        if text in ("quit", "exit", ":q", ":quit"):
            raise EndSession
        if word not in self.commands and not text.startswith(":"):
            from .inputs import split_top_level
            parts = split_top_level(text, ";")
            if len(parts) > 1:
                # `a = 3; b = a*x; b^2` is three lines: the session remembers a and b.
                for part in parts:
                    code = self._dispatch(part)
                    if code:
                        return code
                return 0
        if text.startswith(":"):
            return self._session_word(word, text[len(word):].split())
        definition = parse_definition(text)
        if definition is not None:
            self.define(text, *definition)
            return 0
        if text == "help":
            emit(HELP)
            return 0
        if word in self.commands:
            return self.run_command(command_words(text), self.prepare)
        if word == "repl":
            raise UsageError("this is already a session")
        return self.run_command(["eval", text],
                                lambda command, params: self.prepare(command, params, True))

    def _session_word(self, word: str, args):
        if word == ":defs":
            emit("".join(d.text + "\n" for d in self.definitions)
                 or "(nothing is defined)\n")
        elif word == ":forget":
            if not args:
                raise UsageError(":forget needs the names to drop", hint="for example :forget a")
            self.forget([a.strip(",") for a in args])
        elif word == ":clear":
            self.definitions = []
        else:
            import difflib
            near = difflib.get_close_matches(word, META, n=1)
            raise UsageError(f"no session word '{word}'",
                             hint=(f"did you mean {near[0]}? " if near else "")
                             + "the words are " + ", ".join(META))
        return 0

    # ------------------------------------------------------------- completion

    def completions(self, before: str, word: str) -> list[str]:
        """What the word being typed may become; `before` is the line up to it."""
        from . import ops
        functions = sorted(set(ops.function_names()) | set(self.functions()))
        if word.startswith(":"):
            pool = list(META)
        elif not before.strip():
            pool = ([c + " " for c in self.commands] + ["help ", "quit", "exit"]
                    + [n for n in self.names() if n not in self.functions()]
                    + [f + "(" for f in functions] + list(ops.CONSTANTS))
        elif before.split()[0] == "help":
            from .output.topics import TOPICS
            pool = list(TOPICS) + self.commands
        else:
            pool = ([n for n in self.names() if n not in self.functions()]
                    + [f + "(" for f in functions] + list(ops.CONSTANTS))
        return sorted({p for p in pool if p.startswith(word)})


# ----------------------------------------------------------------- the loop

def history_path(environ=os.environ) -> str | None:
    """Where an interactive session keeps its history: $GRADCLI_HISTORY (empty: nowhere),
    else $XDG_STATE_HOME/gradcli/history, else ~/.local/state/gradcli/history."""
    if "GRADCLI_HISTORY" in environ:
        return environ["GRADCLI_HISTORY"] or None
    state = environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"),
                                                          ".local", "state")
    return os.path.join(state, "gradcli", "history")


class _Terminal:
    """input() with readline: line editing, history (in memory, and in a file), completion."""

    def __init__(self, session, history_file):
        try:
            import readline
        except ImportError:  # a Python built without it: plain input() still works
            readline = None
        self.readline = readline
        self.history_file = history_file
        self.session = session
        if readline is None:
            return
        readline.set_completer(self._complete)
        readline.set_completer_delims(" \t\n\"()[]{},;+-*/^=<>|&")
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")
        readline.set_history_length(1000)
        if history_file and os.path.exists(history_file):
            try:
                readline.read_history_file(history_file)
            except OSError:
                pass
        self._matches = []

    def _complete(self, word, state):
        if state == 0:
            rl = self.readline
            before = rl.get_line_buffer()[:rl.get_begidx()]
            self._matches = self.session.completions(before, word)
        return self._matches[state] if state < len(self._matches) else None

    def read(self) -> str:
        return input(PROMPT)

    def close(self) -> None:
        if self.readline is None or not self.history_file:
            return
        try:
            os.makedirs(os.path.dirname(self.history_file) or ".", exist_ok=True)
            self.readline.write_history_file(self.history_file)
        except OSError as exc:
            stderr(f"warning: history not saved to {self.history_file}: {exc.strerror}")


def run(run_command, commands, *, interactive: bool, history: bool = True,
        stream=None) -> int:
    """Read and do lines until end of input; the exit code of the last line that failed, or 0.

    On a terminal: a prompt, line editing, history and completion. Otherwise
    (`gradcli repl < script`) the lines are read as a script: no prompt, each
    result printed, errors on stderr, and the session goes on after them.
    """
    from . import __version__
    session = Session(run_command, commands)
    terminal = None
    if interactive:
        terminal = _Terminal(session, history_path() if history else None)
        stderr(f"gradcli {__version__} session: `help` for help, Ctrl-D to leave")
    stream = stream or sys.stdin
    status = 0
    try:
        while True:
            try:
                if terminal is not None:
                    line = terminal.read()
                else:
                    line = stream.readline()
                    if not line:
                        raise EOFError
            except EOFError:
                if terminal is not None:
                    emit("\n")
                break
            except KeyboardInterrupt:
                if terminal is None:
                    raise
                emit("\n")  # Ctrl-C drops the line being typed, as in Python
                continue
            try:
                code = session.handle(line)
            except EndSession:
                break
            except KeyboardInterrupt:
                stderr("interrupted")
                code = 130
            if code:
                status = code
    finally:
        if terminal is not None:
            terminal.close()
    return status
