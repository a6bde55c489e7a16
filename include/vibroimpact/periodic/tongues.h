// Internal-resonance tongues on a branch of free orbits: a finite-element model's
// modes are not commensurate like the continuum's, so where a multiple of the orbit's frequency
// meets one of them the branch runs at that frequency while the energy changes by decades (the
// smooth-NNM literature's tongues). A point is on a tongue when its frequency is locked, |d ln ω|
// < lock_slope |d ln E| toward a neighbouring point, at a resonance r ω ≈ ω_k (within
// resonance_tolerance, r ≤ max_ratio) with a mode of the map, free or with its contacts held;
// its label names them ("mode 7 at 1:5", "held mode 6 at 1:10"), or "locked" when no linear mode
// is that close (the orbit switches between the free and the held system, so the lock need not
// sit on either's spectrum). Measurements in doc/continuation-rod.md §2.
#pragma once

#include <vibroimpact/periodic/continuation.h>

#include <string>
#include <vector>

namespace vibroimpact::periodic
{
  struct TongueCriteria
  {
    double       lock_slope          = 1e-3; // the rod's backbone has 0.011 at 200 E_g, more below
    double       resonance_tolerance = 5e-3; // measured locks sit 4e-4 – 5e-3 off (doc/periodic.md §8)
    unsigned int max_ratio           = 20;
  };

  // One label per point of the branch: empty on the backbone. free_frequencies[k − 1] is mode k
  // of the map; the family's own mode at 1:1 is its backbone, not a tongue.
  std::vector<std::string> tongue_labels(const Branch &branch, const std::vector<double> &free_frequencies,
                                         const std::vector<double> &held_frequencies, unsigned int family_mode,
                                         const TongueCriteria &criteria = {});
} // namespace vibroimpact::periodic
