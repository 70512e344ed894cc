"""Chapter 2, Views, in PyTorch: the PyTorch form of every listing of docs/02_views.md (the
code between `# [name]` markers, shown beside the C++ of 02_views.cpp under the same name) and
of every Try it block, and the expressions whose answers the book keeps. `tools/book
record-pytorch` runs it with torch 1.13 and writes what PyTorch answered to
docs/recorded/pytorch/02_views.json; the chapter's checks compare the library's answers with it.
"""
import itertools
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "pytorch"))
from answers import Answers  # noqa: E402

answers = Answers("02_views")


def is_dense(t):
    """PyTorch's is_non_overlapping_and_dense, which Python does not expose: the C++ rule of
    c10/core/Contiguity.h (_compute_non_overlapping_and_dense) restated. Some order of the dims
    of size 2 or more, by stride, makes the tensor contiguous."""
    if t.dim() == 1:
        return t.size(0) < 2 or t.stride(0) == 1
    dims = sorted((d for d in range(t.dim()) if t.size(d) >= 2), key=t.stride)
    step = 1
    for d in dims:
        if t.stride(d) != step:
            return False
        step *= t.size(d)
    return True


# ---- What a view is -----------------------------------------------------------------------------
answers.group("is_view_of")
# [is_view_of]
t = torch.arange(24).view(2, 3, 4)
results = {
    "t[0, 2, 2]": t[0, 2, 2],
    "t[:, 1:3, ::2]": t[:, 1:3, ::2],
    "t.permute(2, 0, 1)": t.permute(2, 0, 1),
    "t[0].diagonal()": t[0].diagonal(),
    "t[:, :1].expand(2, 5, 4)": t[:, :1].expand(2, 5, 4),
    "t.reshape(6, 4)": t.reshape(6, 4),
    "t[:, [0, 2]]": t[:, [0, 2]],
    "t.transpose(0, 2).contiguous()": t.transpose(0, 2).contiguous(),
    "t.to(torch.float32)": t.to(torch.float32),
}
# PyTorch has no is_view_of: compare the storages. PyTorch 2 names a
# tensor's storage untyped_storage(); 1.13 has only storage().
def storage_of(t):
    if hasattr(t, "untyped_storage"):
        return t.untyped_storage()
    return t.storage()


shares = {name: storage_of(r).data_ptr() == storage_of(t).data_ptr()
          for name, r in results.items()}
# [is_view_of]
for name in results:
    answers.of(name, base="t")
    answers.of(f"is_dense(results[{name!r}])", name=f"{name}: non-overlapping and dense")

answers.group("view_or_copy")
x = torch.arange(24).view(4, 6)
for op in ["x[1]", "x[:, 1:5:2]", "x.t()", "x.diagonal()", "x[:1].expand(3, 6)", "x.view(2, 12)",
           "x.reshape(3, 8)", "x.t().reshape(24)", "x.contiguous()", "x.t().contiguous()",
           "x[[0, 1]]", "x.flip(0)", "x.to(torch.int64)", "x.to(torch.float32)", "x.clone()"]:
    answers.of(op, base="x")
answers.of("x.contiguous() is x")
answers.of("x.to(torch.int64) is x")

answers.group("in_place")
# [in_place]
x = torch.zeros(3)
y = x.add_(1)
# [in_place]
answers.of("y is x")
answers.of("x")

answers.group("save_memory")
# [save_memory]
X, Y = torch.ones(1000), torch.zeros(1000)
before = Y.data_ptr()
Y = Y + X          # a new tensor: Y's name now points at fresh storage
rebound = Y.data_ptr() != before
before = Y.data_ptr()
Y += X             # in place: Y's own storage, no new tensor
Y[:] = X + Y       # X + Y is a new tensor, copied into Y's storage
kept = Y.data_ptr() == before
# [save_memory]
answers.of("rebound")
answers.of("kept")
answers.of("Y[:3]")

