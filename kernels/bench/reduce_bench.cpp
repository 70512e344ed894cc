// Reductions along the last and the first dim (seed In[15]: x.max(-1) and x.max(-2) on 1024x1024,
// and the same at 8192x8192 where DRAM bandwidth decides), for each thread mapping of reduce.h.
// Bytes: the input read once plus the output written once.
#include "bench_util.h"
#include "strided/cuda/reduce.h"

namespace {

using namespace strided;
using namespace strided::cuda;
using namespace strided::cuda::bench;

const TensorOptions kGpu{DType::Float32, Device::cuda()};

void amax_case(benchmark::State& state, ReduceKernel k) {
  guarded(state, [&] {
    const int64_t n = state.range(0), dim = state.range(1);
    Tensor x = empty({n, n}, kGpu), out = empty({n}, kGpu);
    run_timed(state, [&] { amax_out(out, x, dim, k); }, (double(n) * n + n) * 4);
  });
}
void BM_amax_1_thread_per_output(benchmark::State& s) { amax_case(s, ReduceKernel::ThreadPerOutput); }
void BM_amax_2_block_per_row(benchmark::State& s) { amax_case(s, ReduceKernel::BlockPerRow); }
void BM_amax_3_column_split(benchmark::State& s) { amax_case(s, ReduceKernel::ColumnSplit); }
void BM_amax_auto(benchmark::State& s) { amax_case(s, ReduceKernel::Auto); }

// Args: (n, dim) with dim 1 = the seed's max(-1), dim 0 = max(-2).
void shapes(benchmark::internal::Benchmark* b) {
  for (const int64_t n : {1024, 8192})
    for (const int64_t dim : {1, 0}) b->Args({n, dim});
  b->ArgNames({"n", "dim"});
}

}  // namespace

STRIDED_GPU_BENCH(BM_amax_1_thread_per_output)->Apply(shapes);
STRIDED_GPU_BENCH(BM_amax_2_block_per_row)->Apply(shapes);
STRIDED_GPU_BENCH(BM_amax_3_column_split)->Apply(shapes);
STRIDED_GPU_BENCH(BM_amax_auto)->Apply(shapes);
