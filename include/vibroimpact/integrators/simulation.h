// A whole time history: the Moreau–Jean OSI run from the model's initial state to the final
// time, with the energy ledger, history.csv, solution.pvd and a summary. The caller chooses the
// folder (normally an io::OutputFolder's staging folder, so a failed run leaves nothing).
#pragma once

#include <vibroimpact/integrators/integrator_settings.h>
#include <vibroimpact/integrators/modal_restitution.h>
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/model/structural_model.h>

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace vibroimpact::integrators
{
  struct SimulationSummary
  {
    std::string   method         = "moreau-jean";
    unsigned long steps          = 0;
    unsigned long impacts        = 0;   // a contact's impulse becomes positive
    double        sticking_time  = 0.0; // time with an impulse that persists from the step before
    unsigned long lcp_solves     = 0;
    unsigned long lcp_fallbacks  = 0;   // solves that needed a second solver
    unsigned long lcp_failures   = 0;   // solves no solver could do (the run stops at the first)
    unsigned long corrections    = 0;   // energy corrections applied (every β is in history.csv)
    double        largest_beta   = 0.0; // max |β|
    double        initial_energy = 0.0;
    double        final_energy   = 0.0;
    double        balance_error  = 0.0; // E − E0 − W_ext + dissipations − W_correction
    double        relative_balance_error = 0.0;
    unsigned int  frames           = 0;
    double        wall_time        = 0.0; // s
    double        steps_per_second = 0.0;
  };

  // Writes output_dir/history.csv (and solution.pvd + .vtu when settings.frames_every > 0).
  // Throws NumericalFailure (moreau_jean.h) if every LCP solver fails at some step; LCP
  // fallbacks are reported on stderr with the step, the time and the residuals.
  // Called after every step with the new state and what happened in the step.
  using StepObserver = std::function<void(const State &, const StepReport &)>;

  // Moreau–Jean from the model's initial state to the final time: history.csv (and
  // solution.pvd) in output_dir. impulse_<c> in history.csv is the impulse delivered since the
  // previous row, so that no impact is lost between rows (impulse / row spacing is the mean
  // contact force over the row).
  SimulationSummary run_simulation(const model::StructuralModel &model,
                                   const IntegratorSettings     &settings,
                                   const std::filesystem::path  &output_dir,
                                   bool                          quiet,
                                   const StepObserver           &observer = {});

  // The modal coefficient-of-restitution reference, written to the same history.csv columns.
  // Entries it does not track (external work, damping dissipation, the balance of a forced
  // run) are NaN; impulse_<c> is the impulse delivered since the previous row (impacts, and the
  // sticking multiplier times the time stuck).
  SimulationSummary run_modal_restitution_simulation(const model::StructuralModel   &model,
                                                     const ModalRestitutionSettings &settings,
                                                     const std::filesystem::path    &output_dir,
                                                     ModalRestitutionHistory        *history = nullptr);

  // The columns of history.csv, for a model's contacts and probes.
  std::vector<std::string> history_columns(const model::StructuralModel &model);

  void print_summary(std::ostream &out, const SimulationSummary &summary);
} // namespace vibroimpact::integrators
