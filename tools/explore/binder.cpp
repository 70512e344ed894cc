#include "binder.h"

#include <algorithm>

namespace strided::explore {

std::string type_name(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Int: return "int";
    case Value::Kind::Float: return "float";
    case Value::Kind::Sequence: return v.list ? "list" : "tuple";
    case Value::Kind::None: return "NoneType";
    case Value::Kind::Bool: return "bool";
    case Value::Kind::Name: return "torch.dtype";  // the only names the language has
    case Value::Kind::String: return "str";
    case Value::Kind::Tensor: return "Tensor";
  }
  return "object";
}

// Python resolves torch.torch to the module itself, so torch takes torch.torch.float32; the
// language has no modules, and a longer dotted name is more likely a slip than a module path.
DType dtype_of(const Value& v, const std::string& op) {
  if (v.kind != Value::Kind::Name && v.kind != Value::Kind::String)
    throw ExploreError(op + "(): argument 'dtype' must be torch.dtype, not " + type_name(v),
                       v.span);
  std::string text = v.text;
  if (text.rfind("torch.", 0) == 0) text = text.substr(6);
  try {
    if (text.find('.') != std::string::npos) throw Error("dtype", "not a dtype name");
    return dtype_from_name(text);
  } catch (const Error&) {
    throw ExploreError(op + "(): unknown dtype '" + v.text + "'; known: " + dtype_names(), v.span);
  }
}

Binder::Binder(const Step& step, const Signature& signature, const BindOptions& options)
    : step_(step), options_(options) {
  if (std::optional<ExploreError> e = bind(signature)) throw *e;
}

// When no signature binds, print_error raises the error of the one signature whose required
// parameters the number of arguments covers, if just one does (arange(start=3): 'missing 1
// required positional arguments: "end"'), and otherwise "received an invalid combination of
// arguments". (PyTorch also bounds the count by each signature's out=, layout=, device=...
// keywords, which the language lacks.)
Binder Binder::overloaded(const Step& step, const std::vector<Signature>& signatures) {
  std::vector<ExploreError> plausible;
  for (const Signature& s : signatures) {
    Binder b(step);
    const std::optional<ExploreError> e = b.bind(s);
    if (!e) return b;
    size_t required = 0;
    for (const std::string& p : s) {
      if (p == "*" || p[0] == '*') break;
      required += p.back() != '=';
    }
    if (required <= step.arguments.size()) plausible.push_back(*e);
  }
  if (plausible.size() == 1) throw plausible[0];
  std::string got, expected;
  for (const Argument& a : step.arguments)
    got += (got.empty() ? "" : ", ") + (a.keyword.empty() ? "" : a.keyword + "=") +
           type_name(a.value);
  for (const Signature& s : signatures) {
    std::string params;
    for (const std::string& p : s)
      params += (params.empty() ? "" : ", ") + (p.back() == '=' ? p.substr(0, p.size() - 1) : p);
    expected += "\n * (" + params + ")";
  }
  throw ExploreError(step.name + "() received an invalid combination of arguments - got (" +
                         got + "), but expected one of:" + expected,
                     step.span);
}

const Value* Binder::get(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end() || it->second->kind == Value::Kind::None) return nullptr;
  return it->second;
}

const Value& Binder::required(const std::string& name) const {
  const Value* v = get(name);
  if (!v)
    throw ExploreError(step_.name + "(): argument '" + name + "' must not be None", step_.span);
  return *v;
}

// torch's "argument 'input' (position 1) must be Tensor, not int" (FunctionSignature::parse).
const Value& Binder::tensor(const std::string& name) const {
  const Value& v = required(name);
  if (v.kind != Value::Kind::Tensor)
    throw ExploreError(step_.name + "(): argument '" + name + "'" + position(name) +
                           " must be Tensor, not " + type_name(v),
                       v.span);
  return v;
}

Shape Binder::star() const {
  if (star_.size() == 1 && star_[0]->kind == Value::Kind::Sequence)
    return as_ints(*star_[0], star_name_);
  if (star_.empty() && values_.count(star_name_))
    return as_ints(*values_.at(star_name_), star_name_);
  Shape out;
  for (size_t i = 0; i < star_.size(); ++i) {
    if (star_[i]->kind != Value::Kind::Int)
      throw ExploreError(step_.name + "(): argument '" + star_name_ +
                             "' must be tuple of ints, but found element of type " +
                             type_name(*star_[i]) + " at pos " + std::to_string(i + 1),
                         star_[i]->span);
    out.push_back(star_[i]->integer);
  }
  return out;
}

std::optional<DType> Binder::star_dtype() const {
  if (const Value* v = get("dtype")) {
    if (!star_.empty())
      throw ExploreError(step_.name + "() takes either a dtype or sizes, not both", v->span);
    return dtype_of(*v, step_.name);
  }
  if (star_.size() == 1 &&
      (star_[0]->kind == Value::Kind::Name || star_[0]->kind == Value::Kind::String))
    return dtype_of(*star_[0], step_.name);
  return std::nullopt;
}

void Binder::required_star() const {
  if (star_.empty() && !values_.count(star_name_))
    throw ExploreError(step_.name + "() missing 1 required positional arguments: \"" +
                           star_name_ + "\"",
                       step_.span);
}

