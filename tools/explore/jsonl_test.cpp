// The --jsonl protocol: answers to well-formed requests, PyTorch's refusals inside a chain, and
// malformed lines. Expected layouts are what PyTorch 1.13 gives for the same chains.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "jsonl.h"

using namespace strided::explore;

namespace {
Json ask(const std::string& line) { return Json::parse(answer_line(line)); }
std::string message_of(const std::string& line) {
  const Json a = ask(line);
  REQUIRE(a.contains("error"));
  return a.at("message").get<std::string>();
}
// The last layout a chain of ops gives from a (2, 3, 4) start of dtype (PyTorch's arange
// values), as "[sizes][strides]+offset", or "error: " and the message.
std::string layout_after(const std::string& dtype, const std::string& ops) {
  const Json a = ask(R"({"start":{"shape":[2,3,4],"dtype":")" + dtype + R"("},"ops":[)" + ops + "]}");
  const Json& r = a.contains("results") ? a["results"].back() : a;
  if (r.contains("error")) return "error: " + r["message"].get<std::string>();
  return r["shape"].dump() + r["stride"].dump() + "+" + r["storage_offset"].dump();
}
}  // namespace

TEST_CASE("a view chain: one result per op, with every field") {
  const std::string answer = answer_line(
      R"({"start":{"shape":[2,3,4],"dtype":"float32"},"ops":[{"op":"permute","dims":[2,0,1]},)"
      R"({"op":"slice","dim":1,"start":1,"stop":null,"step":2}]})");
  CHECK(answer ==
        R"({"results":[{"shape":[4,2,3],"stride":[1,12,4],"storage_offset":0,)"
        R"("is_contiguous":false,"shares_storage":true,"shares_prev":true,"numel":24,)"
        R"("values":[0.0,4.0,8.0,12.0,16.0,20.0,1.0,5.0,9.0,13.0,17.0,21.0,2.0,6.0,10.0,14.0,)"
        R"(18.0,22.0,3.0,7.0,11.0,15.0,19.0,23.0]},)"
        R"({"shape":[4,1,3],"stride":[1,24,4],"storage_offset":12,"is_contiguous":false,)"
        R"("shares_storage":true,"shares_prev":true,"numel":12,)"
        R"("values":[12.0,16.0,20.0,13.0,17.0,21.0,14.0,18.0,22.0,15.0,19.0,23.0]}]})");
}

TEST_CASE("values follow the dtype: integers, booleans, numbers; none above 256 elements") {
  Json a = ask(R"({"start":{"shape":[3],"dtype":"int64"},"ops":[{"op":"t"}]})");
  CHECK(a["results"][0]["values"].dump() == "[0,1,2]");
  a = ask(R"({"start":{"shape":[3],"dtype":"bool"},"ops":[{"op":"contiguous"}]})");
  CHECK(a["results"][0]["values"].dump() == "[false,true,true]");
  a = ask(R"({"start":{"shape":[2],"dtype":"float16"},"ops":[{"op":"unsqueeze","dim":0}]})");
  CHECK(a["results"][0]["values"].dump() == "[0.0,1.0]");
  a = ask(R"({"start":{"shape":[16,16],"dtype":"int32"},"ops":[{"op":"t"}]})");
  CHECK(a["results"][0]["values"].size() == 256);
  a = ask(R"({"start":{"shape":[257],"dtype":"int32"},"ops":[{"op":"unsqueeze","dim":1}]})");
  CHECK_FALSE(a["results"][0].contains("values"));
  CHECK(a["results"][0]["numel"] == 257);
}

TEST_CASE("shares_storage and shares_prev tell views from copies") {
  const Json a = ask(
      R"({"start":{"shape":[2,3]},"ops":[{"op":"t"},{"op":"contiguous"},{"op":"view","shape":[6]},)"
      R"({"op":"reshape","shape":[3,2]},{"op":"contiguous"}]})");
  const Json& r = a["results"];
  REQUIRE(r.size() == 5);
  CHECK((r[0]["shares_storage"] == true && r[0]["shares_prev"] == true));    // t: a view
  CHECK((r[1]["shares_storage"] == false && r[1]["shares_prev"] == false));  // a copy
  CHECK((r[2]["shares_storage"] == false && r[2]["shares_prev"] == true));   // a view of the copy
  CHECK(r[3]["shares_prev"] == true);  // reshape of a contiguous tensor: a view
  CHECK(r[4]["shares_prev"] == true);  // contiguous() of a contiguous tensor: itself
  CHECK(r[1]["stride"].dump() == "[2,1]");
}

