// Event-driven modal coefficient-of-restitution (CoR) solver with Lagrange-multiplier sticking
// (Vyasarayani, Sandhu, McPhee; seeds 000/002), registered as "modal-cor": the first independent
// reference the Moreau–Jean FE results are checked against. Derivation: doc/modal_restitution.md.
//
// - Modal coordinates (ModalProjection): the first N modes of the StructuralModel, modal damping
//   2 ζ_j ω_j from the settings (not the model's C), modal loads Φᵀ f(t).
// - Free flight: Dormand–Prince 5(4) with dense output (Boost.Odeint); contact events located on
//   the dense output by the EventLocator (TOMS 748, grazing checks).
// - The impact law: q kept, q̇ jumped by the minimal-kinetic-energy impulse that makes the contact
//   velocity −R times its pre-impact value (eq. 28), the stuck contacts held at U = 0.
// - Chatter: impacts of one contact closer than ε in time -> R = 0 and sticking, with the
//   closed-form multiplier (eq. 33; a small linear system for several stuck contacts); release
//   when a multiplier changes sign (located as an event).
#pragma once

#include <vibroimpact/integrators/modal_projection.h>
#include <vibroimpact/integrators/solver.h>

#include <string>
#include <vector>

namespace vibroimpact::integrators
{
  struct ModalRestitutionSettings
  {
    unsigned int n_modes = 4; // 0: every mode of the model
    ModeSource   mode_source = ModeSource::finite_element;

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

    // Guard against Zeno loops: more events than this is a numerical failure.
    unsigned long max_events = 1000000;
    // Guard against a run that would not end (a final time of 1e308, a load frequency of 1e308
    // rad/s): more ODE steps than this is a numerical failure that says why.
    unsigned long max_steps   = 1000000000;
    double        max_periods = 1e8; // of the highest retained mode over the final time
  };

  // The "Modal restitution" subsection.
  void bind_settings(io::ParameterSection &section, ModalRestitutionSettings &settings);

  // The solver for one model: the modal projection is computed once by the constructor; run()
  // may be called many times and keeps no state between calls.
  class ModalRestitution : public ModalIntegrator<ModalRestitutionSettings>
  {
  public:
    // Throws std::invalid_argument on bad settings or when the model has fewer DoFs than modes.
    ModalRestitution(const model::StructuralModel &model, ModalRestitutionSettings settings);

    // From the model's initial state to control.final_time: samples every output interval
    // (final time / 1000 when 0), impacts as they happen, sticking phases when they end. Throws
    // std::invalid_argument when the initial state penetrates a contact, NumericalFailure on a
    // numerical failure (more than max_events events, a singular constraint system).
    RunSummary run(const RunControl &control, ResponseObserver &observer) const;

    const Eigen::VectorXd &omegas() const { return projection_.omegas(); }
    // b = H Φ: one row per contact, N columns.
    const Eigen::MatrixXd &modal_contact_rows() const { return projection_.contact_rows(); }

  private:
    Eigen::VectorXd restitution_;
  };

  // The modal CoR map (eq. 28) in isolation: given b = H Φ (a row of the modal contact matrix),
  // pre-impact modal velocities and R, returns the post-impact modal velocities
  // q̇+ = q̇- - (1 + R) (b . q̇-) b^T / (b b^T). Exposed for tests.
  std::vector<double> restitution_map(const std::vector<double> &b, const std::vector<double> &modal_velocity,
                                      double restitution);
} // namespace vibroimpact::integrators
