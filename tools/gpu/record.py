#!/usr/bin/env python3
"""Turns the results of tools/gpu/device_run.sh into the recorded GPU run the site shows.

    tools/gpu/record.py RESULTS.tar.gz|RESULTS_DIR [--out docs/recorded/gpu/NAME.json]

The record keeps what was measured and nothing typed by hand: the device as nvidia-smi and the
CUDA runtime named it, the commit the programs were built from (the bundle's), the GPU tests as
ctest reported them, compute-sanitizer's verdicts, every GPU claim as its chapter reported it
(--report), the CUDA benchmarks and PyTorch's kernels on the same GPU, and the goals of the GPU
work computed from those two. A step that did not run or did not finish is recorded so, never as
passed. The site (tools/embed/embed.py) shows the record beside this machine's statuses; a
recorded status never changes a local one.
"""
import argparse
import csv
import io
import json
import os
import re
import sys
import tarfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
from goals import verdict  # noqa: E402  (tools/bench/goals.py: met, missed or inconclusive)

FORMAT = 1

# The goals of the GPU work: (id, what, numerator benchmark, denominator benchmark, bound, sense).
# Each is a ratio of two times measured in the same run, the kind of statement a ratio claim makes.
# A goal's text says its bound through {bound}, filled from the bound itself, and its size through
# {shape}, filled from its numerator's benchmark (shape_of; nothing where that says none).
GOALS = [
    ("add_vs_copy", "add(3), flat kernel, at least {bound} of a device-to-device copy's bandwidth",
     "BM_add3_contiguous_flat", "BM_copy_cudaMemcpy", 0.90, "bandwidth"),
    ("transpose_vs_copy", "tiled transpose at least {bound} of a copy's bandwidth{shape}",
     "BM_transpose_2_tiled", "BM_transpose_ceiling_copy", 0.80, "bandwidth"),
] + [
    (f"cublas_{k}", f"cuBLAS path, {label}, at most {{bound}} a direct cublasSgemm",
     f"BM_matmul_cublas_path_{k}", f"BM_matmul_cublas_direct_{k}", 1.05, "time")
    for k, label in (("a_b", "a@b"), ("a_bT", "a@b.mT"), ("aT_b", "a.mT@b"), ("aT_bT", "a.mT@b.mT"))
]

# The library's benchmark beside PyTorch's experiment of the same work (tools/gpu/torch_gpu.py),
# both into a preallocated output: kernel against kernel. The goal: the library no slower. A text's
# {shape} is the library's benchmark's size (shape_of), after a comma.
AGAINST_PYTORCH = [
    ("In[14]", "add(3), contiguous", "BM_add3_contiguous_flat", "add3_contiguous"),
    ("In[14]", "add(3), permuted", "BM_add3_permuted", "add3_permuted"),
    ("In[14]", "add(3), stride-5 slice", "BM_add3_stride5", "add3_stride5"),
    ("In[14]", "add(3), slice with holes", "BM_add3_holes", "add3_holes"),
    ("In[15]", "amax(-1){shape}", "BM_amax_auto/n:1024/dim:1", "amax_last"),
    ("In[15]", "amax(-2){shape}", "BM_amax_auto/n:1024/dim:0", "amax_first"),
    ("In[17]", "x·y", "BM_mul_x_y", "mul_x_y"),
    ("In[17]", "x·yᵀ", "BM_mul_x_yT", "mul_x_yT"),
    ("In[17]", "xᵀ·y", "BM_mul_xT_y", "mul_xT_y"),
    ("In[17]", "xᵀ·yᵀ", "BM_mul_xT_yT", "mul_xT_yT"),
    ("In[20]", "a@b", "BM_matmul_cublas_path_a_b", "mm_a_b"),
    ("In[20]", "a@b.mT", "BM_matmul_cublas_path_a_bT", "mm_a_bT"),
    ("In[20]", "a.mT@b", "BM_matmul_cublas_path_aT_b", "mm_aT_b"),
    ("In[20]", "a.mT@b.mT", "BM_matmul_cublas_path_aT_bT", "mm_aT_bT"),
    ("", "transpose copy{shape}", "BM_transpose_2_tiled", "transpose_copy"),
    ("", "device-to-device copy{shape}", "BM_copy_cudaMemcpy", "copy"),
]


