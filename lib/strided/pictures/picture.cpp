#include "strided/pictures/picture.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "strided/core/error.h"
#include "strided/layout/layout.h"
#include "strided/memory/memory.h"

namespace strided {

namespace {

// ---- the model both renderings draw ----------------------------------------------------------------

// One logical element: its index and the storage offset the address formula sends it to.
struct LogicalCell {
  Shape index;
  int64_t offset = 0;
};

struct LayerModel {
  std::string name;
  Tensor tensor;
  std::vector<LogicalCell> cells;       // row-major order of the logical index
  std::map<int64_t, int64_t> uses;      // storage offset -> how many cells map there
};

struct Model {
  std::vector<LayerModel> layers;
  DType dtype = DType::Float32;
  int64_t storage_elements = 0;  // whole elements the storage holds
  int64_t first = 0, last = -1;  // the window of storage offsets drawn, inclusive
  bool values = false;           // whether storage values can be read and shown
};

std::vector<LogicalCell> logical_cells(const Tensor& t) {
  std::vector<LogicalCell> out;
  const size_t nd = static_cast<size_t>(t.dim());
  for_each_index(t.sizes(), {t.strides()}, 0, t.numel(),
                 [&](const int64_t* index, const int64_t* off) {
                   out.push_back({Shape(index, index + nd), t.storage_offset() + off[0]});
                 });
  return out;
}

Model build_model(const std::vector<PictureLayer>& layers, const PictureOptions& options) {
  STRIDED_CHECK(!layers.empty(), "picture", "nothing to draw (no tensors given)");
  STRIDED_CHECK(options.max_cells > 0 && options.cells_per_row > 0, "picture",
                "max_cells and cells_per_row must be positive, got ", options.max_cells, " and ",
                options.cells_per_row);
  Model m;
  const Tensor& first = layers[0].tensor;
  for (const PictureLayer& l : layers) {
    STRIDED_CHECK(l.tensor.defined(), "picture", "the tensor '", l.name, "' is undefined");
    STRIDED_CHECK(l.tensor.storage().is_same(first.storage()), "picture", "'", l.name, "' and '",
                  layers[0].name,
                  "' do not share a storage; draw tensors over one storage together");
    STRIDED_CHECK(l.tensor.dtype() == first.dtype(), "picture", "'", l.name, "' is ",
                  name(l.tensor.dtype()), " but '", layers[0].name, "' is ", name(first.dtype()),
                  "; a picture draws storage cells of one dtype");
  }
  m.dtype = first.dtype();
  m.storage_elements = first.storage().nbytes() / first.element_size();
  m.values = options.show_values && first.device().is_cpu();

  int64_t total = 0, lo = 0, hi = -1;
  for (const PictureLayer& l : layers) {
    const Tensor& t = l.tensor;
    const int64_t n = checked_numel(t.sizes(), "picture");
    total += n;
    STRIDED_CHECK(total <= options.max_cells, "picture", "'", l.name, "' has ", n,
                  " elements and the picture would draw ", total,
                  " logical cells; a picture draws at most ", options.max_cells,
                  " (slice the tensor first)");
    const Extent e = extent(t.layout());
    if (e.empty()) continue;
    STRIDED_CHECK(e.min >= 0 && e.max < m.storage_elements, "picture", "'", l.name, "' (",
                  t.layout(), ", storage offset ", t.storage_offset(), ") reaches offsets ", e.min,
                  "..", e.max, " but its storage holds ", m.storage_elements, " elements");
    if (hi < lo) {
      lo = e.min;
      hi = e.max;
    } else {
      lo = std::min(lo, e.min);
      hi = std::max(hi, e.max);
    }
  }
  // The whole storage when it is small enough, else the window the tensors reach.
  if (m.storage_elements <= options.max_cells) {
    m.first = 0;
    m.last = m.storage_elements - 1;
  } else {
    STRIDED_CHECK(hi < lo || hi - lo + 1 <= options.max_cells, "picture", "the tensors reach ",
                  hi - lo + 1, " storage cells (offsets ", lo, "..", hi,
                  "); a picture draws at most ", options.max_cells);
    m.first = hi < lo ? 0 : lo;
    m.last = hi < lo ? -1 : hi;
  }
  for (const PictureLayer& l : layers) {
    LayerModel lm{l.name, l.tensor, logical_cells(l.tensor), {}};
    for (const LogicalCell& c : lm.cells) ++lm.uses[c.offset];
    m.layers.push_back(std::move(lm));
  }
  return m;
}

// A value as a storage cell shows it: integers exactly, floats with up to 4 significant digits.
std::string short_value(const Scalar& v) {
  switch (v.kind()) {
    case Scalar::Kind::Bool: return v.to_bool() ? "True" : "False";
    case Scalar::Kind::Int: return std::to_string(v.to_int());
    case Scalar::Kind::Float: break;
  }
  const double d = v.to_double();
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", d);
  return buf;
}

Scalar storage_value(const Model& m, int64_t offset) {
  const Tensor& t = m.layers[0].tensor;
  const char* base = static_cast<const char*>(t.storage().data());
  return load_scalar(base + offset * t.element_size(), m.dtype);
}

// A complex value as a cell shows it, short: "1+2j", "0.5-1j".
std::string complex_text(double re, double im) {
  const bool minus = std::signbit(im) && !std::isnan(im);
  return short_value(Scalar(re)) + (minus ? "-" : "+") + short_value(Scalar(std::fabs(im))) + "j";
}

// The storage cell's text: its value, or for a complex dtype its two parts as stored. CONJ shows
// the cell as a conjugate view reads it, its imaginary part negated.
std::string storage_text(const Model& m, int64_t offset, bool conj = false) {
  if (!is_complex(m.dtype)) return short_value(storage_value(m, offset));
  const Tensor& t = m.layers[0].tensor;
  const DType part = real_value_type(m.dtype);
  const char* cell = static_cast<const char*>(t.storage().data()) + offset * t.element_size();
  const double re = load_scalar(cell, part).to_double();
  const double im = load_scalar(cell + itemsize(part), part).to_double();
  return complex_text(re, conj ? -im : im);
}

// The value a logical cell shows. It is read from the storage cell the address formula gives
// (the same read the storage row draws), and checked against the element as Tensor::at reads it
// through its own index arithmetic (for complex data, at of view_as_real's parts): a figure that
// drew anything but the tensor's values would be a figure contradicting the text beside it.
std::string drawn_value(const Model& m, const LayerModel& l, const LogicalCell& cell) {
  const std::string drawn = storage_text(m, cell.offset, l.tensor.is_conj());
  std::string element;
  if (is_complex(m.dtype)) {
    Tensor raw = l.tensor;
    raw.set_conj(false);
    const Tensor parts = view_as_real(raw);
    Shape index(cell.index.begin(), cell.index.end());
    index.push_back(0);
    const double re = parts.at(index).to_double();
    index.back() = 1;
    const double im = parts.at(index).to_double();
    element = complex_text(re, l.tensor.is_conj() ? -im : im);
  } else {
    element = short_value(l.tensor.at(cell.index));
  }
  STRIDED_CHECK(drawn == element, "picture", "internal error: '", l.name, "' cell at offset ",
                cell.offset, " would show ", drawn, " but the element is ", element);
  return drawn;
}

std::string tuple(IntList v) {
  std::string out = "(";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  if (v.size() == 1) out += ",";
  return out + ")";
}

// "(2,3):(3,1), offset 0, contiguous" — the facts a caption and a <desc> state.
std::string layer_summary(const LayerModel& l) {
  const Tensor& t = l.tensor;
  std::string out =
      to_string(t.layout()) + ", storage offset " + std::to_string(t.storage_offset());
  out += t.is_contiguous() ? ", contiguous" : ", not contiguous";
  return out;
}

// ---- SVG ---------------------------------------------------------------------------------------

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // Control characters are not allowed in XML 1.0 text; show them as '?'.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') out += '?';
        else out += c;
    }
  }
  return out;
}

