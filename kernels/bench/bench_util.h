// What every GPU benchmark does: refuse without a device (with the runtime's reason), warm up,
// then time each iteration (a group of calls) with CUDA events and report it as Google Benchmark's manual time, with
// the bytes the work must move so that bytes_per_second reads as achieved bandwidth.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>

#include "strided/cuda/runtime.h"
#include "strided/cuda/timing.h"

namespace strided::cuda::bench {

inline bool skip_without_gpu(benchmark::State& state) {
  if (available()) return false;
  state.SkipWithError(("no CUDA device: " + unavailable_reason()).c_str());
  return true;
}

// Calls timed back to back between one pair of events: enough that a sample lasts about 1 ms (1 to
// 100 calls), so that the gap between launches and the events' own cost weigh little against the
// work. tools/gpu/torch_gpu.py times PyTorch's kernels by the same rule, so the two compare.
inline int calls_per_sample(double one_call_ms) {
  return std::clamp(static_cast<int>(std::ceil(1.0 / std::max(one_call_ms, 1e-3))), 1, 100);
}

// bytes: what one call of work reads plus writes at the minimum (each element once).
template <class F>
void run_timed(benchmark::State& state, F&& work, double bytes) {
  for (int i = 0; i < 3; ++i) work();
  synchronize();
  const int calls = calls_per_sample(time_gpu(work, 0, 3).median_ms);
  const auto group = [&] {
    for (int i = 0; i < calls; ++i) work();
  };
  // One sample counts as `calls` iterations, so the reported time is per call and the benchmark
  // stops after its minimum time of work, not after that time divided among the calls.
  while (state.KeepRunningBatch(calls)) state.SetIterationTime(time_gpu(group, 0, 1).median_ms / 1e3);
  state.SetBytesProcessed(static_cast<int64_t>(bytes) * state.iterations());
  state.counters["calls_per_sample"] = calls;
}

// Runs body, turning a thrown error (out of device memory on a smaller GPU, say) into a skipped
// benchmark that says why, instead of ending the whole run.
template <class F>
void guarded(benchmark::State& state, F&& body) {
  if (skip_without_gpu(state)) return;
  try {
    body();
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

}  // namespace strided::cuda::bench

// Every GPU benchmark reports CUDA-event time (manual time) in microseconds.
#define STRIDED_GPU_BENCH(fn) BENCHMARK(fn)->UseManualTime()->Unit(benchmark::kMicrosecond)
