#include "evaluate.h"

#include <algorithm>
#include <functional>
#include <map>

#include "bounded_ops.h"
#include "strided/layout/layout.h"

namespace strided::explore {

namespace {

// Python's type name of a value, as PyTorch's argument errors print it.
std::string type_name(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Int: return "int";
    case Value::Kind::Float: return "float";
    case Value::Kind::Sequence: return v.list ? "list" : "tuple";
    case Value::Kind::None: return "NoneType";
    case Value::Kind::Bool: return "bool";
    case Value::Kind::Name: return "torch.dtype";  // the only names the language has
    case Value::Kind::String: return "str";
  }
  return "object";
}

// A dtype argument: torch.float32 or float32 (or the string 'float32'), with one "torch." at most.
// Python resolves torch.torch to the module itself, so torch takes torch.torch.float32; the
// language has no modules, and a longer dotted name is more likely a slip than a module path.
DType dtype_of(const Value& v, const std::string& op) {
  if (v.kind != Value::Kind::Name && v.kind != Value::Kind::String)
    throw ExploreError(op + "(): argument 'dtype' must be torch.dtype, not " + type_name(v),
                       v.span);
  std::string text = v.text;
  if (text.rfind("torch.", 0) == 0) text = text.substr(6);
  try {
    if (text.find('.') != std::string::npos) throw Error("not a dtype name");
    return dtype_from_name(text);
  } catch (const Error&) {
    throw ExploreError(op + "(): unknown dtype '" + v.text +
                           "'; known: bool, int32, int64, float16, bfloat16, float32, float64, "
                           "complex64, complex128",
                       v.span);
  }
}

// A call's parameters in order, as native_functions.yaml writes them: "*size" (first only) takes
// every positional argument (view(2, 3) and view((2, 3)) both work); "*" makes the parameters
// after it keyword-only; a name ending in "=" has a default, as every keyword-only one does.
using Signature = std::vector<std::string>;

// Python's argument binding for one call, with PyTorch's errors (torch/csrc/utils/
// python_arg_parser.cpp, FunctionSignature::parse): too many positional arguments, then a missing
// required one, then a keyword the signature lacks or one given twice.
class Binder {
 public:
  Binder(const Step& step, const Signature& signature) : step_(step) {
    if (std::optional<ExploreError> e = bind(signature)) throw *e;
  }

