"""Tests of embed/fragments.py: a chapter's outputs and values, escaped."""

import os
import sys
import time
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed import common, fragments  # noqa: E402
from embed.book_case import BookCase  # noqa: E402


class FragmentsTest(BookCase):
    def test_an_output_older_than_the_source_fails(self):
        os.utime(self.src, None)  # the source changed after the chapter ran
        old = time.time() - 50
        os.utime(os.path.join(self.chout, "grid.svg"), (old, old))
        os.utime(os.path.join(self.chout, "report.json"), None)
        self.assertFails("grid.svg", "older than the chapter's source", "MT-03")

    def test_a_value_that_could_inject_markup_is_refused(self):
        self.report["values"]["evil"] = "\\htmlonly<script>"
        self.save_report()
        self.assertFails("99_demo.cpp", "value evil")

    def test_a_table_that_is_not_an_object_of_lists_is_a_problem_not_a_crash(self):
        for body in ("[1, 2]", '{"rows": [1]}', '{"header": "h"}'):
            problems = common.Problems()
            path = os.path.join(self.chout, "bad_table.json")
            self.write(path, body)
            out = fragments.fragment_html({"out": self.chout},
                                      {"file": "bad_table.json", "kind": "table", "name": "t"},
                                      problems, self.root)
            self.assertIsNone(out)


if __name__ == "__main__":
    unittest.main()
