#!/usr/bin/python3
"""Conformance cases for the dtypes uint8, int8 and int16, answered by real PyTorch.

Run by a maintainer, never by the build:

    /usr/bin/python3 tools/conformance/dtype_cases.py > tests/conformance/dtype_cases.jsonl

Deterministic: every case is enumerated, none is drawn, so the same torch gives byte-identical
output. The committed file is PyTorch 2.6's answer (run in the root of tools/book pytorch2-root,
as tools/pytorch/record.py runs the companions, with `--with-1-13 FILE`, FILE being this script's
output under 1.13). 1.13's answer is the same but for exp and sqrt of float16, which 1.13 refuses
on the CPU; those cases keep it as "expected_1_13". The cases are --jsonl requests in the form of generate.py's ({"id", "request",
"expected"}), run by tests/conformance/check.cpp (the test conformance.dtypes):

- promotion: add, sub, mul and div for every ordered pair of dtypes with a narrow integer among
  them (bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64), the operands
  holding values at the edges of their types, so that sums and products wrap; a dimensioned
  narrow tensor with a 0-d operand of every dtype, and the other way round; x + 1;
- neg, abs, exp and sqrt of each narrow type (abs(-128) is -128 in int8), and exp and sqrt of
  float16 and bfloat16;
- view(dtype) between uint8, int8, int16 and float32, int32, int64, float16, bool, on layouts
  that pass and that meet each of PyTorch's refusals, and a float's bytes read as uint8;
- casts (the chain op "to"): float32, float64, float16 and bfloat16 to each narrow type through
  NaN, the infinities, out-of-range values and fractions (truncation toward zero, then the low
  bits of an int64 for uint8 and of an int32 for int8 and int16, as torch 1.13 and 2.6 on x86), integers
  that wrap, bool, and back; on a short run, on a long one (which PyTorch's copy converts in
  vectors) and on a strided one;
- torch.tensor(values, dtype=...) with values a narrow type takes (uint8 takes -1 as 255) and
  refuses (300);
- sums (x.sum() and x.sum(dim), int64 for the narrow types), on values whose sum leaves the type;
- matmul in each narrow type, whose sums of products wrap;
- an NHWC uint8 image (2, 4, 5, 3) permuted to NCHW, made contiguous, and divided by 255;
- requires_grad on a narrow type, refused.

The chain answers are generate.py's (no dtype: the op names it); the engine answers (unary,
binary, matmul) carry the result's dtype, which is compared too.
"""

import json
import math
import sys

import torch

import generate as g

NARROW = ["uint8", "int8", "int16"]
REAL = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
        "float64"]
TORCH_DTYPE = {"bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8,
               "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
               "float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
               "float64": torch.float64}
DTYPE_NAME = {v: k for k, v in TORCH_DTYPE.items()}

# Six values per dtype at the edges of its range, for the binary operands.
EDGES = {
    "bool": [True, False, True, True, False, True],
    "uint8": [0, 1, 127, 128, 200, 255],
    "int8": [-128, -1, 0, 1, 100, 127],
    "int16": [-32768, -1, 0, 1, 300, 32767],
    "int32": [-2147483648, -1, 0, 1, 300, 2147483647],
    "int64": [-9223372036854775808, -1, 0, 1, 300, 9223372036854775807],
    "float16": [-1.5, 0.5, 2.0, 100.25, 300.0, -0.0],
    "bfloat16": [-1.5, 0.5, 2.0, 100.5, 256.0, -0.0],
    "float32": [-1.5, 0.5, 2.0, 100.25, 300.0, -0.0],
    "float64": [-1.5, 0.5, 2.0, 100.25, 300.0, -0.0],
}
# Values for the casts: every way a float leaves a narrow type, and fractions either side of 0.
CAST_VALUES = [math.nan, math.inf, -math.inf, 1e20, -1e20, 300.7, -300.7, 127.9, 128.0, -128.5,
               -129.0, 255.5, 256.0, -1.5, 2.7, -2.7, 40000.0, -40000.0, 3000000007.0,
               -3000000007.0, 65535.9, 65536.0, 32767.5, 32768.0, -32769.0, 0.99, -0.99, -0.0]
CAST_INTS = [300, -1, 65537, -129, 1099511627781, -1099511627906, 255, 128, -32769, 2147483647,
             -2147483648, 9223372036854775807, -9223372036854775808, 0]


# ---- torch's side of the protocol ------------------------------------------------------------

def value_json(v, floating):
    """A value as the protocol writes it: integers and booleans as they are, floats as numbers
    or, for NaN and the infinities, the strings "NaN", "Infinity" and "-Infinity"."""
    if not floating:
        return v
    v = float(v)
    if v != v:
        return "NaN"
    if v in (math.inf, -math.inf):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def values_json(t):
    flat = t.reshape(-1).tolist() if t.dim() else [t.item()]
    return [value_json(v, t.dtype.is_floating_point) for v in flat]


