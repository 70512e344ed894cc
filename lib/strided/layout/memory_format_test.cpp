// Memory formats: channels-last strides, contiguity in a format, the format strides suggest, and
// the ops that take a memory_format (empty, empty_like, clone, contiguous, to). Every expectation
// is what torch 1.13 printed for the same sizes and strides (through torch.as_strided), unless it
// quotes a claim of the catalogue, whose ID is given.
#include "strided/layout/memory_format.h"

#include <doctest/doctest.h>

#include "strided/core/error_of.h"
#include "strided/engine/ops.h"
#include "strided/layout/layout.h"
#include "strided/tensor/tensor.h"

using namespace strided;

namespace {
// A tensor with this layout over arange values, large enough for it.
Tensor laid_out(IntList sizes, IntList strides) {
  const Extent e = extent(Layout(sizes.vec(), strides.vec()));
  return arange(e.empty() ? 1 : e.max + 1).as_strided(sizes, strides);
}
}  // namespace

TEST_CASE("channels_last_strides: (H·W·C, 1, W·C, C) for (N, C, H, W), sizes as they are") {
  CHECK(channels_last_strides({2, 3, 4, 5}) == Shape{60, 1, 15, 3});
  CHECK(channels_last_strides({1, 1, 1, 1}) == Shape{1, 1, 1, 1});
  // No max(size, 1): torch.empty(2, 0, 3, 4, memory_format=torch.channels_last).stride().
  CHECK(channels_last_strides({2, 0, 3, 4}) == Shape{0, 1, 0, 0});
  CHECK(channels_last_strides({2, 3, 0, 4}) == Shape{0, 1, 12, 3});
  CHECK(error_of([] { channels_last_strides({3, 4}, "contiguous()"); }) ==
        "contiguous(): required rank 4 tensor to use channels_last format");
  CHECK(memory_format_strides({2, 3, 4, 5}, MemoryFormat::Contiguous) == Shape{60, 20, 5, 1});
  CHECK(memory_format_strides({2, 3, 4, 5}, MemoryFormat::ChannelsLast) == Shape{60, 1, 15, 3});
  CHECK(error_of([] { memory_format_strides({2, 3}, MemoryFormat::Preserve); }) ==
        "empty: unsupported memory format Preserve");
}

TEST_CASE("is_contiguous(channels_last): dense in the order C, W, H, N, size-1 dims skipped") {
  const MemoryFormat cl = MemoryFormat::ChannelsLast;
  struct Case {
    Shape sizes, strides;
    bool contiguous, channels_last;
  };
  const Case cases[] = {
      {{2, 3, 4, 5}, {60, 20, 5, 1}, true, false},
      {{2, 3, 4, 5}, {60, 1, 15, 3}, false, true},
      // NCHW-contiguous with C = 1, or with H = W = 1: both (CT-02.channels).
      {{2, 1, 4, 5}, {20, 20, 5, 1}, true, true},
      {{2, 3, 1, 1}, {3, 1, 1, 1}, true, true},
      {{4, 1, 1, 1}, {1, 1, 1, 1}, true, true},
      {{4, 1, 1, 1}, {5, 5, 5, 5}, false, false},
      {{2, 3, 4, 5}, {60, 1, 30, 3}, false, false},  // a channels-last slice: not dense
      {{1, 3, 1, 4}, {12, 1, 12, 3}, false, true},
      // Unlike is_contiguous, no shortcut for an empty tensor.
      {{2, 0, 3, 4}, {12, 12, 4, 1}, true, false},
  };
  for (const Case& k : cases) {
    CAPTURE(layout_string(k.sizes, k.strides));
    CHECK(is_contiguous(Layout(k.sizes, k.strides), MemoryFormat::Contiguous) == k.contiguous);
    CHECK(is_contiguous(Layout(k.sizes, k.strides), MemoryFormat::Preserve) == k.contiguous);
    CHECK(is_contiguous(Layout(k.sizes, k.strides), cl) == k.channels_last);
    CHECK(laid_out(k.sizes, k.strides).is_contiguous(cl) == k.channels_last);
  }
  // Any rank but 4 is never channels-last contiguous, and asking is no error.
  CHECK_FALSE(is_contiguous(Layout({3, 4}, {4, 1}), cl));
  CHECK_FALSE(is_contiguous(Layout({}, {}), cl));
}

