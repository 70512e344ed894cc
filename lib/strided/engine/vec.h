// Fixed-width vectors for the CPU inner loops, in the manner of ATen's at::vec::Vectorized
// (aten/src/ATen/cpu/vec): a loop body written once for T runs on Vec<T> and on T alike.
//
// Why explicit vectors: the library builds at -O2, where GCC 12 only auto-vectorises loops whose
// trip count it can prove to be a multiple of the vector width ("very-cheap" cost model), so a
// plain `for (i < n) out[i] = a[i] + b[i]` stays scalar. GCC's and Clang's vector extensions
// compile to packed instructions at any optimisation level.
//
// The width is the CPU capability's (dispatch.h): 16 bytes, the x86-64 baseline (SSE2), unless the
// including file is one of the kernel sources compiled for AVX2 (32) or AVX-512 (64), which define
// STRIDED_VEC_BYTES and STRIDED_CPU_NS first (cpu_kernels_body.h). As ATen's Vectorized lives in
// `inline namespace CPU_CAPABILITY`, everything here lives in an inline namespace named for the
// capability: load<float> of 16 and of 32 bytes are then different functions to the linker, which
// would otherwise keep one of them for every caller.
//
// Internal to the engine (the kernel sources); not part of the public interface.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#ifndef STRIDED_VEC_BYTES
#define STRIDED_VEC_BYTES 16
#endif
#ifndef STRIDED_CPU_NS
#define STRIDED_CPU_NS base
#endif

namespace strided::vec {
inline namespace STRIDED_CPU_NS {

inline constexpr int64_t kVecBytes = STRIDED_VEC_BYTES;

template <class T>
struct VecOf {
  typedef T type __attribute__((vector_size(kVecBytes)));
};
template <class T>
using Vec = typename VecOf<T>::type;

// Lanes of one vector of T: 4 float or int32 at 16 bytes, 16 at 64.
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
// A non-temporal store of one vector (streaming.h): the line is written without being read
// first. p must be aligned to the vector's width. Without x86 (the WebAssembly build) it is an
// ordinary store. stream_fence orders the streaming stores before any later store, as ordinary
// stores are ordered (sfence), so another thread that sees the later store sees them too.
template <class T>
inline void store_stream(char* p, Vec<T> v) {
#if defined(__x86_64__)
  if constexpr (sizeof(Vec<T>) == 64) {
    __m512i w;
    std::memcpy(&w, &v, sizeof w);
    _mm512_stream_si512(reinterpret_cast<__m512i*>(p), w);
  } else if constexpr (sizeof(Vec<T>) == 32) {
    __m256i w;
    std::memcpy(&w, &v, sizeof w);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), w);
  } else {
    __m128i w;
    std::memcpy(&w, &v, sizeof w);
    _mm_stream_si128(reinterpret_cast<__m128i*>(p), w);
  }
#else
  std::memcpy(p, &v, sizeof v);
#endif
}
inline void stream_fence() {
#if defined(__x86_64__)
  _mm_sfence();
#endif
}

// How far ahead of its loads a streaming loop asks for its inputs (prefetch_ahead): one 4 KiB page.
// With streaming stores the hardware prefetchers keep too few lines in flight for one core to reach
// the memory's bandwidth. On the 2-core machine the book is built on, x.add(3) on a 512³ float32
// tensor into a reused output (bench/, median of 3) took 52.2 ms without the prefetch and 46.0 ms
// with it on one core, 27.1 and 23.3 ms on two; glibc's memcpy of the same bytes took 48.5 ms on
// one core. In a test loop of the same add, prefetching 1 or 4 KiB ahead into the L1 cache
// instead gained little (52.1 and 51.5 ms against 52.6), and past the caches it lost (77.6 ms).
inline constexpr int64_t kPrefetchBytes = 4096;

// Asks for the bytes [p + kPrefetchBytes, p + kPrefetchBytes + n) to be brought into the L2
// cache, one request per 64-byte line. A prefetch never faults, so the address may lie past the
// end of p's array; it is formed as an integer, never as a pointer out of bounds.
inline void prefetch_ahead(const char* p, int64_t n) {
  const uintptr_t from = reinterpret_cast<uintptr_t>(p) + kPrefetchBytes;
  for (int64_t k = 0; k < n; k += 64)
    __builtin_prefetch(reinterpret_cast<const void*>(from + static_cast<uintptr_t>(k)), 0, 2);
}

