// The in-place ops of the expression language (add_, mul_, fill_, copy_, zero_, index_put_ and
// x[...] = v): their results and their refusals, against PyTorch 2.6's answers
// (tools/conformance/inplace_cases.py, with PyTorch 1.13's kept where it differs), and what the
// report says about a write.
#include <doctest/doctest.h>

#include "test_path.h"

#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "evaluate.h"
#include "expression.h"
#include "inplace.h"
#include "jsonl.h"
#include "report.h"

using namespace strided;
using namespace strided::explore;

namespace {

std::vector<nlohmann::json> inplace_cases(const char* kind) {
  std::ifstream in(strided::testing::test_path("STRIDED_INPLACE_CASES"));
  REQUIRE(in);
  std::vector<nlohmann::json> out;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) {
      nlohmann::json c = nlohmann::json::parse(line);
      if (c.contains(kind)) out.push_back(std::move(c));
    }
  return out;
}

void flatten_values(const nlohmann::json& v, std::vector<double>& out) {
  if (v.is_array()) {
    for (const auto& item : v) flatten_values(item, out);
  } else {
    out.push_back(v.get<double>());
  }
}

std::string write_error(const std::string& source) {
  try {
    evaluate(parse(source));
  } catch (const ExploreError& e) {
    return e.what();
  }
  return "no error";
}

std::string write_report(const std::string& source) {
  Meter m;
  const std::vector<StepResult> steps = evaluate(parse(source), m);
  return report(steps, m);
}

