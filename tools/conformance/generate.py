#!/usr/bin/python3
"""Conformance cases for `strided-explore --jsonl`, answered by real PyTorch.

Run by a maintainer, never by the build (the build and the tests need neither torch nor numpy).
The committed requests were drawn by PyTorch 1.13 (Debian 12's python3-torch) and are the test set;
PyTorch 2.6 (Debian 13's, the library's reference) answers them again, keeping 1.13's answer where
it differs (answers.py describes "expected_1_13"):

    python3 tools/conformance/generate.py --reanswer tests/conformance/cases.jsonl > cases.jsonl
    python3 tools/conformance/generate.py --reanswer tests/conformance/engine_cases.jsonl \
        > engine_cases.jsonl

with the python3 of the PyTorch 2 root (tools/book pytorch2-root; tools/pytorch/record.py's
root_command runs it). Drawing anew, with 1.13, writes the committed requests again byte for byte:

    /usr/bin/python3 tools/conformance/generate.py > tests/conformance/cases.jsonl
    /usr/bin/python3 tools/conformance/generate.py --engine 1200 \
        > tests/conformance/engine_cases.jsonl

(2.6 would draw other requests: an op's arguments depend on the answers before it.) It is
deterministic: a fixed seed, and the same torch gives byte-identical output. --seed and --cases
draw a different or larger set, for a one-off wider search (the committed file uses the
defaults). Each output line is one case:

    {"id": 17, "request": <a --jsonl request>, "expected": <torch's answer in the protocol's form>,
     "expected_1_13": <PyTorch 1.13's answer, only where it differs>}

Requests are view chains (a start tensor, arange(numel) of a dtype reshaped, then 1 to 4 ops drawn
from every op of the protocol, with valid and invalid arguments) and broadcast_shapes requests.
The answer has, per op, shape, stride, storage_offset, is_contiguous, shares_storage (with the
start tensor), shares_prev (with the step before), numel and values (row-major, when numel <= 256),
or {"error": true, "message": ...} after which the chain stops. tests/conformance/check.cpp feeds
the requests to the explorer and compares every field (for errors, only that both raise).

With --engine N it writes N engine cases instead: unary (neg, x + 1, clone, empty_like,
contiguous), binary (add, sub, mul, div over every dtype pair) and matmul requests, whose operands
take every layout that decides an output's strides (permuted, sliced, expanded, size-1 dims with
odd strides, overlapping windows, 0-d, empty). Their answer is the engine form: shape, stride,
storage_offset, dtype, is_contiguous, numel and values, or an error. The explorer's test
explore.engine_requests (tools/explore/engine_requests_test.cpp) runs them.

PyTorch 1.13 accepts a few calls that produce a negative size (expand(-2, 0) of a 1x1 tensor,
as_strided((0, -1), ...)); the library refuses them, so cases whose answer holds a negative size
are left out and drawn again.
"""

import argparse
import json
import random
import sys

import torch

from answers import DTYPES as DTYPES_BY_NAME
from answers import (TORCH_ERRORS, call_of, count_1_13, numel_of, read_cases, start_tensor,
                      with_1_13, write_cases)

SEED = 20240611
CHAIN_CASES = 3000
BROADCAST_CASES = 300
MAX_VALUES = 256

DTYPES = [("float32", torch.float32)] * 6 + [
    ("int64", torch.int64), ("int32", torch.int32), ("float64", torch.float64),
    ("float16", torch.float16), ("bfloat16", torch.bfloat16), ("bool", torch.bool)]

rng = random.Random(SEED)


def chance(p):
    return rng.random() < p


# ---- start tensors ----------------------------------------------------------------------------

def start_shape():
    ndim = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 3, 4])
    while True:
        shape = [rng.choice([1, 2, 2, 3, 3, 4, 5]) for _ in range(ndim)]
        if ndim and chance(0.12):
            shape[rng.randrange(ndim)] = 0
        numel = 1
        for s in shape:
            numel *= s
        if numel <= 60:
            return shape


# ---- arguments for each op, valid most of the time ------------------------------------------

def dim_arg(n, valid=True, extra=0):
    """A dim for a tensor of n dims (extra = 1 for unsqueeze's n + 1 positions)."""
    m = max(n + extra, 1)
    if valid:
        return rng.randrange(-m, m)
    return rng.choice([m, m + 1, -m - 1, -m - 3])


