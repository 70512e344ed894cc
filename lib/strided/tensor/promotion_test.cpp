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
