// Sizes and strides: lists of 64-bit element counts, and how the book writes them.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace strided {

using Shape = std::vector<int64_t>;  // sizes or strides, in elements

// A borrowed list of sizes, strides or dims, as c10::IntArrayRef: it binds to a Shape, a span or a
// braced list, so t.view({2, 3}) reads as in PyTorch. It never owns its elements.
class IntList : public std::span<const int64_t> {
 public:
  using std::span<const int64_t>::span;
  IntList() = default;
  IntList(std::span<const int64_t> s) : std::span<const int64_t>(s) {}
  IntList(const Shape& v) : std::span<const int64_t>(v.data(), v.size()) {}
  // The list lives until the end of the full expression that holds the call, as with ArrayRef.
  IntList(std::initializer_list<int64_t> l) : std::span<const int64_t>(l.begin(), l.size()) {}
  Shape vec() const { return Shape(begin(), end()); }
};

// "[2, 3, 4]", as PyTorch prints a size in its messages.
std::string to_string(IntList values);
// "(2,3,4):(12,4,1)", the shape:stride notation of the book.
std::string layout_string(IntList sizes, IntList strides);

// Checked arithmetic: every size, stride, offset and byte count formed from user input goes
// through Checked, never through a raw * or +. A Checked holds the exact int64 result while it
// fits; once any step overflows it stays overflowed, so a chain of products and sums is tested
// once at its end, as c10 chains mul_overflows and add_overflows (EmptyTensor.cpp,
// computeStorageNbytes). Where PyTorch's own arithmetic wraps instead (the stride of a dim that
// is never stepped), layout.h's wrapping_mul and wrapping_add give its numbers.
class Checked {
 public:
  constexpr Checked(int64_t value = 0) : value_(value) {}  // NOLINT: converts from int64_t
  Checked operator*(Checked o) const {
    Checked r;
    r.overflow_ = overflow_ || o.overflow_ || __builtin_mul_overflow(value_, o.value_, &r.value_);
    return r;
  }
  Checked operator+(Checked o) const {
    Checked r;
    r.overflow_ = overflow_ || o.overflow_ || __builtin_add_overflow(value_, o.value_, &r.value_);
    return r;
  }
  Checked operator-(Checked o) const {
    Checked r;
    r.overflow_ = overflow_ || o.overflow_ || __builtin_sub_overflow(value_, o.value_, &r.value_);
    return r;
  }
  Checked& operator*=(Checked o) { return *this = *this * o; }
  Checked& operator+=(Checked o) { return *this = *this + o; }
  Checked& operator-=(Checked o) { return *this = *this - o; }
  bool overflowed() const { return overflow_; }
  // The value; call only when !overflowed() (an overflowed value is what wrapping left).
  int64_t value() const { return value_; }

 private:
  int64_t value_ = 0;
  bool overflow_ = false;
};

// c10::safe_multiply_u64 as PyTorch 1.13 has it: the product of sizes (none negative) in unsigned
// 64-bit arithmetic, left to right, or nullopt when any partial product overflows, even one a
// later 0 would cancel. The one place PyTorch's unsigned count is formed.
std::optional<uint64_t> safe_multiply_u64(IntList sizes);

// The number of elements of sizes, by c10's safe_compute_numel (c10/core/TensorImpl.h), which
// every PyTorch tensor passes: the product in unsigned 64-bit arithmetic, left to right, where an
// overflow anywhere counts even when a later 0 makes the product 0 ([2^63-1, 2, 0] has 0
// elements; [2^63-1, 2^63-1, 0] is refused), and the product must fit int64. Errors: "<op>:
// negative dimension -1 in size [2, -1]" and "<op>: numel: integer multiplication overflow
// (sizes [...])".
int64_t checked_numel(IntList sizes, const char* op);

}  // namespace strided
