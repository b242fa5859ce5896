"""What only the command-line process does to the interpreter: pause the garbage collector.

A command builds one graph of up to millions of small objects with no cycles, then
exits; the collector's repeated full scans would make a 100,000-term sum several
times slower than linear. The pause is the command's own business: library calls
(`gradcli.evaluate` in someone's threaded program) never switch the collector off.
cli/app.py (GradcliCommand.invoke) and launch.py (the fast path) run each command inside
`gc_paused()`; bench/ measures the library with the collector on.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def gc_paused():
    """Pause the cyclic garbage collector while a graph is built.

    A large expression allocates millions of small objects and no cycles; the
    collector's repeated full scans made a 100,000-term sum several times
    slower than linear. Reference counting still frees everything.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            _settle()
            gc.enable()


# Objects allocated during a pause beyond which _settle moves them on.
_SETTLE_AFTER = 100_000


def _settle() -> None:
    """Move what a long pause allocated to the oldest generation, without scanning it.

    All of it (a graph, its AST: no cycles) is still in the youngest generation,
    so the first collection after the pause would scan it all, and the next two
    generations again: as long as building it took. freeze() then unfreeze()
    splices every generation into the oldest in constant time, where only the
    rare full collections look. Skipped when the program has frozen objects of its
    own, which unfreeze() would release.
    """
    if gc.get_count()[0] > _SETTLE_AFTER and gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


