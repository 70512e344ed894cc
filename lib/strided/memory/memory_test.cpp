#include "strided/memory/memory.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <random>

using namespace strided;

namespace {

// A tensor over a given storage with any layout: the tests build views by hand so that they do
// not depend on the view ops.
Tensor over(const Storage& s, Shape sizes, Shape strides, int64_t offset,
            DType dtype = DType::Float32) {
  return Tensor(s, std::move(sizes), std::move(strides), offset, dtype);
}
Storage storage_of(int64_t elements, DType dtype = DType::Float32) {
  return Storage::allocate(elements * itemsize(dtype));
}

std::vector<int64_t> range(int64_t begin, int64_t end) {
  std::vector<int64_t> out;
  for (int64_t v = begin; v < end; ++v) out.push_back(v);
  return out;
}

bool intersects(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  return !both.empty();
}

// A small random layout: up to max_dims dims of size 0 to max_size (size 0 rarely, size 1
// often), strides 0 to max_stride, offset 0 to 8.
struct RandomLayout {
  Shape sizes, strides;
  int64_t offset = 0;
};
RandomLayout random_layout(std::mt19937_64& rng, int max_dims = 3, int max_size = 4,
                           int max_stride = 6) {
  RandomLayout l;
  const int ndim = static_cast<int>(rng() % static_cast<uint64_t>(max_dims + 1));
  for (int d = 0; d < ndim; ++d) {
    const uint64_t r = rng() % static_cast<uint64_t>(3 * max_size);
    l.sizes.push_back(r == 0 ? 0 : static_cast<int64_t>(1 + r % static_cast<uint64_t>(max_size)));
    l.strides.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(max_stride + 1)));
  }
  l.offset = static_cast<int64_t>(rng() % 9);
  return l;
}
int64_t reach(const RandomLayout& l) {
  return extent(Layout(l.sizes, l.strides, l.offset)).max + 1;
}

}  // namespace

TEST_CASE("the memory set of the seed's examples (MT-08), in bytes") {
  const Storage s = storage_of(6);
  const Tensor x = over(s, {2, 3}, {3, 1}, 0);
  CHECK(memory_set_bytes(x) == range(0, 24));
  // The transpose visits the same bytes in another order.
  CHECK(memory_set_bytes(over(s, {3, 2}, {1, 3}, 0)) == range(0, 24));
  // The column x[:, 1]: elements 1 and 4, bytes 4..7 and 16..19.
  std::vector<int64_t> column = range(4, 8);
  for (int64_t b : range(16, 20)) column.push_back(b);
  CHECK(memory_set_bytes(over(s, {2}, {3}, 1)) == column);
  // An expand reuses its source's memory: the set is that of the source.
  const Tensor row = over(s, {1, 3}, {3, 1}, 3);
  const Tensor expanded = over(s, {4, 3}, {0, 1}, 3);
  CHECK(memory_set(expanded) == memory_set(row));
  CHECK(memory_set(expanded) == std::vector<int64_t>{3, 4, 5});
}

TEST_CASE("memory sets do not depend on the storage and are empty for empty tensors") {
  const Tensor big = over(storage_of(100), {2, 2}, {10, 1}, 5);
  const Tensor small = over(storage_of(17), {2, 2}, {10, 1}, 5);
  CHECK(memory_set(big) == memory_set(small));
  CHECK(memory_set(big) == std::vector<int64_t>{5, 6, 15, 16});
  CHECK(memory_set(over(storage_of(4), {0, 3}, {3, 1}, 0)).empty());
  CHECK(memory_set(over(storage_of(4), {}, {}, 2)) == std::vector<int64_t>{2});  // 0-d
  CHECK(memory_set({3}, {-2}, 6) == std::vector<int64_t>{2, 4, 6});  // a NumPy-style layout
}

