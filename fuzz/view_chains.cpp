// libFuzzer target: random chains of view ops on random small tensors, each result checked against
// the reference of reference.h, which knows no strides and finds every element by the address
// formula and the op's meaning alone. For every step the fuzzer checks
//  - validity: the library raises a strided::Error naming the op exactly when the reference says
//    PyTorch raises (a refused view must be one that reshape copies);
//  - values: every element, through the library and through the raw storage, is the element the
//    reference names, and a view's addresses are the reference's addresses;
//  - memory: memory_set against the reference's addresses, is_view_of against brute-force set
//    inclusion (and always true for a view of the previous step), the exact overlap tests
//    (solve_may_share_memory, solve_may_have_internal_overlap) against brute force whenever they
//    answer, PyTorch's cheap tests and the contiguity predicates against what the addresses show.
// A failed check prints what it saw and aborts, which libFuzzer reports as a crash with its input.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "reference.h"
#include "strided/layout/layout.h"
#include "strided/memory/memory.h"
#include "strided/tensor/tensor.h"

namespace strided::fuzz {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "view_chains: %s\n  %s\n", what.c_str(), detail.c_str());
  std::abort();
}

void require(bool ok, const std::string& what, const std::string& detail = "") {
  if (!ok) fail(what, detail);
}

constexpr int64_t kSearchBudget = int64_t{1} << 14;

// The tensor a chain has reached, its reference, and the values of its storage by element offset.
struct State {
  Tensor tensor;
  Reference ref;
  std::vector<double> pool;
  std::string history;  // the ops so far, for failure messages
};

// Mostly small values in [lo, hi], sometimes the extremes an int64 argument can take.
int64_t arg(FuzzedDataProvider& in, int64_t lo, int64_t hi) {
  static constexpr int64_t kExtremes[] = {INT64_MIN,      INT64_MIN + 1, -(int64_t{1} << 62),
                                          -(int64_t{1} << 31), int64_t{1} << 31,
                                          int64_t{1} << 62,    INT64_MAX - 1, INT64_MAX};
  const uint8_t pick = in.ConsumeIntegral<uint8_t>();
  if (pick < 240) return in.ConsumeIntegralInRange<int64_t>(lo, hi);
  return kExtremes[pick % 8];
}

Ints args(FuzzedDataProvider& in, size_t max_count, int64_t lo, int64_t hi) {
  Ints out(in.ConsumeIntegralInRange<size_t>(0, max_count));
  for (int64_t& v : out) v = arg(in, lo, hi);
  return out;
}

std::optional<int64_t> maybe_arg(FuzzedDataProvider& in, int64_t lo, int64_t hi) {
  if (in.ConsumeBool()) return std::nullopt;
  return arg(in, lo, hi);
}

std::string ints(const Ints& v) { return to_string(IntList(v)); }

// Values that every dtype holds exactly, so a read-back compares with ==.
double pool_value(int64_t k, DType dtype) { return dtype == DType::Bool ? k % 2 : k; }

// ---- checks ---------------------------------------------------------------------------------------

std::vector<int64_t> sorted_unique(Ints v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Elements of out by the address formula over its own metadata, in 128-bit arithmetic so that a
// wrong stride shows as a wrong address rather than as overflow.
Ints addresses_of(const Tensor& out) {
  Ints result;
  const int64_t n = out.numel();
  Ints index(out.sizes().size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    __int128 a = out.storage_offset();
    for (size_t d = 0; d < index.size(); ++d) a += static_cast<__int128>(index[d]) * out.strides()[d];
    require(a >= 0 && a < (__int128{1} << 40), "an element's address is outside any storage",
            to_string(out.layout()));
    result.push_back(static_cast<int64_t>(a));
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < out.sizes()[d]) break;
      index[d] = 0;
    }
  }
  return result;
}

void check_values(const State& s, const Tensor& out, const Ints& addresses,
                  const std::string& where) {
  const std::vector<double> values = out.to_vector();
  require(values.size() == addresses.size(), "wrong number of values", where);
  const char* base = static_cast<const char*>(out.storage().data());
  for (size_t k = 0; k < addresses.size(); ++k) {
    const int64_t a = addresses[k];
    require(a >= 0 && a < static_cast<int64_t>(s.pool.size()), "address outside the storage",
            where + " element " + std::to_string(k) + " at " + std::to_string(a));
    require(values[k] == s.pool[a], "to_vector disagrees with the reference",
            where + " element " + std::to_string(k));
    const double raw = load_scalar(base + a * out.element_size(), out.dtype()).to_double();
    require(raw == s.pool[a], "the raw storage disagrees with the reference", where);
  }
}

