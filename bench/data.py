"""Columnar data: gradcli's files in and out beside hand-written NumPy and PyTorch, one thread each.

    python bench/data.py [N]        (default N = 1,000,000; GRADCLI_BENCH_QUICK=1: 10^5)

The workload is a sigmoid neuron's squared error at every point,
`(sigmoid(w1*x1 + w2*x2 + b) - y)**2` with w1, w2, b bound, and its gradient with
respect to every input per point (x1, x2, y, w1, w2, b): ten float64 columns out
(the three inputs, f and six partials) for three in. Contenders, each in a fresh
process with one thread (OMP/BLAS thread counts 1, which pyarrow also obeys;
PyTorch gets torch.set_num_threads(1)):

- gradcli CSV -> CSV: `gradcli eval ... --points in.csv --output out.csv` (the
  input holds 17-digit numbers, as a program writes them);
- gradcli Parquet -> Parquet: the same with `in.parquet --output out.parquet`, at N
  and at 4N rows (the peak memory must not grow with the file);
- gradcli.compile: the compiled function on a pandas DataFrame in memory (the
  call alone), and the whole job in process (read Parquet, call, write Parquet);
- hand-written NumPy: the derivative written out by hand (the floor for the
  arithmetic), alone and with the same Parquet reading and writing;
- PyTorch: the same Parquet read with pyarrow into tensors, autograd for the
  per-point gradient, written back as Parquet (skipped with a note when torch is
  not installed).

Times are CPU time (user + system) of the process, best of the repeats, which a
busy machine inflates less than wall time (shown beside it). For the gradcli
commands the start-up (the same command on a one-row Parquet file, pyarrow
imported) is subtracted; in-process contenders time their own work. Peak memory
is the process's maximum resident set (bench/peak.py: from wait4, the process
started by a small launcher so that the benchmark's own memory is not counted).
"""
from __future__ import annotations

import os

THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
               "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS",
               "ARROW_IO_THREADS")
for _var in THREAD_VARS:  # before NumPy or pyarrow is imported, here and in every worker
    os.environ[_var] = "1"

import json  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "src")
sys.path.insert(0, SRC)
sys.path.insert(0, HERE)

import peak  # noqa: E402

LOSS = "(sigmoid(w1*x1 + w2*x2 + b) - y)**2"
W1, W2, B = 0.5, -0.3, 0.1
AT = f"w1={W1},w2={W2},b={B}"
KEYS = ["x1", "x2", "y", "f", "df/dw1", "df/dx1", "df/dw2", "df/dx2", "df/db", "df/dy"]
REPEATS = 3


# ---------------------------------------------------------------- workers (own process)

def _cpu():
    return time.process_time()


def _read(path):
    import pyarrow.parquet as pq
    table = pq.ParquetFile(path).read(use_threads=False)  # read_table loads pyarrow.dataset
    return [table.column(n).to_numpy() for n in ("x1", "x2", "y")]


def _write(path, columns):
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.table(dict(zip(KEYS, columns))), path, use_dictionary=False,
                   row_group_size=65536)


def hand_numpy(x1, x2, y):
    import numpy as np
    z = W1 * x1 + W2 * x2 + B
    s = 1.0 / (1.0 + np.exp(-z))
    r = s - y
    f = r * r
    dz = 2.0 * r * s * (1.0 - s)
    return [x1, x2, y, f, dz * x1, dz * W1, dz * x2, dz * W2, dz, -2.0 * r]


def torch_job(x1, x2, y):
    import torch
    torch.set_num_threads(1)
    ins = [torch.from_numpy(c).requires_grad_() for c in (x1, x2, y)]
    # Each point its own weights, so that each gets its own gradient (as --at gives).
    w = [torch.full_like(ins[0], v).requires_grad_() for v in (W1, W2, B)]
    f = (torch.sigmoid(w[0] * ins[0] + w[1] * ins[1] + w[2]) - ins[2]) ** 2
    f.sum().backward()
    g = [t.grad.numpy() for t in (w[0], ins[0], w[1], ins[1], w[2], ins[2])]
    return [x1, x2, y, f.detach().numpy()] + g


