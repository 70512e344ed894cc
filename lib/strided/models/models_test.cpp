// Access-pattern models on traversals small enough to derive by hand: every expected trace, line
// count, miss count and sector count below is worked out in the comment beside it.
#include "strided/models/models.h"

#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "strided/core/error.h"
#include "strided/engine/ops.h"

using namespace strided;
using namespace strided::models;

namespace {

Trace bytes(std::vector<int64_t> b, int64_t width = 4) { return Trace{std::move(b), width}; }

// Every 4-byte step from `first`, n of them: the trace of n consecutive floats.
Trace run(int64_t first, int64_t n, int64_t step = 4) {
  Trace t;
  for (int64_t i = 0; i < n; ++i) t.bytes.push_back(first + i * step);
  return t;
}

}  // namespace

TEST_CASE("logical trace: row-major index order, from the storage's first byte") {
  Tensor t = arange(24, {DType::Float32}).view({2, 3, 4});
  // (2,3,4):(12,4,1) floats: 0, 4, 8, ... 92.
  CHECK(logical_trace(t).bytes == run(0, 24).bytes);
  // permute(2,1,0): (4,3,2):(1,4,12); logical order steps the last dim (stride 12 floats = 48 B).
  Trace p = logical_trace(t.permute({2, 1, 0}));
  CHECK(std::vector<int64_t>(p.bytes.begin(), p.bytes.begin() + 6) ==
        std::vector<int64_t>{0, 48, 16, 64, 32, 80});
  // A slice starts at its storage offset: t[1, :, 1:3] is offset 13 floats = 52 B.
  Tensor s = t.select(0, 1).slice(1, 1, 3);
  CHECK(logical_trace(s).bytes == std::vector<int64_t>{52, 56, 68, 72, 84, 88});
  CHECK(logical_trace(arange(3)).width == 8);  // int64
  CHECK(logical_trace(t.slice(0, 0, 0)).bytes.empty());
  CHECK(logical_trace(t.select(0, 1).select(0, 2).select(0, 3)).bytes == std::vector<int64_t>{92});
}

TEST_CASE("plan trace: the order the engine walks, smallest stride innermost (PF-01)") {
  Tensor t = arange(64, {DType::Float32}).view({4, 4, 4});
  // permute(2,1,0) is dense: the plan walks memory in order, 0, 4, ..., 252.
  CHECK(stride_sorted_trace(t.permute({2, 1, 0})).bytes == run(0, 64).bytes);
  // Its logical walk jumps by the stride of the last dim, 16 floats = 64 B.
  CHECK(logical_trace(t.permute({2, 1, 0})).bytes[1] == 64);
  // The output of a unary op follows the input's permutation (PF-19), so it is walked in order too.
  TensorIterator plan = unary_plan(UnaryOp::Neg, Tensor(), t.permute({2, 1, 0}));
  CHECK(plan_trace(plan, 0).bytes == run(0, 64).bytes);
  // A logical-order plan into a contiguous output walks the input as logical_trace does.
  TensorIterator linear =
      unary_plan(UnaryOp::Neg, empty({4, 4, 4}), t.permute({2, 1, 0}), true);
  CHECK(plan_trace(linear, 1).bytes == logical_trace(t.permute({2, 1, 0})).bytes);
  CHECK(plan_trace(linear, 0).bytes == run(0, 64).bytes);
  // x * y.transpose(0,2): out and x walk in order; y in x's order, i.e. with y's strides reversed.
  Tensor y = arange(64, {DType::Float32}).view({4, 4, 4});
  TensorIterator mul = binary_plan(BinaryOp::Mul, Tensor(), t, y.transpose(0, 2));
  CHECK(plan_trace(mul, 0).bytes == run(0, 64).bytes);
  CHECK(plan_trace(mul, 1).bytes == run(0, 64).bytes);
  CHECK(plan_trace(mul, 2).bytes == logical_trace(y.transpose(0, 2)).bytes);
  CHECK_THROWS_AS(plan_trace(mul, 3), Error);
}

TEST_CASE("the overlapping window unfold(0,3,1) walks back: 0,1,2,1,2,3,... (PF-03, ER-06)") {
  Tensor w = arange(6, {DType::Float32}).unfold(0, 3, 1);  // (4,3):(1,1)
  std::vector<int64_t> expected;
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 3; ++c) expected.push_back(4 * (r + c));
  CHECK(stride_sorted_trace(w).bytes == expected);
  CHECK_FALSE(is_sorted(stride_sorted_trace(w)));
  CHECK_FALSE(is_monotone({4, 3}, {1, 1}));
}

