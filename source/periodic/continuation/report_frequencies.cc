// The orbits of a forced branch at the report frequencies (report_frequencies.h).
#include "report_frequencies.h"

#include "orbit_solver.h"

#include <vibroimpact/io/interrupt.h>

#include <algorithm>

namespace vibroimpact::periodic
{
  std::vector<Branch::AtFrequency> orbits_at_frequencies(PeriodicFlowMap &flow, const ContinuationSettings &settings,
                                                         const Branch &branch)
  {
    std::vector<Branch::AtFrequency> found;
    if (settings.report_frequencies.empty() || branch.points.empty())
      return found;
    OrbitSolver solver(flow, &flow, settings, branch.points.front());
    for (std::size_t k = 1; k < branch.points.size() && io::interrupt_signal() == 0; ++k)
      {
        const BranchPoint &a = branch.points[k - 1], &b = branch.points[k];
        if (b.restarted || a.frequency == b.frequency)
          continue;
        const Vector       za = solver.z(a), zb = solver.z(b);
        const Eigen::Index m  = za.size() - 1;
        // The stretch's last point counts its own frequency (elsewhere the next pair does).
        const bool         last = k + 1 == branch.points.size() || branch.points[k + 1].restarted;
        std::vector<double> along; // where the report frequencies fall on the secant, in order
        for (const double w : settings.report_frequencies)
          if (const double s = (w - a.frequency) / (b.frequency - a.frequency); s >= 0 && (s < 1 || (last && s == 1)))
            along.push_back(s);
        std::sort(along.begin(), along.end());
        for (const double s : along)
          {
            const Vector guess = za + s * (zb - za);
            // Not the parent a switched family was born on (Newton from the secant across a long
            // step can slide onto it: seen at 0.47 rad/s on examples/harmonic_balance/chain.prm).
            if (auto orbit = solver.on_plane(guess, Vector::Unit(m + 1, m), guess[m]);
                orbit && (solver.z(*orbit) - guess).norm() <= (zb - za).norm() && !solver.of_lower_period(*orbit))
              found.push_back({k - 1, *orbit});
          }
      }
    return found;
  }
} // namespace vibroimpact::periodic