TEST_CASE("an NHWC uint8 image permuted to NCHW is channels-last contiguous, and copies as such") {
  // torch: img = torch.arange(120).to(torch.uint8).reshape(2, 4, 5, 3); x = img.permute(0, 3,
  // 1, 2) is (2, 3, 4, 5) with strides (60, 1, 15, 3), not contiguous, channels-last contiguous;
  // x.contiguous() has strides (60, 20, 5, 1) and starts 0, 3, 6; x.float() / 255 keeps
  // channels last (preserve_format) in float32.
  const Tensor img = arange(120).to(DType::UInt8).view({2, 4, 5, 3});
  const Tensor x = img.permute({0, 3, 1, 2});
  CHECK(x.strides() == Shape{60, 1, 15, 3});
  CHECK_FALSE(x.is_contiguous());
  CHECK(x.is_contiguous(MemoryFormat::ChannelsLast));
  const Tensor c = x.contiguous();
  CHECK(c.strides() == Shape{60, 20, 5, 1});
  CHECK(c.dtype() == DType::UInt8);
  CHECK(c.view({120}).slice(0, 0, 4).to_vector() == std::vector<double>{0, 3, 6, 9});
  const Tensor f = x.to(DType::Float32) / 255;
  CHECK(f.dtype() == DType::Float32);
  CHECK(f.strides() == Shape{60, 1, 15, 3});
  CHECK((x / 255).strides() == Shape{60, 1, 15, 3});
  CHECK(f.at({1, 2, 3, 4}).to_double() == x.at({1, 2, 3, 4}).to_int() / 255.0f);
}

TEST_CASE("suggest_memory_format: the order of the strides, dense or not, ambiguity to NCHW") {
  struct Case {
    Shape sizes, strides;
    MemoryFormat suggested;
  };
  const MemoryFormat nchw = MemoryFormat::Contiguous, cl = MemoryFormat::ChannelsLast;
  const Case cases[] = {
      {{2, 3, 4, 5}, {60, 20, 5, 1}, nchw},
      {{2, 3, 4, 5}, {60, 1, 15, 3}, cl},
      {{2, 1, 4, 5}, {20, 20, 5, 1}, nchw},  // channels-last contiguous all the same
      {{2, 1, 4, 5}, {20, 1, 5, 1}, cl},
      {{2, 3, 1, 1}, {3, 1, 1, 1}, nchw},
      {{2, 3, 1, 1}, {3, 1, 3, 3}, cl},
      {{4, 1, 1, 1}, {1, 1, 1, 1}, nchw},   // N111 with equal strides: ambiguous
      {{2, 3, 4, 5}, {120, 1, 30, 6}, cl},  // not dense, ordered like channels last
      {{2, 3, 4, 5}, {60, 1, 30, 3}, nchw},
      {{2, 3, 4, 5}, {60, 0, 15, 3}, nchw},  // stride-0 C
      {{2, 0, 4, 5}, {0, 1, 0, 0}, nchw},    // a size-0 dim
      {{3, 4, 5}, {1, 15, 3}, nchw},         // rank 3
  };
  for (const Case& k : cases) {
    CAPTURE(layout_string(k.sizes, k.strides));
    CHECK(suggest_memory_format(Layout(k.sizes, k.strides)) == k.suggested);
  }
}

