// Chapter 2, Views: an op whose result is new metadata over the same storage.
// Claims VW-01…VW-18, DT-03…DT-07 and the errata the catalogue gives this chapter; the later
// sections are in chapters/02_views/ (views.h). The code between //! [name] markers is shown on the
// chapter's page (docs/02_views.md).
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "book/book.h"
#include "book/plumbing.h"
#include "book/pytorch_record.h"
#include "02_views/views.h"
#include "strided/layout/layout.h"
#include "strided/memory/memory.h"
#include "strided/engine/ops.h"
#include "strided/pictures/picture.h"
#include "strided/strided.h"

using namespace strided;
using indexing::Ellipsis;
using indexing::None;
using indexing::Slice;
using views::pytorch;

namespace {

// ---- teaching helpers: shown on the page ------------------------------------------------------------

//! [untouchable]
// A tensor whose elements cannot be read or written: the pages holding them are protected, so any
// access to an element stops the program. Its metadata stays usable, and a view op that succeeds
// on it has provably read no element.
class Untouchable {
 public:
  Untouchable(const Shape& sizes, DType dtype) {
    const int64_t page = sysconf(_SC_PAGESIZE);
    const int64_t n = std::max<int64_t>(checked_numel(sizes, "Untouchable"), 1);
    bytes_ = (n * itemsize(dtype) + page - 1) / page * page;
    raw_ = empty({(bytes_ + 2 * page) / itemsize(dtype)}, {dtype});  // never written
    auto* first = static_cast<char*>(raw_.data_ptr());
    pages_ = first + (page - reinterpret_cast<uintptr_t>(first) % page) % page;
    tensor_ = raw_.as_strided(sizes, contiguous_strides(sizes),
                              (pages_ - first) / itemsize(dtype));
    armed_ = mprotect(pages_, bytes_, PROT_NONE) == 0;
  }
  ~Untouchable() { mprotect(pages_, bytes_, PROT_READ | PROT_WRITE); }
  Untouchable(const Untouchable&) = delete;
  Untouchable& operator=(const Untouchable&) = delete;
  const Tensor& tensor() const { return tensor_; }
  bool armed() const { return armed_; }  // the pages really are protected

 private:
  Tensor raw_, tensor_;
  char* pages_ = nullptr;
  int64_t bytes_ = 0;
  bool armed_ = false;
};
//! [untouchable]

//! [slice_rule]
// x[..., start:stop:step, ...] on dim d, computed from x's metadata alone
// (step > 0, bounds within the dim).
Layout slice_by_hand(const Tensor& x, int64_t d,
                     int64_t start, int64_t stop, int64_t step) {
  Shape sizes = x.sizes(), strides = x.strides();
  sizes[d] = (stop - start + step - 1) / step;  // ⌈(stop − start) / step⌉
  strides[d] *= step;
  return Layout(sizes, strides, x.storage_offset() + start * x.stride(d));
}
//! [slice_rule]

// ---- plumbing: not shown ------------------------------------------------------------------------------

std::vector<std::string> layout_row(const std::string& name, const Tensor& t) {
  return {name, book::show(t.sizes()), book::show(t.strides()), book::show(t.storage_offset())};
}

std::string perm_text(const Shape& p) { return book::show(p); }

}  // namespace

