"""A long fuzzing campaign against every command of the CLI.

    python bench/fuzz.py --minutes 60 [--seed N] [--save]

Two engines take turns: hypothesis (the strategies of tests/fuzzing.py, without
shrinking, so it keeps exploring) and a mutational fuzzer that edits valid
expressions character by character (insertions of operators, brackets,
look-alike and control characters, extreme numbers, deletions, duplications).
Every input is checked against the invariant of tests/fuzzing.py. Failures are
printed and, with --save, appended to tests/fuzz_corpus.txt, which the test
suite replays. Prints how many inputs were tried, per engine and per outcome.
The input being run is first written to a file (--last; its path is printed at
the start), so an input that kills the process itself is not lost.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tests"))

os.environ.setdefault("GRADCLI_FUZZ_SECONDS", "5")  # the time bound of a run
import fuzzing  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SEEDS = [
    "(w*x+b)**2", "-x**2", "2**3**2", "1/2x", "6/2(1+x)", "sigmoid(w*x + b)", "log(x, 2)",
    "atan2(y, x)", "max(x, y, 0)", "z = w*x + b; y = sigmoid(z); loss = (y - t)**2",
    "sqrt(x**2 + y**2)", "exp(-x**2/2)", "softplus(x) - relu(x)", "abs(x)*sign(x)",
    "x**y", "cbrt(x) + log10(x)", "(x+1)(x-1)", "2pi x", "asin(x/2) + acosh(x + 2)",
    "sum([x, y, 1])", "dot([x, 1], [y, 2])", "mean([x, y]) @ 1", "[[1, 2], [3, 4]] @ [x, y]",
]
PIECES = ["+", "-", "*", "/", "**", "^", "@", "(", ")", "[", "]", ",", ";", "\n", "=", " ",
          "x", "y", "pi", "e", "sin(", "log(", "max(", "1e308", "1e-320", "-0.0", "9" * 50,
          "0." + "0" * 30 + "1", "−", "×", "÷", "²", "π", "“", "\\frac{", "}", "\x1b[31m",
          "\x00", "\u202e", "\u200b", "[bold]", "#", "\r\n", ".", "e5", "E-", "__import__",
          "'os'", "x₁", "√", "|", "!", "%"]


def mutate(rng: random.Random, text: str) -> str:
    """One to three random character-level edits."""
    for _ in range(rng.randint(1, 3)):
        i = rng.randint(0, len(text))
        kind = rng.random()
        if kind < 0.4:
            text = text[:i] + rng.choice(PIECES) + text[i:]
        elif kind < 0.6 and text:
            j = min(len(text), i + rng.randint(1, 4))
            text = text[:i] + text[j:]
        elif kind < 0.8 and text:
            j = min(len(text), i + rng.randint(1, 6))
            text = text[:i] + text[i:j] * rng.randint(2, 4) + text[j:]
        elif kind < 0.95:
            j = rng.randint(0, len(text))
            a, b = sorted((i, j))
            text = text[:a] + text[b:] + text[a:b]
        else:  # blow-up: a piece repeated hundreds of times, or calls nested deep
            n = rng.choice([50, 300, 2000, 20000])
            if rng.random() < 0.5 and text:
                j = min(len(text), i + rng.randint(1, 5))
                text = text[:i] + text[i:j] * n + text[j:]
            else:
                f = rng.choice(["sin(", "(", "[", "-(", "exp(", "sqrt(", "max(1,"])
                close = "]" if f == "[" else ")"
                text = f * n + text + close * n
    return text


def bindings(rng: random.Random, text: str) -> list[str]:
    values = fuzzing.EXTREME_NUMBERS + ["1", "2", "-1", "0.5", "pi/4", "[1, 2]", "[[1], [2]]",
                                        "-3", "1/3", "[]", "[1, [2]]", "x", ""]
    return [f"{n}={rng.choice(values)}" for n in fuzzing.names_in(text)]


class Campaign:
    """Counts, failures, and the corpus."""

    def __init__(self, save: bool, last: str):
        self.save = save
        self.last = last
        self.tried = collections.Counter()
        self.codes = collections.Counter()
        self.failures = []
        self.seen = set()
        self.slowest = (0.0, None)

    def one(self, engine: str, args, stdin=None) -> None:
        self.tried[engine] += 1
        # Written before the run: if the process itself dies (a C-level abort), the input
        # that killed it is still on disk.
        with open(self.last, "w", encoding="utf-8") as fh:
            json.dump({"args": list(args), "stdin": stdin if not isinstance(stdin, bytes)
                       else {"hex": stdin.hex()}}, fh)
        start = time.perf_counter()
        try:
            self.codes[fuzzing.check(args, stdin)] += 1
            took = time.perf_counter() - start
            if took > self.slowest[0]:
                self.slowest = (took, args)
        except fuzzing.Failure as exc:
            lines = str(exc).splitlines()
            detail = next((x for x in lines[1:] if x.startswith(("error:", "uncaught", "  File"))),
                          "")
            key = (lines[0][:80], detail[:100])
            self.codes["FAIL"] += 1
            if key not in self.seen:
                self.seen.add(key)
                self.failures.append((args, stdin, str(exc)))
                print(f"\n--- failure ({engine}): {str(exc)[:1500]}", flush=True)
                if self.save:
                    fuzzing.save(args, stdin)

    def run_expression(self, engine, rng, expr, at):
        for name, command in fuzzing.commands().items():
            if not fuzzing.takes_expression(command):
                continue
            formats = fuzzing.formats_of(command) or [None]
            extra = []
            flags = fuzzing.flags_of(command)
            if flags and rng.random() < 0.3:
                extra.append(rng.choice(flags))
            self.one(engine, fuzzing.expression_args(name, expr, at, rng.choice(formats), extra))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--save", action="store_true", help="append failures to the corpus")
    parser.add_argument("--last", default=None, metavar="FILE",
                        help="where the input being run is kept (default: in the temp dir)")
    opts = parser.parse_args()
    seed = opts.seed if opts.seed is not None else int(time.time())
    rng = random.Random(seed)
    last = opts.last or os.path.join(tempfile.gettempdir(), f"gradcli-fuzz-{os.getpid()}.json")
    camp = Campaign(opts.save, last)
    deadline = time.time() + opts.minutes * 60
    print(f"seed {seed}; commands: {', '.join(sorted(fuzzing.commands()))}; "
          f"the input being run is kept in {last}", flush=True)

    strategy = st.one_of(fuzzing.mutated_expression(), fuzzing.extreme_expression(),
                         fuzzing.grammar_text(), st.text(max_size=80),
                         fuzzing.valid_expression())

    @settings(max_examples=2000, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy, st.data())
    def hypothesis_round(expr, data):
        at = data.draw(fuzzing.bindings_for(expr))
        camp.run_expression("hypothesis", rng, expr, at)

    rounds = 0
    last = time.time()
    while time.time() < deadline:
        rounds += 1
        try:
            hypothesis_round()
        except Exception as exc:  # noqa: BLE001 - hypothesis's own complaints end a round only
            print(f"(hypothesis round {rounds} ended early: {type(exc).__name__})", flush=True)
        for _ in range(2000):
            if time.time() >= deadline:
                break
            expr = mutate(rng, rng.choice(SEEDS))
            camp.run_expression("mutation", rng, expr, bindings(rng, expr))
            if rng.random() < 0.05:
                blob = bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
                camp.one("bytes", ["eval", "-f", "-", "--at", "x=1"], blob)
        if time.time() - last > 60:
            last = time.time()
            print(f"[{time.strftime('%H:%M:%S')}] tried {sum(camp.tried.values())} "
                  f"{dict(camp.tried)} codes {dict(camp.codes)} "
                  f"slowest {camp.slowest[0]:.2f} s", flush=True)
    total = sum(camp.tried.values())
    print(f"\ninputs tried: {total} {dict(camp.tried)}")
    print(f"exit codes: {dict(camp.codes)}")
    print(f"distinct failures: {len(camp.failures)}")
    took, args = camp.slowest
    if args:
        shown = [a if len(a) < 80 else a[:60] + f"…({len(a)} chars)" for a in args]
        print(f"slowest run: {took:.2f} s {shown}")
    return 1 if camp.failures else 0


if __name__ == "__main__":
    sys.exit(main())
