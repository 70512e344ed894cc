// Chapter 8, NumPy beside PyTorch (AG-01.numpy: .numpy() refuses a tensor that requires grad;
// .detach().numpy() shares its memory, and a write through it counts no version) and the exercises
// at the end of the page (EX-08.1 … EX-08.5). Each answer is computed with the library's autograd
// and compared with PyTorch's recorded one.
#include <cstdint>
#include <string>
#include <vector>

#include "08_gradients/gradients.h"
#include "book/book.h"
#include "strided/autograd/autograd.h"
#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"
#include "strided/strided.h"

using namespace strided;
using namespace strided::autograd;

namespace gradients_chapter {

void numpy(book::Chapter& ch) {
  ch.claim("AG-01.numpy",
           "w.numpy() is refused while w requires grad, in PyTorch's words; w.detach().numpy() "
           "shares w's memory, so a[0] = 5 through it makes w[0] 5. That write is not an op on a "
           "tensor, so w's version counter stays at 0, and autograd cannot see it.",
           [](book::Check& c) {
             //! [numpy_grad]
             // The library has no NumPy arrays; detach() gives what .numpy() would wrap.
             Variable w = leaf({1, 1, 1}, {3});  // torch.ones(3, requires_grad=True)
             Tensor a = w.detach().tensor();  // w's memory, no copy
             a.set({0}, 5.0);                 // w[0] is 5 now, yet w.version() is still 0
             //! [numpy_grad]
             c.equal("a shares w's storage", a.storage().is_same(w.tensor().storage()), true);
             pytorch().compare_value(c, "numpy_grad",
                                     "a.__array_interface__['data'][0] == w.data_ptr()",
                                     a.storage().is_same(w.tensor().storage()) &&
                                         a.storage_offset() == w.tensor().storage_offset());
             c.equal("w after a[0] = 5", values(w.tensor()), std::vector<double>{5, 1, 1});
             pytorch().compare(c, "numpy_grad", "w after a[0] = 5", w.tensor());
             c.equal("w's version", w.version(), int64_t{0}, "np_version");
             pytorch().compare_value(c, "numpy_grad", "w._version", w.version());
             c.value("np_error", pytorch().error_message("numpy_grad", "w.numpy()"));
             pytorch().versions(c, "numpy_grad", "w.numpy()");
           });
}

void exercises(book::Chapter& ch) {
  ch.section("exercises", "Exercises");

  ch.claim("EX-08.1",
           "For x = [[1., 2.]] and x.expand(3, 2).sum().backward(), x.grad is [[3., 3.]]: the "
           "expand has stride 0 on dim 0, so each element of x is read 3 times and its gradients "
           "add.",
           [](book::Check& c) {
             Variable x = leaf({1, 2}, {1, 2});
             Variable y = x.expand({3, 2});
             sum(y).backward();
             c.equal("y's stride on dim 0", y.tensor().stride(0), int64_t{0});
             c.equal("x.grad", values(x.grad()), std::vector<double>{3, 3});
             c.equal("x.grad's shape", x.grad().sizes(), Shape{1, 2});
             pytorch().compare(c, "exercises", "x1.grad", x.grad());
             c.value("ex1_grad", book::nested_list(x.grad()));
           });

  ch.claim("EX-08.2",
           "For x = zeros(6) and x[1::2].backward([1., 2., 3.]), x.grad is [0, 1, 0, 2, 0, 3]: the "
           "slice's gradient lands at offset 1 with stride 2, and zeros fill the rest.",
           [](book::Check& c) {
             Variable x = leaf({0, 0, 0, 0, 0, 0}, {6});
             Variable y = x.slice(0, 1, std::nullopt, 2);
             y.backward(from_values({1, 2, 3}, {3}));
             c.equal("the slice's offset and stride",
                     std::vector<int64_t>{y.tensor().storage_offset(), y.tensor().stride(0)},
                     std::vector<int64_t>{1, 2});
             c.equal("x.grad", values(x.grad()), std::vector<double>{0, 1, 0, 2, 0, 3});
             pytorch().compare(c, "exercises", "x2.grad", x.grad());
             c.value("ex2_grad", values(x.grad()));
           });

  ch.claim("EX-08.3",
           "For x = zeros(4) and x.as_strided((3, 2), (1, 1)).sum().backward(), x.grad is "
           "[1, 2, 2, 1]: each element's gradient counts the windows that read it.",
           [](book::Check& c) {
             Variable x = leaf({0, 0, 0, 0}, {4});
             sum(x.as_strided({3, 2}, {1, 1})).backward();
             c.equal("x.grad", values(x.grad()), std::vector<double>{1, 2, 2, 1});
             pytorch().compare(c, "exercises", "x3.grad", x.grad());
             c.value("ex3_grad", values(x.grad()));
           });

  ch.claim("EX-08.4",
           "For a = ones(2) that requires grad, b = a.detach() and b.add_(1), a is [2, 2] and "
           "a._version is 1: detach() shares a's storage and its version counter.",
           [](book::Check& c) {
             Variable a = leaf({1, 1}, {2});
             Variable b = a.detach();
             add_(b, 1.0);
             c.equal("a", values(a.tensor()), std::vector<double>{2, 2});
             c.equal("a's version", a.version(), int64_t{1}, "ex4_version");
             pytorch().compare(c, "exercises", "a4 after b4.add_(1)", a.tensor());
             pytorch().compare_value(c, "exercises", "a4._version", a.version());
             c.value("ex4_a", values(a.tensor()));
           });

  ch.claim("EX-08.5",
           "With v = y[1:] and v += 1, backward fails for y = x.exp(), whose node saved y, now at "
           "version 1 where 0 was saved; for y = x * 2 it runs, since that node saved no tensor "
           "it needs, and x.grad is [2, 2, 2].",
           [](book::Check& c) {
             Variable x5 = leaf({1, 1, 1}, {3});
             Variable y5 = exp(x5);
             Variable v5 = y5.slice(0, 1);
             add_(v5, 1.0);
             c.equal("y's version after v += 1", y5.version(), int64_t{1}, "ex5_version");
             pytorch().compare_value(c, "exercises", "y5._version", y5.version());
             pytorch().compare_error(c, "exercises", "y5.sum().backward()",
                                     [&] { sum(y5).backward(); });
             Variable x6 = leaf({1, 1, 1}, {3});
             Variable y6 = x6 * 2.0;
             Variable v6 = y6.slice(0, 1);
             add_(v6, 1.0);
             sum(y6).backward();
             pytorch().compare_value(c, "exercises", "y6._version", y6.version());
             c.equal("x.grad", values(x6.grad()), std::vector<double>{2, 2, 2});
             pytorch().compare(c, "exercises", "x6.grad", x6.grad());
             c.value("ex5_grad", values(x6.grad()));
             // PyTorch's words up to its hint, which names a function (a sentence cannot quote it).
             const std::string refused = pytorch().error_message("exercises", "y5.sum().backward()");
             c.value("ex5_error", refused.substr(0, refused.find(" Hint:")));
           });
}

}  // namespace gradients_chapter
