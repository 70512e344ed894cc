#!/usr/bin/python3
"""Gradient conformance cases for the library's autograd, answered by PyTorch 2.6.

Run by a maintainer, never by the build (the build and the tests need no torch). The programs
below, with inputs drawn by PyTorch 1.13's seeded generator, were committed; PyTorch 2.6 answers
the committed programs again (their inputs as committed), keeping 1.13's answer as
"expected_1_13" where it differs (answers.py; generate.py says how to run the 2.6 python), a
gradient within conformance_test.cpp's tolerance being no difference:

    /usr/bin/python3 tools/conformance/generate_grads.py > tests/conformance/grad_cases.jsonl
    python3 tools/conformance/generate_grads.py --reanswer tests/conformance/grad_cases.jsonl

Deterministic: the inputs come from a seeded generator, and the same torch gives the same file.
Each line is one case, a small program over named tensors that both sides interpret:

    {"id": "permute", "inputs": [{"name": "x", "shape": [2, 3], "dtype": "float64",
                                  "values": [...], "requires_grad": true}],
     "program": [["y", "permute", ["x"], {"dims": [1, 0]}], ...],
     "output": "z", "grad_output": {"shape": [...], "values": [...]} or null,
     "backward": [{"retain_graph": false}],
     "expected": {"grads": {"x": {"shape", "stride", "values"} or null},
                  "grad_fns": {"y": "PermuteBackward0", ...}}
                 or {"error": "PyTorch's message, less its Python type"},
     "expected_1_13": PyTorch 1.13's answer in the same form, only where it differs}

A step is [out, op, args, kwargs]; an arg is a tensor's name, a number, or a list of names (cat);
split's pieces are named out.0, out.1, ...; an in-place step has out null; "no_grad": true in
kwargs runs the step under torch.no_grad(); "retain_grad": true calls retain_grad() on its result.
The expected grads are every input's and every retained tensor's .grad after the backward calls.
lib/strided/autograd/conformance_test.cpp runs the same programs and compares every field.

Where the library's graph differs by design it is left out here, not special-cased there: torch
composes matmul of operands other than 1-D and 2-D from several nodes, so those cases carry no
grad_fn names.
"""

import argparse
import json
import sys

import torch

from answers import close, count_1_13, read_cases, with_1_13

torch.manual_seed(20240618)
DTYPES = {"float64": torch.float64, "float32": torch.float32}


def rand(shape, dtype="float64", positive=False, requires_grad=True, name="x"):
    t = torch.rand(shape, dtype=torch.float64)
    t = t + 0.5 if positive else t * 2 - 1
    if dtype == "float32":
        t = t.float()
    return {"name": name, "shape": list(shape), "dtype": dtype,
            "values": t.flatten().tolist(), "requires_grad": requires_grad}


def slice_index(t, dim, start, end, step):
    return t[(slice(None),) * dim + (slice(start, end, step),)]


OPS = {
    "add": lambda a, b, alpha=1: torch.add(a, b, alpha=alpha),
    "sub": lambda a, b, alpha=1: torch.sub(a, b, alpha=alpha),
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "neg": lambda a: -a,
    "pow": lambda a, b: torch.pow(a, b),
    "exp": torch.exp,
    "log": torch.log,
    "clone": torch.clone,
    "sum": lambda a, dim=None, keepdim=False: a.sum() if dim is None else a.sum(dim, keepdim),
    "mean": lambda a, dim=None, keepdim=False: a.mean() if dim is None else a.mean(dim, keepdim),
    "matmul": torch.matmul,
    "view": lambda a, size: a.view(size),
    "reshape": lambda a, size: a.reshape(size),
    "permute": lambda a, dims: a.permute(dims),
    "transpose": lambda a, dim0, dim1: a.transpose(dim0, dim1),
    "t": lambda a: a.t(),
    "expand": lambda a, size: a.expand(size),
    "broadcast_to": lambda a, size: a.broadcast_to(size),
    "squeeze": lambda a, dim=None: a.squeeze() if dim is None else a.squeeze(dim),
    "unsqueeze": lambda a, dim: a.unsqueeze(dim),
    "select": lambda a, dim, index: a.select(dim, index),
    "slice": lambda a, dim, start=None, end=None, step=1: slice_index(a, dim, start, end, step),
    "narrow": lambda a, dim, start, length: a.narrow(dim, start, length),
    "diagonal": lambda a, offset=0, dim1=0, dim2=1: a.diagonal(offset, dim1, dim2),
    "flatten": lambda a, start_dim=0, end_dim=-1: a.flatten(start_dim, end_dim),
    "unflatten": lambda a, dim, sizes: a.unflatten(dim, sizes),
    "movedim": lambda a, source, destination: a.movedim(source, destination),
    "as_strided": lambda a, size, stride, storage_offset=None: a.as_strided(size, stride,
                                                                            storage_offset),
    "unfold": lambda a, dimension, size, step: a.unfold(dimension, size, step),
    "cat": lambda tensors, dim=0: torch.cat(tensors, dim),
    "split": lambda a, split_size, dim=0: torch.split(a, split_size, dim),
    "detach": lambda a: a.detach(),
    "add_": lambda a, b: a.add_(b),
    "sub_": lambda a, b: a.sub_(b),
    "mul_": lambda a, b: a.mul_(b),
    "div_": lambda a, b: a.div_(b),
    "copy_": lambda a, b: a.copy_(b),
    "fill_": lambda a, b: a.fill_(b),
}


