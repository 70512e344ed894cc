#!/usr/bin/env python3
"""PyTorch's own kernels on the lent GPU, for the recorded GPU run (tools/gpu/device_run.sh).

Times, with CUDA events, the seed notebook's GPU experiments (In[14], In[15], In[17], In[20],
In[21]) and the yardsticks the library's benchmarks (kernels/bench) measure, each as the
benchmark does it: into a preallocated output (out=), so that kernel meets kernel, and also as
the seed wrote it (a fresh output from PyTorch's caching allocator) where the seed timed that.
Every experiment: 5 warm-up calls, then 30 samples, each of as many calls between two events as
make about 1 ms (1 to 100; kernels/bench/bench_util.h times the library's kernels by the same
rule); the median per call is reported. Inputs are random (never zeros: zeros can run faster).

Writes one JSON object: {"torch", "cuda", "device", "experiments": [{"id", "seed", "what",
"median_ms", "min_ms", "max_ms", "bytes"}]}. Runs only where torch sees a CUDA device.
"""
import json
import math
import sys

import torch


def event_ms(fn, calls):
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop)


def calls_per_sample(one_call_ms):
    return min(100, max(1, math.ceil(1.0 / max(one_call_ms, 1e-3))))


def timed(fn, warmup=5, samples=30):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    calls = calls_per_sample(sorted(event_ms(fn, 1) for _ in range(3))[1])
    times = []
    for _ in range(samples):
        times.append(event_ms(fn, calls) / calls)
    times.sort()
    mid = len(times) // 2
    median = times[mid] if len(times) % 2 else 0.5 * (times[mid - 1] + times[mid])
    return median, times[0], times[-1]


def main():
    if not torch.cuda.is_available():
        print("torch sees no CUDA device", file=sys.stderr)
        return 1
    torch.backends.cuda.matmul.allow_tf32 = False  # float32 products in float32, as cuBLAS's default
    dev = torch.device("cuda")
    gen = torch.Generator(device=dev).manual_seed(14)
    rand = lambda *s: torch.rand(*s, device=dev, generator=gen)
    out = []

    def add(eid, seed, what, fn, nbytes):
        m, lo, hi = timed(fn)
        out.append({"id": eid, "seed": seed, "what": what, "median_ms": m, "min_ms": lo,
                    "max_ms": hi, "bytes": nbytes})
        print(f"{eid:28s} {m * 1e3:10.1f} us  {nbytes / (m * 1e-3) / 1e9 if nbytes else 0:8.0f} GB/s",
              flush=True)

    n = 512
    cube = 4 * n ** 3
    x = rand(n, n, n)
    dst = torch.empty_like(x)
    add("copy", "", "dst.copy_(x), 512³ float32", lambda: dst.copy_(x), 2 * cube)
    # In[14]: t.add(3) for the four layouts of the seed, out= and fresh.
    p = x.permute(2, 1, 0)
    s = rand(n, n, n, 5)[..., 0]
    h = rand(n, n, 32, n)[..., 0, :]
    o = torch.empty_like(x)
    op = torch.empty_like(p)  # keeps the permutation, as add's own output would
    for eid, t, oo in (("add3_contiguous", x, o), ("add3_permuted", p, op), ("add3_stride5", s, o),
                       ("add3_holes", h, o)):
        add(eid, "In[14]", f"torch.add(t, 3, out=o), {eid[5:]}", lambda t=t, oo=oo: torch.add(t, 3, out=oo),
            2 * cube)
        add(eid + "_fresh", "In[14]", f"t.add(3), {eid[5:]} (caching allocator)", lambda t=t: t.add(3),
            2 * cube)
    del s, h
    # In[17]: x * y with transpose(0, 2) on either side; the output follows x.
    y = rand(n, n, n)
    xt, yt = x.transpose(0, 2), y.transpose(0, 2)
    ot = torch.empty_like(xt)
    for eid, a, b, oo in (("mul_x_y", x, y, o), ("mul_x_yT", x, yt, o), ("mul_xT_y", xt, y, ot),
                          ("mul_xT_yT", xt, yt, ot)):
        add(eid, "In[17]", f"torch.mul(a, b, out=o), {eid[4:]}", lambda a=a, b=b, oo=oo: torch.mul(a, b, out=oo),
            3 * cube)
        add(eid + "_fresh", "In[17]", f"a * b, {eid[4:]} (caching allocator)", lambda a=a, b=b: a * b,
            3 * cube)
    del x, y, xt, yt, o, op, ot, dst, p
    # In[15]: max(-1), max(-2) of a 1024² matrix (amax: the values, as the library's amax).
    m = rand(1024, 1024)
    r = torch.empty(1024, device=dev)
    for eid, dim in (("amax_last", -1), ("amax_first", -2)):
        add(eid, "In[15]", f"torch.amax(x, {dim}, out=r), 1024²", lambda dim=dim: torch.amax(m, dim, out=r),
            4 * (1024 * 1024 + 1024))
        add(eid.replace("amax", "max") + "_fresh", "In[15]", f"x.max({dim}) (values and indices)",
            lambda dim=dim: m.max(dim), 4 * (1024 * 1024 + 1024))
    # The tiled transpose's yardstick: x.t() copied into a contiguous 8192² matrix.
    big = rand(8192, 8192)
    bt = torch.empty_like(big)
    add("transpose_copy", "", "bt.copy_(x.t()), 8192² float32", lambda: bt.copy_(big.t()),
        2 * 4 * 8192 * 8192)
    add("copy_8192", "", "bt.copy_(x), 8192² float32", lambda: bt.copy_(big), 2 * 4 * 8192 * 8192)
    del big, bt
    # In[20]: the four layouts of a 2048² product; In[21]: (2048×k)@(k×2048).
    a, b = rand(2048, 2048), rand(2048, 2048)
    at, btr = rand(2048, 2048).mT, rand(2048, 2048).mT
    c = torch.empty(2048, 2048, device=dev)
    flop = 2 * 2048 ** 3
    for eid, aa, bb in (("mm_a_b", a, b), ("mm_a_bT", a, btr), ("mm_aT_b", at, b), ("mm_aT_bT", at, btr)):
        add(eid, "In[20]", f"torch.matmul(a, b, out=c), {eid[3:]}",
            lambda aa=aa, bb=bb: torch.matmul(aa, bb, out=c), 0)
        out[-1]["flop"] = flop
    for k in (2, 4, 8, 16, 32):
        u, v = rand(2048, k), rand(k, 2048)
        add(f"low_rank_{k}", "In[21]", f"torch.matmul(u, v, out=c), k = {k}",
            lambda u=u, v=v: torch.matmul(u, v, out=c), 4 * (2048 * k * 2 + 2048 * 2048))
    props = torch.cuda.get_device_properties(0)
    json.dump({"torch": torch.__version__, "cuda": torch.version.cuda, "device": props.name,
               "multiprocessors": props.multi_processor_count, "experiments": out},
              sys.stdout if len(sys.argv) < 2 else open(sys.argv[1], "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
