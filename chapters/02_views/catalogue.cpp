// Chapter 2, section "A catalogue of views": one row per view op of PyTorch's "Tensor Views" list,
// each with its rule for sizes, strides and offset, computed here from the operand's metadata
// alone, and the op as the library runs it. The complex views act on z (complex64) or f (float32);
// the strides of a real view of z count float32 elements, as torch's do (ComplexHelper.h). Each row
// is a claim (VW-19.<row>) checked against the library and against PyTorch's recorded answer for
// the row's expression (chapters/02_views.py, group "catalogue"); the rows are laid out as a table.

#include <algorithm>
#include <cctype>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "02_views/views.h"
#include "book/book.h"
#include "strided/layout/layout.h"
#include "strided/memory/memory.h"
#include "strided/strided.h"

using namespace strided;

using views::pytorch;

namespace {

// A plain record of sizes, strides and storage offset, not the library's Layout: the rules below
// are worked by hand, field by field, apart from the layout algebra they check.
struct L {
  Shape sizes;
  Shape strides;
  int64_t storage_offset = 0;
};

// ---- the rules' steps, on metadata alone ---------------------------------------------------------
L of(const Tensor& t) { return {t.sizes(), t.strides(), t.storage_offset()}; }
L narrow(L g, int64_t d, int64_t start, int64_t length) {  // size[d] ← length
  g.storage_offset += start * g.strides[d];
  g.sizes[d] = length;
  return g;
}
L drop(L g, int64_t d, int64_t i) {  // select: dim d goes, the offset moves i strides
  g.storage_offset += i * g.strides[d];
  g.sizes.erase(g.sizes.begin() + d);
  g.strides.erase(g.strides.begin() + d);
  return g;
}
L permute(const L& g, const Shape& order) {
  L out{{}, {}, g.storage_offset};
  for (int64_t d : order) {
    out.sizes.push_back(g.sizes[d]);
    out.strides.push_back(g.strides[d]);
  }
  return out;
}
L swap(const L& g, int64_t a, int64_t b) {
  Shape order(g.sizes.size());
  for (size_t d = 0; d < order.size(); ++d) order[d] = static_cast<int64_t>(d);
  std::swap(order[a], order[b]);
  return permute(g, order);
}
L insert(L g, int64_t d, int64_t size, int64_t stride) {
  g.sizes.insert(g.sizes.begin() + d, size);
  g.strides.insert(g.strides.begin() + d, stride);
  return g;
}
L dense(const L& g, const Shape& sizes) {  // a view of a contiguous operand
  return {sizes, contiguous_strides(sizes), g.storage_offset};
}

// view(dtype) between element sizes n and n·r (r = 2 for float32 and complex64): the last dim
// holds r times fewer elements, every other stride and the offset count r times fewer.
L coarser(L g, int64_t r) {
  g.sizes.back() /= r;
  for (size_t d = 0; d + 1 < g.strides.size(); ++d) g.strides[d] /= r;
  g.storage_offset /= r;
  return g;
}
// view_as_real (ComplexHelper.h, view_complex_as_float): each element becomes a pair of reals.
L as_real(L g) {
  for (int64_t& s : g.strides) s *= 2;
  g.storage_offset *= 2;
  return insert(g, static_cast<int64_t>(g.sizes.size()), 2, 1);
}
// view_as_complex: the last dim (size 2, stride 1) goes, the rest count complex elements.
L as_complex(L g) {
  g.sizes.pop_back();
  g.strides.pop_back();
  for (int64_t& s : g.strides) s /= 2;
  g.storage_offset /= 2;
  return g;
}

L expanded(L g) {  // x[:, :1] expanded back to x's sizes: dim 1 grows with stride 0
  g.strides[1] = 0;
  return g;
}

// The operands: x = arange(24).view(2, 3, 4) (int64); f, the same in float32; z, complex64 with
// f's values as its real parts and zero imaginary parts, built through z.real().
enum class Base { x, f, z };
Tensor operand(Base b) {
  const Tensor f = arange(24, {DType::Float32}).view({2, 3, 4});
  if (b == Base::f) return f;
  if (b == Base::x) return arange(24).view({2, 3, 4});
  Tensor z = zeros({2, 3, 4}, {DType::Complex64});
  z.real().copy_(f);
  return z;
}
const char* base_name(Base b) { return b == Base::x ? "x" : b == Base::f ? "f" : "z"; }

struct Row {
  const char* id;       // the claim is VW-19.<id>
  const char* op;       // the op as PyTorch writes it, on its operand
  const char* rule;     // sizes, strides and offset of the result, in one line
  std::function<Tensor(const Tensor&)> library;  // the op through the library, on the operand
  std::function<L(const L&)> by_rule;            // the rule, on the operand's metadata
  Base base = Base::x;
  bool conj = false;  // the rule sets the conjugate bit (is_conj)
};

// x is arange(24).view(2, 3, 4): sizes (2, 3, 4), strides (12, 4, 1), offset 0.
const std::vector<Row>& catalogue_rows() {
  static const std::vector<Row> table = {
      {"select", "x.select(1, 2)", "drop dim d; offset + i·stride[d]",
       [](const Tensor& x) { return x.select(1, 2); }, [](const L& g) { return drop(g, 1, 2); }},
      {"unbind", "x.unbind(1)[2]", "output i is select(d, i), for i < size[d]",
       [](const Tensor& x) { return x.unbind(1)[2]; }, [](const L& g) { return drop(g, 1, 2); }},
      {"slice", "x[:, :, 1:4:2]",
       "size[d] = ⌈(stop − start) / step⌉, stride[d]·step; offset + start·stride[d]",
       [](const Tensor& x) { return x.slice(2, 1, 4, 2); },
       [](const L& g) {
         L s = narrow(g, 2, 1, 2);
         s.strides[2] *= 2;
         return s;
       }},
      {"narrow", "x.narrow(2, 1, 2)", "size[d] = length; offset + start·stride[d]",
       [](const Tensor& x) { return x.narrow(2, 1, 2); },
       [](const L& g) { return narrow(g, 2, 1, 2); }},
      {"split", "x.split(3, 2)[1]", "output i is narrow(d, i·s, min(s, size[d] − i·s))",
       [](const Tensor& x) { return x.split(3, 2)[1]; },
       [](const L& g) { return narrow(g, 2, 3, 1); }},
      {"split_with_sizes", "x.split_with_sizes([1, 2], 1)[1]",
       "output i is narrow(d, s₀ + … + sᵢ₋₁, sᵢ); the sᵢ sum to size[d]",
       [](const Tensor& x) { return x.split_with_sizes({1, 2}, 1)[1]; },
       [](const L& g) { return narrow(g, 1, 1, 2); }},
      {"chunk", "x.chunk(2, 1)[1]", "split(⌈size[d] / chunks⌉, d)",
       [](const Tensor& x) { return x.chunk(2, 1)[1]; },
       [](const L& g) { return narrow(g, 1, 2, 1); }},
      {"tensor_split", "x.tensor_split(3, 2)[1]",
       "n narrows of size[d] div n, the first size[d] mod n one longer",
       [](const Tensor& x) { return x.tensor_split(3, 2)[1]; },
       [](const L& g) { return narrow(g, 2, 2, 1); }},
      {"tensor_split.indices", "x.tensor_split([1, 3], 2)[1]",
       "output i is slice(d, indices[i − 1], indices[i])",
       [](const Tensor& x) { return x.tensor_split({1, 3}, 2)[1]; },
       [](const L& g) { return narrow(g, 2, 1, 2); }},
      {"hsplit", "x.hsplit(3)[2]", "tensor_split on dim 1 (dim 0 of a 1-d tensor)",
       [](const Tensor& x) { return x.hsplit(3)[2]; },
       [](const L& g) { return narrow(g, 1, 2, 1); }},
      {"vsplit", "x.vsplit([1])[1]", "tensor_split on dim 0",
       [](const Tensor& x) { return x.vsplit({1})[1]; },
       [](const L& g) { return narrow(g, 0, 1, 1); }},
      {"dsplit", "x.dsplit(2)[1]", "tensor_split on dim 2",
       [](const Tensor& x) { return x.dsplit(2)[1]; },
       [](const L& g) { return narrow(g, 2, 2, 2); }},
      {"permute", "x.permute(2, 0, 1)", "sizes[p], strides[p]; offset kept",
       [](const Tensor& x) { return x.permute({2, 0, 1}); },
       [](const L& g) { return permute(g, {2, 0, 1}); }},
      {"transpose", "x.transpose(0, 2)", "swap dims d0 and d1",
       [](const Tensor& x) { return x.transpose(0, 2); }, [](const L& g) { return swap(g, 0, 2); }},
      {"swapaxes", "x.swapaxes(0, 2)", "transpose", [](const Tensor& x) { return x.swapaxes(0, 2); },
       [](const L& g) { return swap(g, 0, 2); }},
      {"swapdims", "x.swapdims(0, 2)", "transpose", [](const Tensor& x) { return x.swapdims(0, 2); },
       [](const L& g) { return swap(g, 0, 2); }},
      {"t", "x[0].t()", "transpose(0, 1), for at most 2 dims",
       [](const Tensor& x) { return x.select(0, 0).t(); },
       [](const L& g) { return swap(drop(g, 0, 0), 0, 1); }},
      {"mT", "x.mT", "transpose(−2, −1); a 0-d tensor is itself",
       [](const Tensor& x) { return x.mT(); }, [](const L& g) { return swap(g, 1, 2); }},
      {"movedim", "x.movedim(0, 2)", "permute: dim s moves to d, the others keep their order",
       [](const Tensor& x) { return x.movedim(0, 2); },
       [](const L& g) { return permute(g, {1, 2, 0}); }},
      {"moveaxis", "x.moveaxis(0, 2)", "movedim", [](const Tensor& x) { return x.moveaxis(0, 2); },
       [](const L& g) { return permute(g, {1, 2, 0}); }},
      {"diagonal", "x.diagonal(1, 1, 2)",
       "drop d1, d2; append min(size[d1], size[d2] − k), stride[d1] + stride[d2]; offset + "
       "k·stride[d2]",
       [](const Tensor& x) { return x.diagonal(1, 1, 2); },
       [](const L& g) {
         return L{{g.sizes[0], std::min(g.sizes[1], g.sizes[2] - 1)},
                  {g.strides[0], g.strides[1] + g.strides[2]}, g.storage_offset + g.strides[2]};
       }},
      {"expand", "x[:, :1].expand(2, 3, 4)", "a size-1 dim grows to n with stride 0",
       [](const Tensor& x) { return x.slice(1, 0, 1).expand({2, 3, 4}); },
       [](const L& g) { return expanded(g); }},
      {"broadcast_to", "x[:, :1].broadcast_to((2, 3, 4))", "expand",
       [](const Tensor& x) { return x.slice(1, 0, 1).broadcast_to({2, 3, 4}); },
       [](const L& g) { return expanded(g); }},
      {"expand_as", "x[:, :1].expand_as(x)", "expand(y.size())",
       [](const Tensor& x) { return x.slice(1, 0, 1).expand_as(x); },
       [](const L& g) { return expanded(g); }},
      {"unsqueeze", "x.unsqueeze(1)", "insert size 1 at d, stride size[d]·stride[d]",
       [](const Tensor& x) { return x.unsqueeze(1); },
       [](const L& g) { return insert(g, 1, 1, g.sizes[1] * g.strides[1]); }},
      {"squeeze", "x[:, :1].squeeze(1)", "drop dim d of size 1",
       [](const Tensor& x) { return x.slice(1, 0, 1).squeeze(1); },
       [](const L& g) { return drop(g, 1, 0); }},
      {"atleast_1d", "torch.atleast_1d(x[0, 0, 0])", "a 0-d tensor becomes size [1], stride [1]",
       [](const Tensor& x) { return atleast_1d(x.select(0, 0).select(0, 0).select(0, 0)); },
       [](const L&) { return L{{1}, {1}, 0}; }},
      {"atleast_2d", "torch.atleast_2d(x[0, 0])", "[n] becomes unsqueeze(0): [1, n]",
       [](const Tensor& x) { return atleast_2d(x.select(0, 0).select(0, 0)); },
       [](const L& g) {
         const L v = drop(drop(g, 0, 0), 0, 0);
         return insert(v, 0, 1, v.sizes[0] * v.strides[0]);
       }},
      {"atleast_3d", "torch.atleast_3d(x[0])", "[m, n] becomes unsqueeze(−1): [m, n, 1]",
       [](const Tensor& x) { return atleast_3d(x.select(0, 0)); },
       [](const L& g) { return insert(drop(g, 0, 0), 2, 1, 1); }},
      {"view", "x.view(4, 6)", "strides from computeStride; row-major for a contiguous x",
       [](const Tensor& x) { return x.view({4, 6}); }, [](const L& g) { return dense(g, {4, 6}); }},
      {"view_as", "x.view_as(torch.zeros(4, 6))", "view(y.size())",
       [](const Tensor& x) { return x.view_as(zeros({4, 6})); },
       [](const L& g) { return dense(g, {4, 6}); }},
      {"reshape", "x.reshape(6, 4)", "view when computeStride allows, else a copy",
       [](const Tensor& x) { return x.reshape({6, 4}); }, [](const L& g) { return dense(g, {6, 4}); }},
      {"reshape_as", "x.reshape_as(torch.zeros(6, 4))", "reshape(y.size())",
       [](const Tensor& x) { return x.reshape_as(zeros({6, 4})); },
       [](const L& g) { return dense(g, {6, 4}); }},
      {"flatten", "x.flatten(1)", "reshape with dims s … e merged",
       [](const Tensor& x) { return x.flatten(1); }, [](const L& g) { return dense(g, {2, 12}); }},
      {"unflatten", "x.unflatten(2, (2, 2))", "view with dim d split into sizes",
       [](const Tensor& x) { return x.unflatten(2, {2, 2}); },
       [](const L& g) { return dense(g, {2, 3, 2, 2}); }},
      {"unfold", "x.unfold(2, 2, 1)",
       "size[d] = (size[d] − n) / step + 1, stride[d]·step; append n, stride[d]",
       [](const Tensor& x) { return x.unfold(2, 2, 1); },
       [](const L& g) { return insert(narrow(g, 2, 0, (g.sizes[2] - 2) / 1 + 1), 3, 2, g.strides[2]); }},
      {"as_strided", "x.as_strided((3, 3), (1, 3), 2)", "the sizes, strides and offset given",
       [](const Tensor& x) { return x.as_strided({3, 3}, {1, 3}, 2); },
       [](const L&) { return L{{3, 3}, {1, 3}, 2}; }},
      {"view_dtype", "x.view(torch.int32)",
       "r = 8 / 4: size[−1]·r, the other strides·r, offset·r",
       [](const Tensor& x) { return x.view(DType::Int32); },
       [](const L& g) {
         return L{{g.sizes[0], g.sizes[1], g.sizes[2] * 2}, {g.strides[0] * 2, g.strides[1] * 2, 1},
                  g.storage_offset * 2};
       }},
      {"view_as_real", "torch.view_as_real(z)", "sizes + [2]; strides·2 + [1]; offset·2",
       [](const Tensor& z) { return view_as_real(z); }, as_real, Base::z},
      {"view_as_complex", "torch.view_as_complex(f.view(2, 3, 2, 2))",
       "drop the last dim (size 2, stride 1); strides / 2; offset / 2",
       [](const Tensor& f) { return view_as_complex(f.view({2, 3, 2, 2})); },
       [](const L& g) { return as_complex(dense(g, {2, 3, 2, 2})); }, Base::f},
      {"real", "z.real", "view_as_real(z).select(−1, 0)", [](const Tensor& z) { return z.real(); },
       [](const L& g) { return drop(as_real(g), 3, 0); }, Base::z},
      {"imag", "z.imag", "view_as_real(z).select(−1, 1): offset 2·offset + 1",
       [](const Tensor& z) { return z.imag(); }, [](const L& g) { return drop(as_real(g), 3, 1); },
       Base::z},
      {"conj", "z.conj()", "sizes, strides and offset kept; the conjugate bit set",
       [](const Tensor& z) { return z.conj(); }, [](const L& g) { return g; }, Base::z, true},
      {"H", "z[0].H", "transpose(0, 1).conj(), for 2 dims",
       [](const Tensor& z) { return z.select(0, 0).H(); },
       [](const L& g) { return swap(drop(g, 0, 0), 0, 1); }, Base::z, true},
      {"mH", "z.mH", "transpose(−2, −1).conj()", [](const Tensor& z) { return z.mH(); },
       [](const L& g) { return swap(g, 1, 2); }, Base::z, true},
      {"adjoint", "z.adjoint()", "mH", [](const Tensor& z) { return z.adjoint(); },
       [](const L& g) { return swap(g, 1, 2); }, Base::z, true},
      {"view_dtype.complex", "f.view(torch.complex64)",
       "r = 8 / 4: size[−1] / r, the other strides / r, offset / r",
       [](const Tensor& f) { return f.view(DType::Complex64); },
       [](const L& g) { return coarser(g, 2); }, Base::f},
      {"detach", "x.detach()", "the same sizes, strides and offset",
       [](const Tensor& x) { return x.detach(); }, [](const L& g) { return g; }},
      {"alias", "torch.ops.aten.alias(x)", "the same sizes, strides and offset",
       [](const Tensor& x) { return x.alias(); }, [](const L& g) { return g; }},
  };
  return table;
}

// VW-19.<row>: the row's id in lower case, letters and digits only (split_with_sizes: splitwithsizes).
std::string catalogue_id(const Row& r) {
  std::string id = "VW-19.";
  for (const char* p = r.id; *p; ++p)
    if (std::isalnum(static_cast<unsigned char>(*p))) id += static_cast<char>(std::tolower(*p));
  return id;
}

// A row holds when the library's view of its operand shares the operand's storage, has the sizes,
// strides and offset (and, for the complex rows, the conjugate bit) the row's rule computes from
// the operand's metadata, and is PyTorch's answer.
void check_catalogue_row(book::Check& c, const Row& r) {
  const Tensor x = operand(r.base);
  const Tensor v = r.library(x);
  const L rule = r.by_rule(of(x));
  c.equal("sizes, by the rule", book::show(v.sizes()), book::show(rule.sizes));
  c.equal("strides, by the rule", book::show(v.strides()), book::show(rule.strides));
  c.equal("offset, by the rule", v.storage_offset(), rule.storage_offset);
  c.equal(std::string("shares ") + base_name(r.base) + "'s storage",
          v.storage().is_same(x.storage()), true);
  pytorch().compare(c, "catalogue", r.op, v, {&x});
  if (r.base != Base::x) {
    c.equal("the conjugate bit, by the rule", v.is_conj(), r.conj);
    pytorch().compare_value(c, "catalogue", std::string("(") + r.op + ").is_conj()", v.is_conj());
  }
}

}  // namespace

