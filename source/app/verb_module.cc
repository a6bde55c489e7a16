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
    const std::string verb = call.verb;
    const auto       &o    = *call.options;
#ifdef VIBROIMPACT_CONTINUE_MODULE
    if (verb == "continue")
      return app::run_continue(o, *call.argc, *call.argv);
    if (verb == "converge")
      return app::run_converge(o);
#else
    if (verb == "parameters")
      return app::print_parameters(call.parameters_of);
    if (verb == "modes")
      return app::run_modes(o);
    if (verb == "simulate")
      return app::run_simulate(o);
    if (verb == "compare")
      return app::run_compare(o);
    if (verb == "sweep")
      return app::run_sweep(o, *call.argc, *call.argv);
#endif
    std::cerr << "vibroimpact: error: unknown verb '" << verb << "'\n";
    return io::exit_bad_input;
  }
} // namespace

extern "C" int vibroimpact_run_verb(const vibroimpact::app::VerbCall *call)
{
  return run_verb([call] { return dispatch(*call); });
}
