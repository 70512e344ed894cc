#include "book/walks.h"

#include <algorithm>
#include <limits>
#include <set>
#include <sstream>

#include "strided/engine/ops.h"

namespace book {

using namespace strided;
using namespace strided::models;

std::vector<int64_t> first_bytes(const Trace& t, size_t n) {
  return {t.bytes.begin(), t.bytes.begin() + static_cast<std::ptrdiff_t>(std::min(n, t.bytes.size()))};
}

std::string head(const Trace& t, size_t n, int64_t unit) {
  std::string s;
  for (size_t i = 0; i < std::min(n, t.bytes.size()); ++i)
    s += (i ? ", " : "") + std::to_string(t.bytes[i] / unit);
  return s + (t.bytes.size() > n ? ", …" : "");
}

int64_t fewest_per_request(const Tensor& steps_by_lanes) {
  const Trace all = logical_trace(steps_by_lanes);
  const size_t lanes = static_cast<size_t>(steps_by_lanes.size(-1));
  int64_t fewest = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < all.bytes.size(); i += lanes) {
    Trace one{{all.bytes.begin() + static_cast<std::ptrdiff_t>(i),
               all.bytes.begin() + static_cast<std::ptrdiff_t>(std::min(i + lanes, all.bytes.size()))}};
    fewest = std::min(fewest, warp_sectors(one, int64_t(lanes)).sectors);
  }
  return fewest;
}

double walk_lines(const TensorIterator& plan) {
  double lines = 0;
  for (int k = 0; k < plan.ntensors(); ++k) {
    const auto& steps = plan.operand(k).stride_bytes;
    if (std::all_of(steps.begin(), steps.end(), [](int64_t s) { return s == 0; })) continue;
    lines += lines_per_window(plan_trace(plan, k), 16);
  }
  return lines;
}

double unary_sectors(const Tensor& x) {
  TensorIterator plan = binary_plan(BinaryOp::Add, Tensor(), x, Scalar(3.0));
  return warp_sectors(plan_trace(plan, 1)).per_request() +
         warp_sectors(plan_trace(plan, 0)).per_request();
}

double binary_sectors(const Tensor& x, const Tensor& y) {
  TensorIterator plan = binary_plan(BinaryOp::Mul, Tensor(), x, y);
  double s = 0;
  for (int k = 0; k < plan.ntensors(); ++k) s += warp_sectors(plan_trace(plan, k)).per_request();
  return s;
}

double binary_lines_per_16(const Tensor& x, const Tensor& y) {
  return walk_lines(binary_plan(BinaryOp::Mul, Tensor(), x, y));
}

int64_t binary_misses(const Tensor& x, const Tensor& y, int64_t capacity_bytes) {
  TensorIterator plan = binary_plan(BinaryOp::Mul, Tensor(), x, y);
  const auto storage = [&](int k) -> const void* {
    return plan.operand(k).tensor.storage().data();
  };
  const std::vector<Trace> traces = {plan_trace(plan, 1), plan_trace(plan, 2), plan_trace(plan, 0)};
  return lru_misses(interleave(apart(traces, {storage(1), storage(2), storage(0)})),
                    capacity_bytes);
}

FirstSteps first_steps(const Trace& walk) {
  const auto first = [&](size_t n) {
    Trace t{{walk.bytes.begin(),
             walk.bytes.begin() + static_cast<std::ptrdiff_t>(std::min(n, walk.bytes.size()))},
            walk.width};
    return t;
  };
  return {distinct_lines(first(16)), warp_sectors(first(32)).sectors};
}

namespace {

// The colours of the library's pictures (strided/pictures/picture.cpp): blue for the steps,
// orange for the path between them; a page in dark mode recolours the classes.
constexpr const char* kStrong = "#0b5fa5";
constexpr const char* kTint = "#dbe9f6";
constexpr const char* kPath = "#b04a00";
constexpr const char* kInk = "#1a1a1a";
constexpr const char* kMuted = "#5c5c5c";
constexpr int kCell = 14, kSectorGap = 4, kRow = 16, kMargin = 12, kPanelGap = 28;
constexpr int kHead = 38, kFoot = 28;

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

}  // namespace

