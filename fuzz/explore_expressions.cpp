// libFuzzer target: strided-explore's expression language. Each input is an expression, parsed,
// evaluated and reported exactly as the program does it (one request, one meter). The fuzzer
// checks that
//  - a refusal is an ExploreError with a message and a span inside the expression, so the caret
//    can be drawn; nothing else escapes (a bare strided::Error or any other exception);
//  - the meter never undercharges: the bytes the ops allocate (Storage's counter) are at most the
//    bytes the meter charged for them, so no op allocates what the budgets did not see;
//  - the work the meter charged is within its budget, and every step's tensor keeps its elements
//    inside its storage;
//  - the report stays bounded (the print budget and the steps' headers bound it);
// and AddressSanitizer and UndefinedBehaviorSanitizer report anything else. libFuzzer's -timeout
// and -rss_limit_mb (run_fuzzer.cmake) bound each input's time and memory, so a request the
// budgets let through but that runs long or large is reported too. A failed check prints the
// expression and aborts.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "budget.h"
#include "evaluate.h"
#include "expression.h"
#include "report.h"
#include "strided/layout/layout.h"
#include "strided/tensor/storage.h"

namespace {

void require(bool ok, const char* what, const std::string& source) {
  if (ok) return;
  std::fprintf(stderr, "explore_expressions: %s\n  expression: %s\n", what, source.c_str());
  std::abort();
}

// The report's largest size: the print budget's numbers at a few dozen bytes each, and each step's
// header (its text is cut to 200 characters) for as many steps as an expression can hold.
constexpr size_t kMaxReport = size_t{16} << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strided;
  using namespace strided::explore;
  const std::string source(reinterpret_cast<const char*>(data), size);
  Meter meter;
  const int64_t before = Storage::allocated_bytes();
  std::vector<StepResult> steps;
  try {
    steps = evaluate(parse(source), meter);
  } catch (const ExploreError& e) {
    const Span s = e.span();
    require(std::string(e.what()).size() > 0, "an error without a message", source);
    require(s.begin <= s.end && s.end <= source.size(), "an error span outside the expression",
            source);
    require(!format_error(source, s, e.what()).empty(), "an error that cannot be shown", source);
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    require(false, "a strided::Error escaped evaluate()", source);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    require(false, "an exception other than ExploreError escaped", source);
  }
  require(Storage::allocated_bytes() - before <= meter.charged_bytes(),
          "the ops allocated more than the meter charged", source);
  require(meter.work_spent() <= kWorkBudget, "the work spent passed its budget", source);
  for (const StepResult& step : steps) {
    const Tensor& t = step.tensor;
    if (t.numel() == 0) continue;
    const Extent e = extent(t.layout());
    require(e.min >= 0 && (e.max + 1) * t.element_size() <= t.storage().nbytes(),
            "a step's elements leave its storage", source);
  }
  if (!steps.empty()) {
    std::string text;
    try {
      text = report(steps, meter);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      require(false, "the report raised", source);
    }
    require(text.size() <= kMaxReport, "the report passed its bound", source);
    require(meter.print_left() >= 0, "the print budget went negative", source);
  }
  return 0;
}
