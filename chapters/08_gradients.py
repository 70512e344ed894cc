"""Chapter 8, Gradients through views, in PyTorch: the PyTorch form of every listing of
docs/08_gradients.md (the code between `# [name]` markers, shown beside the C++ of
08_gradients.cpp and 08_gradients/*.cpp under the same name) and of every Try it block, and the
expressions whose answers the book keeps: leaves' gradients, grad_fn names, the tensors a node
saved, and PyTorch's refusals. `tools/book record-pytorch` runs it with torch 1.13 and writes what
PyTorch answered to docs/recorded/pytorch/08_gradients.json; the chapter's checks compare the
library's answers with it.
"""
import copy
import os
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "pytorch"))
from answers import Answers, storage_of  # noqa: E402

# Reading .grad of a non-leaf warns; the chapter reads it on purpose (it is None).
warnings.filterwarnings("ignore", message="The .grad attribute of a Tensor that is not a leaf")

answers = Answers("08_gradients")


def saved_tensors(fn):
    """The tensors a backward node keeps for its formula (its _saved_* attributes that are
    tensors), in attribute order: MulBackward0 keeps _saved_other and _saved_self."""
    names = sorted(k for k in dir(fn) if k.startswith("_saved_"))
    return [getattr(fn, k) for k in names if isinstance(getattr(fn, k), torch.Tensor)]


# ---- A tensor that remembers --------------------------------------------------------------------
answers.group("leaf")
# [leaf]
x = torch.tensor([1., 2., 3.], requires_grad=True)  # a leaf
y = x * x                                           # made by an op: y.grad_fn
# [leaf]
answers.of("x.is_leaf")
answers.of("x.grad_fn is None")
answers.of("x.grad is None")
answers.of("y.is_leaf")
answers.of("y.grad_fn.name()")
answers.of("y.requires_grad")

answers.group("leaf_kinds")
plain = torch.zeros(2)
w = torch.zeros(2, requires_grad=True)
for expression in ["plain.is_leaf", "(plain * 2).is_leaf", "w.is_leaf", "(w * 2).is_leaf",
                   "(w * 2).detach().is_leaf", "(w * 2).requires_grad"]:
    answers.of(expression)

answers.group("copies")
# [copies]
w = torch.ones(3, requires_grad=True)
d = w.detach()           # w's storage and version counter, out of the graph
c = w.clone()            # new storage, in the graph: CloneBackward0
dc = w.detach().clone()  # new storage, out of the graph: a plain copy
o = torch.zeros(3)
o.copy_(w)               # o's own storage, w's values, in the graph
# [copies]
for name in ["d", "c", "dc", "o"]:
    answers.of(f"{name}.data_ptr() == w.data_ptr()")
    answers.of(f"{name}.requires_grad")
    answers.of(f"{name}.is_leaf")
answers.of("c.grad_fn.name()")
answers.of("copy.deepcopy(w).data_ptr() == w.data_ptr()")
answers.of("copy.deepcopy(w).requires_grad")

answers.group("backward")
# [backward]
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * x
y.sum().backward()  # dy/dx = 2x reaches the leaf
z = x * x
z.retain_grad()     # keep the gradient of a non-leaf
z.sum().backward()  # adds into x.grad
# [backward]
answers.of("x.grad")
answers.of("y.grad is None")
answers.of("z.grad")

# ---- Five scalar rules --------------------------------------------------------------------------
answers.group("softmax")
# [softmax]
z = torch.tensor([0.5, -1., 2.], requires_grad=True)
e = z.exp()
s = e * e.sum().pow(-1)  # exp(z) · (Σ exp(z))^(−1)
g = torch.tensor([1., 2., 3.])
s.backward(g)
# [softmax]
answers.of("z.grad")
answers.of("s")
answers.of("s * (g - (s * g).sum())", name="analytic")