# ---- What a view costs --------------------------------------------------------------------------
answers.group("no_reads")
# [untouchable]
# PyTorch's nearest thing: a tensor on the "meta" device has sizes,
# strides, a storage offset and a dtype but no memory at all, so an op
# on it computes metadata alone.
def untouchable(*sizes, dtype=torch.float32):
    return torch.empty(*sizes, dtype=dtype, device="meta")
# [untouchable]


# [no_reads]
t = untouchable(4, 5, 6)  # no element to read: it has no memory
views = {
    "t[1, 2, 3]": t[1, 2, 3],
    "t[:, 1:5:2]": t[:, 1:5:2],
    "t.permute(2, 0, 1)": t.permute(2, 0, 1),
    "t.transpose(0, 1)": t.transpose(0, 1),
    "t[0].diagonal()": t[0].diagonal(),
    "t[:, :1].expand(4, 7, 6)": t[:, :1].expand(4, 7, 6),
    "t.view(20, 6)": t.view(20, 6),
    "t.unsqueeze(0)": t.unsqueeze(0),
}
layouts = {name: (tuple(v.shape), v.stride(), v.storage_offset())
           for name, v in views.items()}
# [no_reads]
for name in views:
    answers.of(name)

answers.group("cost")


# [cost]
def chain(t):
    return t.t()[:, ::2].unsqueeze(0).squeeze(1)  # no element is read


small = untouchable(1, 1, dtype=torch.float16)     # 1 element
big = untouchable(2**26, 1, dtype=torch.float16)   # 2^26 elements
a, b = chain(small), chain(big)
# [cost]
answers.of("a", name="t.t()[:, ::2].unsqueeze(0).squeeze(1), n = 1")
answers.of("b", name=f"t.t()[:, ::2].unsqueeze(0).squeeze(1), n = {2**26}")
answers.of("a.squeeze((0, 1))")  # several dims at once arrived in 2.0: 1.13 refuses them

answers.group("chain")
# [chain]
x = torch.arange(24)
y = (x.view(2, 3, 4)        # a compatible reshape
      .permute(2, 0, 1)     # (4, 2, 3)
      [1]                   # basic indexing: (2, 3)
      .unsqueeze(0)
      .expand(5, 2, 3))     # broadcasting: (5, 2, 3)
# [chain]
answers.of("x.view(2, 3, 4).permute(2, 0, 1)[1].unsqueeze(0).expand(5, 2, 3)", base="x")

# ---- One element --------------------------------------------------------------------------------
answers.group("element")
# [element]
x = torch.arange(24).reshape(2, 3, 4)
y = x[0, 2, 2]
bytes_in = y.data_ptr() - x.data_ptr()
expected = x.element_size() * (0 * x.stride(0) + 2 * x.stride(1) + 2 * x.stride(2))
# [element]
answers.of("x[0, 2, 2]", base="x")
answers.of("bytes_in")

answers.group("element_write")
# [element_write]
x = torch.arange(24).reshape(2, 3, 4)
x[0, 2, 2].fill_(-1)
# [element_write]
answers.of("x")

# ---- Slicing ------------------------------------------------------------------------------------
answers.group("slices")


# [slice_rule]
# x[..., start:stop:step, ...] on dim d, computed from x's metadata alone
# (step > 0, bounds within the dim).
def slice_by_hand(x, d, start, stop, step):
    sizes, strides = list(x.shape), list(x.stride())
    sizes[d] = (stop - start + step - 1) // step  # ⌈(stop − start) / step⌉
    strides[d] *= step
    return sizes, strides, x.storage_offset() + start * x.stride(d)
# [slice_rule]


x = torch.rand(20, 30, 40)
answers.of("x[2:15:3, :, :]", base="x")
answers.of("x[:, 2:15:3, :]", base="x")
answers.of("x[:, :, 2:15:3]", base="x")

answers.group("slice_shares")
# [slice_shares]
x = torch.rand(20, 20, 20)
y = x[0:5]
x[0, 0, 0] = 10.0
# [slice_shares]
answers.of("y[0, 0, 0].item()")

# ---- Permuting dims -----------------------------------------------------------------------------
answers.group("permutes")
x = torch.arange(24).view(2, 3, 4)
for p in [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]:
    answers.of(f"x.permute{p}", base="x")