// Everything memory.h and the predicates say about out (a tensor on the storage of prev, whose
// addresses are given), against what the address lists show.
void check_memory(const Tensor& out, const Ints& out_addresses, const Tensor& prev,
                  const Ints& prev_addresses, const std::string& where) {
  const std::vector<int64_t> a = sorted_unique(out_addresses), b = sorted_unique(prev_addresses);
  require(memory_set(out) == a, "memory_set differs from the reference's addresses", where);
  const bool included = std::includes(b.begin(), b.end(), a.begin(), a.end());
  require(is_view_of(out, prev) == included, "is_view_of differs from brute-force inclusion",
          where);
  std::vector<int64_t> common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  // A bounded search: each unit of work is a candidate the search weighs, and a budget of 2^14
  // keeps one step's checks to milliseconds. TooHard is an allowed answer, never a wrong one.
  const MemOverlap share = solve_may_share_memory(out, prev, kSearchBudget);
  require(share == MemOverlap::TooHard || (share == MemOverlap::Yes) == !common.empty(),
          "solve_may_share_memory differs from brute force", where);
  const bool duplicates = a.size() != out_addresses.size();
  const MemOverlap self = solve_may_have_internal_overlap(out, kSearchBudget);
  require(self == MemOverlap::TooHard || (self == MemOverlap::Yes) == duplicates,
          "solve_may_have_internal_overlap differs from brute force", where);
  const MemOverlap cheap = has_internal_overlap(out);
  require(cheap == MemOverlap::TooHard || (cheap == MemOverlap::Yes) == duplicates,
          "has_internal_overlap differs from brute force", where);
  const MemOverlapStatus status = get_overlap_status(out, prev);
  require(status != MemOverlapStatus::No || common.empty(), "get_overlap_status says No wrongly",
          where);
  // PyTorch answers Full for a tensor and itself before looking at its elements, even when it
  // has none (MemoryOverlap.cpp, get_overlap_status: a.is_same(b)).
  const bool same = out.sizes() == prev.sizes() && out.strides() == prev.strides() &&
                    out.storage_offset() == prev.storage_offset();
  require(same || (status != MemOverlapStatus::Full && status != MemOverlapStatus::Partial) ||
              !common.empty(),
          "get_overlap_status says they overlap wrongly", where);
  // Contiguous: the addresses are offset, offset+1, ... in row-major order. Dense and
  // non-overlapping: they are a permutation of one run.
  bool consecutive = true;
  for (size_t k = 0; k < out_addresses.size(); ++k)
    consecutive &= out_addresses[k] == out.storage_offset() + static_cast<int64_t>(k);
  require(out.is_contiguous() == consecutive, "is_contiguous differs from the addresses", where);
  const bool dense = a.empty() || (!duplicates && a.back() - a.front() + 1 ==
                                                      static_cast<int64_t>(a.size()));
  require(out.is_non_overlapping_and_dense() == dense,
          "is_non_overlapping_and_dense differs from the addresses", where);
}

// ---- one step -------------------------------------------------------------------------------------

enum class Kind {
  View,       // shares the storage and stays inside the input's memory
  Strided,    // as_strided: shares the storage, may reach any of it
  MaybeView,  // view(): a view, or refused when the strides do not allow it
  MaybeCopy,  // reshape, flatten, contiguous: a view or a contiguous copy
};

