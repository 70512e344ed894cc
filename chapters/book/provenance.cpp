#include "book/provenance.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

#include <sys/utsname.h>

#include "book/gpu.h"
#include "strided/engine/dispatch.h"
#include "strided/engine/matmul.h"

// Set by chapters/CMakeLists.txt; the fallbacks keep the runtime compilable anywhere.
#ifndef BOOK_CXX_FLAGS
#define BOOK_CXX_FLAGS "unknown"
#endif
#ifndef BOOK_SOURCE_DIR
#define BOOK_SOURCE_DIR "."
#endif
#ifndef BOOK_CONFIGURE_COMMIT
#define BOOK_CONFIGURE_COMMIT "unknown"
#endif

namespace book {

namespace {

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string{} : s.substr(b, e - b + 1);
}

// The output of a shell command, or "" when it fails (no git, not a checkout).
std::string run(const std::string& command) {
  std::string out;
  FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");
  if (!pipe) return out;
  std::array<char, 256> buf{};
  while (fgets(buf.data(), buf.size(), pipe)) out += buf.data();
  if (pclose(pipe) != 0) return {};
  return trim(out);
}

std::string compiler() {
#if defined(__clang__)
  return "Clang " __clang_version__;
#elif defined(__GNUC__)
  return "GCC " __VERSION__;
#else
  return "unknown compiler";
#endif
}

std::string commit() {
  const std::string dir = BOOK_SOURCE_DIR;
  std::string hash = run("git -C '" + dir + "' rev-parse --short=12 HEAD");
  if (hash.empty()) return BOOK_CONFIGURE_COMMIT;
  // Tracked files that differ from the commit: the run is not exactly that commit, so say so.
  if (!run("git -C '" + dir + "' status --porcelain --untracked-files=no").empty())
    hash += "+modified";
  return hash;
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

std::string cpu_model_from_cpuinfo(const std::string& cpuinfo) {
  std::istringstream in(cpuinfo);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return trim(line.substr(colon + 1));
    }
  }
  return {};
}

std::string source_dir() { return BOOK_SOURCE_DIR; }

bool full_run() {
  const char* v = std::getenv("STRIDED_FULL");
  return v && std::string(v) == "1";
}

std::string caches_from_sysfs(const std::string& cache_dir) {
  auto read = [](const std::string& path) {
    std::ifstream in(path);
    std::string s;
    std::getline(in, s);
    return trim(s);
  };
  std::string out;
  for (int i = 0; i < 8; ++i) {
    const std::string dir = cache_dir + "/index" + std::to_string(i) + "/";
    const std::string level = read(dir + "level"), type = read(dir + "type");
    const std::string size = read(dir + "size");
    if (level.empty() || size.empty() || type == "Instruction") continue;
    out += (out.empty() ? "" : ", ") + std::string("L") + level + (type == "Data" ? "d " : " ") + size;
  }
  return out;
}

namespace {
std::string os_name() {
  std::ifstream in("/etc/os-release");
  std::string line, name;
  while (std::getline(in, line))
    if (line.rfind("PRETTY_NAME=", 0) == 0) name = line.substr(12);
  if (name.size() >= 2 && name.front() == '"') name = name.substr(1, name.size() - 2);
  // uname(2), not `uname -sr` through a shell: every claim's ctest test is a process of its own.
  utsname u{};
  const std::string kernel = ::uname(&u) == 0 ? std::string(u.sysname) + " " + u.release : "";
  if (name.empty()) return kernel.empty() ? "unknown OS" : kernel;
  return kernel.empty() ? name : name + ", " + kernel;
}
}  // namespace

Provenance collect_provenance(bool read_commit) {
  Provenance p;
  p.compiler = trim(compiler());
  p.flags = trim(BOOK_CXX_FLAGS);
  std::ifstream in("/proc/cpuinfo");
  std::stringstream text;
  text << in.rdbuf();
  p.cpu = cpu_model_from_cpuinfo(text.str());
  if (p.cpu.empty()) p.cpu = "unknown CPU";
  p.cpu_threads = static_cast<int>(std::thread::hardware_concurrency());
  const GpuInfo& g = gpu();
  p.gpu = g.available ? g.name : "no GPU";
  p.gpu_reason = g.available ? "" : g.reason;
  p.gpu_plain = g.available ? "" : g.plain;
  p.caches = caches_from_sysfs("/sys/devices/system/cpu/cpu0/cache");
  p.os = os_name();
  p.cuda_runtime = g.runtime.empty() ? "none" : g.runtime;
  p.blas = strided::blas_description();
  try {  // a bad STRIDED_CPU_CAPABILITY is the first op's error, not the provenance's
    p.cpu_capability = strided::cpu_capability_name();
  } catch (const std::exception&) {
    p.cpu_capability = "unknown";
  }
  p.commit = read_commit ? commit() : "not read";
  p.date = utc_now();
  p.sizes = full_run() ? "the seed notebook's sizes (tools/book build --full)"
                       : "sizes smaller than the seed notebook's, to keep the build short";
  return p;
}

}  // namespace book
