// Chapter 5, section "Memory order and the GPU": a walk in stride order revisits the addresses of
// a stride-0 dim (BC-08), and a warp reading along it costs one sector per request (BC-09), with
// the erratum ER-13 on what serves those reads.
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>

#include "05_broadcasting/broadcasting.h"
#include "book/book.h"
#include "strided/models/models.h"
#include "strided/strided.h"

using namespace strided;
using broadcasting::pytorch;

void broadcasting::gpu(book::Chapter& ch) {
  // ---- Memory order and the GPU ----------------------------------------------------------------------
  ch.section("gpu", "Memory order and the GPU");

  ch.claim("BC-08",
           "With stride-0 dims a walk in stride order revisits addresses: the byte trace is "
           "non-decreasing with repeats, not strictly increasing; it has numel − numel(source) "
           "repeats.",
           [](book::Check& c) {
             Generator gen(3);
             Tensor x = rand({3, 4}, gen);
             Tensor e = x.view({3, 1, 4}).expand({3, 5, 4});  // (3,5,4):(4,0,1)
             //! [stride_order]
             // nikitaved's order: dims by decreasing stride (ties by dim), the last one fastest.
             Shape order(e.dim());
             for (int64_t d = 0; d < e.dim(); ++d) order[d] = d;
             std::stable_sort(order.begin(), order.end(),
                              [&](int64_t p, int64_t q) { return e.stride(p) > e.stride(q); });
             models::Trace trace = models::logical_trace(e.permute(order));
             //! [stride_order]
             const std::set<int64_t> distinct(trace.bytes.begin(), trace.bytes.end());
             c.equal("non-decreasing", models::is_sorted(trace), true);
             c.equal("strictly increasing", models::is_sorted(trace, true), false);
             c.equal("repeats", trace.size() - static_cast<int64_t>(distinct.size()),
                     e.numel() - x.numel(), "trace_repeats");
             c.equal("the order", order, Shape{0, 2, 1});
             pytorch().compare_value(c, "stride_order", "order", order);
             pytorch().compare_value(c, "stride_order", "trace", trace.bytes);
             c.value("trace_numel", e.numel());
             c.value("trace_source", x.numel());
             std::string head;
             const int64_t shown = 12;  // enough to see each address repeat
             for (int64_t k = 0; k < shown; ++k)
               head += (k ? ", " : "") + std::to_string(trace.bytes[k]);
             c.value("trace_head", head);
           });

  ch.claim("BC-09",
           "A warp reading a broadcast operand along its stride-0 dim costs one 32-byte sector per "
           "request: 32 lanes load one 4-byte address; 32 consecutive floats cost 4 sectors.",
           [](book::Check& c) {
             Generator gen(9);
             Tensor x = rand({64}, gen);
             //! [sectors]
             Tensor column = x.view({64, 1}).expand({64, 32});  // lanes along the stride-0 dim
             Tensor dense = rand({64, 32}, gen);                // lanes along a stride-1 dim
             const int64_t lanes = 32, sector_bytes = 32;  // a warp; the unit memory serves
             models::SectorCount broadcast =
                 models::warp_sectors(models::logical_trace(column), lanes, sector_bytes);
             models::SectorCount contiguous =
                 models::warp_sectors(models::logical_trace(dense), lanes, sector_bytes);
             //! [sectors]
             c.equal("requests", broadcast.requests, int64_t{64});
             c.equal("sectors per request, stride 0", broadcast.per_request(), 1.0, "sectors_zero");
             c.equal("most sectors in one request, stride 0", broadcast.max_per_request,
                     int64_t{1});
             c.equal("sectors per request, stride 1", contiguous.per_request(), 4.0,
                     "sectors_dense");
             pytorch().compare(c, "sectors", "column", column, {&x});
             pytorch().compare_value(c, "sectors", "len(sectors(column))", broadcast.requests);
             pytorch().compare_value(c, "sectors", "sum(sectors(column)) / len(sectors(column))",
                                     broadcast.per_request());
             pytorch().compare_value(c, "sectors", "max(sectors(column))",
                                     broadcast.max_per_request);
             pytorch().compare_value(c, "sectors", "sum(sectors(dense)) / len(sectors(dense))",
                                     contiguous.per_request());
             c.value("lanes_per_warp", lanes);
             c.value("sector_bytes", sector_bytes);
           })
      .model();

  ch.erratum("ER-13",
             "Hitting the same global memory address over and over is fine because all global "
             "memory accesses are cached (nikitaved).",
             "Loose: the lanes of one warp that load one address are served by one sector of "
             "that one request, with no cache involved; L2 caches global loads, but whether L1 "
             "does depends on the architecture and compiler flags.",
             [](book::Check& c) {
               // The count below uses no cache model at all: one request, its distinct sectors.
               const int64_t lanes = 32, apart = 128;
               models::Trace same;
               same.width = 4;
               same.bytes.assign(lanes, apart);  // every lane at one address
               models::Trace spread;
               spread.width = 4;
               for (int64_t lane = 0; lane < lanes; ++lane) spread.bytes.push_back(lane * apart);
               c.equal("sectors for 32 lanes at one address", models::warp_sectors(same).sectors,
                       int64_t{1}, "same_sectors");
               c.equal("sectors for 32 lanes 128 bytes apart", models::warp_sectors(spread).sectors,
                       int64_t{32}, "spread_sectors");
               c.value("lanes", lanes);
               c.value("apart", apart);
             })
      .model();

}
