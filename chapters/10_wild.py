"""Chapter 10, Strides in the wild, in PyTorch: the PyTorch form of every listing of
docs/10_wild.md (the code between `# [name]` markers, shown beside the C++ of 10_wild.cpp under
the same name), and the expressions whose answers the book keeps: the layouts of ops the library
does not have (cat, stack, einsum, sort, topk, cumsum), and what happens at the boundaries with
NumPy, DLPack, torch.save and torch.compile. `tools/book record-pytorch` runs it with torch 2.6
and 1.13; the chapter's checks compare the library's answers and layout rules with it.
"""
import copy
import io
import os
import sys
import warnings

import numpy as np
import torch
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "pytorch"))
from answers import Answers, storage_of  # noqa: E402

answers = Answers("10_wild")
copy_module = copy.deepcopy

# ---- Which layout an op returns -----------------------------------------------------------------
answers.group("einsum")
# [einsum]
x = torch.arange(12.).view(3, 4)
y = torch.arange(20.).view(4, 5)
z = torch.einsum('ij,jk->ki', x, y)   # (5, 3), strides (1, 5)
m = x @ y                             # (3, 5), contiguous
# [einsum]
answers.of("torch.einsum('ij,jk->ki', x, y)")
answers.of("x @ y")
answers.of("torch.einsum('ij->ji', x)", base="x")

answers.group("products")
# [products]
t = torch.arange(12.).view(3, 4).t()                    # (4, 3), strides (1, 4)
p = t @ t.t()                                           # (4, 4), strides (4, 1)
bt = torch.arange(24.).view(2, 3, 4).transpose(1, 2)    # (2, 4, 3), strides (12, 1, 4)
q = torch.bmm(bt, torch.arange(30.).view(2, 3, 5))      # (2, 4, 5), strides (20, 5, 1)
# [products]
answers.of("t @ t.t()")
answers.of("torch.bmm(bt, torch.arange(30.).view(2, 3, 5))")

answers.group("cat")
# [cat]
a = torch.arange(120.).view(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)
b = torch.arange(120.).view(2, 3, 4, 5)              # contiguous
both = torch.cat([a, a])      # (4, 3, 4, 5), channels last: (60, 1, 15, 3)
mixed = torch.cat([a, b])     # one input is not: contiguous, (60, 20, 5, 1)
flipped = torch.cat([b, a])   # the order does not matter
# [cat]
answers.of("a.stride()")
answers.of("torch.cat([a, a]).stride()")
answers.of("torch.cat([a, b]).stride()")
answers.of("torch.cat([b, a]).stride()")
answers.of("torch.cat([a, a], 1).stride()")
answers.of("torch.stack([t, t]).stride()")
answers.of("torch.cat([t, t]).stride()")

answers.group("keepdim")
# [keepdim]
s = torch.arange(24.).view(2, 3, 4)
k1 = s.sum(1, keepdim=True)     # (2, 1, 4), strides (4, 4, 1)
k2 = s.sum(2, keepdim=True)     # (2, 3, 1), strides (3, 1, 1)
# [keepdim]
answers.of("s.sum(1, keepdim=True)")
answers.of("s.sum(2, keepdim=True)")
answers.of("s.sum(0, keepdim=True)")
answers.of("s.amax(1, keepdim=True)")

answers.group("like")
# [like]
p = torch.arange(24.).view(2, 3, 4).permute(2, 0, 1)        # (4, 2, 3), strides (1, 12, 4)
kept = p.clone()                                            # preserve_format: (1, 12, 4)
rowmajor = p.clone(memory_format=torch.contiguous_format)   # (6, 3, 1)
blank = torch.empty_like(p)                                 # (1, 12, 4)
# [like]
answers.of("p")
answers.of("p.clone()")
answers.of("p.clone(memory_format=torch.contiguous_format)")
answers.of("torch.empty_like(p)", values=False)
answers.of("torch.empty_like(p, memory_format=torch.contiguous_format)", values=False)
answers.of("p[:, :, ::2].clone()")

answers.group("sort")
# [sort]
t = torch.tensor([[3., 1, 2], [0, 5, 4], [9, 7, 8], [6, 11, 10]]).t().contiguous().t()
by_col = t.sort(0).values       # t's strides kept: (1, 4)
top = t.topk(2, 0).values       # contiguous: (3, 1)
run = t.cumsum(0)               # contiguous: (3, 1)
# [sort]
answers.of("t")
answers.of("t.sort(0).values")
answers.of("t.sort(0).indices")
answers.of("t.sort(1).values")
answers.of("t.topk(2, 0).values")
answers.of("t.cumsum(0)")

