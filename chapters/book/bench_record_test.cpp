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
          {"range", {met ? 0.9551 : 1.0102, met ? 0.9903 : 1.0412}},
          {"verdict", met ? "met" : "missed"},
          {"met", met},
          {"missed_by", met ? nlohmann::json() : nlohmann::json(1.032)},
          {"roof_allows", nullptr},
          {"busy", busy}};
}

}  // namespace

TEST_CASE("a goal row names its thread count and allocator setting, and its verdict") {
  using V = std::vector<std::string>;
  CHECK(book::bench_goal_row(goal(true, false)) ==
        V{"in13_add_stride5: strided / PyTorch", "2, off", "0.971", "0.955\u2060–\u20600.990", "≤ 1.00", "met"});
  CHECK(book::bench_goal_row(goal(false, false))[5] == "missed by 1.032×");
  // A busy part of the run is no measurement, met or not.
  CHECK(book::bench_goal_row(goal(true, true))[5] == "busy: no measurement");
  CHECK(book::bench_goal_row(goal(false, true))[5] == "busy: no measurement");
  nlohmann::json at_least = goal(true, false);
  at_least["comparison"] = ">=";
  at_least["limit"] = 0.85;
  CHECK(book::bench_goal_row(at_least)[4] == "≥ 0.85");
}

TEST_CASE("pairs on both sides of the bound are inconclusive; a 5x goal gives the roof's answer") {
  nlohmann::json g = goal(false, false);
  g["verdict"] = "inconclusive";
  g["missed_by"] = nullptr;
  g["range"] = {0.9812, 1.0131};
  CHECK(book::bench_goal_row(g)[3] == "0.981\u2060–\u20601.013");
  CHECK(book::bench_goal_row(g)[5] == "inconclusive");
  nlohmann::json five = goal(false, false);
  five["limit"] = 0.2;
  five["missed_by"] = 1.164;
  five["roof_allows"] = 0.2243;
  CHECK(book::bench_goal_row(five)[5] == "missed by 1.164×; at the roof 0.224");
  five["busy"] = true;
  CHECK(book::bench_goal_row(five)[5] == "busy: no measurement");
}

TEST_CASE("a run recorded before goals had a verdict or a range reads from met") {
  nlohmann::json old = goal(false, false);
  old.erase("verdict");
  old.erase("range");
  old.erase("roof_allows");
  CHECK(book::bench_goal_row(old)[3].empty());
  CHECK(book::bench_goal_row(old)[5] == "missed by 1.032×");
  CHECK(book::bench_goal_verdict(old) == "missed");
}

TEST_CASE("a goal's verdict word, which the counts above the table add up") {
  nlohmann::json g = goal(true, false);
  CHECK(book::bench_goal_verdict(g) == "met");
  g["verdict"] = "inconclusive";
  g["met"] = false;
  CHECK(book::bench_goal_verdict(g) == "inconclusive");
  g["busy"] = true;
  CHECK(book::bench_goal_verdict(g) == "busy");
}

TEST_CASE("a bench shape's float32 bytes, in MiB") {
  CHECK(book::float32_mib("512x512x512") == "512 MiB");
  CHECK(book::float32_mib("1024x1024") == "4 MiB");
  CHECK(book::float32_mib("512x512x512 permute(2,1,0)") == "large");  // not sizes alone
  CHECK(book::float32_mib("") == "large");
}
