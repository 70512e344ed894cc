#include "strided/cuda/out_checks.h"

#include "strided/memory/memory.h"

namespace strided::cuda {

void check_packed_out(const char* op, const Tensor& out, const Tensor& in, IntList sizes,
                      DType dtype, const std::string& wanted) {
  STRIDED_CHECK(out.defined() && out.device() == in.device() && out.dtype() == dtype &&
                    out.sizes() == Shape(sizes.begin(), sizes.end()) && out.is_contiguous(),
                op, "out must be a contiguous ", wanted, " on ", in.device().str(), ", got ",
                out.defined() ? to_string(out.layout()) + " " + std::string(name(out.dtype())) +
                                    " on " + out.device().str()
                              : std::string("an undefined tensor"));
}

void check_no_overlap(const char* op, const Tensor& out, const Tensor& in, const char* what) {
  const MemOverlapStatus s = get_overlap_status(out, in);
  STRIDED_CHECK(s == MemOverlapStatus::No || s == MemOverlapStatus::TooHard, op, "out ",
                out.layout(), " shares memory with ", what, " ", in.layout());
}

}  // namespace strided::cuda
