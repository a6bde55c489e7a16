// Each verb's one library call, made by the command line (source/app/*_verb.cc) and the Python
// module (python/vibroimpact_module.cc) alike: it reads the case, prepares the study (every input
// check), opens the output folder before computing, runs, writes and commits, times its phases and
// declares them to the progress stream (io::ProgressPlan). The sides differ only in what is given
// here: where the case comes from, the folder (none: nothing written), whether bars are drawn,
// whether an interrupted run keeps its files, and the timer. `continue` and `converge` are in the
// continuation library (continuation_verb_calls.h).
#pragma once

#include <vibroimpact/studies/comparison_study.h>
#include <vibroimpact/studies/modes_study.h>
#include <vibroimpact/studies/simulation_study.h>
#include <vibroimpact/studies/sweep_study.h>
#include <vibroimpact/studies/verb_table.h>

#include <mpi.h>

#include <functional>
#include <memory>
#include <string>

namespace dealii
{
  class TimerOutput;
}

namespace vibroimpact::io
{
  class OutputFolder;
}

namespace vibroimpact::studies
{
  struct CaseFile;

  struct VerbCallOptions
  {
    // The case, read when the call starts (the command line reads its file inside the first timed section).
    std::function<const CaseFile &()> read_case;
    // The output folder of that case; empty: nothing is written.
    std::function<std::string(const CaseFile &)> destination = [](const CaseFile &) { return std::string(); };
    bool quiet = true; // no bars drawn (the thread's progress sink hears them either way)
    // An interrupted run's files are written, marked INTERRUPTED (the command line); else the
    // call throws io::Interrupted and writes nothing (the Python module).
    bool keep_interrupted = false;
    // simulate: the result keeps every row even when they stream to the folder (the Python module returns them).
    bool                 keep_rows = false;
    dealii::TimerOutput *timer            = nullptr; // its sections, if given
  };

  // Sections and progress phases: "read case and assemble", "eigensolve", "output".
  ModesResult modes_verb(const VerbCallOptions &options);

  // prepared(setup): after the checks, before the folder is opened (the command line prints the
  // model there). Sections: "set-up: case file, model, checks", run_simulation's, "write: ...".
  SimulationResult simulate_verb(const VerbCallOptions                          &options,
                                 const std::function<void(const SimulationSetup &)> &prepared = {});

  // One progress phase a run; on_run(name, solver) before each.
  ComparisonResult compare_verb(const VerbCallOptions                                                 &options,
                                const std::function<void(const std::string &, const std::string &)> &on_run = {});

  // After each rank prepared `setup` (rank 0 with the folder, the others none): the sweep's share
  // of this rank as one progress phase (drawn on rank 0 unless quiet), then rank 0 writes and
  // commits. An interrupted sweep keeps its finished values only with keep_interrupted (as
  // VerbCallOptions::keep_interrupted); else every rank throws io::Interrupted.
  SweepResult sweep_verb(const SweepSetup &setup, MPI_Comm comm, io::OutputFolder *out, bool quiet,
                         bool keep_interrupted = false);

  // Each case's verb names its output folder after the verb (its manifest).
  std::unique_ptr<io::OutputFolder> open_verb_folder(const std::string &destination, VerbId verb);
} // namespace vibroimpact::studies
