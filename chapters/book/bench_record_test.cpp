#include "book/bench_record.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

namespace {

nlohmann::json goal(bool met, bool busy) {
  return {{"goal", "in13_add_stride5: strided / PyTorch"},
          {"threads", 2},
          {"caching_allocator", "off"},
          {"measured", met ? 0.9714 : 1.0321},
          {"limit", 1.0},
          {"comparison", "<="},
          {"met", met},
          {"missed_by", met ? nlohmann::json() : nlohmann::json(1.032)},
          {"busy", busy}};
}

}  // namespace

TEST_CASE("a goal row names its thread count and allocator setting, and its verdict") {
  using V = std::vector<std::string>;
  CHECK(book::bench_goal_row(goal(true, false)) ==
        V{"in13_add_stride5: strided / PyTorch", "2, off", "0.971", "≤ 1.00", "met"});
  CHECK(book::bench_goal_row(goal(false, false))[4] == "missed by 1.032×");
  // A busy part of the run is no measurement, met or not.
  CHECK(book::bench_goal_row(goal(true, true))[4] == "busy: no measurement");
  CHECK(book::bench_goal_row(goal(false, true))[4] == "busy: no measurement");
  nlohmann::json at_least = goal(true, false);
  at_least["comparison"] = ">=";
  at_least["limit"] = 0.85;
  CHECK(book::bench_goal_row(at_least)[3] == "≥ 0.85");
}
