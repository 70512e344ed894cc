"""Chapter 6, Performance, in PyTorch: the PyTorch form of every listing of docs/06_performance.md
(the code between `# [name]` markers, shown beside the C++ of 06_performance.cpp under the same
name) and of every Try it block, and the expressions whose answers the book keeps. Where the C++
shows machinery PyTorch keeps internal (TensorIterator's plan, a cache or warp model), the PyTorch
form is the experiment a PyTorch user runs, with a comment on what PyTorch does inside.
`tools/book record-pytorch` runs it with torch 1.13 and writes what PyTorch answered to
docs/recorded/pytorch/06_performance.json; the chapter's checks compare the library's answers with
it. Timings are never recorded: they belong to the machine that ran them.
"""
import collections
import itertools
import os
import resource
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "pytorch"))
from answers import Answers, storage_of  # noqa: E402

answers = Answers("06_performance")


def strided_arange(sizes, strides):
    """A tensor with the given layout over arange values (float32)."""
    n = 1 + sum((a - 1) * s for a, s in zip(sizes, strides))
    return torch.arange(n, dtype=torch.float32).as_strided(sizes, strides)


def offsets(t):
    """Each element's storage offset, in t's own shape (its logical order)."""
    return torch.arange(storage_of(t).nbytes() // t.element_size()).as_strided(t.shape, t.stride(), t.storage_offset())


def lru_misses(byte_addresses, capacity_bytes, line_bytes=64):
    """Misses of a cold LRU cache of 64-byte lines that sees these addresses, in order."""
    recent, misses = collections.OrderedDict(), 0
    for line in (a // line_bytes for a in byte_addresses):
        if line in recent:
            recent.move_to_end(line)
        else:
            misses += 1
            recent[line] = True
            if len(recent) > capacity_bytes // line_bytes:
                recent.popitem(last=False)
    return misses


# ---- teaching helpers: the PyTorch forms of the C++ ones ----------------------------------------

# [warp_view]
# PyTorch has no model of a warp. The requests of a GPU kernel: at each step, 32
# lanes read 32 elements. Put the step in the outer dim and the lanes in the inner
# ones: each entry of the outer dim is one request, and it costs the distinct
# 32-byte sectors its addresses fall in.
def sectors_per_request(steps_by_lanes):
    sectors = offsets(steps_by_lanes) * steps_by_lanes.element_size() // 32
    return [len(set(request.flatten().tolist())) for request in sectors]
# [warp_view]


# [reduce_plan]
# sum over dim d of a matrix. PyTorch's reduction views the output over the input's
# shape with stride 0 on d (review_reduce_result) and its TensorIterator puts d
# innermost, so each output's inputs are walked one after another: x.sum(d). In
# logical order instead, for d = 0: a row at a time, added into the whole output.
def sum_plan(x, d, logical_order=False):
    if not logical_order:
        return lambda: x.sum(d)
    def rows_outer():
        out = torch.zeros(x.shape[1 - d])
        for row in x.unbind(d):
            out += row
        return out
    return rows_outer
# [reduce_plan]


# [unary_timing]
# The walks of add(3) that PF-08 times over an n×n×n cube x: x itself, its
# permutation p and a stride-5 slice s, each written into one output buffer viewed
# in the layout the op chooses (x + 3 is contiguous, p + 3 has p's strides), so that
# the timings compare walks, not allocations. PyTorch's TensorIterator always walks
# in memory order: it has no logical-order walk to time.
def add_walks(n):
    x = torch.rand(n, n, n)
    p = x.permute(2, 1, 0)
    s = torch.rand(n, n, n, 5)[..., 0]  # stride 5
    out_x = x + 3
    out_p = out_x.permute(2, 1, 0)
    return {"contiguous": lambda: torch.add(x, 3, out=out_x),
            "permuted": lambda: torch.add(p, 3, out=out_p),
            "strided": lambda: torch.add(s, 3, out=out_x)}
# [unary_timing]


# ---- The order of the walk ----------------------------------------------------------------------
answers.group("plan_order")
# [plan_order]
t = torch.arange(64, dtype=torch.float32).view(4, 4, 4)
p = t.permute(2, 1, 0)  # strides (1, 4, 16)
# PyTorch keeps its plan internal: -p loops over dims by decreasing stride,
order = sorted(range(p.dim()), key=lambda d: -p.stride(d))  # outermost loop first
# the addresses as -p reads them, and in p's logical order (p[0][0][0], p[0][0][1])
walked = [4 * v for v in offsets(p.permute(order)).flatten().tolist()]
logical = [4 * v for v in offsets(p).flatten().tolist()]
# [plan_order]
answers.of("order")
answers.of("-p")
answers.of("walked[:6]")
answers.of("logical[:6]")
answers.of("walked[-1]")
answers.of("-t[:, ::2, 1:3]")

answers.group("index_order")
# [index_order]
t = torch.zeros(2, 2)  # strides (2, 1): dims already in descending order
idx = [(0, 0), (0, 1), (1, 0), (1, 1)]
def addresses(key):
    return [4 * sum(i * s for i, s in zip(ix, t.stride()))
            for ix in sorted(idx, key=key)]
smallest_k = addresses(lambda ix: ix)         # compared at the first differing k
largest_k = addresses(lambda ix: ix[::-1])    # the seed's order: at the last one
# [index_order]
answers.of("smallest_k")
answers.of("largest_k")

answers.group("ties")
# [ties]
overlapping = strided_arange((2, 3), (1, 1))  # (2,3):(1,1)
sum_ = overlapping + 0
wide = strided_arange((3, 2), (1, 1))         # (3,2):(1,1)
broadcast = strided_arange((4, 4, 4), (4, 0, 1))
permuted = strided_arange((4, 4, 4), (1, 4, 16))
column = torch.arange(4, dtype=torch.float32).unsqueeze(1).expand(4, 3)  # (1, 0)
# [ties]
answers.of("overlapping + 0")
answers.of("wide + 0")
answers.of("broadcast * permuted", values=False)
answers.of("column + 0")

# ---- Locality -----------------------------------------------------------------------------------
answers.group("unfold")
# [unfold]
w = torch.arange(6, dtype=torch.float32).unfold(0, 3, 1)  # (4,3):(1,1)
# Equal strides keep the dims' order, so the walk is w's own order; its values are
# the storage offsets it reads.
walk = [int(v) for v in w.flatten().tolist()]
predicted = all(w.stride(k) >= sum((w.size(m) - 1) * w.stride(m)
                                   for m in range(k + 1, w.dim()))
                for k in range(w.dim()) if w.size(k) > 1)
# [unfold]
answers.of("w", base="w")
answers.of("walk")
answers.of("predicted")

answers.group("lines")
# [lines]
x = torch.zeros(64, 64, 64)
# the distinct 64-byte lines a tensor's elements fall in
lines = lambda t: torch.unique(offsets(t) * 4 // 64).numel()
contiguous, permuted = lines(x), lines(x.permute(1, 2, 0))
# [lines]
answers.of("x.permute(1, 2, 0)", base="x", values=False)
answers.of("contiguous")
answers.of("permuted")

answers.group("walk_figure")
# [walk_figure]
x = torch.arange(256, dtype=torch.float32).view(16, 16)
y = torch.arange(256, dtype=torch.float32).view(16, 16)
stepped = x.view(-1)[::5]
# PyTorch keeps its walk internal: -t visits t's dims by decreasing stride,
def walk(t):
    order = sorted(range(t.dim()), key=lambda d: -t.stride(d))
    return offsets(t.permute(order)).flatten().tolist()
contiguous, permuted, step5 = walk(x), walk(x.t()), walk(stepped)
# and x * y.t() follows x's order, so it reads y.t() in y.t()'s logical order
mismatched = offsets(y.t()).flatten().tolist()
# [walk_figure]
walks4 = (contiguous, permuted, step5, mismatched)
lines = [len({4 * o // 64 for o in w[:16]}) for w in walks4]
sectors = [len({4 * o // 32 for o in w[:32]}) for w in walks4]
answers.of("x.t() + 0", values=False)
answers.of("x * y.t()", values=False)
answers.of("stepped", base="x", values=False)
answers.of("lines")
answers.of("sectors")

answers.group("sectors")
by_stride = []
for s in (1, 2, 5, 8, 16):
    # [sectors]
    x = torch.zeros(32 * 64 * s)[::s]
    count = sectors_per_request(x.view(-1, 32))  # 32 lanes a request
    # [sectors]
    by_stride.append(sum(count) / len(count))
answers.of("by_stride")

answers.group("unary_out")
torch.manual_seed(19)
# [unary_out]
x = torch.rand(8, 8, 8)
permuted = x.permute(2, 1, 0) + 3
stride5 = torch.rand(8, 8, 8, 5)[..., 0] + 3     # [..., 0]
holes = torch.rand(8, 8, 4, 8)[..., 0, :] + 3    # [..., 0, :]
# [unary_out]
answers.of("permuted", values=False)
answers.of("stride5", values=False)
answers.of("holes", values=False)

# the walks PF-08 times, run once (timings are not recorded)
walks = add_walks(32)
for name, walk_ in walks.items():
    walk_()

answers.group("lru")
# [lru]
m = torch.zeros(1024, 1024)
rows = (4 * offsets(m)).flatten().tolist()        # m[0][0], m[0][1], ...
columns = (4 * offsets(m.t())).flatten().tolist()  # m[0][0], m[1][0], ...
small_cache, large_cache = 32 * 1024, 128 * 1024   # bytes
row_misses = lru_misses(rows, small_cache)
small = lru_misses(columns, small_cache)
large = lru_misses(columns, large_cache)
# [lru]
answers.of("m.t()", base="m", values=False)
answers.of("row_misses")
answers.of("small")
answers.of("large")

answers.group("reduce_timing")
torch.manual_seed(12)
x = torch.rand(1024, 1024)
# [reduce_timing]
last = sum_plan(x, 1)                 # dim -1: each row walked with unit stride
first = sum_plan(x, 0)                # dim -2: the reduced dim has stride n
row_outer = sum_plan(x, 0, True)      # dim -2: rows outer, the output row inner
# [reduce_timing]
answers.of("x.sum(1).shape")
answers.of("torch.allclose(first(), row_outer())")

answers.group("engine_max")
# [engine_max]
# PyTorch picks its reduction's vectorised path inside amax; both are one call.
max_last = lambda: x.amax(-1)   # each row in vectors
max_first = lambda: x.amax(-2)  # whole rows combined in vectors
# [engine_max]
answers.of("max_first().shape")

answers.group("mappings")
x = torch.zeros(1024, 1024)
# [mappings]
# The CUDA kernels' mappings, as steps × lanes views: a warp cooperating along
# row 0 (dim -1): at step i, lane l reads x[0, 32 i + l];
cooperative = sectors_per_request(x[0].view(-1, 32))
# lanes over 8 adjacent columns of 4 rows (dim -2): in request i, lane l
# reads x[4 i + l // 8, l % 8];
per_column = sectors_per_request(x[:, 0:8].view(-1, 4, 8))
# one thread per row (dim -1): at step j, lane l reads x[l, j].
per_row = sectors_per_request(x[0:32].t())
# [mappings]
answers.of("max(cooperative)")
answers.of("max(per_column)")
answers.of("min(per_row)")

# ---- Binary ops ---------------------------------------------------------------------------------
answers.group("binary_lines")
n = 32
x, y = torch.zeros(n, n, n), torch.zeros(n, n, n)
# [binary_lines]
# PyTorch keeps the walk internal; the output's strides show the layout it walks in.
matched = (x * y).stride()
mismatched = (x * y.transpose(0, 2)).stride()
reversed_ = (x.transpose(0, 2) * y).stride()
# [binary_lines]
answers.of("x * y.transpose(0, 2)", values=False)
answers.of("x.transpose(0, 2) * y", values=False)

answers.group("first_operand")
torch.manual_seed(18)
t1, t2 = torch.rand(4, 4, 4), torch.rand(4, 4, 4)
perms = list(itertools.permutations(range(3)))
pairs = first = values = differ = 0
# [first_operand]
for p in perms:
    for q in perms:
        x, y = t1.permute(p), t2.permute(q)
        xy, yx = x * y, y * x
        first += xy.stride() == x.stride() and yx.stride() == y.stride()
        values += torch.equal(xy, yx)
        differ += (x.stride() != y.stride()) == (p != q)
        pairs += 1
# [first_operand]
answers.of("pairs")
answers.of("first")
answers.of("values")
answers.of("differ")

answers.group("numpy_order")
# [numpy_order]
a = np.arange(12.0).reshape(3, 4)  # float64, byte strides (32, 8)
t = torch.from_numpy(a)            # the same memory: strides (4, 1)
ufunc = a.T * 2                    # a ufunc keeps a.T's order: (8, 32)
method_copy = a.T.copy()           # ndarray.copy() is order='C': (24, 8)
function_copy = np.copy(a.T)       # np.copy() is order='K': (8, 32)
doubled = t.t() * 2                # PyTorch keeps t.t()'s order: (1, 4)
cloned = t.t().clone()             # and so does clone(): (1, 4)
# [numpy_order]
answers.of("ufunc.strides")
answers.of("method_copy.strides")
answers.of("function_copy.strides")
answers.of("doubled")
answers.of("cloned")

answers.group("er10")
x = torch.rand(4, 4, 8)[..., ::2]
y = torch.rand(4, 4, 4)
b = torch.rand(4, 1, 4).expand(4, 4, 4)
p = torch.rand(4, 4, 4).permute(2, 1, 0)
answers.of("x", values=False)
answers.of("x * y", values=False)
answers.of("b", values=False)
answers.of("b * p", values=False)
answers.of("p * b", values=False)

answers.group("copy_pays")
n = 32
x, y = torch.rand(n, n, n), torch.rand(n, n, n)
out = torch.empty(n, n, n)
mul_into = lambda a, b: torch.mul(a, b, out=out)  # out = a * b
# [copy_pays]
yt = y.transpose(0, 2)
def as_is():
    for k in range(8):
        mul_into(x, yt)
def copy_first():
    packed = yt.contiguous()  # one copy, in x's layout
    for k in range(8):
        mul_into(x, packed)
# [copy_pays]
answers.of("yt.contiguous()", base="y", values=False)

# ---- First touch --------------------------------------------------------------------------------
answers.group("first_touch")
torch.manual_seed(21)
x = torch.rand(2**24)  # 64 MiB of float32
pages = x.numel() * x.element_size() // resource.getpagesize()
def page_faults():
    """Minor and major page faults of the whole process so far (getrusage)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_minflt + usage.ru_majflt
# [first_touch]
# PyTorch 1.13's CPU allocator keeps no cache (c10/core/CPUAllocator.cpp): every
# output comes from posix_memalign and goes back to free, so each x.add(3) maps
# its pages afresh. Its CUDA caching allocator is the one that keeps blocks.
y = x.add(3)
del y  # the block goes back to the system
before = page_faults()
y = x.add(3)
fresh = page_faults() - before
del y
# [first_touch]
answers.of("pages")
answers.of("0.9 * pages <= fresh <= 1.1 * pages")

answers.group("first_touch_timing")
# [first_touch_timing]
out = x.add(3)  # allocated once, written by every call
reused = lambda: torch.add(x, 3, out=out)
fresh = lambda: x.add(3)  # a new output, freed at once
# [first_touch_timing]
answers.of("torch.add(x, 3, out=out).data_ptr() == out.data_ptr()")

# ---- Exercises ----------------------------------------------------------------------------------
def lines_per_16(byte_addresses):
    """Distinct 64-byte lines in each 16 consecutive accesses, on average."""
    windows = [byte_addresses[i:i + 16] for i in range(0, len(byte_addresses), 16)]
    return sum(len({a // 64 for a in w}) for w in windows) / len(windows)


def walked_bytes(t):
    """The bytes -t reads, in the order PyTorch's TensorIterator walks them (decreasing stride)."""
    order = sorted(range(t.dim()), key=lambda d: -t.stride(d))
    return [4 * o for o in offsets(t.permute(order)).flatten().tolist()]


answers.group("ex1")
torch.manual_seed(61)
x = torch.rand(64, 64)
walked = lines_per_16(walked_bytes(x.t()))
logical = lines_per_16([4 * o for o in offsets(x.t()).flatten().tolist()])
answers.of("x.t() + 1", values=False)
answers.of("walked")
answers.of("logical")

answers.group("ex2")
p = torch.arange(24.).view(2, 3, 4).permute(2, 0, 1)
answers.of("p * 2")

answers.group("ex3")
torch.manual_seed(63)
x, y = torch.rand(64, 64), torch.rand(64, 64)
# x * y.t() walks in x's order: x and the output in memory order, y.t() logically
per_operand = [lines_per_16(walked_bytes(x)), lines_per_16([4 * o for o in offsets(y.t()).flatten().tolist()]),
               lines_per_16(walked_bytes(x * y.t()))]
answers.of("x * y.t()", values=False)
answers.of("x.t() * y", values=False)
answers.of("per_operand")

answers.group("ex4")
r = torch.rand(16, 16, 16)
yt = torch.zeros(16, 16, 16).transpose(0, 2)
logical_yt = [4 * o for o in offsets(yt).flatten().tolist()]
# x * yt reads yt in x's (row-major) order; the copy reads it in its output's order, the same
mismatched = 2 * lines_per_16(list(range(0, 4 * 16 ** 3, 4))) + lines_per_16(logical_yt)
matched = 3 * lines_per_16(list(range(0, 4 * 16 ** 3, 4)))
read, write = lines_per_16(logical_yt), lines_per_16(walked_bytes(yt.contiguous()))
lines = [mismatched, matched, read, write]
k = next(k for k in range(1, 100) if read + write + k * matched < k * mismatched)
answers.of("r.transpose(0, 2).contiguous()", base="r", values=False)
answers.of("lines")
answers.of("k")

answers.group("ex5")
x = torch.zeros(768)[::3]
sectors = sectors_per_request(x.view(-1, 32))
answers.of("x")
answers.of("sectors")

# ---- Try it -------------------------------------------------------------------------------------
answers.tryit("arange(6).unfold(0, 3, 1)", "torch.arange(6).unfold(0, 3, 1)")
answers.tryit("arange(40).reshape(2, 4, 5)[..., 0]", "torch.arange(40).reshape(2, 4, 5)[..., 0]")

if __name__ == "__main__":
    answers.main()
