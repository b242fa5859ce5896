"""Batch throughput: a sigmoid neuron's squared error and its gradient over many points.

    python bench/batch.py [N]        (default N = 1,000,000; GRADCLI_BENCH_QUICK=1: 10^5)

Part 1, points in memory: the loss sum((sigmoid(w1*x1 + w2*x2 + b) - y)**2) and
its gradient with respect to w1, w2, b and, per point, x1 and x2, computed by
gradcli's engine on arrays (one pass through the graph), by the same derivative
written by hand in NumPy (the floor), and by PyTorch eager on the CPU where it
is installed. Also the per-point batch path (`data/evaluate.evaluate_arrays`: every
point's own loss and gradient). Prints CPU times and ratios to hand NumPy.

Part 2, CSV to result: the same points in a CSV file of 17-digit numbers, through
the `eval --points` machinery: read only, read and evaluate, and the whole command
(`gradcli eval ... --points FILE -o csv` and `-o json`, output to /dev/null), beside
the row-by-row CSV writer (repr per value) that the command used before.

Every contender runs in its own process, on one thread: the BLAS and OpenMP thread
counts are set to 1 before NumPy loads (NumPy's element-wise loops use one thread
anyway; its dot products would use every core) and PyTorch gets
torch.set_num_threads(1). Times are CPU time, best of several; the peak memory is the
process's maximum resident set (from wait4), and for part 1 also what the measured
calls added to the process once its data was made.
"""
from __future__ import annotations

import os

THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
               "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")
for _var in THREAD_VARS:  # before NumPy is imported, here and in every worker
    os.environ[_var] = "1"

import json  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "src")
sys.path.insert(0, SRC)
sys.path.insert(0, HERE)

import peak  # noqa: E402

LOSS = "sum((sigmoid(w1*x1 + w2*x2 + b) - y)**2)"
POINT_LOSS = "(sigmoid(w1*x1 + w2*x2 + b) - y)**2"
W1, W2, B = 0.5, -0.3, 0.1
AT = f"w1={W1},w2={W2},b={B}"


def data(n):
    rng = np.random.default_rng(0)
    x1, x2 = rng.normal(size=(2, n))
    y = (rng.random(n) < 0.5).astype(float)
    return x1, x2, y


def hand_numpy(x1, x2, y):
    z = W1 * x1 + W2 * x2 + B
    s = 1.0 / (1.0 + np.exp(-z))
    r = s - y
    loss = float(r @ r)
    gz = 2.0 * r * s * (1.0 - s)  # d loss/dz per point
    return loss, {"w1": float(gz @ x1), "w2": float(gz @ x2), "b": float(gz.sum()),
                  "x1": gz * W1, "x2": gz * W2}


def rss_kb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


# ---------------------------------------------------------------- workers (child processes)

def in_memory_worker(name, n, repeat):
    """One contender of part 1: best CPU time of `repeat` runs, checked against NumPy."""
    x1, x2, y = data(n)
    loss_np, g_np = hand_numpy(x1, x2, y)
    extra = {}
    if name == "numpy":
        def fn():
            return hand_numpy(x1, x2, y)
    elif name == "gradcli":
        from gradcli.api import evaluate
        from gradcli.language.parser import parse
        program = parse(LOSS)
        wrt = ["w1", "w2", "b", "x1", "x2"]

        def fn():
            r = evaluate(LOSS, dict(x1=x1, x2=x2, y=y, w1=W1, w2=W2, b=B), wrt=wrt,
                         program=program)
            return r.value, r.gradient
    elif name == "torch":
        import torch
        torch.set_num_threads(1)
        extra = {"version": torch.__version__, "threads": torch.get_num_threads()}

        def fn():
            tx1 = torch.tensor(x1, requires_grad=True)
            tx2 = torch.tensor(x2, requires_grad=True)
            ty = torch.tensor(y)
            w = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (W1, W2, B)]
            loss = ((torch.sigmoid(w[0] * tx1 + w[1] * tx2 + w[2]) - ty) ** 2).sum()
            loss.backward()
            grads = {k: t.grad.numpy() for k, t in zip(("w1", "w2", "b"), w)}
            grads.update(x1=tx1.grad.numpy(), x2=tx2.grad.numpy())
            return float(loss.detach()), grads
    elif name == "per-point":
        from gradcli.data.evaluate import evaluate_arrays
        from gradcli.language.parser import parse
        program = parse(POINT_LOSS)

        def fn():
            r = evaluate_arrays(program, {"x1": x1, "x2": x2, "y": y},
                                {"w1": W1, "w2": W2, "b": B})
            return float(r.value.sum()), {"x1": r.gradient["x1"], "x2": r.gradient["x2"],
                                          "w1": float(r.gradient["w1"].sum())}
    else:
        raise SystemExit(f"unknown contender {name}")
    fn()  # warm-up
    before = rss_kb()
    best = None
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        loss, grads = fn()
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        best = (wall, cpu) if best is None or cpu < best[1] else best
    assert abs(loss - loss_np) <= 1e-9 * abs(loss_np), (name, loss, loss_np)
    for k, v in grads.items():
        assert np.allclose(v, g_np[k], rtol=1e-9, atol=1e-12), (name, k)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"wall": best[0], "cpu": best[1], "added_kb": max(0, peak - before),
                      **extra}))


