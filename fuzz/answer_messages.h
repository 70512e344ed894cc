// What the explorer's fuzzers read from a --jsonl answer: its error messages, its own or the one
// that ends a chain's results, at any depth.
#pragma once

#include <string>
#include <vector>

#include "jsonl.h"

namespace fuzz {

inline void messages_of(const strided::explore::Json& a, std::vector<std::string>& out) {
  if (a.is_object()) {
    if (a.contains("error") && a.contains("message") && a["message"].is_string())
      out.push_back(a["message"].get<std::string>());
    for (const auto& [key, value] : a.items()) messages_of(value, out);
  } else if (a.is_array()) {
    for (const auto& v : a) messages_of(v, out);
  }
}

}  // namespace fuzz