def size_or_none(size):
    if chance(0.25):
        return None
    return rng.randint(-size - 2, size + 2)


def shape_for(numel, valid):
    """A requested shape for view/reshape: a factorisation of numel, maybe with one -1."""
    if not valid:
        kind = rng.randrange(4)
        if kind == 0:
            return [numel + 1] if numel != 0 else [1, 2]
        if kind == 1:
            return [-1, -1]
        if kind == 2:
            return [-2, max(numel, 1)]
        return [max(numel, 1) * 2, -1] if numel else [0, -1]
    if numel == 0:
        dims = [rng.choice([0, 1, 2, 3]) for _ in range(rng.randint(1, 3))]
        dims[rng.randrange(len(dims))] = 0
        return dims
    dims = []
    rest = numel
    for _ in range(rng.randint(0, 3)):
        divisors = [d for d in range(1, rest + 1) if rest % d == 0]
        d = rng.choice(divisors)
        dims.append(d)
        rest //= d
    dims.append(rest)
    if chance(0.3):
        dims.insert(rng.randrange(len(dims) + 1), 1)
    rng.shuffle(dims)
    if chance(0.4):
        dims[rng.randrange(len(dims))] = -1
    return dims


def expand_target(shape, valid):
    target = []
    for s in shape:
        if s == 1:
            target.append(rng.choice([1, 2, 3, 0, -1]))
        else:
            target.append(rng.choice([s, s, -1]))
    lead = rng.choice([0, 0, 1, 1, 2])
    target = [rng.choice([1, 2, 3, 0]) for _ in range(lead)] + target
    if not valid and target:
        i = rng.randrange(len(target))
        if i < lead:
            target[i] = rng.choice([-1, -2])
        else:
            s = shape[i - lead]
            target[i] = rng.choice([s + 1, -2]) if s != 1 else -3
    if not valid and not target:
        target = [2] if shape else [-1]
    if not valid and len(shape) > 0 and chance(0.2):
        target = target[lead + 1:]  # fewer sizes than dims
    return target


def storage_numel(x):
    storage = x.untyped_storage() if hasattr(x, "untyped_storage") else x.storage()
    return storage.nbytes() // x.element_size()


def as_strided_args(x, valid):
    ndim = rng.choice([0, 1, 1, 2, 2, 3])
    size = [rng.choice([0, 1, 2, 3, 4]) for _ in range(ndim)]
    stride = [rng.choice([0, 1, 1, 2, 3, 4, 6]) for _ in range(ndim)]
    cap = storage_numel(x)
    reach = 0 if 0 in size else sum((s - 1) * t for s, t in zip(size, stride)) + 1
    offset = None if chance(0.3) else rng.randint(0, max(cap - reach, 0))
    if not valid:
        kind = rng.randrange(5)
        if kind == 0 and ndim:
            stride[rng.randrange(ndim)] = -1
        elif kind == 1:
            offset = -1
        elif kind == 2:
            offset = cap + rng.randint(0, 3)
        elif kind == 3:
            stride = stride + [1]
        else:
            size = [cap + 1] + size
            stride = [1] + stride
    return {"size": size, "stride": stride, "storage_offset": offset}


