"""Whole arrays of floats as their shortest round-trip text, the same characters as repr.

Formatting each float with repr costs about half a microsecond, more than reading
and evaluating a row of a batch costs. Here the digits are found with array
arithmetic instead: each value is multiplied exactly by a power of ten (as a
pair of doubles), the 17-digit integer and its remainder are split off, and a
binary search over the number of digits finds the fewest that still read back
as the same double, which is what repr prints. Values this cannot settle
exactly (zero, nan and infinity, exponents outside repr's positional range,
ties and near-ties of the rounding) are formatted by repr itself, once per
distinct value.

``lines(columns, fragments, point_zero, nan_texts) -> bytes``
    Delimited or JSON-like lines: row i is fragments[0], columns[0][i] as text,
    fragments[1], ..., columns[-1][i], fragments[-1]. `point_zero[c]` keeps repr's
    ".0" on whole numbers of column c (JSON keeps it, CSV drops it);
    `nan_texts[c]` maps "nan", "inf", "-inf" to the text that column prints.
"""
from __future__ import annotations

import numpy as np

WIDTH = 24  # the longest repr of a double: -1.2345678901234567e-308
BLOCK = 8192  # values per step, so that the temporaries stay in the cache

_POW10 = np.array([10.0 ** k for k in range(23)])  # exact doubles up to 10^22
_IPOW10 = np.array([10 ** k for k in range(18)], dtype=np.int64)
_SPLIT = 134217729.0  # 2^27 + 1: Dekker's split of a double into two halves
_POW10_HI = (_POW10 * _SPLIT) - ((_POW10 * _SPLIT) - _POW10)
_POW10_LO = _POW10 - _POW10_HI
# Four ASCII digits of every number below 10^4.
_DIGITS4 = (48 + np.arange(10_000)[:, None] // np.array([1000, 100, 10, 1]) % 10).astype(
    np.uint8)
# A margin far above the rounding error of the remainders (about 1e-14) and far
# below the distances that decide the digits: inside it, repr decides.
_TOL = 1e-7


def _exact_product(a, j):
    """a * 10^j exactly, as hi + lo (Dekker's product; 10^j is exact for j <= 22)."""
    p, p_hi, p_lo = _POW10[j], _POW10_HI[j], _POW10_LO[j]
    hi = a * p
    c = a * _SPLIT
    a_hi = c - (c - a)
    a_lo = a - a_hi
    lo = ((a_hi * p_hi - hi) + a_hi * p_lo + a_lo * p_hi) + a_lo * p_lo
    return hi, lo


