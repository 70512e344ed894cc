// Timing GPU work with CUDA events, for the chapters' GPU claims and the benchmarks.
//
// A kernel launch returns before the kernel runs, so a host clock measures the launch, not the
// work. Events recorded on the stream before and after the work are timestamped by the GPU itself
// (CUDA C++ Best Practices Guide, "Using CUDA GPU Timers"; resolution about 0.5 µs). Each sample
// times one call; warm-up calls first absorb one-time costs (module loading, the first cuBLAS
// handle, clocks ramping up), and the median of many samples is reported, as the seed's
// %timeit-after-warmup does.
#pragma once

#include <functional>
#include <vector>

namespace strided::cuda {

struct GpuTiming {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  std::vector<double> samples_ms;  // in the order they were taken
};

// Median of the samples (the mean of the middle two for an even count); throws on an empty list.
double median(std::vector<double> samples);

// Times `work` (which queues GPU work on the default stream) `runs` times after `warmup` untimed
// calls. Requires a CUDA device.
GpuTiming time_gpu(const std::function<void()>& work, int warmup = 5, int runs = 50);

// Times a and b alternately (a, b, a, b, ...), so drifting clocks or a neighbour's load affect
// both alike: the form a ratio claim wants.
struct GpuComparison {
  GpuTiming a;
  GpuTiming b;
  double ratio() const { return b.median_ms / a.median_ms; }  // how many times slower b is
};
GpuComparison time_gpu_interleaved(const std::function<void()>& a, const std::function<void()>& b,
                                   int warmup = 5, int runs = 50);

// Bytes moved per second, in GB/s (10^9 bytes), for the bytes-moved arithmetic beside a time.
double gigabytes_per_second(double bytes, double milliseconds);

}  // namespace strided::cuda
