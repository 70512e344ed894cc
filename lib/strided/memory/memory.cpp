#include "strided/memory/memory.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "strided/core/error.h"
#include "strided/layout/layout.h"

namespace strided {

namespace {

using i128 = __int128;

constexpr i128 kInt64Max = std::numeric_limits<int64_t>::max();
constexpr i128 kInt64Min = std::numeric_limits<int64_t>::min();

// Offsets of every element, in row-major order of the index, after checking that the tensor is
// small enough to enumerate and that no offset overflows int64 (a Tensor built by hand may carry
// any strides; the answer must be an error, never a wrapped-around offset).
std::vector<int64_t> element_offsets(IntList sizes, IntList strides, int64_t offset, int64_t limit,
                                     const char* op) {
  STRIDED_CHECK(sizes.size() == strides.size(), op, "got ", sizes.size(), " sizes but ",
                strides.size(), " strides");
  const int64_t n = checked_numel(sizes, op);
  STRIDED_CHECK(n <= limit, op, "the tensor of shape ", to_string(sizes), " has ", n,
                " elements, more than the ", limit,
                " a memory set is enumerated for; slice it first");
  if (n == 0) return {};
  i128 lo = offset, hi = offset;
  for (size_t k = 0; k < sizes.size(); ++k) {
    const i128 reach = static_cast<i128>(sizes[k] - 1) * strides[k];
    (reach < 0 ? lo : hi) += reach;
  }
  STRIDED_CHECK(lo >= kInt64Min && hi <= kInt64Max, op, "the layout ",
                layout_string(sizes, strides), " with storage offset ", offset,
                " reaches offsets beyond int64");
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(n));
  for_each_index(sizes, {strides.vec()}, 0, n,
                 [&](const int64_t* off) { out.push_back(offset + off[0]); });
  return out;
}

// Extended Euclid on positive a, b: g = gcd(a, b) = gamma * a + epsilon * b, with
// |gamma| <= b / g and |epsilon| <= a / g, so nothing overflows int64.
void extended_gcd(int64_t a, int64_t b, int64_t& g, int64_t& gamma, int64_t& epsilon) {
  int64_t r0 = a, r1 = b, s0 = 1, s1 = 0, t0 = 0, t1 = 1;
  while (r1 != 0) {
    const int64_t q = r0 / r1;
    int64_t tmp = r0 - q * r1;
    r0 = r1;
    r1 = tmp;
    tmp = s0 - q * s1;
    s0 = s1;
    s1 = tmp;
    tmp = t0 - q * t1;
    t0 = t1;
    t1 = tmp;
  }
  g = r0;
  gamma = s0;
  epsilon = t0;
}

i128 floor_div(i128 a, i128 b) {  // b > 0
  i128 q = a / b;
  if ((a % b != 0) && (a < 0)) --q;
  return q;
}
i128 ceil_div(i128 a, i128 b) {  // b > 0
  i128 q = a / b;
  if ((a % b != 0) && (a > 0)) ++q;
  return q;
}

// NOTE: [The bounded Euclid search]
// Terms are sorted by coefficient, largest first. Level k treats the first k terms as one variable
// Y with coefficient G = gcd(a_0..a_{k-1}) and bound U = (sum_{i<k} a_i ub_i) / G, so that
//     G * Y + a_k * x_k = b.
// With g = gcd(G, a_k) = gamma * G + epsilon * a_k, every solution is
//     Y = gamma * b/g + (a_k/g) * t,   x_k = epsilon * b/g - (G/g) * t,
// and the bounds on Y and x_k leave an interval of t. For each t the search fixes x_k and goes one
// level down with b - a_k x_k; at level 1, Y is x_0 itself and any t in the interval is a solution.
// The relaxation Y in [0, U] is what makes this a search with pruning rather than an enumeration:
// most candidates die on divisibility (b % g != 0) or on an empty t interval.
class EuclidSearch {
 public:
  EuclidSearch(const std::vector<DiophantineTerm>& terms, int64_t max_work, bool nontrivial)
      : terms_(terms), max_work_(max_work), nontrivial_(nontrivial) {
    const size_t n = terms.size();
    g_.resize(n);
    u_.resize(n);
    gamma_.resize(n);
    epsilon_.resize(n);
    weight_.resize(n);
    x_.assign(n, 0);
    g_[0] = terms[0].a;
    u_[0] = terms[0].ub;
    weight_[0] = static_cast<i128>(terms[0].a) * terms[0].ub;
    for (size_t k = 1; k < n; ++k) {
      int64_t g, gamma, epsilon;
      extended_gcd(static_cast<int64_t>(g_[k - 1]), terms[k].a, g, gamma, epsilon);
      g_[k] = g;
      gamma_[k] = gamma;
      epsilon_[k] = epsilon;
      weight_[k] = weight_[k - 1] + static_cast<i128>(terms[k].a) * terms[k].ub;
      u_[k] = weight_[k] / g;  // G_k * U_k == sum_{i<=k} a_i ub_i
    }
  }

