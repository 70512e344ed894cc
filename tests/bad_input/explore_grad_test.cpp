// Bad input, part 10: --jsonl gradient requests ({"grad":...}, tools/explore/grad_request.h). A
// malformed request is bad input naming the field, what PyTorch refuses is its error, a request
// past a budget is refused naming the budget, and none crashes or allocates more than it was
// charged.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "expect_error.h"
#include "explore_support.h"
#include "grad_request.h"
#include "jsonl.h"

using namespace strided;
using namespace strided::explore;

using bad_input::check_contains;
using bad_input::error_message;

namespace {
std::string grad(const std::string& ops, const std::string& start = R"({"shape":[2,3],"dtype":"float64"})") {
  return R"({"grad":{"start":)" + start + R"(,"ops":[)" + ops + "]}}";
}
}  // namespace

TEST_CASE("a gradient request that is not an object, or lacks its start") {
  check_contains(error_message(R"({"grad":[1]})"), {"bad input: \"grad\" must be"});
  check_contains(error_message(R"({"grad":{"ops":[]}})"), {"bad input: grad needs \"start\""});
  check_contains(error_message(R"({"grad":{"start":{"shape":[2]},"ops":{}}})"),
                 {"bad input: grad.ops must be a list"});
  check_contains(error_message(R"({"grad":{"start":{"shape":[2]},"weights":[1]}})"),
                 {"grad takes \"start\" and \"ops\", not \"weights\""});
  check_contains(error_message(R"({"grad":{"start":{"shape":"x"}}})"),
                 {"bad input: start.shape must be a list of integers"});
}

TEST_CASE("a gradient request's ops name the field that is wrong") {
  check_contains(error_message(grad(R"({"op":"frob"})")), {"bad input: unknown op \"frob\""});
  check_contains(error_message(grad(R"({"op":"tensor_split","sections":1,"index":0})")),
                 {"bad input: grad: the op \"tensor_split\" has no gradient here"});
  check_contains(error_message(grad(R"({"op":"copy_","src":{"ops":[]}})")),
                 {"bad input: grad: the op \"copy_\" has no gradient here"});
  check_contains(error_message(grad(R"({"op":"add_","other":{"ops":[]}})")),
                 {"bad input: grad: add_.other must be a number, got {\"ops\":[]}"});
  check_contains(error_message(grad(R"({"op":"mul_"})")), {"bad input: mul_ needs \"other\""});
  check_contains(error_message(grad(R"({"op":"pow"})")), {"bad input: pow needs \"exponent\""});
  check_contains(error_message(grad(R"({"op":"pow","exponent":"2"})")),
                 {"bad input: pow.exponent must be a number, got \"2\""});
  check_contains(error_message(grad(R"({"op":"sum","dim":"0"})")),
                 {"bad input: sum.dim must be a list of integers"});
  check_contains(error_message(grad(R"({"op":"mean","dim":[0],"keepdim":1})")),
                 {"bad input: mean.keepdim must be true or false, got 1"});
  check_contains(error_message(grad(R"({"op":"sum","keepdim":true})")),
                 {"bad input: sum.keepdim needs sum.dim"});
  check_contains(error_message(grad(R"({"op":"exp","x":1})")),
                 {"bad input: grad: exp takes no field \"x\""});
  check_contains(error_message(grad(R"({"op":"select","dim":0})")),
                 {"bad input: select needs \"index\""});
  check_contains(error_message(grad(R"({"op":"sum","dim":[9223372036854775808]})")),
                 {"sum.dim does not fit in int64"});
}

TEST_CASE("a gradient request takes at most kMaxGradOps ops") {
  std::string ops;
  for (size_t i = 0; i <= kMaxGradOps; ++i) ops += std::string(i ? "," : "") + R"({"op":"t"})";
  check_contains(error_message(grad(ops)), {"bad input: grad.ops has 65 ops; at most 64"});
}

TEST_CASE("what PyTorch refuses in a gradient request is its error") {
  check_contains(error_message(grad("", R"({"shape":[2,3],"dtype":"int64"})")),
                 {"only Tensors of floating point dtype can require gradients"});
  check_contains(error_message(grad(R"({"op":"detach"})")),
                 {"element 0 of tensors does not require grad and does not have a grad_fn"});
  check_contains(error_message(grad(R"({"op":"sum","dim":[0,0]})")),
                 {"dim 0 appears multiple times in the list of dims"});
  check_contains(error_message(grad(R"({"op":"mean","dim":5})")), {"Dimension out of range"});
}

TEST_CASE("huge gradient requests are refused by the budgets") {
  check_contains(error_message(grad("", R"({"shape":[1048576,1048576]})")),
                 {"start.shape", "needs 1099511627776 elements"});
  // A view allocates nothing, but the weights and the gradient have its elements.
  check_contains(error_message(grad(R"({"op":"expand","shape":[4096,4096,4096]})",
                                    R"({"shape":[4096]})")),
                 {"grad: the weights", "per tensor"});
  // A sum over a dim of size 0 makes more elements than its input has.
  check_contains(error_message(grad(R"({"op":"sum","dim":0})", R"({"shape":[0,1073741824]})")),
                 {"sum: the result of sum", "per tensor"});
  // Every step fits, but backward's gradients, added to what the graph holds, do not.
  check_contains(error_message(grad(R"({"op":"expand","shape":[8,1000000]},{"op":"exp"})",
                                    R"({"shape":[1000000]})")),
                 {"elements"});
}

TEST_CASE("a gradient request allocates no more than it was charged") {
  const std::vector<std::string> lines = {
      grad(R"({"op":"t"},{"op":"exp"},{"op":"sum","dim":0,"keepdim":true},{"op":"pow","exponent":2.5})"),
      grad(R"({"op":"as_strided","size":[3,3],"stride":[1,1]},{"op":"mul_self"},{"op":"mean"})"),
      grad(R"({"op":"unsqueeze","dim":0},{"op":"expand","shape":[5,2,3]},{"op":"contiguous"},{"op":"flip","dims":[1]},{"op":"log"})"),
      grad(R"({"op":"unfold","dimension":1,"size":2,"step":1},{"op":"reshape","shape":[-1]},{"op":"mean","dim":[0]})"),
      grad(R"({"op":"diagonal"},{"op":"clone"},{"op":"exp"})", R"({"shape":[30,30],"dtype":"float32"})"),
      grad(R"({"op":"sum","dim":[0,2]})", R"({"shape":[0,3,4]})"),
  };
  for (const std::string& line : lines) {
    INFO(line);
    Meter m;
    const int64_t before = Storage::allocated_bytes();
    const std::string answer = answer_line(line, m);
    CHECK(answer.find("\"error\"") == std::string::npos);
    CHECK(Storage::allocated_bytes() - before <= m.charged_bytes());
  }
}

TEST_CASE("an in-place op PyTorch refuses under autograd is its error, in its words") {
  check_contains(error_message(grad(R"({"op":"zero_"})")),
                 {"a leaf Variable that requires grad is being used in an in-place operation."});
  check_contains(error_message(grad(R"({"op":"clone"},{"op":"unbind","index":1},{"op":"fill_","value":0})")),
                 {"Output 1 of UnbindBackward0 is a view and is being modified inplace."});
  check_contains(error_message(grad(R"({"op":"clone"},{"op":"split","split_size":1,"index":7})")),
                 {"tuple index out of range"});
  check_contains(error_message(grad(R"({"op":"clone"},{"op":"chunk","chunks":0,"index":0})")),
                 {"chunk expects `chunks` to be greater than 0, got: 0"});
}
