#include <doctest/doctest.h>

#include <cctype>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "strided/tensor/tensor.h"

using namespace strided;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<double> iota(int n) {
  std::vector<double> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0.0);
  return v;
}
std::vector<double> every_third(int n) {
  std::vector<double> v;
  for (int k = 0; k < n; ++k) v.push_back(k % 3 == 0 ? 1.0 : 0.0);
  return v;
}

// A storage holding the given values, viewed with a hand-made layout, so that printing is tested
// on non-contiguous, offset, stride-0 and empty layouts without the view ops.
struct Case {
  const char* name;
  std::vector<double> storage;
  DType dtype;
  Shape sizes, strides;
  int64_t offset;
  const char* expected;
};

Tensor make(const Case& c) {
  const int64_t n = static_cast<int64_t>(c.storage.size());
  const Tensor flat = from_values(c.storage, {n}, {c.dtype});
  return Tensor(flat.storage(), c.sizes, c.strides, c.offset, c.dtype);
}

// Each expected string is repr(torch.as_strided(storage, sizes, strides, offset)) as printed by
// PyTorch 1.13 (torch/_tensor_str.py) with the default print options.
const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
    {"matrix", std::vector<double>{0.0, 1.0, 2.0, 3.0, 4.0, 5.0}, DType::Float32, {2, 3}, {3, 1}, 0,
     R"(tensor([[0., 1., 2.],
        [3., 4., 5.]]))"},
    {"ints", std::vector<double>{0.0, 1.0, 2.0}, DType::Int64, {3}, {1}, 0,
     R"(tensor([0, 1, 2]))"},
    {"int32", std::vector<double>{0.0, 1.0, 2.0}, DType::Int32, {3}, {1}, 0,
     R"(tensor([0, 1, 2], dtype=torch.int32))"},
    {"bool", std::vector<double>{1.0, 0.0}, DType::Bool, {2}, {1}, 0,
     R"(tensor([ True, False]))"},
    {"bool-all-true", std::vector<double>{1.0, 1.0}, DType::Bool, {2}, {1}, 0,
     R"(tensor([True, True]))"},
    {"0-d", std::vector<double>{3.0}, DType::Float32, {}, {}, 0,
     R"(tensor(3.))"},
    {"0-d int", std::vector<double>{7.0}, DType::Int32, {}, {}, 0,
     R"(tensor(7, dtype=torch.int32))"},
    {"empty 0x3", std::vector<double>{}, DType::Float32, {0, 3}, {3, 1}, 0,
     R"(tensor([], size=(0, 3)))"},
    {"empty int64", std::vector<double>{}, DType::Int64, {0}, {1}, 0,
     R"(tensor([], dtype=torch.int64))"},
    {"empty bool 3d", std::vector<double>{}, DType::Bool, {2, 0, 3}, {3, 3, 1}, 0,
     R"(tensor([], size=(2, 0, 3), dtype=torch.bool))"},
    {"decimals", std::vector<double>{0.5, 1.25, -3.0}, DType::Float32, {3}, {1}, 0,
     R"(tensor([ 0.5000,  1.2500, -3.0000]))"},
    {"small -> sci", std::vector<double>{1e-05, 1.0}, DType::Float32, {2}, {1}, 0,
     R"(tensor([1.0000e-05, 1.0000e+00]))"},
    {"big -> sci", std::vector<double>{1000000000.0, 1.0}, DType::Float32, {2}, {1}, 0,
     R"(tensor([1.0000e+09, 1.0000e+00]))"},
    {"int range -> sci", std::vector<double>{1.0, 10000.0}, DType::Float32, {2}, {1}, 0,
     R"(tensor([1.0000e+00, 1.0000e+04]))"},
    {"non-finite", std::vector<double>{kNan, kInf, -kInf, 1.0}, DType::Float32, {4}, {1}, 0,
     R"(tensor([nan, inf, -inf, 1.]))"},
    {"zero and nan", std::vector<double>{0.0, kNan}, DType::Float32, {2}, {1}, 0,
     R"(tensor([0., nan]))"},
    {"all zero", std::vector<double>{0.0, 0.0, 0.0}, DType::Float32, {3}, {1}, 0,
     R"(tensor([0., 0., 0.]))"},
    {"float64", std::vector<double>{0.5, 2.0}, DType::Float64, {2}, {1}, 0,
     R"(tensor([0.5000, 2.0000], dtype=torch.float64))"},
    {"float16", std::vector<double>{2049.0, 0.1}, DType::Float16, {2}, {1}, 0,
     R"(tensor([2.0480e+03, 9.9976e-02], dtype=torch.float16))"},
    {"bfloat16", std::vector<double>{1.0, 3.0}, DType::BFloat16, {2}, {1}, 0,
     R"(tensor([1., 3.], dtype=torch.bfloat16))"},
    {"summarised 1-d", iota(2000), DType::Int64, {2000}, {1}, 0,
     R"(tensor([   0,    1,    2,  ..., 1997, 1998, 1999]))"},
    {"summarised float", iota(1001), DType::Float32, {1001}, {1}, 0,
     R"(tensor([   0.,    1.,    2.,  ...,  998.,  999., 1000.]))"},
    {"summarised 2-d", iota(1200), DType::Float32, {40, 30}, {30, 1}, 0,
     R"(tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 2.7000e+01, 2.8000e+01,
         2.9000e+01],
        [3.0000e+01, 3.1000e+01, 3.2000e+01,  ..., 5.7000e+01, 5.8000e+01,
         5.9000e+01],
        [6.0000e+01, 6.1000e+01, 6.2000e+01,  ..., 8.7000e+01, 8.8000e+01,
         8.9000e+01],
        ...,
        [1.1100e+03, 1.1110e+03, 1.1120e+03,  ..., 1.1370e+03, 1.1380e+03,
         1.1390e+03],
        [1.1400e+03, 1.1410e+03, 1.1420e+03,  ..., 1.1670e+03, 1.1680e+03,
         1.1690e+03],
        [1.1700e+03, 1.1710e+03, 1.1720e+03,  ..., 1.1970e+03, 1.1980e+03,
         1.1990e+03]]))"},
    {"summarised 3-d", iota(1200), DType::Int64, {12, 10, 10}, {100, 10, 1}, 0,
     R"(tensor([[[   0,    1,    2,  ...,    7,    8,    9],
         [  10,   11,   12,  ...,   17,   18,   19],
         [  20,   21,   22,  ...,   27,   28,   29],
         ...,
         [  70,   71,   72,  ...,   77,   78,   79],
         [  80,   81,   82,  ...,   87,   88,   89],
         [  90,   91,   92,  ...,   97,   98,   99]],

        [[ 100,  101,  102,  ...,  107,  108,  109],
         [ 110,  111,  112,  ...,  117,  118,  119],
         [ 120,  121,  122,  ...,  127,  128,  129],
         ...,
         [ 170,  171,  172,  ...,  177,  178,  179],
         [ 180,  181,  182,  ...,  187,  188,  189],
         [ 190,  191,  192,  ...,  197,  198,  199]],

        [[ 200,  201,  202,  ...,  207,  208,  209],
         [ 210,  211,  212,  ...,  217,  218,  219],
         [ 220,  221,  222,  ...,  227,  228,  229],
         ...,
         [ 270,  271,  272,  ...,  277,  278,  279],
         [ 280,  281,  282,  ...,  287,  288,  289],
         [ 290,  291,  292,  ...,  297,  298,  299]],

        ...,

        [[ 900,  901,  902,  ...,  907,  908,  909],
         [ 910,  911,  912,  ...,  917,  918,  919],
         [ 920,  921,  922,  ...,  927,  928,  929],
         ...,
         [ 970,  971,  972,  ...,  977,  978,  979],
         [ 980,  981,  982,  ...,  987,  988,  989],
         [ 990,  991,  992,  ...,  997,  998,  999]],

        [[1000, 1001, 1002,  ..., 1007, 1008, 1009],
         [1010, 1011, 1012,  ..., 1017, 1018, 1019],
         [1020, 1021, 1022,  ..., 1027, 1028, 1029],
         ...,
         [1070, 1071, 1072,  ..., 1077, 1078, 1079],
         [1080, 1081, 1082,  ..., 1087, 1088, 1089],
         [1090, 1091, 1092,  ..., 1097, 1098, 1099]],

        [[1100, 1101, 1102,  ..., 1107, 1108, 1109],
         [1110, 1111, 1112,  ..., 1117, 1118, 1119],
         [1120, 1121, 1122,  ..., 1127, 1128, 1129],
         ...,
         [1170, 1171, 1172,  ..., 1177, 1178, 1179],
         [1180, 1181, 1182,  ..., 1187, 1188, 1189],
         [1190, 1191, 1192,  ..., 1197, 1198, 1199]]]))"},
    {"summarised inner only", iota(1010), DType::Int64, {2, 505}, {505, 1}, 0,
     R"(tensor([[   0,    1,    2,  ...,  502,  503,  504],
        [ 505,  506,  507,  ..., 1007, 1008, 1009]]))"},
    {"wrapping floats", std::vector<double>{0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0}, DType::Float32, {30}, {1}, 0,
     R"(tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,
        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,
        28., 29.]))"},
    {"wrapping decimals", std::vector<double>{0.0, 0.1234, 0.2468, 0.3702, 0.4936, 0.617, 0.7404, 0.8638, 0.9872, 1.1106, 1.234, 1.3574, 1.4808, 1.6041999999999998, 1.7276, 1.851, 1.9744, 2.0978, 2.2212, 2.3446}, DType::Float32, {20}, {1}, 0,
     R"(tensor([0.0000, 0.1234, 0.2468, 0.3702, 0.4936, 0.6170, 0.7404, 0.8638, 0.9872,
        1.1106, 1.2340, 1.3574, 1.4808, 1.6042, 1.7276, 1.8510, 1.9744, 2.0978,
        2.2212, 2.3446]))"},
    {"wrapping ints", std::vector<double>{0.0, 1000000.0, 2000000.0, 3000000.0, 4000000.0, 5000000.0, 6000000.0, 7000000.0, 8000000.0, 9000000.0, 10000000.0, 11000000.0, 12000000.0, 13000000.0, 14000000.0, 15000000.0, 16000000.0, 17000000.0, 18000000.0, 19000000.0, 20000000.0, 21000000.0, 22000000.0, 23000000.0, 24000000.0}, DType::Int64, {25}, {1}, 0,
     R"(tensor([       0,  1000000,  2000000,  3000000,  4000000,  5000000,  6000000,
         7000000,  8000000,  9000000, 10000000, 11000000, 12000000, 13000000,
        14000000, 15000000, 16000000, 17000000, 18000000, 19000000, 20000000,
        21000000, 22000000, 23000000, 24000000]))"},
    {"transpose", std::vector<double>{0.0, 1.0, 2.0, 3.0, 4.0, 5.0}, DType::Int64, {3, 2}, {1, 3}, 0,
     R"(tensor([[0, 3],
        [1, 4],
        [2, 5]]))"},
    {"4-d", std::vector<double>{0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0}, DType::Int64, {2, 2, 2, 2}, {8, 4, 2, 1}, 0,
     R"(tensor([[[[ 0,  1],
          [ 2,  3]],

         [[ 4,  5],
          [ 6,  7]]],


        [[[ 8,  9],
          [10, 11]],

         [[12, 13],
          [14, 15]]]]))"},
    {"negative ints", std::vector<double>{-5.0, 10.0, 300.0}, DType::Int64, {3}, {1}, 0,
     R"(tensor([ -5,  10, 300]))"},
    {"suffix on new line", std::vector<double>{0.0, 0.123456, 0.246912, 0.370368, 0.493824, 0.6172799999999999, 0.740736, 0.864192, 0.987648, 1.1111039999999999, 1.2345599999999999, 1.358016}, DType::Float64, {12}, {1}, 0,
     R"(tensor([0.0000, 0.1235, 0.2469, 0.3704, 0.4938, 0.6173, 0.7407, 0.8642, 0.9876,
        1.1111, 1.2346, 1.3580], dtype=torch.float64))"},
    {"suffix wrapped 2-d", std::vector<double>{0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 11.0, 11.5}, DType::Float64, {2, 12}, {12, 1}, 0,
     R"(tensor([[ 0.0000,  0.5000,  1.0000,  1.5000,  2.0000,  2.5000,  3.0000,  3.5000,
          4.0000,  4.5000,  5.0000,  5.5000],
        [ 6.0000,  6.5000,  7.0000,  7.5000,  8.0000,  8.5000,  9.0000,  9.5000,
         10.0000, 10.5000, 11.0000, 11.5000]], dtype=torch.float64))"},
    {"expand", std::vector<double>{0.0, 1.0, 2.0, 3.0}, DType::Float32, {3, 4}, {0, 1}, 0,
     R"(tensor([[0., 1., 2., 3.],
        [0., 1., 2., 3.],
        [0., 1., 2., 3.]]))"},
    {"negative zero", std::vector<double>{-0.0, 1.0}, DType::Float32, {2}, {1}, 0,
     R"(tensor([-0., 1.]))"},
    {"bool summarised", every_third(2000), DType::Bool, {2000}, {1}, 0,
     R"(tensor([ True, False, False,  ..., False,  True, False]))"},
    {"large fixed", std::vector<double>{123456.789, 1.5}, DType::Float32, {2}, {1}, 0,
     R"(tensor([1.2346e+05, 1.5000e+00]))"},
    {"edge 1e-4", std::vector<double>{1.5, 0.0001}, DType::Float32, {2}, {1}, 0,
     R"(tensor([1.5000e+00, 1.0000e-04]))"},
    {"point one", std::vector<double>{0.1}, DType::Float32, {1}, {1}, 0,
     R"(tensor([0.1000]))"},
    {"offset slice", std::vector<double>{0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0}, DType::Float32, {2, 2}, {4, 2}, 3,
     R"(tensor([[3., 5.],
        [7., 9.]]))"},
    {"neg decimals", std::vector<double>{-0.5, 0.25}, DType::Float32, {2}, {1}, 0,
     R"(tensor([-0.5000,  0.2500]))"},
    {"sci negative", std::vector<double>{-10000000000.0, 2.5}, DType::Float32, {2}, {1}, 0,
     R"(tensor([-1.0000e+10,  2.5000e+00]))"},
    {"size-1 dims", std::vector<double>{0.0, 1.0, 2.0}, DType::Float32, {1, 3, 1}, {3, 1, 1}, 0,
     R"(tensor([[[0.],
         [1.],
         [2.]]]))"},
    {"int 0-d empty-ish", std::vector<double>{0.0}, DType::Int64, {1}, {1}, 0,
     R"(tensor([0]))"},
    {"empty 1-d float", std::vector<double>{}, DType::Float32, {0}, {1}, 0,
     R"(tensor([]))"},
    {"inf only", std::vector<double>{kInf}, DType::Float32, {1}, {1}, 0,
     R"(tensor([inf]))"},
    {"2-d summarised cols", iota(3000), DType::Float32, {3, 1000}, {1000, 1}, 0,
     R"(tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 9.9700e+02, 9.9800e+02,
         9.9900e+02],
        [1.0000e+03, 1.0010e+03, 1.0020e+03,  ..., 1.9970e+03, 1.9980e+03,
         1.9990e+03],
        [2.0000e+03, 2.0010e+03, 2.0020e+03,  ..., 2.9970e+03, 2.9980e+03,
         2.9990e+03]]))"},
  };
  return all;
}

}  // namespace

