// The discrete energy balance of the θ-scheme (Acary 2016): for every step
//   ΔE + (θ − 1/2)(|Δv|²_M + |Δu|²_K) + h v_θ·C v_θ = h v_θ·f_θ + U_θ·p,
// i.e. change of energy + numerical dissipation + damping dissipation = external work − impact
// dissipation − friction dissipation (doc/time_stepping.md §3, §7 for friction). The ledger
// accumulates each term so that
//   E − E0 − W_ext + D_damping + D_impact + D_friction + D_numerical − W_correction = 0
// to round-off; W_correction is the energy put back by the energy correction.
#pragma once

#include <Eigen/Dense>

namespace vibroimpact::integrators
{
  // The terms of one step.
  struct StepEnergy
  {
    double external_work         = 0.0; // h v_θ · f_θ
    double damping_dissipation   = 0.0; // h v_θ · C v_θ >= 0
    double impact_dissipation    = 0.0; // −(U+ + U−)/2 · p >= 0 by the impact law (normal rows),
                                        // + ΔU_t · p_t / 2 of friction contacts (§7)
    double friction_dissipation  = 0.0; // −U_t+ · p_t = μ p_n |U_t+| >= 0 by Coulomb's law
    double numerical_dissipation = 0.0; // (θ − 1/2)(|Δv|²_M + |Δu|²_K − ΔU · p)
    double correction_work       = 0.0; // energy added by β I
    double correction_beta       = 0.0; // β (0 when no correction)
  };

  class EnergyLedger
  {
  public:
    EnergyLedger() = default;
    EnergyLedger(double kinetic, double potential);

    // Adds one step's terms and sets the energy of the state reached.
    void record(const StepEnergy &step, double kinetic, double potential);

    double kinetic() const { return kinetic_; }
    double potential() const { return potential_; }
    double total() const { return kinetic_ + potential_; }
    double initial_total() const { return initial_; }

    double external_work() const { return sums_.external_work; }
    double damping_dissipation() const { return sums_.damping_dissipation; }
    double impact_dissipation() const { return sums_.impact_dissipation; }
    double friction_dissipation() const { return sums_.friction_dissipation; }
    double numerical_dissipation() const { return sums_.numerical_dissipation; }
    double correction_work() const { return sums_.correction_work; }

    // E − E0 − W_ext + dissipations − W_correction: zero to round-off.
    double balance_error() const;
    // The same, relative to the largest energy-like quantity met so far.
    double relative_balance_error() const;

  private:
    double     initial_   = 0.0;
    double     kinetic_   = 0.0;
    double     potential_ = 0.0;
    double     scale_     = 0.0;
    StepEnergy sums_;
  };
} // namespace vibroimpact::integrators
