"""A small LALR(1) runtime over tables computed from grammar/gradcli.lark.

Importing Lark and building its parser costs more than the rest of `gradcli eval`;
the language itself needs only a lexer regex and a parse table. Those tables
are computed by Lark once, at development time (`python grammar/make_tables.py`
writes them into `_lalr_tables.py`, plain data beside this file, and a test
regenerates them and compares). `Parser` drives them with the same
tree-building rules as Lark (`?rule` inlining, `_rule` splicing, filtered
`_TOKEN`s, `[x]` placeholders), calling the same transformer methods, so the
grammar file stays the single source of the language. Nothing is written to
disk at run time, and this module never imports lark. Tables that do not match
the grammar are refused (`StaleTables`), never replaced by something slower.

A failure is reported as `Unexpected` (a token the table has no action for,
with the terminals it expected) or `NoToken` (a character no terminal
matches); explain.py turns both into messages in words.
"""
from __future__ import annotations

from itertools import chain

FORMAT = 3  # bump when the layout of the tables below changes
REGENERATE = "python grammar/make_tables.py"


def grammar_checksum(grammar: str) -> int:
    """What the tables record of the grammar they were made from.

    A CRC-32 is enough to notice an edit, and zlib costs a tenth of hashlib's
    import on the first parse of every run.
    """
    import zlib
    return zlib.crc32(grammar.encode("utf-8"))


class StaleTables(RuntimeError):
    """_lalr_tables.py is missing, unreadable, of another layout or of another grammar."""

    def __init__(self, why: str):
        super().__init__(f"the parse tables (src/gradcli/language/_lalr_tables.py) {why}: "
                         f"regenerate them with `{REGENERATE}`")


class Unreadable(Exception):
    """The runtime cannot read this text."""


class Unexpected(Unreadable):
    """A token with no action in the current state; `expected` lists the terminals that had one."""

    def __init__(self, token, expected):
        super().__init__(f"unexpected {token.type}")
        self.token = token
        self.expected = expected


class NoToken(Unreadable):
    """No terminal matches the text at `pos`."""

    def __init__(self, pos):
        super().__init__(f"no token at {pos}")
        self.pos = pos


class Token(str):
    """A token: its text, its terminal's name, and where it is in the source.

    Compatible with the parts of lark.Token that the post-lexer and the
    transformer use (type, value, start_pos, end_pos), so that both runtimes
    drive them. `extra` is what the post-lexer learnt about it (a function's
    power, whether a name is a variable).
    """

    __slots__ = ("type", "value", "start_pos", "end_pos", "extra")
    # Lark's parser copies these from the last token when it runs (the fallback);
    # gradcli locates everything by start_pos and end_pos.
    line = column = end_line = end_column = None

    def __new__(cls, type, value, start_pos=None, end_pos=None):
        tok = str.__new__(cls, value)
        tok.type = type
        tok.value = value
        tok.start_pos = start_pos
        tok.end_pos = end_pos
        tok.extra = None
        return tok

    def __reduce__(self):
        return (Token, (self.type, self.value, self.start_pos, self.end_pos))


class Tree:
    """A rule that has no transformer method (the `_rule`s spliced into their parent)."""

    __slots__ = ("data", "children")

    def __init__(self, data, children):
        self.data = data
        self.children = children


class Transformer:
    """Base of the transformers this runtime calls; rules with no method become a Tree."""

    def __default__(self, data, children, meta):
        return Tree(data, children)


# ----------------------------------------------------------------- the runtime

