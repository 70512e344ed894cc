// Chapter 10, section "Devices": what a copy to another device allocates, checked on the CPU
// against PyTorch's "meta" device and, where a CUDA device is, by copying (SW-20, SW-21), and
// pinned memory on a machine without one (SW-22).
#include <string>
#include <vector>

#include "10_wild/wild.h"

#if __has_include("strided/cuda/to_device.h")
#include "strided/cuda/runtime.h"
#include "strided/cuda/to_device.h"
#define WILD_HAVE_CUDA_API 1
#else
#define WILD_HAVE_CUDA_API 0
#endif

using namespace strided;
using wild_chapter::f32;
using wild_chapter::pytorch;

namespace {

// The four views of the section, each with the companion's expression for its copy's layout.
struct Moved {
  std::string expression;
  Tensor view;
};
std::vector<Moved> moved_views(const Tensor& x) {
  return {{"moved_layout(rows)", x.slice(0, 1, 3)},
          {"moved_layout(cols)", x.slice(1, 0, 4, 2)},
          {"moved_layout(x.t())", x.t()},
          {"moved_layout(x.t()[:, ::2])", x.t().slice(1, 0, 3, 2)},
          {"moved_layout(wide)", arange(3, f32).view({3, 1}).expand({3, 1000})}};
}

}  // namespace

void wild_chapter::devices(book::Chapter& ch) {
  ch.section("devices", "Devices");

  ch.claim("SW-20",
           "A copy to another device allocates only the elements the view reaches, laid out "
           "densely from offset 0: x[1:] of a (3, 4) float32 tensor takes 32 bytes with strides "
           "(4, 1), x[:, ::2] 24 bytes with strides (2, 1), and x.t() keeps its strides (1, 4). "
           "An expanded (3, 1000) view of 3 elements takes 12000 bytes.",
           [](book::Check& c) {
#if WILD_HAVE_CUDA_API
             //! [device]
             Tensor x = arange(12, f32).view({3, 4});
             Tensor rows = x.slice(0, 1, 3);      // x[1:]: dense, 8 elements
             Tensor cols = x.slice(1, 0, 4, 2);   // x[:, ::2]: holes between its elements
             Shape moved = cuda::device_copy_strides(cols);  // (2, 1): packed densely
             //! [device]
             for (const Moved& m : moved_views(x)) {
               const nlohmann::json layout = {
                   {"strides", cuda::device_copy_strides(m.view)},
                   {"offset", 0},
                   {"nbytes", m.view.numel() * m.view.element_size()}};
               pytorch().compare_value(c, "device", m.expression, layout);
             }
             c.equal("strides of x[:, ::2] on another device", moved, Shape{2, 1}, "device_cols");
             c.value("device_rows_bytes", rows.numel() * 4);
             c.value("device_rows_base_bytes", x.storage().nbytes());
#else
             c.not_run("this build has no kernels/ (strided/cuda/to_device.h)");
#endif
           });

  ch.claim("SW-21",
           "On a CUDA device, to_cuda of the same five views allocates exactly the layout and the "
           "bytes of SW-20, and brings back the same values.",
           [](book::Check& c) {
#if WILD_HAVE_CUDA_API
             if (!book::gpu().available) return c.not_run(book::gpu().reason);
             const Tensor x = arange(12, f32).view({3, 4});
             for (const Moved& m : moved_views(x)) {
               const Tensor d = cuda::to_cuda(m.view);
               c.equal(m.expression + ": strides", d.strides(), cuda::device_copy_strides(m.view));
               c.equal(m.expression + ": bytes", d.storage().nbytes(),
                       m.view.numel() * m.view.element_size());
               c.equal(m.expression + ": values", cuda::to_cpu(d).to_vector(), m.view.to_vector());
             }
#else
             c.not_run(book::gpu().reason);
#endif
           })
      .needs_gpu(book::Kind::Exact);

  ch.claim("SW-22",
           "Pinned memory needs a CUDA runtime: on a machine without one, pin_memory() is refused "
           "(PyTorch 1.13 with NotImplementedError, 2.6 with RuntimeError), and the library's "
           "to_cuda is refused too.",
           [](book::Check& c) {
             const nlohmann::json* pin = pytorch().find("device", "pin(cols)");
             pytorch().versions(c, "device", "pin(cols)");
             pytorch().compare_value(c, "device", "torch.cuda.is_available()", false);
             c.equal("PyTorch 2.6 refuses pin_memory()",
                     pin && (*pin)["value"].contains("error"), true, "pin_refused");
             if (pin && (*pin)["value"].contains("error"))
               c.value("pin_error", (*pin)["value"]["error"].get<std::string>());
#if WILD_HAVE_CUDA_API
             if (book::gpu().available) return c.not_run("this machine has a CUDA device");
             c.throws("to_cuda without a CUDA device",
                      [] { (void)cuda::to_cuda(arange(4, f32)); }, "cuda::to_device: no CUDA device");
#endif
           });
}
