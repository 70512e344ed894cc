#include "book/check.h"

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

using book::Check;
using book::Status;

TEST_CASE("an equality records both sides and the verdict") {
  Check c("MT-10");
  CHECK(c.equal("strides", std::vector<int64_t>{3, 1}, std::vector<int64_t>{3, 1}));
  REQUIRE(c.measurements().size() == 1);
  CHECK(c.measurements()[0].measured == "(3, 1)");
  CHECK(c.measurements()[0].expected == "(3, 1)");
  CHECK(c.status() == Status::Passed);
}

TEST_CASE("one failed comparison fails the claim, whatever passed beside it") {
  Check c("MT-10");
  c.equal("offset", 0, 0);
  CHECK_FALSE(c.equal("strides", std::vector<int64_t>{1, 2}, std::vector<int64_t>{3, 1}));
  CHECK(c.status() == Status::Failed);
}

TEST_CASE("a check that compares nothing proves nothing") {
  Check c("MT-10");
  CHECK(c.status() == Status::Failed);
  CHECK(c.reason() == "the check compared nothing");
}

TEST_CASE("a record is a measured value, not a comparison, and passes nothing by itself") {
  Check c("PF-01");
  c.record("noise A vs A", 1.05);
  REQUIRE(c.measurements().size() == 1);
  CHECK_FALSE(c.measurements()[0].compared);
  CHECK(c.measurements()[0].expected.empty());
  CHECK(c.measurements()[0].measured == "1.05");
  // Only records: still nothing compared, so the claim fails, and says why.
  CHECK(c.status() == Status::Failed);
  CHECK(c.reason() == "the check compared nothing (it only recorded values)");
  // One comparison beside it is what makes it pass.
  c.equal("count", 3, 3);
  CHECK(c.measurements()[1].compared);
  CHECK(c.status() == Status::Passed);
  CHECK(c.reason().empty());
}

TEST_CASE("every comparison says what it expected, so it cannot read as a record") {
  Check c("MT-10");
  CHECK(c.that("contiguous", true));
  CHECK(c.measurements()[0].compared);
  CHECK(c.measurements()[0].expected == "to hold");
  CHECK_THROWS_AS(c.judge("ratio", "1.5", "", true), std::invalid_argument);
  CHECK(c.measurements().size() == 1);
}

TEST_CASE("a record does not hide an inconclusive timing or a failure") {
  Check timing("PF-02");
  timing.record("noise A vs A", 1.6);
  timing.inconclusive("noise 1.6 exceeds the tolerance 1.2");
  CHECK(timing.status() == Status::Inconclusive);
  CHECK(timing.reason() == "noise 1.6 exceeds the tolerance 1.2");
  Check failed("PF-03");
  failed.record("median time A (s)", 0.5);
  failed.equal("count", 2, 3);
  CHECK(failed.status() == Status::Failed);
}

TEST_CASE("not run outranks nothing but a failure, and keeps its reason") {
  Check c("PF-10");
  c.not_run("no CUDA device");
  CHECK(c.status() == Status::NotRun);
  CHECK(c.reason() == "no CUDA device");
  c.equal("x", 1, 2);
  CHECK(c.status() == Status::Failed);
}

TEST_CASE("throws() records the error message and checks its words") {
  Check c("MT-07");
  CHECK(c.throws(
      "negative step", [] { throw strided::Error("", "step must be greater than zero"); },
      "greater than zero"));
  CHECK(c.measurements()[0].measured == "error: step must be greater than zero");
  CHECK_FALSE(c.throws("no error", [] {}));
  CHECK(c.status() == Status::Failed);
}

TEST_CASE("throws() accepts a user's error alone: a library bug or a stray exception fails it") {
  Check c("MT-07");
  CHECK_FALSE(c.throws("an internal error", [] { STRIDED_INTERNAL_ASSERT(1 + 1 == 3); }));
  CHECK(c.measurements()[0].measured.rfind("not a user's error: internal error at ", 0) == 0);
  CHECK_FALSE(c.throws("another exception", [] { throw std::invalid_argument("step"); }, "step"));
  CHECK(c.measurements()[1].measured == "not a user's error: step");
  CHECK(c.status() == Status::Failed);
}

TEST_CASE("near() states its tolerance") {
  Check c("XX-01");
  CHECK(c.near("ratio", 1.5, 1.4, 0.2));
  CHECK(c.measurements()[0].expected == "1.4 ± 0.2");
  CHECK_FALSE(c.near("ratio", 2.0, 1.4, 0.2));
}

TEST_CASE("show() writes values as a PyTorch reader reads them") {
  CHECK(book::show(true) == "True");
  CHECK(book::show(std::vector<int64_t>{4}) == "(4,)");
  CHECK(book::show(std::vector<int64_t>{}) == "()");
  CHECK(book::show(0.25) == "0.25");
  CHECK(book::show("text") == "text");
}

TEST_CASE("a quote is shown with its source and proves nothing") {
  Check c("PF-08");
  c.quote("the seed's contiguous add(3) (ms)", 49.1, "nikitaved, PyTorch for Scientists!, In[13]");
  REQUIRE(c.measurements().size() == 1);
  CHECK_FALSE(c.measurements()[0].compared);
  CHECK(c.measurements()[0].quoted_from == "nikitaved, PyTorch for Scientists!, In[13]");
  CHECK(c.status() == Status::Failed);  // a quote alone compared nothing
  CHECK_THROWS_AS(c.quote("no source", 1, ""), std::invalid_argument);
}

TEST_CASE("a keyed comparison publishes what it measured under the key, whatever the verdict") {
  Check c("MT-01");
  CHECK(c.equal("strides of p", std::vector<int64_t>{1, 12, 4}, std::vector<int64_t>{1, 12, 4},
                "p_strides"));
  CHECK_FALSE(c.near("ratio", 1.25, 2.0, 0.1, "ratio"));
  c.equal("offset", 13, 13);  // no key: nothing published
  REQUIRE(c.values().size() == 2);
  CHECK(c.values()[0].name == "p_strides");
  CHECK(c.values()[0].text == "(1, 12, 4)");
  CHECK(c.values()[0].claim == "MT-01");
  CHECK(c.values()[1].name == "ratio");
  CHECK(c.values()[1].text == "1.25");  // the measured side, not the expected one
  // The same text value() would publish, so a page quoting it reads the same.
  c.value("p_strides_by_value", std::vector<int64_t>{1, 12, 4});
  CHECK(c.values()[2].text == c.values()[0].text);
  // A key is a value's name like any other: taken twice, it is refused.
  CHECK_THROWS_AS(c.equal("again", 1, 1, "p_strides"), std::invalid_argument);
}