TEST_CASE("to_string prints as PyTorch 1.13 does") {
  for (const Case& c : cases()) {
    INFO("case: ", c.name);
    CHECK(to_string(make(c)) == std::string(c.expected));
  }
}

TEST_CASE("uint8, int8 and int16 print with their dtype, as torch 1.13 prints them") {
  CHECK(to_string(from_values({1, 2, 255}, {3}, {DType::UInt8})) ==
        "tensor([  1,   2, 255], dtype=torch.uint8)");
  CHECK(to_string(from_values({-128, 5, 127, 0}, {2, 2}, {DType::Int8})) ==
        "tensor([[-128,    5],\n        [ 127,    0]], dtype=torch.int8)");
  CHECK(to_string(from_values({-32768}, {}, {DType::Int16})) ==
        "tensor(-32768, dtype=torch.int16)");
  CHECK(to_string(zeros({0}, {DType::UInt8})) == "tensor([], dtype=torch.uint8)");
}

TEST_CASE("values given for a complex dtype are real parts, as torch.tensor(..., dtype=complex64) reads them") {
  // torch 1.13 and 2.6 print these two exactly so.
  CHECK(to_string(from_values({1, 2.5}, {1, 2}, {DType::Complex128})) ==
        "tensor([[1.0000+0.j, 2.5000+0.j]], dtype=torch.complex128)");
  CHECK(to_string(from_scalars({Scalar(true), Scalar(false)}, {2}, {DType::Complex64})) ==
        "tensor([1.+0.j, 0.+0.j])");
}