def worker(kind, src, dst):
    """One contender's job; prints {"work": CPU seconds of the measured part, ...}."""
    import io

    import numpy as np
    import pandas  # noqa: F401 (pyarrow loads it on the first table: start-up, not work)
    import pyarrow as pa
    import pyarrow.parquet as pq
    warm = io.BytesIO()  # the first write and read set things up once: start-up too
    pq.write_table(pa.table({"a": np.zeros(1)}), warm)
    pq.ParquetFile(io.BytesIO(warm.getvalue())).read()
    out = {}
    if kind == "compiled":
        import pyarrow as pa
        import pyarrow.parquet as pq

        import pandas  # noqa: F401

        import gradcli
        t0 = _cpu()
        frame = pq.ParquetFile(src).read(use_threads=False).to_pandas()
        fn = gradcli.compile(LOSS, w1=W1, w2=W2, b=B)
        t1 = _cpu()
        result = fn(frame)
        t2 = _cpu()
        pq.write_table(pa.Table.from_pandas(result, preserve_index=False), dst,
                       use_dictionary=False, row_group_size=65536)
        t3 = _cpu()
        out = {"work": t3 - t0, "call": t2 - t1, "columns": list(result.columns)}
    elif kind in ("numpy", "torch"):
        job = hand_numpy if kind == "numpy" else torch_job
        if kind == "torch":
            import torch  # noqa: F401 (its import is start-up, not work)
        t0 = _cpu()
        cols = _read(src)
        t1 = _cpu()
        result = job(*cols)
        t2 = _cpu()
        _write(dst, result)
        t3 = _cpu()
        out = {"work": t3 - t0, "call": t2 - t1}
    print(json.dumps(out))


# ---------------------------------------------------------------- the driver

def run_child(cmd, env):
    """(CPU s, wall s, peak RSS MB, stdout) of one fresh process (bench/peak.py)."""
    r = peak.run(cmd, env)
    if r.code:
        raise RuntimeError(f"{' '.join(map(str, cmd[:6]))} ... exit {r.code}: "
                           f"{r.stderr.decode(errors='replace').strip()[-400:]}")
    return r.cpu, r.wall, r.rss_kb / 1024, r.stdout.decode()


def best(cmd, env, repeats=REPEATS):
    runs = [run_child(cmd, env) for _ in range(repeats)]
    cpu = min(r[0] for r in runs)
    wall = min(r[1] for r in runs)
    rss = max(r[2] for r in runs)
    return cpu, wall, rss, runs[-1][3]


def make_data(folder, n):
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    from gradcli import shortest
    from gradcli.columntext import batch_header
    rng = np.random.default_rng(0)
    x1, x2 = rng.normal(size=(2, n))
    y = (rng.random(n) < 0.5).astype(float)
    table = pa.table({"x1": x1, "x2": x2, "y": y})
    paths = {}
    for rows, tag in ((n, "n"), (4 * n, "4n"), (1, "1")):
        path = os.path.join(folder, f"in_{tag}.parquet")
        if rows == 4 * n:
            with pq.ParquetWriter(path, table.schema) as w:
                for k in range(4):
                    w.write_table(table, row_group_size=65536)
        else:
            pq.write_table(table.slice(0, rows), path, row_group_size=65536)
        paths[tag] = path
    csv = os.path.join(folder, "in_n.csv")
    with open(csv, "wb") as fh:
        fh.write(batch_header(["x1", "x2", "y"]).encode())
        for start in range(0, n, 65536):
            part = [c[start:start + 65536] for c in (x1, x2, y)]
            fh.write(shortest.lines(part, ["", ",", ",", "\n"]))
    paths["csv"] = csv
    return paths