// Every lane x. Written lane by lane (compilers make it one broadcast), not as Vec<T>{} + x: that
// sum makes a -0.0 into +0.0 (0.0 + -0.0 is +0.0 in IEEE 754), which the WebAssembly build did
// for -0.0 * y with a 0-d -0.0 broadcast over y.
template <class T>
inline Vec<T> splat(T x) {
  Vec<T> v;
  for (int64_t l = 0; l < kLanes<T>; ++l) v[l] = x;
  return v;
}

// std::bit_cast for vectors: defined here, after the kernel source's target pragma, so that a wide
// vector is never returned by a function compiled for the baseline (whose ABI returns it in memory).
template <class To, class From>
inline To bit_cast(From v) {
  static_assert(sizeof(To) == sizeof(From));
  To r;
  std::memcpy(&r, &v, sizeof r);
  return r;
}

// One vector of T from a strided input: the lanes at p, p + s, p + 2s, ... (s in bytes, positive,
// with (lanes - 1) * s within int32). AVX2 and AVX-512 load 4- and 8-byte lanes in one gather
// instruction (the masked form with every lane on: GCC 12 warns that the plain one's undefined
// source is used uninitialised); other widths and types load them one by one. Either way each
// lane is the element a scalar load of it gives, so every capability computes the same bits.
template <class T>
inline Vec<T> gather(const char* p, int64_t s) {
#if defined(__x86_64__) && STRIDED_VEC_BYTES == 64
  const int step = static_cast<int>(s);
  if constexpr (sizeof(T) == 4) {
    const __m512i at = _mm512_mullo_epi32(
        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), _mm512_set1_epi32(step));
    return bit_cast<Vec<T>>(_mm512_mask_i32gather_epi32(_mm512_setzero_si512(), 0xFFFF, at, p, 1));
  } else if constexpr (sizeof(T) == 8) {
    const __m256i at =
        _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(step));
    return bit_cast<Vec<T>>(_mm512_mask_i32gather_epi64(_mm512_setzero_si512(), 0xFF, at, p, 1));
  }
#elif defined(__x86_64__) && STRIDED_VEC_BYTES == 32
  const int step = static_cast<int>(s);
  if constexpr (sizeof(T) == 4) {
    const __m256i at =
        _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(step));
    return bit_cast<Vec<T>>(_mm256_mask_i32gather_epi32(
        _mm256_setzero_si256(), reinterpret_cast<const int*>(p), at, _mm256_set1_epi32(-1), 1));
  } else if constexpr (sizeof(T) == 8) {
    const __m128i at = _mm_mullo_epi32(_mm_setr_epi32(0, 1, 2, 3), _mm_set1_epi32(step));
    return bit_cast<Vec<T>>(_mm256_mask_i32gather_epi64(
        _mm256_setzero_si256(), reinterpret_cast<const long long*>(p), at, _mm256_set1_epi64x(-1), 1));
  }
#endif
  Vec<T> v;
  for (int64_t l = 0; l < kLanes<T>; ++l) {
    T x;
    std::memcpy(&x, p + l * s, sizeof x);
    v[l] = x;
  }
  return v;
}

// Whether any lane of a comparison's result (or any vector) has a bit set.
template <class M>
inline bool any_lane(M m) {
  uint64_t words[sizeof(M) / 8];
  std::memcpy(words, &m, sizeof words);
  uint64_t any = 0;
  for (uint64_t w : words) any |= w;
  return any != 0;
}

// The sum of a vector's lanes, halves added to halves (log2 of the lane count additions, as
// ATen's vec_reduce_all), for a reduction's last step.
template <class T, int64_t Bytes>
struct VecBytes {
  typedef T type __attribute__((vector_size(Bytes)));
};
template <class T, int64_t Bytes = kVecBytes>
inline T sum_lanes(typename VecBytes<T, Bytes>::type v) {
  if constexpr (Bytes == 2 * static_cast<int64_t>(sizeof(T))) {
    return v[0] + v[1];
  } else {
    using Half = typename VecBytes<T, Bytes / 2>::type;
    Half lo, hi;
    std::memcpy(&lo, &v, sizeof lo);
    std::memcpy(&hi, reinterpret_cast<const char*>(&v) + sizeof lo, sizeof hi);
    return sum_lanes<T, Bytes / 2>(lo + hi);
  }
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

}  // namespace STRIDED_CPU_NS
}  // namespace strided::vec
