"""Write tests/golden/torch_descend.json: a sigmoid neuron trained with PyTorch, for comparison.

Each case trains one neuron, pred = sigmoid(x @ w + b), with mean squared error
and full-batch gradient descent (torch.optim.SGD, float64) and records the loss
of every epoch (measured before that epoch's update) and the final weights.
tests/test_descend.py runs `gradcli descend` on the same data and compares.

PyTorch is needed only to regenerate the file, not by gradcli or its tests:

    pip install torch && python tests/golden/make_torch_descend.py
"""
import json
import os

import torch

torch.set_default_dtype(torch.float64)

HERE = os.path.dirname(os.path.abspath(__file__))


def lcg_data(rows, features, seed):
    """Small reproducible data without NumPy or torch's generator: a linear congruential stream."""
    state = seed

    def uniform():
        nonlocal state
        state = (1103515245 * state + 12345) % 2 ** 31
        return state / 2 ** 31

    xs, ys = [], []
    true_w = [(-1) ** j * (j + 1) * 0.7 for j in range(features)]
    for _ in range(rows):
        x = [round(4 * uniform() - 2, 3) for _ in range(features)]
        z = sum(w * v for w, v in zip(true_w, x)) + 0.3
        ys.append(1.0 if z + 0.8 * (uniform() - 0.5) > 0 else 0.0)
        xs.append(x)
    return xs, ys


CASES = [
    # The classic exercise: two features, three examples, two epochs.
    dict(name="classic", features=[[1.0, 2.0], [2.0, 1.0], [-1.0, -2.0]], labels=[1, 0, 0],
         weights=[0.1, -0.2], bias=0.0, lr=0.1, epochs=2),
    dict(name="classic-2", features=[[1.0, 2.0], [2.0, 3.0], [3.0, 1.0]], labels=[1, 0, 1],
         weights=[0.5, -0.2], bias=0.0, lr=0.1, epochs=3),
    dict(name="twenty-rows", data=(20, 3, 7), weights=[0.0, 0.0, 0.0], bias=0.0, lr=0.5,
         epochs=60),
    dict(name="twenty-rows-fast", data=(20, 3, 7), weights=[0.2, -0.1, 0.05], bias=0.1, lr=2.0,
         epochs=40),
    dict(name="momentum", data=(12, 2, 11), weights=[0.3, 0.3], bias=-0.2, lr=0.3, epochs=30,
         momentum=0.9),
]


def train(case):
    if "data" in case:
        features, labels = lcg_data(*case["data"])
    else:
        features, labels = case["features"], case["labels"]
    X = torch.tensor(features)
    y = torch.tensor([float(v) for v in labels])
    w = torch.tensor(case["weights"], requires_grad=True)
    b = torch.tensor(case["bias"], requires_grad=True)
    opt = torch.optim.SGD([w, b], lr=case["lr"], momentum=case.get("momentum", 0.0))
    losses = []
    for _ in range(case["epochs"]):
        opt.zero_grad()
        loss = ((torch.sigmoid(X @ w + b) - y) ** 2).mean()
        losses.append(loss.item())
        loss.backward()
        opt.step()
    n = X.shape[1]
    columns = [f"x{j + 1}" for j in range(n)] + ["y"]
    terms = " + ".join(f"w{j + 1}*x{j + 1}" for j in range(n))
    return {
        "name": case["name"],
        "expression": f"mean((sigmoid({terms} + b) - y)**2)",
        "columns": columns,
        "rows": [list(map(float, x)) + [float(t)] for x, t in zip(features, labels)],
        "start": {**{f"w{j + 1}": float(v) for j, v in enumerate(case["weights"])},
                  "b": float(case["bias"])},
        "lr": case["lr"],
        "epochs": case["epochs"],
        "momentum": case.get("momentum", 0.0),
        "losses": losses,
        "final": {**{f"w{j + 1}": float(v) for j, v in enumerate(w.detach().tolist())},
                  "b": float(b.item())},
    }


def main():
    out = {"torch_version": torch.__version__, "dtype": "float64",
           "cases": [train(c) for c in CASES]}
    path = os.path.join(HERE, "torch_descend.json")
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    print(f"wrote {path}: {len(out['cases'])} cases")


if __name__ == "__main__":
    main()
