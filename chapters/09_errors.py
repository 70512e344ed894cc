"""Chapter 9, Errors and what they mean, in PyTorch: the PyTorch form of every listing of
docs/09_errors.md (the code between `# [name]` markers, shown beside the C++ of 09_errors.cpp
under the same name), and PyTorch's refusals themselves, whose words the page quotes from the
record. `tools/book record-pytorch` runs it with torch 1.13 and 2.6; the chapter's checks make the
library refuse the same triggers and compare its words with these.
"""
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "pytorch"))
from answers import Answers  # noqa: E402

answers = Answers("09_errors")

answers.group("em_view")
# [em_view]
x = torch.arange(12).view(3, 4)
y = x.t()                    # (4,3):(1,4)
# y.view(12) is refused: dims 0 and 1 of y cannot merge
flat = y.reshape(12)         # a copy
same = y.contiguous().view(12)
# [em_view]
answers.of("y.view(12)")
answers.of("flat", base="x")
answers.of("same", base="x")

answers.group("em_numel")
# [em_numel]
x = torch.arange(6)
# x.view(4) is refused: 4 elements cannot hold 6
rows = x.view(2, -1)         # -1 is worked out: 3
# [em_numel]
answers.of("x.view(4)")
answers.of("x.reshape(4)")
answers.of("rows", base="x")

answers.group("em_expand")
# [em_expand]
x = torch.zeros(2, 3)
# x.expand(4, 3) is refused: dim 0 has size 2, not 1
grown = x.unsqueeze(0).expand(4, 2, 3)  # a new leading dim may grow
tiled = x.repeat(2, 1)                  # (4, 3), a copy
# [em_expand]
answers.of("x.expand(4, 3)")
answers.of("grown", base="x")
answers.of("tiled", base="x")

answers.group("em_broadcast")
# [em_broadcast]
a = torch.zeros(3)
b = torch.zeros(2)
# a + b is refused: sizes 3 and 2 at dim 0
table = a[:, None] + b       # (3, 1) + (2,) -> (3, 2)
# [em_broadcast]
answers.of("a + b")
answers.of("table")

answers.group("em_overlap")
# [em_overlap]
row = torch.zeros(3)
grid = row.expand(2, 3)      # (2,3):(0,1)
# grid.add_(1) is refused: two elements of grid share each cell of row
owned = grid.clone().add_(1)
# [em_overlap]
answers.of("grid.add_(1)")
answers.of("owned")

answers.group("em_negative")
# [em_negative]
x = torch.arange(6)
# x[::-1] and x.as_strided((6,), (-1,), 5) are refused: no negative steps
backwards = x.flip(0)        # a copy, in reverse
# [em_negative]
answers.of("x[::-1]")
answers.of("x.as_strided((6,), (-1,), 5)")
answers.of("backwards", base="x")

answers.group("em_from_numpy")
a = np.arange(6, dtype=np.float32).reshape(2, 3)
rev = a[::-1]                # NumPy: strides (-12, 4), in bytes
answers.of("a.strides")
answers.of("rev.strides")
answers.of("torch.from_numpy(rev)")
answers.of("torch.from_numpy(rev.copy())")

answers.group("em_channels_last")
# [em_channels_last]
m = torch.zeros(3, 4)
# m.contiguous(memory_format=torch.channels_last) is refused: m is 2-d
image = torch.zeros(1, 3, 4, 5).contiguous(memory_format=torch.channels_last)
# [em_channels_last]
answers.of("m.contiguous(memory_format=torch.channels_last)")
answers.of("image")

answers.group("em_version")
# [em_version]
x = torch.tensor([1., 2., 3.], requires_grad=True)
e = x.exp()                  # ExpBackward0 saves its output, e
e.mul_(2)                    # e's version is now 1
# e.sum().backward() is refused: the saved e has changed
# [em_version]
answers.of("e._version")
answers.of("e.sum().backward()")

answers.group("em_leaf")
# [em_leaf]
w = torch.tensor([1., 2., 3.], requires_grad=True)
# w.add_(1) is refused while grad mode is on
with torch.no_grad():
    w.add_(1)                # allowed: no graph records it
# [em_leaf]
answers.of("w.add_(1)")
answers.of("w")

answers.group("em_multi")
# [em_multi]
x = torch.arange(6., requires_grad=True)
y = x * 1
pieces = y.split(3)          # two views, the outputs of one node
# pieces[0].mul_(2) is refused; pieces[0] * 2 is a new tensor
doubled = pieces[0] * 2
# [em_multi]
answers.of("pieces[0].mul_(2)")
answers.of("doubled.detach()", name="doubled")

answers.group("em_numpy")
p = torch.ones(3, requires_grad=True)
answers.of("p.numpy()")
answers.of("p.detach()", base="p")

answers.group("exercises")
x1 = torch.arange(24).view(2, 3, 4).transpose(1, 2)
answers.of("x1")
answers.of("x1.view(2, 12)")
answers.of("torch.zeros(3, 1).expand(3, 4)")
answers.of("torch.zeros(3, 2).expand(3, 4)")
a3 = torch.zeros(4, 3)
b3 = torch.zeros(4)
answers.of("a3 + b3")
answers.of("a3 + b3[:, None]")
answers.of("torch.zeros(2, 3)[:, :2].add_(1)")
answers.of("torch.zeros(3).expand(2, 3).add_(1)")
win = torch.zeros(5)
win.unfold(0, 3, 1).add_(1)
answers.of("win")

if __name__ == "__main__":
    answers.main()
