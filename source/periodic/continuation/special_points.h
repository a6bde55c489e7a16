// Special points located on a branch (special_point.h names the kinds): folds, branch points,
// period doublings and Neimark–Sacker points where a test function of the linearisation changes
// sign between two points of one stretch (Illinois false position along the secant, each orbit on
// a pseudo-arclength plane), and grazings where a stretch of one contact signature ends
// (bisection on the signature, the impact velocity's zero extrapolated).
#pragma once

#include <vibroimpact/periodic/continuation.h>

#include <optional>

namespace vibroimpact::periodic
{
  class OrbitSolver;

  // Where the stretch through `before` and `last` ends beyond `last`, in its parameter: the last
  // orbit of its contact signature, to 1e-11 of the parameter (a grazing), or empty when the
  // stretch goes on over 1024 of its last steps.
  std::optional<BranchPoint> locate_stretch_end(OrbitSolver &solver, const BranchPoint &before,
                                                const BranchPoint &last);

  // The special points between consecutive points of one stretch (same contacts, no restart
  // between) inserted into the branch in order; with Locate crossed grazings (forced responses)
  // also the grazings that ordinary steps cross.
  void locate_special_points(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                             const ContinuationSettings &settings, Branch &branch);
} // namespace vibroimpact::periodic
