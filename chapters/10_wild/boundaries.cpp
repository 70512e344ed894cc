// Chapter 10, sections "Crossing a boundary" and "Compilers", and the exercises: NumPy's byte
// strides and Fortran order, a read-only array, DLPack, torch.save of two views, a kernel that
// reads data_ptr() in storage order, flat buffers for collectives and cuDNN, torch.compile
// (SW-11 … SW-16, SW-25, EX-10.1 … EX-10.6).
#include <string>
#include <vector>

#include "10_wild/wild.h"
#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"
#include "strided/layout/layout.h"
#include "strided/layout/memory_format.h"

using namespace strided;
using wild_chapter::f32;
using wild_chapter::f64;
using wild_chapter::pytorch;

namespace {

// Byte strides of a tensor, as NumPy gives them: element strides times the item size.
Shape byte_strides(const Tensor& t) {
  Shape out;
  for (int64_t s : t.strides()) out.push_back(s * t.element_size());
  return out;
}

// Element strides from a recorded list of byte strides and an item size.
Shape element_strides(const nlohmann::json* bytes, int64_t itemsize) {
  Shape out;
  if (bytes && bytes->contains("value"))
    for (const auto& b : (*bytes)["value"]) out.push_back(b.get<int64_t>() / itemsize);
  return out;
}

}  // namespace

Shape wild_chapter::recorded_strides(book::Check& c, const std::string& group,
                                     const std::string& expression) {
  const nlohmann::json* j = pytorch().find(group, expression);
  pytorch().versions(c, group, expression);
  if (!j || !j->contains("strides")) {
    c.fail("no recorded tensor for " + group + " / " + expression);
    return {};
  }
  return (*j)["strides"].get<Shape>();
}

