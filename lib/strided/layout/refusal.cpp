#include "strided/layout/refusal.h"

#include <algorithm>
#include <string>

#include "strided/core/error.h"
#include "strided/layout/layout.h"

namespace strided {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

// "2, 6" for a call's arguments: reshape(2, 6).
std::string args(IntList v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + str(v[i]);
  return out;
}

// Whether f() throws a library error: the op's own decision.
template <class F>
bool refuses(F&& f) {
  try {
    f();
    return false;
  } catch (const Error&) {
    return true;
  }
}

}  // namespace

std::optional<LayoutRefusal> view_refusal(const Layout& layout, IntList new_sizes) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  int64_t numel = 1;
  for (int64_t s : sizes) numel = wrapping_mul(numel, s);
  LayoutRefusal r{"view", {}, "", ""};
  Shape shape;
  try {
    shape = infer_size(new_sizes, numel, "view()");
  } catch (const Error&) {
    // The shape itself is refused, whatever the strides (infer_size).
    int64_t unknown = 0, product = 1;
    bool negative = false;
    for (int64_t s : new_sizes) {
      if (s == -1) ++unknown;
      else if (s < 0) negative = true;
      else product = wrapping_mul(product, s);
    }
    if (negative || unknown > 1) {
      r.why = "a shape holds sizes of 0 or more, and at most one -1 for view to work out";
      r.instead = "sizes that multiply to " + str(numel) + ", one of them -1 at most";
    } else if (unknown == 0) {
      r.why = "shape " + to_string(new_sizes) + " holds " + str(product) +
              " elements and the tensor " + str(numel) +
              ": a view keeps every element, so the sizes must multiply to " + str(numel);
      r.instead = "sizes that multiply to " + str(numel) + ", or one -1 for view to work out";
    } else {
      r.why = "the sizes other than -1 multiply to " + str(product) + ", which does not divide " +
              str(numel) + ", so no size for -1 fits";
      r.instead = "sizes whose product divides " + str(numel);
    }
    return r;
  }
  ViewChunk chunk;
  if (view_strides_walk(layout, shape, &chunk)) return std::nullopt;
  r.instead = "reshape(" + args(new_sizes) + ") copies the " + str(numel) +
              " elements; or contiguous() first, then view(" + args(new_sizes) + ")";
  if (chunk.first <= 0) {  // the numels differ: infer_size refuses first, so never from view()
    r.why = "the new shape's sizes do not split the tensor's " + str(numel) + " elements";
    return r;
  }
  const int64_t outer = chunk.first - 1;
  r.dims = {outer, chunk.first};
  std::string terms, numbers;
  for (int64_t d = chunk.first; d <= chunk.last; ++d) {
    terms += "size[" + str(d) + "] × ";
    numbers += str(sizes[d]) + " × ";
  }
  terms += "stride[" + str(chunk.last) + "]";
  numbers += str(strides[chunk.last]);
  const int64_t needed = wrapping_mul(chunk.numel, strides[chunk.last]);
  r.why = "new dim " + str(chunk.new_first) + " (size " + str(shape[chunk.new_first]) +
          ") spans dims " + str(outer) + " and " + str(chunk.first) +
          ", which cannot merge: merging needs stride[" + str(outer) + "] = " + terms + " = " +
          numbers + " = " + str(needed) + ", and stride[" + str(outer) + "] is " +
          str(strides[outer]);
  return r;
}

