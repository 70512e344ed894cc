// The parser on good and bad input, and the evaluator's binding of arguments.
#include <doctest/doctest.h>

#include "evaluate.h"
#include "expression.h"

using namespace strided;
using namespace strided::explore;

namespace {

// The error a bad expression gives, as "column: message".
std::string error_of(const std::string& source) {
  try {
    evaluate(parse(source));
  } catch (const ExploreError& e) {
    return std::to_string(e.span().begin + 1) + ": " + e.what();
  }
  return "no error";
}

int column_of(const std::string& source) {
  try {
    evaluate(parse(source));
  } catch (const ExploreError& e) {
    return static_cast<int>(e.span().begin) + 1;
  }
  return 0;
}

}  // namespace

TEST_CASE("a chain parses into its steps") {
  const Expression e = parse("arange(24).reshape(2,3,4).permute(2,0,1)[1:, ::2]");
  REQUIRE(e.steps.size() == 4);
  CHECK(e.steps[0].name == "arange");
  CHECK(e.steps[0].arguments.size() == 1);
  CHECK(e.steps[0].arguments[0].value.integer == 24);
  CHECK(e.steps[1].name == "reshape");
  CHECK(e.steps[1].arguments.size() == 3);
  CHECK(e.steps[2].name == "permute");
  const Step& index = e.steps[3];
  CHECK(index.kind == Step::Kind::Index);
  REQUIRE(index.index.size() == 2);
  CHECK(index.index[0].kind == IndexItem::Kind::Slice);
  CHECK(index.index[0].start == 1);
  CHECK_FALSE(index.index[0].stop.has_value());
  CHECK(index.index[1].step == 2);
  CHECK_FALSE(index.index[1].start.has_value());
  // Spans: the text of each step.
  CHECK(e.source.substr(e.steps[2].span.begin, e.steps[2].span.end - e.steps[2].span.begin) ==
        "permute(2,0,1)");
  CHECK(e.source.substr(index.span.begin, index.span.end - index.span.begin) == "[1:, ::2]");
}

TEST_CASE("values: tuples, lists, negatives, keywords, names, strings") {
  const Expression e = parse(
      "torch.zeros((2, 3), dtype=torch.float64).view([3, -1]).flatten(start_dim=0)"
      ".to('int32').unsqueeze(-1)[..., None, 0, [1, 2]].mT");
  REQUIRE(e.steps.size() == 7);
  CHECK(e.steps[0].name == "zeros");
  CHECK(e.steps[0].arguments[0].value.kind == Value::Kind::Sequence);
  CHECK(e.steps[0].arguments[1].keyword == "dtype");
  CHECK(e.steps[0].arguments[1].value.text == "torch.float64");
  CHECK(e.steps[1].arguments[0].value.items[1].integer == -1);
  CHECK(e.steps[3].arguments[0].value.kind == Value::Kind::String);
  const Step& index = e.steps[5];
  REQUIRE(index.index.size() == 4);
  CHECK(index.index[0].kind == IndexItem::Kind::Ellipsis);
  CHECK(index.index[1].kind == IndexItem::Kind::None);
  CHECK(index.index[2].kind == IndexItem::Kind::Int);
  CHECK(index.index[3].list == std::vector<int64_t>{1, 2});
  CHECK(e.steps[6].kind == Step::Kind::Property);
  // (2) is 2, (2,) is a tuple, as in Python; parentheses may wrap a chain.
  CHECK(parse("arange((6))").steps[0].arguments[0].value.kind == Value::Kind::Int);
  CHECK(parse("zeros((6,))").steps[0].arguments[0].value.kind == Value::Kind::Sequence);
  CHECK(parse("(arange(6).view(2, 3)).t()").steps.size() == 3);
  CHECK(parse("arange(6)[-1]").steps[1].index[0].integer == -1);
  CHECK(parse(" arange( 6 ) . view ( 2 , 3 , ) ").steps[1].arguments.size() == 2);
}