def shape_of(row):
    """The size a benchmark row says it ran: its label, or else its n:N argument, the side of the
    square matrix the reduction benchmarks make (kernels/bench/reduce_bench.cpp), as N²; "" where
    it says neither."""
    if not row:
        return ""
    if row.get("label"):
        return row["label"]
    m = re.search(r"/n:([0-9]+)(/|$)", row.get("name", ""))
    return f"{m.group(1)}²" if m else ""


def against_pytorch_what(what, row):
    """An AGAINST_PYTORCH text with its {shape} filled from the library's benchmark row."""
    shape = shape_of(row)
    return what.format(shape=f", {shape}" if shape else "")


class Results:
    """The files of one device_run.sh run, from its tarball or an unpacked folder."""

    def __init__(self, path):
        self.files = {}
        if os.path.isdir(path):
            for dirpath, _, names in os.walk(path):
                for n in names:
                    full = os.path.join(dirpath, n)
                    with open(full, "rb") as f:
                        self.files[os.path.relpath(full, path)] = f.read()
        else:
            with tarfile.open(path) as t:
                for m in t.getmembers():
                    if m.isfile():
                        self.files[os.path.normpath(m.name)] = t.extractfile(m).read()

    def text(self, name):
        data = self.files.get(name)
        return None if data is None else data.decode("utf-8", "replace")

    def json(self, name):
        """The file's JSON; None when it is absent or unreadable (a step killed by its cap may
        leave it cut short): what it would have held did not run."""
        t = self.text(name)
        try:
            return None if t is None else json.loads(t)
        except ValueError:
            return None

    def rc(self, name):
        t = self.text(name + ".rc")
        return None if t is None else t.strip()

    def matching(self, pattern):
        """(name, match) for each file whose whole name matches pattern, in name order."""
        for name in sorted(self.files):
            m = re.fullmatch(pattern, name)
            if m:
                yield name, m


def device(res):
    rows = list(csv.reader(io.StringIO(res.text("nvidia-smi.csv") or "")))
    if len(rows) < 2:
        raise SystemExit("record.py: nvidia-smi.csv has no device: no GPU run to record")
    head = [h.strip() for h in rows[0]]
    vals = dict(zip(head, (v.strip() for v in rows[1])))
    after = list(csv.reader(io.StringIO(res.text("nvidia-smi-after.csv") or "")))
    after_vals = dict(zip((h.strip() for h in after[0]), (v.strip() for v in after[1]))) if len(after) > 1 else {}
    info = (res.text("device_info.log") or "").strip().splitlines()
    return {
        "gpu": vals.get("name", "unknown GPU"),
        "driver": vals.get("driver_version", ""),
        "memory": vals.get("memory.total [MiB]", ""),
        "power_limit": vals.get("power.limit [W]", ""),
        "sm_clock_max": vals.get("clocks.max.sm [MHz]", ""),
        "memory_clock": vals.get("clocks.current.memory [MHz]", ""),
        "sm_clock_before": vals.get("clocks.current.sm [MHz]", ""),
        "sm_clock_after": after_vals.get("clocks.current.sm [MHz]", ""),
        "device_info": info,
    }


def ctest_result(res):
    log = res.text("ctest_gpu.log")
    if log is None:
        return {"ran": False, "tests": [], "output": ""}
    tests = [{"name": m.group(1), "status": m.group(2).strip("* ").lower(), "seconds": float(m.group(3))}
             for m in re.finditer(r"Test +#\d+: (\S+) \.+\s*(\*{0,3}[A-Za-z ]+?)\s+([\d.]+) sec", log)]
    return {"ran": True, "command": "ctest -L gpu --output-on-failure", "exit": res.rc("ctest_gpu"),
            "tests": tests, "output": log.strip()}


def step_outcome(rc):
    """What a step's exit file says of it (device_run.sh's runstep): "not run" when it was skipped
    for want of time, "not finished" when its cap killed it (timeout's 124, or 137 after the kill),
    "finished" otherwise, whatever its exit status."""
    if rc is None or rc == "skipped":
        return "not run"
    return "not finished" if rc in ("124", "137") else "finished"


