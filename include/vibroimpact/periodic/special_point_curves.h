// Curves of special points in two parameters (AUTO's and COCO's two-parameter continuation): each
// located fold, period doubling, Neimark-Sacker point and grazing of a branch continued in (its
// branch parameter: the forcing frequency, or the energy of a free family; a second parameter λ,
// any number entry of the case) by a defining system solved with the orbit:
//
//   fold              F(X, p; λ) = 0,  g(X, p; λ) = 0      g from the bordered ∂F/∂X
//   period doubling   F = 0,  g = 0                         g from the bordered M + I
//   Neimark-Sacker    F = 0,  g_a = g_b = 0, unknown κ      2-bordered M² − 2κM + I, κ = cos θ
//   grazing           F = 0 on the map that ignores the contact's impacts near t_g,
//                     gap(t_g) = 0, gap'(t_g) = 0, unknown t_g
//
// (minimally augmented systems, Govaerts, Numerical Methods for Bifurcations of Dynamical
// Equilibria, 2000; the grazing as the orbit's tangency with the contact at its phase t_g). Each
// is a periodic problem continued in λ by the same driver as branches. Derivations in
// doc/theory.md, "Curves of special points".
#pragma once

#include <vibroimpact/periodic/special_point_curve.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::periodic
{
  using CurveProgress = std::function<void(const SpecialPointCurve &curve, std::size_t points)>;

  // Every located point of a kind in `follow` on the branches and their children, in order,
  // with the family it lies on: where curves start.
  std::vector<std::pair<const BranchPoint *, std::string>> followed_points(const std::vector<Branch>       &branches,
                                                                           const std::vector<SpecialPoint> &follow);

  // The curve through `start` (its special point's kind; free: on a free family), traced both ways
  // in λ within [second.min, second.max] and the settings' frequency (or energy) range, up to
  // settings.max_points points each way, its codimension-two points marked.
  SpecialPointCurve continue_special_point_curve(const BranchPoint &start, const std::string &family, bool free,
                                                 MapFamily &maps, const SecondParameter &second,
                                                 const ContinuationSettings &settings,
                                                 const CurveProgress &progress = {});
} // namespace vibroimpact::periodic