// Too many positional arguments, then a missing required one, then a keyword the signature lacks
// or one given twice: FunctionSignature::parse's order.
std::optional<ExploreError> Binder::bind(const Signature& signature) {
  std::vector<std::string> positional, names;  // names without "*" and "=", in order
  std::vector<bool> optional;
  size_t positional_only = 0;  // how many parameters come before a "/"
  bool keyword_only = false, varargs = false;
  for (const std::string& p : signature) {
    if (p == "*") {
      keyword_only = true;
      continue;
    }
    if (p == "/") {
      positional_only = names.size();
      continue;
    }
    const bool star = p[0] == '*', defaulted = p.back() == '=';
    const std::string name = p.substr(star, p.size() - star - defaulted);
    names.push_back(name);
    optional.push_back(defaulted || keyword_only);
    if (!keyword_only) positional.push_back(name);
    if (star) {
      star_name_ = name;
      varargs = options_.varargs;
      keyword_only = keyword_only || varargs;  // after *size every parameter is keyword-only
    }
  }
  size_t given = 0;
  for (const Argument& a : step_.arguments) {
    if (!a.keyword.empty()) continue;
    if (varargs) {
      star_.push_back(&a.value);
    } else if (given < positional.size()) {
      values_[positional[given]] = &a.value;
      positions_[positional[given]] = given + 1;
    }
    ++given;
  }
  if (!varargs && given > positional.size())
    return ExploreError(step_.name + "() takes " + std::to_string(positional.size()) +
                            " positional argument" + (positional.size() == 1 ? "" : "s") +
                            " but " + std::to_string(given) + (given == 1 ? " was" : " were") +
                            " given",
                        step_.arguments[positional.size()].span);
  const auto keyword_names_end = names.begin() + static_cast<std::ptrdiff_t>(positional_only);
  const auto takes_keyword = [&](const std::string& k) {
    return std::find(keyword_names_end, names.end(), k) != names.end();
  };
  for (const Argument& a : step_.arguments)
    if (!a.keyword.empty() && !values_.count(a.keyword) && takes_keyword(a.keyword))
      values_[a.keyword] = &a.value;
  // A keyword naming a positional-only parameter: Python's binding refuses it first
  // (torch.atleast_1d(input=x): atleast_1d(*tensors) takes no keyword).
  for (const Argument& a : step_.arguments)
    if (!a.keyword.empty() && !takes_keyword(a.keyword) &&
        std::find(names.begin(), keyword_names_end, a.keyword) != keyword_names_end)
      return ExploreError(step_.name + "() got an unexpected keyword argument '" + a.keyword + "'",
                          a.span);
  // missing_args: the first missing parameter and every required one after it, with
  // PyTorch's own plural ("missing 1 required positional arguments").
  for (size_t i = 0; i < names.size(); ++i) {
    if (optional[i] || values_.count(names[i]) || (names[i] == star_name_ && !star_.empty()))
      continue;
    std::string list;
    size_t missing = 0;
    for (size_t j = i; j < names.size(); ++j)
      if (!optional[j]) list += (missing++ ? ", \"" : "\"") + names[j] + "\"";
    return ExploreError(step_.name + "() missing " + std::to_string(missing) +
                            " required positional argument" + (missing == 1 ? "s" : "") + ": " +
                            list,
                        step_.span);
  }
  for (const Argument& a : step_.arguments) {
    if (a.keyword.empty()) continue;
    if (!takes_keyword(a.keyword)) {
      std::string expected;
      for (auto it = keyword_names_end; it != names.end(); ++it)
        expected += (expected.empty() ? "" : ", ") + *it;
      return ExploreError(step_.name + "() got an unexpected keyword argument '" + a.keyword +
                              "'" + (expected.empty() ? "" : " (it takes " + expected + ")"),
                          a.span);
    }
    if (values_.at(a.keyword) != &a.value)
      return ExploreError(
          step_.name + "() got multiple values for argument '" + a.keyword + "'", a.span);
  }
  for (const auto& [from, to] : options_.renames) {
    if (values_.count(from)) values_[to] = values_.at(from);
    if (positions_.count(from)) positions_[to] = positions_.at(from);
  }
  return std::nullopt;
}

std::string Binder::position(const std::string& name) const {
  const auto it = positions_.find(name);
  return it == positions_.end() ? "" : " (position " + std::to_string(it->second) + ")";
}

// torch's "argument 'dim' (position 1) must be int, not float" (FunctionSignature::parse).
int64_t Binder::as_int(const Value& v, const std::string& name) const {
  if (v.kind != Value::Kind::Int)
    throw ExploreError(step_.name + "(): argument '" + name + "'" + position(name) +
                           " must be int, not " + type_name(v),
                       v.span);
  return v.integer;
}

Shape Binder::as_ints(const Value& v, const std::string& name) const {
  if (v.kind == Value::Kind::Int) return {v.integer};
  if (v.kind != Value::Kind::Sequence)
    throw ExploreError(step_.name + "(): argument '" + name + "'" + position(name) +
                           " must be tuple of ints, not " + type_name(v),
                       v.span);
  Shape out;
  for (const Value& item : v.items) out.push_back(as_int(item, name));
  return out;
}

}  // namespace strided::explore
