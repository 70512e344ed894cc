// Transposing an 8192 x 8192 float32 matrix (256 MiB each way): 1. naive, 2. tiled, against the
// generic strided copy of x.t() and a plain copy of the same bytes (the bandwidth ceiling).
#include <string>

#include "bench_util.h"
#include "strided/cuda/elementwise.h"
#include "strided/cuda/transpose.h"

namespace {

using namespace strided;
using namespace strided::cuda;
using namespace strided::cuda::bench;

constexpr int64_t kN = 8192;
const TensorOptions kGpu{DType::Float32, Device::cuda()};
constexpr double kBytes = 2.0 * kN * kN * 4;
// The shape each benchmark reports as its label, which tools/gpu/record.py puts in the text of the
// goal that compares two of them.
const std::string kShape = std::to_string(kN) + "\u00b2 float32";

void transpose_case(benchmark::State& state, TransposeKernel k) {
  guarded(state, [&] {
    Tensor in = empty({kN, kN}, kGpu), out = empty({kN, kN}, kGpu);
    run_timed(state, [&] { transposed_copy_out(out, in, k); }, kBytes);
  });
  state.SetLabel(kShape);
}
void BM_transpose_1_naive(benchmark::State& s) { transpose_case(s, TransposeKernel::Naive); }
void BM_transpose_2_tiled(benchmark::State& s) { transpose_case(s, TransposeKernel::Tiled); }

// copy_ of x.t() into a contiguous matrix: the offset-calculator kernel, coalesced on one side.
void BM_transpose_strided_copy(benchmark::State& state) {
  guarded(state, [&] {
    Tensor in = empty({kN, kN}, kGpu), out = empty({kN, kN}, kGpu);
    const Tensor in_t(in.storage(), {kN, kN}, {1, kN}, 0, DType::Float32);
    run_timed(state, [&] { copy_(out, in_t, ElementwiseKernel::Strided); }, kBytes);
  });
  state.SetLabel(kShape);
}
void BM_transpose_ceiling_copy(benchmark::State& state) {
  guarded(state, [&] {
    Tensor in = empty({kN, kN}, kGpu), out = empty({kN, kN}, kGpu);
    run_timed(state, [&] { copy_(out, in); }, kBytes);
  });
  state.SetLabel(kShape);
}

}  // namespace

STRIDED_GPU_BENCH(BM_transpose_ceiling_copy);
STRIDED_GPU_BENCH(BM_transpose_1_naive);
STRIDED_GPU_BENCH(BM_transpose_2_tiled);
STRIDED_GPU_BENCH(BM_transpose_strided_copy);
