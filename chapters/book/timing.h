// Timing claims as ratios of two measurements taken in one run, so the machine's absolute speed
// cancels out. The policy is claims.md's: warm up, interleave A and B, take medians, and first
// measure how far A differs from A itself. When that noise exceeds the tolerance the claim is
// *inconclusive* — the run could not tell — never passed and never failed. A median ratio outside
// the band fails only when the middle half of the repeats' ratios lies outside it too; when that
// middle half straddles the band's edge, the run could not tell either, and says so.
#pragma once

#include <functional>
#include <limits>
#include <string>

#include "book/check.h"

namespace book {

struct RatioBand {
  double at_least = 0.0;                                    // median t_B / t_A must be >= this
  double at_most = std::numeric_limits<double>::infinity();  // ... and <= this
  double noise_tolerance = 1.2;  // inconclusive when the A-vs-A ratio strays further than this
  int warmups = 2;
  int repeats = 9;
  int attempts = 3;  // a run that misses the band (with low noise) is measured again, up to this
};

struct RatioResult {
  double ratio = 0.0;   // median of t_B / t_A over the repeats
  double noise = 0.0;   // median over repeats of max(t_A'/t_A, t_A/t_A'), >= 1
  double spread = 0.0;  // max / min of the repeat ratios
  double q1 = 0.0, q3 = 0.0;  // the middle half of the repeat ratios: the ratio's spread
  // Half the middle half's width, relative to the median: the ratio is ratio ± this fraction.
  double half_spread() const { return ratio > 0 ? (q3 - q1) / 2 / ratio : 0.0; }
  double median_a_s = 0.0, median_b_s = 0.0;
  int attempts = 0;
  Status status = Status::Failed;
};

// True in a sanitizer build (the asan preset of tools/book test). Its instrumented loops would time
// the instrumentation, not the walk, so time_ratio reports its claims *not run* there.
constexpr bool sanitizer_build() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

// Times a and b (each call is one measurement), records ratio, noise, spread and median times in
// `check` under `what`, and sets the verdict: inconclusive when noise > tolerance, else the band.
// `clock` returns seconds; tests pass a fake clock, chapters leave the steady clock. In a
// sanitizer build with the steady clock it times nothing and marks the check not run.
RatioResult time_ratio(Check& check, const std::string& what, const std::function<void()>& a,
                       const std::function<void()>& b, const RatioBand& band,
                       const std::function<double()>& clock = {});

// The median of v (v is reordered); the mean of the middle two for an even count.
double median(std::vector<double> v);

// In a sanitizer build, marks the check not run and returns true: a claim calls it before it
// builds what it would time, so that the instrumented build spends nothing on it.
bool skip_timing(Check& c);

// The median of `repeats` calls of f, in seconds, on the steady clock: an exhibit's illustration
// of this run, never a claim (a claim's timing is a ratio, time_ratio).
double median_seconds(const std::function<void()>& f, int repeats);

}  // namespace book