// Runs one op on s, compares it with the reference's answer, and moves s on. Returns false when
// the chain should stop (a result too large for the reference).
template <class Op>
bool step(State& s, const std::string& name, const std::string& call,
          const std::optional<Reference>& expected, Kind kind, Op&& op) {
  const std::string where = s.history + "." + call + " on " + to_string(s.tensor.layout()) +
                            " offset " + std::to_string(s.tensor.storage_offset());
  Tensor out;
  std::string error;
  try {
    out = op(s.tensor);
  } catch (const Error& e) {
    error = e.what();
    require(!error.empty(), "an empty error message", where);
  }
  if (!expected) {
    require(!error.empty(), "the library accepted what PyTorch refuses", where);
    // name lists the words that may name the op, '|'-separated: t() and mT are transposes.
    bool named = false;
    for (size_t at = 0; at <= name.size();) {
      const size_t bar = std::min(name.find('|', at), name.size());
      named |= error.find(name.substr(at, bar - at)) != std::string::npos;
      at = bar + 1;
    }
    require(named, "the error does not name the op", where + ": " + error);
    return true;
  }
  if (!error.empty()) {
    // Two refusals depend on the strides, which the reference has not: a view whose strides do
    // not allow it (reshape then copies), and a negative stride that wrapping arithmetic formed
    // (PyTorch's as_strided refuses it). The second can only come out on a dim that is never
    // stepped: the result has a dim of size 1 or no elements.
    const bool view_refusal =
        kind == Kind::MaybeView && error.find("view size is not compatible") != std::string::npos;
    const bool never_stepped =
        std::any_of(expected->sizes.begin(), expected->sizes.end(),
                    [](int64_t n) { return n <= 1; });
    const bool wrapped_stride =
        error.find("Negative strides are not supported at the moment") != std::string::npos &&
        never_stepped;
    require(view_refusal || wrapped_stride, "the library refused what PyTorch accepts",
            where + ": " + error);
    return true;
  }
  require(out.sizes() == expected->sizes, "wrong sizes",
          where + ": got " + ints(out.sizes()) + ", expected " + ints(expected->sizes));
  if (expected->too_big) return false;
  const bool shares = out.storage().is_same(s.tensor.storage());
  require(shares || kind == Kind::MaybeCopy, "a view op allocated", where);
  if (!shares) {
    // A copy: contiguous, at offset 0, holding the reference's values, and sharing nothing.
    require(out.is_contiguous() && out.storage_offset() == 0, "a copy is not contiguous", where);
    require(out.dtype() == s.tensor.dtype(), "a copy changed the dtype", where);
    std::vector<double> values;
    for (int64_t a : expected->addresses) values.push_back(s.pool[a]);
    require(out.to_vector() == values, "a copy's values differ from the reference", where);
    require(solve_may_share_memory(out, s.tensor) == MemOverlap::No, "a copy shares memory",
            where);
    s.pool = values;
    s.pool.resize(static_cast<size_t>(out.storage().nbytes() / out.element_size()), 0);
    Reference fresh = *expected;
    for (size_t k = 0; k < fresh.addresses.size(); ++k) fresh.addresses[k] = static_cast<int64_t>(k);
    s.tensor = out;
    s.ref = fresh;
    s.history += "." + call;
    return true;
  }
  const Ints addresses = addresses_of(out);
  require(
      addresses == expected->addresses, "the address formula differs from the reference",
      where + " -> " + to_string(out.layout()) + " offset " + std::to_string(out.storage_offset()));
  check_values(s, out, addresses, where);
  check_memory(out, addresses, s.tensor, s.ref.addresses, where);
  if (kind != Kind::Strided) {
    const std::vector<int64_t> a = sorted_unique(addresses), b = sorted_unique(s.ref.addresses);
    require(std::includes(b.begin(), b.end(), a.begin(), a.end()),
            "a view reaches memory its input does not", where);
  }
  s.tensor = out;
  s.ref = *expected;
  s.history += "." + call;
  return true;
}

std::string call_text(const char* name, std::initializer_list<std::string> parts) {
  std::string out = std::string(name) + "(";
  bool first = true;
  for (const std::string& p : parts) {
    out += (first ? "" : ", ") + p;
    first = false;
  }
  return out + ")";
}
std::string str(int64_t v) { return std::to_string(v); }
std::string str(std::optional<int64_t> v) { return v ? std::to_string(*v) : "None"; }

