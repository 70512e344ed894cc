#!/usr/bin/python3
"""Conformance cases for the view ops beyond the first protocol, answered by real PyTorch.

Run by a maintainer, never by the build: drawn by PyTorch 1.13 (which writes the committed
requests again byte for byte), then answered again by PyTorch 2.6, 1.13's answer kept as
"expected_1_13" where it differs (answers.py; generate.py says how to run the 2.6 python):

    /usr/bin/python3 tools/conformance/view_ops.py > tests/conformance/view_cases.jsonl
    python3 tools/conformance/view_ops.py --reanswer tests/conformance/view_cases.jsonl > new

Deterministic (its own seed; the cases of generate.py are untouched). Two parts, in the form of
generate.py's chains ({"id", "request", "expected"}), run by tests/conformance/check.cpp:

- every pair of the library's dtypes through view_dtype, on layouts chosen to pass and to meet
  each of PyTorch's refusals (the last dim's size, the offset, the last stride, another stride,
  a 0-d tensor);
- random chains of 1 to 3 ops mixing the new ops (split with a size or a list, split_with_sizes,
  chunk, unbind, tensor_split with sections or indices, hsplit, vsplit, dsplit, each with an
  "index"; view_dtype, swapaxes, swapdims, moveaxis, atleast_1d/2d/3d, detach, alias, mT) with
  the layout-changing ops of the first protocol (transpose, slice, select, expand, unsqueeze),
  valid and invalid arguments alike;
- random chains on complex64 and complex128 starts (arange as the real parts, 0 as the imaginary
  parts) and on float starts, mixing the complex views (view_as_real, view_as_complex, real, imag,
  conj, resolve_conj, H, mH, adjoint, view_dtype to and from the complex dtypes) with transpose,
  slice, select and unsqueeze. Complex values are written as [re, im] pairs.

Values are compared too: view_dtype's reinterpreted bits include NaN and infinities, written as
the strings "NaN", "Infinity" and "-Infinity".
"""

import argparse
import json
import random
import sys

import torch

import generate as g
from answers import call_of, count_1_13, read_cases, several_of, start_tensor, with_1_13, \
    write_cases

