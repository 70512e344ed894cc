"""Chapter 1, Memory topology, in PyTorch: the PyTorch form of every listing of
docs/01_memory_topology.md (the code between `# [name]` markers, shown beside the C++ of
01_memory_topology.cpp under the same name), and the expressions whose answers the book keeps.
`tools/book record-pytorch` runs it with torch 1.13 and writes what PyTorch answered to
docs/recorded/pytorch/01_memory_topology.json; the chapter's checks compare the library's answers
with it.
"""
import ctypes
import io
import itertools
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "pytorch"))
from answers import Answers, storage_of  # noqa: E402

answers = Answers("01_memory_topology")


# ---- teaching helpers: shown on the page ---------------------------------------------------------

# [byte_strides]
# NumPy's .strides: the same steps as PyTorch's stride(), counted in bytes.
def byte_strides(t):
    return tuple(s * t.element_size() for s in t.stride())
# [byte_strides]


# [dump_storage]
# The whole storage, read from its first element: what a tensor's elements are
# taken from. It starts at the storage's data_ptr(), not at the tensor's, which
# already includes the storage offset: a 1-D view of every element, offset 0.
def dump_storage(t):
    n = storage_of(t).nbytes() // t.element_size()
    return t.as_strided((n,), (1,), 0).tolist()
# [dump_storage]


# [index_formula]
# Element idx of v found twice: its index in the storage, counted in
# elements (martinlwx's formula), and its address, counted in bytes from
# data_ptr (nikitaved's).
def storage_index(v, idx):
    steps = sum(i * s for i, s in zip(idx, v.stride()))
    return v.storage_offset() + steps


def address(v, idx):
    steps = sum(i * s for i, s in zip(idx, v.stride()))
    return v.data_ptr() + v.element_size() * steps
# [index_formula]


# [counting]
# A list that counts every read of an item: the cost model of MT-14.
reads = 0


class Counted:
    def __init__(self, items):
        self.items = items

    def __getitem__(self, i):
        global reads
        reads += 1
        return self.items[i]
# [counting]


def runs(byte_set):
    """"{4..7, 16..19}": a set of byte offsets as runs, as the catalogue writes them."""
    out, start, prev = [], None, None
    for b in sorted(byte_set):
        if start is None:
            start = prev = b
        elif b == prev + 1:
            prev = b
        else:
            out.append(f"{start}..{prev}")
            start = prev = b
    if start is not None:
        out.append(f"{start}..{prev}")
    return "{" + ", ".join(out) + "}"


# ---- A tensor is a storage and a layout ----------------------------------------------------------
answers.group("anatomy")
# [anatomy]
t = torch.arange(24).view(2, 3, 4)
p = t.permute(2, 0, 1)
s = t[1, :, 1:3]
# [anatomy]
answers.of("t", base="t")
answers.of("t.permute(2, 0, 1)", base="t")
answers.of("t[1, :, 1:3]", base="t")
answers.of("t[1, :1, 1:3]", base="t")  # one row of it: contiguous, its size-1 dim's stride unused

answers.group("flat")
t = torch.arange(24).view(2, 3, 4)
views = {
    "t": t,
    "t[1]": t[1],
    "t[:, 1:3, ::2]": t[:, 1:3, ::2],
    "t.permute(2, 0, 1)": t.permute(2, 0, 1),
    "t.transpose(0, 2)": t.transpose(0, 2),
    "t[0].diagonal()": t[0].diagonal(),
    "t[:, :1].expand(2, 5, 4)": t[:, :1].expand(2, 5, 4),
    "t.reshape(6, 4)": t.reshape(6, 4),
    "t.as_strided((3, 3), (7, 1), 2)": t.as_strided((3, 3), (7, 1), 2),
}
for name in views:
    answers.of(name, base="t")
# The bytes each view's elements occupy (each byte once), counted from the storage's first byte:
# all inside it.
inside = elements = 0
for v in views.values():
    first, nbytes = storage_of(v).data_ptr(), storage_of(v).nbytes()
    for byte in {v[i].data_ptr() + k - first
                 for i in itertools.product(*map(range, v.shape))
                 for k in range(v.element_size())}:
        elements += 1
        inside += 0 <= byte < nbytes
answers.of("inside")
answers.of("elements")

answers.group("column")
t = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.float32)
col = t[:, 1]
answers.of("t[:, 1]", base="t")
answers.of("runs(v.data_ptr() - storage_of(t).data_ptr() + k for v in col for k in range(4))")