TEST_CASE("intervals and use counts") {
  CHECK(to_intervals({0, 1, 2, 5, 6}) == std::vector<Interval>{{0, 3}, {5, 7}});
  CHECK(to_intervals({}).empty());
  CHECK_THROWS_AS(to_intervals({3, 1}), Error);
  const Storage s = storage_of(24);
  CHECK(memory_intervals(over(s, {2, 3, 2}, {12, 4, 1}, 1)) ==
        std::vector<Interval>{{1, 3}, {5, 7}, {9, 11}, {13, 15}, {17, 19}, {21, 23}});
  // A broadcast: row 0..2 used by each of 4 rows.
  CHECK(memory_uses(over(s, {4, 3}, {0, 1}, 0)) ==
        std::vector<MemoryUse>{{0, 4}, {1, 4}, {2, 4}});
  // unfold(0, 3, 1) of 5 elements: windows overlap, the middle is used three times.
  CHECK(memory_uses(over(s, {3, 3}, {1, 1}, 0)) ==
        std::vector<MemoryUse>{{0, 1}, {1, 2}, {2, 3}, {3, 2}, {4, 1}});
}

TEST_CASE("memory sets refuse what they cannot enumerate, naming the tensor") {
  const Tensor t = over(storage_of(1), {1 << 13, 1 << 12}, {0, 0}, 0);
  try {
    (void)memory_set(t);
    FAIL("expected an error");
  } catch (const Error& e) {
    const std::string m = e.what();
    CHECK(m.find("memory_set") != std::string::npos);
    CHECK(m.find("[8192, 4096]") != std::string::npos);
    CHECK(m.find("16777216") != std::string::npos);
  }
  CHECK_THROWS_AS(memory_set(t.sizes(), t.strides(), 0, 10), Error);
  // Strides whose offsets leave int64 are an error, not a wrapped-around answer.
  const int64_t huge = std::numeric_limits<int64_t>::max() / 2;
  CHECK_THROWS_AS(memory_set({4}, {huge}, 0), Error);
  CHECK_THROWS_AS(memory_set({2}, {1, 1}, 0), Error);
  CHECK_THROWS_AS(memory_set(Tensor()), Error);
}

TEST_CASE("is_view_of: memory-set inclusion on one storage (VW-01)") {
  const Storage s = storage_of(24);
  const Tensor base = over(s, {2, 3, 4}, {12, 4, 1}, 0);
  CHECK(is_view_of(base, base));
  CHECK(is_view_of(over(s, {4, 3, 2}, {1, 4, 12}, 0), base));     // permute
  CHECK(is_view_of(over(s, {}, {}, 10), base));                     // an element
  CHECK(is_view_of(over(s, {2, 2}, {12, 5}, 0), base));             // diagonal
  CHECK(is_view_of(over(s, {5, 2, 4}, {0, 12, 1}, 4), base));       // expand of [:, 1]
  CHECK_FALSE(is_view_of(base, over(s, {2, 4}, {12, 1}, 4)));       // the base is bigger
  CHECK_FALSE(is_view_of(over(storage_of(24), {2, 3, 4}, {12, 4, 1}, 0), base));  // a copy
  // Inclusion in a base that is itself a strided view needs the enumeration.
  const Tensor every_other = over(s, {12}, {2}, 0);
  CHECK(is_view_of(over(s, {3}, {4}, 2), every_other));
  CHECK_FALSE(is_view_of(over(s, {3}, {4}, 1), every_other));
  // An empty tensor is a view of anything on its storage.
  CHECK(is_view_of(over(s, {0}, {1}, 0), every_other));
  // Bytes decide across dtypes: an int32 view of the first float32 element's bytes.
  const Tensor as_int = over(s, {2}, {1}, 0, DType::Int32);
  CHECK(is_view_of(as_int, base));
  CHECK_FALSE(is_view_of(base, as_int));
}

