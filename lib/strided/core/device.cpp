#include "strided/core/device.h"

#include <charconv>

#include "strided/core/error.h"

namespace strided {

std::string Device::str() const {
  return is_cpu() ? std::string("cpu") : "cuda:" + std::to_string(index);
}

Device Device::parse(std::string_view text) {
  if (text == "cpu") return cpu();
  if (text == "cuda") return cuda(0);
  if (text.starts_with("cuda:")) {
    int n = -1;
    auto digits = text.substr(5);
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec == std::errc() && ptr == digits.data() + digits.size() && n >= 0) return cuda(n);
  }
  throw Error("device", detail::concat("expected 'cpu', 'cuda' or 'cuda:N', got '", text, "'"));
}

}  // namespace strided
