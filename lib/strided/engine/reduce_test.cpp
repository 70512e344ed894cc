// Reductions: dtypes, layouts, errors, NaN and ties as PyTorch 1.13 gives them (every literal
// below was printed by torch for the same input), and every path (NOTE: [Reduction paths])
// against an element-by-element reference over many layouts.
#include "strided/engine/reduce.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "strided/engine/ops.h"
#include "strided/engine/parallel.h"

using namespace strided;

namespace {

std::vector<double> vals(const Tensor& t) {
  return t.to_vector();
}

Tensor arange_f(Shape shape, DType dtype = DType::Float32) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return arange(n).to(dtype).reshape(shape);  // through int64: arange itself refuses bool
}

Tensor random_seeded(Shape shape, uint64_t seed) {
  Generator gen(seed);
  return rand(shape, gen);
}

// The reference: each output element by walking the reduced dim in order with the definition.
struct Reference {
  std::vector<double> sum, max_v, min_v;
  std::vector<int64_t> argmax, argmin;
};
Reference reference(const Tensor& x, int64_t dim) {
  Reference r;
  const int64_t n = x.size(dim);
  const Tensor moved = x.movedim(dim, -1).contiguous();
  const Tensor rows = moved.reshape({-1, n});
  for (int64_t i = 0; i < rows.size(0); ++i) {
    double s = 0, mx = 0, mn = 0;
    int64_t amx = 0, amn = 0;
    for (int64_t k = 0; k < n; ++k) {
      const double v = rows.at({i, k}).to_double();
      s += v;
      if (k == 0 || (!std::isnan(mx) && (std::isnan(v) || v > mx))) {
        mx = v;
        amx = k;
      }
      if (k == 0 || (!std::isnan(mn) && (std::isnan(v) || v < mn))) {
        mn = v;
        amn = k;
      }
    }
    r.sum.push_back(s);
    r.max_v.push_back(mx);
    r.min_v.push_back(mn);
    r.argmax.push_back(amx);
    r.argmin.push_back(amn);
  }
  return r;
}

bool same(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}


// The exact sum (in double) of count elements of xs from first, step apart, and the sum of their
// magnitudes: a float32 sum of them in any order is within count · 2^-24 · magnitude of exact.
struct ExactSum {
  double exact = 0, magnitude = 0;
};
ExactSum exact_sum(const std::vector<double>& xs, int64_t first, int64_t count, int64_t step) {
  ExactSum s;
  for (int64_t k = 0; k < count; ++k) {
    const double v = xs[static_cast<size_t>(first + k * step)];
    s.exact += v;
    s.magnitude += std::fabs(v);
  }
  return s;
}

// Whether each of x's column sums (x row-major, rows × w, as xs) is within rows · 2^-24 · Σ|x| of
// the exact sum (any summation order keeps that bound).
bool columns_within_bound(const std::vector<double>& sums, const std::vector<double>& xs,
                          int64_t rows, int64_t w) {
  bool ok = true;
  for (int64_t j = 0; j < w; ++j) {
    const ExactSum e = exact_sum(xs, j, rows, w);
    ok &= std::fabs(sums[static_cast<size_t>(j)] - e.exact) <=
          static_cast<double>(rows) * 0x1p-24 * e.magnitude;
  }
  return ok;
}

// Whether the column sums of every suffix x[:, s:] have the bits of the whole one's columns: a
// column's sum does not depend on which lane or scalar loop takes it.
bool suffix_columns_keep_bits(const Tensor& x, const std::vector<double>& full, int64_t w) {
  bool same = true;
  for (int64_t s = 1; s + 2 <= w; ++s) {
    const std::vector<double> part = vals(sum(x.slice(1, s, w), 0));
    for (int64_t j = s; j < w; ++j)
      same &= part[static_cast<size_t>(j - s)] == full[static_cast<size_t>(j)];
  }
  return same;
}

}  // namespace

