// One plan for every walk, over the explorer's list of ops (jsonl.h, chain_ops(): every op a chain
// takes, the list the fuzzers draw from), so that a new op cannot skip the count: an op of the list
// with no case below fails the test. Each case applies its op to a tensor its `before` chain makes
// of a transposed (4,6) float32 start, and counts the plans TensorIteratorConfig::build makes for
// the op alone (iterator.h, plans_built) and the storages it allocates. A view builds no plan and
// allocates nothing; an op that allocates or writes walks its tensors through the plan, one plan a
// walk: the op's count is its walks, as PyTorch's op runs them (lib/strided/engine/
// plan_count_test.cpp explains the engine's own counts).
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "jsonl.h"
#include "strided/engine/iterator.h"
#include "strided/tensor/storage.h"

using namespace strided;
using namespace strided::explore;

namespace {

struct Case {
  const char* before;  // a JSON list of ops applied first, uncounted
  const char* op;      // the op counted
  int plans;           // the plans it builds
};

// By name, as chain_ops() lists them.
const std::map<std::string, Case>& cases() {
  static const std::map<std::string, Case> c = {
      {"permute", {"[]", R"({"op":"permute","dims":[1,0]})", 0}},
      {"transpose", {"[]", R"({"op":"transpose","dim0":0,"dim1":1})", 0}},
      {"slice", {"[]", R"({"op":"slice","dim":0,"start":1,"stop":5,"step":2})", 0}},
      {"select", {"[]", R"({"op":"select","dim":0,"index":1})", 0}},
      {"diagonal", {"[]", R"({"op":"diagonal"})", 0}},
      {"expand", {"[]", R"({"op":"expand","shape":[2,6,4]})", 0}},
      {"broadcast_to", {"[]", R"({"op":"broadcast_to","shape":[2,6,4]})", 0}},
      {"unsqueeze", {"[]", R"({"op":"unsqueeze","dim":0})", 0}},
      {"squeeze", {R"([{"op":"unsqueeze","dim":0}])", R"({"op":"squeeze"})", 0}},
      {"view", {"[]", R"({"op":"view","shape":[6,4]})", 0}},
      {"reshape", {"[]", R"({"op":"reshape","shape":[24]})", 1}},  // a copy: no view exists
      {"flatten", {"[]", R"({"op":"flatten"})", 1}},
      {"contiguous", {"[]", R"({"op":"contiguous"})", 1}},
      {"t", {"[]", R"({"op":"t"})", 0}},
      {"narrow", {"[]", R"({"op":"narrow","dim":0,"start":1,"length":2})", 0}},
      {"as_strided", {"[]", R"({"op":"as_strided","size":[2,2],"stride":[1,1]})", 0}},
      {"unfold", {"[]", R"({"op":"unfold","dimension":0,"size":2,"step":2})", 0}},
      {"movedim", {"[]", R"({"op":"movedim","source":0,"destination":1})", 0}},
      {"unflatten", {"[]", R"({"op":"unflatten","dim":0,"sizes":[2,3]})", 0}},
      {"mT", {"[]", R"({"op":"mT"})", 0}},
      {"clone", {"[]", R"({"op":"clone"})", 1}},
      {"flip", {"[]", R"({"op":"flip","dims":[0]})", 1}},
      {"split", {"[]", R"({"op":"split","split_size":2,"index":0})", 0}},
      {"split_with_sizes", {"[]", R"({"op":"split_with_sizes","sizes":[2,4],"index":1})", 0}},
      {"chunk", {"[]", R"({"op":"chunk","chunks":2,"index":0})", 0}},
      {"unbind", {"[]", R"({"op":"unbind","index":0})", 0}},
      {"tensor_split", {"[]", R"({"op":"tensor_split","sections":2,"index":0})", 0}},
      {"hsplit", {"[]", R"({"op":"hsplit","sections":2,"index":0})", 0}},
      {"vsplit", {"[]", R"({"op":"vsplit","sections":2,"index":0})", 0}},
      {"dsplit", {R"([{"op":"unsqueeze","dim":2}])", R"({"op":"dsplit","sections":1,"index":0})", 0}},
      {"view_dtype", {"[]", R"({"op":"view_dtype","dtype":"int32"})", 0}},
      {"to", {"[]", R"({"op":"to","dtype":"float64"})", 1}},
      {"swapaxes", {"[]", R"({"op":"swapaxes","axis0":0,"axis1":1})", 0}},
      {"swapdims", {"[]", R"({"op":"swapdims","dim0":0,"dim1":1})", 0}},
      {"moveaxis", {"[]", R"({"op":"moveaxis","source":0,"destination":1})", 0}},
      {"atleast_1d", {"[]", R"({"op":"atleast_1d"})", 0}},
      {"atleast_2d", {"[]", R"({"op":"atleast_2d"})", 0}},
      {"atleast_3d", {"[]", R"({"op":"atleast_3d"})", 0}},
      {"detach", {"[]", R"({"op":"detach"})", 0}},
      {"alias", {"[]", R"({"op":"alias"})", 0}},
      {"view_as_real", {R"([{"op":"to","dtype":"complex64"}])", R"({"op":"view_as_real"})", 0}},
      {"view_as_complex",
       {R"([{"op":"contiguous"},{"op":"view","shape":[12,2]}])", R"({"op":"view_as_complex"})", 0}},
      {"real", {R"([{"op":"to","dtype":"complex64"}])", R"({"op":"real"})", 0}},
      {"imag", {R"([{"op":"to","dtype":"complex64"}])", R"({"op":"imag"})", 0}},
      {"conj", {R"([{"op":"to","dtype":"complex64"}])", R"({"op":"conj"})", 0}},
      // A copy of the parts, then the imaginary parts negated in place: two walks.
      {"resolve_conj",
       {R"([{"op":"to","dtype":"complex64"},{"op":"conj"}])", R"({"op":"resolve_conj"})", 2}},
      {"conj_physical",
       {R"([{"op":"to","dtype":"complex64"}])", R"({"op":"conj_physical"})", 3}},
      {"H", {"[]", R"({"op":"H"})", 0}},
      {"mH", {"[]", R"({"op":"mH"})", 0}},
      {"adjoint", {"[]", R"({"op":"adjoint"})", 0}},
      {"add_", {"[]", R"({"op":"add_","other":1})", 1}},
      {"mul_", {"[]", R"({"op":"mul_","other":2})", 1}},
      {"fill_", {"[]", R"({"op":"fill_","value":3})", 1}},
      {"zero_", {"[]", R"({"op":"zero_"})", 1}},
      {"copy_", {"[]", R"({"op":"copy_","src":{"ops":[{"op":"flip","dims":[1]}]}})", 2}},
      {"index_put_",
       {"[]", R"({"op":"index_put_","indices":[[0,5]],"values":2.5})", 1}},
  };
  return c;
}

}  // namespace

