#include "book/outputs.h"

#include <algorithm>
#include <stdexcept>

namespace book {

bool valid_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::string_view output_kind_name(Output::Kind k) {
  switch (k) {
    case Output::Kind::Text: return "text";
    case Output::Kind::Table: return "table";
    case Output::Kind::Figure: return "figure";
  }
  return "text";
}

std::string output_file_name(const Output& o) {
  switch (o.kind) {
    case Output::Kind::Text: return o.name + ".txt";
    case Output::Kind::Table: return o.name + ".table.json";
    case Output::Kind::Figure: return o.name + ".svg";
  }
  return o.name;
}

void Recorder::claim_name(const std::string& name, std::string_view what) {
  if (!valid_name(name))
    throw std::invalid_argument("book: " + std::string(what) + " name '" + name +
                                "' must use only a-z, 0-9 and _");
  auto& taken = taken_ ? *taken_ : own_names_;
  const std::string key = std::string(what) + ":" + name;
  if (std::find(taken.begin(), taken.end(), key) != taken.end())
    throw std::invalid_argument("book: " + std::string(what) + " '" + name +
                                "' is recorded twice in this chapter");
  taken.push_back(key);
}

void Recorder::text(std::string name, std::string body, std::string caption) {
  claim_name(name, "output");
  outputs_.push_back({Output::Kind::Text, std::move(name), std::move(caption), std::move(body), {},
                      {}, claim_});
}

void Recorder::table(std::string name, std::vector<std::string> header,
                     std::vector<std::vector<std::string>> rows, std::string caption) {
  claim_name(name, "output");
  for (const auto& r : rows)
    if (r.size() != header.size())
      throw std::invalid_argument("book: table '" + name + "' has a row of " +
                                  std::to_string(r.size()) + " cells under a header of " +
                                  std::to_string(header.size()));
  outputs_.push_back({Output::Kind::Table, std::move(name), std::move(caption), {},
                      std::move(header), std::move(rows), claim_});
}

void Recorder::figure(std::string name, std::string svg, std::string caption) {
  claim_name(name, "output");
  outputs_.push_back({Output::Kind::Figure, std::move(name), std::move(caption), std::move(svg), {},
                      {}, claim_});
}

void Recorder::add_value(std::string name, std::string text) {
  claim_name(name, "value");
  values_.push_back({std::move(name), std::move(text), claim_});
}

}  // namespace book