def layout(t):
    return {"shape": list(t.shape), "stride": list(t.stride()), "values": t.flatten().tolist()}


def run(case):
    env = {}
    for spec in case["inputs"]:
        t = torch.tensor(spec["values"], dtype=DTYPES[spec["dtype"]]).reshape(spec["shape"]).clone()
        env[spec["name"]] = t.requires_grad_(spec["requires_grad"])
    retained = []
    names = []
    try:
        for out, op, args, kwargs in case["program"]:
            kw = {k: v for k, v in kwargs.items() if k not in ("no_grad", "retain_grad")}
            vals = [[env[n] for n in a] if isinstance(a, list) else
                    env[a] if isinstance(a, str) else a for a in args]
            with torch.set_grad_enabled(not kwargs.get("no_grad", False)):
                r = OPS[op](*vals, **kw)
            if out is None:
                continue
            if isinstance(r, tuple):
                for i, piece in enumerate(r):
                    env[f"{out}.{i}"] = piece
                    names.append(f"{out}.{i}")
            else:
                env[out] = r
                names.append(out)
                if kwargs.get("retain_grad"):
                    r.retain_grad()
                    retained.append(out)
        y = env[case["output"]]
        g = case["grad_output"]
        grad = None if g is None else torch.tensor(g["values"], dtype=y.dtype).reshape(g["shape"])
        grad_fns = {n: (env[n].grad_fn.name() if env[n].grad_fn is not None else None)
                    for n in names}
        for call in case["backward"]:
            y.backward(grad, retain_graph=call.get("retain_graph", False))
    except RuntimeError as e:
        return {"error": str(e)}
    grads = {}
    for n in [s["name"] for s in case["inputs"] if s["requires_grad"]] + retained:
        grads[n] = None if env[n].grad is None else layout(env[n].grad)
    expected = {"grads": grads}
    if case.get("grad_fns", True):
        expected["grad_fns"] = grad_fns
    return expected


CASES = []


def case(id, inputs, program, output, grad_output=None, backward=None, grad_fns=True):
    c = {"id": id, "inputs": inputs, "program": program, "output": output,
         "grad_output": grad_output, "backward": backward or [{}]}
    if not grad_fns:
        c["grad_fns"] = False
    CASES.append(c)


def upstream(shape):
    t = torch.rand(shape, dtype=torch.float64) * 2 - 1
    return {"shape": list(shape), "values": t.flatten().tolist()}


def unary(id, shape, op, kwargs=None, positive=False, out_shape=None, grad_fns=True):
    """x -> op(x), backward from a random upstream gradient of the result's shape."""
    x = rand(shape, positive=positive)
    probe = OPS[op](torch.zeros(shape), **(kwargs or {}))
    case(id, [x], [["y", op, ["x"], kwargs or {}]], "y", upstream(list(probe.shape)),
         grad_fns=grad_fns)


def binary(id, sa, sb, op, positive=False, grad_fns=True, kwargs=None):
    a, b = rand(sa, positive=positive, name="a"), rand(sb, positive=positive, name="b")
    probe = OPS[op](torch.ones(sa), torch.ones(sb), **(kwargs or {}))
    case(id, [a, b], [["y", op, ["a", "b"], kwargs or {}]], "y", upstream(list(probe.shape)),
         grad_fns=grad_fns)