def make_op(x):
    """A random op for tensor x, in its JSON form (answers.call_of runs it)."""
    n = x.dim()
    shape = list(x.shape)
    valid = chance(0.8)
    name = rng.choice(["permute", "transpose", "slice", "select", "diagonal", "expand",
                       "broadcast_to", "unsqueeze", "squeeze", "view", "view", "reshape",
                       "reshape", "flatten", "contiguous", "t", "narrow", "as_strided",
                       "unfold"])

    def size_at(d):
        if n == 0:
            return 1
        return shape[d % n] if -n <= d < n else 1

    if name == "permute":
        dims = list(range(n))
        rng.shuffle(dims)
        dims = [d - n if chance(0.3) else d for d in dims]
        if not valid:
            kind = rng.randrange(3)
            if kind == 0:
                dims = dims + [0]
            elif kind == 1 and n >= 2:
                dims[0] = dims[1] % n
            else:
                dims = dims[:-1] + [n] if n else [0]
        return {"op": "permute", "dims": dims}
    if name == "transpose":
        d0, d1 = dim_arg(n, valid), dim_arg(n, True)
        return {"op": "transpose", "dim0": d0, "dim1": d1}
    if name == "slice":
        d = dim_arg(n, valid)
        size = size_at(d)
        start, stop = size_or_none(size), size_or_none(size)
        step = rng.choice([1, 1, 1, 2, 3, size + 1]) if valid else rng.choice([0, -1, 1])
        op = {"op": "slice", "dim": d, "start": start, "stop": stop, "step": step}
        return op
    if name == "select":
        d = dim_arg(n, valid)
        size = size_at(d)
        index = rng.randint(-size, size - 1) if valid and size > 0 else rng.choice([size, -size - 1])
        return {"op": "select", "dim": d, "index": index}
    if name == "diagonal":
        offset = rng.randint(-4, 4)
        d1 = dim_arg(n, True)
        d2 = dim_arg(n, valid)
        op = {"op": "diagonal", "offset": offset, "dim1": d1, "dim2": d2}
        return op
    if name in ("expand", "broadcast_to"):
        target = expand_target(shape, valid)
        if name == "expand":
            return {"op": "expand", "shape": target}
        return {"op": "broadcast_to", "shape": target}
    if name == "unsqueeze":
        d = dim_arg(n, valid, extra=1)
        return {"op": "unsqueeze", "dim": d}
    if name == "squeeze":
        if chance(0.3):
            return {"op": "squeeze"}
        d = dim_arg(n, valid)
        return {"op": "squeeze", "dim": d}
    if name in ("view", "reshape"):
        target = shape_for(x.numel(), valid)
        if name == "view":
            return {"op": "view", "shape": target}
        return {"op": "reshape", "shape": target}
    if name == "flatten":
        s, e = dim_arg(n, True), dim_arg(n, valid)
        op = {"op": "flatten", "start_dim": s, "end_dim": e}
        return op
    if name == "contiguous":
        return {"op": "contiguous"}
    if name == "t":
        return {"op": "t"}
    if name == "narrow":
        d = dim_arg(n, valid)
        size = size_at(d)
        start = rng.randint(-size, size) if valid else rng.choice([size + 1, -size - 1])
        norm = start + size if start < 0 else start
        length = rng.randint(0, max(size - norm, 0)) if valid else rng.choice([-1, size + 1])
        op = {"op": "narrow", "dim": d, "start": start, "length": length}
        return op
    if name == "as_strided":
        args = as_strided_args(x, valid)
        op = dict({"op": "as_strided"}, **args)
        return op
    # unfold
    d = dim_arg(n, valid)
    size = size_at(d)
    window = rng.randint(0, size) if valid else rng.choice([size + 1, -1])
    step = rng.choice([1, 1, 2, 3]) if valid else rng.choice([0, -1])
    op = {"op": "unfold", "dimension": d, "size": window, "step": step}
    return op


# ---- torch's answers ------------------------------------------------------------------------

def values_of(t):
    flat = t.reshape(-1).tolist() if t.dim() else [t.item()]
    if t.dtype == torch.bool:
        return [bool(v) for v in flat]
    if t.dtype in (torch.int32, torch.int64):
        return [int(v) for v in flat]
    return [float(v) for v in flat]


def storage_id(t):
    # untyped_storage() where it exists (PyTorch 2, which deprecates storage()), storage() in 1.13;
    # _cdata tells two storages apart even when both are empty (data_ptr would be 0 for both).
    storage = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()
    return storage._cdata


def answer_step(t, start, prev):
    r = {"shape": list(t.shape), "stride": list(t.stride()), "storage_offset": t.storage_offset(),
         "is_contiguous": t.is_contiguous(), "shares_storage": storage_id(t) == storage_id(start),
         "shares_prev": storage_id(t) == storage_id(prev), "numel": t.numel()}
    if t.numel() <= MAX_VALUES:
        r["values"] = values_of(t)
    return r


def chain_case():
    """A view chain and torch's answer, or None when torch made a negative size."""
    shape = start_shape()
    dname, _ = rng.choice(DTYPES)
    request = {"start": {"shape": shape, "dtype": dname}, "ops": []}
    x = start_tensor(request["start"])
    for _ in range(rng.randint(1, 4)):
        op = make_op(x)  # its arguments are drawn for the tensor it applies to
        request["ops"].append(op)
        try:
            x = call_of(op)(x)
        except TORCH_ERRORS:
            break
        if any(s < 0 for s in x.shape):
            return None
    return request, chain_answer_of(request)


