#include "book/chapter.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "book/gpu.h"
#include "book/provenance.h"

namespace fs = std::filesystem;

namespace {
book::Chapter sample() {
  book::Chapter ch("99_sample", "Sample");
  ch.section("first", "First section");
  ch.claim("MT-10", "Fresh tensors are row-major.", [](book::Check& c) {
    c.equal("strides", std::vector<int64_t>{3, 1}, std::vector<int64_t>{3, 1});
    c.record("noise A vs A", 1.05);
    c.value("row_stride", 3);
    c.table("layout", {"dim", "stride"}, {{"0", "3"}, {"1", "1"}});
  });
  ch.erratum("ER-22", "strides in bits", "Byte strides are bytes.",
             [](book::Check& c) { c.equal("bytes", 12, 12); });
  ch.claim("PF-10", "A GPU claim.", [](book::Check& c) { c.equal("ran", true, true); })
      .needs_gpu();
  ch.exhibit([](book::Exhibit& e) { e.text("hello", "<b>not escaped here</b>"); });
  return ch;
}
}  // namespace

TEST_CASE("claim IDs follow the catalogue") {
  CHECK(book::valid_claim_id("MT-03"));
  CHECK(book::valid_claim_id("ER-03.memset"));
  CHECK_FALSE(book::valid_claim_id("mt-03"));
  CHECK_FALSE(book::valid_claim_id("MT-3"));
  book::Chapter ch("x", "x");
  ch.claim("MT-01", "s", [](book::Check&) {});
  CHECK_THROWS_AS(ch.claim("MT-01", "again", [](book::Check&) {}), std::invalid_argument);
  CHECK_THROWS_AS(ch.claim("bad", "s", [](book::Check&) {}), std::invalid_argument);
}

TEST_CASE("a GPU claim without a device is not run, with the reason, and never passed") {
  if (book::gpu().available) return;  // on a GPU machine it runs, which the next case covers
  const auto r = sample().run();
  REQUIRE(r.claims.size() == 3);
  CHECK(r.claims[2].status == book::Status::NotRun);
  CHECK_FALSE(r.claims[2].reason.empty());
  CHECK(r.claims[2].measurements.empty());
  CHECK_FALSE(r.any_failed());
}

TEST_CASE("a throwing check fails with the message") {
  book::Chapter ch("x", "x");
  ch.claim("MT-01", "s", [](book::Check&) { throw std::runtime_error("boom"); });
  const auto r = ch.run();
  CHECK(r.claims[0].status == book::Status::Failed);
  CHECK(r.claims[0].reason.find("boom") != std::string::npos);
  CHECK(r.any_failed());
}

TEST_CASE("a claim whose check only records values fails, saying it compared nothing") {
  book::Chapter ch("x", "x");
  ch.claim("PF-01", "s", [](book::Check& c) { c.record("median time A (s)", 0.25); });
  ch.claim("PF-02", "s", [](book::Check&) {});
  const auto r = ch.run();
  CHECK(r.claims[0].status == book::Status::Failed);
  CHECK(r.claims[0].reason == "the check compared nothing (it only recorded values)");
  CHECK(r.claims[1].status == book::Status::Failed);
  CHECK(r.claims[1].reason == "the check compared nothing");
  CHECK(r.any_failed());
}

TEST_CASE("--claim runs one claim and no exhibit") {
  const auto ch = sample();
  const auto r = ch.run("ER-22");
  REQUIRE(r.claims.size() == 1);
  CHECK(r.claims[0].def->id == "ER-22");
  CHECK(r.outputs.empty());
  CHECK(r.provenance.commit == "not read");  // no report is written: git is not asked
  CHECK(r.provenance.os.find("Linux") != std::string::npos);
}

