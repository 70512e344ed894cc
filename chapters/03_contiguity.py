"""Chapter 3, Contiguity, in PyTorch: the PyTorch form of every listing of docs/03_contiguity.md
(the code between `# [name]` markers, shown beside the C++ of 03_contiguity.cpp under the same
name) and of every Try it block, and the expressions whose answers the book keeps. `tools/book
record-pytorch` runs it with torch 1.13 and writes what PyTorch answered to
docs/recorded/pytorch/03_contiguity.json; the chapter's checks compare the library's answers with
it.
"""
import itertools
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "pytorch"))
from answers import Answers, storage_of, storage_values  # noqa: E402

answers = Answers("03_contiguity")


# ---- teaching helpers: shown on the page ---------------------------------------------------------

# [notebook_check]
# The notebook's check_contiguous: empty and 0-d tensors are contiguous; otherwise
# the last stride is 1 and each stride is the next dim's size times the next dim's
# stride.
def notebook_is_contiguous(t):
    if t.numel() == 0:
        return True
    if t.dim() == 0:
        return True
    contiguous = t.stride(-1) == 1
    for i in range(1, t.dim()):
        contiguous = t.stride(-i - 1) == t.size(-i) * t.stride(-i) and contiguous
    return contiguous
# [notebook_check]


# [pytorch_check]
# PyTorch's rule (c10/core/Contiguity.h), which t.is_contiguous() answers: walking
# from the last dim, each dim of size > 1 must have the stride "expected so far",
# which then grows by its size; size-1 dims are skipped, and a tensor with no
# elements is contiguous whatever its strides.
def pytorch_is_contiguous(t):
    if t.numel() == 0:
        return True
    expected = 1
    for d in reversed(range(t.dim())):
        if t.size(d) == 1:
            continue
        if t.stride(d) != expected:
            return False
        expected *= t.size(d)
    return True
# [pytorch_check]


def is_dense(t):
    """PyTorch's is_non_overlapping_and_dense, which Python does not expose: empty_like keeps the
    strides of exactly the tensors that are non-overlapping and dense."""
    return torch.empty_like(t).stride() == t.stride()


def runs(t):
    """How many runs of consecutive storage cells t's elements occupy."""
    cells = sorted({t[i].data_ptr() for i in itertools.product(*map(range, t.shape))})
    return sum(1 for k, c in enumerate(cells) if k == 0 or c != cells[k - 1] + t.element_size())


# ---- Two definitions -----------------------------------------------------------------------------
answers.group("disagree")
# Tensors contiguous for PyTorch, not for the notebook: a size-1 dim with any stride.
cases = {
    "(2, 3, 4, 1) : (12, 4, 1, 24)": torch.arange(24).as_strided((2, 3, 4, 1), (12, 4, 1, 24)),
    "rand(4, 1).t(): (1, 4) : (1, 1)": torch.rand(4, 1).t(),
    "(2, 1, 3) : (3, 99, 1)": torch.arange(6).as_strided((2, 1, 3), (3, 99, 1)),
}
for name, t in cases.items():
    answers.of("t", name=name, values="rand" not in name)
    answers.of("pytorch_is_contiguous(t)", name=name + ": pytorch_is_contiguous")
    answers.of("notebook_is_contiguous(t)", name=name + ": notebook_is_contiguous")

answers.group("layouts")
# Every layout of 1 to 3 dims with sizes 0…3 and strides from {0, 1, 2, 3, 6}: how many PyTorch
# calls contiguous, and on how many the transcription pytorch_is_contiguous gives its answer.
tried = contiguous = agree = 0
for n in range(1, 4):
    for sizes in itertools.product(range(4), repeat=n):
        for strides in itertools.product([0, 1, 2, 3, 6], repeat=n):
            t = torch.empty(64).as_strided(sizes, strides)
            tried += 1
            contiguous += t.is_contiguous()
            agree += pytorch_is_contiguous(t) == t.is_contiguous()
answers.of("tried")
answers.of("contiguous")
answers.of("agree")

