// A chapter program: sections, claims with their checks, and exhibits (outputs that belong to no
// single claim). main() gives every chapter the same command line:
//
//   chapter                print a readable report (✓/✗ and measured values); exit 1 if a claim failed
//   chapter --emit DIR     also write DIR/report.json, DIR/values.json and one file per output
//   chapter --list         print the claim IDs and statements
//   chapter --claim ID     run one claim only; exit 0 passed, 1 failed, exit_skipped otherwise
//   chapter --kind K,...   run (or, with --list, list) only the claims of these kinds
//   chapter --exhibits     run (or, with --list, list) only the exhibits
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <deque>
#include <vector>

#include "book/check.h"
#include "book/outputs.h"
#include "book/provenance.h"
#include "book/status.h"

namespace book {

// Outputs that illustrate a section without being a claim's evidence (a "try it" transcript).
class Exhibit : public Recorder {
 public:
  explicit Exhibit(std::vector<std::string>* taken = nullptr) : Recorder(taken) {}
};

struct ClaimDef {
  std::string id;         // claims.md's ID: MT-03, ER-14; a suffix splits one ID over chapters: ER-03.memset
  std::string section;    // the id of the section it was declared in
  std::string statement;  // one sentence: what the claim says is true
  std::string seed_says;  // errata only: what the seed says instead
  Kind kind = Kind::Exact;
  bool gpu = false;       // needs a CUDA device: not run without one
  std::function<void(Check&)> check;

  ClaimDef& model() { kind = Kind::Model; return *this; }
  ClaimDef& timing() { kind = Kind::TimingCpu; return *this; }
  // A claim that restates a source's arithmetic: when it holds its status is *quoted*, not passed.
  ClaimDef& quoted() { kind = Kind::Quoted; return *this; }
  // A GPU claim: the check runs only where gpu().available; elsewhere it is not run, with the
  // CUDA runtime's reason. Whatever its kind (a timing by default, or an exact check of what the
  // device holds), --kind selects it as "gpu".
  ClaimDef& needs_gpu(Kind k = Kind::TimingGpu) { gpu = true; kind = k; return *this; }
};

struct ClaimResult {
  const ClaimDef* def = nullptr;
  Status status = Status::Failed;
  std::string reason;
  std::vector<Measurement> measurements;
  std::vector<Output> outputs;
  std::vector<Value> values;
  double seconds = 0.0;
};

struct Section {
  std::string id;
  std::string title;
};

struct RunResult {
  std::vector<ClaimResult> claims;
  std::vector<Output> outputs;  // exhibits' outputs, then the claims'
  std::vector<Value> values;
  Provenance provenance;
  bool any_failed() const;
};

// The exit code of `--claim ID` for a claim that was not run or was inconclusive: ctest's
// SKIP_RETURN_CODE for the per-claim tests (chapters/CMakeLists.txt), so they show as skipped.
inline constexpr int exit_skipped = 77;

// True for IDs of the form AA-00 with an optional ".suffix" (a-z, 0-9).
bool valid_claim_id(const std::string& id);

class Chapter {
 public:
  // id is the program's and the output folder's name ("01_memory_topology"). source_file is the
  // chapter's own source, for the staleness check; __builtin_FILE() rather than
  // std::source_location, which clang 14 with libstdc++ 12 (the sanitizer build) lacks.
  Chapter(std::string id, std::string title, const char* source_file = __builtin_FILE());

  void section(std::string id, std::string title);
  ClaimDef& claim(std::string id, std::string statement, std::function<void(Check&)> check);
  ClaimDef& erratum(std::string id, std::string seed_says, std::string statement,
                    std::function<void(Check&)> check);
  void exhibit(std::function<void(Exhibit&)> show);

  // Runs every claim, or only the one named, or (kinds non-empty) only claims of those kinds;
  // and every exhibit unless one claim is named. with_claims false: the exhibits alone.
  RunResult run(const std::optional<std::string>& only = std::nullopt,
                const std::vector<Kind>& kinds = {}, bool with_claims = true) const;
  void print(std::ostream& out, const RunResult& r) const;
  // Writes report.json, values.json and the output files into dir (created; stale files of ours
  // removed first, so an output the chapter stopped making cannot linger).
  void emit(const std::string& dir, const RunResult& r) const;
  int main(int argc, char** argv) const;

  const std::string& id() const { return id_; }
  const std::deque<ClaimDef>& claims() const { return claims_; }

 private:
  std::string id_, title_, source_;
  std::vector<Section> sections_;
  std::deque<ClaimDef> claims_;  // a deque: claim() hands out references
  std::vector<std::function<void(Exhibit&)>> exhibits_;
};

}  // namespace book
