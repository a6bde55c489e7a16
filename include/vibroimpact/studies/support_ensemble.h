// Ensembles of random-excitation records (`vibroimpact sweep` with Sweep/Parameter = seed): the
// same case run R times with independent realizations of its random loads, the support
// statistics of every record, and their ensemble means with 95 % confidence intervals, which is
// what a wear estimate from a few seconds of simulated turbulence needs (one record's impact rate
// or work rate is itself a random variable).
//
// Realization r (0 .. R-1) adds r × (number of random loads) to every random load's seed: with the
// case's seeds 1 .. K the realizations use 1 .. K, K+1 .. 2K, ... — every load of every record
// has its own seed. Each realization is deterministic and independent of the others, so a share
// of them on an MPI rank (round-robin) gives bit for bit the statistics of the serial run. No MPI
// and no files in the computation: the sweep study (sweep_study.h) distributes, gathers and writes.
#pragma once

#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/io/csv_table.h>
#include <vibroimpact/structure/case_description.h>
#include <vibroimpact/studies/support_statistics.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace vibroimpact::studies
{
  struct EnsembleSettings
  {
    std::string  filename;         // the case file, for the InputErrors of the check
    unsigned int realizations = 1; // R
    double       skip_time    = 0; // Statistics/Start time: the transient left out of every record
    std::size_t  psd_segment  = 0; // Statistics/PSD segment
  };

  // The case description of realization r (seeds shifted as above).
  structure::CaseDescription realization_description(const structure::CaseDescription &description, unsigned int r);

  struct RealizationResult
  {
    unsigned int                   index     = 0;
    unsigned int                   rank      = 0;
    double                         wall_time = 0; // seconds, this record alone
    std::vector<SupportStatistics> statistics;    // without impact peaks (the PSDs are kept)
  };

  class SupportEnsemble
  {
  public:
    // Throws io::InputError naming Sweep/Parameter when the case has no random load or no
    // clearance support.
    SupportEnsemble(const structure::CaseDescription &description, EnsembleSettings settings,
                    const integrators::Solver &solver, const integrators::RunControl &run);

    const EnsembleSettings    &settings() const { return settings_; }
    const integrators::Solver &solver() const { return *solver_; }

    RealizationResult run_realization(unsigned int r, unsigned int rank = 0) const;
    // Realizations r = rank, rank + n_ranks, ... in increasing order; done(k) after each. After
    // SIGINT/SIGTERM the share ends with the realizations finished before it.
    std::vector<RealizationResult> run_share(unsigned int rank, unsigned int n_ranks,
                                             const std::function<void(unsigned int)> &done = {}) const;

  private:
    structure::CaseDescription                 description_;
    EnsembleSettings                           settings_;
    std::shared_ptr<const integrators::Solver> solver_;
    integrators::RunControl                    run_;
  };

  // Mean, sample standard deviation and the 95 % confidence interval of the mean (Student's t with
  // R − 1 degrees of freedom; the half width is 0 for R = 1) of one statistic of one support.
  struct EnsembleEstimate
  {
    std::string  support;
    std::string  statistic; // impacts, impact_rate, contact_fraction, mean_force, rms_force, ...
    unsigned int samples = 0;
    double       mean = 0, deviation = 0, half_width = 0;
  };
  EnsembleEstimate ensemble_estimate(const std::string &support, const std::string &statistic,
                                     const std::vector<double> &samples);

  // Every statistic of every support over the realizations (which must have the same supports).
  std::vector<EnsembleEstimate> ensemble_estimates(const std::vector<RealizationResult> &results);

  // realizations.csv: realization, seed_shift, support and every statistic (one row a support of
  // a record); ensemble.csv: support, statistic, realizations, mean, deviation, ci95_low,
  // ci95_high; ensemble_spectra.csv: frequency and the ensemble-mean displacement PSD per support.
  // (The tables write_sweep writes and the Python module returns; ensemble_spectra_table has no
  // columns, and no file is written, without supports.)
  io::CsvTable realizations_table(const std::vector<RealizationResult> &results, unsigned int seeds_per_realization);
  io::CsvTable ensemble_table(const std::vector<EnsembleEstimate> &estimates);
  io::CsvTable ensemble_spectra_table(const std::vector<RealizationResult> &results);

  // How many random loads the case has (the seed shift per realization).
  unsigned int random_load_count(const structure::CaseDescription &description);
} // namespace vibroimpact::studies
