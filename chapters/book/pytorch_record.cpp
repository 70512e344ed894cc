#include "book/pytorch_record.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "book/provenance.h"
#include "book/show.h"
#include "strided/core/dtype.h"
#include "strided/core/error.h"

namespace book {

PytorchRecord PytorchRecord::parse(std::string_view text, std::string source) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    throw std::invalid_argument(source + ": not JSON (run tools/book record-pytorch)");
  for (const char* key : {"chapter", "torch", "expressions"})
    if (!j.contains(key))
      throw std::invalid_argument(source + ": no \"" + key + "\" (run tools/book record-pytorch)");
  PytorchRecord r;
  r.chapter_ = j["chapter"].get<std::string>();
  r.torch_ = j["torch"].get<std::string>();
  r.source_ = std::move(source);
  r.expressions_ = std::move(j["expressions"]);
  return r;
}

namespace {
std::mutex records_lock;
std::map<std::string, std::unique_ptr<PytorchRecord>>& records_read() {
  static std::map<std::string, std::unique_ptr<PytorchRecord>> read;
  return read;
}
}  // namespace

std::vector<const PytorchRecord*> PytorchRecord::loaded() {
  std::lock_guard<std::mutex> hold(records_lock);
  std::vector<const PytorchRecord*> out;
  for (const auto& [name, record] : records_read()) {
    if (!record) continue;
    out.push_back(record.get());
    if (record->earlier()) out.push_back(record->earlier());
  }
  return out;
}

