// The text the explorer prints for an evaluated expression: per step, the layout facts, what the
// step did to memory, the values as PyTorch prints them, and the text picture of the storage.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "evaluate.h"

namespace strided::explore {

// Each step's sizes, strides, values and picture are charged to meter's print budget; past it, a
// step's values or picture are not written, and past it again, the steps left are not shown.
std::string report(const std::vector<StepResult>& steps, Meter& meter);

// The same report, with what it showed of each step kept apart, for answers that give the report's
// words as fields of their own (a --jsonl expression request, expression_request.h): so that the
// fields are the report's words, not a second wording of them.
struct ShownStep {
  std::string text;                 // the step's text as its heading words it ("step 2: TEXT")
  std::optional<std::string> repr;  // its values as PyTorch prints them, when the report printed them
};
struct Report {
  std::string text;              // the whole report, as strided-explore EXPRESSION prints it
  std::vector<ShownStep> shown;  // the steps it shows, from the first; fewer than steps past the budget
  std::string not_shown;         // past the budget, the line saying which steps are not shown
};
Report report_parts(const std::vector<StepResult>& steps, Meter& meter);

}  // namespace strided::explore
