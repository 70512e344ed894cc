// Chapter 10, section "Channels last through a network": a convolution picks its output's memory
// format from its input and its weight, and the layers after it keep it (SW-23); nn.Linear over
// the channels of an NCHW image copies it, over a channels-last one it does not (SW-24), and what
// that copy costs (SW-26).
#include <string>

#include "10_wild/wild.h"
#include "strided/engine/matmul.h"
#include "strided/layout/memory_format.h"

using namespace strided;
using wild_chapter::f32;
using wild_chapter::pytorch;

namespace {

// A convolution's output format on the CPU and on cuDNN alike: channels last when the input or the
// weight suggests it (aten/src/ATen/native/ConvUtils.h, mkldnn_conv_use_channels_last and
// cudnn_conv_suggest_memory_format), else contiguous.
MemoryFormat conv_format(const Tensor& input, const Shape& weight_sizes,
                         const Shape& weight_strides) {
  const bool last =
      suggest_memory_format(input.layout()) == MemoryFormat::ChannelsLast ||
      suggest_memory_format(Layout(weight_sizes, weight_strides)) == MemoryFormat::ChannelsLast;
  return last ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous;
}

}  // namespace

void wild_chapter::network(book::Chapter& ch) {
  ch.section("network", "Channels last through a network");

  ch.claim("SW-23",
           "A convolution returns channels last when its input or its weight is channels last, "
           "and batch norm, ReLU and max pooling keep their input's format: a (2, 3, 8, 8) "
           "channels-last image leaves conv, batch norm, ReLU, pool and a 1×1 conv as "
           "(2, 4, 4, 4) with strides (64, 1, 16, 4); the NCHW image as (64, 16, 4, 1), with the "
           "same values. flatten(1) of the channels-last result copies it.",
           [](book::Check& c) {
             //! [network]
             Tensor img = arange(384, f32).view({2, 3, 8, 8});             // NCHW
             Tensor img_cl = img.contiguous(MemoryFormat::ChannelsLast);   // NHWC in memory
             Shape w = {4, 3, 3, 3};                                       // conv's weight
             Shape w_cl = memory_format_strides(w, MemoryFormat::ChannelsLast);
             // conv picks the format; batch norm, ReLU and pool follow their input
             Shape out_cl = memory_format_strides({2, 4, 4, 4}, conv_format(img_cl, w, contiguous_strides(w)));
             Shape out = memory_format_strides({2, 4, 4, 4}, conv_format(img, w, contiguous_strides(w)));
             //! [network]
             pytorch().compare_value(c, "network", "out_cl.stride()", out_cl);
             pytorch().compare_value(c, "network", "out.stride()", out);
             pytorch().compare_value(
                 c, "network", "net[0](img_cl).stride()",
                 memory_format_strides({2, 4, 8, 8}, conv_format(img_cl, w, contiguous_strides(w))));
             pytorch().compare_value(c, "network", "net_cl[0](img).stride()",
                                     memory_format_strides({2, 4, 8, 8}, conv_format(img, w, w_cl)));
             pytorch().compare_value(c, "network", "net_cl(img).stride()",
                                     memory_format_strides({2, 4, 4, 4}, conv_format(img, w, w_cl)));
             // The layout never changes a value: PyTorch's two results agree.
             pytorch().compare_value(c, "network", "torch.allclose(out_cl, out, atol=1e-6)", true);
             const Tensor result = empty_strided({2, 4, 4, 4}, out_cl, f32);
             const Tensor flat = result.flatten(1);
             pytorch().compare_value(c, "network", "out_cl.flatten(1).stride()", flat.strides());
             pytorch().compare_value(c, "network", "'aten::clone' in ops(lambda: out_cl.flatten(1))",
                                     !flat.storage().is_same(result.storage()));
             c.equal("strides of the channels-last result", out_cl, Shape{64, 1, 16, 4}, "net_cl");
             c.equal("strides of the NCHW result", out, Shape{64, 16, 4, 1}, "net_nchw");
           });

  ch.claim("SW-24",
           "nn.Linear over the channels of an image, after permute(0, 2, 3, 1), folds the batch "
           "with a reshape: over NCHW memory the permuted (2, 8, 8, 3) tensor has strides "
           "(192, 8, 1, 64) and the reshape copies its 384 elements; over channels-last memory it "
           "is contiguous and nothing is copied. Both give the same contiguous result.",
           [](book::Check& c) {
             //! [linear]
             Tensor img = arange(384, f32).view({2, 3, 8, 8});
             Tensor tokens = img.permute({0, 2, 3, 1});   // (2, 8, 8, 3), strides (192, 8, 1, 64)
             Tensor tokens_cl = img.contiguous(MemoryFormat::ChannelsLast).permute({0, 2, 3, 1});
             Tensor rows = tokens.reshape({-1, 3});       // Linear's fold: a copy
             Tensor rows_cl = tokens_cl.reshape({-1, 3}); // a view
             //! [linear]
             const Tensor weight = arange(18, f32).view({6, 3});
             const Tensor y = matmul(tokens, weight.t());
             pytorch().compare_value(c, "network", "tokens.stride()", tokens.strides());
             pytorch().compare_value(c, "network", "tokens_cl.stride()", tokens_cl.strides());
             const bool copies = !rows.storage().is_same(tokens.storage());
             const bool copies_cl = !rows_cl.storage().is_same(tokens_cl.storage());
             pytorch().compare_value(c, "network", "'aten::clone' in ops(lambda: lin(tokens))", copies);
             pytorch().compare_value(c, "network", "'aten::clone' in ops(lambda: lin(tokens_cl))",
                                     copies_cl);
             pytorch().compare_value(c, "network", "lin(tokens).stride()", y.strides());
             pytorch().compare_value(c, "network", "torch.allclose(lin(tokens), lin(tokens_cl))",
                                     y.to_vector() == matmul(tokens_cl, weight.t()).to_vector());
             c.equal("elements the NCHW fold copies", copies ? rows.numel() : 0, int64_t{384},
                     "linear_copy");
             c.equal("elements the channels-last fold copies", copies_cl ? rows_cl.numel() : 0,
                     int64_t{0});
           });

  ch.claim("SW-26",
           "On this machine nn.Linear(64, 64) over (8, 64, 56, 56) activations permuted with "
           "permute(0, 2, 3, 1) takes at least 1.15 times as long over NCHW memory, whose fold "
           "copies, as over channels-last memory, whose fold is a view.",
           [](book::Check& c) {
             if (book::skip_timing(c)) return;
             book::OneThread one;
             const Tensor act = arange(8 * 64 * 56 * 56, f32).view({8, 64, 56, 56});
             const Tensor act_cl = act.contiguous(MemoryFormat::ChannelsLast);
             const Tensor weight = arange(64 * 64, f32).view({64, 64}).t();  // Linear's weight.t()
             const Tensor tokens = act.permute({0, 2, 3, 1});
             const Tensor tokens_cl = act_cl.permute({0, 2, 3, 1});
             const book::Timed r = book::timed_ratio(
                 c, "Linear over NCHW / over channels last", "linear",
                 [&] { (void)matmul(tokens_cl, weight); }, [&] { (void)matmul(tokens, weight); },
                 book::slower());
             c.value("linear_cl_ms", book::fixed(r.a_ms, 1));
             c.value("linear_nchw_ms", book::fixed(r.b_ms, 1));
           }).timing();
}
