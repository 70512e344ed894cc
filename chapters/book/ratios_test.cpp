#include "book/ratios.h"

#include <doctest/doctest.h>

#include "book/plot.h"
#include "strided/engine/parallel.h"

TEST_CASE("a timing table gives each row's times, its ratio with the spread, the seed's and the model's") {
  book::Timed t;
  t.label = "stride 5 / contiguous";
  t.a_ms = 0.61;
  t.b_ms = 2.08;
  t.ratio = 3.37;
  t.spread = 0.057;
  t.seed_ratio = 1.58;
  t.model_ratio = 3.0;
  book::Timed none = t;
  none.label = "logical walk / contiguous";
  none.seed_ratio = 0;
  none.model_ratio = 0;
  book::Check c("PF-08");
  book::timing_table(c, "add_table", {t, none});
  REQUIRE(c.outputs().size() == 1);
  const auto& rows = c.outputs()[0].rows;
  REQUIRE(rows.size() == 2);
  CHECK(rows[0] == std::vector<std::string>{"stride 5 / contiguous", "0.61", "2.08", "3.37 ± 5.7%",
                                            "1.58", "3.0", "1.1"});
  CHECK(rows[1][4] == "—");  // no seed figure
  CHECK(rows[1][5] == "—");  // no model
  CHECK(rows[1][6] == "—");
}

TEST_CASE("a ratio chart is drawn only when the chapter emits for the book") {
  book::set_emit_dir("");
  book::Check c("PF-08");
  book::ratio_figure(c, "add_ratios", {book::Timed{}}, "caption");
  CHECK(c.outputs().empty());
}

TEST_CASE("OneThread runs a timing claim on one thread and gives the count back") {
  const int before = strided::get_num_threads();
  {
    book::OneThread one;
    CHECK(strided::get_num_threads() == 1);
  }
  CHECK(strided::get_num_threads() == before);
}

TEST_CASE("fixed writes a figure with its decimals") {
  CHECK(book::fixed(3.14159) == "3.14");
  CHECK(book::fixed(2, 0) == "2");
  CHECK(book::fixed(0.5, 1) == "0.5");
}

TEST_CASE("the timing bands: claims.md's bounds, two attempts") {
  CHECK(book::about_as_fast().at_least == 0.67);
  CHECK(book::about_as_fast().at_most == 1.5);
  CHECK(book::slower().at_least == 1.15);
  CHECK(book::much_slower().at_least == 1.5);
  CHECK(book::much_slower().at_most == std::numeric_limits<double>::infinity());
  CHECK(book::band(2.0).attempts == 2);
}