  MemOverlap run(i128 b) { return level(terms_.size() - 1, b); }
  const std::vector<i128>& solution() const { return x_; }

 private:
  MemOverlap level(size_t k, i128 b) {
    if (max_work_ >= 0 && work_ >= max_work_) return MemOverlap::TooHard;
    ++work_;
    // Outside [0, sum_{i<=k} a_i ub_i] no choice of the first k+1 variables reaches b.
    if (b < 0 || b > weight_[k]) return MemOverlap::No;
    const i128 G = g_[k - 1], U = u_[k - 1];
    const i128 a = terms_[k].a, ub = terms_[k].ub;
    const i128 g = g_[k];
    if (b % g != 0) return MemOverlap::No;
    const i128 c = b / g;
    const i128 y0 = gamma_[k] * c, x0 = epsilon_[k] * c;
    const i128 cy = a / g, cx = G / g;  // Y = y0 + cy t, x_k = x0 - cx t
    const i128 t_lo = std::max(ceil_div(-y0, cy), ceil_div(x0 - ub, cx));
    const i128 t_hi = std::min(floor_div(U - y0, cy), floor_div(x0, cx));
    if (t_lo > t_hi) return MemOverlap::No;
    if (k == 1) {
      // Y is x_0. Different t give different x_1, so at most one t gives the trivial solution.
      for (i128 t = t_lo; t <= t_hi && t <= t_lo + 1; ++t) {
        x_[0] = y0 + cy * t;
        x_[1] = x0 - cx * t;
        if (!nontrivial_ || !is_trivial()) return MemOverlap::Yes;
      }
      return MemOverlap::No;
    }
    for (i128 t = t_lo; t <= t_hi; ++t) {
      x_[k] = x0 - cx * t;
      const MemOverlap r = level(k - 1, b - a * x_[k]);
      if (r != MemOverlap::No) return r;
    }
    return MemOverlap::No;
  }

  bool is_trivial() const {
    for (size_t i = 0; i < terms_.size(); ++i)
      if (x_[i] != terms_[i].ub / 2) return false;
    return true;
  }

  const std::vector<DiophantineTerm>& terms_;
  int64_t max_work_;
  bool nontrivial_;
  int64_t work_ = 0;
  std::vector<i128> g_, u_, gamma_, epsilon_, weight_, x_;
};

// NumPy's diophantine_simplify: merge equal coefficients, cap each bound at b / a and drop
// variables that can only be 0. The yes/no answer is unchanged (not for the self-overlap
// problem, whose "x != ub/2" condition merging would change).
void simplify(std::vector<DiophantineTerm>& terms, int64_t b) {
  std::sort(terms.begin(), terms.end(),
            [](const DiophantineTerm& l, const DiophantineTerm& r) { return l.a > r.a; });
  std::vector<DiophantineTerm> merged;
  for (const DiophantineTerm& t : terms) {
    if (!merged.empty() && merged.back().a == t.a) {
      // Bounds are at most int64 each and capped right after, so compute the sum wide.
      const i128 sum = static_cast<i128>(merged.back().ub) + t.ub;
      merged.back().ub = static_cast<int64_t>(std::min<i128>(sum, kInt64Max));
    } else {
      merged.push_back(t);
    }
  }
  terms.clear();
  for (DiophantineTerm t : merged) {
    t.ub = std::min(t.ub, b / t.a);
    if (t.ub > 0) terms.push_back(t);
  }
}

// A strided operand of the overlap problem, in some unit (elements or bytes).
struct SetOperand {
  Shape sizes, strides;
  i128 start = 0;  // first unit touched
  i128 end = 0;    // one past the last unit touched (start == end: empty)
  int64_t item = 1;
};

SetOperand make_operand(const Tensor& t, int64_t unit) {
  // unit is 1 (elements) or the item size (bytes), so strides and offsets scale by item / unit.
  SetOperand o;
  o.item = t.element_size() / unit;
  o.sizes = t.sizes();
  for (int64_t s : t.strides()) o.strides.push_back(s);
  const i128 scale = o.item;
  i128 lo = static_cast<i128>(t.storage_offset()) * scale, hi = lo;
  for (size_t k = 0; k < o.sizes.size(); ++k) {
    if (o.sizes[k] == 0) {
      o.start = o.end = 0;
      return o;
    }
    const i128 reach = static_cast<i128>(o.sizes[k] - 1) * t.strides()[k] * scale;
    (reach < 0 ? lo : hi) += reach;
  }
  o.start = lo;
  o.end = hi + o.item;
  return o;
}

bool fits_int64(i128 v) { return v >= kInt64Min && v <= kInt64Max; }

}  // namespace

