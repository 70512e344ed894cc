#include "book/check.h"

#include <sstream>
#include <stdexcept>

namespace book {

void Check::add(std::string_view what, std::string measured, std::string expected, bool ok,
                std::string_view key) {
  if (expected.empty())
    throw std::invalid_argument("book: the comparison '" + std::string(what) +
                                "' does not say what it expected (use record() for a plain value)");
  if (!key.empty()) add_value(std::string(key), measured);
  measurements_.push_back(
      {std::string(what), std::move(measured), std::move(expected), true, ok, {}});
  compared_anything_ = true;
  if (!ok) failed_ = true;
}

bool Check::near(std::string_view what, double measured, double expected, double tolerance,
                 std::string_view key) {
  const bool ok = std::abs(measured - expected) <= tolerance;
  add(what, show(measured), show(expected) + " ± " + show(tolerance), ok, key);
  return ok;
}

bool Check::that(std::string_view what, bool holds, std::string measured) {
  add(what, measured.empty() ? show(holds) : std::move(measured), "to hold", holds);
  return holds;
}

void Check::not_run(std::string reason) {
  not_run_ = true;
  reason_ = std::move(reason);
}

void Check::inconclusive(std::string reason) {
  inconclusive_ = true;
  reason_ = std::move(reason);
}

void Check::fail(std::string reason) {
  failed_ = true;
  reason_ = std::move(reason);
}

Status Check::status() const {
  // A failure outranks everything; a check that compared nothing proves nothing, so it fails too.
  if (failed_) return Status::Failed;
  if (not_run_) return Status::NotRun;
  if (inconclusive_) return Status::Inconclusive;
  if (!compared_anything_) return Status::Failed;  // records alone prove nothing either
  return Status::Passed;
}

std::string Check::reason() const {
  if (reason_.empty() && !compared_anything_ && status() == Status::Failed)
    return measurements_.empty() ? "the check compared nothing"
                                 : "the check compared nothing (it only recorded values)";
  return reason_;
}

}  // namespace book
