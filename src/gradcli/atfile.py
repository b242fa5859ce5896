"""`--at @FILE` and `--at @-`: bindings read from a file or stdin, not the command line.

A program with hundreds of thousands of inputs cannot bind them on a command
line: the kernel's limit on the arguments of one command stops near 400,000
bindings. A bindings file holds the same `name=value` pairs as `--at`,
separated by commas or newlines (a newline inside brackets belongs to the
vector it is in); blank lines and lines starting with `#` are skipped. The
pairs merge with the other `--at` options and are checked by the same rules
(inputs.parse_bindings): a name bound twice, a bad value and so on are the
same errors, naming the binding.
"""
from __future__ import annotations


from . import limits
from .errors import UsageError


def read_items(spec: str) -> list[str]:
    """The `name=value` items of the bindings file named by `spec` ('@FILE', or '@-' for stdin)."""
    path = spec[1:].strip()
    if not path:
        raise UsageError("--at @ needs a file name: --at @bindings.txt, or --at @- for stdin")
    label = "stdin" if path == "-" else path
    try:
        data = limits.read_capped(path, label)
    except OSError as exc:
        raise UsageError(f"--at {spec}: cannot read {label}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(f"--at {spec}: {label} is not UTF-8 text: byte "
                         f"0x{data[exc.start]:02x} at offset {exc.start} cannot be read") \
            from None
    return split(text)


def split(text: str) -> list[str]:
    """The pieces between commas and newlines outside brackets, stripped, without comment
    lines."""
    lines = text.splitlines()
    if "[" not in text and "(" not in text:  # the common file: numbers only, split in C
        return [item.strip() for line in lines if not line.lstrip().startswith("#")
                for item in line.split(",") if item.strip()]
    out, depth, current = [], 0, []
    for line in lines:
        if depth == 0 and line.lstrip().startswith("#"):
            continue
        for ch in line:
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            if ch == "," and depth == 0:
                out.append("".join(current).strip())
                current = []
            else:
                current.append(ch)
        if depth == 0:
            out.append("".join(current).strip())
            current = []
        else:
            current.append(" ")  # a vector over several lines
    out.append("".join(current).strip())
    return [item for item in out if item]
