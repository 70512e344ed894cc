#!/usr/bin/python3
"""PyTorch's answers for the explorer's in-place ops, recorded by torch 2.6.

Run by a maintainer, never by the build: written by PyTorch 1.13, then answered again by PyTorch
2.6 (generate.py says how to run its python), 1.13's answer kept as "expected_1_13" where it
differs:

    /usr/bin/python3 tools/conformance/inplace_cases.py > tests/conformance/inplace_cases.jsonl
    python3 tools/conformance/inplace_cases.py --reanswer tests/conformance/inplace_cases.jsonl

Each line is an expression of the explorer's language (Python once its factories are torch's;
x[...] = v is run as a statement on the tensor left of the last indexing) with the values of the
tensor the last step shows, or the message of the error torch raises; or a --jsonl gradient
request ({"grad":...}, tools/explore/grad_request.h) with x.grad's values or the error.
tools/explore/inplace_test.cpp runs each through the explorer and compares the values, or the
message word for word.
"""

import argparse
import json

import torch

from answers import reanswer_lines


EXPRESSIONS = [
    # results
    "arange(12).view(3, 4)[:, 0].fill_(7)",
    "arange(12).view(3, 4)[:, 0] = 5",
    "arange(12).view(3, 4)[1] = tensor([9, 8, 7, 6])",
    "arange(6.).index_put_((tensor([0, 2, 2]),), tensor([10., 20., 30.]), accumulate=True)",
    "arange(6.).index_put_((tensor([0, 2]),), tensor(-1.))",
    "arange(12.).view(3, 4).index_put_((tensor([0, 2]), tensor([1, 3])), tensor([5., 6.]))",
    "arange(3)[0] = 2.7",
    "arange(4.)[[0, 3]] = 9",
    "ones(1, 3).expand(4, 3).fill_(2)",
    "ones(1, 3).expand(4, 3).zero_()",
    "ones(1, 3).expand(4, 3)[0] = arange(3.)",
    "arange(4.).add_(ones(4), alpha=2)",
    "arange(6.).view(2, 3).t().mul_(tensor([1., 10.]))",
    "arange(6).view(2, 3).copy_(tensor([1., 2.5, 3.]))",
    "arange(4.).view(2, 2)[0] = ones(1, 1, 2)",
    # refusals
    "ones(1, 3).expand(4, 3).add_(1)",
    "ones(1, 3).expand(4, 3).mul_(ones(4, 3))",
    "ones(1, 3).expand(4, 3).copy_(ones(4, 3))",
    "ones(1, 3).expand(4, 3)[:, 0] = 5",
    "arange(3.).add_(ones(2, 3))",
    "arange(3.).mul_(ones(2, 3))",
    "arange(3.).copy_(ones(2, 3))",
    "arange(3.).copy_(ones(4))",
    "arange(3).add_(1.5)",
    "arange(3).add_(ones(3))",
    "arange(3).mul_(2.5)",
    "zeros(3, dtype=torch.bool).add_(ones(3, dtype=torch.int64))",
    "arange(4.).index_put_((tensor([5]),), tensor(1.))",
    "arange(4.).index_put_((tensor([-5]),), tensor(1.))",
    "arange(12.).view(3, 4).index_put_((tensor([0]), tensor([4])), tensor(1.))",
    "arange(4.).index_put_((tensor([0, 1]),), tensor([1., 2., 3.]))",
    "arange(4.).index_put_((tensor([0]),), tensor([1]))",
    "arange(4.).index_put_(([0],), tensor(1.))",
    "arange(4.).index_put_((tensor([0.]),), tensor(1.))",
    "arange(4.).index_put_((tensor([0, 1]),), tensor([1., 2.]), True)",
    "arange(4.).fill_(ones(2))",
    "arange(12.).view(3, 4)[:, 0] = ones(4)",
    "arange(4.)[[5]] = 1",
    "arange(4.)[[0]] = tensor([1])",
]

