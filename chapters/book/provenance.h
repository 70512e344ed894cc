// Where and how a chapter ran: every report, page footer and ledger row names its machine.
#pragma once

#include <string>

namespace book {

struct Provenance {
  std::string compiler;  // "GCC 12.2.0"
  std::string flags;     // the build type's flags: "-O2 -g -DNDEBUG"
  std::string cpu;       // "model name" of /proc/cpuinfo, or "unknown CPU"
  int cpu_threads = 0;   // std::thread::hardware_concurrency()
  std::string gpu;       // the device name, or "no GPU"
  std::string gpu_reason;    // why "no GPU", when it is so, in the CUDA runtime's words
  std::string gpu_plain;     // the same in a reader's words: "no CUDA device on this machine"
  std::string caches;    // "L1d 32 KiB, L2 1 MiB, L3 32 MiB" (per core where private), from sysfs
  std::string os;        // "Debian GNU/Linux 12 (bookworm), Linux 6.1.0"
  std::string cuda_runtime;  // "none" without CUDA
  std::string blas;      // strided::blas_description(): the BLAS and its core type for this CPU
  std::string cpu_capability;  // the CPU kernels that ran (strided/engine/dispatch.h): "avx512", ...
  std::string commit;    // short hash, "+modified" when the work tree differs; "unknown" outside
                         // git; "not read" for a one-claim run
  std::string date;      // UTC, ISO 8601
  std::string sizes;     // the problem sizes the timings used: full_sizes_text() or short_sizes_text()
};

// The size setting: `tools/book build --full` (STRIDED_FULL=1) runs the timing claims at the seed
// notebook's sizes; otherwise they run at smaller ones that keep ctest short. Recorded in every
// chapter's provenance, so a page says which it shows.
bool full_run();

// Collected at run time (the commit too, so that a rebuilt chapter never reports a stale one);
// never fails: whatever cannot be found is "unknown".
// read_commit false: commit is "not read", saving the two git processes that were most of the time
// of a one-claim run (chapter --claim, the ctest test of a claim), which emits no report.
Provenance collect_provenance(bool read_commit = true);

// The checkout the chapter was built from (absolute): chapters find the files they read beside
// their source through it (plots, recorded runs), which the build lists as the chapter run's inputs.
std::string source_dir();

// The data and unified caches of the CPU the chapter runs on, from a sysfs cache folder such as
// /sys/devices/system/cpu/cpu0/cache: "L1d 32K, L2 1024K, L3 32768K" as the kernel writes sizes.
std::string caches_from_sysfs(const std::string& cache_dir);

// The first "model name" line of a /proc/cpuinfo text, trimmed; empty when there is none.
std::string cpu_model_from_cpuinfo(const std::string& cpuinfo);

}  // namespace book
