// Chapter 8, Gradients through views: a tensor that records how it was made, backward, the five
// scalar rules, the gradient of each view op read as a layout (chapters/08_gradients/views.cpp),
// what a graph keeps alive for backward, and in-place writes under the version counter. Claims
// AG-01…AG-09 and the errata ER-27, ER-28, ER-29 and ER-35, against the library's autograd
// (strided/autograd) and PyTorch 1.13's recorded answers. The code between //! [name] markers is
// shown on the chapter's page (docs/08_gradients.md).
#include <cmath>
#include <string>
#include <vector>

#include "08_gradients/gradients.h"
#include "book/book.h"
#include "strided/autograd/autograd.h"
#include "strided/core/error_of.h"
#include "strided/engine/matmul.h"
#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"
#include "strided/strided.h"

using namespace strided;
using namespace strided::autograd;
using gradients_chapter::leaf;
using gradients_chapter::pytorch;
using gradients_chapter::values;

namespace {

// The saved tensors of each node of output's graph, as a count per node.
std::vector<int64_t> saved_per_node(const Variable& output) {
  std::vector<int64_t> out;
  for (const NodeRecord& n : graph_nodes(output)) out.push_back(static_cast<int64_t>(n.saved.size()));
  return out;
}

// a, b, c, d = 1, 2, 3, 4 as 0-d float32 leaves.
std::vector<Variable> four_leaves() {
  return {leaf({1}, {}), leaf({2}, {}), leaf({3}, {}), leaf({4}, {})};
}

std::vector<double> grads(const std::vector<Variable>& leaves) {
  std::vector<double> out;
  for (const Variable& v : leaves) out.push_back(v.grad().item().to_double());
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  book::Chapter ch("08_gradients", "Gradients through views");

  // ---- A tensor that remembers ------------------------------------------------------------------
  ch.section("remember", "A tensor that remembers");

  ch.claim("AG-01",
           "Beside its storage and layout, a tensor that requires grad carries its gradient and the "
           "backward node that produced it (grad_fn): y = x * x has grad_fn MulBackward0; a leaf, "
           "made by the user, has no grad_fn, and its grad is empty until a backward reaches it.",
           [](book::Check& c) {
             //! [leaf]
             Variable x = leaf({1, 2, 3}, {3});  // a leaf
             Variable y = x * x;                 // made by an op: y.grad_fn()
             //! [leaf]
             c.equal("x.is_leaf", x.is_leaf(), true);
             c.equal("x.grad_fn is None", x.grad_fn() == nullptr, true);
             c.equal("x.grad is None", !x.grad().defined(), true);
             c.equal("y.is_leaf", y.is_leaf(), false);
             c.equal("y.grad_fn", y.grad_fn()->name(), std::string("MulBackward0"));
             c.equal("y.requires_grad", y.requires_grad(), true);
             c.equal("y's data is a plain tensor", y.tensor().sizes(), Shape{3});
             pytorch().compare_value(c, "leaf", "x.is_leaf", x.is_leaf());
             pytorch().compare_value(c, "leaf", "x.grad_fn is None", x.grad_fn() == nullptr);
             pytorch().compare_value(c, "leaf", "x.grad is None", !x.grad().defined());
             pytorch().compare_value(c, "leaf", "y.is_leaf", y.is_leaf());
             pytorch().compare_value(c, "leaf", "y.grad_fn.name()", y.grad_fn()->name());
             pytorch().compare_value(c, "leaf", "y.requires_grad", y.requires_grad());
             c.value("leaf_grad_fn", y.grad_fn()->name());
           });

  ch.claim("AG-01.copies",
           "detach() shares the tensor's storage and leaves the graph; clone() copies into new "
           "storage and stays in the graph (CloneBackward0); detach().clone() copies out of the "
           "graph; copy_ writes the values into the target's own storage, in the graph.",
           [](book::Check& c) {
             //! [copies]
             Variable w(ones({3}));
             w.requires_grad_();
             Variable d = w.detach();           // w's storage and version counter, out of the graph
             Variable k = clone(w);             // new storage, in the graph: CloneBackward0
             Variable dc = clone(w.detach());   // new storage, out of the graph: a plain copy
             Variable o(zeros({3}));
             copy_(o, w);                       // o's own storage, w's values, in the graph
             //! [copies]
             const auto shares = [&](const Variable& v) {
               return v.tensor().storage().is_same(w.tensor().storage());
             };
             const std::vector<std::pair<std::string, const Variable*>> results = {
                 {"d", &d}, {"c", &k}, {"dc", &dc}, {"o", &o}};
             for (const auto& [name, v] : results) {
               pytorch().compare_value(c, "copies", name + ".data_ptr() == w.data_ptr()",
                                       shares(*v));
               pytorch().compare_value(c, "copies", name + ".requires_grad", v->requires_grad());
               pytorch().compare_value(c, "copies", name + ".is_leaf", v->is_leaf());
             }
             c.equal("shares w's storage: d, c, dc, o",
                     std::vector<bool>{shares(d), shares(k), shares(dc), shares(o)},
                     std::vector<bool>{true, false, false, false});
             pytorch().compare_value(c, "copies", "c.grad_fn.name()", k.grad_fn()->name());
             // copy.deepcopy, which the library has no form of: a copy that keeps requires_grad,
             // a leaf of its own (PyTorch's answers, for the page).
             pytorch().compare_value(c, "copies", "copy.deepcopy(w).data_ptr() == w.data_ptr()",
                                     false);
             pytorch().compare_value(c, "copies", "copy.deepcopy(w).requires_grad", true);
           });

  ch.claim("AG-01.leaf",
           "Only a tensor made by a recorded op is not a leaf: a tensor that does not require grad "
           "is a leaf however it was made (zeros(2) * 2 is one), as is one the user marked with "
           "requires_grad, while w * 2 of such a w is not, and its detach() is again.",
           [](book::Check& c) {
             Variable plain(zeros({2}));
             Variable w(zeros({2}));
             w.requires_grad_();
             const Variable twice = plain * 2.0, made = w * 2.0;
             const std::vector<std::pair<std::string, bool>> leaves = {
                 {"plain.is_leaf", plain.is_leaf()},
                 {"(plain * 2).is_leaf", twice.is_leaf()},
                 {"w.is_leaf", w.is_leaf()},
                 {"(w * 2).is_leaf", made.is_leaf()},
                 {"(w * 2).detach().is_leaf", made.detach().is_leaf()},
                 {"(w * 2).requires_grad", made.requires_grad()}};
             for (const auto& [expression, value] : leaves)
               pytorch().compare_value(c, "leaf_kinds", expression, value);
             c.equal("leaves among the six", std::vector<bool>{leaves[0].second, leaves[1].second,
                     leaves[2].second, leaves[3].second, leaves[4].second},
                     std::vector<bool>{true, true, true, false, true});
           });

  ch.claim("AG-02",
           "Each differentiable op records a node; backward on the output runs the nodes from the "
           "output to the leaves and adds each leaf's gradient into its grad: for y = x * x and "
           "loss = sum(y), x.grad = 2x = (2, 4, 6). A non-leaf's grad stays empty unless "
           "retain_grad() asked for it; a second backward adds (4, 8, 12).",
           [](book::Check& c) {
             //! [backward]
             Variable x = leaf({1, 2, 3}, {3});
             Variable y = x * x;
             sum(y).backward();  // dy/dx = 2x reaches the leaf
             const std::vector<double> first = values(x.grad());
             Variable z = x * x;
             z.retain_grad();  // keep the gradient of a non-leaf
             sum(z).backward();  // adds into x.grad
             //! [backward]
             c.equal("x.grad after one backward", first, std::vector<double>{2, 4, 6});
             c.equal("y.grad is None", !y.grad().defined(), true);
             c.equal("z.grad", values(z.grad()), std::vector<double>{1, 1, 1});
             c.equal("x.grad after two", values(x.grad()), std::vector<double>{4, 8, 12});
             pytorch().compare(c, "backward", "x.grad", x.grad());
             pytorch().compare_value(c, "backward", "y.grad is None", !y.grad().defined());
             pytorch().compare(c, "backward", "z.grad", z.grad());
             c.value("bw_first", first);
             c.value("bw_second", values(x.grad()));
           });

  // ---- Five scalar rules ------------------------------------------------------------------------
  ch.section("rules", "Five scalar rules");

  ch.claim("AG-03",
           "The derivatives of +, ×, x^k, eˣ and ln are enough for softmax written as "
           "exp(z)·(Σ exp(z))^(−1): its backward gives s ⊙ (g − ⟨s,g⟩). For z = (0.5, −1, 2) and "
           "g = (1, 2, 3) in float32 that is (−0.28227, −0.02387, 0.30614), within 1e-6 of the "
           "formula.",
           [](book::Check& c) {
             //! [softmax]
             Variable z = leaf({0.5, -1, 2}, {3});
             Variable e = exp(z);
             Variable s = e * pow(sum(e), -1.0);  // exp(z) · (Σ exp(z))^(−1)
             Tensor g = from_values({1, 2, 3}, {3});
             s.backward(g);
             //! [softmax]
             const std::vector<double> sv = values(s.tensor()), gv = values(g);
             double dot = 0;
             for (size_t i = 0; i < 3; ++i) dot += sv[i] * gv[i];
             const std::vector<double> expected{-0.28227, -0.02387, 0.30614};
             const nlohmann::json* torch_grad = pytorch().find("softmax", "z.grad");
             pytorch().versions(c, "softmax", "z.grad");
             for (size_t i = 0; i < 3; ++i) {
               const double analytic = sv[i] * (gv[i] - dot);
               const double got = values(z.grad())[i];
               c.near("z.grad[" + std::to_string(i) + "] vs s·(g − ⟨s,g⟩)", got, analytic,
                      1e-6 * std::max(1.0, std::fabs(analytic)));
               c.near("z.grad[" + std::to_string(i) + "] to 5 places", got, expected[i], 5e-6);
               c.near("z.grad[" + std::to_string(i) + "] vs PyTorch's",
                      got, torch_grad ? (*torch_grad)["values"][i].get<double>() : 1e9, 1e-6);
             }
             pytorch().versions(c, "softmax", "s");
             pytorch().versions(c, "softmax", "analytic");
             c.equal("the rules used", std::vector<std::string>{e.grad_fn()->name(),
                                                                  s.grad_fn()->name()},
                     std::vector<std::string>{"ExpBackward0", "MulBackward0"});
             c.value("sm_grad", values(z.grad()));
           });

  ch.claim("AG-04",
           "A matrix product written as scalar multiplies and adds back-propagates to "
           "∂L/∂A = G·Bᵀ and ∂L/∂B = Aᵀ·G, exactly what matmul's own backward gives: for "
           "integer-valued A (2×3), B (3×2) and upstream G (2×2) the values are equal.",
           [](book::Check& c) {
             const Tensor G = from_values({1, 2, 3, 4}, {2, 2});
             //! [scalar_matmul]
             Variable A = leaf({1, 2, 3, 4, 5, 6}, {2, 3});
             Variable B = leaf({1, -1, 2, 0, 0, 3}, {3, 2});
             Variable Gv(G);
             Variable loss(zeros({}));
             for (int64_t i = 0; i < 2; ++i)  // L = Σ_ij G[i,j] · Σ_k A[i,k]·B[k,j], scalar by scalar
               for (int64_t j = 0; j < 2; ++j)
                 for (int64_t k = 0; k < 3; ++k)
                   loss = loss + Gv.select(0, i).select(0, j) *
                                     (A.select(0, i).select(0, k) * B.select(0, k).select(0, j));
             loss.backward();
             //! [scalar_matmul]
             const Tensor GBt = strided::matmul(G, B.tensor().t()), AtG = strided::matmul(A.tensor().t(), G);
             Variable A2(A.tensor().clone(), true), B2(B.tensor().clone(), true);
             matmul(A2, B2).backward(G);
             c.equal("A.grad = G·Bᵀ", values(A.grad()), values(GBt));
             c.equal("B.grad = Aᵀ·G", values(B.grad()), values(AtG));
             c.equal("A.grad = matmul's A.grad", values(A.grad()), values(A2.grad()));
             c.equal("B.grad = matmul's B.grad", values(B.grad()), values(B2.grad()));
             pytorch().compare(c, "scalar_matmul", "A.grad", A.grad());
             pytorch().compare(c, "scalar_matmul", "B.grad", B.grad());
             pytorch().compare(c, "scalar_matmul", "G·Bᵀ", GBt);
             pytorch().compare(c, "scalar_matmul", "Aᵀ·G", AtG);
             pytorch().compare(c, "scalar_matmul", "matmul A.grad", A2.grad());
             pytorch().compare(c, "scalar_matmul", "matmul B.grad", B2.grad());
             c.value("mm_a_grad", values(A.grad()));
             c.value("mm_b_grad", values(B.grad()));
           });

  ch.claim("AG-09",
           "Differentiating each element as its own scalar graph gives the tensor graph's "
           "gradients: for f = Σ (x·x·w + eˣ) over random float64 x and w, each of 64 elements "
           "differentiated alone matches the tensor backward within 1e-12.",
           [](book::Check& c) {
             Generator gen(8);
             const Tensor xs = rand({64}, gen, {DType::Float64}), ws = rand({64}, gen, {DType::Float64});
             //! [scalar_graph]
             Variable x(xs, true);
             Variable w(ws);
             sum(x * x * w + exp(x)).backward();  // one tensor graph
             std::vector<double> alone;           // and one scalar graph per element
             for (int64_t i = 0; i < x.numel(); ++i) {
               Variable xi(xs.select(0, i).clone(), true), wi(ws.select(0, i));
               (xi * xi * wi + exp(xi)).backward();
               alone.push_back(xi.grad().item().to_double());
             }
             //! [scalar_graph]
             double worst = 0;
             for (int64_t i = 0; i < x.numel(); ++i)
               worst = std::max(worst, std::fabs(alone[i] - values(x.grad())[i]) /
                                           std::max(1.0, std::fabs(alone[i])));
             c.equal("elements", static_cast<int64_t>(alone.size()), int64_t{64});
             c.near("largest relative difference", worst, 0.0, 1e-12);
             // The same graph on PyTorch's three values.
             Variable x3 = leaf({0.5, -1, 2}, {3}, DType::Float64);
             Variable w3(from_values({1, 2, 3}, {3}, {DType::Float64}));
             sum(x3 * x3 * w3 + exp(x3)).backward();
             const nlohmann::json* torch_grad = pytorch().find("scalar_graph", "xs.grad");
             pytorch().versions(c, "scalar_graph", "xs.grad");
             for (int64_t i = 0; i < 3; ++i)
               c.near("x.grad[" + std::to_string(i) + "] vs PyTorch's", values(x3.grad())[i],
                      torch_grad ? (*torch_grad)["values"][i].get<double>() : 1e9, 1e-12);
             c.value("sg_elements", static_cast<int64_t>(alone.size()));
             c.value("sg_worst", worst);
           });

  gradients_chapter::views(ch);

  // ---- What the graph keeps ---------------------------------------------------------------------
  ch.section("keeps", "What the graph keeps");

  ch.claim("AG-07",
           "With a, b, c, d = 1, 2, 3, 4 and e = (a+b)·(c+d): ∂e/∂a = ∂e/∂b = c+d = 7 and "
           "∂e/∂c = ∂e/∂d = a+b = 3. The multiply node (MulBackward0) saves both factors, 3 and 7; "
           "the two add nodes save no tensor.",
           [](book::Check& c) {
             //! [product]
             std::vector<Variable> in = four_leaves();  // a, b, c, d = 1, 2, 3, 4
             const Variable &a = in[0], &b = in[1], &cc = in[2], &d = in[3];
             Variable e = (a + b) * (cc + d);  // t1 = a + b, t2 = c + d, e = t1 * t2
             //! [product]
             std::vector<NodeRecord> nodes = graph_nodes(e);
             std::vector<double> saved;
             for (const Tensor& t : nodes[0].saved) saved.push_back(t.item().to_double());
             c.equal("e.grad_fn", nodes[0].name, std::string("MulBackward0"));
             c.equal("its inputs", std::vector<std::string>{nodes[1].name, nodes[2].name},
                     std::vector<std::string>{"AddBackward0", "AddBackward0"});
             c.equal("MulBackward0 saves", saved, std::vector<double>{7, 3});
             c.equal("saved per node", saved_per_node(e), std::vector<int64_t>{2, 0, 0});
             c.figure("graph", gradients_chapter::graph_svg(e, {"a", "b", "c", "d"},
                                                            "The graph of (a+b)·(c+d)"),
                      "The graph of e = (a+b)·(c+d) as backward runs it, from e down to the "
                      "leaves. The multiply node keeps both sums; the add nodes keep nothing.");
             e.backward();
             c.equal("a, b, c, d grads", grads(in), std::vector<double>{7, 7, 3, 3});
             pytorch().compare_value(c, "product", "e.grad_fn.name()", nodes[0].name);
             pytorch().compare_value(c, "product",
                                     "[n.name() for n, _ in e.grad_fn.next_functions]",
                                     std::vector<std::string>{nodes[1].name, nodes[2].name});
             pytorch().compare_value(c, "product", "[t.item() for t in saved_tensors(e.grad_fn)]",
                                     saved);
             pytorch().compare(c, "product", "e.grad_fn._saved_self", nodes[0].saved[1]);
             pytorch().compare(c, "product", "e.grad_fn._saved_other", nodes[0].saved[0]);
             pytorch().compare_value(c, "product",
                                     "[len(saved_tensors(n)) for n, _ in e.grad_fn.next_functions]",
                                     std::vector<int64_t>{saved_per_node(e)[1], saved_per_node(e)[2]});
             pytorch().compare_value(c, "product", "grads", grads(in));
             c.value("pr_grads", grads(in));
             c.value("pr_saved", saved);
           });

  ch.erratum("ER-27",
             "(a+b)·(c+d) is evaluated as t1 = a + b, t2 = c + d, e = t1 + t2 (r-nn).",
             "The last step is e = t1 * t2: its node is MulBackward0, and e = 21, not the sum's 10.",
             [](book::Check& c) {
               std::vector<Variable> in = four_leaves();
               Variable t1 = in[0] + in[1], t2 = in[2] + in[3];
               c.equal("(a+b)·(c+d)", ((in[0] + in[1]) * (in[2] + in[3])).tensor().item().to_double(),
                       21.0);
               c.equal("t1 * t2", (t1 * t2).tensor().item().to_double(), 21.0);
               c.equal("t1 + t2", (t1 + t2).tensor().item().to_double(), 10.0);
               c.equal("e's node", ((in[0] + in[1]) * (in[2] + in[3])).grad_fn()->name(),
                       std::string("MulBackward0"));
               pytorch().compare_value(c, "product", "e.grad_fn.name()",
                                       (t1 * t2).grad_fn()->name());
               c.value("er27_product", (t1 * t2).tensor().item().to_double());
               c.value("er27_sum", (t1 + t2).tensor().item().to_double());
             });

  ch.erratum("ER-28",
             "∂e/∂a = b (r-nn).",
             "For the product ∂e/∂a = c+d = 7; for the seed's sum it is 1; it is never b = 2.",
             [](book::Check& c) {
               std::vector<Variable> p = four_leaves();
               ((p[0] + p[1]) * (p[2] + p[3])).backward();
               //! [seed_sum]
               std::vector<Variable> in = four_leaves();  // a, b, c, d = 1, 2, 3, 4
               Variable e = (in[0] + in[1]) + (in[2] + in[3]);  // the seed's literal e = t1 + t2
               //! [seed_sum]
               c.equal("saved per node of the sum", saved_per_node(e), std::vector<int64_t>{0, 0, 0});
               pytorch().compare_value(c, "seed_sum", "saved per node", saved_per_node(e));
               e.backward();
               c.equal("∂e/∂a, product", p[0].grad().item().to_double(), 7.0);
               c.equal("∂e/∂a, sum", in[0].grad().item().to_double(), 1.0);
               c.that("∂e/∂a is never b", p[0].grad().item().to_double() != 2.0 &&
                                               in[0].grad().item().to_double() != 2.0,
                      book::show(p[0].grad().item().to_double()) + " and " +
                          book::show(in[0].grad().item().to_double()));
               c.equal("sum grads", grads(in), std::vector<double>{1, 1, 1, 1});
               pytorch().compare_value(c, "seed_sum", "grads", grads(in));
               c.value("er28_product", p[0].grad().item().to_double());
               c.value("er28_sum", in[0].grad().item().to_double());
             });

  ch.erratum("ER-29",
             "PyTorch therefore does not store t1 and t2 (r-nn).",
             "For the product it must and does: MulBackward0 holds t1 = 3 and t2 = 7, since "
             "∂e/∂t1 = t2 and ∂e/∂t2 = t1. Only the add nodes store nothing.",
             [](book::Check& c) {
               std::vector<Variable> in = four_leaves();
               Variable e = (in[0] + in[1]) * (in[2] + in[3]);
               const GraphMemory m = graph_memory(e);
               c.equal("saved tensors", m.saved_tensors, int64_t{2});
               std::vector<double> saved;
               const std::vector<NodeRecord> nodes = graph_nodes(e);
               for (const Tensor& t : nodes[0].saved) saved.push_back(t.item().to_double());
               c.equal("their values", saved, std::vector<double>{7, 3});
               pytorch().compare_value(c, "product", "[t.item() for t in saved_tensors(e.grad_fn)]",
                                       saved);
               c.value("er29_saved", m.saved_tensors);
             });

  ch.claim("AG-08",
           "A naive engine keeps every intermediate alive; one that saves what backward formulas "
           "read keeps less. For (a+b)·(c+d) both keep 2 tensors (8 bytes in float32), because the "
           "product reads both sums; for (a+b)+(c+d) the naive engine keeps 2 and the other 0. A "
           "saved tensor keeps its whole storage alive: multiplying by a 2-element slice of an "
           "8-element float64 tensor keeps 64 bytes, not 16.",
           [](book::Check& c) {
             std::vector<Variable> p = four_leaves(), s = four_leaves();
             const GraphMemory prod = graph_memory((p[0] + p[1]) * (p[2] + p[3]));
             const GraphMemory plus = graph_memory((s[0] + s[1]) + (s[2] + s[3]));
             c.equal("product: naive keeps", prod.intermediates, int64_t{2});
             c.equal("product: saved", prod.saved_tensors, int64_t{2});
             c.equal("product: naive bytes", prod.intermediate_bytes, int64_t{8});
             c.equal("product: saved bytes", prod.saved_bytes, int64_t{8});
             c.equal("sum: naive keeps", plus.intermediates, int64_t{2});
             c.equal("sum: saved", plus.saved_tensors, int64_t{0});
             c.equal("sum: saved bytes", plus.saved_bytes, int64_t{0});
             //! [saved_storage]
             Variable w(arange(1, 9, 1, {DType::Float64}));  // 8 elements, 64 bytes
             Variable x(ones({2}, {DType::Float64}), true);
             Variable y = x * w.slice(0, 0, 2);  // MulBackward0 saves the slice w[0:2]: 16 bytes of view
             GraphMemory kept = graph_memory(y);
             //! [saved_storage]
             const Tensor saved = graph_nodes(y)[0].saved.at(0);
             c.equal("saved tensors", kept.saved_tensors, int64_t{1});
             c.equal("bytes the slice shows", saved.numel() * saved.element_size(), int64_t{16});
             c.equal("bytes kept alive", kept.saved_bytes, int64_t{64});
             pytorch().compare(c, "saved_storage", "saved_tensors(y.grad_fn)[0]", saved,
                               {&w.tensor()});
             pytorch().compare_value(c, "saved_storage",
                                     "storage_of(saved_tensors(y.grad_fn)[0]).nbytes()",
                                     kept.saved_bytes);
             pytorch().compare_value(c, "saved_storage", "len(saved_tensors(y.grad_fn))",
                                     kept.saved_tensors);
             c.table("accounting", {"graph", "naive: tensors", "naive: bytes", "saved: tensors",
                                    "saved: bytes"},
                     {{"(a+b)·(c+d)", book::show(prod.intermediates),
                       book::show(prod.intermediate_bytes), book::show(prod.saved_tensors),
                       book::show(prod.saved_bytes)},
                      {"(a+b)+(c+d)", book::show(plus.intermediates),
                       book::show(plus.intermediate_bytes), book::show(plus.saved_tensors),
                       book::show(plus.saved_bytes)}});
             c.value("am_prod_bytes", prod.saved_bytes);
             c.value("am_plus_naive_bytes", plus.intermediate_bytes);
             c.value("am_slice_bytes", saved.numel() * saved.element_size());
             c.value("am_kept_bytes", kept.saved_bytes);
           })
      .model();

  // ---- Writing in place -------------------------------------------------------------------------
  ch.section("inplace", "Writing in place");

  ch.claim("AG-07.version",
           "Each in-place write adds one to a version counter that a tensor shares with its views; "
           "a saved tensor remembers its version, and backward refuses to run "
           "when it changed, in PyTorch's words, also when the write went through another view.",
           [](book::Check& c) {
             //! [version]
             Variable x = leaf({1, 2, 3}, {3});
             Variable y(from_values({1, 2, 3}, {3}));
             Variable z = x * y;                     // MulBackward0 saves y at version 0
             add_(y.view({3}).slice(0, 0, 2), 1.0);  // a write through another view of y's storage
             //! [version]
             c.equal("y's version", y.version(), int64_t{1});
             pytorch().compare_value(c, "version", "y._version", y.version());
             pytorch().compare_error(c, "version", "z.sum().backward()",
                                     [&] { sum(z).backward(); });
             Variable x2 = leaf({1, 2, 3}, {3});
             Variable a2 = exp(x2);  // ExpBackward0 saves its result
             Variable b2 = a2 * 1.0;
             mul_(a2, 2.0);
             pytorch().compare_value(c, "version", "a2._version", a2.version());
             pytorch().compare_error(c, "version", "b2.sum().backward()",
                                     [&] { sum(b2).backward(); });
             c.text("version_error", pytorch().error_message("version", "z.sum().backward()"),
                    "PyTorch's refusal, and the library's, when y was written since it was saved.");
             c.text("version_exp_error", pytorch().error_message("version", "b2.sum().backward()"),
                    "The same when the saved tensor is the output of exp, written since.");
           });

  ch.claim("AG-07.owner",
           "The version counter belongs to a tensor and its views, not to a storage: after two "
           "in-place writes to a, a, its view a[1:] and a.detach() are at version 2, while a "
           "tensor that shares a's storage without being a view of it keeps its own counter.",
           [](book::Check& c) {
             Variable a(zeros({3}));
             Variable v = a.slice(0, 1, 3);  // a view of a
             Variable d = a.detach();        // a's data, no history
             Variable s(a.tensor());         // a's storage, not a view of a (PyTorch: set_)
             add_(a, 1.0);
             add_(a, 1.0);
             c.equal("a, a[1:], a.detach(): versions", std::vector<int64_t>{a.version(),
                     v.version(), d.version()}, std::vector<int64_t>{2, 2, 2});
             c.equal("the tensor over a's storage: version", s.version(), int64_t{0});
             c.equal("it shares a's storage", s.tensor().storage().is_same(a.tensor().storage()),
                     true);
             pytorch().compare_value(c, "version_owner", "a._version", a.version());
             pytorch().compare_value(c, "version_owner", "v._version", v.version());
             pytorch().compare_value(c, "version_owner", "d._version", d.version());
             // PyTorch's set_ is itself an in-place op on s: its own counter reads 1, never a's 2.
             const nlohmann::json* own = pytorch().find("version_owner", "s._version");
             pytorch().versions(c, "version_owner", "s._version");
             c.that("PyTorch: the set_ tensor's counter is not a's",
                    own != nullptr && own->value("value", int64_t{-1}) != a.version(),
                    own ? own->dump() : "no answer");
             pytorch().compare_value(c, "version_owner", "s.data_ptr() == a.data_ptr()", true);
           });

  ch.claim("AG-07.leaf",
           "A leaf that requires grad, and any view of it, refuses an in-place write while grad "
           "mode is on; under no_grad the write goes through and still counts a version.",
           [](book::Check& c) {
             Variable x0 = leaf({1, 2, 3}, {3});
             pytorch().compare_error(c, "leaf_write", "x0.add_(1)", [&] { add_(x0, 1.0); });
             pytorch().compare_error(c, "leaf_write", "x0[0:2].add_(1)",
                                     [&] { add_(x0.slice(0, 0, 2), 1.0); });
             //! [leaf_write]
             Variable x = leaf({1, 2, 3}, {3});
             // add_(x, 1.0) and add_(x.slice(0, 0, 2), 1.0) are refused
             {
               NoGradGuard no_grad;
               add_(x, 1.0);  // allowed: no graph records it
             }
             //! [leaf_write]
             c.equal("x", values(x.tensor()), std::vector<double>{2, 3, 4});
             c.equal("x's version", x.version(), int64_t{1});
             pytorch().compare(c, "leaf_write", "x", x.tensor());
             pytorch().compare_value(c, "leaf_write", "x._version", x.version());
             c.value("lw_error", pytorch().error_message("leaf_write", "x0.add_(1)"));
             c.value("lw_view_error", pytorch().error_message("leaf_write", "x0[0:2].add_(1)"));
           });

  ch.claim("AG-07.multi",
           "An in-place write to one of several views that one op returned (split, unbind, and so "
           "the rows of a for loop over a tensor) is refused under autograd, in PyTorch's words; "
           "under no_grad it goes through.",
           [](book::Check& c) {
             //! [multi_view]
             Variable x(arange(6, {DType::Float32}));
             x.requires_grad_();
             Variable y = x * 1.0;
             std::vector<Variable> pieces = split(y, 3);  // two views of y, one node's outputs
             // mul_(pieces[0], 2.0) is refused; pieces[0] * 2.0 makes a new tensor
             {
               NoGradGuard no_grad;
               mul_(pieces[1], 2.0);  // no graph records it: allowed
             }
             //! [multi_view]
             pytorch().compare_error(c, "multi_view", "pieces[0].mul_(2)",
                                     [&] { mul_(pieces[0], 2.0); });
             pytorch().compare(c, "multi_view", "y after the write under no_grad", y.tensor());
             // The library's autograd has no unbind: PyTorch's refusal of a row of a for loop,
             // from its record, names UnbindBackward0 and the same rule.
             const std::string rows =
                 pytorch().error_message("multi_view", "[row.add_(1) for row in y.view(2, 3)]");
             c.that("PyTorch refuses a row of a for loop: UnbindBackward0, multiple views",
                    rows.find("UnbindBackward0") != std::string::npos &&
                        rows.find("returns multiple views") != std::string::npos,
                    rows);
             pytorch().versions(c, "multi_view", "[row.add_(1) for row in y.view(2, 3)]");
             c.value("multi_error", pytorch().error_message("multi_view", "pieces[0].mul_(2)")
                                        .substr(0, std::string("Output 0 of SplitBackward0 is a "
                                                               "view and is being modified "
                                                               "inplace").size()));
           });

  ch.claim("AG-07.rebase",
           "An in-place op on a view of a non-leaf rewrites the history of both: the base's "
           "grad_fn becomes CopySlices, which sends the gradient of the viewed part through the "
           "op, and the view's grad_fn becomes AsStridedBackward0 over the base; for a = x * 1 "
           "and a[1:] doubled in place, x.grad = (1, 2, 2).",
           [](book::Check& c) {
             //! [rebase]
             Variable x = leaf({1, 2, 3}, {3}, DType::Float64);
             Variable a = x * 1.0;
             Variable v = a.slice(0, 1);  // v.grad_fn(): SliceBackward0
             const std::string before = v.grad_fn()->name();
             mul_(v, 2.0);  // a.grad_fn(): CopySlices; v.grad_fn(): AsStridedBackward0
             sum(a).backward();
             //! [rebase]
             c.equal("v's grad_fn before", before, std::string("SliceBackward0"));
             c.equal("a's grad_fn", a.grad_fn()->name(), std::string("torch::autograd::CopySlices"));
             c.equal("v's grad_fn after", v.grad_fn()->name(), std::string("AsStridedBackward0"));
             c.equal("x.grad", values(x.grad()), std::vector<double>{1, 2, 2});
             pytorch().compare_value(c, "rebase", "v3.grad_fn.name()", before);
             pytorch().compare_value(c, "rebase", "a.grad_fn.name()", a.grad_fn()->name());
             pytorch().compare_value(c, "rebase", "v.grad_fn.name()", v.grad_fn()->name());
             pytorch().compare(c, "rebase", "x.grad", x.grad());
             c.value("rb_grad", values(x.grad()));
           });

  gradients_chapter::numpy(ch);      // 08_gradients/exercises.cpp: NumPy beside PyTorch
  gradients_chapter::exercises(ch);  // 08_gradients/exercises.cpp: the exercises, last

  return ch.main(argc, argv);
}