def step_answer(t, start, prev):
    r = {"shape": list(t.shape), "stride": list(t.stride()), "storage_offset": t.storage_offset(),
         "is_contiguous": t.is_contiguous(),
         "shares_storage": g.storage_id(t) == g.storage_id(start),
         "shares_prev": g.storage_id(t) == g.storage_id(prev), "numel": t.numel()}
    if t.numel() <= g.MAX_VALUES:
        r["values"] = values_json(t)
    return r


def engine_answer(t):
    r = {"shape": list(t.shape), "stride": list(t.stride()), "storage_offset": t.storage_offset(),
         "dtype": DTYPE_NAME[t.dtype], "is_contiguous": t.is_contiguous(), "numel": t.numel()}
    if t.numel() <= g.MAX_VALUES:
        r["values"] = values_json(t)
    return r


def error(e):
    return {"error": True, "message": str(e).split("\n")[0]}


def start_json(shape, dname, values=None):
    s = {"shape": list(shape), "dtype": dname}
    if values is not None:
        s["values"] = [value_json(v, isinstance(v, float)) for v in values]
    return s


def start_tensor(start):
    dtype = TORCH_DTYPE[start["dtype"]]
    if "values" in start:
        values = [g_value(v) for v in start["values"]]
        return torch.tensor(values, dtype=dtype).reshape(start["shape"])
    return torch.arange(g.numel_of(start["shape"])).to(dtype).reshape(start["shape"])


def g_value(v):
    """A start value as the explorer reads it back: the three strings are floats."""
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}.get(v, v) \
        if isinstance(v, str) else v


def apply_op(t, op):
    name = op["op"]
    if name == "permute":
        return t.permute(op["dims"])
    if name == "transpose":
        return t.transpose(op["dim0"], op["dim1"])
    if name == "slice":
        return torch.ops.aten.slice(t, op.get("dim", 0), op.get("start"), op.get("stop"),
                                    op.get("step", 1))
    if name == "select":
        return t.select(op["dim"], op["index"])
    if name == "view_dtype":
        return t.view(TORCH_DTYPE[op["dtype"]])
    if name == "to":
        return t.to(TORCH_DTYPE[op["dtype"]])
    if name == "contiguous":
        return t.contiguous()
    if name == "t":
        return t.t()
    if name == "view":
        return t.view(op["shape"])
    if name == "expand":
        return t.expand(op["shape"])
    raise ValueError(name)


def chain(start, ops):
    """A chain request and torch's answer, step by step."""
    request = {"start": start, "ops": ops}
    try:
        first = start_tensor(start)
    except g.TORCH_ERRORS as e:
        return request, error(e)
    results, x = [], first
    for op in ops:
        try:
            y = apply_op(x, op)
        except g.TORCH_ERRORS as e:
            results.append(error(e))
            break
        results.append(step_answer(y, first, x))
        x = y
    return request, {"results": results}


def chain_tensor(c):
    t = start_tensor(c["start"])
    for op in c.get("ops", []):
        t = apply_op(t, op)
    return t


def engine(request, compute):
    try:
        return request, engine_answer(compute())
    except g.TORCH_ERRORS as e:
        return request, error(e)


# ---- the cases -------------------------------------------------------------------------------

def promotion_cases():
    ops = ["add", "sub", "mul", "div"]
    k = 0
    for a in REAL:
        for b in REAL:
            if a not in NARROW and b not in NARROW:
                continue
            both = a in NARROW and b in NARROW
            for op in (ops if both else [ops[k % 4]]):
                k += 1
                x = {"start": start_json([2, 3], a, EDGES[a])}
                y = {"start": start_json([3], b, EDGES[b][3:])}
                yield engine({"binary": op, "x": x, "y": y},
                             lambda: getattr(torch, op)(chain_tensor(x), chain_tensor(y)))
    # A 0-d operand changes a dimensioned one's dtype only from a higher category
    # (combine_categories): uint8 + int64 0-d stays uint8, uint8 + float64 0-d is float32.
    for a in NARROW:
        for b in REAL:
            x = {"start": start_json([2, 3], a, EDGES[a])}
            y = {"start": start_json([], b, EDGES[b][5:])}
            yield engine({"binary": "add", "x": x, "y": y},
                         lambda: torch.add(chain_tensor(x), chain_tensor(y)))
            yield engine({"binary": "mul", "x": y, "y": x},
                         lambda: torch.mul(chain_tensor(y), chain_tensor(x)))
    for dname in REAL:
        x = {"start": start_json([2, 3], dname, EDGES[dname])}
        yield engine({"unary": "add_scalar", "x": x}, lambda: chain_tensor(x) + 1)


