#include "book/walks.h"

#include <algorithm>
#include <limits>

#include "strided/engine/ops.h"

namespace book {

using namespace strided;
using namespace strided::models;

std::vector<int64_t> first_bytes(const Trace& t, size_t n) {
  return {t.bytes.begin(), t.bytes.begin() + static_cast<std::ptrdiff_t>(std::min(n, t.bytes.size()))};
}

std::string head(const Trace& t, size_t n, int64_t unit) {
  std::string s;
  for (size_t i = 0; i < std::min(n, t.bytes.size()); ++i)
    s += (i ? ", " : "") + std::to_string(t.bytes[i] / unit);
  return s + (t.bytes.size() > n ? ", …" : "");
}

int64_t fewest_per_request(const Tensor& steps_by_lanes) {
  const Trace all = logical_trace(steps_by_lanes);
  const size_t lanes = static_cast<size_t>(steps_by_lanes.size(-1));
  int64_t fewest = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < all.bytes.size(); i += lanes) {
    Trace one{{all.bytes.begin() + static_cast<std::ptrdiff_t>(i),
               all.bytes.begin() + static_cast<std::ptrdiff_t>(std::min(i + lanes, all.bytes.size()))}};
    fewest = std::min(fewest, warp_sectors(one, int64_t(lanes)).sectors);
  }
  return fewest;
}

double walk_lines(const TensorIterator& plan) {
  double lines = 0;
  for (int k = 0; k < plan.ntensors(); ++k) {
    const auto& steps = plan.operand(k).stride_bytes;
    if (std::all_of(steps.begin(), steps.end(), [](int64_t s) { return s == 0; })) continue;
    lines += lines_per_window(plan_trace(plan, k), 16);
  }
  return lines;
}

double unary_sectors(const Tensor& x) {
  TensorIterator plan = binary_plan(BinaryOp::Add, Tensor(), x, Scalar(3.0));
  return warp_sectors(plan_trace(plan, 1)).per_request() +
         warp_sectors(plan_trace(plan, 0)).per_request();
}

double binary_sectors(const Tensor& x, const Tensor& y) {
  TensorIterator plan = binary_plan(BinaryOp::Mul, Tensor(), x, y);
  double s = 0;
  for (int k = 0; k < plan.ntensors(); ++k) s += warp_sectors(plan_trace(plan, k)).per_request();
  return s;
}

double binary_lines_per_16(const Tensor& x, const Tensor& y) {
  return walk_lines(binary_plan(BinaryOp::Mul, Tensor(), x, y));
}

int64_t binary_misses(const Tensor& x, const Tensor& y, int64_t capacity_bytes) {
  TensorIterator plan = binary_plan(BinaryOp::Mul, Tensor(), x, y);
  const auto storage = [&](int k) -> const void* {
    return plan.operand(k).tensor.storage().data();
  };
  const std::vector<Trace> traces = {plan_trace(plan, 1), plan_trace(plan, 2), plan_trace(plan, 0)};
  return lru_misses(interleave(apart(traces, {storage(1), storage(2), storage(0)})),
                    capacity_bytes);
}

}  // namespace book