namespace {
// Chapter::main with these arguments: its exit code and what it printed.
std::pair<int, std::string> run_main(const book::Chapter& ch, std::vector<std::string> args) {
  args.insert(args.begin(), "chapter");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream out;
  auto* old = std::cout.rdbuf(out.rdbuf());
  const int rc = ch.main(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(old);
  return {rc, out.str()};
}
}  // namespace

TEST_CASE("--claim exits 0 passed, 1 failed, and exit_skipped when the claim neither passed nor failed") {
  book::Chapter ch("x", "x");
  ch.claim("MT-01", "passes", [](book::Check& c) { c.equal("x", 1, 1); });
  ch.claim("MT-02", "fails", [](book::Check& c) { c.equal("x", 1, 2); });
  ch.claim("PF-01", "too noisy", [](book::Check& c) {
    c.record("noise A vs A", 1.6);
    c.inconclusive("noise 1.6 exceeds the tolerance 1.2");
  }).timing();
  ch.claim("PF-02", "records only", [](book::Check& c) { c.record("t", 1); }).timing();
  ch.claim("PF-10", "not run", [](book::Check& c) {
    c.not_run("no CUDA device");
    c.record("t", 1);
  }).needs_gpu();
  CHECK(book::exit_skipped == 77);  // ctest's SKIP_RETURN_CODE in chapters/CMakeLists.txt
  CHECK(run_main(ch, {"--claim", "MT-01"}).first == 0);
  CHECK(run_main(ch, {"--claim", "MT-02"}).first == 1);
  CHECK(run_main(ch, {"--claim", "PF-01"}).first == book::exit_skipped);
  CHECK(run_main(ch, {"--claim", "PF-02"}).first == 1);  // compared nothing: failed, not skipped
  CHECK(run_main(ch, {"--claim", "PF-10"}).first == book::exit_skipped);
  CHECK(run_main(ch, {}).first == 1);  // a whole chapter: 1 when any claim failed
}

TEST_CASE("--emit says on stderr which claim failed and on which comparison, for the build's log") {
  book::Chapter ch("02_views", "x");
  ch.claim("MT-01", "passes", [](book::Check& c) { c.equal("x", 1, 1); });
  ch.claim("MT-02", "fails", [](book::Check& c) {
    c.equal("kept", 1, 1);
    c.equal("chapter 02_views, t.t(): PyTorch 1.13 (recorded)", 2, 3);
  });
  const fs::path dir = fs::temp_directory_path() / "book_chapter_test_emit_failed";
  fs::remove_all(dir);
  std::ostringstream err;
  auto* old = std::cerr.rdbuf(err.rdbuf());
  const int rc = run_main(ch, {"--emit", dir.string()}).first;
  std::cerr.rdbuf(old);
  fs::remove_all(dir);
  CHECK(rc == 1);
  CHECK(err.str() == "chapter 02_views: claim MT-02 failed\n"
                     "  chapter 02_views, t.t(): PyTorch 1.13 (recorded): 2 (expected 3)\n");
}

TEST_CASE("--list with --kind lists only the claims of those kinds") {
  const auto ch = sample();
  CHECK(run_main(ch, {"--list"}).second ==
        "MT-10\tFresh tensors are row-major.\nER-22\tByte strides are bytes.\nPF-10\tA GPU claim.\n");
  CHECK(run_main(ch, {"--list", "--kind", "gpu"}).second == "PF-10\tA GPU claim.\n");
  CHECK(run_main(ch, {"--list", "--kind", "timing"}).second.empty());
}

TEST_CASE("an exact claim that needs a GPU answers to --kind gpu, not to --kind exact") {
  book::Chapter ch("99_sample", "Sample");
  ch.claim("MT-10", "Fresh tensors are row-major.", [](book::Check& c) { c.equal("x", 1, 1); });
  ch.claim("PF-11", "An exact GPU claim.", [](book::Check& c) { c.equal("ran", true, true); })
      .needs_gpu(book::Kind::Exact);
  CHECK(run_main(ch, {"--list", "--kind", "exact"}).second == "MT-10\tFresh tensors are row-major.\n");
  CHECK(run_main(ch, {"--list", "--kind", "gpu"}).second == "PF-11\tAn exact GPU claim.\n");
}

TEST_CASE("--exhibits runs the exhibits alone, and lists them with --list") {
  const auto ch = sample();
  CHECK(run_main(ch, {"--list", "--exhibits"}).second == "exhibit 1\n");
  const auto [rc, out] = run_main(ch, {"--exhibits"});
  CHECK(rc == 0);
  CHECK(out.find("[text hello]") != std::string::npos);
  CHECK(out.find("MT-10") == std::string::npos);
  const auto r = ch.run(std::nullopt, {}, false);
  CHECK(r.claims.empty());
  CHECK(r.outputs.size() == 1);
  book::Chapter none("x", "x");
  CHECK(run_main(none, {"--list", "--exhibits"}).second.empty());
}

TEST_CASE("--report writes only the claims that ran, with the provenance, marked partial") {
  const fs::path file = fs::temp_directory_path() / "book_chapter_test_report.json";
  fs::remove(file);
  const auto ch = sample();
  CHECK(run_main(ch, {"--kind", "gpu", "--report", file.string()}).first == 0);
  std::ifstream in(file);
  const auto report = nlohmann::json::parse(in);
  CHECK(report["chapter"] == "99_sample");
  CHECK(report["partial"] == true);
  REQUIRE(report["claims"].size() == 1);
  CHECK(report["claims"][0]["id"] == "PF-10");
  CHECK(report["claims"][0]["needs_gpu"] == true);
  // Where the report says it ran, the provenance says which device; where not, why not.
  CHECK(report["provenance"]["gpu"] == (book::gpu().available ? book::gpu().name : "no GPU"));
  CHECK(report["claims"][0]["status"] == (book::gpu().available ? "passed" : "not run"));
  fs::remove(file);
  CHECK(run_main(ch, {"--report", file.string()}).first == 0);
  std::ifstream whole(file);
  const auto all = nlohmann::json::parse(whole);
  CHECK(all["partial"] == false);
  CHECK(all["claims"].size() == 3);
  fs::remove(file);
  CHECK(run_main(ch, {"--exhibits", "--report", file.string()}).first == 2);
  CHECK_FALSE(fs::exists(file));
}

TEST_CASE("an output name used twice is refused") {
  book::Chapter ch("x", "x");
  ch.exhibit([](book::Exhibit& e) { e.text("a", "1"); });
  ch.claim("MT-01", "s", [](book::Check& c) {
    c.text("a", "2");
    c.equal("x", 1, 1);
  });
  const auto r = ch.run();
  CHECK(r.claims[0].status == book::Status::Failed);
  CHECK(r.claims[0].reason.find("twice") != std::string::npos);
}

TEST_CASE("--emit writes the report, the values and one file per output") {
  const fs::path dir = fs::temp_directory_path() / "book_chapter_test_emit";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "stale.svg") << "<svg/>";  // an output the chapter no longer makes
  const auto ch = sample();
  ch.emit(dir.string(), ch.run());
  CHECK_FALSE(fs::exists(dir / "stale.svg"));
  CHECK(fs::exists(dir / "hello.txt"));
  CHECK(fs::exists(dir / "layout.table.json"));
  std::ifstream in(dir / "report.json");
  const auto report = nlohmann::json::parse(in);
  CHECK(report["chapter"] == "99_sample");
  CHECK(report["claims"].size() == 3);
  CHECK(report["claims"][0]["status"] == "passed");
  CHECK(report["claims"][0]["measured"][0]["measured"] == "(3, 1)");
  // A comparison carries its expected value and verdict; a record says it was not compared and
  // carries neither, so nothing reading the report can count it as passed.
  CHECK(report["claims"][0]["measured"][0] ==
        nlohmann::json{{"what", "strides"}, {"measured", "(3, 1)"}, {"expected", "(3, 1)"},
                       {"compared", true}, {"ok", true}});
  CHECK(report["claims"][0]["measured"][1] ==
        nlohmann::json{{"what", "noise A vs A"}, {"measured", "1.05"}, {"compared", false}});
  CHECK(report["claims"][1]["seed_says"] == "strides in bits");
  CHECK(report["values"]["row_stride"] == "3");
  CHECK(report["provenance"].contains("commit"));
  CHECK(report["provenance"].contains("gpu"));
  std::ifstream hello(dir / "hello.txt");
  std::stringstream body;
  body << hello.rdbuf();
  CHECK(body.str() == "<b>not escaped here</b>");  // escaping is the embed tool's job
  fs::remove_all(dir);
}

