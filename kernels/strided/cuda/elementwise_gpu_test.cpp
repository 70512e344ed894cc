// Element-wise kernels against the CPU reference on random data, in every layout the book talks
// about. add and mul are one correctly rounded float32 operation on both sides, so results must be
// bit-identical (reference.h); copies move bits and must be bit-identical too.
#include "strided/cuda/elementwise.h"

#include <doctest/doctest.h>

#include <limits>

#include "strided/cuda/reference.h"
#include "strided/cuda/runtime.h"
#include "strided/cuda/test_util.h"

using namespace strided;
using namespace strided::cuda;
using namespace strided::cuda::testing;

namespace {

// The layouts under test, as (storage elements, sizes, strides, offset) over random storage.
struct LayoutCase {
  const char* what;
  int64_t storage;
  Shape sizes, strides;
  int64_t offset = 0;
};
const std::vector<LayoutCase>& layouts() {
  static const std::vector<LayoutCase> l = {
      {"contiguous 8x8x8", 512, {8, 8, 8}, {64, 8, 1}},
      {"odd length 1000003", 1000003, {1000003}, {1}},
      {"permute(2,1,0)", 512, {8, 8, 8}, {1, 8, 64}},
      {"transpose(0,1)", 512, {8, 8, 8}, {8, 64, 1}},
      {"stride-5 slice rand(8,8,8,5)[...,0]", 2560, {8, 8, 8}, {320, 40, 5}},
      {"holes rand(8,8,32,8)[...,0,:]", 16384, {8, 8, 8}, {2048, 256, 1}},
      {"offset by one (misaligned)", 513, {8, 8, 8}, {64, 8, 1}, 1},
      {"every other column", 420, {20, 10}, {20, 2}, 3},
      {"broadcast row (expand)", 10, {20, 10}, {0, 1}},
      {"broadcast column", 20, {20, 10}, {1, 0}},
      {"0-d", 1, {}, {}},
      {"size-1 dims with odd strides", 12, {3, 1, 4}, {4, 999, 1}},
      {"empty", 1, {3, 0, 2}, {2, 2, 1}},
      {"6-d permuted", 720, {2, 3, 4, 5, 1, 6}, {1, 2, 6, 24, 720, 120}},
  };
  return l;
}

Tensor make(const LayoutCase& l, uint64_t seed) {
  return view(random_storage(l.storage, seed), l.sizes, l.strides, l.offset);
}

void check_binary(const Tensor& a, const Tensor& b, ElementwiseKernel k, const char* what) {
  const Tensor da = to_cuda_as_view(a), db = to_cuda_as_view(b);
  for (const BinaryOp op : {BinaryOp::Add, BinaryOp::Mul}) {
    const Tensor got = op == BinaryOp::Add ? add(da, db, k) : mul(da, db, k);
    CHECK(got.device() == Device::cuda());
    INFO(what, op == BinaryOp::Add ? " add" : " mul");
    CHECK(bitwise_difference(to_cpu(got), reference_binary(a, b, op)) == "");
  }
}

}  // namespace

TEST_CASE("binary ops on every layout, with itself and with a contiguous operand") {
  for (const auto index64 : {false, true}) {
    force_64bit_indexing_for_testing(index64);
    for (const LayoutCase& l : layouts()) {
      const Tensor a = make(l, 1);
      const Tensor c = random_floats(l.sizes, 2);
      const std::string what = std::string(l.what) + (index64 ? " (64-bit index)" : "");
      check_binary(a, make(l, 3), ElementwiseKernel::Auto, what.c_str());
      check_binary(a, c, ElementwiseKernel::Auto, what.c_str());
      check_binary(c, a, ElementwiseKernel::Strided, what.c_str());
    }
  }
  force_64bit_indexing_for_testing(false);
}

