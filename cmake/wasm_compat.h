// Included before every source of the wasm build (cmake/wasm.cmake). The libc++ of Debian's
// emscripten 3.1.6 predates std::bit_cast (C++20, <bit>); clang's builtin is the same operation.
#pragma once
#include <bit>
#include <version>

#ifndef __cpp_lib_bit_cast
namespace std {
template <class To, class From>
constexpr To bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}
}  // namespace std
#endif