# ---- element-wise, with broadcasting --------------------------------------------------------------
binary("add", [2, 3], [2, 3], "add")
binary("add broadcast alpha", [2, 3], [3], "add", kwargs={"alpha": 2})
binary("add broadcast both", [2, 1], [1, 3], "add")
binary("sub broadcast alpha", [3, 1], [2], "sub", kwargs={"alpha": 3})
binary("mul", [4], [4], "mul")
binary("mul broadcast", [2, 3, 1], [3, 4], "mul")
binary("div", [2, 3], [3], "div", positive=True)
binary("pow tensor", [2, 3], [3], "pow", positive=True)
case("mul by a number", [rand([3])], [["y", "mul", ["x", 2.5], {}]], "y", upstream([3]))
case("add a number", [rand([3])], [["y", "add", ["x", 1.5], {}]], "y", upstream([3]))
case("mul self", [rand([3])], [["y", "mul", ["x", "x"], {}]], "y", upstream([3]))
unary("neg", [2, 2], "neg")
unary("exp", [2, 3], "exp")
unary("log", [5], "log", positive=True)
case("pow scalar", [rand([4])], [["y", "pow", ["x", 3.0], {}]], "y", upstream([4]))
case("pow zero", [rand([4])], [["y", "pow", ["x", 0.0], {}]], "y", upstream([4]))
case("pow half", [rand([4], positive=True)], [["y", "pow", ["x", 0.5], {}]], "y", upstream([4]))
unary("clone of a transpose", [2, 3], "clone")
case("mixed dtypes", [rand([3], "float32", name="a"), rand([3], name="b")],
     [["y", "mul", ["a", "b"], {}]], "y", upstream([3]))

# ---- reductions --------------------------------------------------------------------------------------
unary("sum", [2, 3], "sum")
unary("sum dim", [2, 3, 4], "sum", {"dim": [1]})
unary("sum dims keepdim", [2, 3, 4], "sum", {"dim": [0, 2], "keepdim": True})
unary("sum negative dim", [2, 3], "sum", {"dim": [-1]})
unary("mean", [2, 3], "mean")
unary("mean dims", [2, 3, 4], "mean", {"dim": [0, -1]})
unary("mean keepdim", [3, 4], "mean", {"dim": [1], "keepdim": True})
case("sum of a 0-d", [rand([])], [["y", "sum", ["x"], {}]], "y")

# ---- matmul -------------------------------------------------------------------------------------------
binary("dot", [3], [3], "matmul")
binary("mv", [2, 3], [3], "matmul")
binary("vm", [3], [3, 2], "matmul", grad_fns=False)
binary("mm", [2, 3], [3, 4], "matmul")
binary("bmm", [2, 2, 3], [2, 3, 2], "matmul", grad_fns=False)
binary("matmul broadcast batch", [2, 1, 2, 3], [3, 3, 2], "matmul", grad_fns=False)
binary("matmul batch by vector", [2, 2, 3], [3], "matmul", grad_fns=False)
case("mm of a transpose", [rand([3, 2], name="a"), rand([3, 4], name="b")],
     [["at", "t", ["a"], {}], ["y", "matmul", ["at", "b"], {}]], "y", upstream([2, 4]))

# ---- views ----------------------------------------------------------------------------------------------
unary("view", [2, 3, 4], "view", {"size": [6, 4]})
unary("view -1", [2, 3], "view", {"size": [-1]})
unary("reshape as a view", [2, 3, 4], "reshape", {"size": [4, 6]})
case("reshape as a copy", [rand([2, 3, 4])],
     [["p", "permute", ["x"], {"dims": [2, 0, 1]}], ["y", "reshape", ["p"], {"size": [-1]}]],
     "y", upstream([24]))
