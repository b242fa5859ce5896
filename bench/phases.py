"""Where the time and memory of a large `eval` go, phase by phase.

For the graph-size shapes of run.py (`wide`, `deep`) at each size: CPU time per
operation of parse, lower (AST -> Value graph, the forward values computed on
the way), backward, and read_as + JSON; the engine alone (build = forward, and
backward, as run.py's `gradcli Value` row); `gradcli eval -f FILE -o json` end to
end as a fresh process with its peak RSS; and, with tracemalloc, the bytes per
operation the AST and the graph hold and what lowering needs above them at its
peak. Each measurement is its own process. Prints Markdown; asserts nothing.

    python bench/phases.py [--sizes 100000,1000000]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(BENCH), "src")
sys.path.insert(0, BENCH)

import peak  # noqa: E402
from run import bench_env, build_values, deep_text, wide_text  # noqa: E402


def text_phases(path: str) -> dict:
    """Seconds of CPU time per phase of the text path, in this process."""
    sys.path.insert(0, SRC)
    from gradcli.process import gc_paused
    from gradcli.autodiff.lower import lower
    from gradcli.tasks.evaluation import EvalResult
    from gradcli.language.parser import parse
    from gradcli.language.printer import read_as
    from gradcli.output import formats
    clock, t = time.process_time, {}
    with gc_paused():  # as the command runs them
        c = clock()
        with open(path, encoding="utf-8") as f:
            text = f.read()
        program = parse(text)
        t["parse"] = clock() - c
        c = clock()
        graph = lower(program, {"x": 0.3})
        t["lower"] = clock() - c
        c = clock()
        graph.output.backward()
        t["backward"] = clock() - c
        c = clock()
        result = EvalResult(expression=text, read_as=read_as(program), at={"x": 0.3},
                            value=graph.output.data, gradient={"x": graph.inputs["x"].grad},
                            inputs=["x"], graph=graph)
        formats.dumps(formats.eval_record(result))
        t["write"] = clock() - c
    return t


def engine_phases(shape: str, n: int) -> dict:
    sys.path.insert(0, SRC)
    from gradcli import Value
    clock = time.process_time
    x = Value(0.3)
    c = clock()
    out = build_values(x, shape, n)
    c1 = clock()
    out.backward()
    return {"engine_build": c1 - c, "engine_backward": clock() - c1}


def memory(path: str) -> dict:
    """Bytes held by the AST and the graph, and lowering's peak above the AST (tracemalloc)."""
    import tracemalloc
    sys.path.insert(0, SRC)
    from gradcli.process import gc_paused
    from gradcli.autodiff.lower import lower
    from gradcli.language.parser import parse
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with gc_paused():
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        program = parse(text)
        ast, parse_peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        graph = lower(program, {"x": 0.3})
        held, lower_peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        graph.output.backward()
        backward_peak = tracemalloc.get_traced_memory()[1]
    return {"ast": ast - base, "parse_peak": parse_peak - base, "graph": held - ast,
            "lower_peak": lower_peak - ast, "backward_peak": backward_peak - held}


def cli(path: str, env) -> tuple[float, int]:
    """(CPU seconds, peak RSS bytes) of `gradcli eval -f path --at x=0.3 -o json`."""
    r = peak.run([sys.executable, "-m", "gradcli", "eval", "-f", path, "--at", "x=0.3",
                  "-o", "json"], env, stdout=subprocess.DEVNULL, cwd=tempfile.gettempdir())
    if r.code:
        error = r.stderr.decode(errors="replace").strip().splitlines()
        raise RuntimeError(f"exit {r.code}: {error[0] if error else ''}")
    return r.cpu, r.rss_kb * 1024  # ru_maxrss is in KiB


def child(kind: str, *args) -> dict:
    argv = [sys.executable, os.path.abspath(__file__), "--child", kind, *map(str, args)]
    out = subprocess.run(argv, env=bench_env(), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def ratios(values: list) -> str:
    return ", ".join(f"{b / a:.2f}×" for a, b in zip(values, values[1:])) or "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        if kind == "text":
            print(json.dumps(text_phases(rest[0])))
        elif kind == "engine":
            print(json.dumps(engine_phases(rest[0], int(rest[1]))))
        else:
            print(json.dumps(memory(rest[0])))
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    env = bench_env()
    rows, mem_rows, growth = [], [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for shape in ("wide", "deep"):
            for n in sizes:
                path = os.path.join(tmp, f"{shape}{n}.txt")
                with open(path, "w", encoding="utf-8") as f:
                    f.write((wide_text(n) if shape == "wide" else deep_text(n)) + "\n")
                try:
                    cli(path, env)  # warm-up: byte code and the parse-table cache
                except RuntimeError as exc:  # a limit of the parser, say: reported, not fatal
                    rows.append(f"| {shape} | {n:,} | fails: {str(exc)[:150]} |")
                    continue
                t = child("text", path)
                e = child("engine", shape, n)
                cpu, rss = cli(path, env)
                if n == sizes[0]:  # bytes per operation hardly change with n; tracemalloc is slow
                    m = child("memory", path)
                    mem_rows.append(f"| {shape} | {n:,} | {m['ast'] / n:.0f} | "
                                    f"{m['parse_peak'] / n:.0f} | {m['graph'] / n:.0f} | "
                                    f"{m['lower_peak'] / n:.0f} | {m['backward_peak'] / n:.0f} |")
                per = {k: v / n * 1e6 for k, v in {**t, **e}.items()}
                per["cli"] = cpu / n * 1e6
                per["rss"] = rss / n
                for key, v in per.items():
                    growth.setdefault((shape, key), []).append(v)
                rows.append(f"| {shape} | {n:,} | {per['parse']:.2f} | "
                            f"{per['lower']:.2f} | {per['backward']:.2f} | {per['write']:.2f} | "
                            f"{per['engine_build']:.2f} | {per['engine_backward']:.2f} | "
                            f"{per['cli']:.2f} ({cpu:.1f} s) | {per['rss']:.0f} "
                            f"({rss / 2 ** 20:.0f} MB) |")
                print(f"  phases {shape} {n} done", file=sys.stderr, flush=True)
    print("CPU time per operation (µs) of each phase, each measurement a fresh process:")
    print("text path = `parse`, `lower` (AST -> Value graph; the forward values are computed")
    print("as it builds), `backward`, `write` (read_as + JSON); engine alone = `build`")
    print("(forward) and `backward` on `gradcli.Value`; CLI = `gradcli eval -f FILE --at x=0.3")
    print("-o json` as a process (start-up included), with its peak RSS per operation.")
    print()
    print("| shape | n | parse | lower | backward | write | engine build | engine backward "
          "| CLI end to end | CLI peak RSS, bytes/op |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))
    print()
    print(f"Memory held at n = {sizes[0]:,}, bytes per operation (tracemalloc): the AST after parse, parse's peak, "
          "the Value graph, lowering's peak above the AST (graph + its working set), "
          "backward's peak above both:")
    print()
    print("| shape | n | AST | parse peak | graph | lower peak | backward peak |")
    print("|---|---|---:|---:|---:|---:|---:|")
    print("\n".join(mem_rows))
    if len(sizes) > 1:
        print()
        print("Per-operation growth from one size to the next (1.00× = linear):")
        print()
        for shape in ("wide", "deep"):
            print(f"- {shape}: " + "; ".join(
                f"{key} {ratios(growth[(shape, key)])}"
                for key in ("parse", "lower", "backward", "write", "engine_build",
                            "engine_backward", "cli", "rss")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