TEST_CASE("syntax errors point at the offending column") {
  CHECK(error_of("arange(6") == "9: expected ',' or ')' in the argument list, found end of input");
  CHECK(error_of("arange(6))") == "10: unexpected ')' after the expression");
  CHECK(error_of("arange(6).") == "11: expected a method name after '.', found end of input");
  CHECK(error_of("arange(6)[]") == "10: empty index: write x[0], x[1:], x[None] ...");
  CHECK(error_of("arange(6)[1.5]") == "11: indices must be integers, found number 1.5");
  CHECK(error_of("arange(6) $") == "11: unexpected character '$'");
  CHECK(error_of("arange(99999999999999999999)") ==
        "8: Overflow when unpacking long: 99999999999999999999 does not fit in int64");
  CHECK(error_of("arange(6).view(2, dtype=1, 3)") ==
        "28: positional argument follows keyword argument");
  CHECK(error_of("arange(6).view(x=1, x=2)") == "21: keyword argument x repeated");
  CHECK(error_of("6") == "1: an expression starts with a factory such as arange(6), found "
                         "number 6");
  CHECK(error_of("arange") == "7: expected '(' to call arange, found end of input");
  CHECK(error_of("arange('6)") == "8: unterminated string");
  CHECK(error_of("arange(6)[0:1:2:3]") == "16: expected ',' or ']' in the index, found ':'");
  CHECK(error_of("arange(-)") == "9: expected a number after '-', found ')'");
  CHECK(error_of("") == "1: an expression starts with a factory such as arange(6), found end "
                        "of input");
  // Deep nesting and long input are refused, not recursed into.
  CHECK(error_of(std::string(40, '(') + "arange(6)" + std::string(40, ')')) ==
        "33: nesting deeper than 32 levels");
  CHECK(error_of("arange(" + std::string(5000, '1') + ")").find("at most 4096") !=
        std::string::npos);
}

TEST_CASE("semantic errors point at the step or the argument") {
  CHECK(error_of("arange(24).reshape(2,3,4).permute(2,0)").rfind("27: permute", 0) == 0);
  CHECK(column_of("arange(6).view(4, -1)") == 11);
  CHECK(error_of("arange(6).transpose(0)") ==
        "11: transpose() missing 1 required positional arguments: \"dim1\"");
  CHECK(error_of("arange(6).t(1)") == "13: t() takes 0 positional arguments but 1 was given");
  CHECK(error_of("arange(6).unsqueeze(dim=1.5)") == "25: unsqueeze(): argument 'dim' must be int, not float");
  CHECK(error_of("arange(6).squeeze(dims=0)") ==
        "19: squeeze() got an unexpected keyword argument 'dims' (it takes dim)");
  CHECK(error_of("arange(6).premute(0)") ==
        "11: unknown method 'premute'; did you mean permute?");
  CHECK(error_of("arange(6).mT()") == "11: mT is a property: write .mT without parentheses");
  CHECK(error_of("arange(6).t") == "11: t is a method: write .t(...)");
  CHECK(error_of("arang(6)") == "1: unknown factory 'arang'; did you mean arange? (factories: "
                                "arange, zeros, ones, empty, empty_strided, rand, randn, tensor)");
  CHECK(error_of("arange(6).arange(3)") == "11: arange makes a new tensor; it starts an "
                                           "expression");
  CHECK(error_of("zeros(2, dtype=float8)") ==
        "16: zeros(): unknown dtype 'float8'; known: bool, int32, int64, float16, bfloat16, float32, "
        "float64, complex64, complex128");
  CHECK(error_of("arange(6)[::-1]").rfind("10: index(): step must be greater than zero", 0) == 0);
  CHECK(error_of("arange(6)[6]").find("out of bounds") != std::string::npos);
  CHECK(error_of("tensor([[1, 2], [3]])").rfind("17: tensor(): expected a sequence of length 2",
                                                0) == 0);
}

TEST_CASE("the allocation bound names the limit") {
  CHECK(error_of("arange(16777217)") ==
        "1: arange: arange(0, 16777217, 1) needs 16777217 elements; strided-explore allocates at "
        "most 16777216 (2^24) per tensor");
  CHECK(error_of("zeros(4096, 4097)").find("at most 16777216 (2^24)") != std::string::npos);
  CHECK(error_of("empty_strided((2, 2), (1, 100000000))").find("the storage of") !=
        std::string::npos);
  // Views allocate nothing and are not bounded; copying them is.
  CHECK(error_of("zeros(1).expand(65536, 65536)") == "no error");
  CHECK(error_of("zeros(1).expand(65536, 65536).contiguous()")
            .find("contiguous: the copy of (65536,65536):(0,0) needs 4294967296 elements") !=
        std::string::npos);
  CHECK(error_of("zeros(1).expand(4, 65536, 65536)[[0, 1]]")
            .find("index: advanced indexing of (4,65536,65536):(0,0,0) needs 8589934592") !=
        std::string::npos);
  CHECK(error_of("zeros(1).expand(4, 65536, 65536)[0, 0, [0, 1]]") == "no error");
  CHECK(error_of("zeros(1).expand(4, 65536, 65536)[..., [0, 1], 0]") == "no error");
}

