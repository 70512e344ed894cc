// What a chapter shows besides its verdicts: text blocks, tables, SVG figures, and named values
// that sentences quote. The runtime only records them; the embed tool escapes and places them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "book/show.h"

namespace book {

struct Output {
  enum class Kind { Text, Table, Figure };
  Kind kind = Kind::Text;
  std::string name;     // [a-z0-9_]+, unique in its chapter; the page refers to it by this name
  std::string caption;  // one line, may be empty
  std::string body;     // text, or the SVG document
  std::vector<std::string> header;             // tables only
  std::vector<std::vector<std::string>> rows;  // tables only
  std::string claim;    // the claim whose check produced it, empty for a chapter exhibit
};

// The file an output is written to by --emit: name.txt, name.table.json or name.svg.
std::string output_file_name(const Output& o);
std::string_view output_kind_name(Output::Kind k);  // "text", "table", "figure"

struct Value {
  std::string name;  // [a-z0-9_]+; quoted in prose as \chNN_name
  std::string text;
  std::string claim;
};

// Collects outputs and values. A name used twice in one chapter is a mistake in the chapter, and
// throws std::invalid_argument at once rather than silently replacing the first output.
class Recorder {
 public:
  virtual ~Recorder() = default;

  void text(std::string name, std::string body, std::string caption = {});
  void table(std::string name, std::vector<std::string> header,
             std::vector<std::vector<std::string>> rows, std::string caption = {});
  void figure(std::string name, std::string svg, std::string caption = {});
  template <class T>
  void value(std::string name, const T& v) {
    add_value(std::move(name), show(v));
  }

  const std::vector<Output>& outputs() const { return outputs_; }
  const std::vector<Value>& values() const { return values_; }

 protected:
  // Names already taken in the whole chapter (shared by every recorder of one chapter run).
  explicit Recorder(std::vector<std::string>* taken = nullptr, std::string claim = {})
      : taken_(taken), claim_(std::move(claim)) {}
  void add_value(std::string name, std::string text);

 private:
  void claim_name(const std::string& name, std::string_view what);
  std::vector<Output> outputs_;
  std::vector<Value> values_;
  std::vector<std::string>* taken_;
  std::vector<std::string> own_names_;  // when no chapter-wide list was given
  std::string claim_;
};

// True for names the pages can refer to: lower-case letters, digits and '_', not empty.
bool valid_name(std::string_view name);

}  // namespace book
