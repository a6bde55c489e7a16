// One time-domain run of a case (`vibroimpact simulate`, the Python module's Case.simulate()):
// the case's solver (Simulation/Solver) from the initial state to the final time, returned as
// data: the history's events, the run's summary, the rows if asked for and, with clearance
// supports, their statistics. With a folder, the rows (history.csv or records.h5), the frames
// and support_forces.csv stream there during the run, formed and written on a writer thread
// while the solver steps, so that neither the memory nor the solver's pace depends on the
// record's length; write_simulation then writes events.csv, the statistics files and, after
// SIGINT/SIGTERM, INTERRUPTED.
// As every study: prepare (all input checks, before any output), run, write.
#pragma once

#include <vibroimpact/integrators/response_history.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/studies/support_statistics.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace dealii
{
  class TimerOutput;
}

namespace vibroimpact::io
{
  class Hdf5Records;
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
    std::vector<WearInputs>                    wear; // per support in space (its Wear entries)
    std::vector<std::string>                   warnings;             // the model's conditioning
    bool hdf5_records = false; // Simulation/Output format = hdf5: records.h5 and solution.xdmf
    bool keep_rows    = false; // the rows stay in the result's history too (the Python module)
  };

  struct SimulationResult
  {
    model::StructuralModel                   model;
    integrators::RunControl                  control;
    integrators::ResponseHistory             history;    // rows, events and summary
    std::vector<SupportStatistics>           statistics; // clearance supports (none after a signal)
    std::vector<SupportForcesCurve>          support_forces_curves; // streamed: support_forces.png's
    std::optional<io::CsvTable>              support_orbits = std::nullopt; // streamed, supports in space: support_orbits.csv's
    unsigned int                             n_frames = 0; // VTK frames written
    bool                                     hdf5_records = false;
    std::shared_ptr<io::Hdf5Records>         records = nullptr; // records.h5, its /history streamed in
    bool streamed = false; // the rows went to a folder during the run (else the history kept them)
    // The writer thread's share of the run, which no section of a TimerOutput on the main thread
    // sees: waited, the solve's waits for the writer (the writing the solve did not hide);
    // writer, the writer thread's own time (rows, frames) alongside the solve; frames, its part
    // spent on frames.
    double waited_seconds = 0, writer_seconds = 0, frame_seconds = 0;
    // The most history rows held in memory at once (all of them when the rows are kept).
    std::size_t peak_rows_held = 0;

    bool interrupted() const { return history.summary.interrupt_signal != 0; }
  };

  // Builds the model and checks the run (the solver's check, the bounds of run_bounds.h against
  // `output`, the folder the run will write: empty, none). Throws io::InputError.
  // The most history rows a streamed run holds at once, whatever its record's length: the block
  // being formed and the blocks waiting for the writer thread.
  inline constexpr std::size_t streamed_rows_held_at_most = (32 + 1) * 256;

  // keep_rows: the result's history keeps every row (otherwise only a run without an output
  // folder does, and only then does the memory bound of run_bounds.h apply).
  SimulationSetup prepare_simulation(const CaseFile &c, const std::filesystem::path &output = {}, bool quiet = true,
                                     bool keep_rows = false);
  // Runs to the final time; a signal ends it early with the history so far (interrupted()).
  // folder: where the rows, the frames at Simulation/Frame interval and support_forces.csv
  // stream (an OutputFolder's staging folder; empty: nothing is written, the rows are kept).
  // timer: where the run's sections are timed (solve; the streams closed; statistics), if given.
  SimulationResult run_simulation(SimulationSetup setup, const std::filesystem::path &folder = {},
                                  dealii::TimerOutput *timer = nullptr);
  // events.csv (or records.h5's events and statistics); with clearance supports statistics.csv
  // and the files and plots of write_support_summaries, waited for; after a signal,
  // INTERRUPTED; and, for a run that kept its rows instead of streaming them (no folder), the
  // rows and support_forces.csv, by the same writers.
  void write_simulation(const SimulationResult &result, io::OutputFolder &out);

  // The run's summary as `simulate` prints it: the solver, its steps, impacts, counters, the
  // energy balance and the wall time, a line each.
  void print_summary(std::ostream &out, const integrators::RunSummary &summary);

  // history.csv from a history that kept its rows (a run held in memory, a comparison's runs).
  void write_history_csv(const std::filesystem::path &file, const integrators::ResponseHistory &history);
} // namespace vibroimpact::studies
