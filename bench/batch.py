"""Batch throughput: a sigmoid neuron's squared error and its gradient over many points.

    python bench/batch.py [N]        (default N = 1,000,000)

Part 1, points in memory: the loss sum((sigmoid(w1*x1 + w2*x2 + b) - y)**2) and
its gradient with respect to w1, w2, b and, per point, x1 and x2, computed by
gradcli's engine on arrays (one pass through the graph), by the same derivative
written by hand in NumPy (the floor), and by PyTorch eager on the CPU where it
is installed. Also the per-point batch path (`arrays.evaluate_arrays`: every
point's own loss and gradient). Prints times and ratios to hand NumPy.

Part 2, CSV to result: the same points written to a CSV file, read back in
chunks by `eval --points` machinery; rows per second to arrays, and to CSV text.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from gradcli import arrays, batch
from gradcli.output import formats  # noqa: E402
from gradcli.api import evaluate  # noqa: E402
from gradcli.language.parser import parse  # noqa: E402

LOSS = "sum((sigmoid(w1*x1 + w2*x2 + b) - y)**2)"
POINT_LOSS = "(sigmoid(w1*x1 + w2*x2 + b) - y)**2"
W1, W2, B = 0.5, -0.3, 0.1


def best(fn, repeat=5):
    """(best wall time, best CPU time of this process, result): CPU time is the fairer
    measure on a shared machine, and every contender here runs on one thread."""
    walls, cpus = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return (min(walls), min(cpus)), out


def hand_numpy(x1, x2, y):
    z = W1 * x1 + W2 * x2 + B
    s = 1.0 / (1.0 + np.exp(-z))
    r = s - y
    loss = float(r @ r)
    gz = 2.0 * r * s * (1.0 - s)  # d loss/dz per point
    return loss, {"w1": float(gz @ x1), "w2": float(gz @ x2), "b": float(gz.sum()),
                  "x1": gz * W1, "x2": gz * W2}


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    rng = np.random.default_rng(0)
    x1, x2 = rng.normal(size=(2, n))
    y = (rng.random(n) < 0.5).astype(float)
    program = parse(LOSS)
    wrt = ["w1", "w2", "b", "x1", "x2"]
    print(f"sigmoid neuron, squared error, {n:,} points in memory (best of 5)")

    t_np, (loss_np, g_np) = best(lambda: hand_numpy(x1, x2, y))

    def gradcli_run():
        return evaluate(LOSS, dict(x1=x1, x2=x2, y=y, w1=W1, w2=W2, b=B), wrt=wrt,
                        program=program)
    t_gc, r = best(gradcli_run)
    assert abs(r.value - loss_np) <= 1e-9 * abs(loss_np)
    for k in wrt:
        assert np.allclose(r.gradient[k], g_np[k], rtol=1e-9, atol=1e-12), k

    rows = [("hand-written NumPy (floor)", t_np), ("gradcli engine on arrays", t_gc)]
    try:
        import torch
        torch.set_num_threads(1)

        def torch_run():
            tx1 = torch.tensor(x1, requires_grad=True)
            tx2 = torch.tensor(x2, requires_grad=True)
            ty = torch.tensor(y)
            w = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (W1, W2, B)]
            loss = ((torch.sigmoid(w[0] * tx1 + w[1] * tx2 + w[2]) - ty) ** 2).sum()
            loss.backward()
            return float(loss.detach()), [t.grad for t in w] + [tx1.grad, tx2.grad]
        t_torch, (loss_t, _) = best(torch_run)
        assert abs(loss_t - loss_np) <= 1e-9 * abs(loss_np)
        rows.append((f"PyTorch {torch.__version__} eager CPU, 1 thread", t_torch))
    except ImportError:
        print("(PyTorch is not installed: its row is skipped)")

    per_point = parse(POINT_LOSS)
    t_pp, _ = best(lambda: arrays.evaluate_arrays(per_point, {"x1": x1, "x2": x2, "y": y},
                                                 {"w1": W1, "w2": W2, "b": B}), repeat=3)
    rows.append(("gradcli per-point batch (every point's own gradient)", t_pp))
    print(f"  {'':<55} {'wall':>9}      {'CPU':>9}     CPU ratio")
    for label, (wall, cpu) in rows:
        print(f"  {label:<55} {wall * 1000:7.1f} ms   {cpu * 1000:7.1f} ms   "
              f"{cpu / t_np[1]:5.2f}x NumPy")

    # Part 2: CSV file -> result.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "points.csv")
        with open(path, "w") as f:
            f.write("x1,x2,y\n")
            np.savetxt(f, np.column_stack([x1, x2, y]), delimiter=",", fmt="%.17g")
        size = os.path.getsize(path)
        def to_arrays():
            job = batch.run(per_point, path, {"w1": W1, "w2": W2, "b": B})
            return sum(chunk.n for chunk, _ in job)

        def to_csv():
            job = batch.run(per_point, path, {"w1": W1, "w2": W2, "b": B})
            with open(os.devnull, "w") as sink:
                for chunk, result in job:
                    sink.write(formats.batch_delimited(formats.batch_table(job, chunk, result)))

        (w_read, c_read), count = best(to_arrays, repeat=1)
        (w_csv, c_csv), _ = best(to_csv, repeat=1)
    print(f"CSV to result, {count:,} rows, {size / 1e6:.0f} MB of 17-digit numbers "
          "(wall / CPU, rows per CPU second):")
    print(f"  read + evaluate to arrays     {w_read:6.2f} s / {c_read:6.2f} s   "
          f"{count / c_read:10,.0f} rows/s")
    print(f"  read + evaluate + write CSV   {w_csv:6.2f} s / {c_csv:6.2f} s   "
          f"{count / c_csv:10,.0f} rows/s")


if __name__ == "__main__":
    main()