TEST_CASE("every op of the protocol, with its defaults") {
  const auto layout = [](const std::string& ops) { return layout_after("int64", ops); };
  CHECK(layout(R"({"op":"transpose","dim0":0,"dim1":2})") == "[4,3,2][1,4,12]+0");
  CHECK(layout(R"({"op":"slice","dim":2,"start":-3,"stop":100})") == "[2,3,3][12,4,1]+1");
  CHECK(layout(R"({"op":"slice","start":1})") == "[1,3,4][12,4,1]+12");  // dim 0, step 1
  CHECK(layout(R"({"op":"select","dim":1,"index":-1})") == "[2,4][12,1]+8");
  CHECK(layout(R"({"op":"diagonal"})") == "[4,2][1,16]+0");
  CHECK(layout(R"({"op":"diagonal","offset":1,"dim1":1,"dim2":2})") == "[2,3][12,5]+1");
  CHECK(layout(R"({"op":"expand","shape":[5,-1,3,4]})") == "[5,2,3,4][0,12,4,1]+0");
  CHECK(layout(R"({"op":"broadcast_to","shape":[2,2,3,4]})") == "[2,2,3,4][0,12,4,1]+0");
  CHECK(layout(R"({"op":"unsqueeze","dim":3})") == "[2,3,4,1][12,4,1,1]+0");
  CHECK(layout(R"({"op":"unsqueeze","dim":1},{"op":"squeeze"})") == "[2,3,4][12,4,1]+0");
  CHECK(layout(R"({"op":"unsqueeze","dim":1},{"op":"squeeze","dim":null})") ==
        "[2,3,4][12,4,1]+0");
  CHECK(layout(R"({"op":"squeeze","dim":1})") == "[2,3,4][12,4,1]+0");
  CHECK(layout(R"({"op":"view","shape":[4,-1]})") == "[4,6][6,1]+0");
  CHECK(layout(R"({"op":"flatten"})") == "[24][1]+0");
  CHECK(layout(R"({"op":"flatten","start_dim":1})") == "[2,12][12,1]+0");
  CHECK(layout(R"({"op":"narrow","dim":2,"start":1,"length":2})") == "[2,3,2][12,4,1]+1");
  CHECK(layout(R"({"op":"as_strided","size":[2,2],"stride":[1,2],"storage_offset":3})") ==
        "[2,2][1,2]+3");
  CHECK(layout(R"({"op":"select","dim":0,"index":1},)"
               R"({"op":"as_strided","size":[2],"stride":[5],"storage_offset":null})") ==
        "[2][5]+12");  // the current offset is kept
  CHECK(layout(R"({"op":"unfold","dimension":2,"size":2,"step":1})") ==
        "[2,3,3,2][12,4,1,1]+0");
  CHECK(layout(R"({"op":"permute","dims":[1,0,2]},{"op":"reshape","shape":[6,4]})") ==
        "[6,4][4,1]+0");  // a copy
  CHECK(layout(R"({"op":"select","dim":0,"index":0},{"op":"t"})") == "[4,3][1,4]+0");
  CHECK(layout(R"({"op":"movedim","source":0,"destination":2})") == "[3,4,2][4,1,12]+0");
  CHECK(layout(R"({"op":"unflatten","dim":2,"sizes":[2,2]})") == "[2,3,2,2][12,4,2,1]+0");
  CHECK(layout(R"({"op":"mT"})") == "[2,4,3][12,1,4]+0");
  CHECK(layout(R"({"op":"flip","dims":[0]})") == "[2,3,4][12,4,1]+0");
  CHECK(layout(R"({"op":"clone"})") == "[2,3,4][12,4,1]+0");
}