void views::catalogue(book::Chapter& ch) {
  // ---- A catalogue of views ------------------------------------------------------------------------
  ch.section("catalogue", "A catalogue of views");

  ch.exhibit([](book::Exhibit& e) {
    std::vector<std::vector<std::string>> rows;
    for (const Row& r : catalogue_rows()) {
      const Tensor v = r.library(operand(r.base));
      rows.push_back({r.op, r.rule, book::show(v.sizes()), book::show(v.strides()),
                      book::show(v.storage_offset())});
    }
    e.table("catalogue", {"view", "its rule", "sizes", "strides", "offset"}, rows);
  });
  for (const Row& r : catalogue_rows())
    ch.claim(catalogue_id(r),
             std::string(r.op) + " is a view of " + base_name(r.base) + ": " + r.rule + ".",
             [&r](book::Check& c) { check_catalogue_row(c, r); });

  ch.claim("VW-21",
           "The ops with several outputs return one view per part: every output of x.unbind(1), "
           "x.split(3, 2), x.chunk(2, 1) and x.tensor_split([1, 3], 2) shares x's storage and is "
           "PyTorch's answer, and the parts of each op hold every element of x once.",
           [](book::Check& c) {
             const Tensor x = operand(Base::x);
             const std::vector<std::pair<std::string, std::vector<Tensor>>> ops = {
                 {"x.unbind(1)", x.unbind(1)},
                 {"x.split(3, 2)", x.split(3, 2)},
                 {"x.chunk(2, 1)", x.chunk(2, 1)},
                 {"x.tensor_split([1, 3], 2)", x.tensor_split(IntList{1, 3}, 2)}};
             for (const auto& op : ops) {
               pytorch().compare_value(c, "several_outputs", "len(" + op.first + ")",
                                       static_cast<int64_t>(op.second.size()));
               std::vector<int64_t> cells;  // the storage offsets of all parts together
               for (size_t i = 0; i < op.second.size(); ++i) {
                 const Tensor& part = op.second[i];
                 pytorch().compare(c, "several_outputs", op.first + "[" + std::to_string(i) + "]",
                                   part, {&x});
                 const std::vector<int64_t> own = memory_set(part);
                 cells.insert(cells.end(), own.begin(), own.end());
               }
               std::sort(cells.begin(), cells.end());
               c.equal(op.first + ": its parts hold every element of x once", cells,
                       memory_set(x));
             }
           });

  ch.claim("VW-20",
           "PyTorch, 1.13 and 2.6 alike, returns z.conj().imag as a view with a negative bit, its "
           "elements read negated, which resolve_neg() resolves into a copy; the library, which "
           "has no negative bit, refuses the expression and names resolve_conj() as the way on.",
           [](book::Check& c) {
             const Tensor z = operand(Base::z);
             pytorch().compare_value(c, "imag_of_conj", "z.conj().imag.is_neg()", true);
             // resolve_neg() clears the bit by copying the negated values out.
             pytorch().compare_value(c, "imag_of_conj", "z.conj().imag.resolve_neg().is_neg()",
                                     false);
             pytorch().compare_value(c, "imag_of_conj", "z.conj().imag.resolve_neg()._is_view()",
                                     false);
             c.throws("the library refuses z.conj().imag", [&] { (void)z.conj().imag(); },
                      "resolve_conj()");
             const Tensor resolved = z.conj().resolve_conj();
             c.equal("after resolve_conj(), imag is a view of the copy",
                     resolved.imag().storage().is_same(resolved.storage()), true);
           });
}
