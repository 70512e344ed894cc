#include "book/claim_lookup.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace book {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return out;
}

// The lines a program prints for --list, run without a shell (the path is passed as is).
std::string listing_of(const std::string& program) {
  std::string command = "'";
  for (char ch : program) command += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  command += "' --list 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return {};
  std::string out;
  std::array<char, 4096> buffer{};
  while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe.get())) out.append(buffer.data(), n);
  return out;
}

// A line that declares a claim, an erratum, a section or an exhibit: where one claim's text ends.
bool declares(const std::string& line) {
  for (const char* what : {"ch.claim(", "ch.erratum(", "ch.section(", "ch.exhibit("})
    if (line.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

std::optional<std::string> match_claim_id(const std::vector<std::string>& ids,
                                          std::string_view asked) {
  const std::string want = lower(asked);
  for (const auto& id : ids)
    if (lower(id) == want) return id;
  return std::nullopt;
}

std::optional<OtherChapter> find_in_other_chapters(const std::string& self,
                                                   std::string_view asked) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path me = fs::weakly_canonical(self, ec);
  std::vector<fs::path> siblings;
  for (const auto& entry : fs::directory_iterator(me.parent_path(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("chapter_", 0) == 0 && entry.is_regular_file() && entry.path() != me &&
        (entry.status().permissions() & fs::perms::owner_exec) != fs::perms::none)
      siblings.push_back(entry.path());
  }
  std::sort(siblings.begin(), siblings.end());
  for (const auto& program : siblings) {
    std::istringstream lines(listing_of(program.string()));
    std::vector<std::string> ids;
    for (std::string line; std::getline(lines, line);) ids.push_back(line.substr(0, line.find('\t')));
    if (auto id = match_claim_id(ids, asked)) return OtherChapter{program.string(), *id};
  }
  return std::nullopt;
}

std::string claim_source(const std::string& source_dir, const std::string& chapter,
                         const std::string& id) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(source_dir) / "chapters";
  std::vector<fs::path> files = {root / (chapter + ".cpp")};
  std::error_code ec;
  std::vector<fs::path> parts;
  for (const auto& entry : fs::directory_iterator(root / chapter, ec))
    if (entry.path().extension() == ".cpp") parts.push_back(entry.path());
  std::sort(parts.begin(), parts.end());
  files.insert(files.end(), parts.begin(), parts.end());
  const std::string claim = "(\"" + id + "\"";
  for (const auto& file : files) {
    std::ifstream in(file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    for (size_t i = 0; i < lines.size(); ++i) {
      if (!declares(lines[i]) || lines[i].find(claim) == std::string::npos) continue;
      std::string out = fs::relative(file, source_dir, ec).string() + ":" + std::to_string(i + 1) +
                        "\n";
      size_t end = i + 1;
      while (end < lines.size() && !declares(lines[end]) && lines[end] != "}") ++end;
      while (end > i + 1 && lines[end - 1].find_first_not_of(" \t") == std::string::npos) --end;
      for (size_t k = i; k < end; ++k) out += lines[k] + "\n";
      return out;
    }
  }
  return {};
}

}  // namespace book
