// Tongue families of a free family (tongue_families.h). Each new stretch is a run of the driver
// with restarts from a start the map knows: the free family drives, a tongue is a step it takes.
#include "tongue_families.h"

#include "continuation_driver.h"
#include "family_starts.h"
#include "restarts.h"

#include <vibroimpact/io/interrupt.h>

#include <algorithm>

namespace vibroimpact::periodic
{
  // A branch stopped at a tongue's entry goes on from the map's own orbit guess at tongue_jump
  // × that energy beyond it, again and again, until the energy bound or the point limit. A start
  // Newton does not converge on (near a tongue the guess is far from the orbit) is tried again
  // further on, Restarts times at most in a row; an empty branch from `start_energy` as well.
  // The first point of each new stretch is marked restarted; the tongues stepped over are returned.
  std::vector<SteppedOverTongue> continue_past_tongues(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                                                       const double start_energy, Branch &branch,
                                                       const ProgressCallback &progress)
  {
    std::vector<SteppedOverTongue> tongues;
    // Starts in a row Newton did not converge on (the first one's included): the next is further on.
    unsigned int failures = branch.points.empty() ? 1 : 0;
    double       energy   = branch.points.empty() ? start_energy : branch.points.back().energy;
    while ((branch.entered_tongue || failures > 0) && failures <= settings.max_restarts &&
           branch.points.size() < settings.max_points && io::interrupt_signal() == 0)
      {
        energy *= 1 + settings.direction * settings.tongue_jump;
        if (energy > settings.max_energy || energy < settings.min_energy)
          break;
        const auto start = start_orbit(flow, settings, energy);
        if (!start)
          break;
        ContinuationSettings here = settings;
        here.max_points           = settings.max_points - static_cast<unsigned int>(branch.points.size());
        const auto shifted = progress_after(progress, branch.points.size());
        Branch part = run_with_restarts(flow, nullptr, here, start->first, start->second, flow.energy(start->first),
                                        here.min_energy, here.max_energy, shifted);
        branch.flow_evaluations += part.flow_evaluations;
        if (part.points.empty())
          {
            ++failures;
            continue;
          }
        failures = 0;
        if (branch.entered_tongue && !branch.points.empty())
          tongues.push_back({branch.points.back(), part.points.front()});
        if (!branch.points.empty())
          branch.restarts.push_back(branch.stop_reason);
        if (!part.points.empty())
          part.points.front().restarted = true;
        branch.points.insert(branch.points.end(), part.points.begin(), part.points.end());
        branch.stop_reason    = part.stop_reason;
        branch.failed         = part.failed;
        branch.entered_tongue = part.entered_tongue;
        if (!part.points.empty())
          energy = std::max(energy, part.points.back().energy);
      }
    return tongues;
  }

  // The tongues' own families (tongue_family_points): each followed with no tongue jump onward
  // from its entry and back from the first orbit past it, no further back than the family's
  // start energy. Where a flank goes is the dynamics': along the tongue's flank of the
  // subharmonic family, or (when the jump skipped no tongue orbit) back along the backbone.
  void trace_tongue_families(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                             const double start_energy, const std::vector<SteppedOverTongue> &tongues,
                             Branch &branch, const ProgressCallback &progress)
  {
    ContinuationSettings flank = settings;
    flank.tongue_jump          = 0;
    flank.max_points           = settings.tongue_family_points;
    if (settings.direction > 0)
      flank.min_energy = std::max(settings.min_energy, start_energy);
    else
      flank.max_energy = std::min(settings.max_energy, start_energy);
    std::size_t traced = branch.points.size();
    for (std::size_t t = 0; t < tongues.size() && io::interrupt_signal() == 0; ++t)
      for (const bool onward : {true, false})
        {
          const BranchPoint &from = onward ? tongues[t].entry : tongues[t].beyond;
          flank.direction         = onward ? settings.direction : -settings.direction;
          Branch part = run_with_restarts(flow, nullptr, flank, from.state, from.period, flow.energy(from.state),
                                          flank.min_energy, flank.max_energy, progress_after(progress, traced));
          part.family = family_name(settings) + ", tongue " + std::to_string(t + 1) + (onward ? " onward" : " back");
          part.parent = family_name(settings);
          traced += part.points.size();
          branch.children.push_back(std::move(part));
        }
  }
} // namespace vibroimpact::periodic