  // Several signatures (arange's three): PythonArgParser::raw_parse takes the first that binds.
  // When none does, print_error raises the error of the one signature whose required parameters
  // the number of arguments covers, if just one does (arange(start=3): 'missing 1 required
  // positional arguments: "end"'), and otherwise "received an invalid combination of arguments".
  // (PyTorch also bounds the count by each signature's out=, layout=, device=... keywords,
  // which the language lacks.)
  static Binder overloaded(const Step& step, const std::vector<Signature>& signatures) {
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

  // The argument for a parameter, or nullptr when it was not given (or given as None).
  const Value* get(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end() || it->second->kind == Value::Kind::None) return nullptr;
    return it->second;
  }
  const Value& required(const std::string& name) const {
    const Value* v = get(name);
    if (!v)
      throw ExploreError(step_.name + "(): argument '" + name + "' must not be None",
                         step_.span);
    return *v;
  }
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
  // A sequence of integers; a single integer counts as a one-element sequence.
  Shape ints(const std::string& name) const { return as_ints(required(name), name); }
  bool is_sequence(const std::string& name) const {
    const Value* v = get(name);
    return v && v->kind == Value::Kind::Sequence;
  }
  // *size: the positional integers, or a single sequence of them, or size= as a keyword.
  Shape star() const {
    if (star_.size() == 1 && star_[0]->kind == Value::Kind::Sequence)
      return as_ints(*star_[0], star_name_);
    if (star_.empty() && values_.count(star_name_)) return as_ints(*values_.at(star_name_), star_name_);
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
  // view(torch.int32): a single positional dtype where *size would be, or dtype= as a keyword.
  std::optional<DType> star_dtype() const {
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
  // A *size= that must be given after all (view without a dtype), with Python's error.
  void required_star() const {
    if (star_.empty() && !values_.count(star_name_))
      throw ExploreError(step_.name + "() missing 1 required positional arguments: \"" +
                             star_name_ + "\"",
                         step_.span);
  }
  DType dtype_or(DType fallback) const {
    const Value* v = get("dtype");
    return v ? dtype_of(*v, step_.name) : fallback;
  }

 private:
  explicit Binder(const Step& step) : step_(step) {}

  std::optional<ExploreError> bind(const Signature& signature) {
    std::vector<std::string> positional, names;  // names without "*" and "=", in order
    std::vector<bool> optional;
    bool keyword_only = false;
    for (const std::string& p : signature) {
      if (p == "*") {
        keyword_only = true;
        continue;
      }
      const bool varargs = p[0] == '*', defaulted = p.back() == '=';
      const std::string name = p.substr(varargs, p.size() - varargs - defaulted);
      names.push_back(name);
      optional.push_back(defaulted || keyword_only);
      if (!keyword_only) positional.push_back(name);
      if (varargs) {
        star_name_ = name;
        keyword_only = true;  // after *size every parameter is keyword-only, as in Python
      }
    }
    size_t given = 0;
    for (const Argument& a : step_.arguments) {
      if (!a.keyword.empty()) continue;
      if (!star_name_.empty()) {
        star_.push_back(&a.value);
      } else if (given < positional.size()) {
        values_[positional[given]] = &a.value;
      }
      ++given;
    }
    if (star_name_.empty() && given > positional.size())
      return ExploreError(step_.name + "() takes " + std::to_string(positional.size()) +
                              " positional argument" + (positional.size() == 1 ? "" : "s") +
                              " but " + std::to_string(given) + (given == 1 ? " was" : " were") +
                              " given",
                          step_.arguments[positional.size()].span);
    for (const Argument& a : step_.arguments)
      if (!a.keyword.empty() && !values_.count(a.keyword) &&
          std::find(names.begin(), names.end(), a.keyword) != names.end())
        values_[a.keyword] = &a.value;
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
      if (std::find(names.begin(), names.end(), a.keyword) == names.end())
        return ExploreError(step_.name + "() got an unexpected keyword argument '" + a.keyword +
                                "'" + expected_keywords(names),
                            a.span);
      if (values_.at(a.keyword) != &a.value)
        return ExploreError(
            step_.name + "() got multiple values for argument '" + a.keyword + "'", a.span);
    }
    return std::nullopt;
  }

  static std::string expected_keywords(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& p : names) out += (out.empty() ? "" : ", ") + p;
    return out.empty() ? "" : " (it takes " + out + ")";
  }
  // torch's "argument 'dim' must be int, not float" (FunctionSignature::parse).
  int64_t as_int(const Value& v, const std::string& name) const {
    if (v.kind != Value::Kind::Int)
      throw ExploreError(step_.name + "(): argument '" + name + "' must be int, not " +
                             type_name(v),
                         v.span);
    return v.integer;
  }
  Shape as_ints(const Value& v, const std::string& name) const {
    if (v.kind == Value::Kind::Int) return {v.integer};
    if (v.kind != Value::Kind::Sequence)
      throw ExploreError(step_.name + "(): argument '" + name + "' must be tuple of ints, not " +
                             type_name(v),
                         v.span);
    Shape out;
    for (const Value& item : v.items) out.push_back(as_int(item, name));
    return out;
  }

