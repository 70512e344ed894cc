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

// A clock that reads GPU time, for a ratio measured the book's way (chapters/book/timing.h:
// paired repeats, the noise of A against A, *inconclusive* when that noise is too high), so that a
// GPU claim is judged by the same statistics as a CPU claim. timed(work, calls) returns a function
// that runs work `calls` times between two CUDA events; seconds() is the GPU time of every such
// call so far. time_ratio reads its clock before and after each call, so what it measures is the
// time the GPU spent on the work, not the host's launch. Requires a CUDA device when called.
class EventClock {
 public:
  std::function<void()> timed(std::function<void()> work, int calls = 1);
  double seconds() const { return seconds_; }
  std::function<double()> reader() const {
    return [this] { return seconds_; };
  }

 private:
  double seconds_ = 0;
};

// Bytes moved per second, in GB/s (10^9 bytes), for the bytes-moved arithmetic beside a time.
double gigabytes_per_second(double bytes, double milliseconds);

}  // namespace strided::cuda
