#!/usr/bin/python3
"""PyTorch 1.13's answers for the unit tests of the views with several outputs and of view(dtype).

Run by a maintainer: /usr/bin/python3 tools/conformance/views_expected.py prints the C++ checks
that lib/strided/tensor/views_test.cpp holds between its "generated" markers (the layouts and values of
each output, or PyTorch's error), so no expected number there is typed by hand.
"""
import math

import torch

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


def main():
    x = torch.arange(24).view(2, 3, 4)
    i32 = x.int()
    s = torch.tensor(5)
    e = torch.zeros(0, 2)
    z46, z5 = torch.zeros(4, 6), torch.zeros(5)
    print("  // generated by tools/conformance/views_expected.py")
    for py, cpp in CASES:
        try:
            r = eval(py)
        except (RuntimeError, IndexError) as err:
            msg = str(err).split("\n")[0].replace('"', '\\"')
            print(f'  CHECK_ERROR({cpp}, "{msg}");')
            continue
        if isinstance(r, (list, tuple)):
            parts = ",\n              ".join(layout(t) for t in r)
            print(f"  CHECK_VIEWS([&] {{ return {cpp}; }},\n             {{{parts}}});")
        else:
            print(f"  CHECK_VIEW([&] {{ return {cpp}; }},\n             {layout(r)});")
    print("  // end of generated")


if __name__ == "__main__":
    main()
