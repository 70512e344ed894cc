// Element-wise kernels against the copy engine, and the seed's GPU layouts (In[14], In[17]).
//
// Bytes are the minimum each call must move: every input element read once, every output element
// written once (2N·4 for add(3) and copies, 3N·4 for x·y). bytes_per_second is then the achieved
// bandwidth; for a layout that wastes sectors (the stride-5 slice) it is the *useful* bandwidth.
// Contents are left uninitialised: float add and mul run at the same speed on any bits.
#include <string>

#include "bench_util.h"
#include "strided/cuda/elementwise.h"

namespace {

using namespace strided;
using namespace strided::cuda;
using namespace strided::cuda::bench;

const TensorOptions kGpu{DType::Float32, Device::cuda()};
constexpr int64_t kSide = 512;  // the seed's 512^3 float32: 512 MiB per tensor
constexpr int64_t kN = kSide * kSide * kSide;

Tensor on_gpu(IntList sizes, IntList strides, int64_t storage_elems, int64_t offset = 0) {
  const Tensor s = empty({storage_elems}, kGpu);
  return Tensor(s.storage(), sizes.vec(), strides.vec(), offset, DType::Float32);
}
Tensor cube() { return empty({kSide, kSide, kSide}, kGpu); }
// Every benchmark here reads and writes cubes of this side: the label says so, and the GPU record
// (tools/gpu/record.py) names the size from it.
void cube_label(benchmark::State& state) { state.SetLabel(std::to_string(kSide) + "³ float32"); }

// ---- the yardstick: the copy engine and the flat kernels -----------------------------------------
void BM_copy_cudaMemcpy(benchmark::State& state) {
  cube_label(state);
  guarded(state, [&] {
    Tensor src = cube(), dst = cube();
    run_timed(state, [&] { copy_(dst, src); }, 2.0 * kN * 4);  // Auto on flat: cudaMemcpy
  });
}
void BM_copy_flat_kernel(benchmark::State& state) {
  cube_label(state);
  guarded(state, [&] {
    Tensor src = cube(), dst = cube();
    run_timed(state, [&] { copy_(dst, src, ElementwiseKernel::Flat); }, 2.0 * kN * 4);
  });
}
void BM_add3_contiguous_flat(benchmark::State& state) {
  cube_label(state);
  guarded(state, [&] {
    Tensor t = cube(), out = cube();
    run_timed(state, [&] { add_out(out, t, 3.0f, ElementwiseKernel::Flat); }, 2.0 * kN * 4);
  });
}
void BM_add3_contiguous_strided_kernel(benchmark::State& state) {
  cube_label(state);
  guarded(state, [&] {
    Tensor t = cube(), out = cube();
    run_timed(state, [&] { add_out(out, t, 3.0f, ElementwiseKernel::Strided); }, 2.0 * kN * 4);
  });
}
void BM_add_tensors_contiguous_flat(benchmark::State& state) {
  cube_label(state);
  guarded(state, [&] {
    Tensor x = cube(), y = cube(), out = cube();
    run_timed(state, [&] { add_out(out, x, y); }, 3.0 * kN * 4);
  });
}

// ---- In[14]: t.add(3) for four layouts of a 512^3 tensor ----------------------------------------
// permute(2,1,0): the output keeps the permutation (PF-19), so the plan is one flat run.
void BM_add3_permuted(benchmark::State& state) {
  cube_label(state);
  guarded(state, [&] {
    const Shape p = {1, kSide, kSide * kSide};
    Tensor t = on_gpu({kSide, kSide, kSide}, p, kN), out = on_gpu({kSide, kSide, kSide}, p, kN);
    run_timed(state, [&] { add_out(out, t, 3.0f); }, 2.0 * kN * 4);
  });
}
// rand(512,512,512,5)[..., 0]: 20-byte steps, 8 of every 32 bytes fetched are used.
void BM_add3_stride5(benchmark::State& state) {
  cube_label(state);
  guarded(state, [&] {
    Tensor t = on_gpu({kSide, kSide, kSide}, {kSide * kSide * 5, kSide * 5, 5}, kN * 5);
    Tensor out = cube();
    run_timed(state, [&] { add_out(out, t, 3.0f); }, 2.0 * kN * 4);
  });
}
// rand(512,512,32,512)[..., 0, :]: holes between 2 KiB rows, each row read whole (PF-10).
void BM_add3_holes(benchmark::State& state) {
  cube_label(state);
  guarded(state, [&] {
    Tensor t = on_gpu({kSide, kSide, kSide}, {kSide * 32 * kSide, 32 * kSide, 1}, kN * 32);
    Tensor out = cube();
    run_timed(state, [&] { add_out(out, t, 3.0f); }, 2.0 * kN * 4);
  });
}

// ---- In[17]: x * y with transpose(0, 2) on either side -------------------------------------------
void mul_case(benchmark::State& state, bool x_t, bool y_t) {
  cube_label(state);
  guarded(state, [&] {
    const Shape plain = {kSide * kSide, kSide, 1}, swapped = {1, kSide, kSide * kSide};
    Tensor x = on_gpu({kSide, kSide, kSide}, x_t ? swapped : plain, kN);
    Tensor y = on_gpu({kSide, kSide, kSide}, y_t ? swapped : plain, kN);
    // The output follows x, as mul(x, y) would allocate it (PF-18).
    Tensor out = on_gpu({kSide, kSide, kSide}, x_t ? swapped : plain, kN);
    run_timed(state, [&] { mul_out(out, x, y); }, 3.0 * kN * 4);
  });
}
void BM_mul_x_y(benchmark::State& s) { mul_case(s, false, false); }
void BM_mul_x_yT(benchmark::State& s) { mul_case(s, false, true); }
void BM_mul_xT_y(benchmark::State& s) { mul_case(s, true, false); }
void BM_mul_xT_yT(benchmark::State& s) { mul_case(s, true, true); }

}  // namespace

STRIDED_GPU_BENCH(BM_copy_cudaMemcpy);
STRIDED_GPU_BENCH(BM_copy_flat_kernel);
STRIDED_GPU_BENCH(BM_add3_contiguous_flat);
STRIDED_GPU_BENCH(BM_add3_contiguous_strided_kernel);
STRIDED_GPU_BENCH(BM_add_tensors_contiguous_flat);
STRIDED_GPU_BENCH(BM_add3_permuted);
STRIDED_GPU_BENCH(BM_add3_stride5);
STRIDED_GPU_BENCH(BM_add3_holes);
STRIDED_GPU_BENCH(BM_mul_x_y);
STRIDED_GPU_BENCH(BM_mul_x_yT);
STRIDED_GPU_BENCH(BM_mul_xT_y);
STRIDED_GPU_BENCH(BM_mul_xT_yT);
