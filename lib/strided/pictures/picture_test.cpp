#include "strided/pictures/picture.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace strided;

namespace {

Tensor over(const Tensor& base, Shape sizes, Shape strides, int64_t offset) {
  return Tensor(base.storage(), std::move(sizes), std::move(strides), offset, base.dtype());
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The data-offset of every element with the given class, in document order.
std::vector<int64_t> offsets_of(const std::string& svg, const std::string& cls) {
  std::vector<int64_t> out;
  const std::string key = "class=\"" + cls + "\" data-offset=\"";
  for (size_t at = svg.find(key); at != std::string::npos; at = svg.find(key, at + 1))
    out.push_back(std::stoll(svg.substr(at + key.size())));
  return out;
}

// A small XML well-formedness check: balanced tags, quoted attributes, and no raw '<' or stray
// '&' in text or attribute values. Returns an empty string when well formed, else the problem.
std::string xml_problem(const std::string& s) {
  std::vector<std::string> open;
  size_t i = 0;
  auto entity_ok = [&](size_t at) {
    for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
      if (s.compare(at, std::string(e).size(), e) == 0) return true;
    return false;
  };
  while (i < s.size()) {
    if (s[i] == '&' && !entity_ok(i)) return "stray & at " + std::to_string(i);
    if (s[i] != '<') {
      if (s[i] == '>') return "stray > at " + std::to_string(i);
      ++i;
      continue;
    }
    const bool closing = s.compare(i, 2, "</") == 0;
    size_t j = i + (closing ? 2 : 1);
    size_t name_end = j;
    while (name_end < s.size() && (std::isalnum(static_cast<unsigned char>(s[name_end])) ||
                                   s[name_end] == '-' || s[name_end] == ':'))
      ++name_end;
    const std::string name = s.substr(j, name_end - j);
    if (name.empty()) return "empty tag name at " + std::to_string(i);
    j = name_end;
    bool self_closing = false;
    while (j < s.size() && s[j] != '>') {
      if (s[j] == '"') {  // an attribute value
        const size_t end = s.find('"', j + 1);
        if (end == std::string::npos) return "unterminated attribute in <" + name + ">";
        for (size_t k = j + 1; k < end; ++k) {
          if (s[k] == '<') return "raw < in an attribute of <" + name + ">";
          if (s[k] == '&' && !entity_ok(k)) return "stray & in an attribute of <" + name + ">";
        }
        j = end + 1;
        continue;
      }
      if (s[j] == '=' && (j + 1 >= s.size() || s[j + 1] != '"'))
        return "unquoted attribute in <" + name + ">";
      if (s[j] == '/' && j + 1 < s.size() && s[j + 1] == '>') self_closing = true;
      ++j;
    }
    if (j >= s.size()) return "unterminated tag <" + name + ">";
    if (closing) {
      if (open.empty() || open.back() != name) return "mismatched </" + name + ">";
      open.pop_back();
    } else if (!self_closing) {
      if (open.empty() && name != "svg") return "the root element is <" + name + ">";
      open.push_back(name);
    }
    i = j + 1;
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

}  // namespace

TEST_CASE("the checker itself rejects broken XML") {
  CHECK(xml_problem("<svg><rect x=\"1\"/></svg>").empty());
  CHECK_FALSE(xml_problem("<svg><rect x=\"1\"></svg>").empty());
  CHECK_FALSE(xml_problem("<svg><text>a < b</text></svg>").empty());
  CHECK_FALSE(xml_problem("<svg><text>a & b</text></svg>").empty());
  CHECK_FALSE(xml_problem("<svg><rect x=1/></svg>").empty());
}

TEST_CASE("a contiguous matrix: one logical cell and one storage cell per element") {
  const Tensor x = over(arange(6), {2, 3}, {3, 1}, 0);
  const std::string svg = tensor_svg(x, "x");
  CHECK(xml_problem(svg) == "");
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(count(svg, "<title>x over its storage</title>") == 1);
  CHECK(count(svg, "<desc>") == 1);
  CHECK(offsets_of(svg, "logical") == std::vector<int64_t>{0, 1, 2, 3, 4, 5});
  CHECK(offsets_of(svg, "storage used") == std::vector<int64_t>{0, 1, 2, 3, 4, 5});
  CHECK(offsets_of(svg, "storage").empty());  // no unused cell
  CHECK(count(svg, "class=\"link\"") == 6);
  CHECK(count(svg, "class=\"badge\"") == 0);
  CHECK(count(svg, "(2,3):(3,1), storage offset 0, contiguous") == 1);
  // Self-contained: nothing fetched, no script, no style sheet.
  CHECK(count(svg, "href") == 0);
  CHECK(count(svg, "<script") == 0);
  CHECK(count(svg, "<style") == 0);
  CHECK(count(svg, "url(") == 0);
  // Deterministic.
  CHECK(svg == tensor_svg(x, "x"));
}

// The text with class cls inside each <g class="group" ...> cell, in document order.
std::vector<std::string> texts_of(const std::string& svg, const std::string& group,
                                  const std::string& cls) {
  std::vector<std::string> out;
  const std::string open = "<g class=\"" + group + "\" data-offset=\"";
  for (size_t at = svg.find(open); at != std::string::npos; at = svg.find(open, at + 1)) {
    const size_t end = svg.find("</g>", at);
    const size_t t = svg.find("class=\"" + cls + "\"", at);
    if (t == std::string::npos || t > end) {
      out.push_back("(none)");
      continue;
    }
    const size_t b = svg.find('>', t) + 1;
    out.push_back(svg.substr(b, svg.find("</text>", b) - b));
  }
  return out;
}

TEST_CASE("every cell shows the element's value, its storage offset in the corner") {
  // Values unlike their offsets, so that a grid of offsets cannot pass for a grid of values.
  const Tensor x = from_values({5, 7, 9, 11, 13, 15}, {2, 3});
  const std::string svg = tensor_svg(x.t(), "x.t()");
  CHECK(offsets_of(svg, "logical") == std::vector<int64_t>{0, 3, 1, 4, 2, 5});
  CHECK(texts_of(svg, "logical", "value") ==
        std::vector<std::string>{"5", "11", "7", "13", "9", "15"});
  CHECK(texts_of(svg, "logical", "offset") ==
        std::vector<std::string>{"0", "3", "1", "4", "2", "5"});
  CHECK(texts_of(svg, "storage used", "value") ==
        std::vector<std::string>{"5", "7", "9", "11", "13", "15"});
  CHECK(count(svg, "each cell shows its value, its storage offset in the corner") == 1);
  // A write through a view shows in every figure drawn after it.
  Tensor y = from_values({5, 7, 9, 11, 13, 15}, {2, 3});
  y.t().select(0, 0).select(0, 1).fill_(Scalar(int64_t{99}));  // y.t()[0, 1] is y[1, 0]
  CHECK(texts_of(tensor_svg(y), "logical", "value") ==
        std::vector<std::string>{"5", "7", "9", "99", "13", "15"});
  // Without values (show_values off) a cell shows its offset alone, and the caption says so.
  PictureOptions no_values;
  no_values.show_values = false;
  const std::string bare = tensor_svg(x.t(), "x.t()", no_values);
  CHECK(texts_of(bare, "logical", "offset") ==
        std::vector<std::string>{"0", "3", "1", "4", "2", "5"});
  CHECK(texts_of(bare, "logical", "value") == std::vector<std::string>(6, "(none)"));
  CHECK(count(bare, "each cell shows its storage offset") == 1);
}

TEST_CASE("a float's bytes as uint8: each cell shows a byte, the storage caption its dtype") {
  // torch.tensor([1.0, -2.5]).view(torch.uint8): [0, 0, 128, 63, 0, 0, 32, 192].
  const Tensor bytes = from_values({1.0, -2.5}, {2}).view(DType::UInt8).view({2, 4});
  const std::string svg = tensor_svg(bytes, "x.view(torch.uint8)");
  CHECK(texts_of(svg, "logical", "value") ==
        std::vector<std::string>{"0", "0", "128", "63", "0", "0", "32", "192"});
  CHECK(count(svg, "A storage of 8 uint8 elements") == 1);
  const std::string signed_svg = tensor_svg(bytes.view(DType::Int8), "x.view(torch.int8)");
  CHECK(texts_of(signed_svg, "logical", "value") ==
        std::vector<std::string>{"0", "0", "-128", "63", "0", "0", "32", "-64"});
}

TEST_CASE("complex data: each cell shows both parts, a conjugate view its imaginary part negated") {
  // view_as_complex(tensor([[1., 2.], [3., -4.5]])) is tensor([1.+2.j, 3.-4.5j]); its conj()
  // prints tensor([1.-2.j, 3.+4.5j]) and shares the storage, which keeps the parts as they were.
  const Tensor z = view_as_complex(from_values({1, 2, 3, -4.5}, {2, 2}));
  CHECK(texts_of(tensor_svg(z, "z"), "logical", "value") ==
        std::vector<std::string>{"1+2j", "3-4.5j"});
  const std::string conj = tensor_svg(z.conj(), "z.conj()");
  CHECK(texts_of(conj, "logical", "value") == std::vector<std::string>{"1-2j", "3+4.5j"});
  CHECK(texts_of(conj, "storage used", "value") == std::vector<std::string>{"1+2j", "3-4.5j"});
}

TEST_CASE("the page may recolour a figure: background, text and blank cells carry classes") {
  const std::string svg = tensor_svg(over(arange(12), {3}, {4}, 1), "x[:, 1]");
  CHECK(count(svg, "class=\"bg\"") == 1);
  CHECK(count(svg, "class=\"ink\"") >= 2);  // title, name, caption
  CHECK(count(svg, "class=\"blank\"") == 9);  // the storage cells x[:, 1] does not use
}

TEST_CASE("each logical cell is labelled with the offset the address formula gives") {
  const Tensor base = arange(12);
  // x.t() of a 2x3: the logical order visits storage 0,3,1,4,2,5.
  CHECK(offsets_of(tensor_svg(over(base, {3, 2}, {1, 3}, 0)), "logical") ==
        std::vector<int64_t>{0, 3, 1, 4, 2, 5});
  // A column with an offset: x[:, 1] of a 3x4 touches 1, 5, 9; the other storage cells are unused.
  const std::string col = tensor_svg(over(base, {3}, {4}, 1), "x[:, 1]");
  CHECK(offsets_of(col, "logical") == std::vector<int64_t>{1, 5, 9});
  CHECK(offsets_of(col, "storage used") == std::vector<int64_t>{1, 5, 9});
  CHECK(offsets_of(col, "storage").size() == 9);
  CHECK(count(col, "(3,):(4,), storage offset 1, not contiguous</text>") == 1);
  // 3-d: 2-d slices side by side, titled with their leading index.
  const std::string cube = tensor_svg(over(base, {2, 2, 3}, {6, 3, 1}, 0));
  CHECK(offsets_of(cube, "logical").size() == 12);
  CHECK(count(cube, ">[0]</text>") == 1);
  CHECK(count(cube, ">[1]</text>") == 1);
  // 0-d: a single cell.
  CHECK(offsets_of(tensor_svg(over(base, {}, {}, 7)), "logical") == std::vector<int64_t>{7});
  // No elements: no logical cell, and the figure says so.
  const std::string empty = tensor_svg(over(base, {0, 3}, {3, 1}, 0));
  CHECK(offsets_of(empty, "logical").empty());
  CHECK(count(empty, "no elements") == 1);
  CHECK(xml_problem(empty) == "");
}

TEST_CASE("stride 0 reuses a cell: the storage cell carries a count badge") {
  const Tensor row = arange(3);
  const std::string svg = tensor_svg(over(row, {4, 3}, {0, 1}, 0), "row.expand(4, 3)");
  CHECK(offsets_of(svg, "logical").size() == 12);
  CHECK(offsets_of(svg, "badge") == std::vector<int64_t>{0, 1, 2});
  CHECK(count(svg, ">×4</text>") == 3);
  CHECK(count(svg, "up to 4 times (stride 0)") == 1);
  CHECK(xml_problem(svg) == "");
  // Overlapping windows reuse cells with no stride 0, and the description says which.
  const std::string windows = tensor_svg(over(arange(5), {3, 3}, {1, 1}, 0), "windows");
  CHECK(count(windows, "up to 3 times (overlapping windows)") == 1);
  CHECK(count(windows, "stride 0") == 0);
}

TEST_CASE("several tensors over one storage, each in its own colour") {
  const Tensor base = arange(6);
  const Tensor x = over(base, {2, 3}, {3, 1}, 0);
  const Tensor col = over(base, {2}, {3}, 1);
  const std::string svg = views_svg({{x, "x"}, {col, "x[:, 1]"}});
  CHECK(xml_problem(svg) == "");
  CHECK(offsets_of(svg, "logical") == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 1, 4});
  CHECK(count(svg, "<title>x, x[:, 1] over one storage</title>") == 1);
  CHECK(count(svg, "stroke=\"#0b5fa5\"") > 0);  // the first colour
  CHECK(count(svg, "fill=\"#b04a00\"") > 0);    // the second one marks cells 1 and 4
  CHECK(count(svg, "class=\"link\"") == 8);
  // Each link names its layer's hue, for the dark page's lighter shade.
  CHECK(count(svg, "data-hue=\"0\"") + count(svg, "data-hue=\"1\"") == 8);
  PictureOptions no_links;
  no_links.max_links = 4;
  CHECK(count(views_svg({{x, "x"}, {col, "c"}}, no_links), "class=\"link\"") == 0);
}

TEST_CASE("text is escaped, titles and descriptions can be given") {
  PictureOptions o;
  o.title = "a < b & \"c\"";
  o.description = "d > e 'f'";
  const std::string svg = tensor_svg(over(arange(4), {4}, {1}, 0), "<x&y>", o);
  CHECK(xml_problem(svg) == "");
  CHECK(count(svg, "<title>a &lt; b &amp; &quot;c&quot;</title>") == 1);
  CHECK(count(svg, "<desc>d &gt; e &apos;f&apos;</desc>") == 1);
  CHECK(count(svg, "&lt;x&amp;y&gt;") >= 1);
  CHECK(count(svg, "<x&y>") == 0);
}

TEST_CASE("a big storage is drawn as the window the tensors reach") {
  const Tensor big = arange(10000);
  const std::string svg = tensor_svg(over(big, {2, 2}, {100, 1}, 5000), "w");
  CHECK(offsets_of(svg, "logical") == std::vector<int64_t>{5000, 5001, 5100, 5101});
  CHECK(offsets_of(svg, "storage used").size() == 4);
  CHECK(offsets_of(svg, "storage").size() == 98);
  CHECK(count(svg, "offsets 5000–5101 shown") == 1);
  CHECK(xml_problem(svg) == "");
}

TEST_CASE("pictures refuse what nobody could read, and bad layers, with clear errors") {
  const Tensor big = arange(10000);
  CHECK_THROWS_WITH_AS(tensor_svg(over(big, {600}, {1}, 0), "v"),
                       doctest::Contains("a picture draws at most 512"), Error);
  CHECK_THROWS_WITH_AS(tensor_svg(over(big, {2}, {9000}, 0), "v"),
                       doctest::Contains("reach 9001 storage cells"), Error);
  CHECK_THROWS_WITH_AS(views_svg({{arange(4), "a"}, {arange(4), "b"}}),
                       doctest::Contains("do not share a storage"), Error);
  const Tensor ints = arange(4);
  CHECK_THROWS_WITH_AS(
      views_svg({{ints, "a"}, {Tensor(ints.storage(), {2}, {1}, 0, DType::Int32), "b"}}),
      doctest::Contains("a picture draws storage cells of one dtype"), Error);
  CHECK_THROWS_WITH_AS(tensor_svg(Tensor(), "u"), doctest::Contains("'u' is undefined"), Error);
  // A layout past its storage cannot reach a picture: the Tensor refuses to exist.
  CHECK_THROWS_WITH_AS(over(ints, {3}, {2}, 0),
                       doctest::Contains("need 40 bytes, but the storage holds 32"), Error);
  CHECK_THROWS_AS(views_svg({}), Error);
}

TEST_CASE("the text picture") {
  const Tensor base = arange(6);
  CHECK(text_picture(over(base, {3, 2}, {1, 3}, 0)) ==
        "storage offset of each element:\n"
        "  [[0, 3],\n"
        "   [1, 4],\n"
        "   [2, 5]]\n"
        "storage: 6 x int64 (* used once, k used k times, . unused)\n"
        "  offset 0 1 2 3 4 5\n"
        "  used   * * * * * *\n");
  CHECK(text_picture(over(base, {2, 1, 2}, {0, 1, 2}, 1)) ==
        "storage offset of each element:\n"
        "  [[[1, 3]],\n"
        "\n"
        "   [[1, 3]]]\n"
        "storage: 6 x int64 (* used once, k used k times, . unused)\n"
        "  offset 0 1 2 3 4 5\n"
        "  used   . 2 . 2 . .\n");
  CHECK(text_picture(over(base, {}, {}, 4)) ==
        "storage offset of the element: 4\n"
        "storage: 6 x int64 (* used once, k used k times, . unused)\n"
        "  offset 0 1 2 3 4 5\n"
        "  used   . . . . * .\n");
  PictureOptions narrow;
  narrow.cells_per_row = 4;
  CHECK(text_picture(over(base, {0}, {1}, 0), narrow) ==
        "no elements (shape (0,)): the tensor uses no storage\n"
        "storage: 6 x int64 (* used once, k used k times, . unused)\n"
        "  offset 0 1 2 3\n"
        "  used   . . . .\n"
        "  offset 4 5\n"
        "  used   . .\n");
}

// The data-<attr> values of every element with class "link step", in document order.
std::vector<int64_t> step_attr(const std::string& svg, const std::string& attr) {
  std::vector<int64_t> out;
  for (size_t at = svg.find("class=\"link step\""); at != std::string::npos;
       at = svg.find("class=\"link step\"", at + 1)) {
    const size_t end = svg.find('>', at);
    const std::string tag = svg.substr(at, end - at);
    const std::string key = attr + "=\"";
    out.push_back(std::stoll(tag.substr(tag.find(key) + key.size())));
  }
  return out;
}

TEST_CASE("steps: each arc jumps by its dim's stride from the first element") {
  const std::string svg = steps_svg({2, 3, 4}, {12, 4, 1}, 0, 4);
  CHECK(xml_problem(svg) == "");
  const auto dims = step_attr(svg, "data-dim"), from = step_attr(svg, "data-from"),
             to = step_attr(svg, "data-to");
  // One arc per step along each dim: 1 + 2 + 3, from the first element t[0, 0, 0] at offset 0.
  CHECK(dims == std::vector<int64_t>{0, 1, 1, 2, 2, 2});
  CHECK(from == std::vector<int64_t>{0, 0, 4, 0, 1, 2});
  CHECK(to == std::vector<int64_t>{12, 4, 8, 1, 2, 3});
  const Shape strides{12, 4, 1};
  for (size_t k = 0; k < dims.size(); ++k)
    CHECK(to[k] - from[k] == strides[static_cast<size_t>(dims[k])]);
  // Labels and legend say the jumps, in elements and bytes.
  for (const char* label : {">+12</text>", ">+4</text>", ">+1</text>"}) CHECK(count(svg, label) == 1);
  CHECK(count(svg, "dim 0: +12 (48 bytes), 1 step") == 1);
  CHECK(count(svg, "dim 1: +4 (16 bytes), 2 steps") == 1);
  CHECK(count(svg, "dim 2: +1 (4 bytes), 3 steps") == 1);
  CHECK(offsets_of(svg, "storage used").size() == 24);
  // Themed as the other pictures: background, ink and hues the page can recolour.
  CHECK(count(svg, "class=\"bg\"") == 1);
  CHECK(count(svg, "data-hue=\"2\"") >= 3);
  // Small enough to read when a phone's column scales it to 65 %: 24 cells in under 620 pixels.
  const size_t w = svg.find("width=\"");
  CHECK(std::stoi(svg.substr(w + 7)) <= 620);
}

TEST_CASE("steps: a permutation draws the same jumps under other dims; a slice starts later") {
  Tensor t = arange(24).view({2, 3, 4});
  const std::string p = steps_svg(t.permute({2, 0, 1}), "p");
  CHECK(step_attr(p, "data-dim") == std::vector<int64_t>{0, 0, 0, 1, 2, 2});
  CHECK(step_attr(p, "data-to") == std::vector<int64_t>{1, 2, 3, 12, 4, 8});
  CHECK(count(p, "dim 0: +1 (8 bytes), 3 steps") == 1);
  Tensor s = arange(24).view({4, 6}).slice(1, 1, 6, 2);  // [:, 1:6:2]
  const std::string sv = steps_svg(s, "s");
  CHECK(step_attr(sv, "data-from") == std::vector<int64_t>{1, 7, 13, 1, 3});
  CHECK(step_attr(sv, "data-to") == std::vector<int64_t>{7, 13, 19, 3, 5});
  CHECK(offsets_of(sv, "storage used").size() == 12);
  CHECK(offsets_of(sv, "storage").size() == 12);  // the 24-cell storage, 12 of them unused
  // A stride 0 loops on its cell; a size-1 dim takes no step.
  const std::string e = steps_svg({3, 1}, {0, 5}, 2, 8);
  CHECK(step_attr(e, "data-from") == std::vector<int64_t>{2, 2});
  CHECK(step_attr(e, "data-to") == std::vector<int64_t>{2, 2});
  CHECK(count(e, "dim 1: +5 (40 bytes), size 1: no step") == 1);
}

TEST_CASE("steps: refusals") {
  CHECK_THROWS_WITH_AS(steps_svg({2}, {1, 1}, 0, 4), doctest::Contains("2 strides"), Error);
  CHECK_THROWS_WITH_AS(steps_svg({2}, {-1}, 0, 4), doctest::Contains("negative stride"), Error);
  CHECK_THROWS_WITH_AS(steps_svg({100}, {1}, 0, 4), doctest::Contains("at most 48"), Error);
  StepsOptions o;
  o.storage_elements = 4;
  CHECK_THROWS_WITH_AS(steps_svg({3}, {2}, 0, 4, o), doctest::Contains("reaches offset 4"), Error);
}
