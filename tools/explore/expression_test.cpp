// The parser on good and bad input, and the evaluator's binding of arguments.
#include <doctest/doctest.h>

#include "test_path.h"

#include <fstream>

#include <nlohmann/json.hpp>

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
        "16: zeros(): unknown dtype 'float8'; known: bool, uint8, int8, int16, int32, int64, "
        "float16, bfloat16, float32, float64, complex64 or complex128");
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
  CHECK(to_string(s[3].tensor.layout()) == "(3,2):(1,3)");
  CHECK(to_string(s[4].tensor.layout()) == "(3,2):(2,1)");
  // The brief's example: (4,2,3):(1,12,4) sliced to (3,1,3):(1,24,4) at offset 1.
  const std::vector<StepResult> e =
      evaluate(parse("arange(24).reshape(2,3,4).permute(2,0,1)[1:, ::2]"));
  CHECK(to_string(e.back().tensor.layout()) == "(3,1,3):(1,24,4)");
  CHECK(e.back().tensor.storage_offset() == 1);
  // Factories and their arguments.
  CHECK(evaluate(parse("arange(2, 11, 3)")).back().tensor.to_vector() ==
        std::vector<double>{2, 5, 8});
  CHECK(evaluate(parse("ones(2, 2, dtype='int32')")).back().tensor.dtype() == DType::Int32);
  CHECK(evaluate(parse("tensor([[True, False]])")).back().tensor.dtype() == DType::Bool);
  CHECK(evaluate(parse("tensor([1, 2.5])")).back().tensor.dtype() == DType::Float32);
  CHECK(evaluate(parse("rand(3, seed=7)")).back().tensor.to_vector() ==
        evaluate(parse("rand((3,), seed=7)")).back().tensor.to_vector());
  CHECK(to_string(evaluate(parse("empty_strided((2, 3), (1, 2))")).back().tensor.layout()) ==
        "(2,3):(1,2)");
  CHECK(to_string(evaluate(parse("arange(24).view(2, 3, 4).T")).back().tensor.layout()) ==
        "(4,3,2):(1,4,12)");
  CHECK(to_string(evaluate(parse("arange(6).view(2,3).movedim(0, 1)")).back().tensor.layout()) ==
        "(3,2):(1,3)");
  CHECK(to_string(evaluate(parse("arange(24).view(2,3,4).movedim((0, 1), (2, 0))"))
                      .back()
                      .tensor.layout()) == "(3,4,2):(4,1,12)");
}

TEST_CASE("uint8, int8 and int16 in expressions: factories, view(dtype) and to") {
  // torch: torch.arange(300, dtype=torch.uint8)[-2:] is [42, 43]; torch.tensor([1.0, -2.5])
  // .view(torch.uint8) is [0, 0, 128, 63, 0, 0, 32, 192]; .to(torch.int8) of [300.7, -1.5] is
  // [44, -1]; torch.short is torch.int16.
  CHECK(evaluate(parse("arange(300, dtype=torch.uint8)[298:]")).back().tensor.to_vector() ==
        std::vector<double>{42, 43});
  const Tensor bytes = evaluate(parse("tensor([1.0, -2.5]).view(torch.uint8)")).back().tensor;
  CHECK(bytes.dtype() == DType::UInt8);
  CHECK(bytes.to_vector() == std::vector<double>{0, 0, 128, 63, 0, 0, 32, 192});
  CHECK(evaluate(parse("tensor([300.7, -1.5]).to(torch.int8)")).back().tensor.to_vector() ==
        std::vector<double>{44, -1});
  CHECK(evaluate(parse("zeros(2, dtype=torch.short)")).back().tensor.dtype() == DType::Int16);
  CHECK(to_string(
            evaluate(parse("ones(2, 2, dtype='int8').view(torch.int16)")).back().tensor.layout()) ==
        "(2,1):(1,1)");
  CHECK(evaluate(parse("tensor([-1, 255], dtype=torch.uint8)")).back().tensor.to_vector() ==
        std::vector<double>{255, 255});
  CHECK(error_of("tensor([256], dtype=torch.uint8)").find("cannot be converted to type uint8") !=
        std::string::npos);
  CHECK(evaluate(parse("arange(4, dtype=torch.int8).view(torch.float32)")).back().tensor.numel() ==
        1);
  CHECK(error_of("arange(6, dtype=torch.int8).view(torch.float32)")
            .find("view(): self.size(-1) must be divisible by 4 to view Char as Float (different "
                  "element sizes), but got 6") != std::string::npos);
}