TEST_CASE("the printed report shows marks, values and the totals") {
  const auto ch = sample();
  std::ostringstream out;
  ch.print(out, ch.run());
  const std::string s = out.str();
  CHECK(s.find("✓ MT-10") != std::string::npos);
  // A comparison that held says its value once; one that failed shows what was expected.
  CHECK(s.find("strides: (3, 1)   (as expected)") != std::string::npos);
  CHECK(s.find("noise A vs A: 1.05   (measured)") != std::string::npos);
  CHECK(s.find("3 claims:") != std::string::npos);
}

TEST_CASE("a comparison that failed prints what was expected beside what was measured") {
  book::Chapter ch("99_sample", "Sample");
  ch.claim("MT-10", "Fresh tensors are row-major.", [](book::Check& c) {
    c.equal("strides", std::vector<int64_t>{1, 2}, std::vector<int64_t>{3, 1});
  });
  std::ostringstream out;
  ch.print(out, ch.run());
  CHECK(out.str().find("✗ strides: (1, 2)   (expected (3, 1))") != std::string::npos);
}

TEST_CASE("the CPU model comes from /proc/cpuinfo's model name") {
  CHECK(book::cpu_model_from_cpuinfo("processor\t: 0\nmodel name\t: Intel(R) Xeon(R)  \nflags: x\n") ==
        "Intel(R) Xeon(R)");
  CHECK(book::cpu_model_from_cpuinfo("processor : 0\n").empty());
}

