// `vibroimpact converge case.prm`: convergence tables with observed rates (frequencies, response
// quantities, or a nonsmooth-mode branch on a sequence of meshes). In the module of `continue`
// (libvibroimpact-cli-continue.so), because a branch study runs the continuation library.
#include <vibroimpact/studies/verb_table.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/continuation_verb_calls.h>
#include <vibroimpact/studies/convergence_study.h>

#include "verbs.h"

#include <iostream>
#include <optional>

namespace vibroimpact::app
{
  int run_converge(const CommonOptions &options)
  {
    std::optional<studies::CaseFile> c;
    const auto                       result = studies::converge_verb(call_options(options, c));
    for (const auto &warning : result.warnings)
      std::cerr << "warning: " << warning << "\n";
    if (!options.quiet)
      std::cout << result.table;
    if (result.interrupt_signal == 0)
      return io::exit_success;
    std::cerr << "vibroimpact: interrupted by signal " << result.interrupt_signal
              << ": the cycles finished before it are written, marked INTERRUPTED\n";
    return 128 + result.interrupt_signal;
  }
} // namespace vibroimpact::app
