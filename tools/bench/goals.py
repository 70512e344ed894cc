"""The goals of a bench run, judged from its pairs: tools/bench/run's rules, apart from
its measuring so that a recorded run can be judged again (run --regoal) and the rules tested.

A goal compares one ratio with a bound. The ratio's median over the pairs is the measurement;
the spread of the pairs says how sure it is. A goal is
  met           when every pair meets the bound (the largest ratio, for a bound from above);
  missed        when no pair does (missed_by: how far the median is beyond the bound);
  inconclusive  when the pairs fall on both sides of it: the run cannot tell, as a chapter's
                timing claim is inconclusive when its noise is wider than its band.
A goal whose two sides come from two experiments (the in-place add against the roof, the
permuted add against the contiguous one, a matmul against a direct cblas_sgemm) takes as its
range the extremes of the quotient: the slowest pair of one against the fastest of the other.

The 5x goal of the caching allocator also gives the roof's answer (roof_allows): the ratio to
PyTorch's median time of the least time the op's bytes (TRAFFIC) take at the run's measured
speeds. Those bytes cannot cross faster than the run's fastest copy moves bytes, nor its reads
faster than the run's vector sum reads them (roof_read); the roof's time is the larger of the two.
The second binds an op that reads much more than it writes, as the stride-5 slice does. Where
that ratio is above the bound, no kernel that moves memory as fast as the run's fastest copy and
read could meet the goal on that machine.
"""
# The seed notebook's experiments (cells In[13], In[15], In[16], In[19]) and STREAM's kernels:
# kernel against kernel, no slower than PyTorch.
SEED_PREFIXES = ("in13_", "in15_", "in16_", "in19_", "stream_")
# The out-of-place experiments whose time is mostly a fresh 512 MiB output's first touch, where
# the caching allocator is to make the library 5x faster than PyTorch.
FIRST_TOUCH_PREFIXES = ("in13_add_", "in16_mul_")

CUBE_BYTES = 512 ** 3 * 4  # one 512³ float32 array: 512 MiB
# The bytes one call reads and writes at the least, counted as STREAM counts (each array read or
# written once; a store's write-allocate read not counted, as the roof's copies do not count it).
TRAFFIC = {  # name: (bytes read, bytes written)
    "in13_add_contiguous": (CUBE_BYTES, CUBE_BYTES),
    "in13_add_permuted": (CUBE_BYTES, CUBE_BYTES),
    # The slice t[..., 0] of a 512³x5 tensor has a stride of 20 bytes, less than a 64-byte
    # line: every line of the 5 x 512 MiB storage holds an element the add reads.
    "in13_add_stride5": (5 * CUBE_BYTES, CUBE_BYTES),
    "extra_add_inplace_contiguous": (CUBE_BYTES, CUBE_BYTES),
    "in16_mul_x_y": (2 * CUBE_BYTES, CUBE_BYTES),
    "in16_mul_x_yT": (2 * CUBE_BYTES, CUBE_BYTES),
    "in16_mul_xT_y": (2 * CUBE_BYTES, CUBE_BYTES),
    "in16_mul_xT_yT": (2 * CUBE_BYTES, CUBE_BYTES),
}
READ_ROOF = "roof_read"  # the roof kernel that reads alone (bench/roof.cpp)


def verdict(lo, hi, limit, le):
    """met, missed or inconclusive for a ratio whose pairs lie in [lo, hi]."""
    ok = (lambda v: v <= limit) if le else (lambda v: v >= limit)
    worst, best = (hi, lo) if le else (lo, hi)
    if ok(worst):
        return "met"
    if not ok(best):
        return "missed"
    return "inconclusive"


def pair_times(e):
    return [p["strided_ms"] for p in e.get("pairs", []) if p.get("strided_ms")] or [e["strided_ms"]]


def roof_ms(name, roof):
    """The least time name's TRAFFIC takes at one thread count's roof (run's "roof" entry): all
    its bytes at the fastest copy's GB/s, or its reads at the read kernel's, whichever is longer.
    None where the roof or the op's traffic is unknown."""
    if name not in TRAFFIC or not roof or not roof.get("gbs"):
        return None
    read, written = TRAFFIC[name]
    ms = (read + written) / (roof["gbs"] * 1e9) * 1e3
    read_gbs = roof.get("kernels", {}).get(READ_ROOF)
    if read_gbs:
        ms = max(ms, read / (read_gbs * 1e9) * 1e3)
    return ms


