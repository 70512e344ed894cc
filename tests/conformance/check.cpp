// The conformance check: feeds every request of cases.jsonl (generated from real PyTorch by
// tools/conformance/generate.py) to `strided-explore --jsonl` and compares each answer, field by
// field, with PyTorch 2.6's, the case's "expected". For an error only the fact of raising is
// compared, not the message. A gradient's values are compared within a tolerance (close_values);
// an engine request's answer (unary, binary, matmul: dtype_cases.jsonl) field by field, its dtype
// included.
//
//   conformance-check <path to strided-explore> <path to cases.jsonl>
//
// Every case that disagrees is printed in full: its request on one line (pipe it to
// `strided-explore --jsonl` to reproduce), PyTorch's answer, the explorer's, and the first field
// that differs. A case where PyTorch 1.13 answered otherwise carries 1.13's answer too, as
// "expected_1_13" (tools/conformance/answers.py); each is listed with the first place where the two
// PyTorches differ, and their count printed. The exit status is 0 only when every case agrees and
// every "expected_1_13" differs from its "expected" (else it is no difference and a wrong file).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "jsonl.h"

using Json = nlohmann::ordered_json;  // keeps each request's field order when printed

namespace {

struct Case {
  int64_t id = 0;
  Json request, expected;
  std::optional<Json> expected_1_13;  // PyTorch 1.13's answer, where it differs from 2.6's
};

std::vector<Case> read_cases(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const Json j = Json::parse(line);
    Case c{j.at("id").get<int64_t>(), j.at("request"), j.at("expected"), std::nullopt};
    if (j.contains("expected_1_13")) c.expected_1_13 = j.at("expected_1_13");
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs the explorer on every request at once (one line each) and returns its answer lines.
std::vector<std::string> run_explorer(const std::string& explorer, const std::vector<Case>& cases) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "conformance-XXXXXX").string();
  const int fd = mkstemp(tmpl.data());
  if (fd < 0) throw std::runtime_error("cannot create a temporary file for the requests");
  close(fd);
  {
    std::ofstream out(tmpl);
    for (const Case& c : cases) out << c.request.dump() << '\n';
  }
  const std::string command = shell_quote(explorer) + " --jsonl < " + shell_quote(tmpl);
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + command);
  std::vector<std::string> lines;
  std::string current;
  char buf[1 << 16];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) {
    for (size_t i = 0; i < n; ++i) {
      if (buf[i] == '\n') {
        lines.push_back(std::move(current));
        current.clear();
      } else {
        current += buf[i];
      }
    }
  }
  if (!current.empty()) lines.push_back(current);
  const int status = pclose(pipe);
  std::filesystem::remove(tmpl);
  if (status != 0)
    std::cerr << "note: " << command << " exited with status " << status << "\n";
  return lines;
}

bool is_error(const Json& j) { return j.is_object() && j.value("error", false) == true; }

// Values as numbers, read as the protocol writes them (jsonl.h, value_number: booleans are 0 and
// 1, NaN and infinities are strings); NaN equals NaN.
std::optional<double> number(const Json& v) { return strided::explore::value_number(v); }

bool same_values(const Json& a, const Json& b) {
  if (!a.is_array() || !b.is_array() || a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].is_array() || b[i].is_array()) {  // a complex element: [re, im]
      if (!same_values(a[i], b[i])) return false;
      continue;
    }
    const auto x = number(a[i]), y = number(b[i]);
    if (!x || !y) return false;
    if (!(*x == *y || (std::isnan(*x) && std::isnan(*y)))) return false;
  }
  return true;
}

// The first difference between PyTorch's answer for one step and the explorer's, or "".
std::string compare_step(const Json& expected, const Json& actual) {
  if (is_error(expected) != is_error(actual))
    return is_error(expected) ? "PyTorch raises, the explorer does not"
                              : "the explorer raises, PyTorch does not";
  if (is_error(expected)) return "";
  for (const char* field : {"shape", "stride", "storage_offset", "is_contiguous",
                            "shares_storage", "shares_prev", "numel"}) {
    if (!actual.contains(field)) return std::string("missing field ") + field;
    if (expected.at(field) != actual.at(field)) return std::string("field ") + field;
  }
  if (expected.contains("values") != actual.contains("values")) return "presence of values";
  if (expected.contains("values") && !same_values(expected.at("values"), actual.at("values")))
    return "field values";
  return "";
}

// A gradient's values (grad_chain_cases.jsonl) are computed, through exp, log and pow, by other
// kernels than PyTorch's: they agree within a few units in the last place of the dtype, and NaN
// and the infinities exactly. A complex gradient's values are [re, im] pairs, each part so.
bool close_values(const Json& a, const Json& b, double tolerance) {
  if (!a.is_array() || !b.is_array() || a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].is_array() || b[i].is_array()) {
      if (!close_values(a[i], b[i], tolerance)) return false;
      continue;
    }
    const auto x = number(a[i]), y = number(b[i]);
    if (!x || !y) return false;
    if (*x == *y || (std::isnan(*x) && std::isnan(*y))) continue;
    if (!std::isfinite(*x) || !std::isfinite(*y)) return false;
    if (std::fabs(*x - *y) > tolerance * std::max(std::fabs(*x), std::fabs(*y))) return false;
  }
  return true;
}

