// vibroimpact: the command-line program. One verb per job, one parameter file:
//
//   vibroimpact modes      examples/pinned_beam_modes/case.prm -o output/modes
//   vibroimpact simulate   examples/two_dof_sticking/case.prm -s 'Moreau-Jean/Energy correction=false'
//   vibroimpact simulate   examples/pinned_beam_obstacle/case.prm -s 'Simulation/Solver=modal-cor'
//   vibroimpact converge   examples/pinned_beam_modes/case.prm -s 'Convergence/Refinement cycles=5'
//   vibroimpact converge   examples/bar_on_rigid_wall/case.prm
//   vibroimpact compare    examples/pinned_beam_obstacle/case.prm
//   mpirun -np 2 vibroimpact sweep examples/pinned_beam_frequency_sweep/case.prm
//   vibroimpact parameters
//
// Exit codes: 0 success, 2 bad input (one line naming file, parameter and reason),
// 1 a numerical failure that could not be recovered, 128 + signal after SIGINT/SIGTERM
// (`simulate` then leaves its results up to that time, marked INTERRUPTED; the others nothing).
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>

#include <CLI/CLI.hpp>

#include "verbs.h"

#include <iostream>

int main(int argc, char **argv)
{
  using namespace vibroimpact;
  CLI::App program{"vibroimpact: finite elements for beams, rods and supports that hit obstacles "
                   "or each other"};
  program.require_subcommand(1);
  program.set_version_flag("--version", "vibroimpact " VIBROIMPACT_VERSION);

  app::CommonOptions options;
  const auto add_common = [&options](CLI::App *verb) {
    verb->add_option("case", options.case_file, "parameter file (.prm or .json)")->required();
    verb->add_option("-o,--output", options.output, "output folder (default: output/<Model/Name>)");
    verb->add_option("-s,--set", options.overrides,
                     "override one parameter: 'Section/Sub/Name=value' (repeatable)");
    verb->add_flag("-q,--quiet", options.quiet,
                   "print nothing but errors and warnings (no progress bar, timing, table or summary)");
  };

  CLI::App *modes = program.add_subcommand("modes", "natural frequencies and mode shapes");
  add_common(modes);
  CLI::App *simulate = program.add_subcommand(
    "simulate", "time history by the solver of Simulation/Solver (default: Moreau–Jean with Siconos LCPs)");
  add_common(simulate);
  CLI::App *compare = program.add_subcommand(
    "compare", "the case's runs (subsection Run <name>: any solver, own overrides) against a reference run");
  add_common(compare);
  CLI::App *sweep = program.add_subcommand(
    "sweep", "Poincaré sections over one swept parameter (bifurcation diagram); runs on MPI ranks");
  add_common(sweep);
  CLI::App *converge =
    program.add_subcommand("converge", "convergence table with observed rates: natural frequencies, or response "
                                       "quantities under mesh, time-step or mode refinement");
  add_common(converge);
  CLI::App *continuation = program.add_subcommand(
    "continue", "periodic orbits by shooting and continuation (Trilinos LOCA): branches, Floquet stability, "
                "frequency-energy plot");
  add_common(continuation);
  std::string verb_for_parameters;
  CLI::App   *parameters =
    program.add_subcommand("parameters", "print every parameter with its default and documentation");
  parameters->add_option("verb", verb_for_parameters, "only the parameters this verb reads");

  // CLI11 would report an unknown verb as "a subcommand is required".
  const auto is_verb = [&program](const std::string &word) {
    for (const CLI::App *verb : program.get_subcommands({}))
      if (verb->get_name() == word)
        return true;
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !is_verb(argv[1]))
    {
      std::cerr << "vibroimpact: error: unknown verb '" << argv[1]
                << "' (modes, simulate, compare, sweep, converge, continue, parameters; see vibroimpact --help)\n";
      return io::exit_bad_input;
    }

  try
    {
      program.parse(argc, argv);
    }
  catch (const CLI::ParseError &e)
    {
      if (e.get_exit_code() == 0) // --help
        return program.exit(e);
      std::cerr << "vibroimpact: error: " << e.what() << " (see vibroimpact --help)\n";
      return io::exit_bad_input;
    }

  io::install_interrupt_handlers();
  try
    {
      if (*modes)
        return app::run_modes(options);
      if (*simulate)
        return app::run_simulate(options);
      if (*converge)
        return app::run_converge(options);
      if (*compare)
        return app::run_compare(options);
      if (*continuation)
        return app::run_continue(options, argc, argv);
      if (*sweep)
        return app::run_sweep(options, argc, argv);
      if (*parameters)
        return app::print_parameters(verb_for_parameters);
    }
  catch (const io::InputError &e)
    {
      std::cerr << "vibroimpact: error: " << e.what() << "\n";
      return io::exit_bad_input;
    }
  catch (const io::Interrupted &e)
    {
      std::cerr << "vibroimpact: " << e.what() << "\n";
      return io::exit_code_of(e);
    }
  catch (const std::exception &e)
    {
      std::cerr << "vibroimpact: numerical failure: " << e.what() << "\n";
      return io::exit_numerical_failure;
    }
  return io::exit_success;
}
