// strided-explore --jsonl: one JSON request per input line, one JSON answer per output line, in
// order, each flushed. The protocol:
//   {"start":{"shape":[2,3,4],"dtype":"float32"},"ops":[{"op":"permute","dims":[2,0,1]}, ...]}
//     -> {"results":[{"shape","stride","storage_offset","is_contiguous","shares_storage",
//                     "shares_prev","numel","values"}, ...]}
//        one entry per op applied; a failing op gives {"error":true,"message":...} as its entry
//        and ends the chain. values (row-major) only when numel <= 256; NaN and infinities as
//        the strings "NaN", "Infinity", "-Infinity" (float_json).
//   {"broadcast_shapes":[[3,1],[1,4]]} -> {"result":[3,4]}
//   {"unary":...}, {"binary":...}, {"matmul":...}: see engine_requests.h.
//   {"expression":"arange(4).view(2, 2)"}: see expression_request.h.
//   A line that is not such a request -> {"error":true,"message":"bad input: ..."}.
// The start tensor is arange(numel) in the dtype (float32 when absent), reshaped, contiguous.
// In a request, a field that is null counts as omitted, and a key given twice is bad input. Each
// line is one request, charged against the budgets of budget.h; an op that would pass one ends
// its chain with an error naming the budget.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "budget.h"
#include "strided/layout/refusal.h"
#include "strided/tensor/tensor.h"

namespace strided::explore {

// Answers keep their fields in the order they are written (an ordered object); requests are read
// into a keyed object, whose lookups stay fast however many keys a line holds (an ordered object
// searches its keys one by one: a line of 90,000 keys took seconds).
using Json = nlohmann::ordered_json;
using Request = nlohmann::json;

inline constexpr int64_t kMaxValues = 256;
inline constexpr size_t kMaxLineBytes = size_t{1} << 20;
inline constexpr int kMaxJsonDepth = 64;

// A request that does not follow the protocol; answered {"error":true,"message":"bad input: ..."}.
class BadInput : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The pieces every request kind shares (engine_requests.cpp builds its operands with them), each
// charged to the request's meter. Structural problems throw BadInput; what PyTorch would refuse,
// and what a budget refuses, throws strided::Error.
Tensor chain_start(const Request& start, Meter& m);
// arange(numel) of a dtype (float32 when dtype is absent or null), reshaped: a chain's start and
// each matmul operand. shape_name and dtype_name are the fields as the request spells them
// ("start.shape", "matmul.a_shape"), and every message names them.
Tensor start_tensor(const Request& shape, const Request* dtype, const std::string& shape_name,
                    const std::string& dtype_name, Meter& m);
void check_op(const Request& op);                           // the op's name and fields, before running
// Every op a chain takes, by name, with its fields: what the fuzzers draw their requests from, so
// that a new op is fuzzed without being listed twice. A field's kind is one of "int", "ints",
// "int_or_ints", "list", "dtype", "number", "operand", "chain", "bool", "lists" (jsonl.cpp,
// FieldType).
struct OpField {
  std::string name, kind;
  bool required = false;
};
struct OpFields {
  std::string name;
  std::vector<OpField> fields;
};
std::vector<OpFields> chain_ops();
// One op, already checked; an in-place op's operand {"ops":[...]} applies to start (to t when
// start is undefined).
Tensor apply_op(const Tensor& t, const Request& op, Meter& m, const Tensor& start = Tensor());
// {"start":...,"ops":[...]}, every op applied, while the request also holds held.
Tensor run_chain(const Request& chain, Meter& m, std::vector<Tensor> held = {});
// A chain result's layout fields: {"shape","stride","storage_offset","is_contiguous",
// "shares_storage" (with start),"shares_prev" (with prev; false when prev is undefined),"numel"}.
Json layout_json(const Tensor& t, const Tensor& start, const Tensor& prev);
Json values_json(const Tensor& t);                 // row-major: integers, booleans or numbers
// A float as the protocol writes it: a JSON number, or for the values JSON cannot spell, the
// strings "NaN", "Infinity" and "-Infinity" (JavaScript's and Python's names for them), so that
// 0/0 and 1/0 stay apart. The one place either direction is decided.
Json float_json(double v);
// A value read back: a number, a boolean (as 0 or 1) or one of those three strings; else nullopt.
std::optional<double> value_number(const Json& v);
Json error_json(const std::string& message);       // {"error":true,"message":...}
// The same, and for a layout rule's refusal (bounded_ops.h's ExplainedError, or `why` when given)
// the library's explanation: "explanation":{"rule","dims","why","instead"} (strided/layout/refusal.h).
Json error_json(const Error& e);
Json error_json(const std::string& message, const std::optional<LayoutRefusal>& why);

// One request line in, one answer line out (without the newline). Never throws.
std::string answer_line(const std::string& line);
std::string answer_line(const std::string& line, Meter& meter);  // charged to meter
// Answers every line of in on out, flushing after each; returns when in ends or out fails.
void serve(std::istream& in, std::ostream& out);

}  // namespace strided::explore
