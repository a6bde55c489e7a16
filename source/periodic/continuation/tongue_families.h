// Tongue families of a free family (Tongue jump, Tongue family points): a backbone that enters an
// internal-resonance tongue (its frequency locks) goes on from the map's own orbit guess beyond
// it, and each tongue stepped over can be traced as its own family from both sides.
#pragma once

#include <vibroimpact/periodic/continuation.h>

#include <vector>

namespace vibroimpact::periodic
{
    // A tongue the backbone stepped over: its last orbit before the jump (locked in the tongue)
    // and the first one past it.
    struct SteppedOverTongue
    {
      BranchPoint entry, beyond;
    };

  // A branch stopped at a tongue's entry goes on from the map's own orbit guess at tongue_jump ×
  // that energy beyond it, again and again, until the energy bound or the point limit; the
  // tongues stepped over are returned.
  std::vector<SteppedOverTongue> continue_past_tongues(const PeriodicFlowMap &flow,
                                                       const ContinuationSettings &settings, double start_energy,
                                                       Branch &branch, const ProgressCallback &progress);

  // Each tongue's own family (tongue_family_points) onward from its entry and back from the first
  // orbit past it, into branch.children.
  void trace_tongue_families(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                             double start_energy, const std::vector<SteppedOverTongue> &tongues, Branch &branch,
                             const ProgressCallback &progress);
} // namespace vibroimpact::periodic
