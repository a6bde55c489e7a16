// SIGINT/SIGTERM for a library call made from a host with its own signal handling (the Python
// module): for the scope's lifetime the library's handler sets the flag that long phases poll
// (io/interrupt.h), with the flag cleared first; at its end the host's handlers are back and the
// flag is cleared again, so the next call starts afresh. Unlike the program's handlers there is
// no watchdog that ends the process and a second signal does not kill it: the host must survive.
// A phase that cannot poll (an eigensolve) stops at its next check instead. Scopes open in
// several threads at once share one flag and one saving of the host's handlers: a signal stops
// every call under way, and the host's handlers are back when the last scope closes.
#pragma once

#include <boost/core/noncopyable.hpp>

namespace vibroimpact::io
{
  class InterruptScope : boost::noncopyable
  {
  public:
    InterruptScope();
    ~InterruptScope();

    // The signal received during the scope, 0 while none.
    int signal() const;
  };
} // namespace vibroimpact::io
