// The layout as a value: its one checked constructor, and each view op's post-condition over many
// random layouts. A view's layout must address exactly the elements a stride-free reference
// picks, in the same order: the reference maps each index of the result to an index of the base by
// the op's definition alone (select fixes a coordinate, slice steps it, permute reorders it...),
// and only then asks the base layout where that element lives. So the strides and offsets the
// layout algebra computes are checked against the ops' meaning, not against a second copy of the
// same arithmetic.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

#include "strided/core/error.h"
#include "strided/layout/layout.h"

using namespace strided;

namespace {

// The storage offset of a base index, through the base layout's address formula.
int64_t address(const Layout& l, IntList index) {
  int64_t off = l.storage_offset();
  for (size_t d = 0; d < index.size(); ++d) off += index[d] * l.strides()[d];
  return off;
}

// Every offset a layout addresses, in row-major order of its indices.
std::vector<int64_t> offsets(const Layout& l) {
  std::vector<int64_t> out;
  for_each_index(l.sizes(), {l.strides()},
                 [&](const int64_t* off) { out.push_back(l.storage_offset() + off[0]); });
  return out;
}

// The offsets the reference picks: for each index of a result of `sizes`, in row-major order, the
// base index `pick` maps it to, addressed through the base layout.
std::vector<int64_t> picked(const Layout& base, const Shape& sizes,
                            const std::function<Shape(const Shape&)>& pick) {
  std::vector<int64_t> out;
  for_each_index(sizes, {}, [&](const int64_t* index, const int64_t*) {
    out.push_back(address(base, pick(Shape(index, index + sizes.size()))));
  });
  return out;
}

// A random layout: up to 4 dims of sizes 1 to 4, a permuted and stepped contiguous order, an
// offset up to 5.
Layout random_view_base(std::mt19937& rng) {
  std::uniform_int_distribution<int> ndim(1, 4), size(1, 4), step(1, 3), offset(0, 5);
  const int n = ndim(rng);
  Shape sizes(n), order(n), strides(n);
  for (int d = 0; d < n; ++d) sizes[d] = size(rng);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  int64_t running = step(rng);
  for (int64_t d : order) {
    strides[d] = running;
    running *= sizes[d] * step(rng);
  }
  return Layout(sizes, strides, offset(rng));
}

int64_t draw_in(std::mt19937& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

}  // namespace

TEST_CASE("Layout: one checked constructor, a value compared field by field") {
  const Layout l({2, 3}, {3, 1}, 4);
  CHECK(l.sizes() == Shape{2, 3});
  CHECK(l.strides() == Shape{3, 1});
  CHECK(l.storage_offset() == 4);
  CHECK(l.dim() == 2);
  CHECK(to_string(l) == "(2,3):(3,1)");
  CHECK(Layout::contiguous({2, 3, 4}, 1) == Layout({2, 3, 4}, {12, 4, 1}, 1));
  CHECK(Layout() == Layout({}, {}, 0));
  CHECK_FALSE(Layout({2, 3}, {3, 1}) == Layout({2, 3}, {3, 1}, 1));
  // NumPy's negative strides describe a layout too; only a Tensor asks more of one.
  CHECK(Layout({3}, {-1}, 2).strides() == Shape{-1});
  CHECK_THROWS_WITH_AS(Layout({2, 3}, {1}),
                       doctest::Contains("mismatch in length of strides (1) "
                                         "and shape (2)"),
                       Error);
  CHECK_THROWS_WITH_AS(Layout({2, -1}, {1, 1}),
                       doctest::Contains("negative size at dim 1: sizes [2, -1]"), Error);
}

TEST_CASE("each view op's layout addresses exactly the elements its definition picks, in order") {
  std::mt19937 rng(20261129);
  int checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Layout base = random_view_base(rng);
    const Shape& s = base.sizes();
    const int64_t n = base.dim();
    CAPTURE(to_string(base));
    CAPTURE(base.storage_offset());

    {  // select(d, i): the result's index with i inserted at d
      const int64_t d = draw_in(rng, 0, n - 1), i = draw_in(rng, 0, s[d] - 1);
      const Layout v = select_geometry(base, d, i);
      CHECK(offsets(v) == picked(base, v.sizes(), [&](Shape idx) {
              idx.insert(idx.begin() + d, i);
              return idx;
            }));
    }
    {  // slice(d, start, end, step): coordinate start + k * step
      const int64_t d = draw_in(rng, 0, n - 1), start = draw_in(rng, 0, s[d]);
      const int64_t end = draw_in(rng, start, s[d]), step = draw_in(rng, 1, 3);
      const Layout v = slice_geometry(base, d, start, end, step);
      CHECK(offsets(v) == picked(base, v.sizes(), [&](Shape idx) {
              idx[d] = start + idx[d] * step;
              return idx;
            }));
    }
    {  // permute(p): result dim k is base dim p[k]
      Shape p(n);
      std::iota(p.begin(), p.end(), 0);
      std::shuffle(p.begin(), p.end(), rng);
      const Layout v = permute_geometry(base, p);
      CHECK(offsets(v) == picked(base, v.sizes(), [&](const Shape& idx) {
              Shape b(n);
              for (int64_t k = 0; k < n; ++k) b[p[k]] = idx[k];
              return b;
            }));
    }
    {  // transpose(d0, d1): the two coordinates swap
      const int64_t d0 = draw_in(rng, 0, n - 1), d1 = draw_in(rng, 0, n - 1);
      const Layout v = transpose_geometry(base, d0, d1);
      CHECK(offsets(v) == picked(base, v.sizes(), [&](Shape idx) {
              std::swap(idx[d0], idx[d1]);
              return idx;
            }));
    }
    {  // unsqueeze(d): the size-1 dim's coordinate is dropped
      const int64_t d = draw_in(rng, 0, n);
      const Layout v = unsqueeze_geometry(base, d);
      CHECK(offsets(v) == picked(base, v.sizes(), [&](Shape idx) {
              idx.erase(idx.begin() + d);
              return idx;
            }));
    }
    {  // squeeze(): every size-1 dim's coordinate is 0
      const Layout v = squeeze_geometry(base, std::nullopt);
      CHECK(offsets(v) == picked(base, v.sizes(), [&](const Shape& idx) {
              Shape b;
              size_t k = 0;
              for (int64_t d = 0; d < n; ++d) b.push_back(s[d] == 1 ? 0 : idx[k++]);
              return b;
            }));
    }
    {  // expand: a new leading dim or a grown size-1 dim contributes nothing
      Shape target = s;
      for (int64_t d = 0; d < n; ++d)
        if (s[d] == 1) target[d] = draw_in(rng, 1, 3);
      target.insert(target.begin(), draw_in(rng, 1, 2));
      const Layout v = expand_geometry(base, target);
      CHECK(offsets(v) == picked(base, v.sizes(), [&](const Shape& idx) {
              Shape b(idx.begin() + 1, idx.end());
              for (int64_t d = 0; d < n; ++d)
                if (s[d] == 1) b[d] = 0;
              return b;
            }));
    }
    {  // unfold(d, size, step): window w, element j is coordinate w * step + j
      const int64_t d = draw_in(rng, 0, n - 1), size = draw_in(rng, 0, s[d]),
                    step = draw_in(rng, 1, 2);
      const Layout v = unfold_geometry(base, d, size, step);
      CHECK(offsets(v) == picked(base, v.sizes(), [&](Shape idx) {
              const int64_t j = idx.back();
              idx.pop_back();
              idx[d] = idx[d] * step + j;
              return idx;
            }));
    }
    if (n >= 2) {  // diagonal(k, d1, d2): element i is (i, i + k) for k >= 0, (i - k, i) below
      const int64_t d1 = draw_in(rng, 0, n - 1);
      int64_t d2 = draw_in(rng, 0, n - 2);
      if (d2 >= d1) ++d2;
      const int64_t k = draw_in(rng, -s[d1], s[d2]);
      const Layout v = diagonal_geometry(base, k, d1, d2);
      CHECK(offsets(v) == picked(base, v.sizes(), [&](const Shape& idx) {
              Shape b(n);
              size_t r = 0;
              for (int64_t d = 0; d < n; ++d)
                if (d != d1 && d != d2) b[d] = idx[r++];
              const int64_t i = idx.back();
              b[d1] = k >= 0 ? i : i - k;
              b[d2] = k >= 0 ? i + k : i;
              return b;
            }));
    }
    {  // view(sizes) of a row-major split of the last dim, when view succeeds: the same order
      const Shape split = [&] {
        Shape t(s.begin(), s.end() - 1);
        t.push_back(1);
        t.push_back(s.back());
        return t;
      }();
      if (std::optional<Shape> st = compute_view_strides(base, split)) {
        const Layout v(split, *st, base.storage_offset());
        CHECK(offsets(v) == offsets(base));
      }
    }
    ++checked;
  }
  CHECK(checked == 400);
}
