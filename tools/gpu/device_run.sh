#!/usr/bin/env bash
# The GPU half of the book, run on a machine with an NVIDIA GPU, from the repository root, with
# .gpu/bundle.tar.gz made by tools/gpu/bundle.sh beside it:
#
#   tools/gpu/device_run.sh OUT [SECONDS]
#
# In order of what matters most, each step capped so that the whole run ends within SECONDS
# (default 400), whatever hangs:
#   1. the device: nvidia-smi's name, driver, clocks; strided-cuda-info
#   2. the GPU tests (what `ctest -L gpu` runs), through ctest where the machine has it
#   3. every GPU claim of chapters 6 and 7 at the seed's sizes, each chapter with --report
#   4. the CUDA benchmarks (kernels/bench), as Google Benchmark JSON
#   5. PyTorch's own kernels on the same GPU (tools/gpu/torch_gpu.py), where torch has CUDA
#   6. every chapter at the test sizes (--statuses)
#   7. compute-sanitizer memcheck on the GPU tests, racecheck on those with shared memory
# and packs the results, after every step, into OUT/results.tar.gz, which tools/gpu/record.py
# turns into the recorded run under docs/recorded/gpu/. A step that fails is logged and the next
# runs: what did not run is absent from the results, never counted as passed.
set -uo pipefail
out=${1:?usage: device_run.sh OUT [SECONDS]}
limit=${2:-400}
root=$PWD
res=$root/.gpu/results
rm -rf "$res" && mkdir -p "$res" "$out"
log() { echo "[$SECONDS s] $*" | tee -a "$res/steps.log"; }
pack() { tar -C "$res" -czf "$out/results.tar.gz" . ; }
# The seconds a step may take: its cap, or what is left before the limit (less a margin to pack).
cap() { local left=$((limit - SECONDS - 20)); [ "$left" -lt "$1" ] && echo "$left" || echo "$1"; }
runstep() {  # runstep NAME CAP CMD...: runs CMD with a timeout, its output in NAME.log
  local name=$1 c; c=$(cap "$2"); shift 2
  if [ "$c" -le 5 ]; then log "$name: skipped, no time left"; echo "skipped" >"$res/$name.rc"; return; fi
  echo "\$ $*" >"$res/$name.log"  # the command, so the record can say what ran
  timeout --kill-after=5 "$c" "$@" >>"$res/$name.log" 2>&1
  local rc=$?
  echo "$rc" >"$res/$name.rc"
  log "$name: exit $rc (cap ${c} s)"
}

# ---- set-up: the bundle, the checkout's path, the CUDA libraries -----------------------------------
mkdir -p .gpu/b && tar -C .gpu/b -xzf .gpu/bundle.tar.gz || { log "no bundle"; pack; exit 1; }
bin=$root/.gpu/b/bin
cp .gpu/b/commit "$res/commit"
# The programs read the checkout (recorded answers, seeds) at the path they were built in.
if [ ! -e /work/main ]; then mkdir -p /work && ln -s "$root" /work/main; fi
[ "$(cd /work/main && pwd -P)" = "$(pwd -P)" ] || log "warning: /work/main is not this checkout"
# The CUDA runtime and cuBLAS: the toolkit's, or those a Python package carries (torch's).
libdirs() {
  find /usr/local/cuda*/lib64 /usr/local/cuda*/targets/x86_64-linux/lib /usr/lib/x86_64-linux-gnu \
    /opt /usr/local/lib /usr/lib/python3* -maxdepth 10 -name "$1" 2>/dev/null |
    xargs -r -n1 dirname | sort -u | tr '\n' ':'
}
cuda_dirs=$(libdirs 'libcublas.so.13*')
rt_dirs=$(libdirs 'libcudart.so.13*')
export LD_LIBRARY_PATH="$root/.gpu/b/lib:${cuda_dirs}${rt_dirs}${LD_LIBRARY_PATH:-}"
export PATH="$PATH:/usr/local/cuda/bin"
log "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
ldd "$bin/chapter_07_matmul" >"$res/ldd.log" 2>&1
grep -q "not found" "$res/ldd.log" && log "missing libraries: $(grep 'not found' "$res/ldd.log" | tr -d '\t' | tr '\n' ' ')"

