// The writer thread of a run (see io/background_writer.h).
#include <vibroimpact/io/background_writer.h>

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <csignal>

namespace vibroimpact::io
{
  namespace
  {
    double seconds_since(const std::chrono::steady_clock::time_point start)
    {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  } // namespace

  BackgroundWriter::BackgroundWriter(const std::size_t max_pending)
    : max_pending_(max_pending > 0 ? max_pending : 1)
  {
    // The thread inherits the signal mask: block the signals while it starts, so that they are
    // taken by the threads that poll them (io/interrupt.h), never by a write.
    sigset_t blocked, previous;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGINT);
    sigaddset(&blocked, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &blocked, &previous);
    thread_ = std::thread([this] { work(); });
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  }

  BackgroundWriter::~BackgroundWriter()
  {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      jobs_.clear();
      waiting_weight_ = 0;
    }
    changed_.notify_all();
    thread_.join();
  }

  void BackgroundWriter::work()
  {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;)
      {
        changed_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty())
          return; // stopping, nothing left
        auto job        = std::move(jobs_.front().first);
        running_weight_ = jobs_.front().second;
        waiting_weight_ -= running_weight_;
        running_job_    = true;
        jobs_.pop_front();
        lock.unlock();
        const auto start = std::chrono::steady_clock::now();
        std::exception_ptr failure;
        try
          {
            job();
          }
        catch (...)
          {
            failure = std::current_exception();
          }
        const double spent = seconds_since(start);
        lock.lock();
        busy_ += spent;
        running_job_    = false;
        running_weight_ = 0;
        if (failure && !failure_)
          {
            failure_ = failure;
            jobs_.clear(); // what follows a failed write is not written
            waiting_weight_ = 0;
          }
        changed_.notify_all();
      }
  }

  void BackgroundWriter::rethrow_failure()
  {
    if (failure_)
      std::rethrow_exception(failure_);
  }

  void BackgroundWriter::post(std::function<void()> job, const std::size_t weight)
  {
    std::unique_lock<std::mutex> lock(mutex_);
    rethrow_failure();
    const auto room = [this, weight] { return jobs_.empty() || waiting_weight_ + weight <= max_pending_; };
    if (!room())
      {
        const auto start = std::chrono::steady_clock::now();
        changed_.wait(lock, [&] { return room() || failure_; });
        waited_ += seconds_since(start);
        rethrow_failure();
      }
    jobs_.emplace_back(std::move(job), weight);
    waiting_weight_ += weight;
    peak_ = std::max(peak_, waiting_weight_ + running_weight_);
    changed_.notify_all();
  }

  void BackgroundWriter::finish()
  {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto                   start = std::chrono::steady_clock::now();
    changed_.wait(lock, [this] { return (jobs_.empty() && !running_job_) || failure_; });
    waited_ += seconds_since(start);
    if (failure_)
      {
        changed_.wait(lock, [this] { return !running_job_; });
        rethrow_failure();
      }
  }

  double BackgroundWriter::busy_seconds() const
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    return busy_;
  }

  std::size_t BackgroundWriter::peak_pending() const
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    return peak_;
  }
} // namespace vibroimpact::io
