// `vibroimpact compare case.prm`: the case's runs against its reference run
// (studies/comparison_study.h), each difference report also printed.
#include <vibroimpact/studies/verb_table.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/comparison_study.h>

#include "verbs.h"

#include <iostream>

namespace vibroimpact::app
{
  int run_compare(const CommonOptions &options)
  {
    const auto       c     = studies::read_case_file(options.case_file, options.overrides);
    auto             setup = studies::prepare_comparison(c, options.quiet);
    io::OutputFolder out(output_directory(options, c.description), studies::verb_name(studies::VerbId::compare));
    const auto       result = studies::run_comparison(std::move(setup), [&](const auto &name, const auto &solver) {
      if (!options.quiet)
        std::cout << "run " << name << ": " << solver << "\n";
    });
    for (const auto &run : result.runs)
      for (const auto &warning : run.history.summary.warnings)
        std::cerr << "warning: run " << run.name << ": " << warning << "\n";
    studies::write_comparison(result, out);
    out.commit();
    if (!options.quiet)
      for (const auto &difference : result.reports)
        studies::write_report(std::cout, difference);
    return io::exit_success;
  }
} // namespace vibroimpact::app