# ---- Copies hidden inside ops -------------------------------------------------------------------
answers.group("fold")
# [fold]
one = torch.arange(15.).view(1, 3, 5)
batch = one.expand(4, 3, 5)       # (4, 3, 5), strides (0, 5, 1): no new memory
w = torch.arange(10.).view(5, 2)
out = batch @ w                   # (4, 3, 2)
rows = batch.reshape(-1, 5)       # matmul's fold: a copy of 4 · 3 · 5 = 60 elements
# [fold]
answers.of("batch")
answers.of("batch @ w")
answers.of("batch.reshape(-1, 5)", base="batch")
answers.of("one.reshape(-1, 5)", base="one")


def ops(run):
    """The names of the ATen ops a call runs, in order, as PyTorch's profiler lists them."""
    with torch.autograd.profiler.profile() as prof:
        run()
    return [e.name for e in prof.function_events]


wg = w.clone().requires_grad_()
answers.of("'aten::clone' in ops(lambda: batch @ w)")
answers.of("'aten::bmm' in ops(lambda: batch @ w)")
dense = batch.contiguous()
answers.of("'aten::clone' in ops(lambda: dense @ w)")
answers.of("'aten::bmm' in ops(lambda: dense @ w)")
answers.of("'aten::clone' in ops(lambda: batch @ wg)")

answers.group("inside")
# [inside]
x = torch.arange(4096.).view(8, 16, 32)
xt = x.transpose(1, 2)              # (8, 32, 16), strides (512, 1, 32)
norm = torch.nn.LayerNorm(16)
y = norm(xt)                        # copies xt first: 4096 elements
s = xt.sum(-1)                      # walks xt's strides: no copy
# [inside]
xc = xt.contiguous()
idx = torch.tensor([0, 2])
g = torch.zeros(8, 32, 1, dtype=torch.long)
inside_ops = {
    "layer_norm": lambda a: norm(a),
    "softmax": lambda a: a.softmax(-1),
    "index_select": lambda a: a.index_select(1, idx),
    "sum": lambda a: a.sum(-1),
    "cumsum": lambda a: a.cumsum(-1),
    "topk": lambda a: a.topk(2, -1),
    "gather": lambda a: a.gather(-1, g),
}


def hidden_copies(a):
    """Which of inside_ops copy their input `a` first: an aten::clone in the profiler's list."""
    return {name: "aten::clone" in ops(lambda: f(a)) for name, f in inside_ops.items()}


def clone_bytes(run):
    """The bytes of each aten::empty_like a call runs (the buffer of its hidden copy)."""
    with torch.autograd.profiler.profile(profile_memory=True) as prof:
        run()
    return [e.cpu_memory_usage for e in prof.function_events if e.name == "aten::empty_like"]


answers.of("xt")
answers.of("hidden_copies(xt)")
answers.of("hidden_copies(xc)")
answers.of("clone_bytes(lambda: norm(xt))")

answers.group("permute")
# [permute]
cube = torch.arange(24.).view(2, 3, 4)
swap_last = cube.permute(0, 2, 1)   # strides (12, 1, 4): a batch of transposes
reverse = cube.permute(2, 1, 0)     # strides (1, 4, 12): no dim keeps stride 1 in place
# [permute]
answers.of("swap_last.contiguous()")
answers.of("reverse.contiguous()")
answers.of("cube.view(6, 4).t().contiguous()")

answers.group("expanded")
# [expanded]
col = torch.arange(3.).view(3, 1)
wide = col.expand(3, 1000)            # strides (0 along 1000): 3 elements of memory
f64 = wide.to(torch.float64)          # a new tensor of 3000 elements, strides (1000, 1)
copy = wide.clone()                   # the same: (1000, 1)
# [expanded]
answers.of("wide.stride()")
answers.of("wide.to(torch.float64).stride()")
answers.of("wide.clone().stride()")
answers.of("wide.contiguous().stride()")
answers.of("storage_of(wide.clone()).nbytes()")
answers.of("storage_of(wide).nbytes()")

# ---- Small innermost dims -----------------------------------------------------------------------
answers.group("pairs")
# [pairs]
xy = torch.arange(16.).view(8, 2)     # 8 points (x, y); in the timing, 2^20 of them
by_sum = xy.sum(-1)                   # a reduction over a dim of 2
by_add = xy[:, 0] + xy[:, 1]          # an element-wise add of two stride-2 columns
# [pairs]
answers.of("xy.sum(-1)")
answers.of("xy[:, 0] + xy[:, 1]")
answers.of("xy[:, 0]", base="xy")

