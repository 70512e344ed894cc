// What became of a claim when its chapter ran. Nothing that did not run is ever "passed".
#pragma once

#include <string_view>

namespace book {

enum class Status {
  Passed,        // the check ran and every comparison held
  Failed,        // the check ran and a comparison did not hold (or it threw)
  NotRun,        // the check needs what this machine lacks (a CUDA device); the reason is kept
  Inconclusive,  // a timing whose own repeat-to-repeat noise exceeded its tolerance; noise is kept
  Quoted,        // a quoted claim (Kind::Quoted) whose arithmetic held: it restates a source's
                 // figures, so nothing this machine does could make it fail, and it is no pass
};

// "passed", "failed", "not run", "inconclusive", "quoted": the words of the report, the ledger and claims.json.
constexpr std::string_view status_name(Status s) {
  switch (s) {
    case Status::Passed: return "passed";
    case Status::Failed: return "failed";
    case Status::NotRun: return "not run";
    case Status::Inconclusive: return "inconclusive";
    case Status::Quoted: return "quoted";
  }
  return "failed";
}

// The mark a reader sees beside a claim.
constexpr std::string_view status_mark(Status s) {
  switch (s) {
    case Status::Passed: return "✓";
    case Status::Failed: return "✗";
    case Status::NotRun: return "○";
    case Status::Inconclusive: return "~";
    case Status::Quoted: return "❝";
  }
  return "✗";
}

// The kinds of claims.md: how a claim is checked, shown in the ledger. Quoted: arithmetic on a
// source's own figures (the seed's sizes or timings), with nothing of the library in it.
enum class Kind { Exact, Model, TimingCpu, TimingGpu, Quoted };

constexpr std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::Exact: return "exact";
    case Kind::Model: return "model";
    case Kind::TimingCpu: return "timing (CPU)";
    case Kind::TimingGpu: return "timing (GPU)";
    case Kind::Quoted: return "quoted";
  }
  return "exact";
}

}  // namespace book
