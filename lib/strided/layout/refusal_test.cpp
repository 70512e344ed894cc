// Why a layout op refuses: each explanation exists exactly when its op refuses, over random
// layouts, and names the dims and numbers of the rule that failed.
#include "strided/layout/refusal.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "strided/core/error.h"
#include "strided/layout/layout.h"

using namespace strided;

namespace {

template <class F>
bool refused(F&& f) {
  try {
    f();
    return false;
  } catch (const Error&) {
    return true;
  }
}

// A random layout: up to 4 dims of sizes 0 to 4, strides from a permuted contiguous layout,
// stepped, expanded or left as they are, so that views sometimes merge and sometimes do not.
struct Drawn {  // sizes and strides as drawn, before they make a Layout
  Shape sizes, strides;
};
Drawn random_layout(std::mt19937& rng) {
  std::uniform_int_distribution<int> ndim(0, 4), size(0, 4), coin(0, 3);
  Drawn l;
  const int n = ndim(rng);
  for (int i = 0; i < n; ++i) l.sizes.push_back(size(rng) == 0 && coin(rng) ? 1 : size(rng));
  Shape order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  l.strides.assign(n, 0);
  int64_t running = 1;
  for (int k = n; k-- > 0;) {
    const int64_t d = order[k];
    const int pick = coin(rng);
    l.strides[d] = pick == 0 ? 0 : pick == 1 ? running * 2 : running;
    running *= std::max<int64_t>(l.sizes[d], 1);
  }
  return l;
}

// A shape to ask of numel elements: mostly a factorisation of numel, sometimes with -1, sometimes
// of another numel.
Shape random_shape(std::mt19937& rng, int64_t numel) {
  std::uniform_int_distribution<int> coin(0, 5), ndim(1, 4), size(0, 6);
  Shape out;
  int64_t left = numel;
  const int n = ndim(rng);
  for (int i = 0; i < n - 1; ++i) {
    int64_t f = 1;
    for (int64_t c = 2; c <= left; ++c)
      if (left % c == 0 && coin(rng) < 3) {
        f = c;
        break;
      }
    out.push_back(f);
    left = f ? left / f : left;
  }
  out.push_back(left);
  std::shuffle(out.begin(), out.end(), rng);
  const int twist = coin(rng);
  if (twist == 0) out[std::uniform_int_distribution<size_t>(0, out.size() - 1)(rng)] = -1;
  if (twist == 1) out[std::uniform_int_distribution<size_t>(0, out.size() - 1)(rng)] = size(rng);
  return out;
}

}  // namespace

TEST_CASE("view_refusal: an explanation exactly when view refuses, over random layouts") {
  std::mt19937 rng(9);
  int refusals = 0, merges = 0;
  for (int k = 0; k < 20000; ++k) {
    const Drawn l = random_layout(rng);
    int64_t numel = 1;
    for (int64_t s : l.sizes) numel *= s;
    const Shape shape = random_shape(rng, numel);
    const bool view_refuses = refused([&] {
      const Shape inferred = infer_size(shape, numel, "view()");
      if (!compute_view_strides(Layout(l.sizes, l.strides), inferred))
        throw Error("view()", "no view");
    });
    const std::optional<LayoutRefusal> why = view_refusal(Layout(l.sizes, l.strides), shape);
    INFO(to_string(l.sizes), to_string(l.strides), " -> ", to_string(shape));
    REQUIRE(why.has_value() == view_refuses);
    if (!why) continue;
    ++refusals;
    CHECK(why->rule == "view");
    CHECK(!why->why.empty());
    CHECK(!why->instead.empty());
    if (why->dims.size() == 2) {
      ++merges;
      // The two dims named are adjacent and really cannot merge: stride[outer] differs from the
      // stride merging needs.
      const int64_t outer = why->dims[0];
      CHECK(why->dims[1] == outer + 1);
      CHECK(l.sizes[outer] != 1);
      CHECK(why->why.find("and stride[" + std::to_string(outer) + "] is " +
                          std::to_string(l.strides[outer])) != std::string::npos);
    }
  }
  CHECK(refusals > 1000);  // the sweep meets both kinds often
  CHECK(merges > 300);
}

