// The recorded benchmark run committed beside the pages: tools/bench/run writes compare.json, and
// a copy is kept as docs/recorded/bench/bench-<machine>.json (a folder of its own, because the
// files directly in docs/recorded/ are chapter reports). The build lists that folder among every
// chapter run's inputs, so committing a new run shows it.
#pragma once

#include <filesystem>
#include <string>

#include "book/chapter.h"

namespace book {

// The newest recorded run (last in sort order); empty when none is committed.
std::filesystem::path recorded_bench();

// Shows the recorded run as recorded, with its machine and commit, never as this build's
// measurement: the value and table `runs` (per experiment the two times and their ratio), and the
// table `goals` (each goal of tools/bench with its verdict). With no recorded run, the value says
// so and the tables are empty.
void show_recorded_bench(Exhibit& e, const std::string& runs, const std::string& goals);

}  // namespace book
