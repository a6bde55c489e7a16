#include <vibroimpact/io/input_error.h>

#include "verbs.h"

#include <stdexcept>

namespace vibroimpact::app
{
  int run_sweep(const CommonOptions &, int &, char **&)
  {
    throw std::runtime_error("sweep: not built yet");
  }
} // namespace vibroimpact::app