unary("permute", [2, 3, 4], "permute", {"dims": [2, 0, 1]})
unary("permute negative", [2, 3, 4], "permute", {"dims": [-1, 0, 1]})
unary("transpose", [2, 3, 4], "transpose", {"dim0": 0, "dim1": 2})
unary("t", [2, 3], "t")
unary("t of 1-d", [3], "t")
unary("expand", [3, 1], "expand", {"size": [2, 3, 4]})
unary("expand -1", [1, 3], "expand", {"size": [4, -1]})
unary("broadcast_to", [3], "broadcast_to", {"size": [2, 2, 3]})
unary("squeeze", [1, 3, 1, 2], "squeeze")
unary("squeeze dim", [1, 3], "squeeze", {"dim": 0})
unary("squeeze a dim of size 3", [1, 3], "squeeze", {"dim": 1})
unary("unsqueeze", [2, 3], "unsqueeze", {"dim": 1})
unary("unsqueeze -1", [2, 3], "unsqueeze", {"dim": -1})
unary("select", [2, 3, 4], "select", {"dim": 1, "index": -1})
unary("slice", [5, 3], "slice", {"dim": 0, "start": 1, "end": 4})
unary("slice step", [9], "slice", {"dim": 0, "start": 1, "end": None, "step": 3})
unary("slice past the end", [2, 4], "slice", {"dim": 1, "start": 2, "end": 100})
unary("narrow", [3, 5], "narrow", {"dim": 1, "start": 1, "length": 3})
unary("diagonal", [3, 4], "diagonal")
unary("diagonal offset", [3, 4], "diagonal", {"offset": 1})
unary("diagonal negative offset dims", [2, 3, 4], "diagonal", {"offset": -1, "dim1": 2, "dim2": 1})
unary("flatten", [2, 3, 4], "flatten")
unary("flatten some", [2, 3, 4], "flatten", {"start_dim": 1})
unary("flatten one dim", [2, 3], "flatten", {"start_dim": 1, "end_dim": 1})
unary("unflatten", [2, 6], "unflatten", {"dim": 1, "sizes": [2, 3]})
unary("movedim", [2, 3, 4], "movedim", {"source": 0, "destination": -1})
unary("movedim lists", [2, 3, 4, 5], "movedim", {"source": [0, 1], "destination": [3, 0]})
unary("as_strided", [3, 4], "as_strided", {"size": [2, 2], "stride": [4, 1], "storage_offset": 5})
unary("as_strided overlapping", [6], "as_strided", {"size": [3, 3], "stride": [1, 1]})
unary("as_strided stride 0", [4], "as_strided", {"size": [3, 2], "stride": [0, 1]})
case("as_strided of a transpose", [rand([3, 4])],
     [["p", "t", ["x"], {}], ["y", "as_strided", ["p"], {"size": [2, 3], "stride": [1, 2]}]],
     "y", upstream([2, 3]))
unary("unfold", [2, 7], "unfold", {"dimension": 1, "size": 3, "step": 2})
unary("unfold overlapping", [6], "unfold", {"dimension": 0, "size": 3, "step": 1})
unary("unfold gaps", [7], "unfold", {"dimension": 0, "size": 2, "step": 3})
case("chain of views", [rand([2, 3, 4])],
     [["a", "permute", ["x"], {"dims": [1, 2, 0]}], ["b", "slice", ["a"], {"dim": 1, "start": 1, "end": 4, "step": 2}],
      ["c", "unsqueeze", ["b"], {"dim": 0}], ["d", "expand", ["c"], {"size": [3, 3, 2, 2]}],
      ["y", "mul", ["d", "d"], {}]], "y", upstream([3, 3, 2, 2]))

# ---- cat and split ------------------------------------------------------------------------------------------
case("cat", [rand([2], name="a"), rand([3], name="b")], [["y", "cat", [["a", "b"]], {}]], "y",
     {"shape": [5], "values": [0.0, 1.0, 2.0, 3.0, 4.0]})
case("cat dim 1", [rand([2, 2], name="a"), rand([2, 3], name="b")],
     [["y", "cat", [["a", "b"]], {"dim": 1}]], "y", upstream([2, 5]))
case("split", [rand([5, 2])],
     [["p", "split", ["x"], {"split_size": 2}], ["y", "mul", ["p.1", 3.0], {}]], "y", upstream([2, 2]))
case("split with sizes", [rand([2, 5])],
     [["p", "split", ["x"], {"split_size": [1, 4], "dim": 1}],
      ["y", "mul", ["p.0", "p.1"], {}]], "y", upstream([2, 4]))
