// Bad input, part 3: steps, view and reshape, expand and broadcasting.
#include "expect_error.h"
#include "strided/layout/layout.h"
#include "strided/engine/ops.h"
#include "strided/tensor/tensor.h"

using namespace strided;
using indexing::Slice;

namespace {
Tensor t3_shapes() { return arange(24).view({2, 3, 4}); }
}  // namespace

// ---- zero and negative steps ----------------------------------------------------------------------

TEST_CASE("slice with step 0") {
  // torch (t[:, ::0]): "slice step cannot be zero"
  CHECK_ERROR(t3_shapes().slice(1, std::nullopt, std::nullopt, 0), "slice()",
              "slice step must be positive, got 0");
}

TEST_CASE("slice with a negative step") {
  // torch (t[:, ::-1]): "step must be greater than zero"
  CHECK_ERROR(t3_shapes().slice(1, std::nullopt, std::nullopt, -1), "slice()",
              "slice step must be positive, got -1");
}

TEST_CASE("indexing with a slice of step 0") {
  CHECK_ERROR(t3_shapes().index({Slice(), Slice(std::nullopt, std::nullopt, 0)}), "index()",
              "slice step cannot be zero");
}

TEST_CASE("indexing with a slice of negative step") {
  CHECK_ERROR(t3_shapes().index({Slice(std::nullopt, std::nullopt, -2)}), "index()",
              "step must be greater than zero, got -2");
}

TEST_CASE("slice of a 0-d tensor") {
  // torch: "slice() cannot be applied to a 0-dim tensor."
  CHECK_ERROR(scalar_tensor(Scalar(1.0)).slice(0, 0, 1), "slice()",
              "cannot be applied to a 0-dim tensor.");
}

TEST_CASE("unfold with step 0") {
  // torch: "step is 0 but must be > 0"
  CHECK_ERROR(t3_shapes().unfold(2, 2, 0), "unfold(): step is 0 but must be > 0");
}

TEST_CASE("unfold with a negative step") {
  CHECK_ERROR(t3_shapes().unfold(2, 2, -1), "unfold(): step is -1 but must be > 0");
}

TEST_CASE("unfold with a negative window") {
  CHECK_ERROR(t3_shapes().unfold(2, -1, 1), "unfold(): size is -1 but must be >= 0");
  // torch 2.6 checks the size before the step.
  CHECK_ERROR(t3_shapes().unfold(2, -1, 0), "unfold(): size is -1 but must be >= 0");
}

TEST_CASE("arange with step 0") {
  // torch: "step must be nonzero"
  CHECK_ERROR(arange(0, 5, 0), "arange: step must be nonzero");
}

TEST_CASE("arange whose step goes away from its end") {
  // torch: "upper bound and larger bound inconsistent with step sign"
  CHECK_ERROR(arange(5, 0, 1), "arange: upper bound and larger bound inconsistent with step sign",
              "start=5, end=0, step=1");
}

// ---- view and reshape -----------------------------------------------------------------------------

TEST_CASE("view with two -1s") {
  // torch: "only one dimension can be inferred"
  CHECK_ERROR(t3_shapes().view({-1, -1}), "view()", "only one dimension can be inferred", "[-1, -1]");
}

TEST_CASE("reshape with two -1s") {
  CHECK_ERROR(t3_shapes().reshape({-1, 2, -1}), "reshape()", "only one dimension can be inferred",
              "[-1, 2, -1]");
}

TEST_CASE("view with the wrong element count") {
  // torch: "shape '[5, 5]' is invalid for input of size 24"
  CHECK_ERROR(t3_shapes().view({5, 5}), "view()", "shape '[5, 5]' is invalid for input of size 24");
}

TEST_CASE("reshape with the wrong element count") {
  CHECK_ERROR(t3_shapes().reshape({7}), "reshape()", "shape '[7]' is invalid for input of size 24");
}

TEST_CASE("view with a -1 that no size can fill") {
  CHECK_ERROR(t3_shapes().view({5, -1}), "view()", "shape '[5, -1]' is invalid for input of size 24");
}

TEST_CASE("view across two runs of memory") {
  // torch: "view size is not compatible with input tensor's size and stride (at least one
  // dimension spans across two contiguous subspaces). Use .reshape(...) instead."
  CHECK_ERROR(t3_shapes().transpose(0, 1).view({24}),
              "view(): view size is not compatible with input tensor's size and stride (at least "
              "one dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
              "(3,2,4):(4,12,1)", "[24]");
}