TEST_CASE("an op with several outputs is followed by the index of the one the chain keeps") {
  // PyTorch 1.13's layouts for the same expressions.
  const auto layout = [](const std::string& source) {
    const std::vector<StepResult> r = evaluate(parse(source));
    return to_string(r.back().tensor.layout()) + "+" +
           std::to_string(r.back().tensor.storage_offset());
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

TEST_CASE("the argument forms PyTorch 1.13 and 2.6 accept, and the ones they refuse") {
  const auto shape = [](const std::string& source) {
    return evaluate(parse(source)).back().tensor.sizes();
  };
  const std::string x = "arange(6).view(2, 3)";
  // sections= and indices= by keyword; the first argument's type by position.
  CHECK(shape(x + ".tensor_split(sections=2)[0]") == Shape{1, 3});
  CHECK(shape(x + ".tensor_split(indices=[1, 2], dim=1)[1]") == Shape{2, 1});
  CHECK(shape(x + ".tensor_split(2, 1)[0]") == Shape{2, 2});
  CHECK(shape(x + ".hsplit(sections=3)[0]") == Shape{2, 1});
  CHECK(shape(x + ".hsplit(indices=[1])[0]") == Shape{2, 1});
  CHECK(error_of(x + ".tensor_split(indices=2)[0]").find(
            "tensor_split() received an invalid combination of arguments - got (indices=int)") !=
        std::string::npos);
  CHECK(error_of(x + ".hsplit(sections=[1])[0]").find("invalid combination") != std::string::npos);
  CHECK(error_of(x + ".tensor_split(indices_or_sections=2)[0]").find("unexpected keyword") !=
        std::string::npos);
  // broadcast_to's one int list takes varargs on the method, not on torch.broadcast_to.
  CHECK(shape("arange(3).broadcast_to(2, 3)") == Shape{2, 3});
  CHECK(error_of("torch.broadcast_to(arange(3), 2, 3)").find("takes 2 positional arguments") !=
        std::string::npos);
  // Looser than PyTorch before: these are refused in PyTorch's words now.
  CHECK(error_of(x + ".split_with_sizes(2)[0]") ==
        "22: split_with_sizes(): argument 'split_sizes' (position 1) must be tuple of ints, not int");
  CHECK(error_of(x + ".movedim((0,), 1)").find(
            "movedim() received an invalid combination of arguments - got (tuple, int)") !=
        std::string::npos);
  CHECK(error_of(x + ".moveaxis(0, (1,))").find("got (int, tuple)") != std::string::npos);
  CHECK(error_of(x + ".squeeze(None)").find("Please look up dimensions by name, got: name = None.") !=
        std::string::npos);
  CHECK(error_of("torch.squeeze(" + x + ", None)").find("name = None") != std::string::npos);
  // A float among arange's numbers makes a float32 arange, as torch.arange(5.0) does.
  const Tensor f = evaluate(parse("arange(5.0)")).back().tensor;
  CHECK(f.dtype() == DType::Float32);
  CHECK(f.to_vector() == std::vector<double>{0, 1, 2, 3, 4});
  CHECK(evaluate(parse("arange(1, 2.5, 0.5)")).back().tensor.numel() == 3);
  CHECK(evaluate(parse("arange(5.0, dtype=torch.int64)")).back().tensor.dtype() == DType::Int64);
  CHECK(error_of("arange(0.0, 1.0, 0.0)").find("step must be nonzero") != std::string::npos);
}

namespace {

// The last step's layout, offset and dtype, as "(2,3,2):(6,2,1)+0 float32".
std::string layout_of(const std::string& source) {
  const Tensor t = evaluate(parse(source)).back().tensor;
  return to_string(t.layout()) + "+" + std::to_string(t.storage_offset()) + " " +
         std::string(name(t.dtype()));
}

}  // namespace

TEST_CASE("torch.f(x, ...) gives what the method x.f(...) gives") {
  const std::string x = "arange(24).view(2, 3, 4)", z = "zeros(2, 3, dtype=torch.complex64)";
  // {function form, method form}: every view op torch 1.13 has as a function of its module.
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"torch.real(" + z + ")", z + ".real"},
      {"torch.imag(" + z + ")", z + ".imag"},
      {"torch.conj(" + z + ")", z + ".conj()"},
      {"torch.adjoint(" + z + ")", z + ".adjoint()"},
      {"torch.swapaxes(" + x + ", 0, 2)", x + ".swapaxes(0, 2)"},
      {"torch.swapdims(" + x + ", 0, 1)", x + ".swapdims(0, 1)"},
      {"torch.moveaxis(" + x + ", 0, 2)", x + ".moveaxis(0, 2)"},
      {"torch.movedim(" + x + ", (0, 1), (2, 0))", x + ".movedim((0, 1), (2, 0))"},
      {"torch.transpose(" + x + ", 0, 2)", x + ".transpose(0, 2)"},
      {"torch.permute(" + x + ", (2, 0, 1))", x + ".permute(2, 0, 1)"},
      {"torch.permute(input=" + x + ", dims=[2, 0, 1])", x + ".permute(dims=(2, 0, 1))"},
      {"torch.narrow(" + x + ", 2, 1, 2)", x + ".narrow(2, 1, 2)"},
      {"torch.select(" + x + ", 1, 2)", x + ".select(1, 2)"},
      {"torch.squeeze(" + x + "[:, :1])", x + "[:, :1].squeeze()"},
      {"torch.squeeze(" + x + "[:, :1], dim=1)", x + "[:, :1].squeeze(1)"},
      {"torch.unsqueeze(" + x + ", 1)", x + ".unsqueeze(1)"},
      {"torch.flatten(" + x + ")", x + ".flatten()"},
      {"torch.flatten(" + x + ", start_dim=1)", x + ".flatten(1)"},
      {"torch.unflatten(" + x + ", 2, (2, 2))", x + ".unflatten(2, (2, 2))"},
      {"torch.reshape(" + x + ", (4, 6))", x + ".reshape(4, 6)"},
      {"torch.t(" + x + "[0])", x + "[0].t()"},
      {"torch.diagonal(" + x + ", 1, 1, 2)", x + ".diagonal(1, 1, 2)"},
      {"torch.split(" + x + ", 2, -1)[1]", x + ".split(2, -1)[1]"},
      {"torch.split(tensor=" + x + ", split_size_or_sections=[1, 2], dim=1)[1]",
       x + ".split((1, 2), 1)[1]"},
      {"torch.split_with_sizes(" + x + ", [1, 2], 1)[0]", x + ".split_with_sizes([1, 2], 1)[0]"},
      {"torch.tensor_split(" + x + ", [1, 3], 2)[-1]", x + ".tensor_split([1, 3], 2)[-1]"},
      {"torch.hsplit(" + x + ", 3)[2]", x + ".hsplit(3)[2]"},
      {"torch.vsplit(" + x + ", 2)[1]", x + ".vsplit(2)[1]"},
      {"torch.dsplit(" + x + ", [1])[1]", x + ".dsplit([1])[1]"},
      {"torch.chunk(" + x + ", 2, 1)[1]", x + ".chunk(2, 1)[1]"},
      {"torch.unbind(" + x + ", 0)[1]", x + ".unbind(0)[1]"},
      {"torch.unbind(" + x + ")[1]", x + ".unbind()[1]"},
      {"torch.detach(" + x + ")", x + ".detach()"},
      {"torch.broadcast_to(" + x + "[:, :1], (2, 3, 4))", x + "[:, :1].broadcast_to((2, 3, 4))"},
      {"torch.flip(" + x + ", (0, 2))", x + ".flip(0, 2)"},
      {"torch.as_strided(" + x + ", (3, 3), (1, 3), 2)", x + ".as_strided((3, 3), (1, 3), 2)"},
      {"torch.clone(" + x + ".mT)", x + ".mT.clone()"},
      {"torch.resolve_conj(torch.conj(" + z + "))", z + ".conj().resolve_conj()"},
      {"torch.conj_physical(" + z + ")", z + ".conj_physical()"},
  };
  for (const auto& pair : pairs) {
    // A named copy: clang does not let CAPTURE's lambda take a structured binding.
    const std::string function = pair.first;
    CAPTURE(function);
    CHECK(layout_of(function) == layout_of(pair.second));
  }
  // The ops torch has only as functions, and a tensor that is itself a chain of functions.
  CHECK(layout_of("torch.view_as_real(" + z + ")") == "(2,3,2):(6,2,1)+0 float32");
  CHECK(layout_of("torch.view_as_complex(torch.view_as_real(" + z + "))") ==
        "(2,3):(3,1)+0 complex64");
  CHECK(layout_of("torch.atleast_1d(tensor(3))") == "(1,):(1,)+0 int64");
  CHECK(layout_of("torch.atleast_2d(arange(3))") == "(1,3):(3,1)+0 int64");
  CHECK(layout_of("torch.atleast_3d(arange(3))") == "(1,3,1):(3,1,1)+0 int64");
  CHECK(layout_of("torch.t(torch.select(torch.permute((" + x + "), (2, 0, 1)), 0, 1))") ==
        layout_of(x + ".permute(2, 0, 1).select(0, 1).t()"));
  CHECK(layout_of("torch.view_as_real(" + z + ".t()).flatten(1)[0]") ==
        layout_of("torch.view_as_real(" + z + ").transpose(0, 1).flatten(1)[0]"));
}

