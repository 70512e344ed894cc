#include "book/pytorch_record.h"

#include <doctest/doctest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "strided/strided.h"

using book::Check;
using book::PytorchRecord;
using strided::Tensor;

namespace {

const char* kRecord = R"json({
  "torch": "1.13.0a0", "companion": "chapters/02_views.py", "chapter": "02_views",
  "expressions": {
    "rows": {
      "T[:, 1]": {"shape": [2], "strides": [3], "storage_offset": 1, "is_contiguous": false,
                  "dtype": "int64", "values": [2, 5], "shares_storage": true,
                  "bytes_past_base": 8, "base": "T"},
      "T[1, :].stride()": {"value": [1]},
      "T.view(-1, 4)": {"error": "RuntimeError: shape '[-1, 4]' is invalid for input of size 6"},
      "T.as_strided((2,), (-1,))": {"error": "RuntimeError: as_strided: Negative strides"}
    }
  },
  "tryits": {}
})json";

// The failed comparisons' "what", one a line.
std::string failures(const Check& c) {
  std::string out;
  for (const auto& m : c.measurements())
    if (!m.ok) out += m.what + " = " + m.measured + "\n";
  return out;
}

}  // namespace

TEST_CASE("a recorded answer that agrees with the library passes, field by field") {
  const PytorchRecord r = PytorchRecord::parse(kRecord, "test.json");
  CHECK(r.torch() == "1.13.0a0");
  CHECK(r.chapter() == "02_views");
  Tensor T = strided::from_values({1, 2, 3, 4, 5, 6}, {2, 3}, {strided::DType::Int64});
  Check c("VW-15");
  CHECK(r.compare(c, "rows", "T[:, 1]", T.select(1, 1), {&T, 0}));
  CHECK(failures(c) == "");
  REQUIRE(c.measurements().size() == 1);  // one line per expression, every field in it
  CHECK(c.measurements()[0].measured ==
        "shape (2,); strides (3,); offset 1; contiguous False; dtype int64; values (2, 5); "
        "of T a view; bytes past T.data_ptr() 8");
  CHECK(r.compare_value(c, "rows", "T[1, :].stride()", nlohmann::json::array({1})));
}

TEST_CASE("a library answer that differs fails, naming the chapter, the expression and the field") {
  const PytorchRecord r = PytorchRecord::parse(kRecord, "test.json");
  Tensor T = strided::from_values({1, 2, 3, 4, 5, 6}, {2, 3}, {strided::DType::Int64});
  Check c("VW-15");
  CHECK_FALSE(r.compare(c, "rows", "T[:, 1]", T.select(0, 1), {&T, 0}));  // the row, not the column
  const std::string f = failures(c);
  CHECK(f == "chapter 02_views, T[:, 1]: PyTorch 1.13.0a0 (recorded) = shape (3,); "
             "strides (1,); offset 3; contiguous True; dtype int64; values (4, 5, 6); of T a view; "
             "bytes past T.data_ptr() 24\n");
}

TEST_CASE("a missing answer, or one PyTorch refused, fails the check") {
  const PytorchRecord r = PytorchRecord::parse(kRecord, "test.json");
  Tensor T = strided::from_values({1, 2, 3, 4, 5, 6}, {2, 3}, {strided::DType::Int64});
  Check c("VW-15");
  CHECK_FALSE(r.compare(c, "rows", "T[0, :]", T.select(0, 0)));
  CHECK_FALSE(r.compare(c, "other", "T[:, 1]", T.select(1, 1)));
  CHECK_FALSE(r.compare(c, "rows", "T.view(-1, 4)", T));
  CHECK_FALSE(r.compare_value(c, "rows", "T[:, 1]", 1));  // a tensor, not a value
  const std::string f = failures(c);
  CHECK(f.find("chapter 02_views, T[0, :]: PyTorch 1.13.0a0 (recorded) = none in test.json "
               "(listing rows") != std::string::npos);
  CHECK(f.find("PyTorch refused it: RuntimeError: shape '[-1, 4]'") != std::string::npos);
  CHECK(r.find("rows", "T[:, 1]") != nullptr);
  CHECK(r.find("rows", "T[0, :]") == nullptr);
}

