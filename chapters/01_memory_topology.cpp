// Chapter 1, Memory topology: a tensor is one flat storage and a layout that maps indices into it.
// Claims MT-01…MT-15, DT-01, DT-02 and the errata the catalogue gives this chapter. The code between
// //! [name] markers is shown on the chapter's page (docs/01_memory_topology.md). The section on
// row-major and column-major order and strides in bytes is in 01_memory_topology/order.cpp.
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "01_memory_topology/memory_topology.h"
#include "book/book.h"
#include "strided/memory/memory.h"
#include "strided/pictures/picture.h"
#include "strided/strided.h"

using namespace strided;
using indexing::None;
using indexing::Slice;
using book::byte_runs;
using memory_topology::pytorch;

namespace {

// ---- teaching helpers: shown on the page ------------------------------------------------------------

//! [dump_storage]
// The whole storage, read from its first byte: what a tensor's elements are taken from. It starts
// at storage().data(), not at data_ptr(), which already includes the storage offset.
std::vector<int64_t> dump_storage(const Tensor& t) {
  const auto* first = static_cast<const int64_t*>(t.storage().data());
  return {first, first + t.storage().nbytes() / t.element_size()};
}
//! [dump_storage]

//! [index_formula]
// Element idx of v found twice: its index in the storage, counted in elements
// (martinlwx's formula), and its address, counted in bytes from data_ptr
// (nikitaved's).
int64_t storage_index(const Tensor& v, const Shape& idx) {
  int64_t steps = 0;
  for (size_t k = 0; k < idx.size(); ++k) steps += idx[k] * v.strides()[k];
  return v.storage_offset() + steps;
}

const std::byte* address(const Tensor& v, const Shape& idx) {
  int64_t steps = 0;
  for (size_t k = 0; k < idx.size(); ++k) steps += idx[k] * v.strides()[k];
  return static_cast<const std::byte*>(v.data_ptr()) + v.element_size() * steps;
}
//! [index_formula]

//! [counting]
// An array that counts every read of an item: the cost model of MT-14.
int64_t reads = 0;
template <class T>
struct Counted {
  std::vector<T> items;
  const T& operator[](size_t i) const {
    ++reads;
    return items[i];
  }
};
//! [counting]

}  // namespace

