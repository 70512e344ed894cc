"""Chapter 4, Indexing, reshape and view(), in PyTorch: the PyTorch form of every listing of
docs/04_indexing.md (the code between `# [name]` markers, shown beside the C++ of 04_indexing.cpp
under the same name) and of every Try it block, and the expressions whose answers the book keeps,
PyTorch's refusals among them. `tools/book record-pytorch` runs it with torch 1.13 and writes what
PyTorch answered to docs/recorded/pytorch/04_indexing.json; the chapter's checks compare the
library's answers with it.
"""
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "pytorch"))
from answers import Answers  # noqa: E402

answers = Answers("04_indexing")


# ---- teaching helpers: the PyTorch forms of the C++ ones ----------------------------------------

# [strides_from_values]
# For a view of arange(n), each element's value is its storage index, so the stride
# of dim k is the difference between the first element and its neighbour along k.
def strides_from_values(v):
    first = (0,) * v.dim()
    strides = []
    for k in range(v.dim()):
        neighbour = first[:k] + (1,) + first[k + 1:]
        strides.append((v[neighbour] - v[first]).item())
    return tuple(strides)
# [strides_from_values]


# [normalize]
# Python's slice.indices, which PyTorch's slicing follows (for step > 0): a negative
# bound counts from the end, then both bounds are clamped to [0, size]. The slice
# then has len(range(start, stop, step)) elements, counted after the normalisation.
def normalize(start, stop, step, size):
    start, stop, step = slice(start, stop, step).indices(size)
    return start, stop, len(range(start, stop, step))
# [normalize]


# [runs]
# The runs of a layout: maximal groups of adjacent dims that walk memory as one dim
# would, because stride[i] == size[i+1] * stride[i+1]. A run is its element count
# and its innermost stride. A dim of size 1 never breaks a run: it has no second
# element to step to.
def runs(sizes, strides):
    out = []  # innermost run first
    for d in reversed(range(len(sizes))):
        if sizes[d] == 1:
            continue
        if out and strides[d] == out[-1][0] * out[-1][1]:
            out[-1][0] *= sizes[d]
        else:
            out.append([sizes[d], strides[d]])
    return [tuple(r) for r in reversed(out)]
# [runs]


# [split_runs]
# The view rule: read the new shape from the right and cut it into groups, one per
# run, each group multiplying to its run's element count; a group splits its run
# with row-major strides scaled by the run's stride. No such cut, no view (None).
# Size-1 dims fit anywhere; their stride is never used, so they get 0 here (PyTorch
# gives them a value of its own).
def split_runs(sizes, strides, new_sizes):
    todo = runs(sizes, strides)
    out = [0] * len(new_sizes)
    filled = 1  # elements of the innermost unfinished run already covered
    for d in reversed(range(len(new_sizes))):
        if new_sizes[d] == 1:
            continue
        if not todo:
            return None
        out[d] = filled * todo[-1][1]
        filled *= new_sizes[d]
        if todo[-1][0] % filled != 0:
            return None  # the group straddles two runs
        if filled == todo[-1][0]:
            todo.pop()
            filled = 1
    return None if todo else tuple(out)
# [split_runs]


# [reproduce]
# What a view must do, stated without any rule: the view's elements, in row-major
# order, sit at the same storage offsets as the tensor's. Some strides do that for
# the new shape exactly when the strides read off the first neighbours reproduce
# every offset.
def strides_reproducing(offsets, new_sizes):
    n = len(new_sizes)
    place = [1] * n  # place[d]: the row-major index step of dim d
    for d in reversed(range(n - 1)):
        place[d] = place[d + 1] * new_sizes[d + 1]
    strides = [offsets[place[d]] - offsets[0] if new_sizes[d] > 1 else 0
               for d in range(n)]
    for flat, offset in enumerate(offsets):
        at = offsets[0] + sum(flat // place[d] % new_sizes[d] * strides[d]
                              for d in range(n))
        if at != offset:
            return None
    return tuple(strides)
# [reproduce]


# ---- An integer index ---------------------------------------------------------------------------
answers.group("last_index")
# [last_index]
t = torch.arange(24).reshape(1, 2, 3, 4)
v = t[:, :, :, 2]
# [last_index]
answers.of("t[:, :, :, 2]", base="t")
answers.of("t[:, :, :, -1]", base="t")
answers.of("t.stride()")

answers.group("another_t")
# [another_t]
another_t = torch.arange(48).reshape(2, 2, 3, 4)
w = another_t[:, :, :, 2]
# [another_t]
answers.of("another_t[:, :, :, 2]", base="another_t")
# martinlwx's printed outputs (ER-18): PyTorch's own print of v, and of its reshape's shape
answers.of("str(v)")
answers.of("str(v.reshape(3, 2).shape)")

answers.group("read_strides")
v = another_t[:, :, :, 2]
# [read_strides]
read = strides_from_values(v)  # (24, 12, 4), as v.stride()
# [read_strides]
answers.of("read")
answers.of("v.stride()")

