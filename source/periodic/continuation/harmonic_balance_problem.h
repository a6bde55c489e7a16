// Harmonic balance as a periodic problem (periodic_problem.h), on the event-driven map's model
// with elastic contacts (harmonic_balance_model.h). Unknowns, in scaled form:
//   forced orbits: X = Y / s (the contact DoFs' harmonics of ω = Ω / forcing periods), parameter Ω / Ω0;
//   free families: X = (Y / s, ω / ω0, κ / ω0), parameter E / E0, equations
//     r(Y, ω, κ) = 0,   Σ_j j (b_ref,j a_j − a_ref,j b_j) = 0 (phase),   E(q(0), q̇(0)) − E = 0,
// κ the extended periodic motion concept's unfolding damping (0 on a conservative family's
// orbit), as shooting's α. An orbit's state x0 is the reconstructed (q(0), q̇(0)); its Floquet
// multipliers are those of the monodromy of the reconstructed orbit.
#pragma once

#include <vibroimpact/periodic/periodic_problem.h>

#include "harmonic_balance_model.h"

#include <deque>

namespace vibroimpact::periodic
{
  class HarmonicBalanceProblem : public PeriodicProblem
  {
  public:
    // Throws std::invalid_argument (naming the entry) for a map or model HB cannot take.
    HarmonicBalanceProblem(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                           const ContinuationSettings &settings, const Vector &x0, double period,
                           double parameter_scale);

    bool         free() const override { return free_; }
    Eigen::Index size() const override { return free_ ? n_ + 2 : n_; }
    Vector       initial_guess() const override { return initial_guess_; }
    double       parameter_scale() const override { return parameter_scale_; }

    bool                          admits(const Vector &X, double p) override;
    std::pair<Vector, Matrix>     residual(const Vector &X, double p, bool with_jacobian) override;
    Matrix monodromy_minus_identity(const Vector &X, double p, const Matrix &jacobian) const override;
    BranchPoint                   orbit(const Vector &X, double p) override;
    bool                          of_lower_period(const BranchPoint &orbit) override;
    std::optional<OrbitSignature> last_evaluated() const override;
    Vector                        unknowns(const BranchPoint &point) const override;
    double                        parameter(const BranchPoint &point) const override;
    void                          set_reference(const BranchPoint &point) override;
    unsigned long                 evaluations() const override { return evaluations_; }

  private:
    struct Evaluation : EvaluatedIterate
    {
      unsigned int closings = 0;
    };

    // The harmonics Y, base frequency ω and unfolding κ of unknowns X at the current parameter.
    Vector coefficients(const Vector &X) const { return X.head(n_) * state_scale_; }
    double omega(const Vector &X) const;
    double kappa(const Vector &X) const { return free_ ? X(n_ + 1) * omega_scale_ : 0.0; }
    // The orbit's energy at t = 0 (free families' last equation).
    double energy(const Vector &X) const;
    // The harmonics of the orbit through state x0 of period T, sampled from the flow with the
    // unfolding α = −κ (κ ≠ 0: the extended periodic motion concept's, cancelling damping).
    Vector sampled_coefficients(const Vector &x0, double T, double kappa) const;
    // Whether harmonics Y (of a problem over an even number of forcing periods) are an orbit of half
    // the period: their odd harmonics vanish (to 1e-4 of their size).
    bool              of_half_period(const Vector &Y) const;
    const Evaluation &evaluate(const Vector &X, bool jacobian);
    void              add_free_rows(const Vector &X, const HarmonicBalanceModel::Residual &r);

    const PeriodicFlowMap &flow_;
    PeriodicFlowMap       *forced_flow_;
    ContinuationSettings   settings_;
    HarmonicBalanceModel   model_;
    Eigen::Index           n_;
    bool                   free_;
    unsigned int           forcing_harmonic_;
    double                 state_scale_ = 1.0, omega_scale_ = 1.0, parameter_scale_;
    double                 parameter_ = 1.0;
    Vector                 initial_guess_, reference_;
    Evaluation             cache_;
    // M − I of the last orbits it was asked for.
    struct KnownMonodromy
    {
      std::vector<double> key;
      double              parameter = 0.0;
      Matrix              monodromy_minus_identity;
    };
    mutable std::deque<KnownMonodromy> monodromies_;
    unsigned long          evaluations_ = 0;
  };
} // namespace vibroimpact::periodic
