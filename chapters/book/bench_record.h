// The recorded benchmark run committed beside the pages: tools/bench/run writes compare.json, and
// a copy is kept as docs/recorded/bench/bench-<machine>.json (a folder of its own, because the
// files directly in docs/recorded/ are chapter reports). The build lists that folder among every
// chapter run's inputs, so committing a new run shows it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "book/chapter.h"

namespace book {

// One row of the goals table from one goal of a recorded run (tools/bench/run's "goals",
// tools/bench/goals.py's rules): the goal, "threads, allocator setting", the median ratio, the
// pairs' range, the bound, and the verdict (met, missed by how much, inconclusive where the pairs
// fall on both sides of the bound, or no measurement where the bench marked that part of the run
// busy), with the ratio the op would reach at the run's roof (its copy's and read's speeds) where the goal has one.
std::vector<std::string> bench_goal_row(const nlohmann::json& goal);

// A goal's verdict as a word: "met", "missed", "inconclusive", or "busy" (no measurement).
std::string bench_goal_verdict(const nlohmann::json& goal);

// The bytes of a float32 tensor of a bench shape ("512x512x512"), as "512 MiB"; "large" for a
// shape it cannot read.
std::string float32_mib(const std::string& shape);

// The newest recorded run (last in sort order); empty when none is committed.
std::filesystem::path recorded_bench();

// Shows the recorded run as recorded, with its machine and commit, never as this build's
// measurement: the value and table `runs` (per experiment the two times and their ratio), the
// value `runs`_warmup (the untimed calls before each side's timed ones), the value `runs`_output
// (the size of the contiguous add's fresh output, float32_mib), and the table `goals`
// (each goal of tools/bench at its thread count and allocator setting, with its verdict; a goal
// of a busy part of the run is no measurement), and the value `goals`_counts (how many goals have
// each verdict). With no recorded run, the values say so and the
// tables are empty.
void show_recorded_bench(Exhibit& e, const std::string& runs, const std::string& goals);

}  // namespace book