answers.group("permute_size1")
# [permute_size1]
t = torch.arange(24).reshape(1, 2, 3, 4)
p = t.permute(1, 2, 3, 0)
# [permute_size1]
answers.of("t.permute(1, 2, 3, 0)", base="t")

answers.group("seed_formula")
# [seed_formula]
t = torch.arange(24).view(2, 3, 4)
pi = (1, 2, 0)
# The notebook's formula, element by element:
# res[i0, i1, i2] = t[i_π(0), i_π(1), i_π(2)], where i_π(k) runs over t's dim k.
sizes = [0, 0, 0]
for k in range(3):
    sizes[pi[k]] = t.shape[k]
res = torch.empty(sizes, dtype=t.dtype)
for i in itertools.product(*map(range, sizes)):
    res[i] = t[i[pi[0]], i[pi[1]], i[pi[2]]]
# [seed_formula]
answers.of("res")
answers.of("t.permute(2, 0, 1)", base="t")  # permute by π⁻¹ = (2, 0, 1): the formula's tensor
answers.of("t.permute(1, 2, 0)", base="t")

# ---- The diagonal -------------------------------------------------------------------------------
answers.group("diagonals")
# [diagonal]
x = torch.arange(125).view(5, 5, 5)
diagonals = []  # (p, matrix, its diagonal)
for p in itertools.permutations(range(3)):
    y = x.permute(*p)[..., 0]  # a 5×5 matrix, strides vary
    diagonals.append((p, y, y.diagonal(0, -2, -1)))
# [diagonal]
for p, y, d in diagonals:
    answers.of(f"x.permute{p}[..., 0].diagonal(0, -2, -1)", base="x")

answers.group("diagonal")
m = torch.arange(15).view(3, 5)
answers.of("m.diagonal()", base="m")
answers.of("m.diagonal(1)", base="m")
answers.of("m.diagonal(-1)", base="m")

# ---- Transpose ----------------------------------------------------------------------------------
answers.group("transpose")
a = torch.empty(3, 5, dtype=torch.int64, device="meta")
answers.of("a.t()")

answers.group("transpose_write")
# [transpose_write]
a = torch.arange(9).reshape(3, 3)
b = a.t()
b[0, 0] = 9999
b[0, 1] = 7777
# [transpose_write]
answers.of("a")

# ---- Rows and columns ---------------------------------------------------------------------------
answers.group("rows")
# [rows]
T = torch.tensor([[1, 2, 3], [4, 5, 6]])
row = T[1, :]
col = T[:, 1]
# [rows]
answers.of("T[1, :]", base="T")
answers.of("T[:, 1]", base="T")
answers.of("T[1, :].size()")
answers.of("T[1, :].stride()")

# ---- Aliases and one buffer ---------------------------------------------------------------------
answers.group("aliases")
# [aliases]
x = torch.arange(8)
left = x[0:5]
right = x[3:8]
left *= 10
# [aliases]
answers.of("right", base="x")
answers.of("x")

answers.group("carve")
# [carve]
buffer = torch.empty(64)
weight = buffer[0:48].view(6, 8)
bias = buffer[48:54]
scratch = buffer[54:64].view(2, 5)
# [carve]
weight.fill_(1)
bias.fill_(2)
scratch.fill_(3)
answers.of("weight", base="buffer")
answers.of("bias", base="buffer")
answers.of("scratch", base="buffer")

# ---- Conversions that look like views -----------------------------------------------------------
answers.group("convert")
# [convert]
a = torch.arange(9).reshape(3, 3)
b = a.to(torch.float16)
b[0][0] = 1000
# [convert]
answers.of("b", base="a")
answers.of("a[0][0].item()")

answers.group("bits")
# [bits]
i = torch.full((1,), 1000)
h = i.to(torch.float16)
i_bits = hex(i.item())
h_bits = hex(h.view(torch.int16).item())  # float16's 16 bits, read as an int16
# [bits]
answers.of("i_bits")
answers.of("h_bits")

