// Sweep steps: where a forced response's branch leaves frequencies untraced (past its ends, inside
// the breaks its restarts made), the response settles from the orbits beside them as a slow sweep
// would, and a new stretch is continued from there, behind a visible break.
#pragma once

#include <vibroimpact/periodic/continuation.h>

#include <string>

namespace vibroimpact::periodic
{
  // Forcing periods a forced response settles over before Newton: from rest at the start, and at
  // each sweep step.
  constexpr int settling_periods = 200;

  // The damped response at the flow's forcing frequency after `periods` forcing periods from x
  // (cut short on an interrupt: the caller checks).
  Vector settled(const PeriodicFlowMap &flow, Vector x, double period, int periods, const std::string &what,
                 bool quiet);

  // `part` put into `branch` at `at` behind a visible break (`restarted` and `jumped` on its first
  // point), with why the break was needed, then part's own restarts.
  void insert_behind_break(Branch &branch, Branch &part, std::size_t at, const std::string &why);

  // Sweep steps beyond the farthest frequency reached, while the branch ends short of the far end
  // of the range.
  void sweep_past_ends(PeriodicFlowMap &flow, const ContinuationSettings &settings, Branch &branch,
                       const ProgressCallback &progress);

  // Sweep steps into the untraced pieces of the breaks and the ends of the range, pass after
  // pass, down to half of Restart jump.
  void sweep_into_gaps(PeriodicFlowMap &flow, const ContinuationSettings &settings, Branch &branch,
                       const ProgressCallback &progress);
} // namespace vibroimpact::periodic
