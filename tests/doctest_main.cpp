// doctest's implementation and main(), compiled once and linked into every unit test program
// (strided_add_tests in CMakeLists.txt): compiling them into each test source cost about 8 s a
// program.
//
// A folder's tests share one program, and each ctest test runs one source file's test cases
// (--source-file=*/name_test.cpp). A filter that selects no test case would pass without testing
// anything (a file renamed, a pattern mistyped), so this main fails a run that selected none.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

namespace {

unsigned g_selected = 0;  // test cases that passed the filters, counted at the end of the run
bool g_ran = false;       // a run took place (not --help, --list-test-cases, ...)

struct SelectedCount : doctest::IReporter {
  explicit SelectedCount(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override {
    g_ran = true;
    g_selected = stats.numTestCasesPassingFilters;
  }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

REGISTER_LISTENER("selected_count", 1, SelectedCount);

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int status = context.run();
  if (context.shouldExit() || status != 0) return status;
  if (g_ran && g_selected == 0) {
    std::fprintf(stderr, "no test case matched the filters: nothing was tested\n");
    return 1;
  }
  return 0;
}