def _digits(a):
    """For positive finite a: (C, E, p, settled). C is the shortest round-trip digit
    string of a as a 17-digit integer (p digits, then zeros), E the decimal exponent
    of its first digit; `settled` is False where repr has to decide."""
    n = a.size
    settled = (a >= 1e-4) & (a < 1e16)  # repr writes these without an exponent
    a = np.where(settled, a, 1.0)
    e = np.floor(np.log10(a)).astype(np.int64)
    np.clip(e, -4, 15, out=e)
    hi, lo = _exact_product(a, 16 - e)
    # log10 can be one off beside a power of ten: move e so that 10^16 <= a*10^(16-e) < 10^17.
    low = (hi < 1e16) | ((hi == 1e16) & (lo < 0))
    high = (hi > 1e17) | ((hi == 1e17) & (lo >= 0))
    fix = low | high
    if fix.any():
        e = e - low + high
        settled &= (e >= -4) & (e <= 15)
        np.clip(e, -4, 15, out=e)
        idx = np.flatnonzero(fix)
        hi[idx], lo[idx] = _exact_product(a[idx], 16 - e[idx])
    # x = hi + lo = X + phi, X an integer of 17 digits and 0 <= phi < 1.
    f = np.floor(hi)
    r = (hi - f) + lo
    g = np.floor(r)
    x_int = f.astype(np.int64) + g.astype(np.int64)
    phi = r - g
    # Half the gap to each neighbouring double, in the same units as x (exact: a power of two
    # times an exact power of ten).
    mant, ex = np.frexp(a)
    above = np.ldexp(_POW10[16 - e], ex - 54)
    # A whole number prints all its digits (1200.0, 4.0): no search, and no question of
    # which neighbour is nearer.
    whole = (a == np.floor(a)) & settled
    # Below a power of two the gap is half as wide, and the nearest short decimal may fall
    # outside it while a farther one above does not: repr decides those.
    settled &= (mant != 0.5) | whole

    # Split X in two halves that doubles hold exactly, so the search below runs in doubles.
    x_hi, x_lo = np.divmod(x_int, 10 ** 8)
    x_hi, x_lo = x_hi.astype(float), x_lo.astype(float)

    def candidate(q, at=slice(None)):
        """X[at] + phi[at] rounded to a multiple of 10^q: (X mod 10^q as two halves of 8 digits,
        whether it rounds up, whether it reads back as a, whether that was too close to
        call). Half to even is a tie, which repr decides. The remainders are integers
        below 2^53 and the differences near the gap are small, so the doubles that decide
        are exact."""
        x_hi_, x_lo_, phi_, above_ = x_hi[at], x_lo[at], phi[at], above[at]
        if isinstance(q, int) and 1 <= q <= 8:  # one q for all: the same steps, fewer
            unit = _POW10[q]
            rem_lo = x_lo_ - np.floor(x_lo_ / unit) * unit
            tie = rem_lo == unit * 0.5
            up = (rem_lo > unit * 0.5) | (tie & (phi_ > 0))
            d = np.where(up, unit - rem_lo, -rem_lo) - phi_
            ok = (d <= above_) & (d >= -above_)
            unsure = (tie & (phi_ < _TOL)) | (np.abs(d - above_) < _TOL) | \
                (np.abs(d + above_) < _TOL)
            return None, rem_lo, up, ok, unsure
        wide = q > 8
        unit_lo = np.where(wide, 0.0, _POW10[np.minimum(q, 8)])
        unit_hi = np.where(wide, _POW10[np.maximum(q - 8, 0)], 0.0)
        upper, lower = np.where(wide, unit_hi, 1.0), np.where(wide, 1.0, unit_lo)
        # floor() of a quotient of such integers by a power of ten is exact.
        rem_hi = np.where(wide, x_hi_ - np.floor(x_hi_ / upper) * upper, 0.0)
        rem_lo = np.where(wide, x_lo_, x_lo_ - np.floor(x_lo_ / lower) * lower)
        half_hi, half_lo = unit_hi * 0.5, unit_lo * 0.5
        tie = (rem_hi == half_hi) & (rem_lo == half_lo)
        up = (rem_hi > half_hi) | ((rem_hi == half_hi) & (rem_lo > half_lo)) | (tie & (phi_ > 0))
        unsure = tie & (phi_ < _TOL)
        last = q == 0  # unit 1: phi_ alone decides
        up |= last & (phi_ > 0.5)
        unsure |= last & (np.abs(phi_ - 0.5) < _TOL)
        d = (np.where(up, unit_hi - rem_hi, -rem_hi) * 1e8
             + np.where(up, unit_lo - rem_lo, -rem_lo)) - phi_  # candidate - x
        ok = (d <= above_) & (d >= -above_)
        unsure |= (np.abs(d - above_) < _TOL) | (np.abs(d + above_) < _TOL)
        return rem_hi, rem_lo, up, ok, unsure

    # Fewer digits read back only if more do, so search q (the zeros at the end). Most
    # values of a computation need 16 or 17 digits: try 16 and 15 on all of them first.
    good = np.where(whole, 16 - e, 0)   # q = 0, seventeen digits, always reads back
    bad = np.where(whole, 17 - e, 17)
    first = {}  # q: (rem, up) of the checks on every value, kept for the digits below
    for q in (1, 2):
        open_ = bad - good > 1
        _, rem_lo, up, ok, unsure = candidate(q)
        first[q] = rem_lo, up
        settled &= ~(unsure & open_)
        good[open_ & ok] = q
        bad[open_ & ~ok] = q
    at = np.flatnonzero(bad - good > 1)
    lo, hi = good[at], bad[at]
    while at.size:
        mid = (lo + hi) // 2
        _, _, _, ok, unsure = candidate(mid, at)
        settled[at[unsure]] = False
        lo, hi = np.where(ok, mid, lo), np.where(ok, hi, mid)
        done = hi - lo <= 1
        good[at[done]] = lo[done]
        at, lo, hi = at[~done], lo[~done], hi[~done]
    # The digits: X rounded at the q found. q = 1 and 2 were worked out above for every
    # value; q = 0 rounds phi; the few shorter ones are worked out again.
    rem = np.zeros(n, dtype=np.int64)
    up = phi > 0.5
    settled &= ~((good == 0) & (np.abs(phi - 0.5) < _TOL))
    for q in (1, 2):
        rem = np.where(good == q, first[q][0].astype(np.int64), rem)
        up = np.where(good == q, first[q][1], up)
    at = np.flatnonzero((good > 2) & ~whole)  # a whole number's remainder is 0: no carry
    if at.size:
        rem_hi, rem_lo, up_at, _, unsure = candidate(good[at], at)
        settled[at[unsure]] = False
        rem[at] = rem_hi.astype(np.int64) * 10 ** 8 + rem_lo.astype(np.int64)
        up[at] = up_at
    c = x_int - rem + np.where(up, _IPOW10[good], 0)
    # A carry to 10^17 is the one-digit power of ten above.
    carry = c == 10 ** 17
    c[carry] = 10 ** 16
    e = e + carry
    p = np.where(carry, 1, 17 - good)
    settled &= e <= 15
    return c, e, p, settled


