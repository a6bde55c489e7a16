// The sweep study of a case (`vibroimpact sweep`, the Python module's Case.sweep()): Poincaré
// sections over one swept parameter (parameter_sweep.h), or, with Sweep/Parameter = seed, an
// ensemble of random-load records with their support statistics and ensemble estimates
// (support_ensemble.h). The values (realizations) are dealt round-robin to the ranks of `comm`
// and gathered on rank 0 by deal.II's Utilities::MPI::gather over Boost-serialised results
// (studies/result_serialization.h): every value is deterministic, so the result equals the
// serial one bit for bit (but for the measured wall times and ranks). write_sweep writes
// poincare.csv, impacts.csv, sweep_summary.csv (or realizations.csv, ensemble.csv,
// ensemble_spectra.csv) and sweep.txt, the summary text.
// As every study: prepare (all input checks, before any output), run, write.
#pragma once

#include <vibroimpact/model/non_reentrant.h>
#include <vibroimpact/studies/parameter_sweep.h>
#include <vibroimpact/studies/support_ensemble.h>

#include <boost/core/noncopyable.hpp>

#include <mpi.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::io
{
  class OutputFolder;
}

namespace vibroimpact::studies
{
  struct CaseFile;

  // One of the two: a parameter sweep or a seed ensemble.
  struct SweepSetup
  {
    std::unique_ptr<ParameterSweep>  sweep;
    std::unique_ptr<SupportEnsemble> ensemble;
    unsigned int                     seeds_per_realization = 0; // ensemble: the seed shift

    std::size_t size() const; // values or realizations
    std::string what() const; // "21 values of gap"
    // How many of them rank `rank` of `n_ranks` computes (for its progress bar).
    unsigned int share_size(unsigned int rank, unsigned int n_ranks) const;
  };

  struct SweepResult
  {
    std::vector<SweepValueResult>  values;       // a parameter sweep, in value order
    std::vector<RealizationResult> realizations; // an ensemble, in realization order
    std::vector<EnsembleEstimate>  estimates;    // an ensemble
    unsigned int                   seeds_per_realization = 0;
    unsigned int                   n_ranks    = 1;
    double                         total_wall = 0; // seconds, from the start to the gathered results
    std::string                    summary;        // sweep.txt: the table printed by the verb
    int                            interrupt_signal = 0; // the signal that stopped it, 0: none
  };

  // One BLAS thread while it lives, the previous count restored after. OpenBLAS splits a product
  // among as many threads as it sees cores, and the partial sums then round differently: with one
  // BLAS thread every value's result is the same whatever the number of ranks (the parallelism of
  // a sweep is its ranks), and the Python module's the command line's. Looked up at run time, so
  // that any BLAS links. The count is the process's: it holds model::blas_threads_mutex()
  // exclusively, so it waits for the runs in other threads that hold it shared, and they for it.
  class OneBlasThread : boost::noncopyable
  {
  public:
    OneBlasThread();
    ~OneBlasThread();

  private:
    std::unique_lock<std::shared_mutex> alone_; // first: taken before the count changes
    int                                 previous_ = 0; // 0: no OpenBLAS
  };

  // Builds the model and checks the sweep (or the ensemble) and the run: io::InputError.
  SweepSetup prepare_sweep(const CaseFile &c);
  // Every rank of comm calls it; the result is complete on rank 0 only. done(k) after the k-th
  // value of this rank's share. A failure on any rank throws on rank 0, and every rank still
  // takes part in the gathers. After SIGINT/SIGTERM on any rank, every rank's interrupt_signal
  // says so, and rank 0's result holds the values finished before it (their summary ends with a
  // "# interrupted by signal N" line); none finished: io::Interrupted.
  SweepResult run_sweep(const SweepSetup &setup, MPI_Comm comm, const std::function<void(unsigned int)> &done = {});
  // The CSV files of the result by name (poincare.csv, ... or realizations.csv, ...), as
  // write_sweep writes them and the Python module returns them.
  std::vector<std::pair<std::string, io::CsvTable>> sweep_tables(const SweepResult &result);
  // An interrupted result's files come with a file INTERRUPTED.
  void        write_sweep(const SweepResult &result, io::OutputFolder &out);
  // The files write_sweep writes, for the verb's last line.
  std::string sweep_files(const SweepResult &result);
} // namespace vibroimpact::studies
