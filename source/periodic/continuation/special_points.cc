// Special points located on a branch (special_points.h).
#include "special_points.h"

#include "branch_tests.h"
#include "orbit_solver.h"

#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/periodic/eigenpairs.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <vector>

namespace vibroimpact::periodic
{
  namespace
  {
    // A special point's test function of ∂F/∂X and M − I at an orbit: it changes sign where the
    // point is crossed.
    using TestFunction = std::function<double(const Matrix &jacobian, const Matrix &monodromy_minus_identity)>;

    // Lagrange's polynomial through (v_k, y_k) at v = 0.
    template <typename Y>
    Y value_at_zero(const std::vector<double> &v, const std::vector<Y> &y)
    {
      Y sum = y[0] * 0.0;
      for (std::size_t k = 0; k < v.size(); ++k)
        {
          double weight = 1.0;
          for (std::size_t j = 0; j < v.size(); ++j)
            if (j != k)
              weight *= v[j] / (v[j] - v[k]);
          sum = sum + weight * y[k];
        }
      return sum;
    }

    // A stretch that ends where an impact's velocity V vanishes (the orbit meets the one with an
    // impact fewer): there the orbit and the parameter are smooth functions of V, but Newton at a
    // fixed parameter stops finding the low-velocity impact some way before (V ~ 1e-3 on the
    // impact oscillator), where `end` is. The orbits at parameters stepping back from `end`, each
    // by half of end's V along the stretch's dp/dV, give z(V) at five velocities; their
    // interpolating polynomial at V = 0 is the grazing orbit (to the fifth power of the spread of
    // V, a change of ~1e-10 of the parameter on that example between four and five orbits). Empty
    // when the orbits do not come out with falling V, or the two extrapolations disagree by more
    // than 1e-7 of the parameter.
    std::optional<BranchPoint>
    extrapolate_vanishing_impact(OrbitSolver &solver, const BranchPoint &last, const BranchPoint &end,
                                 const std::function<std::optional<BranchPoint>(double)> &of_kind)
    {
      const Vector       z_end = solver.z(end), z_last = solver.z(last);
      const Eigen::Index m     = z_end.size() - 1;
      const double       slope = (z_end[m] - z_last[m]) / (end.min_impact_velocity - last.min_impact_velocity);
      if (!std::isfinite(slope) || slope == 0)
        return std::nullopt;
      const double        step = 0.5 * slope * end.min_impact_velocity; // about V/2 a step back
      std::vector<double> v{end.min_impact_velocity};
      std::vector<Vector> z{z_end};
      for (int k = 1; k <= 4; ++k)
        {
          const auto orbit = of_kind(z_end[m] + k * step);
          if (!orbit || !(orbit->min_impact_velocity > v.back()))
            return std::nullopt;
          v.push_back(orbit->min_impact_velocity);
          z.push_back(solver.z(*orbit));
        }
      const Vector five = value_at_zero(v, z);
      const Vector four =
        value_at_zero(std::vector<double>(v.begin(), v.end() - 1), std::vector<Vector>(z.begin(), z.end() - 1));
      if (!(std::abs(five[m] - four[m]) <= 1e-7 * std::abs(five[m])))
        return std::nullopt;
      return solver.point_at(five);
    }

  } // namespace

