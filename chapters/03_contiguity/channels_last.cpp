// Chapter 3, section "Channels last": PyTorch's second dense order for 4-d tensors, what
// contiguous(memory_format=channels_last) copies and what it returns as it is (CT-11.channels), and
// how channels-last contiguity skips size-1 dims as contiguity does (CT-02.channels).
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "03_contiguity/contiguity.h"
#include "book/book.h"
#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"
#include "strided/pictures/picture.h"
#include "strided/strided.h"

using namespace strided;
using contiguity::pytorch;

void contiguity::channels_last(book::Chapter& ch) {
  // ---- Channels last ---------------------------------------------------------------------------
  ch.section("channels_last", "Channels last");

  ch.claim("CT-11.channels",
           "For a 4-d (N, C, H, W) tensor, contiguous(memory_format=channels_last) copies it into "
           "the strides (H·W·C, 1, W·C, C), (24, 1, 12, 3) for arange(48).view(2, 3, 2, 4): the "
           "same values, channels-last contiguous and not contiguous. On a channels-last tensor "
           "it returns the tensor itself; clone() and empty_like keep its strides "
           "(preserve_format), and contiguous() copies it back to (24, 8, 4, 1).",
           [](book::Check& c) {
             //! [channels_last]
             Tensor x = arange(48).view({2, 3, 2, 4});                // N, C, H, W
             Tensor y = x.contiguous(MemoryFormat::ChannelsLast);     // a copy
             Tensor same = y.contiguous(MemoryFormat::ChannelsLast);  // y itself
             Tensor kept = y.clone();                                 // preserve_format
             Tensor back = y.contiguous();                            // NCHW again
             //! [channels_last]
             const int64_t C = x.size(1), H = x.size(2), W = x.size(3);
             c.equal("y.stride() = (H·W·C, 1, W·C, C)", y.strides(), Shape{H * W * C, 1, W * C, C});
             c.equal("y.stride()", y.strides(), Shape{24, 1, 12, 3}, "cl_y_strides");
             c.equal("y's values are x's", y.to_vector(), x.to_vector());
             c.equal("y.is_contiguous()", y.is_contiguous(), false);
             c.equal("y.is_contiguous(memory_format=channels_last)",
                     y.is_contiguous(MemoryFormat::ChannelsLast), true);
             c.equal("x.is_contiguous(memory_format=channels_last)",
                     x.is_contiguous(MemoryFormat::ChannelsLast), false);
             const int64_t copy_allocations =
                 book::allocations_during([&] { (void)x.contiguous(MemoryFormat::ChannelsLast); });
             const int64_t same_allocations =
                 book::allocations_during([&] { (void)y.contiguous(MemoryFormat::ChannelsLast); });
             c.equal("allocations by x.contiguous(memory_format=channels_last)", copy_allocations,
                     int64_t{1}, "cl_copy_allocations");
             c.equal("allocations by y.contiguous(memory_format=channels_last)", same_allocations,
                     int64_t{0}, "cl_same_allocations");
             c.equal("same is y", book::same_layout(same, y), true);
             c.equal("kept.stride()", kept.strides(), y.strides());
             c.equal("kept has storage of its own", kept.storage().is_same(y.storage()), false);
             c.equal("empty_like(y).stride()", empty_like(y).strides(), y.strides());
             c.equal("back.stride()", back.strides(), Shape{24, 8, 4, 1}, "cl_back_strides");
             c.equal("back's values are x's", back.to_vector(), x.to_vector());
             pytorch().compare(c, "channels_last", "x", x);
             pytorch().compare(c, "channels_last", "y", y, {&x});
             pytorch().compare_value(c, "channels_last",
                                     "x.is_contiguous(memory_format=torch.channels_last)",
                                     x.is_contiguous(MemoryFormat::ChannelsLast));
             pytorch().compare_value(c, "channels_last",
                                     "y.is_contiguous(memory_format=torch.channels_last)",
                                     y.is_contiguous(MemoryFormat::ChannelsLast));
             pytorch().compare_value(c, "channels_last", "same is y", book::same_layout(same, y));
             pytorch().compare(c, "channels_last", "kept", kept, {&y});
             pytorch().compare_value(c, "channels_last", "torch.empty_like(y).stride()",
                                     empty_like(y).strides());
             pytorch().compare(c, "channels_last", "back", back, {&y});
             c.value("cl_x_strides", x.strides());
             PictureOptions opts;
             opts.links = false;
             c.figure("channels_last_y", tensor_svg(y, "y", opts),
                      "y over its storage: the " + book::show(C) +
                          " channels of each pixel side by side; along a row of one channel, the "
                          "offsets step by " +
                          book::show(y.stride(3)) + ".");
           });

  ch.claim("CT-02.channels",
           "is_contiguous(memory_format=channels_last) skips size-1 dims as is_contiguous does, "
           "so an NCHW-contiguous tensor with C = 1 or with H = W = 1 is both contiguous and "
           "channels-last contiguous, and contiguous(memory_format=channels_last) returns it as "
           "it is; to(memory_format=channels_last) goes by the order of the strides instead "
           "(suggest_memory_format) and copies the C = 1 tensor. A tensor that is not 4-d is "
           "never channels-last contiguous, and a channels-last copy of one is refused.",
           [](book::Check& c) {
             //! [channels_both]
             Tensor gray = zeros({2, 1, 2, 4});                          // C = 1
             Tensor pixels = zeros({2, 3, 1, 1});                        // H = W = 1
             Tensor kept = gray.contiguous(MemoryFormat::ChannelsLast);  // gray itself
             Tensor moved = gray.to(MemoryFormat::ChannelsLast);         // a copy
             Tensor matrix = zeros({3, 4});                              // not 4-d
             //! [channels_both]
             const MemoryFormat cl = MemoryFormat::ChannelsLast;
             std::vector<std::vector<std::string>> rows;
             for (const auto& [name, t, contiguous, channels_last] :
                  {std::tuple{"gray", &gray, true, true}, std::tuple{"pixels", &pixels, true, true},
                   std::tuple{"moved", &moved, true, true},
                   std::tuple{"matrix", &matrix, true, false}}) {
               c.equal(std::string(name) + ".is_contiguous()", t->is_contiguous(), contiguous);
               c.equal(std::string(name) + ".is_contiguous(memory_format=channels_last)",
                       t->is_contiguous(cl), channels_last);
               pytorch().compare(c, "channels_both", name, *t, {&gray});
               pytorch().compare_value(
                   c, "channels_both",
                   std::string(name) + ".is_contiguous(memory_format=torch.channels_last)",
                   t->is_contiguous(cl));
               rows.push_back({name, book::show(t->sizes()), book::show(t->strides()),
                               book::show(t->is_contiguous()), book::show(t->is_contiguous(cl))});
             }
             c.equal("kept is gray", book::same_layout(kept, gray), true);
             c.equal("moved shares gray's storage", moved.storage().is_same(gray.storage()), false);
             c.equal("pixels.contiguous(memory_format=channels_last) is pixels",
                     book::same_layout(pixels.contiguous(cl), pixels), true);
             pytorch().compare_value(c, "channels_both", "kept is gray",
                                     book::same_layout(kept, gray));
             const std::string pixels_kept =
                 "pixels.contiguous(memory_format=torch.channels_last) is pixels";
             pytorch().compare_value(c, "channels_both", pixels_kept,
                                     book::same_layout(pixels.contiguous(cl), pixels));
             pytorch().compare_error(c, "channels_both",
                                     "matrix.contiguous(memory_format=torch.channels_last)",
                                     [&] { (void)matrix.contiguous(cl); });
             c.table("channels_both",
                     {"tensor", "sizes", "strides", "contiguous", "channels-last contiguous"},
                     rows);
             c.value("cl_moved_strides", moved.strides());
             // PyTorch's words, from the record (the library's contain them: compare_error).
             const std::string refused = "matrix.contiguous(memory_format=torch.channels_last)";
             c.text("channels_rank",
                    refused + "\n" + pytorch().error_message("channels_both", refused));
           });

  ch.claim("CT-02.image",
           "An image as files store it, uint8 in (N, H, W, C) = (1, 2, 4, 3), permuted to "
           "(N, C, H, W) is a view with strides (24, 1, 12, 3): not contiguous, but channels-last "
           "contiguous; contiguous() copies it to strides (24, 8, 4, 1); its channels' means "
           "are 10.5, 11.5 and 12.5.",
           [](book::Check& c) {
             //! [image]
             // An image as files and cameras store it: rows of pixels, each pixel's
             // red, green and blue bytes side by side (N, H, W, C).
             Tensor nhwc = arange(24, {DType::UInt8}).view({1, 2, 4, 3});
             Tensor nchw = nhwc.permute({0, 3, 1, 2});  // N, C, H, W, as convolutions index it
             //! [image]
             c.equal("nchw strides", nchw.strides(), Shape{24, 1, 12, 3}, "image_strides");
             c.equal("nchw is channels-last contiguous",
                     nchw.is_contiguous(MemoryFormat::ChannelsLast), true);
             const Tensor dense = nchw.contiguous();
             const Tensor means = mean(mean(nchw.to(DType::Float32), 3), 2);
             c.value("image_dense_strides", dense.strides());
             c.value("image_means", means.to_vector());
             pytorch().compare(c, "image", "nchw", nchw, {&nhwc});
             pytorch().compare_value(c, "image", "nchw.is_contiguous()", nchw.is_contiguous());
             pytorch().compare_value(c, "image",
                                     "nchw.is_contiguous(memory_format=torch.channels_last)",
                                     nchw.is_contiguous(MemoryFormat::ChannelsLast));
             pytorch().compare(c, "image", "nchw.contiguous()", dense, {&nhwc});
             pytorch().compare(c, "image", "nchw.float().mean(dim=(2, 3))", means);
           });

  ch.claim("CT-02.channels3d",
           "For 5-d tensors PyTorch has channels_last_3d: (N, C, D, H, W) stored as N, D, H, W, C, "
           "the strides of a contiguous (N, D, H, W, C) tensor permuted by (0, 4, 1, 2, 3), "
           "(360, 1, 90, 18, 3) for sizes (2, 3, 4, 5, 6); channels_last itself is refused there.",
           [](book::Check& c) {
             const Tensor ndhwc = zeros({2, 4, 5, 6, 3}).permute({0, 4, 1, 2, 3});
             c.equal("zeros(2, 4, 5, 6, 3).permute(0, 4, 1, 2, 3) sizes", ndhwc.sizes(),
                     Shape{2, 3, 4, 5, 6});
             c.equal("its strides", ndhwc.strides(), Shape{360, 1, 90, 18, 3}, "cl3d_strides");
             pytorch().compare_value(
                 c, "channels_3d",
                 "torch.zeros(2, 3, 4, 5, 6).contiguous(memory_format=torch.channels_last_3d)"
                 ".stride()",
                 ndhwc.strides());
             pytorch().compare_error(
                 c, "channels_3d",
                 "torch.zeros(2, 3, 4, 5, 6).contiguous(memory_format=torch.channels_last)",
                 [] { (void)zeros({2, 3, 4, 5, 6}).contiguous(MemoryFormat::ChannelsLast); });
           });

  ch.claim("CT-13",
           "Channels last in practice: model.to(memory_format=channels_last) gives a conv's (4, 3, "
           "3, 3) weight the strides (27, 1, 9, 3), and the input (2, 3, 4, 4) converted the same "
           "way has strides (48, 1, 12, 3); the convolution's output comes out channels last, "
           "(64, 1, 16, 4), and element-wise ops keep the input's order, while contiguous() "
           "returns a row-major NCHW copy, (48, 16, 4, 1). A channels_last_3d tensor keeps its "
           "order through an element-wise op too.",
           [](book::Check& c) {
             Generator gen(13);
             //! [channels_practice]
             const MemoryFormat cl = MemoryFormat::ChannelsLast;
             Tensor weight = rand({4, 3, 3, 3}, gen).to(cl);  // a conv's weight
             Tensor x = rand({2, 3, 4, 4}, gen).to(cl);       // its input
             Tensor y = empty({2, 4, 4, 4}, {}, cl);          // the conv's output layout
             Tensor z = x * 2.0 + 1.0;      // element-wise: channels last still
             Tensor back = x.contiguous();  // row-major NCHW: a copy
             //! [channels_practice]
             const std::string g = "channels_practice";
             c.equal("weight.stride()", weight.strides(), Shape{27, 1, 9, 3}, "practice_weight");
             c.equal("x.stride()", x.strides(), Shape{48, 1, 12, 3}, "practice_x");
             c.equal("y.stride()", y.strides(), Shape{64, 1, 16, 4}, "practice_y");
             c.equal("z.stride()", z.strides(), x.strides(), "practice_z");
             c.equal("back.stride()", back.strides(), Shape{48, 16, 4, 1}, "practice_back");
             c.equal("back is channels-last contiguous", back.is_contiguous(cl), false);
             c.equal("back has storage of its own", back.storage().is_same(x.storage()), false);
             pytorch().compare(c, g, "model.weight", weight);
             pytorch().compare(c, g, "x", x);
             pytorch().compare(c, g, "y", y);
             pytorch().compare(c, g, "z", z);
             pytorch().compare(c, g, "back", back, {&x});
             pytorch().compare_value(c, g, "back.is_contiguous(memory_format=torch.channels_last)",
                                     back.is_contiguous(cl));
             // channels_last_3d, which the library does not name: the same order by permutation,
             // and an element-wise op on it.
             const Tensor v = zeros({2, 4, 5, 6, 3}).permute({0, 4, 1, 2, 3});
             const Tensor w = v * 2.0 + 1.0;
             c.equal("(v * 2 + 1).stride()", w.strides(), v.strides(), "practice_3d");
             pytorch().compare(c, g, "v * 2 + 1", w);
           });
}