TEST_CASE("the views with several outputs take \"index\"; view_dtype and the other spellings") {
  // PyTorch 1.13's layouts for x = arange(24).view(2, 3, 4): x.split(2, -1)[1] and so on.
  const auto layout = [](const std::string& ops) { return layout_after("int64", ops); };
  CHECK(layout(R"({"op":"split","split_size":2,"dim":-1,"index":1})") == "[2,3,2][12,4,1]+2");
  CHECK(layout(R"({"op":"split","split_size":[1,2],"dim":1,"index":1})") == "[2,2,4][12,4,1]+4");
  CHECK(layout(R"({"op":"split_with_sizes","sizes":[1,3],"dim":2,"index":0})") ==
        "[2,3,1][12,4,1]+0");
  CHECK(layout(R"({"op":"chunk","chunks":3,"dim":0,"index":1})") == "[1,3,4][12,4,1]+12");
  CHECK(layout(R"({"op":"unbind","dim":1,"index":2})") == "[2,4][12,1]+8");
  CHECK(layout(R"({"op":"tensor_split","sections":3,"dim":2,"index":0})") == "[2,3,2][12,4,1]+0");
  CHECK(layout(R"({"op":"tensor_split","indices":[1,4],"dim":2,"index":1})") ==
        "[2,3,3][12,4,1]+1");
  CHECK(layout(R"({"op":"hsplit","sections":3,"index":1})") == "[2,1,4][12,4,1]+4");
  CHECK(layout(R"({"op":"vsplit","indices":[1],"index":1})") == "[1,3,4][12,4,1]+12");
  CHECK(layout(R"({"op":"dsplit","sections":2,"index":-1})") == "[2,3,2][12,4,1]+2");
  CHECK(layout(R"({"op":"view_dtype","dtype":"int32"})") == "[2,3,8][24,8,1]+0");
  CHECK(layout(R"({"op":"swapaxes","axis0":0,"axis1":1})") == "[3,2,4][4,12,1]+0");
  CHECK(layout(R"({"op":"swapdims","dim0":0,"dim1":2})") == "[4,3,2][1,4,12]+0");
  CHECK(layout(R"({"op":"moveaxis","source":[0,1],"destination":[2,0]})") == "[3,4,2][4,1,12]+0");
  CHECK(layout(R"({"op":"select","dim":0,"index":0},{"op":"atleast_3d"})") == "[3,4,1][4,1,1]+0");
  CHECK(layout(R"({"op":"detach"},{"op":"alias"})") == "[2,3,4][12,4,1]+0");
  CHECK(layout(R"({"op":"unbind","index":3})") == "error: tuple index out of range");
  CHECK(layout(R"({"op":"tensor_split","dim":0,"index":0})") ==
        "error: bad input: tensor_split needs one of \"sections\" and \"indices\"");
  CHECK(layout(R"({"op":"split","split_size":2})") == "error: bad input: split needs \"index\"");
  CHECK(layout(R"({"op":"view_dtype","dtype":"uint16"})").find("unknown dtype") != std::string::npos);
  // An empty dim split into 2^40 chunks is refused by the work budget before any is made.
  CHECK(layout(R"({"op":"slice","dim":0,"stop":0},{"op":"chunk","chunks":1099511627776,"index":0})")
            .find("budget") != std::string::npos);
}

