// One thread that writes while the solver steps: jobs (a block of history rows to format and
// write, a frame to form and write) run in the order they were posted, at most `max_pending`
// waiting at a time, so the memory they hold is bounded whatever the record's length. A job
// that throws (a full disk: io::WriteError) stops the queue; post() and finish() rethrow its
// exception in the posting thread, so a failed write ends the run as it would without a thread.
// SIGINT/SIGTERM are blocked on the thread: they reach the thread that polls them.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace vibroimpact::io
{
  class BackgroundWriter
  {
  public:
    explicit BackgroundWriter(std::size_t max_pending = 8);
    // Drops the jobs not started (a run that failed writes nothing anyway) and joins the thread.
    ~BackgroundWriter();
    BackgroundWriter(const BackgroundWriter &) = delete;
    BackgroundWriter &operator=(const BackgroundWriter &) = delete;

    // Queues the job, waiting while max_pending jobs wait; rethrows a failed job's exception.
    void post(std::function<void()> job);
    // Waits until every job has run; rethrows a failed job's exception.
    void finish();

    // Seconds the thread spent in jobs, and the posting thread spent waiting for room or in
    // finish() (the writing the solve did not hide).
    double busy_seconds() const;
    double waited_seconds() const { return waited_; }
    // The most jobs that were ever waiting or running at once.
    std::size_t peak_pending() const;

  private:
    void work();
    void rethrow_failure();

    std::size_t                       max_pending_;
    mutable std::mutex                mutex_;
    std::condition_variable           changed_;
    std::deque<std::function<void()>> jobs_;
    bool                              running_job_ = false, stopping_ = false;
    std::exception_ptr                failure_;
    double                            busy_ = 0.0, waited_ = 0.0;
    std::size_t                       peak_ = 0;
    std::thread                       thread_; // last: started when the rest is ready
  };
} // namespace vibroimpact::io
