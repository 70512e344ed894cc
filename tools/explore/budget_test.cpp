// The explorer's budgets: what they are, that a report stays within the print budget, and that the
// meter's charges bound what the ops then allocate, over a request of every kind. Each budget's
// refusals are in the catalogue of bad inputs (tests/bad_input/explore_budgets_test.cpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "budget.h"
#include "evaluate.h"
#include "expression.h"
#include "jsonl.h"
#include "report.h"
#include "strided/tensor/storage.h"

using namespace strided;
using namespace strided::explore;

namespace {

// The message of the error an expression ends in, or "" when it evaluates.
std::string expression_error(const std::string& source) {
  try {
    Meter m;
    evaluate(parse(source), m);
  } catch (const ExploreError& e) {
    return e.what();
  }
  return "";
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace

TEST_CASE("the tensor budget: one tensor of more than 2^24 elements") {
  const std::string e = expression_error("zeros(4097, 4096)");
  CHECK(e.find("zeros: a tensor of shape [4097, 4096] needs 16781312 elements") !=
        std::string::npos);
  CHECK(e.find("allocates at most 16777216 (2^24) per tensor") != std::string::npos);
}

TEST_CASE("--help states every budget") {
  const std::string help = budgets_help();
  for (const char* piece : {"tensor  16777216 (2^24)", "memory  50331648 (3 x 2^24)",
                            "work    67108864 (2^26)", "print   65536 (2^16)"})
    CHECK_MESSAGE(help.find(piece) != std::string::npos, piece);
}

TEST_CASE("a long expression prints a bounded report") {
  // 1000 steps of 256 values: the first steps print in full, later ones without their values
  // and pictures, and the last ones not at all.
  Meter m;
  const std::string text = report(evaluate(parse("arange(256)" + repeat(".t()", 1000)), m), m);
  CHECK(text.find("not shown: the print budget of 65536 numbers per request is spent") !=
        std::string::npos);
  CHECK(text.size() < 1000000);
}

TEST_CASE("the meter's charges bound what the ops allocate") {
  const std::vector<std::string> expressions = {
      "arange(24).reshape(2, 3, 4).permute(2, 0, 1).contiguous()",
      "arange(24, dtype=torch.float16).view(4, 6).t().reshape(24).flip(0)",
      "zeros(3, 4, dtype=torch.bfloat16).to(torch.float64).clone()",
      "empty_strided((2, 3), (10, 2))[:, ::2]",
      "rand(3, 4, seed=1)[[0, 2]][:, [1, 1, 3]]",
      "randn(5, dtype=torch.float64).unsqueeze(0).expand(3, 5).flatten()",
      "tensor([[1, 2], [3, 4]]).mT.contiguous()",
      "ones(2, 3).T.reshape(6)",
      // In place: the values kept before a write, operands converted, a number made a tensor.
      "arange(12.).view(3, 4)[:, 0].add_(ones(3, dtype=torch.float16), alpha=2)",
      "arange(6).view(2, 3)[0] = tensor([1.5, 2, 3])",
      "arange(6.).index_put_((tensor([0, 2]),), tensor([5., 6.]), accumulate=True)",
      "arange(4).view(2, 2).t().copy_(ones(2, 2, dtype=torch.float64))",
      "arange(4.)[[0, 3]] = 9",
  };
  for (const std::string& source : expressions) {
    INFO(source);
    Meter m;
    const int64_t before = Storage::allocated_bytes();
    evaluate(parse(source), m);
    CHECK(Storage::allocated_bytes() - before <= m.charged_bytes());
  }
  const std::vector<std::string> lines = {
      R"({"start":{"shape":[2,3,4],"dtype":"int32"},"ops":[{"op":"permute","dims":[2,0,1]},{"op":"reshape","shape":[24]},{"op":"clone"}]})",
      R"({"start":{"shape":[4,1]},"ops":[{"op":"expand","shape":[4,5]},{"op":"contiguous"},{"op":"flip","dims":[0]}]})",
      R"({"unary":"exp","x":{"start":{"shape":[3,4],"dtype":"int64"},"ops":[{"op":"t"}]}})",
      R"({"unary":"add_scalar","x":{"start":{"shape":[0]}}})",
      R"({"unary":"empty_like","x":{"start":{"shape":[3,4]},"ops":[{"op":"t"}]}})",
      R"({"binary":"div","x":{"start":{"shape":[3,1],"dtype":"int32"}},"y":{"start":{"shape":[4],"dtype":"bfloat16"}}})",
      R"({"binary":"add","x":{"start":{"shape":[3,4],"dtype":"float64"},"ops":[{"op":"t"}]},"y":{"start":{"shape":[3],"dtype":"float16"}}})",
      R"({"matmul":{"a_shape":[4,1,2,3],"b_shape":[1,5,3,2],"dtype":"bfloat16"}})",
      R"({"matmul":{"a_shape":[2,3,4],"b_shape":[4],"dtype":"int64"}})",
      R"({"matmul":{"a_shape":[3],"b_shape":[2,3,4]}})",
      R"({"start":{"shape":[2,4]},"ops":[{"op":"t"},{"op":"copy_","src":{"ops":[{"op":"flip","dims":[0]},{"op":"t"}]}},{"op":"mul_","other":{"start":{"shape":[2],"dtype":"int64"}}}]})",
      R"({"start":{"shape":[6]},"ops":[{"op":"index_put_","indices":[[0,5]],"values":2.5},{"op":"fill_","value":1}]})",
      R"({"grad":{"start":{"shape":[2,3],"dtype":"float64"},"ops":[{"op":"mul_self"},{"op":"select","dim":0,"index":1},{"op":"add_","other":1,"alpha":2}]}})",
  };
  for (const std::string& line : lines) {
    INFO(line);
    Meter m;
    const int64_t before = Storage::allocated_bytes();
    const std::string answer = answer_line(line, m);
    CHECK(answer.find("\"error\"") == std::string::npos);
    CHECK(Storage::allocated_bytes() - before <= m.charged_bytes());
  }
  // Refused after some ops ran: what those ops allocated was charged before they ran (each line
  // was found by fuzz/grad_requests.cpp allocating more than its charge).
  const std::vector<std::string> refused = {
      R"({"start":{"dtype":"float32","shape":[]},"ops":[{"op":"atleast_1d"},{"op":"index_put_","indices":[[1]],"values":4}]})",
      R"({"start":{"dtype":"complex128","shape":[1,2,2]},"ops":[{"op":"mH"},{"op":"clone"},{"op":"slice","dim":3}]})",
      R"({"grad":{"start":{"dtype":"complex128","shape":[2,3,3]},"ops":[{"op":"conj_physical"},{"op":"select","dim":0,"index":2}]}})",
      R"({"grad":{"start":{"dtype":"complex64","shape":[4,3]},"ops":[{"op":"t"},{"op":"flatten"},{"op":"split","split_size":[-3,-1,-1],"index":0}]}})",
      R"({"grad":{"start":{"dtype":"float32","shape":[]},"ops":[{"op":"clone"},{"op":"mul_","other":-1},{"op":"swapdims","dim0":5,"dim1":-3}]}})",
      // Complex arithmetic runs on the real and imaginary parts, with their temporaries.
      R"({"grad":{"start":{"shape":[],"dtype":"complex128"},"ops":[{"op":"mul_self"},{"op":"view_as_complex"}]}})",
      R"({"grad":{"start":{"dtype":"complex64","shape":[]},"ops":[{"op":"mean","dim":[]},{"op":"broadcast_to","shape":[-3,1,-2]}]}})",
  };
  for (const std::string& line : refused) {
    INFO(line);
    Meter m;
    const int64_t before = Storage::allocated_bytes();
    const std::string answer = answer_line(line, m);
    CHECK(answer.find("\"error\"") != std::string::npos);
    CHECK(Storage::allocated_bytes() - before <= m.charged_bytes());
  }
}
