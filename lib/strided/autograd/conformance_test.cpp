// The gradient conformance suite: every program of tests/conformance/grad_cases.jsonl (generated
// by tools/conformance/generate_grads.py, which describes the format, and answered by PyTorch 2.6)
// is run on the autograd, and the leaves' and retained gradients (shape, strides, values), the
// grad_fn names and the errors must be PyTorch 2.6's, the case's "expected". Where PyTorch 1.13
// answered otherwise, the case keeps its answer as "expected_1_13"; each such case is listed.
#include <doctest/doctest.h>

#include "test_path.h"

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "strided/autograd/autograd.h"

using namespace strided;
using namespace strided::autograd;
using json = nlohmann::json;

namespace {
DType dtype_of_name(const std::string& n) { return n == "float32" ? DType::Float32 : DType::Float64; }

struct Program {
  std::map<std::string, Variable> env;
  std::vector<std::string> names;
  std::vector<std::string> retained;

  // A tensor's name, or a number (a Scalar operand).
  bool is_tensor(const json& a) const { return a.is_string(); }
  const Variable& var(const json& a) { return env.at(a.get<std::string>()); }

  Variable binary(const std::string& op, const json& args, const json& kw) {
    const Variable& a = var(args[0]);
    const json& b = args[1];
    const double alpha = kw.value("alpha", 1.0);
    if (is_tensor(b)) {
      const Variable& v = var(b);
      if (op == "add") return alpha == 1.0 ? add(a, v) : add(a, v, alpha);
      if (op == "sub") return alpha == 1.0 ? sub(a, v) : sub(a, v, alpha);
      if (op == "mul") return mul(a, v);
      if (op == "div") return div(a, v);
      if (op == "pow") return pow(a, v);
      if (op == "matmul") return matmul(a, v);
    } else {
      const double s = b.get<double>();
      if (op == "add") return add(a, s);
      if (op == "sub") return sub(a, s);
      if (op == "mul") return mul(a, s);
      if (op == "div") return div(a, s);
      if (op == "pow") return pow(a, s);
    }
    throw std::runtime_error("unknown binary op " + op);
  }

  void inplace(const std::string& op, const json& args) {
    const Variable& a = var(args[0]);
    const json& b = args[1];
    if (is_tensor(b)) {
      const Variable& v = var(b);
      if (op == "add_") add_(a, v);
      else if (op == "sub_") sub_(a, v);
      else if (op == "mul_") mul_(a, v);
      else if (op == "div_") div_(a, v);
      else if (op == "copy_") copy_(a, v);
      else throw std::runtime_error("unknown in-place op " + op);
    } else {
      const double s = b.get<double>();
      if (op == "add_") add_(a, s);
      else if (op == "sub_") sub_(a, s);
      else if (op == "mul_") mul_(a, s);
      else if (op == "div_") div_(a, s);
      else if (op == "fill_") fill_(a, s);
      else throw std::runtime_error("unknown in-place op " + op);
    }
  }

  static std::optional<int64_t> opt(const json& kw, const char* key) {
    if (!kw.contains(key) || kw[key].is_null()) return std::nullopt;
    return kw[key].get<int64_t>();
  }
  static Shape ints(const json& j) {
    if (j.is_number()) return {j.get<int64_t>()};
    return j.get<Shape>();
  }

  Variable unary(const std::string& op, const Variable& x, const json& kw) {
    if (op == "neg") return neg(x);
    if (op == "exp") return exp(x);
    if (op == "log") return log(x);
    if (op == "clone") return clone(x);
    if (op == "detach") return x.detach();
    if (op == "sum" || op == "mean") {
      const bool keepdim = kw.value("keepdim", false);
      if (!kw.contains("dim")) return op == "sum" ? sum(x) : mean(x);
      const Shape dims = ints(kw["dim"]);
      return op == "sum" ? sum(x, dims, keepdim) : mean(x, dims, keepdim);
    }
    if (op == "view") return x.view(kw["size"].get<Shape>());
    if (op == "reshape") return x.reshape(kw["size"].get<Shape>());
    if (op == "permute") return x.permute(kw["dims"].get<Shape>());
    if (op == "transpose") return x.transpose(kw["dim0"], kw["dim1"]);
    if (op == "t") return x.t();
    if (op == "expand") return x.expand(kw["size"].get<Shape>());
    if (op == "broadcast_to") return x.broadcast_to(kw["size"].get<Shape>());
    if (op == "squeeze") return kw.contains("dim") ? x.squeeze(kw["dim"].get<int64_t>()) : x.squeeze();
    if (op == "unsqueeze") return x.unsqueeze(kw["dim"]);
    if (op == "select") return x.select(kw["dim"], kw["index"]);
    if (op == "slice") return x.slice(kw["dim"], opt(kw, "start"), opt(kw, "end"), kw.value("step", 1));
    if (op == "narrow") return x.narrow(kw["dim"], kw["start"], kw["length"]);
    if (op == "diagonal")
      return x.diagonal(kw.value("offset", 0), kw.value("dim1", 0), kw.value("dim2", 1));
    if (op == "flatten") return x.flatten(kw.value("start_dim", 0), kw.value("end_dim", -1));
    if (op == "unflatten") return x.unflatten(kw["dim"], kw["sizes"].get<Shape>());
    if (op == "movedim") return x.movedim(ints(kw["source"]), ints(kw["destination"]));
    if (op == "as_strided")
      return x.as_strided(kw["size"].get<Shape>(), kw["stride"].get<Shape>(),
                          opt(kw, "storage_offset"));
    if (op == "unfold") return x.unfold(kw["dimension"], kw["size"], kw["step"]);
    throw std::runtime_error("unknown op " + op);
  }

