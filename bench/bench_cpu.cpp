// The CPU benchmarks of the book (see CMakeLists.txt). Each experiment of the seed notebook,
// nikitaved's "PyTorch for Scientists!", is run at the seed's sizes on the library's own kernels;
// tools/bench/run runs the same experiments through PyTorch under the same names, shapes and
// thread count, so the two can be compared line by line.
//
// The thread count is the environment's STRIDED_BENCH_THREADS when set (tools/bench/run sets it),
// else the library's default, the hardware's concurrency (strided/engine/parallel.h); set_num_threads
// sets OpenBLAS's too. It is written into the JSON's context as "threads", and whether the caching
// allocator is on (STRIDED_CACHING_ALLOCATOR=0 turns it off, strided/tensor/allocator.h) as
// "caching_allocator".
//
// Every experiment that makes a fresh output calls its op before the timed loop (warm_up): with
// the cache on, the first call's miss (fresh pages) is not timed and the loop measures the reuse;
// with it off the calls change nothing, each call's output being new pages again. They go on for
// STRIDED_BENCH_WARMUP seconds (tools/bench/run sets it; unset, one call): on a virtual machine
// the first calls after a process has faulted in gigabytes of input can be several times slower
// than the rest, for PyTorch's process as for this one (tools/bench/run says what was measured).
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "strided/tensor/allocator.h"
#include "strided/engine/dispatch.h"
#include "strided/engine/matmul.h"
#include "strided/engine/ops.h"
#include "strided/engine/parallel.h"
#include "strided/engine/reduce.h"
#include "strided/strided.h"

using namespace strided;

namespace {

Tensor random(IntList sizes, uint64_t seed) {
  Generator gen(seed);
  return rand(sizes, gen);
}

double warmup_seconds = 0;  // STRIDED_BENCH_WARMUP, read in main

// The inputs of the experiment that runs, made at its first call and kept across the calls Google
// Benchmark makes of it (its search for an iteration count calls an experiment again), so that each
// run of strided_bench makes its inputs once, as tools/bench/run makes PyTorch's once per pair,
// rather than freeing and faulting in gigabytes again before every timed loop. One experiment's
// inputs are kept at a time: each Make is a lambda of its own type, so each experiment has its own
// slot, and the next experiment's empties the last.
std::vector<Tensor>* live_inputs = nullptr;

template <class Make>
const std::vector<Tensor>& kept_inputs(const Make& make) {
  static std::vector<Tensor> inputs;
  if (live_inputs != &inputs) {
    if (live_inputs != nullptr) live_inputs->clear();
    inputs = make();
    live_inputs = &inputs;
  }
  return inputs;
}

// Calls f once, then again until warmup_seconds have passed since the first call began.
template <class F>
void warm_up(const F& f) {
  const auto start = std::chrono::steady_clock::now();
  do {
    f();
  } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
           warmup_seconds);
}

void finish(benchmark::State& state, const std::string& shape, double bytes_per_iteration = 0) {
  state.SetLabel(shape);
  if (bytes_per_iteration > 0)
    state.SetBytesProcessed(static_cast<int64_t>(bytes_per_iteration) * state.iterations());
}

// ---- In[13]: t.add(3) on a 512³ float32 tensor, contiguous, permuted, stride 5 ------------------------
constexpr int64_t kCube = 512;

void in13_add_contiguous(benchmark::State& state) {
  const Tensor t = kept_inputs([] { return std::vector{random({kCube, kCube, kCube}, 1)}; })[0];
  warm_up([&] { benchmark::DoNotOptimize(add(t, Scalar(int64_t{3}))); });
  for (auto _ : state) benchmark::DoNotOptimize(add(t, Scalar(int64_t{3})));
  finish(state, "512x512x512", 2.0 * t.nbytes());
}
void in13_add_permuted(benchmark::State& state) {
  const Tensor t = kept_inputs([] {
    return std::vector{random({kCube, kCube, kCube}, 1).permute({2, 1, 0})};
  })[0];
  warm_up([&] { benchmark::DoNotOptimize(add(t, Scalar(int64_t{3}))); });
  for (auto _ : state) benchmark::DoNotOptimize(add(t, Scalar(int64_t{3})));
  finish(state, "512x512x512 permute(2,1,0)", 2.0 * t.nbytes());
}
void in13_add_stride5(benchmark::State& state) {
  const Tensor t = kept_inputs([] {
    return std::vector{random({kCube, kCube, kCube, 5}, 1).select(3, 0)};
  })[0];
  warm_up([&] { benchmark::DoNotOptimize(add(t, Scalar(int64_t{3}))); });
  for (auto _ : state) benchmark::DoNotOptimize(add(t, Scalar(int64_t{3})));
  finish(state, "512x512x512 of 512x512x512x5[..., 0]");
}

