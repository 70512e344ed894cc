// The --jsonl expression request: each field is the run's, and says what the text report says.
#include <doctest/doctest.h>

#include <string>

#include "budget.h"
#include "evaluate.h"
#include "expression.h"
#include "jsonl.h"
#include "report.h"

using namespace strided::explore;

namespace {

Json ask_expression(const std::string& expression) {
  return Json::parse(answer_line(Json{{"expression", expression}}.dump()));
}

// What `strided-explore EXPRESSION` prints.
std::string printed_report(const std::string& expression) {
  Meter m;
  return report(evaluate(parse(expression), m), m);
}

}  // namespace

TEST_CASE("an expression answers one entry a step, with its text, dtype and values as printed") {
  const std::string e = "arange(24).reshape(2,3,4).permute(2,0,1)[1:, ::2]";
  const Json a = ask_expression(e);
  REQUIRE(a.contains("results"));
  const Json& r = a["results"];
  REQUIRE(r.size() == 4);
  CHECK(r[0]["text"] == "arange(24)");
  CHECK(r[2]["text"] == "arange(24).reshape(2,3,4).permute(2,0,1)");
  CHECK(r[3]["text"] == e);
  CHECK(r[3]["shape"].dump() == "[3,1,3]");
  CHECK(r[3]["stride"].dump() == "[1,24,4]");
  CHECK(r[3]["storage_offset"] == 1);
  CHECK(r[3]["is_contiguous"] == false);
  CHECK(r[3]["numel"] == 9);
  CHECK(r[3]["dtype"] == "int64");
  CHECK(r[3]["values"].dump() == "[1,5,9,2,6,10,3,7,11]");
  CHECK(r[3]["repr"] == "tensor([[[ 1,  5,  9]],\n\n        [[ 2,  6, 10]],\n\n"
                        "        [[ 3,  7, 11]]])");
  // The report is the program's, and each repr is the text under its step's "values".
  CHECK(a["report"] == printed_report(e));
  const std::string report = a["report"];
  for (const Json& step : r) {
    CHECK(report.find("step ") != std::string::npos);
    CHECK(report.find(": " + step["text"].get<std::string>() + "\n") != std::string::npos);
  }
  CHECK(report.find("    tensor([[[ 1,  5,  9]],\n\n            [[ 2,  6, 10]],") !=
        std::string::npos);
}

TEST_CASE("the layout fields mean what a chain result's mean") {
  const Json chain = Json::parse(answer_line(
      R"({"start":{"shape":[2,3,4],"dtype":"int64"},"ops":[{"op":"permute","dims":[2,0,1]},)"
      R"({"op":"contiguous"}]})"));
  const Json a = ask_expression("arange(24).view(2, 3, 4).permute(2, 0, 1).contiguous()");
  const Json& ours = a["results"];
  REQUIRE(ours.size() == 4);
  for (int i : {0, 1}) {
    const Json& theirs = chain["results"][i];
    const Json& step = ours[i + 2];
    for (const char* key : {"shape", "stride", "storage_offset", "is_contiguous", "shares_prev",
                            "numel", "values"})
      CHECK_MESSAGE(step[key] == theirs[key], key);
  }
  // The start is the first step: the chain's start tensor is the view of it.
  CHECK(ours[0]["shares_storage"] == true);
  CHECK(ours[0]["shares_prev"] == false);  // no step before it
  CHECK(ours[2]["shares_storage"] == true);
  CHECK(ours[3]["shares_storage"] == false);
}

TEST_CASE("memory says what each step did, in one word") {
  Json r = ask_expression("arange(6).view(2, 3).t().contiguous().contiguous()")["results"];
  REQUIRE(r.size() == 5);
  CHECK(r[0]["memory"] == "new");
  CHECK(r[1]["memory"] == "view");
  CHECK(r[3]["memory"] == "copy");
  CHECK(r[4]["memory"] == "self");
  r = ask_expression("arange(6).view(2, 3)[0].add_(1)")["results"];
  REQUIRE(r.size() == 4);
  CHECK(r[3]["memory"] == "in_place");
  CHECK(r[3]["repr"] == "tensor([1, 2, 3])");
  // A step written into later answers its values as they were after it, as the report does.
  CHECK(r[2]["values"].dump() == "[0,1,2]");
  CHECK(r[2]["repr"] == "tensor([0, 1, 2])");
}

