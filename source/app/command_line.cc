// The program's command line (main.cc): reads the verb and its options with CLI11, answers
// --help, --version and a mistyped command line itself, and runs a verb in its module
// (verb_module.cc), loaded only then. A function of its own so that the tests run the program's
// every step in a forked copy of their process (tests/program_runner.h), without paying its
// ~0.5 s of loading deal.II once a run.
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/studies/verb_table.h>

#include <CLI/CLI.hpp>

#include "command_line.h"
#include "verb_entry.h"
#include "verbs.h"

#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace
{
  using namespace vibroimpact;

  // Returns the -o option, whose count tells `-o ''` from no -o.
  CLI::Option *add_common_options(CLI::App *verb, app::CommonOptions &options)
  {
    verb->add_option("case", options.case_file, "parameter file (.prm or .json)")->required();
    auto *output = verb->add_option("-o,--output", options.output, "output folder (default: output/<Model/Name>)");
    verb->add_option("-s,--set", options.overrides, "override one parameter: 'Section/Sub/Name=value' (repeatable)");
    verb->add_flag("-q,--quiet", options.quiet,
                   "print nothing but errors and warnings (no progress bar, timing, table or summary)");
    return output;
  }

  // Loads the verb's module (beside the program in the build tree, in the library folder once
  // installed: the program's RUNPATH) and runs the verb there: `continue` has a module of its
  // own, the only one that loads Trilinos LOCA and NOX (verb_module.cc).
  int run_in_module(app::VerbCall call)
  {
    const char *library = studies::verb(call.verb).continuation_module ? "libvibroimpact-cli-continue.so"
                                                                       : "libvibroimpact-cli.so";
    // LAZY as the dynamic loader binds a program's libraries: RTLD_NOW binds every function of
    // the ~230 libraries at once, 1.65e9 instructions against 1.27e9 (doc/performance.md).
    // GLOBAL: MPI's plugins look their symbols up in the libraries loaded before them.
    // OpenBLAS (LAPACK's BLAS here) starts a thread per core and keeps them spinning; on this
    // program's small dense matrices that only takes the cores from the other processes (an MPI
    // sweep's ranks, parallel runs): one thread, unless the user's environment says otherwise.
    ::setenv("OPENBLAS_NUM_THREADS", "1", 0);
    // Run without mpirun (a singleton), Open MPI would start a daemon and probe the network
    // transports in MPI_Init: 0.35–0.4 s of every `continue` and `sweep`. Alone, it needs none.
    if (!std::getenv("OMPI_COMM_WORLD_SIZE"))
      {
        ::setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
        ::setenv("OMPI_MCA_pml", "ob1", 0);
        ::setenv("OMPI_MCA_btl", "self,vader", 0);
      }
    void *module = ::dlopen(library, RTLD_LAZY | RTLD_GLOBAL);
    const auto run = module ? reinterpret_cast<int (*)(const app::VerbCall *)>(::dlsym(module, "vibroimpact_run_verb"))
                            : nullptr;
    if (!run)
      {
        std::cerr << "vibroimpact: error: cannot load the verbs: " << ::dlerror() << "\n";
        return io::exit_numerical_failure;
      }
    return run(&call);
  }
} // namespace

int vibroimpact::app::run_command_line(int argc, char **argv)
{
  const auto started = std::chrono::steady_clock::now(); // simulate reports its start-up from here
  CLI::App program{"vibroimpact: finite elements for beams, rods and supports that hit obstacles "
                   "or each other"};
  program.require_subcommand(1);
  program.set_version_flag("--version", "vibroimpact " VIBROIMPACT_VERSION "\n.vtu writer: " VIBROIMPACT_VTU_WRITER);

  app::CommonOptions     options;
  options.started = started;
  std::vector<CLI::App *>    commands; // of the verbs that read a case, in the table's order
  std::vector<CLI::Option *> outputs;
  std::string                verb_for_parameters;
  CLI::App                  *parameters = nullptr;
  for (const auto &verb : studies::verb_table())
    if (verb.reads_case)
      {
        commands.push_back(program.add_subcommand(verb.name, verb.help));
        outputs.push_back(add_common_options(commands.back(), options));
      }
    else
      {
        parameters = program.add_subcommand(verb.name, verb.help);
        parameters->add_option("verb", verb_for_parameters, "only the parameters this verb reads");
      }

  // CLI11 would report an unknown verb as "a subcommand is required".
  const auto is_verb = [&program](const std::string &word) {
    for (const CLI::App *verb : program.get_subcommands({}))
      if (verb->get_name() == word)
        return true;
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !is_verb(argv[1]))
    {
      std::cerr << "vibroimpact: error: unknown verb '" << argv[1] << "' (" << studies::verb_list(true)
                << "; see vibroimpact --help)\n";
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

  if (*parameters)
    return run_in_module({studies::VerbId::parameters, &options, verb_for_parameters, &argc, &argv});
  for (std::size_t v = 0; v < commands.size(); ++v)
    if (*commands[v])
      {
        // An empty name would fall back to output/<Model/Name>: not what was asked for.
        if (outputs[v]->count() > 0 && options.output.empty())
          {
            std::cerr << "vibroimpact: error: command line: -o: an empty folder name (give a folder, or leave -o out "
                         "to write to output/<Model/Name>)\n";
            return io::exit_bad_input;
          }
        return run_in_module({studies::verb_table()[v].id, &options, {}, &argc, &argv});
      }
  return io::exit_success;
}
