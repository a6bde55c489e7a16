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

  int dispatch(const app::VerbCall &call)
  {
    using studies::VerbId;
    const auto &o = *call.options;
    switch (call.verb)
      {
#ifdef VIBROIMPACT_CONTINUE_MODULE
        case VerbId::continuation:
          return app::run_continue(o, *call.argc, *call.argv);
        case VerbId::converge:
          return app::run_converge(o);
#else
        case VerbId::parameters:
          return app::print_parameters(call.parameters_of);
        case VerbId::modes:
          return app::run_modes(o);
        case VerbId::simulate:
          return app::run_simulate(o);
        case VerbId::compare:
          return app::run_compare(o);
        case VerbId::sweep:
          return app::run_sweep(o, *call.argc, *call.argv);
#endif
        default:
          break;
      }
    std::cerr << "vibroimpact: error: the verb '" << studies::verb_name(call.verb) << "' is not in this module\n";
    return io::exit_bad_input;
  }
} // namespace

extern "C" int vibroimpact_run_verb(const vibroimpact::app::VerbCall *call)
{
  return run_verb([call] { return dispatch(*call); });
}