case("split then cat", [rand([6])],
     [["p", "split", ["x"], {"split_size": 4}], ["y", "cat", [["p.1", "p.0"]], {}]], "y", upstream([6]))

# ---- AG-05, AG-07 as the catalogue states them ------------------------------------------------------------
case("AG-05 broadcast add", [{"name": "a", "shape": [1, 2], "dtype": "float32", "values": [1.0, 2.0], "requires_grad": True},
                             {"name": "b", "shape": [2, 2], "dtype": "float32", "values": [1.0, 2.0, 3.0, 4.0], "requires_grad": True}],
     [["s", "add", ["a", "b"], {}], ["y", "sum", ["s"], {}]], "y")
scalars = [{"name": n, "shape": [], "dtype": "float32", "values": [v], "requires_grad": True}
           for n, v in zip("abcd", [1.0, 2.0, 3.0, 4.0])]
case("AG-07 product", scalars, [["t1", "add", ["a", "b"], {"retain_grad": True}],
                                ["t2", "add", ["c", "d"], {"retain_grad": True}],
                                ["e", "mul", ["t1", "t2"], {}]], "e")
case("AG-07 the seed's sum", scalars, [["t1", "add", ["a", "b"], {}], ["t2", "add", ["c", "d"], {}],
                                       ["e", "add", ["t1", "t2"], {}]], "e")
case("softmax from five rules", [rand([3])],
     [["e", "exp", ["x"], {}], ["s", "sum", ["e"], {}], ["r", "pow", ["s", -1.0], {}],
      ["y", "mul", ["e", "r"], {}]], "y", upstream([3]))

# ---- retain_grad, detach, no_grad, backward twice ----------------------------------------------------------
case("retain_grad", [rand([3])], [["h", "exp", ["x"], {"retain_grad": True}],
                                  ["y", "sum", ["h"], {}]], "y")
case("detach stops the gradient", [rand([3])],
     [["d", "detach", ["x"], {}], ["y", "mul", ["x", "d"], {}]], "y", upstream([3]))
case("no_grad records nothing", [rand([3])],
     [["n", "mul", ["x", 2.0], {"no_grad": True}], ["y", "mul", ["x", "n"], {}]], "y", upstream([3]))
case("backward twice accumulates", [rand([3])], [["y", "mul", ["x", "x"], {}], ["s", "sum", ["y"], {}]],
     "s", backward=[{"retain_graph": True}, {}])
case("backward twice without retain_graph", [rand([3])],
     [["y", "mul", ["x", "x"], {}], ["s", "sum", ["y"], {}]], "s", backward=[{}, {}])
case("implicit grad of a non-scalar", [rand([3])], [["y", "mul", ["x", 2.0], {}]], "y")
case("nothing requires grad", [rand([3], requires_grad=False)], [["y", "mul", ["x", 2.0], {}]], "y")
case("grad_output of the wrong shape", [rand([3])], [["y", "mul", ["x", 2.0], {}]], "y", upstream([2]))

# ---- in place: the version counter and the leaf rule ------------------------------------------------------
case("saved result written in place", [rand([3], "float32")],
     [["a", "exp", ["x"], {}], ["b", "mul", ["a", 1.0], {}], [None, "mul_", ["a", 2.0], {}],
      ["y", "sum", ["b"], {}]], "y")
case("saved input written through another view", [rand([3], "float32"), rand([3], "float32", requires_grad=False, name="w")],
     [["z", "mul", ["x", "w"], {}], ["v", "view", ["w"], {"size": [3]}],
      ["s", "slice", ["v"], {"dim": 0, "start": 0, "end": 2}], [None, "add_", ["s", 1.0], {}],
      ["y", "sum", ["z"], {}]], "y")
case("saved 2-d written through a view", [rand([2, 3]), rand([2, 3], requires_grad=False, name="w")],
     [["z", "mul", ["x", "w"], {}], ["r", "select", ["w"], {"dim": 0, "index": 1}],
      [None, "mul_", ["r", 2.0], {}], ["y", "sum", ["z"], {}]], "y")
case("saved non-leaf written in place", [rand([3])],
     [["h", "mul", ["x", 2.0], {}], ["z", "mul", ["h", "h"], {}], [None, "add_", ["h", 1.0], {}],
      ["y", "sum", ["z"], {}]], "y")
