// Orbits of a branch found off the continuation's steps: Newton on a periodic problem bordered
// by a plane tᵀz = c in z = (unknowns, parameter), the pseudo-arclength form, so that it holds
// through folds. What locates special points, starts a family and starts a branch past a grazing.
#pragma once

#include <vibroimpact/periodic/periodic_problem.h>

#include <memory>
#include <optional>

namespace vibroimpact::periodic
{
  class OrbitSolver
  {
  public:
    // The problem of the case's method through `reference` (make_problem).
    OrbitSolver(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow, const ContinuationSettings &settings,
                const BranchPoint &reference);

    // z of a branch point: its unknowns and scaled parameter.
    Vector z(const BranchPoint &point) const;

    // The orbit on the plane tᵀz = c, Newton from `guess`; empty when Newton does not converge.
    // With a line search, a step that does not lower |F|² + (tᵀz − c)² is halved (at most six
    // times): for guesses far from the orbit, where full steps diverge.
    std::optional<BranchPoint> on_plane(const Vector &guess, const Vector &t, double c, bool line_search = false);

    // ∂F/∂X at z, and M − I there (the test functions' arguments).
    Matrix jacobian(const Vector &z);
    Matrix monodromy_minus_identity(const Vector &z, const Matrix &jacobian) const;

    // [∂F/∂X  ∂F/∂p] at z, ∂F/∂p by central differences (a branch point's null space).
    Matrix extended_jacobian(const Vector &z);

    // The branch point of z as it stands (no Newton): its orbit's data from one evaluation.
    BranchPoint point_at(const Vector &z);
    // Whether an orbit of a problem over several periods is one of a lower period (the parent a
    // switched family was born on).
    bool of_lower_period(const BranchPoint &orbit) { return problem_->of_lower_period(orbit); }

  private:
    Vector shortened(Vector step, const Vector &z, const Vector &t, double c, double merit);

    const ContinuationSettings      &settings_;
    std::unique_ptr<PeriodicProblem> problem_;
  };
} // namespace vibroimpact::periodic
