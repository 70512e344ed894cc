// What every GPU benchmark does: refuse without a device (with the runtime's reason), warm up,
// then time each iteration with CUDA events and report it as Google Benchmark's manual time, with
// the bytes the work must move so that bytes_per_second reads as achieved bandwidth.
#pragma once

#include <benchmark/benchmark.h>

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

// bytes: what one call of work reads plus writes at the minimum (each element once).
template <class F>
void run_timed(benchmark::State& state, F&& work, double bytes) {
  for (int i = 0; i < 3; ++i) work();
  synchronize();
  for (auto _ : state) state.SetIterationTime(time_gpu(work, 0, 1).median_ms / 1e3);
  state.SetBytesProcessed(static_cast<int64_t>(bytes) * state.iterations());
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
