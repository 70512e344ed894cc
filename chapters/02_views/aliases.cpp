// Chapter 2, section "Aliases and one buffer": a write seen through every overlapping view
// (VW-17) and one buffer carved into tensors (VW-18). The code between //! [name] markers is shown
// on the chapter's page.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "02_views/views.h"
#include "book/book.h"
#include "strided/engine/ops.h"
#include "strided/memory/memory.h"
#include "strided/pictures/picture.h"
#include "strided/strided.h"

using namespace strided;
using views::pytorch;

void views::aliases(book::Chapter& ch) {
  // ---- Aliases -------------------------------------------------------------------------------------------
  ch.section("aliases", "Aliases and one buffer");

  ch.claim("VW-17",
           "An in-place write through one tensor is seen through every tensor whose memory set "
           "overlaps it.",
           [](book::Check& c) {
             //! [aliases]
             Tensor x = arange(8);
             Tensor left = x.slice(0, 0, 5);   // x[0:5]
             Tensor right = x.slice(0, 3, 8);  // x[3:8]
             mul_(left, 10);                   // left *= 10
             //! [aliases]
             c.equal("left and right may share memory",
                     std::string(to_string(solve_may_share_memory(left, right))),
                     std::string("Yes"));
             c.equal("right", right.to_vector(), std::vector<double>{30, 40, 5, 6, 7},
                     "alias_right");
             c.equal("x", x.to_vector(), std::vector<double>{0, 10, 20, 30, 40, 5, 6, 7});
             pytorch().compare(c, "aliases", "right", right, {&x});
             pytorch().compare(c, "aliases", "x", x);
             std::vector<int64_t> shared;
             const auto l = memory_set(left), r = memory_set(right);
             std::set_intersection(l.begin(), l.end(), r.begin(), r.end(),
                                   std::back_inserter(shared));
             c.figure("aliases", views_svg({{left, "x[0:5]"}, {right, "x[3:8]"}}),
                      "x[0:5] and x[3:8] share the storage cells " + book::and_list(shared) + ".");
           });

  ch.claim("VW-18",
           "One preallocated buffer can be carved into several tensors by views, with no "
           "further allocation.",
           [](book::Check& c) {
             const int64_t before = Storage::allocation_count();
             //! [carve]
             Tensor buffer = empty({64});
             Tensor weight = buffer.slice(0, 0, 48).view({6, 8});
             Tensor bias = buffer.slice(0, 48, 54);
             Tensor scratch = buffer.slice(0, 54, 64).view({2, 5});
             //! [carve]
             const int64_t carved = Storage::allocation_count() - before;
             c.equal("allocations: the buffer, then three views", carved, int64_t{1},
                     "carve_allocations");
             c.equal("views of the buffer",
                     is_view_of(weight, buffer) && is_view_of(bias, buffer) &&
                         is_view_of(scratch, buffer),
                     true);
             weight.fill_(1);
             bias.fill_(2);
             scratch.fill_(3);
             std::vector<double> expected(64, 1.0);
             std::fill(expected.begin() + 48, expected.begin() + 54, 2.0);
             std::fill(expected.begin() + 54, expected.end(), 3.0);
             c.equal("the buffer after filling each view", buffer.to_vector(), expected);
             pytorch().compare(c, "carve", "weight", weight, {&buffer});
             pytorch().compare(c, "carve", "bias", bias, {&buffer});
             pytorch().compare(c, "carve", "scratch", scratch, {&buffer});
           });
}
