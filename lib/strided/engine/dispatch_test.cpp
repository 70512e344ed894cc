// The kernels of every CPU capability this machine supports (dispatch.h) against the baseline's:
// the same ops on the same operands, contiguous, strided, broadcast, transposed, with lengths that
// leave every vector width a tail. Element-wise ops, copies, fills, max, min and integer sums must
// give the same bits; a float sum may differ in rounding, its pairwise tree following the lane
// count, by at most the tolerance below.
#include "strided/engine/dispatch.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "strided/core/error_of.h"
#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"

using namespace strided;

namespace {

const CpuCapability kAll[] = {CpuCapability::Default, CpuCapability::AVX2, CpuCapability::AVX512};

// Every capability the CPU supports, the baseline first.
std::vector<CpuCapability> supported() {
  std::vector<CpuCapability> out;
  for (CpuCapability c : kAll)
    if (c <= max_cpu_capability()) out.push_back(c);
  return out;
}

// Runs f under capability c, then goes back to the one that ran before.
std::vector<Tensor> under(CpuCapability c, const std::function<std::vector<Tensor>()>& f) {
  const CpuCapability before = cpu_capability();
  set_cpu_capability(c);
  std::vector<Tensor> r;
  try {
    r = f();
  } catch (...) {
    set_cpu_capability(before);
    throw;
  }
  set_cpu_capability(before);
  return r;
}

bool identical_bits(const Tensor& a, const Tensor& b) {
  if (a.sizes() != b.sizes() || a.dtype() != b.dtype()) return false;
  const Tensor ca = a.contiguous(), cb = b.contiguous();
  return std::memcmp(ca.data_ptr(), cb.data_ptr(), static_cast<size_t>(ca.nbytes())) == 0;
}

// Relative to the sum of magnitudes: a pairwise sum's error bound grows with log2(n) ulps of it.
bool close_sums(const Tensor& a, const Tensor& b, const Tensor& abs_sum) {
  if (a.sizes() != b.sizes() || a.dtype() != b.dtype()) return false;
  const std::vector<double> x = a.to_vector(), y = b.to_vector(), m = abs_sum.to_vector();
  const double eps = a.dtype() == DType::Float64 ? 1e-15 : 1e-6;
  for (size_t i = 0; i < x.size(); ++i)
    if (std::fabs(x[i] - y[i]) > 8 * eps * m[i] + 1e-30) return false;
  return true;
}

// Every supported capability's results equal the baseline's bit for bit.
void check_alike(const std::string& what, const std::function<std::vector<Tensor>()>& f) {
  const std::vector<Tensor> base = under(CpuCapability::Default, f);
  for (CpuCapability c : supported()) {
    const std::vector<Tensor> r = under(c, f);
    REQUIRE(r.size() == base.size());
    for (size_t k = 0; k < r.size(); ++k) {
      INFO(what, ": result ", k, " under ", to_string(c));
      CHECK(identical_bits(r[k], base[k]));
    }
  }
}

// Lengths around every vector width's step (2 vectors of 4 to 16 lanes) and its tail.
const int64_t kLengths[] = {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129, 1000};

Tensor random_typed(Shape shape, uint64_t seed, DType dtype = DType::Float32) {
  Generator gen(seed);
  Tensor t = sub(mul(rand(shape, gen, {DType::Float64}), Scalar(200.0)), Scalar(100.0));  // in [-100, 100)
  if (dtype == DType::Bool) return t.to(DType::Float32).to(DType::Int64).to(DType::Bool);
  // Integers over all of int32's range, the narrow ones wrapped into theirs.
  if (is_integral(dtype)) return mul(t, Scalar(2e7)).to(DType::Int64).to(dtype);
  return t.to(dtype);
}

const DType kDtypes[] = {DType::Float32, DType::Float64,  DType::Int32, DType::Int64,
                         DType::Bool,    DType::Float16,  DType::BFloat16, DType::UInt8,
                         DType::Int8,    DType::Int16};

}  // namespace

TEST_CASE("dispatch: the capability names, and the CPU's best is the default choice") {
  CHECK(std::string(to_string(CpuCapability::Default)) == "default");
  CHECK(std::string(to_string(CpuCapability::AVX2)) == "avx2");
  CHECK(std::string(to_string(CpuCapability::AVX512)) == "avx512");
  // cpu_capability_name() names the one running; each supported one can be set and named.
  for (CpuCapability c : supported()) {
    under(c, [&] {
      CHECK(cpu_capability() == c);
      CHECK(std::string(cpu_capability_name()) == to_string(c));
      return std::vector<Tensor>{};
    });
  }
  // A capability above the CPU's is refused, naming both.
  if (max_cpu_capability() < CpuCapability::AVX512) {
    const std::string e = error_of([] { set_cpu_capability(CpuCapability::AVX512); });
    CHECK(e.find("avx512") != std::string::npos);
    CHECK(e.find(to_string(max_cpu_capability())) != std::string::npos);
  }
}

