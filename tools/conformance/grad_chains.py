#!/usr/bin/python3
"""Conformance cases for strided-explore's gradient requests, answered by real PyTorch 2.6.

Run by a maintainer, never by the build: drawn by PyTorch 1.13 (which writes the committed
requests again byte for byte), then answered again by PyTorch 2.6, 1.13's answer kept as
"expected_1_13" where it differs (answers.py; generate.py says how to run the 2.6 python). A
gradient's values that differ within check.cpp's tolerance (summed in another order) are no
difference:

    /usr/bin/python3 tools/conformance/grad_chains.py > tests/conformance/grad_chain_cases.jsonl
    python3 tools/conformance/grad_chains.py --reanswer tests/conformance/grad_chain_cases.jsonl

Deterministic (its own seed). Each case is {"id", "request", "expected"}, as generate.py's, run by
tests/conformance/check.cpp through `strided-explore --jsonl`:

    request:  {"grad": {"start": {"shape": [2, 3], "dtype": "float64"}, "ops": [...]}}
    expected: {"shape", "stride", "values"} of x.grad, or {"error": true, "message": ...}

where x = arange(numel).reshape(shape) with requires_grad, y is x after the ops, and backward runs
from (y * w).sum(), w = arange(1, y.numel() + 1) shaped like y (tools/explore/grad_request.h).
The ops are random chains of 1 to 4 mixing the view ops of generate.py's chains (its make_op,
valid and invalid arguments alike), a few more views (clone, flip, mT, swapaxes, movedim,
detach), and sum, mean (over all dims, or a list, with keepdim, and dims out of range or
repeated), exp, log, pow and y * y. An integer leaf is refused by requires_grad.

Two more parts follow, each drawn from its own stream (SEED + 7, SEED + 11) so that the first
400 cases stay as they were:

- complex leaves (complex64, complex128, and float ones for view_as_complex), chains of 1 to 5
  mixing the complex views (H, mH, adjoint, conj, resolve_conj, conj_physical, real, imag,
  view_as_real, view_as_complex, mT) with the ops above, often ended by real, imag or
  view_as_real so that the loss is real. A complex loss is refused by PyTorch 2's backward
  ("grad can be implicitly created only for real scalar outputs"); 1.13 let it through. exp, log
  and pow are not drawn on complex tensors (the library's kernels are real; it refuses them), and
  a chain whose tensor gets PyTorch's negative bit (imag of a conjugated tensor, which the library
  refuses) is left out. A complex gradient's values are [re, im] pairs.
- leaves with size-1 dims (and 0-d ones), where x.grad's strides on those dims follow
  AccumulateGrad's layout contract (torch/csrc/autograd/functions/accumulate_grad.h).
"""

import argparse
import json
import random
import sys

import torch

import answers
import generate as g
from answers import call_of, close, count_1_13, read_cases, with_1_13, write_cases

SEED = 20240620
CASES = 400
COMPLEX_CASES = 300
SIZE1_CASES = 200
rng = random.Random(SEED)
COMPLEX_VIEWS = ["H", "mH", "adjoint", "conj", "conj", "resolve_conj", "conj_physical", "real",
                 "imag", "view_as_real", "view_as_complex", "mT"]
REAL_ENDS = ["real", "imag", "view_as_real"]
DTYPES = [("float64", torch.float64)] * 6 + [("float32", torch.float32)] * 3 + [
    ("int64", torch.int64)]


def chance(p):
    return rng.random() < p


def reduction_op(y, name):
    """sum or mean: over every dim, or a list of dims (sometimes out of range or repeated)."""
    n = y.dim()
    if chance(0.3):
        return {"op": name}
    m = max(n, 1)
    dims = rng.sample(range(-m, m), rng.randint(0, min(m, 2))) if chance(0.85) else []
    if chance(0.1):
        dims.append(rng.choice([m, -m - 1]))  # out of range
    elif dims and chance(0.1):
        dims.append(dims[0] % m)  # the same dim twice
    keepdim = chance(0.4)
    dim = dims[0] if len(dims) == 1 and chance(0.5) else dims
    return {"op": name, "dim": dim, "keepdim": keepdim}