// Colour-blind-safe hues (after Okabe and Ito), darkened where white text sits on them; each with
// a light tint for fills. Dark text on the tints and white text on the strong colours both keep a
// contrast ratio above 4.5, and the white background keeps that true on dark pages too.
struct Colour {
  const char* strong;
  const char* tint;
};
constexpr Colour kPalette[] = {
    {"#0b5fa5", "#dbe9f6"},  // blue
    {"#b04a00", "#fbe3cf"},  // orange
    {"#17794a", "#d5eedf"},  // green
    {"#7a3ad6", "#ebdffc"},  // purple
    {"#a8325f", "#f7d9e5"},  // magenta
    {"#00697f", "#d3eef3"},  // teal
};
const Colour& colour(size_t layer) { return kPalette[layer % std::size(kPalette)]; }
// A link also names its hue (data-hue, the palette index), so that a page in dark mode can draw it
// in a lighter shade of the same hue (book.css): the strong colours are dark, for white text.

constexpr const char* kText = "#1a1a1a";
constexpr const char* kMuted = "#5c5c5c";
constexpr const char* kGrid = "#8c8c8c";
constexpr int kCell = 40;         // logical cell
constexpr int kStore = 44;        // storage cell
constexpr int kMargin = 16;
constexpr int kGap = 32;          // between layer blocks and between slices
constexpr int kIndexBand = 14;    // room for index labels left of and above a grid

