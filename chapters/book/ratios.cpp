#include "book/ratios.h"

#include <algorithm>

#include <cmath>

#include "book/plot.h"
#include "book/show.h"
#include "strided/engine/parallel.h"

namespace book {

RatioBand band(double at_least, double at_most) {
  RatioBand b;
  b.at_least = at_least;
  b.at_most = at_most;
  b.attempts = 2;
  return b;
}

Timed timed_ratio(Check& c, const std::string& what, const std::string& key,
                  const std::function<void()>& a, const std::function<void()>& b,
                  const RatioBand& band, int per, const std::function<double()>& clock) {
  auto group = [per](const std::function<void()>& f) {
    return [per, &f] {
      for (int k = 0; k < per; ++k) f();
    };
  };
  // The ledger shows time_ratio's medians per measurement: say when one measurement is `per` calls.
  const std::string measured =
      per > 1 ? what + " (one measurement = " + std::to_string(per) + " calls)" : what;
  Timed t;
  t.label = what;
  t.result = time_ratio(c, measured, group(a), group(b), band, clock);
  t.ratio = t.result.ratio;
  t.a_ms = t.result.median_a_s * 1e3 / per;
  t.b_ms = t.result.median_b_s * 1e3 / per;
  t.spread = t.result.half_spread();
  c.value(key + "_ratio", fixed(t.ratio));
  c.value(key + "_a_ms", fixed(t.a_ms));
  c.value(key + "_b_ms", fixed(t.b_ms));
  c.value(key + "_noise", fixed(t.result.noise));
  c.value(key + "_spread", fixed(100 * t.spread, 1));
  c.value(key + "_at_least", fixed(band.at_least));
  if (std::isfinite(band.at_most)) c.value(key + "_at_most", fixed(band.at_most));
  return t;
}

void timing_table(Check& c, const std::string& name, const std::vector<Timed>& rows) {
  // The ratio is the median over repeats of t_B / t_A, close to, not equal to, the quotient of
  // the two medians beside it.
  std::vector<std::vector<std::string>> cells;
  for (const Timed& t : rows)
    cells.push_back({t.label, fixed(t.a_ms), fixed(t.b_ms),
                     fixed(t.ratio) + " ± " + fixed(100 * t.spread, 1) + "%",
                     t.seed_ratio > 0 ? fixed(t.seed_ratio) : "—",
                     t.model_ratio > 0 ? fixed(t.model_ratio, 1) : "—",
                     t.model_ratio > 0 ? fixed(t.ratio / t.model_ratio, 1) : "—"});
  c.table(name,
          {"B / A", "A (ms)", "B (ms)",
           "B / A this run (median of paired repeats ± half their middle half)",
           "B / A in the seed", "B / A in the line model", "this run ÷ model"},
          cells);
}

void ratio_figure(Check& c, const std::string& name, const std::vector<Timed>& rows,
                  const std::string& caption) {
  if (emit_dir().empty()) return;  // the data is for the chart alone
  // A series no row has (the seed did not time it, no model counts it) is left out, not drawn as
  // empty slots: each cluster's bars then stand over its label.
  const auto any = [&rows](double Timed::*ratio) {
    return std::any_of(rows.begin(), rows.end(), [ratio](const Timed& t) { return t.*ratio > 0; });
  };
  const bool seed = any(&Timed::seed_ratio), model = any(&Timed::model_ratio);
  std::string data = "# experiment\tthis_run" + std::string(seed ? "\tseed" : "") +
                     (model ? "\tmodel" : "") + "\n";
  for (const Timed& t : rows) {
    data += "\"" + t.label + "\"\t" + fixed(t.ratio, 3);
    // "?": not measured.
    if (seed) data += "\t" + (t.seed_ratio > 0 ? fixed(t.seed_ratio, 3) : "?");
    if (model) data += "\t" + (t.model_ratio > 0 ? fixed(t.model_ratio, 3) : "?");
    data += "\n";
  }
  // The series in column order: each one's legend and colour (chapters/plots/ratios.gp).
  std::vector<std::pair<std::string, std::string>> series = {{"this run", "#1f77b4"}};
  if (seed) series.push_back({"seed notebook", "#ff7f0e"});
  if (model) series.push_back({"line model", "#7f7f7f"});
  std::string vars = "series=" + std::to_string(series.size());
  for (size_t k = 0; k < series.size(); ++k)
    vars += "; title" + std::to_string(k + 1) + "='" + series[k].first + "'; colour" +
            std::to_string(k + 1) + "='" + series[k].second + "'";
  gnuplot_figure(c, name, "ratios", data, caption, vars);
}

OneThread::OneThread() : before_(strided::get_num_threads()) { strided::set_num_threads(1); }
OneThread::~OneThread() { strided::set_num_threads(before_); }

CpuKernelsScope::CpuKernelsScope(strided::CpuCapability c) : before_(strided::cpu_capability()) {
  strided::set_cpu_capability(c);
}
CpuKernelsScope::~CpuKernelsScope() { strided::set_cpu_capability(before_); }

}  // namespace book