TEST_CASE("complex starts and the complex views; complex values as [re, im] pairs") {
  // PyTorch 1.13's layouts for z = torch.complex(arange(24.), zeros(24)).view(2, 3, 4).
  const auto layout = [](const std::string& ops) { return layout_after("complex64", ops); };
  CHECK(layout(R"({"op":"view_as_real"})") == "[2,3,4,2][24,8,2,1]+0");
  CHECK(layout(R"({"op":"real"})") == "[2,3,4][24,8,2]+0");
  CHECK(layout(R"({"op":"imag"})") == "[2,3,4][24,8,2]+1");
  CHECK(layout(R"({"op":"conj"})") == "[2,3,4][12,4,1]+0");
  CHECK(layout(R"({"op":"mH"})") == "[2,4,3][12,1,4]+0");
  CHECK(layout(R"({"op":"adjoint"})") == "[2,4,3][12,1,4]+0");
  CHECK(layout(R"({"op":"select","dim":0,"index":0},{"op":"H"})") == "[4,3][1,4]+0");
  CHECK(layout(R"({"op":"view_dtype","dtype":"float64"})") == "[2,3,4][12,4,1]+0");
  CHECK(layout(R"({"op":"slice","dim":2,"start":2},{"op":"view_dtype","dtype":"complex128"})") ==
        "[2,3,1][6,2,1]+1");
  CHECK(layout(R"({"op":"view_as_real"},{"op":"view_as_complex"})") == "[2,3,4][12,4,1]+0");
  CHECK(layout(R"({"op":"H"})").find("tensor.H is only supported on matrices") !=
        std::string::npos);
  // torch.view_as_real(z.conj().resolve_conj())[0, 0, 1] is [1.0, -0.0].
  const Json a = ask(R"({"start":{"shape":[2,3,4],"dtype":"complex64"},"ops":[{"op":"conj"},)"
                     R"({"op":"resolve_conj"}]})");
  CHECK(a["results"].back()["values"][1] == Json::array({1.0, -0.0}));
  CHECK(std::signbit(a["results"].back()["values"][1][1].get<double>()));
}

TEST_CASE("what PyTorch refuses ends the chain with an error entry") {
  const Json a = ask(
      R"({"start":{"shape":[2,3]},"ops":[{"op":"t"},{"op":"view","shape":[6]},{"op":"t"}]})");
  REQUIRE(a["results"].size() == 2);
  CHECK(a["results"][1]["error"] == true);
  CHECK(a["results"][1]["message"].get<std::string>().find("view size is not compatible") !=
        std::string::npos);
  const Json b = ask(R"({"start":{"shape":[2,3]},"ops":[{"op":"permute","dims":[0]}]})");
  CHECK(b["results"][0]["error"] == true);
  const Json c = ask(R"({"start":{"shape":[2,3]},"ops":[]})");
  CHECK(c.dump() == R"({"results":[]})");
  // A start PyTorch could not make: an error answer, not a chain.
  CHECK(message_of(R"({"start":{"shape":[-1,3]},"ops":[]})").find("negative dimension") !=
        std::string::npos);
  CHECK(message_of(R"({"start":{"shape":[4096,4097]},"ops":[]})").find("2^24") !=
        std::string::npos);
  // Huge views are fine; copying them is bounded.
  const Json d = ask(R"({"start":{"shape":[1]},"ops":[{"op":"expand","shape":[100000,100000]},)"
                     R"({"op":"contiguous"}]})");
  CHECK(d["results"][0]["numel"] == 10000000000);
  CHECK(d["results"][1]["message"].get<std::string>().find("2^24") != std::string::npos);
}

TEST_CASE("broadcast_shapes") {
  CHECK(answer_line(R"({"broadcast_shapes":[[3,1],[1,4]]})") == R"({"result":[3,4]})");
  CHECK(answer_line(R"({"broadcast_shapes":[]})") == R"({"result":[]})");
  CHECK(answer_line(R"({"broadcast_shapes":[[0],[1]]})") == R"({"result":[0]})");
  CHECK(answer_line(R"({"broadcast_shapes":[3,[2,1]]})") == R"({"result":[2,3]})");
  CHECK(ask(R"({"broadcast_shapes":[[2,3],[3,2]]})")["error"] == true);
  CHECK(message_of(R"({"broadcast_shapes":[[2,-1],[2,3]]})").find("negative dimension") !=
        std::string::npos);
}

