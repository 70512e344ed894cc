// Bad input, part 7: expressions a reader may type into strided-explore. Each is refused with an
// error naming what is wrong and the offending text, and with the span the caret will mark.
#include <string>

#include "evaluate.h"
#include "expect_error.h"
#include "explore_support.h"
#include "expression.h"

using namespace strided::explore;

using bad_input::marked;
using bad_input::run;

TEST_CASE("an unclosed argument list") {
  CHECK_ERROR(run("arange(24"), "expected ',' or ')' in the argument list", "end of input");
}

TEST_CASE("an unknown factory, with a suggestion") {
  CHECK_ERROR(run("arrange(3)"), "unknown factory 'arrange'", "did you mean arange?");
  CHECK(marked("arrange(3)") == "arrange");
}

TEST_CASE("an unknown method") {
  CHECK_ERROR(run("arange(3).frobnicate()"), "unknown method 'frobnicate'");
  CHECK(marked("arange(3).frobnicate()") == "frobnicate");
}

TEST_CASE("a character the language does not have") {
  CHECK_ERROR(run("arange(3) $"), "unexpected character '$'");
  CHECK_ERROR(run("arange(1<<30)"), "unexpected character '<'");
}

TEST_CASE("an integer literal past int64") {
  // torch: torch.arange(9223372036854775808) raises "Overflow when unpacking long".
  CHECK_ERROR(run("arange(99999999999999999999)"), "99999999999999999999",
              "Overflow when unpacking long", "does not fit in int64");
  CHECK_ERROR(run("tensor([9223372036854775808])"), "Overflow when unpacking long",
              "9223372036854775808 does not fit in int64");
  CHECK(marked("tensor([9223372036854775808])") == "9223372036854775808");
  // One past -2^63, with its sign, and in an index.
  CHECK_ERROR(run("tensor([-9223372036854775809])"), "Overflow when unpacking long",
              "-9223372036854775809 does not fit in int64");
  CHECK(marked("tensor([-9223372036854775809])") == "-9223372036854775809");
  CHECK_ERROR(run("arange(3)[9223372036854775808]"), "Overflow when unpacking long",
              "9223372036854775808");
}

TEST_CASE("an expression longer than the explorer reads") {
  const std::string source = "arange(3)" + std::string(kMaxExpressionLength, ' ');
  CHECK_ERROR(run(source), "4096");
}

TEST_CASE("nesting deeper than the explorer reads") {
  const std::string source = "tensor(" + std::string(100, '[') + "1" + std::string(100, ']') + ")";
  CHECK_ERROR(run(source), "nest");
}

TEST_CASE("an arange longer than the explorer allocates") {
  // strided-explore bounds every allocation (bounded_ops.h); the library alone would try.
  CHECK_ERROR(run("arange(1073741824)"), "arange(0, 1073741824, 1) needs 1073741824 elements",
              "allocates at most 16777216 (2^24) per tensor");
}

TEST_CASE("zeros larger than the explorer allocates") {
  CHECK_ERROR(run("zeros((1048576, 1048576))"), "zeros",
              "[1048576, 1048576] needs 1099511627776 elements", "allocates at most 16777216");
}

TEST_CASE("an empty_strided whose storage is larger than the explorer allocates") {
  CHECK_ERROR(run("empty_strided((2,2),(1099511627776,1))"), "empty_strided",
              "(2,2):(1099511627776,1) needs 1099511627778 elements");
}

TEST_CASE("a copy of an expanded view larger than the explorer allocates") {
  // The expand is a view and allocates nothing; its contiguous copy would hold 2^25 elements.
  CHECK_ERROR(run("arange(1).expand(33554432).contiguous()"), "contiguous",
              "the copy of (33554432,):(0,) needs 33554432 elements");
  CHECK(marked("arange(1).expand(33554432).contiguous()") == "contiguous()");
}

TEST_CASE("a library error points at the step that raised it") {
  CHECK_ERROR(run("arange(6).view(4,-1)"), "view(): shape '[4, -1]' is invalid for input of size 6");
  CHECK(marked("arange(6).view(4,-1)") == "view(4,-1)");
}

TEST_CASE("a slice step of 0 in an indexing") {
  CHECK_ERROR(run("arange(6)[::0]"), "index(): slice step cannot be zero");
}

TEST_CASE("a ragged tensor literal") {
  CHECK_ERROR(run("tensor([[1,2],[3]])"), "tensor()", "expected a sequence of length 2 at dim 1");
}

TEST_CASE("an unknown dtype") {
  CHECK_ERROR(run("arange(3, dtype=uint16)"), "arange()", "unknown dtype 'uint16'", "float64");
}

TEST_CASE("a tensor literal an integer dtype cannot hold") {
  // torch: torch.tensor([1e30], dtype=torch.int64) raises "value cannot be converted to type int64
  // without overflow".
  CHECK_ERROR(run("tensor([1e30], dtype=int64)"), "tensor()", "value 1e+30",
              "cannot be converted to type int64 without overflow");
  // torch: torch.tensor([2**31], dtype=torch.int32), the same words; the integer is exact.
  CHECK_ERROR(run("tensor([2147483648], dtype=int32)"), "tensor()", "value 2147483648",
              "cannot be converted to type int32 without overflow");
}

