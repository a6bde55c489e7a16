// The event-driven period map of a linear structure with unilateral contacts, exact between events:
// in the coordinates of N mass-normalised modes (integrators::ModalProjection), with constant and
// harmonic loads carried as three extra states (1, sin Ωt, cos Ωt), the motion between events is
// z(t) = exp(A t) z0 with A constant. Events are located by sampling finer than the shortest
// period (with the gap's slope, so a dip below zero between samples is caught) and refined by
// TOMS 748. An impact applies Newton's law in modal coordinates; a contact whose rebound is below
// the chatter threshold while the free acceleration pushes into it sticks (projected dynamics,
// a linear flow again) until its multiplier turns tensile. The Jacobian chains exp(A t) with the
// saltation matrices of the impacts (doc/periodic.md §1); ∂/∂α comes from the block exponential.
// With the energy correction, an inelastic impact is followed by the seed's energy restoration,
// a smooth map whose derivative enters the saltation matrix.
#pragma once

#include <vibroimpact/integrators/modal_projection.h>
#include <vibroimpact/integrators/moreau_jean_settings.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/periodic/flow_map.h>

#include <memory>
#include <vector>

namespace vibroimpact::periodic
{
  struct LinearImpactFlowSettings
  {
    unsigned int        n_modes = 0; // 0: every mode of the model
    integrators::ModeSource mode_source = integrators::ModeSource::finite_element;
    std::vector<double> damping_ratios;            // modal ζ_j (last repeats); empty: undamped
    double              chatter_threshold  = 1e-6; // |U+| below which a contact sticks
    // > 0: an impact within this time of the previous one of the same contact is perfectly
    // inelastic and starts sticking where the contact is pressed (the modal CoR's ε), so a
    // chatter sequence ends as in the reference solver.
    double              chatter_time = 0.0;
    // After an impact with e < 1, restore the energy it took along a direction that leaves the
    // contact velocities alone (the seed's correction, the same rule as Moreau–Jean's as h → 0:
    // doc/periodic.md §1), so that e = 0 sticking families are conservative.
    bool                             energy_correction    = false;
    integrators::CorrectionDirection correction_direction = integrators::CorrectionDirection::values;
    // Mass redistribution (Khenous, Laborde & Renard 2008): the contacts' DoFs carry no mass (it
    // goes to their neighbours) and are condensed statically, so a contact becomes a unilateral
    // spring of the condensed stiffness on the other DoFs: no impacts, no restitution law, energy
    // conserved, the flow continuous across contact switches (doc/periodic.md §6).
    bool                massless_contact_nodes = false;
    // ≥ 0: every contact's stiffness instead of the model's (0: rigid), the maps a start carried
    // in stiffness passes through (with_contact_stiffness). With massless contact nodes an
    // elastic obstacle is a spring in series with the node's condensed one.
    double              contact_stiffness = -1.0;
    // With massless contact nodes, no damping and no harmonic load, each closed set's flow is a
    // set of uncoupled oscillators about its equilibrium (doc/periodic.md §6): a scan step costs
    // O(m) and the Jacobian O(m² n) per contact switch, not dense exponentials. false: the dense
    // exponentials as for every other model (kept to check the closed forms against).
    bool                uncoupled_oscillators = true;
    // The uncoupled oscillators scan at the step of the modes that carry the contacts' motion,
    // finely only where the others (bounded by their amplitudes) could switch a contact; false:
    // every step at the shortest period's fraction (kept to check against).
    bool                coarse_scan = true;
    unsigned int        samples_per_period = 24;   // event scan per shortest period
    unsigned int        max_events         = 100000;
  };

  class LinearImpactFlow : public PeriodicFlowMap
  {
  public:
    // Throws std::invalid_argument for loads that are not constant or harmonic at one frequency.
    LinearImpactFlow(const model::StructuralModel &model, const LinearImpactFlowSettings &settings);
    ~LinearImpactFlow() override;

    std::string  name() const override { return "event-driven"; }
    Eigen::Index dimension() const override;
    FlowResult flow(const Vector &x0, double period, double alpha, bool with_jacobian) const override;
    Vector vector_field(const Vector &x) const override;
    double energy(const Vector &x) const override;
    OrbitSamples sample(const Vector &x0, double period, unsigned int n_samples) const override;
    Vector linear_mode_state(unsigned int mode, double energy) const override;
    double linear_period(unsigned int mode) const override;
    double grazing_energy(unsigned int mode) const override;
    std::optional<std::pair<Vector, double>> one_impact_orbit(unsigned int mode, double energy,
                                                              unsigned int cycles = 1) const override;
    // The turning-point state of the time-reversible one-impact orbit of period T on `contact`:
    // from (p, 0) the flow reaches the stop at T/2 with a velocity along the contact row, which
    // e = 1 reverses. Linear in p: two conditions, solved exactly.
    Vector one_impact_turning_point(unsigned int contact, double period) const;
    // Unilateral springs (elastic contacts, or massless contact nodes' condensed stops), undamped
    // and unloaded: mode j's orbit of energy E on the spring it reaches first with every other
    // mode at rest (a bilinear oscillator, in closed form), from
    // its turning point away from the stop. Exact for one mode; for more, the guess Newton
    // corrects (the other modes' share is what the spring's force excites in them).
    std::optional<std::pair<Vector, double>> one_mode_spring_orbit(unsigned int mode, double energy) const;
    // A long run of this exact map; the start may be given in modal coordinates.
    std::optional<std::pair<Vector, double>> simulated_orbit(double time, const Vector &x0 = {}) const override;
    Vector initial_state() const override;
    std::unique_ptr<PeriodicFlowMap> on_first_modes(unsigned int r) const override;
    std::unique_ptr<PeriodicFlowMap> with_contact_stiffness(double k) const override;
    Vector from_first_modes(const Vector &x) const override;
    std::vector<double> held_contact_frequencies() const override;
    bool   ignore_impacts(int contact, double from, double to, double period) override;
    bool   forced() const override;
    void   set_forcing_frequency(double omega) override;
    double forcing_frequency() const override;

    const integrators::ModalProjection &projection() const;
    // The loads in modal coordinates, f(t) = F0 + F1 sin Ωt + F2 cos Ωt: the columns (F0, F1, F2).
    const Matrix &load_columns() const;
    // The modal state (q, q̇) of the model's DoF state (u, v): q = Φᵀ M u (with massless contact
    // nodes: of the DoFs that keep their mass).
    Vector modal_state(const Vector &u, const Vector &v) const;

    // Defined in source/periodic (linear_impact_flow_implementation.h), whose files share it.
    struct Implementation;

  private:
    const model::StructuralModel   &model_; // outlives the map, as for every map (on_first_modes)
    std::unique_ptr<Implementation> impl_;
  };
} // namespace vibroimpact::periodic