TEST_CASE("a start's values, and the op \"to\": torch.tensor(values, dtype=...).to(dtype)") {
  // torch: torch.tensor([300.7, -1.5, float('nan')]).to(torch.int8) is [44, -1, 0];
  // torch.tensor([-1, 7], dtype=torch.uint8) is [255, 7].
  Json a = ask(R"({"start":{"shape":[3],"values":[300.7,-1.5,"NaN"]},"ops":[{"op":"to","dtype":"int8"}]})");
  CHECK(a["results"][0]["values"].dump() == "[44,-1,0]");
  CHECK(a["results"][0]["shares_storage"] == false);
  a = ask(R"({"start":{"shape":[2,1],"dtype":"uint8","values":[-1,7]},"ops":[{"op":"t"}]})");
  CHECK(a["results"][0]["values"].dump() == "[255,7]");
  a = ask(R"({"start":{"shape":[2],"dtype":"int16","values":[1,2]},"ops":[{"op":"to","dtype":"int16"}]})");
  CHECK(a["results"][0]["shares_prev"] == true);  // to() of the same dtype is the tensor itself
  a = ask(R"({"start":{"shape":[1],"dtype":"uint8","values":[300]},"ops":[]})");
  CHECK(a["error"] == true);
  CHECK(a["message"].get<std::string>().find("cannot be converted to type uint8") !=
        std::string::npos);
  CHECK(message_of(R"({"start":{"shape":[2,2],"values":[1,2,3]},"ops":[]})") ==
        "bad input: start.values holds 3 values for start.shape [2, 2]");
  CHECK(message_of(R"({"start":{"shape":[1],"values":["one"]},"ops":[]})").find("start.values") !=
        std::string::npos);
  CHECK(message_of(R"({"start":{"shape":[1]},"ops":[{"op":"to"}]})") ==
        "bad input: to needs \"dtype\"");
  CHECK(message_of(R"({"grad":{"start":{"shape":[1]},"ops":[{"op":"to","dtype":"float64"}]}})")
            .find("has no gradient here") != std::string::npos);
}

TEST_CASE("sum, and the narrow integers' promotion, in engine requests") {
  // torch: x = torch.tensor([[200, 255, 1], [0, 7, 9]], dtype=torch.uint8); x.sum() is 472, x.sum(0)
  // [200, 262, 10], both int64; x + torch.tensor([-1, 1, 2], dtype=torch.int8) is int16.
  const std::string x = R"({"start":{"shape":[2,3],"dtype":"uint8","values":[200,255,1,0,7,9]}})";
  Json a = ask(R"({"unary":"sum","x":)" + x + "}");
  CHECK(a["dtype"] == "int64");
  CHECK(a["shape"].dump() == "[]");
  CHECK(a["values"].dump() == "[472]");
  a = ask(R"({"unary":"sum","dim":0,"x":)" + x + "}");
  CHECK(a["values"].dump() == "[200,262,10]");
  CHECK(ask(R"({"unary":"sum","dim":2,"x":)" + x + "}")["error"] == true);
  CHECK(message_of(R"({"unary":"neg","dim":0,"x":)" + x + "}") ==
        "bad input: \"dim\" is sum's field; neg takes none");
  a = ask(R"({"binary":"add","x":)" + x +
          R"(,"y":{"start":{"shape":[3],"dtype":"int8","values":[-1,1,2]}}})");
  CHECK(a["dtype"] == "int16");
  CHECK(a["values"].dump() == "[199,256,3,-1,8,11]");
  a = ask(R"({"unary":"add_scalar","x":)" + x + "}");
  CHECK(a["dtype"] == "uint8");
  CHECK(a["values"].dump() == "[201,0,2,1,8,10]");
}

TEST_CASE("the engine's requests answer with the result's layout") {
  // Output strides follow the inputs' layout (a transposed operand gives a transposed result).
  const Json b = ask(
      R"({"binary":"mul","x":{"start":{"shape":[2,3]},"ops":[{"op":"t"}]},"y":{"start":{"shape":[3,2]}}})");
  CHECK(b["shape"] == Json::parse("[3,2]"));
  CHECK(b["stride"] == Json::parse("[1,3]"));
  const Json u = ask(R"({"unary":"neg","x":{"start":{"shape":[2]},"ops":[]}})");
  CHECK(u["values"] == Json::parse("[-0.0,-1.0]"));
  const Json m = ask(R"({"matmul":{"a_shape":[3,4,1,2],"b_shape":[1,2,3],"dtype":"float32"}})");
  CHECK(m["shape"] == Json::parse("[3,4,1,3]"));
  CHECK(message_of(R"({"binary":"pow","x":{"start":{"shape":[2]}},"y":{"start":{"shape":[2]}}})")
            .find("pow") != std::string::npos);
}

