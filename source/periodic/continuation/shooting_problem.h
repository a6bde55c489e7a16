// Shooting on a PeriodicFlowMap as a periodic problem (periodic_problem.h). Free families:
// unknowns X = (x0 / s_x, T / s_T, α s_T), parameter E / s_E, equations
//   x(T; x0, α) − x0 = 0,   ⟨x0 − x_ref, f(x_ref)⟩ = 0 (phase),   H(x0) − E = 0,
// α the unfolding damping that makes the Jacobian regular. Forced orbits: X = x0 / s_x, parameter
// Ω / Ω0, T = 2π/Ω. Derivations in doc/theory.md.
#pragma once

#include <vibroimpact/periodic/periodic_problem.h>

#include <vector>

namespace vibroimpact::periodic
{
  // A point's impacts and sticking phases per period, from its flow's events (added to its counts).
  void count_contact_events(BranchPoint &point, const std::vector<ContactEvent> &events);

  class ShootingProblem : public PeriodicProblem
  {
  public:
    ShootingProblem(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow, const ContinuationSettings &settings,
                    const Vector &x0, double period, double parameter_scale);

    bool         free() const override { return free_; }
    Eigen::Index size() const override { return free_ ? n_ + 2 : n_; }
    Vector       initial_guess() const override { return initial_guess_; }
    double       parameter_scale() const override { return parameter_scale_; }

    bool                           admits(const Vector &X, double p) override;
    std::pair<Vector, Matrix>      residual(const Vector &X, double p, bool with_jacobian) override;
    Matrix monodromy_minus_identity(const Vector &, double, const Matrix &jacobian) const override
    {
      return monodromy_minus_identity(jacobian);
    }
    // M − I is the top-left block of ∂F/∂X.
    Matrix monodromy_minus_identity(const Matrix &jacobian) const;
    BranchPoint                    orbit(const Vector &X, double p) override;
    bool                           of_lower_period(const BranchPoint &orbit) override;
    std::optional<OrbitSignature>  last_evaluated() const override;
    Vector                         unknowns(const BranchPoint &point) const override;
    double                         parameter(const BranchPoint &point) const override;
    void                           set_reference(const BranchPoint &point) override { set_reference(point.state); }
    unsigned long                  evaluations() const override { return evaluations_; }

    // The state x0 and the period T of unknowns X (after a residual at the parameter of interest).
    Vector state(const Vector &X) const;
    double period(const Vector &X) const;

  private:
    struct Evaluation : EvaluatedIterate
    {
      FlowResult flow;
    };

    double            alpha(const Vector &X) const;
    void              set_reference(const Vector &x);
    FlowResult        run_flow(const Vector &x0, double T, double a, bool jacobian) const;
    const Evaluation &evaluate(const Vector &X, bool jacobian);
    void              add_bordering(const Vector &x0);

    const PeriodicFlowMap &flow_;
    PeriodicFlowMap       *forced_flow_;
    ContinuationSettings   settings_;
    Eigen::Index           n_;
    bool                   free_;
    double                 state_scale_, period_scale_, parameter_scale_;
    double                 parameter_ = 1.0;
    Vector                 initial_guess_;
    Vector                 reference_, phase_direction_;
    Evaluation             cache_;
    unsigned long          evaluations_ = 0;
  };
} // namespace vibroimpact::periodic
