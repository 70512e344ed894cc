// libFuzzer target: strided-explore's gradient requests over every op a view chain takes. Each
// input becomes a start tensor (float32, float64, complex64 or complex128, up to 3 dims of 0 to 4)
// and up to 4 ops drawn from the chain's own op list and the gradient request's math ops (jsonl.h,
// chain_ops; grad_request.h, grad_math_ops: a new op is fuzzed as soon as a request takes it), each
// with small arguments for its fields. The same ops are asked as
// a view chain and as a gradient request. The fuzzer checks that
//  - both answers are one line of JSON and neither is an internal error;
//  - a gradient request never calls an op "unknown" that the view chain ran (the requests refuse
//    only ops without a gradient, by name, and what PyTorch refuses);
//  - the ops allocate no more than the meter charged, and the work stays within its budget;
// and AddressSanitizer and UndefinedBehaviorSanitizer report anything else.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "answer_messages.h"
#include "budget.h"
#include "grad_request.h"
#include "jsonl.h"
#include "strided/tensor/storage.h"

namespace {

using strided::explore::Json;

[[noreturn]] void fail(const char* what, const std::string& line, const std::string& answer) {
  std::fprintf(stderr, "grad_requests: %s\n  line:   %s\n  answer: %s\n", what, line.c_str(),
               answer.substr(0, 2000).c_str());
  std::abort();
}

// The input's bytes, one at a time; zeros once they run out.
struct Bytes {
  const uint8_t* data;
  size_t size, at = 0;
  uint8_t next() { return at < size ? data[at++] : 0; }
  int64_t small() { return static_cast<int64_t>(next() % 9) - 3; }  // -3 … 5
};

Json ints(Bytes& b) {
  Json out = Json::array();
  for (int n = b.next() % 4; n > 0; --n) out.push_back(b.small());
  return out;
}

Json value_of(const std::string& kind, Bytes& b) {
  if (kind == "int") return b.small();
  if (kind == "ints" || kind == "list") return ints(b);
  if (kind == "int_or_ints") return b.next() % 2 ? Json(b.small()) : ints(b);
  if (kind == "dtype") {
    static const char* const kNames[] = {"float32", "float64", "complex64", "int64", "bool"};
    return kNames[b.next() % 5];
  }
  if (kind == "number" || kind == "operand") return b.small();
  if (kind == "chain") return Json{{"ops", Json::array()}};
  if (kind == "bool") return b.next() % 2 == 1;
  return Json::array({ints(b)});  // lists
}

struct Answer {
  std::string text;
  Json json;
};

Answer ask(const std::string& line) {
  using namespace strided;
  explore::Meter meter;
  const int64_t before = Storage::allocated_bytes();
  Answer a{explore::answer_line(line, meter), {}};
  if (Storage::allocated_bytes() - before > meter.charged_bytes())
    fail("the ops allocated more than the meter charged", line, a.text);
  if (meter.work_spent() > explore::kWorkBudget) fail("the work passed its budget", line, a.text);
  if (a.text.find('\n') != std::string::npos) fail("an answer of more than one line", line, a.text);
  try {
    a.json = Json::parse(a.text);
  } catch (const Json::exception&) {
    fail("an answer that is not JSON", line, a.text);
  }
  return a;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strided::explore;
  // A chain's ops and the ones a gradient request adds (sum, exp, pow, mul_self, ...): the latter
  // make the view chain an "unknown op", and the property below then asks nothing of it.
  static const std::vector<OpFields> kOps = [] {
    std::vector<OpFields> all = chain_ops();
    for (OpFields& op : grad_math_ops()) all.push_back(std::move(op));
    return all;
  }();
  static const char* const kDtypes[] = {"float32", "float64", "complex64", "complex128"};
  Bytes b{data, size};
  Json start{{"dtype", kDtypes[b.next() % 4]}};
  Json shape = Json::array();
  for (int n = b.next() % 4; n > 0; --n) shape.push_back(b.next() % 5);
  start["shape"] = shape;
  Json ops = Json::array();
  for (int n = b.next() % 5; n > 0; --n) {
    const OpFields& op = kOps[b.next() % kOps.size()];
    Json o{{"op", op.name}};
    for (const OpField& f : op.fields)
      if (f.required || b.next() % 2) o[f.name] = value_of(f.kind, b);
    ops.push_back(o);
  }
  const std::string chain_line = Json{{"start", start}, {"ops", ops}}.dump();
  const std::string grad_line = Json{{"grad", Json{{"start", start}, {"ops", ops}}}}.dump();
  const Answer chain = ask(chain_line);
  const Answer grad = ask(grad_line);
  std::vector<std::string> chain_errors, grad_errors;
  fuzz::messages_of(chain.json, chain_errors);
  fuzz::messages_of(grad.json, grad_errors);
  for (const std::string& m : chain_errors)
    if (m.rfind("internal error", 0) == 0) fail("an internal error", chain_line, chain.text);
  for (const std::string& m : grad_errors) {
    if (m.rfind("internal error", 0) == 0) fail("an internal error", grad_line, grad.text);
    if (chain_errors.empty() && m.find("unknown op") != std::string::npos)
      fail("a gradient request calls unknown an op the view chain ran", grad_line, grad.text);
  }
  return 0;
}
