"""gradcli: a command-line gradient calculator on a small reverse-mode autograd engine."""
from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["Value", "evaluate", "differentiate", "compile", "__version__"]


def __getattr__(name):
    # Lazy so that `gradcli --version` and the CLI's fast paths import only what they use.
    if name == "Value":
        from .autodiff.engine import Value
        return Value
    if name in ("evaluate", "differentiate"):
        from . import api
        return getattr(api, name)
    if name == "compile":  # a function of DataFrames: docs/data.md
        from .data.compiled import compile
        return compile
    raise AttributeError(name)