  // Where the stretch through `before` and `last` ends beyond `last`, in its parameter (a
  // grazing: its orbits gain or lose an impact or a sticking phase, or stop existing; near it
  // the orbit moves like the square root of the parameter, so the branch is monotone in it):
  // bisection on whether the orbit at a fixed parameter is still of the stretch's kind (same
  // contacts, near `last`), down to 1e-11 of the parameter. The last such orbit, or empty when
  // the stretch goes on over 1024 of its last steps.
  std::optional<BranchPoint> locate_stretch_end(OrbitSolver &solver, const BranchPoint &before,
                                                const BranchPoint &last)
  {
    const Vector       zb   = solver.z(last);
    const Eigen::Index m    = zb.size() - 1;
    const double       step = zb[m] - solver.z(before)[m];
    if (!(std::abs(step) > 0))
      return std::nullopt;
    const Vector t = Vector::Unit(m + 1, m);
    // The two last orbits of the kind: Newton starts on their secant (from the last one alone,
    // near a nonsmooth fold it would land on the orbit of the other side, which is as near).
    Vector     z_ok = zb, z_before = solver.z(before);
    const auto of_kind = [&](const double p) -> std::optional<BranchPoint> {
      const Vector guess = z_ok + (p - z_ok[m]) / (z_ok[m] - z_before[m]) * (z_ok - z_before);
      auto         orbit = solver.on_plane(guess, t, p);
      if (orbit && same_contacts(*orbit, last) && near_last(last, *orbit))
        return orbit;
      return std::nullopt;
    };
    const auto accept = [&](const BranchPoint &orbit) {
      z_before = z_ok;
      z_ok     = solver.z(orbit);
    };
    double                     ok = zb[m], bad = zb[m] + step;
    std::optional<BranchPoint> end = last;
    // LOCA's last steps crawl: the end may lie a thousand of them further.
    for (double reach = 1; reach <= 1024; reach *= 2, bad = zb[m] + reach * step)
      {
        auto orbit = of_kind(bad);
        if (!orbit)
          break;
        if (reach == 1024)
          return std::nullopt;
        ok = bad, end = orbit, accept(*orbit);
      }
    while (std::abs(bad - ok) > 1e-11 * std::abs(ok))
      {
        const double mid = 0.5 * (ok + bad);
        if (auto orbit = of_kind(mid))
          ok = mid, end = orbit, accept(*orbit);
        else
          bad = mid;
      }
    if (end && end->impacts > 0 && end->min_impact_velocity < 0.5 * last.min_impact_velocity)
      if (auto grazing = extrapolate_vanishing_impact(solver, last, *end, of_kind))
        return grazing;
    return end;
  }

  namespace
  {
    // Test functions of the special points, from ∂F/∂X (forced: M − I; free: the bordered
    // Jacobian in (x0, T, α), whose state block is M − I): each changes sign where its point is
    // crossed. sign(det A)·|det A|^(1/m) keeps the sign and stays finite for large m.
    double signed_root_det(const Matrix &A)
    {
      const Eigen::PartialPivLU<Matrix> lu(A);
      const Vector diagonal = lu.matrixLU().diagonal();
      double       log_size = 0, sign = lu.permutationP().determinant();
      for (Eigen::Index k = 0; k < diagonal.size(); ++k)
        {
          if (diagonal[k] == 0)
            return 0.0;
          sign *= diagonal[k] < 0 ? -1 : 1;
          log_size += std::log(std::abs(diagonal[k]));
        }
      return sign * std::exp(log_size / static_cast<double>(diagonal.size()));
    }
    // A fold (or a branch point): F_X singular, a multiplier at +1.
    double fold_test(const Matrix &J, const Matrix &) { return signed_root_det(J); }
    // A period doubling: det(M + I) = det((M − I) + 2I), a multiplier at −1.
    double doubling_test(const Matrix &, const Matrix &M_minus_I)
    {
      const Eigen::Index n = M_minus_I.rows();
      return signed_root_det(M_minus_I + 2 * Matrix::Identity(n, n));
    }

    // A Neimark–Sacker point (forced responses): a complex pair of multipliers μ, μ̄ crossing the
    // unit circle, where μ μ̄ = 1, i.e. where det(M ⊙ M − I) vanishes, M ⊙ M the bialternate
    // product of the monodromy matrix M = (M − I) + I with itself (Kuznetsov, Elements of Applied
    // Bifurcation Theory, §10.2). Its eigenvalues are the products μ_i μ_j (i < j), so the
    // determinant is Π (μ_i μ_j − 1): computed from M's n eigenvalues (O(n³)), not from the
    // bialternate matrix itself (n²/2 square, O(n⁶)), with signed_root_det's scaling. The set of
    // multipliers is closed under conjugation, so the product is real: its sign is that of the
    // cosine of its summed arguments. A real pair μ, 1/μ (a neutral saddle) also makes it vanish:
    // the located point is checked.
    double neimark_sacker_test(const Matrix &, const Matrix &M_minus_I)
    {
      const Eigen::Index n = M_minus_I.rows();
      const Matrix       M = M_minus_I + Matrix::Identity(n, n);
      if (n < 2)
        return 1.0;
      const Eigenpairs eigen = eigenpairs(M, false);
      if (!eigen.converged) // no sign to read: no point located here
        return std::numeric_limits<double>::quiet_NaN();
      const Eigen::VectorXcd &mu = eigen.values;
      double log_size = 0, angle = 0;
      for (Eigen::Index i = 1; i < n; ++i)
        for (Eigen::Index j = 0; j < i; ++j)
          {
            const std::complex<double> factor = mu[i] * mu[j] - 1.0;
            if (factor == 0.0)
              return 0.0;
            log_size += std::log(std::abs(factor));
            angle += std::arg(factor);
          }
      const double pairs = static_cast<double>(n * (n - 1) / 2);
      return (std::cos(angle) < 0 ? -1.0 : 1.0) * std::exp(log_size / pairs);
    }

