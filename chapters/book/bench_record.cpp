#include "book/bench_record.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "book/provenance.h"
#include "book/show.h"

namespace book {

std::filesystem::path recorded_bench() {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(source_dir()) / "docs" / "recorded" / "bench";
  if (!fs::exists(dir)) return {};
  std::vector<fs::path> found;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.starts_with("bench-") && name.ends_with(".json")) found.push_back(e.path());
  }
  std::sort(found.begin(), found.end());
  return found.empty() ? fs::path{} : found.back();
}

std::string bench_goal_verdict(const nlohmann::json& g) {
  // A goal of a part of the run the bench marked busy is no measurement, met or not. A run
  // recorded before goals had a verdict has only "met".
  if (g.value("busy", false)) return "busy";
  if (g.contains("verdict")) return g.at("verdict").get<std::string>();
  return g.at("met").get<bool>() ? "met" : "missed";
}

std::vector<std::string> bench_goal_row(const nlohmann::json& g) {
  const std::string v = bench_goal_verdict(g);
  std::string verdict = v == "busy"     ? "busy: no measurement"
                        : v == "missed" ? "missed by " + fixed(g.at("missed_by").get<double>(), 3) + "×"
                                        : v;
  // The 5x goals: the ratio the op's bytes would reach at the run's roof (tools/bench/goals.py).
  if (!g.value("busy", false) && g.contains("roof_allows") && g.at("roof_allows").is_number())
    verdict += "; at the roof " + fixed(g.at("roof_allows").get<double>(), 3);
  // The pairs' range, where the run recorded one; word joiners keep it on one line in a narrow
  // column (a line may otherwise break after the dash).
  std::string range;
  if (g.contains("range") && g.at("range").is_array())
    range = fixed(g.at("range").at(0).get<double>(), 3) + "\u2060–\u2060" +
            fixed(g.at("range").at(1).get<double>(), 3);
  // The JSON's "<=" and ">=" as the page writes comparisons.
  const std::string cmp = g.at("comparison").get<std::string>() == "<=" ? "≤" : "≥";
  return {g.at("goal").get<std::string>(),
          std::to_string(g.at("threads").get<int>()) + ", " +
              g.at("caching_allocator").get<std::string>(),
          fixed(g.at("measured").get<double>(), 3), range,
          cmp + " " + fixed(g.at("limit").get<double>(), 2), verdict};
}

std::string float32_mib(const std::string& shape) {
  if (shape.empty()) return "large";
  int64_t elements = 1;
  size_t at = 0;
  while (at < shape.size()) {
    size_t end = at;
    while (end < shape.size() && std::isdigit(static_cast<unsigned char>(shape[end]))) ++end;
    if (end == at) return "large";  // not a shape of sizes joined by "x"
    elements *= std::stoll(shape.substr(at, end - at));
    if (end < shape.size() && shape[end] != 'x') return "large";
    at = end + 1;
  }
  return fixed(static_cast<double>(elements) * 4 / (1 << 20), 0) + " MiB";
}