class Svg {
 public:
  // cls and offset annotate the element (class="storage" data-offset="5") so that tests and
  // readers of the source can tell cells apart. The classes bg, ink, muted and blank mark what a
  // page may recolour to its theme (the book's dark mode does); the attributes are the colours a
  // standalone SVG keeps.
  void rect(int x, int y, int w, int h, const char* fill, const char* stroke, double stroke_width,
            int rx = 0, const char* cls = nullptr, int64_t offset = -1) {
    out_ << "<rect";
    if (cls) out_ << " class=\"" << cls << "\"";
    if (offset >= 0) out_ << " data-offset=\"" << offset << "\"";
    out_ << " x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"" << h
         << "\"";
    if (rx) out_ << " rx=\"" << rx << "\"";
    out_ << " fill=\"" << fill << "\"";
    if (stroke) out_ << " stroke=\"" << stroke << "\" stroke-width=\"" << stroke_width << "\"";
    out_ << "/>\n";
  }
  void text(int x, int y, const std::string& s, int size, const char* fill,
            const char* anchor = "middle", bool bold = false, const char* cls = nullptr) {
    out_ << "<text";
    if (cls) out_ << " class=\"" << cls << "\"";
    out_ << " x=\"" << x << "\" y=\"" << y << "\" font-size=\"" << size << "\" fill=\""
         << fill << "\" text-anchor=\"" << anchor << "\"";
    if (bold) out_ << " font-weight=\"bold\"";
    out_ << ">" << escape(s) << "</text>\n";
  }
  void raw(const std::string& s) { out_ << s; }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

// Characters (UTF-8 code points) in s, and the pixels a monospace text of that size needs.
size_t chars(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}
int text_width(const std::string& s, int size) {
  return static_cast<int>(std::ceil(0.62 * size * static_cast<double>(chars(s))));
}

// Font size for a label of n characters in a box w pixels wide (monospace, ~0.6 em per char).
int fit(size_t n, int w, int largest) {
  const int fitting = static_cast<int>(static_cast<double>(w - 6) / (0.62 * std::max<size_t>(n, 1)));
  return std::clamp(fitting, 7, largest);
}

// Where each block of a figure sits.
struct GridPlacement {
  int x = 0, y = 0;  // top-left of the cells (index labels sit above and left of it)
  int64_t rows = 1, cols = 1;
};
struct LayerPlacement {
  int x = 0, y = 0, width = 0, height = 0;
  std::vector<GridPlacement> slices;  // one per 2-d slice (one for 0-d, 1-d and 2-d tensors)
  std::vector<std::string> slice_titles;
};

LayerPlacement place_layer(const LayerModel& l, int x, int y) {
  LayerPlacement p;
  p.x = x;
  p.y = y;
  const Tensor& t = l.tensor;
  const int64_t nd = t.dim();
  const int64_t rows = nd >= 2 ? t.sizes()[nd - 2] : 1;
  const int64_t cols = nd >= 1 ? t.sizes()[nd - 1] : 1;
  int64_t nslices = 1;
  for (int64_t d = 0; d + 2 < nd; ++d) nslices *= t.sizes()[d];
  const int header = 36;  // name and layout
  const int slice_title = nd >= 3 ? 16 : 0;
  const int grid_w = static_cast<int>(std::max<int64_t>(cols, 1)) * kCell;
  const int grid_h = static_cast<int>(std::max<int64_t>(rows, 1)) * kCell;
  int cx = x;
  Shape lead(static_cast<size_t>(std::max<int64_t>(nd - 2, 0)), 0);
  for (int64_t s = 0; s < nslices; ++s) {
    GridPlacement g;
    g.x = cx + kIndexBand;
    g.y = y + header + slice_title + kIndexBand;
    g.rows = rows;
    g.cols = cols;
    p.slices.push_back(g);
    if (nd >= 3) {
      std::string title = "[";
      for (size_t i = 0; i < lead.size(); ++i) title += (i ? "," : "") + std::to_string(lead[i]);
      p.slice_titles.push_back(title + "]");
      for (size_t d = lead.size(); d-- > 0;) {  // next leading index, last fastest
        if (++lead[d] < t.sizes()[d]) break;
        lead[d] = 0;
      }
    }
    cx += kIndexBand + grid_w + kGap / 2;
  }
  p.width = std::max({cx - x - kGap / 2, 16 + text_width(l.name, 13),
                      text_width(layer_summary(l), 11)});
  p.height = header + slice_title + kIndexBand + grid_h;
  if (t.numel() == 0) {  // an empty tensor: a caption, no cells
    p.slices.clear();
    p.slice_titles.clear();
    p.height = header + 20;
  }
  return p;
}

std::string default_title(const Model& m) {
  std::string out;
  for (size_t i = 0; i < m.layers.size(); ++i) out += (i ? ", " : "") + m.layers[i].name;
  return out + (m.layers.size() == 1 ? " over its storage" : " over one storage");
}

std::string default_description(const Model& m) {
  std::ostringstream d;
  d << "A storage of " << m.storage_elements << " " << name(m.dtype) << " elements";
  if (m.first != 0 || m.last != m.storage_elements - 1)
    d << " (offsets " << m.first << " to " << m.last << " drawn)";
  d << ".";
  for (const LayerModel& l : m.layers) {
    d << " " << l.name << ": shape " << tuple(l.tensor.sizes()) << ", strides "
      << tuple(l.tensor.strides()) << ", storage offset " << l.tensor.storage_offset() << ", "
      << (l.tensor.is_contiguous() ? "contiguous" : "not contiguous") << "; its "
      << l.cells.size() << " elements use " << l.uses.size() << " storage cells";
    int64_t most = 0;
    for (const auto& [off, k] : l.uses) most = std::max(most, k);
    // A cell read more than once: a stride 0 reads it along a whole dim; overlapping windows
    // (as_strided, unfold) read it from neighbouring positions.
    const auto& st = l.tensor.strides();
    const auto& sz = l.tensor.sizes();
    bool zero = false;
    for (size_t k = 0; k < st.size(); ++k) zero = zero || (st[k] == 0 && sz[k] > 1);
    if (most > 1)
      d << ", some of them up to " << most << " times ("
        << (zero ? "stride 0" : "overlapping windows") << ")";
    if (!l.uses.empty() && l.uses.size() <= 32) {
      d << " (offsets";
      for (const auto& [off, k] : l.uses) d << " " << off;
      d << ")";
    }
    d << ".";
  }
  return d.str();
}

std::string render_svg(const Model& m, const PictureOptions& options, bool storage_only) {
  const std::string title = options.title.empty() ? default_title(m) : options.title;
  const std::string desc = options.description.empty() ? default_description(m) : options.description;

  // Layout: title; the layers side by side; the storage rows below them.
  int y = kMargin;
  const int title_h = 22;
  y += title_h;
  std::vector<LayerPlacement> placed;
  int layers_w = 0, layers_h = 0;
  if (!storage_only) {
    int x = kMargin;
    for (const LayerModel& l : m.layers) {
      placed.push_back(place_layer(l, x, y + 8));
      x += placed.back().width + kGap;
      layers_w = x - kGap - kMargin;
      layers_h = std::max(layers_h, placed.back().height + 8);
    }
  }
  const int64_t window = m.last - m.first + 1;
  const bool clipped_left = m.first > 0;
  const bool clipped_right = m.last < m.storage_elements - 1;
  const int64_t per_row = options.cells_per_row;
  const int64_t store_rows = std::max<int64_t>(1, (window + per_row - 1) / per_row);
  const int store_cols = static_cast<int>(std::min<int64_t>(std::max<int64_t>(window, 1), per_row));
  const int storage_label_h = 22;
  const int link_room = storage_only ? 0 : 56;  // vertical room for the lines to bend in
  const int store_y = y + layers_h + link_room + (storage_only ? 8 : 0);
  const int store_x = kMargin + (clipped_left ? 24 : 0);
  const int row_pitch = kStore + 12;
  const int storage_w = store_cols * kStore + (clipped_left ? 24 : 0) + (clipped_right ? 24 : 0);
  std::string caption = "storage: " + std::to_string(m.storage_elements) + " × " +
                        std::string(name(m.dtype));
  if (clipped_left || clipped_right)
    caption += " (offsets " + std::to_string(m.first) + "–" + std::to_string(m.last) + " shown)";
  // One convention for every cell, logical or storage: the large number is the element's value,
  // the small one in the corner its storage offset (without values: the offset alone).
  caption += m.values ? "; each cell shows its value, its storage offset in the corner"
                      : "; each cell shows its storage offset";
  const int width = kMargin * 2 + std::max({layers_w, storage_w, text_width(title, 15),
                                            text_width(caption, 12), 240});
  // The caption goes under the storage, out of the way of the lines coming down to it.
  const int caption_y = store_y + static_cast<int>(store_rows) * row_pitch + 8;
  const int height = caption_y + storage_label_h + kMargin;

  auto store_cell_xy = [&](int64_t offset, int& cx, int& cy) {
    const int64_t k = offset - m.first;
    cx = store_x + static_cast<int>(k % per_row) * kStore;
    cy = store_y + static_cast<int>(k / per_row) * row_pitch;
  };

  Svg s;
  s.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
        "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) +
        " " + std::to_string(height) +
        "\" role=\"img\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n");
  s.raw("<title>" + escape(title) + "</title>\n");
  s.raw("<desc>" + escape(desc) + "</desc>\n");
  s.rect(0, 0, width, height, "#ffffff", nullptr, 0, 0, "bg");
  s.text(kMargin, kMargin + 14, title, 15, kText, "start", true, "ink");

