"""Chapter 7, Matrix multiplication, in PyTorch: the PyTorch form of every listing of
docs/07_matmul.md (the code between `# [name]` markers, shown beside the C++ of 07_matmul.cpp
under the same name), and the expressions whose answers the book keeps, PyTorch's refusals among
them. `tools/book record-pytorch` runs it with torch 1.13 and writes what PyTorch answered to
docs/recorded/pytorch/07_matmul.json; the chapter's checks compare the library's answers with it.
"""
import collections
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "pytorch"))
from answers import Answers  # noqa: E402

answers = Answers("07_matmul")


# ---- teaching helpers: the PyTorch forms of the C++ ones ----------------------------------------

# [lru_naive]
# PyTorch has no cache model: this one is plain Python. The addresses a triple
# loop asks for, fed to an LRU cache of 64-byte lines. A, B and C are float32 n×n
# matrices placed one after another; each element's place comes from its tensor's
# strides, so B is torch.zeros(n, n) (row-major) or torch.zeros(n, n).mT
# (column-major).
class LruCache:
    def __init__(self, capacity_bytes, line_bytes=64):
        self.lines, self.line_bytes = capacity_bytes // line_bytes, line_bytes
        self.recent, self.misses = collections.OrderedDict(), 0

    def access(self, address):
        line = address // self.line_bytes
        if line in self.recent:
            self.recent.move_to_end(line)
        else:
            self.misses += 1
            self.recent[line] = True
            if len(self.recent) > self.lines:
                self.recent.popitem(last=False)


# t[i, j] sits first + 4·(i·stride[0] + j·stride[1]) bytes from the start
def place(t, first):
    s0, s1 = t.stride()
    return lambda i, j: first + 4 * (i * s0 + j * s1)


# for i, for j: c[i][j] = Σ_k a[i][k]·b[k][j], as c[i, j] = a[i, :] @ b[:, j]
def misses_ijk(b, cache, with_c):
    n = b.shape[0]
    a_at, b_at, c_at = place(torch.zeros(n, n), 0), place(b, 4 * n * n), \
        place(torch.zeros(n, n), 8 * n * n)
    for i in range(n):
        for j in range(n):
            for k in range(n):
                cache.access(a_at(i, k))
                cache.access(b_at(k, j))
            if with_c:
                cache.access(c_at(i, j))
    return cache.misses
# [lru_naive]


# [lru_blocked]
# for i, for k: c[i, :] += a[i, k] * b[k, :], rows of B and C, unit stride.
def misses_ikj(b, cache):
    n = b.shape[0]
    a_at, b_at, c_at = place(torch.zeros(n, n), 0), place(b, 4 * n * n), \
        place(torch.zeros(n, n), 8 * n * n)
    for i in range(n):
        for k in range(n):
            cache.access(a_at(i, k))
            for j in range(n):
                cache.access(b_at(k, j))
                cache.access(c_at(i, j))
    return cache.misses


# The same i-k-j loops on bs×bs blocks: three blocks (3·bs² floats) are all the
# cache must hold. PyTorch's own CPU matmul hands the blocking to its BLAS.
def misses_blocked(b, cache, bs):
    n = b.shape[0]
    a_at, b_at, c_at = place(torch.zeros(n, n), 0), place(b, 4 * n * n), \
        place(torch.zeros(n, n), 8 * n * n)
    for ii in range(0, n, bs):
        for jj in range(0, n, bs):
            for kk in range(0, n, bs):
                for i in range(ii, ii + bs):
                    for k in range(kk, kk + bs):
                        cache.access(a_at(i, k))
                        for j in range(jj, jj + bs):
                            cache.access(b_at(k, j))
                            cache.access(c_at(i, j))
    return cache.misses
# [lru_blocked]


# ---- Row-major and column-major -----------------------------------------------------------------
answers.group("row_column")
# [row_column]
row = torch.arange(24).view(6, 4)  # row-major 6×4: strides (4, 1)
col = row.t()                      # the same storage read as a 4×6 matrix
# [row_column]
answers.of("row", base="row")
answers.of("row.t()", base="row")
answers.of("row.t().t().is_contiguous()")
r = torch.arange(12).view(3, 4)
answers.of("r.t().contiguous().t()", base="r")

answers.group("mt")
m = torch.zeros(4, 6)
batch = torch.zeros(2, 4, 6)
answers.of("m.mT", base="m")
answers.of("batch.mT", base="batch")

