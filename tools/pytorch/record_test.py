#!/usr/bin/env python3
"""Tests of tools/pytorch/record.py that need no torch: the record's text, the comparison of a
fresh run with it, and the skip when no python imports torch."""

import contextlib
import io
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record  # noqa: E402

RECORD = {
    "torch": "1.13.0a0", "companion": "chapters/99_demo.py", "made_by": "tools/book record-pytorch",
    "chapter": "99_demo",
    "expressions": {"rows": {"T[:, 1]": {"shape": [2], "strides": [3], "storage_offset": 1},
                             "T[1, :].stride()": {"value": [1]}},
                    "bits": {"h_bits": {"value": "0x63d0"}}},
    "tryits": {"arange(4)[::2]": {"pytorch": "torch.arange(4)[::2]", "shape": [2]}},
}


class RecordTest(unittest.TestCase):
    def test_the_record_reads_back_as_written_one_answer_a_line(self):
        text = record.dumps(RECORD)
        self.assertEqual(json.loads(text), RECORD)
        self.assertIn('      "T[:, 1]": {"shape": [2], "strides": [3], "storage_offset": 1},\n', text)
        self.assertIn('    "arange(4)[::2]": {"pytorch": "torch.arange(4)[::2]", "shape": [2]}\n', text)

    def test_a_fresh_run_that_agrees_has_no_differences(self):
        self.assertEqual(record.differences("99_demo", RECORD, json.loads(json.dumps(RECORD))), [])

    def test_each_difference_names_the_chapter_and_the_expression(self):
        fresh = json.loads(json.dumps(RECORD))
        fresh["expressions"]["rows"]["T[:, 1]"]["strides"] = [1]
        del fresh["expressions"]["bits"]["h_bits"]
        fresh["tryits"]["arange(4)[::2]"]["shape"] = [3]
        fresh["torch"] = "2.8.0"
        diff = record.differences("99_demo", RECORD, fresh)
        self.assertEqual(len(diff), 4, diff)
        self.assertIn("99_demo: recorded with torch 1.13.0a0, run with torch 2.8.0", diff)
        self.assertTrue(any(d.startswith("chapter 99_demo, rows / T[:, 1]: recorded") for d in diff))
        self.assertTrue(any(d.startswith("chapter 99_demo, bits / h_bits: recorded") and
                            d.endswith("PyTorch answers null") for d in diff))
        self.assertTrue(any(d.startswith("chapter 99_demo, Try it arange(4)[::2]:") for d in diff))

    def test_without_torch_the_check_is_skipped_not_passed(self):
        saved = record.torches
        record.torches = lambda python=None, root=None: (
            [], ["no python imports torch (tried /x)", "no PyTorch 2 root at /y"])
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err):
                rc = record.main(["--check"])
        finally:
            record.torches = saved
        self.assertEqual(rc, record.SKIPPED)
        self.assertEqual(rc, 77)  # ctest's SKIP_RETURN_CODE for the pytorch test
        self.assertIn("skipped: no python imports torch", err.getvalue())
        self.assertIn("skipped: no PyTorch 2 root at /y", err.getvalue())

    def test_a_series_is_a_versions_major_and_minor(self):
        self.assertEqual(record.series_of("1.13.0a0"), "1.13")
        self.assertEqual(record.series_of("2.6.0+debian"), "2.6")
        self.assertEqual(record.series_of("2.11.0+cu130"), "2.11")

    def test_a_root_runs_python_by_chroot_with_proc_mounted(self):
        argv = record.root_command("/r")
        self.assertIn("unshare", argv)
        self.assertIn('mount -t proc proc "$0/proc" && exec chroot "$0" /usr/bin/python3 "$@"',
                      argv)
        self.assertEqual(argv[-1], "/r")
        torch = record.Torch("root", argv, "2.6.0", stage="/r/stridebook-x1y2")
        self.assertEqual(torch.script("/c/chapters/02_views.py", "/c"),
                         "/stridebook-x1y2/chapters/02_views.py")

    def test_a_missing_root_says_how_to_make_it(self):
        torch, reason = record.root_torch("/nonexistent/root")
        self.assertIsNone(torch)
        self.assertIn("tools/book pytorch2-root", reason)

    def test_the_records_of_two_series_are_compared_answer_by_answer(self):
        import tempfile
        with tempfile.TemporaryDirectory() as root:
            newer = json.loads(json.dumps(RECORD))
            newer["torch"] = "2.6.0"
            newer["expressions"]["rows"]["T[:, 1]"]["strides"] = [7]
            for series, r in (("1.13", RECORD), ("2.6", newer)):
                os.makedirs(os.path.join(root, record.RECORDS, series))
                with open(record.record_path(root, series, "99_demo"), "w") as f:
                    f.write(record.dumps(r))
            lines = record.diff_series(root, "1.13", "2.6")
            self.assertEqual(len(lines), 2, lines)
            self.assertTrue(lines[1].startswith("chapter 99_demo, rows / T[:, 1]: recorded"))


if __name__ == "__main__":
    unittest.main()