answers.group("same_dtype")
# [same_dtype]
a = torch.arange(9).reshape(3, 3)  # int64
same = a.to(torch.int64)           # a itself
# [same_dtype]
answers.of("same is a")
answers.of("a.to(torch.int64, copy=True)", base="a")

answers.group("reinterpret")
# [reinterpret]
f = torch.ones(4)  # float32
bits = f.view(torch.int32)  # the same storage and layout, another dtype
# [reinterpret]
answers.of("f.view(torch.int32)", base="f")
w = torch.arange(3)
answers.of("w.view(torch.int32)", base="w")
bits[1] = 0x40000000  # the bits of 2.0
answers.of("f")

answers.group("float_bytes")
# [float_bytes]
f = torch.tensor([1.0, -2.0])  # two float32: 8 bytes
b = f.view(torch.uint8)        # the same 8 bytes, one uint8 each
# [float_bytes]
answers.of("b", base="f")
answers.of("f.view(torch.int16)", base="f")
answers.of("b.view(torch.int8)", base="f")
answers.of("b[4:].view(torch.float32)", base="f")

answers.group("view_dtype_rules")
# [view_dtype_rules]
w = torch.arange(6, dtype=torch.int32)  # six int32: three int64 once paired
longs = w.view(torch.int64)  # (3,) stride 1: size, offset, strides halve
# Refused: w[:5] (an odd size), w[1:5] (an odd offset), w.as_strided((2, 2), (3, 1))
# (an odd stride), and, the other way, torch.arange(4).view(2, 2).t() as int32 (a last
# stride of 2).
# [view_dtype_rules]
answers.of("w.view(torch.int64)", base="w")
answers.of("w[:5].view(torch.int64)")
answers.of("w[1:5].view(torch.int64)")
answers.of("w.as_strided((2, 2), (3, 1)).view(torch.int64)")
answers.of("torch.arange(4).view(2, 2).t().view(torch.int32)")

answers.group("lossy")
# [lossy]
i = torch.full((1,), 2049)
h = i.to(torch.float16)
# [lossy]
answers.of("h")

# ---- A catalogue of views (chapters/02_views/catalogue.cpp) --------------------------------------
# The rows' expressions, in the order of 02_views/catalogue.cpp, on x = torch.arange(24).view(2, 3, 4),
# f (the same in float32) and z (complex64: f's values as real parts, zero imaginary parts).
CATALOGUE = [
    "x.select(1, 2)",
    "x.unbind(1)[2]",
    "x[:, :, 1:4:2]",
    "x.narrow(2, 1, 2)",
    "x.split(3, 2)[1]",
    "x.split_with_sizes([1, 2], 1)[1]",
    "x.chunk(2, 1)[1]",
    "x.tensor_split(3, 2)[1]",
    "x.tensor_split([1, 3], 2)[1]",
    "x.hsplit(3)[2]",
    "x.vsplit([1])[1]",
    "x.dsplit(2)[1]",
    "x.permute(2, 0, 1)",
    "x.transpose(0, 2)",
    "x.swapaxes(0, 2)",
    "x.swapdims(0, 2)",
    "x[0].t()",
    "x.mT",
    "x.movedim(0, 2)",
    "x.moveaxis(0, 2)",
    "x.diagonal(1, 1, 2)",
    "x[:, :1].expand(2, 3, 4)",
    "x[:, :1].broadcast_to((2, 3, 4))",
    "x[:, :1].expand_as(x)",
    "x.unsqueeze(1)",
    "x[:, :1].squeeze(1)",
    "torch.atleast_1d(x[0, 0, 0])",
    "torch.atleast_2d(x[0, 0])",
    "torch.atleast_3d(x[0])",
    "x.view(4, 6)",
    "x.view_as(torch.zeros(4, 6))",
    "x.reshape(6, 4)",
    "x.reshape_as(torch.zeros(6, 4))",
    "x.flatten(1)",
    "x.unflatten(2, (2, 2))",
    "x.unfold(2, 2, 1)",
    "x.as_strided((3, 3), (1, 3), 2)",
    "x.view(torch.int32)",
    ("z", "torch.view_as_real(z)"),
    ("f", "torch.view_as_complex(f.view(2, 3, 2, 2))"),
    ("z", "z.real"),
    ("z", "z.imag"),
    ("z", "z.conj()"),
    ("z", "z[0].H"),
    ("z", "z.mH"),
    ("z", "z.adjoint()"),
    ("f", "f.view(torch.complex64)"),
    "x.detach()",
    "torch.ops.aten.alias(x)",
]
answers.group("catalogue")
x = torch.arange(24).view(2, 3, 4)
f = torch.arange(24, dtype=torch.float32).view(2, 3, 4)
z = torch.complex(f, torch.zeros_like(f))
for row in CATALOGUE:
    base, expression = row if isinstance(row, tuple) else ("x", row)
    result = eval(expression)
    # A complex result keeps its layout alone: the record's values are real numbers.
    answers.of(expression, base=base, values=not result.is_complex())
    if base != "x":  # the complex rows also answer whether the conjugate bit is set
        answers.of(f"({expression}).is_conj()")

