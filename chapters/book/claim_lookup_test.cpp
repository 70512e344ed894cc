#include "book/claim_lookup.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "book/provenance.h"

using book::match_claim_id;

TEST_CASE("a claim ID is found whatever its case, and only whole") {
  const std::vector<std::string> ids = {"VW-02", "VW-19.conj", "ER-21"};
  CHECK(match_claim_id(ids, "vw-02") == std::optional<std::string>("VW-02"));
  CHECK(match_claim_id(ids, "VW-19.CONJ") == std::optional<std::string>("VW-19.conj"));
  CHECK_FALSE(match_claim_id(ids, "VW-0").has_value());
  CHECK_FALSE(match_claim_id(ids, "MT-03").has_value());
}

TEST_CASE("a claim of another chapter is found by asking the programs beside this one") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "claim_lookup_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto program = [&](const std::string& name, const std::string& listing) {
    std::ofstream(dir / name) << "#!/bin/sh\n[ \"$1\" = --list ] && printf '" << listing << "'\n";
    fs::permissions(dir / name, fs::perms::owner_all);
  };
  program("chapter_01_one", "MT-03\\tA statement.\\n");
  program("chapter_02_two", "VW-02\\tAnother.\\nVW-19.conj\\tA third.\\n");
  const auto found = book::find_in_other_chapters((dir / "chapter_01_one").string(), "vw-19.CONJ");
  REQUIRE(found.has_value());
  CHECK(fs::path(found->program).filename() == "chapter_02_two");
  CHECK(found->id == "VW-19.conj");
  // Its own claims are not "another chapter's", and an ID no program lists is not found.
  CHECK_FALSE(book::find_in_other_chapters((dir / "chapter_01_one").string(), "MT-03"));
  CHECK_FALSE(book::find_in_other_chapters((dir / "chapter_01_one").string(), "XX-01"));
  fs::remove_all(dir);
}

TEST_CASE("--show finds a claim's source in its chapter's files, up to the next declaration") {
  const std::string text = book::claim_source(book::source_dir(), "02_views", "VW-04");
  CHECK(text.rfind("chapters/02_views.cpp:", 0) == 0);
  CHECK(text.find("ch.claim(\"VW-04\"") != std::string::npos);
  CHECK(text.find("//! [in_place]") != std::string::npos);
  CHECK(text.find("ch.claim(\"VW-04.memory\"") == std::string::npos);  // the next one is not in it
  // A claim declared in a section file of the chapter (chapters/02_views/).
  CHECK(book::claim_source(book::source_dir(), "02_views", "VW-20").rfind(
            "chapters/02_views/catalogue.cpp:", 0) == 0);
  CHECK(book::claim_source(book::source_dir(), "02_views", "VW-99").empty());
}
