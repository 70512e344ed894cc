#!/usr/bin/python3
"""PyTorch's answers for the explorer's torch.f(x, ...) form, recorded by torch 2.6.

Run by a maintainer, never by the build: written by PyTorch 1.13, then the committed expressions
answered again by PyTorch 2.6 (generate.py says how to run its python), 1.13's answer kept as
"expected_1_13" where it differs (answers.py):

    /usr/bin/python3 tools/conformance/torch_functions.py > tests/conformance/torch_function_cases.jsonl
    python3 tools/conformance/torch_functions.py --reanswer tests/conformance/torch_function_cases.jsonl

Each line is one expression of the explorer's language, which is also Python once its factories
are torch's (arange is torch.arange), with torch's answer ("torch" names its version): the layout
of the tensor it gives, or the message of the error it raises. tools/explore/expression_test.cpp evaluates each with the
explorer and compares the layout, or the message word for word.
"""

import argparse
import json

import torch

from answers import reanswer_lines

X = "arange(24).view(2, 3, 4)"
Z = "zeros(2, 3, dtype=torch.complex64)"
F = "arange(12, dtype=torch.float32).view(2, 3, 2)"

EXPRESSIONS = [
    f"torch.view_as_real({Z})",
    f"torch.view_as_real(input={Z}.t())",
    f"torch.view_as_complex({F})",
    f"torch.real({Z}[1:])",
    f"torch.imag({Z}.t())",
    f"torch.conj({Z})",
    f"torch.adjoint({Z})",
    f"torch.swapaxes({X}, 0, 2)",
    f"torch.swapdims({X}, dim0=0, dim1=1)",
    f"torch.moveaxis({X}, 0, 2)",
    f"torch.movedim({X}, (0, 1), (2, 0))",
    f"torch.transpose(input={X}, dim0=0, dim1=2)",
    f"torch.permute({X}, (2, 0, 1))",
    f"torch.narrow({X}, 2, 1, 2)",
    f"torch.select({X}, 1, 2)",
    f"torch.squeeze({X}[:, :1])",
    f"torch.squeeze({X}[:, :1], 1)",
    f"torch.unsqueeze({X}, -1)",
    f"torch.flatten({X}, 1)",
    f"torch.unflatten({X}, 2, (2, 2))",
    f"torch.reshape({X}, (4, 6))",
    f"torch.t({X}[0])",
    f"torch.diagonal({X}, 1, 1, 2)",
    f"torch.split({X}, 2, -1)[1]",
    f"torch.split({X}, [1, 2], 1)[1]",
    f"torch.split_with_sizes({X}, [1, 2], 1)[1]",
    f"torch.tensor_split({X}, [1, 3], 2)[2]",
    f"torch.hsplit({X}, 3)[2]",
    f"torch.vsplit({X}, [1])[1]",
    f"torch.dsplit({X}, 2)[1]",
    f"torch.chunk({X}, 2, 1)[1]",
    f"torch.unbind({X}, 0)[1]",
    f"torch.unbind({X}, dim=2)[3]",
    "torch.atleast_1d(tensor(3))",
    "torch.atleast_2d(arange(3))",
    "torch.atleast_3d(arange(6).view(2, 3))",
    f"torch.detach({X})",
    f"torch.broadcast_to({X}[:, :1], (2, 3, 4))",
    f"torch.flip({X}, (0, 2))",
    f"torch.as_strided({X}, (3, 3), (1, 3), 2)",
    f"torch.clone({X}.transpose(0, 2))",
    f"torch.unbind(torch.transpose({X}, 0, 2), 0)[2]",
    # Refusals, in PyTorch's words.
    "torch.view_as_real(3)",
    "torch.view_as_real()",
    f"torch.view_as_real({X})",
    f"torch.permute({X}, 2.5)",
    f"torch.flatten({X}, 1.0)",
    f"torch.unsqueeze({X})",
    f"torch.reshape({X})",
    f"torch.chunk({X})",
    "torch.t(arange(6).view(2, 3), 1)",
    f"torch.atleast_1d(input={X})",
    f"torch.alias({X})",
    f"torch.view({X}, 24)",
    f"torch.unfold({X}, 0, 1, 1)",
]


def answer_of(expression):
    scope = {"torch": torch, "arange": torch.arange, "zeros": torch.zeros, "tensor": torch.tensor}
    try:
        t = eval(expression, scope)
        return {"shape": list(t.shape), "stride": list(t.stride()),
                "storage_offset": t.storage_offset(), "dtype": str(t.dtype)[6:]}
    except Exception as e:  # the refusal is the answer
        return {"error": str(e)}


def line(expression, answer, answer_1_13=None):
    out = {"expression": expression, "torch": torch.__version__, **answer}
    if answer_1_13 is not None and answer_1_13 != answer:
        out["expected_1_13"] = answer_1_13
    return json.dumps(out)


def reanswer(path):
    """The committed expressions answered again; 1.13's answer kept where it differs."""
    reanswer_lines(path, lambda c: c["expression"],
                   lambda c: c.get("expected_1_13") or {
                       k: v for k, v in c.items() if k not in ("expression", "torch", "expected_1_13")},
                   answer_of, line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reanswer", metavar="FILE",
                        help="answer FILE's expressions again (see answers.py)")
    args = parser.parse_args()
    if args.reanswer:
        reanswer(args.reanswer)
        return
    for expression in EXPRESSIONS:
        print(line(expression, answer_of(expression)))


if __name__ == "__main__":
    main()