answers.group("shared")
# [shared]
base = torch.arange(6)
view = base[2:5]
del base  # the base is gone ...
still = view.tolist()  # ... its elements are not
# [shared]
answers.of("still")

# ---- Where an element lives ----------------------------------------------------------------------
answers.group("address")
# [address]
t = torch.rand(2, 3, 4)  # float32
visited = equal = 0
for i in range(t.size(0)):
    for j in range(t.size(1)):
        for k in range(t.size(2)):
            steps = i * t.stride(0) + j * t.stride(1) + k * t.stride(2)
            at = t.data_ptr() + t.element_size() * steps
            expected = t[i, j, k].numpy().tobytes()  # its 4 bytes, read by indexing
            equal += ctypes.string_at(at, t.element_size()) == expected
            visited += 1
# [address]
answers.of("t", values=False)
answers.of("visited")
answers.of("equal")
p = t.permute(2, 0, 1)
pequal = 0
for idx in itertools.product(*map(range, p.shape)):
    steps = sum(i * s for i, s in zip(idx, p.stride()))
    pequal += ctypes.string_at(p.data_ptr() + 4 * steps, 4) == p[idx].numpy().tobytes()
answers.of("t.permute(2, 0, 1)", base="t", values=False)
answers.of("pequal")

answers.group("index_formula")
t = torch.arange(60).view(3, 4, 5)
views = {
    "t[1, 1:4, ::2]": t[1, 1:4, ::2],
    "t[1:, :, 3]": t[1:, :, 3],
    "t.permute(1, 2, 0)[::2]": t.permute(1, 2, 0)[::2],
    "t[:, :1, 2:3].expand(3, 6, 1)": t[:, :1, 2:3].expand(3, 6, 1),
    "t[:, :, 4].t()": t[:, :, 4].t(),
}
agree = total = 0
base = storage_of(t).data_ptr()
for v in views.values():
    for idx in itertools.product(*map(range, v.shape)):
        agree += (address(v, idx) == base + v.element_size() * storage_index(v, idx) and
                  v[idx].item() == storage_index(v, idx))  # arange: value == storage index
        total += 1
for name in views:
    answers.of(name, base="t")
answers.of("agree")
answers.of("total")

answers.group("stride_steps")
t = torch.arange(60).view(3, 4, 5)
layouts = {"t": t, "t.permute(2, 0, 1)": t.permute(2, 0, 1), "t[:, ::3]": t[:, ::3],
           "t[:, :1].expand(3, 4, 5)": t[:, :1].expand(3, 4, 5)}
pairs = hold = 0
for v in layouts.values():
    for i in itertools.product(*map(range, v.shape)):
        for k in range(v.dim()):
            if i[k] + 1 >= v.size(k):
                continue
            nxt = list(i)
            nxt[k] += 1
            hold += (v[tuple(nxt)].data_ptr() - v[i].data_ptr()) == v.stride(k) * v.element_size()
            pairs += 1
for name in layouts:
    answers.of(name, base="t")
answers.of("pairs")
answers.of("hold")
x = torch.arange(24).view(2, 3, 4)  # the steps figures: x and its permutation
answers.of("x.permute(2, 0, 1)", base="x")

answers.group("data_ptr")
# [data_ptr]
# A tensor's storage: the one buffer it shares with its views. PyTorch 2
# names it untyped_storage(); 1.13 has only storage(), which 2.x deprecates.
def storage_of(t):
    if hasattr(t, "untyped_storage"):
        return t.untyped_storage()
    return t.storage()


T = torch.Tensor([[1, 2, 3], [4, 5, 6]])  # float32
row = T[1, :]
col = T[:, 1]


def past_base(v):
    return v.data_ptr() - storage_of(v).data_ptr()


t = torch.arange(24).reshape(1, 2, 3, 4)  # int64
t2 = t[:, :, :, 2]
# [data_ptr]
answers.of("T[1, :]", base="T")
answers.of("T[:, 1]", base="T")
answers.of("t[:, :, :, 2]", base="t")
answers.of("past_base(row)")
answers.of("past_base(col)")
answers.of("past_base(t2)")
answers.of("storage_of(col).data_ptr() == storage_of(T).data_ptr()")

answers.group("first_element")
t = torch.arange(24).reshape(1, 2, 3, 4)
v = t[:, :, :, 2]
answers.of("v.data_ptr() == storage_of(v).data_ptr()")
answers.of("ctypes.c_int64.from_address(v.data_ptr()).value")
answers.of("ctypes.c_int64.from_address(storage_of(v).data_ptr()).value")
answers.of("v.untyped_storage().nbytes()")  # 2.0's name for the storage: 1.13 has none