TEST_CASE("reshape of an empty tensor with an ambiguous -1") {
  // torch: "cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified
  // dimension size -1 can be any value and is ambiguous"
  CHECK_ERROR(empty({0, 3}).reshape({0, -1}), "reshape()",
              "cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified "
              "dimension size -1 can be any value and is ambiguous");
}

TEST_CASE("unflatten into sizes of the wrong product") {
  // torch: "unflatten: Provided sizes [3, 2] don't multiply up to the size of dim 2 (4) in the
  // input tensor"
  CHECK_ERROR(t3_shapes().unflatten(2, {3, 2}),
              "unflatten(): Provided sizes [3, 2] don't multiply up to the size of dim 2 (4) in "
              "the input tensor");
}

TEST_CASE("unflatten with two -1s") {
  CHECK_ERROR(t3_shapes().unflatten(2, {-1, -1}), "unflatten()", "only one dimension can be inferred");
}

TEST_CASE("unflatten into no sizes") {
  CHECK_ERROR(t3_shapes().unflatten(2, {}), "unflatten(): sizes must be non-empty");
}

TEST_CASE("view_as a tensor of another element count") {
  CHECK_ERROR(t3_shapes().view_as(arange(5)), "view()", "shape '[5]' is invalid for input of size 24");
}

// ---- expand and broadcasting ----------------------------------------------------------------------

TEST_CASE("expand of a dim that is not 1") {
  // torch: "The expanded size of the tensor (5) must match the existing size (4) at non-singleton
  // dimension 2.  Target sizes: [2, 3, 5].  Tensor sizes: [2, 3, 4]"
  CHECK_ERROR(t3_shapes().expand({2, 3, 5}),
              "expand: The expanded size of the tensor (5) must match the existing size (4) at "
              "non-singleton dimension 2.  Target sizes: [2, 3, 5].  Tensor sizes: [2, 3, 4]");
}

TEST_CASE("expand to fewer dims") {
  // torch: "... the number of sizes provided (2) must be greater or equal to the number of
  // dimensions in the tensor (3)"
  CHECK_ERROR(t3_shapes().expand({3, 4}), "expand",
              "the number of sizes provided (2) must be greater or equal to the number of "
              "dimensions in the tensor (3)");
}

TEST_CASE("expand with -1 in a new leading dim") {
  // torch: "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing
  // dimension 0"
  CHECK_ERROR(t3_shapes().expand({-1, 2, 3, 4}), "expand",
              "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
              "dimension 0");
}

TEST_CASE("expand_as a shape that does not broadcast") {
  CHECK_ERROR(arange(3).expand_as(empty({2, 4})), "expand", "expanded size of the tensor (4)",
              "existing size (3)");
}

TEST_CASE("broadcast_shapes of mismatched shapes") {
  // torch.broadcast_shapes: "Shape mismatch: objects cannot be broadcast to a single shape"; the
  // binary ops say which sizes clash, as here.
  CHECK_ERROR(broadcast_shapes(Shape{2, 3}, Shape{4, 3}), "broadcast_shapes",
              "The size of tensor a (2) must match the size of tensor b (4) at non-singleton "
              "dimension 0",
              "[2, 3]", "[4, 3]");
}

TEST_CASE("add of tensors that do not broadcast") {
  // torch: "The size of tensor a (3) must match the size of tensor b (4) at non-singleton
  // dimension 1"
  CHECK_ERROR(add(ones({2, 3}), ones({4})), "add",
              "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
              "dimension 1");
}

TEST_CASE("copy_ from a source that does not broadcast to the destination") {
  // torch: "output with shape [3] doesn't match the broadcast shape [2, 3]"
  Tensor dst = zeros({3});
  CHECK_ERROR(dst.copy_(ones({2, 3})), "copy_()",
              "output with shape [3] doesn't match the broadcast shape [2, 3]");
}

TEST_CASE("an in-place add whose operand would broadcast the destination") {
  // torch: "output with shape [3] doesn't match the broadcast shape [2, 3]"
  CHECK_ERROR(add_(ones({3}), ones({2, 3})), "add: ",
              "output with shape [3] doesn't match the broadcast shape [2, 3]");
}