TEST_CASE("the Diophantine solver on hand-made equations") {
  std::vector<int64_t> x;
  // 20 x1 + 7 x2 + 3 x3 = 78 with x1 <= 6, x2 <= 2, x3 <= 5: infeasible (mem_overlap.c's example).
  CHECK(solve_diophantine({{20, 6}, {7, 2}, {3, 5}}, 78, kMaxWorkExact) == MemOverlap::No);
  CHECK(solve_diophantine({{20, 6}, {7, 2}, {3, 5}}, 78, 1) == MemOverlap::TooHard);
  // 20 x1 + 7 x2 + 3 x3 = 77 = 20*2 + 7*1 + 3*10? x3 <= 5, but 20*3 + 7*2 + 3*1 = 77 works.
  REQUIRE(solve_diophantine({{20, 6}, {7, 2}, {3, 5}}, 77, kMaxWorkExact, false, &x) ==
          MemOverlap::Yes);
  REQUIRE(x.size() == 3);
  CHECK(20 * x[0] + 7 * x[1] + 3 * x[2] == 77);
  CHECK((x[0] <= 6 && x[1] <= 2 && x[2] <= 5 && x[0] >= 0 && x[1] >= 0 && x[2] >= 0));
  CHECK(solve_diophantine({}, 0, kMaxWorkExact) == MemOverlap::Yes);
  CHECK(solve_diophantine({}, 3, kMaxWorkExact) == MemOverlap::No);
  CHECK(solve_diophantine({{4, 3}}, 8, kMaxWorkExact) == MemOverlap::Yes);
  CHECK(solve_diophantine({{4, 1}}, 8, kMaxWorkExact) == MemOverlap::No);
  CHECK(solve_diophantine({{4, 3}}, -4, kMaxWorkExact) == MemOverlap::No);
  // The self-overlap form: 2 z1 + 3 z2 = 2*1 + 3*1 with z != (1, 1) has no other solution...
  CHECK(solve_diophantine({{3, 2}, {2, 2}}, 0, kMaxWorkExact, true) == MemOverlap::No);
  // ...but 2 z1 + 2 z2 = 4 does: (0, 2).
  CHECK(solve_diophantine({{2, 2}, {2, 2}}, 0, kMaxWorkExact, true) == MemOverlap::Yes);
  CHECK_THROWS_AS(solve_diophantine({{0, 2}}, 0, kMaxWorkExact), Error);
  CHECK_THROWS_AS(solve_diophantine({{2, 3}}, 0, kMaxWorkExact, true), Error);
  // Coefficients near int64's limit: no overflow, an answer or TooHard.
  const int64_t big = std::numeric_limits<int64_t>::max();
  CHECK(solve_diophantine({{big, 1}, {big - 1, 1}}, big, kMaxWorkExact) == MemOverlap::Yes);
  CHECK(solve_diophantine({{big, 4}, {big - 1, 4}}, big, kMaxWorkExact) == MemOverlap::TooHard);
}

TEST_CASE("exact overlap agrees with brute force on random small layouts") {
  std::mt19937_64 rng(20240613);
  int yes = 0, no = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const RandomLayout la = random_layout(rng), lb = random_layout(rng);
    const Storage s = storage_of(std::max<int64_t>({reach(la), reach(lb), 1}));
    const Tensor a = over(s, la.sizes, la.strides, la.offset);
    const Tensor b = over(s, lb.sizes, lb.strides, lb.offset);
    const bool truth = intersects(memory_set(a), memory_set(b));
    INFO("a = ", a.layout(), " + ", la.offset, ", b = ", b.layout(), " + ", lb.offset);
    REQUIRE(solve_may_share_memory(a, b, kMaxWorkExact) ==
            (truth ? MemOverlap::Yes : MemOverlap::No));
    // A bounded budget may give up, but never gives a wrong answer.
    const MemOverlap bounded = solve_may_share_memory(a, b, 2);
    REQUIRE((bounded == MemOverlap::TooHard || bounded == (truth ? MemOverlap::Yes
                                                                  : MemOverlap::No)));
    (truth ? yes : no) += 1;
    // PyTorch's cheap test is never wrong either, only less often sure.
    const MemOverlapStatus cheap = get_overlap_status(a, b);
    if (cheap == MemOverlapStatus::No) REQUIRE_FALSE(truth);
    if (cheap == MemOverlapStatus::Full || cheap == MemOverlapStatus::Partial)
      REQUIRE((truth || a.numel() == 0));
    // is_view_of is inclusion of the memory sets.
    const std::vector<int64_t> sa = memory_set(a), sb = memory_set(b);
    REQUIRE(is_view_of(a, b) == std::includes(sb.begin(), sb.end(), sa.begin(), sa.end()));
  }
  CHECK(yes > 500);  // both answers are well represented
  CHECK(no > 500);
}