// Not a seed cell: the same add written in place (t.add_(3)), which allocates nothing. Beside
// in13_add_contiguous it separates the cost of the arithmetic from that of a fresh 512 MiB output
// (its pages are faulted in on first touch, every call).
void extra_add_inplace_contiguous(benchmark::State& state) {
  Tensor t = random({kCube, kCube, kCube}, 1);
  for (auto _ : state) {
    add_(t, Scalar(int64_t{3}));
    benchmark::ClobberMemory();
  }
  finish(state, "512x512x512", 2.0 * t.nbytes());
}

// ---- In[15]: x.max(-1) and x.max(-2) on 1024² float32 ------------------------------------------------
void in15_max_last(benchmark::State& state) {
  Tensor x = random({1024, 1024}, 2);
  for (auto _ : state) benchmark::DoNotOptimize(max(x, -1).values);
  finish(state, "1024x1024 dim -1", static_cast<double>(x.nbytes()));
}
void in15_max_first(benchmark::State& state) {
  Tensor x = random({1024, 1024}, 2);
  for (auto _ : state) benchmark::DoNotOptimize(max(x, -2).values);
  finish(state, "1024x1024 dim -2", static_cast<double>(x.nbytes()));
}

// ---- reductions: each loop of NOTE: [Reduction paths] and the reductions over all elements ----------
// Not seed cells: sum, max, argmax and mean on 1024² float32 (a 4 MiB matrix), along each dim and
// over everything, on the layouts that pick each loop: contiguous rows (inner), whole rows combined
// (outer), a stride-2 slice (strided), a permuted 3-d tensor, and a long single output split over
// threads (2^24 elements).
enum class InputLayout { Contiguous, Transposed, Sliced, Permuted3d, Long };

Tensor reduce_input(InputLayout layout) {
  switch (layout) {
    case InputLayout::Contiguous:
      return random({1024, 1024}, 9);
    case InputLayout::Transposed:
      return random({1024, 1024}, 9).t();
    case InputLayout::Sliced:
      return random({1024, 2048}, 9).slice(1, 0, std::nullopt, 2);
    case InputLayout::Permuted3d:
      return random({128, 128, 64}, 9).permute({2, 1, 0});
    case InputLayout::Long:
      break;
  }
  return random({int64_t{1} << 24}, 9);
}

template <class F>
void reduce_bench(benchmark::State& state, InputLayout layout, const std::string& label,
                  const F& f) {
  const Tensor x = reduce_input(layout);
  for (auto _ : state) benchmark::DoNotOptimize(f(x));
  finish(state, label, static_cast<double>(x.numel() * x.element_size()));
}

#define STRIDED_REDUCE_BENCH(fn, layout, label, expr)                                      \
  void fn(benchmark::State& state) {                                                       \
    reduce_bench(state, InputLayout::layout, label, [](const Tensor& x) { return expr; }); \
  }
