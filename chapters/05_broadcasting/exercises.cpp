// Chapter 5, NumPy beside PyTorch (BC-02.numpy: np.broadcast_to is read-only, expand is writable
// one cell at a time) and the exercises at the end of the page (EX-05.1 … EX-05.5). Each answer is
// computed with the library and compared with PyTorch's recorded one.
#include <cstdint>
#include <string>
#include <vector>

#include "05_broadcasting/broadcasting.h"
#include "book/book.h"
#include "strided/engine/ops.h"
#include "strided/strided.h"

using namespace strided;

namespace broadcasting {

void numpy(book::Chapter& ch) {
  ch.claim("BC-02.numpy",
           "NumPy's np.broadcast_to(a, (2, 3)) of a = arange(3) has byte strides (0, 8), which are "
           "the element strides (0, 1) of PyTorch's t.expand(2, 3) times the 8 bytes of an int64, "
           "and it is read-only: NumPy refuses any write. PyTorch's expand is writable: "
           "e[0, 2] = 9 writes one cell, so t[2] is 9; only an in-place op that would write a "
           "cell twice, such as add_, is refused.",
           [](book::Check& c) {
             //! [numpy_broadcast]
             // The library has no NumPy arrays; its expand is PyTorch's.
             Tensor t = arange(3);
             Tensor e = t.expand({2, 3});  // strides (0, 1), in elements
             e.set({0, 2}, 9.0);           // allowed: one cell, so t[2] is 9 now
             // add_(e, 1) is refused: it would write each cell of t twice
             //! [numpy_broadcast]
             Shape bytes;
             for (int64_t s : e.strides()) bytes.push_back(s * e.element_size());
             c.equal("e.stride()", e.strides(), Shape{0, 1}, "np_elem_strides");
             c.equal("e's strides in bytes", bytes, Shape{0, 8}, "np_byte_strides");
             c.equal("bytes of an int64", e.element_size(), int64_t{8});
             pytorch().compare_value(c, "numpy_broadcast", "nb.strides", bytes);
             pytorch().compare_value(c, "numpy_broadcast",
                                     "[s * e.element_size() for s in e.stride()]", bytes);
             // NumPy's broadcast is read-only; the library's (and PyTorch's) expand is not.
             pytorch().compare_value(c, "numpy_broadcast", "nb.flags.writeable", false);
             const std::string refused = pytorch().error_message("numpy_broadcast", "np_write(nb)");
             c.that("NumPy refuses a write to its broadcast: read-only",
                    refused.find("read-only") != std::string::npos, refused);
             pytorch().versions(c, "numpy_broadcast", "np_write(nb)");
             c.value("np_readonly_error", refused);
             c.equal("t after e[0, 2] = 9", t.to_vector(), std::vector<double>{0, 1, 9});
             pytorch().compare(c, "numpy_broadcast", "t after e[0, 2] = 9", t);
             pytorch().compare_error(c, "numpy_broadcast", "e.add_(1)",
                                     [&] { add_(e, Scalar(int64_t{1})); });
           });
}

void exercises(book::Chapter& ch) {
  ch.section("exercises", "Exercises");

  ch.claim("EX-05.1",
           "torch.zeros(4, 1, 3) + torch.zeros(2, 1) has shape (4, 2, 3): the (2, 1) operand lines "
           "up from the right as (1, 2, 1), and each size 1 gives way to the other operand's size.",
           [](book::Check& c) {
             Tensor sum = zeros({4, 1, 3}) + zeros({2, 1});
             c.equal("shape of the sum", sum.sizes(), Shape{4, 2, 3}, "ex1_shape");
             c.equal("broadcast_shapes((4, 1, 3), (2, 1))", broadcast_shapes({4, 1, 3}, {2, 1}),
                     Shape{4, 2, 3});
             pytorch().compare(c, "exercises", "torch.zeros(4, 1, 3) + torch.zeros(2, 1)", sum);
           });

  ch.claim("EX-05.2",
           "x.view(4, 1).expand(2, 4, 5) of x = arange(4.) has strides (0, 1, 0): the new leading "
           "dim and the grown size-1 dim get 0, the kept dim keeps its stride 1.",
           [](book::Check& c) {
             Tensor x = arange(4, {DType::Float32});
             Tensor e = x.view({4, 1}).expand({2, 4, 5});
             c.equal("strides", e.strides(), Shape{0, 1, 0}, "ex2_strides");
             pytorch().compare(c, "exercises", "x4.view(4, 1).expand(2, 4, 5)", e, {&x});
           });

  ch.claim("EX-05.3",
           "a += torch.arange(3.) on a = torch.ones(2, 3) runs and gives [[1, 2, 3], [1, 2, 3]]; "
           "b += torch.ones(2, 3) on b = torch.arange(3.) is refused and leaves b as it was: an "
           "in-place op keeps its destination's shape, and only the other operand broadcasts.",
           [](book::Check& c) {
             Tensor a = ones({2, 3});
             add_(a, arange(3, {DType::Float32}));
             c.equal("a", a.to_vector(), std::vector<double>{1, 2, 3, 1, 2, 3});
             pytorch().compare(c, "exercises", "a5", a);
             c.value("ex3_a", book::nested_list(a));
             Tensor b = arange(3, {DType::Float32});
             pytorch().compare_error(c, "exercises", "b5.__iadd__(torch.ones(2, 3))",
                                     [&] { add_(b, ones({2, 3})); });
             pytorch().compare(c, "exercises", "b5 after the refusal", b);
             c.value("ex3_error",
                     pytorch().error_message("exercises", "b5.__iadd__(torch.ones(2, 3))"));
           });

  ch.claim("EX-05.4",
           "x.expand(1000, 3) of x = arange(3.) allocates nothing and reads x's 12 bytes; its "
           "contiguous() allocates one buffer of 1000·3·4 = 12000 bytes.",
           [](book::Check& c) {
             Tensor x = arange(3, {DType::Float32});
             Tensor e, dense;
             const int64_t e_made = book::allocations_during([&] { e = x.expand({1000, 3}); });
             const int64_t dense_made = book::allocations_during([&] { dense = e.contiguous(); });
             c.equal("allocations by expand", e_made, int64_t{0});
             c.equal("e shares x's storage", e.storage().is_same(x.storage()), true);
             c.equal("x's bytes", x.storage().nbytes(), int64_t{12}, "ex4_x_bytes");
             c.equal("allocations by contiguous()", dense_made, int64_t{1});
             c.equal("bytes of the copy", dense.storage().nbytes(), int64_t{12000},
                     "ex4_dense_bytes");
             pytorch().compare(c, "exercises", "e6", e, {&x});
             pytorch().compare(c, "exercises", "e6.contiguous()", dense, {&x});
             pytorch().compare_value(c, "exercises", "storage_of(e6.contiguous()).nbytes()",
                                     dense.storage().nbytes());
           });

  ch.claim("EX-05.5",
           "torch.zeros(2, 3).expand(2, 2, 3) is allowed, with strides (0, 3, 1); "
           "torch.zeros(2, 3).expand(3, 3) is refused, because only a size-1 dim can grow and "
           "dim 0 has size 2.",
           [](book::Check& c) {
             Tensor z = zeros({2, 3});
             Tensor ok = z.expand({2, 2, 3});
             c.equal("strides", ok.strides(), Shape{0, 3, 1}, "ex5_strides");
             pytorch().compare(c, "exercises", "torch.zeros(2, 3).expand(2, 2, 3)", ok);
             pytorch().compare_error(c, "exercises", "torch.zeros(2, 3).expand(3, 3)",
                                     [&] { (void)z.expand({3, 3}); });
             c.value("ex5_error",
                     pytorch().error_message("exercises", "torch.zeros(2, 3).expand(3, 3)"));
           });
}

}  // namespace broadcasting