int main(int argc, char** argv) {
  book::Chapter ch("01_memory_topology", "Memory topology");

  // ---- A tensor is a storage and a layout -----------------------------------------------------------
  ch.section("anatomy", "A tensor is a storage and a layout");

  ch.claim("MT-01",
           "A strided tensor is one storage plus metadata (sizes, strides, storage offset, dtype, "
           "device); a view changes the metadata only.",
           [](book::Check& c) {
             const int64_t before = Storage::allocation_count();
             //! [anatomy]
             Tensor t = arange(24).view({2, 3, 4});
             Tensor p = t.permute({2, 0, 1});
             Tensor s = t.index({1, Slice(), Slice(1, 3)});
             //! [anatomy]
             c.equal("allocations made by arange, view, permute, index",
                     Storage::allocation_count() - before, int64_t{1}, "anatomy_allocations");
             c.equal("permute shares the storage", p.storage().is_same(t.storage()), true);
             c.equal("index shares the storage", s.storage().is_same(t.storage()), true);
             c.equal("storage base of p is t's", p.storage().data() == t.storage().data(), true);
             c.equal("sizes of p", p.sizes(), Shape{4, 2, 3});
             c.equal("strides of p", p.strides(), Shape{1, 12, 4}, "anatomy_p_strides");
             c.equal("offset of s", s.storage_offset(), int64_t{13}, "anatomy_s_offset");
             pytorch().compare(c, "anatomy", "t", t, {&t});
             pytorch().compare(c, "anatomy", "t.permute(2, 0, 1)", p, {&t});
             pytorch().compare(c, "anatomy", "t[1, :, 1:3]", s, {&t});
             // The words of the figures, defined beside the first one: contiguous (strides the
             // suffix products of the sizes, a size-1 dim's stride ignored, as PyTorch's
             // is_contiguous in c10/core/Contiguity.h) and the shape:stride notation.
             Tensor r = t.index({1, Slice(None, 1), Slice(1, 3)});  // one row of s
             c.equal("t is contiguous", t.is_contiguous(), true);
             c.equal("t's strides are the suffix products of its sizes", t.strides(),
                     contiguous_strides(t.sizes()));
             c.equal("t[1, :, 1:3] is contiguous", s.is_contiguous(), false);
             c.equal("t[1, :1, 1:3]: stride of its size-1 dim", r.stride(0), int64_t{4});
             c.equal("t[1, :1, 1:3] is contiguous", r.is_contiguous(), true);
             pytorch().compare(c, "anatomy", "t[1, :1, 1:3]", r, {&t});
             c.value("anatomy_t_layout", t.layout());
             c.value("anatomy_s_layout", s.layout());
             c.value("anatomy_r_layout", r.layout());
             c.table("anatomy", {"tensor", "sizes", "strides", "storage offset", "dtype", "device",
                                 "storage bytes"},
                     {book::tensor_row("t", t), book::tensor_row("t.permute(2, 0, 1)", p),
                      book::tensor_row("t[1, :, 1:3]", s)});
             // The view alone over t's storage, in two rows of 12 cells that fit a phone, and
             // without lines: from a grid of several rows to one row of cells they would cross.
             PictureOptions narrow;
             narrow.links = false;
             narrow.cells_per_row = 12;
             c.figure("anatomy_views", views_svg({{s, "t[1, :, 1:3]"}}, narrow),
                      "The view t[1, :, 1:3] over t's storage: " + std::to_string(s.numel()) +
                          " of its " + std::to_string(t.numel()) + " cells.");
           });

  ch.claim("MT-02",
           "Whatever a tensor's rank, its storage is one contiguous 1-D array; a tensor's elements "
           "may be a strided subset of it.",
           [](book::Check& c) {
             Tensor t = arange(24).view({2, 3, 4});
             const std::vector<std::pair<std::string, Tensor>> views = {
                 {"t", t},
                 {"t[1]", t.select(0, 1)},
                 {"t[:, 1:3, ::2]", t.index({Slice(), Slice(1, 3), Slice(None, None, 2)})},
                 {"t.permute(2, 0, 1)", t.permute({2, 0, 1})},
                 {"t.transpose(0, 2)", t.transpose(0, 2)},
                 {"t[0].diagonal()", t.select(0, 0).diagonal()},
                 {"t[:, :1].expand(2, 5, 4)", t.index({Slice(), Slice(None, 1)}).expand({2, 5, 4})},
                 {"t.reshape(6, 4)", t.reshape({6, 4})},
                 {"t.as_strided((3, 3), (7, 1), 2)", t.as_strided({3, 3}, {7, 1}, 2)},
             };
             int64_t inside = 0, elements = 0;
             for (const auto& [name, v] : views) {
               for (int64_t byte : memory_set_bytes(v)) {
                 ++elements;
                 inside += byte >= 0 && byte < v.storage().nbytes();
               }
             }
             c.equal("bytes inside [base, base + nbytes)", inside, elements);
             for (const auto& [name, v] : views) pytorch().compare(c, "flat", name, v, {&t});
             pytorch().compare_value(c, "flat", "inside", inside);
             pytorch().compare_value(c, "flat", "elements", elements);
             c.record("views", static_cast<int64_t>(views.size()));
             c.record("bytes their elements occupy", elements);
           });

  ch.erratum("ER-20", "A 2-D array occupies a contiguous location in memory (martinlwx).",
             "The storage is contiguous; a tensor viewing it need not be: t[:, 1] of a 2×3 tensor "
             "is not contiguous, yet lives in the same contiguous block.",
             [](book::Check& c) {
               Tensor t = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
               Tensor col = t.index({Slice(), 1});
               c.equal("t[:, 1] is contiguous", col.is_contiguous(), false);
               c.equal("t[:, 1] shares t's storage", col.storage().is_same(t.storage()), true);
               c.equal("byte runs of t[:, 1]", byte_runs(memory_set_bytes(col)),
                       std::string("{4..7, 16..19}"));
               pytorch().compare(c, "column", "t[:, 1]", col, {&t});
               pytorch().compare_value(
                   c, "column",
                   "runs(v.data_ptr() - storage_of(t).data_ptr() + k for v in col for k in range(4))",
                   byte_runs(memory_set_bytes(col)));
             });

  ch.claim("MT-15",
           "Several tensors co-own one storage, which lives as long as any of them: drop the base, "
           "and a view still reads its elements.",
           [](book::Check& c) {
             //! [shared]
             Tensor base = arange(6);
             Tensor view = base.slice(0, 2, 5);
             long owners_with_base = view.storage().use_count();
             base = Tensor();  // the base is gone ...
             std::vector<double> still = view.to_vector();  // ... its elements are not
             //! [shared]
             c.equal("owners while base and view live", owners_with_base, 2L,
                     "shared_owners_before");
             c.equal("owners after the base is dropped", view.storage().use_count(), 1L,
                     "shared_owners_after");
             c.equal("the view still reads", still, std::vector<double>{2, 3, 4});
             pytorch().compare_value(c, "shared", "still",
                                     std::vector<int64_t>(still.begin(), still.end()));
           });

  // ---- Where an element lives ------------------------------------------------------------------------
  ch.section("address", "Where an element lives");

  ch.claim("MT-03",
           "Element t[i0,…,iN−1] occupies the itemsize bytes at data_ptr + itemsize·Σ i_j·stride[j]; "
           "read back from raw memory, all 24 elements of a 2×3×4 float32 tensor are bitwise equal.",
           [](book::Check& c) {
             //! [address]
             Generator gen(1);
             Tensor t = rand({2, 3, 4}, gen);                   // float32
             const std::vector<double> values = t.to_vector();  // t[i, j, k] in row-major order
             const auto* data = static_cast<const std::byte*>(t.data_ptr());
             int64_t visited = 0, equal = 0;
             for (int64_t i = 0; i < t.size(0); ++i)
               for (int64_t j = 0; j < t.size(1); ++j)
                 for (int64_t k = 0; k < t.size(2); ++k) {
                   const int64_t steps = i * t.stride(0) + j * t.stride(1) + k * t.stride(2);
                   const std::byte* at = data + t.element_size() * steps;
                   const float expected = static_cast<float>(values[(i * 3 + j) * 4 + k]);
                   equal += std::memcmp(at, &expected, sizeof expected) == 0;
                   ++visited;
                 }
             //! [address]
             c.equal("indices visited", visited, t.numel());
             c.equal("bitwise-equal elements", equal, t.numel());
             c.value("address_strides", t.strides());
             c.value("address_layout", t.layout());  // "(2,3,4):(12,4,1)", the notation
             // The same formula on a permuted view: the strides, not the shape, find the bytes.
             Tensor p = t.permute({2, 0, 1});
             const auto* pdata = static_cast<const std::byte*>(p.data_ptr());
             int64_t pequal = 0;
             for (const Shape& idx : book::all_indices(p.sizes())) {
               int64_t steps = 0;
               for (size_t d = 0; d < idx.size(); ++d) steps += idx[d] * p.strides()[d];
               const float expected = static_cast<float>(values[(idx[1] * 3 + idx[2]) * 4 + idx[0]]);
               pequal += std::memcmp(pdata + p.element_size() * steps, &expected, 4) == 0;
             }
             c.equal("bitwise-equal elements of t.permute(2, 0, 1)", pequal, p.numel());
             pytorch().compare(c, "address", "t", t);  // rand: the layout, not the values
             pytorch().compare_value(c, "address", "visited", visited);
             pytorch().compare_value(c, "address", "equal", equal);
             pytorch().compare(c, "address", "t.permute(2, 0, 1)", p, {&t});
             pytorch().compare_value(c, "address", "pequal", pequal);
           });

  ch.claim("MT-04",
           "The storage index of A[i0,…] is offset + Σ i_k·strides[k] in elements; it agrees with "
           "the byte address because data_ptr = storage base + offset·itemsize.",
           [](book::Check& c) {
             Tensor t = arange(60).view({3, 4, 5});
             const std::vector<Tensor> views = {
                 t.index({1, Slice(1, 4), Slice(None, None, 2)}),
                 t.index({Slice(1, None), Slice(), 3}),
                 t.permute({1, 2, 0}).index({Slice(None, None, 2)}),
                 t.index({Slice(), Slice(None, 1), Slice(2, 3)}).expand({3, 6, 1}),
                 t.select(2, 4).t()};
             const std::vector<std::string> names = {
                 "t[1, 1:4, ::2]", "t[1:, :, 3]", "t.permute(1, 2, 0)[::2]",
                 "t[:, :1, 2:3].expand(3, 6, 1)", "t[:, :, 4].t()"};
             int64_t agree = 0, total = 0, ptr_ok = 0;
             const auto* base = static_cast<const std::byte*>(t.storage().data());
             for (const Tensor& v : views) {
               ptr_ok += static_cast<const std::byte*>(v.data_ptr()) - base ==
                         v.storage_offset() * v.element_size();
               for (const Shape& idx : book::all_indices(v.sizes())) {
                 agree += address(v, idx) == base + v.element_size() * storage_index(v, idx) &&
                          v.at(idx).to_int() == storage_index(v, idx);  // arange: value == index
                 ++total;
               }
             }
             c.equal("data_ptr − base == offset·itemsize (views)", ptr_ok,
                     static_cast<int64_t>(views.size()));
             c.equal("elements where both formulas and the value agree", agree, total);
             for (size_t i = 0; i < views.size(); ++i)
               pytorch().compare(c, "index_formula", names[i], views[i], {&t});
             pytorch().compare_value(c, "index_formula", "agree", agree);
             pytorch().compare_value(c, "index_formula", "total", total);
             c.record("views", static_cast<int64_t>(views.size()));
             c.record("indices", total);
           });

  ch.claim("MT-05",
           "strides[k] is how many elements to skip in storage to move one step along dim k with "
           "the other indices fixed.",
           [](book::Check& c) {
             Tensor t = arange(60).view({3, 4, 5});
             int64_t pairs = 0, hold = 0;
             const std::vector<Tensor> layouts = {t, t.permute({2, 0, 1}),
                                                  t.index({Slice(), Slice(None, None, 3)}),
                                                  t.index({Slice(), Slice(None, 1)}).expand({3, 4, 5})};
             for (const Tensor& v : layouts) {
               for (const Shape& i : book::all_indices(v.sizes()))
                 for (size_t k = 0; k < i.size(); ++k) {
                   if (i[k] + 1 >= v.sizes()[k]) continue;
                   Shape next = i;
                   ++next[k];
                   hold += v.offset_of(next) - v.offset_of(i) == v.strides()[k];
                   ++pairs;
                 }
             }
             c.equal("neighbour pairs whose distance is the stride", hold, pairs);
             const std::vector<std::string> names = {"t", "t.permute(2, 0, 1)", "t[:, ::3]",
                                                     "t[:, :1].expand(3, 4, 5)"};
             for (size_t i = 0; i < layouts.size(); ++i)
               pytorch().compare(c, "stride_steps", names[i], layouts[i], {&t});
             pytorch().compare_value(c, "stride_steps", "pairs", pairs);
             pytorch().compare_value(c, "stride_steps", "hold", hold);
             c.record("layouts", static_cast<int64_t>(layouts.size()));
             c.record("neighbour pairs", pairs);
             // The strides drawn as jumps: a contiguous 2×3×4 tensor and its permutation walk
             // one storage with the same three jumps, each named by another dim.
             Tensor x = arange(24).view({2, 3, 4});
             Tensor xp = x.permute({2, 0, 1});
             pytorch().compare(c, "stride_steps", "x.permute(2, 0, 1)", xp, {&x});
             c.value("steps_x_strides", x.strides());
             c.value("steps_p_strides", xp.strides());
             c.figure("steps_x", steps_svg(x, "x"),
                      "x = arange(24).view(2, 3, 4): one step along dim 0, 1 and 2 jumps " +
                          book::and_list(std::vector<int64_t>(x.strides().begin(), x.strides().end())) +
                          " elements.");
             c.figure("steps_p", steps_svg(xp, "x.permute(2, 0, 1)"),
                      "x.permute(2, 0, 1): the same storage and the same jumps, now dims " +
                          book::show(xp.strides()) + ".");
           });

  ch.claim("MT-11",
           "data_ptr is the tensor's first element, storage base + offset·itemsize: for float32 "
           "[[1,2,3],[4,5,6]], T[1,:] is 12 bytes and T[:,1] 4 bytes past the base; for int64 "
           "arange(24).reshape(1,2,3,4), t[:,:,:,2] is 16 bytes past it.",
           [](book::Check& c) {
             //! [data_ptr]
             Tensor T = from_values({1, 2, 3, 4, 5, 6}, {2, 3});  // float32
             Tensor row = T.index({1, Slice()});
             Tensor col = T.index({Slice(), 1});
             auto past_base = [](const Tensor& v) {
               return static_cast<const std::byte*>(v.data_ptr()) -
                      static_cast<const std::byte*>(v.storage().data());
             };
             Tensor t = arange(24).reshape({1, 2, 3, 4});          // int64
             Tensor t2 = t.index({Slice(), Slice(), Slice(), 2});  // t[:, :, :, 2]
             //! [data_ptr]
             c.equal("T[1, :] bytes past the base", past_base(row), std::ptrdiff_t{12}, "ptr_row");
             c.equal("T[:, 1] bytes past the base", past_base(col), std::ptrdiff_t{4}, "ptr_col");
             c.equal("t[:, :, :, 2] bytes past the base", past_base(t2), std::ptrdiff_t{16},
                     "ptr_t2");
             c.equal("T[:, 1] shares T's storage base", col.storage().data() == T.storage().data(),
                     true);
             pytorch().compare(c, "data_ptr", "T[1, :]", row, {&T});
             pytorch().compare(c, "data_ptr", "T[:, 1]", col, {&T});
             pytorch().compare(c, "data_ptr", "t[:, :, :, 2]", t2, {&t});
             pytorch().compare_value(c, "data_ptr", "past_base(row)",
                                     static_cast<int64_t>(past_base(row)));
             pytorch().compare_value(c, "data_ptr", "past_base(col)",
                                     static_cast<int64_t>(past_base(col)));
             pytorch().compare_value(c, "data_ptr", "past_base(t2)",
                                     static_cast<int64_t>(past_base(t2)));
             pytorch().compare_value(c, "data_ptr",
                                     "storage_of(col).data_ptr() == storage_of(T).data_ptr()",
                                     col.storage().data() == T.storage().data());
             for (const Tensor* v : {&row, &col, &t2})
               c.equal("data_ptr − base == offset·itemsize", past_base(*v),
                       static_cast<std::ptrdiff_t>(v->storage_offset() * v->element_size()));
             c.value("ptr_t2_offset", t2.storage_offset());
             c.figure("data_ptr_views", views_svg({{row, "T[1, :]"}, {col, "T[:, 1]"}}),
                      "T[1, :] and T[:, 1] over T's storage: one base, two data pointers.");
           });

  ch.erratum("ER-21",
             "data_ptr() returns the address of the storage's first element (the Chinese notes).",
             "data_ptr() is the tensor's first element: storage base + offset·itemsize, 16 bytes "
             "past the base for t[:, :, :, 2] of arange(24).reshape(1, 2, 3, 4).",
             [](book::Check& c) {
               Tensor t = arange(24).reshape({1, 2, 3, 4});
               Tensor v = t.index({Slice(), Slice(), Slice(), 2});
               c.equal("data_ptr is the storage base", v.data_ptr() == v.storage().data(), false);
               c.equal("first element read at data_ptr", *static_cast<const int64_t*>(v.data_ptr()),
                       int64_t{2});
               c.equal("first element read at the storage base",
                       *static_cast<const int64_t*>(v.storage().data()), int64_t{0});
               pytorch().compare_value(c, "first_element", "v.data_ptr() == storage_of(v).data_ptr()",
                                       v.data_ptr() == v.storage().data());
               pytorch().compare_value(c, "first_element",
                                       "ctypes.c_int64.from_address(v.data_ptr()).value",
                                       *static_cast<const int64_t*>(v.data_ptr()));
               pytorch().compare_value(c, "first_element",
                                       "ctypes.c_int64.from_address(storage_of(v).data_ptr()).value",
                                       *static_cast<const int64_t*>(v.storage().data()));
               // untyped_storage(), 2.0's name for the storage, answers in 2.6; 1.13 had only
               // storage(), and refused the name: the versions page shows both answers.
               pytorch().compare_value(c, "first_element", "v.untyped_storage().nbytes()",
                                       v.storage().nbytes());
               const std::string untyped =
                   pytorch().earlier()->error_message("first_element", "v.untyped_storage().nbytes()");
               c.that("PyTorch " + pytorch().earlier()->torch() + " has no untyped_storage()",
                      untyped.find("no attribute 'untyped_storage'") != std::string::npos, untyped);
               // The page quotes the exception's type: the message itself holds the attribute's
               // name, whose underscore a sentence cannot carry.
               const auto* refusal =
                   pytorch().earlier()->find("first_element", "v.untyped_storage().nbytes()");
               const std::string recorded = refusal ? refusal->value("error", std::string()) : "";
               c.value("untyped_error", recorded.substr(0, recorded.find(':')));
               c.value("earlier_torch_version", pytorch().earlier()->torch());
               c.value("torch_version", pytorch().torch());
             });

  memory_topology::order(ch);  // 01_memory_topology/order.cpp: row-major, column-major, bytes

  // ---- The memory set ----------------------------------------------------------------------------------
  ch.section("memset", "The memory set");

  ch.claim("MT-08",
           "The memory set of t is every byte its elements occupy; it depends on the shape, "
           "strides and itemsize, not on the storage: a 2×3 float32 tensor and its transpose "
           "cover [0, 24), the column t[:, 1] covers {4..7, 16..19}, and an expand covers its "
           "source's bytes.",
           [](book::Check& c) {
             //! [memset]
             Tensor t = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
             std::vector<int64_t> all = memory_set_bytes(t);
             std::vector<int64_t> transposed = memory_set_bytes(t.t());
             std::vector<int64_t> column = memory_set_bytes(t.index({Slice(), 1}));
             Tensor row = t.select(0, 0);
             std::vector<int64_t> expanded = memory_set_bytes(row.expand({4, 3}));
             //! [memset]
             c.equal("memset(t)", byte_runs(all), std::string("{0..23}"), "memset_all");
             c.equal("memset(t.t()) == memset(t)", transposed == all, true);
             c.equal("memset(t[:, 1])", byte_runs(column), std::string("{4..7, 16..19}"),
                     "memset_col");
             c.equal("memset(t[0].expand(4, 3)) == memset(t[0])", expanded == memory_set_bytes(row), true);
             pytorch().compare_value(c, "memset", "runs(all_bytes)", byte_runs(all));
             pytorch().compare_value(c, "memset", "transposed == all_bytes", transposed == all);
             pytorch().compare_value(c, "memset", "runs(column)", byte_runs(column));
             pytorch().compare_value(c, "memset", "runs(memory_set_bytes(row))",
                                     byte_runs(memory_set_bytes(row)));
             pytorch().compare_value(c, "memset", "expanded == memory_set_bytes(row)",
                                     expanded == memory_set_bytes(row));
             pytorch().compare(c, "memset", "row.expand(4, 3)", row.expand({4, 3}), {&t});
             c.value("memset_row", byte_runs(memory_set_bytes(row)));
             c.value("memset_numel", t.numel());
             // The captions count from the tensors they draw.
             const Tensor col = t.index({Slice(), 1}), wide = row.expand({4, 3});
             const auto col_cells = memory_set(col), wide_cells = memory_set(wide);
             c.figure("memset_col", storage_svg(col, "t[:, 1]"),
                      "The storage cells t[:, 1] occupies: elements " + book::and_list(col_cells) +
                          ", bytes " + book::byte_runs(memory_set_bytes(col)) + ".");
             c.figure("memset_expand", views_svg({{wide, "t[0].expand(4, 3)"}}),
                      "t[0].expand(4, 3): " + std::to_string(wide.numel()) + " elements, " +
                          std::to_string(wide_cells.size()) + " storage cells, each used " +
                          std::to_string(wide.numel() / static_cast<int64_t>(wide_cells.size())) +
                          " times.");
           });

  ch.erratum("ER-03.memset",
             "The memory set of a contiguous tensor is data_ptr + {0, 1, …, itemsize·numel} "
             "(PyTorch for Scientists!, nikitaved).",
             "It is data_ptr + {0, 1, …, itemsize·numel − 1}: itemsize·numel bytes, one fewer "
             "address than the seed's set.",
             [](book::Check& c) {
               Tensor t = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
               const std::vector<int64_t> bytes = memory_set_bytes(t);
               c.equal("size of the memory set", static_cast<int64_t>(bytes.size()),
                       t.element_size() * t.numel(), "memset_size");
               c.equal("last byte", bytes.back(), t.element_size() * t.numel() - 1, "memset_last");
               pytorch().compare_value(c, "memset", "len(all_bytes)",
                                       static_cast<int64_t>(bytes.size()));
               pytorch().compare_value(c, "memset", "all_bytes[-1]", bytes.back());
             });

  // ---- Views leave the storage alone -----------------------------------------------------------------
  ch.section("storage", "Views leave the storage alone");

  ch.claim("MT-12.save",
           "torch.save of a view writes its whole storage: the first row of a 1000×1000 float32 "
           "tensor saves more than its 4,000,000 bytes, as the whole tensor does, while the row's "
           "clone saves less than 8,000, its 4,000 bytes and some framing.",
           [](book::Check& c) {
             //! [save]
             Tensor t = zeros({1000, 1000});  // 4,000,000 bytes of storage
             Tensor row = t.slice(0, 0, 1);   // a view: it keeps the whole storage
             Tensor copy = row.clone();       // a storage of the row's own
             // torch.save writes a tensor's storage: these are the bytes it would write
             const int64_t row_bytes = row.storage().nbytes(), copy_bytes = copy.storage().nbytes();
             //! [save]
             c.equal("the row's storage, in bytes", row_bytes, int64_t{4000000}, "save_storage");
             c.equal("the clone's", copy_bytes, int64_t{4000}, "save_clone_storage");
             // PyTorch's file sizes, from the records (the framing differs between versions).
             const auto size = [&](const std::string& name) {
               const nlohmann::json* a = pytorch().find("save", name);
               pytorch().versions(c, "save", name);
               return a && a->contains("value") ? (*a)["value"].get<int64_t>() : int64_t{-1};
             };
             const int64_t saved_row = size("row"), saved_copy = size("copy"),
                           saved_all = size("saved_bytes(t)");
             c.that("PyTorch saves the row with its whole storage", saved_row > row_bytes,
                    book::show(saved_row) + " bytes");
             c.equal("and as many bytes as the whole tensor", saved_row, saved_all);
             c.that("PyTorch saves the clone in less than 8,000 bytes",
                    saved_copy > copy_bytes && saved_copy < 8000, book::show(saved_copy) + " bytes");
             c.value("save_row", saved_row);
             c.value("save_copy", saved_copy);
           });

  ch.claim("MT-12",
           "Storage bytes = capacity × itemsize (192 for the int64 arange(24)), unchanged by "
           "indexing, permute, broadcast_to and a reshape that returns a view.",
           [](book::Check& c) {
             //! [same_storage]
             Tensor t = arange(24).reshape({1, 2, 3, 4});
             const int64_t allocations = Storage::allocation_count();
             std::vector<std::pair<std::string, Tensor>> views = {
                 {"t", t},
                 {"t[:, :, :, 2]", t.index({Slice(), Slice(), Slice(), 2})},
                 {"t.permute(1, 2, 3, 0)", t.permute({1, 2, 3, 0})},
                 {"t.broadcast_to((2, 2, 3, 4))", t.broadcast_to({2, 2, 3, 4})},
                 {"t.reshape(6, 4)", t.reshape({6, 4})}};
             //! [same_storage]
             std::vector<std::vector<std::string>> rows;
             for (const auto& [name, v] : views) {
               c.equal(name + ": storage bytes", v.storage().nbytes(), int64_t{192});
               c.equal(name + ": same storage", v.storage().is_same(t.storage()), true);
               pytorch().compare(c, "same_storage", name, v, {&t});
               pytorch().compare_value(c, "same_storage", name + ": storage bytes",
                                       v.storage().nbytes());
               rows.push_back({name, book::show(v.sizes()), book::show(v.strides()),
                               book::show(v.storage_offset()), book::show(v.storage().nbytes())});
             }
             c.equal("allocations made by the views", Storage::allocation_count() - allocations,
                     int64_t{0});
             c.table("same_storage", {"tensor", "sizes", "strides", "storage offset", "storage bytes"},
                     rows);
             c.value("storage_nbytes", t.storage().nbytes());
             c.value("storage_numel", t.storage().nbytes() / t.element_size());
           });

  ch.claim("MT-13",
           "Read from the storage's base, the storage of t = arange(24).reshape(1,2,3,4), of "
           "t.permute(1,2,3,0) and of t.broadcast_to((2,2,3,4)) is the untouched buffer 0…23.",
           [](book::Check& c) {
             //! [dump]
             Tensor t = arange(24).reshape({1, 2, 3, 4});
             std::vector<int64_t> of_t = dump_storage(t);
             std::vector<int64_t> of_permuted = dump_storage(t.permute({1, 2, 3, 0}));
             std::vector<int64_t> of_broadcast = dump_storage(t.broadcast_to({2, 2, 3, 4}));
             //! [dump]
             const std::vector<int64_t> expected = book::count_up(24);
             c.equal("dump of t", of_t, expected);
             c.equal("dump of the permute", of_permuted, expected);
             c.equal("dump of the broadcast", of_broadcast, expected);
             pytorch().compare_value(c, "dump", "of_t", of_t);
             pytorch().compare_value(c, "dump", "of_permuted", of_permuted);
             pytorch().compare_value(c, "dump", "of_broadcast", of_broadcast);
             std::string dump_text;
             for (const auto& [label, dump] :
                  {std::pair{"dump_storage(t)                           ", &of_t},
                   std::pair{"dump_storage(t.permute(1, 2, 3, 0))       ", &of_permuted},
                   std::pair{"dump_storage(t.broadcast_to((2, 2, 3, 4)))", &of_broadcast}})
               dump_text += std::string(label) + " = " + book::show(*dump) + "\n";
             c.text("dump", dump_text);
             Tensor b = t.broadcast_to({2, 2, 3, 4});
             c.value("broadcast_strides", b.strides());
             c.value("permute_strides", t.permute({1, 2, 3, 0}).strides());
             PictureOptions opts;
             opts.links = false;
             c.figure("broadcast", views_svg({{t, "t"}, {b, "t.broadcast_to((2, 2, 3, 4))"}}, opts),
                      "t and t.broadcast_to((2, 2, 3, 4)) over one storage: the broadcast uses "
                      "every cell " + std::to_string(b.numel() / t.numel()) +
                          " times; the lines from element to cell are left out, too many to read.");
           });

  ch.erratum("ER-14",
             "print_internal reads storage().nbytes() bytes starting at data_ptr() (martinlwx; "
             "the Chinese notes).",
             "data_ptr() already includes the offset, so that read runs offset·itemsize bytes past "
             "the storage's end (16 bytes for t[:, :, :, 2]); read from the storage base instead.",
             [](book::Check& c) {
               Tensor t = arange(24).reshape({1, 2, 3, 4});
               Tensor v = t.index({Slice(), Slice(), Slice(), 2});
               const auto* base = static_cast<const std::byte*>(v.storage().data());
               const auto* seed_start = static_cast<const std::byte*>(v.data_ptr());
               // Only pointers are compared: reading the seed's range would be undefined behaviour.
               const std::ptrdiff_t overrun =
                   (seed_start + v.storage().nbytes()) - (base + v.storage().nbytes());
               c.equal("bytes read past the end", overrun,
                       static_cast<std::ptrdiff_t>(v.storage_offset() * v.element_size()));
               c.equal("which is", overrun, std::ptrdiff_t{16}, "overrun_bytes");
               pytorch().compare_value(c, "overrun",
                                       "(v.data_ptr() + storage_of(v).nbytes()) - "
                                       "(storage_of(v).data_ptr() + storage_of(v).nbytes())",
                                       static_cast<int64_t>(overrun));
               pytorch().compare_value(
                   c, "overrun", "[dump_storage(v)[0], dump_storage(v)[-1]]",
                   std::vector<int64_t>{dump_storage(v).front(), dump_storage(v).back()});
               c.equal("dump from the base, first and last",
                       std::vector<int64_t>{dump_storage(v).front(), dump_storage(v).back()},
                       std::vector<int64_t>{0, 23});
               c.value("overrun_elements", overrun / v.element_size());
             });

  ch.erratum("ER-15",
             "The example code calls torch.arange(0, 24).reshape(1, 2, 3, 4) without assigning "
             "it, then prints t (martinlwx).",
             "t must be assigned: t = arange(0, 24).reshape(1, 2, 3, 4), with strides (24, 12, 4, 1).",
             [](book::Check& c) {
               //! [assigned]
               Tensor t = arange(0, 24).reshape({1, 2, 3, 4});
               //! [assigned]
               c.equal("strides", t.strides(), Shape{24, 12, 4, 1}, "assigned_strides");
               pytorch().compare(c, "assigned", "t", t);
             });

  // ---- Negative strides --------------------------------------------------------------------------------
  ch.section("negative", "No negative strides");

  ch.claim("MT-07",
           "Strides are never negative: a negative slice step is refused, as_strided refuses a "
           "negative stride, and flip returns a copy.",
           [](book::Check& c) {
             const int64_t before = Storage::allocation_count();
             //! [flip]
             Tensor x = arange(10);
             Tensor f = x.flip({0});  // x[::-1] is refused; flip copies
             //! [flip]
             c.equal("allocations made by arange and flip", Storage::allocation_count() - before,
                     int64_t{2});
             c.equal("flip shares x's storage", f.storage().is_same(x.storage()), false);
             c.throws("x[::-1]", [&] { x.index({Slice(None, None, -1)}); },
                      "step must be greater than zero");
             c.throws("x.as_strided((2,), (-1,))", [&] { x.as_strided({2}, {-1}); },
                      "Negative strides are not supported");
             c.equal("flip's strides", f.strides(), Shape{1});
             c.equal("flip's values", f.to_vector(), std::vector<double>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
             pytorch().compare_error(c, "flip", "x[::-1]",
                                     [&] { x.index({Slice(None, None, -1)}); });
             pytorch().compare_error(c, "flip", "x.as_strided((2,), (-1,))",
                                     [&] { x.as_strided({2}, {-1}); });
             pytorch().compare(c, "flip", "x.flip(0)", f, {&x});
             c.value("flip_error", pytorch().error_message("flip", "x[::-1]"));
           });

  // ---- Why one flat buffer -------------------------------------------------------------------------------
  ch.section("flat", "Why one flat buffer");

  ch.claim("MT-14",
           "Reaching one element of an n-d nested array takes n dependent reads; a flat buffer "
           "with strides takes one read and some integer arithmetic.",
           [](book::Check& c) {
             //! [nested]
             // The values 0 to 23 twice: as a 2×3×4 nested array, and as one flat buffer in
             // row-major order with its strides.
             using Row = Counted<double>;
             using Plane = Counted<Row>;
             Counted<Plane> nested{{
                 Plane{{Row{{0, 1, 2, 3}}, Row{{4, 5, 6, 7}}, Row{{8, 9, 10, 11}}}},
                 Plane{{Row{{12, 13, 14, 15}}, Row{{16, 17, 18, 19}}, Row{{20, 21, 22, 23}}}},
             }};
             Counted<double> flat{arange(24).to_vector()};
             const Shape strides = contiguous_strides({2, 3, 4});

             int64_t before = reads;
             double a = nested[1][2][1];  // the outer array, then a plane, then a row
             const int64_t nested_reads = reads - before;

             before = reads;
             double b = flat[1 * strides[0] + 2 * strides[1] + 1 * strides[2]];  // the storage
             const int64_t flat_reads = reads - before;
             //! [nested]
             c.equal("the same element", a, b);
             c.equal("reads to reach nested[1][2][1]", nested_reads, int64_t{3}, "nested_reads");
             c.equal("reads to reach flat[1·12 + 2·4 + 1·1]", flat_reads, int64_t{1}, "flat_reads");
             pytorch().compare_value(c, "nested", "a == b", a == b);
             pytorch().compare_value(c, "nested", "nested_reads", nested_reads);
             pytorch().compare_value(c, "nested", "flat_reads", flat_reads);
             pytorch().compare_value(c, "nested", "strides", strides);
           });

  ch.erratum("ER-33",
             "\"the element 2 at position (1, 2)\", indexed as m[0][1], for m = [[1, 2], [3, 4]] "
             "(r-nn, Taking PyTorch For Granted).",
             "Counting from 0 as the code does, 2 is at position (0, 1); (1, 2) counts from 1.",
             [](book::Check& c) {
               Tensor m = from_values({1, 2, 3, 4}, {2, 2});
               c.equal("m[0][1]", m.at({0, 1}).to_double(), 2.0);
               c.equal("1-based (1, 2), less one per index", m.at({1 - 1, 2 - 1}).to_double(), 2.0);
               c.throws("m[1][2], the seed's position read 0-based", [&] { m.at({1, 2}); },
                        "out of bounds");
               pytorch().compare_value(c, "positions", "m[0][1].item()", m.at({0, 1}).to_int());
               pytorch().compare_error(c, "positions", "m[1][2]", [&] { m.index({1}).index({2}); });
             });

  memory_topology::exercises(ch);  // 01_memory_topology/exercises.cpp: the page's exercises
  return ch.main(argc, argv);
}
