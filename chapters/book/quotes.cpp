#include "book/quotes.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "book/provenance.h"

namespace book {

double timeit_seconds(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (std::isdigit(static_cast<unsigned char>(line[i])) || line[i] == '.'))
    ++i;
  if (i == 0) throw std::invalid_argument("not a %timeit line (no number first): " + std::string(line));
  const double value = std::stod(std::string(line.substr(0, i)));
  std::string_view rest = line.substr(i);
  if (rest.empty() || rest[0] != ' ')
    throw std::invalid_argument("not a %timeit line (no unit after the number): " + std::string(line));
  rest.remove_prefix(1);
  // Longest units first: "ms" before "s". IPython writes μ as U+03BC.
  static const std::pair<std::string_view, double> units[] = {
      {"ms ", 1e-3}, {"\xce\xbcs ", 1e-6}, {"us ", 1e-6}, {"ns ", 1e-9}, {"s ", 1.0}};
  for (const auto& [unit, scale] : units)
    if (rest.substr(0, unit.size()) == unit) return value * scale;
  throw std::invalid_argument("not a %timeit line (unknown unit): " + std::string(line));
}

QuotedTimings QuotedTimings::parse(std::string_view text, std::string author, std::string title) {
  QuotedTimings q;
  std::string cell;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      const size_t end = line.find("] ");
      const size_t close = line.find(']', line.find(']') + 1);  // "[In[13]]": the second ']'
      if (close == std::string::npos || (end != std::string::npos && end < close))
        throw std::invalid_argument("a quote file's cell header must read [In[N]] ...: " + line);
      cell = line.substr(1, close - 1);
      q.cells_[cell];
      continue;
    }
    if (cell.empty()) throw std::invalid_argument("a %timeit line before any cell: " + line);
    q.cells_[cell].push_back({cell, line, timeit_seconds(line), line.substr(0, line.find(' ')),
                              author + ", " + title + ", " + cell});
  }
  return q;
}

const QuotedTimings& QuotedTimings::notebook() {
  static const QuotedTimings q = [] {
    const auto path = std::filesystem::path(source_dir()) / "docs" / "recorded" / "seeds" /
                      "pytorch-for-scientists.txt";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read the seed's quoted timings: " + path.string());
    std::stringstream text;
    text << in.rdbuf();
    return parse(text.str(), "nikitaved", "PyTorch for Scientists!");
  }();
  return q;
}

const QuotedTiming& QuotedTimings::at(const std::string& cell, size_t k) const {
  const auto it = cells_.find(cell);
  if (it == cells_.end()) throw std::out_of_range("the quoted timings have no cell " + cell);
  if (k >= it->second.size())
    throw std::out_of_range("cell " + cell + " of the quoted timings has " +
                            std::to_string(it->second.size()) + " lines, not " + std::to_string(k + 1));
  return it->second[k];
}

const QuotedTiming& quote_timing(Check& c, const std::string& key, const std::string& what,
                                 const QuotedTiming& t) {
  c.quote(what, t.line.substr(0, t.line.find(" \u00b1")), t.source);  // "49.1 ms"
  if (!key.empty()) c.value(key, t.printed);
  return t;
}

size_t QuotedTimings::count(const std::string& cell) const {
  const auto it = cells_.find(cell);
  return it == cells_.end() ? 0 : it->second.size();
}

}  // namespace book
