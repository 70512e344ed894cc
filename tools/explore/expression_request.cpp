#include "expression_request.h"

#include <algorithm>
#include <string>
#include <vector>

#include "evaluate.h"
#include "expression.h"
#include "report.h"
#include "request_fields.h"

namespace strided::explore {

namespace {

const char* memory_word(StepResult::Relation r) {
  switch (r) {
    case StepResult::Relation::New: return "new";
    case StepResult::Relation::Same: return "self";  // PyTorch's word for the tensor returned
    case StepResult::Relation::View: return "view";
    case StepResult::Relation::Copy: return "copy";
    case StepResult::Relation::InPlace: return "in_place";
  }
  return "copy";
}

Json failed(const std::string& source, const ExploreError& e) {
  Json a = error_json(e.what(), e.why());
  a["column"] = std::min(e.span().begin, source.size()) + 1;  // as format_error counts it
  a["report"] = format_error(source, e);
  return a;
}

}  // namespace

std::optional<Json> expression_request(const Request& request, Meter& m) {
  if (!request.contains("expression")) return std::nullopt;
  only_fields(request, "an expression request", {"expression"});
  const Request* expression = field(request, "expression");  // null counts as omitted
  if (!expression || !expression->is_string())
    throw BadInput("\"expression\" must be a string such as \"arange(6).view(2, 3)\", got " +
                   (expression ? text(*expression) : std::string("none")));
  const std::string source = expression->get<std::string>();
  std::vector<StepResult> steps;
  try {
    steps = evaluate(parse(source), m);
  } catch (const ExploreError& e) {
    return failed(source, e);
  }
  // The report is charged to the print budget as the program's is, so that it is the same text;
  // the fields repeat numbers it paid for (the layouts of the steps it shows, and the values it
  // printed), and so stay within the budget too.
  const Report parts = report_parts(steps, m);
  Json results = Json::array();
  for (size_t i = 0; i < parts.shown.size(); ++i) {
    const StepResult& s = steps[i];
    const ShownStep& shown = parts.shown[i];
    Json r;
    r["text"] = shown.text;
    r.update(layout_json(s.tensor, steps.front().tensor, i ? steps[i - 1].tensor : Tensor()));
    r["dtype"] = name(s.tensor.dtype());
    r["memory"] = memory_word(s.relation);
    if (shown.repr) {
      const Tensor& values = s.before_write.defined() ? s.before_write : s.tensor;
      if (values.numel() <= kMaxValues) r["values"] = values_json(values);
      r["repr"] = *shown.repr;
    }
    results.push_back(std::move(r));
  }
  if (!parts.not_shown.empty()) results.push_back(error_json(parts.not_shown));
  Json answer;
  answer["results"] = std::move(results);
  answer["report"] = parts.text;
  return answer;
}

}  // namespace strided::explore
