// Bad input, part 2: dims and indices out of range, on every op that takes one. PyTorch 1.13's
// wording is quoted where it raises the same error; the checked pieces name our op and the values.
#include "expect_error.h"
#include "strided/tensor/tensor.h"

using namespace strided;
using indexing::Slice;

namespace {
// torch.arange(24.).view(2, 3, 4)
Tensor t3() { return arange(24).view({2, 3, 4}); }
}  // namespace

TEST_CASE("select with a dim out of range") {
  // torch: "Dimension out of range (expected to be in range of [-3, 2], but got 3)"
  CHECK_ERROR(t3().select(3, 0), "select()",
              "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
}

TEST_CASE("select with an index past the end") {
  // torch: "select(): index 3 out of range for tensor of size [2, 3, 4] at dimension 1"
  CHECK_ERROR(t3().select(1, 3),
              "select(): index 3 out of range for tensor of size [2, 3, 4] at dimension 1");
}

TEST_CASE("select with an index before the start") {
  CHECK_ERROR(t3().select(1, -4),
              "select(): index -4 out of range for tensor of size [2, 3, 4] at dimension 1");
}

TEST_CASE("select of a 0-d tensor") {
  // torch: "select() cannot be applied to a 0-dim tensor."
  CHECK_ERROR(scalar_tensor(Scalar(1.0)).select(0, 0), "select()",
              "cannot be applied to a 0-dim tensor.");
}

TEST_CASE("transpose with a dim out of range") {
  CHECK_ERROR(t3().transpose(0, -4), "transpose()", "[-3, 2], but got -4");
}

TEST_CASE("permute with too few dims") {
  // torch: "... input.dim() = 3 is not equal to len(dims) = 2"
  CHECK_ERROR(t3().permute({0, 1}), "permute()", "input.dim() = 3 is not equal to len(dims) = 2");
}

TEST_CASE("permute with a repeated dim") {
  // torch: "permute(): duplicate dims are not allowed."
  CHECK_ERROR(t3().permute({0, 1, 1}), "permute(): duplicate dims are not allowed", "[0, 1, 1]");
}

TEST_CASE("permute with a dim out of range") {
  CHECK_ERROR(t3().permute({0, 1, 3}), "permute()", "[-3, 2], but got 3");
}

TEST_CASE("diagonal of a dim with itself") {
  // torch: "diagonal dimensions cannot be identical 1, 1"
  CHECK_ERROR(t3().diagonal(0, 1, 1), "diagonal()", "diagonal dimensions cannot be identical 1, 1");
}

TEST_CASE("diagonal with a dim out of range") {
  CHECK_ERROR(t3().diagonal(0, 0, 5), "diagonal()", "[-3, 2], but got 5");
}

TEST_CASE("unsqueeze past the new last dim") {
  // torch: "Dimension out of range (expected to be in range of [-4, 3], but got 4)"
  CHECK_ERROR(t3().unsqueeze(4), "unsqueeze()", "[-4, 3], but got 4");
}

TEST_CASE("squeeze with a dim out of range") {
  CHECK_ERROR(t3().squeeze(3), "squeeze()", "[-3, 2], but got 3");
}

TEST_CASE("flatten with start_dim after end_dim") {
  // torch: "flatten() has invalid args: start_dim cannot come after end_dim"
  CHECK_ERROR(t3().flatten(2, 0), "flatten() has invalid args: start_dim cannot come after end_dim",
              "start_dim 2, end_dim 0");
}

TEST_CASE("flatten with a dim out of range") {
  CHECK_ERROR(t3().flatten(0, 3), "flatten()", "[-3, 2], but got 3");
}

TEST_CASE("movedim with lists of different lengths") {
  // torch: "movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the
  // same number of dims as destination ([0] dims)"
  CHECK_ERROR(t3().movedim({0, 1}, {0}), "movedim()", "source ([0, 1] dims)",
              "destination ([0] dims)");
}

TEST_CASE("movedim with a repeated source dim") {
  // torch: "movedim: repeated dim in `source` ([0, 0])"
  CHECK_ERROR(t3().movedim({0, 0}, {1, 2}), "movedim(): repeated dim in `source` ([0, 0])");
}

TEST_CASE("narrow past the end of the dim") {
  // torch: "start (3) + length (2) exceeds dimension size (4)."
  CHECK_ERROR(t3().narrow(2, 3, 2), "narrow()", "start (3) + length (2) exceeds dimension size (4).");
}

TEST_CASE("narrow with a start out of range") {
  CHECK_ERROR(t3().narrow(2, 5, 0), "narrow()", "but got 5");
}

TEST_CASE("narrow of a 0-d tensor") {
  CHECK_ERROR(scalar_tensor(Scalar(1.0)).narrow(0, 0, 1), "narrow()",
              "cannot be applied to a 0-dim tensor.");
}

TEST_CASE("unfold with a window larger than the dim") {
  // torch: "maximum size for tensor at dimension 2 is 4 but size is 5"
  CHECK_ERROR(t3().unfold(2, 5, 1), "unfold()",
              "maximum size for tensor at dimension 2 is 4 but size is 5");
}

TEST_CASE("unfold with a dim out of range") {
  CHECK_ERROR(t3().unfold(3, 1, 1), "unfold()", "[-3, 2], but got 3");
}

TEST_CASE("indexing with an integer past the end") {
  // torch: "index 2 is out of bounds for dimension 0 with size 2"
  CHECK_ERROR(t3().index({2}), "index()", "index 2 is out of bounds for dimension 0 with size 2");
}

TEST_CASE("indexing with more indices than dims") {
  // torch: "too many indices for tensor of dimension 3"
  CHECK_ERROR(t3().index({0, 0, 0, 0}), "index()", "too many indices for tensor of dimension 3");
}

TEST_CASE("indexing past the last dim after a second ellipsis") {
  // PyTorch 1.13 expands every ... (python_variable_indexing.cpp), so with two of them the next
  // entry lands past the last dim. x = torch.arange(6).view(2, 3); torch's messages:
  //   x[..., ..., 0:1]  "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
  //   x[..., ..., None] "Dimension out of range (expected to be in range of [-3, 2], but got 4)"
  //   x[..., ..., [0]]  "too many indices for tensor of dimension 2 (got 3)"
  //   x[..., ..., 0]    "index 0 is out of bounds for dimension 2 with size 0" (a size read past
  //                     the sizes' end; the library says why instead)
  using indexing::Ellipsis;
  using indexing::None;
  const Tensor x = arange(6).view({2, 3});
  CHECK_ERROR(x.index({Ellipsis, Ellipsis, Slice(0, 1)}), "index():",
              "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CHECK_ERROR(x.index({Ellipsis, Ellipsis, None}), "index():",
              "Dimension out of range (expected to be in range of [-3, 2], but got 4)");
  CHECK_ERROR(x.index({Ellipsis, Ellipsis, std::vector<int64_t>{0}}), "index():",
              "too many indices for tensor of dimension 2 (got 3)");
  CHECK_ERROR(x.index({Ellipsis, Ellipsis, 0}), "index():",
              "index 0 is out of bounds for dimension 2", "a second '...'");
  // torch: x[..., 0, ..., 0] is tensor(0): the second ... stands for no dim there.
  CHECK(x.index({Ellipsis, 0, Ellipsis, 0}).item().to_int() == 0);
}

TEST_CASE("indexing with a list holding an index past the end") {
  CHECK_ERROR(t3().index({std::vector<int64_t>{0, 2}}), "index()", "index 2",
              "dimension 0 with size 2");
}

TEST_CASE("index_select with an index past the end") {
  // torch: "INDICES element is out of DATA bounds, id=3 axis_dim=3"
  CHECK_ERROR(t3().index_select(1, {3}), "index_select()", "index 3",
              "dimension 1 with size 3");
}

TEST_CASE("index_select with a negative index") {
  // index_select does not wrap: torch says "id=-1 axis_dim=3".
  CHECK_ERROR(t3().index_select(1, {-1}), "index_select()", "index -1",
              "dimension 1 with size 3");
}

TEST_CASE("flip with a repeated dim") {
  // torch: "dim 0 appears multiple times in the list of dims"
  CHECK_ERROR(t3().flip({0, 0}), "flip()", "dim 0 appears multiple times in the list of dims");
}

TEST_CASE("flip with a dim out of range") {
  CHECK_ERROR(t3().flip({3}), "flip()", "[-3, 2], but got 3");
}

TEST_CASE("element access with too few indices") {
  CHECK_ERROR(t3().at({0, 0}), "at", "expected 3 indices", "[2, 3, 4]", "got 2");
}

TEST_CASE("element access past the end") {
  CHECK_ERROR(t3().at({0, 3, 0}), "at", "index 3 is out of bounds for dimension 1 with size 3");
}

TEST_CASE("size and stride of a dim out of range") {
  CHECK_ERROR(t3().size(3), "size", "[-3, 2], but got 3");
  CHECK_ERROR(t3().stride(-4), "stride", "[-3, 2], but got -4");
}

TEST_CASE("t() of a 3-d tensor") {
  // torch: "t() expects a tensor with <= 2 dimensions, but self is 3D"
  CHECK_ERROR(t3().t(), "t(): expects a tensor with <= 2 dimensions, but self is 3D", "[2, 3, 4]");
}

TEST_CASE("mT of a 1-d tensor") {
  // torch: "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor."
  CHECK_ERROR(arange(3).mT(), "mT",
              "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.");
}

TEST_CASE("item of a tensor with many elements") {
  CHECK_ERROR(t3().item(), "item", "24 elements");
}

TEST_CASE("ops on an undefined tensor") {
  const Tensor undefined;
  CHECK_ERROR(undefined.view({1}), "view()", "undefined");
  CHECK_ERROR(undefined.clone(), "clone()", "undefined");
}
