#include "engine_requests.h"

#include <algorithm>
#include <optional>
#include <string>

#include "bounded_ops.h"
#include "request_fields.h"
#include "strided/layout/layout.h"
#include "strided/engine/matmul.h"
#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"
#include "strided/tensor/promotion.h"

namespace strided::explore {

namespace {

// The answer every engine request gives: the result's layout, its dtype (so a reader sees the
// promotion), and its values row-major when there are at most kMaxValues of them, as a chain's;
// charged to the print budget.
Json tensor_json(const Tensor& t, Meter& m, const std::string& op) {
  const bool values = t.numel() <= kMaxValues;
  m.spend(layout_numbers(t) + (values ? t.numel() : 0), op + ": the answer");
  Json r;
  r["shape"] = t.sizes();
  r["stride"] = t.strides();
  r["storage_offset"] = t.storage_offset();
  r["dtype"] = std::string(name(t.dtype()));
  r["is_contiguous"] = t.is_contiguous();
  r["numel"] = t.numel();
  if (values) r["values"] = values_json(t);
  return r;
}

const Request& operand(const Request& request, const char* key) {
  const auto it = request.find(key);
  if (it == request.end() || !it->is_object())
    throw BadInput(std::string("needs \"") + key + "\": {\"start\":...,\"ops\":[...]}");
  return *it;
}

std::string kind_name(const Request& request, const char* kind) {
  const Request& v = request.at(kind);
  if (!v.is_string())
    throw BadInput(std::string("\"") + kind + "\" must be the name of the operation");
  return v.get<std::string>();
}

// empty_like(x) with memory_format=preserve, by the library's empty_like (factories.cpp, which
// holds PyTorch's rule). Whatever layout the rule picks is dense, so its storage holds numel
// elements: that is charged before anything is allocated.
Tensor empty_like_preserve(const Tensor& x, Meter& m) {
  m.charge("empty_like", "the storage of empty_like(" + to_string(x.layout()) + ")",
           new_tensor_cost(x.numel(), x.dim(), x.dtype(), 1));
  Tensor t = empty_like(x);
  // Zero-filled, as the explorer's empty: PyTorch's values are whatever the memory held.
  std::fill_n(static_cast<char*>(t.storage().data()), t.storage().nbytes(), 0);
  return t;
}

// x.sum() or x.sum(dim): PyTorch's sum keeps a floating dtype and gives int64 for the integers
// and bool. Charged for its result, a read of every element, and a conversion of each where the
// dtypes differ; a dim the op refuses is charged for one result element, and refused by it.
Tensor bounded_sum(const Tensor& x, std::optional<int64_t> dim, Meter& m) {
  const DType out = is_floating_point(x.dtype()) ? x.dtype() : DType::Int64;
  Checked results = 1;
  const int64_t n = std::max<int64_t>(x.dim(), 1);
  if (dim && *dim >= -n && *dim < n && x.dim() > 0) {
    const int64_t d = *dim < 0 ? *dim + n : *dim;
    for (int64_t k = 0; k < x.dim(); ++k)
      if (k != d) results *= x.size(k);
  }
  const int64_t r = saturated(results);
  m.charge("sum", "the sum of " + to_string(x.layout()),
           Cost{r, r,
                saturated(Checked(x.numel()) * element_work(x.dtype(), out) + results +
                          Checked(x.dim()) * x.dim()),
                saturated(results * itemsize(out))});
  return dim ? sum(x, *dim) : sum(x);
}

Json answer_unary(const Request& request, Meter& m) {
  only_fields(request, "a unary request", {"unary", "x", "dim"});
  const std::string op = kind_name(request, "unary");
  static const char* const kKnown =
      "neg, add_scalar, clone, empty_like, contiguous, abs, exp, sqrt, sum";
  if (op != "neg" && op != "add_scalar" && op != "clone" && op != "empty_like" &&
      op != "contiguous" && op != "abs" && op != "exp" && op != "sqrt" && op != "sum")
    throw BadInput("unknown unary \"" + op + "\" (known: " + std::string(kKnown) + ")");
  const Request& chain = operand(request, "x");
  std::optional<int64_t> dim;
  if (const auto it = request.find("dim"); it != request.end() && !it->is_null()) {
    if (op != "sum") throw BadInput("\"dim\" is sum's field; " + op + " takes none");
    dim = as_int(*it, "sum.dim");
  }
  try {
    const Tensor x = run_chain(chain, m);
    m.hold({x});
    if (op == "sum") return tensor_json(bounded_sum(x, dim, m), m, op);
    if (op == "clone") return tensor_json(bounded_clone(x, m), m, op);
    if (op == "contiguous") return tensor_json(bounded_contiguous(x, m), m, op);
    if (op == "empty_like") return tensor_json(empty_like_preserve(x, m), m, op);
    // The element-wise ops allocate one output element per input element (TensorIterator
    // gives it x's shape) and compute each once.
    // neg and abs compute in x's dtype; exp and sqrt in float32 for integers and bool; x + 1 in
    // PyTorch's result type of x and the number.
    const DType common = op == "add_scalar" ? result_type(x, Scalar(int64_t{1}))
                         : (op == "exp" || op == "sqrt") && !is_floating_point(x.dtype())
                             ? DType::Float32
                             : x.dtype();
    m.charge(op, "the result of " + op + " on " + to_string(x.layout()),
             elementwise_cost(x.sizes(), common, {x}));
    if (op == "neg") return tensor_json(neg(x), m, op);
    if (op == "abs") return tensor_json(abs(x), m, op);
    if (op == "exp") return tensor_json(exp(x), m, op);
    if (op == "sqrt") return tensor_json(sqrt(x), m, op);
    return tensor_json(add(x, Scalar(int64_t{1})), m, op);  // add_scalar: x + 1, a wrapped number
  } catch (const Error& e) {
    return error_json(e.what());
  }
}

Json answer_binary(const Request& request, Meter& m) {
  only_fields(request, "a binary request", {"binary", "x", "y"});
  const std::string op = kind_name(request, "binary");
  if (op != "add" && op != "sub" && op != "mul" && op != "div")
    throw BadInput("unknown binary \"" + op + "\" (known: add, sub, mul, div)");
  const Request& xc = operand(request, "x");
  const Request& yc = operand(request, "y");
  std::optional<LayoutRefusal> why;  // the library's explanation when the shapes do not broadcast
  try {
    const Tensor x = run_chain(xc, m);
    const Tensor y = run_chain(yc, m, {x});
    m.hold({x, y});
    why = broadcast_refusal({x.sizes(), y.sizes()});
    // The output has the broadcast shape; a failing broadcast is reported by the op itself,
    // with its name, below.
    const Shape shape = [&] {
      try {
        return broadcast_shapes(x.sizes(), y.sizes());
      } catch (const Error&) {
        return Shape{};
      }
    }();
    m.charge(op, "the result " + to_string(shape),
             elementwise_cost(shape, op == "div" && !is_floating_point(result_type(x, y))
                                         ? DType::Float32
                                         : result_type(x, y),
                              {x, y}));
    if (op == "add") return tensor_json(add(x, y), m, op);
    if (op == "sub") return tensor_json(sub(x, y), m, op);
    if (op == "mul") return tensor_json(mul(x, y), m, op);
    return tensor_json(div(x, y), m, op);
  } catch (const Error& e) {
    return why ? error_json(e.what(), why) : error_json(e);
  }
}

Json answer_matmul(const Request& request, Meter& meter) {
  only_fields(request, "a matmul request", {"matmul"});
  const Request& m = request.at("matmul");
  if (!m.is_object())
    throw BadInput("\"matmul\" must be {\"a_shape\":[...],\"b_shape\":[...],\"dtype\":...}");
  only_fields(m, "matmul", {"a_shape", "b_shape", "dtype"});
  if (!m.contains("a_shape") || !m.contains("b_shape"))
    throw BadInput("matmul needs \"a_shape\" and \"b_shape\"");
  // Each operand is arange(numel) in the dtype, reshaped, contiguous; errors name the field.
  const auto dtype = m.find("dtype");
  const Request* d = dtype == m.end() ? nullptr : &*dtype;
  try {
    const Tensor a = start_tensor(m.at("a_shape"), d, "matmul.a_shape", "matmul.dtype", meter);
    meter.hold({a});
    const Tensor b = start_tensor(m.at("b_shape"), d, "matmul.b_shape", "matmul.dtype", meter);
    meter.hold({a, b});
    return tensor_json(bounded_matmul(a, b, meter), meter, "matmul");
  } catch (const Error& e) {
    return error_json(e.what());
  }
}

}  // namespace

std::optional<Json> engine_request(const Request& request, Meter& m) {
  if (request.contains("unary")) return answer_unary(request, m);
  if (request.contains("binary")) return answer_binary(request, m);
  if (request.contains("matmul")) return answer_matmul(request, m);
  return std::nullopt;
}

}  // namespace strided::explore