TEST_CASE("empty and empty_like take a memory format; Preserve keeps a dense layout (CT-04.like)") {
  const Tensor x = arange(120).view({2, 3, 4, 5});
  CHECK(empty({2, 3, 4, 5}, {}, MemoryFormat::ChannelsLast).strides() == Shape{60, 1, 15, 3});
  CHECK(error_of([] { empty({2, 3}, {}, MemoryFormat::ChannelsLast); }) ==
        "empty: required rank 4 tensor to use channels_last format");
  const Tensor y = empty_like(x, MemoryFormat::ChannelsLast);
  CHECK(y.strides() == Shape{60, 1, 15, 3});
  CHECK(y.dtype() == DType::Int64);
  // Preserve: a channels-last tensor keeps its strides, and so does a permuted one.
  CHECK(empty_like(y).strides() == Shape{60, 1, 15, 3});
  CHECK(empty_like(x.permute({0, 2, 3, 1})).strides() == Shape{60, 5, 1, 20});
  CHECK(empty_like(y, MemoryFormat::Contiguous).strides() == Shape{60, 20, 5, 1});
  CHECK(empty_like(x, {DType::Float32}, MemoryFormat::Preserve).dtype() == DType::Float32);
  CHECK(error_of([] { empty_like(zeros({3, 4}), MemoryFormat::ChannelsLast); }) ==
        "empty_like: required rank 4 tensor to use channels_last format");
}

TEST_CASE("contiguous(channels_last) copies unless already channels-last contiguous") {
  const Tensor x = arange(120).view({2, 3, 4, 5});
  int64_t before = Storage::allocation_count();
  const Tensor y = x.contiguous(MemoryFormat::ChannelsLast);
  CHECK(Storage::allocation_count() == before + 1);
  CHECK(y.strides() == Shape{60, 1, 15, 3});
  CHECK(y.to_vector() == x.to_vector());
  CHECK_FALSE(y.is_contiguous());
  CHECK(y.is_contiguous(MemoryFormat::ChannelsLast));
  before = Storage::allocation_count();
  const Tensor same = y.contiguous(MemoryFormat::ChannelsLast);
  CHECK(Storage::allocation_count() == before);
  CHECK(same.storage().is_same(y.storage()));
  // Back to NCHW, and the permuted view of x that is its NHWC form copies to channels last too.
  CHECK(y.contiguous().strides() == Shape{60, 20, 5, 1});
  CHECK(y.contiguous(MemoryFormat::Contiguous).to_vector() == x.to_vector());
  const Tensor sliced = x.slice(2, std::nullopt, std::nullopt, 2);
  CHECK(sliced.contiguous(MemoryFormat::ChannelsLast).strides() == Shape{30, 1, 15, 3});
  // C = 1: contiguous in both formats, so either call returns the tensor itself.
  const Tensor c1 = zeros({2, 1, 4, 5});
  CHECK(c1.contiguous(MemoryFormat::ChannelsLast).storage().is_same(c1.storage()));
  // Errors, in PyTorch's words.
  CHECK(error_of([] { zeros({3, 4}).contiguous(MemoryFormat::ChannelsLast); }) ==
        "contiguous(): required rank 4 tensor to use channels_last format");
  CHECK(error_of([] { zeros({3, 4}).t().contiguous(MemoryFormat::Preserve); }) ==
        "contiguous(): preserve memory format is unsupported by the contiguous operator");
  CHECK(zeros({3, 4}).contiguous(MemoryFormat::Preserve).strides() == Shape{4, 1});
}

TEST_CASE("clone keeps channels last (preserve_format) and takes a format") {
  const Tensor y = arange(120).view({2, 3, 4, 5}).contiguous(MemoryFormat::ChannelsLast);
  CHECK(y.clone().strides() == Shape{60, 1, 15, 3});
  CHECK(y.clone(MemoryFormat::Preserve).strides() == Shape{60, 1, 15, 3});
  CHECK(y.clone(MemoryFormat::Contiguous).strides() == Shape{60, 20, 5, 1});
  CHECK(y.clone(MemoryFormat::Contiguous).to_vector() == y.to_vector());
  // A channels-last slice is not dense: dense again, in the same order.
  CHECK(y.slice(2, std::nullopt, std::nullopt, 2).clone().strides() == Shape{30, 1, 15, 3});
  CHECK(laid_out({2, 3, 4, 5}, {60, 0, 15, 3}).clone().strides() == Shape{60, 20, 5, 1});
  CHECK(error_of([] { zeros({3, 4}).clone(MemoryFormat::ChannelsLast); }) ==
        "clone(): required rank 4 tensor to use channels_last format");
}