answers.group("scalar_matmul")
# [scalar_matmul]
A = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
B = torch.tensor([[1., -1.], [2., 0.], [0., 3.]], requires_grad=True)
G = torch.tensor([[1., 2.], [3., 4.]])
loss = torch.tensor(0.)
for i in range(2):  # L = Σ_ij G[i,j] · Σ_k A[i,k]·B[k,j], scalar by scalar
    for j in range(2):
        for k in range(3):
            loss = loss + G[i, j] * (A[i, k] * B[k, j])
loss.backward()
# [scalar_matmul]
answers.of("A.grad")
answers.of("B.grad")
answers.of("G @ B.detach().t()", name="G·Bᵀ")
answers.of("A.detach().t() @ G", name="Aᵀ·G")
A2 = A.detach().clone().requires_grad_()
B2 = B.detach().clone().requires_grad_()
(A2 @ B2).backward(G)
answers.of("A2.grad", name="matmul A.grad")
answers.of("B2.grad", name="matmul B.grad")

answers.group("scalar_graph")
# [scalar_graph]
xs = torch.tensor([0.5, -1., 2.], dtype=torch.float64, requires_grad=True)
ws = torch.tensor([1., 2., 3.], dtype=torch.float64)
(xs * xs * ws + xs.exp()).sum().backward()  # one tensor graph
# [scalar_graph]
answers.of("xs.grad")

