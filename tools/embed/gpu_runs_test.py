"""Tests of gpu_runs.py: the recorded runs' numbers and the seed's quoted timings."""

import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_runs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class GpuRunsTest(unittest.TestCase):
    def test_the_gpu_runs_numbers_never_look_equal_to_a_bound_they_miss(self):
        g = gpu_runs
        self.assertEqual(g.goal_value(1.0004, "time", 1.0), "1.0004\u00d7")
        self.assertEqual(g.goal_value(1.013, "time", 1.0), "1.013\u00d7")
        self.assertEqual(g.goal_value(0.89996, "bandwidth", 0.9), "89.996%")
        self.assertEqual(g.goal_value(0.93, "bandwidth", 0.8), "93.0%")
        # A time that rounds to 1000 μs is written in ms.
        self.assertEqual(g.time_text(0.9996), "1.00\u00a0ms")
        self.assertEqual(g.time_text(0.0386), "38.6\u00a0\u03bcs")

    def test_the_seed_parser_reads_the_quote_file_as_the_chapters_do(self):
        with open(os.path.join(HERE, os.pardir, os.pardir, "docs", "recorded", "seeds",
                               "pytorch-for-scientists.txt"), encoding="utf-8") as f:
            text = f.read()
        cells = gpu_runs.seed_timings(text)
        self.assertEqual(cells["In[14]"], [1.5, 1.5, 4.38, 1.53])
        self.assertEqual([round(t, 6) for t in cells["In[15]"]], [0.0483, 0.318, 0.018, 0.0264])
        self.assertEqual(len(cells["In[21]"]), 5)
        self.assertTrue(gpu_runs.seed_pytorch(text).startswith("2.8"))
        self.assertEqual(gpu_runs.seed_timings("[In[1]] x\n2 s \u00b1 1\n3 ns \u00b1 1\n"),
                         {"In[1]": [2000.0, 3e-6]})
        for bad in ("1 ms before any cell", "[In[1]] x\nabc", "[In[1]] x\n1ms", "[In[1]] x\n1 h per loop",
                    "[In[1] x\n"):
            with self.assertRaises(ValueError, msg=bad):
                gpu_runs.seed_timings(bad)

    def test_the_seeds_low_rank_lines_are_matched_by_k_not_by_position(self):
        text = "[In[21]] (2048\u00d7k) @ (k\u00d72048) for k = 2, 8\n1 ms \u00b1 1\n3 ms \u00b1 1\n"
        self.assertEqual(gpu_runs.seed_low_rank(text), {2: 1.0, 8: 3.0})
        self.assertEqual(gpu_runs.seed_low_rank("[In[14]] x\n1 ms \u00b1 1\n"), {})
        with self.assertRaises(ValueError):
            gpu_runs.seed_low_rank("[In[21]] for k = 2, 8\n1 ms \u00b1 1\n")
        # A run that timed k = 8 alone is shown beside the seed's k = 8, not its first line.
        rec = {"bench": [{"name": "BM_matmul_low_rank/8", "ms": 0.5}], "pytorch": {}}
        html = gpu_runs.seed_table_html(rec, gpu_runs.seed_timings(text),
                                                gpu_runs.seed_low_rank(text), "x")
        row = re.search(r"<td>k = 8</td><td>([^<]*)</td>", html)
        self.assertEqual(row.group(1), gpu_runs.time_text(3.0))


if __name__ == "__main__":
    unittest.main()
