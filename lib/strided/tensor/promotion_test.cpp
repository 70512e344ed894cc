// Every table below was printed by PyTorch 1.13 (torch.promote_types, torch.can_cast,
// torch.result_type) and is compared entry by entry.
#include "strided/tensor/promotion.h"

#include <doctest/doctest.h>

#include <array>

#include "strided/tensor/tensor.h"

using namespace strided;

namespace {
constexpr DType B = DType::Bool, I = DType::Int32, L = DType::Int64, H = DType::Float16,
                BF = DType::BFloat16, F = DType::Float32, D = DType::Float64;
constexpr std::array<DType, 7> kAll = {B, I, L, H, BF, F, D};
using Table = std::array<std::array<DType, 7>, 7>;

Tensor dim_tensor(DType t) { return ones({2}, {t}); }
Tensor zero_dim(DType t) { return ones({}, {t}); }
}  // namespace

TEST_CASE("promote_types follows the lattice, and float16 with bfloat16 meets at float32") {
  const Table expected = {{{B, I, L, H, BF, F, D},
                           {I, I, L, H, BF, F, D},
                           {L, L, L, H, BF, F, D},
                           {H, H, H, H, F, F, D},
                           {BF, BF, BF, F, BF, F, D},
                           {F, F, F, F, F, F, D},
                           {D, D, D, D, D, D, D}}};
  for (size_t a = 0; a < 7; ++a)
    for (size_t b = 0; b < 7; ++b) {
      CAPTURE(name(kAll[a]));
      CAPTURE(name(kAll[b]));
      CHECK(promote_types(kAll[a], kAll[b]) == expected[a][b]);
    }
}

TEST_CASE("can_cast refuses floating to integral and anything but bool to bool") {
  const std::array<std::array<int, 7>, 7> expected = {{{1, 1, 1, 1, 1, 1, 1},
                                                       {0, 1, 1, 1, 1, 1, 1},
                                                       {0, 1, 1, 1, 1, 1, 1},
                                                       {0, 0, 0, 1, 1, 1, 1},
                                                       {0, 0, 0, 1, 1, 1, 1},
                                                       {0, 0, 0, 1, 1, 1, 1},
                                                       {0, 0, 0, 1, 1, 1, 1}}};
  for (size_t a = 0; a < 7; ++a)
    for (size_t b = 0; b < 7; ++b) CHECK(can_cast(kAll[a], kAll[b]) == (expected[a][b] == 1));
}

TEST_CASE("a 0-d tensor changes a dimensioned tensor's dtype only from a higher category") {
  const Table tensor_then_0d = {{{B, I, L, H, BF, F, D},
                                 {I, I, I, H, BF, F, D},
                                 {L, L, L, H, BF, F, D},
                                 {H, H, H, H, H, H, H},
                                 {BF, BF, BF, BF, BF, BF, BF},
                                 {F, F, F, F, F, F, F},
                                 {D, D, D, D, D, D, D}}};
  const Table zero_d_then_tensor = {{{B, I, L, H, BF, F, D},
                                     {I, I, L, H, BF, F, D},
                                     {L, I, L, H, BF, F, D},
                                     {H, H, H, H, BF, F, D},
                                     {BF, BF, BF, H, BF, F, D},
                                     {F, F, F, H, BF, F, D},
                                     {D, D, D, H, BF, F, D}}};
  for (size_t a = 0; a < 7; ++a)
    for (size_t b = 0; b < 7; ++b) {
      CAPTURE(name(kAll[a]));
      CAPTURE(name(kAll[b]));
      CHECK(result_type(dim_tensor(kAll[a]), zero_dim(kAll[b])) == tensor_then_0d[a][b]);
      CHECK(result_type(zero_dim(kAll[a]), dim_tensor(kAll[b])) == zero_d_then_tensor[a][b]);
      // Two 0-d tensors (or two dimensioned ones) promote as promote_types does.
      CHECK(result_type(zero_dim(kAll[a]), zero_dim(kAll[b])) ==
            promote_types(kAll[a], kAll[b]));
    }
}

