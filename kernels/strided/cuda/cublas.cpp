// The one cuBLAS call of the book (CUDA builds only): cublasSgemm with the flags gemm_layout.h chose.
//
// cuBLAS is opened when the first product needs it (dlopen), not linked: a program linked with
// libcublas loads libcublasLt before main, whose initialisers touch about 100 MB; that cost every
// program linking the kernels 0.09 s and 26,000 page faults at start-up, on machines without a GPU
// too, where no product ever runs, and each chapter and each of its claims' tests paid it.
#include <dlfcn.h>

#include <mutex>
#include <string>
#include <vector>

#include "strided/cuda/backend.h"
#include "strided/cuda/check.h"
#include "strided/cuda/runtime.h"

namespace strided::cuda {

namespace {

// The entry points the book uses, by the names the library exports (cublas_v2.h maps
// cublasCreate and cublasSgemm to their _v2 symbols).
struct Cublas {
  decltype(&::cublasCreate_v2) create = nullptr;
  decltype(&::cublasSetMathMode) set_math_mode = nullptr;
  decltype(&::cublasSgemm_v2) sgemm = nullptr;
  decltype(&::cublasGetStatusString) status_string = nullptr;
  decltype(&::cublasGetStatusName) status_name = nullptr;
  decltype(&::cublasGetProperty) get_property = nullptr;
};

template <typename F>
void find(void* lib, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  STRIDED_CHECK(f, "cuBLAS", "libcublas has no ", name, ": ", dlerror());
}

// The library the headers were compiled against (libcublas.so.13 for cuBLAS 13), found as the
// dynamic linker finds any library (the program's run path, LD_LIBRARY_PATH); loaded once.
const Cublas& cublas() {
  static const Cublas c = [] {
    const std::string name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
    void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    STRIDED_CHECK(lib, "cuBLAS", name, " could not be loaded: ", dlerror());
    Cublas f;
    find(lib, "cublasCreate_v2", f.create);
    find(lib, "cublasSetMathMode", f.set_math_mode);
    find(lib, "cublasSgemm_v2", f.sgemm);
    find(lib, "cublasGetStatusString", f.status_string);
    find(lib, "cublasGetStatusName", f.status_name);
    find(lib, "cublasGetProperty", f.get_property);
    return f;
  }();
  return c;
}

}  // namespace

std::string cublas_version() {
  int v[3] = {0, 0, 0};
  const libraryPropertyType parts[3] = {MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL};
  for (int i = 0; i < 3; ++i) STRIDED_CUBLAS_CHECK(cublas().get_property(parts[i], &v[i]));
  return std::to_string(v[0]) + "." + std::to_string(v[1]) + "." + std::to_string(v[2]);
}

namespace detail {

std::string cublas_status_text(cublasStatus_t s) {
  return std::string(cublas().status_string(s)) + " (" + cublas().status_name(s) + ")";
}

}  // namespace detail

namespace backend {

namespace {

// One handle per device, created on first use and kept for the life of the process. It is never
// destroyed: static destructors may run after the CUDA runtime has been torn down, and
// cublasDestroy would then fail or crash (PyTorch keeps its handles in a pool for the same reason).
cublasHandle_t handle_for(int device) {
  static std::mutex mutex;
  static std::vector<cublasHandle_t> handles;
  std::lock_guard lock(mutex);
  if (static_cast<size_t>(device) >= handles.size()) handles.resize(static_cast<size_t>(device) + 1);
  cublasHandle_t& h = handles[static_cast<size_t>(device)];
  if (!h) {
    STRIDED_CUBLAS_CHECK(cublas().create(&h));
    // Float32 products and sums throughout: CUBLAS_DEFAULT_MATH never rounds SGEMM's inputs to
    // TF32 (that takes CUBLAS_TF32_TENSOR_OP_MATH), which is what PyTorch sets when
    // torch.backends.cuda.matmul.allow_tf32 is False, its default, and what the tolerance in
    // reference.h assumes. Set explicitly so the choice is visible.
    STRIDED_CUBLAS_CHECK(cublas().set_math_mode(h, CUBLAS_DEFAULT_MATH));
  }
  return h;
}

cublasOperation_t to_cublas(BlasTranspose t) { return t == BlasTranspose::N ? CUBLAS_OP_N : CUBLAS_OP_T; }

}  // namespace

void cublas_sgemm(const GemmCall& call, float* c, const float* a, const float* b) {
  STRIDED_INTERNAL_ASSERT(call.fits_int32());
  const float alpha = 1.0f, beta = 0.0f;
  cublasHandle_t h = handle_for(current_device());
  // cuBLAS's A is our b and its B is our a: NOTE: [The swap trick] in gemm_layout.h.
  STRIDED_CUBLAS_CHECK(cublas().sgemm(h, to_cublas(call.transa), to_cublas(call.transb),
                                      static_cast<int>(call.m), static_cast<int>(call.n),
                                      static_cast<int>(call.k), &alpha, b,
                                      static_cast<int>(call.lda), a, static_cast<int>(call.ldb),
                                      &beta, c, static_cast<int>(call.ldc)));
}

}  // namespace backend

}  // namespace strided::cuda