  // Links first, so that cells are drawn over them.
  int64_t logical_total = 0;
  for (const LayerModel& l : m.layers) logical_total += static_cast<int64_t>(l.cells.size());
  if (!storage_only && options.links && logical_total <= options.max_links) {
    s.raw("<g fill=\"none\" stroke-width=\"1.2\" stroke-opacity=\"0.55\">\n");
    for (size_t li = 0; li < m.layers.size(); ++li) {
      const LayerModel& l = m.layers[li];
      const LayerPlacement& p = placed[li];
      const int64_t per_slice = std::max<int64_t>(p.slices.empty() ? 1 : p.slices[0].rows *
                                                                           p.slices[0].cols, 1);
      for (size_t c = 0; c < l.cells.size(); ++c) {
        const GridPlacement& g = p.slices[static_cast<size_t>(static_cast<int64_t>(c) / per_slice)];
        const int64_t within = static_cast<int64_t>(c) % per_slice;
        const int x1 = g.x + static_cast<int>(within % g.cols) * kCell + kCell / 2;
        const int y1 = g.y + static_cast<int>(within / g.cols) * kCell + kCell;
        int sx, sy;
        store_cell_xy(l.cells[c].offset, sx, sy);
        const int x2 = sx + kStore / 2, y2 = sy;
        const int bend = std::max(24, (y2 - y1) / 2);
        s.raw("<path class=\"link\" d=\"M" + std::to_string(x1) + " " + std::to_string(y1) + " C" +
              std::to_string(x1) + " " + std::to_string(y1 + bend) + " " + std::to_string(x2) +
              " " + std::to_string(y2 - bend) + " " + std::to_string(x2) + " " +
              std::to_string(y2) + "\" stroke=\"" + colour(li).strong + "\" data-hue=\"" +
              std::to_string(li % std::size(kPalette)) + "\"/>\n");
      }
    }
    s.raw("</g>\n");
  }