TEST_CASE("exact self-overlap agrees with brute force on random small layouts") {
  std::mt19937_64 rng(7);
  int yes = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    RandomLayout l = random_layout(rng);
    if (trial % 2 == 0) {  // more dims make harder problems
      l.sizes.push_back(static_cast<int64_t>(1 + rng() % 3));
      l.strides.push_back(static_cast<int64_t>(rng() % 5));
    }
    const std::vector<MemoryUse> uses = memory_uses(l.sizes, l.strides, l.offset);
    const bool truth = std::any_of(uses.begin(), uses.end(),
                                   [](const MemoryUse& u) { return u.uses > 1; });
    INFO("layout ", layout_string(l.sizes, l.strides));
    REQUIRE(solve_may_have_internal_overlap(l.sizes, l.strides, kMaxWorkExact) ==
            (truth ? MemOverlap::Yes : MemOverlap::No));
    // PyTorch's cheap test is right when it answers, for tensors with elements: it looks at
    // sizes and strides only, so (3,0,2):(3,0,0) is "Yes" although it has no element at all.
    const MemOverlap cheap = has_internal_overlap(Layout(l.sizes, l.strides));
    if (cheap != MemOverlap::TooHard && !uses.empty())
      REQUIRE(cheap == (truth ? MemOverlap::Yes : MemOverlap::No));
    yes += truth;
  }
  CHECK(yes > 1000);
}

TEST_CASE("exact overlap agrees with brute force on larger layouts with long strides") {
  // Long strides and four dims give the search real work: several candidates per level.
  std::mt19937_64 rng(31337);
  for (int trial = 0; trial < 1500; ++trial) {
    const RandomLayout la = random_layout(rng, 4, 5, 40), lb = random_layout(rng, 4, 5, 40);
    const Storage s = storage_of(std::max<int64_t>({reach(la), reach(lb), 1}));
    const Tensor a = over(s, la.sizes, la.strides, la.offset);
    const Tensor b = over(s, lb.sizes, lb.strides, lb.offset);
    INFO("a = ", a.layout(), " + ", la.offset, ", b = ", b.layout(), " + ", lb.offset);
    REQUIRE(solve_may_share_memory(a, b, kMaxWorkExact) ==
            (intersects(memory_set(a), memory_set(b)) ? MemOverlap::Yes : MemOverlap::No));
    const std::vector<MemoryUse> uses = memory_uses(a);
    const bool repeats = std::any_of(uses.begin(), uses.end(),
                                     [](const MemoryUse& u) { return u.uses > 1; });
    REQUIRE(solve_may_have_internal_overlap(a, kMaxWorkExact) ==
            (repeats ? MemOverlap::Yes : MemOverlap::No));
  }
}

TEST_CASE("overlap across dtypes is decided byte by byte") {
  std::mt19937_64 rng(99);
  const DType kinds[] = {DType::Bool, DType::Int32, DType::Int64, DType::Float16};
  for (int trial = 0; trial < 2000; ++trial) {
    const RandomLayout la = random_layout(rng), lb = random_layout(rng);
    const DType da = kinds[rng() % 4], db = kinds[rng() % 4];
    const int64_t bytes =
        std::max<int64_t>({reach(la) * itemsize(da), reach(lb) * itemsize(db), 1});
    const Storage s = Storage::allocate(bytes);
    const Tensor a = over(s, la.sizes, la.strides, la.offset, da);
    const Tensor b = over(s, lb.sizes, lb.strides, lb.offset, db);
    const std::vector<int64_t> sa = memory_set_bytes(a), sb = memory_set_bytes(b);
    INFO(a.layout(), " ", name(da), " + ", la.offset, " vs ", b.layout(), " ", name(db), " + ",
         lb.offset);
    REQUIRE(solve_may_share_memory(a, b, kMaxWorkExact) ==
            (intersects(sa, sb) ? MemOverlap::Yes : MemOverlap::No));
    REQUIRE(is_view_of(a, b) == std::includes(sb.begin(), sb.end(), sa.begin(), sa.end()));
  }
}

