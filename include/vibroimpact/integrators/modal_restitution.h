// Event-driven modal coefficient-of-restitution (CoR) solver with Lagrange-multiplier sticking
// (Vyasarayani, Sandhu, McPhee; seeds 000/002). The first independent reference the Moreau–Jean
// FE results are checked against. Derivation: doc/modal_restitution.md.
//
// - Modal coordinates q of the first N mass-normalised modes of the StructuralModel
//   (u = Phi q), modal damping 2 zeta_j omega_j from the settings (not the model's C), modal
//   loads Phi^T f(t).
// - Free flight: Dormand–Prince 5(4) with dense output (Boost.Odeint); contact events located on
//   the dense-output interpolant by TOMS 748 (Boost.Math).
// - Impact: q kept, qdot jumped by the minimal-kinetic-energy impulse that makes the contact
//   velocity -R times its pre-impact value (eq. 28).
// - Chatter: impacts of one contact closer than epsilon in time -> CoR map with R = 0 and
//   sticking, with the closed-form multiplier (eq. 33; a small linear system for several
//   stuck contacts); release when a multiplier changes sign (located as an event).
//
// No file I/O, no global state: run() returns plain vectors.
#pragma once

#include <vibroimpact/model/structural_model.h>

#include <string>
#include <vector>

namespace vibroimpact::integrators
{
  struct ModalRestitutionSettings
  {
    unsigned int n_modes = 4;

    // Newton's R per contact; empty: each contact's model restitution.
    std::vector<double> restitution;

    // Modal damping ratios zeta_j; the last value repeats for higher modes; empty: undamped.
    std::vector<double> damping_ratios;

    // Chatter threshold: an impact that follows the previous impact of the same contact within
    // less than epsilon starts sticking.
    double epsilon = 1e-6;

    double absolute_tolerance = 1e-10; // Dormand–Prince error control
    double relative_tolerance = 1e-10;
    double max_step           = 0.0;   // 0: no bound on the ODE step

    // Event samples per ODE step: the dense output is inspected at this many sub-points for sign
    // changes of gaps (and of multipliers while sticking) before TOMS 748 refines a bracket.
    unsigned int samples_per_step = 8;

    double final_time      = 1.0;
    double output_interval = 1e-2;

    // Guard against Zeno loops: more events than this is a numerical failure.
    unsigned long max_events = 1000000;
  };

  struct ImpactEvent
  {
    double       time = 0.0;
    unsigned int contact = 0;
    double       pre_velocity  = 0.0; // contact velocity U^- (negative: approaching)
    double       post_velocity = 0.0; // U^+
    double       impulse       = 0.0; // p >= 0, acting as H^T p
    double       energy_loss   = 0.0; // kinetic energy removed by the impulse
    bool         starts_sticking = false;
  };

  // A sticking phase of one contact: [start, end] (end = final time if still stuck).
  struct StickingPhase
  {
    unsigned int contact = 0;
    double       start   = 0.0;
    double       end     = 0.0;
    bool         released = false; // false: still stuck at the final time
  };

  // Time history at the output times (every output_interval and the final time).
  // Row k of each per-step vector belongs to times[k].
  struct ModalRestitutionHistory
  {
    std::vector<double>              times;
    std::vector<std::vector<double>> probe_displacement; // [step][probe]
    std::vector<std::vector<double>> probe_velocity;     // [step][probe]
    std::vector<std::vector<double>> gaps;               // [step][contact]
    std::vector<std::vector<double>> contact_velocity;   // [step][contact]
    std::vector<std::vector<double>> contact_force;      // [step][contact]: lambda while stuck, else 0
    std::vector<double>              kinetic_energy;     // 1/2 qdot^T qdot
    std::vector<double>              potential_energy;   // 1/2 sum omega_j^2 q_j^2
    std::vector<double>              impact_dissipation; // cumulative kinetic energy lost at impacts

    std::vector<ImpactEvent>   impacts;
    std::vector<StickingPhase> sticking;

    // Modal data used, for post-processing and comparisons.
    std::vector<double>              omegas;
    std::vector<std::vector<double>> final_modal_displacement; // [1][N] q(T)
    std::vector<std::vector<double>> final_modal_velocity;     // [1][N] qdot(T)

    unsigned long ode_steps = 0;
  };

  // The solver for one model: the modes, modal contact rows b_i = H_i Phi, probe rows, modal
  // loads and initial modal state are computed once by the constructor; run() may be called
  // many times (e.g. by a sweep) and keeps no state between calls.
  class ModalRestitution
  {
  public:
    // Throws std::invalid_argument on bad settings or when the model has fewer DoFs than modes.
    ModalRestitution(const model::StructuralModel &model, ModalRestitutionSettings settings);

    // Runs from the model's initial state to settings.final_time. Throws std::invalid_argument
    // when the initial state penetrates a contact, std::runtime_error on a numerical failure
    // (more than max_events events, a singular constraint system).
    ModalRestitutionHistory run() const;

    const ModalRestitutionSettings &settings() const { return settings_; }
    const Eigen::VectorXd &omegas() const { return omegas_; }
    // b = H Phi: one row per contact, N columns.
    const Eigen::MatrixXd &modal_contact_rows() const { return contact_rows_; }
    const Eigen::VectorXd &initial_modal_displacement() const { return q0_; }
    const Eigen::VectorXd &initial_modal_velocity() const { return v0_; }

  private:
    ModalRestitutionSettings settings_;
    Eigen::VectorXd          omegas_;
    Eigen::VectorXd          damping_;     // 2 zeta_j omega_j
    Eigen::MatrixXd          contact_rows_; // contacts x N
    Eigen::VectorXd          gap0_;
    Eigen::VectorXd          restitution_;
    Eigen::MatrixXd          probe_rows_;  // probes x N
    std::vector<Eigen::VectorXd>      load_shapes_; // Phi^T s_k
    std::vector<model::TimeFunction>  load_times_;
    Eigen::VectorXd          q0_, v0_;
  };

  // Shorthand: ModalRestitution(model, settings).run().
  ModalRestitutionHistory run_modal_restitution(const model::StructuralModel    &model,
                                                const ModalRestitutionSettings &settings);

  // The modal CoR map (eq. 28) in isolation: given b = H Phi (a row of the modal contact
  // matrix), pre-impact modal velocities and R, returns the post-impact modal velocities
  // qdot+ = qdot- - (1 + R) (b . qdot-) b^T / (b b^T). Exposed for tests.
  std::vector<double> restitution_map(const std::vector<double> &b,
                                      const std::vector<double> &modal_velocity,
                                      double                     restitution);
} // namespace vibroimpact::integrators
