// libFuzzer target: arbitrary bytes read as every dtype. The input's bytes become a uint8 storage,
// seen through view(dtype) (PyTorch's Tensor.view(torch.bool), view(torch.complex64), …) and then
// through a small strided layout of that dtype, and every conversion, copy and print the library
// has is run on it. Bytes a dtype never writes itself reach it this way: a bool byte of 2 or 255,
// a float16 NaN with any payload, a complex part that is a signalling NaN. The fuzzer checks
//  - no undefined behaviour (the build has AddressSanitizer and UndefinedBehaviorSanitizer: a bool
//    byte loaded as a C++ bool is the mechanism this target exists for);
//  - a bool element is true exactly when its byte is not 0, in every conversion (to(int32),
//    to(float32), to(uint8)) and after flip, clone and contiguous, as PyTorch reads it;
//  - a conversion to bool writes only the bytes 0 and 1, and a copy of bool data (clone,
//    contiguous, flip) reads true exactly where the source's byte was not 0;
//  - a clone of any other dtype keeps every element's bytes, NaN payloads included;
//  - every refusal is a strided::Error with a message (the ops that refuse complex data).
// A failed check prints what it saw and aborts, which libFuzzer reports as a crash with its input.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"
#include "strided/tensor/tensor.h"

namespace strided::fuzz {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "dtype_bytes: %s\n  %s\n", what.c_str(), detail.c_str());
  std::abort();
}

void require(bool ok, const std::string& what, const std::string& detail = "") {
  if (!ok) fail(what, detail);
}

constexpr DType kDtypes[] = {DType::Bool,      DType::UInt8,   DType::Int8,      DType::Int16,
                             DType::Int32,     DType::Int64,   DType::Float16,   DType::BFloat16,
                             DType::Float32,   DType::Float64, DType::Complex64, DType::Complex128};

// The raw bytes of element i (row-major) of t.
std::vector<unsigned char> element_bytes(const Tensor& t, const Shape& index) {
  int64_t offset = t.storage_offset();
  for (size_t k = 0; k < index.size(); ++k) offset += index[k] * t.strides()[k];
  const auto* base = static_cast<const unsigned char*>(t.storage().data());
  const int64_t size = t.element_size();
  return {base + offset * size, base + (offset + 1) * size};
}

// Every index of a shape, row-major.
std::vector<Shape> indices(const Shape& sizes) {
  std::vector<Shape> out;
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  Shape idx(sizes.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    out.push_back(idx);
    for (size_t k = sizes.size(); k-- > 0;) {
      if (++idx[k] < sizes[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

// Runs op; a refusal must be a strided::Error with a message. Returns whether op ran.
template <class F>
bool attempt(const char* what, F&& op) {
  try {
    op();
    return true;
  } catch (const Error& e) {
    require(std::strlen(e.what()) > 0, std::string(what) + ": an error without a message");
    return false;
  }
}

void check_bool_view(const Tensor& b, const std::string& where) {
  const std::vector<Shape> all = indices(b.sizes());
  // Each conversion reads a bool element as true exactly when its byte is not 0.
  for (DType to : {DType::Int32, DType::UInt8, DType::Float32, DType::Int64}) {
    const Tensor c = b.to(to);
    const Tensor as_int = c.to(DType::Int64);
    for (const Shape& idx : all) {
      const int64_t want = element_bytes(b, idx)[0] != 0 ? 1 : 0;
      require(as_int.at(idx).to<int64_t>() == want, where + ": bool read as " + std::string(name(to)),
              "byte " + std::to_string(element_bytes(b, idx)[0]));
    }
  }
  // Copies of a bool tensor (contiguous() may be the tensor itself) read true where the source's
  // byte was not 0; PyTorch copies bool bytes as they are, so only the values are compared.
  const Tensor copies[] = {b.clone(), b.contiguous(), b.flip({0}).flip({0})};
  for (const Tensor& copy : copies) {
    const Tensor as_int = copy.to(DType::Int64);
    for (const Shape& idx : all)
      require(as_int.at(idx).to<int64_t>() == (element_bytes(b, idx)[0] != 0 ? 1 : 0),
              where + ": a copy of bool data changed a value");
  }
}

// A conversion to bool writes only the bytes 0 and 1: the one representation PyTorch writes.
void check_to_bool(const Tensor& t, const std::string& where) {
  Tensor b;
  if (!attempt("to(bool)", [&] { b = t.to(DType::Bool); })) return;
  for (const Shape& idx : indices(b.sizes())) {
    const unsigned char byte = element_bytes(b, idx)[0];
    require(byte == 0 || byte == 1, where + ": to(bool) wrote the byte " + std::to_string(byte));
  }
}

void run(const std::vector<uint8_t>& bytes, DType dtype, FuzzedDataProvider& in) {
  const int64_t n = static_cast<int64_t>(bytes.size());
  Tensor raw = empty({n}, {DType::UInt8});
  if (n) std::memcpy(raw.data_ptr(), bytes.data(), bytes.size());
  const int64_t size = itemsize(dtype);
  const int64_t elements = n / size;
  if (elements == 0) return;
  // view(dtype) needs the byte count to be a multiple of the new item size: narrow first.
  Tensor typed;
  if (!attempt("view(dtype)", [&] { typed = raw.narrow(0, 0, elements * size).view(dtype); }))
    return;
  require(typed.numel() == elements, "view(dtype) changed the number of bytes");
  // A small layout over it: a 2-d grid with a step, or the transpose of one.
  const int64_t rows = in.ConsumeIntegralInRange<int64_t>(1, std::max<int64_t>(1, elements));
  const int64_t cols = elements / rows;
  Tensor t = typed.narrow(0, 0, rows * cols).view({rows, cols});
  if (in.ConsumeBool()) t = t.t();
  if (in.ConsumeBool() && t.size(1) > 1) t = t.slice(1, 0, t.size(1), 2);
  const std::string where = std::string(name(dtype)) + " " + to_string(t.layout());

  if (dtype == DType::Bool) check_bool_view(t, where);
  if (dtype != DType::Bool) check_to_bool(t, where);  // to(bool) of bool data is itself
  // Copies keep each element's bytes (bool aside, checked above; NaN payloads kept too).
  if (dtype != DType::Bool) {
    const Tensor c = t.clone();
    for (const Shape& idx : indices(t.sizes()))
      require(element_bytes(c, idx) == element_bytes(t, idx), where + ": clone changed bytes");
  }
  // Every conversion, every print, flip, and the arithmetic: whatever they answer, no UB.
  for (DType to : kDtypes) attempt("to", [&] { (void)t.to(to); });
  attempt("to_string", [&] { (void)to_string(t); });
  attempt("flip", [&] { (void)t.flip({0}); });
  attempt("add", [&] { (void)add(t, Scalar(int64_t{1})); });
  attempt("sum", [&] { (void)sum(t); });
  attempt("neg", [&] { (void)neg(t); });
  attempt("view_as_real", [&] { (void)to_string(view_as_real(t.contiguous())); });
}

}  // namespace
}  // namespace strided::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const auto dtype = strided::fuzz::kDtypes[in.ConsumeIntegralInRange<size_t>(0, 11)];
  const size_t count = in.ConsumeIntegralInRange<size_t>(0, 64);
  std::vector<uint8_t> bytes = in.ConsumeBytes<uint8_t>(count);
  strided::fuzz::run(bytes, dtype, in);
  return 0;
}
