"""Where a line of text may break on a narrow screen: between words of prose first, then
before an operator of a formula, never inside a formula or a bracket while a looser
break will do.

A formula typed in a sentence (`f'(x) = 3x^2 - 1`, `(f(2) - f(-2))/(2 - (-2))`)
reads wrong when a wrap leaves `(2 -` at the end of one line and `(-2))` on the
next, so every space gets a rank, and a line that must break breaks at the
loosest-ranked space it holds:

  0  a space between words at bracket depth 0 that touches no operator;
  1  a space before an operator at depth 0 (`... x^2` / `- 1`, as a book breaks);
  2  a space after an operator at depth 0;
  3k, 3k+1, 3k+2  the same inside k brackets (a `code span` counts as one).

Standard library only: messages on stderr (streams.fit) and table cells (cells.py)
break by the same rule.
"""
from __future__ import annotations

import re

_OPERATORS = frozenset("=+-−*/^<>≤≥≈≠·×→∈U|:")
_TOKEN = re.compile(r"\S+|\s+")
# A function written without brackets takes the next word: `ln x + 1` is one formula.
_FUNCTIONS = frozenset("sin cos tan sec csc cot ln log exp sinh cosh tanh asin acos atan "
                       "arcsin arccos arctan".split())


def _is_operator(word: str) -> bool:
    return word in _OPERATORS or word in ("<=", ">=", "!=", "==", "->", "=>", ":=")


def _ranked_tokens(line: str, columns: bool = False) -> list:
    """[start, end, rank, group]: each run of spaces with its rank and the length of the
    innermost bracket group it is in (the line's for none), each word with rank None;
    `columns`: a run of 3 or more spaces at depth 0 separates columns, the best break."""
    tokens, opened, closes, code = [], [], {}, None
    for m in _TOKEN.finditer(line):
        word = m.group()
        if word[0].isspace():
            tokens.append([m.start(), m.end(), len(opened), opened[-1] if opened else None])
            continue
        tokens.append([m.start(), m.end(), None, None])
        for k, ch in enumerate(word, m.start()):
            if ch == "`" and code is None:  # a code span is kept whole like a bracket
                code = len(opened)
                opened.append(k)
            elif ch == "`":
                del opened[code + 1:]
                closes[opened.pop()] = k
                code = None
            elif ch in "([{":
                opened.append(k)
            elif ch in ")]}" and len(opened) > (0 if code is None else code + 1):
                closes[opened.pop()] = k
    words = [line[t[0]:t[1]] for t in tokens]
    for i, (s, e, depth, group) in enumerate(tokens):
        if depth is None:
            continue
        before = words[i - 1] if i > 0 else ""
        after = words[i + 1] if i + 1 < len(words) else ""
        if _is_operator(after):
            kind = 1
        elif (_is_operator(before) or before[-1:] in "=+−*/^(" or after[:1] in "=*/^)"
              or before in _FUNCTIONS or _FUNCTIONS.intersection(before.split("^")[:1])):
            kind = 2
        else:
            kind = 0
        tokens[i][2] = -1 if columns and depth == 0 and e - s >= 3 else 3 * depth + kind
        tokens[i][3] = len(line) if group is None else closes.get(group, len(line)) - group
    return tokens


def break_spans(line: str, width: int, indent: int = 2, columns: bool = False) -> list:
    """The (start, end) offsets into one `line` (no newline) of the lines it wraps into at
    `width` columns, continuation lines to be printed after `indent` spaces. A word longer
    than a line stays whole (the caller may fold it). `columns`: the line is a row of
    columns 3 spaces apart, best broken between them.

    Of the spaces a line may break at, the loosest rank wins; between equals, the one in
    the longer bracket group (split `(a*b + c*d - e)`, not the `(1 + x)` inside it), then
    the last. A break that would leave less than a quarter of a line (`=` alone) is
    taken only when there is no other."""
    if width <= 0 or len(line) <= width:
        return [(0, len(line))]
    indent = _hang(indent, width)
    tokens = _ranked_tokens(line, columns)
    spans, start, room = [], 0, width
    first = 0  # index of the first token on the current line
    i = 0
    while i < len(tokens):
        s, e, rank, _ = tokens[i]
        if rank is None and e - start > room and i > first:
            gaps = [j for j in range(first + 1, i) if tokens[j][2] is not None]
            full = [j for j in gaps if len(line[start:tokens[j][0]].strip()) >= width // 4]
            if gaps:
                cut = min(full or gaps, key=lambda j: (tokens[j][2], -tokens[j][3], -j))
                spans.append((start, tokens[cut][0]))
                first = cut + 1
                start = tokens[first][0]
                room = width - indent
                i = first
                continue
        i += 1
    spans.append((start, len(line)))
    return spans


def _hang(indent: int, width: int) -> int:
    """A continuation's indent, unless it would leave less than half the line."""
    return indent if indent <= width // 2 else min(2, width // 4)


def break_line(line: str, width: int, indent: int = 2) -> list:
    """`line` as the lines it wraps into (break_spans), continuation lines indented."""
    spans = break_spans(line, width, indent)
    pad = " " * _hang(indent, width)
    return [line[s:e].rstrip() if k == 0 else pad + line[s:e].rstrip()
            for k, (s, e) in enumerate(spans)]


def longest_word(text: str) -> int:
    """The narrowest a line of `text` can be made without cutting a word."""
    return max((len(w) for w in text.split()), default=0)


__all__ = ["break_spans", "break_line", "longest_word"]
