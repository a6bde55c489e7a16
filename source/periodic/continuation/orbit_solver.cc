// Newton on the bordered periodic problem (orbit_solver.h).
#include "orbit_solver.h"

#include <cmath>
#include <stdexcept>

namespace vibroimpact::periodic
{
  OrbitSolver::OrbitSolver(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                           const ContinuationSettings &settings, const BranchPoint &reference)
    : settings_(settings)
    , problem_(make_problem(flow, forced_flow, settings, reference.state, reference.period,
                            forced_flow ? reference.frequency : reference.energy))
  {}

  Vector OrbitSolver::z(const BranchPoint &point) const
  {
    const Vector X = problem_->unknowns(point);
    Vector       out(X.size() + 1);
    out.head(X.size()) = X;
    out[X.size()]      = problem_->parameter(point);
    return out;
  }

  std::optional<BranchPoint> OrbitSolver::on_plane(const Vector &guess, const Vector &t, const double c,
                                                   const bool line_search)
  {
    Vector             zk = guess;
    const Eigen::Index m  = zk.size() - 1;
    try
      {
        for (unsigned int iteration = 0; iteration < settings_.max_newton + 8; ++iteration)
          {
            const double p     = zk[m];
            const Vector X     = zk.head(m);
            const auto [F, J]  = problem_->residual(X, p, true);
            const double plane = t.dot(zk) - c;
            if (F.norm() < 0.1 * settings_.tolerance && std::abs(plane) < 1e-12 * (1 + std::abs(c)))
              return problem_->orbit(X, p);
            // On a plane of fixed parameter the step leaves p alone once on it: ∂F/∂p (two more
            // flows by central differences) is needed only off it, or on any other plane.
            const bool   fixed_p = plane == 0 && t.head(m).isZero(0.0);
            const double dp      = 1e-7 * std::max(1.0, std::abs(p));
            const Vector Fp      = fixed_p ? Vector::Zero(m)
                                           : Vector((problem_->residual(X, p + dp, false).first -
                                                     problem_->residual(X, p - dp, false).first) / (2 * dp));
            Matrix A(m + 1, m + 1);
            A.topLeftCorner(m, m)  = J;
            A.topRightCorner(m, 1) = Fp;
            A.bottomRows(1)        = t.transpose();
            Vector rhs(m + 1);
            rhs.head(m)       = -F;
            rhs[m]            = -plane;
            const Vector step = A.partialPivLu().solve(rhs);
            zk += line_search ? shortened(step, zk, t, c, F.squaredNorm() + plane * plane) : step;
            if (!zk.allFinite())
              return std::nullopt;
          }
      }
    catch (const std::runtime_error &)
      {
      }
    return std::nullopt;
  }

  // The step, halved until |F|² + (tᵀz − c)² falls below `merit` (a flow that fails counts as no
  // decrease), the last halving kept.
  Vector OrbitSolver::shortened(Vector step, const Vector &z, const Vector &t, const double c, const double merit)
  {
    for (int halving = 0; halving < 6; ++halving, step *= 0.5)
      try
        {
          const Vector trial = z + step;
          const Vector F     = problem_->residual(trial.head(trial.size() - 1), trial[trial.size() - 1], false).first;
          const double plane = t.dot(trial) - c;
          if (F.squaredNorm() + plane * plane < merit)
            return step;
        }
      catch (const std::runtime_error &)
        {
        }
    return step;
  }

  Matrix OrbitSolver::jacobian(const Vector &z)
  {
    return problem_->residual(z.head(z.size() - 1), z[z.size() - 1], true).second;
  }

  Matrix OrbitSolver::extended_jacobian(const Vector &z)
  {
    const Eigen::Index m = z.size() - 1;
    const double       p = z[m];
    const Vector       X = z.head(m);
    Matrix             A(m, m + 1);
    A.leftCols(m)       = problem_->residual(X, p, true).second;
    const double dp     = 1e-7 * std::max(1.0, std::abs(p));
    A.col(m)            = (problem_->residual(X, p + dp, false).first - problem_->residual(X, p - dp, false).first) / (2 * dp);
    return A;
  }

  Matrix OrbitSolver::monodromy_minus_identity(const Vector &z, const Matrix &jacobian) const
  {
    return problem_->monodromy_minus_identity(z.head(z.size() - 1), z[z.size() - 1], jacobian);
  }

  BranchPoint OrbitSolver::point_at(const Vector &z) { return problem_->orbit(z.head(z.size() - 1), z[z.size() - 1]); }
} // namespace vibroimpact::periodic