# A value's slots in a line, in order: its sign, "0.000" (below 1), the digits before
# the point, the point, the digits after it. Each value fills them all and keeps the
# characters that its text shows; a value left to repr writes its text from _INT on.
# The digits come as five 4-byte words ("000" and 17 digits), so every slot of words
# starts at a multiple of 4 and is written a word at a time.
_SIGN, _LEAD, _INT, _POINT, _FRAC = 0, 1, 8, 28, 32
SLOTS = 52
_DIGITS4_WORDS = _DIGITS4.view(np.uint32).ravel()


def _keep_table(point_zero):
    """Which slots a value keeps, by (sign, exponent + 5, digits): one row of SLOTS bytes."""
    table = np.zeros((2, 21, 18, SLOTS), dtype=bool)
    for s in (0, 1):
        for e in range(-5, 16):
            for p in range(1, 18):
                row = table[s, e + 5, p]
                row[_SIGN] = s
                if e < 0:  # 0.0012: "0." and -e-1 zeros, then the digits
                    row[_LEAD:_LEAD + 1 - e] = True
                    row[_FRAC + 3:_FRAC + 3 + p] = True
                    continue
                row[_INT + 3:_INT + 3 + e + 1] = True
                after = max(p, e + 2) if point_zero else p  # 28.0 keeps a zero digit
                if after > e + 1:
                    row[_POINT] = True
                    row[_FRAC + 3 + e + 1:_FRAC + 3 + after] = True
    return table.reshape(-1, SLOTS).view(np.uint32)


_KEEP = {}


def _template() -> np.ndarray:
    """The constant characters of a value's slots."""
    row = np.zeros(SLOTS, dtype=np.uint8)
    row[_SIGN] = ord("-")
    row[_LEAD:_LEAD + 5] = np.frombuffer(b"0.000", dtype=np.uint8)
    row[_POINT] = ord(".")
    return row


