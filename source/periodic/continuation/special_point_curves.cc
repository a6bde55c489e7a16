// Curves of special points (special_point_curves.h): per located point, its defining system
// (defining_systems.h) traced both ways in the second parameter by the continuation driver, the
// two ways joined, and the codimension-two points on the curve marked.
#include "continuation_driver.h"
#include "defining_systems.h"

#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/periodic/special_point_curves.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vibroimpact::periodic
{
  namespace
  {
    struct Way
    {
      std::vector<CurvePoint> points;
      std::vector<double>     other_test;
      std::string             reason;
      unsigned long           evaluations = 0;
      bool                    met_grazing = false;
    };

    // An orbit at a grazing: a gap between impacts nearly closed, or an impact nearly at rest.
    bool near_grazing(const BranchPoint &p)
    {
      const Eigen::Index n        = p.state.size() / 2;
      const double       length   = std::max(p.state.head(n).lpNorm<Eigen::Infinity>(), 1e-300);
      const double       velocity = std::max(p.state.tail(n).lpNorm<Eigen::Infinity>(), 1e-300);
      return p.grazing_gap < 1e-3 * length || (p.impacts > 0 && p.min_impact_velocity < 1e-3 * velocity);
    }

    // One way from the point, in the direction of λ given.
    Way trace_way(const BranchPoint &start, const bool free, MapFamily &maps, const SecondParameter &second,
                  const ContinuationSettings &settings, const double direction, const ProgressCallback &progress)
    {
      ContinuationSettings way = settings;
      way.direction            = direction;
      Way w;
      try
        {
          DefiningSystem system(start, free, maps, second, way);
          const double   s      = system.parameter_scale();
          const Branch   branch = run_loca(system, way, start.period, 1 + (second.min - second.value) / s,
                                           1 + (second.max - second.value) / s, progress);
          // LOCA's step past a bound is kept before the one onto it: left out.
          for (std::size_t k = 0; k < system.points().size(); ++k)
            if (const double l = system.points()[k].parameter; l >= second.min && l <= second.max)
              {
                w.points.push_back(system.points()[k]);
                w.other_test.push_back(system.other_test()[k]);
              }
          w.reason      = branch.stop_reason;
          w.evaluations = branch.flow_evaluations;
          // Its orbits' contacts would change: the steps across were refused, and the curve
          // meets the grazing curve of its orbits there.
          w.met_grazing = branch.failed && !branch.points.empty() && near_grazing(branch.points.back());
        }
      catch (const std::runtime_error &error)
        {
          w.reason = error.what();
        }
      return w;
    }

    // Cusps of a fold curve (λ and the branch parameter both turn: the two folds of the branch
    // meet) and fold-flips (the other kind's test changes sign along a fold or period-doubling
    // curve), each marked on the curve point nearest to it.
    void mark_codimension_two(SpecialPointCurve &curve, const std::vector<double> &other_test, const bool free)
    {
      auto      &pts = curve.points;
      const auto at  = [free](const CurvePoint &p) { return free ? p.energy : p.frequency; };
      for (std::size_t k = 1; k + 1 < pts.size(); ++k)
        {
          const double dp0 = at(pts[k]) - at(pts[k - 1]), dp1 = at(pts[k + 1]) - at(pts[k]);
          const double dl0 = pts[k].parameter - pts[k - 1].parameter, dl1 = pts[k + 1].parameter - pts[k].parameter;
          if (curve.kind == SpecialPoint::fold && dp0 * dp1 < 0 && dl0 * dl1 < 0)
            pts[k].special = CurveEvent::cusp;
        }
      for (std::size_t k = 1; k < pts.size() && k < other_test.size(); ++k)
        if (other_test[k] * other_test[k - 1] < 0 && pts[k].special == CurveEvent::none)
          pts[k].special = CurveEvent::fold_flip;
    }
  } // namespace

  SpecialPointCurve continue_special_point_curve(const BranchPoint &start, const std::string &family, const bool free,
                                                 MapFamily &maps, const SecondParameter &second,
                                                 const ContinuationSettings &settings, const CurveProgress &progress)
  {
    SpecialPointCurve curve;
    curve.kind        = start.special;
    curve.family      = family;
    curve.start       = start;
    std::size_t shown = 0;
    const auto  tick  = [&](const BranchPoint &, unsigned int) {
      if (progress)
        progress(curve, ++shown);
    };
    const Way down = trace_way(start, free, maps, second, settings, -1.0, tick);
    const Way up   = io::interrupt_signal() == 0 ? trace_way(start, free, maps, second, settings, 1.0, tick) : Way{};
    // Both ways begin with the start point solved: the way up's is left out.
    std::vector<double> other(down.other_test.rbegin(), down.other_test.rend());
    curve.points.assign(down.points.rbegin(), down.points.rend());
    const std::size_t skip = curve.points.empty() ? 0 : 1;
    for (std::size_t k = std::min(skip, up.points.size()); k < up.points.size(); ++k)
      {
        curve.points.push_back(up.points[k]);
        other.push_back(up.other_test[k]);
      }
    curve.stop_reason      = "down: " + down.reason + "; up: " + up.reason;
    curve.failed           = curve.points.size() < 2;
    curve.flow_evaluations = down.evaluations + up.evaluations;
    if (curve.points.empty())
      return curve;
    mark_codimension_two(curve, other, free);
    const auto end_event = [&](const Way &way) {
      if (way.met_grazing)
        return CurveEvent::grazing;
      if (way.reason.find("1:1 resonance") != std::string::npos)
        return CurveEvent::resonance_1_1;
      if (way.reason.find("1:2 resonance") != std::string::npos)
        return CurveEvent::resonance_1_2;
      return CurveEvent::none;
    };
    if (const CurveEvent e = end_event(down); e != CurveEvent::none && !down.points.empty())
      curve.points.front().special = e;
    if (const CurveEvent e = end_event(up); e != CurveEvent::none && up.points.size() > 1)
      curve.points.back().special = e;
    return curve;
  }

  namespace
  {
    void collect_followed(const Branch &branch, const std::vector<SpecialPoint> &follow,
                          std::vector<std::pair<const BranchPoint *, std::string>> &found)
    {
      for (const BranchPoint &point : branch.points)
        if (std::find(follow.begin(), follow.end(), point.special) != follow.end())
          found.emplace_back(&point, branch.family);
      for (const Branch &child : branch.children)
        collect_followed(child, follow, found);
    }
  } // namespace

  std::vector<std::pair<const BranchPoint *, std::string>> followed_points(const std::vector<Branch>       &branches,
                                                                           const std::vector<SpecialPoint> &follow)
  {
    std::vector<std::pair<const BranchPoint *, std::string>> found;
    for (const Branch &branch : branches)
      collect_followed(branch, follow, found);
    return found;
  }
} // namespace vibroimpact::periodic
