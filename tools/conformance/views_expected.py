#!/usr/bin/python3
"""PyTorch 2.6's answers for the unit tests of the views with several outputs and of view(dtype).

Run by a maintainer: python3 tools/conformance/views_expected.py prints the C++ checks
that lib/strided/tensor/views_test.cpp holds between its "generated" markers (the layouts and values of
each output, or PyTorch's error), so no expected number there is typed by hand. With
--reanswer lib/strided/tensor/views_test.cpp, run by PyTorch 2.6 (generate.py says how), a check
whose 1.13 answer (the committed one) differs is printed under that answer, kept as a comment
"// PyTorch 1.13: CHECK_...", so that the test shows the difference (answers.py).
"""
import argparse
import math

import torch

from answers import TORCH_1_13

# (torch expression, C++ expression): x = arange(24).view(2, 3, 4) (int64) in both; i32 is x as
# int32, s a 0-d int64 tensor, e an empty (0, 2) float32 tensor, z46 and z5 zeros of shapes (4, 6)
# and (5,).
CASES = [
    ("x.split(2, -1)", "x.split(2, -1)"),
    ("x.split(2)", "x.split(2)"),
    ("x.split(5, 2)", "x.split(5, 2)"),
    ("x.split(3, 2)", "x.split(3, 2)"),
    ("e.split(0)", "e.split(0)"),
    ("x.split(0)", "x.split(0)"),
    ("x.split(-1)", "x.split(-1)"),
    ("x.split(-1, 5)", "x.split(-1, 5)"),
    ("x.split(0, 5)", "x.split(0, 5)"),
    ("s.split(1)", "s.split(1)"),
    ("x.split_with_sizes([1, 2], 1)", "x.split_with_sizes({1, 2}, 1)"),
    ("x.split_with_sizes([0, 4, 0], -1)", "x.split_with_sizes({0, 4, 0}, -1)"),
    ("x.split_with_sizes([1, 1], 1)", "x.split_with_sizes({1, 1}, 1)"),
    ("x.split_with_sizes([1, -1, 3], 1)", "x.split_with_sizes({1, -1, 3}, 1)"),
    ("x.split_with_sizes([5, 1], 1)", "x.split_with_sizes({5, 1}, 1)"),
    ("x.chunk(2, 1)", "x.chunk(2, 1)"),
    ("x.chunk(3, 2)", "x.chunk(3, 2)"),
    ("x.chunk(5, 2)", "x.chunk(5, 2)"),
    ("e.chunk(3)", "e.chunk(3)"),
    ("x.chunk(0)", "x.chunk(0)"),
    ("s.chunk(1)", "s.chunk(1)"),
    ("x.unbind(1)", "x.unbind(1)"),
    ("x.unbind(-1)", "x.unbind(-1)"),
    ("e.unbind(0)", "e.unbind(0)"),
    ("x.unbind(3)", "x.unbind(3)"),
    ("s.unbind()", "s.unbind()"),
    ("s.unbind(-1)", "s.unbind(-1)"),
    ("x.tensor_split(3, 2)", "x.tensor_split(3, 2)"),
    ("x.tensor_split(5, 2)", "x.tensor_split(5, 2)"),
    ("x.tensor_split(0, 2)", "x.tensor_split(0, 2)"),
    ("x.tensor_split(0, 5)", "x.tensor_split(0, 5)"),
    ("x.tensor_split([1, 3], 2)", "x.tensor_split({1, 3}, 2)"),
    ("x.tensor_split([3, 1], 2)", "x.tensor_split({3, 1}, 2)"),
    ("x.tensor_split([-1, 9], 2)", "x.tensor_split({-1, 9}, 2)"),
    ("x.tensor_split([], 0)", "x.tensor_split(IntList{}, 0)"),
    ("s.tensor_split(1)", "s.tensor_split(1)"),
    ("x.hsplit(3)", "x.hsplit(3)"),
    ("x.hsplit([1])", "x.hsplit({1})"),
    ("x.hsplit([5, 1])", "x.hsplit({5, 1})"),
    ("x.hsplit(2)", "x.hsplit(2)"),
    ("x[0, 0].hsplit(2)", "x.select(0, 0).select(0, 0).hsplit(2)"),
    ("x[0, 0].hsplit(-2)", "x.select(0, 0).select(0, 0).hsplit(-2)"),
    ("x[0, 0].hsplit(0)", "x.select(0, 0).select(0, 0).hsplit(0)"),
    ("s.hsplit(1)", "s.hsplit(1)"),
    ("x.vsplit(2)", "x.vsplit(2)"),
    ("x.vsplit([1])", "x.vsplit({1})"),
    ("x[0, 0].vsplit(2)", "x.select(0, 0).select(0, 0).vsplit(2)"),
    ("x.dsplit(2)", "x.dsplit(2)"),
    ("x.dsplit([1, 5])", "x.dsplit({1, 5})"),
    ("x.dsplit(3)", "x.dsplit(3)"),
    ("x[0].dsplit(2)", "x.select(0, 0).dsplit(2)"),
    # view(dtype): every pair of the library's dtypes, on a tensor whose last dim allows it, and
    # each of PyTorch's refusals.
    ("i32.view(torch.int64)", "i32.view(DType::Int64)"),
    ("x.view(torch.int32)", "x.view(DType::Int32)"),
    ("x[:, 1:].view(torch.int32)", "x.slice(1, 1).view(DType::Int32)"),
    ("x.view(torch.bool)", "x.view(DType::Bool)"),
    ("x.view(torch.float64)", "x.view(DType::Float64)"),
    ("i32.view(torch.float32)", "i32.view(DType::Float32)"),
    ("i32.view(torch.float16)", "i32.view(DType::Float16)"),
    ("i32[:, :, :2].view(torch.int64)", "i32.slice(2, 0, 2).view(DType::Int64)"),
    ("i32[:, 1:, 2:].view(torch.int64)", "i32.slice(1, 1).slice(2, 2).view(DType::Int64)"),
    ("i32.expand(2, 2, 3, 4).view(torch.int64)", "i32.expand({2, 2, 3, 4}).view(DType::Int64)"),
    ("i32[:, :, :3].view(torch.int64)", "i32.slice(2, 0, 3).view(DType::Int64)"),
    ("i32[:, :, 1:3].view(torch.int64)", "i32.slice(2, 1, 3).view(DType::Int64)"),
    ("i32[:, :, ::2].view(torch.int64)", "i32.slice(2, 0, std::nullopt, 2).view(DType::Int64)"),
    ("i32.as_strided((2, 2), (3, 1)).view(torch.int64)",
     "i32.as_strided({2, 2}, {3, 1}).view(DType::Int64)"),
    ("x[:, :, ::2].view(torch.int32)", "x.slice(2, 0, std::nullopt, 2).view(DType::Int32)"),
    ("s.view(torch.int32)", "s.view(DType::Int32)"),
    ("s.view(torch.float64)", "s.view(DType::Float64)"),
    # The other spellings.
    ("x.swapaxes(0, 2)", "x.swapaxes(0, 2)"),
    ("x.swapdims(0, -1)", "x.swapdims(0, -1)"),
    ("x.swapaxes(0, 3)", "x.swapaxes(0, 3)"),
    ("x.moveaxis(0, 2)", "x.moveaxis(0, 2)"),
    ("x.moveaxis((0, 1), (2, 0))", "x.moveaxis({0, 1}, {2, 0})"),
    ("x.reshape_as(z46)", "x.reshape_as(z46)"),
    ("x.reshape_as(z5)", "x.reshape_as(z5)"),
    ("torch.atleast_1d(s)", "atleast_1d(s)"),
    ("torch.atleast_2d(s)", "atleast_2d(s)"),
    ("torch.atleast_3d(s)", "atleast_3d(s)"),
    ("torch.atleast_2d(x[0, 0, ::2])", "atleast_2d(x.select(0, 0).select(0, 0).slice(0, 0, std::nullopt, 2))"),
    ("torch.atleast_3d(x[0, 0])", "atleast_3d(x.select(0, 0).select(0, 0))"),
    ("torch.atleast_3d(x[0].t())", "atleast_3d(x.select(0, 0).t())"),
    ("torch.atleast_3d(x)", "atleast_3d(x)"),
    ("torch.atleast_1d(x[0])", "atleast_1d(x.select(0, 0))"),
    ("x.detach()", "x.detach()"),
    ("torch.ops.aten.alias(x)", "x.alias()"),
    ("s.mT", "s.mT()"),
]


