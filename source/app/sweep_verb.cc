// `vibroimpact sweep case.prm`: Poincaré sections over one swept parameter, or (Sweep/Parameter =
// seed) an ensemble of random-excitation records (studies/sweep_study.h), on the MPI ranks of
// mpirun -np N; rank 0 alone prints and writes. The output equals the serial run's bit for bit
// (except the measured wall times and ranks in sweep_summary.csv).
#include <vibroimpact/studies/verb_table.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/sweep_study.h>
#include <vibroimpact/studies/verb_calls.h>

#include "rank_zero.h"
#include "verbs.h"

#include <cstdio>
#include <iostream>
#include <memory>

namespace vibroimpact::app
{
  int run_sweep(const CommonOptions &options, int &argc, char **&argv)
  {
    const MpiRun       mpi(argc, argv);
    const MPI_Comm     comm    = mpi.comm();
    const unsigned int n_ranks = mpi.n_ranks();
    const bool         root    = mpi.root();
    const studies::OneBlasThread one_blas_thread; // the same results on any number of ranks

    auto [code, setup, destination, out] =
      prepare_on_every_rank(options, studies::VerbId::sweep, comm, &studies::prepare_sweep);
    if (code != io::exit_success)
      return code;

    if (root && !options.quiet)
      std::printf("sweep: %s on %u rank%s\n", setup.what().c_str(), n_ranks, n_ranks == 1 ? "" : "s");
    const auto result = studies::sweep_verb(setup, comm, out.get(), options.quiet, true);
    const int  status = result.interrupt_signal == 0 ? io::exit_success : 128 + result.interrupt_signal;
    if (!root)
      return status;
    if (!options.quiet)
      {
        std::fputs(result.summary.c_str(), stdout);
        std::printf("wrote %s/{%s}\n", destination.c_str(), studies::sweep_files(result).c_str());
      }
    if (result.interrupt_signal != 0)
      std::fprintf(stderr, "vibroimpact: interrupted by signal %d: the %s finished before it are written, "
                           "marked INTERRUPTED\n", result.interrupt_signal, setup.sweep ? "values" : "realizations");
    return status;
  }
} // namespace vibroimpact::app
