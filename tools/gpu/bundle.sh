#!/usr/bin/env bash
# Builds what a GPU run needs and packs it into .gpu/bundle.tar.gz, for a machine with a GPU that
# has CUDA 13 and no build tools of ours (the lent machine of tools/gpu/device_run.sh).
#
#   tools/gpu/bundle.sh            # from the repository root, on a clean work tree
#
# The bundle holds the GPU tests (one program), every chapter, strided-cuda-info and the CUDA benchmarks, built
# at -O2 for sm_90 (Hopper, the lent H100/H200) in build/gpu, stripped; and the shared libraries
# of this machine that such a machine lacks (OpenBLAS, its Fortran runtime, Google Benchmark).
# The CUDA runtime and cuBLAS are the GPU machine's own. The programs find the checkout at this
# path (/work/main here), so device_run.sh links that path to its copy of the tree.
#
# Refuses a work tree with uncommitted changes: the run records the commit it was built from, and
# "+modified" would name no commit anyone can check out.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "bundle.sh: commit first; the recorded run names the commit it was built from" >&2
  exit 1
fi
build=build/gpu
# Configured again every time: the configure-time commit is the run's commit outside git.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG" "-DCMAKE_CUDA_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG" \
  -DCMAKE_CUDA_ARCHITECTURES=90-real >/dev/null
chapters=()
for f in chapters/[0-9][0-9]_*.cpp; do chapters+=("chapter_$(basename "$f" .cpp)"); done
# The GPU tests are one program, cuda_gpu_tests (kernels/CMakeLists.txt); device_run.sh runs each
# test file of it on its own, as ctest does here.
ninja -C "$build" strided-cuda-info strided_cuda_bench cuda_gpu_tests "${chapters[@]}"

stage=.gpu/stage
rm -rf .gpu && mkdir -p "$stage/bin" "$stage/lib"
strip -o "$stage/bin/cuda_gpu_tests" "$build/kernels/cuda_gpu_tests"
for c in "${chapters[@]}"; do strip -o "$stage/bin/$c" "$build/chapters/$c"; done
strip -o "$stage/bin/strided-cuda-info" "$build/kernels/strided-cuda-info"
strip -o "$stage/bin/strided_cuda_bench" "$build/kernels/bench/strided_cuda_bench"
# The shared libraries the programs need that are not CUDA's, the C library's or the compiler's
# own (a newer libstdc++ runs programs built against an older one).
for lib in $(ldd "$stage"/bin/* | awk '/=> \// {print $3}' | sort -u); do
  case "$(basename "$lib")" in
    libopenblas*|libgfortran*|libquadmath*|libbenchmark*) cp -L "$lib" "$stage/lib/" ;;
  esac
done
git rev-parse --short=12 HEAD >"$stage/commit"
tar -C "$stage" -czf .gpu/bundle.tar.gz .
rm -rf "$stage"
ls -l .gpu/bundle.tar.gz
