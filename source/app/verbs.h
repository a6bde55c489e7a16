// The verbs of the `vibroimpact` program, one function each.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace dealii
{
  class TimerOutput;
}

namespace vibroimpact::structure
{
  struct CaseDescription;
}

namespace vibroimpact::studies
{
  struct CaseFile;
  struct VerbCallOptions;
} // namespace vibroimpact::studies

namespace vibroimpact::app
{
  struct CommonOptions
  {
    std::string              case_file;
    std::string              output; // empty: output/<Model/Name>
    std::vector<std::string> overrides;
    bool                     quiet = false; // no progress bar, timing or summary: errors and warnings only
    // When the program's main() began, before it loaded the verbs and the solver libraries
    // (none: a verb called in-process, whose start-up is not its own).
    std::chrono::steady_clock::time_point started{};
  };

  int run_modes(const CommonOptions &options);
  int run_simulate(const CommonOptions &options);
  int run_converge(const CommonOptions &options);
  int run_compare(const CommonOptions &options);
  // MPI is initialised here (one family a rank) and in sweep.
  int run_continue(const CommonOptions &options, int &argc, char **&argv);
  // MPI is initialised here and in continue only: every other verb runs without it.
  int run_sweep(const CommonOptions &options, int &argc, char **&argv);
  int print_parameters(const std::string &verb);

  // The verb's library call (studies/verb_calls.h) as the command line makes it: the case file
  // read into `c` when the call asks for it (inside its first timed section), -o or
  // output/<Model/Name>, bars unless -q, an interrupted run's files kept.
  studies::VerbCallOptions call_options(const CommonOptions &options, std::optional<studies::CaseFile> &c,
                                        dealii::TimerOutput *timer = nullptr);

  // -o, or output/<Model/Name>.
  std::string output_directory(const CommonOptions &options, const structure::CaseDescription &description);
} // namespace vibroimpact::app
