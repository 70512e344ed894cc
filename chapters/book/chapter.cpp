#include "book/chapter.h"

#include "book/claim_lookup.h"
#include "book/pytorch_record.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "book/gpu.h"
#include "book/plot.h"

namespace book {

namespace fs = std::filesystem;
using nlohmann::json;

bool valid_claim_id(const std::string& id) {
  static const std::regex pattern("[A-Z]{2}-[0-9]{2}(\\.[a-z0-9]+)?");
  return std::regex_match(id, pattern);
}

bool RunResult::any_failed() const {
  for (const auto& c : claims)
    if (c.status == Status::Failed) return true;
  return false;
}

Chapter::Chapter(std::string id, std::string title, const char* source_file)
    : id_(std::move(id)), title_(std::move(title)), source_(source_file) {
  sections_.push_back({"", ""});  // claims declared before any section()
}

void Chapter::section(std::string id, std::string title) {
  sections_.push_back({std::move(id), std::move(title)});
}

ClaimDef& Chapter::claim(std::string id, std::string statement, std::function<void(Check&)> check) {
  if (!valid_claim_id(id))
    throw std::invalid_argument("book: claim ID '" + id + "' is not of the form MT-03 or ER-03.memset");
  for (const auto& c : claims_)
    if (c.id == id) throw std::invalid_argument("book: claim " + id + " is declared twice");
  if (statement.empty()) throw std::invalid_argument("book: claim " + id + " has no statement");
  ClaimDef def;
  def.id = std::move(id);
  def.section = sections_.back().id;
  def.statement = std::move(statement);
  def.check = std::move(check);
  claims_.push_back(std::move(def));
  return claims_.back();
}

ClaimDef& Chapter::erratum(std::string id, std::string seed_says, std::string statement,
                           std::function<void(Check&)> check) {
  if (id.rfind("ER-", 0) != 0)
    throw std::invalid_argument("book: erratum " + id + " must have an ER- ID");
  ClaimDef& def = claim(std::move(id), std::move(statement), std::move(check));
  def.seed_says = std::move(seed_says);
  return def;
}

void Chapter::exhibit(std::function<void(Exhibit&)> show) { exhibits_.push_back(std::move(show)); }

namespace {
// Whether --kind K,... selects a claim: a claim that needs a GPU answers to "gpu" (Kind::TimingGpu)
// whatever it checks, so that "exact,model" (what tools/book mutate runs) holds only claims this
// machine can run, and every GPU claim is labelled gpu (chapters/claim_tests.cmake).
bool selected(const ClaimDef& c, const std::vector<Kind>& kinds) {
  if (kinds.empty()) return true;
  const Kind k = c.gpu ? Kind::TimingGpu : c.kind;
  return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
}
}  // namespace

RunResult Chapter::run(const std::optional<std::string>& only, const std::vector<Kind>& kinds,
                       bool with_claims) const {
  RunResult r;
  r.provenance = collect_provenance(/*read_commit=*/!only);
  std::vector<std::string> taken;  // output and value names, unique in the chapter
  if (!only) {
    for (const auto& show : exhibits_) {
      Exhibit ex(&taken);
      show(ex);
      r.outputs.insert(r.outputs.end(), ex.outputs().begin(), ex.outputs().end());
      r.values.insert(r.values.end(), ex.values().begin(), ex.values().end());
    }
  }
  if (!with_claims) return r;
  for (const auto& def : claims_) {
    if (only && def.id != *only) continue;
    if (!selected(def, kinds)) continue;
    Check check(def.id, &taken);
    const auto t0 = std::chrono::steady_clock::now();
    if (def.gpu && !gpu().available) {
      check.not_run(gpu().reason);
    } else {
      try {
        def.check(check);
      } catch (const std::exception& e) {
        check.fail(std::string("the check threw: ") + e.what());
      } catch (...) {
        check.fail("the check threw a non-standard exception");
      }
    }
    ClaimResult c;
    c.def = &def;
    c.status = check.status();
    // Arithmetic on a source's figures that held is a quote, not a pass: no rule of the library
    // and nothing about this machine could have made it fail.
    if (def.kind == Kind::Quoted && c.status == Status::Passed) c.status = Status::Quoted;
    c.reason = check.reason();
    c.measurements = check.measurements();
    c.outputs = check.outputs();
    c.values = check.values();
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.outputs.insert(r.outputs.end(), c.outputs.begin(), c.outputs.end());
    r.values.insert(r.values.end(), c.values.begin(), c.values.end());
    r.claims.push_back(std::move(c));
  }
  return r;
}

void Chapter::print(std::ostream& out, const RunResult& r) const {
  out << title_ << " (" << id_ << ")\n";
  std::string section = "\x01";
  for (const auto& o : r.outputs) {
    if (!o.claim.empty()) continue;
    out << "\n  [" << output_kind_name(o.kind) << " " << o.name << "]\n";
    if (o.kind == Output::Kind::Text) {
      std::istringstream lines(o.body);
      for (std::string line; std::getline(lines, line);) out << "    " << line << "\n";
    }
  }
  int counts[5] = {0, 0, 0, 0, 0};
  for (const auto& c : r.claims) {
    if (c.def->section != section) {
      section = c.def->section;
      for (const auto& s : sections_)
        if (s.id == section && !s.title.empty()) out << "\n== " << s.title << "\n";
    }
    ++counts[static_cast<int>(c.status)];
    out << "  " << status_mark(c.status) << " " << c.def->id << "  " << c.def->statement << "\n";
    if (!c.reason.empty()) out << "      " << status_name(c.status) << ": " << c.reason << "\n";
    for (const auto& m : c.measurements) {
      out << "      " << (m.ok ? "  " : "✗ ") << m.what << ": " << m.measured;
      out << (m.compared && m.ok && m.measured == m.expected ? std::string("   (as expected)")
              : m.compared            ? "   (expected " + m.expected + ")"
              : m.quoted_from.empty() ? "   (measured)"
                                      : "   (quoted: " + m.quoted_from + ")")
          << "\n";
    }
    for (const auto& o : c.outputs) {
      out << "      [" << output_kind_name(o.kind) << " " << o.name << "]\n";
      if (o.kind == Output::Kind::Text) {
        std::istringstream lines(o.body);
        for (std::string line; std::getline(lines, line);) out << "        " << line << "\n";
      }
    }
  }
  out << "\n" << r.claims.size() << " claims: " << counts[0] << " passed, " << counts[1]
      << " failed, " << counts[2] << " not run, " << counts[3] << " inconclusive, " << counts[4]
      << " quoted\n";
  const auto& p = r.provenance;
  out << "machine: " << p.cpu << ", " << p.gpu << "; " << p.compiler << " " << p.flags
      << "; commit " << p.commit << "\n";
}

namespace {

json provenance_json(const Provenance& p) {
  return {{"compiler", p.compiler},     {"flags", p.flags},
          {"cpu", p.cpu},               {"cpu_threads", p.cpu_threads},
          {"gpu", p.gpu},               {"gpu_reason", p.gpu_reason},
          {"gpu_plain", p.gpu_plain},   {"caches", p.caches}, {"os", p.os},
          {"cuda_runtime", p.cuda_runtime}, {"blas", p.blas},
          {"cpu_capability", p.cpu_capability},
          {"commit", p.commit},
          {"date", p.date},             {"sizes", p.sizes}};
}

// A comparison carries its expected value and verdict; a plain record says it was not compared
// and carries neither, so no reader of the report can take it for a passed comparison.
json measurement_json(const Measurement& m) {
  if (!m.compared && !m.quoted_from.empty())
    return {{"what", m.what}, {"measured", m.measured}, {"compared", false}, {"quoted", m.quoted_from}};
  if (!m.compared) return {{"what", m.what}, {"measured", m.measured}, {"compared", false}};
  return {{"what", m.what}, {"measured", m.measured}, {"expected", m.expected},
          {"compared", true}, {"ok", m.ok}};
}

json output_json(const Output& o) {
  return {{"name", o.name},
          {"kind", output_kind_name(o.kind)},
          {"file", output_file_name(o)},
          {"caption", o.caption},
          {"claim", o.claim}};
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("book: cannot write " + path.string());
}

// The claims of a run as report.json keeps them: the page's marks, the ledger and a recorded run
// from another machine (--report) all read this one form.
json claims_json(const RunResult& r) {
  json claims = json::array();
  for (const auto& c : r.claims) {
    json measured = json::array();
    for (const auto& m : c.measurements)
      measured.push_back(measurement_json(m));
    json names = json::array();
    for (const auto& o : c.outputs) names.push_back(o.name);
    json claim = {{"id", c.def->id},
                  {"section", c.def->section},
                  {"statement", c.def->statement},
                  {"kind", kind_name(c.def->kind)},
                  {"needs_gpu", c.def->gpu},
                  {"status", status_name(c.status)},
                  {"reason", c.reason},
                  {"measured", measured},
                  {"outputs", names},
                  {"seconds", c.seconds}};
    if (!c.def->seed_says.empty()) claim["seed_says"] = c.def->seed_says;
    claims.push_back(claim);
  }
  return claims;
}

}  // namespace

void Chapter::emit(const std::string& dir_name, const RunResult& r) const {
  const fs::path dir(dir_name);
  fs::create_directories(dir);
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string n = entry.path().filename().string();
    const auto ends = [&](std::string_view s) {
      return n.size() >= s.size() && n.compare(n.size() - s.size(), s.size(), s) == 0;
    };
    if (entry.is_regular_file() && (ends(".txt") || ends(".svg") || ends(".json")))
      fs::remove(entry.path());
  }

