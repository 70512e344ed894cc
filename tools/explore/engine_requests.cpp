#include "engine_requests.h"

#include <algorithm>
#include <string>

#include "bounded_ops.h"
#include "strided/layout.h"
#include "strided/matmul.h"
#include "strided/ops.h"

namespace strided::explore {

namespace {

// The answer every engine request gives: the result's layout, its dtype (so a reader sees the
// promotion), and its values row-major when there are at most kMaxValues of them, as a chain's.
Json tensor_json(const Tensor& t) {
  Json r;
  r["shape"] = t.sizes();
  r["stride"] = t.strides();
  r["storage_offset"] = t.storage_offset();
  r["dtype"] = std::string(name(t.dtype()));
  r["is_contiguous"] = t.is_contiguous();
  r["numel"] = t.numel();
  if (t.numel() <= kMaxValues) r["values"] = values_json(t);
  return r;
}

const Json& operand(const Json& request, const char* key) {
  const auto it = request.find(key);
  if (it == request.end() || !it->is_object())
    throw BadInput(std::string("needs \"") + key + "\": {\"start\":...,\"ops\":[...]}");
  return *it;
}

std::string kind_name(const Json& request, const char* kind) {
  const Json& v = request.at(kind);
  if (!v.is_string())
    throw BadInput(std::string("\"") + kind + "\" must be the name of the operation");
  return v.get<std::string>();
}

// The layout empty_like gives with memory_format=preserve (aten/src/ATen/native/
// TensorFactories.cpp, empty_like): a non-overlapping and dense tensor's own strides, otherwise
// dense strides in the order of the input's (infer_dense_strides, TensorUtils.cpp). clone uses
// the same rule (TensorFactories.cpp, clone), through Tensor::clone.
Tensor empty_like_preserve(const Tensor& x) {
  const Shape strides =
      x.is_non_overlapping_and_dense() ? x.strides() : infer_dense_strides(x.sizes(), x.strides());
  // Zero-filled, as the explorer's empty: PyTorch's values are whatever the memory held.
  return bounded_empty_strided(x.sizes(), strides, x.dtype());
}

Json answer_unary(const Json& request) {
  const std::string op = kind_name(request, "unary");
  static const char* const kKnown =
      "neg, add_scalar, clone, empty_like, contiguous, abs, exp, sqrt";
  if (op != "neg" && op != "add_scalar" && op != "clone" && op != "empty_like" &&
      op != "contiguous" && op != "abs" && op != "exp" && op != "sqrt")
    throw BadInput("unknown unary \"" + op + "\" (known: " + std::string(kKnown) + ")");
  const Json& chain = operand(request, "x");
  try {
    const Tensor x = run_chain(chain);
    if (op == "clone") return tensor_json(bounded_clone(x));
    if (op == "contiguous") return tensor_json(bounded_contiguous(x));
    if (op == "empty_like") return tensor_json(empty_like_preserve(x));
    // The element-wise ops allocate one output element per input element (TensorIterator
    // gives it x's shape).
    check_allocation(x.numel(), op, "the result of " + op + " on " + x.layout());
    if (op == "neg") return tensor_json(neg(x));
    if (op == "abs") return tensor_json(abs(x));
    if (op == "exp") return tensor_json(exp(x));
    if (op == "sqrt") return tensor_json(sqrt(x));
    return tensor_json(add(x, Scalar(int64_t{1})));  // add_scalar: x + 1, a wrapped number
  } catch (const Error& e) {
    return error_json(e.what());
  }
}

Json answer_binary(const Json& request) {
  const std::string op = kind_name(request, "binary");
  if (op != "add" && op != "sub" && op != "mul" && op != "div")
    throw BadInput("unknown binary \"" + op + "\" (known: add, sub, mul, div)");
  const Json& xc = operand(request, "x");
  const Json& yc = operand(request, "y");
  try {
    const Tensor x = run_chain(xc);
    const Tensor y = run_chain(yc);
    // The output has the broadcast shape; a failing broadcast is reported by the op itself,
    // with its name, below.
    const Shape shape = [&] {
      try {
        return broadcast_shapes(x.sizes(), y.sizes());
      } catch (const Error&) {
        return Shape{};
      }
    }();
    check_allocation(checked_numel(shape, op.c_str()), op, "the result " + to_string(shape));
    if (op == "add") return tensor_json(add(x, y));
    if (op == "sub") return tensor_json(sub(x, y));
    if (op == "mul") return tensor_json(mul(x, y));
    return tensor_json(div(x, y));
  } catch (const Error& e) {
    return error_json(e.what());
  }
}

// Multiply-adds a matmul request may cost: untrusted input must not keep the explorer busy for
// minutes. 2^32 is a few seconds of BLAS at worst.
constexpr double kMaxMatmulWork = 4294967296.0;

// An upper bound of torch.matmul's work and output size, from the shapes alone (LinearAlgebra.cpp,
// _matmul_impl): batch dims broadcast, a 1-D operand is one row or one column. Shapes that do not
// fit its rules give 0 here, and strided::matmul raises PyTorch's error for them.
void check_matmul_cost(const Shape& a, const Shape& b) {
  if (a.empty() || b.empty()) return;
  const double n = a.size() >= 2 ? static_cast<double>(a[a.size() - 2]) : 1.0;
  const double k = static_cast<double>(a.back());
  const double m = b.size() >= 2 ? static_cast<double>(b.back()) : 1.0;
  const Shape a_batch(a.begin(), a.end() - std::min<size_t>(a.size(), 2));
  const Shape b_batch(b.begin(), b.end() - std::min<size_t>(b.size(), 2));
  double batch = 1.0;
  try {
    for (int64_t s : broadcast_shapes(a_batch, b_batch)) batch *= static_cast<double>(s);
  } catch (const Error&) {
    return;
  }
  const double out = batch * n * m;
  STRIDED_CHECK(out <= static_cast<double>(kMaxElements), "matmul: the result needs ", out,
                " elements; strided-explore allocates at most ", kMaxElements, " per tensor");
  STRIDED_CHECK(out * k <= kMaxMatmulWork, "matmul: ", out * k,
                " multiply-adds; strided-explore computes at most ", kMaxMatmulWork,
                " per request");
}

Json answer_matmul(const Json& request) {
  const Json& m = request.at("matmul");
  if (!m.is_object())
    throw BadInput("\"matmul\" must be {\"a_shape\":[...],\"b_shape\":[...],\"dtype\":...}");
  if (!m.contains("a_shape") || !m.contains("b_shape"))
    throw BadInput("matmul needs \"a_shape\" and \"b_shape\"");
  // Each operand is arange(numel) in the dtype, reshaped, contiguous; errors name the field.
  const auto dtype = m.find("dtype");
  const Json* d = dtype == m.end() ? nullptr : &*dtype;
  try {
    const Tensor a = start_tensor(m.at("a_shape"), d, "matmul.a_shape", "matmul.dtype");
    const Tensor b = start_tensor(m.at("b_shape"), d, "matmul.b_shape", "matmul.dtype");
    check_matmul_cost(a.sizes(), b.sizes());
    return tensor_json(matmul(a, b));
  } catch (const Error& e) {
    return error_json(e.what());
  }
}

}  // namespace

std::optional<Json> engine_request(const Json& request) {
  if (request.contains("unary")) return answer_unary(request);
  if (request.contains("binary")) return answer_binary(request);
  if (request.contains("matmul")) return answer_matmul(request);
  return std::nullopt;
}

}  // namespace strided::explore