answers.group("recursion_end")
t = torch.zeros(2, 3, 4, 5)
# [recursion_end]
n = t.dim()
holds = all(t.stride(-i - 1) == t.size(-i) * t.stride(-i) for i in range(1, n))
# [recursion_end]
answers.of("holds")
answers.of("t.stride(-n - 1)")
answers.of("t.stride(-1)")
answers.of("t.stride(-2)")

answers.group("examples")
# [examples]
t = torch.rand(2, 3, 4, 5)
a = t.transpose(-1, -2)
b = t.transpose(0, -1)
empty_t = torch.rand(0, 1, 0)
scalar = torch.rand(())
# [examples]
for name in ["t", "a", "b", "empty_t", "scalar"]:
    answers.of(name, base="t", values=False)
    answers.of(f"notebook_is_contiguous({name})")

answers.group("factories")
s = (3, 1, 4, 2)
made = {
    "empty": torch.empty(s),
    "zeros": torch.zeros(s),
    "ones": torch.ones(s, dtype=torch.int32),
    "full": torch.full(s, 2.5, dtype=torch.float64),
    "arange(24).view": torch.arange(24).view(s),
    "rand": torch.rand(s),
    "randn": torch.randn(s, dtype=torch.float16),
    "from_values": torch.tensor([[[[1.0] * 2] * 4] * 1] * 3),
    "empty_like": torch.empty_like(torch.zeros(s)),
    "scalar_tensor": torch.scalar_tensor(3),
}
for name in made:
    answers.of(f"made[{name!r}]", name=name,
               values=name not in ("empty", "rand", "randn", "empty_like"))

answers.group("like")
# [like]
p = torch.arange(24).view(2, 3, 4).permute(2, 0, 1)  # dense, permuted
s = torch.arange(48).view(2, 3, 8)[..., ::2]  # not dense
o = torch.arange(6).as_strided((2, 3), (1, 1))  # overlapping: strides tie
r = p.clone(memory_format=torch.contiguous_format)  # asked for: row-major
# [like]
for x in ["p", "s", "o"]:
    answers.of(x, base=x)
    answers.of(f"torch.empty_like({x}).stride()")
    answers.of(f"{x}.clone()", base=x)
answers.of("r", base="p")

# ---- Contiguous strides --------------------------------------------------------------------------
answers.group("contiguous_strides")
# [contiguous_strides]
def row_major(sizes):
    strides, product = [0] * len(sizes), 1
    for k in reversed(range(len(sizes))):
        strides[k] = product
        product *= max(sizes[k], 1)
    return tuple(strides)
# [contiguous_strides]


# Every shape of 1 to 4 dims with sizes 0…3: the formula against the strides of torch.empty.
shapes = formula_agrees = 0
for n in range(1, 5):
    for sizes in itertools.product(range(4), repeat=n):
        shapes += 1
        formula_agrees += row_major(sizes) == torch.empty(sizes).stride()
answers.of("shapes")
answers.of("formula_agrees")
answers.of("torch.empty(3, 0, 2).stride()")
answers.of("torch.zeros(3, 4).t().stride()")
answers.of("torch.arange(0, 24).reshape(1, 2, 3, 4).stride()")

# ---- Addresses in index order --------------------------------------------------------------------
answers.group("increasing")
p = torch.arange(24).reshape(1, 2, 3, 4).permute(1, 2, 3, 0)
answers.of("p")
answers.of("torch.zeros(2, 1, 3).stride()")

answers.group("traces")


# [traces]
# Each element's byte offset from the storage's first byte, in index order (last
# index fastest). The storage starts offset elements before data_ptr().
def logical_trace(t):
    first = t.data_ptr() - t.storage_offset() * t.element_size()
    return [t[i].data_ptr() - first for i in itertools.product(*map(range, t.shape))]


t = torch.zeros(2, 3, 4)
p = t.permute(2, 0, 1)
in_order = logical_trace(t)
permuted = logical_trace(p)
# [traces]
answers.of("in_order")
answers.of("permuted")
answers.of("p", base="t")

# ---- Dense layouts -------------------------------------------------------------------------------
answers.group("dense_big")
# The notebook's tensors as layouts: a tensor on the "meta" device has no memory.
big = torch.empty(512, 512, 512, device="meta")
answers.of("big.permute(2, 1, 0).stride()")
answers.of("torch.empty(512, 512, 512, 5, device='meta')[..., 0].stride()")
answers.of("torch.empty(512, 512, 32, 512, device='meta')[..., 0, :].stride()")