def roof_allows(name, pytorch_ms, roof):
    """The ratio to pytorch_ms of name's time at the roof (roof_ms), or None."""
    ms = roof_ms(name, roof)
    return None if ms is None or not pytorch_ms else ms / pytorch_ms


def goals(runs, roof):
    """The goals of one bench run (tools/bench/run's compare.json "runs" and "roof")."""
    g = []

    def add(name, threads, caching, value, lo, hi, limit, le, busy, note, allows=None):
        if value is None:
            return
        v = verdict(lo, hi, limit, le)
        miss = None
        if v == "missed":
            miss = value / limit if le else limit / value
        g.append({"goal": name, "threads": threads, "caching_allocator": caching,
                  "measured": round(value, 4), "range": [round(lo, 4), round(hi, 4)],
                  "limit": limit, "comparison": "<=" if le else ">=",
                  "verdict": v, "met": v == "met",
                  "missed_by": None if miss is None else round(miss, 3),
                  "roof_allows": None if allows is None else round(allows, 4),
                  "busy": busy, "about": note})

    def quotient(a, b, scale=1.0):
        """a / b of two experiments' times: the medians' quotient and its extremes."""
        ta, tb = pair_times(a), pair_times(b)
        return (scale * a["strided_ms"] / b["strided_ms"], scale * min(ta) / max(tb),
                scale * max(ta) / min(tb))

    for run in runs:
        t, ca = run["threads"], run["caching_allocator"]
        ex = {e["name"]: e for e in run["experiments"]}
        r = roof.get(str(t), {})
        for name, e in ex.items():
            ratio = e.get("ratio")
            if not ratio:
                continue
            if ca == "off" and name.startswith(SEED_PREFIXES):
                add(f"{name}: strided / PyTorch", t, ca, ratio["median"], ratio["min"],
                    ratio["max"], 1.0, True, e["busy"],
                    "kernel against kernel: no slower than PyTorch (median of the pairs)")
            if ca == "on" and name.startswith(FIRST_TOUCH_PREFIXES):
                add(f"{name}: strided / PyTorch", t, ca, ratio["median"], ratio["min"],
                    ratio["max"], 0.2, True, e["busy"],
                    "5x faster than PyTorch with the caching allocator on",
                    None if r.get("busy") else roof_allows(name, e.get("pytorch_ms"), r))
        if ca != "off":
            continue
        inplace = ex.get("extra_add_inplace_contiguous")
        if inplace and r.get("gbs"):
            # GB/s of the in-place add over the roof's: the roof's time for its bytes over its own.
            roof_ms = sum(TRAFFIC["extra_add_inplace_contiguous"]) / (r["gbs"] * 1e9) * 1e3
            times = pair_times(inplace)
            add("in-place contiguous add / bandwidth roof", t, ca,
                roof_ms / inplace["strided_ms"], roof_ms / max(times), roof_ms / min(times),
                0.85, False, inplace["busy"] or r["busy"], f"roof: {r['kernel']}, {r['gbs']} GB/s")
        perm, cont = ex.get("in13_add_permuted"), ex.get("in13_add_contiguous")
        if perm and cont:
            add("permuted add / contiguous add", t, ca, *quotient(perm, cont), 1.1, True,
                perm["busy"] or cont["busy"], "In[13], the library alone")
        for lay in ("a_b", "a_bT", "aT_b", "aT_bT"):
            mine, direct = ex.get(f"in19_matmul_{lay}"), ex.get(f"cblas_direct_{lay}")
            if mine and direct:
                add(f"matmul {lay} / direct cblas_sgemm", t, ca, *quotient(mine, direct), 1.05,
                    True, mine["busy"] or direct["busy"],
                    f"{mine.get('shape') or 'matmul'}, a fresh output against a preallocated one")
    return g


def summary(g):
    """Counts of the goals by verdict, a busy goal counted apart: {"met": n, ...}."""
    counts = {"met": 0, "missed": 0, "inconclusive": 0, "busy": 0}
    for x in g:
        counts["busy" if x["busy"] else x["verdict"]] += 1
    return counts
