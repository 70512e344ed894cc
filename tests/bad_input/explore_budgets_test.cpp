// Bad input, part 9: requests to strided-explore past one of its budgets (tools/explore/budget.h).
// Each is refused before the op runs, and its message names the op, what it would have made, the
// numbers, and the budget; hostile requests the budgets let through are answered.
#include <chrono>
#include <string>

#include "evaluate.h"
#include "expect_error.h"
#include "explore_support.h"
#include "expression.h"
#include "jsonl.h"
#include "report.h"

using namespace strided::explore;
using bad_input::check_contains;
using bad_input::error_message;
using bad_input::marked;
using bad_input::run;

namespace {
std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}
}  // namespace

TEST_CASE("a copy past the memory budget: an expression keeps every step") {
  // Three 2^24-element tensors fit, the fourth does not.
  const std::string source = "zeros(4096, 4096).clone().clone().clone()";
  CHECK_ERROR(run(source), "clone: the copy of (4096,4096):(4096,1) needs 16777216 elements",
              "while the request holds 50331648",
              "holds at most 50331648 (3 x 2^24) elements at once per request (its memory budget)");
  CHECK(marked(source) == "clone()");
}

TEST_CASE("a copy past the work budget: float16 elements cost four") {
  CHECK_ERROR(run("zeros(4096, 4096, dtype=torch.float16).flip(0)"),
              "flip: the copy of (4096,4096):(4096,1) costs 67108868 element operations",
              "after the 16777220 this request has spent",
              "work budget is 67108864 (2^26) element operations per request");
}

TEST_CASE("a chain of clones past the work budget, each kept only until the next") {
  std::string line = R"({"start":{"shape":[4194304],"dtype":"int32"},"ops":[)";
  for (int i = 0; i < 2000; ++i) line += std::string(i ? "," : "") + R"({"op":"clone"})";
  check_contains(error_message(line + "]}"),
                 {"clone: the copy of (4194304,):(1,) costs 4194305 element operations",
                  "work budget is 67108864 (2^26)"});
}

TEST_CASE("a matmul past the work budget in the integer loop") {
  // 2^30 int64 multiply-adds; the same product in BLAS is answered.
  check_contains(
      error_message(R"({"matmul":{"a_shape":[1024,1024],"b_shape":[1024,1024],"dtype":"int64"}})"),
      {"matmul: the product of (1024,1024):(1024,1) and (1024,1024):(1024,1) costs 537921536 "
       "element operations",
       "work budget"});
}

TEST_CASE("a batched matmul past the work budget by its batches") {
  // 2^20 batches of (1,1)x(1,1): each 2-D product costs its setup.
  check_contains(error_message(R"({"matmul":{"a_shape":[1048576,1,1],"b_shape":[1048576,1,1]}})"),
                 {"matmul: the product of (1048576,1,1):(1,1,1) and (1048576,1,1):(1,1,1) costs",
                  "work budget"});
}

TEST_CASE("a matmul whose broadcast batch is copied past the tensor budget") {
  // (64,1,1,16384) broadcast against (1,64,16384,1): torch.matmul expands a to (64,64,1,16384)
  // and copies it to fold the batch, 2^26 elements.
  check_contains(
      error_message(R"({"matmul":{"a_shape":[64,1,1,16384],"b_shape":[1,64,16384,1]}})"),
      {"matmul: the product of (64,1,1,16384):(16384,16384,16384,1) and "
       "(1,64,16384,1):(1048576,16384,1,1) needs 67108864 elements",
       "allocates at most 16777216 (2^24) per tensor"});
}

TEST_CASE("a matmul with an empty result of 2^63-1 batches is answered at once") {
  // torch: shape [9223372036854775807, 0, 0], strides (1, 1, 1).
  const Json a = Json::parse(answer_line(
      R"({"matmul":{"a_shape":[9223372036854775807,0,1],"b_shape":[9223372036854775807,1,0]}})"));
  CHECK(a["shape"] == Json::array({INT64_MAX, 0, 0}));
  CHECK(a["stride"] == Json::array({1, 1, 1}));
}

