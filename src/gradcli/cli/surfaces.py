"""`tangent` on a surface: a level surface F(x, y, z) = k, or z = f(x, y) with --normal."""
from __future__ import annotations

from ..errors import UsageError
from ..output.writers import write_warned


def tangent_surface(text, at, estimate, fmt, precision):
    if estimate:
        raise UsageError("--estimate is the linear approximation of z = f(x, y); a surface's "
                         "normal line has none: leave --estimate out")
    if not at:
        raise UsageError("the tangent plane is at a point of the surface: give it with --at",
                         hint="for example --at x=1,y=2,z=3")
    from ..tasks.mvt import exact_point
    from ..tasks.surface import surface
    write_warned("surface", surface(text, exact_point(at)), fmt, precision)
