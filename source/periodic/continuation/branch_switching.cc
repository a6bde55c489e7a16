// Branch switching (branch_switching.h). At a period doubling the orbit's monodromy M has a
// multiplier −1 with eigenvector v: the period-2 orbits near it are x* + h v + O(h²) at parameters
// p* + O(h²) (a pitchfork of the doubled map, whose two halves are one orbit shifted by T). They are
// found by Newton on the problem over 2T, on planes tᵀ(z − z*) = h with t the part of v orthogonal
// to the parent's tangent (so the plane cuts the parent only far away), at h and 2h; LOCA goes on
// from the second, away from the point. At a branch point [F_X F_p] has a two-dimensional null
// space: the secondary family leaves along the null direction orthogonal to the parent's tangent,
// found the same way on both sides. Derivation in doc/theory.md, "Branch switching".
#include "branch_switching.h"

#include "back_traces.h"
#include "branch_tests.h"
#include "continuation_driver.h"
#include "orbit_solver.h"
#include "report_frequencies.h"
#include "restarts.h"

#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/periodic/eigenpairs.h>

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>

namespace vibroimpact::periodic
{
  namespace
  {
    // The first orbits of a new family, from the special point outward: LOCA goes on from the last.
    struct FamilyStart
    {
      std::vector<BranchPoint> orbits;
    };

    // How far an orbit's multipliers keep from +1: near the special point one of them tends to
    // +1 (the new family's problem is singular there, and LOCA's tangent with it).
    double distance_from_one(const BranchPoint &orbit)
    {
      double distance = std::numeric_limits<double>::infinity();
      for (const auto &mu : orbit.multipliers)
        distance = std::min(distance, std::abs(mu - 1.0));
      return distance;
    }

    // Newton on the planes tᵀ(z − z0) = ±h (sign), h = 1e-3, 2e-3, 4e-3, … (scaled unknowns), while
    // the orbits converge, pass `accept` (an orbit of the new family, not the parent's) and keep
    // their contacts, until one is regular (a multiplier 0.02 or more from +1: at the special
    // point one tends to +1, and the problem is singular there, LOCA's tangent with it). At least
    // two orbits, else empty.
    std::optional<FamilyStart> leave_along(OrbitSolver &solver, const Vector &z0, const Vector &t, const double sign,
                                           const std::function<bool(const BranchPoint &, double)> &accept)
    {
      FamilyStart start;
      for (double h = 1e-3; h < 0.3 && io::interrupt_signal() == 0; h *= 2)
        {
          auto       orbit = solver.on_plane(z0 + sign * h * t, t, t.dot(z0) + sign * h, true);
          const bool found =
            orbit && accept(*orbit, h) && (start.orbits.empty() || same_contacts(*orbit, start.orbits.back()));
          if (!found && !start.orbits.empty())
            break;
          if (!found)
            continue;
          start.orbits.push_back(*orbit);
          if (start.orbits.size() >= 2 && distance_from_one(*orbit) >= 0.02)
            break;
        }
      if (start.orbits.size() < 2)
        return std::nullopt;
      return start;
    }

    // The parent's unit tangent at its point k in z of `solver`: the secant of its neighbours (a
    // located point lies between two continued ones), their periods times `period_factor`.
    Vector parent_tangent(const OrbitSolver &solver, const std::vector<BranchPoint> &points, const std::size_t k,
                          const double period_factor)
    {
      BranchPoint before = points[k == 0 ? 0 : k - 1], after = points[std::min(k + 1, points.size() - 1)];
      before.period *= period_factor;
      after.period *= period_factor;
      if (period_factor != 1.0) // a harmonic-balance series of the old period: sampled again from the state
        before.coefficients.resize(0), after.coefficients.resize(0);
      const Vector tangent = solver.z(after) - solver.z(before);
      return tangent / std::max(tangent.norm(), 1e-300);
    }

    // The part of `direction` orthogonal to `tangent`, normalised.
    Vector orthogonal_to(const Vector &direction, const Vector &tangent)
    {
      const Vector t = direction - direction.dot(tangent) * tangent;
      return t / std::max(t.norm(), 1e-300);
    }