SEED = 20240612
RANDOM_CASES = 1500
rng = random.Random(SEED)
DTYPES = ["bool", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
PAIR_DTYPES = DTYPES + COMPLEX  # view_dtype's pairs; the random chains of part 2 keep DTYPES
COMPLEX_CASES = 600
crng = random.Random(SEED + 7)  # part 3's own stream, so parts 1 and 2 are unchanged


def chance(p):
    return rng.random() < p


def answer_step(t, start, prev):
    r = {"shape": list(t.shape), "stride": list(t.stride()), "storage_offset": t.storage_offset(),
         "is_contiguous": t.is_contiguous(),
         "shares_storage": g.storage_id(t) == g.storage_id(start),
         "shares_prev": g.storage_id(t) == g.storage_id(prev), "numel": t.numel()}
    if t.numel() <= g.MAX_VALUES:
        if t.is_complex():  # [re, im] pairs of the values the tensor reads (its bit resolved)
            parts = g.json_values(torch.view_as_real(t.resolve_conj()))
            r["values"] = [parts[i:i + 2] for i in range(0, len(parts), 2)]
        else:
            r["values"] = g.json_values(t)
    return r


def answer_of(request):
    return g.chain_answer_of(request, answer_step)


def run(shape, dname, ops):
    """The request and torch's answer for a chain of ops on arange(shape)."""
    request = {"start": {"shape": shape, "dtype": dname}, "ops": ops}
    return request, answer_of(request)


# ---- every dtype pair through view_dtype ------------------------------------------------------

def slice_op(dim, start, stop, step):
    return {"op": "slice", "dim": dim, "start": start, "stop": stop, "step": step}


def view_dtype_op(dname):
    return {"op": "view_dtype", "dtype": dname}


# Each layout: a start shape and the ops that make it. Together they pass for every pair and
# meet each refusal: size(-1) not divisible, the offset not divisible, stride(-1) != 1, another
# stride not divisible, and a 0-d tensor.
PAIR_LAYOUTS = [
    ([2, 8], []),
    ([3, 16], [slice_op(1, 8, 16, 1)]),
    ([2, 3], []),
    ([2, 9], [slice_op(1, 1, 9, 1)]),
    ([2, 16], [slice_op(1, 0, None, 2)]),
    ([3, 10], [slice_op(1, 0, 8, 1)]),
    ([5, 8], [{"op": "transpose", "dim0": 0, "dim1": 1}]),
    ([], []),
]


def pair_cases():
    for a in PAIR_DTYPES:
        for b in PAIR_DTYPES:
            for shape, prep in PAIR_LAYOUTS:
                yield run(shape, a, prep + [view_dtype_op(b)])


# ---- random chains ----------------------------------------------------------------------------

def pick_index(op, count_of):
    """op gets "index": a valid one mostly, from the outputs torch makes; sometimes past them."""
    n = count_of()
    if n is None or chance(0.08):
        op["index"] = rng.choice([n or 0, -(n or 0) - 1, 5])
    else:
        op["index"] = rng.randint(-n, n - 1) if n else 0
    return op


def multi(x, name, args):
    """An op with several outputs, with the "index" of the one the chain keeps."""
    op = {"op": name}
    if name == "split":
        op["split_size"] = args[0]
    elif name == "split_with_sizes":
        op["sizes"] = args[0]
    elif name == "chunk":
        op["chunks"] = args[0]
    elif name in ("tensor_split", "hsplit", "vsplit", "dsplit"):
        op["indices" if isinstance(args[0], list) else "sections"] = args[0]
    if name in ("split", "split_with_sizes", "chunk", "tensor_split"):
        op["dim"] = args[1]
    elif name == "unbind":
        op["dim"] = args[0]

    def count():
        try:
            return len(several_of(op)(x))
        except g.TORCH_ERRORS:
            return None
    return pick_index(op, count)


def sizes_summing(total, valid):
    parts = []
    rest = total
    for _ in range(rng.randint(0, 3)):
        p = rng.randint(0, rest)
        parts.append(p)
        rest -= p
    parts.append(rest)
    rng.shuffle(parts)
    if not valid:
        if chance(0.5) or not parts:
            parts.append(rng.choice([1, 2]))
        else:
            parts[rng.randrange(len(parts))] = -1
    return parts


def indices_for(size):
    return sorted(rng.randint(-size - 1, size + 2) for _ in range(rng.randint(0, 3))) \
        if chance(0.7) else [rng.randint(-size - 1, size + 2) for _ in range(rng.randint(1, 3))]


def make_op(x):
    n = x.dim()
    valid = chance(0.8)
    dim = g.dim_arg(n, valid)
    size = x.shape[dim] if -n <= dim < n and n else 1
    name = rng.choice(["split", "split", "split_with_sizes", "chunk", "unbind", "tensor_split",
                       "tensor_split", "hsplit", "vsplit", "dsplit", "view_dtype", "view_dtype",
                       "swapaxes", "swapdims", "moveaxis", "atleast_1d", "atleast_2d",
                       "atleast_3d", "detach", "alias", "mT", "transpose", "slice", "select",
                       "expand", "unsqueeze"])
    if name == "split":
        if chance(0.3):
            return multi(x, "split", (sizes_summing(size, valid), dim))
        s = rng.randint(1, size + 2) if valid else rng.choice([0, -1])
        return multi(x, "split", (s, dim))
    if name == "split_with_sizes":
        return multi(x, name, (sizes_summing(size, valid), dim))
    if name == "chunk":
        return multi(x, name, (rng.randint(1, size + 2) if valid else rng.choice([0, -2]), dim))
    if name == "unbind":
        return multi(x, name, (dim,))
    if name == "tensor_split":
        if chance(0.5):
            return multi(x, name, (indices_for(size), dim))
        return multi(x, name, (rng.randint(1, size + 2) if valid else rng.choice([0, -1]), dim))
    if name in ("hsplit", "vsplit", "dsplit"):
        hdim = {"hsplit": 0 if n == 1 else 1, "vsplit": 0, "dsplit": 2}[name]
        hsize = x.shape[hdim] if hdim < n else 1
        if chance(0.4):
            return multi(x, name, (indices_for(hsize),))
        divisors = [d for d in range(1, hsize + 1) if hsize % d == 0] or [1]
        return multi(x, name, (rng.choice(divisors) if valid else rng.choice([0, -1, 4, 7]),))
    if name == "view_dtype":
        return view_dtype_op(rng.choice(DTYPES))
    if name in ("swapaxes", "swapdims"):
        d1 = g.dim_arg(n, True)
        keys = ("axis0", "axis1") if name == "swapaxes" else ("dim0", "dim1")
        return {"op": name, keys[0]: dim, keys[1]: d1}
    if name == "moveaxis":
        if chance(0.5) or n < 2:
            d1 = g.dim_arg(n, True)
            return {"op": name, "source": dim, "destination": d1}
        k = rng.randint(1, n)
        src = rng.sample(range(n), k)
        dst = rng.sample(range(n), k)
        if not valid:
            dst[0] = dst[-1] if k > 1 else n
        return {"op": name, "source": src, "destination": dst}
    if name.startswith("atleast"):
        return {"op": name}
    if name == "detach":
        return {"op": "detach"}
    if name == "alias":
        return {"op": "alias"}
    if name == "mT":
        return {"op": "mT"}
    if name == "transpose":
        d1 = g.dim_arg(n, True)
        return {"op": "transpose", "dim0": dim, "dim1": d1}
    if name == "slice":
        start, stop = g.size_or_none(size), g.size_or_none(size)
        step = rng.choice([1, 1, 2, 3])
        return slice_op(dim, start, stop, step)
    if name == "select":
        index = rng.randint(-size, size - 1) if valid and size > 0 else size
        return {"op": "select", "dim": dim, "index": index}
    if name == "expand":
        target = [rng.choice([2, 3])] + [-1] * n
        return {"op": "expand", "shape": target}
    d = g.dim_arg(n, valid, extra=1)
    return {"op": "unsqueeze", "dim": d}


def random_case():
    shape = g.start_shape()
    dname = rng.choice(DTYPES + ["float32", "int64"])
    x = start_tensor({"shape": shape, "dtype": dname})
    ops = []
    for _ in range(rng.randint(1, 3)):
        op = make_op(x)
        ops.append(op)
        try:
            x = call_of(op)(x)
        except g.TORCH_ERRORS:
            break
    return run(shape, dname, ops)


# ---- complex chains ----------------------------------------------------------------------------

def complex_op(x):
    n = x.dim()
    name = crng.choice(["view_as_real", "view_as_real", "view_as_complex", "view_as_complex",
                        "real", "imag", "conj", "conj", "resolve_conj", "H", "mH", "adjoint",
                        "view_dtype", "view_dtype", "transpose", "slice", "select", "unsqueeze"])
    if name in ("view_as_real", "view_as_complex", "real", "imag", "H", "mH", "conj",
                "resolve_conj", "adjoint"):
        return {"op": name}
    if name == "view_dtype":
        return view_dtype_op(crng.choice(COMPLEX + ["float32", "float64", "int32", "float16"]))
    size_dims = [d for d in range(n) if x.shape[d] > 0]
    dim = crng.choice(size_dims) if size_dims else 0
    if name == "transpose" and n:
        d1 = crng.randrange(n)
        return {"op": "transpose", "dim0": dim, "dim1": d1}
    if name == "slice" and n:
        size = x.shape[dim]
        start = crng.randint(0, size)
        return slice_op(dim, start, None, crng.choice([1, 1, 2]))
    if name == "select" and n and x.shape[dim] > 0:
        index = crng.randrange(x.shape[dim])
        return {"op": "select", "dim": dim, "index": index}
    d = crng.randint(0, n)
    return {"op": "unsqueeze", "dim": d}


def complex_case():
    shape = crng.choice([[2, 3, 4], [3, 4], [4], [2, 2], [], [2, 3, 2], [4, 2], [1, 6, 2]])
    dname = crng.choice(COMPLEX + COMPLEX + ["float32", "float64"])
    x = start_tensor({"shape": shape, "dtype": dname})
    ops = []
    for _ in range(crng.randint(1, 3)):
        op = complex_op(x)
        ops.append(op)
        try:
            x = call_of(op)(x)
        except g.TORCH_ERRORS:
            break
        # PyTorch's imag of a conjugated tensor is a view with its negative bit, which the
        # library refuses: such chains stay out of the suite.
        if x.is_neg():
            return None
    return run(shape, dname, ops)


def reanswer(path):
    cases = [with_1_13(c, answer_of(c["request"])) for c in read_cases(path)]
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
    g.rng = rng  # generate.py's helpers (dim_arg, start_shape, ...) draw from this seed
    out = sys.stdout
    cases = list(pair_cases())
    while len(cases) < len(PAIR_LAYOUTS) * len(PAIR_DTYPES) ** 2 + RANDOM_CASES:
        request, expected = random_case()
        if any(s < 0 for r in expected["results"] for s in r.get("shape", [])):
            continue
        cases.append((request, expected))
    complex_count = 0
    while complex_count < COMPLEX_CASES:
        case = complex_case()
        if case is None:
            continue
        cases.append(case)
        complex_count += 1
    for case_id, (request, expected) in enumerate(cases):
        out.write(json.dumps({"id": case_id, "request": request, "expected": expected},
                             separators=(",", ":"), allow_nan=False) + "\n")


if __name__ == "__main__":
    main()
