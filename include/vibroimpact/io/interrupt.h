// SIGINT and SIGTERM. The first asks the running solver to stop at its next output sample
// (`simulate` then writes what it has, whole rows, marked as interrupted; the other verbs write
// nothing); a second one ends the process at once (its staging folder is removed by the next run
// into the same folder, see OutputFolder).
#pragma once

#include <stdexcept>
#include <string>

namespace vibroimpact::io
{
  void install_interrupt_handlers();

  // The signal received, 0 while none.
  int interrupt_signal();

  // Throws Interrupted when a signal has been received.
  void throw_if_interrupted(const std::string &where);

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
} // namespace vibroimpact::io
