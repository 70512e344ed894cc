// Python's argument binding for one call of the expression language, with PyTorch's errors
// (torch/csrc/utils/python_arg_parser.cpp, FunctionSignature::parse), and the shape every op of
// the language has: a signature and what it runs.
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "budget.h"
#include "expression.h"
#include "strided/tensor/tensor.h"

namespace strided::explore {

// Python's type name of a value, as PyTorch's argument errors print it.
std::string type_name(const Value& v);

// A dtype argument: torch.float32 or float32 (or the string 'float32'), with one "torch." at most.
DType dtype_of(const Value& v, const std::string& op);

// A call's parameters in order, as native_functions.yaml writes them: "*size" (first only) takes
// every positional argument (view(2, 3) and view((2, 3)) both work); "*" makes the parameters
// after it keyword-only; a name ending in "=" has a default, as every keyword-only one does; "/"
// makes the parameters before it positional-only, as in a Python signature.
using Signature = std::vector<std::string>;

// How a signature binds. PyTorch lets an int list take every positional argument only when it is
// the signature's one positional parameter (FunctionSignature's allow_varargs_intlist): so in
// x.permute(2, 0, 1), not in torch.permute(x, (2, 0, 1)), whose "*dims" binds as "dims".
struct BindOptions {
  bool varargs = true;
  // A parameter PyTorch's function names otherwise than the method: torch.split's
  // split_size_or_sections is read as the method's split_size (function name -> method name).
  std::map<std::string, std::string> renames;
};

class Binder {
 public:
  Binder(const Step& step, const Signature& signature, const BindOptions& options = {});

  // Several signatures (arange's three): PythonArgParser::raw_parse takes the first that binds.
  static Binder overloaded(const Step& step, const std::vector<Signature>& signatures);

  // The argument for a parameter, or nullptr when it was not given (or given as None).
  const Value* get(const std::string& name) const;
  const Value& required(const std::string& name) const;
  int64_t integer(const std::string& name) const { return as_int(required(name), name); }
  int64_t integer_or(const std::string& name, int64_t fallback) const {
    const Value* v = get(name);
    return v ? as_int(*v, name) : fallback;
  }
  std::optional<int64_t> optional_integer(const std::string& name) const {
    const Value* v = get(name);
    if (!v) return std::nullopt;
    return as_int(*v, name);
  }
  // The call being bound, for an error that points at it.
  const Step& step() const { return step_; }
  // Whether the argument was written as None (get() treats None as not given).
  bool is_none(const std::string& name) const {
    const auto it = values_.find(name);
    return it != values_.end() && it->second->kind == Value::Kind::None;
  }
  // The name of the first parameter, among names, that was given (and is not None); "" if none.
  std::string given(std::initializer_list<const char*> names) const {
    for (const char* n : names)
      if (get(n)) return n;
    return "";
  }
  // A sequence of integers; a single integer counts as a one-element sequence.
  Shape ints(const std::string& name) const { return as_ints(required(name), name); }
  bool is_sequence(const std::string& name) const {
    const Value* v = get(name);
    return v && v->kind == Value::Kind::Sequence;
  }
  // A tensor argument (torch.view_as_real(z)'s input): the expression that computes it.
  const Value& tensor(const std::string& name) const;
  // *size: the positional integers, or a single sequence of them, or size= as a keyword.
  Shape star() const;
  // view(torch.int32): a single positional dtype where *size would be, or dtype= as a keyword.
  std::optional<DType> star_dtype() const;
  // A *size= that must be given after all (view without a dtype), with Python's error.
  void required_star() const;
  DType dtype_or(DType fallback) const {
    const Value* v = get("dtype");
    return v ? dtype_of(*v, step_.name) : fallback;
  }

 private:
  explicit Binder(const Step& step) : step_(step) {}
  std::optional<ExploreError> bind(const Signature& signature);
  // " (position 2)" after a parameter given by position, as PyTorch's type errors say.
  std::string position(const std::string& name) const;
  int64_t as_int(const Value& v, const std::string& name) const;
  Shape as_ints(const Value& v, const std::string& name) const;

  const Step& step_;
  BindOptions options_;
  std::map<std::string, const Value*> values_;
  std::map<std::string, size_t> positions_;  // 1-based, of the parameters given by position
  std::vector<const Value*> star_;
  std::string star_name_;  // "size" for "*size"; empty when the signature has none
};

// An op of the language: its parameters after the tensor it applies to, and what it runs.
using MethodFn = std::function<Tensor(const Tensor&, const Binder&, Meter&)>;
struct Method {
  Signature params;
  MethodFn run;
};

}  // namespace strided::explore
