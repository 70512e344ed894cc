"""The embed step of the book, one module a job; main.py lists the steps in order.

gpu_runs.py and versions.py, beside this package, are modules of their own, imported by those
names, so the folder above is put on the path here, once."""

import os
import sys

_TOOLS_EMBED = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _TOOLS_EMBED not in sys.path:
    sys.path.insert(0, _TOOLS_EMBED)

from .main import main  # noqa: E402  (after the path: the steps import gpu_runs, versions)

__all__ = ["main"]
