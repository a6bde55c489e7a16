// SIGINT and SIGTERM. The first asks the running phase to stop at its next check (a solver at
// its next output sample, a continuation at its next point, a period map at its next step): it
// then writes what it finished, marked INTERRUPTED, and the program exits with 128 + signal. A phase that
// cannot check (a library's eigensolve) is ended by a watchdog after interrupt_grace_time,
// which first removes the registered staging folders and lock files (nothing is written). A
// second signal ends the process at once. SIGXFSZ is ignored: a file-size limit makes the write
// fail, and the writer reports it (io/write_error.h).
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>

namespace vibroimpact::io
{
  inline constexpr std::chrono::milliseconds interrupt_grace_time{500};

  void install_interrupt_handlers();

  // The signal received, 0 while none. Looking counts as taking the signal in hand: the
  // watchdog then leaves the stopping to the caller.
  int interrupt_signal();

  // Throws Interrupted when a signal has been received.
  void throw_if_interrupted(const std::string &where);

  // What the watchdog does before it ends the process (remove a staging folder, a lock file);
  // returns the key to unregister it with.
  int  register_forced_exit_cleanup(std::function<void()> cleanup);
  void unregister_forced_exit_cleanup(int key);
  // Held while results are moved into place: the watchdog waits for it (no half commit).
  std::unique_lock<std::mutex> hold_forced_exit();

  class Interrupted : public std::runtime_error
  {
  public:
    Interrupted(int signal, const std::string &where);
    int signal() const { return signal_; }

  private:
    int signal_;
  };

  // 128 + the signal, as shells report a process ended by it.
  inline int exit_code_of(const Interrupted &e) { return 128 + e.signal(); }

  // The check of a long computation that may be abandoned midway (a flow map's pass), made at
  // its every step: throws Interrupted when a signal arrived after the computation started. One
  // started after the signal, or inside an UninterruptedScope, runs to its end (the finished
  // results a study keeps are post-processed by such passes); its checks still take the signal
  // in hand, so the watchdog leaves it be.
  class InterruptCheck
  {
  public:
    InterruptCheck();
    void operator()(const char *where) const
    {
      if (const int signal = interrupt_signal(); signal != 0 && armed_)
        throw Interrupted(signal, where);
    }

  private:
    bool armed_;
  };

  // While one lives, the InterruptChecks this thread starts run to their end.
  class UninterruptedScope
  {
  public:
    UninterruptedScope();
    ~UninterruptedScope();
    UninterruptedScope(const UninterruptedScope &)            = delete;
    UninterruptedScope &operator=(const UninterruptedScope &) = delete;
  };
} // namespace vibroimpact::io