TEST_CASE("arange with step but one bound") {
  // torch 1.13 matches none of arange(end), arange(start, end), arange(start, end, step):
  // "arange() received an invalid combination of arguments - got (int, step=int), but expected
  // one of: ...". Silently dropping step would give [0, 1, 2, 3, 4].
  CHECK_ERROR(run("arange(5, step=2)"),
              "arange() received an invalid combination of arguments - got (int, step=int), but "
              "expected one of:",
              " * (end, *, dtype)", " * (start, end, step, *, dtype)");
  CHECK(marked("arange(5, step=2)") == "arange(5, step=2)");
  CHECK_ERROR(run("arange(end=5, step=2)"), "got (end=int, step=int)");
  CHECK_ERROR(run("arange()"), "arange() received an invalid combination of arguments - got ()");
}

TEST_CASE("arange with start alone") {
  // torch: 'arange() missing 1 required positional arguments: "end"' (PyTorch's plural).
  CHECK_ERROR(run("arange(start=3)"), "arange() missing 1 required positional arguments: \"end\"");
  CHECK_ERROR(run("arange(step=3)"), "arange() missing 1 required positional arguments: \"end\"");
}

TEST_CASE("an arange of bools") {
  // torch: torch.arange(5, dtype=torch.bool) raises "\"arange_cpu\" not implemented for 'Bool'".
  CHECK_ERROR(run("arange(5, dtype=torch.bool)"), "arange", "\"arange_cpu\" not implemented for 'Bool'");
  CHECK_ERROR(run("arange(0, 5, 2, dtype=bool)"), "arange", "not implemented for 'Bool'");
}

TEST_CASE("dtype given by position to a factory") {
  // dtype is keyword-only in every factory (native_functions.yaml: "*, ScalarType? dtype=None").
  // torch: "arange() received an invalid combination of arguments - got (int, int, int,
  // torch.dtype), ..."
  CHECK_ERROR(run("arange(1, 5, 2, torch.float32)"),
              "arange() received an invalid combination of arguments - got (int, int, int, "
              "torch.dtype)");
  // torch: "tensor() takes 1 positional argument but 2 were given"
  CHECK_ERROR(run("tensor([1], torch.float32)"), "tensor() takes 1 positional argument but 2 were given");
  CHECK(marked("tensor([1], torch.float32)") == "torch.float32");
  CHECK_ERROR(run("empty_strided((2,), (1,), float32)"),
              "empty_strided() takes 2 positional arguments but 3 were given");
  // torch: "zeros(): argument 'size' must be tuple of SymInts, but found element of type
  // torch.dtype at pos 3"
  CHECK_ERROR(run("zeros(2, 3, torch.float32)"),
              "zeros(): argument 'size' must be tuple of ints, but found element of type "
              "torch.dtype at pos 3");
  // torch: "rand(): argument 'size' must be tuple of ints, but found element of type float at pos 2"
  CHECK_ERROR(run("rand(2, 0.5)"),
              "rand(): argument 'size' must be tuple of ints, but found element of type float at "
              "pos 2");
}

TEST_CASE("a second ellipsis in an index: answered as torch 1.13 answers it") {
  // torch 1.13 accepts two ellipses (python_variable_indexing.cpp expands each): x[..., ...] is x
  // and x[..., 0, ...] of a 2x3 x is x[:, 0], tensor([0, 3]); it fails only once an index falls
  // past the tensor's dims, as x[..., ..., 0] does (torch: "index 0 is out of bounds for
  // dimension 2 with size 0", a size read past the sizes' end; here, why).
  auto values = [](const std::string& source) {
    return evaluate(parse(source)).back().tensor.to_vector();
  };
  CHECK(values("arange(6).view(2,3)[..., 0, ...]") == std::vector<double>{0, 3});
  CHECK(values("arange(6)[..., ...]") == std::vector<double>{0, 1, 2, 3, 4, 5});
  CHECK_ERROR(run("arange(6).view(2,3)[..., ..., 0]"),
              "index(): index 0 is out of bounds for dimension 2", "a second '...'");
}

TEST_CASE("a dtype with a doubled module") {
  CHECK_ERROR(run("arange(3).to(torch.torch.float32)"), "to()",
              "unknown dtype 'torch.torch.float32'");
  CHECK(marked("arange(3).to(torch.torch.float32)") == "torch.torch.float32");
  CHECK_ERROR(run("zeros(2, dtype=torch.float32.float32)"), "zeros()", "unknown dtype");
}

TEST_CASE("an argument of the wrong type names the op and the parameter") {
  // FunctionSignature::parse's words for a single signature (torch's transpose also has a Dimname
  // overload, so torch reports "received an invalid combination of arguments" instead).
  CHECK_ERROR(run("arange(6).view(2,3).transpose(0.5, 1)"),
              "transpose(): argument 'dim0' (position 1) must be int, not float");
  CHECK_ERROR(run("arange(6).view(2,3).transpose(0, 1, 2)"),
              "transpose() takes 2 positional arguments but 3 were given");
  CHECK_ERROR(run("arange(6).view(2,3).transpose(0, 1, dim0=1)"),
              "transpose() got multiple values for argument 'dim0'");
  CHECK_ERROR(run("arange(6).to(dtype=3)"), "to(): argument 'dtype' must be torch.dtype, not int");
  CHECK_ERROR(run("tensor([1, 'a'])"), "tensor(): expected a number, got str");
}

TEST_CASE("an assignment to something that is not an indexing") {
  CHECK_ERROR(run("arange(4).view(2, 2) = 1"),
              "cannot assign to a function call: only x[...] = value writes into a tensor");
}

TEST_CASE("an in-place write into an expanded tensor") {
  CHECK_ERROR(run("ones(1, 3).expand(4, 3).mul_(2)"),
              "unsupported operation: more than one element of the written-to tensor refers to a "
              "single memory location. Please clone() the tensor before performing the operation.");
}
