// The picture of a backward graph, drawn from the graph itself: what graph_nodes reports, laid out
// as a tree with the output's node on top and the leaves at the bottom.
#include <algorithm>
#include <map>
#include <sstream>

#include "08_gradients/gradients.h"
#include "book/show.h"
#include "strided/autograd/node.h"

namespace gradients_chapter {

using namespace strided;
using namespace strided::autograd;

Variable leaf(const std::vector<double>& values, IntList sizes, DType dtype) {
  return Variable(from_values(values, sizes, {dtype}), /*requires_grad=*/true);
}

namespace {

struct Placed {
  double x = 0;
  int depth = 0;
  std::string label, saved;
  bool is_leaf = false;
};

std::string esc(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '<') out += "&lt;";
    else if (ch == '>') out += "&gt;";
    else if (ch == '&') out += "&amp;";
    else out += ch;
  }
  return out;
}

// Places n and everything below it; leaves take the next free column, a node sits over the middle
// of its inputs. Returns n's column.
double place(Node* n, int depth, const std::vector<std::string>& leaf_names, int& next_leaf,
             std::map<Node*, Placed>& at, std::vector<std::pair<Node*, Node*>>& edges) {
  if (auto it = at.find(n); it != at.end()) return it->second.x;
  Placed p;
  p.depth = depth;
  if (dynamic_cast<AccumulateGrad*>(n)) {
    p.is_leaf = true;
    p.x = next_leaf;
    p.label = next_leaf < static_cast<int>(leaf_names.size()) ? leaf_names[next_leaf] : "leaf";
    ++next_leaf;
    at[n] = p;
    return p.x;
  }
  p.label = n->name();
  for (const SavedVariable* s : n->saved_variables())
    if (s->data().defined())
      p.saved += (p.saved.empty() ? "saves " : ", ") +
                 (s->data().numel() == 1 ? book::show(s->data().to_vector()[0])
                                         : book::show(s->data().to_vector()));
  if (p.saved.empty()) p.saved = "saves nothing";
  double sum = 0;
  int count = 0;
  for (const Edge& e : n->next_edges()) {
    if (!e.valid()) continue;
    sum += place(e.node.get(), depth + 1, leaf_names, next_leaf, at, edges);
    edges.emplace_back(n, e.node.get());
    ++count;
  }
  p.x = count ? sum / count : next_leaf++;
  at[n] = p;
  return p.x;
}

}  // namespace

std::string graph_svg(const Variable& output, const std::vector<std::string>& leaf_names,
                      const std::string& title) {
  std::map<Node*, Placed> at;
  std::vector<std::pair<Node*, Node*>> edges;
  int next_leaf = 0;
  if (auto fn = output.grad_fn()) place(fn.get(), 0, leaf_names, next_leaf, at, edges);
  int depth = 0;
  for (const auto& [n, p] : at) depth = std::max(depth, p.depth);
  const double col = 150, row = 90, box_w = 136, box_h = 44, margin = 12;
  const double width = std::max(1, next_leaf) * col + 2 * margin;
  const double height = (depth + 1) * row + 2 * margin;
  auto cx = [&](const Placed& p) { return margin + p.x * col + col / 2; };
  auto cy = [&](const Placed& p) { return margin + p.depth * row + box_h / 2; };
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" viewBox=\"0 0 " << width << " " << height << "\" font-family=\"sans-serif\">"
    << "<title>" << esc(title) << "</title><desc>The backward graph: each box is a node, named as "
    << "PyTorch names it, with the tensors it saved; arrows point where gradients flow.</desc>"
    << "<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" refY=\"4\" "
    << "orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"black\"/></marker></defs>"
    << "<rect x=\"0\" y=\"0\" width=\"" << width << "\" height=\"" << height
    << "\" fill=\"white\"/>";
  for (const auto& [from, to] : edges) {
    const Placed &a = at[from], &b = at[to];
    s << "<line x1=\"" << cx(a) << "\" y1=\"" << cy(a) + box_h / 2 << "\" x2=\"" << cx(b)
      << "\" y2=\"" << cy(b) - box_h / 2 - 2 << "\" stroke=\"black\" stroke-width=\"1.2\" "
      << "marker-end=\"url(#arrow)\"/>";
  }
  for (const auto& [n, p] : at) {
    const double x = cx(p) - box_w / 2, y = cy(p) - box_h / 2;
    s << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << box_w << "\" height=\"" << box_h
      << "\" rx=\"6\" fill=\"" << (p.is_leaf ? "#dbeafe" : p.saved == "saves nothing" ? "#f1f5f9"
                                                                                    : "#fde68a")
      << "\" stroke=\"#334155\"/>";
    s << "<text x=\"" << cx(p) << "\" y=\"" << y + (p.is_leaf ? 27 : 18)
      << "\" text-anchor=\"middle\" font-size=\"13\" fill=\"#0f172a\">" << esc(p.label)
      << "</text>";
    if (!p.is_leaf)
      s << "<text x=\"" << cx(p) << "\" y=\"" << y + 36
        << "\" text-anchor=\"middle\" font-size=\"12\" fill=\"#334155\">" << esc(p.saved)
        << "</text>";
  }
  s << "</svg>";
  return s.str();
}

}  // namespace gradients_chapter
