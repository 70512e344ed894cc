// Chapter 1, section "Exercises": each answer the page hides is a claim, computed with the library
// and compared with PyTorch's recorded answer (EX-01.k). Declared last, after every section.
#include <cstddef>
#include <cstdint>
#include <string>

#include "01_memory_topology/memory_topology.h"
#include "book/book.h"
#include "strided/strided.h"

using namespace strided;
using indexing::None;
using indexing::Slice;
using memory_topology::pytorch;

void memory_topology::exercises(book::Chapter& ch) {
  ch.section("exercises", "Exercises");

  ch.claim("EX-01.1",
           "In x = arange(24).view(2, 3, 4), with strides (12, 4, 1), the element x[1, 2, 3] "
           "lives at storage offset 1·12 + 2·4 + 3·1 = 23.",
           [](book::Check& c) {
             Tensor x = arange(24).view({2, 3, 4});
             Tensor e = x.index({1, 2, 3});
             int64_t by_hand = 0;
             const Shape idx{1, 2, 3};
             for (size_t k = 0; k < idx.size(); ++k) by_hand += idx[k] * x.strides()[k];
             c.equal("strides of x", x.strides(), Shape{12, 4, 1}, "ex1_strides");
             c.equal("storage offset of x[1, 2, 3]", e.storage_offset(), int64_t{23}, "ex1_offset");
             c.equal("the sum by hand", by_hand, e.storage_offset());
             c.equal("the value there (arange: value = offset)", e.item().to_int(), by_hand);
             pytorch().compare(c, "ex1", "x[1, 2, 3]", e, {&x});
           });

  ch.claim("EX-01.2",
           "x.permute(1, 2, 0) of x = arange(24).view(2, 3, 4) has sizes (3, 4, 2) and strides "
           "(4, 1, 12), x's strides reordered; it is not contiguous.",
           [](book::Check& c) {
             Tensor x = arange(24).view({2, 3, 4});
             Tensor p = x.permute({1, 2, 0});
             c.equal("sizes", p.sizes(), Shape{3, 4, 2}, "ex2_sizes");
             c.equal("strides", p.strides(), Shape{4, 1, 12}, "ex2_strides");
             c.equal("contiguous", p.is_contiguous(), false, "ex2_contiguous");
             c.equal("shares x's storage", p.storage().is_same(x.storage()), true);
             pytorch().compare(c, "ex2", "x.permute(1, 2, 0)", p, {&x});
           });

  ch.claim("EX-01.3",
           "A 3×4 float64 array has NumPy strides (32, 8) in bytes: PyTorch's element strides "
           "(4, 1) times the item size, 8 bytes.",
           [](book::Check& c) {
             Tensor t = zeros({3, 4}, {DType::Float64});
             Shape bytes;
             for (int64_t s : t.strides()) bytes.push_back(s * t.element_size());
             c.equal("element strides", t.strides(), Shape{4, 1}, "ex3_strides");
             c.equal("item size", t.element_size(), int64_t{8}, "ex3_itemsize");
             c.equal("byte strides", bytes, Shape{32, 8}, "ex3_bytes");
             pytorch().compare(c, "ex3", "torch.zeros(3, 4, dtype=torch.float64)", t);
             pytorch().compare_value(c, "ex3", "np.zeros((3, 4)).strides", bytes);
             pytorch().compare_value(c, "ex3",
                                     "torch.zeros(3, 4, dtype=torch.float64).numpy().strides", bytes);
           });

  ch.claim("EX-01.4",
           "y = arange(24).view(4, 6)[1:3, ::2] has storage offset 6 and strides (6, 2); its "
           "data_ptr is 6·8 = 48 bytes past the storage's base.",
           [](book::Check& c) {
             Tensor x = arange(24).view({4, 6});
             Tensor y = x.index({Slice(1, 3), Slice(None, None, 2)});
             const auto past = static_cast<const std::byte*>(y.data_ptr()) -
                               static_cast<const std::byte*>(y.storage().data());
             c.equal("storage offset", y.storage_offset(), int64_t{6}, "ex4_offset");
             c.equal("strides", y.strides(), Shape{6, 2}, "ex4_strides");
             c.equal("bytes past the base", static_cast<int64_t>(past), int64_t{48}, "ex4_bytes");
             c.equal("offset × item size", y.storage_offset() * y.element_size(),
                     static_cast<int64_t>(past));
             pytorch().compare(c, "ex4", "x[1:3, ::2]", y, {&x});
             pytorch().compare_value(c, "ex4", "y.data_ptr() - storage_of(y).data_ptr()",
                                     static_cast<int64_t>(past));
           });
}
