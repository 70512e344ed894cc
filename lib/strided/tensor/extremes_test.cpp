// Extreme values through every view op and factory: each argument drawn from 0, 1, -1, 2, 2^62,
// 2^63-1, -2^62 and -2^63, on tensors whose sizes and strides are extreme too (no elements under
// sizes near 2^63, size-1 dims with strides near 2^63, expanded views of 2^63-1 elements). Every
// call ends in a correct answer or a strided::Error naming the op; no other exception, and (the
// asan preset runs this) no undefined behaviour. An answer is checked for what every tensor must
// satisfy: its elements lie in its storage, a view shares its input's storage, the strides
// PyTorch forms through as_strided are not negative, and its elements can be read.
#include <doctest/doctest.h>

#include <climits>
#include <functional>
#include <string>
#include <vector>

#include "strided/layout/layout.h"
#include "strided/tensor/tensor.h"

using namespace strided;

namespace {

constexpr int64_t k62 = int64_t{1} << 62;
const std::vector<int64_t> kValues = {0, 1, -1, 2, k62, INT64_MAX, -k62, INT64_MIN};
// Small dims too, so dim arguments reach valid dims as often as invalid ones.
const std::vector<int64_t> kDims = {0, 1, -1, 2, -3, INT64_MAX, INT64_MIN};

// Tensors with extreme layouts over small storages.
std::vector<Tensor> bases() {
  const Tensor storage = arange(64, {DType::Float32});
  return {
      arange(6).view({2, 3}),
      storage.as_strided({INT64_MAX, 0}, {k62, 1}),            // no elements, huge sizes
      storage.as_strided({1, 1}, {INT64_MAX, INT64_MAX}),      // one element, huge strides
      storage.as_strided({1, 2}, {k62, 1}),
      ones({1}).expand({INT64_MAX}),                           // 2^63-1 elements, one cell
      ones({1, 1}).expand({k62, 1}),
      storage.as_strided({0, 3, 1}, {INT64_MAX, 1, k62}),
      empty({0, 2, INT64_MAX}),  // contiguous strides that wrap: (-2, 2^63-1, 1), as in PyTorch
      scalar_tensor(Scalar(1.0)),
  };
}

int calls = 0, answers = 0;

// The views PyTorch 1.13 forms directly, not through as_strided (which refuses a negative
// stride): their strides are whatever the layout algebra computes.
bool strides_as_computed(const std::string& op) {
  return op == "view" || op == "reshape" || op == "unflatten" || op == "flatten";
}

// Runs one op; the op must answer or raise strided::Error whose message names it.
void check(const Tensor& in, const std::string& op, bool view, const std::function<Tensor()>& f,
           const std::string& args) {
  ++calls;
  Tensor out;
  try {
    out = f();
  } catch (const Error& e) {
    const std::string message = e.what();
    INFO(op << args << " on " << in.layout());
    INFO("message: " << message);
    CHECK(message.find(op) != std::string::npos);
    return;
  }
  ++answers;
  INFO(op << args << " on " << in.layout() << " gave " << out.layout() << " offset "
          << out.storage_offset());
  // Every element in the storage (the Tensor constructor checks it; checked here again through
  // the layout algebra, which must not overflow on any answer).
  const int64_t numel = out.numel();
  if (numel > 0) {
    const Extent e = extent(out.layout());
    CHECK(e.min >= 0);
    CHECK((e.max + 1) * out.element_size() <= out.storage().nbytes());
  }
  if (view) {
    CHECK(out.storage().is_same(in.storage()));
    if (!strides_as_computed(op))
      for (int64_t s : out.strides()) CHECK(s >= 0);
  }
  // Small answers are read element by element, through the address formula.
  if (numel <= 64) CHECK(static_cast<int64_t>(out.to_vector().size()) == numel);
}

std::string list(std::initializer_list<int64_t> v) {
  std::string out = "(";
  for (int64_t x : v) out += (out.size() > 1 ? ", " : "") + std::to_string(x);
  return out + ")";
}

// A copy of more than a megabyte is not made: the sanitizer build would abort on a failed
// allocation of 2^60 bytes, where a plain build reports it as an Error.
bool copy_is_small(const Tensor& t) {
  try {
    return t.numel() <= (int64_t{1} << 18);
  } catch (const Error&) {
    return true;
  }
}

}  // namespace

