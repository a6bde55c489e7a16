// Back traces (back_traces.h).
#include "back_traces.h"

#include "branch_tests.h"
#include "continuation_driver.h"

#include <algorithm>
#include <cmath>

namespace vibroimpact::periodic
{
  // Points traced backwards put in the branch's order: reversed, each break (`restarted`,
  // `jumped`, on the first point after it) moved to the point that now follows it, and the
  // flags of each step (fold, impacts changed, period doubling) set for the new order.
  void in_branch_order(std::vector<BranchPoint> &points)
  {
    for (std::size_t k = 0; k + 1 < points.size(); ++k)
      {
        points[k].restarted = points[k + 1].restarted;
        points[k].jumped    = points[k + 1].jumped;
      }
    if (!points.empty())
      points.back().restarted = points.back().jumped = false;
    std::reverse(points.begin(), points.end());
    for (std::size_t k = 1; k < points.size(); ++k)
      set_step_flags(points[k], points[k - 1], k >= 2 ? &points[k - 2] : nullptr, false);
  }

  // A restart (forced responses) leaves the parameters between the stretch's end and its first
  // orbit without an orbit (a Restart jump past a grazing; a far restart): that orbit's own
  // stretch is traced back toward the end too (plain LOCA, bounded by the two), and put before
  // it in the branch's order, so that the branch covers what it stepped over with the orbits
  // there (the side of a grazing that gained an impact), up to where they end.
  void trace_start_back(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                        const ContinuationSettings &settings, const double onward, const BranchPoint &end,
                        Branch &part, const std::size_t offset, unsigned long &evaluations,
                        const ProgressCallback &progress)
  {
    const std::size_t used = offset + part.points.size();
    if (used + 2 > settings.max_points)
      return;
    const BranchPoint   &start = part.points.front();
    const double         from = branch_parameter(start, false), to = branch_parameter(end, false);
    if (!(std::abs(from - to) > 1e-9 * std::abs(to)))
      return;
    ContinuationSettings here = settings;
    here.direction            = -onward;
    here.max_points           = settings.max_points - static_cast<unsigned int>(used);
    Branch back = run_loca(flow, forced_flow, here, start.state, start.period, from, std::min(from, to),
                           std::max(from, to), progress_after(progress, used));
    evaluations += back.flow_evaluations;
    // Only its continuous part between the two: up to a step that left the interval or was
    // marked (a restart inside, or a period change that may be another family).
    const auto outside = std::find_if(back.points.begin() + 1, back.points.end(), [&](const BranchPoint &p) {
      const double q = branch_parameter(p, false);
      return p.restarted || p.jumped || q < std::min(from, to) || q > std::max(from, to);
    });
    back.points.erase(outside, back.points.end());
    if (back.points.size() <= 1)
      return;
    in_branch_order(back.points);
    back.points.pop_back(); // the restart's first orbit itself, part's first
    const std::size_t joint = back.points.size();
    part.points.insert(part.points.begin(), back.points.begin(), back.points.end());
    set_step_flags(part.points[joint], part.points[joint - 1], joint >= 2 ? &part.points[joint - 2] : nullptr, false);
  }
} // namespace vibroimpact::periodic
