// The Hunt–Crossley penalty solver of Antunes et al. (2017, eq. 20), registered as
// "modal-penalty": the modal equations of modal_time_stepping.h with, per contact, the force
//
//   λ_i = k_p δ_i (1 + μ_p δ̇_i) ≥ 0 for a penetration δ_i = −g_i > 0, zero otherwise,
//
// (clipped at zero: a contact never pulls), integrated by the same velocity-Verlet. For a single
// impact at speed v0 it restitutes e ≈ 1 − (2/3) μ_p v0 (doc/udwadia_kalaba.md).
//
// Spatial supports (model::SpatialSupport): the same normal force on each candidate
// contact's penetration, and Coulomb friction regularised by an elastic–plastic stick spring of
// stiffness k_t (penalty/spatial_penalty.h; doc/udwadia_kalaba.md "Penalty contacts in space").
#pragma once

#include <vibroimpact/integrators/modal_time_stepping.h>

#include <memory>

namespace vibroimpact::integrators
{
  struct ModalPenaltySettings : ModalSteppingSettings
  {
    double stiffness = 1e6; // k_p, force per penetration
    double damping   = 0.1; // μ_p, per penetration velocity (s/m in SI)
    double tangential_stiffness = 1e6; // k_t of the stick spring (spatial supports with friction)
  };

  class SpatialPenalty;

  // The "Modal penalty" subsection.
  void bind_settings(io::ParameterSection &section, ModalPenaltySettings &settings);

  class ModalPenalty : public ModalIntegrator<ModalPenaltySettings>
  {
  public:
    // Throws std::invalid_argument on k_p ≤ 0, μ_p < 0, k_t ≤ 0, h ≤ 0 or more modes than DoFs.
    ModalPenalty(const model::StructuralModel &model, ModalPenaltySettings settings);
    ~ModalPenalty();

    // Summary counters: contact episodes, deepest penetration.
    RunSummary run(const RunControl &control, ResponseObserver &observer) const;

  private:
    std::shared_ptr<const SpatialPenalty> spatial_; // the supports on the modes, at rest
  };
} // namespace vibroimpact::integrators