class Parser:
    """Lexer + LALR driver over the generated tables, for one transformer class.

    Shared by every parse: each parse() gets its own post-lexer and transformer
    instance, so that parses share no state (the callbacks are the class's
    functions, called with the instance).
    """

    def __init__(self, data: dict, transformer: type):
        import re
        self.scanners = [re.compile(p, flags).match for p, flags in data["patterns"]]
        self.ignore = frozenset(data["ignore"])
        self.states = data["states"]
        self.start = data["start"]
        self.end = data["end"]
        callbacks = []
        for origin, size, name, expand1, include, append_none in data["rules"]:
            if expand1 and include is None and size == 1:
                # `?rule: child`: the child itself; only the parser state changes.
                callbacks.append((origin, size, None))
                continue
            method = getattr(transformer, name, None)
            if method is None:
                def method(self, children, _name=name):
                    return self.__default__(_name, children, None)
            callbacks.append((origin, size, _wrap(method, expand1, include, append_none)))
        self.callbacks = callbacks
        self._units = {}  # (state under the top, top state, terminal) -> the top after units

    def lex(self, text: str):
        """Tokens as Lark's basic lexer makes them (ignored ones dropped)."""
        scanners, ignore = self.scanners, self.ignore
        if len(scanners) == 1:
            match = scanners[0]
        else:  # Lark splits a lexer of very many terminals over several patterns
            def match(text, pos):
                for scan in scanners:
                    m = scan(text, pos)
                    if m:
                        return m
                return None
        pos, n = 0, len(text)
        new = str.__new__
        while pos < n:
            m = match(text, pos)
            if m is None:
                raise NoToken(pos)
            type_ = m.lastgroup
            start = pos
            pos = m.end()
            if type_ not in ignore:
                value = m.group()
                tok = new(Token, value)  # Token() without its call: the hot loop
                tok.type = type_
                tok.value = value
                tok.start_pos = start
                tok.end_pos = pos
                tok.extra = None
                yield tok

    def parse(self, text: str, postlex, transformer):
        """The transformer's value for `text`, the post-lexer between lexer and rules."""
        stream = self.lex(text)
        if postlex is not None:
            stream = postlex.process(stream)
        states, callbacks, end_state = self.states, self.callbacks, self.end
        state_stack = [self.start]
        push_state = state_stack.append
        values = []
        push_value = values.append
        end_token = Token("$END", "", len(text), len(text))
        units = self._units
        for tok in chain(stream, (end_token,)):
            ttype = tok.type
            while True:
                step = states[state_stack[-1]].get(ttype)
                if step is None:
                    row = states[state_stack[-1]]
                    raise Unexpected(tok, {k for k in row if k.isupper() or k == "$END"})
                action, arg = step
                if action == 0:  # shift
                    if tok is end_token:  # pragma: no cover - $END is never shifted
                        raise Unreadable("shift at the end")
                    push_state(arg)
                    push_value(tok)
                    break
                origin, size, callback = callbacks[arg]
                if callback is None:
                    # A chain of unit `?rule`s (atom -> power -> ... -> sum) changes only the
                    # top state, and the state under it decides each step: taken once per
                    # (state under, top, token) and remembered.
                    key = (state_stack[-2], state_stack[-1], ttype)
                    top = units.get(key)
                    if top is None:
                        top = units[key] = self._unit_chain(*key)
                    state_stack[-1] = top
                else:
                    if size:
                        children = values[-size:]
                        del values[-size:]
                        del state_stack[-size:]
                    else:
                        children = []
                    push_value(callback(transformer, children))
                    push_state(states[state_stack[-1]][origin][1])
                if tok is end_token and state_stack[-1] == end_state:
                    return values[-1]
        raise Unreadable("the input ended early")  # pragma: no cover - $END always decides

    def _unit_chain(self, below: int, top: int, ttype: str) -> int:
        """The top state after every unit reduction that `ttype` calls for over `below`."""
        states, callbacks = self.states, self.callbacks
        while True:
            step = states[top].get(ttype)
            if step is None or step[0] == 0:
                return top
            origin, _, callback = callbacks[step[1]]
            if callback is not None:
                return top
            top = states[below][origin][1]


def _wrap(method, expand1, include, append_none):
    """Lark's ChildFilterLALR and ExpandSingleChild around one transformer method
    (a function of the transformer and the children)."""
    if include is None:
        if expand1:
            def call(self, children):
                return children[0] if len(children) == 1 else method(self, children)
            return call
        return method

    def call(self, children):
        filtered = []
        for i, to_expand, add_none in include:
            if add_none:
                filtered += [None] * add_none
            if to_expand:
                if filtered:
                    filtered += children[i].children
                else:
                    filtered = children[i].children
            else:
                filtered.append(children[i])
        if append_none:
            filtered += [None] * append_none
        if expand1 and len(filtered) == 1:
            return filtered[0]
        return method(self, filtered)
    return call