TEST_CASE("malformed lines are answered as bad input") {
  const auto bad = [](const std::string& line) {
    const Json a = ask(line);
    return a["error"] == true && a["message"].get<std::string>().rfind("bad input: ", 0) == 0;
  };
  CHECK(bad("not json"));
  CHECK(bad("{\"start\":"));
  CHECK(bad(""));
  CHECK(bad("   "));
  CHECK(bad("[1,2]"));
  CHECK(bad("42"));
  CHECK(bad(R"({"hello":1})"));
  CHECK(bad(R"({"start":{"shape":[2]},"ops":{}})"));
  CHECK(bad(R"({"start":{"shape":"2"},"ops":[]})"));
  CHECK(bad(R"({"start":{"shape":[2.5]},"ops":[]})"));
  CHECK(bad(R"({"start":{"shape":[2],"dtype":"float8"},"ops":[]})"));
  CHECK(bad(R"({"start":{"shape":[2],"dtype":5},"ops":[]})"));
  CHECK(bad(R"({"start":{"shape":[2]},"ops":[{"op":"spin"}]})"));
  CHECK(bad(R"({"start":{"shape":[2]},"ops":[{"dims":[0]}]})"));
  CHECK(bad(R"({"start":{"shape":[2]},"ops":[{"op":"permute"}]})"));
  CHECK(bad(R"({"start":{"shape":[2]},"ops":[{"op":"permute","dims":null}]})"));
  CHECK(bad(R"({"start":{"shape":[2]},"ops":[{"op":"select","dim":true,"index":0}]})"));
  CHECK(bad(R"({"start":{"shape":[2]},"ops":[{"op":"select","dim":0,"index":1e3}]})"));
  CHECK(bad(R"({"start":{"shape":[2]},"ops":[{"op":"select","dim":0,"index":9223372036854775808}]})"));
  CHECK(bad(R"({"start":{"shape":[2]},"ops":[{"op":"t"},{"op":"nope"}]})"));  // checked first
  CHECK(bad(R"({"broadcast_shapes":[[1,"a"]]})"));
  CHECK(bad(R"({"broadcast_shapes":5})"));
  CHECK(bad(std::string(100, '[') + std::string(100, ']')));
  CHECK(bad("{\"start\":{\"shape\":[2]},\"ops\":[{\"op\":\"\xff\"}]}"));  // not UTF-8
  CHECK(bad("{\"start\":{\"shape\":[2]},\"ops\":[{\"op\":\"\xc3\xa9\"}]}"));  // unknown op
}

TEST_CASE("every request is strict: a field it does not have is refused, never defaulted") {
  const auto refused = [](const std::string& line, const std::string& words) {
    const Json a = ask(line);
    const std::string message = a.value("message", "");
    INFO(line, " -> ", message);
    CHECK(a["error"] == true);
    CHECK(message.rfind("bad input: ", 0) == 0);
    CHECK(message.find(words) != std::string::npos);
  };
  // A misspelt op field used to slice dim 0; a misspelt "ops" gave an empty chain; a misspelt
  // storage_offset or dtype fell back to its default.
  refused(R"({"start":{"shape":[2,3]},"ops":[{"op":"slice","dimm":1,"start":1}]})",
          "the op slice has no field \"dimm\" (its fields: \"op\", \"dim\", \"start\"");
  refused(R"({"start":{"shape":[2,3]},"opz":[{"op":"t"}]})", "a view chain has no field \"opz\"");
  refused(R"({"start":{"shape":[6]},"ops":[{"op":"as_strided","size":[2],"stride":[1],"storage_ofset":1}]})",
          "has no field \"storage_ofset\"");
  refused(R"({"start":{"shape":[2],"dtyp":"int32"},"ops":[]})", "start has no field \"dtyp\"");
  refused(R"({"start":{"shape":[2]},"ops":[{"op":"t","dim":0}]})", "the op t has no field \"dim\"");
  refused(R"({"unary":"neg","binary":"add","x":{"start":{"shape":[2]}},"y":{"start":{"shape":[2]}}})",
          "this one has both \"unary\" and \"binary\"");
  refused(R"({"unary":"neg","x":{"start":{"shape":[2]},"opps":[]}})", "a chain has no field \"opps\"");
  refused(R"({"binary":"add","x":{"start":{"shape":[2]}},"y":{"start":{"shape":[2]}},"z":1})",
          "a binary request has no field \"z\"");
  refused(R"({"matmul":{"a_shape":[2,3],"b_shape":[3,2],"dtyp":"float64"}})",
          "matmul has no field \"dtyp\"");
  refused(R"({"grad":{"start":{"shape":[2]}},"x":1})", "a grad request has no field \"x\"");
  refused(R"({"broadcast_shapes":[[2]],"start":{"shape":[2]}})", "this one has both");
  // A chain's "ops" alone beside another kind is named as itself (found by fuzz/jsonl_fields.cpp).
  refused(R"({"grad":{"start":{"shape":[2]}},"ops":[]})",
          "this one has both \"grad\" and \"ops\"");
  // tensor_split's indices must be a list: an integer ran as no split at all.
  refused(R"({"start":{"shape":[6]},"ops":[{"op":"tensor_split","indices":2,"index":0}]})",
          "tensor_split.indices must be a list of integers, got 2");
  // Integers are int64 everywhere, pow's exponent included.
  const Json pow = ask(R"({"grad":{"start":{"shape":[2]},"ops":[{"op":"pow","exponent":18446744073709551615}]}})");
  CHECK(pow["message"].get<std::string>().find("pow.exponent does not fit in int64") != std::string::npos);
  // What the protocol has still answers.
  CHECK(ask(R"({"start":{"shape":[6]},"ops":[{"op":"tensor_split","indices":[2],"index":1}]})")
            ["results"][0]["shape"] == Json::array({4}));
}