TEST_CASE("a refusal compares with PyTorch's recorded error: the library's message contains it") {
  const PytorchRecord r = PytorchRecord::parse(kRecord, "test.json");
  Tensor T = strided::from_values({1, 2, 3, 4, 5, 6}, {2, 3}, {strided::DType::Int64});
  Check c("VW-15");
  CHECK(r.compare_error(c, "rows", "T.view(-1, 4)", [&] { T.view({-1, 4}); }));
  CHECK(failures(c) == "");
  REQUIRE(c.measurements().size() == 1);
  CHECK(c.measurements()[0].expected ==
        "an error containing \"shape '[-1, 4]' is invalid for input of size 6\"");
  // The library names the op as "as_strided(): ", PyTorch as "as_strided: ".
  CHECK(r.compare_error(c, "rows", "T.as_strided((2,), (-1,))", [&] { T.as_strided({2}, {-1}); }));
  CHECK(failures(c) == "");
  Check d("VW-15");
  CHECK_FALSE(r.compare_error(d, "rows", "T.view(-1, 4)", [&] { T.view({-1, 3}); }));  // no error
  CHECK_FALSE(r.compare_error(d, "rows", "T.view(-1, 4)",
                              [&] { throw strided::Error("", "another refusal"); }));
  // PyTorch's words inside an error that is no user's error: a library bug, never a refusal.
  CHECK_FALSE(r.compare_error(d, "rows", "T.view(-1, 4)", [&] {
    throw strided::InternalError("shape '[-1, 4]' is invalid for input of size 6");
  }));
  CHECK_FALSE(r.compare_error(d, "rows", "T[:, 1]", [&] { T.view({-1, 4}); }));  // not refused
  CHECK_FALSE(r.compare_error(d, "rows", "T.view(4, -1)", [&] { T.view({4, -1}); }));  // missing
  const std::string f = failures(d);
  CHECK(f.find("T.view(-1, 4): PyTorch 1.13.0a0 (recorded) = no error\n") != std::string::npos);
  CHECK(f.find("= error: another refusal\n") != std::string::npos);
  CHECK(f.find("= not a user's error: shape '[-1, 4]' is invalid") != std::string::npos);
  CHECK(f.find("PyTorch did not refuse it") != std::string::npos);
  CHECK(f.find("T.view(4, -1): PyTorch 1.13.0a0 (recorded) = none in test.json") !=
        std::string::npos);
}

TEST_CASE("a recorded refusal's words, less the exception type, are there to quote") {
  const PytorchRecord r = PytorchRecord::parse(kRecord, "test.json");
  CHECK(r.error_message("rows", "T.view(-1, 4)") ==
        "shape '[-1, 4]' is invalid for input of size 6");
  CHECK(r.error_message("rows", "T.as_strided((2,), (-1,))") == "as_strided: Negative strides");
  CHECK_THROWS_WITH_AS(r.error_message("rows", "T[:, 1]"),  // an answer, not a refusal
                       doctest::Contains("T[:, 1]: PyTorch 1.13.0a0 (recorded): no refusal"),
                       std::out_of_range);
  CHECK_THROWS_AS(r.error_message("rows", "T[9]"), std::out_of_range);  // no answer at all
}

TEST_CASE("the answers no check looked up are listed, so that a chapter's full run can refuse them") {
  const PytorchRecord r = PytorchRecord::parse(kRecord, "test.json");
  CHECK(r.unused().size() == 4);
  Check c;
  r.compare_value(c, "rows", "T[1, :].stride()", nlohmann::json::array({1}));
  r.error_message("rows", "T.view(-1, 4)");
  r.find("rows", "T[9]");  // no such answer: nothing to mark
  CHECK(r.unused() == std::vector<std::string>{"rows: T.as_strided((2,), (-1,))", "rows: T[:, 1]"});
}