STRIDED_REDUCE_BENCH(reduce_sum_last, Contiguous, "1024x1024 dim -1", sum(x, -1))
STRIDED_REDUCE_BENCH(reduce_sum_first, Contiguous, "1024x1024 dim -2", sum(x, -2))
STRIDED_REDUCE_BENCH(reduce_sum_sliced, Sliced, "1024x2048[:, ::2] dim 0", sum(x, 0))
STRIDED_REDUCE_BENCH(reduce_sum_permuted, Permuted3d, "128x128x64 permute(2,1,0) dim 1", sum(x, 1))
STRIDED_REDUCE_BENCH(reduce_sum_all, Contiguous, "1024x1024", sum(x))
STRIDED_REDUCE_BENCH(reduce_sum_all_sliced, Sliced, "1024x2048[:, ::2]", sum(x))
STRIDED_REDUCE_BENCH(reduce_sum_all_long, Long, "2^24", sum(x))
STRIDED_REDUCE_BENCH(reduce_mean_last, Contiguous, "1024x1024 dim -1", mean(x, -1))
STRIDED_REDUCE_BENCH(reduce_max_sliced, Sliced, "1024x2048[:, ::2] dim 0", max(x, 0).values)
STRIDED_REDUCE_BENCH(reduce_max_all, Contiguous, "1024x1024", max(x))
STRIDED_REDUCE_BENCH(reduce_max_all_long, Long, "2^24", max(x))
STRIDED_REDUCE_BENCH(reduce_argmax_last, Contiguous, "1024x1024 dim -1", argmax(x, -1))
STRIDED_REDUCE_BENCH(reduce_argmax_first, Contiguous, "1024x1024 dim -2", argmax(x, -2))
STRIDED_REDUCE_BENCH(reduce_argmax_transposed, Transposed, "1024x1024 .t() dim -1", argmax(x, -1))
STRIDED_REDUCE_BENCH(reduce_argmax_all, Contiguous, "1024x1024", argmax(x))
STRIDED_REDUCE_BENCH(reduce_argmax_all_transposed, Transposed, "1024x1024 .t()", argmax(x))
#undef STRIDED_REDUCE_BENCH

// ---- In[16]: x * y on 512³ float32 with either operand transposed (0, 2) -----------------------------
template <bool TransposeX, bool TransposeY>
void in16_mul(benchmark::State& state) {
  const std::vector<Tensor>& xy = kept_inputs([] {
    Tensor x = random({kCube, kCube, kCube}, 3), y = random({kCube, kCube, kCube}, 4);
    return std::vector{TransposeX ? x.transpose(0, 2) : x, TransposeY ? y.transpose(0, 2) : y};
  });
  const Tensor &x = xy[0], &y = xy[1];
  warm_up([&] { benchmark::DoNotOptimize(mul(x, y)); });
  for (auto _ : state) benchmark::DoNotOptimize(mul(x, y));
  finish(state, "512x512x512", 3.0 * x.nbytes());
}

// ---- In[19]: a @ b on 2048² float32, four layouts, through torch.matmul's rules -------------------------
constexpr int64_t kMat = 2048;

template <bool TransposeA, bool TransposeB>
void in19_matmul(benchmark::State& state) {
  const std::vector<Tensor>& ab = kept_inputs([] {
    Tensor a = random({kMat, kMat}, 5), b = random({kMat, kMat}, 6);
    return std::vector{TransposeA ? a.mT() : a, TransposeB ? b.mT() : b};
  });
  const Tensor &a = ab[0], &b = ab[1];
  warm_up([&] { benchmark::DoNotOptimize(matmul(a, b)); });
  for (auto _ : state) benchmark::DoNotOptimize(matmul(a, b));
  finish(state, "2048x2048");
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * kMat * kMat * kMat,
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

// The same four products as one direct cblas_sgemm each into a preallocated output: the floor the
// library's BLAS path is measured against (its goal: within 1.05×).
template <bool TransposeA, bool TransposeB>
void cblas_direct(benchmark::State& state) {
  Tensor a = random({kMat, kMat}, 5), b = random({kMat, kMat}, 6);
  Tensor c = empty({kMat, kMat});
  const int n = static_cast<int>(kMat);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, TransposeA ? CblasTrans : CblasNoTrans,
                TransposeB ? CblasTrans : CblasNoTrans, n, n, n, 1.0f, a.data<float>(), n,
                b.data<float>(), n, 0.0f, c.data<float>(), n);
    benchmark::ClobberMemory();
  }
  finish(state, "2048x2048");
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * kMat * kMat * kMat,
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

