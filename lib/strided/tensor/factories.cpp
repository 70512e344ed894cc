#include <cmath>

#include "strided/layout/layout.h"
#include "strided/tensor/tensor.h"

namespace strided {

namespace {
// The factories that compute their values (arange, from_values, rand...) compute them on the CPU:
// one refusal, worded once, for a tensor asked of them on another device.
void check_made_on_cpu(const Tensor& t, const char* op) {
  STRIDED_CHECK(t.device().is_cpu(), op, "makes its values on the CPU only, not on ",
                t.device().str(), "; make the tensor on the CPU, then copy it to the GPU");
}
}  // namespace

Tensor empty_strided(IntList sizes, IntList strides, TensorOptions options) {
  // EmptyTensor.cpp, empty_strided_generic: the byte count first (computeStorageNbytes, which a
  // 0 anywhere in sizes makes 0), then the new tensor's numel check (c10's safe_compute_numel).
  STRIDED_CHECK(sizes.size() == strides.size(), "empty_strided", "mismatch in length of strides (",
                strides.size(), ") and shape (", sizes.size(), ")");
  for (int64_t s : sizes)
    STRIDED_CHECK(s >= 0, "empty_strided", "negative dimension ", s, " in size ", to_string(sizes));
  for (int64_t s : strides)
    STRIDED_CHECK(s >= 0, "empty_strided", "negative strides are not supported, got strides ",
                  to_string(strides));
  Layout layout(sizes.vec(), strides.vec());
  const int64_t nbytes = storage_nbytes_needed(layout, itemsize(options.dtype), "empty_strided");
  checked_numel(sizes, "empty_strided");
  return Tensor(Storage::allocate(nbytes, options.device), std::move(layout), options.dtype);
}

namespace {
// empty's body, its errors named for the factory the caller called (zeros, rand, ...).
Tensor empty_named(IntList sizes, TensorOptions options, const char* op) {
  // EmptyTensor.cpp, empty_generic: computeStorageNbytesContiguous's rule, then a contiguous
  // tensor (whose strides need no check of their own).
  const int64_t nbytes = contiguous_nbytes_needed(sizes, itemsize(options.dtype), op);
  return Tensor(Storage::allocate(nbytes, options.device), Shape(sizes.begin(), sizes.end()),
                contiguous_strides(sizes), 0, options.dtype);
}

Tensor full_named(IntList sizes, const Scalar& value, TensorOptions options, const char* op) {
  Tensor t = empty_named(sizes, options, op);
  t.fill_(value);
  return t;
}
}  // namespace

Tensor empty(IntList sizes, TensorOptions options) { return empty_named(sizes, options, "empty"); }

Tensor empty(IntList sizes, TensorOptions options, MemoryFormat memory_format) {
  // TensorFactories.cpp, empty_cpu, then TensorImpl::empty_tensor_restride.
  checked_numel(sizes, "empty");
  return empty_strided(sizes, memory_format_strides(sizes, memory_format, "empty"), options);
}

Tensor empty_like(const Tensor& t, MemoryFormat memory_format) {
  return empty_like(t, {t.dtype(), t.device()}, memory_format);
}

Tensor empty_like(const Tensor& t, TensorOptions options, MemoryFormat memory_format,
                  const char* op) {
  // TensorFactories.cpp, empty_like: preserve_format keeps a non-overlapping and dense tensor's
  // strides, and gives any other strided tensor dense strides in the order of its own
  // (infer_dense_strides), so that a channels-last or permuted input stays so (claim CT-04.like);
  // an explicit format lays the result out in that format.
  if (memory_format != MemoryFormat::Preserve) {
    checked_numel(t.sizes(), op);
    return empty_strided(t.sizes(), memory_format_strides(t.sizes(), memory_format, op), options);
  }
  // A tensor with no elements keeps its strides whatever they are, as in PyTorch (torch.empty(0,
  // 2, 2**63-1), whose contiguous strides wrap to (-2, 2^63-1, 1), clones with those strides).
  if (t.numel() == 0 && t.is_non_overlapping_and_dense())
    return Tensor(Storage::allocate(0, options.device), t.sizes(), t.strides(), 0, options.dtype);
  if (t.is_non_overlapping_and_dense()) {
    // A size-1 dim's stride is kept too, and may be negative where a view's wrapping arithmetic
    // left it (the diagonal of a 1x1 view with strides near 2^63): PyTorch's empty_strided then
    // refuses it, as here, in op's name.
    for (int64_t s : t.strides())
      STRIDED_CHECK(s >= 0, op, "Negative strides are not supported at the moment, got strides: ",
                    to_string(t.strides()));
    return empty_strided(t.sizes(), t.strides(), options);
  }
  return empty_strided(t.sizes(), infer_dense_strides(t.layout()), options);
}

Tensor full(IntList sizes, const Scalar& value, TensorOptions options) {
  return full_named(sizes, value, options, "full");
}
Tensor zeros(IntList sizes, TensorOptions options) {
  return full_named(sizes, Scalar(int64_t{0}), options, "zeros");
}
Tensor ones(IntList sizes, TensorOptions options) {
  return full_named(sizes, Scalar(int64_t{1}), options, "ones");
}

Tensor arange(int64_t end, TensorOptions options) { return arange(0, end, 1, options); }

Tensor arange(int64_t start, int64_t end, int64_t step, TensorOptions options) {
  // arange_out dispatches on the result's dtype before checking anything else
  // (aten/src/ATen/native/RangeFactories.cpp: AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, ...,
  // "arange_cpu", ...)), and bool is not among its types.
  STRIDED_CHECK(options.dtype != DType::Bool, "arange",
                "\"arange_cpu\" not implemented for 'Bool'");
  STRIDED_CHECK(step != 0, "arange", "step must be nonzero");
  STRIDED_CHECK((step > 0 && end >= start) || (step < 0 && end <= start), "arange",
                "upper bound and larger bound inconsistent with step sign (start=", start,
                ", end=", end, ", step=", step, ")");
  // ceil((end - start) / step) in 128 bits: end - start overflows int64 for arange(-2^63, 2^63-1),
  // and so can i * step below, though start + i * step always lies in [start, end).
  const __int128 span = static_cast<__int128>(end) - start;
  const __int128 count = (span + step - (step > 0 ? 1 : -1)) / step;
  STRIDED_CHECK(count <= INT64_MAX, "arange", "invalid size, possible overflow? (start=", start,
                ", end=", end, ", step=", step, ": more elements than int64 counts)");
  const int64_t n = static_cast<int64_t>(count);
  Tensor t = empty({n}, options);
  check_made_on_cpu(t, "arange");
  dispatch(options.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* p = static_cast<T*>(t.data_ptr());
    for (int64_t i = 0; i < n; ++i)
      p[i] = Scalar(static_cast<int64_t>(start + static_cast<__int128>(i) * step)).to<T>();
  });
  return t;
}

