// The explorer's budgets: each one refuses, up front and naming itself, the request that would
// pass it; and the meter's charges bound what the ops then allocate, over a request of every kind.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "budget.h"
#include "evaluate.h"
#include "expression.h"
#include "jsonl.h"
#include "report.h"
#include "strided/storage.h"

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

std::string line_error(const std::string& line) {
  const Json a = Json::parse(answer_line(line));
  const Json& e = a.contains("results") ? a["results"].back() : a;
  return e.value("error", false) ? e["message"].get<std::string>() : "";
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

TEST_CASE("the memory budget: an expression keeps every step") {
  // Two 2^24-element tensors fit, the third does not: every step is kept for the report.
  const std::string e = expression_error("zeros(4096, 4096)" + repeat(".t().contiguous()", 2));
  CHECK(e.find("contiguous: the copy of (4096,4096):(1,4096) needs 16777216 elements while the "
               "request holds 33554432") != std::string::npos);
  CHECK(e.find("holds at most 33554432 (2^25) elements at once per request (its memory budget)") !=
        std::string::npos);
}

TEST_CASE("the work budget: copies add up, even when their results are not kept") {
  // A chain keeps only its start and last step, so memory stays within its budget; the work of
  // 2000 clones of a 2^23-element tensor does not.
  std::string line = R"({"start":{"shape":[8388608],"dtype":"int32"},"ops":[)";
  for (int i = 0; i < 2000; ++i) line += std::string(i ? "," : "") + R"({"op":"clone"})";
  const Json a = Json::parse(answer_line(line + "]}"));
  REQUIRE(a["results"].size() == 6);  // five clones, then the refusal
  const std::string e = a["results"].back()["message"].get<std::string>();
  CHECK(e.find("clone: the copy of (8388608,):(1,) costs 8388609 element operations") !=
        std::string::npos);
  CHECK(e.find("work budget is 67108864 (2^26) element operations per request") !=
        std::string::npos);
}

TEST_CASE("the work budget weighs matmul's kernels, batches and copies") {
  // 2^30 int64 multiply-adds in the plain loop: refused before it starts.
  std::string e = line_error(R"({"matmul":{"a_shape":[1024,1024],"b_shape":[1024,1024],)"
                             R"("dtype":"int64"}})");
  CHECK(e.find("matmul: the product of (1024,1024):(1024,1) and (1024,1024):(1024,1) costs") !=
        std::string::npos);
  CHECK(e.find("work budget") != std::string::npos);
  // The same product in BLAS is within the budget.
  CHECK(line_error(R"({"matmul":{"a_shape":[1024,1024],"b_shape":[1024,1024]}})").empty());
  // 2^22 batches of 1x1 products: each batch's setup counts.
  e = line_error(R"({"matmul":{"a_shape":[4194304,1,1],"b_shape":[4194304,1,1]}})");
  CHECK(e.find("work budget") != std::string::npos);
  // A batch broadcast by copying: (64,1,1,16384) expanded against (1,64,16384,1) is a copy of
  // 2^26 elements.
  e = line_error(R"({"matmul":{"a_shape":[64,1,1,16384],"b_shape":[1,64,16384,1]}})");
  CHECK(e.find("needs 67108864 elements; strided-explore allocates at most 16777216") !=
        std::string::npos);
  // An empty result costs nothing, however many batches it has.
  CHECK(line_error(R"({"matmul":{"a_shape":[9223372036854775807,0,1],)"
                   R"("b_shape":[9223372036854775807,1,0]}})")
            .empty());
}

TEST_CASE("the print budget: PyTorch's print of a tensor with many small dims") {
  // ones(2, ..., 2) with 24 dims: PyTorch's print shows all 2^24 elements, none of its dims being
  // longer than 6; the step is shown without its values.
  Meter m;
  const std::string text = report(evaluate(parse("ones(" + repeat("2,", 23) + "2)"), m), m);
  CHECK(text.find("values          not printed: PyTorch's print shows 16777216 of its 16777216 "
                  "elements") != std::string::npos);
  CHECK(text.size() < 2000);
  // In --jsonl a result's values count: 90000 ops of 256 values each are refused once the
  // budget is spent.
  std::string line = R"({"start":{"shape":[16,16]},"ops":[)";
  for (int i = 0; i < 90000; ++i) line += std::string(i ? "," : "") + R"({"op":"t"})";
  const std::string e = line_error(line + "]}");
  CHECK(e.find("t: the answer writes 264 numbers") != std::string::npos);
  CHECK(e.find("print budget is 65536 (2^16) numbers per request") != std::string::npos);
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
