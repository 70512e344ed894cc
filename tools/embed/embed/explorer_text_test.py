"""Tests of embed/explorer_text.py: reading strided-explore's text report."""

import os
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed import explorer_text  # noqa: E402
from embed.book_case import BookCase  # noqa: E402


class ExplorerTextTest(BookCase):
    def test_the_explorers_last_step_is_read_as_pytorch_prints_it(self):
        a = explorer_text.explorer_answer(self.EXPLORED)
        self.assertEqual(a, {"shape": "(2, 2)", "strides": "(2, 1)", "storage_offset": "0",
                             "dtype": "int64", "is_contiguous": "True",
                             "repr": "tensor([[0, 1],\n\n        [2, 3]])"})


if __name__ == "__main__":
    unittest.main()