void wild_chapter::boundaries(book::Chapter& ch) {
  // ---- Crossing a boundary ----------------------------------------------------------------------
  ch.section("boundaries", "Crossing a boundary");

  ch.claim("SW-11",
           "torch.from_numpy keeps the array's memory and its strides, divided by the item size: "
           "a (2, 3) float64 array in Fortran order has byte strides (8, 16), and its tensor has "
           "strides (1, 2) and sees a write to the array. np.ascontiguousarray copies it to C "
           "order, byte strides (24, 8), tensor strides (3, 1).",
           [](book::Check& c) {
             //! [numpy]
             Tensor tf = arange(6, f64).view({3, 2}).t();  // Fortran order: strides (1, 2)
             Tensor dense = tf.contiguous();              // C order: a copy, strides (3, 1)
             //! [numpy]
             const nlohmann::json* item = pytorch().find("numpy", "f.itemsize");
             pytorch().versions(c, "numpy", "f.itemsize");
             pytorch().compare_value(c, "numpy", "f.itemsize", tf.element_size());
             const nlohmann::json* bytes = pytorch().find("numpy", "list(f.strides)");
             pytorch().versions(c, "numpy", "list(f.strides)");
             c.equal("NumPy's byte strides", byte_strides(tf),
                     bytes ? (*bytes)["value"].get<Shape>() : Shape{}, "np_bytes");
             c.equal("byte strides / itemsize", element_strides(bytes, item ? (*item)["value"].get<int64_t>() : 1),
                     tf.strides(), "np_elements");
             pytorch().compare_value(c, "numpy", "tf.stride()", tf.strides());
             // The array's first element was set to 42 after from_numpy: the tensor sees it.
             Tensor written = tf.clone();
             written.select(0, 0).select(0, 0).fill_(Scalar(42.0));
             pytorch().compare(c, "numpy", "tf", written);
             pytorch().compare_value(c, "numpy", "tf[0, 0].item()",
                                     written.select(0, 0).select(0, 0).item().to_double());
             pytorch().compare_value(c, "numpy", "np.shares_memory(dense, f)",
                                     dense.storage().is_same(tf.storage()));
             pytorch().compare_value(c, "numpy", "list(dense.strides)", byte_strides(dense));
             pytorch().compare_value(c, "numpy", "torch.from_numpy(dense).stride()", dense.strides());
             c.value("np_dense_bytes", byte_strides(dense));
           });

  ch.claim("SW-12",
           "from_numpy of a read-only array warns (\"The given NumPy array is not writable\") "
           "and returns a tensor that writes anyway: the write to element 0 reaches the array.",
           [](book::Check& c) {
             const nlohmann::json* ro = pytorch().find("numpy", "read_only()");
             pytorch().versions(c, "numpy", "read_only()");
             const bool has = ro && (*ro).contains("value");
             const nlohmann::json v = has ? (*ro)["value"] : nlohmann::json::object();
             const std::string warning = v.contains("warnings") && !v["warnings"].empty()
                                             ? v["warnings"][0].get<std::string>() : "";
             c.that("a warning that names the array as not writable",
                    warning.find("is not writable") != std::string::npos, warning);
             // The array after tr[0] = 7: the library's write through a view of the same memory.
             Tensor arr = arange(4, f64);
             Tensor view = arr.view({4});
             view.select(0, 0).fill_(Scalar(7.0));
             c.equal("ro[0] after the write", v.contains("ro[0]") ? v["ro[0]"].get<double>() : -1.0,
                     arr.select(0, 0).item().to_double(), "ro_value");
             c.value("ro_warning", warning);
           });

  ch.claim("SW-13",
           "DLPack carries the strides: torch.from_dlpack of a (4, 3) transpose with strides "
           "(1, 4) is the same memory with the same strides, and NumPy's from_dlpack gives byte "
           "strides (4, 16).",
           [](book::Check& c) {
             //! [dlpack]
             Tensor t = arange(12, f32).view({3, 4}).t();  // strides (1, 4)
             //! [dlpack]
             pytorch().compare(c, "dlpack", "d", t, {&t});
             pytorch().compare_value(c, "dlpack", "d.data_ptr() == t.data_ptr()",
                                     true);  // DLPack hands over the same memory
             pytorch().compare_value(c, "dlpack",
                                     "list(np.from_dlpack(t).strides) if hasattr(np, 'from_dlpack') else None",
                                     byte_strides(t));
             c.value("dl_bytes", byte_strides(t));
           });

  ch.claim("SW-14",
           "torch.save keeps views sharing: base[:3] and base[2:] of a 6-element float32 tensor, "
           "saved together, load as two tensors over one storage of 24 bytes, the second at "
           "storage offset 2, 8 bytes after the first.",
           [](book::Check& c) {
             //! [save]
             Tensor base = arange(6, f32);
             Tensor v1 = base.slice(0, 0, 3), v2 = base.slice(0, 2, 6);  // 2 elements apart
             //! [save]
             pytorch().compare(c, "save", "l1", v1);
             pytorch().compare(c, "save", "l2", v2);
             pytorch().compare_value(c, "save",
                                     "storage_of(l1).data_ptr() == storage_of(l2).data_ptr()",
                                     v1.storage().is_same(v2.storage()));
             const int64_t apart = (v2.storage_offset() - v1.storage_offset()) * v1.element_size();
             pytorch().compare_value(c, "save", "l2.data_ptr() - l1.data_ptr()", apart);
             pytorch().compare_value(c, "save", "l2.storage_offset()", v2.storage_offset());
             pytorch().compare_value(c, "save", "storage_of(l1).nbytes()", base.storage().nbytes());
             c.equal("bytes apart", apart, int64_t{8}, "save_apart");
             c.equal("storage bytes", base.storage().nbytes(), int64_t{24}, "save_bytes");
           });

  ch.claim("SW-15",
           "A kernel that reads data_ptr() in storage order reads a transpose in the wrong "
           "order: for t = arange(12).view(3, 4).t() it reads 0, 1, 2, … where t's rows are "
           "0, 4, 8, …; t.contiguous() gives it the order it meant.",
           [](book::Check& c) {
             //! [data_ptr]
             Tensor t = arange(12, f32).view({3, 4}).t();
             Tensor raw = t.as_strided({12}, {1}, 0);  // data_ptr() read in order
             Tensor flat = t.contiguous().view({-1});  // t row by row
             //! [data_ptr]
             pytorch().compare_value(c, "data_ptr", "t.is_contiguous()", t.is_contiguous());
             pytorch().compare(c, "data_ptr", "raw", raw);
             pytorch().compare(c, "data_ptr", "flat", flat);
             c.equal("the two orders differ", raw.to_vector() == flat.to_vector(), false);
             const std::vector<double> r = raw.to_vector(), f = flat.to_vector();
             c.value("raw_head", std::vector<double>(r.begin(), r.begin() + 3));
             c.value("flat_head", std::vector<double>(f.begin(), f.begin() + 3));
           });

  ch.claim("SW-25",
           "Collectives and cuDNN's RNNs want one dense buffer. _flatten_dense_tensors packs a "
           "(2, 3) tensor and a (2, 2) transpose into 10 contiguous elements, each in its row-major "
           "order, and _unflatten_dense_tensors returns contiguous views of it at offsets 0 and 6. "
           "parameters_to_vector calls view(-1) and refuses the transpose. On the CPU, "
           "flatten_parameters() leaves an LSTM's 4 weights in 4 storages.",
           [](book::Check& c) {
             //! [buffers]
             Tensor a = arange(6, f32).view({2, 3});
             Tensor b = arange(4, f32).view({2, 2}).t();          // strides (1, 2)
             Tensor flat = empty({a.numel() + b.numel()}, f32);   // one dense buffer
             Tensor a2 = flat.slice(0, 0, 6).view({2, 3});        // views of it, row-major
             Tensor b2 = flat.slice(0, 6, 10).view({2, 2});
             a2.copy_(a);                                         // what cat of the reshapes
             b2.copy_(b);                                         // writes: b's values, b2's layout
             //! [buffers]
             pytorch().compare(c, "buffers", "flat", flat);
             pytorch().compare(c, "buffers", "a2", a2, {&flat});
             pytorch().compare(c, "buffers", "b2", b2, {&flat});
             // PyTorch's own packing (_flatten_dense_tensors, _unflatten_dense_tensors) agrees.
             pytorch().compare_value(c, "buffers", "torch.equal(flat, _flatten_dense_tensors([a, b]))",
                                     true);
             pytorch().compare_value(c, "buffers",
                                     "[u.stride() for u in _unflatten_dense_tensors(flat, [a, b])]",
                                     std::vector<Shape>{a2.strides(), b2.strides()});
             pytorch().compare_value(
                 c, "buffers", "[u.storage_offset() for u in _unflatten_dense_tensors(flat, [a, b])]",
                 std::vector<int64_t>{a2.storage_offset(), b2.storage_offset()});
             pytorch().compare_error(c, "buffers", "torch.nn.utils.parameters_to_vector([pb])",
                                     [&] { (void)b.view({-1}); });
             const nlohmann::json* lstm = pytorch().find("buffers", "lstm_storages()");
             pytorch().versions(c, "buffers", "lstm_storages()");
             c.equal("an LSTM's storages after flatten_parameters() on the CPU",
                     lstm ? (*lstm)["value"].value("after", 0) : 0, 4, "lstm_storages");
             c.equal("and before", lstm ? (*lstm)["value"].value("before", 0) : 0, 4);
             c.equal("offset of the second view", b2.storage_offset(), int64_t{6}, "flat_offset");
           });

  // ---- Compilers --------------------------------------------------------------------------------
  ch.section("compile", "Compilers");

  ch.claim("SW-16",
           "Eager f(x) = x.t() * 2 of a (3, 4) x has x.t()'s strides (1, 4). PyTorch 1.13 has no "
           "torch.compile; 2.6 has it, and on this machine it fails for want of a C++ compiler.",
           [](book::Check& c) {
             //! [compile]
             Tensor xc = arange(12, f32).view({3, 4});
             Tensor eager = xc.t() * 2.0;  // strides (1, 4), as xc.t()
             //! [compile]
             pytorch().compare(c, "compile", "f2(xc)", eager);
             c.equal("eager strides", eager.strides(), xc.t().strides(), "eager_strides");
             const nlohmann::json* has = pytorch().find("compile", "hasattr(torch, 'compile')");
             pytorch().versions(c, "compile", "hasattr(torch, 'compile')");
             c.equal("2.6 has torch.compile", has ? (*has)["value"].get<bool>() : false, true);
             const nlohmann::json* got = pytorch().find("compile", "compiled_layout()");
             pytorch().versions(c, "compile", "compiled_layout()");
             const std::string what = got && (*got)["value"].is_string()
                                          ? (*got)["value"].get<std::string>() : "";
             c.that("2.6's compile fails for want of a C++ compiler",
                    what.find("InvalidCxxCompiler") != std::string::npos, what);
             c.value("compile_failure", what);
           });
}

