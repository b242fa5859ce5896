"""Forms a book prints one way and a keyboard reads another (docs/language.md, amendment 14).

Each is read as the rules read it, and warned with both readings:

- a whole-number power of a variable over a whole number, `x^2/3`, `x^-3/2` (and
  `e^1/2`, `e^-1/2`, as rule 10's `x^1/2`): a power binds tighter than '/', so
  (x^2)/3, where a book may have printed x^(2/3) (the fraction in lowest terms,
  its denominator 2 to 5, as a book's roots are; e^2/3 and π^2/3 are constants'
  powers over a number, as gradcli prints them itself);
- a signed exponent over a number on e or a number, `e^-t/2`: e^(-t)/2, or e^(-t/2);
- an exponent on e or a number followed by a bracket, `e^2(x+1)`, `2^3(x+1)`;
- a power tower glued to letters, `e^x^2y`: e^(x^2)*y, or e^(x^2 y);
- a function's bare argument followed by '/', where the argument or the
  divisor is a number, `sin 1/x`, `sin x/2`: sin(1)/x, or sin(1/x) (a radical's
  argument is amendment 11's: `√3/2`, `√x/2` are not warned).

The builder (build.py) calls `over_number` when it builds a division and
`glued_after_power` when it builds a product; each returns the warning or None.
Nothing here changes a reading.
"""
from __future__ import annotations

import re
from math import gcd

from .chars import SUPERSCRIPT_DIGITS
from .expr import Apply, Name, Num

# What a function's name looks like before a bare argument: sin, sin^2, sin^-1, sin², σ.
_FUNCTION_HEAD = re.compile(r"[^\W\d]\w*(?:\^[-+]?\d+|[⁻¹²³⁴⁵⁶⁷⁸⁹⁰]+|\*\*\d+)?")
# A book's fractional powers have small denominators (x^(2/3), x^(3/4), x^(2/5)); x^3/6 is
# a Taylor term (gcd 3), y^2/9 an ellipse's (a square: 9 is past this), x^3/16 a series'.
_LARGEST_ROOT = 5


def _text(source: str, node) -> str:
    return source[node.span[0]:node.span[1]]


def _open_power(source: str, node, bases: str):
    """(base text, exponent node) when `node` is a power typed with '^' whose exponent is
    not in brackets and ends the power (`e^2`, `x^-3`, `10^x^2`); else None.

    `bases`: "any", or "e or number" (e, or a number literal)."""
    if type(node) is not Apply or node.span is None:
        return None
    if node.op == "exp" and len(node.args) == 1 and source[node.span[0]:node.span[0] + 1] == "e":
        base_text = "e"
    elif node.op == "pow" and node.args[0].span is not None and (
            bases == "any" or type(node.args[0]) is Num):
        base_text = _text(source, node.args[0])
    else:
        return None
    exponent = node.args[-1]
    if exponent.span is None or exponent.span[1] != node.span[1]:
        return None  # (2^3)t: the bracket closes the power
    between = source[node.span[0]:exponent.span[0]]
    if not between.rstrip().endswith("^"):
        return None  # x², e**2: a printed superscript visibly ends, Python's ** is Python's
    if source[exponent.span[0]:exponent.span[0] + 1] in "({[" + SUPERSCRIPT_DIGITS:
        return None  # e^(2)(x+1), e^{-t}/2: the brackets say where the exponent ends
    return base_text, exponent


def _signed(node):
    """The node under a typed sign, and whether there was one."""
    if type(node) is Apply and node.op in ("neg", "pos") and len(node.args) == 1:
        return node.args[0], True
    return node, False


