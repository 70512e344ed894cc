// Chapter 6, section "Exercises": the answers the page hides (EX-06.1…EX-06.5), each computed with
// the library's plans and models and compared with PyTorch's recorded answer.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "06_performance/performance.h"
#include "book/book.h"
#include "strided/engine/iterator.h"
#include "strided/engine/ops.h"
#include "strided/models/models.h"
#include "strided/strided.h"

using namespace strided;
using namespace strided::models;
using book::fixed;
using performance::pytorch;

void performance::exercises(book::Chapter& ch) {
  ch.section("exercises", "Exercises");

  ch.claim("EX-06.1",
           "For x = rand(64, 64), each 16 steps of the walk of x.t() + 1 read 1 line of 64 bytes; "
           "a walk in x.t()'s logical order reads 16; the result has strides (1, 64).",
           [](book::Check& c) {
             Generator gen(61);
             Tensor x = rand({64, 64}, gen);
             const double walked =
                 lines_per_window(plan_trace(unary_plan(UnaryOp::Neg, Tensor(), x.t()), 1), 16);
             const double logical = lines_per_window(logical_trace(x.t()), 16);
             c.equal("lines per 16 steps, the engine's walk", walked, 1.0, "ex1_walked");
             c.equal("lines per 16 steps, the logical walk", logical, 16.0, "ex1_logical");
             c.equal("strides of x.t() + 1", (x.t() + 1).strides(), Shape{1, 64}, "ex1_strides");
             pytorch().compare(c, "ex1", "x.t() + 1", x.t() + 1);
             pytorch().compare_value(c, "ex1", "walked", walked);
             pytorch().compare_value(c, "ex1", "logical", logical);
           }).model();

  ch.claim("EX-06.2",
           "p = arange(24.).view(2, 3, 4).permute(2, 0, 1) has strides (1, 12, 4); p * 2 keeps "
           "them: dense, not contiguous.",
           [](book::Check& c) {
             Tensor p = arange(24, {DType::Float32}).view({2, 3, 4}).permute({2, 0, 1});
             Tensor q = p * 2;
             c.equal("strides of p", p.strides(), Shape{1, 12, 4});
             c.equal("strides of p * 2", q.strides(), Shape{1, 12, 4}, "ex2_strides");
             c.equal("p * 2 is contiguous", q.is_contiguous(), false);
             c.value("ex2_contiguous", book::show(q.is_contiguous()));
             pytorch().compare(c, "ex2", "p * 2", q);
           });

  ch.claim("EX-06.3",
           "For 64×64 x and y, x * y.t() has strides (64, 1) and x.t() * y has (1, 64); each 16 "
           "outputs of x * y.t() walk 18 lines: 1 of x, 16 of y.t(), 1 of the output.",
           [](book::Check& c) {
             Generator gen(63);
             Tensor x = rand({64, 64}, gen), y = rand({64, 64}, gen);
             const TensorIterator plan = binary_plan(BinaryOp::Mul, Tensor(), x, y.t());
             const double out = lines_per_window(plan_trace(plan, 0), 16);
             const double xs = lines_per_window(plan_trace(plan, 1), 16);
             const double ys = lines_per_window(plan_trace(plan, 2), 16);
             c.equal("strides of x * y.t()", (x * y.t()).strides(), Shape{64, 1}, "ex3_xyt");
             c.equal("strides of x.t() * y", (x.t() * y).strides(), Shape{1, 64}, "ex3_xty");
             c.equal("lines per 16 outputs: x, y.t(), output", std::vector<double>{xs, ys, out},
                     std::vector<double>{1, 16, 1});
             c.equal("lines per 16 outputs, all three", book::binary_lines_per_16(x, y.t()), 18.0,
                     "ex3_lines");
             pytorch().compare(c, "ex3", "x * y.t()", x * y.t());
             pytorch().compare(c, "ex3", "x.t() * y", x.t() * y);
             pytorch().compare_value(c, "ex3", "per_operand", std::vector<double>{xs, ys, out});
           }).model();

  ch.claim("EX-06.4",
           "Per 16 outputs of 16³ cubes, x * y.transpose(0, 2) walks 18 lines, x * y 3, and "
           "the copy y.transpose(0, 2).contiguous() 16 + 1 = 17: from 2 products on, copying "
           "first walks fewer lines.",
           [](book::Check& c) {
             const int64_t n = 16;
             Tensor x = zeros({n, n, n}), y = zeros({n, n, n});
             Tensor yt = y.transpose(0, 2);
             const double mismatched = book::binary_lines_per_16(x, yt);
             const double matched = book::binary_lines_per_16(x, y);
             const TensorIterator copy = copy_plan(empty({n, n, n}), yt);
             const double read = lines_per_window(plan_trace(copy, 1), 16);
             const double write = lines_per_window(plan_trace(copy, 0), 16);
             int64_t k = 1;
             while (read + write + k * matched >= k * mismatched && k < 100) ++k;
             c.equal("mismatched, matched, copy read, copy write",
                     std::vector<double>{mismatched, matched, read, write},
                     std::vector<double>{18, 3, 16, 1});
             c.equal("products from which the copy pays", k, int64_t{2}, "ex4_k");
             c.value("ex4_copy", fixed(read + write, 0));
             c.value("ex4_with_copy", fixed(read + write + k * matched, 0));
             c.value("ex4_without", fixed(k * mismatched, 0));
             Generator gen(64);
             Tensor r = rand({n, n, n}, gen);
             pytorch().compare(c, "ex4", "r.transpose(0, 2).contiguous()",
                               r.transpose(0, 2).contiguous(), {&r});
             pytorch().compare_value(c, "ex4", "lines",
                                     std::vector<double>{mismatched, matched, read, write});
             pytorch().compare_value(c, "ex4", "k", k);
           }).model();

  ch.claim("EX-06.5",
           "A warp reading 32 consecutive elements of zeros(768)[::3] fetches 12 sectors of 32 "
           "bytes per request and uses 128 of their 384 bytes.",
           [](book::Check& c) {
             Tensor x = zeros({768}).slice(0, 0, std::nullopt, 3);
             const Trace walk = logical_trace(x);
             const SectorCount count = warp_sectors(walk);
             std::vector<int64_t> per_request;
             int64_t used = 0;
             for (int64_t i = 0; i < walk.size(); i += 32) {
               Trace one{{walk.bytes.begin() + i, walk.bytes.begin() + std::min(i + 32, walk.size())},
                         walk.width};
               per_request.push_back(warp_sectors(one).sectors);
               if (i == 0) used = one.size() * one.width;
             }
             c.equal("every request costs the same", count.max_per_request * count.requests,
                     count.sectors);
             c.equal("sectors per request", count.max_per_request, int64_t{12}, "ex5_sectors");
             c.equal("bytes fetched per request", 32 * count.max_per_request, int64_t{384},
                     "ex5_fetched");
             c.equal("bytes used per request", used, int64_t{128}, "ex5_used");
             c.value("ex5_used_pct", fixed(100.0 * double(used) / (32.0 * count.max_per_request), 0));
             pytorch().compare(c, "ex5", "x", x);
             pytorch().compare_value(c, "ex5", "sectors", per_request);
           }).model();
}
