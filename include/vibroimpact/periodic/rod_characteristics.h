// The wave-based period map of a uniform fixed–free rod with a stop at its free end
// (Continuation/Flow map = characteristics): the rod's right- and left-going strain
// waves on the rod's N elements, moved one cell per step Δt = Δx/c. Transport on that grid is exact
// (the "magic" Courant number 1), so every linear motion has period 4L/c and every mode is exactly
// (2n − 1)ω1: the discretisation has no dispersion. The contact is Signorini's at the end, decided
// once per step, and conserves the energy exactly (waves are only moved and reflected with a sign).
//
// What that makes of a family (doc/periodic.md §10): every period is a whole number of steps, so a
// family is a staircase in (E, ω), not a smooth curve for Newton and LOCA. Its orbits are found
// without Newton: from the reversible state of rest (uniform strain, the end farthest from the stop)
// the map returns to that state exactly after one period, at every energy. `continue` scans the
// energies (scanned_in_energy), and the error against the continuum is the rounding of the contact's
// closing to the grid: below Δt/T, first order in the mesh.
#pragma once

#include <vibroimpact/periodic/flow_map.h>

#include <memory>

namespace vibroimpact::model
{
  struct StructuralModel;
}

namespace vibroimpact::periodic
{
  class RodCharacteristicsFlow : public PeriodicFlowMap
  {
  public:
    // The model must be one rod, clamped at x = 0 and free at x = L, with one contact at x = L on
    // the ground, no load and no damping (std::invalid_argument naming what is not).
    explicit RodCharacteristicsFlow(const model::StructuralModel &model);
    ~RodCharacteristicsFlow() override;

    std::string  name() const override { return "characteristics"; }
    Eigen::Index dimension() const override; // 2N: the right-going waves, then the left-going ones
    // x(T) after round(T/Δt) steps; its Jacobian is the signed permutation of the steps taken
    // (the derivatives in T and α are zero: the map is discrete in time and undamped).
    FlowResult flow(const Vector &x0, double period, double alpha, bool with_jacobian) const override;
    Vector     vector_field(const Vector &x) const override;
    double     energy(const Vector &x) const override; // EA Δx Σ (r² + l²)
    OrbitSamples sample(const Vector &x0, double period, unsigned int n_samples) const override;
    // Mode 1: the square-wave motion the continuum's first nonsmooth mode leaves, at rest with a
    // uniform strain (the end farthest from the stop). Other modes are refused.
    Vector linear_mode_state(unsigned int mode, double energy) const override;
    double linear_period(unsigned int mode) const override;  // 4L/((2 mode − 1) c)
    double grazing_energy(unsigned int mode) const override; // mode 1: EA g²/(2L); others refused
    // The orbit through the state of rest of energy E and the number of steps it takes to return
    // there (found by simulation; every energy has one). Mode 1 and one cycle only.
    std::optional<std::pair<Vector, double>> one_impact_orbit(unsigned int mode, double energy,
                                                              unsigned int cycles = 1) const override;
    Vector initial_state() const override;
    bool   scanned_in_energy() const override { return true; }

    double time_step() const; // Δx / c
    unsigned int cells() const;

  private:
    struct Implementation;
    std::unique_ptr<Implementation> impl_;
  };
} // namespace vibroimpact::periodic