def csv_worker(stage, path):
    """One stage of part 2 over the file at `path`; prints the rows it went through."""
    from gradcli.columntext import batch_delimited
    from gradcli.data.sources import read_points
    from gradcli.output import batchtext
    from gradcli.tasks import batch
    rows = 0
    if stage == "read":
        for chunk in read_points(path):
            rows += chunk.n
    elif stage == "evaluate":
        program = batch.points_program(POINT_LOSS, path, {"w1": W1, "w2": W2, "b": B})
        for chunk, _ in batch.run(program, path, {"w1": W1, "w2": W2, "b": B}):
            rows += chunk.n
    elif stage == "row-by-row":
        program = batch.points_program(POINT_LOSS, path, {"w1": W1, "w2": W2, "b": B})
        job = batch.run(program, path, {"w1": W1, "w2": W2, "b": B})
        with open(os.devnull, "w") as sink:
            for chunk, result in job:
                sink.write(batch_delimited(batchtext.batch_table(job, chunk, result)))
                rows += chunk.n
    print(json.dumps({"rows": rows}))


# ---------------------------------------------------------------- the parent

def measure(cmd, stdout=subprocess.PIPE):
    """(wall s, CPU s of the child, its peak resident set in KB, its stdout), from
    bench/peak.py."""
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = peak.run(cmd, env, stdout=stdout, stderr=None, text=True)
    if r.code not in (0,):
        raise RuntimeError(f"{cmd} exited {r.code}")
    return r.wall, r.cpu, r.rss_kb, r.stdout if stdout == subprocess.PIPE else ""


def worker(*args):
    return [sys.executable, os.path.abspath(__file__), "--worker", *map(str, args)]


def part1(n, repeat):
    print(f"sigmoid neuron, squared error, {n:,} points in memory (CPU time, best of {repeat}; "
          "each contender in its own process)")
    threads = ", ".join(f"{v}=1" for v in THREAD_VARS[:3])
    rows = []
    for name, label in (("numpy", "hand-written NumPy (floor)"),
                        ("gradcli", "gradcli engine on arrays"),
                        ("torch", "PyTorch eager CPU"),
                        ("per-point", "gradcli per-point batch (every point's own gradient)")):
        try:
            _, _, peak, out = measure(worker("memory", name, n, repeat))
        except RuntimeError:
            if name == "torch":
                print("  (PyTorch is not installed, or failed: its row is skipped)")
                continue
            raise
        r = json.loads(out)
        if name == "torch":
            label = f"PyTorch {r['version']} eager CPU, {r['threads']} thread"
        rows.append((label, r, peak))
    floor = rows[0][1]["cpu"]
    print(f"  threads: 1 for every contender (NumPy/BLAS: {threads}; PyTorch: "
          "torch.set_num_threads(1))")
    print(f"  {'':<55} {'CPU':>9}   {'CPU ratio':>11}   {'added':>8}   {'peak RSS':>8}")
    for label, r, peak in rows:
        print(f"  {label:<55} {r['cpu'] * 1000:6.1f} ms   {r['cpu'] / floor:5.2f}x NumPy   "
              f"{r['added_kb'] / 1024:5.0f} MB   {peak / 1024:5.0f} MB")
    return {label: r["cpu"] for label, r, _ in rows}


def part2(n, repeat):
    x1, x2, y = data(n)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "points.csv")
        with open(path, "w") as f:
            f.write("x1,x2,y\n")
            np.savetxt(f, np.column_stack([x1, x2, y]), delimiter=",", fmt="%.17g")
        size = os.path.getsize(path)
        cli = [sys.executable, "-m", "gradcli", "eval", POINT_LOSS, "--points", path,
               "--at", AT, "-o"]
        stages = [("read", "read only (the points reader)", worker("csv", "read", path)),
                  ("evaluate", "read + evaluate (batch.run)", worker("csv", "evaluate", path)),
                  ("csv", "gradcli eval --points FILE -o csv", cli + ["csv"]),
                  ("json", "gradcli eval --points FILE -o json", cli + ["json"]),
                  ("row-by-row", "read + evaluate + the previous row-by-row CSV writer",
                   worker("csv", "row-by-row", path))]
        best = {}
        for _ in range(repeat):  # rounds of every stage in turn: a busy moment hits all
            for key, _, cmd in stages:
                with open(os.devnull, "w") as sink:
                    wall, cpu, peak, _ = measure(cmd, stdout=sink)
                if key not in best or cpu < best[key][1]:
                    best[key] = (wall, cpu, peak)
    print(f"CSV to result, {n:,} rows, {size / 1e6:.0f} MB of 17-digit numbers; 10 numbers "
          f"a row out (CPU time of the whole process, best of {repeat}; one thread):")
    print(f"  {'':<54} {'CPU':>7}   {'rows per CPU s':>14}   {'peak RSS':>8}")
    for key, label, _ in stages:
        wall, cpu, peak = best[key]
        print(f"  {label:<54} {cpu:5.2f} s   {n / cpu:14,.0f}   {peak / 1024:5.0f} MB")
    return best


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        if sys.argv[2] == "memory":
            return in_memory_worker(sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
        return csv_worker(sys.argv[3], sys.argv[4])
    quick = bool(os.environ.get("GRADCLI_BENCH_QUICK"))
    n = int(sys.argv[1]) if len(sys.argv) > 1 else (100_000 if quick else 1_000_000)
    part1(n, 3 if quick else 7)
    part2(n, 1 if quick else 3)


if __name__ == "__main__":
    main()