def broadcast_case():
    shapes = []
    for _ in range(rng.choice([1, 2, 2, 2, 3])):
        shapes.append([rng.choice([1, 1, 2, 3, 0]) for _ in range(rng.randint(0, 4))])
    if chance(0.5) and len(shapes) > 1:  # make them agree more often than chance does
        base = shapes[0]
        for s in shapes[1:]:
            for i in range(1, min(len(s), len(base)) + 1):
                if chance(0.7):
                    s[-i] = rng.choice([base[-i], 1])
    if chance(0.05):
        shapes[rng.randrange(len(shapes))].append(-1)
    try:
        result = {"result": list(torch.broadcast_shapes(*shapes))}
    except TORCH_ERRORS as e:
        result = {"error": True, "message": str(e).split("\n")[0]}
    return {"broadcast_shapes": shapes}, result


# ---- engine cases: unary, binary and matmul requests ----------------------------------------
# Drawn from their own generator (SEED + 1), so the view-chain cases above stay byte-identical.
# Operands are chains over arange, laid out every way that decides an output's strides: dense and
# permuted, sliced (holes), expanded (stride 0), size-1 dims with odd strides (as_strided),
# overlapping windows (unfold), 0-d and empty. The answer is the protocol's engine form: shape,
# stride, storage_offset, dtype, is_contiguous, numel and values (row-major, numel <= 256; NaN and
# infinities as the strings "NaN", "Infinity", "-Infinity", as JSON has no spelling for them); empty_like has no values (PyTorch's are
# whatever the memory held).

erng = random.Random(SEED + 1)
ENGINE_DTYPES = ["float32", "float64", "int32", "int64", "float16", "bfloat16", "bool"]
DTYPE_NAME = {v: k for k, v in DTYPES_BY_NAME.items()}


def apply_ops(t, ops):
    """Runs a chain's ops with torch, as the explorer runs them."""
    for op in ops:
        t = call_of(op)(t)
    return t


def layout_chain(shape, dname):
    """A chain whose result has the given shape, in one of the layouts that matter."""
    n = len(shape)
    kind = erng.choice(["contiguous", "permuted", "permuted", "sliced", "expanded", "odd_size1",
                        "transposed", "unfold", "offset"])
    if kind == "permuted" and n >= 2:
        perm = list(range(n))
        erng.shuffle(perm)
        start = [shape[p] for p in perm]  # start.permute(inv) has the wanted shape
        inv = [perm.index(i) for i in range(n)]
        return {"start": {"shape": start, "dtype": dname},
                "ops": [{"op": "permute", "dims": inv}]}
    if kind == "transposed" and n >= 2:
        d0, d1 = erng.sample(range(n), 2)
        start = list(shape)
        start[d0], start[d1] = start[d1], start[d0]
        return {"start": {"shape": start, "dtype": dname},
                "ops": [{"op": "transpose", "dim0": d0, "dim1": d1}]}
    if kind == "sliced" and n >= 1:
        d = erng.randrange(n)
        step = erng.choice([2, 3])
        start = list(shape)
        start[d] = shape[d] * step
        return {"start": {"shape": start, "dtype": dname},
                "ops": [{"op": "slice", "dim": d, "start": 0, "stop": None, "step": step}]}
    if kind == "expanded" and n >= 1:
        start = [1 if erng.random() < 0.5 else s for s in shape]
        lead = erng.randint(0, min(1, n - 1))
        start = start[lead:]
        return {"start": {"shape": start, "dtype": dname},
                "ops": [{"op": "expand", "shape": list(shape)}]}
    if kind == "odd_size1" and n >= 1 and 0 not in shape:
        # Dense values with arbitrary strides on size-1 dims: ties in the stride comparison.
        dims = sorted(range(n), key=lambda _: erng.random())
        stride = [0] * n
        acc = 1
        for d in reversed(dims):
            stride[d] = acc
            acc *= shape[d]
        for d in range(n):
            if shape[d] == 1:
                stride[d] = erng.choice([0, 1, 2, 3, 5, acc, 7 * acc])
        return {"start": {"shape": [numel_of(shape) + 8], "dtype": dname},
                "ops": [{"op": "as_strided", "size": list(shape), "stride": stride,
                         "storage_offset": erng.choice([0, 0, 3])}]}
    if kind == "unfold" and n >= 1 and shape[-1] >= 1:
        # Overlapping windows: the last dim comes from unfold over a longer row.
        size = shape[-1]
        step = erng.choice([1, 1, 2])
        count = shape[-2] if n >= 2 else 1
        length = (count - 1) * step + size if count > 0 else size
        base = list(shape[:-2]) + [length]
        ops = [{"op": "unfold", "dimension": -1, "size": size, "step": step}]
        if n == 1:
            ops.append({"op": "select", "dim": 0, "index": 0})
        return {"start": {"shape": base, "dtype": dname}, "ops": ops}
    if kind == "offset" and n >= 1:
        start = [shape[0] + 1] + list(shape[1:])
        return {"start": {"shape": start, "dtype": dname},
                "ops": [{"op": "slice", "dim": 0, "start": 1, "stop": None, "step": 1}]}
    return {"start": {"shape": list(shape), "dtype": dname}, "ops": []}