    // Whether a located point has a complex pair of multipliers on the unit circle.
    bool complex_pair_on_unit_circle(const BranchPoint &point)
    {
      for (const auto &mu : point.multipliers)
        if (std::abs(mu.imag()) > 1e-6 * std::abs(mu) && std::abs(std::abs(mu) - 1) < 1e-6)
          return true;
      return false;
    }

    // Where the test function changes sign between the consecutive points a and b of one stretch:
    // Illinois false position in the arc length s along their secant, each orbit found on the
    // plane tᵀz = tᵀz_a + s, to 1e-12 of the secant's length (the parameter there to ~1e-12).
    // Newton starts from between the bracket's two orbits, not from the secant: at a branch point
    // another family crosses the plane O(√|s − s*|) away, nearer than the secant for s close to
    // s*, while the bracket's chord stays O((hi − lo)²) off the branch being located.
    // Ja and Jb: ∂F/∂X at a and b (each flowed once for all the tests).
    std::optional<BranchPoint> locate_between(OrbitSolver &solver, const BranchPoint &a, const BranchPoint &b,
                                              const Matrix &Ja, const Matrix &Jb,
                                              const TestFunction &test)
    {
      const auto value = [&](const Vector &z, const Matrix &J) { return test(J, solver.monodromy_minus_identity(z, J)); };
      const Vector za = solver.z(a), zb = solver.z(b);
      const double length = (zb - za).norm();
      if (!(length > 0))
        return std::nullopt;
      const Vector t  = (zb - za) / length;
      double       lo = 0, hi = length, f_lo = value(za, Ja), f_hi = value(zb, Jb);
      if (!(f_lo * f_hi < 0))
        return std::nullopt;
      std::optional<BranchPoint> found;
      int                        side = 0;
      Vector                     z_lo = za, z_hi = zb;
      for (int k = 0; k < 80 && hi - lo > 1e-12 * length; ++k)
        {
          const double s     = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
          auto         orbit = solver.on_plane(z_lo + (s - lo) / (hi - lo) * (z_hi - z_lo), t, t.dot(za) + s);
          // An orbit off the secant by more than its length is another branch's (seen: a fold
          // "located" at −4.7 rad/s between two orbits at 11.5).
          if (!orbit || (solver.z(*orbit) - (za + s * t)).norm() > length)
            return std::nullopt;
          const Vector z_orbit = solver.z(*orbit);
          const double f       = value(z_orbit, solver.jacobian(z_orbit));
          found          = orbit;
          if (f * f_lo > 0)
            {
              lo = s, f_lo = f, z_lo = solver.z(*orbit);
              f_hi *= side == -1 ? 0.5 : 1.0; // Illinois: halve the end that stayed
              side = -1;
            }
          else
            {
              hi = s, f_hi = f, z_hi = solver.z(*orbit);
              f_lo *= side == 1 ? 0.5 : 1.0;
              side = 1;
            }
          if (f == 0)
            break;
        }
      return found;
    }

    // The special points located between a and b (one pair of one stretch), in their order along
    // it: each kind whose test function changes sign. A fold is where the parameter turns; a sign
    // change of the same test where it does not is a branch point.
    std::vector<BranchPoint> special_points_between(OrbitSolver &solver, const BranchPoint &a, const BranchPoint &b,
                                                    const Matrix &J_a, const Matrix &J_b, const bool free)
    {
      const auto locate = [&](const TestFunction &test) { return locate_between(solver, a, b, J_a, J_b, test); };
      std::vector<BranchPoint> found;
      if (auto fold = locate(fold_test))
        {
          const double pa = branch_parameter(a, free), pf = branch_parameter(*fold, free), pb = branch_parameter(b, free);
          fold->special = (pf - pa) * (pb - pf) < 0 ? SpecialPoint::fold : SpecialPoint::branch_point;
          found.push_back(*fold);
        }
      if (auto doubling = locate(doubling_test))
        {
          doubling->special = SpecialPoint::period_doubling;
          found.push_back(*doubling);
        }
      // A conservative family keeps its pairs on the unit circle: forced responses only.
      if (!free)
        if (auto torus = locate(neimark_sacker_test); torus && complex_pair_on_unit_circle(*torus))
          {
            torus->special = SpecialPoint::neimark_sacker;
            found.push_back(*torus);
          }
      const auto along = [&](const BranchPoint &p) { return (solver.z(p) - solver.z(a)).norm(); };
      std::sort(found.begin(), found.end(), [&](const auto &x, const auto &y) { return along(x) < along(y); });
      return found;
    }