# Gradient requests: the leaf x is arange(numel) in float64 with requires_grad, the ops run on it,
# and backward runs from (y * w).sum(), w = arange(1, numel + 1) (grad_request.h).
GRADS = [
    {"start": {"shape": [2, 3], "dtype": "float64"}, "ops": [{"op": "mul_", "other": 2}]},
    {"start": {"shape": [2, 3], "dtype": "float64"},
     "ops": [{"op": "select", "dim": 0, "index": 0}, {"op": "fill_", "value": 1}]},
    {"start": {"shape": [2, 3], "dtype": "float64"},
     "ops": [{"op": "exp"}, {"op": "mul_", "other": 2}]},
    {"start": {"shape": [3], "dtype": "float32"}, "ops": [{"op": "exp"}, {"op": "add_", "other": 1}]},
    {"start": {"shape": [2, 3], "dtype": "float64"},
     "ops": [{"op": "mul_self"}, {"op": "add_", "other": 1}]},
    {"start": {"shape": [2, 3], "dtype": "float64"},
     "ops": [{"op": "pow", "exponent": 2}, {"op": "select", "dim": 1, "index": 0},
             {"op": "mul_", "other": 3}]},
    {"start": {"shape": [2, 3], "dtype": "float64"},
     "ops": [{"op": "clone"}, {"op": "slice", "dim": 1, "start": 1}, {"op": "zero_"}]},
    {"start": {"shape": [6], "dtype": "float64"},
     "ops": [{"op": "clone"}, {"op": "split", "split_size": 2, "index": 0},
             {"op": "mul_", "other": 2}]},
    {"start": {"shape": [6], "dtype": "float64"},
     "ops": [{"op": "clone"}, {"op": "chunk", "chunks": 3, "index": 1},
             {"op": "add_", "other": 2}]},
    {"start": {"shape": [2, 3], "dtype": "float64"},
     "ops": [{"op": "clone"}, {"op": "unbind", "dim": 0, "index": 0},
             {"op": "mul_", "other": 2}]},
]

SCOPE = {"torch": torch, "arange": torch.arange, "zeros": torch.zeros, "ones": torch.ones,
         "tensor": torch.tensor}


def run(expression):
    if " = " not in expression:
        return eval(expression, SCOPE)
    target, value = expression.split(" = ")
    depth, i = 0, len(target) - 1
    while True:  # the '[' that opens the last indexing
        depth += {"]": 1, "[": -1}.get(target[i], 0)
        if depth == 0:
            break
        i -= 1
    scope = dict(SCOPE)
    exec(f"__t = {target[:i]}\n__t{target[i:]} = {value}", scope)
    return scope["__t"]


def grad_of(request):
    start, ops = request["start"], request["ops"]
    n = 1
    for s in start["shape"]:
        n *= s
    x = torch.arange(n, dtype=getattr(torch, start["dtype"])).view(start["shape"]).clone()
    x.requires_grad_()
    y = x
    for op in ops:
        name = op["op"]
        if name in ("add_", "mul_"):
            y = getattr(y, name)(op["other"])
        elif name == "fill_":
            y = y.fill_(op["value"])
        elif name == "zero_":
            y = y.zero_()
        elif name == "exp":
            y = y.exp()
        elif name == "mul_self":
            y = y * y
        elif name == "pow":
            y = y.pow(op["exponent"])
        elif name == "clone":
            y = y.clone()
        elif name == "select":
            y = y.select(op["dim"], op["index"])
        elif name == "slice":
            y = y[(slice(None),) * op["dim"] + (slice(op["start"], None),)]
        elif name == "split":
            y = y.split(op["split_size"], op.get("dim", 0))[op["index"]]
        elif name == "chunk":
            y = y.chunk(op["chunks"], op.get("dim", 0))[op["index"]]
        elif name == "unbind":
            y = y.unbind(op.get("dim", 0))[op["index"]]
        else:
            raise ValueError(name)
    w = torch.arange(1, y.numel() + 1, dtype=y.dtype).view(y.shape)
    (y * w).sum().backward()
    return x.grad


def answer_of(case):
    try:
        t = grad_of(case["grad"]) if "grad" in case else run(case["expression"])
        return {"values": t.tolist()}
    except Exception as e:  # the refusal is the answer
        return {"error": str(e)}


def line(case, answer, answer_1_13=None):
    out = {**case, "torch": torch.__version__, **answer}
    if answer_1_13 is not None and answer_1_13 != answer:
        out["expected_1_13"] = answer_1_13
    return json.dumps(out)


def reanswer(path):
    """The committed cases answered again; 1.13's answer kept where it differs."""
    reanswer_lines(path, lambda c: {k: c[k] for k in ("expression", "grad") if k in c},
                   lambda c: c.get("expected_1_13") or {k: c[k] for k in ("values", "error") if k in c},
                   answer_of, line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reanswer", metavar="FILE",
                        help="answer FILE's cases again, keeping 1.13's answer where it differs")
    args = parser.parse_args()
    if args.reanswer:
        reanswer(args.reanswer)
        return
    for expression in EXPRESSIONS:
        case = {"expression": expression}
        print(line(case, answer_of(case)))
    for request in GRADS:
        case = {"grad": request}
        print(line(case, answer_of(case)))


if __name__ == "__main__":
    main()
