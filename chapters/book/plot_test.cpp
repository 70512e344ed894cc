#include "book/plot.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <stdexcept>

TEST_CASE("plain_svg drops gnuplot's defs and point symbols and writes each colour into its stroke") {
  const std::string svg =
      "<svg><defs><circle id='gpPt0'/></defs>"
      "<g color=\"#1f77b4\" stroke=\"currentColor\"><path d=\"M0 0\"/></g>"
      "<use xlink:href=\"#gpPt0\" x=\"1\"/></svg>";
  const std::string out = book::plain_svg(svg);
  CHECK(out.find("<defs>") == std::string::npos);
  CHECK(out.find("<use") == std::string::npos);
  CHECK(out.find("currentColor") == std::string::npos);
  CHECK(out.find("color=") == std::string::npos);
  CHECK(out.find("<g stroke=\"#1f77b4\">") != std::string::npos);
  CHECK(out.find("<path d=\"M0 0\"/>") != std::string::npos);
}

TEST_CASE("a chart is drawn only for the book") {
  book::set_emit_dir("");
  CHECK(book::emit_dir().empty());
  CHECK_THROWS_AS(book::gnuplot("ratios", "x", "1\t2\n"), std::logic_error);
}

TEST_CASE("a check's chart is left out when the chapter is not emitting for the book") {
  book::set_emit_dir("");
  book::Check c("PF-17");
  book::gnuplot_figure(c, "lru_sweep", "lru_sweep", "1\t2\n", "caption");  // no gnuplot run
  CHECK(c.outputs().empty());
}

TEST_CASE("a chart's variables cannot leave the shell's quotes") {
  for (const char* bad : {"t='a\"b'", "t='`id`'", "t='$HOME'", "t='a\\\\b'"})
    CHECK_THROWS_AS(book::gnuplot("ratios", "x", "1\t2\n", bad), std::invalid_argument);
}

TEST_CASE("a ratio chart draws the series it is given, and only those") {
  const std::string dir = (std::filesystem::temp_directory_path() / "book_plot_test").string();
  book::set_emit_dir(dir);
  const std::string data = "# experiment\tthis_run\n\"fresh\"\t3.0\n\"cached\"\t1.0\n";
  const std::string one =
      book::gnuplot("ratios", "one", data, "series=1; title1='this run'; colour1='#1f77b4'");
  CHECK(one.find("this run") != std::string::npos);
  CHECK(one.find("seed notebook") == std::string::npos);
  book::set_emit_dir("");
  std::filesystem::remove_all(dir);
}
