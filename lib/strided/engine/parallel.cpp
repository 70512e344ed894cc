#include "strided/engine/parallel.h"

#ifndef STRIDED_NO_BLAS
#include <cblas.h>
#endif

#include <algorithm>
#include <atomic>
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

// A fixed set of workers that sleep between jobs. One job runs at a time (a parallel_for issued
// from two application threads at once is serialised by job_mutex_); chunk 0 runs on the caller.
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
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &f;
      begin_ = begin;
      end_ = end;
      chunk_ = chunk;
      tasks_ = tasks;
      pending_ = tasks - 1;
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    run_chunk(0);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    job_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& w : workers_) w.join();
  }

 private:
  Pool() : threads_(default_threads()) {}

  void ensure_workers(int n) {
    while (static_cast<int>(workers_.size()) < n) {
      const int64_t index = static_cast<int64_t>(workers_.size()) + 1;
      // A new worker must not mistake the job already finished for a fresh one.
      uint64_t seen;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        seen = generation_;
      }
      workers_.emplace_back([this, index, seen] { work(index, seen); });
    }
  }

  void run_chunk(int64_t task) {
    const int64_t b = begin_ + task * chunk_;
    const int64_t e = std::min(end_, b + chunk_);
    t_in_parallel = true;
    try {
      if (b < e) (*job_)(b, e);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
    t_in_parallel = false;
  }

  void work(int64_t index, uint64_t seen) {
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        if (index >= tasks_) continue;  // this job has fewer chunks than workers
      }
      run_chunk(index);
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::mutex job_mutex_;
  std::atomic<int> threads_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int64_t, int64_t)>* job_ = nullptr;
  int64_t begin_ = 0, end_ = 0, chunk_ = 1, tasks_ = 0, pending_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace

int get_num_threads() { return Pool::get().threads(); }

void set_num_threads(int n) {
  STRIDED_CHECK(n >= 1, "set_num_threads: Expected positive number of threads, but got ", n);
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
  STRIDED_CHECK(grain_size >= 0, "parallel_for: grain_size must be >= 0, got ", grain_size);
  if (begin >= end) return;
  if (end - begin <= grain_size || get_num_threads() == 1 || t_in_parallel) {
    f(begin, end);
    return;
  }
  Pool::get().run(begin, end, grain_size, f);
}

}  // namespace strided
