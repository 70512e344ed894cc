"""Tests of embed/pytorch_records.py: PyTorch's recorded answers and the versions page."""

import json
import os
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed.book_case import BookCase, PAGE  # noqa: E402


class PyTorchRecordsTest(BookCase):
    def test_a_companion_without_its_record_fails(self):
        self.write(os.path.splitext(self.src)[0] + ".py", self.COMPANION)
        self.assertFails("99_demo.py", "no record", "tools/book record-pytorch")

    def test_the_versions_page_is_a_row_per_noted_difference_with_its_claims(self):
        now = {"g": {"x.squeeze((0, 1))": {"shape": [], "strides": [], "storage_offset": 0,
                                           "is_contiguous": True, "dtype": "float32"},
                     "same": {"value": 3}}}
        before = {"g": {"x.squeeze((0, 1))": {"error": "TypeError: squeeze() received an "
                                                       "invalid combination of arguments"},
                        "same": {"value": 3}}}
        key = "g / x.squeeze((0, 1))"
        self.with_companion(expressions=now, earlier_expressions=before,
                            notes={"99_demo": {key: "squeeze takes a tuple of dims"}})
        with open(os.path.join(self.out, "99_demo", "report.json"), encoding="utf-8") as f:
            report = json.load(f)
        report["pytorch_versions"] = [{"chapter": "99_demo", "compared": {key: ["MT-03"]}}]
        self.write(os.path.join(self.out, "99_demo", "report.json"), json.dumps(report))
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        table = self.read("fragments", "book.versions.html")
        self.assertEqual(table.count("<tr>"), 2, table)  # the header and one row: "same" agrees
        self.assertIn("squeeze takes a tuple of dims", table)
        self.assertIn("TypeError: squeeze() received an invalid combination of arguments", table)
        self.assertIn("shape (), strides (), offset 0, float32", table)
        self.assertIn('<a href="claims.html#MT-03">MT-03</a>', table)
        self.assertIn("<dt>PyTorch 1.13.0a0</dt>", table)
        self.assertIn("<dt>PyTorch 2.11</dt><dd><code>not recorded</code>", table)
        self.assertIn("The records hold 2 answers of PyTorch 2.6.0. PyTorch 1.13.0a0 answered 1 of "
                      "them otherwise", table)
        self.assertIn("0 of these differences are a tensor's layout", table)

    def test_a_note_without_a_difference_fails(self):
        same = {"g": {"same": {"value": 3}}}
        self.with_companion(expressions=same, notes={"99_demo": {"g / same": "nothing, really"}})
        self.assertFails("differences.json", "chapter 99_demo, g / same: noted as a difference, "
                         "but the records agree")

    def test_an_answer_of_2_6_that_1_13_lacks_fails(self):
        self.with_companion(expressions={"g": {"new": {"value": 1}}}, earlier_expressions={"g": {}})
        self.assertFails("differences.json", "chapter 99_demo, g / new: PyTorch 2.6 answers it "
                         "and 1.13's record has no answer")

    def test_a_recorded_tryit_the_page_does_not_show_fails(self):
        record = self.tryit_record()
        record["arange(6)[::2]"] = dict(record["arange(4).view(2, 2)"], pytorch="torch.arange(6)[::2]")
        self.with_companion(record)
        explore = self.explore_answering(self.EXPLORED)
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\tryit 'arange(4).view(2, 2)'\n\nDone.\n")
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 1)
        self.assertIn("chapter 99_demo: PyTorch's recorded answer for the Try it block "
                      "'arange(6)[::2]' is shown by no \\tryit of docs/99_demo.md", err)


if __name__ == "__main__":
    unittest.main()