TEST_CASE("dtypes: sum of integers and bool is int64, mean refuses them") {
  CHECK(sum(arange_f({2, 3}, DType::Int32)).dtype() == DType::Int64);
  CHECK(sum(arange_f({2, 3}, DType::Bool), 1).dtype() == DType::Int64);
  CHECK(sum(arange_f({2, 3}, DType::Float16)).dtype() == DType::Float16);
  // torch.tensor([2**31-1, 1], dtype=torch.int32).sum() is 2147483648: int64 accumulation.
  const Tensor i32 = from_values({2147483647.0, 1.0}, {2}, {DType::Int32});
  CHECK(sum(i32).item().to_int() == 2147483648);
  // int64 wraps as two's complement: tensor([2**63-1, 1]).sum() is -2**63.
  Tensor big = zeros({2}, {DType::Int64});
  big.set({0}, Scalar(std::numeric_limits<int64_t>::max()));
  big.set({1}, Scalar(int64_t{1}));
  CHECK(sum(big).item().to_int() == std::numeric_limits<int64_t>::min());
  CHECK_THROWS_WITH_AS(mean(arange_f({3}, DType::Int64)),
                       "mean(): could not infer output dtype. Input dtype must be either a "
                       "floating point or complex dtype. Got: Long",
                       Error);
  CHECK_THROWS_WITH_AS(mean(arange_f({3}, DType::Bool), 0), doctest::Contains("Got: Bool"), Error);
  CHECK(max(arange_f({3}, DType::Int32)).dtype() == DType::Int32);
  CHECK(max(arange_f({3}), 0).indices.dtype() == DType::Int64);
}

TEST_CASE("uint8, int8 and int16: sums are int64 and leave the type's range; extremes keep it") {
  // torch: torch.full((1000,), 200, dtype=torch.uint8).sum() is 200000, an int64.
  const Tensor u = full({1000}, Scalar(int64_t{200}), {DType::UInt8});
  CHECK(sum(u).dtype() == DType::Int64);
  CHECK(sum(u).item().to_int() == 200000);
  const Tensor i = from_values({100, -128, 127, -1, 0, 5}, {2, 3}, {DType::Int8});
  CHECK(vals(sum(i, 0)) == std::vector<double>{99, -128, 132});
  CHECK(vals(sum(i, 1)) == std::vector<double>{99, 4});
  CHECK(sum(i.t(), 1).dtype() == DType::Int64);
  CHECK(vals(sum(i.t(), 1)) == std::vector<double>{99, -128, 132});
  const Tensor s = full({3, 70000}, Scalar(int64_t{-32768}), {DType::Int16});
  CHECK(vals(sum(s, 1)) == std::vector<double>(3, -32768.0 * 70000));
  CHECK(vals(sum(s.slice(1, 0, std::nullopt, 7), 1)) == std::vector<double>(3, -32768.0 * 10000));
  CHECK(max(i).dtype() == DType::Int8);
  CHECK(max(i).item().to_int() == 127);
  CHECK(min(i).item().to_int() == -128);
  CHECK(argmax(i).item().to_int() == 2);
  CHECK(vals(max(i, 0).values) == std::vector<double>{100, 0, 127});
  CHECK(vals(min(i, 1).indices) == std::vector<double>{1, 0});
  CHECK(vals(max(u.view({10, 100}).t(), 1).values) == std::vector<double>(100, 200));
  CHECK_THROWS_WITH_AS(mean(u), doctest::Contains("Got: Byte"), Error);
  CHECK_THROWS_WITH_AS(mean(i, 0), doctest::Contains("Got: Char"), Error);
}

