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

#include <vibroimpact/periodic/continuation.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::periodic
{
  // The case's period map as a function of the second parameter λ (the study reads the case
  // again with the entry set to λ), and what a grazing's defining system reads of the model.
  class MapFamily
  {
  public:
    virtual ~MapFamily() = default;
    // The map at λ; own: one not shared with other callers (whose settings, such as
    // PeriodicFlowMap::ignore_impacts, the caller changes).
    virtual std::shared_ptr<PeriodicFlowMap> at(double lambda, bool own = false) = 0;
    virtual unsigned int n_contacts() const = 0;
    // Contact c's gap g = gap0 + row · u at λ, u the DoF displacements of the map's samples.
    virtual std::pair<double, Vector> contact_gap(double lambda, unsigned int contact) = 0;
    // Models built so far (each a case read again and a map made).
    virtual unsigned long maps_built() const = 0;
  };

  struct SecondParameter
  {
    std::string name;        // the case entry, "Load F/Amplitude"
    double      value = 0.0; // its value in the case, where each curve starts
    double      min = 0.0, max = 0.0;
  };

  struct CurvePoint
  {
    double       frequency = 0.0, energy = 0.0, parameter = 0.0, period = 0.0;
    unsigned int impacts = 0, sticking_phases = 0;
    double       kappa  = 0.0; // Neimark-Sacker: cos θ of the multipliers e^{±iθ}
    double       phase  = 0.0; // grazing: t_g / T, where the orbit touches
    CurveEvent   special = CurveEvent::none;
    Vector       state;
  };

  struct SpecialPointCurve
  {
    SpecialPoint            kind = SpecialPoint::none;
    std::string             family;             // the branch of the point it starts from
    BranchPoint             start;              // that point
    std::vector<CurvePoint> points;             // in λ from the lower end (way down reversed, then up)
    std::string             stop_reason;        // "down: ...; up: ..."
    bool                    failed = false;
    unsigned long           flow_evaluations = 0;
  };

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
