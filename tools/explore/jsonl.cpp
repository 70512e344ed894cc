#include "jsonl.h"

#include <cmath>
#include <istream>
#include <limits>
#include <map>
#include <set>
#include <ostream>
#include <vector>

#include "bounded_ops.h"
#include "engine_requests.h"
#include "expression_request.h"
#include "request_fields.h"
#include "grad_request.h"
#include "inplace.h"
#include "strided/layout/layout.h"

namespace strided::explore {

namespace {

// A key given twice in one object is refused rather than silently resolved one way or the other:
// the parser that builds the request also keeps, for each object it is inside, the set of its
// keys. (nlohmann's parse with a callback does the same but was slower by 40 times on a line of
// 90,000 objects.)
class DuplicateKeys : public nlohmann::detail::json_sax_dom_parser<Request> {
 public:
  using Base = nlohmann::detail::json_sax_dom_parser<Request>;
  explicit DuplicateKeys(Request& result) : Base(result, true) {}
  bool start_object(std::size_t n) {
    keys_.emplace_back();
    return Base::start_object(n);
  }
  bool end_object() {
    keys_.pop_back();
    return Base::end_object();
  }
  bool key(std::string& k) {
    if (duplicate.empty() && !keys_.back().insert(k).second) duplicate = k;
    return Base::key(k);
  }
  std::string duplicate;  // the first key given twice, or empty

