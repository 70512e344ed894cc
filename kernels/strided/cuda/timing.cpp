#include "strided/cuda/timing.h"

#include <algorithm>

#include "strided/cuda/backend.h"
#include "strided/cuda/runtime.h"
#include "strided/core/error.h"

namespace strided::cuda {

namespace {

float time_once(const std::function<void()>& work) {
  return backend::time_once_ms(
      [](void* ctx) { (*static_cast<const std::function<void()>*>(ctx))(); },
      const_cast<std::function<void()>*>(&work));
}

void check_counts(int warmup, int runs, const char* op) {
  STRIDED_CHECK(warmup >= 0 && runs >= 1, op, "need warmup >= 0 and runs >= 1, got warmup=", warmup,
                ", runs=", runs);
}

GpuTiming summarise(std::vector<double> samples) {
  GpuTiming t;
  t.median_ms = median(samples);
  t.min_ms = *std::min_element(samples.begin(), samples.end());
  t.max_ms = *std::max_element(samples.begin(), samples.end());
  t.samples_ms = std::move(samples);
  return t;
}

}  // namespace

double median(std::vector<double> samples) {
  STRIDED_CHECK(!samples.empty(), "median", "no samples");
  const size_t n = samples.size();
  std::sort(samples.begin(), samples.end());
  return n % 2 == 1 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

GpuTiming time_gpu(const std::function<void()>& work, int warmup, int runs) {
  check_counts(warmup, runs, "cuda::time_gpu");
  require_available("cuda::time_gpu");
  for (int i = 0; i < warmup; ++i) work();
  synchronize();
  std::vector<double> samples;
  for (int i = 0; i < runs; ++i) samples.push_back(time_once(work));
  return summarise(std::move(samples));
}

GpuComparison time_gpu_interleaved(const std::function<void()>& a, const std::function<void()>& b,
                                   int warmup, int runs) {
  check_counts(warmup, runs, "cuda::time_gpu_interleaved");
  require_available("cuda::time_gpu_interleaved");
  for (int i = 0; i < warmup; ++i) {
    a();
    b();
  }
  synchronize();
  std::vector<double> sa, sb;
  for (int i = 0; i < runs; ++i) {
    sa.push_back(time_once(a));
    sb.push_back(time_once(b));
  }
  return {summarise(std::move(sa)), summarise(std::move(sb))};
}

std::function<void()> EventClock::timed(std::function<void()> work, int calls) {
  STRIDED_CHECK(calls >= 1, "cuda::EventClock::timed", "need calls >= 1, got calls=", calls);
  return [this, work = std::move(work), calls] {
    require_available("cuda::EventClock");
    const std::function<void()> group = [&] {
      for (int i = 0; i < calls; ++i) work();
    };
    seconds_ += time_once(group) * 1e-3;
  };
}

double gigabytes_per_second(double bytes, double milliseconds) {
  STRIDED_CHECK(milliseconds > 0, "gigabytes_per_second", "time must be positive, got ",
                milliseconds, " ms");
  return bytes / (milliseconds * 1e-3) / 1e9;
}

}  // namespace strided::cuda