def other_view(y):
    n = y.dim()
    name = rng.choice(["clone", "flip", "mT", "swapaxes", "movedim", "detach"])
    if name == "clone":
        return {"op": "clone"}
    if name == "mT":
        return {"op": "mT"}
    if name == "detach":
        return {"op": "detach"}
    if name == "flip":
        dims = [g.dim_arg(n, chance(0.9)) for _ in range(rng.randint(0, 2))]
        return {"op": "flip", "dims": dims}
    if name == "swapaxes":
        a, b = g.dim_arg(n, chance(0.9)), g.dim_arg(n)
        return {"op": "swapaxes", "axis0": a, "axis1": b}
    s, d = g.dim_arg(n, chance(0.9)), g.dim_arg(n)
    return {"op": "movedim", "source": s, "destination": d}


def make_op(y):
    kind = rng.random()
    if kind < 0.45:
        return g.make_op(y)
    if kind < 0.55:
        return other_view(y)
    name = rng.choice(["sum", "mean", "exp", "log", "pow", "pow", "mul_self"])
    if name in ("sum", "mean"):
        return reduction_op(y, name)
    if name == "exp":
        return {"op": "exp"}
    if name == "log":
        return {"op": "log"}
    if name == "mul_self":
        return {"op": "mul_self"}
    e = rng.choice([2.0, 3.0, 0.5, -1.0, 1.5, 0.0, -0.5, 2.5])
    return {"op": "pow", "exponent": e}


def error(e):
    return {"error": True, "message": str(e).split("\n")[0]}


def differentiable(dtype):
    return dtype.is_floating_point or dtype.is_complex


def values_of(t):
    """The values, a complex tensor's as [re, im] pairs (its conjugate bit resolved)."""
    if not t.is_complex():
        return g.json_values(t)
    parts = g.json_values(torch.view_as_real(t.detach().resolve_conj()))
    return [parts[i:i + 2] for i in range(0, len(parts), 2)]


def grad_answer_of(request):
    """x.grad after backward from (y * w).sum(), y the ops of x, or the error on the way."""
    start = request["grad"]["start"]
    dtype = answers.DTYPES[start["dtype"]]
    try:
        # arange then the dtype: arange has no complex kernel (the values are those of
        # arange(n, dtype=dtype) for every real dtype).
        x = torch.arange(g.numel_of(start["shape"])).to(dtype).reshape(start["shape"])
        y = x.detach().requires_grad_(True) if differentiable(dtype) else x
        leaf = y
        if not differentiable(dtype):
            leaf.requires_grad_(True)  # raises: only floating point tensors can require grad
        for op in request["grad"]["ops"]:
            y = call_of(op)(y)
        w = torch.arange(1, y.numel() + 1).to(y.dtype).reshape(y.shape)
        (y * w).sum().backward()
        gr = leaf.grad
        return {"shape": list(gr.shape), "stride": list(gr.stride()), "values": values_of(gr)}
    except g.TORCH_ERRORS as e:
        return error(e)


def grad_case():
    shape = g.start_shape()
    dname, dtype = rng.choice(DTYPES)
    ops = []
    # The ops draw their arguments from the tensor they apply to, so the chain is built as it
    # runs; an op PyTorch refuses ends it, and an integer leaf ends it after one op.
    y = torch.arange(g.numel_of(shape), dtype=dtype).reshape(shape)
    if dtype.is_floating_point:
        y = y.detach().requires_grad_(True)
    for _ in range(rng.randint(1, 4)):
        op = make_op(y)
        ops.append(op)
        if not dtype.is_floating_point:
            break
        try:
            y = call_of(op)(y)
        except g.TORCH_ERRORS:
            break
    request = {"grad": {"start": {"shape": shape, "dtype": dname}, "ops": ops}}
    return request, grad_answer_of(request)