TEST_CASE("a wrapped number: True, 2 and 2.5 against each dtype") {
  // Rows: the tensor's dtype; columns: True, 2, 2.5. A floating number stands for float32.
  const std::array<std::array<DType, 3>, 7> expected = {{{B, L, F},
                                                         {I, I, F},
                                                         {L, L, F},
                                                         {H, H, H},
                                                         {BF, BF, BF},
                                                         {F, F, F},
                                                         {D, D, D}}};
  const std::array<Scalar, 3> numbers = {Scalar(true), Scalar(int64_t{2}), Scalar(2.5)};
  for (size_t a = 0; a < 7; ++a)
    for (size_t s = 0; s < 3; ++s) {
      CAPTURE(name(kAll[a]));
      CAPTURE(s);
      CHECK(result_type(dim_tensor(kAll[a]), numbers[s]) == expected[a][s]);
      CHECK(result_type(zero_dim(kAll[a]), numbers[s]) == expected[a][s]);
    }
}

TEST_CASE("scalar_type_name gives the names in PyTorch's casting errors") {
  CHECK(scalar_type_name(DType::Float32) == "Float");
  CHECK(scalar_type_name(DType::Int64) == "Long");
  CHECK(scalar_type_name(DType::Int32) == "Int");
  CHECK(scalar_type_name(DType::Float64) == "Double");
  CHECK(scalar_dtype(Scalar(2.5)) == DType::Float64);
  CHECK(scalar_dtype(Scalar(int64_t{3})) == DType::Int64);
}