  // The logical grids.
  for (size_t li = 0; li < placed.size(); ++li) {
    const LayerModel& l = m.layers[li];
    const LayerPlacement& p = placed[li];
    const Colour& c = colour(li);
    s.rect(p.x, p.y + 4, 10, 10, c.strong, nullptr, 0, 2);
    s.text(p.x + 16, p.y + 13, l.name, 13, kText, "start", true, "ink");
    s.text(p.x, p.y + 29, layer_summary(l), 11, kMuted, "start", false, "muted");
    if (l.cells.empty()) {
      s.text(p.x, p.y + 50, "no elements: shape " + tuple(l.tensor.sizes()), 11, kMuted, "start",
             false, "muted");
      continue;
    }
    const int64_t nd = l.tensor.dim();
    for (size_t si = 0; si < p.slices.size(); ++si) {
      const GridPlacement& g = p.slices[si];
      if (nd >= 3)
        s.text(g.x, g.y - kIndexBand - 4, p.slice_titles[si], 11, kMuted, "start", false, "muted");
      if (nd >= 1)  // column indices above, row indices to the left
        for (int64_t j = 0; j < g.cols; ++j)
          s.text(g.x + static_cast<int>(j) * kCell + kCell / 2, g.y - 4, std::to_string(j), 9,
                 kGrid, "middle", false, "muted");
      if (nd >= 2)
        for (int64_t i = 0; i < g.rows; ++i)
          s.text(g.x - 4, g.y + static_cast<int>(i) * kCell + kCell / 2 + 3, std::to_string(i), 9,
                 kGrid, "end", false, "muted");
      const int64_t per_slice = g.rows * g.cols;
      for (int64_t k = 0; k < per_slice; ++k) {
        const LogicalCell& cell = l.cells[si * static_cast<size_t>(per_slice) + static_cast<size_t>(k)];
        const int x = g.x + static_cast<int>(k % g.cols) * kCell;
        const int yy = g.y + static_cast<int>(k / g.cols) * kCell;
        s.raw("<g class=\"logical\" data-offset=\"" + std::to_string(cell.offset) + "\">\n");
        s.rect(x, yy, kCell, kCell, c.tint, c.strong, 1.2);
        if (m.values) {
          const std::string value = drawn_value(m, l, cell);
          const std::string off = std::to_string(cell.offset);
          s.text(x + 2, yy + 9, off, fit(off.size(), kCell / 2, 8), kMuted, "start", false,
                 "offset");
          s.text(x + kCell / 2, yy + kCell / 2 + 9, value, fit(value.size(), kCell, 13), kText,
                 "middle", false, "value");
        } else {
          const std::string off = std::to_string(cell.offset);
          s.text(x + kCell / 2, yy + kCell / 2 + 5, off, fit(off.size(), kCell, 14), kText,
                 "middle", false, "offset");
        }
        s.raw("</g>\n");
      }
    }
  }

  // The storage.
  s.text(kMargin, caption_y, caption, 12, kText, "start", true, "ink");
  if (clipped_left)
    s.text(kMargin + 10, store_y + kStore / 2 + 5, "…", 14, kMuted, "middle", false, "muted");
  for (int64_t off = m.first; off <= m.last; ++off) {
    int x, yy;
    store_cell_xy(off, x, yy);
    std::vector<size_t> touching;
    for (size_t li = 0; li < m.layers.size(); ++li)
      if (m.layers[li].uses.count(off)) touching.push_back(li);
    const bool used = !touching.empty();
    s.raw(std::string("<g class=\"") + (used ? "storage used" : "storage") + "\" data-offset=\"" +
          std::to_string(off) + "\">\n");
    s.rect(x, yy, kStore, kStore, used ? colour(touching[0]).tint : "#ffffff",
           used ? kText : kGrid, used ? 1.2 : 0.8, 0, used ? nullptr : "blank");
    // One bar per tensor that uses the cell, along its bottom edge.
    for (size_t k = 0; k < touching.size(); ++k) {
      const int w = kStore / static_cast<int>(touching.size());
      s.rect(x + static_cast<int>(k) * w, yy + kStore - 5, w, 5, colour(touching[k]).strong,
             nullptr, 0);
    }
    s.text(x + 3, yy + 10, std::to_string(off), 8, used ? kText : kMuted, "start", false,
           used ? "offset" : "offset muted");
    if (m.values) {
      const std::string v = storage_text(m, off);
      s.text(x + kStore / 2, yy + 29, v, fit(v.size(), kStore, 13), used ? kText : kMuted,
             "middle", false, used ? "value" : "value muted");
    }
    // A "×k" badge for each tensor that reuses the cell: the stride-0 dims made visible.
    int badge = 0;
    for (size_t li : touching) {
      const int64_t k = m.layers[li].uses.at(off);
      if (k < 2) continue;
      const std::string label = "×" + std::to_string(k);
      const int bw = 8 + 6 * static_cast<int>(label.size() - 1);  // "×" is 2 bytes in UTF-8
      const int bx = x + kStore - bw + 4 - badge * (bw + 2);
      s.rect(bx, yy - 6, bw, 13, colour(li).strong, "#ffffff", 1, 6, "badge", off);
      s.text(bx + bw / 2, yy + 4, label, 9, "#ffffff", "middle", true);
      ++badge;
    }
    s.raw("</g>\n");
  }
  if (clipped_right) {
    int x, yy;
    store_cell_xy(m.last, x, yy);
    s.text(x + kStore + 12, yy + kStore / 2 + 5, "…", 14, kMuted, "middle", false, "muted");
  }
  s.raw("</svg>\n");
  return s.str();
}

}  // namespace