  const Step& step_;
  std::map<std::string, const Value*> values_;
  std::vector<const Value*> star_;
  std::string star_name_;  // "size" for "*size"; empty when the signature has none
};

using MethodFn = std::function<Tensor(const Tensor&, const Binder&, Meter&)>;
using FactoryFn = std::function<Tensor(const Binder&, Meter&)>;

struct Method {
  Signature params;
  MethodFn run;
};
// Factories: dtype is keyword-only in each (native_functions.yaml: "*, ScalarType? dtype=None").
struct Factory {
  std::vector<Signature> signatures;  // more than one when PyTorch overloads the name
  FactoryFn run;
};

const std::map<std::string, Method>& methods() {
  static const std::map<std::string, Method> table = {
      {"view",
       // Two overloads, view(*size) and view(dtype): size is optional only so that dtype= binds.
       {{"*size=", "dtype"},
        [](const Tensor& t, const Binder& b, Meter&) {
          if (const std::optional<DType> dtype = b.star_dtype()) return t.view(*dtype);
          b.required_star();
          return t.view(b.star());
        }}},
      {"reshape",
       {{"*shape"}, [](const Tensor& t, const Binder& b, Meter& m) { return bounded_reshape(t, b.star(), m); }}},
      {"permute", {{"*dims"}, [](const Tensor& t, const Binder& b, Meter&) { return t.permute(b.star()); }}},
      {"expand", {{"*size"}, [](const Tensor& t, const Binder& b, Meter&) { return t.expand(b.star()); }}},
      {"broadcast_to",
       {{"size"}, [](const Tensor& t, const Binder& b, Meter&) { return t.broadcast_to(b.ints("size")); }}},
      {"flip", {{"*dims"}, [](const Tensor& t, const Binder& b, Meter& m) { return bounded_flip(t, b.star(), m); }}},
      {"transpose",
       {{"dim0", "dim1"},
        [](const Tensor& t, const Binder& b, Meter&) {
          return t.transpose(b.integer("dim0"), b.integer("dim1"));
        }}},
      {"t", {{}, [](const Tensor& t, const Binder&, Meter&) { return t.t(); }}},
      {"unsqueeze",
       {{"dim"}, [](const Tensor& t, const Binder& b, Meter&) { return t.unsqueeze(b.integer("dim")); }}},
      {"squeeze",
       {{"dim="},
        [](const Tensor& t, const Binder& b, Meter&) {
          const std::optional<int64_t> d = b.optional_integer("dim");
          return d ? t.squeeze(*d) : t.squeeze();
        }}},
      {"flatten",
       {{"start_dim=", "end_dim="},
        [](const Tensor& t, const Binder& b, Meter& m) {
          return bounded_flatten(t, b.integer_or("start_dim", 0), b.integer_or("end_dim", -1), m);
        }}},
      {"unflatten",
       {{"dim", "sizes"},
        [](const Tensor& t, const Binder& b, Meter&) {
          return t.unflatten(b.integer("dim"), b.ints("sizes"));
        }}},
      {"unfold",
       {{"dimension", "size", "step"},
        [](const Tensor& t, const Binder& b, Meter&) {
          return t.unfold(b.integer("dimension"), b.integer("size"), b.integer("step"));
        }}},
      {"diagonal",
       {{"offset=", "dim1=", "dim2="},
        [](const Tensor& t, const Binder& b, Meter&) {
          return t.diagonal(b.integer_or("offset", 0), b.integer_or("dim1", 0),
                            b.integer_or("dim2", 1));
        }}},
      {"narrow",
       {{"dim", "start", "length"},
        [](const Tensor& t, const Binder& b, Meter&) {
          return t.narrow(b.integer("dim"), b.integer("start"), b.integer("length"));
        }}},
      {"select",
       {{"dim", "index"},
        [](const Tensor& t, const Binder& b, Meter&) {
          return t.select(b.integer("dim"), b.integer("index"));
        }}},
      {"movedim",
       {{"source", "destination"},
        [](const Tensor& t, const Binder& b, Meter&) {
          if (!b.is_sequence("source") && !b.is_sequence("destination"))
            return t.movedim(b.integer("source"), b.integer("destination"));
          return t.movedim(b.ints("source"), b.ints("destination"));
        }}},
      {"swapaxes",
       {{"axis0", "axis1"},
        [](const Tensor& t, const Binder& b, Meter&) {
          return t.swapaxes(b.integer("axis0"), b.integer("axis1"));
        }}},
      {"swapdims",
       {{"dim0", "dim1"},
        [](const Tensor& t, const Binder& b, Meter&) {
          return t.swapdims(b.integer("dim0"), b.integer("dim1"));
        }}},
      {"moveaxis",
       {{"source", "destination"},
        [](const Tensor& t, const Binder& b, Meter&) {
          if (!b.is_sequence("source") && !b.is_sequence("destination"))
            return t.moveaxis(b.integer("source"), b.integer("destination"));
          return t.moveaxis(b.ints("source"), b.ints("destination"));
        }}},
      {"detach", {{}, [](const Tensor& t, const Binder&, Meter&) { return t.detach(); }}},
      {"conj", {{}, [](const Tensor& t, const Binder&, Meter&) { return t.conj(); }}},
      {"adjoint", {{}, [](const Tensor& t, const Binder&, Meter&) { return t.adjoint(); }}},
      {"resolve_conj",
       {{}, [](const Tensor& t, const Binder&, Meter& m) { return bounded_resolve_conj(t, m); }}},
      {"conj_physical",
       {{}, [](const Tensor& t, const Binder&, Meter& m) { return bounded_conj_physical(t, m); }}},
      {"as_strided",
       {{"size", "stride", "storage_offset="},
        [](const Tensor& t, const Binder& b, Meter&) {
          return t.as_strided(b.ints("size"), b.ints("stride"), b.optional_integer("storage_offset"));
        }}},
      {"contiguous", {{}, [](const Tensor& t, const Binder&, Meter& m) { return bounded_contiguous(t, m); }}},
      {"clone", {{}, [](const Tensor& t, const Binder&, Meter& m) { return bounded_clone(t, m); }}},
      {"to",
       {{"dtype"},
        [](const Tensor& t, const Binder& b, Meter& m) {
          b.required("dtype");
          return bounded_to(t, b.dtype_or(t.dtype()), m);
        }}},
  };
  return table;
}

// The ops with several outputs: x.split(2)[1] calls split and picks output 1 (bounded_pick).
// Each reads its arguments into a MultiOutputCall; a list where sections could be means indices.
struct MultiMethod {
  Signature params;
  std::function<MultiOutputCall(const Binder&)> read;
};
MultiOutputCall sizes_or_count(const Binder& b, const char* op, const char* param, bool has_dim) {
  MultiOutputCall c;
  c.op = op;
  c.dim = has_dim ? b.integer_or("dim", 0) : 0;
  c.has_sizes = b.is_sequence(param);
  if (c.has_sizes)
    c.sizes = b.ints(param);
  else
    c.n = b.integer(param);
  return c;
}
const std::map<std::string, MultiMethod>& multi_methods() {
  static const std::map<std::string, MultiMethod> table = {
      {"split", {{"split_size", "dim="},
                 [](const Binder& b) { return sizes_or_count(b, "split", "split_size", true); }}},
      {"split_with_sizes",
       {{"split_sizes", "dim="},
        [](const Binder& b) {
          MultiOutputCall c = sizes_or_count(b, "split_with_sizes", "split_sizes", true);
          c.has_sizes = true;
          if (c.sizes.empty() && !b.is_sequence("split_sizes")) c.sizes = {c.n};
          return c;
        }}},
      {"chunk", {{"chunks", "dim="},
                 [](const Binder& b) { return sizes_or_count(b, "chunk", "chunks", true); }}},
      {"unbind", {{"dim="},
                  [](const Binder& b) {
                    MultiOutputCall c;
                    c.op = "unbind";
                    c.dim = b.integer_or("dim", 0);
                    return c;
                  }}},
      {"tensor_split",
       {{"indices_or_sections", "dim="},
        [](const Binder& b) {
          return sizes_or_count(b, "tensor_split", "indices_or_sections", true);
        }}},
      {"hsplit", {{"indices_or_sections"},
                  [](const Binder& b) {
                    return sizes_or_count(b, "hsplit", "indices_or_sections", false);
                  }}},
      {"vsplit", {{"indices_or_sections"},
                  [](const Binder& b) {
                    return sizes_or_count(b, "vsplit", "indices_or_sections", false);
                  }}},
      {"dsplit", {{"indices_or_sections"},
                  [](const Binder& b) {
                    return sizes_or_count(b, "dsplit", "indices_or_sections", false);
                  }}},
  };
  return table;
}

// Properties: x.mT and x.T (for more than 2 dims, T reverses them all, as PyTorch 1.13 does).
const std::map<std::string, std::function<Tensor(const Tensor&)>>& properties() {
  static const std::map<std::string, std::function<Tensor(const Tensor&)>> table = {
      {"mT", [](const Tensor& t) { return t.mT(); }},
      {"mH", [](const Tensor& t) { return t.mH(); }},
      {"H", [](const Tensor& t) { return t.H(); }},
      {"real", [](const Tensor& t) { return t.real(); }},
      {"imag", [](const Tensor& t) { return t.imag(); }},
      {"T",
       [](const Tensor& t) {
         Shape dims;
         for (int64_t d = t.dim() - 1; d >= 0; --d) dims.push_back(d);
         return t.permute(dims);
       }},
  };
  return table;
}

// torch.tensor(data): the shape of the nested sequences and their values in row-major order, each
// kept as written (an integer stays int64: tensor([2**63 - 1]) is exact).
void flatten_data(const Value& v, size_t depth, Shape& shape, std::vector<Scalar>& values,
                  bool& any_float, bool& all_bool) {
  if (v.kind == Value::Kind::Sequence) {
    if (depth == shape.size()) {
      if (!values.empty())
        throw ExploreError("tensor(): the nested lists are not rectangular", v.span);
      shape.push_back(static_cast<int64_t>(v.items.size()));
    } else if (shape[depth] != static_cast<int64_t>(v.items.size())) {
      throw ExploreError("tensor(): expected a sequence of length " + std::to_string(shape[depth]) +
                             " at dim " + std::to_string(depth) + " (got " +
                             std::to_string(v.items.size()) + ")",
                         v.span);
    }
    for (const Value& item : v.items) flatten_data(item, depth + 1, shape, values, any_float, all_bool);
    return;
  }
  if (depth != shape.size())
    throw ExploreError("tensor(): the nested lists are not rectangular", v.span);
  switch (v.kind) {
    case Value::Kind::Int:
      values.emplace_back(v.integer);
      all_bool = false;
      break;
    case Value::Kind::Float:
      values.emplace_back(v.real);
      any_float = true;
      all_bool = false;
      break;
    case Value::Kind::Bool: values.emplace_back(v.boolean); break;
    default:
      throw ExploreError("tensor(): expected a number, got " + type_name(v), v.span);
  }
}

const std::map<std::string, Factory>& factories() {
  static const std::map<std::string, Factory> table = {
      {"arange",
       // arange(end), arange(start, end) and arange(start, end, step) (the last two bind alike).
       {{{"end", "*", "dtype"}, {"start", "end", "step=", "*", "dtype"}},
        [](const Binder& b, Meter& m) {
          return bounded_arange(b.integer_or("start", 0), b.integer("end"),
                                b.integer_or("step", 1), b.dtype_or(DType::Int64), m);
        }}},
      {"zeros",
       {{{"*size", "dtype"}},
        [](const Binder& b, Meter& m) {
          return bounded_full(b.star(), Scalar(int64_t{0}), b.dtype_or(DType::Float32), "zeros", m);
        }}},
      {"ones",
       {{{"*size", "dtype"}},
        [](const Binder& b, Meter& m) {
          return bounded_full(b.star(), Scalar(int64_t{1}), b.dtype_or(DType::Float32), "ones", m);
        }}},
      {"empty",
       {{{"*size", "dtype"}},
        [](const Binder& b, Meter& m) {
          return bounded_empty(b.star(), b.dtype_or(DType::Float32), m);
        }}},
      {"empty_strided",
       {{{"size", "stride", "*", "dtype"}},
        [](const Binder& b, Meter& m) {
          return bounded_empty_strided(b.ints("size"), b.ints("stride"),
                                       b.dtype_or(DType::Float32), "empty_strided", m);
        }}},
      {"rand",
       {{{"*size", "seed", "dtype"}},
        [](const Binder& b, Meter& m) {
          return bounded_rand(b.star(), static_cast<uint64_t>(b.integer_or("seed", 0)),
                              b.dtype_or(DType::Float32), false, m);
        }}},
      {"randn",
       {{{"*size", "seed", "dtype"}},
        [](const Binder& b, Meter& m) {
          return bounded_rand(b.star(), static_cast<uint64_t>(b.integer_or("seed", 0)),
                              b.dtype_or(DType::Float32), true, m);
        }}},
      {"tensor",
       {{{"data", "*", "dtype"}},
        [](const Binder& b, Meter& m) {
          const Value& data = b.required("data");
          Shape shape;
          std::vector<Scalar> values;
          bool any_float = false, all_bool = true;
          flatten_data(data, 0, shape, values, any_float, all_bool);
          // torch.tensor's inference: floats make float32, only booleans make bool, else int64.
          const DType inferred = any_float ? DType::Float32
                                 : (all_bool && !values.empty()) ? DType::Bool
                                 : values.empty() ? DType::Float32
                                                  : DType::Int64;
          return bounded_from_values(values, shape, b.dtype_or(inferred), m);
        }}},
  };
  return table;
}


size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string suggestion(const std::string& name, const std::vector<std::string>& known) {
  std::string best;
  size_t best_d = 3;  // suggest only close names
  for (const std::string& k : known) {
    const size_t d = edit_distance(name, k);
    if (d < best_d) {
      best_d = d;
      best = k;
    }
  }
  return best.empty() ? "" : "; did you mean " + best + "?";
}

indexing::TensorIndex to_index(const IndexItem& item) {
  switch (item.kind) {
    case IndexItem::Kind::Int: return item.integer;
    case IndexItem::Kind::Slice:
      return indexing::Slice(item.start, item.stop, item.step.value_or(1));
    case IndexItem::Kind::None: return indexing::None;
    case IndexItem::Kind::Ellipsis: return indexing::Ellipsis;
    case IndexItem::Kind::List: return item.list;
  }
  return indexing::None;
}

Tensor apply(const Step& step, const Tensor& in, Meter& m) {
  switch (step.kind) {
    case Step::Kind::Index: {
      std::vector<indexing::TensorIndex> index;
      for (const IndexItem& item : step.index) index.push_back(to_index(item));
      return bounded_index(in, index, m);
    }
    case Step::Kind::Property: {
      const auto it = properties().find(step.name);
      if (it != properties().end()) {
        m.charge(step.name, "a view of " + in.layout(), view_cost(in));
        return it->second(in);
      }
      if (methods().count(step.name))
        throw ExploreError(step.name + " is a method: write ." + step.name + "(...)",
                           step.name_span);
      throw ExploreError("unknown property '" + step.name + "'" +
                             suggestion(step.name, method_names()),
                         step.name_span);
    }
    case Step::Kind::Call: break;
  }
  const auto it = methods().find(step.name);
  if (it == methods().end()) {
    if (properties().count(step.name))
      throw ExploreError(step.name + " is a property: write ." + step.name +
                             " without parentheses",
                         step.span);
    if (factories().count(step.name))
      throw ExploreError(step.name + " makes a new tensor; it starts an expression",
                         step.name_span);
    throw ExploreError("unknown method '" + step.name + "'" + suggestion(step.name, method_names()),
                       step.name_span);
  }
  const Binder b(step, it->second.params);
  // Every op costs its input's dims at least (a view copies sizes and strides); the ops that copy
  // are charged for the copy too.
  m.charge(step.name, "a view of " + in.layout(), view_cost(in));
  return it->second.run(in, b, m);
}

// x.split(2)[1]: the call and the one integer index after it, as one step.
Tensor apply_multi(const Step& call, const Step* pick, const Tensor& in, Meter& m) {
  const MultiMethod& method = multi_methods().at(call.name);
  if (!pick || pick->kind != Step::Kind::Index || pick->index.size() != 1 ||
      pick->index[0].kind != IndexItem::Kind::Int)
    throw ExploreError(call.name + "() returns a tuple of tensors: pick one with an integer "
                           "index, as in x." + call.name + "(...)[0]",
                       call.span);
  const Binder b(call, method.params);
  MultiOutputCall c = method.read(b);
  c.index = pick->index[0].integer;
  return bounded_pick(in, c, m);
}

Tensor make(const Step& step, Meter& m) {
  if (step.kind != Step::Kind::Call)
    throw ExploreError("an expression starts with a factory such as arange(6)", step.span);
  const auto it = factories().find(step.name);
  if (it == factories().end()) {
    if (methods().count(step.name))
      throw ExploreError(step.name + " is a method; start with a factory, e.g. arange(6)." +
                             step.name + "(...)",
                         step.name_span);
    throw ExploreError("unknown factory '" + step.name + "'" +
                           suggestion(step.name, factory_names()) +
                           " (factories: arange, zeros, ones, empty, empty_strided, rand, randn, "
                           "tensor)",
                       step.name_span);
  }
  const Binder b = Binder::overloaded(step, it->second.signatures);
  return it->second.run(b, m);
}

bool same_tensor(const Tensor& a, const Tensor& b) {
  return a.storage().is_same(b.storage()) && a.sizes() == b.sizes() &&
         a.strides() == b.strides() && a.storage_offset() == b.storage_offset() &&
         a.dtype() == b.dtype();
}

}  // namespace