TEST_CASE("values and shapes as torch prints them") {
  const Tensor a = arange_f({2, 3, 4});
  CHECK(vals(sum(a, 1)) == std::vector<double>{12, 15, 18, 21, 48, 51, 54, 57});
  CHECK(sum(a).item().to_double() == 276);
  CHECK(vals(mean(a, -1)) == std::vector<double>{1.5, 5.5, 9.5, 13.5, 17.5, 21.5});
  CHECK(sum(a, 1, true).sizes() == Shape{2, 1, 4});
  CHECK(sum(a, 1).sizes() == Shape{2, 4});
  // The result is contiguous whatever the input's layout: (2,3,4).permute(2,0,1).sum(1) has
  // strides (3,1).
  CHECK(sum(a.permute({2, 0, 1}), 1).strides() == Shape{3, 1});
  CHECK(max(a.permute({2, 0, 1}), 1).indices.strides() == Shape{3, 1});
  // float16 accumulates in float32 and rounds once: (arange(24) * 100).half().sum() is 27600.
  CHECK(sum(mul(arange_f({24}, DType::Float16), Scalar(int64_t{100}))).item().to_double() == 27600);
  // mean of float16 divides the float16 sum: [1024, 1025, 0] holds [1024, 1024, 0], whose sum
  // 2048 over 3 is 682.5 in float16 (torch 1.13).
  const Tensor h = from_values({1024, 1025, 0}, {3}, {DType::Float16});
  CHECK(mean(h).item().to_double() == 682.5);
  // 0-d: dims 0 and -1 only; keepdim keeps it 0-d.
  const Tensor s = scalar_tensor(5.0);
  CHECK(sum(s, -1).dim() == 0);
  CHECK(sum(s, 0, true).dim() == 0);
  CHECK(max(s, 0).indices.item().to_int() == 0);
  CHECK_THROWS_WITH_AS(sum(s, 1), doctest::Contains("Dimension out of range"), Error);
  CHECK_THROWS_WITH_AS(sum(a, 3),
                       "sum(): Dimension out of range (expected to be in range of [-3, 2], but "
                       "got 3)",
                       Error);
}

TEST_CASE("empty tensors: sums are 0, means NaN, extremes refuse as PyTorch") {
  const Tensor e = zeros({0, 3});
  CHECK(vals(sum(e, 0)) == std::vector<double>{0, 0, 0});
  CHECK(std::isnan(mean(e).item().to_double()));
  CHECK(sum(e).item().to_double() == 0);
  CHECK_THROWS_WITH_AS(max(e),
                       "max(): Expected reduction dim to be specified for input.numel() == 0. "
                       "Specify the reduction dim with the 'dim' argument.",
                       Error);
  CHECK_THROWS_WITH_AS(max(e, 0), "max(): Expected reduction dim 0 to have non-zero size.", Error);
  CHECK_THROWS_WITH_AS(min(e, -2), "min(): Expected reduction dim 0 to have non-zero size.", Error);
  CHECK_THROWS_WITH_AS(
      argmax(e), "argmax(): Expected reduction dim to be specified for input.numel() == 0.", Error);
  CHECK_THROWS_WITH_AS(argmax(e, 0), "argmax(): Expected reduction dim 0 to have non-zero size.",
                       Error);
  // Along a non-empty dim of an empty tensor: an empty result, no error.
  CHECK(max(e, 1).values.sizes() == Shape{0});
  CHECK(argmin(zeros({2, 0}), 0).sizes() == Shape{0});
  CHECK_THROWS_WITH_AS(argmax(arange_f({3}, DType::Bool)),
                       "\"argmax_cpu\" not implemented for 'Bool'", Error);
}

TEST_CASE("NaN propagates through max and min; indices give the first NaN; ties the first") {
  const double nan = std::nan("");
  const Tensor x = from_values({1, nan, 3, nan}, {4});
  CHECK(std::isnan(max(x).item().to_double()));
  CHECK(std::isnan(min(x).item().to_double()));
  CHECK(argmax(x).item().to_int() == 1);
  CHECK(max(x, 0).indices.item().to_int() == 1);
  const Tensor ties = from_values({3, 3, 1, 1}, {4}, {DType::Int64});
  CHECK(argmax(ties).item().to_int() == 0);
  CHECK(argmin(ties).item().to_int() == 2);
  const Tensor b = from_values({1, 0, 0, 1, 0, 0}, {2, 3}, {DType::Bool});
  CHECK(vals(max(b, 1).values) == std::vector<double>{1, 1});
  CHECK(vals(max(b, 1).indices) == std::vector<double>{0, 0});
  CHECK(sum(b).item().to_int() == 2);
}