def cpp_list(v):
    return "{" + ", ".join(str(int(i)) for i in v) + "}"


def cpp_values(t):
    flat = t.reshape(-1).tolist() if t.dim() else [t.item()]
    out = []
    for v in flat:
        v = float(v)
        assert math.isfinite(v), v
        out.append(repr(v) if v != int(v) or abs(v) >= 2**53 else str(int(v)))
    return "{" + ", ".join(out) + "}"


def layout(t):
    return "{" + ", ".join([cpp_list(t.shape), cpp_list(t.stride()), str(t.storage_offset()),
                            cpp_values(t)]) + "}"


def statements():
    """One C++ statement per case of CASES, in order: its layouts, or PyTorch's error."""
    x = torch.arange(24).view(2, 3, 4)
    scope = {"torch": torch, "x": x, "i32": x.int(), "s": torch.tensor(5), "e": torch.zeros(0, 2),
             "z46": torch.zeros(4, 6), "z5": torch.zeros(5)}
    for py, cpp in CASES:
        try:
            r = eval(py, scope)
        except (RuntimeError, IndexError) as err:
            msg = str(err).split("\n")[0].replace('"', '\\"')
            yield f'  CHECK_ERROR({cpp}, "{msg}");'
            continue
        if isinstance(r, (list, tuple)):
            parts = ",\n              ".join(layout(t) for t in r)
            yield f"  CHECK_VIEWS([&] {{ return {cpp}; }},\n             {{{parts}}});"
        else:
            yield f"  CHECK_VIEW([&] {{ return {cpp}; }},\n             {layout(r)});"


