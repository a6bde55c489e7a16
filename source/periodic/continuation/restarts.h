// Restarts past where LOCA fails (a kink of the map: a grazing that adds an impact per period, a
// chatter sequence gaining an impact): the grazing where the stretch ended is located and LOCA
// starts again past it, from a list of attempts (onward, the other side, turned back).
#pragma once

#include <vibroimpact/periodic/continuation.h>

namespace vibroimpact::periodic
{
  // LOCA (continuation_driver.h) from (x0, period) at `parameter` within [parameter_min,
  // parameter_max] until it fails; then past the located end of its stretch, again and again
  // (Restarts), and the special points located on the whole. A restart that lands only on another
  // orbit ends a free family; a forced response keeps it as a visible break (`restarted` and
  // `jumped`), the way a sweep jumps.
  Branch run_with_restarts(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                           const ContinuationSettings &settings, Vector x0, double period, double parameter,
                           double parameter_min, double parameter_max, const ProgressCallback &progress);
} // namespace vibroimpact::periodic
