// What the fixed-step modal solvers of Antunes et al. (2017) share: the modal Udwadia–Kalaba
// solver ("modal-uk", udwadia_kalaba.h) and the Hunt–Crossley penalty solver ("modal-penalty",
// penalty.h) integrate the same unconstrained modal equations (ModalProjection)
//
//   q'' + D q' + Ω² q = Φᵀ f(t) + Bᵀ λ,   B = H Φ,
//
// with velocity-Verlet at one fixed step h, and differ only in how λ is found. Their common
// settings (modes, mode source, damping ratios, h), the checks of those settings against a model,
// and the recorder that turns the modal state into ResponseSamples live here.
#pragma once

#include <vibroimpact/integrators/modal_projection.h>
#include <vibroimpact/integrators/solver.h>

#include <string>
#include <vector>

namespace vibroimpact::integrators
{
  struct ModalSteppingSettings
  {
    unsigned int        n_modes     = 0; // 0: every mode of the model
    ModeSource          mode_source = ModeSource::finite_element;
    std::vector<double> damping_ratios; // ζ_1, ζ_2, ...; the last repeats; empty: undamped
    double              time_step = 1e-6; // the paper's h
  };

  // The modal basis entries of every modal method (the modal solvers, the event-driven periodic
  // map): Number of modes (0: every mode; `n_modes_text` says what N is), Mode shapes (finite
  // element | exact) and Damping ratios; `prefix` opens each text ("Event-driven map: ").
  void bind_modal_basis(io::ParameterSection &section, unsigned int &n_modes, ModeSource &mode_source,
                        std::vector<double> &damping_ratios, const std::string &n_modes_text,
                        const std::string &prefix = "");

  // The modal basis entries and Time step of a solver's subsection.
  void bind_modal_stepping_parameters(io::ParameterSection &section, ModalSteppingSettings &settings);

  // Throws io::InputError naming "<section>/Number of modes" or ".../Mode shapes" when the model
  // has fewer DoFs than n_modes, or no closed-form modes for ModeSource::exact (every modal solver).
  void check_mode_settings(unsigned int n_modes, ModeSource mode_source, const model::StructuralModel &model,
                           const std::string &file, const std::string &section);

  // Throws io::InputError naming "<section>/<Entry>" when the settings cannot run on the model:
  // more modes than DoFs, exact modes of a structure without a closed form, h longer than the
  // final time or not dividing it, more steps than a run may take.
  void check_modal_stepping(const ModalSteppingSettings &settings, const model::StructuralModel &model,
                            const RunControl &control, const std::string &file, const std::string &section);

  // The number of steps of h to the final time (the checks above guarantee a whole number).
  unsigned long modal_step_count(double time_step, double final_time);
} // namespace vibroimpact::integrators