TEST_CASE("the overlap tests on the book's cases") {
  const Storage s = storage_of(80, DType::Int64);
  const Tensor x = over(s, {4, 20}, {20, 1}, 0, DType::Int64);
  // x[:, ::2] and x[:, 1::2] interleave without meeting.
  CHECK(solve_may_share_memory(over(s, {4, 10}, {20, 2}, 0, DType::Int64),
                               over(s, {4, 10}, {20, 2}, 1, DType::Int64)) == MemOverlap::No);
  // x[:, ::7] and x[:, 3::3]: disjoint, but only a search shows it (mem_overlap.c's example).
  const Tensor a = over(s, {4, 3}, {20, 7}, 0, DType::Int64);
  const Tensor b = over(s, {4, 6}, {20, 3}, 3, DType::Int64);
  CHECK(solve_may_share_memory(a, b, kMaxWorkExact) == MemOverlap::No);
  CHECK(solve_may_share_memory(a, b, kMaxWorkBounds) == MemOverlap::TooHard);
  CHECK(get_overlap_status(a, b) == MemOverlapStatus::TooHard);
  // Different storages never overlap; a tensor fully overlaps itself.
  CHECK(solve_may_share_memory(x, over(storage_of(80, DType::Int64), {4, 20}, {20, 1}, 0,
                                       DType::Int64)) == MemOverlap::No);
  CHECK(get_overlap_status(x, x) == MemOverlapStatus::Full);
  CHECK(solve_may_share_memory(x, x) == MemOverlap::Yes);
  // Two rows: disjoint; the first two rows and rows 1..2: partial; x and its transpose view
  // cover the same bytes with other strides: partial for PyTorch.
  const Tensor row0 = over(s, {20}, {1}, 0, DType::Int64);
  const Tensor row1 = over(s, {20}, {1}, 20, DType::Int64);
  CHECK(get_overlap_status(row0, row1) == MemOverlapStatus::No);
  CHECK(get_overlap_status(over(s, {2, 20}, {20, 1}, 0, DType::Int64),
                           over(s, {2, 20}, {20, 1}, 20, DType::Int64)) ==
        MemOverlapStatus::Partial);
  CHECK(get_overlap_status(x, over(s, {20, 4}, {1, 20}, 0, DType::Int64)) ==
        MemOverlapStatus::Partial);
  CHECK(get_overlap_status(row0, over(s, {0}, {1}, 0, DType::Int64)) == MemOverlapStatus::No);
  // Self-overlap: unfold(0, 3, 1) overlaps, a diagonal does not, an expand does.
  CHECK(solve_may_have_internal_overlap({18, 3}, {1, 1}) == MemOverlap::Yes);
  CHECK(has_internal_overlap(Layout({18, 3}, {1, 1})) == MemOverlap::TooHard);
  CHECK(solve_may_have_internal_overlap({4}, {21}) == MemOverlap::No);
  CHECK(solve_may_have_internal_overlap(over(s, {3, 20}, {0, 1}, 0)) == MemOverlap::Yes);
  CHECK(has_internal_overlap(over(s, {3, 20}, {0, 1}, 0)) == MemOverlap::Yes);
  // (5,4):(3,4) overlaps because 3*4 == 4*3: index (4,0) meets (0,3); (3,3):(4,3) never repeats.
  CHECK(solve_may_have_internal_overlap({5, 4}, {3, 4}) == MemOverlap::Yes);
  CHECK(solve_may_have_internal_overlap({3, 3}, {4, 3}) == MemOverlap::No);
  CHECK(std::string(to_string(MemOverlap::TooHard)) == "TooHard");
  CHECK(std::string(to_string(MemOverlapStatus::Partial)) == "Partial");
}
