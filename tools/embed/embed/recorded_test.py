"""Tests of embed/recorded.py: recorded GPU runs beside this build, and their section."""

import json
import os
import re
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed.book_case import BookCase, claim  # noqa: E402


class RecordedTest(BookCase):
    SEED = ("# PyTorch 9.9.0 (a made-up seed)\n"
            "[In[13]] CPU\n49.1 ms \u00b1 54.3 \u03bcs per loop\n"
            "[In[14]] the same on the GPU\n2 ms \u00b1 1 ns per loop\n3 ms \u00b1 1 ns per loop\n"
            "5 ms \u00b1 1 ns per loop\n7 ms \u00b1 1 ns per loop\n"
            "[In[15]] CPU, then GPU\n1 s \u00b1 1 ns per loop\n2 s \u00b1 1 ns per loop\n"
            "40 \u03bcs \u00b1 1 ns per loop\n60 \u03bcs \u00b1 1 ns per loop\n")

    def gpu_record(self, claims, **parts):
        """A recorded GPU run of tools/gpu/record.py's format, with every part present unless a
        keyword replaces it (None drops it)."""
        rec = {
            "format": 1,
            "provenance": {"gpu": "NVIDIA H100", "driver": "555.42", "memory": "81559 MiB",
                           "power_limit": "700.00 W", "sm_clock_max": "1980 MHz",
                           "memory_clock": "2619 MHz", "sm_clock_before": "345 MHz",
                           "sm_clock_after": "1755 MHz", "device_info": ["device 0: NVIDIA H100"],
                           "commit": "def456", "date": "2025-02-02T03:04:05Z",
                           "cuda_runtime": "CUDA runtime 12.4", "cpu": "Test Xeon", "cpu_threads": 16,
                           "os": "Test OS", "compiler": "GCC 12", "flags": "-O2", "sizes": "seed sizes",
                           "architectures": "sm_90", "nvcc": "12.4.131", "torch": "2.3.0+cu124"},
            "ctest_gpu": {"ran": True, "command": "ctest -L gpu", "exit": "0",
                          "tests": [{"name": "cuda.elementwise_gpu", "status": "passed", "seconds": 6.4}],
                          "output": "1/1 Test #1: cuda.elementwise_gpu <ok>"},
            "sanitizer": [{"tool": "memcheck", "program": "cuda.reduce_gpu", "exit": "0",
                           "verdict": "clean", "summary": "ERROR SUMMARY: 0 errors",
                           "test_cases": {"passed": 8, "failed": 0, "skipped": 1}},
                          {"tool": "racecheck", "program": "cuda.matmul_gpu", "exit": "124",
                           "verdict": "not finished", "summary": ""}],
            "chapters": [{"chapter": "99_demo", "exit": "1", "statuses": {"passed": 25, "failed": 1},
                          "failed": ["MT-03"],
                          "failed_judged": {"MT-03": [{"what": "bytes", "measured": "96",
                                                       "expected": "== 64", "compared": True,
                                                       "ok": False}]}}],
            "claims": claims,
            "bench": [{"name": "BM_add3_contiguous_flat", "ms": 0.25, "gb_per_s": 4000.0},
                      {"name": "BM_add3_permuted", "ms": 0.5, "gb_per_s": 2000.0},
                      {"name": "BM_add3_stride5", "error": "out of memory"},
                      {"name": "BM_matmul_low_rank/2", "ms": 0.0125}],
            "pytorch": {"torch": "2.3.0+cu124", "cuda": "12.4", "device": "NVIDIA H100",
                        "experiments": [{"id": "add3_contiguous", "seed": "In[14]", "what": "w",
                                         "median_ms": 0.2, "min_ms": 0.19, "max_ms": 0.21, "bytes": 1},
                                        {"id": "add3_permuted", "seed": "In[14]", "what": "w",
                                         "median_ms": 0.3, "min_ms": 0.29, "max_ms": 0.31, "bytes": 1}]},
            "goals": [{"id": "add_vs_copy", "what": "add(3) against a copy", "value": 0.9618,
                       "bound": 0.9, "sense": "bandwidth", "status": "met"},
                      {"id": "pytorch_add3_contiguous", "what": "add(3), contiguous: no slower",
                       "value": 1.25, "bound": 1.0, "sense": "time", "status": "missed"},
                      {"id": "pytorch_add3_permuted", "what": "add(3), permuted: no slower",
                       "value": 0.99, "range": [0.9403, 1.0404], "bound": 1.0, "sense": "time",
                       "status": "inconclusive"},
                      {"id": "transpose_vs_copy", "what": "transpose against a copy", "status": "not run"}],
        }
        for k, v in parts.items():
            if v is None:
                rec.pop(k)
            else:
                rec[k] = v
        return rec

    def recorded(self, claims, name="nvidia-h100.json", **parts):
        rec = os.path.join(self.root, "recorded")
        os.makedirs(rec, exist_ok=True)
        os.makedirs(os.path.join(self.docs, "recorded", "seeds"), exist_ok=True)
        self.write(os.path.join(self.docs, "recorded", "seeds", "pytorch-for-scientists.txt"), self.SEED)
        self.write(os.path.join(self.docs, "claims.md"),
                   "# Claims {#claims}\n\n\\book{ledger}\n\n## GPU runs {#gpu_runs}\n\n\\book{gpu_runs}\n")
        record = parts.pop("record", None) or self.gpu_record(claims, **parts)
        self.write(os.path.join(rec, name), json.dumps(record))
        return rec

    RATIO = [{"what": "p / c: median time A (s)", "measured": "0.000795", "compared": False},
             {"what": "p / c: ratio B/A", "measured": "1.00137", "expected": "in [0.67, 1.5]",
              "compared": True, "ok": True}]

    def test_a_recorded_gpu_run_is_shown_but_never_makes_a_claim_passed_here(self):
        rec = self.recorded([claim("PF-10", measured=self.RATIO)])
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 0, err)
        data = json.loads(self.read("claims.json"))
        pf = {c["id"]: c for c in data["claims"]}["PF-10"]
        self.assertEqual(pf["status"], "not run")
        self.assertEqual(pf["recorded"][0]["status"], "passed")
        self.assertEqual(pf["recorded"][0]["gpu"], "NVIDIA H100")
        self.assertEqual(data["recorded_runs"][0]["commit"], "def456")
        ledger = self.read("fragments", "book.ledger.html")
        self.assertIn('<a href="#gpu-run-nvidia-h100">recorded on NVIDIA H100</a> at <code>def456</code>, '
                      '<span class="book-nowrap">2025-02-02</span>', ledger)
        page = self.read("99_demo.md")
        self.assertIn("\u25cb&#160;PF-10", page)  # the mark stays "not run"
        self.assertIn("recorded on NVIDIA H100 at def456: passed", page)

    def test_a_recorded_run_of_an_unknown_format_fails_naming_the_file(self):
        rec = self.recorded([claim("PF-10")], record=dict(self.gpu_record([claim("PF-10")]), format=2))
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 1)
        self.assertIn("recorded/nvidia-h100.json: unknown format 2", err)
        # A chapter's report.json, the old form of a recorded run, has no format 1 of a GPU run.
        rec = self.recorded([claim("PF-10")], record={"chapter": "99_demo", "claims": [claim("PF-10")]})
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 1)
        self.assertIn("unknown format None", err)

    def test_a_recorded_claim_without_a_check_fails(self):
        rec = self.recorded([claim("PF-99")])
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 1)
        self.assertIn("nvidia-h100.json", err)
        self.assertIn("recorded claim PF-99", err)

    def test_a_recorded_claim_restated_since_fails(self):
        rec = self.recorded([claim("MT-01", statement="An older sentence.")])
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 1)
        self.assertIn("recorded claim MT-01 states 'An older sentence.'", err)
        self.assertIn("record the run again", err)

    def test_a_recorded_status_never_changes_the_local_status_or_the_counts(self):
        self.recorded([])
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        summary = re.search(r'<p class="ledger-summary">[^<]*</p>',
                            self.read("fragments", "book.ledger.html")).group(0)
        failed = [dict(self.RATIO[1], measured="3.25308", expected="in [0, 2]", ok=False)]
        rec = self.recorded([claim("MT-01", status="failed", measured=failed),
                             claim("PF-10", status="failed", measured=failed)])
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 0, err)  # a claim that failed there does not fail this build
        ledger = self.read("fragments", "book.ledger.html")
        self.assertIn(summary, ledger)
        data = {c["id"]: c for c in json.loads(self.read("claims.json"))["claims"]}
        self.assertEqual(data["MT-01"]["status"], "passed")
        self.assertEqual(data["PF-10"]["status"], "not run")
        self.assertEqual(data["MT-01"]["recorded"][0]["status"], "failed")
        row = re.search(r'<tr id="MT-01">.*?</tr>', ledger).group(0)
        self.assertIn("claim-passed", row)  # this machine's status first ...
        self.assertIn('\u2717 failed</span>', row.split('class="claim-recorded"')[1])  # ... then theirs
        self.assertIn("\u2713&#160;MT-01", self.read("99_demo.md"))

    def test_the_ledger_shows_a_recorded_runs_judged_values(self):
        rec = self.recorded([claim("PF-10", measured=self.RATIO)])
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 0, err)
        row = re.search(r'<tr id="PF-10">.*?</tr>', self.read("fragments", "book.ledger.html")).group(0)
        there = row.split('class="claim-recorded"')[1]
        self.assertIn('p / c: ratio B/A: <span title="1.00137">1.00</span> '
                      '<span class="expected">(expected in [0.67, 1.5])</span>', there)
        self.assertNotIn("median time", there)  # a value only recorded is not judged

    def section(self, rec):
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 0, err)
        html_text = self.read("fragments", "book.gpu_runs.html")
        self.assertIn("\\htmlinclude[block] book.gpu_runs.html", self.read("claims.md"))
        return {part.split("</h3>")[0]: part for part in html_text.split("<h3>")[1:]}

    def test_the_gpu_runs_section_renders_each_table(self):
        parts = self.section(self.recorded([claim("PF-10", status="failed", measured=self.RATIO)]))
        self.assertEqual(list(parts), ["The machine", "Its GPU claims",
                                       "The seed's GPU timings beside the library's and PyTorch's",
                                       "Goals", "GPU tests", "compute-sanitizer",
                                       "Every chapter, at the test sizes"])
        machine = parts["The machine"]
        for value in ("555.42", "700.00 W", "345 MHz before the run, 1755 MHz after it; at most 1980 MHz",
                      "2619 MHz", "Test Xeon, 16 hardware", "<code>-O2</code>", "sm_90", "12.4.131",
                      "2.3.0+cu124", "def456", "seed sizes", "CUDA runtime 12.4"):
            self.assertIn(value, machine)
        claims_part = parts["Its GPU claims"]
        self.assertIn('<a class="claim-id" href="#PF-10">PF-10</a>', claims_part)
        self.assertIn("\u2717 failed", claims_part)
        self.assertIn("(expected in [0.67, 1.5])", claims_part)
        seed = parts["The seed's GPU timings beside the library's and PyTorch's"]
        rows = re.findall(r"<tr>(.*?)</tr>", seed)
        cells = [re.findall(r"<td>(.*?)</td>", r) for r in rows[1:]]
        # In[14]: the seed's 2 and 3 ms, the library's 0.25 and 0.5 ms, PyTorch's 0.2 and 0.3 ms,
        # each over its column's first row.
        self.assertEqual(cells[0], ["In[14]", "add(3), contiguous", "2.00\u00a0ms", "1.00\u00d7",
                                    "250\u00a0\u03bcs", "1.00\u00d7", "200\u00a0\u03bcs", "1.00\u00d7"])
        self.assertEqual(cells[1][2:], ["3.00\u00a0ms", "1.50\u00d7", "500\u00a0\u03bcs", "2.00\u00d7",
                                        "300\u00a0\u03bcs", "1.50\u00d7"])
        self.assertIn("error", cells[2][4])  # the benchmark that failed says so
        # In[15]: the GPU lines are the third and fourth.
        in15 = [c for c in cells if c[1].startswith("amax(-")]
        self.assertEqual([c[2] for c in in15], ["40.0\u00a0\u03bcs", "60.0\u00a0\u03bcs"])
        self.assertEqual(in15[1][3], "1.50\u00d7")
        # In[21]: one row for each k the run timed; the seed's file here quotes no such cell.
        in21 = [c for c in cells if c[1].startswith("k = ")]
        self.assertEqual([c[1] for c in in21], ["k = 2"])
        self.assertIn("not quoted", in21[0][2])
        self.assertIn("PyTorch 9.9.0", seed)  # the seed's version, from its file
        goals = parts["Goals"]
        # A record made before goals had a range shows none.
        self.assertIn("<td>96.2%</td><td>\u2014</td><td>\u2265\u00a090%</td>", goals)
        self.assertIn("<td>1.250\u00d7</td><td>\u2014</td><td>\u2264\u00a01\u00d7</td>", goals)
        self.assertIn("\u2717 missed", goals)
        # A range that holds the bound is inconclusive, never met.
        self.assertIn("<td>0.990\u00d7</td><td>0.940\u00d7\u2060\u2013\u20601.040\u00d7</td>", goals)
        self.assertIn('<span class="claim-status claim-inconclusive">~ inconclusive</span>', goals)
        tests = parts["GPU tests"]
        self.assertIn("<code>cuda.elementwise_gpu</code>", tests)
        self.assertIn("6.4\u00a0s", tests)
        self.assertIn("<details><summary>ctest's output</summary>", tests)
        self.assertIn("&lt;ok&gt;", tests)
        sanitizer = parts["compute-sanitizer"]
        self.assertIn("ERROR SUMMARY: 0 errors", sanitizer)
        self.assertIn(">not finished<", sanitizer)
        self.assertIn("<td>8 passed, 1 left out</td>", sanitizer)  # a filter's cases are said
        self.assertIn("<td>not counted</td>", sanitizer)
        chapters = parts["Every chapter, at the test sizes"]
        self.assertIn("1 failed, 25 passed", chapters)
        self.assertIn('<a href="#MT-03">MT-03</a>', chapters)
        self.assertIn("\u2717 bytes: <span title=\"96\">96</span>", chapters)  # what it judged there
        self.assertIn("(expected == 64)", chapters)
        self.assertIn('<a href="ch99.html">', chapters)

    def test_the_gpu_runs_section_says_not_run_for_a_missing_step(self):
        parts = self.section(self.recorded([], ctest_gpu={"ran": False, "tests": [], "output": ""},
                                           sanitizer=[], chapters=None, bench=[], pytorch={},
                                           goals=[{"id": "g", "what": "a goal", "status": "not run"}]))
        for name in ("Its GPU claims", "GPU tests", "compute-sanitizer", "Every chapter, at the test sizes"):
            self.assertIn("not run", parts[name], name)
        self.assertIn("<td>a goal</td><td>\u2014</td><td>\u2014</td>", parts["Goals"])
        self.assertIn("\u25cb not run", parts["Goals"])
        seed = parts["The seed's GPU timings beside the library's and PyTorch's"]
        row = re.findall(r"<td>(.*?)</td>", re.findall(r"<tr>(.*?)</tr>", seed)[1])
        self.assertEqual(row[2], "2.00\u00a0ms")  # the seed's own time is still shown
        self.assertIn("not run", row[4])
        self.assertIn("not run", row[6])

    def test_a_chapter_cut_short_or_skipped_is_said_so(self):
        parts = self.section(self.recorded([], chapters=[
            {"chapter": "06_performance", "exit": "124", "outcome": "not finished",
             "statuses": {"passed": 2}, "failed": []},
            {"chapter": "07_matmul", "exit": "skipped", "outcome": "not run", "statuses": {},
             "failed": []}]))
        chapters = parts["Every chapter, at the test sizes"]
        self.assertIn("not finished (stopped by its cap): 2 passed before", chapters)
        self.assertIn("not run (no time left)", chapters)

    def test_no_recorded_run_says_so(self):
        self.recorded([])
        os.remove(os.path.join(self.root, "recorded", "nvidia-h100.json"))
        rc, err = self.run_embed("--recorded", os.path.join(self.root, "recorded"))
        self.assertEqual(rc, 0, err)
        self.assertIn("No GPU run is recorded", self.read("fragments", "book.gpu_runs.html"))

    def test_an_unreadable_seed_file_fails(self):
        rec = self.recorded([])
        self.write(os.path.join(self.docs, "recorded", "seeds", "pytorch-for-scientists.txt"),
                   "[In[14]] x\nfast\n")
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 1)
        self.assertIn("pytorch-for-scientists.txt: the seed's quoted timings cannot be read", err)


if __name__ == "__main__":
    unittest.main()