std::string views_svg(const std::vector<PictureLayer>& layers, const PictureOptions& options) {
  return render_svg(build_model(layers, options), options, /*storage_only=*/false);
}

std::string tensor_svg(const Tensor& t, const std::string& name, const PictureOptions& options) {
  return views_svg({{t, name}}, options);
}

std::string storage_svg(const Tensor& t, const std::string& name, const PictureOptions& options) {
  return render_svg(build_model({{t, name}}, options), options, /*storage_only=*/true);
}

// ---- text ----------------------------------------------------------------------------------------

std::string text_picture(const Tensor& t, const PictureOptions& options) {
  const Model m = build_model({{t, "t"}}, options);
  const LayerModel& l = m.layers[0];
  std::ostringstream out;
  if (l.cells.empty()) {
    out << "no elements (shape " << tuple(t.sizes()) << "): the tensor uses no storage\n";
  } else if (t.dim() == 0) {
    out << "storage offset of the element: " << l.cells[0].offset << "\n";
  } else {
    // The grid of offsets, nested and aligned as PyTorch prints a tensor.
    size_t w = 1;
    for (const LogicalCell& c : l.cells) w = std::max(w, std::to_string(c.offset).size());
    out << "storage offset of each element:\n";
    const int64_t nd = t.dim();
    for (size_t k = 0; k < l.cells.size(); ++k) {
      const Shape& idx = l.cells[k].index;
      // Opening brackets for the dims whose index restarts here.
      int64_t opening = 0;
      for (int64_t d = nd - 1; d >= 0 && idx[static_cast<size_t>(d)] == 0; --d) ++opening;
      if (k == 0) {
        out << "  " << std::string(static_cast<size_t>(nd), '[');
      } else if (opening > 0) {
        out << std::string(static_cast<size_t>(opening > 1 ? opening - 1 : 0), '\n')
            << "  " << std::string(static_cast<size_t>(nd - opening), ' ')
            << std::string(static_cast<size_t>(opening), '[');
      } else {
        out << " ";
      }
      const std::string v = std::to_string(l.cells[k].offset);
      out << std::string(w - v.size(), ' ') << v;
      int64_t closing = 0;
      for (int64_t d = nd - 1; d >= 0 && idx[static_cast<size_t>(d)] == t.sizes()[static_cast<size_t>(d)] - 1; --d)
        ++closing;
      out << std::string(static_cast<size_t>(closing), ']');
      out << (k + 1 < l.cells.size() ? (closing > 0 ? ",\n" : ",") : "\n");
    }
  }
  // The storage row with a mark under each cell: '*' used once, k used k times, '.' unused.
  const int64_t window = m.last - m.first + 1;
  out << "storage: " << m.storage_elements << " x " << name(m.dtype);
  if (m.first > 0 || m.last < m.storage_elements - 1)
    out << ", offsets " << m.first << ".." << m.last << " shown";
  out << " (* used once, k used k times, . unused)\n";
  size_t w = 1;
  for (int64_t off = m.first; off <= m.last; ++off)
    w = std::max(w, std::to_string(off).size());
  for (const auto& [off, k] : l.uses) w = std::max(w, std::to_string(k).size());
  // As many cells per line as keep a line within 80 columns (and within cells_per_row).
  const int64_t per_row =
      std::max<int64_t>(1, std::min<int64_t>(options.cells_per_row, 70 / static_cast<int64_t>(w + 1)));
  for (int64_t row = 0; row * per_row < window; ++row) {
    std::string offsets = "  offset", marks = "  used  ";
    for (int64_t k = row * per_row; k < std::min(window, (row + 1) * per_row); ++k) {
      const int64_t off = m.first + k;
      const std::string o = std::to_string(off);
      const auto it = l.uses.find(off);
      const std::string mark = it == l.uses.end() ? "." : it->second == 1 ? "*"
                                                                          : std::to_string(it->second);
      offsets += " " + std::string(w - o.size(), ' ') + o;
      marks += " " + std::string(w - mark.size(), ' ') + mark;
    }
    out << offsets << "\n" << marks << "\n";
  }
  return out.str();
}

// ---- strides as steps ----------------------------------------------------------------------------

namespace {

struct Arc {
  int64_t dim = 0, from = 0, to = 0;
};

std::string join_tuple(IntList v) { return tuple(v); }

}  // namespace

