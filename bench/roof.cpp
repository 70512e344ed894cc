// The machine's bandwidth roof: the best of several ways to copy 2^26 float32 (256 MiB) into
// another array, each split over the engine's threads as its kernels are (parallel_for, grain
// kGrainSize). tools/bench/run takes the fastest as the roof the in-place add is measured against.
//
//   roof_copy_loop      a plain loop (the compiler vectorises it)
//   roof_copy_memcpy    glibc's memcpy per chunk (which itself switches to non-temporal stores
//                       for copies larger than a share of the last-level cache)
//   roof_copy_nt        non-temporal stores (_mm512_stream_ps where the CPU has AVX-512,
//                       _mm256_stream_ps with AVX, _mm_stream_ps otherwise): the destination's
//                       lines are written without first being read into the cache, saving the
//                       write-allocate read that an ordinary store pays
//   roof_read           a sum over one array in vector registers, as wide as the CPU allows:
//                       reading alone, no store. A scalar sum is no read roof: its adds wait on
//                       one another, and on the 2-core Xeon the book is built on it read
//                       7.6-9.6 GB/s on one thread where the vector sum reads 16
//
// Bytes are counted as STREAM counts them: a copy moves 2 arrays, the read 1.
#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "strided/engine/parallel.h"

using namespace strided;

namespace {

constexpr int64_t kRoof = int64_t{1} << 26;

// Arrays allocated once and first touched in the partition the kernels use.
struct Arrays {
  float* a;
  float* c;
  Arrays() {
    a = static_cast<float*>(std::aligned_alloc(64, kRoof * 4));
    c = static_cast<float*>(std::aligned_alloc(64, kRoof * 4));
    parallel_for(0, kRoof, kGrainSize, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        a[i] = 1.0f;
        c[i] = 0.0f;
      }
    });
  }
  ~Arrays() {
    std::free(a);
    std::free(c);
  }
};

// Chunks start at multiples of 16 floats (64 bytes) so every stream store is aligned.
template <class F>
void over_chunks(const F& f) {
  parallel_for(0, kRoof / 16, kGrainSize / 16,
               [&](int64_t b, int64_t e) { f(b * 16, e * 16); });
}

__attribute__((target("avx512f"))) void copy_nt_avx512(const float* a, float* c, int64_t b,
                                                       int64_t e) {
  for (int64_t i = b; i < e; i += 16) _mm512_stream_ps(c + i, _mm512_load_ps(a + i));
}
__attribute__((target("avx"))) void copy_nt_avx(const float* a, float* c, int64_t b, int64_t e) {
  for (int64_t i = b; i < e; i += 8) _mm256_stream_ps(c + i, _mm256_load_ps(a + i));
}
void copy_nt_sse(const float* a, float* c, int64_t b, int64_t e) {
  for (int64_t i = b; i < e; i += 4) _mm_stream_ps(c + i, _mm_load_ps(a + i));
}

void finish(benchmark::State& state, double arrays, const char* label) {
  state.SetLabel(label);
  state.SetBytesProcessed(static_cast<int64_t>(arrays * 4 * kRoof) * state.iterations());
}

void roof_copy_loop(benchmark::State& state) {
  Arrays x;
  for (auto _ : state) {
    over_chunks([&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) x.c[i] = x.a[i];
    });
    benchmark::ClobberMemory();
  }
  finish(state, 2, "2^26 float32, loop");
}

void roof_copy_memcpy(benchmark::State& state) {
  Arrays x;
  for (auto _ : state) {
    over_chunks([&](int64_t b, int64_t e) { std::memcpy(x.c + b, x.a + b, (e - b) * 4); });
    benchmark::ClobberMemory();
  }
  finish(state, 2, "2^26 float32, memcpy");
}

