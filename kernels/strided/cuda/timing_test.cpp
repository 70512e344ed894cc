// The host half of the timing helpers: the median, the bandwidth arithmetic, argument checks.
#include "strided/cuda/timing.h"

#include <doctest/doctest.h>

#include "strided/cuda/runtime.h"
#include "strided/core/error.h"

using namespace strided;
using namespace strided::cuda;

TEST_CASE("median of odd and even counts, in any order") {
  CHECK(median({3.0}) == 3.0);
  CHECK(median({5.0, 1.0, 3.0}) == 3.0);
  CHECK(median({4.0, 1.0, 3.0, 2.0}) == 2.5);
  CHECK(median({1.0, 100.0, 2.0}) == 2.0);  // one slow outlier does not move it
  CHECK_THROWS_WITH_AS(median({}), "median: no samples", Error);
}

TEST_CASE("bytes moved per second") {
  // The seed's In[14]: add(3) on 512^3 float32 reads and writes 512 MiB each in 1.5 ms.
  const double bytes = 2.0 * 512 * 512 * 512 * 4;
  CHECK(gigabytes_per_second(bytes, 1.5) == doctest::Approx(715.83).epsilon(1e-4));
  CHECK_THROWS_AS(gigabytes_per_second(bytes, 0.0), Error);
}

TEST_CASE("timing refuses nonsense counts before it needs a device") {
  const auto nothing = [] {};
  CHECK_THROWS_WITH_AS(time_gpu(nothing, 5, 0),
                       "cuda::time_gpu: need warmup >= 0 and runs >= 1, got warmup=5, runs=0", Error);
  CHECK_THROWS_AS(time_gpu_interleaved(nothing, nothing, -1, 3), Error);
}

TEST_CASE("without a device, timing is refused with the runtime's reason") {
  if (available()) return;  // the GPU test cuda.timing_events_gpu covers this machine
  CHECK_THROWS_WITH_AS(time_gpu([] {}), ("cuda::time_gpu: no CUDA device: " + unavailable_reason()).c_str(), Error);
}

TEST_CASE("an event clock refuses nonsense counts, and without a device names itself") {
  EventClock clock;
  CHECK_THROWS_WITH_AS(clock.timed([] {}, 0), "cuda::EventClock::timed: need calls >= 1, got calls=0",
                       Error);
  CHECK(clock.seconds() == 0.0);
  if (available()) return;  // cuda.timing_events_gpu runs it on a device
  const auto timed = clock.timed([] {});
  CHECK_THROWS_WITH_AS(timed(), ("cuda::EventClock: no CUDA device: " + unavailable_reason()).c_str(),
                       Error);
  CHECK(clock.reader()() == 0.0);
}