def unary_cases():
    for dname in NARROW:
        x = {"start": start_json([2, 3], dname, EDGES[dname])}
        for op in ["neg", "abs", "exp", "sqrt", "clone"]:
            yield engine({"unary": op, "x": x},
                         lambda: getattr(torch, op)(chain_tensor(x)))


def half_unary_cases():
    """exp and sqrt of float16 and bfloat16. PyTorch 1.13 refuses float16's on the CPU
    ("exp_vml_cpu" not implemented for 'Half'); 2.6 computes them, and the library follows 2.6."""
    for dname in ["float16", "bfloat16"]:
        x = {"start": start_json([2, 3], dname, [0.5, 1.0, 2.0, 4.0, 100.25, 0.0])}
        for op in ["exp", "sqrt"]:
            yield engine({"unary": op, "x": x},
                         lambda: getattr(torch, op)(chain_tensor(x)))


def view_dtype_cases():
    targets = ["uint8", "int8", "int16", "int32", "int64", "float32", "float16", "bool"]
    layouts = [
        [],                                                       # contiguous
        [{"op": "slice", "dim": 1, "start": 1, "stop": None, "step": 1}],  # an offset
        [{"op": "slice", "dim": 1, "start": 2, "stop": 6, "step": 1}],     # narrower rows
        [{"op": "slice", "dim": 1, "start": 0, "stop": None, "step": 2}],  # last stride 2
        [{"op": "t"}],                                            # last stride not 1
        [{"op": "select", "dim": 0, "index": 1}],                 # one row
        [{"op": "select", "dim": 0, "index": 1}, {"op": "select", "dim": 0, "index": 3}],  # 0-d
        [{"op": "slice", "dim": 0, "start": 0, "stop": None, "step": 2}],  # every other row
    ]
    for src, shape in [("uint8", [3, 8]), ("int8", [3, 8]), ("int16", [3, 8]),
                       ("float32", [3, 8]), ("int32", [3, 8])]:
        for ops in layouts:
            for dname in targets:
                if dname == src:
                    continue
                yield chain(start_json(shape, src), ops + [{"op": "view_dtype", "dtype": dname}])
    # A float's bytes (x86 is little-endian): 1.0 is 00 00 80 3f; and back.
    yield chain(start_json([2], "float32", [1.0, -2.5]),
                [{"op": "view_dtype", "dtype": "uint8"}, {"op": "view_dtype", "dtype": "float32"}])
    yield chain(start_json([3], "int16", [256, -1, 258]), [{"op": "view_dtype", "dtype": "int8"}])
    yield chain(start_json([3], "int8", [-1, -128, 5]), [{"op": "view_dtype", "dtype": "uint8"}])
    yield chain(start_json([4], "uint8", [0, 1, 2, 255]), [{"op": "view_dtype", "dtype": "bool"},
                                                            {"op": "to", "dtype": "int32"}])


def cast_cases():
    for src in ["float32", "float64", "float16", "bfloat16"]:
        for dname in NARROW:
            yield chain(start_json([len(CAST_VALUES)], src, CAST_VALUES),
                        [{"op": "to", "dtype": dname}])
            # A long run (PyTorch converts contiguous runs in vectors), checked on its tail.
            long_values = CAST_VALUES * 9
            yield chain(start_json([len(long_values)], src, long_values),
                        [{"op": "to", "dtype": dname},
                         {"op": "slice", "dim": 0, "start": len(long_values) - 28, "stop": None,
                          "step": 1}])
            # A strided source: every other element.
            yield chain(start_json([len(CAST_VALUES), 2], src,
                                   [v for v in CAST_VALUES for _ in (0, 1)]),
                        [{"op": "select", "dim": 1, "index": 0}, {"op": "to", "dtype": dname}])
    for src in ["int64", "int32", "int16", "int8", "uint8", "bool"]:
        values = CAST_INTS if src == "int64" else None
        for dname in NARROW + ["int32", "int64", "float32", "float16", "bool"]:
            if src == dname:
                continue
            if values is not None:
                yield chain(start_json([len(values)], src, values), [{"op": "to", "dtype": dname}])
            else:  # arange(300) in src: wraps in the narrow types, as .to() does
                yield chain(start_json([300], "int64" if src != "bool" else "bool"),
                            [{"op": "to", "dtype": src}, {"op": "to", "dtype": dname},
                             {"op": "slice", "dim": 0, "start": 120, "stop": None, "step": 1}])
    # A start in a narrow dtype past its range: arange(300).to(uint8) wraps.
    for dname in NARROW:
        yield chain(start_json([300], dname),
                    [{"op": "slice", "dim": 0, "start": 100, "stop": None, "step": 1}])


