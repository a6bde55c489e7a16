// The data of curves of special points in two parameters (special_point_curves.h continues them):
// the second parameter, the case's map as a function of it (MapFamily), and a curve's points.
#pragma once

#include <vibroimpact/periodic/continuation.h>

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

} // namespace vibroimpact::periodic
