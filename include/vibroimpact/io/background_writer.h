// One thread that writes while the solver steps: jobs (a block of history rows to format and
// write, a frame to form and write) run in the order they were posted, jobs of at most
// `max_pending` weight in all waiting at a time (each job weighs what its poster says: a block of
// rows more than a frame), so the memory they hold is bounded whatever the record's length. A job
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

    // Queues the job, waiting while jobs of max_pending weight wait (a job heavier than that
    // waits for an empty queue); rethrows a failed job's exception.
    void post(std::function<void()> job, std::size_t weight = 1);
    // Waits until every job has run; rethrows a failed job's exception.
    void finish();

    // Seconds the thread spent in jobs, and the posting thread spent waiting for room or in
    // finish() (the writing the solve did not hide).
    double busy_seconds() const;
    double waited_seconds() const { return waited_; }
    // The most weight of jobs that were ever waiting or running at once.
    std::size_t peak_pending() const;

  private:
    void work();
    void rethrow_failure();

    std::size_t                       max_pending_;
    mutable std::mutex                mutex_;
    std::condition_variable           changed_;
    std::deque<std::pair<std::function<void()>, std::size_t>> jobs_; // and their weights
    std::size_t                       waiting_weight_ = 0, running_weight_ = 0;
    bool                              running_job_ = false, stopping_ = false;
    std::exception_ptr                failure_;
    double                            busy_ = 0.0, waited_ = 0.0;
    std::size_t                       peak_ = 0;
    std::thread                       thread_; // last: started when the rest is ready
  };
} // namespace vibroimpact::io
