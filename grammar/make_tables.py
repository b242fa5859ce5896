"""Writes src/gradcli/language/_lalr_tables.py: the lexer and LALR tables Lark computes from gradcli.lark.

Run it after editing the grammar:  python grammar/make_tables.py
(`--check` only compares, exit 1 when the committed tables are stale).

This is the only code that reads Lark's internals (its lexer patterns, parse
table and child filters), and it runs at development time only: the installed
package reads the generated module, and refuses it (naming this command) when
it was made from another grammar or in another layout. tests/test_lalr.py
regenerates the tables and compares them with the committed ones, so a Lark
upgrade that changes them shows up as a failing test, not as a broken install.
"""
from __future__ import annotations

import functools
import io
import logging
import os
import pprint
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GRAMMAR = os.path.join(HERE, "gradcli.lark")
TARGET = os.path.join(os.path.dirname(HERE), "src", "gradcli", "language",
                      "_lalr_tables.py")
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))  # run from a checkout
from gradcli.language.lalr import FORMAT, grammar_checksum  # noqa: E402  (the layout it reads)

# The grammar's one shift/reduce conflict, resolved as shift on purpose: after a
# bare function's argument (`sin x`), a juxtaposed factor continues the argument
# (`sin x y` is sin(x*y)), as the argument rule of the language says.
EXPECTED_CONFLICTS = {("IMPLICIT", "farg : fchain")}


def compute(grammar: str) -> dict:
    """The tables for `grammar`, as plain data (strings, integers, tuples, dicts)."""
    import lark
    from lark.parse_tree_builder import (ChildFilterLALR, ChildFilterLALR_NoPlaceholders,
                                         maybe_create_child_filter)
    from lark.parsers.lalr_analysis import Shift

    conflicts = _conflicts(grammar)
    if conflicts != EXPECTED_CONFLICTS:
        raise SystemExit(f"the grammar's LALR conflicts changed: {sorted(conflicts)} "
                         f"(expected {sorted(EXPECTED_CONFLICTS)})")
    lk = lark.Lark(grammar, parser="lalr", lexer="basic", maybe_placeholders=True)
    lexer = lk.parser.lexer
    if getattr(lexer, "callback", None) or lexer.user_callbacks:
        raise SystemExit("the grammar needs lexer callbacks, which lalr.py does not have")
    patterns = tuple((str(m.pattern), int(m.flags)) for m in lexer.scanner._mres)
    table = lk.parser.parser.parser.parse_table
    rules, index = [], {}

    def rule_id(rule):
        if id(rule) not in index:
            opts = rule.options
            made = maybe_create_child_filter(rule.expansion, opts.keep_all_tokens, False,
                                             opts.empty_indices)
            if made is None:
                include, append_none = None, 0
            else:
                assert isinstance(made, functools.partial)
                if made.func is ChildFilterLALR:
                    include = tuple((int(i), bool(x), int(n)) for i, x, n in made.args[0])
                    append_none = int(made.args[1])
                elif made.func is ChildFilterLALR_NoPlaceholders:
                    include = tuple((int(i), bool(x), 0) for i, x in made.args[0])
                    append_none = 0
                else:
                    raise SystemExit(f"unexpected child filter {made.func}")
            name = str(rule.alias or opts.template_source or rule.origin.name)
            rules.append((str(rule.origin.name), len(rule.expansion), name,
                          bool(opts.expand1 and not rule.alias), include, append_none))
            index[id(rule)] = len(rules) - 1
        return index[id(rule)]

    # Lark numbers its states in an order that depends on hashing; number them
    # breadth-first from the start state, symbols in sorted order, so that the
    # generated module is the same on every run.
    start = table.start_states["start"]
    number, order = {start: 0}, [start]
    for state in order:
        for symbol, (action, arg) in sorted(table.states[state].items(),
                                            key=lambda kv: str(kv[0])):
            if action is Shift and arg not in number:
                number[arg] = len(order)
                order.append(arg)
    # (a goto on a rule is a Shift in Lark's table too, so every state is reached)
    assert len(order) == len(table.states), "unreachable parser states"
    states = {}
    for state in order:
        row = {}
        for symbol, (action, arg) in sorted(table.states[state].items(),
                                            key=lambda kv: str(kv[0])):
            row[str(symbol)] = (0, number[arg]) if action is Shift else (1, rule_id(arg))
        states[number[state]] = row
    return {
        "format": FORMAT,
        "grammar_crc32": grammar_checksum(grammar),
        "patterns": patterns,
        "ignore": tuple(sorted(str(t) for t in lexer.ignore_types)),
        "states": states,
        "rules": tuple(rules),
        "start": number[start],
        "end": number[table.end_states["start"]],
    }


def _conflicts(grammar: str) -> set:
    """The (terminal, rule) shift/reduce conflicts Lark reports (and resolves as shift)."""
    import lark
    from lark import logger

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        lark.Lark(grammar, parser="lalr", lexer="basic", maybe_placeholders=True, debug=True)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    found, terminal = set(), None
    for line in stream.getvalue().splitlines():
        if line.startswith("Shift/Reduce conflict for terminal "):
            terminal = line.split()[4].rstrip(":").rstrip(".")
        elif line.strip().startswith("* <") and terminal:
            found.add((terminal, line.strip()[3:].rstrip(">").strip()))
        elif "conflict" in line.lower():
            found.add(("?", line.strip()))
    return found


def render(data: dict) -> str:
    """The module text for `data`."""
    return ('"""The lexer and LALR tables of grammar/gradcli.lark, for lalr.py.\n\n'
            "Generated by grammar/make_tables.py from the grammar; do not edit by hand.\n"
            '"""\n\nTABLES = ' + pprint.pformat(data, width=100, sort_dicts=False) + "\n")


def main(argv) -> int:
    with open(GRAMMAR, encoding="utf-8") as f:
        text = render(compute(f.read()))
    if "--check" in argv:
        try:
            with open(TARGET, encoding="utf-8") as f:
                same = f.read() == text
        except OSError:
            same = False
        print("up to date" if same else f"stale: run python grammar/make_tables.py")
        return 0 if same else 1
    with open(TARGET, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(TARGET)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