# ---- Gradients through views --------------------------------------------------------------------
answers.group("broadcast_grad")
# [broadcast_grad]
a = torch.tensor([[1., 2.]], requires_grad=True)  # (1, 2)
b = torch.ones(2, 2, requires_grad=True)
(a + b).sum().backward()  # a is read twice per column
a2 = torch.tensor([[1., 2.]], requires_grad=True)
(a2 * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
# [broadcast_grad]
answers.of("a.grad")
answers.of("b.grad")
answers.of("a2.grad")

answers.group("expand_grad")
# [expand_grad]
x = torch.tensor([[1.], [2.], [3.]], requires_grad=True)  # (3, 1)
y = x.expand(2, 3, 4)                                     # strides (0, 1, 0)
w = torch.arange(1., 25.).view(2, 3, 4)
(y * w).sum().backward()  # x.grad: w summed over the stride-0 dims
# [expand_grad]
answers.of("y", base="x")
answers.of("y.grad_fn.name()")
answers.of("x.grad")
answers.of("w.sum((0, 2), keepdim=True).view(3, 1)", name="sum_to_size")

answers.group("shape_ops")
# [shape_ops]
x = torch.arange(6., requires_grad=True)
y = x.reshape(2, 3)
gy = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
y.backward(gy)  # x.grad is gy reshaped back
m = torch.zeros(2, 3, requires_grad=True)
m.t().backward(torch.arange(6.).view(3, 2))  # m.grad is the gradient transposed back
p, q = torch.zeros(2, requires_grad=True), torch.zeros(3, requires_grad=True)
torch.cat([p, q]).backward(torch.arange(5.))  # split back: (0, 1) and (2, 3, 4)
# [shape_ops]
answers.of("x.grad")
answers.of("m.grad")
answers.of("p.grad.tolist()")
answers.of("q.grad.tolist()")
answers.of("y.grad_fn.name()")
answers.of("torch.cat([p, q]).grad_fn.name()")
r = torch.arange(5., requires_grad=True)
pieces = r.split(2)
(pieces[1] * 3).sum().backward()
answers.of("pieces[1].grad_fn.name()")
answers.of("r.grad")

answers.group("permute_grad")
# [permute_grad]
x = torch.zeros(2, 3, 4, requires_grad=True)
y = x.permute(2, 0, 1)              # (4, 2, 3)
gy = torch.arange(24.).view(4, 2, 3)
y.backward(gy)                      # x.grad = gy.permute(1, 2, 0): the inverse
# [permute_grad]
answers.of("y.grad_fn.name()")
answers.of("x.grad")
answers.of("gy.permute(1, 2, 0)", base="gy")

answers.group("slice_grad")
# [slice_grad]
x = torch.zeros(2, 5, requires_grad=True)
y = x[:, 1:5:2]                     # (2, 2), strides (5, 2), offset 1
y.backward(torch.tensor([[1., 2.], [3., 4.]]))  # scattered into zeros of x's shape
# [slice_grad]
answers.of("y", base="x")
answers.of("y.grad_fn.name()")
answers.of("x.grad")

answers.group("diagonal_grad")
# [diagonal_grad]
x = torch.zeros(3, 3, requires_grad=True)
y = x.diagonal(1)                   # (2,), stride 4, offset 1
y.backward(torch.tensor([1., 2.]))  # written on the same diagonal of zeros
# [diagonal_grad]
answers.of("y", base="x")
answers.of("y.grad_fn.name()")
answers.of("x.grad")

answers.group("as_strided_grad")
# [as_strided_grad]
x = torch.zeros(5, requires_grad=True)
y = x.as_strided((3, 3), (1, 1))    # windows that overlap: y[i, j] is x[i + j]
gy = torch.arange(9.).view(3, 3)
y.backward(gy)                      # x.grad[k] = Σ over i + j = k of gy[i, j]
# [as_strided_grad]
answers.of("y", base="x")
answers.of("y.grad_fn.name()")
answers.of("x.grad")
x1 = torch.zeros(5, requires_grad=True)
x1.as_strided((3, 3), (1, 1)).sum().backward()
answers.of("x1.grad", name="reads per element")

# ---- What the graph keeps -----------------------------------------------------------------------
answers.group("product")
# [product]
a, b, c, d = (torch.tensor(v, requires_grad=True) for v in (1., 2., 3., 4.))
e = (a + b) * (c + d)   # _t1 = a + b, _t2 = c + d, e = _t1 * _t2
# [product]
answers.of("e.grad_fn.name()")
answers.of("[n.name() for n, _ in e.grad_fn.next_functions]")
answers.of("[t.item() for t in saved_tensors(e.grad_fn)]")
answers.of("e.grad_fn._saved_self")
answers.of("e.grad_fn._saved_other")
answers.of("[len(saved_tensors(n)) for n, _ in e.grad_fn.next_functions]")
e.backward()
answers.of("[a.grad.item(), b.grad.item(), c.grad.item(), d.grad.item()]", name="grads")

answers.group("seed_sum")
# [seed_sum]
a, b, c, d = (torch.tensor(v, requires_grad=True) for v in (1., 2., 3., 4.))
s = (a + b) + (c + d)   # the seed's literal e = _t1 + _t2
# [seed_sum]
answers.of("[len(saved_tensors(n)) for n in [s.grad_fn] + [n for n, _ in s.grad_fn.next_functions]]",
           name="saved per node")
s.backward()
answers.of("[a.grad.item(), b.grad.item(), c.grad.item(), d.grad.item()]", name="grads")

answers.group("saved_storage")
# [saved_storage]
w = torch.arange(1., 9., dtype=torch.float64)    # 8 elements, 64 bytes
x = torch.ones(2, dtype=torch.float64, requires_grad=True)
y = x * w[0:2]          # MulBackward0 saves the slice w[0:2]: 16 bytes of view
# [saved_storage]
answers.of("saved_tensors(y.grad_fn)[0]", base="w")
answers.of("storage_of(saved_tensors(y.grad_fn)[0]).nbytes()")
answers.of("len(saved_tensors(y.grad_fn))")

# ---- Writing in place ---------------------------------------------------------------------------
answers.group("version")
# [version]
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.tensor([1., 2., 3.])
z = x * y               # MulBackward0 saves y at version 0
y.view(3)[0:2].add_(1)  # a write through another view of y's storage
# [version]
answers.of("y._version")
answers.of("z.sum().backward()")
x2 = torch.tensor([1., 2., 3.], requires_grad=True)
a2 = x2.exp()           # ExpBackward0 saves its result
b2 = a2 * 1
a2.mul_(2)
answers.of("a2._version")
answers.of("b2.sum().backward()")

answers.group("multi_view")
# [multi_view]
x = torch.arange(6., requires_grad=True)
y = x * 1
pieces = y.split(3)   # two views of y, the outputs of one node
# pieces[0].mul_(2) is refused; pieces[0] * 2 makes a new tensor
with torch.no_grad():
    pieces[1].mul_(2)  # no graph records it: allowed
# [multi_view]
answers.of("pieces[0].mul_(2)")
answers.of("[row.add_(1) for row in y.view(2, 3)]")  # rows by unbind: refused too
answers.of("y", name="y after the write under no_grad", values=True)

answers.group("version_owner")
a = torch.zeros(3)
v = a[1:]                    # a view of a
d = a.detach()               # a's data, no history
s = torch.empty(0).set_(a)   # a's storage, but not a view of a
a.add_(1)
a.add_(1)
for expression in ["a._version", "v._version", "d._version", "s._version",
                   "s.data_ptr() == a.data_ptr()"]:
    answers.of(expression)

answers.group("leaf_write")
# [leaf_write]
x = torch.tensor([1., 2., 3.], requires_grad=True)
# x.add_(1) and x[0:2].add_(1) are refused
with torch.no_grad():
    x.add_(1)           # allowed: no graph records it
# [leaf_write]
x0 = torch.tensor([1., 2., 3.], requires_grad=True)
answers.of("x0.add_(1)")
answers.of("x0[0:2].add_(1)")
answers.of("x")
answers.of("x._version")

answers.group("rebase")
# [rebase]
x = torch.tensor([1., 2., 3.], dtype=torch.float64, requires_grad=True)
a = x * 1
v = a[1:]               # v.grad_fn: SliceBackward0
v.mul_(2)               # a.grad_fn: CopySlices; v.grad_fn: AsStridedBackward0
a.sum().backward()
# [rebase]
answers.of("a.grad_fn.name()")
answers.of("v.grad_fn.name()")
answers.of("x.grad")
x3 = torch.tensor([1., 2., 3.], dtype=torch.float64, requires_grad=True)
a3 = x3 * 1
v3 = a3[1:]
answers.of("v3.grad_fn.name()")

# ---- NumPy beside PyTorch -----------------------------------------------------------------------
answers.group("numpy_grad")
# [numpy_grad]
w = torch.ones(3, requires_grad=True)
# w.numpy() is refused: w requires grad
a = w.detach().numpy()  # w's memory, no copy
a[0] = 5                # w[0] is 5 now, yet w._version is still 0
# [numpy_grad]
answers.of("w.numpy()")
answers.of("a.__array_interface__['data'][0] == w.data_ptr()")
answers.of("w", name="w after a[0] = 5")
answers.of("w._version")

# ---- Exercises ----------------------------------------------------------------------------------
answers.group("exercises")
x1 = torch.tensor([[1., 2.]], requires_grad=True)
x1.expand(3, 2).sum().backward()
answers.of("x1.grad")
x2 = torch.zeros(6, requires_grad=True)
x2[1::2].backward(torch.tensor([1., 2., 3.]))
answers.of("x2.grad")
x3 = torch.zeros(4, requires_grad=True)
x3.as_strided((3, 2), (1, 1)).sum().backward()
answers.of("x3.grad")
a4 = torch.ones(2, requires_grad=True)
b4 = a4.detach()
b4.add_(1)
answers.of("a4._version")
answers.of("a4", name="a4 after b4.add_(1)")
x5 = torch.ones(3, requires_grad=True)
y5 = x5.exp()           # ExpBackward0 saves its result, y5
v5 = y5[1:]
v5 += 1                 # a write through a view of y5
answers.of("y5._version")
answers.of("y5.sum().backward()")
x6 = torch.ones(3, requires_grad=True)
y6 = x6 * 2             # MulBackward0 by a number saves no tensor it needs here
v6 = y6[1:]
v6 += 1
y6.sum().backward()
answers.of("y6._version")
answers.of("x6.grad")

# ---- Try it -------------------------------------------------------------------------------------
answers.tryit("tensor([[1., 2.]]).expand(2, 2)", "torch.tensor([[1., 2.]]).expand(2, 2)")
answers.tryit("arange(5).as_strided((3, 3), (1, 1))",
              "torch.arange(5).as_strided((3, 3), (1, 1))")

if __name__ == "__main__":
    answers.main()
