#include "book/timing.h"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <vector>

namespace book {

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

namespace {

double steady_seconds();

}  // namespace

bool skip_timing(Check& c) {
  if (!sanitizer_build()) return false;
  c.not_run("a sanitizer build: its timings would measure the instrumentation, not the walk");
  return true;
}

double median_seconds(const std::function<void()>& f, int repeats) {
  std::vector<double> s;
  for (int r = 0; r < repeats; ++r) {
    const double t0 = steady_seconds();
    f();
    s.push_back(steady_seconds() - t0);
  }
  return median(s);
}

namespace {

double steady_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

RatioResult measure_once(const std::function<void()>& a, const std::function<void()>& b,
                         const RatioBand& band, const std::function<double()>& now) {
  auto time = [&](const std::function<void()>& f) {
    const double t0 = now();
    f();
    return now() - t0;
  };
  for (int i = 0; i < band.warmups; ++i) {
    a();
    b();
  }
  // A B A' per repeat: B/A is the claim's ratio, A'/A the run's own noise at the same moment.
  std::vector<double> ratios, noises, ta, tb;
  for (int i = 0; i < band.repeats; ++i) {
    const double t_a = time(a);
    const double t_b = time(b);
    const double t_a2 = time(a);
    const double base = std::max(t_a, 1e-12);
    ratios.push_back(t_b / base);
    const double aa = std::max(t_a2, 1e-12) / base;
    noises.push_back(std::max(aa, 1.0 / aa));
    ta.push_back(t_a);
    tb.push_back(t_b);
  }
  RatioResult r;
  r.ratio = median(ratios);
  r.noise = median(noises);
  const auto [lo, hi] = std::minmax_element(ratios.begin(), ratios.end());
  r.spread = *lo > 0 ? *hi / *lo : std::numeric_limits<double>::infinity();
  r.median_a_s = median(ta);
  r.median_b_s = median(tb);
  std::sort(ratios.begin(), ratios.end());
  const size_t n = ratios.size();
  r.q1 = ratios[n / 4];
  r.q3 = ratios[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1];
  const bool in_band = r.ratio >= band.at_least && r.ratio <= band.at_most;
  const bool straddles = r.q3 >= band.at_least && r.q1 <= band.at_most;  // [q1, q3] meets the band
  if (r.noise > band.noise_tolerance)
    r.status = Status::Inconclusive;
  else if (in_band)
    r.status = Status::Passed;
  else
    r.status = straddles ? Status::Inconclusive : Status::Failed;
  return r;
}

std::string band_text(const RatioBand& band) {
  std::ostringstream out;
  if (band.at_most == std::numeric_limits<double>::infinity())
    out << ">= " << band.at_least;
  else
    out << "in [" << band.at_least << ", " << band.at_most << "]";
  return out.str();
}

}  // namespace

RatioResult time_ratio(Check& check, const std::string& what, const std::function<void()>& a,
                       const std::function<void()>& b, const RatioBand& band,
                       const std::function<double()>& clock) {
  const std::function<double()> now = clock ? clock : steady_seconds;
  RatioResult r;
  if (sanitizer_build() && !clock) {
    check.not_run("a sanitizer build: its timings would measure the instrumentation");
    r.status = Status::NotRun;
    return r;
  }
  // A claim fails only when every attempt misses its band with quiet repeats: an attempt that was
  // inconclusive (a busy machine) leaves the verdict open, whatever a later attempt says.
  int undecided = 0;
  for (int attempt = 1; attempt <= std::max(1, band.attempts); ++attempt) {
    r = measure_once(a, b, band, now);
    r.attempts = attempt;
    if (r.status == Status::Passed) break;
    if (r.status == Status::Inconclusive) ++undecided;
  }
  const bool attempts_disagree = r.status == Status::Failed && undecided > 0;
  if (attempts_disagree) r.status = Status::Inconclusive;
  check.record(what + ": median time A (s)", r.median_a_s);
  check.record(what + ": median time B (s)", r.median_b_s);
  check.record(what + ": noise A vs A", r.noise);
  check.record(what + ": spread of B/A over repeats", r.spread);
  check.record(what + ": attempts", r.attempts);
  check.record(what + ": middle half of B/A over repeats", "[" + show(r.q1) + ", " + show(r.q3) + "]");
  check.record(what + ": spread of B/A (half the middle half, % of the median)",
               100.0 * r.half_spread());
  if (r.status == Status::Inconclusive) {
    check.record(what + ": ratio B/A (not judged)", r.ratio);
    std::ostringstream reason;
    if (attempts_disagree)
      reason << "the last of " << r.attempts << " attempts gave " << show(r.ratio)
             << ", outside the band " << band_text(band) << ", but " << undecided
             << " earlier attempt(s) could not decide (a busy machine)";
    else if (r.noise > band.noise_tolerance)
      reason << "noise " << show(r.noise) << " exceeds the tolerance " << show(band.noise_tolerance);
    else
      reason << "the median ratio " << show(r.ratio) << " misses the band " << band_text(band)
             << ", but the middle half of the repeats, [" << show(r.q1) << ", " << show(r.q3)
             << "], reaches into it";
    check.inconclusive(reason.str());
  } else {
    check.judge(what + ": ratio B/A", show(r.ratio), band_text(band), r.status == Status::Passed);
  }
  return r;
}

}  // namespace book
