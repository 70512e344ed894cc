// Running an expression: each step of the chain applied to the previous step's tensor, with what
// the step did to memory (a fresh tensor, the same tensor, a view, or a copy).
#pragma once

#include <string>
#include <vector>

#include "budget.h"
#include "expression.h"
#include "strided/tensor/tensor.h"

namespace strided::explore {

struct StepResult {
  enum class Relation {
    New,   // a factory's fresh storage
    Same,  // the very tensor of the previous step (contiguous() of a contiguous tensor)
    View,  // a view: the previous step's storage, other metadata
    Copy,  // a new storage holding a copy
    InPlace,  // the previous step's tensor, its elements written (add_, x[0] = 5, ...)
  };
  std::string text;  // the expression up to and including this step
  Span span;         // this step's own text
  Tensor tensor;
  Relation relation = Relation::New;
  // The values as they were after this step, when a later step wrote into its storage (undefined
  // otherwise): tensor shows them as they are at the end.
  Tensor before_write;
  // InPlace: the steps whose tensors share the written storage and so see the write, this
  // step's own input first (0-based indices into the results).
  std::vector<size_t> seen_by;
};

// Evaluates every step (an in-place step writes into the tensor of the step before it, whose
// value, and that of every step sharing its storage, is kept in before_write first), each charged to meter before it runs (budget.h); the request holds
// every step's tensor. A library error or a refusal by a budget becomes an ExploreError pointing
// at that step; a bad argument becomes one pointing at the argument.
std::vector<StepResult> evaluate(const Expression& e, Meter& meter);
std::vector<StepResult> evaluate(const Expression& e);  // with a meter of its own

// The names the language knows, for --help and for "did you mean" hints.
const std::vector<std::string>& factory_names();
const std::vector<std::string>& method_names();

}  // namespace strided::explore