    // The family from a start: LOCA from its last orbit onward, away from the special point, the
    // orbits before it first.
    Branch trace_from(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow, const ContinuationSettings &settings,
                      const FamilyStart &start, const ProgressCallback &progress)
    {
      const bool           free = forced_flow == nullptr;
      const BranchPoint   &last = start.orbits.back();
      ContinuationSettings here = settings;
      const double         p    = branch_parameter(last, free);
      here.direction = p >= branch_parameter(start.orbits[start.orbits.size() - 2], free) ? 1.0 : -1.0;
      // The first orbits count against Maximum points (without wrapping below 0); LOCA gets at least two.
      const auto first = static_cast<unsigned int>(start.orbits.size());
      here.max_points  = settings.max_points > first + 2 ? settings.max_points - first : 2;
      Branch family   = run_with_restarts(flow, forced_flow, here, last.state, last.period, p,
                                          free ? here.min_energy : here.min_frequency,
                                          free ? here.max_energy : here.max_frequency, progress);
      family.points.insert(family.points.begin(), start.orbits.begin(), start.orbits.end() - 1);
      for (std::size_t j = 1; j < std::min(start.orbits.size() + 1, family.points.size()); ++j)
        set_step_flags(family.points[j], family.points[j - 1], j >= 2 ? &family.points[j - 2] : nullptr, free);
      return family;
    }

    // Whether two located points are one (a branch that passes a special point twice, across a
    // break): same kind, the parameter within 1e-7 and the state within 1 % (a branch point's
    // located state lies on either of its two families, a share of the bisection's length off).
    bool same_special_point(const BranchPoint &a, const BranchPoint &b, const bool free)
    {
      const double pa = branch_parameter(a, free), pb = branch_parameter(b, free);
      return a.special == b.special && std::abs(pa - pb) <= 1e-7 * std::abs(pa) &&
             (a.state - b.state).norm() <= 1e-2 * a.state.norm();
    }

    std::string born_name(const Branch &parent, const std::string &what, const double parameter)
    {
      std::ostringstream name;
      name.precision(6);
      name << parent.family << ", " << what << " at " << parameter;
      return name.str();
    }

    // The period-2 family born at the period doubling `k` of `parent` (whose orbits the problem
    // of `settings` solves; `doubled`: the problem over twice their period).
    std::optional<Branch> period_two_family(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                                            const ContinuationSettings &settings,
                                            const ContinuationSettings &doubled, const Branch &parent,
                                            const std::size_t k, const ProgressCallback &progress)
    {
      const BranchPoint &doubling = parent.points[k];
      const bool         free     = forced_flow == nullptr;
      // The eigenvector of the multiplier nearest −1.
      OrbitSolver  single(flow, forced_flow, settings, doubling);
      const Vector z_doubling = single.z(doubling);
      const Matrix M = single.monodromy_minus_identity(z_doubling, single.jacobian(z_doubling)) +
                       Matrix::Identity(flow.dimension(), flow.dimension());
      const Eigenpairs eigen = eigenpairs(M, true);
      if (!eigen.converged)
        return std::nullopt;
      Eigen::Index flip = 0;
      for (Eigen::Index i = 1; i < M.rows(); ++i)
        if (std::abs(eigen.values[i] + 1.0) < std::abs(eigen.values[flip] + 1.0))
          flip = i;
      const Vector v = eigen.vectors.col(flip).real();

      BranchPoint reference = doubling;
      reference.period *= 2;
      reference.coefficients.resize(0); // a harmonic-balance series of period T: sampled again over 2T
      OrbitSolver  solver(flow, forced_flow, doubled, reference);
      const Vector z0 = solver.z(reference);
      // v as a change of the doubled problem's unknowns: those of the orbit through x* + ε v, less
      // z0 (shooting: v itself, scaled; harmonic balance: the harmonics it adds over 2T).
      const double epsilon = 1e-6 * std::max(reference.state.norm(), 1e-300) / std::max(v.norm(), 1e-300);
      BranchPoint  moved   = reference;
      moved.state += epsilon * v;
      Vector e          = (solver.z(moved) - z0) / epsilon;
      e[e.size() - 1]   = 0.0;
      const Vector t    = orthogonal_to(e, parent_tangent(solver, parent.points, k, 2.0));
      // An orbit of period 2T, not one of period T: x(T) differs from x by a share of h.
      const auto period_two = [&](const BranchPoint &orbit, const double h) {
        if (forced_flow)
          forced_flow->set_forcing_frequency(orbit.frequency);
        const Vector half = flow.flow(orbit.state, orbit.period / 2, orbit.unfolding, false).x;
        return (half - orbit.state).norm() > 0.1 * h * orbit.state.norm();
      };
      const auto start = leave_along(solver, z0, t, 1.0, period_two);
      if (!start)
        return std::nullopt;
      Branch family = trace_from(flow, forced_flow, doubled, *start, progress);
      family.family = born_name(parent, free ? "period doubled" : "period " + std::to_string(doubled.forcing_periods),
                                branch_parameter(doubling, free));
      return family;
    }

