// `vibroimpact converge case.prm`: convergence tables with observed rates (frequencies, response
// quantities, or a nonsmooth-mode branch on a sequence of meshes). In the module of `continue`
// (libvibroimpact-cli-continue.so), because a branch study runs the continuation library.
#include <vibroimpact/studies/verb_table.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/convergence_study.h>

#include "verbs.h"

#include <iostream>

namespace vibroimpact::app
{
  int run_converge(const CommonOptions &options)
  {
    const auto       c     = studies::read_case_file(options.case_file, options.overrides);
    const auto       setup = studies::prepare_convergence(c);
    io::ProgressBar  progress(studies::verb_name(studies::VerbId::converge), setup.settings.n_cycles, options.quiet);
    io::OutputFolder out(output_directory(options, c.description), studies::verb_name(studies::VerbId::converge));
    const auto result = studies::run_convergence(setup, [&](unsigned int cycle) { progress.update(cycle + 1); });
    progress.finish();
    for (const auto &warning : result.warnings)
      std::cerr << "warning: " << warning << "\n";
    studies::write_convergence(result, out);
    out.commit(result.interrupt_signal != 0);
    if (!options.quiet)
      std::cout << result.table;
    if (result.interrupt_signal == 0)
      return io::exit_success;
    std::cerr << "vibroimpact: interrupted by signal " << result.interrupt_signal
              << ": the cycles finished before it are written, marked INTERRUPTED\n";
    return 128 + result.interrupt_signal;
  }} // namespace vibroimpact::app
