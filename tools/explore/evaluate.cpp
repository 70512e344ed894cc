#include "evaluate.h"

#include <algorithm>
#include <functional>
#include <map>

#include "bounded_ops.h"
#include "strided/layout.h"

namespace strided::explore {

namespace {

std::string kind_name(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Int: return std::to_string(v.integer);
    case Value::Kind::Float: return "a float";
    case Value::Kind::Sequence: return "a sequence";
    case Value::Kind::None: return "None";
    case Value::Kind::Bool: return v.boolean ? "True" : "False";
    case Value::Kind::Name: return "the name " + v.text;
    case Value::Kind::String: return "the string '" + v.text + "'";
  }
  return "a value";
}

// Python's argument binding for one call: positional arguments fill the parameters in order, a
// parameter named "*size" takes all of them (and then accepts one sequence too, as view(2, 3)
// and view((2, 3)) both work), and keywords fill parameters by name.
class Binder {
 public:
  Binder(const Step& step, std::vector<std::string> params)
      : step_(step), params_(std::move(params)) {
    const bool varargs = !params_.empty() && params_[0][0] == '*';
    size_t next = varargs ? 1 : 0;
    for (const Argument& a : step.arguments) {
      if (a.keyword.empty()) {
        if (varargs) {
          star_.push_back(&a.value);
          continue;
        }
        if (next >= params_.size())
          throw ExploreError(step.name + "() takes " + std::to_string(params_.size()) +
                                 " argument" + (params_.size() == 1 ? "" : "s") + " but " +
                                 std::to_string(count_positional()) + " were given",
                             a.span);
        values_[params_[next++]] = &a.value;
        continue;
      }
      const bool known = std::find(params_.begin(), params_.end(), a.keyword) != params_.end();
      if (!known)
        throw ExploreError(step.name + "() got an unexpected keyword argument '" + a.keyword +
                               "'" + expected_keywords(),
                           a.span);
      if (values_.count(a.keyword))
        throw ExploreError(step.name + "() got multiple values for argument '" + a.keyword + "'",
                           a.span);
      values_[a.keyword] = &a.value;
    }
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
      throw ExploreError(step_.name + "() missing required argument '" + name + "'", step_.span);
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
  // *size: the positional integers, or a single sequence of them.
  Shape star() const {
    const std::string name = params_[0].substr(1);
    if (star_.size() == 1 && star_[0]->kind == Value::Kind::Sequence)
      return as_ints(*star_[0], name);
    if (star_.empty() && values_.count(name)) return as_ints(*values_.at(name), name);
    Shape out;
    for (const Value* v : star_) out.push_back(as_int(*v, name));
    return out;
  }
  bool star_given() const { return !star_.empty() || values_.count(params_[0].substr(1)); }
  DType dtype_or(DType fallback) const {
    const Value* v = get("dtype");
    if (!v) return fallback;
    if (v->kind != Value::Kind::Name && v->kind != Value::Kind::String)
      throw ExploreError("dtype must be a dtype such as torch.float32, got " + kind_name(*v),
                         v->span);
    std::string text = v->text;
    if (text.rfind("torch.", 0) == 0) text = text.substr(6);
    try {
      return dtype_from_name(text);
    } catch (const Error&) {
      throw ExploreError("unknown dtype '" + v->text +
                             "'; known: bool, int32, int64, float16, bfloat16, float32, float64",
                         v->span);
    }
  }

 private:
  size_t count_positional() const {
    size_t n = 0;
    for (const Argument& a : step_.arguments) n += a.keyword.empty();
    return n;
  }
  std::string expected_keywords() const {
    std::string out;
    for (const std::string& p : params_)
      if (p[0] != '*') out += (out.empty() ? "" : ", ") + p;
    return out.empty() ? "" : " (it takes " + out + ")";
  }
  static int64_t as_int(const Value& v, const std::string& name) {
    if (v.kind != Value::Kind::Int)
      throw ExploreError(name + " must be an integer, got " + kind_name(v), v.span);
    return v.integer;
  }
  static Shape as_ints(const Value& v, const std::string& name) {
    if (v.kind == Value::Kind::Int) return {v.integer};
    if (v.kind != Value::Kind::Sequence)
      throw ExploreError(name + " must be a sequence of integers, got " + kind_name(v), v.span);
    Shape out;
    for (const Value& item : v.items) out.push_back(as_int(item, name));
    return out;
  }

  const Step& step_;
  std::vector<std::string> params_;
  std::map<std::string, const Value*> values_;
  std::vector<const Value*> star_;
};

using MethodFn = std::function<Tensor(const Tensor&, const Binder&)>;
using FactoryFn = std::function<Tensor(const Binder&)>;

struct Method {
  std::vector<std::string> params;
  MethodFn run;
};
struct Factory {
  std::vector<std::string> params;
  FactoryFn run;
};

const std::map<std::string, Method>& methods() {
  static const std::map<std::string, Method> table = {
      {"view", {{"*size"}, [](const Tensor& t, const Binder& b) { return t.view(b.star()); }}},
      {"reshape",
       {{"*shape"}, [](const Tensor& t, const Binder& b) { return bounded_reshape(t, b.star()); }}},
      {"permute", {{"*dims"}, [](const Tensor& t, const Binder& b) { return t.permute(b.star()); }}},
      {"expand", {{"*size"}, [](const Tensor& t, const Binder& b) { return t.expand(b.star()); }}},
      {"broadcast_to",
       {{"size"}, [](const Tensor& t, const Binder& b) { return t.broadcast_to(b.ints("size")); }}},
      {"flip", {{"*dims"}, [](const Tensor& t, const Binder& b) { return bounded_flip(t, b.star()); }}},
      {"transpose",
       {{"dim0", "dim1"},
        [](const Tensor& t, const Binder& b) {
          return t.transpose(b.integer("dim0"), b.integer("dim1"));
        }}},
      {"t", {{}, [](const Tensor& t, const Binder&) { return t.t(); }}},
      {"unsqueeze",
       {{"dim"}, [](const Tensor& t, const Binder& b) { return t.unsqueeze(b.integer("dim")); }}},
      {"squeeze",
       {{"dim"},
        [](const Tensor& t, const Binder& b) {
          const std::optional<int64_t> d = b.optional_integer("dim");
          return d ? t.squeeze(*d) : t.squeeze();
        }}},
      {"flatten",
       {{"start_dim", "end_dim"},
        [](const Tensor& t, const Binder& b) {
          return bounded_flatten(t, b.integer_or("start_dim", 0), b.integer_or("end_dim", -1));
        }}},
      {"unflatten",
       {{"dim", "sizes"},
        [](const Tensor& t, const Binder& b) {
          return t.unflatten(b.integer("dim"), b.ints("sizes"));
        }}},
      {"unfold",
       {{"dimension", "size", "step"},
        [](const Tensor& t, const Binder& b) {
          return t.unfold(b.integer("dimension"), b.integer("size"), b.integer("step"));
        }}},
      {"diagonal",
       {{"offset", "dim1", "dim2"},
        [](const Tensor& t, const Binder& b) {
          return t.diagonal(b.integer_or("offset", 0), b.integer_or("dim1", 0),
                            b.integer_or("dim2", 1));
        }}},
      {"narrow",
       {{"dim", "start", "length"},
        [](const Tensor& t, const Binder& b) {
          return t.narrow(b.integer("dim"), b.integer("start"), b.integer("length"));
        }}},
      {"select",
       {{"dim", "index"},
        [](const Tensor& t, const Binder& b) {
          return t.select(b.integer("dim"), b.integer("index"));
        }}},
      {"movedim",
       {{"source", "destination"},
        [](const Tensor& t, const Binder& b) {
          if (!b.is_sequence("source") && !b.is_sequence("destination"))
            return t.movedim(b.integer("source"), b.integer("destination"));
          return t.movedim(b.ints("source"), b.ints("destination"));
        }}},
      {"as_strided",
       {{"size", "stride", "storage_offset"},
        [](const Tensor& t, const Binder& b) {
          return t.as_strided(b.ints("size"), b.ints("stride"), b.optional_integer("storage_offset"));
        }}},
      {"contiguous", {{}, [](const Tensor& t, const Binder&) { return bounded_contiguous(t); }}},
      {"clone", {{}, [](const Tensor& t, const Binder&) { return bounded_clone(t); }}},
      {"to",
       {{"dtype"},
        [](const Tensor& t, const Binder& b) {
          b.required("dtype");
          return bounded_to(t, b.dtype_or(t.dtype()));
        }}},
  };
  return table;
}

// Properties: x.mT and x.T (for more than 2 dims, T reverses them all, as PyTorch 1.13 does).
const std::map<std::string, std::function<Tensor(const Tensor&)>>& properties() {
  static const std::map<std::string, std::function<Tensor(const Tensor&)>> table = {
      {"mT", [](const Tensor& t) { return t.mT(); }},
      {"T",
       [](const Tensor& t) {
         Shape dims;
         for (int64_t d = t.dim() - 1; d >= 0; --d) dims.push_back(d);
         return t.permute(dims);
       }},
  };
  return table;
}

// torch.tensor(data): the shape of the nested sequences and their values in row-major order.
void flatten_data(const Value& v, size_t depth, Shape& shape, std::vector<double>& values,
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
      values.push_back(static_cast<double>(v.integer));
      all_bool = false;
      break;
    case Value::Kind::Float:
      values.push_back(v.real);
      any_float = true;
      all_bool = false;
      break;
    case Value::Kind::Bool: values.push_back(v.boolean ? 1.0 : 0.0); break;
    default: throw ExploreError("tensor(): expected a number, got " + kind_name(v), v.span);
  }
}

const std::map<std::string, Factory>& factories() {
  static const std::map<std::string, Factory> table = {
      {"arange",
       {{"start", "end", "step", "dtype"},
        [](const Binder& b) {
          // arange(end) or arange(start, end[, step]), as Python's range.
          const DType dtype = b.dtype_or(DType::Int64);
          if (!b.get("end")) return bounded_arange(0, b.integer("start"), 1, dtype);
          return bounded_arange(b.integer("start"), b.integer("end"), b.integer_or("step", 1),
                                dtype);
        }}},
      {"zeros",
       {{"*size", "dtype"},
        [](const Binder& b) {
          return bounded_full(b.star(), Scalar(int64_t{0}), b.dtype_or(DType::Float32), "zeros");
        }}},
      {"ones",
       {{"*size", "dtype"},
        [](const Binder& b) {
          return bounded_full(b.star(), Scalar(int64_t{1}), b.dtype_or(DType::Float32), "ones");
        }}},
      {"empty",
       {{"*size", "dtype"},
        [](const Binder& b) {
          const Shape size = b.star();
          return bounded_empty_strided(size, contiguous_strides(size), b.dtype_or(DType::Float32));
        }}},
      {"empty_strided",
       {{"size", "stride", "dtype"},
        [](const Binder& b) {
          return bounded_empty_strided(b.ints("size"), b.ints("stride"),
                                       b.dtype_or(DType::Float32));
        }}},
      {"rand",
       {{"*size", "seed", "dtype"},
        [](const Binder& b) {
          return bounded_rand(b.star(), static_cast<uint64_t>(b.integer_or("seed", 0)),
                              b.dtype_or(DType::Float32), false);
        }}},
      {"randn",
       {{"*size", "seed", "dtype"},
        [](const Binder& b) {
          return bounded_rand(b.star(), static_cast<uint64_t>(b.integer_or("seed", 0)),
                              b.dtype_or(DType::Float32), true);
        }}},
      {"tensor",
       {{"data", "dtype"},
        [](const Binder& b) {
          const Value& data = b.required("data");
          Shape shape;
          std::vector<double> values;
          bool any_float = false, all_bool = true;
          flatten_data(data, 0, shape, values, any_float, all_bool);
          // torch.tensor's inference: floats make float32, only booleans make bool, else int64.
          const DType inferred = any_float ? DType::Float32
                                 : (all_bool && !values.empty()) ? DType::Bool
                                 : values.empty() ? DType::Float32
                                                  : DType::Int64;
          return bounded_from_values(values, shape, b.dtype_or(inferred));
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

Tensor apply(const Step& step, const Tensor& in) {
  switch (step.kind) {
    case Step::Kind::Index: {
      std::vector<indexing::TensorIndex> index;
      for (const IndexItem& item : step.index) index.push_back(to_index(item));
      return bounded_index(in, index);
    }
    case Step::Kind::Property: {
      const auto it = properties().find(step.name);
      if (it != properties().end()) return it->second(in);
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
  return it->second.run(in, b);
}

Tensor make(const Step& step) {
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
  const Binder b(step, it->second.params);
  return it->second.run(b);
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
    for (const auto& [name, p] : properties()) out.push_back(name);
    return out;
  }();
  return names;
}

std::vector<StepResult> evaluate(const Expression& e) {
  std::vector<StepResult> out;
  for (size_t i = 0; i < e.steps.size(); ++i) {
    const Step& step = e.steps[i];
    StepResult r;
    r.span = step.span;
    r.text = e.source.substr(0, step.span.end);
    try {
      r.tensor = i == 0 ? make(step) : apply(step, out.back().tensor);
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
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace strided::explore
