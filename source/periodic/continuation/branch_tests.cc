// Tests on a branch's points (branch_tests.h).
#include "branch_tests.h"

#include <cmath>

namespace vibroimpact::periodic
{
  double branch_parameter(const BranchPoint &p, const bool free) { return free ? p.energy : p.frequency; }

  bool same_contacts(const BranchPoint &a, const BranchPoint &b)
  {
    return a.impacts == b.impacts && a.sticking_phases == b.sticking_phases;
  }

  bool near_last(const BranchPoint &before, const BranchPoint &after)
  {
    return std::abs(after.period - before.period) <= 0.05 * before.period &&
           (after.state - before.state).norm() <= 0.2 * before.state.norm();
  }

  void set_step_flags(BranchPoint &p, const BranchPoint &q, const BranchPoint *r, const bool free)
  {
    const auto parameter = [free](const BranchPoint &b) { return branch_parameter(b, free); };
    p.fold               = r != nullptr && (parameter(p) - parameter(q)) * (parameter(q) - parameter(*r)) < 0;
    p.impacts_changed    = p.impacts != q.impacts;
    const auto flips     = [](const BranchPoint &b) {
      int n = 0;
      for (const auto &mu : b.multipliers)
        n += (std::abs(mu.imag()) < 1e-9 && mu.real() < -1.0) ? 1 : 0;
      return n;
    };
    p.period_doubling = flips(p) != flips(q);
  }

  SpecialPoint contact_change(const BranchPoint &a, const BranchPoint &b)
  {
    return a.sticking_phases != b.sticking_phases && (a.impacts > 0 || b.impacts > 0) ? SpecialPoint::chatter_sticking
                                                                                     : SpecialPoint::grazing;
  }

  bool approaching_grazing(const std::vector<BranchPoint> &points, const bool free)
  {
    constexpr std::size_t steps = 5;
    if (points.size() < steps + 1)
      return false;
    bool velocity_falls = points.back().impacts > 0, gap_falls = std::isfinite(points.back().grazing_gap);
    for (std::size_t k = points.size() - steps; k < points.size(); ++k)
      {
        const BranchPoint &a = points[k - 1], &b = points[k];
        const double       moved = free ? std::abs(b.energy - a.energy) / std::max(a.energy, 1e-300)
                                        : std::abs(b.frequency - a.frequency) / a.frequency;
        if (moved > 1e-4 || !same_contacts(a, b))
          return false;
        velocity_falls = velocity_falls && b.min_impact_velocity < a.min_impact_velocity;
        gap_falls      = gap_falls && b.grazing_gap < a.grazing_gap;
      }
    return velocity_falls || gap_falls;
  }

  bool frequency_locked(const std::vector<BranchPoint> &points, const double lock)
  {
    const std::size_t n = points.size();
    if (n < 3)
      return false;
    for (std::size_t k = n - 2; k < n; ++k)
      {
        const double d_energy = std::abs(std::log(points[k].energy / points[k - 1].energy));
        const double d_freq   = std::abs(std::log(points[k].frequency / points[k - 1].frequency));
        if (!(d_energy > 1e-4 && d_freq < lock * d_energy))
          return false;
      }
    return true;
  }
} // namespace vibroimpact::periodic