TEST_CASE("evaluation records views and copies") {
  const std::vector<StepResult> s =
      evaluate(parse("arange(6).view(2, 3).contiguous().t().contiguous()[[1]]"));
  REQUIRE(s.size() == 6);
  CHECK(s[0].relation == StepResult::Relation::New);
  CHECK(s[1].relation == StepResult::Relation::View);
  CHECK(s[2].relation == StepResult::Relation::Same);
  CHECK(s[3].relation == StepResult::Relation::View);
  CHECK(s[4].relation == StepResult::Relation::Copy);
  CHECK(s[5].relation == StepResult::Relation::Copy);
  CHECK(s[3].text == "arange(6).view(2, 3).contiguous().t()");
  CHECK(s[3].tensor.layout() == "(3,2):(1,3)");
  CHECK(s[4].tensor.layout() == "(3,2):(2,1)");
  // The brief's example: (4,2,3):(1,12,4) sliced to (3,1,3):(1,24,4) at offset 1.
  const std::vector<StepResult> e =
      evaluate(parse("arange(24).reshape(2,3,4).permute(2,0,1)[1:, ::2]"));
  CHECK(e.back().tensor.layout() == "(3,1,3):(1,24,4)");
  CHECK(e.back().tensor.storage_offset() == 1);
  // Factories and their arguments.
  CHECK(evaluate(parse("arange(2, 11, 3)")).back().tensor.to_vector() ==
        std::vector<double>{2, 5, 8});
  CHECK(evaluate(parse("ones(2, 2, dtype='int32')")).back().tensor.dtype() == DType::Int32);
  CHECK(evaluate(parse("tensor([[True, False]])")).back().tensor.dtype() == DType::Bool);
  CHECK(evaluate(parse("tensor([1, 2.5])")).back().tensor.dtype() == DType::Float32);
  CHECK(evaluate(parse("rand(3, seed=7)")).back().tensor.to_vector() ==
        evaluate(parse("rand((3,), seed=7)")).back().tensor.to_vector());
  CHECK(evaluate(parse("empty_strided((2, 3), (1, 2))")).back().tensor.layout() == "(2,3):(1,2)");
  CHECK(evaluate(parse("arange(24).view(2, 3, 4).T")).back().tensor.layout() ==
        "(4,3,2):(1,4,12)");
  CHECK(evaluate(parse("arange(6).view(2,3).movedim(0, 1)")).back().tensor.layout() ==
        "(3,2):(1,3)");
  CHECK(evaluate(parse("arange(24).view(2,3,4).movedim((0, 1), (2, 0))")).back().tensor.layout() ==
        "(3,4,2):(4,1,12)");
}