TEST_CASE("every op of the explorer's list has a plan count") {
  std::set<std::string> listed;
  for (const OpFields& op : chain_ops()) {
    listed.insert(op.name);
    INFO("op " << op.name);
    CHECK_MESSAGE(cases().count(op.name) == 1,
                  "a new op: give it a case in tools/explore/plan_count_test.cpp");
  }
  for (const auto& entry : cases()) {
    const std::string& name = entry.first;  // a plain name: INFO's lambda cannot capture a binding
    INFO("case " << name);
    CHECK(listed.count(name) == 1);  // a case of an op the list no longer has
  }
}

TEST_CASE("each op of the explorer's list walks through the plan, one plan a walk") {
  for (const auto& entry : cases()) {
    const std::string& name = entry.first;
    const auto& c = entry.second;
    INFO("op " << name);
    Meter m;
    Tensor t = run_chain(Request::parse(std::string(R"({"start":{"shape":[4,6]},"ops":[{"op":"t"}]})")), m);
    for (const Request& op : Request::parse(c.before)) t = apply_op(t, op, m);
    const Request op = Request::parse(c.op);
    check_op(op);
    const int64_t plans = plans_built(), storages = Storage::allocation_count();
    apply_op(t, op, m);
    const int64_t built = plans_built() - plans;
    const int64_t allocated = Storage::allocation_count() - storages;
    CHECK(built == c.plans);
    // Nothing is made or written outside a plan: an op that allocates walks through one.
    if (allocated > 0) CHECK(built >= 1);
    if (c.plans == 0) CHECK(allocated == 0);
  }
}
