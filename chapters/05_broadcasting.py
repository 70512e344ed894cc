"""Chapter 5, Broadcasting and expand, in PyTorch: the PyTorch form of every listing of
docs/05_broadcasting.md (the code between `# [name]` markers, shown beside the C++ of
05_broadcasting.cpp under the same name) and of every Try it block, and the expressions whose
answers the book keeps, PyTorch's refusals among them. `tools/book record-pytorch` runs it with
torch 1.13 and writes what PyTorch answered to docs/recorded/pytorch/05_broadcasting.json; the
chapter's checks compare the library's answers with it.
"""
import itertools
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "pytorch"))
from answers import Answers, storage_of, storage_values  # noqa: E402

answers = Answers("05_broadcasting")


# ---- teaching helpers: the PyTorch forms of the C++ ones ----------------------------------------

# [expand_rule]
# expand's strides, aligned from the right: a kept size keeps its stride; a size-1
# dim grown to n > 1 gets stride 0; a new leading dim gets stride 0 when it is
# longer than 1, else the size·stride of the dim to its right; a 0-d source gets
# stride 0 everywhere. Any other change of size is an error (None here).
def expand_strides(sizes, strides, target):
    n = len(target)
    lead = n - len(sizes)  # how many dims are new
    if lead < 0:
        return None
    out = [0] * n
    if not sizes:
        return tuple(out)
    for i in reversed(range(n)):
        d = i - lead  # the source dim aligned with dim i; negative for a new dim
        size = sizes[d] if d >= 0 else 1
        out[i] = strides[d] if d >= 0 else target[i + 1] * out[i + 1]
        if size == target[i]:
            continue
        if size != 1:
            return None
        out[i] = 0
    return tuple(out)
# [expand_rule]


# [shape_rule]
# The broadcast shape: compare sizes from the right; equal sizes stay, a 1 gives way
# to the other size, a missing dim counts as 1; anything else is an error (None
# here).
def broadcast_shape(a, b):
    n = max(len(a), len(b))
    out = [0] * n
    for k in range(1, n + 1):  # k-th dim from the right
        x = a[-k] if k <= len(a) else 1
        y = b[-k] if k <= len(b) else 1
        if x != y and x != 1 and y != 1:
            return None
        out[n - k] = y if x == 1 else x
    return tuple(out)
# [shape_rule]


# [zeroed_index]
# The element a broadcast operand contributes at output index i: drop the leading
# coordinates it does not have, and read 0 wherever its size is 1.
def source_index(source_sizes, out_index):
    i = list(out_index[len(out_index) - len(source_sizes):])
    for d, size in enumerate(source_sizes):
        if size == 1:
            i[d] = 0
    return tuple(i)
# [zeroed_index]


# [equal_values]
# torch.equal itself, in PyTorch 1.13: the same shape, and every pair of elements
# equal once both are in their promoted dtype.
def equal_values(a, b):
    return torch.equal(a, b)
# [equal_values]


# ---- Stride 0 -----------------------------------------------------------------------------------
answers.group("broadcast_to")
t = torch.arange(24).reshape(1, 2, 3, 4)
# [broadcast_to]
b = t.broadcast_to((2, 2, 3, 4))  # (2,2,3,4):(0,12,4,1)
# [broadcast_to]
answers.of("t.stride()")
answers.of("t.broadcast_to((2, 2, 3, 4))", base="t")
answers.of("storage_values(b)")

answers.group("write_refused")
# [write_refused]
row = torch.zeros(3)
grid = row.expand(2, 3)  # (2,3):(0,1)
# grid.add_(1) would add 1 twice to each cell of row: refused.
# [write_refused]
answers.of("grid", base="row")
answers.of("grid.add_(1)")
answers.of("grid.mul_(2)")
answers.of("grid.copy_(torch.ones(2, 3))")
answers.of("row", name="row after the refusals")
answers.of("grid.clone().add_(1)", base="row")
grid[0, 2] = 9
answers.of("row", name="row after grid[0, 2] = 9")
answers.of("grid[1, 2].item()")

answers.group("expand_to")
# [expand_to]
row = torch.zeros(3)
grid = row.expand(2, 3)           # (2,3):(0,1)
same = grid.to(torch.float32)     # grid itself: stride 0 and all
other = grid.to(torch.float64)    # a dense copy, its own storage
# [expand_to]
answers.of("same is grid")
answers.of("same.add_(1)")
answers.of("other", base="row")
answers.of("other.add_(1)", base="row")
answers.of("grid.type_as(torch.zeros(1, dtype=torch.float64)).stride()")

answers.group("write_overlap")
# [write_overlap]
base = torch.zeros(5)
windows = base.unfold(0, 3, 1)  # (3,3):(1,1): three windows that share elements
windows.add_(1)                 # runs: each element gains 1 per window holding it
# [write_overlap]
answers.of("base", name="base after windows.add_(1)")
answers.of("windows", base="base")
twice = torch.arange(6.)
twice.unfold(0, 2, 1).mul_(2)   # an element in two windows is doubled twice
answers.of("twice", name="arange(6.) after unfold(0, 2, 1).mul_(2)")