def main():
    quick = os.environ.get("GRADCLI_BENCH_QUICK") == "1"
    n = int(sys.argv[1]) if len(sys.argv) > 1 else (100_000 if quick else 1_000_000)
    env = dict(os.environ, PYTHONPATH=os.path.abspath(SRC))
    env.pop("GRADCLI_PROGRESS", None)
    gradcli = [sys.executable, "-m", "gradcli", "eval", LOSS, "--at", AT, "--points"]
    this = [sys.executable, os.path.abspath(__file__), "--worker"]
    lines = []

    def say(text=""):
        print(text, flush=True)
        lines.append(text)

    with tempfile.TemporaryDirectory(prefix="gradcli-data-bench-") as folder:
        paths = make_data(folder, n)

        def out(name):
            path = os.path.join(folder, name)
            if os.path.exists(path):
                os.remove(path)  # a new file each time, as a user's first run writes it
            return path

        rows = {}
        startup = gradcli + [paths["1"], "--output", out("o1.parquet")]
        start_cpu, _, start_rss, _ = best(startup, env)
        say(f"N = {n:,} rows; {LOSS} at {AT}, with its gradient (10 columns out)")
        say(f"gradcli start-up (one-row Parquet -> Parquet, pyarrow loaded): "
            f"{start_cpu * 1e3:.0f} ms CPU, {start_rss:.0f} MB; each gradcli run below has "
            "the start-up of its own round subtracted (median of the rounds)")
        say()
        say("| contender | rows | CPU s (work) | wall s | rows/s | peak RSS MB |")
        say("|---|---:|---:|---:|---:|---:|")

        def row(name, count, work, wall, rss):
            rate = count / work if work > 0 else float("inf")
            rows[name] = (rate, rss)
            say(f"| {name} | {count:,} | {work:.3f} | {wall:.2f} | {rate:,.0f} | {rss:.0f} |")

        def gradcli_row(name, count, src, dst):
            cpus, walls, rss = [], [], 0.0
            for _ in range(REPEATS):  # start-up and run side by side, under the same load
                s_cpu, s_wall, _, _ = run_child(startup, env)
                cpu, wall, peak, _ = run_child(gradcli + [src, "--output", out(dst)], env)
                cpus.append(cpu - s_cpu)
                walls.append(wall - s_wall)
                rss = max(rss, peak)
            row(name, count, sorted(cpus)[len(cpus) // 2], sorted(walls)[len(walls) // 2],
                rss)

        gradcli_row("gradcli CSV -> CSV", n, paths["csv"], "o.csv")
        expected = None
        gradcli_row("gradcli Parquet -> Parquet", n, paths["n"], "o.parquet")
        gradcli_row("gradcli Parquet -> Parquet (4N)", 4 * n, paths["4n"], "o4.parquet")

        import pyarrow.parquet as pq
        expected = pq.read_table(os.path.join(folder, "o.parquet"))

        def worker_row(kind, label):
            results = []
            for _ in range(REPEATS):
                cpu, wall, rss, text = run_child(this + [kind, paths["n"], out(f"{kind}.parquet")],
                                                 env)
                results.append((json.loads(text.strip().splitlines()[-1]), wall, rss))
            work = min(r[0]["work"] for r in results)
            call = min(r[0]["call"] for r in results)
            rss = max(r[2] for r in results)
            got = pq.read_table(os.path.join(folder, f"{kind}.parquet"))
            import numpy as np
            err = max(float(np.max(np.abs(got.column(i).to_numpy() -
                                          expected.column(i).to_numpy())))
                      for i in range(len(KEYS)))
            row(f"{label}: read, compute, write Parquet", n, work,
                min(r[1] for r in results), rss)
            row(f"{label}: compute alone", n, call, float("nan"), rss)
            return err

        errors = {"gradcli.compile": worker_row("compiled", "gradcli.compile")}
        errors["NumPy by hand"] = worker_row("numpy", "NumPy by hand")
        try:
            import importlib.util
            has_torch = importlib.util.find_spec("torch") is not None
        except (ImportError, ValueError):
            has_torch = False
        if has_torch:
            errors["PyTorch"] = worker_row("torch", "PyTorch")
        else:
            say("| PyTorch | skipped: torch is not installed | | | | |")
        say()
        say("Largest difference from gradcli's Parquet output, over all ten columns: " +
            ", ".join(f"{k} {v:.1e}" for k, v in errors.items()))
        say()
        parquet = rows["gradcli Parquet -> Parquet"][0]
        ratios = [("gradcli Parquet -> Parquet / gradcli CSV -> CSV", parquet,
                   rows["gradcli CSV -> CSV"][0]),
                  ("gradcli Parquet -> Parquet / NumPy by hand (read, compute, write)", parquet,
                   rows["NumPy by hand: read, compute, write Parquet"][0]),
                  ("gradcli.compile call / NumPy by hand (compute alone)",
                   rows["gradcli.compile: compute alone"][0],
                   rows["NumPy by hand: compute alone"][0])]
        if has_torch:
            ratios += [("gradcli Parquet -> Parquet / PyTorch (read, compute, write)", parquet,
                        rows["PyTorch: read, compute, write Parquet"][0]),
                       ("gradcli.compile call / PyTorch (compute alone)",
                        rows["gradcli.compile: compute alone"][0],
                        rows["PyTorch: compute alone"][0])]
        say("Ratios of rows/s (above 1: the first is faster):")
        for name, a, b in ratios:
            say(f"- {name}: {a / b:.2f}x")
        say(f"- peak RSS, gradcli Parquet -> Parquet at 4N / at N: "
            f"{rows['gradcli Parquet -> Parquet (4N)'][1]:.0f} MB / "
            f"{rows['gradcli Parquet -> Parquet'][1]:.0f} MB")
    return lines


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(*sys.argv[2:5])
    else:
        main()
