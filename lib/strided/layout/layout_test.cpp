// The layout algebra, rule by rule. Every expectation below was printed by PyTorch 1.13 for the
// same sizes and strides (through torch.as_strided on a large enough buffer), unless it quotes a
// claim of the catalogue, whose ID is given.
#include "strided/layout/layout.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "strided/core/error.h"
#include "strided/core/error_of.h"

using namespace strided;

TEST_CASE("wrap_dim: Python-style negative dims; a 0-d tensor accepts -1 and 0") {
  CHECK(wrap_dim(-1, 3, "op") == 2);
  CHECK(wrap_dim(-3, 3, "op") == 0);
  CHECK(wrap_dim(0, 0, "op") == 0);
  CHECK(wrap_dim(-1, 0, "op") == 0);
  CHECK(error_of([] { wrap_dim(3, 3, "op"); }) ==
        "op: Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  CHECK(error_of([] { wrap_dim(1, 0, "op"); }) ==
        "op: Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  CHECK_THROWS_AS(wrap_dim(-4, 3, "op"), Error);
}

TEST_CASE("contiguous_strides counts size-0 and size-1 dims as 1 (CT-05, CT-06)") {
  CHECK(contiguous_strides({1, 2, 3, 4}) == Shape{24, 12, 4, 1});
  CHECK(contiguous_strides({3, 0, 2}) == Shape{2, 2, 1});
  CHECK(contiguous_strides({}) == Shape{});
  CHECK(contiguous_strides({2, 1, 3}) == Shape{3, 3, 1});
}

TEST_CASE("is_contiguous ignores size-1 dims and calls every empty tensor contiguous (CT-02)") {
  CHECK(is_contiguous(Layout({2, 3, 4, 1}, {12, 4, 1, 24})));
  CHECK(is_contiguous(Layout({1, 4}, {1, 1})));
  CHECK(is_contiguous(Layout({2, 1, 3}, {3, 99, 1})));
  CHECK(is_contiguous(Layout({0, 1, 0}, {7, 7, 7})));
  CHECK(is_contiguous(Layout({}, {})));
  CHECK_FALSE(is_contiguous(Layout({2, 3}, {1, 2})));
  CHECK_FALSE(is_contiguous(Layout({3, 4}, {0, 1})));
  // The seed notebook's stricter definition disagrees exactly on the size-1 dims.
  CHECK_FALSE(is_contiguous_strict(Layout({2, 3, 4, 1}, {12, 4, 1, 24})));
  CHECK_FALSE(is_contiguous_strict(Layout({1, 4}, {1, 1})));
  CHECK_FALSE(is_contiguous_strict(Layout({2, 1, 3}, {3, 99, 1})));
  CHECK(is_contiguous_strict(Layout({2, 3, 4}, {12, 4, 1})));
  CHECK(is_contiguous_strict(Layout({0, 1, 0}, {7, 7, 7})));
}

TEST_CASE("is_non_overlapping_and_dense and has_internal_overlap, as torch reports them") {
  // torch._debug_has_internal_overlap: 0 = No (exactly the dense layouts), 1 = Yes, 2 = TooHard.
  struct Case {
    Shape sizes, strides;
    MemOverlap overlap;
  };
  const Case cases[] = {
      {{2, 3, 4}, {1, 2, 6}, MemOverlap::No},
      {{6, 5, 4, 3, 2}, {6, 0, 120, 0, 1}, MemOverlap::Yes},
      {{3, 4}, {0, 1}, MemOverlap::Yes},
      {{2, 1, 3}, {3, 99, 1}, MemOverlap::No},
      {{2, 3}, {1, 1}, MemOverlap::TooHard},
      {{3, 3}, {1, 1}, MemOverlap::TooHard},
      {{4, 1}, {1, 1}, MemOverlap::No},
      {{2, 3, 2}, {0, 0, 0}, MemOverlap::Yes},
      {{3, 0, 2}, {7, 1, 3}, MemOverlap::No},
      {{2, 2, 2}, {4, 1, 4}, MemOverlap::TooHard},
      {{3, 2}, {2, 3}, MemOverlap::TooHard},
      {{2, 3, 4}, {12, 1, 3}, MemOverlap::No},
      {{5}, {3}, MemOverlap::TooHard},
      {{}, {}, MemOverlap::No},
      {{4, 3}, {3, 2}, MemOverlap::TooHard},
      {{2, 3}, {1, 2}, MemOverlap::No},
      {{1, 1, 2}, {5, 7, 0}, MemOverlap::Yes},
      {{2, 2, 3}, {0, 3, 1}, MemOverlap::Yes},
  };
  for (const Case& c : cases) {
    CAPTURE(layout_string(c.sizes, c.strides));
    CHECK(has_internal_overlap(Layout(c.sizes, c.strides)) == c.overlap);
    CHECK(is_non_overlapping_and_dense(Layout(c.sizes, c.strides)) ==
          (c.overlap == MemOverlap::No));
  }
}

TEST_CASE("infer_dense_strides keeps the stride order, as torch.empty_like and clone do") {
  struct Case {
    Shape sizes, strides, expected;
  };
  const Case cases[] = {
      {{6, 5, 4, 3, 2}, {6, 0, 120, 0, 1}, {6, 36, 180, 2, 1}},
      {{3, 4}, {0, 1}, {4, 1}},
      {{4, 3}, {1, 0}, {3, 1}},
      {{2, 3}, {1, 1}, {1, 2}},
      {{3, 3}, {1, 1}, {3, 1}},
      {{2, 3, 2}, {0, 0, 0}, {6, 2, 1}},
      {{2, 2, 2}, {4, 1, 4}, {4, 1, 2}},
      {{3, 2}, {2, 3}, {1, 3}},
      {{5}, {3}, {1}},
      {{}, {}, {}},
      {{4, 3}, {3, 2}, {3, 1}},
      {{3, 2}, {1, 2}, {1, 3}},
      {{1, 1, 2}, {5, 7, 0}, {2, 2, 1}},
      {{2, 2, 3}, {0, 3, 1}, {6, 3, 1}},
  };
  for (const Case& c : cases) {
    CAPTURE(layout_string(c.sizes, c.strides));
    CHECK(infer_dense_strides(Layout(c.sizes, c.strides)) == c.expected);
  }
}

TEST_CASE("dense_strides_in_order: dense, non-decreasing along the walk; size 0 as is or as 1") {
  // Every permutation of a 3-d shape: the post-condition of the header.
  const Shape sizes{4, 3, 5};
  Shape perm{0, 1, 2};
  do {
    CAPTURE(to_string(perm));
    for (ZeroSizes zero : {ZeroSizes::AsIs, ZeroSizes::AsOne}) {
      const Shape s = dense_strides_in_order(sizes, perm, zero);
      CHECK(is_non_overlapping_and_dense(Layout(sizes, s)));
      CHECK(s[perm[0]] == 1);
      for (size_t i = 1; i < perm.size(); ++i) CHECK(s[perm[i - 1]] <= s[perm[i]]);
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  // The two products part on a size-0 dim: TensorIterator's gives the dims outside it stride 0,
  // empty_like's counts the 0 as a 1 (torch.empty(2, 0, 3).stride() is (3, 3, 1)).
  CHECK(dense_strides_in_order({2, 0, 3}, {2, 1, 0}, ZeroSizes::AsIs) == Shape{0, 3, 1});
  CHECK(dense_strides_in_order({2, 0, 3}, {2, 1, 0}, ZeroSizes::AsOne) == Shape{3, 3, 1});
  CHECK(dense_strides_in_order({}, {}, ZeroSizes::AsIs).empty());
}

TEST_CASE("walk_output_strides: row-major for the tensor's own order, else dense along the walk") {
  CHECK(walk_output_strides({2, 3, 4}, {2, 1, 0}) == Shape{12, 4, 1});
  // x + y.permute(...) style: the walk's innermost dim gets stride 1 (PF-18).
  CHECK(walk_output_strides({2, 3, 4}, {0, 1, 2}) == Shape{1, 2, 6});
  CHECK(walk_output_strides({2, 3, 4}, {1, 2, 0}) == Shape{12, 1, 3});
  // A size-0 dim in the tensor's own order: row-major strides count it as 1, as PyTorch prints.
  CHECK(walk_output_strides({2, 0, 3}, {2, 1, 0}) == contiguous_strides({2, 0, 3}));
}

TEST_CASE("extent: the smallest and largest element offsets a layout reaches") {
  const Extent e = extent(Layout({2, 3}, {6, 2}, 5));
  CHECK(e.min == 5);
  CHECK(e.max == 5 + 6 + 4);
  CHECK(extent(Layout({2, 0}, {6, 2}, 5)).empty());
  CHECK(extent(Layout({}, {}, 3)).max == 3);
}

TEST_CASE("compute_view_strides: view succeeds exactly when torch's view does (IX-05, IX-11)") {
  struct Case {
    Shape sizes, strides, new_sizes;
    std::optional<Shape> expected;
  };
  const Case cases[] = {
      // IX-05: t[:,:,:,2] of arange(24).reshape(1,2,3,4) viewed as (3,2).
      {{1, 2, 3}, {24, 12, 4}, {3, 2}, Shape{8, 4}},
      // IX-11: [:,:,::2] of arange(24).reshape(2,3,4) merges; [:,:,::3] cannot merge.
      {{2, 3, 2}, {12, 4, 2}, {6, 2}, Shape{4, 2}},
      {{2, 3, 2}, {12, 4, 2}, {2, 6}, Shape{12, 2}},
      {{2, 3, 2}, {12, 4, 2}, {12}, Shape{2}},
      {{2, 3, 2}, {12, 4, 3}, {12}, std::nullopt},
      // IX-06: x.t().view(1, -1) of a 3x3.
      {{3, 3}, {1, 3}, {1, 9}, std::nullopt},
      // An expanded tensor splits its stride-0 dim but cannot flatten.
      {{3, 4}, {1, 0}, {3, 2, 2}, Shape{1, 0, 0}},
      {{3, 4}, {1, 0}, {12}, std::nullopt},
      {{3, 4}, {0, 1}, {3, 2, 2}, Shape{0, 2, 1}},
      {{3, 4}, {0, 1}, {12}, std::nullopt},
      // Size-0 tensors: the same shape keeps its strides, any other gets contiguous strides.
      {{0, 4}, {1, 1}, {0, 4}, Shape{1, 1}},
      {{0, 4}, {1, 1}, {2, 0, 2}, Shape{2, 2, 1}},
      {{0, 4}, {1, 1}, {4, 0}, Shape{1, 1}},
      {{2, 0, 3}, {5, 5, 1}, {6, 0}, Shape{1, 1}},
      // One element: any shape of ones, and 0-d.
      {{1, 1}, {3, 1}, {1, 1, 1}, Shape{1, 1, 1}},
      {{1, 1}, {3, 1}, {}, Shape{}},
      {{}, {}, {1, 1}, Shape{1, 1}},
      // Size-1 dims with odd strides do not break a run.
      {{2, 1, 3}, {3, 99, 1}, {6}, Shape{1}},
      {{2, 1, 3}, {3, 99, 1}, {2, 3, 1}, Shape{3, 1, 1}},
      {{3, 1, 4}, {4, 7, 1}, {3, 4}, Shape{4, 1}},
      {{4}, {2}, {2, 1, 2}, Shape{4, 4, 2}},
      {{2, 2}, {1, 2}, {4}, std::nullopt},
      {{6}, {1}, {1, 6, 1}, Shape{6, 1, 1}},
      {{2, 3}, {6, 2}, {3, 2}, Shape{4, 2}},
  };
  for (const Case& c : cases) {
    CAPTURE(layout_string(c.sizes, c.strides));
    CAPTURE(to_string(c.new_sizes));
    CHECK(compute_view_strides(Layout(c.sizes, c.strides), c.new_sizes) == c.expected);
  }
}

TEST_CASE("infer_size resolves one -1 and words its errors as InferSize.h") {
  CHECK(infer_size({2, -1}, 6) == Shape{2, 3});
  CHECK(infer_size({-1}, 0) == Shape{0});
  CHECK(infer_size({3, 0, 5}, 0) == Shape{3, 0, 5});
  CHECK(infer_size({-1, 1}, 1) == Shape{1, 1});
  CHECK(error_of([] {
          infer_size({-1, -1}, 6);
        }).find("only one dimension can be inferred") != std::string::npos);
  CHECK(error_of([] {
          infer_size({-2, -3}, 6);
        }).find("invalid shape dimension -2") != std::string::npos);
  CHECK(error_of([] {
          infer_size({4, -1}, 6);
        }) == "view: shape '[4, -1]' is invalid for input of size 6");
  // torch: ones(0, 3).view(0, -1) is ambiguous, ones(6).view(0, -1) simply invalid.
  CHECK(error_of([] { infer_size({0, -1}, 0); }).find("is ambiguous") != std::string::npos);
  CHECK(error_of([] {
          infer_size({0, -1}, 6);
        }) == "view: shape '[0, -1]' is invalid for input of size 6");
  CHECK(error_of([] {
          infer_size({2, 2}, 6, "reshape()");
        }) == "reshape(): shape '[2, 2]' is invalid for input of size 6");
  CHECK_THROWS_AS(infer_size({int64_t{1} << 40, int64_t{1} << 40}, 6), Error);
}

TEST_CASE("broadcast_shapes aligns from the right (BC-04, BC-10)") {
  CHECK(broadcast_shapes({1, 2}, {2, 2}) == Shape{2, 2});
  CHECK(broadcast_shapes({5, 3, 4, 1}, {3, 1, 1}) == Shape{5, 3, 4, 1});
  CHECK(broadcast_shapes({3, 4}, {1}) == Shape{3, 4});
  CHECK(broadcast_shapes({}, {3}) == Shape{3});
  CHECK(broadcast_shapes({0}, {1}) == Shape{0});
  CHECK(broadcast_shapes(std::vector<Shape>{{3, 1}, {1, 4}, {2, 1, 1}}) == Shape{2, 3, 4});
  CHECK(broadcast_shapes(std::vector<Shape>{}) == Shape{});
  CHECK(error_of([] {
          broadcast_shapes({2, 3}, {3, 2});
        })
            .find("The size of tensor a (3) must match the size of tensor b (2) at "
                  "non-singleton dimension 1") != std::string::npos);
  CHECK_THROWS_AS(broadcast_shapes({0}, {3}), Error);
  // torch.broadcast_shapes refuses negative sizes, even where a 1 would absorb them.
  CHECK_THROWS_AS(broadcast_shapes({-1}, {1}), Error);
}

TEST_CASE("expand_geometry follows inferExpandGeometry (BC-03)") {
  auto g = [](Shape sizes, Shape strides, Shape target) {
    return expand_geometry(Layout(sizes, strides), target);
  };
  CHECK(g({1, 3}, {3, 1}, {1, 3}).strides() == Shape{3, 1});
  CHECK(g({1, 3}, {3, 1}, {2, 3}).strides() == Shape{0, 1});
  CHECK(g({3}, {1}, {1, 1, 3}).strides() == Shape{3, 3, 1});
  CHECK(g({3}, {1}, {2, 1, 3}).strides() == Shape{0, 3, 1});
  CHECK(g({3, 1}, {1, 1}, {3, 4}).strides() == Shape{1, 0});
  CHECK(g({}, {}, {2, 3}).strides() == Shape{0, 0});
  // A 0-d tensor expands with every stride 0, size-1 dims included (torch: (1, 1):(0, 0)).
  CHECK(g({}, {}, {1, 1}).strides() == Shape{0, 0});
  CHECK(g({}, {}, {}).sizes() == Shape{});
  // -1 keeps a size; size 0 is a legal target for a size-1 dim or a new dim.
  const Layout k = g({1, 3}, {3, 1}, {2, -1, 3});
  CHECK(k.sizes() == Shape{2, 1, 3});
  CHECK(k.strides() == Shape{0, 3, 1});
  CHECK(g({1, 3}, {3, 1}, {0, 3}).strides() == Shape{0, 1});
  CHECK(g({3}, {1}, {2, 0, 3}).strides() == Shape{0, 0, 1});
  CHECK(error_of([] { expand_geometry(Layout({3}, {1}), {0}); })
            .find("The expanded size of the tensor (0) must match the existing size (3) at "
                  "non-singleton dimension 0") != std::string::npos);
  CHECK(error_of([] {
          expand_geometry(Layout({3}, {1}), {-1, 3});
        }).find("isn't allowed in a leading, non-existing dimension 0") != std::string::npos);
  CHECK_THROWS_AS(expand_geometry(Layout({}, {}), {-1}), Error);
  CHECK_THROWS_AS(expand_geometry(Layout({2, 3}, {3, 1}), {3}), Error);
  // Negative sizes other than -1 never make a tensor (torch 1.13 lets (1,1)->(-2,0) through).
  CHECK_THROWS_AS(expand_geometry(Layout({1, 3}, {3, 1}), {-2, 3}), Error);
  CHECK_THROWS_AS(expand_geometry(Layout({1, 1}, {1, 1}), {-2, 0}), Error);
  CHECK_THROWS_AS(expand_geometry(Layout({}, {}), {-1, 0}), Error);
}

TEST_CASE("select and slice geometry (VW-08, IX-10, IX-01)") {
  // IX-01: t[:, :, :, 2] of arange(24).reshape(1, 2, 3, 4).
  Layout s = select_geometry(Layout({1, 2, 3, 4}, {24, 12, 4, 1}, 0), 3, 2);
  CHECK(s.sizes() == Shape{1, 2, 3});
  CHECK(s.strides() == Shape{24, 12, 4});
  CHECK(s.storage_offset() == 2);
  CHECK(select_geometry(Layout({3, 4}, {4, 1}, 0), 0, -1).storage_offset() == 8);
  CHECK(error_of([] {
          select_geometry(Layout({3, 4}, {4, 1}, 0), 0, 5);
        }) == "select(): index 5 out of range for tensor of size [3, 4] at dimension 0");
  CHECK_THROWS_AS(select_geometry(Layout({}, {}, 0), 0, 0), Error);
  // VW-08: 2:15:3 on each dim of a 20x30x40 tensor gives 5 elements, offset 2 * stride.
  const Shape sizes{20, 30, 40}, strides{1200, 40, 1};
  for (int64_t d = 0; d < 3; ++d) {
    const Layout g = slice_geometry(Layout(sizes, strides, 0), d, 2, 15, 3);
    CHECK(g.sizes()[d] == 5);
    CHECK(g.strides()[d] == 3 * strides[d]);
    CHECK(g.storage_offset() == 2 * strides[d]);
  }
  // IX-10: stop past the end clamps; a negative start counts from the end.
  CHECK(slice_geometry(Layout({20}, {1}, 0), 0, 0, 100, 1).sizes() == Shape{20});
  CHECK(slice_geometry(Layout({20}, {1}, 0), 0, -5, std::nullopt, 1).storage_offset() == 15);
  // end < start is empty at start; a start past the end is empty at the end; a huge step is one.
  const Layout e = slice_geometry(Layout({2, 3}, {3, 1}, 0), 1, 2, 1, 1);
  CHECK(e.sizes() == Shape{2, 0});
  CHECK(e.storage_offset() == 2);
  CHECK(slice_geometry(Layout({2, 3}, {3, 1}, 0), 1, 5, std::nullopt, 1).storage_offset() == 3);
  CHECK(slice_geometry(Layout({2, 3}, {3, 1}, 0), 1, 1, std::nullopt, 10).sizes() == Shape{2, 1});
  CHECK(slice_geometry(Layout({2, 3}, {3, 1}, 0), 1, -5, -1, 1).sizes() == Shape{2, 2});
  CHECK(slice_geometry(Layout({5}, {1}, 0), 0, 0, 5, INT64_MAX).sizes() == Shape{1});
  CHECK(error_of([] { slice_geometry(Layout({3}, {1}, 0), 0, 0, 3, 0); })
            .find("slice step must be "
                  "positive") != std::string::npos);
  CHECK_THROWS_AS(slice_geometry(Layout({3}, {1}, 0), 0, 0, 3, -1), Error);
  CHECK_THROWS_AS(slice_geometry(Layout({}, {}, 0), 0, 0, 1, 1), Error);
}

TEST_CASE("diagonal geometry (VW-12): offsets in both directions and off the end") {
  // A 3x5 matrix: offset 1 starts one column in, offset -1 one row down.
  Layout g = diagonal_geometry(Layout({3, 5}, {5, 1}, 0), 1, 0, 1);
  CHECK(g.sizes() == Shape{3});
  CHECK(g.strides() == Shape{6});
  CHECK(g.storage_offset() == 1);
  g = diagonal_geometry(Layout({3, 5}, {5, 1}, 0), -1, 0, 1);
  CHECK(g.sizes() == Shape{2});
  CHECK(g.storage_offset() == 5);
  // torch: arange(6).reshape(2,3).diagonal(k) for k = 2, -1, -2, 5, -5.
  CHECK(diagonal_geometry(Layout({2, 3}, {3, 1}, 0), 2, 0, 1).storage_offset() == 2);
  CHECK(diagonal_geometry(Layout({2, 3}, {3, 1}, 0), -1, 0, 1).storage_offset() == 3);
  for (int64_t k : Shape{-2, 3, 5, -5, INT64_MAX, INT64_MIN}) {
    const Layout empty = diagonal_geometry(Layout({2, 3}, {3, 1}, 0), k, 0, 1);
    CHECK(empty.sizes() == Shape{0});
    CHECK(empty.strides() == Shape{4});
    CHECK(empty.storage_offset() == 0);  // an empty diagonal keeps the offset
  }
  // torch: ones(2,3,4).diagonal(1, 2, 0) → (3, 1):(4, 13), offset 12.
  g = diagonal_geometry(Layout({2, 3, 4}, {12, 4, 1}, 0), 1, 2, 0);
  CHECK(g.sizes() == Shape{3, 1});
  CHECK(g.strides() == Shape{4, 13});
  CHECK(g.storage_offset() == 12);
  CHECK(error_of([] {
          diagonal_geometry(Layout({2, 3}, {3, 1}, 0), 0, 1, -1);
        }) == "diagonal(): diagonal dimensions cannot be identical 1, -1");
  CHECK_THROWS_AS(diagonal_geometry(Layout({3}, {1}, 0), 0, 0, 1), Error);
  CHECK_THROWS_AS(diagonal_geometry(Layout({}, {}, 0), 0, 0, -1), Error);
}

TEST_CASE("permute, unsqueeze, squeeze and unfold geometry") {
  // VW-11: arange(24).reshape(1,2,3,4).permute(1,2,3,0).
  Layout p = permute_geometry(Layout({1, 2, 3, 4}, {24, 12, 4, 1}), {1, 2, 3, 0});
  CHECK(p.sizes() == Shape{2, 3, 4, 1});
  CHECK(p.strides() == Shape{12, 4, 1, 24});
  CHECK(permute_geometry(Layout({2, 3}, {3, 1}), {-1, 0}).strides() == Shape{1, 3});
  CHECK(permute_geometry(Layout({}, {}), {}).sizes() == Shape{});
  CHECK_THROWS_AS(permute_geometry(Layout({2, 3}, {3, 1}), {0}), Error);
  CHECK(error_of([] {
          permute_geometry(Layout({2, 3}, {3, 1}), {0, -2});
        }).find("duplicate dims") != std::string::npos);
  CHECK_THROWS_AS(permute_geometry(Layout({2, 3}, {3, 1}), {0, 2}), Error);

  // unsqueeze: size*stride of the dim it lands before, or 1 at the end (torch: ones(2,3)[:, ::2]).
  CHECK(unsqueeze_geometry(Layout({2, 2}, {3, 2}), 2).strides() == Shape{3, 2, 1});
  CHECK(unsqueeze_geometry(Layout({2, 2}, {3, 2}), 1).strides() == Shape{3, 4, 2});
  CHECK(unsqueeze_geometry(Layout({2, 2}, {3, 2}), 0).strides() == Shape{6, 3, 2});
  CHECK(unsqueeze_geometry(Layout({2, 2}, {3, 2}), -1).strides() == Shape{3, 2, 1});
  CHECK(unsqueeze_geometry(Layout({2, 0}, {1, 1}), 1).strides() == Shape{1, 0, 1});
  CHECK(unsqueeze_geometry(Layout({}, {}), 0).sizes() == Shape{1});
  CHECK(unsqueeze_geometry(Layout({}, {}), -1).strides() == Shape{1});
  CHECK_THROWS_AS(unsqueeze_geometry(Layout({}, {}), 1), Error);
  CHECK_THROWS_AS(unsqueeze_geometry(Layout({2}, {1}), -3), Error);

  CHECK(squeeze_geometry(Layout({1, 3, 1, 2}, {6, 2, 2, 1}), std::nullopt).sizes() == Shape{3, 2});
  CHECK(squeeze_geometry(Layout({1, 3, 1, 2}, {6, 2, 2, 1}), 2).sizes() == Shape{1, 3, 2});
  CHECK(squeeze_geometry(Layout({1, 3, 1, 2}, {6, 2, 2, 1}), 1).sizes() == Shape{1, 3, 1, 2});
  CHECK(squeeze_geometry(Layout({1, 0, 1}, {1, 1, 1}), std::nullopt).sizes() == Shape{0});
  CHECK(squeeze_geometry(Layout({}, {}), 0).sizes() == Shape{});
  CHECK(squeeze_geometry(Layout({}, {}), -1).sizes() == Shape{});
  CHECK_THROWS_AS(squeeze_geometry(Layout({}, {}), 1), Error);

  // unfold (torch: arange(6.).reshape(2, 3)).
  Layout u = unfold_geometry(Layout({2, 3}, {3, 1}), 1, 2, 2);
  CHECK(u.sizes() == Shape{2, 1, 2});
  CHECK(u.strides() == Shape{3, 2, 1});
  u = unfold_geometry(Layout({2, 3}, {3, 1}), 1, 0, 1);
  CHECK(u.sizes() == Shape{2, 4, 0});
  CHECK(u.strides() == Shape{3, 1, 1});
  u = unfold_geometry(Layout({2, 0}, {1, 1}), 1, 0, 1);
  CHECK(u.sizes() == Shape{2, 1, 0});
  u = unfold_geometry(Layout({}, {}), 0, 1, 1);
  CHECK(u.sizes() == Shape{1});
  CHECK(u.strides() == Shape{1});
  CHECK(unfold_geometry(Layout({}, {}), 0, 0, 1).sizes() == Shape{0});
  CHECK(error_of([] {
          unfold_geometry(Layout({2, 3}, {3, 1}), 1, 4, 1);
        }) == "unfold(): maximum size for tensor at dimension 1 is 3 but size is 4");
  CHECK(error_of([] {
          unfold_geometry(Layout({2, 3}, {3, 1}), 1, 2, 0);
        }) == "unfold(): step is 0 but must be > 0");
  CHECK_THROWS_AS(unfold_geometry(Layout({2, 3}, {3, 1}), 1, -1, 1), Error);
  CHECK_THROWS_AS(unfold_geometry(Layout({}, {}), 0, 2, 1), Error);
}

TEST_CASE("storage_nbytes_needed: one past the farthest element, in bytes") {
  CHECK(storage_nbytes_needed(Layout({2, 4}, {3, 1}, 0), 4, "op") ==
        28);  // torch's as_strided message
  CHECK(storage_nbytes_needed(Layout({}, {}, 6), 4, "op") == 28);
  CHECK(storage_nbytes_needed(Layout({0, 5}, {100, 100}, 1000), 8, "op") == 0);
  CHECK_THROWS_AS(storage_nbytes_needed(Layout({2, 2}, {INT64_MAX, 1}, 0), 4, "op"), Error);
}

TEST_CASE("unfold of a dim of 2^63-1 elements into empty windows is an error (regression)") {
  // torch 1.13: torch.empty(1).expand(2**63-1).unfold(0, 0, 1) raises (the window count wraps to
  // -2^63). The count (size - 0) / 1 + 1 once overflowed int64 here: undefined behaviour.
  const int64_t big = INT64_MAX;
  CHECK(error_of([&] { unfold_geometry(Layout({big}, {0}), 0, 0, 1); }) ==
        "unfold(): the number of windows (9223372036854775807 - 0) / 1 + 1 at dimension 0 "
        "overflows int64");
  // One window fewer fits: size 1, or step 2.
  CHECK(unfold_geometry(Layout({big}, {0}), 0, 1, 1).sizes() == Shape{big, 1});
  CHECK(unfold_geometry(Layout({big}, {0}), 0, 0, 2).sizes() == Shape{big / 2 + 1, 0});
}

TEST_CASE("diagonal's stride sum wraps instead of overflowing (regression)") {
  // torch 1.13: a = torch.arange(4.).view(2, 2)[0:1:2**61, 0:1:2**62] has strides (2^62, 2^62);
  // a.diagonal() adds them in int64. The sum once overflowed here (undefined behaviour); with one
  // element on the diagonal the stride is never used, and it wraps as PyTorch's does.
  const int64_t s = int64_t{1} << 62;
  const Layout g = diagonal_geometry(Layout({1, 1}, {s, s}, 0), 0, 0, 1);
  CHECK(g.sizes() == Shape{1});
  CHECK(g.strides() == Shape{INT64_MIN});
  CHECK(g.storage_offset() == 0);
}

// walk_order's post-condition, as layout.h states it.
TEST_CASE("walk_order is a permutation, innermost first, sorted by the first deciding operand") {
  // Distinct non-zero strides: the order sorts them, whatever the dims' order.
  CHECK(walk_order({4, 5, 6}, {{30, 6, 1}}) == Shape{2, 1, 0});
  CHECK(walk_order({6, 4, 5}, {{1, 30, 6}}) == Shape{0, 2, 1});
  // Equal strides: the dim of smaller size goes inside, (2,3):(1,1) as PF-02 and CT-04.like.
  CHECK(walk_order({2, 3}, {{1, 1}}) == Shape{0, 1});
  CHECK(walk_order({3, 2}, {{1, 1}}) == Shape{1, 0});
  // Stride 0 decides nothing: the next operand does, or, when none does, the dims keep their order.
  CHECK(walk_order({4, 4}, {{4, 0}, {1, 4}}) == Shape{0, 1});
  CHECK(walk_order({3, 4}, {{0, 1}}) == Shape{1, 0});
  CHECK(walk_order({3, 4}, {{0, 0}, {}}) == Shape{1, 0});
  // An operand still to be allocated (no strides) is skipped.
  CHECK(walk_order({4, 5}, {{}, {1, 4}}) == Shape{0, 1});
  // A reduction's output puts its stride-0 (reduced) dims inside, before any input is asked.
  CHECK(walk_order({3, 4}, {{0, 4}, {16, 4}}, {true, false}) == Shape{0, 1});
  CHECK(walk_order({3, 4}, {{0, 4}, {16, 4}}, {false, false}) == Shape{1, 0});
  CHECK(walk_order({}, {{}}).empty());
}

TEST_CASE("walk_order, over many layouts: a permutation along which decided strides never fall") {
  uint64_t state = 12345;
  auto next = [&](int64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(n));
  };
  for (int trial = 0; trial < 2000; ++trial) {
    const int64_t nd = 1 + next(5);
    Shape sizes(nd), strides(nd);
    std::vector<int64_t> pool = {1, 2, 3, 5, 7, 11, 13, 17};
    for (int64_t d = 0; d < nd; ++d) {
      sizes[d] = 1 + next(4);
      const int64_t pick = next(static_cast<int64_t>(pool.size()));
      strides[d] = pool[pick];  // distinct: each stride drawn once
      pool.erase(pool.begin() + pick);
    }
    const Shape perm = walk_order(sizes, {strides});
    Shape seen = perm;
    std::sort(seen.begin(), seen.end());
    Shape iota(nd);
    for (int64_t d = 0; d < nd; ++d) iota[d] = d;
    REQUIRE(seen == iota);
    for (int64_t i = 1; i < nd; ++i) CHECK(strides[perm[i - 1]] < strides[perm[i]]);
  }
}

namespace {
// Every offset of a walk, innermost dim fastest (dims listed innermost first, as a plan's).
std::vector<int64_t> walk_offsets(const Shape& sizes, const Shape& strides) {
  std::vector<int64_t> out;
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  Shape idx(sizes.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = 0;
    for (size_t d = 0; d < sizes.size(); ++d) off += idx[d] * strides[d];
    out.push_back(off);
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}
}  // namespace

TEST_CASE("coalesce_dims merges exactly the dims every operand steps over as one") {
  Shape sizes = {4, 3, 2};  // innermost first: a contiguous (2, 3, 4) and its transpose
  std::vector<Shape> strides = {{1, 4, 12}, {6, 2, 1}};
  coalesce_dims(sizes, strides);
  CHECK(sizes == Shape{4, 3, 2});  // the transpose steps differently: nothing merges
  sizes = {4, 3, 2};
  strides = {{1, 4, 12}, {1, 4, 12}};
  coalesce_dims(sizes, strides);
  CHECK(sizes == Shape{24});
  CHECK(strides == std::vector<Shape>{{1}, {1}});
  sizes = {2, 1, 4};  // a size-1 dim merges with anything; its stride is dropped
  strides = {{1, 99, 2}};
  coalesce_dims(sizes, strides);
  CHECK(sizes == Shape{8});
  CHECK(strides == std::vector<Shape>{{1}});
}

TEST_CASE("for_each_index: the offsets of each index in row-major order, from any position") {
  // A (2, 3) walk of two operands: a contiguous layout and its transpose, in bytes and elements.
  std::vector<std::pair<int64_t, int64_t>> seen;
  for_each_index({2, 3}, {{12, 4}, {1, 2}}, [&](const int64_t* off) {
    seen.push_back({off[0], off[1]});
  });
  CHECK(seen == std::vector<std::pair<int64_t, int64_t>>{
                    {0, 0}, {4, 2}, {8, 4}, {12, 1}, {16, 3}, {20, 5}});
  // With two parameters, f also gets the index itself.
  std::vector<Shape> indices;
  for_each_index({2, 2}, {{2, 1}}, 1, 4, [&](const int64_t* index, const int64_t* off) {
    indices.push_back({index[0], index[1], off[0]});
  });
  CHECK(indices == std::vector<Shape>{{0, 1, 1}, {1, 0, 2}, {1, 1, 3}});
  int calls = 0;
  for_each_index({}, {{}}, [&](const int64_t* off) { calls += off[0] == 0; });
  CHECK(calls == 1);  // a 0-d index space has one index
  for_each_index({3, 0}, {{1, 1}}, [&](const int64_t*) { ++calls; });
  CHECK(calls == 1);  // and one with a size-0 dim none
  // Many layouts and ranges: the i-th call has the offsets of row-major position begin + i.
  uint64_t state = 4242;
  auto next = [&](int64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(n));
  };
  for (int trial = 0; trial < 2000; ++trial) {
    const int64_t nd = next(5), nops = 1 + next(3);
    Shape sizes(nd);
    int64_t numel = 1;
    for (int64_t& s : sizes) numel *= (s = 1 + next(4));
    std::vector<Shape> strides(nops, Shape(nd));
    for (Shape& st : strides)
      for (int64_t& v : st) v = next(11) - 3;  // negative and zero strides too
    const int64_t begin = next(numel + 1), end = begin + next(numel - begin + 1);
    int64_t position = begin;
    bool ok = true;
    for_each_index(sizes, strides, begin, end, [&](const int64_t* off) {
      int64_t rest = position++;
      std::vector<int64_t> expect(nops, 0);
      for (int64_t d = nd - 1; d >= 0; --d) {
        const int64_t i = rest % sizes[d];
        rest /= sizes[d];
        for (int64_t k = 0; k < nops; ++k) expect[k] += i * strides[k][d];
      }
      for (int64_t k = 0; k < nops; ++k) ok = ok && off[k] == expect[k];
    });
    CHECK(ok);
    CHECK(position == end);
  }
}

TEST_CASE("coalesce_dims, over many layouts: the same offsets in the same order, nothing left to merge") {
  uint64_t state = 777;
  auto next = [&](int64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(n));
  };
  for (int trial = 0; trial < 3000; ++trial) {
    const int64_t nd = 1 + next(4), nops = 1 + next(3);
    Shape sizes(nd);
    for (int64_t& s : sizes) s = 1 + next(3);
    std::vector<Shape> strides(nops, Shape(nd));
    for (Shape& st : strides) {
      // Often dense (each stride the product of the sizes inside it), sometimes not.
      int64_t run = 1 + next(2);
      for (int64_t d = 0; d < nd; ++d) {
        st[d] = next(4) == 0 ? next(7) : run;
        run = st[d] * sizes[d];
      }
    }
    std::vector<std::vector<int64_t>> before;
    for (const Shape& st : strides) before.push_back(walk_offsets(sizes, st));
    Shape merged = sizes;
    std::vector<Shape> merged_strides = strides;
    coalesce_dims(merged, merged_strides);
    for (size_t k = 0; k < strides.size(); ++k) {
      REQUIRE(merged_strides[k].size() == merged.size());
      CHECK(walk_offsets(merged, merged_strides[k]) == before[k]);
    }
    for (size_t d = 0; d + 1 < merged.size(); ++d) {
      bool all = merged[d] != 1 && merged[d + 1] != 1;
      for (const Shape& st : merged_strides) all = all && merged[d] * st[d] == st[d + 1];
      CHECK_FALSE(all);
      CHECK(merged[d] != 1);
    }
  }
}
