// libFuzzer target: strided-explore --jsonl. Each input is split into lines as serve() splits
// standard input, and each line answered exactly as the program answers it (one request, one
// meter). The fuzzer checks that
//  - every answer is one line of JSON: an object holding "results" (a list whose entries are
//    layouts, the last one possibly an error), "result", the layout of an engine request, or
//    {"error":true,"message":...} with a message that is not an internal error;
//  - the meter never undercharges: the bytes the ops allocate (Storage's counter) are at most the
//    bytes the meter charged for them, and the work spent is within its budget;
//  - the answer stays bounded (the print budget bounds the numbers it writes);
// and AddressSanitizer and UndefinedBehaviorSanitizer report anything else. libFuzzer's -timeout
// and -rss_limit_mb (run_fuzzer.cmake) bound each input's time and memory. A failed check prints
// the line and aborts.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "budget.h"
#include "jsonl.h"
#include "strided/tensor/storage.h"

namespace {

void require(bool ok, const char* what, const std::string& line, const std::string& answer) {
  if (ok) return;
  std::fprintf(stderr, "explore_jsonl: %s\n  line:   %s\n  answer: %s\n", what, line.c_str(),
               answer.substr(0, 2000).c_str());
  std::abort();
}

// An answer's largest size: the print budget's numbers at a few dozen bytes each, messages, and
// the field names of each result.
constexpr size_t kMaxAnswer = size_t{16} << 20;

void check_answer(const std::string& line, const std::string& answer) {
  using strided::explore::Json;
  require(answer.find('\n') == std::string::npos, "an answer of more than one line", line, answer);
  require(answer.size() <= kMaxAnswer, "an answer past its bound", line, answer);
  Json a;
  try {
    a = Json::parse(answer);
  } catch (const Json::exception&) {
    require(false, "an answer that is not JSON", line, answer);
  }
  require(a.is_object(), "an answer that is not an object", line, answer);
  if (a.contains("error")) {
    require(a["error"] == true && a.contains("message") && a["message"].is_string() &&
                !a["message"].get<std::string>().empty(),
            "an error without a message", line, answer);
    // A library bug (strided::InternalError, or any exception that is no user's error) is
    // answered as "internal error: ...": never right for any input.
    require(a["message"].get<std::string>().rfind("internal error", 0) != 0,
            "an internal error", line, answer);
  } else if (a.contains("results")) {
    require(a["results"].is_array(), "results that are not a list", line, answer);
    const Json& r = a["results"];
    for (size_t i = 0; i < r.size(); ++i) {
      const bool error = r[i].contains("error");
      require(!error || i + 1 == r.size(), "a chain that goes on after an error", line, answer);
      require(error || (r[i].contains("shape") && r[i].contains("stride")),
              "a result without its layout", line, answer);
    }
  } else {
    require(a.contains("result") || (a.contains("shape") && a.contains("stride")),
            "an answer of no known kind", line, answer);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strided;
  using namespace strided::explore;
  const std::string input(reinterpret_cast<const char*>(data), size);
  size_t begin = 0;
  while (begin < input.size()) {
    size_t end = input.find('\n', begin);
    if (end == std::string::npos) end = input.size();
    const std::string line = input.substr(begin, end - begin);
    begin = end + 1;
    Meter meter;
    const int64_t before = Storage::allocated_bytes();
    const std::string answer = answer_line(line, meter);
    require(Storage::allocated_bytes() - before <= meter.charged_bytes(),
            "the ops allocated more than the meter charged", line, answer);
    require(meter.work_spent() <= kWorkBudget, "the work spent passed its budget", line, answer);
    check_answer(line, answer);
  }
  return 0;
}