def sanitizer_results(res):
    out = []
    # Every step leaves its exit file, a skipped one nothing else: the runs are read from those.
    for name, m in res.matching(r"(memcheck|racecheck)_(\w+)\.rc"):
        log = res.text(name[:-3] + ".log") or ""
        rc = res.rc(name[:-3])
        summary = re.findall(r"========= (ERROR SUMMARY: .*|RACECHECK SUMMARY: .*)", log)
        # doctest's count: the cases run under the tool, and those the run's filter left out.
        cases = re.findall(r"test cases: *(\d+) \| *(\d+) passed \| *(\d+) failed \| *(\d+) skipped", log)
        if step_outcome(rc) == "not run":
            verdict = "not run"
        elif step_outcome(rc) == "not finished" or not summary:
            verdict = "not finished"
        elif rc == "0":
            verdict = "clean"
        else:
            verdict = "errors"
        run = {"tool": m.group(1), "program": f"cuda.{m.group(2)}_gpu", "exit": rc,
               "verdict": verdict, "summary": summary[-1] if summary else ""}
        if log.startswith("$ "):
            run["command"] = log.splitlines()[0][2:]
        if cases:
            _, passed, failed, skipped = (int(n) for n in cases[-1])
            run["test_cases"] = {"passed": passed, "failed": failed, "skipped": skipped}
        out.append(run)
    return out


def chapter_runs(res):
    runs = []
    for name, m in res.matching(r"chapter_(\d\d_\w+)\.rc"):
        counts = {}
        failed = []
        for line in (res.text(name[:-3] + ".log") or "").splitlines():
            cid, _, status = line.partition("\t")
            if not status:
                continue
            counts[status] = counts.get(status, 0) + 1
            if status == "failed":
                failed.append(cid)
        rc = res.rc(name[:-3])
        run = {"chapter": m.group(1), "exit": rc, "outcome": step_outcome(rc),
               "statuses": counts, "failed": failed}
        # The values each failed claim judged, from the chapter's report where it wrote one (a run
        # that the cap stopped, or an older run, has none).
        report = res.json(name[:-3] + ".json") or {}
        judged = {c.get("id"): [v for v in c.get("measured", []) if v.get("compared")]
                  for c in report.get("claims", []) if c.get("id") in failed}
        if judged:
            run["failed_judged"] = judged
        runs.append(run)
    return runs


def claims(res):
    out, provenance = [], None
    for name, m in res.matching(r"report_(\d\d_\w+)\.json"):
        report = res.json(name)
        if report is None:
            continue  # cut short: its claims are absent, as if not run
        provenance = provenance or report.get("provenance", {})
        for c in report.get("claims", []):
            out.append(dict(c, chapter=report.get("chapter", m.group(1))))
    return out, provenance or {}


def bench(res):
    """The CUDA benchmarks: per benchmark the median, least and greatest time over its runs
    (device_run.sh runs them all five times, bench_1.json ...; an older run has one, bench.json),
    and the same of its bandwidth where it counts bytes. Aggregates are left out, and so is a
    results file cut short."""
    runs = [res.json(name) for name, _ in res.matching(r"bench(_\d+)?\.json")]
    runs = [r for r in runs if r]
    if not runs:
        return []
    reps, order = {}, []
    for b in (b for data in runs for b in data.get("benchmarks", [])):
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = b["name"].replace("/manual_time", "")
        if name not in reps:
            reps[name] = []
            order.append(name)
        reps[name].append(b)
    out = []
    for name in order:
        row = {"name": name}
        failed = [b for b in reps[name] if b.get("error_occurred")]
        if failed:
            row["error"] = failed[0].get("error_message", "")
            out.append(row)
            continue
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
        ms = sorted(b["real_time"] * scale[b.get("time_unit", "ns")] for b in reps[name])
        row.update({"ms": median(ms), "ms_min": ms[0], "ms_max": ms[-1], "repetitions": len(ms)})
        if reps[name][0].get("label"):
            row["label"] = reps[name][0]["label"]
        gbs = sorted(b["bytes_per_second"] / 1e9 for b in reps[name] if b.get("bytes_per_second"))
        if len(gbs) == len(ms):
            row.update({"gb_per_s": median(gbs), "gb_per_s_min": gbs[0], "gb_per_s_max": gbs[-1]})
        out.append(row)
    return out


def median(xs):
    xs = sorted(xs)
    mid = len(xs) // 2
    return xs[mid] if len(xs) % 2 else 0.5 * (xs[mid - 1] + xs[mid])