TEST_CASE("a chain past the print budget") {
  // Each result writes its 256 values and its layout; of 400 of them, the 249th is the last the
  // budget of numbers holds.
  std::string line = R"({"start":{"shape":[16,16]},"ops":[)";
  for (int i = 0; i < 400; ++i) line += std::string(i ? "," : "") + R"({"op":"t"})";
  check_contains(error_message(line + "]}"),
                 {"t: the answer writes 264 numbers and the request has 64 left",
                  "print budget is 65536 (2^16) numbers per request"});
}

TEST_CASE("a tensor PyTorch would print in full is shown without its values") {
  // ones(2, ..., 2) with 24 dims: PyTorch's summary shortens only dims longer than 6, so its print
  // writes all 2^24 values.
  Meter m;
  const std::string text = report(evaluate(parse("ones(" + repeat("2, ", 23) + "2)"), m), m);
  CHECK(text.find("not printed: PyTorch's print shows 16777216 of its 16777216 elements, with") !=
        std::string::npos);
  CHECK(text.find("of the print budget (65536 numbers per request) left") != std::string::npos);
}

TEST_CASE("empty and zeros whose byte count overflows before a size of 0") {
  // torch: torch.empty(2**63-1, 2**63-1, 0) raises "Storage size calculation overflowed with
  // sizes=[9223372036854775807, 9223372036854775807, 0]" (c10's product counts the overflow
  // before the 0); torch.empty(2**63-1, 2, 0) is a tensor with no elements.
  CHECK_ERROR(run("empty(9223372036854775807, 9223372036854775807, 0)"),
              "empty: Storage size calculation overflowed with sizes=[9223372036854775807, "
              "9223372036854775807, 0]");
  CHECK_ERROR(run("zeros(9223372036854775807, 9223372036854775807, 0)"),
              "zeros: Storage size calculation overflowed");
  // torch: "numel: integer multiplication overflow"
  CHECK_ERROR(run("empty_strided((9223372036854775807, 9223372036854775807, 0), (1, 1, 1))"),
              "empty_strided: numel: integer multiplication overflow");
  CHECK(evaluate(parse("empty(9223372036854775807, 2, 0)")).back().tensor.strides() ==
        strided::Shape{2, 1, 1});
}

TEST_CASE("layouts whose reach overflows are answered without undefined behaviour") {
  // (3,0):(2^63-1,1) has no elements: its extent is empty, whatever (3-1)*(2^63-1) would be.
  CHECK(evaluate(parse("arange(6).as_strided((3,0),(9223372036854775807,1))")).back().tensor.numel() ==
        0);
  // A byte stride of 2^62 * 4 on a dim of size 1, through the compute engine.
  const Json a = Json::parse(answer_line(
      R"({"unary":"neg","x":{"start":{"shape":[4]},"ops":[{"op":"as_strided","size":[1,2],)"
      R"("stride":[4611686018427387904,2]}]}})"));
  CHECK(a["values"] == Json::array({-0.0, -2.0}));
}

TEST_CASE("a view whose wrapped stride is negative, in the explorer") {
  // slice's stride 2^62 * 3 wraps to -2^62; torch: "as_strided: Negative strides are not supported
  // at the moment, got strides: [-4611686018427387904, 1]".
  CHECK_ERROR(run("arange(100).as_strided((1,2),(4611686018427387904,1))[::3]"),
              "index(): Negative strides are not supported at the moment, got strides: "
              "[-4611686018427387904, 1]");
  // torch 1.13 refuses the diagonal itself (stride 2 * (2^63-1) wraps to -2), before any clone.
  CHECK_ERROR(run("arange(1).as_strided((1,1),(9223372036854775807,9223372036854775807))"
                  ".diagonal().clone()"),
              "diagonal(): Negative strides are not supported at the moment, got strides: [-2]");
}

TEST_CASE("a JSON line with a key given twice") {
  check_contains(error_message(R"({"start":{"shape":[2]},"start":{"shape":[3]},"ops":[]})"),
                 {"bad input: the key \"start\" appears twice in one object"});
  check_contains(error_message(R"({"start":{"shape":[2]},"ops":[{"op":"t","op":"flip"}]})"),
                 {"the key \"op\" appears twice"});
}

TEST_CASE("a JSON line of 90,000 keys is read in linear time") {
  // An object whose keys are searched one by one took seconds for this line.
  std::string line = "{";
  for (int i = 0; i < 90000; ++i) line += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  line += "}";
  const auto start = std::chrono::steady_clock::now();
  check_contains(error_message(line), {"bad input: unknown request"});
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}