TEST_CASE("dispatch: binary ops give the same bits under every capability") {
  for (DType dt : kDtypes) {
    for (int64_t n : kLengths) {
      INFO(name(dt), " n=", n);
      const Tensor a = random_typed({3, n}, 1 + n, dt), b = random_typed({3, n}, 2 + n, dt);
      const Tensor wide = random_typed({3, 3 * n}, 3 + n, dt);
      const Tensor col = random_typed({3, 1}, 4 + n, dt), row = random_typed({1, n}, 5 + n, dt);
      check_alike("binary", [&] {
        std::vector<Tensor> r;
        const Tensor strided = wide.slice(1, 0, std::nullopt, 3);  // stride 3 along the row
        r.push_back(add(a, b));
        r.push_back(mul(a, b));
        r.push_back(add(a, row));  // broadcast along dim 0
        r.push_back(mul(col, a));  // a stride-0 operand along the row
        r.push_back(add(strided, a));
        // Near-strided inputs, gathered (elementwise_loops.h): with a scalar, as the seed's
        // stride-5 add; with a broadcast row; with each other.
        const Tensor strided5 = random_typed({3, 5 * n}, 6 + n, dt).slice(1, 0, std::nullopt, 5);
        r.push_back(add(strided5, b));
        r.push_back(mul(row, strided));
        r.push_back(add(strided, strided5));
        r.push_back(mul(strided5, random_typed({}, 7 + n, dt)));
        r.push_back(add(a.t().contiguous().t(), b));  // transposed layout
        if (dt != DType::Bool) {
          r.push_back(sub(a, b));
          r.push_back(add(a, b, Scalar(int64_t{3})));
          r.push_back(sub(a, Scalar(int64_t{7}), Scalar(int64_t{2})));
          r.push_back(div(a, b));
          r.push_back(div(a, Scalar(3.0)));
          r.push_back(mul(a, Scalar(2.5)));  // integers promote to float
          Tensor inplace = a.clone();
          add_(inplace, strided);
          r.push_back(inplace);
        } else {
          r.push_back(add(a, b, Scalar(false)));
        }
        return r;
      });
    }
  }
}

TEST_CASE("dispatch: unary ops give the same bits under every capability") {
  for (DType dt : kDtypes) {
    if (dt == DType::Bool) continue;  // neg and abs refuse bool
    for (int64_t n : kLengths) {
      INFO(name(dt), " n=", n);
      const Tensor x = random_typed({2, n}, 10 + n, dt);
      const Tensor wide = random_typed({2, 2 * n}, 11 + n, dt);
      check_alike("unary", [&] {
        const Tensor strided = wide.slice(1, 1, std::nullopt, 2);
        std::vector<Tensor> r{neg(x), abs(x), exp(div(x, Scalar(int64_t{50}))), sqrt(abs(x)),
                              neg(strided), exp(div(strided, Scalar(int64_t{50}))),
                              abs(random_typed({2, 7 * n}, 12 + n, dt).slice(1, 3, std::nullopt, 7)),
                              sqrt(x)};  // NaN for the negatives, the same NaN everywhere
        return r;
      });
    }
  }
  // The integer minimum wraps under abs and neg, as PyTorch's.
  check_alike("wrap", [] {
    const Tensor m = full({37}, Scalar(std::numeric_limits<int64_t>::min()), {DType::Int64});
    const Tensor i = full({37}, Scalar(int64_t{std::numeric_limits<int32_t>::min()}), {DType::Int32});
    return std::vector<Tensor>{abs(m), neg(m), abs(i), neg(i), add(i, i)};
  });
}

TEST_CASE("dispatch: copies, conversions and fills give the same bits under every capability") {
  for (DType from : kDtypes) {
    for (int64_t n : {int64_t{1}, int64_t{17}, int64_t{65}, int64_t{129}}) {
      const Tensor x = random_typed({n, 33}, 20 + n, from);
      check_alike("copy", [&] {
        std::vector<Tensor> r{x.t().contiguous(), x.slice(1, 0, std::nullopt, 2).contiguous(),
                              x.select(1, 5).unsqueeze(1).expand({n, 9}).contiguous()};
        for (DType to : kDtypes) r.push_back(x.to(to));
        Tensor dst = empty({33, n}, {from});
        dst.copy_(x.t());
        r.push_back(dst);
        Tensor filled = empty({n, 33}, {from});
        filled.fill_(Scalar(int64_t{1}));
        r.push_back(filled);
        Tensor column = empty({n, 33}, {from});
        column.select(1, 3).fill_(Scalar(int64_t{0}));  // a strided fill
        r.push_back(column.select(1, 3));
        return r;
      });
    }
  }
}

