#include "strided/engine/parallel.h"

#ifndef STRIDED_NO_BLAS
#include <cblas.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "strided/core/error.h"

namespace strided {

namespace {

thread_local bool t_in_parallel = false;

int default_threads() {
#ifdef STRIDED_ONE_THREAD
  return 1;  // a build without threads (the wasm one): every parallel_for runs on the caller
#endif
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

// Waits for a job the spinning way first, as OpenMP's workers do (libgomp spins GOMP_SPINCOUNT
// times before it sleeps): a worker that sleeps on a condition variable after each job is woken
// by a system call and rescheduled, on a virtual machine an interrupt to a halted core, which
// costs tens of microseconds; and the scheduler may wake it on another core, whose cache does not
// hold the half of the data it read last time. Ops called back to back (a reduction of a 4 MiB
// matrix takes some 40 us on two cores) then find the worker awake on its own core. The spin is
// bounded, so an idle pool sleeps and leaves the cores to other processes.
constexpr auto kSpin = std::chrono::microseconds(100);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// Spins until done() or kSpin has passed; returns done().
template <class Done>
bool spin_until(const Done& done) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= until) return done();
  }
}

// A fixed set of workers that spin, then sleep, between jobs. One job runs at a time (a
// parallel_for issued from two application threads at once is serialised by job_mutex_); chunk 0
// runs on the caller. A job's description is written under mutex_ with its generation; a worker
// reads both under mutex_, so it runs the job whose generation it read.
class Pool {
 public:
  static Pool& get() {
    static Pool pool;
    return pool;
  }

  int threads() const { return threads_.load(std::memory_order_relaxed); }
  // Not under job_mutex_: a chunk may call set_num_threads while its job holds it (that would
  // deadlock). The job running keeps the partition it started with; the next one sees n.
  void set_threads(int n) { threads_.store(n, std::memory_order_relaxed); }

  void run(int64_t begin, int64_t end, int64_t grain,
           const std::function<void(int64_t, int64_t)>& f) {
    std::lock_guard<std::mutex> job(job_mutex_);
    // ParallelOpenMP.h: at most one chunk per thread and at least grain items per chunk.
    const int64_t range = end - begin;
    int64_t tasks = threads();
    if (grain > 0) tasks = std::min(tasks, (range + grain - 1) / grain);
    const int64_t chunk = (range + tasks - 1) / tasks;
    tasks = (range + chunk - 1) / chunk;
    ensure_workers(static_cast<int>(tasks) - 1);
    bool sleeping;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = {&f, begin, end, chunk, tasks};
      pending_.store(tasks - 1, std::memory_order_relaxed);
      error_ = nullptr;
      generation_.store(generation_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
      sleeping = sleepers_ > 0;
    }
    if (sleeping) wake_.notify_all();
    run_chunk(job_, 0);
    const auto finished = [&] { return pending_.load(std::memory_order_acquire) == 0; };
    if (!spin_until(finished)) {
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, finished);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    job_.f = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
      generation_.store(generation_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    }
    wake_.notify_all();
    for (std::thread& w : workers_) w.join();
  }

 private:
  struct Job {
    const std::function<void(int64_t, int64_t)>* f = nullptr;
    int64_t begin = 0, end = 0, chunk = 1, tasks = 0;
  };

  Pool() : threads_(default_threads()) {}

  void ensure_workers(int n) {
    while (static_cast<int>(workers_.size()) < n) {
      const int64_t index = static_cast<int64_t>(workers_.size()) + 1;
      // A new worker must not mistake the job already finished for a fresh one.
      const uint64_t seen = generation_.load(std::memory_order_relaxed);
      workers_.emplace_back([this, index, seen] { work(index, seen); });
    }
  }

  void run_chunk(const Job& job, int64_t task) {
    const int64_t b = job.begin + task * job.chunk;
    const int64_t e = std::min(job.end, b + job.chunk);
    t_in_parallel = true;
    try {
      if (b < e) (*job.f)(b, e);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
    t_in_parallel = false;
  }

  void work(int64_t index, uint64_t seen) {
    for (;;) {
      const auto fresh = [&] { return generation_.load(std::memory_order_acquire) != seen; };
      Job job;
      {
        const bool woke = spin_until(fresh);
        std::unique_lock<std::mutex> lock(mutex_);
        if (!woke) {
          ++sleepers_;
          wake_.wait(lock, fresh);
          --sleepers_;
        }
        if (stop_) return;
        // The generation read here with its job: a job that finished while this worker was
        // on its way here did not need it (its caller waits for every worker it gave a chunk).
        seen = generation_.load(std::memory_order_relaxed);
        job = job_;
      }
      if (index >= job.tasks) continue;  // this job has fewer chunks than workers
      run_chunk(job, index);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        // Under mutex_, so that a caller between its check and its wait cannot miss it.
        std::lock_guard<std::mutex> lock(mutex_);
        done_.notify_one();
      }
    }
  }

  std::mutex job_mutex_;
  std::atomic<int> threads_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  Job job_;
  std::atomic<int64_t> pending_{0};
  std::atomic<uint64_t> generation_{0};
  int sleepers_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace

int get_num_threads() { return Pool::get().threads(); }

void set_num_threads(int n) {
  STRIDED_CHECK(n >= 1, "set_num_threads", "Expected positive number of threads, but got ", n);
#ifdef STRIDED_ONE_THREAD
  n = 1;  // this build starts no thread, so the pool stays on the caller
#endif
  Pool::get().set_threads(n);
#ifndef STRIDED_NO_BLAS
  openblas_set_num_threads(n);
#endif
}

bool in_parallel_region() { return t_in_parallel; }

void parallel_for(int64_t begin, int64_t end, int64_t grain_size,
                  const std::function<void(int64_t, int64_t)>& f) {
  STRIDED_CHECK(grain_size >= 0, "parallel_for", "grain_size must be >= 0, got ", grain_size);
  if (begin >= end) return;
  if (end - begin <= grain_size || get_num_threads() == 1 || t_in_parallel) {
    f(begin, end);
    return;
  }
  Pool::get().run(begin, end, grain_size, f);
}

}  // namespace strided
