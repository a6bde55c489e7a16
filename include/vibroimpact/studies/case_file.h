// A whole case file as the program and the Python module read it: every section of every module, bound in one list
// (bind_case_file) that both reading and `vibroimpact parameters` go through, so that a
// parameter that is read is always documented and the reverse. Every value is checked before
// anything is computed or written (one-line io::InputError, exit code 2).
#pragma once

#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/periodic/continuation_parameters.h>
#include <vibroimpact/structure/case_description.h>
#include <vibroimpact/studies/convergence.h>
#include <vibroimpact/studies/parameter_sweep.h>
#include <vibroimpact/studies/solver_comparison.h>

#include <iosfwd>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>


namespace vibroimpact::studies
{
  struct CaseFile
  {
    std::string              filename;
    std::vector<std::string> overrides; // the command line's -s, to re-read the file per run
    std::optional<std::string> text;    // a case given as text (read_case_text), not a file

    structure::CaseDescription description;

    // "Simulation": the solver and the run control shared by every solver.
    std::string             solver_name = integrators::SolverRegistry::default_name();
    integrators::RunControl run;
    // One of every registered solver, each with the settings of its own subsection.
    std::vector<std::unique_ptr<integrators::Solver>> solvers;

    // "Statistics": the record's start (the transient left out) and the Welch segment.
    double       statistics_start = 0.0;
    unsigned int psd_segment      = 0;
    bool         hdf5_records     = false; // Simulation/Output format: records.h5 + solution.xdmf, not CSV + .pvd

    ConvergenceSettings        convergence;
    SweepSettings              sweep;
    ComparisonSettings         comparison;
    periodic::ContinuationCase          continuation;
    std::vector<RunDefinition> runs; // "Run <name>"

    const integrators::Solver &solver() const { return solver(solver_name); }
    const integrators::Solver &solver(const std::string &name) const;
    // The settings of the registered solver whose settings are of type Settings, as the case
    // gives its subsection: how a flow map borrows the Moreau–Jean stepper's (its time step and
    // the energy correction every map with impacts shares) without naming the solver.
    template <typename Settings>
    const Settings &settings_of() const
    {
      for (const auto &s : solvers)
        if (const auto *settings = integrators::settings_of<Settings>(*s))
          return *settings;
      throw std::logic_error("no registered solver has the settings asked for");
    }
    // The run named `name`; throws io::InputError naming `parameter` when there is none.
    const RunDefinition &find_run(const std::string &name, const std::string &parameter) const;
  };

  // Subsection families: the structure's ("Body", "Contact", ...) and "Run".
  std::vector<std::string> case_file_families();

  // Declares (before the file is parsed) or reads (after) every section of a case file.
  void bind_case_file(io::ParameterFile &file, CaseFile &c);

  // Reads a .prm or .json case file and applies 'Section/Name=value' overrides.
  CaseFile read_case_file(const std::string &filename, const std::vector<std::string> &overrides = {});

  // A case given as the text of a .prm (or JSON) file; `name` stands for the file in messages.
  CaseFile read_case_text(const std::string &name, const std::string &text,
                          const std::vector<std::string> &overrides = {});

  // The same case (file or text) read again with other overrides.
  CaseFile reread_case_file(const CaseFile &c, const std::vector<std::string> &overrides);

  // The case file as `run` sees it: the file with the command line's overrides and the run's.
  CaseFile read_run(const CaseFile &c, const RunDefinition &run);

  // Every parameter a verb reads (every verb: empty), with defaults and documentation, and the
  // registered solvers.
  void print_parameters(std::ostream &out, const std::string &verb);

  // The entries print_parameters prints, as data (the Python module's vibroimpact.parameters).
  std::vector<io::ParameterEntry> parameter_entries(const std::string &verb);

  // Every entry of a case (a file's text, `name` standing for it, with its overrides) with its value,
  // and the top-level sections the case gives (in the file or by an override).
  struct CaseEntries
  {
    std::vector<io::ParameterEntry> entries;
    std::vector<std::string>        sections;
  };
  CaseEntries case_entries(const std::string &name, const std::string &text, const std::vector<std::string> &overrides);
} // namespace vibroimpact::studies
