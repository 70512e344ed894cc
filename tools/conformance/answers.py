"""A committed request's ops as torch calls, and the answers of two PyTorches in one case.

The generators draw their requests and answer them as they draw (an op's arguments depend on the
tensor it applies to). Once committed, the requests are the test set: `--reanswer FILE` in each
generator reads FILE, keeps every request (same cases, same order, same ids) and answers each again
with the running torch, through call_of below, which reads an op's JSON form exactly as
strided-explore's --jsonl protocol does.

Each case then has two answers where they differ (with_1_13):

    "expected":      the running torch's answer (PyTorch 2.6, Debian 13's, since the library
                     follows it);
    "expected_1_13": PyTorch 1.13's answer (Debian 12's), only where it differs from "expected".

1.13's answer is the committed file's "expected_1_13" if the case has one, else its "expected"
(the files were answered by 1.13 before). Run under 1.13, a re-answer writes no "expected_1_13"
at all: its answer is 1.13's. Plain Python and torch's public API only, so the generators run
unchanged under both.
"""

import json
import sys

import torch

TORCH_1_13 = torch.__version__.startswith("1.13")
TORCH_ERRORS = (RuntimeError, IndexError, ValueError, TypeError)

DTYPES = {"float32": torch.float32, "float64": torch.float64, "int32": torch.int32,
          "int64": torch.int64, "float16": torch.float16, "bfloat16": torch.bfloat16,
          "bool": torch.bool, "complex64": torch.complex64, "complex128": torch.complex128}


