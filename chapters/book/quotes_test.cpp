#include "book/quotes.h"

#include <doctest/doctest.h>

#include <stdexcept>

using book::QuotedTimings;
using book::timeit_seconds;

TEST_CASE("a %timeit line's mean, in seconds, from each unit IPython prints") {
  CHECK(timeit_seconds("49.1 ms ± 54.3 μs per loop (mean ± std. dev. of 7 runs, 10 loops each)") ==
        doctest::Approx(49.1e-3));
  CHECK(timeit_seconds("318 μs ± 874 ns per loop (mean ± std. dev. of 7 runs, 1,000 loops each)") ==
        doctest::Approx(318e-6));
  CHECK(timeit_seconds("812 ns ± 3 ns per loop") == doctest::Approx(812e-9));
  CHECK(timeit_seconds("1.2 s ± 4 ms per loop") == doctest::Approx(1.2));
  CHECK_THROWS_AS(timeit_seconds("per loop 49.1 ms"), std::invalid_argument);
  CHECK_THROWS_AS(timeit_seconds("49.1 furlongs"), std::invalid_argument);
  CHECK_THROWS_AS(timeit_seconds("49.1ms"), std::invalid_argument);
}

TEST_CASE("a quote file keeps each cell's lines in order, with their source") {
  const QuotedTimings q = QuotedTimings::parse(
      "# a comment\n"
      "[In[13]] add(3) in three layouts\n"
      "49.1 ms ± 54.3 μs per loop\n"
      "77.4 ms ± 1.87 ms per loop\n"
      "\n"
      "[In[15]]\n"
      "48.3 μs ± 1.75 μs per loop\n",
      "nikitaved", "PyTorch for Scientists!");
  CHECK(q.count("In[13]") == 2);
  CHECK(q.count("In[15]") == 1);
  CHECK(q.count("In[99]") == 0);
  CHECK(q.at("In[13]", 1).ms() == doctest::Approx(77.4));
  CHECK(q.at("In[13]", 1).line == "77.4 ms ± 1.87 ms per loop");
  CHECK(q.at("In[13]", 1).printed == "77.4");
  CHECK(q.at("In[15]", 0).us() == doctest::Approx(48.3));
  CHECK(q.at("In[15]", 0).source == "nikitaved, PyTorch for Scientists!, In[15]");
  CHECK_THROWS_AS(q.at("In[13]", 2), std::out_of_range);
  CHECK_THROWS_AS(q.at("In[14]", 0), std::out_of_range);
}

TEST_CASE("a quote file that cannot be read is refused, not half read") {
  CHECK_THROWS_AS(QuotedTimings::parse("49.1 ms ± 1 ms per loop\n", "a", "b"), std::invalid_argument);
  CHECK_THROWS_AS(QuotedTimings::parse("[In[13]]\nforty ms\n", "a", "b"), std::invalid_argument);
  CHECK_THROWS_AS(QuotedTimings::parse("[In[13\n", "a", "b"), std::invalid_argument);
}

TEST_CASE("the book's copy of the notebook's timings reads") {
  const QuotedTimings& q = QuotedTimings::notebook();
  CHECK(q.count("In[13]") == 3);
  CHECK(q.count("In[21]") == 5);
  CHECK(q.at("In[16]", 1).ms() == doctest::Approx(205));
}

TEST_CASE("a quoted timing is shown as quoted, with its source, and as the printed number") {
  const QuotedTimings q = QuotedTimings::parse("[In[13]]\n49.1 ms ± 54.3 μs per loop\n", "n", "t");
  book::Check c("PF-08");
  book::quote_timing(c, "seed_add_ms", "the seed's add(3)", q.at("In[13]", 0));
  REQUIRE(c.measurements().size() == 1);
  CHECK(c.measurements()[0].measured == "49.1 ms");
  CHECK(c.measurements()[0].quoted_from == "n, t, In[13]");
  REQUIRE(c.values().size() == 1);
  CHECK(c.values()[0].text == "49.1");
}
