// Branch switching (Continuation/Switch branches): the families born at a branch's located special
// points whose kind switches (special_point.h) — at a period doubling the period-2 family, at a
// branch point the secondary family — each traced by the driver with restarts, and switched again
// on the new families down to Switch depth.
#pragma once

#include <vibroimpact/periodic/continuation.h>

namespace vibroimpact::periodic
{
  // The families born at `branch`'s special points of the kinds settings.switch_at, into
  // branch.children (in the branch's order), each with its parent and the point it was born at.
  void switch_branches(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow, const ContinuationSettings &settings,
                       Branch &branch, const ProgressCallback &progress);
} // namespace vibroimpact::periodic