namespace {
// arange's integral reading of a number: an int64, truncated (Scalar::to<int64_t>), refusing what
// does not fit.
int64_t arange_whole(const Scalar& v, const char* what) {
  STRIDED_CHECK(fits_without_overflow(v, DType::Int64), "arange", what, " ", v.to_string(),
                " cannot be converted to type int64 without overflow");
  return v.kind() == Scalar::Kind::Float ? static_cast<int64_t>(std::trunc(v.to<double>()))
                                         : v.to<int64_t>();
}
}  // namespace

int64_t arange_numel(const Scalar& start, const Scalar& end, const Scalar& step, DType dtype) {
  // RangeFactories.cpp, arange_out. An integral dtype reads each argument as an int64 and counts
  // as the integer arange does; a floating one counts ceil((end - start) / step) in double.
  if (!is_floating_point(dtype)) {
    const int64_t s = arange_whole(start, "start"), e = arange_whole(end, "end"),
                  st = arange_whole(step, "step");
    STRIDED_CHECK(st != 0, "arange", "step must be nonzero");
    STRIDED_CHECK((st > 0 && e >= s) || (st < 0 && e <= s), "arange",
                  "upper bound and larger bound inconsistent with step sign (start=", s,
                  ", end=", e, ", step=", st, ")");
    const __int128 span = static_cast<__int128>(e) - s;
    const __int128 count = (span + st - (st > 0 ? 1 : -1)) / st;
    return count > INT64_MAX ? INT64_MAX : static_cast<int64_t>(count);
  }
  const double xs = start.to<double>(), xe = end.to<double>(), xstep = step.to<double>();
  STRIDED_CHECK(xstep != 0, "arange", "step must be nonzero");
  STRIDED_CHECK(std::isfinite(xs) && std::isfinite(xe), "arange",
                "unsupported range: ", start.to_string(), " -> ", end.to_string());
  STRIDED_CHECK((xstep > 0 && xe >= xs) || (xstep < 0 && xe <= xs), "arange",
                "upper bound and larger bound inconsistent with step sign (start=",
                start.to_string(), ", end=", end.to_string(), ", step=", step.to_string(), ")");
  const double size_d = std::ceil((xe - xs) / xstep);
  STRIDED_CHECK(size_d >= 0 && size_d < 9.2233720368547758e18, "arange",
                "invalid size, possible overflow? (start=", start.to_string(),
                ", end=", end.to_string(), ", step=", step.to_string(), ")");
  return static_cast<int64_t>(size_d);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options) {
  // torch.arange(5.0), torch.arange(0, 1, 0.25): an integral dtype takes the integer arange of
  // the arguments read as int64s; a floating one writes start + step * i, computed in double (the
  // CPU kernel's accscalar_t) and rounded to the dtype.
  if (!is_floating_point(options.dtype))
    return arange(arange_whole(start, "start"), arange_whole(end, "end"),
                  arange_whole(step, "step"), options);
  const int64_t n = arange_numel(start, end, step, options.dtype);
  const double xs = start.to<double>(), xstep = step.to<double>();
  Tensor t = empty({n}, options);
  check_made_on_cpu(t, "arange");
  dispatch(options.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* p = static_cast<T*>(t.data_ptr());
    for (int64_t i = 0; i < n; ++i) p[i] = Scalar(xs + xstep * static_cast<double>(i)).to<T>();
  });
  return t;
}

