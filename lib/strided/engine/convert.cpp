#include "strided/engine/convert.h"

#include <cstring>

namespace strided {

namespace {
// An element read through memcpy, as vec.h's load1: no assumption on alignment or aliasing (the
// bytes may belong to a tensor of another dtype, through view(dtype)).
template <class T>
T load_element(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
// A bool is read as its byte != 0, as c10::load<bool> does (load_scalar, dtype.cpp).
template <>
bool load_element<bool>(const char* p) {
  return *p != 0;
}
}  // namespace

void convert_run(char* dst, DType dd, int64_t ds, const char* src, DType sd, int64_t ss,
                 int64_t n) {
  dispatch(dd, [&](auto d) {
    using D = decltype(d);
    dispatch(sd, [&](auto s) {
      using S = decltype(s);
      for (int64_t i = 0; i < n; ++i) {
        const D x = convert_element<D>(load_element<S>(src + i * ss));
        std::memcpy(dst + i * ds, &x, sizeof x);
      }
    });
  });
}

}  // namespace strided
