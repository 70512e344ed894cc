#!/usr/bin/env python3
"""Tests of tools/bench/goals.py, the rules that judge a bench run's goals, on small runs written
here, and of tools/bench/run --regoal, which judges a recorded run again."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import goals  # noqa: E402


def experiment(name, strided, pytorch=None, busy=False):
    """An experiment of compare.json from its pairs' times (ms)."""
    pairs = []
    for i, s in enumerate(strided):
        p = None if pytorch is None else pytorch[i]
        pairs.append({"strided_ms": s, "pytorch_ms": p, "ratio": None if p is None else s / p})
    ratios = [p["ratio"] for p in pairs if p["ratio"] is not None]
    med = lambda xs: sorted(xs)[len(xs) // 2]
    return {"name": name, "shape": "", "pairs": pairs, "strided_ms": med(strided),
            "pytorch_ms": None if pytorch is None else med(pytorch),
            "ratio": {"min": min(ratios), "median": med(ratios), "max": max(ratios)} if ratios else None,
            "busy": busy, "why": ""}


def by_goal(gs, name, threads=1, caching="off"):
    return next(g for g in gs if g["goal"] == name and g["threads"] == threads
                and g["caching_allocator"] == caching)


ROOF = {"1": {"gbs": 20.0, "kernel": "roof_copy_memcpy", "busy": False}}


class VerdictTest(unittest.TestCase):
    def test_a_bound_from_above(self):
        self.assertEqual(goals.verdict(0.90, 0.99, 1.0, True), "met")
        self.assertEqual(goals.verdict(1.01, 1.05, 1.0, True), "missed")
        self.assertEqual(goals.verdict(0.98, 1.02, 1.0, True), "inconclusive")
        self.assertEqual(goals.verdict(0.95, 1.0, 1.0, True), "met")  # the bound itself meets it

    def test_a_bound_from_below(self):
        self.assertEqual(goals.verdict(0.90, 1.2, 0.85, False), "met")
        self.assertEqual(goals.verdict(0.50, 0.8, 0.85, False), "missed")
        self.assertEqual(goals.verdict(0.80, 0.9, 0.85, False), "inconclusive")


class GoalsTest(unittest.TestCase):
    def test_each_seed_experiment_is_judged_from_its_pairs(self):
        run = {"threads": 1, "caching_allocator": "off", "experiments": [
            experiment("in13_add_contiguous", [90, 95, 97], [100, 100, 100]),
            experiment("in16_mul_x_yT", [99, 101, 103], [100, 100, 100]),
            experiment("in19_matmul_a_b", [102, 104, 110], [100, 100, 100]),
            experiment("reduce_sum_last", [200, 200, 200], [100, 100, 100]),  # not a seed cell
        ]}
        gs = goals.goals([run], ROOF)
        g = by_goal(gs, "in13_add_contiguous: strided / PyTorch")
        self.assertEqual((g["verdict"], g["met"], g["missed_by"]), ("met", True, None))
        self.assertEqual(g["range"], [0.9, 0.97])
        g = by_goal(gs, "in16_mul_x_yT: strided / PyTorch")
        self.assertEqual((g["verdict"], g["met"], g["missed_by"]), ("inconclusive", False, None))
        g = by_goal(gs, "in19_matmul_a_b: strided / PyTorch")
        self.assertEqual((g["verdict"], g["missed_by"]), ("missed", 1.04))
        self.assertFalse(any(x["goal"].startswith("reduce_sum_last") for x in gs))

    def test_a_five_x_goal_gives_the_roofs_time(self):
        # 512 MiB in and out at 20 GB/s take 53.7 ms; against PyTorch's 200 ms, 0.268.
        run = {"threads": 1, "caching_allocator": "on", "experiments": [
            experiment("in13_add_contiguous", [50, 51, 52], [200, 200, 200]),
            experiment("in19_matmul_a_b", [100, 100, 100], [100, 100, 100]),  # no 5x goal
        ]}
        g = by_goal(goals.goals([run], ROOF), "in13_add_contiguous: strided / PyTorch", caching="on")
        self.assertEqual(g["verdict"], "missed")
        self.assertAlmostEqual(g["roof_allows"], 2 * 512 ** 3 * 4 / 20e9 * 1e3 / 200, places=4)
        self.assertEqual(len(goals.goals([run], ROOF)), 1)
        # A read roof slower than the copy's share: the stride-5 slice reads 2.5 GiB, which at
        # 15 GB/s take 179 ms, longer than its 3 GiB take at the copy's 20 GB/s (161 ms).
        read_roof = {"1": dict(ROOF["1"], kernels={"roof_copy_memcpy": 20.0, "roof_read": 15.0})}
        run5 = {"threads": 1, "caching_allocator": "on", "experiments": [
            experiment("in13_add_stride5", [250, 260, 270], [400, 400, 400]),
            experiment("in13_add_contiguous", [50, 51, 52], [200, 200, 200])]}
        gs = goals.goals([run5], read_roof)
        g = by_goal(gs, "in13_add_stride5: strided / PyTorch", caching="on")
        self.assertAlmostEqual(g["roof_allows"], 5 * 512 ** 3 * 4 / 15e9 * 1e3 / 400, places=4)
        # The contiguous add reads what it writes: its copy at the roof binds, as without the read.
        g = by_goal(gs, "in13_add_contiguous: strided / PyTorch", caching="on")
        self.assertAlmostEqual(g["roof_allows"], 2 * 512 ** 3 * 4 / 20e9 * 1e3 / 200, places=4)
        busy_roof = {"1": dict(ROOF["1"], busy=True)}
        g = by_goal(goals.goals([run], busy_roof), "in13_add_contiguous: strided / PyTorch",
                    caching="on")
        self.assertIsNone(g["roof_allows"])
        self.assertFalse(g["busy"])  # the goal's own pairs were not busy

    def test_goals_of_two_experiments_take_the_extremes_of_their_quotient(self):
        run = {"threads": 1, "caching_allocator": "off", "experiments": [
            experiment("in13_add_contiguous", [100, 101, 104], [100, 100, 100]),
            experiment("in13_add_permuted", [100, 108, 112], [100, 100, 100]),
            experiment("extra_add_inplace_contiguous", [50, 52, 60], [50, 50, 50], busy=True),
        ]}
        gs = goals.goals([run], ROOF)
        g = by_goal(gs, "permuted add / contiguous add")
        self.assertAlmostEqual(g["measured"], 108 / 101, places=4)
        self.assertEqual(g["range"], [round(100 / 104, 4), round(112 / 100, 4)])
        self.assertEqual(g["verdict"], "inconclusive")
        g = by_goal(gs, "in-place contiguous add / bandwidth roof")
        roof_ms = 2 * 512 ** 3 * 4 / 20e9 * 1e3
        self.assertAlmostEqual(g["measured"], roof_ms / 52, places=4)
        self.assertEqual(g["range"], [round(roof_ms / 60, 4), round(roof_ms / 50, 4)])
        self.assertTrue(g["busy"])
        self.assertEqual(goals.summary(gs), {"met": 0, "missed": 0, "inconclusive": 3, "busy": 1})


class PairOrderTest(unittest.TestCase):
    def test_the_sides_take_turns_going_first(self):
        # tools/bench/run's measure with both sides replaced by recorders: A B, B A, A B.
        import importlib.machinery
        import importlib.util
        loader = importlib.machinery.SourceFileLoader("bench_run", os.path.join(HERE, "run"))
        spec = importlib.util.spec_from_loader("bench_run", loader)
        run = importlib.util.module_from_spec(spec)
        loader.exec_module(run)
        order = []

        def strided(*args, **kwargs):
            order.append("A")
            return {"ms": 10.0, "shape": "", "bytes_per_second": None}

        def pytorch(setup):
            order.append("B")
            return 20.0

        run.run_strided, run.time_pytorch = strided, pytorch
        e = run.measure(None, None, "x", 1, False, 3, lambda: None)
        self.assertEqual(order, ["A", "B", "B", "A", "A", "B"])
        self.assertEqual([p["ratio"] for p in e["pairs"]], [0.5, 0.5, 0.5])


class RegoalTest(unittest.TestCase):
    def regoal(self, report):
        path = os.path.join(tempfile.mkdtemp(prefix="goals_test_"), "compare.json")
        with open(path, "w") as f:
            json.dump(report, f)
        subprocess.run([sys.executable, os.path.join(HERE, "run"), "--regoal", path], check=True,
                       stdout=subprocess.DEVNULL)
        with open(path) as f:
            return json.load(f)

    def test_regoal_judges_again_and_keeps_the_measurements(self):
        quiet = dict(experiment("stream_copy", [20, 21, 22], [30, 30, 30]), other_cores=0.01)
        # Marked busy by a rule that no longer holds (a wide spread), with no other process busy.
        spread = dict(experiment("stream_triad", [20, 30, 40], [45, 45, 45], busy=True),
                      other_cores=0.02, why="ratios spread by 44% of their median")
        loud = dict(experiment("in13_add_contiguous", [20, 21, 22], [30, 30, 30]), other_cores=0.9)
        run = {"threads": 1, "caching_allocator": "off", "experiments": [quiet, spread, loud]}
        after = self.regoal({"format": 2, "roof": ROOF, "runs": [run], "goals": [{"stale": True}],
                             "commit": "abc", "busy": True,
                             "busy_reasons": ["load average 1.50 on 2 cores at the start",
                                              "stream_triad at 1 threads, caching off: ratios spread"]})
        self.assertEqual(after["commit"], "abc")
        self.assertEqual([e["pairs"] for e in after["runs"][0]["experiments"]],
                         [e["pairs"] for e in run["experiments"]])
        self.assertEqual([e["busy"] for e in after["runs"][0]["experiments"]], [False, False, True])
        self.assertEqual(after["busy_reasons"], [
            "load average 1.50 on 2 cores at the start",
            "in13_add_contiguous at 1 threads, caching off: other processes kept 0.90 cores busy"])
        self.assertEqual([g["verdict"] for g in after["goals"]], ["met", "met", "met"])
        self.assertEqual([g["busy"] for g in after["goals"]], [False, False, True])


if __name__ == "__main__":
    unittest.main()
