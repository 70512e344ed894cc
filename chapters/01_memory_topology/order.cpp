// Chapter 1, section "Row-major, column-major, and strides in bytes": the two orders of a matrix
// (MT-09), the row-major default (MT-10), item sizes and default dtypes (DT-01, DT-02), strides in
// bytes (MT-06) and the errata ER-22 and ER-23. The code between //! [name] markers is shown on the
// chapter's page.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "01_memory_topology/memory_topology.h"
#include "book/book.h"
#include "strided/pictures/picture.h"
#include "strided/strided.h"

using namespace strided;
using book::float32_list;
using memory_topology::pytorch;

namespace {

//! [byte_strides]
// NumPy's .strides: the same steps as PyTorch's stride(), counted in bytes.
Shape byte_strides(const Tensor& t) {
  Shape bytes;
  for (int64_t s : t.strides()) bytes.push_back(s * t.element_size());
  return bytes;
}
//! [byte_strides]

}  // namespace

void memory_topology::order(book::Chapter& ch) {
  // ---- Row-major, column-major, and bytes ----------------------------------------------------------
  ch.section("order", "Row-major, column-major, and strides in bytes");

  ch.claim("MT-09",
           "The 2×3 matrix [[0.2949, 0.9608, 0.0965], [0.5463, 0.4176, 0.8146]] is stored row by "
           "row in row-major order and column by column in column-major order; A[i][j] = "
           "row[i·ncols + j] = col[j·nrows + i], strides (3, 1) against (1, 2).",
           [](book::Check& c) {
             //! [row_col]
             const std::vector<double> a = {0.2949, 0.9608, 0.0965, 0.5463, 0.4176, 0.8146};
             Tensor A = from_values(a, {2, 3});        // row-major: strides (3, 1)
             Tensor col_buffer = A.t().contiguous();   // the same matrix, column by column
             Tensor A_col = col_buffer.t();            // read back as 2×3: strides (1, 2)
             //! [row_col]
             const auto* row = static_cast<const float*>(A.data_ptr());
             const auto* col = static_cast<const float*>(col_buffer.data_ptr());
             const int64_t nrows = 2, ncols = 3;
             int64_t agree = 0;
             for (int64_t i = 0; i < nrows; ++i)
               for (int64_t j = 0; j < ncols; ++j)
                 agree += row[i * ncols + j] == static_cast<float>(a[i * ncols + j]) &&
                          col[j * nrows + i] == row[i * ncols + j] &&
                          A_col.at({i, j}).to_double() == A.at({i, j}).to_double();
             c.equal("(i, j) where A, row and col agree", agree, nrows * ncols);
             c.equal("row-major strides", A.strides(), Shape{3, 1}, "rowmajor_strides");
             c.equal("column-major strides", A_col.strides(), Shape{1, 2}, "colmajor_strides");
             const std::vector<double> row_order(row, row + 6), col_order(col, col + 6);
             c.equal("row-major buffer", float32_list(row_order),
                     std::string("0.2949, 0.9608, 0.0965, 0.5463, 0.4176, 0.8146"),
                     "rowmajor_buffer");
             c.equal("column-major buffer", float32_list(col_order),
                     std::string("0.2949, 0.5463, 0.9608, 0.4176, 0.0965, 0.8146"),
                     "colmajor_buffer");
             pytorch().compare(c, "row_col", "A", A);
             pytorch().compare(c, "row_col", "col_buffer", col_buffer);
             pytorch().compare(c, "row_col", "A_col", A_col, {&col_buffer});
             pytorch().compare_value(c, "row_col", "dump_storage(A)", row_order);
             pytorch().compare_value(c, "row_col", "dump_storage(col_buffer)", col_order);
             c.figure("row_major", tensor_svg(A, "A (row-major)"), "Row-major: rows lie one after the other.");
             c.figure("col_major", tensor_svg(A_col, "A (column-major)"),
                      "Column-major: the same matrix, columns one after the other.");
           });

  ch.claim("MT-10",
           "PyTorch creates row-major tensors by default: a fresh r×c matrix has offset 0 and "
           "strides (c, 1).",
           [](book::Check& c) {
             //! [fresh]
             Tensor z = zeros({2, 3});
             Tensor e = empty({4, 5});
             Tensor r = arange(6).view({2, 3});
             //! [fresh]
             c.equal("zeros(2, 3) strides", z.strides(), Shape{3, 1}, "fresh_strides");
             c.equal("empty(4, 5) strides", e.strides(), Shape{5, 1}, "fresh_strides_45");
             c.equal("arange(6).view(2, 3) strides", r.strides(), Shape{3, 1});
             for (const Tensor* t : {&z, &e, &r}) c.equal("storage offset", t->storage_offset(), int64_t{0});
             pytorch().compare(c, "fresh", "z", z);
             pytorch().compare(c, "fresh", "e", e);  // empty: the layout, not the values
             pytorch().compare(c, "fresh", "r", r);
             c.value("fresh_offset", z.storage_offset());
             // CuTe writes a layout the same way, outermost dim first: its (4,2):(2,1) is the
             // row-major 4×2 layout, as the library's notation writes arange(8).view(4, 2).
             c.equal("arange(8).view(4, 2) in shape:stride notation",
                     layout_string(arange(8).view({4, 2}).sizes(), arange(8).view({4, 2}).strides()),
                     std::string("(4,2):(2,1)"), "cute_row_major");
           });

  ch.claim("DT-01", "Item sizes: float32 4 bytes, int32 4, int64 8, float16 2.",
           [](book::Check& c) {
             std::vector<std::vector<std::string>> rows;
             const std::initializer_list<std::pair<DType, int64_t>> sizes = {
                 {DType::Float32, 4}, {DType::Int32, 4}, {DType::Int64, 8}, {DType::Float16, 2}};
             for (auto [dtype, bytes] : sizes) {
               const std::string dt(name(dtype));
               c.equal("itemsize of " + dt, itemsize(dtype), bytes, "itemsize_" + dt);
               rows.push_back({std::string(name(dtype)), book::show(itemsize(dtype)),
                               book::show(8 * itemsize(dtype))});
               pytorch().compare_value(
                   c, "itemsizes",
                   "torch.empty(0, dtype=torch." + std::string(name(dtype)) + ").element_size()",
                   itemsize(dtype));
             }
             c.table("itemsizes", {"dtype", "bytes", "bits"}, rows);
           });

  ch.claim("MT-06",
           "A stride counts elements (PyTorch's stride()) or bytes (NumPy's .strides): bytes = "
           "elements × itemsize, so a 2×3 int32 matrix has strides (3, 1) and byte strides (12, 4).",
           [](book::Check& c) {
             Tensor i32 = zeros({2, 3}, {DType::Int32});
             Tensor f32 = zeros({2, 3});
             Tensor i64 = zeros({2, 3}, {DType::Int64});
             Tensor v32 = zeros({6}, {DType::Int32});
             c.equal("int32 2×3 strides", i32.strides(), Shape{3, 1}, "strides_i32");
             c.equal("int32 2×3 byte strides", byte_strides(i32), Shape{12, 4}, "bytestrides_i32");
             c.equal("float32 2×3 byte strides", byte_strides(f32), Shape{12, 4});
             c.equal("int64 2×3 byte strides", byte_strides(i64), Shape{24, 8}, "bytestrides_i64");
             c.equal("int32 1-D byte strides", byte_strides(v32), Shape{4}, "bytestrides_1d");
             for (const auto& [name, t] : {std::pair{"i32", &i32}, std::pair{"f32", &f32},
                                           std::pair{"i64", &i64}, std::pair{"v32", &v32}}) {
               pytorch().compare_value(c, "byte_strides", std::string(name) + ".stride()",
                                       t->strides());
               pytorch().compare_value(c, "byte_strides", "byte_strides(" + std::string(name) + ")",
                                       byte_strides(*t));
               pytorch().compare_value(c, "byte_strides", std::string(name) + ".numpy().strides",
                                       byte_strides(*t));  // NumPy's own byte strides
             }
           });

  ch.erratum("ER-22",
             "Byte strides of a 2×3 int32 matrix are \"[12, 4] bits\", and of a 1-D one \"[32] bits\" "
             "(Notes on PyTorch Tensor Representation and Autograd).",
             "They are (12, 4) bytes, i.e. (96, 32) bits; the 1-D byte stride is 4 bytes, and 32 is "
             "the width of one element in bits.",
             [](book::Check& c) {
               Tensor m = zeros({2, 3}, {DType::Int32});
               Tensor v = zeros({6}, {DType::Int32});
               Shape bits;
               for (int64_t b : byte_strides(m)) bits.push_back(8 * b);
               c.equal("2×3 byte strides", byte_strides(m), Shape{12, 4});
               c.equal("2×3 strides in bits", bits, Shape{96, 32}, "bitstrides_i32");
               c.equal("1-D byte stride", byte_strides(v), Shape{4});
               c.equal("bits in one int32", 8 * v.element_size(), int64_t{32});
               pytorch().compare_value(c, "byte_strides", "[8 * b for b in byte_strides(i32)]",
                                       bits);
               pytorch().compare_value(c, "byte_strides", "8 * v32.element_size()",
                                       8 * v.element_size());
             });

  ch.claim("MT-06.numpy",
           "torch.from_numpy(a) shares a NumPy array's memory, with the array's byte strides "
           "(12, 4) as element strides (3, 1): a write through the tensor shows in the array, and "
           "t.numpy() shares it back; torch.as_tensor shares too, torch.tensor copies; an array "
           "with a negative stride, its rows reversed with strides (-12, 4), is refused, and its "
           "copy() is accepted.",
           [](book::Check& c) {
             //! [numpy]
             // The library reads no NumPy array; what from_numpy must do is the same: turn
             // bytes into elements, and find no negative stride.
             Tensor t = arange(6, {DType::Float32}).view({2, 3});
             const Shape bytes = byte_strides(t);  // NumPy's a.strides: (12, 4)
             t.set({0, 0}, 100.0);
             Tensor fixed = t.flip({0});  // rev.copy(): the rows reversed, strides positive
             //! [numpy]
             pytorch().compare_value(c, "numpy", "a.strides", bytes);
             pytorch().compare_value(c, "numpy", "t.stride()", t.strides());
             pytorch().compare(c, "numpy", "fixed", fixed);
             // What only PyTorch and NumPy can answer, against the statement:
             pytorch().compare_value(c, "numpy", "a[0, 0].item()", 100.0);
             pytorch().compare_value(c, "numpy", "np.shares_memory(t.numpy(), a)", true);
             pytorch().compare_value(c, "numpy", "shares", true);
             pytorch().compare_value(c, "numpy", "copies", true);
             Shape reversed = bytes;
             reversed[0] = -reversed[0];
             pytorch().compare_value(c, "numpy", "rev.strides", reversed);
             const std::string refused = pytorch().error_message("numpy", "torch.from_numpy(rev)");
             c.that("PyTorch refuses torch.from_numpy(rev), naming the negative stride",
                    refused.find("negative") != std::string::npos, refused);
             pytorch().versions(c, "numpy", "torch.from_numpy(rev)");
             c.value("numpy_refusal", refused.substr(0, refused.find(". (")));
           });

  ch.claim("DT-02",
           "The seeds' examples use PyTorch's defaults: an integer arange is int64, "
           "torch.Tensor([[1,2,3],[4,5,6]]) is float32, rand is float32.",
           [](book::Check& c) {
             //! [defaults]
             Generator gen(2);                                    // the book's seeded generator
             Tensor a = arange(24);                               // torch.arange(24)
             Tensor T = from_values({1, 2, 3, 4, 5, 6}, {2, 3});  // torch.Tensor([[1,2,3],[4,5,6]])
             Tensor r = rand({2, 2}, gen);                        // torch.rand(2, 2)
             //! [defaults]
             c.equal("arange dtype", std::string(name(a.dtype())), std::string("int64"));
             c.equal("from_values dtype", std::string(name(T.dtype())), std::string("float32"));
             c.equal("rand dtype", std::string(name(r.dtype())), std::string("float32"));
             c.equal("storage bytes of arange(24)", a.storage().nbytes(), int64_t{192},
                     "arange_nbytes");
             pytorch().compare(c, "defaults", "a", a);
             pytorch().compare(c, "defaults", "T", T);
             pytorch().compare(c, "defaults", "r", r);  // rand: the layout, not the values
             pytorch().compare_value(c, "defaults", "storage_of(a).nbytes()", a.storage().nbytes());
           });

  ch.erratum("ER-23",
             "The text speaks of int32 elements, but its code torch.Tensor([[1,2,3],[4,5,6]]) makes "
             "float32 (Notes on PyTorch Tensor Representation and Autograd).",
             "The tensor is float32; the strides still match the text because float32 and int32 "
             "are both 4 bytes wide.",
             [](book::Check& c) {
               Tensor T = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
               Tensor I = from_values({1, 2, 3, 4, 5, 6}, {2, 3}, {DType::Int32});
               c.equal("dtype", std::string(name(T.dtype())), std::string("float32"));
               c.equal("same width as int32", T.element_size(), I.element_size());
               c.equal("same byte strides as int32", byte_strides(T), byte_strides(I));
               pytorch().compare(c, "defaults", "T", T);
               pytorch().compare_value(
                   c, "defaults",
                   "torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.int32).element_size()",
                   I.element_size());
             });
}
