// The verbs of the `vibroimpact` program, one function each.
#pragma once

#include <string>
#include <vector>

namespace vibroimpact::app
{
  struct CommonOptions
  {
    std::string              case_file;
    std::string              output; // empty: output/<Model/Name>
    std::vector<std::string> overrides;
    bool                     quiet = false;
  };

  int run_modes(const CommonOptions &options);
  int run_simulate(const CommonOptions &options);
  int run_converge(const CommonOptions &options);
  int run_compare(const CommonOptions &options);
  // MPI is initialised here only: every other verb runs without it.
  int run_sweep(const CommonOptions &options, int &argc, char **&argv);
  int print_parameters(const std::string &verb);
} // namespace vibroimpact::app