def over_number(source: str, factor, right, rule10: bool) -> str | None:
    """The warning for `factor / right` (factor the last factor of the numerator), or None.

    `rule10`: the unit-power warning (x^1/2) was given already."""
    if right.span is None or factor.span is None \
            or source[factor.span[1]:right.span[0]].strip() != "/" \
            or source[right.span[0]:right.span[0] + 1] in "([{":
        return None  # x^2/(3...): the bracket says what is divided; nothing to warn
    denominator = _text(source, right)
    typed = source[factor.span[0]:right.span[1]]
    power = _open_power(source, factor, "any")
    if power is not None and type(right) is Num and isinstance(right.value, int) \
            and not rule10:
        base, exponent = power
        n = right.value
        if type(exponent) is Num and isinstance(exponent.value, int) and exponent.value \
                and 1 < n <= _LARGEST_ROOT and gcd(exponent.value, n) == 1 \
                and (abs(exponent.value) == 1 or type(factor.args[0]) is Name):
            shown = _text(source, exponent)
            return (f"'{typed}' is read as ({base}^{shown})/{n}: a power binds tighter "
                    f"than '/'; a fractional power is written with brackets, as "
                    f"{base}^({shown}/{n})")
        inner, signed = _signed(exponent)
        if signed and type(inner) is not Num and (base == "e" or type(factor.args[0]) is Num):
            shown = _text(source, exponent)
            return (f"'{typed}' is read as {base}^({shown})/{n}: a power binds tighter than "
                    f"'/'; write {base}^({shown}/{n}) if the whole {shown}/{n} is the "
                    f"exponent")
    bare = _bare_argument(source, factor)
    if bare is not None:
        name, argument = bare
        if type(argument) is Num or type(right) is Num:
            shown = _text(source, argument)
            return (f"'{typed}' is read as {name}({shown})/{denominator}: a function's "
                    f"argument without brackets ends at '/'; write "
                    f"{name}({shown}/{denominator}) if the whole {shown}/{denominator} is "
                    "the argument")
    return None


def _bare_argument(source: str, node):
    """(the function's name as typed, its argument) of a one-argument function applied
    without brackets (`sin 1`, `sin^2 x`); None otherwise. A radical (`√x/2`, `√3/2`) is
    left out: amendment 11 says what it takes, and gradcli prints √x/2 itself."""
    if type(node) is Apply and node.op == "pow" and type(node.args[1]) is Num \
            and node.args[1].span is None:
        node = node.args[0]  # sin^2 x: the power of the function's value
    if type(node) is not Apply or len(node.args) != 1 or node.span is None:
        return None
    argument = node.args[0]
    if argument.span is None or argument.span[1] != node.span[1]:
        return None
    head = source[node.span[0]:argument.span[0]]
    name = head.rstrip()
    if not name or name[-1] in "({[|" or source[argument.span[0]:argument.span[0] + 1] \
            in "({[|":
        return None  # sin(1)/x, sin (1)/x, |x|/2: brackets close the argument
    if not _FUNCTION_HEAD.fullmatch(name):
        return None  # e^x, -x, |x|: no function's name before the argument
    return name, argument


def glued_after_power(source: str, factor, right) -> str | None:
    """The warning for a power on e or a number followed, with nothing between, by a bracket
    (`e^2(x+1)`), or a power tower followed by letters (`e^x^2y`); else None."""
    if factor.span is None or right.span is None or factor.span[1] != right.span[0]:
        return None
    first = source[right.span[0]:right.span[0] + 1]
    glued = _text(source, right)
    if len(glued) > 12:
        glued = glued[:12] + "…"
    typed = source[factor.span[0]:factor.span[1]] + glued
    if first in "([{":
        power = _open_power(source, factor, "e or number")
        if power is None:
            return None
        base, exponent = power
        shown = _text(source, exponent)
        return (f"'{typed}' is read as {base}^{shown}*{glued}: the exponent ends before the "
                f"bracket; write {base}^({shown}{glued}) if the bracket is in the exponent")
    if first.isalpha():
        power = _open_power(source, factor, "any")
        if power is None:
            return None
        base, exponent = power
        inner, _ = _signed(exponent)
        if type(inner) is not Apply or inner.op not in ("pow", "exp") \
                or _open_power(source, inner, "any") is None:
            return None
        shown = _text(source, exponent)
        return (f"'{typed}' is read as {base}^({shown})*{glued}: a tower's exponent ends "
                f"before the glued letters; write {base}^({shown} {glued}) if {glued} is in "
                "the exponent")
    return None


__all__ = ["glued_after_power", "over_number"]
