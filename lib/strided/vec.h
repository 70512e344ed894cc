// Fixed-width vectors for the CPU inner loops, in the manner of ATen's at::vec::Vectorized
// (aten/src/ATen/cpu/vec): a loop body written once for T runs on Vec<T> and on T alike.
//
// Why explicit vectors: the library builds at -O2, where GCC 12 only auto-vectorises loops whose
// trip count it can prove to be a multiple of the vector width ("very-cheap" cost model), so a
// plain `for (i < n) out[i] = a[i] + b[i]` stays scalar. GCC's and Clang's vector extensions
// compile to packed instructions at any optimisation level; 16 bytes is the x86-64 baseline
// (SSE2), so no -march flag is needed and no ABI warning arises.
//
// Internal to the engine (ops.cpp, reduce.cpp, matmul.cpp); not part of the public interface.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace strided::vec {

inline constexpr int64_t kVecBytes = 16;

template <class T>
struct VecOf {
  typedef T type __attribute__((vector_size(kVecBytes)));
};
template <class T>
using Vec = typename VecOf<T>::type;

// Lanes of one vector of T: 4 float or int32, 2 double or int64.
template <class T>
inline constexpr int64_t kLanes = kVecBytes / static_cast<int64_t>(sizeof(T));

// Unaligned loads and stores (memcpy compiles to one movups); p is a byte address.
template <class T>
inline Vec<T> load(const char* p) {
  Vec<T> v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T>
inline void store(char* p, Vec<T> v) {
  std::memcpy(p, &v, sizeof v);
}
template <class T>
inline Vec<T> splat(T x) {
  return Vec<T>{} + x;
}

// Scalar loads and stores through byte addresses, for the tails and the strided loops.
template <class T>
inline T load1(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T>
inline void store1(char* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// Signed overflow is undefined in C++ but wraps in PyTorch (two's complement), so integer
// arithmetic goes through the unsigned type of the same width.
template <class T>
using Unsigned = std::make_unsigned_t<T>;

}  // namespace strided::vec