void wild_chapter::exercises(book::Chapter& ch) {
  ch.section("exercises", "Exercises");

  ch.claim("EX-10.1",
           "einsum('ij->ji', x) of a (2, 3) x is a view with strides (1, 3), x's transpose.",
           [](book::Check& c) {
             Tensor e1 = arange(6, f32).view({2, 3});
             Tensor v = e1.t();
             pytorch().compare(c, "exercises", "torch.einsum('ij->ji', e1)", v, {&e1});
             c.equal("strides", v.strides(), Shape{1, 3}, "ex1_strides");
           });

  ch.claim("EX-10.2",
           "cat of a (2, 3, 4, 5) channels-last tensor with itself along dim 1 has strides "
           "(120, 1, 30, 6): channels last of (2, 6, 4, 5).",
           [](book::Check& c) {
             const Shape s = memory_format_strides({2, 6, 4, 5}, MemoryFormat::ChannelsLast);
             const Shape got = pytorch().find("cat", "torch.cat([a, a], 1).stride()")
                                   ? (*pytorch().find("cat", "torch.cat([a, a], 1).stride()"))["value"].get<Shape>()
                                   : Shape{};
             pytorch().versions(c, "cat", "torch.cat([a, a], 1).stride()");
             c.equal("strides", got, s, "ex2_strides");
           });

  ch.claim("EX-10.3",
           "arange(60.).view(3, 4, 5).sum(1, keepdim=True) has strides (5, 5, 1).",
           [](book::Check& c) {
             Tensor r = sum(arange(60, f32).view({3, 4, 5}), 1, true);
             pytorch().compare_value(c, "exercises",
                                     "torch.arange(60.).view(3, 4, 5).sum(1, keepdim=True).stride()",
                                     r.strides());
             c.equal("strides", r.strides(), Shape{5, 5, 1}, "ex3_strides");
           });

  ch.claim("EX-10.4",
           "np.zeros((3, 4), dtype=np.float32, order='F') has byte strides (4, 12); from_numpy "
           "gives strides (1, 3).",
           [](book::Check& c) {
             Tensor e4 = zeros({4, 3}, f32).t();  // Fortran order: the transpose of a C-order (4, 3)
             pytorch().compare_value(c, "exercises", "list(e4.strides)", byte_strides(e4));
             pytorch().compare_value(c, "exercises", "torch.from_numpy(e4).stride()", e4.strides());
             c.equal("strides", e4.strides(), Shape{1, 3}, "ex4_strides");
             c.value("ex4_bytes", byte_strides(e4));
           });

  ch.claim("EX-10.5",
           "zeros(1, 5).expand(1000, 5).clone() has strides (5, 1) and a storage of 20000 bytes.",
           [](book::Check& c) {
             Tensor e5 = zeros({1, 5}, f32).expand({1000, 5}).clone();
             pytorch().compare_value(c, "exercises", "e5.clone().stride()", e5.strides());
             pytorch().compare_value(c, "exercises", "storage_of(e5.clone()).nbytes()",
                                     e5.storage().nbytes());
             c.equal("strides", e5.strides(), Shape{5, 1}, "ex5_strides");
             c.equal("bytes", e5.storage().nbytes(), int64_t{20000}, "ex5_bytes");
           });

  ch.claim("EX-10.6",
           "Of softmax(-1) and sum(-1) of an (8, 32, 16) transpose, softmax copies it first, "
           "16384 bytes, and sum copies nothing.",
           [](book::Check& c) {
             const Tensor xt = arange(4096, f32).view({8, 16, 32}).transpose(1, 2);
             const nlohmann::json* got = pytorch().find("inside", "hidden_copies(xt)");
             pytorch().versions(c, "inside", "hidden_copies(xt)");
             const nlohmann::json v = got ? (*got)["value"] : nlohmann::json::object();
             c.equal("softmax copies", v.value("softmax", false), !xt.is_contiguous());
             c.equal("sum copies", v.value("sum", true), false);
             const int64_t before = Storage::allocated_bytes();
             (void)xt.contiguous();
             c.equal("bytes of softmax's copy", Storage::allocated_bytes() - before, int64_t{16384},
                     "ex6_bytes");
           });
}
