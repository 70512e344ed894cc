// The sentence forms of values that captions and records write (book/text.h).
#include "book/text.h"

#include <doctest/doctest.h>

TEST_CASE("and_list joins integers as a sentence lists them") {
  CHECK(book::and_list({}) == "");
  CHECK(book::and_list({3}) == "3");
  CHECK(book::and_list({1, 4}) == "1 and 4");
  CHECK(book::and_list({0, 3, 5}) == "0, 3 and 5");
}

TEST_CASE("byte_runs writes a memory set as runs of bytes") {
  CHECK(book::byte_runs({4, 5, 6, 7, 16, 17, 18, 19}) == "{4..7, 16..19}");
  CHECK(book::byte_runs({}) == "{}");
}