TEST_CASE("view_refusal: the transpose of a (3, 4) tensor, viewed as 12") {
  const std::optional<LayoutRefusal> why = view_refusal(Layout({4, 3}, {1, 4}), {12});
  REQUIRE(why);
  CHECK(why->dims == Shape{0, 1});
  CHECK(why->why ==
        "new dim 0 (size 12) spans dims 0 and 1, which cannot merge: merging needs stride[0] = "
        "size[1] × stride[1] = 3 × 4 = 12, and stride[0] is 1");
  CHECK(why->instead == "reshape(12) copies the 12 elements; or contiguous() first, then view(12)");
  // A chunk of two dims: (2, 3, 4) permuted so that dims 1 and 2 still step as one.
  const std::optional<LayoutRefusal> two = view_refusal(Layout({3, 2, 4}, {4, 12, 1}), {24});
  REQUIRE(two);
  CHECK(two->dims == Shape{1, 2});
  CHECK(two->why.find("stride[1] = size[2] × stride[2] = 4 × 1 = 4, and stride[1] is 12") !=
        std::string::npos);
  CHECK(!view_refusal(Layout({3, 4}, {4, 1}), {2, -1}));
  const std::optional<LayoutRefusal> numel = view_refusal(Layout({6}, {1}), {4});
  REQUIRE(numel);
  CHECK(numel->why == "shape [4] holds 4 elements and the tensor 6: a view keeps every element, "
                      "so the sizes must multiply to 6");
}

TEST_CASE("expand_refusal: an explanation exactly when expand refuses") {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> size(-1, 4), extra(0, 2);
  int refusals = 0;
  for (int k = 0; k < 20000; ++k) {
    const Drawn l = random_layout(rng);
    Shape target;
    const int lead = extra(rng) - (extra(rng) == 2 ? 1 : 0);
    for (int i = 0; i < lead; ++i) target.push_back(size(rng));
    for (int64_t s : l.sizes) target.push_back(extra(rng) == 0 ? size(rng) : s);
    const bool refuses = refused([&] { expand_geometry(Layout(l.sizes, l.strides), target); });
    const std::optional<LayoutRefusal> why = expand_refusal(Layout(l.sizes, l.strides), target);
    INFO(to_string(l.sizes), " -> ", to_string(target));
    REQUIRE(why.has_value() == refuses);
    refusals += refuses;
  }
  CHECK(refusals > 1000);
  const std::optional<LayoutRefusal> why = expand_refusal(Layout({2, 3}, {3, 1}), {4, 3});
  REQUIRE(why);
  CHECK(why->dims == Shape{0});
  CHECK(why->why == "dim 0 has size 2, and expand grows only a dim of size 1 (giving it stride "
                    "0); a dim of size 2 keeps its size");
  CHECK(why->instead == "repeat(2, 1) copies it into shape [4, 3]");
}

TEST_CASE("broadcast_refusal: an explanation exactly when the shapes do not broadcast") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> ndim(0, 3), size(0, 3), count(2, 3);
  int refusals = 0;
  for (int k = 0; k < 20000; ++k) {
    std::vector<Shape> shapes(count(rng));
    for (Shape& s : shapes) {
      const int n = ndim(rng);
      for (int i = 0; i < n; ++i) s.push_back(size(rng));
    }
    const bool refuses = refused([&] { broadcast_shapes(shapes); });
    REQUIRE(broadcast_refusal(shapes).has_value() == refuses);
    refusals += refuses;
  }
  CHECK(refusals > 1000);
  const std::optional<LayoutRefusal> why = broadcast_refusal({{3}, {2}});
  REQUIRE(why);
  CHECK(why->dims == Shape{0});
  CHECK(why->why == "aligned from the right, dim 0 of a (size 3) meets dim 0 of b (size 2), and "
                    "neither size is 1: broadcasting stretches only a size-1 dim");
}

TEST_CASE("overlap_refusal: an explanation exactly when the overlap test is sure") {
  std::mt19937 rng(3);
  for (int k = 0; k < 20000; ++k) {
    const Drawn l = random_layout(rng);
    const bool sure = has_internal_overlap(Layout(l.sizes, l.strides)) == MemOverlap::Yes;
    const std::optional<LayoutRefusal> why = overlap_refusal(Layout(l.sizes, l.strides));
    REQUIRE(why.has_value() == sure);
    if (why) CHECK(l.strides[why->dims[0]] == 0);
  }
  const std::optional<LayoutRefusal> why = overlap_refusal(Layout({2, 3}, {0, 1}));
  REQUIRE(why);
  CHECK(why->why == "dim 0 has size 2 and stride 0: its 2 indices address one memory location, so "
                    "the write would land 2 times on each");
}