TEST_CASE("torch.f's tensor runs first, each of its steps reported") {
  const std::vector<StepResult> s =
      evaluate(parse("torch.view_as_real(zeros(2, 3, dtype=torch.complex64).t())[1]"));
  REQUIRE(s.size() == 4);
  CHECK(s[0].text == "zeros(2, 3, dtype=torch.complex64)");
  CHECK(s[1].text == "zeros(2, 3, dtype=torch.complex64).t()");
  CHECK(s[2].text == "torch.view_as_real(zeros(2, 3, dtype=torch.complex64).t())");
  CHECK(s[3].text == "torch.view_as_real(zeros(2, 3, dtype=torch.complex64).t())[1]");
  CHECK(s[0].relation == StepResult::Relation::New);
  CHECK(s[2].relation == StepResult::Relation::View);
  const std::vector<StepResult> m = evaluate(parse("torch.split(arange(6), 2)[1]"));
  REQUIRE(m.size() == 2);
  CHECK(m[1].text == "torch.split(arange(6), 2)[1]");
  CHECK(m[1].relation == StepResult::Relation::View);
  // PyTorch's spelling only: no bare function, no method torch lacks, no function it lacks.
  CHECK(error_of("view_as_real(zeros(2))") ==
        "1: view_as_real is a torch function: write torch.view_as_real(...)");
  CHECK(error_of("arange(6).view_as_real()") ==
        "11: 'Tensor' object has no attribute 'view_as_real'; write torch.view_as_real(x)");
  CHECK(error_of("torch.expand(arange(6), 2, 6)") == "1: module 'torch' has no attribute 'expand'");
  CHECK(error_of("torch.split(arange(6), 2)") ==
        "1: split() returns a tuple of tensors: pick one with an integer index, as in "
        "torch.split(...)[0]");
  CHECK(error_of("torch.permute(arange(6).view(2, 3), 1, 0)") ==
        "40: permute() takes 2 positional arguments but 3 were given");
  CHECK(error_of("torch.transpose(arange(6).view(2, 3), 0, dim1=1.5)") ==
        "47: transpose(): argument 'dim1' must be int, not float");
  // An error inside the tensor points there.
  CHECK(error_of("torch.t(arange(6).view(4, -1))").rfind("19: view", 0) == 0);
  CHECK(parse("torch.t((arange(6)).view(2, 3))").steps[0].arguments[0].value.steps.size() == 2);
}