TEST_CASE("float sums are cascaded: 2^20 times 0.1f agrees with torch to 1e-5") {
  // torch.full((2**20,), 0.1).sum() is 104857.617 and .sum(0) of a (2**20, 4) tensor 104857.508;
  // a left-to-right float sum gives 105891.844, 1% off.
  const double exact = 104857.6015625;  // 2^20 * float(0.1), in double
  const Tensor x = full({int64_t{1} << 20}, Scalar(0.1));
  CHECK(std::fabs(sum(x).item().to_double() - 104857.617) / exact < 1e-5);
  CHECK(std::fabs(mean(x).item().to_double() - 0.100000016) < 1e-6);
  const Tensor rows = full({int64_t{1} << 20, 4}, Scalar(0.1));
  CHECK(reduce_path(rows, 0) == ReducePath::Outer);
  for (double v : vals(sum(rows, 0))) CHECK(std::fabs(v - 104857.508) / exact < 1e-5);
}

TEST_CASE("every path agrees with the element-wise reference, on any layout and thread count") {
  const Tensor base = random_seeded({6, 5, 7}, 3);
  struct Layout {
    const char* what;
    Tensor x;
  };
  const double nan = std::nan("");
  Tensor with_nan = base.clone();
  with_nan.set({2, 1, 3}, Scalar(nan));
  with_nan.set({4, 4, 0}, Scalar(nan));
  const std::vector<Layout> layouts = {
      {"contiguous", base},
      {"permuted", base.permute({2, 0, 1})},
      {"sliced", base.slice(2, 0, std::nullopt, 2)},
      {"expanded", base.slice(1, 0, 1).expand({6, 9, 7})},
      {"with NaN", with_nan},
      {"transposed with NaN", with_nan.transpose(0, 2)},
      {"ties", mul(base, Scalar(int64_t{0}))},
      {"long rows", random_seeded({3, 3000}, 4)},
      {"long columns", random_seeded({3000, 3}, 5)},
      {"int64", arange_f({4, 5, 6}, DType::Int64).permute({1, 2, 0})},
      {"int32 with ties", arange_f({6, 6}, DType::Int32).slice(0, 0, 1).expand({5, 6})},
      {"float64", to_dtype(base, DType::Float64).transpose(1, 2)},
      {"float16", to_dtype(base, DType::Float16)},
  };
  const int threads_before = get_num_threads();
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    for (const Layout& l : layouts) {
      for (int64_t dim = 0; dim < l.x.dim(); ++dim) {
        INFO(std::string(l.what) << ", dim " << dim << ", " << threads << " threads, path "
                                 << std::string(to_string(reduce_path(l.x, dim))));
        const Reference r = reference(l.x, dim);
        const std::vector<double> s = vals(sum(l.x, dim));
        const ValuesIndices mx = max(l.x, dim), mn = min(l.x, dim);
        const std::vector<double> mxv = vals(mx.values), mnv = vals(mn.values);
        const std::vector<double> mxi = vals(mx.indices), mni = vals(mn.indices);
        const std::vector<double> amx = vals(argmax(l.x, dim)), amn = vals(argmin(l.x, dim));
        REQUIRE(s.size() == r.sum.size());
        bool ok = true;
        for (size_t i = 0; i < s.size(); ++i) {
          const double tol = l.x.dtype() == DType::Float16 ? 2e-3 : 1e-5;
          ok &= same(s[i], r.sum[i]) || std::fabs(s[i] - r.sum[i]) <= tol * std::fabs(r.sum[i]);
          ok &= same(mxv[i], r.max_v[i]) && same(mnv[i], r.min_v[i]);
          ok &= mxi[i] == r.argmax[i] && mni[i] == r.argmin[i];
          ok &= amx[i] == r.argmax[i] && amn[i] == r.argmin[i];
        }
        CHECK(ok);
      }
      // Over all elements: argmax is the row-major flat index.
      const Reference all = reference(l.x.reshape({-1}), 0);
      CHECK(same(max(l.x).item().to_double(), all.max_v[0]));
      CHECK(same(min(l.x).item().to_double(), all.min_v[0]));
      CHECK(argmax(l.x).item().to_int() == all.argmax[0]);
      CHECK(argmin(l.x).item().to_int() == all.argmin[0]);
    }
  }
  set_num_threads(threads_before);
}