// ---- chapter 7's kernels at 1024² -----------------------------------------------------------------------
template <MatmulKernel K>
void kernel_1024(benchmark::State& state) {
  Tensor a = random({1024, 1024}, 7), b = random({1024, 1024}, 8);
  warm_up([&] { benchmark::DoNotOptimize(matmul_2d(a, b, K)); });
  for (auto _ : state) benchmark::DoNotOptimize(matmul_2d(a, b, K));
  finish(state, "1024x1024");
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * 1024 * 1024 * 1024,
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

// ---- STREAM copy and triad (McCalpin's STREAM kernels), float32 --------------------------------------
// 2^26 floats (256 MiB) per array: far beyond any last-level cache, as STREAM's rules ask (each
// array at least four times the caches). Bytes counted as STREAM counts them: copy moves 2 arrays,
// triad 3, ignoring the write-allocate read. Each is the library's op, as PyTorch's side is
// torch's: c.copy_(b), and torch.add(b, c, alpha=3, out=a) (a plan built per call, as there).
constexpr int64_t kStream = int64_t{1} << 26;

void stream_copy(benchmark::State& state) {
  const Tensor b = full({kStream}, 1.0);
  Tensor c = zeros({kStream});
  for (auto _ : state) {
    c.copy_(b);
    benchmark::ClobberMemory();
  }
  finish(state, "2^26 float32", 2.0 * 4 * kStream);
}
void stream_triad(benchmark::State& state) {
  const Tensor a = zeros({kStream}), b = full({kStream}, 1.0), c = full({kStream}, 2.0);
  for (auto _ : state) {
    run_binary(BinaryOp::Add, binary_plan(BinaryOp::Add, a, b, c), Scalar(3.0));
    benchmark::ClobberMemory();
  }
  finish(state, "2^26 float32", 3.0 * 4 * kStream);
}

// ---- the copies that walk a restrided plan: flip, index and index_put_ --------------------------------
// Not seed cells: 1024x1024 float32 (4 MiB) flipped along its rows, its columns, and both, and
// transposed first; index() gathering every other row and every other column with a list, and
// index_put_ writing 512 rows back, with and without accumulate.
constexpr int64_t kSide = 1024;

std::vector<int64_t> every_other(int64_t n) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < n; i += 2) v.push_back(i);
  return v;
}

template <class F>
void copy_bench(benchmark::State& state, bool transposed, const std::string& label, const F& f) {
  Tensor x = random({kSide, kSide}, 10);
  if (transposed) x = x.t();
  warm_up([&] { benchmark::DoNotOptimize(f(x)); });
  for (auto _ : state) benchmark::DoNotOptimize(f(x));
  finish(state, label, 2.0 * static_cast<double>(x.nbytes()));
}

void flip_rows(benchmark::State& state) {
  copy_bench(state, false, "1024x1024 flip(0)", [](const Tensor& x) { return x.flip({0}); });
}
void flip_cols(benchmark::State& state) {
  copy_bench(state, false, "1024x1024 flip(1)", [](const Tensor& x) { return x.flip({1}); });
}
void flip_both(benchmark::State& state) {
  copy_bench(state, false, "1024x1024 flip(0, 1)", [](const Tensor& x) { return x.flip({0, 1}); });
}
void flip_transposed(benchmark::State& state) {
  copy_bench(state, true, "1024x1024 .t() flip(1)", [](const Tensor& x) { return x.flip({1}); });
}
void index_rows(benchmark::State& state) {
  const std::vector<int64_t> rows = every_other(kSide);
  copy_bench(state, false, "1024x1024 [0::2 as a list]",
             [&](const Tensor& x) { return x.index({rows}); });
}
void index_cols(benchmark::State& state) {
  const std::vector<int64_t> cols = every_other(kSide);
  copy_bench(state, false, "1024x1024 [:, 0::2 as a list]",
             [&](const Tensor& x) { return x.index({indexing::Slice(), cols}); });
}
template <bool Accumulate>
void index_put_rows(benchmark::State& state) {
  Tensor x = random({kSide, kSide}, 11);
  const Tensor values = random({kSide / 2, kSide}, 12);
  const std::vector<std::vector<int64_t>> rows = {every_other(kSide)};
  for (auto _ : state) {
    x.index_put_(rows, values, Accumulate);
    benchmark::ClobberMemory();
  }
  finish(state, Accumulate ? "1024x1024 [0::2 as a list] += 512x1024"
                           : "1024x1024 [0::2 as a list] = 512x1024",
         2.0 * static_cast<double>(values.nbytes()));
}

}  // namespace

#define STRIDED_BENCH(fn, name) \
  BENCHMARK(fn)->Name(name)->Unit(benchmark::kMillisecond)->UseRealTime()