case("saved view of a result written through its base", [rand([4])],
     [["e", "exp", ["x"], {}], ["v", "slice", ["e"], {"dim": 0, "start": 1}],
      ["z", "log", ["v"], {}], [None, "mul_", ["e", 2.0], {}], ["y", "sum", ["z"], {}]], "y")
case("leaf written in place", [rand([3])], [[None, "add_", ["x", 1.0], {}], ["y", "sum", ["x"], {}]], "y")
case("view of a leaf written in place", [rand([3])],
     [["v", "slice", ["x"], {"dim": 0, "start": 0, "end": 2}], [None, "add_", ["v", 1.0], {}],
      ["y", "sum", ["x"], {}]], "y")
case("leaf written under no_grad", [rand([3])],
     [[None, "add_", ["x", 1.0], {"no_grad": True}], ["y", "mul", ["x", "x"], {}]], "y", upstream([3]))
case("write without saved tensors is fine", [rand([3])],
     [["h", "add", ["x", 1.0], {}], ["z", "add", ["h", 2.0], {}], [None, "mul_", ["h", 3.0], {}],
      ["y", "sum", ["z"], {}]], "y")
case("in-place on a non-leaf", [rand([3]), rand([3], name="w")],
     [["h", "mul", ["x", 1.0], {}], [None, "mul_", ["h", "w"], {}], ["y", "sum", ["h"], {}]], "y")
case("in-place on a view: CopySlices", [rand([3, 2]), rand([2], name="w")],
     [["h", "mul", ["x", 1.0], {}], ["r", "select", ["h"], {"dim": 0, "index": 1}],
      [None, "add_", ["r", "w"], {}], ["y", "mul", ["h", "h"], {}]], "y", upstream([3, 2]))
case("in-place on a strided view", [rand([6]), rand([3], name="w")],
     [["h", "exp", ["x"], {}], ["c", "clone", ["h"], {}], ["r", "slice", ["c"], {"dim": 0, "step": 2}],
      [None, "mul_", ["r", "w"], {}], ["y", "sum", ["c"], {}]], "y")
case("the view after an in-place write", [rand([4])],
     [["h", "mul", ["x", 1.0], {}], ["v", "slice", ["h"], {"dim": 0, "start": 1}],
      [None, "div_", ["v", 4.0], {}], ["y", "mul", ["v", "v"], {}]], "y", upstream([3]))
case("copy_ into a slice", [rand([2, 3]), rand([3], name="s")],
     [["h", "mul", ["x", 1.0], {}], ["r", "select", ["h"], {"dim": 0, "index": 0}],
      [None, "copy_", ["r", "s"], {}], ["y", "mul", ["h", "x"], {}]], "y", upstream([2, 3]))
case("fill_ a slice", [rand([4])],
     [["h", "mul", ["x", 1.0], {}], ["r", "slice", ["h"], {"dim": 0, "start": 2}],
      [None, "fill_", ["r", 0.5], {}], ["y", "mul", ["h", "h"], {}]], "y", upstream([4]))
case("sub_ a broadcast operand", [rand([2, 3]), rand([3], name="w")],
     [["h", "mul", ["x", 1.0], {}], [None, "sub_", ["h", "w"], {}], ["y", "mul", ["h", "x"], {}]],
     "y", upstream([2, 3]))


def reanswer(path):
    """The committed programs (their inputs included) answered again by the running torch."""
    with_names = {c["id"]: c.get("grad_fns", True) for c in CASES}
    cases = []
    for c in read_cases(path):
        fresh = run(dict(c, grad_fns=with_names[c["id"]]))
        single = any(spec["dtype"] == "float32" for spec in c["inputs"])
        # conformance_test.cpp's tolerance: a last bit summed in another order is no difference.
        tolerance = 1e-5 if single else 1e-10
        cases.append(with_1_13(c, fresh, lambda a, b: close(a, b, tolerance)))
    for c in cases:
        print(json.dumps(c))
    count_1_13(cases, path, sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reanswer", metavar="FILE",
                        help="answer FILE's programs again (see answers.py) instead of drawing")
    args = parser.parse_args()
    if args.reanswer:
        reanswer(args.reanswer)
        return
    for c in CASES:
        out = dict(c)
        out.pop("grad_fns", None)
        out["expected"] = run(c)
        print(json.dumps(out))


if __name__ == "__main__":
    main()