TEST_CASE("is_monotone: the nesting condition") {
  CHECK(is_monotone({2, 3, 4}, {12, 4, 1}, true));  // contiguous: 4 > 3·1, 12 > 2·4 + 3·1
  CHECK(is_monotone({2, 3, 4}, {24, 8, 2}, true));  // with holes: 8 > 3·2, 24 > 2·8 + 3·2
  CHECK(is_monotone({4, 4}, {1, 4}) == false);      // a permutation walked logically: 1 < 3·4
  // A broadcast dim outside the block repeats it (0 < 3): 0,1,2,3,0,1,2,3.
  CHECK_FALSE(is_monotone({2, 4}, {0, 1}));
  // Inside, it repeats each element: non-decreasing, not increasing.
  CHECK(is_monotone({4, 2}, {1, 0}));
  CHECK_FALSE(is_monotone({4, 2}, {1, 0}, true));
  // Size-1 dims impose nothing, whatever their stride; an empty walk is trivially in order.
  CHECK(is_monotone({1, 3, 1}, {0, 1, 0}, true));
  CHECK(is_monotone({0, 3}, {0, 0}, true));
  CHECK(is_monotone({}, {}, true));
  CHECK_THROWS_AS(is_monotone({2, 3}, {1}), Error);
  CHECK_THROWS_AS(is_monotone({2}, {-1}), Error);
}

TEST_CASE("is_monotone agrees with the trace it predicts, on random layouts") {
  std::mt19937 gen(11);
  std::uniform_int_distribution<int64_t> size(1, 4), stride(0, 13), rank(1, 4);
  int64_t agreed = 0, sorted_seen = 0;
  for (int n = 0; n < 400; ++n) {
    Shape sizes, strides;
    for (int64_t d = rank(gen); d > 0; --d) {
      sizes.push_back(size(gen));
      strides.push_back(stride(gen));
    }
    int64_t extent = 1;
    for (size_t d = 0; d < sizes.size(); ++d) extent += (sizes[d] - 1) * strides[d];
    Tensor base = zeros({extent});
    Tensor t = base.as_strided(sizes, strides);
    for (bool strict : {false, true}) {
      const bool sorted = is_sorted(logical_trace(t), strict);
      agreed += is_monotone(sizes, strides, strict) == sorted;
      sorted_seen += sorted;
    }
  }
  CHECK(agreed == 800);
  CHECK(sorted_seen > 50);   // both answers occur, so the agreement means something
  CHECK(sorted_seen < 750);
}

TEST_CASE("distinct lines: 16 floats to a 64-byte line (PF-04)") {
  CHECK(distinct_lines(run(0, 64)) == 4);
  CHECK(distinct_lines(run(4, 64)) == 5);            // one float past a line start spills over
  CHECK(distinct_lines(run(0, 16, 64)) == 16);       // one float per line
  CHECK(distinct_lines(run(0, 32, 20)) == 10);       // stride 5 floats: 620 bytes span lines 0..9
  CHECK(distinct_lines(bytes({60}, 8)) == 2);        // an 8-byte access across a boundary
  CHECK(distinct_lines(bytes({0, 0, 0})) == 1);
  CHECK(distinct_lines(run(0, 64), 128) == 2);
  CHECK(distinct_lines(Trace{}) == 0);
  CHECK_THROWS_AS(distinct_lines(run(0, 4), 0), Error);
}

TEST_CASE("lines per window of 16 accesses: matched 1, transposed 16 (PF-14)") {
  CHECK(lines_per_window(run(0, 64), 16) == 1.0);
  CHECK(lines_per_window(run(0, 64, 1024), 16) == 16.0);
  CHECK(lines_per_window(run(0, 24), 16) == 1.0);     // windows 0..15 and 16..23: 1 line each
  CHECK(lines_per_window(run(8, 32), 16) == 2.0);     // 8..68 spans lines 0-1, 72..132 lines 1-2
  CHECK(lines_per_window(Trace{}, 16) == 0.0);
  CHECK_THROWS_AS(lines_per_window(run(0, 4), 0), Error);
}

TEST_CASE("LRU: a cache of two lines") {
  LruCache cache(128, 64);
  CHECK(cache.capacity_lines() == 2);
  CHECK(cache.access(0) == 1);    // line 0: miss          [0]
  CHECK(cache.access(64) == 1);   // line 1: miss          [1 0]
  CHECK(cache.access(4) == 0);    // line 0: hit           [0 1]
  CHECK(cache.access(128) == 1);  // line 2: evicts 1      [2 0]
  CHECK(cache.access(64) == 1);   // line 1 again: miss    [1 2]
  CHECK(cache.access(0) == 1);    // line 0 was evicted    [0 1]
  CHECK(cache.access(60, 8) == 0);  // spans lines 0 and 1, both held
  CHECK(cache.hits() == 3);       // the hit at 4, and both lines of the spanning access
  CHECK(cache.misses() == 5);
  CHECK_THROWS_AS(LruCache(32, 64), Error);
  CHECK_THROWS_AS(LruCache(128, 0), Error);
  CHECK_THROWS_AS(cache.access(-4), Error);
}

