#include "budget.h"

#include <algorithm>
#include <climits>
#include <set>

namespace strided::explore {

int64_t saturated(Checked c) { return c.overflowed() ? INT64_MAX : c.value(); }

namespace {

// "16777216 (2^24)", "50331648 (3 x 2^24)": a budget and its factors.
std::string factored(int64_t v) {
  int bits = 0;
  while (v > 1 && v % (int64_t{2} << bits) == 0) ++bits;
  const int64_t odd = v >> bits;
  return std::to_string(v) + " (" + (odd == 1 ? "" : std::to_string(odd) + " x ") + "2^" +
         std::to_string(bits) + ")";
}

}  // namespace

int64_t element_work(DType from, DType to) {
  auto half = [](DType d) { return d == DType::Float16 || d == DType::BFloat16; };
  return half(from) || half(to) ? kHalfElement : 1;
}

Cost view_cost(const Tensor& t) { return {0, 0, std::max<int64_t>(1, t.dim())}; }

Cost copy_cost(const Tensor& t, DType to) {
  const int64_t n = t.numel();
  return {n, n,
          saturated(Checked(n) * element_work(t.dtype(), to) + Checked(t.dim()) * t.dim()),
          saturated(Checked(n) * itemsize(to))};
}

Cost new_tensor_cost(int64_t elements, int64_t dims, DType dtype, int64_t per_element) {
  return {elements, elements, saturated(Checked(elements) * per_element + dims),
          saturated(Checked(elements) * itemsize(dtype))};
}

Cost elementwise_cost(IntList shape, DType common, const std::vector<Tensor>& inputs) {
  // A shape past int64 is refused by the op itself, in its own words; here it costs everything.
  Checked n = 1;
  for (int64_t s : shape) n *= std::max<int64_t>(s, 0);
  const int64_t dims = static_cast<int64_t>(shape.size());
  Checked held = n, work = n * element_work(common, common) + Checked(dims) * dims;
  Checked bytes = n * itemsize(common) + 16;  // two 0-d tensors: the number, and it converted
  int64_t largest = saturated(n);
  for (const Tensor& t : inputs) {
    if (t.dtype() == common) continue;
    const int64_t m = t.numel();
    held += m;
    bytes += Checked(m) * itemsize(common);
    work += Checked(m) * element_work(t.dtype(), common);
    largest = std::max(largest, m);
  }
  return {largest, saturated(held), saturated(work), saturated(bytes)};
}

Cost matmul_cost(const MatmulCost& m, DType dtype) {
  // Every element allocated is written at least once, and the copies and conversions once more.
  const int64_t per = m.blas ? kBlasMultiplyAdds : kLoopMultiplyAdds;
  const Checked work = (Checked(m.allocated) + m.written) * element_work(dtype, dtype) +
                       m.multiply_adds / per + (m.multiply_adds % per != 0) +
                       (Checked(m.products) + m.allocations) * kSetup;
  return {m.largest, m.peak, saturated(work), m.allocated_bytes};
}

void Meter::charge(const std::string& op, const std::string& what, const Cost& cost) {
  STRIDED_CHECK(cost.largest <= kTensorBudget, op, what, " needs ", cost.largest,
                " elements; strided-explore allocates at most ", factored(kTensorBudget),
                " per tensor");
  const Checked held = Checked(held_) + cost.allocated;
  STRIDED_CHECK(!held.overflowed() && held.value() <= kMemoryBudget, op, what, " needs ",
                cost.allocated, " elements while the request holds ", held_,
                "; strided-explore holds at most ", factored(kMemoryBudget),
                " elements at once per request (its memory budget)");
  const Checked work = Checked(work_) + cost.work;
  STRIDED_CHECK(!work.overflowed() && work.value() <= kWorkBudget, op, what, " costs ", cost.work,
                " element operations after the ", work_,
                " this request has spent; strided-explore's work budget is ", factored(kWorkBudget),
                " element operations per request");
  work_ = work.value();
  bytes_ = saturated(Checked(bytes_) + cost.bytes);
}

void Meter::hold(const std::vector<Tensor>& tensors) {
  std::set<const void*> seen;
  Checked total = 0;
  for (const Tensor& t : tensors) {
    if (!t.defined() || !seen.insert(t.storage().data()).second) continue;
    total += t.storage().nbytes() / t.element_size();
  }
  held_ = saturated(total);
}

bool Meter::take(int64_t numbers) {
  if (numbers > print_left()) return false;
  printed_ += numbers;
  return true;
}

void Meter::spend(int64_t numbers, const std::string& what) {
  STRIDED_CHECK(take(numbers), "", what, " writes ", numbers, " numbers and the request has ",
                print_left(), " left; strided-explore's print budget is ", factored(kPrintBudget),
                " numbers per request");
}

int64_t layout_numbers(const Tensor& t) { return saturated(Checked(t.dim()) * 2 + 4); }

std::string budgets_help() {
  const std::string blas = std::to_string(kBlasMultiplyAdds);
  const std::string loop = std::to_string(kLoopMultiplyAdds);
  return "Budgets: each request (an expression, or one --jsonl line) is charged before each op\n"
         "runs, and the op is refused, with a message naming the budget, when it would pass one:\n"
         "  tensor  " + factored(kTensorBudget) +
         " elements in any one tensor an op allocates (views allocate\n"
         "          nothing and may be larger)\n"
         "  memory  " + factored(kMemoryBudget) +
         " elements held at once: every step of an expression, or a\n"
         "          chain's start and last step, with what the op allocates\n"
         "  work    " + factored(kWorkBudget) +
         " element operations in all: each element a factory fills or\n"
         "          an op copies or computes (" + std::to_string(kHalfElement) +
         " for float16 and bfloat16); d for an op on a\n"
         "          tensor of d dims, d^2 for a copy's plan; 1 for each " + blas +
         " multiply-adds in BLAS\n"
         "          (float dtypes) or " + loop + " in the integer loop; " + std::to_string(kSetup) +
         " for each tensor matmul\n"
         "          allocates and each 2-D product it runs (one per batch)\n"
         "  print   " + factored(kPrintBudget) +
         " numbers written out: the values PyTorch's print shows (all up to\n"
         "          1000 elements, else the first and last 3 along each dim longer than 6), the\n"
         "          cells of each picture, each step's sizes and strides; past it a step's values\n"
         "          are not printed (in --jsonl, the op is refused)\n";
}

}  // namespace strided::explore
