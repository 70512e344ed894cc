#include "strided/core/shape.h"

#include "strided/core/error.h"

namespace strided {

std::string to_string(IntList values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(values[i]);
  }
  return out + "]";
}

std::string layout_string(IntList sizes, IntList strides) {
  auto tuple = [](IntList v) {
    std::string out = "(";
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out += ",";
      out += std::to_string(v[i]);
    }
    // A one-element tuple is written (5,) as in Python, so it cannot be mistaken for a number.
    if (v.size() == 1) out += ",";
    return out + ")";
  };
  return tuple(sizes) + ":" + tuple(strides);
}

std::optional<uint64_t> safe_multiply_u64(IntList sizes) {
  uint64_t n = 1;
  bool overflow = false;
  for (int64_t s : sizes) overflow |= __builtin_mul_overflow(n, static_cast<uint64_t>(s), &n);
  if (overflow) return std::nullopt;
  return n;
}

int64_t checked_numel(IntList sizes, const char* op) {
  for (int64_t s : sizes)
    // c10's check_size_nonnegative, in its words.
    STRIDED_CHECK(s >= 0, op, "Trying to create tensor with negative dimension ", s, ": ",
                  to_string(sizes));
  const std::optional<uint64_t> n = safe_multiply_u64(sizes);
  STRIDED_CHECK(n && *n <= static_cast<uint64_t>(INT64_MAX), op,
                "numel: integer multiplication overflow (sizes ", to_string(sizes), ")");
  return static_cast<int64_t>(*n);
}

}  // namespace strided