answers.group("several_outputs")
for expression in ["x.unbind(1)", "x.split(3, 2)", "x.chunk(2, 1)", "x.tensor_split([1, 3], 2)"]:
    answers.of(f"len({expression})")
    for i in range(len(eval(expression))):
        answers.of(f"{expression}[{i}]", base="x")

answers.group("imag_of_conj")
answers.of("z.conj().imag.is_neg()")
answers.of("z.conj().imag.resolve_neg().is_neg()")
answers.of("z.conj().imag.resolve_neg()._is_view()")

# ---- Try it -------------------------------------------------------------------------------------
answers.tryit("arange(24).reshape(2, 3, 4)[0, 2, 2]", "torch.arange(24).reshape(2, 3, 4)[0, 2, 2]")
answers.tryit("arange(24).reshape(4, 6)[:, 1:6:2]", "torch.arange(24).reshape(4, 6)[:, 1:6:2]")
answers.tryit("arange(24).reshape(2, 3, 4).permute(2, 0, 1)",
              "torch.arange(24).reshape(2, 3, 4).permute(2, 0, 1)")
answers.tryit("arange(15).reshape(3, 5).diagonal(1)", "torch.arange(15).reshape(3, 5).diagonal(1)")
answers.tryit("tensor([[1, 2, 3], [4, 5, 6]])[:, 1]", "torch.tensor([[1, 2, 3], [4, 5, 6]])[:, 1]")
answers.tryit("arange(6).reshape(2, 3).to(dtype=torch.float16)",
              "torch.arange(6).reshape(2, 3).to(dtype=torch.float16)")
answers.tryit("torch.view_as_real(zeros(2, 3, dtype=torch.complex64).t())",
              "torch.view_as_real(torch.zeros(2, 3, dtype=torch.complex64).t())")

# ---- NumPy and PyTorch ----------------------------------------------------------------------------
answers.group("numpy")
x = torch.arange(24).view(4, 6)
n = np.arange(24).reshape(4, 6)
answers.of("x[:, 1:6:2]", base="x")
answers.of("x[0, 2]", base="x")
answers.of("np.shares_memory(n, n[:, 1:6:2])")
answers.of("n[:, 1:6:2].base is n.base")
answers.of("x[:, 1:6:2]._base is x._base")
answers.of("isinstance(n[0, 2], np.ndarray)")
answers.of("x[0, 2]._base is x._base")

# ---- exercises: each hidden answer, as PyTorch gives it -------------------------------------------
answers.group("ex1")
x = torch.arange(12).view(3, 4)
answers.of("x.t()", base="x")

answers.group("ex2")
Z = torch.arange(60).view(3, 4, 5)
answers.of("Z[1:, 1::2, 1::2]", base="Z")

answers.group("ex3")
a = torch.arange(6).view(2, 3)
b = a.t()
b[2, 0] = 100
answers.of("a")

answers.group("ex4")
x = torch.arange(16).view(4, 4)
answers.of("x.diagonal(1)", base="x")

if __name__ == "__main__":
    answers.main()