def chain_tensor(chain):
    return apply_ops(start_tensor(chain["start"]), chain["ops"])


def json_values(t):
    out = []
    for v in values_of(t):
        # As the protocol writes them (tools/explore/jsonl.h, float_json): JSON has no spelling.
        if isinstance(v, float) and v != v:
            out.append("NaN")
        elif isinstance(v, float) and v in (float("inf"), float("-inf")):
            out.append("Infinity" if v > 0 else "-Infinity")
        else:
            out.append(v)
    return out


def engine_answer(t, with_values=True):
    r = {"shape": list(t.shape), "stride": list(t.stride()), "storage_offset": t.storage_offset(),
         "dtype": DTYPE_NAME[t.dtype], "is_contiguous": t.is_contiguous(), "numel": t.numel()}
    if with_values and t.numel() <= MAX_VALUES:
        r["values"] = json_values(t)
    return r


def engine_error(e):
    return {"error": True, "message": str(e).split("\n")[0]}


def engine_shape():
    ndim = erng.choice([0, 1, 2, 2, 3, 3, 3, 4])
    while True:
        shape = [erng.choice([1, 1, 2, 3, 4]) for _ in range(ndim)]
        if ndim and erng.random() < 0.06:
            shape[erng.randrange(ndim)] = 0
        if numel_of(shape) <= 48:
            return shape


def broadcast_partner(shape):
    """A shape that broadcasts with shape (mostly), or one that does not."""
    other = list(shape)
    for i in range(len(other)):
        if erng.random() < 0.3:
            other[i] = 1
    drop = erng.randint(0, len(other)) if erng.random() < 0.3 else 0
    other = other[drop:]
    if erng.random() < 0.15 and shape:
        i = erng.randrange(len(shape))
        if shape[i] not in (0, 1):
            other = list(shape)
            other[i] = shape[i] + 1  # does not broadcast
    if erng.random() < 0.1:
        other = [erng.choice([1, 2])] + other
    return other


def binary_case():
    op = erng.choice(["add", "sub", "mul", "div"])
    xd, yd = erng.choice(ENGINE_DTYPES), erng.choice(ENGINE_DTYPES)
    if erng.random() < 0.5:
        yd = xd
    xs = engine_shape()
    ys = broadcast_partner(xs)
    if erng.random() < 0.5:
        xs, ys = ys, xs
    return {"binary": op, "x": layout_chain(xs, xd), "y": layout_chain(ys, yd)}


def unary_case():
    op = erng.choice(["neg", "add_scalar", "clone", "clone", "empty_like", "empty_like",
                      "contiguous", "contiguous"])
    dname = erng.choice(ENGINE_DTYPES)
    return {"unary": op, "x": layout_chain(engine_shape(), dname)}


def matmul_shapes():
    n, k, m = erng.randint(1, 4), erng.randint(1, 4), erng.randint(1, 4)
    kind = erng.choice(["1x1", "2x1", "1x2", "2x2", "2x2", "nx2", "2xn", "nxn", "nxn", "nx1",
                        "1xn", "bad"])
    batch = [erng.choice([1, 2, 3]) for _ in range(erng.randint(1, 3))]
    other = [b if erng.random() < 0.5 else 1 for b in batch][erng.randint(0, len(batch)):]
    a = {"1": [k], "2": [n, k], "n": batch + [n, k]}
    b = {"1": [k], "2": [k, m], "n": other + [k, m]}
    if kind == "bad":
        choice = erng.randrange(4)
        if choice == 0:
            return [n, k], [k + 1, m]
        if choice == 1:
            return [k], [k + 1]
        if choice == 2:
            return [], [k]
        return [2, n, k], [3, k, m]
    return a[kind[0]], b[kind[2]]