def complex_case():
    """A chain on a complex leaf (or a float one, for view_as_complex); None if left out."""
    shape = g.start_shape()
    dname = rng.choice(["complex64", "complex128"] * 3 + ["float32", "float64"])
    y = torch.arange(g.numel_of(shape)).to(answers.DTYPES[dname]).reshape(shape)
    y = y.detach().requires_grad_(True)
    ops = []
    for i in range(rng.randint(1, 5)):
        if y.is_complex() and (i >= 2 or chance(0.2)) and chance(0.5):
            op = {"op": rng.choice(REAL_ENDS)}
        elif chance(0.45):
            op = {"op": rng.choice(COMPLEX_VIEWS)}
        else:
            op = make_op(y)
            if y.is_complex() and op["op"] in ("exp", "log", "pow"):
                op = {"op": "mul_self"}  # the library's kernels are real (module docstring)
        ops.append(op)
        try:
            y = call_of(op)(y)
        except g.TORCH_ERRORS:
            break
        if y.is_neg():
            return None  # imag of a conjugated tensor: the library has no negative bit
    request = {"grad": {"start": {"shape": shape, "dtype": dname}, "ops": ops}}
    return request, grad_answer_of(request)


def size1_shape():
    ndim = rng.choice([0, 1, 2, 2, 3, 3, 4])
    shape = [rng.choice([1, 1, 1, 2, 3]) for _ in range(ndim)]
    return shape


def size1_case():
    """A chain of part 1's ops on a leaf with size-1 dims."""
    shape = size1_shape()
    dname = rng.choice(["float64", "float64", "float32", "complex128"])
    y = torch.arange(g.numel_of(shape)).to(answers.DTYPES[dname]).reshape(shape)
    y = y.detach().requires_grad_(True)
    ops = []
    for _ in range(rng.randint(1, 4)):
        op = make_op(y)
        if y.is_complex() and op["op"] in ("exp", "log", "pow"):
            op = {"op": "real"}
        ops.append(op)
        try:
            y = call_of(op)(y)
        except g.TORCH_ERRORS:
            break
    if y.is_complex() and chance(0.8):
        ops.append({"op": "real"})
    request = {"grad": {"start": {"shape": shape, "dtype": dname}, "ops": ops}}
    return request, grad_answer_of(request)


def draw(count, case):
    cases = []
    while len(cases) < count:
        drawn = case()
        if drawn is None or any(s < 0 for s in drawn[1].get("shape", [])):
            continue
        cases.append(drawn)
    return cases


def reanswer(path):
    cases = []
    for c in read_cases(path):
        fresh = grad_answer_of(c["request"])
        single = c["request"]["grad"]["start"]["dtype"] in ("float32", "complex64")
        tolerance = 1e-6 if single else 1e-13
        cases.append(with_1_13(c, fresh, lambda a, b: close(a, b, tolerance)))
    write_cases(cases, sys.stdout)
    count_1_13(cases, path, sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reanswer", metavar="FILE",
                        help="answer FILE's requests again (see answers.py) instead of drawing")
    args = parser.parse_args()
    if args.reanswer:
        reanswer(args.reanswer)
        return
    global rng
    g.rng = rng  # generate.py's helpers (make_op, start_shape, ...) draw from this seed
    out = sys.stdout
    cases = draw(CASES, grad_case)
    # Each later part draws from its own stream, the helpers with it.
    rng = g.rng = random.Random(SEED + 7)
    cases += draw(COMPLEX_CASES, complex_case)
    rng = g.rng = random.Random(SEED + 11)
    cases += draw(SIZE1_CASES, size1_case)
    for case_id, (request, expected) in enumerate(cases):
        out.write(json.dumps({"id": case_id, "request": request, "expected": expected},
                             separators=(",", ":"), allow_nan=False) + "\n")
    errors = sum(1 for _, e in cases if "error" in e)
    print(f"grad_chains: {len(cases)} cases, {errors} refused by PyTorch", file=sys.stderr)


if __name__ == "__main__":
    main()
