#include "engine_requests.h"

namespace strided::explore {

std::optional<Json> engine_request(const Json& request) {
  for (const char* kind : {"unary", "binary", "matmul"}) {
    if (!request.contains(kind)) continue;
    const Json& what = request.at(kind);
    const std::string name = what.is_string() ? " " + what.get<std::string>() : "";
    return error_json(std::string(kind) + name +
                      " needs the compute engine, not available in this build");
  }
  return std::nullopt;
}

}  // namespace strided::explore