Tensor from_values(const std::vector<double>& values, IntList sizes, TensorOptions options) {
  return from_scalars(std::vector<Scalar>(values.begin(), values.end()), sizes, options);
}

Tensor from_scalars(const std::vector<Scalar>& values, IntList sizes, TensorOptions options,
                    const char* op) {
  const int64_t n = checked_numel(sizes, op);
  STRIDED_CHECK(static_cast<int64_t>(values.size()) == n, op, values.size(),
                " values given for shape ", to_string(sizes), " of ", n, " elements");
  if (is_complex(options.dtype)) {
    // torch.tensor([1, 2], dtype=torch.complex64) is tensor([1.+0.j, 2.+0.j]): each value is a
    // real part, read as the parts' real dtype, with an imaginary part of 0.
    TensorOptions parts = options;
    parts.dtype = real_value_type(options.dtype);
    return from_scalars(values, sizes, parts, op).to(options.dtype);
  }
  Tensor t = empty(sizes, options);
  check_made_on_cpu(t, op);
  char* p = static_cast<char*>(t.data_ptr());
  const int64_t item = t.element_size();
  // As torch.tensor(values, dtype=...) with Python 3.10 or later: an integer dtype takes each
  // value through c10's checked_convert (torch/csrc/utils/python_scalars.h, unpackIntegral), so
  // NaN and values past its range are refused (fits_without_overflow: 2^63 is let through for
  // int64 and becomes -2^63, and uint8 takes -1 as 255); the floating types round (an integer
  // through double, as THPUtils_unpackDouble reads it) and overflow to inf.
  const bool integral = is_integral(options.dtype);
  for (int64_t i = 0; i < n; ++i) {
    const Scalar& v = values[static_cast<size_t>(i)];
    STRIDED_CHECK(!integral || fits_without_overflow(v, options.dtype), op, "value ", v.to_string(),
                  " cannot be converted to type ", name(options.dtype), " without overflow");
    store_scalar(p + i * item, options.dtype, v);
  }
  return t;
}

Tensor scalar_tensor(const Scalar& value, TensorOptions options) {
  Tensor t = empty({}, options);
  t.fill_(value);
  return t;
}

Generator::Generator(uint64_t seed) {
  // splitmix64 expands the seed into xoshiro256**'s state.
  uint64_t x = seed;
  for (uint64_t& s : s_) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    s = z ^ (z >> 31);
  }
}

uint64_t Generator::next_u64() {
  auto rotl = [](uint64_t v, int k) { return (v << k) | (v >> (64 - k)); };
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Generator::uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

double Generator::normal() {
  double u1 = uniform();
  while (u1 <= 0.0) u1 = uniform();
  const double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

namespace {
template <class F>
Tensor random_tensor(IntList sizes, TensorOptions options, F&& draw, const char* op) {
  STRIDED_CHECK(is_floating_point(options.dtype), op, "expected a floating-point dtype, got ",
                name(options.dtype));
  Tensor t = empty_named(sizes, options, op);
  check_made_on_cpu(t, op);
  const int64_t n = t.numel();
  dispatch(options.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* p = static_cast<T*>(t.data_ptr());
    for (int64_t i = 0; i < n; ++i) p[i] = Scalar(draw()).to<T>();
  });
  return t;
}
}  // namespace

Tensor rand(IntList sizes, Generator& gen, TensorOptions options) {
  return random_tensor(sizes, options, [&] { return gen.uniform(); }, "rand");
}
Tensor randn(IntList sizes, Generator& gen, TensorOptions options) {
  return random_tensor(sizes, options, [&] { return gen.normal(); }, "randn");
}

}  // namespace strided
