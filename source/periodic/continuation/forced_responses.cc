// Forced responses (continuation.h): one way over the frequency range or both, each run with
// restarts and completed by sweep steps, and the branch's orbits at the report frequencies.
#include "branch_switching.h"
#include "report_frequencies.h"
#include "continuation_driver.h"
#include "restarts.h"
#include "sweep_steps.h"

#include <vibroimpact/io/interrupt.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vibroimpact::periodic
{
  namespace
  {
    // One way over the range: from the lower end up, or from the upper end down (Direction).
    // Without a guess, the damped response settles from rest over some forcing periods.
    Branch one_way_forced_response(PeriodicFlowMap &flow, const ContinuationSettings &settings, const Vector &x0,
                                   const ProgressCallback &progress)
    {
      const double first = settings.direction < 0 ? settings.max_frequency : settings.min_frequency;
      const double T0    = 2 * M_PI / first;
      flow.set_forcing_frequency(first);
      const Vector start = x0.size() > 0 ? x0
                                         : settled(flow, Vector::Zero(flow.dimension()), T0, settling_periods,
                                                   "forced response settling from rest (200 periods)", settings.quiet);
      io::throw_if_interrupted("while the forced response settled from rest: nothing written");
      Branch branch = run_with_restarts(flow, &flow, settings, start, T0, first, settings.min_frequency,
                                        settings.max_frequency, progress);
      sweep_past_ends(flow, settings, branch, progress);
      sweep_into_gaps(flow, settings, branch, progress);
      return branch;
    }

    // Direction = both: the way down appended to the way up (each with Maximum points), the first
    // point down marked a visible break, as a rig's sweep up then down.
    Branch both_ways_forced_response(PeriodicFlowMap &flow, const ContinuationSettings &settings, const Vector &x0,
                                     const ProgressCallback &progress)
    {
      ContinuationSettings way = settings;
      way.direction            = 1.0;
      Branch branch            = one_way_forced_response(flow, way, x0, progress);
      if (io::interrupt_signal() != 0)
        return branch;
      way.direction = -1.0;
      Branch down;
      try
        {
          down = one_way_forced_response(flow, way, {}, progress_after(progress, branch.points.size()));
        }
      catch (const io::Interrupted &)
        {
          return branch; // the way up stays readable
        }
      const auto why = [](const Branch &way) {
        return way.points.empty() ? "no orbit (" + way.stop_reason + ")" : way.stop_reason;
      };
      const std::string stop_reason = "up: " + why(branch) + "; down: " + why(down);
      if (down.points.empty() || branch.points.empty())
        {
          // One way found no orbit at all: the other is the branch, and the failure is reported.
          Branch &found     = branch.points.empty() ? down : branch;
          found.failed      = true;
          found.stop_reason = stop_reason;
          return found;
        }
      branch.way_down = branch.points.size();
      insert_behind_break(branch, down, branch.points.size(), "the way down, from Maximum frequency");
      branch.flow_evaluations += down.flow_evaluations;
      branch.failed      = branch.failed || down.failed;
      branch.stop_reason = stop_reason;
      return branch;
    }
  } // namespace

  Branch continue_forced_response(PeriodicFlowMap &flow, const ContinuationSettings &settings,
                                  const Vector &x0, const ProgressCallback &progress)
  {
    if (!flow.forced())
      throw std::invalid_argument("a forced response needs a harmonic load");
    Branch branch = settings.direction == 0 ? both_ways_forced_response(flow, settings, x0, progress)
                                            : one_way_forced_response(flow, settings, x0, progress);
    branch.at_frequencies = orbits_at_frequencies(flow, settings, branch);
    branch.family         = "forced";
    switch_branches(flow, &flow, settings, branch, progress_after(progress, branch.points.size()));
    return branch;
  }
} // namespace vibroimpact::periodic
