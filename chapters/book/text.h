// Values written as the record, the tables and the catalogue write them: PyTorch's calls and
// dtypes, nested lists, runs of bytes. None of it is shown on the pages; book/show.h writes the
// measured values themselves.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "book/show.h"
#include "strided/memory/memory.h"
#include "strided/strided.h"

namespace book {

// "{4..7, 16..19}": a sorted set of byte offsets as runs, as the catalogue writes a memory set.
inline std::string byte_runs(const std::vector<int64_t>& set) {
  std::string s = "{";
  for (const strided::Interval& r : strided::to_intervals(set)) {
    if (s.size() > 1) s += ", ";
    s += std::to_string(r.begin) + ".." + std::to_string(r.end - 1);
  }
  return s + "}";
}

// "1 and 4", "0, 3 and 5": integers as a sentence lists them.
inline std::string and_list(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + std::to_string(v[i]);
  return s;
}

// "0.2949, 0.9608": values held as float32, each as Python prints that float.
inline std::string float32_list(const std::vector<double>& v) {
  std::string s;
  for (double x : v) s += (s.empty() ? "" : ", ") + show(static_cast<float>(x));
  return s;
}

// "[[4, 6], [6, 8]]": an integer matrix's values on one line, as Python prints t.tolist().
inline std::string nested_list(const strided::Tensor& t) {
  std::string s = "[";
  for (int64_t r = 0; r < t.size(0); ++r) {
    s += r ? ", [" : "[";
    for (int64_t k = 0; k < t.size(1); ++k) s += (k ? ", " : "") + show(t.at({r, k}).to_int());
    s += "]";
  }
  return s + "]";
}

// "1, 3" for torch.zeros(1, 3) and expand(1, 3); "()" for a 0-d shape, as torch.zeros(()) takes it.
inline std::string call_args(strided::IntList sizes) {
  std::string s;
  for (int64_t v : sizes) s += (s.empty() ? "" : ", ") + std::to_string(v);
  return s.empty() ? "()" : s;
}

// "torch.int64": a dtype as str(t.dtype) prints it.
inline std::string torch_dtype(strided::DType d) {
  return "torch." + std::string(strided::name(d));
}

// A shape, or "error" where there is none (a refused broadcast).
inline std::string shape_or_error(const std::optional<strided::Shape>& s) {
  return s ? show(*s) : std::string("error");
}

// A table row of a tensor's whole layout: name, sizes, strides, storage offset, dtype, device and
// the bytes of its storage.
inline std::vector<std::string> tensor_row(const std::string& name, const strided::Tensor& t) {
  return {name, show(t.sizes()), show(t.strides()), show(t.storage_offset()),
          std::string(strided::name(t.dtype())), t.device().str(), show(t.storage().nbytes())};
}

}  // namespace book
