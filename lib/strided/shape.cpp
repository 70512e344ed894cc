#include "strided/shape.h"

#include "strided/error.h"

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

int64_t checked_numel(IntList sizes, const char* op) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t s : sizes) {
    // c10's check_size_nonnegative, in its words.
    STRIDED_CHECK(s >= 0, op, ": Trying to create tensor with negative dimension ", s, ": ",
                  to_string(sizes));
    if (__builtin_mul_overflow(n, s, &n)) overflow = true;
  }
  // A zero anywhere makes the product 0 even if a partial product overflowed.
  for (int64_t s : sizes)
    if (s == 0) return 0;
  STRIDED_CHECK(!overflow, op, ": the number of elements of size ", to_string(sizes),
                " overflows int64");
  return n;
}

}  // namespace strided