namespace {

const std::string records_dir = "docs/recorded/pytorch";

std::string read_text(const std::string& relative, const std::string& what) {
  const auto path = std::filesystem::path(source_dir()) / relative;
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error(what + ": no " + path.string() + " (run tools/book record-pytorch)");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

PytorchRecord read_record(const std::string& chapter, const std::string& series) {
  const std::string relative = records_dir + "/" + series + "/" + chapter + ".json";
  PytorchRecord r = PytorchRecord::parse(
      read_text(relative, "chapter " + chapter + ": PyTorch " + series + "'s answers"), relative);
  if (r.chapter() != chapter)
    throw std::runtime_error(r.source() + " is the record of chapter " + r.chapter());
  return r;
}

// The differences between the two series that the versions page notes, by chapter.
const nlohmann::json& noted_differences() {
  static const nlohmann::json noted = [] {
    const std::string relative = records_dir + "/differences.json";
    nlohmann::json j = nlohmann::json::parse(read_text(relative, "the versions page's notes"),
                                             nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object())
      throw std::runtime_error(relative + ": not a JSON object of chapters");
    return j;
  }();
  return noted;
}

}  // namespace

void PytorchRecord::set_earlier(PytorchRecord earlier, nlohmann::json noted) {
  earlier_ = std::make_shared<const PytorchRecord>(std::move(earlier));
  noted_ = noted.is_object() ? std::move(noted) : nlohmann::json::object();
}

const PytorchRecord& PytorchRecord::of_chapter(const std::string& chapter) {
  std::lock_guard<std::mutex> hold(records_lock);
  auto& read = records_read();
  auto& slot = read[chapter];
  if (!slot) {
    auto record = std::make_unique<PytorchRecord>(read_record(chapter, series));
    const auto& noted = noted_differences();
    record->set_earlier(read_record(chapter, earlier_series),
                        noted.contains(chapter) ? noted[chapter] : nlohmann::json::object());
    slot = std::move(record);
  }
  return *slot;
}

const nlohmann::json* PytorchRecord::find(const std::string& group,
                                          const std::string& expression) const {
  const auto g = expressions_.find(group);
  if (g == expressions_.end() || !g->is_object()) return nullptr;
  const auto e = g->find(expression);
  if (e == g->end()) return nullptr;
  std::lock_guard<std::mutex> hold(*used_lock_);
  used_.insert(group + "\t" + expression);
  return &*e;
}

std::vector<std::string> PytorchRecord::unused() const {
  std::lock_guard<std::mutex> hold(*used_lock_);
  std::vector<std::string> out;
  for (const auto& [group, answers] : expressions_.items()) {
    if (!answers.is_object()) continue;
    for (const auto& [expression, answer] : answers.items())
      if (!used_.count(group + "\t" + expression)) out.push_back(group + ": " + expression);
  }
  return out;
}

namespace {

// An answer in a line of a check's report: an error's message, a value, or a tensor's fields.
std::string brief(const nlohmann::json& a) {
  std::string text = a.contains("error") ? "refuses it: " + a["error"].get<std::string>()
                                         : a.contains("value") ? a["value"].dump() : a.dump();
  text = text.substr(0, text.find('\n'));  // an error's first line says what it is
  if (text.size() > 240) text = text.substr(0, 240) + "…";
  return text;
}

}  // namespace

bool PytorchRecord::versions(Check& c, const std::string& group,
                             const std::string& expression) const {
  if (!earlier_) return true;
  const std::string key = group + " / " + expression;
  {
    std::lock_guard<std::mutex> hold(*used_lock_);
    version_uses_[key].insert(c.id());
  }
  const nlohmann::json* now = find(group, expression);
  const nlohmann::json* before = earlier_->find(group, expression);
  const std::string what = "chapter " + chapter_ + ", " + expression + ": PyTorch " +
                           earlier_->torch_ + " beside " + torch_ + " (recorded)";
  if (before == nullptr) {
    c.that(what, false, "no answer in " + earlier_->source_ + " (run tools/book record-pytorch)");
    return false;
  }
  if (now == nullptr || *before == *now) return true;  // a missing answer fails its comparison
  const auto note = noted_.find(key);
  const std::string both = earlier_series + std::string(" ") + brief(*before) + "; " + series +
                           " " + brief(*now);
  if (note == noted_.end()) {
    c.that(what, false, "the two differ, and " + records_dir +
                            "/differences.json does not note it: " + both);
    return false;
  }
  return c.that(what, true, "they differ, as the versions page says (" +
                                note->get<std::string>() + "): " + both);
}

std::map<std::string, std::set<std::string>> PytorchRecord::version_uses() const {
  std::lock_guard<std::mutex> hold(*used_lock_);
  return version_uses_;
}

std::string PytorchRecord::what(const std::string& expression) const {
  return "chapter " + chapter_ + ", " + expression + ": PyTorch " + torch_ + " (recorded)";
}

const nlohmann::json* PytorchRecord::answer(Check& c, const std::string& group,
                                            const std::string& expression) const {
  const nlohmann::json* a = find(group, expression);
  if (a == nullptr)
    c.that(what(expression), false,
           "none in " + source_ + " (listing " + group + "; run tools/book record-pytorch)");
  else if (a->contains("error"))
    c.that(what(expression), false,
           "PyTorch refused it: " + (*a)["error"].get<std::string>());
  return a != nullptr && !a->contains("error") ? a : nullptr;
}

namespace {

std::vector<int64_t> ints(const nlohmann::json& j) { return j.get<std::vector<int64_t>>(); }

// A recorded value as a double: numbers as they are, booleans as 0 and 1, NaN and the infinities
// as the strings the companion writes for them.
double number(const nlohmann::json& v) {
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
    return std::numeric_limits<double>::quiet_NaN();
  }
  return v.get<double>();
}

}  // namespace

