// Bad input, part 7: expressions a reader may type into strided-explore. Each is refused with an
// error naming what is wrong and the offending text, and with the span the caret will mark.
#include <string>

#include "evaluate.h"
#include "expect_error.h"
#include "expression.h"

using namespace strided::explore;

namespace {
// Parses and evaluates, as the program does.
void run(const std::string& source) { evaluate(parse(source)); }

// The span an ExploreError points at, as the text it covers.
std::string marked(const std::string& source) {
  try {
    run(source);
  } catch (const ExploreError& e) {
    const Span s = e.span();
    REQUIRE(s.begin <= s.end);
    REQUIRE(s.end <= source.size());
    return source.substr(s.begin, s.end - s.begin);
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("an unclosed argument list") {
  CHECK_ERROR(run("arange(24"), "expected ',' or ')' in the argument list", "end of input");
}

TEST_CASE("an unknown factory, with a suggestion") {
  CHECK_ERROR(run("arrange(3)"), "unknown factory 'arrange'", "did you mean arange?");
  CHECK(marked("arrange(3)") == "arrange");
}

TEST_CASE("an unknown method") {
  CHECK_ERROR(run("arange(3).frobnicate()"), "unknown method 'frobnicate'");
  CHECK(marked("arange(3).frobnicate()") == "frobnicate");
}

TEST_CASE("a character the language does not have") {
  CHECK_ERROR(run("arange(3) $"), "unexpected character '$'");
  CHECK_ERROR(run("arange(1<<30)"), "unexpected character '<'");
}

TEST_CASE("an integer literal past int64") {
  CHECK_ERROR(run("arange(99999999999999999999)"), "99999999999999999999",
              "does not fit in 64 bits");
}

TEST_CASE("an expression longer than the explorer reads") {
  const std::string source = "arange(3)" + std::string(kMaxExpressionLength, ' ');
  CHECK_ERROR(run(source), "4096");
}

TEST_CASE("nesting deeper than the explorer reads") {
  const std::string source = "tensor(" + std::string(100, '[') + "1" + std::string(100, ']') + ")";
  CHECK_ERROR(run(source), "nest");
}

TEST_CASE("an arange longer than the explorer allocates") {
  // strided-explore bounds every allocation (bounded_ops.h); the library alone would try.
  CHECK_ERROR(run("arange(1073741824)"), "arange(0, 1073741824, 1) needs 1073741824 elements",
              "allocates at most 16777216 (2^24) per tensor");
}

TEST_CASE("zeros larger than the explorer allocates") {
  CHECK_ERROR(run("zeros((1048576, 1048576))"), "zeros",
              "[1048576, 1048576] needs 1099511627776 elements", "allocates at most 16777216");
}

TEST_CASE("an empty_strided whose storage is larger than the explorer allocates") {
  CHECK_ERROR(run("empty_strided((2,2),(1099511627776,1))"), "empty_strided",
              "(2,2):(1099511627776,1) needs 1099511627778 elements");
}

TEST_CASE("a copy of an expanded view larger than the explorer allocates") {
  // The expand is a view and allocates nothing; its contiguous copy would hold 2^25 elements.
  CHECK_ERROR(run("arange(1).expand(33554432).contiguous()"), "contiguous",
              "the copy of (33554432,):(0,) needs 33554432 elements");
  CHECK(marked("arange(1).expand(33554432).contiguous()") == "contiguous()");
}

TEST_CASE("a library error points at the step that raised it") {
  CHECK_ERROR(run("arange(6).view(4,-1)"), "view(): shape '[4, -1]' is invalid for input of size 6");
  CHECK(marked("arange(6).view(4,-1)") == "view(4,-1)");
}

TEST_CASE("a slice step of 0 in an indexing") {
  CHECK_ERROR(run("arange(6)[::0]"), "index(): slice step cannot be zero");
}

TEST_CASE("a ragged tensor literal") {
  CHECK_ERROR(run("tensor([[1,2],[3]])"), "tensor()", "expected a sequence of length 2 at dim 1");
}

TEST_CASE("an unknown dtype") {
  CHECK_ERROR(run("arange(3, dtype=int8)"), "unknown dtype 'int8'", "float64");
}

TEST_CASE("a tensor literal an integer dtype cannot hold") {
  // torch: torch.tensor([1e30], dtype=torch.int64) raises "value cannot be converted to type int64
  // without overflow".
  CHECK_ERROR(run("tensor([1e30], dtype=int64)"), "from_values", "value 1e+30",
              "cannot be converted to type int64 without overflow");
}