TEST_CASE("dispatch: max, min and their indices give the same bits under every capability") {
  // The narrow integers' loops are the baseline's under every capability (reduce_loops.h).
  for (DType dt : {DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::Float16,
                   DType::UInt8, DType::Int8, DType::Int16}) {
    for (int64_t n : kLengths) {
      INFO(name(dt), " n=", n);
      Tensor x = random_typed({5, n}, 30 + n, dt);
      Tensor with_nan = x.to(DType::Float32).clone();
      with_nan.select(0, 2).select(0, n / 2).fill_(Scalar(std::nan("")));
      check_alike("extremes", [&] {
        std::vector<Tensor> r;
        for (const Tensor& t : {x, x.t(), with_nan, with_nan.t()}) {
          for (int64_t d : {0, 1}) {
            const ValuesIndices mx = max(t, d), mn = min(t, d);
            r.insert(r.end(), {mx.values, mx.indices, mn.values, mn.indices, argmax(t, d)});
          }
          r.insert(r.end(), {max(t), min(t), argmax(t), argmin(t)});
        }
        return r;
      });
    }
  }
}

TEST_CASE("dispatch: integer sums give the same bits, float sums agree within the tolerance") {
  for (DType dt : {DType::Int32, DType::Int64, DType::Bool, DType::UInt8, DType::Int8,
                   DType::Int16}) {
    for (int64_t n : kLengths) {
      const Tensor x = random_typed({6, n}, 40 + n, dt);
      check_alike("integer sums", [&] {
        return std::vector<Tensor>{sum(x), sum(x, 0), sum(x, 1), sum(x.t(), 0),
                                   sum(x.slice(1, 0, std::nullopt, 2), 1)};
      });
    }
  }
  for (DType dt : {DType::Float32, DType::Float64}) {
    for (int64_t n : {int64_t{7}, int64_t{65}, int64_t{1000}, int64_t{100003}}) {
      INFO(name(dt), " n=", n);
      const Tensor x = random_typed({3, n}, 50 + n, dt);
      auto sums = [&] {
        return std::vector<Tensor>{sum(x), sum(x, 0), sum(x, 1), sum(x.t(), 1),
                                   sum(x.slice(1, 0, std::nullopt, 3), 1), mean(x, 1)};
      };
      const std::vector<Tensor> base = under(CpuCapability::Default, sums);
      const Tensor ax = abs(x);
      const std::vector<Tensor> bound{sum(ax),    sum(ax, 0), sum(ax, 1), sum(ax.t(), 1),
                                      sum(ax.slice(1, 0, std::nullopt, 3), 1),
                                      mean(ax, 1)};
      for (CpuCapability c : supported()) {
        const std::vector<Tensor> r = under(c, sums);
        for (size_t k = 0; k < r.size(); ++k) {
          INFO("sum ", k, " under ", to_string(c));
          CHECK(close_sums(r[k], base[k], bound[k]));
        }
      }
    }
  }
}

TEST_CASE("dispatch: a near-strided input's gathered lanes are its elements, under every capability") {
  // Against values read one by one, not against the baseline, which gathers too (lane by lane).
  for (DType dt : {DType::Float32, DType::Float64, DType::Int32, DType::Int64}) {
    for (int64_t step : {2, 3, 5, 7, 15}) {
      const int64_t n = 1000;
      const Tensor wide = random_typed({step * n}, 30 + step, dt);
      const Tensor x = wide.slice(0, 1, std::nullopt, step);  // stride step elements, offset 1
      const std::vector<double> w = wide.to_vector();
      for (CpuCapability c : supported()) {
        const std::vector<Tensor> r =
            under(c, [&] { return std::vector<Tensor>{add(x, Scalar(int64_t{3})), neg(x)}; });
        const std::vector<double> sum = r[0].to_vector(), negated = r[1].to_vector();
        bool alike = true;
        for (int64_t i = 0; i < n; ++i) {
          const double e = w[1 + i * step];
          // float32 adds in float: its sum is the float nearest the exact one.
          const double plus3 = dt == DType::Float32 ? double(float(e) + 3.0f) : e + 3;
          alike = alike && sum[i] == plus3 && negated[i] == -e;
        }
        INFO(name(dt), " step ", step, " under ", std::string(to_string(c)));
        CHECK(alike);
      }
    }
  }
}