    // Where the stretch of x's kind ends beyond x toward `across` (the orbit on the other side of
    // a contact change): bisection of the stretch's kind from `behind` (x's neighbour of its kind,
    // or null: the orbit 1 % of the step back from x serves).
    std::optional<BranchPoint> stretch_end_toward(OrbitSolver &solver, const BranchPoint *behind, const BranchPoint &x,
                                                  const BranchPoint &across)
    {
      std::optional<BranchPoint> back;
      if (behind == nullptr || !same_contacts(*behind, x))
        {
          const Vector       zx = solver.z(x), zy = solver.z(across);
          const Eigen::Index m  = zx.size() - 1;
          const Vector       guess = zx - 0.01 * (zy - zx);
          back                     = solver.on_plane(guess, Vector::Unit(m + 1, m), guess[m]);
          if (!back || !same_contacts(*back, x))
            return std::nullopt;
          behind = &*back;
        }
      return locate_stretch_end(solver, *behind, x);
    }

    // The grazing (or chatter–sticking transition) an ordinary step from `a` to `b` crosses: where
    // a's kind of orbit ends beyond it (from `before`, the point before `a`, or null), kept when it
    // lies between a and b or beyond them by no more than the step (where the branch turns at the
    // contact change, a nonsmooth fold, the grazing lies just outside the step's frequencies).
    // There an elastic contact's orbits end at a fold of their own, just short of the grazing,
    // their spring still compressed: then the end of b's kind traced back from b (from `after`, the
    // point after `b`, or null), whose open gap closes to zero, is the grazing.
    std::optional<BranchPoint> crossed_grazing(OrbitSolver &solver, const BranchPoint *before, const BranchPoint &a,
                                               const BranchPoint &b, const BranchPoint *after)
    {
      const double span   = std::abs(b.frequency - a.frequency);
      const auto   inside = [&](const std::optional<BranchPoint> &g) {
        return g && g->frequency >= std::min(a.frequency, b.frequency) - span &&
               g->frequency <= std::max(a.frequency, b.frequency) + span;
      };
      auto         g      = stretch_end_toward(solver, before, a, b);
      if (!inside(g))
        g.reset();
      const double length = std::max(a.state.head(a.state.size() / 2).lpNorm<Eigen::Infinity>(), 1e-300);
      if (!g || std::abs(g->min_gap) > 1e-9 * length)
        if (auto h = stretch_end_toward(solver, after, b, a);
            inside(h) && (!g || std::abs(h->min_gap) < 0.1 * std::abs(g->min_gap)))
          g = h;
      if (!g)
        return std::nullopt;
      g->special = contact_change(a, b);
      return g;
    }

  } // namespace

  void locate_special_points(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                             const ContinuationSettings &settings, Branch &branch)
  {
    if (branch.points.size() < 2 || io::interrupt_signal() != 0)
      return;
    const bool         free = forced_flow == nullptr;
    OrbitSolver        solver(flow, forced_flow, settings, branch.points.front());
    std::vector<BranchPoint> points{branch.points.front()};
    // ∂F/∂X at each point, flowed once: it is the end of one pair and the start of the next.
    std::optional<Matrix> J_a, J_b;
    for (std::size_t k = 1; k < branch.points.size(); ++k, J_a = std::move(J_b), J_b.reset())
      {
        const BranchPoint &a = branch.points[k - 1], &b = branch.points[k];
        if (settings.locate_crossed_grazings && !free && !same_contacts(a, b) && !b.restarted &&
            io::interrupt_signal() == 0)
          {
            const bool after = k + 1 < branch.points.size() && !branch.points[k + 1].restarted;
            if (auto g = crossed_grazing(solver, k >= 2 && !a.restarted ? &branch.points[k - 2] : nullptr, a, b,
                                         after ? &branch.points[k + 1] : nullptr))
              points.push_back(*g);
          }
        if (same_contacts(a, b) && !b.restarted && a.special == SpecialPoint::none && b.special == SpecialPoint::none &&
            io::interrupt_signal() == 0)
          try
            {
              if (!J_a)
                J_a = solver.jacobian(solver.z(a));
              J_b = solver.jacobian(solver.z(b));
              const auto found = special_points_between(solver, a, b, *J_a, *J_b, free);
              points.insert(points.end(), found.begin(), found.end());
            }
          catch (const io::Interrupted &) // the branch as continued, located so far
            {
            }
        points.push_back(b);
      }
    branch.points = std::move(points);
  }
} // namespace vibroimpact::periodic