TEST_CASE("broadcasting between operands: (4,1,3) + (1,5,1), a row, a 0-d tensor") {
  const Tensor a = random_floats({4, 1, 3}, 4), b = random_floats({1, 5, 1}, 5);
  check_binary(a, b, ElementwiseKernel::Auto, "(4,1,3) (1,5,1)");
  check_binary(random_floats({7, 9}, 6), random_floats({9}, 7), ElementwiseKernel::Auto, "row");
  check_binary(random_floats({7, 9}, 8), random_floats({}, 9), ElementwiseKernel::Auto, "0-d");
}

TEST_CASE("x * y.transpose(0,2) and friends (seed In[17]), and the output layout (PF-18)") {
  const Tensor x = random_floats({16, 16, 16}, 10);
  const Tensor y = random_floats({16, 16, 16}, 11);
  const Tensor yt = view(y, {16, 16, 16}, {1, 16, 256});
  check_binary(x, yt, ElementwiseKernel::Auto, "x * y.T");
  check_binary(yt, x, ElementwiseKernel::Auto, "y.T * x");
  const Tensor dx = to_cuda(x), dyt = to_cuda_as_view(yt);
  CHECK(cuda::mul(dx, dyt).strides() == Shape{256, 16, 1});
  CHECK(cuda::mul(dyt, dx).strides() == Shape{1, 16, 256});
  // A non-dense input gives a dense output in its order (PF-19).
  const Tensor s5 = to_cuda_as_view(make(layouts()[4], 12));
  CHECK(add(s5, 3.0f).strides() == Shape{64, 8, 1});
}

TEST_CASE("scalar add and mul (the seed's t.add(3)) on every layout, both kernels") {
  for (const LayoutCase& l : layouts()) {
    const Tensor a = make(l, 13);
    const Tensor da = to_cuda_as_view(a);
    INFO(l.what);
    CHECK(bitwise_difference(to_cpu(add(da, 3.0f)), reference_binary_scalar(a, 3.0f, BinaryOp::Add)) == "");
    CHECK(bitwise_difference(to_cpu(mul(da, -0.5f, ElementwiseKernel::Strided)),
                             reference_binary_scalar(a, -0.5f, BinaryOp::Mul)) == "");
  }
}

TEST_CASE("the flat kernel, aligned and misaligned, equals the strided one") {
  for (const int64_t offset : {0, 1, 2, 3}) {
    const Tensor base = random_storage(4099 + offset, 14);
    const Tensor a = view(base, {4099}, {1}, offset);
    const Tensor b = random_floats({4099}, 15);
    const Tensor da = to_cuda_as_view(a), db = to_cuda(b);
    Tensor flat = empty({4099}, {DType::Float32, Device::cuda()});
    Tensor strided = empty({4099}, {DType::Float32, Device::cuda()});
    add_out(flat, da, db, ElementwiseKernel::Flat);
    add_out(strided, da, db, ElementwiseKernel::Strided);
    INFO("offset ", offset);
    CHECK(bitwise_difference(to_cpu(flat), to_cpu(strided)) == "");
    CHECK(bitwise_difference(to_cpu(flat), reference_binary(a, b, BinaryOp::Add)) == "");
  }
}

TEST_CASE("out variants: into a transposed output, and in place") {
  const Tensor a = random_floats({64, 48}, 16), b = random_floats({64, 48}, 17);
  Tensor out_t = to_cuda(empty({48, 64}));
  Tensor out = view(out_t, {64, 48}, {1, 64});  // out_t.t()
  mul_out(out, to_cuda(a), to_cuda(b));
  CHECK(bitwise_difference(to_cpu(out), reference_binary(a, b, BinaryOp::Mul)) == "");

  Tensor x = to_cuda(a);
  add_out(x, x, to_cuda(b));  // x += b
  CHECK(bitwise_difference(to_cpu(x), reference_binary(a, b, BinaryOp::Add)) == "");
  add_out(x, x, 1.0f);
  mul_out(x, x, 2.0f);
  const Tensor want = reference_binary_scalar(
      reference_binary_scalar(reference_binary(a, b, BinaryOp::Add), 1.0f, BinaryOp::Add), 2.0f,
      BinaryOp::Mul);
  CHECK(bitwise_difference(to_cpu(x), want) == "");
}

