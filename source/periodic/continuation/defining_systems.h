// The defining system of a special point in two parameters as a periodic problem: unknowns
// Y = (X, p[, κ or φ]) of the branch's own problem at λ, F(X, p; λ) = 0 and the kind's conditions
// (special_point_curves.h lists them), continued in μ = 1 + (λ − λ0)/λ_scale by the driver. An
// ordinary orbit (kind none) is continued in λ with its own parameter held (a free family's
// energy: a start carried in stiffness, family_starts.h). The
// conditions' derivatives are forward differences of exact Jacobians (one flow with its
// Jacobian per unknown); λ enters only through the maps the MapFamily builds.
#pragma once

#include "shooting_problem.h"

#include <vibroimpact/periodic/special_point_curve.h>

#include <memory>
#include <vector>

namespace vibroimpact::periodic
{
  class DefiningSystem : public PeriodicProblem
  {
  public:
    // Throws std::runtime_error (one line: why) where `start` cannot start a curve of its kind.
    DefiningSystem(const BranchPoint &start, bool free, MapFamily &maps, const SecondParameter &second,
                   const ContinuationSettings &settings);

    bool         free() const override { return free_; }
    Eigen::Index size() const override { return n_ + 1 + extra_; }
    Vector       initial_guess() const override { return initial_guess_; }
    double       parameter_scale() const override { return lambda_scale_; }

    bool                          admits(const Vector &Y, double mu) override;
    std::pair<Vector, Matrix>     residual(const Vector &Y, double mu, bool with_jacobian) override;
    Matrix monodromy_minus_identity(const Vector &Y, double mu, const Matrix &jacobian) const override;
    BranchPoint                   orbit(const Vector &Y, double mu) override;
    bool                          of_lower_period(const BranchPoint &) override { return false; }
    std::optional<OrbitSignature> last_evaluated() const override;
    Vector                        unknowns(const BranchPoint &point) const override;
    double                        parameter(const BranchPoint &) const override { return mu_; }
    void                          set_reference(const BranchPoint &point) override;
    std::string                   beyond_bounds(const BranchPoint &orbit) const override;
    unsigned long                 evaluations() const override;

    // The curve's accepted points, in the order accepted, and per point the sign of the other
    // kind's test function (fold curves: det(M + I); period-doubling curves: det(M − I)), whose
    // change marks a fold-flip.
    const std::vector<CurvePoint> &points() const { return points_; }
    const std::vector<double>     &other_test() const { return other_test_; }

  private:
    struct Inner
    {
      double                           lambda = 0.0;
      std::shared_ptr<PeriodicFlowMap> map;
      std::unique_ptr<ShootingProblem> problem;
    };

    double           lambda_of(double mu) const { return second_.value + (mu - 1.0) * lambda_scale_; }
    ShootingProblem &inner(double lambda);
    Inner           &inner_entry(double lambda);
    // The kind's conditions at (X, p, extra) with ∂F/∂X = J there.
    Vector conditions(Inner &in, const Vector &X, double p, double extra, const Matrix &J);
    Matrix test_matrix(ShootingProblem &problem, const Matrix &J, double kappa) const;
    void   update_borders(const Matrix &A);
    double choose_grazing_contact(const BranchPoint &start);
    void   aim(Inner &in, const Vector &Y) const;
    void   choose_neimark_sacker_entries(const Vector &Y);

    SpecialPoint         kind_;
    bool                 free_;
    MapFamily           &maps_;
    SecondParameter      second_;
    ContinuationSettings settings_;
    BranchPoint          start_, reference_;
    double               lambda_scale_, parameter_scale_, state_scale_, velocity_scale_;
    Eigen::Index         n_ = 0, extra_ = 0;
    int                  contact_ = -1;  // grazing: the contact the orbit touches
    double               window_  = 0.0; // and the half-width of its ignored impacts, in periods
    double               mu_ = 1.0;
    Vector               initial_guess_;
    Matrix               B_, C_;           // borders (one or two columns)
    int                  entry_a_ = 0, entry_b_ = 3; // Neimark-Sacker: the two entries of G solved for
    std::vector<Inner>   inners_;
    unsigned long        retired_evaluations_ = 0;
    Vector               last_orbit_;      // Y of the orbit recorded last
    std::vector<CurvePoint> points_;
    std::vector<double>     other_test_;
  };
} // namespace vibroimpact::periodic