answers.group("partial_overlap")
# [partial_overlap]
a = torch.arange(6.).view(2, 3)
# a -= a[:1] is refused: a[:1] is dense and overlaps a in part
b = torch.arange(6.).view(2, 3)
b -= b[:, :1]           # runs: b[:, :1] is not dense, and the test cannot decide
d = torch.arange(6.).view(2, 3)
d -= d[:, :1].clone()   # the copy is read, d is written: each row less its first
# [partial_overlap]
answers.of("a.sub_(a[:1])")
answers.of("b")
answers.of("d")

answers.group("expand_table")
for source, target in [("1, 3", "1, 3"), ("1, 3", "2, 3"), ("3", "1, 1, 3"), ("3", "2, 1, 3"),
                       ("3, 1", "3, 4"), ("()", "2, 3"), ("3, 1", "1, 3, 4"), ("()", "1, 1")]:
    answers.of(f"torch.zeros({source}).expand({target})")
answers.of("torch.zeros(2, 3).expand(4, 3)")

answers.group("expand_size1")
x = torch.zeros(2, 1, 3)
for expression in ["x", "x.expand(2, 1, 3)", "x.expand(4, 2, 1, 3)", "x.expand(1, 2, 1, 3)",
                   "x.expand(2, 5, 3)"]:
    answers.of(expression, base="x")

# ---- The shape rule -----------------------------------------------------------------------------
answers.group("shape_table")
for a, b in [("(1, 2)", "(2, 2)"), ("(5, 3, 4, 1)", "(3, 1, 1)"), ("(3, 4)", "(1,)"),
             ("()", "(3,)"), ("(2, 3)", "(3, 2)")]:
    answers.of(f"torch.broadcast_shapes({a}, {b})")
answers.of("torch.zeros(2, 3) + torch.zeros(3, 2)")

answers.group("column")  # the chapter's first question: a column plus a vector
col = torch.zeros(3, 1)
v = torch.zeros(3)
answers.of("col + v")
answers.of("col.squeeze(1) + v")
answers.of("col + v.unsqueeze(1)")

answers.group("zero_d")
# [zero_d]
s = torch.tensor(1.)  # shape ()
total = s + torch.ones(3)
# [zero_d]
answers.of("s + torch.ones(3)")
answers.of("s.expand(3)", base="s")
answers.of("s.expand(2, 3)", base="s")

answers.group("zero_d_any")  # r-nn's first rule (ER-30)
s = torch.tensor(3.)
answers.of("(s * torch.ones(2, 2)).shape")
answers.of("(s + s).shape")
answers.of("torch.broadcast_shapes((), (2, 2))")

# ---- Broadcasting in an op ----------------------------------------------------------------------
answers.group("zeroed_use")
a = torch.arange(6).view(2, 1, 3)
out = (4, 2, 5, 3)
view = a.expand(out)
total = a + torch.zeros(out, dtype=torch.int64)
agree = 0
for i in itertools.product(*map(range, out)):
    # [zeroed_use]
    by_index = a[source_index(a.shape, i)].item()
    by_view = view[i].item()
    # [zeroed_use]
    agree += by_index == by_view == total[i].item()
answers.of("a.expand(4, 2, 5, 3)", base="a")
answers.of("agree")

answers.group("worked")
# [worked]
a = torch.tensor([[1, 2]])
b = torch.tensor([[3, 4], [5, 6]])
c_loop = torch.zeros((2, 2), dtype=torch.result_type(a, b))
for r in range(2):
    for k in range(2):
        c_loop[r][k] = a[0][k] + b[r][k]
total = a + b
# [worked]
answers.of("a + b")
answers.of("torch.equal(a + b, c_loop)")
answers.of("a.expand_as(b)", base="a")

answers.group("mixed")
# [mixed]
total = a + b                                           # int64
c_float = torch.tensor([[4., 6.], [6., 8.]])            # float32, as torch.zeros
same = equal_values(total, c_float)                     # True
# [mixed]
answers.of("str(total.dtype)")
answers.of("str(c_float.dtype)")
answers.of("str(torch.promote_types(total.dtype, c_float.dtype))")
answers.of("same")
answers.of("equal_values(total, torch.tensor([[4., 6.], [6., 8.5]]))")
answers.of("equal_values(total, torch.tensor([4., 6., 6., 8.]))")

answers.group("seed_equal")  # r-nn's assertion, with c as the seed builds it and in a + b's dtype
c_seed = torch.zeros((2, 2))
c_typed = torch.zeros((2, 2), dtype=torch.result_type(a, b))
for c in (c_seed, c_typed):
    for r in range(2):
        for k in range(2):
            c[r][k] = a[0][k] + b[r][k]
answers.of("torch.equal(a + b, c_seed)")
answers.of("str(torch.result_type(a, b))")
answers.of("c_typed")

