// Where a storage lives: the CPU or CUDA device N.
#pragma once

#include <string>
#include <string_view>

namespace strided {

struct Device {
  enum class Type : uint8_t { CPU, CUDA };
  Type type = Type::CPU;
  int index = 0;  // the CUDA ordinal; 0 for the CPU

  static Device cpu() { return {}; }
  static Device cuda(int index = 0) { return {Type::CUDA, index}; }
  bool is_cpu() const { return type == Type::CPU; }
  bool is_cuda() const { return type == Type::CUDA; }
  bool operator==(const Device&) const = default;
  // "cpu" or "cuda:0", as PyTorch prints a device.
  std::string str() const;
  // Parses "cpu", "cuda" and "cuda:N".
  static Device parse(std::string_view text);
};

}  // namespace strided