# ---- Devices and buffers ------------------------------------------------------------------------
answers.group("device")
# [device]
x = torch.arange(12.).view(3, 4)
rows = x[1:]                        # rows 1 and 2: dense, 8 elements
cols = x[:, ::2]                    # every second column: holes between its elements
wide = torch.arange(3.).view(3, 1).expand(3, 1000)
moved = cols.to("meta")             # the layout .to("cuda") allocates
# [device]


def moved_layout(t):
    """The layout a copy of t to another device gets: its strides, offset and storage bytes."""
    m = t.to("meta")
    return {"strides": list(m.stride()), "offset": m.storage_offset(),
            "nbytes": storage_of(m).nbytes()}


answers.of("moved_layout(rows)")
answers.of("moved_layout(cols)")
answers.of("moved_layout(x.t())")
answers.of("moved_layout(x.t()[:, ::2])")
answers.of("moved_layout(wide)")


def pin(t):
    """pin_memory() of t: on a machine without CUDA, the error PyTorch raises."""
    try:
        return {"pinned": t.pin_memory().is_pinned()}
    except Exception as e:  # noqa: BLE001 (the refusal is the answer)
        return {"error": type(e).__name__, "first words": " ".join(str(e).split()[:6])}


answers.of("pin(cols)")
answers.of("torch.cuda.is_available()")

# ---- Crossing a boundary ------------------------------------------------------------------------
answers.group("numpy")
# [numpy]
f = np.arange(6.).reshape((2, 3), order='F')   # Fortran order: .strides (8, 16) bytes
tf = torch.from_numpy(f)                       # .stride() (1, 2) elements, f's memory
f[0, 0] = 42.                                  # seen through tf
dense = np.ascontiguousarray(f)                # a C-order copy: .strides (24, 8)
# [numpy]
answers.of("list(f.strides)")
answers.of("f.itemsize")
answers.of("tf")
answers.of("tf.stride()")
answers.of("tf[0, 0].item()")
answers.of("np.shares_memory(dense, f)")
answers.of("list(dense.strides)")
answers.of("torch.from_numpy(dense).stride()")


def read_only():
    """from_numpy of a read-only array: the warnings it gives, and whether the tensor is writable."""
    ro = np.arange(4.)
    ro.flags.writeable = False
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        tr = torch.from_numpy(ro)
    tr[0] = 7.  # PyTorch does not refuse the write: the array changes under NumPy's flag
    return {"warnings": [str(w.message).split(".")[0] for w in seen], "ro[0]": float(ro[0])}


answers.of("read_only()")

answers.group("dlpack")
# [dlpack]
from torch.utils import dlpack  # noqa: E402
t = torch.arange(12.).view(3, 4).t()                 # strides (1, 4)
d = dlpack.from_dlpack(dlpack.to_dlpack(t))          # the same memory, the same strides
# [dlpack]
answers.of("d", base="t")
answers.of("d.data_ptr() == t.data_ptr()")
answers.of("list(np.from_dlpack(t).strides) if hasattr(np, 'from_dlpack') else None")

answers.group("save")
# [save]
base = torch.arange(6.)
v1, v2 = base[:3], base[2:]           # two views of one storage, 2 elements apart
buf = io.BytesIO()
torch.save([v1, v2], buf)
buf.seek(0)
l1, l2 = torch.load(buf)              # still one storage: l2 starts 8 bytes after l1
# [save]
answers.of("l1")
answers.of("l2")
answers.of("storage_of(l1).data_ptr() == storage_of(l2).data_ptr()")
answers.of("l2.data_ptr() - l1.data_ptr()")
answers.of("l2.storage_offset()")
answers.of("storage_of(l1).nbytes()")

answers.group("buffers")
# [buffers]
a = torch.arange(6.).view(2, 3)
b = torch.arange(4.).view(2, 2).t()                 # strides (1, 2)
flat = torch.cat([a.reshape(-1), b.reshape(-1)])    # one dense buffer of 10 elements
a2, b2 = flat[:6].view(2, 3), flat[6:].view(2, 2)   # views of it: b2 is contiguous, (2, 1)
# [buffers]
answers.of("flat")
answers.of("a2", base="flat")
answers.of("b2", base="flat")
# What distributed data parallel's buckets do (torch/_utils.py): the same buffer, the same views.
answers.of("torch.equal(flat, _flatten_dense_tensors([a, b]))")
answers.of("[u.stride() for u in _unflatten_dense_tensors(flat, [a, b])]")
answers.of("[u.storage_offset() for u in _unflatten_dense_tensors(flat, [a, b])]")
pb = torch.nn.Parameter(b.clone().t().contiguous().t())
answers.of("torch.nn.utils.parameters_to_vector([pb])")


