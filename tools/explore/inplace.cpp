#include "inplace.h"

#include <set>

#include "strided/engine/ops.h"

namespace strided::explore {

namespace {

// The cost of a write into self: an element-wise op into self's shape, its operands converted to
// self's dtype (budget.h). Nothing stays allocated after it, but the conversions are made.
void charge_write(const char* op, const Tensor& self, const std::vector<Tensor>& inputs,
                  Meter& m) {
  m.charge(op, "a write into " + to_string(self.layout()),
           elementwise_cost(self.sizes(), self.dtype(), inputs));
}

// Runs f, the library's in-place op; its refusal is rethrown in PyTorch's words.
template <class F>
const Tensor& written(const Tensor& self, F&& f) {
  try {
    f();
  } catch (const Error& e) {
    throw Error("", torch_words(e));
  }
  return self;
}

}  // namespace

Tensor value_tensor(const Tensor& self, const Operand& v, Meter& m) {
  if (!v.number) return v.tensor;
  m.charge("setitem", "the value as a 0-d " + std::string(name(self.dtype())) + " tensor",
           new_tensor_cost(1, 0, self.dtype(), 1));
  return full({}, *v.number, {self.dtype()});
}

bool is_inplace(const std::string& name) {
  static const std::set<std::string> kNames = {"add_", "mul_", "fill_", "copy_", "zero_",
                                               "index_put_"};
  return kNames.count(name) != 0;
}

std::string torch_words(const Error& e) {
  // copy_'s own wrapping of a shape that does not broadcast: PyTorch says the broadcast's words.
  const Error& refusal = e.cause() ? *e.cause() : e;
  std::string s = refusal.message();  // the op ("add", "copy_()", "expand") is a field apart
  // The library's own details of the operands, which PyTorch's words do not have.
  for (const char* detail : {" (written-to tensor ", " (destination ", " (shapes "}) {
    const size_t at = s.find(detail);
    if (at != std::string::npos && s.back() == ')') s.erase(at);
  }
  return s;
}

const Tensor& bounded_add_(const Tensor& self, const Operand& other, const Scalar& alpha,
                           Meter& m) {
  charge_write("add_", self, other.number ? std::vector<Tensor>{} : std::vector{other.tensor}, m);
  return written(self, [&] {
    if (other.number)
      strided::add_(self, *other.number, alpha);
    else
      strided::add_(self, other.tensor, alpha);
  });
}

const Tensor& bounded_mul_(const Tensor& self, const Operand& other, Meter& m) {
  charge_write("mul_", self, other.number ? std::vector<Tensor>{} : std::vector{other.tensor}, m);
  return written(self, [&] {
    if (other.number)
      strided::mul_(self, *other.number);
    else
      strided::mul_(self, other.tensor);
  });
}

const Tensor& bounded_fill_(const Tensor& self, const Scalar& value, Meter& m) {
  charge_write("fill_", self, {}, m);
  return written(self, [&] {
    Tensor handle = self;  // the same elements: Tensor::fill_ is a member of a non-const tensor
    handle.fill_(value);
  });
}

const Tensor& bounded_zero_(const Tensor& self, Meter& m) {
  // aten/src/ATen/native/TensorFactories.cpp, zero_: fill_(0), so an expanded tensor is zeroed too.
  return bounded_fill_(self, Scalar(int64_t{0}), m);
}

const Tensor& bounded_copy_(const Tensor& self, const Tensor& src, Meter& m) {
  // copy_ reads a source that may overlap the destination through a temporary (copies.cpp).
  charge_write("copy_", self, {src}, m);
  m.charge("copy_", "the source read first, " + to_string(src.layout()),
           copy_cost(src, src.dtype()));
  return written(self, [&] {
    Tensor handle = self;
    handle.copy_(src);
  });
}

const Tensor& bounded_index_put_(const Tensor& self,
                                 const std::vector<std::vector<int64_t>>& indices,
                                 const Tensor& values, bool accumulate, Meter& m) {
  Checked n = 0;
  for (const auto& l : indices) n += static_cast<int64_t>(l.size());
  m.charge("index_put_", "a write into " + to_string(self.layout()),
           Cost{values.numel(), values.numel(),
                saturated(n + Checked(values.numel()) * 2 + self.dim() * self.dim()), 0});
  return written(self, [&] {
    Tensor handle = self;
    handle.index_put_(indices, values, accumulate);
  });
}

const Tensor& bounded_set_item(const Tensor& self, const std::vector<indexing::TensorIndex>& index,
                               const Operand& value, Meter& m) {
  bool lists = false, basic = false;
  for (const indexing::TensorIndex& i : index)
    (std::holds_alternative<std::vector<int64_t>>(i) ? lists : basic) = true;
  if (lists) {
    // dispatch_index_put_: the lists index dims 0, 1, ... of self.
    if (basic)
      throw Error("",
                  "x[...] = value with lists of integers takes lists alone here (x[[0, 2]] = v, "
                  "x[[0, 1], [2, 0]] = v): write x.index_put_ for the others");
    std::vector<std::vector<int64_t>> indices;
    for (const indexing::TensorIndex& i : index)
      indices.push_back(std::get<std::vector<int64_t>>(i));
    return bounded_index_put_(self, indices, value_tensor(self, value, m), false, m);
  }
  m.charge("setitem", "a view of " + to_string(self.layout()), view_cost(self));
  Tensor dst;
  try {
    dst = self.index(index);
  } catch (const Error& e) {
    throw Error("", torch_words(e));
  }
  Tensor src = value_tensor(self, value, m);
  // at::indexing::copy_to (TensorIndexing.h): the value's leading 1s dropped (slicePrefix1sSize),
  // then expanded to the view's shape (expand_inplace, with expand's refusal), then copy_. A
  // Python number takes the same road in PyTorch 2.6, whose copy_ refuses a view with a stride-0
  // dim (x.expand(4, 3)[:, 0] = 5); PyTorch 1.13 filled it.
  if (src.sizes() != dst.sizes() && src.dim() > 0) {
    Shape sizes = src.sizes();
    size_t ones = 0;
    while (ones < sizes.size() && sizes[ones] == 1) ++ones;
    try {
      src = src.view(Shape(sizes.begin() + static_cast<std::ptrdiff_t>(ones), sizes.end()))
                .expand(dst.sizes());
    } catch (const Error& e) {
      throw Error("", torch_words(e));
    }
  }
  bounded_copy_(dst, src, m);
  return self;
}

}  // namespace strided::explore
