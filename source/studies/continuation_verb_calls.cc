// The library calls of `continue` and `converge` (studies/continuation_verb_calls.h).
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/continuation_verb_calls.h>

#include <deal.II/base/mpi.h>

#include <chrono>

namespace vibroimpact::studies
{
  ConvergenceResult converge_verb(const VerbCallOptions &options)
  {
    const auto            &c           = options.read_case();
    const auto             setup       = prepare_convergence(c);
    const auto             destination = options.destination(c);
    const io::ProgressPlan plan(1); // the cycles; their runs are bars inside this one
    io::ProgressBar        progress(verb_name(VerbId::converge), setup.settings.n_cycles, options.quiet);
    const auto             out    = destination.empty() ? nullptr : open_verb_folder(destination, VerbId::converge);
    auto                   result = run_convergence(setup, [&](unsigned int cycle) { progress.update(cycle + 1); });
    progress.finish();
    if (result.interrupt_signal != 0 && !options.keep_interrupted)
      throw io::Interrupted(result.interrupt_signal, "during the convergence study: nothing written");
    if (out)
      {
        write_convergence(result, *out);
        out->commit(result.interrupt_signal != 0);
      }
    return result;
  }

  unsigned int families_on_rank(const periodic::ContinuationCase &cc, const unsigned int rank,
                                const unsigned int n_ranks)
  {
    const auto   families = families_of(cc).size();
    unsigned int count    = 0;
    for (std::size_t f = rank; f < families; f += n_ranks)
      ++count;
    return count;
  }

  ContinuationResult continuation_verb(ContinuationSetup &setup, const MPI_Comm comm, io::OutputFolder *out,
                                       const VerbCallOptions &options)
  {
    const unsigned int rank    = dealii::Utilities::MPI::this_mpi_process(comm);
    const unsigned int n_ranks = dealii::Utilities::MPI::n_mpi_processes(comm);
    auto &[cc, model, flow, curves] = setup;
    ContinuationResult result;
    {
      const io::ProgressPlan plan(families_on_rank(cc, rank, n_ranks)); // each family's bar
      result = run_continuation(cc, *flow, comm, options.quiet);
    }
    if (rank != 0 || !result.any_orbit())
      return result;
    if (result.interrupt_signal == 0 && setup.curves.maps)
      {
        const io::ProgressPlan plan(1); // the curves of special points
        const auto             start = std::chrono::steady_clock::now();
        result.curves           = trace_curves(result.branches, cc, setup.curves, options.quiet);
        result.interrupt_signal = io::interrupt_signal();
        result.wall_time += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }
    if (result.interrupt_signal != 0 && !options.keep_interrupted)
      throw io::Interrupted(result.interrupt_signal, "during the continuation: nothing written");
    if (out)
      {
        write_continuation(result, cc, *flow, *model, *out);
        out->commit(result.interrupt_signal != 0);
      }
    return result;
  }
} // namespace vibroimpact::studies
