#include <vibroimpact/io/interrupt.h>

#include <csignal>

namespace vibroimpact::io
{
  namespace
  {
    volatile std::sig_atomic_t received = 0;

    extern "C" void on_signal(const int signal)
    {
      if (received != 0)
        {
          std::signal(signal, SIG_DFL);
          std::raise(signal);
          return;
        }
      received = signal;
    }
  } // namespace

  void install_interrupt_handlers()
  {
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
  }

  int interrupt_signal() { return received; }

  Interrupted::Interrupted(const int signal, const std::string &where)
    : std::runtime_error("interrupted by signal " + std::to_string(signal) + (where.empty() ? "" : " " + where))
    , signal_(signal)
  {}

  void throw_if_interrupted(const std::string &where)
  {
    if (received != 0)
      throw Interrupted(received, where);
  }
} // namespace vibroimpact::io