answers.group("dense")
# [dense]
x = torch.arange(24).view(2, 3, 4).permute(2, 1, 0)
y = torch.arange(30).view(2, 3, 5)[..., 0]
z = torch.arange(24).view(2, 4, 3)[..., 0, :]
# [dense]
for name in ["x", "y", "z"]:
    answers.of(name)
    answers.of(f"is_dense({name})")
    answers.of(f"runs({name})")

# ---- Reshape -------------------------------------------------------------------------------------
answers.group("reshape")
x = torch.rand(24)
# [reshape]
y = x.reshape(12, 2)
z = x.reshape(2, 3, 4)
x[0] = 10
# [reshape]
answers.of("y", base="x", values=False)
answers.of("z", base="x", values=False)
answers.of("y[0, 0].item()")
answers.of("z[0, 0, 0].item()")
shapes = views = 0
for a in range(1, 25):
    for b in range(1, 25 // a + 1):
        if 24 % (a * b):
            continue
        v = x.reshape(a, b, 24 // (a * b))
        shapes += 1
        views += (v.is_contiguous() and storage_of(v).data_ptr() == storage_of(x).data_ptr() and
                  v.stride() == row_major(v.shape))
answers.of("shapes")
answers.of("views")

# ---- .contiguous() -------------------------------------------------------------------------------
answers.group("contiguous")
t = torch.arange(24).reshape(1, 2, 3, 4)
# [contiguous]
v = t[:, :, :, 2].reshape(3, 2)  # a view
compact = v.contiguous()  # copies
same = compact.contiguous()  # already contiguous: compact itself
# [contiguous]
answers.of("v", base="t")
answers.of("compact", base="t")
answers.of("storage_values(compact)")
answers.of("same is compact")

# ---- What breaks contiguity ----------------------------------------------------------------------
answers.group("breaks")
t = torch.arange(24).reshape(1, 2, 3, 4)
for op in ["t.broadcast_to((2, 2, 3, 4))", "t[:, :, :, 2]", "t.transpose(1, 2)",
           "t.transpose(0, 1)", "t.expand(1, 1, 2, 3, 4)", "t[0, 1]"]:
    answers.of(op, base="t")

answers.group("er16")
# [er16]
one = torch.arange(24).reshape(1, 2, 3, 4).permute(1, 2, 3, 0)
two = torch.arange(48).reshape(2, 2, 3, 4).permute(1, 2, 3, 0)
# [er16]
answers.of("one")
answers.of("two")
answers.of("is_dense(one)")
answers.of("is_dense(two)")
answers.of("runs(two)")

# ---- Channels last -------------------------------------------------------------------------------
answers.group("channels_last")
# [channels_last]
x = torch.arange(48).view(2, 3, 2, 4)                   # N, C, H, W
y = x.contiguous(memory_format=torch.channels_last)     # a copy
same = y.contiguous(memory_format=torch.channels_last)  # y itself
kept = y.clone()                                        # preserve_format
back = y.contiguous()                                   # NCHW again
# [channels_last]
answers.of("x")
answers.of("y", base="x")
answers.of("x.is_contiguous(memory_format=torch.channels_last)")
answers.of("y.is_contiguous(memory_format=torch.channels_last)")
answers.of("same is y")
answers.of("kept", base="y")
answers.of("torch.empty_like(y).stride()")
answers.of("back", base="y")

answers.group("channels_both")
# [channels_both]
gray = torch.zeros(2, 1, 2, 4)                             # C = 1
pixels = torch.zeros(2, 3, 1, 1)                           # H = W = 1
kept = gray.contiguous(memory_format=torch.channels_last)  # gray itself
moved = gray.to(memory_format=torch.channels_last)         # a copy
matrix = torch.zeros(3, 4)                                 # not 4-d
# [channels_both]
for name in ["gray", "pixels", "moved", "matrix"]:
    answers.of(name, base="gray")
    answers.of(f"{name}.is_contiguous(memory_format=torch.channels_last)")
answers.of("kept is gray")
answers.of("pixels.contiguous(memory_format=torch.channels_last) is pixels")
answers.of("matrix.contiguous(memory_format=torch.channels_last)")

answers.group("image")
# [image]
# An image as files and cameras store it: rows of pixels, each pixel's
# red, green and blue bytes side by side (N, H, W, C).
nhwc = torch.arange(24, dtype=torch.uint8).view(1, 2, 4, 3)
nchw = nhwc.permute(0, 3, 1, 2)  # N, C, H, W, as convolutions index it
# [image]
answers.of("nchw", base="nhwc")
answers.of("nchw.is_contiguous()")
answers.of("nchw.is_contiguous(memory_format=torch.channels_last)")
answers.of("nchw.contiguous()", base="nhwc")
answers.of("nchw.float().mean(dim=(2, 3))")

answers.group("channels_3d")
answers.of("torch.zeros(2, 3, 4, 5, 6).contiguous(memory_format=torch.channels_last_3d).stride()")
answers.of("torch.zeros(2, 3, 4, 5, 6).contiguous(memory_format=torch.channels_last)")

answers.group("channels_practice")
torch.manual_seed(13)
# [channels_practice]
model = torch.nn.Conv2d(3, 4, kernel_size=3, padding=1)
model = model.to(memory_format=torch.channels_last)  # the weights
x = torch.rand(2, 3, 4, 4).to(memory_format=torch.channels_last)  # the input
y = model(x)                   # the output comes out channels last
z = x * 2 + 1                  # element-wise: channels last still
back = x.contiguous()          # row-major NCHW: a copy
# [channels_practice]
answers.of("model.weight", values=False)
answers.of("x", values=False)
answers.of("y", values=False)
answers.of("z", values=False)
answers.of("back", base="x", values=False)
answers.of("back.is_contiguous(memory_format=torch.channels_last)")
v = torch.zeros(2, 3, 4, 5, 6).to(memory_format=torch.channels_last_3d)
answers.of("v * 2 + 1")

# ---- NumPy's two flags ---------------------------------------------------------------------------
answers.group("numpy_flags")
a = np.arange(12).reshape(3, 4)
x = torch.arange(12).view(3, 4)
for numpy_form, torch_form in [("a", "x"), ("a.T", "x.t()"), ("a[:, ::2]", "x[:, ::2]"),
                               ("a[:, :1]", "x[:, :1]"),
                               ("np.zeros((3, 1), dtype=np.int64)",
                                "torch.zeros(3, 1, dtype=torch.int64)")]:
    answers.of(f"{numpy_form}.flags['C_CONTIGUOUS']")
    answers.of(f"{numpy_form}.flags['F_CONTIGUOUS']")
    answers.of(f"{numpy_form}.strides")
    answers.of(f"{torch_form}.is_contiguous()")
    answers.of(f"{torch_form}.stride()")

# ---- Exercises -----------------------------------------------------------------------------------
answers.group("exercises")
x = torch.arange(12).view(3, 4)
for expression in ["x[1]", "x[:1]", "x[:, 1]", "x[:, :1]"]:
    answers.of(expression, base="x")
x = torch.arange(6).view(2, 3)
answers.of("x.expand(1, 2, 3)", base="x")
answers.of("x.expand(4, 2, 3)", base="x")
p = torch.arange(24).view(2, 3, 4).permute(2, 0, 1)
answers.of("p.clone()", base="p")
answers.of("p.contiguous()", base="p")
cl = torch.zeros(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)
answers.of("cl")
answers.of("cl.permute(0, 2, 3, 1)", base="cl")

# ---- Try it --------------------------------------------------------------------------------------
answers.tryit("arange(4).view(4, 1).t()", "torch.arange(4).view(4, 1).t()")
answers.tryit("arange(24).reshape(1, 2, 3, 4)[:, :, :, 2].reshape(3, 2).contiguous()",
              "torch.arange(24).reshape(1, 2, 3, 4)[:, :, :, 2].reshape(3, 2).contiguous()")
answers.tryit("arange(48).reshape(2, 2, 3, 4).permute(1, 2, 3, 0)",
              "torch.arange(48).reshape(2, 2, 3, 4).permute(1, 2, 3, 0)")

if __name__ == "__main__":
    answers.main()
