// The check of one claim: it compares what it measured with what the claim says and keeps both,
// so the report shows the values behind every verdict, not only the verdict.
#pragma once

#include <cmath>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "book/outputs.h"
#include "book/show.h"
#include "book/status.h"
#include "strided/core/error.h"

namespace book {

// One value the check measured. Either a comparison ("strides: (3, 1)", expected "(3, 1)", with
// its verdict) or a plain record (a timing, a noise figure): compared is false, expected empty and
// ok meaningless. A record is shown as *measured*, never as passed: only a comparison can be wrong.
// A quote is a record too, of a figure from one of the book's sources rather than from this run:
// quoted_from names where ("nikitaved, PyTorch for Scientists!, In[13]"), and it is shown as
// *quoted*.
struct Measurement {
  std::string what;
  std::string measured;
  std::string expected;  // non-empty exactly when compared
  bool compared = true;
  bool ok = true;        // the verdict of a comparison; true for a record, which is not judged
  std::string quoted_from;  // non-empty exactly for a quote
};

class Check : public Recorder {
 public:
  explicit Check(std::string claim_id = {}, std::vector<std::string>* taken = nullptr)
      : Recorder(taken, claim_id), id_(std::move(claim_id)) {}

  // Exact equality, the check of every EXACT claim. Given a key, the measured value is also
  // published under it, as value(key, measured) would: the page quotes what was checked.
  template <class A, class B>
  bool equal(std::string_view what, const A& measured, const B& expected,
             std::string_view key = {}) {
    const bool ok = (measured == expected);
    add(what, show(measured), show(expected), ok, key);
    return ok;
  }
  // |measured - expected| <= tolerance, for the few floating-point figures; a key as for equal.
  bool near(std::string_view what, double measured, double expected, double tolerance,
            std::string_view key = {});
  // A property that holds or not; `measured` says what was seen ("24 of 24 elements").
  bool that(std::string_view what, bool holds, std::string measured = {});
  // f must refuse its input: throw a user's error (strided::Error) with a message containing
  // `contains`; records the message. Any other exception, strided::InternalError (a library bug)
  // included, fails the check.
  template <class F>
  bool throws(std::string_view what, F&& f, std::string_view contains = {}) {
    const std::string expected =
        contains.empty() ? "an error" : "an error containing \"" + std::string(contains) + "\"";
    try {
      f();
    } catch (const strided::Error& e) {
      const std::string msg = e.what();
      const bool ok = msg.find(contains) != std::string::npos;
      add(what, "error: " + msg, expected, ok);
      return ok;
    } catch (const std::exception& e) {
      add(what, std::string("not a user's error: ") + e.what(), expected, false);
      return false;
    }
    add(what, "no error", "an error", false);
    return false;
  }
  // A comparison the caller judged itself: measured and expected as text, and the verdict.
  bool judge(std::string_view what, std::string measured, std::string expected, bool ok) {
    add(what, std::move(measured), std::move(expected), ok);
    return ok;
  }
  // A value shown beside the verdict without being compared (a timing, a noise figure). It never
  // makes a claim pass: a check that only records compared nothing.
  template <class T>
  void record(std::string_view what, const T& v) {
    measurements_.push_back({std::string(what), show(v), {}, false, true, {}});
  }
  // A figure quoted from a source (a seed's timing), shown beside this run's values as *quoted*:
  // like a record it proves nothing, and unlike one it was not measured here either.
  template <class T>
  void quote(std::string_view what, const T& v, std::string source) {
    if (source.empty())
      throw std::invalid_argument("book: the quote '" + std::string(what) + "' names no source");
    measurements_.push_back({std::string(what), show(v), {}, false, true, std::move(source)});
  }

  // The claim cannot be checked on this machine; nothing it measured counts.
  void not_run(std::string reason);
  // A timing whose noise exceeded its tolerance; the caller records the noise first.
  void inconclusive(std::string reason);
  // The check itself broke (an exception escaped it): a failure, with the message.
  void fail(std::string reason);

  const std::string& id() const { return id_; }
  Status status() const;
  // Why the status is what it is: the reason given, or, for a check that made no comparison,
  // "the check compared nothing".
  std::string reason() const;
  const std::vector<Measurement>& measurements() const { return measurements_; }

 private:
  // Adds a comparison; expected must say what was expected (an empty one would read as a record).
  // A non-empty key publishes the measured text as the value of that name.
  void add(std::string_view what, std::string measured, std::string expected, bool ok,
           std::string_view key = {});
  std::string id_;
  std::vector<Measurement> measurements_;
  bool failed_ = false;
  bool not_run_ = false;
  bool inconclusive_ = false;
  bool compared_anything_ = false;
  std::string reason_;
};

}  // namespace book
