// Bad input, part 8: --jsonl request lines. Every line gets one answer line, an error object naming
// what is wrong, and the next line is served as if nothing had happened.
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "expect_error.h"
#include "explore_support.h"
#include "jsonl.h"

using namespace strided::explore;

using bad_input::check_contains;
using bad_input::error_message;

namespace {
const std::string kStart = R"({"start":{"shape":[2,3]},"ops":[)";
}  // namespace

TEST_CASE("a line that is not JSON") {
  check_contains(error_message("{"), {"bad input: not JSON", "unexpected end of input"});
}

TEST_CASE("JSON that is not an object") {
  check_contains(error_message("[1,2]"), {"bad input: a request is a JSON object"});
}

TEST_CASE("an empty line") {
  check_contains(error_message(""), {"bad input: empty line"});
}

TEST_CASE("JSON followed by more text") {
  check_contains(error_message(kStart + R"({"op":"t"}]} trailing)"), {"bad input: not JSON"});
}

TEST_CASE("a NUL byte in a line") {
  // The JSON parser would stop at the NUL and answer {"result":[1]} for the text before it.
  check_contains(error_message(std::string(R"({"broadcast_shapes":[[1]]})") + '\0' + "junk"),
                 {"bad input: a NUL byte at column 27"});
  check_contains(error_message(std::string(R"({"broadcast_shapes":[[1]]})") + '\0'),
                 {"a NUL byte at column 27"});
}

TEST_CASE("a matmul request's errors name matmul and the field") {
  check_contains(error_message(R"({"matmul":{"a_shape":[2,-3],"b_shape":[3]}})"),
                 {"matmul.a_shape", "negative dimension -3", "[2, -3]"});
  check_contains(error_message(R"({"matmul":{"a_shape":[2,3],"b_shape":"x"}})"),
                 {"bad input: matmul.b_shape must be a list of integers"});
  check_contains(error_message(R"({"matmul":{"a_shape":[2,3],"b_shape":[3],"dtype":"uint16"}})"),
                 {"bad input: matmul.dtype: unknown dtype \"uint16\""});
  check_contains(error_message(R"({"matmul":{"a_shape":[1048576,1048576],"b_shape":[3]}})"),
                 {"matmul.a_shape", "needs 1099511627776 elements"});
  // torch: "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"
  check_contains(error_message(R"({"matmul":{"a_shape":[2,3],"b_shape":[4,5]}})"),
                 {"2x3 and 4x5"});
}

TEST_CASE("an unknown op") {
  check_contains(error_message(kStart + R"({"op":"frob"}]})"), {"bad input: unknown op \"frob\""});
}

TEST_CASE("an op without a required field") {
  check_contains(error_message(kStart + R"({"op":"select","dim":0}]})"),
                 {"bad input: select needs \"index\""});
}

TEST_CASE("a field of the wrong type") {
  check_contains(error_message(kStart + R"({"op":"permute","dims":"abc"}]})"),
                 {"permute.dims must be a list of integers"});
  check_contains(error_message(kStart + R"({"op":"select","dim":0.5,"index":0}]})"),
                 {"select.dim must be an integer, got 0.5"});
}

TEST_CASE("an integer past int64") {
  check_contains(error_message(kStart + R"({"op":"select","dim":0,"index":9223372036854775808}]})"),
                 {"select.index does not fit in int64"});
}

TEST_CASE("ops that are not a list") {
  check_contains(error_message(R"({"start":{"shape":[2,3]},"ops":{"op":"t"}})"),
                 {"\"ops\" must be a list"});
}

TEST_CASE("an unknown dtype") {
  check_contains(error_message(R"({"start":{"shape":[2],"dtype":"complex32"},"ops":[]})"),
                 {"unknown dtype \"complex32\""});
}

TEST_CASE("a start's values that do not fill its shape, are not numbers, or do not fit") {
  check_contains(error_message(R"({"start":{"shape":[2,3],"values":[1,2]},"ops":[]})"),
                 {"bad input: start.values holds 2 values for start.shape [2, 3]"});
  check_contains(error_message(R"({"start":{"shape":[1048576,1048576],"values":[1]},"ops":[]})"),
                 {"bad input: start.values holds 1 values"});
  check_contains(error_message(R"({"start":{"shape":[1],"values":[[1]]},"ops":[]})"),
                 {"bad input: start.values must hold numbers", "[1]"});
  check_contains(error_message(R"({"start":{"shape":[1],"values":7},"ops":[]})"),
                 {"bad input: start.values must be a list"});
  // torch.tensor([128], dtype=torch.int8) raises: the value does not fit.
  check_contains(error_message(R"({"start":{"shape":[1],"dtype":"int8","values":[128]},"ops":[]})"),
                 {"value 128 cannot be converted to type int8 without overflow"});
}

TEST_CASE("a start shape larger than the explorer allocates") {
  check_contains(error_message(R"({"start":{"shape":[1048576,1048576]},"ops":[]})"),
                 {"[1048576, 1048576] needs 1099511627776 elements", "allocates at most 16777216"});
}