// ---- memory sets -----------------------------------------------------------------------------------

std::vector<int64_t> memory_set(IntList sizes, IntList strides, int64_t storage_offset,
                                int64_t limit) {
  std::vector<int64_t> out = element_offsets(sizes, strides, storage_offset, limit, "memory_set");
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<int64_t> memory_set(const Tensor& t, int64_t limit) {
  STRIDED_CHECK(t.defined(), "memory_set", "the tensor is undefined");
  return memory_set(t.sizes(), t.strides(), t.storage_offset(), limit);
}

std::vector<int64_t> memory_set_bytes(const Tensor& t, int64_t limit) {
  const std::vector<int64_t> elements = memory_set(t, limit);
  const int64_t item = t.element_size();
  STRIDED_CHECK(elements.empty() || (fits_int64(static_cast<i128>(elements.back()) * item + item) &&
                                     fits_int64(static_cast<i128>(elements.front()) * item)),
                "memory_set_bytes", "byte offsets of ", t.layout(), " overflow int64");
  std::vector<int64_t> out;
  out.reserve(elements.size() * static_cast<size_t>(item));
  for (int64_t e : elements)
    for (int64_t k = 0; k < item; ++k) out.push_back(e * item + k);
  return out;
}

std::vector<Interval> to_intervals(const std::vector<int64_t>& sorted_set) {
  std::vector<Interval> out;
  for (int64_t v : sorted_set) {
    if (!out.empty() && out.back().end == v) {
      ++out.back().end;
    } else {
      STRIDED_CHECK(out.empty() || v > out.back().end, "to_intervals",
                    "the set is not sorted and "
                    "duplicate-free (",
                    v, " follows ", out.back().end - 1, ")");
      out.push_back({v, v + 1});
    }
  }
  return out;
}

std::vector<Interval> memory_intervals(const Tensor& t, int64_t limit) {
  return to_intervals(memory_set(t, limit));
}

std::vector<MemoryUse> memory_uses(IntList sizes, IntList strides, int64_t storage_offset,
                                   int64_t limit) {
  std::vector<int64_t> all = element_offsets(sizes, strides, storage_offset, limit, "memory_uses");
  std::sort(all.begin(), all.end());
  std::vector<MemoryUse> out;
  for (int64_t v : all) {
    if (!out.empty() && out.back().offset == v) ++out.back().uses;
    else out.push_back({v, 1});
  }
  return out;
}

std::vector<MemoryUse> memory_uses(const Tensor& t, int64_t limit) {
  STRIDED_CHECK(t.defined(), "memory_uses", "the tensor is undefined");
  return memory_uses(t.sizes(), t.strides(), t.storage_offset(), limit);
}

bool is_view_of(const Tensor& a, const Tensor& b, int64_t limit) {
  STRIDED_CHECK(a.defined() && b.defined(), "is_view_of", "a tensor is undefined");
  if (!a.storage().is_same(b.storage())) return false;
  if (a.numel() == 0) return true;
  if (b.numel() == 0) return false;
  // Compare in bytes when the item sizes differ (a reinterpreting view), else in elements.
  const int64_t unit = a.element_size() == b.element_size() ? a.element_size() : 1;
  const SetOperand oa = make_operand(a, unit), ob = make_operand(b, unit);
  if (oa.start < ob.start || oa.end > ob.end) return false;  // a reaches outside b's extent
  // A non-overlapping and dense b covers its whole extent: nothing left to check.
  if (b.is_non_overlapping_and_dense()) return true;
  if (a.element_size() != b.element_size()) {
    const std::vector<int64_t> sa = memory_set_bytes(a, limit), sb = memory_set_bytes(b, limit);
    return std::includes(sb.begin(), sb.end(), sa.begin(), sa.end());
  }
  const std::vector<int64_t> sa = memory_set(a, limit), sb = memory_set(b, limit);
  return std::includes(sb.begin(), sb.end(), sa.begin(), sa.end());
}

// ---- the exact overlap tests ----------------------------------------------------------------------

MemOverlap solve_diophantine(std::vector<DiophantineTerm> terms, int64_t b, int64_t max_work,
                             bool require_nontrivial, std::vector<int64_t>* solution) {
  for (const DiophantineTerm& t : terms) {
    STRIDED_CHECK(t.a > 0, "solve_diophantine", "every coefficient must be positive, got ", t.a);
    if (t.ub < 0) return MemOverlap::No;
  }
  i128 target = b;
  if (require_nontrivial) {
    target = 0;
    for (const DiophantineTerm& t : terms) {
      STRIDED_CHECK(t.ub % 2 == 0, "solve_diophantine",
                    "with require_nontrivial every bound must "
                    "be even, got ",
                    t.ub);
      target += static_cast<i128>(t.a) * (t.ub / 2);
    }
  }
  if (target < 0) return MemOverlap::No;
  // The search keeps every intermediate below 2^127 when sum a_i ub_i < 2^64 (see the NOTE);
  // beyond that it declines rather than risk an overflow.
  i128 weight = 0;
  for (const DiophantineTerm& t : terms) {
    weight += static_cast<i128>(t.a) * t.ub;
    if (weight >= (i128{1} << 64)) return MemOverlap::TooHard;
  }
  const size_t n = terms.size();
  if (n == 0 || (n == 1 && require_nontrivial)) {
    // No variable, or one whose only solution is the trivial one.
    if (require_nontrivial || target != 0) return MemOverlap::No;
    if (solution) solution->clear();
    return MemOverlap::Yes;
  }
  if (n == 1) {
    if (target % terms[0].a != 0 || target / terms[0].a > terms[0].ub) return MemOverlap::No;
    if (solution) *solution = {static_cast<int64_t>(target / terms[0].a)};
    return MemOverlap::Yes;
  }
  if (max_work == 0) return MemOverlap::TooHard;
  EuclidSearch search(terms, max_work, require_nontrivial);
  const MemOverlap r = search.run(target);
  if (r == MemOverlap::Yes && solution) {
    solution->clear();
    for (i128 v : search.solution()) solution->push_back(static_cast<int64_t>(v));
  }
  return r;
}

MemOverlap solve_may_share_memory(const Tensor& a, const Tensor& b, int64_t max_work) {
  STRIDED_CHECK(a.defined() && b.defined(), "solve_may_share_memory", "a tensor is undefined");
  if (!a.storage().is_same(b.storage())) return MemOverlap::No;
  // Elements when the item sizes agree (every stride and offset is then a whole number of items);
  // bytes otherwise, with the bytes of one item as one more dim of stride 1 (mem_overlap.c).
  const int64_t unit = a.element_size() == b.element_size() ? a.element_size() : 1;
  const SetOperand oa = make_operand(a, unit), ob = make_operand(b, unit);
  if (!(oa.start < oa.end && ob.start < ob.end && oa.start < ob.end && ob.start < oa.end))
    return MemOverlap::No;  // an empty operand, or extents that do not meet
  if (max_work == 0) return MemOverlap::TooHard;
  // With every stride made positive (x -> size-1-x), a meets b when
  //   sum |sa| xa + sum |sb| xb' == end_b - 1 - start_a   (or the mirror problem);
  // the smaller right-hand side makes the smaller search.
  const i128 rhs = std::min(ob.end - 1 - oa.start, oa.end - 1 - ob.start);
  if (!fits_int64(rhs)) return MemOverlap::TooHard;
  std::vector<DiophantineTerm> terms;
  for (const SetOperand* o : {&oa, &ob}) {
    for (size_t k = 0; k < o->sizes.size(); ++k) {
      if (o->sizes[k] <= 1 || o->strides[k] == 0) continue;  // adds nothing to the reach
      const i128 stride = o->strides[k];
      const i128 a_k = (stride < 0 ? -stride : stride) * o->item;  // in the operand's unit
      terms.push_back({static_cast<int64_t>(a_k), o->sizes[k] - 1});
    }
    if (o->item > 1) terms.push_back({1, o->item - 1});
  }
  const int64_t target = static_cast<int64_t>(rhs);
  simplify(terms, target);
  return solve_diophantine(std::move(terms), target, max_work);
}

MemOverlap solve_may_have_internal_overlap(IntList sizes, IntList strides, int64_t max_work) {
  STRIDED_CHECK(sizes.size() == strides.size(), "solve_may_have_internal_overlap", "got ",
                sizes.size(), " sizes but ", strides.size(), " strides");
  if (is_non_overlapping_and_dense(Layout(sizes.vec(), strides.vec()))) return MemOverlap::No;
  // Two indices x != y with sum s (x - y) == 0. With z = x - y + ub (0 <= z <= 2 ub) this is
  //   sum |s| z == sum |s| ub,  z != ub,
  // the nontrivial form of solve_diophantine (mem_overlap.c, solve_may_have_internal_overlap).
  // Elements suffice here: two items overlap exactly when their element offsets are equal.
  // No elements, no overlap, whatever the strides (checked before the stride-0 shortcut below).
  if (std::find(sizes.begin(), sizes.end(), 0) != sizes.end()) return MemOverlap::No;
  std::vector<DiophantineTerm> terms;
  for (size_t k = 0; k < sizes.size(); ++k) {
    if (sizes[k] == 1) continue;
    if (strides[k] == 0) return MemOverlap::Yes;
    const i128 a = strides[k] < 0 ? -static_cast<i128>(strides[k]) : strides[k];
    const i128 ub = 2 * static_cast<i128>(sizes[k] - 1);
    if (!fits_int64(a) || !fits_int64(ub)) return MemOverlap::TooHard;
    terms.push_back({static_cast<int64_t>(a), static_cast<int64_t>(ub)});
  }
  std::stable_sort(terms.begin(), terms.end(),
                   [](const DiophantineTerm& l, const DiophantineTerm& r) { return l.a > r.a; });
  return solve_diophantine(std::move(terms), 0, max_work, /*require_nontrivial=*/true);
}

MemOverlap solve_may_have_internal_overlap(const Tensor& t, int64_t max_work) {
  STRIDED_CHECK(t.defined(), "solve_may_have_internal_overlap", "the tensor is undefined");
  return solve_may_have_internal_overlap(t.sizes(), t.strides(), max_work);
}

// ---- PyTorch's cheap tests ------------------------------------------------------------------------

MemOverlap has_internal_overlap(const Tensor& t) {
  STRIDED_CHECK(t.defined(), "has_internal_overlap", "the tensor is undefined");
  return has_internal_overlap(t.layout());
}

MemOverlapStatus get_overlap_status(const Tensor& a, const Tensor& b) {
  STRIDED_CHECK(a.defined() && b.defined(), "get_overlap_status", "a tensor is undefined");
  const bool same = a.storage().is_same(b.storage()) && a.dtype() == b.dtype() &&
                    a.sizes() == b.sizes() && a.strides() == b.strides() &&
                    a.storage_offset() == b.storage_offset();
  if (same) return MemOverlapStatus::Full;
  if (a.numel() == 0 || b.numel() == 0) return MemOverlapStatus::No;
  if (!a.is_non_overlapping_and_dense() || !b.is_non_overlapping_and_dense())
    return MemOverlapStatus::TooHard;
  if (a.storage().is_same(b.storage())) {
    // Byte ranges from the storage's start; a dense tensor fills [data_ptr, data_ptr + nbytes).
    const i128 a_begin = static_cast<i128>(a.storage_offset()) * a.element_size();
    const i128 a_end = a_begin + static_cast<i128>(a.numel()) * a.element_size();
    const i128 b_begin = static_cast<i128>(b.storage_offset()) * b.element_size();
    const i128 b_end = b_begin + static_cast<i128>(b.numel()) * b.element_size();
    if (a_begin == b_begin && a_end == b_end)
      return a.strides() == b.strides() ? MemOverlapStatus::Full : MemOverlapStatus::Partial;
    if (a_begin < b_end && b_begin < a_end) return MemOverlapStatus::Partial;
  }
  return MemOverlapStatus::No;
}

const char* to_string(MemOverlap v) {
  switch (v) {
    case MemOverlap::No: return "No";
    case MemOverlap::Yes: return "Yes";
    case MemOverlap::TooHard: break;
  }
  return "TooHard";
}

const char* to_string(MemOverlapStatus v) {
  switch (v) {
    case MemOverlapStatus::Full: return "Full";
    case MemOverlapStatus::Partial: return "Partial";
    case MemOverlapStatus::No: return "No";
    case MemOverlapStatus::TooHard: break;
  }
  return "TooHard";
}

}  // namespace strided
