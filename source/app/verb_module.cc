// The verbs as loadable modules: the program (main.cc) reads the command line without the solver
// libraries, and loads a module, and with it deal.II, Trilinos, PETSc, VTK, ..., only when a verb
// runs. libvibroimpact-cli.so holds every verb but `continue` and `converge`, which are libvibroimpact-cli-continue.so
// (this file built with VIBROIMPACT_CONTINUE_MODULE), the one that loads Trilinos LOCA and NOX.
// Here every failure of a verb becomes its exit code and one line on stderr.
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/write_error.h>

#include "verb_entry.h"
#include "verbs.h"

#include <array>
#include <functional>
#include <iostream>

namespace
{
  using namespace vibroimpact;

  int run_verb(const std::function<int()> &verb)
  {
    io::install_interrupt_handlers();
    try
      {
        return verb();
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
    catch (const io::WriteError &e)
      {
        std::cerr << "vibroimpact: error: " << e.what()
                  << " (nothing committed: the output folder keeps what it held before)\n";
        return io::exit_numerical_failure;
      }
    catch (const std::exception &e)
      {
        std::cerr << "vibroimpact: numerical failure: " << e.what() << "\n";
        return io::exit_numerical_failure;
      }
  }

  using VerbFunction = int (*)(const app::VerbCall &);

  // This module's verbs, in the order of VerbId (studies/verb_table.h); nullptr: the other module's.
  constexpr std::array<VerbFunction, studies::verb_count> verbs_in_this_module{{
#ifdef VIBROIMPACT_CONTINUE_MODULE
    nullptr, nullptr, nullptr, nullptr,
    [](const app::VerbCall &call) { return app::run_converge(*call.options); },
    [](const app::VerbCall &call) { return app::run_continue(*call.options, *call.argc, *call.argv); },
    nullptr,
#else
    [](const app::VerbCall &call) { return app::run_modes(*call.options); },
    [](const app::VerbCall &call) { return app::run_simulate(*call.options); },
    [](const app::VerbCall &call) { return app::run_compare(*call.options); },
    [](const app::VerbCall &call) { return app::run_sweep(*call.options, *call.argc, *call.argv); },
    nullptr, nullptr,
    [](const app::VerbCall &call) { return app::print_parameters(call.parameters_of); },
#endif
  }};

  int dispatch(const app::VerbCall &call)
  {
    const auto verb = verbs_in_this_module[static_cast<std::size_t>(call.verb)];
    if (verb)
      return verb(call);
    std::cerr << "vibroimpact: error: the verb '" << studies::verb_name(call.verb) << "' is not in this module\n";
    return io::exit_bad_input;
  }
} // namespace

extern "C" int vibroimpact_run_verb(const vibroimpact::app::VerbCall *call)
{
  return run_verb([call] { return dispatch(*call); });
}