def tensor_cases():
    for dname in NARROW:
        for v in [300, -1, -255, -256, 255, 127, 128, -128, -129, 32767, 32768, 2.7, -2.7, 255.5,
                  -0.5, 127.5, math.nan, math.inf, True]:
            yield chain(start_json([1], dname, [v]), [{"op": "contiguous"}])


def sum_cases():
    for dname in NARROW + ["bool", "int32"]:
        x = {"start": start_json([2, 3], dname, EDGES[dname])}
        yield engine({"unary": "sum", "x": x}, lambda: chain_tensor(x).sum())
        for d in [0, 1, -1]:
            yield engine({"unary": "sum", "x": x, "dim": d}, lambda: chain_tensor(x).sum(d))
        yield engine({"unary": "sum", "x": x, "dim": 2}, lambda: chain_tensor(x).sum(2))
        # Long sums, past the type's range, on every reduction path: the reduced dim inner,
        # outer (a transposed tensor) and strided.
        big = {"start": {"shape": [40, 50], "dtype": dname}}
        yield engine({"unary": "sum", "x": big}, lambda: chain_tensor(big).sum())
        for d in [0, 1]:
            yield engine({"unary": "sum", "x": big, "dim": d}, lambda: chain_tensor(big).sum(d))
        tb = dict(big, ops=[{"op": "t"}])
        for d in [0, 1]:
            yield engine({"unary": "sum", "x": tb, "dim": d}, lambda: chain_tensor(tb).sum(d))
        sb = dict(big, ops=[{"op": "slice", "dim": 1, "start": 0, "stop": None, "step": 3}])
        yield engine({"unary": "sum", "x": sb, "dim": 0}, lambda: chain_tensor(sb).sum(0))


def matmul_cases():
    for dname in NARROW:
        for a_shape, b_shape in [([4, 8], [8, 3]), ([8], [8]), ([3, 8], [8]), ([2, 3, 4], [4, 5]),
                                 ([2, 3], [4, 5])]:
            request = {"matmul": {"a_shape": a_shape, "b_shape": b_shape, "dtype": dname}}
            dtype = TORCH_DTYPE[dname]
            yield engine(request, lambda: torch.matmul(
                torch.arange(g.numel_of(a_shape)).to(dtype).reshape(a_shape),
                torch.arange(g.numel_of(b_shape)).to(dtype).reshape(b_shape)))


def image_cases():
    start = start_json([2, 4, 5, 3], "uint8")  # NHWC: 120 pixels' channels, 0..119
    nchw = [{"op": "permute", "dims": [0, 3, 1, 2]}]
    yield chain(start, nchw + [{"op": "contiguous"}, {"op": "view_dtype", "dtype": "int8"}])
    yield chain(start, nchw + [{"op": "to", "dtype": "float32"}])
    x = {"start": start, "ops": nchw}
    yield engine({"unary": "contiguous", "x": x}, lambda: chain_tensor(x).contiguous())
    scale = {"start": start_json([], "float32", [255.0])}
    yield engine({"binary": "div", "x": x, "y": scale},
                 lambda: chain_tensor(x) / chain_tensor(scale))
    yield engine({"unary": "sum", "x": x, "dim": 1}, lambda: chain_tensor(x).sum(1))
    yield engine({"binary": "add", "x": x, "y": x}, lambda: chain_tensor(x) + chain_tensor(x))


def grad_cases():
    for dname in NARROW:
        request = {"grad": {"start": {"shape": [2, 3], "dtype": dname}, "ops": []}}
        try:
            torch.zeros(2, 3, dtype=TORCH_DTYPE[dname]).requires_grad_()
            raise AssertionError("torch let " + dname + " require gradients")
        except RuntimeError as e:
            yield request, error(e)


def main():
    makers = [promotion_cases, unary_cases, view_dtype_cases, cast_cases, tensor_cases, sum_cases,
              matmul_cases, image_cases, grad_cases, half_unary_cases]
    # --with-1-13 FILE: FILE is this script's output under PyTorch 1.13; its answer is kept beside
    # each case as "expected_1_13" where it differs (answers.py, with_1_13).
    earlier = {}
    if len(sys.argv) == 3 and sys.argv[1] == "--with-1-13":
        with open(sys.argv[2], encoding="utf-8") as f:
            earlier = {c["id"]: c["expected"] for c in map(json.loads, f)}
    case_id = 0
    for make in makers:
        for request, expected in make():
            case = {"id": case_id, "request": request, "expected": expected}
            if case_id in earlier and earlier[case_id] != expected:
                case["expected_1_13"] = earlier[case_id]
            sys.stdout.write(json.dumps(case, separators=(",", ":"), allow_nan=False) + "\n")
            case_id += 1


if __name__ == "__main__":
    main()
