"""A vector answer written with the unit vectors i, j, k, as books print a curl:
`(3y^2z^2 - 1)i + 4xy^2z^3 j + (8xy - 2xyz^4)k`, `-7e^y cos z i - 9e^z cos x j`.

The text is rewritten as the bracket form `[3y^2z^2 - 1, 4xy^2z^3, 8xy - 2xyz^4]` before
it is read, so that each coefficient is read on its own: `cos z i` would otherwise be
cos(z·i). The rewriting is conservative, because a misread answer would be graded as
something the student did not write: it applies only when the question has no variable
named i, j or k, when every term of the top-level sum ends in one of them standing
alone (after a space, a digit or a closing bracket, so that `pi` and `xi` are left
alone), and when each unit appears once. Anything else is left as typed, to be read (or
refused) as before. A plane field's curl is one formula, Q_x - P_y; a book prints it as
the k-component, `(x - y) k`, which is read as its coefficient (k_coefficient).
"""
from __future__ import annotations

_UNITS = "ijk"
_OPEN, _CLOSE = "([{", ")]}"


def bracket_form(text: str, variables) -> str | None:
    """`[a, b, c]` for `a i + b j + c k` (a unit left out is a zero component), else None."""
    parts = _unit_parts(text, variables)
    if parts is None:
        return None
    return "[" + ", ".join(parts.get(u, "0") for u in _UNITS) + "]"


def k_coefficient(text: str, variables) -> str | None:
    """`c` for a plane field's curl written `c k` (`2k`, `(x - y) k`, `0i + 0j + 2k`), as
    books print the scalar curl Q_x - P_y as the k-component of the 3-D curl; else None.
    An i or j term is allowed only with a literal zero coefficient."""
    parts = _unit_parts(text, variables)
    if parts is None or "k" not in parts:
        return None
    if any(parts[u].strip("-() ") != "0" for u in "ij" if u in parts):
        return None
    return parts["k"]


def _unit_parts(text: str, variables) -> dict | None:
    """{unit: its coefficient's text} of `a i + b j + c k`, else None."""
    if any(u in variables for u in _UNITS):
        return None
    terms = _terms(text)
    if not terms:
        return None
    parts = {}
    for sign, term in terms:
        unit, coefficient = _split_unit(term)
        if unit is None or unit in parts:
            return None
        grouped = coefficient if _enclosed(coefficient) else f"({coefficient})"
        parts[unit] = "-" + grouped if sign == "-" else grouped
    return parts


def _terms(text: str) -> list:
    """[(sign, term)] of the sum at bracket depth 0; a sign right after ^, *, / or an
    opening bracket belongs to what follows it (e^-x, 2*-y), not to the sum."""
    out, depth, start, sign = [], 0, 0, "+"
    text = text.strip()
    last = ""
    for n, ch in enumerate(text):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
            if depth < 0:
                return []
        elif ch in "+-" and depth == 0 and last not in ("^", "*", "/", "", "e", "E") \
                and text[:n].strip():
            out.append((sign, text[start:n].strip()))
            sign, start = ch, n + 1
        elif ch in "+-" and depth == 0 and not text[:n].strip():
            sign, start = ch, n + 1
        if not ch.isspace():
            last = ch
    out.append((sign, text[start:].strip()))
    return out if depth == 0 and all(t for _, t in out) else []


def _split_unit(term: str):
    """(unit, coefficient) of a term ending in a lone i, j or k; (None, None) otherwise."""
    if term in _UNITS:
        return term, "1"
    unit, before = term[-1], term[:-1]
    if unit not in _UNITS or not before:
        return None, None
    if not (before[-1].isspace() or before[-1].isdigit() or before[-1] in _CLOSE):
        return None, None
    coefficient = before.rstrip()
    if coefficient.endswith(("*", "·")):
        coefficient = coefficient[:-1].rstrip()
    return (unit, coefficient) if coefficient else (None, None)


def _enclosed(text: str) -> bool:
    """The whole text is one parenthesised group: (a - b), not (a)(b)."""
    if not text.startswith("("):
        return False
    depth = 0
    for n, ch in enumerate(text):
        depth += ch in _OPEN
        depth -= ch in _CLOSE
        if depth == 0:
            return n == len(text) - 1
    return False
