#!/usr/bin/env python3
"""Tests of tools/gpu/record.py on small results folders written here, shaped as device_run.sh
writes them: what ran is recorded with its numbers, and what did not run is never counted."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record  # noqa: E402

SMI = ("name, driver_version, memory.total [MiB], clocks.current.sm [MHz], "
       "clocks.current.memory [MHz], clocks.max.sm [MHz], clocks.max.memory [MHz], "
       "power.limit [W], temperature.gpu, pstate\n"
       "NVIDIA Test GPU, 580.1, 1000 MiB, 345 MHz, 3201 MHz, 1980 MHz, 3201 MHz, 700.00 W, 34, P0\n")


def bench_entry(name, us, gbps=None, error=None):
    e = {"name": name + "/manual_time", "real_time": us, "time_unit": "us"}
    if gbps is not None:
        e["bytes_per_second"] = gbps * 1e9
    if error:
        e = {"name": name + "/manual_time", "error_occurred": True, "error_message": error}
    return e


class RecordTest(unittest.TestCase):
    def write(self, files):
        d = tempfile.mkdtemp(prefix="record_test_")
        for name, text in files.items():
            path = os.path.join(d, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text if isinstance(text, str) else json.dumps(text))
        return record.Results(d)

    def base(self):
        return {
            "nvidia-smi.csv": SMI,
            "commit": "0123456789ab\n",
            "report_06_performance.json": {
                "chapter": "06_performance", "partial": True,
                "provenance": {"date": "2026-01-01T00:00:00Z", "gpu": "NVIDIA Test GPU"},
                "claims": [{"id": "PF-09", "status": "passed", "measured": []}]},
            "bench.json": {"benchmarks": [
                bench_entry("BM_copy_cudaMemcpy", 100.0, 4000.0),
                bench_entry("BM_add3_contiguous_flat", 110.0, 3500.0),
                bench_entry("BM_matmul_cublas_path_a_b", 210.0),
                bench_entry("BM_matmul_cublas_direct_a_b", 200.0),
                bench_entry("BM_add3_permuted", 99.0, 4000.0)]},
            "torch.json": {"torch": "2.x", "experiments": [
                {"id": "add3_contiguous", "median_ms": 0.100},
                {"id": "add3_permuted", "median_ms": 0.100}]},
            "memcheck_reduce.log": ("[doctest] test cases:   8 |   8 passed | 0 failed | 1 skipped\n"
                                    "========= ERROR SUMMARY: 0 errors\n"),
            "memcheck_reduce.rc": "0\n",
            "racecheck_reduce.log": "doctest output, then the cap\n",
            "racecheck_reduce.rc": "124\n",
            "chapter_06_performance.log": "PF-08\tinconclusive\nPF-09\tpassed\nPF-13\tfailed\n",
            "chapter_06_performance.rc": "1\n",
        }

    def goal(self, rec, gid):
        return next(g for g in rec["goals"] if g["id"] == gid)

    def test_goals_are_ratios_of_the_runs_own_measurements(self):
        rec = record.record(self.write(self.base()))
        self.assertAlmostEqual(self.goal(rec, "add_vs_copy")["value"], 3500 / 4000)
        self.assertEqual(self.goal(rec, "add_vs_copy")["status"], "missed")  # 87.5% < 90%
        self.assertAlmostEqual(self.goal(rec, "cublas_a_b")["value"], 1.05)
        self.assertEqual(self.goal(rec, "cublas_a_b")["status"], "met")  # at the bound
        self.assertEqual(self.goal(rec, "pytorch_add3_contiguous")["status"], "missed")  # 1.1x
        self.assertEqual(self.goal(rec, "pytorch_add3_permuted")["status"], "met")  # 0.99x

    def test_what_did_not_run_is_not_run_never_met(self):
        files = self.base()
        del files["torch.json"]
        files["bench.json"]["benchmarks"][0] = bench_entry("BM_copy_cudaMemcpy", 0, error="no device")
        rec = record.record(self.write(files))
        self.assertEqual(self.goal(rec, "add_vs_copy")["status"], "not run")
        self.assertEqual(self.goal(rec, "transpose_vs_copy")["status"], "not run")
        self.assertEqual(self.goal(rec, "pytorch_add3_permuted")["status"], "not run")
        self.assertEqual(rec["bench"][0], {"name": "BM_copy_cudaMemcpy", "error": "no device"})
        self.assertFalse(rec["ctest_gpu"]["ran"])

    def test_a_sanitizer_stopped_by_its_cap_is_not_finished(self):
        rec = record.record(self.write(self.base()))
        verdicts = {(s["tool"], s["program"]): s["verdict"] for s in rec["sanitizer"]}
        self.assertEqual(verdicts, {("memcheck", "cuda.reduce_gpu"): "clean",
                                    ("racecheck", "cuda.reduce_gpu"): "not finished"})
        # The cases a filter left out are kept, so "clean" is never read as "every case".
        self.assertEqual(rec["sanitizer"][0]["test_cases"], {"passed": 8, "failed": 0, "skipped": 1})
        self.assertNotIn("test_cases", rec["sanitizer"][1])

    def test_the_cap_alone_makes_a_sanitizer_run_not_finished(self):
        # A summary printed before the cap killed the run does not make it clean.
        files = self.base()
        files["racecheck_reduce.log"] = "========= RACECHECK SUMMARY: 0 hazards displayed\n"
        rec = record.record(self.write(files))
        self.assertEqual(rec["sanitizer"][1]["verdict"], "not finished")

    def test_a_skipped_or_killed_step_is_recorded_so(self):
        files = self.base()
        # Skipped for want of time: an exit file and nothing else.
        files["memcheck_matmul.rc"] = "skipped\n"
        files["chapter_07_matmul.rc"] = "skipped\n"
        # Killed by its cap after two lines.
        files["chapter_06_performance.rc"] = "124\n"
        rec = record.record(self.write(files))
        verdicts = {s["program"] + " " + s["tool"]: s["verdict"] for s in rec["sanitizer"]}
        self.assertEqual(verdicts["cuda.matmul_gpu memcheck"], "not run")
        outcomes = {c["chapter"]: c["outcome"] for c in rec["chapters"]}
        self.assertEqual(outcomes, {"06_performance": "not finished", "07_matmul": "not run"})

    def test_a_results_file_cut_short_is_not_run(self):
        files = self.base()
        files["bench.json"] = '{"benchmarks": [{"name": "BM_copy'
        files["report_06_performance.json"] = '{"claims": ['
        rec = record.record(self.write(files))
        self.assertEqual(rec["bench"], [])
        self.assertEqual(rec["claims"], [])
        self.assertEqual(self.goal(rec, "add_vs_copy")["status"], "not run")

    def test_repetitions_give_a_goal_its_range_and_an_overlap_is_inconclusive(self):
        files = self.base()
        reps = []
        for us in (98.0, 100.0, 104.0):  # the copy: 4000 GB/s at 100 us
            reps.append(dict(bench_entry("BM_copy_cudaMemcpy", us, 4000.0 * 100 / us)))
        for us in (108.0, 110.0, 112.0):
            reps.append(dict(bench_entry("BM_add3_contiguous_flat", us, 3300.0)))
        for us in (95.0, 99.0, 103.0):  # PyTorch's 100 us lies inside this spread
            reps.append(dict(bench_entry("BM_add3_permuted", us, 4000.0)))
        # Google Benchmark's own aggregates are not repetitions.
        reps.append(dict(bench_entry("BM_add3_permuted", 1.0), run_type="aggregate",
                         aggregate_name="mean"))
        # device_run.sh's five runs, each a file: here three, the repetitions spread over them.
        del files["bench.json"]
        for r in range(3):
            files[f"bench_{r + 1}.json"] = {"benchmarks": reps[r::3]}
        files["torch.json"] = {"torch": "2.x", "experiments": [
            {"id": "add3_permuted", "median_ms": 0.100, "min_ms": 0.099, "max_ms": 0.101}]}
        rec = record.record(self.write(files))
        row = next(b for b in rec["bench"] if b["name"] == "BM_add3_permuted")
        self.assertEqual(row["repetitions"], 3)
        for key, ms in (("ms", 0.099), ("ms_min", 0.095), ("ms_max", 0.103)):
            self.assertAlmostEqual(row[key], ms)
        g = self.goal(rec, "pytorch_add3_permuted")
        self.assertAlmostEqual(g["value"], 0.99)
        self.assertAlmostEqual(g["range"][0], 0.095 / 0.101)
        self.assertAlmostEqual(g["range"][1], 0.103 / 0.099)
        self.assertEqual(g["status"], "inconclusive")
        g = self.goal(rec, "add_vs_copy")
        self.assertEqual(g["status"], "missed")  # 3300 GB/s against 3846-4082: below 90% throughout
        self.assertAlmostEqual(g["range"][1], 3300.0 / (4000.0 * 100 / 104))

    def test_a_claim_that_failed_at_the_test_sizes_keeps_the_values_it_judged(self):
        files = self.base()
        files["chapter_06_performance.json"] = {"chapter": "06_performance", "claims": [
            {"id": "PF-09", "status": "passed", "measured": [
                {"what": "r", "measured": "1.0", "expected": "<= 2", "compared": True, "ok": True}]},
            {"id": "PF-13", "status": "failed", "measured": [
                {"what": "ratio", "measured": "2.12", "expected": "<= 2", "compared": True, "ok": False},
                {"what": "shown", "measured": "1024", "compared": False}]}]}
        rec = record.record(self.write(files))
        run = next(c for c in rec["chapters"] if c["chapter"] == "06_performance")
        self.assertEqual(run["failed"], ["PF-13"])
        self.assertEqual(run["failed_judged"], {"PF-13": [
            {"what": "ratio", "measured": "2.12", "expected": "<= 2", "compared": True, "ok": False}]})
        # Without a report (an older run, or one the cap stopped) the claim is still named.
        rec = record.record(self.write(self.base()))
        run = next(c for c in rec["chapters"] if c["chapter"] == "06_performance")
        self.assertEqual((run["failed"], "failed_judged" in run), (["PF-13"], False))

    def test_a_goals_text_says_its_own_bound(self):
        rec = record.record(self.write(self.base()))
        self.assertIn("at least 90% of", self.goal(rec, "add_vs_copy")["what"])
        self.assertIn("at most 1.05 × a direct", self.goal(rec, "cublas_a_b")["what"])

    def test_a_goals_text_says_the_size_its_benchmark_reports(self):
        files = self.base()
        files["bench.json"]["benchmarks"] += [
            dict(bench_entry("BM_transpose_2_tiled", 100.0, 3000.0), label="64\u00b2 float32"),
            dict(bench_entry("BM_transpose_ceiling_copy", 100.0, 3500.0), label="64\u00b2 float32")]
        rec = record.record(self.write(files))
        self.assertTrue(self.goal(rec, "transpose_vs_copy")["what"].endswith(
            "of a copy's bandwidth (64\u00b2 float32)"))
        # A benchmark that reports no size leaves the text without one.
        rec = record.record(self.write(self.base()))
        self.assertTrue(self.goal(rec, "transpose_vs_copy")["what"].endswith("copy's bandwidth"))

    def test_a_texts_size_against_pytorch_comes_from_the_librarys_benchmark(self):
        files = self.base()
        files["bench.json"]["benchmarks"] += [
            bench_entry("BM_amax_auto/n:1024/dim:1", 5.0),
            dict(bench_entry("BM_transpose_2_tiled", 100.0, 3000.0), label="64\u00b2 float32")]
        files["bench.json"]["benchmarks"][0]["label"] = "8\u00b3 float32"  # BM_copy_cudaMemcpy
        rec = record.record(self.write(files))
        self.assertEqual(self.goal(rec, "pytorch_amax_last")["what"],
                         "amax(-1), 1024\u00b2: no slower than PyTorch")  # from n:1024
        self.assertEqual(self.goal(rec, "pytorch_transpose_copy")["what"],
                         "transpose copy, 64\u00b2 float32: no slower than PyTorch")
        self.assertEqual(self.goal(rec, "pytorch_copy")["what"],
                         "device-to-device copy, 8\u00b3 float32: no slower than PyTorch")
        # Where the benchmark says no size, nor does the text.
        rec = record.record(self.write(self.base()))
        self.assertEqual(self.goal(rec, "pytorch_copy")["what"],
                         "device-to-device copy: no slower than PyTorch")
        self.assertEqual(record.shape_of({"name": "BM_amax_auto/n:96/dim:0"}), "96\u00b2")
        self.assertEqual(record.shape_of({"name": "BM_matmul_low_rank/16"}), "")

    def test_claims_chapters_and_the_bundles_commit(self):
        rec = record.record(self.write(self.base()))
        self.assertEqual([(c["id"], c["chapter"]) for c in rec["claims"]], [("PF-09", "06_performance")])
        self.assertEqual(rec["chapters"], [{"chapter": "06_performance", "exit": "1",
                                            "outcome": "finished", "statuses": {"inconclusive": 1, "passed": 1, "failed": 1},
                                            "failed": ["PF-13"]}])
        self.assertEqual(rec["provenance"]["commit"], "0123456789ab")
        self.assertEqual(rec["provenance"]["gpu"], "NVIDIA Test GPU")
        self.assertEqual(rec["provenance"]["sm_clock_before"], "345 MHz")

    def test_ctest_lines_are_read_with_their_status(self):
        files = self.base()
        files["ctest_gpu.log"] = ("1/2 Test #1: cuda.a_gpu .......   Passed    6.40 sec\n"
                                  "2/2 Test #2: cuda.b_gpu .......***Failed    0.50 sec\n")
        files["ctest_gpu.rc"] = "8\n"
        rec = record.record(self.write(files))
        self.assertEqual([(t["name"], t["status"]) for t in rec["ctest_gpu"]["tests"]],
                         [("cuda.a_gpu", "passed"), ("cuda.b_gpu", "failed")])
        self.assertEqual(rec["ctest_gpu"]["exit"], "8")

    def test_no_device_no_record(self):
        files = self.base()
        files["nvidia-smi.csv"] = "NVIDIA-SMI has failed\n"
        with self.assertRaises(SystemExit):
            record.record(self.write(files))


if __name__ == "__main__":
    unittest.main()