    // The secondary family through the branch point `k` of `parent`, traced both ways from it.
    std::optional<Branch> secondary_family(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                                           const ContinuationSettings &settings, const Branch &parent,
                                           const std::size_t k, const ProgressCallback &progress)
    {
      const BranchPoint &crossing = parent.points[k];
      const bool         free     = forced_flow == nullptr;
      OrbitSolver        solver(flow, forced_flow, settings, crossing);
      const Vector       z0 = solver.z(crossing);
      const Eigen::JacobiSVD<Matrix> svd(solver.extended_jacobian(z0), Eigen::ComputeFullV);
      const Eigen::Index             m       = z0.size();
      const Vector                   tangent = parent_tangent(solver, parent.points, k, 1.0);
      // Of the two null directions, the one the parent does not take.
      const Vector n1 = svd.matrixV().col(m - 1), n2 = svd.matrixV().col(m - 2);
      const Vector t  = orthogonal_to(tangent.dot(n2) * n1 - tangent.dot(n1) * n2, tangent);
      const auto   off_the_parent = [&](const BranchPoint &orbit, const double h) {
        return (solver.z(orbit) - z0).norm() < 3 * h;
      };
      std::vector<BranchPoint> points;
      std::vector<std::string> stops;
      Branch                   family;
      for (const double sign : {-1.0, 1.0})
        if (const auto start = leave_along(solver, z0, t, sign, off_the_parent))
          {
            Branch way = trace_from(flow, forced_flow, settings, *start, progress_after(progress, points.size()));
            family.flow_evaluations += way.flow_evaluations;
            family.restarts.insert(family.restarts.end(), way.restarts.begin(), way.restarts.end());
            stops.push_back((sign < 0 ? "one way: " : "the other way: ") + way.stop_reason);
            if (sign < 0)
              {
                in_branch_order(way.points);
                points = way.points;
                points.push_back(crossing);
                points.back().special = SpecialPoint::none;
              }
            else
              points.insert(points.end(), way.points.begin(), way.points.end());
          }
      if (points.size() < 2)
        return std::nullopt;
      for (std::size_t j = 1; j < points.size(); ++j)
        set_step_flags(points[j], points[j - 1], j >= 2 ? &points[j - 2] : nullptr, free);
      family.points      = std::move(points);
      family.stop_reason = stops.front() + (stops.size() > 1 ? "; " + stops.back() : std::string());
      family.family = born_name(parent, "secondary family", branch_parameter(crossing, free));
      return family;
    }
  } // namespace

  void switch_branches(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow, const ContinuationSettings &settings,
                       Branch &branch, const ProgressCallback &progress)
  {
    if (settings.switch_depth == 0 || settings.switch_at.empty())
      return;
    const bool           free  = forced_flow == nullptr;
    ContinuationSettings child = settings;
    child.switch_depth         = settings.switch_depth - 1;
    child.jump_past_failures   = false;
    std::size_t              traced = branch.points.size();
    std::vector<std::size_t> switched; // the points switched at
    for (std::size_t k = 0; k < branch.points.size() && io::interrupt_signal() == 0; ++k)
      {
        const SpecialPoint kind = branch.points[k].special;
        if (std::find(settings.switch_at.begin(), settings.switch_at.end(), kind) == settings.switch_at.end() ||
            std::any_of(switched.begin(), switched.end(),
                        [&](const std::size_t j) { return same_special_point(branch.points[j], branch.points[k], free); }))
          continue;
        switched.push_back(k);
        // The settings of the new family's problem: over twice the period after a doubling.
        ContinuationSettings  born = child;
        std::optional<Branch> family;
        if (switching(kind) == Switching::period_two_family)
          {
            born.forcing_periods *= free ? 1 : 2;
            family = period_two_family(flow, forced_flow, child, born, branch, k, progress_after(progress, traced));
          }
        else if (switching(kind) == Switching::secondary_family)
          family = secondary_family(flow, forced_flow, child, branch, k, progress_after(progress, traced));
        if (!family)
          {
            branch.restarts.push_back("no family found to switch to at the " + std::string(name(kind)) + " at " +
                                      std::to_string(branch_parameter(branch.points[k], free)));
            continue;
          }
        if (forced_flow)
          family->at_frequencies = orbits_at_frequencies(*forced_flow, born, *family);
        family->parent            = branch.family;
        family->born_at           = kind;
        family->born_at_parameter = branch_parameter(branch.points[k], free);
        traced += family->points.size();
        switch_branches(flow, forced_flow, born, *family, progress_after(progress, traced));
        branch.children.push_back(std::move(*family));
      }
  }
} // namespace vibroimpact::periodic