TEST_CASE("a start shape with a negative size") {
  check_contains(error_message(R"({"start":{"shape":[2,-3]},"ops":[]})"),
                 {"negative dimension -3", "[2, -3]"});
}

TEST_CASE("broadcast_shapes that do not broadcast") {
  check_contains(error_message(R"({"broadcast_shapes":[[2,3],[4,3]]})"),
                 {"broadcast_shapes", "tensor a (2)", "tensor b (4)", "[2, 3] and [4, 3]"});
}

TEST_CASE("nesting deeper than the protocol reads") {
  check_contains(error_message(std::string(100, '[') + std::string(100, ']')),
                 {"nesting deeper than 64 levels"});
}

TEST_CASE("a line longer than the protocol reads") {
  const std::string line = R"({"broadcast_shapes":[[)" + std::string(kMaxLineBytes, '1') + "]]}";
  check_contains(error_message(line), {"bad input"});
}

TEST_CASE("bytes that are not UTF-8") {
  check_contains(error_message("{\"start\":{\"shape\":[2],\"dtype\":\"\xff\xfe\"},\"ops\":[]}"),
                 {"bad input: not JSON", "UTF-8"});
}

TEST_CASE("a failing op ends its chain with the library's error") {
  const Json j = Json::parse(answer_line(
      kStart + R"({"op":"select","dim":5,"index":0},{"op":"t"}]})"));
  REQUIRE(j["results"].size() == 1);  // the t after the error is not run
  check_contains(j["results"][0]["message"], {"select()", "[-2, 1], but got 5"});
}

TEST_CASE("as_strided outside the start's storage") {
  check_contains(
      error_message(kStart +
                    R"({"op":"as_strided","size":[5,5],"stride":[5,1],"storage_offset":0}]})"),
      {"as_strided()", "requiring a storage size of 100 are out of bounds for storage of size 24"});
}

TEST_CASE("a copy of an expanded view larger than the explorer allocates") {
  check_contains(
      error_message(R"({"start":{"shape":[1]},"ops":[{"op":"expand","shape":[33554432]},)"
                    R"({"op":"contiguous"}]})"),
      {"contiguous", "needs 33554432 elements"});
}

TEST_CASE("a binary request whose operands do not broadcast") {
  check_contains(error_message(R"({"binary":"add","x":{"start":{"shape":[2,3]}},)"
                               R"("y":{"start":{"shape":[4]}}})"),
                 {"add"});
}

TEST_CASE("every bad line is answered and the next line still served") {
  std::istringstream in("{\n[1]\n{\"broadcast_shapes\":[[3,1],[1,4]]}\n");
  std::ostringstream out;
  serve(in, out);
  std::istringstream lines(out.str());
  std::string first, second, third;
  std::getline(lines, first);
  std::getline(lines, second);
  std::getline(lines, third);
  CHECK(Json::parse(first).value("error", false));
  CHECK(Json::parse(second).value("error", false));
  CHECK(Json::parse(third)["result"] == Json::array({3, 4}));
}

TEST_CASE("an in-place op's malformed fields") {
  check_contains(error_message(kStart + R"({"op":"add_"}]})"), {"bad input: add_ needs \"other\""});
  check_contains(error_message(kStart + R"({"op":"add_","other":"a"}]})"),
                 {"bad input: add_.other must be a chain"});
  check_contains(error_message(kStart + R"({"op":"add_","other":1,"alpha":[1]}]})"),
                 {"bad input: add_.alpha must be a number, got [1]"});
  check_contains(error_message(kStart + R"({"op":"fill_","value":{"ops":[]}}]})"),
                 {"bad input: fill_.value must be a number"});
  check_contains(error_message(kStart + R"({"op":"copy_","src":{"ops":[],"shape":[2]}}]})"),
                 {"bad input: copy_.src has no field \"shape\""});
  check_contains(error_message(kStart + R"({"op":"copy_","src":{"ops":[{"op":"frob"}]}}]})"),
                 {"bad input: unknown op \"frob\""});
  check_contains(error_message(kStart + R"({"op":"index_put_","indices":[0],"values":1}]})"),
                 {"bad input: index_put_.indices must be a list of lists of integers"});
  check_contains(error_message(kStart +
                               R"({"op":"index_put_","indices":[[0]],"values":1,"accumulate":1}]})"),
                 {"bad input: index_put_.accumulate must be true or false, got 1"});
  check_contains(error_message(kStart + R"({"op":"zero_","value":0}]})"),
                 {"bad input: the op zero_ has no field \"value\""});
}

TEST_CASE("an in-place op PyTorch refuses ends its chain with PyTorch's words") {
  // A write into memory its operand partly covers (aten/src/ATen/MemoryOverlap.cpp).
  check_contains(error_message(R"({"start":{"shape":[5]},"ops":[{"op":"slice","start":1},)"
                               R"({"op":"copy_","src":{"ops":[{"op":"slice","stop":-1}]}}]})"),
                 {"unsupported operation: some elements of the input tensor and the written-to "
                  "tensor refer to a single memory location. Please clone() the tensor before "
                  "performing the operation."});
}
