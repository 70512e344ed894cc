// Sizes and strides: lists of 64-bit element counts, and how the book writes them.
#pragma once

#include <cstdint>
#include <initializer_list>
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

// Product of sizes with a clear error when it overflows int64 (op names the caller).
int64_t checked_numel(IntList sizes, const char* op);

}  // namespace strided