TEST_CASE("the caches come from sysfs: data and unified caches by level, instruction caches left out") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "book_caches_test";
  fs::remove_all(dir);
  auto index = [&](int i, const char* level, const char* type, const char* size) {
    const fs::path d = dir / ("index" + std::to_string(i));
    fs::create_directories(d);
    std::ofstream(d / "level") << level << "\n";
    std::ofstream(d / "type") << type << "\n";
    std::ofstream(d / "size") << size << "\n";
  };
  index(0, "1", "Data", "48K");
  index(1, "1", "Instruction", "32K");
  index(2, "2", "Unified", "2048K");
  CHECK(book::caches_from_sysfs(dir.string()) == "L1d 48K, L2 2048K");
  CHECK(book::caches_from_sysfs((dir / "missing").string()).empty());
  fs::remove_all(dir);
}

TEST_CASE("a quoted claim that holds is quoted, never passed; one that does not hold fails") {
  book::Chapter ch("x", "x");
  ch.claim("ER-12", "The seed's arithmetic.", [](book::Check& c) { c.equal("4 · 2048² / 2²⁰", 4 * 2048 * 2048 / (1 << 20), 16); })
      .quoted();
  ch.claim("ER-13", "Wrong arithmetic.", [](book::Check& c) { c.equal("2 + 2", 2 + 2, 5); }).quoted();
  const auto r = ch.run();
  CHECK(r.claims[0].status == book::Status::Quoted);
  CHECK(book::status_name(r.claims[0].status) == "quoted");
  CHECK(r.claims[1].status == book::Status::Failed);
  const auto only = ch.run(std::nullopt, {book::Kind::Quoted});
  CHECK(only.claims.size() == 2);
  CHECK(ch.run(std::nullopt, {book::Kind::Exact}).claims.empty());
}