def goals(bench_rows, torch):
    """Each goal's value is a quotient of two medians; its range, the extremes of the quotient over
    the two sides' repetitions; its status, tools/bench/goals.py's verdict on that range: met when
    the whole range meets the bound, missed when none of it does, inconclusive otherwise."""
    by = {b["name"]: b for b in bench_rows if "ms" in b}
    out = []
    for gid, what, num, den, bound, sense in GOALS:
        shape = shape_of(by.get(num))
        what = what.format(bound=f"{bound:.0%}" if sense == "bandwidth" else f"{bound:g} ×",
                           shape=f" ({shape})" if shape else "")
        key = "gb_per_s" if sense == "bandwidth" else "ms"
        if key not in by.get(num, {}) or key not in by.get(den, {}):
            out.append({"id": gid, "what": what, "status": "not run"})
            continue
        n, d = by[num], by[den]
        value = n[key] / d[key]
        lo, hi = n[key + "_min"] / d[key + "_max"], n[key + "_max"] / d[key + "_min"]
        out.append({"id": gid, "what": what, "value": value, "range": [lo, hi], "bound": bound,
                    "sense": sense, "of": [num, den],
                    "status": verdict(lo, hi, bound, sense != "bandwidth")})
    experiments = {e["id"]: e for e in (torch or {}).get("experiments", [])}
    for seed, what, ours, theirs in AGAINST_PYTORCH:
        what = against_pytorch_what(what, by.get(ours))
        if ours not in by or theirs not in experiments:
            out.append({"id": f"pytorch_{theirs}", "what": f"{what}: no slower than PyTorch",
                        "status": "not run"})
            continue
        o, t = by[ours], experiments[theirs]
        value = o["ms"] / t["median_ms"]
        lo = o["ms_min"] / t.get("max_ms", t["median_ms"])
        hi = o["ms_max"] / t.get("min_ms", t["median_ms"])
        out.append({"id": f"pytorch_{theirs}", "seed": seed, "what": f"{what}: no slower than PyTorch",
                    "value": value, "range": [lo, hi], "bound": 1.0, "sense": "time",
                    "of": [ours, theirs], "ours_ms": o["ms"], "pytorch_ms": t["median_ms"],
                    "status": verdict(lo, hi, 1.0, True)})
    return out


def record(res):
    prov = device(res)
    claim_list, chapter_prov = claims(res)
    torch = res.json("torch.json")
    bench_rows = bench(res)
    machine = res.text("machine.txt") or ""
    nvcc = re.search(r"release ([\d.]+), V([\d.]+)", machine)
    prov.update({
        "commit": (res.text("commit") or "unknown").strip(),
        "date": chapter_prov.get("date", ""),
        "cuda_runtime": chapter_prov.get("cuda_runtime", ""),
        "cpu": chapter_prov.get("cpu", ""),
        "cpu_threads": chapter_prov.get("cpu_threads", 0),
        "os": chapter_prov.get("os", ""),
        "compiler": chapter_prov.get("compiler", ""),
        "flags": chapter_prov.get("flags", ""),
        "sizes": chapter_prov.get("sizes", ""),
        "architectures": "sm_90 (tools/gpu/bundle.sh)",
        "nvcc": nvcc.group(2) if nvcc else "",
        "torch": (torch or {}).get("torch", ""),
    })
    return {
        "format": FORMAT,
        "provenance": prov,
        "ctest_gpu": ctest_result(res),
        "sanitizer": sanitizer_results(res),
        "chapters": chapter_runs(res),
        "claims": claim_list,
        "bench": bench_rows,
        "pytorch": torch or {},
        "goals": goals(bench_rows, torch),
    }


def slug(gpu):
    return re.sub(r"[^a-z0-9]+", "-", gpu.lower()).strip("-")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="device_run.sh's results.tar.gz, or the folder it unpacks to")
    ap.add_argument("--out", help="the record to write (default docs/recorded/gpu/<gpu>.json)")
    args = ap.parse_args(argv)
    rec = record(Results(args.results))
    out = args.out or os.path.join("docs", "recorded", "gpu", slug(rec["provenance"]["gpu"]) + ".json")
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(rec, f, indent=1, ensure_ascii=False)
        f.write("\n")
    met = sum(1 for g in rec["goals"] if g["status"] == "met")
    print(f"{out}: {len(rec['claims'])} GPU claims, {len(rec['bench'])} benchmarks, "
          f"{met} of {len(rec['goals'])} goals met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