void show_recorded_bench(Exhibit& e, const std::string& runs, const std::string& goals) {
  const std::filesystem::path path = recorded_bench();
  std::vector<std::vector<std::string>> rows, goal_rows;
  std::string about = "no recorded benchmark run is committed";
  std::string warmup = "not recorded";
  std::string counts = "no goals recorded";
  std::string output = "large";
  std::string ratio_header = "strided / PyTorch, median of pairs";
  if (!path.empty()) {
    std::ifstream in(path);
    const nlohmann::json j = nlohmann::json::parse(in);
    // The headline rows are the allocator-off run at the headline thread count. Their ratio is
    // the median of the pairs' ratios, as the goals judge it, where the run has it (format 2);
    // the ratio of the median times may differ from it.
    std::map<std::string, double> pair_median;
    // The header says which run the rows are, so that they are not read against the goals
    // table's rows of another thread count or cache setting.
    ratio_header = "strided / PyTorch, median of pairs (" +
                   std::to_string(j.at("threads").get<int>()) +
                   (j.contains("runs") ? " threads, cache off)" : " threads)");
    for (const auto& run : j.value("runs", nlohmann::json::array()))
      if (run.at("threads") == j.at("threads") && run.at("caching_allocator") == "off")
        for (const auto& x : run.at("experiments"))
          if (x.at("ratio").is_object())
            pair_median[x.at("name").get<std::string>()] = x.at("ratio").at("median").get<double>();
    for (const auto& x : j.at("experiments")) {
      const std::string name = x.at("name").get<std::string>();
      // The fresh output of the contiguous add(3): its shape ("512x512x512") of float32, in MiB.
      if (name == "in13_add_contiguous") output = float32_mib(x.at("shape").get<std::string>());
      const double s = x.at("strided_ms").get<double>();
      const bool has_torch = x.at("pytorch_ms").is_number();
      const double t = has_torch ? x.at("pytorch_ms").get<double>() : 0.0;
      const auto m = pair_median.find(name);
      const double ratio = m != pair_median.end() ? m->second : s / t;
      rows.push_back({name, x.at("shape").get<std::string>(), fixed(s, 3),
                      has_torch ? fixed(t, 3) : "", has_torch ? fixed(ratio, 2) : ""});
    }
    std::map<std::string, int> verdicts;
    for (const auto& g : j.at("goals")) {
      goal_rows.push_back(bench_goal_row(g));
      ++verdicts[bench_goal_verdict(g)];
    }
    counts = std::to_string(verdicts["met"]) + " met, " + std::to_string(verdicts["missed"]) +
             " missed, " + std::to_string(verdicts["inconclusive"]) + " inconclusive and " +
             std::to_string(verdicts["busy"]) + " no measurement, of " +
             std::to_string(goal_rows.size()) + " goals";
    // The untimed calls before each side's timed ones (tools/bench/run's WARMUP_SECONDS).
    if (j.contains("warmup_seconds")) warmup = fixed(j.at("warmup_seconds").get<double>(), 1) + " s";
    const auto& m = j.at("machine");
    about = "recorded on " + m.at("cpu").get<std::string>() + " with " +
            std::to_string(j.at("threads").get<int>()) + " threads, at commit " +
            j.at("commit").get<std::string>() + " on " + j.at("date").get<std::string>() +
            " (PyTorch " + j.at("pytorch").get<std::string>() + "); STREAM copy " +
            fixed(j.at("stream").at("copy_gbs").get<double>(), 1) + " GB/s, triad " +
            fixed(j.at("stream").at("triad_gbs").get<double>(), 1) + " GB/s";
    // tools/bench/run --regoal judged the goals after the run, by the rules of a later commit.
    if (j.contains("goals_judged_at"))
      about += "; its goals judged by the rules of commit " + j.at("goals_judged_at").get<std::string>();
    // The bench marks a run it cannot vouch for (tools/bench/run: load, other processes, spread).
    // Its reasons name experiments (underscores) and percentages, which a sentence cannot quote:
    // the count is said here, and the goals table marks each goal judged on a busy part.
    if (j.value("busy", false)) {
      const size_t parts = j.at("busy_reasons").size();
      about += "; the bench marked " + std::to_string(parts) + (parts == 1 ? " part" : " parts") +
               " of this run busy, and a goal judged on one is no measurement";
    }
  }
  e.value(runs, about);
  e.value(runs + "_warmup", warmup);
  e.value(runs + "_output", output);
  e.value(goals + "_counts", counts);
  e.table(runs,
          {"experiment", "shape", "strided ms", "PyTorch ms", ratio_header},
          rows);
  e.table(goals, {"goal", "threads, cache", "median", "pairs", "bound", "verdict"}, goal_rows);
}

}  // namespace book