# ---- Several items, one at a time ---------------------------------------------------------------
answers.group("composite")
# [composite]
x = torch.arange(72).reshape(3, 4, 6)  # strides (24, 6, 1)
y = x[2, 1:3, 1:6:3]
# The same, one item at a time: each item acts on its own dim.
z = x[2][1:3][:, 1:6:3]
# [composite]
answers.of("x[2]", base="x")
answers.of("x[2, 1:3]", base="x")
answers.of("x[2, 1:3, 1:6:3]", base="x")
answers.of("x[2][1:3][:, 1:6:3]", base="x")
small = torch.arange(24).reshape(2, 3, 4)  # the steps figure's smaller case
answers.of("small[1, 1:, ::2]", base="small")

answers.group("out_of_range")  # the article's own tensors (ER-19)
answers.of("t[2, 1:3, 1:6:3]")
answers.of("another_t[2, 1:3, 1:6:3]")

answers.group("clamp")
torch.manual_seed(7)
# [clamp]
x = torch.rand(20, 20, 20)
a = x[0:100]
b = x[-5:]
# [clamp]
answers.of("x[0:100]", base="x")
answers.of("x[-5:]", base="x")

answers.group("normalize")
# PyTorch's slice of a 20-long dim against Python's slice.indices, for starts and stops from -25
# to 25 in steps of 5 and steps 1 to 4: each slice's length and storage offset
line = torch.arange(20)
bounds = range(-25, 26, 5)
slices = [(line[a:b:s].numel(), line[a:b:s].storage_offset() if line[a:b:s].numel() else None)
          for s in range(1, 5) for a in bounds for b in bounds]
answers.of("slices", name="[(line[a:b:s].numel(), line[a:b:s].storage_offset()) ...]")

# ---- When a new shape can be a view -------------------------------------------------------------
answers.group("reshape_view")
t = torch.arange(24).reshape(1, 2, 3, 4)
# [reshape_view]
v = t[:, :, :, 2]    # (1,2,3):(24,12,4)
r = runs(v.shape, v.stride())  # one run: 6 elements, step 4
m = v.reshape(3, 2)  # (3,2):(8,4), a view
# [reshape_view]
answers.of("v.reshape(3, 2)", base="t")
answers.of("v.view(3, 2)", base="t")

answers.group("more_views")
base = torch.arange(24).reshape(2, 3, 4)
# [more_views]
e2 = base[:, :, ::2]  # (2,3,2):(12,4,2)
e3 = base[:, :, ::3]  # (2,3,2):(12,4,3)
col = torch.arange(3).view(3, 1).expand(3, 4)  # (3,4):(1,0)
# [more_views]
for expression in ["e2", "e2.view(6, 2)", "e2.view(2, 6)", "e2.view(12)", "e3", "e3.view(12)",
                   "e3.reshape(12)"]:
    answers.of(expression, base="base")
for expression in ["col", "col.view(3, 2, 2)", "col.view(12)", "col.reshape(12)"]:
    answers.of(expression, base="col")

answers.group("t_view")
# [t_view]
x = torch.arange(9).reshape(3, 3)
xt = x.t()  # (3,3):(1,3)
# xt.view(1, -1) raises: view size is not compatible with input tensor's size ...
flat = xt.reshape(1, -1)  # a copy
# [t_view]
answers.of("x.t().view(1, -1)")
answers.of("x.t().reshape(1, -1)", base="x")
answers.of("x.reshape(1, -1)", base="x")

answers.group("contract")
x = torch.arange(24).view(2, 3, 4)[:, :, ::2]
shape = (3, 4)
# [contract]
# PyTorch counts no allocations; _base tells a view from a copy: a view
# keeps the tensor its chain of views began with, and x is such a view.
r = x.reshape(shape)
shared = r._base is not None and r._base is x._base
# [contract]
answers.of("shared")

# ---- A worked case: multi-head attention --------------------------------------------------------
answers.group("attention")
# [attention]
B, T, H, D = 2, 3, 2, 4  # batch, tokens, heads, head size
q = torch.arange(B * T * H * D, dtype=torch.float32).view(B, T, H * D)
heads = q.view(B, T, H, D).transpose(1, 2)  # (B, H, T, D): a view of q
scores = heads @ heads.transpose(2, 3)      # q·kᵀ, here with k = q
out = scores @ heads                        # (B, H, T, D): new
back = out.transpose(1, 2)                  # (B, T, H, D): a view
# back.view(B, T, H * D) raises: view size is not compatible ...
merged = back.contiguous().view(B, T, H * D)  # copy, then view
reshaped = back.reshape(B, T, H * D)          # the same copy
# [attention]
answers.of("q")
answers.of("q.view(B, T, H, D)", base="q")
answers.of("heads", base="q")
answers.of("scores")
answers.of("out")
answers.of("back", base="out")
answers.of("back.view(B, T, H * D)")
answers.of("back.contiguous()", base="out")
answers.of("merged", base="out")
answers.of("reshaped", base="out")
answers.of("torch.equal(merged, reshaped)")

