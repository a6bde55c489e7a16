// The comparison study of a case (`vibroimpact compare`, the Python module's Case.compare()):
// every "Run <name>" (a registered solver plus its own overrides) on its model, and the
// differences of every run from the reference run, returned as data; write_comparison then
// writes each run's history.csv and events.csv in <run>/, comparison.txt, impacts_<run>.csv,
// overlay plots of the gaps and the total energy and, with clearance supports, every run's
// statistics in its folder and support_statistics.csv side by side.
// As every study: prepare (all input checks, before any output), run, write.
#pragma once

#include <vibroimpact/integrators/response_history.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/studies/solver_comparison.h>
#include <vibroimpact/studies/support_statistics.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::io
{
  class OutputFolder;
}

namespace vibroimpact::studies
{
  struct CaseFile;

  struct ComparisonSetup
  {
    struct Run
    {
      std::string                                name, solver_name;
      model::StructuralModel                     model;
      std::shared_ptr<const integrators::Solver> solver;
      integrators::RunControl                    control;
      std::vector<WearInputs>                    wear; // per support in space (its Wear entries)
    };
    std::vector<Run>   runs;
    std::string        reference; // a run's name
    ComparisonSettings settings;
    double             statistics_start = 0;
    unsigned int       psd_segment      = 0;
  };

  struct ComparisonResult
  {
    struct Run
    {
      std::string                    name, solver_name;
      model::StructuralModel         model;
      integrators::ResponseHistory   history;
      std::vector<SupportStatistics> statistics; // clearance supports, planar and in space
    };
    std::vector<Run>              runs;
    std::size_t                   reference = 0; // index into runs
    std::vector<ComparisonReport> reports;       // every other run against the reference, in run order
  };

  // Reads every run's case (the file with the command line's and the run's overrides), builds and
  // checks it: io::InputError for fewer than two runs or any run that cannot run.
  ComparisonSetup prepare_comparison(const CaseFile &c, bool quiet = true);
  // on_run(name, solver) before each run.
  ComparisonResult run_comparison(ComparisonSetup setup,
                                  const std::function<void(const std::string &, const std::string &)> &on_run = {});
  // The study's own CSV files by name (support_statistics.csv with clearance supports,
  // impacts_<run>.csv for every run but the reference) and comparison.txt, as write_comparison
  // writes them and the Python module returns them.
  std::vector<std::pair<std::string, io::CsvTable>> comparison_tables(const ComparisonResult &result);
  std::string                                       comparison_text(const ComparisonResult &result);
  void write_comparison(const ComparisonResult &result, io::OutputFolder &out);
} // namespace vibroimpact::studies