bool apply_one(FuzzedDataProvider& in, State& s) {
  const Reference& r = s.ref;
  const int64_t nd = static_cast<int64_t>(r.sizes.size());
  auto dim = [&] { return arg(in, -nd - 1, nd); };
  auto size_at = [&](int64_t d) {
    const int64_t n = std::max<int64_t>(nd, 1);
    if (d < -n || d >= n || nd == 0) return int64_t{1};
    return r.sizes[d < 0 ? d + n : d];
  };
  switch (in.ConsumeIntegralInRange(0, 18)) {
    case 0: {
      const int64_t d = dim(), i = arg(in, -size_at(d) - 1, size_at(d));
      return step(s, "select", call_text("select", {str(d), str(i)}), select(r, d, i), Kind::View,
                  [&](const Tensor& x) { return x.select(d, i); });
    }
    case 1: {
      const int64_t d = dim();
      const std::optional<int64_t> a = maybe_arg(in, -5, 5), b = maybe_arg(in, -5, 5);
      const int64_t st = arg(in, -1, 4);
      return step(s, "slice", call_text("slice", {str(d), str(a), str(b), str(st)}),
                  slice(r, d, a, b, st), Kind::View,
                  [&](const Tensor& x) { return x.slice(d, a, b, st); });
    }
    case 2: {
      const int64_t d = dim(), a = arg(in, -5, 5), len = arg(in, -1, 5);
      return step(s, "narrow", call_text("narrow", {str(d), str(a), str(len)}),
                  narrow(r, d, a, len), Kind::View,
                  [&](const Tensor& x) { return x.narrow(d, a, len); });
    }
    case 3: {
      Ints dims(static_cast<size_t>(nd));
      for (int64_t k = 0; k < nd; ++k) dims[k] = k;
      for (int64_t k = nd; k-- > 1;) std::swap(dims[k], dims[in.ConsumeIntegralInRange<int64_t>(0, k)]);
      if (in.ConsumeIntegralInRange(0, 7) == 0) dims = args(in, 5, -nd - 1, nd);  // maybe bad
      return step(s, "permute", "permute" + ints(dims), permute(r, dims), Kind::View,
                  [&](const Tensor& x) { return x.permute(dims); });
    }
    case 4: {
      const int64_t a = dim(), b = dim();
      return step(s, "transpose", call_text("transpose", {str(a), str(b)}), transpose(r, a, b),
                  Kind::View, [&](const Tensor& x) { return x.transpose(a, b); });
    }
    case 5:
      if (in.ConsumeBool())
        return step(s, "t()|transpose", "t()", t(r), Kind::View, [](const Tensor& x) { return x.t(); });
      return step(s, "mT|transpose", "mT()", mT(r), Kind::View, [](const Tensor& x) { return x.mT(); });
    case 6: {
      const int64_t a = dim(), b = dim();
      return step(s, "movedim|permute", call_text("movedim", {str(a), str(b)}), movedim(r, a, b),
                  Kind::View, [&](const Tensor& x) { return x.movedim(a, b); });
    }
    case 7: {
      const int64_t k = arg(in, -4, 4), a = dim(), b = dim();
      return step(s, "diagonal", call_text("diagonal", {str(k), str(a), str(b)}),
                  diagonal(r, k, a, b), Kind::View,
                  [&](const Tensor& x) { return x.diagonal(k, a, b); });
    }
    case 8: {
      // Mostly the tensor's own sizes with some 1s grown, a new leading dim or a -1.
      Ints target = r.sizes;
      if (in.ConsumeBool()) target.insert(target.begin(), arg(in, -1, 3));
      for (int64_t& v : target)
        if (in.ConsumeIntegralInRange(0, 3) == 0) v = arg(in, -2, 4);
      return step(s, "expand", "expand" + ints(target), expand(r, target), Kind::View,
                  [&](const Tensor& x) { return x.expand(target); });
    }
    case 9: {
      const int64_t d = arg(in, -nd - 2, nd + 1);
      if (nd >= 6) return true;  // keeps chains' tensors small
      return step(s, "unsqueeze", call_text("unsqueeze", {str(d)}), unsqueeze(r, d), Kind::View,
                  [&](const Tensor& x) { return x.unsqueeze(d); });
    }
    case 10: {
      const std::optional<int64_t> d = maybe_arg(in, -nd - 1, nd);
      return step(s, "squeeze", call_text("squeeze", {str(d)}), squeeze(r, d), Kind::View,
                  [&](const Tensor& x) { return d ? x.squeeze(*d) : x.squeeze(); });
    }
    case 11:
    case 12: {
      // A shape with the tensor's numel (from a factorisation) or a random one, maybe with a -1.
      Ints shape = args(in, 4, -2, 6);
      if (in.ConsumeBool()) {
        int64_t rest = static_cast<int64_t>(r.addresses.size());
        shape.clear();
        while (rest > 1 && shape.size() < 4) {
          int64_t f = in.ConsumeIntegralInRange<int64_t>(1, 4);
          while (rest % f != 0) --f;
          shape.push_back(f);
          rest /= f;
        }
        if (rest != 1 || r.addresses.empty()) shape.push_back(rest);
        if (!shape.empty() && in.ConsumeBool())
          shape[in.ConsumeIntegralInRange<size_t>(0, shape.size() - 1)] = -1;
      }
      const std::optional<Reference> expected = reshape(r, shape);
      if (in.ConsumeBool())
        return step(s, "view", "view" + ints(shape), expected, Kind::MaybeView,
                    [&](const Tensor& x) { return x.view(shape); });
      return step(s, "reshape", "reshape" + ints(shape), expected, Kind::MaybeCopy,
                  [&](const Tensor& x) { return x.reshape(shape); });
    }
    case 13: {
      const int64_t a = dim(), b = dim();
      return step(s, "flatten", call_text("flatten", {str(a), str(b)}), flatten(r, a, b),
                  Kind::MaybeCopy, [&](const Tensor& x) { return x.flatten(a, b); });
    }
    case 14: {
      const int64_t d = dim();
      const Ints split = args(in, 3, -2, 4);
      return step(s, "unflatten", call_text("unflatten", {str(d), ints(split)}),
                  unflatten(r, d, split), Kind::View,
                  [&](const Tensor& x) { return x.unflatten(d, split); });
    }
    case 15: {
      const int64_t d = dim(), size = arg(in, -1, 4), st = arg(in, -1, 3);
      return step(s, "unfold", call_text("unfold", {str(d), str(size), str(st)}),
                  unfold(r, d, size, st), Kind::View,
                  [&](const Tensor& x) { return x.unfold(d, size, st); });
    }
    case 16: {
      const Ints sizes = args(in, 3, -1, 4);
      Ints strides = args(in, 3, -1, 6);
      if (in.ConsumeBool()) strides.resize(sizes.size(), 1);
      const int64_t pool = static_cast<int64_t>(s.pool.size());
      const std::optional<int64_t> offset = maybe_arg(in, -1, pool);
      const std::optional<Reference> expected =
          as_strided(sizes, strides, offset.value_or(s.tensor.storage_offset()),
                     s.tensor.element_size(), s.tensor.storage().nbytes());
      return step(s, "as_strided",
                  call_text("as_strided", {ints(sizes), ints(strides), str(offset)}), expected,
                  Kind::Strided, [&](const Tensor& x) { return x.as_strided(sizes, strides, offset); });
    }
    case 17: {
      // contiguous(): the tensor itself when contiguous, else a copy.
      const bool was = s.tensor.is_contiguous();
      const Tensor before = s.tensor;
      const bool go = step(s, "contiguous", "contiguous()", s.ref, Kind::MaybeCopy,
                           [](const Tensor& x) { return x.contiguous(); });
      require(!was || s.tensor.storage().is_same(before.storage()),
              "contiguous() copied a contiguous tensor", s.history);
      return go;
    }
    default: {
      // Python's a[i]: basic indexing with an integer is select on dim 0.
      const int64_t i = arg(in, -3, 3);
      return step(s, "index", "[" + str(i) + "]", select(r, 0, i), Kind::View,
                  [&](const Tensor& x) { return x.index({i}); });
    }
  }
}

