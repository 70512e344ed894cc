#include "book/timing.h"

#include <doctest/doctest.h>

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