def lstm_storages():
    """How many storages an LSTM's four weights use on the CPU, before and after flatten_parameters."""
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(4, 3)

    def count():
        return len({storage_of(w).data_ptr() for w in lstm._flat_weights})
    before = count()
    lstm.flatten_parameters()
    return {"before": before, "after": count()}


answers.of("lstm_storages()")

answers.group("data_ptr")
# [data_ptr]
t = torch.arange(12.).view(3, 4).t()
raw = t.as_strided((12,), (1,), 0)    # what a kernel reading data_ptr() in order sees
flat = t.contiguous().view(-1)        # what it meant to read: t row by row
# [data_ptr]
answers.of("t.is_contiguous()")
answers.of("raw")
answers.of("flat")

# ---- Channels last through a network -----------------------------------------------------------
answers.group("network")
# [network]
torch.manual_seed(0)
img = torch.rand(2, 3, 8, 8)                                # NCHW
img_cl = img.contiguous(memory_format=torch.channels_last)  # NHWC in memory
net = torch.nn.Sequential(
    torch.nn.Conv2d(3, 4, 3, padding=1), torch.nn.BatchNorm2d(4), torch.nn.ReLU(),
    torch.nn.MaxPool2d(2), torch.nn.Conv2d(4, 4, 1)).eval()
out_cl = net(img_cl)                # channels last throughout: (64, 1, 16, 4)
out = net(img)                      # contiguous throughout: (64, 16, 4, 1)
# [network]
answers.of("out_cl.stride()")
answers.of("out.stride()")
answers.of("net[0](img_cl).stride()")
net_cl = copy_module(net).to(memory_format=torch.channels_last)
answers.of("net_cl[0](img).stride()")
answers.of("net_cl(img).stride()")
answers.of("torch.allclose(out_cl, out, atol=1e-6)")
answers.of("out_cl.flatten(1).stride()")
answers.of("'aten::clone' in ops(lambda: out_cl.flatten(1))")

# [linear]
lin = torch.nn.Linear(3, 6)
tokens = img.permute(0, 2, 3, 1)        # over NCHW memory: (192, 8, 1, 64)
tokens_cl = img_cl.permute(0, 2, 3, 1)  # over NHWC memory: (192, 24, 3, 1)
# [linear]
answers.of("tokens.stride()")
answers.of("tokens_cl.stride()")
answers.of("'aten::clone' in ops(lambda: lin(tokens))")
answers.of("'aten::clone' in ops(lambda: lin(tokens_cl))")
answers.of("lin(tokens).stride()")
answers.of("torch.allclose(lin(tokens), lin(tokens_cl))")

answers.group("compile")
# [compile]
def f2(x):
    return x.t() * 2                  # eager: strides (1, 4), like x.t()


xc = torch.arange(12.).view(3, 4)
# compiled = torch.compile(f2)(xc)    # PyTorch 2 only; here it fails: no C++ compiler
# [compile]
answers.of("f2(xc)")
answers.of("hasattr(torch, 'compile')")


def compiled_layout():
    """What torch.compile of f2 gives here: its shape and strides, or the class of its failure."""
    if not hasattr(torch, "compile"):
        return "no torch.compile"
    try:
        out = torch.compile(f2)(xc)
        return {"shape": list(out.shape), "strides": list(out.stride()),
                "equal": bool(torch.equal(out, f2(xc)))}
    except Exception as e:  # noqa: BLE001 (the failure is the answer)
        cause = getattr(e, "inner_exception", None) or e.__cause__ or e
        return type(e).__name__ + " from " + type(cause).__name__


answers.of("compiled_layout()")

# ---- Exercises ----------------------------------------------------------------------------------
answers.group("exercises")
e1 = torch.arange(6.).view(2, 3)
answers.of("torch.einsum('ij->ji', e1)", base="e1")
answers.of("torch.arange(60.).view(3, 4, 5).sum(1, keepdim=True).stride()")
e4 = np.zeros((3, 4), dtype=np.float32, order='F')
answers.of("torch.from_numpy(e4).stride()")
answers.of("list(e4.strides)")
e5 = torch.zeros(1, 5).expand(1000, 5)
answers.of("e5.clone().stride()")
answers.of("storage_of(e5.clone()).nbytes()")

if __name__ == "__main__":
    answers.main()