TEST_CASE("uint8, int8 and int16 in the whole table, and against 0-d tensors and numbers") {
  constexpr DType U8 = DType::UInt8, I8 = DType::Int8, I16 = DType::Int16, C = DType::Complex64,
                  Z = DType::Complex128;
  constexpr std::array<DType, 12> all = {B, U8, I8, I16, I, L, H, BF, F, D, C, Z};
  // torch.promote_types and torch.can_cast over every pair, as torch 1.13 printed them: uint8
  // with int8 meets at int16, and bool < uint8.
  const std::array<std::array<DType, 12>, 12> promoted = {{
      {B, U8, I8, I16, I, L, H, BF, F, D, C, Z},
      {U8, U8, I16, I16, I, L, H, BF, F, D, C, Z},
      {I8, I16, I8, I16, I, L, H, BF, F, D, C, Z},
      {I16, I16, I16, I16, I, L, H, BF, F, D, C, Z},
      {I, I, I, I, I, L, H, BF, F, D, C, Z},
      {L, L, L, L, L, L, H, BF, F, D, C, Z},
      {H, H, H, H, H, H, H, F, F, D, C, Z},
      {BF, BF, BF, BF, BF, BF, F, BF, F, D, C, Z},
      {F, F, F, F, F, F, F, F, F, D, C, Z},
      {D, D, D, D, D, D, D, D, D, D, Z, Z},
      {C, C, C, C, C, C, C, C, C, Z, C, Z},
      {Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z}}};
  const std::array<std::array<int, 12>, 12> castable = {{
      {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
      {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
      {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
      {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
      {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
      {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
      {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1},
      {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1},
      {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1},
      {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1},
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1},
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1}}};
  for (size_t a = 0; a < 12; ++a)
    for (size_t b = 0; b < 12; ++b) {
      CAPTURE(name(all[a]));
      CAPTURE(name(all[b]));
      CHECK(promote_types(all[a], all[b]) == promoted[a][b]);
      CHECK(can_cast(all[a], all[b]) == (castable[a][b] == 1));
    }
  // torch.result_type of a dimensioned narrow tensor with a 0-d tensor of each dtype (only a
  // higher category changes it), and of a narrow 0-d tensor with a dimensioned one.
  const std::array<std::array<DType, 12>, 3> tensor_then_0d = {{
      {U8, U8, U8, U8, U8, U8, H, BF, F, D, C, Z},
      {I8, I8, I8, I8, I8, I8, H, BF, F, D, C, Z},
      {I16, I16, I16, I16, I16, I16, H, BF, F, D, C, Z}}};
  const std::array<std::array<DType, 12>, 3> zero_d_then_tensor = {{
      {U8, U8, I8, I16, I, L, H, BF, F, D, C, Z},
      {I8, U8, I8, I16, I, L, H, BF, F, D, C, Z},
      {I16, U8, I8, I16, I, L, H, BF, F, D, C, Z}}};
  const std::array<DType, 3> narrow = {U8, I8, I16};
  const std::array<Scalar, 3> numbers = {Scalar(true), Scalar(int64_t{300}), Scalar(2.5)};
  for (size_t a = 0; a < 3; ++a) {
    CAPTURE(name(narrow[a]));
    for (size_t b = 0; b < 12; ++b) {
      CAPTURE(name(all[b]));
      CHECK(result_type(dim_tensor(narrow[a]), ones({}, {all[b]})) == tensor_then_0d[a][b]);
      CHECK(result_type(zero_dim(narrow[a]), ones({2}, {all[b]})) == zero_d_then_tensor[a][b]);
    }
    // A number: True and 300 keep the narrow dtype, 2.5 gives float32.
    for (const Scalar& s : numbers) {
      const DType want = s.is_floating_point() ? F : narrow[a];
      CHECK(result_type(dim_tensor(narrow[a]), s) == want);
      CHECK(result_type(zero_dim(narrow[a]), s) == want);
    }
  }
  CHECK(scalar_type_name(U8) == "Byte");
  CHECK(scalar_type_name(I8) == "Char");
  CHECK(scalar_type_name(I16) == "Short");
}

TEST_CASE("complex64 and complex128 promote with every dtype as c10's promoteTypes table") {
  constexpr DType C = DType::Complex64, Z = DType::Complex128;
  const std::array<DType, 9> all = {B, I, L, H, BF, F, D, C, Z};
  // Rows complex64, complex128 against every dtype, and every dtype's can_cast to them and back.
  const std::array<std::array<DType, 9>, 2> expected = {{{C, C, C, C, C, C, Z, C, Z}, {Z, Z, Z, Z, Z, Z, Z, Z, Z}}};
  const std::array<std::array<int, 2>, 9> to_complex = {{{1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}}};
  const std::array<std::array<int, 9>, 2> from_complex = {{{0, 0, 0, 0, 0, 0, 0, 1, 1}, {0, 0, 0, 0, 0, 0, 0, 1, 1}}};
  for (size_t a = 0; a < 2; ++a)
    for (size_t b = 0; b < 9; ++b) {
      CAPTURE(name(all[b]));
      CHECK(promote_types(all[7 + a], all[b]) == expected[a][b]);
      CHECK(promote_types(all[b], all[7 + a]) == expected[a][b]);
      CHECK(can_cast(all[b], all[7 + a]) == (to_complex[b][a] == 1));
      CHECK(can_cast(all[7 + a], all[b]) == (from_complex[a][b] == 1));
    }
  // result_type of a dimensioned tensor with a 0-d one, each way round.
  struct Case { DType real, complex, dim_real, zero_real; };
  const Case cases[] = {{B, C, C, C}, {B, Z, Z, Z}, {L, C, C, C}, {L, Z, Z, Z}, {F, C, C, C}, {F, Z, C, Z}, {D, C, Z, C}, {D, Z, Z, Z}};
  for (const Case& c : cases) {
    CAPTURE(name(c.real));
    CAPTURE(name(c.complex));
    CHECK(result_type(dim_tensor(c.real), ones({}, {c.complex})) == c.dim_real);
    CHECK(result_type(zero_dim(c.real), ones({2}, {c.complex})) == c.zero_real);
  }
  CHECK(scalar_type_name(C) == "ComplexFloat");
  CHECK(scalar_type_name(Z) == "ComplexDouble");
}
