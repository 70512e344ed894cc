#include "evaluate.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "binder.h"
#include "bounded_ops.h"
#include "inplace.h"
#include "strided/layout/layout.h"
#include "torch_functions.h"

namespace strided::explore {

namespace {

using FactoryFn = std::function<Tensor(const Binder&, Meter&)>;
// Factories: dtype is keyword-only in each (native_functions.yaml: "*, ScalarType? dtype=None").
struct Factory {
  std::vector<Signature> signatures;  // more than one when PyTorch overloads the name
  FactoryFn run;
};

// The in-place methods (inplace.h): each writes into the tensor it is called on and returns it, as
// PyTorch's do. A tensor argument is an expression of its own, run by the caller (tensor_of).
using TensorOf = std::function<Tensor(const Value&)>;
struct InplaceMethod {
  Signature params;
  std::function<void(const Tensor&, const Binder&, const TensorOf&, Meter&)> run;
};

// A Tensor-or-Number parameter (add_'s other, x[...] = v's value), as python_arg_parser reads it.
Operand operand_of(const Value& v, const std::string& op, const std::string& param,
                   const TensorOf& tensor_of) {
  Operand o;
  switch (v.kind) {
    case Value::Kind::Int: o.number = Scalar(v.integer); break;
    case Value::Kind::Float: o.number = Scalar(v.real); break;
    case Value::Kind::Bool: o.number = Scalar(v.boolean); break;
    case Value::Kind::Tensor: o.tensor = tensor_of(v); break;
    default:
      throw ExploreError(op + "(): argument '" + param + "' must be Tensor or Number, not " +
                             type_name(v),
                         v.span);
  }
  return o;
}

Tensor tensor_argument(const Binder& b, const std::string& param, const TensorOf& tensor_of) {
  const Value& v = b.required(param);
  if (v.kind != Value::Kind::Tensor)
    throw ExploreError(b.step().name + "(): argument '" + param + "' must be Tensor, not " +
                           type_name(v),
                       v.span);
  return tensor_of(v);
}

// index_put_'s indices: a tuple (or list) of 1-D integer tensors, one per dim from dim 0.
std::vector<std::vector<int64_t>> index_lists(const Binder& b, const TensorOf& tensor_of) {
  const Value& v = b.required("indices");
  if (v.kind != Value::Kind::Sequence)
    throw ExploreError("index_put_(): argument 'indices' (position 1) must be tuple of Tensors, "
                       "not " + type_name(v),
                       v.span);
  std::vector<std::vector<int64_t>> out;
  for (size_t k = 0; k < v.items.size(); ++k) {
    const Value& item = v.items[k];
    // python_arg_parser's message for a tuple of Tensors holding something else.
    if (item.kind != Value::Kind::Tensor)
      throw ExploreError("expected Tensor as element " + std::to_string(k) +
                             " in argument 0, but got " + type_name(item),
                         item.span);
    const Tensor t = tensor_of(item);
    if (t.dtype() != DType::Int64 && t.dtype() != DType::Int32) {
      // TensorAdvancedIndexing.cpp (PyTorch 2.6's words; 1.13's lacked "int"). Masks are not
      // taken here.
      if (t.dtype() == DType::Bool || t.dtype() == DType::UInt8)
        throw ExploreError("index_put_: boolean and byte masks are not taken here; index with "
                           "integer tensors",
                           item.span);
      throw ExploreError("tensors used as indices must be long, int, byte or bool tensors",
                         item.span);
    }
    if (t.dim() != 1)
      throw ExploreError("index_put_: the explorer takes 1-D index tensors, got one of shape " +
                             to_string(t.sizes()),
                         item.span);
    std::vector<int64_t> list;
    for (int64_t i = 0; i < t.numel(); ++i) list.push_back(t.at({i}).to_int());
    out.push_back(std::move(list));
  }
  return out;
}

const std::map<std::string, InplaceMethod>& inplace_methods() {
  static const std::map<std::string, InplaceMethod> table = {
      // native_functions.yaml: add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1); a
      // Python number is wrapped as a 0-d tensor (add_.Scalar binds the same way here).
      {"add_",
       {{"other", "*", "alpha="},
        [](const Tensor& t, const Binder& b, const TensorOf& tensor_of, Meter& m) {
          Scalar alpha(int64_t{1});
          if (const Value* a = b.get("alpha")) {
            const Operand o = operand_of(*a, "add_", "alpha", tensor_of);
            if (!o.number)
              throw ExploreError("add_(): argument 'alpha' must be Number, not Tensor", a->span);
            alpha = *o.number;
          }
          bounded_add_(t, operand_of(b.required("other"), "add_", "other", tensor_of), alpha, m);
        }}},
      {"mul_",
       {{"other"},
        [](const Tensor& t, const Binder& b, const TensorOf& tensor_of, Meter& m) {
          bounded_mul_(t, operand_of(b.required("other"), "mul_", "other", tensor_of), m);
        }}},
      {"fill_",
       {{"value"},
        [](const Tensor& t, const Binder& b, const TensorOf& tensor_of, Meter& m) {
          const Operand o = operand_of(b.required("value"), "fill_", "value", tensor_of);
          if (o.number) {
            bounded_fill_(t, *o.number, m);
            return;
          }
          // fill_.Tensor (aten/src/ATen/native/Fill.cpp): a 0-d value only.
          if (o.tensor.dim() != 0)
            throw ExploreError("fill_ only supports 0-dimension value tensor but got tensor with " +
                                   std::to_string(o.tensor.dim()) + " dimensions.",
                               b.required("value").span);
          bounded_fill_(t, o.tensor.item(), m);
        }}},
      {"zero_",
       {{}, [](const Tensor& t, const Binder&, const TensorOf&, Meter& m) { bounded_zero_(t, m); }}},
      {"copy_",
       {{"src", "non_blocking="},
        [](const Tensor& t, const Binder& b, const TensorOf& tensor_of, Meter& m) {
          bounded_copy_(t, tensor_argument(b, "src", tensor_of), m);
        }}},
      {"index_put_",
       {{"indices", "values", "accumulate="},
        [](const Tensor& t, const Binder& b, const TensorOf& tensor_of, Meter& m) {
          bool accumulate = false;
          if (const Value* a = b.get("accumulate")) {
            if (a->kind != Value::Kind::Bool)
              throw ExploreError("index_put_(): argument 'accumulate' must be bool, not " +
                                     type_name(*a),
                                 a->span);
            accumulate = a->boolean;
          }
          const std::vector<std::vector<int64_t>> indices = index_lists(b, tensor_of);
          bounded_index_put_(t, indices, tensor_argument(b, "values", tensor_of), accumulate, m);
        }}},
  };
  return table;
}

const std::map<std::string, Method>& methods() {
  static const std::map<std::string, Method> table = {
      {"view",
       // Two overloads, view(*size) and view(dtype): size is optional only so that dtype= binds.
       {{"*size=", "dtype"},
        [](const Tensor& t, const Binder& b, Meter&) {
          if (const std::optional<DType> dtype = b.star_dtype()) return t.view(*dtype);
          b.required_star();
          return explained_view(t, b.star());
        }}},
      {"reshape",
       {{"*shape"}, [](const Tensor& t, const Binder& b, Meter& m) { return bounded_reshape(t, b.star(), m); }}},
      {"permute", {{"*dims"}, [](const Tensor& t, const Binder& b, Meter&) { return t.permute(b.star()); }}},
      {"expand",
       {{"*size"},
        [](const Tensor& t, const Binder& b, Meter&) { return explained_expand(t, b.star(), false); }}},
      // x.broadcast_to(2, 3) as well as x.broadcast_to((2, 3)): its one int list takes varargs
      // (FunctionSignature's allow_varargs_intlist); torch.broadcast_to(x, 2, 3) does not.
      {"broadcast_to",
       {{"*size"},
        [](const Tensor& t, const Binder& b, Meter&) {
          return explained_expand(t, b.star(), true);
        }}},
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
          // PyTorch 2.0 takes a tuple of dims too (squeeze.dims). squeeze(None) binds to the
          // named-dim overload (squeeze.dimname), which then finds no dim called None.
          if (b.is_none("dim"))
            throw ExploreError("Please look up dimensions by name, got: name = None.",
                               b.step().span);
          if (b.is_sequence("dim")) return t.squeeze(b.ints("dim"));
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
          const bool s = b.is_sequence("source"), d = b.is_sequence("destination");
          if (!s && !d) return t.movedim(b.integer("source"), b.integer("destination"));
          // (int, int) or (tuple of ints, tuple of ints): one of each matches neither overload.
          if (s != d)
            throw ExploreError(b.step().name + "() received an invalid combination of arguments - "
                               "got (" + std::string(s ? "tuple" : "int") + ", " +
                               (d ? "tuple" : "int") + "), but expected one of:\n"
                               " * (int source, int destination)\n"
                               " * (tuple of ints source, tuple of ints destination)",
                               b.step().span);
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
          const bool s = b.is_sequence("source"), d = b.is_sequence("destination");
          if (!s && !d) return t.moveaxis(b.integer("source"), b.integer("destination"));
          if (s != d)  // as movedim: (int, int) or (tuple of ints, tuple of ints)
            throw ExploreError(b.step().name + "() received an invalid combination of arguments - "
                               "got (" + std::string(s ? "tuple" : "int") + ", " +
                               (d ? "tuple" : "int") + "), but expected one of:\n"
                               " * (int source, int destination)\n"
                               " * (tuple of ints source, tuple of ints destination)",
                               b.step().span);
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
// tensor_split and h/v/dsplit: PyTorch's overloads (int sections, ...), (tuple of ints indices,
// ...) and, for tensor_split, (Tensor tensor_indices_or_sections, ...). By position the first
// argument's type picks one; by keyword its name does, sections= an int and indices= a list.
MultiOutputCall split_call(const Binder& b, const char* op, bool has_dim) {
  const char* signatures = has_dim ? "\n * (int sections, int dim = 0)\n * (tuple of ints indices, int dim = 0)"
                                   : "\n * (int sections)\n * (tuple of ints indices)";
  const auto invalid = [&]() {
    std::string got;
    for (const Argument& a : b.step().arguments)
      got += (got.empty() ? "" : ", ") + (a.keyword.empty() ? "" : a.keyword + "=") +
             type_name(a.value);
    return ExploreError(std::string(op) + "() received an invalid combination of arguments - got (" +
                            got + "), but expected one of:" + signatures,
                        b.step().span);
  };
  const int given = (b.get("indices_or_sections") != nullptr) + (b.get("sections") != nullptr) +
                    (b.get("indices") != nullptr);
  if (given != 1) throw invalid();
  if (b.get("sections") && b.is_sequence("sections")) throw invalid();
  if (b.get("indices") && !b.is_sequence("indices")) throw invalid();
  const std::string param = b.given({"indices_or_sections", "sections", "indices"});
  return sizes_or_count(b, op, param.c_str(), has_dim);
}

const std::map<std::string, MultiMethod>& multi_methods() {
  static const std::map<std::string, MultiMethod> table = {
      {"split", {{"split_size", "dim="},
                 [](const Binder& b) { return sizes_or_count(b, "split", "split_size", true); }}},
      {"split_with_sizes",
       {{"split_sizes", "dim="},
        [](const Binder& b) {
          // split_sizes is a tuple of ints: an int is refused, as PyTorch refuses it.
          if (!b.is_sequence("split_sizes"))
            throw ExploreError("split_with_sizes(): argument 'split_sizes' (position 1) must be "
                               "tuple of ints, not " + type_name(b.required("split_sizes")),
                               b.step().span);
          MultiOutputCall c = sizes_or_count(b, "split_with_sizes", "split_sizes", true);
          c.has_sizes = true;
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
      // The first argument by position, or sections= or indices= by keyword (split_call).
      {"tensor_split",
       {{"indices_or_sections=", "/", "dim=", "*", "sections=", "indices="},
        [](const Binder& b) { return split_call(b, "tensor_split", true); }}},
      {"hsplit", {{"indices_or_sections=", "/", "*", "sections=", "indices="},
                  [](const Binder& b) { return split_call(b, "hsplit", false); }}},
      {"vsplit", {{"indices_or_sections=", "/", "*", "sections=", "indices="},
                  [](const Binder& b) { return split_call(b, "vsplit", false); }}},
      {"dsplit", {{"indices_or_sections=", "/", "*", "sections=", "indices="},
                  [](const Binder& b) { return split_call(b, "dsplit", false); }}},
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
          // A float among the numbers makes PyTorch's float arange, float32 by default.
          const auto real = [&](const char* n) {
            const Value* v = b.get(n);
            return v && v->kind == Value::Kind::Float;
          };
          if (real("start") || real("end") || real("step")) {
            const auto number = [&](const char* n, int64_t fallback) {
              const Value* v = b.get(n);
              if (v && v->kind == Value::Kind::Float) return Scalar(v->real);
              return Scalar(v ? b.integer(n) : fallback);
            };
            if (!b.get("end")) b.required("end");
            return bounded_arange(number("start", 0), number("end", 0), number("step", 1),
                                  b.dtype_or(DType::Float32), m);
          }
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
        m.charge(step.name, "a view of " + to_string(in.layout()), view_cost(in));
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
    case Step::Kind::SetItem: break;  // Runner::write
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
    if (function_only_ops().count(step.name))  // x.view_as_real(): torch has no such method
      throw ExploreError("'Tensor' object has no attribute '" + step.name + "'; write torch." +
                             step.name + "(x)",
                         step.name_span);
    throw ExploreError("unknown method '" + step.name + "'" + suggestion(step.name, method_names()),
                       step.name_span);
  }
  const Binder b(step, it->second.params);
  // Every op costs its input's dims at least (a view copies sizes and strides); the ops that copy
  // are charged for the copy too.
  m.charge(step.name, "a view of " + to_string(in.layout()), view_cost(in));
  return it->second.run(in, b, m);
}

// x.split(2)[1] and torch.split(x, 2)[1]: the call and the one integer index after it, as one
// step; b holds the call's other arguments.
Tensor apply_multi(const Step& call, const Binder& b, const Step* pick, const Tensor& in,
                   Meter& m) {
  MultiOutputCall c = multi_methods().at(call.name).read(b);
  c.index = pick->index[0].integer;
  return bounded_pick(in, c, m);
}

// The index that must follow a call with several outputs, or the error saying so.
void check_pick(const Step& call, const Step* pick) {
  if (!pick || pick->kind != Step::Kind::Index || pick->index.size() != 1 ||
      pick->index[0].kind != IndexItem::Kind::Int)
    throw ExploreError(call.name + "() returns a tuple of tensors: pick one with an integer "
                           "index, as in " + (call.torch ? "torch." : "x.") + call.name +
                           "(...)[0]",
                       call.span);
}

// torch.arang: the closest factory or function of the torch module, if one is close.
std::string torch_suggestion(const std::string& name) {
  std::vector<std::string> known = factory_names();
  known.insert(known.end(), torch_function_names().begin(), torch_function_names().end());
  return suggestion(name, known);
}

Tensor make(const Step& step, Meter& m) {
  if (step.kind != Step::Kind::Call)
    throw ExploreError("an expression starts with a factory such as arange(6)", step.span);
  const auto it = factories().find(step.name);
  if (it == factories().end()) {
    if (step.torch)
      throw ExploreError(no_torch_attribute(step.name) + torch_suggestion(step.name),
                         step.name_span);
    if (torch_has_function(step.name))
      throw ExploreError(step.name + " is a torch function: write torch." + step.name + "(...)",
                         step.name_span);
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
    for (const auto& [name, w] : inplace_methods()) out.push_back(name);
    return out;
  }();
  return names;
}

std::vector<StepResult> evaluate(const Expression& e) {
  Meter meter;
  return evaluate(e, meter);
}

namespace {

// Runs the steps of a chain and of the tensor expressions its torch functions take, each
// reported as a step of its own, in the order they run.
class Runner {
 public:
  Runner(const std::string& source, Meter& meter) : source_(source), meter_(meter) {}

  // A chain whose text starts at begin in the source.
  void chain(const std::vector<Step>& steps, size_t begin) {
    for (size_t i = 0; i < steps.size(); ++i) {
      const Step& step = steps[i];
      StepResult r;
      r.span = step.span;
      std::optional<Tensor> input;  // the tensor the step applies to; none for a factory
      if (i > 0) input = out.back().tensor;
      const bool multi = step.kind == Step::Kind::Call && multi_methods().count(step.name);
      const Step* pick = multi && i + 1 < steps.size() ? &steps[i + 1] : nullptr;
      const bool writes = i > 0 && (step.kind == Step::Kind::SetItem ||
                                    (step.kind == Step::Kind::Call &&
                                     inplace_methods().count(step.name)));
      try {
        if (writes) {
          r.tensor = write(step, *input, r.seen_by);
        } else if (i == 0 && step.kind == Step::Kind::Call && !factories().count(step.name) &&
            step.torch && torch_has_function(step.name)) {
          r.tensor = function(step, pick, input);
        } else if (i > 0 && multi) {
          check_pick(step, pick);
          r.tensor = apply_multi(step, Binder(step, multi_methods().at(step.name).params), pick,
                                 *input, meter_);
        } else {
          r.tensor = i == 0 ? make(step, meter_) : apply(step, *input, meter_);
        }
      } catch (const ExploreError&) {
        throw;
      } catch (const Error& err) {
        throw ExploreError(err.what(), step.span, explanation_of(err));
      } catch (const std::bad_alloc&) {
        throw ExploreError("out of memory", step.span);
      }
      if (multi) {
        r.span.end = pick->span.end;
        ++i;
      }
      r.text = source_.substr(begin, r.span.end - begin);
      r.relation = writes                                       ? StepResult::Relation::InPlace
                   : !input                                     ? StepResult::Relation::New
                   : same_tensor(r.tensor, *input)               ? StepResult::Relation::Same
                   : r.tensor.storage().is_same(input->storage()) ? StepResult::Relation::View
                                                                  : StepResult::Relation::Copy;
      kept_.push_back(r.tensor);
      meter_.hold(kept_);
      out.push_back(std::move(r));
    }
  }

  std::vector<StepResult> out;

 private:
  // An in-place step on self, the previous step's tensor: its tensor arguments run first (each
  // reported as steps of their own), then every step whose tensor shares self's storage keeps
  // its values as they were (before_write), then the write. Returns self.
  Tensor write(const Step& step, Tensor self, std::vector<size_t>& seen_by) {
    const size_t self_step = out.size() - 1;
    const TensorOf tensor_of = [this](const Value& v) {
      chain(v.steps, v.steps.front().span.begin);
      return out.back().tensor;
    };
    // The write's operands, evaluated before anything is written (Python evaluates a call's
    // arguments, and the right side of an assignment, first).
    std::optional<Operand> assigned;
    std::optional<Binder> b;
    if (step.kind == Step::Kind::SetItem) {
      assigned = operand_of(*step.assigned, "setitem", "value", tensor_of);
    } else {
      b.emplace(step, inplace_methods().at(step.name).params);
    }
    seen_by.push_back(self_step);  // then the earlier steps on the same storage, in order
    for (size_t k = 0; k < self_step; ++k)
      if (out[k].tensor.storage().is_same(self.storage())) seen_by.push_back(k);
    const auto keep_values = [&] {
      for (const size_t k : seen_by) {
        StepResult& seen = out[k];
        if (seen.before_write.defined()) continue;
        seen.before_write = bounded_clone(seen.tensor, meter_);
        kept_.push_back(seen.before_write);
        meter_.hold(kept_);
      }
    };
    if (assigned) {
      std::vector<indexing::TensorIndex> index;
      for (const IndexItem& item : step.index) index.push_back(to_index(item));
      keep_values();
      bounded_set_item(self, index, *assigned, meter_);
      return self;
    }
    meter_.charge(step.name, "a view of " + to_string(self.layout()), view_cost(self));
    // The method's tensor arguments run inside it (tensor_of), after the values are kept: they
    // are expressions of their own, with storages of their own.
    keep_values();
    inplace_methods().at(step.name).run(self, *b, tensor_of, meter_);
    return self;
  }

  // torch.f(input, ...): input's chain runs first, then the op of the same name, its other
  // arguments bound as the method's are.
  Tensor function(const Step& call, const Step* pick, std::optional<Tensor>& input) {
    const bool multi = multi_methods().count(call.name) > 0;
    const auto method = methods().find(call.name);
    const auto only = function_only_ops().find(call.name);
    const Signature params = multi                        ? multi_methods().at(call.name).params
                             : method != methods().end()  ? method->second.params
                             : only != function_only_ops().end() ? only->second.params
                                                                 : Signature{};  // real, imag
    const FunctionForm form = function_form(call.name, params);
    const Binder b(call, form.signature, form.options);
    const Value& tensor = b.tensor("input");
    if (multi) check_pick(call, pick);
    chain(tensor.steps, tensor.steps.front().span.begin);
    input = out.back().tensor;
    if (multi) return apply_multi(call, b, pick, *input, meter_);
    meter_.charge(call.name, "a view of " + to_string(input->layout()), view_cost(*input));
    if (method != methods().end()) return method->second.run(*input, b, meter_);
    if (only != function_only_ops().end()) return only->second.run(*input, b, meter_);
    return properties().at(call.name)(*input);
  }

  const std::string& source_;
  Meter& meter_;
  std::vector<Tensor> kept_;  // every step's tensor stays alive for the report
};

}  // namespace

std::vector<StepResult> evaluate(const Expression& e, Meter& meter) {
  Runner run(e.source, meter);
  run.chain(e.steps, 0);
  return std::move(run.out);
}

}  // namespace strided::explore
