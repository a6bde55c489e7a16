// One time-domain run of a case (`vibroimpact simulate`, the Python module's Case.simulate()):
// the case's solver (Simulation/Solver) from the initial state to the final time, returned as
// data: the history's rows and events, the run's summary and, with clearance supports, their
// statistics. write_simulation then writes history.csv, events.csv, the statistics files and,
// after SIGINT/SIGTERM, INTERRUPTED (the frames stream into a folder during the run).
// As every study: prepare (all input checks, before any output), run, write.
#pragma once

#include <vibroimpact/integrators/response_history.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/studies/support_statistics.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace vibroimpact::io
{
  class OutputFolder;
}

namespace vibroimpact::studies
{
  struct CaseFile;

  struct SimulationSetup
  {
    model::StructuralModel                     model;
    std::shared_ptr<const integrators::Solver> solver; // a copy of the case's
    integrators::RunControl                    control;
    std::string                                filename;
    double                                     statistics_start = 0; // Statistics/Start time
    unsigned int                               psd_segment      = 0; // Statistics/PSD segment
    std::vector<std::string>                   warnings;             // the model's conditioning
  };

  struct SimulationResult
  {
    model::StructuralModel                   model;
    integrators::RunControl                  control;
    integrators::ResponseHistory             history;    // rows, events and summary
    std::vector<SupportStatistics>           statistics; // clearance supports (none after a signal)
    unsigned int                             n_frames = 0; // VTK frames written

    bool interrupted() const { return history.summary.interrupt_signal != 0; }
  };

  // Builds the model and checks the run (the solver's check, the bounds of run_bounds.h against
  // `output`, the folder the run will write: empty, none). Throws io::InputError.
  SimulationSetup prepare_simulation(const CaseFile &c, const std::filesystem::path &output = {}, bool quiet = true);
  // Runs to the final time; a signal ends it early with the history so far (interrupted()).
  // frames: the folder of solution.pvd and its frames at Simulation/Frame interval (empty: none).
  SimulationResult run_simulation(SimulationSetup setup, const std::filesystem::path &frames = {});
  // history.csv, events.csv; with clearance supports statistics.csv and the files and plots of
  // write_support_statistics; after a signal, INTERRUPTED.
  void write_simulation(const SimulationResult &result, io::OutputFolder &out);
} // namespace vibroimpact::studies