# ---- 1. the device ---------------------------------------------------------------------------------
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.limit,temperature.gpu,pstate \
  --format=csv >"$res/nvidia-smi.csv" 2>&1
nvidia-smi >"$res/nvidia-smi.txt" 2>&1
runstep device_info 20 "$bin/strided-cuda-info"
{ uname -a; nproc; grep -m1 'model name' /proc/cpuinfo; command -v nvcc && nvcc --version | tail -2;
  command -v compute-sanitizer; command -v ctest && ctest --version | head -1; python3 --version; } \
  >"$res/machine.txt" 2>&1
pack

# ---- 2. the GPU tests ------------------------------------------------------------------------------
# One program, cuda_gpu_tests; each test file of it is a test of its own, cuda.<name>_gpu, as in
# kernels/CMakeLists.txt.
tests="elementwise matmul reduce timing_events to_device transpose"
if command -v ctest >/dev/null; then
  mkdir -p "$res/ctest"
  for t in $tests; do
    echo "add_test(cuda.${t}_gpu \"$bin/cuda_gpu_tests\" \"--source-file=*/${t}_gpu_test.cpp\")"
    echo "set_tests_properties(cuda.${t}_gpu PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 60)"
  done >"$res/ctest/CTestTestfile.cmake"
  (cd "$res/ctest" && runstep ctest_gpu 200 ctest -L gpu --output-on-failure)
else
  for t in $tests; do runstep "test_$t" 60 "$bin/cuda_gpu_tests" "--source-file=*/${t}_gpu_test.cpp"; done
fi
pack

# ---- 3. the GPU claims, at the seed's sizes ---------------------------------------------------------
for ch in 06_performance 07_matmul; do
  STRIDED_FULL=1 runstep "claims_$ch" 150 "$bin/chapter_$ch" --kind gpu --report "$res/report_$ch.json"
done
pack

# ---- 4. the CUDA benchmarks ------------------------------------------------------------------------
# Five runs of all of them, one after another: a goal's range is the spread of its two sides'
# runs (tools/gpu/record.py), so that a difference inside the noise is judged inconclusive. Runs,
# not Google Benchmark's --benchmark_repetitions, which stopped the program here on a failed check
# of its statistics ("run_iterations == run.iterations").
for r in 1 2 3 4 5; do
  runstep "bench_$r" 40 "$bin/strided_cuda_bench" --benchmark_min_time=0.1 \
    --benchmark_format=json --benchmark_out="$res/bench_$r.json" --benchmark_out_format=json
done
pack

# ---- 5. PyTorch on the same GPU --------------------------------------------------------------------
PYTHONUNBUFFERED=1 runstep torch 90 python3 tools/gpu/torch_gpu.py "$res/torch.json"
pack

# ---- 6. every chapter, at the test sizes --------------------------------------------------------------
# Each also writes its report, so that a claim that fails here is recorded with the values it judged.
for c in "$bin"/chapter_*; do
  ch=$(basename "$c" | sed 's/^chapter_//')
  runstep "chapter_$ch" 40 "$c" --statuses --report "$res/chapter_$ch.json"
done
pack

# ---- 7. compute-sanitizer ----------------------------------------------------------------------------
if command -v compute-sanitizer >/dev/null; then
  # The 2^31-element case moves 2 GiB through an instrumented kernel: too slow to check so.
  for t in elementwise reduce to_device transpose matmul; do
    runstep "memcheck_$t" 45 compute-sanitizer --tool memcheck --error-exitcode 9 \
      "$bin/cuda_gpu_tests" "--source-file=*/${t}_gpu_test.cpp" --test-case-exclude='*2^31*'
  done
  for t in transpose reduce matmul; do
    # The 70000-row case has too many shared-memory accesses to check within the cap.
    runstep "racecheck_$t" 45 compute-sanitizer --tool racecheck --error-exitcode 9 \
      "$bin/cuda_gpu_tests" "--source-file=*/${t}_gpu_test.cpp" \
      --test-case-exclude='*long rows*'
  done
else
  log "no compute-sanitizer on this machine"
fi
pack

nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,pstate --format=csv \
  >"$res/nvidia-smi-after.csv" 2>&1
log "done"
pack