TEST_CASE("copy_ moves 1-, 2-, 4- and 8-byte elements bit for bit, strided and broadcast") {
  for (const DType t : {DType::Bool, DType::Float16, DType::Int32, DType::Int64, DType::Float64,
                        DType::UInt8, DType::Int8, DType::Int16}) {
    INFO(name(t));
    // A CPU source in a transposed layout with a broadcast dim.
    Tensor src_base = empty({6, 5}, {t});
    for (int64_t i = 0; i < 30; ++i)
      src_base.set({i / 5, i % 5}, t == DType::Bool ? Scalar(i % 3 == 0) : Scalar(int64_t{i * 7 - 50}));
    const Tensor src = view(src_base, {4, 5, 6}, {0, 1, 5});  // (4,5,6): expand of src_base.t()
    for (const auto index64 : {false, true}) {
      force_64bit_indexing_for_testing(index64);
      for (const ElementwiseKernel k : {ElementwiseKernel::Auto, ElementwiseKernel::Strided}) {
        Tensor dst = to_cuda(zeros({4, 5, 6}, {t}));
        copy_(dst, to_cuda_as_view(src), k);
        Tensor want = zeros({4, 5, 6}, {t});
        want.copy_(src);
        CHECK(bitwise_difference(to_cpu(dst), want) == "");
      }
    }
    force_64bit_indexing_for_testing(false);
    // Flat: contiguous to contiguous, by cudaMemcpy (Auto) and by the kernel (Flat).
    const Tensor c = src.contiguous();
    for (const ElementwiseKernel k : {ElementwiseKernel::Auto, ElementwiseKernel::Flat}) {
      Tensor dst = to_cuda(zeros({4, 5, 6}, {t}));
      copy_(dst, to_cuda(c), k);
      CHECK(bitwise_difference(to_cpu(dst), c) == "");
    }
  }
}

TEST_CASE("contiguous() packs a view and leaves a contiguous tensor alone") {
  const Tensor a = make(layouts()[4], 18);  // stride-5 slice
  const Tensor da = to_cuda_as_view(a);
  const Tensor packed = contiguous(da);
  CHECK(packed.is_contiguous());
  CHECK(bitwise_difference(to_cpu(packed), a.contiguous()) == "");
  const int64_t before = Storage::allocation_count();
  CHECK(contiguous(packed).storage().is_same(packed.storage()));
  CHECK(Storage::allocation_count() == before);
}

TEST_CASE("more than 2^31 - 1 elements take the 64-bit path for real") {
  const int64_t need = (int64_t{1} << 33) + (int64_t{1} << 32);  // two 2^31-byte tensors, slack
  if (device_info().total_memory_bytes < need) {
    MESSAGE("device memory below ", need, " bytes: the large case is left out on this device");
    return;
  }
  // (K, 2) bool, read through the transposed layout (2, K)ᵀ: 2K > INT32_MAX elements.
  const int64_t K = (int64_t{1} << 30) + 3;
  Tensor host = empty({2 * K}, {DType::Bool});
  auto* p = static_cast<uint8_t*>(host.data_ptr());
  for (int64_t i = 0; i < 2 * K; ++i) p[i] = static_cast<uint8_t>((static_cast<uint64_t>(i) * 2654435761u >> 7) & 1);
  const Tensor src = to_cuda_as_view(view(host, {K, 2}, {1, K}));
  Tensor dst = empty({K, 2}, {DType::Bool, Device::cuda()});
  copy_(dst, src);
  const Tensor back = to_cpu(dst);
  const auto* q = static_cast<const uint8_t*>(back.data_ptr());
  int64_t wrong = 0;
  for (int64_t r = 0; r < K; ++r)
    for (int64_t c = 0; c < 2; ++c) wrong += q[2 * r + c] != p[r + c * K];
  CHECK(wrong == 0);
}