  void step(const json& s) {
    const json& out = s[0];
    const std::string op = s[1];
    const json& args = s[2];
    const json& kw = s[3];
    std::optional<NoGradGuard> guard;
    if (kw.value("no_grad", false)) guard.emplace();
    if (out.is_null()) return inplace(op, args);
    const std::string name = out;
    if (op == "split") {
      auto pieces = kw["split_size"].is_array()
                        ? split(var(args[0]), kw["split_size"].get<Shape>(), kw.value("dim", 0))
                        : split(var(args[0]), kw["split_size"].get<int64_t>(), kw.value("dim", 0));
      for (size_t i = 0; i < pieces.size(); ++i) {
        env[name + "." + std::to_string(i)] = pieces[i];
        names.push_back(name + "." + std::to_string(i));
      }
      return;
    }
    Variable r;
    if (op == "cat") {
      std::vector<Variable> parts;
      for (const json& n : args[0]) parts.push_back(var(n));
      r = cat(parts, kw.value("dim", 0));
    } else if (args.size() == 2) {
      r = binary(op, args, kw);
    } else {
      r = unary(op, var(args[0]), kw);
    }
    env[name] = r;
    names.push_back(name);
    if (kw.value("retain_grad", false)) {
      r.retain_grad();
      retained.push_back(name);
    }
  }
};

Tensor tensor_of(const json& j, DType dtype) {
  return from_values(j["values"].get<std::vector<double>>(), j["shape"].get<Shape>(), {dtype});
}

void compare(const std::string& what, const Tensor& got, const json& want) {
  CAPTURE(what);
  REQUIRE(got.defined());
  CHECK(got.sizes() == want["shape"].get<Shape>());
  CHECK(got.strides() == want["stride"].get<Shape>());
  const std::vector<double> g = got.to_vector(), w = want["values"].get<std::vector<double>>();
  REQUIRE(g.size() == w.size());
  const double tol = got.dtype() == DType::Float32 ? 1e-5 : 1e-10;
  for (size_t i = 0; i < g.size(); ++i) {
    CAPTURE(i);
    CHECK(g[i] == doctest::Approx(w[i]).epsilon(tol));
  }
}

void run_case(const json& c) {
  Program p;
  for (const json& in : c["inputs"]) {
    Tensor t = tensor_of(in, dtype_of_name(in["dtype"]));
    p.env[in["name"]] = Variable(t, in["requires_grad"].get<bool>());
  }
  const json& expected = c["expected"];
  std::string error;
  std::map<std::string, std::string> grad_fns;
  try {
    for (const json& s : c["program"]) p.step(s);
    const Variable& y = p.env.at(c["output"].get<std::string>());
    Tensor grad = c["grad_output"].is_null() ? Tensor() : tensor_of(c["grad_output"], y.dtype());
    for (const std::string& n : p.names) {
      auto fn = p.env[n].grad_fn();
      grad_fns[n] = fn ? fn->name() : "";
    }
    for (const json& call : c["backward"]) y.backward(grad, call.value("retain_graph", false));
  } catch (const Error& e) {
    error = e.what();
  }
  if (expected.contains("error")) {
    CHECK(error == expected["error"].get<std::string>());
    return;
  }
  REQUIRE(error == "");
  for (const auto& item : expected["grads"].items()) {
    const std::string name = item.key();
    const json& want = item.value();
    const Tensor& got = p.env.at(name).grad();
    if (want.is_null()) {
      CHECK_MESSAGE(!got.defined(), name);
    } else {
      compare(name, got, want);
    }
  }
  if (expected.contains("grad_fns"))
    for (const auto& item : expected["grad_fns"].items()) {
      const std::string name = item.key();
      const json& want = item.value();
      CAPTURE(name);
      CHECK(grad_fns.at(name) == (want.is_null() ? "" : want.get<std::string>()));
    }
}
}  // namespace

TEST_CASE("gradients, grad_fns and errors agree with PyTorch 2.6") {
  std::ifstream in(strided::testing::test_path("STRIDED_GRAD_CASES"));
  REQUIRE(in.good());
  std::string line;
  int cases = 0, changed = 0;
  while (std::getline(in, line)) {
    const json c = json::parse(line);
    CAPTURE(c["id"].get<std::string>());
    if (c.contains("expected_1_13")) {
      const json patch = json::diff(c["expected_1_13"], c["expected"]);
      CHECK_MESSAGE(!patch.empty(), "expected_1_13 is the same as expected");
      ++changed;
      if (!patch.empty())
        MESSAGE("PyTorch 1.13 answered '" << c["id"].get<std::string>() << "' otherwise at "
                                          << patch[0]["path"].get<std::string>() << ": "
                                          << c["expected_1_13"].dump().substr(0, 200));
    }
    run_case(c);
    ++cases;
  }
  MESSAGE(cases << " programs; PyTorch 1.13 answered " << changed << " of them otherwise");
  CHECK(cases >= 100);
}
