#include "book/pytorch_record.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "book/provenance.h"
#include "strided/dtype.h"

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

const PytorchRecord& PytorchRecord::of_chapter(const std::string& chapter) {
  static std::mutex lock;
  static std::map<std::string, std::unique_ptr<PytorchRecord>> read;
  std::lock_guard<std::mutex> hold(lock);
  auto& slot = read[chapter];
  if (!slot) {
    const auto path = std::filesystem::path(source_dir()) / "docs" / "recorded" / "pytorch" /
                      (chapter + ".json");
    std::ifstream in(path);
    if (!in)
      throw std::runtime_error("chapter " + chapter + ": no record of PyTorch's answers at " +
                               path.string() + " (run tools/book record-pytorch)");
    std::stringstream text;
    text << in.rdbuf();
    slot = std::make_unique<PytorchRecord>(parse(text.str(), "docs/recorded/pytorch/" + chapter + ".json"));
    if (slot->chapter() != chapter)
      throw std::runtime_error(slot->source() + " is the record of chapter " + slot->chapter());
  }
  return *slot;
}

const nlohmann::json* PytorchRecord::find(const std::string& group,
                                          const std::string& expression) const {
  const auto g = expressions_.find(group);
  if (g == expressions_.end() || !g->is_object()) return nullptr;
  const auto e = g->find(expression);
  return e == g->end() ? nullptr : &*e;
}

std::string PytorchRecord::what(const std::string& expression, std::string_view field) const {
  return "chapter " + chapter_ + ", PyTorch " + torch_ + "'s " + expression + ": " +
         std::string(field);
}

const nlohmann::json* PytorchRecord::answer(Check& c, const std::string& group,
                                            const std::string& expression) const {
  const nlohmann::json* a = find(group, expression);
  if (a == nullptr)
    c.that(what(expression, "recorded answer"), false,
           "none in " + source_ + " (listing " + group + "; run tools/book record-pytorch)");
  else if (a->contains("error"))
    c.that(what(expression, "recorded answer"), false,
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
  bool ok = true;
  ok &= c.equal(what(expression, "shape"), t.sizes(), ints((*a)["shape"]));
  ok &= c.equal(what(expression, "strides"), t.strides(), ints((*a)["strides"]));
  ok &= c.equal(what(expression, "storage offset"), t.storage_offset() - against.origin,
                (*a)["storage_offset"].get<int64_t>());
  ok &= c.equal(what(expression, "is_contiguous()"), t.is_contiguous(),
                (*a)["is_contiguous"].get<bool>());
  ok &= c.equal(what(expression, "dtype"), std::string(strided::name(t.dtype())),
                (*a)["dtype"].get<std::string>());
  if (a->contains("values")) {
    std::vector<double> expected;
    for (const auto& v : (*a)["values"]) expected.push_back(number(v));
    ok &= c.equal(what(expression, "values"), t.to_vector(), expected);
  }
  if (against.base != nullptr && a->contains("shares_storage")) {
    const bool shares = t.storage().is_same(against.base->storage());
    ok &= c.equal(what(expression, "shares " + (*a)["base"].get<std::string>() + "'s storage"),
                  shares, (*a)["shares_storage"].get<bool>());
    if (shares && a->contains("bytes_past_base"))
      ok &= c.equal(what(expression, "bytes past " + (*a)["base"].get<std::string>() + ".data_ptr()"),
                    static_cast<int64_t>(static_cast<const char*>(t.data_ptr()) -
                                         static_cast<const char*>(against.base->data_ptr())),
                    (*a)["bytes_past_base"].get<int64_t>());
  }
  return ok;
}

bool PytorchRecord::compare_value(Check& c, const std::string& group, const std::string& expression,
                                  const nlohmann::json& value) const {
  const nlohmann::json* a = answer(c, group, expression);
  if (a == nullptr) return false;
  if (!a->contains("value")) {
    c.that(what(expression, "value"), false, "the record holds a tensor, not a value");
    return false;
  }
  return c.equal(what(expression, "value"), value.dump(), (*a)["value"].dump());
}

}  // namespace book