int main(int argc, char** argv) {
  book::Chapter ch("02_views", "Views");

  // ---- What a view is ----------------------------------------------------------------------------------
  ch.section("definition", "What a view is");

  ch.claim("VW-01",
           "t2 is a view of t1 when memset(t2) ⊆ memset(t1): true for an element, a slice, a "
           "permutation, a diagonal, an expansion and a reshape that can view; false for an "
           "index list, contiguous() of a non-contiguous tensor and a dtype conversion, which "
           "allocate.",
           [](book::Check& c) {
             //! [is_view_of]
             Tensor t = arange(24).view({2, 3, 4});
             const std::vector<std::pair<std::string, Tensor>> results = {
                 {"t[0, 2, 2]", t.index({0, 2, 2})},
                 {"t[:, 1:3, ::2]", t.index({Slice(), Slice(1, 3), Slice(None, None, 2)})},
                 {"t.permute(2, 0, 1)", t.permute({2, 0, 1})},
                 {"t[0].diagonal()", t.select(0, 0).diagonal()},
                 {"t[:, :1].expand(2, 5, 4)", t.index({Slice(), Slice(None, 1)}).expand({2, 5, 4})},
                 {"t.reshape(6, 4)", t.reshape({6, 4})},
                 {"t[:, [0, 2]]", t.index({Slice(), std::vector<int64_t>{0, 2}})},
                 {"t.transpose(0, 2).contiguous()", t.transpose(0, 2).contiguous()},
                 {"t.to(torch.float32)", t.to(DType::Float32)},
             };
             //! [is_view_of]
             std::vector<std::vector<std::string>> rows;
             int64_t views = 0;
             for (const auto& [name, r] : results) {
               const bool view = is_view_of(r, t);
               views += view;
               rows.push_back({name, book::show(r.storage().is_same(t.storage())), book::show(view),
                               book::show(r.is_contiguous()),
                               book::show(r.is_non_overlapping_and_dense())});
               // "dense", defined under the table: PyTorch's is_non_overlapping_and_dense.
               pytorch().compare_value(c, "is_view_of", name + ": non-overlapping and dense",
                                       r.is_non_overlapping_and_dense());
             }
             // The two the page names: dense without being contiguous, and neither.
             c.equal("t.permute(2, 0, 1) is dense", results[2].second.is_non_overlapping_and_dense(),
                     true);
             c.equal("t.permute(2, 0, 1) is contiguous", results[2].second.is_contiguous(), false);
             c.equal("t[:, 1:3, ::2] is dense", results[1].second.is_non_overlapping_and_dense(),
                     false);
             const auto view_of = [&](size_t i) { return is_view_of(results[i].second, t); };
             for (size_t i = 0; i < 6; ++i) c.equal(results[i].first + " is a view of t", view_of(i), true);
             for (size_t i = 6; i < 9; ++i) c.equal(results[i].first + " is a view of t", view_of(i), false);
             for (const auto& [name, r] : results)
               pytorch().compare(c, "is_view_of", name, r, {&t});
             // The inclusion itself, byte by byte, for one view and one copy.
             const std::vector<int64_t> all = memory_set_bytes(t);
             const std::vector<int64_t> sliced = memory_set_bytes(results[1].second);
             c.equal("memset(t[:, 1:3, ::2]) ⊆ memset(t)",
                     std::includes(all.begin(), all.end(), sliced.begin(), sliced.end()), true);
             c.table("is_view_of",
                     {"result", "shares t's storage", "is a view of t", "contiguous", "dense"}, rows);
             c.record("views of t", views);
             c.record("results tried", static_cast<int64_t>(results.size()));
           });

  ch.claim("VW-05",
           "An op that could be a trivial view is not necessarily implemented as one: each op's "
           "view-or-copy behaviour is a documented fact, checked here by counting allocations.",
           [](book::Check& c) {
             Tensor x = arange(24).view({4, 6});
             Tensor xt = x.t();
             struct Row {
               std::string op;
               std::function<Tensor()> run;
               int64_t allocations;  // PyTorch 1.13's behaviour for this op
               bool itself = false;  // returns x itself: no new tensor at all, not even a view
             };
             const std::vector<Row> table = {
                 {"x[1]", [&] { return x.select(0, 1); }, 0},
                 {"x[:, 1:5:2]", [&] { return x.slice(1, 1, 5, 2); }, 0},
                 {"x.t()", [&] { return x.t(); }, 0},
                 {"x.diagonal()", [&] { return x.diagonal(); }, 0},
                 {"x[:1].expand(3, 6)", [&] { return x.slice(0, 0, 1).expand({3, 6}); }, 0},
                 {"x.view(2, 12)", [&] { return x.view({2, 12}); }, 0},
                 {"x.reshape(3, 8)", [&] { return x.reshape({3, 8}); }, 0},
                 {"x.t().reshape(24)", [&] { return xt.reshape({24}); }, 1},
                 {"x.contiguous()", [&] { return x.contiguous(); }, 0, true},
                 {"x.t().contiguous()", [&] { return xt.contiguous(); }, 1},
                 {"x[[0, 1]]", [&] { return x.index({std::vector<int64_t>{0, 1}}); }, 1},
                 {"x.flip(0)", [&] { return x.flip({0}); }, 1},
                 {"x.to(torch.int64)", [&] { return x.to(DType::Int64); }, 0, true},
                 {"x.to(torch.float32)", [&] { return x.to(DType::Float32); }, 1},
                 {"x.clone()", [&] { return x.clone(); }, 1},
             };
             std::vector<std::vector<std::string>> rows;
             int64_t copies = 0;
             for (const Row& r : table) {
               const int64_t before = Storage::allocation_count();
               Tensor y = r.run();
               const int64_t made = Storage::allocation_count() - before;
               c.equal(r.op + ": allocations", made, r.allocations);
               c.equal(r.op + ": shares x's storage", y.storage().is_same(x.storage()),
                       r.allocations == 0);
               copies += made > 0;
               // The library's tensor is a value: "x itself" is x's storage, sizes, strides,
               // offset and dtype, all unchanged; PyTorch's answer is `is`, the same TensorImpl.
               const bool itself = book::same_layout(y, x);
               c.equal(r.op + ": is x itself", itself, r.itself);
               if (r.itself) pytorch().compare_value(c, "view_or_copy", r.op + " is x", itself);
               rows.push_back({r.op, itself ? "x itself" : made == 0 ? "view" : "copy",
                               book::show(made)});
               pytorch().compare(c, "view_or_copy", r.op, y, {&x});
             }
             c.table("view_or_copy", {"op", "returns", "allocations"}, rows);
             c.record("ops", static_cast<int64_t>(table.size()));
             c.record("copies", copies);
           });

  ch.claim("VW-04", "An in-place op returns its input itself: x.add_(1) is x.",
           [](book::Check& c) {
             //! [in_place]
             Tensor x = zeros({3});
             const Tensor& y = add_(x, 1);  // x.add_(1)
             //! [in_place]
             c.equal("&y == &x", &y == &x, true);
             c.equal("x after add_", x.to_vector(), std::vector<double>{1, 1, 1});
             pytorch().compare_value(c, "in_place", "y is x", &y == &x);
             pytorch().compare(c, "in_place", "x", x);
           });

  ch.claim("VW-04.memory",
           "Y = Y + X makes a new tensor, one allocation, and rebinds the name Y to it; Y += X "
           "writes into Y's storage and allocates nothing; Y[:] = X + Y allocates the sum, a "
           "temporary, and copies it into Y's storage, which Y keeps.",
           [](book::Check& c) {
             //! [save_memory]
             Tensor X = ones({1000}), Y = zeros({1000});
             const void* before = Y.data_ptr();
             const int64_t rebinding = book::allocations_during([&] { Y = Y + X; });
             const bool rebound = Y.data_ptr() != before;
             before = Y.data_ptr();
             const int64_t in_place = book::allocations_during([&] { add_(Y, X); });  // Y += X
             const int64_t assigned = book::allocations_during([&] {
               Y.index({Slice()}).copy_(X + Y);  // Y[:] = X + Y
             });
             const bool kept = Y.data_ptr() == before;
             //! [save_memory]
             c.equal("allocations: Y = Y + X, Y += X, Y[:] = X + Y",
                     std::vector<int64_t>{rebinding, in_place, assigned},
                     std::vector<int64_t>{1, 0, 1}, "save_allocations");
             pytorch().compare_value(c, "save_memory", "rebound", rebound);
             pytorch().compare_value(c, "save_memory", "kept", kept);
             pytorch().compare(c, "save_memory", "Y[:3]", Y.slice(0, 0, 3));
           });

  // ---- Views cost nothing --------------------------------------------------------------------------------
  ch.section("cost", "What a view costs");

  ch.claim("VW-03",
           "A trivial view is new metadata (storage offset, sizes, strides) computed without "
           "reading a single element: every view op succeeds on a tensor whose elements cannot "
           "be read, and gives the layout PyTorch gives.",
           [](book::Check& c) {
             //! [no_reads]
             Untouchable u({4, 5, 6}, DType::Float32);
             const Tensor& t = u.tensor();  // any read of an element would stop the program
             std::vector<std::pair<std::string, Tensor>> views = {
                 {"t[1, 2, 3]", t.index({1, 2, 3})},
                 {"t[:, 1:5:2]", t.index({Slice(), Slice(1, 5, 2)})},
                 {"t.permute(2, 0, 1)", t.permute({2, 0, 1})},
                 {"t.transpose(0, 1)", t.transpose(0, 1)},
                 {"t[0].diagonal()", t.select(0, 0).diagonal()},
                 {"t[:, :1].expand(4, 7, 6)", t.index({Slice(), Slice(None, 1)}).expand({4, 7, 6})},
                 {"t.view(20, 6)", t.view({20, 6})},
                 {"t.unsqueeze(0)", t.unsqueeze(0)},
             };
             //! [no_reads]
             c.equal("the elements' pages are protected", u.armed(), true);
             std::vector<std::vector<std::string>> rows;
             for (const auto& [name, v] : views) {
               c.equal(name + " shares the protected storage", v.storage().is_same(t.storage()),
                       true);
               // What PyTorch 1.13 gives for the same view of a meta tensor (no memory at all); the
               // protected t starts past the storage's first page, so offsets count from t's.
               pytorch().compare(c, "no_reads", name, v, {nullptr, t.storage_offset()});
               rows.push_back({name, book::show(v.sizes()), book::show(v.strides()),
                               book::show(v.storage_offset() - t.storage_offset())});
             }
             // The same geometry from the pure layout functions, which take no storage at all.
             const Layout s = slice_geometry(t.layout(), 1, 1, 5, 2);
             c.equal("slice: sizes from slice_geometry", views[1].second.sizes(), s.sizes());
             c.equal("slice: strides from slice_geometry", views[1].second.strides(), s.strides());
             c.equal("slice: offset from slice_geometry", views[1].second.storage_offset(),
                     s.storage_offset());
             const Layout p = permute_geometry(t.layout(), {2, 0, 1});
             c.equal("permute: strides from permute_geometry", views[2].second.strides(),
                     p.strides());
             c.table("no_reads", {"view of t", "sizes", "strides", "storage offset − t's"}, rows);
             c.record("views", static_cast<int64_t>(views.size()));
             // Where the two offsets that are not 0 come from: t's strides times the indices.
             const int64_t element = views[0].second.storage_offset() - t.storage_offset();
             const int64_t sliced = views[1].second.storage_offset() - t.storage_offset();
             c.equal("t[1, 2, 3]: offset − t's", element,
                     1 * t.stride(0) + 2 * t.stride(1) + 3 * t.stride(2));
             c.equal("t[:, 1:5:2]: offset − t's", sliced, 1 * t.stride(1));
             c.value("no_reads_origin", t.storage_offset());
             c.value("no_reads_strides", t.strides());
             c.value("no_reads_element_sum", "1·" + book::show(t.stride(0)) + " + 2·" +
                                                 book::show(t.stride(1)) + " + 3·" +
                                                 book::show(t.stride(2)) + " = " +
                                                 book::show(element));
             c.value("no_reads_slice_sum", "1·" + book::show(t.stride(1)) + " = " + book::show(sliced));
           });

  ch.claim("VW-02",
           "Making a view allocates nothing and runs no kernel; its work depends on the number "
           "of dims, not of elements: the same ops on a 1-element and a 2^26-element tensor "
           "allocate nothing and read nothing.",
           [](book::Check& c) {
             //! [cost]
             auto chain = [](const Tensor& t) {
               return t.t().index({Slice(), Slice(None, None, 2)}).unsqueeze(0).squeeze(1);
             };
             Untouchable small({1, 1}, DType::Float16);               // 1 element
             Untouchable big({int64_t{1} << 26, 1}, DType::Float16);  // 2^26 elements
             const int64_t before = Storage::allocation_count();
             Tensor a = chain(small.tensor()), b = chain(big.tensor());
             const int64_t allocations = Storage::allocation_count() - before;
             //! [cost]
             std::vector<std::vector<std::string>> rows;
             for (const auto& [u, v] : {std::pair<const Untouchable*, const Tensor*>{&small, &a},
                                        std::pair<const Untouchable*, const Tensor*>{&big, &b}}) {
               const Tensor& t = u->tensor();
               const std::string n = book::show(t.numel());
               c.equal("pages protected (" + n + " elements)", u->armed(), true);
               c.equal("shares the storage (" + n + " elements)", v->storage().is_same(t.storage()),
                       true);
               c.equal("view's sizes (" + n + " elements)", v->sizes(),
                       Shape{1, (t.numel() + 1) / 2});
               pytorch().compare(c, "cost", "t.t()[:, ::2].unsqueeze(0).squeeze(1), n = " + n, *v,
                                 {nullptr, t.storage_offset()});
               rows.push_back({n, book::show(v->sizes()), book::show(v->strides())});
             }
             c.equal("allocations made by the views, both sizes", allocations, int64_t{0},
                     "cost_allocations");
             // PyTorch 2.0 squeezes a tuple of dims at once; 1.13 took one dim at a time and
             // refused the tuple: the page quotes that refusal from 1.13's record.
             pytorch().compare(c, "cost", "a.squeeze((0, 1))", a.squeeze({0, 1}),
                               {nullptr, small.tensor().storage_offset()});
             const std::string several =
                 pytorch().earlier()->error_message("cost", "a.squeeze((0, 1))");
             c.that("PyTorch " + pytorch().earlier()->torch() + " refuses squeeze of several dims",
                    several.find("squeeze() received an invalid combination of arguments") !=
                        std::string::npos,
                    several);
             c.value("squeeze_dims_error", several.substr(0, several.find(", but expected")));
             c.table("cost", {"elements of t", "sizes of the view", "strides of the view"}, rows);
             c.value("cost_small", small.tensor().numel());
             c.value("cost_big", big.tensor().numel());
           });

  ch.claim("VW-16",
           "permute, broadcasting, basic indexing and a compatible reshape only rewrite the "
           "offset and strides: a chain of them allocates nothing.",
           [](book::Check& c) {
             //! [chain]
             Tensor x = arange(24);
             const int64_t before = Storage::allocation_count();
             Tensor y = x.view({2, 3, 4})        // a compatible reshape
                            .permute({2, 0, 1})   // (4, 2, 3)
                            .index({1})           // basic indexing: (2, 3)
                            .unsqueeze(0)
                            .expand({5, 2, 3});   // broadcasting: (5, 2, 3)
             const int64_t made = Storage::allocation_count() - before;
             //! [chain]
             c.equal("allocations", made, int64_t{0}, "chain_allocations");
             c.equal("shares x's storage", y.storage().is_same(x.storage()), true);
             c.equal("sizes", y.sizes(), Shape{5, 2, 3});
             c.equal("strides", y.strides(), Shape{0, 12, 4});
             c.equal("storage offset", y.storage_offset(), int64_t{1}, "chain_offset");
             pytorch().compare(c, "chain",
                               "x.view(2, 3, 4).permute(2, 0, 1)[1].unsqueeze(0).expand(5, 2, 3)", y,
                               {&x});
             c.value("chain_layout", y.layout());
           });

  // ---- One element ---------------------------------------------------------------------------------------
  ch.section("element", "One element is a 0-d view");

  ch.claim("VW-06",
           "Full integer indexing t[i0,…,iN−1] gives a 0-d view (sizes (), strides ()) starting "
           "itemsize·Σ i_j·s_j bytes past t's data_ptr: for arange(24).reshape(2,3,4) at "
           "(0,2,2), the value 10, 80 bytes in.",
           [](book::Check& c) {
             //! [element]
             Tensor x = arange(24).reshape({2, 3, 4});
             Tensor y = x.index({0, 2, 2});  // x[0, 2, 2]
             const auto bytes_in = static_cast<const char*>(y.data_ptr()) -
                                   static_cast<const char*>(x.data_ptr());
             const int64_t expected = x.element_size() *
                                      (0 * x.stride(0) + 2 * x.stride(1) + 2 * x.stride(2));
             //! [element]
             c.equal("sizes", y.sizes(), Shape{}, "element_sizes");
             c.equal("strides", y.strides(), Shape{});
             c.equal("value", y.item().to_int(), int64_t{10}, "element_value");
             c.equal("bytes past x.data_ptr()", static_cast<int64_t>(bytes_in), expected);
             c.equal("which is", static_cast<int64_t>(bytes_in), int64_t{80}, "element_bytes");
             c.equal("shares x's storage", y.storage().is_same(x.storage()), true);
             pytorch().compare(c, "element", "x[0, 2, 2]", y, {&x});
             pytorch().compare_value(c, "element", "bytes_in", static_cast<int64_t>(bytes_in));
             c.value("element_offset", y.storage_offset());
             c.value("element_strides", x.strides());
             PictureOptions narrow;  // 12 cells a row: the figure fits a phone
             narrow.cells_per_row = 12;
             c.figure("element", views_svg({{y, "x[0, 2, 2]"}}, narrow),
                      "x[0, 2, 2]: a 0-d tensor over one cell of x's storage.");
           });

  ch.claim("VW-07",
           "Writing through that 0-d view changes the base: after x[0, 2, 2].fill_(-1), x[0, 2, 2] "
           "is −1.",
           [](book::Check& c) {
             //! [element_write]
             Tensor x = arange(24).reshape({2, 3, 4});
             x.index({0, 2, 2}).fill_(-1);
             //! [element_write]
             c.equal("x[0, 2, 2] afterwards", x.at({0, 2, 2}).to_int(), int64_t{-1},
                     "element_written");
             std::vector<double> expected(24);
             std::iota(expected.begin(), expected.end(), 0.0);
             expected[10] = -1;
             c.equal("every element of x", x.to_vector(), expected);
             pytorch().compare(c, "element_write", "x", x);
           });

  // ---- Slicing ---------------------------------------------------------------------------------------------
  ch.section("slice", "Slicing");

  ch.claim("VW-08",
           "Slicing dim d with start:stop:step (step > 0, bounds in range) adds start·stride[d] "
           "to the offset, makes size[d] = ⌈(stop − start)/step⌉ and stride[d] = step·stride[d]; "
           "on a 20×30×40 tensor 2:15:3 gives size 5 on whichever dim it slices.",
           [](book::Check& c) {
             Generator gen(3);
             Tensor x = rand({20, 30, 40}, gen);
             const int64_t start = 2, stop = 15, step = 3;
             std::vector<std::vector<std::string>> rows;
             for (int64_t d = 0; d < 3; ++d) {
               std::vector<indexing::TensorIndex> idx(3, Slice());
               idx[d] = Slice(start, stop, step);
               Tensor y = x.index(idx);
               const Layout by_hand = slice_by_hand(x, d, start, stop, step);
               const std::string on = " (dim " + std::to_string(d) + ")";
               c.equal("sizes" + on, y.sizes(), by_hand.sizes());
               c.equal("strides" + on, y.strides(), by_hand.strides());
               c.equal("offset" + on, y.storage_offset(), by_hand.storage_offset());
               c.equal("size of the sliced dim" + on, y.size(d), int64_t{5});
               // Values against a gather through x's own indices.
               int64_t agree = 0, n = 0;
               for (const Shape& i : book::all_indices(y.sizes())) {
                 Shape j = i;
                 j[d] = start + i[d] * step;
                 agree += y.at(i).to_double() == x.at(j).to_double();
                 ++n;
               }
               c.equal("elements equal to the gathered ones" + on, agree, n);
               pytorch().compare(c, "slices", std::string("x[") + (d == 0 ? "2:15:3" : ":") + ", " +
                                                   (d == 1 ? "2:15:3" : ":") + ", " +
                                                   (d == 2 ? "2:15:3" : ":") + "]",
                                 y, {&x});
               rows.push_back({"x[" + std::string(d == 0 ? "2:15:3" : ":") + ", " +
                                   std::string(d == 1 ? "2:15:3" : ":") + ", " +
                                   std::string(d == 2 ? "2:15:3" : ":") + "]",
                               book::show(y.sizes()), book::show(y.strides()),
                               book::show(y.storage_offset())});
             }
             c.table("slices", {"slice", "sizes", "strides", "storage offset"}, rows);
             c.value("slice_strides", x.strides());
             c.value("slice_len", (stop - start + step - 1) / step);
             Tensor a = arange(24).view({4, 6});
             Tensor s = a.index({Slice(), Slice(1, 6, 2)});
             PictureOptions narrow;  // the view alone, 12 cells a row, no lines (they would cross)
             narrow.links = false;
             narrow.cells_per_row = 12;
             c.figure("slice", views_svg({{s, "a[:, 1:6:2]"}}, narrow),
                      "a[:, 1:6:2]: every second column from column 1, stride " +
                          book::show(s.stride(1)) + " along each row.");
             c.figure("steps_slice", steps_svg(s, "a[:, 1:6:2]"),
                      "a[:, 1:6:2] as jumps: it starts at offset " + book::show(s.storage_offset()) +
                          "; a row down jumps " + book::show(s.stride(0)) + ", a kept column " +
                          book::show(s.stride(1)) + ".");
           });

  ch.claim("VW-09",
           "Slices share memory: with y = x[0:5] of a 20×20×20 tensor, setting x[0, 0, 0] = 10 "
           "makes y[0, 0, 0] read 10.",
           [](book::Check& c) {
             //! [slice_shares]
             Generator gen(4);
             Tensor x = rand({20, 20, 20}, gen);
             Tensor y = x.index({Slice(0, 5)});  // x[0:5]
             x.set({0, 0, 0}, 10.0);
             //! [slice_shares]
             c.equal("y[0, 0, 0]", y.at({0, 0, 0}).to_double(), 10.0, "slice_read");
             c.equal("y is a view of x", is_view_of(y, x), true);
             pytorch().compare_value(c, "slice_shares", "y[0, 0, 0].item()",
                                     y.at({0, 0, 0}).to_double());
           });

  // ---- Permute ---------------------------------------------------------------------------------------------
  ch.section("permute", "Permuting dims");

  ch.claim("VW-10",
           "permute(p) keeps the storage offset and sets size'[i] = size[p[i]], "
           "stride'[i] = stride[p[i]]; checked on all 3! = 6 permutations of a 2×3×4 tensor.",
           [](book::Check& c) {
             Tensor x = arange(24).view({2, 3, 4});
             Shape p = {0, 1, 2};
             int64_t tried = 0;
             std::vector<std::vector<std::string>> rows;
             do {
               Tensor y = x.permute(p);
               Shape sizes(3), strides(3);
               for (int64_t i = 0; i < 3; ++i) {
                 sizes[i] = x.size(p[i]);
                 strides[i] = x.stride(p[i]);
               }
               const std::string on = " of permute" + perm_text(p);
               c.equal("data_ptr" + on, y.data_ptr() == x.data_ptr(), true);
               c.equal("sizes" + on, y.sizes(), sizes);
               c.equal("strides" + on, y.strides(), strides);
               // y[i] is x[j] with j[p[k]] = i[k].
               int64_t agree = 0;
               for (const Shape& i : book::all_indices(y.sizes())) {
                 Shape j(3);
                 for (int64_t k = 0; k < 3; ++k) j[p[k]] = i[k];
                 agree += y.at(i).to_int() == x.at(j).to_int();
               }
               c.equal("elements" + on, agree, x.numel());
               pytorch().compare(c, "permutes", "x.permute" + perm_text(p), y, {&x});
               rows.push_back(layout_row("x.permute" + perm_text(p), y));
               ++tried;
             } while (std::next_permutation(p.begin(), p.end()));
             c.equal("permutations tried", tried, int64_t{6}, "permutations");
             c.table("permutes", {"view", "sizes", "strides", "storage offset"}, rows);
           });

  ch.claim("VW-11",
           "arange(24).reshape(1,2,3,4) has strides (24,12,4,1); permute(1,2,3,0) gives sizes "
           "(2,3,4,1) and strides (12,4,1,24) over the same storage, and PyTorch calls it "
           "contiguous.",
           [](book::Check& c) {
             //! [permute_size1]
             Tensor t = arange(24).reshape({1, 2, 3, 4});
             Tensor p = t.permute({1, 2, 3, 0});
             //! [permute_size1]
             c.equal("strides of t", t.strides(), Shape{24, 12, 4, 1}, "p1_t_strides");
             c.equal("sizes of p", p.sizes(), Shape{2, 3, 4, 1}, "p1_sizes");
             c.equal("strides of p", p.strides(), Shape{12, 4, 1, 24}, "p1_strides");
             c.equal("same storage", p.storage().is_same(t.storage()), true);
             c.equal("p.is_contiguous()", p.is_contiguous(), true, "p1_contiguous");
             c.equal("p's elements in order are the storage 0..23", p.to_vector(), t.to_vector());
             pytorch().compare(c, "permute_size1", "t.permute(1, 2, 3, 0)", p, {&t});
           });

  ch.erratum("ER-03.permute",
             "permute's result is res[i_1, …, i_N] = t[i_π(1), …, i_π(N)] (PyTorch for "
             "Scientists!, nikitaved); the same notebook's shape and stride snippets also have "
             "unbalanced brackets.",
             "That formula is permute(π⁻¹); permute(π) is res[i_0, …, i_N−1] = t[j] with "
             "j[π(k)] = i_k. The two differ whenever π is not its own inverse, as the 3-cycle "
             "(1, 2, 0).",
             [](book::Check& c) {
               //! [seed_formula]
               Tensor t = arange(24).view({2, 3, 4});
               const Shape pi = {1, 2, 0};
               // The notebook's formula, element by element:
               // res[i0, i1, i2] = t[i_π(0), i_π(1), i_π(2)], where i_π(k) runs over t's dim k.
               Shape sizes(3);
               for (int64_t k = 0; k < 3; ++k) sizes[pi[k]] = t.size(k);
               Tensor res = empty(sizes, {t.dtype()});
               for (const Shape& i : book::all_indices(sizes))
                 res.set(i, t.at({i[pi[0]], i[pi[1]], i[pi[2]]}));
               //! [seed_formula]
               Shape inverse(3);
               for (int64_t k = 0; k < 3; ++k) inverse[pi[k]] = k;
               Tensor by_pi = t.permute(pi);
               Tensor by_inverse = t.permute(inverse);
               c.equal("π⁻¹", inverse, Shape{2, 0, 1}, "erpi_inverse");
               c.equal("formula's sizes == permute(π⁻¹)'s", res.sizes(), by_inverse.sizes(),
                       "erpi_sizes_formula");
               c.equal("formula's elements == permute(π⁻¹)'s", res.to_vector(),
                       by_inverse.to_vector());
               c.equal("formula's sizes == permute(π)'s", res.sizes() == by_pi.sizes(), false);
               pytorch().compare(c, "seed_formula", "res", res);
               pytorch().compare(c, "seed_formula", "t.permute(2, 0, 1)", by_inverse, {&t});
               pytorch().compare(c, "seed_formula", "t.permute(1, 2, 0)", by_pi, {&t});
               c.value("erpi_sizes_pi", by_pi.sizes());
             });

  // ---- Diagonal --------------------------------------------------------------------------------------------
  ch.section("diagonal", "The diagonal");

  ch.claim("VW-12",
           "The diagonal of an n×n matrix keeps data_ptr, has length n and stride "
           "stride[−1] + stride[−2] (all 6 permutations of a 5×5×5 tensor indexed [..., 0]); "
           "of n×m, length min(n, m); offset k > 0 starts k·stride[−1] in, k < 0 |k|·stride[−2].",
           [](book::Check& c) {
             //! [diagonal]
             Tensor x = arange(125).view({5, 5, 5});
             std::vector<std::tuple<Shape, Tensor, Tensor>> diagonals;  // p, matrix, diagonal
             Shape p = {0, 1, 2};
             do {  // every permutation p of (0, 1, 2)
               Tensor y = x.permute(p).index({Ellipsis, 0});  // a 5×5 matrix, strides vary
               diagonals.push_back({p, y, y.diagonal(0, -2, -1)});
             } while (std::next_permutation(p.begin(), p.end()));
             //! [diagonal]
             int64_t tried = 0;
             std::vector<std::vector<std::string>> rows;
             for (const auto& [perm, y, d] : diagonals) {
               const std::string on = " of permute" + perm_text(perm);
               c.equal("data_ptr" + on, d.data_ptr() == y.data_ptr(), true);
               c.equal("length" + on, d.sizes(), Shape{y.size(-1)});
               c.equal("stride" + on, d.strides(), Shape{y.stride(-1) + y.stride(-2)});
               int64_t agree = 0;
               for (int64_t i = 0; i < 5; ++i) agree += d.at({i}).to_int() == y.at({i, i}).to_int();
               c.equal("elements" + on, agree, int64_t{5});
               pytorch().compare(c, "diagonals",
                                 "x.permute" + perm_text(perm) + "[..., 0].diagonal(0, -2, -1)", d,
                                 {&x});
               rows.push_back({"x.permute" + perm_text(perm) + "[..., 0]", book::show(y.strides()),
                               book::show(d.strides())});
               ++tried;
             }
             c.equal("permutations tried", tried, int64_t{6});
             c.table("diagonals", {"matrix", "its strides", "stride of its diagonal"}, rows);

             Tensor m = arange(15).view({3, 5});
             Tensor above = m.diagonal(1), below = m.diagonal(-1), main_d = m.diagonal();
             c.equal("3×5: length of the main diagonal", main_d.size(0), int64_t{3},
                     "diag_main_len");
             c.equal("3×5, k = 1: offset", above.storage_offset(), m.stride(-1));
             c.equal("3×5, k = 1: offset is", above.storage_offset(), int64_t{1},
                     "diag_above_offset");
             c.equal("3×5, k = 1: length", above.size(0), int64_t{3}, "diag_above_len");
             c.equal("3×5, k = −1: offset", below.storage_offset(), m.stride(-2));
             c.equal("3×5, k = −1: offset is", below.storage_offset(), int64_t{5},
                     "diag_below_offset");
             c.equal("3×5, k = −1: length", below.size(0), int64_t{2}, "diag_below_len");
             c.equal("3×5, k = −1: values", below.to_vector(), std::vector<double>{5, 11});
             pytorch().compare(c, "diagonal", "m.diagonal()", main_d, {&m});
             pytorch().compare(c, "diagonal", "m.diagonal(1)", above, {&m});
             pytorch().compare(c, "diagonal", "m.diagonal(-1)", below, {&m});
             c.value("diag_stride", main_d.stride(0));
             c.figure("diagonal", views_svg({{m, "m"}, {above, "m.diagonal(1)"}}),
                      "m.diagonal(1) of a 3×5 matrix: start one column in, step " +
                          book::show(m.stride(0)) + " + " + book::show(m.stride(1)) + " = " +
                          book::show(above.stride(0)) + ".");
           });

  // ---- Transpose -------------------------------------------------------------------------------------------
  ch.section("transpose", "Transpose");

  ch.claim("VW-14",
           "Transposing exchanges two dims' sizes and strides; the storage is not touched.",
           [](book::Check& c) {
             Untouchable u({3, 5}, DType::Int64);
             const Tensor& a = u.tensor();
             const int64_t before = Storage::allocation_count();
             Tensor b = a.t();
             c.equal("a's pages are protected", u.armed(), true);
             c.equal("allocations", Storage::allocation_count() - before, int64_t{0});
             c.equal("sizes", b.sizes(), Shape{a.size(1), a.size(0)}, "t_sizes");
             c.equal("strides", b.strides(), Shape{a.stride(1), a.stride(0)}, "t_strides");
             c.equal("offset", b.storage_offset(), a.storage_offset());
             pytorch().compare(c, "transpose", "a.t()", b, {nullptr, a.storage_offset()});
             c.value("t_source_strides", a.strides());
           });

  ch.claim("VW-13",
           "Transpose is a view, so writes go through: with b = a.t() for a = arange(9).reshape(3,3), "
           "b[0, 0] = 9999 changes a[0, 0], and b[0, 1] = 7777 lands in a[1, 0].",
           [](book::Check& c) {
             //! [transpose_write]
             Tensor a = arange(9).reshape({3, 3});
             Tensor b = a.t();
             b.set({0, 0}, 9999);
             b.set({0, 1}, 7777);
             //! [transpose_write]
             c.equal("a", a.to_vector(), std::vector<double>{9999, 1, 2, 7777, 4, 5, 6, 7, 8});
             Shape landed;
             for (const Shape& i : book::all_indices(a.sizes()))
               if (a.at(i).to_int() == 7777) landed = i;
             c.equal("where 7777 landed in a", landed, Shape{1, 0}, "landed");
             pytorch().compare(c, "transpose_write", "a", a);
             c.text("transpose_write", "a = " + to_string(a) + "\n");
             c.figure("transpose", views_svg({{a, "a"}, {b, "b = a.t()"}}),
                      "b = a.t(): the same nine cells, read down the columns.");
             c.figure("steps_transpose", steps_svg(b, "b = a.t()"),
                      "b = a.t() as jumps: a step along b's rows jumps " + book::show(b.stride(0)) +
                          ", along its columns " + book::show(b.stride(1)) + ".");
           });

  views::rows(ch);
  views::aliases(ch);
  views::dtype(ch);
  views::catalogue(ch);
  views::numpy(ch);
  views::exercises(ch);

  return ch.main(argc, argv);
}