answers.group("fortran")
import numpy as np  # noqa: E402 (the listing as a reader writes it)
# [fortran]
fa = np.asfortranarray(np.arange(12).reshape(3, 4))  # column-major 3×4
f = torch.from_numpy(fa)  # the same memory: stride() (1, 3), in elements
# [fortran]
answers.of("fa.strides")  # NumPy counts bytes: (8, 24)
answers.of("fa.flags.f_contiguous")
answers.of("fa.flags.c_contiguous")
answers.of("torch.from_numpy(fa)")
answers.of("torch.from_numpy(fa).mT.is_contiguous()")

# ---- The naive loop and the cache ---------------------------------------------------------------
answers.group("lru_run")
n = 128
b = torch.zeros(n, n)
b_col = torch.zeros(n, n).mT
answers.of("b[:, 0]", base="b", values=False)
answers.of("b_col[:, 0]", base="b_col", values=False)
# [lru_run]
row_4k = misses_ijk(torch.zeros(n, n), LruCache(4096), False)
col_4k = misses_ijk(torch.zeros(n, n).mT, LruCache(4096), False)
# [lru_run]
answers.of("row_4k")
answers.of("col_4k")

answers.group("transpose_first")
torch.manual_seed(4)
n = 512
b = torch.rand(n, n)
# [transpose_first]
# PyTorch counts no allocations; the storage tells the copy from a view.
b_columns = b.t().contiguous()  # (n, n) holding bᵀ: n² elements moved
# [transpose_first]
answers.of("b_columns", base="b", values=False)
answers.of("b.t()", base="b", values=False)

# ---- BLAS and the four layouts ------------------------------------------------------------------
answers.group("blas_flags")
# [blas_flags]
# PyTorch picks gemm's transpose flags and leading dims inside matmul, from the
# strides it is given: a user sees only those strides.
a = torch.zeros(3, 5)
row = a.stride()     # (5, 1): row-major, goes as stored, ld = 5
col = a.mT.stride()  # (1, 5): column-major, goes transposed, ld = 5
# [blas_flags]
answers.of("a.mT", base="a")
answers.of("torch.zeros(3, 10)[:, ::2]")

answers.group("skinny")
torch.manual_seed(14)
# [skinny]
w = torch.rand(64, 8192)   # a weight: 64 outputs, 8192 inputs
x = torch.rand(64, 8192)   # a batch of 64 inputs
y = x @ w.mT               # (64, 64)
# PyTorch chooses gemm's transpose flag and ld inside matmul, from the strides
# of w.mT, (1, 8192); it shows neither them nor what it allocates.
# [skinny]
x2 = torch.rand(64, 4096)
answers.of("w.mT", base="w", values=False)
answers.of("x @ w.mT", values=False)
answers.of("w[::2].mT", base="w", values=False)
answers.of("w[:, ::2].mT", base="w", values=False)
answers.of("x2 @ w[:, ::2].mT", values=False)

# ---- Low-rank products --------------------------------------------------------------------------
answers.group("low_rank")
m, n = 2048, 2048
shares = []
for k in (2, 4, 8, 16, 32):
    # [low_rank]
    bytes_ = 4.0 * (m * k + k * n + m * n)  # read a, b; write c
    flops = 2.0 * m * n * k
    output_share = 4.0 * m * n / bytes_
    intensity = flops / bytes_  # FLOP per byte moved
    # [low_rank]
    shares.append(output_share)
x, y = torch.rand(2048, 32), torch.rand(32, 2048)
answers.of("x @ y", values=False)

# ---- Batched matmul -----------------------------------------------------------------------------
answers.group("shapes")
cases = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((3,), (5, 3, 4)),
         ((5, 2, 3), (3,)), ((5, 2, 3), (3, 4)), ((7, 1, 2, 3), (5, 3, 4))]
for sa, sb in cases:
    answers.of(f"torch.matmul(torch.rand{sa}, torch.rand{sb}).shape".replace(",)", ")"))
answers.of("torch.matmul(torch.rand(5, 2, 3), torch.rand(5, 4, 4))")
answers.of("torch.matmul(torch.rand(2, 2, 3), torch.rand(3, 3, 4))")
answers.of("torch.matmul(torch.tensor(1.), torch.rand(3))")

answers.group("fold")
# [fold]
a, b = torch.rand(5, 2, 3), torch.rand(3, 4)
at = a.mT.contiguous().mT  # the same values, each matrix column-major
# PyTorch counts no products: whether a @ b folds into one mm is its should_fold
# [fold]
answers.of("at.stride()")
answers.of("torch.allclose(a @ b, at @ b)")

