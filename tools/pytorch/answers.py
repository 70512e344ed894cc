"""What a chapter's PyTorch companion records: PyTorch's answer to each expression it names.

A companion (chapters/NN_name.py) is plain PyTorch: its `# [name]` blocks are the listings the page
shows beside the C++, and between them it names the expressions whose answers the book keeps:

    answers = Answers("02_views")
    x = torch.arange(24).reshape(2, 3, 4)
    answers.of("x[0, 2, 2]", base="x")     # evaluated here, in the caller's own variables

Each answer is the expression's shape, strides, storage offset, contiguity, dtype, whether it
shares its base's storage (view or copy) and how many bytes past the base's data_ptr() it starts,
its values when it is small, or the error PyTorch raised. `answers.tryit(EXPLORER, PYTORCH)` keeps
the answer of a page's Try it block, under the explorer expression the page names. Run as a
program, a companion prints its answers as JSON (tools/pytorch/record.py writes them to
docs/recorded/pytorch/<series>/). Runs unchanged under torch 1.13 and 2.x.
"""

import json
import sys

import torch

MAX_VALUES = 64  # values are kept for tensors this small; larger ones keep only their layout


def _plain(v):
    """A JSON value for a Python or torch scalar."""
    if isinstance(v, float) and v != v:
        return "NaN"
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def _values(t):
    flat = t.detach().reshape(-1).tolist()
    return [_plain(v) for v in flat]


def storage_of(t):
    """A tensor's storage: untyped_storage() where it exists (PyTorch 2), else storage() (1.13,
    which has no untyped_storage; 2.x deprecates storage() with a warning)."""
    if hasattr(t, "untyped_storage"):
        return t.untyped_storage()
    return t.storage()


def storage_values(t):
    """Every element of t's storage, from its first: a 1-D view of the whole storage, offset 0."""
    return t.as_strided((storage_of(t).nbytes() // t.element_size(),), (1,), 0).tolist()


def describe(t, base=None, values=True):
    """PyTorch's answer for one result: a tensor's layout and values, or a plain value. VALUES
    false keeps the layout alone (a tensor of random or uninitialised values)."""
    if not isinstance(t, torch.Tensor):
        if isinstance(t, torch.Size):
            t = tuple(t)
        if isinstance(t, tuple):
            t = list(t)
        return {"value": _plain(t)}
    a = {
        "shape": list(t.shape),
        "strides": list(t.stride()),
        "storage_offset": t.storage_offset(),
        "is_contiguous": t.is_contiguous(),
        "dtype": str(t.dtype).replace("torch.", ""),
    }
    if values and t.device.type != "meta" and t.numel() <= MAX_VALUES:
        a["values"] = _values(t)
    if base is not None and t.device.type != "meta":
        a["shares_storage"] = storage_of(t).data_ptr() == storage_of(base).data_ptr()
        if a["shares_storage"]:
            a["bytes_past_base"] = t.data_ptr() - base.data_ptr()
    return a


class Answers:
    """The answers of one chapter's companion, in the order it asked."""

    def __init__(self, chapter):
        self.chapter = chapter
        self.expressions = {}  # listing (or output) name -> expression -> answer
        self.tryits = {}
        self.current = None

    def group(self, name):
        """The answers that follow belong to the listing (or output) NAME of the page."""
        if name in self.expressions:
            raise ValueError(f"{self.chapter}: the group {name!r} is opened twice")
        self.current = name
        self.expressions[name] = {}

    def _eval(self, expression, frame):
        # The companion's own text, in its own variables.
        return eval(expression, frame.f_globals, frame.f_locals)  # noqa: S307

    def of(self, expression, base=None, name=None, values=True):
        """Records PyTorch's answer for EXPRESSION, evaluated in the caller's variables, under NAME
        (the expression itself unless given); BASE (the name of a tensor there) is what "view or
        copy" and "bytes past" are measured against. VALUES false keeps no values (rand, empty:
        the library's would differ)."""
        frame = sys._getframe(1)
        if self.current is None:
            raise ValueError(f"{self.chapter}: {expression!r} is recorded before any group()")
        answers = self.expressions[self.current]
        name = name or expression
        if name in answers:
            raise ValueError(f"{self.chapter}: {self.current} / {name!r} is recorded twice")
        try:
            result = self._eval(expression, frame)
        except Exception as e:  # PyTorch's refusal is an answer too
            answers[name] = {"error": f"{type(e).__name__}: {e}"}
            return None
        entry = describe(result, self._eval(base, frame) if base else None, values)
        if base:
            entry["base"] = base
        answers[name] = entry
        return result

    def tryit(self, explorer, pytorch):
        """Records the answer for a page's `\\tryit 'EXPLORER'` block, written in PyTorch as
        PYTORCH (an expression of torch alone)."""
        result = eval(pytorch, {"torch": torch})  # noqa: S307
        self.tryits[explorer] = {"pytorch": pytorch, **describe(result), "repr": repr(result)}

    def as_json(self):
        return {"chapter": self.chapter, "expressions": self.expressions, "tryits": self.tryits}

    def main(self):
        """Prints the answers (what a companion run as a program does)."""
        json.dump(self.as_json(), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