std::string walks_svg(const std::vector<WalkPanel>& panels, int64_t cells) {
  const int rows = static_cast<int>((cells + kRow - 1) / kRow);
  const int grid_w = kRow * kCell + kSectorGap, grid_h = rows * kCell;
  const int panel_w = grid_w, panel_h = kHead + grid_h + kFoot;
  const int per_row = std::min<int>(2, static_cast<int>(panels.size()));
  const int width = 2 * kMargin + per_row * panel_w + (per_row - 1) * kPanelGap;
  const int height =
      2 * kMargin + static_cast<int>((panels.size() + 1) / 2) * panel_h - kMargin / 2;
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" viewBox=\"0 0 " << width << " " << height
    << "\" role=\"img\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n";
  o << "<title>Walks over 64-byte lines</title>\n<desc>Each panel is one storage of " << cells
    << " float32 cells, a row per 64-byte line; the first 16 steps of a walk are filled and joined "
       "in their order</desc>\n";
  o << "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"" << width << "\" height=\"" << height
    << "\" fill=\"#ffffff\"/>\n";
  // x of the cell at column c of a row (a gap between the two 32-byte sectors).
  const auto cell_x = [](int c) { return c * kCell + (c >= kRow / 2 ? kSectorGap : 0); };
  for (size_t p = 0; p < panels.size(); ++p) {
    const WalkPanel& panel = panels[p];
    const int px = kMargin + static_cast<int>(p % 2) * (panel_w + kPanelGap);
    const int py = kMargin + static_cast<int>(p / 2) * panel_h;
    const int gy = py + kHead;
    const std::vector<int64_t>& b = panel.walk.bytes;
    const size_t window = std::min<size_t>(16, b.size()), warp = std::min<size_t>(32, b.size());
    std::set<int64_t> lines, sectors, later, first;
    for (size_t i = 0; i < window; ++i) lines.insert(b[i] / 64), first.insert(b[i] / 4);
    for (size_t i = 0; i < warp; ++i) sectors.insert(b[i] / 32);
    for (size_t i = window; i < b.size(); ++i) later.insert(b[i] / 4);
    const FirstSteps counts = first_steps(panel.walk);
    o << "<g data-walk=\"" << esc(panel.title) << "\">\n";
    o << "<text class=\"ink\" x=\"" << px << "\" y=\"" << py + 12
      << "\" font-size=\"13\" font-weight=\"bold\" fill=\"" << kInk << "\">" << esc(panel.title)
      << "</text>\n";
    o << "<text class=\"muted\" x=\"" << px << "\" y=\"" << py + 29 << "\" font-size=\"11\" fill=\""
      << kMuted << "\">" << esc(panel.note) << "</text>\n";
    for (int64_t cell = 0; cell < cells; ++cell) {
      const int r = static_cast<int>(cell / kRow), c = static_cast<int>(cell % kRow);
      const int x = px + cell_x(c), y = gy + r * kCell;
      if (first.count(cell)) {
        o << "<rect class=\"step\" data-offset=\"" << cell << "\" x=\"" << x << "\" y=\"" << y
          << "\" width=\"" << kCell << "\" height=\"" << kCell << "\" fill=\"" << kStrong
          << "\" stroke=\"#ffffff\" stroke-width=\"0.5\"/>\n";
      } else if (lines.count(cell / kRow)) {
        o << "<rect class=\"touched\" x=\"" << x << "\" y=\"" << y << "\" width=\"" << kCell
          << "\" height=\"" << kCell << "\" fill=\"" << kTint << "\" stroke=\"#8c8c8c\" "
             "stroke-width=\"0.5\"/>\n";
      } else {
        o << "<rect class=\"blank\" x=\"" << x << "\" y=\"" << y << "\" width=\"" << kCell
          << "\" height=\"" << kCell << "\" fill=\"#ffffff\" stroke=\"#8c8c8c\" "
             "stroke-width=\"0.5\"/>\n";
      }
      if (!first.count(cell) && later.count(cell))
        o << "<circle class=\"muted\" cx=\"" << x + kCell / 2 << "\" cy=\"" << y + kCell / 2
          << "\" r=\"1.6\" fill=\"" << kMuted << "\"/>\n";
    }
    // The sectors of a warp's 32 steps, outlined.
    for (int64_t sector : sectors) {
      const int64_t cell = sector * 8;
      const int r = static_cast<int>(cell / kRow), c = static_cast<int>(cell % kRow);
      o << "<rect class=\"ink-line sector\" x=\"" << px + cell_x(c) << "\" y=\"" << gy + r * kCell
        << "\" width=\"" << 8 * kCell << "\" height=\"" << kCell
        << "\" fill=\"none\" stroke=\"" << kInk << "\" stroke-width=\"1.5\"/>\n";
    }
    // The first 16 steps' order: a path from cell to cell, a ring at the first.
    std::string d;
    for (size_t i = 0; i < window; ++i) {
      const int64_t cell = b[i] / 4;
      const int r = static_cast<int>(cell / kRow), c = static_cast<int>(cell % kRow);
      d += (i ? " L" : "M") + std::to_string(px + cell_x(c) + kCell / 2) + " " +
           std::to_string(gy + r * kCell + kCell / 2);
    }
    if (!d.empty()) {
      o << "<path class=\"link\" data-hue=\"1\" d=\"" << d << "\" fill=\"none\" stroke=\"" << kPath
        << "\" stroke-width=\"1.8\" stroke-linejoin=\"round\"/>\n";
      const int64_t cell = b[0] / 4;
      o << "<circle class=\"start\" cx=\"" << px + cell_x(static_cast<int>(cell % kRow)) + kCell / 2
        << "\" cy=\"" << gy + static_cast<int>(cell / kRow) * kCell + kCell / 2
        << "\" r=\"3.2\" fill=\"#ffffff\" stroke=\"" << kPath << "\" stroke-width=\"1.6\"/>\n";
    }
    o << "<text class=\"ink\" x=\"" << px << "\" y=\"" << gy + grid_h + 18
      << "\" font-size=\"12\" fill=\"" << kInk << "\">" << counts.lines
      << (counts.lines == 1 ? " line · " : " lines · ") << counts.sectors
      << (counts.sectors == 1 ? " sector" : " sectors") << "</text>\n";
    o << "</g>\n";
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace book
