// Streaming stores (streaming.h): when the element-wise loops use them, and that they write the
// same bits as ordinary stores, aligned or not, for every op shape the loops vectorise.
#include "strided/engine/streaming.h"

#include <doctest/doctest.h>

#include "strided/engine/ops.h"
#include "strided/tensor/allocator.h"
#include "strided/strided.h"

using namespace strided;

namespace {

// Sets the switch and the threshold for one test, and restores both.
struct Streaming {
  bool was = streaming_stores_enabled();
  explicit Streaming(bool on, int64_t threshold = 1 << 20) {
    set_streaming_stores(on);
    set_streaming_threshold_bytes(threshold);
  }
  ~Streaming() {
    set_streaming_stores(was);
    set_streaming_threshold_bytes(-1);
  }
};

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.sizes() == b.sizes() && a.contiguous().to_vector() == b.contiguous().to_vector();
}

}  // namespace

TEST_CASE("STRIDED_STREAMING_STORES=0 turns streaming off; anything else leaves it on") {
  CHECK_FALSE(detail::streaming_env_enabled("0"));
  CHECK(detail::streaming_env_enabled(nullptr));
  CHECK(detail::streaming_env_enabled("1"));
  CHECK(detail::streaming_env_enabled(""));
}

TEST_CASE("the threshold defaults to half the last-level cache and can be restored") {
  const int64_t initial = streaming_threshold_bytes();
  CHECK(initial > 0);
  set_streaming_threshold_bytes(123);
  CHECK(streaming_threshold_bytes() == 123);
  set_streaming_threshold_bytes(-1);
  CHECK(streaming_threshold_bytes() == initial);
}

TEST_CASE("a large output streams; a small one, an in-place op or an overlap does not") {
  Streaming on(true);
  Generator gen(1);
  const Tensor x = rand({1 << 18}, gen), y = rand({1 << 18}, gen);  // 1 MiB each
  const Tensor out = empty({1 << 18});
  CHECK(detail::streams_output(binary_plan(BinaryOp::Add, out, x, y)));
  CHECK(detail::streams_output(binary_plan(BinaryOp::Add, out, x, Scalar(3.0))));
  CHECK(detail::streams_output(unary_plan(UnaryOp::Neg, out, x)));
  CHECK_FALSE(detail::streams_output(binary_plan(BinaryOp::Add, Tensor(), x.narrow(0, 0, 1000), y.narrow(0, 0, 1000))));
  CHECK_FALSE(detail::streams_output(binary_plan(BinaryOp::Add, x, x, y)));  // x.add_(y)
  // An output on an input's storage: apart from it, it streams; where the overlap test cannot
  // tell (a strided input, TooHard), it does not.
  const Tensor both = rand({2 << 18}, gen);
  const Tensor front = both.narrow(0, 0, 1 << 18);
  CHECK(detail::streams_output(binary_plan(BinaryOp::Add, front, both.narrow(0, 1 << 18, 1 << 18), y)));
  CHECK_FALSE(detail::streams_output(binary_plan(BinaryOp::Add, front, both.slice(0, 1, 2 << 18, 2), y)));
  set_streaming_stores(false);
  CHECK_FALSE(detail::streams_output(binary_plan(BinaryOp::Add, out, x, y)));
}

TEST_CASE("an output on fresh pages stores ordinarily; a cached block or a given output streams") {
  Streaming on(true);
  const bool cache_was = caching_allocator_enabled();
  Generator gen(3);
  const Tensor x = rand({1 << 18}, gen);  // 1 MiB: a block the caching allocator handles
  set_caching_allocator_enabled(false);
  {
    const TensorIterator fresh = binary_plan(BinaryOp::Add, Tensor(), x, Scalar(3.0));
    CHECK(fresh.operand(0).fresh_pages);
    CHECK_FALSE(detail::streams_output(fresh));
  }
  set_caching_allocator_enabled(true);
  { const Tensor warm = x + Scalar(1.0); }  // its block goes back to the cache
  const TensorIterator cached = binary_plan(BinaryOp::Add, Tensor(), x, Scalar(3.0));
  CHECK_FALSE(cached.operand(0).fresh_pages);
  CHECK(detail::streams_output(cached));
  const Tensor out = empty({1 << 18});
  CHECK(detail::streams_output(binary_plan(BinaryOp::Add, out, x, Scalar(3.0))));
  set_caching_allocator_enabled(cache_was);
}

TEST_CASE("streamed and ordinary stores write the same bits") {
  Generator gen(2);
  const int64_t n = (1 << 18) + 13;  // a tail the vectors leave to the scalar loop
  const Tensor x = rand({n}, gen), y = rand({n}, gen);
  const Tensor xd = x.to(DType::Float64), xi = (x * Scalar(1000.0)).to(DType::Int32);
  const Tensor x5 = rand({5 * n}, gen).slice(0, 0, 5 * n, 5);  // a strided input: not streamed
  auto ops = [&](const Tensor& into) {
    return std::vector<Tensor>{
        x + y, x + Scalar(3.0), Scalar(2.0) * x, x / y, -x, xd * xd, xi + xi, x5 + Scalar(3.0),
        x5 * y, y - x5, -x5, exp(x5.to(DType::Float64)),
        // into: an output one element off the vector alignment, then aligned again.
        [&] {
          run_binary(BinaryOp::Mul, binary_plan(BinaryOp::Mul, into, x, y));
          return into;
        }()};
  };
  std::vector<Tensor> plain, streamed;
  {
    Streaming off(false);
    plain = ops(empty({n + 1}).narrow(0, 1, n));
  }
  {
    Streaming on(true, 4096);
    const bool cache_was = caching_allocator_enabled();
    set_caching_allocator_enabled(true);
    {  // blocks of the outputs' sizes, freed into the cache: the ops' outputs are mapped pages
      std::vector<Tensor> warm;
      for (int k = 0; k < 12; ++k) warm.push_back(empty({n}));
      for (int k = 0; k < 2; ++k) warm.push_back(empty({n}, {DType::Float64}));
    }
    CHECK(detail::streams_output(binary_plan(BinaryOp::Add, Tensor(), x, y)));
    streamed = ops(empty({n + 1}).narrow(0, 1, n));
    set_caching_allocator_enabled(cache_was);
  }
  REQUIRE(plain.size() == streamed.size());
  for (size_t k = 0; k < plain.size(); ++k) {
    INFO("op ", k);
    CHECK(same_bits(plain[k], streamed[k]));
  }
}