  json outputs = json::array();
  for (const auto& o : r.outputs) {
    outputs.push_back(output_json(o));
    if (o.kind == Output::Kind::Table)
      write_file(dir / output_file_name(o),
                 json{{"caption", o.caption}, {"header", o.header}, {"rows", o.rows}}.dump(1));
    else
      write_file(dir / output_file_name(o), o.body);
  }
  json values = json::object();
  for (const auto& v : r.values) values[v.name] = v.text;
  write_file(dir / "values.json", values.dump(1));

  json sections = json::array();
  for (const auto& s : sections_)
    if (!s.id.empty()) sections.push_back({{"id", s.id}, {"title", s.title}});
  const json claims = claims_json(r);
  // Which claims asked both PyTorch records about which answer: the versions page names, beside
  // each answer that changed between 1.13 and 2.6, the claims that rely on it.
  json pytorch = json::array();
  for (const PytorchRecord* record : PytorchRecord::loaded()) {
    if (record->earlier() == nullptr) continue;
    json compared = json::object();
    for (const auto& [key, ids] : record->version_uses()) compared[key] = ids;
    pytorch.push_back({{"chapter", record->chapter()},
                       {"torch", record->torch()},
                       {"earlier_torch", record->earlier()->torch()},
                       {"compared", compared}});
  }
  const json report = {{"format", 1},
                       {"chapter", id_},
                       {"title", title_},
                       {"source", source_},
                       {"provenance", provenance_json(r.provenance)},
                       {"sections", sections},
                       {"claims", claims},
                       {"outputs", outputs},
                       {"values", values},
                       {"pytorch_versions", pytorch}};
  // Written last: a report is never older than the fragments it lists.
  write_file(dir / "report.json", report.dump(1));
}

