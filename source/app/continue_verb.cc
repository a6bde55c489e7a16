// `vibroimpact continue case.prm`: families of periodic orbits (subsection Continuation), written
// as branch.csv, a frequency–energy plot (fep.png) and, for chosen points, the orbit over one
// period (orbit_<family>_<point>.csv and .pvd).
#include <vibroimpact/studies/verb_table.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/studies/continuation_study.h>
#include <vibroimpact/studies/continuation_verb_calls.h>

#include "rank_zero.h"
#include "verbs.h"

#include <cstdio>
#include <iostream>
#include <memory>

namespace vibroimpact::app
{
  namespace
  {
    // The summary (stdout, none with -q), then the warnings (stderr) of a run that wrote its files.
    void report_branches(const studies::ContinuationResult &result, const periodic::ContinuationCase &cc,
                         const model::StructuralModel &m, const unsigned int n_ranks, const bool quiet)
    {
      if (!quiet)
        for (const auto &line : studies::continuation_summary(result, m, n_ranks))
          std::printf("%s\n", line.c_str());
      std::fflush(stdout);
      for (const auto &warning : studies::continuation_warnings(result, cc))
        std::fprintf(stderr, "vibroimpact: warning: %s\n", warning.c_str());
      if (result.interrupt_signal != 0)
        std::fprintf(stderr, "vibroimpact: interrupted by signal %d: the orbits converged before it are written, "
                             "marked INTERRUPTED\n", result.interrupt_signal);
    }
  } // namespace

  int run_continue(const CommonOptions &options, int &argc, char **&argv)
  {
    const MpiRun       mpi(argc, argv);
    const MPI_Comm     comm    = mpi.comm();
    const unsigned int n_ranks = mpi.n_ranks();
    const bool         root    = mpi.root();

    auto [code, setup, destination, out] =
      prepare_on_every_rank(options, studies::VerbId::continuation, comm,
                            [](const studies::CaseFile &c) { return studies::prepare_continuation(c); });
    if (code != io::exit_success)
      return code;

    studies::VerbCallOptions call;
    call.quiet            = options.quiet;
    call.keep_interrupted = true;
    const auto result     = studies::continuation_verb(setup, comm, out.get(), call);
    if (!root)
      return io::exit_success;
    const auto &cc    = setup.continuation;
    const auto &model = setup.model;
    if (!result.any_orbit())
      {
        if (result.interrupt_signal != 0)
          throw io::Interrupted(result.interrupt_signal, "during the continuation: no orbit had converged, nothing written");
        std::fprintf(stderr, "vibroimpact: error: %s\n", studies::no_orbit_message(result, cc).c_str());
        return io::exit_numerical_failure;
      }
    report_branches(result, cc, *model, n_ranks, options.quiet);
    return result.interrupt_signal != 0 ? 128 + result.interrupt_signal : io::exit_success;
  }
} // namespace vibroimpact::app