TEST_CASE("int64 values beyond 2^53 print exactly") {
  Tensor t = zeros({2}, {DType::Int64});
  t.set({0}, Scalar(int64_t{4611686018427387905}));
  t.set({1}, Scalar(int64_t{1}));
  CHECK(to_string(t) == "tensor([4611686018427387905,                   1])");
}

TEST_CASE("operator<< writes the same text, and bad tensors are refused clearly") {
  const Tensor t = from_values({1.5, -2}, {2});
  std::ostringstream out;
  out << t;
  CHECK(out.str() == "tensor([ 1.5000, -2.0000])");
  CHECK_THROWS_WITH_AS(to_string(Tensor()), "to_string: the tensor is undefined", Error);
}

TEST_CASE("printed_elements counts the values to_string writes out") {
  // Distinct int64 values, each written as one run of digits.
  auto written = [](const Tensor& t) {
    const std::string s = to_string(t);
    int64_t runs = 0;
    for (size_t i = 0; i < s.size(); ++i)
      if (std::isdigit(static_cast<unsigned char>(s[i])) &&
          (i == 0 || !std::isdigit(static_cast<unsigned char>(s[i - 1]))))
        ++runs;
    return runs;
  };
  const Tensor cases[] = {
      arange(1000).view({10, 100}),                              // at the threshold: all
      arange(2000),                                              // 1-D: 3 + 3
      arange(16807).view({7, 7, 7, 7, 7}),                       // 6^5
      arange(2048).view({2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}),      // no dim past 6: all
      arange(3000).view({3, 1000}),                              // 3 * 6
      arange(24).view({2, 3, 4}).permute({2, 0, 1}),
  };
  for (const Tensor& t : cases) {
    INFO(t.layout());
    CHECK(printed_elements(t) == written(t));
  }
  CHECK(printed_elements(arange(2000).view({2, 1000})) == 12);
  CHECK(printed_elements(arange(0)) == 0);
  // 2^24 elements in 24 dims of size 2: PyTorch writes every one of them.
  CHECK(printed_elements(empty({1}).expand(Shape(24, 2))) == int64_t{1} << 24);
}
