// The orbits of a forced branch at given forcing frequencies (Continuation/Report frequencies), e.g.
// a sweep's values to compare with: the main branch's and each switched family's.
#pragma once

#include <vibroimpact/periodic/continuation.h>

#include <vector>

namespace vibroimpact::periodic
{
  // On each pair of consecutive points of one stretch of `branch` (solved by the problem of
  // `settings`) whose frequencies bracket one of settings.report_frequencies, Newton at that
  // frequency (the plane p = ω) from the secant's point there.
  std::vector<Branch::AtFrequency> orbits_at_frequencies(PeriodicFlowMap &flow, const ContinuationSettings &settings,
                                                         const Branch &branch);
} // namespace vibroimpact::periodic
