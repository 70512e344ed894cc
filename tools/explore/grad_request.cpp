#include "grad_request.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "bounded_ops.h"
#include "inplace.h"
#include "request_fields.h"
#include "strided/autograd/autograd.h"
#include "strided/engine/ops.h"
#include "strided/layout/layout.h"

namespace strided::explore {

std::vector<OpFields> grad_math_ops() {
  return {{"sum", {{"dim", "ints", false}, {"keepdim", "bool", false}}},
          {"mean", {{"dim", "ints", false}, {"keepdim", "bool", false}}},
          {"exp", {}},
          {"log", {}},
          {"pow", {{"exponent", "number", true}}},
          {"mul_self", {}}};
}

namespace {

using autograd::Variable;

std::string grad_op_name(const Request& op) {
  const Request* name = op.is_object() ? field(op, "op") : nullptr;
  if (!name || !name->is_string()) throw BadInput("grad: each op needs \"op\": a name");
  return name->get<std::string>();
}


// The ops a gradient request adds to a view chain's.
bool is_math_op(const std::string& name) {
  for (const OpFields& op : grad_math_ops())
    if (op.name == name) return true;
  return false;
}

// A view chain's ops that have no derivative here.
bool is_without_grad(const std::string& name) {
  static const std::set<std::string> kNone = {
      "split_with_sizes", "tensor_split", "hsplit",     "vsplit",     "dsplit", "view_dtype",
      "atleast_1d",       "atleast_2d",   "atleast_3d", "alias",      "to",     "copy_",
      "index_put_"};
  return kNone.count(name) != 0;
}

void check_fields(const Request& op, const std::string& name, std::set<std::string> known) {
  known.insert("op");
  for (auto it = op.begin(); it != op.end(); ++it)
    if (!known.count(it.key()))
      throw BadInput("grad: " + name + " takes no field \"" + it.key() + "\"");
}

// The op's name and fields, before anything runs: a malformed op makes the whole line bad input.
void check_grad_op(const Request& op) {
  const std::string name = grad_op_name(op);
  if (is_without_grad(name))
    throw BadInput("grad: the op \"" + name +
                   "\" has no gradient here (a gradient request takes a view chain's other ops, "
                   "and sum, mean, exp, log, pow, mul_self)");
  if (!is_math_op(name)) {
    check_op(op);  // a view op or an in-place op, checked as a chain checks it
    // An in-place op's operand is a number here: the leaf is the one tensor a request has.
    if (const Request* other = field(op, "other"); other && !other->is_number() && !other->is_boolean())
      throw BadInput("grad: " + name + ".other must be a number, got " + text(*other));
    return;
  }
  if (name == "sum" || name == "mean") {
    check_fields(op, name, {"dim", "keepdim"});
    if (const Request* d = field(op, "dim")) as_ints(*d, name + ".dim");
    if (const Request* k = field(op, "keepdim")) {
      if (!k->is_boolean()) throw BadInput(name + ".keepdim must be true or false, got " + text(*k));
      if (!field(op, "dim")) throw BadInput(name + ".keepdim needs " + name + ".dim");
    }
  } else if (name == "pow") {
    check_fields(op, name, {"exponent"});
    const Request* e = field(op, "exponent");
    if (!e) throw BadInput("pow needs \"exponent\"");
    if (!e->is_number()) throw BadInput("pow.exponent must be a number, got " + text(*e));
    if (e->is_number_integer()) as_int(*e, "pow.exponent");  // integers are int64, as everywhere
  } else {
    check_fields(op, name, {});
  }
}

// ---- costs --------------------------------------------------------------------------------------

// How many times the memory of a real op a complex one takes: autograd/complex.cpp computes it on
// the real and imaginary parts, with up to six real temporaries, two layout probes, the probes'
// own result and the complex result (mul: (ar·br − ai·bi) + i·(ar·bi + ai·br)), and resolves a
// conjugate bit into a copy first.
constexpr int64_t kComplexWork = 8;
int64_t complex_work(DType dtype) { return is_complex(dtype) ? kComplexWork : 1; }

// At least the elements of any tensor shaped like sizes or reduced from it: a reduction over a
// dim of size 0 may make more elements than its input has.
int64_t elements_bound(IntList sizes) {
  Checked n = 1;
  for (int64_t s : sizes) n *= std::max<int64_t>(s, 1);
  return saturated(n);
}

// What backward allocates for one node, whose input and output are in and out: its formula's
// result and temporaries (pow's is exponent * x^(exponent - 1) * grad; as_strided's works in its
// base storage's coordinates), each at most kBackwardTensors tensors the size of the larger of
// the two or of the input's storage.
constexpr int64_t kBackwardTensors = 6;
struct BackwardCost {
  int64_t largest = 1, step = 0;  // the largest tensor; the most one node holds at once
  Checked work = 0, bytes = 0;
  void add(const Tensor& in, const Tensor& out) {
    const int64_t n = std::max({elements_bound(in.sizes()), elements_bound(out.sizes()),
                                in.storage().nbytes() / in.element_size()});
    largest = std::max(largest, n);
    const int64_t all = saturated(Checked(n) * kBackwardTensors);
    step = std::max(step, all);
    work += Checked(all) + in.dim() * in.dim() + out.dim() * out.dim();
    // complex128 at most (requires_grad takes floating and complex dtypes); a complex node computes
    // on the real and imaginary parts, with their temporaries (complex_work).
    bytes += Checked(all) * 16 * complex_work(in.dtype());
  }
};

// ---- ops ----------------------------------------------------------------------------------------

// A node whose backward is given: for the two ops the Variable API has no method for, contiguous
// (the identity when x is contiguous, else CloneBackward0: grad) and flip (FlipBackward0:
// grad.flip(dims)), as tools/autograd/derivatives.yaml has them.
Variable recorded(const Variable& x, Tensor out, const char* node,
                  std::function<Tensor(const Tensor&)> backward) {
  Variable result(std::move(out));
  if (auto op = autograd::record(node, {&x})) {
    op->formula = [backward](autograd::Op&, const std::vector<Tensor>& g) {
      return std::vector<Tensor>{backward(g[0])};
    };
    autograd::set_history(result, op);
  }
  return result;
}

Variable reduce(const Variable& x, const Request& op, bool mean) {
  const Request* d = field(op, "dim");
  if (!d) return mean ? autograd::mean(x) : autograd::sum(x);
  const Shape dims = as_ints(*d, mean ? "mean.dim" : "sum.dim");
  const bool keepdim = field(op, "keepdim") && op.at("keepdim").get<bool>();
  return mean ? autograd::mean(x, dims, keepdim) : autograd::sum(x, dims, keepdim);
}

// A number field as a Scalar, as written (checked by check_op).
Scalar grad_number(const Request& v) {
  if (v.is_boolean()) return Scalar(v.get<bool>());
  if (v.is_number_integer()) return Scalar(v.get<int64_t>());
  return Scalar(v.get<double>());
}

// add_, mul_, fill_ and zero_ through the library's autograd (strided/autograd/inplace.cpp), which
// refuses a leaf that requires grad, a view of one, and one output of several views
// (check_inplace and handle_view_on_rebase, torch/csrc/autograd/VariableTypeUtils.h), and bumps
// the version counter a saved tensor is checked against at backward.
Variable apply_grad_inplace(const Variable& x, const std::string& name, const Request& op, Meter& m) {
  const Tensor& t = x.tensor();
  m.charge(name, "a write into " + to_string(t.layout()),
           elementwise_cost(t.sizes(), t.dtype(), {t}));
  // Recording the write (autograd/inplace.cpp, inplace): the op is computed out of place on a
  // clone of x, for its node, before x is written.
  m.charge(name, "the clone its node is recorded from, " + to_string(t.layout()),
           copy_cost(t, t.dtype()));
  m.charge(name, "the out-of-place op on the clone", elementwise_cost(t.sizes(), t.dtype(), {t}));
  try {
    if (name == "add_") {
      // add_(other, alpha=alpha) adds alpha * other (a number here).
      Scalar other = grad_number(op.at("other"));
      if (const Request* a = field(op, "alpha")) {
        const Scalar alpha = grad_number(*a);
        other = other.kind() != Scalar::Kind::Float && alpha.kind() != Scalar::Kind::Float
                    ? Scalar(other.to_int() * alpha.to_int())
                    : Scalar(other.to_double() * alpha.to_double());
      }
      return autograd::add_(x, other);
    }
    if (name == "mul_") return autograd::mul_(x, grad_number(op.at("other")));
    if (name == "fill_") return autograd::fill_(x, grad_number(op.at("value")));
    return autograd::fill_(x, Scalar(int64_t{0}));  // zero_: fill_(0), FillBackward0 too
  } catch (const Error& e) {
    throw Error("", torch_words(e));
  }
}

// split, chunk and unbind: every output a view of x and one output of a single node (so none
// takes an in-place write, as in PyTorch); index picks the one the chain continues with, as
// Python indexes the tuple.
Variable pick_output(const Variable& x, const std::string& name, const Request& op) {
  std::vector<Variable> outputs;
  const int64_t dim = get_int(op, "dim", 0);
  if (name == "unbind") {
    outputs = autograd::unbind(x, dim);
  } else if (name == "chunk") {
    // TensorShape.cpp, chunk: split by ceil(size / chunks); its node is SplitBackward0.
    const int64_t chunks = get_int(op, "chunks");
    STRIDED_CHECK(x.dim() > 0, "", "chunk expects at least a 1-dimensional tensor");
    STRIDED_CHECK(chunks > 0, "", "chunk expects `chunks` to be greater than 0, got: ", chunks);
    const int64_t size = x.size(wrap_dim(dim, x.dim(), "chunk"));
    outputs = autograd::split(x, (size + chunks - 1) / chunks, dim);
  } else if (op.at("split_size").is_array()) {
    outputs = autograd::split(x, get_ints(op, "split_size"), dim);
  } else {
    outputs = autograd::split(x, get_int(op, "split_size"), dim);
  }
  int64_t i = get_int(op, "index");
  const int64_t n = static_cast<int64_t>(outputs.size());
  if (i < 0) i += n;
  STRIDED_CHECK(i >= 0 && i < n, "", "tuple index out of range");
  return outputs[static_cast<size_t>(i)];
}

Variable apply_grad_op(const Variable& x, const Request& op, Meter& m) {
  const std::string name = grad_op_name(op);
  const Tensor& t = x.tensor();
  if (is_inplace(name)) return apply_grad_inplace(x, name, op, m);
  if (is_math_op(name)) {
    // The result (the leaf is floating, and so is every step: nothing is converted). A reduction
    // sums one dim at a time, holding two partial results at once, and a mean divides the last.
    const int64_t n = elements_bound(t.sizes());
    const bool reduction = name == "sum" || name == "mean";
    const int64_t copies = reduction ? std::max<int64_t>(t.dim(), 1) + 1 : 1;
    m.charge(
        name, "the result of " + name + " on " + to_string(t.layout()),
        Cost{n, saturated(Checked(n) * (reduction ? 2 : 1)),
             saturated(Checked(n) * copies + t.dim() * t.dim()),
             saturated(Checked(n) * copies * t.element_size() * complex_work(t.dtype()) + 16)});
    if (name == "sum") return reduce(x, op, false);
    if (name == "mean") return reduce(x, op, true);
    if (name == "exp") return autograd::exp(x);
    if (name == "log") return autograd::log(x);
    if (name == "pow") return autograd::pow(x, op.at("exponent").get<double>());
    return autograd::mul(x, x);  // mul_self
  }
  if (name == "conj_physical") charge_conj_physical(t, m);  // its probe too, as a chain's
  const bool copies = name == "reshape" || name == "flatten" || name == "contiguous" ||
                      name == "clone" || name == "flip" || name == "resolve_conj";
  m.charge(name, (copies ? "the copy of " : "a view of ") + to_string(t.layout()),
           copies ? copy_cost(t, t.dtype()) : view_cost(t));
  if (std::optional<Variable> v = shared_view(x, name, op)) return *v;
  if (name == "split" || name == "chunk" || name == "unbind") return pick_output(x, name, op);
  if (name == "swapdims") return x.transpose(get_int(op, "dim0"), get_int(op, "dim1"));
  if (name == "swapaxes") return x.transpose(get_int(op, "axis0"), get_int(op, "axis1"));
  if (name == "reshape") return x.reshape(get_ints(op, "shape"));
  if (name == "flatten") return x.flatten(get_int(op, "start_dim", 0), get_int(op, "end_dim", -1));
  if (name == "t") return x.t();
  if (name == "mT") return x.mT();
  if (name == "H") return x.H();
  if (name == "mH") return x.mH();
  if (name == "adjoint") return x.adjoint();
  if (name == "conj") return x.conj();
  if (name == "resolve_conj") return x.resolve_conj();
  if (name == "conj_physical") return x.conj_physical();
  if (name == "real") return x.real();
  if (name == "imag") return x.imag();
  if (name == "view_as_real") return autograd::view_as_real(x);
  if (name == "view_as_complex") return autograd::view_as_complex(x);
  if (name == "narrow")
    return x.narrow(get_int(op, "dim"), get_int(op, "start"), get_int(op, "length"));
  if (name == "as_strided")
    return x.as_strided(get_ints(op, "size"), get_ints(op, "stride"),
                        get_optional(op, "storage_offset"));
  if (name == "unfold")
    return x.unfold(get_int(op, "dimension"), get_int(op, "size"), get_int(op, "step"));
  if (name == "movedim" || name == "moveaxis") {
    if (op.at("source").is_number_integer() && op.at("destination").is_number_integer())
      return x.movedim(get_int(op, "source"), get_int(op, "destination"));
    return x.movedim(get_ints(op, "source"), get_ints(op, "destination"));
  }
  if (name == "unflatten") return x.unflatten(get_int(op, "dim"), get_ints(op, "sizes"));
  if (name == "clone") return autograd::clone(x);
  if (name == "contiguous") {
    if (t.is_contiguous()) return x;
    return recorded(x, t.contiguous(), "CloneBackward0", [](const Tensor& g) { return g; });
  }
  if (name == "flip") {
    const Shape dims = get_ints(op, "dims");
    return recorded(x, t.flip(dims), "FlipBackward0",
                    [dims](const Tensor& g) { return g.flip(dims); });
  }
  if (name == "detach") return x.detach();
  throw BadInput("grad: unknown op \"" + name + "\"");  // check_grad_op knows every name above
}

Json gradient_json(const Tensor& g, Meter& m) {
  const bool values = g.numel() <= kMaxValues;
  m.spend(layout_numbers(g) + (values ? g.numel() : 0), "grad: the answer");
  Json r;
  r["shape"] = g.sizes();
  r["stride"] = g.strides();
  if (values) r["values"] = values_json(g);
  return r;
}

Json answer_grad(const Request& grad, Meter& m) {
  if (!grad.is_object())
    throw BadInput("\"grad\" must be {\"start\":{\"shape\":[...],\"dtype\":...},\"ops\":[...]}");
  for (auto it = grad.begin(); it != grad.end(); ++it)
    if (it.key() != "start" && it.key() != "ops")
      throw BadInput("grad takes \"start\" and \"ops\", not \"" + it.key() + "\"");
  const Request* start = field(grad, "start");
  if (!start) throw BadInput("grad needs \"start\": {\"shape\":[...],\"dtype\":...}");
  const Request* ops = field(grad, "ops");
  if (ops && !ops->is_array()) throw BadInput("grad.ops must be a list");
  static const Request kNoOps = Request::array();
  if (!ops) ops = &kNoOps;
  if (ops->size() > kMaxGradOps)
    throw BadInput("grad.ops has " + std::to_string(ops->size()) + " ops; at most " +
                   std::to_string(kMaxGradOps) + " are taken");
  for (const Request& op : *ops) check_grad_op(op);
  try {
    const Tensor first = chain_start(*start, m);
    // x.requires_grad_(), as tools/conformance/grad_chains.py asks: it refuses an integer dtype in
    // PyTorch's words.
    const Variable x(first);
    x.requires_grad_();
    std::vector<Tensor> held = {first};
    BackwardCost back;
    Variable y = x;
    for (const Request& op : *ops) {
      const Variable next = apply_grad_op(y, op, m);
      back.add(y.tensor(), next.tensor());
      y = next;
      held.push_back(y.tensor());  // the graph keeps what its formulas read: at most every step
      m.hold(held);
    }
    // (y * w).sum(): w and the product, then their gradients.
    const Tensor& yt = y.tensor();
    // A complex y's weights are real numbers in y's dtype (grad_chains.py: arange(...).to(dtype)).
    const Tensor w = arange_shaped(yt.sizes(), real_value_type(yt.dtype()), "grad: the weights", m);
    held.push_back(w);
    m.hold(held);
    m.charge("grad", "the weights for " + to_string(yt.layout()),
             elementwise_cost(yt.sizes(), yt.dtype(), {w}));
    // arange(1, numel + 1)
    const Variable weights(strided::add(w, Scalar(int64_t{1})).to(yt.dtype()));
    held.push_back(weights.tensor());
    m.hold(held);
    m.charge("grad", "(y * w).sum() for y " + to_string(yt.layout()),
             elementwise_cost(yt.sizes(), yt.dtype(), {yt}));
    const Variable loss = autograd::sum(autograd::mul(y, weights));
    back.add(yt, yt);
    m.charge("grad", "the gradients backward computes (" + std::to_string(ops->size() + 1) +
                         " nodes)",
             Cost{back.largest, saturated(Checked(back.step) + first.numel()),
                  saturated(back.work), saturated(back.bytes)});
    loss.backward();
    const Tensor& g = x.grad();
    STRIDED_CHECK(g.defined(), "grad", "the leaf received no gradient");
    return gradient_json(g, m);
  } catch (const Error& e) {
    return error_json(e.what());
  }
}

}  // namespace

std::optional<Json> grad_request(const Request& request, Meter& m) {
  if (!request.contains("grad")) return std::nullopt;
  only_fields(request, "a grad request", {"grad"});
  return answer_grad(request.at("grad"), m);
}

}  // namespace strided::explore