TEST_CASE("torch.f(x, ...) answers as PyTorch 2.6 does") {
  // tests/conformance/torch_function_cases.jsonl, written by tools/conformance/torch_functions.py
  // (answered by 2.6; where 1.13 answered otherwise, its answer is the line's "expected_1_13").
  std::ifstream in(strided::testing::test_path("STRIDED_TORCH_FUNCTION_CASES"));
  REQUIRE(in.good());
  std::string line;
  int layouts = 0, errors = 0, changed = 0;
  while (std::getline(in, line)) {
    const nlohmann::json c = nlohmann::json::parse(line);
    const std::string expression = c.at("expression");
    CAPTURE(expression);
    if (c.contains("expected_1_13")) {
      ++changed;
      nlohmann::json answer = c;
      for (const char* key : {"expression", "torch", "expected_1_13"}) answer.erase(key);
      CHECK_MESSAGE(c.at("expected_1_13") != answer, "expected_1_13 is the 2.6 answer");
      MESSAGE("PyTorch 1.13 answered " << expression << " otherwise: "
                                       << c.at("expected_1_13").dump());
    }
    if (c.contains("error")) {
      std::string message = "no error";
      try {
        evaluate(parse(expression));
      } catch (const ExploreError& e) {
        message = e.what();
      }
      // The library names the operation first, as its errors do (strided/core/error.h).
      const std::string expected = c.at("error"), op = expression.substr(6, expression.find('(') - 6);
      CHECK((message == expected || message == op + "(): " + expected));
      ++errors;
      continue;
    }
    const Tensor t = evaluate(parse(expression)).back().tensor;
    CHECK(t.sizes() == c.at("shape").get<Shape>());
    CHECK(t.strides() == c.at("stride").get<Shape>());
    CHECK(t.storage_offset() == c.at("storage_offset").get<int64_t>());
    CHECK(std::string(name(t.dtype())) == c.at("dtype").get<std::string>());
    ++layouts;
  }
  MESSAGE((layouts + errors) << " expressions; PyTorch 1.13 answered " << changed
                            << " of them otherwise");
  CHECK(layouts >= 40);
  CHECK(errors >= 10);
}