TEST_CASE("serve answers every line in order, and goes on after bad ones") {
  std::istringstream in(
      "{\"broadcast_shapes\":[[2],[1]]}\n"
      "garbage\n"
      "\n"
      "{\"start\":{\"shape\":[1]},\"ops\":[{\"op\":\"t\"}]}\r\n"
      "{\"broadcast_shapes\":[[3],[1]]}");  // no newline at the end
  std::ostringstream out;
  serve(in, out);
  std::istringstream lines(out.str());
  std::vector<std::string> answers;
  for (std::string l; std::getline(lines, l);) answers.push_back(l);
  REQUIRE(answers.size() == 5);
  CHECK(answers[0] == R"({"result":[2]})");
  CHECK(answers[1].rfind(R"({"error":true,"message":"bad input: not JSON)", 0) == 0);
  CHECK(answers[2] == R"({"error":true,"message":"bad input: empty line"})");
  CHECK(answers[3].rfind(R"({"results":[{"shape":[1])", 0) == 0);
  CHECK(answers[4] == R"({"result":[3]})");
  // An overlong line is skipped, not stored, and answered.
  std::istringstream big(std::string(kMaxLineBytes + 10, 'x') + "\n{\"broadcast_shapes\":[]}\n");
  std::ostringstream out2;
  serve(big, out2);
  CHECK(out2.str() == "{\"error\":true,\"message\":\"bad input: the line has 1048586 bytes; at "
                      "most 1048576 are read\"}\n{\"result\":[]}\n");
}

TEST_CASE("NaN and the infinities are written as strings and read back") {
  // float16 holds at most 65504: arange's 70000 becomes inf there, as in torch.
  const std::string inf =
      R"({"start":{"shape":[70001],"dtype":"float16"},"ops":[{"op":"slice","start":70000}]})";
  const Json pos = ask(R"({"unary":"abs","x":)" + inf + "}");
  CHECK(pos["values"].dump() == R"(["Infinity"])");
  const Json neg = ask(R"({"unary":"neg","x":)" + inf + "}");
  CHECK(neg["values"].dump() == R"(["-Infinity"])");
  const Json nan = ask(R"({"binary":"sub","x":)" + inf + R"(,"y":)" + inf + "}");
  CHECK(nan["values"].dump() == R"(["NaN"])");
  // The one reader gives back the very doubles the writer was given.
  for (const double v : {std::numeric_limits<double>::infinity(),
                         -std::numeric_limits<double>::infinity(), 0.5, -0.0, 1e308}) {
    const Json j = Json::parse(float_json(v).dump());
    REQUIRE(value_number(j));
    CHECK(*value_number(j) == v);
    CHECK(std::signbit(*value_number(j)) == std::signbit(v));
  }
  CHECK(std::isnan(*value_number(Json::parse(float_json(std::nan("")).dump()))));
  CHECK(value_number(Json::parse("true")) == 1.0);
  CHECK_FALSE(value_number(Json::parse(R"("nan")")));  // only the protocol's spellings
  CHECK_FALSE(value_number(Json::parse("null")));
}

TEST_CASE("integers in requests are exact int64") {
  // 2^63 - 1 and -2^63 are valid slice bounds; 2^53 + 1 comes back in the message unrounded.
  const Json a = ask(
      R"({"start":{"shape":[4],"dtype":"int64"},"ops":[{"op":"slice","start":-9223372036854775808,)"
      R"("stop":9223372036854775807},{"op":"as_strided","size":[1],"stride":[1],)"
      R"("storage_offset":9007199254740993}]})");
  REQUIRE(a["results"].size() == 2);
  CHECK(a["results"][0]["values"].dump() == "[0,1,2,3]");
  CHECK(a["results"][1]["message"].get<std::string>().find("storage offset 9007199254740993") !=
        std::string::npos);
}

TEST_CASE("a refusal by a layout rule carries the library's explanation") {
  // view: the two dims that cannot merge and the stride merging needs.
  const Json a = ask(R"({"start":{"shape":[3,4]},"ops":[{"op":"t"},{"op":"view","shape":[12]}]})");
  const Json& v = a["results"][1];
  CHECK(v["error"] == true);
  CHECK(v["message"].get<std::string>().find("view size is not compatible") != std::string::npos);
  REQUIRE(v.contains("explanation"));
  CHECK(v["explanation"]["rule"] == "view");
  CHECK(v["explanation"]["dims"] == Json::array({0, 1}));
  CHECK(v["explanation"]["why"] ==
        "new dim 0 (size 12) spans dims 0 and 1, which cannot merge: merging needs stride[0] = "
        "size[1] × stride[1] = 3 × 4 = 12, and stride[0] is 1");
  CHECK(v["explanation"]["instead"] ==
        "reshape(12) copies the 12 elements; or contiguous() first, then view(12)");
  // expand and broadcast_to: the dim whose size is not 1.
  const Json e = ask(R"({"start":{"shape":[2,3]},"ops":[{"op":"expand","shape":[4,3]}]})");
  CHECK(e["results"][0]["explanation"]["rule"] == "expand");
  CHECK(e["results"][0]["explanation"]["dims"] == Json::array({0}));
  const Json bt = ask(R"({"start":{"shape":[2,3]},"ops":[{"op":"broadcast_to","shape":[2,4]}]})");
  CHECK(bt["results"][0]["explanation"]["dims"] == Json::array({1}));
  // Broadcasting, in broadcast_shapes and in a binary op.
  const Json s = ask(R"({"broadcast_shapes":[[2,3],[3,2]]})");
  CHECK(s["explanation"]["rule"] == "broadcast");
  CHECK(s["explanation"]["dims"] == Json::array({1}));
  const Json b = ask(R"({"binary":"add","x":{"start":{"shape":[3]}},"y":{"start":{"shape":[2]}}})");
  CHECK(b["error"] == true);
  CHECK(b["message"].get<std::string>().find("The size of tensor a (3) must match the size of "
                                             "tensor b (2) at non-singleton dimension 0") !=
        std::string::npos);
  CHECK(b["explanation"]["why"].get<std::string>().find("dim 0 of a (size 3) meets dim 0 of b "
                                                        "(size 2)") != std::string::npos);
  // What succeeds, and a refusal no layout rule explains, carry none.
  const Json ok = ask(R"({"start":{"shape":[3,4]},"ops":[{"op":"view","shape":[12]}]})");
  CHECK(!ok["results"][0].contains("error"));
  const Json other = ask(R"({"start":{"shape":[2,3]},"ops":[{"op":"permute","dims":[0]}]})");
  CHECK(other["results"][0]["error"] == true);
  CHECK(!other["results"][0].contains("explanation"));
}
