// libFuzzer target: the field names of strided-explore's --jsonl requests. Each input takes one of
// eleven valid requests (a view chain, a gradient request, the engine's unary, binary and matmul
// requests, broadcast_shapes, an expression), picks one of its objects at any depth, and adds a field to it whose
// name the input spells. A request must never ignore a field, as PyTorch never ignores an unknown
// keyword argument: the fuzzer checks that
//  - a field whose value no field takes (an object holding only the key "\u0001") is refused,
//    whatever its name, and the refusal names the field or that key;
//  - a field whose name no field has (any character outside a-z, 0-9 and _: every real field name
//    is made of those) is refused by name, whatever its value;
//  - the answer is one line of JSON, as the jsonl fuzzer checks it (explore_jsonl.cpp);
// and AddressSanitizer and UndefinedBehaviorSanitizer report anything else.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "answer_messages.h"
#include "budget.h"
#include "jsonl.h"

namespace {

using strided::explore::Json;

// Valid requests, one of each kind and shape of field: every one is answered without an error.
const char* const kSeeds[] = {
    R"({"start":{"shape":[2,3],"dtype":"float32"},"ops":[{"op":"transpose","dim0":0,"dim1":1},{"op":"slice","dim":0,"start":0,"stop":2,"step":1}]})",
    R"({"start":{"shape":[4,6]},"ops":[{"op":"view","shape":[2,12]},{"op":"unfold","dimension":1,"size":3,"step":2},{"op":"select","dim":0,"index":1}]})",
    R"({"start":{"shape":[3,4],"dtype":"int64","values":[0,1,2,3,4,5,6,7,8,9,10,11]},"ops":[{"op":"expand","shape":[2,3,4]},{"op":"contiguous"}]})",
    R"({"start":{"shape":[2,3,4]},"ops":[{"op":"permute","dims":[2,0,1]},{"op":"reshape","shape":[-1]}]})",
    R"({"grad":{"start":{"shape":[2,3],"dtype":"float64"},"ops":[{"op":"t"},{"op":"sum","dim":[0],"keepdim":true}]}})",
    R"({"unary":"exp","x":{"start":{"shape":[2,3],"dtype":"float32"}}})",
    R"({"binary":"add","x":{"start":{"shape":[2,3]}},"y":{"start":{"shape":[3]}}})",
    R"({"matmul":{"a_shape":[2,3],"b_shape":[3,4],"dtype":"float32"}})",
    R"({"broadcast_shapes":[[2,1],[1,3]]})",
    R"({"unary":"sum","x":{"start":{"shape":[2,3]},"ops":[{"op":"t"}]},"dim":0})",
    // Last, so that the corpus's first byte keeps naming the seeds above as it did.
    R"({"expression":"arange(24).reshape(2, 3, 4).permute(2, 0, 1)[1:, ::2]"})",
};
constexpr size_t kSeedCount = sizeof(kSeeds) / sizeof(kSeeds[0]);

[[noreturn]] void fail(const char* what, const std::string& line, const std::string& answer) {
  std::fprintf(stderr, "jsonl_fields: %s\n  line:   %s\n  answer: %s\n", what, line.c_str(),
               answer.substr(0, 2000).c_str());
  std::abort();
}

// Every object of a request, outermost first.
void objects_of(Json& j, std::vector<Json*>& out) {
  if (j.is_object()) {
    out.push_back(&j);
    for (auto& [key, value] : j.items()) objects_of(value, out);
  } else if (j.is_array()) {
    for (Json& v : j) objects_of(v, out);
  }
}

bool plain_name(const std::string& k) {
  if (k.empty()) return false;
  for (const char c : k)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

bool valid_utf8(const std::string& s) {
  try {
    (void)Json(s).dump();
    return true;
  } catch (const Json::exception&) {
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strided::explore;
  if (size < 3) return 0;
  Json request = Json::parse(kSeeds[data[0] % kSeedCount]);
  std::vector<Json*> objects;
  objects_of(request, objects);
  Json& target = *objects[data[1] % objects.size()];
  const bool impossible_value = data[2] % 2 == 0;
  const std::string key(reinterpret_cast<const char*>(data + 3), size - 3);
  if (key.find('\0') != std::string::npos || !valid_utf8(key)) return 0;
  // An existing field keeps its place: only its value is replaced by the impossible one.
  if (target.contains(key) && !impossible_value) return 0;
  target[key] = impossible_value ? Json{{"\x01", 1}} : Json(1);
  const std::string line = request.dump();
  Meter meter;
  const std::string answer = answer_line(line, meter);
  if (answer.find('\n') != std::string::npos) fail("an answer of more than one line", line, answer);
  Json a;
  try {
    a = Json::parse(answer);
  } catch (const Json::exception&) {
    fail("an answer that is not JSON", line, answer);
  }
  std::vector<std::string> messages;
  fuzz::messages_of(a, messages);
  for (const std::string& m : messages)
    if (m.rfind("internal error", 0) == 0) fail("an internal error", line, answer);
  if (impossible_value || !plain_name(key)) {
    if (messages.empty()) fail("a field that no request takes was ignored", line, answer);
    bool named = false;
    for (const std::string& m : messages)
      named |= m.find(key) != std::string::npos || (impossible_value && m.find('\x01') != std::string::npos);
    if (!named) fail("the refusal does not name the field", line, answer);
  }
  return 0;
}