TEST_CASE("an op with several outputs is followed by the index of the one the chain keeps") {
  // PyTorch 1.13's layouts for the same expressions.
  const auto layout = [](const std::string& source) {
    const std::vector<StepResult> r = evaluate(parse(source));
    return r.back().tensor.layout() + "+" + std::to_string(r.back().tensor.storage_offset());
  };
  CHECK(layout("arange(24).view(2,3,4).split(2, -1)[1]") == "(2,3,2):(12,4,1)+2");
  CHECK(layout("arange(24).view(2,3,4).split((1, 2), 1)[1]") == "(2,2,4):(12,4,1)+4");
  CHECK(layout("arange(24).view(2,3,4).unbind(0)[1]") == "(3,4):(4,1)+12");
  CHECK(layout("arange(24).view(2,3,4).tensor_split([1, 3], 2)[-1]") == "(2,3,1):(12,4,1)+3");
  CHECK(layout("arange(24).view(2,3,4).hsplit(3)[2]") == "(2,1,4):(12,4,1)+8");
  CHECK(layout("arange(24).view(2,3,4).chunk(2, 1)[-1]") == "(2,1,4):(12,4,1)+8");
  CHECK(layout("arange(24).view(2,3,4).view(torch.int32)") == "(2,3,8):(24,8,1)+0");
  CHECK(layout("arange(24).view(2,3,4).view(dtype=torch.float64)") == "(2,3,4):(12,4,1)+0");
  CHECK(layout("arange(24).view(2,3,4).swapaxes(0,2).moveaxis(0,1)") == "(3,4,2):(4,1,12)+0");
  // The complex views, as torch 1.13 lays them out.
  const std::string z = "zeros(2,3,4,dtype=torch.complex64)";
  CHECK(layout(z + ".real") == "(2,3,4):(24,8,2)+0");
  CHECK(layout(z + "[1].imag") == "(3,4):(8,2)+25");
  CHECK(layout(z + ".conj().mH") == "(2,4,3):(12,1,4)+0");
  CHECK(layout(z + "[0].H") == "(4,3):(1,4)+0");
  CHECK(layout(z + ".adjoint()") == "(2,4,3):(12,1,4)+0");
  CHECK(layout("arange(24, dtype=torch.float32).view(2,3,4).view(torch.complex64)") == "(2,3,2):(6,2,1)+0");
  CHECK(layout("arange(24, dtype=torch.float32).view(2,3,4).view(torch.complex64).conj().real") ==
        "(2,3,2):(12,4,2)+0");
  // The call and its index are one step, a view of the step before.
  const std::vector<StepResult> r = evaluate(parse("arange(6).split(2)[1].t()"));
  REQUIRE(r.size() == 3);
  CHECK(r[1].text == "arange(6).split(2)[1]");
  CHECK(r[1].relation == StepResult::Relation::View);
  CHECK(error_of("arange(6).split(2)") ==
        "11: split() returns a tuple of tensors: pick one with an integer index, as in "
        "x.split(...)[0]");
  CHECK(error_of("arange(6).split(2)[5]") == "11: tuple index out of range");
  CHECK(error_of("arange(6).split(2)[0:1]").find("pick one with an integer index") !=
        std::string::npos);
}

TEST_CASE("integer literals stay int64 from the text to the tensor") {
  // torch.tensor([2**63 - 1, -2**63, 2**53 + 1]) holds them exactly; through double, 2^63 - 1
  // became -2^63 and 2^53 + 1 became 2^53.
  const Tensor t =
      evaluate(parse("tensor([9223372036854775807, -9223372036854775808, 9007199254740993])"))
          .back()
          .tensor;
  CHECK(t.dtype() == DType::Int64);
  CHECK(t.at({0}).to_int() == INT64_MAX);
  CHECK(t.at({1}).to_int() == INT64_MIN);
  CHECK(t.at({2}).to_int() == (int64_t{1} << 53) + 1);
  // In arange and in an index too.
  const Tensor r = evaluate(parse("arange(-9223372036854775808, -9223372036854775806)")).back().tensor;
  CHECK(r.numel() == 2);
  CHECK(r.at({0}).to_int() == INT64_MIN);
  CHECK(evaluate(parse("arange(4)[-9223372036854775808:2]")).back().tensor.numel() == 2);
  // A float literal stays double; mixing makes float32, as torch.tensor does.
  CHECK(evaluate(parse("tensor([1, 2.5])")).back().tensor.dtype() == DType::Float32);
  CHECK(evaluate(parse("tensor([9007199254740993], dtype=float64)")).back().tensor.at({0})
            .to_double() == 9007199254740992.0);  // rounded once, as torch does
}

TEST_CASE("keyword arguments bind as PyTorch binds them") {
  CHECK(evaluate(parse("arange(end=5)")).back().tensor.numel() == 5);
  const Tensor t = evaluate(parse("arange(start=1, end=7, step=2)")).back().tensor;
  CHECK(t.numel() == 3);
  CHECK(t.at({2}).to_int() == 5);
  CHECK(evaluate(parse("arange(0, 5, step=2)")).back().tensor.numel() == 3);
  CHECK(evaluate(parse("zeros(size=(2, 3))")).back().tensor.numel() == 6);
  CHECK(evaluate(parse("arange(6).view(2, 3).transpose(0, dim1=1)")).back().tensor.sizes() ==
        Shape{3, 2});
  CHECK(error_of("arange(5, step=2)").rfind("1: arange() received an invalid combination", 0) == 0);
}
