// Finding a claim as a reader names it: in any case (vw-02 is VW-02), in another chapter's program
// (the sibling that lists it), and in the chapter's source (--show prints the claim's check, its
// listing among it).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace book {

// The ID among `ids` that `asked` names, ignoring case; nullopt when none does.
std::optional<std::string> match_claim_id(const std::vector<std::string>& ids,
                                          std::string_view asked);

// The chapter program beside `self` (a path to the running one) whose --list names `asked`, as
// "chapter_02_views" with the ID as it lists it; nullopt when no sibling lists it.
struct OtherChapter {
  std::string program;  // the sibling's path
  std::string id;       // the ID as that program lists it
};
std::optional<OtherChapter> find_in_other_chapters(const std::string& self, std::string_view asked);

// The source text of claim `id` of chapter `chapter`: from its `ch.claim("ID"` (or erratum) in
// chapters/<chapter>.cpp or chapters/<chapter>/*.cpp to the next declaration, headed by
// "file:line"; empty when not found. Reads from `source_dir`.
std::string claim_source(const std::string& source_dir, const std::string& chapter,
                         const std::string& id);

}  // namespace book
