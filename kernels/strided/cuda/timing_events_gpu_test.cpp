// CUDA-event timing on a device: sample counts, order statistics, and that a big copy is timed as
// slower than a tiny one (a clock that timed only the launch would not see the difference).
#include "strided/cuda/timing.h"

#include <doctest/doctest.h>

#include "strided/cuda/elementwise.h"
#include "strided/cuda/runtime.h"

using namespace strided;
using namespace strided::cuda;

TEST_CASE("time_gpu takes the requested samples and orders its statistics") {
  Tensor src = empty({1 << 24}, {DType::Float32, Device::cuda()});  // 64 MiB
  Tensor dst = empty({1 << 24}, {DType::Float32, Device::cuda()});
  const GpuTiming t = time_gpu([&] { copy_(dst, src); }, 3, 21);
  CHECK(t.samples_ms.size() == 21);
  CHECK(t.min_ms > 0);
  CHECK(t.min_ms <= t.median_ms);
  CHECK(t.median_ms <= t.max_ms);
  MESSAGE("64 MiB device-to-device copy: ", t.median_ms, " ms, ",
          gigabytes_per_second(2.0 * (1 << 26), t.median_ms), " GB/s");
}

TEST_CASE("a 64 MiB copy is timed slower than a 4 KiB one") {
  Tensor big_src = empty({1 << 24}, {DType::Float32, Device::cuda()});
  Tensor big_dst = empty({1 << 24}, {DType::Float32, Device::cuda()});
  Tensor small_src = empty({1 << 10}, {DType::Float32, Device::cuda()});
  Tensor small_dst = empty({1 << 10}, {DType::Float32, Device::cuda()});
  const GpuComparison c = time_gpu_interleaved([&] { copy_(small_dst, small_src); },
                                               [&] { copy_(big_dst, big_src); }, 3, 15);
  CHECK(c.a.samples_ms.size() == 15);
  CHECK(c.b.samples_ms.size() == 15);
  // 128 MiB moved at even 3 TB/s takes 45 µs; 8 KiB takes a few µs of fixed cost at most.
  CHECK(c.ratio() > 3.0);
  MESSAGE("64 MiB / 4 KiB copy time ratio: ", c.ratio());
}

TEST_CASE("an event clock adds the GPU time of each timed call, and a big copy reads longer") {
  Tensor big_src = empty({1 << 24}, {DType::Float32, Device::cuda()});
  Tensor big_dst = empty({1 << 24}, {DType::Float32, Device::cuda()});
  Tensor small_src = empty({1 << 10}, {DType::Float32, Device::cuda()});
  Tensor small_dst = empty({1 << 10}, {DType::Float32, Device::cuda()});
  EventClock clock;
  const auto big = clock.timed([&] { copy_(big_dst, big_src); }, 4);
  const auto small = clock.timed([&] { copy_(small_dst, small_src); }, 4);
  big();
  small();  // warm
  const double t0 = clock.seconds();
  small();
  const double t_small = clock.seconds() - t0;
  big();
  const double t_big = clock.seconds() - t0 - t_small;
  CHECK(t_small > 0);
  // Four 128 MiB copies take at least 0.15 ms at 3.5 TB/s; four 8 KiB ones a few µs each.
  CHECK(t_big > 3.0 * t_small);
  CHECK(clock.reader()() == clock.seconds());
  MESSAGE("4 x 64 MiB copies: ", t_big * 1e3, " ms; 4 x 4 KiB: ", t_small * 1e3, " ms");
}

TEST_CASE("an error inside the timed work is reported, not swallowed") {
  Tensor a = empty({4}, {DType::Float32, Device::cuda()});
  Tensor b = empty({5}, {DType::Float32, Device::cuda()});
  CHECK_THROWS_AS(time_gpu([&] { copy_(a, b); }, 0, 1), Error);
}