def matmul_case():
    a_shape, b_shape = matmul_shapes()
    dname = erng.choice(["float32", "float32", "float64", "int64", "int32", "float16", "bool"])
    return {"matmul": {"a_shape": a_shape, "b_shape": b_shape, "dtype": dname}}


UNARY = {"neg": torch.neg, "add_scalar": lambda x: x + 1, "clone": lambda x: x.clone(),
         "empty_like": torch.empty_like, "contiguous": lambda x: x.contiguous()}


def engine_answer_of(request):
    """torch's answer to an engine request (unary, binary or matmul)."""
    try:
        if "binary" in request:
            x, y = chain_tensor(request["x"]), chain_tensor(request["y"])
            return engine_answer(getattr(torch, request["binary"])(x, y))
        if "unary" in request:
            op = request["unary"]
            r = UNARY[op](chain_tensor(request["x"]))
            return engine_answer(r, with_values=op != "empty_like")
        m = request["matmul"]
        a = start_tensor({"shape": m["a_shape"], "dtype": m["dtype"]})
        b = start_tensor({"shape": m["b_shape"], "dtype": m["dtype"]})
        return engine_answer(torch.matmul(a, b))
    except TORCH_ERRORS as e:
        return engine_error(e)


def engine_cases(count):
    """count cases: binary, unary and matmul in proportion 5 : 3 : 2."""
    makers = [binary_case] * 5 + [unary_case] * 3 + [matmul_case] * 2
    for i in range(count):
        request = makers[i % len(makers)]()
        yield request, engine_answer_of(request)


# ---- answering committed requests again (--reanswer) -------------------------------------------

def chain_answer_of(request, step=None):
    """torch's answer to a view chain: each step's layout (answer_step's, or step's), or the
    error that stops it."""
    step = step or answer_step
    start = start_tensor(request["start"])
    results, x = [], start
    for op in request["ops"]:
        try:
            y = call_of(op)(x)
        except TORCH_ERRORS as e:
            results.append({"error": True, "message": str(e).split("\n")[0]})
            break
        results.append(step(y, start, x))
        x = y
    return {"results": results}


def broadcast_answer_of(request):
    try:
        return {"result": list(torch.broadcast_shapes(*request["broadcast_shapes"]))}
    except TORCH_ERRORS as e:
        return {"error": True, "message": str(e).split("\n")[0]}


def answer_of(request):
    """torch's answer to any request of cases.jsonl or engine_cases.jsonl."""
    if "broadcast_shapes" in request:
        return broadcast_answer_of(request)
    if "start" in request:
        return chain_answer_of(request)
    return engine_answer_of(request)


def reanswer(path):
    cases = [with_1_13(c, answer_of(c["request"])) for c in read_cases(path)]
    write_cases(cases, sys.stdout)
    count_1_13(cases, path, sys.stderr)


def main():
    global CHAIN_CASES, BROADCAST_CASES
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--cases", type=int, default=CHAIN_CASES, help="view chains to draw")
    parser.add_argument("--engine", type=int, default=0, metavar="N",
                        help="write N engine cases (unary, binary, matmul) instead of chains")
    parser.add_argument("--reanswer", metavar="FILE",
                        help="answer FILE's requests again (see requests.py) instead of drawing")
    args = parser.parse_args()
    if args.reanswer:
        reanswer(args.reanswer)
        return
    if args.engine:
        erng.seed(args.seed + 1)
        for case_id, (request, expected) in enumerate(engine_cases(args.engine)):
            sys.stdout.write(json.dumps({"id": case_id, "request": request, "expected": expected},
                                        separators=(",", ":"), allow_nan=False) + "\n")
        return
    rng.seed(args.seed)
    BROADCAST_CASES = BROADCAST_CASES * args.cases // CHAIN_CASES
    CHAIN_CASES = args.cases
    out = sys.stdout
    case_id = 0
    produced = 0
    while produced < CHAIN_CASES:
        case = chain_case()
        if case is None:
            continue
        out.write(json.dumps({"id": case_id, "request": case[0], "expected": case[1]},
                             separators=(",", ":")) + "\n")
        case_id += 1
        produced += 1
    for _ in range(BROADCAST_CASES):
        request, expected = broadcast_case()
        out.write(json.dumps({"id": case_id, "request": request, "expected": expected},
                             separators=(",", ":")) + "\n")
        case_id += 1


if __name__ == "__main__":
    main()