TEST_CASE("every view op answers or refuses cleanly on extreme arguments") {
  for (const Tensor& t : bases()) {
    for (int64_t d : kDims)
      for (int64_t i : kValues) {
        check(t, "select", true, [&] { return t.select(d, i); }, list({d, i}));
        check(t, "unsqueeze", true, [&] { return t.unsqueeze(d); }, list({d}));
        check(t, "squeeze", true, [&] { return t.squeeze(d); }, list({d}));
        check(t, "transpose", true, [&] { return t.transpose(d, i); }, list({d, i}));
        check(t, "movedim", true, [&] { return t.movedim(d, i); }, list({d, i}));
        check(t, "permute", true, [&] { return t.permute({d, i}); }, list({d, i}));
        if (copy_is_small(t))
          check(t, "flatten", false, [&] { return t.flatten(d, i); }, list({d, i}));
        for (int64_t j : kValues) {
          check(t, "narrow", true, [&] { return t.narrow(d, i, j); }, list({d, i, j}));
          check(t, "diagonal", true, [&] { return t.diagonal(i, d, j); }, list({i, d, j}));
          check(t, "unfold", true, [&] { return t.unfold(d, i, j); }, list({d, i, j}));
          check(t, "unflatten", true, [&] { return t.unflatten(d, {i, j}); }, list({d, i, j}));
          for (int64_t k : kValues)
            check(t, "slice", true, [&] { return t.slice(d, i, j, k); }, list({d, i, j, k}));
        }
      }
    for (int64_t a : kValues)
      for (int64_t b : kValues) {
        check(t, "expand", true, [&] { return t.expand({a, b}); }, list({a, b}));
        check(t, "expand", true, [&] { return t.expand({a, 1, b}); }, list({a, 1, b}));
        check(t, "view", true, [&] { return t.view({a, b}); }, list({a, b}));
        check(t, "view", true, [&] { return t.view({a, b, 0}); }, list({a, b, 0}));
        if (copy_is_small(t)) {
          check(t, "reshape", false, [&] { return t.reshape({a, b}); }, list({a, b}));
          check(t, "reshape", false, [&] { return t.reshape({0, a, b}); }, list({0, a, b}));
        }
        for (int64_t c : kValues) {
          check(t, "as_strided", true, [&] { return t.as_strided({a, b}, {c, 1}); },
                list({a, b, c}));
          check(t, "as_strided", true, [&] { return t.as_strided({a}, {b}, c); }, list({a, b, c}));
          check(t, "as_strided", true, [&] { return t.as_strided({a, 0}, {b, c}); },
                list({a, 0, b, c}));
        }
      }
    for (int64_t i : kValues) {
      using indexing::Slice;
      check(t, "index", true, [&] { return t.index({i}); }, list({i}));
      check(t, "index", true, [&] { return t.index({Slice(i, std::nullopt, 2), indexing::None}); },
            list({i}));
      if (copy_is_small(t)) {
        check(t, "index", false, [&] { return t.index({std::vector<int64_t>{i, 0}}); }, list({i}));
        check(t, "flip", false, [&] { return t.flip({i}); }, list({i}));
        check(t, "index_select", false, [&] { return t.index_select(0, {i}); }, list({i}));
      }
    }
    if (copy_is_small(t)) {
      check(t, "clone", false, [&] { return t.clone(); }, "()");
      check(t, "contiguous", false, [&] { return t.contiguous(); }, "()");
      check(t, "to", false, [&] { return t.to(DType::Float64); }, "()");
    }
  }
  MESSAGE(calls << " calls, " << answers << " answered");
  CHECK(answers > 1000);
}

TEST_CASE("every factory answers or refuses cleanly on extreme sizes") {
  // A request that fits int64 but not in memory is not made (see copy_is_small): only sizes whose
  // bytes are small, or whose count PyTorch refuses before allocating.
  auto small = [](std::initializer_list<int64_t> sizes, int64_t item) {
    Checked n = item;
    for (int64_t s : sizes) {
      if (s < 0) return true;  // refused
      n *= s;
    }
    for (int64_t s : sizes)
      if (s == 0) return true;  // nothing to allocate (or refused by the numel check)
    return n.overflowed() || n.value() <= (int64_t{1} << 20);
  };
  auto tiny_storage = [](std::initializer_list<int64_t> sizes, std::initializer_list<int64_t> strides,
                         int64_t item) {
    try {
      return storage_nbytes_needed(Layout(sizes, strides, 0), item, "test") <= (int64_t{1} << 20);
    } catch (const Error&) {
      return true;  // refused before allocating
    }
  };
  const Tensor none;
  Generator gen(1);
  for (int64_t a : kValues)
    for (int64_t b : kValues) {
      for (int64_t c : {int64_t{0}, int64_t{1}, INT64_MAX}) {
        if (small({a, b, c}, 8)) {
          check(none, "empty", false, [&] { return empty({a, b, c}); }, list({a, b, c}));
          check(none, "zeros", false, [&] { return zeros({a, b, c}, {DType::Float64}); },
                list({a, b, c}));
          check(none, "full", false, [&] { return full({a, b, c}, Scalar(2.0)); },
                list({a, b, c}));
          check(none, "rand", false, [&] { return rand({a, b, c}, gen); }, list({a, b, c}));
        }
        if (tiny_storage({a, b}, {c, 1}, 4)) {
          check(none, "empty_strided", false, [&] { return empty_strided({a, b}, {c, 1}); },
                list({a, b, c}));
        }
        const __int128 span = static_cast<__int128>(b) - a;
        if (c == 0 || span / c <= (1 << 16))
          check(none, "arange", false, [&] { return arange(a, b, c); }, list({a, b, c}));
      }
      for (int64_t c : kValues) {
        const __int128 span = static_cast<__int128>(b) - a;
        if (c == 0 || span / c <= (1 << 16))
          check(none, "arange", false, [&] { return arange(a, b, c, {DType::Float32}); },
                list({a, b, c}));
      }
    }
  MESSAGE(calls << " calls in all, " << answers << " answered");
}
