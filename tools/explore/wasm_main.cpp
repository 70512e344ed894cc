// The explorer in the page: the C entry points of strided-explore.js, the wasm build of the same
// core as the native program (cmake/wasm.cmake). Each returns what the native strided-explore
// writes for the same input, so that a page and a terminal answer alike, byte for byte:
//   explore_expression(source, with_svg)  `strided-explore SOURCE [--svg FILE]` as one JSON object
//       {"status": exit status, "stdout": the report, "stderr": the error with its caret,
//        "svg": the picture --svg writes (empty without with_svg, or on an error)}
//   explore_jsonl(bytes, length)          `strided-explore --jsonl` on those bytes: every answer
// The returned text lives until the next call.
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "budget.h"
#include "evaluate.h"
#include "expression.h"
#include "jsonl.h"
#include "report.h"
#include "strided/pictures/picture.h"

namespace {

std::string g_answer;  // the last answer, read by the caller before its next call

// run_expression of main.cpp, with standard output, standard error and the SVG file as strings.
nlohmann::json run_expression(const std::string& source, bool with_svg) {
  using namespace strided;
  using namespace strided::explore;
  nlohmann::json answer = {{"status", 0}, {"stdout", ""}, {"stderr", ""}, {"svg", ""}};
  std::vector<StepResult> steps;
  Meter meter;
  try {
    steps = evaluate(parse(source), meter);
  } catch (const ExploreError& e) {
    answer["status"] = 2;
    answer["stderr"] = "strided-explore: " + format_error(source, e);
    return answer;
  }
  answer["stdout"] = report(steps, meter);
  if (!with_svg) return answer;
  try {
    const StepResult& last = steps.back();
    PictureOptions o;
    o.title = source;
    answer["svg"] = tensor_svg(last.tensor, last.text, o);
  } catch (const Error& e) {
    answer["status"] = 2;
    answer["stderr"] = std::string("strided-explore: --svg: ") + e.what() + "\n";
  }
  return answer;
}

}  // namespace

extern "C" {

const char* explore_expression(const char* source, int with_svg) {
  try {
    // Invalid UTF-8 in an error message is replaced, not thrown on: the answer is always JSON.
    g_answer = run_expression(source, with_svg != 0)
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const std::exception& e) {
    g_answer = nlohmann::json{{"status", 2},
                              {"stdout", ""},
                              {"stderr", std::string("strided-explore: internal error: ") +
                                             e.what() + "\n"},
                              {"svg", ""}}
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return g_answer.c_str();
}

const char* explore_jsonl(const char* bytes, int length) {
  std::istringstream in(std::string(bytes, static_cast<size_t>(length)));
  std::ostringstream out;
  strided::explore::serve(in, out);
  g_answer = out.str();
  return g_answer.c_str();
}

}  // extern "C"