std::string steps_svg(IntList sizes, IntList strides, int64_t storage_offset, int64_t item_size,
                      const StepsOptions& options) {
  STRIDED_CHECK(sizes.size() == strides.size(), "steps picture", sizes.size(), " sizes but ",
                strides.size(), " strides");
  STRIDED_CHECK(item_size > 0, "steps picture", "the item size must be positive, got ", item_size);
  STRIDED_CHECK(storage_offset >= 0, "steps picture", "negative storage offset ", storage_offset);
  STRIDED_CHECK(options.max_cells > 0 && options.max_steps > 0, "",
                "steps picture: max_cells and max_steps must be positive");
  for (size_t d = 0; d < sizes.size(); ++d) {
    STRIDED_CHECK(sizes[d] >= 0, "steps picture", "negative size ", sizes[d], " in dim ", d);
    STRIDED_CHECK(strides[d] >= 0, "steps picture", "negative stride ", strides[d], " in dim ", d,
                  "; strided tensors have none");
  }
  const int64_t nd = static_cast<int64_t>(sizes.size());
  const Extent e = extent(Layout(sizes.vec(), strides.vec(), storage_offset));
  const int64_t reach = e.empty() ? storage_offset : e.max;
  int64_t cells = options.storage_elements > 0 ? options.storage_elements : reach + 1;
  STRIDED_CHECK(e.empty() || e.max < cells, "steps picture", "the layout reaches offset ", e.max,
                " but the storage holds ", cells, " elements");
  STRIDED_CHECK(cells <= options.max_cells, "steps picture", cells,
                " storage cells; the picture draws at most ", options.max_cells,
                " (slice the tensor first)");
  cells = std::max<int64_t>(cells, 1);

  // The cells the layout touches, and the arcs: along each dim, from the first element.
  std::vector<int64_t> uses(static_cast<size_t>(cells), 0);
  if (!e.empty())
    for_each_index(sizes, {Shape(strides.begin(), strides.end())}, 0,
                   checked_numel(sizes, "steps picture"),
                   [&](const int64_t*, const int64_t* off) { ++uses[static_cast<size_t>(storage_offset + off[0])]; });
  std::vector<Arc> arcs;
  for (int64_t d = 0; d < nd && !e.empty(); ++d) {
    const int64_t steps = std::min(sizes[d] - 1, options.max_steps);
    for (int64_t j = 0; j < steps; ++j)
      arcs.push_back({d, storage_offset + j * strides[d], storage_offset + (j + 1) * strides[d]});
  }

  // Geometry: cells as wide as keep 24 of them near 560 pixels, the arcs above them.
  const int cell = static_cast<int>(std::clamp<int64_t>(552 / cells, 20, 40));
  const int cell_h = 30;
  int64_t widest = 0;
  for (const Arc& a : arcs) widest = std::max(widest, a.to - a.from);
  // An arc's height grows as the square root of its span: arcs leaving one cell then nest
  // without crossing (each is an ellipse tangent to the others at its start).
  auto arc_height = [&](int64_t span) {
    return span == 0 ? 22.0 : 3.4 * std::sqrt(static_cast<double>(span * cell));
  };
  const int arcs_h = static_cast<int>(std::ceil(arc_height(std::max<int64_t>(widest, 1)))) + 34;
  const std::string layout = tuple(sizes) + ":" + tuple(strides);
  const std::string title = options.title.empty()
                                ? options.name + " = " + layout + ", offset " +
                                      std::to_string(storage_offset)
                                : options.title;
  std::vector<std::string> legend;
  for (int64_t d = 0; d < nd; ++d) {
    std::string line = "dim " + std::to_string(d) + ": +" + std::to_string(strides[d]) + " (" +
                       std::to_string(strides[d] * item_size) + " bytes)";
    const int64_t steps = sizes[d] > 0 ? sizes[d] - 1 : 0;
    line += steps == 0 ? ", size " + std::to_string(sizes[d]) + ": no step"
                       : ", " + std::to_string(steps) + (steps == 1 ? " step" : " steps");
    legend.push_back(line);
  }
  const int title_y = kMargin + 14;
  const int row_y = kMargin + 22 + arcs_h;          // top of the storage cells
  const int caption_y = row_y + cell_h + 18;
  const int legend_y = caption_y + 20;
  const int legend_h = static_cast<int>(legend.size()) * 18;
  const std::string caption = "storage: " + std::to_string(cells) + " elements of " +
                              std::to_string(item_size) +
                              " bytes; shaded: used; outlined: the first element";
  int content_w = static_cast<int>(cells) * cell;
  content_w = std::max({content_w, text_width(title, 14), text_width(caption, 11), 240});
  for (const std::string& l : legend) content_w = std::max(content_w, 20 + text_width(l, 12));
  const int width = 2 * kMargin + content_w;
  const int height = legend_y + legend_h + kMargin - 6;
  const int x0 = kMargin;
  auto centre = [&](int64_t off) { return x0 + static_cast<int>(off) * cell + cell / 2; };

  std::ostringstream desc;
  if (options.description.empty()) {
    desc << "A storage of " << cells << " elements of " << item_size << " bytes. " << options.name
         << " has sizes " << join_tuple(sizes) << ", strides " << join_tuple(strides)
         << " and storage offset " << storage_offset << ".";
    for (int64_t d = 0; d < nd; ++d)
      desc << " One step along dim " << d << " jumps " << strides[d] << " elements ("
           << strides[d] * item_size << " bytes).";
  } else {
    desc << options.description;
  }

  Svg s;
  s.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
        "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) +
        " " + std::to_string(height) +
        "\" role=\"img\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n");
  s.raw("<title>" + escape(title) + "</title>\n");
  s.raw("<desc>" + escape(desc.str()) + "</desc>\n");
  s.rect(0, 0, width, height, "#ffffff", nullptr, 0, 0, "bg");
  s.text(kMargin, title_y, title, 14, kText, "start", true, "ink");

  // The storage row.
  for (int64_t off = 0; off < cells; ++off) {
    const bool used = uses[static_cast<size_t>(off)] > 0;
    const bool first = !e.empty() && off == storage_offset;
    const int x = x0 + static_cast<int>(off) * cell;
    s.raw(std::string("<g class=\"") + (used ? "storage used" : "storage") + "\" data-offset=\"" +
          std::to_string(off) + "\">\n");
    s.rect(x, row_y, cell, cell_h, used ? "#e4e4e4" : "#ffffff", used ? kText : kGrid,
           first ? 2.4 : (used ? 1.0 : 0.8), 0, used ? nullptr : "blank");
    const std::string label = std::to_string(off);
    s.text(x + cell / 2, row_y + cell_h / 2 + 4, label, fit(label.size(), cell, 11),
           used ? kText : kMuted, "middle", false, used ? "offset" : "offset muted");
    s.raw("</g>\n");
  }

  // The arcs, each dim in its colour; then one label per dim, on its first arc, moved up while
  // it would cover another.
  struct Box {
    int x, y, w, h;
  };
  std::vector<Box> boxes;
  s.raw("<g fill=\"none\" stroke-width=\"1.8\">\n");
  for (const Arc& a : arcs) {
    const Colour& c = colour(static_cast<size_t>(a.dim));
    const std::string hue = std::to_string(static_cast<size_t>(a.dim) % std::size(kPalette));
    const int xa = centre(a.from), xb = centre(a.to), y = row_y - 1;
    const int64_t span = a.to - a.from;
    std::string d;
    if (span == 0) {  // stride 0: the step stays on its cell, a loop
      d = "M" + std::to_string(xa - 5) + " " + std::to_string(y) + " C" + std::to_string(xa - 14) +
          " " + std::to_string(y - 30) + " " + std::to_string(xa + 14) + " " +
          std::to_string(y - 30) + " " + std::to_string(xa + 5) + " " + std::to_string(y);
    } else {
      const double rx = (xb - xa) / 2.0, ry = arc_height(span);
      char buf[160];
      std::snprintf(buf, sizeof buf, "M%d %d A%.1f %.1f 0 0 1 %d %d", xa, y, rx, ry, xb, y);
      d = buf;
    }
    s.raw("<path class=\"link step\" data-dim=\"" + std::to_string(a.dim) + "\" data-from=\"" +
          std::to_string(a.from) + "\" data-to=\"" + std::to_string(a.to) + "\" data-hue=\"" +
          hue + "\" d=\"" + d + "\" stroke=\"" + c.strong + "\"/>\n");
    // The arrowhead: a chevron at the landing cell, stroked like the arc (so themed with it).
    const int tip_x = span == 0 ? xa + 5 : xb;
    s.raw("<path class=\"link\" data-hue=\"" + hue + "\" d=\"M" + std::to_string(tip_x - 4) + " " +
          std::to_string(y - 7) + " L" + std::to_string(tip_x) + " " + std::to_string(y) + " L" +
          std::to_string(tip_x + 4) + " " + std::to_string(y - 7) + "\" stroke=\"" + c.strong +
          "\"/>\n");
  }
  s.raw("</g>\n");
  for (int64_t d = 0; d < nd; ++d) {
    const auto it = std::find_if(arcs.begin(), arcs.end(), [&](const Arc& a) { return a.dim == d; });
    if (it == arcs.end()) continue;
    const Colour& c = colour(static_cast<size_t>(d));
    const std::string label = "+" + std::to_string(strides[d]);
    const int64_t span = it->to - it->from;
    const int w = text_width(label, 11) + 8, h = 15;
    int x = (centre(it->from) + centre(it->to)) / 2 - w / 2;
    int y = row_y - 1 - static_cast<int>(span == 0 ? 24 : arc_height(span)) - h / 2;
    x = std::max(x, 2);
    for (bool moved = true; moved;) {
      moved = false;
      for (const Box& b : boxes)
        if (x < b.x + b.w && b.x < x + w && y < b.y + b.h && b.y < y + h) {
          y = b.y - h - 2;
          moved = true;
        }
    }
    boxes.push_back({x, y, w, h});
    s.raw("<g class=\"step-label\" data-dim=\"" + std::to_string(d) + "\">\n");
    s.rect(x, y, w, h, c.tint, c.strong, 1.2, 4);
    s.text(x + w / 2, y + 11, label, 11, kText, "middle", true);
    s.raw("</g>\n");
  }

  // Caption and legend.
  s.text(kMargin, caption_y, caption, 11, kMuted, "start", false, "muted");
  for (size_t d = 0; d < legend.size(); ++d) {
    const int y = legend_y + static_cast<int>(d) * 18;
    s.rect(kMargin, y - 9, 12, 10, colour(d).strong, nullptr, 0, 2);
    s.raw("<g class=\"legend\" data-dim=\"" + std::to_string(d) + "\">\n");
    s.text(kMargin + 18, y, legend[d], 12, kText, "start", false, "ink");
    s.raw("</g>\n");
  }
  s.raw("</svg>\n");
  return s.str();
}

std::string steps_svg(const Tensor& t, const std::string& name, StepsOptions options) {
  STRIDED_CHECK(t.defined(), "steps picture", "the tensor '", name, "' is undefined");
  options.name = name;
  const int64_t storage = t.storage().nbytes() / t.element_size();
  if (options.storage_elements == 0 && storage <= options.max_cells)
    options.storage_elements = storage;
  return steps_svg(t.sizes(), t.strides(), t.storage_offset(), t.element_size(), options);
}

}  // namespace strided