STRIDED_BENCH(stream_copy, "stream_copy");
STRIDED_BENCH(stream_triad, "stream_triad");
STRIDED_BENCH(in13_add_contiguous, "in13_add_contiguous");
STRIDED_BENCH(in13_add_permuted, "in13_add_permuted");
STRIDED_BENCH(in13_add_stride5, "in13_add_stride5");
STRIDED_BENCH(extra_add_inplace_contiguous, "extra_add_inplace_contiguous");
STRIDED_BENCH(in15_max_last, "in15_max_dim_-1");
STRIDED_BENCH(in15_max_first, "in15_max_dim_-2");
STRIDED_BENCH(reduce_sum_last, "reduce_sum_last");
STRIDED_BENCH(reduce_sum_first, "reduce_sum_first");
STRIDED_BENCH(reduce_sum_sliced, "reduce_sum_sliced");
STRIDED_BENCH(reduce_sum_permuted, "reduce_sum_permuted");
STRIDED_BENCH(reduce_sum_all, "reduce_sum_all");
STRIDED_BENCH(reduce_sum_all_sliced, "reduce_sum_all_sliced");
STRIDED_BENCH(reduce_sum_all_long, "reduce_sum_all_long");
STRIDED_BENCH(reduce_mean_last, "reduce_mean_last");
STRIDED_BENCH(reduce_max_sliced, "reduce_max_sliced");
STRIDED_BENCH(reduce_max_all, "reduce_max_all");
STRIDED_BENCH(reduce_max_all_long, "reduce_max_all_long");
STRIDED_BENCH(reduce_argmax_last, "reduce_argmax_last");
STRIDED_BENCH(reduce_argmax_first, "reduce_argmax_first");
STRIDED_BENCH(reduce_argmax_transposed, "reduce_argmax_transposed");
STRIDED_BENCH(reduce_argmax_all, "reduce_argmax_all");
STRIDED_BENCH(reduce_argmax_all_transposed, "reduce_argmax_all_transposed");
STRIDED_BENCH((in16_mul<false, false>), "in16_mul_x_y");
STRIDED_BENCH((in16_mul<false, true>), "in16_mul_x_yT");
STRIDED_BENCH((in16_mul<true, false>), "in16_mul_xT_y");
STRIDED_BENCH((in16_mul<true, true>), "in16_mul_xT_yT");
STRIDED_BENCH((in19_matmul<false, false>), "in19_matmul_a_b");
STRIDED_BENCH((in19_matmul<false, true>), "in19_matmul_a_bT");
STRIDED_BENCH((in19_matmul<true, false>), "in19_matmul_aT_b");
STRIDED_BENCH((in19_matmul<true, true>), "in19_matmul_aT_bT");
STRIDED_BENCH((cblas_direct<false, false>), "cblas_direct_a_b");
STRIDED_BENCH((cblas_direct<false, true>), "cblas_direct_a_bT");
STRIDED_BENCH((cblas_direct<true, false>), "cblas_direct_aT_b");
STRIDED_BENCH((cblas_direct<true, true>), "cblas_direct_aT_bT");
STRIDED_BENCH(flip_rows, "flip_rows");
STRIDED_BENCH(flip_cols, "flip_cols");
STRIDED_BENCH(flip_both, "flip_both");
STRIDED_BENCH(flip_transposed, "flip_transposed");
STRIDED_BENCH(index_rows, "index_rows");
STRIDED_BENCH(index_cols, "index_cols");
STRIDED_BENCH(index_put_rows<false>, "index_put_rows");
STRIDED_BENCH(index_put_rows<true>, "index_put_rows_accumulate");
STRIDED_BENCH(kernel_1024<MatmulKernel::Naive>, "kernel_naive_1024");
STRIDED_BENCH(kernel_1024<MatmulKernel::NaiveTransposed>, "kernel_naive_transposed_1024");
STRIDED_BENCH(kernel_1024<MatmulKernel::Blocked>, "kernel_blocked_1024");
STRIDED_BENCH(kernel_1024<MatmulKernel::Blas>, "kernel_blas_1024");

int main(int argc, char** argv) {
  if (const char* t = std::getenv("STRIDED_BENCH_THREADS")) set_num_threads(std::atoi(t));
  if (const char* w = std::getenv("STRIDED_BENCH_WARMUP")) warmup_seconds = std::atof(w);
  benchmark::AddCustomContext("threads", std::to_string(get_num_threads()));
  benchmark::AddCustomContext("caching_allocator", caching_allocator_enabled() ? "on" : "off");
  benchmark::AddCustomContext("cpu_capability", cpu_capability_name());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
