#include <vibroimpact/io/input_error.h>

#include "verbs.h"

#include <stdexcept>

namespace vibroimpact::app
{
  int run_compare(const CommonOptions &)
  {
    throw std::runtime_error("compare: not built yet");
  }
} // namespace vibroimpact::app
