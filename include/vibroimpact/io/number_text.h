// A number as text with a given count of significant digits (printf's %.<n>g): for messages
// ("1.2e+03 steps") and for the defaults a parameter file shows (all 15 digits).
#pragma once

#include <cstdio>
#include <string>

namespace vibroimpact::io
{
  inline std::string number_text(const double x, const int significant_digits)
  {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.*g", significant_digits, x);
    return buffer;
  }
} // namespace vibroimpact::io