answers.group("one_d")
torch.manual_seed(11)
# [one_d]
v, m = torch.rand(3), torch.rand(5, 3, 4)
left = torch.matmul(v, m)                               # (5, 4)
promoted = torch.matmul(v.unsqueeze(0), m).squeeze(-2)  # (5, 1, 4) → (5, 4)
# [one_d]
answers.of("torch.matmul(v, v)", values=False)
answers.of("torch.matmul(torch.rand(2, 3), v)", values=False)
answers.of("left", values=False)
answers.of("promoted", values=False)
answers.of("torch.allclose(left, promoted)")

answers.group("worked")
torch.manual_seed(12)
# [worked]
a, b = torch.randn(3, 4, 1, 2), torch.randn(1, 2, 3)
batched = torch.matmul(a, b)
looped = torch.zeros(3, 4, 1, 3)
for i in range(3):
    for j in range(4):
        looped[i, j] = torch.matmul(a[i, j], b[0])
# [worked]
answers.of("batched", values=False)
answers.of("b.expand(3, 4, 2, 3)", base="b", values=False)

# ---- Stride tricks ------------------------------------------------------------------------------
answers.group("window")
# [window]
x = torch.arange(8)               # a signal of n = 8 samples
w = x.unfold(0, 3, 1)             # windows of k = 3, step 1
s = x.as_strided((6, 3), (1, 1))  # the same view, its strides written out
dense = w.contiguous()            # a copy: every element of every window
hops = x.unfold(0, 3, 2)          # windows that start 2 samples apart
# [window]
answers.of("w", base="x")
answers.of("s", base="x")
answers.of("dense", base="x")
answers.of("hops", base="x")

answers.group("conv_windows")
# [conv_windows]
H, W, k = 5, 6, 3
image = torch.arange(30.).view(H, W)
kernel = torch.tensor([[1., 2., 0.], [0., -1., 3.], [1., 0., -2.]])
# window (i, j) holds pixel (i + a, j + b), at storage index (i + a)·W + (j + b)
windows = image.as_strided((H - k + 1, W - k + 1, k, k), (W, 1, W, 1))
# [conv_windows]
answers.of("windows", base="image")
answers.of("image.unfold(0, 3, 1).unfold(1, 3, 1)", base="image")
answers.of("windows[1, 2]", base="image")

answers.group("conv_matmul")
# [conv_matmul]
patches = windows.reshape(-1, k * k)  # (12, 9), a window a row: a copy
out = (patches @ kernel.reshape(k * k)).view(H - k + 1, W - k + 1)
# [conv_matmul]
answers.of("windows.view(-1, 9)")
answers.of("patches", base="image")
answers.of("patches[6]", base="image")
answers.of("out")
answers.of("torch.nn.functional.conv2d(image[None, None], kernel[None, None])[0, 0]")

answers.group("blas_info")
# The BLAS PyTorch's build was configured with (BLAS_INFO in its build settings): Debian's
# 1.13 calls the generic BLAS interface, the libblas.so.3 the system selects.
answers.of('torch.__config__.show().split("BLAS_INFO=")[1].split(",")[0]')

# ---- Exercises ----------------------------------------------------------------------------------
answers.group("ex1")
m = torch.zeros(10, 6)
for e in ("m[2:7]", "m[:, 1:4]", "m[::3]", "m[:, ::3]", "m.t()[::2]"):
    answers.of(e, base="m")

answers.group("ex2")
w = torch.rand(8192, 64)
answers.of("w.t()", base="w", values=False)
answers.of("w.t() @ w", values=False)

answers.group("ex3")
a, b = torch.rand(8, 4, 3), torch.rand(3, 5)
answers.of("a[:, ::2]", base="a", values=False)
answers.of("a[:, ::2] @ b", values=False)
answers.of("a.transpose(0, 1) @ b", values=False)

answers.group("ex4")
x = torch.arange(10)
answers.of("x.unfold(0, 4, 2)", base="x")
answers.of("x.unfold(0, 4, 2).contiguous()", base="x")

answers.group("ex5")
a, b = torch.rand(2, 1, 3, 4), torch.rand(5, 4, 6)
answers.of("a @ b", values=False)
answers.of("b.expand(2, 5, 4, 6)", base="b", values=False)

# ---- Try it -------------------------------------------------------------------------------------
answers.tryit("arange(8).unfold(0, 3, 1)", "torch.arange(8).unfold(0, 3, 1)")

if __name__ == "__main__":
    answers.main()