TEST_CASE("text that is not a record is refused with its name") {
  CHECK_THROWS_WITH_AS(PytorchRecord::parse("{", "x.json"), doctest::Contains("x.json: not JSON"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(PytorchRecord::parse(R"({"chapter": "02_views", "torch": "1.13"})",
                                            "x.json"),
                       doctest::Contains("no \"expressions\""), std::invalid_argument);
}

TEST_CASE("each chapter's committed record is read from the checkout and names its chapter") {
  const PytorchRecord& r = PytorchRecord::of_chapter("02_views");
  CHECK(r.chapter() == "02_views");
  CHECK(r.source() == "docs/recorded/pytorch/2.6/02_views.json");
  REQUIRE(r.earlier() != nullptr);
  CHECK(r.earlier()->source() == "docs/recorded/pytorch/1.13/02_views.json");
  CHECK(r.find("rows", "T[:, 1]") != nullptr);
  CHECK_THROWS_WITH_AS(PytorchRecord::of_chapter("99_none"),
                       doctest::Contains("run tools/book record-pytorch"), std::runtime_error);
}

TEST_CASE("1.13's answer beside 2.6's: agreeing adds nothing, differing must be noted") {
  PytorchRecord now = PytorchRecord::parse(kRecord, "2.6/test.json");
  std::string earlier_text = kRecord;
  const std::string newer_words = "shape '[-1, 4]' is invalid for input of size 6";
  earlier_text.replace(earlier_text.find(newer_words), newer_words.size(), "older words");
  earlier_text.replace(earlier_text.find("1.13.0a0"), 8, "1.12.0");
  const PytorchRecord earlier = PytorchRecord::parse(earlier_text, "1.13/test.json");
  Tensor T = strided::from_values({1, 2, 3, 4, 5, 6}, {2, 3}, {strided::DType::Int64});

  now.set_earlier(earlier, nlohmann::json::object());
  Check agree("VW-15");
  CHECK(now.compare(agree, "rows", "T[:, 1]", T.select(1, 1), {&T, 0}));
  CHECK(agree.measurements().size() == 1);  // the same answer in both: no line of its own
  Check unnoted("VW-15");
  CHECK_FALSE(now.compare_error(unnoted, "rows", "T.view(-1, 4)", [&] { T.view({-1, 4}); }));
  CHECK(failures(unnoted).find("T.view(-1, 4): PyTorch 1.12.0 beside 1.13.0a0 (recorded) = the "
                               "two differ, and docs/recorded/pytorch/differences.json does not "
                               "note it: 1.13 refuses it: RuntimeError: older words") !=
        std::string::npos);

  now.set_earlier(earlier, {{"rows / T.view(-1, 4)", "the message was reworded"}});
  Check noted("VW-17");
  CHECK(now.compare_error(noted, "rows", "T.view(-1, 4)", [&] { T.view({-1, 4}); }));
  CHECK(failures(noted) == "");
  REQUIRE(noted.measurements().size() == 2);
  CHECK(noted.measurements()[1].measured.find("as the versions page says (the message was "
                                              "reworded)") != std::string::npos);
  CHECK(now.version_uses().at("rows / T.view(-1, 4)") == std::set<std::string>{"VW-15", "VW-17"});
  // The earlier record's answer was looked up beside the newer one: it is not left over for the
  // full run's check (this earlier record, set again above, has seen only T.view(-1, 4)).
  CHECK(now.earlier()->unused() == std::vector<std::string>{"rows: T.as_strided((2,), (-1,))",
                                                            "rows: T[1, :].stride()",
                                                            "rows: T[:, 1]"});
}

TEST_CASE("an answer 1.13's record lacks fails the check that compares it") {
  PytorchRecord now = PytorchRecord::parse(kRecord, "2.6/test.json");
  now.set_earlier(PytorchRecord::parse(
                      R"({"chapter": "02_views", "torch": "1.13.0a0", "expressions": {}})",
                      "1.13/test.json"),
                  nlohmann::json::object());
  Check c("VW-15");
  CHECK_FALSE(now.compare_value(c, "rows", "T[1, :].stride()", nlohmann::json::array({1})));
  CHECK(failures(c).find("= no answer in 1.13/test.json") != std::string::npos);
}