TEST_CASE("to(memory_format) returns the tensor itself when its strides suggest the format") {
  const MemoryFormat cl = MemoryFormat::ChannelsLast;
  const Tensor x = arange(120).view({2, 3, 4, 5});
  const Tensor y = x.to(cl);
  CHECK(y.strides() == Shape{60, 1, 15, 3});
  CHECK(y.to(cl).storage().is_same(y.storage()));
  CHECK(x.to(MemoryFormat::Contiguous).storage().is_same(x.storage()));
  CHECK(y.to(MemoryFormat::Contiguous).strides() == Shape{60, 20, 5, 1});
  CHECK(y.to(MemoryFormat::Preserve).storage().is_same(y.storage()));
  // contiguous() and to() part: C = 1 NCHW is channels-last contiguous but suggests NCHW.
  const Tensor c1 = arange(40).view({2, 1, 4, 5});
  const Tensor moved = c1.to(cl);
  CHECK_FALSE(moved.storage().is_same(c1.storage()));
  CHECK(moved.strides() == Shape{20, 1, 5, 1});
  CHECK(moved.to_vector() == c1.to_vector());
  // A channels-last slice, not dense, is returned as it is by to(), copied by contiguous().
  const Tensor sliced = y.slice(2, std::nullopt, std::nullopt, 2);
  CHECK(sliced.to(cl).storage().is_same(y.storage()));
  CHECK(sliced.contiguous(cl).strides() == Shape{30, 1, 15, 3});
  CHECK(error_of([] { zeros({3, 4}).to(MemoryFormat::ChannelsLast); }) ==
        "to(): required rank 4 tensor to use channels_last format");
}

TEST_CASE("name: the Python names of the formats") {
  CHECK(std::string(name(MemoryFormat::Contiguous)) == "torch.contiguous_format");
  CHECK(std::string(name(MemoryFormat::ChannelsLast)) == "torch.channels_last");
  CHECK(std::string(name(MemoryFormat::Preserve)) == "torch.preserve_format");
}

TEST_CASE("shared_output_strides: TensorIterator's fast set-up, in PyTorch's order of preference") {
  const Shape nchw{2, 3, 4, 5};
  const Shape row = contiguous_strides(nchw), cl = channels_last_strides(nchw);
  const Shape perm{1, 2, 6, 24};  // dense, neither contiguous nor channels-last
  CHECK(shared_output_strides(nchw, {row, row}) == row);
  CHECK(shared_output_strides(nchw, {cl, cl}) == cl);
  CHECK(shared_output_strides(nchw, {perm, perm}) == perm);
  // Mixed layouts share none: the general rule decides.
  CHECK_FALSE(shared_output_strides(nchw, {row, cl}).has_value());
  CHECK_FALSE(shared_output_strides(nchw, {perm, row}).has_value());
  // A non-dense operand (a stride-2 slice) or a broadcast one (stride 0) is no fast set-up.
  CHECK_FALSE(shared_output_strides({4}, {Shape{2}}).has_value());
  CHECK_FALSE(shared_output_strides({4}, {Shape{0}}).has_value());
  // enforce_linear_iteration admits the contiguous case alone.
  CHECK(shared_output_strides(nchw, {row}, true) == row);
  CHECK_FALSE(shared_output_strides(nchw, {cl}, true).has_value());
  // Post-condition: whatever comes back is dense over the shape.
  for (const Shape& s : {row, cl, perm})
    if (auto r = shared_output_strides(nchw, {s}))
      CHECK(is_non_overlapping_and_dense(Layout(nchw, *r)));
}
