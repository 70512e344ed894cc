// What one request may cost strided-explore, and the meter that charges it. A request is an
// expression, or one --jsonl line. Inputs are untrusted, so every op is charged before it runs,
// from its operands' layouts alone, for
//   - the largest tensor it allocates (the tensor budget),
//   - the elements the request then holds at once: what it keeps alive (every step of an
//     expression, the start and previous step of a chain) plus what the op allocates (the memory
//     budget),
//   - its element operations, added up over the request (the work budget),
// and each answer is charged for the numbers it writes out (the print budget). An op that would
// pass a budget is refused with a strided::Error naming the op and the budget; nothing of it runs.
// The budgets keep a request within seconds and a few hundred megabytes, under the sanitizers too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "strided/engine/matmul.h"
#include "strided/tensor/tensor.h"

namespace strided::explore {

inline constexpr int64_t kTensorBudget = int64_t{1} << 24;  // elements of one tensor
inline constexpr int64_t kMemoryBudget = 3 * kTensorBudget;  // elements held at once
inline constexpr int64_t kWorkBudget = int64_t{1} << 26;    // element operations
inline constexpr int64_t kPrintBudget = int64_t{1} << 16;   // numbers written out

// The unit of work is one element written or read once, of any dtype but the 16-bit floating
// ones, whose conversions cost kHalfElement (float16 and bfloat16 are converted element by
// element, in software). The rest is weighed in that unit, by what each costs on this machine's
// slowest build (Debug with the sanitizers): kBlasMultiplyAdds multiply-adds in BLAS,
// kLoopMultiplyAdds in the plain integer loop, kSetup for each tensor a matmul allocates and each
// 2-D product it runs (a batched matmul runs one per batch), and an op on a tensor of d dims d
// (its sizes and strides) or, for a copy, d^2 (its plan orders the dims by an insertion sort).
inline constexpr int64_t kHalfElement = 4;
inline constexpr int64_t kBlasMultiplyAdds = 128;
inline constexpr int64_t kLoopMultiplyAdds = 2;
inline constexpr int64_t kSetup = 1024;

// What an op costs; every field saturates at INT64_MAX.
struct Cost {
  int64_t largest = 0;    // elements of the largest tensor it allocates
  int64_t allocated = 0;  // elements it allocates and holds at once while it runs
  int64_t work = 0;       // element operations
  int64_t bytes = 0;      // bytes it allocates in all, at most (what Storage will count)
};

// A checked count, or INT64_MAX once it overflowed: a cost past int64 costs everything.
int64_t saturated(Checked c);

// The work of one element read as `from` and written as `to`.
int64_t element_work(DType from, DType to);

Cost view_cost(const Tensor& t);            // a view op on t: no allocation
Cost copy_cost(const Tensor& t, DType to);  // t's elements copied into a new tensor
// A factory's tensor of elements of dtype, each written once at per_element.
Cost new_tensor_cost(int64_t elements, int64_t dims, DType dtype, int64_t per_element);
// An element-wise op computed in the common dtype into a result of shape: the result, and a copy
// of each input of another dtype (PyTorch's TensorIterator converts those first, with
// .to(common)), and a number wrapped in a 0-d tensor (x + 1's 1).
Cost elementwise_cost(IntList shape, DType common, const std::vector<Tensor>& inputs);
Cost matmul_cost(const MatmulCost& m, DType dtype);  // strided::matmul_cost, weighed

class Meter {
 public:
  // Charges op (named as the request names it) before it runs; what says what it makes ("the
  // copy of (2,3):(1,2)"). Throws strided::Error naming the first budget it would pass.
  void charge(const std::string& op, const std::string& what, const Cost& cost);
  // The tensors the request keeps alive from now on (replacing the previous set); a storage
  // several of them share counts once.
  void hold(const std::vector<Tensor>& tensors);
  // The print budget: take charges numbers against it and says whether they fitted (nothing is
  // charged when they do not); spend charges them or throws an Error naming what.
  bool take(int64_t numbers);
  void spend(int64_t numbers, const std::string& what);

  int64_t held() const { return held_; }
  // The bytes the charged ops may allocate, added up: Storage::allocated_bytes() grows by no more
  // over the request (the tests and the fuzzers check it).
  int64_t charged_bytes() const { return bytes_; }
  int64_t work_spent() const { return work_; }
  int64_t print_left() const { return kPrintBudget - printed_; }

 private:
  int64_t held_ = 0;
  int64_t work_ = 0;
  int64_t bytes_ = 0;
  int64_t printed_ = 0;
};

// The numbers an answer writes for a tensor's layout: its sizes and strides (and the few single
// numbers beside them).
int64_t layout_numbers(const Tensor& t);

// The budgets as --help states them.
std::string budgets_help();

}  // namespace strided::explore