void roof_copy_nt(benchmark::State& state) {
  Arrays x;
  auto* copy = __builtin_cpu_supports("avx512f") ? copy_nt_avx512
               : __builtin_cpu_supports("avx")   ? copy_nt_avx
                                                 : copy_nt_sse;
  for (auto _ : state) {
    over_chunks([&](int64_t b, int64_t e) { copy(x.a, x.c, b, e); });
    _mm_sfence();  // stream stores are weakly ordered: done before the next iteration reads
    benchmark::ClobberMemory();
  }
  finish(state, 2,
         __builtin_cpu_supports("avx512f") ? "2^26 float32, _mm512_stream_ps"
         : __builtin_cpu_supports("avx")   ? "2^26 float32, _mm256_stream_ps"
                                           : "2^26 float32, _mm_stream_ps");
}

// Each chunk is read as two streams, its two halves side by side, with two accumulators each:
// four adds in flight, so the loads set the pace, and two streams, which on the Xeon read 16 GB/s
// on one thread where one stream read 13.4-16.5. A chunk's length is a multiple of 64 floats, so
// each half is a whole number of steps but for one last step of 64 when the count of steps is odd.
// W floats a vector: written once with the compiler's vector types, and inlined into a function
// compiled for each instruction set, as the engine's loops are (vec.h).
template <int W>
struct Floats {  // a vector_size type of W floats (a typedef's attribute cannot depend on W)
  typedef float type __attribute__((vector_size(W * 4)));
};
template <int W>
__attribute__((always_inline)) inline float sum_two_streams(const float* a, int64_t b, int64_t e) {
  using V = typename Floats<W>::type;
  const int64_t h = (e - b) / 128 * 64;
  const float* p = a + b;
  const float* q = a + b + h;
  V s0{}, s1{}, s2{}, s3{}, v;
  for (int64_t i = 0; i < h; i += 2 * W) {
    __builtin_memcpy(&v, p + i, sizeof v), s0 += v;
    __builtin_memcpy(&v, p + i + W, sizeof v), s1 += v;
    __builtin_memcpy(&v, q + i, sizeof v), s2 += v;
    __builtin_memcpy(&v, q + i + W, sizeof v), s3 += v;
  }
  for (int64_t i = b + 2 * h; i < e; i += W) __builtin_memcpy(&v, a + i, sizeof v), s0 += v;
  const V s = (s0 + s1) + (s2 + s3);
  float r = 0;
  for (int l = 0; l < W; ++l) r += s[l];
  return r;
}
__attribute__((target("avx512f"))) float sum_avx512(const float* a, int64_t b, int64_t e) {
  return sum_two_streams<16>(a, b, e);
}
__attribute__((target("avx"))) float sum_avx(const float* a, int64_t b, int64_t e) {
  return sum_two_streams<8>(a, b, e);
}
float sum_sse(const float* a, int64_t b, int64_t e) { return sum_two_streams<4>(a, b, e); }

void roof_read(benchmark::State& state) {
  Arrays x;
  // Chunks are whole multiples of 64 floats (the widest step) and start on one.
  constexpr int64_t kStep = 64;
  static_assert(kRoof % kStep == 0);
  auto* sum = __builtin_cpu_supports("avx512f") ? sum_avx512
              : __builtin_cpu_supports("avx")   ? sum_avx
                                                : sum_sse;
  for (auto _ : state) {
    std::vector<float> partial(64, 0.0f);
    int64_t slot = 0;
    parallel_for(0, kRoof / kStep, kGrainSize / kStep, [&](int64_t b, int64_t e) {
      const float s = sum(x.a, b * kStep, e * kStep);
      partial[__atomic_fetch_add(&slot, 1, __ATOMIC_RELAXED) % 64] += s;
    });
    benchmark::DoNotOptimize(partial.data());
  }
  finish(state, 1,
         __builtin_cpu_supports("avx512f") ? "2^26 float32, sum in 64-byte vectors"
         : __builtin_cpu_supports("avx")   ? "2^26 float32, sum in 32-byte vectors"
                                           : "2^26 float32, sum in 16-byte vectors");
}

}  // namespace

BENCHMARK(roof_copy_loop)->Name("roof_copy_loop")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(roof_copy_memcpy)->Name("roof_copy_memcpy")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(roof_copy_nt)->Name("roof_copy_nt")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(roof_read)->Name("roof_read")->Unit(benchmark::kMillisecond)->UseRealTime();
