// A periodic problem: the equations of a periodic orbit in its (scaled) unknowns X and the branch
// parameter p, F(X, p) = 0, with everything the continuation driver, the special points and the
// branch strategies read from an orbit. Shooting on a flow map is one (shooting_problem.h); a
// harmonic-balance problem is another. The driver and the locators see only this interface: a new
// method of computing periodic orbits is a class that implements it and a case in make_problem.
#pragma once

#include <vibroimpact/periodic/continuation.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::periodic
{
  // What an orbit is, as a step's acceptance rules compare it with the last point: its period,
  // its contact signature (impacts and sticking phases per period), the parameter (unscaled).
  struct OrbitSignature
  {
    double       period = 0.0, parameter = 0.0;
    unsigned int impacts = 0, sticking_phases = 0;
    // An orbit over several periods (a switched family) that is one of a lower period: Newton
    // has slid back onto the family it was born on.
    bool         of_lower_period = false;
  };

  // The residual (and Jacobian) of the last iterate a problem evaluated, kept for the next call
  // at the same (X, p): LOCA and the locators ask for the same orbit several times.
  struct EvaluatedIterate
  {
    std::vector<double> key; // X
    double              parameter    = 0.0;
    bool                has_jacobian = false;
    Vector              residual;
    Matrix              jacobian;

    // Whether it holds (X, p), with a Jacobian if one is asked for.
    bool holds(const std::vector<double> &X, const double p, const bool with_jacobian) const
    {
      return key == X && parameter == p && (has_jacobian || !with_jacobian);
    }
    // X as a vector (empty before the first evaluation).
    Vector unknowns() const { return Eigen::Map<const Vector>(key.data(), Eigen::Index(key.size())); }
  };

  class PeriodicProblem
  {
  public:
    virtual ~PeriodicProblem() = default;

    // Free (autonomous, conservative) families continue in the energy, forced ones in the
    // forcing frequency.
    virtual bool         free() const        = 0;
    virtual Eigen::Index size() const        = 0; // the number of unknowns
    virtual Vector       initial_guess() const = 0; // the start orbit's unknowns
    virtual double       parameter_scale() const = 0; // p = parameter / this

    // Whether X lies in the problem's domain at p (a Newton iterate outside gets no residual).
    virtual bool admits(const Vector &X, double p) = 0;
    // F(X, p) and, with_jacobian, ∂F/∂X; throws std::runtime_error where the orbit cannot be
    // evaluated (a flow that fails).
    virtual std::pair<Vector, Matrix> residual(const Vector &X, double p, bool with_jacobian) = 0;
    // M − I, M the monodromy matrix of the orbit (X, p) whose ∂F/∂X is `jacobian` (shooting reads
    // M there; harmonic balance from the orbit): the special points' test functions read it.
    virtual Matrix monodromy_minus_identity(const Vector &X, double p, const Matrix &jacobian) const = 0;
    // The orbit at (X, p) with everything a branch point reports (energy, contacts, multipliers,
    // admissibility).
    virtual BranchPoint orbit(const Vector &X, double p) = 0;
    // Whether an orbit of a problem over several periods (the family switched to at a period
    // doubling) is one of a lower period: the family has come back to the orbits it was born on.
    virtual bool of_lower_period(const BranchPoint &orbit) = 0;
    // The signature of the orbit evaluated last (empty before the first evaluation).
    virtual std::optional<OrbitSignature> last_evaluated() const = 0;
    // The unknowns and the scaled parameter of a branch point of this problem.
    virtual Vector unknowns(const BranchPoint &point) const  = 0;
    virtual double parameter(const BranchPoint &point) const = 0;
    // A new point was accepted: conditions relative to the last point (a phase condition) move to it.
    virtual void set_reference(const BranchPoint &point) = 0;
    // Why an accepted orbit ends the run beyond the bounds the driver knows (a curve of special
    // points leaving the frequency range); empty: it does not.
    virtual std::string beyond_bounds(const BranchPoint & /*orbit*/) const { return {}; }
    // Flow-map evaluations so far, Jacobians included (the branch's cost).
    virtual unsigned long evaluations() const = 0;
  };

  // The problem of the case's method (settings.method) through the orbit (x0, period) (a free
  // family when forced_flow is null, else a forced response of forced_flow), its parameter scaled
  // by parameter_scale: shooting on `flow`, or harmonic balance on its linear model.
  std::unique_ptr<PeriodicProblem> make_problem(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                                                const ContinuationSettings &settings, const Vector &x0,
                                                double period, double parameter_scale);

  // Harmonic balance's samples per period of the contact forces (Continuation/Samples per period,
  // 0: the smallest power of two ≥ 8 H, at least 64).
  unsigned int harmonic_balance_samples(const ContinuationSettings &settings);

  // The Newton unknowns of one orbit of the case's method (free: with the bordering's two).
  Eigen::Index periodic_unknowns(const PeriodicFlowMap &flow, const ContinuationSettings &settings, bool free);

  // A branch point's orbit sampled n_samples + 1 times over its period (both ends), in DoF
  // coordinates, as its method represents it: the flow from its state (shooting), or its Fourier
  // series (harmonic balance; the point carries its coefficients).
  OrbitSamples sample_orbit(PeriodicFlowMap &flow, const ContinuationSettings &settings, const BranchPoint &point,
                            unsigned int n_samples);
} // namespace vibroimpact::periodic