def committed_1_13(path):
    """PyTorch 1.13's statement for each case in the generated block of path: the one kept in a
    "// PyTorch 1.13:" comment where there is one, else the statement itself."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    block = text[text.index(BEGIN) + len(BEGIN):text.index(END)].strip("\n").split("\n")
    entries, kept, replaced = [], [], False
    for row in block:
        if row.startswith(OLD):
            kept = ["  " + row[len(OLD):]]
        elif row.startswith(OLD_MORE):
            kept.append("  " + row[len(OLD_MORE):])
        elif row.startswith("  CHECK_"):
            replaced = bool(kept)
            entries.append(kept or [row])
            kept = []
        elif not replaced:
            entries[-1].append(row)
    return ["\n".join(e) for e in entries]


BEGIN, END = "  // generated by tools/conformance/views_expected.py\n", "  // end of generated"
OLD, OLD_MORE = "  // PyTorch 1.13: ", "  //                "


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reanswer", metavar="FILE",
                        help="views_test.cpp: keep its 1.13 statements where they differ")
    args = parser.parse_args()
    old = committed_1_13(args.reanswer) if args.reanswer and not TORCH_1_13 else None
    print(BEGIN, end="")
    for i, statement in enumerate(statements()):
        if old is not None and old[i] != statement:
            lines = old[i].split("\n")
            print(OLD + lines[0][2:])
            for rest in lines[1:]:
                print(OLD_MORE + rest[2:])
        print(statement)
    print(END)


if __name__ == "__main__":
    main()