TEST_CASE("LRU on a 64×64 float32 matrix: rows versus columns (PF-11, scaled down)") {
  Tensor m = zeros({64, 64});  // rows of 256 B = 4 lines; 256 lines in all
  const Trace rows = logical_trace(m);
  const Trace cols = logical_trace(m.t());
  // Row order: each line is missed once, whatever the capacity.
  CHECK(lru_misses(rows, 64) == 256);
  // Column order: one column touches 64 lines (one per row). A cache that holds them keeps the
  // line for the next 15 columns; one line short, and LRU evicts each line just before its reuse.
  CHECK(lru_misses(cols, 64 * 64) == 256);
  CHECK(lru_misses(cols, 63 * 64) == 4096);
}

TEST_CASE("warp sectors: 32 lanes, 32-byte sectors (PF-05, PF-06)") {
  CHECK(warp_sectors(run(0, 32)).sectors == 4);          // stride 1: 128 B
  CHECK(warp_sectors(run(0, 32, 8)).sectors == 8);       // stride 2
  CHECK(warp_sectors(run(0, 32, 20)).sectors == 20);     // stride 5: 620 B, sectors 0..19
  CHECK(warp_sectors(run(0, 32, 32)).sectors == 32);     // stride 8: one lane per sector
  CHECK(warp_sectors(run(0, 32, 400)).sectors == 32);
  CHECK(warp_sectors(run(4, 32)).sectors == 5);          // x[1:]: 4..131 spans sectors 0..4
  CHECK(warp_sectors(bytes(std::vector<int64_t>(32, 96))).sectors == 1);  // one address for all
  // Several requests: 64 accesses are two warps of 4 sectors; a short last warp counts as one.
  SectorCount two = warp_sectors(run(0, 64));
  CHECK(two.requests == 2);
  CHECK(two.sectors == 8);
  CHECK(two.per_request() == 4.0);
  SectorCount partial = warp_sectors(run(0, 40, 32));
  CHECK(partial.requests == 2);
  CHECK(partial.sectors == 40);
  CHECK(partial.max_per_request == 32);
  CHECK(warp_sectors(Trace{}).requests == 0);
  CHECK_THROWS_AS(warp_sectors(run(0, 4), 0), Error);
}

TEST_CASE("apart gives each storage lines of its own, and one storage's traces one shift") {
  const int sx = 0, sy = 0, so = 0;  // three storages, told apart by address
  // Three operands counted from their own storages: all start at 0.
  std::vector<Trace> t = apart({bytes({0, 4}), bytes({8, 0}), bytes({0, 100})}, {&sx, &sy, &so});
  CHECK(t[0].bytes == std::vector<int64_t>{0, 4});      // the first stays
  CHECK(t[1].bytes == std::vector<int64_t>{72, 64});    // its lowest byte at the next line, 64
  CHECK(t[2].bytes == std::vector<int64_t>{128, 228});  // past byte 75 (72 + 4 - 1): line 128
  // No line is shared, so a cache sees every operand's lines.
  CHECK(distinct_lines(interleave(t)) ==
        distinct_lines(t[0]) + distinct_lines(t[1]) + distinct_lines(t[2]));
  // x and x.t() share a storage: they move together, and the output goes past both.
  t = apart({bytes({4, 200}), bytes({0, 64}), bytes({0})}, {&sx, &so, &sx});
  CHECK(t[0].bytes == std::vector<int64_t>{4, 200});
  CHECK(t[1].bytes == std::vector<int64_t>{256, 320});  // past byte 203 of storage sx
  CHECK(t[2].bytes == std::vector<int64_t>{0});         // sx's shift, 0
  CHECK(apart({bytes({0, 4}), Trace{}, bytes({0})}, {&sx, &sy, &so})[2].bytes ==
        std::vector<int64_t>{64});
  CHECK_THROWS_AS(apart({bytes({0})}, {&sx}, 0), Error);
  CHECK_THROWS_AS(apart({bytes({0})}, {}), Error);
}

TEST_CASE("interleave merges operands access by access") {
  Trace merged = interleave({bytes({0, 4}), bytes({100, 104}), bytes({200, 204})});
  CHECK(merged.bytes == std::vector<int64_t>{0, 100, 200, 4, 104, 204});
  CHECK_THROWS_AS(interleave({bytes({0}), bytes({0, 4})}), Error);
  CHECK(interleave({}).bytes.empty());
}