const std::vector<std::string>& factory_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, f] : factories()) out.push_back(name);
    return out;
  }();
  return names;
}

const std::vector<std::string>& method_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, m] : methods()) out.push_back(name);
    for (const auto& [name, m] : multi_methods()) out.push_back(name);
    for (const auto& [name, p] : properties()) out.push_back(name);
    return out;
  }();
  return names;
}

std::vector<StepResult> evaluate(const Expression& e) {
  Meter meter;
  return evaluate(e, meter);
}

std::vector<StepResult> evaluate(const Expression& e, Meter& meter) {
  std::vector<StepResult> out;
  std::vector<Tensor> kept;  // every step's tensor stays alive for the report
  for (size_t i = 0; i < e.steps.size(); ++i) {
    const Step& step = e.steps[i];
    StepResult r;
    r.span = step.span;
    r.text = e.source.substr(0, step.span.end);
    try {
      if (i > 0 && step.kind == Step::Kind::Call && multi_methods().count(step.name)) {
        const Step* pick = i + 1 < e.steps.size() ? &e.steps[i + 1] : nullptr;
        r.tensor = apply_multi(step, pick, out.back().tensor, meter);
        r.span.end = pick->span.end;
        r.text = e.source.substr(0, pick->span.end);
        ++i;
      } else {
        r.tensor = i == 0 ? make(step, meter) : apply(step, out.back().tensor, meter);
      }
    } catch (const ExploreError&) {
      throw;
    } catch (const Error& err) {
      throw ExploreError(err.what(), step.span);
    } catch (const std::bad_alloc&) {
      throw ExploreError("out of memory", step.span);
    }
    if (i == 0) {
      r.relation = StepResult::Relation::New;
    } else {
      const Tensor& prev = out.back().tensor;
      r.relation = same_tensor(r.tensor, prev)                 ? StepResult::Relation::Same
                   : r.tensor.storage().is_same(prev.storage()) ? StepResult::Relation::View
                                                                : StepResult::Relation::Copy;
    }
    kept.push_back(r.tensor);
    meter.hold(kept);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace strided::explore