TEST_CASE("paths: unit stride along the dim is inner, a unit-stride kept dim is outer") {
  const Tensor x = zeros({1024, 1024});
  CHECK(reduce_path(x, -1) == ReducePath::Inner);
  CHECK(reduce_path(x, -2) == ReducePath::Outer);
  CHECK(reduce_path(x.t(), -1) == ReducePath::Outer);
  CHECK(reduce_path(x.slice(1, 0, std::nullopt, 2), 0) == ReducePath::Strided);
  CHECK(std::string(to_string(ReducePath::Inner)) == "inner");
}

TEST_CASE("the outer path also takes a unit-stride kept dim the plan puts further out") {
  // (300, 40, 70) permuted to (70, 40, 300): reducing dim 1, the results order the kept dims
  // (70, 300) with 300 innermost, while x has unit stride along the 70. The plan's 2-D blocks
  // see the 300 only; the outer path walks blocks of 40 rows by the 70 instead, and gives what
  // the contiguous copy gives, float sums included (each column is cascaded the same way).
  const Tensor x = random_seeded({300, 40, 70}, 6).permute({2, 1, 0});
  CHECK(reduce_path(x, 1) == ReducePath::Outer);
  const int threads_before = get_num_threads();
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    const Tensor c = x.contiguous();
    CHECK(vals(sum(x, 1)) == vals(sum(c, 1)));
    CHECK(vals(max(x, 1).values) == vals(max(c, 1).values));
    CHECK(vals(argmin(x, 1)) == vals(argmin(c, 1)));
  }
  set_num_threads(threads_before);
}

TEST_CASE("many short rows: sums of rows of 1 to 70 elements agree with a double-precision sum") {
  // Rows shorter than a vector are added in scalars inside the loop over rows, longer ones with
  // one vector accumulator before four fit (reduce_loops.h, sum_row and sum_contiguous): every
  // length from 1 to 70 crosses those bounds for 16-, 32- and 64-byte vectors. Any order of n
  // float additions is off by at most (n - 1) eps times the sum of magnitudes; a lost or doubled
  // element would be off by about one element.
  const int threads_before = get_num_threads();
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    for (int64_t n = 1; n <= 70; ++n) {
      // Enough rows that two threads split them (kGrainSize inputs per chunk at least).
      const int64_t rows = 2 * kGrainSize / n + 3;
      const Tensor x = sub(mul(random_seeded({rows, n}, 100 + static_cast<uint64_t>(n)), Scalar(2.0)),
                           Scalar(1.0));
      INFO("rows of " << n << ", " << threads << " threads");
      const std::vector<double> xs = vals(x), s = vals(sum(x, 1)), m = vals(mean(x, 1));
      REQUIRE(s.size() == static_cast<size_t>(rows));
      bool ok = true;
      for (int64_t i = 0; i < rows; ++i) {
        const auto [exact, magnitude] = exact_sum(xs, i * n, n, 1);
        const double bound = static_cast<double>(n) * 0x1p-24 * magnitude;
        ok &= std::fabs(s[static_cast<size_t>(i)] - exact) <= bound;
        ok &= std::fabs(m[static_cast<size_t>(i)] - exact / static_cast<double>(n)) <=
              bound / static_cast<double>(n) + 0x1p-24 * std::fabs(exact / static_cast<double>(n));
      }
      CHECK(ok);
      // The other dtypes of the vector loops, on a few lengths: float64 and int64 exactly.
      if (n % 7 == 1) {
        const Tensor d = to_dtype(x, DType::Float64), k = to_dtype(mul(x, Scalar(1000.0)), DType::Int64);
        const std::vector<double> ds = vals(sum(d, 1)), ks = vals(sum(k, 1)), kx = vals(k);
        bool exact_ok = true;
        for (int64_t i = 0; i < rows; ++i) {
          double e = 0, ke = 0;
          for (int64_t c = 0; c < n; ++c) {
            e += xs[static_cast<size_t>(i * n + c)];
            ke += kx[static_cast<size_t>(i * n + c)];
          }
          exact_ok &= std::fabs(ds[static_cast<size_t>(i)] - e) <= 1e-12 * static_cast<double>(n);
          exact_ok &= ks[static_cast<size_t>(i)] == ke;
        }
        CHECK(exact_ok);
      }
    }
  }
  set_num_threads(threads_before);
}