# ---- Row-major, column-major, and bytes ----------------------------------------------------------
answers.group("row_col")
# [row_col]
a = [[0.2949, 0.9608, 0.0965], [0.5463, 0.4176, 0.8146]]
A = torch.tensor(a)                 # row-major: strides (3, 1)
col_buffer = A.t().contiguous()     # the same matrix, column by column
A_col = col_buffer.t()              # read back as 2×3: strides (1, 2)
# [row_col]
answers.of("A")
answers.of("col_buffer")
answers.of("A_col", base="col_buffer")
answers.of("dump_storage(A)")
answers.of("dump_storage(col_buffer)")

answers.group("fresh")
# [fresh]
z = torch.zeros(2, 3)
e = torch.empty(4, 5)
r = torch.arange(6).view(2, 3)
# [fresh]
answers.of("z")
answers.of("e", values=False)
answers.of("r")

answers.group("itemsizes")
for dtype in ["float32", "int32", "int64", "float16"]:
    answers.of(f"torch.empty(0, dtype=torch.{dtype}).element_size()")

answers.group("byte_strides")
i32 = torch.zeros(2, 3, dtype=torch.int32)
f32 = torch.zeros(2, 3)
i64 = torch.zeros(2, 3, dtype=torch.int64)
v32 = torch.zeros(6, dtype=torch.int32)
for name in ["i32", "f32", "i64", "v32"]:
    answers.of(f"{name}.stride()")
    answers.of(f"byte_strides({name})")
    answers.of(f"{name}.numpy().strides")  # NumPy's own answer, in bytes
answers.of("[8 * b for b in byte_strides(i32)]")
answers.of("8 * v32.element_size()")

answers.group("numpy")
# [numpy]
import numpy as np  # noqa: E402 (the listing as a reader pastes it)

a = np.arange(6, dtype=np.float32).reshape(2, 3)  # .strides (12, 4): bytes
t = torch.from_numpy(a)   # a's memory; stride() (3, 1): elements
t[0, 0] = 100             # a sees the write: a[0, 0] is 100 now
shares = torch.as_tensor(a).data_ptr() == t.data_ptr()  # no copy
copies = torch.tensor(a).data_ptr() != t.data_ptr()     # a copy
rev = a[::-1]             # NumPy: a view with strides (-12, 4)
# torch.from_numpy(rev) is refused: a tensor has no negative strides
fixed = torch.from_numpy(rev.copy())  # a copy has positive strides
# [numpy]
answers.of("a.strides")
answers.of("t.stride()")
answers.of("a[0, 0].item()")
answers.of("np.shares_memory(t.numpy(), a)")
answers.of("shares")
answers.of("copies")
answers.of("rev.strides")
answers.of("torch.from_numpy(rev)")
answers.of("fixed")

answers.group("defaults")
# [defaults]
a = torch.arange(24)
T = torch.Tensor([[1, 2, 3], [4, 5, 6]])
r = torch.rand(2, 2)
# [defaults]
answers.of("a")
answers.of("T")
answers.of("r", values=False)
answers.of("storage_of(a).nbytes()")
answers.of("torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.int32).element_size()")

# ---- The memory set ------------------------------------------------------------------------------
answers.group("memset")
# [memset]
# PyTorch has no memory set: every byte of every element, counted from the
# storage's first byte.
def memory_set_bytes(t):
    first = storage_of(t).data_ptr()
    return sorted({t[i].data_ptr() - first + k
                   for i in itertools.product(*map(range, t.shape))
                   for k in range(t.element_size())})


t = torch.Tensor([[1, 2, 3], [4, 5, 6]])
all_bytes = memory_set_bytes(t)
transposed = memory_set_bytes(t.t())
column = memory_set_bytes(t[:, 1])
row = t[0]
expanded = memory_set_bytes(row.expand(4, 3))
# [memset]
answers.of("runs(all_bytes)")
answers.of("transposed == all_bytes")
answers.of("runs(column)")
answers.of("runs(memory_set_bytes(row))")
answers.of("expanded == memory_set_bytes(row)")
answers.of("row.expand(4, 3)", base="t")
answers.of("len(all_bytes)")
answers.of("all_bytes[-1]")