def numel_of(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def start_tensor(start):
    """arange(numel) of the start's dtype (float32 when not named), reshaped."""
    shape = start["shape"]
    dtype = DTYPES[start.get("dtype", "float32")]
    return torch.arange(numel_of(shape)).to(dtype).reshape(shape)


def several_of(op):
    """The ops with several outputs: the call making the tuple; the op's "index" picks one."""
    name = op["op"]
    if name in ("split", "split_with_sizes"):
        size = op["split_size"] if name == "split" else op["sizes"]
        return lambda t: getattr(t, name)(size, op["dim"])
    if name == "chunk":
        return lambda t: t.chunk(op["chunks"], op["dim"])
    if name == "unbind":
        return lambda t: t.unbind(op["dim"])
    if name in ("tensor_split", "hsplit", "vsplit", "dsplit"):
        arg = op["indices"] if "indices" in op else op["sections"]
        if name == "tensor_split":
            return lambda t: t.tensor_split(arg, op["dim"])
        return lambda t: getattr(t, name)(arg)
    return None


def call_of(op):
    """The torch call (tensor -> tensor) that an op of a request's "ops" asks for."""
    name = op["op"]
    several = several_of(op)
    if several is not None:
        index = op["index"]
        return lambda t: several(t)[index]
    simple = {
        "contiguous": lambda t: t.contiguous(), "t": lambda t: t.t(),
        "detach": lambda t: t.detach(), "alias": lambda t: torch.ops.aten.alias(t),
        "clone": lambda t: t.clone(), "mT": lambda t: t.mT, "H": lambda t: t.H,
        "mH": lambda t: t.mH, "real": lambda t: t.real, "imag": lambda t: t.imag,
        "conj": lambda t: t.conj(), "resolve_conj": lambda t: t.resolve_conj(),
        "conj_physical": lambda t: t.conj_physical(),
        "adjoint": lambda t: t.adjoint(), "view_as_real": torch.view_as_real,
        "view_as_complex": torch.view_as_complex, "atleast_1d": torch.atleast_1d,
        "atleast_2d": torch.atleast_2d, "atleast_3d": torch.atleast_3d,
        "exp": lambda t: t.exp(), "log": lambda t: t.log(), "mul_self": lambda t: t * t,
    }
    if name in simple:
        return simple[name]
    if name == "permute":
        return lambda t: t.permute(op["dims"])
    if name in ("transpose", "swapdims"):
        return lambda t: getattr(t, name)(op["dim0"], op["dim1"])
    if name == "swapaxes":
        return lambda t: t.swapaxes(op["axis0"], op["axis1"])
    if name in ("moveaxis", "movedim"):
        return lambda t: getattr(t, name)(op["source"], op["destination"])
    if name == "slice":
        return lambda t: torch.ops.aten.slice(t, op["dim"], op["start"], op["stop"], op["step"])
    if name == "select":
        return lambda t: t.select(op["dim"], op["index"])
    if name == "diagonal":
        return lambda t: t.diagonal(op["offset"], op["dim1"], op["dim2"])
    if name in ("expand", "broadcast_to", "view", "reshape"):
        return lambda t: getattr(t, name)(op["shape"])
    if name == "unsqueeze":
        return lambda t: t.unsqueeze(op["dim"])
    if name == "squeeze":
        return (lambda t: t.squeeze(op["dim"])) if "dim" in op else (lambda t: t.squeeze())
    if name == "flatten":
        return lambda t: t.flatten(op["start_dim"], op["end_dim"])
    if name == "narrow":
        return lambda t: t.narrow(op["dim"], op["start"], op["length"])
    if name == "as_strided":
        return lambda t: t.as_strided(op["size"], op["stride"], op["storage_offset"])
    if name == "unfold":
        return lambda t: t.unfold(op["dimension"], op["size"], op["step"])
    if name == "view_dtype":
        return lambda t: t.view(DTYPES[op["dtype"]])
    if name == "flip":
        return lambda t: t.flip(op["dims"])
    if name in ("sum", "mean"):
        if "dim" not in op:
            return lambda t: getattr(t, name)()
        return lambda t: getattr(t, name)(op["dim"], op["keepdim"])
    if name == "pow":
        return lambda t: t.pow(op["exponent"])
    raise ValueError(f"no torch call for op {name!r}")


def read_cases(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def with_1_13(case, fresh, same=None):
    """case (a committed line) with `fresh`, the running torch's answer, as "expected", and
    PyTorch 1.13's as "expected_1_13" where it differs (same(a, b) decides; == by default)."""
    old = case.get("expected_1_13", case.get("expected"))
    out = {k: v for k, v in case.items() if k not in ("expected", "expected_1_13")}
    out["expected"] = fresh
    if not TORCH_1_13 and not (same or (lambda a, b: a == b))(old, fresh):
        out["expected_1_13"] = old
    return out


def close(a, b, tolerance):
    """Two answers equal but for floats within a relative tolerance (a gradient's last bits:
    the BLAS and the CPU sum in their own order); the checkers compare them so too."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k], tolerance) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y, tolerance) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (a != a and b != b) or abs(a - b) <= tolerance * max(abs(a), abs(b))
    return a == b and type(a) is type(b)


def write_cases(cases, out):
    for case in cases:
        out.write(json.dumps(case, separators=(",", ":"), allow_nan=False) + "\n")


def count_1_13(cases, name, err):
    differ = sum(1 for c in cases if "expected_1_13" in c)
    print(f"{name}: {len(cases)} cases answered by torch {torch.__version__}, {differ} with "
          f"PyTorch 1.13's other answer kept as expected_1_13", file=err)


def reanswer_lines(path, case_of, old_of, answer_of, line_of):
    """A flat record (one case a line, its answer beside it, as torch_functions.py and
    inplace_cases.py write theirs) answered again by the running torch and printed: case_of(c) is
    what answer_of asks, old_of(c) the answer kept as 1.13's where the fresh one differs, and
    line_of(case, fresh, old) the printed line."""
    differ = 0
    with open(path, encoding="utf-8") as f:
        for text in f:
            c = json.loads(text)
            case, old = case_of(c), old_of(c)
            fresh = answer_of(case)
            print(line_of(case, fresh, None if TORCH_1_13 else old))
            differ += fresh != old and not TORCH_1_13
    print(f"{path}: answered by torch {torch.__version__}, {differ} with PyTorch 1.13's other "
          f"answer kept as expected_1_13", file=sys.stderr)

