"""Write tests/golden/torch_vectors.json: PyTorch (float64) values and gradients of vector expressions.

Each case is a gradcli expression, the same computation written with torch,
and the point. Run it where PyTorch is installed (it is not a dependency of
gradcli or of its tests):

    python tests/golden/make_torch_golden.py

Cases with a "seed" use backward(gradient=seed); cases marked "jacobian" use
torch.autograd.functional.jacobian (shape: result shape + input shape).
"""
import json
from pathlib import Path

import torch

torch.set_default_dtype(torch.float64)
F = torch.nn.functional

CASES = [
    # PyTorch's introductory example: gradients of sum(x*w) are w and x.
    ("intro_dot", "sum(x*w)", {"x": [1, 2, 3], "w": [0.5, 1, 1.5]},
     lambda x, w: (x * w).sum()),
    ("dot_exp", "dot(a, b)*sum(exp(a))", {"a": [0.1, -0.4, 0.7], "b": [2, 1, -1]},
     lambda a, b: torch.dot(a, b) * torch.exp(a).sum()),
    ("mse_linear", "mean((A @ v - t)**2)",
     {"A": [[1, 2, 0.5], [-1, 0.3, 2]], "v": [0.2, -0.1, 0.4], "t": [1, -1]},
     lambda A, v, t: ((A @ v - t) ** 2).mean()),
    ("sigmoid_log", "sum(sigmoid(x)*log(y))", {"x": [-2, 0.5, 3], "y": [0.5, 2, 4]},
     lambda x, y: (torch.sigmoid(x) * torch.log(y)).sum()),
    ("relu_abs", "sum(relu(x) + abs(x)*x)", {"x": [-1.5, 0.25, 2]},
     lambda x: (torch.relu(x) + torch.abs(x) * x).sum()),
    ("tanh_layer", "mean(tanh(W @ x + b))",
     {"W": [[0.5, -1], [2, 0.1], [-0.3, 0.8]], "x": [1.5, -0.5], "b": [0.1, 0.2, -0.1]},
     lambda W, x, b: torch.tanh(W @ x + b).mean()),
    ("vec_matrix", "sum((x @ M)**2)", {"x": [1, -2], "M": [[1, 2, 3], [0.5, -1, 0.25]]},
     lambda x, M: ((x @ M) ** 2).sum()),
    ("broadcast_rows", "sum(A*B + B**2)", {"A": [[1, 2, 3], [4, 5, 6]], "B": [0.5, -1, 2]},
     lambda A, B: (A * B + B ** 2).sum()),
    ("scalar_times_vector", "sum(c*x) + c**2", {"c": 1.5, "x": [1, 2, 3]},
     lambda c, x: (c * x).sum() + c ** 2),
    ("max_tie", "sum(max(x, y))", {"x": [1, 2, 3], "y": [3, 2, 1]},
     lambda x, y: torch.maximum(x, y).sum()),
    ("sqrt_ratio", "sum(sqrt(x)/(1 + x**2))", {"x": [0.5, 1, 4]},
     lambda x: (torch.sqrt(x) / (1 + x ** 2)).sum()),
    ("softplus_atan2_pow", "sum(softplus(x)*y) + sum(atan2(y, x)) + sum(x**y)",
     {"x": [0.5, 1.5, 3], "y": [-1, 0.5, 2]},
     lambda x, y: (F.softplus(x) * y).sum() + torch.atan2(y, x).sum() + (x ** y).sum()),
    ("matmul_matrices", "sum(sin(A @ B))", {"A": [[1, 2], [3, 4]], "B": [[0.5, -1, 0], [1, 0.25, 2]]},
     lambda A, B: torch.sin(A @ B).sum()),
    ("log_base", "sum(log(x, b))", {"x": [2, 8, 10], "b": [2, 2, 3]},
     lambda x, b: (torch.log(x) / torch.log(b)).sum()),
    ("mean_matrix", "mean(A**3) - sum(cos(A))", {"A": [[1, -2], [0.5, 3]]},
     lambda A: (A ** 3).mean() - torch.cos(A).sum()),
    ("literal_with_variables", "sum([x, 2*x, x**2] * w)", {"x": 3, "w": [1, 2, 3]},
     lambda x, w: (torch.stack([x, 2 * x, x ** 2]) * w).sum()),
]

SEEDED = [
    ("seed_square", "x**2*w", {"x": [1, 2, 3], "w": [0.5, 1, 1.5]}, [1, 0.5, -2],
     lambda x, w: x ** 2 * w),
    ("seed_matrix", "A @ x", {"A": [[1, 2], [3, 4], [5, 6]], "x": [1, -1]}, [1, 2, 3],
     lambda A, x: A @ x),
    ("seed_outer", "exp(u)*[[1], [2]]", {"u": [0.1, 0.2, 0.3]}, [[1, 0, 1], [0, 1, 0]],
     lambda u: torch.exp(u) * torch.tensor([[1.0], [2.0]])),
]

JACOBIAN = [
    ("jacobian_sin", "A @ sin(x)", {"A": [[1, 2, 0], [0, 1, -1]], "x": [0.1, 0.5, 1.0]},
     lambda A, x: A @ torch.sin(x)),
    ("jacobian_square", "x**2", {"x": [1, 2, 3]}, lambda x: x ** 2),
]


def tensors(at):
    return {k: torch.tensor(v, dtype=torch.float64, requires_grad=True) for k, v in at.items()}


def listed(t):
    return t.detach().tolist()


def main():
    out = []
    for name, expr, at, fn in CASES:
        ts = tensors(at)
        y = fn(*ts.values())
        y.backward()
        out.append({"name": name, "expression": expr, "at": at, "value": listed(y),
                    "gradient": {k: listed(t.grad) for k, t in ts.items()}})
    for name, expr, at, seed, fn in SEEDED:
        ts = tensors(at)
        y = fn(*ts.values())
        y.backward(gradient=torch.tensor(seed, dtype=torch.float64))
        out.append({"name": name, "expression": expr, "at": at, "seed": seed,
                    "value": listed(y), "gradient": {k: listed(t.grad) for k, t in ts.items()}})
    for name, expr, at, fn in JACOBIAN:
        ts = tensors(at)
        y = fn(*ts.values())
        jac = torch.autograd.functional.jacobian(fn, tuple(ts.values()))
        out.append({"name": name, "expression": expr, "at": at, "value": listed(y),
                    "jacobian": {k: listed(j) for k, j in zip(ts, jac)}})
    path = Path(__file__).with_name("torch_vectors.json")
    path.write_text(json.dumps({"torch": torch.__version__, "dtype": "float64", "cases": out},
                               indent=1) + "\n")
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()
