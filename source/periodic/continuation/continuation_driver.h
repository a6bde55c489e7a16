// The continuation driver: one run of Trilinos LOCA (arc length, adaptive steps, LAPACK group) on
// a periodic problem, from a start orbit until a parameter bound, Maximum points or a failure,
// with the acceptance rules of a step (a corrector that leaves its family fails and LOCA retries
// shorter) and the record of each accepted orbit. The same for free families and forced
// responses; the branch strategies (restarts.h, sweep_steps.h, tongue_families.h) call it.
#pragma once

#include <vibroimpact/periodic/continuation.h>

#include <string>

namespace vibroimpact::periodic
{
  class PeriodicProblem;

  // Thrown from the record of a point to end a run at a bound LOCA does not know.
  struct StopContinuation
  {
    std::string reason;
    bool        tongue         = false;
    bool        rejected_start = false; // a restart's first orbit is not the one sought
    bool        grazing        = false; // the steps crawl toward a grazing: locate it, restart past it
  };

  // A branch from the orbit (x0, period) at the parameter value parameter_start (the energy of a
  // free family, forced_flow null; else forced_flow's frequency), continued by LOCA within
  // [parameter_min, parameter_max] in the direction settings.direction. It ends `failed` where
  // Newton fails (its stop_reason says how: a grazing where the last orbit's gap closes).
  Branch run_loca(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow, const ContinuationSettings &settings,
                  const Vector &x0, double period, double parameter_start, double parameter_min,
                  double parameter_max, const ProgressCallback &progress);

  // The same on a given problem, from its initial guess at the scaled parameter 1 (start_period:
  // the start orbit's period), within [scaled_min, scaled_max] of its scaled parameter: what
  // runs on other problems than a branch's own (a curve of special points, special_point_curves.h).
  Branch run_loca(PeriodicProblem &problem, const ContinuationSettings &settings, double start_period,
                  double scaled_min, double scaled_max, const ProgressCallback &progress);

  // The progress of a part of a branch that follows `offset` points.
  ProgressCallback progress_after(const ProgressCallback &progress, std::size_t offset);
} // namespace vibroimpact::periodic