# ---- Basic and advanced indexing ----------------------------------------------------------------
answers.group("slice_range")
torch.manual_seed(13)
x = torch.rand(20, 20, 20)
# [slice_range]
y_slice = x[0:5]
y_range = x[range(0, 5)]
equal_before = torch.equal(y_slice, y_range)
old = x[0, 0, 0].item()
x[0, 0, 0] = 10.0
# [slice_range]
answers.of("equal_before")
answers.of("y_slice[0, 0, 0].item()")
answers.of("y_range[0, 0, 0].item() == old")
answers.of("y_slice", base="x")
answers.of("y_range", base="x")

answers.group("index_kinds")
x = torch.arange(24).view(2, 3, 4)
for expression in ["x[1]", "x[:, 1:3]", "x[1, :, ::2]", "x[None]", "x[..., 2]", "x[[1]]",
                   "x[:, range(0, 2)]", "x[:, [True, False, True]]"]:
    answers.of(expression, base="x")

answers.group("tensor_index")
x = torch.arange(24).view(2, 3, 4)
answers.of("x[torch.tensor(1)]", base="x")    # a 0-d integer tensor: an integer, a view
answers.of("x[torch.tensor([1])]", base="x")  # one element, but a sequence: a copy

answers.group("index_put")
# [index_put]
x = torch.arange(6).view(3, 2)
y = x[[0, 2]]  # reading x[[0, 2]]: a copy
before = x.data_ptr()
# Writing x[[0, 2]] = v is index_put_: it writes v's rows into x's own storage.
v = torch.tensor([[-1, -1], [-2, -2]])
x.index_put_((torch.tensor([0, 2]),), v)  # x[[0, 2]] = v
# [index_put]
answers.of("y", base="x")
answers.of("x")
answers.of("x.data_ptr() == before")

answers.group("chained")
# [chained]
mask = torch.tensor([True, False, True])
x = torch.zeros(3, 2)
x[mask][:, 0] = 1   # x[mask] reads: a copy, which the write then changes
y = torch.zeros(3, 2)
y[mask, 0] = 1      # one index_put_ on y: written
z = torch.zeros(3, 2)
z[:, 0][mask] = 1   # z[:, 0] is a view; [mask] = 1 is index_put_ on it: written
# [chained]
answers.of("x")
answers.of("y")
answers.of("z")

answers.group("row_col")
T = torch.tensor([[1, 2, 3], [4, 5, 6]])
answers.of("T[1, :]", base="T")
answers.of("T[:, 1]", base="T")

# ---- NumPy and PyTorch: who owns the memory -----------------------------------------------------
answers.group("numpy_base")
a = np.zeros((3, 4))
x = torch.zeros(3, 4)
for expression in ["a[::2].base is a", "np.shares_memory(a[::2], a)", "x[::2]._base is x",
                   "a[::2][:, 1:].base is a", "np.shares_memory(a[::2][:, 1:], a)",
                   "x[::2][:, 1:]._base is x",
                   "a[[0, 2]].base is None", "np.shares_memory(a[[0, 2]], a)",
                   "x[[0, 2]]._base is None",
                   "a.T.reshape(-1).base is a", "np.shares_memory(a.T.reshape(-1), a)",
                   "x.t().reshape(-1)._base is None", "a.T.reshape(-1).base is None"]:
    answers.of(expression)

# ---- Exercises ----------------------------------------------------------------------------------
answers.group("exercises")
x = torch.arange(24).view(4, 6)
answers.of("x[1::2, 2::2]", base="x")
answers.of("x.as_strided((2, 2), (12, 2), 8)", base="x")
x = torch.arange(12).view(3, 4)
answers.of("x.t().view(2, 2, 3)", base="x")
answers.of("x.t().view(12)")
B, T, H, D = 2, 1, 2, 4
out1 = torch.arange(B * H * T * D, dtype=torch.float32).view(B, H, T, D)
answers.of("out1.transpose(1, 2)", base="out1")
answers.of("out1.transpose(1, 2).view(B, 1, H * D)", base="out1")
for expression in ["x[1:3]", "x[[1, 2]]", "x[:, 0:4:2]", "x[:, range(0, 4, 2)]"]:
    answers.of(expression, base="x")
x = torch.arange(24).view(2, 3, 4)
answers.of("x[1, :, 1::2]", base="x")

# ---- Try it -------------------------------------------------------------------------------------
answers.tryit("arange(24).reshape(1, 2, 3, 4)[:, :, :, 2]",
              "torch.arange(24).reshape(1, 2, 3, 4)[:, :, :, 2]")
answers.tryit("arange(72).reshape(3, 4, 6)[2, 1:3, 1:6:3]",
              "torch.arange(72).reshape(3, 4, 6)[2, 1:3, 1:6:3]")
answers.tryit("arange(24).reshape(2, 3, 4)[:, :, ::2].view(12)",
              "torch.arange(24).reshape(2, 3, 4)[:, :, ::2].view(12)")
answers.tryit("arange(9).reshape(3, 3).t().reshape(1, -1)",
              "torch.arange(9).reshape(3, 3).t().reshape(1, -1)")
answers.tryit("arange(24).reshape(2, 3, 4)[:, [0, 2]]",
              "torch.arange(24).reshape(2, 3, 4)[:, [0, 2]]")

if __name__ == "__main__":
    answers.main()
