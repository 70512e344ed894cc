// Reading a JSONL request's fields, and the view ops a chain answer (jsonl.cpp) and a gradient
// request (grad_request.cpp) both run: one reading of each field, so the two kinds of request
// accept and refuse the same spellings with the same words.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "jsonl.h"

namespace strided::explore {

// The field `key` of an object, or null when it is absent or null (null means omitted).
inline const Request* field(const Request& obj, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

// Refuses a field that `what` does not have, as PyTorch refuses an unknown keyword argument: a
// misspelt field ("dimm", "storage_ofset") must not fall back silently to its default.
inline void only_fields(const Request& obj, const std::string& what,
                        const std::vector<std::string>& known) {
  if (!obj.is_object()) return;
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    for (const std::string& k : known) ok |= it.key() == k;
    if (ok) continue;
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "\"" : ", \"") + k + "\"";
    throw BadInput(what + " has no field \"" + it.key() + "\"" +
                   (known.empty() ? std::string(" (it takes none)") : " (its fields: " + list + ")"));
  }
}

// A value as the request spelled it, for an error message.
inline std::string text(const Request& v) {
  return v.dump(-1, ' ', false, Request::error_handler_t::replace);
}

inline int64_t as_int(const Request& v, const std::string& where) {
  if (!v.is_number_integer()) throw BadInput(where + " must be an integer, got " + text(v));
  if (v.is_number_unsigned() &&
      v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    throw BadInput(where + " does not fit in int64");
  return v.get<int64_t>();
}

// A list of integers; an integer is accepted as a list of one.
inline Shape as_ints(const Request& v, const std::string& where) {
  if (v.is_number_integer()) return {as_int(v, where)};
  if (!v.is_array()) throw BadInput(where + " must be a list of integers");
  Shape out;
  for (const Request& item : v) out.push_back(as_int(item, where));
  return out;
}

inline int64_t get_int(const Request& op, const char* key, int64_t fallback) {
  const Request* v = field(op, key);
  return v ? as_int(*v, key) : fallback;
}
inline int64_t get_int(const Request& op, const char* key) { return as_int(op.at(key), key); }
inline Shape get_ints(const Request& op, const char* key) { return as_ints(op.at(key), key); }
inline std::optional<int64_t> get_optional(const Request& op, const char* key) {
  const Request* v = field(op, key);
  if (!v) return std::nullopt;
  return as_int(*v, key);
}

// The view ops whose fields and calls are the same on a Tensor and on an autograd::Variable; nothing
// for any other op name. The caller has checked the op's fields and charged its budget.
template <class T>
std::optional<T> shared_view(const T& x, const std::string& name, const Request& op) {
  if (name == "permute") return x.permute(get_ints(op, "dims"));
  if (name == "transpose") return x.transpose(get_int(op, "dim0"), get_int(op, "dim1"));
  if (name == "slice")
    return x.slice(get_int(op, "dim", 0), get_optional(op, "start"), get_optional(op, "stop"),
                   get_int(op, "step", 1));
  if (name == "select") return x.select(get_int(op, "dim"), get_int(op, "index"));
  if (name == "diagonal")
    return x.diagonal(get_int(op, "offset", 0), get_int(op, "dim1", 0), get_int(op, "dim2", 1));
  if (name == "expand") return x.expand(get_ints(op, "shape"));
  if (name == "broadcast_to") return x.broadcast_to(get_ints(op, "shape"));
  if (name == "unsqueeze") return x.unsqueeze(get_int(op, "dim"));
  if (name == "squeeze") {
    const std::optional<int64_t> d = get_optional(op, "dim");
    return d ? x.squeeze(*d) : x.squeeze();
  }
  if (name == "view") return x.view(get_ints(op, "shape"));
  return std::nullopt;
}

}  // namespace strided::explore