bool mentions(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("in-place expressions answer as PyTorch 2.6 does") {
  const std::vector<nlohmann::json> all = inplace_cases("expression");
  CHECK(all.size() >= 30);
  for (const nlohmann::json& c : all) {
    const std::string source = c["expression"];
    CAPTURE(source);
    if (c.contains("error")) {
      CHECK(write_error(source) == c["error"].get<std::string>());
      continue;
    }
    std::vector<double> expected;
    flatten_values(c["values"], expected);
    const std::vector<StepResult> steps = evaluate(parse(source));
    CHECK(steps.back().relation == StepResult::Relation::InPlace);
    CHECK(steps.back().tensor.to_vector() == expected);
  }
}

TEST_CASE("PyTorch 1.13 and 2.6 differ on two cases; the explorer follows 2.6") {
  std::map<std::string, nlohmann::json> differ;
  for (const nlohmann::json& c : inplace_cases("expression"))
    if (c.contains("expected_1_13")) differ[c["expression"]] = c["expected_1_13"];
  REQUIRE(differ.size() == 2);
  // 1.13 filled the stride-0 column; 2.6's setitem copies the value, and copy_ refuses.
  CHECK(differ.at("ones(1, 3).expand(4, 3)[:, 0] = 5").contains("values"));
  // 2.6 takes int32 indices too, and says so.
  CHECK(differ.at("arange(4.).index_put_((tensor([0.]),), tensor(1.))")["error"] ==
        "tensors used as indices must be long, byte or bool tensors");
}

TEST_CASE("an in-place step returns self, and the steps sharing its storage see the write") {
  const std::string r = write_report("arange(12).view(3, 4)[:, 0].fill_(7)");
  CHECK(mentions(r, "step 4: arange(12).view(3, 4)[:, 0].fill_(7)\n"));
  CHECK(mentions(r, "memory          in place: writes into step 3's elements and returns that tensor "
               "(self), nothing copied\n"));
  CHECK(mentions(r, "values after the write\n    tensor([7, 7, 7])\n"));
  CHECK(mentions(r, "seen by         steps 1, 2, which share its storage\n"));
  CHECK(mentions(r, "step 1 after the write\n    tensor([ 7,  1,  2,  3,  7,  5,  6,  7,  7,  9, 10, "
               "11])\n"));
  // Each earlier step shows its values as they were when it ran.
  CHECK(mentions(r, "  values\n    tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11])\n"));
  CHECK(mentions(r, "  values\n    tensor([0, 4, 8])\n"));
}

TEST_CASE("x[...] = v shows x after the write, and the step names the assignment") {
  const std::vector<StepResult> steps = evaluate(parse("arange(12).view(3, 4)[:, 0] = 5"));
  REQUIRE(steps.size() == 3);
  CHECK(steps[2].text == "arange(12).view(3, 4)[:, 0] = 5");
  CHECK(steps[2].tensor.sizes() == Shape{3, 4});
  CHECK(steps[2].seen_by == std::vector<size_t>{1, 0});
  CHECK(steps[0].before_write.to_vector() ==
        std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  const std::string r = write_report("arange(12).view(3, 4)[:, 0] = 5");
  CHECK(mentions(r, "in place: writes into step 2's elements"));
  CHECK(mentions(r, "seen by         step 1, which shares its storage\n"));
}

TEST_CASE("a tensor argument runs first, reported as steps of its own") {
  const std::vector<StepResult> steps = evaluate(parse("arange(3.).add_(ones(3))"));
  REQUIRE(steps.size() == 3);
  CHECK(steps[1].text == "ones(3)");
  CHECK(steps[2].relation == StepResult::Relation::InPlace);
  CHECK(steps[2].seen_by.front() == 0);
  CHECK(steps[2].tensor.to_vector() == std::vector<double>{1, 2, 3});
  // The chain goes on from self.
  CHECK(evaluate(parse("arange(4.).mul_(2).view(2, 2)")).back().tensor.to_vector() ==
        std::vector<double>{0, 2, 4, 6});
}

TEST_CASE("only an indexing can be assigned to, and only at the end") {
  CHECK(write_error("arange(4).t() = 3") ==
        "cannot assign to a function call: only x[...] = value writes into a tensor");
  CHECK(write_error("arange(4).T = 3") ==
        "cannot assign to an attribute: only x[...] = value writes into a tensor");
  CHECK(write_error("arange(4)[0] = 3 = 4") == "unexpected '=' after the expression");
  CHECK(write_error("arange(4)[0] = ") == "expected a value, found end of input");
  CHECK(write_error("arange(4)[0] = 'a'") ==
        "setitem(): argument 'value' must be Tensor or Number, not str");
  CHECK(write_error("arange(4)[:, [0]] = 1") ==
        "x[...] = value with lists of integers takes lists alone here (x[[0, 2]] = v, "
        "x[[0, 1], [2, 0]] = v): write x.index_put_ for the others");
}

TEST_CASE("in-place arguments bind as PyTorch's") {
  CHECK(write_error("arange(4.).add_(ones(4), 2)") ==
        "add_() takes 1 positional argument but 2 were given");
  CHECK(write_error("arange(4.).copy_(2)") == "copy_(): argument 'src' must be Tensor, not int");
  CHECK(write_error("arange(4.).index_put_((tensor([0]),), 1.0)") ==
        "index_put_(): argument 'values' must be Tensor, not float");
  CHECK(write_error("arange(4.).index_put_(tensor([0]), tensor(1.))") ==
        "index_put_(): argument 'indices' (position 1) must be tuple of Tensors, not Tensor");
  CHECK(write_error("arange(4.).index_put_((tensor([0.]),), tensor(1.))") ==
        "tensors used as indices must be long, int, byte or bool tensors");
}

TEST_CASE("torch_words drops the library's op name and layouts, keeping PyTorch's words") {
  CHECK(torch_words(Error("add",
                          "unsupported operation: more than one element of the written-to "
                          "tensor refers to a single memory location. Please clone() the "
                          "tensor before performing the operation. (written-to tensor "
                          "(4,3):(0,1))")) ==
        "unsupported operation: more than one element of the written-to tensor refers to a "
        "single memory location. Please clone() the tensor before performing the operation.");
  CHECK(torch_words(Error("",
                          "a leaf Variable that requires grad is being used in an in-place "
                          "operation.")) ==
        "a leaf Variable that requires grad is being used in an in-place operation.");
  // copy_'s refusal of a source that does not broadcast explains the broadcast's: PyTorch says
  // the latter's words.
  const Error broadcast("broadcast_shapes",
                        "The size of tensor a (3) must match the size of "
                        "tensor b (4) at non-singleton dimension 0");
  const Error copy("copy_()",
                   "source of shape [3] does not broadcast to the destination's shape [4]",
                   broadcast);
  CHECK(std::string(copy.what()) ==
        "copy_(): source of shape [3] does not broadcast to the destination's shape [4]: "
        "broadcast_shapes: The size of tensor a (3) must match the size of tensor b (4) at "
        "non-singleton dimension 0");
  CHECK(torch_words(copy) == broadcast.message());
}

TEST_CASE("--jsonl: an in-place op answers self, and the start tensor after the write") {
  const nlohmann::json a = nlohmann::json::parse(answer_line(
      R"({"start":{"shape":[3,4],"dtype":"int64"},"ops":[{"op":"select","dim":1,"index":0},)"
      R"({"op":"fill_","value":7}]})"));
  const nlohmann::json& r = a["results"][1];
  CHECK(r["shape"] == nlohmann::json::array({3}));
  CHECK(r["stride"] == nlohmann::json::array({4}));
  CHECK(r["shares_prev"] == true);
  CHECK(r["in_place"] == true);
  CHECK(r["values"] == nlohmann::json::array({7, 7, 7}));
  CHECK(r["start_values"] == nlohmann::json::array({7, 1, 2, 3, 7, 5, 6, 7, 7, 9, 10, 11}));
  // index_put_ with accumulate, its values a chain of their own (arange(3) as float32).
  const nlohmann::json b = nlohmann::json::parse(answer_line(
      R"({"start":{"shape":[6]},"ops":[{"op":"index_put_","indices":[[0,2,2]],)"
      R"("values":{"start":{"shape":[3]}},"accumulate":true}]})"));
  CHECK(b["results"][0]["values"] == nlohmann::json::array({0.0, 1.0, 5.0, 3.0, 4.0, 5.0}));
}

TEST_CASE("--jsonl: an operand without a start is a view of the chain's start, and may overlap") {
  const auto message = [](const std::string& line) {
    const nlohmann::json a = nlohmann::json::parse(answer_line(line));
    return a["results"].back().value("message", std::string());
  };
  const std::string overlap =
      "unsupported operation: some elements of the input tensor and the written-to tensor refer "
      "to a single memory location. Please clone() the tensor before performing the operation.";
  CHECK(message(R"({"start":{"shape":[5]},"ops":[{"op":"slice","start":1},)"
                R"({"op":"copy_","src":{"ops":[{"op":"slice","stop":-1}]}}]})") == overlap);
  CHECK(message(R"({"start":{"shape":[5]},"ops":[{"op":"slice","start":1},)"
                R"({"op":"add_","other":{"ops":[{"op":"slice","stop":-1}]}}]})") == overlap);
  CHECK(message(R"({"start":{"shape":[1,3]},"ops":[{"op":"expand","shape":[4,3]},)"
                R"({"op":"add_","other":1}]})") ==
        "unsupported operation: more than one element of the written-to tensor refers to a single "
        "memory location. Please clone() the tensor before performing the operation.");
  CHECK(message(R"({"start":{"shape":[3],"dtype":"int64"},"ops":[{"op":"add_","other":1.5}]})") ==
        "result type Float can't be cast to the desired output type Long");
  CHECK(message(R"({"start":{"shape":[3]},"ops":[{"op":"mul_","other":{"start":{"shape":[2,3]}}}]})") ==
        "output with shape [3] doesn't match the broadcast shape [2, 3]");
  CHECK(message(R"({"start":{"shape":[4]},"ops":[{"op":"index_put_","indices":[[5]],"values":1}]})") ==
        "index 5 is out of bounds for dimension 0 with size 4");
}

TEST_CASE("gradient requests with in-place ops answer as PyTorch 2.6 does") {
  const std::vector<nlohmann::json> all = inplace_cases("grad");
  CHECK(all.size() >= 10);
  for (const nlohmann::json& c : all) {
    const std::string line = nlohmann::json{{"grad", c["grad"]}}.dump();
    CAPTURE(line);
    const nlohmann::json a = nlohmann::json::parse(answer_line(line));
    if (c.contains("error")) {
      CHECK(a.value("message", std::string()) == c["error"].get<std::string>());
      continue;
    }
    REQUIRE(a.contains("values"));
    std::vector<double> expected, got;
    flatten_values(c["values"], expected);
    flatten_values(a["values"], got);
    CHECK(got == expected);
  }
}