bool PytorchRecord::compare(Check& c, const std::string& group, const std::string& expression,
                            const strided::Tensor& t, Against against) const {
  const nlohmann::json* a = answer(c, group, expression);
  if (a == nullptr) return false;
  // Both sides as one line, field by field, in the same words: one comparison per expression,
  // whose measured and expected lines show at a glance which field differs.
  std::vector<std::string> ours, theirs;
  const auto field = [&](const std::string& name, const std::string& mine, const std::string& pt) {
    ours.push_back(name + " " + mine);
    theirs.push_back(name + " " + pt);
  };
  field("shape", show(t.sizes()), show(ints((*a)["shape"])));
  field("strides", show(t.strides()), show(ints((*a)["strides"])));
  field("offset", show(t.storage_offset() - against.origin),
        show((*a)["storage_offset"].get<int64_t>()));
  field("contiguous", show(t.is_contiguous()), show((*a)["is_contiguous"].get<bool>()));
  field("dtype", std::string(strided::name(t.dtype())), (*a)["dtype"].get<std::string>());
  if (a->contains("values")) {
    std::vector<double> expected;
    for (const auto& v : (*a)["values"]) expected.push_back(number(v));
    field("values", show(t.to_vector()), show(expected));
  }
  if (against.base != nullptr && a->contains("shares_storage")) {
    const std::string base = (*a)["base"].get<std::string>();
    const bool shares = t.storage().is_same(against.base->storage());
    const bool pt_shares = (*a)["shares_storage"].get<bool>();
    field("of " + base, shares ? "a view" : "a copy", pt_shares ? "a view" : "a copy");
    if (shares && pt_shares && a->contains("bytes_past_base"))
      field("bytes past " + base + ".data_ptr()",
            show(static_cast<int64_t>(static_cast<const char*>(t.data_ptr()) -
                                      static_cast<const char*>(against.base->data_ptr()))),
            show((*a)["bytes_past_base"].get<int64_t>()));
  }
  const auto join = [](const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
    return out;
  };
  const bool same = c.equal(what(expression), join(ours), join(theirs));
  return versions(c, group, expression) && same;
}

bool PytorchRecord::compare_value(Check& c, const std::string& group, const std::string& expression,
                                  const nlohmann::json& value) const {
  const nlohmann::json* a = answer(c, group, expression);
  if (a == nullptr) return false;
  if (!a->contains("value")) {
    c.that(what(expression), false, "the record holds a tensor, not a value");
    return false;
  }
  const bool same = c.equal(what(expression), value.dump(), (*a)["value"].dump());
  return versions(c, group, expression) && same;
}

bool PytorchRecord::compare_error(Check& c, const std::string& group, const std::string& expression,
                                  const std::function<void()>& run) const {
  const nlohmann::json* a = find(group, expression);
  if (a == nullptr) {
    c.that(what(expression), false,
           "none in " + source_ + " (listing " + group + "; run tools/book record-pytorch)");
    return false;
  }
  if (!a->contains("error")) {
    c.that(what(expression), false, "PyTorch did not refuse it: the record holds its answer");
    return false;
  }
  const std::string recorded = (*a)["error"].get<std::string>();
  const auto colon = recorded.find(": ");  // "ValueError: step must be greater than zero"
  const std::string message = colon == std::string::npos ? recorded : recorded.substr(colon + 2);
  std::string ours = "no error";
  bool ok = false;
  try {
    run();
  } catch (const strided::Error& e) {
    ours = std::string("error: ") + e.what();
    // The library names the op that refused as "as_strided(): ", PyTorch as "as_strided: ".
    const std::string words = std::regex_replace(ours, std::regex(R"((\w+)\(\): )"), "$1: ");
    ok = ours.find(message) != std::string::npos || words.find(message) != std::string::npos;
  } catch (const std::exception& e) {
    ours = std::string("not a user's error: ") + e.what();  // a library bug is no refusal
  }
  const bool same = c.judge(what(expression), ours, "an error containing \"" + message + "\"", ok);
  return versions(c, group, expression) && same;
}

std::string PytorchRecord::error_message(const std::string& group,
                                         const std::string& expression) const {
  const nlohmann::json* a = find(group, expression);
  if (a == nullptr || !a->contains("error"))
    throw std::out_of_range(what(expression) + ": no refusal in " + source_ + " (listing " +
                            group + ")");
  const std::string recorded = (*a)["error"].get<std::string>();
  const auto colon = recorded.find(": ");  // "IndexError: index 2 is out of bounds ..."
  return colon == std::string::npos ? recorded : recorded.substr(colon + 2);
}

}  // namespace book