int Chapter::main(int argc, char** argv) const {
  const std::string usage =
      "usage: " + std::string(argc ? argv[0] : "chapter") +
      " [--emit DIR | --list | --claim ID | --show ID | --exhibits] [--kind exact,model,...]"
      " [--statuses] [--report FILE]\n"
      "  --kind K,...  run (or list) only the claims of these kinds (exact, model, timing, gpu, quoted)\n"
      "  --claim ID    run one claim; exit 0 passed, 1 failed, 77 not run or inconclusive (the ID\n"
      "                in any case: vw-02 is VW-02)\n"
      "  --show ID     print the claim's statement and its check's source, listing included\n"
      "  --exhibits    run only the exhibits (outputs of no claim); with --list, list them\n"
      "  --statuses    print one line per claim, \"ID<tab>status\", instead of the report\n"
      "  --report FILE write the claims that ran, with the machine's provenance, as JSON (a\n"
      "                recorded run: tools/gpu/record.py reads it)\n";
  std::optional<std::string> emit_dir, only, report_file, show;
  std::vector<Kind> kinds;
  bool list = false, statuses = false, exhibits = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--list") {
      list = true;
    } else if (a == "--exhibits") {
      // The per-claim ctest tests run no exhibit (--claim): one test per chapter runs them alone.
      exhibits = true;
    } else if (a == "--statuses") {
      statuses = true;
    } else if (a == "--kind" && i + 1 < argc) {
      // tools/book mutate runs the exact and model claims alone: the timings say nothing of a
      // broken rule and take most of a chapter's time.
      std::istringstream names(argv[++i]);
      for (std::string k; std::getline(names, k, ',');) {
        if (k == "exact") kinds.push_back(Kind::Exact);
        else if (k == "model") kinds.push_back(Kind::Model);
        else if (k == "timing") kinds.push_back(Kind::TimingCpu);
        else if (k == "gpu") kinds.push_back(Kind::TimingGpu);
        else if (k == "quoted") kinds.push_back(Kind::Quoted);
        else {
          std::cerr << "unknown kind '" << k << "'\n" << usage;
          return 2;
        }
      }
    } else if (a == "--report" && i + 1 < argc) {
      report_file = argv[++i];
    } else if ((a == "--emit" || a == "--claim") && i + 1 < argc) {
      (a == "--emit" ? emit_dir : only) = argv[++i];
    } else if (a == "--show" && i + 1 < argc) {
      show = argv[++i];
    } else if (a == "-h" || a == "--help") {
      std::cout << usage;
      return 0;
    } else {
      std::cerr << "unknown argument '" << a << "'\n" << usage;
      return 2;
    }
  }
  if (emit_dir && (only || !kinds.empty() || exhibits)) {
    // A partial report would look like a whole chapter to the embed tool.
    std::cerr << "--emit writes the whole chapter; it cannot be combined with --claim, --kind or "
                 "--exhibits\n";
    return 2;
  }
  if (exhibits && (only || !kinds.empty() || report_file)) {
    std::cerr << "--exhibits runs no claim; it cannot be combined with --claim, --kind or --report\n";
    return 2;
  }
  if (list && exhibits) {
    for (size_t i = 1; i <= exhibits_.size(); ++i) std::cout << "exhibit " << i << "\n";
    return 0;
  }
  if (list) {
    // With --kind, only those kinds: chapters/claim_tests.cmake learns which claims are timings so.
    for (const auto& c : claims_)
      if (selected(c, kinds))
        std::cout << c.id << "\t" << c.statement << "\n";
    return 0;
  }
  // A claim as the reader names it: in any case, or in another chapter's program.
  for (std::optional<std::string>* asked : {&only, &show}) {
    if (!*asked) continue;
    std::vector<std::string> ids;
    for (const auto& c : claims_) ids.push_back(c.id);
    if (auto id = match_claim_id(ids, **asked)) {
      **asked = *id;
      continue;
    }
    std::cerr << "no claim " << **asked << " in chapter " << id_;
    if (auto other = find_in_other_chapters(argc ? argv[0] : "", **asked))
      std::cerr << ": " << other->id << " is a claim of another chapter; run\n  " << other->program
                << " " << (asked == &show ? "--show " : "--claim ") << other->id << "\n";
    else
      std::cerr << " (see --list)\n";
    return 2;
  }
  if (show) {
    for (const auto& c : claims_)
      if (c.id == *show) std::cout << c.id << "  " << c.statement << "\n\n";
    const std::string text = claim_source(source_dir(), id_, *show);
    std::cout << (text.empty() ? "(its source was not found under " + source_dir() + ")\n" : text);
    return 0;
  }
  try {
    if (emit_dir) set_emit_dir(*emit_dir);  // charts are drawn only for the book (book/plot.h)
    const RunResult r = run(only, kinds, !exhibits);
    if (statuses) {
      for (const auto& c : r.claims) std::cout << c.def->id << "\t" << status_name(c.status) << "\n";
    } else {
      print(std::cout, r);
    }
    if (emit_dir) emit(*emit_dir, r);
    if (report_file) {
      // A part of a chapter, run on another machine: it names the claims it ran and nothing else,
      // so it cannot be taken for a whole chapter's report.
      const json report = {{"format", 1},
                           {"chapter", id_},
                           {"partial", only.has_value() || !kinds.empty()},
                           {"provenance", provenance_json(r.provenance)},
                           {"claims", claims_json(r)}};
      write_file(*report_file, report.dump(1));
    }
    // A full run has looked up every answer its checks compare: one left over was recorded for
    // no check. GPU claims that did not run here compare no recorded answer (the record holds
    // what torch answered on the CPU), so their absence cannot hide one.
    bool unused_answers = false;
    if (!only && kinds.empty() && !exhibits) {
      for (const PytorchRecord* record : PytorchRecord::loaded()) {
        for (const auto& answer : record->unused()) {
          std::cerr << "chapter " << id_ << ": PyTorch's recorded answer for " << answer
                    << " (" << record->source() << ") is compared by no check\n";
          unused_answers = true;
        }
      }
    }
    if (unused_answers) return 1;
    if (r.any_failed()) {
      // The build sends the report to a log (docs/CMakeLists.txt): say on stderr, where the build
      // shows it, which claims failed and which comparisons failed them.
      if (emit_dir) {
        for (const auto& c : r.claims) {
          if (c.status != Status::Failed) continue;
          std::cerr << "chapter " << id_ << ": claim " << c.def->id << " failed";
          if (!c.reason.empty()) std::cerr << ": " << c.reason;
          std::cerr << "\n";
          for (const auto& m : c.measurements)
            if (!m.ok)
              std::cerr << "  " << m.what << ": " << m.measured << " (expected " << m.expected
                        << ")\n";
        }
      }
      return 1;
    }
    // One claim, as its ctest test runs it: a claim that neither passed nor failed (not run on
    // this machine, or a timing too noisy to judge) is reported skipped, never passed.
    // A quoted claim whose arithmetic held exits 0: its check ran and held, and ctest has no
    // third word; the ledger and the page say *quoted*, never passed.
    if (only && !r.claims.empty() && r.claims[0].status != Status::Passed &&
        r.claims[0].status != Status::Quoted)
      return exit_skipped;
    return 0;
  } catch (const std::exception& e) {
    std::cerr << id_ << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace book
