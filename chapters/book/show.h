// How a measured value is written in reports and on pages: as a PyTorch reader would read it.
// Integers in full, floating point with up to 6 significant digits, booleans as True/False,
// lists (sizes, strides) as tuples "(12, 4)", anything else through its operator<<.
#pragma once

#include <concepts>
#include <cstdint>
#include <iomanip>
#include <ranges>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

namespace book {

template <class T>
std::string show(const T& value);

namespace detail {
template <class T>
concept Streamable = requires(std::ostream& out, const T& v) { out << v; };
template <class T>
concept StringLike = std::is_convertible_v<const T&, std::string_view>;
}  // namespace detail

template <class T>
std::string show(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "True" : "False";  // Python's spelling: the book compares with PyTorch
  } else if constexpr (detail::StringLike<T>) {
    return std::string(std::string_view(value));
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(value);
  } else if constexpr (std::is_floating_point_v<T>) {
    std::ostringstream out;
    out << std::setprecision(6) << value;
    return out.str();
  } else if constexpr (std::ranges::range<T>) {
    std::string s = "(";
    std::size_t n = 0;
    for (const auto& v : value) {
      if (n++) s += ", ";
      s += show(v);
    }
    if (n == 1) s += ",";  // a one-element tuple, as Python writes it: (4,)
    return s + ")";
  } else {
    static_assert(detail::Streamable<T>, "book::show needs a number, string, range or operator<<");
    std::ostringstream out;
    out << value;
    return out.str();
  }
}

// A number with a fixed count of decimals, as the prose and the tables show measured figures:
// fixed(3.14159) is "3.14", fixed(2, 0) is "2".
inline std::string fixed(double v, int digits = 2) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << v;
  return out.str();
}

}  // namespace book
