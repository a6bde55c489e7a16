// `vibroimpact compare case.prm`: the case's runs against its reference run
// (studies/comparison_study.h), each difference report also printed.
#include <vibroimpact/studies/verb_table.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/comparison_study.h>
#include <vibroimpact/studies/verb_calls.h>

#include "verbs.h"

#include <iostream>
#include <optional>

namespace vibroimpact::app
{
  int run_compare(const CommonOptions &options)
  {
    std::optional<studies::CaseFile> c;
    const auto result = studies::compare_verb(call_options(options, c), [&](const auto &name, const auto &solver) {
      if (!options.quiet)
        std::cout << "run " << name << ": " << solver << "\n";
    });
    for (const auto &run : result.runs)
      for (const auto &warning : run.history.summary.warnings)
        std::cerr << "warning: run " << run.name << ": " << warning << "\n";
    if (!options.quiet)
      for (const auto &difference : result.reports)
        studies::write_report(std::cout, difference);
    return io::exit_success;
  }
} // namespace vibroimpact::app
