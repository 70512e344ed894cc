// A timing claim's ratios as the chapters show them: each measured by time_ratio (book/timing.h),
// kept as named values for the prose, and laid out in a table and a chart beside the seed
// notebook's ratio and the model's, so that a row's numbers are the ones its ratio came from.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "book/check.h"
#include "book/timing.h"
#include "strided/engine/dispatch.h"

namespace book {

// One measured ratio, with what the table and the chart set beside it.
struct Timed {
  std::string label;           // "stride 5 / contiguous"
  RatioResult result;          // time_ratio's, the times per measurement
  double ratio = 0;            // median of the paired repeats' t_B / t_A
  double a_ms = 0, b_ms = 0;   // median times per call
  double spread = 0;           // ± this fraction of the ratio: half the middle half of its repeats
  double seed_ratio = 0;       // the seed notebook's ratio for the same experiment; 0: none
  double model_ratio = 0;      // the model's ratio for the same walk; 0: no model applies
};

// The bands of claims.md's timing policy, with two attempts instead of three: on a shared machine a
// noisy run is reported inconclusive sooner, and ctest stays short.
RatioBand band(double at_least, double at_most = std::numeric_limits<double>::infinity());
inline RatioBand about_as_fast() { return band(0.67, 1.5); }  // B takes about as long as A
inline RatioBand slower() { return band(1.15); }              // B is measurably slower
inline RatioBand much_slower() { return band(1.5); }          // B is slower by half again or more

// time_ratio of a against b with `per` calls making one measurement (short ops are timed in
// groups, so that one hiccup of a shared machine weighs less). Keeps the values key_ratio,
// key_a_ms and key_b_ms (per call), key_noise, key_spread (in %), key_at_least and key_at_most
// (the band, where bounded) for the sentence that quotes them. `clock` is time_ratio's: the steady
// clock when empty; a GPU claim passes one that reads CUDA events (strided::cuda::EventClock), so
// its ratio is judged by the same statistics as a CPU claim's.
Timed timed_ratio(Check& c, const std::string& what, const std::string& key,
                  const std::function<void()>& a, const std::function<void()>& b,
                  const RatioBand& band, int per = 1, const std::function<double()>& clock = {});

// The table of a timing claim: per row the two median times, the ratio ± its spread, the seed's
// ratio, the model's and how far the run is from the model ("—" where there is none).
void timing_table(Check& c, const std::string& name, const std::vector<Timed>& rows);

// The bar chart of a timing claim (chapters/plots/ratios.gp, log axis): this run's ratios beside
// the seed's and the model's. Drawn only when the chapter is emitting for the book.
void ratio_figure(Check& c, const std::string& name, const std::vector<Timed>& rows,
                  const std::string& caption);

// A timing claim runs on one thread, the engine's and OpenBLAS's alike: the catalogue's policy,
// and the only fair use of a machine whose cores are shared. The count before comes back after.
class OneThread {
 public:
  OneThread();
  ~OneThread();
  OneThread(const OneThread&) = delete;
  OneThread& operator=(const OneThread&) = delete;

 private:
  int before_;
};

// The CPU kernels of one capability (strided/engine/dispatch.h) for a scope, the ones before after
// it: a timing claim whose ratio depends on the width of the vectors names the width it measured.
class CpuKernelsScope {
 public:
  explicit CpuKernelsScope(strided::CpuCapability c);
  ~CpuKernelsScope();
  CpuKernelsScope(const CpuKernelsScope&) = delete;
  CpuKernelsScope& operator=(const CpuKernelsScope&) = delete;

 private:
  strided::CpuCapability before_;
};

}  // namespace book
