// SIGINT / SIGTERM handling: a flag the long phases poll, and a watchdog for the phases that
// cannot poll (a library's eigensolve, a blocking open): if nobody has looked at the flag within
// the grace time, the watchdog removes the staging folders and lock files that are registered
// and ends the process with 128 + signal. SIGXFSZ is ignored so that a file-size limit makes the
// write fail (EFBIG), which the writers report (io/write_error.h), instead of killing the run.
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/interrupt_scope.h>

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

namespace vibroimpact::io
{
  namespace
  {
    volatile std::sig_atomic_t received = 0;
    std::atomic<bool>          acknowledged{false};
    volatile std::sig_atomic_t hosted = 0; // inside an InterruptScope: the host process must survive
    int                        wake_pipe[2] = {-1, -1};

    std::mutex                               &cleanup_mutex()
    {
      static std::mutex m;
      return m;
    }
    std::map<int, std::function<void()>> &cleanups()
    {
      static std::map<int, std::function<void()>> c;
      return c;
    }

    extern "C" void on_signal(const int signal)
    {
      if (received != 0)
        {
          if (hosted)
            return; // the flag is set already; the host stays alive
          std::signal(signal, SIG_DFL);
          std::raise(signal);
          return;
        }
      received = signal;
      if (wake_pipe[1] >= 0 && !hosted) // no watchdog in a host process
        {
          const char byte = 1;
          [[maybe_unused]] const auto n = ::write(wake_pipe[1], &byte, 1); // async-signal-safe
        }
    }

    void watch()
    {
      sigset_t blocked;
      sigemptyset(&blocked);
      sigaddset(&blocked, SIGINT);
      sigaddset(&blocked, SIGTERM);
      pthread_sigmask(SIG_BLOCK, &blocked, nullptr);
      char byte = 0;
      while (::read(wake_pipe[0], &byte, 1) < 0)
        ;
      const auto deadline = std::chrono::steady_clock::now() + interrupt_grace_time;
      while (std::chrono::steady_clock::now() < deadline)
        {
          if (acknowledged)
            return; // the running phase stops by itself and writes what it finished
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
      {
        const std::lock_guard<std::mutex> lock(cleanup_mutex()); // waits for a commit under way
        if (acknowledged)
          return;
        for (auto &[key, cleanup] : cleanups())
          cleanup();
        char line[160];
        const int n = std::snprintf(line, sizeof line,
                                    "vibroimpact: interrupted by signal %d during a step that cannot stop midway: "
                                    "nothing written\n",
                                    int(received));
        [[maybe_unused]] const auto w = ::write(STDERR_FILENO, line, n > 0 ? std::size_t(n) : 0);
      }
      ::_exit(128 + received);
    }
  } // namespace

  void install_interrupt_handlers()
  {
    std::signal(SIGXFSZ, SIG_IGN);
    if (wake_pipe[0] < 0 && ::pipe(wake_pipe) == 0)
      std::thread(watch).detach();
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
  }

  int interrupt_signal()
  {
    if (received != 0)
      acknowledged = true;
    return received;
  }

  int register_forced_exit_cleanup(std::function<void()> cleanup)
  {
    static int                        next = 0;
    const std::lock_guard<std::mutex> lock(cleanup_mutex());
    cleanups().emplace(++next, std::move(cleanup));
    return next;
  }

  void unregister_forced_exit_cleanup(const int key)
  {
    const std::lock_guard<std::mutex> lock(cleanup_mutex());
    cleanups().erase(key);
  }

  std::unique_lock<std::mutex> hold_forced_exit() { return std::unique_lock<std::mutex>(cleanup_mutex()); }

  Interrupted::Interrupted(const int signal, const std::string &where)
    : std::runtime_error("interrupted by signal " + std::to_string(signal) + (where.empty() ? "" : " " + where))
    , signal_(signal)
  {}

  namespace
  {
    // The scopes open at once (host threads each in a library call) share the handlers: the
    // first saves the host's and installs the library's, the last puts the host's back. Were
    // each to save what it found, a scope opened inside another's lifetime would "restore" the
    // library's handler for good, and the first to close would clear the flag under the others.
    struct OpenScopes
    {
      std::mutex       mutex;
      int              count = 0;
      struct sigaction host_int = {}, host_term = {};
    };
    OpenScopes &open_scopes()
    {
      static OpenScopes scopes;
      return scopes;
    }
  } // namespace

  InterruptScope::InterruptScope()
  {
    auto                             &scopes = open_scopes();
    const std::lock_guard<std::mutex> lock(scopes.mutex);
    if (scopes.count++ > 0)
      return; // the flag is shared: a signal stops every call under way
    received     = 0;
    acknowledged = false;
    hosted       = 1;
    struct sigaction action = {};
    action.sa_handler       = on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &scopes.host_int);
    sigaction(SIGTERM, &action, &scopes.host_term);
  }

  InterruptScope::~InterruptScope()
  {
    auto                             &scopes = open_scopes();
    const std::lock_guard<std::mutex> lock(scopes.mutex);
    if (--scopes.count > 0)
      return;
    sigaction(SIGINT, &scopes.host_int, nullptr);
    sigaction(SIGTERM, &scopes.host_term, nullptr);
    hosted       = 0;
    received     = 0;
    acknowledged = false;
  }

  int InterruptScope::signal() const { return received; }

  void throw_if_interrupted(const std::string &where)
  {
    if (interrupt_signal() != 0)
      throw Interrupted(received, where);
  }

  namespace
  {
    thread_local unsigned int uninterrupted_scopes = 0;
  }

  InterruptCheck::InterruptCheck()
    : armed_(interrupt_signal() == 0 && uninterrupted_scopes == 0)
  {}

  UninterruptedScope::UninterruptedScope() { ++uninterrupted_scopes; }
  UninterruptedScope::~UninterruptedScope() { --uninterrupted_scopes; }
} // namespace vibroimpact::io
