// PyTorch's recorded answers, the book's second oracle. Each chapter's PyTorch companion
// (chapters/NN_name.py) names the expressions of its listings; tools/book record-pytorch runs it
// with torch 2.6 (Debian 13's) and 1.13 (Debian 12's) and commits what each answered to
// docs/recorded/pytorch/<series>/NN_name.json. A check compares the library's tensor for the same
// expression with PyTorch 2.6's answer, field by field, so a sentence that says what PyTorch does
// is backed by PyTorch's own answer, and a changed or missing answer fails the claim with a message
// naming the chapter and the expression. The same check asks 1.13's record too: where 1.13 answered
// otherwise, docs/recorded/pytorch/differences.json must say so (the versions page shows each such
// pair), or the check fails; so a change in either record fails a claim. No torch is needed here:
// only the records are read.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "book/check.h"
#include "strided/tensor/tensor.h"

namespace book {

class PytorchRecord {
 public:
  // The series the library follows, and the earlier one whose answers the book also keeps.
  static constexpr const char* series = "2.6";
  static constexpr const char* earlier_series = "1.13";

  // Parses a record's text; `source` names it in messages. Throws std::invalid_argument when the
  // text is not a record (no "chapter", "torch" or "expressions").
  static PytorchRecord parse(std::string_view text, std::string source);
  // The record of a chapter, read once from <source_dir>/docs/recorded/pytorch/2.6/<chapter>.json,
  // with 1.13's record of it as earlier() and the differences noted between them; throws
  // std::runtime_error naming the file when one is missing or unreadable.
  static const PytorchRecord& of_chapter(const std::string& chapter);
  // PyTorch 1.13's record of the same chapter (nullptr for a record parsed alone). Its answers
  // are for quoting what 1.13 did; looking one up marks it used, as find() does.
  const PytorchRecord* earlier() const { return earlier_.get(); }
  // Gives this record its earlier one and the differences noted between them ("group / expression"
  // -> what differs, in words; docs/recorded/pytorch/differences.json).
  void set_earlier(PytorchRecord earlier, nlohmann::json noted);

  const std::string& chapter() const { return chapter_; }
  const std::string& torch() const { return torch_; }  // the version that answered: "1.13.0a0"
  const std::string& source() const { return source_; }

  // PyTorch's answer for `expression` of the listing (or output) `group`; nullptr when absent.
  // Every answer looked up is marked used (see unused()).
  const nlohmann::json* find(const std::string& group, const std::string& expression) const;

  // Compares PyTorch 1.13's answer for `expression` of `group` with 2.6's. Answers that agree
  // add nothing; answers that differ pass when the difference is noted (the check shows both),
  // and fail when it is not; a missing 1.13 answer fails. compare, compare_value and compare_error
  // call it; a check that reads an answer with find() calls it itself. Remembers the claim, for
  // the versions page (version_uses). Returns whether the two records are as noted.
  bool versions(Check& c, const std::string& group, const std::string& expression) const;
  // For each "group / expression" versions() looked at, the claims whose checks did.
  std::map<std::string, std::set<std::string>> version_uses() const;

  // The answers of the record that no check has looked up yet, as "group: expression". A chapter's
  // full run fails when one remains (Chapter::main): an answer the companion records and no check
  // compares backs no sentence, and would hide that a comparison was dropped.
  std::vector<std::string> unused() const;
  // The records of_chapter has read in this process, each chapter's earlier() one after it.
  static std::vector<const PytorchRecord*> loaded();

  // Options of a comparison.
  struct Against {
    const strided::Tensor* base = nullptr;  // for "view or copy" and "bytes past the base"
    int64_t origin = 0;  // subtracted from the library's storage offset (a tensor that does not
                         // start its storage, as the untouchable one of chapter 2)
  };

  // Compares t with PyTorch's answer for `expression` of `group`: shape, strides, storage offset,
  // is_contiguous, dtype, and, where recorded, the values, whether it shares the base's storage
  // and how many bytes past the base's data_ptr it starts. A missing answer fails the check.
  // Returns whether every recorded field agreed.
  bool compare(Check& c, const std::string& group, const std::string& expression,
               const strided::Tensor& t, Against against) const;
  bool compare(Check& c, const std::string& group, const std::string& expression,
               const strided::Tensor& t) const {
    return compare(c, group, expression, t, Against{});
  }
  // Compares a plain value (a bool, an integer, a string) with PyTorch's recorded "value".
  bool compare_value(Check& c, const std::string& group, const std::string& expression,
                     const nlohmann::json& value) const;
  // Compares a refusal: PyTorch's recorded answer for `expression` is an error, and `run` (the
  // library's form of the same expression) must throw one whose message contains PyTorch's (the
  // recorded error less its exception type: "step must be greater than zero" of "ValueError: step
  // must be greater than zero"; the library's "as_strided(): " reads as PyTorch's "as_strided: ").
  // A missing answer, an answer that is not an error, no error here or another one fails the
  // check.
  bool compare_error(Check& c, const std::string& group, const std::string& expression,
                     const std::function<void()>& run) const;
  // PyTorch's recorded refusal of `expression` of `group`, less its exception type: the words a
  // chapter quotes ("index 2 is out of bounds for dimension 0 with size 1"), taken from the record
  // rather than typed into the chapter. Throws std::out_of_range when the record holds no error
  // for it.
  std::string error_message(const std::string& group, const std::string& expression) const;

 private:
  const nlohmann::json* answer(Check& c, const std::string& group,
                               const std::string& expression) const;
  std::string what(const std::string& expression) const;

  std::string chapter_, torch_, source_;
  nlohmann::json expressions_;
  std::shared_ptr<const PytorchRecord> earlier_;
  nlohmann::json noted_ = nlohmann::json::object();
  mutable std::map<std::string, std::set<std::string>> version_uses_;
  // "group\texpression" of each answer looked up; checks may run on several threads.
  mutable std::set<std::string> used_;
  mutable std::shared_ptr<std::mutex> used_lock_ = std::make_shared<std::mutex>();
};

}  // namespace book