def _fill(words, keep, neg, c, e, p, point_zero):
    """Write each value's digits into its slots (`words`, SLOTS // 4 uint32 a row, the
    constant characters already there) and which characters it keeps (`keep`, alike)."""
    top, bottom = np.divmod(c, 10 ** 8)
    first, rest = np.divmod(top, 10 ** 8)
    digits = np.empty((c.size, 5), dtype=np.uint32)
    digits[:, 0] = _DIGITS4_WORDS[first]
    digits[:, 1], digits[:, 2] = (_DIGITS4_WORDS[g] for g in np.divmod(rest, 10 ** 4))
    digits[:, 3], digits[:, 4] = (_DIGITS4_WORDS[g] for g in np.divmod(bottom, 10 ** 4))
    words[:, _INT // 4:_INT // 4 + 5] = digits
    words[:, _FRAC // 4:_FRAC // 4 + 5] = digits
    if point_zero not in _KEEP:
        _KEEP[point_zero] = _keep_table(point_zero)
    key = (neg * 21 + np.clip(e, -5, 15) + 5) * 18 + np.clip(p, 1, 17)
    keep[:] = np.take(_KEEP[point_zero], key, axis=0)


def repr_text(v: float, point_zero: bool, nan_text: dict) -> str:
    """A number's text in a column: repr, without a whole number's ".0" unless
    `point_zero`, and nan/inf as `nan_text` maps them."""
    t = repr(v)
    if t in nan_text:
        return nan_text[t]
    return t[:-2] if not point_zero and t.endswith(".0") else t


def _by_repr(values, point_zero, nan_text):
    """Characters and lengths of each value's repr (for what the arithmetic leaves)."""
    # Distinct bit patterns, so that -0.0 and 0.0 stay apart.
    unique, inverse = np.unique(values.view(np.int64), return_inverse=True)
    chars = np.zeros((unique.size, WIDTH), dtype=np.uint8)
    lengths = np.empty(unique.size, dtype=np.int64)
    for i, v in enumerate(unique.view(np.float64).tolist()):
        t = repr_text(v, point_zero, nan_text)
        chars[i, :len(t)] = np.frombuffer(t.encode("ascii"), dtype=np.uint8)
        lengths[i] = len(t)
    inverse = inverse.ravel()
    return chars[inverse], lengths[inverse]


def _column(words, keep, values, point_zero, nan_text):
    """Fill one column's slots (SLOTS // 4 columns of `words` and `keep`) with `values`."""
    words.view(np.uint8)[:, _POINT] = ord(".")  # a repr text of the block before wrote over it
    a = np.abs(values)
    neg = np.signbit(values)
    finite = np.isfinite(a) & (a > 0)
    c, e, p, settled = _digits(np.where(finite, a, 1.0))
    settled &= finite
    _fill(words, keep, neg, c, e, p, point_zero)
    rest = np.flatnonzero(~settled)
    if rest.size:
        chars, length = _by_repr(values[rest], point_zero, nan_text)
        row_chars = words.view(np.uint8)
        row_keep = keep.view(bool)
        row_keep[rest] = False
        row_chars[rest, _INT:_INT + WIDTH] = chars
        row_keep[rest, _INT:_INT + WIDTH] = np.arange(WIDTH)[None, :] < length[:, None]


def lines(columns, fragments, point_zero=None, nan_texts=None) -> bytes:
    """Row i of `columns` as one line of text between `fragments` (see the module doc)."""
    k = len(columns)
    n = len(columns[0]) if k else 0
    point_zero = point_zero or [False] * k
    nan_texts = nan_texts or [{}] * k
    # One row of the block: each fragment padded to whole words, then a column's slots.
    parts = [np.frombuffer(f.encode(), dtype=np.uint8) for f in fragments]
    padded = [-(-len(f) // 4) * 4 for f in parts]
    width = sum(padded) + k * SLOTS
    row_chars = np.zeros(width, dtype=np.uint8)
    row_keep = np.zeros(width, dtype=bool)
    starts, at = [], 0
    for c, f in enumerate(parts):
        row_chars[at:at + len(f)] = f
        row_keep[at:at + len(f)] = True
        at += padded[c]
        if c < k:
            starts.append(at // 4)
            row_chars[at:at + SLOTS] = _template()
            at += SLOTS
    m = min(n, BLOCK)
    chars = np.empty((m, width), dtype=np.uint8)
    keep = np.empty((m, width), dtype=bool)
    chars[:] = row_chars
    keep[:] = row_keep
    words, keep_words = chars.view(np.uint32), keep.view(np.uint32)
    out = []
    for start in range(0, n, BLOCK):
        stop = min(n, start + BLOCK)
        rows = stop - start
        for c in range(k):
            w = slice(starts[c], starts[c] + SLOTS // 4)
            values = np.ascontiguousarray(columns[c][start:stop], dtype=float)
            _column(words[:rows, w], keep_words[:rows, w], values, point_zero[c],
                    nan_texts[c] or {})
        out.append(np.compress(keep[:rows].ravel(), chars[:rows].ravel()).tobytes())
    return b"".join(out)