std::optional<LayoutRefusal> expand_refusal(const Layout& layout, IntList new_sizes) {
  if (!refuses([&] { expand_geometry(layout, new_sizes); })) return std::nullopt;
  const IntList sizes = layout.sizes();
  LayoutRefusal r{"expand", {}, "", ""};
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  const int64_t nnew = static_cast<int64_t>(new_sizes.size());
  if (nnew < ndim) {
    r.why = "the tensor has " + str(ndim) + " dims and the new shape " + str(nnew) +
            ": expand adds dims in front, and never removes one";
    r.instead = "give a size (or -1) for each of the " + str(ndim) + " dims";
    return r;
  }
  // The dims in expand_geometry's order, from the right; the first that fails is the one refused.
  Shape repeats(nnew, 1);
  bool divides = true;
  for (int64_t i = nnew - 1; i >= 0; --i) {
    const int64_t d = ndim - 1 - (nnew - 1 - i);
    const int64_t size = d >= 0 ? sizes[d] : 1;
    const int64_t target = new_sizes[i] == -1 ? size : new_sizes[i];
    repeats[i] = size == 0 ? 1 : target / size;
    divides = divides && (size == 0 ? target == 0 : target >= 0 && target % size == 0);
  }
  for (int64_t i = nnew - 1; i >= 0; --i) {
    const int64_t d = ndim - 1 - (nnew - 1 - i);
    const int64_t size = d >= 0 ? sizes[d] : 1;
    int64_t target = new_sizes[i];
    if (target == -1 && d < 0) {
      r.dims = {i};
      r.why = "dim " + str(i) + " of the new shape is a new leading dim, so -1 has no size to "
              "keep there";
      r.instead = "a size for each new leading dim";
      return r;
    }
    if (target == -1) target = size;
    if (size != target && size != 1) {
      r.dims = {d};
      r.why = "dim " + str(d) + " has size " + str(size) + ", and expand grows only a dim of "
              "size 1 (giving it stride 0); a dim of size " + str(size) + " keeps its size";
      r.instead = divides ? "repeat(" + args(repeats) + ") copies it into shape " +
                                to_string(new_sizes)
                          : "no repeat of a dim of size " + str(size) + " makes " + str(target) +
                                "; slice or pad that dim first";
      return r;
    }
    if (target < 0) {
      r.dims = {i};
      r.why = "size " + str(target) + " at dim " + str(i) + " is negative; -1 alone means "
              "keep the size";
      r.instead = "sizes of 0 or more, or -1";
      return r;
    }
  }
  r.why = "the new shape does not fit the tensor's";  // expand_geometry refused otherwise
  return r;
}

std::optional<LayoutRefusal> broadcast_refusal(const std::vector<Shape>& shapes) {
  Shape a;
  for (size_t k = 0; k < shapes.size(); ++k) {
    const Shape& b = shapes[k];
    Shape out;
    if (!refuses([&] { out = broadcast_shapes(a, b); })) {
      a = out;
      continue;
    }
    LayoutRefusal r{"broadcast", {}, "", ""};
    const size_t n = std::max(a.size(), b.size());
    // "a" is the first shape, or what the shapes before this one broadcast to.
    const std::string name_a = k <= 1 ? "a" : "the shapes before it";
    const std::string name_b = k <= 1 ? "b" : "shape " + str(static_cast<int64_t>(k));
    for (size_t i = n; i-- > 0;) {  // from the right, as broadcast_shapes reports
      const int64_t da = static_cast<int64_t>(i) - static_cast<int64_t>(n - a.size());
      const int64_t db = static_cast<int64_t>(i) - static_cast<int64_t>(n - b.size());
      const int64_t sa = da >= 0 ? a[da] : 1;
      const int64_t sb = db >= 0 ? b[db] : 1;
      if (sa < 0 || sb < 0) {
        r.why = "a size is negative";
        r.instead = "sizes of 0 or more";
        return r;
      }
      if (sa == sb || sa == 1 || sb == 1) continue;
      r.dims = {static_cast<int64_t>(i)};
      r.why = "aligned from the right, dim " + str(da) + " of " + name_a + " (size " + str(sa) +
              ") meets dim " + str(db) + " of " + name_b + " (size " + str(sb) +
              "), and neither size is 1: broadcasting stretches only a size-1 dim";
      r.instead = "make the sizes equal (slice or repeat one), or give one a size-1 dim with "
                  "unsqueeze (or None) so that these dims no longer meet";
      return r;
    }
    r.why = "the shapes do not broadcast";
    return r;
  }
  return std::nullopt;
}

std::optional<LayoutRefusal> overlap_refusal(const Layout& layout) {
  if (has_internal_overlap(layout) != MemOverlap::Yes) return std::nullopt;
  const IntList sizes = layout.sizes(), strides = layout.strides();
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (strides[i] != 0 || sizes[i] <= 1) continue;
    LayoutRefusal r{"overlap", {static_cast<int64_t>(i)}, "", ""};
    r.why = "dim " + str(static_cast<int64_t>(i)) + " has size " + str(sizes[i]) +
            " and stride 0: its " + str(sizes[i]) + " indices address one memory location, so "
            "the write would land " + str(sizes[i]) + " times on each";
    r.instead = "clone() first (the copy has a location of its own for each element), or "
                "write to the tensor before it was expanded";
    return r;
  }
  return std::nullopt;
}

}  // namespace strided
