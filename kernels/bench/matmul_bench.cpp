// 2048 x 2048 float32 products in the seed's four layouts (In[20]) through the book's cuBLAS path,
// each beside a cublasSgemm call written out by hand for that layout: the path must add nothing
// but its checks (target: within 1.05x). Then the two teaching kernels, and the low-rank products
// of In[21]. Counters: FLOP/s = 2·M·N·K per call.
#include <cublas_v2.h>

#include "bench_util.h"
#include "strided/cuda/matmul.h"

namespace {

using namespace strided;
using namespace strided::cuda;
using namespace strided::cuda::bench;

const TensorOptions kGpu{DType::Float32, Device::cuda()};
constexpr int64_t kN = 2048;

void count_flops(benchmark::State& state, int64_t M, int64_t N, int64_t K) {
  state.counters["FLOP/s"] =
      benchmark::Counter(2.0 * M * N * K, benchmark::Counter::kIsIterationInvariantRate);
}

// a is (M,K) and b is (K,N); "T" means the operand is the .mT view of a contiguous matrix.
struct Operands {
  Tensor a_store, b_store, a, b, c;
  Operands(int64_t M, int64_t K, int64_t N, bool a_t, bool b_t) {
    a_store = a_t ? empty({K, M}, kGpu) : empty({M, K}, kGpu);
    b_store = b_t ? empty({N, K}, kGpu) : empty({K, N}, kGpu);
    a = a_t ? Tensor(a_store.storage(), {M, K}, {1, M}, 0, DType::Float32) : a_store;
    b = b_t ? Tensor(b_store.storage(), {K, N}, {1, K}, 0, DType::Float32) : b_store;
    c = empty({M, N}, kGpu);
  }
};

void path_case(benchmark::State& state, bool a_t, bool b_t, MatmulKernel k) {
  guarded(state, [&] {
    Operands o(kN, kN, kN, a_t, b_t);
    run_timed(state, [&] { matmul_out(o.c, o.a, o.b, k); }, 3.0 * kN * kN * 4);
    count_flops(state, kN, kN, kN);
  });
}

// The direct call for each layout, derived by hand from cuBLAS's column-major convention
// (C row-major = Cᵀ column-major = bᵀ·aᵀ; a contiguous X read column-major is Xᵀ).
void direct_case(benchmark::State& state, bool a_t, bool b_t) {
  guarded(state, [&] {
    Operands o(kN, kN, kN, a_t, b_t);
    cublasHandle_t h = nullptr;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
      state.SkipWithError("cublasCreate failed");
      return;
    }
    cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
    const float one = 1, zero = 0;
    const int n = static_cast<int>(kN);
    cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
    run_timed(state, [&] {
      status = cublasSgemm(h, b_t ? CUBLAS_OP_T : CUBLAS_OP_N, a_t ? CUBLAS_OP_T : CUBLAS_OP_N, n,
                           n, n, &one, o.b_store.data<float>(), n, o.a_store.data<float>(), n,
                           &zero, o.c.data<float>(), n);
    }, 3.0 * kN * kN * 4);
    cublasDestroy(h);
    if (status != CUBLAS_STATUS_SUCCESS) state.SkipWithError(cublasGetStatusString(status));
    count_flops(state, kN, kN, kN);
  });
}

void BM_matmul_cublas_path_a_b(benchmark::State& s) { path_case(s, false, false, MatmulKernel::Cublas); }
void BM_matmul_cublas_direct_a_b(benchmark::State& s) { direct_case(s, false, false); }
void BM_matmul_cublas_path_a_bT(benchmark::State& s) { path_case(s, false, true, MatmulKernel::Cublas); }
void BM_matmul_cublas_direct_a_bT(benchmark::State& s) { direct_case(s, false, true); }
void BM_matmul_cublas_path_aT_b(benchmark::State& s) { path_case(s, true, false, MatmulKernel::Cublas); }
void BM_matmul_cublas_direct_aT_b(benchmark::State& s) { direct_case(s, true, false); }
void BM_matmul_cublas_path_aT_bT(benchmark::State& s) { path_case(s, true, true, MatmulKernel::Cublas); }
void BM_matmul_cublas_direct_aT_bT(benchmark::State& s) { direct_case(s, true, true); }
void BM_matmul_1_naive_a_b(benchmark::State& s) { path_case(s, false, false, MatmulKernel::Naive); }
void BM_matmul_1_naive_a_bT(benchmark::State& s) { path_case(s, false, true, MatmulKernel::Naive); }
void BM_matmul_2_tiled_a_b(benchmark::State& s) { path_case(s, false, false, MatmulKernel::Tiled); }
void BM_matmul_2_tiled_a_bT(benchmark::State& s) { path_case(s, false, true, MatmulKernel::Tiled); }

// In[21]: (2048 x k) @ (k x 2048). Bytes: both operands read, the 16 MiB output written.
void BM_matmul_low_rank(benchmark::State& state) {
  guarded(state, [&] {
    const int64_t k = state.range(0);
    Operands o(kN, k, kN, false, false);
    run_timed(state, [&] { matmul_out(o.c, o.a, o.b); }, 4.0 * (kN * k + k * kN + kN * kN));
    count_flops(state, kN, kN, k);
  });
}

}  // namespace

STRIDED_GPU_BENCH(BM_matmul_cublas_path_a_b);
STRIDED_GPU_BENCH(BM_matmul_cublas_direct_a_b);
STRIDED_GPU_BENCH(BM_matmul_cublas_path_a_bT);
STRIDED_GPU_BENCH(BM_matmul_cublas_direct_a_bT);
STRIDED_GPU_BENCH(BM_matmul_cublas_path_aT_b);
STRIDED_GPU_BENCH(BM_matmul_cublas_direct_aT_b);
STRIDED_GPU_BENCH(BM_matmul_cublas_path_aT_bT);
STRIDED_GPU_BENCH(BM_matmul_cublas_direct_aT_bT);
STRIDED_GPU_BENCH(BM_matmul_1_naive_a_b);
STRIDED_GPU_BENCH(BM_matmul_1_naive_a_bT);
STRIDED_GPU_BENCH(BM_matmul_2_tiled_a_b);
STRIDED_GPU_BENCH(BM_matmul_2_tiled_a_bT);
STRIDED_GPU_BENCH(BM_matmul_low_rank)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Arg(32);
