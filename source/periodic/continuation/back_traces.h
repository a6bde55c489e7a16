// Back traces: a stretch traced backwards from an orbit a restart or a sweep step found, toward
// the frequency it skipped from, put before it in the branch's order, so that the branch covers
// what it stepped over.
#pragma once

#include <vibroimpact/periodic/continuation.h>

#include <vector>

namespace vibroimpact::periodic
{
  // Points traced backwards put in the branch's order: reversed, each break (`restarted`,
  // `jumped`, on the first point after it) moved to the point that now follows it, and the
  // flags of each step (fold, impacts changed, period doubling) set for the new order.
  void in_branch_order(std::vector<BranchPoint> &points);

  // A restart (forced responses) leaves the parameters between the stretch's end and its first
  // orbit without an orbit: that orbit's own stretch traced back toward `end` (plain LOCA, bounded
  // by the two) and put before it in `part`; the branch before `part` has `offset` points.
  void trace_start_back(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                        const ContinuationSettings &settings, double onward, const BranchPoint &end, Branch &part,
                        std::size_t offset, unsigned long &evaluations, const ProgressCallback &progress);
} // namespace vibroimpact::periodic
