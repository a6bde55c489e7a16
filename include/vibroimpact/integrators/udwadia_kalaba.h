// The modal Udwadia–Kalaba solver of Antunes et al. (2017), registered as "modal-uk"
// (doc/udwadia_kalaba.md). Each contact of the model is one unilateral constraint
// g_i = g0_i + B_i q ≥ 0; a contact is open or closed. A closed set S imposes B_S q'' = 0 through
// the U–K equation with unit modal mass,
//
//   q'' = a + B_S⁺ (0 − B_S a),   λ_S = −(B_S⁺)ᵀ a   (eqs. 10–12),  a: the free acceleration,
//
// with B_S⁺ cached per contact state; a contact closes when its gap reaches zero (an inelastic,
// e = 0 impact: the velocity projection removes the approach velocity) and opens when its λ turns
// tensile. After every step the violations of the closed set are projected out (eqs. 18–19):
// q ← q − B_S⁺ g_S, q' ← q' − B_S⁺ B_S q'. Velocity-Verlet at a fixed step.
//
// Spatial supports (model::SpatialSupport), frictionless: every candidate contact is a
// constraint along its current normal, with the annular normal's centripetal term in g̈ and
// Newton's restitution of the support at impacts (udwadia_kalaba/spatial_udwadia_kalaba.cc;
// doc/udwadia_kalaba.md "Spatial supports"); the projection is then always on.
#pragma once

#include <vibroimpact/integrators/modal_time_stepping.h>

namespace vibroimpact::integrators
{
  struct ModalUdwadiaKalabaSettings : ModalSteppingSettings
  {
    bool projection = true; // eqs. 18–19 after every step; false: acceleration level only (drifts)
  };

  // The "Modal Udwadia-Kalaba" subsection.
  void bind_settings(io::ParameterSection &section, ModalUdwadiaKalabaSettings &settings);

  class ModalUdwadiaKalaba : public ModalIntegrator<ModalUdwadiaKalabaSettings>
  {
  public:
    // Throws std::invalid_argument when the model has fewer DoFs than modes or h is not positive.
    ModalUdwadiaKalaba(const model::StructuralModel &model, ModalUdwadiaKalabaSettings settings);

    // From the model's initial state to control.final_time (a whole number of steps). Summary
    // counters: contact states visited (= B⁺ builds), state changes, releases, the largest |g|
    // of a closed contact after a step.
    RunSummary run(const RunControl &control, ResponseObserver &observer) const;

  private:
    std::vector<model::SpatialSupport> supports_; // frictionless spatial supports, if any
  };
} // namespace vibroimpact::integrators
