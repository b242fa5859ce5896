"""Keep SymPy's physical units out of a gradcli command: they cost 0.14 s and are never used.

Every `sympy.simplify` that gets far enough runs `from sympy.physics.units import
Quantity` to ask whether the expression holds a physical quantity. That import
loads all of sympy.physics (the SI system, its prefixes and constants), about
0.14 s, a sixth of a textbook `check` or `analyze`. gradcli never makes a
Quantity, so the answer is always no.

`install()` (called by the console entry point only, never on `import gradcli`)
puts a stand-in module under that name whose `Quantity` is a SymPy class nothing
is an instance of. Asked for any other name (`from sympy.physics.units import
meter`), it loads the real package in its place. It is not a package itself, so
`import sympy.physics.units.systems` fails while it stands in; the console
process runs only gradcli, which imports neither.
"""
from __future__ import annotations

import importlib
import sys
import types

_NAME = "sympy.physics.units"


class _StandIn(types.ModuleType):
    """sympy.physics.units until something other than simplify's Quantity check asks."""

    def __getattr__(self, attr):
        if attr == "Quantity":
            from sympy import Expr

            class Quantity(Expr):
                """No expression gradcli builds holds one."""

            self.Quantity = Quantity
            return Quantity
        if attr.startswith("__"):  # no __path__: `from ... import Quantity` is a plain getattr
            raise AttributeError(attr)
        if sys.modules.get(_NAME) is self:
            del sys.modules[_NAME]
        return getattr(importlib.import_module(_NAME), attr)


def install() -> None:
    if _NAME not in sys.modules:
        sys.modules[_NAME] = _StandIn(_NAME)
