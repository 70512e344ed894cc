#include "book/timing.h"

#include <doctest/doctest.h>

#include <utility>
#include <vector>

// A fake clock: each timed call advances time by what the callee adds to `now`.
struct FakeClock {
  double now = 0.0;
};

TEST_CASE("median") {
  CHECK(book::median({3, 1, 2}) == 2);
  CHECK(book::median({4, 1, 2, 3}) == 2.5);
}

TEST_CASE("a steady ratio inside its band passes and records what it measured") {
  FakeClock clock;
  book::Check c("PF-07");
  book::RatioBand band;
  band.at_least = 1.5;
  auto r = book::time_ratio(
      c, "slice vs contiguous", [&] { clock.now += 1.0; }, [&] { clock.now += 2.0; }, band,
      [&] { return clock.now; });
  CHECK(r.ratio == doctest::Approx(2.0));
  CHECK(r.noise == doctest::Approx(1.0));
  CHECK(r.status == book::Status::Passed);
  CHECK(c.status() == book::Status::Passed);
  CHECK(c.measurements().size() >= 5);
}

TEST_CASE("a ratio outside its band fails after every attempt") {
  FakeClock clock;
  book::Check c("PF-07");
  book::RatioBand band;
  band.at_least = 3.0;
  auto r = book::time_ratio(
      c, "x", [&] { clock.now += 1.0; }, [&] { clock.now += 2.0; }, band, [&] { return clock.now; });
  CHECK(r.attempts == band.attempts);
  CHECK(c.status() == book::Status::Failed);
}

TEST_CASE("a ratio that misses its band after an undecided attempt is inconclusive, not failed") {
  // The first attempt is noisy (A against itself differs 2x), the second quiet and out of band:
  // the machine was busy during the claim, so its verdict stays open.
  FakeClock clock;
  int calls = 0;
  book::Check c("PF-07");
  book::RatioBand band;
  band.at_least = 3.0;
  band.attempts = 2;
  const int noisy_calls = band.warmups + band.repeats * 2;  // A's calls in attempt 1
  auto r = book::time_ratio(
      c, "x", [&] { clock.now += (calls++ < noisy_calls && calls % 2) ? 2.0 : 1.0; },
      [&] { clock.now += 2.0; }, band, [&] { return clock.now; });
  CHECK(r.attempts == 2);
  CHECK(c.status() == book::Status::Inconclusive);
  CHECK(c.reason().find("could not decide") != std::string::npos);
}

TEST_CASE("noise above the tolerance makes the claim inconclusive, never passed") {
  FakeClock clock;
  int calls = 0;
  book::Check c("PF-07");
  book::RatioBand band;
  band.at_least = 1.5;
  // A alternates between 1 s and 2 s: A against itself differs by 2x, beyond the 1.2 tolerance.
  auto r = book::time_ratio(
      c, "x", [&] { clock.now += (calls++ % 2) ? 2.0 : 1.0; }, [&] { clock.now += 3.0; }, band,
      [&] { return clock.now; });
  CHECK(r.noise > band.noise_tolerance);
  CHECK(c.status() == book::Status::Inconclusive);
  CHECK(c.reason().find("noise") != std::string::npos);
}

TEST_CASE("a median outside the band fails only when the middle half of the repeats misses it too") {
  // B takes 1.4 s in most repeats and 1.6 s in some: the median misses ">= 1.5", but with the
  // middle half of the ratios spanning the edge the run cannot tell, and says so.
  auto run = [](std::vector<double> b_times) {
    FakeClock clock;
    size_t k = 0;
    book::Check c("MM-06");
    book::RatioBand band;
    band.at_least = 1.5;
    band.warmups = 0;
    band.repeats = static_cast<int>(b_times.size());
    band.attempts = 1;
    auto r = book::time_ratio(
        c, "x", [&] { clock.now += 1.0; }, [&] { clock.now += b_times[k++ % b_times.size()]; },
        band, [&] { return clock.now; });
    return std::make_pair(r, c.status());
  };
  auto [straddling, s1] = run({1.4, 1.6, 1.4, 1.6, 1.4, 1.6, 1.4, 1.4, 1.4});
  CHECK(straddling.ratio == doctest::Approx(1.4));
  CHECK(straddling.q3 == doctest::Approx(1.6));
  CHECK(s1 == book::Status::Inconclusive);
  auto [missing, s2] = run({1.4, 1.45, 1.4, 1.45, 1.4, 1.45, 1.4, 1.4, 1.4});
  CHECK(missing.q3 < 1.5);
  CHECK(s2 == book::Status::Failed);
}

TEST_CASE("median_seconds calls the function once per repeat") {
  int calls = 0;
  const double s = book::median_seconds([&] { ++calls; }, 5);
  CHECK(calls == 5);
  CHECK(s >= 0.0);
}

TEST_CASE("skip_timing skips only in a sanitizer build") {
  book::Check c("PF-08");
  CHECK(book::skip_timing(c) == book::sanitizer_build());
}