# ---- Views leave the storage alone ---------------------------------------------------------------
answers.group("same_storage")
# [same_storage]
t = torch.arange(24).reshape(1, 2, 3, 4)
views = {
    "t": t,
    "t[:, :, :, 2]": t[:, :, :, 2],
    "t.permute(1, 2, 3, 0)": t.permute(1, 2, 3, 0),
    "t.broadcast_to((2, 2, 3, 4))": t.broadcast_to((2, 2, 3, 4)),
    "t.reshape(6, 4)": t.reshape(6, 4),
}
# [same_storage]
for name in views:
    answers.of(name, base="t")
    answers.of(f"storage_of(views[{name!r}]).nbytes()", name=f"{name}: storage bytes")

answers.group("save")
# [save]
t = torch.zeros(1000, 1000)  # 4,000,000 bytes of storage


def saved_bytes(x):
    buffer = io.BytesIO()
    torch.save(x, buffer)
    return len(buffer.getvalue())


row = saved_bytes(t[:1])           # a view: its whole storage is saved
copy = saved_bytes(t[:1].clone())  # one row's 4,000 bytes, and a little framing
# [save]
answers.of("row")
answers.of("copy")
answers.of("saved_bytes(t)")

answers.group("dump")
# [dump]
t = torch.arange(24).reshape(1, 2, 3, 4)
of_t = dump_storage(t)
of_permuted = dump_storage(t.permute(1, 2, 3, 0))
of_broadcast = dump_storage(t.broadcast_to((2, 2, 3, 4)))
# [dump]
answers.of("of_t")
answers.of("of_permuted")
answers.of("of_broadcast")

answers.group("overrun")
t = torch.arange(24).reshape(1, 2, 3, 4)
v = t[:, :, :, 2]
# The seed's print_internal reads storage().nbytes() bytes from data_ptr(): where would it stop?
answers.of("(v.data_ptr() + storage_of(v).nbytes()) - "
           "(storage_of(v).data_ptr() + storage_of(v).nbytes())")
answers.of("[dump_storage(v)[0], dump_storage(v)[-1]]")

answers.group("assigned")
# [assigned]
t = torch.arange(0, 24).reshape(1, 2, 3, 4)
# [assigned]
answers.of("t")

# ---- No negative strides -------------------------------------------------------------------------
answers.group("flip")
# [flip]
x = torch.arange(10)
f = x.flip(0)  # x[::-1] is refused; flip copies
# [flip]
answers.of("x[::-1]")
answers.of("x.as_strided((2,), (-1,))")
answers.of("x.flip(0)", base="x")

# ---- Why one flat buffer -------------------------------------------------------------------------
answers.group("nested")
# [nested]
# The values 0 to 23 twice: as a 2×3×4 nested list, and as one flat buffer
# in row-major order with its strides.
nested = Counted([
    Counted([Counted([0, 1, 2, 3]), Counted([4, 5, 6, 7]),
             Counted([8, 9, 10, 11])]),
    Counted([Counted([12, 13, 14, 15]), Counted([16, 17, 18, 19]),
             Counted([20, 21, 22, 23])]),
])
flat = Counted(torch.arange(24).tolist())
strides = torch.arange(24).view(2, 3, 4).stride()

before = reads
a = nested[1][2][1]  # the outer list, then a plane, then a row
nested_reads = reads - before

before = reads
b = flat[1 * strides[0] + 2 * strides[1] + 1 * strides[2]]  # the storage
flat_reads = reads - before
# [nested]
answers.of("a == b")
answers.of("nested_reads")
answers.of("flat_reads")
answers.of("strides")

answers.group("positions")
m = torch.tensor([[1, 2], [3, 4]])
answers.of("m[0][1].item()")
answers.of("m[1][2]")

# ---- exercises: each hidden answer, as PyTorch gives it -------------------------------------------

answers.group("ex1")
x = torch.arange(24).view(2, 3, 4)
answers.of("x[1, 2, 3]", base="x")

answers.group("ex2")
answers.of("x.permute(1, 2, 0)", base="x")

answers.group("ex3")
answers.of("torch.zeros(3, 4, dtype=torch.float64)")
answers.of("np.zeros((3, 4)).strides")
answers.of("torch.zeros(3, 4, dtype=torch.float64).numpy().strides")

answers.group("ex4")
x = torch.arange(24).view(4, 6)
y = x[1:3, ::2]
answers.of("x[1:3, ::2]", base="x")
answers.of("y.data_ptr() - storage_of(y).data_ptr()")

if __name__ == "__main__":
    answers.main()
