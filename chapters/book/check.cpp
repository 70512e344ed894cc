#include "book/check.h"

#include <sstream>

namespace book {

void Check::add(std::string_view what, std::string measured, std::string expected, bool ok) {
  measurements_.push_back({std::string(what), std::move(measured), std::move(expected), ok});
  ran_anything_ = true;
  if (!ok) failed_ = true;
}

bool Check::near(std::string_view what, double measured, double expected, double tolerance) {
  const bool ok = std::abs(measured - expected) <= tolerance;
  add(what, show(measured), show(expected) + " ± " + show(tolerance), ok);
  return ok;
}

bool Check::that(std::string_view what, bool holds, std::string measured) {
  add(what, measured.empty() ? show(holds) : std::move(measured), holds ? "" : "the property to hold",
      holds);
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
  if (!ran_anything_) return Status::Failed;
  return Status::Passed;
}

}  // namespace book