TEST_CASE("a sum over a dim of size 1 starts from 0, as PyTorch's: -0.0 sums to +0.0") {
  // torch.full((100, 1), -0.0).sum(1) is tensor([0., 0., ...]) in float32, float64 and float16.
  for (DType dtype : {DType::Float32, DType::Float64, DType::Float16}) {
    const Tensor x = full({100, 1}, Scalar(-0.0), {dtype});
    for (double v : vals(sum(x, 1))) CHECK(!std::signbit(v));
    for (double v : vals(sum(x.t(), 0))) CHECK(!std::signbit(v));
  }
  const Tensor k = full({50, 1}, Scalar(int64_t{-7}), {DType::Int64});
  for (double v : vals(sum(k, 1))) CHECK(v == -7);
}

TEST_CASE("outer path: a column's sum is the same in a vector lane as in a scalar, and exact enough") {
  // The outer path sums groups of four vectors of columns, then single vectors, then scalars
  // (reduce_loops.h, sum_columns), each down all the rows in the same cascade. Slicing off the
  // first s columns moves every column to another lane, or out of the vectors: its sum keeps its
  // bits (while two columns are left: one alone has no unit-stride kept dim, and takes the
  // strided path). Any order of n float additions is off by at most (n - 1) eps times the sum of
  // magnitudes.
  const int threads_before = get_num_threads();
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    for (int64_t rows : {1, 15, 17, 300, 4099}) {
      const int64_t w = 70;
      const Tensor x = sub(mul(random_seeded({rows, w}, 7 + static_cast<uint64_t>(rows)), Scalar(2.0)),
                           Scalar(1.0));
      REQUIRE((rows == 1 || reduce_path(x, 0) == ReducePath::Outer));
      const std::vector<double> full_sum = vals(sum(x, 0)), xs = vals(x);
      INFO(rows << " rows, " << threads << " threads");
      CHECK(columns_within_bound(full_sum, xs, rows, w));
      CHECK(suffix_columns_keep_bits(x, full_sum, w));
    }
  }
  set_num_threads(threads_before);
}

TEST_CASE("strided path: a column slice summed down its rows, four outputs at a time") {
  // x[:, ::2] of a (rows, 2 w) matrix, reduced over dim 0: the reduced dim steps further than
  // the kept one, so four outputs walk down their rows together and the last ones alone, in the
  // same cascade (reduce_loops.h, sum_kernel); their bits do not depend on which group a column
  // falls in. Rows along the kept dim (dim 1) are strided rows of ATen's row_sum.
  const int threads_before = get_num_threads();
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    for (int64_t rows : {3, 40, 2000}) {
      const int64_t w = 23;
      const Tensor full_x = sub(mul(random_seeded({rows, 2 * w}, 11 + static_cast<uint64_t>(rows)),
                                    Scalar(2.0)),
                                Scalar(1.0));
      const Tensor x = full_x.slice(1, 0, std::nullopt, 2);
      REQUIRE(reduce_path(x, 0) == ReducePath::Strided);
      const std::vector<double> down = vals(sum(x, 0)), across = vals(sum(x, 1));
      INFO(rows << " rows, " << threads << " threads");
      CHECK(columns_within_bound(down, vals(x), rows, w));
      CHECK(columns_within_bound(across, vals(x.t()), w, rows));  // the rows, as x.t()'s columns
      CHECK(suffix_columns_keep_bits(x, down, w));
    }
  }
  set_num_threads(threads_before);
}