 private:
  std::vector<std::set<std::string>> keys_;
};

// ---- reading fields ------------------------------------------------------------------------------

// ---- ops ------------------------------------------------------------------------------------------

// A field of an op: an integer, a list of integers (an integer is accepted as a list of one),
// either ("int or list": movedim's source), or a list that must be one (tensor_split's indices,
// where an integer would be read as no split at all). Required fields must be present and not null.
// The in-place ops' fields: a number (int, float or bool), an operand (a number or a chain: with
// "start", a tensor of its own; without, {"ops":[...]} applied to this chain's start tensor, so
// that it may share the written storage), a chain alone, a boolean, a list of lists of integers.
// chain_ops() names the kinds in this order.
enum class FieldType { Int, Ints, IntOrInts, List, Dtype, Number, Operand, Chain, Bool, Lists };
struct FieldSpec {
  const char* name;
  FieldType type;
  bool required;
};

const std::map<std::string, std::vector<FieldSpec>>& op_specs() {
  using T = FieldType;
  static const std::map<std::string, std::vector<FieldSpec>> specs = {
      {"permute", {{"dims", T::Ints, true}}},
      {"transpose", {{"dim0", T::Int, true}, {"dim1", T::Int, true}}},
      {"slice",
       {{"dim", T::Int, false}, {"start", T::Int, false}, {"stop", T::Int, false},
        {"step", T::Int, false}}},
      {"select", {{"dim", T::Int, true}, {"index", T::Int, true}}},
      {"diagonal", {{"offset", T::Int, false}, {"dim1", T::Int, false}, {"dim2", T::Int, false}}},
      {"expand", {{"shape", T::Ints, true}}},
      {"broadcast_to", {{"shape", T::Ints, true}}},
      {"unsqueeze", {{"dim", T::Int, true}}},
      {"squeeze", {{"dim", T::IntOrInts, false}}},  // a list: PyTorch 2.0's squeeze.dims
      {"view", {{"shape", T::Ints, true}}},
      {"reshape", {{"shape", T::Ints, true}}},
      {"flatten", {{"start_dim", T::Int, false}, {"end_dim", T::Int, false}}},
      {"contiguous", {}},
      {"t", {}},
      {"narrow", {{"dim", T::Int, true}, {"start", T::Int, true}, {"length", T::Int, true}}},
      {"as_strided",
       {{"size", T::Ints, true}, {"stride", T::Ints, true}, {"storage_offset", T::Int, false}}},
      {"unfold", {{"dimension", T::Int, true}, {"size", T::Int, true}, {"step", T::Int, true}}},
      // Beyond the protocol's list, the other ops the expression language has.
      {"movedim", {{"source", T::IntOrInts, true}, {"destination", T::IntOrInts, true}}},
      {"unflatten", {{"dim", T::Int, true}, {"sizes", T::Ints, true}}},
      {"mT", {}},
      {"clone", {}},
      {"flip", {{"dims", T::Ints, true}}},
      // The rest of PyTorch's view ops. An op with several outputs takes "index", the output the
      // chain continues with; tensor_split and h/v/dsplit take "sections" or "indices".
      {"split", {{"split_size", T::IntOrInts, true}, {"dim", T::Int, false}, {"index", T::Int, true}}},
      {"split_with_sizes", {{"sizes", T::Ints, true}, {"dim", T::Int, false}, {"index", T::Int, true}}},
      {"chunk", {{"chunks", T::Int, true}, {"dim", T::Int, false}, {"index", T::Int, true}}},
      {"unbind", {{"dim", T::Int, false}, {"index", T::Int, true}}},
      {"tensor_split",
       {{"sections", T::Int, false}, {"indices", T::List, false}, {"dim", T::Int, false},
        {"index", T::Int, true}}},
      {"hsplit", {{"sections", T::Int, false}, {"indices", T::List, false}, {"index", T::Int, true}}},
      {"vsplit", {{"sections", T::Int, false}, {"indices", T::List, false}, {"index", T::Int, true}}},
      {"dsplit", {{"sections", T::Int, false}, {"indices", T::List, false}, {"index", T::Int, true}}},
      {"view_dtype", {{"dtype", T::Dtype, true}}},
      {"to", {{"dtype", T::Dtype, true}}},
      {"swapaxes", {{"axis0", T::Int, true}, {"axis1", T::Int, true}}},
      {"swapdims", {{"dim0", T::Int, true}, {"dim1", T::Int, true}}},
      {"moveaxis", {{"source", T::IntOrInts, true}, {"destination", T::IntOrInts, true}}},
      {"atleast_1d", {}},
      {"atleast_2d", {}},
      {"atleast_3d", {}},
      {"detach", {}},
      {"alias", {}},
      {"view_as_real", {}},
      {"view_as_complex", {}},
      {"real", {}},
      {"imag", {}},
      {"conj", {}},
      {"resolve_conj", {}},
      {"conj_physical", {}},
      {"H", {}},
      {"mH", {}},
      {"adjoint", {}},
      // In place (inplace.h): each writes into the tensor it is applied to and returns it.
      {"add_", {{"other", T::Operand, true}, {"alpha", T::Number, false}}},
      {"mul_", {{"other", T::Operand, true}}},
      {"fill_", {{"value", T::Number, true}}},
      {"zero_", {}},
      {"copy_", {{"src", T::Chain, true}}},
      // indices[k] indexes dim k; a number as values is a 0-d tensor of the written dtype.
      {"index_put_",
       {{"indices", T::Lists, true}, {"values", T::Operand, true}, {"accumulate", T::Bool, false}}},
  };
  return specs;
}

std::string op_name(const Request& op) {
  const Request* name = op.is_object() ? field(op, "op") : nullptr;
  if (!name || !name->is_string()) throw BadInput("each op needs \"op\": a name");
  return name->get<std::string>();
}


Json result_json(const Tensor& t, const Tensor& start, const Tensor& prev, Meter& m,
                 const std::string& op) {
  const bool values = t.numel() <= kMaxValues;
  m.spend(layout_numbers(t) + (values ? t.numel() : 0), op + ": the answer");
  Json r = layout_json(t, start, prev);
  if (values) r["values"] = values_json(t);
  return r;
}

std::string dump(const Json& j) {
  // Messages may quote bytes from the input; replace invalid UTF-8 rather than throw.
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Nesting deeper than kMaxJsonDepth is refused before parsing: requests are flat, and a deep
// document only costs memory and time.
bool too_deep(const std::string& line) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

Json answer_chain(const Request& request, Meter& m) {
  only_fields(request, "a view chain", {"start", "ops"});
  const Request* start = field(request, "start");
  if (!start) throw BadInput("a view chain needs \"start\": {\"shape\":[...],\"dtype\":...}");
  const Request* ops = field(request, "ops");
  if (ops && !ops->is_array()) throw BadInput("\"ops\" must be a list");
  static const Request kNoOps = Request::array();
  if (!ops) ops = &kNoOps;
  for (const Request& op : *ops) check_op(op);  // a malformed op makes the whole line bad input
  Tensor first;
  try {
    first = chain_start(*start, m);
  } catch (const BadInput&) {
    throw;
  } catch (const Error& e) {
    return error_json(e.what());
  }
  Json results = Json::array();
  Tensor prev = first;
  m.hold({first});
  for (const Request& op : *ops) {
    try {
      const Tensor t = apply_op(prev, op, m, first);
      results.push_back(result_json(t, first, prev, m, op_name(op)));
      if (is_inplace(op_name(op))) {
        // The write is seen through every view of the storage: the start tensor after it.
        Json& r = results.back();
        r["in_place"] = true;
        if (first.numel() <= kMaxValues) {
          m.spend(first.numel(), op_name(op) + ": the start tensor after the write");
          r["start_values"] = values_json(first);
        }
      }
      prev = t;
      m.hold({first, prev});  // the chain keeps its start and its last step
    } catch (const Error& e) {
      results.push_back(error_json(e));
      break;
    }
  }
  Json answer;
  answer["results"] = std::move(results);
  return answer;
}

Json answer_broadcast_shapes(const Request& request, Meter& m) {
  only_fields(request, "a broadcast_shapes request", {"broadcast_shapes"});
  const Request& shapes = request.at("broadcast_shapes");
  if (!shapes.is_array()) throw BadInput("\"broadcast_shapes\" must be a list of shapes");
  std::vector<Shape> list;
  for (const Request& s : shapes) list.push_back(as_ints(s, "a shape"));
  try {
    // torch.broadcast_shapes expands a 0-d tensor to each shape, so a negative size is refused
    // before any broadcasting.
    Checked dims = 0;
    for (const Shape& s : list) {
      dims += static_cast<int64_t>(s.size());
      for (int64_t d : s)
        STRIDED_CHECK(d >= 0, "broadcast_shapes",
                      "Trying to create tensor with negative dimension ", d, ": ", to_string(s));
    }
    m.charge("broadcast_shapes", "broadcasting " + std::to_string(list.size()) + " shapes",
             Cost{0, 0, dims.overflowed() ? INT64_MAX : dims.value()});
    Json answer;
    answer["result"] = broadcast_shapes(list);
    m.spend(static_cast<int64_t>(answer["result"].size()), "broadcast_shapes: the answer");
    return answer;
  } catch (const Error& e) {
    return error_json(e.what(), broadcast_refusal(list));
  }
}

Json answer(const Request& request, Meter& m) {
  if (!request.is_object()) throw BadInput("a request is a JSON object");
  // One kind a request: a line with both "unary" and "binary" (or a chain and a grad) is refused
  // rather than answered as one of them.
  std::vector<std::string> kinds;
  for (const char* k : {"unary", "binary", "matmul", "grad", "broadcast_shapes", "expression"})
    if (request.contains(k)) kinds.push_back(k);
  if (request.contains("start") || request.contains("ops"))
    kinds.push_back(request.contains("start") ? "start" : "ops");  // a view chain, by its field
  if (kinds.size() > 1)
    throw BadInput("a request is of one kind; this one has both \"" + kinds[0] + "\" and \"" +
                   kinds[1] + "\"");
  if (request.contains("start") || request.contains("ops")) return answer_chain(request, m);
  if (request.contains("broadcast_shapes")) return answer_broadcast_shapes(request, m);
  if (std::optional<Json> a = engine_request(request, m)) return *a;
  if (std::optional<Json> a = grad_request(request, m)) return *a;
  if (std::optional<Json> a = expression_request(request, m)) return *a;
  throw BadInput(
      "unknown request: expected {\"start\":...,\"ops\":[...]}, {\"broadcast_shapes\":[...]}, "
      "{\"unary\":...}, {\"binary\":...}, {\"matmul\":...}, {\"grad\":...} or "
      "{\"expression\":...}");
}

}  // namespace

namespace {

// A start's dtype field: float32 when absent or null.
DType start_dtype(const Request* dtype_field, const std::string& dtype_name) {
  if (!dtype_field || dtype_field->is_null()) return DType::Float32;
  if (!dtype_field->is_string())
    throw BadInput(dtype_name + " must be a string such as \"float32\"");
  std::string text = dtype_field->get<std::string>();
  if (text.rfind("torch.", 0) == 0) text = text.substr(6);
  try {
    return dtype_from_name(text);
  } catch (const Error&) {
    throw BadInput(dtype_name + ": unknown dtype \"" + dtype_field->get<std::string>() +
                   "\" (known: " + dtype_names() + ")");
  }
}

// start.values: the start tensor's elements, row-major, as torch.tensor(values, dtype=...)
// takes them (an integer exactly, a number as a double, true and false, and "NaN", "Infinity"
// and "-Infinity" as the answers spell them), reshaped to start.shape.
Tensor start_from_values(const Request& start, const Request& values, Meter& m) {
  const Shape sizes = as_ints(start.at("shape"), "start.shape");
  const DType dtype = start_dtype(field(start, "dtype"), "start.dtype");
  if (!values.is_array()) throw BadInput("start.values must be a list of numbers");
  std::vector<Scalar> scalars;
  scalars.reserve(values.size());
  for (const Request& v : values) {
    if (v.is_boolean()) {
      scalars.emplace_back(v.get<bool>());
    } else if (v.is_number_integer()) {
      scalars.emplace_back(as_int(v, "start.values"));
    } else if (const std::optional<double> d = value_number(v)) {
      scalars.emplace_back(*d);  // a float, or one of the three strings
    } else {
      throw BadInput("start.values must hold numbers, true, false, \"NaN\", \"Infinity\" or "
                     "\"-Infinity\"; got " + text(v));
    }
  }
  Checked numel = 1;
  bool negative = false;
  for (int64_t d : sizes) {
    numel *= d;
    negative |= d < 0;
  }
  if (negative || numel.overflowed() || numel.value() != static_cast<int64_t>(scalars.size()))
    throw BadInput("start.values holds " + std::to_string(scalars.size()) +
                   " values for start.shape " + to_string(sizes));
  return bounded_from_values(scalars, sizes, dtype, m);
}

}  // namespace

Tensor chain_start(const Request& start, Meter& m) {
  if (!start.is_object()) throw BadInput("\"start\" must be an object");
  only_fields(start, "start", {"shape", "dtype", "values"});
  const Request* shape = field(start, "shape");
  if (!shape) throw BadInput("\"start\" needs \"shape\"");
  if (const Request* values = field(start, "values")) return start_from_values(start, *values, m);
  return start_tensor(*shape, field(start, "dtype"), "start.shape", "start.dtype", m);
}

Tensor start_tensor(const Request& shape, const Request* dtype_field,
                    const std::string& shape_name, const std::string& dtype_name, Meter& m) {
  const Shape sizes = as_ints(shape, shape_name);
  return arange_shaped(sizes, start_dtype(dtype_field, dtype_name), shape_name, m);
}

// view_dtype's "dtype": a name such as "int32" (or "torch.int32").
DType op_dtype(const Request& v, const std::string& where) {
  if (!v.is_string()) throw BadInput(where + " must be a string such as \"int32\"");
  std::string text = v.get<std::string>();
  if (text.rfind("torch.", 0) == 0) text = text.substr(6);
  try {
    return dtype_from_name(text);
  } catch (const Error&) {
    throw BadInput(where + ": unknown dtype \"" + v.get<std::string>() + "\" (known: " +
                   dtype_names() + ")");
  }
}

// An op with several outputs, as bounded_pick takes it.
MultiOutputCall multi_output_call(const std::string& name, const Request& op) {
  MultiOutputCall c;
  c.op = name;
  c.dim = get_int(op, "dim", 0);
  c.index = get_int(op, "index");
  const char* list = name == "split" ? "split_size" : name == "split_with_sizes" ? "sizes" : "indices";
  if (const Request* v = field(op, list); v && (v->is_array() || name == "split_with_sizes")) {
    c.has_sizes = true;
    c.sizes = get_ints(op, list);
  } else {
    c.n = get_int(op, name == "split" ? "split_size" : name == "chunk" ? "chunks" : "sections", 0);
  }
  return c;
}

namespace {

// An in-place op's tensor operand: {"start":...,"ops":[...]} or {"ops":[...]}.
void check_operand_chain(const Request& v, const std::string& where) {
  if (!v.is_object())
    throw BadInput(where + " must be a chain: {\"start\":...,\"ops\":[...]}, or {\"ops\":[...]} "
                   "on this chain's start tensor");
  only_fields(v, where, {"start", "ops"});
  const Request* ops = field(v, "ops");
  if (ops && !ops->is_array()) throw BadInput(where + ".ops must be a list");
  if (ops)
    for (const Request& op : *ops) check_op(op);
}

// A number field as a Scalar: an int64, a double or a bool, as written.
Scalar number_of(const Request& v, const std::string& where) {
  if (v.is_boolean()) return Scalar(v.get<bool>());
  if (v.is_number_integer()) return Scalar(as_int(v, where));
  return Scalar(v.get<double>());
}

// An operand: a number, a chain of its own, or ops on the chain's start tensor.
Operand request_operand(const Request& v, const std::string& where, const Tensor& start, Meter& m) {
  Operand o;
  if (v.is_number() || v.is_boolean()) {
    o.number = number_of(v, where);
    return o;
  }
  if (field(v, "start")) {
    o.tensor = run_chain(v, m, {start});
    return o;
  }
  Tensor t = start;
  if (const Request* ops = field(v, "ops"))
    for (const Request& op : *ops) t = apply_op(t, op, m, start);
  o.tensor = t;
  return o;
}

Tensor apply_inplace(const Tensor& t, const std::string& name, const Request& op, Meter& m,
                     const Tensor& start) {
  if (name == "add_") {
    const Request* alpha = field(op, "alpha");
    return bounded_add_(t, request_operand(op.at("other"), "add_.other", start, m),
                        alpha ? number_of(*alpha, "add_.alpha") : Scalar(int64_t{1}), m);
  }
  if (name == "mul_") return bounded_mul_(t, request_operand(op.at("other"), "mul_.other", start, m), m);
  if (name == "fill_") return bounded_fill_(t, number_of(op.at("value"), "fill_.value"), m);
  if (name == "zero_") return bounded_zero_(t, m);
  if (name == "copy_") {
    const Operand src = request_operand(op.at("src"), "copy_.src", start, m);
    return bounded_copy_(t, src.tensor, m);
  }
  // index_put_
  std::vector<std::vector<int64_t>> indices;
  for (const Request& l : op.at("indices")) indices.push_back(as_ints(l, "index_put_.indices"));
  const Operand values = request_operand(op.at("values"), "index_put_.values", start, m);
  const Request* accumulate = field(op, "accumulate");
  return bounded_index_put_(t, indices, value_tensor(t, values, m),
                            accumulate && accumulate->get<bool>(), m);
}

}  // namespace

std::vector<OpFields> chain_ops() {
  static const char* const kKinds[] = {"int",    "ints",    "int_or_ints", "list", "dtype",
                                       "number", "operand", "chain",       "bool", "lists"};
  std::vector<OpFields> out;
  for (const auto& [name, fields] : op_specs()) {
    OpFields o{name, {}};
    for (const FieldSpec& f : fields)
      o.fields.push_back({f.name, kKinds[static_cast<int>(f.type)], f.required});
    out.push_back(std::move(o));
  }
  return out;
}

void check_op(const Request& op) {
  const std::string name = op_name(op);
  const auto it = op_specs().find(name);
  if (it == op_specs().end()) throw BadInput("unknown op \"" + name + "\"");
  std::vector<std::string> known{"op"};
  for (const FieldSpec& f : it->second) known.push_back(f.name);
  only_fields(op, "the op " + name, known);
  for (const FieldSpec& f : it->second) {
    const Request* v = field(op, f.name);
    if (!v) {
      if (f.required) throw BadInput(name + " needs \"" + f.name + "\"");
      continue;
    }
    const std::string where = name + "." + f.name;
    switch (f.type) {
      case FieldType::Int: as_int(*v, where); break;
      case FieldType::Ints:
      case FieldType::IntOrInts: as_ints(*v, where); break;
      case FieldType::List:
        if (!v->is_array()) throw BadInput(where + " must be a list of integers, got " + text(*v));
        as_ints(*v, where);
        break;
      case FieldType::Dtype: op_dtype(*v, where); break;
      case FieldType::Number:
        if (!v->is_number() && !v->is_boolean())
          throw BadInput(where + " must be a number, got " + text(*v));
        if (v->is_number_integer()) as_int(*v, where);
        break;
      case FieldType::Operand:
        if (v->is_number() || v->is_boolean()) {
          if (v->is_number_integer()) as_int(*v, where);
          break;
        }
        check_operand_chain(*v, where);
        break;
      case FieldType::Chain: check_operand_chain(*v, where); break;
      case FieldType::Bool:
        if (!v->is_boolean()) throw BadInput(where + " must be true or false, got " + text(*v));
        break;
      case FieldType::Lists:
        if (!v->is_array()) throw BadInput(where + " must be a list of lists of integers");
        for (const Request& l : *v) {
          if (!l.is_array()) throw BadInput(where + " must be a list of lists of integers");
          as_ints(l, where);
        }
        break;
    }
  }
  if (name == "tensor_split" || name == "hsplit" || name == "vsplit" || name == "dsplit")
    if (!field(op, "sections") == !field(op, "indices"))
      throw BadInput(name + " needs one of \"sections\" and \"indices\"");
}

Tensor apply_op(const Tensor& t, const Request& op, Meter& m, const Tensor& start) {
  check_op(op);
  const std::string name = op_name(op);
  // Every op costs its input's dims at least (a view copies sizes and strides); the ops that
  // copy are charged for the copy too.
  m.charge(name, "a view of " + to_string(t.layout()), view_cost(t));
  if (is_inplace(name)) return apply_inplace(t, name, op, m, start.defined() ? start : t);
  // The ops whose refusals the library explains (bounded_ops.h), before the shared ones.
  if (name == "view") return explained_view(t, get_ints(op, "shape"));
  if (name == "expand") return explained_expand(t, get_ints(op, "shape"), false);
  if (name == "broadcast_to") return explained_expand(t, get_ints(op, "shape"), true);
  if (std::optional<Tensor> v = shared_view(t, name, op)) return *v;
  if (name == "reshape") return bounded_reshape(t, get_ints(op, "shape"), m);
  if (name == "flatten")
    return bounded_flatten(t, get_int(op, "start_dim", 0), get_int(op, "end_dim", -1), m);
  if (name == "contiguous") return bounded_contiguous(t, m);
  if (name == "t") return t.t();
  if (name == "narrow")
    return t.narrow(get_int(op, "dim"), get_int(op, "start"), get_int(op, "length"));
  if (name == "as_strided")
    return t.as_strided(get_ints(op, "size"), get_ints(op, "stride"),
                        get_optional(op, "storage_offset"));
  if (name == "unfold")
    return t.unfold(get_int(op, "dimension"), get_int(op, "size"), get_int(op, "step"));
  if (name == "movedim") {
    if (op.at("source").is_number_integer() && op.at("destination").is_number_integer())
      return t.movedim(get_int(op, "source"), get_int(op, "destination"));
    return t.movedim(get_ints(op, "source"), get_ints(op, "destination"));
  }
  if (name == "unflatten") return t.unflatten(get_int(op, "dim"), get_ints(op, "sizes"));
  if (name == "mT") return t.mT();
  if (name == "clone") return bounded_clone(t, m);
  if (name == "flip") return bounded_flip(t, get_ints(op, "dims"), m);
  if (is_multi_output(name)) return bounded_pick(t, multi_output_call(name, op), m);
  if (name == "view_dtype") return t.view(op_dtype(op.at("dtype"), "view_dtype.dtype"));
  if (name == "to") return bounded_to(t, op_dtype(op.at("dtype"), "to.dtype"), m);
  if (name == "swapaxes") return t.swapaxes(get_int(op, "axis0"), get_int(op, "axis1"));
  if (name == "swapdims") return t.swapdims(get_int(op, "dim0"), get_int(op, "dim1"));
  if (name == "moveaxis") {
    if (op.at("source").is_number_integer() && op.at("destination").is_number_integer())
      return t.moveaxis(get_int(op, "source"), get_int(op, "destination"));
    return t.moveaxis(get_ints(op, "source"), get_ints(op, "destination"));
  }
  if (name == "atleast_1d") return atleast_1d(t);
  if (name == "atleast_2d") return atleast_2d(t);
  if (name == "atleast_3d") return atleast_3d(t);
  if (name == "detach") return t.detach();
  if (name == "alias") return t.alias();
  if (name == "view_as_real") return view_as_real(t);
  if (name == "view_as_complex") return view_as_complex(t);
  if (name == "real") return t.real();
  if (name == "imag") return t.imag();
  if (name == "conj") return t.conj();
  if (name == "resolve_conj") return bounded_resolve_conj(t, m);
  if (name == "conj_physical") return bounded_conj_physical(t, m);
  if (name == "H") return t.H();
  if (name == "mH") return t.mH();
  if (name == "adjoint") return t.adjoint();
  throw BadInput("unknown op \"" + name + "\"");  // check_op knows every name above
}

Tensor run_chain(const Request& chain, Meter& m, std::vector<Tensor> held) {
  if (!chain.is_object()) throw BadInput("a chain is {\"start\":...,\"ops\":[...]}");
  only_fields(chain, "a chain", {"start", "ops"});
  const Request* start = field(chain, "start");
  if (!start) throw BadInput("a chain needs \"start\"");
  const Request* ops = field(chain, "ops");
  if (ops && !ops->is_array()) throw BadInput("\"ops\" must be a list");
  if (ops)
    for (const Request& op : *ops) check_op(op);
  m.hold(held);
  const Tensor first = chain_start(*start, m);
  Tensor t = first;
  held.push_back(first);
  held.push_back(t);
  m.hold(held);
  if (ops)
    for (const Request& op : *ops) {
      t = apply_op(t, op, m);
      held.back() = t;
      m.hold(held);
    }
  return t;
}

Json layout_json(const Tensor& t, const Tensor& start, const Tensor& prev) {
  Json r;
  r["shape"] = t.sizes();
  r["stride"] = t.strides();
  r["storage_offset"] = t.storage_offset();
  r["is_contiguous"] = t.is_contiguous();
  r["shares_storage"] = t.storage().is_same(start.storage());
  r["shares_prev"] = prev.defined() && t.storage().is_same(prev.storage());
  r["numel"] = t.numel();
  return r;
}

Json values_json(const Tensor& t) {
  Json out = Json::array();
  const char* base = static_cast<const char*>(t.storage().data());
  // The layout algebra's odometer: t's elements in row-major index order.
  for_each_index(t.sizes(), {t.strides()}, [&](const int64_t*, const int64_t* off) {
    if (is_complex(t.dtype())) {  // [re, im], the imaginary part negated under the conjugate bit
      const char* p = base + (t.storage_offset() + off[0]) * t.element_size();
      const DType part = real_value_type(t.dtype());
      const double re = load_scalar(p, part).to_double();
      const double im = load_scalar(p + t.element_size() / 2, part).to_double();
      out.push_back(Json::array({float_json(re), float_json(t.is_conj() ? -im : im)}));
      return;
    }
    const Scalar v =
        load_scalar(base + (t.storage_offset() + off[0]) * t.element_size(), t.dtype());
    switch (v.kind()) {
      case Scalar::Kind::Bool: out.push_back(v.to_bool()); break;
      case Scalar::Kind::Int: out.push_back(v.to_int()); break;
      case Scalar::Kind::Float: out.push_back(float_json(v.to_double())); break;
    }
  });
  return out;
}

Json float_json(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

std::optional<double> value_number(const Json& v) {
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  if (v.is_number()) return v.get<double>();
  if (v == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (v == "Infinity") return std::numeric_limits<double>::infinity();
  if (v == "-Infinity") return -std::numeric_limits<double>::infinity();
  return std::nullopt;
}

Json error_json(const std::string& message) {
  Json e;
  e["error"] = true;
  e["message"] = message;
  return e;
}

Json error_json(const std::string& message, const std::optional<LayoutRefusal>& why) {
  Json e = error_json(message);
  if (why) {
    Json x;
    x["rule"] = why->rule;
    x["dims"] = why->dims;
    x["why"] = why->why;
    x["instead"] = why->instead;
    e["explanation"] = std::move(x);
  }
  return e;
}

Json error_json(const Error& e) { return error_json(e.what(), explanation_of(e)); }

std::string answer_line(const std::string& raw) {
  Meter meter;  // one per line: each request has the whole of every budget
  return answer_line(raw, meter);
}

std::string answer_line(const std::string& raw, Meter& meter) {
  try {
    std::string line = raw;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CRLF input
    if (line.size() > kMaxLineBytes)
      throw BadInput("the line has " + std::to_string(line.size()) + " bytes; at most " +
                     std::to_string(kMaxLineBytes) + " are read");
    if (line.find_first_not_of(" \t") == std::string::npos) throw BadInput("empty line");
    // The JSON parser takes a NUL byte for the end of its input and would answer the request
    // before it, silently dropping the rest of the line.
    if (const size_t nul = line.find('\0'); nul != std::string::npos)
      throw BadInput("a NUL byte at column " + std::to_string(nul + 1) +
                     "; a request is one line of JSON text");
    if (too_deep(line))
      throw BadInput("nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    Request request;
    DuplicateKeys sax(request);
    try {
      Request::sax_parse(line, &sax);
    } catch (const Request::parse_error& e) {
      throw BadInput(std::string("not JSON: ") + e.what());
    }
    if (!sax.duplicate.empty())
      throw BadInput("the key \"" + sax.duplicate + "\" appears twice in one object");
    return dump(answer(request, meter));
  } catch (const BadInput& e) {
    return dump(error_json(std::string("bad input: ") + e.what()));
  } catch (const Request::exception& e) {
    // A field of the wrong JSON type deep inside a request.
    return dump(error_json(std::string("bad input: ") + e.what()));
  } catch (const Error& e) {
    return dump(error_json(e.what()));
  } catch (const std::bad_alloc&) {
    return dump(error_json("out of memory"));
  } catch (const std::exception& e) {
    return dump(error_json(std::string("internal error: ") + e.what()));
  }
}

void serve(std::istream& in, std::ostream& out) {
  // Lines are read with a bound: past kMaxLineBytes the rest of the line is skipped, not stored,
  // and the line is answered as too long.
  std::streambuf* buf = in.rdbuf();
  for (;;) {
    std::string line;
    bool any = false, overlong = false;
    size_t length = 0;
    for (int c = buf->sbumpc(); c != std::char_traits<char>::eof(); c = buf->sbumpc()) {
      any = true;
      if (c == '\n') break;
      ++length;
      if (line.size() <= kMaxLineBytes) line.push_back(static_cast<char>(c));
      else overlong = true;
    }
    if (!any) break;  // end of input
    out << (overlong ? dump(error_json("bad input: the line has " + std::to_string(length) +
                                       " bytes; at most " + std::to_string(kMaxLineBytes) +
                                       " are read"))
                     : answer_line(line))
        << '\n'
        << std::flush;
    if (!out) return;  // nobody reads the answers any more (a closed pipe, a full disk)
  }
}

}  // namespace strided::explore