TEST_CASE("the dtype and the repr follow the tensor's dtype as PyTorch prints it") {
  Json r = ask_expression("arange(6).reshape(2, 3).to(dtype=torch.float16)")["results"];
  CHECK(r.back()["dtype"] == "float16");
  CHECK(r.back()["repr"] == "tensor([[0., 1., 2.],\n        [3., 4., 5.]], dtype=torch.float16)");
  r = ask_expression("torch.view_as_real(zeros(2, 3, dtype=torch.complex64).t())")["results"];
  CHECK(r[0]["dtype"] == "complex64");
  CHECK(r[0]["values"][0].dump() == "[0.0,0.0]");  // [re, im], as a chain answers complex values
  CHECK(r.back()["dtype"] == "float32");
}

TEST_CASE("values only up to 256 elements, and repr only where the report printed values") {
  Json r = ask_expression("arange(257)")["results"];
  CHECK_FALSE(r[0].contains("values"));
  CHECK(r[0]["repr"].get<std::string>().rfind("tensor([  0,   1,", 0) == 0);
  // A long expression: the report stops printing values, then steps, at the print budget.
  std::string e = "arange(256)";
  for (int i = 0; i < 1000; ++i) e += ".t()";
  const Json a = ask_expression(e);
  const Json& steps = a["results"];
  REQUIRE(steps.size() > 2);
  CHECK(steps[0].contains("repr"));
  CHECK(steps[0].contains("values"));
  const Json& last = steps.back();
  REQUIRE(last.contains("error"));
  CHECK(last["message"].get<std::string>().find(
            "not shown: the print budget of 65536 numbers per request is spent") !=
        std::string::npos);
  CHECK(a["report"].get<std::string>().find(last["message"].get<std::string>() + "\n") !=
        std::string::npos);
  const Json& before = steps[steps.size() - 2];
  CHECK_FALSE(before.contains("repr"));
  CHECK_FALSE(before.contains("values"));
  CHECK(before.contains("shape"));
}

TEST_CASE("an expression that fails answers the message, its column and the caret") {
  Json a = ask_expression("arange(6).vew(4)");
  CHECK(a["error"] == true);
  CHECK(a["message"] == "unknown method 'vew'; did you mean view?");
  CHECK(a["column"] == 11);
  CHECK(a["report"] == "error at column 11: unknown method 'vew'; did you mean view?\n"
                       "  arange(6).vew(4)\n            ^~~\n");
  CHECK_FALSE(a.contains("explanation"));
  a = ask_expression("arange(6).view(4)");
  CHECK(a["message"] == "view(): shape '[4]' is invalid for input of size 6");
  CHECK(a["explanation"]["rule"] == "view");
  CHECK(a["report"].get<std::string>().find("\nwhy: shape [4] holds 4 elements") !=
        std::string::npos);
  a = ask_expression("zeros(4097, 4096)");  // a budget
  CHECK(a["message"].get<std::string>().find("needs 16781312 elements") != std::string::npos);
  a = ask_expression("");
  CHECK(a["error"] == true);
  CHECK(a["column"] == 1);
}

TEST_CASE("an expression request takes one string and nothing else") {
  const auto message = [](const std::string& line) {
    return Json::parse(answer_line(line))["message"].get<std::string>();
  };
  CHECK(message(R"x({"expression":3})x") ==
        R"x(bad input: "expression" must be a string such as "arange(6).view(2, 3)", got 3)x");
  CHECK(message(R"x({"expression":"arange(3)","svg":true})x") ==
        R"x(bad input: an expression request has no field "svg" (its fields: "expression"))x");
  CHECK(message(R"x({"expression":"arange(3)","ops":[]})x") ==
        R"x(bad input: a request is of one kind; this one has both "expression" and "ops")x");
  CHECK(message(R"x({"expression":null})x") ==
        R"x(bad input: "expression" must be a string such as "arange(6).view(2, 3)", got none)x");
}
