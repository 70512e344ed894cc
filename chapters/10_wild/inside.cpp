// Chapter 10, section "Copies hidden inside ops", second half: ops that call contiguous() on their
// input, and what contiguous() of a permutation costs (SW-17 … SW-19).
#include <set>
#include <string>
#include <vector>

#include "10_wild/wild.h"
#include "strided/engine/iterator.h"
#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"

using namespace strided;
using wild_chapter::f32;
using wild_chapter::pytorch;

namespace {

// The ops of the companion's hidden_copies(), split by what PyTorch's recorded profile showed on a
// (8, 32, 16) transpose: those that call contiguous() on their input first, and those that walk
// its strides. The rule the chapter states: the first copy exactly when the input is not
// contiguous.
const std::vector<std::string> kCopying = {"layer_norm", "softmax", "index_select"};
const std::vector<std::string> kWalking = {"sum", "cumsum", "topk", "gather"};

// The bytes a call allocates, by the storage's own counter.
template <class F>
int64_t bytes_allocated(F&& run) {
  const int64_t before = Storage::allocated_bytes();
  run();
  return Storage::allocated_bytes() - before;
}

// What the copy plan of t.contiguous() does: whether it walks in tiles, the source's step in
// the inner loop, in elements, and how many 64-byte lines of the source the first 16 reads of the
// plan (one line of the float32 result) touch.
struct CopyWalk {
  bool tiles;
  int64_t inner_source_step;
  int64_t first_lines;
};
CopyWalk contiguous_walk(const Tensor& t) {
  const TensorIterator plan = copy_plan(empty(t.sizes(), f32), t);
  std::set<int64_t> lines;
  for (int64_t i = 0; i < 16; ++i) lines.insert(plan.byte_offset(1, i) / 64);
  return {copy_in_tiles(plan), plan.operand(1).stride_bytes[0] / t.element_size(),
          static_cast<int64_t>(lines.size())};
}

}  // namespace