answers.group("one_buffer")
torch.manual_seed(5)
row = torch.rand(1, 1000)
big = torch.rand(1000, 1000)
# [one_buffer]
# PyTorch counts no allocations; the broadcast operand's view shows none is needed.
total = row + big  # row is read through a stride-0 dim
# [one_buffer]
answers.of("row.expand_as(big)", base="row")
answers.of("total")

answers.group("repeat")
# [repeat]
x = torch.arange(3)  # (3,):(1,)
e = x.expand(2, 3)   # a view
r = x.repeat(2, 1)   # a copy
# [repeat]
answers.of("e", base="x")
answers.of("r", base="x")
answers.of("x.repeat(2, 2)", base="x")
x = torch.arange(3)  # fresh ones for the writes
e, r = x.expand(2, 3), x.repeat(2, 1)
r[0, 2] = 9
answers.of("x", name="x after r[0, 2] = 9")
e[0, 2] = 9
answers.of("x", name="x after e[0, 2] = 9")
answers.of("torch.arange(6).view(2, 3).repeat(2)")
answers.of("x.repeat(-1)")

# ---- Memory order and the GPU -------------------------------------------------------------------
answers.group("stride_order")
torch.manual_seed(3)
x = torch.rand(3, 4)
e = x.view(3, 1, 4).expand(3, 5, 4)  # (3,5,4):(4,0,1)
# [stride_order]
# nikitaved's order: dims by decreasing stride (ties by dim), the last one fastest.
order = sorted(range(e.dim()), key=lambda d: -e.stride(d))
p = e.permute(order)
trace = [p[i].data_ptr() - x.data_ptr()  # bytes from the storage's base
         for i in itertools.product(*map(range, p.shape))]
# [stride_order]
answers.of("order")
answers.of("trace")

answers.group("sectors")
torch.manual_seed(9)
x = torch.rand(64)
# [sectors]
# PyTorch has no model of a warp; what the model counts is the view's addresses.
column = x.view(64, 1).expand(64, 32)  # lanes along the stride-0 dim
dense = torch.rand(64, 32)             # lanes along a stride-1 dim
lanes, sector_bytes = 32, 32           # a warp; the unit memory serves
def sectors(t):  # the distinct sectors of each request: one request, one row
    base = t.data_ptr()
    return [len({(e.data_ptr() - base) // sector_bytes for e in row}) for row in t]
# [sectors]
answers.of("column", base="x")
answers.of("len(sectors(column))")
answers.of("sum(sectors(column)) / len(sectors(column))")
answers.of("max(sectors(column))")
answers.of("sum(sectors(dense)) / len(sectors(dense))")

# ---- NumPy beside PyTorch -----------------------------------------------------------------------
answers.group("numpy_broadcast")
# [numpy_broadcast]
a = np.arange(3)                 # int64: strides (8,), in bytes
nb = np.broadcast_to(a, (2, 3))  # strides (0, 8), and read-only
# nb[0, 2] = 9 is refused: "assignment destination is read-only"
t = torch.arange(3)
e = t.expand(2, 3)               # stride() (0, 1), in elements
e[0, 2] = 9                      # allowed: one cell, so t[2] is 9 now
# e.add_(1) is refused: it would write each cell of t twice
# [numpy_broadcast]


def np_write(array):
    array[0, 2] = 9


answers.of("nb.strides")
answers.of("nb.flags.writeable")
answers.of("np_write(nb)")
answers.of("[s * e.element_size() for s in e.stride()]")
answers.of("t", name="t after e[0, 2] = 9")
answers.of("e.add_(1)")

# ---- Exercises ----------------------------------------------------------------------------------
answers.group("exercises")
answers.of("torch.zeros(4, 1, 3) + torch.zeros(2, 1)")
x4 = torch.arange(4.)
answers.of("x4.view(4, 1).expand(2, 4, 5)", base="x4")
a5 = torch.ones(2, 3)
a5 += torch.arange(3.)
answers.of("a5")
b5 = torch.arange(3.)
answers.of("b5.__iadd__(torch.ones(2, 3))")
answers.of("b5", name="b5 after the refusal")
x6 = torch.arange(3.)
e6 = x6.expand(1000, 3)
answers.of("e6", base="x6", values=False)
answers.of("e6.contiguous()", base="x6", values=False)
answers.of("storage_of(e6.contiguous()).nbytes()")
answers.of("torch.zeros(2, 3).expand(2, 2, 3)")
answers.of("torch.zeros(2, 3).expand(3, 3)")

# ---- Try it -------------------------------------------------------------------------------------
answers.tryit("arange(3).view(3, 1).expand(3, 4)", "torch.arange(3).view(3, 1).expand(3, 4)")
answers.tryit("tensor(1.).expand(2, 3)", "torch.tensor(1.).expand(2, 3)")
answers.tryit("tensor([[1, 2]]).expand(2, 2)", "torch.tensor([[1, 2]]).expand(2, 2)")

if __name__ == "__main__":
    answers.main()
