// Figures quoted from the book's sources. The seed notebook's timings are not this machine's and
// no run can produce them, so they are not typed into the chapters either: they are read from a
// verbatim copy of the lines the notebook printed (docs/recorded/seeds/), and a check shows them
// with Check::quote, as *quoted*, never as measured or passed.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "book/check.h"

namespace book {

// One %timeit line: "49.1 ms ± 54.3 μs per loop (mean ± std. dev. of 7 runs, 10 loops each)".
struct QuotedTiming {
  std::string cell;  // "In[13]"
  std::string line;  // the line as the notebook printed it
  double seconds = 0.0;  // its mean, converted from s, ms, μs or ns
  std::string printed;   // the mean as printed, without its unit: "49.1"
  std::string source;  // "nikitaved, PyTorch for Scientists!, In[13]": where a reader finds it
  double ms() const { return seconds * 1e3; }
  double us() const { return seconds * 1e6; }
};

// The mean of a %timeit line, in seconds; throws std::invalid_argument naming the line when it
// does not start with a number and a unit of time.
double timeit_seconds(std::string_view line);

// The timings of one notebook, by cell, in the order it printed them.
class QuotedTimings {
 public:
  // Parses the text of a quote file: "# ..." comments, "[In[13]] what the cell times" headers,
  // and the cell's %timeit lines. Throws std::invalid_argument on a line it cannot read.
  static QuotedTimings parse(std::string_view text, std::string author, std::string title);
  // The seed notebook "PyTorch for Scientists!" (nikitaved), read once from
  // <source_dir>/docs/recorded/seeds/pytorch-for-scientists.txt.
  static const QuotedTimings& notebook();

  // The k-th line (from 0) of a cell; throws std::out_of_range naming both when absent.
  const QuotedTiming& at(const std::string& cell, size_t k) const;
  size_t count(const std::string& cell) const;

 private:
  std::map<std::string, std::vector<QuotedTiming>> cells_;
};

// Shows t among a check's values as quoted ("49.1 ms", naming its source) and, when key is not
// empty, as the value `key` that the prose cites (the number as the notebook printed it).
const QuotedTiming& quote_timing(Check& c, const std::string& key, const std::string& what,
                                 const QuotedTiming& t);

// The k-th timing of a cell of the seed notebook "PyTorch for Scientists!" (QuotedTimings::notebook).
inline const QuotedTiming& notebook_timing(const std::string& cell, size_t k) {
  return QuotedTimings::notebook().at(cell, k);
}

// quote_timing of notebook_timing(cell, k): the seed's k-th %timeit line of a cell, shown among a
// check's values as quoted and, when key is not empty, as the value `key` for the prose.
inline const QuotedTiming& quote_notebook(Check& c, const std::string& key, const std::string& what,
                                          const std::string& cell, size_t k) {
  return quote_timing(c, key, what, notebook_timing(cell, k));
}

}  // namespace book
