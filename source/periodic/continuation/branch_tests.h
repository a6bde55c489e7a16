// Tests on a branch's points that every part of a continuation reads: which orbits share a
// contact signature, what a step did (a fold, impacts changed, a period doubling), and the
// signs that a run should stop (crawling toward a grazing, a locked frequency).
#pragma once

#include <vibroimpact/periodic/continuation.h>

#include <vector>

namespace vibroimpact::periodic
{
  // The branch parameter of a point: its energy (free families) or its frequency (forced).
  double branch_parameter(const BranchPoint &p, bool free);

  // Same impacts and sticking phases per period.
  bool same_contacts(const BranchPoint &a, const BranchPoint &b);

  // Where a restart may land: near the last orbit (a restart landing far away is on another
  // family: Newton from the last orbit can jump there).
  bool near_last(const BranchPoint &before, const BranchPoint &after);

  // What the step from q (and r before it) to p did: the parameter turned at q (`fold`), the
  // impacts per period changed, a real multiplier crossed −1 (`period_doubling`).
  void set_step_flags(BranchPoint &p, const BranchPoint &q, const BranchPoint *r, bool free);

  // The kind of the contact change between a and b: a chatter sequence turning into sticking (or
  // back) where a sticking phase comes or goes on impacting orbits; else a grazing (an impact
  // appears or disappears, or an elastic contact starts or stops to touch: its closed phase is a
  // sticking phase of the map without an impact).
  SpecialPoint contact_change(const BranchPoint &a, const BranchPoint &b);

  // The last points crawl toward a grazing, where the map has a kink and LOCA's steps shrink
  // without end: over five steps the parameter moved by less than 1e-4 (relative) a step while
  // the smallest impact velocity or open-gap minimum fell every step.
  bool approaching_grazing(const std::vector<BranchPoint> &points, bool free);

  // Whether the last three points have the frequency locked while the energy moves: the
  // branch has entered an internal-resonance tongue (the criterion of tongues.h).
  bool frequency_locked(const std::vector<BranchPoint> &points, double lock);
} // namespace vibroimpact::periodic
