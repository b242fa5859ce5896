"""The click application: options, calling the library, choosing a writer, exit codes.

The only package that imports click. `main` is the group (app.py); each module
beside it adds one family of commands to it."""
from .app import main
# Each module adds its commands to `main` when it is imported.
from . import calculus, checking, evaluate, homework, session, symbolic, training  # noqa: F401, E402
from . import roots  # noqa: F401, E402
from . import theorems  # noqa: F401, E402

__all__ = ["main"]