void wild_chapter::hidden_copies(book::Chapter& ch) {
  ch.claim("SW-17",
           "layer_norm, softmax and index_select call contiguous() on their input: given a (8, 32, "
           "16) transpose they first copy it whole, 4096 float32 elements (16384 bytes), and given "
           "a contiguous tensor they copy nothing. sum, cumsum, topk and gather walk the "
           "transpose's strides and copy nothing.",
           [](book::Check& c) {
             //! [inside]
             Tensor x = arange(4096, f32).view({8, 16, 32});
             Tensor xt = x.transpose(1, 2);     // (8, 32, 16), strides (512, 1, 32)
             Tensor copied = xt.contiguous();   // what layer_norm does first: 4096 elements
             Tensor s = sum(xt, -1);            // walks xt's strides: no copy
             //! [inside]
             pytorch().compare(c, "inside", "xt", xt);
             const nlohmann::json* t = pytorch().find("inside", "hidden_copies(xt)");
             const nlohmann::json* d = pytorch().find("inside", "hidden_copies(xc)");
             pytorch().versions(c, "inside", "hidden_copies(xt)");
             pytorch().versions(c, "inside", "hidden_copies(xc)");
             if (!t || !d) return c.fail("no recorded profile of the ops");
             const Tensor xc = xt.contiguous();
             for (const std::string& op : kCopying) {
               c.equal(op + " copies the transpose", (*t)["value"].value(op, false),
                       !xt.is_contiguous());
               c.equal(op + " copies a contiguous input", (*d)["value"].value(op, true),
                       !xc.is_contiguous());
             }
             for (const std::string& op : kWalking) {
               c.equal(op + " copies the transpose", (*t)["value"].value(op, true), false);
               c.equal(op + " copies a contiguous input", (*d)["value"].value(op, true), false);
             }
             const int64_t hidden = bytes_allocated([&] { (void)xt.contiguous(); });
             pytorch().compare_value(c, "inside", "clone_bytes(lambda: norm(xt))",
                                     nlohmann::json::array({hidden}));
             c.equal("bytes of the hidden copy", hidden, xt.numel() * 4, "inside_bytes");
             c.equal("bytes contiguous() of a contiguous tensor allocates",
                     bytes_allocated([&] { (void)xc.contiguous(); }), int64_t{0});
             c.equal("bytes sum(-1) allocates: its result alone",
                     bytes_allocated([&] { (void)sum(xt, -1); }), s.numel() * 4, "inside_sum_bytes");
             c.equal("the copy's values", copied.to_vector(), xt.to_vector());
             c.value("inside_numel", xt.numel());
           });

  ch.claim("SW-18",
           "contiguous() of a permutation copies in square tiles when the source's stride-1 dim "
           "becomes the result's second-innermost dim: a 2-D transpose, and a batch of transposes "
           "permute(0, 2, 1). Any other permutation that moves the stride-1 dim is walked row by "
           "row: permute(2, 1, 0) of an (n, n, n) tensor reads its source at a step of n² "
           "elements, one cache line per element read.",
           [](book::Check& c) {
             const int64_t n = 256;
             //! [permute]
             Tensor cube = arange(24, f32).view({2, 3, 4});
             Tensor swap_last = cube.permute({0, 2, 1});  // strides (12, 1, 4): transposes
             Tensor reverse = cube.permute({2, 1, 0});    // strides (1, 4, 12)
             //! [permute]
             pytorch().compare(c, "permute", "swap_last.contiguous()", swap_last.contiguous());
             pytorch().compare(c, "permute", "reverse.contiguous()", reverse.contiguous());
             pytorch().compare(c, "permute", "cube.view(6, 4).t().contiguous()",
                               cube.view({6, 4}).t().contiguous());
             const Tensor big = empty({n, n, n}, f32);
             const CopyWalk flat = contiguous_walk(big.view({n * n, n}).t());
             const CopyWalk batch = contiguous_walk(big.permute({0, 2, 1}));
             const CopyWalk rev = contiguous_walk(big.permute({2, 1, 0}));
             c.equal("a 2-D transpose copies in tiles", flat.tiles, true);
             c.equal("a batch of transposes copies in tiles", batch.tiles, true);
             c.equal("permute(2, 1, 0) copies in tiles", rev.tiles, false);
             c.equal("permute(2, 1, 0): source step of the inner loop, in elements",
                     rev.inner_source_step, n * n, "permute_step");
             // 16 float32 elements fill one 64-byte line of the result. The lines of the source
             // its first 16 reads touch, in the plan's order: 16 for permute(2, 1, 0), 1 for clone.
             c.equal("source lines the first 16 reads touch", rev.first_lines, int64_t{16},
                     "permute_lines");
             c.equal("the same for clone()", contiguous_walk(big).first_lines, int64_t{1});
             c.value("permute_n", n);
           }).model();

  ch.claim("SW-19",
           "On this machine contiguous() of permute(2, 1, 0) of a 256³ float32 tensor, walked row "
           "by row, takes at least 1.5 times as long as contiguous() of permute(0, 2, 1), copied "
           "in tiles; and the tiled copy takes at least 1.15 times as long as clone().",
           [](book::Check& c) {
             if (book::skip_timing(c)) return;
             book::OneThread one;
             const int64_t n = 256;
             const Tensor big = arange(n * n * n, f32).view({n, n, n});
             const Tensor rev = big.permute({2, 1, 0}), swap = big.permute({0, 2, 1});
             const book::Timed r = book::timed_ratio(
                 c, "permute(2, 1, 0).contiguous() / permute(0, 2, 1).contiguous()",
                 "permute_reverse", [&] { (void)swap.contiguous(); },
                 [&] { (void)rev.contiguous(); }, book::much_slower());
             const book::Timed s = book::timed_ratio(
                 c, "permute(0, 2, 1).contiguous() / clone()", "permute_swap",
                 [&] { (void)big.clone(); }, [&] { (void)swap.contiguous(); }, book::slower());
             c.value("permute_clone_ms", book::fixed(s.a_ms, 1));
             c.value("permute_swap_ms", book::fixed(s.b_ms, 1));
             c.value("permute_reverse_ms", book::fixed(r.b_ms, 1));
           }).timing();
}