State start(FuzzedDataProvider& in) {
  static constexpr DType kDtypes[] = {DType::Bool,    DType::Int32,   DType::Int64,
                                      DType::Float16, DType::BFloat16, DType::Float32,
                                      DType::Float64, DType::UInt8,    DType::Int8,
                                      DType::Int16};
  State s;
  const DType dtype = in.PickValueInArray(kDtypes);
  const int64_t n = in.ConsumeIntegralInRange<int64_t>(1, 96);
  for (int64_t k = 0; k < n; ++k) s.pool.push_back(pool_value(k, dtype));
  const Tensor base = from_values(s.pool, {n}, {dtype});
  s.tensor = base;
  s.ref = from_layout({n}, {1}, 0);
  s.history = "storage(" + std::to_string(n) + ", " + std::string(name(dtype)) + ")";
  // The start layout: any strides over the storage, overlapping ones included.
  Ints sizes(in.ConsumeIntegralInRange<size_t>(0, 4)), strides(sizes.size());
  for (int64_t& v : sizes) v = in.ConsumeIntegralInRange<int64_t>(0, 4);
  for (int64_t& v : strides) v = in.ConsumeIntegralInRange<int64_t>(0, 8);
  const int64_t offset = in.ConsumeIntegralInRange<int64_t>(0, n);
  const std::optional<Reference> expected =
      as_strided(sizes, strides, offset, base.element_size(), base.storage().nbytes());
  step(s, "as_strided", call_text("as_strided", {ints(sizes), ints(strides), str(offset)}),
       expected, Kind::Strided,
       [&](const Tensor& x) { return x.as_strided(sizes, strides, offset); });
  return s;
}

}  // namespace
}  // namespace strided::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strided::fuzz;
  FuzzedDataProvider in(data, size);
  State s = start(in);
  for (int k = 0; k < 12 && in.remaining_bytes() > 0; ++k)
    if (!apply_one(in, s)) break;
  return 0;
}