std::string compare(const Json& request, const Json& expected, const Json& actual) {
  if (request.contains("grad") && !is_error(expected)) {
    if (is_error(actual)) return "the explorer raises, PyTorch does not";
    if (!actual.contains("shape") || !actual.contains("stride")) return "missing shape or stride";
    if (expected.at("shape") != actual.at("shape")) return "field shape";
    // Strides too: AccumulateGrad keeps a gradient that obeys the layout contract with its own
    // strides on size-1 dims, as PyTorch does (lib/strided/autograd/node.cpp).
    if (expected.at("stride") != actual.at("stride")) return "field stride";
    const std::string dtype = request.at("grad").at("start").value("dtype", "float32");
    const bool single = dtype == "float32" || dtype == "complex64";
    if (!actual.contains("values") ||
        !close_values(expected.at("values"), actual.at("values"), single ? 1e-6 : 1e-13))
      return "field values";
    return "";
  }
  if (expected.contains("results")) {
    if (!actual.is_object() || !actual.contains("results") || !actual.at("results").is_array())
      return is_error(actual) ? "the explorer refused the request" : "no results";
    const Json& e = expected.at("results");
    const Json& a = actual.at("results");
    for (size_t i = 0; i < e.size(); ++i) {
      if (i >= a.size()) return "the chain stops early, at step " + std::to_string(i);
      const std::string d = compare_step(e[i], a[i]);
      if (!d.empty()) return "step " + std::to_string(i) + ": " + d;
    }
    if (a.size() != e.size()) return "the chain goes on after PyTorch stopped";
    return "";
  }
  if (is_error(expected) != is_error(actual))
    return is_error(expected) ? "PyTorch raises, the explorer does not"
                              : "the explorer raises, PyTorch does not";
  if (is_error(expected)) return "";
  if (request.contains("unary") || request.contains("binary") || request.contains("matmul")) {
    // An engine answer (dtype_cases.jsonl): a chain step's layout fields, and the dtype.
    for (const char* field : {"shape", "stride", "storage_offset", "dtype", "is_contiguous",
                              "numel"}) {
      if (!actual.contains(field)) return std::string("missing field ") + field;
      if (expected.at(field) != actual.at(field)) return std::string("field ") + field;
    }
    if (expected.contains("values") != actual.contains("values")) return "presence of values";
    if (expected.contains("values") && !same_values(expected.at("values"), actual.at("values")))
      return "field values";
    return "";
  }
  if (!actual.contains("result") || expected.at("result") != actual.at("result")) return "result";
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " <strided-explore> <cases.jsonl>\n";
    return 2;
  }
  try {
    const std::vector<Case> cases = read_cases(argv[2]);
    if (cases.empty()) {
      std::cerr << "no cases in " << argv[2] << "\n";
      return 2;
    }
    const std::vector<std::string> answers = run_explorer(argv[1], cases);
    size_t failures = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      std::string why;
      Json actual;
      if (i >= answers.size()) {
        why = "no answer line";
      } else {
        try {
          actual = Json::parse(answers[i]);
          why = compare(c.request, c.expected, actual);
        } catch (const Json::exception& e) {
          why = std::string("the answer is not JSON: ") + e.what();
        }
      }
      if (why.empty()) continue;
      ++failures;
      std::cout << "MISMATCH case " << c.id << ": " << why << "\n"
                << "  request:  " << c.request.dump() << "\n"
                << "  pytorch:  " << c.expected.dump() << "\n"
                << "  explorer: " << (i < answers.size() ? answers[i] : "(none)") << "\n";
    }
    // The cases whose answer changed from PyTorch 1.13 to 2.6, each with the first JSON path at
    // which the two answers differ.
    size_t changed = 0, not_changed = 0;
    for (const Case& c : cases) {
      if (!c.expected_1_13) continue;
      const Json patch = Json::diff(*c.expected_1_13, c.expected);
      if (patch.empty()) {
        ++not_changed;
        std::cout << "case " << c.id << ": expected_1_13 is the same as expected\n";
        continue;
      }
      ++changed;
      const std::string path = patch[0].at("path").get<std::string>();
      std::cout << "PyTorch 1.13 answered case " << c.id << " otherwise, first at " << path
                << ": " << c.expected_1_13->dump().substr(0, 160) << "\n";
    }
    if (answers.size() > cases.size())
      std::cout << "the explorer gave " << answers.size() << " answers to " << cases.size()
                << " requests\n";
    std::cout << (cases.size() - failures) << " of " << cases.size()
              << " cases agree with PyTorch 2.6; PyTorch 1.13 answered " << changed
              << " of them otherwise (expected_1_13)\n";
    return failures == 0 && not_changed == 0 && answers.size() == cases.size() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "conformance-check: " << e.what() << "\n";
    return 2;
  }
}
